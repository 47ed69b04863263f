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

__all__ = ["run", "ensemble", "converge", "noise", "verify", "presets", "keys", "SlpiError", "Result",
           "Study"]

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
typedef struct { int code; char msg[512]; } slpi_error;
int slpi_noise_increments(uint64_t seed, uint64_t path, uint32_t component, double h,
                          int refine, uint64_t first, size_t count, double *out, slpi_error *err);
typedef struct { const char *name; const char *settings; const char *what; } slpi_preset;
const slpi_preset *slpi_presets(void);
int slpi_problem_key(int i, const char **name, const char **system, const char **help);
long slpi_problem_text(const slpi_problem *p, char *buf, size_t n);
int slpi_api_converge(const slpi_problem *p, const char *kind, int kmin, int kmax, int ref, long paths,
                      uint64_t path0, int boot, const char *indep, double *h, double *e, double *se,
                      double fit[3]);
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
    err = _ffi.new("slpi_error *")
    rc = _lib.slpi_noise_increments(seed, path, component, h, refine, first, steps,
                                    _ffi.cast("double *", _ffi.from_buffer(out)), err)
    if rc != 0:
        raise SlpiError(rc, _ffi.string(err.msg).decode())
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


def keys(preset=None, **settings):
    """Every problem key (``slpi list --keys``) as a list of dicts: its name, the system it
    belongs to ("" for every system; some names, such as N, noise or amp, exist for
    several systems), its help text, and its value in the problem of `preset` and
    `settings` (None where the key is not that problem's)."""
    pr = _Problem(preset, **settings)
    n = _lib.slpi_problem_text(pr.p, _ffi.NULL, 0)
    buf = _ffi.new("char[]", n + 1)
    _lib.slpi_problem_text(pr.p, buf, n + 1)
    values = dict(line.split("=", 1) for line in _ffi.string(buf).decode().splitlines() if "=" in line)
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
    """A coupled convergence study: per level the step h, the error e against the
    reference and its standard error se; the fitted order with its bootstrap 95% CI."""
    h: np.ndarray
    e: np.ndarray
    se: np.ndarray
    slope: float
    ci: tuple


def converge(preset=None, kind="strong", levels=(3, 8), ref=12, paths=100, path0=0, boot=1000,
             indep=None, **settings):
    """The study `slpi converge` runs (docs/noise.md#coupling): levels h = T 2^-k for k in
    levels[0]..levels[1] against reference level `ref` (the same scheme, or `indep`),
    `paths` coupled paths from `path0`. Returns a Study."""
    pr = _Problem(preset, **settings)
    n = levels[1] - levels[0] + 1
    if n < 1:
        raise SlpiError(2, "converge: levels %r: need a first level <= the last" % (levels,))
    h, e, se = np.empty(n), np.empty(n), np.empty(n)
    fit = _ffi.new("double[3]")
    ptr = lambda a: _ffi.cast("double *", _ffi.from_buffer(a))
    _check(_lib.slpi_api_converge(pr.p, kind.encode(), levels[0], levels[1], ref, paths, path0, boot,
                                  indep.encode() if indep else _ffi.NULL, ptr(h), ptr(e), ptr(se), fit))
    return Study(h=h, e=e, se=se, slope=fit[0], ci=(fit[1], fit[2]))
