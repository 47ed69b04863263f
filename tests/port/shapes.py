#!/usr/bin/env python3
"""shapes.py - the false-FAIL rate of `slpi verify`'s statistics over port shapes
(docs/power.md#shape-grid-rule): correct rigid-body ISOMP ports, P paths x S steps pooled
in one verify call, from one initial state or from one per path.

Implementations: slpi's own double path (`slpi run`, binary64), the C float port
tests/port/rb-isomp.c with and without FMA (binary32), and slpi.torch's batched port
(every path in one batch, one many-path file, binary32; one x0 only: it takes no x0 per
path). Cells are visited round robin, one run each, until --until (UTC HH:MM): every cell
gets the same count. Each run is a line of OUT/shapes.tsv; OUT/shapes.md is the table.

usage: shapes.py [--out DIR] [--until HH:MM] [--plan pilot|smoke]
Environment: SLPI_BIN, SLPI_BUILD, CC, as power.py."""
import math
import os
import subprocess
import sys
import time

from binomial import clopper_pearson
from options import options
from power import Harness, SLPI

CELLS = ((1000, 2), (100, 20), (10, 200), (1, 2000))
IMPLS = ("slpi", "c-float", "c-fma", "torch")
PRESET = "iso/rigid-body/trajectories"
FIELDS = ("impl", "x0", "paths", "steps", "run", "first_path", "exit", "stat_verdict", "p_value", "seconds")


def x0_of(path):
    """the initial state of a path in the `many` shape: a point of norm 1 drawn from the
    path's number"""
    g = (math.sqrt(5) - 1) / 2
    a = 0.3 + 2.5 * ((path * g) % 1)
    b = 2 * math.pi * ((path * math.sqrt(2)) % 1)
    return (math.sin(a) * math.cos(b), math.sin(a) * math.sin(b), math.cos(a))


def first_path(cell, many, run):
    """paths of a run: never shared between runs, cells or shapes"""
    p, s = CELLS[cell]
    return 40000 + 10 ** 6 * (cell + 4 * many) + run * p


def trajectories(h, impl, many, p, s, first, folder):
    """the files of one run"""
    files = []
    if impl == "torch":
        import slpi
        import slpi.torch as st
        e = st.run(PRESET, paths=p, first_path=first, precision="float32", steps=s)
        st.write(e, folder, many=True)
        return [os.path.join(folder, "path.tsv")]
    for k in range(first, first + p):
        f = os.path.join(folder, "p%d.tsv" % k)
        x0 = ["x0=%s" % ",".join(v.hex() for v in x0_of(k))] if many else []
        if impl == "slpi":
            subprocess.run([SLPI, "run", "--preset", PRESET, "steps=%d" % s, "path=%d" % k, "-q", "-o", f] + x0,
                           check=True, stdout=subprocess.DEVNULL)
        else:
            noise = os.path.join(folder, "n%d.noise" % k)
            subprocess.run([SLPI, "noise", "--preset", PRESET, "steps=%d" % s, "path=%d" % k, "-o", noise],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            env = dict(os.environ)
            if many:
                env["PORT_X0"] = ",".join(v.hex() for v in x0_of(k))
            with open(f, "w") as out:
                subprocess.run([h.exe("rb", impl[2:]), noise, str(s)], stdout=out, check=True, env=env)
        files.append(f)
    return files


def one(h, impl, many, cell, run):
    p, s = CELLS[cell]
    first = first_path(cell, many, run)
    folder = os.path.join(h.out, "run")
    subprocess.run(["rm", "-rf", folder])
    os.makedirs(folder)
    t = time.time()
    files = trajectories(h, impl, many, p, s, first, folder)
    rc, j = h.verify(files, precision="binary64" if impl == "slpi" else "binary32")
    st = j.get("statistics", {})
    return [impl, "many" if many else "one", str(p), str(s), str(run), str(first), str(rc), st.get("verdict", ""),
            "%.4g" % (st.get("p_value") if st.get("p_value") is not None else float("nan")),
            "%.1f" % (time.time() - t)]


def table(rows):
    lines = ["| implementation | x0 | paths x steps | runs | statistical FAIL | 95 % upper bound | smallest p | p < 0.05 |",
             "|---|---|---|---|---|---|---|---|"]
    for impl in IMPLS:
        for x0 in ("one", "many"):
            for p, s in CELLS:
                rs = [r for r in rows if (r["impl"], r["x0"], r["paths"], r["steps"]) == (impl, x0, str(p), str(s))]
                if not rs:
                    continue
                fails = sum(r["stat_verdict"] == "FAIL" for r in rs)
                ps = [float(r["p_value"]) for r in rs if r["p_value"] not in ("nan", "")]
                lines.append("| %s | %s | %d x %d | %d | %d | %.2g | %s | %d |" % (
                    impl, x0, p, s, len(rs), fails, clopper_pearson(fails, len(rs))[1],
                    "%.3g" % min(ps) if ps else "-", sum(q < 0.05 for q in ps)))
    n = len(rows)
    f = sum(r["stat_verdict"] == "FAIL" for r in rows)
    lines.append("")
    lines.append("All cells: %d runs, %d statistical FAILs (95 %% upper bound %.2g)." % (n, f, clopper_pearson(f, n)[1]))
    return "\n".join(lines) + "\n"


def main(argv):
    o = options("shapes.py", argv, {"out": "shapes-out", "until": None, "plan": "pilot"})
    if o is None:
        return 2
    out, until, plan = o["out"], o["until"], o["plan"]
    h = Harness(out)
    tsv = os.path.join(out, "shapes.tsv")
    rows = []
    if os.path.exists(tsv):
        rows = [dict(zip(FIELDS, l.rstrip("\n").split("\t"))) for l in open(tsv) if not l.startswith("impl\t")]
    else:
        with open(tsv, "w") as f:
            f.write("\t".join(FIELDS) + "\n")
    keys = [(impl, many, cell) for cell in range(len(CELLS)) for many in (0, 1) for impl in IMPLS
            if not (impl == "torch" and many)]
    run = 0
    while True:
        for impl, many, cell in keys:
            if until and time.strftime("%H:%M", time.gmtime()) >= until:
                break
            done = {(r["impl"], r["x0"], r["paths"], r["steps"], r["run"]) for r in rows}
            p, s = CELLS[cell]
            if (impl, "many" if many else "one", str(p), str(s), str(run)) in done:
                continue
            row = one(h, impl, many, cell, run)
            rows.append(dict(zip(FIELDS, row)))
            with open(tsv, "a") as f:
                f.write("\t".join(row) + "\n")
            print("\t".join(row), flush=True)
        else:
            run += 1
            if plan == "smoke":
                break
            continue
        break
    with open(os.path.join(out, "shapes.md"), "w") as f:
        f.write(table(rows))
    print(open(os.path.join(out, "shapes.md")).read())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
