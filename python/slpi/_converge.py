"""slpi._converge — ``slpi.converge``: the coupled convergence study of ``slpi converge``
with its options, through libslpi-tools (slpi_api_converge_json), and its ``Study``.
Imported by ``slpi/__init__.py`` after its helpers; use it as ``slpi.converge``."""

import os
from dataclasses import dataclass

import numpy as np

from slpi._native import ffi as _ffi, lib as _lib, tools as _tools
# the helpers of slpi/__init__.py, defined before it imports this module
from slpi import _bad, _flag, _integer, _interruptible, _path, _problem, _raise_callback_error, _text


@dataclass
class Study:
    """A coupled convergence study (``slpi.converge``).

    Attributes
    ----------
    h, e, se : ndarray (levels,)
        Step size, error against the reference and its standard error per level (the
        independent reference's when ``indep`` or ``exact`` was given, else the self
        reference's).
    slope : float
        The fitted order (NaN when it cannot be fitted; ``why`` says why).
    ci : tuple of float
        Its bootstrap 95% confidence interval.
    why : str
        Empty, or the reason the slope is NaN.
    uncertified : str or None
        As ``Result.uncertified``.
    failed : int
        Paths left out of every estimate because a step failed on them
        (docs/noise.md#failed-paths); ``report["first_failure"]`` names the first.
    report : dict
        Everything ``slpi converge --json`` writes: provenance, problem, the study, every
        level's columns (``self``, ``indep``, ``mlmc``, ``phi``: e, se, mean, var; ``giles``,
        ``quadrature``), the slopes, the paths that survived.
    """
    h: np.ndarray
    e: np.ndarray
    se: np.ndarray
    slope: float
    ci: tuple
    why: str = ""
    uncertified: str = None
    failed: int = 0
    report: dict = None


