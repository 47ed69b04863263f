#!/usr/bin/env python3
"""Ornstein-Uhlenbeck transport noise (key noise_tau, docs/noise.md#ou) and its white-noise
limit: the ISO rigid body's strong study set-up (iso/rigid-body/strong, h = 2^-12, 512 steps,
T = 2^-3) on 256 paths with white noise and with OU noise of correlation times tau =
10^-1 .. 10^-8 on the same canonical paths; the strong distance (E |X_tau(T) - X(T)|^2)^1/2
against tau, with the slope over tau <= 10^-5 (docs/experiments.md#ou states the
prediction, slope 1/2, fixed before the first run). The figure: one path's x1 under white
and OU noise (left), the distance against tau (right).
Usage: python3 ou-noise.py [out.png]   (default build/python-examples/)"""
import numpy as np

import slpi
from _common import pyplot, save

preset, paths = "iso/rigid-body/strong", 256
taus = [1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8]
white = slpi.ensemble(preset, paths=paths, threads=2)
dist = []
for tau in taus:
    x = slpi.ensemble(preset, paths=paths, threads=2, noise_tau=tau)
    dist.append(float(np.sqrt(np.mean(np.sum((x - white) ** 2, axis=1)))))
    print("ou-noise: tau = %-6g strong distance to white noise at T: %.4g" % (tau, dist[-1]))
small = [i for i, t in enumerate(taus) if t <= 1e-5]
slope = np.polyfit(np.log([taus[i] for i in small]), np.log([dist[i] for i in small]), 1)[0]
print("ou-noise: slope over tau <= 1e-5: %.3f (predicted 1/2)" % slope)
assert 0.4 <= slope <= 0.6, slope
assert np.array_equal(slpi.ensemble(preset, paths=4, noise_tau=0), slpi.ensemble(preset, paths=4))

plt = pyplot("ou-noise")
if plt:
    fig, (a, b) = plt.subplots(1, 2, figsize=(8, 3.2))
    w = slpi.run(preset)
    a.plot(w.t, w.states[:, 0], color="k", lw=1, label="white")
    for tau, c in ((1e-2, "C0"), (1e-4, "C1")):
        r = slpi.run(preset, noise_tau=tau)
        a.plot(r.t, r.states[:, 0], color=c, lw=1, label="OU, tau = %g" % tau)
    a.set_xlabel("t")
    a.set_ylabel("x1 (path 0)")
    a.legend(fontsize=8)
    b.loglog(taus, dist, "o-", color="C0", label="measured")
    b.loglog(taus, dist[-1] * np.sqrt(np.array(taus) / taus[-1]), "--", color="0.5", label="slope 1/2")
    b.set_xlabel("correlation time tau")
    b.set_ylabel("strong distance to white noise at T")
    b.legend(fontsize=8)
    fig.tight_layout()
    save(fig, "ou-noise")
