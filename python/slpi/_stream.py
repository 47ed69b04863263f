"""slpi._stream — ``slpi.run(stream="r.nc")``: the rows of a run appended to a NetCDF file
as they are computed, readable while the run goes on and valid after a kill.

The file is netCDF's classic 64-bit-offset format (netCDF4-python, ``format=
"NETCDF3_64BIT_OFFSET"``): ``time`` is its unlimited (record) dimension, each piece of
work (about 0.05 s, slpi/_run.py) appends its rows to every record variable and then
syncs, which writes the record count last. A reader (xarray, netCDF4, ncdump) opening the
file at any moment, or after the writer was killed, sees the rows of the last sync, whole.
[choice] The classic format, not HDF5 (netCDF-4): an HDF5 file open for writing is not
safe to read from another process without SWMR, and one killed mid-write may be
unreadable; classic records have neither problem, at the price of its types (int32 and
double attributes: the header fields are written as text, with ``slpi_kind =
"run-stream"``). Variables as ``slpi.save`` writes a Result: ``time``, ``step``,
``state`` (time, component), ``state_radius`` with ``ref=True``, and each diagnostic;
the state's column names in the attribute ``state_columns``.

A piece's rows are written variable by variable (``step`` first, which extends the record
count), so a KeyboardInterrupt raised between two of those writes would leave records
whose other variables hold the fill value 9.97e36 once the file is closed. Ctrl-C and
SIGTERM are therefore held while a piece is written and synced (slpi/_atomic.py's Held),
and acted on after it: each record is whole or absent."""
import os

import numpy as np

import slpi as _slpi
from slpi import _overrides
from slpi._atomic import Held


class Stream:
    """A NetCDF file the rows of one run are appended to."""

    def __init__(self, path, problem, labels, diag_names, ref, row_steps, h, overridden=None):
        try:
            import netCDF4
        except ImportError:
            raise ImportError("stream= needs netCDF4: apt-get install python3-netcdf4") from None
        if os.path.exists(path):
            raise _slpi._bad("stream", path, "the file exists: a stream writes a new file (remove it or name another)")
        self.steps, self.h, self.done = row_steps, h, 0
        self.ds = netCDF4.Dataset(path, "w", format="NETCDF3_64BIT_OFFSET")
        ds = self.ds
        ds.createDimension("time", None)
        ds.createDimension("component", len(labels))
        ds.setncatts(dict({k: str(v) for k, v in problem.items()}, slpi_kind="run-stream", Conventions="CF-1.8",
                          state_columns=",".join(labels)))
        if overridden:
            ds.setncattr("overridden", _overrides.attribute(overridden))
        self.vars = {"time": ds.createVariable("time", "f8", ("time",)),
                     "step": ds.createVariable("step", "i4", ("time",)),
                     "x": ds.createVariable("state", "f8", ("time", "component"))}
        self.vars["time"].setncatts(dict(long_name="model time t = n h of the Lie-Poisson equations", units="1"))
        self.vars["step"].setncatts(dict(long_name="step number n", units="1"))
        self.vars["x"].setncatts(dict(long_name="state coordinates (slpi.h layout)", units="1"))
        if ref:
            self.vars["xrad"] = ds.createVariable("state_radius", "f8", ("time", "component"))
        self.diag = {k: ds.createVariable(k, "f8", ("time",)) for k in diag_names}
        ds.sync()

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
        self.ds.close()


def open_stream(path, pr, labels, diag_names, ref, row_steps, h, checkpointed, overridden=None):
    """None without stream=; else its Stream (not with checkpoint= or resume=)."""
    if path is None:
        return None
    if checkpointed:
        raise _slpi._bad("stream", path, "a stream writes one whole run into a new file: not with checkpoint= or "
                         "resume= (the checkpoint keeps the rows)")
    p = _slpi._path("stream", path).decode()
    return Stream(p, _slpi._keys_of(pr), labels, diag_names, ref, row_steps, h, overridden)
