#!/bin/sh
# t-verify-shapes.sh — the statistics of many short paths from one initial state
# (docs/power.md#shapes-amendment): slpi's own correct double path, rigid body ISOMP,
# 200 paths x 2 steps from one x0 in one file with a `path` column (paths 0-199: the
# shape and paths that FAILed at p = 8.6e-7 when the systematic null was a mean of 0),
# PASSes proof and statistics; the same file with a defect planted on every step (the
# port's move from its previous row scaled by 1 + c, a deviation of a few u |x| per step
# along the step, c drawn from the seed) FAILs the statistics and names the systematic
# test. With 2 threads those 200 paths run as files at once (oracle/verify.c,
# FILES_PER_THREAD), one file a thread: the reports (every row's table, the statistics,
# the diagnosis) and the JSON (but its CPU time) are the same bytes as on one thread, for the
# correct file, the defect and a Manakov file (the diagnosis' terms kernel); and a pool whose 21st file (in the second batch) is another problem,
# or whose last file repeats path 37, stops at that file with the same report and
# message on both.
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
# VERIFY ARGS...: the report, stderr and exit of one and of two threads, the same bytes
same_threads() {
  for t in 1 2; do
    $slpi verify --local --table --sample-seed 5 --threads $t --json "$d/j$t.json" "$@" > "$d/r$t.txt" 2> "$d/e$t.txt"
    echo "exit $?" >> "$d/e$t.txt"
  done
  cmp -s "$d/r1.txt" "$d/r2.txt" || note "$*: 1 and 2 threads differ in the report: $(diff "$d/r1.txt" "$d/r2.txt" | head -6)"
  cmp -s "$d/e1.txt" "$d/e2.txt" || note "$*: 1 and 2 threads differ in stderr or exit: $(diff "$d/e1.txt" "$d/e2.txt" | head -6)"
  if [ -f "$d/j1.json" ] || [ -f "$d/j2.json" ]; then
    for t in 1 2; do   # but the CPU time and the rows per CPU-second
      [ -f "$d/j$t.json" ] && sed -i '/"cpu_seconds"\|_per_cpu_second"/d' "$d/j$t.json"
    done
    cmp -s "$d/j1.json" "$d/j2.json" || note "$*: 1 and 2 threads differ in the JSON: $(diff "$d/j1.json" "$d/j2.json" | head -4)"
  fi
  rm -f "$d/j1.json" "$d/j2.json"
}
same_threads "$d/all.tsv"
grep -q "200 paths" "$d/r2.txt" || note "two threads: the pooled report lacks its 200 paths: $(grep '^statistics' "$d/r2.txt" | head -2)"
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
same_threads "$d/bad.tsv"
grep -q "^diagnosis" "$d/r2.txt" || note "two threads: the defect's report names no diagnosis"
# a Manakov file (ISOMP's commutator update on fixed point: the diagnosis steps with its
# ingredients' coefficients set, through the terms kernel, and must unset them, or a row's
# steps depend in their last bits on the rows before it on its thread): the same bytes
$slpi run --preset iso/manakov/long steps=24 -q -o "$d/mk.tsv" > /dev/null 2>&1 || note "slpi run iso/manakov/long"
same_threads "$d/mk.tsv"
# a pool that stops at its 21st file (another problem: h) or at its last (path 37 again)
$slpi run --preset iso/rigid-body/trajectories steps=2 path=20 h=0.011 -q -o "$d/other.tsv" > /dev/null 2>&1 || note "slpi run h=0.011"
cp "$d/p37.tsv" "$d/again.tsv"
set --
k=0
while [ $k -lt 40 ]; do
  if [ $k -eq 20 ]; then set -- "$@" "$d/other.tsv"; else set -- "$@" "$d/p$k.tsv"; fi
  k=$((k + 1))
done
same_threads "$@"
grep -q "other.tsv" "$d/e2.txt" && grep -q "exit 2" "$d/e2.txt" || note "the 21st file of another problem: $(cat "$d/e2.txt")"
set --
k=0
while [ $k -lt 40 ]; do set -- "$@" "$d/p$k.tsv"; k=$((k + 1)); done
same_threads "$@" "$d/again.tsv"
grep -q "the same path as .*p37.tsv" "$d/e2.txt" && grep -q "exit 2" "$d/e2.txt" || note "path 37 twice: $(cat "$d/e2.txt")"
echo "t-verify-shapes: defect c = $c: statistics $(field statistics verdict), p $(field statistics p_value)"
[ $fail -eq 0 ] && echo "t-verify-shapes: PASS"
exit $fail
