"""Runs and ensembles as xarray Datasets, stored as NetCDF (or HDF5) files, as quflow keeps
its runs: ``slpi.to_xarray``, ``slpi.save``, ``slpi.load``. Optional: Debian's
python3-xarray with python3-netcdf4 (or python3-h5py with the h5netcdf engine); without
them these functions raise ImportError naming the package.

Every header field travels as an attribute of the Dataset, under its own name: the
provenance (``slpi_version``, ``git_rev``, ``arb``, ``flint``, ...: as ``slpi run`` writes
it), every problem key (``system``, ``scheme``, ``h``, ``seed``, ...), ``arith`` (fast or
ref), ``state_columns``, and for a file read by ``read_trajectory`` every ``# key=value``
line it holds (its comment lines joined by newlines as ``notes``); plus ``slpi_kind``
(trajectory or ensemble) and ``Conventions`` (``CF-1.8``). As the CF conventions expect,
a number is a number: a decimal integer that fits int64 is an int64, another decimal
number a float64 (``h``, ``amp``, ``T``); lists, names, the provenance and whatever else
stay text. ``str`` of a number parses to the same double, so a problem rebuilt from the
attributes (``slpi.run(**keys)``) runs the same bits. The variables, every diagnostic
included, carry a CF ``long_name`` and ``units`` (``cf``; ``1``: slpi's time, states and
diagnostics are the model's own, dimensionless). Only the keys that acted are
attributes: those another input of the call overrode (``dW`` the noise's seed,
``noise=modes`` the Euler-Zeitlin ``amp``) are named, with the reason, in the attribute
``overridden`` alone (slpi/_overrides.py). A run's file has ``slpi_rows_written`` and
``slpi_rows_planned`` (int64). ``run(stream=)`` writes the same attributes (``run_attrs``,
slpi/_stream.py): one dialect."""
import re

import numpy as np

__all__ = ["to_xarray", "save", "load", "provenance"]


def _xarray():
    try:
        import xarray
    except ImportError:
        raise ImportError("slpi.store needs xarray: apt-get install python3-xarray python3-netcdf4") from None
    return xarray


def provenance():
    """The provenance fields of this process's libslpi (those ``slpi run`` writes in a
    header: version, revision, the versions of Arb, FLINT, MPFR, GMP, OpenBLAS, libc, the
    compiler and its flags), as a dict of str.

    Examples
    --------
    >>> slpi.provenance()["slpi_version"] == slpi.__version__
    True
    """
    import os
    import tempfile
    from slpi import _path
    from slpi._native import ffi, lib, libc
    fd, path = tempfile.mkstemp(prefix="slpi-provenance-")
    os.close(fd)
    try:
        f = libc.fopen(_path("provenance file", path), b"w")
        if f == ffi.NULL:
            raise OSError("cannot write %s" % path)
        lib.slpi_provenance_write(f, b"")
        libc.fclose(f)
        with open(path) as fh:
            return dict(line.rstrip("\n").split("=", 1) for line in fh if "=" in line)
    finally:
        os.unlink(path)


_INT = re.compile(r"-?(0|[1-9][0-9]*)$")
_REAL = re.compile(r"[+-]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][+-]?[0-9]+)?$")


def _typed(v, text):
    """A header value as NetCDF wants it (the CF conventions): a decimal integer that fits
    int64 as an int64, other decimal numbers as float64 (Python's str of it parses to the
    same double, so a problem rebuilt from the attributes is the same bits), anything else
    (lists, names, hex, inf, "-0") as the text; text: never convert (the provenance)."""
    if not text and _INT.match(v) and v != "-0" and -2**63 <= int(v) < 2**63:
        return np.int64(int(v))
    if not text and _REAL.match(v) and not _INT.match(v):
        return np.float64(float(v))
    return v


