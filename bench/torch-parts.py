#!/usr/bin/env python3
"""torch-parts.py — where a slpi.torch Euler–Zeitlin step's CPU time goes, by part
(docs/gpu.md#cpu's per-part table, printed as its Markdown rows).

Problem: iso/zeitlin/strong (noise (Q)) at N = 256 (TORCH_PARTS_N), ic_lmax = 11,
h = 2^-8, one path, float64 (TORCH_PARTS_PRECISION), TORCH_PARTS_STEPS steps (default 8)
saved at the end, TORCH_PARTS_RUNS runs (default 3); one thread, subnormals flushed, as
bench/torch-cpu.py. Each part is the process CPU time around its calls, summed over the
steps, per step; a call made inside another part's counts with the outer one (the
noise tables' own products are the tables'), and calls made during the set-up are not
counted. The parts:
  - noise (Q) tables: slpi.torch.poisson.Modes.apply and .add (the fold, the products
    to the coefficients, the weighting, the products back, the rows put back, the
    trace's columns);
  - the real products: slpi.torch.isomp.product and Tensor.baddbmm_ outside the tables
    (the 2N x 2N by 2N x N products, 2 an iteration and 2 a step);
  - the Poisson scans: Poisson.solve;
  - the gathers and the signs: Poisson.diagonals and Poisson.matrix;
  - the weights: Modes.weights;
  - the noise: slpi.torch.noise.increments (the step's share of its chunk);
  - the rest of the step: Stepper.step's time less the parts above (the predictor's and
    the sweeps' sums, the stopping rule, the update);
  - outside the step: the run's cpu_seconds less the steps and the noise (the saved
    rows, the chunk's flags and its one copy to the host).
Printed: each part's median over the runs, ms a step (min-max), its share of the median
total, and the load before and after. Env: SLPI_LIB, PYTHONPATH=python."""
import os
import statistics
import sys
import time

os.environ["OPENBLAS_NUM_THREADS"] = "1"   # before OpenBLAS is loaded, as bench/torch-cpu.py
import torch  # noqa: E402

import slpi.torch as storch  # noqa: E402
from slpi.torch import euler_zeitlin, isomp, noise, poisson  # noqa: E402

PARTS = [("tables", "noise (Q) tables: fold, products to the coefficients, weighting, products back, the rows "
          "put back (and the trace's columns)"),
         ("products", "the real products (2N × 2N by 2N × N), 2 an iteration and 2 a step"),
         ("scans", "the Poisson scans (2⌈log₂ N⌉ + 1 passes a Ψ)"),
         ("gathers", "the gathers (the diagonals with the folded inputs, Ψ's real form) and the signs"),
         ("weights", "the weights (noise (Q) increments into the tables' layout)"),
         ("noise", "the noise (Q) increments (the step's share of its chunk)"),
         ("rest", "the rest of the step (predictor and sweep sums, stopping rule, update)"),
         ("outside", "outside the step (saved rows, the chunk's flags and its copy to the host)")]

acc = {}
depth = [0]


def timed(part, f):
    """f, its process time added to acc[part] when called outside every other timed call"""
    def g(*a, **k):
        if depth[0]:
            return f(*a, **k)
        depth[0] += 1
        t = time.process_time()
        try:
            return f(*a, **k)
        finally:
            acc[part] = acc.get(part, 0.0) + time.process_time() - t
            depth[0] -= 1
    return g


def step_timed(f):
    """Stepper.step: its whole time to acc["step"], its parts (the calls above) inside it"""
    def g(*a, **k):
        t = time.process_time()
        try:
            return f(*a, **k)
        finally:
            acc["step"] = acc.get("step", 0.0) + time.process_time() - t
    return g


def patch():
    M, P = poisson.Modes, poisson.Poisson
    for cls, name, part in [(M, "apply", "tables"), (M, "add", "tables"), (M, "weights", "weights"),
                            (P, "solve", "scans"), (P, "diagonals", "gathers"), (P, "matrix", "gathers")]:
        setattr(cls, name, timed(part, getattr(cls, name)))
    isomp.product = timed("products", isomp.product)
    torch.Tensor.baddbmm_ = timed("products", torch.Tensor.baddbmm_)
    noise.increments = timed("noise", noise.increments)
    euler_zeitlin.Stepper.step = step_timed(euler_zeitlin.Stepper.step)


def one(N, steps, precision):
    acc.clear()
    real = euler_zeitlin.Stepper.__init__

    def init(self, *a, **k):             # the set-up's calls are not a step's
        real(self, *a, **k)
        acc.clear()
    euler_zeitlin.Stepper.__init__ = init
    try:
        e = storch.run("iso/zeitlin/strong", paths=1, N=N, ic_lmax=min(11, N - 1), h=2.0 ** -8, steps=steps,
                       save_every=steps, precision=precision)
    finally:
        euler_zeitlin.Stepper.__init__ = real
    ms = {k: 1e3 * v / steps for k, v in acc.items()}
    inner = sum(ms.get(k, 0.0) for k, _ in PARTS if k not in ("noise", "rest", "outside"))
    ms["rest"] = ms.get("step", 0.0) - inner
    ms["outside"] = 1e3 * e.cpu_seconds / steps - ms.get("step", 0.0) - ms.get("noise", 0.0)
    ms["total"] = 1e3 * e.cpu_seconds / steps
    return ms, float(e.iterations.mean())


def main():
    N = int(os.environ.get("TORCH_PARTS_N", "256"))
    steps = int(os.environ.get("TORCH_PARTS_STEPS", "8"))
    runs = int(os.environ.get("TORCH_PARTS_RUNS", "3"))
    precision = os.environ.get("TORCH_PARTS_PRECISION", "float64")
    torch.set_num_threads(1)
    if not torch.set_flush_denormal(True):
        sys.exit("torch-parts.py: torch cannot flush subnormals on this CPU (bench/torch-cpu.py's rule)")
    patch()
    print("load before: %.1f %.1f %.1f; torch %s; su(%d) %s, %d steps, %d runs; %s UTC" %
          (os.getloadavg() + (torch.__version__, N, precision, steps, runs,
                              time.strftime("%Y-%m-%d %H:%M", time.gmtime()))))
    res = [one(N, steps, precision) for _ in range(runs)]
    med = {k: statistics.median(r[0][k] for r in res) for k, _ in PARTS + [("total", "")]}
    print("iterations a step: %s" % ", ".join("%.2f" % r[1] for r in res))
    print("| part | share (ms a step, median; min–max of %d runs) |" % runs)
    print("|---|---|")
    for k, text in PARTS:
        v = [r[0][k] for r in res]
        print("| %s | %.0f %% (%.1f; %.1f–%.1f) |" % (text, 100 * med[k] / med["total"], med[k], min(v), max(v)))
    v = [r[0]["total"] for r in res]
    print("| the step, all parts (the run's cpu_seconds a step) | 100 %% (%.1f; %.1f–%.1f) |" %
          (med["total"], min(v), max(v)))
    print("load after: %.1f %.1f %.1f" % os.getloadavg())


if __name__ == "__main__":
    main()
