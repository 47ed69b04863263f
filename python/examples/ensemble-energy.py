#!/usr/bin/env python3
"""The mean energy of an ensemble over time: SVI rigid body paths (preset
svi/rigid-body/ensemble), the states and diagnostics of every path at a stride
(save_every) as (paths, times) arrays, and their mean with a 2-standard-error band.
Usage: python3 ensemble-energy.py [out.png]"""
import numpy as np

import slpi
from _common import figure_path, pyplot

e = slpi.ensemble("svi/rigid-body/ensemble", paths=64, save_every=10, diagnostics=True)
H = e.diagnostics["H0"]                           # (paths, times)
mean, se = H.mean(axis=0), H.std(axis=0, ddof=1) / np.sqrt(H.shape[0])
print("ensemble-energy: %d paths, %d times: mean H0 %.6f at t = 0, %.6f +- %.6f at t = %g"
      % (H.shape[0], H.shape[1], mean[0], mean[-1], se[-1], e.t[-1]))
assert e.states.shape == (64, len(e.t), 3) and np.all(H[:, 0] == H[0, 0])
plt = pyplot("ensemble-energy")
if plt:
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(e.t, H.T, color="0.8", linewidth=0.4)
    ax.plot(e.t, mean, "C0", label="mean over %d paths" % H.shape[0])
    ax.fill_between(e.t, mean - 2 * se, mean + 2 * se, color="C0", alpha=0.3)
    ax.set_xlabel("t")
    ax.set_ylabel("H0")
    ax.legend()
    out = figure_path("ensemble-energy.png")
    fig.savefig(out, dpi=120)
    print("ensemble-energy: wrote", out)
