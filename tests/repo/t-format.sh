#!/bin/sh
# t-format.sh — the C layout of .clang-format on every line written since it was adopted:
# the base is the commit that added .clang-format (SLPI_FORMAT_BASE=commit: another); a
# line of a .c or .h file that differs from the base (committed or not) and was written
# after it (git blame: a commit whose committer time is not before the base's, or not yet
# committed) must be as clang-format lays it out (clang-format-diff over those lines).
# Code written before the base keeps its hand layout, also when it is merged later
# (docs/conventions.md#layout); no file is reformatted wholesale by this check.
# `sh tests/repo/t-format.sh --fix` lays out exactly those lines in place.
cd "$(dirname "$0")/../.." || exit 2
cf=$(command -v clang-format-diff-14 || command -v clang-format-diff)
[ -n "$cf" ] || { echo "t-format: SKIP: clang-format-diff is not installed (as root: apt-get install clang-format)"; exit 77; }
git rev-parse --git-dir > /dev/null 2>&1 || { echo "t-format: SKIP: not a git work tree (the check compares with the commit that adopted .clang-format)"; exit 77; }
base=${SLPI_FORMAT_BASE:-$(git log --diff-filter=A --format=%H -- .clang-format | tail -1)}
[ -n "$base" ] || { echo "t-format: SKIP: no commit adds .clang-format in this history (a shallow clone?)"; exit 77; }
bin=$(basename "$(command -v clang-format-14 || command -v clang-format)")
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
git diff -U0 --no-color -M "$base" -- '*.c' '*.h' > "$tmp/diff"
# the lines written after the base, as a diff of one-line hunks clang-format-diff reads
/usr/bin/python3 - "$base" "$tmp/diff" > "$tmp/new" <<'PY'
import re, subprocess, sys
base, diff = sys.argv[1], sys.argv[2]
t0 = int(subprocess.run(["git", "log", "-1", "--format=%ct", base], capture_output=True, text=True).stdout)
f, keep = None, {}
for line in open(diff, errors="replace"):
    m = re.match(r"\+\+\+ b/(.*)", line)
    if m:
        f = m.group(1).rstrip("\n")
        keep.setdefault(f, [])
        continue
    m = re.match(r"@@ .* \+(\d+)(?:,(\d+))? @@", line)
    if m and f and (m.group(2) or "1") != "0":
        a = int(m.group(1)); n = int(m.group(2) or "1")
        out = subprocess.run(["git", "blame", "--line-porcelain", "-L", "%d,+%d" % (a, n), "--", f],
                             capture_output=True, text=True).stdout
        no = None
        for b in out.splitlines():
            h = re.match(r"([0-9a-f]{40}) \d+ (\d+)", b)
            if h:
                no, new = int(h.group(2)), h.group(1) == "0" * 40
            elif b.startswith("committer-time ") and (new or int(b.split()[1]) >= t0):
                keep[f].append(no)
for f, lines in keep.items():
    if lines:
        print("+++ b/" + f)
        for n in sorted(set(lines)):
            print("@@ -0,0 +%d,1 @@" % n)
PY
[ "${1:-}" = --fix ] && { "$cf" -p1 -i -binary "$bin" < "$tmp/new"; exit; }
out=$("$cf" -p1 -binary "$bin" < "$tmp/new" 2>&1)
short=$(git log -1 --format=%h "$base")
if [ -n "$out" ]; then
  echo "t-format: FAIL: lines written since $short are not laid out as .clang-format says:"
  echo "$out" | head -60
  echo "t-format: fix: sh tests/repo/t-format.sh --fix (lays out exactly these lines)"
  exit 1
fi
echo "t-format: the C lines written since $short ($(grep -c '^@@' "$tmp/new") of them) follow .clang-format"
