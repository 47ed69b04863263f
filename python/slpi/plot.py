"""Figures of runs and ensembles with matplotlib (optional: python3-matplotlib; without
it each function raises ImportError naming the package). Each draws into ``ax`` (a new
figure's when None) and returns the axes; ``savefig`` is the caller's. Every axis and
colour bar names its units (the CF ``units`` the NetCDF files carry, slpi.store.cf), and
a figure made here is laid out by matplotlib's constrained layout (no label over another).

- ``sphere``: an so3 trajectory on the unit sphere (3-D axes);
- ``drift``: the energy and Casimir departures from step 0 over time (log scale);
- ``band``: an ensemble's mean of a quantity over time with a +-k standard-error band;
- ``convergence``: a convergence study's error against h, its fitted slope and CI;
- ``mlmc``: an MLMC estimate's per-level means and variances against the level;
- ``vorticity``: the vorticity field of an su(N) state on the sphere (slpi.sphere: the
  inverse of the Zeitlin map), as a longitude-latitude, Mollweide or orthographic map;
- ``mlmc_test``: Giles' mlmc_test figure of ``slpi.mlmc_test`` (four panels);
- ``panels``: several states' vorticity with one colour scale;
- ``animate``: the vorticity of a run's states as a .gif (or .mp4 with ffmpeg).
docs/figures.md shows each at print size (python/examples/print-figures.py makes them)."""
import numpy as np

__all__ = ["sphere", "drift", "band", "convergence", "mlmc", "mlmc_test", "vorticity", "vorticity_grid", "centre", "panels",
           "animate"]


def _plt():
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("slpi.plot needs matplotlib: apt-get install python3-matplotlib") from None
    return plt


def _label(text, *names, sep=" "):
    """text with the CF units (slpi.store.cf, as the NetCDF files carry them) of the
    variables names: "t (dimensionless)" for units "1", "theta (radian)"; several units
    listed; sep before the units (a newline: a label in two lines, for a short axis)."""
    from slpi.store import cf
    units = sorted({cf(n)[1] for n in names if cf(n)})
    return "%s%s(%s)" % (text, sep, ", ".join("dimensionless" if u == "1" else u for u in units)) if units else text


def _figure(**kw):
    """A new figure laid out by matplotlib's constrained layout: no label over another."""
    return _plt().figure(layout="constrained", **kw)


def sphere(result, ax=None, **line):
    """The states of an so3 run (3 coordinates, any radius) on their sphere.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> ax = slpi.plot.sphere(slpi.run("iso/rigid-body/trajectories", steps=200))
    >>> ax.name
    '3d'
    """
    x = np.asarray(result.states)
    if x.ndim != 2 or x.shape[1] != 3:
        from slpi import SlpiError
        raise SlpiError(2, "sphere: states of shape %s: need an so3 run (rows, 3)" % (x.shape,), "result", x.shape)
    if ax is None:
        ax = _figure().add_subplot(projection="3d")
    r = float(np.linalg.norm(x[0]))
    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 41), np.linspace(0, np.pi, 21))
    ax.plot_wireframe(r * np.cos(u) * np.sin(v), r * np.sin(u) * np.sin(v), r * np.cos(v), color="0.85",
                      linewidth=0.5)
    ax.plot(x[:, 0], x[:, 1], x[:, 2], **line)
    ax.set_xlabel(_label(result.labels[0], "state"))
    ax.set_ylabel(_label(result.labels[1], "state"))
    ax.set_zlabel(_label(result.labels[2], "state"))
    ax.set_box_aspect((1, 1, 1))
    return ax


