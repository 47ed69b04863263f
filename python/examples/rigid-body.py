#!/usr/bin/env python3
"""The demo's rigid-body figure from Python: ISO rigid body, ISOMP, with and without
noise, on the unit sphere (ISO Fig. 1 left). Needs python3-matplotlib (Debian).
Usage: PYTHONPATH=python python3 python/examples/rigid-body.py [out.png]"""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import slpi  # noqa: E402

det = slpi.run("iso/rigid-body/trajectories", noise="none")
sto = slpi.run("iso/rigid-body/trajectories")
fig = plt.figure(figsize=(6, 6))
ax = fig.add_subplot(projection="3d")
u, v = np.mgrid[0:2 * np.pi:40j, 0:np.pi:20j]
ax.plot_wireframe(np.cos(u) * np.sin(v), np.sin(u) * np.sin(v), np.cos(v), color="0.85", linewidth=0.4)
ax.plot(*det.states.T, "k", linewidth=1.0, label="deterministic")
ax.plot(*sto.states.T, "C1", linewidth=0.6, label="stochastic (iso-quad)")
ax.set_box_aspect((1, 1, 1))
ax.legend(loc="upper left")
ax.set_title("rigid body, ISOMP: |x| = 1 along both paths")
out = sys.argv[1] if len(sys.argv) > 1 else "rigid-body.png"
fig.savefig(out, dpi=120)
print(f"{out}: max ||x|-1| = {np.abs(np.linalg.norm(sto.states, axis=1) - 1).max():.2e}")
