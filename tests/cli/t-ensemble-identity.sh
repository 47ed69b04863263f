#!/bin/sh
# t-ensemble-identity.sh — what `slpi ensemble` takes for the same ensemble is the same
# ensemble (cli/cmd-ensemble.c; docs/api.md#ensembles):
#   - --merge compares the digest of the whole problem text: a state of a model whose text
#     is 16.7 KB (over the 16 KB that the digest once read) with param.I1=3, its last
#     line, is refused (exit 2, naming the file) by a run of the same model with
#     param.I1=2; the same model's own state merges into the bytes of one run;
#   - a state file whose header's paths= was edited is refused: the statistics' own count
#     is compared with it; one whose statistic was edited (a value 0x1p-2: merged, it gave
#     a mean of 0.25 with min = max = 0) is refused naming the grid point, by the digest
#     each point's statistics carry (sum=), and a state of version 1 (none) is refused;
#   - path= (a key, or --grid path=...) is refused with exit 2 naming --first-path: an
#     ensemble runs the noise paths --first-path .. + --paths - 1, never the key's path.
# The number of paths varies with the printed seed.
set -u
slpi=${SLPI_BIN:-./build/slpi}
seed=${SLPI_TEST_SEED:-$(date +%s)}
echo "t-ensemble-identity: seed $seed (replay with SLPI_TEST_SEED=$seed)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
note() { echo "t-ensemble-identity: FAIL: $*" >&2; fail=1; }
# refused NAME PATTERN CMD...: CMD exits 2 with PATTERN on standard error
refused() {
  name=$1 pat=$2
  shift 2
  "$@" > /dev/null 2> "$tmp/err"
  rc=$?
  { [ $rc = 2 ] && grep -q -- "$pat" "$tmp/err"; } || note "$name: exit $rc, not 2 with '$pat': $(cat "$tmp/err")"
}

# ---- a model whose problem text is 16.7 KB: four expressions padded to 4 KB each with
# blanks (kept in the text), param.I1 written last
model() { # model I1
  pad=$(awk 'BEGIN { for (i = 0; i < 5; i++) { printf "+0*x1"; for (j = 0; j < 795; j++) printf " " } printf "+0*x1" }')
  printf 'system=model\nalgebra=so3\nparam.I2=1\nparam.I3=0.5\nparam.amp=0.1\n'
  printf 'H=(x1^2/I1 + x2^2/I2 + x3^2/I3)/2%s\n' "$pad"
  for k in 1 2 3; do printf 'noise_H%d=amp/2*x%d^2%s\n' $k $k "$pad"; done
  printf 'x0=1,0.5,0.2\nparam.I1=%s\n' "$1"
}
model 2 > "$tmp/i2.slpi"
model 3 > "$tmp/i3.slpi"
paths=$((64 + seed % 64))
E="steps=16 --save-every 8 --paths $paths"
"$slpi" ensemble --config "$tmp/i3.slpi" $E --state "$tmp/i3.st" -o "$tmp/i3.tsv" || note "the I1=3 run: exit $?"
text=$(sed -n 's/^#   //p' "$tmp/i3.tsv" | wc -c)
echo "t-ensemble-identity: the model's problem text: $text bytes"
[ "$text" -gt 16384 ] || note "the model's problem text is $text bytes, not over 16 KB"
refused "merge of param.I1=3 into param.I1=2" "i3.st: grid point 0 was run on another problem" \
  "$slpi" ensemble --config "$tmp/i2.slpi" $E --merge "$tmp/i3.st" -o "$tmp/bad.tsv"
[ -e "$tmp/bad.tsv" ] && note "a refused merge wrote its report"
"$slpi" ensemble --config "$tmp/i3.slpi" $E --merge "$tmp/i3.st" -o "$tmp/i3m.tsv" || note "the model's own state: exit $?"
cmp -s "$tmp/i3.tsv" "$tmp/i3m.tsv" || note "the model's own state merged differs from its run"

# ---- a state whose header's paths= was edited (paths + 64 run, paths + 63 claimed)
R="--preset iso/rigid-body/trajectories steps=8 --save-every 4"
"$slpi" ensemble $R --paths $((paths + 64)) --state "$tmp/p.st" -o /dev/null || note "the state run: exit $?"
sed "1s/paths=$((paths + 64)) /paths=$((paths + 63)) /" "$tmp/p.st" > "$tmp/forged.st"
grep -q "paths=$((paths + 63)) " "$tmp/forged.st" || note "the forged header: $(head -1 "$tmp/forged.st")"
refused "a forged paths=" "forged.st: its header says paths=$((paths + 63)), its statistics hold $((paths + 64)) paths" \
  "$slpi" ensemble $R --paths $((paths + 63)) --merge "$tmp/forged.st" -o "$tmp/bad.tsv"
"$slpi" ensemble $R --paths $((paths + 64)) --merge "$tmp/p.st" -o /dev/null || note "the unedited state: exit $?"
line=$((20 + seed % 100))
awk -v n=$line 'NR == n { print ($0 == "0x1p-2" ? "0x1p-1" : "0x1p-2"); next } { print }' "$tmp/p.st" > "$tmp/edited.st"
cmp -s "$tmp/p.st" "$tmp/edited.st" && note "the edit of line $line changed nothing"
refused "a statistic edited (line $line)" "edited.st: grid point 0: its statistics differ from those written" \
  "$slpi" ensemble $R --paths $((paths + 64)) --merge "$tmp/edited.st" -o "$tmp/bad.tsv"
sed '1s/state 2/state 1/' "$tmp/p.st" > "$tmp/v1.st"
refused "a state of version 1" "v1.st: an ensemble state of version 1" \
  "$slpi" ensemble $R --paths $((paths + 64)) --merge "$tmp/v1.st" -o "$tmp/bad.tsv"

# ---- path= is refused, naming --first-path
refused "path=" "path=3: an ensemble runs the noise paths --first-path" "$slpi" ensemble $R --paths 3 path=3
refused "--grid path=" "give --first-path instead" "$slpi" ensemble $R --paths 3 --grid path=1,2
printf 'path=5\n' > "$tmp/keys"
refused "path= in --config" "path=5: an ensemble" "$slpi" ensemble $R --paths 3 --config "$tmp/keys"
"$slpi" ensemble $R --paths 3 --first-path 5 -o /dev/null || note "--first-path 5: exit $?"

[ $fail = 0 ] && echo "t-ensemble-identity: ok"
exit $fail
