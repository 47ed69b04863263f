#!/usr/bin/env python3
"""diagnosis3.py - the diagnosis's third held-out round (docs/power.md#diagnosis-rule-3,
with its amendment #diagnosis-rule-3-amendment, both committed before the first run).

Runs the C ports of tests/port/ (Euler-Zeitlin su(8), the rigid body, the heavy top) in
their float build (verified at binary32) and double build (binary64) with port.h's
defects, one path x 2000 steps and 100 paths x 4 steps, on the round's paths, through
`slpi verify --local --json` (the statistics' reference is verify's default, `auto`; with
`--max-steps 0`, the statistics alone: binary32 from the round's first run on, binary64
from 2026-11-29 19:00 UTC), and
judges the diagnosis of each statistical FAIL: right (the expected ingredient named first,
alone), right in a group (an "indistinguishable" group holding it), wrong. One finished
run is one line appended to RUNS (one write and fsync, calibrate.py's append); a run
already there is never run again, so a stopped plan resumes where it stopped.

usage: diagnosis3.py --run RUNS [--out DIR] [--until HH:MM] [--only D1,D2] [--ports P1,P2]
                                  run the plan, in its order (--only, --ports: those
                                  defects, those ports alone)
       diagnosis3.py --write RUNS   docs/power.md's <!-- diagnosis-table-3 --> from RUNS
       diagnosis3.py --check RUNS   that block is the one RUNS gives: exit 0, else 1
       diagnosis3.py --tol-run RUNS [options as --run], --tol-write RUNS, --tol-check RUNS
                                  the same for the tolerance stop's held-out check
                                  (docs/power.md#diagnosis-tol-stop: its plan, its
                                  <!-- diagnosis-table-tol -->)
       diagnosis3.py --r4-run RUNS [options as --run], --r4-write RUNS, --r4-check RUNS
                                  the same for the fourth round (docs/power.md#diagnosis-rule-4:
                                  noise by component on Euler-Zeitlin su(8); its
                                  <!-- diagnosis-table-4 -->)
       diagnosis3.py --r5-run RUNS [options as --run], --r5-write RUNS, --r5-check RUNS
                                  the same for the fifth round (docs/power.md#diagnosis-rule-5:
                                  the heavy top and SVI under the stops in plain sweeps; its
                                  <!-- diagnosis-table-5 -->)
       diagnosis3.py --r6-run RUNS [options as --run], --r6-write RUNS, --r6-check RUNS
                                  the same for the sixth round (docs/power.md#diagnosis-rule-6:
                                  rb-tmk.c and ht-svi.c, written after its rule; its
                                  <!-- diagnosis-table-6 -->)
       diagnosis3.py --r7-run RUNS [options as --run], --r7-write RUNS, --r7-check RUNS
                                  the same for the seventh round (docs/power.md#diagnosis-rule-7:
                                  ht-svi-pi.c, rb-svi-fixed.c, zeitlin-isomp-2.c; its
                                  <!-- diagnosis-table-7 -->)
       diagnosis3.py --r8-run RUNS [options as --run], --r8-write RUNS, --r8-check RUNS
                                  the same for the eighth round (docs/power.md#diagnosis-rule-8:
                                  zeitlin-isomp-gpu.c; its <!-- diagnosis-table-8 -->)
Environment: as power.py (SLPI_BIN, SLPI_BUILD, CC). Exit 2 on a bad argument."""
import json
import os
import subprocess
import sys
import time

from binomial import clopper_pearson
from calibrate import append, read_table
from power import ROOT, SLPI, UNIT_MAG, Harness, run
from power_docs import replace

PORTS = ("rb", "heavytop", "zeitlin", "svi", "rbtmk", "htsvi", "htsvipi", "rbsvifix", "zeitlin2", "zeitlingpu")
BUILDS = {"float": "binary32", "double": "binary64"}
# u of a build's format in units of binary32's u (port.h's effect is in binary32's u |x|)
U_OF = {"float": 1.0, "double": 2.0 ** -29}
SHAPES = {"single": (1, 2000), "many": (100, 4)}
PATHS = range(91000, 91010)
FACTORS = (1, 4, 16)
CONTINUOUS = {"rb": ("amp", "sign", "lap", "drop", "trans", "upd"), "heavytop": ("amp", "sign", "lap", "drop"),
              "zeitlin": ("amp", "sign", "lap", "drop", "trans", "upd")}
