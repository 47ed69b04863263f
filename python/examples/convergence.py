#!/usr/bin/env python3
"""SVI paper (Gay-Balmaz, Wu, "Variational integrators for stochastic Hamiltonian systems
on Lie groups: properties and convergence", arXiv:2412.19368): strong convergence of the
stochastic variational integrator on the rigid body (docs/experiments.md, presets svi/rigid-body/strong-n1 and -n3): order 1 with one
noise, order 1/2 with three, from coupled studies (docs/noise.md#coupling).
Usage: python3 convergence.py [out.png]"""
import numpy as np

import slpi
from _common import figure_path, pyplot

studies = {n: slpi.converge("svi/rigid-body/strong-" + n, levels=(2, 6), ref=9, paths=40, boot=200)
           for n in ("n1", "n3")}
for n, s in studies.items():
    print("convergence: %s: strong order %.2f, 95%% CI [%.2f, %.2f]" % (n, s.slope, *s.ci))
assert all(np.isfinite(s.slope) for s in studies.values())
plt = pyplot("convergence")
if plt:
    fig, ax = plt.subplots(figsize=(6, 4.5))
    for n, s in studies.items():
        ax.errorbar(s.h, s.e, yerr=2 * s.se, marker="o", capsize=3, label="%s: order %.2f" % (n, s.slope))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("h")
    ax.set_ylabel("strong error")
    ax.legend()
    out = figure_path("convergence.png")
    fig.savefig(out, dpi=120)
    print("convergence: wrote", out)
