"""ensemble-stats.py — an ensemble at the size a modeller asks for (`make bench`): 10^6 paths of the
rigid body (ISOMP, iso/rigid-body/trajectories, 100 steps), each from its own initial
state and on the caller's own increments, both streamed by callables in blocks of 64
paths (never one array: the increments alone would be 10^6 x 100 x 3 doubles, 2.4 GB),
returning the mean and variance of the energy H0 at the 101 saved times (step 0 and
every step) with ``stats=True, states=False``; once on 1 thread and once on 2, each in its
own process so that each peak RSS is its own. Prints wall time, peak RSS, the load
before and after, and whether the two statistics are the same bits (exit 1 if not).

The increments of path r are a function of r alone (numpy's PCG64 seeded by (7, r // 64),
the block's 64 x 100 x 3 normals of standard deviation sqrt(h)), so that both runs see the
same numbers whatever batches the library asks for. SLPI_BENCH_PATHS sets another size.

Usage: python3 bench/ensemble-stats.py   (PYTHONPATH=python SLPI_LIB=build/libslpi.so)"""
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np

PRESET = "iso/rigid-body/trajectories"
STEPS, BLOCK, SEED = 100, 64, 7


def block_inputs(b, h, x0):
    """Path block b's initial states (x0 scaled by 1 + 0.1 u, u uniform in [-1, 1]) and
    increments (64, STEPS, 3)."""
    rng = np.random.default_rng([SEED, b])
    dW = rng.normal(0.0, np.sqrt(h), (BLOCK, STEPS, 3))
    return x0 * (1 + 0.1 * rng.uniform(-1, 1, (BLOCK, 3))), dW


def child(paths, threads):
    import slpi
    pr = slpi.Problem(PRESET, steps=STEPS)
    x0 = slpi.run(pr, steps=1).states[0]
    cache = {}

    def take(first, count, which):
        out = []
        for b in range(first // BLOCK, (first + count - 1) // BLOCK + 1):
            if b not in cache:
                cache.clear()   # called in path order: only the newest block is kept
                cache[b] = block_inputs(b, pr.h, x0)
            lo, hi = max(first, b * BLOCK), min(first + count, (b + 1) * BLOCK)
            out.append(cache[b][which][lo - b * BLOCK:hi - b * BLOCK])
        return np.concatenate(out)

    t0 = time.perf_counter()
    e = slpi.ensemble(pr, paths=paths, x0=lambda f, c: take(f, c, 0), dW=lambda f, c: take(f, c, 1),
                      save_every=1, stats=True, states=False, threads=threads)
    wall = time.perf_counter() - t0
    h0 = e.stats["H0"]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps(dict(threads=threads, paths=e.stats.n, times=len(e.t), wall=wall, rss=rss,
                          mean=h0.mean.tobytes().hex(), var=h0.var.tobytes().hex(),
                          mean_last=float(h0.mean[-1]), var_last=float(h0.var[-1]))))


def main():
    if len(sys.argv) == 3:
        child(int(sys.argv[1]), int(sys.argv[2]))
        return 0
    paths = int(os.environ.get("SLPI_BENCH_PATHS", 10 ** 6))
    runs = []
    for threads in (1, 2):
        load = os.getloadavg()[0]
        out = subprocess.run([sys.executable, __file__, str(paths), str(threads)], check=True, capture_output=True,
                             text=True).stdout
        r = json.loads(out.splitlines()[-1])
        r["load"] = (load, os.getloadavg()[0])
        runs.append(r)
        print("ensemble-stats: %d paths x %d steps, %d saved times, threads=%d: wall %.1f s, peak RSS %.0f MB, "
              "load %.1f -> %.1f; H0 at T: mean %.17g, variance %.6g" % (
                  r["paths"], STEPS, r["times"], threads, r["wall"], r["rss"] / 1e6, r["load"][0], r["load"][1],
                  r["mean_last"], r["var_last"]))
    states = paths * (STEPS + 1) * 3 * 8
    same = runs[0]["mean"] == runs[1]["mean"] and runs[0]["var"] == runs[1]["var"]
    print("ensemble-stats: 2 threads / 1 thread wall %.2f; the states alone would take %.1f GB; "
          "mean and variance of H0 bit-identical across threads: %s" % (
              runs[1]["wall"] / runs[0]["wall"], states / 1e9, "yes" if same else "NO"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
