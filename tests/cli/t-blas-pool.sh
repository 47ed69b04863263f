#!/bin/sh
# t-blas-pool.sh — the slpi command runs OpenBLAS on one thread unless OPENBLAS_NUM_THREADS
# chooses, and stops the pool of threads OpenBLAS made when it loaded (cli/main.c;
# docs/conventions.md#threads): that pool spins about 0.1 CPU-s a thread before it
# sleeps, which a short command paid on idle cores. A running `slpi run` (the rigid body,
# no products) has 1 thread; with OPENBLAS_NUM_THREADS=2 it keeps OpenBLAS's worker (at
# least 2), so the count sees a pool. A BLAS without a pool (another CBLAS) shows 1 thread
# in both: said, and not judged. Counted 1.5 s after the start (the pool is made at load, and
# a loaded machine may be slow to start the process).
cd "$(dirname "$0")/../.." || exit 2
slpi=${SLPI_BIN:-build/slpi}
fail=0
bad() { echo "t-blas-pool: FAIL: $*"; fail=1; }
# threads ENV...: the thread count of a running `slpi run` under the environment given
threads() {
  env -u OMP_NUM_THREADS -u OPENBLAS_NUM_THREADS "$@" "$slpi" run --preset iso/rigid-body/trajectories \
    --steps 100000000 output_every=100000000 -q -o /dev/null 2> /dev/null &
  p=$!
  sleep 1.5
  n=$(ls "/proc/$p/task" 2> /dev/null | wc -l)
  kill "$p" 2> /dev/null
  wait "$p" 2> /dev/null
  echo "$n"
}
mine=$(threads X=1)
pool=$(threads OPENBLAS_NUM_THREADS=2)
if [ "$pool" -ge 2 ]; then
  [ "$mine" = 1 ] || bad "slpi run has $mine threads without OPENBLAS_NUM_THREADS (1 expected: OpenBLAS's pool stopped)"
else
  echo "t-blas-pool: this BLAS made no pool with OPENBLAS_NUM_THREADS=2 ($pool thread): nothing to stop, not judged"
fi
[ $fail -eq 0 ] && echo "t-blas-pool: $mine thread by default, $pool with OPENBLAS_NUM_THREADS=2"
exit $fail
