#!/bin/sh
# t-props-regressions.sh — replay every saved counterexample of the property harness
# (tests/regressions/*.case, written by `slpi props --save tests/regressions`): each
# must pass now that the bug it found is fixed; the command must say it replayed
# exactly the files that are there (an empty or unread folder fails).
cd "$(dirname "$0")/../.." || exit 2
slpi=${SLPI_BIN:-build/slpi}
n=$(ls tests/regressions/*.case 2>/dev/null | wc -l)
if [ "$n" -eq 0 ]; then
  echo "t-props-regressions: FAIL: no tests/regressions/*.case to replay"
  exit 1
fi
out=$("$slpi" props --regressions tests/regressions); rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "t-props-regressions: FAIL: slpi props --regressions exited $rc"; exit 1; }
echo "$out" | grep -qx "props: $n regression cases replayed from tests/regressions" || {
  echo "t-props-regressions: FAIL: expected $n cases replayed"; exit 1; }
[ "$(echo "$out" | grep -c '^PASS ')" -eq "$n" ] || { echo "t-props-regressions: FAIL: not every case passed"; exit 1; }
echo "t-props-regressions: $n cases passed"