def drift(result, ax=None, figsize=None):
    """|H0(t) - H0(0)| and every Casimir's departure from step 0 (the run's ``*_dev``
    diagnostics other than H0's own; of an su(N) spectrum only ``eig_dev``, the largest
    eigenvalue departure) over time, on log scales (zeros at 1e-18). Absolute departures
    (``NAME_dev``, |H0 - H0(0)|) and relative ones (``NAME_rel_dev`` = (NAME - NAME(0)) /
    NAME(0), docs/architecture.md) are never on one axis: the relative ones go to a second
    panel below (ax given: a twin axis on its right), ``ax.slpi_relative`` (None when the
    run has none). Returns the axes of the absolute departures. The axes name the CF units
    of what they show (``slpi.store.cf``); each legend sits above its axes, never over a
    curve; a new figure (of figsize) is laid out by matplotlib's constrained layout.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> ax = slpi.plot.drift(slpi.run("rkmk/heavy-top/stoch-421-realization", steps=100))
    >>> sorted(t.get_text() for t in ax.get_legend().get_texts())[:2]
    ['C1_dev', 'C2_dev']
    """
    t, d = np.asarray(result.t), result.diagnostics
    floor = 1e-18   # an exact zero drawn at the floor of a log axis
    rel = [k for k in d if k.endswith("_rel_dev") and not k.startswith(("H0", "lambda_"))]
    absolute = [k for k in d if k.endswith("_dev") and k not in rel and not k.startswith(("H0", "lambda_"))]
    ra, twin = None, ax is not None and bool(rel)
    if ax is None:
        fig = _figure(figsize=figsize)
        if rel:
            ax, ra = fig.subplots(2, 1, sharex=True)
        else:
            ax = fig.add_subplot()
    elif rel:
        ra = ax.twinx()
    if "H0" in d:
        ax.semilogy(t, np.maximum(np.abs(d["H0"] - d["H0"][0]), floor), label="|H0 - H0(0)|")
    for k in absolute:
        ax.semilogy(t, np.maximum(np.abs(d[k]), floor), label=k)
    ax.set_xlabel("" if ra is not None and not twin else _label("t", "time"))   # the panel below names t
    ax.set_ylabel(_label("absolute departure", *(["H0"] if "H0" in d else []), *absolute, sep="\n"))
    if ra is not None:   # dashed, in the colours after the absolute ones' (a twin axis shares the figure)
        for i, k in enumerate(rel):
            ra.semilogy(t, np.maximum(np.abs(d[k]), floor), label=k, linestyle="--", color="C%d" % (len(ax.lines) + i))
        ra.set_xlabel(_label("t", "time"))
        ra.set_ylabel(_label("relative departure", *rel, sep="\n"))
    # each legend above its axes, out of the curves' way; a twin axis's joins the axes' one
    for a, more in ((ax, [ra] if twin else []),) + (((ra, []),) if ra is not None and not twin else ()):
        h, names = (sum(x, []) for x in zip(*(b.get_legend_handles_labels() for b in [a] + more)))
        a.legend(h, names, loc="lower left", bbox_to_anchor=(0, 1.01), ncol=min(len(h), 4), fontsize="small",
                 borderaxespad=0, frameon=False)
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
    if q is not None:
        lo, hi = (float(x) for x in q)
        if not 0 <= lo < hi <= 1:
            raise ValueError("q=%r: need probabilities 0 <= lo < hi <= 1" % (q,))
        if ens.states is None and not (ens.diagnostics and name in ens.diagnostics):
            raise ValueError("q=: quantile bands need the kept states (states=True) or diagnostics")
        v = ens.states[:, :, ens.labels.index(name)] if name in ens.labels else ens.diagnostics[name]
        mid, low, high = np.quantile(v, [0.5, lo, hi], axis=0)
        if ax is None:
            ax = _figure().add_subplot()
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
            ax = _figure().add_subplot()
        ax.plot(ens.t, mean, label="mean %s" % name)
        ax.fill_between(ens.t, mean - k * se, mean + k * se, alpha=0.3, label="+-%g SE" % k)
    ax.set_xlabel(_label("t", "time"))
    ax.set_ylabel(_label(name, "state" if name in ens.labels else name))
    ax.legend()
    return ax