DISCRETE = {"rb": (("early", 1), ("early", 2), ("tol", None)), "heavytop": (("early", 1), ("early", 2), ("tol", None)),
            "zeitlin": (("early", 1), ("early", 2), ("tol", None), ("pred", 1), ("pred", 2))}
TOL = {"double": 2.0 ** -26, "float": 2.0 ** -12}
# the families of the amendment of 2026-11-29 (docs/power.md#diagnosis-rule-3-families),
# written after the round's first run: on paths never used, under the diagnosis that has
# their ingredients; the whole swap (MAG = 1) is factor 0
NEW_PATHS = range(92000, 92010)
NEW_CONTINUOUS = {"rb": ("swap", "reord"), "zeitlin": ("swap", "reord")}
NEW_CELLS = (("rb", "float", "many"), ("rb", "float", "single"), ("rb", "double", "many"), ("rb", "double", "single"),
             ("zeitlin", "float", "many"), ("zeitlin", "float", "single"), ("zeitlin", "double", "many"),
             ("zeitlin", "double", "single"))
# the SVI rigid body (rb-svi.c; docs/power.md#diagnosis-rule-3-svi): its correct port and
# defects, on the families' paths after them
SVI_CONTINUOUS = ("amp", "sign", "lap", "drop", "swap")
SVI_DISCRETE = (("early", 1), ("early", 2), ("tol", None), ("swap", 0))
# a start of the magnitude search near 1 u at binary32 (power.py's, diagnosis.py's)
START = {"rb": dict(UNIT_MAG["rb"], upd=2.2e-5, trans=1.5, swap=1e-5, reord=1.3), "heavytop": UNIT_MAG["heavytop"],
         "zeitlin": dict(UNIT_MAG["zeitlin"], upd=4e-5, trans=45.0, swap=1e-4, reord=26.0),
         "svi": {"amp": 2.3e-5, "sign": 1.9e-5, "lap": 2.9e-5, "drop": 5.0, "swap": 2.2e-5},
         "rbtmk": {"amp": 1e-5, "sign": 1e-5, "lap": 1e-5, "swap": 1e-5},
         "htsvi": {"amp": 1e-5, "sign": 1e-5, "lap": 1e-5, "swap": 1e-5},
         "htsvipi": {"amp": 1e-5, "sign": 1e-5, "lap": 1e-5, "swap": 1e-5},
         "rbsvifix": {"amp": 1e-5, "sign": 1e-5, "lap": 1e-5, "swap": 1e-5},
         "zeitlin2": {"amp": 1e-5, "sign": 1e-5, "lap": 1e-5, "swap": 1e-5},
         "zeitlingpu": {"amp": 1e-5, "sign": 1e-5, "upd": 1e-5, "trans": 1.0, "reord": 1.0, "swap": 1e-5}}
# the expected first ingredient (the rule's "What is right", with the amendment's heavy top)
SWAP, REORD = "noise 1 and 2 swapped", "Psi Y Psi/4 reordered"
EXPECT = {"rb": {"amp": "noise", "sign": "noise 1", "lap": "drift dH/dx2", "drop": "Psi Y Psi/4",
                 "trans": "Psi Y Psi/4", "upd": "update", "swap": SWAP, "reord": REORD},
          "heavytop": {"amp": "noise 1", "sign": "noise 1", "lap": "drift dH/dx2", "drop": None},
          "zeitlin": {"amp": "noise", "sign": "noise", "lap": "drift", "drop": "Psi Y Psi/4",
                      "trans": "Psi Y Psi/4", "upd": "update", "swap": SWAP, "reord": REORD},
          "svi": {"amp": "noise", "sign": "noise 1", "lap": "drift dH/dx2", "drop": None, "swap": SWAP},
          "rbtmk": {"amp": "noise", "sign": "noise 1", "lap": "drift dH/dx2", "swap": SWAP},
          "htsvi": {"amp": "noise", "sign": "noise 1", "lap": None, "swap": SWAP},
          "htsvipi": {"amp": "noise", "sign": "noise 1", "lap": None, "swap": SWAP},
          "rbsvifix": {"amp": "noise", "sign": "noise 1", "lap": "drift dH/dx2", "swap": SWAP},
          "zeitlin2": {"amp": "noise", "sign": "noise 1", "lap": "drift", "swap": SWAP},
          "zeitlingpu": {"amp": "noise", "sign": "noise 1", "upd": "update", "trans": "Psi Y Psi/4", "reord": REORD,
                         "swap": SWAP}}
