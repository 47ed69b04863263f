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
# build made the dependency files.
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
        print(f"t-fanout: {h}: {n} of {len(deps)} objects")
for h in bound:
    if h not in headers:
        print(f"t-fanout: FAIL: the row {h} names no public header"); fail = 1
sys.exit(fail)
PY
