"""Provenance that never lies (slpi/_overrides.py): a key that another
input of the call overrides is refused or recorded as overridden, in every writer.

- ``dW`` with ``noise_tau`` (or ``noise_file``) is refused by ``run`` and ``ensemble``, as
  ``slpi run`` refuses noise_tau with noise_file: the run would be white while the file
  said OU. noise_tau of zeros (white) is taken.
- ``dW`` records the noise's seed, path and refine as overridden; ``x0`` the problem's
  ``x0`` and the keys that make an initial state (which change nothing then: checked); Euler-Zeitlin's ``amp`` with ``noise=modes`` (it scales noise Q and L only), in
  ``Result.overridden`` / ``Ensemble.overridden`` and in the attribute ``overridden`` of
  ``slpi.save``'s and ``run(stream=)``'s files. A run where every key acts has none."""
import numpy as np
import pytest

import slpi

RB = "iso/rigid-body/trajectories"
DW = np.full((4, 3), 0.01)
EZ = dict(system="euler-zeitlin", N=3, steps=2, noise="modes", noise_modes="1:0:0.02", amp=2)


def test_dW_with_coloured_noise_is_refused(tmp_path):
    for call in (lambda **k: slpi.run(RB, dW=DW, **k),
                 lambda **k: slpi.run(slpi.Problem(RB, **k), dW=DW),
                 lambda **k: slpi.ensemble(RB, paths=2, dW=np.stack([DW, DW]), **k),
                 lambda **k: slpi.ensemble(RB, paths=2, steps=4, dW=lambda first, n: np.stack([DW] * n), **k)):
        for tau in (0.5, "0,0.05,0"):
            with pytest.raises(slpi.SlpiError, match="dW gives the increments") as e:
                call(noise_tau=tau)
            assert e.value.argument == "noise_tau" and e.value.code == 2
    white = slpi.run(RB, dW=DW, noise_tau="0,0,0")   # zeros: white noise, as dW is
    assert white.states.tobytes() == slpi.run(RB, dW=DW).states.tobytes()
    f = tmp_path / "n.noise"
    slpi.write_noise(str(f), DW, 2.0 ** -8, seed=1)
    with pytest.raises(slpi.SlpiError, match="the noise file would be ignored") as e:
        slpi.run(RB, dW=DW, h=2.0 ** -8, noise_file=str(f))
    assert e.value.argument == "noise_file"


def test_overridden_keys_are_recorded(tmp_path):
    xr = pytest.importorskip("xarray")
    pytest.importorskip("netCDF4")
    r = slpi.run(RB, dW=DW)
    assert r.overridden == {k: "dW gave the increments" for k in ("seed", "path", "refine")}
    r = slpi.run(slpi.Problem(RB, x0="1,0,0"), steps=4, x0=[0.0, 0.6, 0.8])
    assert r.overridden == {"x0": "x0 gave the initial state"} and r.problem["x0"]
    for base, ic in ((dict(system="sine-euler"), dict(ic="random", ic_seed=7)),
                     (dict(system="heavy-top", scheme="svi"), dict(theta0=0.3, pi0="1,2,3")),
                     (dict(system="euler-zeitlin", N=3), dict(scale=5, ic_lmax=1))):
        x0 = slpi.run(None, steps=2, **base).states[0]
        a, b = slpi.run(None, steps=2, x0=x0, **base), slpi.run(None, steps=2, x0=x0, **base, **ic)
        assert a.states.tobytes() == b.states.tobytes()   # the keys do not act: x0 overrides them
        assert slpi.run(None, steps=2, **base, **ic).states.tobytes() != a.states.tobytes()   # without x0 they do
        assert set(b.overridden) >= set(ic), (base, b.overridden)
    e = slpi.ensemble(RB, paths=2, dW=np.stack([DW, DW]), save_every=2)
    assert set(e.overridden) == {"seed", "path", "refine"}
    z = slpi.run(None, **EZ)
    assert z.overridden == {"amp": "noise=modes: amp scales the built-in noise Q and L only"}
    assert slpi.run(None, **dict({k: v for k, v in EZ.items() if k != "noise_modes"}, noise="Q")).overridden == {}
    assert slpi.run(RB, steps=4).overridden == {}
    for obj, want in ((r, "x0: x0 gave the initial state"),
                      (e, "seed, path, refine: dW gave the increments"),
                      (z, "amp: noise=modes: amp scales the built-in noise Q and L only")):
        f = str(tmp_path / "o.nc")
        slpi.save(obj, f)
        with xr.open_dataset(f) as ds:
            assert ds.attrs["overridden"] == want
    slpi.save(slpi.run(RB, steps=4), str(tmp_path / "p.nc"))
    with xr.open_dataset(str(tmp_path / "p.nc")) as ds:
        assert "overridden" not in ds.attrs
    s = str(tmp_path / "s.nc")
    slpi.run(RB, dW=DW, stream=s)
    with xr.open_dataset(s) as ds:
        assert ds.attrs["overridden"] == "seed, path, refine: dW gave the increments"
