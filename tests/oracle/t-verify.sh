#!/bin/sh
# t-verify.sh — `slpi verify` as a port would use it: the worked example of
# oracle/README.md (fast-path output of a golden case PASSes, the same file with one
# value perturbed in its 12th digit FAILs at that step, a bounded check is UNABLE), run
# line by line with each annotated exit code; row 0 perturbed FAILs both checks at step 0;
# then a supplied noise file (the canonical
# one PASSes, another seed's FAILs), bad input (exit 2 with file:line), two rows 2e10
# steps apart refused by the default --max-steps, and `slpi golden` on single files.
set -u
slpi=${SLPI_BIN:-./build/slpi}
fail=0; n=0
note() { echo "t-verify: FAIL: $*" >&2; fail=1; }
tmp=$(mktemp -d)
mkdir -p "$tmp/bin" build
ln -s "$(cd "$(dirname "$slpi")" && pwd)/$(basename "$slpi")" "$tmp/bin/slpi"
PATH="$tmp/bin:$PATH"; export PATH

# 1. the README's worked example, line by line
awk '/<!-- worked-example -->/{s=1; next} s&&/^```sh/{b=1; next} b&&/^```/{exit} b' oracle/README.md > "$tmp/example"
[ "$(wc -l < "$tmp/example")" -ge 5 ] || note "worked example not found in oracle/README.md"
while IFS= read -r line; do
  n=$((n+1))
  want=$(printf '%s\n' "$line" | sed -n 's/.*# exit \([0-9]\).*/\1/p')
  sh -c "$line" > "$tmp/out" 2>&1; rc=$?
  if [ "$rc" -ne "${want:-0}" ]; then note "'$line' -> exit $rc (want ${want:-0}): $(tail -c 400 "$tmp/out")"; fi
  case "$line" in
    *"verify build/perturbed.tsv"*)
      grep -q "first FAIL at step 8" "$tmp/out" || note "perturbed file: no 'first FAIL at step 8'"
      grep -q "rows: 16 PASS, 1 FAIL, 0 UNABLE" "$tmp/out" || note "perturbed file: not exactly one failing row" ;;
    *"--max-steps 8"*)
      grep -q "rows: 9 PASS, 0 FAIL, 8 UNABLE" "$tmp/out" || note "--max-steps 8: rows beyond 8 not UNABLE" ;;
    *"verify build/fast.tsv"*)
      grep -q "verdict: global PASS, local PASS => PASS" "$tmp/out" || note "fast output: no PASS verdict" ;;
  esac
done < "$tmp/example"
[ -f build/fast.tsv ] || { note "the example wrote no build/fast.tsv"; echo "t-verify: $n example lines"; exit 1; }

# expect CODE PATTERN ARGS...
expect() {
  code=$1; pat=$2; shift 2; n=$((n+1))
  slpi "$@" > "$tmp/out" 2>&1; rc=$?
  if [ "$rc" -ne "$code" ] || ! grep -q -- "$pat" "$tmp/out"; then
    note "slpi $* -> exit $rc (want $code), output: $(tail -c 300 "$tmp/out") (want /$pat/)"
  fi
}

# 1a. row 0 perturbed in its 12th digit: both checks FAIL at step 0 (the local check
# scores row 0 against the problem's x0, never against itself; row 1, computed by the
# port from the true x0, then FAILs locally too)
awk -F'\t' 'BEGIN{OFS="\t"} $1=="0"{$3=sprintf("%.17g",$3*(1+3e-12))} {print}' build/fast.tsv > "$tmp/row0.tsv"
expect 1 "local rows: 15 PASS, 2 FAIL, 0 UNABLE; first FAIL at step 0" verify "$tmp/row0.tsv"
expect 1 "global rows: 16 PASS, 1 FAIL, 0 UNABLE; certified through step 16; first FAIL at step 0" verify "$tmp/row0.tsv"

