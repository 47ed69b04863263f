#!/bin/sh
# t-verify-port.sh — `slpi verify --local` on ports at length (issue: the oracle at
# scale): a 10^4-step rigid-body trajectory of the fast path PASSes step by step; the same
# file with one value of one row off by 3e-13 (relative, a few hundred ulps: a port that
# is wrong in one step of 10^4) FAILs, and the verdict names that step as the first
# failure; the trajectory rounded to binary32 (a port that computes in float) FAILs the
# binary64 budget and PASSes the binary32 one (--precision binary32, and the same with
# --unit-roundoff 0x1p-24); a sample of rows (--sample) of the perturbed file that
# includes the step finds it too; a noise file named relative to the trajectory is found
# from any working directory.
set -u
slpi=${SLPI_BIN:-./build/slpi}
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
mv "$d/port/n.noise" "$d/port/m.noise"
[ "$(cd / && verdict "$d/port/t.tsv")" = 2 ] || note "a missing relative noise file is not exit 2: $(tail -2 "$d/out")"
[ $fail -eq 0 ] && echo "t-verify-port: 10^4 steps PASS; one wrong step caught at step 5000; binary32 port FAILs binary64, PASSes binary32"
exit $fail
