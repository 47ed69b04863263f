#!/bin/sh
# t-verify-paths.sh — many noise paths in one trajectory file
# (oracle/README.md#many-paths) and the refusal of one path pooled twice. Paths 3 paths x
# 4 steps of the rigid body (slpi's own double path, one x0), written as three files and
# as one file with a `path` column, step by step and path by path: verify gives the same
# rows, the same proof and the same statistics (p-value) for the three forms; its report,
# JSON and messages name each path FILE#path=K and are the same bytes in two runs, which
# name each path's noise (canonical); noise_file= with {path} reads each path's own noise
# file, which the report names (a template twice in one value, r{path}/n{path}.noise,
# replaced each time); x0_file= with {path} starts each path from its own initial state,
# as three files with their x0_file= pooled do; the private folder of the split is gone
# afterwards; a bad path value is exit 2 naming the column; a path without its last row is
# exit 2 naming the path, with no advice to set steps= (the header is every path's); two
# copies of one noise file under other names, and a path given both in a file and in a
# multi-path file, are exit 2 ("the same path"); two paths that differ in their last
# step's increments only, or whose digests share one of their two hashes, are pooled (10
# rows, exit 0); a split removes the private folders of dead verify runs, nothing else.
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
# join: one file with a path column after t; $1 = step (step-major) or path (path-major),
# of the files $2{0,1,2}.tsv (default p)
join() {
  f=${2:-p}
  grep '^#' "$d/${f}0.tsv" | grep -v '^# path='
  grep -v '^#' "$d/${f}0.tsv" | head -1 | awk -F'\t' 'BEGIN { OFS = "\t" } { $2 = $2 "\tpath"; print }'
  for k in 0 1 2; do
    grep -v '^#' "$d/$f$k.tsv" | tail -n +2 | awk -F'\t' -v p=$((base + k)) -v k=$k -v o="$1" 'BEGIN { OFS = "\t" }
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
# private folder: two runs give the same bytes (a bad row's message too; the JSON but its
# CPU time)
for r in 1 2; do
  $slpi verify --local --table --sample-seed 5 --json "$d/j$r.json" "$d/step.tsv" > "$d/r$r.txt" 2>&1
  sed 's/^\(3\t[0-9.e-]*\t\)'$base'\t[0-9.e-]*/\1'$base'\tx/' "$d/step.tsv" > "$d/badrow.tsv"
  $slpi verify --local -q "$d/badrow.tsv" > "$d/e$r.txt" 2>&1
  sed -i '/"cpu_seconds"\|_per_cpu_second"/d' "$d/j$r.json"   # the process's CPU time: a run's own
done
cmp -s "$d/r1.txt" "$d/r2.txt" && cmp -s "$d/j1.json" "$d/j2.json" && cmp -s "$d/e1.txt" "$d/e2.txt" ||
  note "two runs on one file with a path column differ: $(diff "$d/j1.json" "$d/j2.json" | head -6) $(diff "$d/r1.txt" "$d/r2.txt" | head -4) $(diff "$d/e1.txt" "$d/e2.txt" | head -4)"
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
# the report's first line names each path's noise: its own file here, canonical above
$slpi verify --local "$d/nf.tsv" > "$d/nfr.txt" 2>&1
for k in 0 1 2; do
  grep -q "^verify $d/nf.tsv#path=$((base + k)): .*; noise: file $d/n$((base + k)).noise\$" "$d/nfr.txt" ||
    note "the report of noise_file=n{path}.noise names path $((base + k))'s noise as: $(grep '^verify' "$d/nfr.txt")"
done
[ "$(grep -c '^verify .*; noise: canonical$' "$d/r1.txt")" = 3 ] ||
  note "the report of canonical paths names their noise as: $(grep '^verify' "$d/r1.txt")"
# two templates in one value (a folder per path): each one replaced
for k in 0 1 2; do mkdir -p "$d/r$((base + k))" && cp "$d/n$((base + k)).noise" "$d/r$((base + k))/n$((base + k)).noise"; done
sed "2a # noise_file=r{path}/n{path}.noise" "$d/step.tsv" > "$d/nf2.tsv"
nf=$(summary "$d/nf2.tsv" | sed 's/^[^:]*: //')
[ "$nf" = "$three" ] || note "noise_file=r{path}/n{path}.noise: '$nf' where the canonical paths give '$three'"
# x0_file={path}: a path's own initial state (each path's run started from its file), as
# pooled files with three x0_file= (they were "another problem"); the same rows against one
# initial state for all FAIL
for k in 0 1 2; do
  case $k in 0) x="0.8 0 0.6" ;; 1) x="0.6 0 0.8" ;; 2) x="0 0.6 0.8" ;; esac
  printf '%s\n' $x > "$d/x0-$((base + k)).txt"
  $slpi run --preset iso/rigid-body/trajectories steps=4 path=$((base + k)) x0_file="$d/x0-$((base + k)).txt" -q \
    -o "$d/x$k.tsv" > /dev/null 2>&1 || note "slpi run path $k x0_file"
