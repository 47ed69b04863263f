"""The Python package at parity with the C run, each result computed a second way:
the command line (trajectories in --hex, noise files, converge tables), one call
against many pieces, the ensemble against single runs, the certified path's balls
against the fast path."""
import os
import signal
import subprocess
import threading
import time

import numpy as np
import pytest

import slpi

SLPI = os.environ.get("SLPI_BIN", os.path.join(os.path.dirname(__file__), "..", "..", "build", "slpi"))
RB = "iso/rigid-body/trajectories"


def cli_rows(*args):
    """The rows of `slpi run --hex` (fast) as floats: step, t, then every column."""
    out = subprocess.run([SLPI, "run", "-q", "--hex", *args], check=True, capture_output=True, text=True).stdout
    rows = [ln.split("\t") for ln in out.splitlines() if ln and not ln.startswith("#")]
    return rows[0], np.array([[float.fromhex(x) if "0x" in x else float(x) for x in r] for r in rows[1:]])


def write_noise(path, dW, h):
    """An untruncated slpi-noise 1 file holding dW (steps x M)."""
    steps, M = dW.shape
    with open(path, "w") as f:
        f.write("# slpi-noise 1\n# seed 1\n# path 0\n# components %d\n# h %s %.17g\n# refine 0\n# truncate off\n"
                "# first 0\n# steps %d\n# columns dW_1..dW_%d (%%a), then dW_1..dW_%d (%%.17g)\n"
                % (M, float(h).hex(), h, steps, M, M))
        for row in dW:
            f.write("\t".join([float(v).hex() for v in row] + ["%.17g" % v for v in row]) + "\n")


def test_diagnostics_equal_cli():
    """Every diagnostic column of the C run, bit for bit, with its name."""
    r = slpi.run("rkmk/heavy-top/stoch-421-realization", steps=30)
    names, cli = cli_rows("--preset", "rkmk/heavy-top/stoch-421-realization", "steps=30")
    for k, v in r.diagnostics.items():
        assert np.array_equal(cli[:, names.index(k)], v), k
    assert np.array_equal(cli[:, names.index("iters")], r.iterations)
    assert np.array_equal(cli[:, names.index("residual")], r.residual)
    assert r.summary["iterations"] == r.iterations.sum() and r.summary["max_iterations"] == r.iterations.max()
    assert r.energy is r.diagnostics["H0"]


@pytest.mark.parametrize("truncate", ["off", "on"])
def test_increments_array_equal_noise_file(tmp_path, truncate):
    """run(dW=array) is `slpi run noise_file=...` on the same values: clipped at the
    problem's threshold when it truncates (increments 30x the canonical ones exceed it)."""
    h, steps = 2.0 ** -8, 40
    dW = 30 * np.column_stack([slpi.noise(3, 0, k, h, steps) for k in range(3)])
    f = tmp_path / "big.noise"
    write_noise(f, dW, h)
    r = slpi.run(RB, dW=dW, h=h, truncate=truncate)
    names, cli = cli_rows("--preset", RB, "h=%r" % h, "steps=%d" % steps, "truncate=" + truncate,
                          "noise_file=%s" % f)
    assert np.array_equal(cli[:, 2:5], r.states)
    assert (r.summary["clipped"] > 0) == (truncate == "on")
    # the canonical increments as an array: the run of the problem's own noise
    own = np.column_stack([slpi.noise(1, 0, k, h, steps) for k in range(3)])
    assert np.array_equal(slpi.run(RB, dW=own, h=h, truncate="off").states,
                          slpi.run(RB, h=h, steps=steps, truncate="off").states)


def test_pieces_equal_one_call(monkeypatch):
    """Pieces of one step each give the bits of one advance over all steps (ensembles too)."""
    monkeypatch.setattr(slpi._run, "_PIECE_SECONDS", 1e-12)
    small = slpi.run("rkmk/heavy-top/stoch-421-realization", steps=300, output_every=7)
    smalle = slpi.ensemble(RB, paths=3, steps=50, save_every=4)
    monkeypatch.setattr(slpi._run, "_PIECE_SECONDS", 1e9)
    monkeypatch.setattr(slpi._run, "_FIRST_PIECE", 10 ** 6)
    one = slpi.run("rkmk/heavy-top/stoch-421-realization", steps=300, output_every=7)
    onee = slpi.ensemble(RB, paths=3, steps=50, save_every=4)
    assert np.array_equal(small.states, one.states)
    assert all(np.array_equal(small.diagnostics[k], one.diagnostics[k]) for k in one.diagnostics)
    assert np.array_equal(small.iterations, one.iterations)
    assert np.array_equal(smalle.states, onee.states)


