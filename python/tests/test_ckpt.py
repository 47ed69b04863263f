"""The Python checkpoints in the one container of every checkpoint (slpi/_ckpt.py over
slpi/container.h, core/container.c): every edit or cut of a run's or an ensemble's
checkpoint is refused with SlpiError (code 2, argument ``resume``) naming the section
that differs (the array, the meta), where a check of shapes alone resumed edited,
float32 and NaN rows into a wrong result and a cut file raised BadZipFile. Each case
edits the file as an editor would (its digests left as they were); the untouched file
still resumes into the uninterrupted call's bits. And the container is built once: a
checkpoint of `slpi run` reads through the Python binding section by section, and an
edited or cut one is refused with the very message `slpi run --resume` prints."""
import json
import os
import re
import subprocess

import numpy as np
import pytest

import slpi
from slpi import _ckpt, _ens_state, _run_state

KW = dict(steps=300, output_every=7, trunc_ell=0.05)
P = "iso/rigid-body/trajectories"
EKW = dict(paths=600, steps=12, save_every=4, stats=True, diagnostics=True, trunc_ell=0.3)
RUN = (_run_state.FORMAT, _run_state.VERSION)
ENS = (_ens_state.FORMAT, _ens_state.VERSION)


class Stop(Exception):
    pass


def edited(path, out, form, name, change):
    """out: path with section name's lines replaced by change(lines), in place: its
    section line (count and digest) as it was."""
    raw = open(path).read()
    old = _ckpt.sections(path, form)[name]
    at = raw.index("\n", raw.index("\nsection %s " % name) + 1) + 1
    assert raw[at:at + len(old)] == old
    open(out, "w").write(raw[:at] + change(old) + raw[at + len(old):])
    return out


def array(name, fn):
    """An edit of section array.NAME: its array as fn leaves it."""
    return "array." + name, lambda t: _ckpt._array_text(fn(_ckpt._array(name, t)))


def meta(key, value):
    def change(t):
        m = json.loads(t)
        m[key] = value
        return json.dumps(m, sort_keys=True) + "\n"
    return "meta", change


