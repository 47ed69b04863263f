"""Ensembles a modeller drives (slpi.ensemble over api/ensemble.c), each result computed a
second way: the statistics against numpy on the stored paths, the threads against one
thread, per-path x0 and increments against single runs, streamed increments against one
array, a parameter grid against one ensemble per value, the certified path against
single certified runs; and bad input, each a SlpiError naming the argument."""
import numpy as np
import pytest

import slpi

RB = "iso/rigid-body/trajectories"
HT = "rkmk/heavy-top/stoch-421-realization"
U = 2.0 ** -53


def own_inputs(pr, paths, seed):
    """Per-path initial states (the problem's, each coordinate moved by up to 10 %) and
    increments (normal, of the step's standard deviation)."""
    rng = np.random.default_rng(seed)
    x0 = slpi.run(pr, steps=1).states[0] * rng.uniform(0.9, 1.1, (paths, pr.dim))
    dW = rng.normal(0, np.sqrt(pr.h), (paths, pr.steps, pr.noises))
    return x0, dW


def test_stats_against_numpy_on_stored_paths():
    """mean, var, min, max of every state coordinate and diagnostic at every saved time,
    against numpy on the stored rows summed in long double. The bound, fixed before the
    first run (as tests/api/t-ensemble.c): Welford's updates and Chan's merges err by at most
    4 n u max|v| in the mean and 8 n u S / (n - 1) in the variance, S = sum v^2, u = 2^-53;
    the long double reference adds 2^-64-sized errors; min and max are exact."""
    pr = slpi.Problem(RB, steps=30)
    paths = 300
    x0, dW = own_inputs(pr, paths, 1)
    e = slpi.ensemble(pr, paths=paths, x0=x0, dW=dW, save_every=7, stats=True, diagnostics=True)
    v = np.concatenate([e.states, np.stack([e.diagnostics[k] for k in e.stats.names[pr.dim:]], axis=2)], axis=2)
    assert e.stats.names[:pr.dim] == pr.labels and e.stats.n == paths and v.shape[1] == len(e.t) == 6
    w = v.astype(np.longdouble)
    mean = w.mean(axis=0)
    var = ((w - mean) ** 2).sum(axis=0) / (paths - 1)
    big = np.abs(v).max(axis=0)
    S = (w ** 2).sum(axis=0)
    assert (np.abs(e.stats.mean - mean) <= 4 * paths * U * big).all()
    assert (np.abs(e.stats.var - var) <= 8 * paths * U * S / (paths - 1)).all()
    assert np.array_equal(e.stats.min, v.min(axis=0)) and np.array_equal(e.stats.max, v.max(axis=0))
    assert (e.stats.radius == 0).all()
    h0 = e.stats["H0"]
    assert np.array_equal(h0.mean, e.stats.mean[:, e.stats.names.index("H0")])


def test_threads_give_the_same_bits():
    """threads=1 and threads=2 (and 3): states, diagnostics and statistics bit for bit,
    over several blocks of 64 paths and a partial one, on the problem's noise and on
    given increments."""
    pr = slpi.Problem(HT, steps=12)
    paths = 64 * 5 + 17
    x0, dW = own_inputs(pr, paths, 2)
    x0[:, 3:] /= np.linalg.norm(x0[:, 3:], axis=1)[:, None]   # Gamma on its sphere
    for kw in ({}, dict(x0=x0, dW=dW)):
        one = slpi.ensemble(pr, paths=paths, save_every=5, stats=True, diagnostics=True, threads=1, **kw)
        for t in (2, 3):
            other = slpi.ensemble(pr, paths=paths, save_every=5, stats=True, diagnostics=True, threads=t, **kw)
            assert one.states.tobytes() == other.states.tobytes()
            for name in ("mean", "var", "min", "max"):
                assert getattr(one.stats, name).tobytes() == getattr(other.stats, name).tobytes(), (t, name)


