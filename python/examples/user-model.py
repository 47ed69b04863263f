#!/usr/bin/env python3
"""Your own model: a free rigid body written as a Hamiltonian on so3 with a noise
Hamiltonian of your choosing (slpi.Model), run on the double path and certified; the
same equations as the built-in rigid body, so with the preset's inertia, noise and x0 the
two agree to rounding (the same quantity two ways).
Usage: python3 user-model.py [out.png]   (default build/python-examples/)"""
import numpy as np

import slpi
from _common import pyplot, save

x0 = [1.0, 0.5, 0.2] / np.linalg.norm([1.0, 0.5, 0.2])
m = slpi.Model("so3", "(x1^2/I1 + x2^2/I2 + x3^2/I3)/2", noise=["amp*x1", "amp*x2", "amp*x3"],
               params={"I1": 2, "I2": 1, "I3": 0.5, "amp": 0.1}, x0=x0, scheme="isomp", h=2.0 ** -8, steps=400)
r = slpi.run(m)
c = slpi.run(m, ref=True, steps=100)
casimir = np.abs(np.linalg.norm(r.states, axis=1) - 1).max()
print("user-model: %d steps on so3, |x| = 1 within %.1e; certified 100 steps, largest radius %.1e"
      % (r.summary["steps"], casimir, c.radii.max()))
assert casimir < 1e-12 and c.radii.max() <= 2.0 ** -52 and np.abs(c.states - r.states[:101]).max() < 1e-12
plt = pyplot("user-model")
if plt:
    fig, ax = plt.subplots(figsize=(6, 4))
    for i, lab in enumerate(r.labels):
        ax.plot(r.t, r.states[:, i], label=lab)
    ax.set_xlabel("t")
    ax.legend()
    ax.set_title("a model of your own: H on so3 with linear noise")
    save(fig, "user-model")
