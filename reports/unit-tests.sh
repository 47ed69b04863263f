#!/bin/sh
# unit-tests.sh CLAIMS BUILD OUT — run the unit-test programs that the claims registry
# CLAIMS names in its "test PROGRAM..." checks (from BUILD/tests) and record one line
# per program in OUT: NAME<TAB>EXIT<TAB>its last line mentioning "checks". `make audit`
# runs it; `slpi audit --tests OUT` reads the results (the library runs no programs).
claims=${1:?usage: unit-tests.sh CLAIMS BUILD OUT}; build=${2:?}; out=${3:?}
progs=$(sed -n 's/^[^#].*| *test \([^|]*\) |.*$/\1/p' "$claims" | tr ' ' '\n' | sort -u)
tmp="$out.tmp.$$"
: > "$tmp"
for p in $progs; do
  log="$out.$p.log"
  if [ -x "$build/tests/$p" ]; then
    "$build/tests/$p" > "$log" 2>&1; code=$?
  else
    echo "$build/tests/$p is not built" > "$log"; code=127
  fi
  printf '%s\t%s\t%s\n' "$p" "$code" "$(grep checks "$log" | tail -n 1)" >> "$tmp"
done
mv "$tmp" "$out"
