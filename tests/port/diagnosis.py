#!/usr/bin/env python3
"""diagnosis.py - the held-out accuracy of verify's diagnosis (docs/power.md#diagnosis-rule).

Runs the C ports of tests/port/ (c-float, c-fma) with the planted defects of port.h on
the rule's held-out paths through `slpi verify --precision binary32 --local --json` (the
harness of power.py), and reads the diagnosis of each statistical FAIL: the first
ingredient named against the defect's expected one. Every run is a line of OUT/diag.tsv;
OUT/diag.md is the table docs/power.md quotes.

The plan `stage-stop` is the second held-out round (docs/power.md#diagnosis-rule-2): the
time stage and the solver's stop, on new paths, with the first round's rigid-body defects
beside them.

usage: diagnosis.py [--plan held-out|stage-stop|smoke] [--out DIR]
       diagnosis.py --check RUNS.tsv [RUNS2.tsv]
                                         docs/power.md's table (between the markers
                                         <!-- diagnosis-table --> and <!-- /diagnosis-table -->)
                                         is the one RUNS.tsv gives, and the second round's
                                         (<!-- diagnosis-table-2 -->) RUNS2.tsv's: exit 0, else 1
Environment: as power.py (SLPI_BIN, SLPI_BUILD, CC). Exit 0 when the plan ran, 2 on a
bad argument."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

from options import options
from power import Harness, UNIT_MAG

# the rule's magnitudes of about 1 u for the defects power.py's grid lacks
NEW_MAG = {"rb": {"upd": 2.2e-5, "trans": 1.5}, "zeitlin": {"upd": 4e-5, "trans": 45.0}}
# the expected first ingredient of each (system, defect); None: run and reported, not judged
EXPECT = {
    "rb": {"drop": "Psi Y Psi/4", "trans": "Psi Y Psi/4", "coef": "[Psi,Y]/2", "upd": "update", "amp": "noise",
           "sign": "noise 1", "lap": "drift dH/dx2"},
    "zeitlin": {"drop": "Psi Y Psi/4", "trans": "Psi Y Psi/4", "coef": "[Psi,Y]/2", "upd": "update",
                "amp": "noise", "sign": None, "lap": "drift"},
    "heavytop": {"drop": None, "coef": None, "amp": "noise", "sign": "noise 1", "lap": "drift dH/dx2"},
}
# the second round (docs/power.md#diagnosis-rule-2): expected first ingredients, and the
# magnitudes of about 1 u of mean effect of the new port rbt (models/rigid-body-time.slpi,
# rb-isomp.c -DRB_TIME; the binary64 build's effect on the seen path 7)
EXPECT2 = {
    "rb": dict(EXPECT["rb"], early="solver stop"),
    "rbt": {"stage": "time stage", "amp": "noise 1", "lap": "drift dH/dx2", "early": "solver stop"},
    "heavytop": {"early": "solver stop"},
}
UNIT_MAG2 = {"rbt": {"stage": -0.007, "amp": 2.7e-5, "lap": 5.6e-5}}
STEPS = {"rb": 2000, "rbt": 2000, "heavytop": 2000, "zeitlin": 300}
PATHS = {"rb": range(8100, 8110), "heavytop": range(8100, 8101), "zeitlin": range(8100, 8101)}
IMPLS = {"rb": ("c-float", "c-fma"), "heavytop": ("c-float",), "zeitlin": ("c-float",)}
ZEITLIN_FACTORS = (4,)  # the cut of 03:23 UTC (docs/power.md#diagnosis-rule)
FACTORS = (1, 4, 16)
FIELDS = ("system", "impl", "defect", "mag", "steps", "path", "effect_mean", "exit", "stat_verdict", "named",
          "first", "expected", "relative_error", "share", "window")


def plan_stage_stop():
    """the second round: (system, impl, defect, mag, steps, path)"""
    out = []
    # the cuts of 07:16 and 07:24 UTC (docs/power.md#diagnosis-rule-2): rbt in the C float
    # build on 8200..8201 and the heavy top on 8200 first, then the rigid body, whose
    # first-round defects stop where the first cut found them (C FMA, path 8205)
    for system, impls, paths in (("rbt", ("c-float",), range(8200, 8202)), ("heavytop", ("c-float",), range(8200, 8201)),
                                 ("rb", IMPLS["rb"], range(8200, 8210))):
        for impl in impls:
            for path in paths:
                out.append((system, impl, "none", 0.0, STEPS[system], path))
                for defect in EXPECT2[system]:
                    if system == "rb" and (impl, path) >= ("c-fma", 8205) and defect != "early":
                        continue
                    if defect == "early":
                        mags = (1.0, 2.0) if system == "heavytop" else (1.0,)
                    else:
                        unit = UNIT_MAG2.get(system, {}).get(defect) or NEW_MAG.get(system, {}).get(defect) or \
                            UNIT_MAG[system][defect]
                        mags = tuple(float("%.2g" % (unit * f)) for f in (FACTORS[:2] if system == "rb" else FACTORS))
                    for mag in mags:
                        out.append((system, impl, defect, mag, STEPS[system], path))
    return out


def plan(name):
    """(system, impl, defect, mag, steps, path) of a plan"""
    if name == "stage-stop":
        return plan_stage_stop()
    out = []
    systems = ("rb",) if name == "smoke" else ("rb", "heavytop", "zeitlin")
    for system in systems:
        paths = PATHS[system][:1] if name == "smoke" else PATHS[system]
        impls = ("c-float",) if name == "smoke" else IMPLS[system]
        for impl in impls:
            for path in paths:
                out.append((system, impl, "none", 0.0, STEPS[system], path))
                for defect in EXPECT[system]:
                    unit = NEW_MAG.get(system, {}).get(defect, UNIT_MAG[system].get(defect))
                    for f in FACTORS[:1] if name == "smoke" else ZEITLIN_FACTORS if system == "zeitlin" else FACTORS:
                        out.append((system, impl, defect, float("%.2g" % (unit * f)), STEPS[system], path))
    return out


def one(h, expect, system, impl, defect, mag, steps, path):
    noise = h.noise(system, steps, path)
    traj = os.path.join(h.out, "traj", "%s-%s-%s-%g-%d.traj" % (system, impl, defect, mag, path))
    os.makedirs(os.path.dirname(traj), exist_ok=True)
    with open(traj, "w") as f:
        import subprocess
        subprocess.run(h.port_argv(impl, system, noise, steps, defect, mag), stdout=f, check=True)
    effect = h.effect(system, noise, steps, defect, mag)[0]
    rc, j = h.verify([traj])
    st = j.get("statistics", {})
    d = st.get("diagnosis") or {}
    ing = d.get("ingredients") or [{}]
    os.remove(traj)
    w = d.get("window")
    return [system, impl, defect, repr(mag), str(steps), str(path), "%.4g" % effect, str(rc), st.get("verdict", ""),
            str(bool(d.get("named"))), ing[0].get("ingredient", "") if d.get("named") else "",
            str(expect[system].get(defect)), "%.4g" % (ing[0].get("relative_error") or 0), "%.3g" % (ing[0].get("share") or 0),
            "%d..%d" % (w["from"], w["to"]) if w else ""]


def table(rows, expect=EXPECT):
    judged = [r for r in rows if r["expected"] not in ("None", "") and float(r["effect_mean"]) >= 1
              and r["stat_verdict"] == "FAIL"]
    right = [r for r in judged if r["first"] == r["expected"]]
    lines = ["| system | defect | judged runs | first named = expected | named otherwise |", "|---|---|---|---|---|"]
    for system in expect:
        for defect in expect[system]:
            js = [r for r in judged if r["system"] == system and r["defect"] == defect]
            if not js:
                continue
            other = sorted({r["first"] or "(none)" for r in js if r["first"] != r["expected"]})
            lines.append("| %s | %s | %d | %d | %s |" % (system, defect, len(js),
                                                         sum(r["first"] == r["expected"] for r in js), ", ".join(other) or "-"))
    lines.append("")
    lines.append("**Accuracy: %d of %d = %.1f %%** (goal >= 90 %%)." % (len(right), len(judged),
                                                                     100.0 * len(right) / max(len(judged), 1)))
    nulls = [r for r in rows if r["defect"] == "none"]
    lines.append("Correct ports: %d runs, %d statistical FAILs, %d diagnoses named." % (
        len(nulls), sum(r["stat_verdict"] == "FAIL" for r in nulls), sum(r["named"] == "True" for r in nulls)))
    unjudged = [r for r in rows if r["defect"] != "none" and r not in judged]
    small = [r for r in unjudged if r["expected"] not in ("None", "") and r["stat_verdict"] == "FAIL"]
    lines.append("Not judged: %d runs (no expected ingredient, an effect below 1 u, or no statistical FAIL); of "
                 "them %d named an ingredient. Of the %d that FAILed below 1 u with an expected ingredient, %d "
                 "named it first." % (len(unjudged), sum(r["named"] == "True" for r in unjudged), len(small),
                                     sum(r["first"] == r["expected"] for r in small)))
    others = sorted({(r["system"], r["defect"], r["first"] or "(none)") for r in unjudged
                     if r["expected"] in ("None", "") and r["stat_verdict"] == "FAIL"})
    if others:
        lines.append("Defects without an expected ingredient, named first: %s." % "; ".join(
            "%s %s: %s" % o for o in others))
    return "\n".join(lines) + "\n"


def read(tsv):
    """{key: row} of a runs file"""
    done = {}
    for line in open(tsv):
        f = line.rstrip("\n").split("\t")
        if f[0] != "system":
            done[tuple(f[:6])] = dict(zip(FIELDS, f))
    return done


def check_one(doc, marker, tsv, expect):
    a, b = "<!-- %s -->\n" % marker, "<!-- /%s -->" % marker
    if a not in doc or b not in doc:
        print("diagnosis.py: docs/power.md has no %s markers" % marker, file=sys.stderr)
        return 1
    have = doc[doc.index(a) + len(a):doc.index(b)]
    want = table(list(read(tsv).values()), expect)
    if have.strip() != want.strip():
        print("diagnosis.py: docs/power.md's %s is not the one %s gives:\n%s" % (marker, tsv, want), file=sys.stderr)
        return 1
    return 0


def check(tsvs):
    doc = open(os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs", "power.md")).read()
    rc = check_one(doc, "diagnosis-table", tsvs[0], EXPECT)
    return rc or (check_one(doc, "diagnosis-table-2", tsvs[1], EXPECT2) if len(tsvs) > 1 else 0)


def main(argv):
    if len(argv) in (2, 3) and argv[0] == "--check":
        return check(argv[1:])
    o = options("diagnosis.py", argv, {"plan": "held-out", "out": "diagnosis-out"})
    if o is None:
        return 2
    name, out = o["plan"], o["out"]
    if name not in ("held-out", "stage-stop", "smoke"):
        print("diagnosis.py: unknown plan %r (held-out, stage-stop, smoke)" % name, file=sys.stderr)
        return 2
    expect = EXPECT2 if name == "stage-stop" else EXPECT
    h = Harness(out)
    tsv = os.path.join(out, "diag.tsv")
    done = {}
    if os.path.exists(tsv):
        done = read(tsv)
    else:
        with open(tsv, "w") as f:
            f.write("\t".join(FIELDS) + "\n")
    for key in plan(name):
        k = (key[0], key[1], key[2], repr(key[3]), str(key[4]), str(key[5]))
        if k in done:
            continue
        row = one(h, expect, *key)
        with open(tsv, "a") as f:
            f.write("\t".join(row) + "\n")
        done[k] = dict(zip(FIELDS, row))
        print("\t".join(row), flush=True)
    with open(os.path.join(out, "diag.md"), "w") as f:
        f.write(table(list(done.values()), expect))
    print(open(os.path.join(out, "diag.md")).read())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