def test_per_path_x0_and_increments_equal_single_runs():
    """Path r of an ensemble from x0[r] on dW[r] is run(x0=x0[r], dW=dW[r]), bit for bit,
    states and diagnostics; a shared x0 (dim,) is every path's."""
    pr = slpi.Problem(RB, steps=25)
    x0, dW = own_inputs(pr, 4, 3)
    e = slpi.ensemble(pr, paths=4, x0=x0, dW=dW, save_every=1, diagnostics=True, threads=2)
    for r in range(4):
        one = slpi.run(pr, x0=x0[r], dW=dW[r], output_every=1)
        assert np.array_equal(e.states[r], one.states)
        assert all(np.array_equal(e.diagnostics[k][r], one.diagnostics[k]) for k in one.diagnostics)
    shared = slpi.ensemble(pr, paths=3, first_path=9, x0=x0[1], save_every=5)
    for r in range(3):
        assert np.array_equal(shared.states[r], slpi.run(pr, x0=x0[1], path=9 + r, output_every=5).states)


def test_streamed_increments_equal_one_array_and_keep_path_order():
    """dW as a callable dW(first, count): called in path order over all paths, and the
    result is the array's, bit for bit; without steps among the keys an array's
    shape[1] sets them."""
    pr = slpi.Problem(RB, steps=8)
    paths = 64 * 4 * 3 * 16 + 5   # more than one batch of 16 waves on 3 threads
    _, dW = own_inputs(pr, paths, 4)
    asked = []

    def stream(first, count):
        asked.append((first, count))
        return dW[first:first + count]
    a = slpi.ensemble(RB, paths=paths, dW=dW, stats=True, states=False, threads=3)
    b = slpi.ensemble(RB, paths=paths, steps=8, dW=stream, stats=True, states=False, threads=3)
    assert a.stats.mean.tobytes() == b.stats.mean.tobytes() and a.stats.var.tobytes() == b.stats.var.tobytes()
    assert len(asked) > 1 and asked[0][0] == 0 and sum(c for _, c in asked) == paths
    assert all(f + c == g for (f, c), (g, _) in zip(asked, asked[1:]))
    assert a.states is None and a.t.tolist() == [0, 8 * pr.h]


def test_diagnostics_only_and_statistics_only():
    pr = slpi.Problem(RB, steps=20)
    full = slpi.ensemble(pr, paths=5, save_every=4, diagnostics=True)
    d = slpi.ensemble(pr, paths=5, save_every=4, diagnostics=True, states=False)
    assert d.states is None and d.stats is None
    assert all(np.array_equal(d.diagnostics[k], full.diagnostics[k]) for k in full.diagnostics)
    s = slpi.ensemble(pr, paths=5, save_every=4, stats=True, states=False)
    assert s.states is None and s.diagnostics is None
    assert np.array_equal(s.stats["x2"].max, full.states[:, :, 1].max(axis=0))


def test_parameter_grid_is_labelled_by_value():
    """params={key: values}: one ensemble per point of the grid, in order (the last key
    fastest), labelled by its values, each the ensemble run with those keys."""
    m = slpi.Model("so3", "(x1^2/I1 + x2^2/I2 + x3^2/I3)/2", noise=["amp/2*x1^2", "amp/2*x2^2", "amp/2*x3^2"],
                   params=dict(I1=2, I2=1, I3=0.75, amp=0.1), x0=[1, 0.5, 0.2])
    grid = slpi.ensemble(m, paths=6, steps=10, save_every=5, stats=True, threads=2,
                         params={"param.I1": [1.5, 2.5], "param.amp": [0.1, 0.2, 0.3]})
    assert [g.params for g in grid] == [{"param.I1": a, "param.amp": b} for a in (1.5, 2.5) for b in (0.1, 0.2, 0.3)]
    for g in grid:
        one = slpi.ensemble(m, paths=6, steps=10, save_every=5, stats=True, **g.params)
        assert np.array_equal(g.states, one.states) and np.array_equal(g.stats.mean, one.stats.mean)
    assert not np.array_equal(grid[0].stats["H0"].mean, grid[3].stats["H0"].mean)
    pts = slpi.ensemble(m, paths=2, steps=4, params=[{"param.I1": 3.0}, {"param.I1": 4.0, "param.amp": 0.0}])
    assert [g.params for g in pts] == [{"param.I1": 3.0}, {"param.I1": 4.0, "param.amp": 0.0}]


