"""Bad input to the Python API: each row a clear SlpiError (a ValueError) naming the
argument, never a crash or a raw TypeError; arrays that are merely non-contiguous or of
another real dtype are accepted and give the same result."""
import numpy as np
import pytest

import slpi

RB = "iso/rigid-body/trajectories"
ROWS = [
    # (call, argument named in the message)
    (lambda: slpi.run(RB, dW="abc"), "dW"),
    (lambda: slpi.run(RB, dW=np.ones((4, 3), dtype=complex)), "dW"),
    (lambda: slpi.run(RB, dW=np.ones((4, 3), dtype=object)), "dW"),
    (lambda: slpi.run(RB, dW=np.ones(4)), "dW"),
    (lambda: slpi.run(RB, dW=np.ones((4, 2))), "dW"),
    (lambda: slpi.run(RB, dW=np.ones((4, 3)), steps=5), "dW"),
    (lambda: slpi.run(RB, dW=np.full((4, 3), np.nan)), "dW"),
    (lambda: slpi.run(RB, dW=[[1, 2, 3], [4, 5]]), "dW"),
    (lambda: slpi.run(RB, x0=np.ones((1, 3))), "x0"),
    (lambda: slpi.run(RB, x0=[1.0, 2.0]), "x0"),
    (lambda: slpi.run(RB, x0=["a", "b", "c"]), "x0"),
    (lambda: slpi.run(RB, x0=[np.inf, 0, 0]), "x0"),
    (lambda: slpi.run("iso/zeitlin/long", N=3, ic_lmax=2, x0=np.ones(9)), "x0"),
    (lambda: slpi.run("rkmk/heavy-top/stoch-421-realization", x0=np.ones(6)), "x0"),
    # a mode given twice: refused on both paths, naming the entry
    (lambda: slpi.run("iso/zeitlin/long", N=4, ic_lmax=3, steps=1, noise="modes",
                      noise_modes="1:0:0.1,2:1:0.2,1:0:0.3"), "entry 3 '1:0:0.3' repeats the mode (l, m) = (1, 0)"),
    (lambda: slpi.run("iso/zeitlin/long", N=4, ic_lmax=3, steps=1, ref=True, noise="modes",
                      noise_modes="1:0:0.1,1:0:0.1"), "noise_modes: entry 2"),
    (lambda: slpi.run(RB, steps=-5), "steps"),
    (lambda: slpi.run(RB, steps=10 ** 30), "steps"),
    (lambda: slpi.run(RB, steps=None), "steps"),
    (lambda: slpi.run(RB, steps=10 ** 12), "max_memory"),
    (lambda: slpi.run(RB, h=float("nan")), "h"),
    (lambda: slpi.run(RB, output_every=0), "output_every"),
    (lambda: slpi.run(RB, tol="abc"), "tol"),
    (lambda: slpi.run(5), "preset"),
    (lambda: slpi.run("no/such/preset"), "preset"),
    (lambda: slpi.ensemble(RB, paths=-1), "paths"),
    (lambda: slpi.ensemble(RB, paths=None), "paths"),
    (lambda: slpi.ensemble(RB, paths=2.5), "paths"),
    (lambda: slpi.ensemble(RB, paths=10 ** 30), "paths"),
    (lambda: slpi.ensemble(RB, paths=2, first_path=-1), "first_path"),
    (lambda: slpi.ensemble(RB, paths=2, save_every=0), "save_every"),
    (lambda: slpi.ensemble(RB, paths=2, out="x.npy"), "save_every"),
    (lambda: slpi.noise(1, 0, 0, 0, 5), "h"),
    (lambda: slpi.noise(1, 0, 0, -0.01, 5), "h"),
    (lambda: slpi.noise(1, 0, 0, float("nan"), 5), "h"),
    (lambda: slpi.noise(1, 0, 0, None, 5), "h"),
    (lambda: slpi.noise(1, 0, 0, 2e6, 5), "h"),
    (lambda: slpi.noise(1, 0, 0, 0.01, 5, refine=41), "refine"),
    (lambda: slpi.noise(1, 0, 0, 0.01, 5, refine=-1), "refine"),
    (lambda: slpi.noise(1, 0, 0, 0.01, 5, refine=40), "refine=40: 5 increments"),   # the work bound
    (lambda: slpi.run(RB, refine=37), "refine=37"),
    (lambda: slpi.noise(1, 0, 0, 0.01, -1), "steps"),
    (lambda: slpi.noise(1, 0, 0, 0.01, 10 ** 12), "max_memory"),
    (lambda: slpi.noise(-1, 0, 0, 0.01, 5), "seed"),
    (lambda: slpi.noise(1, 2 ** 32, 0, 0.01, 5), "path"),
    (lambda: slpi.converge("iso/rigid-body/strong", levels=(5, 2)), "levels"),
    (lambda: slpi.converge("iso/rigid-body/strong", kind=None), "kind"),
    (lambda: slpi.converge("iso/rigid-body/strong", paths=0), "paths"),
    (lambda: slpi.pack_su(None), "X"),
    (lambda: slpi.pack_su(np.ones((2, 3))), "X"),
    (lambda: slpi.unpack_su(np.ones(5)), "v"),
    (lambda: slpi.unpack_so(np.ones(4)), "v"),
    (lambda: slpi.unpack_so(None), "v"),
    (lambda: slpi.verify("/nonexistent/file.tsv"), "/nonexistent/file.tsv"),
    (lambda: slpi.read_trajectory(__file__), "slpi-trajectory"),
    (lambda: slpi.Problem(RB, inertia=None), "inertia"),
    # NUL in any text passed to C (C would read the text before it: another problem)
    (lambda: slpi.Model("so3", "x1^2\x00+x2^2", x0=[1, 0.5, 0.2]), "H"),
    (lambda: slpi.Model("so3", "x1^2", noise=["x1\x00+x2"], x0=[1, 0.5, 0.2]), "noise[0]"),
    (lambda: slpi.Model("so3\x00x", "x1^2", x0=[1, 0.5, 0.2]), "algebra"),
    (lambda: slpi.Model("so3", "a*x1^2", params={"a\x00b": 1}, x0=[1, 0.5, 0.2]), "params key"),
    (lambda: slpi.Model("so3", "a*x1^2", params={"a": "1\x002"}, x0=[1, 0.5, 0.2]), "params['a']"),
    (lambda: slpi.run(RB, noise_file="a\x00b"), "noise_file"),
    (lambda: slpi.run(RB, **{"seed\x00x": 1}), "key"),
    (lambda: slpi.run(RB + "\x00zz"), "preset"),
    (lambda: slpi.verify("a\x00b"), "path"),
    (lambda: slpi.verify(__file__, noise_file="a\x00b"), "noise_file"),
    (lambda: slpi.verify(__file__, precision="binary32\x00x"), "option"),
    (lambda: slpi.verify([__file__, "a\x00b"]), "path"),
    (lambda: slpi.write_noise("a\x00b", np.zeros((2, 3)), 0.01), "file"),
    (lambda: slpi.converge("iso/rigid-body/strong", phi="x1\x00x2"), "phi"),
    (lambda: slpi.golden("a\x00b"), "directory"),
    (lambda: slpi.converge("iso/rigid-body/strong", kind="strong\x00x"), "kind"),
    (lambda: slpi.converge("iso/rigid-body/strong", indep="tmk\x00"), "indep"),
    (lambda: slpi.read_trajectory("a\x00b"), "path"),
    (lambda: slpi.ensemble(RB, paths=2, save_every=1, out="a\x00b.npy"), "out"),
    # bad types: an SlpiError naming the argument, never a raw TypeError or OverflowError
    (lambda: slpi.Model("so3", "x1^2", noise=None, x0=[1, 0.5, 0.2]), "noise"),
    (lambda: slpi.Model("so3", "x1^2", noise={"x1": 1}, x0=[1, 0.5, 0.2]), "noise"),
    (lambda: slpi.Model("so3", "x1^2", noise={"x1"}, x0=[1, 0.5, 0.2]), "noise"),
    (lambda: slpi.Model("so3", "a*x1^2", params={"a": 10 ** 400}, x0=[1, 0.5, 0.2]), "params['a']"),
    (lambda: slpi.Model("so3", "a*x1^2", params={"a": float("inf")}, x0=[1, 0.5, 0.2]), "params['a']"),
    (lambda: slpi.Model("so3", "a*x1^2", params={1: 2.0}, x0=[1, 0.5, 0.2]), "params key"),
    (lambda: slpi.Model(None, "x1^2", x0=[1, 0.5, 0.2]), "algebra"),
    (lambda: slpi.run(slpi.Model("su(9)", "ImX_0_0^2", x0=np.ones(80)), steps=2), "x0"),   # in a file: named x0
    (lambda: slpi.run(RB, ref="yes"), "ref"),
    (lambda: slpi.run(RB, progress=None), "progress"),
    (lambda: slpi.run(RB, max_memory="1GB"), "max_memory"),
    (lambda: slpi.ensemble(RB, paths=2, save_every=1, diagnostics="no"), "diagnostics"),
    (lambda: slpi.run(RB, h=object()), "h"),
    (lambda: slpi.run(RB, x0_file=5.5j), "x0_file"),
    (lambda: slpi.verify(None), "path"),
    (lambda: slpi.verify(5), "path"),
    (lambda: slpi.golden(3), "directory"),
    (lambda: slpi.read_trajectory(None), "path"),
    (lambda: slpi.read_trajectory("/nonexistent/file.tsv"), "path"),
    (lambda: slpi.converge("iso/rigid-body/strong", indep=5), "indep"),
    # path= on the commands that number their paths themselves (it was ignored)
    (lambda: slpi.ensemble(RB, paths=3, steps=4, path=3), "path=3: an ensemble runs the noise paths first_path"),
    (lambda: slpi.converge("iso/rigid-body/weak", kind="weak", levels=(2, 3), ref=5, paths=4, boot=0, path=3),
     "path=3: converge runs the noise paths path0"),
    (lambda: slpi.mlmc("iso/rigid-body/weak", rmse=0.1, path=3), "path=3: mlmc numbers its noise paths itself"),
]