def test_certified_balls_contain_fast():
    """ref=True: the balls of the certified path contain the fast path's states to within
    the fast path's rounding (tens of ulps here), and the radii are tiny but positive."""
    f = slpi.run(RB, steps=50)
    c = slpi.run(RB, steps=50, ref=True)
    assert c.summary["path"] == "ref" and c.summary["max_prec"] >= 128
    assert np.all(c.radii[0] == 0) and np.all(c.radii[1:] > 0) and np.all(c.radii < 1e-15)
    assert np.all(np.abs(c.states - f.states) <= c.radii + 64 * np.finfo(float).eps)
    assert c.diagnostic_radii is not None and set(c.diagnostic_radii) == set(c.diagnostics)
    names = subprocess.run([SLPI, "run", "--ref", "-q", "--preset", RB, "steps=1", "-o", "-"], check=True,
                           capture_output=True, text=True).stdout
    assert all(k in names for k in c.diagnostics)


def test_x0_any_size_and_su_layout():
    """An su(N) x0 from a matrix (pack_su), larger than the 64 values of the x0 key: the
    run starts there, and the text key gives the same run where it fits."""
    N = 9
    rng = np.random.default_rng(5)
    A = rng.standard_normal((N, N)) + 1j * rng.standard_normal((N, N))
    X = A - A.conj().T
    X -= np.trace(X) / N * np.eye(N)
    x0 = slpi.pack_su(X)
    assert x0.size == 81 > 64
    r = slpi.run("iso/zeitlin/long", N=N, steps=3, x0=x0)
    assert np.array_equal(r.states[0], x0)
    assert np.allclose(slpi.unpack_su(r.states[0]), X, rtol=0, atol=1e-15)
    small = np.array([0.6, 0.0, 0.8])
    assert np.array_equal(slpi.run(RB, steps=5, x0=small).states, slpi.run(RB, steps=5, x0=list(small)).states)
    # the matrix layouts round-trip and match the labels of the state
    assert np.array_equal(slpi.pack_so(slpi.unpack_so(np.arange(1.0, 11.0))), np.arange(1.0, 11.0))
    labels = slpi.Problem("iso/zeitlin/long", N=3, ic_lmax=2).labels
    assert labels[:3] == ["ImX_0_0", "ImX_1_1", "ImX_2_2"] and labels[3:5] == ["ReX_0_1", "ImX_0_1"]


def test_ensemble_time_series_equal_runs(tmp_path):
    """ensemble(save_every=k): path r's series is run(path=first+r, output_every=k), in
    memory and streamed into an .npy file; diagnostics too."""
    e = slpi.ensemble(RB, paths=3, first_path=4, steps=30, save_every=7, diagnostics=True)
    f = tmp_path / "ens.npy"
    m = slpi.ensemble(RB, paths=3, first_path=4, steps=30, save_every=7, out=f)
    assert isinstance(m.states, np.memmap) and np.array_equal(np.load(f), e.states)
    assert not [p for p in os.listdir(tmp_path) if ".part" in p]
    for r in range(3):
        one = slpi.run(RB, steps=30, path=4 + r, output_every=7)
        assert np.array_equal(e.states[r], one.states)
        assert np.array_equal(e.diagnostics["H0"][r], one.diagnostics["H0"])
        assert np.array_equal(e.t, one.t)
    fin = slpi.ensemble(RB, paths=3, first_path=4, steps=30)
    assert np.array_equal(fin, e.states[:, -1, :])


def test_memory_guard_names_the_size(tmp_path):
    with pytest.raises(slpi.SlpiError, match=r"run: 1000000001 rows: needs 40 GB of memory"):
        slpi.run(RB, steps=10 ** 9)
    with pytest.raises(slpi.SlpiError, match="out='file.npy'") as e:
        slpi.ensemble(RB, paths=10 ** 6, steps=1000, save_every=1, max_memory=10 ** 9)
    assert e.value.argument == "max_memory" and e.value.value > 10 ** 9
    with pytest.raises(slpi.SlpiError, match="max_memory"):
        slpi.run(RB, steps=1000, max_memory=1000)


