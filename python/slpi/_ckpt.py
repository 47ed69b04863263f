"""slpi._ckpt — the Python checkpoints, ``slpi.run``'s (slpi/_run_state.py) and
``slpi.ensemble``'s (slpi/_ens_state.py), in the one container of every checkpoint slpi
writes (core/container.c through slpi/container.h; docs/design.md#checkpoints): a text
file naming its format and version, with sections that each carry their own digest.

A checkpoint holds

- the section ``meta``: one line of JSON (sorted keys), the call it belongs to (the
  problem's text, with its seed and noise path, ``ref``, the digests of x0 and of the
  increments, ...) and its counts (the step reached, the rows or paths done, clipped
  increments, capped steps): a resume by a call that differs in one of them is refused,
  naming it;
- one section ``array.NAME`` per array: ``dtype`` (numpy's, with its byte order),
  ``shape``, and ``data``, the hex of the array's bytes, so it is read back exactly.

The file is written atomically (slpi/_atomic.py). A resume reads it with the C reader
that reads every C checkpoint, which checks every digest before any value is used: a
file of another format or version, a cut file (and the section it ends in), or an edited
section (a row, a NaN, a count, an array of another dtype or shape) is refused with
SlpiError (code 2, argument ``resume``) naming what differs; so is an ``.npz``
checkpoint of an earlier slpi (format version 2), naming its version.
"""
import json

import numpy as np

import slpi as _slpi
from slpi._atomic import atomic_bytes
from slpi._native import ffi as _ffi, lib as _lib


def digest(a):
    """The SHA-256 (hex) of an array's dtype, shape and bytes: how a call's x0 and dW
    are named in meta."""
    import hashlib
    a = np.ascontiguousarray(a)
    h = hashlib.sha256(("%s %s\n" % (a.dtype.str, a.shape)).encode())
    if a.size:
        h.update(memoryview(a.reshape(-1).view(np.uint8)))
    return h.hexdigest()


def _array_text(a):
    a = np.asarray(a)   # not ascontiguousarray: it makes a 0-d array 1-d
    if a.dtype.hasobject:
        raise TypeError("a checkpoint holds no object arrays")
    return "dtype %s\nshape%s\ndata %s\n" % (a.dtype.str, "".join(" %d" % n for n in a.shape), a.tobytes().hex())


def write(path, form, meta, arrays):
    """Write the checkpoint of format form = (name, version): meta (a dict of JSON
    values) and arrays (name -> array), atomically into path."""
    names = ["meta"] + ["array." + k for k in sorted(arrays)]
    texts = [json.dumps(meta, sort_keys=True) + "\n"] + [_array_text(arrays[k]) for k in sorted(arrays)]
    cn = [_ffi.new("char[]", n.encode()) for n in names]
    ct = [_ffi.new("char[]", t.encode()) for t in texts]
    args = (form[0].encode(), form[1], len(names), _ffi.new("char *[]", cn), _ffi.new("char *[]", ct))
    n = _lib.slpi_container_format(_ffi.NULL, 0, *args)
    buf = _ffi.new("char[]", max(n, 0) + 1)
    if n < 0 or _lib.slpi_container_format(buf, n + 1, *args) != n:
        raise _slpi.SlpiError(2, "checkpoint: %s" % _ffi.string(_lib.slpi_api_last_error()).decode(),
                              "checkpoint", path)
    atomic_bytes(path, _ffi.buffer(buf, n))


def _old_npz(raw, form):
    """Why an .npz checkpoint of an earlier slpi is refused, naming its format version."""
    import io
    try:
        with np.load(io.BytesIO(raw), allow_pickle=False) as z:
            m = json.loads(str(z["meta"]))
        got = "%s version %s" % (m.get("format"), m.get("version"))
    except Exception:
        got = "an .npz file"
    return ("a checkpoint of an earlier slpi (%s, an .npz file): this slpi reads %s version %d only; "
            "start again without resume, or resume with the slpi that wrote it" % (got, form[0], form[1]))


def _array(name, text):
    """The array of a section's text; ValueError naming what is out of shape."""
    lines = text.split("\n")
    if len(lines) != 4 or not lines[0].startswith("dtype ") or not lines[1].startswith("shape") \
            or not lines[2].startswith("data "):
        raise ValueError("its lines are not dtype, shape and data")
    dt = np.dtype(lines[0][6:])
    shape = tuple(int(s) for s in lines[1][5:].split())
    raw = bytes.fromhex(lines[2][5:])
    if dt.hasobject or any(s < 0 for s in shape) or len(raw) != dt.itemsize * int(np.prod(shape)):
        raise ValueError("%d bytes of data for dtype %s and shape %s" % (len(raw), dt, shape))
    return np.frombuffer(raw, dtype=dt).reshape(shape).copy()


def sections(path, form):
    """The sections (name -> text) of the checkpoint path of format form, every digest
    checked by the C reader; SlpiError (argument resume) naming what differs otherwise."""
    cpath = _slpi._path("resume", path)
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise _slpi._bad("resume", path, "cannot read it: %s" % e.strerror) from None
    if raw[:4] == b"PK\x03\x04":
        raise _slpi._bad("resume", path, _old_npz(raw, form))
    c = _ffi.new("slpi_container **")
    if _lib.slpi_container_parse(c, cpath, raw, len(raw), form[0].encode(), form[1]) != 0:
        raise _slpi._bad("resume", path, _ffi.string(_lib.slpi_api_last_error()).decode())
    try:
        out = {}
        name, text, n = _ffi.new("char **"), _ffi.new("char **"), _ffi.new("size_t *")
        for i in range(_lib.slpi_container_count(c[0])):
            _lib.slpi_container_section(c[0], i, name, text, n)
            out[_ffi.string(name[0]).decode()] = bytes(_ffi.buffer(text[0], n[0])).decode("utf-8", "replace")
        return out
    finally:
        _lib.slpi_container_free(c[0])


def read(path, form, what):
    """(meta, arrays) of the checkpoint path of format form; SlpiError naming what
    differs otherwise (what: "run" or "ensemble")."""
    secs = sections(path, form)
    try:
        meta = json.loads(secs.pop("meta"))
        if not isinstance(meta, dict):
            raise ValueError("not a JSON object")
    except (KeyError, ValueError) as e:
        raise _slpi._bad("resume", path, "not a checkpoint of slpi.%s: its meta section is missing or not JSON (%s)" % (
            what, e)) from None
    data = {}
    for k, t in secs.items():
        if not k.startswith("array."):
            raise _slpi._bad("resume", path, "its section %s is none that slpi.%s writes" % (k, what))
        try:
            data[k[6:]] = _array(k, t)
        except (ValueError, TypeError) as e:
            raise _slpi._bad("resume", path, "its section %s: %s" % (k, e)) from None
    return meta, data


def check_call(meta, call, resume, what):
    """Refuses (resume=) a checkpoint whose call differs from this call in one of its
    keys, naming the key."""
    for k, v in call.items():
        if meta.get(k) != v:
            raise _slpi._bad("resume", resume, "the checkpoint is of another %s: its %s is %r, this call's %r" % (
                what, k, meta.get(k), v))
