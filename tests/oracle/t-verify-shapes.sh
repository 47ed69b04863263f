#!/bin/sh
# t-verify-shapes.sh — the statistics of many short paths from one initial state
# (docs/power.md#shapes-amendment): slpi's own correct double path, rigid body ISOMP,
# 200 paths x 2 steps from one x0 in one file with a `path` column (paths 0-199: the
# shape and paths that FAILed at p = 8.6e-7 when the systematic null was a mean of 0),
# PASSes proof and statistics; the same file with a defect planted on every step (the
# port's move from its previous row scaled by 1 + c, a deviation of a few u |x| per step
# along the step, c drawn from the seed) FAILs the statistics and names the systematic
# test.
set -u
slpi=${SLPI_BIN:-./build/slpi}
slpi=$(cd "$(dirname "$slpi")" && pwd)/$(basename "$slpi")
. "$(dirname "$0")/prelude.sh"
seed=${SLPI_TEST_SEED:-$(date +%s)}
echo "t-verify-shapes: seed $seed (replay with SLPI_TEST_SEED=$seed)"
export OPENBLAS_NUM_THREADS=1
n=200
k=0
while [ $k -lt $n ]; do
  $slpi run --preset iso/rigid-body/trajectories steps=2 path=$k -q -o "$d/p$k.tsv" > /dev/null 2>&1 \
    || { note "slpi run path $k"; exit 1; }
  k=$((k + 1))
done
# one file, step by step, a path column after t
{
  grep '^#' "$d/p0.tsv" | grep -v '^# path='
  grep -v '^#' "$d/p0.tsv" | head -1 | awk -F'\t' 'BEGIN { OFS = "\t" } { $2 = $2 "\tpath"; print }'
  k=0
  while [ $k -lt $n ]; do
    grep -v '^#' "$d/p$k.tsv" | tail -n +2 | awk -F'\t' -v p=$k 'BEGIN { OFS = "\t" } { $2 = $2 "\t" p; print }'
    k=$((k + 1))
  done | sort -k1,1n -k3,3n
} > "$d/all.tsv"
field() { $py -c "import json, sys; j = json.load(open(sys.argv[1])); print(j['$1']['$2'])" "$d/v.json"; }
$slpi verify --local -q --threads 1 --json "$d/v.json" "$d/all.tsv" > /dev/null
rc=$?
[ $rc -eq 0 ] || note "200 x 2 correct paths from one x0: exit $rc, statistics $(field statistics verdict) p $(field statistics p_value)"
# the defect: each row's move from the path's previous row (as written) scaled by 1 + c,
# c = (2 + seed % 5) 1e-14, about (2 + seed % 5) u |x| per step here (|D| about 6e-3 |x|)
c=$(awk -v s=$seed 'BEGIN { printf "%.3g", (2 + s % 5) * 1e-14 }')
awk -F'\t' -v c=$c 'BEGIN { OFS = "\t" }
  /^#/ || !hdr { print; if (!/^#/) hdr = 1; next }
  { key = $3; if (key in prev) { split(prev[key], q, SUBSEP); for (i = 4; i <= 6; i++) { x = $i; $i = sprintf("%.17g", x + c * (x - q[i - 3])) } }
    prev[key] = x1 = $4 SUBSEP $5 SUBSEP $6; print }' "$d/all.tsv" > "$d/bad.tsv"
rm -f "$d/v.json"
$slpi verify --local -q --threads 1 --json "$d/v.json" "$d/bad.tsv" > /dev/null
rc=$?
[ $rc -eq 1 ] && [ "$(field statistics verdict)" = FAIL ] && [ "$(field statistics test)" = systematic ] \
  || note "a defect of c = $c on every step: exit $rc, statistics $(field statistics verdict) $(field statistics test)"
echo "t-verify-shapes: defect c = $c: statistics $(field statistics verdict), p $(field statistics p_value)"
[ $fail -eq 0 ] && echo "t-verify-shapes: PASS"
exit $fail
