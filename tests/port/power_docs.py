#!/usr/bin/env python3
"""power_docs.py - the tables of docs/power.md and the power table of oracle/README.md,
generated from the runs kept in docs/power-runs.tsv (tests/port/power.py's binning),
between the marker lines <!-- NAME --> and <!-- /NAME -->:

  docs/power.md     power-table   detected / runs by system, format, length and effect
                    null-table    the correct ports' runs: FAIL / runs, the interval,
                                  the rule's word, the p-values' tail
  oracle/README.md  readme-power  binary32, every system pooled: by length and effect

usage: power_docs.py [--check] [RUNS.tsv]
Writes the blocks (default), or with --check compares them and exits 1 naming each
block that differs (2: a file or a marker missing)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import power  # noqa: E402


def readme_lines(rows):
    """binary32 defect runs (one path each, the one bad step apart), every system and
    implementation pooled: detected / runs by length and effect class"""
    cls = ((1, float("inf"), "≥ 1 u \\|x\\| per step FAILed"), (0.25, 1, "0.25–1 u \\|x\\| FAILed"),
           (0, 0.25, "below 0.25 u"))
    t = {}
    for r in rows:
        if r["defect"] in ("none", "bad") or "-" in r["path"] or r["impl"] in power.IMPL_FORMAT:
            continue
        e = float(r["effect_mean"])
        for j, (lo, hi, _) in enumerate(cls):
            if lo <= e < hi:
                c = t.setdefault((int(r["steps"]), j), [0, 0, 0])
                c[0] += r["exit"] == "1"
                c[1] += 1
                c[2] += r["statistics"] == "LOW-POWER" or r["exit"] == "3"
    lines = ["| steps | " + " | ".join(c[2] for c in cls) + " |", "|---|---|---|---|"]
    for steps in sorted({k[0] for k in t}):
        cells = []
        for j in range(len(cls)):
            c = t.get((steps, j))
            cells.append("%d / %d%s" % (c[0], c[1], " (%d LOW-POWER)" % c[2] if c[2] else "") if c else "")
        lines.append("| %s | %s |" % ("10⁴" if steps == 10000 else steps, " | ".join(cells)))
    return lines


def replace(text, name, lines):
    """text with the block between <!-- name --> and <!-- /name --> replaced, or None
    when a marker is missing"""
    a, b = "<!-- %s -->\n" % name, "<!-- /%s -->" % name
    i, j = text.find(a), text.find(b)
    if i < 0 or j < i:
        return None
    return text[:i + len(a)] + "\n".join(lines).rstrip("\n") + "\n" + text[j:]


def main(argv):
    check = "--check" in argv[1:]
    args = [a for a in argv[1:] if a != "--check"]
    if len(args) > 1 or any(a.startswith("-") for a in args):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        rows = list(power.read_runs(args[0] if args else os.path.join(ROOT, "docs", "power-runs.tsv"), {}).values())
    except OSError as e:
        print("power_docs.py: %s" % e, file=sys.stderr)
        return 2
    blocks = {os.path.join("docs", "power.md"): [("power-table", power.binned_lines(rows)),
                                                 ("null-table", power.null_table(rows))],
              os.path.join("oracle", "README.md"): [("readme-power", readme_lines(rows))]}
    differ = 0
    for name, parts in blocks.items():
        path = os.path.join(ROOT, name)
        try:
            old = open(path, encoding="utf-8").read()
        except OSError as e:
            print("power_docs.py: %s" % e, file=sys.stderr)
            return 2
        new = old
        for block, lines in parts:
            new = replace(new, block, lines)
            if new is None:
                print("power_docs.py: %s: no <!-- %s --> ... <!-- /%s --> block" % (name, block, block), file=sys.stderr)
                return 2
            if check and replace(old, block, lines) != old:
                print("power_docs.py: %s: the %s block is not the runs file's (power_docs.py writes it)"
                      % (name, block), file=sys.stderr)
                differ = 1
        if not check and new != old:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
    return differ


if __name__ == "__main__":
    sys.exit(main(sys.argv))
