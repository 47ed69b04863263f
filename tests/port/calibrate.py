#!/usr/bin/env python3
"""calibrate.py - the calibration grid of `slpi verify`'s statistics
(docs/power.md#calibration-rule): correct ports, formats x systems x shapes x
implementations, one run a P x S batch judged by one `slpi verify --local`, each finished
run one line appended to DIR/CELL.tsv, resumable in pieces over sessions. slpi's cells
write with its solve converged within binary64 (`-slpi-converged`, tol = 2^-60, a capped
step accepted); the cells of its default solve are retired, kept as records (docs/power.md#stop-rule).

usage: calibrate.py [--dir DIR] [--cell NAME ...] [--runs N] [--target K]
                    [--budget SECONDS] [--probe] [--reprobe] [--power] [--list] [--commit DOC]
  --dir DIR        the committed data (default docs/calibration)
  --cell NAME      only this cell (repeatable; default: every applicable cell, cheapest
                   first by its cost probe, in rounds of 50 runs)
  --runs N         at most N runs per cell in this call
  --target K       bring each cell to K committed runs (default 300)
  --budget S       start no probe or run that would take this call past S CPU seconds
                   (generation and verify, estimated from the cell's probe or its runs)
  --probe          only measure the cost of the cells that have no probe yet
  --reprobe        probe again the chosen cells that have no committed run (their run
                   was amended since their probe); a new line, and a cell's last counts
  --power          instead: one run of each chosen cell not yet measured (default: every
                   1000 x 2 cell) on its power paths, its detectable effect one line of
                   DIR/power.tsv (docs/power.md#detectable-rule)
  --list           print every cell, applicable or why not, and its committed runs
  --commit DOC     as each cell's round (or the probes) finishes, write DOC's table
                   (calibration_docs.py --dir DIR --doc DOC) and commit the cell's file,
                   cost.tsv and DOC in DIR's git checkout, under the lock file
                   calibrate.lock of its git folder (take it to commit DOC by hand)
A run is never redone: run r is the cell's r-th committed line, and its paths follow from
the cell and r alone. A killed run leaves no line (each line is one write and fsync,
after the run) and runs again whole. Environment: SLPI_BIN (default build/slpi),
SLPI_BUILD (build; the C ports are built under it), CC (cc), PYTHONPATH with python/ and
SLPI_LIB for slpi and slpi.torch."""
import fcntl
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SLPI = os.path.abspath(os.environ.get("SLPI_BIN", os.path.join(ROOT, "build", "slpi")))
BUILD = os.path.abspath(os.environ.get("SLPI_BUILD", os.path.join(ROOT, "build")))

FORMATS = ("binary64", "binary32", "tf32", "bfloat16")
SYSTEMS = (("rb", "iso/rigid-body/trajectories", {}), ("su8", "iso/zeitlin/strong", {"N": 8, "ic_lmax": 7}),
           ("su32", "iso/zeitlin/strong", {"N": 32}), ("su64", "iso/zeitlin/strong", {"N": 64}),
           ("su128", "iso/zeitlin/strong", {"N": 128}))
SHAPES = ((1, 2000), (100, 20), (1000, 2))
IMPLS = ("slpi", "torch", "cport")
# slpi's double path with its solve converged within binary64 (docs/power.md#stop-rule)
CONVERGED = "slpi-converged"
# the smallest tol slpi accepts, and the cap accepted: a two-cycle one unit apart in an entry
# of [1/2, 1) neither converges nor stagnates (the cap's amendment)
CONVERGED_KEYS = {"tol": 2.0 ** -60, "on_cap": "accept"}
# the systems whose C port builds its basis in long double, rounded once to its format
# (docs/power.md#cport-basis): none of their cport cells had a run when a binary64 basis
# from Jacobi rotations in double was found resolvable at su(32)
CPORT_BASIS_LD = ("su32", "su64", "su128")
TORCH = {"binary64": "float64", "binary32": "float32", "tf32": "tf32", "bfloat16": "bfloat16"}
FIELDS = ("run", "first_path", "paths", "steps", "exit", "proof", "statistics", "p_systematic", "p_size", "rows",
          "gen_cpu_s", "verify_cpu_s", "slpi_version", "impl_version", "utc")
