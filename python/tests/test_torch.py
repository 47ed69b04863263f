"""slpi.torch, on the CPU device: the canonical noise bit for bit against
`slpi noise` and the library's own map and threshold, and the batched ISOMP path judged
by slpi's oracle: its binary64 and binary32 trajectories PASS `slpi verify` at their
precision, and a planted defect FAILs. Skipped, with the reason, where PyTorch is not
installed (Debian: python3-torch). Random tuples from a printed seed (SLPI_TEST_SEED
replays it)."""
import ctypes
import os
import random
import re
import struct
import subprocess
import sys

import numpy as np
import pytest

import slpi

torch = pytest.importorskip("torch", reason="PyTorch is not installed (Debian: apt-get install python3-torch)")
from slpi.torch import noise as tnoise  # noqa: E402
import slpi.torch as storch  # noqa: E402

SLPI = os.environ.get("SLPI_BIN", "slpi")
ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
SEED = int(os.environ.get("SLPI_TEST_SEED", random.SystemRandom().randrange(1 << 31)))
print("test_torch: SLPI_TEST_SEED=%d" % SEED, file=sys.stderr)


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def table_rows(header):
    src = open(header).read().split("noise_table[NOISE_TABLE_ROWS][17] = {", 1)[1]
    return [" ".join(v.strip() for v in r.split(",")) for r in re.findall(r"\{([^{}]*)\}", src)]


def test_table_is_the_header():
    """slpi/_noise_table.py is core/noise-table.h, entry for entry"""
    header = os.path.join(ROOT, "core", "noise-table.h")
    if not os.path.exists(header):
        pytest.skip("no source tree (core/noise-table.h)")
    from slpi._noise_table import ROWS
    assert tuple(table_rows(header)) == ROWS


def test_noise_kat_against_the_command():
    """`slpi noise --format bits` and slpi.torch.noise.increments agree bit for bit on
    random (seed, path, components, h, steps, first, refine, truncation)"""
    rng = random.Random(SEED)
    for case in range(12):
        seed = rng.choice([0, 1, rng.randrange(1 << 64), (1 << 64) - 1])
        path = rng.choice([0, rng.randrange(1 << 32), (1 << 32) - 1])
        M = rng.randrange(1, 5)
        h = rng.choice([0.01, 2.0 ** -8, 0.5, 0.9, rng.uniform(1e-4, 0.99)])
        steps, refine = rng.randrange(1, 40), rng.randrange(0, 6)
        first = rng.choice([0, 1, rng.randrange(1 << 40)])
        trunc = rng.random() < 0.6
        cmd = [SLPI, "noise", "--seed", str(seed), "--path", str(path), "--components", str(M), "--h", h.hex(),
               "--steps", str(steps), "--refine", str(refine), "--first", str(first),
               "--truncate", "on" if trunc else "off", "--format", "bits"]
        r = subprocess.run(cmd, capture_output=True, text=True, check=True)
        want = [[int(v, 16) for v in line.split("\t")] for line in r.stdout.split("\n") if line.strip()]
        D = tnoise.threshold(h) if trunc else None
        got = tnoise.increments(seed, path, M, h, steps, refine=refine, first=first, truncate=D)[0]
        assert [[bits(v) for v in row] for row in got.tolist()] == want, " ".join(cmd)


