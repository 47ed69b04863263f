#!/bin/sh
# t-verify-diagnosis.sh — the diagnosis beside a statistical FAIL (oracle/README.md#diagnosis,
# oracle/diagnose.c): the C float ports of tests/port/ (written from the docs, never from
# fast/ or ref/) with planted defects, verified at binary32 with --local over 2000 steps
# of the rigid body (of Euler-Zeitlin su(8): 240 for the transposed factor, 60 for the
# update) on a noise path drawn from the seed:
#   - correct: the statistics PASS, no diagnosis line is printed and JSON names none;
#   - every noise amplitude off by 1e-4: the first ingredient named is "noise", off by
#     1e-4 (within 10 %, sign included: so for the next two);
#   - the update's commutator off by 2^-16: "update", and not a noise;
#   - the drift's I^-1_2 off by 1.6e-4: "drift dH/dx2";
#   - Psi Y Psi/4 with a transposed factor (so(3)'s vector form, and su(8)'s matrices):
#     "Psi Y Psi/4", and not a noise;
#   - noise by component (rigid body): noises 1 and 2 swapped, "noise 1 and 2 swapped" off
#     by 1; noise 1's sign flipped, "noise 1" off by -2; half of the swap, off by 1/2;
#   - Psi Y Psi/4 with its factors reordered (Psi Psi Y in the algebra, written in the ports
#     apart from fast/): "Psi Y Psi/4 reordered" off by 1 (rigid body), by 1000 (su(8));
#   - the noise amplitudes off by 4e-4 on steps 600..799 only: the window named lies in
#     500..899, "noise" is first on its rows (by the whole range's share the swap of
#     noises 1 and 2 is: docs/power.md#window-first), its relative error there within a
#     factor 2 of 4e-4, and a group, if the line has one (text and JSON), starts with it;
#   - the same two paths pooled (update off): named in the JSON, which read every row;
#   - a correct port declared at u = 2^-30 (a size FAIL of rounding, no ingredient): the
#     line says no ingredient explains it better than chance;
#   - the solve stopped one iteration after its start: "solver stop", off by 1 (within 10 %);
#   - the SVI rigid body's port (rb-svi.c): correct, PASS; noises 1 and 2 mixed by 1e-3,
#     "noise 1 and 2 swapped" off by 1e-3;
#   - models/rigid-body-time.slpi's port (rb-isomp.c -DRB_TIME): correct, PASS; the
#     midpoint's t read at t_n: "time stage", off by -1/2 (within 10 %).
set -u
slpi=${SLPI_BIN:-./build/slpi}
slpi=$(cd "$(dirname "$slpi")" && pwd)/$(basename "$slpi")
. "$(dirname "$0")/prelude.sh"
command -v "${CC:-cc}" > /dev/null || { echo "t-verify-diagnosis: SKIP: no C compiler"; exit 77; }
seed=${SLPI_TEST_SEED:-$(date +%s)}
echo "t-verify-diagnosis: seed $seed (replay with SLPI_TEST_SEED=$seed)"
path=$((seed % 100000 + 30000))
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
for p in rb:rb-isomp zeitlin:zeitlin-isomp rbt:rb-isomp:-DRB_TIME svi:rb-svi; do
  set -- $(echo "$p" | tr ':' ' ')
  ${CC:-cc} -std=c11 -O2 -ffp-contract=off -DREAL=float ${3:-} -o "$d/$1" "tests/port/$2.c" -lm \
    || { note "cannot build tests/port/$2.c ${3:-}"; exit 1; }
done
$slpi noise --preset iso/rigid-body/trajectories steps=2000 path=$path -o "$d/rb.noise" 2> /dev/null || { note "slpi noise"; exit 1; }
$slpi noise --preset iso/rigid-body/trajectories steps=2000 path=$((path + 1)) -o "$d/rb2.noise" 2> /dev/null || { note "slpi noise"; exit 1; }
$slpi noise --preset iso/zeitlin/strong N=8 ic_lmax=7 steps=240 path=$path -o "$d/ez.noise" 2> /dev/null || { note "slpi noise"; exit 1; }
$slpi noise --preset svi/rigid-body/paths steps=2000 path=$path -o "$d/svi.noise" 2> /dev/null || { note "slpi noise"; exit 1; }
$slpi noise --config models/rigid-body-time.slpi scheme=isomp h=0.00390625 steps=2000 path=$path -o "$d/rbt.noise" 2> /dev/null \
  || { note "slpi noise"; exit 1; }

