#!/usr/bin/env python3
"""The vorticity of an Euler-Zeitlin run on the sphere: an su(12) state after 200 ISOMP
steps mapped back to a field by the inverse Zeitlin map (slpi.vorticity,
docs/systems.md#vorticity), drawn as a longitude-latitude map (slpi.plot.vorticity),
beside the run's energy and Casimir drift (slpi.plot.drift). Checks: the field of a unit
state has unit L2 norm on the sphere, and the enstrophy (a Casimir) is kept.
Usage: python3 zeitlin-vorticity.py [out.png]"""
import numpy as np

import slpi
from _common import pyplot, save

r = slpi.run("iso/zeitlin/strong", N=12, steps=200)
th, ph = np.meshgrid((np.arange(90) + 0.5) * np.pi / 90, (np.arange(180) + 0.5) * np.pi / 90, indexing="ij")
w = slpi.vorticity(r.states[-1], th, ph)
l2 = np.sum(w ** 2 * np.sin(th)) * (np.pi / 90) ** 2
X = slpi.unpack_su(r.states[-1])
print("zeitlin-vorticity: N = 12, t = %g: |omega|_L2^2 = %.6f, |X|_F^2 = %.6f, enstrophy drift %.1e"
      % (r.t[-1], l2, np.linalg.norm(X) ** 2, abs(r.diagnostics["C2_rel_dev"]).max()))
assert abs(l2 - np.linalg.norm(X) ** 2) < 1e-3 and abs(r.diagnostics["C2_rel_dev"]).max() < 1e-12
plt = pyplot("zeitlin-vorticity")
if plt:
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4), layout="constrained")
    slpi.plot.vorticity(r.states[-1], ax=a)
    a.set_title("su(12) vorticity at t = %g" % r.t[-1])
    slpi.plot.drift(r, ax=b)
    save(fig, "zeitlin-vorticity")
