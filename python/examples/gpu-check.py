"""gpu-check.py — slpi.torch on a GPU, in one run (docs/gpu.md#check): the canonical
noise on the device against slpi's own, an Euler–Zeitlin run in each format (float64,
float32, tf32, bfloat16) written as trajectories for `slpi verify`, and the timings (a
step at each size and its products, the rigid-body ensemble's path-steps/s, a profile of
the step), with a JSON
summary, all under one folder. It cannot lose a run: every part (each format, each size
and format, the rigid body) runs in its own try, an error is recorded in the summary and
the next part runs, and summary.json is rewritten after every part.

usage: python3 gpu-check.py [FOLDER] [--device cuda|cpu] [--budget SECONDS]
                            [--sizes 256,512,1024] [--steps 16] [--paths 2] [--verify] [--quick]
FOLDER (default gpu-check-out) receives FORMAT/path-K.tsv, summary.json and, with
--verify, verify-FORMAT.json (slpi verify --local --sample 4 --precision P, pooled
paths). --budget (default 480 s) plans the parts to fit: a calibration at su(16) and
su(32) sets a cost model (step time growing as N^p, p from the two sizes, held in 2..3),
the plan is printed first, and before each part the model, updated with every size
measured, skips what no longer fits (recorded as skipped). Sizes are ones the C library
accepts (N <= 1024). Without a GPU it runs on the CPU; as `gpu-check.py X.png` (how the
examples are run by make check) it runs --quick on the CPU into X.png's folder.
SLPI_GPU_CHECK_FAIL=PART (a part's name, e.g. runs.float32) makes that part raise: the
test of the script's own error handling. Exit status: 0 when every part that ran
succeeded and every verdict is PASS, 1 otherwise. Needs slpi's Python package with
libslpi (make) and PyTorch; exits 0 with a message where PyTorch is missing."""
import json
import math
import os
import sys
import time

FORMATS = ("float64", "float32", "tf32", "bfloat16")
N_MAX = 1024          # the C library's largest su(N) (core/problem-key-table.c)


def args(argv):
    a = dict(folder="gpu-check-out", device=None, sizes="256,512,1024", steps=16, paths=2, verify=False,
             quick=False, budget=480)
    it = iter(argv[1:])
    for v in it:
        if v.startswith("--"):
            k = v[2:]
            a[k] = True if k in ("verify", "quick") else next(it)
        else:
            a["folder"] = v
    if a["folder"].endswith(".png"):   # make check's way of running the examples
        a["folder"], a["quick"], a["device"] = os.path.splitext(a["folder"])[0] + "-gpu-check", True, "cpu"
    a["budget"] = float(a["budget"])
    a["sizes"] = [int(v) for v in str(a["sizes"]).split(",")]
    bad = [n for n in a["sizes"] if not 2 <= n <= N_MAX]
    if bad:
        raise SystemExit("gpu-check: --sizes %s: su(N) needs 2 <= N <= %d" % (bad, N_MAX))
    return a


class Model:
    """seconds of a one-path step and of the set-up at su(N), from the sizes measured:
    a power law through the two largest measured at or below N (exponent held in 2..3
    for the step, 2..4 for the set-up), so that each new size refines the plan"""

    def __init__(self):
        self.step, self.setup, self.normal = {}, {}, 1e-6
        self.event, self.events16 = 0.0, 0.0   # the profiler's seconds an event; events at su(16)

    def add(self, N, step, setup):
        self.step[N], self.setup[N] = max(step, 1e-6), max(setup, 1e-6)

    @staticmethod
    def _law(table, N, lo, hi):
        ks = sorted(table)
        below = [k for k in ks if k <= N] or ks[:1]
        a = below[-1]
        prev = [k for k in ks if k < a]
        p = hi if not prev else min(hi, max(lo, math.log(table[a] / table[prev[-1]]) / math.log(a / prev[-1])))
        return table[a] * max(1.0, N / a) ** p

    def step_s(self, N):
        return self._law(self.step, N, 2.0, 3.0)

    def setup_s(self, N):
        return self._law(self.setup, N, 2.0, 4.0)

    def run_s(self, N, steps, paths=1, formats=1):
        return formats * (self.setup_s(N) + steps * paths * self.step_s(N))

    def profile_s(self, N, steps):
        """a profiled run: the run, and the profiler's recording and averaging of its
        events (the set-up's are most: their number grows below N^2, taken as N^2)"""
        return self.run_s(N, steps) + self.event * self.events16 * (N / 16.0) ** 2


