"""slpi._mlmc_test — ``slpi.mlmc_test``: Giles' mlmc_test for a problem and a functional
(docs/noise.md#mlmc-test): each level's statistics from a fixed number of coupled paths,
the consistency check and the kurtosis with their flags, the fitted alpha, beta and gamma,
and ``slpi.mlmc`` over a sweep of requested RMSEs. Imported by ``slpi/__init__.py`` after
its helpers."""

import math
import time
from dataclasses import dataclass, field

import numpy as np

from slpi import _bad, _integer

_NAMED = {"x1": lambda x: x[..., 0], "sin2pi": lambda x: np.sin(2 * np.pi * x[..., :3]).sum(axis=-1)}


@dataclass
class MlmcTest:
    """Giles' mlmc_test of a problem and a functional (``slpi.mlmc_test``).

    Attributes
    ----------
    level : ndarray of int (levels,)
        The levels l0..L (h = T 2^-l).
    mean, var, kurtosis : ndarray (levels,)
        Mean, variance and kurtosis of Y_l (P_l0 at l0, P_l - P_l-1 above; kurtosis 0 at l0).
    mean_p, var_p : ndarray (levels,)
        Mean and variance of P_l, the level's fine functional.
    check : ndarray (levels,)
        The consistency check |E Y_l - E P_l + E P_l-1| / (3 (sqrt V Y_l + sqrt V P_l-1
        + sqrt V P_l) / sqrt N) (0 at l0); above 1 is flagged.
    cost, seconds : ndarray (levels,)
        Steps per path (2^l0 at l0, 2^l + 2^(l-1) above) and the wall seconds per path.
    alpha, beta, gamma : float
        Fitted rates: |E Y_l| ~ 2^-alpha l, V Y_l ~ 2^-beta l over the upper levels, and
        gamma = log2 of the ratio of the two finest levels' seconds per path.
    flags : list of str
        Giles' warnings: a consistency check above 1, a kurtosis above 100 on the finest
        level. Empty when neither.
    eps : ndarray (sweeps,)
        The requested RMSEs of the sweep.
    sweep : list of Estimate
        ``slpi.mlmc`` at each eps (alpha = max(0.5, fitted alpha)).
    mlmc_cost, mc_cost : ndarray (sweeps,)
        Steps MLMC spent, and plain Monte Carlo's steps for the same RMSE.
    paths : int
        Paths per level.
    """
    level: np.ndarray
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
    sweep: list = field(repr=False)
    mlmc_cost: np.ndarray = None
    mc_cost: np.ndarray = None
    paths: int = 0


def _values(problem, phi, level, refine, first, paths, threads, keys):
    """phi of the final states of paths first.. at level l with refine r (a plain run each:
    with refine 1, the coarse path of MLMC's level l + 1, bit for bit)."""
    x = np.asarray(_ensemble(problem, paths=paths, first_path=first, level=level, refine=refine, threads=threads,
                             **keys))
    v = np.asarray([phi(row) for row in x], dtype=float) if not isinstance(phi, str) else _NAMED[phi](x)
    if not np.all(np.isfinite(v)):
        raise _bad("phi", phi, "not finite on %d of %d paths of level %d" % (np.sum(~np.isfinite(v)), paths, level))
    return v


def _ensemble(*a, **k):
    from slpi import ensemble
    return ensemble(*a, **k)


def _rate(lev, v):
    """-slope of log2 v on the level (least squares), NaN with fewer than 2 positive values."""
    ok = v > 0
    return -np.polyfit(lev[ok], np.log2(v[ok]), 1)[0] if ok.sum() >= 2 else float("nan")


