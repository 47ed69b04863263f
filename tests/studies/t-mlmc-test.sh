#!/bin/sh
# t-mlmc-test.sh — `slpi mlmc --test`, Giles' mlmc_test (studies/mlmc-test.c;
# docs/noise.md#mlmc-test):
#  1. the report's bytes are the same on 1 and 2 threads, with and without a checkpoint;
#  2. on OU noise with an expression phi, its levels' means and variances are those of
#     `slpi mlmc` with as many pilot paths (the same paths, the same coupling; to the
#     rounding of the sums, 1e-9); the check, the rates and the sweep's levels and costs
#     are recomputed from the JSON's numbers by docs/noise.md#mlmc-test's formulas;
#  3. a test killed by SIGKILL after its first chunk leaves a checkpoint, and --resume
#     (2 threads) prints the bytes of the uninterrupted test; with other --eps too (the
#     sweep is no part of the state); another --paths is refused naming paths=;
#  4. bad input exits 2 with a clear message: levels too few, --paths out of range, an
#     empty or negative --eps, an option of the other mode, a cut checkpoint.
# The CLI against Python's slpi.mlmc_test, digit for digit: python/tests/test_ou_studies.py.
set -u
cd "$(dirname "$0")/../.." || exit 2
b="${SLPI_BUILD:-build}"
slpi="${SLPI_BIN:-$b/slpi}"
py=${SLPI_PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
fail=0
bad() { echo "t-mlmc-test: FAIL: $*" >&2; fail=1; }
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1
t="--preset iso/rigid-body/weak --levels 2..6 --paths 3000 --phi x1*x2+x3^2"

OMP_NUM_THREADS=1 "$slpi" mlmc --test $t --threads 1 noise_tau=0.05 --json "$tmp/a.json" > "$tmp/a.txt" 2>/dev/null ||
  bad "the test failed"
grep -q '^alpha .* beta .* gamma ' "$tmp/a.txt" || bad "no rates in the report: $(tail -5 "$tmp/a.txt")"
grep -q '^no warning' "$tmp/a.txt" || bad "a warning on a sound coupling: $(grep WARNING "$tmp/a.txt")"
grep -qi 'nan' "$tmp/a.txt" && bad "the report prints nan (the level l0's kurtosis and check are undefined: -)"
grep -q '^2 .* - .* -  *$' "$tmp/a.txt" || bad "level 2 (l0) does not print - for its kurtosis and check"
OMP_NUM_THREADS=2 "$slpi" mlmc --test $t --threads 2 noise_tau=0.05 --checkpoint "$tmp/every.ck" > "$tmp/b.txt" \
  2>/dev/null || bad "the checkpointed test failed"
cmp -s "$tmp/a.txt" "$tmp/b.txt" || bad "2 threads and a checkpoint print other bytes than 1 thread"

"$slpi" mlmc --preset iso/rigid-body/weak --levels 2..6 --pilot 3000 --rmse 10 --phi 'x1*x2+x3^2' noise_tau=0.05 \
  --json "$tmp/m.json" > /dev/null 2>&1 || bad "slpi mlmc failed"
if "$py" -c 'import json' 2>/dev/null; then
  "$py" - "$tmp/a.json" "$tmp/m.json" << 'EOF' || bad "the test's levels against slpi mlmc's (above)"
import json, math, sys
t, m = (json.load(open(f)) for f in sys.argv[1:3])
lt, lm = t["levels"], m["levels"]
assert len(lm) == 3 and all(x["paths"] == 3000 for x in lm), "slpi mlmc did not stop at its pilot paths"
for a, b in zip(lt, lm):
    for k in ("mean", "var"):
        assert abs(a[k] - b[k]) <= 1e-9 * abs(b[k]), (a["level"], k, a[k], b[k])
for j in range(1, len(lt)):
    y, p, q = lt[j], lt[j], lt[j - 1]
    s = math.sqrt(y["var"] / y["paths"]) + math.sqrt(p["var_p"] / p["paths"]) + math.sqrt(q["var_p"] / q["paths"])
    want = abs(y["mean"] - p["mean_p"] + q["mean_p"]) / (3 * s)
    assert abs(lt[j]["check"] - want) <= 1e-12 * want, (j, lt[j]["check"], want)
assert lt[0]["check"] is None and lt[0]["kurtosis"] is None and t["flags"] == []
def rate(key):   # minus the OLS slope of log2 |v| on l over the levels above l0
    xs = [x["level"] for x in lt[1:]]
    ys = [math.log2(abs(x[key])) for x in lt[1:]]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return -sum((a - mx) * (b - my) for a, b in zip(xs, ys)) / sum((a - mx) ** 2 for a in xs)
for r, want in (("alpha", rate("mean")), ("beta", rate("var")), ("gamma", -rate("cost"))):   # cost ~ 2^(gamma l)
    assert abs(t[r] - want) <= 1e-9 * abs(want), (r, t[r], want)
assert t["fit_levels"] == [len(lt) - 1] * 3
for sw in t["sweep"]:   # eps whose level was tested: its costs from the measured levels
    L = sw["level"] - lt[0]["level"]
    if L >= len(lt):
        continue
    e, v, c = sw["eps"], [x["var"] for x in lt[:L + 1]], [x["cost"] for x in lt[:L + 1]]
    s = sum(math.sqrt(a * b) for a, b in zip(v, c))
    n = [max(1, math.ceil(2 / e ** 2 * math.sqrt(a / b) * s)) for a, b in zip(v, c)]
    assert sw["paths"] == n and sw["mlmc_cost"] == sum(a * b for a, b in zip(n, c)), (sw, n)
    assert sw["mc_cost"] == math.ceil(2 * lt[L]["var_p"] / e ** 2) * 2 ** sw["level"], sw
    m = [abs(x["mean"]) for x in lt]
    a = max(0.5, t["alpha"])
    assert max(m[L], m[L - 1] / 2 ** a) / (2 ** a - 1) <= e / math.sqrt(2), sw
    assert L == 2 or max(m[L - 1], m[L - 2] / 2 ** a) / (2 ** a - 1) > e / math.sqrt(2), sw
EOF
fi

OMP_NUM_THREADS=1 "$slpi" mlmc --test $t --threads 1 noise_tau=0.05 --checkpoint "$tmp/kill.ck" > /dev/null 2>&1 &
pid=$!
while ! grep -q '^level 1 ' "$tmp/kill.ck" 2>/dev/null && kill -0 $pid 2>/dev/null; do sleep 0.02; done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
grep -q '^level 1 ' "$tmp/kill.ck" || bad "no checkpoint after the first level"
OMP_NUM_THREADS=2 "$slpi" mlmc --test $t --threads 2 noise_tau=0.05 --resume "$tmp/kill.ck" > "$tmp/resumed.txt" \
  2>/dev/null || bad "the resumed test failed"
cmp -s "$tmp/a.txt" "$tmp/resumed.txt" || bad "the resumed test prints other bytes"
"$slpi" mlmc --test $t noise_tau=0.05 --eps 0.001 > "$tmp/eps.txt" 2>/dev/null
"$slpi" mlmc --test $t noise_tau=0.05 --eps 0.001 --resume "$tmp/every.ck" > "$tmp/eps-resumed.txt" 2>/dev/null
cmp -s "$tmp/eps.txt" "$tmp/eps-resumed.txt" && grep -q '^0.001 ' "$tmp/eps.txt" ||
  bad "a checkpoint resumed with another --eps prints other bytes"

# refuse WHAT PATTERN ARGS...: exit 2 and a message matching PATTERN
refuse() {
  what=$1 pat=$2
  shift 2
  "$slpi" mlmc "$@" > "$tmp/out.txt" 2> "$tmp/err.txt"
  rc=$?
  [ $rc -eq 2 ] && grep -q -- "$pat" "$tmp/err.txt" || bad "$what: exit $rc, $(cat "$tmp/err.txt")"
}
p="--preset iso/rigid-body/weak"
refuse "one level above l0" "slpi mlmc: levels 2..3: need 0 <= l0 and l0 + 2 <= L <= 24" --test $p --levels 2..3
refuse "one path" "--paths.*1" --test $p --paths 1
refuse "a negative eps" "--eps" --test $p --eps 0.1,-1
refuse "an empty eps" "--eps" --test $p --eps ''
refuse "17 eps" "expected 1..16 positive RMSEs" --test $p --eps 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17
refuse "--rmse with --test" "--rmse sets an estimate to a requested RMSE: --test has no use for it" --test $p --rmse 1
refuse "--pilot with --test" "--pilot sets an estimate" --test $p --pilot 10
refuse "--paths without --test" "--paths is an option of --test" $p --rmse 0.1 --paths 10
refuse "another --paths" "paths=" --test $t --paths 2000 noise_tau=0.05 --resume "$tmp/every.ck"
head -c 400 "$tmp/every.ck" > "$tmp/cut.ck"
refuse "a cut checkpoint" "cut.ck:[0-9]*: a cut file" --test $t noise_tau=0.05 --resume "$tmp/cut.ck"
refuse "an mlmc checkpoint" "not a checkpoint\\|slpi-mlmc-checkpoint" --test $t noise_tau=0.05 --resume \
  tests/studies/t-mlmc-test.sh
[ $fail -eq 0 ] && echo "t-mlmc-test: PASS"
exit $fail
