#!/bin/sh
# t-verify-alloc.sh — an allocation that fails inside `slpi verify --local` is an error,
# never a row silently left out of the statistics (oracle/stat.c, oracle/local.c). The
# shim of tests/core/t-alloc-failures.sh (tests/core/failalloc.c, preloaded) makes the
# k-th malloc, calloc, realloc, strdup or fdopen of slpi's own code fail, for k = 1 ..
# the count of a full run. The rule, fixed before the sweep: each run exits 2 with "out
# of memory" (or ENOMEM's "Cannot allocate memory") in its message, or exits as the run
# without failures did, with its very report (same rows, same statistics, same p-value);
# anything else (a crash, another report: a row dropped from the test) fails, and the
# sweep stops there. Swept twice: with the proof, and with the statistics alone
# (`--max-steps 0`: the accurate reference's own steps, docs/power.md#accurate-reference).
cd "$(dirname "$0")/../.." || exit 2
build=${SLPI_BUILD:-build}
slpi=${SLPI_BIN:-$build/slpi}
if nm "$slpi" 2>/dev/null | grep -q " __asan_init"; then
  echo "t-verify-alloc: SKIP: $slpi is built with AddressSanitizer, whose allocator cannot be interposed"; exit 77
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O1 -shared -fPIC -o "$tmp/failalloc.so" tests/core/failalloc.c -ldl 2> "$tmp/cc.log" ||
  { echo "t-verify-alloc: FAIL: cannot build the shim: $(head -3 "$tmp/cc.log")"; exit 1; }
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
# a port of 6 steps (6 local rows, each with its statistics row: M = 3, six directions)
"$slpi" run --preset iso/rigid-body/trajectories steps=6 -q -o "$tmp/port.tsv" ||
  { echo "t-verify-alloc: FAIL: the port's run does not run"; exit 1; }
# sweep NAME ARGS...: every allocation of `slpi ARGS` failed in turn against its run without
# failures (its exit and its report)
sweep() {
  name=$1
  shift
  "$slpi" "$@" > "$tmp/base" 2> "$tmp/err"
  brc=$?
  [ $brc -eq 0 ] || [ $brc -eq 3 ] || { echo "t-verify-alloc: FAIL: $name does not run without failures: $(tail -1 "$tmp/err")"; fail=1; return; }
  grep -q "^statistics: 6 rows of 1 path" "$tmp/base" ||
    { echo "t-verify-alloc: FAIL: $name: the report has no 6-row statistics: $(grep '^statistics' "$tmp/base" | tail -1)"; fail=1; return; }
  n=$(FAILALLOC_COUNT=1 LD_PRELOAD="$tmp/failalloc.so" "$slpi" "$@" 2>&1 > /dev/null | sed -n 's/^failalloc: //p')
  [ "${n:-0}" -gt 0 ] || { echo "t-verify-alloc: FAIL: $name: no allocation of slpi's code counted"; fail=1; return; }
  errors=0 k=1
  while [ $k -le "$n" ]; do
    FAILALLOC_AT=$k LD_PRELOAD="$tmp/failalloc.so" "$slpi" "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?
    if [ $rc -eq 2 ] && grep -q -e "out of memory" -e "Cannot allocate memory" "$tmp/err"; then errors=$((errors + 1))
    elif [ $rc -eq $brc ] && cmp -s "$tmp/out" "$tmp/base"; then :
    elif [ $rc -eq $brc ]; then
      echo "t-verify-alloc: FAIL: $name: allocation $k of $n failing: exit $rc with another report:"
      diff "$tmp/base" "$tmp/out" | sed -n '2,5p'; fail=1; return
    else
      echo "t-verify-alloc: FAIL: $name: allocation $k of $n failing: exit $rc: $(tail -2 "$tmp/err" | tr '\n' ' ')"; fail=1; return
    fi
    k=$((k + 1))
  done
  echo "t-verify-alloc: $name: each of the $n allocations failed in turn: $errors stopped with exit 2 and 'out of memory', the others gave the same report"
}
fail=0
sweep "verify --local" verify --local --threads 1 "$tmp/port.tsv"
# the statistics alone: every row's reference the accurate step (docs/power.md#accurate-reference)
sweep "verify --local --max-steps 0" verify --local --threads 1 --max-steps 0 "$tmp/port.tsv"
exit $fail
