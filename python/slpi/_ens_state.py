"""slpi._ens_state — what of a Python ensemble outlives one call, as cli/ensemble-state.c
is for ``slpi ensemble``: checkpoints (``ensemble(checkpoint=..., resume=...)``).

A checkpoint is a ``.npz`` file written atomically (a temporary file beside it, fsync,
rename) after every ``checkpoint_every`` completed paths. It holds

- ``meta``: a JSON text: the format ``slpi-python-ensemble-checkpoint`` 1, the problem's
  text (every key, ``slpi run``'s header), first_path, paths, save_every, ref, what the
  call keeps (states, diagnostics), the paths done and the clipped and capped counts
  over them;
- ``state``: the statistics' exact state of the paths done (slpi_ensemble_export), which
  a resume imports: the C ensemble then runs path ``done + i`` next, and its statistics
  are one run's bits (api/ensemble.c: their tree depends on the number of paths alone);
- the kept rows of the paths done (``states``, ``radii``, ``diagnostics``,
  ``diagnostic_radii``).

Every path's rows depend only on its path number, x0 and dW, so a resumed call that is
given the same arguments returns the uninterrupted call's arrays bit for bit, for any
thread count. A checkpoint of another problem or call is refused, naming the first
difference."""
import json
import os

import numpy as np

import slpi as _slpi

FORMAT, VERSION = "slpi-python-ensemble-checkpoint", 1
_ARRAYS = ("states", "radii", "diagnostics", "diagnostic_radii")


class Checkpoint:
    """The checkpoint of one ensemble call: its file, cadence and what a resume restores."""

    def __init__(self, path, every, resume, call):
        self.path, self.every, self.resume, self.call = path, every, resume, call
        self.last = 0

    def restore(self, h, arrays):
        """Import the resumed checkpoint's state into the handle h and its rows into
        arrays (name -> array or None); returns (done, clipped, capped)."""
        if self.resume is None:
            return 0, 0, 0
        try:
            with np.load(self.resume, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                data = {k: z[k] for k in z.files if k != "meta"}
        except (OSError, ValueError, KeyError) as e:
            raise _slpi._bad("resume", self.resume, "not a checkpoint of slpi.ensemble (%s)" % e) from None
        check_meta(meta, (FORMAT, VERSION), self.call, self.resume, "ensemble")
        done = int(meta["done"])
        h.merge_state(data["state"])
        if h.paths() != done:
            raise _slpi._bad("resume", self.resume, "its state holds %d paths, its header %d" % (h.paths(), done))
        for k in _ARRAYS:
            if arrays.get(k) is not None:
                if k not in data or data[k].shape != (done,) + arrays[k].shape[1:]:
                    raise _slpi._bad("resume", self.resume, "its %s do not have the shape of %d paths' rows" % (k, done))
                arrays[k][:done] = data[k]
        self.last = done
        return done, int(meta["clipped"]), int(meta["capped"])

    def batch(self, batch, wave):
        """The paths per C call: at most every checkpoint's (whole waves, one at least)."""
        return batch if self.every is None else min(batch, max(wave, self.every // wave * wave))

    def save(self, h, done, arrays, clipped, capped):
        """Write the checkpoint of the first `done` paths when checkpoint_every more are done."""
        if self.path is None or (self.every is not None and done - self.last < self.every and done < self.call["paths"]):
            return
        meta = dict(self.call, format=FORMAT, version=VERSION, done=done, clipped=clipped, capped=capped)
        data = {k: np.ascontiguousarray(a[:done]) for k, a in arrays.items() if a is not None}
        atomic_savez(self.path, meta=np.array(json.dumps(meta, sort_keys=True)), state=h.export(), **data)
        self.last = done


def check_meta(meta, form, call, resume, what):
    """Refuses (resume=) a checkpoint whose meta is not of format form = (name, version),
    or whose call differs from this call in one of its keys, naming the key."""
    got = (meta.get("format"), meta.get("version"))
    if got != form:
        raise _slpi._bad("resume", resume, "format %s %s: need %s %d" % (got + form))
    for k, v in call.items():
        if meta.get(k) != v:
            raise _slpi._bad("resume", resume, "the checkpoint is of another %s: its %s is %r, this call's %r" % (
                what, k, meta.get(k), v))


def atomic_savez(path, **arrays):
    """np.savez of arrays into path, atomically: a temporary file beside it, fsync,
    rename (path holds the old file or the new one, whole, whatever stops the write)."""
    tmp = "%s.part-%d" % (path, os.getpid())
    try:
        with open(tmp, "wb") as f:
            np.savez(f, **arrays)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def options(checkpoint, every, resume, points, merge, out, reduce, quantiles):
    """None without checkpoint and resume; else, the arguments checked, a function of the
    call's (problem text, first_path, paths, save_every, ref, states, diagnostics) that
    makes its Checkpoint."""
    if checkpoint is None and resume is None:
        if every is not None:
            raise _slpi._bad("checkpoint_every", every, "needs checkpoint")
        return None
    other = [k for k, v in (("params", points > 1), ("merge", merge is not None), ("out", out is not None),
                            ("reduce", reduce is not None), ("quantiles", quantiles is not None)) if v]
    if other:
        raise _slpi._bad("checkpoint" if checkpoint is not None else "resume", checkpoint or resume,
                         "checkpoints keep one point's rows and statistics: not with %s" % ", ".join(other))
    path = _slpi._path("checkpoint", checkpoint).decode() if checkpoint is not None else None
    res = _slpi._path("resume", resume).decode() if resume is not None else None
    every = _slpi._integer("checkpoint_every", every, 1) if every is not None else None

    def make(text, first_path, paths, save_every, ref, states, diagnostics):
        return Checkpoint(path, every, res, dict(problem=text, first_path=first_path, paths=paths,
                                                 save_every=save_every, ref=ref, states=states,
                                                 diagnostics=diagnostics))
    return make
