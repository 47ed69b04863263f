#!/usr/bin/python3
"""tests/mutants/generate.py — generated mutants (`make mutants-random SEED=s N=n`).

The hand-written mutants of tests/mutants/*.patch are bugs somebody chose; these are
drawn at random, reproducibly from a seed, over every module's C sources (core fast ref api
oracle props gaps reports). Mutation sites are AST nodes found by clang's parser
(Debian's python3-clang, libclang's Python bindings), never by regular expressions:

  op-arith   a binary + - * / % swapped (+ <-> -, * <-> /, % -> *)
  op-cmp     a comparison or logical operator swapped (< <->  <=, > <-> >=, == <-> !=,
             && <-> ||)
  const      an integer literal k -> k + 1, a floating literal x -> 2 x (0 -> 1)
  negate     the condition of an if, a while or a ?: negated
  delete     an expression statement (call, assignment, ++/--) replaced by (void) 0
             (not a release, free or *_clear: that only leaks, which make asan checks)
  swap-args  two adjacent call arguments of the same type swapped (not the operands of a
             symmetric call: strcmp, fmax, arb_add, ..., SYMMETRIC)
  midpoint   in the certified path, ref/ and gaps/ (calls to Arb functions writing a ball, a complex
             ball or a ball matrix): the result replaced by its midpoint (a set by a point)

Sampling: N mutants are split over the modules in proportion to their lines of C
(largest remainders); within a module each mutant draws an operator kind uniformly among
the kinds the module offers, then a site uniformly among that kind's sites, without
repetition. The site lists are in file and AST order, so the same seed and tree give the
same mutants.

Each mutant is written as tests/mutants-format patch (see tests/mutants/run.sh): its
"# killed-by:" names the quick suite's first tests, those relevant to the mutated file
(the tests whose name holds the file's stem, or that call a function the file defines,
then the module's own tests); tests/mutants/run.sh then applies it in its scratch tree,
builds, runs those first and the rest of the suite after them, stopping at the first
failure, each test under a timeout. A mutant that does not compile does not count.

Tests selected by coverage (SELECT=coverage): tests/mutants/covmap.py.

usage: generate.py list SEED N [SCOPE...]        the mutants, one line each (no files)
       generate.py write SEED N DIR [SCOPE...] [--select=coverage]
                                        write DIR/NAME.patch for each
       generate.py run SEED N [--select=full|coverage] [--par=P] [--scope=SCOPE,...]
                                        write to build/mutants-random/SEED and run them,
                                        then the table killed / timed out / survived /
                                        unreached / not compiled by module and the cost
                                        per mutant; P (1 to 4) runners at once, each in
                                        its own scratch tree with make -j1
       generate.py map [TIMEOUT]        the per-test coverage map (make mutants-map)
A SCOPE is a module (gaps: the self-test tests/repo/t-mutants-random.sh), a source file or
a glob of them (core/plan.c, api/ensemble*.c: the files a round changed); none: every
module. The quotas are then by the lines of the files in scope.
"""
import collections
import difflib
import fnmatch
import glob
import os
import queue
import random
import re
import subprocess
import sys
import threading

import clang.cindex as ci

import covmap
from suite import MODULES, SLOW, TOP, module_of, quick_suite

CLANG_ARGS = ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-I" + TOP, "-I" + os.path.join(TOP, "core"),
              "-DSLPI_VERSION=\"0\"", "-DSLPI_GIT_REV=\"0\"", "-DSLPI_CC=\"cc\"",
              "-DSLPI_CFLAGS=\"\"", "-DSLPI_DATADIR=\"/\"", "-fopenmp"]
# libclang does not know where its own headers (stddef.h, omp.h) are: give the paths.
for d in ("/usr/lib/llvm-14/lib/clang/14.0.6/include", "/usr/lib/gcc/x86_64-linux-gnu/12/include"):
    if os.path.isdir(d):
        CLANG_ARGS.append("-isystem" + d)