# what the rule's words alone would expect where the amendment reads them otherwise
AS_WRITTEN = {("heavytop", "amp"): "noise", ("heavytop", "drop"): "Psi Y Psi/4"}
STOPS = ("solver stop", "solver stop 2", "solver stop 3", "solver stop 4")
# the tolerance stop's held-out check (docs/power.md#diagnosis-tol-stop, fixed before its
# runs): its paths, never used before, and what is right, any solver stop from X_n
TOL_PATHS = range(94000, 94010)
TOL_STOPS = tuple("solver stop at 2^-%d" % k for k in range(12, 31))
# the fourth round (docs/power.md#diagnosis-rule-4, fixed before its runs): Euler-Zeitlin
# alone, every defect of the third round and its families, on paths never used, its cells
# in this order on each path; sign expects noise 1 (su(8) has it now), tol any stop from X_n
R4_PATHS = range(95000, 95010)
R4_CELLS = (("float", "many"), ("float", "single"), ("double", "many"), ("double", "single"))
R4_EXPECT = dict(EXPECT["zeitlin"], sign="noise 1")
# the fifth round (docs/power.md#diagnosis-rule-5, fixed before its runs): the heavy top and
# the SVI rigid body under the stops in plain sweeps, every defect of the third round, on
# paths never used, its cells in R4_CELLS's order, the heavy top's then SVI's on each path;
# early m expects the stop m from X_n in either form, tol any stop from X_n
R5_PATHS = range(98000, 98010)
PLAIN = tuple("solver stop %d, plain sweeps" % m for m in range(1, 5))
# the sixth round (docs/power.md#diagnosis-rule-6, fixed before its ports and runs): two
# ports written after the rule, the rigid body under TMK and the heavy top's semidirect
# SVI, on paths never used, its cells in R4_CELLS's order, rb-tmk.c's then ht-svi.c's on
# each path; as the fifth round, early m either form of stop m, tol any stop from X_n
R6_PATHS = range(99000, 99010)
R6_CONTINUOUS = ("amp", "sign", "lap", "swap")
R6_DISCRETE = (("early", 1), ("early", 2), ("tol", None), ("swap", 0))
# the seventh round (docs/power.md#diagnosis-rule-7, fixed before its ports and runs):
# three ports written after the rule, the sixth round's defects, on paths never used, its
# cells in R4_CELLS's order, the ports in R7_PORTS's order on each path. R7_LAST: whether
# a port's output keeps its last sweep's quantities (its header, read before the first
# run), so that its early m is the stop m - 1; tol any stop from X_n, stop 0 included
R7_PATHS = range(93000, 93006)
R7_PORTS = ("htsvipi", "rbsvifix", "zeitlin2")
# (read 2026-11-30 08:57 UTC from the three headers, before the first run: each
# re-evaluates its velocity or Psi from the final unknown after the loop)
R7_LAST = {"htsvipi": False, "rbsvifix": False, "zeitlin2": False}
PLAIN0 = "solver stop 0, plain sweeps"
# the eighth round (docs/power.md#diagnosis-rule-8, fixed before its port and runs): ISOMP's
# families on an Euler-Zeitlin port in the GPU form written after the rule, its cells in
# R4_CELLS's order on each path; R8_LAST as R7_LAST (its header, read before the first run)
R8_PATHS = range(92500, 92506)
R8_CONTINUOUS = ("amp", "sign", "upd", "trans", "reord", "swap")
R8_DISCRETE = (("pred", 1), ("pred", 2), ("tol", None), ("swap", 0))
R8_LAST = False  # read 2026-11-30 09:43 UTC from its header, before the first run: Psi re-evaluated
PRED = tuple("solver stop %d after predictor" % m for m in range(1, 4))
FIELDS = ("port", "build", "shape", "defect", "factor", "mag", "path", "effect_u", "iterations", "exit",
          "stat_verdict", "named", "first", "group", "expected", "seconds")


def cell(port, build, shape, path, cont, disc):
    """a cell's runs on one path: (port, build, shape, defect, factor, path) for the correct
    port, each continuous defect at FACTORS, then each discrete one"""
    runs = [(port, build, shape, "none", 0, path)]
    for defect in cont:
        runs += [(port, build, shape, defect, f, path) for f in FACTORS]
    return runs + [(port, build, shape, d, m or 0, path) for d, m in disc]


