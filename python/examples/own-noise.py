#!/usr/bin/env python3
"""Your own noise: Wiener increments you make (here numpy's generator, seed printed and
set by SLPI_EXAMPLE_SEED), handed to slpi.run as dW, with rows kept at 33 chosen times
(save_at, as diffrax's SaveAt(ts=...)) and an observer that stops the run when the
energy has moved by more than a tolerance. A check computed two ways: the canonical
increments (slpi.noise) given as dW reproduce the default run bit for bit.
Usage: python3 own-noise.py [out.png]   (default build/python-examples/)"""
import os

import numpy as np

import slpi
from _common import pyplot, save

preset, steps = "iso/rigid-body/trajectories", 2048
pr = slpi.Problem(preset)
h, M, keys = pr.h, pr.noises, dict(line.split("=", 1) for line in pr.text().splitlines())
seed = int(os.environ.get("SLPI_EXAMPLE_SEED", "20261124"))
print("own-noise: seed %d (set SLPI_EXAMPLE_SEED to change it)" % seed)

# 1. the canonical increments as dW: the default run, bit for bit
canon = np.stack([slpi.noise(int(keys["seed"]), int(keys["path"]), k, h, steps) for k in range(M)], axis=1)
same = slpi.run(preset, steps=steps, dW=canon, truncate="off")
default = slpi.run(preset, steps=steps, truncate="off")
assert np.array_equal(same.states, default.states), "dW = the canonical increments differs from the default run"

# 2. your own increments, rows at 33 times, and an observer that stops at an energy drift
dW = np.sqrt(h) * np.random.default_rng(seed).standard_normal((steps, M))
ts = np.linspace(0, steps * h, 33)
H0 = lambda x: 0.5 * (x[0] ** 2 / 2 + x[1] ** 2 + x[2] ** 2 / 0.5)   # the preset's inertia 2, 1, 0.5
E0 = H0(slpi.run(preset, steps=1).states[0])
r = slpi.run(preset, steps=steps, dW=dW, save_at=ts, observer=lambda t, x: abs(H0(x) - E0) > 0.05)
stop = r.summary["stopped_at"]
print("own-noise: %d of %d rows at t = %s; %s" % (len(r.t), len(ts), np.round(r.t, 3).tolist(),
      "stopped at step %d (t = %g): |H0 - H0(x0)| > 0.05" % (stop, stop * h) if stop else "ran to the end"))
assert np.allclose(np.linalg.norm(r.states, axis=1), 1, atol=1e-12) and list(r.t) == list(ts[:len(r.t)])
plt = pyplot("own-noise")
if plt:
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(r.t, r.states, "o-")
    ax.set_xlabel("t")
    ax.set_ylabel("x at the save times")
    ax.set_title("rigid body on your own increments (seed %d)" % seed)
    save(fig, "own-noise")
