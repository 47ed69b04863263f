#!/bin/sh
# t-propagation.sh — the problem key propagation=lohner (the ref path's mean-value form,
# slpi_ref_set_lohner): at a working precision of 53 bits (so the wrapping effect shows
# within seconds) the global verification of 4000 fast rigid-body ISOMP steps is
# certified through about 320 steps in ball form and through all 4000 in Lohner form,
# with the same verdicts on the rows both certify; `run --ref` reports a smaller
# radius; a scheme without a step Jacobian and a checkpointed Lohner run are refused
# (exit 2).
set -u
slpi=${SLPI_BIN:-./build/slpi}
fail=0
note() { echo "t-propagation: FAIL: $*" >&2; fail=1; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
$slpi run --preset iso/rigid-body/trajectories steps=4000 prec=53 prec_max=53 -q --hex -o "$d/p.tsv" || note "run failed"
grep -q '^# propagation=ball$' "$d/p.tsv" || note "the trajectory header does not state propagation=ball"
sed 's/^# propagation=ball$/# propagation=lohner/' "$d/p.tsv" > "$d/l.tsv"
$slpi verify --global "$d/p.tsv" > "$d/p.out"; rp=$?
$slpi verify --global "$d/l.tsv" > "$d/l.out"; rl=$?
through() { sed -n 's/.*certified through step \([0-9]*\).*/\1/p' "$1"; }
tp=$(through "$d/p.out"); tl=$(through "$d/l.out")
echo "t-propagation: 53-bit horizon of 4000 steps: ball form through step $tp (exit $rp), Lohner form through step $tl (exit $rl)"
[ "$rp" = 3 ] && [ "$rl" = 0 ] || note "exit codes $rp (ball, want 3 UNABLE) and $rl (lohner, want 0 PASS)"
[ -n "$tp" ] && [ -n "$tl" ] && [ "$tl" -ge $((10 * tp)) ] || note "the Lohner horizon $tl is not 10 times the ball horizon $tp"
grep -q 'global rows: [0-9]* PASS, 0 FAIL' "$d/p.out" || note "the ball form FAILs a row: $(grep 'global rows' "$d/p.out")"
# run --ref: the certified radius after 2000 steps at 128 bits
for pr in ball lohner; do
  $slpi run --preset iso/rigid-body/long steps=2000 --ref propagation=$pr -o "$d/r-$pr.tsv" > "$d/r-$pr.sum" || note "run --ref propagation=$pr failed"
done
rb=$(sed -n 's/.*max radius \([^,]*\),.*/\1/p' "$d/r-ball.sum"); rl=$(sed -n 's/.*max radius \([^,]*\),.*/\1/p' "$d/r-lohner.sum")
echo "t-propagation: run --ref, 2000 steps at 128 bits: max radius $rb (ball), $rl (Lohner)"
awk -v b="$rb" -v l="$rl" 'BEGIN { exit !(l > 0 && b > 0 && l * 1e6 < b) }' || note "Lohner radius $rl not far below ball radius $rb"
$slpi run --preset iso/rigid-body/long steps=20 --ref propagation=lohner scheme=svi -o "$d/x.tsv" 2> "$d/err"
[ $? = 2 ] && grep -q 'propagation=lohner: not available for svi' "$d/err" || note "svi with lohner: $(cat "$d/err")"
$slpi run --preset iso/rigid-body/long steps=20 --ref propagation=lohner -o "$d/y.tsv" --checkpoint "$d/y.ck" 2> "$d/err"
[ $? = 2 ] && grep -q 'no --checkpoint or --resume' "$d/err" || note "checkpointed lohner run: $(cat "$d/err")"
[ -e "$d/y.tsv" ] && note "the refused run left its output"
exit $fail
