"""slpi — verified stochastic Lie–Poisson integrators, from Python.

A cffi (ABI mode) binding of libslpi's handle API (``slpi.h``, "handle API for
bindings"); ``verify``, ``golden`` and ``converge`` call the tools library libslpi-tools
(``slpi-tools.h``), opened on their first use. Problems are a preset and ``key=value`` settings (``slpi list --keys``);
runs go into numpy arrays on the fast path (doubles) or the certified path (Arb balls,
``ref=True``: midpoints and radii). Every long call answers Ctrl-C with
``KeyboardInterrupt`` within about 0.05 s of work: ``run`` advances in
pieces of about 0.05 s, which resume exactly (the results are those of one call, bit for
bit); ``ensemble`` (by batches of paths), ``converge``, ``verify`` and ``golden`` run
their C calls in a worker thread, with the GIL released,
and Ctrl-C asks the library to stop at its next step, batch or case
(``slpi_interrupt_request``, docs/conventions.md#interrupt).

Install: ``pip install --no-build-isolation ./python`` after ``make`` (or ``make
install``, which installs this package too). The library is found as ``$SLPI_LIB``,
the source tree's ``build/libslpi.so``, the folder recorded at installation, or
``libslpi.so.0`` on the loader's path; libslpi-tools as ``$SLPI_TOOLS_LIB``, beside
``$SLPI_LIB``, then in the same places.

Examples
--------
>>> import slpi
>>> r = slpi.run("iso/rigid-body/trajectories", steps=100)
>>> r.states.shape
(101, 3)
>>> bool(abs(r.diagnostics["casimir_norm2"] - 1).max() < 1e-14)
True
"""
import os
import re
import threading

import numpy as np

from slpi._version import __version__
from slpi._native import ffi as _ffi, lib as _lib
from slpi.files import read_trajectory, read_converge, Trajectory
from slpi.algebra import pack_su, unpack_su, pack_so, unpack_so
from slpi._callback import _keep_lost, _native_callback
from slpi import _stop
from slpi._stop import Terminated

__all__ = ["Problem", "Model", "Callback", "run", "ensemble", "converge", "mlmc", "mlmc_test", "noise", "increments", "write_noise", "verify", "golden", "presets", "keys",
           "read_trajectory", "read_converge", "pack_su", "unpack_su", "pack_so", "unpack_so",
           "write_trajectory", "SlpiError", "Terminated", "Result", "Quantiles", "to_xarray", "save", "load", "provenance",
           "zeitlin_coefficients", "vorticity", "spherical_harmonic", "time_unit", "TimeUnit", "plot", "Ensemble", "Statistics", "Stat", "Trajectory", "Study", "Estimate", "Verification", "GoldenReport", "__version__"]


class SlpiError(ValueError):
    """An slpi error: bad input (``code`` 2) or a numerical failure (``code`` 3).

    The message names the argument and its value; ``argument`` and ``value`` hold them
    where known (else None).

    Examples
    --------
    >>> try:
    ...     slpi.run("iso/rigid-body/trajectories", tol="abc")
    ... except slpi.SlpiError as e:
    ...     print(e.code, e.argument)
    2 tol
    """

    def __init__(self, code, message, argument=None, value=None):
        super().__init__(message)
        self.code = code
        self.argument = argument
        self.value = value


# The library's words for the command line, as Python names them (a message of the
# library names what to look up; from Python that is a function or an argument)
_CLI_WORDS = (("(the keys: `slpi list --keys`, slpi_problem_key)", "(see slpi.keys())"),
              ("unknown preset (see `slpi list`)", "unknown preset (see slpi.presets())"),
              ("(see `slpi list`)", "(see slpi.keys(), the key's help)"),
              ("lower --ref", "lower ref"), ("--ref ", "ref="), ("--max-steps", "max_steps"))

# The files a Model writes its long x0 into (Model): an error that names one names x0.
_x0_files = set()


def _library_error(rc, lib=None):
    msg = _ffi.string((lib or _lib).slpi_api_last_error()).decode()
    for cli, py in _CLI_WORDS:
        msg = msg.replace(cli, py)
    for f in list(_x0_files):
        if f in msg:
            return SlpiError(rc, "x0: " + msg.replace("x0_file=" + f, "").replace(f, "").lstrip(": "), "x0", None)
    if msg.startswith("save_at: "):   # a key whose messages name the key, not key=value
        return SlpiError(rc, msg, "save_at", None)
    m = re.match(r"([A-Za-z_][\w.]*)=(\S*?):", msg)
    if not m and re.match(r"[A-Za-z_][\w.]*: unknown key ", msg):   # the argument a key was given as
        return SlpiError(rc, msg, msg.split(":")[0], None)
    return SlpiError(rc, msg, *(m.groups() if m else (None, None)))


