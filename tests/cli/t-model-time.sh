#!/bin/sh
# t-model-time.sh — what recomputes a step of a time-dependent model knows the step's time
# t0 + (n + c) h (docs/models.md#time), from the command line:
#  1. resume: a run of ISOMP and of TRAP-DIRECT (a scheme with two stage times) on an so3
#     model whose H and noise Hamiltonian read t, checkpointed every 7 steps and resumed
#     from an output cut inside its last row, is byte-identical to the uninterrupted run,
#     on both paths (a run resumed at step 0's time differs: the state after step 35
#     moves by about |dH/dt| h per step);
#  2. verify: its fast trajectory passes `slpi verify` (global and --local, every row, and
#     with output_every=5, where --local replays five steps from each row); the same
#     trajectory with every time shifted (its header's t0 moved by h/2) fails both;
#  3. the model's header carries t0, and a fresh run from that header is the same run;
#  4. golden: a case of models/rigid-body-time.slpi (`golden --write --config`) checks PASS,
#     and the same case with its t0 moved FAIL.
set -u
slpi=${SLPI_BIN:-./build/slpi}
tmp=$(mktemp -d)
fail=0; n=0
bad() { echo "t-model-time: FAIL: $*" >&2; fail=1; }
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1

model="system=model algebra=so3 H=(1+0.5*sin(3*t))*(x1^2/2+x2^2/4+x3^2/6) noise_H1=0.3*cos(2*t)*x3 x0=1,0.5,0.2 t0=0.75 h=0.03125"

for sch in isomp trap-direct; do
  for ref in "" "--ref"; do
    n=$((n+1))
    args="$model scheme=$sch steps=40 -q"
    "$slpi" run $args $ref --hex -o "$tmp/full.tsv" || bad "$sch $ref: run failed"
    "$slpi" run $args $ref --hex -o "$tmp/part.tsv" --checkpoint "$tmp/ck" --checkpoint-every 7 \
      || bad "$sch $ref: checkpointed run failed"
    grep -q '^step 35$' "$tmp/ck" || bad "$sch $ref: the checkpoint is not at step 35"
    size=$(wc -c < "$tmp/part.tsv")
    head -c $((size - 40)) "$tmp/full.tsv" > "$tmp/part.tsv"
    "$slpi" run $args $ref --hex -o "$tmp/part.tsv" --resume "$tmp/ck" || bad "$sch $ref: resume failed"
    cmp -s "$tmp/full.tsv" "$tmp/part.tsv" || bad "$sch $ref: the resumed run differs from the uninterrupted one"
  done
done

verdict() {   # FILE [OPTIONS]: the verify verdict line's last word
  f=$1; shift
  "$slpi" verify "$@" "$f" 2>&1 | sed -n 's/^verdict: .* => //p'
}

for every in 1 5; do
  n=$((n+1))
  "$slpi" run $model scheme=isomp steps=30 output_every=$every -q -o "$tmp/v.tsv" || bad "output_every=$every: run failed"
  grep -q '^# t0=0.75$' "$tmp/v.tsv" || bad "output_every=$every: the header does not carry t0=0.75"
  v=$(verdict "$tmp/v.tsv"); [ "$v" = PASS ] || bad "output_every=$every: verify says '$v', not PASS"
  v=$(verdict "$tmp/v.tsv" --local); [ "$v" = PASS ] || bad "output_every=$every: verify --local says '$v', not PASS"
  sed 's/^# t0=0.75$/# t0=0.765625/' "$tmp/v.tsv" > "$tmp/shift.tsv"
  v=$(verdict "$tmp/shift.tsv"); [ "$v" = FAIL ] || bad "output_every=$every: times shifted by h/2, verify says '$v', not FAIL"
  v=$(verdict "$tmp/shift.tsv" --local)
  [ "$v" = FAIL ] || bad "output_every=$every: times shifted by h/2, verify --local says '$v', not FAIL"
done

# the header is the problem: a run from it is the same run
n=$((n+1))
grep '^# ' "$tmp/v.tsv" | sed 's/^# //' | grep -E '^(system|scheme|algebra|H|noise_H1|x0|t0|h|steps|output_every)=' \
  > "$tmp/model.slpi"
"$slpi" run --config "$tmp/model.slpi" -q -o "$tmp/again.tsv" || bad "a run from the header failed"
[ "$(grep -v '^#' "$tmp/v.tsv" | md5sum)" = "$(grep -v '^#' "$tmp/again.tsv" | md5sum)" ] \
  || bad "a run from the header's keys differs"

# golden: the user's own case of a time-dependent model
n=$((n+1))
mkdir -p "$tmp/cases"
"$slpi" golden --write --config "$(dirname "$0")/../../models/rigid-body-time.slpi" scheme=isomp steps=8 \
  --dir "$tmp/cases" >/dev/null 2>&1 || bad "golden --write failed"
"$slpi" golden --check "$tmp/cases/rigid-body-time.golden" 2>&1 | grep -q '^golden: PASS' || bad "golden --check: not PASS"
sed 's/t0=0.25/t0=0.5/' "$tmp/cases/rigid-body-time.golden" > "$tmp/cases/shift.golden"
grep -q 't0=0.5' "$tmp/cases/shift.golden" || bad "the golden case does not carry t0"
"$slpi" golden --check "$tmp/cases/shift.golden" 2>&1 | grep -q '^golden: FAIL' || bad "golden --check of a moved t0: not FAIL"

[ $fail = 0 ] || exit 1
echo "t-model-time: $n checks passed"
