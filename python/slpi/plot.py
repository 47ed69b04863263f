"""Figures of runs and ensembles with matplotlib (optional: python3-matplotlib; without
it each function raises ImportError naming the package). Each draws into ``ax`` (a new
figure's when None) and returns the axes; ``savefig`` is the caller's.

- ``sphere``: an so3 trajectory on the unit sphere (3-D axes);
- ``drift``: the energy and Casimir departures from step 0 over time (log scale);
- ``band``: an ensemble's mean of a quantity over time with a +-k standard-error band;
- ``vorticity``: the vorticity field of an su(N) state on the sphere (slpi.sphere: the
  inverse of the Zeitlin map), as a longitude-latitude map."""
import numpy as np

__all__ = ["sphere", "drift", "band", "vorticity"]


def _plt():
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("slpi.plot needs matplotlib: apt-get install python3-matplotlib") from None
    return plt


def sphere(result, ax=None, **line):
    """The states of an so3 run (3 coordinates, any radius) on their sphere.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> ax = slpi.plot.sphere(slpi.run("iso/rigid-body/trajectories", steps=200))
    >>> ax.name
    '3d'
    """
    plt = _plt()
    x = np.asarray(result.states)
    if x.ndim != 2 or x.shape[1] != 3:
        from slpi import SlpiError
        raise SlpiError(2, "sphere: states of shape %s: need an so3 run (rows, 3)" % (x.shape,), "result", x.shape)
    if ax is None:
        ax = plt.figure().add_subplot(projection="3d")
    r = float(np.linalg.norm(x[0]))
    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 41), np.linspace(0, np.pi, 21))
    ax.plot_wireframe(r * np.cos(u) * np.sin(v), r * np.sin(u) * np.sin(v), r * np.cos(v), color="0.85",
                      linewidth=0.5)
    ax.plot(x[:, 0], x[:, 1], x[:, 2], **line)
    ax.set_xlabel(result.labels[0])
    ax.set_ylabel(result.labels[1])
    ax.set_zlabel(result.labels[2])
    ax.set_box_aspect((1, 1, 1))
    return ax


def drift(result, ax=None):
    """|H0(t) - H0(0)| and every Casimir's departure from step 0 (the run's ``*_dev``
    diagnostics other than H0's own; of an su(N) spectrum only ``eig_dev``, the largest
    eigenvalue departure) over time, on log scales (zeros at 1e-18). Absolute departures
    (``NAME_dev``, |H0 - H0(0)|) and relative ones (``NAME_rel_dev`` = (NAME - NAME(0)) /
    NAME(0), docs/architecture.md) are never on one axis: the relative ones go to a second
    panel below (ax given: a twin axis on its right), ``ax.slpi_relative`` (None when the
    run has none). Returns the axes of the absolute departures.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> ax = slpi.plot.drift(slpi.run("rkmk/heavy-top/stoch-421-realization", steps=100))
    >>> sorted(t.get_text() for t in ax.get_legend().get_texts())[:2]
    ['C1_dev', 'C2_dev']
    """
    plt = _plt()
    t, d = np.asarray(result.t), result.diagnostics
    floor = 1e-18   # an exact zero drawn at the floor of a log axis
    rel = [k for k in d if k.endswith("_rel_dev") and not k.startswith(("H0", "lambda_"))]
    absolute = [k for k in d if k.endswith("_dev") and k not in rel and not k.startswith(("H0", "lambda_"))]
    ra = None
    if ax is None:
        if rel:
            _, (ax, ra) = plt.subplots(2, 1, sharex=True)
        else:
            ax = plt.figure().add_subplot()
    elif rel:
        ra = ax.twinx()
    if "H0" in d:
        ax.semilogy(t, np.maximum(np.abs(d["H0"] - d["H0"][0]), floor), label="|H0 - H0(0)|")
    for k in absolute:
        ax.semilogy(t, np.maximum(np.abs(d[k]), floor), label=k)
    ax.set_xlabel("t")
    ax.set_ylabel("absolute departure from step 0")
    ax.legend(loc="upper left")
    if ra is not None:   # dashed, in the colours after the absolute ones' (a twin axis shares the figure)
        for i, k in enumerate(rel):
            ra.semilogy(t, np.maximum(np.abs(d[k]), floor), label=k, linestyle="--", color="C%d" % (len(ax.lines) + i))
        ra.set_xlabel("t")
        ra.set_ylabel("relative departure from step 0")
        ra.legend(loc="lower right")
    ax.slpi_relative = ra
    return ax