def test_map_on_every_row_and_threshold():
    """the word -> normal map against the library's slpi_noise_word_normal on words of
    every table row (both ends and the middle of each eighth, both signs) and random
    words; the threshold against slpi_noise_threshold"""
    lib = ctypes.CDLL(os.environ["SLPI_LIB"]) if "SLPI_LIB" in os.environ else None
    if lib is None or not hasattr(lib, "slpi_noise_word_normal"):
        pytest.skip("libslpi.so without slpi_noise_word_normal")
    lib.slpi_noise_word_normal.restype, lib.slpi_noise_word_normal.argtypes = ctypes.c_double, [ctypes.c_uint64]
    lib.slpi_noise_threshold.restype = ctypes.c_double
    lib.slpi_noise_threshold.argtypes = [ctypes.c_double, ctypes.c_double]
    rng = random.Random(SEED + 1)
    words = [rng.randrange(1 << 64) for _ in range(4000)]
    for e in range(-54, -1):
        for k in range(8):
            for frac in (0.0, 0.5, 0.999999):
                p = 2.0 ** e * (1 + (k + frac) / 8)
                m = max(0, min((1 << 52) - 1, int(p * 2.0 ** 53)))    # p ~ (2m + 1) 2^-54
                for s in (0, 1):
                    words.append((s << 63) | (m << 11) | rng.randrange(1 << 11))
    lo = torch.tensor([v & 0xFFFFFFFF for v in words], dtype=torch.int64)
    hi = torch.tensor([v >> 32 for v in words], dtype=torch.int64)
    got = tnoise.word_normals(lo, hi).tolist()
    want = [lib.slpi_noise_word_normal(v) for v in words]
    assert [bits(v) for v in got] == [bits(v) for v in want]
    for h in [0.01, 2.0 ** -8, 2.0 ** -16, 0.5, 0.999] + [rng.uniform(1e-6, 0.999) for _ in range(200)]:
        assert tnoise.threshold(h) == lib.slpi_noise_threshold(h, 2.0), h


def verdict(files, precision):
    v = slpi.verify(files, precision=precision, threads=1)
    return v.verdict


@pytest.mark.parametrize("precision, defect, want", [
    ("float64", None, "PASS"), ("float32", None, "PASS"),
    ("float64", "drop", "FAIL"), ("float32", "coef:0x1p-10", "FAIL")])
def test_zeitlin_judged_by_the_oracle(tmp_path, precision, defect, want):
    """Euler–Zeitlin su(4) (iso/zeitlin/strong, noise (Q)) on two paths in one batch:
    PASS at its precision; a dropped 1/4 Psi Y Psi (binary64) or a commutator
    coefficient off by 2^-10 (binary32) FAILs"""
    e = storch.run("iso/zeitlin/strong", paths=2, N=4, ic_lmax=3, steps=24, h=2.0 ** -8, precision=precision,
                   defect=defect)
    assert e.states.shape == (2, 25, 16) and e.capped.sum() == 0
    files = storch.write(e, str(tmp_path))
    assert "## slpi.torch precision=%s" % precision in open(files[0]).read()
    assert verdict(files, e.verify_precision) == want


def test_saved_rows_are_the_header_grid(tmp_path):
    """rows saved every k steps are written with output_every=k, the grid they are on:
    verify finds no rows missing and PASSes (written with the problem's output_every=1,
    gpu-check's files of 16 steps saved at the end were UNABLE: 15 rows missing)"""
    e = storch.run("iso/zeitlin/strong", paths=2, N=4, ic_lmax=3, steps=12, h=2.0 ** -8, save_every=4)
    assert list(e.step) == [0, 4, 8, 12] and e.problem["output_every"] == "4"
    files = storch.write(e, str(tmp_path))
    assert "# output_every=4\n" in open(files[0]).read()
    assert verdict(files, e.verify_precision) == "PASS"


@pytest.mark.parametrize("N", [16, 32, 64])
@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_sizes_judged_by_the_oracle(tmp_path, N, precision):
    """the sizes ports run (docs/power.md#sizes-results, reduced): Euler–Zeitlin su(N)
    (iso/zeitlin/strong, default matmul), 2 paths drawn from the seed x 16 steps, PASSes
    with statistics rows (at su(64) in float64 it FAILed, p = 5.5e-6, when Psi's B_0 took
    the modal route); the same files with E u |x| a step planted (E = 2 + seed % 3) FAIL"""
    first = SEED % 1000 * 2
    e = storch.run("iso/zeitlin/strong", paths=2, first_path=first, N=N, steps=16, precision=precision)
    files = storch.write(e, str(tmp_path))
    v = slpi.verify(files, precision=e.verify_precision, threads=1)
    assert v.verdict == "PASS" and v.statistics["verdict"] == "PASS", (N, precision, v.statistics["p_value"])
    assert v.statistics["steps"] > 0
    u = 2.0 ** -53 if precision == "float64" else 2.0 ** -24
    bad = [f + ".defect" for f in files]
    plant = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "oracle", "plant-moves.py")
    for f, g in zip(files, bad):
        subprocess.run([sys.executable, plant, f, g, str(2 + SEED % 3), repr(u)], check=True, capture_output=True)
    v = slpi.verify(bad, precision=e.verify_precision, threads=1)
    assert v.statistics["verdict"] == "FAIL", (N, precision, v.statistics["p_value"])