def convergence(study, ax=None, k=2.0):
    """A convergence study (``slpi.converge``): its error e against h on log axes with
    bars of +-k standard errors (cut at e/1000 below), the levels the slope was fitted on
    filled, the others open, and the fitted line e = C h^slope (C the weighted fit's, as
    ``slpi converge`` fits: log e on log h, weights (e/SE)^2 or equal) labelled with the
    slope and its 95% bootstrap CI (or, when there is no slope, ``study.why``). Returns
    the axes (the line's (h, e) is ``ax.slpi_fit``, None without a slope).

    >>> import matplotlib; matplotlib.use("Agg")
    >>> s = slpi.converge("iso/rigid-body/strong", levels=(2, 4), ref=6, paths=8, boot=20)
    >>> slpi.plot.convergence(s).get_xscale()
    'log'
    """
    doc = study.report
    col = "indep" if "indep" in doc["slopes"] else "self"
    fitted = np.array([bool(x[col]["fitted"]) for x in doc["levels"]])
    h, e, se = np.asarray(study.h), np.asarray(study.e), np.asarray(study.se)
    if ax is None:
        ax = _figure().add_subplot()
    lo = np.minimum(k * se, e * (1 - 1e-3))   # a log axis: the bar stops at e/1000
    for sel, face, what in ((fitted, None, "fitted"), (~fitted, "none", "not fitted")):
        if sel.any():
            ax.errorbar(h[sel], e[sel], yerr=[lo[sel], k * se[sel]], fmt="o", color="C0", mfc=face, capsize=2,
                        label="%s levels, +-%g SE" % (what, k))
    ax.slpi_fit = None
    if np.isfinite(study.slope) and fitted.sum() >= 2:
        w = (e / se) ** 2 if doc["study"].get("fit", "wls") == "wls" else np.ones_like(e)
        x, y, w = np.log(h[fitted]), np.log(e[fitted]), w[fitted]
        c = np.sum(w * (y - study.slope * x)) / np.sum(w)   # the fit's intercept at its slope
        hh = np.array([h[fitted].min(), h[fitted].max()])
        ax.slpi_fit = (hh, np.exp(c) * hh ** study.slope)
        ax.plot(*ax.slpi_fit, "--", color="C1",
                label="slope %.3g, 95%% CI [%.3g, %.3g]" % (study.slope, study.ci[0], study.ci[1]))
    else:
        ax.plot([], [], " ", label="no slope: %s" % (study.why or "not fitted"))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(_label("step size h", "time"))
    ax.set_ylabel(_label("%s error" % doc["study"]["kind"], "state"))
    ax.legend(loc="lower left", bbox_to_anchor=(0, 1.01), ncol=1, fontsize="small", borderaxespad=0, frameon=False)
    return ax


