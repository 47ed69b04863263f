#!/usr/bin/python3
"""tests/mutants/covmap.py — the per-test coverage map of the mutant generator
(tests/mutants/generate.py, SELECT=coverage).

Tests selected by coverage (SELECT=coverage): a survivor of the quick suite costs the
whole suite (15 to 30 min under load) for nothing when no test even executes the mutated
line. `generate.py map` (make mutants-map) runs each quick-suite test alone in the
coverage build with its own GCOV_PREFIX and records which source lines it executed
(build/coverage/test-lines.json; about one -O0 `make check`). With --select=coverage
each patch gets a line `# only: TESTS`: the tests that execute the mutated statement
(its whole statement, not just the token's line, because gcov places a multi-line
expression's code on one of its lines; a case label's whole switch), relevant ones
first; run.sh runs those and no others, and `# only: none` makes the mutant SURVIVED at
once ("no test executes it", counted as unreached) after checking that it compiles.
Why that is sound: a test that never executes a statement cannot see it changed. Not so
for data, which the map cannot place: a site with no instrumented line in its statement
(a file-scope initializer, a static table, a parameter's array size) and every site of a
file changed since the map was made get no `# only:` line and run the whole quick suite.
The selection can only lose kills, never invent them (a kill is a real test failing), so
the rate it reports is a lower bound of the whole-suite rate, except where a process
that executed the line ended without writing its coverage (killed by a signal: only the
writers tests kill on purpose) -- that too only loses kills. The default stays the
whole quick suite: the map costs a coverage run and must match the tree.
"""
import collections
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

from suite import MODULES, TOP, module_of, suite_names, test_sources

# `generate.py map` (make mutants-map): each test of the quick suite run alone in the
# coverage build (build/coverage, as `make coverage` builds it) with its own GCOV_PREFIX,
# so its .gcda files (those of every process it starts: slpi, Python's libslpi) land in
# a folder of its own; gcov's JSON then says which source lines each test executed.
# The map (build/coverage/test-lines.json) holds, per library source: its SHA-1 at the
# time, its instrumented lines, and for each executed line the tests that executed it.
COV = os.path.join(TOP, "build", "coverage")
MAP = os.environ.get("SLPI_MUTANTS_MAP") or os.path.join(COV, "test-lines.json")   # env: the self-test's map


def sha1(path):
    return hashlib.sha1(open(os.path.join(TOP, path), "rb").read()).hexdigest()


def gcov_lines(objdir, files, cwd):
    """{source (relative to TOP): {line: count}} from gcov's JSON for the .gcda (or,
    for the instrumented lines alone, .gcno) files of one object folder"""
    out = {}
    if not files:
        return out
    r = subprocess.run(["gcov", "-t", "-j", "-o", objdir] + files, cwd=cwd, capture_output=True, text=True)
    for doc in r.stdout.splitlines():
        doc = doc.strip()
        if not doc.startswith("{"):
            continue
        for f in json.loads(doc).get("files", []):
            src = os.path.relpath(os.path.join(TOP, f["file"]), TOP)
            if module_of(src) not in MODULES or not src.endswith(".c"):
                continue
            d = out.setdefault(src, {})
            for ln in f["lines"]:
                d[ln["line_number"]] = d.get(ln["line_number"], 0) + ln["count"]
    return out