def test_bfloat16_judged_by_the_oracle(tmp_path):
    """bfloat16 Euler–Zeitlin su(8), 40 steps, two paths, PASSes at bfloat16: the
    iteration adds X last, one rounding at X's size (two roundings there, X + C/2 then
    + Q/4, FAIL the statistics)"""
    e = storch.run("iso/zeitlin/strong", paths=2, N=8, ic_lmax=7, steps=40, h=2.0 ** -8, precision="bfloat16")
    assert verdict(storch.write(e, str(tmp_path)), e.verify_precision) == "PASS"


def test_rigid_body_ensemble(tmp_path):
    """the rigid body (iso/rigid-body/trajectories) on three paths in one batch: binary64
    equal to slpi.run's path to within 2 ulps of the state, with its iteration counts step
    by step (the shared stopping rule, docs/schemes.md#solver); binary32 PASSes at binary32"""
    e = storch.run("iso/rigid-body/trajectories", paths=3, steps=100)
    r = slpi.run("iso/rigid-body/trajectories", steps=100, path=2)
    assert np.abs(e.states[2] - r.states).max() <= 4e-16
    assert (e.iterations[2] == r.iterations[1:]).all()
    e = storch.run("iso/rigid-body/trajectories", paths=3, steps=100, precision="float32")
    assert verdict(storch.write(e, str(tmp_path)), "binary32") == "PASS"


FAMILY = [dict(kappa=2), dict(rotation=10, background_modes="2:1:0.3,3:-2:0.1"), dict(noise="L"),
          dict(noise="modes", noise_modes="1:0:0.2,2:1:0.1,3:-3:0.3"), dict(multiplier="-(l*(l+1))^2"),
          dict(update="cay"), dict(update="cay", kappa=1, noise="L"), dict(noise="none"), dict(noise="fields")]


@pytest.mark.parametrize("keys", FAMILY, ids=lambda k: ",".join("%s=%s" % kv for kv in k.items()))
def test_zeitlin_family_as_the_c_path(tmp_path, keys):
    """every key of the Zeitlin family (docs/systems.md#zeitlin-family) and update=cay:
    path 1 of a two-path binary64 batch within 64 u of the state's size of slpi.run's"""
    keys = dict(keys)
    if keys.get("noise") == "fields":
        np.savetxt(tmp_path / "xi.txt", np.random.default_rng(SEED).normal(size=(3, 35)) * 0.01)
        keys["noise_fields"] = str(tmp_path / "xi.txt")
    k = dict(N=6, ic_lmax=5, steps=8, h=2.0 ** -8, **keys)
    e = storch.run("iso/zeitlin/strong", paths=2, **k)
    r = slpi.run("iso/zeitlin/strong", path=1, **k)
    assert np.abs(r.states[-1] - r.states[0]).max() > 1e-4
    assert np.abs(e.states[1, -1] - r.states[-1]).max() <= 64 * 2.0 ** -53 * np.abs(r.states[-1]).max()


def test_zeitlin_high_degrees_as_the_c_path():
    """su(72) with noise=L (every mode; a harmonic's sign is its noise's sign): one step of
    path 1 of a two-path binary64 batch within 64 u of the state's size of slpi.run's. From
    N = 67 some harmonics' last entries, which fix their signs, are below the rounding;
    read off the computed last entry, three of them had the wrong sign and the paths were
    2.3e-6 apart (max |x| = 0.079)"""
    k = dict(N=72, ic_lmax=11, steps=1, h=2.0 ** -8, noise="L")
    e = storch.run("iso/zeitlin/strong", paths=2, **k)
    r = slpi.run("iso/zeitlin/strong", path=1, **k)
    assert np.abs(e.states[1, -1] - r.states[-1]).max() <= 64 * 2.0 ** -53 * np.abs(r.states[-1]).max()


