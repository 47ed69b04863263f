#!/bin/sh
# t-verify-declared-stop.sh — verify states the port's declared solver stop
# (docs/power.md#stop-rule): per statistics row T / (u s), T = tol * max(1, |x|max) of the
# row's starting state x (tol * |h| * |x|max under tol_scale=step), s the step's largest
# entry; the JSON's statistics.declared_stop_u is the largest over the rows (over pooled
# files too), and where it exceeds 1 the report says the stop is looser than the format. Computed two ways: by
# verify, and here from the file's rows (the port's row for s, which is the exact step's to
# about 1e-13). slpi's double path, `iso/zeitlin/strong N=32`, 20 steps of a path drawn
# from the seed, at binary64: the default (tol 1e-15 against max(1, |x|) = 1: about 74 u s
# at this state) prints the line; tol=0x1p-60 (under 1 u), tol_scale=step and
# fixed_iters=3 (the map is its sweeps: 0) do not. About 1 CPU second.
set -u
slpi=${SLPI_BIN:-./build/slpi}
slpi=$(cd "$(dirname "$slpi")" && pwd)/$(basename "$slpi")
. "$(dirname "$0")/prelude.sh"
seed=${SLPI_TEST_SEED:-$(date +%s)}
echo "t-verify-declared-stop: seed $seed (replay with SLPI_TEST_SEED=$seed)"
export OPENBLAS_NUM_THREADS=1
path=$((seed % 100000))
# expected FILE TOL STEP_SCALE FIXED: the largest T / (u s) over the file's rows, from its numbers
expected() {
  $py - "$@" << 'PY'
import sys
f, step, fixed = sys.argv[1], sys.argv[3] == "1", int(sys.argv[4])
tol = float.fromhex(sys.argv[2]) if "x" in sys.argv[2] else float(sys.argv[2])
lines = [l.rstrip("\n").split("\t") for l in open(f) if not l.startswith("#")]
head, rows = lines[0], lines[1:]
end = head.index("H0")
h = float(rows[1][1]) - float(rows[0][1])
xs = [[float(v) for v in r[2:end]] for r in rows]
best = 0.0
for a, b in zip(xs, xs[1:]):
    xn, s = max(abs(v) for v in a), max(abs(v) for v in b)
    t = tol * (abs(h) * xn if step else max(1.0, xn))
    best = max(best, 0.0 if fixed else t / (2.0 ** -53 * s))
print(repr(best))
PY
}
# the declared stop in a verify JSON
stop_of() {
  $py -c "import json, sys; print(repr(json.load(open(sys.argv[1]))['statistics']['declared_stop_u']))" "$1"
}
# close GOT WANT: equal to 1e-9 relative (both 0 included)
close() {
  $py -c "import sys; g, w = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(g - w) > 1e-9 * w and g != w)" \
    "$1" "$2"
}
# case NAME TOL STEP_SCALE FIXED LINE KEYS...: write, verify, compare both ways and the line
case_() {
  name=$1 tol=$2 step=$3 fixed=$4 line=$5
  shift 5
  $slpi run --preset iso/zeitlin/strong N=32 steps=20 output_every=1 path=$path -q -o "$d/$name.tsv" "$@" \
    > /dev/null 2>&1 || { note "$name: slpi run $*"; return; }
  $slpi verify --local --threads 1 --precision binary64 --max-steps 0 --json "$d/$name.json" "$d/$name.tsv" \
    > "$d/$name.txt" 2>&1
  got=$(stop_of "$d/$name.json") || { note "$name: no statistics.declared_stop_u in the JSON"; return; }
  want=$(expected "$d/$name.tsv" "$tol" "$step" "$fixed") || { note "$name: the expected value"; return; }
  close "$got" "$want" || note "$name: declared_stop_u $got, from the rows $want"
  if grep -q "declared solver stop" "$d/$name.txt"; then has=1; else has=0; fi
  [ "$has" = "$line" ] || note "$name: the report's declared-stop line present $has, expected $line (value $got)"
  echo "t-verify-declared-stop: $name: declared_stop_u $got (from the rows $want), line $has"
}
case_ default 1e-15 0 0 1
case_ converged 0x1p-60 0 0 0 tol=0x1p-60
case_ step 1e-15 1 0 0 tol_scale=step
case_ fixed 1e-15 0 3 0 fixed_iters=3
# pooled: the default file, then a path started from half its initial state (x0_file=:
# s halves, so its stop reads twice as many u s); verify merges the files' statistics in
# their order, and the value is the larger, the second file's
$py -c "
import sys
rows = [l.rstrip('\\n').split('\\t') for l in open(sys.argv[1]) if not l.startswith('#')]
print('\\n'.join(repr(0.5 * float(v)) for v in rows[1][2:rows[0].index('H0')]))" "$d/default.tsv" > "$d/x0h.txt" \
  || note "the half initial state"
$slpi run --preset iso/zeitlin/strong N=32 steps=20 output_every=1 path=$((path + 1)) x0_file="$d/x0h.txt" -q \
  -o "$d/half.tsv" > /dev/null 2>&1 || note "slpi run from the half initial state"
want=$(expected "$d/half.tsv" 1e-15 0 0)
$slpi verify --local --threads 1 --precision binary64 --max-steps 0 --json "$d/pooled.json" "$d/default.tsv" \
  "$d/half.tsv" > /dev/null 2>&1
got=$(stop_of "$d/pooled.json")
close "$got" "$want" || note "pooled: declared_stop_u $got, the second file's rows give $want (the larger)"
echo "t-verify-declared-stop: pooled: declared_stop_u $got (the larger file's $want)"
$py -c "import sys; sys.exit(0 if float(sys.argv[1]) > 10 else 1)" "$(stop_of "$d/default.json")" \
  || note "default: the declared stop is not above 10 u s (slpi's tol 1e-15 against max(1, |x|) on a state near 0.1)"
exit $fail