def plan():
    """the runs in the amendment's order: (port, build, shape, defect, factor, path)"""
    def of(port, build, shape, path):
        return cell(port, build, shape, path, CONTINUOUS[port], DISCRETE[port])
    runs = []
    for path in PATHS:
        runs += of("zeitlin", "float", "many", path)
        for port in ("rb", "heavytop"):
            for build in BUILDS:
                for shape in SHAPES:
                    runs += of(port, build, shape, path)
        runs += of("zeitlin", "float", "single", path)
    for path in PATHS:
        for shape in ("many", "single"):
            runs += of("zeitlin", "double", shape, path)
    for path in NEW_PATHS:
        for port, build, shape in NEW_CELLS:
            for defect in NEW_CONTINUOUS[port]:
                runs += [(port, build, shape, defect, f, path) for f in FACTORS]
            runs.append((port, build, shape, "swap", 0, path))
        for build in BUILDS:
            for shape in ("many", "single"):
                runs += cell("svi", build, shape, path, SVI_CONTINUOUS, SVI_DISCRETE)
    return runs


def ports_plan(paths, ports):
    """a held-out round's runs (the fourth on): path by path, on each the ports (name, its
    continuous defects, its discrete ones) in order, each port's cells in R4_CELLS's order"""
    return [r for path in paths for port, cont, disc in ports for build, shape in R4_CELLS
            for r in cell(port, build, shape, path, cont, disc)]


# the fourth to eighth rounds' plans
R4_PLAN = ports_plan(R4_PATHS, (("zeitlin", CONTINUOUS["zeitlin"] + NEW_CONTINUOUS["zeitlin"],
                                 DISCRETE["zeitlin"] + (("swap", 0),)),))
R5_PLAN = ports_plan(R5_PATHS, (("heavytop", CONTINUOUS["heavytop"], DISCRETE["heavytop"]),
                                ("svi", SVI_CONTINUOUS, SVI_DISCRETE)))
R6_PLAN = ports_plan(R6_PATHS, tuple((port, R6_CONTINUOUS, R6_DISCRETE) for port in ("rbtmk", "htsvi")))
R7_PLAN = ports_plan(R7_PATHS, tuple((port, R6_CONTINUOUS, R6_DISCRETE) for port in R7_PORTS))
R8_PLAN = ports_plan(R8_PATHS, (("zeitlingpu", R8_CONTINUOUS, R8_DISCRETE),))


def tol_plan():
    """the tolerance check's runs: the double builds on every path, then the float builds"""
    return [(port, build, shape, "tol", 0, path) for build in ("double", "float") for path in TOL_PATHS
            for port in ("svi", "zeitlin") for shape in ("many", "single")]


def effect(h, port, build, noise, steps, defect, mag):
    """the mean effect per step in u |x| of the build's format"""
    r = run([h.exe(port, "double"), noise, str(steps), defect, repr(mag), "effect"])
    return float(r.stdout.split()[1]) / U_OF[build]


def magnitude(h, port, build, defect, factor, cache):
    """the magnitude whose mean effect on path 7 (2000 steps) is `factor` u of the build's
    format: two rescalings from START, two significant digits"""
    key = "%s %s %s %d" % (port, build, defect, factor)
    if key not in cache:
        noise = h.noise(port, SHAPES["single"][1], 7)
        m = START[port][defect] * factor * U_OF[build]
        for _ in range(2):
            m *= factor / effect(h, port, build, noise, SHAPES["single"][1], defect, m)
        cache[key] = float("%.2g" % m)
    return cache[key]