COST_FIELDS = ("cell", "paths_verified", "gen_cpu_s", "rows", "rows_sampled", "verify_cpu_s", "run_cpu_s", "utc",
               "note")
POWER_FIELDS = ("cell", "first_path", "paths", "steps", "statistics", "detectable_u", "tau_u", "rows", "gen_cpu_s",
                "verify_cpu_s", "slpi_version", "utc")
POWER_SHAPE = (1000, 2)  # the shape the detectable-effect goal judges
POWER_GOAL = 0.1  # u per step (docs/power.md#detectable-rule)
PROBE_SAMPLE = 20
# the tree's commit (a run's version beside slpi's), "" outside a git checkout
try:
    TREE = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True).stdout.strip()
except OSError:
    TREE = ""
PROBE_WHOLE = 30.0


def cells():
    """every cell in the rule's order: (index, name, format, system, shape, impl); then
    slpi's converged cells, binary64, indices 180 on in the order system, shape
    (docs/power.md#stop-rule)"""
    out = []
    for f in FORMATS:
        for s in SYSTEMS:
            for sh in SHAPES:
                for im in IMPLS:
                    out.append((len(out), "%s-%s-%dx%d-%s" % (f, s[0], sh[0], sh[1], im), f, s, sh, im))
    for s in SYSTEMS:
        for sh in SHAPES:
            name = "binary64-%s-%dx%d-%s" % (s[0], sh[0], sh[1], CONVERGED)
            out.append((len(out), name, "binary64", s, sh, CONVERGED))
    return out


# the formats and systems whose paths from one x0 are copies at the format's resolution, as
# measured (docs/power.md#copies-results, check 4: 20 x 2 and 5 x 20 from x0 gave one
# observation a step; su(128) in every format, measured on 1 Dec 2026)
COPIES = {("binary64", "su64"), ("binary32", "su32"), ("binary32", "su64"), ("tf32", "su32"), ("tf32", "su64"),
          ("bfloat16", "rb"), ("bfloat16", "su8"), ("bfloat16", "su32"), ("bfloat16", "su64")}
COPIES |= {(f, "su128") for f in FORMATS}


# when the copies rule (docs/power.md#copies-amendment, as amended: 2^4 ulps) landed: a run of
# a copies shape committed before it was judged as rows, every copy counted, not by the test
# that runs now
COPIES_SINCE = "2026-12-01T03:56:27Z"


def counts(cell, row):
    """whether a committed run of the cell was judged by the statistics as they are now: not
    a run of several paths from one x0, in a format and system whose paths are copies,
    committed before the copies rule (its runs are pooled apart, a record)"""
    _, _, fmt, system, (paths, _), _ = cell
    return not (paths > 1 and (fmt, system[0]) in COPIES and row["utc"] < COPIES_SINCE)


def retired(cell):
    """why a cell (an entry of cells()) runs no further, or None: slpi's default solve
    (docs/power.md#stop-rule), or a 1000 x 2 shape whose paths are copies (its two steps
    are two observations: LOW-POWER whatever the port, docs/power.md#copies-results)"""
    _, _, fmt, system, shape, impl = cell
    if impl == "slpi":
        return ("retired: slpi's default solve stops at tol 1e-15 against max(1, |Y|), not converged within "
                "binary64 (docs/power.md#stop-rule); its %s cell runs instead" % CONVERGED)
    if shape == POWER_SHAPE and (fmt, system[0]) in COPIES:
        return ("retired: its paths from one x0 are copies at %s's resolution, 2 observations a run, LOW-POWER "
                "whatever the port (docs/power.md#copies-results); runs committed here were judged before that rule"
                % fmt)
    return None


def not_applicable(fmt, impl):
    """why a cell cannot apply (the rule's reasons), or None"""
    if impl == "slpi" and fmt != "binary64":
        return "n/a: slpi's double path computes in binary64 only"
    if impl == "cport" and fmt not in ("binary64", "binary32"):
        return "n/a: the C ports compute in float or double only"
    return None