class PlantedFailure(Exception):
    """SLPI_GPU_CHECK_FAIL's error: not a RuntimeError (nor are the C library's refusals,
    slpi.SlpiError, a ValueError): every Exception must be caught"""


class Check:
    """the parts, their plan and the summary, rewritten after every part"""

    def __init__(self, folder, budget, summary):
        self.folder, self.budget, self.summary = folder, budget, summary
        self.t0 = time.perf_counter()
        self.failed = False
        self.margin = 1.25     # a part runs when margin x its estimate fits: at least 1.25, then
                               # the largest ratio of a part's seconds to its estimate so far
        summary.update(parts={}, budget_seconds=budget)

    def left(self):
        return self.budget - (time.perf_counter() - self.t0)

    def save(self):
        name = os.path.join(self.folder, "summary.json")
        self.summary["elapsed_seconds"] = time.perf_counter() - self.t0
        with open(name + ".tmp", "w") as f:
            json.dump(self.summary, f, indent=1)
        os.replace(name + ".tmp", name)

    def part(self, name, estimate, fn, reserve=0.0):
        """run fn() as part `name` unless its estimate, times the margin, exceeds what is
        left of the budget less `reserve` (what later parts need); its result, error or
        skip goes into the summary, which is rewritten"""
        if self.margin * estimate > self.left() - reserve:
            rec = dict(status="skipped", reason="budget: estimated %.3g s (x %.2g, the model's error), %.3g s left, "
                       "%.3g s kept for later parts" % (estimate, self.margin, self.left(), reserve))
            print("%s: skipped (%s)" % (name, rec["reason"]))
        else:
            t = time.perf_counter()
            try:
                if os.environ.get("SLPI_GPU_CHECK_FAIL") == name:
                    raise PlantedFailure("SLPI_GPU_CHECK_FAIL=%s: a failure planted in this part" % name)
                rec = dict(status="ok", result=fn())
            except Exception as err:   # any error: recorded, and the next part runs
                rec = dict(status="error", error="%s: %s" % (type(err).__name__, str(err)[:400]))
                self.failed = True
                print("%s: error: %s" % (name, rec["error"]))
            rec.update(seconds=time.perf_counter() - t, estimated_seconds=estimate)
            if estimate >= 0.01 * self.budget:   # the model's error so far, on parts long enough to time
                self.margin = max(self.margin, rec["seconds"] / estimate)
        self.summary["parts"][name] = rec
        self.save()
        return rec.get("result")


def noise_kat(tn, slpi, torch, dev, tuples, n):
    """the device's increments against slpi's (slpi.noise) on random tuples, and n
    normals of one stream on the device and the CPU, bit for bit"""
    import random
    rng = random.Random(67)
    cases, bad = 0, []
    for _ in range(tuples):
        seed, path, comp = rng.randrange(1 << 64), rng.randrange(1 << 32), rng.randrange(1 << 20)
        h, steps, refine, first = rng.uniform(1e-4, 0.9), rng.randrange(1, 200), rng.randrange(0, 5), rng.randrange(1 << 30)
        want = slpi.noise(seed, path, comp, h, steps, refine=refine, first=first)
        got = tn.increments(seed, path, [comp], h, steps, refine=refine, first=first, device=dev)[0, :, 0].cpu()
        cases += 1
        if not torch.equal(got.view(torch.int64), torch.from_numpy(want).view(torch.int64)):
            bad.append(dict(seed=seed, path=path, component=comp, h=h, steps=steps, refine=refine, first=first))
    j = torch.arange(n, dtype=torch.int64)
    same = torch.equal(tn.normals(7, 3, 5, j.to(dev)).cpu().view(torch.int64), tn.normals(7, 3, 5, j).view(torch.int64))
    return dict(verdict="PASS" if not bad and same else "FAIL", tuples=cases, mismatched=bad,
                device_vs_cpu_normals=n, device_vs_cpu_equal=same)