def make_map(tmo):
    flags = ["BUILD=" + os.path.relpath(COV, TOP), "CFLAGS=-O0 -g --coverage"]
    print("mutants-map: building the coverage build %s" % COV, flush=True)
    if subprocess.run(["make", "-C", TOP, "--no-print-directory", "-j2"] + flags + ["all", "tests"]).returncode:
        print("mutants-map: the coverage build failed")
        return 2
    gcnos = [os.path.relpath(os.path.join(d, f), COV) for d, _, fs in os.walk(COV)
             if "per-test" not in os.path.relpath(d, COV).split(os.sep) for f in fs if f.endswith(".gcno")]
    bydir = collections.defaultdict(list)
    for g in gcnos:
        bydir[os.path.dirname(g)].append(os.path.basename(g))
    # the instrumented lines: gcov on the notes alone ("assuming not executed")
    executable = collections.defaultdict(set)
    for d, fs in bydir.items():
        for src, lines in gcov_lines(os.path.join(COV, d), [os.path.join(COV, d, f) for f in fs], "/tmp").items():
            executable[src].update(lines)
    per = os.path.join(COV, "per-test")
    shutil.rmtree(per, ignore_errors=True)
    executed = collections.defaultdict(lambda: collections.defaultdict(set))
    names = suite_names()
    env0 = dict(os.environ, SLPI_BUILD=os.path.relpath(COV, TOP), SLPI_BIN=os.path.join(COV, "slpi"),
                GCOV_PREFIX_STRIP="0")
    failed = []
    for i, name in enumerate(names):
        prefix = os.path.join(per, name)
        env = dict(env0, GCOV_PREFIX=prefix)
        start = time.time()
        ok = True
        where = test_sources()
        for cmd, src in (([os.path.join(COV, "tests", name)], name + ".c"), (["sh", where.get(name + ".sh")], name + ".sh")):
            if src not in where:
                continue
            with open(os.path.join(COV, "tests", name + ".map.log"), "a") as log:
                rc = subprocess.run(["timeout", str(tmo)] + cmd, cwd=TOP, env=env, stdout=log, stderr=log).returncode
            ok = ok and rc in (0, 77)
        if not ok:
            failed.append(name)
        # the test's data beside the notes they belong to (gcov reads both from one folder)
        root = prefix + COV
        nlines = 0
        for d, _, fs in os.walk(root):
            gcdas = [f for f in fs if f.endswith(".gcda")]
            rel = os.path.relpath(d, root)
            for f in gcdas:
                note = os.path.join(COV, rel, f[:-5] + ".gcno")
                if os.path.exists(note) and not os.path.exists(os.path.join(d, f[:-5] + ".gcno")):
                    os.symlink(note, os.path.join(d, f[:-5] + ".gcno"))
            for src, lines in gcov_lines(d, [os.path.join(d, f) for f in gcdas], "/tmp").items():
                for ln, cnt in lines.items():
                    if cnt > 0:
                        executed[src][ln].add(i)
                        nlines += 1
        shutil.rmtree(prefix, ignore_errors=True)
        print("mutants-map: %-28s %5.0f s  %6d lines executed%s" % (name, time.time() - start, nlines,
                                                                    "" if ok else "  (FAILED: its lines still count)"),
              flush=True)
    doc = {"tests": names, "failed": failed,
           "files": {src: {"sha1": sha1(src), "executable": sorted(executable[src]),
                           "executed": {str(ln): sorted(t) for ln, t in sorted(executed[src].items())}}
                     for src in sorted(executable)}}
    with open(MAP, "w") as fp:
        json.dump(doc, fp)
    print("mutants-map: %d tests, %d sources -> %s%s" % (len(names), len(doc["files"]), MAP,
                                                          "; failed in the coverage build: " + " ".join(failed) if failed else ""))
    return 0


def load_map():
    if not os.path.exists(MAP):
        sys.stderr.write("generate.py: no per-test coverage map %s: run `make mutants-map` first\n" % MAP)
        sys.exit(2)
    return json.load(open(MAP))


def select_tests(s, cmap):
    """The tests that execute the site's statement, by the map: a list (empty: no test
    executes it), or None where the map cannot say and the whole quick suite must run:
    the file changed since the map was made, or the site is data (a file-scope
    initializer, a parameter's array size, a static table: no instrumented line in its
    statement, yet every use of it may change)."""
    f = cmap["files"].get(s.path)
    if f is None or f["sha1"] != sha1(s.path) or s.stmt is None:
        return None
    lines = set(range(s.stmt[0], s.stmt[1] + 1))
    if not lines & set(f["executable"]):
        return None
    idx = set()
    for ln in lines:
        idx.update(f["executed"].get(str(ln), ()))
    return [cmap["tests"][i] for i in sorted(idx)]