done
x0three=$(summary "$d/x0.tsv" "$d/x1.tsv" "$d/x2.tsv" | sed 's/^[^:]*: //')
case $x0three in *"15 rows"*"exit 0") ;; *) note "three paths, three x0_file: '$x0three' (15 rows, exit 0 expected)" ;; esac
join step x | sed "s|^# x0_file=.*|# x0_file=x0-{path}.txt|" > "$d/x0p.tsv"
out=$(summary "$d/x0p.tsv" | sed 's/^[^:]*: //')
[ "$out" = "$x0three" ] || note "x0_file=x0-{path}.txt: '$out' where the three files give '$x0three'"
sed "s|^# x0_file=.*|# x0_file=x0-$base.txt|" "$d/x0p.tsv" > "$d/x0one.tsv"
out=$(summary "$d/x0one.tsv")
case $out in *": FAIL ("*) ;; *) note "one x0_file for paths that started from three: '$out' (FAIL expected)" ;; esac
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
# two paths that differ in their last step only are two paths: path base's noise file with
# the last row of path base+1's, run and pooled with path base's canonical run
{ grep '^#' "$d/n$base.noise"; grep -v '^#' "$d/n$base.noise" | sed '$d'; tail -n 1 "$d/n$((base + 1)).noise"; } > "$d/last.noise"
$slpi run --preset iso/rigid-body/trajectories steps=4 path=$base noise_file="$d/last.noise" -q -o "$d/last.tsv" \
  > /dev/null 2>&1 || note "slpi run noise_file=last.noise"
out=$(summary "$d/p0.tsv" "$d/last.tsv")
case $out in *"10 rows"*"exit 0") ;; *) note "two paths that differ in their last step only: $out" ;; esac
# the digest is two 64-bit hashes (oracle/verify.c, key_add): paths equal in one alone are
# two paths. Each hash is inverted here: an x0 whose third component makes it collide with
# x0 = 0.8,0,0.6's, the same increments after it; each pair run and pooled (10 rows, exit 0)
x0s=$($py - << 'PY'
import struct
M = (1 << 64) - 1
steps = ((0xcbf29ce484222325, lambda h, b: ((h ^ b) * 0x100000001b3) & M,
          lambda h, H: (H * pow(0x100000001b3, -1, 1 << 64) & M) ^ h),
         (0x243f6a8885a308d3, lambda h, b: (((h + b) * 0x9e3779b97f4a7c15) & M) ^ (h >> 29),
          lambda h, H: (((H ^ (h >> 29)) * pow(0x9e3779b97f4a7c15, -1, 1 << 64)) - h) & M))
bits = lambda v: struct.unpack("<Q", struct.pack("<d", v))[0]
for h0, step, inverse in steps:
    def key(vals, h=h0):
        for v in vals:
            h = step(h, bits(v))
        return h
    H = key((0.8, 0.0, 0.6))
    for i in range(1, 1 << 20):
        a = 0.8 + i * 2.0 ** -40
        x = struct.unpack("<d", struct.pack("<Q", inverse(key((a, 0.0)), H)))[0]
        if 0.25 <= x < 4 and key((a, 0.0, x)) == H:
            print("%.17g 0 %.17g" % (a, x))
            break
PY
)
[ "$(echo "$x0s" | wc -l)" = 2 ] || note "no x0 collides with 0.8,0,0.6 in a hash: '$x0s'"
for k in 0 1 2; do
  case $k in 0) echo 0.8 0 0.6 > "$d/h$k.x0" ;; *) echo "$x0s" | sed -n "${k}p" > "$d/h$k.x0" ;; esac
  $slpi run --preset iso/rigid-body/trajectories steps=4 path=$base x0_file="$d/h$k.x0" -q -o "$d/h$k.tsv" \
    > /dev/null 2>&1 || note "slpi run x0_file=h$k.x0"
done
for k in 1 2; do
  out=$(summary "$d/h0.tsv" "$d/h$k.tsv")
  case $out in *"10 rows"*"exit 0") ;; *) note "two paths whose digests share hash $k (x0 $(cat "$d/h$k.x0")): $out" ;; esac
done
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
