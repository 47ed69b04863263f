#!/bin/sh
# t-alloc-failures.sh — every allocation of slpi's own code that a run makes may fail, and
# the run then stops with exit 2 and "out of memory" (or, where the allocation only helps,
# goes on and exits 0), never with a crash (docs/conventions.md#errors). A shim preloaded
# into `slpi` (compiled here from tests/core/failalloc.c) makes the k-th malloc, calloc or
# realloc called from slpi's own code (the executable or libslpi; not FLINT, GMP or the
# BLAS, whose allocators abort by design) return NULL, or the k-th fdopen fail with ENOMEM
# (it allocates the FILE: an output whose file is open but cannot get its stream); for
# each case below the run is counted once, then repeated with k = 1 .. that count. The
# rule, fixed before the sweep: exit 0, or exit 2 with "out of memory" (or ENOMEM's text,
# "Cannot allocate memory", where a library call reports it) in its message; any other
# exit is a failure.
cd "$(dirname "$0")/../.." || exit 2
build=${SLPI_BUILD:-build}
slpi=${SLPI_BIN:-$build/slpi}
if nm "$slpi" 2>/dev/null | grep -q " __asan_init"; then
  echo "t-alloc-failures: SKIP: $slpi is built with AddressSanitizer, whose allocator cannot be interposed"; exit 77
fi
# In `make coverage`'s build gcov's runtime, linked into slpi, allocates as it writes its
# counters at exit; the shim stops counting once slpi's own exit handlers have run
# (tests/core/failalloc.c), so gcov's calls are neither counted nor failed there.
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O1 -shared -fPIC -o "$tmp/failalloc.so" tests/core/failalloc.c -ldl 2> "$tmp/cc.log" ||
  { echo "t-alloc-failures: FAIL: cannot build the shim: $(head -3 "$tmp/cc.log")"; exit 1; }
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
fail=0; total=0
P="--preset iso/rigid-body/trajectories"
# a finished checkpointed run to resume from (its output restored before each resume)
"$slpi" run $P steps=20 -q -o "$tmp/full.tsv" --checkpoint "$tmp/full.ckpt" --checkpoint-every 5 ||
  { echo "t-alloc-failures: FAIL: the checkpointed run does not run"; exit 1; }
# the output as the last checkpoint recorded it: a run stopped right after that checkpoint
head -c "$(sed -n 's/^out_bytes //p' "$tmp/full.ckpt")" "$tmp/full.tsv" > "$tmp/cut.tsv"
sweep() {   # sweep NAME SETUP ARGS...: the run of ARGS, SETUP (a shell command) before each
  name=$1 setup=$2; shift 2
  eval "$setup"
  "$slpi" "$@" > /dev/null 2> "$tmp/err" ||
    { echo "t-alloc-failures: FAIL: $name: does not run without failures: $(tail -1 "$tmp/err")"; fail=1; return; }
  eval "$setup"
  n=$(FAILALLOC_COUNT=1 LD_PRELOAD="$tmp/failalloc.so" "$slpi" "$@" 2>&1 > /dev/null | sed -n 's/^failalloc: //p')
  [ "${n:-0}" -gt 0 ] || { echo "t-alloc-failures: FAIL: $name: no allocation of slpi's code counted"; fail=1; return; }
  k=1
  while [ $k -le "$n" ]; do
    eval "$setup"
    FAILALLOC_AT=$k LD_PRELOAD="$tmp/failalloc.so" "$slpi" "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?
    if [ $rc -eq 2 ] && grep -q -e "out of memory" -e "Cannot allocate memory" "$tmp/err"; then :
    elif [ $rc -ne 0 ]; then
      echo "t-alloc-failures: FAIL: $name: allocation $k of $n failing: exit $rc: $(tail -2 "$tmp/err" | tr '\n' ' ')"; fail=1
    fi
    k=$((k + 1))
  done
  total=$((total + n))
  echo "t-alloc-failures: $name: each of its $n allocations failed in turn"
}
sweep "fast run, checkpointed" "rm -f $tmp/a.tsv $tmp/a.ckpt" run $P steps=20 -q -o "$tmp/a.tsv" --checkpoint "$tmp/a.ckpt" --checkpoint-every 5
sweep "resume" "cp $tmp/cut.tsv $tmp/full.tsv" run $P steps=20 -q -o "$tmp/full.tsv" --resume "$tmp/full.ckpt"
sweep "certified run" "rm -f $tmp/r.tsv" run $P steps=2 --ref -q -o "$tmp/r.tsv"
[ $fail -eq 0 ] && echo "t-alloc-failures: $total allocations failed one at a time: each run stopped with exit 2 and 'out of memory', or went on"
exit $fail
