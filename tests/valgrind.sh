#!/bin/sh
# valgrind.sh LOGDIR JOBS TEST... — `make valgrind`: each C test under memcheck, JOBS at
# once, its output in LOGDIR/NAME.valgrind.log. A test passes iff memcheck reports no error
# and no definite leak (memcheck's exit 99) and the test itself passes (0; 77, a skip, is
# a pass here too: the skip says why). One line per test (`valgrind: PASS t-x (N s)`; a
# failure prints the log's tail), then `valgrind: N tests, K with errors, F failed, in S s`.
# The depth is the caller's SLPI_TEST_MULTIPLIER (the GNUmakefile sets it); suppressions
# (tests/valgrind.supp) cover third-party libraries only. A test's own wall-clock limits are
# scaled by SLPI_TEST_TIME_SCALE (default 25 here: memcheck runs code 20-50 times slower).
[ $# -ge 2 ] || { echo "usage: valgrind.sh LOGDIR JOBS TEST..." >&2; exit 2; }
logdir=$1 jobs=$2
shift 2
mkdir -p "$logdir" || exit 2
here=$(cd "$(dirname "$0")" && pwd)
start=$(date +%s)
if [ "${1:-}" = --one ]; then   # (internal: one test, run by xargs below)
  t=$2; name=$(basename "$t"); t0=$(date +%s)
  SLPI_TEST_TIME_SCALE=${SLPI_TEST_TIME_SCALE:-25} OPENBLAS_NUM_THREADS=1 timeout "${SLPI_VALGRIND_TIMEOUT:-3600}" valgrind --error-exitcode=99 \
    --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
    --suppressions="$here/valgrind.supp" --quiet "$t" > "$logdir/$name.valgrind.log" 2>&1 < /dev/null
  rc=$?
  secs=$(($(date +%s) - t0))
  case $rc in
    0|77) echo "valgrind: PASS $name ($secs s)"; echo "PASS $secs" > "$logdir/$name.valgrind.rc" ;;
    99) what="memcheck errors" ;;
    124) what="timed out" ;;
    *) what="the test failed, exit $rc" ;;
  esac
  if [ $rc -ne 0 ] && [ $rc -ne 77 ]; then
    { echo "valgrind: FAIL $name ($what, $secs s; $logdir/$name.valgrind.log ends:)"
      tail -n 30 "$logdir/$name.valgrind.log" | sed 's/^/    /'; }
    echo "FAIL $secs $rc" > "$logdir/$name.valgrind.rc"
  fi
  exit 0
fi
for t in "$@"; do rm -f "$logdir/$(basename "$t").valgrind.rc"; done
printf '%s\n' "$@" | xargs -P "$jobs" -n 1 sh "$0" "$logdir" "$jobs" --one
n=0 bad=0 failed=0
for t in "$@"; do
  n=$((n + 1))
  read -r st _ code < "$logdir/$(basename "$t").valgrind.rc" 2>/dev/null || st=none
  if [ "$st" != PASS ]; then
    if [ "${code:-}" = 99 ]; then bad=$((bad + 1)); else failed=$((failed + 1)); fi
  fi
done
echo "valgrind: $n tests, $bad with errors, $failed failed, in $(($(date +%s) - start)) s"
[ $bad -eq 0 ] && [ $failed -eq 0 ]
