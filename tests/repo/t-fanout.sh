#!/bin/sh
# t-fanout.sh — what a change costs in recompiles (docs/architecture.md#fan-out), measured
# from the compiler's dependency files ($SLPI_BUILD/<module>/*.d of the modules of the
# architecture table whose source still exists: the objects of the libraries and the
# command; the tests' objects are not counted) and from git's history.
#
# It prints, and never fails on:
#   - each public header's fan-out (the objects whose .d lists it) and its floor (the
#     counted objects whose own source names something that header alone declares, which
#     no choice of includes can go below);
#   - over the last 200 commits that are not merges: the objects each commit would
#     rebuild (those whose .d lists a file it changed), their median, p90 (goal <= 30) and
#     largest, and every header's churn x fan-out (commits that changed it x its
#     fan-out), the ten largest.
# It fails on one rule: a commit after the rule came in (not reachable from RULE_BASE)
# that is not a merge and changes a header seen by more than WIDE objects must change
# docs/architecture.md too, or be named (by 8 hex digits) in its ```wide-changes block,
# with the reason. A self-check runs the rule on a planted commit first, so that the rule
# cannot pass by not looking. Without git history (a tarball, a shallow clone that lacks
# RULE_BASE) the history half is not measured and the test says SKIP (77).
# SKIP (77) too before the build made the dependency files.
cd "$(dirname "$0")/../.." || exit 2
build=${SLPI_BUILD:-build}
exec /usr/bin/python3 - "$build" <<'PY'
import glob, os, re, subprocess, sys

build = sys.argv[1]
RULE_BASE = "78a12706"   # main before the rule (2026-11-28); later commits are judged
WIDE = 50                # a header seen by more objects needs a note when it changes
WINDOW = 200             # commits of the churn measure
GOAL_P90 = 30            # objects rebuilt per commit, p90 (informational)

doc = open("docs/architecture.md").read()
arch = re.search(r"^```architecture\n(.*?)^```", doc, re.S | re.M).group(1)
mods = [l.split()[1] for l in arch.splitlines() if l.startswith("module ")]
# a dependency file of a source that no longer exists (renamed, removed) is left over
deps = [d for mod in mods for d in glob.glob(os.path.join(build, mod, "*.d"))
        if os.path.isfile(os.path.join(mod, os.path.basename(d)[:-2] + ".c"))]
if len(deps) < 100:
    print(f"t-fanout: SKIP: {len(deps)} dependency files under {build}/ (build the tree first)"); sys.exit(77)
seen_by = []            # per object: the repository files its .d lists
for d in deps:
    text = open(d).read().replace("\\\n", " ")
    seen = set()
    for rule in text.split("\n"):
        if ":" not in rule: continue
        for path in rule.split(":", 1)[1].split():
            if not os.path.isabs(path): seen.add(os.path.normpath(path))
    seen_by.append(seen)
count = {}
for seen in seen_by:
    for f in seen: count[f] = count.get(f, 0) + 1
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
for h in headers:
    floor = sum(1 for w in words if w & own[h])
    print(f"t-fanout: {h}: {count.get(h, 0)} of {len(deps)} objects (floor {floor})")

def git(*args):
    r = subprocess.run(["git", *args], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None

def violations(commits, noted):
    """the commits (hash, changed files) that change a header seen by more than WIDE
    objects without changing docs/architecture.md or being noted"""
    out = []
    for h, files in commits:
        wide = sorted(f for f in files if f.endswith(".h") and count.get(f, 0) > WIDE)
        if wide and "docs/architecture.md" not in files and h[:8] not in noted:
            out.append((h, wide))
    return out

# the self-check: a planted commit must be caught, and the same commit noted must not
widest = max((f for f in count if f.endswith(".h")), key=lambda f: count[f])
planted = [("0" * 40, {widest})]
if count[widest] <= WIDE or not violations(planted, set()) or violations(planted, {"0" * 8}) \
        or violations([("1" * 40, {widest, "docs/architecture.md"})], set()):
    print(f"t-fanout: FAIL: the rule's self-check: a planted change of {widest} "
          f"({count[widest]} objects) is not judged as the rule says"); sys.exit(1)

if git("rev-parse", "--verify", "-q", RULE_BASE + "^{commit}") is None:
    print(f"t-fanout: SKIP: no git history with {RULE_BASE} here (a tarball or a shallow clone): "
          "the churn and the rule on wide headers are not measured"); sys.exit(77)

def changed(rev_range, limit=None):
    args = ["log", "--no-merges", "--format=@%H", "--name-only", "--no-renames"]
    if limit: args.append(f"-{limit}")
    out, commits = git(*args, rev_range) or "", []
    for line in out.splitlines():
        if line.startswith("@"): commits.append((line[1:], set()))
        elif line.strip() and commits: commits[-1][1].add(line.strip())
    return commits

window = changed("HEAD", WINDOW)
rebuilt = sorted(sum(1 for seen in seen_by if seen & files) for _, files in window)
if rebuilt:
    pick = lambda q: rebuilt[min(len(rebuilt) - 1, int(q * len(rebuilt)))]
    p90 = pick(0.9)
    print(f"t-fanout: objects rebuilt per commit over the last {len(window)} commits (no merges): "
          f"median {pick(0.5)}, p90 {p90} (goal <= {GOAL_P90}: {'met' if p90 <= GOAL_P90 else 'not met'}), "
          f"largest {rebuilt[-1]}")
churn = {}
for _, files in window:
    for f in files:
        if f.endswith(".h") and count.get(f): churn[f] = churn.get(f, 0) + 1
top = sorted(churn, key=lambda f: (-churn[f] * count[f], f))[:10]
print("t-fanout: churn x fan-out, the ten largest: " +
      ", ".join(f"{f} {churn[f]} x {count[f]}" for f in top))

m = re.search(r"^```wide-changes\n(.*?)^```", doc, re.S | re.M)
noted = {l.split()[0] for l in (m.group(1).splitlines() if m else [])
         if l.strip() and not l.startswith("#")}
bad = violations(changed(f"{RULE_BASE}..HEAD"), noted)
for h, wide in bad:
    print(f"t-fanout: FAIL: commit {h[:8]} changes {', '.join(f'{f} ({count[f]} objects)' for f in wide)} "
          f"without a note: change docs/architecture.md in it, or add '{h[:8]} <reason>' to its "
          "```wide-changes block (#fan-out)")
sys.exit(1 if bad else 0)
PY
