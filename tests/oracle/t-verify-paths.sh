#!/bin/sh
# t-verify-paths.sh — many noise paths in one trajectory file (oracle/README.md#many-paths)
# and the refusal of one path pooled twice. Paths 3 paths x 4 steps of the rigid body
# (slpi's own double path, one x0), written as three files and as one file with a `path`
# column, step by step and path by path: verify gives the same rows, the same proof and
# the same statistics (p-value) for the three forms; its report, JSON and messages name
# each path FILE#path=K and are the same bytes in two runs; noise_file= with {path} reads each
# path's own noise file; the private folder of the split is gone afterwards; a bad path
# value is exit 2 naming the column; two copies of one noise file under other names, and
# a path given both in a file and in a multi-path file, are exit 2 ("the same path"); two
# paths that differ in their last step's increments only are pooled (10 rows, exit 0); a
# split removes the private folders of dead verify runs, nothing else.
set -u
slpi=${SLPI_BIN:-./build/slpi}
slpi=$(cd "$(dirname "$slpi")" && pwd)/$(basename "$slpi")
. "$(dirname "$0")/prelude.sh"
seed=${SLPI_TEST_SEED:-$(date +%s)}
echo "t-verify-paths: seed $seed (replay with SLPI_TEST_SEED=$seed)"
base=$((seed % 100000))
export OPENBLAS_NUM_THREADS=1 TMPDIR="$d/tmp"
mkdir -p "$TMPDIR"
for k in 0 1 2; do
  $slpi run --preset iso/rigid-body/trajectories steps=4 path=$((base + k)) -q -o "$d/p$k.tsv" > /dev/null 2>&1 \
    || { note "slpi run path $k"; exit 1; }
done
# join: one file with a path column after t; $1 = step (step-major) or path (path-major)
join() {
  grep '^#' "$d/p0.tsv" | grep -v '^# path='
  grep -v '^#' "$d/p0.tsv" | head -1 | awk -F'\t' 'BEGIN { OFS = "\t" } { $2 = $2 "\tpath"; print }'
  for k in 0 1 2; do
    grep -v '^#' "$d/p$k.tsv" | tail -n +2 | awk -F'\t' -v p=$((base + k)) -v k=$k -v o="$1" 'BEGIN { OFS = "\t" }
      { key = o == "step" ? sprintf("%08d %d", $1, k) : sprintf("%d %08d", k, $1); $2 = $2 "\t" p; print key "\t" $0 }'
  done | sort | cut -f2-
}
join step > "$d/step.tsv"
join path > "$d/path.tsv"
summary() { $slpi verify --local -q --threads 1 "$@" 2>&1; echo "exit $?"; }
three=$(summary "$d/p0.tsv" "$d/p1.tsv" "$d/p2.tsv" | sed 's/^[^:]*: //')
for f in step path; do
  one=$(summary "$d/$f.tsv" | sed 's/^[^:]*: //')
  [ "$one" = "$three" ] || note "$f-major file: '$one' where the three files give '$three'"
done
case $three in *"15 rows"*"exit 0") ;; *) note "three paths: '$three' (15 rows, exit 0 expected)" ;; esac
# the report of a split file, its messages and JSON name each path FILE#path=K, never the
# private folder: two runs give the same bytes (a bad row's message too)
for r in 1 2; do
  $slpi verify --local --table --json "$d/j$r.json" "$d/step.tsv" > "$d/r$r.txt" 2>&1
  sed 's/^\(3\t[0-9.e-]*\t\)'$base'\t[0-9.e-]*/\1'$base'\tx/' "$d/step.tsv" > "$d/badrow.tsv"
  $slpi verify --local -q "$d/badrow.tsv" > "$d/e$r.txt" 2>&1
done
cmp -s "$d/r1.txt" "$d/r2.txt" && cmp -s "$d/j1.json" "$d/j2.json" && cmp -s "$d/e1.txt" "$d/e2.txt" ||
  note "two runs on one file with a path column differ: $(diff "$d/r1.txt" "$d/r2.txt" | head -4) $(diff "$d/e1.txt" "$d/e2.txt" | head -4)"
grep -q "^verify $d/step.tsv#path=$((base + 2)): isomp on rigid-body, 5 rows" "$d/r1.txt" ||
  note "the report does not name path $((base + 2)) as $d/step.tsv#path=$((base + 2)): $(grep '^verify' "$d/r1.txt" | head -2)"
