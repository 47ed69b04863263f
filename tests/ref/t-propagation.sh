#!/bin/sh
# t-propagation.sh — the problem key propagation (the ref path's mean-value form,
# slpi_ref_set_lohner; default auto: that form wherever it applies): at a working
# precision of 53 bits (so the wrapping effect shows within seconds) the global
# verification of 4000 fast rigid-body ISOMP steps is certified through about 320 steps
# in ball form and through all 4000 by default (auto) and in Lohner form, with the same
# verdicts on the rows both certify; `run --ref` reports a smaller radius by default than
# with propagation=ball; a checkpointed run in Lohner form (auto and lohner), cut and
# resumed, is byte-identical to the uninterrupted one, its checkpoint holding the set;
# a scheme without a step Jacobian is refused with lohner (exit 2) and steps balls with
# auto.
set -u
slpi=${SLPI_BIN:-./build/slpi}
fail=0
note() { echo "t-propagation: FAIL: $*" >&2; fail=1; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
$slpi run --preset iso/rigid-body/trajectories steps=4000 prec=53 prec_max=53 -q --hex -o "$d/a.tsv" || note "run failed"
grep -q '^# propagation=auto$' "$d/a.tsv" || note "the trajectory header does not state propagation=auto"
sed 's/^# propagation=auto$/# propagation=ball/' "$d/a.tsv" > "$d/p.tsv"
sed 's/^# propagation=auto$/# propagation=lohner/' "$d/a.tsv" > "$d/l.tsv"
$slpi verify --global "$d/p.tsv" > "$d/p.out"; rp=$?
$slpi verify --global "$d/l.tsv" > "$d/l.out"; rl=$?
$slpi verify --global "$d/a.tsv" > "$d/a.out"; ra=$?
through() { sed -n 's/.*certified through step \([0-9]*\).*/\1/p' "$1"; }
tp=$(through "$d/p.out"); tl=$(through "$d/l.out"); ta=$(through "$d/a.out")
echo "t-propagation: 53-bit horizon of 4000 steps: ball form through step $tp (exit $rp), Lohner form through step $tl (exit $rl), default (auto) through step $ta (exit $ra)"
[ "$rp" = 3 ] && [ "$rl" = 0 ] && [ "$ra" = 0 ] || note "exit codes $rp (ball, want 3 UNABLE), $rl (lohner) and $ra (auto) (want 0 PASS)"
[ -n "$tp" ] && [ -n "$tl" ] && [ "$tl" -ge $((10 * tp)) ] || note "the Lohner horizon $tl is not 10 times the ball horizon $tp"
[ "$ta" = "$tl" ] || note "the default (auto) horizon $ta is not the Lohner horizon $tl"
grep -q 'global rows: [0-9]* PASS, 0 FAIL' "$d/p.out" || note "the ball form FAILs a row: $(grep 'global rows' "$d/p.out")"
# run --ref: the certified radius after 2000 steps at 128 bits
for pr in ball auto; do
  $slpi run --preset iso/rigid-body/long steps=2000 --ref propagation=$pr -o "$d/r-$pr.tsv" > "$d/r-$pr.sum" || note "run --ref propagation=$pr failed"
done
rb=$(sed -n 's/.*max radius \([^,]*\),.*/\1/p' "$d/r-ball.sum"); rl=$(sed -n 's/.*max radius \([^,]*\),.*/\1/p' "$d/r-auto.sum")
echo "t-propagation: run --ref, 2000 steps at 128 bits: max radius $rb (ball), $rl (default: Lohner)"
awk -v b="$rb" -v l="$rl" 'BEGIN { exit !(l > 0 && b > 0 && l * 1e6 < b) }' || note "default (Lohner) radius $rl not far below ball radius $rb"
$slpi run --preset iso/rigid-body/long steps=20 --ref propagation=lohner scheme=svi -o "$d/x.tsv" 2> "$d/err"
[ $? = 2 ] && grep -q 'propagation=lohner: not available for svi' "$d/err" || note "svi with lohner: $(cat "$d/err")"
[ -e "$d/x.tsv" ] && note "the refused run left its output"
$slpi run --preset iso/rigid-body/long steps=20 --ref scheme=svi -q -o "$d/x.tsv" || note "svi with propagation=auto (ball steps) failed"
# checkpoints of the Lohner form: every 37 steps; the output cut inside a later row and
# resumed equals the uninterrupted run byte for byte
for pr in auto lohner; do
  run="$slpi run --preset iso/rigid-body/trajectories steps=300 --ref -q propagation=$pr"
  $run -o "$d/c-full.tsv" || note "$pr: uninterrupted run failed"
  $run -o "$d/c-part.tsv" --checkpoint "$d/c.ck" --checkpoint-every 37 || note "$pr: checkpointed run failed"
  cmp -s "$d/c-full.tsv" "$d/c-part.tsv" || note "$pr: the checkpointed run differs from the uninterrupted one"
  nt=$(sed -n 's/^ntokens //p' "$d/c.ck")
  [ "$nt" = $((3 + 1 + 3 * 3 + 9)) ] || note "$pr: the checkpoint holds $nt tokens, not the state's 3 and the set's 19"
  head -c $(( $(wc -c < "$d/c-full.tsv") - 200 )) "$d/c-full.tsv" > "$d/c-part.tsv"
  $run -o "$d/c-part.tsv" --resume "$d/c.ck" || note "$pr: resume failed"
  cmp -s "$d/c-full.tsv" "$d/c-part.tsv" || note "$pr: the resumed run differs from the uninterrupted one"
done
exit $fail
