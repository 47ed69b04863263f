"""The container of the Python checkpoints (slpi/_ckpt.py): every edit or cut
of a run's or an ensemble's ``.npz`` checkpoint is refused with SlpiError (code 2,
argument ``resume``) naming the part that differs, where a check of shapes alone resumed
edited, float32 and NaN rows into a wrong result and a cut file raised BadZipFile. Each
case rewrites the file with numpy (as an editor would: the digests left as they were);
the untouched file still resumes into the uninterrupted call's bits."""
import json

import numpy as np
import pytest

import slpi

KW = dict(steps=300, output_every=7, trunc_ell=0.05)
P = "iso/rigid-body/trajectories"
EKW = dict(paths=600, steps=12, save_every=4, stats=True, diagnostics=True, trunc_ell=0.3)


class Stop(Exception):
    pass


def load(path):
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


def edited(path, out, change):
    """out: path's arrays as change(arrays) leaves them, saved by numpy."""
    data = load(path)
    change(data)
    np.savez(out, **data)
    return out


def meta_edit(key, value):
    def change(d):
        m = json.loads(str(d["meta"]))
        m[key] = value
        d["meta"] = np.array(json.dumps(m, sort_keys=True))
    return change


def put(name, fn):
    def change(d):
        d[name] = fn(d[name].copy())
    return change


