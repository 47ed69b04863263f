"""The Python binding against the command line: the same quantities computed two ways."""
import os
import subprocess

import numpy as np
import pytest

import slpi

SLPI = os.environ.get("SLPI_BIN", os.path.join(os.path.dirname(__file__), "..", "..", "build", "slpi"))


def cli_trajectory(*args):
    out = subprocess.run([SLPI, "run", "-q", "--hex", *args], check=True, capture_output=True, text=True).stdout
    rows = [line.split("\t") for line in out.splitlines() if line and not line.startswith("#")]
    header, data = rows[0], rows[1:]
    return header, data


@pytest.mark.parametrize("preset,extra", [
    ("iso/rigid-body/trajectories", {"steps": 200}),
    ("rkmk/heavy-top/stoch-421-realization", {"steps": 50}),
    ("svi/rigid-body/paths", {"steps": 40, "seed": 3}),
])
def test_run_equals_cli(preset, extra):
    r = slpi.run(preset, **extra)
    header, data = cli_trajectory("--preset", preset, *(f"{k}={v}" for k, v in extra.items()))
    dim = r.states.shape[1]
    assert header[2:2 + dim] == r.labels
    cli = np.array([[float.fromhex(x) for x in row[2:2 + dim]] for row in data])
    assert cli.shape == r.states.shape
    assert np.array_equal(cli, r.states)          # bit for bit: one fast path
    assert r.summary["steps"] == extra["steps"]
    assert np.allclose(r.t, np.array([float(row[1]) for row in data]))


def test_output_every_decimates():
    full = slpi.run("iso/rigid-body/trajectories", steps=30)
    dec = slpi.run("iso/rigid-body/trajectories", steps=30, output_every=7)
    assert dec.states.shape[0] == 1 + 30 // 7 + 1
    assert np.array_equal(dec.states[1:-1], full.states[7:30:7])
    assert np.array_equal(dec.states[-1], full.states[-1])


def test_noise_equals_cli():
    out = subprocess.run([SLPI, "noise", "--seed", "11", "--path", "2", "--components", "3", "--h", "0.01",
                          "--steps", "6"], check=True, capture_output=True, text=True).stdout
    rows = [line.split("\t") for line in out.splitlines() if line and not line.startswith("#")]
    cli = np.array([[float.fromhex(x) for x in row[:3]] for row in rows])
    for k in range(3):
        assert np.array_equal(slpi.noise(11, 2, k, 0.01, 6), cli[:, k])


def test_ensemble_equals_single_paths():
    fin = slpi.ensemble("iso/rigid-body/trajectories", paths=4, first_path=5, steps=25)
    for r in range(4):
        assert np.array_equal(fin[r], slpi.run("iso/rigid-body/trajectories", steps=25, path=5 + r).states[-1])
    assert not np.array_equal(fin[0], fin[1])


def test_invariant_and_errors():
    r = slpi.run("iso/rigid-body/trajectories", steps=500)
    assert np.max(np.abs(np.linalg.norm(r.states, axis=1) - 1)) < 1e-12   # |x| is a Casimir
    with pytest.raises(slpi.SlpiError) as e:
        slpi.run("iso/rigid-body/trajectories", tol="abc")
    assert e.value.code == 2 and "tol" in str(e.value)
    with pytest.raises(slpi.SlpiError):
        slpi.run("no/such/preset")
    assert "iso/zeitlin/long" in slpi.presets()


def test_verify_a_cli_trajectory(tmp_path):
    f = tmp_path / "rb.tsv"
    subprocess.run([SLPI, "run", "-q", "--preset", "iso/rigid-body/trajectories", "--steps", "8", "-o", str(f)],
                   check=True)
    assert slpi.verify(str(f)) == "PASS"
