#!/bin/sh
# t-screen.sh — reports/multiverse/screen.sh and reports/multiverse/screen-verdict.sh, the kernel and libm screen
# (docs/claims.md#screen), with a stand-in for slpi whose numbers are a function of the
# member's kernel (K) and libm (P): the screened claims are those declaring neither blas
# nor libm (or those --only names), each over the 16 members {4 kernels} x {glibc, mpfr,
# mpfr-up, mpfr-down}
# with its other "%" lines dropped; a claim CAN DECIDE when the verdicts differ, when a
# check's outcome differs (a control's too), when a decisive number's spread reaches a
# tenth of its margin to the bound, or when the margin is under what six digits resolve;
# else it CANNOT DECIDE with the largest ratio; screen.json keeps what the verdict read;
# --max runs part (INCOMPLETE) and a second run resumes; a bad argument, an unknown claim
# or a missing screen.json exits 2.
command -v jq >/dev/null || { echo "t-screen: SKIP: jq is not installed (as root: apt-get install jq)"; exit 77; }
dir=$(mktemp -d /tmp/slpi-t-screen-XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
# the stand-in: the claim's value is $VALUE evaluated by sh (K, P and S set), judged by
# $BOUND ('"x":1' or '"lo":0.7,"hi":1.3'); $VERDICT, $CTL (the control's outcome) likewise
cat > "$dir/slpi" <<'STAND'
#!/bin/sh
S=0 D= K=${OPENBLAS_CORETYPE:-} P=${LD_PRELOAD:-} C=
while [ $# -gt 0 ]; do
  case $1 in --out) D=$2; shift ;; --seed-offset) S=$2; shift ;; --claims) C=$2; shift ;; esac
  shift
done
echo "$K $P $S ${SLPI_CRMATH_ROUND:-}" >> "${CALLS:-/dev/null}"
[ -z "$C" ] || cp "$C" "${REGCOPY:-/dev/null}"
v=$(eval "${VALUE:-echo 0.5}"); V=$(eval "${VERDICT:-echo CONFIRMED}"); O=$(eval "${CTL:-echo not met}")
mkdir -p "$D" && printf '{"claims":[{"id":"X1","verdict":"%s","checks":[{"role":"claim","line":7,"outcome":"met","value":%s,"numbers":{"value":%s}%s},{"role":"fails","line":8,"outcome":"%s","value":9,"numbers":{}}]}],"provenance":"openblas=%s\\n","rules_digest":"d1"}\n' \
  "$V" "$v" "$v" "${BOUND:+,\"bound\":{$BOUND\}}" "$O" "${K:-Autodetected}" > "$D/claims.json"