def _attrs(kind, header, text=()):
    out = {"slpi_kind": kind, "Conventions": "CF-1.8"}
    for k, v in header.items():
        out[k] = _typed("\n".join(v) if isinstance(v, list) else str(v), k in text)
    return out


# CF attributes of the variables: slpi's time is the model's own (the Lie-Poisson equations'
# time, no physical unit: docs/conventions.md), and so are its states and diagnostics:
# units "1", but the heavy top's angle theta ("radian").
_CF = {"time": ("model time t = n h of the Lie-Poisson equations (dimensionless)", "1"),
       "step": ("step number n", "1"), "state": ("state coordinates (slpi.h layout)", "1"),
       "state_radius": ("certified radius of each state coordinate", "1"),
       "path": ("noise path number", "1")}
# The diagnostics (slpi_diag_add of fast/*.c, and ref/*.c's), by name pattern: {0} is the
# pattern's group (an index, a power). A departure "_dev" is x(t) - x(0), "_rel_dev"
# (x(t) - x(0)) / x(0).
_DIAG = [(r"H0", "energy (the Hamiltonian H0)"),
         (r"casimir_norm2", "Casimir |x|^2"), (r"casimir_norm2_([0-9]+)", "Casimir |x_{0}|^2 of block {0}"),
         (r"C1", "Casimir |gamma|^2"), (r"C2", "Casimir pi . gamma (se(3)), or C_2 = tr(X^2) (su(N))"),
         (r"C([3-9])", "Casimir C_{0} = tr(X^{0})"), (r"trX([0-9]+)", "Casimir tr(X^{0})"),
         (r"TrX", "trace of X (zero on su(N))"), (r"abs_trace", "|tr X| (zero on su(N))"),
         (r"lambda_([0-9]+|N)", "eigenvalue lambda_{0} of iX (descending)"),
         (r"eig_dev", "largest departure of an eigenvalue from step 0"),
         (r"real_even_dev", "departure from the real, even subspace"),
         (r"J_([xyz])", "spatial angular momentum J_{0}"), (r"noether_J", "spatial angular momentum |J|"),
         (r"R_orth_err", "|R^T R - I| (the reconstructed rotation's orthogonality)"),
         (r"pi3", "body angular momentum pi_3"), (r"p_phi", "momentum p_phi (about the vertical)"),
         (r"p_psi", "momentum p_psi = pi_3 (about the symmetry axis)"),
         (r"gamma_RTe3_err", "|gamma - R^T e_3| (the reconstructed rotation's consistency)"),
         (r"theta", "nutation angle theta"),
         (r"mean_iters", "mean solver iterations per step so far"),
         (r"max_iters", "most solver iterations of a step so far"),
         (r"stagnated", "steps whose solver stagnated so far"), (r"capped", "steps whose solve was capped so far"),
         (r"failed", "steps whose solve failed so far")]


def cf(name):
    """(long_name, units) of a variable slpi writes (the state, time, a diagnostic, ...),
    or None for one it does not know."""
    if name in _CF:
        return _CF[name]
    for pattern, long_name in _DIAG:
        for suffix, how in (("", "%s"), ("_dev", "departure of %s from step 0"),
                            ("_rel_dev", "relative departure of %s from step 0")):
            m = re.fullmatch(pattern + suffix, name)
            if m:
                return how % long_name.format(*m.groups()), "radian" if name == "theta" else "1"
    return None


_PROVENANCE = []


def _text_keys(head):
    """The fields that stay text whatever they look like: the provenance's (a revision
    or version of digits is a name, not a number), and the trajectory's own."""
    if not _PROVENANCE:
        _PROVENANCE.append(frozenset(provenance()))
    return _PROVENANCE[0] | {"notes", "state_columns", "arith"}


def _cf(ds):
    for name in ds.variables:
        if cf(name):
            long_name, units = cf(name)
            ds[name].attrs.update(long_name=long_name, units=units)
    return ds


