"""slpi.plot: maps centred where asked (central_latitude, central_longitude on every
projection), units on every axis and colour bar, no two labels of a figure overlapping
once drawn, and the figures of a convergence study and of an MLMC estimate drawn from
small real ones. Seeds: the runs' own (fixed presets), printed by none."""
import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt   # noqa: E402

import slpi   # noqa: E402


def state(N=5, seed=7):
    """A fixed su(N) state (pack_su layout, N^2 numbers) with all its harmonics."""
    x = np.random.default_rng(seed).standard_normal(N * N)
    return x / np.linalg.norm(x)


def distance(lat, lon, lat0, lon0):
    """Great-circle distance in degrees."""
    la, lo, la0, lo0 = np.radians(lat), np.radians(lon), np.radians(lat0), np.radians(lon0)
    return np.degrees(np.arccos(np.clip(np.sin(la) * np.sin(la0) + np.cos(la) * np.cos(la0) * np.cos(lo - lo0), -1, 1)))


def wrap(deg):
    return (np.asarray(deg) + 180) % 360 - 180


@pytest.mark.parametrize("projection", [None, "mollweide"])
def test_the_map_is_centred_on_the_point_asked(projection):
    x, n = state(), (30, 60)
    for c in ((0.0, 200.0), (30.0, 40.0), (-60.0, -100.0)):
        ax = slpi.plot.vorticity(x, projection=projection, n=n, central_latitude=c[0], central_longitude=c[1])
        T, P, w = ax.slpi_field
        assert np.allclose(w, slpi.vorticity(x, T, P), rtol=0, atol=1e-13)   # the field where the cell is
        lat, lon = 90 - np.degrees(T), np.degrees(P)
        mid = (slice(n[0] // 2 - 1, n[0] // 2 + 1), slice(n[1] // 2 - 1, n[1] // 2 + 1))   # the 4 central cells
        assert (distance(lat[mid], lon[mid], *c) < 4.25).all(), (c, lat[mid], lon[mid])   # half a 6-degree cell
        # the frame's pole, drawn at the top: 90 degrees north of the centre along its meridian
        top = (90 - abs(c[0]), c[1] + (180 if c[0] > 0 else 0))
        assert np.allclose(lat[0], top[0], atol=3.1), (c, lat[0])
        if c[0]:
            assert np.allclose(wrap(lon[0] - top[1]), 0, atol=20), (c, lon[0])
        plt.close("all")


@pytest.mark.parametrize("projection", [None, "mollweide"])
def test_the_largest_feature_off_the_seam(projection):
    """A feature on the seam of the default map is in the middle of the map centred on it."""
    x, n = state(6, 3), (40, 80)
    ax = slpi.plot.vorticity(x, projection=projection, n=n)
    T, P, w = ax.slpi_field
    i = np.unravel_index(np.argmax(np.abs(w)), w.shape)
    c = (90 - np.degrees(T[i]), np.degrees(P[i]))
    ax = slpi.plot.vorticity(x, projection=projection, n=n, central_latitude=c[0], central_longitude=c[1])
    j = np.unravel_index(np.argmax(np.abs(ax.slpi_field[2])), w.shape)
    assert abs(j[0] - n[0] / 2) <= 1.5 and abs(j[1] - n[1] / 2) <= 1.5, (c, j)
    plt.close("all")


def test_orthographic_centre_is_the_view_and_panels_share_it():
    x = state()
    a = slpi.plot.vorticity(x, projection="orthographic", view=(20, 170), n=(20, 40))
    b = slpi.plot.vorticity(x, projection="orthographic", central_latitude=20, central_longitude=170, n=(20, 40))
    assert np.array_equal(a.collections[0].get_array(), b.collections[0].get_array())
    fig = slpi.plot.panels([x, -x], projection="mollweide", n=(12, 24), central_longitude=90)
    for ax in fig.slpi_axes:
        assert np.allclose(np.degrees(ax.slpi_field[1][6, 11:13]), 90, atol=8)
    with pytest.raises(ValueError, match="central_latitude"):
        slpi.plot.vorticity(x, central_latitude=95)
    plt.close("all")


def drawn_texts(fig, monkeypatch):
    """(text, window extent) of every non-empty text the figure draws: Text.draw recorded
    while the canvas draws (a tick label outside the view, never drawn, is not counted)."""
    from matplotlib.text import Text
    seen, draw = [], Text.draw

    def record(self, renderer):
        draw(self, renderer)
        if self.get_visible() and self.get_text().strip():
            seen.append((self.get_text(), self.get_window_extent(renderer)))
    monkeypatch.setattr(Text, "draw", record)
    fig.canvas.draw()
    monkeypatch.setattr(Text, "draw", draw)
    return seen


def overlaps(fig, monkeypatch):
    """The pairs of drawn texts whose boxes share more than half a pixel each way, and
    (with the figure) each text cut by the figure's edge."""
    t = drawn_texts(fig, monkeypatch)
    f = fig.bbox
    return [(a[0], "figure") for a in t if a[1].x0 < f.x0 - 0.5 or a[1].x1 > f.x1 + 0.5 or a[1].y0 < f.y0 - 0.5
            or a[1].y1 > f.y1 + 0.5] + [(a[0], b[0]) for i, a in enumerate(t) for b in t[i + 1:]
            if min(a[1].x1, b[1].x1) - max(a[1].x0, b[1].x0) > 0.5 and min(a[1].y1, b[1].y1) - max(a[1].y0, b[1].y0) > 0.5]


def labels(fig):
    """Every axis label and colour-bar label of the figure (the empty ones left out)."""
    out = []
    for ax in fig.axes:
        out += [s for s in (ax.get_xlabel(), ax.get_ylabel()) if s]
    return out


def zeitlin():
    return slpi.run(system="euler-zeitlin", scheme="isomp", N=6, amp=0.5, h=1 / 64, steps=32, output_every=8)


def figures():
    """Each figure slpi.plot makes itself, at print width and at the default size."""
    r, x = zeitlin(), state()
    e = slpi.ensemble("iso/rigid-body/trajectories", paths=40, steps=64, save_every=8, stats=True, diagnostics=True)
    top = slpi.run("rkmk/heavy-top/stoch-421-realization", steps=100)
    twin = plt.figure(layout="constrained").add_subplot()
    yield "drift su(N)", slpi.plot.drift(r, figsize=(6.5, 4.0)).figure
    yield "drift heavy top", slpi.plot.drift(top).figure
    yield "drift on a given axes", slpi.plot.drift(r, ax=twin).figure
    yield "band", slpi.plot.band(e, "x1").figure
    yield "band q", slpi.plot.band(e, "H0", q=(0.05, 0.95)).figure
    for p in (None, "mollweide", "orthographic"):
        yield "vorticity %s" % p, slpi.plot.vorticity(x, projection=p, n=(24, 48)).figure
        yield "panels %s" % p, slpi.plot.panels([x, -x, 2 * x], projection=p, n=(24, 48), figsize=(6.5, 2.0),
                                                titles=["t = 0", "t = 1.5", "t = 3"])
    yield "mollweide centred", slpi.plot.vorticity(x, projection="mollweide", n=(24, 48), central_longitude=200).figure


def test_units_on_every_axis_and_no_label_over_another(monkeypatch):
    for name, fig in figures():
        assert not overlaps(fig, monkeypatch), (name, overlaps(fig, monkeypatch))
        for s in labels(fig):
            assert s.endswith(")") and "(" in s, (name, s)   # a unit in brackets: (dimensionless), (degrees), ...
        if "vorticity" in name or "panels" in name or "mollweide" in name:
            assert "vorticity \N{GREEK SMALL LETTER OMEGA}\n(dimensionless)" in labels(fig), (name, labels(fig))
        if "drift" in name:
            assert "t (dimensionless)" in labels(fig) and any(s.startswith("absolute departure\n(") for s in labels(fig))
        plt.close(fig)


def test_a_legend_covers_no_curve():
    """drift's legends sit above their axes: no legend box meets the axes' data area."""
    r = zeitlin()
    for ax in (slpi.plot.drift(r), slpi.plot.drift(r, ax=plt.figure(layout="constrained").add_subplot())):
        fig = ax.figure
        fig.canvas.draw()
        for a in fig.axes:
            leg = a.get_legend()
            if leg is not None:
                box, area = leg.get_window_extent(), a.get_window_extent()
                assert box.y0 >= area.y1 - 0.5, (box, area)
        plt.close(fig)


def test_convergence_draws_the_study_and_its_fit(monkeypatch):
    """A small real strong study: the points are (h, e), the line has the study's slope
    and is the weighted least-squares fit (numpy's polyfit, weights e/SE on the residuals
    of log e) through the fitted levels; the legend names the slope and its CI."""
    s = slpi.converge("iso/rigid-body/strong", levels=(2, 5), ref=7, paths=16, boot=50)
    ax = slpi.plot.convergence(s)
    assert ax.get_xscale() == ax.get_yscale() == "log"
    pts = np.concatenate([np.column_stack(ln.get_data()) for ln in ax.lines if ln.get_marker() == "o"])
    assert sorted(map(tuple, pts)) == sorted(zip(s.h, s.e))
    (h, e) = ax.slpi_fit
    assert abs(np.log(e[1] / e[0]) / np.log(h[1] / h[0]) - s.slope) < 1e-12
    used = np.array([x["self"]["fitted"] for x in s.report["levels"]])
    slope, c = np.polyfit(np.log(s.h[used]), np.log(s.e[used]), 1, w=(s.e / s.se)[used])
    assert abs(slope - s.slope) < 1e-9 and abs(np.log(e[0]) - (c + slope * np.log(h[0]))) < 1e-9
    text = " ".join(t.get_text() for t in ax.get_legend().get_texts())
    assert "slope %.3g" % s.slope in text and "%.3g, %.3g" % s.ci in text, text
    assert not overlaps(ax.figure, monkeypatch) and all("(dimensionless)" in x for x in labels(ax.figure))
    plt.close("all")
    w = slpi.converge("iso/rigid-body/weak", kind="weak", levels=(2, 3), ref=5, paths=8, boot=10, phi="x1")
    ax = slpi.plot.convergence(w)   # a weak study of few paths: no slope, and the figure says why
    if not np.isfinite(w.slope):
        assert ax.slpi_fit is None and any(w.why in t.get_text() for t in ax.get_legend().get_texts())
    plt.close("all")


def test_mlmc_draws_the_levels_and_their_rates(monkeypatch):
    """A small real MLMC estimate: per level its |mean| and variance, and the rates fitted
    on the levels above the first (numpy's polyfit of log2 against the level)."""
    est = slpi.mlmc("iso/so3/weak-exact", rmse=0.02, phi="x1", levels=(1, 10))
    ax = slpi.plot.mlmc(est)
    av = ax.slpi_var
    for a, v in ((ax, np.abs(est.mean)), (av, est.var)):
        assert a.get_yscale() == "log"
        x, y = np.concatenate([ln.get_data()[0] for ln in a.lines[:2]]), np.concatenate(
            [ln.get_data()[1] for ln in a.lines[:2]])
        assert np.array_equal(x, est.level) and np.array_equal(y, v)
    for r, v in zip(ax.slpi_rates, (np.abs(est.mean), est.var)):
        if len(est.level) > 2:
            assert abs(r + np.polyfit(est.level[1:], np.log2(v[1:]), 1)[0]) < 1e-12
    if len(est.level) > 2:
        assert 0.5 < ax.slpi_rates[1] < 3   # Euler-type coupling: variance rate about 1 to 2
    assert not overlaps(ax.figure, monkeypatch)
    assert all("(dimensionless)" in x for x in labels(ax.figure) if not x.startswith("level"))
    plt.close("all")


def test_animate_mp4_through_ffmpeg_or_a_gif_saying_why(tmp_path, monkeypatch):
    """An .mp4 goes through the ffmpeg program when there is one (here a stand-in that
    keeps the raw frames matplotlib pipes to it and its arguments); without one, the
    frames are a GIF beside it and a RuntimeWarning names the package."""
    pytest.importorskip("PIL")
    r = slpi.run("iso/zeitlin/strong", N=5, ic_lmax=4, steps=4, output_every=1)
    fake = tmp_path / "ffmpeg"
    fake.write_text('#!/bin/sh\nfor a; do out=$a; done\necho "$@" > "$out.args"\ncat > "$out"\n')
    fake.chmod(0o755)
    monkeypatch.setitem(matplotlib.rcParams, "animation.ffmpeg_path", str(fake))
    f = slpi.plot.animate(r.states, tmp_path / "w.mp4", times=r.t, n=(10, 20), dpi=50, figsize=(3, 2))
    assert f == str(tmp_path / "w.mp4") and (tmp_path / "w.mp4").stat().st_size == 5 * 150 * 100 * 4   # 5 RGBA frames
    assert "-vcodec h264" in (tmp_path / "w.mp4.args").read_text()
    monkeypatch.setitem(matplotlib.rcParams, "animation.ffmpeg_path", str(tmp_path / "none"))
    with pytest.warns(RuntimeWarning, match="no ffmpeg program .*apt-get install ffmpeg.*w2.gif"):
        f = slpi.plot.animate(r.states, tmp_path / "w2.mp4", times=r.t, n=(10, 20), dpi=50, figsize=(3, 2))
    assert f == str(tmp_path / "w2.gif") and open(f, "rb").read(6) == b"GIF89a" and not (tmp_path / "w2.mp4").exists()
