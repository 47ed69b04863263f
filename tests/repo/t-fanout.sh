#!/bin/sh
# t-fanout.sh — how many objects a public header recompiles when it is touched
# (docs/architecture.md#fan-out), measured from the compiler's dependency files: every
# object of the libraries and the command ($SLPI_BUILD/<module>/*.d of the modules of the
# architecture table whose source still exists; the tests' objects are not counted) whose
# .d lists the header.
# Each public header (include/slpi/*.h, slpi.h, slpi-tools.h) has a row "HEADER N" in
# the ```fanout block of that section: more objects than N fails (a new include of a
# public header where a narrower one would do), fewer fails until the row is lowered, so
# the bound only goes down, towards the goal the section states. SKIP (77) before the
# build made the dependency files. Each line also says the header's floor: the counted
# objects whose own source names something that header alone declares (its slpi_ and
# SLPI_ names less those another header declares too, as the forward typedefs),
# which no choice of includes can bring the count below.
cd "$(dirname "$0")/../.." || exit 2
build=${SLPI_BUILD:-build}
exec /usr/bin/python3 - "$build" <<'PY'
import glob, os, re, sys

build = sys.argv[1]
doc = open("docs/architecture.md").read()
m = re.search(r"^```fanout\n(.*?)^```", doc, re.S | re.M)
if not m:
    print("t-fanout: FAIL: docs/architecture.md has no ```fanout block"); sys.exit(1)
bound = {}
for line in m.group(1).splitlines():
    if line.strip() and not line.startswith("#"):
        h, n = line.split()
        bound[h] = int(n)
arch = re.search(r"^```architecture\n(.*?)^```", doc, re.S | re.M).group(1)
mods = [l.split()[1] for l in arch.splitlines() if l.startswith("module ")]
# a dependency file of a source that no longer exists (renamed, removed) is left over
deps = [d for mod in mods for d in glob.glob(os.path.join(build, mod, "*.d"))
        if os.path.isfile(os.path.join(mod, os.path.basename(d)[:-2] + ".c"))]
if len(deps) < 100:
    print(f"t-fanout: SKIP: {len(deps)} dependency files under {build}/ (build the tree first)"); sys.exit(77)
count = {}
for d in deps:
    text = open(d).read().replace("\\\n", " ")
    seen = set()
    for rule in text.split("\n"):
        if ":" not in rule: continue
        for path in rule.split(":", 1)[1].split():
            seen.add(os.path.normpath(path))
    for h in seen: count[h] = count.get(h, 0) + 1
headers = sorted(glob.glob("include/slpi/*.h")) + ["slpi.h", "slpi-tools.h"]

def declared(h):
    """the slpi_/SLPI_ names h declares: macros, enum constants, typedefs, functions"""
    src = re.sub(r"/\*.*?\*/|//[^\n]*", " ", open(h).read(), flags=re.S)
    out = set(re.findall(r"^#\s*define\s+((?:slpi|SLPI)_\w+)", src, re.M))
    for body in re.findall(r"\benum\b[^{;]*\{([^}]*)\}", src):
        out |= set(re.findall(r"\b(SLPI_\w+)\s*(?:=|,|$)", body.strip()))
    out |= set(re.findall(r"\}\s*(slpi_\w+)\s*;", src))
    out |= set(re.findall(r"\btypedef\b[^;{}]*?\b(slpi_\w+)\s*;", src))
    out |= set(re.findall(r"\btypedef\b[^;{}]*\(\s*\*\s*(slpi_\w+)\s*\)", src))
    out |= set(re.findall(r"^[A-Za-z_][\w \t\*]*?\b(slpi_\w+)\s*\(", src, re.M))
    return {n for n in out if not re.fullmatch(r"SLPI_\w+_H", n)}
decl = {h: declared(h) for h in headers}
# a type the tree's private headers name by a forward typedef too is not the header's alone
fwd = {n for f in glob.glob("*/*.h") if not f.startswith(("include/", "tests/", "bench/"))
       for n in re.findall(r"\btypedef\s+struct\s+\w+\s+(slpi_\w+)\s*;", open(f).read())}
own = {h: decl[h] - fwd - set().union(*(decl[g] for g in headers if g != h)) for h in headers}
texts = [open(os.path.join(os.path.dirname(d).split(build + os.sep, 1)[-1], os.path.basename(d)[:-2] + ".c")).read()
         for d in deps]
words = [set(re.findall(r"\b(?:slpi|SLPI)_\w+", re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', " ", t, flags=re.S)))
         for t in texts]
floor = {h: sum(1 for w in words if w & own[h]) for h in headers}
fail = 0
for h in headers:
    n = count.get(h, 0)
    if h not in bound:
        print(f"t-fanout: FAIL: {h} recompiles {n} objects and has no row in docs/architecture.md#fan-out"); fail = 1
    elif n > bound[h]:
        print(f"t-fanout: FAIL: {h} recompiles {n} objects, its bound is {bound[h]}: include a narrower header"); fail = 1
    elif n < bound[h]:
        print(f"t-fanout: FAIL: {h} recompiles {n} objects, below its bound {bound[h]}: lower the row to {n}"); fail = 1
    else:
        print(f"t-fanout: {h}: {n} of {len(deps)} objects (floor {floor[h]})")
for h in bound:
    if h not in headers:
        print(f"t-fanout: FAIL: the row {h} names no public header"); fail = 1
sys.exit(fail)
PY