def _check(rc, lib=None):
    """Raise the error of a failed call (rc != 0) with the message of the library called."""
    if rc != 0:
        raise _library_error(rc, lib)


def _interruptible(lib, call, error=None):
    """rc, error: call() (one C call into lib returning its code; cffi releases the GIL)
    and its SlpiError (None if rc is 0; error(rc) makes it, else the library's last error,
    read in the thread that called, as it is per thread), in a worker thread, so that
    Ctrl-C in the main thread raises KeyboardInterrupt at once: lib is asked to stop
    (slpi_interrupt_request: the call returns SLPI_EINTR at its next step, batch, case or
    2^20 noise draws), the worker clears the flag once the call has returned, and the main
    thread waits for that before it raises. A signal that lands before the worker began
    the call stops it before the call. The flag is the process's: a long call in another
    thread at that moment stops too."""
    def checked():
        rc = call()
        return rc, (None if rc == 0 else error(rc) if error else _library_error(rc, lib))

    if threading.current_thread() is not threading.main_thread():
        return checked()   # KeyboardInterrupt is raised in the main thread only
    lock, state, box, finished = threading.Lock(), {"began": False, "done": False, "asked": False}, [], \
        threading.Event()

    def work():
        with lock:
            state["began"] = not state["asked"]
        try:
            if state["began"]:
                box.append((checked(), None))
        except BaseException as e:   # noqa: B902 (handed to the main thread)
            box.append((None, e))
        with lock:
            state["done"] = True
            if state["asked"] and state["began"]:
                lib.slpi_interrupt_clear()
        finished.set()

    # waited for on an Event, not Thread.join: a join that KeyboardInterrupt broke may
    # report the thread ended while it runs (Python 3.11)
    try:
        with _stop.Stops():   # SIGTERM: Terminated, a KeyboardInterrupt (slpi/_stop.py)
            threading.Thread(target=work, name="slpi-call", daemon=True).start()
            while not finished.wait(0.25):
                pass
    except KeyboardInterrupt:
        with lock:   # the worker has not begun (then it never calls), runs, or is done
            state["asked"] = True
            running = state["began"] and not state["done"]
            if running:
                lib.slpi_interrupt_request()
        if running:
            finished.wait()   # stopped at its next poll: no work of the call goes on after this raise
        raise
    out, exc = box[0]
    if exc is not None:
        raise exc
    return out


def _bad(argument, value, why):
    return SlpiError(2, "%s=%r: %s" % (argument, value, why), argument, value)


def _text(argument, value):
    """A str for C, encoded: other types and a NUL (C would read the text only up to
    it, a silently different problem) refused, naming the argument."""
    if not isinstance(value, str):
        raise _bad(argument, value, "must be a string")
    if "\0" in value:
        raise _bad(argument, value, "holds a NUL character (C would read only the text before it)")
    return value.encode()


def _path(argument, value):
    """A file name (str or os.PathLike) for C, encoded; as _text."""
    if not isinstance(value, (str, os.PathLike)):
        raise _bad(argument, value, "must be a file name (str or path)")
    v = os.fspath(value)
    if not isinstance(v, str):
        raise _bad(argument, value, "must be a file name (str or path)")
    return _text(argument, v)


def _flag(argument, value):
    """A bool (Python's or numpy's); other types refused (``ref="no"`` is not False)."""
    if not isinstance(value, (bool, np.bool_)):
        raise _bad(argument, value, "must be True or False")
    return bool(value)


