#!/usr/bin/env python3
"""White against Ornstein-Uhlenbeck transport noise on the ISO rigid body: a paper's three
analyses (docs/noise.md#ou-studies), each with its figure at print size (6.5 in wide, 150
dpi), as docs/figures.md shows them:
1. white and OU ensembles (noise_tau = 0.05) with their 5-95 % quantile bands of x1;
2. the weak order of a callable functional phi(x) = x1 x2 + x3^2 under OU noise
   (slpi.converge, kind weak), with the paths its slope needs;
3. MLMC of the same callable under OU noise: Giles' mlmc_test (levels, check, rates, the
   cost of MLMC against plain Monte Carlo's over a sweep of RMSEs; `slpi mlmc --test`) and
   slpi.mlmc at a requested RMSE.
Each figure is written as fig-ou-NAME.png into the folder given (default
build/python-examples/); docs/figures/ holds the reviewed copies.
Usage: python3 ou-studies.py [OUT-FOLDER-or-FILE]"""
import os

import numpy as np

import slpi
from _common import WIDTH, print_folder as folder, print_write as write, pyplot

FIGURES = ("fig-ou-bands.png", "fig-ou-weak.png", "fig-ou-mlmc.png")
TAU = 0.05


def phi(x):
    """The weak functional, a Python callable of the state."""
    return x[0] * x[1] + x[2] * x[2]


def main():
    ens = {name: slpi.ensemble("iso/rigid-body/trajectories", paths=400, steps=256, save_every=16, stats=True,
                               threads=2, **keys) for name, keys in (("white", {}), ("OU", {"noise_tau": TAU}))}
    weak = slpi.converge("iso/rigid-body/weak", kind="weak", levels=(2, 6), ref=9, paths=512, boot=200, phi=phi,
                         noise_tau=TAU, threads=2)
    test = slpi.mlmc_test("iso/rigid-body/weak", levels=(2, 7), paths=1000, eps=(4e-3, 2e-3, 1e-3, 5e-4), phi=phi,
                          threads=2, noise_tau=TAU)
    est = slpi.mlmc("iso/rigid-body/weak", rmse=test.eps[-1], phi=phi, levels=(2, 16), pilot=100, threads=2,
                    noise_tau=TAU)
    print("ou-studies: x1(T) 5-95 %% spread, white %.4f, OU %.4f (400 paths each)"
          % tuple(float(np.ptp(np.quantile(e.states[:, -1, 0], (0.05, 0.95)))) for e in ens.values()))
    print("ou-studies: weak order of phi under OU noise %.3g [%.3g, %.3g]; paths for a slope: %s"
          % (weak.slope, *weak.ci, weak.paths_needed))
    print("ou-studies: mlmc_test alpha %.2f beta %.2f gamma %.2f, max check %.2f, finest kurtosis %.1f%s"
          % (test.alpha, test.beta, test.gamma, np.nanmax(test.check), test.kurtosis[-1],
             "" if not test.flags else "; " + "; ".join(test.flags)))
    print("ou-studies: mlmc_test's predicted steps at eps %s: MLMC %s, plain MC %s"
          % (list(test.eps), list(test.mlmc_cost), list(test.mc_cost)))
    print("ou-studies: E phi(X_T) = %.6f +- %.1e at rmse %g: %d MLMC steps, plain MC %d"
          % (est.estimate, est.se, test.eps[-1], est.total_cost, est.mc_cost))
    assert not test.flags and np.isfinite(weak.slope)
    plt = pyplot("ou-studies")
    if not plt:
        return
    out = folder()

    def save(fig, name):
        write(fig, os.path.join(out, name))
        plt.close(fig)
    fig, axes = plt.subplots(1, 2, figsize=(WIDTH, 2.6), constrained_layout=True, sharey=True)
    for ax, (name, e) in zip(axes, ens.items()):
        slpi.plot.band(e, "x1", q=(0.05, 0.95), ax=ax)
        ax.set_title("%s: median, 5-95 %% (400 paths)" % (name if name == "white" else "OU, tau = %g" % TAU),
                     fontsize=9)
    save(fig, FIGURES[0])
    fig = slpi.plot.convergence(weak).figure
    fig.set_size_inches(WIDTH * 0.55, 2.4)
    save(fig, FIGURES[1])
    fig = plt.figure(figsize=(WIDTH, 5.6))
    save(slpi.plot.mlmc_test(test, fig=fig), FIGURES[2])
    for f in FIGURES:
        print("ou-studies: wrote %s" % os.path.join(out, f))


if __name__ == "__main__":
    main()
