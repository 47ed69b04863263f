"""Runs live and resumable at once (slpi/_stream.py, slpi/_run_state.py, slpi/_ens_state.py,
slpi/_stop.py):

- ``run(stream=, checkpoint=, resume=)``: a run stopped (its observer raising, as Ctrl-C
  would) and resumed appends to its stream, which then equals the uninterrupted run's
  stream bit for bit in every variable and row; also when the stream is ahead of the
  checkpoint (a kill after the last checkpoint) or behind it; a stream of another run, or
  whose rows differ from the checkpoint's, is refused;
- SIGTERM (a scheduler's time limit) to a Python process in ``run`` (in its observer, in
  a stream write, in a checkpoint write, between pieces), in ``ensemble`` (between
  batches, inside a C batch), in ``converge`` and in ``mlmc``: the process exits 130, as
  ``slpi`` does, leaving a checkpoint whose resume is the uninterrupted call, bit for bit;
- the ensemble's checkpoint_every is honoured (not raised to whole waves of blocks);
- ``quantiles=`` with checkpoints, exact and streamed, resume bit for bit; a resume with
  other levels is refused."""
import inspect
import os
import signal
import subprocess
import sys

import numpy as np
import pytest

import slpi
from slpi import _ckpt, _ens_state, _run_state

netCDF4 = pytest.importorskip("netCDF4")
KW = dict(steps=3000, output_every=3, trunc_ell=0.05)
H = 2.0 ** -8


class Stop(Exception):
    pass


def stop_at(step, then=None):
    def observer(t, x):
        if then is not None and abs(t - then[0] * H) < 1e-12:
            then[1]()
        if t >= step * H - 1e-12:
            raise Stop()
    return observer


def contents(path):
    """Every variable's bytes, dtype and shape, and every attribute, of a NetCDF file."""
    with netCDF4.Dataset(path) as ds:
        return ({k: (v[:].dtype, v[:].shape, np.asarray(v[:]).tobytes()) for k, v in ds.variables.items()},
                {k: ds.getncattr(k) for k in ds.ncattrs()})


def same_run(a, b):
    for k in ("t", "step", "states", "iterations", "residual"):
        assert getattr(a, k).tobytes() == getattr(b, k).tobytes(), k
    for k in a.diagnostics:
        assert a.diagnostics[k].tobytes() == b.diagnostics[k].tobytes(), k
    assert a.summary == b.summary


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    f = str(tmp_path_factory.mktemp("whole") / "w.nc")
    return slpi.run(None, stream=f, **KW), contents(f)


def test_stream_with_checkpoint_resumes_bit_for_bit(tmp_path, whole):
    w, wfile = whole
    s, ck, early = (str(tmp_path / n) for n in ("s.nc", "c.npz", "early.npz"))
    # the checkpoint of step 1000 copied at step 1200: a kill after it leaves the stream ahead
    copy = (1200, lambda: open(early, "wb").write(open(ck, "rb").read()))
    with pytest.raises(Stop):
        slpi.run(None, stream=s, checkpoint=ck, checkpoint_every=500, observer=stop_at(1700, copy), **KW)
    assert os.path.getsize(early) and contents(s)[0]["step"][1] < w.step.shape
    s2 = str(tmp_path / "s2.nc")
    open(s2, "wb").write(open(s, "rb").read())
    same_run(w, slpi.run(None, stream=s, resume=ck, checkpoint=ck, **KW))
    assert contents(s) == wfile
    with netCDF4.Dataset(s2) as ds:
        assert len(ds.dimensions["time"]) > 1200 // 3   # ahead of the early checkpoint's rows
    same_run(w, slpi.run(None, stream=s2, resume=early, **KW))
    assert contents(s2) == wfile
    # a stream behind its checkpoint (it stopped earlier): the checkpoint's rows are appended
    behind = str(tmp_path / "behind.nc")
    with pytest.raises(Stop):
        slpi.run(None, stream=behind, observer=stop_at(600), **KW)
    same_run(w, slpi.run(None, stream=behind, resume=early, **KW))
    assert contents(behind) == wfile


