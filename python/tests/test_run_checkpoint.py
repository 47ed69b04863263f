"""Run checkpoints (slpi/_run_state.py over slpi_stepper_save/load): a call stopped midway
(by its observer raising, as Ctrl-C would) and resumed from its checkpoint returns the
uninterrupted call's Result bit for bit (times, steps, states, radii, diagnostics,
iterations, residuals, summary), for the default problem (the rigid body, ISOMP, fast
path), with a clipping truncation, coloured noise, given x0 and dW, and the certified
path; a checkpoint of another call, or an edited one, or one of the other complex product
(docs/install.md#products), is refused naming why."""
import json
import os

import numpy as np
import pytest

import slpi
from slpi import _ckpt, _ens_state, _run_state

KW = dict(steps=300, output_every=7, trunc_ell=0.05)


class Stop(Exception):
    pass


def load(ck):
    """(meta, arrays) of the run checkpoint ck, as the C container reader reads it."""
    return _ckpt.read(ck, (_run_state.FORMAT, _run_state.VERSION), "run")


def stop_at(step):
    """An observer that raises Stop after `step` (a kill mid-run)."""
    def observer(t, x):
        if t >= step * stop_at.h - 1e-12:
            raise Stop()
    return observer


def same(a, b):
    for k in ("t", "step", "states", "iterations", "residual"):
        assert getattr(a, k).tobytes() == getattr(b, k).tobytes(), k
    assert list(a.diagnostics) == list(b.diagnostics)
    for k in a.diagnostics:
        assert a.diagnostics[k].tobytes() == b.diagnostics[k].tobytes(), k
    assert (a.radii is None) == (b.radii is None)
    if a.radii is not None:
        assert a.radii.tobytes() == b.radii.tobytes()
        for k in a.diagnostic_radii:
            assert a.diagnostic_radii[k].tobytes() == b.diagnostic_radii[k].tobytes(), k
    assert a.summary == b.summary
    assert a.problem == b.problem