def test_many_paths_in_one_file(tmp_path):
    """write(many=True): one file with a path column, step-major, PASSes as the one-path
    files do (oracle/README.md#many-paths)"""
    e = storch.run("iso/rigid-body/trajectories", paths=3, steps=60, precision="float32")
    f = storch.write(e, str(tmp_path), many=True)
    assert len(f) == 1 and verdict(f, "binary32") == "PASS"


@pytest.mark.parametrize("h, refine, taus, trunc", [
    (2.0 ** -7, 0, (0.05, 0.0, 0.3), "off"), (2.0 ** -5, 3, (0.01, 1.0, 2.0 ** -9), "on"),
    (0.01, 2, (1e-9, 0.02, 0.0), "on")])     # 1e-9: delta/tau > 708, a = 0
def test_ou_bit_for_bit(h, refine, taus, trunc):
    """noise_tau (docs/noise.md#ou): slpi.torch.noise's OU increments, drawn in chunks of
    64 steps with eta carried, equal slpi.increments' bit for bit, coloured and white
    components; a run with noise_tau is slpi.run's (rigid body, binary64, 4e-16) and not
    the white run's"""
    seed, path, steps = SEED % 1000, random.Random(SEED).randrange(1 << 32), 150
    tau = ",".join(repr(t) for t in taus)
    want = slpi.increments("iso/rigid-body/weak", h=h, steps=steps, refine=refine, seed=seed, path=path,
                           truncate=trunc, noise_tau=tau)
    p = slpi.Problem("iso/rigid-body/weak", h=h, steps=steps, refine=refine, seed=seed, path=path, truncate=trunc)
    D = float(slpi._lib.slpi_problem_noise_threshold(p._p))
    eta = tnoise.ou_start(seed, [path], list(taus))
    got = torch.cat([tnoise.increments(seed, [path], 3, h, min(64, steps - c), refine=refine, first=c,
                                       truncate=D if np.isfinite(D) else None, taus=list(taus), eta=eta)
                     for c in range(0, steps, 64)], 1)[0].numpy()
    assert np.array_equal(got.view(np.int64), want.view(np.int64))
    e = storch.run("iso/rigid-body/trajectories", paths=2, first_path=4, steps=50, noise_tau=tau, h=h)
    r = slpi.run("iso/rigid-body/trajectories", path=5, steps=50, noise_tau=tau, h=h)
    w = slpi.run("iso/rigid-body/trajectories", path=5, steps=50, h=h)
    assert np.abs(e.states[1] - r.states).max() <= 4e-16 < np.abs(w.states - r.states).max()


@pytest.mark.parametrize("keys", [dict(first_path=2 ** 32 - 1, paths=2), dict(first_path=2 ** 32), dict(first_path=-1),
                                  dict(paths=0), dict(steps=1000, refine=40), dict(noise_tau="0.1,0.2"),
                                  dict(noise_file="/dev/null")], ids=str)
def test_index_ranges_refused(keys):
    """indices the C path refuses are refused, never wrapped: paths past 2^32 - 1, steps
    2^refine past the 2^38 draws a generation may take, a bad noise_tau, a noise file
    (the torch path draws the canonical noise); and slpi.torch.noise.increments refuses
    the steps slpi.noise refuses, at the border 2^62"""
    with pytest.raises(slpi.SlpiError):
        storch.run("iso/rigid-body/trajectories", **dict(dict(paths=1, steps=4), **keys))
    assert storch.run("iso/rigid-body/trajectories", paths=1, first_path=2 ** 32 - 1, steps=2).paths[0] == 2 ** 32 - 1
    for first, steps, refine in ((2 ** 62 - 5, 4, 0), (2 ** 62 - 5, 5, 0), (2 ** 60 - 2, 1, 2), (2 ** 60 - 1, 1, 2),
                                 (0, 2 ** 38 + 1, 0), (0, 1, 41)):
        try:
            slpi.noise(1, 0, 0, 0.5, steps, refine=refine, first=first) if steps < 16 else None
            c_ok = steps < 16 and refine <= 40
        except slpi.SlpiError:
            c_ok = False
        try:
            tnoise.check(1, [0], [0], 0.5, refine, first, steps)
            t_ok = True
        except slpi.SlpiError:
            t_ok = False
        assert t_ok == c_ok, (first, steps, refine)
    with pytest.raises(slpi.SlpiError):
        tnoise.increments(1, [2 ** 32], 1, 0.5, 2)


