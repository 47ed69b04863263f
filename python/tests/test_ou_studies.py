"""Studies on Ornstein-Uhlenbeck noise (docs/noise.md#ou-studies) and callable functionals in
MLMC (docs/noise.md#mlmc), from Python:
- slpi.converge with noise_tau=0 gives the white study's numbers exactly, with noise_tau=0.1
  others, and the CLI's;
- slpi.mlmc takes a callable phi: the same estimate, bit for bit, as the expression that
  computes the same doubles, on white and on OU noise; a callable with a checkpoint is
  refused, and a callable that raises stops the estimate with its exception;
- refused: --exact under noise_tau, a noise file (converge and mlmc)."""
import json
import os
import subprocess

import numpy as np
import pytest

import slpi

SLPI = os.environ.get("SLPI_BIN", os.path.join(os.path.dirname(__file__), "..", "..", "build", "slpi"))
W = dict(kind="weak", levels=(2, 4), ref=6, paths=64, boot=0, phi="x1*x2+x3^2")


def test_converge_ou(tmp_path):
    white = slpi.converge("iso/rigid-body/weak", **W)
    zero = slpi.converge("iso/rigid-body/weak", noise_tau=0, **W)
    ou = slpi.converge("iso/rigid-body/weak", noise_tau=0.1, **W)
    assert np.array_equal(white.e, zero.e) and np.array_equal(white.se, zero.se)
    assert not np.array_equal(white.e, ou.e)
    j = tmp_path / "c.json"
    subprocess.run([SLPI, "converge", "--preset", "iso/rigid-body/weak", "--kind", "weak", "--levels", "2..4",
                    "--ref", "6", "--paths", "64", "--boot", "0", "--phi", "x1*x2+x3^2", "noise_tau=0.1",
                    "--json", str(j)], check=True, capture_output=True)
    doc = json.loads(j.read_text())
    assert [x["self"]["e"] for x in doc["levels"]] == list(ou.e)


@pytest.mark.parametrize("tau", [None, 0.05])
def test_mlmc_callable(tau):
    keys = {} if tau is None else {"noise_tau": tau}
    e = slpi.mlmc("iso/rigid-body/weak", rmse=0.02, phi="x1*x2+x3*x3", levels=(2, 8), **keys)
    f = slpi.mlmc("iso/rigid-body/weak", rmse=0.02, phi=lambda x: x[0] * x[1] + x[2] * x[2], levels=(2, 8), **keys)
    assert e.estimate == f.estimate and list(e.paths) == list(f.paths)


def test_mlmc_callable_refusals(tmp_path):
    with pytest.raises(slpi.SlpiError, match="checkpoint"):
        slpi.mlmc("iso/rigid-body/weak", rmse=0.1, phi=lambda x: x[0], checkpoint=str(tmp_path / "ck"))

    def boom(x):
        raise ValueError("phi broke")
    with pytest.raises(ValueError, match="phi broke"):
        slpi.mlmc("iso/rigid-body/weak", rmse=0.1, phi=boom, levels=(2, 6))


def test_ou_refusals(tmp_path):
    with pytest.raises(slpi.SlpiError, match="white noise only"):
        slpi.converge("iso/so3/weak-exact", kind="weak", levels=(2, 3), ref=5, paths=4, phi="x1", exact=True,
                      noise_tau=0.1)
    f = tmp_path / "rb.noise"
    subprocess.run([SLPI, "noise", "--preset", "iso/rigid-body/weak", "-o", str(f)], check=True, capture_output=True)
    with pytest.raises(slpi.SlpiError, match="noise file"):
        slpi.converge("iso/rigid-body/weak", noise_file=str(f), **W)
    with pytest.raises(slpi.SlpiError, match="noise file"):
        slpi.mlmc("iso/rigid-body/weak", rmse=0.1, noise_file=str(f))


def test_paths_needed():
    """The count is the rule of docs/noise.md#path-counts, recomputed from the levels."""
    s = slpi.converge("iso/rigid-body/weak", kind="weak", levels=(2, 5), ref=7, paths=256, boot=0)
    R = s.report["paths"]
    need = sorted(np.inf if e <= 0 else np.ceil(R * (3 * se / e) ** 2) for e, se in zip(s.e, s.se))
    assert s.paths_needed == need[1] and s.report["slopes"]["self"]["paths_needed_all"] == need[-1]
    if np.isnan(s.slope):
        assert "about %d paths" % need[1] in s.why
    assert slpi.converge("iso/rigid-body/strong", levels=(2, 3), ref=5, paths=4, boot=0).paths_needed is None


def test_mlmc_test():
    """slpi.mlmc_test's levels are slpi.mlmc's: the same paths, the same coupling (its coarse
    path a plain run at refine 1), so the same means and variances to rounding (the sums'
    order differs); its check and kurtosis follow docs/noise.md#mlmc-test's formulas."""
    phi = lambda x: x[0] * x[1] + x[2] * x[2]   # noqa: E731
    N = 300
    t = slpi.mlmc_test("iso/rigid-body/weak", levels=(2, 5), paths=N, eps=(0.5,), phi=phi, pilot=N, noise_tau=0.05)
    e = t.sweep[0]
    k = min(len(e.level), len(t.level))
    assert list(e.paths[:k]) == [N] * k
    assert np.allclose(e.mean[:k], t.mean[:k], rtol=1e-9, atol=0) and np.allclose(e.var[:k], t.var[:k], rtol=1e-9)
    j = 2
    want = abs(t.mean[j] - t.mean_p[j] + t.mean_p[j - 1]) / (
        3 * (np.sqrt(t.var[j]) + np.sqrt(t.var_p[j - 1]) + np.sqrt(t.var_p[j])) / np.sqrt(N))
    assert t.check[0] == 0 and t.check[j] == pytest.approx(want, rel=1e-12)
    assert np.all(t.kurtosis[1:] >= 1) and t.flags == [] and t.alpha > 1.5 and t.beta > 3
    with pytest.raises(slpi.SlpiError, match="L >= l0 \\+ 2"):
        slpi.mlmc_test("iso/rigid-body/weak", levels=(2, 3))