def test_certified_ensemble():
    """ref=True: path r's midpoints and radii are run(ref=True)'s; stats.radius is the
    largest radius over the paths, positive after step 0."""
    pr = slpi.Problem(RB, steps=6)
    e = slpi.ensemble(pr, paths=3, first_path=2, ref=True, save_every=3, stats=True, threads=2)
    for r in range(3):
        one = slpi.run(pr, ref=True, path=2 + r, output_every=3)
        assert np.array_equal(e.states[r], one.states) and np.array_equal(e.radii[r], one.radii)
    assert np.array_equal(e.stats.radius[:, :pr.dim], e.radii.max(axis=0))
    assert (e.stats.radius[1:, :pr.dim] > 0).all()


BAD = [
    (dict(x0=np.ones((5, 3))), "x0"),                      # paths + 1 rows
    (dict(x0=np.ones((4, 2))), "x0"),                      # dim - 1 columns
    (dict(x0=np.ones((4, 3, 1))), "x0"),
    (dict(x0=np.full((4, 3), np.nan)), "x0"),
    (dict(x0=np.ones((4, 3), dtype=complex)), "x0"),
    (dict(x0=[["a", "b", "c"]] * 4), "x0"),
    (dict(dW=np.zeros((4, 10, 2))), "dW"),
    (dict(dW=np.zeros((3, 10, 3))), "dW"),
    (dict(dW=np.zeros((4, 10))), "dW"),
    (dict(dW=np.zeros((4, 10, 3), dtype=object)), "dW"),
    (dict(dW=np.zeros((4, 10, 3), dtype=complex)), "dW"),
    (dict(dW=np.full((4, 10, 3), np.inf)), "dW"),
    (dict(dW=lambda f, c: np.zeros((c, 9, 3))), "dW"),
    (dict(dW=lambda f, c: np.full((c, 10, 3), np.nan)), "dW"),
    (dict(dW=lambda f, c: "abc"), "dW"),
    (dict(threads=0), "threads"),
    (dict(threads=1.5), "threads"),
    (dict(threads="2"), "threads"),
    (dict(threads=257), "threads"),
    (dict(stats="yes"), "stats"),
    (dict(states=None), "states"),
    (dict(ref=1), "ref"),
    (dict(states=False, out="e.npy", save_every=1), "out"),
    (dict(params={"param.a": 1.0}), "params"),
    (dict(params={}), "params"),
    (dict(params="param.a=1"), "params"),
    (dict(params={"nokey": [1]}), "nokey"),
]


