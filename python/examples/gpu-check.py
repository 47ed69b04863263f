"""gpu-check.py — slpi.torch on a GPU, in one run (docs/gpu.md#check): the canonical
noise on the device against slpi's own, an N = 256 Euler–Zeitlin run in each format
(float64, float32, tf32, bfloat16) written as trajectories for `slpi verify`, and the
timings (a step at N = 256..2048 and its products, the rigid-body ensemble's
path-steps/s), with a JSON summary, all under one folder.

usage: python3 gpu-check.py [FOLDER] [--device cuda|cpu] [--sizes 256,512,1024,2048]
                            [--steps 16] [--paths 2] [--verify] [--quick]
FOLDER (default gpu-check-out) receives FORMAT/path-K.tsv, summary.json and, with
--verify, verify-FORMAT.json (slpi verify --local --sample 4 --precision P, pooled
paths). Without a GPU it runs on the CPU; as `gpu-check.py X.png` (how the examples are
run by make check) it runs --quick on the CPU into X.png's folder: su(8), a few steps.
Needs slpi's Python package with libslpi (make) and PyTorch; exits 0 with a message
where PyTorch is missing."""
import json
import os
import sys
import time


def args(argv):
    a = dict(folder="gpu-check-out", device=None, sizes="256,512,1024,2048", steps=16, paths=2, verify=False,
             quick=False)
    it = iter(argv[1:])
    for v in it:
        if v.startswith("--"):
            k = v[2:]
            a[k] = True if k in ("verify", "quick") else next(it)
        else:
            a["folder"] = v
    if a["folder"].endswith(".png"):   # make check's way of running the examples
        a["folder"], a["quick"], a["device"] = os.path.splitext(a["folder"])[0] + "-gpu-check", True, "cpu"
    return a


def noise_kat(tn, slpi, torch, dev, quick):
    """the device's increments against slpi's (slpi.noise) and the CPU's, bit for bit"""
    import random
    rng = random.Random(67)
    cases, bad = 0, []
    for _ in range(4 if quick else 40):
        seed, path, comp = rng.randrange(1 << 64), rng.randrange(1 << 32), rng.randrange(1 << 20)
        h, steps, refine, first = rng.uniform(1e-4, 0.9), rng.randrange(1, 200), rng.randrange(0, 5), rng.randrange(1 << 30)
        want = slpi.noise(seed, path, comp, h, steps, refine=refine, first=first)
        got = tn.increments(seed, path, [comp], h, steps, refine=refine, first=first, device=dev)[0, :, 0].cpu()
        cases += 1
        if not torch.equal(got.view(torch.int64), torch.from_numpy(want).view(torch.int64)):
            bad.append(dict(seed=seed, path=path, component=comp, h=h, steps=steps, refine=refine, first=first))
    n = 1 << (12 if quick else 22)   # many normals of one stream: the device's against the CPU's
    j = torch.arange(n, dtype=torch.int64)
    same = torch.equal(tn.normals(7, 3, 5, j.to(dev)).cpu().view(torch.int64), tn.normals(7, 3, 5, j).view(torch.int64))
    return dict(verdict="PASS" if not bad and same else "FAIL", tuples=cases, mismatched=bad,
                device_vs_cpu_normals=n, device_vs_cpu_equal=same)


def timed_step(storch, torch, dev, N, precision, steps):
    """seconds per step of one path (wall, synchronised), iterations, peak device memory"""
    if dev.type == "cuda":
        torch.cuda.reset_peak_memory_stats()
    e = storch.run("iso/zeitlin/strong", paths=1, N=N, ic_lmax=min(11, N - 1), h=2.0 ** -8, steps=steps, precision=precision,
                   device=dev, save_every=steps)
    mem = torch.cuda.max_memory_allocated() / 2 ** 30 if dev.type == "cuda" else None
    return e.seconds / steps, float(e.iterations.mean()), mem


def product_seconds(torch, dev, N, dtype, tf32):
    a, b = torch.randn(N, N, dtype=dtype, device=dev), torch.randn(N, N, dtype=dtype, device=dev)
    old = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = tf32
    a @ b
    if dev.type == "cuda":
        torch.cuda.synchronize()
    t, reps = time.perf_counter(), 10
    for _ in range(reps):
        a @ b
    if dev.type == "cuda":
        torch.cuda.synchronize()
    torch.backends.cuda.matmul.allow_tf32 = old
    return (time.perf_counter() - t) / reps


