"""slpi._tools — the calls beside ``run``: the canonical noise (``noise``), the port
verifier (``verify``), the golden cases (``golden``), presets and keys (``presets``,
``keys``), convergence studies (``converge``, ``Study``) and ``write_trajectory``.
``verify``, ``golden`` and ``converge`` (slpi/_converge.py) call the tools library libslpi-tools. Imported by
``slpi/__init__.py`` after its helpers; use them as ``slpi.noise``, ``slpi.verify``, ..."""

import os
from dataclasses import dataclass

import numpy as np

from slpi._version import __version__
from slpi._native import ffi as _ffi, lib as _lib, tools as _tools
from slpi._atomic import write
# the helpers of slpi/__init__.py, defined before it imports this module
from slpi import (
    SlpiError, _bad, _flag, _guard_memory, _integer, _interruptible, _library_error, _path, _problem, _ptr,
    _text)


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


def increments(problem, first=0, count=None, **keys):
    """The increments a run of ``problem`` steps on: its noise source, white or
    Ornstein-Uhlenbeck (key ``noise_tau``, docs/noise.md#ou), truncated per the problem.

    Parameters
    ----------
    problem : Problem, str (a preset) or None
        With ``keys`` set on a copy.
    first : int
        The first step (0-based).
    count : int or None
        Steps wanted (None: to the last step).

    Returns
    -------
    ndarray (count, M)
        Row i holds the M increments of step ``first + i``.

    Raises
    ------
    SlpiError
        A bad key or range, named.

    Examples
    --------
    >>> Y = slpi.increments("iso/rigid-body/weak", count=4, noise_tau=0.05)
    >>> Y.shape
    (4, 3)
    """
    p = _problem(problem, keys)
    steps, m = p.steps, p.noises
    first = _integer("first", first, 0, steps)
    count = steps - first if count is None else _integer("count", count, 0, steps - first)
    _guard_memory(8.0 * count * m, "increments: %d x %d" % (count, m), None)
    out = np.empty((count, m))
    clipped = _ffi.new("long *")
    rc, error = _interruptible(_lib, lambda: _lib.slpi_problem_increments(p._p, first, count, _ptr(out), clipped))
    if error:
        raise error
    return out


