#!/usr/bin/env python3
"""The figures of docs/figures.md, at print size (6.5 in wide, 150 dpi): a stochastic
Euler-Zeitlin run (su(24), transport noise) as Mollweide panels with one colour scale
and as orthographic views, its energy and Casimir drift (absolute and relative departures
on separate axes), a rigid-body ensemble's mean band and quantile band, a strong
convergence study and an MLMC estimate, and the run as an animated .gif. Each is written as fig-NAME.png (fig-vorticity.gif) into the folder of the
path given (default build/python-examples/); docs/figures/ holds the reviewed copies.
Usage: python3 print-figures.py [OUT-FOLDER-or-FILE]"""
import os

import slpi
from _common import WIDTH, print_folder as folder, print_write as write, pyplot

FIGURES = ("fig-vorticity-mollweide.png", "fig-vorticity-orthographic.png", "fig-drift.png", "fig-band.png",
           "fig-convergence.png", "fig-mlmc.png", "fig-vorticity.gif")


def main():
    r = slpi.run(system="euler-zeitlin", scheme="isomp", N=24, amp=0.5, h=1 / 64, steps=192, output_every=16)
    e = slpi.ensemble("iso/rigid-body/trajectories", paths=400, steps=256, save_every=16, stats=True,
                      diagnostics=True)
    s = slpi.converge("iso/rigid-body/strong", levels=(2, 7), ref=9, paths=32, boot=200)
    m = slpi.mlmc("iso/so3/weak-exact", rmse=0.01, phi="x1", levels=(1, 10))
    print("print-figures: su(24) run to t = %g (%d rows), enstrophy drift %.1e; ensemble of %d paths; strong "
          "slope %.3g [%.3g, %.3g]; MLMC E x1(1) = %.4f +- %.4f on %d levels"
          % (r.t[-1], len(r.t), abs(r.diagnostics["C2_rel_dev"]).max(), len(e.paths), s.slope, *s.ci, m.estimate,
             m.se, len(m.level)))
    plt = pyplot("print-figures")
    if not plt:
        return
    out = folder()

    def save(fig, name):
        write(fig, os.path.join(out, name))
        plt.close(fig)
    pick = [0, len(r.t) // 2, len(r.t) - 1]
    fig = slpi.plot.panels([r.states[i] for i in pick], titles=["t = %g" % r.t[i] for i in pick],
                           projection="mollweide", n=(96, 192), figsize=(WIDTH, 2.0),
                           central_longitude=170)   # the vortex pair at 170 E: on the seam of a map centred on 0 E
    save(fig, FIGURES[0])
    views = ((20, 170), (-20, -10))   # two opposite points: the whole sphere
    fig = slpi.plot.panels([r.states[-1]] * 2, projection="orthographic", n=(192, 384), view=views[0],
                           figsize=(WIDTH * 0.8, 2.8))
    for ax, view in zip(fig.slpi_axes, views):   # the second panel from the other side, same colour scale
        ax.clear()
        slpi.plot.vorticity(r.states[-1], ax=ax, n=(192, 384), projection="orthographic", view=view,
                            vlim=fig.slpi_vlim, colorbar=False)
        ax.set_title("from %d %s, %d %s" % (abs(view[0]), "N" if view[0] > 0 else "S", abs(view[1]),
                                            "E" if view[1] >= 0 else "W"), fontsize=9)
    save(fig, FIGURES[1])
    fig = slpi.plot.drift(r, figsize=(WIDTH, 4.0)).figure   # absolute departures above, relative ones below
    save(fig, FIGURES[2])
    fig, (a, b) = plt.subplots(1, 2, figsize=(WIDTH, 2.6), constrained_layout=True)
    slpi.plot.band(e, "x1", ax=a)
    slpi.plot.band(e, "x1", q=(0.05, 0.95), ax=b)
    a.set_title("mean +- 2 SE (400 paths)", fontsize=9)
    b.set_title("median, 5-95 % of the paths", fontsize=9)
    save(fig, FIGURES[3])
    fig = slpi.plot.convergence(s).figure
    fig.set_size_inches(WIDTH * 0.7, 3.0)
    save(fig, FIGURES[4])
    save(slpi.plot.mlmc(m).figure, FIGURES[5])
    slpi.plot.animate(r.states, os.path.join(out, FIGURES[6]), times=r.t, fps=4, projection="mollweide",
                      n=(48, 96), dpi=80, figsize=(WIDTH * 0.8, 2.6))
    for f in FIGURES:
        print("print-figures: wrote %s" % os.path.join(out, f))


if __name__ == "__main__":
    main()
