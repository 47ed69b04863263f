#!/bin/sh
# t-verify-formats.sh — `slpi verify --local` at every declared format below binary32,
# on the precision-generic rigid-body ISOMP port of tests/port/ports.py (`emu`: every
# operation rounded to the format): bfloat16, binary16, tf32 (products of 11-bit
# operands summed in binary32) and a user's u = 2^-16, and on its NumPy float32 build at
# binary32. For each: the correct port PASSes, proof and statistics; its "max ulps"
# counts ulps of the declared format: at most 2^12 of them (a coordinate passing near
# zero has finer ulps, so no fixed count bounds a correct port's; 2^12 is far below the
# 2^(53 - p) times more that the same file read at binary64 counts, which is checked); at
# bfloat16, binary16 and p = 16, where most steps move the state by at most 2^10 ulps,
# the deviations are taken from the exact step rounded to the format
# (docs/power.md#rounding-amendment), at tf32 (binary32 outputs) not; the systematic
# test allows the mean the format's data cause (docs/power.md#data-amendment) at every
# format (#shapes-amendment); and
# every noise amplitude off by a quarter of u per step FAILs, and the diagnosis names
# "noise" first (at the rounded formats, from the deviations from the rounded step).
set -u
slpi=${SLPI_BIN:-./build/slpi}
slpi=$(cd "$(dirname "$slpi")" && pwd)/$(basename "$slpi")
. "$(dirname "$0")/prelude.sh"
$py -c 'import numpy' 2> /dev/null || { echo "t-verify-formats: SKIP: no numpy for $py"; exit 77; }
seed=${SLPI_TEST_SEED:-$(date +%s)}
echo "t-verify-formats: seed $seed (replay with SLPI_TEST_SEED=$seed)"
path=$((seed % 100000 + 20000))
steps=$((1000 * ${SLPI_TEST_MULTIPLIER:-1}))
export OPENBLAS_NUM_THREADS=1
$slpi noise --preset iso/rigid-body/trajectories steps=$steps path=$path -o "$d/n.noise" 2> /dev/null \
  || { note "slpi noise"; exit 1; }
# a field of verify's JSON: local.max_ulps, statistics.verdict, ...
field() { $py -c "import json, sys; j = json.load(open(sys.argv[1])); print(j['$1']['$2'])" "$d/v.json"; }
# format, verify's --precision, its bits, the amplitude MAG of 1/4 u per step (the
# binary32 grid's 1.7e-5 for 1 u, times 2^(24 - log2(1/u)) / 4), rounded steps (1: most)
# format, backend, dtype, then as above
for c in "bfloat16 bfloat16 8 0.28 1 emu bfloat16" "binary16 binary16 11 0.035 1 emu binary16" \
  "tf32 tf32 24 0.035 0 emu tf32" "u=0x1p-16 u=0x1p-16 16 1.1e-3 1 emu u=0x1p-16" \
  "binary32 binary32 24 4.2e-6 0 numpy float32"; do
  set -- $c
  $py tests/port/ports.py "$6" "$7" rb "$d/n.noise" $steps > "$d/ok.tsv" || { note "$1: the port"; continue; }
  rm -f "$d/v.json"
  $slpi verify --precision "$2" --local --json "$d/v.json" -q "$d/ok.tsv" > /dev/null
  rc=$?
  [ $rc -eq 0 ] || note "$1: the correct port: verify exit $rc ($(field statistics verdict), p $(field statistics p_value))"
  ulps=$(field local max_ulps)
  awk -v x="$ulps" -v b="$3" -v p="$2" 'BEGIN { u = p ~ /^u=/ ? 2 ^ -16 : p == "tf32" ? 2 ^ -11 : 2 ^ -b
    exit !(x >= 0 && x <= 4096 * u * 2 ^ b) }' || note "$1: max $ulps ulps of the format, more than 2^12 u"
  small=$(field statistics steps_of_few_ulps)
  rounded=$(field statistics against_rounded)
  tau=$(field statistics data_tolerance_u)
  # the format's data allow tau u per step in both forms (docs/power.md#data-amendment,
  # #shapes-amendment): about 0.009 on the rigid body; a port whose every mean is within
  # it has the systematic p-value 1
  eff=$(field statistics effect_per_step_u)
  psys=$(field statistics p_systematic)
  awk -v t="$tau" -v e="$eff" -v p="$psys" 'BEGIN { e = e < 0 ? -e : e
    exit !(t > 0.002 && t < 0.05 && (e > t || p == 1)) }' \
    || note "$1: data tolerance $tau u, largest mean $eff u, systematic p $psys"
  if [ "$5" = 1 ]; then
    [ "$small" -ge $((steps * 9 / 10)) ] && [ "$rounded" = True ] \
      || note "$1: $small of $steps steps of a few ulps, taken from the rounded step: $rounded"
  else
    [ "$small" -lt $((steps / 10)) ] && [ "$rounded" = False ] \
      || note "$1: $small of $steps steps of a few ulps, taken from the rounded step: $rounded"
  fi
  $slpi verify --precision binary64 --local --json "$d/v.json" -q "$d/ok.tsv" > /dev/null
  ulps64=$(field local max_ulps)
  awk -v x="$ulps64" -v y="$ulps" -v b="$3" 'BEGIN { exit !(y == 0 || x >= y * 2 ^ (51 - b)) }' \
    || note "$1: $ulps64 ulps of binary64 against $ulps of the format"
  $py tests/port/ports.py "$6" "$7" rb "$d/n.noise" $steps amp "$4" > "$d/bad.tsv" || { note "$1: the port"; continue; }
  $slpi verify --precision "$2" --local --json "$d/v.json" -q "$d/bad.tsv" > /dev/null
  rc=$?
  [ $rc -eq 1 ] || note "$1: the amplitude 1/4 u per step off: verify exit $rc, expected 1"
  # the diagnosis in the form the statistics used (against the rounded step where $5 = 1)
  first=$($py -c "import json, sys; d = json.load(open(sys.argv[1]))['statistics']['diagnosis']
print(d['named'], d['ingredients'][0]['ingredient'])" "$d/v.json" 2> /dev/null)
  [ "$first" = "True noise" ] || note "$1: the amplitude 1/4 u per step off: diagnosis '$first', expected 'True noise'"
done
[ $fail -eq 0 ] && echo "t-verify-formats: bfloat16, binary16, tf32, u=2^-16, binary32: correct ports PASS in the format's ulps, 1/4 u amplitude defects FAIL"
exit $fail
