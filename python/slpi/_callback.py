"""The C functions of a ``Callback`` (slpi_problem_set_callback's grad, hvp and energy) and
cffi's onerror hook that keeps an exception escaping any callback of the package (the
observer's too). Imported by slpi/__init__.py."""
import numpy as np

from slpi._native import ffi as _ffi


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
            raise _error(2, "%s: the %s callback returned %s %s: need %d real numbers (the algebra's coordinates)"
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

    def native(ctype, body):   # failed (1) also when an exception escapes call: _keep_lost
        return _ffi.callback(ctype, guarded(body), error=1, onerror=_keep_lost(error))

    def energy(out, mu, n, _):
        v = np.asarray(cb.energy(vec(mu, n)))
        if v.shape != () or v.dtype.kind not in "fiu":
            raise _error(2, "%s: the energy callback returned %s %s: need a real number" % (name, v.dtype, v.shape),
                            name, v.shape)
        out[0] = float(v)

    return (native(_GRAD_T, lambda out, mu, n, _: put(out, n, cb.grad(vec(mu, n)), "grad")),
            native(_HVP_T, lambda out, mu, w, n, _: put(out, n, cb.hvp(vec(mu, n), vec(w, n)), "hvp")),
            _ffi.NULL if cb.energy is None else native(_GRAD_T, energy))


def _keep_lost(kept):
    """cffi's onerror hook of a callback: an exception that escaped the callback's own
    try (a KeyboardInterrupt raised at its first instruction, when Ctrl-C lands as C calls
    it) is kept in kept[0], as the callback keeps its own, and the callback returns its
    error value (stop, or failed) instead of cffi printing "Exception ignored" and
    returning as if nothing happened."""
    def lost(exc_type, exc, tb):
        if kept[0] is None:
            kept[0] = exc if exc is not None else exc_type()
    return lost


def _error(*args):
    from slpi import SlpiError   # slpi/__init__.py imports this module first
    return SlpiError(*args)
