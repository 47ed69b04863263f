#!/usr/bin/env python3
"""ISO paper, Fig. 1 left (Ephrati, Jansson, Lang, Luesink, "An exponential map free
implicit midpoint method for stochastic Lie-Poisson systems", arXiv:2408.16701): rigid-body trajectories on the
unit sphere, ISOMP, with and without noise; |x| = 1 along both.
Usage: python3 rigid-body-sphere.py [out.png]   (default build/python-examples/)"""
import numpy as np

import slpi
from _common import figure_path, pyplot

det = slpi.run("iso/rigid-body/trajectories", noise="none")
sto = slpi.run("iso/rigid-body/trajectories")
drift = max(np.abs(np.linalg.norm(r.states, axis=1) - 1).max() for r in (det, sto))
print("rigid-body-sphere: %d steps, max ||x| - 1| = %.2e" % (sto.summary["steps"], drift))
assert drift < 1e-12, "the Casimir |x| drifted"
plt = pyplot("rigid-body-sphere")
if plt:
    fig = plt.figure(figsize=(6, 6))
    ax = slpi.plot.sphere(det, fig.add_subplot(projection="3d"), color="k", linewidth=1.0, label="deterministic")
    slpi.plot.sphere(sto, ax, color="C1", linewidth=0.6, label="stochastic (iso-quad)")
    ax.legend(loc="upper left")
    ax.set_title("rigid body, ISOMP: |x| = 1 along both paths")
    out = figure_path("rigid-body-sphere.png")
    fig.savefig(out, dpi=120)
    print("rigid-body-sphere: wrote", out)