# 2. increments from a noise file: the canonical ones PASS; another seed's file is
# refused naming both seeds (docs/noise.md#files), and its values under the problem's
# own seed (a port's file of other values) FAIL
slpi noise --seed 1 --path 0 --components 3 --h 0.00390625 --steps 16 --truncate on --output "$tmp/noise.txt" 2>/dev/null
slpi noise --seed 2 --path 0 --components 3 --h 0.00390625 --steps 16 --truncate on --output "$tmp/seed2.txt" 2>/dev/null
expect 2 "noise_file=$tmp/seed2.txt: the file's own seed is 2, the problem has seed=1 " verify -q --noise-file "$tmp/seed2.txt" build/fast.tsv
sed '2s/^# seed 2$/# seed 1/' "$tmp/seed2.txt" > "$tmp/other.txt"
expect 0 "PASS" verify -q --noise-file "$tmp/noise.txt" --json "$tmp/v.json" build/fast.tsv
grep -q '"verdict": "PASS"' "$tmp/v.json" && grep -q '"last_certified_step": 16' "$tmp/v.json" ||
  note "verify --json: $(head -c 300 "$tmp/v.json")"
expect 1 "FAIL" verify -q --noise-file "$tmp/other.txt" build/fast.tsv

# 2b. a header that names a golden case instead of the whole problem
{ echo '# slpi-trajectory 1'; echo '# case=rigid-body/isomp'; grep -v '^#' build/fast.tsv; } > "$tmp/case.tsv"
expect 0 "PASS" verify -q "$tmp/case.tsv"
sed 's|case=rigid-body/isomp|case=no/such|' "$tmp/case.tsv" > "$tmp/nocase.tsv"
expect 2 "nocase.tsv:2: case=no/such" verify "$tmp/nocase.tsv"

# 2a. the least a port writes: a preset, steps, and the state columns
{ printf '# slpi-trajectory 1\n# preset=iso/rigid-body/trajectories\n# steps=16\nstep\tt\tx1\tx2\tx3\n'
  grep -v '^#' build/fast.tsv | tail -n +2 | cut -f1-5; } > "$tmp/minimal.tsv"
expect 0 "global PASS, 17 rows: 17 PASS" verify -q "$tmp/minimal.tsv"

# 2b'. hex-float output of the fast path reads the same
slpi run --config build/case.conf --quiet --hex --output "$tmp/hex.tsv"
expect 0 "global PASS, 17 rows: 17 PASS" verify -q "$tmp/hex.tsv"

# 2c. the certified radius runs out: 400 steps at 53 bits in plain ball form are certified
#     for a while, then UNABLE (exit 3), never PASS; at the default precision they PASS
slpi golden --problem rigid-body/isomp | sed 's/^steps=.*/steps=400/' > "$tmp/long.conf"
slpi run --config "$tmp/long.conf" --quiet --output "$tmp/long.tsv"
expect 0 "rows: 401 PASS, 0 FAIL, 0 UNABLE" verify "$tmp/long.tsv"
sed 's/^# prec=.*/# prec=53/; s/^# prec_max=.*/# prec_max=53/; s/^# propagation=.*/# propagation=ball/' "$tmp/long.tsv" > "$tmp/long53.tsv"
expect 3 "0 FAIL, [1-9][0-9]* UNABLE; certified through step [1-9]" verify "$tmp/long53.tsv"
slpi verify "$tmp/long53.tsv" | awk -v bad=0 '$NF=="UNABLE"{u=1} $NF=="PASS"&&u{bad=1} END{exit bad}' ||
  note "53 bits: a PASS row after an UNABLE one"

