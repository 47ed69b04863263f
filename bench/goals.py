#!/usr/bin/env python3
"""goals.py - the speed goals' table of docs/experiments.md (#goals), regenerated from the
output of `make bench`.

Every benchmark prints each goal it measures as one line of one form (bench/benchutil.h's
bench_goal, bench/goal.py's line):
    goal ID: VALUE (<= GOAL; bound BOUND) WHAT: met|not met
`make bench` keeps its output in build/bench.log. `goals.py --from LOG` copies the goal
lines and the run's facts (when; the lines `make bench` adds: the commit, the CPU, the
load at the start and the end) into the ledger, docs/bench-goals.txt, and writes the table between the marker lines
<!-- bench-goals --> and <!-- /bench-goals --> of docs/experiments.md: each goal with its
measured value, its goal, its bound where one is known and its verdict, and the goals
the log did not measure. `goals.py --check` exits 1 when the table is not the ledger's,
or a ledger line's verdict is not what its numbers say (2: a file or a marker missing);
`goals.py --write` writes the table from the ledger alone.

usage: goals.py [--from LOG | --write | --check] [--ledger FILE] [--doc FILE]"""
import os
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE = re.compile(r"^goal (\S+): (\S+) \((<=|>=) (\S+)(?:; bound (\S+))?\) (.*): (met|not met)$")
FACT = re.compile(r"^bench-(commit|cpu|load start|load end): ")  # the lines `make bench` adds
BEGIN, END = "<!-- bench-goals -->", "<!-- /bench-goals -->"
# the goals of the speed issue (docs/experiments.md#goals) and the benchmark that measures each
EXPECTED = ([("certified-128", "bench-ref-blas"), ("certified-512", "bench-ref-blas"),
             ("setup-1024", "bench-fast-setup"), ("setup-memory-1024", "bench-fast-setup"),
             ("ensemble-ns-1thread", "bench/ensemble-peers.py"), ("ensemble-ns-2threads", "bench/ensemble-peers.py"),
             ("model-spellings", "bench/model-spellings.py")]
            + [("quflow-%s-N%d-l%s" % (k, n, s), "bench/vs-quflow.py (QUFLOW set)")
               for k in ("like", "equal-accuracy") for n in (128, 256, 512, 1024) for s in ("4", "all")])


def parse(line):
    """a goal line's fields (id, value, op, goal, bound or None, what, verdict), or None"""
    m = LINE.match(line.rstrip("\n"))
    if not m:
        return None
    ident, value, op, goal, bound, what, verdict = m.groups()
    return ident, float(value), op, float(goal), float(bound) if bound else None, what, verdict


def consistent(g):
    """whether a goal line's verdict is what its value and goal say"""
    _, value, op, goal, _, _, verdict = g
    return (value <= goal if op == "<=" else value >= goal) == (verdict == "met")


def ledger_from(log):
    """the ledger's lines from a log of `make bench`: the run's facts (the lines it adds:
    the commit, the CPU, the load at the start and the end), then its goal lines"""
    text = open(log).read().splitlines()
    facts = ["# log: %s, finished %s UTC" % (os.path.basename(log),
                                               time.strftime("%Y-%m-%d %H:%M", time.gmtime(os.path.getmtime(log))))]
    return facts + ["# " + ln for ln in text if FACT.match(ln)] + [ln for ln in text if parse(ln)]


def table(ledger):
    """the block's lines from the ledger's"""
    goals = [parse(ln) for ln in ledger if not ln.startswith("#")]
    out = ["Measured by `make bench`, then `python3 bench/goals.py --from build/bench.log` "
           "(the ledger: docs/bench-goals.txt):", ""]
    out += ["- " + ln[2:] for ln in ledger if ln.startswith("#")]
    out += ["", "| goal | measured | goal | bound | verdict | what |", "|---|---|---|---|---|---|"]
    for ident, value, op, goal, bound, what, verdict in goals:
        out.append("| %s | %.4g | %s %g | %s | %s | %s |" % (ident, value, op, goal, "%g" % bound if bound else "—",
                                                           "**not met**" if verdict == "not met" else "met", what))
    seen = {g[0] for g in goals}
    missing = {}
    for i, b in EXPECTED:
        if i not in seen:
            missing.setdefault(b, []).append(i)
    if missing:
        out += [""] + ["Not measured by this run (%s): %s." % (b, ", ".join(ids)) for b, ids in missing.items()]
    return out


def block(doc):
    """(text, start, end) of the marked block of doc, or exit 2"""
    text = open(doc).read()
    a, b = text.find(BEGIN), text.find(END)
    if a < 0 or b < a:
        print("goals.py: %s: no %s ... %s block" % (doc, BEGIN, END), file=sys.stderr)
        sys.exit(2)
    return text, a + len(BEGIN) + 1, b


def main(argv):
    o = {"--ledger": os.path.join(ROOT, "docs", "bench-goals.txt"), "--doc": os.path.join(ROOT, "docs",
                                                                                          "experiments.md")}
    mode, log = None, None
    it = iter(argv)
    for a in it:
        if a in ("--ledger", "--doc"):
            o[a] = next(it, None)
        elif a == "--from":
            mode, log = "from", next(it, None)
        elif a in ("--check", "--write"):
            mode = a[2:]
        else:
            sys.exit("goals.py: unknown option %s (see its docstring)" % a)
    if mode is None or None in o.values() or (mode == "from" and not log):
        sys.exit("usage: goals.py [--from LOG | --write | --check] [--ledger FILE] [--doc FILE]")
    for f in ([log] if mode == "from" else [o["--ledger"]]) + [o["--doc"]]:
        if not os.path.exists(f):
            print("goals.py: %s: no such file" % f, file=sys.stderr)
            return 2
    if mode == "from":
        ledger = ledger_from(log)
        if not any(not ln.startswith("#") for ln in ledger):
            sys.exit("goals.py: %s holds no goal line" % log)
        with open(o["--ledger"], "w") as f:
            f.write("\n".join(ledger) + "\n")
    ledger = open(o["--ledger"]).read().splitlines()
    bad = [ln for ln in ledger if not ln.startswith("#") and not (parse(ln) and consistent(parse(ln)))]
    if bad:
        print("goals.py: %s: a line that is not a goal's, or whose verdict is not its numbers': %s"
              % (o["--ledger"], bad[0]), file=sys.stderr)
        return 1
    text, a, b = block(o["--doc"])
    want = "\n".join(table(ledger)) + "\n"
    if mode == "check":
        if text[a:b] != want:
            print("goals.py: %s: the goals' table differs from %s (run bench/goals.py --write, or --from "
                  "build/bench.log after `make bench`)" % (o["--doc"], o["--ledger"]), file=sys.stderr)
            return 1
        return 0
    with open(o["--doc"], "w") as f:
        f.write(text[:a] + want + text[b:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