@pytest.mark.parametrize("kw,argument", BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_input_names_the_argument(kw, argument):
    kw = dict(kw)
    if "dW" not in kw or callable(kw["dW"]):
        kw.setdefault("steps", 10)
    with pytest.raises(slpi.SlpiError) as e:
        slpi.ensemble(RB, paths=4, **kw)
    assert e.value.code == 2 and argument in str(e.value) and e.value.argument == argument, str(e.value)


def test_state_off_the_manifold_names_its_path():
    x0 = np.tile([1.0, 0, 0, 0, 0, 1.0], (3, 1))
    x0[2, 5] = 2.0   # |Gamma| = 2 on the heavy top
    with pytest.raises(slpi.SlpiError, match="path 2 ") as e:
        slpi.ensemble(HT, paths=3, steps=4, x0=x0, stats=True)
    assert e.value.argument == "x0"


def test_streamed_initial_states_equal_one_array():
    pr = slpi.Problem(RB, steps=5)
    x0, _ = own_inputs(pr, 70, 5)
    a = slpi.ensemble(pr, paths=70, x0=x0, save_every=5)
    b = slpi.ensemble(pr, paths=70, x0=lambda f, c: x0[f:f + c], save_every=5)
    assert np.array_equal(a.states, b.states)
    with pytest.raises(slpi.SlpiError) as e:
        slpi.ensemble(pr, paths=70, x0=lambda f, c: x0[f:f + c, :2])
    assert e.value.argument == "x0"


def test_save_at_rows_are_the_runs_rows_at_those_times():
    """save_at (an argument, or a key of the problem) saves the rows of the library's one
    output grid (core/rows.c): each path's rows equal run()'s with the same save_at, bit
    for bit, with the same times; save_every with save_at is refused."""
    pr = slpi.Problem(RB, steps=20)
    at = [3 * pr.h, 10 * pr.h, 20 * pr.h]
    e = slpi.ensemble(pr, paths=3, first_path=4, save_at=at, diagnostics=True)
    keyed = slpi.ensemble(slpi.Problem(RB, steps=20, save_at=",".join(repr(t) for t in at)), paths=3, first_path=4)
    for r in range(3):
        one = slpi.run(pr, path=4 + r, save_at=at)
        assert np.array_equal(e.states[r], one.states) and np.array_equal(keyed.states[r], one.states)
        assert np.array_equal(e.diagnostics["H0"][r], one.diagnostics["H0"])
    assert e.step.tolist() == [0, 3, 10, 20] and np.array_equal(e.t, one.t)
    with pytest.raises(slpi.SlpiError) as err:
        slpi.ensemble(pr, paths=2, save_at=at, save_every=2)
    assert err.value.argument == "save_every"


def test_route_lanes_and_general():
    """The rigid body runs on the lanes, the heavy top and the certified path on the
    general route with the reason; the lanes' paths are single runs' paths bit for bit on
    the problem's noise, and their statistics the same bits on 1 and 2 threads."""
    pr = slpi.Problem(RB, steps=9)
    paths = 64 * 2 + 5
    one = slpi.ensemble(pr, paths=paths, first_path=3, save_every=4, stats=True, threads=1)
    two = slpi.ensemble(pr, paths=paths, first_path=3, save_every=4, stats=True, threads=2)
    assert one.route == two.route == "lanes"
    assert one.stats.mean.tobytes() == two.stats.mean.tobytes() and one.states.tobytes() == two.states.tobytes()
    for k in (0, 64, paths - 1):
        alone = slpi.run(pr, path=3 + k).states
        assert alone[[0, 4, 8, 9]].tobytes() == one.states[k].tobytes(), k
    assert slpi.ensemble(slpi.Problem(HT, steps=3), paths=2, save_every=1).route.startswith("general: no lane kernel")
    assert slpi.ensemble(pr, paths=2, ref=True, save_every=3).route == "general: the certified path (ref=1)"


def test_ensemble_counts_clipped_and_capped():
    """Ensemble.clipped/capped (slpi_ensemble_counts): the same on the lanes and the
    general route's threads, and a merge of two ranges counts what one run counts."""
    kw = dict(steps=64, trunc_ell=0.5, seed=5, stats=True, states=False)
    whole = slpi.ensemble("iso/rigid-body/weak", paths=128, **kw)
    assert whole.route == "lanes" and whole.clipped > 0 and whole.capped == 0
    a = slpi.ensemble("iso/rigid-body/weak", paths=64, **kw)
    b = slpi.ensemble("iso/rigid-body/weak", paths=64, first_path=64, **kw)
    m = slpi.ensemble("iso/rigid-body/weak", paths=128, merge=[a, b], **kw)
    assert a.clipped + b.clipped == whole.clipped == m.clipped
    c = slpi.ensemble("iso/rigid-body/weak", paths=16, on_cap="accept", maxit=1, **kw)
    assert c.capped == 16 * 64
