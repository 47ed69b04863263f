#!/usr/bin/env python3
"""power_figure.py - the figure of docs/power.md: the rate at which `slpi verify
--precision binary32 --local` FAILs a port with a planted defect, against the defect's
mean effect per step in u|x| (u = 2^-24), one curve per trajectory length (100, 1000,
2000, 10^4 steps), held-out defects and implementations dashed; drawn from runs files
of tests/port/power.py (the binning is power.py's `curve`).

usage: power_figure.py [RUNS.tsv ...] [-o FIG.png]
       (default: docs/power-runs.tsv, docs/power.png)
Prints the points (steps, held out, effect, detected/runs) on standard output. Exit 77
(SKIP) when matplotlib, which slpi does not require, is not installed; 2 on a bad
argument or an unreadable file."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import power  # noqa: E402

DOCS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs")


def main(argv):
    runs, out, i = [], os.path.join(DOCS, "power.png"), 1
    while i < len(argv):
        if argv[i] == "-o" and i + 1 < len(argv):
            out, i = argv[i + 1], i + 2
        elif argv[i].startswith("-"):
            print(__doc__, file=sys.stderr)
            return 2
        else:
            runs.append(argv[i])
            i += 1
    done = {}
    try:
        for f in runs or [os.path.join(DOCS, "power-runs.tsv")]:
            power.read_runs(f, done)
    except OSError as e:
        print("power_figure.py: %s" % e, file=sys.stderr)
        return 2
    points = power.curve(done.values())
    for (steps, held), pts in points.items():
        for e, d, n in pts:
            print("%d\t%d\t%.4g\t%d/%d" % (steps, held, e, d, n))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("power_figure.py: SKIP: matplotlib is not installed (Debian: python3-matplotlib); no figure",
              file=sys.stderr)
        return 77
    fig, ax = plt.subplots(figsize=(7.2, 4.2), dpi=100)
    colours = {}
    for (steps, held), pts in points.items():
        c = colours.setdefault(steps, "C%d" % len(colours))
        ax.plot([p[0] for p in pts], [p[1] / p[2] for p in pts], color=c, ls="--" if held else "-", marker="o",
                ms=3, lw=1.5, label="%d steps%s" % (steps, ", held out" if held else ""))
    for x in (0.25, 1):
        ax.axvline(x, color="0.4", ls=":", lw=1)
    ax.set_xscale("log")
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel("mean effect of the defect per step (u |x|, u = 2^-24)")
    ax.set_ylabel("detection rate (FAIL)")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
