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
    assert slpi.verify(str(f)).verdict == "PASS"


def test_two_libraries():
    """Integrating needs libslpi alone (docs/architecture.md#libraries): a run in a fresh
    interpreter leaves libslpi-tools unopened, and libslpi does not export the tools'
    functions; verify opens libslpi-tools on its first use and reports its error (the
    file it could not read) from that library's own last-error slot."""
    import sys
    code = "\n".join([
        "import slpi, slpi._native as n",
        "slpi.run('iso/rigid-body/trajectories', steps=4)",
        "assert n._tools is None and 'libslpi-tools' not in open('/proc/self/maps').read(), 'tools opened by a run'",
        "for f in ('slpi_api_golden', 'slpi_api_verify_json', 'slpi_api_converge', 'slpi_verify_run'):",
        "    assert not hasattr(n.lib, f), f + ' exported by libslpi'",
        "try:",
        "    slpi.verify('/nonexistent/x.tsv')",
        "except slpi.SlpiError as e:",
        "    assert e.code == 2 and '/nonexistent/x.tsv' in str(e), str(e)",
        "else:",
        "    raise AssertionError('verify of a missing file passed')",
        "assert n._tools is not None and 'libslpi-tools' in open('/proc/self/maps').read()",
    ])
    subprocess.run([sys.executable, "-c", code], check=True)


def test_converge_equals_cli_and_paths():
    """slpi.converge: the same numbers as `slpi converge --json`, and its level error is the
    rms distance, over the coupled paths, of ensemble final states computed here."""
    study = slpi.converge("iso/rigid-body/strong", levels=(2, 4), ref=6, paths=16, boot=20)
    out = subprocess.run([SLPI, "converge", "--preset", "iso/rigid-body/strong", "--levels", "2..4", "--ref", "6",
                          "--paths", "16", "--boot", "20", "--json", "/dev/stdout", "-o", "/dev/null"],
                         check=True, capture_output=True, text=True).stdout
    import json
    doc = json.loads(out)
    assert [lv["h"] for lv in doc["levels"]] == list(study.h)
    assert [lv["self"]["e"] for lv in doc["levels"]] == list(study.e)
    assert [lv["self"]["se"] for lv in doc["levels"]] == list(study.se)
    assert doc["slopes"]["self"]["slope"] == study.slope
    assert (doc["slopes"]["self"]["ci_lo"], doc["slopes"]["self"]["ci_hi"]) == study.ci
    # second way: each level against level 6 from the ensemble call on the same coupled
    # paths (a level-k increment is the sum of 2^(6-k) level-6 ones: refine=6-k)
    fine = slpi.ensemble("iso/rigid-body/strong", paths=16, level=6)
    for i, k in enumerate(range(2, 5)):
        coarse = slpi.ensemble("iso/rigid-body/strong", paths=16, level=k, refine=6 - k)
        rms = np.sqrt(np.mean(np.sum((coarse - fine) ** 2, axis=1)))
        assert abs(rms - study.e[i]) <= 1e-12 * rms
    with pytest.raises(slpi.SlpiError):
        slpi.converge("iso/rigid-body/strong", kind="mean", levels=(2, 4), ref=6, paths=16)
    with pytest.raises(slpi.SlpiError, match="noise hierarchy"):
        slpi.converge("iso/rigid-body/strong", levels=(2, 4), ref=30, paths=16)


def test_keys_equal_cli():
    """slpi.keys: the names, systems and help texts `slpi list --keys` prints, and the
    values `slpi run` writes in its header for the same problem."""
    ks = slpi.keys("iso/zeitlin/long", N=12, steps=1)
    listing = subprocess.run([SLPI, "list", "--keys"], check=True, capture_output=True, text=True).stdout
    lines = listing.split("keys (", 1)[1].splitlines()[1:]
    w = max(15, max(len(k["name"]) for k in ks))  # the name column is as wide as the longest key
    cli = [(ln[2:2 + w].strip(), ln[3 + w:18 + w].strip(), ln[19 + w:].strip()) for ln in lines if ln.startswith("  ")]
    assert [(k["name"], k["system"], k["help"]) for k in ks] == cli
    head = subprocess.run([SLPI, "run", "--preset", "iso/zeitlin/long", "N=12", "steps=1", "-q", "-o", "-"],
                          check=True, capture_output=True, text=True).stdout
    header = dict(ln[2:].split("=", 1) for ln in head.splitlines() if ln.startswith("# ") and "=" in ln)
    mine = [k for k in ks if k["value"] is not None]
    assert len(mine) >= 20 and all(header[k["name"]] == k["value"] for k in mine)
    assert {k["system"] for k in mine} == {"", "euler-zeitlin"}
    assert next(k for k in ks if k["name"] == "N" and k["system"] == "euler-zeitlin")["value"] == "12"


