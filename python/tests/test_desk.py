"""The researcher's desk (python/README.md): converge with the command's options,
per-path reductions and quantiles of ensembles, storage through xarray and the plots."""
import json
import os
import signal
import subprocess
import threading

import numpy as np
import pytest

import slpi

SLPI = os.environ.get("SLPI_BIN", os.path.join(os.path.dirname(__file__), "..", "..", "build", "slpi"))
RB = "iso/rigid-body/trajectories"


def test_converge_covers_the_command(tmp_path, capfd):
    """threads, batches, phi, exact, fit, drop_coarse and progress: the JSON of `slpi converge` with the same
    options, number for number, and the same bits on 1 and 2 threads."""
    opts = dict(kind="weak", levels=(2, 4), ref=6, paths=64, boot=20, phi="x1", exact=True, batches=8)
    one = slpi.converge("iso/so3/weak-exact", threads=1, **opts)
    two = slpi.converge("iso/so3/weak-exact", threads=2, progress=True, **opts)
    assert "converge, paths" in capfd.readouterr().err
    assert np.array_equal(one.e, two.e) and np.array_equal(one.se, two.se) and np.array_equal(one.ci, two.ci, equal_nan=True)
    j = tmp_path / "c.json"
    subprocess.run([SLPI, "converge", "--preset", "iso/so3/weak-exact", "--kind", "weak", "--levels", "2..4",
                    "--ref", "6", "--paths", "64", "--boot", "20", "--phi", "x1", "--exact", "--batches", "8",
                    "--threads", "2", "--json", str(j), "-o", os.devnull], check=True, capture_output=True)
    cli = json.loads(j.read_text())
    for k in ("levels", "slopes", "study", "failed_paths"):
        assert cli[k] == one.report[k], k
    assert one.e.tolist() == [lv["indep"]["e"] for lv in cli["levels"]]
    assert all("quadrature" in lv for lv in cli["levels"])
    plain = slpi.converge("iso/so3/weak-exact", kind="weak", levels=(2, 4), ref=6, paths=64, boot=20)
    assert not np.array_equal(plain.e, one.e)   # phi and exact reach the study
    # --fit and --drop-coarse: the same study and slopes as the command's, another slope
    # than the default fit's
    ols = slpi.converge("iso/rigid-body/strong", levels=(2, 5), ref=7, paths=16, boot=20, fit="ols", drop_coarse=1)
    wls = slpi.converge("iso/rigid-body/strong", levels=(2, 5), ref=7, paths=16, boot=20)
    subprocess.run([SLPI, "converge", "--preset", "iso/rigid-body/strong", "--levels", "2..5", "--ref", "7",
                    "--paths", "16", "--boot", "20", "--fit", "ols", "--drop-coarse", "1", "--json", str(j), "-o",
                    os.devnull], check=True, capture_output=True)
    cli = json.loads(j.read_text())
    assert cli["study"] == ols.report["study"] and cli["slopes"] == ols.report["slopes"]
    assert (ols.report["study"]["fit"], ols.report["study"]["drop_coarse"]) == ("ols", 1)
    assert ols.report["slopes"]["self"]["levels_fitted"] == 3 and wls.report["slopes"]["self"]["levels_fitted"] == 4
    assert np.array_equal(ols.e, wls.e) and ols.slope != wls.slope
    with pytest.raises(slpi.SlpiError, match="fit"):
        slpi.converge("iso/rigid-body/strong", levels=(2, 3), ref=5, paths=4, fit="ls")
    with pytest.raises(slpi.SlpiError, match="drop_coarse"):
        slpi.converge("iso/rigid-body/strong", levels=(2, 3), ref=5, paths=4, drop_coarse=31)
    with pytest.raises(slpi.SlpiError, match="phi: col 1: unknown name 'x9'"):
        slpi.converge("iso/rigid-body/weak", kind="weak", levels=(2, 3), ref=5, paths=4, phi="x9")
    with pytest.raises(slpi.SlpiError, match="threads"):
        slpi.converge("iso/rigid-body/weak", threads=0)