# 3. bad input: exit 2 with file:line
sed 's/^\(5\t[^\t]*\t\)[^\t]*/\1zz/' build/fast.tsv > "$tmp/bad-number.tsv"
expect 2 "bad-number.tsv:.*column 3 (x1)" verify "$tmp/bad-number.tsv"
sed 's/^# inertia=.*/# inertia=2,1/' build/fast.tsv > "$tmp/bad-key.tsv"
expect 2 "bad-key.tsv:[0-9]*: .*inertia" verify "$tmp/bad-key.tsv"
sed 's/^# h=.*/# h=0.0078125/' build/fast.tsv > "$tmp/bad-grid.tsv"
expect 2 "bad-grid.tsv:[0-9]*: t = " verify "$tmp/bad-grid.tsv"
# the time column's tolerance, (1e-12 + 4 n u) max(1, |n h|) (a port's t += h rounds):
# the last row's t moved by 1.5 of it is refused, by 0.5 of it read (and PASSes)
ttol() { awk -F'\t' -v k="$1" 'BEGIN{OFS="\t"} $1=="16"{$2=sprintf("%.17g", 0.0625 + k*(1e-12 + 4*16*2^-53))} {print}' build/fast.tsv; }
ttol 1.5 > "$tmp/t-out.tsv"
expect 2 "t-out.tsv:[0-9]*: t = 0.0625000000015[0-9]* but step 16 of h = 0.00390625 is at 0.0625" verify "$tmp/t-out.tsv"
ttol 0.5 > "$tmp/t-in.tsv"
expect 0 "global PASS, 17 rows: 17 PASS" verify -q "$tmp/t-in.tsv"
sed '/^step/s/\tx2\t/\ty2\t/' build/fast.tsv > "$tmp/bad-col.tsv"
expect 2 "bad-col.tsv:[0-9]*: no column 'x2'" verify "$tmp/bad-col.tsv"
sed 's/^# frobnicate=.*//; 2a # frobnicate=1' build/fast.tsv > "$tmp/bad-extra.tsv"
expect 2 "frobnicate" verify "$tmp/bad-extra.tsv"
expect 2 "cannot open" verify "$tmp/missing.tsv"
awk -F'\t' 'BEGIN{OFS="\t"} {print} $1=="16"{$1=17; $2="0.06640625"; print}' build/fast.tsv > "$tmp/beyond.tsv"
expect 2 "beyond.tsv:[0-9]*: step 17 beyond the header's steps=16" verify "$tmp/beyond.tsv"
awk -F'\t' 'BEGIN{OFS="\t"} $1=="3"{$3=$3 " +/- 1e-30"} {print}' build/fast.tsv > "$tmp/ball.tsv"
expect 2 "ball.tsv:[0-9]*: column x1 holds a ball: verify reads doubles" verify "$tmp/ball.tsv"
grep '^#\|^step' build/fast.tsv > "$tmp/norows.tsv"
expect 2 "norows.tsv: no rows" verify "$tmp/norows.tsv"
grep -v '^# ' build/fast.tsv | sed '1i # slpi-trajectory 1' > "$tmp/nohead.tsv"
expect 2 "nohead.tsv: the header holds no problem" verify "$tmp/nohead.tsv"
# a port that does not write row 0: its first row has no predecessor, so the local check
# starts at the second (15 rows), the global one checks all 16 against x0; row 0 of the
# header's grid is missing, so the verdict is UNABLE (oracle/README.md#rows)
awk -F'\t' '$1!="0"' build/fast.tsv > "$tmp/norow0.tsv"
expect 3 "UNABLE.*global PASS, 16 rows: 16 PASS, 0 FAIL, 0 UNABLE.*local PASS, 15 rows: 15 PASS" verify -q "$tmp/norow0.tsv"
expect 3 "^rows missing: 1 of the header's grid (output_every=1: .*): steps 0; not checked" verify "$tmp/norow0.tsv"

# 3b. every verdict rests on evidence (oracle/README.md#rows): a selection of no row is
# exit 2; the rows of the header's grid (output_every=, save_at=) that a file omits are
# named and make it UNABLE, in the report and the JSON; a row off the grid is exit 2
for r in 17..40 500..600 17.. 100..; do
  expect 2 "--rows ${r%..*}\.\.${r#*..} selects no row of the local comparison: the file's rows are steps 0..16 (17 rows)" \
    verify --local --rows "$r" build/fast.tsv
  expect 2 "selects no row" verify --rows "$r" build/fast.tsv
done
expect 0 "local rows: 1 PASS, 0 FAIL, 0 UNABLE (steps 16..)" verify --local --rows 16.. build/fast.tsv
expect 0 "local rows: 1 PASS, 0 FAIL, 0 UNABLE (steps ..0)" verify --local --rows ..0 build/fast.tsv
awk -F'\t' '/^#/ || /^step/ || $1 % 5 != 3' build/fast.tsv > "$tmp/gaps.tsv"
expect 3 "^rows missing: 3 of the header's grid (output_every=1: step 0, the multiples of 1 and the last): steps 3, 8, 13; not checked" \
  verify --json "$tmp/gaps.json" "$tmp/gaps.tsv"
