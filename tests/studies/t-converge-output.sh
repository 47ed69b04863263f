#!/bin/sh
# t-converge-output.sh — `slpi converge -o FILE --json FILE`: the report file holds the
# same bytes as standard output would, opens with the provenance and the problem keys,
# and the JSON document says the same study: every level's error and standard error and
# every slope and its CI read from the JSON equal the text table's printed digits. A
# resumed study writes the same report and JSON as an uninterrupted one.
set -u
slpi=${SLPI_BIN:-./build/slpi}
fail=0
note() { echo "t-converge-output: FAIL: $*" >&2; fail=1; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
A="--preset iso/rigid-body/strong --paths 64 --batches 8 --levels 2..4 --ref 6 --boot 50 --indep rkmk-heun"
$slpi converge $A -o "$d/a.txt" --json "$d/a.json" 2>/dev/null || note "converge -o --json failed"
$slpi converge $A > "$d/b.txt" 2>/dev/null || note "converge to standard output failed"
cmp -s "$d/a.txt" "$d/b.txt" || note "the -o report differs from standard output"
head -1 "$d/a.txt" | grep -qx '# slpi-converge 1' || note "no '# slpi-converge 1' first line"
for k in slpi_version git_rev arb flint mpfr gmp openblas libc compiler cflags problem.system problem.scheme problem.seed; do
  grep -q "^# $k=" "$d/a.txt" || note "no '# $k=' provenance line"
done
python3 - "$d/a.txt" "$d/a.json" <<'PY' || fail=1
import json, sys
text = open(sys.argv[1]).read().splitlines()
doc = json.load(open(sys.argv[2]))
bad = []
head = next(l for l in text if l.startswith("level"))
cols = [c for c in head.split()[2:] if c != "SE"]
rows = [l.split() for l in text if l[:1].isdigit()]
if len(rows) != len(doc["levels"]) or not rows:
    bad.append("%d text levels, %d JSON levels" % (len(rows), len(doc["levels"])))
for r, lv in zip(rows, doc["levels"]):
    if int(r[0]) != lv["level"] or float(r[1]) != lv["h"]:
        bad.append("level %s: h differs" % r[0])
    for j, c in enumerate(cols):
        e, se = float(r[2 + 2 * j]), float(r[3 + 2 * j])
        if "%.6e" % lv[c]["e"] != "%.6e" % e or "%.3e" % lv[c]["se"] != "%.3e" % se:
            bad.append("level %s column %s: text %g +- %g, JSON %r +- %r" % (r[0], c, e, se, lv[c]["e"], lv[c]["se"]))
for l in text:
    if l.startswith("slope "):
        w = l.split()
        s = doc["slopes"][w[1]]
        lo, hi = (float(x) for x in l.split("[")[1].split("]")[0].split(","))
        if "%.4f" % s["slope"] != w[2] or "%.4f" % s["ci_lo"] != "%.4f" % lo or "%.4f" % s["ci_hi"] != "%.4f" % hi:
            bad.append("slope %s: text %s [%g, %g], JSON %r" % (w[1], w[2], lo, hi, s))
if not any(l.startswith("slope ") for l in text):
    bad.append("no slope line")
if doc["provenance"]["git_rev"] not in open(sys.argv[1]).read():
    bad.append("the JSON's git_rev is not the text's")
if doc["problem"]["system"] != "rigid-body" or doc["study"]["reference_level"] != 6 or doc["study"]["independent"] != "rkmk-heun":
    bad.append("problem or study fields wrong: %r %r" % (doc["problem"].get("system"), doc["study"]))
for b in bad:
    print("t-converge-output: FAIL: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
# a study resumed from a checkpoint: the same report and JSON
$slpi converge $A --checkpoint "$d/ck" --checkpoint-every 3 -o "$d/c.txt" --json "$d/c.json" 2>/dev/null || note "checkpointed study failed"
$slpi converge $A --resume "$d/ck" -o "$d/r.txt" --json "$d/r.json" 2>/dev/null || note "resumed study failed"
cmp -s "$d/a.txt" "$d/r.txt" || note "the resumed report differs"
cmp -s "$d/a.json" "$d/r.json" || note "the resumed JSON differs"
# the slope fit's choices (a multiverse member's, docs/claims.md#multiverse): the same
# levels' numbers, another slope; equal weights (--fit ols) recomputed here from the table's
# errors; the coarsest level left out of the fit (--drop-coarse 1): one level fewer fitted
$slpi converge $A --fit ols > "$d/ols.txt" 2>/dev/null || note "converge --fit ols failed"
$slpi converge $A --drop-coarse 1 > "$d/drop.txt" 2>/dev/null || note "converge --drop-coarse 1 failed"
grep -qx "# slope fit: equal weights (OLS), the 0 coarsest level(s) left out" "$d/ols.txt" || note "--fit ols is not named in the report"
grep -q "^# slope fit" "$d/a.txt" && note "the default fit is named"
[ "$(grep -v '^# \|^slope' "$d/a.txt")" = "$(grep -v '^# \|^slope' "$d/ols.txt")" ] || note "--fit ols changed the levels' numbers"
python3 - "$d/a.txt" "$d/ols.txt" "$d/drop.txt" <<'PY' || fail=1
import math, sys
def read(p):
    lv, sl = [], {}
    for l in open(p):
        w = l.split()
        if w and w[0].isdigit() and len(w) > 3: lv.append((float(w[1]), float(w[2])))
        if w and w[0] == "slope": sl[w[1]] = (float(w[2]), int(l.split("(")[-1].split()[0]))
    return lv, sl
lv, base = read(sys.argv[1]); _, ols = read(sys.argv[2]); _, drop = read(sys.argv[3])
x = [math.log(h) for h, e in lv]; y = [math.log(e) for h, e in lv]
mx, my = sum(x) / len(x), sum(y) / len(y)
b = sum((a - mx) * (c - my) for a, c in zip(x, y)) / sum((a - mx) ** 2 for a in x)
bad = []
if abs(ols["self"][0] - b) > 1e-3: bad.append("--fit ols slope %g, OLS of the table %g" % (ols["self"][0], b))
if ols["self"][0] == base["self"][0]: bad.append("--fit ols gives the WLS slope")
if drop["self"][1] != base["self"][1] - 1: bad.append("--drop-coarse 1 fits %d levels, the default %d" % (drop["self"][1], base["self"][1]))
for m in bad: print("t-converge-output: FAIL: " + m, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
[ $fail -eq 0 ] && echo "t-converge-output: the report file is standard output's bytes with provenance; JSON levels and slopes equal the table"
exit $fail