def test_converge_phi_expression_callable_and_failures(tmp_path):
    """phi= as an expression of the state (--phi 'x1*x2+x3^2': the command's JSON, number for
    number) and as a callable over the state array (the same study); paths whose functional is
    not finite are failed paths: a RuntimeWarning, or SlpiError with on_failure='raise'."""
    opts = dict(kind="weak", levels=(1, 3), ref=6, paths=24, boot=0, batches=3)
    ex = slpi.converge("iso/rigid-body/weak", phi="x1*x2+x3^2", threads=2, **opts)
    fn = slpi.converge("iso/rigid-body/weak", phi=lambda x: x[0] * x[1] + x[2] ** 2, **opts)
    j = tmp_path / "c.json"
    subprocess.run([SLPI, "converge", "--preset", "iso/rigid-body/weak", "--kind", "weak", "--levels", "1..3",
                    "--ref", "6", "--paths", "24", "--boot", "0", "--batches", "3", "--phi", "x1*x2+x3^2",
                    "--json", str(j), "-o", os.devnull], check=True, capture_output=True)
    cli = json.loads(j.read_text())
    assert cli["levels"] == ex.report["levels"] and cli["study"]["phi"] == "x1*x2+x3^2"
    assert fn.report["levels"] == ex.report["levels"] and fn.report["study"]["phi"] == "callable"
    assert ex.failed == 0 and ex.clipped == cli["clipped_increments"]
    with pytest.warns(RuntimeWarning, match="paths failed"):
        s = slpi.converge("iso/rigid-body/weak", phi="sqrt(x3 - 0.4524)", **opts)
    assert 0 < s.failed < 24 and s.report["paths"] == 24 - s.failed
    with pytest.raises(slpi.SlpiError, match="on_failure='raise'") as e:
        slpi.converge("iso/rigid-body/weak", phi="sqrt(x3 - 0.4524)", on_failure="raise", **opts)
    assert e.value.code == 3

    def bad(x):
        raise ZeroDivisionError("mine")
    with pytest.raises(ZeroDivisionError, match="mine"):
        slpi.converge("iso/rigid-body/weak", phi=bad, **opts)
    with pytest.raises(slpi.SlpiError, match="callable functional"):
        slpi.converge("iso/rigid-body/weak", phi=len, checkpoint=tmp_path / "k", **opts)


def test_converge_checkpoint_and_resume(tmp_path):
    """checkpoint= and resume= (--checkpoint, --resume): a study stopped by Ctrl-C keeps
    its checkpoint, a resumed study equals an uninterrupted one number for number, and
    `slpi converge --resume` reads Python's checkpoint to the same levels."""
    kw = dict(levels=(2, 5), ref=10, paths=65536, batches=128, boot=20)
    full = slpi.converge("iso/rigid-body/strong", **kw)
    ck = tmp_path / "c.ckpt"
    old = signal.signal(signal.SIGINT, signal.default_int_handler)

    def batches_done():
        try:
            return int(next(ln.split()[1] for ln in ck.read_text().splitlines() if ln.startswith("done ")))
        except (OSError, StopIteration, ValueError, IndexError):
            return 0

    def after_first_checkpoint():   # never by the clock: an idle machine ends the study first
        for _ in range(20000):
            if batches_done() > 0:
                break
            threading.Event().wait(0.001)
        os.kill(os.getpid(), signal.SIGINT)
    sender = threading.Thread(target=after_first_checkpoint)
    try:
        with pytest.raises(KeyboardInterrupt):
            try:
                sender.start()
                slpi.converge("iso/rigid-body/strong", checkpoint=ck, checkpoint_every=2, **kw)
            finally:
                sender.join()
    finally:
        signal.signal(signal.SIGINT, old)
    done = batches_done()
    print("checkpoint at %d of 128 batches" % done)
    assert 0 < done < 128, done
    r = slpi.converge("iso/rigid-body/strong", resume=ck, **kw)
    assert r.report["levels"] == full.report["levels"] and r.report["slopes"] == full.report["slopes"]
    j = tmp_path / "c.json"
    subprocess.run([SLPI, "converge", "--preset", "iso/rigid-body/strong", "--levels", "2..5", "--ref", "10",
                    "--paths", "65536", "--batches", "128", "--boot", "20", "--resume", str(ck), "--json", str(j),
                    "-o", os.devnull], check=True, capture_output=True)
    assert json.loads(j.read_text())["levels"] == full.report["levels"]
    with pytest.raises(slpi.SlpiError, match="paths"):   # another study's checkpoint, named
        slpi.converge("iso/rigid-body/strong", resume=ck, **dict(kw, paths=32768))
    with pytest.raises(slpi.SlpiError, match="NUL"):
        slpi.converge("iso/rigid-body/strong", checkpoint="a\0b", **kw)