def zeitlin(storch, N, steps, paths, precision, dev, save_every=None):
    """an iso/zeitlin/strong run and its wall time with the set-up; rows at the start and
    the end unless save_every says more"""
    t = time.perf_counter()
    e = storch.run("iso/zeitlin/strong", paths=paths, N=N, ic_lmax=min(11, N - 1), h=2.0 ** -8, steps=steps,
                   precision=precision, device=dev, save_every=save_every or steps)
    return e, time.perf_counter() - t


def calibrate(storch, tn, torch, model, dev):
    """the model's first two sizes: su(16) and su(32), float64, one path, 2 steps; the
    seconds of a normal (2^14 of them on the device and on the CPU); and the profiler's
    cost, its events and seconds an event, over that su(16) run profiled"""
    for N in (16, 32):
        e, wall = zeitlin(storch, N, 2, 1, "float64", dev)
        model.add(N, e.seconds / 2, wall - e.seconds)
    t = time.perf_counter()
    j = torch.arange(1 << 14, dtype=torch.int64)
    tn.normals(7, 3, 5, j.to(dev)).cpu()
    tn.normals(7, 3, 5, j)
    model.normal = (time.perf_counter() - t) / (1 << 14)
    from torch.profiler import profile as prof
    t = time.perf_counter()
    with prof(activities=activities(dev)) as p:
        zeitlin(storch, 16, 2, 1, "float64", dev)
    model.events16 = float(sum(k.count for k in p.key_averages()))
    model.event = max(0.0, time.perf_counter() - t - model.run_s(16, 2)) / max(1.0, model.events16)
    return dict(sizes={str(N): dict(step_seconds=model.step[N], setup_seconds=model.setup[N]) for N in model.step},
                normal_seconds=model.normal, profiler_events_su16=model.events16, profiler_seconds_per_event=model.event)


def format_run(storch, slpi, a, folder, N, steps, precision, dev):
    e, _ = zeitlin(storch, N, steps, int(a["paths"]), precision, dev, save_every=1)   # every step: statistics rows
    e_files = storch.write(e, os.path.join(folder, precision))
    r = dict(N=N, files=e_files, verify_precision=e.verify_precision, seconds_per_step=e.seconds / steps,
             mean_iterations=float(e.iterations.mean()), capped=int(e.capped.sum()),
             command="slpi verify --local --sample 4 --precision %s %s" % (e.verify_precision, " ".join(e_files)))
    if a["verify"]:
        v = slpi.verify(e_files, precision=e.verify_precision, global_=False, sample=4, threads=1)
        r["verdict"] = v.verdict
        with open(os.path.join(folder, "verify-%s.json" % precision), "w") as f:
            json.dump(dict(verdict=v.verdict, proof=str(v.proof)), f, indent=1)
    print("runs.%s: N = %d, %d paths x %d steps, %.3g s/step, %.2f iterations%s" %
          (precision, N, int(a["paths"]), steps, r["seconds_per_step"], r["mean_iterations"],
           ", verify: " + r["verdict"] if "verdict" in r else ""))
    return r


def product_seconds(torch, dev, N, dtype, tf32):
    a, b = torch.randn(N, N, device=dev).to(dtype), torch.randn(N, N, device=dev).to(dtype)
    old = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = tf32
    try:
        a @ b
        if dev.type == "cuda":
            torch.cuda.synchronize()
        t, reps = time.perf_counter(), 10
        for _ in range(reps):
            a @ b
        if dev.type == "cuda":
            torch.cuda.synchronize()
    finally:
        torch.backends.cuda.matmul.allow_tf32 = old
    return (time.perf_counter() - t) / reps


def timed_step(storch, torch, model, dev, N, precision, steps):
    """ms per step of one path (wall, synchronised), iterations, peak device memory, and
    the step over its matrix products (4 real products per complex one, 2 an iteration + 2)"""
    if dev.type == "cuda":
        torch.cuda.reset_peak_memory_stats()
    e, wall = zeitlin(storch, N, steps, 1, precision, dev)
    s = e.seconds / steps
    if precision == "float64":
        model.add(N, s, wall - e.seconds)
    mem = torch.cuda.max_memory_allocated() / 2 ** 30 if dev.type == "cuda" else None
    it = float(e.iterations.mean())
    dt = {"float64": torch.float64, "bfloat16": torch.bfloat16}.get(precision, torch.float32)
    prod = 4 * (2 * it + 2) * product_seconds(torch, dev, N, dt, precision == "tf32")
    print("timing.N=%d.%s: %.3g ms/step, %.2f iterations, step/products %.2f%s" %
          (N, precision, 1e3 * s, it, s / prod, ", %.2f GiB" % mem if mem is not None else ""))
    return dict(N=N, precision=precision, ms_per_step=1e3 * s, iterations=it, memory_gib=mem,
                step_over_products=s / prod)


