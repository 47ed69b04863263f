"""slpi.verify with the command's options and both verdicts, and slpi.write_noise (issue
55): the same JSON as `slpi verify --json` for the same options, pooled paths, the
precisions, bad input named, and a noise file byte for byte `slpi noise`'s."""
import json
import os
import subprocess

import numpy as np
import pytest

import slpi

SLPI = os.environ.get("SLPI_BIN", "slpi")
RB = "iso/rigid-body/trajectories"


def cli_json(tmp_path, *args):
    j = tmp_path / "cli.json"
    r = subprocess.run([SLPI, "verify", "-q", "--json", str(j), *map(str, args)], capture_output=True, text=True)
    return r.returncode, json.loads(j.read_text()) if j.exists() else None


def run_to(tmp_path, name, **keys):
    f = tmp_path / name
    subprocess.run([SLPI, "run", "--preset", RB, "-q", "--hex", "-o", str(f)] + ["%s=%s" % kv for kv in keys.items()],
                   check=True)
    return f


def test_options_as_the_command(tmp_path):
    """Every option reaches the command's parser: the JSON of slpi.verify is the
    command's for the same options (but the input order of files is the same)."""
    f = run_to(tmp_path, "a.tsv", steps=300)
    g = run_to(tmp_path, "b.tsv", steps=300, path=1)
    v = slpi.verify([f, g], precision="binary32", global_=False, threads=1, sample=200, sample_seed=7,
                    rows=(1, None), alpha=1e-4, budget=20, stat_reference="certified")
    rc, doc = cli_json(tmp_path, "--precision", "binary32", "--local", "--threads", "1", "--sample", "200",
                       "--sample-seed", "7", "--rows", "1..", "--alpha", "1e-4", "--budget", "20",
                       "--stat-reference", "certified", f, g)
    assert rc == {"PASS": 0, "FAIL": 1, "UNABLE": 3}[v.verdict]
    timed = ("cpu_seconds", "steps_per_cpu_second")   # the process's CPU time: a run's own
    for key in ("verdict", "proof", "statistics", "local", "budget", "files"):
        a, b = v.report[key], doc[key]
        if key == "statistics":
            assert all(a[t] > 0 and b[t] > 0 for t in timed)
            a, b = ({k: x for k, x in d.items() if k not in timed} for d in (a, b))
        assert a == b, key
    assert v.statistics["paths"] == 2 and v.statistics["alpha"] == 1e-4
    assert v.report["budget"]["precision"] == "binary32" and v.report["budget"]["bits"] == 24
    assert v.report["local"]["rows"] == 400   # 200 of each file's 300 rows from step 1
    assert v.statistics["reference"] == "certified"   # auto's at binary32 would be double
    assert slpi.verify(f, precision="binary32", global_=False).statistics["reference"] == "double"


def test_text_and_table_as_the_command(tmp_path):
    """Verification.text is what `slpi verify` prints, with table=True its --table rows
    too (the command's -o, --table and --quiet are the result's text, JSON and verdict)."""
    f = run_to(tmp_path, "t.tsv", steps=6)
    for extra, kw in (([], {}), (["--table", "--global"], dict(table=True, local=False))):
        cli = subprocess.run([SLPI, "verify", *extra, str(f)], capture_output=True, text=True).stdout
        v = slpi.verify(f, **kw)
        assert v.text == cli and "verdict:" in v.text
        assert ("    step            t   state lo" in v.text) == bool(extra)


@pytest.mark.parametrize("name,u,bits", [("binary64", 2**-53, 53), ("binary32", 2**-24, 24), ("tf32", 2**-11, 24),
                                         ("bfloat16", 2**-8, 8), ("binary16", 2**-11, 11), ("u=0x1p-20", 2**-20, 20)])
def test_precisions(tmp_path, name, u, bits):
    f = run_to(tmp_path, "p.tsv", steps=8)
    v = slpi.verify(f, precision=name)
    assert v.report["budget"]["unit_roundoff"] == u and v.report["budget"]["bits"] == bits
    assert slpi.verify(f, unit_roundoff=u).report["budget"]["unit_roundoff"] == u


