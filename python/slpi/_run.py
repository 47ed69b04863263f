"""slpi._run — ``slpi.run``: a problem stepped on the fast or the certified path into numpy
arrays (a C stepper, slpi_stepper_*, advanced in pieces of about 0.05 s so that Ctrl-C is
answered and the pieces resume exactly), its ``Result``, observers and progress. Imported
by ``slpi/__init__.py`` after its helpers; use it as ``slpi.run``."""

import sys
import time
from dataclasses import dataclass, field

import numpy as np

from slpi._native import ffi as _ffi, lib as _lib
from slpi import _overrides, _run_state, _stop, _stream
# the helpers of slpi/__init__.py, defined before it imports this module
from slpi import (
    Problem, SlpiError, _check, _flag, _guard_memory, _integer, _keep_lost, _keys_of, _problem, _ptr,
    _raise_callback_error, _real_array, _row_steps)


class _Stepper:
    """A C stepper (slpi_stepper_*), freed with its Python object."""

    def __init__(self, pr, ref, x0):
        self.pr = pr   # its callbacks live as long as the stepper
        out = _ffi.new("slpi_stepper **")
        _check(_lib.slpi_stepper_new(out, pr._p, 1 if ref else 0, _ptr(x0), 0 if x0 is None else len(x0)))
        self.s = _ffi.gc(out[0], _lib.slpi_stepper_free)
        dim, m, nd = _ffi.new("int *"), _ffi.new("int *"), _ffi.new("int *")
        steps, h = _ffi.new("long *"), _ffi.new("double *")
        _lib.slpi_stepper_shape(self.s, dim, m, nd, steps, h)
        self.dim, self.M, self.ndiag, self.steps, self.h = dim[0], m[0], nd[0], steps[0], h[0]
        self.diag_names = [_ffi.string(_lib.slpi_stepper_diag_name(self.s, i)).decode() for i in range(self.ndiag)]

    def counts(self):
        c = _ffi.new("long[7]")
        _lib.slpi_stepper_counts(self.s, c)
        return dict(zip(("steps", "iterations", "max_iterations", "stagnated", "capped", "clipped", "max_prec"), c))


class _Progress:
    """progress=True: tqdm where installed, else one line on standard error."""

    def __init__(self, on, total, what):
        self.bar, self.on, self.total, self.what, self.done, self.last = None, on, total, what, 0, 0.0
        if on:
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=total, desc="slpi " + what, unit="step")
            except ImportError:
                pass

    def add(self, n):
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        elif self.on and (time.monotonic() - self.last > 0.25 or self.done == self.total):
            self.last = time.monotonic()
            sys.stderr.write("\rslpi %s: %d/%d (%.0f%%)" % (self.what, self.done, self.total,
                                                          100.0 * self.done / max(self.total, 1)))
            sys.stderr.flush()

    def close(self):
        if self.bar is not None:
            self.bar.close()
        elif self.on:
            sys.stderr.write("\n")


# Wall time of one piece of work between returns to Python (Ctrl-C is seen between
# pieces), and the steps of the first piece (later ones are sized from its time).
_PIECE_SECONDS = 0.05
_FIRST_PIECE = 16


def _advance(st, steps, every, dW, out, row0, progress, include_initial, kept=(None, False), stream=None):
    """Advance st by `steps` steps in pieces, writing rows from row0 into out (dict of
    arrays: x, xrad, diag, drad, iters, resid; any may be None); every = 0: the problem's
    output grid. Returns rows written; fewer steps than asked when an observer stopped
    it (kept, the observer's: [exception or None, stopped]; also at a piece's last step,
    where slpi_stepper_position alone cannot tell)."""
    row = row0
    if include_initial:
        _lib.slpi_stepper_row(st.s, _ptr(out["x"][row]), _ptr(None if out["xrad"] is None else out["xrad"][row]),
                              _ptr(None if out["diag"] is None else out["diag"][row]),
                              _ptr(None if out["drad"] is None else out["drad"][row]))
        row += 1
        if stream is not None:
            stream.start(out, row)
    done, piece, base = 0, _FIRST_PIECE, _lib.slpi_stepper_position(st.s)
    rows = _ffi.new("long *")
    while done < steps:
        n = min(piece, steps - done)
        t0 = time.perf_counter()
        cut = (lambda a: _ptr(None) if a is None else _ptr(a[row:]))
        it = out.get("iters")
        rc = _lib.slpi_stepper_advance(
            st.s, n, _ptr(None) if dW is None else _ptr(dW[done:done + n]), every, cut(out["x"]), cut(out["xrad"]),
            cut(out["diag"]), cut(out["drad"]),
            _ffi.NULL if it is None else _ffi.cast("int *", _ffi.from_buffer(it[row:])),
            cut(out.get("resid")), rows)
        row += rows[0]
        if stream is not None:
            stream.rows(out, row)   # the rows of this piece, synced: readable now, whole after a kill
        _raise_callback_error(st.pr)
        _check(rc)
        progress.add(_lib.slpi_stepper_position(st.s) - base - done)
        if _lib.slpi_stepper_position(st.s) < base + done + n or kept[0] is not None or kept[1]:   # an observer stopped it
            break
        done += n
        dt = time.perf_counter() - t0
        piece = max(1, min(4 * piece, int(piece * _PIECE_SECONDS / dt) if dt > 0 else 4 * piece))
    return row - row0


