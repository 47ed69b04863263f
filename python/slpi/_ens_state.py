"""slpi._ens_state — what of a Python ensemble outlives one call, as cli/ensemble-state.c
is for ``slpi ensemble``: checkpoints (``ensemble(checkpoint=..., resume=...)``).

A checkpoint is a file in the one container of every slpi checkpoint (slpi/_ckpt.py:
its sections, their digests and what a resume refuses), format
``slpi-python-ensemble-checkpoint`` 3, written after every ``checkpoint_every`` completed
paths. It holds

- ``meta``: the problem's text (every
  key, ``slpi run``'s header), first_path, paths, save_every, ref, what the call keeps
  (states, diagnostics), the paths done, the clipped and capped counts over them, the
  SHA-256 of the inputs of the paths done (``inputs``: their x0 and dW in path order,
  slpi/_ens_inputs.py; None where the call gives none);
- ``state``: the statistics' exact state of the paths done (slpi_ensemble_export), which
  a resume imports: the C ensemble then runs path ``done + i`` next, and its statistics
  are one run's bits (api/ensemble.c: their tree depends on the number of paths alone);
- the kept rows of the paths done (``states``, ``radii``, ``diagnostics``,
  ``diagnostic_radii``);
- with ``quantiles=`` and ``states=False``, the streamed quantiles' histograms
  (``quantiles_lo``, ``quantiles_w``, ``quantiles_counts``, ``quantiles_n``: slpi/_reduce.py),
  which a resume continues; exact quantiles come from the kept states. The levels are in
  ``meta`` (``quantiles``), and a resume with others is refused.

Checkpoints fall at the multiples of ``checkpoint_every`` (the C calls end there; the C
ensemble keeps a block in progress across calls, and its export holds it), at the end,
and when Ctrl-C or SIGTERM stops a C call: the paths it completed (whole waves) are
saved.

Every path's rows depend only on its path number, x0 and dW, so a resumed call that is
given the same arguments returns the uninterrupted call's arrays bit for bit, for any
thread count. A checkpoint of another problem or call is refused, naming the first
difference; one whose paths ran on other x0 or dW than this call gives for them (arrays
or callables, called again for the paths done) is refused naming x0 or dW."""
import numpy as np

import slpi as _slpi
from slpi import _ckpt
from slpi._ens_inputs import Digest

FORMAT, VERSION = "slpi-python-ensemble-checkpoint", 3
_ARRAYS = ("states", "radii", "diagnostics", "diagnostic_radii")


class Checkpoint:
    """The checkpoint of one ensemble call: its file, cadence and what a resume restores."""

    def __init__(self, path, every, resume, call):
        self.path, self.every, self.resume, self.call = path, every, resume, call
        self.inputs = Digest()

    def restore(self, h, arrays, inputs, batch, red=None, names=None):
        """Import the resumed checkpoint's state into the handle h, its rows into arrays
        (name -> array or None) and its streamed quantiles' histograms into red (the
        call's Reductions, or None; names: its quantities), having checked that inputs(first, count) (the x0 and
        dW of those paths, each None when not given; called in batches of at most `batch`
        paths) gives the paths done the inputs they ran on; returns (done, clipped,
        capped)."""
        if self.resume is None:
            return 0, 0, 0
        meta, data = _ckpt.read(self.resume, (FORMAT, VERSION), "ensemble")
        _ckpt.check_call(meta, self.call, self.resume, "ensemble")
        done = int(meta["done"])
        for first in range(0, done, batch):
            self.inputs.add(*inputs(first, min(batch, done - first)))
        mine, theirs = self.inputs.hex(), meta.get("inputs") or {}
        other = [k for k in mine if mine[k] != theirs.get(k)]
        if other:
            raise _slpi._bad("resume", self.resume, "its %d paths ran on other %s than this call gives them" % (
                done, " and ".join(other)))
        h.merge_state(data["state"])
        if h.paths() != done:
            raise _slpi._bad("resume", self.resume, "its state holds %d paths, its header %d" % (h.paths(), done))
        for k in _ARRAYS:
            if arrays.get(k) is not None:
                a = arrays[k]
                if k not in data or data[k].shape != (done,) + a.shape[1:] or data[k].dtype != a.dtype:
                    raise _slpi._bad("resume", self.resume, "its %s are not %d paths' rows of %s" % (k, done, a.dtype))
                a[:done] = data[k]
        if red is not None:
            red.load({k: v for k, v in data.items() if k.startswith("quantiles_")}, names)
        return done, int(meta["clipped"]), int(meta["capped"])

    def count(self, done, n):
        """The paths of the next C call, at most n: up to the next multiple of
        checkpoint_every, so that every checkpoint falls where the user asked."""
        return n if self.every is None else min(n, self.every - done % self.every)

    def save(self, h, done, arrays, clipped, capped, red=None, stopped=False):
        """Write the checkpoint of the first `done` paths at each multiple of
        checkpoint_every (every call without it), at the end, and when the call is
        stopped (Ctrl-C, SIGTERM: the paths completed); red: the call's Reductions."""
        if self.path is None or not (self.every is None or done % self.every == 0 or done == self.call["paths"]
                                     or stopped):
            return
        meta = dict(self.call, done=done, clipped=clipped, capped=capped, inputs=self.inputs.hex())
        data = {k: np.ascontiguousarray(a[:done]) for k, a in arrays.items() if a is not None}
        _ckpt.write(self.path, (FORMAT, VERSION), meta, dict(data, state=h.export(), **(red.export() if red else {})))


def options(checkpoint, every, resume, points, merge, out, reduce, quantiles):
    """None without checkpoint and resume; else, the arguments checked, a function of the
    call's (problem text, first_path, paths, save_every, ref, states, diagnostics) that
    makes its Checkpoint."""
    if checkpoint is None and resume is None:
        if every is not None:
            raise _slpi._bad("checkpoint_every", every, "needs checkpoint")
        return None
    other = [k for k, v in (("params", points > 1), ("merge", merge is not None), ("out", out is not None),
                            ("reduce", reduce is not None)) if v]
    if other:
        raise _slpi._bad("checkpoint" if checkpoint is not None else "resume", checkpoint or resume,
                         "checkpoints keep one point's rows and statistics: not with %s" % ", ".join(other))
    path = _slpi._path("checkpoint", checkpoint).decode() if checkpoint is not None else None
    res = _slpi._path("resume", resume).decode() if resume is not None else None
    every = _slpi._integer("checkpoint_every", every, 1) if every is not None else None

    def make(text, first_path, paths, save_every, ref, states, diagnostics):
        return Checkpoint(path, every, res, dict(problem=text, first_path=first_path, paths=paths,
                                                 save_every=save_every, ref=ref, states=states,
                                                 diagnostics=diagnostics,
                                                 quantiles=None if quantiles is None else quantiles.tolist()))
    return make
