#!/bin/sh
# t-verify-reference.sh — the statistics' reference (docs/power.md#reference-rule,
# #accurate-reference): the same rows judged with `--stat-reference certified` and
# `double` give the same statistical verdict, mean effects within 1e-4 u and systematic
# and size t statistics within 0.01 + 1e-3 |t|, on a NumPy float32 rigid body (binary32),
# an emulated bfloat16 rigid body (bfloat16), slpi.torch's Euler–Zeitlin su(8) in float32
# (binary32) and su(4) at tf32, and slpi's own SVI rigid body declared binary32; so do
# `certified` and `accurate` alone (`--max-steps 0`, where the accurate step is every
# row's reference) at binary64 on slpi's SVI rigid body and slpi.torch's su(8) in float64. `auto` takes the double reference at binary32 and the accurate one at
# binary64, where `double` is refused (exit 2), as is an unknown word. With the double
# reference alone (`--max-steps 0`: statistics without the proof) slpi.torch's correct
# su(8) PASSes the statistics and the same file with 0.3 u per step planted
# (tests/oracle/plant-moves.py) FAILs them; with the accurate one alone, the same in
# float64 at binary64 with 1 u per step planted; a row whose accurate radius exceeds 1e-5
# units (a tiny `u=VALUE`) gives no statistics row. Paths drawn from the seed. Skipped (77)
# without NumPy and PyTorch.
set -u
slpi=${SLPI_BIN:-./build/slpi}
slpi=$(cd "$(dirname "$slpi")" && pwd)/$(basename "$slpi")
build=$(cd "$(dirname "$slpi")" && pwd)
. "$(dirname "$0")/prelude.sh"
$py -c 'import torch, numpy' 2> /dev/null || { echo "t-verify-reference: SKIP: no PyTorch or NumPy for $py"; exit 77; }
export SLPI_LIB=$build/libslpi.so PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH} OPENBLAS_NUM_THREADS=1
seed=${SLPI_TEST_SEED:-$(date +%s)}
echo "t-verify-reference: seed $seed (replay with SLPI_TEST_SEED=$seed)"
first=$((seed % 1000 * 4 + 500))
field() { $py -c "import json, sys; j = json.load(open(sys.argv[1])); print(j$2)" "$1"; }
# verify NAME PRECISION REFERENCE [OPTIONS] FILES...: the exit code; the JSON in $d/NAME-REFERENCE.json
verify() {
  n=$1 p=$2 r=$3
  shift 3
  $slpi verify --local -q --threads 1 --precision "$p" --stat-reference "$r" --json "$d/$n-$r.json" "$@" > /dev/null 2>&1
  echo $?
}
# same NAME REFERENCE: the certified reference's statistics and REFERENCE's agree as the
# rules' checks declare
same() {
  $py - "$d/$1-certified.json" "$d/$1-$2.json" "$2" << 'EOF' || note "$1: the references disagree"
import json, sys
a, b = (json.load(open(f))["statistics"] for f in sys.argv[1:3])
bad = [k for k in ("verdict", "steps") if a[k] != b[k]]
bad += ["effect %r %r" % (a["effect_per_step_u"], b["effect_per_step_u"])] * (
    abs(a["effect_per_step_u"] - b["effect_per_step_u"]) > 1e-4)
for k in ("statistic", "size_t"):
    if abs(a[k] - b[k]) > 0.01 + 1e-3 * abs(a[k]):
        bad.append("%s %r %r" % (k, a[k], b[k]))
bad += ["reference %s %s" % (a["reference"], b["reference"])] * ((a["reference"], b["reference"]) != ("certified", sys.argv[3]))
bad += ["%s: no statistics rows" % a["steps"]] * (a["steps"] < 20)
print("t-verify-reference: %s (%s) %s, %d rows, t %.4g / %.4g, size t %.4g / %.4g%s" % (
    sys.argv[1].rsplit("/", 1)[1].rsplit("-", 1)[0], sys.argv[3], a["verdict"], a["steps"], a["statistic"], b["statistic"],
    a["size_t"], b["size_t"], ": " + "; ".join(bad) if bad else ""))
sys.exit(1 if bad else 0)
EOF
}
# both NAME PRECISION REFERENCE FILES...: the certified reference and REFERENCE; the
# accurate one alone (--max-steps 0, exit 3), where no certified ball stands in for it
both() {
  n=$1 p=$2 ref=$3
  shift 3
  rc=$(verify "$n" "$p" certified "$@")
  [ "$rc" = 0 ] || note "$n at $p, reference certified: exit $rc"
  if [ $ref = accurate ]; then
    rc=$(verify "$n" "$p" $ref --max-steps 0 "$@")
    [ "$rc" = 3 ] || note "$n at $p, reference $ref alone: exit $rc, expected 3"
  else
    rc=$(verify "$n" "$p" $ref "$@")
    [ "$rc" = 0 ] || note "$n at $p, reference $ref: exit $rc"
  fi
  same "$n" $ref
}
# the rigid body: NumPy float32 and emulated bfloat16, 300 steps of one path
path=$((seed % 100000 + 60000))
$slpi noise --preset iso/rigid-body/trajectories steps=300 path=$path -o "$d/rb.noise" 2> /dev/null || note "slpi noise"
$py tests/port/ports.py numpy float32 rb "$d/rb.noise" 300 > "$d/rb32.tsv" || note "the float32 rigid body"
both rb32 binary32 double "$d/rb32.tsv"
$py tests/port/ports.py emu bfloat16 rb "$d/rb.noise" 300 > "$d/rb16.tsv" || note "the bfloat16 rigid body"
both rb16 bfloat16 double "$d/rb16.tsv"
# slpi's SVI rigid body (binary64 data declared binary32: judged against the exact step)
$slpi run --preset svi/rigid-body/paths steps=300 path=$path -q -o "$d/svi.tsv" > /dev/null 2>&1 || note "slpi run svi"
both svi binary32 double "$d/svi.tsv"
# Euler–Zeitlin: slpi.torch su(8) in float32, 3 paths x 20 steps; su(4) at tf32
torch_run() { # FOLDER PRECISION PATHS STEPS MANY KEY=VALUE... (MANY 1: one many-path file, 0: a file a path)
  $py - "$@" << 'EOF' || note "slpi.torch $*"
import sys, torch, slpi.torch as st
torch.set_num_threads(1)
out, prec, paths, steps, many = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
keys = {k: int(v) for k, v in (a.split("=") for a in sys.argv[6:])}
e = st.run("iso/zeitlin/strong", paths=paths, first_path=int(keys.pop("first")), precision=prec, steps=steps, **keys)
st.write(e, out, many=many)
EOF
}
torch_run "$d/su8" float32 3 20 1 first=$first N=8 ic_lmax=7
both su8 binary32 double "$d/su8"/*.tsv
torch_run "$d/su4" tf32 3 30 1 first=$first N=4 ic_lmax=3
both su4 tf32 double "$d/su4"/*.tsv
# binary64: the accurate reference against the certified one
both svi64 binary64 accurate "$d/svi.tsv"
torch_run "$d/su8d" float64 3 20 1 first=$first N=8 ic_lmax=7
both su8d binary64 accurate "$d/su8d"/*.tsv
# auto: double at binary32, accurate at binary64; double refused at binary64; a bad word
rc=$(verify su8a binary32 auto --max-steps 0 "$d/su8"/*.tsv)
[ "$(field "$d/su8a-auto.json" "['statistics']['reference']")" = double ] || note "auto at binary32 is not the double reference"
rc=$(verify svi64 binary64 auto "$d/svi.tsv")
[ "$rc" = 0 ] && [ "$(field "$d/svi64-auto.json" "['statistics']['reference']")" = accurate ] \
  || note "auto at binary64: exit $rc, reference $(field "$d/svi64-auto.json" "['statistics']['reference']")"
rc=$(verify svi64 binary64 double "$d/svi.tsv")
[ "$rc" = 2 ] || note "--stat-reference double at binary64: exit $rc, expected 2"
$slpi verify --local --precision binary64 --stat-reference double "$d/svi.tsv" 2>&1 | grep -q "error bound K m 2^-53" \
  || note "--stat-reference double at binary64: no message naming the bound"
rc=$(verify svi binary32 exact "$d/svi.tsv")
[ "$rc" = 2 ] || note "--stat-reference exact: exit $rc, expected 2"
# the accurate step's radius (about 1e-38 of the state here) against the rule's 1e-5 units:
# at u = 1e-31 (about 1e-7 units) every row enters the statistics, at u = 3e-34 (about
# 3e-5 units, inside the test's own resolution of 1e-3) none
rc=$(verify tiny1 u=1e-31 auto --max-steps 0 "$d/svi.tsv")
[ "$(field "$d/tiny1-auto.json" "['statistics']['steps']")" = 300 ] || note "accurate at u=1e-31: $(field "$d/tiny1-auto.json" "['statistics']['steps']") statistics rows, expected 300"
rc=$(verify tiny2 u=3e-34 auto --max-steps 0 "$d/svi.tsv")
[ "$(field "$d/tiny2-auto.json" "['statistics']['steps']")" = 0 ] || note "accurate at u=3e-34: $(field "$d/tiny2-auto.json" "['statistics']['steps']") statistics rows, expected 0 (radius above 1e-5 units)"
# alone NAME DTYPE PRECISION E U: the statistics alone (`--max-steps 0`) under auto's
# reference at PRECISION: slpi.torch's correct su(8) in DTYPE, 4 paths x 50 steps, PASSes
# them, and the same files with E u per step planted (U the format's u) FAIL them
alone() {
  n=$1 dt=$2 p=$3 e=$4 u=$5
  torch_run "$d/$n" $dt 4 50 0 first=$((first + 4000)) N=8 ic_lmax=7
  mkdir -p "$d/$n-bad"
  for f in "$d/$n"/*.tsv; do
    $py tests/oracle/plant-moves.py "$f" "$d/$n-bad/$(basename "$f")" $e $u > /dev/null || note "plant"
  done
  rc=$(verify $n $p auto --max-steps 0 "$d/$n"/*.tsv)
  [ "$rc" = 3 ] && [ "$(field "$d/$n-auto.json" "['statistics']['verdict']")" = PASS ] \
    || note "$n: correct su(8) in $dt, statistics alone: exit $rc (want 3: the proof not run), statistics $(field "$d/$n-auto.json" "['statistics']['verdict']")"
  [ "$(field "$d/$n-auto.json" "['statistics']['steps']")" = 200 ] || note "$n: statistics alone, not 200 rows"
  rc=$(verify $n-bad $p auto --max-steps 0 "$d/$n-bad"/*.tsv)
  [ "$rc" = 1 ] || note "$n: $e u per step planted, reference $(field "$d/$n-bad-auto.json" "['statistics']['reference']"): exit $rc, want 1 (p $(field "$d/$n-bad-auto.json" "['statistics']['p_value']"))"
}
alone big float32 binary32 0.3 5.9604644775390625e-08
alone big64 float64 binary64 1 1.1102230246251565e-16
[ $fail -eq 0 ] && echo "t-verify-reference: the double and the accurate reference judge as the certified one; 0.3 u and 1 u per step FAIL with them"
exit $fail