STAND
chmod +x "$dir/slpi"
: > "$dir/crmath.so"
cat > "$dir/claims.txt" <<'REG'
= X1 | s | m | p | -
% X1 | seeds | 0 1000 2000 | three noises
% X1 | fit | wls ols | two fits
X1 | src | CONFIRMED | claim | case | max H0_dev <= 1 | -
= X2 | s | m | p | -
% X2 | blas | Haswell Prescott | two kernels
X2 | src | CONFIRMED | claim | case | max H0_dev <= 1 | -
= X3 | s | m | p | -
X3 | src | CONFIRMED | claim | case | max H0_dev <= 1 | -
REG
sc() { n=$1; shift; SLPI_CRMATH=$dir/crmath.so sh reports/multiverse/screen.sh "$dir/slpi" "$dir/$n" --claims "$dir/claims.txt" "$@" > "$dir/$n.out" 2>&1; }
row() {   # NAME ID PATTERN: claim ID's row of run NAME matches PATTERN
  grep -q -- "^$2	$3" "$dir/$1/screen.tsv" 2>/dev/null || { echo "t-screen: FAIL: $1: $(grep "^$2	" "$dir/$1/screen.tsv" 2>/dev/null || cat "$dir/$1.out") (want /$2	$3/)"; fail=1; }
}
# which claims, which members: X1 and X3 (X2 declares a kernel), 16 members each, every
# kernel and libm once, seed offset 0 (X1's seeds and fit dropped)
: > "$dir/calls"
BOUND='"x":1' CALLS=$dir/calls REGCOPY=$dir/reg sc flat || { echo "t-screen: FAIL: flat exited: $(cat "$dir/flat.out")"; fail=1; }
[ "$(cut -f1 "$dir/flat/screen.tsv" | tr '\n' ' ')" = "X1 X3 " ] || { echo "t-screen: FAIL: screened $(cut -f1 "$dir/flat/screen.tsv" | tr '\n' ' '), not X1 X3"; fail=1; }
[ "$(wc -l < "$dir/calls")" = 32 ] && [ "$(sort -u "$dir/calls" | wc -l)" = 16 ] || { echo "t-screen: FAIL: $(wc -l < "$dir/calls") runs, not 16 distinct members of 2 claims"; fail=1; }
for e in "Prescott  0 near" "Cooperlake $dir/crmath.so 0 near" "Sandybridge $dir/crmath.so 0 up" "Haswell $dir/crmath.so 0 down" "Haswell  0 near"; do
  grep -qxF "$e" "$dir/calls" || { echo "t-screen: FAIL: no member ran as '$e'"; fail=1; }
done
grep -q '^% X1 | \(seeds\|fit\)' "$dir/reg" && { echo "t-screen: FAIL: X1's own choices were kept in the derived registry"; fail=1; }
grep -q '^% X2 | blas | Haswell Prescott' "$dir/reg" || { echo "t-screen: FAIL: X2's declared kernels were changed"; fail=1; }
[ "$(grep -c '^% X3 | \(blas\|libm\) |' "$dir/reg")" = 2 ] || { echo "t-screen: FAIL: X3 lacks the screen's two lines"; fail=1; }
row flat X1 '16	CONFIRMED	CANNOT DECIDE	0	largest spread/margin at check 1 (- | -)$'
# what the verdict reads is kept per claim (the archive's copy): the 16 members in order,
# with their coordinates and checks; the verdict from it alone gives the same row
[ "$(jq -r '[.[] | "\(.member) \(.coordinates) \(.checks | length)"] | join(",")' "$dir/flat/X3/screen.json")" = \
  "1 blas=Prescott libm=glibc 2,2 blas=Prescott libm=mpfr 2,3 blas=Prescott libm=mpfr-up 2,4 blas=Prescott libm=mpfr-down 2,5 blas=Sandybridge libm=glibc 2,6 blas=Sandybridge libm=mpfr 2,7 blas=Sandybridge libm=mpfr-up 2,8 blas=Sandybridge libm=mpfr-down 2,9 blas=Haswell libm=glibc 2,10 blas=Haswell libm=mpfr 2,11 blas=Haswell libm=mpfr-up 2,12 blas=Haswell libm=mpfr-down 2,13 blas=Cooperlake libm=glibc 2,14 blas=Cooperlake libm=mpfr 2,15 blas=Cooperlake libm=mpfr-up 2,16 blas=Cooperlake libm=mpfr-down 2" ] ||
  { echo "t-screen: FAIL: screen.json: $(jq -c 'map(.coordinates)' "$dir/flat/X3/screen.json")"; fail=1; }
[ "$(sh reports/multiverse/screen-verdict.sh X3 "$dir/flat/X3/screen.json")" = "$(grep '^X3	' "$dir/flat/screen.tsv")" ] ||
  { echo "t-screen: FAIL: the verdict from screen.json differs from the run's row"; fail=1; }