def expected(port, defect, factor, iters, path):
    """the rule's expected first ingredients, '|'-separated, or '' (not judged); the fourth
    round's (its paths) where it reads them otherwise"""
    r4, r5 = int(path) in R4_PATHS, int(path) in R5_PATHS or int(path) in R6_PATHS
    if defect == "none":
        return ""
    if int(path) in R8_PATHS and defect == "tol":
        return "|".join(STOPS + PRED + (PLAIN0,) + PLAIN + TOL_STOPS)
    if int(path) in R7_PATHS and defect in ("early", "tol"):
        m = factor - (R7_LAST[port] is True)
        return "|".join(STOPS + (PLAIN0,) + PLAIN + TOL_STOPS) if defect == "tol" \
            else PLAIN0 if m == 0 else STOPS[m - 1] + "|" + PLAIN[m - 1]
    if defect == "early":
        return STOPS[factor - 1] + ("|" + PLAIN[factor - 1] if r5 else "")
    if defect == "pred":
        return "solver stop %d after predictor" % factor
    if defect == "tol" and r5:
        return "|".join(STOPS + PLAIN + TOL_STOPS)
    if defect == "tol" and r4:
        return "|".join(STOPS + TOL_STOPS)
    if defect == "tol":
        lo, hi = (int(v) for v in iters.split("-"))
        return STOPS[lo - 1] if lo == hi and lo <= len(STOPS) else "|".join(STOPS)
    return (R4_EXPECT if r4 else EXPECT[port])[defect] or ""


def trajectories(h, port, build, shape, defect, mag, path, folder):
    """the run's trajectory files and the solve's iterations over them, "MIN-MAX" """
    paths, steps = SHAPES[shape]
    files, lo, hi = [], None, 0
    env = dict(os.environ, PORT_ITERS="1")
    for j in range(paths):
        noise = h.noise(port, steps, path if paths == 1 else 100 * path + j)
        files.append(os.path.join(folder, "p%d.traj" % j))
        with open(files[-1], "w") as f:
            r = subprocess.run([h.exe(port, build), noise, str(steps), defect, repr(mag)], stdout=f,
                               stderr=subprocess.PIPE, text=True, env=env, check=True)
        w = r.stderr.split()
        lo, hi = min(int(w[1]), lo if lo is not None else int(w[1])), max(int(w[2]), hi)
    return files, "%d-%d" % (lo, hi)


def one(h, port, build, shape, defect, factor, path, cache):
    t = time.time()
    mag = 0.0 if defect == "none" else TOL[build] if defect == "tol" else float(factor) \
        if defect in ("early", "pred") else 1.0 if (defect, factor) == ("swap", 0) \
        else magnitude(h, port, build, defect, factor, cache)
    folder = os.path.join(h.out, "run")
    subprocess.run(["rm", "-rf", folder], check=True)
    os.makedirs(folder)
    files, iters = trajectories(h, port, build, shape, defect, mag, path, folder)
    eff = "" if shape == "many" or defect == "none" else "%.4g" % effect(
        h, port, build, h.noise(port, SHAPES[shape][1], path), SHAPES[shape][1], defect, mag)
    js = os.path.join(folder, "v.json")
    # the statistics alone: the proof, which the round does not judge, is skipped (binary32:
    # the amendment of 23:51 UTC, the reference slpi's double path either way; binary64: that
    # of 2026-11-29 19:00 UTC, the reference the accurate step, docs/power.md#diagnosis-rule-3-double-alone)
    r = run([SLPI, "verify", "--precision", BUILDS[build], "--local", "-q", "--json", js, "--max-steps", "0"] + files)
    try:
        st = json.load(open(js)).get("statistics") or {}
    except (OSError, ValueError):
        st = {}
    d = st.get("diagnosis") or {}
    ing = d.get("ingredients") or [{}]
    return dict(port=port, build=build, shape=shape, defect=defect, factor=factor, mag=repr(mag), path=path,
                effect_u=eff, iterations=iters, exit=r.returncode, stat_verdict=st.get("verdict", ""),
                named=bool(d.get("named")), first=ing[0].get("ingredient", "") if d.get("named") else "",
                group="|".join(d.get("indistinguishable") or []), expected=expected(port, defect, factor, iters, path),
                seconds="%.1f" % (time.time() - t))


def form(r):
    """how a run's diagnosis names: 'alone', 'group' (an indistinguishable group) or 'none'
    (nothing named: its JSON's group is then every ingredient, not a call)"""
    return "none" if r["named"] != "True" else "group" if r["group"] else "alone"


def call(r, expect=None):
    """a run's call: '' (not judged), 'right' (alone), 'group' (right in a group) or 'wrong'
    (another ingredient alone, a group without the expected one, or none named)"""
    want = (r["expected"] if expect is None else expect).split("|")
    if r["stat_verdict"] != "FAIL" or want == [""]:
        return ""
    if form(r) == "group":
        return "group" if set(want) & set(r["group"].split("|")) else "wrong"
    return "right" if form(r) == "alone" and r["first"] in want else "wrong"


