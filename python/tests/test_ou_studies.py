"""Studies on Ornstein-Uhlenbeck noise (docs/noise.md#ou-studies) and callable functionals in
MLMC (docs/noise.md#mlmc), from Python:
- slpi.converge with noise_tau=0 gives the white study's numbers exactly, with noise_tau=0.1
  others, and the CLI's;
- slpi.mlmc takes a callable phi: the same estimate, bit for bit, as the expression that
  computes the same doubles, on white and on OU noise; a callable with a checkpoint is
  refused, and a callable that raises stops the estimate with its exception;
- refused: --exact under noise_tau, a noise file (converge and mlmc);
- slpi.mlmc_test is `slpi mlmc --test` digit for digit, numpy's moments of the same paths
  to rounding, checkpoints and resumes, and warns on failed paths."""
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


def test_mlmc_test(tmp_path):
    """slpi.mlmc_test is `slpi mlmc --test` (one C code path, its JSON read back): the same
    numbers digit for digit, a callable phi the expression that computes the same doubles,
    on OU noise. Its levels are slpi.mlmc's paths and coupling, so plain runs at (h_l,
    refine 0) and (h_l-1, refine 1) of the same paths give numpy's moments of each level to
    rounding (the summation differs: Pebay's update against numpy's pairwise sums); its
    check, rates and sweep follow docs/noise.md#mlmc-test's formulas."""
    phi = lambda x: x[0] * x[1] + x[2] * x[2]   # noqa: E731
    N, eps = 300, (0.01, 1e-7)
    t = slpi.mlmc_test("iso/rigid-body/weak", levels=(2, 5), paths=N, eps=eps, phi=phi, noise_tau=0.05)
    j = tmp_path / "t.json"
    subprocess.run([SLPI, "mlmc", "--test", "--preset", "iso/rigid-body/weak", "--levels", "2..5", "--paths", str(N),
                    "--eps", "0.01,1e-7", "--phi", "x1*x2+x3^2", "noise_tau=0.05", "--json", str(j), "-o",
                    str(tmp_path / "t.txt")], check=True)
    cli = slpi.MlmcTest.read(str(j))
    for k in ("mean", "var", "kurtosis", "mean_p", "var_p", "check", "cost", "mlmc_cost", "mc_cost", "sweep_level"):
        assert np.array_equal(getattr(t, k), getattr(cli, k), equal_nan=True), k
    assert (t.alpha, t.beta, t.gamma, t.flags) == (cli.alpha, cli.beta, cli.gamma, cli.flags)
    for i, lev in enumerate(t.level):   # numpy's moments of the same paths, run one by one
        run = lambda lv, r: np.asarray(slpi.ensemble("iso/rigid-body/weak", paths=N, first_path=i * 2**27,  # noqa
                                                     level=int(lv), refine=r, noise_tau=0.05))
        pf = np.array([phi(x) for x in run(lev, 0)])
        y = pf - np.array([phi(x) for x in run(lev - 1, 1)]) if i else pf
        assert t.mean[i] == pytest.approx(y.mean(), rel=1e-9) and t.var[i] == pytest.approx(y.var(ddof=1), rel=1e-9)
        assert t.mean_p[i] == pytest.approx(pf.mean(), rel=1e-9)
        assert t.var_p[i] == pytest.approx(pf.var(ddof=1), rel=1e-9)
        c = y - y.mean()
        assert (np.isnan(t.kurtosis[i]) if i == 0 else
                t.kurtosis[i] == pytest.approx(np.mean(c ** 4) / np.mean(c ** 2) ** 2, rel=1e-9))
    k = 2
    want = abs(t.mean[k] - t.mean_p[k] + t.mean_p[k - 1]) / (
        3 * (np.sqrt(t.var[k] / N) + np.sqrt(t.var_p[k] / N) + np.sqrt(t.var_p[k - 1] / N)))
    assert np.isnan(t.check[0]) and t.check[k] == pytest.approx(want, rel=1e-12)
    up = t.level > t.level[0]
    assert t.alpha == pytest.approx(-np.polyfit(t.level[up], np.log2(np.abs(t.mean[up])), 1)[0], rel=1e-9)
    assert t.beta == pytest.approx(-np.polyfit(t.level[up], np.log2(t.var[up]), 1)[0], rel=1e-9)
    assert t.gamma == pytest.approx(1, rel=1e-12) and t.flags == [] and t.alpha > 1.5 and t.beta > 3
    # eps = 0.01 needs the three first levels (L = l0 + 2), measured: the cost from them
    L = t.sweep_level[0] - t.level[0]
    assert L == 2
    s = np.sum(np.sqrt(t.var[:L + 1] * t.cost[:L + 1]))
    n = np.maximum(1, np.ceil(2 / eps[0] ** 2 * np.sqrt(t.var[:L + 1] / t.cost[:L + 1]) * s))
    assert t.mlmc_cost[0] == np.sum(n * t.cost[:L + 1])
    assert t.mc_cost[0] == np.ceil(2 * t.var_p[L] / eps[0] ** 2) * 2.0 ** t.sweep_level[0]
    assert t.sweep_level[1] > t.level[-1] and t.mlmc_cost[1] < t.mc_cost[1]   # extrapolated beyond L
    with pytest.raises(slpi.SlpiError, match="l0 \\+ 2 <= L"):
        slpi.mlmc_test("iso/rigid-body/weak", levels=(2, 3))
    with pytest.raises(slpi.SlpiError, match="callable"):
        slpi.mlmc_test("iso/rigid-body/weak", levels=(2, 4), phi=phi, checkpoint=str(tmp_path / "c.ck"))
    ck = str(tmp_path / "x1.ck")   # an expression checkpoints, and its resume is the same test
    a = slpi.mlmc_test("iso/rigid-body/weak", levels=(2, 4), paths=50, phi="x1", checkpoint=ck, noise_tau=0.05)
    b = slpi.mlmc_test("iso/rigid-body/weak", levels=(2, 4), paths=50, phi="x1", resume=ck, noise_tau=0.05)
    assert np.array_equal(a.kurtosis, b.kurtosis, equal_nan=True) and b.doc["resumed_paths"] == 150
    with pytest.warns(RuntimeWarning, match="failed paths were left out"):
        f = slpi.mlmc_test("iso/rigid-body/weak", levels=(1, 3), paths=100, maxit=14, amp=1)
    assert np.all(f.failed > 0) and np.all(f.paths + f.failed == 100)
    fig = slpi.plot.mlmc_test(str(j)) if _has_matplotlib() else None
    assert fig is None or len(fig.axes) == 5


def _has_matplotlib():
    try:
        import matplotlib
        matplotlib.use("Agg")
        return True
    except ImportError:
        return False
