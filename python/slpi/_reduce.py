"""Per-path reductions and quantiles of an ensemble (``slpi.ensemble(..., reduce=f,
quantiles=[...])``), fed batch by batch in path order by slpi/_ensemble.py from the rows
the library returns: the rows are the same bits for any number of threads, and each
batch is taken in path order, so every result here is too.

Quantiles are exact (numpy's ``inverted_cdf``: the smallest value v with at least a
fraction q of the paths at or below v) when the states are kept; in streaming mode
(``states=False``) each saved time and quantity keeps a histogram of ``QUANTILE_BINS``
equal bins (the paths taken QUANTILE_PIECE at a time, counted from the first, whatever
the batches), and a quantile is the midpoint of the bin that holds the exact one, so it
lies within half a bin width, plus 8 ulps of the bins' range for the roundings of a
value's bin and of the midpoint (``Quantiles.error``), of the exact value. The bins start
on the first piece's range [min, max] and double their width (merging neighbours, never
re-reading a path) whenever a later value falls outside; the width is at most (max -
min) / QUANTILE_BINS x 2 x (the factor by which later paths widen the first piece's
range, rounded up to a power of 2)."""
from dataclasses import dataclass

import numpy as np

QUANTILE_BINS = 4096
QUANTILE_PIECE = 256


@dataclass
class Quantiles:
    """Quantiles of every quantity at the saved times (``ensemble(..., quantiles=q)``).

    Attributes
    ----------
    q : ndarray (k,)
        The levels asked, in [0, 1].
    names : list of str
        The quantities: the state's labels, then the diagnostics' names.
    values : ndarray (k, times, quantities)
    error : ndarray (times, quantities)
        A bound on |value - exact quantile|: 0 when exact (the states kept), half the
        histogram's bin width (and 8 ulps) in streaming mode.
    exact : bool
    """
    q: np.ndarray
    names: list
    values: np.ndarray
    error: np.ndarray
    exact: bool

    def __getitem__(self, name):
        """The quantiles (k, times) of one quantity by name."""
        if name not in self.names:
            raise KeyError("%r: the quantities are %s" % (name, ", ".join(self.names)))
        return self.values[:, :, self.names.index(name)]


def exact_quantiles(q, names, v):
    """Quantiles of v (paths, times, quantities) over the paths (inverted_cdf)."""
    return Quantiles(q=q, names=names, values=np.quantile(v, q, axis=0, method="inverted_cdf"),
                     error=np.zeros(v.shape[1:]), exact=True)


