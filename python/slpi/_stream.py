"""slpi._stream — ``slpi.run(stream="r.nc")``: the rows of a run appended to a NetCDF file
as they are computed, readable while the run goes on and valid after a kill.

The file is netCDF's classic format with 64-bit data (CDF-5; netCDF4-python, ``format=
"NETCDF3_64BIT_DATA"``): ``time`` is its unlimited (record) dimension, each piece of work
(about 0.05 s, slpi/_run.py) appends its rows to every record variable and then syncs,
which writes the record count last. A reader (xarray, netCDF4, ncdump) opening the file
at any moment, or after the writer was killed, sees the rows of the last sync, whole.
[choice] A classic format, not HDF5 (netCDF-4): an HDF5 file open for writing is not safe
to read from another process without SWMR, and one killed mid-write may be unreadable;
classic records have neither problem. CDF-5, not the 64-bit-offset format (CDF-2) it
replaced on 2026-11-28: CDF-5 has int64 attributes and variables, so the stream speaks
``slpi.save``'s dialect (scipy's NetCDF reader, which reads CDF-1 and 2 only, cannot open
it; xarray's default netcdf4 engine does).

One dialect with ``slpi.save`` (slpi/store.py's ``run_attrs`` and ``cf`` make both): the
same attributes, typed (int64, float64, text), with ``slpi_kind = "trajectory"``; the
keys that acted only (those another input overrode are named in ``overridden``);
``slpi_rows_written`` against ``slpi_rows_planned``, the former 0 until the stream is
closed (at the end, or at a stop: Ctrl-C, SIGTERM, an exception), so that the file of a
killed writer says it is incomplete. Variables as ``slpi.save`` writes a Result, each
with its CF ``long_name`` and ``units``: ``time``, ``step`` (int64), ``state`` (time,
component), ``state_radius`` with ``ref=True``, and each diagnostic; the state's column
names in the attribute ``state_columns``.

A piece's rows are written variable by variable (``step`` first, which extends the record
count), so a KeyboardInterrupt raised between two of those writes would leave records
whose other variables hold the fill value 9.97e36 once the file is closed. Ctrl-C and
SIGTERM are therefore held while a piece is written and synced (slpi/_atomic.py's Held),
and acted on after it: each record is whole or absent.

With ``checkpoint=`` (slpi/_run_state.py) the stream holds every row a checkpoint holds
when it is written (the rows of a stop are written before its checkpoint). With
``resume=`` and the stopped run's stream, the file is opened to append; it must be this
run's (the same attributes, variables and state size) and hold the checkpoint's rows, bit
for bit, where both have them (SlpiError, argument ``stream``, otherwise; the provenance
and ``slpi_rows_written`` may differ). The rows it
holds past the checkpoint (a kill after the last checkpoint) are written again: a resume
computes the same bits. A stream that does not exist yet gets the checkpoint's rows
first. The file is then the uninterrupted run's."""
import os

import numpy as np

import slpi as _slpi
from slpi import store
from slpi._atomic import Held


def _layout(problem, labels, diag_names, ref, uncertified, overridden, planned):
    """The attributes (slpi.store's, as ``slpi.save`` writes them, no row written yet) and
    the variables (name -> (dtype, dimensions)) of a run's stream."""
    attrs = store.run_attrs(problem, labels, ref, uncertified, overridden, 0, planned)
    rows, grid = ("time",), ("time", "component")
    names = dict(time=("f8", rows), step=("i8", rows), state=("f8", grid))
    if ref:
        names["state_radius"] = ("f8", grid)
    names.update({k: ("f8", rows) for k in diag_names})
    return attrs, names


