#!/bin/sh
# t-verify-routes.sh — the statistics of `slpi verify --local` on every route of the
# certified products (oracle/README.md#statistics): slpi's own double path of
# Euler–Zeitlin su(32) (`iso/zeitlin/strong N=32`, default matmul: the certified steps
# take the BLAS route, whose balls at binary64 are far wider than the test's resolution),
# 2 paths x 12 steps at binary64, gets every row into the statistics: under
# `--stat-reference certified` each from the step on Arb's products
# (`steps_arb_reference`), with its rows per CPU-second, and the same file with
# `matmul=arb` the same rows from the certified balls themselves (no Arb reference
# needed), with the same statistics; under the default (`auto`: the accurate reference,
# docs/power.md#accurate-reference) the same rows and p to 1e-12, with the proof and without it
# (`--max-steps 0`). The JSON's proof rows per CPU-second
# are positive too, and with --progress standard error says both rates ("verify: ...
# CPU s; proof N rows (R a CPU second), statistics ..."), without it (not a terminal)
# nothing.
set -u
slpi=${SLPI_BIN:-./build/slpi}
slpi=$(cd "$(dirname "$slpi")" && pwd)/$(basename "$slpi")
. "$(dirname "$0")/prelude.sh"
export OPENBLAS_NUM_THREADS=1
field() { $py -c "import json, sys; j = json.load(open(sys.argv[1])); print(j$2)" "$1"; }
for k in 0 1; do
  $slpi run --preset iso/zeitlin/strong N=32 steps=12 path=$k -q -o "$d/p$k.tsv" > /dev/null 2>&1 \
    || { note "slpi run path $k"; exit 1; }
  sed 's/^# matmul=auto$/# matmul=arb/' "$d/p$k.tsv" > "$d/a$k.tsv"
done
grep -q '^# matmul=auto$' "$d/p0.tsv" && grep -q '^# matmul=arb$' "$d/a0.tsv" || note "the files' matmul key"
$slpi verify --local -q --threads 1 --stat-reference certified --json "$d/b.json" "$d/p0.tsv" "$d/p1.tsv" > "$d/b.txt" 2>&1
rc=$?
prate=$(field "$d/b.json" "['proof_rows_per_cpu_second']")
awk -v r="$prate" 'BEGIN { exit !(r + 0 > 0) }' || note "BLAS route: proof rows per CPU-second '$prate'"
rows=$(field "$d/b.json" "['statistics']['steps']")
arb=$(field "$d/b.json" "['statistics']['steps_arb_reference']")
blas=$(field "$d/b.json" "['local']['products']['blas']")
rate=$(field "$d/b.json" "['statistics']['steps_per_cpu_second']")
[ $rc -eq 0 ] || note "BLAS route: exit $rc: $(cat "$d/b.txt")"
[ "$blas" = 24 ] || note "BLAS route: $blas rows enclosed on the BLAS route, expected 24"
[ "$rows" = 24 ] && [ "$arb" = 24 ] || note "BLAS route: $rows statistics rows, $arb from Arb's products, expected 24 and 24"
awk -v r="$rate" 'BEGIN { exit !(r + 0 > 0) }' || note "BLAS route: steps per CPU-second '$rate'"
$slpi verify --local --progress --threads 1 --stat-reference certified --json "$d/a.json" "$d/a0.tsv" "$d/a1.tsv" > "$d/a.txt" 2> "$d/a.err"
rc=$?
tr '\r' '\n' < "$d/a.err" | sed 's/^.\[K//' |   # after the progress line, erased
  grep -Eq '^verify: [0-9.e+-]+ CPU s; proof 26 rows \([0-9.e+-]+ a CPU second\), statistics 24 rows \([0-9.e+-]+ a CPU second\)$' \
  || note "Arb route with --progress: no cost line: $(tr '\r' '\n' < "$d/a.err" | tail -2)"
$slpi verify --local --threads 1 "$d/a0.tsv" "$d/a1.tsv" 2>&1 > /dev/null | grep -q "CPU s" \
  && note "Arb route without --progress (not a terminal): a cost line on standard error"
[ $rc -eq 0 ] || note "Arb route: exit $rc: $(cat "$d/a.txt")"
[ "$(field "$d/a.json" "['statistics']['steps']")" = 24 ] && [ "$(field "$d/a.json" "['statistics']['steps_arb_reference']")" = 0 ] \
  || note "Arb route: $(field "$d/a.json" "['statistics']['steps']") rows, $(field "$d/a.json" "['statistics']['steps_arb_reference']") from the Arb reference"
pb=$(field "$d/b.json" "['statistics']['p_value']")
pa=$(field "$d/a.json" "['statistics']['p_value']")
[ "$pb" = "$pa" ] || note "the p-value on the BLAS route ($pb) differs from the Arb route's ($pa)"
for m in "" "--max-steps 0"; do
  $slpi verify --local -q --threads 1 $m --json "$d/c.json" "$d/p0.tsv" "$d/p1.tsv" > /dev/null 2>&1
  rc=$?
  pc=$(field "$d/c.json" "['statistics']['p_value']")
  got="$(field "$d/c.json" "['statistics']['reference']") $(field "$d/c.json" "['statistics']['steps']")"
  # the accurate reference is within 1e-5 units of the certified one, not equal to it: p
  # to 1e-12 relatively (docs/power.md#accurate-start-checks)
  [ "$got" = "accurate 24" ] && [ $rc -eq $([ -z "$m" ] && echo 0 || echo 3) ] \
    && awk -v a="$pc" -v b="$pb" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-12 * b) }' \
    || note "BLAS route, auto${m:+ $m}: exit $rc, reference, rows and p '$got $pc', expected 'accurate 24 $pb'"
done
echo "t-verify-routes: BLAS route $rows rows ($arb from Arb's products), p = $pb, $rate rows per CPU-second"
[ $fail -eq 0 ] && echo "t-verify-routes: PASS"
exit $fail
