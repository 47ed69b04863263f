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
