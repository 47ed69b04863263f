#!/usr/bin/env python3
"""vs-quflow.py — Euler–Zeitlin ISOMP per step, slpi against quflow (klasmodin/quflow,
isomp_fixedpoint), one thread, same W0, same step, N = 64, 128, 256, no noise.

slpi runs with quflow's stopping rule (warm_start=1 tol_scale=step tol=2^-26 = sqrt(eps):
quflow's defaults without compensated summation; bench/bench-fast-zeitlin.c explains
the remaining difference of norms) and with its own default (cold, tol 1e-15). Printed:
mean time per step (best of 3 runs of STEPS steps; slpi's as a run of STEPS + 1 steps
less a run of one step, which removes its set-up), quflow / slpi, slpi's mean
iterations, and the relative difference of the final states in the max norm (slpi's
after STEPS + 1 steps against quflow's after STEPS + 1).

quflow is not a dependency of slpi: give its source folder as QUFLOW=/path/to/quflow
(a clone of github.com/klasmodin/quflow). It needs numpy, scipy and numba (Debian:
python3-scipy, python3-numba); its spherical-harmonics modules (ducc0, h5py, ...) are
not used by the integrator, so missing ones are replaced by empty modules here.
Run: QUFLOW=... PYTHONPATH=python python3 bench/vs-quflow.py [STEPS]   (default 20)
"""
import os
import sys
import time
import types

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("NUMBA_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

import slpi

src = os.environ.get("QUFLOW")
if not src or not os.path.isdir(os.path.join(src, "quflow")):
    sys.exit("vs-quflow: set QUFLOW to a folder holding quflow's source (its 'quflow' package)")
sys.path.insert(0, src)


class _Absent(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Absent(name)


for mod in ("ducc0", "h5py", "pyssht", "matplotlib", "matplotlib.pyplot", "cartopy", "cartopy.crs"):
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
        t0 = time.perf_counter()
        out = f()
        t.append(time.perf_counter() - t0)
    return min(t), out


def main():
    print(f"vs-quflow: {STEPS} steps of h = {H} (quflow dt = h hbar), one thread, no noise")
    for N in (64, 128, 256):
        keys = dict(system="euler-zeitlin", scheme="isomp", N=N, ic_lmax=4, noise="none", h=H, steps=STEPS)
        x0 = slpi.run(**dict(keys, steps=1)).states[0]
        W0 = matrix(x0, N)
        hb = 2.0 / np.sqrt(N * N - 1)
        isomp_fixedpoint(W0.copy(), H * hb, steps=2)  # compile (numba) outside the timing
        tq, Wq = best(lambda: isomp_fixedpoint(W0.copy(), H * hb, steps=STEPS + 1))
        tq *= STEPS / (STEPS + 1)
        row = [f"N={N:3d}  quflow {1e3 * tq / STEPS:8.3f} ms/step"]
        for name, extra in (("quflow's rule", dict(warm_start=1, tol_scale="step", tol=2.0**-26)),
                            ("slpi default", {})):
            # per step: a run of STEPS + 1 steps less a run of 1 (the set-up: the su(N) basis)
            t1, _ = best(lambda: slpi.run(**dict(keys, steps=1, **extra)))
            ts, r = best(lambda: slpi.run(**dict(keys, steps=STEPS + 1, **extra)))
            ts -= t1
            Ws = matrix(r.states[-1], N)
            diff = np.abs(Ws - Wq).max() / np.abs(Wq).max()
            row.append(f"slpi {name} {1e3 * ts / STEPS:8.3f} ms/step (quflow/slpi {tq / ts:5.2f}, "
                       f"mean iterations {r.summary['iterations'] / (STEPS + 1):.2f}, final states differ {diff:.1e})")
        print("\n       ".join(row))


main()