def test_ensemble_merge_is_one_run():
    """ensemble(merge=) (`slpi ensemble --state`/`--merge`): the statistics of path ranges
    run apart, given in any order, are one run's bits (and so is the merged state), for a
    params grid too; ranges off the 64 x 2^k tree, missing paths, another problem and
    kept states are refused, named."""
    kw = dict(steps=40, save_every=10, stats=True, states=False)
    one = slpi.ensemble(RB, paths=300, **kw)
    a, b = slpi.ensemble(RB, paths=128, **kw), slpi.ensemble(RB, paths=172, first_path=128, **kw)
    m = slpi.ensemble(RB, paths=300, merge=[b, a], **kw)
    assert m.stats.n == 300 and np.array_equal(m.state, one.state) and not np.array_equal(a.state, one.state)
    for f in ("mean", "var", "min", "max", "radius"):
        assert np.array_equal(getattr(m.stats, f), getattr(one.stats, f)), f
    g = dict(params={"amp": [0.1, 0.2]}, **kw)
    parts = [slpi.ensemble(RB, paths=128, **g), slpi.ensemble(RB, paths=172, first_path=128, **g)]
    for x, y in zip(slpi.ensemble(RB, paths=300, **g), slpi.ensemble(RB, paths=300, merge=parts, **g)):
        assert x.params == y.params and np.array_equal(x.stats.var, y.stats.var)
    c, d = slpi.ensemble(RB, paths=100, **kw), slpi.ensemble(RB, paths=200, first_path=100, **kw)
    for merge, extra, match in (([c, d], {}, "64 x 2"), ([a], {}, "the run asks for 0..299"),
                                ([a, slpi.ensemble(RB, paths=172, first_path=128, amp=0.3, **kw)], {}, "key amp="),
                                ([a, b], {"states": True}, "states given")):
        with pytest.raises(slpi.SlpiError, match=match):
            slpi.ensemble(RB, paths=300, merge=merge, **dict(kw, **extra))


def first_passage(t, x):
    """The first saved time at which x1 < 0.9, or inf: one per path."""
    below = x[:, :, 0] < 0.9
    return np.where(below.any(axis=1), t[np.argmax(below, axis=1)], np.inf)


def test_reduce_per_path_and_histogram():
    """reduce's results path by path equal f on the kept states, and the same bytes on 1
    and 2 threads; bins gives their exact histogram; bad reductions are named."""
    kw = dict(paths=300, steps=400, save_every=4, x0=[1.0, 0.3, 0.1], amp=0.6)
    e1 = slpi.ensemble(RB, threads=1, reduce=first_passage, **kw)
    e2 = slpi.ensemble(RB, threads=2, reduce=first_passage, states=False, stats=True, **kw)
    assert e1.reduced.shape == (300,) and e1.reduced.tobytes() == e2.reduced.tobytes()
    assert np.array_equal(e1.reduced, first_passage(e1.t, e1.states))
    assert np.isfinite(e1.reduced).sum() > 10 and np.isinf(e1.reduced).sum() > 10
    edges = np.linspace(0, e1.t[-1], 9)
    h = slpi.ensemble(RB, threads=2, reduce=first_passage, bins=edges, states=False, **kw)
    assert h.reduced.dtype == np.int64 and np.array_equal(h.reduced, np.histogram(e1.reduced, bins=edges)[0])
    with pytest.raises(slpi.SlpiError, match="reduce: returned"):
        slpi.ensemble(RB, paths=4, steps=4, save_every=2, reduce=lambda t, x: 1.0)
    with pytest.raises(slpi.SlpiError, match="bins"):
        slpi.ensemble(RB, paths=4, steps=4, save_every=2, reduce=first_passage, bins=[1, 0])


