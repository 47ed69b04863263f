"""ensemble-peers.py — `slpi ensemble` against the peers a researcher would write instead
(`make bench`): the rigid body's ISOMP-COMM ensemble, 10^5 paths x 100 steps, written from
the scheme statement of docs/schemes.md#isomp, docs/schemes.md#solver and
docs/systems.md#rigid-body-iso alone (not from slpi's code):

    psi(y) = -(h I^-1 y + amp (y_i eta_i)_i),  I = diag(2, 1, 2/3), amp = 0.1,
    eta_i = clip(dW_i, +-D), D = sqrt(2 ell h |ln h|), ell = 2 (docs/noise.md#truncation);
    Y0 = X + 1/2 psi(X) x X                                   (Euler predictor)
    Y <- X + 1/2 psi(Y) x Y - 1/4 (psi(Y).Y) psi(Y)           (fixed point, max-abs norm)
    stop: |dY| <= tol max(1, |Y|) converged; |dY| >= previous and <= 100 tol max(1, |Y|)
    stagnated; |dY| > 10^6 first diverged; maxit 100 iterations: failed; tol = 1e-15
    X_{n+1} = X + psi(Y) x Y                                  (update=comm)

from x0 = (sin 1.1, 0, cos 1.1), h = 0.01, each path on its own normals (the peers draw
theirs from NumPy's generators; slpi's canonical Philox noise is its own), every path's
final state and energy reduced to their mean and variance. Three engines:

  - slpi: `slpi ensemble --paths 100000 system=rigid-body scheme=isomp h=0.01 steps=100
    --threads T` (T = 1, 2), whole process: start, noise, steps, the statistics of 13
    quantities at 2 saved times, the report; and the same ensemble of the user model
    models/rigid-body.slpi (the rigid body restated as an so3 model);
  - numba: one `prange` loop over paths, each path's steps and solves in scalars
    (numba.set_num_threads(T), T = 1, 2; compiled once before timing: its JIT time is not
    counted; Debian's python3-numba, optional: skipped with the reason when missing);
  - NumPy: vectorised over the paths, every path iterating until the last one of the step
    has stopped, finished paths frozen by masks (one thread: NumPy's element-wise
    operations run on one).

Floating-point mode: every engine runs in slpi's, rounding to nearest with subnormal
results and operands flushed to zero (core/fpmode.h, as every double step of slpi). The
peers set it themselves: x86's MXCSR gets FTZ and DAZ from LLVM's stmxcsr/ldmxcsr, emitted
by a numba intrinsic (no C is compiled), at the start of every path in the numba kernel
(each thread that runs a path) and once in the main thread before the NumPy peer. Each
engine proves its mode where it computes: a subnormal result (2^-1022 / 2) and a subnormal
operand (2^-1030 x 1) must both read 0, on every path's thread and in NumPy; the script
stops otherwise. Without numba (or off x86-64) the peers cannot set the mode: the NumPy
peer then runs in IEEE mode and the line says so.

The engines run in turn, three rounds (the NumPy peer, 30-40 times slower, one round: its
ratio to the others is far from every goal's threshold); the figures are each engine's
median wall and CPU time (user + system: the process's for the peers, the child's for
slpi), and the ratios are taken between medians of the same run. On a shared machine the
CPU time is the steadier figure (the wall time also counts the time other processes held
the cores). slpi's CPU time a path-step is printed against its goal (<= 35 ns) and its
bound (17 ns), with their ratio. The goals are judged as fixed before this script measured them: slpi ÷ numba
on wall time (a speed, threads included), the user model ÷ the built-in on CPU time (the
same work on the same route and threads), each at 1 and at 2 threads. Each engine's mean iterations per
path-step is printed beside it: the stopping rule is the same, so they should agree to
within the noise's sampling (about 0.01). SLPI_BENCH_PATHS sets another size.

Usage: python3 bench/ensemble-peers.py   (SLPI_BIN=build/slpi)"""
import math
import os
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

import goal  # bench/goal.py: the goal lines bench/goals.py reads

