#!/usr/bin/env python3
"""calibration_docs.py - docs/power.md's calibration tables
(docs/power.md#calibration-results), generated from the committed runs of
tests/port/calibrate.py (DIR/CELL.tsv, DIR/cost.tsv), between the marker lines
<!-- calibration-table --> and <!-- /calibration-table -->: every applicable cell with
its runs, FAILs, the one-sided 95 % Clopper-Pearson upper bound, the systematic test's
p-values' tail and pile at 1, the calibration check, the systematic p's distribution by
tenths and the runs whose systematic and size p are exactly 1, its CPU seconds a run and
its state
(or, not run, its measured cost; a retired cell, docs/power.md#stop-rule, its runs and
why it runs no further); the cells that cannot apply, with their reason; the
formats pooled (the goal's: the cells that run; the retired cells' runs and those of copies
shapes judged before the copies rule, docs/power.md#copies-recount, pooled apart, records);
the CPU-hours the grid still needs (the retired cells none); the detectable effect of
DIR/power.tsv against its goal (docs/power.md#detectable-rule).

usage: calibration_docs.py [--check] [--dir DIR] [--doc FILE]
Writes the block into FILE (default docs/power.md; DIR default docs/calibration), or with
--check compares it and exits 1 when it differs (2: a file or a marker missing)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from binomial import binom_sf, clopper_pearson  # noqa: E402
import calibrate  # noqa: E402
from power_docs import replace  # noqa: E402   (the marker blocks of docs/power.md)

GOAL_CELL, GOAL_FORMAT = 300, 2995
TAIL = ((0.1, "≤ 0.1"), (0.01, "≤ 0.01"), (0.001, "≤ 10⁻³"))
TENTHS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
RETIRED_ROW = " (retired cells)"  # the suffix of a format's pooled row of its retired cells
BEFORE_ROW = " (judged before the copies rule)"  # ... of the runs calibrate.counts() sets apart


def fmt_bound(x):
    return "%.2g" % x if x < 1 else "1"


def tenths(ps):
    """the counts of p in [0, 0.1], (0.1, 0.2], ..., (0.9, 1]"""
    got = [0] * 10
    for p in ps:
        got[sum(p > q for q in TENTHS)] += 1
    return got


def distribution(rows):
    """a cell's (or a format's) systematic p by tenths, and the runs whose systematic and
    size p are exactly 1: two of the table's cells"""
    ps = [float(r["p_systematic"]) for r in rows if r["p_systematic"]]
    ones = [sum(r[k] != "" and float(r[k]) == 1 for r in rows) for k in ("p_systematic", "p_size")]
    return " ".join(str(t) for t in tenths(ps)), "%d, %d" % tuple(ones)


def summary(rows):
    """(runs, FAILs, upper bound, tail counts, count above 0.9, check word, proof FAILs)"""
    n = len(rows)
    k = sum(r["statistics"] == "FAIL" for r in rows)
    ps = [float(r["p_systematic"]) for r in rows if r["p_systematic"]]
    tail = [sum(p <= q for p in ps) for q, _ in TAIL]
    hi = sum(p > 0.9 for p in ps)
    words = []
    if any(binom_sf(c, len(ps), q) < 0.01 for c, (q, _) in zip(tail, TAIL)):
        words.append("miscalibrated")
    if ps and binom_sf(hi, len(ps), 0.1) < 0.01:
        words.append("conservative")
    proof = sum(r["proof"] == "FAIL" for r in rows)
    return n, k, clopper_pearson(k, n, 0.95)[1] if n else 1.0, tail, hi, ", ".join(words) or "—", proof


def siblings(name):
    """the cells of the same format, system and implementation in the other shapes"""
    f, system, shape, impl = name.split("-", 3)
    return ["%s-%s-%dx%d-%s" % (f, system, p, q, impl) for p, q in calibrate.SHAPES if "%dx%d" % (p, q) != shape]


def pool(pooled, key, rows):
    """rows added to a pooled line: [cells, runs, FAILs, rows]"""
    p = pooled.setdefault(key, [0, 0, 0, []])
    p[0] += 1
    p[1] += len(rows)
    p[2] += sum(r["statistics"] == "FAIL" for r in rows)
    p[3] += rows


def hours(seconds):
    return "%.2g CPU-h" % (seconds / 3600)


