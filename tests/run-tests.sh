#!/bin/sh
# run-tests.sh BIN...: run each test program, print its output, and close with the
# one summary line `N passed, N failed` that CI reads. A test passes iff it exits 0.
# Shell tests get SLPI_BIN (the built slpi) and SLPI_BUILD in the environment.
pass=0; fail=0; failed=""
for t in "$@"; do
  name=$(basename "$t")
  start=$(date +%s)
  case "$t" in *.sh) cmd="sh $t" ;; *) cmd="$t" ;; esac
  if $cmd; then pass=$((pass+1)); status=PASS; else fail=$((fail+1)); status=FAIL; failed="$failed $name"; fi
  echo "$status: $name ($(( $(date +%s) - start )) s)"
done
[ -n "$failed" ] && echo "failed tests:$failed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