# verify PORT NOISE STEPS DEFECT MAG: the port's trajectory verified; $d/out its report
verify() {
  "$d/$1" "$d/$2" $3 $4 $5 > "$d/t.traj" || { note "$1 $4 $5: the port failed"; return 1; }
  $slpi verify --precision ${PREC:-binary32} --local --json "$d/v.json" "$d/t.traj" > "$d/out" 2>&1
}
# the first ingredient named, and its estimate
first() { sed -n 's/^diagnosis: \([^;]*\) off by .*/\1/p' "$d/out"; }
first_rel() { sed -n 's/^diagnosis: [^;]* off by \([^ ]*\) .*/\1/p' "$d/out"; }
# NAME WANT REL: the first named is WANT, its estimate within 10 % of REL
named_as() {
  [ "$(first)" = "$2" ] || { note "$1: first named '$(first)', expected '$2': $(grep '^diagnosis' "$d/out")"; return; }
  awk -v r="$(first_rel)" -v w="$3" 'BEGIN { exit !((r - w) * (r - w) <= 0.01 * w * w) }' \
    || note "$1: $2 off by $(first_rel), expected $3 within 10 %"
}

verify rb rb.noise 2000 none 0
grep -q '^statistics: PASS' "$d/out" || note "correct port: the statistics do not PASS: $(grep '^statistics:' "$d/out" | head -1)"
grep -q '^diagnosis' "$d/out" && note "correct port: a diagnosis line: $(grep '^diagnosis' "$d/out")"
named=$($py -c "import json, sys; g = json.load(open(sys.argv[1]))['statistics']['diagnosis']; print(g['named'], g['rows'])" "$d/v.json")
# a PASS pays no diagnosis: its second pass runs only where the statistics FAIL (oracle/README.md#diagnosis)
[ "$named" = "False 0" ] || note "correct port: JSON diagnosis.named and rows are '$named', not 'False 0'"
for c in "amp 1e-4 noise" "upd 1.52587890625e-05 update" "trans 1 Psi Y Psi/4" "lap 1.6e-4 drift dH/dx2"; do
  set -- $c
  want=$(echo "$c" | cut -d' ' -f3-)
  verify rb rb.noise 2000 $1 $2
  grep -q '^statistics: FAIL' "$d/out" || { note "rigid body $1 $2: the statistics do not FAIL"; continue; }
  if [ "$1" = trans ]; then
    [ "$(first)" = "$want" ] || note "rigid body $1 $2: first named '$(first)', expected '$want': $(grep '^diagnosis' "$d/out")"
  else # a relative error planted: the estimate is it, sign included, within 10 %
    named_as "rigid body $1 $2" "$want" "$2"
  fi
done
for c in "swap 1 1 noise 1 and 2 swapped" "swap 0.5 0.5 noise 1 and 2 swapped" "sign 1 -2 noise 1" \
  "reord 1 1 Psi Y Psi/4 reordered"; do
  set -- $c
  want=$(echo "$c" | cut -d' ' -f4-)
  verify rb rb.noise 2000 $1 $2
  grep -q '^statistics: FAIL' "$d/out" || { note "rigid body $1 $2: the statistics do not FAIL"; continue; }
  named_as "rigid body $1 $2" "$want" "$3"
done
verify zeitlin ez.noise 240 reord 1000
named_as "Euler-Zeitlin reord 1000" "Psi Y Psi/4 reordered" 1000
# su(8): Psi Y Psi/4 is a small term (a transposed factor moves a step by 0.02 u |x|):
# the factor's weight 1000 and the update's 2e-4 are some 15 and 5 u |x| per step. The
# factor over 240 steps: over 60, the statistics missed it on about 1 noise path in 6
# (seed 1795786803 was one; t near 4 at the median, against 3.1 at alpha); t grows as
# sqrt(steps), so 240 steps put the median near 8 and a miss near 1e-7.
verify zeitlin ez.noise 240 trans 1000
[ "$(first)" = "Psi Y Psi/4" ] || note "Euler-Zeitlin trans 1000: first named '$(first)': $(grep '^diagnosis' "$d/out")"
verify zeitlin ez.noise 60 upd 2e-4
[ "$(first)" = "update" ] || note "Euler-Zeitlin upd 2e-4: first named '$(first)': $(grep '^diagnosis' "$d/out")"