def lines(d):
    """the block's lines from the data folder d"""
    cost = {}
    for r in calibrate.read_table(os.path.join(d, "cost.tsv"), calibrate.COST_FIELDS):
        cost[r["cell"]] = r
    out = ["| cell | runs | FAIL | 95 % upper | p " + " | ".join(t for _, t in TAIL)
           + " | p > 0.9 | p-values | p by tenths (0–0.1 … 0.9–1) | p = 1 (systematic, size) | CPU s / run | state |",
           "|---" * 13 + "|"]
    na, pooled, left, unprobed = {}, {}, 0.0, 0
    for c, name, f, system, shape, impl in calibrate.cells():
        why = calibrate.not_applicable(f, impl)
        if why:
            na.setdefault(why, []).append(name)
            continue
        every = calibrate.read_table(os.path.join(d, name + ".tsv"), calibrate.FIELDS)
        pr = cost.get(name)
        cell = (c, name, f, system, shape, impl)
        gone = calibrate.retired(cell)
        # a retired cell's runs are its record whole; another's judged before the copies
        # rule are pooled apart, a record, and the cell's runs are those after
        rows = every if gone else [r for r in every if calibrate.counts(cell, r)]
        before = [] if gone else [r for r in every if not calibrate.counts(cell, r)]
        if before:
            pool(pooled, f + BEFORE_ROW, before)
        if gone and not rows:
            out.append("| %s | 0 | | | | | | | | | | — | %s |" % (name, gone))
            continue
        if not every:
            # the same P·S rows: a sibling shape's probe, else (a converged cell) its
            # retired twin's, whose solve is the default's
            twin = retired_twin(name, impl)
            sib = [cost[x] for x in siblings(name) + ([twin] if twin else []) if cost.get(x, {}).get("run_cpu_s")]
            if pr is None and sib:
                s = float(sib[0]["run_cpu_s"])
                left += GOAL_CELL * s
                state = "not run, not probed: about %s for %d runs at %.3g s/run (%s's probe: the same P·S rows)" % (
                    hours(GOAL_CELL * s), GOAL_CELL, s, sib[0]["cell"])
            elif pr is None and any(cost.get(x, {}).get("note") for x in siblings(name)):
                x = [x for x in siblings(name) if cost.get(x, {}).get("note")][0]
                state = "not run, not probed: %s's probe: %s" % (x, cost[x]["note"])
            elif pr is None:
                state, unprobed = "not run: not probed yet", unprobed + 1
            elif not pr["run_cpu_s"]:
                state = "not run: " + pr["note"]
            else:
                s = float(pr["run_cpu_s"])
                left += GOAL_CELL * s
                state = "not run: %s for %d runs at %.3g s/run (probe)" % (hours(GOAL_CELL * s), GOAL_CELL, s)
            out.append("| %s | 0 | | | | | | | | | | %s | %s |" % (
                name, "%.3g" % float(pr["run_cpu_s"]) if pr and pr["run_cpu_s"] else "—", state))
            continue
        n, k, up, tail, hi, word, proof = summary(rows)
        if rows:
            pool(pooled, f + (RETIRED_ROW if gone else ""), rows)
        s = sum(float(r["gen_cpu_s"]) + float(r["verify_cpu_s"]) for r in every) / len(every)
        if k:
            state = "**not met**: %d FAIL" % k
        elif n >= GOAL_CELL:
            state = "met"
        elif gone:
            state = "%d runs" % n
        else:
            left += (GOAL_CELL - n) * s
            state = "unfinished: %d more runs, %s" % (GOAL_CELL - n, hours((GOAL_CELL - n) * s))
        if proof:
            state += "; %d proof FAIL" % proof
        if before:
            state += "; %d runs judged before the copies rule, pooled apart" % len(before)
        if gone:
            state += "; " + gone
        if not rows:
            out.append("| %s | 0 | | | | | | | | | | %.3g | %s |" % (name, s, state))
            continue
        out.append("| %s | %d | %d | %s | %s | %d | %s | %s | %s | %.3g | %s |" % (
            name, n, k, fmt_bound(up), " | ".join(str(t) for t in tail), hi, word, *distribution(rows), s, state))
    out.append("")
    for why, names in na.items():
        out.append("%d cells %s (%s … %s)." % (len(names), why, names[0], names[-1]))
    out += ["", "| format | cells run | runs | FAIL | 95 %% upper | pooled goal (≥ %d runs, no FAIL) "
            "| p by tenths (0–0.1 … 0.9–1) | p = 1 (systematic, size) |" % GOAL_FORMAT, "|---" * 8 + "|"]
    for f in [f for g in calibrate.FORMATS for f in (g, g + RETIRED_ROW, g + BEFORE_ROW) if f == g or f in pooled]:
        cells, n, k, rows = pooled.get(f, [0, 0, 0, []])
        up = clopper_pearson(k, n, 0.95)[1] if n else 1.0
        word = "not met" if k else ("met" if n >= GOAL_FORMAT else "unfinished")
        word = "— (a record, not the goal's)" if f not in calibrate.FORMATS else word
        out.append("| %s | %d | %d | %d | %s | %s | %s | %s |" % (f, cells, n, k, fmt_bound(up), word,
                                                              *(distribution(rows) if rows else ("", ""))))
    out += ["", "Still needed for every applicable cell's %d runs: %s%s." % (
        GOAL_CELL, hours(left), " (and %d cells not probed yet)" % unprobed if unprobed else "")]
    return out + power_lines(d)