def _integer(argument, value, lo, hi=2**62):
    """A Python or numpy integer within [lo, hi] (bool, float and None refused)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise _bad(argument, value, "must be an integer")
    if not lo <= int(value) <= hi:
        raise _bad(argument, value, "must be in %d..%d" % (lo, hi))
    return int(value)


def _real_array(argument, value, ndim):
    """value as a C-contiguous float64 array of ndim dimensions (a copy when it is not
    one already); other dtypes than real numbers, None and ragged input refused."""
    if value is None:
        raise _bad(argument, value, "an array is needed")
    try:
        a = np.asarray(value)
    except (ValueError, TypeError) as e:
        raise _bad(argument, type(value).__name__, "not an array of numbers (%s)" % e) from None
    if a.dtype.kind not in "fiu" or a.dtype == np.float16:
        raise SlpiError(2, "%s: dtype %s: need real numbers (float64)" % (argument, a.dtype), argument, str(a.dtype))
    if a.ndim != ndim:
        raise SlpiError(2, "%s: shape %s: need a %d-D array" % (argument, a.shape, ndim), argument, a.shape)
    a = np.ascontiguousarray(a, dtype=np.float64)
    if not np.isfinite(a).all():
        raise SlpiError(2, "%s: holds NaN or infinite values" % argument, argument, None)
    return a


def _ptr(a):
    return _ffi.cast("double *", _ffi.from_buffer(a)) if a is not None else _ffi.NULL


def _row_steps(fill, rows):
    """The step numbers of rows saved rows, which fill(long *) writes (the C library's one
    output grid: core/rows.c)."""
    buf = _ffi.new("long[]", max(rows, 1))
    fill(buf)
    return np.frombuffer(_ffi.buffer(buf), dtype=np.dtype("l"))[:rows].astype(np.int64)


def _available_memory():
    """Bytes the kernel says a new allocation can get (MemAvailable), or None."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _guard_memory(nbytes, what, max_memory, hint=""):
    if max_memory is not None and (isinstance(max_memory, (bool, np.bool_)) or
                                   not isinstance(max_memory, (int, float, np.integer, np.floating)) or
                                   not max_memory > 0):
        raise _bad("max_memory", max_memory, "must be a number of bytes > 0, or None")
    limit = _available_memory() if max_memory is None else max_memory
    if limit is not None and nbytes > limit:
        raise SlpiError(2, "%s: needs %.3g GB of memory, more than %s %.3g GB (max_memory)%s" % (
            what, nbytes / 1e9, "the available" if max_memory is None else "the stated", limit / 1e9, hint),
            "max_memory", nbytes)


