#!/bin/sh
# t-kernels-nofma.sh — the vector kernels that must give the bits of their scalar twins
# contain no fused multiply-add (whose single rounding would change results): the
# canonical noise (core/noise.c: portable kernels; core/noise-avx.c: AVX2 and AVX-512;
# core/noise-levels.c: the level sums) and the lock-step
# ensemble lanes (fast/ensemble*.c: portable, AVX2, AVX-512). -ffp-contract=off is what
# keeps the compiler from fusing; this checks the objects it produced.
cd "$(dirname "$0")/../.." || exit 2
build=${SLPI_BUILD:-build}
command -v objdump >/dev/null 2>&1 || { echo "t-kernels-nofma: FAIL: objdump not found (binutils)"; exit 1; }
fail=0; n=0
for o in "$build"/core/noise.o "$build"/core/noise-avx.o "$build"/core/noise-levels.o "$build"/fast/ensemble.o "$build"/fast/ensemble-avx2.o \
         "$build"/fast/ensemble-avx512.o; do
  if [ ! -f "$o" ]; then echo "t-kernels-nofma: FAIL: $o not built"; fail=1; continue; fi
  k=$(objdump -d "$o" | grep -cE 'vf(n)?m(add|sub)[0-9a-z]*(pd|ps|sd|ss)')
  n=$((n+1))
  if [ "$k" -ne 0 ]; then echo "t-kernels-nofma: FAIL: $o has $k fused multiply-add instructions"; fail=1; fi
done
[ $fail -eq 0 ] && echo "t-kernels-nofma: $n objects, no fused multiply-add"
exit $fail
