"""slpi.mlmc (python/slpi/_mlmc.py; docs/noise.md#mlmc): the same estimate as `slpi mlmc
--json`, plain Monte Carlo, and the warning (or error) when the bias is not met."""
import json
import os
import subprocess
import warnings

import numpy as np
import pytest

import slpi

SLPI = os.environ.get("SLPI_BIN", os.path.join(os.path.dirname(__file__), "..", "..", "build", "slpi"))


def test_mlmc_matches_cli(tmp_path):
    j = tmp_path / "m.json"
    subprocess.run([SLPI, "mlmc", "--preset", "iso/so3/weak-exact", "--phi", "x1", "--levels", "1..12", "--rmse",
                    "0.02", "--threads", "1", "--json", str(j)], check=True, capture_output=True)
    doc = json.loads(j.read_text())
    e = slpi.mlmc("iso/so3/weak-exact", rmse=0.02, phi="x1", levels=(1, 12), threads=2)
    assert e.estimate == doc["estimate"] and e.converged
    assert list(e.paths) == [x["paths"] for x in doc["levels"]]
    assert e.total_cost == doc["cost"] and e.mc_cost == doc["mc_cost"]
    assert np.sum(e.var / e.paths) <= 0.02 ** 2 / 2 * (1 + 1e-12)


def test_mlmc_plain_and_bias_not_met():
    p = slpi.mlmc("iso/so3/weak-exact", rmse=0.05, phi="x1", levels=(3, 3), plain=True)
    assert len(p.level) == 1 and p.converged and np.isnan(p.bias)
    with pytest.warns(RuntimeWarning, match="bias estimate"):
        slpi.mlmc("iso/so3/weak-exact", rmse=0.02, phi="x1", levels=(1, 2))
    with pytest.raises(slpi.SlpiError) as ei:
        slpi.mlmc("iso/so3/weak-exact", rmse=0.02, phi="x1", levels=(1, 2), on_failure="raise")
    assert ei.value.code == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        slpi.mlmc("iso/so3/weak-exact", rmse=0.02, phi="x1", levels=(1, 2), on_failure="ignore")
    with pytest.raises(slpi.SlpiError, match="rmse"):
        slpi.mlmc("iso/so3/weak-exact", phi="x1")