class Problem:
    """A problem: a preset and/or ``key=value`` settings (``slpi list --keys``).

    Parameters
    ----------
    preset : str, path or None
        A preset name (``slpi.presets()``), or a key file (``key=value`` lines, e.g. a
        model of docs/models.md, as ``slpi run --config``); None: the rigid body with
        ISOMP.
    **keys
        Settings; numbers, strings, or sequences for vector keys (``inertia``, ``x0``).
        ``system``, ``form`` and ``scheme`` are applied first (they reset defaults).

    Attributes
    ----------
    dim, noises, steps, h, output_every : int, int, int, float, int
        State doubles, Wiener processes M, steps, step size and output stride.
    labels : list of str
        Names of the state coordinates.

    Raises
    ------
    SlpiError
        An unknown preset or key, or a bad value, named.

    Examples
    --------
    >>> p = slpi.Problem("iso/rigid-body/trajectories", steps=10)
    >>> p.dim, p.noises, p.steps, p.labels
    (3, 3, 10, ['x1', 'x2', 'x3'])
    """

    def __init__(self, preset=None, **keys):
        if preset is not None and not isinstance(preset, (str, os.PathLike)):
            raise _bad("preset", preset, "must be a preset name or a key file (str or path), or None")
        if isinstance(preset, os.PathLike):
            preset = os.fspath(preset)
        # a key file (a model, docs/models.md): a name that is no preset and is a file
        config = preset if preset and preset not in _preset_names() and os.path.isfile(preset) else None
        ptr = _lib.slpi_problem_new(_text("preset", preset) if preset and not config else _ffi.NULL)
        if ptr == _ffi.NULL:
            e = _library_error(2)
            e.argument, e.value = "preset", preset
            raise e
        self._p = _ffi.gc(ptr, _lib.slpi_problem_free)
        if config:
            err = _ffi.new("slpi_error *")
            if _lib.slpi_problem_load(self._p, _path("preset", config), err) != 0:
                raise SlpiError(2, _ffi.string(err.msg).decode(), "preset", config)
        self.preset = preset
        self.keys = {}
        self._callbacks, self._natives, self._cb_error = {}, [], [None]
        self.set(**keys)

    def set(self, **keys):
        """Set more keys (see the class); returns the problem.

        Examples
        --------
        >>> slpi.Problem("iso/rigid-body/trajectories").set(h=0.01, steps=5).h
        0.01
        """
        first = [k for k in ("system", "form", "scheme") if k in keys]
        if "system" in keys:   # a new system clears the callbacks (slpi_problem_set_callback)
            self._callbacks, self._natives = {}, []
        for k in first + [k for k in keys if k not in first]:
            v = keys[k]
            name = _text("key", k)
            if v is None or not isinstance(v, (str, int, float, list, tuple, np.ndarray, np.number, np.bool_)):
                raise _bad(k, v, "not a value for a key (a str, a number, or a list of numbers)")
            if isinstance(v, (list, tuple, np.ndarray)):
                try:
                    nd = np.ndim(v)
                except ValueError:   # ragged: _real_array names it
                    nd = 1
                v = ",".join(repr(float(x)) for x in _real_array(k, v, max(nd, 1)).ravel())
            elif isinstance(v, (bool, np.bool_)):
                v = int(v)
            elif isinstance(v, (float, np.floating)):
                v = repr(float(v))
            _check(_lib.slpi_problem_set_key(self._p, name, _text(k, str(v))))
            self.keys[k] = keys[k]
        self._shape = None
        return self

    def _resolved(self):
        if self._shape is None:
            dim, m, every = _ffi.new("int *"), _ffi.new("int *"), _ffi.new("int *")
            steps, rows, h = _ffi.new("long *"), _ffi.new("long *"), _ffi.new("double *")
            _check(_lib.slpi_problem_shape(self._p, dim, m, steps, rows, h, every))
            buf = _ffi.new("char[64]")
            labels = []
            for i in range(dim[0]):
                _check(_lib.slpi_problem_state_label(self._p, i, buf, 64))
                labels.append(_ffi.string(buf).decode())
            self._shape = dict(dim=dim[0], noises=m[0], steps=steps[0], h=h[0], output_every=every[0],
                               rows=rows[0], labels=labels)
        return self._shape

    dim = property(lambda self: self._resolved()["dim"])
    noises = property(lambda self: self._resolved()["noises"])
    steps = property(lambda self: self._resolved()["steps"])
    h = property(lambda self: self._resolved()["h"])
    output_every = property(lambda self: self._resolved()["output_every"])
    labels = property(lambda self: list(self._resolved()["labels"]))

    @property
    def uncertified(self):
        """None, or why results of this problem are uncertified: ``"callback H,noise_H1"``
        names the Hamiltonians given as code (``Callback``), which no certified path
        evaluates (docs/models.md#callbacks)."""
        names = ["noise_H%d" % k if k else "H" for k in sorted(self._callbacks)]
        return "callback " + ",".join(names) if names else None

    def _set_callbacks(self, callbacks):
        """Give Hamiltonian k (0: H, k: noise_Hk) as code: callbacks maps k to a Callback."""
        for k in sorted(callbacks):
            name = "noise_H%d" % k if k else "H"
            fns = _native_callback(callbacks[k], name, self._cb_error)
            err = _ffi.new("slpi_error *")
            rc = _lib.slpi_problem_set_callback(self._p, k, fns[0], fns[1], fns[2], _ffi.NULL, err)
            if rc != 0:
                raise SlpiError(rc, _ffi.string(err.msg).decode(), name, None)
            self._natives.append(fns)
            self._callbacks[k] = callbacks[k]
        self._shape = None
        return self

    def text(self):
        """Every key of the problem as ``key=value`` lines (as ``slpi run`` writes its header).

        Examples
        --------
        >>> "system=rigid-body" in slpi.Problem().text().splitlines()
        True
        """
        n = _lib.slpi_problem_text(self._p, _ffi.NULL, 0)
        if n < 0:
            raise _library_error(2)
        buf = _ffi.new("char[]", n + 1)
        _lib.slpi_problem_text(self._p, buf, n + 1)
        return _ffi.string(buf).decode()


