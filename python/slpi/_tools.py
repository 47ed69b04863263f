"""slpi._tools — the calls beside ``run``: the canonical noise (``noise``), the port
verifier (``verify``), the golden cases (``golden``), presets and keys (``presets``,
``keys``), convergence studies (``converge``, ``Study``) and ``write_trajectory``.
``verify``, ``golden`` and ``converge`` call the tools library libslpi-tools. Imported by
``slpi/__init__.py`` after its helpers; use them as ``slpi.noise``, ``slpi.verify``, ..."""

import os
from dataclasses import dataclass

import numpy as np

from slpi._version import __version__
from slpi._native import ffi as _ffi, lib as _lib, tools as _tools
# the helpers of slpi/__init__.py, defined before it imports this module
from slpi import (
    SlpiError, _bad, _guard_memory, _integer, _interruptible, _path, _problem, _ptr,
    _raise_callback_error, _text)


def noise(seed, path, component, h, steps, refine=0, first=0):
    """Canonical Wiener increments (docs/noise.md#contract), untruncated.

    Parameters
    ----------
    seed : int
        0..2^64-1.
    path : int
        Noise path, 0..2^32-1.
    component : int
        Wiener process index k (W^{k+1}), 0..2^32-1.
    h : float
        Step size, finite, in (0, 1e6].
    steps : int
        Number of increments (>= 0).
    refine : int
        Fine levels summed into each increment, 0..40.
    first : int
        Index of the first step.

    Returns
    -------
    ndarray (steps,)

    Raises
    ------
    SlpiError
        A value out of range, named; more than 2^38 fine draws (steps 2^refine: about 15
        minutes; generate such noise in pieces with ``first``).
    KeyboardInterrupt
        On Ctrl-C, within 2^20 fine draws (a few ms); nothing is returned.

    Examples
    --------
    >>> dW = slpi.noise(seed=7, path=0, component=0, h=0.01, steps=4)
    >>> dW.shape, bool(np.array_equal(dW[2:], slpi.noise(7, 0, 0, 0.01, 2, first=2)))
    ((4,), True)
    """
    seed = _integer("seed", seed, 0, 2**64 - 1)
    path = _integer("path", path, 0, 2**32 - 1)
    component = _integer("component", component, 0, 2**32 - 1)
    steps = _integer("steps", steps, 0)
    refine = _integer("refine", refine, 0, 40)
    first = _integer("first", first, 0, 2**62 - steps)
    if isinstance(h, (bool, np.bool_)) or not isinstance(h, (int, float, np.integer, np.floating)):
        raise _bad("h", h, "must be a number")
    if not (np.isfinite(h) and 0 < h <= 1e6):
        raise _bad("h", h, "the step size must be finite and in (0, 1e6]")
    if (first + steps) << refine >= 2**62:
        raise _bad("refine", refine, "steps * 2^refine must stay below 2^62")
    _guard_memory(8.0 * steps, "noise: %d increments" % steps, None)
    out = np.empty(steps)
    err = _ffi.new("slpi_error *")
    # the library's own rules (slpi.h), e.g. h above 1e6, name what they refuse
    _, error = _interruptible(_lib, lambda: _lib.slpi_noise_increments(seed, path, component, float(h), refine,
                                                                       first, steps, _ptr(out), err),
                              lambda rc: SlpiError(rc, _ffi.string(err.msg).decode()))
    if error:
        raise error
    return out


@dataclass
class Verification:
    """The verdict of ``slpi.verify`` and its numbers (``slpi verify --json``).

    Attributes
    ----------
    verdict : str
        "PASS", "FAIL" or "UNABLE".
    report : dict
        Everything ``slpi verify --json`` writes (rows, certified steps, worst ratios,
        invariant drifts, the local comparison).
    """
    verdict: str
    report: dict

    def __getattr__(self, name):
        try:
            return self.__dict__["report"][name]
        except KeyError:
            raise AttributeError(name) from None


