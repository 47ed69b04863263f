"""slpi._mlmc — ``slpi.mlmc``: a multilevel Monte Carlo estimate of E phi(X_T) to a requested
RMSE, as ``slpi mlmc`` computes it (docs/noise.md#mlmc), through libslpi-tools
(slpi_api_mlmc_json). Imported by ``slpi/__init__.py`` after its helpers."""

import json
import os
import tempfile
import warnings
from dataclasses import dataclass, field

import numpy as np

from slpi._native import ffi as _ffi, lib as _lib, tools as _tools
from slpi import SlpiError, _bad, _flag, _integer, _interruptible, _path, _problem, _raise_callback_error, _text


@dataclass
class Estimate:
    """A multilevel (or plain) Monte Carlo estimate (``slpi.mlmc``).

    Attributes
    ----------
    estimate, se, bias : float
        The estimate of E phi(X_T), its standard error and the bias estimate (NaN for plain MC).
    converged : bool
        Whether the bias estimate met rmse/sqrt(2) by the finest level allowed.
    level, paths, failed, clipped : ndarray of int (levels,)
        Each level l (h = T 2^-l), its surviving paths, failed paths and clipped increments.
    mean, var, cost, seconds : ndarray (levels,)
        Mean and variance of the level's estimator (P_l0, then P_l - P_l-1), its steps per
        path, and the wall seconds spent on it.
    total_cost, mc_cost : float
        The steps spent, and those plain Monte Carlo at the finest level would need for the
        same RMSE (2 var(P_L) / rmse^2 paths of 2^L steps).
    doc : dict
        The whole JSON document (``slpi mlmc --json``).
    """
    estimate: float
    se: float
    bias: float
    converged: bool
    level: np.ndarray
    paths: np.ndarray
    failed: np.ndarray
    clipped: np.ndarray
    mean: np.ndarray
    var: np.ndarray
    cost: np.ndarray
    seconds: np.ndarray
    total_cost: float
    mc_cost: float
    doc: dict = field(repr=False)


def mlmc(problem=None, rmse=None, *, phi=None, levels=(3, 16), pilot=200, alpha=1.0, plain=False, threads=None,
         checkpoint=None, resume=None, progress=False, on_failure="warn", **settings):
    """E phi(X_T) to the requested RMSE by multilevel Monte Carlo (``slpi mlmc``; Giles,
    "Multilevel Monte Carlo path simulation", Oper. Res. 2008).

    problem and settings as ``run``; rmse the requested root-mean-square error; phi as
    ``converge``'s: a name, an expression string, or a callable ``phi(x) -> float`` of the
    state array, called from the estimate's threads (no checkpoint then); levels (l0, lmax):
    the coarsest level and the finest allowed; pilot: the paths a new level is first
    sampled with; alpha: the weak order in the bias estimate; plain: plain Monte Carlo at
    level l0 alone; checkpoint/resume: files as ``slpi mlmc --checkpoint/--resume``.
    on_failure: "warn" (default) warns when failed paths were left out, "raise" raises
    SlpiError (code 3) instead, "ignore" says nothing; a bias not met by lmax is reported
    the same way. Returns an ``Estimate``.

    Examples
    --------
    >>> e = slpi.mlmc("iso/so3/weak-exact", rmse=0.05, phi="x1", levels=(1, 10))
    >>> e.converged, bool(abs(e.estimate - np.exp(-0.5)) < 0.2)   # E x1(1) = exp(-1/2)
    (True, True)
    """
    if rmse is None:
        raise _bad("rmse", rmse, "give the requested RMSE, a positive number")
    if isinstance(rmse, bool) or not isinstance(rmse, (int, float)) or not rmse > 0:
        raise _bad("rmse", rmse, "must be a positive number")
    fn = phi if callable(phi) else None
    if fn is not None and (checkpoint is not None or resume is not None):
        raise _bad("phi", phi, "a callable functional has no text a checkpoint can name: give an expression string "
                   "to checkpoint or resume")
    if not (isinstance(levels, (tuple, list)) and len(levels) == 2):
        raise _bad("levels", levels, "must be (l0, lmax)")
    l0, l1 = _integer("levels[0]", levels[0], 0, 24), _integer("levels[1]", levels[1], 0, 24)
    pilot = _integer("pilot", pilot, 2, 2**24)
    threads = 0 if threads is None else _integer("threads", threads, 1, 256)
    plain, progress = _flag("plain", plain), _flag("progress", progress)
    if on_failure not in ("warn", "raise", "ignore"):
        raise _bad("on_failure", on_failure, "must be 'warn', 'raise' or 'ignore'")
    ck = _path("checkpoint", checkpoint) if checkpoint is not None else _ffi.NULL
    rs = _path("resume", resume) if resume is not None else _ffi.NULL
    cphi = _text("phi", phi) if phi is not None and fn is None else _ffi.NULL
    pr = _problem(problem, settings)
    t = _tools()
    from slpi._converge import _phi_callback
    cb_error = [None]
    cfn = _phi_callback(fn, cb_error) if fn is not None else None
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "mlmc.json")
        _lib.slpi_progress_set_mode(_lib.SLPI_PROGRESS_ON if progress else _lib.SLPI_PROGRESS_OFF)
        try:
            if cfn is None:
                _, error = _interruptible(t, lambda: t.slpi_api_mlmc_json(
                    pr._p, cphi, float(rmse), l0, l1, pilot, float(alpha), int(plain), ck, rs, threads,
                    _path("json", j)))
            else:
                _, error = _interruptible(t, lambda: t.slpi_api_mlmc_json_fn(
                    pr._p, cfn, _ffi.NULL, float(rmse), l0, l1, pilot, float(alpha), int(plain), threads,
                    _path("json", j)))
        finally:
            _lib.slpi_progress_set_mode(_lib.SLPI_PROGRESS_AUTO)
        _raise_callback_error(pr)
        if cb_error[0] is not None:   # the callable's exception: the estimate stopped using it
            raise cb_error[0]
        if error:
            raise error
        with open(j) as f:
            doc = json.load(f)
    lv = doc["levels"]
    col = lambda k, dt=float: np.array([x[k] for x in lv], dtype=dt)  # noqa: E731
    est = Estimate(estimate=doc["estimate"], se=doc["se"], bias=float("nan") if doc["bias"] is None else doc["bias"],
                   converged=bool(doc["converged"]), level=col("level", int), paths=col("paths", int),
                   failed=col("failed", int), clipped=col("clipped", int), mean=col("mean"), var=col("var"),
                   cost=col("cost"), seconds=col("seconds"), total_cost=doc["cost"], mc_cost=doc["mc_cost"], doc=doc)
    problems = []
    if doc["failed_paths"] > 0:
        problems.append("%d failed paths were left out of the estimate (docs/noise.md#failed-paths)"
                        % doc["failed_paths"])
    if not est.converged:
        problems.append("the bias estimate %.3e is above rmse/sqrt 2 at level %d" % (est.bias, l1))
    if problems and on_failure == "raise":
        raise SlpiError(3, "mlmc: " + "; ".join(problems))
    if problems and on_failure == "warn":
        warnings.warn("slpi.mlmc: " + "; ".join(problems) + " (on_failure='raise' stops instead)",
                      RuntimeWarning, stacklevel=2)
    return est
