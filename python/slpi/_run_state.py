"""slpi._run_state — what of ``slpi.run`` outlives one call: checkpoints
(``run(checkpoint=..., checkpoint_every=..., resume=...)``), as slpi/_ens_state.py is for
``slpi.ensemble``.

A checkpoint is a file in the one container of every slpi checkpoint (slpi/_ckpt.py:
its sections, their digests and what a resume refuses), format
``slpi-python-run-checkpoint`` 3, written every ``checkpoint_every`` steps, at the end, and when the call
is stopped by Ctrl-C or by an exception of its observer (at the last step taken: the
stepper stands between two steps there). A step that fails (SlpiError, code 3) leaves
the last one. It holds

- ``meta``: the problem's text (every key, ``slpi run``'s header), ref, the SHA-256 of
  x0 and of dW as given (or None), the step reached and the number of rows kept;
- ``stepper``: the C stepper's checkpoint (slpi_stepper_save: its state, solver
  counters, warm start, OU state and counts; api/stepper-state.c), which a resume loads
  into a fresh stepper (slpi_stepper_load refuses one of another problem, noise path or
  initial state, or an edited one);
- the rows kept so far: ``x``, ``diag``, ``iters``, ``resid`` and, with ``ref=True``,
  ``xrad``, ``drad``.

A step's increments depend only on its number, so a resumed call given the same
arguments returns the uninterrupted call's Result bit for bit: rows, diagnostics,
iterations, residuals and summary."""
import numpy as np

import slpi as _slpi
from slpi import _ckpt
from slpi._native import ffi as _ffi, lib as _lib

FORMAT, VERSION = "slpi-python-run-checkpoint", 3
_ROWS = ("x", "xrad", "diag", "drad", "iters", "resid")


def _digest(a):
    return None if a is None else _ckpt.digest(np.asarray(a, dtype=np.float64))


class Checkpoint:
    """The checkpoint of one run call: its file, cadence, and the call it belongs to."""

    def __init__(self, path, every, resume, call):
        self.path, self.every, self.resume, self.call = path, every, resume, call

    def restore(self, st, out):
        """Load the resumed checkpoint into the stepper st and its rows into out; returns
        the rows restored (0 without resume)."""
        if self.resume is None:
            return 0
        meta, data = _ckpt.read(self.resume, (FORMAT, VERSION), "run")
        _ckpt.check_call(meta, self.call, self.resume, "run")
        text, rows = str(data.get("stepper")), int(meta["rows"])
        for k, a in out.items():
            if a is not None and (k not in data or data[k].shape != (rows,) + a.shape[1:] or data[k].dtype != a.dtype):
                raise _slpi._bad("resume", self.resume, "its %s are not %d rows of %s" % (k, rows, a.dtype))
        if "\0" in text:   # C would read the text only up to it: a cut checkpoint accepted
            raise _slpi._bad("resume", self.resume, "its stepper text holds a NUL character (an edited or binary file)")
        if _lib.slpi_stepper_load(st.s, text.encode()) != 0:
            raise _slpi._bad("resume", self.resume, _ffi.string(_lib.slpi_api_last_error()).decode())
        if _lib.slpi_stepper_position(st.s) != int(meta["step"]):
            raise _slpi._bad("resume", self.resume, "its stepper stands at step %d, its header says %d" % (
                _lib.slpi_stepper_position(st.s), int(meta["step"])))
        for k, a in out.items():
            if a is not None:
                a[:rows] = data[k]
        return rows

    def save(self, st, out, rows):
        """Write the checkpoint of the stepper st and the first `rows` rows of out."""
        if self.path is None:
            return
        n = _lib.slpi_stepper_save(st.s, _ffi.NULL, 0)
        buf = _ffi.new("char[]", max(n, 0) + 1)
        if n < 0 or _lib.slpi_stepper_save(st.s, buf, n + 1) != n:
            raise _slpi.SlpiError(2, "checkpoint: %s" % _ffi.string(_lib.slpi_api_last_error()).decode(),
                                  "checkpoint", self.path)
        meta = dict(self.call, step=int(_lib.slpi_stepper_position(st.s)), rows=rows)
        data = {k: np.ascontiguousarray(a[:rows]) for k, a in out.items() if a is not None}
        _ckpt.write(self.path, (FORMAT, VERSION), meta, dict(data, stepper=np.array(_ffi.string(buf).decode())))


def options(checkpoint, every, resume):
    """None without checkpoint and resume; else, the arguments checked, a function of the
    call's (problem text, ref, x0, dW) that makes its Checkpoint."""
    if checkpoint is None and resume is None:
        if every is not None:
            raise _slpi._bad("checkpoint_every", every, "needs checkpoint")
        return None
    path = _slpi._path("checkpoint", checkpoint).decode() if checkpoint is not None else None
    res = _slpi._path("resume", resume).decode() if resume is not None else None
    every = _slpi._integer("checkpoint_every", every, 1) if every is not None else None

    def make(text, ref, x0, dW):
        return Checkpoint(path, every, res, dict(problem=text, ref=ref, x0=_digest(x0), dW=_digest(dW)))
    return make


def advance(ck, st, steps, dW, out, row_steps, pg, kept, advance_rows, stream=None):
    """Run st to `steps` (from where a resume left it) through advance_rows (slpi/_run.py's
    _advance) in pieces ending at multiples of ck.every, saving after each, at the end,
    and when Ctrl-C, SIGTERM or the observer stops the call; returns the rows kept. The
    stream (slpi/_stream.py), if any, holds every row a checkpoint holds when it is
    written, so that a resume continues both."""
    rows = ck.restore(st, out)
    done = _lib.slpi_stepper_position(st.s)
    if rows == 0:   # the initial row
        advance_rows(st, 0, 0, None, out, 0, pg, True, kept, stream=stream)
        rows = 1
    elif stream is not None:
        stream.start(out, rows)
    every = ck.every or steps
    try:
        while done < steps:
            n = min(every - done % every, steps - done)
            rows += advance_rows(st, n, 0, None if dW is None else dW[done:], out, rows, pg, False, kept,
                                 stream=stream)
            stopped = _lib.slpi_stepper_position(st.s) < done + n or kept[0] is not None or kept[1]
            done = _lib.slpi_stepper_position(st.s)
            if stopped:
                break
            if done < steps:
                ck.save(st, out, rows)
    except _slpi.SlpiError:
        raise   # a failed step: the last checkpoint stays
    except BaseException:
        # Ctrl-C or SIGTERM between pieces: the rows of the steps taken are written
        rows = int(np.searchsorted(row_steps, _lib.slpi_stepper_position(st.s), side="right"))
        if stream is not None:
            stream.rows(out, rows)
        ck.save(st, out, rows)
        raise
    ck.save(st, out, rows)
    return rows
