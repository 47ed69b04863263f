#!/bin/sh
# t-verify-alloc.sh — an allocation that fails inside `slpi verify --local` is an error,
# never a row silently left out of the statistics (oracle/stat.c, oracle/local.c). The
# shim of tests/core/t-alloc-failures.sh (tests/core/failalloc.c, preloaded) makes the
# k-th malloc, calloc, realloc, strdup or fdopen of slpi's own code fail, for k = 1 ..
# the count of a full run. The rule, fixed before the sweep: each run exits 2 with "out
# of memory" (or ENOMEM's "Cannot allocate memory") in its message, or exits 0 with the
# very report of the run without failures (same rows, same statistics, same p-value);
# anything else (a crash, another report: a row dropped from the test) fails, and the
# sweep stops there.
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
set -- verify --local --threads 1 "$tmp/port.tsv"
"$slpi" "$@" > "$tmp/base" 2> "$tmp/err" ||
  { echo "t-verify-alloc: FAIL: verify does not run without failures: $(tail -1 "$tmp/err")"; exit 1; }
grep -q "^statistics: 6 rows of 1 path" "$tmp/base" ||
  { echo "t-verify-alloc: FAIL: the report has no 6-row statistics: $(grep '^statistics' "$tmp/base" | tail -1)"; exit 1; }
n=$(FAILALLOC_COUNT=1 LD_PRELOAD="$tmp/failalloc.so" "$slpi" "$@" 2>&1 > /dev/null | sed -n 's/^failalloc: //p')
[ "${n:-0}" -gt 0 ] || { echo "t-verify-alloc: FAIL: no allocation of slpi's code counted"; exit 1; }
fail=0 errors=0 k=1
while [ $k -le "$n" ]; do
  FAILALLOC_AT=$k LD_PRELOAD="$tmp/failalloc.so" "$slpi" "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?
  if [ $rc -eq 2 ] && grep -q -e "out of memory" -e "Cannot allocate memory" "$tmp/err"; then errors=$((errors + 1))
  elif [ $rc -eq 0 ] && cmp -s "$tmp/out" "$tmp/base"; then :
  elif [ $rc -eq 0 ]; then
    echo "t-verify-alloc: FAIL: allocation $k of $n failing: exit 0 with another report:"
    diff "$tmp/base" "$tmp/out" | sed -n '2,5p'; fail=1; break
  else
    echo "t-verify-alloc: FAIL: allocation $k of $n failing: exit $rc: $(tail -2 "$tmp/err" | tr '\n' ' ')"; fail=1; break
  fi
  k=$((k + 1))
done
[ $fail -eq 0 ] && echo "t-verify-alloc: each of the $n allocations of verify --local failed in turn: $errors stopped with exit 2 and 'out of memory', the others gave the same report"
exit $fail
