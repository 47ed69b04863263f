#!/bin/sh
# mk/byte-identity.sh DIR OLD NEW [CLAIM] — is a refactor behaviour-preserving? Runs two
# builds of slpi (OLD and NEW: paths of their executables) on the same commands and
# compares what they write (docs/design.md#byte-identity):
#   1. tests/compare-bits.sh: the canonical noise, every preset on the double path (40
#      steps, %a) and on the certified path (3 steps), their data rows;
#   2. golden: `slpi golden --write` into DIR/golden-{old,new}, every file but its
#      `# git_rev=` line;
#   3. an ensemble: a model's (models/rigid-body.slpi, 2000 paths, a grid of two
#      amplitudes), its whole output but the lines naming the git revision;
#   4. a reduced audit claim (CLAIM, default R1): claims.json but its times, the load and
#      the executable's digest;
#   5. `slpi verify` (global and local, two threads) of a model's 400-step trajectory
#      (models/rigid-body.slpi, written by OLD): its whole report.
# DIR/identity.txt gets one line per comparison ("identical" or "DIFFER"); exit 0 when
# every one is identical, 1 otherwise, 2 on a usage error. Run it with `nice`: about two
# minutes of one core on an idle machine.
[ $# -ge 3 ] || { echo "usage: mk/byte-identity.sh DIR OLD NEW [CLAIM]" >&2; exit 2; }
dir=$1; old=$2; new=$3; claim=${4:-R1}
cd "$(dirname "$0")/.." || exit 2
for x in "$old" "$new"; do [ -x "$x" ] || { echo "byte-identity: $x is not an executable" >&2; exit 2; }; done
mkdir -p "$dir" || exit 2
out="$dir/identity.txt"
: > "$out"
say() { echo "$1	$2" | tee -a "$out"; }

sh tests/compare-bits.sh "$dir/bits" "$old" "$new" > /dev/null 2>&1
differ=$(grep -vc '^#\|identical' "$dir/bits/bits.txt")
n=$(grep -c 'identical' "$dir/bits/bits.txt")
[ "$differ" -eq 0 ] && say "presets+noise ($n outputs)" identical || say "presets+noise ($differ of $((n + differ)) differ)" DIFFER

for v in old new; do
  eval "bin=\$$v"
  rm -rf "$dir/golden-$v"; mkdir -p "$dir/golden-$v"
  "$bin" golden --write --dir "$dir/golden-$v" > /dev/null 2>&1; echo $? > "$dir/golden-$v.rc"
  for f in "$dir/golden-$v"/*; do grep -v '^# git_rev=' "$f" > "$f.cmp" && mv "$f.cmp" "$f"; done
done
ng=$(ls "$dir/golden-old" | wc -l)
if cmp -s "$dir/golden-old.rc" "$dir/golden-new.rc" && diff -r "$dir/golden-old" "$dir/golden-new" > /dev/null; then
  say "golden ($ng files)" identical
else say "golden ($ng files)" DIFFER; fi

for v in old new; do
  eval "bin=\$$v"
  "$bin" ensemble --config models/rigid-body.slpi --paths 2000 --grid param.amp=0.1,0.2 --threads 2 -q \
    > "$dir/ensemble-$v.raw" 2> /dev/null
  echo "exit $?" > "$dir/ensemble-$v"
  grep -v '^# .*git' "$dir/ensemble-$v.raw" >> "$dir/ensemble-$v"
done
if cmp -s "$dir/ensemble-old" "$dir/ensemble-new"; then say "ensemble ($(grep -vc '^#' "$dir/ensemble-old") lines)" identical
else say "ensemble" DIFFER; fi

for v in old new; do
  eval "bin=\$$v"
  rm -rf "$dir/audit-$v"
  "$bin" audit --only "$claim" --out "$dir/audit-$v" > /dev/null 2>&1; echo $? > "$dir/audit-$v.rc"
  # the times, the machine's load and the executable's own identity are not results
  sed -E -e 's/"(seconds|wall|cpu|time|elapsed|started|finished|date|git_rev|built|build_digest|machine)[a-z_]*": *("[^"]*"|[0-9.e+-]+)/"\1": X/g' \
    -e 's/git_rev=[0-9a-z]*/git_rev=X/g' "$dir/audit-$v/claims.json" > "$dir/audit-$v.json" 2> /dev/null
done
if cmp -s "$dir/audit-old.rc" "$dir/audit-new.rc" && [ -s "$dir/audit-old.json" ] && cmp -s "$dir/audit-old.json" "$dir/audit-new.json"; then
  say "audit $claim (claims.json)" identical
else say "audit $claim (claims.json)" DIFFER; fi
"$old" run --config models/rigid-body.slpi steps=400 -q -o "$dir/model-traj.tsv"
for v in old new; do
  eval "bin=\$$v"
  OMP_NUM_THREADS=2 "$bin" verify "$dir/model-traj.tsv" > "$dir/verify-$v" 2>&1; echo "exit $?" >> "$dir/verify-$v"
done
if cmp -s "$dir/verify-old" "$dir/verify-new"; then say "verify of a model trajectory ($(wc -l < "$dir/verify-old") lines)" identical
else say "verify of a model trajectory" DIFFER; fi
! grep -q DIFFER "$out"