def test_quantiles_exact_and_streamed():
    """Kept states: numpy's inverted_cdf quantiles exactly. states=False: within the stated
    error of them, for every time and quantity, and the same bytes on 1 and 2 threads."""
    q = [0.0, 0.05, 0.5, 0.95, 1.0]
    kw = dict(paths=5000, steps=100, save_every=20, amp=0.5, quantiles=q)   # 20 pieces: the bins grow
    ex = slpi.ensemble(RB, diagnostics=True, **kw)
    v = np.concatenate([ex.states, np.stack([ex.diagnostics[k] for k in ex.diagnostics], axis=2)], axis=2)
    assert ex.quantiles.exact and np.array_equal(ex.quantiles.values, np.quantile(v, q, axis=0,
                                                                                   method="inverted_cdf"))
    s1 = slpi.ensemble(RB, states=False, threads=1, **kw)
    s2 = slpi.ensemble(RB, states=False, threads=2, **kw)
    assert not s1.quantiles.exact and s1.quantiles.values.tobytes() == s2.quantiles.values.tobytes()
    assert s1.quantiles.names == ex.quantiles.names
    gap = np.abs(s1.quantiles.values - ex.quantiles.values)
    assert np.all(gap <= s1.quantiles.error), (gap / np.maximum(s1.quantiles.error, 1e-300)).max()
    # the bins stayed fine: a few times the whole span over 4096 bins (a constant
    # quantity: 2^-40 of its magnitude)
    span, mag = v.max(axis=0) - v.min(axis=0), np.maximum(np.abs(v).max(axis=0), 1.0)
    assert np.all(s1.quantiles.error <= span / 4096 * 8 + mag * 2.0 ** -38)
    med = s1.quantiles["x1"][2]
    assert med.shape == (len(s1.t),)
    with pytest.raises(slpi.SlpiError, match="quantiles"):
        slpi.ensemble(RB, paths=4, steps=4, save_every=2, quantiles=[1.5])


def same_attrs(attrs, head):
    """The attributes hold every header field: text as written, a number (store.py's rule)
    as the value its text parses to, bit for bit (a float64's sign included)."""
    for k, text in head.items():
        a = attrs[k]
        if isinstance(a, str):
            assert a == text, k
        elif isinstance(a, (int, np.integer)):
            assert int(text) == a and str(int(a)) == text.lstrip("+"), k
        else:
            assert np.float64(float(text)).tobytes() == np.float64(a).tobytes(), k
    return True


def test_netcdf_round_trip_keeps_every_header_field(tmp_path):
    """A trajectory file of `slpi run` (fast and certified), a Result and an Ensemble to
    NetCDF and back: every header field as an attribute, the same values, the arrays
    bit for bit; the file is HDF5 (h5py reads the same attributes)."""
    pytest.importorskip("xarray")
    pytest.importorskip("netCDF4")
    for extra in ([], ["--ref"]):
        f = tmp_path / "rb.tsv"
        subprocess.run([SLPI, "run", "-q", "--hex", *extra, "--preset", RB, "steps=6", "-o", str(f)], check=True)
        tr = slpi.read_trajectory(f)
        nc = tmp_path / "rb.nc"
        slpi.save(tr, nc)
        ds = slpi.load(nc)
        head = {k: "\n".join(v) if isinstance(v, list) else v for k, v in tr.header.items()}
        assert same_attrs(ds.attrs, head) and len(head) > 40
        assert ds.attrs["slpi_kind"] == "trajectory" and ds.attrs["arith"] == ("ref" if extra else "fast")
        assert np.array_equal(ds["state"].values, tr.state) and np.array_equal(ds["time"].values, tr.rows["t"])
        assert np.array_equal(ds["H0"].values, tr.rows["H0"])
        if extra:
            assert np.array_equal(ds["state_radius"].values, tr.state_rad)
    r = slpi.run(RB, steps=8, ref=True)
    slpi.save(r, tmp_path / "r.nc")
    ds = slpi.load(tmp_path / "r.nc")
    want = dict(slpi.provenance(), **r.problem)
    assert same_attrs(ds.attrs, want) and ds.attrs["arith"] == "ref"
    assert ds.attrs["slpi_version"] == head["slpi_version"] and ds.attrs["steps"] == 8
    assert np.array_equal(ds["state_radius"].values, r.radii) and np.array_equal(ds["H0"].values, r.energy)
    e = slpi.ensemble(RB, paths=40, steps=20, save_every=5, stats=True, diagnostics=True, quantiles=[0.5],
                      reduce=lambda t, x: x[:, -1, 0], amp=0.3)
    slpi.save(e, tmp_path / "e.nc")
    ds = slpi.load(tmp_path / "e.nc")
    assert same_attrs(ds.attrs, e.problem) and ds.attrs["amp"] == 0.3 and isinstance(ds.attrs["amp"], float)
    assert np.array_equal(ds["state"].values, e.states) and np.array_equal(ds["reduced"].values, e.reduced)
    assert np.array_equal(ds["stats_var"].values, e.stats.var) and int(ds["stats_n"]) == 40
    assert np.array_equal(ds["quantiles"].values, e.quantiles.values)
    h5py = pytest.importorskip("h5py")
    with h5py.File(tmp_path / "e.nc", "r") as h:
        a = {k: (v.decode() if isinstance(v, bytes) else str(v)) for k, v in h.attrs.items()}
    assert a["system"] == "rigid-body" and a["slpi_version"] == slpi.__version__


