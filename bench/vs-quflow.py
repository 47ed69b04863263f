#!/usr/bin/env python3
"""vs-quflow.py — Euler–Zeitlin ISOMP per step, slpi against quflow (klasmodin/quflow,
isomp_fixedpoint), one thread, same W0, same step, N = 64, 128, 256, 512, 1024 (or
the sizes in VS_QUFLOW_N, comma-separated), no noise.

slpi runs, in the same run as quflow:
  - at quflow's stopping rule (tol_scale=step tol=2^-26 = sqrt(eps): quflow's defaults
    without compensated summation; bench/bench-fast-zeitlin.c explains the remaining
    difference of norms), started as quflow starts (warm_start=1: the previous step's
    increment, stacked on slpi's Euler predictor), with warm_start=2 (the last two
    increments extrapolated) and from the Euler predictor alone (docs/schemes.md#solver);
  - at its own default (tol 1e-15, the Euler predictor and warm_start=1, Euler-Zeitlin's
    default since 2026-11-24), at tol 1e-15 with warm_start=2, and cold at tol 1e-15 from
    the Euler predictor (the default before) and from X_n (the start before the
    predictor).
Like for like (docs/experiments.md#quflow-fair): both codes run in the same floating-point
mode, on the same BLAS kernel, from the same state. slpi's double path flushes subnormals
while it steps (core/fpmode.h), so quflow's call runs with MXCSR's FTZ and DAZ set too (a
two-line C library built here with cc and loaded with ctypes; quflow in IEEE mode is
timed too and printed in brackets, for reference only: at N >= 256 its steps take
subnormal assists slpi's do not). numpy's OpenBLAS is told slpi's kernel (`slpi list
--system`; OPENBLAS_CORETYPE, unless the caller set it) before numpy loads. Each N runs
from two starts (VS_QUFLOW_START, default "4,all"): the modes l <= 4 (ic_lmax=4, where most
of the matrix is zeros and subnormals arise) and a generic state with every mode
populated (ic_lmax = N - 1).
Printed: mean CPU time per step (the machine is shared: CPU time, not wall time; best
of 3 runs, 1 run from N = 512, of STEPS (256/N)^2 steps but at least 20); quflow's is its
process's CPU time over the call, slpi's the CPU time of the steps of a run of S steps
(its JSON summary's cpu_seconds, which leaves out the set-up and the first row) less that
of a run of 1 step, over S - 1, which leaves out the last row's diagnostics (a Hermitian
eigensolve, about 1 s at N = 1024) and the first step (a warm start's cold one); quflow /
slpi; the mean iterations (slpi's over the same S - 1 steps); each final state's error
against its own code's converged solution, relative in the max norm: slpi's rows against
slpi's default (tol 1e-15), quflow's against quflow run with eps in place of sqrt(eps) in
its rule (the two codes' solutions differ by more than either solver's error: quflow
b0e6589's Poisson solve is not slpi's Delta_N^-1, one step at tol 1e-14 already differs by
2.4e-7 relative at N = 32). "At equal accuracy" marks the slpi rows whose error is at most
quflow's. The bounds: OpenBLAS's zgemm and zgemm3m (the library slpi links, one thread)
are timed in the same run; quflow's step / (2 iterations x zgemm) is quflow's own overhead,
and each slpi row's product bound is (iterations x the products of an iteration + 1 for
the Euler predictor's commutator where the start has one) x slpi's product (zgemm3m, or
zgemm on OpenBLAS's AVX-512 kernels: docs/install.md#products), so that its "ceiling",
quflow's step / that bound, is the ratio slpi would reach if nothing but its products took
time: a goal above the ceiling is held by the iteration count, one below it by the O(N^2)
passes.

quflow is not a dependency of slpi: give its source folder as QUFLOW=/path/to/quflow
(a clone of github.com/klasmodin/quflow). It needs numpy, scipy and numba (Debian:
python3-scipy, python3-numba, python3-appdirs); its spherical-harmonics modules (ducc0, h5py, ...) are
not used by the integrator, so missing ones are replaced by empty modules here.
Measured before the like-for-like rule, quflow in IEEE mode (superseded by
docs/experiments.md#quflow-fair; kept as that day's record) (2026-11-24 02:49-03:23, quflow b42eede, 2-core AMD EPYC (Zen 5, AVX-512),
OpenBLAS 0.3.21 as Haswell, load 0.0-0.4; STEPS 80, so 1280/320/80/20/20 steps at N =
64/128/256/512/1024; N = 512 and 1024 from a second run with the first step left out of the
iterations and at least 20 steps), quflow / slpi in CPU time at N = 64 / 128 / 256 / 512 /
1024, with each row's ceiling in brackets (quflow's mean iterations 2.00 / 2.00 / 2.00 /
1.05 / 1.05; its step / (2 it zgemm) 2.24 / 1.63 / 1.41 / 1.32 / 1.17):
  quflow's rule and quflow's own start (the like-for-like row: equal iterations, equal
  error): 1.88 / 1.61 / 1.61 / 1.53 / 1.66 (2.77 / 2.40 / 2.25 / 2.21 / 1.97); the spread
  between quiet runs at one N is about +-0.15 (earlier runs that day: 1.86 / 1.50 / 1.31 /
  1.41 / 1.43 and 1.75 / 1.48 / 1.57 / 1.47 / 1.60, before the O(N^2) passes of fast/sun.c
  were reworked; 1.43 at N = 512 in the first run of this one);
  quflow's rule, warm_start=2: 3.42 / 2.88 / 2.95 / 1.47 / 1.54;
  default (tol 1e-15, the Euler predictor and warm_start=1): 1.10 / 0.93 / 0.93 / 0.66 /
  0.62 (1.55 / 1.33 / 1.23 / 0.84 / 0.74), at 3.00 / 3.00 / 3.01 / 2.00 / 2.00 iterations;
  tol 1e-15 with warm_start=2: 1.27 / 1.60 / 1.60 / 0.77 / 1.41 (1.85 / 2.39 / 2.21 / 1.11 /
  1.87);
  tol 1e-15 cold, the default before: 0.87 / 0.73 / 0.74 / 0.46 / 0.45.
So at quflow's rule slpi is 1.5-1.9x quflow at every N, its step 1.18-1.49x its products.
At slpi's default tolerance the ceiling is below 1 from N = 512: 2 iterations and the
predictor's product, 4.1 zgemm3m a step, against quflow's 1.05 iterations of 2 zgemm at its
looser, step-scaled rule; no O(N^2) work can close that. At N = 128 and 256 the ceiling is
above 1 and the O(N^2) passes (step / product bound 1.43 / 1.33) hold the default at 0.93.
warm_start=2 clears 1 at N = 64-256 and 1024 but is no default (it loses with strong
noise, docs/schemes.md#solver).
Run: make; QUFLOW=... python3 bench/vs-quflow.py [STEPS]   (default 20; SLPI_BIN: the
slpi command, default build/slpi)
"""
import ctypes
import json
import os
import subprocess
import sys
import tempfile
import time
import types

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("NUMBA_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

SLPI = os.environ.get("SLPI_BIN", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "slpi"))