def mlmc(estimate, axes=None):
    """An MLMC estimate (``slpi.mlmc``) as Giles draws one: the mean and the variance of
    each level's estimator (P_l0 at the first level, P_l - P_l-1 above) against the level l
    (h = T 2^-l), on log axes side by side, each with the line fitted to the levels above
    the first (``slpi.mlmc --test``'s alpha and beta: |mean| ~ 2^-alpha l, var ~ 2^-beta l),
    when there are 2. axes: a pair of axes, or None (a new figure). Returns the means' axes
    (the variances' are ``ax.slpi_var``; the fitted (alpha, beta) are ``ax.slpi_rates``,
    NaN without a fit).

    >>> import matplotlib; matplotlib.use("Agg")
    >>> e = slpi.mlmc("iso/so3/weak-exact", rmse=0.05, phi="x1", levels=(1, 10))
    >>> slpi.plot.mlmc(e).slpi_var.get_yscale()
    'log'
    """
    if axes is None:
        axes = _figure(figsize=(6.5, 2.8)).subplots(1, 2)
    am, av = axes
    lev = np.asarray(estimate.level)
    rates = []
    for a, v, what in ((am, np.abs(estimate.mean), "|mean| of Y_l"), (av, np.asarray(estimate.var), "variance of Y_l")):
        a.semilogy(lev[:1], v[:1], "s", color="C0", mfc="none", label="Y_l = P_l (first level)")
        a.semilogy(lev[1:], v[1:], "o-", color="C0", label="Y_l = P_l - P_l-1")
        up = (lev > lev[0]) & (v > 0)
        r = -np.polyfit(lev[up], np.log2(v[up]), 1)[0] if up.sum() >= 2 else float("nan")
        rates.append(r)
        if np.isfinite(r):
            b = np.mean(np.log2(v[up]) + r * lev[up])
            rate = "\N{GREEK SMALL LETTER ALPHA}" if a is am else "\N{GREEK SMALL LETTER BETA}"
            a.semilogy(lev[up], 2.0 ** (b - r * lev[up]), "--", color="C1", label="%s = %.2f" % (rate, r))
        a.set_xlabel("level l (h = T 2$^{-l}$)")
        a.set_ylabel(_label(what, "state", sep="\n"))
        a.legend(loc="lower left", bbox_to_anchor=(0, 1.01), ncol=1, fontsize="small", borderaxespad=0, frameon=False)
        a.xaxis.get_major_locator().set_params(integer=True)
    am.slpi_var, am.slpi_rates = av, tuple(rates)
    return am


def mlmc_test(test, fig=None):
    """Giles' mlmc_test figure of ``slpi.mlmc_test`` or of ``slpi mlmc --test --json FILE``
    (test: an ``MlmcTest``, the JSON file's name, or its parsed dict): four panels. The
    variance and the |mean| of P_l and of Y_l against the level, with the fitted beta and
    alpha; the consistency check (the line at 1 flags) and the kurtosis against the level;
    the cost of MLMC and of plain Monte Carlo, times eps^2, against the requested eps. fig:
    a figure, or None (a new one). Returns the figure; its axes are ``fig.axes``: the four
    panels, then the kurtosis's twin of the check's.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> t = slpi.mlmc_test("iso/rigid-body/weak", levels=(2, 5), paths=200, eps=(0.05, 0.02))
    >>> len(slpi.plot.mlmc_test(t).axes)
    5
    """
    if not hasattr(test, "level"):   # the CLI's JSON, by name or parsed
        from slpi._mlmc_test import MlmcTest
        test = MlmcTest.read(test)
    fig = fig if fig is not None else _figure(figsize=(6.5, 5.6))
    av, am, ac, ae = fig.subplots(2, 2).ravel()
    lev = np.asarray(test.level)
    for a, y, p, what, r, name in ((av, test.var, test.var_p, "variance", test.beta, "\N{GREEK SMALL LETTER BETA}"),
                                   (am, np.abs(test.mean), np.abs(test.mean_p), "|mean|", test.alpha,
                                    "\N{GREEK SMALL LETTER ALPHA}")):
        a.semilogy(lev, p, "s--", color="C2", mfc="none", label="P_l")
        a.semilogy(lev[1:], y[1:], "o-", color="C0", label="P_l - P_l-1 (%s = %.2f)" % (name, r))
        a.set_xlabel("level l (h = T 2$^{-l}$)")
        a.set_ylabel(_label(what, "state", sep="\n"))
        a.legend(loc="lower left", bbox_to_anchor=(0, 1.01), fontsize="small", borderaxespad=0, frameon=False)
    ac.plot(lev[1:], test.check[1:], "o-", color="C0", label="consistency check")
    ac.axhline(1.0, color="C3", lw=0.8, ls=":", label="flag at 1")
    ac.set_xlabel("level l (h = T 2$^{-l}$)")
    ac.set_ylabel("check (1)")
    ak = ac.twinx()
    ak.plot(lev[1:], test.kurtosis[1:], "^--", color="C1", label="kurtosis")
    ak.set_ylabel("kurtosis (1)")
    h1, l1 = ac.get_legend_handles_labels()
    h2, l2 = ak.get_legend_handles_labels()
    ac.legend(h1 + h2, l1 + l2, fontsize="small", frameon=False, loc="lower left", bbox_to_anchor=(0, 1.01), ncol=2,
              borderaxespad=0)
    e = np.asarray(test.eps)
    ae.loglog(e, e ** 2 * np.asarray(test.mlmc_cost), "o-", color="C0", label="MLMC")
    ae.loglog(e, e ** 2 * np.asarray(test.mc_cost), "s--", color="C2", label="plain MC")
    ae.set_xlabel(_label("RMSE \N{GREEK SMALL LETTER EPSILON}", "state"))
    ae.set_ylabel(_label("\N{GREEK SMALL LETTER EPSILON}$^2$ \N{MULTIPLICATION SIGN} cost in steps", "state",
                         sep="\n"))
    ae.set_xticks(e, ["%g" % x for x in e], rotation=30)
    ae.xaxis.set_minor_locator(_plt().NullLocator())
    ae.legend(loc="lower left", bbox_to_anchor=(0, 1.01), ncol=2, fontsize="small", borderaxespad=0, frameon=False)
    for a in (av, am, ac):
        a.xaxis.get_major_locator().set_params(integer=True)
    fig.set_layout_engine("constrained")
    return fig


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