def test_ctrl_c_interrupts_promptly(tmp_path, request):
    """SIGINT during a long run, a long streamed ensemble, a convergence study, verify
    and golden: KeyboardInterrupt within a piece of work or one step of the library's
    (about 0.05 s; the bound asserted is 2 s, for a loaded machine; the calls would take
    from seconds to minutes), the ensemble's file is neither created nor left
    half-written, and the tools library's interrupt flag is cleared for the next call."""
    def fire(delay, at):
        time.sleep(delay)
        at.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    # Python turns SIGINT into KeyboardInterrupt only where it found SIGINT not ignored at
    # start-up; a shell's background job (`make check &`, nohup) starts with it ignored,
    # and the signal would be dropped: the test installs Python's handler itself
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    request.addfinalizer(lambda: signal.signal(signal.SIGINT, old))
    traj = tmp_path.parent / (tmp_path.name + "-ht.tsv")   # a certified walk of seconds
    slpi.write_trajectory(traj, slpi.run("rkmk/heavy-top/stoch-421-realization", steps=3000))
    request.addfinalizer(lambda: os.remove(traj))
    for call in (lambda: slpi.run(RB, steps=10 ** 9, output_every=10 ** 6),
                 lambda: slpi.ensemble(RB, paths=10 ** 5, steps=10 ** 4, save_every=100, out=tmp_path / "e.npy"),
                 lambda: slpi.converge("iso/rigid-body/weak", kind="weak", levels=(2, 6), ref=10, paths=10 ** 5),
                 lambda: slpi.verify(traj),
                 lambda: slpi.golden()):
        at = []
        t = threading.Thread(target=fire, args=(0.3, at))
        t.start()
        with pytest.raises(KeyboardInterrupt):
            call()
        latency = time.monotonic() - at[0]
        t.join()
        print("Ctrl-C latency %.3f s" % latency)
        assert latency < 2.0
    assert os.listdir(tmp_path) == []
    assert slpi.converge("iso/rigid-body/strong", levels=(2, 3), ref=5, paths=4, boot=10).e.shape == (2,)


def test_progress_line(capfd, monkeypatch):
    import builtins
    real = builtins.__import__

    def no_tqdm(name, *a, **k):
        if name == "tqdm":
            raise ImportError(name)
        return real(name, *a, **k)
    monkeypatch.setattr(builtins, "__import__", no_tqdm)
    slpi.run(RB, steps=200, progress=True)
    err = capfd.readouterr().err
    assert "slpi run: 200/200 (100%)" in err


def test_verify_and_golden_objects(tmp_path):
    f = tmp_path / "rb.tsv"
    slpi.write_trajectory(f, slpi.run(RB, steps=6))
    v = slpi.verify(f)
    assert v.verdict == "PASS" and v.rows == 7
    v = slpi.verify(f, local=True, global_=False)     # the local rows alone: counted too
    assert v.verdict == "PASS" and v.rows == 7 and v.report["rows"] == 0
    cli = subprocess.run([SLPI, "verify", str(f)], capture_output=True, text=True)
    assert cli.returncode == 0 and "PASS" in cli.stdout
    # a changed last bit of one state coordinate: FAIL would need a large change; a
    # corrupted value by 1e-6 relative is certified wrong
    head, rows = slpi.read_trajectory(f)
    lines = open(f).read().splitlines()
    cells = lines[-1].split("\t")
    cells[2] = float.hex(float.fromhex(cells[2]) * (1 + 1e-6))
    open(f, "w").write("\n".join(lines[:-1] + ["\t".join(cells)]) + "\n")
    assert slpi.verify(f).verdict == "FAIL"
    g = slpi.golden(os.path.join(os.path.dirname(__file__), "..", "..", "oracle", "golden"))
    assert g.verdict == "PASS" and "PASS" in g.text