def activities(dev):
    """what torch.profiler records: the host's operations, and the device's kernels on CUDA"""
    from torch.profiler import ProfilerActivity
    return [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if dev.type == "cuda" else [])


def profile(storch, torch, dev, N, precision, steps):
    """where a step's time goes: torch.profiler over `steps` steps of one path at su(N)
    (set-up included, as its own operations: linalg_eigh), the 20 operations with most
    device time (self; CPU time on the CPU), their calls, and the host synchronisations
    (aten::item and aten::_local_scalar_dense calls)"""
    from torch.profiler import profile as prof
    with prof(activities=activities(dev)) as p:
        e, wall = zeitlin(storch, N, steps, 1, precision, dev)
    ka = p.key_averages()

    def device_us(k):   # PyTorch >= 2.4 says device, older cuda; on the CPU the CPU's
        if dev.type != "cuda":
            return k.self_cpu_time_total
        return getattr(k, "self_device_time_total", None) or getattr(k, "self_cuda_time_total", 0)
    top = sorted(ka, key=device_us, reverse=True)[:20]
    calls = {k.key: k.count for k in ka}
    r = dict(N=N, precision=precision, steps=steps, ms_per_step=1e3 * e.seconds / steps, wall_seconds=wall,
             operations=sum(k.count for k in ka), self_ms=sum(device_us(k) for k in ka) / 1e3,
             syncs=calls.get("aten::item", 0) + calls.get("aten::_local_scalar_dense", 0),
             top=[dict(name=k.key, calls=k.count, self_ms=device_us(k) / 1e3, cpu_ms=k.cpu_time_total / 1e3)
                  for k in top])
    print("profile.N=%d.%s: %d operations, %d syncs, %.3g ms self time in %.3g s; most: %s" %
          (N, precision, r["operations"], r["syncs"], r["self_ms"], wall,
           ", ".join("%s %.3g ms" % (t["name"], t["self_ms"]) for t in r["top"][:4])))
    return r


def rigid(storch, dev, paths, steps):
    e = storch.run("iso/rigid-body/trajectories", paths=paths, steps=steps, precision="float32", device=dev,
                   save_every=steps)
    r = dict(paths=paths, steps=steps, path_steps_per_second=paths * steps / e.seconds)
    print("rigid_body float32: %.3g path-steps/s (%d paths x %d steps)" % (r["path_steps_per_second"], paths, steps))
    return r