def rate(k, n):
    if not n:
        return "-"
    lo, hi = clopper_pearson(k, n, 0.975)
    return "%d/%d = %.0f %% [%.0f, %.0f]" % (k, n, 100.0 * k / n, 100 * lo, 100 * hi)


def cells(rows):
    """a round's table, a line a cell, and its pooled line"""
    lines = ["| port | format | shape | runs | correct ports: FAIL | judged | right alone | right in a group "
             "| wrong (named first) | right among named alone (95 %) |", "|---|---|---|---|---|---|---|---|---|---|"]
    for port in PORTS:
        for build in BUILDS:
            for shape in SHAPES:
                rs = [r for r in rows if (r["port"], r["build"], r["shape"]) == (port, build, shape)]
                if not rs:
                    continue
                c = [call(r) for r in rs]
                alone_wrong = sum(k == "wrong" and form(r) == "alone" for r, k in zip(rs, c))
                wrong = sorted({"%s %s: %s" % (r["defect"], r["factor"], r["first"] or "(none named)")
                                + (" (group %s)" % r["group"].replace("|", ", ") if form(r) == "group" else "")
                                for r, k in zip(rs, c) if k == "wrong"})
                lines.append("| %s | %s | %s | %d | %d | %d | %d | %d | %s | %s |" % (
                    port, BUILDS[build], shape, len(rs),
                    sum(r["defect"] == "none" and r["stat_verdict"] == "FAIL" for r in rs), sum(k != "" for k in c),
                    c.count("right"), c.count("group"), "; ".join(wrong) or "-",
                    rate(c.count("right"), c.count("right") + alone_wrong)))
    c = [(call(r), r) for r in rows]
    alone = [k for k, r in c if k and form(r) == "alone"]
    groups = [k for k, r in c if k and form(r) == "group"]
    return lines + ["", "**Named alone: right in %s** (goal >= 90 %%). **Indistinguishable groups holding the "
                    "expected ingredient: %d of %d.** Judged runs: %d of %d run (the rest: no statistical FAIL, or no "
                    "expected ingredient), %d of them with nothing named (wrong); correct ports: %d runs, %d "
                    "statistical FAILs, %d diagnoses named." % (
                        rate(alone.count("right"), len(alone)), groups.count("group"), len(groups),
                        sum(k != "" for k, r in c), len(rows), sum(k != "" and form(r) == "none" for k, r in c),
                        sum(r["defect"] == "none" for r in rows),
                        sum(r["defect"] == "none" and r["stat_verdict"] == "FAIL" for r in rows),
                        sum(r["defect"] == "none" and r["named"] == "True" for r in rows))]


def table(rows):
    """docs/power.md's lines of the third round"""
    lines = cells(rows)
    w = [(call(r, AS_WRITTEN.get((r["port"], r["defect"]), r["expected"])), r) for r in rows]
    w_alone = [k for k, r in w if k and form(r) == "alone"]
    lines.append("Read as the rule's words alone (the heavy top's `amp` expecting `noise`, its `drop` `Psi Y Psi/4`): "
                 "right alone in %s." % rate(w_alone.count("right"), len(w_alone)))
    left = len(plan()) - len(rows)
    new = [(call(r), r) for r in rows if int(r["path"]) in NEW_PATHS]
    n_alone = [k for k, r in new if k and form(r) == "alone"]
    n_groups = [k for k, r in new if k and form(r) == "group"]
    lines.append("The families of 2026-11-29 (`swap`, `reord`, the SVI rigid body; paths 92000-92009), within "
                 "the above: %d runs, "
                 "named alone right in %s; indistinguishable groups holding the expected ingredient: %d of %d." % (
                     len(new), rate(n_alone.count("right"), len(n_alone)), n_groups.count("group"), len(n_groups)))
    lines.append("Not run: %d of the plan's %d runs." % (left, len(plan())))
    return lines


def round_table(the_plan):
    """docs/power.md's lines of a round from the fourth on: its cells, and what of its plan
    did not run"""
    return lambda rows: cells(rows) + ["Not run: %d of the plan's %d runs." % (len(the_plan) - len(rows),
                                                                                len(the_plan))]