def slpi_system():
    """`slpi list --system`'s lines as a dict: "openblas" (the kernel the slpi command runs
    and why) and "products" (zgemm or zgemm3m, as it measured and cached them;
    docs/install.md#products)."""
    out = subprocess.run([SLPI, "list", "--system"], check=True, capture_output=True, text=True).stdout
    return {k.strip(): v.strip() for k, _, v in (l.partition(":") for l in out.splitlines()) if v}


# Same BLAS kernel on both sides: slpi may select another kernel than OpenBLAS's own
# (docs/install.md#blas-kernel); numpy's OpenBLAS (quflow's products) is told slpi's, before
# numpy loads it. A kernel set by the caller is kept (both processes then read it).
SYSTEM = slpi_system()
KERNEL = SYSTEM["openblas"]
if not os.environ.get("OPENBLAS_CORETYPE") and KERNEL.split()[0] != "not":
    os.environ["OPENBLAS_CORETYPE"] = KERNEL.split()[0]

import numpy as np

import goal  # bench/goal.py: the goal lines bench/goals.py reads

src = os.environ.get("QUFLOW")
if not src or not os.path.isdir(os.path.join(src, "quflow")):
    sys.exit("vs-quflow: set QUFLOW to a folder holding quflow's source (its 'quflow' package)")
