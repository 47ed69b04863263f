#!/usr/bin/env python3
"""The mean energy of an ensemble over time: SVI rigid body paths (preset
svi/rigid-body/ensemble), the states and diagnostics of every path at a stride
(save_every) as (paths, times) arrays, and their mean with a 2-standard-error band
(slpi.plot.band); the ensemble stored as NetCDF with its header (slpi.save, when
python3-xarray and python3-netcdf4 are installed) and read back.
Usage: python3 ensemble-energy.py [out.png]"""
import os

import numpy as np

import slpi
from _common import figure_path, pyplot

e = slpi.ensemble("svi/rigid-body/ensemble", paths=64, save_every=10, diagnostics=True)
H = e.diagnostics["H0"]                           # (paths, times)
mean, se = H.mean(axis=0), H.std(axis=0, ddof=1) / np.sqrt(H.shape[0])
print("ensemble-energy: %d paths, %d times: mean H0 %.6f at t = 0, %.6f +- %.6f at t = %g"
      % (H.shape[0], H.shape[1], mean[0], mean[-1], se[-1], e.t[-1]))
assert e.states.shape == (64, len(e.t), 3) and np.all(H[:, 0] == H[0, 0])
try:
    nc = os.path.splitext(figure_path("ensemble-energy.png"))[0] + ".nc"
    slpi.save(e, nc)
    back = slpi.load(nc)
    assert np.array_equal(back["H0"].values, H) and back.attrs["scheme"] == e.problem["scheme"]
    print("ensemble-energy: stored %s (%d attributes: provenance and problem)" % (nc, len(back.attrs)))
except ImportError as why:
    print("ensemble-energy: NetCDF skipped:", why)
plt = pyplot("ensemble-energy")
if plt:
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(e.t, H.T, color="0.8", linewidth=0.4)
    slpi.plot.band(e, "H0", k=2, ax=ax)   # the mean with its 2-SE band, from the kept diagnostics
    out = figure_path("ensemble-energy.png")
    fig.savefig(out, dpi=120)
    print("ensemble-energy: wrote", out)
