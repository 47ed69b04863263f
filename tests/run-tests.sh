#!/bin/sh
# run-tests.sh BIN...: run each test program, print its output, and close with the
# one summary line `N passed, N failed[, N skipped]` that CI reads. A test passes iff it
# exits 0; exit 77 means skipped (an optional dependency is absent: the test says which).
# Shell tests get SLPI_BIN (the built slpi) and SLPI_BUILD in the environment.
pass=0; fail=0; skip=0; failed=""; skipped=""
for t in "$@"; do
  name=$(basename "$t")
  start=$(date +%s)
  case "$t" in *.sh) cmd="sh $t" ;; *) cmd="$t" ;; esac
  $cmd; rc=$?
  if [ $rc -eq 0 ]; then pass=$((pass+1)); status=PASS
  elif [ $rc -eq 77 ]; then skip=$((skip+1)); status=SKIP; skipped="$skipped $name"
  else fail=$((fail+1)); status=FAIL; failed="$failed $name"; fi
  echo "$status: $name ($(( $(date +%s) - start )) s)"
done
[ -n "$failed" ] && echo "failed tests:$failed"
[ -n "$skipped" ] && echo "skipped tests:$skipped"
if [ "$skip" -gt 0 ]; then echo "$pass passed, $fail failed, $skip skipped"; else echo "$pass passed, $fail failed"; fi
[ "$fail" -eq 0 ]