sys.path.insert(0, src)


class _Absent(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Absent(name)


for mod in ("ducc0", "h5py", "pyssht", "matplotlib", "matplotlib.pyplot", "matplotlib.animation",
            "matplotlib.backends", "matplotlib.backends.backend_agg",
            "matplotlib.colors", "mpl_toolkits", "mpl_toolkits.axes_grid1", "cartopy", "cartopy.crs"):
    try:
        __import__(mod)
    except ImportError:
        sys.modules[mod] = _Absent(mod)
from quflow.integrators.isospectral import isomp_fixedpoint  # noqa: E402

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 20
H = 0.25  # the step in slpi's units; quflow's dt = H hbar(N)


def matrix(x, N):
    """slpi's su(N) state layout (slpi.h) as the skew-Hermitian matrix."""
    W = np.zeros((N, N), dtype=complex)
    k = N
    for a in range(N):
        W[a, a] = 1j * x[a]
        for b in range(a + 1, N):
            W[a, b] = x[k] + 1j * x[k + 1]
            W[b, a] = -x[k] + 1j * x[k + 1]
            k += 2
    return W


def best(f, runs=3):
    t = []
    for _ in range(runs):
        t0 = time.process_time()
        out = f()
        t.append(time.process_time() - t0)
    return min(t), out


def slpi_run(keys):
    """A run of the slpi command: (the CPU seconds of its steps, mean iterations, first
    and final state)."""
    with tempfile.TemporaryDirectory() as d:
        args = [SLPI, "run", "-q", "--hex", "-o", d + "/t.tsv", "--json", d + "/s.json"]
        args += [f"{k}={v}" for k, v in keys.items()]
        subprocess.run(args, check=True)
        js = json.load(open(d + "/s.json"))
        cpu = js["cpu_seconds"]
        rows = [l.split("\t") for l in open(d + "/t.tsv") if not l.startswith("#")]
        x = [np.array([float.fromhex(v) for v in r[2:2 + keys["N"] ** 2]]) for r in (rows[1], rows[-1])]
    return cpu, js["mean_iterations"], x


def slpi_steps(keys, steps):
    """CPU seconds of steps - 1 steps (a run of `steps` less a run of 1), the mean
    iterations of those steps (the first step, warm starts' cold one, left out of both) and
    the long run's final state."""
    c1, it1, _ = slpi_run(dict(keys, steps=1, output_every=1))
    c, its, x = slpi_run(dict(keys, steps=steps, output_every=steps))
    return c - c1, (its * steps - it1) / (steps - 1), x


QUFLOW_RULE = dict(tol_scale="step", tol="0x1p-26")
# (name, keys, the start's products: 1 for the Euler predictor's commutator, 0 for none
# and for warm_start=2's extrapolation, which replaces the predictor after the first step)
CASES = (("quflow's rule, quflow's start", dict(QUFLOW_RULE, warm_start=1, predictor="none"), 0),
         ("quflow's rule, warm start   ", dict(QUFLOW_RULE, warm_start=1), 1),
         ("quflow's rule, warm_start=2 ", dict(QUFLOW_RULE, warm_start=2), 0),
         ("quflow's rule, cold         ", dict(QUFLOW_RULE, warm_start=0), 1),
         ("default (tol 1e-15)         ", {}, 1),
         ("tol 1e-15, warm_start=2     ", dict(warm_start=2), 0),
         ("tol 1e-15, cold             ", dict(warm_start=0), 1),
         ("tol 1e-15, cold from X_n    ", dict(warm_start=0, predictor="none"), 0))

BLAS = ctypes.CDLL("libopenblas.so.0")   # slpi's BLAS (config.mk), one thread as above


def mxcsr_lib():
    """A two-line C library that sets this thread's MXCSR FTZ and DAZ bits (what slpi's
    double path does while it steps, core/fpmode.h), built with cc and loaded with ctypes:
    quflow's numba code and numpy's OpenBLAS (one thread: this one) then run flushed too."""
    d = tempfile.mkdtemp(prefix="vs-quflow-")
    with open(d + "/m.c", "w") as f:
        f.write("#include <xmmintrin.h>\nunsigned flush(int on) { unsigned o = _mm_getcsr(); "
                "_mm_setcsr(on ? o | 0x8040u : o & ~0x8040u); return o; }\n")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", d + "/m.so", d + "/m.c"], check=True)
    lib = ctypes.CDLL(d + "/m.so")
    lib.flush.restype = ctypes.c_uint
    return lib


MXCSR = mxcsr_lib()


def flushed(f):
    """f() with FTZ and DAZ set, then the caller's mode again."""
    old = MXCSR.flush(1)
    try:
        return f()
    finally:
        MXCSR.flush(0 if not (old & 0x8040) else 1)


def product_seconds(N, reps):
    """CPU seconds of one N x N complex product, best of reps: OpenBLAS's zgemm (quflow's
    products, through numpy's matmul) and zgemm3m (slpi's products on kernels other than
    SkylakeX and Cooperlake: slpi_product_3m)."""
    rng = np.random.default_rng(N)
    A, B = (np.asfortranarray(rng.standard_normal((N, N)) + 1j * rng.standard_normal((N, N)))
            for _ in range(2))
    C = np.zeros((N, N), dtype=complex, order="F")
    one, zero = (ctypes.c_double * 2)(1, 0), (ctypes.c_double * 2)(0, 0)
    ptr = [ctypes.c_void_p(M.ctypes.data) for M in (A, B, C)]
    out = []
    for f in (BLAS.cblas_zgemm, BLAS.cblas_zgemm3m):   # 102 column major, 111 no transpose
        out.append(best(lambda: f(102, 111, 111, N, N, N, one, ptr[0], N, ptr[1], N, zero,
                                  ptr[2], N), reps)[0])
    return out


def slpi_product_3m():
    """Whether slpi forms its products by zgemm3m (read once, with the kernel)."""
    return SYSTEM["products"].split()[0] == "zgemm3m"


def iteration_products(N):
    """Products per fixed-point iteration in fast/sun.c: the full Psi Y and the block
    triangle of G Psi / 4, (nblk + 1) / (2 nblk) of a product, nblk the column blocks of
    fast/sun.c's sun_default_blocks (not exported by libslpi: this rule mirrors it)."""
    nblk = 8 if N >= 192 else 4 if N >= 96 else 2 if N >= 48 else 1
    return 1 + (nblk + 1) / (2 * nblk)


def main():
    sizes = [int(n) for n in os.environ.get("VS_QUFLOW_N", "64,128,256,512,1024").split(",")]
    starts = os.environ.get("VS_QUFLOW_START", "4,all").split(",")
    BLAS.openblas_get_corename.restype = ctypes.c_char_p
    print(f"vs-quflow: h = {H} (quflow dt = h hbar), one thread, no noise, CPU time; load "
          f"{os.getloadavg()[0]:.1f}; OpenBLAS kernel: slpi {KERNEL}, quflow's numpy "
          f"{BLAS.openblas_get_corename().decode()}; slpi's products by {'zgemm3m' if slpi_product_3m() else 'zgemm'}; "
          "quflow flushed (FTZ+DAZ, as slpi's steps) and, for reference, in IEEE mode")
    for N in sizes:
        for start in starts:
            one_size(N, start)


def one_size(N, start):
    """One N from one start: ic_lmax=4 (the modes l <= 4), or `all` (ic_lmax = N - 1: every
    mode populated, a generic state)."""
    steps = max(20, round(STEPS * (256 / N) ** 2))
    runs = 3 if N <= 256 else 1
    lmax = N - 1 if start == "all" else int(start)
    keys = dict(system="euler-zeitlin", scheme="isomp", N=N, ic_lmax=lmax, noise="none", h=H, steps=steps,
                output_every=steps)
    W0 = matrix(slpi_run(dict(keys, steps=1))[2][0], N)
    hb = 2.0 / np.sqrt(N * N - 1)
    isomp_fixedpoint(W0.copy(), H * hb, steps=1)  # compile (numba) outside the timing
    stats = {"iterations": 0.0}  # quflow fills a non-empty dict only
    tq, Wq = flushed(lambda: best(lambda: isomp_fixedpoint(W0.copy(), H * hb, steps=steps, stats=stats), runs))
    ieee = {"iterations": 0.0}
    tqi, Wqi = best(lambda: isomp_fixedpoint(W0.copy(), H * hb, steps=steps, stats=ieee), runs)
    # quflow's own converged solution: its rule with eps in place of sqrt(eps)
    tight = np.finfo(float).eps * H * np.linalg.norm(W0, np.inf)
    Wqt = flushed(lambda: isomp_fixedpoint(W0.copy(), H * hb, steps=steps, tol=tight, maxit=50))
    res = []
    for name, extra, pred in CASES:
        ts, its, x = min((slpi_steps(dict(keys, **extra), steps) for _ in range(runs)), key=lambda r: r[0])
        res.append((name, ts * steps / (steps - 1), its, pred, matrix(x[1], N)))
    Wref = next(W for name, _, _, _, W in res if name.startswith("default (tol"))   # slpi at its default
    scale = np.abs(Wref).max()
    eq = np.abs(Wq - Wqt).max() / scale
    tz, t3 = product_seconds(N, 5 if N <= 256 else 3)
    tp = t3 if slpi_product_3m() else tz   # slpi's product
    qit = stats['iterations']
    row = [f"N={N:4d}, start ic_lmax={lmax}, {steps} steps: quflow flushed {1e3 * tq / steps:9.3f} ms/step "
           f"(IEEE {1e3 * tqi / steps:.3f}, {ieee['iterations']:.2f} iterations, final states differ by "
           f"{np.abs(Wqi - Wq).max():.1e})  mean iterations "
           f"{qit:.2f}  error {eq:.1e}  / (2 it zgemm) {tq / steps / (2 * qit * tz):.2f};  "
           f"zgemm {1e3 * tz:.3f} ms, zgemm3m {1e3 * t3:.3f} ms, {iteration_products(N):.4f} "
           "products per slpi iteration"]
    ratios = []  # each row's quflow ÷ slpi, its ceiling and error, for the goals below
    for name, ts, its, pred, W in res:
        err = np.abs(W - Wref).max() / scale
        bound = (its * iteration_products(N) + pred) * tp * steps
        ratios.append((tq / ts, tq / bound, err))
        row.append(f"slpi {name} {1e3 * ts / steps:9.3f} ms/step  quflow/slpi {tq / ts:5.2f} "
                   f"(IEEE quflow {tqi / ts:5.2f})  "
                   f"mean iterations {its:.2f}  step / product bound {ts / bound:.2f}  "
                   f"ceiling {tq / bound:5.2f}  error {err:.1e}{'  (equal accuracy)' if err <= eq else ''}")
    print("\n         ".join(row), flush=True)
    # the goals (docs/experiments.md#goals): like for like, quflow's rule and start, and at
    # equal accuracy, slpi's fastest row whose error is at most quflow's; each with its
    # ceiling, quflow's step over that row's product bound
    if N < 128:  # the goals are stated at N = 128..1024
        return
    print(goal.line("quflow-like-N%d-l%s" % (N, start), ratios[0][0], False, 1.5, ratios[0][1],
                    "quflow ÷ slpi, CPU, quflow's rule and start, N = %d from ic_lmax=%d" % (N, lmax)))
    eqs = [(r, c) for r, c, err in ratios if err <= eq]
    best_eq = max(eqs) if eqs else (0.0, 0.0)
    print(goal.line("quflow-equal-accuracy-N%d-l%s" % (N, start), best_eq[0], False, 1.5, best_eq[1],
                    "quflow ÷ slpi, CPU, slpi's fastest row at quflow's error or better (%d rows), N = %d from "
                    "ic_lmax=%d" % (len(eqs), N, lmax)), flush=True)


main()