@dataclass
class Result:
    """One run (``slpi.run``): rows at step 0, every ``output_every``-th step and the last.

    Attributes
    ----------
    t, step : ndarray (rows,)
        Times and step numbers of the rows.
    states : ndarray (rows, dim)
        The states (the ball midpoints when ``ref=True``).
    radii : ndarray (rows, dim) or None
        ``ref=True``: every exact state coordinate lies within ``radii`` of ``states``.
    labels : list of str
        Names of the state coordinates.
    diagnostics : dict of str to ndarray (rows,)
        Energy (``H0``), Casimirs, their departures from step 0, eigenvalue departures
        and the fast path's solver counters, as ``slpi run`` writes them.
    diagnostic_radii : dict or None
        ``ref=True``: radii of the diagnostics.
    uncertified : str or None
        ``"callback H,..."`` when Hamiltonians were given as code (``Callback``): no
        certified path can check this run. None otherwise.
    problem : dict of str to str
        Every key of the problem, as the header of ``slpi run`` writes them.
    overridden : dict of str to str
        The keys of ``problem`` that did not act, each with what overrode it (``dW``
        the noise's seed, ``x0`` the problem's x0; slpi/_overrides.py); ``slpi.save``
        records them as the attribute ``overridden``.
    iterations, residual : ndarray (rows,)
        The solver iterations and final residual of each row's step.
    summary : dict
        Counts over the run: steps, iterations, max_iterations, stagnated, capped,
        clipped, max_prec (certified path); and h, noises, output_every, path ("fast"/"ref"),
        rows_planned (the rows of the whole grid: more than ``len(t)`` when stopped).
    """
    t: np.ndarray
    step: np.ndarray
    states: np.ndarray
    labels: list
    diagnostics: dict
    iterations: np.ndarray
    residual: np.ndarray
    summary: dict = field(default_factory=dict)
    radii: np.ndarray = None
    diagnostic_radii: dict = None
    uncertified: str = None
    problem: dict = None
    overridden: dict = None

    @property
    def energy(self):
        """The energy H0 at each row (None if the system names none)."""
        return self.diagnostics.get("H0")


_OBSERVER_T = "int(void *, long, double, const double *, int)"


def _observer(fn, dim, kept):
    """The C observer of the Python callable fn(t, x) (a truthy return stops the run); an
    exception it raises is kept in kept[0] and stops the run."""
    def call(_, step, t, x, n):
        try:
            if fn(t, np.frombuffer(_ffi.buffer(x, 8 * n), dtype=np.float64).copy()):
                kept[1] = True
                return 1
            return 0
        except BaseException as e:   # KeyboardInterrupt included: raised after the advance
            kept[0] = e
            return 1
    # one that escapes call (Ctrl-C at its entry) stops the run too, kept by the hook
    return _ffi.callback(_OBSERVER_T, call, error=1, onerror=_keep_lost(kept))