def centre(projection=None, central_latitude=None, central_longitude=None, view=(30.0, 0.0)):
    """(latitude, longitude) in degrees at the centre of a map of ``projection``: the
    central_latitude and central_longitude given, else the projection's default, which is
    the map of earlier versions: the equator and 180 E on a longitude-latitude map (its
    longitudes 0..360), the equator and 0 E on a Mollweide map (-180..180), and ``view`` on
    an orthographic one. A fixed default, not the field's largest feature: panels and
    frames of one flow keep one centre, and a map does not move as the feature drifts.

    >>> slpi.plot.centre("mollweide", central_longitude=200)
    (0.0, 200.0)
    """
    lat0, lon0 = view if projection == "orthographic" else (0.0, 180.0 if projection is None else 0.0)
    lat0 = float(lat0 if central_latitude is None else central_latitude)
    lon0 = float(lon0 if central_longitude is None else central_longitude)
    if not -90 <= lat0 <= 90:
        raise ValueError("central_latitude=%r: need -90..90 degrees" % (central_latitude,))
    if not np.isfinite(lon0):
        raise ValueError("central_longitude=%r: need a finite number of degrees" % (central_longitude,))
    return lat0, lon0


def _rotate(lat, lon, c):
    """The geographic (colatitude, longitude) of the points (lat, lon) (radians) of the frame
    whose (0, 0) is the geographic point c = (latitude, longitude) in degrees and whose
    meridian 0 runs through the pole (a map centred on c draws the frame)."""
    la0, lo0 = np.radians(c[0]), np.radians(c[1])
    x, y, z = np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)
    x, z = np.cos(la0) * x - np.sin(la0) * z, np.sin(la0) * x + np.cos(la0) * z
    return np.arccos(np.clip(z, -1.0, 1.0)), np.arctan2(y, x) + lo0


def _grid(N, n, projection, c):
    """Cell centres (theta, phi) on the sphere and edges (colatitude, longitude from -pi)
    of the latitude-longitude grid n (default vorticity_grid(N)) of the map centred on c
    (``centre``; an orthographic view samples the geographic grid and turns it when drawn)."""
    if n is None:
        n = vorticity_grid(N)
    the = np.linspace(0, np.pi, n[0] + 1)
    phe = -np.pi + np.linspace(0, 2 * np.pi, n[1] + 1)
    th, ph = (the[:-1] + the[1:]) / 2, (phe[:-1] + phe[1:]) / 2
    T, P = np.meshgrid(th, ph, indexing="ij")
    if projection != "orthographic":
        T, P = _rotate(np.pi / 2 - T, P, c)
    return T, P, the, phe