def _header(problem, labels, ref, uncertified, overridden):
    """The header of a Result or Ensemble: the provenance, arith, state_columns and the
    problem's keys that acted; those another input overrode (slpi/_overrides.py) are named,
    with why, in ``overridden`` instead."""
    from slpi._overrides import attribute
    head = dict(provenance(), arith="ref" if ref else "fast", state_columns=",".join(labels),
                **{k: v for k, v in (problem or {}).items() if k not in (overridden or {})})
    if uncertified:
        head["uncertified"] = uncertified
    if attribute(overridden):
        head["overridden"] = attribute(overridden)
    return head


def run_attrs(problem, labels, ref, uncertified, overridden, rows, planned):
    """The attributes of a run's file, saved (``slpi.save``) or streamed (``run(stream=)``,
    slpi/_stream.py), alike: the header, typed, and ``slpi_rows_written`` against
    ``slpi_rows_planned`` (the rows of the run's grid)."""
    head = dict(_header(problem, labels, ref, uncertified, overridden), slpi_rows_written=rows,
                slpi_rows_planned=planned)
    return _attrs("trajectory", head, _text_keys(head))


def to_xarray(obj):
    """A Dataset of a ``Result`` (``run``), a ``Trajectory`` (``read_trajectory``) or an
    ``Ensemble``, with every header field as an attribute (the module's docstring).

    Variables: ``state`` (time, component) or (path, time, component), ``state_radius``
    (certified), each diagnostic by name, ``step``; an ensemble's ``stats_mean``, ...
    (time, quantity), ``quantiles`` (q, time, quantity) and ``reduced`` (path, ...) when
    it has them.

    Examples
    --------
    >>> ds = slpi.to_xarray(slpi.run("iso/rigid-body/trajectories", steps=4))
    >>> ds["state"].shape, ds.attrs["system"], ds.attrs["arith"]
    ((5, 3), 'rigid-body', 'fast')
    """
    from slpi import Ensemble, Result, Trajectory, SlpiError
    xr = _xarray()
    if isinstance(obj, Trajectory):
        head, rows = obj
        if obj.state is None:
            raise SlpiError(2, "a trajectory without state_columns= in its header", "obj", None)
        data = {"state": (("time", "component"), np.array(obj.state)), "step": (("time",), rows["step"])}
        if head.get("arith") == "ref":
            data["state_radius"] = (("time", "component"), np.array(obj.state_rad))
        for name in rows.dtype.names:
            if name not in obj.state_columns and name not in ("step", "t") and not name.endswith("_rad"):
                data[name] = (("time",), rows[name])
        return _cf(xr.Dataset(data, coords={"time": rows["t"], "component": obj.state_columns},
                              attrs=_attrs("trajectory", head, _text_keys(head))))
    if isinstance(obj, Result):
        data = {"state": (("time", "component"), obj.states), "step": (("time",), obj.step)}
        if obj.radii is not None:
            data["state_radius"] = (("time", "component"), obj.radii)
        for k, v in obj.diagnostics.items():
            data[k] = (("time",), v)
        attrs = run_attrs(obj.problem, obj.labels, obj.radii is not None, obj.uncertified, obj.overridden,
                          len(obj.t), obj.summary.get("rows_planned", len(obj.t)))
        return _cf(xr.Dataset(data, coords={"time": obj.t, "component": obj.labels}, attrs=attrs))
    if isinstance(obj, Ensemble):
        data, coords = {"step": (("time",), obj.step)}, {"time": obj.t, "component": obj.labels,
                                                         "path": obj.paths.astype(np.int64)}
        if obj.states is not None:
            data["state"] = (("path", "time", "component"), np.asarray(obj.states))
        if obj.radii is not None:
            data["state_radius"] = (("path", "time", "component"), obj.radii)
        for k, v in (obj.diagnostics or {}).items():
            data[k] = (("path", "time"), v)
        if obj.stats is not None:
            coords["quantity"] = obj.stats.names
            for k in ("mean", "var", "min", "max", "radius"):
                data["stats_" + k] = (("time", "quantity"), getattr(obj.stats, k))
            data["stats_n"] = ((), obj.stats.n)
        if obj.quantiles is not None:
            coords["quantity"], coords["q"] = obj.quantiles.names, obj.quantiles.q
            data["quantiles"] = (("q", "time", "quantity"), obj.quantiles.values)
            data["quantiles_error"] = (("time", "quantity"), obj.quantiles.error)
        if obj.reduced is not None:
            r = np.asarray(obj.reduced)
            dims = ("bin",) if r.shape[0] != len(obj.paths) else ("path",)
            data["reduced"] = (dims + tuple("reduced_%d" % i for i in range(1, r.ndim)), r)
        head = _header(obj.problem, obj.labels, obj.radii is not None, obj.uncertified, obj.overridden)
        for k, v in (obj.params or {}).items():
            head["grid." + k] = repr(v)
        return _cf(xr.Dataset(data, coords=coords, attrs=_attrs("ensemble", head, _text_keys(head))))
    raise SlpiError(2, "obj: a %s: need a Result, Trajectory or Ensemble" % type(obj).__name__, "obj", None)