class Callback:
    """A Hamiltonian given as code, for what an expression cannot reach (a matrix function
    on a large su(N); docs/models.md#callbacks). Give it to ``Model`` in place of an
    expression (``H=`` or an item of ``noise=``). Runs of a model with a callback are on
    the double path only and are marked uncertified (``Result.uncertified``, the
    trajectory header); ``ref=True``, ``golden`` and ``verify`` refuse them.

    Parameters
    ----------
    grad : callable(mu) -> array (dim,)
        The plain partial derivatives dH/dmu_i at the state ``mu`` (a float64 array in
        the algebra's layout). slpi applies the pairing weights and, on su(n), the
        traceless projection itself, as for an expression: on su(n) ``mu`` (and ``w``
        below) is the traceless part, where H is read (docs/models.md#su-n).
    hvp : callable(mu, w) -> array (dim,)
        The derivative of ``grad`` along ``w``: the Hessian of H times w (the implicit
        schemes' Newton and chord steps use it).
    energy : callable(mu) -> float, optional
        H(mu) itself, for the energy diagnostic ``H0`` (only H's is used); without it a
        run has no ``H0``.

    An exception raised in any of them stops the run at that step and is raised again
    by ``run`` (or ``ensemble``, ``converge``); so is a result of the wrong shape or type.
    A NaN or infinite result fails the step (``SlpiError``, code 3, naming the step).

    Examples
    --------
    >>> import numpy as np
    >>> I = np.array([2.0, 1.0, 0.5])
    >>> H = slpi.Callback(lambda mu: 2 * mu / I, lambda mu, w: 2 * w / I, lambda mu: float(mu @ (mu / I)))
    >>> m = slpi.Model("so3", H, noise=["0.1*x1^2"], x0=[1, 0.5, 0.2])
    >>> r = slpi.run(m, steps=10)
    >>> r.uncertified, r.states.shape
    ('callback H', (11, 3))
    """

    def __init__(self, grad, hvp, energy=None):
        for name, f in (("grad", grad), ("hvp", hvp), ("energy", energy)):
            if not (callable(f) or (name == "energy" and f is None)):
                raise _bad(name, f, "must be callable" + (" or None" if name == "energy" else ""))
        self.grad, self.hvp, self.energy = grad, hvp, energy


def _raise_callback_error(pr):
    """Raise the exception a callback of problem pr kept, if any (and forget it)."""
    e, pr._cb_error[0] = pr._cb_error[0], None
    if e is not None:
        raise e


class Model(Problem):
    """A problem on your own Hamiltonians (docs/models.md): an algebra, the energy H and
    the noise Hamiltonians as expressions in its coordinates, named parameters. Accepted
    wherever a problem is (``run``, ``ensemble``, ``converge``, ``keys``).

    Parameters
    ----------
    algebra : str
        The algebra family and size (``so3``, ``se3``, ``so(4)``, ``su(3)``, ``so3^4``, ...;
        docs/models.md), which fixes the equation: x' = x cross grad H on ``so3``,
        [X, grad H] on ``so(n)`` and ``su(n)``, the heavy top's on ``se3``, per block on
        ``so3^k`` (docs/models.md#equations; ``slpi model`` shows it).
    H : str or Callback
        The Hamiltonian, e.g. Euler's ``"(x1^2/I1 + x2^2/I2 + x3^2/I3)/2"``, or code
        (``Callback``). An expression may read the time ``t`` (step n at t0 + (n + c) h,
        c the scheme's stage; the key ``t0=``, default 0, is the time of step 0;
        docs/models.md#time), and so may the noise Hamiltonians.
    noise : str, Callback, or a list or tuple of them
        The noise Hamiltonians H_1, H_2, ... (at most 16); empty: deterministic.
    params : dict of str to number or str, optional
        Parameters the expressions name. A float is passed as the exact decimal
        expansion of its binary64 value (both paths then see the same real number); a
        str is taken as written (``"0.1"`` is the real 0.1 on the certified path).
    x0 : array_like, optional
        The initial state in the algebra's layout (a model has no default).
    **keys
        More settings (``scheme``, ``h``, ``steps``, ``T``, ...).

    Raises
    ------
    SlpiError
        An expression that does not parse (with its column), an unknown algebra, a
        missing x0, a scheme not applicable to the algebra.

    Examples
    --------
    >>> m = slpi.Model("so3", "(x1^2/I1 + x2^2/I2 + x3^2/I3)/2", noise=["amp*x1^2"],
    ...                params={"I1": 2, "I2": 1, "I3": 0.5, "amp": 0.1}, x0=[1, 0.5, 0.2])
    >>> r = slpi.run(m, steps=10)
    >>> r.states.shape, m.noises
    ((11, 3), 1)
    """

    def __init__(self, algebra, H, noise=(), params=None, x0=None, **keys):
        import decimal
        _text("algebra", algebra)
        if not isinstance(H, (str, Callback)):
            raise _bad("H", H, "must be an expression (str) or a Callback")
        if isinstance(H, str):
            _text("H", H)
        if isinstance(noise, (str, Callback)):
            noise = [noise]
        if not isinstance(noise, (list, tuple)):   # a dict would give its keys, a set no order
            raise _bad("noise", noise, "must be an expression (str), a Callback, or a list or tuple of them")
        noise = list(noise)
        if len(noise) > 16 or not all(isinstance(n, (str, Callback)) for n in noise):
            raise _bad("noise", noise, "must be at most 16 expressions (str) or Callbacks")
        for i, n in enumerate(noise):
            if isinstance(n, str):
                _text("noise[%d]" % i, n)
        if params is not None and not isinstance(params, dict):
            raise _bad("params", params, "must be a dict of name to value")
        settings = {"system": "model", "algebra": algebra}
        for k, v in (params or {}).items():
            _text("params key", k)
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (str, int, float, np.integer, np.floating)):
                raise _bad("params[%r]" % k, v, "must be a number or its decimal text")
            if isinstance(v, str):
                _text("params[%r]" % k, v)
                settings["param." + k] = v
                continue
            try:
                f = float(v)
            except OverflowError:   # an int beyond binary64
                f = float("inf")
            if not np.isfinite(f):
                raise _bad("params[%r]" % k, v, "must be a finite binary64 number")
            settings["param." + k] = str(decimal.Decimal(f))
        callbacks = {k: h for k, h in enumerate([H] + noise) if isinstance(h, Callback)}
        if isinstance(H, str):
            settings["H"] = H
        for i, n in enumerate(noise):
            if isinstance(n, str):
                settings["noise_H%d" % (i + 1)] = n
        if x0 is not None:
            settings.update(_x0_keys(self, _real_array("x0", x0, 1)))
        settings.update(keys)
        super().__init__(None, **settings)
        self._set_callbacks(callbacks)
        self._resolved()   # parse and validate now: errors name the expression and column