def test_stream_of_another_run_is_refused(tmp_path, whole):
    s, ck = str(tmp_path / "s.nc"), str(tmp_path / "c.npz")
    with pytest.raises(Stop):
        slpi.run(None, stream=s, checkpoint=ck, checkpoint_every=500, observer=stop_at(1700), **KW)
    other = str(tmp_path / "o.nc")
    slpi.run(None, stream=other, **dict(KW, trunc_ell=0.06))
    with pytest.raises(slpi.SlpiError, match="not this run's stream: its attribute trunc_ell") as e:
        slpi.run(None, stream=other, resume=ck, **KW)
    assert e.value.argument == "stream"
    with netCDF4.Dataset(s, "a") as ds:   # one value of one row edited
        ds["H0"][7] = ds["H0"][7] * (1 + 2 ** -52)
    with pytest.raises(slpi.SlpiError, match="its H0 differ from the checkpoint's rows"):
        slpi.run(None, stream=s, resume=ck, **KW)
    bad = str(tmp_path / "bad.nc")
    open(bad, "w").write("not a netcdf file")
    with pytest.raises(slpi.SlpiError, match="not a NetCDF file"):
        slpi.run(None, stream=bad, resume=ck, **KW)
    with pytest.raises(slpi.SlpiError, match="the file exists"):
        slpi.run(None, stream=s, checkpoint=str(tmp_path / "new.npz"), **KW)


RUN = """
import inspect, os, signal, sys, slpi
from slpi import _atomic, _stream
moment, s, ck = sys.argv[1], sys.argv[2], sys.argv[3]
kw = dict(steps=3000, output_every=3, trunc_ell=0.05)
def term():
    os.kill(os.getpid(), signal.SIGTERM)
def at_line(fn, text, call):   # SIGTERM as the line holding text begins, in fn's call-th call
    code, calls = fn.__code__, [0]
    src, first = inspect.getsourcelines(fn)
    line = first + [i for i, ln in enumerate(src) if text in ln][0]
    def trace(frame, event, arg):
        if frame.f_code is not code:
            return None
        if event == "call":
            calls[0] += 1
        elif event == "line" and calls[0] == call and frame.f_lineno == line:
            term()
        return trace
    sys.settrace(trace)
obs = None
if moment == "observer":
    obs = lambda t, x: term() if abs(t - 1234 * 2.0 ** -8) < 1e-12 else None
elif moment == "checkpoint write":
    at_line(_atomic.write, "os.replace", 2)
elif moment == "stream write":
    at_line(_stream.Stream._append, "self.ds.sync()", 5)
elif moment == "between pieces":   # 0.1 s after the first checkpoint is on disk: inside a later piece
    import threading, time
    def watch():
        while not os.path.exists(ck):
            time.sleep(0.01)
        time.sleep(0.1)
        term()
    threading.Thread(target=watch, daemon=True).start()
    kw.update(steps=3000000, output_every=300)
slpi.run(None, stream=s, checkpoint=ck, checkpoint_every=500, observer=obs, **kw)
print("not stopped")
"""


@pytest.mark.parametrize("moment", ["observer", "checkpoint write", "stream write", "between pieces"])
def test_sigterm_in_a_run_keeps_a_checkpoint(tmp_path, whole, moment):
    w, wfile = whole
    s, ck = str(tmp_path / "s.nc"), str(tmp_path / "c.npz")
    p = subprocess.run([sys.executable, "-c", RUN, moment, s, ck], env=dict(os.environ), capture_output=True,
                       timeout=120)
    assert p.returncode == 130, (p.returncode, p.stdout, p.stderr)
    assert b"SIGTERM" in p.stderr and not p.stdout
    assert not [f for f in os.listdir(tmp_path) if ".part-" in f]
    if moment == "between pieces":   # a long run: its own uninterrupted rows, a prefix of them
        rows = _ckpt.read(ck, (_run_state.FORMAT, _run_state.VERSION), "run")[1]["x"].shape[0]
        with netCDF4.Dataset(s) as ds:
            assert len(ds.dimensions["time"]) == rows > 1
            x = np.asarray(ds["state"][:])
        short = slpi.run(None, **dict(KW, steps=(rows - 1) * 300, output_every=300))
        assert x.tobytes() == short.states.tobytes()
        return
    same_run(w, slpi.run(None, stream=s, resume=ck, **KW))
    assert contents(s) == wfile


