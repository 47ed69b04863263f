#!/usr/bin/env python3
"""torch-compile.py — does torch.compile (PyTorch >= 2, TorchInductor's C++ on the CPU)
make slpi.torch's Euler–Zeitlin step faster on the CPU, and does it keep the step's bits?
(docs/gpu.md#compile)

Problem: iso/zeitlin/strong (noise (Q)), ic_lmax = 11, h = 2^-8, one path, at N = 64, 128,
256 (TORCH_COMPILE_N) in float64 and float32, STEPS = TORCH_COMPILE_STEPS steps (default
12) saved every step, one thread, subnormals flushed (as bench/torch-cpu.py). Each run is
slpi.torch.run twice: eager, then with Stepper.step replaced by torch.compile of it
(default mode, dynamic=False; TORCH_COMPILE_MODE sets the mode), per Stepper. Printed
per (N, precision): the median process CPU time of a step over steps 3 .. STEPS (the
first two steps compile: the first learns the sweeps on the host, the later ones make
them fixed), eager and compiled, their ratio; the seconds of the first two steps (the
compilation); whether the saved rows are bit-identical and their largest difference in
units of the state's size; the graphs and graph breaks dynamo counted.
Before the runs: the C++ compiler and the optimisation flags TorchInductor passes it
(torch._inductor.cpp_builder), the fp-contract option; after: the generated kernels'
source searched for fused multiply-adds (fmadd, fma() calls), in a fresh
TORCHINDUCTOR_CACHE_DIR (removed after, unless given). Env: SLPI_LIB,
PYTHONPATH=python, CXX (TorchInductor's C++ compiler: it also needs Python.h and the
ATen headers; Debian 13's python3-torch 2.6 needs g++, libpython3.13-dev and
libtorch-dev beside it, docs/gpu.md#compile). PyTorch < 2 has no torch.compile: the
script says so and exits 0."""
import glob
import os
import re
import shutil
import statistics
import sys
import tempfile
import time

os.environ["OPENBLAS_NUM_THREADS"] = "1"
SCRATCH = None if "TORCHINDUCTOR_CACHE_DIR" in os.environ else tempfile.mkdtemp(prefix="slpi-inductor-")
os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", SCRATCH or "")
import numpy as np  # noqa: E402
import torch  # noqa: E402

import slpi.torch as storch  # noqa: E402
from slpi.torch import euler_zeitlin  # noqa: E402

ORIG = euler_zeitlin.Stepper.step
times = []


def stepping(compiled, mode):
    def step(self, *a):
        f = ORIG.__get__(self)
        if compiled:
            if "_bench_compiled" not in self.__dict__:
                self.__dict__["_bench_compiled"] = torch.compile(f, mode=mode, dynamic=False)
            f = self.__dict__["_bench_compiled"]
        t = time.process_time()
        out = f(*a)
        times.append(time.process_time() - t)
        return out
    return step


def one(N, precision, steps, compiled, mode):
    times.clear()
    euler_zeitlin.Stepper.step = stepping(compiled, mode)
    try:
        e = storch.run("iso/zeitlin/strong", paths=1, N=N, ic_lmax=min(11, N - 1), h=2.0 ** -8, steps=steps,
                       save_every=1, precision=precision)
    finally:
        euler_zeitlin.Stepper.step = ORIG
    return 1e3 * statistics.median(times[2:]), sum(times[:2]), e.states, float(e.iterations.mean())


def flags():
    from torch._inductor import config, cpp_builder
    cxx = cpp_builder.get_cpp_compiler()
    return cxx, cpp_builder._get_optimization_cflags(cxx), config.cpp.enable_floating_point_contract_flag


def main():
    if not hasattr(torch, "compile"):
        print("torch %s has no torch.compile (PyTorch >= 2.0): nothing to measure" % torch.__version__)
        return
    from torch import _dynamo as dynamo
    from torch._dynamo.utils import counters
    sizes = [int(v) for v in os.environ.get("TORCH_COMPILE_N", "64,128,256").split(",")]
    steps = int(os.environ.get("TORCH_COMPILE_STEPS", "12"))
    mode = os.environ.get("TORCH_COMPILE_MODE") or None
    torch.set_num_threads(1)
    if not torch.set_flush_denormal(True):
        sys.exit("torch-compile.py: torch cannot flush subnormals on this CPU")
    cxx, cflags, contract = flags()
    print("load before: %.1f %.1f %.1f; torch %s; %s UTC; mode %s" %
          (os.getloadavg() + (torch.__version__, time.strftime("%Y-%m-%d %H:%M", time.gmtime()), mode)))
    print("inductor C++: %s; flags: -%s; cpp.enable_floating_point_contract_flag = %s" %
          (cxx, " -".join(cflags), contract))
    print("N\tprecision\teager ms\tcompiled ms\tcompiled/eager\tcompile s\tbit-identical\tmax |diff|/max|x|"
          "\titerations\tgraphs\tgraph breaks")
    for N in sizes:
        for precision in ("float64", "float32"):
            dynamo.reset()
            counters.clear()
            te, _, se, it = one(N, precision, steps, False, mode)
            try:
                tc, cs, sc, _ = one(N, precision, steps, True, mode)
            except Exception as err:          # a failure to compile is a result
                print("%d\t%s\t%.3g\tfailed: %s" % (N, precision, te, str(err).splitlines()[0][:200]))
                continue
            same = np.array_equal(se, sc)
            diff = float(np.abs(se - sc).max() / max(np.abs(se).max(), 1e-300))
            breaks = sum(counters["graph_break"].values())
            print("%d\t%s\t%.3g\t%.3g\t%.2f\t%.1f\t%s\t%.2g\t%.2f\t%d\t%d" %
                  (N, precision, te, tc, tc / te, cs, same, diff, it, counters["stats"]["unique_graphs"], breaks))
            for reason, n in counters["graph_break"].items():
                print("  graph break (%d): %s" % (n, reason[:200]))
            sys.stdout.flush()
    src = [f for f in glob.glob(os.path.join(os.environ["TORCHINDUCTOR_CACHE_DIR"], "**", "*"), recursive=True)
           if f.endswith((".cpp", ".py", ".h")) and os.path.isfile(f)]
    fma = sum(len(re.findall(r"\bfmadd\b|\bfma\s*\(", open(f, errors="replace").read())) for f in src)
    print("generated sources: %d files under %s; fused multiply-adds in them: %d" %
          (len(src), os.environ["TORCHINDUCTOR_CACHE_DIR"], fma))
    print("load after: %.1f %.1f %.1f" % os.getloadavg())


if __name__ == "__main__":
    try:
        main()
    finally:
        if SCRATCH:                               # the cache this run made, not one it was given
            shutil.rmtree(SCRATCH, ignore_errors=True)
