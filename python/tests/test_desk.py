"""The researcher's desk (python/README.md): converge with the command's options,
per-path reductions and quantiles of ensembles, storage through xarray and the plots."""
import json
import os
import subprocess

import numpy as np
import pytest

import slpi

SLPI = os.environ.get("SLPI_BIN", os.path.join(os.path.dirname(__file__), "..", "..", "build", "slpi"))
RB = "iso/rigid-body/trajectories"


def test_converge_covers_the_command(tmp_path, capfd):
    """threads, batches, phi, exact and progress: the JSON of `slpi converge` with the same
    options, number for number, and the same bits on 1 and 2 threads."""
    opts = dict(kind="weak", levels=(2, 4), ref=6, paths=64, boot=20, phi="x1", exact=True, batches=8)
    one = slpi.converge("iso/so3/weak-exact", threads=1, **opts)
    two = slpi.converge("iso/so3/weak-exact", threads=2, progress=True, **opts)
    assert "converge, paths" in capfd.readouterr().err
    assert np.array_equal(one.e, two.e) and np.array_equal(one.se, two.se) and np.array_equal(one.ci, two.ci, equal_nan=True)
    j = tmp_path / "c.json"
    subprocess.run([SLPI, "converge", "--preset", "iso/so3/weak-exact", "--kind", "weak", "--levels", "2..4",
                    "--ref", "6", "--paths", "64", "--boot", "20", "--phi", "x1", "--exact", "--batches", "8",
                    "--threads", "2", "--json", str(j), "-o", os.devnull], check=True, capture_output=True)
    cli = json.loads(j.read_text())
    for k in ("levels", "slopes", "study", "failed_paths"):
        assert cli[k] == one.report[k], k
    assert one.e.tolist() == [lv["indep"]["e"] for lv in cli["levels"]]
    assert all("quadrature" in lv for lv in cli["levels"])
    plain = slpi.converge("iso/so3/weak-exact", kind="weak", levels=(2, 4), ref=6, paths=64, boot=20)
    assert not np.array_equal(plain.e, one.e)   # phi and exact reach the study
    with pytest.raises(slpi.SlpiError, match="phi 'x2'"):
        slpi.converge("iso/rigid-body/weak", kind="weak", levels=(2, 3), ref=5, paths=4, phi="x2")
    with pytest.raises(slpi.SlpiError, match="threads"):
        slpi.converge("iso/rigid-body/weak", threads=0)
