#!/bin/sh
# t-verify-tf32.sh — TF32's operand rounding and flushed subnormals declared
# (docs/power.md#tf32-rule): slpi.torch with its products' operands converted as a TF32
# unit does (tests/port/tf32.py), Euler–Zeitlin su(4), 3 paths x 40 steps drawn from the
# seed: operands truncated (`rz`) PASS at `--precision tf32-rz` (u = 2^-10 in the JSON)
# and rounded to nearest (`rn`) PASS at `tf32`; each with a defect of E u per step of
# its declaration planted (tests/oracle/plant-moves.py, E = 1 + seed % 2) FAILs. The
# `emu binary16+ftz` rigid body of tests/port/ports.py (every value below 2^-14 held as
# 0), 600 steps: PASSes at `binary16+ftz`, whose tau is larger than plain binary16's by
# the flush's term (and at binary32 +ftz changes nothing: tau the same); its noise
# amplitude off by 1/4 u per step FAILs at binary16+ftz. Skipped (77) without PyTorch.
set -u
slpi=${SLPI_BIN:-./build/slpi}
slpi=$(cd "$(dirname "$slpi")" && pwd)/$(basename "$slpi")
build=$(cd "$(dirname "$slpi")" && pwd)
. "$(dirname "$0")/prelude.sh"
$py -c 'import torch, numpy' 2> /dev/null || { echo "t-verify-tf32: SKIP: no PyTorch or NumPy for $py"; exit 77; }
export SLPI_LIB=$build/libslpi.so PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH} OPENBLAS_NUM_THREADS=1
seed=${SLPI_TEST_SEED:-$(date +%s)}
echo "t-verify-tf32: seed $seed (replay with SLPI_TEST_SEED=$seed)"
first=$((seed % 1000 * 3 + 300))
E=$((1 + seed % 2))
field() { $py -c "import json, sys; j = json.load(open(sys.argv[1])); print(j$2)" "$1"; }
# verify PRECISION JSON FILES...: the exit code
verify() {
  p=$1 j=$2
  shift 2
  $slpi verify --local -q --threads 1 --precision "$p" --json "$j" "$@" > /dev/null 2>&1
  echo $?
}
for m in rz rn; do
  $py tests/port/tf32.py $m iso/zeitlin/strong 3 $first 40 "$d/$m" N=4 ic_lmax=3 || { note "the $m port"; continue; }
  mkdir -p "$d/bad-$m"
  P=$([ $m = rz ] && echo tf32-rz || echo tf32)
  u=$([ $m = rz ] && echo 0.0009765625 || echo 0.00048828125)
  for f in "$d/$m"/*.tsv; do
    $py tests/oracle/plant-moves.py "$f" "$d/bad-$m/$(basename "$f")" $E $u > /dev/null || note "the $m defect"
  done
  rc=$(verify $P "$d/$m.json" "$d/$m"/*.tsv)
  [ "$rc" = 0 ] && [ "$(field "$d/$m.json" "['statistics']['verdict']")" = PASS ] \
    || note "$m at $P: exit $rc, statistics $(field "$d/$m.json" "['statistics']['verdict']") p $(field "$d/$m.json" "['statistics']['p_value']")"
  [ "$(field "$d/$m.json" "['budget']['unit_roundoff']")" = $u ] \
    || note "$m at $P: unit roundoff $(field "$d/$m.json" "['budget']['unit_roundoff']"), expected $u"
  rc=$(verify $P "$d/bad-$m.json" "$d/bad-$m"/*.tsv)
  [ "$rc" = 1 ] || note "$m at $P with $E u per step planted: exit $rc, expected 1 (p $(field "$d/bad-$m.json" "['statistics']['p_value']"))"
done
# flushed subnormals: binary16, where the smallest normal 2^-14 is u / 8
path=$((seed % 100000 + 40000))
$slpi noise --preset iso/rigid-body/trajectories steps=600 path=$path -o "$d/n.noise" 2> /dev/null || note "slpi noise"
$py tests/port/ports.py emu binary16+ftz rb "$d/n.noise" 600 > "$d/f.tsv" || note "the flushing port"
$py tests/port/ports.py emu binary16+ftz rb "$d/n.noise" 600 amp 0.035 > "$d/fa.tsv" || note "the flushing port's defect"
rc=$(verify binary16+ftz "$d/f.json" "$d/f.tsv")
[ "$rc" = 0 ] || note "binary16+ftz: exit $rc, p $(field "$d/f.json" "['statistics']['p_value']")"
verify binary16 "$d/f16.json" "$d/f.tsv" > /dev/null
tf=$(field "$d/f.json" "['statistics']['data_tolerance_u']")
t16=$(field "$d/f16.json" "['statistics']['data_tolerance_u']")
awk -v a="$tf" -v b="$t16" 'BEGIN { exit !(a > b * 1.2) }' || note "tau at binary16+ftz $tf, at binary16 $t16: no flush term"
verify binary32 "$d/g.json" "$d/f.tsv" > /dev/null
verify binary32+ftz "$d/gf.json" "$d/f.tsv" > /dev/null
[ "$(field "$d/g.json" "['statistics']['data_tolerance_u']")" = "$(field "$d/gf.json" "['statistics']['data_tolerance_u']")" ] \
  || note "binary32+ftz moved tau: $(field "$d/gf.json" "['statistics']['data_tolerance_u']") against $(field "$d/g.json" "['statistics']['data_tolerance_u']")"
rc=$(verify binary16+ftz "$d/fa.json" "$d/fa.tsv")
[ "$rc" = 1 ] || note "binary16+ftz, amplitude 1/4 u per step off: exit $rc, expected 1"
[ $fail -eq 0 ] && echo "t-verify-tf32: tf32-rz and tf32 ports PASS as declared, E u per step FAILs; binary16+ftz's tau holds the flush"
exit $fail
