"""slpi._ens_inputs — the per-path inputs of ``slpi.ensemble``: the initial states ``x0``
and the increments ``dW`` of a batch of paths, sliced from an array or returned by a
callable, checked (shape, dtype, finite); and their digest, which an ensemble's
checkpoint records (slpi/_ens_state.py)."""
import hashlib

import numpy as np

import slpi as _slpi


def increments(dW, first, count, steps, M, paths):
    """The increments of paths first..first+count-1: a slice of the array dW, or what the
    callable dW(first, count) returns, checked (shape, dtype, finite)."""
    if callable(dW):
        a = dW(first, count)
        what = "dW(%d, %d)" % (first, count)
    else:
        a = dW[first:first + count]
        what = "dW"
    try:
        a = np.asarray(a)
    except (TypeError, ValueError) as e:
        raise _slpi._bad("dW", what, "not an array of numbers (%s)" % e) from None
    if a.dtype.kind not in "fiu" or a.dtype == np.float16:
        raise _slpi.SlpiError(2, "%s: dtype %s: need real numbers (float64)" % (what, a.dtype), "dW", str(a.dtype))
    if a.shape != (count, steps, M):
        need = "(paths, steps, M) = (%d, %d, %d)" % (paths, steps, M) if not callable(dW) else \
            "(count, steps, M) = (%d, %d, %d)" % (count, steps, M)
        raise _slpi.SlpiError(2, "%s: shape %s: the problem needs %s" % (
            what, (dW.shape if not callable(dW) else a.shape), need), "dW", a.shape)
    a = np.ascontiguousarray(a, dtype=np.float64)
    bad = ~np.isfinite(a)
    if bad.any():
        p, n, j = (int(i) for i in np.argwhere(bad)[0])
        raise _slpi.SlpiError(2, "dW[%d, %d, %d] = %r: increments must be finite" % (first + p, n, j, a[p, n, j]),
                              "dW", float(a[p, n, j]))
    return a


def initial(x0, first, count, dim):
    """The initial states of paths first..first+count-1: a slice of the array x0, or
    what the callable x0(first, count) returns, checked (shape, dtype, finite)."""
    if not callable(x0):
        return np.ascontiguousarray(x0[first:first + count])
    a = _slpi._real_array("x0", x0(first, count), 2)
    if a.shape != (count, dim):
        raise _slpi.SlpiError(2, "x0(%d, %d): shape %s: need (count, dim) = (%d, %d)" % (
            first, count, a.shape, count, dim), "x0", a.shape)
    return a


class Digest:
    """The SHA-256 of the inputs of paths 0, 1, ... in path order, x0's and dW's apart
    (as float64 bytes; None for one never given): what an ensemble checkpoint records of
    the inputs of its paths done (slpi/_ens_state.py)."""

    def __init__(self):
        self.h = {"x0": None, "dW": None}

    def add(self, x0, dW):
        """The next paths' x0 and dW (arrays of those paths, or None)."""
        for k, a in (("x0", x0), ("dW", dW)):
            if a is not None:
                if self.h[k] is None:
                    self.h[k] = hashlib.sha256()
                a = np.ascontiguousarray(a, dtype=np.float64)
                if a.size:
                    self.h[k].update(memoryview(a.reshape(-1).view(np.uint8)))

    def hex(self):
        return {k: None if h is None else h.hexdigest() for k, h in self.h.items()}
