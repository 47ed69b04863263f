#!/bin/sh
# t-ensemble-cli.sh — `slpi ensemble` (cli/cmd-ensemble.c over api/ensemble.c), each
# result computed a second way:
#   - the report on 1 and on 2 threads: the same bytes;
#   - a grid (--grid param.I1=... --grid param.amp=...): every point's rows, its label
#     columns taken off, are the rows of one ensemble run with those keys, in the grid's
#     order (the last key fastest), and each row carries its point's values;
#   - the statistics at step 0 of paths that all start at x0: n = paths, mean = min =
#     max = x0's coordinate, variance 0; at the last step the variance is positive;
#   - --ref: positive radii after step 0, and the midpoints' mean equal to the fast path's
#     within its radius plus 1e-12 relative (the fast path's own rounding, which the
#     certified radius of the exact scheme does not cover, is about 1e-16);
#   - --state and --merge: the reports of two disjoint ranges (64 x 2^k paths from the
#     first, then fewer, run in any order, the second on 2 threads), merged, are one
#     run's report byte for byte, with a grid; a range off the tree of one run (64 x 2^k
#     + 1 paths first), ranges that do not tile the run and a state of another problem
#     are refused (exit 2, naming the file).
# The number of paths and the first noise path vary with the printed seed.
set -u
slpi=${SLPI_BIN:-./build/slpi}
seed=${SLPI_TEST_SEED:-$(date +%s)}
echo "t-ensemble-cli: seed $seed (replay with SLPI_TEST_SEED=$seed)"
paths=$((70 + seed % 130)); first=$((seed % 1000))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
note() { echo "t-ensemble-cli: FAIL: $*" >&2; fail=1; }
rows() { grep -v '^#' "$1"; }
RB="--preset iso/rigid-body/trajectories steps=20 --paths $paths --first-path $first --save-every 5"

"$slpi" ensemble $RB --threads 1 -o "$tmp/t1.tsv" || note "threads 1: exit $?"
"$slpi" ensemble $RB --threads 2 -o "$tmp/t2.tsv" || note "threads 2: exit $?"
cmp -s "$tmp/t1.tsv" "$tmp/t2.tsv" || note "the reports on 1 and 2 threads differ"
[ "$(rows "$tmp/t1.tsv" | head -1)" = "step	t	quantity	n	mean	variance	min	max	radius" ] || note "column line: $(rows "$tmp/t1.tsv" | head -1)"
x0=$("$slpi" run --preset iso/rigid-body/trajectories --steps 1 -q | grep -v '^#' | awk 'NR == 2 { print $3 }')
rows "$tmp/t1.tsv" | awk -F'\t' -v n="$paths" -v x0="$x0" '
  $1 == 0 && $3 == "x1" { z = ($4 == n && $5 == x0 && $6 == 0 && $7 == x0 && $8 == x0) }
  $1 == 20 && $3 == "H0" { v = ($4 == n && $6 > 0 && $7 < $5 && $5 < $8) }
  END { exit !(z && v) }' || note "step 0 is not x0 on every path, or the last step has no spread"

M="--config models/rigid-body.slpi steps=8 --paths $paths --first-path $first --save-every 4 --threads 2"
"$slpi" ensemble $M --grid param.I1=1.5,2.5 --grid param.amp=0.1,0.3,0.2 -o "$tmp/grid.tsv" || note "grid: exit $?"
k=0
for a in 1.5 2.5; do
  for b in 0.1 0.3 0.2; do
    k=$((k+1))
    "$slpi" ensemble $M param.I1=$a param.amp=$b -o "$tmp/one.tsv" || note "param.I1=$a param.amp=$b: exit $?"
    rows "$tmp/grid.tsv" | awk -F'\t' -v a=$a -v b=$b 'NR > 1 && $1 == a && $2 == b' | cut -f3- > "$tmp/got"
    rows "$tmp/one.tsv" | tail -n +2 > "$tmp/want"
    [ -s "$tmp/want" ] && cmp -s "$tmp/got" "$tmp/want" || note "grid point param.I1=$a param.amp=$b: its rows differ from one ensemble's"
    # the k-th block of rows is this point's: the grid's order
    per=$(wc -l < "$tmp/want")
    rows "$tmp/grid.tsv" | tail -n +2 | sed -n "$(( (k - 1) * per + 1 ))p" | grep -q "^$a	$b	" || note "point $k is not param.I1=$a param.amp=$b"
  done