def test_netcdf_attributes_typed_with_units(tmp_path):
    """Numbers as numbers, CF units on the variables, the text fields as text (the
    provenance's included), and a run rebuilt from the file's attributes alone is the
    same bits (the typed values' str parse to the same doubles)."""
    pytest.importorskip("xarray")
    pytest.importorskip("netCDF4")
    r = slpi.run(RB, steps=16, amp=0.3, tol=1e-13, seed=7)
    slpi.save(r, tmp_path / "r.nc")
    ds = slpi.load(tmp_path / "r.nc")
    a = ds.attrs
    assert a["Conventions"] == "CF-1.8"
    assert isinstance(a["steps"], np.integer) and a["steps"] == r.summary["steps"] and a["seed"] == 7
    assert isinstance(a["h"], np.floating) and a["h"] == r.summary["h"]
    assert isinstance(a["amp"], np.floating) and isinstance(a["tol"], np.floating)
    assert all(isinstance(a[k], str) for k in slpi.provenance()) and isinstance(a["system"], str)
    for v in ("time", "state", "step"):
        assert ds[v].attrs["units"] == "1" and ds[v].attrs["long_name"], v
    again = slpi.run(None, **{k: a[k] for k in r.problem})
    assert again.states.tobytes() == r.states.tobytes() and again.t.tobytes() == r.t.tobytes()


def polarization_tensor(N, l, m):
    """T_lm of docs/systems.md#euler-zeitlin by its 3j formula, entry by entry (Racah's sum
    in exact arithmetic, then one square root): (T_lm)_ab = (-1)^(s - m_a) sqrt(2l + 1)
    (s l s; -m_a, m, m_b); an independent way to the basis the library diagonalizes."""
    from fractions import Fraction
    from slpi.sphere import _wigner3j
    s = Fraction(N - 1, 2)
    T = np.zeros((N, N))
    for a in range(N):
        for b in range(N):
            ma, mb = -s + a, -s + b
            sg, sq = _wigner3j(s, l, s, -ma, m, mb)
            T[a, b] = (-1) ** int(s - ma) * sg * np.sqrt(float((2 * l + 1) * sq))
    return T


@pytest.mark.parametrize("N, m", [(5, 0), (8, 1), (17, 2), (72, 0), (72, 2), (128, 0), (128, 23)])
def test_harmonics_as_the_exact_null_vectors(N, m):
    """slpi.sphere's L_m eigenvectors against the exact ones (the integer recurrence of
    ref/zeitlin-basis.c: q_0 = 1, q_(a+1) = -(D_a + 2l(l+1)) q_a - E_(a-1)^2 q_(a-1),
    t_a = q_a / (E_0 ... E_(a-1)), then the last entry made positive), every l, within
    64 N u, without a warning: at N = 72 and 128 some last entries are below the rounding,
    and a sign read off them is an error of 2 |t|_max; at N = 5, 8 and 17 the sign's Sturm
    count meets a zero pivot"""
    from slpi.sphere import _eigenvectors
    from fractions import Fraction
    import math
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        V, n = _eigenvectors(N, m), N - m
    D = [(2 * a - N + 1) * (2 * (a + m) - N + 1) - (N * N - 1) for a in range(n)]
    E2 = [4 * (a + 1) * (N - 1 - a) * (a + m + 1) * (N - 1 - a - m) for a in range(n - 1)]
    worst = 0.0
    for l in range(m, N):
        q = [1]
        for a in range(n - 1):
            q.append(-(D[a] + 2 * l * (l + 1)) * q[a] - (E2[a - 1] * q[a - 1] if a else 0))
        den, t = 1, []
        for a in range(n):                 # t_a^2 = q_a^2 / (E_0^2 ... E_(a-1)^2), exactly
            t.append(Fraction(q[a] * q[a], den) * (1 if q[a] >= 0 else -1))
            den *= E2[a] if a < n - 1 else 1
        norm = math.sqrt(float(sum(abs(x) for x in t)))
        sg = 1 if q[n - 1] > 0 else -1
        exact = np.array([sg * math.copysign(math.sqrt(float(abs(x))), float(x)) / norm for x in t])
        worst = max(worst, np.abs(V[:, l - m] - exact).max())
    assert worst <= 64 * N * 2.0 ** -53, worst


