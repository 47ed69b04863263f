#!/bin/sh
# t-outputs.sh — output hygiene of `slpi run`: a trajectory estimated above 1 GB is
# refused before anything is opened (exit 2, the size named, an existing -o file left
# untouched) unless decimated with output_every or forced (--force); the Zeitlin long
# preset decimates by default; the summary keeps solver counters out of the diagnostics
# table; the certified path reports its precision raises instead of fast-path iteration counts.
set -u
slpi=${SLPI_BIN:-./build/slpi}
fail=0
note() { echo "t-outputs: FAIL: $*" >&2; fail=1; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
echo keep > "$d/z.tsv"
$slpi run --preset iso/zeitlin/long output_every=1 -o "$d/z.tsv" 2> "$d/err"
[ $? -eq 2 ] || note "a 13 GB trajectory was not refused with exit 2"
grep -q 'about 1[0-9.]* GB (32001 rows of 16384 state columns)' "$d/err" || note "size message: $(cat "$d/err")"
[ "$(cat "$d/z.tsv")" = keep ] || note "the refused run touched its -o file"
# --force lets the same run start: it gets as far as writing (here into a full device,
# so nothing large is written) and fails there, not at the guard
# (a private full device where root can make one, so that a broken slpi cannot replace
# the system's /dev/full)
mknod "$d/full" c 1 7 2>/dev/null || ln -s /dev/full "$d/full"
$slpi run --preset iso/zeitlin/long output_every=1 --force -o "$d/full" 2> "$d/err"
[ $? -eq 2 ] && grep -q 'write error at step 0' "$d/err" && ! grep -q 'GB' "$d/err" \
  || note "--force did not bypass the size guard: $(cat "$d/err")"
$slpi run --preset iso/zeitlin/long steps=64 -q -o "$d/z.tsv" 2> "$d/err" || note "decimated Zeitlin preset refused: $(cat "$d/err")"
rows=$(grep -vc '^#' "$d/z.tsv")
[ "$rows" = 4 ] || note "iso/zeitlin/long with 64 steps wrote $rows lines, expected column line + steps 0, 32, 64"
$slpi run --preset iso/rigid-body/trajectories --steps 20 -o "$d/f.tsv" > "$d/f.sum" || note "fast run"
grep -q '^  solver: mean [0-9.]* iterations' "$d/f.sum" || note "fast summary lacks the solver line"
grep -Eq '^  (mean_iters|max_iters|stagnated|capped|failed) ' "$d/f.sum" && note "solver counters in the diagnostics table"
grep -q '^  eig_dev ' "$d/f.sum" || note "diagnostics missing from the fast summary"
$slpi run --preset iso/rigid-body/trajectories --steps 5 --ref -o "$d/r.tsv" > "$d/r.sum" || note "ref run"
grep -q 'mean 0.00 iterations' "$d/r.sum" && note "the certified path reports fast-path iteration counts"
grep -q '^  certified: .*raised above 128 bits on 0 of 5 steps' "$d/r.sum" || note "ref summary: $(head -3 "$d/r.sum")"
# the initial row did no solver work: iterations and residual 0 (both paths), and every
# later row of the certified path counts some
for f in f r; do
  awk -F'\t' '!/^#/ && $1 == "0" { z = $(NF-1) == "0" && $NF == "0" } END { exit !z }' "$d/$f.tsv" ||
    note "$f.tsv: row 0 reports solver work: $(grep -v '^#' "$d/$f.tsv" | sed -n 2p | cut -c1-200)"
done
awk -F'\t' '!/^#/ && $1 ~ /^[1-9]/ && $(NF-1) + 0 < 1 { bad = 1 } END { exit bad }' "$d/r.tsv" ||
  note "r.tsv: a certified step reports no solver iterations"
echo "t-outputs: large-output guard, Zeitlin decimation and the summary layout checked"
exit $fail