class StreamingQuantiles:
    """The histograms of the module's docstring, one per (time, quantity)."""

    def __init__(self, q, names):
        self.q, self.names, self.lo, self.w, self.counts, self.n = q, names, None, None, None, 0

    def _grow(self, i, j, vmin, vmax):
        """Double cell (i, j)'s bin width until [vmin, vmax] fits, merging bin pairs."""
        K = QUANTILE_BINS
        while vmin < self.lo[i, j] or vmax >= self.lo[i, j] + K * self.w[i, j]:
            c = self.counts[i, j]
            if vmin < self.lo[i, j]:   # grow downwards: old bin b becomes K/2 + b/2
                merged = c.reshape(K // 2, 2).sum(axis=1)
                c[:] = 0
                c[K // 2:] = merged
                self.lo[i, j] -= K * self.w[i, j]
            else:                      # upwards: old bin b becomes b/2
                merged = c.reshape(K // 2, 2).sum(axis=1)
                c[:] = 0
                c[:K // 2] = merged
            self.w[i, j] *= 2

    def add(self, v):
        """Add the paths of v (count, times, quantities), in path order, in pieces of
        QUANTILE_PIECE paths counted from path 0: the bins grow at the same paths whatever
        the batches (threads change the batches)."""
        i = 0
        while i < len(v):
            n = min(len(v) - i, QUANTILE_PIECE - self.n % QUANTILE_PIECE)
            self._add(v[i:i + n])
            i += n

    def _add(self, v):
        K = QUANTILE_BINS
        vmin, vmax = v.min(axis=0), v.max(axis=0)
        if self.lo is None:
            span = vmax - vmin
            self.lo = vmin.copy()
            # a constant quantity: a width that rounds to a positive number at its magnitude
            self.w = np.where(span > 0, span / K * (1 + 2.0 ** -40),
                              np.maximum(np.abs(vmin), 1.0) * 2.0 ** -40)
            self.counts = np.zeros(vmin.shape + (K,), dtype=np.int64)
        for i, j in zip(*np.nonzero((vmin < self.lo) | (vmax >= self.lo + K * self.w))):
            self._grow(i, j, vmin[i, j], vmax[i, j])
        b = np.clip(np.floor((v - self.lo) / self.w).astype(np.int64), 0, K - 1)
        T, Q = vmin.shape
        flat = (np.arange(T)[:, None] * Q + np.arange(Q)[None, :]) * K
        np.add.at(self.counts.reshape(-1), (b + flat).reshape(-1), 1)
        self.n += len(v)

    def result(self):
        cum = np.cumsum(self.counts, axis=-1)
        # inverted_cdf: the smallest value with at least q n paths at or below it
        need = np.maximum(np.ceil(self.q * self.n - 1e-9 * self.n), 1).astype(np.int64)
        idx = np.stack([np.argmax(cum >= k, axis=-1) for k in need])
        # half a bin, and the roundings of a value's bin and of the midpoint (a few ulps)
        top = np.maximum(np.abs(self.lo), np.abs(self.lo + QUANTILE_BINS * self.w))
        return Quantiles(q=self.q, names=self.names, values=self.lo + (idx + 0.5) * self.w,
                         error=self.w / 2 + 8 * np.spacing(top), exact=False)


def histogram(values, bins):
    """Counts of the per-path values in the given bin edges (numpy's rule: the last bin
    closed), exact integers: the same for any order of the paths."""
    return np.histogram(np.asarray(values, dtype=np.float64).ravel(), bins=bins)[0]


class Reductions:
    """What ``ensemble(reduce=, bins=, quantiles=)`` asks, fed batch by batch (add) in
    path order; exact quantiles when the caller keeps the states (finish gets them)."""

    def __init__(self, reduce, bins, quantiles, exact):
        self.reduce, self.bins, self.exact = reduce, bins, exact
        self.q = None if quantiles is None else np.asarray(quantiles, dtype=np.float64)
        self.parts, self.counts, self.stream = [], None, None

    def add(self, t, x, d, names):
        """The batch's states x (count, times, dim) and diagnostics d (count, times, ndiag)."""
        if self.reduce is not None:
            r = np.asarray(self.reduce(t, x))
            if r.ndim == 0 or r.shape[0] != len(x) or r.dtype.kind not in "fiub":
                from slpi import SlpiError
                raise SlpiError(2, "reduce: returned %s %s for %d paths: need an array whose first axis is the "
                                   "paths" % (r.dtype, r.shape, len(x)), "reduce", r.shape)
            if self.bins is None:
                self.parts.append(r.copy())
            else:
                h = histogram(r, self.bins)
                self.counts = h if self.counts is None else self.counts + h
        if self.q is not None and not self.exact:
            if self.stream is None:
                self.stream = StreamingQuantiles(self.q, names)
            self.stream.add(np.concatenate([x, d], axis=2))

    def export(self):
        """The streamed quantiles' histograms so far (arrays by name; none before the
        first path), for a checkpoint (slpi/_ens_state.py): load gives them back exactly."""
        s = self.stream
        return {} if s is None else dict(quantiles_lo=s.lo, quantiles_w=s.w, quantiles_counts=s.counts,
                                         quantiles_n=np.array(s.n, dtype=np.int64))

    def load(self, data, names):
        """Continue from export's arrays (a resumed checkpoint's; {}: nothing streamed)."""
        if data:
            self.stream = StreamingQuantiles(self.q, names)
            s = self.stream
            s.lo, s.w, s.counts, s.n = data["quantiles_lo"], data["quantiles_w"], data["quantiles_counts"], \
                int(data["quantiles_n"])

    def finish(self, kept, names):
        """(reduced, quantiles): the per-path results (or the histogram's counts), and the
        quantiles (exact of kept, the values (paths, times, quantities) kept, else streamed)."""
        reduced = None
        if self.reduce is not None:
            reduced = self.counts if self.bins is not None else np.concatenate(self.parts)
        quant = None
        if self.q is not None:
            quant = exact_quantiles(self.q, names, kept) if self.exact else self.stream.result()
        return reduced, quant
