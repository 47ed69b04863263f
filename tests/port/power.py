#!/usr/bin/env python3
"""power.py - the power harness of `slpi verify` at binary32 (docs/power.md#rule).

Runs the ports of tests/port/ (C: c-float, c-fma; Python: numpy, torch) with the planted
defects of tests/port/port.h at a grid of magnitudes, on noise paths of
`slpi noise --preset ... steps=S path=K`, through
`slpi verify --precision binary32 --local --json`, and tabulates the detection rate
(exit 1) against the defect's mean effect per step in u |x| (the C double build's
`effect` mode on the same path). Every run is one line of OUT/runs.tsv; a run already
there is not run again, so a plan can be stopped and resumed, and OUT/table.md is
written from all of them.

usage: power.py [--plan smoke|table|goals|pooled|falsefail|null|ez|b16|numba|issue|ht10k|ez10k|curve|formats|data|data-rest|mixed|effects|report|all]
                [--out DIR]
                [--paths K] [--first P] [--max-runs N] [--also DIR ...]
--first P: the null plan's first path (5000; it runs paths P..P+K-1).
--also DIR adds the runs of another output folder to the table (report: only tabulate), or
of a runs file (a name ending in .tsv, such as docs/power-runs.tsv).
Environment: SLPI_BIN (default build/slpi), SLPI_BUILD (build), CC (cc), PYTHON.
Exit 0 when the plan ran (whatever it measured), 2 on a bad argument or set-up, 1 when
a correct port's binary64 build does not PASS binary64 (the ports are wrong, and
nothing after it would mean anything)."""
import json
import math
import os
import subprocess
import sys
import time

