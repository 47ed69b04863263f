"""One NetCDF dialect (slpi/store.py, slpi/_stream.py): the file ``run(stream=)`` writes and
the file ``slpi.save`` writes of the same run have the same attributes (names, types:
int64, float64 or text, and values), globally and on every variable of the stream (but
``_FillValue``, xarray's encoding); every diagnostic has a CF ``long_name`` and ``units``;
``slpi_rows_written`` against ``slpi_rows_planned`` says whether a file is whole (a
stopped stream records its rows on close, a killed one says 0); only the keys that act
are attributes (those another input overrode are named in ``overridden`` alone)."""
import os
import signal
import subprocess
import sys

import numpy as np
import pytest

import slpi

netCDF4 = pytest.importorskip("netCDF4")
pytest.importorskip("xarray")
RB = "iso/rigid-body/trajectories"
CASES = [
    (RB, dict(steps=300, output_every=7, trunc_ell=0.05)),
    (RB, dict(steps=20, ref=True)),
    (RB, dict(dW=np.full((40, 3), 0.01))),                      # seed, path, refine overridden
    (None, dict(system="euler-zeitlin", N=3, steps=4, noise="modes", noise_modes="1:0:0.02", amp=2)),
    ("svi/heavy-top/generic", dict(steps=8)),                  # theta, in radians
]


def attributes(path):
    """The global attributes and those of each variable: name -> (type, value)."""
    with netCDF4.Dataset(path) as ds:
        glob = {k: (type(ds.getncattr(k)), ds.getncattr(k)) for k in ds.ncattrs()}
        var = {n: {k: (type(v.getncattr(k)), v.getncattr(k)) for k in v.ncattrs() if k != "_FillValue"}
               for n, v in ds.variables.items()}
        return glob, var, len(ds.dimensions["time"])


@pytest.mark.parametrize("case", range(len(CASES)))
def test_streamed_and_saved_files_are_one_dialect(tmp_path, case):
    problem, kw = CASES[case]
    s, f = str(tmp_path / "s.nc"), str(tmp_path / "f.nc")
    r = slpi.run(problem, stream=s, **kw)
    slpi.save(r, f)
    (gs, vs, ns), (gf, vf, nf) = attributes(s), attributes(f)
    assert sorted(gs) == sorted(gf)
    for k in gs:
        assert gs[k] == gf[k], (k, gs[k], gf[k])
    assert gs["slpi_rows_written"] == gs["slpi_rows_planned"] == (np.int64, len(r.t)) and ns == nf == len(r.t)
    assert gs["h"][0] is np.float64 and gs["steps"][0] is np.int64 and gs["scheme"][0] is str
    for name in vs:
        assert vs[name] == vf[name], (name, vs[name], vf[name])
        assert vs[name]["long_name"][1] and vs[name]["units"][1], name
    assert set(r.diagnostics) <= set(vs)
    for k in r.overridden:   # only the keys that act: the others named in overridden alone
        assert k not in gs and k in gs["overridden"][1]
    if "amp" in kw:
        assert "amp" in r.overridden
    if "theta" in r.diagnostics:
        assert vs["theta"]["units"][1] == "radian"


def test_every_diagnostic_has_its_own_long_name():
    """Every diagnostic a preset's run has, on both paths, is one slpi.store names."""
    from slpi import store
    seen = set()
    for name in slpi.presets():
        for ref in (False, True):
            try:
                seen |= set(slpi.run(name, steps=1, ref=ref).diagnostics)
            except slpi.SlpiError:   # a preset the certified path cannot start (its message says why)
                pass
    assert len(seen) > 60
    unknown = sorted(k for k in seen if store.cf(k) is None)
    assert not unknown, unknown


class Stop(Exception):
    pass


def test_a_stopped_stream_says_its_rows(tmp_path):
    kw = dict(steps=3000, output_every=3)
    s = str(tmp_path / "s.nc")

    def stop(t, x):
        if t > 1000 * 2.0 ** -8:
            raise Stop()
    with pytest.raises(Stop):
        slpi.run(RB, stream=s, observer=stop, **kw)
    g, _, n = attributes(s)
    assert g["slpi_rows_written"][1] == n < g["slpi_rows_planned"][1] == 1001
    r = slpi.run(RB, observer=lambda t, x: t > 1000 * 2.0 ** -8, **kw)   # stopped cleanly: saved, the same
    f = str(tmp_path / "f.nc")
    slpi.save(r, f)
    g = attributes(f)[0]
    assert g["slpi_rows_written"][1] == len(r.t) == n and g["slpi_rows_planned"][1] == 1001
    k = str(tmp_path / "k.nc")
    code = ("import os, signal, slpi\n"
            "def die(t, x):\n"
            "    if t > 1500 * 2.0 ** -8: os.kill(os.getpid(), signal.SIGKILL)\n"
            "slpi.run(%r, stream=%r, observer=die, **%r)\n" % (RB, k, kw))
    p = subprocess.run([sys.executable, "-c", code], env=dict(os.environ), capture_output=True)
    assert p.returncode == -signal.SIGKILL, p.stderr
    g, _, n = attributes(k)
    assert g["slpi_rows_written"][1] == 0 < n   # never closed: the file says it is not whole