grep -q "^slpi verify: $d/badrow.tsv#path=$base:[0-9]*: column 4 (x1): 'x'" "$d/e1.txt" ||
  note "a bad row's message: $(cat "$d/e1.txt")"
[ -z "$(ls -A "$TMPDIR")" ] || note "the split's folder is left behind: $(ls -A "$TMPDIR")"
# per-path noise files: noise_file= with {path}, the row's path number
for k in 0 1 2; do
  $slpi noise --preset iso/rigid-body/trajectories steps=4 path=$((base + k)) -o "$d/n$((base + k)).noise" 2> /dev/null \
    || note "slpi noise $k"
done
sed "2a # noise_file=n{path}.noise" "$d/step.tsv" > "$d/nf.tsv"
nf=$(summary "$d/nf.tsv" | sed 's/^[^:]*: //')
[ "$nf" = "$three" ] || note "noise_file=n{path}.noise: '$nf' where the canonical paths give '$three'"
# a path value that is no number
sed 's/^\(1\t[0-9.e-]*\t\)'$base'\t/\1x7\t/' "$d/step.tsv" > "$d/bad.tsv"
out=$(summary "$d/bad.tsv")
case $out in *"path 'x7' is not a noise path's number"*"exit 2") ;; *) note "a bad path value: $out" ;; esac
# one path twice: copies of one noise file, and a path in a file and in a multi-path file
cp "$d/n$base.noise" "$d/copy.noise"
sed "2a # noise_file=n$base.noise" "$d/p0.tsv" > "$d/a.tsv"
sed '2a # noise_file=copy.noise' "$d/p0.tsv" > "$d/b.tsv"
out=$(summary "$d/a.tsv" "$d/b.tsv")
case $out in *"the same path as"*"exit 2") ;; *) note "two copies of one noise file: $out" ;; esac
out=$(summary "$d/p1.tsv" "$d/step.tsv")
case $out in *"the same path as"*"exit 2") ;; *) note "a path in a file and in a multi-path file: $out" ;; esac
# two paths that differ in their last step only are two paths: path base's noise file with
# the last row of path base+1's, run and pooled with path base's canonical run
{ grep '^#' "$d/n$base.noise"; grep -v '^#' "$d/n$base.noise" | sed '$d'; tail -n 1 "$d/n$((base + 1)).noise"; } > "$d/last.noise"
$slpi run --preset iso/rigid-body/trajectories steps=4 path=$base noise_file="$d/last.noise" -q -o "$d/last.tsv" \
  > /dev/null 2>&1 || note "slpi run noise_file=last.noise"
out=$(summary "$d/p0.tsv" "$d/last.tsv")
case $out in *"10 rows"*"exit 0") ;; *) note "two paths that differ in their last step only: $out" ;; esac
[ -z "$(ls -A "$TMPDIR")" ] || note "the split's folder is left behind after an error: $(ls -A "$TMPDIR")"
# the private folders of verify runs that are gone (docs/conventions.md#stale): a split
# removes a dead process's slpi-verify-PID-XXXXXX with its split files; it keeps a live
# process's, a look-alike, and a dead one's that holds a file of another kind (its split
# files removed); the dead process: a child that has exited
sh -c 'exit 0' & dead=$!
wait $dead
for f in "slpi-verify-$dead-abcdef" "slpi-verify-$$-abcdef" "slpi-verify-$dead-abcdefg" "slpi-verify-$dead-Other1"; do
  mkdir "$TMPDIR/$f" && echo split > "$TMPDIR/$f/0-x.tsv#path=3"
done
echo mine > "$TMPDIR/slpi-verify-$dead-Other1/notes.txt"
summary "$d/step.tsv" > /dev/null
[ -e "$TMPDIR/slpi-verify-$dead-abcdef" ] && note "a dead verify's folder is left: $(ls -A "$TMPDIR")"
for f in "slpi-verify-$$-abcdef/0-x.tsv#path=3" "slpi-verify-$dead-abcdefg/0-x.tsv#path=3" "slpi-verify-$dead-Other1/notes.txt"; do
  [ -e "$TMPDIR/$f" ] || note "a split removed $f"
done
[ -e "$TMPDIR/slpi-verify-$dead-Other1/0-x.tsv#path=3" ] && note "a dead verify's split file is left beside another file"
[ $fail -eq 0 ] && echo "t-verify-paths: PASS"
exit $fail