def band(ens, name, k=2.0, ax=None, q=None):
    """An ensemble's mean of ``name`` (a state label or diagnostic) over time with a band of
    +-k standard errors (sqrt(var / n)): from ``ens.stats`` (``stats=True``), else from the
    kept states or diagnostics. With q = (lo, hi) (probabilities, e.g. (0.05, 0.95)): the
    paths' median and the band between their lo and hi quantiles instead (the spread of
    the paths, not the uncertainty of the mean), from the kept states or diagnostics.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> e = slpi.ensemble("iso/rigid-body/trajectories", paths=50, steps=100, save_every=10, stats=True)
    >>> len(slpi.plot.band(e, "H0").lines)
    1
    >>> len(slpi.plot.band(e, "x1", q=(0.05, 0.95)).lines)
    1
    """
    plt = _plt()
    if q is not None:
        lo, hi = (float(x) for x in q)
        if not 0 <= lo < hi <= 1:
            raise ValueError("q=%r: need probabilities 0 <= lo < hi <= 1" % (q,))
        if ens.states is None and not (ens.diagnostics and name in ens.diagnostics):
            raise ValueError("q=: quantile bands need the kept states (states=True) or diagnostics")
        v = ens.states[:, :, ens.labels.index(name)] if name in ens.labels else ens.diagnostics[name]
        mid, low, high = np.quantile(v, [0.5, lo, hi], axis=0)
        if ax is None:
            ax = plt.figure().add_subplot()
        ax.plot(ens.t, mid, label="median %s" % name)
        ax.fill_between(ens.t, low, high, alpha=0.3, label="%g-%g quantiles" % (lo, hi))
    else:
        if ens.stats is not None:
            s = ens.stats[name]
            mean, se = s.mean, np.sqrt(s.var / ens.stats.n)
        else:
            v = ens.states[:, :, ens.labels.index(name)] if name in ens.labels else ens.diagnostics[name]
            mean, se = v.mean(axis=0), v.std(axis=0, ddof=1) / np.sqrt(len(v))
        if ax is None:
            ax = plt.figure().add_subplot()
        ax.plot(ens.t, mean, label="mean %s" % name)
        ax.fill_between(ens.t, mean - k * se, mean + k * se, alpha=0.3, label="+-%g SE" % k)
    ax.set_xlabel("t")
    ax.set_ylabel(name)
    ax.legend()
    return ax


def vorticity_grid(N):
    """The default (latitudes, longitudes) of ``vorticity`` for an su(N) state: at least
    2N latitudes (and 90), twice as many longitudes. The field holds degrees l <= N - 1, so
    a degree-(N - 1) harmonic gets at least two samples per wavelength along a meridian
    and along the equator: no aliasing (the old fixed 90 x 180 grid drew a checkerboard at
    N = 128, where part of the enstrophy sits at l > 89).

    >>> slpi.plot.vorticity_grid(128)
    (256, 512)
    """
    lat = max(90, 2 * int(N))
    return lat, 2 * lat


def vorticity(state, ax=None, n=None, cmap="RdBu_r", vlim=None):
    """The vorticity field of an su(N) state (pack_su layout) on an n = (latitudes,
    longitudes) grid (default ``vorticity_grid(N)``), as ``slpi.vorticity`` computes it;
    returns the axes (the field is ``ax.slpi_field``, (theta, phi, omega) on the grid).
    vlim: the colour limits are -vlim..vlim (give several panels the same vlim to share
    them; default: the field's own largest |omega|).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> ax = slpi.plot.vorticity(slpi.run("iso/zeitlin/strong", N=6, ic_lmax=5, steps=1).states[-1], n=(20, 40))
    >>> ax.slpi_field[2].shape
    (20, 40)
    """
    plt = _plt()
    from slpi.sphere import vorticity as field
    if n is None:
        n = vorticity_grid(int(round(np.sqrt(np.asarray(state).size))))
    th = (np.arange(n[0]) + 0.5) * np.pi / n[0]
    ph = (np.arange(n[1]) + 0.5) * 2 * np.pi / n[1]
    T, P = np.meshgrid(th, ph, indexing="ij")
    w = field(state, T, P)
    if ax is None:
        ax = plt.figure().add_subplot()
    lim = float(vlim) if vlim is not None else (float(np.abs(w).max()) or 1.0)
    im = ax.pcolormesh(np.degrees(P), 90 - np.degrees(T), w, cmap=cmap, vmin=-lim, vmax=lim, shading="auto")
    ax.figure.colorbar(im, ax=ax, label="vorticity")
    ax.set_xlabel("longitude (degrees)")
    ax.set_ylabel("latitude (degrees)")
    ax.slpi_field = (T, P, w)
    return ax