grep -q "verdict: global PASS, local PASS, 3 rows missing UNABLE => UNABLE" "$tmp/out" || note "gaps: $(tail -1 "$tmp/out")"
tr -d ' \n' < "$tmp/gaps.json" | grep -q '"rows_missing":3,"missing_steps":\[3,8,13\]' || note "gaps JSON: $(cat "$tmp/gaps.json")"
grep -q '"verdict": "UNABLE"' "$tmp/gaps.json" || note "gaps JSON verdict: $(grep verdict "$tmp/gaps.json")"
awk -F'\t' '/^#/ || /^step/ || $1 % 2 == 1 || $1 == 16' build/fast.tsv > "$tmp/odd.tsv"
expect 3 "rows missing: 8 of the header's grid .*: steps 0, 2, 4, 6, 8, 10, 12, 14; not" verify --global "$tmp/odd.tsv"
awk -F'\t' '/^#/ || /^step/ || $1 % 4 == 0' build/fast.tsv | sed 's/^# output_every=1$/# output_every=4/' > "$tmp/every4.tsv"
expect 0 "PASS.*global PASS, 5 rows: 5 PASS" verify -q "$tmp/every4.tsv"
sed 's/^# output_every=1$/# output_every=4/' build/fast.tsv > "$tmp/offgrid.tsv"
expect 2 "offgrid.tsv:[0-9]*: step 1 is not a row of the header's grid output_every=4" verify "$tmp/offgrid.tsv"
awk -F'\t' '/^#/ || /^step/ || $1 == 0 || $1 == 6 || $1 == 16' build/fast.tsv |
  sed 's/^# output_every=1$/# save_at=0.0234375,0.0625/' > "$tmp/saveat.tsv"
expect 0 "PASS.*global PASS, 3 rows: 3 PASS" verify -q "$tmp/saveat.tsv"
grep -v '^6	' "$tmp/saveat.tsv" > "$tmp/saveat-gap.tsv"
expect 3 "rows missing: 1 of the header's grid (step 0 and save_at=0.0234375,0.0625): steps 6;" verify "$tmp/saveat-gap.tsv"
grep -v '^8	' "$tmp/every4.tsv" | sed 's/^# output_every=4$/# save_at=0.0234375,0.0625/' > "$tmp/saveat-off.tsv"
expect 2 "saveat-off.tsv:[0-9]*: step 4 is not a row of the header's save_at=0.0234375,0.0625" verify "$tmp/saveat-off.tsv"
# state_columns= must name the state's coordinates in their order (generated: every
# permutation other than the identity, a name dropped, one added, an empty name)
for sc in x1,x3,x2 x2,x1,x3 x2,x3,x1 x3,x1,x2 x3,x2,x1 x1,x2 x1,x2,x3,x4 x1,x2,x3, x1,,x3 ,x1,x2,x3 X1,x2,x3; do
  sed "s/^# state_columns=.*/# state_columns=$sc/" build/fast.tsv > "$tmp/sc.tsv"
  expect 2 "sc.tsv:3: state_columns= names .* as coordinate [1-4] of the state, where the state of rigid-body (3 coordinates: x1,x2,x3) has" \
    verify "$tmp/sc.tsv"
done
sed '/^step/s/^step\tt\tx1\tx2\tx3/step\tt\tx3\tx1\tx2/' build/fast.tsv |
  awk -F'\t' 'BEGIN{OFS="\t"} /^#/||/^step/{print; next} {x=$5; $5=$4; $4=$3; $3=x; print}' > "$tmp/reordered.tsv"
expect 0 "global PASS, 17 rows: 17 PASS" verify -q "$tmp/reordered.tsv"
# a column name repeated (a diagnostic renamed to a state's name): either copy could be
# read as the state, so the file is refused, naming both columns
sed '/^step/s/^\(step\tt\tx1\tx2\tx3\t[^\t]*\)\t[^\t]*/\1\tx2/' build/fast.tsv > "$tmp/repeated.tsv"
expect 2 "repeated.tsv:[0-9]*: columns 4 and 7 are both named 'x2'" verify "$tmp/repeated.tsv"
# 3a. a noise_file= header is read relative to the trajectory's folder (as a port writes
# it next to its trajectory), an absolute one as it stands: the same header line names
# the canonical increments beside one file (PASS) and another seed's beside another (FAIL)
mkdir -p "$tmp/sub"
cp "$tmp/other.txt" "$tmp/sub/noise.txt"
sed '2a # noise_file=noise.txt' build/fast.tsv > "$tmp/rel.tsv"
cp "$tmp/rel.tsv" "$tmp/sub/rel.tsv"
expect 0 "global PASS, 17 rows: 17 PASS" verify -q "$tmp/rel.tsv"
expect 1 "global FAIL" verify -q "$tmp/sub/rel.tsv"
sed "2a # noise_file=$tmp/noise.txt" build/fast.tsv > "$tmp/sub/abs.tsv"
expect 0 "global PASS, 17 rows: 17 PASS" verify -q "$tmp/sub/abs.tsv"
expect 2 "expected one trajectory" verify
expect 0 "usage: slpi verify" verify --help
expect 0 "usage: slpi golden" golden --help
expect 0 "rigid-body/isomp" golden --list
expect 2 "unknown" golden --write --dir "$tmp" --case no/such
# slpi golden on single files: a checked file, a moved ball (FAIL), a broken file (file:line)
g=oracle/golden/rigid-body.isomp.golden
expect 0 "golden: PASS" golden "$g"
awk -F'\t' 'BEGIN{OFS="\t"} $1=="state"&&$2=="0"{sub(/^0\.8911/, "0.8912", $4)} {print}' "$g" > "$tmp/moved.golden"
expect 1 "does not overlap the stored ball" golden "$tmp/moved.golden"
sed 's/^checkpoint\t1\t128$/checkpoint\t0\t128/' "$g" > "$tmp/broken.golden"
expect 2 "broken.golden:[0-9]*: checkpoint step 0" golden "$tmp/broken.golden"