done
[ "$(rows "$tmp/grid.tsv" | head -1 | cut -f1-3)" = "param.I1	param.amp	step" ] || note "grid column line"
# a grid over scheme= (or system=) says in the report what its rows compare: other maps on
# the same noise paths; a grid over parameters says nothing of the kind
grep -q '^# grid' "$tmp/grid.tsv" && note "a parameter grid's report claims to compare maps"
"$slpi" ensemble --preset iso/rigid-body/trajectories steps=8 --paths 4 --grid scheme=isomp,svi -o "$tmp/gs.tsv" ||
  note "grid scheme=: exit $?"
grep -q '^# grid scheme: each point is another scheme, its own discrete map, driven by the same noise paths' "$tmp/gs.tsv" ||
  note "a grid over scheme= does not say what it compares: $(grep '^#' "$tmp/gs.tsv" | head -3 | tr '\n' ' ')"

"$slpi" ensemble --preset iso/rigid-body/trajectories steps=4 --paths 3 --save-every 2 --ref -o "$tmp/ref.tsv" || note "--ref: exit $?"
"$slpi" ensemble --preset iso/rigid-body/trajectories steps=4 --paths 3 --save-every 2 -o "$tmp/fast.tsv" || note "fast: exit $?"
rows "$tmp/ref.tsv" > "$tmp/ref.rows"; rows "$tmp/fast.tsv" > "$tmp/fast.rows"
awk -F'\t' 'NR == FNR { fast[$1 " " $3] = $5; next }
  FNR > 1 && $3 ~ /^x/ {
    d = $5 - fast[$1 " " $3]; if (d < 0) d = -d
    if ($1 > 0 && !($9 > 0)) bad++                      # a radius after step 0
    if (d > $9 + 1e-12 * ($5 < 0 ? -$5 : $5)) bad++     # the fast mean within the radius (and its rounding)
    seen++
  } END { exit bad > 0 || seen != 9 }' "$tmp/fast.rows" "$tmp/ref.rows" || note "--ref: a radius is not positive, or the fast mean lies outside it"
G="--preset iso/rigid-body/trajectories steps=12 --save-every 5 --grid amp=0.1,0.2"
k=$((64 << (seed % 3))); all=$((k + 2 + seed % (k - 2)))   # the rest is shorter than k
"$slpi" ensemble $G --paths $all --first-path $first -o "$tmp/one.tsv" || note "merge: one run: exit $?"
"$slpi" ensemble $G --paths $((all - k)) --first-path $((first + k)) --threads 2 --state "$tmp/b.st" -o /dev/null || note "merge: part b: exit $?"
"$slpi" ensemble $G --paths $k --first-path $first --state "$tmp/a.st" -o /dev/null || note "merge: part a: exit $?"
"$slpi" ensemble $G --paths $all --first-path $first --merge "$tmp/b.st" --merge "$tmp/a.st" -o "$tmp/merged.tsv" || note "merge: exit $?"
cmp -s "$tmp/one.tsv" "$tmp/merged.tsv" || note "merge: two ranges merged differ from one run ($k + $((all - k)) paths)"
"$slpi" ensemble $G --paths $((k + 1)) --first-path $first --state "$tmp/c.st" -o /dev/null
"$slpi" ensemble $G --paths $((all - k - 1)) --first-path $((first + k + 1)) --state "$tmp/d.st" -o /dev/null
"$slpi" ensemble $G --paths $all --first-path $first --merge "$tmp/c.st" --merge "$tmp/d.st" -o "$tmp/bad.tsv" 2> "$tmp/bad.err"
rc=$?; { [ $rc = 2 ] && grep -q "d.st: import: .*partial block" "$tmp/bad.err" && [ ! -e "$tmp/bad.tsv" ]; } || note "merge off the tree: exit $rc, $(cat "$tmp/bad.err")"
"$slpi" ensemble $G --paths $((all + 1)) --first-path $first --merge "$tmp/a.st" --merge "$tmp/b.st" -o "$tmp/bad.tsv" 2> "$tmp/bad.err"
rc=$?; { [ $rc = 2 ] && grep -q "the files hold paths" "$tmp/bad.err"; } || note "merge not tiling: exit $rc, $(cat "$tmp/bad.err")"
"$slpi" ensemble --preset iso/rigid-body/trajectories steps=13 --save-every 5 --grid amp=0.1,0.2 --paths $all \
  --first-path $first --merge "$tmp/a.st" --merge "$tmp/b.st" -o "$tmp/bad.tsv" 2> "$tmp/bad.err"
rc=$?; { [ $rc = 2 ] && grep -q "a.st: grid point 0 was run on another problem" "$tmp/bad.err"; } || note "merge of another problem: exit $rc, $(cat "$tmp/bad.err")"
[ $fail = 0 ] && echo "t-ensemble-cli: ok"
exit $fail