def test_both_verdicts_and_power(tmp_path):
    """A short file: the proof PASSes, the statistics say LOW-POWER with the effect they
    could detect; require_power makes that the verdict."""
    f = run_to(tmp_path, "s.tsv", steps=12)
    v = slpi.verify(f)
    assert (v.verdict, v.proof, v.statistics["verdict"]) == ("PASS", "PASS", "LOW-POWER")
    assert slpi.verify(f, require_power=True).verdict == "UNABLE"
    g = slpi.verify(f, local=False)
    assert g.statistics["verdict"] == "not run" and g.proof == "PASS"


@pytest.mark.parametrize("call,words", [
    (lambda f: slpi.verify(f, precision="binary128"), "unknown precision 'binary128'"),
    (lambda f: slpi.verify(f, precision=32), "precision"),
    (lambda f: slpi.verify(f, alpha=2.0), "--alpha"),
    (lambda f: slpi.verify(f, local=False, global_=False), "check nothing"),
    (lambda f: slpi.verify(f, rows=(5,)), "rows"),
    (lambda f: slpi.verify([]), "no trajectory"),
    (lambda f: slpi.verify(f, stat_reference="exact"), "--stat-reference exact"),
    (lambda f: slpi.verify(f, stat_reference="double"), "--stat-reference double"),
    (lambda f: slpi.verify(f, stat_reference=1), "stat_reference"),
])
def test_bad_options(tmp_path, call, words):
    f = run_to(tmp_path, "bad.tsv", steps=4)
    with pytest.raises(slpi.SlpiError, match=words.replace("(", r"\(")):
        call(f)


def test_pooled_files_of_another_problem(tmp_path):
    f = run_to(tmp_path, "x.tsv", steps=4)
    g = run_to(tmp_path, "y.tsv", steps=4, amp=0.2)
    with pytest.raises(slpi.SlpiError, match="another problem"):
        slpi.verify([f, g])


def test_write_noise_is_the_commands_file(tmp_path):
    """The increments of a problem written by Python are `slpi noise --preset`'s file
    byte for byte (truncated), and so is an untruncated file of given values; a run on
    the Python file verifies."""
    steps, h = 50, 2.0**-8
    cli = tmp_path / "cli.noise"
    subprocess.run([SLPI, "noise", "--preset", RB, "steps=%d" % steps, "-o", str(cli)], check=True,
                   capture_output=True)
    hd = {k: v for k, v in (l[2:].split(" ", 1) for l in cli.read_text().splitlines()[1:9])}
    D = float.fromhex(hd["truncate"].split()[2])
    dW = np.column_stack([np.clip(slpi.noise(1, 0, k, h, steps), -D, D) for k in range(3)])
    py = tmp_path / "py.noise"
    slpi.write_noise(py, dW, h, seed=1, path=0, ell=2)
    assert py.read_bytes() == cli.read_bytes()
    raw = tmp_path / "raw.noise"
    slpi.write_noise(raw, np.array([[0.5, -0.25], [3.0, 1e-300]]), 0.25, seed=9, path=3, first=4)
    out = subprocess.run([SLPI, "noise", "--check", str(raw)], capture_output=True)
    assert out.returncode == 0, out.stderr
    t = run_to(tmp_path, "n.tsv", steps=steps, noise_file=str(py))
    assert slpi.verify(t).proof == "PASS"
    with pytest.raises(slpi.SlpiError, match="beyond the truncation"):
        slpi.write_noise(tmp_path / "big.noise", dW * 10, h, seed=1, ell=2)
    with pytest.raises(slpi.SlpiError, match="not finite"):
        slpi.write_noise(tmp_path / "nan.noise", [[np.nan]], h)
    assert not (tmp_path / "big.noise").exists() and not (tmp_path / "nan.noise").exists()
