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
all="casimir energy reversible poisson order-det order-strong order-control agree equivariance"
props rigid-body-nonquadratic.slpi $all
props heavy-top-variant.slpi $all
cheap="casimir energy reversible poisson order-det order-control equivariance"
mult=${SLPI_TEST_MULTIPLIER:-1}
if [ "$mult" = 1 ]; then props so4-rigid-body.slpi $cheap; else props so4-rigid-body.slpi $all; fi
# H and the noise Hamiltonian read t (docs/models.md#time): energy is N/A (nothing is
# conserved), reversibility steps back from t0 + N h, the other claims stand
props rigid-body-time.slpi $cheap
# su(3) with an H reading ImX_a_a one by one (docs/models.md#su-n): H at the traceless part
if [ "$mult" = 1 ]; then props su3-diagonal.slpi $cheap; else props su3-diagonal.slpi $all; fi
exit $fail