def _x0_keys(owner, x0):
    """The keys that give a problem the initial state x0: x0= (at most 64 values), else
    x0_file= naming a file kept as long as owner lives."""
    if len(x0) <= 64:
        return {"x0": x0}
    import tempfile
    import weakref
    fd, path = tempfile.mkstemp(prefix="slpi-model-x0-", suffix=".txt")
    with os.fdopen(fd, "w") as f:
        f.write("\n".join(repr(float(v)) for v in x0) + "\n")
    _x0_files.add(path)
    weakref.finalize(owner, _forget_x0_file, path)
    return {"x0_file": path}


def _forget_x0_file(path):
    _x0_files.discard(path)
    os.unlink(path)


def _preset_names():
    p, i, out = _lib.slpi_presets(), 0, set()
    while p[i].name != _ffi.NULL:
        out.add(_ffi.string(p[i].name).decode())
        i += 1
    return out


def _keys_of(pr):
    """The problem's keys as a dict (its text's key=value lines)."""
    return dict(line.split("=", 1) for line in pr.text().splitlines() if "=" in line)


def _problem(problem, keys):
    """A Problem from a Problem (keys added to a copy), a preset name or None."""
    if isinstance(problem, Problem):
        q = Problem(problem.preset, **problem.keys)
        q._set_callbacks(problem._callbacks)
        return q.set(**keys)
    return Problem(problem, **keys)


from slpi._run import run, Result, _Progress  # noqa: E402 (uses the helpers above)
from slpi._tools import (noise, increments, write_noise, verify, Verification, golden, GoldenReport, presets, keys,  # noqa: E402
                         write_trajectory)
from slpi._converge import Study, converge  # noqa: E402
from slpi._mlmc import Estimate, mlmc  # noqa: E402
from slpi._mlmc_test import MlmcTest, mlmc_test  # noqa: E402
from slpi._ensemble import ensemble, Ensemble, Statistics, Stat  # noqa: E402 (uses the helpers above)
from slpi._reduce import Quantiles  # noqa: E402
from slpi.store import to_xarray, save, load, provenance  # noqa: E402
from slpi.sphere import zeitlin_coefficients, vorticity, spherical_harmonic  # noqa: E402
from slpi.units import time_unit, TimeUnit  # noqa: E402
from slpi import plot  # noqa: E402,F401 (slpi.plot: matplotlib imported on a figure's call)
