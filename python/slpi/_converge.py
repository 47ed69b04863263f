"""slpi._converge — ``slpi.converge``: the coupled convergence study of ``slpi converge``
with its options, through libslpi-tools (slpi_api_converge_json), and its ``Study``.
Imported by ``slpi/__init__.py`` after its helpers; use it as ``slpi.converge``."""

import os
import warnings
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
        Paths left out of every estimate because a step failed on them, or their
        functional was not finite (docs/noise.md#failed-paths); ``report["first_failure"]``
        names the first. ``converge`` warns when it is not 0 (``on_failure``).
    clipped : int
        Brownian increments the problem's truncation clipped (docs/noise.md#truncation),
        every level's counted once.
    paths_needed : int or None
        A weak study's estimate of the paths its slope needs: two levels with e > 3 SE, with
        the measured e and SE held fixed and SE scaling as 1/sqrt(paths)
        (docs/noise.md#path-counts); None for strong and sup studies, or when no count is
        finite. ``report["slopes"][col]["paths_needed_all"]``: every level's.
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
    clipped: int = 0
    paths_needed: int = None


def converge(problem=None, kind="strong", levels=(3, 8), ref=12, paths=100, path0=0, boot=1000, indep=None,
             *, phi=None, exact=False, batches=None, fit="wls", drop_coarse=0, threads=None, progress=False,
             checkpoint=None, checkpoint_every=1, resume=None, on_failure="warn", **settings):
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
    phi : str or callable, optional
        The weak functional (``--phi``; default "sin2pi"): "sin2pi", "x1", any expression
        of the state in the model language with the coordinate names of the problem's
        state (``"x1*x2 + x3^2"`` for the rigid body; docs/noise.md#functionals), or a
        callable ``phi(x) -> float`` of the state array x (shape (dim,)), called from the
        study's threads (no checkpoint then: code has no text a checkpoint can name). A
        value that is not finite makes its path a failed path.
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
    on_failure : {"warn", "raise", "ignore"}
        What a study with failed paths does (they are left out of every estimate):
        warn (``RuntimeWarning`` with the count and the first failure, default), raise
        ``SlpiError`` (code 3) instead of returning, or stay silent (``Study.failed``).
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
    if on_failure not in ("warn", "raise", "ignore"):
        raise _bad("on_failure", on_failure, "must be 'warn', 'raise' or 'ignore'")
    fn = phi if callable(phi) else None
    if fn is not None and (kind != "weak" or exact or checkpoint is not None or resume is not None):
        raise _bad("phi", phi, "a callable functional needs kind='weak', no exact reference and no checkpoint or "
                   "resume (give an expression string to checkpoint)")
    cphi = _text("phi", phi) if phi is not None and fn is None else _ffi.NULL
    cb_error = [None]
    cfn = _phi_callback(fn, cb_error) if fn is not None else None
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "converge.json")
        _lib.slpi_progress_set_mode(_lib.SLPI_PROGRESS_ON if progress else _lib.SLPI_PROGRESS_OFF)
        try:
            if cfn is None:
                _, error = _interruptible(t, lambda: t.slpi_api_converge_json(
                    pr._p, ckind, k0, k1, ref, paths, path0, batches, boot, ind, cphi, int(exact), fit.encode(),
                    drop_coarse, ck, checkpoint_every, rs, threads, _path("json", j)))
            else:
                _, error = _interruptible(t, lambda: t.slpi_api_converge_json_fn(
                    pr._p, ckind, k0, k1, ref, paths, path0, batches, boot, ind, cfn, _ffi.NULL, fit.encode(),
                    drop_coarse, threads, _path("json", j)))
        finally:
            _lib.slpi_progress_set_mode(_lib.SLPI_PROGRESS_AUTO)   # the library's default
        _raise_callback_error(pr)
        if cb_error[0] is not None:   # the callable's exception: the study stopped using it
            raise cb_error[0]
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
    need = fit.get("paths_needed")
    need = None if need is None else int(need)
    n = len(lv)
    if np.isnan(slope):   # the rule of `slpi converge`: weak studies fit the levels with e > 3 SE
        usable = int(np.sum(e > 3 * se)) if kind == "weak" else int(np.sum(e > 0))
        why = ("%d of %d levels %s: a slope needs 2 (more paths resolve the error%s)"
               % (usable, n, "have e > 3 SE" if kind == "weak" else "have a positive error",
                  "" if need is None else "; about %d paths from the measured SE, docs/noise.md#path-counts" % need)
               if usable < 2 else "the errors do not determine a slope")
    nan = lambda v: float("nan") if v is None else v   # noqa: E731 (JSON writes NaN as null)
    failed = int(doc.get("failed_paths", 0))
    if failed and on_failure != "ignore":
        from slpi import SlpiError
        ff = doc.get("first_failure", {})
        msg = ("converge: %d of %d paths failed and were left out of every estimate (docs/noise.md#failed-paths); "
               "the first: path %s, level %s, step %s: %s" % (failed, paths, ff.get("path"), ff.get("level"),
                                                             ff.get("step"), ff.get("status")))
        if on_failure == "raise":
            raise SlpiError(3, msg + " (on_failure='raise')")
        warnings.warn(msg + " (on_failure='raise' stops instead)", RuntimeWarning, stacklevel=2)
    return Study(h=h, e=e, se=se, slope=slope, ci=(nan(fit.get("ci_lo")), nan(fit.get("ci_hi"))), why=why,
                 uncertified=pr.uncertified, failed=failed, report=doc, clipped=int(doc.get("clipped_increments", 0)),
                 paths_needed=need)


def _phi_callback(fn, error):
    """The cffi function of a callable functional: phi(x) for a state array x, its value
    into *value; an exception (or a value that is not a real number) is kept in error[0]
    and the call returns 1 (the path fails; later calls return 1 at once), to be raised
    when the study has returned."""
    from slpi._callback import _keep_lost

    def call(out, x, n, _):
        if error[0] is not None:
            return 1
        try:
            v = np.asarray(fn(np.frombuffer(_ffi.buffer(x, 8 * n), dtype=np.float64).copy()))
            if v.shape != () or v.dtype.kind not in "fiu":
                raise _bad("phi", fn, "the callable returned %s %s: need a real number" % (v.dtype, v.shape))
            out[0] = float(v)
            return 0
        except BaseException as e:   # KeyboardInterrupt too: raised again after the study
            error[0] = e
            return 1
    return _ffi.callback("int(double *, const double *, int, void *)", call, error=1, onerror=_keep_lost(error))