def first_path(c, r, paths):
    """the first noise path of run r of the cell of index c (the rule's formula)"""
    return 2 * 10 ** 8 + c * 10 ** 7 + r * paths


def probe_path(c):
    return 4 * 10 ** 9 + c * 10 ** 5


def power_path(c):
    """the first path of the cell's detectable-effect run (docs/power.md#detectable-rule)"""
    return 4050 * 10 ** 6 + c * 10 ** 4


def child_cpu():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def read_table(path, fields):
    """the lines of a data file as dicts; exit 2 naming a line that is not whole"""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        lines = f.read().split("\n")
    if lines[-1] != "":
        sys.exit("calibrate: %s:%d: a line without its newline (not written by calibrate.py)" % (path, len(lines)))
    if not lines[0] or tuple(lines[0].split("\t")) != fields:
        sys.exit("calibrate: %s:1: not the header %s" % (path, "\\t".join(fields)))
    rows = []
    for i, line in enumerate(lines[1:-1], 2):
        v = line.split("\t")
        if len(v) != len(fields):
            sys.exit("calibrate: %s:%d: %d fields, not %d" % (path, i, len(v), len(fields)))
        rows.append(dict(zip(fields, v)))
    return rows


def append(path, fields, values):
    """one line, one write and fsync (a new file gets its header first, by rename)"""
    if not os.path.exists(path):
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix=".calibrate-")
        os.write(fd, ("\t".join(fields) + "\n").encode())
        os.fsync(fd)
        os.close(fd)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, ("\t".join(str(values[k]) for k in fields) + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)


def many_path_file(problem, steps, t, paths, labels, states, name):
    """slpi's many-path trajectory file (oracle/README.md#many-paths), hex doubles"""
    lines = ["# slpi-trajectory 1"]
    lines += ["# %s=%s" % (k, v) for k, v in problem.items() if k not in ("path", "steps")]
    lines.append("# steps=%d" % int(steps[-1]))
    lines.append("\t".join(["step", "t", "path"] + list(labels)))
    for r, n in enumerate(steps.tolist()):
        for q, k in enumerate(paths.tolist()):
            lines.append("%d\t%.17g\t%d\t%s" % (n, t[r], k, "\t".join(float(v).hex() for v in states[q, r])))
    with open(name, "w") as f:
        f.write("\n".join(lines) + "\n")
    return [name]


def port_flags(system):
    """the C port's defines for a system: su(N)'s N and ic_lmax (the preset's 11 unless the
    cell sets it; su(8): 7), and the long-double basis where CPORT_BASIS_LD says"""
    if system[0] == "rb":
        return []
    extra = ["-DN=%d" % system[2]["N"], "-DIC_LMAX=%d" % system[2].get("ic_lmax", 11)]
    return extra + (["-DPORT_BASIS_LD"] if system[0] in CPORT_BASIS_LD else [])


def build_port(system, fmt):
    """the C port of a system in a format, built under SLPI_BUILD when older than its sources"""
    src = "rb-isomp.c" if system[0] == "rb" else "zeitlin-isomp.c"
    real = "double" if fmt == "binary64" else "float"
    extra = port_flags(system)
    d = os.path.join(BUILD, "calibrate")
    os.makedirs(d, exist_ok=True)
    exe = os.path.join(d, "%s-%s%s" % (system[0], real, "-ld" if "-DPORT_BASIS_LD" in extra else ""))
    sources = [os.path.join(HERE, x) for x in (src, "port.h")]
    if not os.path.exists(exe) or os.path.getmtime(exe) < max(os.path.getmtime(x) for x in sources):
        cc = os.environ.get("CC", "cc")
        tmp = exe + ".%d" % os.getpid()
        cmd = [cc, "-std=c11", "-O2", "-ffp-contract=off", "-DREAL=" + real] + extra + ["-o", tmp,
                                                                                        os.path.join(HERE, src), "-lm"]
        subprocess.run(cmd, check=True)
        os.replace(tmp, exe)
    return exe