ARITH = {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*"}
CMP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==", "&&": "||", "||": "&&"}
# Calls symmetric in two adjacent arguments (name: index of the first of them): swapping
# those is an equivalent mutant by construction, so no site is made there.
SYMMETRIC = {"strcmp": 0, "strcasecmp": 0, "fmax": 0, "fmin": 0, "hypot": 0, "mag_max": 1, "mag_min": 1,
             "mag_add": 1, "mag_mul": 1, "arb_add": 1, "arb_mul": 1, "arb_max": 1, "arb_min": 1, "arb_union": 1,
             "arb_addmul": 1, "arb_submul": 1, "arb_hypot": 1, "acb_add": 1, "acb_mul": 1, "acb_addmul": 1,
             "arb_mat_add": 1, "acb_mat_add": 1, "_arb_vec_add": 1, "_acb_vec_add": 1, "arb_overlaps": 0}

# Arb calls whose first argument is not a result (or whose result is not a set)
# or whose result is exact anyway (a double, an integer, zero: its midpoint is itself)
NOT_RESULT = re.compile(r"(init|clear|swap|print|contains|overlaps|get_mid|is_|equal|fprint|"
                        r"randtest|entry_ptr|window|get_str|set_str|get_ubound|get_lbound|"
                        r"zero|one|_set_d|_set_si|_set_ui|_set_fmpz|pos_inf|neg_inf|indeterminate|"
                        r"set_round)")
# deleting a release (free, *_clear) only leaks: no test output can change (make asan's job)
RELEASE = re.compile(r"^(free|\w*_clear|\w*_free)$")
MID = {"arb_struct": "arb_get_mid_arb", "acb_struct": "acb_get_mid",
       "arb_mat_struct": "arb_mat_get_mid", "acb_mat_struct": "acb_mat_get_mid"}


def sources():
    """The modules' C sources, relative to TOP. From the folders themselves, not git:
    run.sh's scratch tree (where t-mutants-random.sh also runs) is no repository."""
    return sorted(os.path.relpath(f, TOP) for m in MODULES for f in glob.glob(os.path.join(TOP, m, "*.c")))


class Site:
    def __init__(self, path, kind, start, end, old, new, line, stmt):
        self.path, self.kind, self.start, self.end = path, kind, start, end
        self.old, self.new, self.line = old, new, line
        # stmt: the lines (first, last) of the statement the site is in (the nearest
        # statement of a block; a whole switch for its case labels), None outside a
        # function body (a file-scope initializer: data, see select_tests)
        self.stmt = stmt

    def describe(self):
        def short(s):
            s = " ".join(s.split())
            return s if len(s) <= 60 else s[:57] + "..."
        return "%s at %s:%d: `%s` -> `%s`" % (self.kind, self.path, self.line, short(self.old), short(self.new))


def sites_of(path):
    """every mutation site of one C file, in AST order"""
    full = os.path.join(TOP, path)
    src = open(full, "rb").read()
    tu = ci.Index.create().parse(full, args=CLANG_ARGS)
    out = []

    def here(c):
        return c.extent.start.file is not None and c.extent.start.file.name == full \
            and c.extent.end.file is not None and c.extent.end.file.name == full

    def text(a, b):
        return src[a:b].decode("utf-8", "replace")

    stmt = [None]   # the statement being walked (its first and last line)

    def add(kind, a, b, new, line, where=None):
        old = text(a, b)
        if old != new and b > a:
            out.append(Site(path, kind, a, b, old, new, line, where or stmt[0]))

    def lines_of(c):
        return (c.extent.start.line, c.extent.end.line)

    def walk(c, parent, switch):
        outer = stmt[0]
        if parent is not None and parent.kind == ci.CursorKind.COMPOUND_STMT and here(c):
            # a case label's constant decides which inputs reach the case: whoever
            # executes the switch may notice it, so the statement is the whole switch
            case = c.kind in (ci.CursorKind.CASE_STMT, ci.CursorKind.DEFAULT_STMT)
            stmt[0] = switch if case and switch else lines_of(c)
        if here(c):
            visit(c, parent)
        inner = lines_of(c) if c.kind == ci.CursorKind.SWITCH_STMT and here(c) else switch
        for ch in c.get_children():
            walk(ch, c, inner)
        stmt[0] = outer

    def visit(c, parent):
        k = c.kind
        kids = list(c.get_children())
        line = c.extent.start.line
        if k == ci.CursorKind.BINARY_OPERATOR and len(kids) == 2 and here(kids[0]) and here(kids[1]):
            a, b = kids[0].extent.end.offset, kids[1].extent.start.offset
            op = text(a, b).strip()
            if op in ARITH:
                p = a + text(a, b).index(op)
                add("op-arith", p, p + len(op), ARITH[op], line)
            elif op in CMP:
                p = a + text(a, b).index(op)
                add("op-cmp", p, p + len(op), CMP[op], line)
        elif k == ci.CursorKind.INTEGER_LITERAL:
            t = text(c.extent.start.offset, c.extent.end.offset)
            m = re.fullmatch(r"(\d+)([uUlL]*)", t)
            if m:
                add("const", c.extent.start.offset, c.extent.end.offset, str(int(m.group(1)) + 1) + m.group(2), line)
        elif k == ci.CursorKind.FLOATING_LITERAL:
            t = text(c.extent.start.offset, c.extent.end.offset)
            m = re.fullmatch(r"([0-9.eE+-]+)([fFlL]?)", t)
            if m:
                try:
                    v = float(m.group(1))
                except ValueError:
                    return
                add("const", c.extent.start.offset, c.extent.end.offset,
                    (repr(2 * v) if v != 0 else "1.0") + m.group(2), line)
        elif k in (ci.CursorKind.IF_STMT, ci.CursorKind.WHILE_STMT, ci.CursorKind.CONDITIONAL_OPERATOR):
            if kids and here(kids[0]):
                a, b = kids[0].extent.start.offset, kids[0].extent.end.offset
                add("negate", a, b, "!(" + text(a, b) + ")", line)
        elif k == ci.CursorKind.COMPOUND_STMT:
            for s in kids:
                if not here(s):
                    continue
                a, b = s.extent.start.offset, s.extent.end.offset
                if s.kind == ci.CursorKind.CALL_EXPR and RELEASE.match(s.spelling or ""):
                    continue
                if s.kind == ci.CursorKind.CALL_EXPR or s.kind == ci.CursorKind.COMPOUND_ASSIGNMENT_OPERATOR \
                        or (s.kind == ci.CursorKind.UNARY_OPERATOR and re.search(r"\+\+|--", text(a, b))) \
                        or (s.kind == ci.CursorKind.BINARY_OPERATOR and re.search(r"[^=!<>]=[^=]", text(a, b))):
                    if src[b:b + 1] == b";":
                        add("delete", a, b, "(void) 0", s.extent.start.line, lines_of(s))
                if s.kind == ci.CursorKind.CALL_EXPR and module_of(path) in ("ref", "gaps"):
                    midpoint(s, a, b)
        if k == ci.CursorKind.CALL_EXPR:
            args = list(c.get_arguments())
            for i in range(len(args) - 1):
                if SYMMETRIC.get(c.spelling, -1) == i:
                    continue
                x, y = args[i], args[i + 1]
                if not (here(x) and here(y)):
                    continue
                if x.type.get_canonical().spelling != y.type.get_canonical().spelling:
                    continue
                xa, xb, ya, yb = x.extent.start.offset, x.extent.end.offset, y.extent.start.offset, y.extent.end.offset
                if not (xa < xb <= ya < yb):
                    continue
                tx, ty = text(xa, xb), text(ya, yb)
                if tx != ty:
                    add("swap-args", xa, yb, ty + text(xb, ya) + tx, line)

    def midpoint(s, a, b):
        name = s.spelling
        if not re.match(r"(arb|acb)_", name) or NOT_RESULT.search(name):
            return
        args = list(s.get_arguments())
        if not args or not here(args[0]):
            return
        t = args[0].type.get_canonical().spelling
        if "const" in t:
            return
        base = re.match(r"(struct )?(\w+)", t)
        if base is None or base.group(2) not in MID:
            return
        if src[b:b + 1] != b";":
            return
        r = text(args[0].extent.start.offset, args[0].extent.end.offset)
        call = text(a, b + 1)
        add("midpoint", a, b + 1, call + " %s(%s, %s);" % (MID[base.group(2)], r, r), s.extent.start.line,
            lines_of(s))

    for top in tu.cursor.get_children():   # the file's own declarations, not its headers'
        if top.location.file is not None and top.location.file.name == full:
            walk(top, None, None)
    # one site per (place, replacement): the walk may meet a node twice through macros
    seen, uniq = set(), []
    for s in out:
        key = (s.start, s.end, s.new)
        if key not in seen:
            seen.add(key)
            uniq.append(s)
    return uniq


def in_scope(path, scopes):
    """path (relative to TOP) is in one of the scopes: a module's name, or a file or a
    glob of files under a module (core/plan.c, api/ensemble*.c)"""
    return any(module_of(path) == s if s in MODULES else fnmatch.fnmatchcase(path, s) for s in scopes)


def scope_ok(scopes):
    """every scope names a module or matches a source (a typo draws from nothing)"""
    return all(s in MODULES or any(in_scope(f, [s]) for f in sources()) for s in scopes)


def draw(seed, n, scopes=MODULES):
    """n mutants of the sources in scopes (modules, files or globs); the modules in the
    order their scopes are given, so a list of modules draws as it always did"""
    modules = list(dict.fromkeys(s if s in MODULES else module_of(s) for s in scopes))
    files = [f for f in sources() if in_scope(f, scopes)]
    lines = collections.Counter()
    bymod = collections.defaultdict(lambda: collections.defaultdict(list))
    for f in files:
        m = module_of(f)
        lines[m] += sum(1 for _ in open(os.path.join(TOP, f), "rb"))
        for s in sites_of(f):
            bymod[m][s.kind].append(s)
    total = sum(lines[m] for m in modules)
    quota = {m: n * lines[m] // total for m in modules}
    rema = sorted(modules, key=lambda m: (-(n * lines[m] % total), MODULES.index(m)))
    for m in rema[:n - sum(quota.values())]:
        quota[m] += 1
    rng = random.Random(seed)
    chosen = []
    for m in modules:
        kinds = {k: list(v) for k, v in sorted(bymod[m].items()) if v}
        for _ in range(quota[m]):
            if not kinds:
                break
            k = rng.choice(sorted(kinds))
            s = kinds[k].pop(rng.randrange(len(kinds[k])))
            if not kinds[k]:
                del kinds[k]
            chosen.append(s)
    return chosen


def patch_text(s):
    full = os.path.join(TOP, s.path)
    src = open(full, "rb").read()
    new = src[:s.start] + s.new.encode() + src[s.end:]
    a = src.decode("utf-8", "replace").splitlines(keepends=True)
    b = new.decode("utf-8", "replace").splitlines(keepends=True)
    return "".join(difflib.unified_diff(a, b, "a/" + s.path, "b/" + s.path, n=3))


def name_of(seed, i, s):
    stem = os.path.basename(s.path)[:-2]
    return "gen-%s-%03d-%s-%s-%s-%d" % (seed, i, module_of(s.path), stem, s.kind, s.line)


def write(seed, n, outdir, scopes=MODULES, select="full"):
    """the patches; select "coverage": each with the line `# only: TESTS` (the tests
    that execute its statement, by the map; `none` if no test does), which run.sh runs
    instead of the whole quick suite; data sites keep the whole suite"""
    cmap = covmap.load_map() if select == "coverage" else None
    os.makedirs(outdir, exist_ok=True)
    for f in os.listdir(outdir):
        if f.endswith(".patch"):
            os.remove(os.path.join(outdir, f))
    names = []
    for i, s in enumerate(draw(seed, n, scopes)):
        name = name_of(seed, i, s)
        first = quick_suite(s)
        only = covmap.select_tests(s, cmap) if cmap else None
        if only:   # the relevant ones first, as in the whole-suite mode
            only = [t for t in first if t in only] + [t for t in only if t not in first]
            first = only[:6]
        with open(os.path.join(outdir, name + ".patch"), "w") as fp:
            fp.write("# what: %s (generated, seed %s)\n" % (s.describe(), seed))
            fp.write("# killed-by: %s\n" % " ".join(first or ["t-golden"]))
            if only is not None:
                fp.write("# only: %s\n" % (" ".join(only) or "none"))
            fp.write(patch_text(s))
        names.append(name)
    return names


def run(seed, n, select="full", par=1, scopes=MODULES):
    outdir = os.path.join(TOP, "build", "mutants-random", str(seed))
    print("mutants-random: seed %s, N %d, tests: %s (reproduce: make mutants-random SEED=%s N=%d SELECT=%s%s)"
          % (seed, n, "those executing the mutated statement (map %s)" % covmap.MAP if select == "coverage"
             else "the quick suite", seed, n, select,
             "" if scopes == MODULES else " SCOPE='%s'" % " ".join(scopes)), flush=True)
    names = write(seed, n, outdir, scopes, select=select)
    order = list(names)
    random.Random(str(seed) + "-order").shuffle(order)
    env = dict(os.environ, SLPI_MUTANTS_DIR=outdir)
    env.setdefault("SLPI_MUTANTS_TIMEOUT", "300")
    env.setdefault("SLPI_MUTANTS_EXCLUDE", " ".join(SLOW))
    scratch = env.get("SLPI_MUTANTS_SCRATCH", os.path.join(TOP, "build", "mutants"))
    res, secs = {}, collections.defaultdict(list)
    # par runners, each with its own scratch tree and every par-th mutant of the order,
    # make -j1 each (the mutants are independent; the table does not depend on par)
    procs = []
    for k in range(par):
        envk = dict(env, SLPI_MUTANTS_SCRATCH=scratch if k == 0 else "%s-%d" % (scratch, k + 1))
        if par > 1:
            envk["SLPI_MUTANTS_JOBS"] = "1"
        procs.append(subprocess.Popen(["sh", os.path.join(TOP, "tests", "mutants", "run.sh")] + order[k::par],
                                      env=envk, stdout=subprocess.PIPE, text=True))
    lines = queue.Queue()

    def reader(k, proc):
        for line in proc.stdout:
            lines.put(line if par == 1 else "[%d] %s" % (k + 1, line))
        lines.put(None)
    for k, proc in enumerate(procs):
        threading.Thread(target=reader, args=(k, proc), daemon=True).start()
    done = 0
    while done < par:
        line = lines.get()
        if line is None:
            done += 1
            continue
        sys.stdout.write(line)
        sys.stdout.flush()
        w = line.split()[1:] if par > 1 else line.split()
        if len(w) >= 2 and w[1].rstrip(":") in names:
            name = w[1].rstrip(":")
            if w[0] == "KILLED":
                res[name] = "timed out" if "timed out" in line else "killed"
            elif w[0] == "SURVIVED":
                res[name] = "unreached" if "no test executes" in line else "survived"
            elif w[0] in ("BROKEN", "STALE"):
                res[name] = "not compiled"
            t = re.search(r"\((\d+) s\)\s*$", line)
            if t and name in res:
                secs[res[name]].append(int(t.group(1)))
    for proc in procs:
        proc.wait()
    cols = ["killed", "timed out", "survived", "unreached", "not compiled", "not run"]
    table = collections.OrderedDict((m, collections.Counter()) for m in MODULES)
    for name in names:
        table[name.split("-")[3]][res.get(name, "not run")] += 1
    print("\nmutants-random: seed %s, N %d, SELECT=%s" % (seed, n, select))
    print("%-8s %7s %9s %8s %9s %12s %7s  %s" % ("module", "killed", "timed-out", "survived", "unreached",
                                                 "not-compiled", "not-run", "killed/compiled"))
    tot = collections.Counter()

    def row(m, c):
        comp = c["killed"] + c["timed out"] + c["survived"] + c["unreached"]
        print("%-8s %7d %9d %8d %9d %12d %7d  %s" % (m, c["killed"], c["timed out"], c["survived"], c["unreached"],
                                                     c["not compiled"], c["not run"],
                                                     "%.1f %%" % (100.0 * (comp - c["survived"] - c["unreached"]) / comp)
                                                     if comp else "-"))
    for m, c in table.items():
        tot.update(c)
        row(m, c)
    row("all", tot)
    print("(unreached: survived because no test executes the mutated statement, by the map)")
    for k in cols:
        if secs[k]:
            print("cost: %-9s %4d mutants, %6.0f s each on average, %6d s in all" % (k, len(secs[k]),
                  sum(secs[k]) / len(secs[k]), sum(secs[k])))
    return 0 if tot["survived"] == 0 and tot["unreached"] == 0 and tot["not run"] == 0 else 1


def main(argv):
    if len(argv) >= 3 and argv[0] == "list" and scope_ok(argv[3:]):
        for i, s in enumerate(draw(argv[1], int(argv[2]), argv[3:] or MODULES)):
            print(name_of(argv[1], i, s), s.describe())
        return 0
    select = "full"
    if len(argv) >= 4 and argv[0] == "write" and argv[-1] == "--select=coverage":
        select, argv = "coverage", argv[:-1]
    if len(argv) >= 4 and argv[0] == "write" and scope_ok(argv[4:]):
        for name in write(argv[1], int(argv[2]), argv[3], argv[4:] or MODULES, select):
            print(name)
        return 0
    if len(argv) >= 3 and argv[0] == "run" and argv[2].isdigit():
        opts = dict(a[2:].split("=", 1) for a in argv[3:] if a.startswith("--") and "=" in a)
        scopes = opts.get("scope", "").split(",") if opts.get("scope") else MODULES
        if (len(opts) == len(argv) - 3 and set(opts) <= {"select", "par", "scope"} and scope_ok(scopes)
                and opts.get("select", "full") in ("full", "coverage") and opts.get("par", "1") in ("1", "2", "3", "4")):
            return run(argv[1], int(argv[2]), opts.get("select", "full"), int(opts.get("par", "1")), scopes)
    if len(argv) in (1, 2) and argv[0] == "map" and all(a.isdigit() for a in argv[1:]):
        return covmap.make_map(int(argv[1]) if argv[1:] else 600)
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
