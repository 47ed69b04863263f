#!/bin/sh
# t-second-compiler.sh — the tree with a second compiler (SLPI_CC2, default clang; `make
# check` passes gcc when CC is clang): the library, slpi, the MPI build where Open MPI is
# present, and a fast subset of the unit tests are built in $SLPI_BUILD/cc2 warning-free
# (-Werror), and the subset runs there: provenance, noise, fast schemes and ensembles, a
# ref-path scheme and the Krawczyk operator, the golden certified cases, checkpoints,
# trajectories, the oracle, the problem files; then the second compiler's slpi reproduces
# the canonical-noise KATs (t-noise-kat.sh). So a compiler-specific break (clang 14 once
# refused fast/team.c's initializer) fails `make check`. The build is incremental.
cd "$(dirname "$0")/../.." || exit 2
cc2=${SLPI_CC2:-clang}
build=${SLPI_BUILD:-build}/cc2
tests="t-provenance t-noise-source t-noise-batch t-fast-schemes t-fast-values t-fast-ensemble
       t-ref-rigid-body t-ref-krawczyk t-golden t-checkpoint t-trajectory t-oracle t-registry
       t-problem"
command -v "$cc2" >/dev/null 2>&1 || { echo "t-second-compiler: SKIP: $cc2 is not installed (as root: apt-get install clang; make check installs it)"; exit 77; }
# clang's OpenMP header is LLVM's (libomp-dev); gcc's own is not on its path on Debian 13
echo '#include <omp.h>' | "$cc2" -fopenmp -E -x c - >/dev/null 2>&1 ||
  { echo "t-second-compiler: SKIP: $cc2 has no OpenMP (as root: apt-get install libomp-dev; make check installs it)"; exit 77; }
mkdir -p "$build"
targets="all"
for t in $tests; do targets="$targets $build/tests/$t"; done
command -v mpicc >/dev/null 2>&1 && targets="$targets $build/mpi/slpi"
# MAKEFLAGS from an enclosing make (asan, coverage: their CC and CFLAGS) must not reach
# this build: it is the plain second-compiler build.
if ! MAKEFLAGS= MAKELEVEL= nice -n 5 make --no-print-directory -j2 BUILD="$build" CC="$cc2" \
     CFLAGS="-O2 -g" WERROR=-Werror $targets > "$build/build.log" 2>&1; then
  echo "t-second-compiler: FAIL: $cc2 does not build the tree warning-free ($build/build.log):"
  grep -E 'error|warning' "$build/build.log" | head -20
  exit 1
fi
fail=0; n=0
for t in $tests; do
  n=$((n+1))
  if ! OPENBLAS_NUM_THREADS=1 "$build/tests/$t" > "$build/tests/$t.log" 2>&1; then
    echo "t-second-compiler: FAIL: $t built by $cc2:"; tail -5 "$build/tests/$t.log"; fail=1
  fi
done
SLPI_BIN="$build/slpi" sh tests/core/t-noise-kat.sh || fail=1
[ $fail -eq 0 ] && echo "t-second-compiler: $cc2 builds the tree warning-free; $n unit tests and the noise KATs pass"
exit $fail
