"""slpi — verified stochastic Lie–Poisson integrators, from Python.

A thin cffi (ABI mode) binding of libslpi's handle API (slpi.h, "handle API for
bindings"): problems are built from a preset and key=value settings, the fast path
integrates into numpy arrays. Set-up: build the library (``make`` at the repository
root), then put ``python/`` on ``PYTHONPATH``; the library is found as
``$SLPI_LIB``, or ``../build/libslpi.so`` beside this package, or ``libslpi.so`` on the
system's library path (after ``make install``).

    >>> import slpi
    >>> r = slpi.run("iso/rigid-body/trajectories", steps=1000)
    >>> r.states.shape          # (rows, state dimension)
"""
import os
from dataclasses import dataclass, field

import numpy as np
from cffi import FFI

__all__ = ["run", "ensemble", "noise", "verify", "presets", "SlpiError", "Result"]

_ffi = FFI()
_ffi.cdef("""
typedef struct slpi_problem slpi_problem;
const char *slpi_api_last_error(void);
slpi_problem *slpi_problem_new(const char *preset);
void slpi_problem_free(slpi_problem *p);
int slpi_problem_set_key(slpi_problem *p, const char *key, const char *value);
int slpi_problem_shape(const slpi_problem *p, int *dim, int *noises, long *steps, long *rows, double *h, int *every);
int slpi_problem_state_label(const slpi_problem *p, int i, char *buf, size_t n);
int slpi_integrate(const slpi_problem *p, double *states, long counters[6]);
int slpi_integrate_ensemble(const slpi_problem *p, uint64_t first_path, long npaths, double *finals);
int slpi_api_verify(const char *path, const char *noise_file, long max_steps, int *verdict);
void slpi_noise_increments(uint64_t seed, uint64_t path, uint32_t component, double h,
                           int refine, uint64_t first, size_t count, double *out);
typedef struct { const char *name; const char *settings; const char *what; } slpi_preset;
const slpi_preset *slpi_presets(void);
""")


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in (os.environ.get("SLPI_LIB"), os.path.join(here, "..", "..", "build", "libslpi.so"), "libslpi.so"):
        if not cand:
            continue
        try:
            return _ffi.dlopen(cand)
        except OSError:
            continue
    raise ImportError("slpi: libslpi.so not found (build it with `make`, or set SLPI_LIB)")


_lib = _load()


class SlpiError(RuntimeError):
    """An slpi error: code 2 = bad input, 3 = numerical failure; the message names it."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def _check(rc):
    if rc != 0:
        raise SlpiError(rc, _ffi.string(_lib.slpi_api_last_error()).decode())


class _Problem:
    def __init__(self, preset=None, **keys):
        p = _lib.slpi_problem_new(preset.encode() if preset else _ffi.NULL)
        if p == _ffi.NULL:
            raise SlpiError(2, _ffi.string(_lib.slpi_api_last_error()).decode())
        self.p = _ffi.gc(p, _lib.slpi_problem_free)
        # system and scheme reset defaults: apply them first, as the command line does
        first = [k for k in ("system", "form", "scheme") if k in keys]
        for k in first + [k for k in keys if k not in first]:
            v = keys[k]
            if isinstance(v, (list, tuple, np.ndarray)):
                v = ",".join(repr(float(x)) for x in v)
            _check(_lib.slpi_problem_set_key(self.p, k.encode(), str(v).encode()))

    def shape(self):
        dim, m, every = _ffi.new("int *"), _ffi.new("int *"), _ffi.new("int *")
        steps, rows, h = _ffi.new("long *"), _ffi.new("long *"), _ffi.new("double *")
        _check(_lib.slpi_problem_shape(self.p, dim, m, steps, rows, h, every))
        return dim[0], m[0], steps[0], rows[0], h[0], every[0]

    def labels(self, dim):
        buf = _ffi.new("char[64]")
        out = []
        for i in range(dim):
            _check(_lib.slpi_problem_state_label(self.p, i, buf, 64))
            out.append(_ffi.string(buf).decode())
        return out


@dataclass
class Result:
    """A run: states[rows, dim] at times t[rows]; labels of the state columns; summary."""
    t: np.ndarray
    states: np.ndarray
    labels: list
    summary: dict = field(default_factory=dict)


_COUNTERS = ("steps", "iterations", "max_iterations", "stagnated", "capped", "failed")


def run(preset=None, **keys):
    """Integrate one problem on the fast path: a preset name and/or key=value settings
    (``slpi list --keys``; vectors as sequences). Returns a Result."""
    pr = _Problem(preset, **keys)
    dim, m, steps, rows, h, every = pr.shape()
    states = np.empty((rows, dim))
    counters = _ffi.new("long[6]")
    _check(_lib.slpi_integrate(pr.p, _ffi.cast("double *", _ffi.from_buffer(states)), counters))
    summary = dict(zip(_COUNTERS, counters))
    summary.update(noises=m, h=h, output_every=every)
    n = np.minimum(np.arange(rows) * every, steps)
    return Result(t=n * h, states=states, labels=pr.labels(dim), summary=summary)


def ensemble(preset=None, paths=100, first_path=0, **keys):
    """Final states of `paths` realizations (paths first_path, first_path+1, ...):
    an array [paths, dim]."""
    pr = _Problem(preset, **keys)
    dim = pr.shape()[0]
    out = np.empty((paths, dim))
    _check(_lib.slpi_integrate_ensemble(pr.p, first_path, paths, _ffi.cast("double *", _ffi.from_buffer(out))))
    return out


def noise(seed, path, component, h, steps, refine=0, first=0):
    """Canonical Wiener increments (the noise contract of docs/noise.md): steps values."""
    out = np.empty(steps)
    _lib.slpi_noise_increments(seed, path, component, h, refine, first, steps,
                               _ffi.cast("double *", _ffi.from_buffer(out)))
    return out


def verify(path, noise_file=None, max_steps=-1):
    """Verdict of a trajectory file against the certified path: "PASS", "FAIL" or "UNABLE"."""
    v = _ffi.new("int *")
    _check(_lib.slpi_api_verify(path.encode(), noise_file.encode() if noise_file else _ffi.NULL, max_steps, v))
    return {0: "PASS", 1: "FAIL", 3: "UNABLE"}[v[0]]


def presets():
    """{name: description} of every preset (one per experiment of the papers)."""
    out, p = {}, _lib.slpi_presets()
    i = 0
    while p[i].name != _ffi.NULL:
        out[_ffi.string(p[i].name).decode()] = _ffi.string(p[i].what).decode()
        i += 1
    return out