def test_flags_in_the_header(tmp_path):
    """every flag that changes PyTorch's arithmetic is in the file's header (its value, or
    absent where this PyTorch has none), set for the run and restored after; the verify
    precision follows from the flags"""
    old = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision("medium")    # a user's setting: the run sets highest, then restores it
    try:
        e = storch.run("iso/rigid-body/trajectories", paths=1, steps=4, precision="float32")
        assert torch.get_float32_matmul_precision() == "medium"
    finally:
        torch.set_float32_matmul_precision(old)
    head = open(storch.write(e, str(tmp_path))[0]).read().split("\nstep\t")[0]
    line = [ln for ln in head.splitlines() if ln.startswith("## slpi.torch flags: ")]
    assert len(line) == 1
    for name in storch.FLAGS:
        assert " %s=" % name in line[0] + " ", name
    assert " float32_matmul_precision=highest" in line[0] and e.verify_precision == "binary32"
    vp = storch.verify_precision
    off = {k: None for k in storch.FLAGS}
    assert vp("float32", off, "cpu") == "binary32" and vp("tf32", off, "cpu") == "tf32"
    assert vp("float32", dict(off, **{"backends.cuda.matmul.allow_tf32": True}), "cuda") == "tf32"
    assert vp("float32", dict(off, **{"backends.cuda.matmul.allow_tf32": True}), "cpu") == "binary32"
    assert vp("float32", dict(off, **{"backends.cudnn.fp32_precision": "tf32"}), "cuda") == "tf32"
    assert vp("float32", dict(off, **{"backends.mkldnn.matmul.fp32_precision": "tf32"}), "cpu") == "tf32"
    assert vp("float32", dict(off, float32_matmul_precision="high"), "cuda") == "tf32"
    assert vp("float32", dict(off, float32_matmul_precision="medium"), "cpu") == "bfloat16/binary32"
    assert vp("bfloat16", dict(off, float32_matmul_precision="medium"), "cpu") == "bfloat16"
    assert vp("float64", dict(off, float32_matmul_precision="medium"), "cuda") == "binary64"
    with pytest.raises(ValueError):
        vp("bfloat16", dict(off, **{"backends.cuda.matmul.allow_bf16_reduced_precision_reduction": True}), "cuda")


@pytest.mark.parametrize("keys", [dict(), dict(kappa=2), dict(rotation=3, background_modes="2:1:0.3"),
                                  dict(noise="L"), dict(noise="modes", noise_modes="1:0:0.2,2:1:0.1")], ids=str)
def test_poisson_route_is_the_modal_route(keys, monkeypatch):
    """Psi by the O(N^2) route (scanned Thomas solves, noise (Q) on the modes l >= N/2,
    docs/gpu.md#poisson) equals Psi by the full basis to 256 u of its size, su(9) (odd N:
    an unpaired middle diagonal) and su(16), binary64, random increments (a table built
    in binary32 was off by 1e-6), with the noise tables in one unfolded group (as up to
    su(64)) and in folded groups (diagonal 0 apart, as above su(128); odd and even
    diagonals, padded)"""
    from slpi.torch import euler_zeitlin
    from slpi.torch.euler_zeitlin import Stepper
    for N, bounds in ((9, None), (16, None), (9, [0, 1, 3, 9]), (16, [0, 1, 6, 16])):
        if bounds:
            monkeypatch.setattr(euler_zeitlin, "modes_groups", lambda N: (bounds, True))
        p, kv = storch._problem("iso/zeitlin/strong", dict(N=N, ic_lmax=5, steps=2, h=2.0 ** -8, **keys))
        S = Stepper(kv, p, slpi.run(p, steps=1, output_every=1).states[0], 2, torch.float64, torch.device("cpu"))
        assert [g[5] for g in S.modes.groups] == ([False] if not bounds else [False, True, True][:len(S.modes.groups)])
        eta = torch.from_numpy(np.random.default_rng(SEED).normal(size=(2, S.fam.M)) * 0.1)
        A = torch.from_numpy(np.random.default_rng(SEED + 1).normal(size=(2, N, N, 2))).to(torch.float64)
        A = torch.complex(A[..., 0], A[..., 1])
        A = A - A.conj().transpose(-1, -2)
        Y = torch.stack((A.real, A.imag), 1)
        out = []
        for fast in (True, False):
            S.fast = fast
            got = {}
            saved, storch.isomp.step = storch.isomp.step, lambda X, psi, *a: (got.setdefault("psi", psi(Y)), 0, 0, 0, 0, 1)
            try:
                S.step(eta, 1e-15, 10, "comm", None)
            finally:
                storch.isomp.step = saved
            out.append(got["psi"])
        size = max(float(t.abs().max()) for t in out[1])
        assert max(float((a - b).abs().max()) for a, b in zip(*out)) <= 256 * 2.0 ** -53 * size, (N, bounds, keys)


