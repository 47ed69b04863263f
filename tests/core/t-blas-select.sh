#!/bin/sh
# t-blas-select.sh — the BLAS kernel of a whole process (core/blas.c), through `slpi list
# --system` and the provenance of `slpi run`: with OPENBLAS_CORETYPE unset and OpenBLAS
# made to fall back to its generic Prescott kernel (SLPI_BLAS_TEST_FALLBACK, the tests'
# stand-in for Debian 12's OpenBLAS on a Xeon it does not know), slpi selects the CPU's own
# kernel and says why; where it cannot ("Prescott,fixed"), it keeps Prescott, says so and
# warns in one line naming the override; a user's OPENBLAS_CORETYPE=Prescott is kept and
# named. The suite's own OPENBLAS_CORETYPE is left as it is: each row sets its child's.
set -u
slpi=${SLPI_BIN:-./build/slpi}
export OPENBLAS_NUM_THREADS=1
fail=0
say() { echo "t-blas-select: $*"; }
sys=$(env -u OPENBLAS_CORETYPE "$slpi" list --system) || { say "FAIL: slpi list --system exits $?"; exit 1; }
echo "$sys" | sed 's/^/  /'
tier=$(echo "$sys" | sed -n 's/^tier: *\([a-z0-9]*\).*/\1/p')
case "$tier" in avx512|avx2) ;; *) say "SKIP: a $tier CPU has no kernel to fall back from"; exit 77 ;; esac
echo "$sys" | grep -q '^openblas: *not loaded' && { say "SKIP: no OpenBLAS"; exit 77; }

# row NAME PATTERN ENV...: `slpi list --system`'s openblas line under ENV must match PATTERN
row() {
  name=$1 pat=$2; shift 2
  got=$(env -u OPENBLAS_CORETYPE "$@" "$slpi" list --system 2> err | sed -n 's/^openblas: *//p')
  if echo "$got" | grep -Eq "$pat"; then say "ok $name: $got"
  else say "FAIL $name: '$got' does not match '$pat'"; fail=1; fi
}
case "$slpi" in /*) ;; *) slpi=$(pwd)/$slpi ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
row fallback-selected '^(SkylakeX|Cooperlake|Haswell) \(selected by slpi: OpenBLAS detected Prescott, CPU tier avx(512|2)\)$' \
  SLPI_BLAS_TEST_FALLBACK=Prescott
[ ! -s err ] || { say "FAIL fallback-selected: a message on stderr: $(cat err)"; fail=1; }
row fallback-fixed '^Prescott \(OpenBLAS detected Prescott, CPU tier avx(512|2), and slpi could not select (SkylakeX|Cooperlake|Haswell)\)$' \
  SLPI_BLAS_TEST_FALLBACK=Prescott,fixed
n=$(wc -l < err)
if [ "$n" -eq 1 ] && grep -Eq '^slpi: OpenBLAS runs its generic Prescott kernel .* set OPENBLAS_CORETYPE=(SkylakeX|Cooperlake|Haswell) ' err
then say "ok fallback-fixed warns: $(cat err)"
else say "FAIL fallback-fixed: $n lines on stderr, want one naming the override: $(cat err)"; fail=1; fi
row user-prescott '^Prescott \(forced by OPENBLAS_CORETYPE; this CPU.s own kernel: (SkylakeX|Cooperlake|Haswell)\)$' \
  OPENBLAS_CORETYPE=Prescott SLPI_BLAS_TEST_FALLBACK=Haswell
[ ! -s err ] || { say "FAIL user-prescott: a message on stderr: $(cat err)"; fail=1; }
row detected '\((detected by OpenBLAS|selected by slpi)'

# the provenance of a run says the same,
env -u OPENBLAS_CORETYPE SLPI_BLAS_TEST_FALLBACK=Prescott "$slpi" run --system rigid-body steps=2 -o run.txt > /dev/null 2> err \
  || { say "FAIL: slpi run exits $?: $(cat err)"; fail=1; }
if grep -Eq '^# openblas=(SkylakeX|Cooperlake|Haswell)$' run.txt &&
   grep -Eq '^# openblas_why=selected by slpi: OpenBLAS detected Prescott' run.txt &&
   grep -Eq '^# cpu=.*, avx(512|2)' run.txt
then say "ok provenance: $(grep -E '^# (openblas|cpu)' run.txt | tr '\n' ' ')"
else say "FAIL provenance: $(grep -E '^# (openblas|cpu)' run.txt | tr '\n' ' ')"; fail=1; fi
[ "$fail" -eq 0 ] && say "all passed"
exit "$fail"
