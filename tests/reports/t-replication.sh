#!/bin/sh
# t-replication.sh — the three replication reports (reports/archive/replication.sh): the committed
# reports/full/replication/*.md are what the archive generates (--check), and every digit
# in them comes from the archive, none from the script: the script's report program holds
# no digit, and on a copy of the archive with every digit 1..9 moved to the next (9 to 1,
# 0 kept: the JSON stays valid) the reports are the originals with the same digits moved.
# A hand-typed number (a digit written by the template) would stay put and be caught.
# Fault injection: a changed archived number makes --check fail.
command -v jq > /dev/null || { echo "t-replication: SKIP: jq is not installed (as root: apt-get install jq)"; exit 77; }
dir=$(mktemp -d /tmp/slpi-t-replication-XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
sh reports/archive/replication.sh --check > "$dir/log" 2>&1 || { echo "t-replication: FAIL: the committed reports differ from the archive:"; cat "$dir/log"; fail=1; }
for p in RKMK ISO SVI; do
  [ -s "reports/full/replication/$p.md" ] || { echo "t-replication: FAIL: reports/full/replication/$p.md missing"; fail=1; }
done
# the report program (the jq text between "jq -r" and its input file) has no digit
prog=$(sed -n '/^  jq -r --arg p/,/^  . "\$arch\/claims.json"/p' reports/archive/replication.sh | sed '1d;$d')
[ -n "$prog" ] || { echo "t-replication: FAIL: the report program was not found in reports/archive/replication.sh"; fail=1; }
if printf '%s\n' "$prog" | grep -n '[0-9]' > "$dir/digits"; then
  echo "t-replication: FAIL: the report program types digits:"; cat "$dir/digits"; fail=1
fi
# every digit from the archive: move them in a copy and compare
move() { tr 123456789 234567891; }
mkdir -p "$dir/a" "$dir/b"
for f in claims.json INDEX.md; do
  cp "reports/full/$f" "$dir/a/$f" && move < "reports/full/$f" > "$dir/b/$f" || exit 1
done
for m in reports/full/multiverse*/*/multiverse.txt; do
  r=${m#reports/full/}
  mkdir -p "$dir/a/${r%/*}" "$dir/b/$(printf '%s' "${r%/*}" | move)" &&
    cp "$m" "$dir/a/$r" && move < "$m" > "$dir/b/$(printf '%s' "$r" | move)" || exit 1
done
sh reports/archive/replication.sh "$dir/a" > "$dir/alog" 2>&1 && sh reports/archive/replication.sh "$dir/b" > "$dir/blog" 2>&1 ||
  { echo "t-replication: FAIL: replication.sh exited non-zero:"; cat "$dir/alog" "$dir/blog"; fail=1; }
for p in RKMK ISO SVI; do
  move < "$dir/a/replication/$p.md" > "$dir/want"
  if ! cmp -s "$dir/want" "$dir/b/replication/$p.md"; then
    echo "t-replication: FAIL: $p.md has digits that do not come from the archive:"
    diff "$dir/want" "$dir/b/replication/$p.md" | head -6; fail=1
  fi
  n=$(grep -o '[0-9]' "$dir/a/replication/$p.md" | wc -l)
  [ "$n" -gt 0 ] || { echo "t-replication: FAIL: $p.md holds no number at all"; fail=1; }
  echo "t-replication: $p.md: $n digits, all from the archive"
done
# a changed archived number is seen by --check
cp -r "$dir/a" "$dir/c" && mkdir -p "$dir/c/replication" && cp reports/full/replication/*.md "$dir/c/replication/" &&
  jq '(.claims[] | select(.id == "R3") | .checks[0].evidence) |= gsub("7"; "8")' reports/full/claims.json > "$dir/c/claims.json"
sh reports/archive/replication.sh --check "$dir/c" > /dev/null 2>&1 && { echo "t-replication: FAIL: --check misses a changed number"; fail=1; }
[ $fail = 0 ] && echo "t-replication: PASS"
exit $fail