def test_noise_tables_folded():
    """the noise (Q) tables (slpi.torch.poisson.Modes) hold their diagonals' eigenvectors
    by parity halves above su(128), as the C path's parity blocks: at most 0.2 N^3 numbers
    at su(256), padding included (measured 0.189; 0.32 N^3 with whole vectors, as at
    su(128), where they are faster: docs/gpu.md#cost), and the step's Psi is unchanged (test_poisson_route_is_
    the_modal_route)"""
    from slpi.torch.poisson import Modes, Poisson
    from slpi.torch.euler_zeitlin import modes_groups
    for N in (256,):
        pois = Poisson(N, 0.0, 2.0 ** -8, torch.float64, "cpu")
        modes = Modes(N, N // 2, torch.float64, "cpu", modes_groups(N), pois.trace)
        print("test_torch: su(%d) noise tables %.3f N^3" % (N, modes.table_numbers() / N ** 3))
        assert modes.table_numbers() <= 0.2 * N ** 3, (N, modes.table_numbers() / N ** 3)


def test_device_operations_and_noise_bytes():
    """counted below autograd (slpi.torch.count, docs/gpu.md#cost): an Euler–Zeitlin step's
    device operations, its share of its 64-step noise chunk included, stay at most 200
    (measured 187 at su(8) in binary64, 159 at su(32), with the noise tables by parity
    halves; 180 and 154 with whole vectors; 208 and 164 with the noise apart
    before the trace's removal went into the noise tables' products, 450 and 332 before
    Psi's real form, the stopping rule's tables and the noise tables in one group) and at most
    42 (iterations + 1), growing with the iterations, not with N; the noise of a 64-step
    chunk at su(64) holds at most 32 bytes a normal at its peak (measured 29; it was 209)
    in at most 1700 operations (measured 1636; 2412 with a product per word), at su(256)
    too (measured 1636; 3266 with slices capped at 2^18 normals), and su(256)'s costs as
    many operations for 16 steps as for 8"""
    from slpi.torch.count import Count
    per_step = {}
    for N in (8, 32):
        counts = []
        for steps in (4, 8):
            with Count() as c:
                e = storch.run("iso/zeitlin/strong", paths=1, N=N, ic_lmax=min(11, N - 1), h=2.0 ** -8, steps=steps,
                               save_every=steps)
            counts.append(c.ops)
        with Count() as c:                       # both runs draw one chunk: its share a step, apart
            tnoise.increments(SEED, [0], N * N - (N // 2) ** 2, 2.0 ** -8, 64, truncate=0.1)
        per_step[N] = (counts[1] - counts[0]) / 4 + c.ops / 64
        print("test_torch: su(%d) %.1f operations a step, %.2f iterations" % (N, per_step[N], e.iterations.mean()))
        assert per_step[N] <= 42 * (e.iterations.mean() + 1), (N, per_step[N], e.iterations.mean())
    assert max(per_step.values()) <= 200, per_step
    for N in (64, 256):
        M = N * N - (N // 2) ** 2
        with Count() as c:
            z = tnoise.increments(SEED, [0], M, 2.0 ** -8, 64, truncate=0.1)
        assert z.shape == (1, 64, M) and c.peak_bytes <= 32 * z.numel(), (N, c.peak_bytes / z.numel())
        assert c.ops <= 1700, (N, c.ops)         # 8 slices, Philox's two products a round stacked (2412 apart)
    M, ops = 256 * 256 - 128 * 128, []        # su(256)'s noise: one block of every component is more
    for steps in (8, 16):                        # than a slice; sliced by components too, a request is
        with Count() as c:                       # eight slices whatever its steps (it was steps / 2)
            z = tnoise.increments(SEED, [0], M, 2.0 ** -8, steps)
        ops.append(c.ops)
    assert ops[1] <= 1.2 * ops[0], ops
    assert torch.equal(z[0, 0], tnoise.normals(SEED, 0, torch.arange(M), 0) * 2.0 ** -4)


def test_header_sweeps_of_a_run_without_steps(tmp_path):
    """the solver line states the sweeps S at the end, and says that no step was made where
    a result holds none (an ensemble with no step: S unset), not 'None'"""
    e = storch.run("iso/zeitlin/strong", paths=1, N=4, ic_lmax=3, steps=2, h=2.0 ** -8)
    line = [ln for ln in storch._header(e, 0) if ln.startswith("## slpi.torch solver:")][0]
    assert "; %d at the end)" % e.sweeps in line, line
    e.sweeps = None
    line = [ln for ln in storch._header(e, 0) if ln.startswith("## slpi.torch solver:")][0]
    assert "None" not in line and "none, no step made at the end" in line, line


def test_set_up_operations_grow_as_n():
    """the Euler–Zeitlin set-up (tables, scan multipliers, state) issues O(N) device
    operations, at most 10 N + 100 (measured 197, 315, 545 at su(16), su(32), su(64);
    it was 668, 2026, 7040: the Thomas factors one element at a time, N^2 operations with
    a host read each: on a GPU a sync each; docs/gpu.md#cost)"""
    from slpi.torch.count import Count
    from slpi.torch.euler_zeitlin import Stepper
    for N in (16, 32):
        p, kv = storch._problem("iso/zeitlin/strong", dict(N=N, ic_lmax=min(11, N - 1), h=2.0 ** -8, steps=1))
        x0 = slpi.run(p, steps=1, output_every=1).states[0]
        with Count() as c:
            Stepper(kv, p, x0, 1, torch.float64, torch.device("cpu"))
        assert c.ops <= 10 * N + 100, (N, c.ops)


def test_no_host_sync_in_a_step(monkeypatch):
    """a step reads nothing back to the host (isomp.solve's fixed sweeps with a device-side
    check, docs/gpu.md#how): with every host read of a tensor counted (item, tolist, cpu,
    bool, float, int, index; numpy needs cpu first), 32 more steps in chunks of 8 add at
    most one read a chunk (the rows and the check in one copy; it was one a step more);
    and a chunk where a path needed more sweeps than fixed is re-run: su(6) binary64 takes
    every step's iterations and state of slpi.run's cold-started path; the sweeps follow
    the iterations down (the last chunk's most, below the run's: an outlier costs its
    chunk, not the run)"""
    reads = [0]
    for name in ("item", "tolist", "cpu", "__bool__", "__float__", "__int__", "__index__"):
        def wrap(self, *a, _orig=getattr(torch.Tensor, name), **k):
            reads[0] += 1
            return _orig(self, *a, **k)
        monkeypatch.setattr(torch.Tensor, name, wrap)
    counts = []
    for steps in (16, 48):
        reads[0] = 0
        e = storch.run("iso/zeitlin/strong", paths=2, N=16, h=2.0 ** -8, steps=steps, chunk=8, save_every=1)
        counts.append(reads[0])
        assert e.reruns == 0 and e.states.shape[1] == steps + 1, (e.reruns, e.sweeps)
    assert counts[1] - counts[0] <= 4, counts
    monkeypatch.undo()
    k = dict(N=6, ic_lmax=5, steps=48, h=2.0 ** -8)
    e = storch.run("iso/zeitlin/strong", paths=2, chunk=8, **k)
    r = slpi.run("iso/zeitlin/strong", path=1, warm_start=0, **k)
    assert e.reruns >= 1 and (e.iterations[1] == r.iterations[1:]).all(), (e.reruns, e.sweeps)
    assert e.sweeps == e.iterations[:, -8:].max() < e.iterations.max(), (e.sweeps, e.iterations.max(0))
    assert np.abs(e.states[1] - r.states).max() <= 64 * 2.0 ** -53 * np.abs(r.states).max()
