#!/bin/sh
# t-mutants-random.sh — the mutant generator (tests/mutants/generate.py, `make
# mutants-random`) stays usable; running its mutants takes minutes each, so here only:
#   - one seed gives the same mutants twice (byte-identical patches), another seed others;
#   - every generated patch has its header, names existing tests and applies to the tree
#     (tests/mutants/run.sh --check);
#   - two of them, applied to a copy of their file, still compile (cc -fsyntax-only) and
#     change it;
#   - a scope of files (SCOPE=: a file, a glob) draws from those files alone, from each.
# On gaps/ alone (six small files: parsing every module takes ~20 s). Skips (77) where
# Debian's python3-clang is missing (make deps installs it).
set -u
py=/usr/bin/python3
"$py" -c 'import clang.cindex' 2>/dev/null || { echo "t-mutants-random: SKIP: python3-clang is not installed"; exit 77; }
command -v patch >/dev/null || { echo "t-mutants-random: SKIP: patch is not installed (as root: apt-get install patch)"; exit 77; }
fail=0
bad() { echo "t-mutants-random: FAIL: $*"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen="$py tests/mutants/generate.py"
$gen write 7 8 "$tmp/a" gaps > "$tmp/a.list" || bad "generate.py write failed"
$gen write 7 8 "$tmp/b" gaps > "$tmp/b.list" || bad "generate.py write failed (second run)"
$gen write 8 8 "$tmp/c" gaps > "$tmp/c.list" || bad "generate.py write failed (seed 8)"
[ "$(wc -l < "$tmp/a.list")" -eq 8 ] || bad "seed 7: $(wc -l < "$tmp/a.list") mutants, not 8"
diff -r "$tmp/a" "$tmp/b" > /dev/null || bad "seed 7 gave different mutants in two runs"
cmp -s "$tmp/a.list" "$tmp/c.list" && bad "seeds 7 and 8 gave the same mutants"
out=$(SLPI_MUTANTS_DIR="$tmp/a" sh tests/mutants/run.sh --check 2>&1) || bad "generated patches unusable: $out"
for name in $(head -2 "$tmp/a.list"); do
  p="$tmp/a/$name.patch"
  f=$(sed -n 's|^+++ b/||p' "$p")
  mkdir -p "$tmp/tree/$(dirname "$f")" && cp "$f" "$tmp/tree/$f"
  patch -p1 -d "$tmp/tree" --batch -s < "$p" || { bad "$name does not apply"; continue; }
  cmp -s "$f" "$tmp/tree/$f" && bad "$name leaves $f unchanged"
  ${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -I. -Iinclude -Icore -fopenmp -fsyntax-only "$tmp/tree/$f" 2> "$tmp/cc.txt" ||
    bad "$name does not compile: $(head -c 300 "$tmp/cc.txt")"
  rm -rf "$tmp/tree"
done
# SELECT=coverage (the per-test map, generate.py select_tests) on a made-up map: lifted.c
# executed throughout by t-vec, identities.c instrumented but executed by no test,
# poisson.c mapped from other content (its SHA-1 differs), consistency.c absent
lines=$(seq -s, 1 400)
sum() { sha1sum "$1" | cut -d' ' -f1; }
cat > "$tmp/map.json" <<EOM
{"tests": ["t-vec", "t-golden"], "failed": [], "files": {
 "gaps/lifted.c": {"sha1": "$(sum gaps/lifted.c)", "executable": [$lines],
                   "executed": {$(seq 1 400 | sed 's/.*/"&": [0]/' | paste -sd,)}},
 "gaps/identities.c": {"sha1": "$(sum gaps/identities.c)", "executable": [$lines], "executed": {}},
 "gaps/poisson.c": {"sha1": "0", "executable": [$lines], "executed": {"92": [1], "159": [1]}}}}
EOM
# 40 draws, so that seed 7 reaches each of the four files whatever edits move their
# candidates (8 stopped reaching lifted.c when its includes changed)
$gen write 7 40 "$tmp/w" gaps > "$tmp/w.list" || bad "generate.py write of 40 failed"
SLPI_MUTANTS_MAP="$tmp/map.json" $gen write 7 40 "$tmp/s" gaps --select=coverage > "$tmp/s.list" || bad "write --select=coverage failed"
diff "$tmp/w.list" "$tmp/s.list" > /dev/null || bad "--select=coverage drew other mutants"
only() { sed -n 's/^# only: //p' "$tmp/s/$1.patch"; }
# seed 7's first mutant in each file (names carry line numbers, which edits move)
first() { grep -m1 -- "-gaps-$1-" "$tmp/w.list"; }
lifted=$(first lifted) identities=$(first identities) poisson=$(first poisson) consistency=$(first consistency)
[ -n "$lifted" ] && [ -n "$identities" ] && [ -n "$poisson" ] && [ -n "$consistency" ] ||
  bad "seed 7 no longer draws a mutant in each of lifted.c, identities.c, poisson.c, consistency.c: $(tr '\n' ' ' < "$tmp/w.list")"
[ "$(only "$lifted")" = t-vec ] || bad "lifted.c (executed by t-vec): only '$(only "$lifted")'"
[ "$(only "$identities")" = none ] || bad "identities.c (executed by none): only '$(only "$identities")'"
for n in "$poisson" "$consistency"; do
  [ -z "$(only $n)" ] && [ -f "$tmp/s/$n.patch" ] || bad "$n (file changed or not mapped) must run the whole suite: only '$(only $n)'"
done
out=$(SLPI_MUTANTS_DIR="$tmp/s" sh tests/mutants/run.sh --check 2>&1) || bad "selected patches unusable: $out"
# scopes of files (SCOPE=, a round's changed files): every mutant in them, all of them
# drawn from, and a scope that matches no source refused
$gen list 7 6 gaps/lifted.c 'gaps/p*.c' > "$tmp/f.list" || bad "generate.py list with file scopes failed"
[ "$(wc -l < "$tmp/f.list")" -eq 6 ] || bad "file scopes: $(wc -l < "$tmp/f.list") mutants, not 6"
grep -v -e ' at gaps/lifted\.c:' -e ' at gaps/p[^/]*\.c:' "$tmp/f.list" > "$tmp/f.out" && bad "out of scope: $(head -1 "$tmp/f.out")"
grep -q ' at gaps/lifted\.c:' "$tmp/f.list" && grep -q ' at gaps/p[^/]*\.c:' "$tmp/f.list" ||
  bad "file scopes: not both drawn from: $(tr '\n' ' ' < "$tmp/f.list")"
$gen list 7 2 gaps/no-such.c > /dev/null 2>&1 && bad "a scope matching no source was accepted"
[ $fail -eq 0 ] && echo "t-mutants-random: seed 7 reproducible, 8 gaps/ mutants usable, 2 compile; coverage selection: a mapped test, none, the whole suite for a changed or unmapped file; file scopes"
exit $fail