PORT_WINDOW=600:800 verify rb rb.noise 2000 amp 4e-4
w=$(sed -n 's/.*the first in steps \([0-9]*\)\.\.\([0-9]*\) (off by \([^ ]*\) there).*/\1 \2 \3/p' "$d/out")
if [ -z "$w" ]; then
  note "amp 4e-4 on steps 600..799: no window: $(grep '^diagnosis' "$d/out")"
else
  set -- $w
  [ "$1" -ge 500 ] && [ "$2" -le 899 ] || note "amp 4e-4 on steps 600..799: window $1..$2 not within 500..899"
  # near x3 = 0 the swap moves the step as the amplitudes do, -2 times (psi x y along e3,
  # y1 y2 (dW1 - dW2) either way), and its direction is short outside the window: the
  # first must be the window's, noise
  [ "$(first)" = noise ] || note "amp 4e-4 on steps 600..799: first named '$(first)', not noise: $(grep '^diagnosis' "$d/out")"
  awk -v r="$3" 'BEGIN { exit !(r > 2e-4 && r < 8e-4) }' || note "amp 4e-4 on steps 600..799: off by $3 in the window"
  group=$($py -c "import json, sys; print('|'.join(json.load(open(sys.argv[1]))['statistics']['diagnosis']['indistinguishable']))" "$d/v.json")
  case "|$group|" in
    "||" | "|noise|"*) ;;
    *) note "amp 4e-4 on steps 600..799: the JSON's indistinguishable group '$group' does not start with noise" ;;
  esac
  if grep -q "^diagnosis: .*: indistinguishable" "$d/out"; then
    grep -Eq "^diagnosis: .*; noise(,| or) .*: indistinguishable on the rows of steps $1\.\.$2, the first's window \(angle" "$d/out" \
      || note "amp 4e-4 on steps 600..799: a group not on the window's rows or not led by noise: $(grep '^diagnosis' "$d/out")"
  fi
fi

# two paths pooled, the update off: the diagnosis in JSON and in Python
"$d/rb" "$d/rb.noise" 2000 upd 1.52587890625e-05 > "$d/a.traj" && "$d/rb" "$d/rb2.noise" 2000 upd 1.52587890625e-05 > "$d/b.traj" \
  || note "pooled: the port failed"
$slpi verify --precision binary32 --local --json "$d/v.json" "$d/a.traj" "$d/b.traj" > /dev/null 2>&1
got=$($py -c "import json, sys; s = json.load(open(sys.argv[1]))['statistics']; d = s['diagnosis']
print(s['paths'], d['rows'] == s['steps'] > 3990, d['named'], d['ingredients'][0]['ingredient'])" "$d/v.json" 2> "$d/py.err")
[ "$got" = "2 True True update" ] || note "pooled: '$got' (expected '2 True True update': paths, every row, named): $(tail -2 "$d/py.err")"

PREC=u=0x1p-30 verify rb rb.noise 2000 none 0
grep -q '^statistics: FAIL' "$d/out" || note "u = 2^-30: the statistics do not FAIL"
grep -q '^diagnosis: no ingredient of the step explains the deviation better than chance' "$d/out" \
  || note "u = 2^-30: $(grep '^diagnosis' "$d/out")"

verify rb rb.noise 2000 early 1
named_as "rigid body early 1" "solver stop" 1
verify svi svi.noise 2000 none 0
grep -q '^statistics: PASS' "$d/out" || note "SVI rigid body, correct port: $(grep '^statistics:' "$d/out" | head -1)"
verify svi svi.noise 2000 swap 1e-3
named_as "SVI rigid body swap 1e-3" "noise 1 and 2 swapped" 1e-3
verify rbt rbt.noise 2000 none 0
grep -q '^statistics: PASS' "$d/out" || note "rigid-body-time, correct port: $(grep '^statistics:' "$d/out" | head -1)"
verify rbt rbt.noise 2000 stage -0.5
named_as "rigid-body-time stage -0.5" "time stage" -0.5

[ $fail -eq 0 ] && echo "t-verify-diagnosis: noise, noise by component (a swap, a sign), update, Psi Y Psi/4 and its reordered factors, the solver's stop and the time stage named for their defects (rigid body, su(8), SVI, a time-dependent model), a local defect's window found and its ties called on its rows, pooled paths, nothing named for rounding"
exit $fail