def converge(problem=None, kind="strong", levels=(3, 8), ref=12, paths=100, path0=0, boot=1000, indep=None,
             *, phi=None, exact=False, batches=None, fit="wls", drop_coarse=0, threads=None, progress=False,
             checkpoint=None, checkpoint_every=1, resume=None, **settings):
    """The coupled study ``slpi converge`` runs (docs/noise.md#coupling), with its options.

    Parameters
    ----------
    problem : str, Problem or None
        As ``run``.
    kind : {"strong", "sup", "weak"}
        The error measured (``--kind``).
    levels : (int, int)
        First and last level k (h = T 2^-k; ``--levels``).
    ref : int
        The reference level (``--ref``).
    paths : int
        Coupled paths, from ``path0`` (``--paths``, ``--path0``).
    path0 : int
        The first path.
    boot : int
        Bootstrap replicates of the slope's CI (``--boot``).
    indep : str, optional
        A scheme name for an independent reference (``--indep``).
    phi : {"sin2pi", "x1"}, optional
        The weak functional (``--phi``; default sin2pi).
    exact : bool
        The weak study's exact reference exp(-amp^2 T/2) = E x_1(T) (``--exact``; the so(3)
        oracle, with ``phi="x1"``).
    batches : int, optional
        Batches of paths, the units of work and of the bootstrap (``--batches``; default
        min(paths, 32)).
    fit : {"wls", "ols"}
        The slope fit's weights (``--fit``): (e/SE)^2 (default) or equal.
    drop_coarse : int
        The coarsest levels left out of the slope fit, 0..30 (``--drop-coarse``).
    threads : int, optional
        OpenMP threads, 1..256 (``--threads``; default the runtime's). The numbers are the
        same bits for any count.
    progress : bool
        The library's progress line on standard error (``--progress``); False: none.
    checkpoint : str or path, optional
        Write the completed batches' sums to this file (atomically) every
        ``checkpoint_every`` completed batches (``--checkpoint``, ``--checkpoint-every``):
        a study stopped by Ctrl-C keeps its last checkpoint, and the command's
        ``--resume`` reads it too.
    checkpoint_every : int
        Completed batches between checkpoints, 1..65536.
    resume : str or path, optional
        A checkpoint of the same study (this call's, or ``slpi converge --checkpoint``'s):
        its batches are reloaded, the rest computed, and the study is an uninterrupted
        one's, number for number (``--resume``; another study's checkpoint is refused,
        naming the first differing parameter). May be the ``checkpoint`` file itself.
    **settings
        More problem settings.

    The command's ``-o`` and ``--json`` write files: their contents are ``Study.report``
    (``json.dump`` it).

    Returns
    -------
    Study
        A path whose step fails (a coarse level's solve that does not converge, ...) is left
        out of every estimate (docs/noise.md#failed-paths): ``failed`` counts them.

    Raises
    ------
    SlpiError
        Bad input, named; a numerical failure when fewer than 2 paths survive.
    KeyboardInterrupt
        On Ctrl-C, at the next lock-step step; nothing is returned.

    Examples
    --------
    >>> s = slpi.converge("iso/rigid-body/strong", levels=(2, 3), ref=5, paths=4, boot=10)
    >>> s.e.shape, s.failed
    ((2,), 0)
    >>> w = slpi.converge("iso/rigid-body/weak", kind="weak", levels=(2, 3), ref=5, paths=8, boot=10, phi="x1",
    ...                   threads=2)
    >>> w.report["study"]["phi"], sorted(w.report["levels"][0])
    ('x1', ['giles', 'h', 'level', 'mlmc', 'phi', 'self'])
    """
    import json
    import tempfile
    if not isinstance(kind, str):
        raise _bad("kind", kind, "must be 'strong', 'sup' or 'weak'")
    if not (isinstance(levels, (tuple, list)) and len(levels) == 2):
        raise _bad("levels", levels, "must be (first, last)")
    k0, k1 = _integer("levels[0]", levels[0], 0, 62), _integer("levels[1]", levels[1], 0, 62)
    if k1 < k0:
        raise _bad("levels", levels, "need a first level <= the last")
    ref = _integer("ref", ref, 0, 62)
    paths = _integer("paths", paths, 1, 2**32)
    path0 = _integer("path0", path0, 0, 2**32 - 1)
    boot = _integer("boot", boot, 0, 2**31 - 1)
    batches = 0 if batches is None else _integer("batches", batches, 1, 65536)
    if fit not in ("wls", "ols"):
        raise _bad("fit", fit, "must be 'wls' or 'ols'")
    drop_coarse = _integer("drop_coarse", drop_coarse, 0, 30)
    checkpoint_every = _integer("checkpoint_every", checkpoint_every, 1, 65536)
    ck = _path("checkpoint", checkpoint) if checkpoint is not None else _ffi.NULL
    rs = _path("resume", resume) if resume is not None else _ffi.NULL
    threads = 0 if threads is None else _integer("threads", threads, 1, 256)
    exact, progress = _flag("exact", exact), _flag("progress", progress)
    pr = _problem(problem, settings)
    t = _tools()
    ckind, ind = _text("kind", kind), _text("indep", indep) if indep is not None else _ffi.NULL
    cphi = _text("phi", phi) if phi is not None else _ffi.NULL
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "converge.json")
        _lib.slpi_progress_set_mode(_lib.SLPI_PROGRESS_ON if progress else _lib.SLPI_PROGRESS_OFF)
        try:
            _, error = _interruptible(t, lambda: t.slpi_api_converge_json(
                pr._p, ckind, k0, k1, ref, paths, path0, batches, boot, ind, cphi, int(exact), fit.encode(), drop_coarse,
                ck, checkpoint_every, rs, threads, _path("json", j)))
        finally:
            _lib.slpi_progress_set_mode(_lib.SLPI_PROGRESS_AUTO)   # the library's default
        _raise_callback_error(pr)
        if error:
            raise error
        with open(j) as f:
            doc = json.load(f)
    col = "indep" if indep is not None or exact else "self"
    lv = doc["levels"]
    h = np.array([x["h"] for x in lv])
    e = np.array([x[col]["e"] for x in lv])
    se = np.array([x[col]["se"] for x in lv])
    fit = doc["slopes"].get(col, {})
    slope = fit.get("slope", float("nan"))
    slope = float("nan") if slope is None else slope
    why = ""
    n = len(lv)
    if np.isnan(slope):   # the rule of `slpi converge`: weak studies fit the levels with e > 3 SE
        usable = int(np.sum(e > 3 * se)) if kind == "weak" else int(np.sum(e > 0))
        why = ("%d of %d levels %s: a slope needs 2 (more paths resolve the error)"
               % (usable, n, "have e > 3 SE" if kind == "weak" else "have a positive error")
               if usable < 2 else "the errors do not determine a slope")
    nan = lambda v: float("nan") if v is None else v   # noqa: E731 (JSON writes NaN as null)
    return Study(h=h, e=e, se=se, slope=slope, ci=(nan(fit.get("ci_lo")), nan(fit.get("ci_hi"))), why=why,
                 uncertified=pr.uncertified, failed=int(doc.get("failed_paths", 0)), report=doc)
