#!/bin/sh
# t-port-numba.sh — the fourth writing of the ports of docs/power.md (tests/port/ports_numba.py,
# numba): its binary64 builds of rigid-body and Euler-Zeitlin ISOMP PASS `slpi verify` at
# binary64, global and local (30 and 4 steps); its binary32 builds PASS
# `--precision binary32 --local` (300 and 20 steps) and write values that are binary32
# numbers; a planted defect far beyond the budget FAILs at binary32 (rigid body: every noise
# amplitude 1 % off, about 600 u|x| per step; Euler-Zeitlin: the first noise mode's sign
# flipped, about 10^4 u|x| per step). SKIP (exit 77) without numba: python3-numba is
# optional, `make power` uses it when it is there.
set -u
slpi=${SLPI_BIN:-./build/slpi}
slpi=$(cd "$(dirname "$slpi")" && pwd)/$(basename "$slpi")
build=${SLPI_BUILD:-./build}
build=$(cd "$build" && pwd)
. "$(dirname "$0")/prelude.sh"
$py -c 'import numba, numpy' 2> /dev/null || { echo "t-port-numba: SKIP: no numba for $py (python3-numba)"; exit 77; }
export NUMBA_CACHE_DIR="$build/numba-cache" OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
rb="--preset iso/rigid-body/trajectories"
ez="--preset iso/zeitlin/strong N=8 ic_lmax=7"
# case: system noise-preset steps dtype defect mag precision verify-options expected-exit
check() {
  sys=$1 pre=$2 steps=$3 dt=$4 def=$5 mag=$6 prec=$7 opt=$8 want=$9
  # shellcheck disable=SC2086
  "$slpi" noise $pre steps="$steps" path=3 -o "$d/$sys.noise" 2> /dev/null || { note "slpi noise $pre"; return; }
  if ! $py tests/port/ports_numba.py "$dt" "$sys" "$d/$sys.noise" "$steps" "$def" "$mag" > "$d/t.tsv" 2> "$d/err"; then
    note "ports_numba.py $dt $sys $def: $(tail -2 "$d/err")"
    return
  fi
  # shellcheck disable=SC2086
  "$slpi" verify -q --precision "$prec" $opt "$d/t.tsv" > "$d/out" 2>&1
  got=$?
  [ "$got" = "$want" ] || note "$sys $dt $def $mag, $steps steps, --precision $prec $opt: exit $got, expected $want: $(cat "$d/out")"
  [ "$dt" = float32 ] || return
  $py -c '
import sys, numpy
for line in open(sys.argv[1]):
    if line[0].isdigit():
        for v in line.split("\t")[2:]:
            x = float.fromhex(v)
            if float(numpy.float32(x)) != x:
                sys.exit("%s is not a binary32 number" % v)' "$d/t.tsv" || note "$sys float32 wrote a value beyond binary32"
}
check rb "$rb" 30 float64 none 0 binary64 "" 0
check zeitlin "$ez" 4 float64 none 0 binary64 "" 0
check rb "$rb" 300 float32 none 0 binary32 --local 0
check zeitlin "$ez" 20 float32 none 0 binary32 --local 0
check rb "$rb" 100 float32 amp 0.01 binary32 --local 1
check zeitlin "$ez" 10 float32 sign 1 binary32 --local 1
[ $fail -eq 0 ] && echo "t-port-numba: binary64 builds PASS binary64, binary32 builds PASS binary32 and write binary32; 1 % amplitude (rigid body) and a flipped mode (Euler-Zeitlin) FAIL"
exit $fail