def test_readers_equal_cli(tmp_path):
    """read_trajectory on the C run's fast and certified files; read_converge on its table."""
    f = tmp_path / "rb.tsv"
    subprocess.run([SLPI, "run", "-q", "--hex", "--preset", RB, "steps=9", "-o", str(f)], check=True)
    head, rows = slpi.read_trajectory(f)
    r = slpi.run(RB, steps=9)
    assert head["system"] == "rigid-body" and head["steps"] == "9"
    assert np.array_equal(np.column_stack([rows[k] for k in r.labels]), r.states)
    assert np.array_equal(rows["H0"], r.diagnostics["H0"])
    g = tmp_path / "rb-ref.tsv"
    subprocess.run([SLPI, "run", "--ref", "-q", "--preset", RB, "steps=4", "-o", str(g)], check=True)
    head, balls = slpi.read_trajectory(g)
    c = slpi.run(RB, steps=4, ref=True)
    assert head["arith"] == "ref"
    assert np.all(np.abs(balls["x1"] - c.states[:, 0]) <= balls["x1_rad"] + c.radii[:, 0])
    t = tmp_path / "conv.tsv"
    subprocess.run([SLPI, "converge", "--preset", "iso/rigid-body/strong", "--levels", "2..4", "--ref", "6",
                    "--paths", "16", "--boot", "20", "-o", str(t)], check=True, capture_output=True)
    head, table = slpi.read_converge(t)
    s = slpi.converge("iso/rigid-body/strong", levels=(2, 4), ref=6, paths=16, boot=20)
    assert np.allclose(table["self"], s.e, rtol=1e-6, atol=0) and np.array_equal(table["h"], s.h)
    assert head["problem.system"] == "rigid-body" and any("slope self" in x for x in head["fits"])


def test_version_matches_library():
    out = subprocess.run([SLPI, "--version"], check=True, capture_output=True, text=True).stdout
    assert slpi.__version__ in out.split()[1:3] or ("slpi " + slpi.__version__) in out


def test_model_equals_cli_config():
    """slpi.Model from a models/*.slpi key file's lines: the same run, bit for bit, as
    `slpi run --config FILE`, on the fast path, in an ensemble and certified."""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "models", "rigid-body.slpi")
    kv = dict(ln.split("=", 1) for ln in open(path).read().splitlines() if ln and not ln.startswith("#"))
    m = slpi.Model(kv["algebra"], kv["H"], noise=[kv["noise_H%d" % i] for i in (1, 2, 3)],
                   params={k[6:]: v for k, v in kv.items() if k.startswith("param.")},
                   x0=[float(x) for x in kv["x0"].split(",")])
    r = slpi.run(m, steps=40)
    names, cli = cli_rows("--config", path, "steps=40")
    assert np.array_equal(cli[:, 2:5], r.states)
    assert np.array_equal(cli[:, names.index("H0")], r.diagnostics["H0"])
    fin = slpi.ensemble(m, paths=2, first_path=3, steps=40)
    assert np.array_equal(fin[1], slpi.run(m, steps=40, path=4).states[-1])
    c = slpi.run(m, steps=5, ref=True)
    assert np.all(np.abs(c.states - r.states[:6]) <= c.radii + 64 * np.finfo(float).eps)
    # a float parameter is its binary64 value on both paths; the built-in twin agrees to rounding
    twin = slpi.run(RB, steps=40, x0=[1, 0.5, 0.2])
    assert np.max(np.abs(twin.states - r.states)) < 1e-13
    with pytest.raises(slpi.SlpiError, match="H"):
        slpi.Model("so3", "x1^^2", x0=[1, 0, 0])
    with pytest.raises(slpi.SlpiError, match="noise"):
        slpi.Model("so3", "x1^2", noise=[1], x0=[1, 0, 0])


def test_weak_study_says_why_its_slope_is_nan():
    """A weak study too small to resolve its errors: slope NaN with the CLI's rule as the
    reason (levels with e > 3 SE), and the table says the same number of levels fitted."""
    s = slpi.converge("iso/rigid-body/weak", kind="weak", levels=(2, 4), ref=6, paths=8, boot=10)
    assert np.isnan(s.slope) and "e > 3 SE" in s.why
    usable = int(s.why.split()[0])
    out = subprocess.run([SLPI, "converge", "--preset", "iso/rigid-body/weak", "--kind", "weak", "--levels", "2..4",
                          "--ref", "6", "--paths", "8", "--boot", "10", "-o", "-"], capture_output=True, text=True).stdout
    assert "(%d levels fitted, e > 3 SE)" % usable in out
    ok = slpi.converge("iso/rigid-body/strong", levels=(2, 4), ref=6, paths=16, boot=10)
    assert np.isfinite(ok.slope) and ok.why == ""