def with_time_unit(ds, time_unit):
    """ds with the physical time unit of an Euler–Zeitlin problem (``slpi.time_unit``) on
    its time: ``units`` "<seconds> s" (the values stay slpi's t) and the sphere's factor
    c_N as ``slpi_sphere_time_per_unit``; None: ds unchanged."""
    if time_unit is None:
        return ds
    import slpi
    if not isinstance(time_unit, slpi.TimeUnit):
        raise slpi._bad("time_unit", time_unit, "need a TimeUnit of slpi.time_unit(problem, rotation_rate=...)")
    ds = ds.copy()
    ds["time"].attrs.update(units=time_unit.units, slpi_sphere_time_per_unit=time_unit.sphere,
                            long_name="model time t = n h; sphere time c_N t (docs/systems.md#time-unit)")
    return ds


def save(obj, path, engine=None, time_unit=None):
    """Write ``to_xarray(obj)`` (or a Dataset) to a NetCDF file (``engine``: xarray's;
    default netcdf4, or h5netcdf for HDF5 through h5py), under a temporary name renamed
    when complete (slpi/_atomic.py: Ctrl-C and SIGTERM wait for it; a killed writer's
    temporary is removed by the next save of the path). ``time_unit`` (``slpi.time_unit``, Euler–Zeitlin problems): the CF
    ``units`` of time become its seconds (``"3356.99... s"``).

    Examples
    --------
    >>> import tempfile, os
    >>> f = os.path.join(tempfile.mkdtemp(), "rb.nc")
    >>> slpi.save(slpi.run("iso/rigid-body/trajectories", steps=4), f)
    >>> slpi.load(f).attrs["scheme"]
    'isomp'
    """
    import os
    from slpi._atomic import write
    ds = with_time_unit(obj if hasattr(obj, "to_netcdf") else to_xarray(obj), time_unit)
    write(os.fspath(path), lambda tmp: ds.to_netcdf(tmp, engine=engine))


def load(path, engine=None):
    """The Dataset of a file ``save`` wrote, read whole (the file is closed after).

    Examples
    --------
    >>> import tempfile, os
    >>> f = os.path.join(tempfile.mkdtemp(), "e.nc")
    >>> slpi.save(slpi.ensemble("iso/rigid-body/trajectories", paths=3, steps=4, save_every=2, stats=True), f)
    >>> ds = slpi.load(f)
    >>> ds["state"].shape, ds["stats_mean"].sel(quantity="x1").shape, ds.attrs["slpi_kind"]
    ((3, 3, 3), (3,), 'ensemble')
    """
    xr = _xarray()
    with xr.open_dataset(path, engine=engine) as ds:
        return ds.load()
