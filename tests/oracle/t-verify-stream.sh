#!/bin/sh
# t-verify-stream.sh — `slpi verify` streams its input: memory bounded by a window of
# rows, not by the file. One fast-path rigid-body trajectory is verified twice: as it
# is (narrow), and with W extra columns of "0" appended to every row (padded; verify
# ignores extra columns, so the verdict and the summary must be the same, byte for
# byte). The padded file holds rows x W more cells, which a reader that keeps the file
# stores as two doubles each (mid and radius: 16 bytes); a reader that keeps one row
# at a time holds 16 W bytes. Rule, fixed before any measurement: the peak resident
# set (GNU time's %M) of the padded run exceeds the narrow run's by less than an
# eighth of what keeping the padded cells needs (rows x W x 16 bytes / 8), i.e. the
# test fails as soon as verify keeps more than 1/8 of the file's rows. Both runs use one
# thread (the resident set of a second thread's arena is not what is measured here).
# Second rule (added 2026-11-26 when a reader holding the file's text, 2 bytes a padded
# cell, came in just under the first): the growth is also less than half the padded
# file's size, i.e. the text is not held either.
set -u
slpi=${SLPI_BIN:-./build/slpi}
slpi=$(cd "$(dirname "$slpi")" && pwd)/$(basename "$slpi")
fail=0
note() { echo "t-verify-stream: FAIL: $*" >&2; fail=1; }
[ -x /usr/bin/time ] || { echo "t-verify-stream: SKIP: /usr/bin/time is not installed (as root: apt-get install time)"; exit 77; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
steps=2000 W=4000
$slpi run --preset iso/rigid-body/trajectories steps=$steps -q -o "$d/narrow.tsv" || { note "run failed"; exit 1; }
awk -v W=$W 'BEGIN { for (i = 1; i <= W; i++) { pad = pad "\t0"; names = names "\tpad" i } }
             /^#/ { print; next } /^step/ { print $0 names; next } { print $0 pad }' "$d/narrow.tsv" > "$d/padded.tsv"
rows=$(grep -c '^[0-9]' "$d/padded.tsv")
[ "$rows" -eq $((steps + 1)) ] || note "padded file: $rows rows, want $((steps + 1))"
# certified work kept small and equal for both: the global walk to step 40 (later rows
# UNABLE, still read), the local check on a sample of 20 rows of the whole file
opts="--max-steps 40 --sample 20 --sample-seed 7 --threads 1"
for f in narrow padded; do
  /usr/bin/time -f %M -o "$d/$f.rss" $slpi verify $opts "$d/$f.tsv" > "$d/$f.out" 2> "$d/$f.err"
  echo $? > "$d/$f.rc"
done
[ "$(cat "$d/narrow.rc")" -eq 3 ] || note "narrow: exit $(cat "$d/narrow.rc") (want 3: rows beyond --max-steps are UNABLE): $(tail -c 300 "$d/narrow.err")"
[ "$(cat "$d/padded.rc")" -eq "$(cat "$d/narrow.rc")" ] || note "padded: exit $(cat "$d/padded.rc"), narrow $(cat "$d/narrow.rc"): $(tail -c 300 "$d/padded.err")"
sed "s|$d/padded.tsv|FILE|" "$d/padded.out" > "$d/padded.cmp"
sed "s|$d/narrow.tsv|FILE|" "$d/narrow.out" > "$d/narrow.cmp"
cmp -s "$d/narrow.cmp" "$d/padded.cmp" || note "the padded file's report differs: $(diff "$d/narrow.cmp" "$d/padded.cmp" | head -5)"
grep -q "local rows: 20 PASS, 0 FAIL, 0 UNABLE" "$d/narrow.out" || note "narrow: local sample not 20 PASS: $(grep local "$d/narrow.out")"
grep -q "global rows: 41 PASS, 0 FAIL, $((steps - 40)) UNABLE" "$d/narrow.out" || note "narrow: global rows: $(grep 'global rows' "$d/narrow.out")"
rn=$(tail -1 "$d/narrow.rss") rp=$(tail -1 "$d/padded.rss")   # GNU time notes a non-zero exit above
keep_kb=$((rows * W * 16 / 1024))
bound_kb=$((keep_kb / 8))
grow_kb=$((rp - rn))
[ "$grow_kb" -lt "$bound_kb" ] ||
  note "peak RSS $rp kB on the padded file, $rn kB on the narrow one: +$grow_kb kB, bound $bound_kb kB (keeping the padded cells: $keep_kb kB)"
file_kb=$(($(wc -c < "$d/padded.tsv") / 1024))
[ "$grow_kb" -lt $((file_kb / 2)) ] ||
  note "peak RSS +$grow_kb kB on the padded file: at least half its $file_kb kB (the text is held)"
echo "t-verify-stream: $rows rows, +$W columns ($(($(wc -c < "$d/padded.tsv") / 1048576)) MB): peak RSS $rn kB narrow, $rp kB padded (+$grow_kb kB; bound $bound_kb kB, keeping them: $keep_kb kB)"
exit $fail