def test_model_params_exact_decimal():
    """A float parameter reaches C as the exact decimal of its binary64 value (the problem
    text says so, digit for digit), so ref=True certifies the binary64 problem; a str is
    passed as written."""
    from decimal import Decimal
    values = {"a": 0.1, "b": 1 / 3, "c": 1e22 + 2 ** 20, "d": -2.5e-300, "e": np.float64(0.7), "f": 3,
              "g": np.float32(0.1), "s": "0.1"}
    m = slpi.Model("so3", "x1^2/2 + x2^2 + x3^2 + a + b + c + d + e + f + g + s", noise=["0.1*x1"],
                   params=values, x0=[1, 0.5, 0.2])
    text = dict(line.split("=", 1) for line in m.text().splitlines() if line.startswith("param."))
    for k, v in values.items():
        got = text["param." + k]
        if isinstance(v, str):
            assert got == v
        else:
            assert Decimal(got) == Decimal(float(v)), (k, got)
            assert float(got) == float(v)
    assert text["param.a"] == "0.1000000000000000055511151231257827021181583404541015625"


def test_model_time_dependent():
    """t in H (docs/models.md#time): on so3, H = (1 + sin(3t)/2) x3 turns the body about
    e3, and ISOMP's step is the Cayley rotation of z = x1 + i x2 by
    b = (1 + sin(3 t_c)/2) h at the midpoint time t_c = t0 + (n + 1/2) h, on both paths;
    an ensemble's every path starts at t0 (no noise: the paths are one path)."""
    h, t0, n = 0.05, 0.1, 20
    m = slpi.Model("so3", "(1 + sin(3*t)/2)*x3", x0=[0.6, -0.3, 0.7], t0=t0, scheme="isomp", h=h)
    z = complex(0.6, -0.3)
    for k in range(n):
        b = (1 + np.sin(3 * (t0 + (k + 0.5) * h)) / 2) * h
        z *= (1 - 0.5j * b) / (1 + 0.5j * b)
    for ref in (False, True):
        x = slpi.run(m, steps=n, ref=ref).states[-1]
        assert abs(complex(x[0], x[1]) - z) < 1e-13 and x[2] == 0.7, (ref, x, z)
    e = slpi.ensemble(m, paths=3, steps=n)
    assert np.all(np.abs(e[:, 0] + 1j * e[:, 1] - z) < 1e-13), e


def test_model_docstring_spellings_run():
    """Every algebra spelling the Model docstring suggests runs (``so4`` and
    ``su3`` were suggested and refused)."""
    import re
    doc = slpi.Model.__doc__
    para = doc[doc.index("algebra : str"):doc.index("H : str")]
    spellings = re.findall(r"``([a-z0-9()^]+)``", para.split("which fixes")[0])
    assert len(spellings) >= 5, spellings
    for alg in spellings:
        dim = {"so3": 3, "se3": 6}.get(alg)
        if dim is None:
            m = re.fullmatch(r"so\((\d+)\)", alg)
            if m:
                dim = int(m.group(1)) * (int(m.group(1)) - 1) // 2
            m = re.fullmatch(r"su\((\d+)\)", alg)
            if m:
                dim = int(m.group(1)) ** 2
            m = re.fullmatch(r"so3\^(\d+)", alg)
            if m:
                dim = 3 * int(m.group(1))
        assert dim, alg
        x0 = [0.0] * dim
        x0[-1] = 1.0            # traceless on su(n) (the last coordinate is off the diagonal); |gamma| = 1 on se3
        r = slpi.run(slpi.Model(alg, "0", x0=x0, scheme="tmk", steps=1))
        assert r.states.shape == (2, dim), alg