ENS = """
import os, signal, sys, threading, numpy as np, slpi
moment, ck = sys.argv[1], sys.argv[2]
def x0(first, count):
    if first >= 300:
        if moment == "between batches":
            os.kill(os.getpid(), signal.SIGTERM)
        else:   # inside the C batch that runs paths 300..399
            threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGTERM)).start()
    return np.tile([1.0, 0.0, 0.0], (count, 1))
slpi.ensemble("iso/rigid-body/trajectories", x0=x0, checkpoint=ck, checkpoint_every=100, threads=2,
              **dict(paths=600, steps=%d, save_every=4, stats=True, diagnostics=True, trunc_ell=0.3))
print("not stopped")
"""
EKW = dict(paths=600, save_every=4, stats=True, diagnostics=True, trunc_ell=0.3)


def x0_all(first, count):
    return np.tile([1.0, 0.0, 0.0], (count, 1))


def same_ens(a, b):
    assert a.clipped == b.clipped and a.capped == b.capped
    for k in ("states", "state"):
        assert getattr(a, k).tobytes() == getattr(b, k).tobytes(), k
    for k in a.diagnostics:
        assert a.diagnostics[k].tobytes() == b.diagnostics[k].tobytes(), k
    for k in ("mean", "var", "min", "max", "radius"):
        assert getattr(a.stats, k).tobytes() == getattr(b.stats, k).tobytes(), k


@pytest.mark.parametrize("moment,steps", [("between batches", 12), ("in a batch", 4000)])
def test_sigterm_in_an_ensemble_keeps_a_checkpoint(tmp_path, moment, steps):
    ck = str(tmp_path / "e.npz")
    p = subprocess.run([sys.executable, "-c", ENS % steps, moment, ck], env=dict(os.environ), capture_output=True,
                       timeout=300)
    assert p.returncode == 130, (p.returncode, p.stdout, p.stderr)
    done = _ckpt.read(ck, (_ens_state.FORMAT, _ens_state.VERSION), "ensemble")[1]["states"].shape[0]
    if moment == "between batches":
        assert done == 300
    else:   # the paths completed in the stopped batch are kept too (whole waves of blocks)
        assert 300 <= done < 600
    whole = slpi.ensemble("iso/rigid-body/trajectories", x0=x0_all, steps=steps, **EKW)
    for threads in (1, 2):
        same_ens(whole, slpi.ensemble("iso/rigid-body/trajectories", x0=x0_all, steps=steps, resume=ck,
                                      threads=threads, **EKW))


def x0_stopping_at(limit):
    def x0(first, count):
        if first >= limit:
            raise Stop()
        return x0_all(first, count)
    return x0


def test_ensemble_cadence_is_honoured(tmp_path):
    """checkpoint_every=100 on 2 threads (a wave of blocks is 512 paths): the checkpoints
    fall at 100, 200, ...; a call stopped at path 300 keeps 300 paths (not 512)."""
    ck = str(tmp_path / "e.npz")
    with pytest.raises(Stop):
        slpi.ensemble("iso/rigid-body/trajectories", x0=x0_stopping_at(300), checkpoint=ck, checkpoint_every=100,
                      threads=2, steps=12, **EKW)
    assert _ckpt.read(ck, (_ens_state.FORMAT, _ens_state.VERSION), "ensemble")[1]["states"].shape[0] == 300
    whole = slpi.ensemble("iso/rigid-body/trajectories", x0=x0_all, steps=12, **EKW)
    same_ens(whole, slpi.ensemble("iso/rigid-body/trajectories", x0=x0_all, steps=12, resume=ck, threads=2, **EKW))


