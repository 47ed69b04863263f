"""Ensembles (``slpi.ensemble``) over libslpi's ensemble handle (slpi.h, "ensembles";
api/ensemble.c): per-path initial states and increments, threads with the GIL released,
the certified path, online statistics, and grids of parameter values."""
import itertools
import os
import re
from dataclasses import dataclass

import numpy as np

import slpi as _slpi
from slpi._native import ffi as _ffi, lib as _lib
from slpi._reduce import Quantiles, Reductions
from slpi import _atomic, _ens_inputs, _ens_state, _overrides, _stop

# Paths per C call: multiples of 4 x threads x SLPI_ENSEMBLE_BLOCK paths (whole blocks), as
# many as keep one call's increments under this many bytes.
_BATCH_BYTES = 64 << 20
_BLOCK = 64


@dataclass
class Stat:
    """The statistics of one quantity at the saved times (arrays of shape (times,))."""
    mean: np.ndarray
    var: np.ndarray
    min: np.ndarray
    max: np.ndarray
    radius: np.ndarray


@dataclass
class Statistics:
    """Online statistics of an ensemble at its saved times (``ensemble(..., stats=True)``).

    The paths, in the order they run, fall into blocks of 64; each block's values are
    summed by Welford's update ``n += 1; d = v - mean; mean += d / n; M2 += d * (v - mean)``
    and the blocks are combined in block order along the fixed binary tree of a binary
    counter by Chan, Golub and LeVeque's pairwise form (A then B)::

        n = nA + nB;  d = meanB - meanA;  mean = meanA + d * (nB / n)
        M2 = M2A + M2B + d * d * (nA * (nB / n))

    so that every sum is taken in the same order on any number of threads: the results
    are the same bits for ``threads=1`` and ``threads=2``. ``var`` is ``M2 / (n - 1)``
    (numpy's ``var(ddof=1)``; NaN for one path). ``min`` and ``max`` are exact. Memory: a
    few accumulators of (times, quantities), not the paths.

    Attributes
    ----------
    n : int
        Paths (>= 1: a path that fails raises SlpiError, and no statistic is returned).
    names : list of str
        The quantities: the state's labels, then the diagnostics' names.
    mean, var, min, max : ndarray (times, quantities)
    radius : ndarray (times, quantities)
        The largest radius of a path's ball (``ref=True``: the certified path; 0 on the
        fast path). The statistics are those of the midpoints.

    Examples
    --------
    >>> e = slpi.ensemble("iso/rigid-body/trajectories", paths=100, steps=20, save_every=10, stats=True, states=False)
    >>> e.stats["H0"].mean.shape, e.stats.n
    ((3,), 100)
    """
    n: int
    names: list
    mean: np.ndarray
    var: np.ndarray
    min: np.ndarray
    max: np.ndarray
    radius: np.ndarray

    def __getitem__(self, name):
        """The statistics of one quantity by name (``"H0"``, ``"x1"``, ...)."""
        if name not in self.names:
            raise KeyError("%r: the quantities are %s" % (name, ", ".join(self.names)))
        i = self.names.index(name)
        return Stat(self.mean[:, i], self.var[:, i], self.min[:, i], self.max[:, i], self.radius[:, i])