def verify(path, noise_file=None, max_steps=-1):
    """Verify a trajectory file (``slpi-trajectory 1``, of slpi or a port) against the
    certified path.

    Parameters
    ----------
    path : str or path
        The trajectory file.
    noise_file : str or path, optional
        Increments overriding the header's noise.
    max_steps : int
        Certify at most this many steps (-1: no bound).

    Returns
    -------
    Verification

    Raises
    ------
    SlpiError
        A missing or malformed file, named with file:line.

    Examples
    --------
    >>> import tempfile, subprocess
    >>> f = tempfile.NamedTemporaryFile(suffix=".tsv", delete=False).name
    >>> slpi.write_trajectory(f, slpi.run("iso/rigid-body/trajectories", steps=4))
    >>> v = slpi.verify(f)
    >>> v.verdict
    'PASS'
    """
    import json
    import tempfile
    cpath = _path("path", path)
    cnoise = _path("noise_file", noise_file) if noise_file is not None else _ffi.NULL
    max_steps = _integer("max_steps", max_steps, -1)
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "verify.json")
        t = _tools()
        _, error = _interruptible(t, lambda: t.slpi_api_verify_json(cpath, cnoise, max_steps, j.encode()))
        if error:
            raise error
        with open(j) as f:
            doc = json.load(f)
    return Verification(verdict=doc.get("verdict"), report=doc)


@dataclass
class GoldenReport:
    """The golden cases checked on both paths (``slpi golden``).

    Attributes
    ----------
    verdict : str
        The worst verdict: "PASS", "FAIL" or "UNABLE".
    text : str
        The report: the non-PASS cases and the table of worst scores.
    """
    verdict: str
    text: str


def golden(directory=None):
    """Check the golden cases (the installed ones, or those of ``directory``).

    Parameters
    ----------
    directory : str or path, optional
        A folder of ``.golden`` files (default: ``$SLPI_GOLDEN_DIR``, the installed ones,
        or the source tree's ``oracle/golden``).

    Returns
    -------
    GoldenReport

    Raises
    ------
    SlpiError
        A missing or malformed golden file.

    Examples
    --------
    >>> slpi.golden().verdict
    'PASS'
    """
    v = _ffi.new("int *")
    buf = _ffi.new("char[]", 1 << 20)
    t = _tools()
    d = _path("directory", directory) if directory is not None else _ffi.NULL
    _, error = _interruptible(t, lambda: t.slpi_api_golden(d, v, buf, 1 << 20))
    if error:
        raise error
    return GoldenReport(verdict={0: "PASS", 1: "FAIL", 3: "UNABLE"}[v[0]], text=_ffi.string(buf).decode())


def presets():
    """Every preset (one per experiment of the papers).

    Returns
    -------
    dict of str to str
        Name to description.

    Examples
    --------
    >>> "iso/rigid-body/trajectories" in slpi.presets()
    True
    """
    out, p, i = {}, _lib.slpi_presets(), 0
    while p[i].name != _ffi.NULL:
        out[_ffi.string(p[i].name).decode()] = _ffi.string(p[i].what).decode()
        i += 1
    return out


def keys(problem=None, **settings):
    """Every problem key (``slpi list --keys``) with its value in a problem.

    Parameters
    ----------
    problem : str, Problem or None
        As ``run``.
    **settings
        More settings.

    Returns
    -------
    list of dict
        name, system ("" for every system), help, and value (None where the key is not
        the problem's system's).

    Examples
    --------
    >>> [k["value"] for k in slpi.keys(steps=7) if k["name"] == "steps"]
    ['7']
    """
    pr = _problem(problem, settings)
    values = dict(line.split("=", 1) for line in pr.text().splitlines() if "=" in line)
    out, i = [], 0
    name, system, hlp = _ffi.new("char **"), _ffi.new("char **"), _ffi.new("char **")
    while _lib.slpi_problem_key(i, name, system, hlp):
        k, sy = _ffi.string(name[0]).decode(), _ffi.string(system[0]).decode()
        mine = sy in ("", values.get("system"))
        out.append({"name": k, "system": sy, "help": _ffi.string(hlp[0]).decode(),
                    "value": values.get(k) if mine else None})
        i += 1
    return out


@dataclass
class Study:
    """A coupled convergence study (``slpi.converge``).

    Attributes
    ----------
    h, e, se : ndarray (levels,)
        Step size, error against the reference and its standard error per level.
    slope : float
        The fitted order (NaN when it cannot be fitted; ``why`` says why).
    ci : tuple of float
        Its bootstrap 95% confidence interval.
    why : str
        Empty, or the reason the slope is NaN.
    uncertified : str or None
        As ``Result.uncertified``.
    """
    h: np.ndarray
    e: np.ndarray
    se: np.ndarray
    slope: float
    ci: tuple
    why: str = ""
    uncertified: str = None