@pytest.mark.parametrize("states", [True, False])
def test_quantiles_resume_bit_for_bit(tmp_path, states):
    """Exact quantiles (the states kept) and streamed ones (states=False: the histograms,
    which grow as paths come, are in the checkpoint) of a stopped and resumed ensemble are
    the uninterrupted call's."""
    ck = str(tmp_path / "q.npz")
    kw = dict(paths=1100, steps=12, save_every=4, states=states, diagnostics=True, trunc_ell=0.3,
              quantiles=[0.05, 0.5, 0.95])
    whole = slpi.ensemble("iso/rigid-body/trajectories", x0=x0_all, **kw)
    with pytest.raises(Stop):
        slpi.ensemble("iso/rigid-body/trajectories", x0=x0_stopping_at(700), checkpoint=ck, checkpoint_every=300,
                      **kw)
    for threads in (1, 2):
        again = slpi.ensemble("iso/rigid-body/trajectories", x0=x0_all, resume=ck, threads=threads, **kw)
        assert again.quantiles.exact == states
        for k in ("values", "error"):
            assert getattr(again.quantiles, k).tobytes() == getattr(whole.quantiles, k).tobytes(), k
    with pytest.raises(slpi.SlpiError, match="its quantiles is"):
        slpi.ensemble("iso/rigid-body/trajectories", x0=x0_all, resume=ck, **dict(kw, quantiles=[0.5]))


CONV = """
import os, signal, sys, threading, slpi
ck = sys.argv[1]
def done():
    try:
        return int(next(ln.split()[1] for ln in open(ck).read().splitlines() if ln.startswith("done ")))
    except (OSError, StopIteration, ValueError, IndexError):
        return 0
def after_first_checkpoint():   # never by the clock: an idle machine ends the study first
    for _ in range(20000):
        if done() > 0:
            break
        threading.Event().wait(0.001)
    os.kill(os.getpid(), signal.SIGTERM)
threading.Thread(target=after_first_checkpoint, daemon=True).start()
slpi.converge("iso/rigid-body/strong", checkpoint=ck, checkpoint_every=2, **%r)
print("not stopped")
"""


def test_sigterm_in_a_study_keeps_a_checkpoint(tmp_path):
    kw = dict(levels=(2, 5), ref=10, paths=65536, batches=128, boot=20)
    ck = str(tmp_path / "c.ckpt")
    p = subprocess.run([sys.executable, "-c", CONV % kw, ck], env=dict(os.environ), capture_output=True,
                       timeout=300)
    assert p.returncode == 130, (p.returncode, p.stdout, p.stderr)
    assert b"SIGTERM" in p.stderr and not p.stdout
    full = slpi.converge("iso/rigid-body/strong", **kw)
    r = slpi.converge("iso/rigid-body/strong", resume=ck, **kw)
    assert r.report["levels"] == full.report["levels"] and r.report["slopes"] == full.report["slopes"]


MLMC = """
import os, signal, sys, threading, time, slpi
ck = sys.argv[1]
def after_first_checkpoint():
    for _ in range(20000):
        if os.path.exists(ck):
            break
        time.sleep(0.001)
    time.sleep(0.2)
    os.kill(os.getpid(), signal.SIGTERM)
threading.Thread(target=after_first_checkpoint, daemon=True).start()
slpi.mlmc("iso/so3/weak-exact", rmse=0.004, phi="x1", levels=(1, 12), threads=1, checkpoint=ck)
print("not stopped")
"""


def test_sigterm_in_mlmc_keeps_a_checkpoint(tmp_path):
    ck = str(tmp_path / "m.ckpt")
    p = subprocess.run([sys.executable, "-c", MLMC, ck], env=dict(os.environ), capture_output=True, timeout=300)
    assert p.returncode == 130, (p.returncode, p.stdout, p.stderr)
    kw = dict(rmse=0.004, phi="x1", levels=(1, 12), threads=1)
    full = slpi.mlmc("iso/so3/weak-exact", **kw)
    r = slpi.mlmc("iso/so3/weak-exact", resume=ck, **kw)
    assert r.estimate == full.estimate and list(r.paths) == list(full.paths) and r.total_cost == full.total_cost
