"""slpi._mlmc_test — ``slpi.mlmc_test``: Giles' mlmc_test for a problem and a functional, as
``slpi mlmc --test`` computes it (docs/noise.md#mlmc-test), through libslpi-tools
(slpi_api_mlmc_test_json): each level's moments from a fixed number of coupled paths, the
consistency check and the kurtosis with their flags, the fitted alpha, beta and gamma, and
the cost of MLMC and of plain Monte Carlo over a sweep of requested RMSEs. Imported by
``slpi/__init__.py`` after its helpers."""

import json
import os
import tempfile
import warnings
from dataclasses import dataclass, field

import numpy as np

from slpi._native import ffi as _ffi, tools as _tools
from slpi import _bad, _integer, _interruptible, _path, _problem, _raise_callback_error, _text


@dataclass
class MlmcTest:
    """Giles' mlmc_test of a problem and a functional (``slpi.mlmc_test``, ``slpi mlmc --test``).

    Attributes
    ----------
    level : ndarray of int (levels,)
        The levels l0..L (h = T 2^-l).
    paths, failed : ndarray of int (levels,)
        The surviving paths of each level (those its moments hold) and its failed ones.
    mean, var, kurtosis : ndarray (levels,)
        Mean, variance and kurtosis of Y_l (P_l0 at l0, P_l - P_l-1 above; kurtosis NaN at l0).
    mean_p, var_p : ndarray (levels,)
        Mean and variance of P_l, the level's fine functional.
    check : ndarray (levels,)
        The consistency check |E Y_l - E P_l + E P_l-1| / (3 (sqrt(V Y_l / N_l) + sqrt(V P_l
        / N_l) + sqrt(V P_l-1 / N_l-1))) (NaN at l0); above 1 is flagged.
    cost, seconds : ndarray (levels,)
        Steps per path (2^l0 at l0, 2^l + 2^(l-1) above) and the wall seconds the level took.
    alpha, beta, gamma : float
        Minus the least-squares slopes of log2 |mean|, log2 var and log2 cost on l, over
        the levels above l0 (NaN with fewer than 2 positive values).
    flags : list of str
        Giles' warnings: a consistency check above 1, a kurtosis above 100 on the finest
        level. Empty when neither.
    eps : ndarray (sweeps,)
        The requested RMSEs of the sweep.
    sweep_level : ndarray of int (sweeps,)
        The finest level MLMC needs for each eps (-1: none up to level 24).
    mlmc_cost, mc_cost : ndarray (sweeps,)
        The steps MLMC would spend from the measured (and extrapolated) variances, and
        plain Monte Carlo's steps for the same RMSE (NaN where no level is fine enough).
    doc : dict
        The whole JSON document (``slpi mlmc --test --json``).
    """
    level: np.ndarray
    paths: np.ndarray
    failed: np.ndarray
    mean: np.ndarray
    var: np.ndarray
    kurtosis: np.ndarray
    mean_p: np.ndarray
    var_p: np.ndarray
    check: np.ndarray
    cost: np.ndarray
    seconds: np.ndarray
    alpha: float
    beta: float
    gamma: float
    flags: list
    eps: np.ndarray
    sweep_level: np.ndarray
    mlmc_cost: np.ndarray
    mc_cost: np.ndarray
    doc: dict = field(repr=False)

    @classmethod
    def read(cls, source):
        """The test from ``slpi mlmc --test --json FILE``'s document: a file name or the
        parsed dict (JSON's null is NaN here)."""
        if isinstance(source, dict):
            doc = source
        else:
            with open(_path("source", source).decode()) as f:
                doc = json.load(f)
        if doc.get("slpi_mlmc_test") != 1:
            raise _bad("source", source, "is not the JSON of `slpi mlmc --test` (no \"slpi_mlmc_test\": 1)")
        nan = lambda v: float("nan") if v is None else float(v)  # noqa: E731
        lv, sw = doc["levels"], doc["sweep"]
        col = lambda k: np.array([nan(x[k]) for x in lv])  # noqa: E731
        icol = lambda k: np.array([x[k] for x in lv], dtype=int)  # noqa: E731
        return cls(level=icol("level"), paths=icol("paths"), failed=icol("failed"), mean=col("mean"), var=col("var"),
                   kurtosis=col("kurtosis"), mean_p=col("mean_p"), var_p=col("var_p"), check=col("check"),
                   cost=col("cost"), seconds=col("seconds"), alpha=nan(doc["alpha"]), beta=nan(doc["beta"]),
                   gamma=nan(doc["gamma"]), flags=list(doc["flags"]), eps=np.array([s["eps"] for s in sw]),
                   sweep_level=np.array([-1 if s["level"] is None else s["level"] for s in sw], dtype=int),
                   mlmc_cost=np.array([nan(s["mlmc_cost"]) for s in sw]),
                   mc_cost=np.array([nan(s["mc_cost"]) for s in sw]), doc=doc)