def _field(state, n, projection, c):
    from slpi.sphere import vorticity as field
    T, P, the, phe = _grid(int(round(np.sqrt(np.asarray(state).size))), n, projection, c)
    return T, P, field(state, T, P), the, phe


# the field is linear in the state: the state's units (slpi.store.cf)
_VORTICITY = _label("vorticity \N{GREEK SMALL LETTER OMEGA}", "state", sep="\n")   # two lines: short colour bars
_PROJECTIONS = (None, "mollweide", "orthographic")


def _axes(ax, projection):
    if projection not in _PROJECTIONS:
        raise ValueError("projection=%r: one of None (longitude-latitude), 'mollweide', 'orthographic'" % (projection,))
    if ax is None:
        ax = _figure().add_subplot(projection="mollweide" if projection == "mollweide" else None)
    elif projection == "mollweide" and ax.name != "mollweide":
        raise ValueError("projection='mollweide' needs Mollweide axes: fig.add_subplot(projection='mollweide')")
    return ax


def _draw(ax, the, phe, w, lim, cmap, projection, c):
    """w on the grid with edges (the, phe) into ax: the longitude-latitude or Mollweide map
    centred on c = (latitude, longitude) (degrees; its axes name geographic longitudes when
    c is on the equator, else the turned frame's), or the orthographic view from c, the far
    hemisphere's cells masked and its edges put on the rim."""
    if projection == "mollweide":
        im = ax.pcolormesh(phe, np.pi / 2 - the, w, cmap=cmap, vmin=-lim, vmax=lim, shading="flat")
        ax.set_longitude_grid(60)   # labels every 60 degrees: 30 crowds them at print size
        if c[0] == 0 and c[1] % 360:   # geographic longitudes under the turned map
            lon = lambda x, pos: "%g\N{DEGREE SIGN}" % ((round(np.degrees(x) + c[1]) + 180) % 360 - 180)   # noqa: E731
            ax.xaxis.set_major_formatter(lon)
        elif c[0]:
            ax.set_xticklabels([])
            ax.set_yticklabels([])
        return im
    if projection is None:
        frame = "" if c[0] == 0 else " in the frame centred on %g N, %g E" % c
        ax.set_xlabel("longitude%s (degrees)" % frame)
        ax.set_ylabel("latitude%s (degrees)" % frame)
        return ax.pcolormesh(c[1] + np.degrees(phe), 90 - np.degrees(the), w, cmap=cmap, vmin=-lim, vmax=lim,
                             shading="flat")
    la0, lo0 = np.radians(c[0]), np.radians(c[1])
    lat, lon = np.meshgrid(np.pi / 2 - the, phe - lo0, indexing="ij")
    x = np.cos(lat) * np.sin(lon)
    y = np.cos(la0) * np.sin(lat) - np.sin(la0) * np.cos(lat) * np.cos(lon)
    near = np.sin(la0) * np.sin(lat) + np.cos(la0) * np.cos(lat) * np.cos(lon)   # cos of the distance to the view
    r = np.hypot(x, y)
    far = near < 0
    x[far], y[far] = x[far] / np.maximum(r[far], 1e-300), y[far] / np.maximum(r[far], 1e-300)
    c = (near[:-1, :-1] + near[1:, :-1] + near[:-1, 1:] + near[1:, 1:]) / 4
    im = ax.pcolormesh(x, y, np.ma.masked_where(c < 0, w), cmap=cmap, vmin=-lim, vmax=lim, shading="flat")
    ax.add_patch(_plt().Circle((0, 0), 1, fill=False, linewidth=0.8, color="0.3"))
    ax.set_aspect("equal")
    ax.set_xlim(-1.02, 1.02)
    ax.set_ylim(-1.02, 1.02)
    ax.set_axis_off()
    return im