def plan(a, model, budget, rigid_rate):
    """what fits: the noise KAT's normals (up to 2^22, within 5% of the budget), the
    format runs' N (the largest of 256, 128, ... within 30%), the timing sizes (every one
    of --sizes, ascending, each judged at its turn on the model the smaller ones refined,
    with the rigid body's time kept; where the smallest does not fit 40%, the largest of
    its halvings down to 32 that does), the rigid body's paths (5%); the rest is slack
    for the model's error"""
    quick = a["quick"]
    tuples = 4 if quick else 40
    normals = 1 << 12 if quick else next((1 << k for k in range(22, 10, -1) if (1 << k) * model.normal <= 0.05 * budget), 1 << 10)
    steps, paths = (4, int(a["paths"])) if quick else (int(a["steps"]), int(a["paths"]))
    run_N = 8 if quick else next((n for n in (256, 128, 64, 32, 16)
                                  if model.run_s(n, steps, paths, len(FORMATS)) <= 0.30 * budget), 8)
    tsteps = 3 if quick else 8
    sizes = [8, 16] if quick else sorted(a["sizes"])
    if not quick and model.run_s(sizes[0], tsteps, 1, len(FORMATS)) > 0.40 * budget:
        sizes = []
    total = sum(model.run_s(n, tsteps, 1, len(FORMATS)) for n in sizes)
    if not sizes and not quick:
        n = min(a["sizes"]) // 2
        while n >= 32 and model.run_s(n, tsteps, 1, len(FORMATS)) > 0.40 * budget:
            n //= 2
        if n >= 32:
            sizes, total = [n], model.run_s(n, tsteps, 1, len(FORMATS))
    rsteps = 4 if quick else 64
    rpaths = 1000 if quick else max(1000, min(1 << 20, int(0.05 * budget * rigid_rate / rsteps)))
    return dict(kat_tuples=tuples, kat_normals=normals, run_N=run_N, run_steps=steps, run_paths=paths, timing_sizes=sizes, timing_steps=tsteps,
                rigid_paths=rpaths, rigid_steps=rsteps,
                estimated_seconds=dict(noise_kat=normals * model.normal + tuples * 0.05, runs=model.run_s(run_N, steps, paths, len(FORMATS)), timing=total,
                                       rigid=rpaths * rsteps / rigid_rate))


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
    folder = a["folder"]
    os.makedirs(folder, exist_ok=True)
    name = torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu"
    summary = dict(device=str(dev), device_name=name, torch=torch.__version__, slpi=slpi.__version__,
                   gpu=dev.type == "cuda")
    ck = Check(folder, a["budget"], summary)
    print("gpu-check on %s (%s), torch %s, budget %g s" % (dev, name, torch.__version__, a["budget"]))
    model = Model()
    ck.part("calibrate", 0.0, lambda: calibrate(storch, tn, torch, model, dev))
    if not model.step:   # the calibration failed: a model that plans the smallest sizes only
        model.add(16, 1.0, 1.0)
    rate = ck.part("rigid_calibrate", 0.0, lambda: rigid(storch, dev, 1000, 4)) or dict(path_steps_per_second=1e3)
    p = plan(a, model, ck.left(), rate["path_steps_per_second"])
    summary["plan"] = p
    print("plan (%.3g s left): noise KAT %d tuples and %d normals (estimated %.3g s); runs at su(%d), %d paths x %d steps, in %s (estimated %.3g s); timing at N = %s "
          "(%.3g s); rigid body %d paths x %d steps (%.3g s)" %
          (ck.left(), p["kat_tuples"], p["kat_normals"], p["estimated_seconds"]["noise_kat"], p["run_N"], p["run_paths"], p["run_steps"], ", ".join(FORMATS),
           p["estimated_seconds"]["runs"], ",".join(map(str, p["timing_sizes"])) or "none",
           p["estimated_seconds"]["timing"], p["rigid_paths"], p["rigid_steps"], p["estimated_seconds"]["rigid"]))
    ck.save()
    kat = ck.part("noise_kat", p["estimated_seconds"]["noise_kat"],
                  lambda: noise_kat(tn, slpi, torch, dev, p["kat_tuples"], p["kat_normals"]))
    if kat:
        print("noise_kat: %s" % kat["verdict"])
    verdicts = [kat["verdict"]] if kat else []
    N = p["run_N"]
    for precision in FORMATS:
        r = ck.part("runs." + precision, model.run_s(N, p["run_steps"], p["run_paths"]),
                    lambda: format_run(storch, slpi, a, folder, N, p["run_steps"], precision, dev))
        if r and "verdict" in r:
            verdicts.append(r["verdict"])
    rigid_s = p["rigid_paths"] * p["rigid_steps"] / rate["path_steps_per_second"]
    later = ck.margin * (rigid_s + model.profile_s(16, 4))   # the rigid body and the smallest profile
    for n in p["timing_sizes"]:   # each size judged on the model the smaller ones refined
        for precision in FORMATS:
            ck.part("timing.N=%d.%s" % (n, precision), model.run_s(n, p["timing_steps"]),
                    lambda: timed_step(storch, torch, model, dev, n, precision, p["timing_steps"]), reserve=later)
    ck.part("rigid_body", rigid_s, lambda: rigid(storch, dev, p["rigid_paths"], p["rigid_steps"]))
    fit = [n for n in (16, 32, 64, 128, 256) if ck.margin * model.profile_s(n, 4) <= ck.left()]
    pN = max(fit or [16])   # the largest of su(16) ... su(256) whose profile fits
    ck.part("profile.N=%d.float64" % pN, model.profile_s(pN, 4),
            lambda: profile(storch, torch, dev, pN, "float64", 4))
    print("wrote %s (%.3g s of %g)" % (os.path.join(folder, "summary.json"), summary["elapsed_seconds"], a["budget"]))
    return 0 if not ck.failed and all(v == "PASS" for v in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