def test_certified_rigid_body_finishes():
    """The rigid-body preset's certified run of 6000 steps, with nothing set: the default
    propagation=auto takes the mean-value form (ISOMP comm), which keeps every ball at
    128 bits below 1e-30, so the radii Python returns are the rounding of the midpoints to
    doubles, at most half an ulp of |x| <= 1 (2^-53) plus the ball's radius: 2^-52 bounds
    them. The plain balls (propagation="ball") give up at step 5360, naming the key."""
    r = slpi.run("iso/rigid-body/trajectories", steps=6000, ref=True)
    assert r.states.shape == (6001, 3)
    assert np.all(np.isfinite(r.radii)) and r.radii.max() <= 2.0 ** -52
    with pytest.raises(slpi.SlpiError, match=r"step 5360: .*UNABLE.*set propagation=lohner") as e:
        slpi.run("iso/rigid-body/trajectories", steps=5400, ref=True, propagation="ball")
    assert e.value.code == 3


def test_save_at_equals_cli_and_full_run():
    """save_at: the rows of the command line's key save_at (bit for bit, both paths), the
    full run's rows at those steps; a time off the grid is refused naming the grid times
    nearest it, as are decreasing times and times past T, naming the argument."""
    ts = [0, 0.0390625, 0.25, 0.5]
    for ref in (False, True):
        r = slpi.run("iso/rigid-body/trajectories", steps=128, save_at=ts, ref=ref)
        assert list(r.step) == [0, 10, 64, 128] and np.array_equal(r.t, r.step * 0.00390625)
        full = slpi.run("iso/rigid-body/trajectories", steps=128, ref=ref)
        assert np.array_equal(r.states, full.states[r.step])
        assert ref == (r.radii is not None) and (not ref or np.array_equal(r.radii, full.radii[r.step]))
        if not ref:
            header, data = cli_trajectory("--preset", "iso/rigid-body/trajectories", "steps=128",
                                          "save_at=" + ",".join(map(str, ts)))
            assert [int(row[0]) for row in data] == [0, 10, 64, 128]
            assert np.array_equal(np.array([[float.fromhex(x) for x in row[2:5]] for row in data]), r.states)
    for bad, want in (([0.1], r"t = 0.1 is not on the step grid of h = 0.00390625: the nearest grid times are "
                               r"0.09765625 and 0.1015625"),
                      ([0.25, 0.125], "the times must increase: 0.125 after 0.25"),
                      ([1.0], "t = 1.0 is outside the run")):
        with pytest.raises(slpi.SlpiError, match=want) as e:
            slpi.run("iso/rigid-body/trajectories", steps=128, save_at=bad)
        assert e.value.code == 2 and e.value.argument == "save_at"


def test_observer_sees_every_step_and_stops_cleanly():
    """observer(t, x): called after every step with t = n h and the step's state (the
    certified path: its midpoints), a copy the caller may keep; a truthy return stops the
    run after that step with the rows of the uninterrupted run up to it and
    summary["stopped_at"]; an exception it raises is raised; a non-callable is refused."""
    for ref in (False, True):
        full = slpi.run("iso/rigid-body/trajectories", steps=40, ref=ref)
        seen = []
        r = slpi.run("iso/rigid-body/trajectories", steps=40, ref=ref,
                     observer=lambda t, x: seen.append((t, x)) or len(seen) == 17)
        assert [t for t, _ in seen] == list(full.t[1:18])
        assert np.array_equal(np.array([x for _, x in seen]), full.states[1:18])
        assert r.summary["stopped_at"] == 17 and np.array_equal(r.states, full.states[:18])
        assert full.summary["stopped_at"] is None
    r = slpi.run("iso/rigid-body/trajectories", steps=40, output_every=8, observer=lambda t, x: t >= 20 * 0.00390625)
    assert list(r.step) == [0, 8, 16] and r.summary["stopped_at"] == 20

    def boom(t, x):
        if t > 0.05:
            raise ZeroDivisionError("observer failed")
    with pytest.raises(ZeroDivisionError, match="observer failed"):
        slpi.run("iso/rigid-body/trajectories", steps=40, observer=boom)
    with pytest.raises(slpi.SlpiError, match="observer: int is not callable") as e:
        slpi.run("iso/rigid-body/trajectories", steps=4, observer=3)
    assert e.value.argument == "observer"