def row_nan(a):
    a = a.copy()
    a[len(a) // 2] = np.nan
    return a


def bump(a):
    a = a.copy()
    a.flat[a.size // 2] += 1e-9 if a.dtype.kind == "f" else 1
    return a


def cuts(path, tmp_path):
    """path cut at several lengths (the middle, its last byte, inside its first line, empty)."""
    raw = open(path, "rb").read()
    for n in (len(raw) // 2, len(raw) - 1, 22, 0):
        f = tmp_path / ("cut-%d.ck" % n)
        f.write_bytes(raw[:n])
        yield str(f)


def section_of(path, n):
    """The name of the section whose lines hold byte n of path (None: another line)."""
    raw = open(path).read()
    for m in re.finditer(r"^section (\S+) \d+ [0-9a-f]{16}\n", raw, re.M):
        body = m.end()
        size = len(_ckpt.sections(path, RUN if "run" in raw[:40] else ENS)[m.group(1)])
        if body <= n < body + size:
            return m.group(1)
    return None


def check_cuts(ck, tmp_path, resume):
    for bad in cuts(ck, tmp_path):
        n = os.path.getsize(bad)
        s = section_of(ck, n)
        want = ("an empty file" if n == 0 else "a cut file: section %s holds" % re.escape(s) if s
                else "a cut file")
        with pytest.raises(slpi.SlpiError, match=want) as e:
            resume(bad)
        assert e.value.code == 2 and e.value.argument == "resume", n


RUN_EDITS = [
    ("an edited x value", array("x", bump)),
    ("x as float32", array("x", lambda a: a.astype(np.float32))),
    ("a NaN x row", array("x", row_nan)),
    ("a NaN diagnostics row", array("diag", row_nan)),
    ("an edited iteration count", array("iters", bump)),
    ("iterations as int64", array("iters", lambda a: a.astype(np.int64))),
    ("an edited residual", array("resid", bump)),
    ("a row dropped", array("x", lambda a: a[:-1])),
    ("an edited stepper", array("stepper", lambda a: np.array(str(a).replace("step 150", "step 149")))),
    ("the step edited", meta("step", 149)),
    ("the rows edited", meta("rows", 21)),
    ("the problem edited", meta("problem", "x")),
    ("the x0 digest edited", meta("x0", "0" * 64)),
]


def test_run_checkpoint_edits_and_cuts_refused(tmp_path):
    ck = str(tmp_path / "r.ck")
    whole = slpi.run(None, **KW)
    h = whole.summary["h"]

    def stop(t, x):
        if t >= 150 * h - 1e-12:
            raise Stop()
    with pytest.raises(Stop):
        slpi.run(None, observer=stop, checkpoint=ck, checkpoint_every=60, **KW)
    m, data = _ckpt.read(ck, RUN, "run")
    assert data["x"].shape == (22, 3) and "step 150" in str(data["stepper"]) and m["step"] == 150
    for what, (name, change) in RUN_EDITS:
        bad = edited(ck, str(tmp_path / "bad.ck"), RUN, name, change)
        with pytest.raises(slpi.SlpiError, match=r"bad.ck:[0-9]+: section %s \(lines [0-9]+-[0-9]+\) differs from "
                                                 r"its digest: an edited file" % re.escape(name)) as e:
            slpi.run(None, resume=bad, **KW)
        assert e.value.code == 2 and e.value.argument == "resume", what
    # an array removed or added whole (with its section line): the end digest
    raw = open(ck).read()
    i = raw.index("\nsection array.resid ") + 1
    j = raw.index("\nsection ", i + 1) + 1 if "\nsection " in raw[i + 1:] else raw.index("\nend ") + 1
    for what, text in (("removed", raw[:i] + raw[j:]), ("added", raw[:j] + raw[i:j].replace("resid", "resie") + raw[j:])):
        open(str(tmp_path / "bad.ck"), "w").write(text)
        with pytest.raises(slpi.SlpiError, match="the end digest differs: its first line or a section line was edited"):
            slpi.run(None, resume=str(tmp_path / "bad.ck"), **KW)
    check_cuts(ck, tmp_path, lambda bad: slpi.run(None, resume=bad, **KW))
    again = slpi.run(None, resume=ck, **KW)   # the file as written: the uninterrupted run
    for k in ("t", "states", "iterations", "residual"):
        assert getattr(again, k).tobytes() == getattr(whole, k).tobytes(), k
    assert all(again.diagnostics[k].tobytes() == whole.diagnostics[k].tobytes() for k in whole.diagnostics)
    assert again.summary == whole.summary


ENS_EDITS = [
    ("a NaN statistics state", array("state", row_nan)),
    ("an edited states row", array("states", bump)),
    ("a NaN diagnostics row", array("diagnostics", row_nan)),
    ("states as float32", array("states", lambda a: a.astype(np.float32))),
    ("the clipped count edited", meta("clipped", 0)),
    ("the paths done edited", meta("done", 256)),
    ("the inputs' digest edited", meta("inputs", None)),
]


def test_ensemble_checkpoint_edits_cuts_and_inputs_refused(tmp_path):
    ck = str(tmp_path / "e.ck")
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
    assert _ckpt.read(ck, ENS, "ensemble")[1]["states"].shape[0] == 512
    for what, (name, change) in ENS_EDITS:
        bad = edited(ck, str(tmp_path / "bad.ck"), ENS, name, change)
        with pytest.raises(slpi.SlpiError, match=r"bad.ck:[0-9]+: section %s \(lines [0-9-]+\) differs from its "
                                                 r"digest" % re.escape(name)) as e:
            slpi.ensemble(P, x0=x0, dW=dW, resume=bad, **EKW)
        assert e.value.code == 2 and e.value.argument == "resume", what
    check_cuts(ck, tmp_path, lambda bad: slpi.ensemble(P, x0=x0, dW=dW, resume=bad, **EKW))
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


def test_one_container_for_c_and_python(tmp_path):
    """A checkpoint of `slpi run` reads through the Python binding, section by section;
    edited or cut, the binding refuses it with the message of `slpi run --resume`, word
    for word: one reader. A Python checkpoint has the same shape: the first line, then
    sections, then the end line."""
    binary = os.environ.get("SLPI_BIN", "build/slpi")
    ck, out = str(tmp_path / "c.ck"), str(tmp_path / "o.tsv")
    args = [binary, "run", "--preset", P, "--steps", "100", "-q", "-o", out]
    subprocess.run(args + ["--checkpoint", ck, "--checkpoint-every", "30"], check=True)
    secs = _ckpt.sections(ck, ("slpi-checkpoint", 2))
    assert list(secs) == ["counts", "noise", "diagnostics", "problem", "state"]
    assert "step 90\n" in secs["counts"] and secs["problem"].startswith("problem_lines ")
    bad = str(tmp_path / "bad.ck")
    raw = open(ck).read()
    for text in (raw.replace("\nstep 90\n", "\nstep 60\n"), raw[:len(raw) // 2], raw[:10], ""):
        open(bad, "w").write(text)
        p = subprocess.run(args + ["--resume", bad], capture_output=True, text=True)
        with pytest.raises(slpi.SlpiError) as e:
            _ckpt.sections(bad, ("slpi-checkpoint", 2))
        assert p.returncode == 2 and p.stderr.strip() == "slpi run: " + str(e.value).split(": ", 1)[1], p.stderr
    py = str(tmp_path / "p.ck")
    slpi.run(None, checkpoint=py, **KW)
    lines = open(py).read().split("\n")
    assert lines[0] == "# slpi-python-run-checkpoint 3" and re.fullmatch("end [0-9a-f]{16}", lines[-2])
    names = [ln.split()[1] for ln in lines if ln.startswith("section ")]
    assert names == ["meta"] + ["array." + k for k in ("diag", "iters", "resid", "stepper", "x")]


def test_sections_takes_any_file_name(tmp_path):
    """The reader takes a file name as every other argument does: a pathlib.Path reads
    as its text would, and a name holding NUL (C would read only the text before it) is
    a SlpiError naming resume, not a ValueError from open()."""
    ck = tmp_path / "p.ck"
    slpi.run(None, checkpoint=str(ck), **KW)
    form = ("slpi-python-run-checkpoint", 3)
    assert _ckpt.sections(ck, form) == _ckpt.sections(str(ck), form)
    with pytest.raises(slpi.SlpiError, match="resume=.*NUL"):
        _ckpt.sections(str(ck) + "\0x", form)