def run(problem=None, *, dW=None, x0=None, ref=False, output_every=None, save_at=None, observer=None,
        progress=False, max_memory=None, checkpoint=None, checkpoint_every=None, resume=None, stream=None, **keys):
    """Integrate one path: the fast path (doubles) or the certified path (``ref=True``).

    Parameters
    ----------
    problem : str, Problem or None
        A preset name, a Problem, or None (the rigid body with ISOMP).
    dW : array_like (steps, M), optional
        Wiener increments of each step (clipped at the problem's truncation threshold,
        as a noise file's are); default: the problem's canonical noise. Without
        ``steps``, ``T`` or ``level`` among the keys, the run has ``len(dW)`` steps.
        Not with ``noise_tau`` or ``noise_file``, which colour or replace the canonical
        noise that dW replaces (SlpiError); the noise's seed, path and refine are
        recorded as ``overridden``.
    x0 : array_like (dim,), optional
        The initial state, any size, in the state layout of ``slpi.h`` (``pack_su`` for
        su(N)); on the system's manifold within 1e-10.
    ref : bool
        The certified path: ``states`` are ball midpoints and ``radii`` bound the
        distance to the exact discrete result. The balls propagate in mean-value
        (Lohner) form wherever it applies (ISOMP with update=comm, states of at most 64
        entries; the key ``propagation``, default ``"auto"``): the rigid-body preset
        certifies its whole horizon of 12 800 steps, where plain balls
        (``propagation="ball"``) give up at step 5360. An UNABLE error names the key
        to set.
    output_every : int, optional
        Keep every k-th step (and the last); default: the problem's ``output_every``.
    save_at : array_like of float, optional
        Keep the rows at these increasing times instead (the initial row always; a time
        0 adds none), as diffrax's ``SaveAt(ts=...)``. Each must lie on the step grid
        t = n h; a time off it raises SlpiError naming the grid times nearest it. The key
        ``save_at`` of the command line.
    observer : callable, optional
        ``observer(t, x)`` after every step, with the time and a copy of the state (the
        certified path: its midpoints); a truthy return stops the run there, cleanly:
        the result holds the rows up to that step (those of the uninterrupted run) and
        ``summary["stopped_at"]`` its step. An exception it raises stops the run and is
        raised. Without one, the C loop tests one pointer per step.
    progress : bool
        Show progress (tqdm where installed, else a line on standard error).
    max_memory : int, optional
        Bytes the result may take; default: the memory available now.
    checkpoint, checkpoint_every, resume : optional
        Write the stepper's state and the rows so far to the file ``checkpoint``
        (atomically; docs/design.md#checkpoints) every ``checkpoint_every`` steps (default: only at the end),
        at the end, and when Ctrl-C, SIGTERM or the observer stops the call; ``resume``: continue
        from such a file (it may be ``checkpoint``), given the same problem, ``ref``, ``x0``
        and ``dW``: the Result is the uninterrupted call's, bit for bit
        (slpi/_run_state.py). A failing step keeps the last checkpoint.
    stream : str, optional
        A new NetCDF file (classic CDF-5 format) the rows are appended to as they are computed,
        synced after each piece of work: readable while the run goes on, and whole up to
        its last piece after a kill; Ctrl-C is held while a piece is written, so every
        record is whole (slpi/_stream.py). With ``checkpoint``, the stream holds every
        row a checkpoint holds; with ``resume``, the stopped run's stream is continued
        (refused, SlpiError, when it is another run's or its rows differ from the
        checkpoint's): the file is then the uninterrupted run's, bit for bit.
    **keys
        More problem settings (``slpi list --keys``).

    Returns
    -------
    Result

    Raises
    ------
    SlpiError
        Bad input (code 2, naming the argument and value), a result larger than the
        memory, or a failing step (code 3, naming the step and residual).
    KeyboardInterrupt
        On Ctrl-C, within about 0.05 s of work (one step at least); nothing is returned
        (with ``checkpoint``, the file holds the steps taken).
    Terminated
        On SIGTERM, after keeping what Ctrl-C keeps: a SystemExit of code 130 (uncaught,
        Python exits with status 130, as ``slpi run``) and a KeyboardInterrupt
        (slpi/_stop.py).

    Examples
    --------
    >>> r = slpi.run("iso/rigid-body/trajectories", steps=8, ref=True)
    >>> bool((r.radii < 1e-15).all()), r.summary["steps"]
    (True, 8)
    >>> dW = 0.01 * np.ones((4, 3))
    >>> slpi.run("iso/rigid-body/trajectories", dW=dW, truncate="off").states.shape
    (5, 3)
    >>> slpi.run("iso/rigid-body/trajectories", steps=64, save_at=[0.125, 0.25]).t
    array([0.   , 0.125, 0.25 ])
    >>> r = slpi.run("iso/rigid-body/trajectories", steps=64, observer=lambda t, x: t >= 0.1)
    >>> r.summary["stopped_at"], float(r.t[-1])
    (26, 0.1015625)
    """
    ref, progress = _flag("ref", ref), _flag("progress", progress)
    if dW is not None:
        dW = _real_array("dW", dW, 2)
        if not any(k in keys for k in ("steps", "T", "level")) and not (
                isinstance(problem, Problem) and any(k in problem.keys for k in ("steps", "T", "level"))):
            keys["steps"] = len(dW)
    if output_every is not None:
        keys["output_every"] = _integer("output_every", output_every, 1)
    if save_at is not None:
        keys["save_at"] = _real_array("save_at", save_at, 1)
    if observer is not None and not callable(observer):
        raise SlpiError(2, "observer: %s is not callable: need observer(t, x)" % type(observer).__name__,
                        "observer", observer)
    make_ck = _run_state.options(checkpoint, checkpoint_every, resume)
    pr = _problem(problem, keys)
    problem_keys = _keys_of(pr)
    if dW is not None:
        _overrides.refuse_with_dW(problem_keys)
    over = _overrides.overridden(problem_keys, dW is not None, x0 is not None)
    dim, M, steps, h, every = pr.dim, pr.noises, pr.steps, pr.h, pr.output_every
    if dW is not None and dW.shape != (steps, M):
        raise SlpiError(2, "dW: shape %s: the problem needs (steps, M) = (%d, %d)" % (dW.shape, steps, M),
                        "dW", dW.shape)
    if x0 is not None:
        x0 = _real_array("x0", x0, 1)
        if len(x0) != dim:
            raise SlpiError(2, "x0: %d values given, the state has %d" % (len(x0), dim), "x0", len(x0))
    rows = pr._resolved()["rows"]
    _guard_memory(rows * 8.0 * (dim * (2 if ref else 1) + 2), "run: %d rows" % rows, max_memory)
    st = _Stepper(pr, ref, x0)
    kept = [None, False]
    if observer is not None:
        st.observer = _observer(observer, dim, kept)   # lives as long as the stepper
        _lib.slpi_stepper_set_observer(st.s, st.observer, _ffi.NULL)
    _guard_memory(rows * 8.0 * ((dim + st.ndiag) * (2 if ref else 1) + 2), "run: %d rows" % rows, max_memory)
    out = dict(x=np.empty((rows, dim)), xrad=np.empty((rows, dim)) if ref else None,
               diag=np.empty((rows, st.ndiag)), drad=np.empty((rows, st.ndiag)) if ref else None,
               iters=np.zeros(rows, dtype=np.intc), resid=np.zeros(rows))
    pg = _Progress(progress, steps, "run" + (" (certified)" if ref else ""))
    n = _row_steps(lambda p: _lib.slpi_stepper_row_steps(st.s, 0, p), rows)
    try:
        with _stop.Stops():   # SIGTERM stops as Ctrl-C does, keeping the same (slpi/_stop.py)
            ck = None if make_ck is None else make_ck(pr.text(), ref, x0, dW)
            sm = _stream.open_stream(stream, pr, pr.labels, st.diag_names, ref, n, h, ck and ck.resume, over)
            try:
                if ck is None:
                    kept_rows = _advance(st, steps, 0, dW, out, 0, pg, True, kept, sm)
                else:
                    kept_rows = _run_state.advance(ck, st, steps, dW, out, n, pg, kept, _advance, sm)
            finally:
                if sm is not None:
                    sm.close()
    finally:
        pg.close()
    if kept[0] is not None:
        raise kept[0]
    n = n[:kept_rows]
    stopped = _lib.slpi_stepper_position(st.s)
    out = {k: None if v is None else v[:kept_rows] for k, v in out.items()}
    summary = st.counts()
    summary.update(noises=M, h=h, output_every=every, path="ref" if ref else "fast",
                   stopped_at=stopped if stopped < steps else None, rows_planned=rows)
    res = Result(t=n * h, step=n, states=out["x"], labels=pr.labels,
                 diagnostics={k: out["diag"][:, i] for i, k in enumerate(st.diag_names)},
                 iterations=out["iters"], residual=out["resid"], summary=summary, radii=out["xrad"],
                 diagnostic_radii=None if not ref else {k: out["drad"][:, i] for i, k in enumerate(st.diag_names)},
                 uncertified=pr.uncertified, problem=problem_keys, overridden=over)
    # what write_trajectory needs for `slpi verify`: the problem, when it alone made the run
    res._problem_text = pr.text() if dW is None and x0 is None else None
    return res