@pytest.mark.parametrize("call,argument", ROWS, ids=[str(i) for i in range(len(ROWS))])
def test_bad_input_is_a_named_slpi_error(call, argument):
    with pytest.raises(slpi.SlpiError) as e:
        call()
    assert isinstance(e.value, ValueError) and e.value.code == 2
    assert argument in str(e.value), str(e.value)


def test_other_layouts_are_accepted():
    ref = slpi.run(RB, dW=0.01 * np.ones((6, 3)), truncate="off")
    wide = 0.01 * np.ones((6, 6))
    assert not wide[:, ::2].flags.c_contiguous
    assert np.array_equal(slpi.run(RB, dW=wide[:, ::2], truncate="off").states, ref.states)
    assert np.array_equal(slpi.run(RB, dW=np.ones((6, 3), dtype=np.float32) * np.float32(0.01),
                                   truncate="off").states.shape, ref.states.shape)
    x0 = np.array([0.0, 0.6, 0.0, 0.8])[1:]
    assert np.array_equal(slpi.run(RB, steps=3, x0=x0[::-1][::-1]).states[0], [0.6, 0.0, 0.8])
    assert slpi.run(RB, steps=np.int64(3)).states.shape == (4, 3)


def test_noise_file_of_another_path(tmp_path):
    """A noise file's own seed, path and refine are the problem's, or the problem says
    seed="file" and takes them (docs/noise.md#files): else an SlpiError naming noise_file,
    both values and the file. The finished problem's text records the file's own seed,
    path and FNV-1a 64 digest of its bytes (computed here byte by byte)."""
    h, steps = 2.0 ** -8, 6
    dW = np.column_stack([slpi.noise(5, 2, k, h, steps) for k in range(3)])
    f = tmp_path / "s5p2.noise"
    with open(f, "w") as out:
        out.write("# slpi-noise 1\n# seed 5\n# path 2\n# components 3\n# h %s %.17g\n# refine 0\n# truncate off\n"
                  "# first 0\n# steps %d\n# columns dW_1..dW_3 (%%a), then dW_1..dW_3 (%%.17g)\n"
                  % (float(h).hex(), h, steps))
        for row in dW:
            out.write("\t".join([float(v).hex() for v in row] + ["%.17g" % v for v in row]) + "\n")
    with pytest.raises(slpi.SlpiError) as e:
        slpi.run(RB, h=h, steps=steps, noise_file=str(f))
    assert e.value.code == 2 and e.value.argument == "noise_file", str(e.value)
    assert str(f) in str(e.value) and "own seed is 5, the problem has seed=1 " in str(e.value), str(e.value)
    with pytest.raises(slpi.SlpiError) as e:
        slpi.run(RB, h=h, steps=steps, noise_file=str(f), seed=5)
    assert e.value.argument == "noise_file" and "own path is 2, the problem has path=0 " in str(e.value), str(e.value)
    r = slpi.run(RB, h=h, steps=steps, noise_file=str(f), seed="file")
    assert np.array_equal(r.states, slpi.run(RB, h=h, steps=steps, seed=5, path=2).states)
    digest = 0xcbf29ce484222325
    for b in f.read_bytes():
        digest = ((digest ^ b) * 0x100000001b3) & (2 ** 64 - 1)
    text = slpi.Problem(RB, h=h, steps=steps, noise_file=str(f), seed="file").text().splitlines()
    assert "seed=5" in text and "path=2" in text and "noise_digest=%d" % digest in text, text
