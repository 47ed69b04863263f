#!/usr/bin/python3
"""tests/mutants/suite.py — the test suite as the mutant tools see it: where each test
is, the quick suite (every test but the SLOW ones) in tests/mutants/run.sh's order, and
the tests relevant to a mutated file, which a patch names first in its "# killed-by:"
line (tests/mutants/generate.py, tests/mutants/covmap.py)."""
import os
import re

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MODULES = ["core", "fast", "ref", "api", "oracle", "props", "gaps", "reports"]

# Left out of the quick suite (named and run after): the tests that rebuild the tree with
# other compilers or options (they check builds, not results, and cost minutes each), the
# three slowest of the suite (props harness, converge checkpoints, audit controls: >= 39 s
# each in a baseline run at load 12) and the mutation self-tests. `make mutants` runs them.
SLOW = ("t-props-harness t-converge-ckpt t-audit-controls t-noise-builds t-kernels-nofma "
        "t-second-compiler t-install t-determinism t-fuzz-smoke t-mutants t-mutants-random").split()


def module_of(path):
    return path.split("/")[0]



def test_sources():
    """{file name: path relative to TOP} of every test, tests/<module>/t-*.c|sh and any
    left at tests/ itself (tests/README.md)"""
    out = {}
    top = os.path.join(TOP, "tests")
    for d in [top] + sorted(os.path.join(top, e) for e in os.listdir(top)):
        if os.path.isdir(d):
            for f in sorted(os.listdir(d)):
                if re.fullmatch(r"t-[\w-]+\.(c|sh)", f):
                    out.setdefault(f, os.path.relpath(os.path.join(d, f), TOP))
    return out


def quick_suite(s):
    """the tests relevant to the mutated file, most specific first (at most six)"""
    where = test_sources()
    tests = sorted(p for p in where if p.rsplit(".", 1)[0] not in SLOW)
    names = []
    for t in tests:
        n = t.rsplit(".", 1)[0]
        if n not in names:
            names.append(n)
    stem = os.path.basename(s.path)[:-2].replace("_", "-")
    mod = module_of(s.path)
    first = [n for n in names if stem in n and (mod in n or mod in ("core", "reports", "oracle", "props", "gaps"))]
    first += [n for n in names if stem in n and n not in first]
    src = open(os.path.join(TOP, s.path)).read()
    funcs = set(re.findall(r"^\w[\w \*]*?\b(slpi_\w+)\s*\(", src, re.M))
    users = []
    if funcs:
        pat = re.compile(r"\b(" + "|".join(sorted(funcs)) + r")\b")
        for n in names:
            for ext in (".c", ".sh"):
                p = os.path.join(TOP, where.get(n + ext, "-"))
                if n + ext in where and pat.search(open(p, errors="replace").read()):
                    users.append(n)
                    break
    own = [n for n in names if n.startswith("t-" + mod)]
    # the schemes' known-answer tests compare both paths with stored values
    kat = ["t-golden"] if mod in ("fast", "ref") else []
    out = []
    for n in first + kat + users + own:
        if n not in out:
            out.append(n)
    return out[:6]


def suite_names():
    """the quick suite in run.sh's order (t-provenance, the C tests, the shell tests),
    without the SLOW tests and the mutation self-test"""
    where = test_sources()
    c = sorted(f[:-2] for f in where if f.endswith(".c"))
    sh = sorted(f[:-3] for f in where if f.endswith(".sh"))
    names = ["t-provenance"] + [n for n in c if n != "t-provenance"] + [n for n in sh if n not in c]
    return [n for n in names if n not in SLOW and n != "t-mutants"]
