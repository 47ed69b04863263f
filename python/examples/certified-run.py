#!/usr/bin/env python3
"""A certified run: the rigid-body preset on the certified path (ref=True, Arb balls at
128 bits, the mean-value (Lohner) form chosen by default), next to the double path. The
balls contain the exact result of the discrete scheme and stay tiny (radius ~1e-17);
the double path is not inside them: its own rounding (~1e-15) is larger than the radius,
so |fast - midpoint| <= radius + the double path's error, and the figure shows the two.
Usage: python3 certified-run.py [out.png]   (default build/python-examples/)"""
import numpy as np

import slpi
from _common import pyplot, save

steps = 1500
cert = slpi.run("iso/rigid-body/trajectories", steps=steps, ref=True)
fast = slpi.run("iso/rigid-body/trajectories", steps=steps)
gap = np.abs(fast.states - cert.states).max(axis=1)
print("certified-run: %d steps certified, largest radius %.2e (the doubles' rounding), "
      "fast path within %.2e of the midpoints" % (steps, cert.radii.max(), gap.max()))
assert cert.radii.max() <= 2.0 ** -52 and gap.max() < 1e-10
plt = pyplot("certified-run")
if plt:
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.semilogy(cert.t, np.maximum(gap, 1e-18), label="|fast - certified midpoint|")
    ax.semilogy(cert.t, cert.radii.max(axis=1), label="certified radius (as doubles)")
    ax.set_xlabel("t")
    ax.legend()
    ax.set_title("rigid body, ISOMP: the double path's distance to the balls' midpoints\n"
                 "exceeds their radius (its own rounding)")
    save(fig, "certified-run")
