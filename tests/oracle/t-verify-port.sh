#!/bin/sh
# t-verify-port.sh — `slpi verify --local` on ports at length (issue: the oracle at
# scale): a 10^4-step rigid-body trajectory of the fast path PASSes step by step; the same
# file with one value of one row off by 3e-13 (relative, a few hundred ulps: a port that
# is wrong in one step of 10^4) FAILs, and the verdict names that step as the first
# failure; the trajectory rounded to binary32 (a port that computes in float) FAILs the
# binary64 budget and PASSes the binary32 one (--precision binary32, and the same with
# --unit-roundoff 0x1p-24); a sample of rows (--sample) of the perturbed file that
# includes the step finds it too, and a sample states its power to detect 1 u per step;
# a noise file named relative to the trajectory is found
# from any working directory, and one written untruncated for a truncating problem is
# noted with its count of clipped values. A real binary32 port (tests/port/rigid-body-float.c) PASSes
# binary32 and FAILs binary64, and FAILs binary32 too with a wrong amplitude; the last row
# is checked; a sample depends on its seed only; a header's steps= beyond the last row
# and an unwritable report are errors.
set -u
slpi=${SLPI_BIN:-./build/slpi}
slpi=$(cd "$(dirname "$slpi")" && pwd)/$(basename "$slpi")
fail=0
note() { echo "t-verify-port: FAIL: $*" >&2; fail=1; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export OPENBLAS_NUM_THREADS=1
$slpi run --preset iso/rigid-body/trajectories steps=10000 --hex -q -o "$d/t.tsv" || { note "run failed"; exit 1; }
# the port's variants: one perturbed row, and every state value rounded to binary32
python3 - "$d" <<'PY' || note "could not derive the port files"
import struct, sys
d = sys.argv[1]
lines = open(d + "/t.tsv").read().split("\n")
bad, f32 = [], []
for l in lines:
    f = l.split("\t")
    if not l or l.startswith("#") or f[0] == "step":
        bad.append(l); f32.append(l); continue
    g = list(f)
    if f[0] == "5000":
        g[2] = (float.fromhex(f[2]) * (1 + 3e-13)).hex()
    bad.append("\t".join(g))
    h = list(f)
    for i in (2, 3, 4):
        h[i] = struct.unpack("f", struct.pack("f", float.fromhex(f[i])))[0].hex()
    f32.append("\t".join(h))
open(d + "/bad.tsv", "w").write("\n".join(bad))
open(d + "/f32.tsv", "w").write("\n".join(f32))
PY
# verdict FILE ARGS... : the verify exit code and its last lines in $d/out
verdict() { f=$1; shift; $slpi verify --local "$@" "$f" > "$d/out" 2>&1; echo $?; }
[ "$(verdict "$d/t.tsv")" = 0 ] || note "the fast path's own 10^4 steps do not PASS: $(tail -3 "$d/out")"
grep -q '^local rows: 10001 PASS, 0 FAIL, 0 UNABLE' "$d/out" || note "not every row checked: $(grep '^local rows' "$d/out")"
[ "$(verdict "$d/bad.tsv")" = 1 ] || note "a port wrong in step 5000 of 10^4 does not FAIL: $(tail -3 "$d/out")"
grep -q 'first FAIL at step 5000$' "$d/out" || note "the failure is not named at step 5000: $(grep '^local rows' "$d/out")"
[ "$(verdict "$d/bad.tsv" --rows 4990..5010 --sample 21 --sample-seed 5)" = 1 ] \
  || note "a sample holding step 5000 does not FAIL: $(tail -3 "$d/out")"
# a sample states its power to detect 1 u per step (the JSON's power_at_1u)
[ "$(verdict "$d/t.tsv" --sample 300 --sample-seed 3 --json "$d/s.json")" = 0 ] \
  && grep -Eq "^statistics: the sample's 300 rows detect 1 u \|x\| per step with power [0-9.e+-]+ " "$d/out" \
  && python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["statistics"]["power_at_1u"]; sys.exit(not 0.9 <= p <= 1)' "$d/s.json" \
  || note "a sample of 300 rows does not state its power (at least 0.9): $(grep "^statistics: the sample" "$d/out")"
[ "$(verdict "$d/bad.tsv" --rows 1..4999)" = 0 ] || note "rows before the wrong step do not PASS: $(tail -3 "$d/out")"
[ "$(verdict "$d/f32.tsv")" = 1 ] || note "a binary32 port PASSes the binary64 budget: $(tail -3 "$d/out")"
[ "$(verdict "$d/f32.tsv" --precision binary32)" = 0 ] || note "a binary32 port FAILs its own budget: $(tail -3 "$d/out")"
grep -q 'u = 5.96046e-08 (binary32)' "$d/out" || note "the binary32 budget is not printed: $(grep budget "$d/out")"
[ "$(verdict "$d/f32.tsv" --unit-roundoff 0x1p-24)" = 0 ] || note "--unit-roundoff 2^-24 differs from binary32: $(tail -3 "$d/out")"
# a port's directory: the trajectory names its noise file by a relative path, resolved
# against the trajectory's folder wherever verify runs from
mkdir -p "$d/port"
(cd "$d/port" && $slpi noise --preset iso/rigid-body/trajectories steps=40 -o n.noise 2>/dev/null \
  && $slpi run --preset iso/rigid-body/trajectories steps=40 noise_file=n.noise -q -o t.tsv) || note "port directory set-up failed"
[ "$(cd / && verdict "$d/port/t.tsv")" = 0 ] || note "a noise file named relative to its trajectory is not found: $(tail -2 "$d/out")"
# a noise file written untruncated for a truncating problem: verify clips it as the
# problem does and says how many values a port would have used unclipped
printf 'preset=iso/rigid-body/trajectories\nh=0.25\nsteps=200\nnoise_file=un.noise\n' > "$d/port/un.conf"
(cd "$d/port" && $slpi noise --seed 1 --path 0 --components 3 --h 0.25 --steps 200 -o un.noise 2>/dev/null \
  && $slpi run --config un.conf -q -o un.tsv) || note "untruncated noise file set-up failed"
[ "$(verdict "$d/port/un.tsv")" = 0 ] && grep -q 'note: noise file .*un.noise is untruncated, the problem truncates at D = 1.17741.*: 12 of its 600 increments exceed D' "$d/out" \
  || note "an untruncated noise file is not noted: $(head -4 "$d/out")"
mv "$d/port/n.noise" "$d/port/m.noise"
[ "$(cd / && verdict "$d/port/t.tsv")" = 2 ] || note "a missing relative noise file is not exit 2: $(tail -2 "$d/out")"
# a real binary32 port (tests/port/rigid-body-float.c: ISOMP written in float from the
# docs, and the same in double rounded to float row by row) PASSes the binary32 budget and
# FAILs binary64; the port with a wrong amplitude (0.1 -> 0.101) is another scheme and
# FAILs even at binary32's budget
${CC:-cc} -std=c11 -O2 -ffp-contract=off -o "$d/port32" tests/port/rigid-body-float.c -lm || note "cannot compile the float port"
sed 's/a = (T)0.1;/a = (T)0.101;/' tests/port/rigid-body-float.c > "$d/wrong.c"
${CC:-cc} -std=c11 -O2 -ffp-contract=off -o "$d/wrong32" "$d/wrong.c" -lm || note "cannot compile the wrong float port"
$slpi noise --preset iso/rigid-body/trajectories steps=2000 -o "$d/noise.txt" 2>/dev/null || note "noise --preset failed"
"$d/port32" "$d/noise.txt" 2000 > "$d/p32.tsv" || note "the float port failed"
"$d/port32" "$d/noise.txt" 2000 round > "$d/r32.tsv" || note "the rounding port failed"
"$d/wrong32" "$d/noise.txt" 2000 > "$d/w32.tsv" || note "the wrong float port failed"
for f in p32 r32; do
  [ "$(verdict "$d/$f.tsv" --precision binary32)" = 0 ] || note "$f: the float port FAILs binary32: $(tail -3 "$d/out")"
  grep -q '^local rows: 2001 PASS, 0 FAIL' "$d/out" || note "$f: not every row checked: $(grep '^local rows' "$d/out")"
  [ "$(verdict "$d/$f.tsv" --unit-roundoff 0x1p-24)" = 0 ] || note "$f: the float port FAILs u = 2^-24: $(tail -3 "$d/out")"
  [ "$(verdict "$d/$f.tsv")" = 1 ] || note "$f: the float port PASSes binary64: $(tail -3 "$d/out")"
done
[ "$(verdict "$d/w32.tsv" --precision binary32)" = 1 ] || note "a float port with amplitude 0.101 PASSes binary32: $(tail -3 "$d/out")"
# the last row is checked too, and a sample is a function of its seed
python3 -c 'import sys
for l in open(sys.argv[1]):
    f = l.rstrip("\n").split("\t")
    if f[0] == "2000": f[2] = (float.fromhex(f[2]) * (1 - 1e-5)).hex()
    print("\t".join(f))' "$d/p32.tsv" > "$d/last.tsv"
[ "$(verdict "$d/last.tsv" --precision binary32)" = 1 ] && grep -q 'first FAIL at step 2000$' "$d/out" \
  || note "a wrong last row is not caught: $(grep '^local rows' "$d/out")"
sample() { $slpi verify --local --table --sample 40 "$@" "$d/t.tsv" | awk '$1 ~ /^[0-9]+$/ { printf "%s ", $1 }'; }
s1=$(sample --sample-seed 7); s2=$(SLPI_VERIFY_SEED=7 sample); s3=$(sample --sample-seed 8)
[ "$(echo "$s1" | wc -w)" -eq 40 ] || note "--sample 40 checked '$s1'"
[ "$s1" = "$s2" ] || note "--sample-seed 7 and SLPI_VERIFY_SEED=7 drew '$s1' and '$s2'"
[ "$s1" != "$s3" ] || note "seeds 7 and 8 drew the same rows '$s1'"
# --global --table: one line per row of the file (steps 0..30) under the global header
$slpi run --preset iso/rigid-body/trajectories steps=30 --hex -q -o "$d/g30.tsv" || note "30-step run failed"
rows=$($slpi verify --global --table "$d/g30.tsv" | awk '/^global:/ { g = 1; next } /^local:/ { g = 0 }
  g && $1 ~ /^[0-9]+$/ && $NF == "PASS" { n++ } END { print n + 0 }')
[ "$rows" -eq 31 ] || note "verify --global --table printed $rows PASS rows for 31"
# a header whose steps= lies beyond the last row (steps=1e11 over 2001 rows) is exit 2 at
# once, naming both; a report that cannot be written is a non-zero exit
sed 's/^# steps=2000$/# steps=100000000000/' "$d/p32.tsv" > "$d/huge.tsv"
[ "$(verdict "$d/huge.tsv")" = 2 ] && grep -q 'the header says steps=100000000000 but the last row is step 2000' "$d/out" \
  || note "steps=1e11 over 2001 rows: $(tail -2 "$d/out")"
for opt in -q --table; do
  $slpi verify --local $opt --precision binary32 "$d/p32.tsv" > /dev/full 2>/dev/null && note "verify $opt > /dev/full: exit 0"
done
mknod "$d/full" c 1 7 2>/dev/null || ln -s /dev/full "$d/full"   # private: -o may rename over it
$slpi verify --local -q --precision binary32 -o "$d/full" "$d/p32.tsv" 2>/dev/null && note "verify -o full device: exit 0"
[ $fail -eq 0 ] && echo "t-verify-port: 10^4 steps PASS; one wrong step caught at step 5000; binary32 port FAILs binary64, PASSes binary32"
exit $fail