def converge(problem=None, kind="strong", levels=(3, 8), ref=12, paths=100, path0=0, boot=1000, indep=None,
             **settings):
    """The coupled study ``slpi converge`` runs (docs/noise.md#coupling).

    Parameters
    ----------
    problem : str, Problem or None
        As ``run``.
    kind : {"strong", "sup", "weak"}
        The error measured.
    levels : (int, int)
        First and last level k (h = T 2^-k).
    ref : int
        The reference level.
    paths : int
        Coupled paths, from ``path0``.
    path0 : int
        The first path.
    boot : int
        Bootstrap replicates of the slope's CI.
    indep : str, optional
        A scheme name for an independent reference.
    **settings
        More problem settings.

    Returns
    -------
    Study
        A path whose step fails (a coarse level's solve that does not converge, ...) is left
        out of every estimate (docs/noise.md#failed-paths); ``slpi converge`` reports how
        many and the first failure (its text and ``--json``), this Study does not yet.

    Raises
    ------
    SlpiError
        Bad input, named; a numerical failure when fewer than 2 paths survive.

    Examples
    --------
    >>> s = slpi.converge("iso/rigid-body/strong", levels=(2, 3), ref=5, paths=4, boot=10)
    >>> s.e.shape
    (2,)
    """
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
    pr = _problem(problem, settings)
    n = k1 - k0 + 1
    h, e, se = np.empty(n), np.empty(n), np.empty(n)
    fit = _ffi.new("double[3]")
    t = _tools()
    ckind, ind = _text("kind", kind), _text("indep", indep) if indep is not None else _ffi.NULL
    _, error = _interruptible(t, lambda: t.slpi_api_converge(pr._p, ckind, k0, k1, ref, paths, path0, boot,
                                                             ind, _ptr(h), _ptr(e), _ptr(se), fit))
    _raise_callback_error(pr)
    if error:
        raise error
    why = ""
    if np.isnan(fit[0]):   # the rule of `slpi converge`: weak studies fit the levels with e > 3 SE
        usable = int(np.sum(e > 3 * se)) if kind == "weak" else int(np.sum(e > 0))
        why = ("%d of %d levels %s: a slope needs 2 (more paths resolve the error)"
               % (usable, n, "have e > 3 SE" if kind == "weak" else "have a positive error")
               if usable < 2 else "the errors do not determine a slope")
    return Study(h=h, e=e, se=se, slope=fit[0], ci=(fit[1], fit[2]), why=why, uncertified=pr.uncertified)


def write_trajectory(path, result):
    """Write a fast-path Result as an ``slpi-trajectory 1`` file that ``slpi verify``
    reads (``--hex`` doubles), written to a temporary file and renamed.

    Parameters
    ----------
    path : str or path
    result : Result
        From ``slpi.run`` (fast path, default ``x0``, the problem's noise).

    Raises
    ------
    SlpiError
        A certified result (its balls are not a port's doubles).

    Examples
    --------
    >>> import tempfile
    >>> f = tempfile.NamedTemporaryFile(suffix=".tsv", delete=False).name
    >>> slpi.write_trajectory(f, slpi.run(steps=3))
    >>> slpi.read_trajectory(f)[1]["x1"].shape
    (4,)
    """
    if result.radii is not None:
        raise _bad("result", "ref", "a certified result has balls, not a port's doubles")
    if getattr(result, "_problem_text", None) is None:
        raise _bad("result", type(result).__name__, "not a Result of slpi.run on the problem's own x0 and noise")
    path = _path("path", path).decode()
    tmp = "%s.part-%d" % (path, os.getpid())
    try:
        with open(tmp, "w") as f:
            f.write("# slpi-trajectory 1\n# arith=fast\n# state_columns=%s\n# slpi_version=%s\n"
                    % (",".join(result.labels), __version__))
            for line in result._problem_text.splitlines():
                f.write("# %s\n" % line)
            f.write("\t".join(["step", "t"] + result.labels) + "\n")
            for n, t, x in zip(result.step, result.t, result.states):
                f.write("\t".join([str(int(n)), repr(float(t))] + [float(v).hex() for v in x]) + "\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