@pytest.mark.parametrize("N", [5, 8, 13])
def test_vorticity_of_y21_is_the_analytic_field(N):
    """The su(N) states of sqrt2 Re Y_2^1 and sqrt2 Im Y_2^1 (i T(f), T from the 3j formula)
    give back, on a 37 x 72 grid, the fields -sqrt(15/4pi) sin(th) cos(th) cos(ph) and
    sin(ph) within 1e-12; the unit state is a unit field."""
    T = polarization_tensor(N, 2, 1)
    th, ph = np.meshgrid(np.linspace(0, np.pi, 37), np.linspace(0, 2 * np.pi, 72, endpoint=False), indexing="ij")
    base = -np.sqrt(15 / (4 * np.pi)) * np.sin(th) * np.cos(th)
    re = slpi.pack_su(1j * (T + T.T) / np.sqrt(2))     # i T(sqrt2 Re Y21): T(conj f) = T(f)^T
    im = slpi.pack_su((T - T.T) / np.sqrt(2))          # i T(sqrt2 Im Y21)
    assert abs(np.linalg.norm(slpi.unpack_su(re)) - 1) < 1e-14
    for state, want in ((re, base * np.cos(ph)), (im, base * np.sin(ph))):
        got = slpi.vorticity(state, th, ph)
        assert np.abs(got - want).max() < 1e-12, np.abs(got - want).max()
    w = slpi.zeitlin_coefficients(re)
    assert np.count_nonzero(np.abs(w) > 1e-12) == 1 and abs(abs(w[2 * 2 - 1 + 2]) - 1) < 1e-12   # Y^s_21


def test_plot_vorticity_draws_y21():
    """What slpi.plot.vorticity draws (the mesh's values) for the su(13) state of
    sqrt2 Re Y_2^1 is the analytic field at the mesh's cell centres within 1e-12."""
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt
    T = polarization_tensor(13, 2, 1)
    ax = slpi.plot.vorticity(slpi.pack_su(1j * (T + T.T) / np.sqrt(2)), n=(37, 72))
    th, ph, w = ax.slpi_field
    drawn = np.asarray(ax.collections[0].get_array()).reshape(w.shape)
    plt.close(ax.figure)
    want = -np.sqrt(15 / (4 * np.pi)) * np.sin(th) * np.cos(th) * np.cos(ph)
    assert th.shape == (37, 72) and np.ptp(th) > 3 and np.ptp(ph) > 6
    assert np.abs(drawn - want).max() < 1e-12, np.abs(drawn - want).max()


# Y_lm for l <= 3, m >= 0 in closed form (x = cos th, s = sin th; Condon-Shortley phase):
# the textbook table, written out independently of the recurrence.
CLOSED_FORMS = {
    (0, 0): lambda x, s: 0.5 / np.sqrt(np.pi) + 0 * x,
    (1, 0): lambda x, s: np.sqrt(3 / (4 * np.pi)) * x,
    (1, 1): lambda x, s: -np.sqrt(3 / (8 * np.pi)) * s,
    (2, 0): lambda x, s: np.sqrt(5 / (16 * np.pi)) * (3 * x * x - 1),
    (2, 1): lambda x, s: -np.sqrt(15 / (8 * np.pi)) * s * x,
    (2, 2): lambda x, s: np.sqrt(15 / (32 * np.pi)) * s * s,
    (3, 0): lambda x, s: np.sqrt(7 / (16 * np.pi)) * (5 * x ** 3 - 3 * x),
    (3, 1): lambda x, s: -np.sqrt(21 / (64 * np.pi)) * s * (5 * x * x - 1),
    (3, 2): lambda x, s: np.sqrt(105 / (32 * np.pi)) * s * s * x,
    (3, 3): lambda x, s: -np.sqrt(35 / (64 * np.pi)) * s ** 3,
}