def test_pieces_bounded_in_time(monkeypatch):
    """The pieces between returns to Python are sized to about _PIECE_SECONDS of work, so
    Ctrl-C is seen promptly: with a model clock in which every step costs 1 us, no piece
    may cover more than 2 x 0.05 s of steps (deterministic: no wall time is measured)."""
    clock = [0.0]
    sizes = []
    real_lib, real_time = slpi._run._lib, slpi._run.time   # the run's pieces (python/slpi/_run.py)

    class Lib:
        def __getattr__(self, name):
            return getattr(real_lib, name)

        def slpi_stepper_advance(self, st, n, *args):
            sizes.append(n)
            clock[0] += 1e-6 * n
            return real_lib.slpi_stepper_advance(st, n, *args)

    class Time:
        def __getattr__(self, name):
            return getattr(real_time, name)

        @staticmethod
        def perf_counter():
            return clock[0]

    monkeypatch.setattr(slpi._run, "_lib", Lib())
    monkeypatch.setattr(slpi._run, "time", Time())
    slpi.run(RB, steps=400000, output_every=400000)
    assert sum(sizes) == 400000
    assert len(sizes) > 4 and max(sizes) <= 2 * 0.05 / 1e-6, sizes


def test_state_columns_and_view(tmp_path):
    """The header names the state's columns (the C writer, fast and certified, and
    write_trajectory), and read_trajectory's .state is a (rows, dim) view of them that
    equals the named fields (and writes through to them); .state_rad the radii."""
    for extra, ball in (([], False), (["--ref"], True)):
        f = tmp_path / ("c%d.tsv" % ball)
        subprocess.run([SLPI, "run", "--preset", "rkmk/heavy-top/stoch-421-realization", "--steps", "4", "-o", str(f),
                        "-q"] + extra, check=True)
        tr = slpi.read_trajectory(f)
        labels = slpi.Problem("rkmk/heavy-top/stoch-421-realization").labels
        assert tr.state_columns == labels and tr.header["state_columns"] == ",".join(labels)
        assert tr.state.shape == (5, len(labels)) and np.shares_memory(tr.state, tr.rows)
        for i, name in enumerate(labels):
            assert np.array_equal(tr.state[:, i], tr.rows[name])
            assert np.array_equal(tr.state_rad[:, i], tr.rows[name + "_rad"] if ball else np.zeros(5))
        tr.state[2, 1] = 7.0
        assert tr.rows[labels[1]][2] == 7.0
        head, rows = tr   # the pair it always was
        assert head is tr.header and rows is tr.rows
    g = tmp_path / "py.tsv"
    slpi.write_trajectory(g, slpi.run(RB, steps=3))
    assert slpi.read_trajectory(g).state_columns == ["x1", "x2", "x3"]
    assert subprocess.run([SLPI, "verify", str(g)], capture_output=True).returncode == 0


def test_errors_name_python_not_the_command_line():
    """The library's messages point a Python user to Python: slpi.keys(), slpi.presets(),
    the argument ref= (not `slpi run --help`, `slpi list`, --ref)."""
    cases = ((lambda: slpi.run(RB, foo=1), "foo", "(see slpi.keys())"),
             (lambda: slpi.run("nope"), "preset", "(see slpi.presets())"),
             (lambda: slpi.converge("iso/rigid-body/strong", levels=(3, 4), ref=29), "ref", "ref=29: the noise"))
    for call, arg, words in cases:
        with pytest.raises(slpi.SlpiError) as e:
            call()
        assert e.value.argument == arg and words in str(e.value), str(e.value)
        assert "`slpi" not in str(e.value) and "--" not in str(e.value), str(e.value)


def test_certified_diagnostics_equal_cli():
    """ref=True: every row's diagnostics are those of the CLI's certified row at that step
    (the double nearest the ball's midpoint, within the radius given), not those of the
    initial state: a noisy run's H0_rel_dev moves from 0 at step 0."""
    c = slpi.run(RB, steps=12, ref=True)
    out = subprocess.run([SLPI, "run", "--ref", "-q", "--preset", RB, "steps=12", "-o", "-"], check=True,
                         capture_output=True, text=True).stdout
    rows = [ln.split("\t") for ln in out.splitlines() if ln and not ln.startswith("#")]
    names = rows[0]
    assert len(rows) == 14 and set(c.diagnostics) <= set(names)
    for k, v in c.diagnostics.items():
        cli = np.array([float(r[names.index(k)].split(" +/- ")[0]) for r in rows[1:]])
        assert np.all(np.abs(cli - v) <= c.diagnostic_radii[k] * (1 + 1e-9) + 1e-300), k
    assert c.diagnostics["H0_rel_dev"][0] == 0 and np.all(np.abs(c.diagnostics["H0_rel_dev"][1:]) > 1e-7)