CASES = [
    dict(),                                              # the defaults a user relies on
    dict(noise_tau="0.05,0,0.3"),                        # coloured noise: its OU state
    dict(x0=[0.0, 0.6, 0.8]),                            # a given initial state
    dict(dW=np.random.default_rng(7).normal(0, 0.06, (300, 3))),   # given increments, some clipped
    dict(ref=True, steps=40, output_every=3),             # the certified path: balls, Lohner set
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_resume_is_the_uninterrupted_run(tmp_path, case):
    kw = dict(KW, **CASES[case])
    ck = str(tmp_path / "r.npz")
    whole = slpi.run(None, **kw)
    if case == 0:
        assert whole.summary["clipped"] > 0   # trunc_ell=0.05 clips: the count must be carried
    stop_at.h = whole.summary["h"]
    n = kw["steps"]
    with pytest.raises(Stop):
        slpi.run(None, observer=stop_at(n // 2 + 3), checkpoint=ck, checkpoint_every=n // 5, **kw)
    meta = load(ck)[0]
    assert meta["step"] == n // 2 + 3   # saved where the observer stopped it, not at the last cadence
    again = slpi.run(None, resume=ck, **kw)
    same(whole, again)
    # stopped at a cadence point, resumed into the same file, which then holds the whole run
    with pytest.raises(Stop):
        slpi.run(None, observer=stop_at(2 * (n // 5)), checkpoint=ck, checkpoint_every=n // 5, **kw)
    again = slpi.run(None, resume=ck, checkpoint=ck, checkpoint_every=n // 5, **kw)
    same(whole, again)
    assert load(ck)[0]["step"] == n
    same(whole, slpi.run(None, resume=ck, **kw))   # a finished checkpoint: nothing left to step


def test_resume_refuses_another_run(tmp_path):
    ck = str(tmp_path / "r.npz")
    slpi.run(None, checkpoint=ck, checkpoint_every=100, **KW)
    with pytest.raises(slpi.SlpiError, match="the checkpoint is of another run: its problem"):
        slpi.run(None, resume=ck, **dict(KW, steps=301))
    with pytest.raises(slpi.SlpiError, match="its x0 is None"):
        slpi.run(None, resume=ck, x0=[0.0, 0.6, 0.8], **KW)
    with pytest.raises(slpi.SlpiError, match="its ref is False"):
        slpi.run(None, resume=ck, ref=True, **KW)
    # an edited stepper text: its section's digest refuses it; forged (the file's digests
    # recomputed: the container detects edits, not forgeries), the C loader's digest
    meta, data = load(ck)
    text = str(data["stepper"])
    raw = open(ck).read()
    hexed = np.array(text).tobytes().hex()
    edited = np.array(text.replace("\nstep 300\n", "\nstep 299\n")).tobytes().hex()
    bad = str(tmp_path / "bad.npz")
    open(bad, "w").write(raw.replace(hexed, edited))
    with pytest.raises(slpi.SlpiError, match=r"bad.npz:[0-9]+: section array.stepper \(lines [0-9-]+\) differs from "
                                             r"its digest: an edited file"):
        slpi.run(None, resume=bad, **KW)
    data["stepper"] = np.array(text.replace("\nstep 300\n", "\nstep 299\n"))
    _ckpt.write(bad, (_run_state.FORMAT, _run_state.VERSION), meta, data)
    with pytest.raises(slpi.SlpiError, match="checkpoint:2: section counts .* differs from its digest"):
        slpi.run(None, resume=bad, **KW)
    # text after a NUL that follows the whole text: C would read only up to the NUL and
    # accept the rest unread (a NUL at the very end numpy drops: the file holds the text)
    data["stepper"] = np.array(text + "\0step 299\n")
    _ckpt.write(bad, (_run_state.FORMAT, _run_state.VERSION), meta, data)
    with pytest.raises(slpi.SlpiError, match="holds a NUL character"):
        slpi.run(None, resume=bad, **KW)
    open(bad, "w").write("not a checkpoint")
    with pytest.raises(slpi.SlpiError, match="bad.npz:1: not a checkpoint: its first line is 'not a checkpoint', "
                                             "expected '# slpi-python-run-checkpoint 3'"):
        slpi.run(None, resume=bad, **KW)
    with pytest.raises(slpi.SlpiError, match="checkpoint_every=5: needs checkpoint"):
        slpi.run(None, checkpoint_every=5, **KW)
    assert not os.path.exists(ck + ".part-%d" % os.getpid())


def test_ctrl_c_keeps_the_steps_taken(tmp_path, monkeypatch):
    """KeyboardInterrupt between two pieces of work (where Ctrl-C lands) writes a
    checkpoint at the step reached, whose resume is the uninterrupted run."""
    import slpi._run as run_module
    ck = str(tmp_path / "r.npz")
    whole = slpi.run(None, **KW)
    real = run_module._advance
    calls = []

    def interrupted(st, *args, **kw):
        rows = real(st, *args, **kw)
        calls.append(rows)
        if len(calls) == 3:   # the initial row, then two pieces of 40 steps
            raise KeyboardInterrupt
        return rows
    monkeypatch.setattr(run_module, "_advance", interrupted)
    with pytest.raises(KeyboardInterrupt):
        slpi.run(None, checkpoint=ck, checkpoint_every=40, **KW)
    monkeypatch.setattr(run_module, "_advance", real)
    meta, z = load(ck)
    assert meta["step"] == 80 and meta["rows"] == 1 + 80 // 7 == len(z["x"])
    same(whole, slpi.run(None, resume=ck, **KW))


def _other_version(ck):
    """ck with the next version of its format in its first line (the digests renewed)."""
    raw = open(ck).read().split("\n", 1)
    head = raw[0].rsplit(" ", 1)
    open(ck, "w").write("%s %d\n%s" % (head[0], int(head[1]) + 1, raw[1]))


def _old_npz(ck, form):
    """An .npz checkpoint as slpi wrote before the container (format version 2)."""
    np.savez(ck, meta=np.array(json.dumps(dict(format=form, version=2))), x=np.zeros(3))
    os.replace(ck + ".npz", ck)


def test_resume_refuses_another_format_version(tmp_path):
    """Another version of a format, the other Python format, and an .npz checkpoint of an
    earlier slpi (version 2) are refused naming the version and how to go on."""
    ck, eck = str(tmp_path / "r.ck"), str(tmp_path / "e.ck")
    slpi.run(None, checkpoint=ck, checkpoint_every=100, **KW)
    slpi.ensemble("iso/rigid-body/trajectories", paths=8, steps=4, checkpoint=eck, checkpoint_every=4)
    with pytest.raises(slpi.SlpiError, match="e.ck:1: not a checkpoint of format slpi-python-run-checkpoint: its "
                                             "first line names slpi-python-ensemble-checkpoint"):
        slpi.run(None, resume=eck, **KW)
    _other_version(ck)
    _other_version(eck)
    with pytest.raises(slpi.SlpiError, match="r.ck:1: slpi-python-run-checkpoint version 4: this slpi reads version 3 "
                                             "only; start again without resuming"):
        slpi.run(None, resume=ck, **KW)
    with pytest.raises(slpi.SlpiError, match="slpi-python-ensemble-checkpoint version 4: this slpi reads version 3"):
        slpi.ensemble("iso/rigid-body/trajectories", paths=8, steps=4, resume=eck)
    _old_npz(ck, _run_state.FORMAT)
    with pytest.raises(slpi.SlpiError, match=r"a checkpoint of an earlier slpi \(slpi-python-run-checkpoint version 2, "
                                             r"an .npz file\): this slpi reads slpi-python-run-checkpoint version 3 "
                                             r"only; start again without resume") as e:
        slpi.run(None, resume=ck, **KW)
    assert e.value.code == 2 and e.value.argument == "resume"
    _old_npz(eck, _ens_state.FORMAT)
    with pytest.raises(slpi.SlpiError, match="earlier slpi .slpi-python-ensemble-checkpoint version 2"):
        slpi.ensemble("iso/rigid-body/trajectories", paths=8, steps=4, resume=eck)


def test_resume_refuses_other_increments(tmp_path):
    """A run on given increments resumed with others (one value of one late row, or the
    same values as float32) is refused naming dW: else its rows before the checkpoint
    would be of one noise and those after of another, a wrong result."""
    ck = str(tmp_path / "r.npz")
    dW = np.random.default_rng(11).normal(0, 0.06, (300, 3))
    stop_at.h = slpi.run(None, **KW).summary["h"]
    with pytest.raises(Stop):
        slpi.run(None, dW=dW, observer=stop_at(150), checkpoint=ck, checkpoint_every=50, **KW)
    other = dW.copy()
    other[299, 2] += 1e-3
    for wrong in (other, dW.astype(np.float32)):
        with pytest.raises(slpi.SlpiError, match="the checkpoint is of another run: its dW is '[0-9a-f]{64}'") as e:
            slpi.run(None, dW=wrong, resume=ck, **KW)
        assert e.value.argument == "resume"
    with pytest.raises(slpi.SlpiError, match="its dW is '[0-9a-f]{64}', this call's None"):
        slpi.run(None, resume=ck, **KW)
    assert slpi.run(None, dW=dW, resume=ck, **KW).states.tobytes() == slpi.run(None, dW=dW, **KW).states.tobytes()


def test_resume_refuses_another_product(tmp_path):
    """the complex product of the su(N) kernels (docs/install.md#products) moves the last
    bits, so the checkpoint records the one its run formed and a process that forms the
    other refuses it; the choice is settled once per process, so each side is a child."""
    import subprocess
    import sys
    ck = str(tmp_path / "z.npz")
    code = ("import slpi, sys\n"
            "kw = dict(system='euler-zeitlin', N=8, noise='none', steps=40)\n"
            "try:\n"
            "    if sys.argv[2] == 'save':\n"
            "        slpi.run(None, checkpoint=sys.argv[1], checkpoint_every=10, **kw)\n"
            "    else:\n"
            "        slpi.run(None, resume=sys.argv[1], **kw)\n"
            "    print('ok')\n"
            "except slpi.SlpiError as e:\n"
            "    print(e)\n")

    def child(product, what):
        env = dict(os.environ, SLPI_ZPRODUCT=product)
        return subprocess.run([sys.executable, "-c", code, ck, what], env=env, capture_output=True, text=True,
                              check=True).stdout.strip()
    assert child("zgemm3m", "save") == "ok"
    assert child("zgemm3m", "resume") == "ok"
    out = child("zgemm", "resume")
    assert "its products were formed with zgemm3m, and this process forms them with zgemm" in out, out