def row_nan(a):
    a[len(a) // 2] = np.nan
    return a


def bump(a):
    a.flat[a.size // 2] += 1e-9 if a.dtype.kind == "f" else 1
    return a


def cuts(path, tmp_path):
    """path cut at several lengths (the middle, its last byte, its first bytes, empty)."""
    raw = open(path, "rb").read()
    for n in (len(raw) // 2, len(raw) - 1, 22, 0):
        f = tmp_path / ("cut-%d.npz" % n)
        f.write_bytes(raw[:n])
        yield str(f)


RUN_EDITS = [
    ("an edited x value", put("x", bump), r"its x \(float64 \(22, 3\)\) differ from their digest"),
    ("x as float32", put("x", lambda a: a.astype(np.float32)), r"its x \(float32 \(22, 3\)\) differ"),
    ("a NaN x row", put("x", row_nan), "its x .* differ from their digest"),
    ("a NaN diagnostics row", put("diag", row_nan), "its diag .* differ from their digest"),
    ("an edited iteration count", put("iters", bump), "its iters .* differ from their digest"),
    ("iterations as int64", put("iters", lambda a: a.astype(np.int64)), r"its iters \(int64"),
    ("an edited residual", put("resid", bump), "its resid .* differ from their digest"),
    ("a row dropped", put("x", lambda a: a[:-1]), r"its x \(float64 \(21, 3\)\) differ"),
    ("an edited stepper", put("stepper", lambda a: np.array(str(a).replace("step 150", "step 149"))),
     "its stepper .* differ from their digest"),
    ("an array removed", lambda d: d.pop("resid"), "its array resid is missing"),
    ("an array added", lambda d: d.update(extra=np.zeros(3)), "it holds an array extra that no checkpoint writes"),
    ("the step edited", meta_edit("step", 149), "its meta .* differs from its digest"),
    ("the rows edited", meta_edit("rows", 21), "its meta .* differs from its digest"),
    ("the problem edited", meta_edit("problem", "x"), "its meta .* differs from its digest"),
    ("the x0 digest edited", meta_edit("x0", "0" * 64), "its meta .* differs from its digest"),
]


def test_run_checkpoint_edits_and_cuts_refused(tmp_path):
    ck = str(tmp_path / "r.npz")
    whole = slpi.run(None, **KW)
    h = whole.summary["h"]

    def stop(t, x):
        if t >= 150 * h - 1e-12:
            raise Stop()
    with pytest.raises(Stop):
        slpi.run(None, observer=stop, checkpoint=ck, checkpoint_every=60, **KW)
    assert load(ck)["x"].shape == (22, 3) and "step 150" in str(load(ck)["stepper"])
    for what, change, match in RUN_EDITS:
        bad = edited(ck, str(tmp_path / "bad.npz"), change)
        with pytest.raises(slpi.SlpiError, match=match) as e:
            slpi.run(None, resume=bad, **KW)
        assert e.value.code == 2 and e.value.argument == "resume", what
    for bad in cuts(ck, tmp_path):
        with pytest.raises(slpi.SlpiError, match="not a checkpoint of slpi.run, or a cut one"):
            slpi.run(None, resume=bad, **KW)
    again = slpi.run(None, resume=ck, **KW)   # the file as written: the uninterrupted run
    for k in ("t", "states", "iterations", "residual"):
        assert getattr(again, k).tobytes() == getattr(whole, k).tobytes(), k
    assert all(again.diagnostics[k].tobytes() == whole.diagnostics[k].tobytes() for k in whole.diagnostics)
    assert again.summary == whole.summary


ENS_EDITS = [
    ("a NaN statistics state", put("state", row_nan), "its state .* differ from their digest"),
    ("an edited states row", put("states", bump), "its states .* differ from their digest"),
    ("a NaN diagnostics row", put("diagnostics", row_nan), "its diagnostics .* differ from their digest"),
    ("states as float32", put("states", lambda a: a.astype(np.float32)), r"its states \(float32"),
    ("the clipped count edited", meta_edit("clipped", 0), "its meta .* differs from its digest"),
    ("the paths done edited", meta_edit("done", 256), "its meta .* differs from its digest"),
    ("the inputs' digest edited", meta_edit("inputs", None), "its meta .* differs from its digest"),
]


def test_ensemble_checkpoint_edits_cuts_and_inputs_refused(tmp_path):
    ck = str(tmp_path / "e.npz")
    rng = np.random.default_rng(5)
    dW = rng.normal(0, 0.2, (600, 12, 3))
    X0 = np.tile([1.0, 0.0, 0.0], (600, 1))

    def x0(first, count, limit=10 ** 9, X=X0):
        if first >= limit:
            raise Stop()
        return X[first:first + count]
    whole = slpi.ensemble(P, x0=x0, dW=dW, **EKW)
    assert whole.clipped > 0
    with pytest.raises(Stop):
        slpi.ensemble(P, x0=lambda f, c: x0(f, c, 512), dW=dW, checkpoint=ck, checkpoint_every=256, **EKW)
    assert load(ck)["states"].shape[0] == 512
    for what, change, match in ENS_EDITS:
        bad = edited(ck, str(tmp_path / "bad.npz"), change)
        with pytest.raises(slpi.SlpiError, match=match) as e:
            slpi.ensemble(P, x0=x0, dW=dW, resume=bad, **EKW)
        assert e.value.code == 2 and e.value.argument == "resume", what
    for bad in cuts(ck, tmp_path):
        with pytest.raises(slpi.SlpiError, match="not a checkpoint of slpi.ensemble, or a cut one"):
            slpi.ensemble(P, x0=x0, dW=dW, resume=bad, **EKW)
    # other inputs for the paths done: one increment of path 300, one initial state of
    # path 7 (through the callable), none given: refused naming them
    other = dW.copy()
    other[300, 5, 1] += 1e-3
    with pytest.raises(slpi.SlpiError, match="its 512 paths ran on other dW than this call gives them"):
        slpi.ensemble(P, x0=x0, dW=other, resume=ck, **EKW)
    X1 = X0.copy()
    X1[7] = [0.0, 1.0, 0.0]
    with pytest.raises(slpi.SlpiError, match="ran on other x0 than"):
        slpi.ensemble(P, x0=lambda f, c: x0(f, c, X=X1), dW=dW, resume=ck, **EKW)
    with pytest.raises(slpi.SlpiError, match="ran on other x0 and dW than"):
        slpi.ensemble(P, resume=ck, **EKW)
    other[300, 5, 1] = dW[300, 5, 1]
    other[550] = 0   # a path not done yet: its increments are this call's to give
    again = slpi.ensemble(P, x0=x0, dW=other, resume=ck, threads=2, **EKW)
    want = slpi.ensemble(P, x0=x0, dW=other, **EKW)
    for k in ("states", "state"):
        assert getattr(again, k).tobytes() == getattr(want, k).tobytes(), k
    assert again.clipped == want.clipped and again.stats.mean.tobytes() == want.stats.mean.tobytes()
