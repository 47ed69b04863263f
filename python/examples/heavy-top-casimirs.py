#!/usr/bin/env python3
"""RKMK paper, Figs. 4-5 (Luesink, Ephrati, Cifani, Geurts, "Casimir preserving
stochastic Lie-Poisson integrators", arXiv:2111.13143; preset
rkmk/heavy-top/casimirs-421): the heavy top's Casimirs |gamma|^2 and pi.gamma along one
stochastic realization, with the Lie-group scheme TMK (kept to rounding) and the direct
trapezoidal rule on the coordinates (drifting).
Usage: python3 heavy-top-casimirs.py [out.png]"""
import numpy as np

import slpi
from _common import figure_path, pyplot

runs = {s: slpi.run("rkmk/heavy-top/casimirs-421", scheme=s, steps=2000) for s in ("tmk", "trap-direct")}
worst = {s: max(np.abs(r.diagnostics[c]).max() for c in ("C1_dev", "C2_dev")) for s, r in runs.items()}
print("heavy-top-casimirs: max Casimir departure: tmk %.2e, trap-direct %.2e" % (worst["tmk"], worst["trap-direct"]))
assert worst["tmk"] < 1e-10 < worst["trap-direct"], "TMK keeps the Casimirs, the direct rule does not"
plt = pyplot("heavy-top-casimirs")
if plt:
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, c, title in zip(axes, ("C1_dev", "C2_dev"), ("|gamma|^2 - 1", "pi.gamma - (pi.gamma)(0)")):
        for s, r in runs.items():
            ax.semilogy(r.t, np.abs(r.diagnostics[c]) + 1e-18, label=s)
        ax.set_xlabel("t")
        ax.set_title(title)
        ax.legend()
    out = figure_path("heavy-top-casimirs.png")
    fig.savefig(out, dpi=120)
    print("heavy-top-casimirs: wrote", out)
