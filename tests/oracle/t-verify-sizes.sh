#!/bin/sh
# t-verify-sizes.sh — the statistics of `slpi verify --local` hold at the sizes ports run
# (docs/power.md#sizes-amendment), reduced: slpi's own double path of
# Euler–Zeitlin (`iso/zeitlin/strong`, default matmul: Arb's products at N = 16, the BLAS
# route at N = 32 and 64, where the statistics' rows come from the steps on Arb's
# products), 2 paths x 16 steps pooled at binary64, PASSes proof and statistics with 32
# statistics rows at N = 16, 32 and 64 (at N = 64 it FAILed at p = 1e-72 when the
# directions shared the port's rounding), 32 observations at N = 16 and 32 and 16 at
# N = 64, where the noise moves the state by less than an ulp and the two paths' rows of
# a step are copies (docs/power.md#copies-amendment); the same files with a defect planted on every
# step (the port's move from its previous row scaled by 1 + c, c giving E u |x| per step,
# E = 2 + seed % 3) FAIL the statistics at each N; the tolerance tau holds the scheme's
# constants' response beside the data's (at least 1.5 times the data term 2 |D| / s of
# the last path alone: 4 to 20 times on these sizes). The paths are drawn from the seed.
# The fuller check (4 paths x 40 steps, 1 u per step) is docs/power.md#sizes-results'.
# The C port (tests/port/zeitlin-isomp.c) at su(64), binary64 and binary32, 2 steps: every
# row PASSes, the first too.
set -u
slpi=${SLPI_BIN:-./build/slpi}
slpi=$(cd "$(dirname "$slpi")" && pwd)/$(basename "$slpi")
. "$(dirname "$0")/prelude.sh"
seed=${SLPI_TEST_SEED:-$(date +%s)}
echo "t-verify-sizes: seed $seed (replay with SLPI_TEST_SEED=$seed)"
export OPENBLAS_NUM_THREADS=1
first=$((seed % 1000 * 2))
E=$((2 + seed % 3))
field() { $py -c "import json, sys; j = json.load(open(sys.argv[1])); print(j$2)" "$1"; }
# defect IN OUT: E u |x| a step planted, u = 2^-53 (tests/oracle/plant-moves.py); prints the
# data term of tau alone and the defect the binary64 file delivers, in units of u |x|
defect() { $py tests/oracle/plant-moves.py "$1" "$2" "$E" 1.1102230246251565e-16; }
for N in 16 32 64; do
  set --
  for k in $first $((first + 1)); do
    $slpi run --preset iso/zeitlin/strong N=$N steps=16 path=$k -q -o "$d/z$N-$k.tsv" > /dev/null 2>&1 \
      || { note "slpi run N=$N path $k"; continue; }
    planted=$(defect "$d/z$N-$k.tsv" "$d/d$N-$k.tsv") || note "the defect of N=$N path $k"
    data=${planted%% *} delivered=${planted##* }
    set -- "$@" "$k"
  done
  $slpi verify --local -q --threads 1 --json "$d/z$N.json" "$d/z$N-$first.tsv" "$d/z$N-$((first + 1)).tsv" > "$d/z.txt" 2>&1
  rc=$?
  rows=$(field "$d/z$N.json" "['statistics']['steps']")
  p=$(field "$d/z$N.json" "['statistics']['p_value']")
  obs=$(field "$d/z$N.json" "['statistics']['observations']")
  [ $rc -eq 0 ] && [ "$(field "$d/z$N.json" "['statistics']['verdict']")" = PASS ] && [ "$rows" = 32 ] \
    || note "N=$N correct: exit $rc, statistics $(field "$d/z$N.json" "['statistics']['verdict']") p $p, $rows rows: $(cat "$d/z.txt")"
  # at N = 64 the two paths' rows of a step are copies (docs/power.md#copies-amendment)
  [ "$obs" = "$([ $N = 64 ] && echo 16 || echo 32)" ] || note "N=$N: $obs observations of $rows rows"
  tau=$(field "$d/z$N.json" "['statistics']['data_tolerance_u']")
  awk -v t="$tau" -v d="$data" 'BEGIN { exit !(t + 0 >= 1.5 * d) }' \
    || note "N=$N: tau $tau is not above the data term $data alone: the constants' response is missing"
  $slpi verify --local -q --threads 1 --json "$d/d$N.json" "$d/d$N-$first.tsv" "$d/d$N-$((first + 1)).tsv" > "$d/d.txt" 2>&1
  rc=$?
  pd=$(field "$d/d$N.json" "['statistics']['p_value']")
  [ $rc -eq 1 ] && [ "$(field "$d/d$N.json" "['statistics']['verdict']")" = FAIL ] \
    || note "N=$N defect of $E u per step: exit $rc, statistics $(field "$d/d$N.json" "['statistics']['verdict']") p $pd"
  echo "t-verify-sizes: N=$N paths $first, $((first + 1)): correct p = $p ($rows rows, $obs observations, tau $tau, data term $data), defect of $E u per step ($delivered delivered) p = $pd"
done
# the C port (tests/port/zeitlin-isomp.c) at su(64), its default ic_lmax = 11, binary64 and
# binary32, 2 steps of path $first: every row PASSes, the first too (it built X0 from
# every degree, and its dense N^4 tables did not link at su(128)), and no row of
# increments is read as two
if command -v "${CC:-cc}" > /dev/null; then
  $slpi noise --preset iso/zeitlin/strong N=64 steps=2 path=$first > "$d/n64.tsv" 2> /dev/null || note "slpi noise N=64"
  for r in double:binary64 float:binary32; do
    "${CC:-cc}" -std=c11 -O2 -ffp-contract=off -DREAL=${r%%:*} -DN=64 -DIC_LMAX=11 -o "$d/cport" \
      tests/port/zeitlin-isomp.c -lm || { note "cannot build tests/port/zeitlin-isomp.c -DN=64"; continue; }
    "$d/cport" "$d/n64.tsv" 2 > "$d/c64.tsv" || { note "the C port at su(64) ${r%%:*} failed"; continue; }
    $slpi verify --local -q --threads 1 --precision ${r##*:} "$d/c64.tsv" > "$d/c.txt" 2>&1
    rc=$?
    grep -q "3 rows: 3 PASS, 0 FAIL" "$d/c.txt" && [ $rc -eq 0 ] \
      || note "the C port at su(64) ${r%%:*}: exit $rc: $(cat "$d/c.txt")"
    # each row of increments is read whole (su(64)'s pass 128 KiB; read in 64 KiB pieces,
    # one row fed three steps, and the port drifted to NaN by step 6): 3 steps of a 2-step
    # file are refused
    "$d/cport" "$d/n64.tsv" 3 > /dev/null 2> "$d/c.err"
    rc=$?
    [ $rc -eq 2 ] && grep -q "too few increments" "$d/c.err" \
      || note "the C port at su(64) ${r%%:*} ran 3 steps on 2 rows of increments: exit $rc $(cat "$d/c.err")"
  done
  echo "t-verify-sizes: the C port at su(64), binary64 and binary32, 2 steps: every row checked, each row read whole"
fi
[ $fail -eq 0 ] && echo "t-verify-sizes: PASS"
exit $fail
