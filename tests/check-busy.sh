#!/bin/sh
# tests/check-busy.sh [TEST...] — `make check-busy`: the tests whose outcome could depend
# on the machine's speed, run beside eight busy processes (tests/README.md#busy): the
# waits for a command's progress, the interrupt and deadlock checks (default list below),
# or the TESTs given (as tests/run-tests.sh takes them). The eight are `while :; do :; done`
# shells at niceness SLPI_BUSY_NICE (default 0: a workstation's other work; on a machine
# shared with others, 19 keeps them from taking it over while the load still counts
# them), started before the first test and ended, by their own ids, after the last. Prints
# the load at the start and at the end; exit status that of run-tests.sh.
cd "$(dirname "$0")/.." || exit 2
b=$(cd "${SLPI_BUILD:-build}" && pwd) || exit 2 # (absolute: some tests work in a folder of their own)
export SLPI_BUILD="$b" SLPI_BIN="${SLPI_BIN:-$b/slpi}"
nice=${SLPI_BUSY_NICE:-0}
[ $# -gt 0 ] || set -- "$b/tests/t-fast-team" "$b/tests/t-interrupt" "$b/tests/t-trajectory" \
  tests/cli/t-ctrl-c.sh tests/cli/t-stop-signals.sh tests/cli/t-stop-reports.sh tests/cli/t-checkpoint.sh \
  tests/cli/t-ensemble-checkpoint.sh tests/cli/t-writers.sh tests/cli/t-progress.sh \
  tests/studies/t-converge-ckpt.sh tests/studies/t-mlmc-ckpt.sh
busy=""
trap 'for p in $busy; do kill "$p" 2>/dev/null; done' EXIT INT TERM HUP
for i in 1 2 3 4 5 6 7 8; do
  nice -n "$nice" sh -c 'while :; do :; done' &
  busy="$busy $!"
done
echo "check-busy: 8 busy processes (nice $nice) beside $# tests; $(uptime | sed 's/.*load/load/')"
sh tests/run-tests.sh "$@"
rc=$?
echo "check-busy: done; $(uptime | sed 's/.*load/load/')"
exit $rc
