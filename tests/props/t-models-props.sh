#!/bin/sh
# t-models-props.sh — the property harness on the five systems no built-in covers
# (models/*.slpi, docs/models.md#props): each property of docs/schemes.md#summary that a
# model can claim (Casimirs of its algebra, noise-free energy, reversibility, the Poisson
# map, orders and cross-scheme agreement) passes on every scheme the registry admits,
# fast path (the certified model path is checked by its own tests).
# Cost rule: the so(4) body's strong-order and agreement studies take 47 s of the 51 s
# its full run needs (2 cores), so they run in `make check-long` (SLPI_TEST_MULTIPLIER > 1)
# only; every other property runs here.
set -u
slpi=${SLPI_BIN:-./build/slpi}
dir=$(dirname "$0")/../../models
fail=0
# A property that does not apply to a model (no conserved energy, no symmetry of H_0
# and the noise, ...) selects no group, which `slpi props` refuses (exit 2, "holds no
# group": never a PASS on an empty selection); each model names its N/A properties, so
# one that stops applying, or starts, is caught either way.
na() {
  model=$1; shift
  for p in "$@"; do
    out=$("$slpi" props --config "$dir/$model" --fast-only --cases 5 --property "$p" 2>&1); rc=$?
    if [ $rc -ne 2 ] || ! echo "$out" | grep -q 'holds no group'; then
      echo "t-models-props: FAIL: $model $p: expected N/A (exit 2, no group), got exit $rc:" >&2
      echo "$out" | tail -5 >&2; fail=1
    else
      echo "t-models-props: $model $p: N/A (refused: no group)"
    fi
  done
}
props() {
  model=$1; shift
  for p in "$@"; do
    if ! out=$("$slpi" props --config "$dir/$model" --fast-only --cases 5 --property "$p" 2>&1); then
      echo "t-models-props: FAIL: $model $p:" >&2; echo "$out" | tail -20 >&2; fail=1
    else
      echo "t-models-props: $model $p: $(echo "$out" | tail -1)"
    fi
  done
}
props rigid-body-nonquadratic.slpi casimir energy reversible poisson order-det order-strong agree
na rigid-body-nonquadratic.slpi order-control equivariance
props heavy-top-variant.slpi casimir reversible order-det order-strong order-control agree
na heavy-top-variant.slpi energy poisson equivariance
mult=${SLPI_TEST_MULTIPLIER:-1}
props so4-rigid-body.slpi casimir energy reversible poisson order-det order-control
[ "$mult" = 1 ] || props so4-rigid-body.slpi order-strong agree
na so4-rigid-body.slpi equivariance
# H and the noise Hamiltonian read t (docs/models.md#time): energy is N/A (nothing is
# conserved), reversibility steps back from t0 + N h, the other claims stand
props rigid-body-time.slpi casimir reversible poisson order-det order-control
na rigid-body-time.slpi energy equivariance
# su(3) with an H reading ImX_a_a one by one (docs/models.md#su-n): H at the traceless part
props su3-diagonal.slpi casimir energy reversible poisson order-det order-control
[ "$mult" = 1 ] || props su3-diagonal.slpi order-strong agree
na su3-diagonal.slpi equivariance
exit $fail