def mlmc_test(problem=None, levels=(3, 8), paths=2000, *, eps=(0.02, 0.01, 0.005), phi="sin2pi", lmax=16, pilot=200,
              threads=None, **settings):
    """Giles' mlmc_test (docs/noise.md#mlmc-test): is the problem fit for MLMC, and what does
    it cost? For each level l of ``levels`` (l0, L), ``paths`` coupled paths give the mean,
    variance and kurtosis of Y_l (P_l0 at l0, P_l - P_l-1 above; the coarse path is the
    plain run at (h_l-1, refine 1), the fine one at (h_l, refine 0), as ``slpi.mlmc``
    couples them) and of P_l; the consistency check of E[P_l - P_l-1] = E P_l - E P_l-1;
    the rates alpha, beta, gamma; then ``slpi.mlmc`` at each requested RMSE of ``eps``
    (levels l0..lmax, ``pilot`` paths per new level). Level j (0 at l0) uses paths
    j 2^27 + n, as ``slpi.mlmc``.

    phi: "x1", "sin2pi", or a callable ``phi(x) -> float`` of the state array. problem and
    settings as ``run`` (``noise_tau`` too). Returns an ``MlmcTest``; ``slpi.plot.mlmc_test``
    draws it.

    >>> t = slpi.mlmc_test("iso/rigid-body/weak", levels=(2, 5), paths=200, eps=(0.05,))
    >>> len(t.level), len(t.sweep), float(t.check[0])
    (4, 1, 0.0)
    """
    from slpi import mlmc
    if not (isinstance(levels, (tuple, list)) and len(levels) == 2):
        raise _bad("levels", levels, "must be (l0, L)")
    l0, L = _integer("levels[0]", levels[0], 0, 24), _integer("levels[1]", levels[1], 0, 24)
    if L < l0 + 2:
        raise _bad("levels", levels, "need L >= l0 + 2: the rates are fitted to two levels above l0 at least")
    paths = _integer("paths", paths, 2, 2**27)
    if not callable(phi) and phi not in _NAMED:
        raise _bad("phi", phi, "must be 'x1', 'sin2pi' or a callable phi(x) (an expression: write it as a function)")
    eps = np.atleast_1d(np.asarray(eps, dtype=float))
    if eps.size == 0 or not np.all(eps > 0):
        raise _bad("eps", eps, "must be positive requested RMSEs")
    threads = 1 if threads is None else _integer("threads", threads, 1, 256)
    lev = np.arange(l0, L + 1)
    n = len(lev)
    mean, var, kurt, mp, vp, chk, sec = (np.zeros(n) for _ in range(7))
    for j, l in enumerate(lev):
        first = j * 2**27
        t0 = time.perf_counter()
        pf = _values(problem, phi, int(l), 0, first, paths, threads, settings)
        y = pf - _values(problem, phi, int(l) - 1, 1, first, paths, threads, settings) if j > 0 else pf
        sec[j] = (time.perf_counter() - t0) / paths
        mean[j], var[j] = y.mean(), y.var(ddof=1)
        mp[j], vp[j] = pf.mean(), pf.var(ddof=1)
        if j > 0:
            c = y - mean[j]
            kurt[j] = np.mean(c ** 4) / np.mean(c ** 2) ** 2 if np.any(c != 0) else float("nan")
            chk[j] = abs(mean[j] - mp[j] + mp[j - 1]) / (3 * (math.sqrt(var[j]) + math.sqrt(vp[j - 1])
                                                              + math.sqrt(vp[j])) / math.sqrt(paths))
    cost = np.where(lev == l0, 2.0 ** lev, 1.5 * 2.0 ** lev)
    up = lev >= l0 + max(1, math.ceil(0.4 * (L - l0)))     # Giles: the upper levels, l0 left out
    if up.sum() < 2:
        up = lev > l0
    alpha, beta = _rate(lev[up], np.abs(mean[up])), _rate(lev[up], var[up])
    gamma = math.log2(sec[-1] / sec[-2]) if sec[-2] > 0 and sec[-1] > 0 else float("nan")
    flags = []
    if np.max(chk) > 1:
        flags.append("consistency check %.3g > 1 at level %d: E[P_l - P_l-1] = E P_l - E P_l-1 does not hold "
                     "(a coupling or functional error)" % (np.max(chk), lev[np.argmax(chk)]))
    if kurt[-1] > 100:
        flags.append("kurtosis %.3g > 100 on the finest level: the correction is dominated by a few rare paths, "
                     "so its variance estimate (and the path counts) are unreliable" % kurt[-1])
    a = max(0.5, alpha) if np.isfinite(alpha) else 1.0
    sweep = [mlmc(problem, rmse=float(e), phi=phi, levels=(l0, lmax), pilot=pilot, alpha=min(a, 8.0),
                  threads=threads, on_failure="ignore", **settings) for e in eps]
    return MlmcTest(level=lev, mean=mean, var=var, kurtosis=kurt, mean_p=mp, var_p=vp, check=chk, cost=cost,
                    seconds=sec, alpha=float(alpha), beta=float(beta), gamma=float(gamma), flags=flags, eps=eps,
                    sweep=sweep, mlmc_cost=np.array([s.total_cost for s in sweep]),
                    mc_cost=np.array([s.mc_cost for s in sweep]), paths=paths)