def tol_table(rows):
    """docs/power.md's lines of the tolerance check: a run right when a solver stop from X_n
    (a fixed count or a tolerance) is named first alone, right in a group when its group
    holds one"""
    want = "|".join(STOPS + TOL_STOPS)
    lines = ["| port | format | shape | runs | judged | right alone | right in a group | wrong (named first) "
             "| named first (alone) | right or right in a group (95 %) |", "|---|---|---|---|---|---|---|---|---|---|"]
    for port in ("svi", "zeitlin"):
        for build in BUILDS:
            for shape in SHAPES:
                rs = [r for r in rows if (r["port"], r["build"], r["shape"]) == (port, build, shape)]
                if not rs:
                    continue
                c = [call(r, want) for r in rs]
                wrong = sorted({(r["first"] or "(none named)") + (" (group %s)" % r["group"].replace("|", ", ")
                                                                  if form(r) == "group" else "")
                                for r, k in zip(rs, c) if k == "wrong"})
                firsts = sorted({r["first"] for r, k in zip(rs, c) if k == "right"})
                judged = sum(k != "" for k in c)
                lines.append("| %s | %s | %s | %d | %d | %d | %d | %s | %s | %s |" % (
                    port, BUILDS[build], shape, len(rs), judged, c.count("right"), c.count("group"),
                    "; ".join(wrong) or "-", ", ".join(firsts) or "-",
                    rate(c.count("right") + c.count("group"), judged)))
    lines += ["", "Not run: %d of the plan's %d runs." % (len(tol_plan()) - len(rows), len(tol_plan()))]
    return lines


def key(r):
    return tuple(str(r[k]) for k in ("port", "build", "shape", "defect", "factor", "path"))


def main(argv):
    rounds = {"--": (plan(), table, "diagnosis-table-3"), "--tol-": (tol_plan(), tol_table, "diagnosis-table-tol")}
    for k, the_plan in enumerate((R4_PLAN, R5_PLAN, R6_PLAN, R7_PLAN, R8_PLAN), 4):
        rounds["--r%d-" % k] = (the_plan, round_table(the_plan), "diagnosis-table-%d" % k)
    prefix = argv[0][:argv[0].rindex("-") + 1] if argv and argv[0].startswith("--") else ""
    mode = "--" + argv[0][len(prefix):] if prefix in rounds else ""
    if len(argv) < 2 or mode not in ("--run", "--write", "--check"):
        print(__doc__, file=sys.stderr)
        return 2
    runs = argv[1]
    rows = read_table(runs, FIELDS)
    the_plan, the_table, marker = rounds[prefix]
    if mode != "--run":
        doc = os.path.join(ROOT, "docs", "power.md")
        text = open(doc).read()
        new = replace(text, marker, the_table(rows))
        if new is None:
            print("diagnosis3.py: docs/power.md has no %s markers" % marker, file=sys.stderr)
            return 1
        if mode == "--check":
            if new != text:
                print("diagnosis3.py: docs/power.md's %s is not the one %s gives:\n%s" % (
                    marker, runs, "\n".join(the_table(rows))), file=sys.stderr)
            return int(new != text)
        open(doc, "w").write(new)
        return 0
    opts = dict(zip(argv[2::2], argv[3::2]))
    if set(opts) - {"--out", "--until", "--only", "--ports"} or len(argv) % 2:
        print(__doc__, file=sys.stderr)
        return 2
    if prefix == "--r7-" and None in R7_LAST.values() or prefix == "--r8-" and R8_LAST is None:
        print("diagnosis3.py: the round's ports' output conventions (R7_LAST, R8_LAST) are not read yet",
              file=sys.stderr)
        return 2
    h = Harness(opts.get("--out", "diagnosis3-out"))
    cache_file = os.path.join(h.out, "mags.json")
    cache = json.load(open(cache_file)) if os.path.exists(cache_file) else {}
    done = {key(r) for r in rows}
    until = None
    if "--until" in opts:  # the next HH:MM UTC
        hh, mm = (int(v) for v in opts["--until"].split(":"))
        now = time.time()
        until = now - now % 86400 + 3600 * hh + 60 * mm
        until += 86400 if until <= now else 0
    for p in the_plan:
        if until and time.time() >= until:
            break
        if tuple(str(v) for v in p) in done or ("--only" in opts and p[3] not in opts["--only"].split(",")) \
                or ("--ports" in opts and p[0] not in opts["--ports"].split(",")):
            continue
        row = one(h, *p, cache)
        json.dump(cache, open(cache_file, "w"))
        append(runs, FIELDS, row)
        print("\t".join(str(row[k]) for k in FIELDS), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