@dataclass
class Ensemble:
    """An ensemble (``slpi.ensemble(..., save_every=k)``, or with ``stats``, ``states=False``
    or ``params``).

    Attributes
    ----------
    t, step : ndarray (times,)
        Times and step numbers of the saved rows (step 0, every k-th, the last).
    states : ndarray or numpy.memmap (paths, times, dim), or None
        The states (midpoints when ``ref=True``); a memmap of the ``.npy`` file ``out``
        when one was given; None with ``states=False``.
    radii : ndarray (paths, times, dim) or None
        ``ref=True``: the radii of the states.
    diagnostics : dict of str to ndarray (paths, times), or None
        With ``diagnostics=True``: energy, Casimirs, ... per path and row.
    stats : Statistics or None
        With ``stats=True``.
    labels : list of str
    paths : ndarray (paths,)
        The noise path numbers.
    params : dict or None
        The parameter values of this ensemble (``params=``).
    route : str
        How its paths ran: ``"lanes"`` (blocks of paths in lock-step SIMD lanes), or
        ``"general: "`` and why each path ran alone (the values are the same bits either
        way; docs/api.md#ensembles).
    uncertified : str or None
        As ``Result.uncertified``.
    reduced : ndarray or None
        ``reduce=f``: f's results, path by path (paths, ...), or with ``bins`` the
        histogram's counts (len(bins) - 1,).
    quantiles : Quantiles or None
        ``quantiles=q``: exact when the states are kept, else streamed (slpi/_reduce.py:
        within ``quantiles.error``).
    problem : dict of str to str
        Every key of the problem (of this grid point), as ``slpi run`` writes them.
    overridden : dict of str to str
        The keys of ``problem`` that did not act, with what overrode them (as
        ``Result.overridden``).
    state : ndarray or None
        With ``stats``: the statistics' exact state (``slpi ensemble --state``;
        slpi_ensemble_export), for ``ensemble(merge=...)``.
    ref : bool
        Whether it ran on the certified path.
    clipped, capped : int
        The Wiener increments the problem's truncation clipped (docs/noise.md#truncation)
        and the steps whose solve was capped and accepted (``on_cap="accept"``), over the
        ensemble's paths (a merge: the parts' sums). A failed path stops the ensemble with
        an error, so no path is ever left out of it.
    """
    t: np.ndarray
    step: np.ndarray
    states: np.ndarray
    labels: list
    paths: np.ndarray
    diagnostics: dict = None
    uncertified: str = None
    stats: Statistics = None
    radii: np.ndarray = None
    params: dict = None
    route: str = None
    reduced: np.ndarray = None
    quantiles: Quantiles = None
    problem: dict = None
    overridden: dict = None
    state: np.ndarray = None
    ref: bool = False
    clipped: int = 0
    capped: int = 0


def _grid(params):
    """The parameter points of params: a dict of key to values (their grid, the last key
    varying fastest) or a list of dicts (those points)."""
    if isinstance(params, dict):
        if not params:
            raise _slpi._bad("params", params, "an empty grid")
        vals = []
        for k, v in params.items():
            if isinstance(v, (str, bytes)) or not hasattr(v, "__len__") or len(v) == 0:
                raise _slpi._bad("params", {k: v}, "each key needs a non-empty list of values")
            vals.append(list(v))
        return [dict(zip(params, point)) for point in itertools.product(*vals)]
    if isinstance(params, (list, tuple)) and params and all(isinstance(p, dict) for p in params):
        return [dict(p) for p in params]
    raise _slpi._bad("params", params, "must be a dict of key to a list of values, or a list of dicts")


