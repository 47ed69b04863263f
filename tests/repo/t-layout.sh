#!/bin/sh
# t-layout.sh — the test house of tests/README.md: every test lives in a folder
# tests/<folder>/ that the README's table describes, none is left at tests/ itself, and
# no unit name is used twice with one extension (a C test builds to build/tests/t-<unit>,
# the mutants name tests by unit). Each problem is one line naming the file.
cd "$(dirname "$0")/../.." || exit 2
fail=0
bad() { echo "t-layout: FAIL: $*"; fail=1; }
for f in tests/t-*; do
  [ -e "$f" ] || continue
  bad "$f is at tests/ itself: move it into the folder of its module (git mv $f tests/<folder>/; tests/README.md)"
done
folders=$(sed -n 's/^| `\([a-z0-9-]*\)\/` |.*/\1/p' tests/README.md)
[ -n "$folders" ] || bad "tests/README.md has no folder table"
for d in tests/*/; do
  d=${d%/}; n=${d#tests/}
  ls "$d"/t-* > /dev/null 2>&1 || continue
  echo "$folders" | grep -qx "$n" || bad "$d holds tests but tests/README.md's table does not describe it"
done
dups=$(ls tests/*/t-*.c tests/*/t-*.sh tests/t-*.c tests/t-*.sh 2>/dev/null | xargs -n1 basename | sort | uniq -d)
for n in $dups; do bad "$n is the name of two tests: $(ls tests/*/"$n" tests/"$n" 2>/dev/null | tr '\n' ' ')"; done
n=$(ls tests/*/t-*.c tests/*/t-*.sh 2>/dev/null | wc -l)
[ $fail -eq 0 ] && echo "t-layout: $n tests in $(echo "$folders" | wc -l) folders, none at tests/ itself, no name twice"
exit $fail
