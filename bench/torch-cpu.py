#!/usr/bin/env python3
"""torch-cpu.py — the cost of an Euler–Zeitlin ISOMP step on slpi.torch (docs/gpu.md)
against slpi's C fast path, on the CPU, one thread each, in one run.

Problem: iso/zeitlin/strong (noise (Q), amp 2) at N = 64, 128, 256, 512 (or
TORCH_CPU_N, comma-separated), ic_lmax = 11, h = 2^-8, one path. Printed per N: the CPU
time per step (process CPU time; the machine may be shared) of
  - slpi's C path (`slpi run`, its JSON cpu_seconds, which leaves out the set-up) at its
    default (warm_start=1 on Euler–Zeitlin) and cold (warm_start=0, as slpi.torch starts);
  - slpi.torch in float64 and float32 (its cpu_seconds: the steps and their noise, after
    the set-up), torch.set_num_threads(1);
the ratios torch / C (cold), the mean iterations, and each torch step divided by the
time of the real matrix products it performs (4 real products per complex one, 2 per
iteration + 2), timed in the same run: how far the step is from its products.
Both sides run on one thread: the C path's su(N) team would add a helper thread a core
(OpenMP's default; its CPU time counted with the caller's: 39-42 ms a step against
38.5-39.5 with one thread at su(256)), so `slpi run` gets OMP_NUM_THREADS=1, and both
get OPENBLAS_NUM_THREADS=1 (torch.set_num_threads(1) for torch's own kernels).
Both sides run in one FP mode: slpi's C path flushes subnormals while it steps (FTZ and DAZ,
core/fpmode.h), and torch.set_flush_denormal(True) sets the same two bits for the torch
steps and the products here (the bench refuses to run where torch cannot set them).
Each time is the best of three runs of S = max(4, 4 (256/N)^2) steps, over S (each code's
own CPU time of its steps, set-up left out). Load: os.getloadavg() before and after.
Env: SLPI_BIN (default build/slpi), SLPI_LIB, PYTHONPATH=python."""
import json
import os
import subprocess
import sys
import tempfile
import time

os.environ["OPENBLAS_NUM_THREADS"] = "1"   # before OpenBLAS is loaded: one BLAS thread on both sides
import torch  # noqa: E402

import slpi  # noqa: E402
import slpi.torch as storch  # noqa: E402

SLPI = os.environ.get("SLPI_BIN", "build/slpi")
KEYS = dict(ic_lmax=11, h=2.0 ** -8)


def c_cpu(N, steps, warm):
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "j.json")
        subprocess.run([SLPI, "run", "--preset", "iso/zeitlin/strong", "N=%d" % N, "ic_lmax=11", "h=0x1p-8",
                        "steps=%d" % steps, "warm_start=%d" % warm, "output_every=%d" % steps, "-q", "--json", j,
                        "-o", os.path.join(d, "o.tsv")], check=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
        doc = json.load(open(j))
    return doc["cpu_seconds"], doc["mean_iterations"]


def t_cpu(N, steps, precision):
    e = storch.run("iso/zeitlin/strong", paths=1, N=N, steps=steps, precision=precision, save_every=steps, **KEYS)
    return e.cpu_seconds, float(e.iterations.mean())


def products(N, dtype, reps):
    a = torch.randn(N, N, dtype=dtype)
    b = torch.randn(N, N, dtype=dtype)
    a @ b
    t = time.process_time()
    for _ in range(reps):
        a @ b
    return (time.process_time() - t) / reps


def per_step(f, N, S, *a):
    """the best of three runs of S steps, over S (both codes' cpu_seconds leave out the
    set-up; differences of runs were tried and were too noisy under load)"""
    runs = [f(N, S, *a) for _ in range(3)]
    t, it = min(runs)
    return t / S, it


def main():
    torch.set_num_threads(1)
    if not torch.set_flush_denormal(True):
        sys.exit("torch-cpu.py: torch cannot flush subnormals on this CPU; slpi's C path does: no fair ratio")
    sizes = [int(v) for v in os.environ.get("TORCH_CPU_N", "64,128,256,512").split(",")]
    print("load before: %.1f %.1f %.1f; torch %s, %d thread, subnormals flushed; CPU time per step (ms)" %
          (os.getloadavg() + (torch.__version__, torch.get_num_threads())))
    print("N\tC default\tC cold\ttorch f64\ttorch f32\tf64/C cold\tf32/C cold\titers C cold/torch f64/f32"
          "\tf64 step/products\tf32 step/products")
    for N in sizes:
        S = max(4, 4 * (256 // N) ** 2)
        cd, _ = per_step(c_cpu, N, S, 1)
        cc, ic = per_step(c_cpu, N, S, 0)
        t64, i64 = per_step(t_cpu, N, S, "float64")
        t32, i32 = per_step(t_cpu, N, S, "float32")
        reps = max(1, 64 * (256 // N) ** 3) if N <= 256 else 2
        p64 = 4 * (2 * i64 + 2) * products(N, torch.float64, reps)
        p32 = 4 * (2 * i32 + 2) * products(N, torch.float32, reps)
        print("%d\t%.3g\t%.3g\t%.3g\t%.3g\t%.2f\t%.2f\t%.2f/%.2f/%.2f\t%.2f\t%.2f" %
              (N, 1e3 * cd, 1e3 * cc, 1e3 * t64, 1e3 * t32, t64 / cc, t32 / cc, ic, i64, i32, t64 / p64, t32 / p32))
        sys.stdout.flush()
    print("load after: %.1f %.1f %.1f" % os.getloadavg())


if __name__ == "__main__":
    main()