class _Handle:
    """A C ensemble (slpi_ensemble_*), freed with its Python object."""

    def __init__(self, pr, ref, first_path, every, threads):
        self.pr = pr   # its callbacks live as long as the ensemble
        out = _ffi.new("slpi_ensemble **")
        _slpi._check(_lib.slpi_ensemble_new(out, pr._p, 1 if ref else 0, first_path, every, threads))
        self.e = _ffi.gc(out[0], _lib.slpi_ensemble_free)
        dim, m, nd = _ffi.new("int *"), _ffi.new("int *"), _ffi.new("int *")
        steps, rows = _ffi.new("long *"), _ffi.new("long *")
        _lib.slpi_ensemble_shape(self.e, dim, m, nd, steps, rows)
        self.dim, self.M, self.ndiag, self.steps, self.rows = dim[0], m[0], nd[0], steps[0], rows[0]
        self.diag_names = [_ffi.string(_lib.slpi_ensemble_diag_name(self.e, i)).decode() for i in range(self.ndiag)]
        self.route = _ffi.string(_lib.slpi_ensemble_route(self.e)).decode()

    def counts(self):
        """(clipped increments, capped steps) of the paths this handle ran."""
        cl, ca = _ffi.new("long *"), _ffi.new("long *")
        _lib.slpi_ensemble_counts(self.e, cl, ca)
        return int(cl[0]), int(ca[0])

    def run(self, count, x0, dW, x, xr, d, dr):
        P = _slpi._ptr
        rc, err = _slpi._interruptible(_lib, lambda: _lib.slpi_ensemble_run(self.e, count, P(x0), P(dW), P(x), P(xr),
                                                                             P(d), P(dr)))
        _slpi._raise_callback_error(self.pr)
        if err is not None:   # "path r (noise path p): x0[i] = ...": the argument is x0
            if re.match(r"path \d+ \(noise path \d+\): x0\b", str(err)):
                err.argument = "x0"
            raise err

    def export(self):
        a = np.empty(_lib.slpi_ensemble_export(self.e, _ffi.NULL))
        _lib.slpi_ensemble_export(self.e, _slpi._ptr(a))
        return a

    def merge_state(self, state):
        a = np.ascontiguousarray(state, dtype=np.float64)
        _slpi._check(_lib.slpi_ensemble_import(self.e, _slpi._ptr(a), len(a)))

    def paths(self):
        return _lib.slpi_ensemble_paths(self.e)

    def stats(self, names):
        a = np.empty((5, self.rows, self.dim + self.ndiag))
        n = _lib.slpi_ensemble_stats(self.e, *(_slpi._ptr(a[i]) for i in range(5)))
        return Statistics(n=n, names=names, mean=a[0], var=a[1], min=a[2], max=a[3], radius=a[4])


def _merged(h, pr, paths, first_path, ref, params, parts):
    """The statistics of parts (Ensembles with a state, of path ranges that tile first_path
    .. + paths - 1, of this problem and saved rows), imported in path order: the bits of
    one run (``slpi ensemble --merge``)."""
    S = _slpi
    problem = S._keys_of(pr)
    n = S._row_steps(lambda p: _lib.slpi_ensemble_row_steps(h.e, p), h.rows)
    if not isinstance(parts, (list, tuple)) or not parts:
        raise S._bad("merge", parts, "need a list of Ensembles (run with stats=True)")
    for i, e in enumerate(parts):
        if not isinstance(e, Ensemble) or e.state is None:
            raise S._bad("merge", type(e).__name__, "merge[%d]: need an Ensemble run with stats=True (its state)" % i)
        diff = sorted(k for k in set(problem) | set(e.problem or {}) if problem.get(k) != (e.problem or {}).get(k))
        if diff or e.ref != ref or not np.array_equal(e.step, n):
            why = ("key %s=%s, this run's %s" % (diff[0], (e.problem or {}).get(diff[0]), problem.get(diff[0]))
                   if diff else "ref=%s" % e.ref if e.ref != ref else "saved steps %s" % e.step.tolist())
            raise S._bad("merge", i, "merge[%d] was run on another problem or rows: %s" % (i, why))
    parts = sorted(parts, key=lambda e: int(e.paths[0]))
    at = first_path
    for e in parts:
        if int(e.paths[0]) != at:
            raise S._bad("merge", int(e.paths[0]), "the parts' paths start at %d where the next path is %d (they must "
                         "tile first_path %d, paths %d)" % (int(e.paths[0]), at, first_path, paths))
        at += len(e.paths)
    if at != first_path + paths:
        raise S._bad("merge", at - first_path, "the parts hold paths %d..%d, the run asks for %d..%d"
                      % (first_path, at - 1, first_path, first_path + paths - 1))
    for part in parts:
        h.merge_state(part.state)
    return Ensemble(t=n * pr.h, step=n, states=None, labels=pr.labels,
                    paths=np.arange(first_path, first_path + paths, dtype=np.uint64), uncertified=pr.uncertified,
                    stats=h.stats(pr.labels + h.diag_names), params=params, route="merged", problem=problem,
                    state=h.export(), ref=ref, clipped=sum(e.clipped for e in parts),
                    capped=sum(e.capped for e in parts))