H, STEPS, TOL, MAXIT, AMP, ELL = 0.01, 100, 1e-15, 100, 0.1, 2.0
# slpi's path-step, CPU time of the whole process: its bound (about 330 flops a path-step at
# 6 iterations, AVX-512 without FMA: docs/experiments.md) and the goal, 2x the bound rounded
# up (the speed goal of the ensembles)
BOUND_NS, GOAL_NS = 17.0, 35.0
IINV = (1 / 2.0, 1 / 1.0, 1 / (2.0 / 3.0))
X0 = (math.sin(1.1), 0.0, math.cos(1.1))
D = math.sqrt(2 * ELL * H * abs(math.log(H)))
SQH = math.sqrt(H)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


TINY, SUB = 2.0 ** -1022, 2.0 ** -1030   # the smallest normal; a subnormal


def flushing(a, b):
    """Whether a/2 (a subnormal result) and b*1 (a subnormal operand) both read 0."""
    return a * 0.5 == 0.0 and b * 1.0 == 0.0


# ------------------------------------------------------------------------------------ numba
def numba_kernel():
    import platform
    import numba
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic

    if platform.machine() not in ("x86_64", "AMD64"):
        raise ImportError("slpi's mode is set here by x86's MXCSR, and this is %s" % platform.machine())

    @intrinsic
    def set_flush(typingctx):
        # this thread's MXCSR |= FTZ (bit 15) | DAZ (bit 6): SLPI_FPMODE_FLUSH of core/fpmode.h
        def codegen(context, builder, signature, args):
            i32, i8p = ir.IntType(32), ir.IntType(8).as_pointer()
            fnty = ir.FunctionType(ir.VoidType(), [i8p])
            slot = cgutils.alloca_once(builder, i32)
            ptr = builder.bitcast(slot, i8p)
            builder.call(cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.sse.stmxcsr"), [ptr])
            builder.store(builder.or_(builder.load(slot), ir.Constant(i32, 0x8040)), slot)
            builder.call(cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.sse.ldmxcsr"), [ptr])
            return builder.load(slot)
        return types.int32(), codegen

    @numba.njit(cache=False)
    def flush_here(a, b):
        set_flush()
        return a * 0.5 == 0.0 and b * 1.0 == 0.0

    @numba.njit(parallel=True, cache=False)
    def run(paths, steps, seed, tiny, sub):
        fin = np.empty((paths, 3))
        its = np.zeros(paths, np.int64)
        bad = np.zeros(paths, np.int64)
        ieee = np.zeros(paths, np.int64)
        np.random.seed(seed)
        for p in numba.prange(paths):
            set_flush()
            ieee[p] = not (tiny * 0.5 == 0.0 and sub * 1.0 == 0.0)
            x1, x2, x3 = X0[0], X0[1], X0[2]
            n_it = 0
            for _ in range(steps):
                e1 = min(max(np.random.standard_normal() * SQH, -D), D)
                e2 = min(max(np.random.standard_normal() * SQH, -D), D)
                e3 = min(max(np.random.standard_normal() * SQH, -D), D)
                p1 = -(H * IINV[0] * x1 + AMP * e1 * x1)
                p2 = -(H * IINV[1] * x2 + AMP * e2 * x2)
                p3 = -(H * IINV[2] * x3 + AMP * e3 * x3)
                y1 = x1 + 0.5 * (p2 * x3 - p3 * x2)
                y2 = x2 + 0.5 * (p3 * x1 - p1 * x3)
                y3 = x3 + 0.5 * (p1 * x2 - p2 * x1)
                first = prev = 0.0
                it = 0
                while True:
                    it += 1
                    p1 = -(H * IINV[0] * y1 + AMP * e1 * y1)
                    p2 = -(H * IINV[1] * y2 + AMP * e2 * y2)
                    p3 = -(H * IINV[2] * y3 + AMP * e3 * y3)
                    py = p1 * y1 + p2 * y2 + p3 * y3
                    v1 = x1 + 0.5 * (p2 * y3 - p3 * y2) - 0.25 * py * p1
                    v2 = x2 + 0.5 * (p3 * y1 - p1 * y3) - 0.25 * py * p2
                    v3 = x3 + 0.5 * (p1 * y2 - p2 * y1) - 0.25 * py * p3
                    d = max(abs(v1 - y1), abs(v2 - y2), abs(v3 - y3))
                    s = max(1.0, abs(v1), abs(v2), abs(v3))
                    y1, y2, y3 = v1, v2, v3
                    if it == 1:
                        first = d
                    if d <= TOL * s:
                        break
                    if it > 1 and d >= prev and d <= 100 * TOL * s:
                        break
                    if (it > 1 and d > 1e6 * first) or it >= MAXIT or d != d:
                        bad[p] += 1
                        break
                    prev = d
                n_it += it
                p1 = -(H * IINV[0] * y1 + AMP * e1 * y1)
                p2 = -(H * IINV[1] * y2 + AMP * e2 * y2)
                p3 = -(H * IINV[2] * y3 + AMP * e3 * y3)
                x1, x2, x3 = x1 + (p2 * y3 - p3 * y2), x2 + (p3 * y1 - p1 * y3), x3 + (p1 * y2 - p2 * y1)
            fin[p, 0], fin[p, 1], fin[p, 2] = x1, x2, x3
            its[p] = n_it
        return fin, its, bad, ieee.sum()

    return numba, run, flush_here


# ------------------------------------------------------------------------------------ NumPy
def numpy_run(paths, steps, seed):
    rng = np.random.default_rng(seed)
    ii = np.array(IINV)[:, None]
    x = np.repeat(np.array(X0)[:, None], paths, axis=1)
    its = np.zeros(paths, np.int64)
    bad = np.zeros(paths, np.int64)

    def psi(y, e):
        return -(H * ii * y + AMP * e * y)

    for _ in range(steps):
        e = np.clip(rng.standard_normal((3, paths)) * SQH, -D, D)
        y = x + 0.5 * np.cross(psi(x, e), x, axis=0)
        act = np.ones(paths, bool)
        first = np.zeros(paths)
        prev = np.zeros(paths)
        it = 0
        while act.any():
            it += 1
            p = psi(y, e)
            py = (p * y).sum(axis=0)
            v = x + 0.5 * np.cross(p, y, axis=0) - 0.25 * py * p
            d = np.abs(v - y).max(axis=0)
            s = np.maximum(1.0, np.abs(v).max(axis=0))
            y = np.where(act, v, y)
            if it == 1:
                first = d
            conv = d <= TOL * s
            stag = (it > 1) & (d >= prev) & (d <= 100 * TOL * s)
            fail = ((it > 1) & (d > 1e6 * first)) | (it >= MAXIT) | np.isnan(d)
            stop = act & (conv | stag | fail)
            bad += stop & fail & ~conv & ~stag
            its += np.where(act, 1, 0)
            act &= ~stop
            prev = d
        x = x + np.cross(psi(y, e), y, axis=0)
    return x.T, its, bad


# ------------------------------------------------------------------------------------ slpi
def slpi_run(paths, threads, model):
    binp = os.environ.get("SLPI_BIN", os.path.join(ROOT, "build", "slpi"))
    args = [binp, "ensemble", "--paths", str(paths), "--threads", str(threads), "h=%r" % H, "steps=%d" % STEPS]
    args += ["--config", os.path.join(ROOT, "models", "rigid-body.slpi")] if model else ["system=rigid-body",
                                                                                            "scheme=isomp"]
    t0, c0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    wall, c1 = time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime
    its, route = None, None
    for line in out.splitlines():
        f = line.split("\t")
        if line.startswith("# route: "):
            route = line[9:]
        if len(f) > 5 and f[0] == str(STEPS) and f[2] == "mean_iters":
            its = float(f[4])
    return wall, cpu, its, route


def reduce(fin):
    h0 = (np.array(IINV) * fin * fin).sum(axis=1)
    return fin.mean(axis=0), fin.var(axis=0, ddof=1), h0.mean(), h0.var(ddof=1)


def main():
    paths = int(os.environ.get("SLPI_BENCH_PATHS", 10 ** 5))
    ps = paths * STEPS
    engines = []
    try:
        numba, kern, flush_here = numba_kernel()
        kern(64, 2, 1, TINY, SUB)   # compile
        for t in (1, 2):
            def go(t=t):
                numba.set_num_threads(t)
                t0, c0 = time.perf_counter(), time.process_time()
                fin, its, bad, ieee = kern(paths, STEPS, 1, TINY, SUB)
                reduce(fin)
                wall, c = time.perf_counter() - t0, time.process_time() - c0
                if ieee:
                    sys.exit("ensemble-peers: %d numba paths ran without flushing (MXCSR not set)" % ieee)
                return wall, c, its.sum() / ps, "prange, flushing"
            engines.append(("numba, %d thread%s" % (t, "s" if t > 1 else ""), go, 3))
        npmode = "masks, flushing"
        if not (flush_here(TINY, SUB) and flushing(np.float64(TINY), np.float64(SUB))):
            sys.exit("ensemble-peers: the main thread does not flush after MXCSR was set")
    except ImportError as exc:
        print("ensemble-peers: numba peer skipped: %s (Debian: apt-get install python3-numba); "
              "the NumPy peer runs in IEEE mode, not slpi's" % exc)
        npmode = "masks, IEEE mode: not slpi's"
    engines.append(("NumPy vectorised, 1 thread", lambda: timed_numpy(paths, ps, npmode), 1))
    for t in (1, 2):
        engines.append(("slpi ensemble, %d thread%s" % (t, "s" if t > 1 else ""),
                        lambda t=t: slpi_run(paths, t, False), 3))
        engines.append(("slpi ensemble, user model, %d thread%s" % (t, "s" if t > 1 else ""),
                        lambda t=t: slpi_run(paths, t, True), 3))
    load0 = os.getloadavg()
    res = {name: [] for name, _, _ in engines}
    cpu = {name: [] for name, _, _ in engines}
    info = {}
    for r in range(3):
        for name, go, rounds in engines:
            if r < rounds:
                wall, c, its, extra = go()
                res[name].append(wall)
                cpu[name].append(c)
                info[name] = (its, extra)
    load1 = os.getloadavg()
    med = {k: statistics.median(v) for k, v in res.items()}
    mcpu = {k: statistics.median(v) for k, v in cpu.items()}
    print("ensemble-peers: rigid body ISOMP-COMM, %d paths x %d steps, h = %g, tol %g; medians of 3 rounds (1: NumPy); "
          "load (1, 5 min) %.2f %.2f -> %.2f %.2f; %d cores" % (paths, STEPS, H, TOL, load0[0], load0[1], load1[0],
                                                               load1[1], os.cpu_count()))
    for name, _, _ in engines:
        its, extra = info[name]
        print("  %-44s %8.3f s wall %8.3f s CPU  %6.2e path-steps/s  %6.1f ns/path-step  %.4f it/path-step  [%s]" % (
            name, med[name], mcpu[name], ps / med[name], 1e9 * med[name] / ps, its if its is not None else float("nan"),
            extra))
    for t in (1, 2):
        s = "s" if t > 1 else ""
        ours, model = "slpi ensemble, %d thread%s" % (t, s), "slpi ensemble, user model, %d thread%s" % (t, s)
        nb = "numba, %d thread%s" % (t, s)
        print("ensemble-peers: %d thread%s: slpi / numba speed %s (CPU %s), slpi / NumPy %.2f (CPU %.2f), "
              "user model time / built-in %.2f (CPU %.2f)"
              % (t, s, "%.2f" % (med[nb] / med[ours]) if nb in med else "n/a (numba missing)",
                 "%.2f" % (mcpu[nb] / mcpu[ours]) if nb in mcpu else "n/a",
                 med["NumPy vectorised, 1 thread"] / med[ours], mcpu["NumPy vectorised, 1 thread"] / mcpu[ours],
                 med[model] / med[ours], mcpu[model] / mcpu[ours]))
        ns = 1e9 * mcpu[ours] / ps
        print(goal.line("ensemble-ns-%dthread%s" % (t, s), ns, True, GOAL_NS, BOUND_NS,
                        "slpi ensemble's ns a path-step, CPU of the whole process, %d thread%s (%.2f x the bound)"
                        % (t, s, ns / BOUND_NS)))
    return 0


def timed_numpy(paths, ps, mode):
    t0, c0 = time.perf_counter(), time.process_time()
    fin, its, bad = numpy_run(paths, STEPS, 1)
    reduce(fin)
    return time.perf_counter() - t0, time.process_time() - c0, its.sum() / ps, mode


if __name__ == "__main__":
    sys.exit(main())
