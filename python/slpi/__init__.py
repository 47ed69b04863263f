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
import sys
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from slpi._version import __version__
from slpi._native import ffi as _ffi, lib as _lib, tools as _tools
from slpi.files import read_trajectory, read_converge, Trajectory
from slpi.algebra import pack_su, unpack_su, pack_so, unpack_so

__all__ = ["Problem", "Model", "Callback", "run", "ensemble", "converge", "noise", "verify", "golden", "presets", "keys",
           "read_trajectory", "read_converge", "pack_su", "unpack_su", "pack_so", "unpack_so",
           "write_trajectory", "SlpiError", "Result", "Ensemble", "Statistics", "Stat", "Trajectory", "Study", "Verification", "GoldenReport", "__version__"]


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
_CLI_WORDS = (("(see `slpi run --help`)", "(see slpi.keys())"),
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


def _interruptible(lib, call):
    """rc, error: call() (one C call into lib returning its code; cffi releases the GIL)
    and its SlpiError (None if rc is 0; read in the thread that called, as the library's
    last error is per thread), in a worker thread, so that
    Ctrl-C in the main thread raises KeyboardInterrupt at once: lib is asked to stop
    (slpi_interrupt_request: the call returns SLPI_EINTR at its next step, batch or case),
    the worker clears the flag once the call has returned, and the main thread waits for
    that before it raises. The flag is the process's: a long call in another thread at
    that moment stops too."""
    def checked():
        rc = call()
        return rc, (_library_error(rc, lib) if rc != 0 else None)

    if threading.current_thread() is not threading.main_thread():
        return checked()   # KeyboardInterrupt is raised in the main thread only
    lock, state, box, finished = threading.Lock(), {"done": False, "asked": False}, [], threading.Event()

    def work():
        try:
            box.append((checked(), None))
        except BaseException as e:   # noqa: B902 (handed to the main thread)
            box.append((None, e))
        with lock:
            state["done"] = True
            if state["asked"]:
                lib.slpi_interrupt_clear()
        finished.set()

    # waited for on an Event, not Thread.join: a join that KeyboardInterrupt broke may
    # report the thread ended while it runs (Python 3.11)
    threading.Thread(target=work, name="slpi-call", daemon=True).start()
    try:
        while not finished.wait(0.25):
            pass
    except KeyboardInterrupt:
        with lock:
            if not state["done"]:
                state["asked"] = True
                lib.slpi_interrupt_request()
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
    preset : str or None
        A preset name (``slpi.presets()``); None: the rigid body with ISOMP.
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
        if preset is not None and not isinstance(preset, str):
            raise _bad("preset", preset, "must be a preset name (str) or None")
        ptr = _lib.slpi_problem_new(_text("preset", preset) if preset else _ffi.NULL)
        if ptr == _ffi.NULL:
            e = _library_error(2)
            e.argument, e.value = "preset", preset
            raise e
        self._p = _ffi.gc(ptr, _lib.slpi_problem_free)
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


_GRAD_T = "int(double *, const double *, int, void *)"
_HVP_T = "int(double *, const double *, const double *, int, void *)"


def _native_callback(cb, name, error):
    """The cffi functions (grad, hvp, energy or NULL) of a Callback. A Python exception
    (or a result of the wrong shape) is kept in error[0] and the function returns 1, so
    the C step fails; later calls return 1 at once until the run raises error[0]."""
    def vec(p, n):
        return np.frombuffer(_ffi.buffer(p, 8 * n), dtype=np.float64).copy()

    def put(out, n, value, what):
        a = np.asarray(value)
        if a.dtype.kind not in "fiu" or a.shape != (n,):
            raise SlpiError(2, "%s: the %s callback returned %s %s: need %d real numbers (the algebra's coordinates)"
                            % (name, what, a.dtype, a.shape, n), name, a.shape)
        np.frombuffer(_ffi.buffer(out, 8 * n), dtype=np.float64)[:] = a

    def guarded(body):
        def call(*args):
            if error[0] is not None:
                return 1
            try:
                body(*args)
                return 0
            except BaseException as e:   # KeyboardInterrupt too: raised again by the run
                error[0] = e
                return 1
        return call

    def energy(out, mu, n, _):
        v = np.asarray(cb.energy(vec(mu, n)))
        if v.shape != () or v.dtype.kind not in "fiu":
            raise SlpiError(2, "%s: the energy callback returned %s %s: need a real number" % (name, v.dtype, v.shape),
                            name, v.shape)
        out[0] = float(v)

    return (_ffi.callback(_GRAD_T, guarded(lambda out, mu, n, _: put(out, n, cb.grad(vec(mu, n)), "grad"))),
            _ffi.callback(_HVP_T, guarded(lambda out, mu, w, n, _: put(out, n, cb.hvp(vec(mu, n), vec(w, n)), "hvp"))),
            _ffi.NULL if cb.energy is None else _ffi.callback(_GRAD_T, guarded(energy)))


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
        (``Callback``).
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
        self._x0_file = None
        if x0 is not None:
            x0 = _real_array("x0", x0, 1)
            if len(x0) <= 64:
                settings["x0"] = x0
            else:   # the x0 key holds 64 values: a file kept as long as the model
                import tempfile
                import weakref
                fd, self._x0_file = tempfile.mkstemp(prefix="slpi-model-x0-", suffix=".txt")
                with os.fdopen(fd, "w") as f:
                    f.write("\n".join(repr(float(v)) for v in x0) + "\n")
                _x0_files.add(self._x0_file)
                weakref.finalize(self, _forget_x0_file, self._x0_file)
                settings["x0_file"] = self._x0_file
        settings.update(keys)
        super().__init__(None, **settings)
        self._set_callbacks(callbacks)
        self._resolved()   # parse and validate now: errors name the expression and column


def _forget_x0_file(path):
    _x0_files.discard(path)
    os.unlink(path)


def _problem(problem, keys):
    """A Problem from a Problem (keys added to a copy), a preset name or None."""
    if isinstance(problem, Problem):
        q = Problem(problem.preset, **problem.keys)
        q._set_callbacks(problem._callbacks)
        return q.set(**keys)
    return Problem(problem, **keys)


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


def _advance(st, steps, every, dW, out, row0, progress, include_initial):
    """Advance st by `steps` steps in pieces, writing rows from row0 into out (dict of
    arrays: x, xrad, diag, drad, iters, resid; any may be None); every = 0: the problem's
    output grid. Returns rows written; fewer steps than asked when an observer stopped
    it (slpi_stepper_position tells)."""
    row = row0
    if include_initial:
        _lib.slpi_stepper_row(st.s, _ptr(out["x"][row]), _ptr(None if out["xrad"] is None else out["xrad"][row]),
                              _ptr(None if out["diag"] is None else out["diag"][row]),
                              _ptr(None if out["drad"] is None else out["drad"][row]))
        row += 1
    done, piece = 0, _FIRST_PIECE
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
        _raise_callback_error(st.pr)
        _check(rc)
        progress.add(_lib.slpi_stepper_position(st.s) - done)
        if _lib.slpi_stepper_position(st.s) < done + n:   # an observer stopped it
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
    iterations, residual : ndarray (rows,)
        The solver iterations and final residual of each row's step.
    summary : dict
        Counts over the run: steps, iterations, max_iterations, stagnated, capped,
        clipped, max_prec (certified path); and h, noises, output_every, path ("fast"/"ref").
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
            return 1 if fn(t, np.frombuffer(_ffi.buffer(x, 8 * n), dtype=np.float64).copy()) else 0
        except BaseException as e:   # KeyboardInterrupt included: raised after the advance
            kept[0] = e
            return 1
    return _ffi.callback(_OBSERVER_T, call)


def run(problem=None, *, dW=None, x0=None, ref=False, output_every=None, save_at=None, observer=None,
        progress=False, max_memory=None, **keys):
    """Integrate one path: the fast path (doubles) or the certified path (``ref=True``).

    Parameters
    ----------
    problem : str, Problem or None
        A preset name, a Problem, or None (the rigid body with ISOMP).
    dW : array_like (steps, M), optional
        Wiener increments of each step (clipped at the problem's truncation threshold,
        as a noise file's are); default: the problem's canonical noise. Without
        ``steps``, ``T`` or ``level`` among the keys, the run has ``len(dW)`` steps.
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
        On Ctrl-C, within about 0.05 s of work (one step at least); nothing is returned.

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
    pr = _problem(problem, keys)
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
    kept = [None]
    if observer is not None:
        st.observer = _observer(observer, dim, kept)   # lives as long as the stepper
        _lib.slpi_stepper_set_observer(st.s, st.observer, _ffi.NULL)
    _guard_memory(rows * 8.0 * ((dim + st.ndiag) * (2 if ref else 1) + 2), "run: %d rows" % rows, max_memory)
    out = dict(x=np.empty((rows, dim)), xrad=np.empty((rows, dim)) if ref else None,
               diag=np.empty((rows, st.ndiag)), drad=np.empty((rows, st.ndiag)) if ref else None,
               iters=np.zeros(rows, dtype=np.intc), resid=np.zeros(rows))
    pg = _Progress(progress, steps, "run" + (" (certified)" if ref else ""))
    try:
        kept_rows = _advance(st, steps, 0, dW, out, 0, pg, True)
    finally:
        pg.close()
    if kept[0] is not None:
        raise kept[0]
    n = _row_steps(lambda p: _lib.slpi_stepper_row_steps(st.s, 0, p), rows)[:kept_rows]
    stopped = _lib.slpi_stepper_position(st.s)
    out = {k: None if v is None else v[:kept_rows] for k, v in out.items()}
    summary = st.counts()
    summary.update(noises=M, h=h, output_every=every, path="ref" if ref else "fast",
                   stopped_at=stopped if stopped < steps else None)
    res = Result(t=n * h, step=n, states=out["x"], labels=pr.labels,
                 diagnostics={k: out["diag"][:, i] for i, k in enumerate(st.diag_names)},
                 iterations=out["iters"], residual=out["resid"], summary=summary, radii=out["xrad"],
                 diagnostic_radii=None if not ref else {k: out["drad"][:, i] for i, k in enumerate(st.diag_names)},
                 uncertified=pr.uncertified)
    # what write_trajectory needs for `slpi verify`: the problem, when it alone made the run
    res._problem_text = pr.text() if dW is None and x0 is None else None
    return res


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
        A value out of range, named.

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
    rc = _lib.slpi_noise_increments(seed, path, component, float(h), refine, first, steps, _ptr(out), err)
    if rc != 0:   # the library's own rules (slpi.h), e.g. h above 1e6
        raise SlpiError(rc, _ffi.string(err.msg).decode())
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


from slpi._ensemble import ensemble, Ensemble, Statistics, Stat  # noqa: E402 (uses the helpers above)
