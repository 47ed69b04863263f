"""slpi._ckpt — the one container of the Python checkpoints, ``slpi.run``'s
(slpi/_run_state.py) and ``slpi.ensemble``'s (slpi/_ens_state.py), as core/checkpoint.c
is for the C ones.

A checkpoint is a ``.npz`` file (numpy's zip of ``.npy`` arrays, read with
``allow_pickle=False``), written atomically (a temporary file beside it, fsync, rename),
holding the arrays of its format and ``meta``, a JSON text with

- ``format`` and ``version``: a file of another format or version is refused, naming both;
- the call it belongs to (the problem's text, with its seed and noise path, ``ref``, the
  digests of x0 and of the increments, ...) and its counts (the step reached, the rows
  or paths done, clipped increments, capped steps): a resume by a call that differs in
  one of them is refused, naming it;
- ``digests``: for every array, the SHA-256 of its dtype, shape and bytes;
- ``digest``: the SHA-256 of the canonical JSON text (sorted keys) of the rest of meta.

A resume checks every digest before it uses any value: an edited value (a row, a NaN, a
count), an array of another dtype (float32 for float64) or shape, an array added or
removed, or a cut file (which numpy's zip reader cannot open) is refused with SlpiError
(code 2, argument ``resume``) naming the part that differs.

[choice] SHA-256 (Python's hashlib), not the FNV-1a 64 of the C checkpoints
(core/digest.h): libslpi exports that function to libslpi-tools only (the SLPI_PRIVATE
version node), and FNV-1a computed byte by byte in Python would take about a second per
megabyte. Like the C digest, it detects edits and cuts, not forgeries (there is no key).
"""
import hashlib
import json

import numpy as np

import slpi as _slpi
from slpi._atomic import atomic_savez


def digest(a):
    """The SHA-256 (hex) of an array's dtype, shape and bytes."""
    a = np.ascontiguousarray(a)
    h = hashlib.sha256(("%s %s\n" % (a.dtype.str, a.shape)).encode())
    if a.size:
        h.update(memoryview(a.reshape(-1).view(np.uint8)))
    return h.hexdigest()


def _meta_digest(meta):
    return hashlib.sha256(json.dumps({k: v for k, v in meta.items() if k != "digest"},
                                     sort_keys=True).encode()).hexdigest()


def write(path, form, meta, arrays):
    """Write the checkpoint of format form = (name, version): meta (a dict of JSON
    values) and arrays (name -> array), with their digests, atomically into path."""
    meta = dict(meta, format=form[0], version=form[1], digests={k: digest(a) for k, a in arrays.items()})
    meta["digest"] = _meta_digest(meta)
    atomic_savez(path, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)


def read(path, form, what):
    """(meta, arrays) of the checkpoint path of format form, every digest checked;
    SlpiError naming what differs otherwise (what: "run" or "ensemble")."""
    def refuse(why):
        return _slpi._bad("resume", path, why)
    try:
        with np.load(path, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
    except Exception as e:   # a cut zip: BadZipFile, EOFError, zlib.error; not a zip: ValueError, ...
        raise refuse("not a checkpoint of slpi.%s, or a cut one (%s: %s)" % (what, type(e).__name__, e)) from None
    try:
        meta = json.loads(str(data.pop("meta")))
        if not isinstance(meta, dict):
            raise ValueError("not a JSON object")
    except (KeyError, ValueError) as e:
        raise refuse("not a checkpoint of slpi.%s: its meta is missing or not JSON (%s)" % (what, e)) from None
    got = (meta.get("format"), meta.get("version"))
    if got != form:
        raise refuse("format %s %s: need %s %d" % (got + form))
    if meta.get("digest") != _meta_digest(meta):
        raise refuse("its meta (the call, the counts and the arrays' digests) differs from its digest: an edited file")
    digests = meta.get("digests")
    for k in sorted(set(digests) | set(data)):
        if k not in data:
            raise refuse("its array %s is missing: a cut or edited file" % k)
        if k not in digests:
            raise refuse("it holds an array %s that no checkpoint writes: an edited file" % k)
        if digest(data[k]) != digests[k]:
            raise refuse("its %s (%s %s) differ from their digest: an edited or cut file" % (
                k, data[k].dtype, data[k].shape))
    return meta, data


def check_call(meta, call, resume, what):
    """Refuses (resume=) a checkpoint whose call differs from this call in one of its
    keys, naming the key."""
    for k, v in call.items():
        if meta.get(k) != v:
            raise _slpi._bad("resume", resume, "the checkpoint is of another %s: its %s is %r, this call's %r" % (
                what, k, meta.get(k), v))
