#!/bin/sh
# t-noise-ou-cli.sh — Ornstein-Uhlenbeck noise from the command line (docs/noise.md#ou):
#  - noise_tau=0 and noise_tau=0,0,0 write the white run's bytes (the header aside: the
#    key is recorded), on both paths;
#  - an OU run runs on both paths; the fast one verifies (`slpi verify`, which walks the
#    certified path on the same increments: PASS), and with its noise_tau changed it does not;
#  - the built-in golden case rigid-body/isomp/ou checks;
#  - --checkpoint then --resume gives the uninterrupted bytes on both paths;
#  - converge and mlmc run on OU noise (docs/noise.md#ou-studies): noise_tau=0 prints the
#    white study's rows, noise_tau=0.1 others; refused (exit 2): the exact white-noise
#    reference (--exact) under noise_tau, and a noise file (converge, mlmc);
#  - `slpi noise --preset P noise_tau=...` writes the OU increments the run consumes: a run
#    on that noise file gives the OU run's rows, bit for bit, and the file is not the
#    white one (python/tests/test_ou.py compares its bits with slpi.increments).
cd "$(dirname "$0")/../.." || exit 2
slpi=${SLPI_BIN:-build/slpi}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "t-noise-ou-cli.sh: FAIL: $*"; fail=1; }
P="--preset iso/rigid-body/weak steps=200"
for a in "" --ref; do
  "$slpi" run $a $P -q --hex -o "$tmp/w.tsv" || bad "white run $a"
  for t in 0 0,0,0; do
    "$slpi" run $a $P noise_tau=$t -q --hex -o "$tmp/z.tsv" || bad "noise_tau=$t run $a"
    grep -v '^# noise_tau=' "$tmp/z.tsv" | cmp -s - "$tmp/w.tsv" || bad "noise_tau=$t $a: not the white bytes"
  done
  "$slpi" run $a $P noise_tau=0.05,0,0.3 -q --hex -o "$tmp/ou.tsv" || bad "OU run $a"
  cmp -s "$tmp/ou.tsv" "$tmp/w.tsv" && bad "OU run $a: the white bytes"
  if [ -z "$a" ]; then   # verify reads the double path's files (it walks the certified path itself)
    "$slpi" verify "$tmp/ou.tsv" > "$tmp/v.txt" 2>&1 || { cat "$tmp/v.txt"; bad "verify of the OU run"; }
    sed 's/^# noise_tau=.*/# noise_tau=0.06,0,0.3/' "$tmp/ou.tsv" > "$tmp/ou6.tsv"
    "$slpi" verify "$tmp/ou6.tsv" > "$tmp/v6.txt" 2>&1 && bad "verify passed a run against another tau"
  fi
  "$slpi" run $a $P noise_tau=0.05,0,0.3 -q --hex -o "$tmp/ck.tsv" --checkpoint "$tmp/ck" --checkpoint-every 70 ||
    bad "checkpointed run $a"
  grep -q '^ou_eta ' "$tmp/ck" || bad "$a: the checkpoint has no ou_eta line"
  "$slpi" run $a $P noise_tau=0.05,0,0.3 -q --hex -o "$tmp/ck.tsv" --resume "$tmp/ck" || bad "resume $a"
  cmp -s "$tmp/ck.tsv" "$tmp/ou.tsv" || bad "resume $a: not the uninterrupted bytes"
done
"$slpi" golden --check oracle/golden/rigid-body.isomp.ou.golden > "$tmp/g.txt" 2>&1 || { cat "$tmp/g.txt"; bad "golden"; }
W="--preset iso/rigid-body/weak --kind weak --levels 2..3 --ref 5 --paths 10"
rows() { grep -v '^#' "$1"; }
"$slpi" converge $W > "$tmp/cw.txt" 2>/dev/null || bad "converge white: exit $?"
"$slpi" converge $W noise_tau=0 > "$tmp/c0.txt" 2>/dev/null || bad "converge noise_tau=0: exit $?"
"$slpi" converge $W noise_tau=0.1 > "$tmp/c1.txt" 2>/dev/null || bad "converge noise_tau=0.1: exit $?"
[ "$(rows "$tmp/c0.txt" | grep -v wall)" = "$(rows "$tmp/cw.txt" | grep -v wall)" ] || bad "converge noise_tau=0: not the white rows"
[ "$(rows "$tmp/c1.txt" | grep '^[23] ')" = "$(rows "$tmp/cw.txt" | grep '^[23] ')" ] && bad "converge noise_tau=0.1: the white rows"
"$slpi" converge --preset iso/so3/weak-exact --kind weak --phi x1 --exact --levels 2..3 --ref 5 --paths 10 \
  noise_tau=0.1 > /dev/null 2> "$tmp/c.err"
rc=$?
[ $rc = 2 ] && grep -q "exact reference .* is for white noise only; noise_tau=0.1" "$tmp/c.err" ||
  bad "converge --exact noise_tau: rc $rc, $(cat "$tmp/c.err")"
"$slpi" mlmc --preset iso/rigid-body/weak --rmse 0.05 --levels 2..8 noise_tau=0.1 > "$tmp/m.txt" 2> "$tmp/m.err" ||
  bad "mlmc noise_tau=0.1: exit $?, $(cat "$tmp/m.err")"
grep -q '^estimate ' "$tmp/m.txt" || bad "mlmc noise_tau=0.1: no estimate"
"$slpi" noise --preset iso/rigid-body/weak -o "$tmp/rb.noise" 2> /dev/null || bad "noise: exit $?"
"$slpi" converge $W noise_tau=0.1 noise_file="$tmp/rb.noise" > /dev/null 2> "$tmp/c.err"
rc=$?
[ $rc = 2 ] && grep -q "not a noise file" "$tmp/c.err" || bad "converge noise_file: rc $rc, $(cat "$tmp/c.err")"
"$slpi" mlmc --preset iso/rigid-body/weak --rmse 0.1 noise_tau=0.1 noise_file="$tmp/rb.noise" > /dev/null 2> "$tmp/m.err"
rc=$?
[ $rc = 2 ] && grep -q "not a noise file" "$tmp/m.err" || bad "mlmc noise_file: rc $rc, $(cat "$tmp/m.err")"
# slpi noise with noise_tau: the run's OU increments (a run on the file = the OU run)
"$slpi" noise $P noise_tau=0.05,0,0.3 -o "$tmp/ou.noise" 2> /dev/null || bad "noise with noise_tau: exit $?"
"$slpi" noise $P -o "$tmp/w.noise" 2> /dev/null || bad "noise: exit $?"
[ "$(grep -v '^#' "$tmp/ou.noise")" = "$(grep -v '^#' "$tmp/w.noise")" ] && bad "noise with noise_tau: the white increments"
"$slpi" run $P noise_tau=0.05,0,0.3 -q --hex -o "$tmp/ou.tsv" || bad "OU run"
"$slpi" run $P noise_file="$tmp/ou.noise" -q --hex -o "$tmp/on-file.tsv" || bad "run on the OU noise file"
[ "$(grep -v '^#' "$tmp/ou.tsv")" = "$(grep -v '^#' "$tmp/on-file.tsv")" ] ||
  bad "a run on slpi noise's OU file differs from the run with noise_tau"
[ $fail = 0 ] && echo "t-noise-ou-cli.sh: PASS"
exit $fail