def main(argv):
    a = args(argv)
    try:
        import torch
    except ImportError as e:
        print("gpu-check: SKIP: PyTorch is not installed (%s)" % e)
        return 0
    import slpi
    import slpi.torch as storch
    from slpi.torch import noise as tn
    dev = torch.device(a["device"] or ("cuda" if torch.cuda.is_available() else "cpu"))
    quick, folder = a["quick"], a["folder"]
    os.makedirs(folder, exist_ok=True)
    name = torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu"
    summary = dict(device=str(dev), device_name=name, torch=torch.__version__, slpi=slpi.__version__,
                   gpu=dev.type == "cuda")
    print("gpu-check on %s (%s), torch %s" % (dev, name, torch.__version__))
    summary["noise_kat"] = noise_kat(tn, slpi, torch, dev, quick)
    print("noise_kat: %s" % summary["noise_kat"]["verdict"])
    N = 8 if quick else 256
    steps = 4 if quick else int(a["steps"])
    runs = {}
    for precision in ("float64", "float32", "tf32", "bfloat16"):
        e = storch.run("iso/zeitlin/strong", paths=int(a["paths"]), N=N, ic_lmax=min(11, N - 1), h=2.0 ** -8,
                       steps=steps, precision=precision, device=dev)
        files = storch.write(e, os.path.join(folder, precision))
        r = dict(files=files, verify_precision=e.verify_precision, seconds_per_step=e.seconds / steps,
                 mean_iterations=float(e.iterations.mean()), capped=int(e.capped.sum()),
                 command="slpi verify --local --sample 4 --precision %s %s" % (e.verify_precision, " ".join(files)))
        if a["verify"]:
            v = slpi.verify(files, precision=e.verify_precision, global_=False, sample=4, threads=1)
            r["verdict"] = v.verdict
            with open(os.path.join(folder, "verify-%s.json" % precision), "w") as f:
                json.dump(dict(verdict=v.verdict, proof=str(v.proof)), f, indent=1)
        runs[precision] = r
        print("%s: N = %d, %d paths x %d steps, %.3g s/step, %.2f iterations%s" %
              (precision, N, int(a["paths"]), steps, r["seconds_per_step"], r["mean_iterations"],
               ", verify: " + r["verdict"] if "verdict" in r else ""))
    summary["runs"] = runs
    timing = []
    sizes = [8, 16] if quick else [int(v) for v in str(a["sizes"]).split(",")]
    for n in sizes:
        for precision in ("float64", "float32", "tf32"):
            try:
                s, it, mem = timed_step(storch, torch, dev, n, precision, 3 if quick else 8)
            except RuntimeError as err:   # out of memory: say so and go on
                timing.append(dict(N=n, precision=precision, error=str(err)[:200]))
                continue
            dt = torch.float64 if precision == "float64" else torch.float32
            prod = 4 * (2 * it + 2) * product_seconds(torch, dev, n, dt, precision == "tf32")
            timing.append(dict(N=n, precision=precision, ms_per_step=1e3 * s, iterations=it, memory_gib=mem,
                               step_over_products=s / prod))
            print("N = %d %s: %.3g ms/step, %.2f iterations, step/products %.2f%s" %
                  (n, precision, 1e3 * s, it, s / prod, ", %.2f GiB" % mem if mem is not None else ""))
    summary["zeitlin_timing"] = timing
    P = 1000 if quick else 1 << 20
    e = storch.run("iso/rigid-body/trajectories", paths=P, steps=4 if quick else 64, precision="float32", device=dev,
                   save_every=4 if quick else 64)
    summary["rigid_body"] = dict(paths=P, steps=int(e.step[-1]), path_steps_per_second=P * int(e.step[-1]) / e.seconds)
    print("rigid body float32: %.3g path-steps/s (%d paths)" % (summary["rigid_body"]["path_steps_per_second"], P))
    with open(os.path.join(folder, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print("wrote %s" % os.path.join(folder, "summary.json"))
    ok = summary["noise_kat"]["verdict"] == "PASS" and all(r.get("verdict", "PASS") == "PASS" for r in runs.values())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
