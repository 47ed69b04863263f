#!/bin/sh
# t-verify-paths.sh — many noise paths in one trajectory file (oracle/README.md#many-paths)
# and the refusal of one path pooled twice. Paths 3 paths x 4 steps of the rigid body
# (slpi's own double path, one x0), written as three files and as one file with a `path`
# column, step by step and path by path: verify gives the same rows, the same proof and
# the same statistics (p-value) for the three forms; noise_file= with {path} reads each
# path's own noise file; the private folder of the split is gone afterwards; a bad path
# value is exit 2 naming the column; a path without its last row is exit 2 naming the
# path, with no advice to set steps= (the header is every path's); two copies of one noise file under other names, and
# a path given both in a file and in a multi-path file, are exit 2 ("the same path").
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
# a path without its last row: named, with advice a many-path file can follow (not "set steps=")
grep -v "^4	[^	]*	$((base + 1))	" "$d/step.tsv" > "$d/short.tsv"
out=$(summary "$d/short.tsv")
case $out in *"path=$((base + 1)):"*"this path's last row is step 3: every path"*"exit 2") ;; *) note "a path without its last row: $out" ;; esac
case $out in *"set steps="*) note "a path without its last row is told to set steps=: $out" ;; esac
# one path twice: copies of one noise file, and a path in a file and in a multi-path file
cp "$d/n$base.noise" "$d/copy.noise"
sed "2a # noise_file=n$base.noise" "$d/p0.tsv" > "$d/a.tsv"
sed '2a # noise_file=copy.noise' "$d/p0.tsv" > "$d/b.tsv"
out=$(summary "$d/a.tsv" "$d/b.tsv")
case $out in *"the same path as"*"exit 2") ;; *) note "two copies of one noise file: $out" ;; esac
out=$(summary "$d/p1.tsv" "$d/step.tsv")
case $out in *"the same path as"*"exit 2") ;; *) note "a path in a file and in a multi-path file: $out" ;; esac
[ -z "$(ls -A "$TMPDIR")" ] || note "the split's folder is left behind after an error: $(ls -A "$TMPDIR")"
[ $fail -eq 0 ] && echo "t-verify-paths: PASS"
exit $fail
