"""The figures docs/figures.md shows are those python/examples/print-figures.py and
ou-studies.py write:
the page names exactly its files, each is in docs/figures/, and the script run again
writes each in the same format at the same size (within 10 %: fonts and matplotlib
versions move a tight bounding box by a few pixels), at print width (at most 6.5 in),
not blank, with its labels and units, and no text over another."""
import importlib.util
import os
import re
import struct
import sys

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
EXAMPLES = os.path.join(ROOT, "python", "examples")


SCRIPTS = ("print-figures.py", "ou-studies.py")


def script(name="print-figures.py"):
    sys.path.insert(0, EXAMPLES)   # its _common
    try:
        spec = importlib.util.spec_from_file_location(name[:-3].replace("-", "_"), os.path.join(EXAMPLES, name))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(EXAMPLES)
    return mod


def size(path):
    """(format, width, height) of a PNG or GIF, from its header."""
    head = open(path, "rb").read(32)
    if head[:8] == b"\x89PNG\r\n\x1a\n":
        return ("png",) + struct.unpack(">II", head[16:24])
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return ("gif",) + struct.unpack("<HH", head[6:10])
    return (None, 0, 0)


def documented():
    text = open(os.path.join(ROOT, "docs", "figures.md")).read()
    return sorted(set(re.findall(r"\(figures/(fig-[\w-]+\.(?:png|gif))\)", text)))


def test_the_page_shows_the_scripts_figures():
    names = documented()
    assert names == sorted(f for name in SCRIPTS for f in script(name).FIGURES)
    for n in names:
        kind, w, h = size(os.path.join(ROOT, "docs", "figures", n))
        assert kind == n.rsplit(".", 1)[1] and w > 300 and h > 150, (n, kind, w, h)


@pytest.mark.parametrize("name", SCRIPTS)
def test_the_script_makes_them_at_their_size(name, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    pytest.importorskip("PIL")
    import matplotlib.image
    import numpy as np
    from test_plot import labels, overlaps
    mod = script(name)
    write, seen = mod.write, {}

    def check(fig, path):   # each figure as the script saves it: print width, labelled, nothing overlapping
        name = os.path.basename(path)
        assert fig.get_figwidth() <= mod.WIDTH + 1e-9, (name, fig.get_figwidth())
        assert not overlaps(fig, monkeypatch), (name, overlaps(fig, monkeypatch))
        seen[name] = labels(fig)
        for ax in getattr(fig, "slpi_axes", []) if name == "fig-vorticity-mollweide.png" else []:
            w = abs(ax.slpi_field[2])   # the vortex pair in the middle half of each map, not on the seam
            assert 0.25 < np.unravel_index(w.argmax(), w.shape)[1] / w.shape[1] < 0.75, name
        write(fig, path)
    monkeypatch.setattr(mod, "write", check)
    monkeypatch.setattr(sys, "argv", [name, str(tmp_path)])
    sys.path.insert(0, EXAMPLES)
    try:
        mod.main()
    finally:
        sys.path.remove(EXAMPLES)
    for n in mod.FIGURES:
        kind, w, h = size(os.path.join(ROOT, "docs", "figures", n))
        k2, w2, h2 = size(str(tmp_path / n))
        assert k2 == kind and abs(w2 / w - 1) < 0.1 and abs(h2 / h - 1) < 0.1, (n, (kind, w, h), (k2, w2, h2))
        if kind == "png":   # not blank: data drawn in colour (text, frames and ticks are grey) on 1 % of it
            px = matplotlib.image.imread(str(tmp_path / n))[:, :, :3]
            colour = (px.max(axis=2) - px.min(axis=2) > 0.1).mean()
            assert colour > 0.01, (n, colour)
    want = {"fig-vorticity-mollweide.png": ["vorticity \N{GREEK SMALL LETTER OMEGA}\n(dimensionless)"],
            "fig-vorticity-orthographic.png": ["vorticity \N{GREEK SMALL LETTER OMEGA}\n(dimensionless)"],
            "fig-drift.png": ["absolute departure\n(dimensionless)", "relative departure\n(dimensionless)",
                              "t (dimensionless)"],
            "fig-band.png": ["t (dimensionless)", "x1 (dimensionless)"],
            "fig-convergence.png": ["step size h (dimensionless)", "strong error (dimensionless)"],
            "fig-mlmc.png": ["level l (h = T 2$^{-l}$)", "|mean| of Y_l\n(dimensionless)",
                             "variance of Y_l\n(dimensionless)"],
            "fig-ou-bands.png": ["t (dimensionless)", "x1 (dimensionless)"],
            "fig-ou-weak.png": ["step size h (dimensionless)", "weak error (dimensionless)"],
            "fig-ou-mlmc.png": ["level l (h = T 2$^{-l}$)", "variance\n(dimensionless)", "|mean|\n(dimensionless)",
                                "check (1)", "kurtosis (1)", "RMSE \N{GREEK SMALL LETTER EPSILON} (dimensionless)"]}
    want = {n: v for n, v in want.items() if n in mod.FIGURES}
    assert sorted(seen) == sorted(want)
    for n, need in want.items():
        assert set(need) <= set(seen[n]), (n, seen[n])


def zonal_state(N):
    """The su(N) state (pack_su layout) of the field sqrt(3/4pi) cos(theta): Y_10 alone."""
    import numpy as np
    import slpi
    A = np.column_stack([slpi.zeitlin_coefficients(e) for e in np.eye(N * N)])
    om = np.zeros(N * N - 1)
    om[0] = 1.0
    return np.linalg.lstsq(A, om, rcond=None)[0]


def test_orthographic_shows_the_near_hemisphere_and_panels_share_limits():
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    import numpy as np
    import slpi
    x = zonal_state(4)
    for view, sign in (((90, 0), 1), ((-90, 0), -1), ((0, 40), 0)):
        ax = slpi.plot.vorticity(x, projection="orthographic", view=view, n=(40, 80))
        v = ax.collections[0].get_array()
        shown = v.compressed()
        assert 0.4 < shown.size / v.size < 0.6   # one hemisphere of cells
        if sign:
            assert (sign * shown > 0).all()      # the pole's hemisphere only: omega has its sign there
        else:
            assert (shown > 0).any() and (shown < 0).any()
    fig = slpi.plot.panels([x, 3 * x, -2 * x], projection="mollweide", n=(20, 40))
    lim = max(float(np.abs(a.slpi_field[2]).max()) for a in fig.slpi_axes)
    assert fig.slpi_vlim == lim and abs(lim / np.abs(fig.slpi_axes[1].slpi_field[2]).max() - 1) < 1e-15
    for a in fig.slpi_axes:
        assert a.collections[0].get_clim() == (-lim, lim)