def generate(cell, first, count, folder):
    """the files of `count` paths from `first` (the cell's P unless probing), the CPU
    seconds spent (this process and its children) and the implementation's version"""
    _, _, fmt, system, (_, steps), impl = cell
    t0, c0 = time.process_time(), child_cpu()
    if impl in ("slpi", CONVERGED):
        import slpi
        keys = dict(system[2], **CONVERGED_KEYS) if impl == CONVERGED else system[2]
        e = slpi.ensemble(system[1], paths=count, first_path=first, save_every=1, steps=steps, **keys)
        files = many_path_file(e.problem, e.step, e.t, e.paths, e.labels, e.states, os.path.join(folder, "path.tsv"))
        version = "slpi.ensemble " + slpi.__version__
    elif impl == "torch":
        import torch
        import slpi.torch as st
        torch.set_num_threads(1)
        e = st.run(system[1], paths=count, first_path=first, precision=TORCH[fmt], steps=steps, **system[2])
        files = st.write(e, folder, many=True)
        version = "torch " + torch.__version__
    else:
        exe = build_port(system, fmt)
        keys = ["%s=%s" % kv for kv in system[2].items()]
        pairs = [("noise-%d.tsv" % k, "p%d.tsv" % k) for k in range(first, first + count)]
        for k, (noise, _) in zip(range(first, first + count), pairs):
            subprocess.run([SLPI, "noise", "--preset", system[1], "-q", "steps=%d" % steps, "path=%d" % k, "-o",
                            os.path.join(folder, noise)] + keys, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        # one process for the cell's paths: the port's set-up (su(N)'s basis) once, the
        # same bytes as a process a path (tests/port/port.h --batch); names relative to
        # the folder, which the list's white-space separation then never splits
        with open(os.path.join(folder, "batch.txt"), "w") as f:
            f.writelines("%s %s\n" % p for p in pairs)
        subprocess.run([exe, "--batch", "batch.txt", str(steps)], check=True, cwd=folder)
        files = [os.path.join(folder, traj) for _, traj in pairs]
        version = os.path.basename(exe)
    return files, time.process_time() - t0 + child_cpu() - c0, version


def verify(fmt, files, folder, sample=None):
    """`slpi verify --local` of the files: (exit, its JSON, CPU seconds)"""
    j = os.path.join(folder, "v.json")
    # the statistics alone (docs/power.md#reference-rule's and #accurate-reference's
    # amendments of the run): verify's `auto` takes the double reference at every format
    # of the grid but binary64 (at its sizes, m <= 128) and the accurate one at binary64;
    # neither needs the proof, which is not run (`--max-steps 0`: recorded UNABLE)
    cmd = [SLPI, "verify", "--local", "-q", "--threads", "1", "--precision", fmt, "--json", j, "--max-steps", "0"]
    if sample:
        cmd += ["--sample", str(sample), "--sample-seed", "1"]
    c0 = child_cpu()
    r = subprocess.run(cmd + files, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    cpu = child_cpu() - c0
    if r.returncode not in (0, 1, 3) or not os.path.exists(j):
        raise RuntimeError("verify exit %d: %s" % (r.returncode, r.stderr.strip()[-300:].replace(folder + "/", "")))
    with open(j) as f:
        return r.returncode, json.load(f), cpu


def utc():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def probe_fail(out, name, e):
    why = ("%s" % e).replace("\t", " ").replace("\n", " ")[:200]
    append(os.path.join(out, "cost.tsv"), COST_FIELDS, dict.fromkeys(COST_FIELDS, "") | {
        "cell": name, "utc": utc(), "note": "cannot run: " + why})
    print("probe %s: cannot run: %s" % (name, why), flush=True)


def extrapolate(n1, v1, n2, v2, n):
    """verify's CPU seconds at n units from v1 at n1 and v2 at n2 > n1: the slope scaled,
    the intercept (once a process) counted once; v2 where the slope is not positive"""
    b = (v2 - v1) / (n2 - n1)
    return v1 + b * (n - n1) if b > 0 else v2


def generation(g2, g4, paths):
    """the C port's generation of `paths` paths from its CPU seconds at 2 and 4 (one process
    a run, --batch: the set-up counted once, the slope scaled); 4's scaled where the slope
    is not positive"""
    b = (g4 - g2) / 2
    return g2 + b * (paths - 2) if b > 0 else g4 * paths / 4


def probe(cell, out):
    """the cost probe, on paths outside the runs' range (docs/power.md#reference-rule, the
    note of 2026-11-29 09:10 UTC): verify at two sizes, extrapolated to the run's units:
    at P >= 4, 2 and 4 paths of min(S, PROBE_SAMPLE) rows each (unit: a path, the run's
    P * S / that many), else the P paths with --sample PROBE_SAMPLE and twice that (unit:
    a sampled row, the run's P * S); plus the generation of the P paths (cport: from 2 and
    4 paths, `generation`); when that estimate is under PROBE_WHOLE CPU seconds, a whole
    run's files instead; its verdict is not read"""
    c, name, fmt, _, (paths, steps), impl = cell
    rows = paths * steps
    with tempfile.TemporaryDirectory(prefix="calibrate-") as folder:
        try:
            if paths >= 4:
                each = min(steps, PROBE_SAMPLE)
                sample = each if each < steps else None
                f4, gen, _ = generate(cell, probe_path(c), 4, tempfile.mkdtemp(dir=folder))
                f2, gen2, _ = generate(cell, probe_path(c), 2, tempfile.mkdtemp(dir=folder))
                sizes = (2, 4, rows / each, "paths")
                count, sampled = 4, 4 * each
                v1, v2 = (verify(fmt, f, folder, sample=sample)[2] for f in (f2, f4))
            else:
                files, gen, _ = generate(cell, probe_path(c), paths, folder)
                sizes = (PROBE_SAMPLE * paths, 2 * PROBE_SAMPLE * paths, rows, "rows")
                count, sampled = paths, sizes[1]
                v1, v2 = (verify(fmt, files, folder, sample=k)[2] for k in (PROBE_SAMPLE, 2 * PROBE_SAMPLE))
            vcpu = extrapolate(sizes[0], v1, sizes[1], v2, sizes[2])
            note = "slope: %.3f s at %d %s, %.3f s at %d" % (v1, sizes[0], sizes[3], v2, sizes[1])
            if impl != "cport" and count < paths:
                _, gen, _ = generate(cell, probe_path(c), paths, tempfile.mkdtemp(dir=folder))
            elif count < paths:
                gen = generation(gen2, gen, paths)
            if gen + vcpu < PROBE_WHOLE:
                whole = tempfile.mkdtemp(dir=folder)
                files, gen, _ = generate(cell, probe_path(c), paths, whole)
                _, _, vcpu = verify(fmt, files, whole)
                count, sampled, note = paths, rows, ""
        except (subprocess.CalledProcessError, MemoryError, RuntimeError) as e:
            probe_fail(out, name, e)
            return None
    run_cpu = gen + vcpu
    v = {"cell": name, "paths_verified": count, "gen_cpu_s": "%.3f" % gen, "rows": rows,
         "rows_sampled": sampled, "verify_cpu_s": "%.3f" % (v2 if note else vcpu), "run_cpu_s": "%.3f" % run_cpu,
         "utc": utc(), "note": note}
    append(os.path.join(out, "cost.tsv"), COST_FIELDS, v)
    print("probe %s: %.1f CPU s a run (estimated%s)" % (name, run_cpu, "; " + note if note else ""), flush=True)
    return run_cpu


def judge(cell, first):
    """the cell's P paths from `first` written and verified: verify's exit and JSON, and the
    fields a data line shares (first path, shape, statistics verdict and rows, CPU seconds,
    versions, time); `field(k)` is a statistics key as written ("" when absent)"""
    c, name, fmt, _, (paths, steps), _ = cell
    with tempfile.TemporaryDirectory(prefix="calibrate-") as folder:
        files, gen, version = generate(cell, first, paths, folder)
        rc, j, vcpu = verify(fmt, files, folder)
    st = j.get("statistics") or {}
    v = {"first_path": first, "paths": paths, "steps": steps, "statistics": st.get("verdict", "absent"),
         "rows": st.get("steps", 0), "gen_cpu_s": "%.3f" % gen, "verify_cpu_s": "%.3f" % vcpu,
         "slpi_version": (j.get("slpi_version", "") + " " + TREE).strip(), "impl_version": version, "utc": utc()}
    return rc, j, v, gen + vcpu, lambda k: "" if st.get(k) is None else repr(st[k])


def one_run(cell, r, out):
    """run r of the cell, its line appended when it has finished"""
    c, name, _, _, (paths, _), _ = cell
    rc, j, v, cpu, field = judge(cell, first_path(c, r, paths))
    v.update({"run": r, "exit": rc, "proof": (j.get("proof") or {}).get("verdict", j.get("verdict")),
              "p_systematic": field("p_systematic"), "p_size": field("p_size")})
    append(os.path.join(out, name + ".tsv"), FIELDS, v)
    print("%s run %d: %s (statistics %s) %.1f CPU s" % (name, r, v["proof"], v["statistics"], cpu), flush=True)
    return cpu


def power_run(cell, out):
    """the cell's detectable-effect run, its line appended to DIR/power.tsv"""
    _, _, v, cpu, field = judge(cell, power_path(cell[0]))
    v.update({"cell": cell[1], "detectable_u": field("detectable_effect_u"), "tau_u": field("data_tolerance_u")})
    append(os.path.join(out, "power.tsv"), POWER_FIELDS, v)
    print("%s: detectable %s u a step (statistics %s) %.1f CPU s" % (cell[1], v["detectable_u"] or "-",
                                                                     v["statistics"], cpu), flush=True)
    return cpu


def commit(out, doc, paths, subject, body):
    """the table of DOC from OUT, and a commit of PATHS and DOC, under the lock"""
    git = lambda *a, **k: subprocess.run(["git", "-C", out] + list(a), check=True,  # noqa: E731
                                         stdout=subprocess.PIPE, text=True, **k).stdout.strip()
    with open(os.path.join(git("rev-parse", "--absolute-git-dir"), "calibrate.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run([sys.executable, os.path.join(HERE, "calibration_docs.py"), "--dir", out, "--doc", doc],
                       check=True)
        files = [os.path.abspath(p) for p in paths + [doc] if os.path.exists(p)]
        git("add", "--", *files)
        if subprocess.run(["git", "-C", out, "diff", "--cached", "--quiet", "--"] + files).returncode:
            git("commit", "-q", "-m", subject, "-m", body, "--", *files)


def costs(out):
    """each cell's CPU seconds a run: the mean of its runs, else its probe"""
    got = {r["cell"]: float(r["run_cpu_s"]) if r["run_cpu_s"] else None
           for r in read_table(os.path.join(out, "cost.tsv"), COST_FIELDS)}
    for cell in cells():
        rows = read_table(os.path.join(out, cell[1] + ".tsv"), FIELDS)
        if rows:
            got[cell[1]] = sum(float(x["gen_cpu_s"]) + float(x["verify_cpu_s"]) for x in rows) / len(rows)
    return got


def parse(argv):
    o = {"dir": os.path.join(ROOT, "docs", "calibration"), "cell": [], "runs": None, "target": 300,
         "budget": float("inf"), "probe": False, "reprobe": False, "power": False, "list": False, "commit": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--probe", "--reprobe", "--power", "--list"):
            o[a[2:]] = True
        elif a in ("--dir", "--cell", "--runs", "--target", "--budget", "--commit") and i + 1 < len(argv):
            i += 1
            try:
                v = {"--runs": int, "--target": int, "--budget": float}.get(a, str)(argv[i])
            except ValueError:
                sys.exit("calibrate: %s %s: not a number" % (a, argv[i]))
            if a == "--cell":
                o["cell"].append(v)
            else:
                o[a[2:]] = v
        else:
            sys.exit("calibrate: unknown option %s (usage: see the script's docstring)" % a)
        i += 1
    return o


def main(argv):
    # SIGTERM unwinds (the run's temporary folder is removed; no line is written)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    o = parse(argv)
    out = o["dir"]
    os.makedirs(out, exist_ok=True)
    by_name = {c[1]: c for c in cells()}
    for n in o["cell"]:
        if n not in by_name:
            sys.exit("calibrate: --cell %s: no such cell (--list names them)" % n)
        why = not_applicable(by_name[n][2], by_name[n][5]) or (None if o["list"] else retired(by_name[n]))
        if why:
            sys.exit("calibrate: --cell %s: %s" % (n, why))
    chosen = [by_name[n] for n in o["cell"]] or [c for c in cells()
                                                 if not not_applicable(c[2], c[5]) and not retired(c)]
    if o["list"]:
        for c in cells():
            why = not_applicable(c[2], c[5])
            rows = read_table(os.path.join(out, c[1] + ".tsv"), FIELDS)
            before = sum(not counts(c, x) for x in rows)
            runs = "%d runs" % (len(rows) - before) + (" (and %d before the copies rule)" % before if before else "")
            print("%s\t%s" % (c[1], why or (runs + "; " + retired(c) if retired(c) else runs)))
        return 0
    spent = 0.0
    cost = costs(out)
    if o["power"]:
        done = {r["cell"] for r in read_table(os.path.join(out, "power.tsv"), POWER_FIELDS)}
        todo = [c for c in chosen if c[1] not in done and (o["cell"] or c[4] == POWER_SHAPE)]
        for c in sorted(todo, key=lambda c: (cost.get(c[1]) or float("inf"), c[0])):
            if spent + (cost.get(c[1]) or 0) > o["budget"]:
                continue
            try:
                spent += power_run(c, out)
            except (subprocess.CalledProcessError, RuntimeError) as e:
                sys.exit("calibrate: %s's power run: %s" % (c[1], e))
            if o["commit"]:
                commit(out, o["commit"], [os.path.join(out, "power.tsv")], "docs/calibration: %s's detectable effect"
                       % c[1], "calibrate.py --power --commit: the cell's line of power.tsv.")
        print("calibrate: %.0f CPU s spent" % spent)
        return 0
    for c in chosen:
        again = o["reprobe"] and not read_table(os.path.join(out, c[1] + ".tsv"), FIELDS)
        if (again or c[1] not in cost) and spent < o["budget"]:
            t0, c0 = time.process_time(), child_cpu()
            cost[c[1]] = probe(c, out)
            spent += time.process_time() - t0 + child_cpu() - c0
            if o["commit"]:
                commit(out, o["commit"], [os.path.join(out, "cost.tsv")], "docs/calibration: %s's cost probe" % c[1],
                       "calibrate.py --commit: the probe's line of cost.tsv, %s CPU s a run." % cost[c[1]])
    if o["probe"]:
        return 0
    chosen = sorted((c for c in chosen if cost.get(c[1]) is not None), key=lambda c: (cost[c[1]], c[0]))
    done = {c[1]: 0 for c in chosen}
    while True:
        progressed = False
        for c in chosen:
            # r: the next run's number (every committed run's, so its paths are new); have:
            # the runs that count (judged as the statistics are now)
            rows = read_table(os.path.join(out, c[1] + ".tsv"), FIELDS)
            r, have = len(rows), sum(counts(c, x) for x in rows)
            stop, round_from = min(o["target"], (have // 50 + 1) * 50), r
            while have < stop and (o["runs"] is None or done[c[1]] < o["runs"]):
                if spent + cost[c[1]] > o["budget"]:
                    break
                try:
                    spent += one_run(c, r, out)
                except RuntimeError as e:
                    sys.exit("calibrate: %s run %d: %s" % (c[1], r, e))
                done[c[1]] += 1
                have += 1
                r += 1
                progressed = True
            if o["commit"] and r > round_from:
                rows = read_table(os.path.join(out, c[1] + ".tsv"), FIELDS)
                commit(out, o["commit"], [os.path.join(out, n) for n in (c[1] + ".tsv", "cost.tsv")],
                       "docs/calibration: %s to %d runs" % (c[1], have),
                       "calibrate.py --commit: runs %d-%d of the cell; statistical FAILs in all its %d runs: %d."
                       % (round_from, r - 1, len(rows), sum(x["statistics"] == "FAIL" for x in rows)))
        if not progressed:
            break
    print("calibrate: %.0f CPU s spent" % spent)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