def test_spherical_harmonic_closed_forms_and_orthonormality():
    """slpi.spherical_harmonic (NumPy, no scipy) against the closed forms for l <= 3 on a
    grid within 1e-14, and orthonormal up to l = 40 (Gauss-Legendre in cos th, the
    trapezoid in ph: exact for these degrees) within 1e-12."""
    th, ph = np.meshgrid(np.linspace(0, np.pi, 29), np.linspace(0, 2 * np.pi, 31), indexing="ij")
    for (l, m), f in CLOSED_FORMS.items():
        want = f(np.cos(th), np.sin(th)) * np.exp(1j * m * ph)
        assert np.abs(slpi.spherical_harmonic(l, m, th, ph) - want).max() < 1e-14, (l, m)
    L = 40
    x, wx = np.polynomial.legendre.leggauss(L + 2)
    nph = 2 * L + 2
    tq, pq = np.meshgrid(np.arccos(x), np.arange(nph) * 2 * np.pi / nph, indexing="ij")
    w = wx[:, None] * (2 * np.pi / nph)
    for m in (0, 1, 7, 40):
        Y = [slpi.spherical_harmonic(l, m, tq, pq) for l in range(m, L + 1)]
        G = np.array([[np.sum(a * np.conj(b) * w) for b in Y] for a in Y])
        assert np.abs(G - np.eye(len(Y))).max() < 1e-12, m
    with pytest.raises(ValueError):
        slpi.spherical_harmonic(2, 3, 0.1, 0.2)


def test_spherical_harmonic_against_scipy():
    """The same harmonics as scipy's (a second writing), where python3-scipy is installed."""
    sp = pytest.importorskip("scipy.special")
    th, ph = np.meshgrid(np.linspace(0, np.pi, 29), np.linspace(0, 2 * np.pi, 31), indexing="ij")
    for l, m in ((5, 2), (17, 11), (30, 0)):
        if hasattr(sp, "sph_harm_y"):
            ref = sp.sph_harm_y(l, m, th, ph)
        else:
            ref = sp.sph_harm(m, l, ph, th)
        assert np.abs(slpi.spherical_harmonic(l, m, th, ph) - ref).max() < 1e-12, (l, m)


def test_plots_headless(tmp_path):
    """Each figure of slpi.plot draws (Agg) into a PNG."""
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt
    r = slpi.run(RB, steps=300)
    e = slpi.ensemble(RB, paths=30, steps=100, save_every=10, stats=True)
    z = slpi.run("iso/zeitlin/strong", N=6, ic_lmax=5, steps=2)
    for name, draw in (("sphere", lambda: slpi.plot.sphere(r)), ("drift", lambda: slpi.plot.drift(r)),
                       ("band", lambda: slpi.plot.band(e, "H0")),
                       ("vorticity", lambda: slpi.plot.vorticity(z.states[-1], n=(18, 36)))):
        ax = draw()
        ax.figure.savefig(tmp_path / (name + ".png"))
        plt.close(ax.figure)
        assert (tmp_path / (name + ".png")).stat().st_size > 1000, name


def test_comment_lines_of_a_trajectory(tmp_path):
    """'##' lines are comments wherever they sit in the header, with '=' or not; a '#' line
    whose text before '=' is not a key is refused by both readers, saying why."""
    f = tmp_path / "rb.tsv"
    slpi.write_trajectory(f, slpi.run(RB, steps=4))
    lines = f.read_text().splitlines()
    good = tmp_path / "good.tsv"
    good.write_text("\n".join(lines[:1] + ["## my port, x=1 and y = 2", "##a=b", "# plain note"] + lines[1:]) + "\n")
    assert slpi.verify(good).verdict == "PASS"
    tr = slpi.read_trajectory(good)
    assert "a" not in tr.header and "#a" not in tr.header and "my port, x=1 and y = 2" in tr.header["notes"]
    bad = tmp_path / "bad.tsv"
    bad.write_text("\n".join(lines[:1] + ["# my port: x=1"] + lines[1:]) + "\n")
    for read in (slpi.verify, slpi.read_trajectory):
        with pytest.raises(slpi.SlpiError, match=r"bad.tsv:2: a '#' line with '=' is a key=value line, and "
                                                 r"'my port: x' is not a key .* '## \.\.\.'"):
            read(bad)


