"""Ensemble checkpoints (slpi/_ens_state.py): a call stopped after some batches and resumed
from its checkpoint returns the uninterrupted call's rows, statistics, state and counts,
bit for bit, on any thread count; a checkpoint of another call is refused."""
import os

import numpy as np
import pytest

import slpi
from slpi import _ckpt, _ens_state


def states_saved(ck):
    """The number of paths the ensemble checkpoint ck holds (read by the C container reader)."""
    return _ckpt.read(ck, (_ens_state.FORMAT, _ens_state.VERSION), "ensemble")[1]["states"].shape[0]

P = "iso/rigid-body/trajectories"
KW = dict(paths=600, steps=12, save_every=4, stats=True, diagnostics=True, trunc_ell=0.3)


class Stop(Exception):
    pass


def x0_stopping_at(limit):
    """x0(first, count) that raises Stop for the paths from `limit` on (a kill mid-run)."""
    def x0(first, count):
        if first >= limit:
            raise Stop()
        return np.tile([1.0, 0.0, 0.0], (count, 1))
    return x0


def same(a, b):
    assert a.clipped == b.clipped and a.capped == b.capped
    for k in ("states", "state"):
        assert getattr(a, k).tobytes() == getattr(b, k).tobytes(), k
    for k in a.diagnostics:
        assert a.diagnostics[k].tobytes() == b.diagnostics[k].tobytes(), k
    for k in ("mean", "var", "min", "max", "radius"):
        assert getattr(a.stats, k).tobytes() == getattr(b.stats, k).tobytes(), k


def test_resume_is_the_uninterrupted_call(tmp_path):
    ck = str(tmp_path / "e.npz")
    whole = slpi.ensemble(P, x0=x0_stopping_at(10**9), **KW)
    assert whole.clipped > 0   # trunc_ell=0.3 clips some increments: their count must be carried
    with pytest.raises(Stop):
        slpi.ensemble(P, x0=x0_stopping_at(512), checkpoint=ck, checkpoint_every=256, **KW)
    assert states_saved(ck) == 512   # two batches of 256 were saved
    for threads in (1, 2):
        again = slpi.ensemble(P, x0=x0_stopping_at(10**9), resume=ck, threads=threads, **KW)
        same(whole, again)
    # resumed into the same file, which then holds the whole call
    again = slpi.ensemble(P, x0=x0_stopping_at(10**9), resume=ck, checkpoint=ck, checkpoint_every=256, **KW)
    same(whole, again)
    assert states_saved(ck) == 600


def test_resume_refuses_another_call(tmp_path):
    ck = str(tmp_path / "e.npz")
    slpi.ensemble(P, checkpoint=ck, checkpoint_every=256, **KW)
    with pytest.raises(slpi.SlpiError, match="its paths is 600, this call's 601"):
        slpi.ensemble(P, resume=ck, **dict(KW, paths=601))
    with pytest.raises(slpi.SlpiError, match="another ensemble: its problem"):
        slpi.ensemble(P, resume=ck, **dict(KW, trunc_ell=0.4))
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a checkpoint")
    with pytest.raises(slpi.SlpiError, match="bad.npz:1: not a checkpoint: its first line is 'not a checkpoint'"):
        slpi.ensemble(P, resume=str(bad), **KW)
    with pytest.raises(slpi.SlpiError, match="not with params"):
        slpi.ensemble(P, checkpoint=ck, params={"trunc_ell": [0.3, 0.4]}, **{k: v for k, v in KW.items() if k != "trunc_ell"})
    assert not [f for f in os.listdir(tmp_path) if ".part-" in f]