# two rows 2e10 steps apart (steps=20000000000: a typo or a hostile header) are refused at
# once, naming the default --max-steps, globally and locally: they were walked for days
# with no word. (timeout only guards this test from that; the refusal takes milliseconds.)
"$slpi" run --preset iso/rigid-body/trajectories steps=2 -q -o "$tmp/two.tsv" || note "the two-row run failed"
h=$(sed -n 's/^# h=//p' "$tmp/two.tsv")
{ sed -n 's/^# steps=.*/# steps=20000000000/; /^#/p' "$tmp/two.tsv"; sed -n '/^#/!p' "$tmp/two.tsv" | head -2
  sed -n '/^#/!p' "$tmp/two.tsv" | sed -n 3p |
    awk -F'\t' -v h="$h" 'BEGIN { OFS = "\t" } { $1 = "20000000000"; $2 = sprintf("%.17g", 20000000000 * h); print }'
} > "$tmp/far.tsv"
for mode in "" --local; do
  n=$((n+1))
  timeout 60 "$slpi" verify -q $mode "$tmp/far.tsv" > "$tmp/out" 2>&1; rc=$?
  case $mode in "") pat="would certify 20000000000 steps (to the last row's), more than verify's default --max-steps 1000000000" ;;
    *) pat="the row at step 20000000000 is 20000000000 steps after the previous row: the local comparison would certify them, more than verify's default --max-steps" ;; esac
  [ $rc = 2 ] && grep -qF -- "$pat" "$tmp/out" || note "verify $mode far.tsv: exit $rc, $(tail -c 300 "$tmp/out") (want exit 2 and '$pat')"
done

# with --max-steps the same file is certified that far, UNABLE beyond, at once: the pooled
# paths' digest (oracle/verify.c) drew all 2e10 increments of the header first
n=$((n+1))
timeout 60 "$slpi" verify -q --max-steps 10 "$tmp/far.tsv" > "$tmp/out" 2>&1; rc=$?
[ $rc = 3 ] && grep -q "UNABLE (binary64.*global UNABLE, 2 rows: 1 PASS, 0 FAIL, 1 UNABLE" "$tmp/out" ||
  note "verify --max-steps 10 far.tsv: exit $rc, $(tail -c 300 "$tmp/out") (want exit 3, the last row UNABLE)"

# the route that enclosed each row's products (docs/design.md#blas-route): su(32) ISOMP
# takes the BLAS route under matmul=auto, Arb's under matmul=arb, said per row and summed
"$slpi" run --preset iso/zeitlin/long N=32 steps=3 output_every=1 -q -o "$tmp/ez.tsv" || note "su(32) run failed"
expect 0 "by the BLAS route in 3, by both in 0 (matmul=auto" verify --local --table "$tmp/ez.tsv"
grep -q "^ *3 *2 .* PASS *blas$" "$tmp/out" || note "verify --table does not name the blas route of row 3"
"$slpi" run --preset iso/zeitlin/long N=32 steps=2 output_every=1 matmul=arb -q -o "$tmp/eza.tsv" || note "su(32) run failed"
expect 0 "products enclosed by Arb in 2, by the BLAS route in 0" verify --local "$tmp/eza.tsv"

rm -rf "$tmp" build/case.conf build/fast.tsv build/perturbed.tsv
echo "t-verify: $n commands checked"
exit $fail