def _one(pr, paths, first_path, every, x0, dW, ref, threads, keep_states, diagnostics, stats, out, progress,
         max_memory, params, red, merge=None, ck=None):
    """One ensemble of the problem pr (see ensemble); red: its Reductions or None; merge:
    the Ensembles to import instead of running paths; ck: its Checkpoint or None."""
    h = _Handle(pr, ref, first_path, every, threads)
    if merge is not None:
        return _merged(h, pr, paths, first_path, ref, params, merge)
    dim, M, steps, rows, nd = h.dim, h.M, h.steps, h.rows, h.ndiag
    if x0 is not None and not callable(x0) and x0.ndim == 2 and x0.shape != (paths, dim):
        raise _slpi.SlpiError(2, "x0: shape %s: need (dim,) = (%d,) or (paths, dim) = (%d, %d)" % (
            x0.shape, dim, paths, dim), "x0", x0.shape)
    if x0 is not None and not callable(x0) and x0.ndim == 1:
        if len(x0) != dim:
            raise _slpi.SlpiError(2, "x0: %d values given, the state has %d" % (len(x0), dim), "x0", len(x0))
    if dW is not None and not callable(dW) and tuple(dW.shape) != (paths, steps, M):
        raise _slpi.SlpiError(2, "dW: shape %s: the problem needs (paths, steps, M) = (%d, %d, %d)" % (
            tuple(dW.shape), paths, steps, M), "dW", tuple(dW.shape))
    k = 2 if ref else 1
    dbytes = paths * rows * 8.0 * nd * k if diagnostics else 0
    nbytes = paths * rows * 8.0 * dim * k if keep_states else 0
    tmp = None
    if out is not None:
        _slpi._guard_memory(dbytes, "ensemble: diagnostics of %d paths x %d rows" % (paths, rows), max_memory)
        _atomic.remove_dead_parts(out)
        tmp = _atomic.part(out)
        states = np.lib.format.open_memmap(tmp, mode="w+", dtype=np.float64, shape=(paths, rows, dim))
    else:
        _slpi._guard_memory(nbytes + dbytes, "ensemble: %d paths x %d rows x %d doubles" % (
            paths, rows, dim + (nd if diagnostics else 0)), max_memory,
            "; pass out='file.npy' to stream the states to a file, or stats=True, states=False"
            if keep_states else "")
        states = np.empty((paths, rows, dim)) if keep_states else None
    radii = np.empty((paths, rows, dim)) if ref and keep_states else None
    diag = np.empty((paths, rows, nd)) if diagnostics else None
    drad = np.empty((paths, rows, nd)) if ref and diagnostics else None
    if x0 is not None and not callable(x0) and x0.ndim == 1:
        x0 = np.broadcast_to(x0, (paths, dim))
    wave = 4 * threads * _BLOCK
    per_path = steps * M * 8 if dW is not None else 0
    batch = min(16 * wave, max(wave, _BATCH_BYTES // max(per_path, 1) // wave * wave))
    kept = dict(states=states, radii=radii, diagnostics=diag, diagnostic_radii=drad)

    def inputs(first, n):   # the x0 and dW of paths first .. first + n - 1 (None: not given)
        return (None if x0 is None else _ens_inputs.initial(x0, first, n, dim),
                None if dW is None else _ens_inputs.increments(dW, first, n, steps, M, paths))
    names = pr.labels + h.diag_names
    done, clipped, capped = ck.restore(h, kept, inputs, batch, red, names) if ck else (0, 0, 0)
    pg = _slpi._Progress(progress, paths * steps, "ensemble (%d paths)" % paths)
    cut = (lambda a, i, n: None if a is None else a[i:i + n])
    t = _slpi._row_steps(lambda p: _lib.slpi_ensemble_row_steps(h.e, p), rows) * pr.h
    try:
        while done < paths:
            n = ck.count(done, min(batch, paths - done)) if ck else min(batch, paths - done)
            xb, db = inputs(done, n)
            xs = cut(states, done, n) if states is not None else np.empty((n, rows, dim)) if red else None
            ds = cut(diag, done, n) if diag is not None else np.empty((n, rows, nd)) if red else None
            try:
                h.run(n, xb, db, xs, cut(radii, done, n), ds, cut(drad, done, n))
            except KeyboardInterrupt:   # Ctrl-C or SIGTERM: the paths completed (whole waves) are kept
                if ck:
                    k = h.paths() - done
                    if red and k:
                        red.add(t, xs[:k], ds[:k], names)
                    ck.inputs.add(*(None if a is None else a[:k] for a in (xb, db)))
                    ck.save(h, done + k, kept, clipped + h.counts()[0], capped + h.counts()[1], red, stopped=True)
                raise
            if red:
                red.add(t, xs, ds, names)
            done += n
            pg.add(n * steps)
            if ck:
                ck.inputs.add(xb, db)
                ck.save(h, done, kept, clipped + h.counts()[0], capped + h.counts()[1], red)
        if tmp is not None:
            states.flush()
            del states
            os.replace(tmp, out)
            tmp = None
            states = np.load(out, mmap_mode="r")
    finally:
        pg.close()
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    n = _slpi._row_steps(lambda p: _lib.slpi_ensemble_row_steps(h.e, p), rows)
    labels = pr.labels
    reduced = quant = None
    if red:
        kept = None
        if red.exact:   # the kept states, and the diagnostics when kept
            kept, names = states, labels + (h.diag_names if diag is not None else [])
            kept = np.concatenate([states, diag], axis=2) if diag is not None else states
        reduced, quant = red.finish(kept, names)
    return Ensemble(t=n * pr.h, step=n, states=states, labels=labels,
                    paths=np.arange(first_path, first_path + paths, dtype=np.uint64),
                    diagnostics=None if diag is None else {k: diag[:, :, i] for i, k in enumerate(h.diag_names)},
                    uncertified=pr.uncertified, stats=h.stats(labels + h.diag_names) if stats else None,
                    radii=radii, params=params, route=h.route, reduced=reduced, quantiles=quant,
                    problem=_slpi._keys_of(pr), state=h.export() if stats else None, ref=ref,
                    clipped=clipped + h.counts()[0], capped=capped + h.counts()[1])


def ensemble(problem=None, paths=100, first_path=0, *, save_every=None, save_at=None, x0=None, dW=None, ref=False, threads=1,
             stats=False, states=True, diagnostics=False, params=None, out=None, progress=False, max_memory=None,
             reduce=None, bins=None, quantiles=None, merge=None, checkpoint=None, checkpoint_every=None, resume=None,
             **keys):
    """Integrate ``paths`` realizations, on several threads, keeping their rows or only
    their statistics.

    Path r (r = 0, 1, ...) starts from ``x0[r]`` and runs on ``dW[r]``, or on noise path
    ``first_path + r`` of the problem's canonical noise.

    Parameters
    ----------
    problem : str, Problem or None
        As ``run``.
    paths : int
        Number of paths (>= 1).
    first_path : int
        The first noise path number (paths are numbered 0..2^32-1).
    save_every : int, optional
        The saved times: step 0, every k-th step and the last. None: the problem's
        ``save_at`` when it has one, else step 0 and the last (only the final states are
        returned without ``stats``, ``states=False``, ``diagnostics``, ``params`` or
        ``save_at``).
    save_at : array_like of float, optional
        The saved times instead (step 0 and these, on the step grid), as ``run``'s.
    x0 : array_like (dim,) or (paths, dim), or callable, optional
        The initial state of every path, or of each path; on the system's manifold (as
        ``run``'s). A callable ``x0(first, count)`` returns those of paths ``first ..
        first + count - 1`` (count, dim), called as ``dW`` is (and once more, for path 0
        alone, when the problem is a model without x0 of its own).
    dW : array_like (paths, steps, M), or callable, optional
        Each path's Wiener increments (clipped at the problem's truncation threshold, as
        ``run``'s). An array may be a ``numpy.memmap``. For ensembles too large for one
        array, a callable ``dW(first, count)`` returning the increments of paths
        ``first .. first + count - 1`` as an array (count, steps, M): it is called in path
        order, for batches of at most 64 MB of increments, so that the increments are
        streamed and never held whole. Without ``steps``, ``T`` or ``level`` among the
        keys, an array's ``shape[1]`` is the number of steps. Not with ``noise_tau`` or
        ``noise_file`` (as ``run``'s).
    ref : bool
        The certified path: states are ball midpoints, ``radii`` bound their distance to
        the exact discrete result, and ``stats.radius`` is the largest radius.
    threads : int
        Threads of the C library (1..256); the GIL is released while they run. Results,
        rows and statistics alike, are the same bits for any number of threads. A problem
        with ``Callback`` Hamiltonians runs on one thread.
    stats : bool
        Online statistics (``Statistics``: mean, variance, min, max of each state
        coordinate and diagnostic at the saved times), computed as the paths run.
    states : bool
        Keep the states (paths, times, dim). ``states=False, stats=True``: memory for the
        statistics only (a million paths take kilobytes); ``states=False,
        diagnostics=True``: the diagnostics only.
    diagnostics : bool
        Keep the diagnostics per path and row.
    params : dict or list of dict, optional
        A grid of problem keys, ``{"param.a": [1, 2], "param.b": [0.5, 1.5]}`` (every
        combination, the last key varying fastest), or a list of settings: one ensemble
        per point, on the same noise paths, ``x0`` and ``dW``; returns a list of
        ``Ensemble`` whose ``params`` holds the point's values.
    out : str or path, optional
        Stream the states into this ``.npy`` file (written under a temporary name, renamed
        at the end; removed on error or Ctrl-C, and by a later call writing the same file
        when its process is gone) and return a memmap of it.
    progress : bool
        Show progress in steps.
    reduce : callable, optional
        A per-path reduction, as DifferentialEquations.jl's ``output_func``: ``reduce(t,
        x)`` gets the saved times (times,) and a batch of paths' states (count, times,
        dim), in path order, and returns one result per path (an array whose first axis
        is the count: a first-passage time, a final energy, ...). ``Ensemble.reduced``
        holds them for every path, or with ``bins`` only their histogram. The paths'
        rows are the same bits on any number of threads, so are the results.
    bins : array_like, optional
        Bin edges: ``reduced`` is the histogram (integer counts, numpy's rule) of
        ``reduce``'s values, and no per-path result is kept.
    quantiles : array_like of float, optional
        Levels q in [0, 1]: ``Ensemble.quantiles`` of every state coordinate and
        diagnostic at every saved time over the paths. Exact (numpy's ``inverted_cdf``)
        from the states kept (``states=True``; the diagnostics' with ``diagnostics=True``);
        with ``states=False``, a histogram of 4096 bins per time and quantity estimates them
        within ``quantiles.error`` (half a bin) of the exact value, in memory
        independent of the paths (slpi/_reduce.py says how the bins grow).
    max_memory : int, optional
        Bytes the in-memory result may take; default: the memory available now.
    merge : list of Ensemble, or (with ``params``) a list of such lists, optional
        Instead of running paths, the statistics of Ensembles run apart (jobs, machines)
        with ``stats=True`` on disjoint path ranges that together tile ``first_path ..
        first_path + paths - 1`` (``slpi ensemble --merge``; their ``state``, pickled or
        ``numpy.save``-d): the result's ``stats`` are one run's bits when every range
        starts at a multiple of 64 x 2^k paths from the first and only the last ends
        inside a block of 64 (docs/api.md#ensembles). Needs ``stats=True,
        states=False`` and none of x0, dW, diagnostics, reduce, quantiles, out; with
        ``params``, ``merge[i]`` holds point i's Ensembles in every part's order.
    checkpoint, checkpoint_every, resume : optional
        Write the rows and statistics of the paths done (and the histograms of streamed
        quantiles) to the file ``checkpoint`` (atomically; docs/design.md#checkpoints) every
        ``checkpoint_every`` paths (default: every batch; honoured exactly, the C calls end
        at its multiples, though fewer paths than 256 x threads per call leave threads
        idle), at the end, and when Ctrl-C or SIGTERM stops the call (the paths completed,
        up to the last wave of blocks); ``resume``: continue from such a file (it may be
        ``checkpoint``), given the same arguments: the uninterrupted call's result,
        ``quantiles`` included, bit for bit, for any ``threads`` (slpi/_ens_state.py). Not
        with params, merge, out, reduce.
    **keys
        More problem settings.

    Returns
    -------
    ndarray (paths, dim), Ensemble, or list of Ensemble (with ``params``)

    Raises
    ------
    SlpiError
        Bad input naming the argument (a wrong shape or dtype, NaN, a state off the
        manifold: "path r ..."), a result that does not fit (with its size), a failing
        step (naming the path and step).
    KeyboardInterrupt
        On Ctrl-C, promptly; ``out`` is not created.
    Terminated
        On SIGTERM, as on Ctrl-C: a SystemExit of code 130 and a KeyboardInterrupt
        (slpi/_stop.py).

    Examples
    --------
    >>> slpi.ensemble("iso/rigid-body/trajectories", paths=3, steps=10).shape
    (3, 3)
    >>> e = slpi.ensemble("iso/rigid-body/trajectories", paths=2, steps=10, save_every=5, diagnostics=True)
    >>> e.states.shape, e.t.tolist(), e.diagnostics["H0"].shape
    ((2, 3, 3), [0.0, 0.01953125, 0.0390625], (2, 3))
    >>> x0 = np.array([[1.0, 0, 0], [0, 1.0, 0]])
    >>> dW = np.zeros((2, 10, 3))
    >>> e = slpi.ensemble("iso/rigid-body/trajectories", paths=2, x0=x0, dW=dW, save_every=5, stats=True,
    ...                   states=False, threads=2)
    >>> e.stats["x1"].mean.tolist()
    [0.5, 0.5, 0.5]
    >>> [g.params for g in slpi.ensemble("iso/rigid-body/trajectories", paths=2, steps=4,
    ...                                  params={"inertia": [[1, 2, 3], [2, 3, 4]]})]
    [{'inertia': [1, 2, 3]}, {'inertia': [2, 3, 4]}]
    """
    S = _slpi
    paths = S._integer("paths", paths, 1)
    first_path = S._integer("first_path", first_path, 0, 2**32 - paths)
    threads = S._integer("threads", threads, 1, 256)
    diagnostics, progress = S._flag("diagnostics", diagnostics), S._flag("progress", progress)
    ref, stats, keep = S._flag("ref", ref), S._flag("stats", stats), S._flag("states", states)
    if x0 is not None and not callable(x0):
        try:
            nd = 2 if np.ndim(x0) == 2 else 1
        except ValueError:   # ragged: _real_array names it
            nd = 1
        x0 = S._real_array("x0", x0, nd)
    if dW is not None and not callable(dW):
        if not isinstance(dW, np.ndarray):
            dW = S._real_array("dW", dW, 3)
        elif dW.ndim != 3:
            raise S.SlpiError(2, "dW: shape %s: need a 3-D array (paths, steps, M)" % (dW.shape,), "dW", dW.shape)
        elif dW.dtype.kind not in "fiu" or dW.dtype == np.float16:
            raise S.SlpiError(2, "dW: dtype %s: need real numbers (float64)" % dW.dtype, "dW", str(dW.dtype))
        if not any(k in keys for k in ("steps", "T", "level")) and not (
                isinstance(problem, S.Problem) and any(k in problem.keys for k in ("steps", "T", "level"))):
            keys["steps"] = dW.shape[1]
    if out is not None:
        if not keep:
            raise S._bad("out", out, "states=False keeps no states to write")
        out = S._path("out", out).decode()
    points = _grid(params) if params is not None else [None]
    if out is not None and len(points) > 1:
        raise S._bad("out", out, "one file cannot hold the ensembles of several parameter points")
    if save_at is not None:
        keys["save_at"] = S._real_array("save_at", save_at, 1)
    if reduce is not None and not callable(reduce):
        raise S._bad("reduce", reduce, "must be callable: reduce(t, x) -> one result per path")
    if bins is not None:
        if reduce is None:
            raise S._bad("bins", bins, "a histogram of reduce's values: give reduce too")
        bins = S._real_array("bins", bins, 1)
        if len(bins) < 2 or not np.all(np.diff(bins) > 0):
            raise S._bad("bins", bins.tolist(), "need at least two increasing edges")
    if quantiles is not None:
        quantiles = S._real_array("quantiles", quantiles, 1)
        if not len(quantiles) or not np.all((quantiles >= 0) & (quantiles <= 1)):
            raise S._bad("quantiles", quantiles.tolist(), "need levels in [0, 1]")
    if merge is not None:
        extra = [k for k, v in (("states", keep), ("x0", x0 is not None), ("dW", dW is not None),
                                ("diagnostics", diagnostics), ("reduce", reduce is not None),
                                ("quantiles", quantiles is not None), ("out", out is not None)) if v]
        if not stats or extra:
            raise S._bad("merge", "...", "merges statistics only (stats=True, states=False; no x0, dW, diagnostics, "
                         "reduce, quantiles or out): %s given" % ", ".join(extra or ["stats=False"]))
        if params is not None:
            if not isinstance(merge, (list, tuple)) or not all(isinstance(m, (list, tuple)) and len(m) == len(points)
                                                               for m in merge):
                raise S._bad("merge", "...", "with params: one list of %d Ensembles per part (a run of these params)"
                             % len(points))
            merge = [list(point) for point in zip(*merge)]
    ck = _ens_state.options(checkpoint, checkpoint_every, resume, len(points), merge, out, reduce, quantiles)
    finals = save_every is None and save_at is None and not stats and keep and not diagnostics and params is None \
        and reduce is None and quantiles is None
    results = []
    with _stop.Stops():   # SIGTERM stops as Ctrl-C does, keeping the same (slpi/_stop.py)
        for i, point in enumerate(points):
            pr = S._problem(problem, dict(keys, **(point or {})))
            lines = pr.text().splitlines()
            if x0 is not None and "system=model" in lines and \
                    not any(ln.startswith(("x0=", "x0_file=")) for ln in lines):
                # a model has no default initial state; the ensemble's own workers start from
                # one before each path restarts from its x0: the first path's serves
                first = _ens_inputs.initial(x0, 0, 1, pr.dim)[0] if callable(x0) else x0[0] if x0.ndim == 2 else x0
                pr.set(**S._x0_keys(pr, np.ascontiguousarray(first, dtype=np.float64)))
            if dW is not None:
                _overrides.refuse_with_dW(S._keys_of(pr))
            if threads > 1 and pr.uncertified:
                raise S._bad("threads", threads, "Callback Hamiltonians run on one thread (threads=1)")
            steps = pr.steps
            at = any(v.startswith("save_at=") for v in pr.text().splitlines())
            finals = finals and not at
            if save_every is not None and at:
                raise S._bad("save_every", save_every, "the problem has save_at: give one of the two")
            every = S._integer("save_every", save_every, 1) if save_every is not None else 0 if at else max(steps, 1)
            if save_every is None and not at and out is not None:
                raise S._bad("save_every", None, "out needs save_every or save_at")
            red = Reductions(reduce, bins, quantiles, keep) if reduce is not None or quantiles is not None else None
            part = None if merge is None else merge[i] if params is not None else merge
            results.append(_one(pr, paths, first_path, every, x0, dW, ref, threads, keep, diagnostics, stats, out,
                                progress, max_memory, point, red, part,
                                ck and ck(pr.text(), first_path, paths, every, ref, keep, diagnostics)))
            results[-1].overridden = _overrides.overridden(results[-1].problem, dW is not None, x0 is not None)
    if finals:
        return results[0].states[:, -1, :]
    return results if params is not None else results[0]