def test_model_file_and_x0_on_a_model(tmp_path):
    """A key file (models/rigid-body.slpi) is a problem wherever a preset is, the same bits
    as slpi run --config; ensemble(x0=...) on a model without x0 of its own runs each path
    from its x0 (as single runs do)."""
    models = os.path.join(os.path.dirname(__file__), "..", "..", "models")
    f = os.path.join(models, "rigid-body.slpi")
    e = slpi.ensemble(f, paths=3, steps=5)
    out = subprocess.run([SLPI, "run", "-q", "--hex", "--config", f, "steps=5", "path=2"], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    last = [float.fromhex(c) if "0x" in c else float(c) for c in out[-1].split("\t")[2:5]]
    assert np.array_equal(e[2], last)
    assert slpi.Problem(f).text() == slpi.Problem(f).text() and "system=model" in slpi.Problem(f).text()
    with pytest.raises(slpi.SlpiError, match="no-such-file|unknown preset"):
        slpi.ensemble(str(tmp_path / "no-such-file.slpi"), paths=2)
    m = slpi.Model("so3", "x1^2/2 + x2^2 + x3^2", noise=["0.1*x1"])
    X0 = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0.6, 0.8]])
    ens = slpi.ensemble(m, paths=3, steps=4, x0=X0)
    for r in range(3):
        assert np.array_equal(ens[r], slpi.run(m, steps=4, x0=X0[r], path=r).states[-1])


def test_plot_vorticity_default_grid_and_shared_limits():
    """plot.vorticity's default grid is chosen by N (vorticity_grid: >= 2N latitudes, so
    degree N - 1 is sampled twice a wavelength), and vlim shares the colour limits."""
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt
    for N in (2, 13, 45, 46, 128, 200):
        lat, lon = slpi.plot.vorticity_grid(N)
        assert lat >= max(90, 2 * N) and lon == 2 * lat, (N, lat, lon)
    T = polarization_tensor(13, 2, 1)
    state = slpi.pack_su(1j * (T + T.T) / np.sqrt(2))
    ax = slpi.plot.vorticity(state)
    assert ax.slpi_field[2].shape == (90, 180)
    plt.close(ax.figure)
    ax = slpi.plot.vorticity(np.zeros(60 * 60), n=None)
    assert ax.slpi_field[2].shape == (120, 240)
    plt.close(ax.figure)
    ax = slpi.plot.vorticity(state, n=(20, 40), vlim=2.5)
    assert ax.collections[0].get_clim() == (-2.5, 2.5)
    plt.close(ax.figure)


def test_plot_band_quantiles():
    """plot.band(q=(lo, hi)): the drawn line is the paths' median and the band spans their
    lo and hi quantiles at every saved time (np.quantile of the kept states)."""
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt
    e = slpi.ensemble("iso/rigid-body/trajectories", paths=40, steps=60, save_every=10)
    ax = slpi.plot.band(e, "x2", q=(0.1, 0.9))
    v = e.states[:, :, e.labels.index("x2")]
    assert np.array_equal(ax.lines[0].get_ydata(), np.quantile(v, 0.5, axis=0))
    path = ax.collections[0].get_paths()[0].vertices[:, 1]
    lo, hi = np.quantile(v, 0.1, axis=0), np.quantile(v, 0.9, axis=0)
    assert np.isclose(path.min(), lo.min()) and np.isclose(path.max(), hi.max())
    assert all(np.any(np.isclose(path, x)) for x in np.concatenate([lo, hi]))
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="q="):
        slpi.plot.band(e, "x2", q=(0.9, 0.1))


def test_plot_drift_keeps_relative_departures_apart():
    """plot.drift: absolute departures (NAME_dev, |H0 - H0(0)|) on one axes, relative ones
    (NAME_rel_dev) on another (a second panel, or a twin of the given axes), each labelled."""
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt
    r = slpi.run("iso/zeitlin/strong", N=6, ic_lmax=5, steps=20)
    rel = [k for k in r.diagnostics if k.endswith("_rel_dev") and not k.startswith("H0")]
    assert rel, "the su(N) run has relative departures (C2, C3)"
    for given in (False, True):
        ax = slpi.plot.drift(r, ax=plt.figure().add_subplot() if given else None)
        a = [x.get_label() for x in ax.lines]
        b = [x.get_label() for x in ax.slpi_relative.lines]
        assert not any(k.endswith("_rel_dev") for k in a) and sorted(b) == sorted(rel), (a, b)
        assert "absolute" in ax.get_ylabel() and "relative" in ax.slpi_relative.get_ylabel()
        plt.close(ax.figure)
