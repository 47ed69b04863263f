#!/bin/sh
# run-tests.sh — run tests and close with the one summary line `N passed, N failed`
# (`, N skipped` after it when some skipped) that CI reads. A test passes iff it exits 0;
# exit 77 means skipped (an optional dependency is absent: the test says which). A test is
# a C test's binary or a shell test (tests/<module>/t-*.sh, run with sh); shell tests get
# SLPI_BIN (the built slpi), SLPI_BUILD and SLPI_CC2 from the environment.
#
#   run-tests.sh TEST...                  one after the other, output on the console
# and the three steps `make check` runs them in, in parallel (GNUmakefile, check-run):
#   run-tests.sh --order DURATIONS NAME...   the names, the longest of the last run first
#                                            (names it has no duration for first, in order)
#   run-tests.sh --one LOGDIR TEST           runs TEST with its output in LOGDIR/NAME.log,
#                                            writes LOGDIR/NAME.rc ("status wall cpu") and
#                                            prints `PASS: NAME (N s)` (FAIL: the log's tail)
#   run-tests.sh --summary LOGDIR DURATIONS NAME...  counts the .rc files (one missing is a
#                                            failure), updates DURATIONS, prints the summary
# NAME is the test's file name: t-unit for a C test, t-unit.sh for a shell test.

# status LINE for exit code $1 (PASS, SKIP or FAIL)
status_of() {
  if [ "$1" -eq 0 ]; then echo PASS; elif [ "$1" -eq 77 ]; then echo SKIP; else echo FAIL; fi
}

# the summary: reads "NAME STATUS" lines on stdin, prints the lists and the last line
summary() {
  awk '$2 == "PASS" { p++ } $2 == "FAIL" { f++; fl = fl " " $1 } $2 == "SKIP" { s++; sl = sl " " $1 }
       END { if (f) print "failed tests:" fl; if (s) print "skipped tests:" sl
             printf "%d passed, %d failed", p, f; if (s) printf ", %d skipped", s; printf "\n"
             exit (f > 0) }'
}

# cpu_seconds FILE: the children's user + system seconds in FILE, the shell's `times`
# (written by this shell itself: in a pipe or $(...) a subshell would count its own)
cpu_seconds() {
  awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }
                 printf "%.1f", t }' "$1"
}

case "$1" in
--order)
  durations=$2; shift 2
  for n in "$@"; do
    w=$(awk -v n="$n" '$1 == n { print $2 }' "$durations" 2>/dev/null)
    echo "${w:-1e9} $n"
  done | awk '{ printf "%s %06d %s\n", $1, NR, $2 }' | sort -k1,1gr -k2,2n | awk '{ print $3 }'
  exit 0 ;;
--one)
  logdir=$2; t=$3; name=$(basename "$t")
  case "$t" in *.sh) cmd="sh $t" ;; *) cmd="$t" ;; esac
  start=$(date +%s.%N)
  $cmd > "$logdir/$name.log" 2>&1 < /dev/null; rc=$?
  wall=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
  status=$(status_of $rc)
  times > "$logdir/$name.times"
  echo "$status $wall $(cpu_seconds "$logdir/$name.times") $rc" > "$logdir/$name.rc"
  rm -f "$logdir/$name.times"
  if [ "$status" = FAIL ]; then
    { echo "FAIL: $name (${wall%.*} s, exit $rc; $logdir/$name.log ends:)"
      tail -n 30 "$logdir/$name.log" | sed 's/^/    /'; }
  else
    echo "$status: $name (${wall%.*} s)"
  fi
  exit 0 ;;
--summary)
  logdir=$2; durations=$3; shift 3
  : > "$durations.tmp"
  for n in "$@"; do
    if [ -f "$logdir/$n.rc" ]; then read -r status wall cpu rc < "$logdir/$n.rc"
    else status=FAIL; wall=0; cpu=0; echo "FAIL: $n did not run" >&2; fi
    echo "$n $wall $cpu" >> "$durations.tmp"
    echo "$n $status"
  done > "$logdir/summary.txt"
  # the tests not run this time keep their last durations
  [ -f "$durations" ] && awk 'NR == FNR { seen[$1] = 1; print; next } !($1 in seen)' "$durations.tmp" "$durations" \
    > "$durations.all" && mv "$durations.all" "$durations.tmp"
  mv "$durations.tmp" "$durations"
  awk '{ w += $2; c += $3 } END { printf "tests: %.0f s of test time, %.0f s of CPU (logs: %s)\n", w, c, L }' \
    L="$logdir" "$durations"
  summary < "$logdir/summary.txt"
  exit ;;
esac

for t in "$@"; do
  name=$(basename "$t")
  start=$(date +%s)
  case "$t" in *.sh) cmd="sh $t" ;; *) cmd="$t" ;; esac
  $cmd; rc=$?
  status=$(status_of $rc)
  echo "$status: $name ($(( $(date +%s) - start )) s)"
  echo "$name $status" >> "${TMPDIR:-/tmp}/run-tests.$$"
done
touch "${TMPDIR:-/tmp}/run-tests.$$"
summary < "${TMPDIR:-/tmp}/run-tests.$$"; rc=$?
rm -f "${TMPDIR:-/tmp}/run-tests.$$"
exit $rc