def vorticity(state, ax=None, n=None, cmap="RdBu_r", vlim=None, projection=None, view=(30.0, 0.0), colorbar=True,
              central_latitude=None, central_longitude=None):
    """The vorticity field of an su(N) state (pack_su layout) on an n = (latitudes,
    longitudes) grid (default ``vorticity_grid(N)``), as ``slpi.vorticity`` computes it;
    returns the axes (the field is ``ax.slpi_field``, (theta, phi, omega) on the grid).
    vlim: the colour limits are -vlim..vlim (give several panels the same vlim to share
    them, or draw them with ``panels``; default: the field's own largest |omega|).
    projection: None (a longitude-latitude map), ``"mollweide"`` (equal-area; ax, if
    given, must be Mollweide axes) or ``"orthographic"`` (the hemisphere seen from
    view = (latitude, longitude) in degrees). central_latitude, central_longitude
    (degrees): the point at the map's centre, on every projection (``centre``: default the
    equator at 180 E on a longitude-latitude map, at 0 E on a Mollweide map, ``view`` on an
    orthographic one); away from the equator a map is of the frame turned to that point.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> ax = slpi.plot.vorticity(slpi.run("iso/zeitlin/strong", N=6, ic_lmax=5, steps=1).states[-1], n=(20, 40))
    >>> ax.slpi_field[2].shape
    (20, 40)
    >>> slpi.plot.vorticity(slpi.run("iso/zeitlin/strong", N=6, ic_lmax=5, steps=1).states[-1], projection="mollweide").name
    'mollweide'
    """
    ax = _axes(ax, projection)
    c = centre(projection, central_latitude, central_longitude, view)
    T, P, w, the, phe = _field(state, n, projection, c)
    lim = float(vlim) if vlim is not None else (float(np.abs(w).max()) or 1.0)
    im = _draw(ax, the, phe, w, lim, cmap, projection, c)
    if colorbar:
        ax.figure.colorbar(im, ax=ax, label=_VORTICITY, shrink=0.8 if projection else 1.0)
    ax.slpi_field = (T, P, w)
    return ax