def write_noise(file, dW, h, seed=0, path=0, refine=0, ell=0.0, first=0):
    """Write increments as a noise file (``slpi-noise 1``) with ``slpi noise``'s own
    writer: for the same values and header, the bytes of ``slpi noise`` (a porter who
    draws or keeps the increments in Python verifies the run with ``noise_file=``).

    Parameters
    ----------
    file : str or path
        Replaced whole, or left as it was on error.
    dW : array (steps, M) or (steps,)
        Row n: the increments dW_1..dW_M of step ``first + n``; finite.
    h : float
        The step size they belong to, in (0, 1e6].
    seed, path : int
        What the header states (``slpi noise --preset`` writes the problem's).
    refine : int
        Fine levels summed into each increment, 0..40.
    ell : float
        The truncation D(h, ell) = sqrt(2 ell h |ln h|) the values respect, in (0, 100];
        0: untruncated.
    first : int
        The index of the first step.

    Raises
    ------
    SlpiError
        A value out of range, a non-finite increment or one beyond D, an unwritable file.

    Examples
    --------
    >>> import tempfile, subprocess
    >>> f = tempfile.NamedTemporaryFile(suffix=".noise", delete=False).name
    >>> dW = np.column_stack([slpi.noise(1, 0, k, 0.25, 2) for k in range(2)])
    >>> slpi.write_noise(f, dW, 0.25, seed=1)
    >>> cli = subprocess.run([os.environ.get("SLPI_BIN", "slpi"), "noise", "--seed", "1", "--path", "0",
    ...                       "--components", "2", "--h", "0.25", "--steps", "2"], capture_output=True)
    >>> open(f, "rb").read() == cli.stdout
    True
    """
    cfile = _path("file", file)
    try:
        a = np.asarray(dW, dtype=np.float64)
    except (TypeError, ValueError):
        raise _bad("dW", dW, "must be an array of real numbers") from None
    if a.ndim == 1:
        a = a[:, None]
    if a.ndim != 2 or a.shape[0] < 1 or a.shape[1] < 1:
        raise _bad("dW", dW, "must be an array of shape (steps, M) with steps, M >= 1")
    a = np.ascontiguousarray(a)
    for name, v in (("h", h), ("ell", ell)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise _bad(name, v, "must be a number")
    seed = _integer("seed", seed, 0, 2**64 - 1)
    path = _integer("path", path, 0, 2**32 - 1)
    refine = _integer("refine", refine, 0, 40)
    first = _integer("first", first, 0, 2**62)
    t = _tools()
    rc = t.slpi_api_noise_write(cfile, _ffi.cast("const double *", _ffi.from_buffer(a)), a.shape[0], a.shape[1],
                                float(h), seed, path, refine, float(ell), first)
    if rc != 0:
        raise _library_error(rc, t)


@dataclass
class Verification:
    """The verdicts of ``slpi.verify`` and its numbers (``slpi verify --json``).

    Attributes
    ----------
    verdict : str
        "PASS", "FAIL" or "UNABLE": the proof's and the statistics' together, as the
        command's exit code says.
    proof : str
        The worst-case budget's verdict (global and local comparisons): "PASS", "FAIL"
        or "UNABLE".
    statistics : dict
        The calibrated test (oracle/README.md#statistics): "verdict" ("PASS", "FAIL",
        "LOW-POWER" or "not run"), "statistic", "p_value", "alpha", "effect_per_step_u",
        "detectable_effect_u", "steps", "observations" (the steps, rows of one step that are
        copies at the format's resolution counted once: oracle/README.md#copies), "paths",
        "steps_per_cpu_second", "declared_stop_u" (the port's declared solver stop in u |x|
        per step, oracle/README.md#declared-stop), ...
    report : dict
        Everything ``slpi verify --json`` writes (rows, certified steps, worst ratios,
        invariant drifts, the local comparison, "proof", "statistics"); any of its keys
        is also an attribute (``v.max_ulps``), but for ``rows``.
    text : str
        The report ``slpi verify`` prints (with ``table=True``, a line per row too).
    rows : int
        The rows the proof checked: the global comparison's, or where only the local
        comparison ran (``local=True, global_=False``) the local one's. (The JSON's
        top-level "rows" counts the global comparison's alone, 0 when it did not run:
        ``report["rows"]``; the local one's is ``report["local"]["rows"]``.)
    diagnosis : dict or None
        Beside a statistical FAIL, the ingredients of the scheme that best explain it
        (oracle/README.md#diagnosis): "named" (True when one explains the deviation
        better than chance), "rows" (those it read: the statistics'), "p", "window" (None:
        all steps; else "from", "to" and the first's "relative_error" there) and
        "ingredients", strongest first, each with "ingredient", "relative_error" and its
        95 % interval "lo", "hi", "t", "share", "angle_deg" (its direction's angle to the
        first's), the joint fit with the first ("first_joint_t", the first's t there, its
        "first_joint_df" degrees of freedom and "critical_t"; "joint_t" and "joint_df",
        its own), "separated" (whether the rows tell it from the first) and "both"
        (neither alone explains the rows: both joint coefficients differ from 0);
        "indistinguishable" (the first and those the rows do not tell from it, or empty)
        and "more_rows" (the factor of rows that would; None where none would). With a
        window, the ingredients are ordered by their shares on its rows. None when the
        statistics did not run.
    """
    verdict: str
    proof: str
    statistics: dict
    report: dict
    text: str = ""

    @property
    def diagnosis(self):
        return self.statistics.get("diagnosis") if self.statistics else None

    @property
    def rows(self):
        g = self.report.get("rows", 0)
        return g if g else self.report.get("local", {}).get("rows", 0)

    def __getattr__(self, name):
        try:
            return self.__dict__["report"][name]
        except KeyError:
            raise AttributeError(name) from None


def _number(argument, value, why):
    """A real number (bool and other types refused), as an exact hex text for C."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise _bad(argument, value, why)
    return float(value).hex()


def _verify_argv(noise_file, max_steps, precision, unit_roundoff, budget, local, global_, threads, sample,
                 sample_seed, rows, alpha, require_power, golden_dir, stat_reference=None):
    """The options of ``slpi verify`` for these arguments (types checked here, values by
    the command's own parser)."""
    argv = []
    if noise_file is not None:
        argv += ["--noise-file", os.fspath(noise_file)]
    if max_steps != -1:
        argv += ["--max-steps", str(_integer("max_steps", max_steps, 0))]
    if precision is not None:
        if not isinstance(precision, str):
            raise _bad("precision", precision, "must be a format name (binary64, binary32, tf32, bfloat16, "
                       "binary16) or 'u=VALUE'")
        argv += ["--precision", precision]
    if unit_roundoff is not None:
        argv += ["--unit-roundoff", _number("unit_roundoff", unit_roundoff, "must be a number in (0, 1)")]
    if budget is not None:
        argv += ["--budget", _number("budget", budget, "must be a positive number")]
    if not _flag("local", local) and not _flag("global_", global_):
        raise _bad("local", local, "local and global_ both False check nothing")
    if not global_:
        argv.append("--local")
    elif not local:
        argv.append("--global")
    if threads is not None:
        argv += ["--threads", str(_integer("threads", threads, 1, 256))]
    if sample is not None:
        argv += ["--sample", str(_integer("sample", sample, 1))]
    if sample_seed is not None:
        argv += ["--sample-seed", str(_integer("sample_seed", sample_seed, 0, 2**64 - 1))]
    if rows is not None:
        if not (isinstance(rows, tuple) and len(rows) == 2):
            raise _bad("rows", rows, "must be a pair (A, B) of steps, None for an open end")
        a, b = (None if v is None else _integer("rows", v, 0) for v in rows)
        argv += ["--rows", "%s..%s" % ("" if a is None else a, "" if b is None else b)]
    if alpha is not None:
        argv += ["--alpha", _number("alpha", alpha, "must be a number in (0, 0.5]")]
    if _flag("require_power", require_power):
        argv.append("--require-power")
    if golden_dir is not None:
        argv += ["--golden-dir", os.fspath(golden_dir)]
    if stat_reference is not None:
        if not isinstance(stat_reference, str):
            raise _bad("stat_reference", stat_reference, "must be 'auto', 'certified', 'double' or 'accurate'")
        argv += ["--stat-reference", stat_reference]
    return argv


def verify(path, noise_file=None, max_steps=-1, *, precision=None, unit_roundoff=None, budget=None, local=True,
           global_=True, threads=None, sample=None, sample_seed=None, rows=None, alpha=None, require_power=False,
           golden_dir=None, table=False, stat_reference=None):
    """Verify trajectory files (``slpi-trajectory 1``, of slpi or a port) against the
    certified path: ``slpi verify`` with the same options (oracle/README.md).

    Parameters
    ----------
    path : str or path, or a list of them
        The trajectory file, or several paths of one problem (headers equal but for
        path=, seed=, noise_file=, x0_file=): each is proved, the statistics pool them.
    noise_file : str or path, optional
        Increments overriding the header's noise.
    max_steps : int
        Certify at most this many steps, UNABLE beyond (-1: a file that needs more than
        10**9 raises SlpiError naming --max-steps, oracle/README.md#max-steps).
    precision : str, optional
        The port's format: "binary64" (default), "binary32", "tf32", "tf32-rz" (TF32
        operands truncated), "bfloat16", "binary16", "u=VALUE", "ARITH/STORE", each but
        u=VALUE with "+ftz" for a unit that flushes subnormals (oracle/README.md#precisions).
    unit_roundoff : float, optional
        The same as precision="u=VALUE".
    budget : float, optional
        The worst-case ratio K that PASSes (default 30).
    local, global_ : bool
        Which comparisons run (both by default, as the command).
    threads : int, optional
        OpenMP threads of the local comparison.
    sample, sample_seed : int, optional
        Check a sample of that many local rows, drawn from the seed.
    rows : (int or None, int or None), optional
        Only the local rows of these steps (None: an open end).
    alpha : float, optional
        The statistical test's false-FAIL rate (default 1e-3).
    require_power : bool
        A statistical test with less than 90 % power for 1 u per step makes the verdict
        UNABLE.
    golden_dir : str or path, optional
        Where a header's case=NAME is looked up.
    table : bool
        ``Verification.text`` holds a line per row (global, then local), as ``--table``.
    stat_reference : str, optional
        The statistics' reference: "auto" (default: slpi's double path at binary32 and
        coarser formats, the accurate step at binary64), "certified", "double" or
        "accurate" (docs/power.md#reference-rule, #accurate-reference);
        ``statistics["reference"]`` says which was used.

    The command's output options are the result: ``report`` is what ``--json`` writes,
    ``text`` what it prints (``-o``), ``verdict`` its one-line ``--quiet`` summary's.

    Returns
    -------
    Verification

    Raises
    ------
    SlpiError
        A missing or malformed file (file:line), an unknown precision, files of
        different problems, an option out of range.

    Examples
    --------
    >>> import tempfile
    >>> f = tempfile.NamedTemporaryFile(suffix=".tsv", delete=False).name
    >>> slpi.write_trajectory(f, slpi.run("iso/rigid-body/trajectories", steps=4))
    >>> v = slpi.verify(f)
    >>> v.verdict, v.proof, v.statistics["verdict"]
    ('PASS', 'PASS', 'LOW-POWER')
    """
    import json
    import tempfile
    paths = list(path) if isinstance(path, (list, tuple)) else [path]
    if not paths:
        raise _bad("path", path, "no trajectory file given")
    files = [_path("path", p) for p in paths]
    if noise_file is not None:
        _path("noise_file", noise_file)
    if golden_dir is not None:
        _path("golden_dir", golden_dir)
    opts = _verify_argv(noise_file, max_steps, precision, unit_roundoff, budget, local, global_, threads, sample,
                        sample_seed, rows, alpha, require_power, golden_dir, stat_reference)
    if _flag("table", table):
        opts.append("--table")
    with tempfile.TemporaryDirectory() as d:
        j, txt = os.path.join(d, "verify.json"), os.path.join(d, "verify.txt")
        opts += ["--output", txt]
        cells = [_ffi.new("char[]", a) for a in [b"verify"] + [_text("option", o) for o in opts] + files]
        argv = _ffi.new("char *[]", cells)
        t = _tools()
        _, error = _interruptible(t, lambda: t.slpi_api_verify_argv(len(cells), argv, _path("json", j)))
        if error:
            raise error
        with open(j) as f:
            doc = json.load(f)
        with open(txt) as f:
            text = f.read()
    return Verification(verdict=doc["verdict"], proof=doc["proof"]["verdict"], statistics=doc["statistics"],
                        report=doc, text=text)


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
    """Check the golden cases (the built-in ones, or every ``.golden`` file of ``directory``).

    Parameters
    ----------
    directory : str or path, optional
        A folder of ``.golden`` files, your own (``slpi golden --write --config``): each is
        checked, whatever its name. Default: every built-in case, in ``$SLPI_GOLDEN_DIR``,
        the installed folder, or the source tree's ``oracle/golden`` (a missing file is an
        error).

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
    def fill(tmp):
        with open(tmp, "w") as f:
            f.write("# slpi-trajectory 1\n# arith=fast\n# state_columns=%s\n# slpi_version=%s\n"
                    % (",".join(result.labels), __version__))
            for line in result._problem_text.splitlines():
                f.write("# %s\n" % line)
            f.write("\t".join(["step", "t"] + result.labels) + "\n")
            for n, t, x in zip(result.step, result.t, result.states):
                f.write("\t".join([str(int(n)), repr(float(t))] + [float(v).hex() for v in x]) + "\n")
    write(_path("path", path).decode(), fill)