from binomial import binom_sf, clopper_pearson

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SLPI = os.environ.get("SLPI_BIN", os.path.join(ROOT, "build", "slpi"))
BUILD = os.environ.get("SLPI_BUILD", os.path.join(ROOT, "build"))
PY = os.environ.get("PYTHON", "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable)

SYSTEMS = {  # name: (C source, noise problem)
    "rb": ("rb-isomp.c", ["--preset", "iso/rigid-body/trajectories"]),
    "zeitlin": ("zeitlin-isomp.c", ["--preset", "iso/zeitlin/strong", "N=8", "ic_lmax=7"]),
    "heavytop": ("heavytop-tmk.c", ["--preset", "rkmk/heavy-top/stoch-421-realization"]),
}
# ports only the diagnosis's runs use (tests/port/diagnosis.py): (C source, its extra
# compiler flags, noise problem)
DIAG_SYSTEMS = {
    "rbt": ("rb-isomp.c", ["-DRB_TIME"], ["--config", os.path.join(HERE, "..", "..", "models", "rigid-body-time.slpi"),
                                         "scheme=isomp", "h=0.00390625"]),
    "svi": ("rb-svi.c", [], ["--preset", "svi/rigid-body/paths"]),
    # the sixth to eighth rounds' ports, each written after its round's rule
    # (docs/power.md#diagnosis-rule-6, #diagnosis-rule-7, #diagnosis-rule-8)
    "rbtmk": ("rb-tmk.c", [], ["--preset", "iso/rigid-body/trajectories", "scheme=tmk"]),
    "htsvi": ("ht-svi.c", [], ["--preset", "svi/heavy-top/case3"]),
    "htsvipi": ("ht-svi-pi.c", [], ["--preset", "svi/heavy-top/case3-pi"]),
    "rbsvifix": ("rb-svi-fixed.c", [], ["--preset", "svi/rigid-body/paths"]),
    "zeitlin2": ("zeitlin-isomp-2.c", [], ["--preset", "iso/zeitlin/strong", "N=8", "ic_lmax=7"]),
    "zeitlingpu": ("zeitlin-isomp-gpu.c", [], ["--preset", "iso/zeitlin/strong", "N=8", "ic_lmax=7"]),
}


def port_source(system):
    """(C source, extra flags, noise problem) of a port"""
    if system in DIAG_SYSTEMS:
        return DIAG_SYSTEMS[system]
    return SYSTEMS[system][0], [], SYSTEMS[system][1]
# magnitude of about 1 u |x| mean effect per step (binary64 build's effect, 1000 steps of
# path 0 on the rigid body and the heavy top, 100 on Euler-Zeitlin): the grid's centre
UNIT_MAG = {
    "rb": {"drop": 1.0, "coef": 4e-3, "amp": 1.7e-5, "sign": 1.4e-5, "lap": 4e-5},
    "heavytop": {"drop": 6e-6, "coef": 1.3e-5, "amp": 2.4e-5, "sign": 4.3e-5, "lap": 1.7e-5},
    "zeitlin": {"drop": 60.0, "coef": 0.025, "amp": 4e-5, "sign": 1e-4, "lap": 1.25e-3},
}
GRID = (1 / 16, 1 / 4, 1 / 2, 1, 2, 4, 16)
BAD = (3, 10, 30, 100)        # one step's size in u |x|
EARLY = (1, 2, 3)             # iterations
HELD_OUT_DEFECTS = ("coef", "sign", "lap", "early")
# numba (tests/port/ports_numba.py) and the binary16/bfloat16 builds came after the rule
# was fixed: held out by construction
HELD_OUT_IMPLS = ("torch", "numba", "numpy16", "torchbf16", "emu-bf16", "emu-b16", "emu-tf32", "emu-u16")
# implementations at another format than binary32: (verify's --precision, log2 of its u
# over binary32's, by which the effect, measured in binary32's u, is divided); emu-*:
# ports.py's emu backend, every operation rounded to the format (its dtype argument)
IMPL_FORMAT = {"numpy16": ("binary16", 13), "torchbf16": ("bfloat16", 16), "emu-bf16": ("bfloat16", 16),
               "emu-b16": ("binary16", 13), "emu-tf32": ("tf32", 13), "emu-u16": ("u=0x1p-16", 8),
               "emu-bf16f32": ("bfloat16/binary32", 16)}
EMU_DTYPE = {"emu-bf16": "bfloat16", "emu-b16": "binary16", "emu-tf32": "tf32", "emu-u16": "u=0x1p-16",
             "emu-bf16f32": "bfloat16/binary32"}
# the false-FAIL runs' implementations, in turn on each path (torch, held out and 17 s a
# run for its import, ran 50 runs of the first measurement)
NULL_IMPLS = ("c-float", "numba", "numpy", "c-fma", "c-other")
BINS = ((0, 0.25), (0.25, 1), (1, 4), (4, 30), (30, float("inf")))
FIELDS = ("system", "impl", "defect", "mag", "steps", "path", "effect_mean", "effect_max", "exit",
          "verdict", "proof", "statistics", "p_value", "stat_effect_u", "worst_ratio", "seconds", "stat_test",
          "detectable_u", "rule")
# the rule of slpi verify's statistics a run was judged by: "rounded" from the amendment
# of docs/power.md#rounding-amendment on (the same at binary32), "data" from
# docs/power.md#data-amendment on (the same where r is taken from the exact step: binary32,
# tf32), "" before them
RULE = "data"
# the formats whose statistics the data amendment changed (r from the rounded step)
ROUNDED_FORMATS = ("bfloat16", "binary16", "u=0x1p-16")


def label(r):
    """a run's system, with its format when not binary32, marked when the format's run
    came before an amendment that changed its statistics"""
    fmt = IMPL_FORMAT.get(r["impl"], ("",))[0]
    rule = r.get("rule", "")
    mark = " (before the amendment)" if fmt and not rule else \
        " (before the data amendment)" if fmt in ROUNDED_FORMATS and rule == "rounded" else ""
    return r["system"] + (" " + fmt if fmt else "") + mark


def mags(system, defect, grid=GRID):
    if defect == "bad":
        return BAD
    if defect == "early":
        return EARLY
    return tuple(float("%.2g" % (UNIT_MAG[system][defect] * g)) for g in grid)


def settings(system, grid=GRID, defects=("drop", "coef", "amp", "sign", "lap", "bad", "early")):
    """the (defect, magnitude) of a system on a grid (factors of the 1 u magnitude)"""
    return [(d, m) for d in defects for m in mags(system, d, grid)]


NEAR = (1 / 4, 1 / 2, 1, 2)   # the goals' grid: around the thresholds 0.25 and 1 u


def run(argv, out=None, check=True):
    with open(out, "w") if out else open(os.devnull, "w") as f:
        r = subprocess.run(argv, stdout=f if out else subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and r.returncode not in (0, 1, 3):
        raise RuntimeError("%s: exit %d: %s" % (" ".join(argv), r.returncode, r.stderr.strip()[-400:]))
    return r


def read_runs(runs, done):
    """into done, {key: row}, the runs of a runs.tsv not in it yet (key: its first six
    fields)"""
    for line in open(runs):
        f = line.rstrip("\n").split("\t")
        if f[0] != "system" and 16 <= len(f) <= len(FIELDS) and tuple(f[:6]) not in done:
            done[tuple(f[:6])] = dict(zip(FIELDS, f + [""] * (len(FIELDS) - len(f))))
    return done


class Harness:
    def __init__(self, out):
        self.out, self.portdir = out, os.path.join(BUILD, "port")
        os.environ.setdefault("NUMBA_CACHE_DIR", os.path.join(BUILD, "numba-cache"))
        os.makedirs(os.path.join(out, "noise"), exist_ok=True)
        os.makedirs(self.portdir, exist_ok=True)
        self.done = {}
        self.runs = os.path.join(out, "runs.tsv")
        if os.path.exists(self.runs):
            self.read(self.runs)
        else:
            with open(self.runs, "w") as f:
                f.write("\t".join(FIELDS) + "\n")
        self.build()

    def read(self, runs):
        """the runs of a runs.tsv (this folder's, or another's with --also) that are not
        known yet"""
        read_runs(runs, self.done)

    def build(self):
        cc = os.environ.get("CC", "cc")
        flags = {"float": ["-DREAL=float", "-ffp-contract=off"], "fma": ["-DREAL=float", "-ffp-contract=fast", "-mfma"],
                 "double": ["-DREAL=double", "-ffp-contract=off"]}
        for system in list(SYSTEMS) + list(DIAG_SYSTEMS):
            src, extra, _ = port_source(system)
            path = os.path.join(HERE, src)
            for kind, fl in flags.items():
                exe = self.exe(system, kind)
                newest = max(os.path.getmtime(path), os.path.getmtime(os.path.join(HERE, "port.h")))
                if os.path.exists(exe) and os.path.getmtime(exe) >= newest:
                    continue
                r = subprocess.run([cc, "-std=c11", "-O2", "-Wall", "-Wextra"] + fl + extra + ["-o", exe, path, "-lm"],
                                   stderr=subprocess.PIPE, text=True)
                if r.returncode:
                    raise SystemExit("power.py: cannot build %s (%s): %s" % (exe, kind, r.stderr))
        # c-other: tests/port/rigid-body-float.c, a binary32 rigid-body port written
        # separately (for t-verify-port), correct only: it plants no defect
        other, src = self.exe("rb", "other"), os.path.join(HERE, "rigid-body-float.c")
        if not os.path.exists(other) or os.path.getmtime(other) < os.path.getmtime(src):
            if subprocess.run([cc, "-std=c11", "-O2", "-ffp-contract=off", "-o", other, src, "-lm"]).returncode:
                raise SystemExit("power.py: cannot build %s" % other)

    def exe(self, system, kind):
        return os.path.join(self.portdir, "%s-%s" % (system, kind))

    def noise(self, system, steps, path):
        f = os.path.join(self.out, "noise", "%s-%d-%d.noise" % (system, steps, path))
        if not os.path.exists(f):
            run([SLPI, "noise"] + port_source(system)[2] + ["steps=%d" % steps, "path=%d" % path, "-o", f])
        return f

    def port_argv(self, impl, system, noise, steps, defect, mag):
        tail = [noise, str(steps), defect, repr(mag)]
        if impl == "c-other":
            return [self.exe(system, "other"), noise, str(steps)]
        if impl in ("c-float", "c-fma", "c-double"):
            return [self.exe(system, impl[2:])] + tail
        if impl in EMU_DTYPE:
            return [PY, os.path.join(HERE, "ports.py"), "emu", EMU_DTYPE[impl], system] + tail
        if impl in IMPL_FORMAT:
            return [PY, os.path.join(HERE, "ports.py"), "numpy" if impl == "numpy16" else "torch",
                    "float16" if impl == "numpy16" else "bfloat16", system] + tail
        if impl in ("numba", "numba64"):
            return [PY, os.path.join(HERE, "ports_numba.py"), "float64" if impl == "numba64" else "float32",
                    system] + tail
        backend, dtype = {"numpy": ("numpy", "float32"), "torch": ("torch", "float32"),
                          "numpy64": ("numpy", "float64"), "torch64": ("torch", "float64")}[impl]
        return [PY, os.path.join(HERE, "ports.py"), backend, dtype, system] + tail

    def effect(self, system, noise, steps, defect, mag):
        if defect == "none":
            return 0.0, 0.0
        r = run([self.exe(system, "double"), noise, str(steps), defect, repr(mag), "effect"])
        w = r.stdout.split()
        return float(w[1]), float(w[3])

    def verify(self, trajs, precision="binary32", local_only=True):
        js = trajs[0] + ".json"
        argv = [SLPI, "verify", "--precision", precision, "--json", js, "-q"] + (["--local"] if local_only else []) + trajs
        r = run(argv)
        try:
            j = json.load(open(js))
        except (OSError, ValueError):
            j = {}
        return r.returncode, j

    def one(self, system, impl, defect, mag, steps, path):
        """one run; path K, or "A-B" for the paths A..B pooled in one verify call"""
        key = (system, impl, defect, repr(mag), str(steps), str(path))
        if key in self.done:
            return self.done[key]
        t0 = time.time()
        first, last = (int(v) for v in str(path).split("-")) if "-" in str(path) else (int(path), int(path))
        trajs, em, ex = [], 0.0, 0.0
        for k in range(first, last + 1):
            noise = self.noise(system, steps, k)
            # c-other names its noise file relative to the trajectory: write it beside
            trajs.append(os.path.join(self.out, "noise" if impl == "c-other" else "", "traj-%d.tsv" % len(trajs)))
            r = run(self.port_argv(impl, system, noise, steps, defect, mag), out=trajs[-1], check=False)
            if r.returncode == 77:
                return None
            if r.returncode:
                raise RuntimeError("port %s %s: exit %d: %s" % (impl, system, r.returncode, r.stderr[-400:]))
            if impl == "c-other":  # its header names the noise file but not its path: seed=file
                with open(trajs[-1]) as f:
                    text = f.read()
                with open(trajs[-1], "w") as f:
                    f.write(text.replace("\n# noise_file=", "\n# seed=file\n# noise_file=", 1))
            e = self.effect(system, noise, steps, defect, mag)
            em, ex = em + e[0] / (last - first + 1), max(ex, e[1])
        fmt, shift = IMPL_FORMAT.get(impl, ("binary32", 0))
        em, ex = em / 2 ** shift, ex / 2 ** shift   # in the declared format's u |x|
        code, j = self.verify(trajs, precision=fmt)
        st = j.get("statistics") or {}
        proof = (j.get("proof") or {}).get("verdict") or (j.get("local") or {}).get("verdict", "")
        ratio = ((j.get("proof") or j).get("local") or {}).get("step_ratio_hi", "")
        row = dict(zip(FIELDS, list(key) + ["%.6g" % em, "%.6g" % ex, str(code), j.get("verdict", ""), proof,
                                            st.get("verdict", ""), str(st.get("p_value", "")),
                                            str(st.get("effect_per_step_u", "")), str(ratio),
                                            "%.2f" % (time.time() - t0), str(st.get("test", "")),
                                            str(st.get("detectable_effect_u", "")), RULE]))
        with open(self.runs, "a") as f:
            f.write("\t".join(row[k] for k in FIELDS) + "\n")
        self.done[key] = row
        return row


def plan_runs(plan, paths, first=5000):
    """the (system, impl, defect, mag, steps, path) of a plan, in order of priority"""
    out = []
    if plan == "smoke":
        for impl in ("c-float", "numpy"):
            for d, m in (("none", 0), ("amp", 1e-2), ("bad", 100)):
                out.append(("rb", impl, d, m, 100, 0))
    if plan in ("goals", "all"):
        # the goals: >= 1 u per step FAILs in 2000 steps, >= 0.25 u in 10^4 (c-float)
        out += [("rb", "c-float", d, m, 2000, p) for d, m in settings("rb", NEAR) for p in range(paths)]
        out += [("heavytop", "c-float", d, m, 2000, 0) for d, m in settings("heavytop", NEAR)]
        out += [("rb", "c-float", d, m, 10000, p) for d, m in settings("rb", NEAR) for p in range(max(1, paths // 2))]
        # the heavy top at 10^4 steps (dear): one seen and one held-out defect at 0.25 u
        out += [("heavytop", "c-float", d, m, 10000, 0) for d, m in settings("heavytop", (1 / 4,), ("amp", "lap"))]
    if plan in ("table", "all"):
        # 100, 1000, 10^4 steps: every implementation on the rigid body, the other pairs in C
        for steps in (100, 1000):
            for impl, k in (("c-float", paths), ("c-fma", max(1, paths // 2)), ("numpy", 1), ("torch", 1)):
                out += [("rb", impl, d, m, steps, p) for d, m in settings("rb") for p in range(k)]
        out += [("heavytop", "c-float", d, m, 100, 0) for d, m in settings("heavytop")]
        out += [("zeitlin", "c-float", d, m, 100, 0) for d, m in settings("zeitlin", (1 / 4, 1, 4))]
        out += [("rb", "c-float", d, m, 10000, p) for d, m in settings("rb") for p in range(max(1, paths // 2))]
    if plan in ("pooled", "all"):
        for d, m in settings("rb"):
            out += [("rb", "c-float", d, m, 1000, "%d-%d" % (4 * q, 4 * q + 3)) for q in range(max(1, paths // 4))]
    if plan in ("falsefail", "all"):
        # correct ports on paths 100.., the implementations interleaved (1150 runs)
        for p in range(600):
            out += [("rb", impl, "none", 0, 1000, 100 + p)
                    for impl, k in (("c-float", 600), ("c-fma", 250), ("numpy", 100), ("torch", 50)) if p < k]
        out += [("rb", "c-other", "none", 0, 1000, 100 + p) for p in range(150)]
    if plan == "ez":
        # Euler-Zeitlin: the correct port, near 0.25 and 1 u at 1000 steps, 0.25 u at 2000
        five = ("drop", "amp", "coef", "sign", "lap")
        out += [("zeitlin", "c-float", "none", 0, steps, 0) for steps in (1000, 2000)]
        out += [("zeitlin", "c-float", d, m, 1000, 0) for d, m in settings("zeitlin", (1 / 4, 1), five)]
        out += [("zeitlin", "c-float", d, m, 2000, 0) for d, m in settings("zeitlin", (1 / 4,), five)]
    if plan == "b16":
        # docs/power.md#binary16-rule: NumPy's float16 at binary16, amp, sign, lap near 1/4-4 u
        b16 = tuple(g * 2 ** 13 for g in (1 / 4, 1, 4))
        for steps, k in ((1000, 2), (2000, 2), (10000, 1)):
            out += [("rb", "numpy16", d, m, steps, p) for d, m in settings("rb", b16, ("amp", "sign", "lap"))
                    for p in range(k)]
        out += [("rb", "numpy16", "none", 0, 2000, p) for p in range(5000, 5030)]
        out += [("rb", "torchbf16", "none", 0, 2000, p) for p in range(5000, 5005)]
    if plan == "numba":
        # the fourth writing on Euler-Zeitlin: the correct port, five defects near 1/4-4 u
        out += [("zeitlin", "numba", "none", 0, 100, p) for p in range(3)]
        out += [("zeitlin", "numba", d, m, 100, 0)
                for d, m in settings("zeitlin", (1 / 4, 1, 4), ("drop", "amp", "coef", "sign", "lap"))]
    if plan == "issue":
        # docs/power.md#issue-rule: the named defects, 2000 steps, path 6000
        named = (("drop", 1), ("amp", 0.01), ("amp", 0.001), ("sign", 1), ("lap", 1e-6), ("early", 1),
                 ("early", 2), ("bad", 100))
        for impl in ("c-float", "c-fma", "numpy", "numba", "torch"):
            out += [("rb", impl, d, m, 2000, 6000) for d, m in named]
        out += [("heavytop", "c-float", d, m, 2000, 6000) for d, m in named]
        out += [("zeitlin", "c-float", d, m, 2000, 6000) for d, m in (("amp", 0.01), ("amp", 0.001))]
    if plan == "ht10k":
        # docs/power.md#ht10k-rule: the heavy top at 10^4 steps, five defects at 0.3 u, path 6001
        out += [("heavytop", "c-float", d, m, 10000, 6001)
                for d, m in settings("heavytop", (0.3,), ("drop", "coef", "amp", "sign", "lap"))]
    if plan == "ez10k":
        # docs/power.md#ez10k-rule: Euler-Zeitlin at 10^4 steps, five defects at 0.3 u, path 6002
        out += [("zeitlin", "c-float", d, m, 10000, 6002)
                for d, m in settings("zeitlin", (0.3,), ("amp", "lap", "drop", "coef", "sign"))]
    if plan == "curve":
        # docs/power.md#curve-rule: the figure's lengths, path 6003, 100, 1000 and 10^4 steps
        five = ("drop", "coef", "amp", "sign", "lap", "early")
        out += [("rb", "c-float", d, m, steps, 6003) for steps in (100, 1000, 10000) for d, m in settings("rb", GRID, five)]
    if plan == "formats":
        # docs/power.md#rounding-amendment: every format below binary32, correct ports on
        # paths 10000.., amp, sign, lap at 1/16, 1/4, 1 u on paths 0 and 1 (its order)
        impls = ("emu-bf16", "emu-b16", "emu-tf32", "emu-u16", "numpy16")
        nulls = [("rb", impls[p % len(impls)], "none", 0, 2000, 10000 + p) for p in range(paths)]
        out += nulls[:25]
        # PyTorch's bfloat16 port, which FAILed before the amendment (added 10:52 UTC)
        out += [("rb", "torchbf16", "none", 0, 2000, p) for p in range(10500, 10505)]
        out += [("rb", "torchbf16", d, m, 2000, 0) for d, m in settings("rb", (2 ** 16 / 4,), ("amp", "sign", "lap"))]
        for g, p in ((1 / 4, 0), (1, 0), (1 / 4, 1), (1, 1), (1 / 16, 0), (1 / 16, 1)):
            out += [("rb", impl, d, m, 2000, p) for impl in impls[:4]
                    for d, m in settings("rb", (g * 2 ** IMPL_FORMAT[impl][1],), ("amp", "sign", "lap"))]
        out += nulls[25:]
    if plan == "data":
        # docs/power.md#data-amendment: binary16 and bfloat16 under the data amendment:
        # correct ports on paths 12000.. one per path in turn, amp, sign, lap at 1/16, 1/4,
        # 1 u of the format on paths 12100-12101: 15 correct paths per format, the defects
        # at 1/16 u, the other correct paths, the defects at 1/4 and 1 u
        impls = ("emu-b16", "numpy16", "emu-bf16")
        nulls = [("rb", impls[p % len(impls)], "none", 0, 2000, 12000 + p) for p in range(paths)]
        defects = [[("rb", impl, d, m, 2000, p) for impl in ("emu-b16", "emu-bf16") for p in (12100, 12101)
                    for d, m in settings("rb", (g * 2 ** IMPL_FORMAT[impl][1],), ("amp", "sign", "lap"))]
                   for g in (1 / 16, 1 / 4, 1)]
        out += nulls[:45] + defects[0] + nulls[45:] + defects[1] + defects[2]
    if plan == "mixed":
        # docs/power.md#mixed-rule: bfloat16 inputs, binary32 accumulation and storage
        # (--precision bfloat16/binary32): correct on paths 13000..13019, amp, sign, lap at
        # 1/4 and 1 u of the format on 13100-13101
        out += [("rb", "emu-bf16f32", "none", 0, 2000, 13000 + p) for p in range(20)]
        out += [("rb", "emu-bf16f32", d, m, 2000, p) for g in (1 / 4, 1) for p in (13100, 13101)
                for d, m in settings("rb", (g * 2 ** IMPL_FORMAT["emu-bf16f32"][1],), ("amp", "sign", "lap"))]
    if plan == "data-rest":
        # docs/power.md#data-rest-rule: the two ports the data plan did not run, under its
        # rule: emu at u = 2^-16 (correct on paths 12200.., amp, sign, lap at 1/16, 1/4, 1 u
        # on 12300-12301) and PyTorch's bfloat16 (correct on 12400-12404, the three at 1/4 u)
        nulls = [("rb", "emu-u16", "none", 0, 2000, 12200 + p) for p in range(paths)]
        out += nulls + [("rb", "emu-u16", d, m, 2000, p) for g in (1 / 16, 1 / 4, 1) for p in (12300, 12301)
                        for d, m in settings("rb", (g * 2 ** IMPL_FORMAT["emu-u16"][1],), ("amp", "sign", "lap"))]
        out += [("rb", "torchbf16", "none", 0, 2000, p) for p in range(12400, 12405)]
        out += [("rb", "torchbf16", d, m, 2000, 12400)
                for d, m in settings("rb", (2 ** IMPL_FORMAT["torchbf16"][1] / 4,), ("amp", "sign", "lap"))]
    if plan == "null":
        # docs/power.md#false-fail-rule: correct ports, 2000 steps, paths FIRST.. (--first):
        # all five on a worker's first 30 paths, then one implementation per path in turn
        for p in range(first, first + paths):
            impls = NULL_IMPLS if p - first < 30 else (NULL_IMPLS[p % len(NULL_IMPLS)],)
            out += [("rb", impl, "none", 0, 2000, p) for impl in impls]
    return out


def binned(rows):
    """{(held_out, kind, steps, bin): [detected, runs, UNABLE or LOW-POWER]} of the defect
    rows; the one bad step by its size"""
    t = {}
    for r in rows:
        if r["defect"] == "none":
            continue
        if r["defect"] == "bad":  # by the bad step's size, MAG u|x|
            b = BAD.index(int(float(r["mag"])))
        else:
            e = float(r["effect_mean"])
            b = next(i for i, (lo, hi) in enumerate(BINS) if lo <= e < hi)
        held = r["defect"] in HELD_OUT_DEFECTS or r["impl"] in HELD_OUT_IMPLS
        kind = ("bad" if r["defect"] == "bad" else "mean") + (" pooled" if "-" in r["path"] else "")
        key = (held, kind, (label(r), int(r["steps"])), b)
        c = t.setdefault(key, [0, 0, 0])
        c[0] += r["exit"] == "1"
        c[1] += 1
        c[2] += r["exit"] == "3" or r["statistics"] == "LOW-POWER"
    return t


def curve(rows):
    """the figure's points (tests/port/power_figure.py): {(steps, held out): [(effect at
    the bin's centre, detected, runs)]} of the binary32 defect runs, by mean effect per
    step in bins [2^b, 2^(b+1)) u|x| (the one bad step and pooled runs left out: a mean
    says nothing of the first, the second is another unit)"""
    c = {}
    for r in rows:
        e = float(r["effect_mean"])
        if r["defect"] in ("none", "bad") or e <= 0 or "-" in r["path"] or r["impl"] in IMPL_FORMAT:
            continue
        held = r["defect"] in HELD_OUT_DEFECTS or r["impl"] in HELD_OUT_IMPLS
        k = c.setdefault((int(r["steps"]), held), {}).setdefault(math.floor(math.log2(e)), [0, 0])
        k[0] += r["exit"] == "1"
        k[1] += 1
    return {key: [(2 ** (b + 0.5), d, n) for b, (d, n) in sorted(bins.items())] for key, bins in sorted(c.items())}


def null_table(rows, goal=1e-3):
    """the correct ports' runs (docs/power.md#false-fail-rule): FAIL / runs per
    implementation and per distinct trajectory (a path's runs with the same p-value, the
    same bits, once), the rate with its 95 % Clopper-Pearson interval and the rule's
    word, and the calibration counts of p <= 0.1, 0.01, 0.001 with P(X >= k)"""
    groups, paths = {}, {}
    for r in rows:
        if r["defect"] != "none" or r["p_value"] in ("", "None"):
            continue
        key = (label(r), r["steps"])   # each format (and rule) judged apart
        groups.setdefault(key + (r["impl"],), []).append((r["exit"] == "1", float(r["p_value"])))
        paths.setdefault(key, {}).setdefault(r["path"], {})["%.10g" % float(r["p_value"])] = r["exit"] == "1"
    for (system, steps), by in paths.items():
        groups[(system, steps, "distinct")] = [(fail, float(p)) for v in by.values() for p, fail in v.items()]
        # the unit of the amended rule (06:29): the path, a false FAIL when any of its runs
        # FAILed, its p-value the smallest of its runs'
        groups[(system, steps, "paths")] = [(any(v.values()), min(float(p) for p in v)) for v in by.values()]
    if not groups:
        return []
    out = ["correct ports: FAIL / runs, the rate with its two-sided 95 % interval, and the p-values' tail",
           "(distinct: one run per path and distinct p-value; paths: one per path, FAIL when any of its runs FAILed)", "",
           "| system | steps | impl | runs | FAIL | rate | 95 % interval | judged | p <= 0.1 | p <= 0.01 | p <= 0.001 |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for (system, steps, impl), g in sorted(groups.items(),
                                          key=lambda kv: (kv[0][:2], kv[0][2] in ("distinct", "paths"), kv[0][2])):
        n, k = len(g), sum(f for f, _ in g)
        lo, hi = clopper_pearson(k, n, 0.975)
        lo1, hi1 = clopper_pearson(k, n, 0.95)
        word = "met" if hi1 <= goal else "not met" if lo1 > goal else "consistent"
        tail = []
        for q in (0.1, 0.01, 0.001):
            c = sum(p <= q for _, p in g)
            tail.append("%d (%.3g; P %.2g)" % (c, n * q, binom_sf(c, n, q)))
        out.append("| %s | %s | %s | %d | %d | %.2g | %.2g-%.2g | %s | %s |"
                   % (system, steps, impl, n, k, k / n, lo, hi, word, " | ".join(tail)))
    return out + [""]


def binned_lines(rows):
    """the detection tables of the defect runs: detected / runs (UNABLE or LOW-POWER in
    brackets) by system (and format) and length, seen then held out"""
    lines = []
    t = binned(rows)
    heads = ["< 0.25", "0.25-1", "1-4", "4-30", ">= 30"]
    for held in (False, True):
        for kind in ("mean", "bad", "mean pooled", "bad pooled"):
            steps = sorted({k[2] for k in t if k[0] == held and k[1] == kind}, key=lambda v: (v[1], v[0]))
            if not steps:
                continue
            lines.append("**%s, %s%s**" % ("held out" if held else "seen", "defects by mean effect" if kind.startswith("mean")
                                           else "one bad step of MAG u|x|",
                                           ", 4 paths pooled in one verify" if "pooled" in kind else ""))
            lines.append("")
            cols = heads if kind.startswith("mean") else ["%d u" % m for m in BAD]
            lines.append("| system | steps | " + " | ".join(cols) + " |")
            lines.append("|---|---|" + "---|" * len(cols))
            for s in steps:
                cells = []
                for b in range(len(cols)):
                    c = t.get((held, kind, s, b))
                    cells.append("%d/%d%s" % (c[0], c[1], " (%d)" % c[2] if c[2] else "") if c else "")
                lines.append("| %s | %d | %s |" % (s[0], s[1], " | ".join(cells)))
            lines.append("")
    return lines


def table(h):
    rows = list(h.done.values())
    lines = ["# power of slpi verify --local (tests/port/power.py)", "",
             "detected / runs (of which UNABLE or LOW-POWER in brackets), by mean effect per step in u|x|", ""]
    lines += binned_lines(rows)
    miss = sorted((r for r in rows if r["defect"] not in ("none", "bad") and float(r["effect_mean"]) >= 0.25
                   and r["exit"] != "1"), key=lambda r: (r["system"], int(r["steps"]), r["defect"], r["impl"]))
    if miss:
        lines += ["missed defects of mean effect >= 0.25 u|x| per step:", ""]
        lines += ["- %s %s %s %s, %s steps, path %s: effect %s u, verify exit %s, statistics %s (p %s, "
                  "detectable %s u)" % (r["system"], r["impl"], r["defect"], r["mag"], r["steps"], r["path"],
                                        r["effect_mean"], r["exit"], r["statistics"], r["p_value"][:8],
                                        r["detectable_u"][:6]) for r in miss]
        lines.append("")
    lines += null_table(rows)
    with open(os.path.join(h.out, "table.md"), "w") as f:
        f.write("\n".join(lines))
    return "\n".join(lines)


def effects(h):
    """OUT/effects.md: each defect's mean (and largest) effect per step in u|x| on the
    grid, plus the amplitude 1 % and 0.1 % off, from the binary64 build on path 0
    (1000 steps; 100 on Euler-Zeitlin)"""
    lines = ["| system | defect | MAG: mean effect (largest) per step in u|x| |", "|---|---|---|"]
    for system in SYSTEMS:
        steps = 100 if system == "zeitlin" else 1000
        noise = h.noise(system, steps, 0)
        for d in ("drop", "coef", "amp", "sign", "lap", "bad", "early"):
            ms = sorted(set(mags(system, d)) | ({0.01, 0.001} if d == "amp" else set()))
            cells = ["%g: %.3g (%.3g)" % ((m,) + h.effect(system, noise, steps, d, m)) for m in ms]
            lines.append("| %s | %s | %s |" % (system, d, "; ".join(cells)))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(h.out, "effects.md"), "w") as f:
        f.write(text)
    return text


def main(argv):
    plan, out, paths, maxruns, also, first = "smoke", os.path.join(BUILD, "power"), 4, None, [], 5000
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("--plan", "--out", "--paths", "--first", "--max-runs", "--also") and i + 1 < len(argv):
            v = argv[i + 1]
            if a == "--also":
                also.append(v)
            elif a == "--plan":
                plan = v
            elif a == "--out":
                out = v
            elif a == "--paths":
                paths = int(v)
            elif a == "--first":
                first = int(v)
            else:
                maxruns = int(v)
            i += 2
        else:
            print(__doc__, file=sys.stderr)
            return 2
    if plan not in ("smoke", "table", "goals", "pooled", "falsefail", "null", "ez", "b16", "numba", "issue", "ht10k", "ez10k", "curve", "formats", "data",
                    "data-rest", "mixed", "effects", "report", "all"):
        print("power.py: unknown plan %r" % plan, file=sys.stderr)
        return 2
    h = Harness(out)
    for d in also:
        h.read(d if d.endswith(".tsv") else os.path.join(d, "runs.tsv"))
    if plan == "report":
        print(table(h))
        return 0
    # the binary64 builds must PASS binary64 first (the porter's workflow), global and
    # local; once per build of the ports (the mark is older than a changed port)
    mark = os.path.join(out, "binary64.pass")
    if not os.path.exists(mark) or os.path.getmtime(mark) < os.path.getmtime(h.exe("zeitlin", "double")):
        for system in SYSTEMS:
            noise = h.noise(system, 30, 0)
            traj = os.path.join(out, "traj64.tsv")
            run(h.port_argv("c-double", system, noise, 30, "none", 0), out=traj)
            code, _ = h.verify([traj], precision="binary64", local_only=False)
            if code != 0:
                print("power.py: the binary64 build of %s does not PASS binary64 (exit %d)" % (system, code),
                      file=sys.stderr)
                return 1
        open(mark, "w").close()
    if plan == "effects":
        print(effects(h))
        return 0
    todo = plan_runs(plan, paths, first)
    n = 0
    for case in todo:
        if maxruns is not None and n >= maxruns:
            break
        if h.one(*case) is not None:
            n += 1
    print(table(h))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