sh reports/multiverse/screen-verdict.sh X3 "$dir/none.json" > /dev/null 2>&1; [ $? = 2 ] || { echo "t-screen: FAIL: a missing screen.json did not exit 2"; fail=1; }
# the rule's parts, one claim at a time
want() {   # NAME PATTERN, with VALUE, BOUND, VERDICT, CTL from the environment
  sc "$1" --only X3 || { echo "t-screen: FAIL: $1 exited: $(cat "$dir/$1.out")"; fail=1; }
  row "$1" X3 "$2"
}
# a spread of 0.04 against the nearest member's margin 0.46 (ratio 0.087): cannot decide;
# 0.05 against 0.45 (0.111): can
VALUE='[ "$K" = Haswell ] && echo 0.54 || echo 0.5' BOUND='"x":1' want small '16	CONFIRMED	CANNOT DECIDE	8.7e-2	'
VALUE='[ "$K" = Haswell ] && echo 0.55 || echo 0.5' BOUND='"x":1' want tenth '16	CONFIRMED	CAN DECIDE	1.11e-1	check 1 (- | -): spread'
# a window: the margin is to the nearer edge (0.2 to 1.3)
VALUE='[ -n "$P" ] && echo 1.1 || echo 1.09' BOUND='"lo":0.7,"hi":1.3' want window '16	CONFIRMED	CANNOT DECIDE	5e-2	'
# a margin six digits cannot resolve: 1.000001 against 1
VALUE='echo 1.000001' BOUND='"x":1' want tight '16	CONFIRMED	CAN DECIDE	0	check 1 (- | -): margin .* six digits'
# the verdicts differ; a control's outcome differs
VERDICT='[ "$K" = Prescott ] && echo DISCREPANCY || echo CONFIRMED' BOUND='"x":1' want verdict '16	CONFIRMED DISCREPANCY	CAN DECIDE	.*	verdicts differ$'
CTL='[ -n "$P" ] && echo met || echo not met' BOUND='"x":1' want control '16	CONFIRMED	CAN DECIDE	0	check 2 (- | -): outcomes differ'
# no bound: outcomes only
VALUE='[ -n "$P" ] && echo 3 || echo 4' want nobound '16	CONFIRMED	CANNOT DECIDE	-	no decisive number with a bound'
# --only screens a claim whatever it declares (X2: a known case for the power)
BOUND='"x":1' sc known --only X2 && row known X2 '16	CONFIRMED	CANNOT DECIDE'
# in pieces: 3 members, then 6 more (9: more than the 8 of the screens before the
# directed libms, fewer than their 16), then the 7 others, each once
: > "$dir/calls"
BOUND='"x":1' CALLS=$dir/calls sc part --only X3 --max 3; row part X3 '3	CONFIRMED	INCOMPLETE'
BOUND='"x":1' CALLS=$dir/calls sc part --only X3 --max 6; row part X3 '9	CONFIRMED	INCOMPLETE'
BOUND='"x":1' CALLS=$dir/calls sc part --only X3; row part X3 '16	CONFIRMED	CANNOT DECIDE'
[ "$(wc -l < "$dir/calls")" = 16 ] || { echo "t-screen: FAIL: resumed: $(wc -l < "$dir/calls") member runs, not 16"; fail=1; }
# refusals
sc bad1 --only X9; [ $? = 2 ] && grep -q "has no claim X9" "$dir/bad1.out" || { echo "t-screen: FAIL: an unknown claim: $(cat "$dir/bad1.out")"; fail=1; }
sc bad2 --max two; [ $? = 2 ] && grep -q "wants a count" "$dir/bad2.out" || { echo "t-screen: FAIL: a bad --max: $(cat "$dir/bad2.out")"; fail=1; }
sc bad3 --fast; [ $? = 2 ] && grep -q "unknown argument '--fast'" "$dir/bad3.out" || { echo "t-screen: FAIL: an unknown argument: $(cat "$dir/bad3.out")"; fail=1; }
[ $fail = 0 ] && echo "t-screen: ok (claims and members, spread against a tenth of the margin, windows, six digits, verdicts, controls, no bound, --only, resumed, refusals)"
exit $fail