class Stream:
    """A NetCDF file the rows of one run are appended to: a new one, or with ``resume=``
    the one the stopped run wrote, continued (``start``)."""

    def __init__(self, path, problem, labels, diag_names, ref, row_steps, h, uncertified=None, overridden=None,
                 resume=False):
        try:
            import netCDF4
        except ImportError:
            raise ImportError("stream= needs netCDF4: apt-get install python3-netcdf4") from None
        self.path, self.steps, self.h, self.done, self.resumed = path, row_steps, h, 0, resume
        attrs, names = _layout(problem, labels, diag_names, ref, uncertified, overridden, len(row_steps))
        if resume:
            self._reopen(netCDF4, attrs, names, len(labels))
        else:
            self.ds = ds = netCDF4.Dataset(path, "w", format="NETCDF3_64BIT_DATA")
            ds.createDimension("time", None)
            ds.createDimension("component", len(labels))
            ds.setncatts(attrs)
            for name, (dtype, dims) in names.items():
                ds.createVariable(name, dtype, dims).setncatts(dict(zip(("long_name", "units"), store.cf(name))))
            ds.sync()
        self.vars = {"time": self.ds["time"], "step": self.ds["step"], "x": self.ds["state"]}
        if ref:
            self.vars["xrad"] = self.ds["state_radius"]
        self.diag = {k: self.ds[k] for k in diag_names}

    def _reopen(self, netCDF4, attrs, names, dim):
        """Open the stopped run's stream to append, refusing another run's (its attributes,
        variables or state size differ)."""
        try:
            self.ds = netCDF4.Dataset(self.path, "a")
        except OSError as e:
            raise _slpi._bad("stream", self.path, "not a NetCDF file (%s): not this run's stream" % e) from None
        ds = self.ds
        mutable = set(store.provenance()) | {"slpi_rows_written"}   # a rebuilt library resumes too
        got = ({n: (v.dtype.str[1:], v.dimensions) for n, v in ds.variables.items()},
               {k: ds.getncattr(k) for k in ds.ncattrs() if k not in mutable})
        want = ({n: (np.dtype(t).str[1:], d) for n, (t, d) in names.items()},
                {k: v for k, v in attrs.items() if k not in mutable})
        got[0]["component size"] = len(ds.dimensions["component"]) if "component" in ds.dimensions else None
        want[0]["component size"] = dim
        for what, mine, theirs in (("variable", want[0], got[0]), ("attribute", want[1], got[1])):
            for k in sorted(set(mine) | set(theirs)):
                if mine.get(k) != theirs.get(k):
                    ds.close()
                    raise _slpi._bad("stream", self.path, "not this run's stream: its %s %s is %r, this run's %r" % (
                        what, k, theirs.get(k), mine.get(k)))

    def start(self, out, rows):
        """Begin at the `rows` rows of out that a resume restored (0: a new run): a new
        file gets them; a resumed stream must hold the same rows, bit for bit, where both
        have them (else SlpiError), and the rows past the checkpoint that it holds (the
        stopped run went on after its last checkpoint) are written again, the same bits."""
        if self.resumed:
            k = min(rows, len(self.ds.dimensions["time"]))
            have = [(self.vars["step"], self.steps), (self.vars["time"], self.steps * self.h),
                    (self.vars["x"], out["x"])]
            have += [(self.vars["xrad"], out["xrad"])] if "xrad" in self.vars else []
            have += [(v, out["diag"][:, i]) for i, v in enumerate(self.diag.values())]
            for v, want in have:
                got = np.asarray(v[:k])
                if got.tobytes() != np.ascontiguousarray(want[:k], dtype=got.dtype).tobytes():
                    raise _slpi._bad("stream", self.path, "its %s differ from the checkpoint's rows 0..%d: not this "
                                     "run's stream" % (v.name, k - 1))
            self.done = k
        self.rows(out, rows)

    def rows(self, out, n):
        """Append rows done..n-1 of out (slpi/_run.py's arrays), then sync: all of them,
        or none when Ctrl-C comes first."""
        with Held():
            self._append(out, n)

    def _append(self, out, n):
        a, b = self.done, n
        if b <= a:
            return
        self.vars["step"][a:b] = self.steps[a:b]
        self.vars["time"][a:b] = self.steps[a:b] * self.h
        self.vars["x"][a:b, :] = out["x"][a:b]
        if "xrad" in self.vars:
            self.vars["xrad"][a:b, :] = out["xrad"][a:b]
        for i, v in enumerate(self.diag.values()):
            v[a:b] = out["diag"][a:b, i]
        self.ds.sync()
        self.done = b

    def close(self):
        """Record the rows written (``slpi_rows_written``, against ``slpi_rows_planned``)
        and close: a file whose writer was killed says 0 rows, or those of its last stop."""
        try:
            with Held():
                self.ds.setncattr("slpi_rows_written", np.int64(self.done))
        finally:
            self.ds.close()


def open_stream(path, pr, labels, diag_names, ref, row_steps, h, resume, overridden=None):
    """None without stream=; else its Stream: a new file, or with resume= the file of the
    stopped run when it exists (continued)."""
    if path is None:
        return None
    p = _slpi._path("stream", path).decode()
    if os.path.exists(p) and resume is None:
        raise _slpi._bad("stream", path, "the file exists: a stream writes a new file (remove it or name another; "
                         "a run resumed with resume= continues its stream)")
    return Stream(p, _slpi._keys_of(pr), labels, diag_names, ref, row_steps, h, pr.uncertified, overridden,
                  os.path.exists(p))