def mlmc_test(problem=None, levels=(3, 8), paths=2000, *, eps=(0.02, 0.01, 0.005), phi=None, threads=None,
              checkpoint=None, resume=None, **settings):
    """Giles' mlmc_test (``slpi mlmc --test``; docs/noise.md#mlmc-test): is the problem fit
    for MLMC, and what would it cost? Each level l of ``levels`` (l0, L), L >= l0 + 2, draws
    ``paths`` coupled paths (level j from l0 the paths j 2^27 + n, as ``slpi.mlmc``; each
    path's P_l and P_l-1 are bit for bit ``slpi.mlmc``'s) and gives the mean, variance and
    kurtosis of Y_l (P_l0 at l0, P_l - P_l-1 above) and the mean and variance of P_l; then
    the consistency check of E[P_l - P_l-1] = E P_l - E P_l-1, the rates alpha, beta,
    gamma, and at each requested RMSE of ``eps`` the cost of MLMC (from the measured
    variances, extrapolated beyond L) and of plain Monte Carlo.

    phi as ``slpi.mlmc``'s: a name, an expression string, or a callable ``phi(x) -> float``
    of the state array (no checkpoint then). problem and settings as ``run``
    (``noise_tau`` too); checkpoint/resume: files as ``slpi mlmc --test
    --checkpoint/--resume``. Returns an ``MlmcTest``, every number the CLI's for the same
    inputs; ``slpi.plot.mlmc_test`` draws it. Failed paths are left out of their level and
    counted (``MlmcTest.failed``), with a RuntimeWarning.

    >>> t = slpi.mlmc_test("iso/rigid-body/weak", levels=(2, 5), paths=200, eps=(0.05,))
    >>> len(t.level), len(t.eps), bool(np.isnan(t.check[0]))
    (4, 1, True)
    """
    if not (isinstance(levels, (tuple, list)) and len(levels) == 2):
        raise _bad("levels", levels, "must be (l0, L)")
    l0, L = _integer("levels[0]", levels[0], 0, 24), _integer("levels[1]", levels[1], 0, 24)
    paths = _integer("paths", paths, 2, 2**27)
    e = np.atleast_1d(np.asarray(eps, dtype=float))
    if e.ndim != 1 or not 1 <= e.size <= 16:
        raise _bad("eps", eps, "must be 1 to 16 requested RMSEs")
    fn = phi if callable(phi) else None
    if fn is not None and (checkpoint is not None or resume is not None):
        raise _bad("phi", phi, "a callable functional has no text a checkpoint can name: give an expression string "
                   "to checkpoint or resume")
    threads = 0 if threads is None else _integer("threads", threads, 1, 256)
    ck = _path("checkpoint", checkpoint) if checkpoint is not None else _ffi.NULL
    rs = _path("resume", resume) if resume is not None else _ffi.NULL
    cphi = _text("phi", phi) if phi is not None and fn is None else _ffi.NULL
    ceps = _ffi.new("double[]", [float(x) for x in e])
    pr = _problem(problem, settings)
    t = _tools()
    from slpi._converge import _phi_callback
    cb_error = [None]
    cfn = _phi_callback(fn, cb_error) if fn is not None else None
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "mlmc-test.json")
        if cfn is None:
            _, error = _interruptible(t, lambda: t.slpi_api_mlmc_test_json(
                pr._p, cphi, l0, L, paths, ceps, e.size, ck, rs, threads, _path("json", j)))
        else:
            _, error = _interruptible(t, lambda: t.slpi_api_mlmc_test_json_fn(
                pr._p, cfn, _ffi.NULL, l0, L, paths, ceps, e.size, threads, _path("json", j)))
        _raise_callback_error(pr)
        if cb_error[0] is not None:   # the callable's exception: the test stopped using it
            raise cb_error[0]
        if error:
            raise error
        test = MlmcTest.read(j)
    if test.failed.sum() > 0:
        warnings.warn("slpi.mlmc_test: %d failed paths were left out of their levels (docs/noise.md#failed-paths)"
                      % test.failed.sum(), RuntimeWarning, stacklevel=2)
    return test