def retired_twin(name, impl):
    """a converged cell's retired twin (the default solve's cell of the same rows), or None"""
    return name[:-len(impl)] + "slpi" if impl == calibrate.CONVERGED else None


def power_lines(d):
    """the detectable effect of DIR/power.tsv (docs/power.md#detectable-rule): every
    1000 x 2 cell that runs, measured or its cost, then any other cell measured"""
    got = {r["cell"]: r for r in calibrate.read_table(os.path.join(d, "power.tsv"), calibrate.POWER_FIELDS)}
    cost = calibrate.costs(d)
    runs = [c for c in calibrate.cells() if not calibrate.not_applicable(c[2], c[5]) and not calibrate.retired(c)]
    judged = [c for c in runs if c[4] == calibrate.POWER_SHAPE]
    out = ["", "The detectable effect ([its rule](#detectable-rule); goal ≤ %g u a step on %d × %d): %d of %d cells "
           "measured." % ((calibrate.POWER_GOAL,) + calibrate.POWER_SHAPE + (sum(c[1] in got for c in judged),
                                                                            len(judged))),
           "", "| cell | rows | statistics | τ (u) | detectable (u) | goal |", "|---" * 6 + "|"]
    for c in judged + [c for c in runs if c[4] != calibrate.POWER_SHAPE and c[1] in got]:
        r = got.get(c[1])
        if r is None:
            s = cost.get(c[1]) or cost.get(retired_twin(c[1], c[5]))
            out.append("| %s | | | | | not measured%s |" % (c[1], ": about %.3g CPU s" % s if s else ""))
            continue
        det = float(r["detectable_u"]) if r["detectable_u"] else float("inf")
        word = ("met" if det <= calibrate.POWER_GOAL else "**not met**") if c[4] == calibrate.POWER_SHAPE else "—"
        out.append("| %s | %s | %s | %s | %s | %s |" % (c[1], r["rows"], r["statistics"], "%.2g" % float(r["tau_u"])
                                                          if r["tau_u"] else "", "%.3g" % det, word))
    return out


def main(argv):
    check, d, doc = False, os.path.join(ROOT, "docs", "calibration"), os.path.join(ROOT, "docs", "power.md")
    i = 0
    while i < len(argv):
        if argv[i] == "--check":
            check = True
        elif argv[i] in ("--dir", "--doc") and i + 1 < len(argv):
            d, doc = (argv[i + 1], doc) if argv[i] == "--dir" else (d, argv[i + 1])
            i += 1
        else:
            print(__doc__, file=sys.stderr)
            return 2
        i += 1
    try:
        old = open(doc, encoding="utf-8").read()
    except OSError as e:
        print("calibration_docs.py: %s" % e, file=sys.stderr)
        return 2
    new = replace(old, "calibration-table", lines(d))
    if new is None:
        print("calibration_docs.py: %s: no <!-- calibration-table --> block" % doc, file=sys.stderr)
        return 2
    if check:
        if new != old:
            print("calibration_docs.py: %s: calibration-table differs from %s's runs (run "
                  "tests/port/calibration_docs.py)" % (doc, d), file=sys.stderr)
            return 1
        return 0
    if new != old:
        with open(doc, "w", encoding="utf-8") as f:
            f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
