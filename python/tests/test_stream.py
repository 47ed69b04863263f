"""Streamed NetCDF (slpi/_stream.py): a run's rows appended to a classic-format (CDF-5) file as
they are computed are readable while the run goes on (opened from its observer: the rows
of every piece done), equal the uninterrupted Result's after the run, and a run killed
by SIGKILL in a subprocess leaves a file that opens whole, holding a prefix of the rows,
bit for bit."""
import os
import signal
import subprocess
import sys

import numpy as np
import pytest

import slpi

netCDF4 = pytest.importorskip("netCDF4")
KW = dict(steps=3000, output_every=3, trunc_ell=0.05)


def rows_of(path):
    with netCDF4.Dataset(path) as ds:
        rows_of.t = ds["time"][:].data.copy()
        return ds["step"][:].data.copy(), ds["state"][:].data.copy(), ds["H0"][:].data.copy(), ds.getncattr("scheme")


def test_readable_while_running_and_the_run_after(tmp_path):
    f = str(tmp_path / "r.nc")
    whole = slpi.run(None, **KW)
    seen = []

    def peek(t, x):
        if len(seen) < 3 and int(round(t / whole.summary["h"])) % 997 == 0:
            seen.append(rows_of(f)[0].size)
    r = slpi.run(None, stream=f, observer=peek, **KW)
    assert seen and all(0 < k < len(whole.t) for k in seen)   # rows on disk, read by another handle mid-run
    step, x, H0, scheme = rows_of(f)
    assert step.tobytes() == whole.step.astype(np.int64).tobytes() and scheme == "isomp"
    assert x.tobytes() == whole.states.tobytes() == r.states.tobytes() and rows_of.t.tobytes() == whole.t.tobytes()
    assert H0.tobytes() == whole.diagnostics["H0"].tobytes()
    with pytest.raises(slpi.SlpiError, match="the file exists"):
        slpi.run(None, stream=f, **KW)


def test_valid_after_a_kill(tmp_path):
    f = str(tmp_path / "k.nc")
    code = ("import os, signal, slpi\n"
            "def die(t, x):\n"
            "    if t > 1500 * 0.00390625: os.kill(os.getpid(), signal.SIGKILL)\n"
            "slpi.run(None, stream=%r, observer=die, **%r)\n" % (f, KW))
    p = subprocess.run([sys.executable, "-c", code], env=dict(os.environ), capture_output=True)
    assert p.returncode == -signal.SIGKILL, p.stderr
    step, x, H0, _ = rows_of(f)
    whole = slpi.run(None, **KW)
    k = step.size
    assert 0 < k < len(whole.t) and step[-1] <= 1501
    assert step.tobytes() == whole.step[:k].astype(np.int64).tobytes()
    assert x.tobytes() == whole.states[:k].tobytes() and H0.tobytes() == whole.diagnostics["H0"][:k].tobytes()


def test_ctrl_c_leaves_whole_rows(tmp_path):
    """Ctrl-C (a real SIGINT) delivered at every line of the piece writer (Stream.rows),
    in its first, second and fifth piece: KeyboardInterrupt is raised, and the file holds
    whole rows only (no fill value in any variable), each the uninterrupted run's, as
    many as the record count says. A trace function sends the signal as the chosen line
    begins, so the moment is exact, not timed."""
    import sys
    from slpi import _stream
    whole = slpi.run(None, **KW)
    code = _stream.Stream._append.__code__
    lines = set()

    def lines_run(frame, event, arg):   # the lines of rows() that a piece runs
        if frame.f_code is code and event == "line":
            lines.add(frame.f_lineno)
        return lines_run if frame.f_code is code else None
    sys.settrace(lines_run)
    try:
        slpi.run(None, stream=str(tmp_path / "lines.nc"), **KW)
    finally:
        sys.settrace(None)
    assert len(lines) >= 5
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        for call in (1, 2, 5):
            for line in sorted(lines):
                f = str(tmp_path / ("c%d-%d.nc" % (call, line)))
                seen = [0]

                def trace(frame, event, arg):
                    if frame.f_code is not code:
                        return None
                    if event == "call":
                        seen[0] += 1
                    elif event == "line" and seen[0] == call and frame.f_lineno == line:
                        os.kill(os.getpid(), signal.SIGINT)
                    return trace
                sys.settrace(trace)
                try:
                    with pytest.raises(KeyboardInterrupt):
                        slpi.run(None, stream=f, **KW)
                finally:
                    sys.settrace(None)
                assert signal.getsignal(signal.SIGINT) is signal.default_int_handler   # given back
                with netCDF4.Dataset(f) as ds:
                    k = len(ds.dimensions["time"])
                    assert k < len(whole.t), (call, line)
                    for name, want in (("step", whole.step.astype(np.int64)), ("time", whole.t),
                                       ("state", whole.states), ("H0", whole.diagnostics["H0"])):
                        got = ds[name][:]
                        assert not np.ma.is_masked(got), "line %d of piece %d: %s holds fill values" % (line, call, name)
                        assert np.asarray(got).tobytes() == want[:k].tobytes(), (call, line, name)
    finally:
        signal.signal(signal.SIGINT, old)
