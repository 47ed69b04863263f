"""Ornstein-Uhlenbeck noise (docs/noise.md#ou) against an independent implementation:
the increments recomputed from the contract alone, in NumPy, with the coefficients from
mpmath at 200 bits and the white increments and normals from ``slpi.noise``, equal
``slpi.increments``' bit for bit; the OU runs from Python on both paths."""
import numpy as np
import pytest

import slpi

mpmath = pytest.importorskip("mpmath")


def coefficients(tau, delta):
    """The contract's a, c, s, g, q, r, s0, each rounded to nearest binary64 (mpmath at 200
    bits, then one rounding: the exact value is no binary64 midpoint)."""
    mp = mpmath.mp.clone()
    mp.prec = 200
    t, d = mp.mpf(tau), mp.mpf(delta)
    x = d / t
    e = mp.exp(-x)
    om = 1 - e
    s = mp.sqrt((1 - e * e) / (2 * t) - om * om / d)
    a = 0.0 if delta / tau > 708 else float(e)
    return a, float(om / d), float(s), float(1 - om / x), float(t * om), float(t * s), float(mp.sqrt(1 / (2 * t)))


def ou_increments(seed, path, k, tau, h, refine, steps):
    """Steps 0..steps-1 of component k at (h, refine), from the contract."""
    delta = h / 2**refine
    n = steps * 2**refine
    w = slpi.noise(seed, path, k, delta, n)            # the fine white increments sqrt(delta) Z_j
    zz = slpi.noise(seed, path, 2**31 + k, 1.0, n + 1)  # the OU stream's normals (sqrt(1) Z = Z)
    a, c, s, g, q, r, s0 = coefficients(tau, delta)
    eta = s0 * zz[0]
    y = np.empty(n)
    for j in range(n):   # Python floats: binary64, round to nearest, no contraction
        y[j] = (g * w[j] + q * eta) - r * zz[j + 1]
        eta = (a * eta + c * w[j]) + s * zz[j + 1]
    y = y.reshape(steps, 2**refine)
    while y.shape[1] > 1:   # the dyadic tree: each node is left + right
        y = y[:, 0::2] + y[:, 1::2]
    return y[:, 0]


@pytest.mark.parametrize("h, refine, taus", [
    (2.0**-7, 0, (0.05, 0.0, 0.3)),
    (2.0**-5, 3, (0.01, 1.0, 2.0**-9)),
    (0.01, 2, (1e-9, 0.02, 0.0)),   # 1e-9: delta/tau > 708, a = 0
])
def test_increments_match_independent_implementation(h, refine, taus):
    seed, path, steps = 11, 3, 40
    tau = ",".join(repr(t) for t in taus)
    got = slpi.increments("iso/rigid-body/weak", h=h, steps=steps, refine=refine, seed=seed, path=path,
                          truncate="off", noise_tau=tau)
    for k, t in enumerate(taus):
        want = ou_increments(seed, path, k, t, h, refine, steps) if t > 0 else slpi.noise(seed, path, k, h, steps,
                                                                                             refine=refine)
        assert np.array_equal(got[:, k], want), (k, t, np.max(np.abs(got[:, k] - want)))


def test_slpi_noise_writes_the_ou_increments():
    """`slpi noise --preset P noise_tau=...` writes what slpi.increments returns (and a run
    consumes), bit for bit: it wrote the white increments, ignoring noise_tau."""
    import os
    import subprocess
    keys = ["h=0.03125", "steps=40", "refine=3", "seed=11", "path=3", "noise_tau=0.01,0,0.3"]
    exe = os.environ.get("SLPI_BIN", os.path.join(os.path.dirname(__file__), "..", "..", "build", "slpi"))
    out = subprocess.run([exe, "noise", "--preset", "iso/rigid-body/weak", "--format", "bits"] + keys,
                         capture_output=True, text=True, check=True).stdout
    got = np.array([[int(b, 16) for b in line.split("\t")] for line in out.splitlines()], dtype=np.uint64)
    want = slpi.increments("iso/rigid-body/weak", **dict(k.split("=") for k in keys))
    assert np.array_equal(got, want.view(np.uint64))


def test_white_limit_and_both_paths():
    p = slpi.Problem("iso/rigid-body/weak", steps=64, truncate="off")
    white = slpi.run(p)
    dist = [np.abs(slpi.run(p, noise_tau=t).states[-1] - white.states[-1]).max() for t in (1e-2, 1e-4, 1e-6)]
    assert dist[0] > dist[1] > dist[2] > 0
    assert np.array_equal(slpi.run(p, noise_tau=0).states, white.states)
    fast, ref = slpi.run(p, noise_tau=0.05), slpi.run(p, noise_tau=0.05, ref=True)
    # the certified balls of the same increments hold the double path's states to rounding
    assert np.all(np.abs(fast.states - ref.states) <= ref.radii + 1e-13)


def test_bad_tau_named():
    with pytest.raises(slpi.SlpiError) as e:
        slpi.increments("iso/rigid-body/weak", steps=4, noise_tau="0.1,0.2")
    assert "noise_tau" in str(e.value)


def test_ensemble_paths_are_runs():
    """An ensemble's path r is the run of noise path first_path + r, OU noise included (the
    ensemble runs coloured noise path by path, never on the white lanes)."""
    p = slpi.Problem("iso/rigid-body/weak", steps=32, noise_tau="0.05,0,0.3")
    e = slpi.ensemble(p, paths=3, first_path=5, threads=2, save_every=32)
    assert e.route.startswith("general")
    for r in range(3):
        assert np.array_equal(e.states[r, -1], slpi.run(p, path=5 + r).states[-1])