def panels(states, titles=None, projection="mollweide", n=None, cmap="RdBu_r", view=(30.0, 0.0), ncols=None,
           figsize=None, central_latitude=None, central_longitude=None):
    """Several su(N) states' vorticity side by side with one colour scale: the limits are
    the largest |omega| over all panels, shown by one colour bar. Returns the figure (its
    axes ``fig.slpi_axes``, the shared limit ``fig.slpi_vlim``). Every panel is centred on
    one point (central_latitude, central_longitude, view: as ``vorticity``).

    >>> import matplotlib; matplotlib.use("Agg")
    >>> r = slpi.run("iso/zeitlin/strong", N=6, ic_lmax=5, steps=4, output_every=2)
    >>> fig = slpi.plot.panels(r.states, titles=["t = %g" % t for t in r.t], n=(12, 24))
    >>> len(fig.slpi_axes), bool(fig.slpi_vlim == max(abs(a.slpi_field[2]).max() for a in fig.slpi_axes))
    (3, True)
    """
    states = list(states)
    ncols = ncols or len(states)
    nrows = -(-len(states) // ncols)
    c = centre(projection, central_latitude, central_longitude, view)
    fields = [_field(s, n, projection, c) for s in states]
    lim = max(float(np.abs(f[2]).max()) for f in fields) or 1.0
    fig = _figure(figsize=figsize or (3.2 * ncols + 0.8, 2.4 * nrows if projection != "orthographic" else 3.0 * nrows))
    axes = []
    for i, (T, P, w, the, phe) in enumerate(fields):
        ax = _axes(fig.add_subplot(nrows, ncols, i + 1, projection="mollweide" if projection == "mollweide" else None),
                   projection)
        im = _draw(ax, the, phe, w, lim, cmap, projection, c)
        if projection == "mollweide":
            ax.set_xticklabels([])
            ax.set_yticklabels([])
        if titles:
            ax.set_title(titles[i], fontsize=9)
        ax.slpi_field = (T, P, w)
        axes.append(ax)
    fig.colorbar(im, ax=axes, label=_VORTICITY, shrink=0.8)
    fig.slpi_axes, fig.slpi_vlim = axes, lim
    return fig


def animate(states, path, times=None, fps=8, projection=None, n=None, vlim=None, cmap="RdBu_r", view=(30.0, 0.0),
            dpi=100, figsize=(6.4, 3.6), central_latitude=None, central_longitude=None):
    """Write the vorticity of su(N) states as an animation to path: a ``.gif`` through
    matplotlib's PillowWriter (python3-pil), an ``.mp4`` through its FFMpegWriter where
    the ``ffmpeg`` program is installed (Debian's package ffmpeg; matplotlib's
    ``animation.ffmpeg_path``); without it, the same frames as a ``.gif`` beside it (path
    with .gif for .mp4) and a RuntimeWarning saying why. One frame per state, titled by times
    (e.g. a run's ``t``), all with one colour scale (vlim, default the largest |omega|
    over every frame), centred on one point (central_latitude, central_longitude, view: as
    ``vorticity``). Returns the path written.

    >>> import matplotlib, tempfile, os; matplotlib.use("Agg")
    >>> r = slpi.run("iso/zeitlin/strong", N=5, ic_lmax=4, steps=4, output_every=1)
    >>> f = slpi.plot.animate(r.states, os.path.join(tempfile.mkdtemp(), "w.gif"), times=r.t, n=(10, 20))
    >>> open(f, "rb").read(6)
    b'GIF89a'
    """
    plt = _plt()
    from matplotlib import animation
    path = str(path)
    if path.endswith(".mp4") and not animation.writers.is_available("ffmpeg"):
        import warnings
        gif = path[:-4] + ".gif"
        warnings.warn("animate: no ffmpeg program for %s (apt-get install ffmpeg): wrote the GIF %s instead"
                      % (path, gif), RuntimeWarning, stacklevel=2)
        path = gif
    if path.endswith(".gif"):
        writer = animation.PillowWriter(fps=fps)
    elif path.endswith(".mp4"):
        writer = animation.FFMpegWriter(fps=fps)
    else:
        raise ValueError("animate: path=%r: need a .gif or .mp4 file name" % path)
    c = centre(projection, central_latitude, central_longitude, view)
    fields = [_field(s, n, projection, c) for s in states]
    lim = float(vlim) if vlim is not None else (max(float(np.abs(f[2]).max()) for f in fields) or 1.0)
    fig = _figure(figsize=figsize)
    ax = _axes(fig.add_subplot(projection="mollweide" if projection == "mollweide" else None), projection)
    the, phe = fields[0][3], fields[0][4]
    im = _draw(ax, the, phe, fields[0][2], lim, cmap, projection, c)
    if projection == "mollweide":
        ax.set_xticklabels([])
        ax.set_yticklabels([])
    fig.colorbar(im, ax=ax, label=_VORTICITY, shrink=0.8)

    def frame(i):
        w = fields[i][2]
        # 2-D, as pcolormesh keeps it (matplotlib >= 3.5); the orthographic view's far cells stay masked
        im.set_array(np.ma.masked_where(np.ma.getmaskarray(im.get_array()).reshape(w.shape), w)
                     if projection == "orthographic" else w)
        if times is not None:
            ax.set_title("t = %.4g" % times[i])
        return (im,)
    anim = animation.FuncAnimation(fig, frame, frames=len(fields), blit=False)
    anim.save(path, writer=writer, dpi=dpi)
    plt.close(fig)
    return path
