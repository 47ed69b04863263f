"""slpi.torch — slpi's ISOMP on PyTorch, batched over paths, on any device (CPU or GPU),
in binary64, binary32, TF32 or bfloat16, checked by slpi's own oracle (``slpi verify``).

It is a port, not a second home of the mathematics: the scheme is docs/schemes.md#isomp
(slpi/torch/isomp.py), the systems docs/systems.md#euler-zeitlin with the family's keys
(docs/systems.md#zeitlin-family; slpi/torch/zeitlin.py) and the rigid body
(docs/systems.md#rigid-body; slpi/torch/rigid.py), the increments the canonical noise
of docs/noise.md#contract regenerated on the device bit for bit (slpi/torch/noise.py).
The problem, its defaults, its initial state and its truncation threshold come from the
C library (``slpi.Problem``); the results are ``slpi.Ensemble`` arrays and
``slpi-trajectory 1`` files that ``slpi verify --precision P`` judges (one file per path,
which verify pools). docs/gpu.md says how to run and check it on a GPU.

Precisions (``precision=``): ``float64`` (binary64), ``float32`` (binary32), ``tf32``
(float32 storage, matrix products with TF32 operands where the device has them: CUDA's
``allow_tf32``; on the CPU PyTorch has no TF32, so ``tf32`` there is float32 arithmetic
verified at TF32's budget) and ``bfloat16`` (every tensor bfloat16; PyTorch's products
accumulate in binary32; ``update=cay``'s LU in binary32). The precision and the verify
command that judges it are recorded in each file's header (``## slpi.torch`` lines), with
every flag that changes PyTorch's arithmetic (FLAGS), from which the verify precision
follows (``verify_precision``)."""
import math

PRECISIONS = {   # name -> (torch dtype name, slpi verify --precision, the solver's eps)
    "float64": ("float64", "binary64", 2.0 ** -52),
    "float32": ("float32", "binary32", 2.0 ** -23),
    "tf32": ("float32", "tf32", 2.0 ** -10),
    "bfloat16": ("bfloat16", "bfloat16", 2.0 ** -7),
}
SYSTEMS = ("euler-zeitlin", "rigid-body")


def available():
    """Whether PyTorch can be imported (None) or why not (a str)."""
    try:
        import torch  # noqa: F401
    except ImportError as e:
        return "PyTorch is not installed (%s; Debian: apt-get install python3-torch)" % e
    return None


def _problem(problem, keys):
    import slpi
    p = problem if isinstance(problem, slpi.Problem) else slpi.Problem(problem, **keys)
    if isinstance(problem, slpi.Problem) and keys:
        p.set(**keys)
    kv = {}
    for line in p.text().splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            kv[k.strip()] = v.strip()
    return p, kv


# The flags that change PyTorch's arithmetic (name, where it lives): each recorded in the
# file's header as its value or "absent" (this PyTorch has no such flag).
FLAGS = ("backends.cuda.matmul.allow_tf32", "backends.cudnn.allow_tf32", "backends.cuda.matmul.fp32_precision",
         "backends.cudnn.fp32_precision", "backends.mkldnn.matmul.fp32_precision", "float32_matmul_precision",
         "backends.cuda.matmul.allow_bf16_reduced_precision_reduction",
         "backends.cuda.matmul.allow_fp16_reduced_precision_reduction", "deterministic_algorithms")
_ORDER = ("binary64", "binary32", "tf32", "bfloat16/binary32", "bfloat16")   # by unit roundoff, then storage


def _get(torch, name):
    """a flag's value, or None where this PyTorch has none (1.13's cuBLAS module raises
    AssertionError on an unknown name, not AttributeError)"""
    try:
        if name == "float32_matmul_precision":
            return torch.get_float32_matmul_precision()
        if name == "deterministic_algorithms":
            return torch.are_deterministic_algorithms_enabled()
        obj = torch
        for part in name.split("."):
            obj = getattr(obj, part)
        return obj
    except Exception:
        return None


def _set(torch, name, value):
    """set a flag where this PyTorch has it"""
    if _get(torch, name) is None:
        return
    if name == "float32_matmul_precision":
        torch.set_float32_matmul_precision(value)
        return
    *path, last = name.split(".")
    obj = torch
    for part in path:
        obj = getattr(obj, part)
    setattr(obj, last, value)


def flags():
    """every flag of FLAGS as it is now: {name: value or None}"""
    import torch
    return {name: _get(torch, name) for name in FLAGS}


def verify_precision(precision, fl, device_type):
    """the `slpi verify --precision` a run in ``precision`` needs under the flags ``fl``
    (as ``flags()`` gives) on a device of type ``device_type``: the table's (PRECISIONS),
    loosened to TF32 where a flag lets float32 products take TF32 operands (allow_tf32 or
    fp32_precision=tf32 or float32_matmul_precision=high on CUDA, mkldnn's tf32 on the
    CPU) and to bfloat16 arithmetic (bfloat16/binary32) where one lets them take bfloat16
    ones (float32_matmul_precision=medium, an fp32_precision of bf16); binary64 is never
    loosened. A bfloat16 run with reduced-precision reduction allowed is refused: partial
    sums rounded to bfloat16 are no budget verify has."""
    want = PRECISIONS[precision][1]
    if want == "binary64":
        return want
    if want == "bfloat16" and fl.get("backends.cuda.matmul.allow_bf16_reduced_precision_reduction") and \
            device_type == "cuda":
        raise ValueError("precision=bfloat16 with torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction:"
                         " partial sums in bfloat16 have no verify budget; set it False")
    cuda = device_type == "cuda"
    precs = [fl.get(k) for k in ("backends.cuda.matmul.fp32_precision", "backends.cudnn.fp32_precision")] if cuda \
        else [fl.get("backends.mkldnn.matmul.fp32_precision")]
    mm = fl.get("float32_matmul_precision")
    got = "binary32"
    if (cuda and (fl.get("backends.cuda.matmul.allow_tf32") or fl.get("backends.cudnn.allow_tf32") or mm == "high")) \
            or "tf32" in precs:
        got = "tf32"
    if mm == "medium" or "bf16" in precs:
        got = "bfloat16/binary32"
    return max(want, got, key=_ORDER.index)


class _Flags:
    """the arithmetic flags for the run's duration, restored after: TF32 on (matmul and
    cudnn, fp32_precision=tf32, float32_matmul_precision=high) for precision tf32 and off
    (ieee, highest) otherwise; bfloat16 reduced-precision reduction off; deterministic
    algorithms left as they are (recorded)"""

    def __init__(self, precision):
        tf = precision == "tf32"
        self.want = {"backends.cuda.matmul.allow_tf32": tf, "backends.cudnn.allow_tf32": tf,
                     "backends.cuda.matmul.fp32_precision": "tf32" if tf else "ieee",
                     "backends.cudnn.fp32_precision": "tf32" if tf else "ieee",
                     "float32_matmul_precision": "high" if tf else "highest",
                     "backends.cuda.matmul.allow_bf16_reduced_precision_reduction": False}

    def __enter__(self):
        import torch
        self.old = flags()
        for k, v in self.want.items():
            _set(torch, k, v)
        return flags()

    def __exit__(self, *a):
        import torch
        for k in self.want:
            if self.old[k] is not None:
                _set(torch, k, self.old[k])


def run(problem=None, paths=1, first_path=0, *, precision="float64", device=None, save_every=None,
        tol=None, maxit=None, chunk=64, defect=None, **keys):
    """Integrate ``paths`` noise paths of an ISOMP problem on PyTorch.

    Parameters
    ----------
    problem : str, slpi.Problem or None
        A preset name or a problem (``system=euler-zeitlin`` or ``rigid-body`` with
        ``scheme=isomp``); ``keys`` are set on it (``steps=``, ``N=``, ``kappa=``, ...).
    paths, first_path : int
        Paths first_path .. first_path + paths - 1 of the canonical noise, in one batch.
    precision : str
        ``float64``, ``float32``, ``tf32`` or ``bfloat16`` (PRECISIONS).
    device : str or torch.device, optional
        ``"cpu"`` (default), ``"cuda"``, ...
    save_every : int, optional
        Rows at step 0, every k-th step and the last (default: the problem's
        ``output_every``).
    tol, maxit : optional
        The solver's stopping rule (docs/schemes.md#solver); default: the problem's in
        binary64, 4 eps of the format otherwise (PRECISIONS), the problem's ``maxit``.
    chunk : int
        Steps of increments generated at a time.
    defect : str, optional
        A planted defect for the oracle's tests (``"drop"``: the 1/4 term dropped,
        ``"coef:MAG"``: the 1/2 of the commutator times 1 + MAG, MAG a hex float); never for results.

    Returns
    -------
    slpi.Ensemble
        ``states`` (paths, rows, dim) in float64 (the format's values, exactly),
        ``t``, ``step``, ``labels``, ``paths``, ``problem`` (the keys), ``stats`` (mean,
        var, min, max over the paths, by numpy), ``route`` ("torch <precision> on
        <device>"); and the attributes ``precision``, ``verify_precision``, ``iterations``
        (paths, steps), ``stagnated`` and ``capped`` (counts per path), ``seconds`` and
        ``cpu_seconds`` (wall and process CPU time of the steps, after the set-up).
    """
    import time
    import numpy as np
    import torch
    import slpi
    from slpi.torch import noise as tnoise
    if precision not in PRECISIONS:
        raise ValueError("precision=%r: one of %s" % (precision, ", ".join(PRECISIONS)))
    dname, vprec, eps = PRECISIONS[precision]
    dtype = getattr(torch, dname)
    dev = torch.device(device or "cpu")
    p, kv = _problem(problem, keys)
    system, scheme = kv.get("system"), kv.get("scheme")
    if system not in SYSTEMS or scheme != "isomp":
        raise ValueError("slpi.torch.run: system=%s scheme=%s: the torch path runs ISOMP on %s"
                         % (system, scheme, " and ".join(SYSTEMS)))
    steps, h, M = p.steps, p.h, p.noises
    if paths < 1 or first_path < 0:
        raise slpi._bad("paths", paths, "paths >= 1 from first_path=%d >= 0" % first_path)
    for K in sorted({first_path, first_path + paths - 1}):   # the C path's checks of its noise source, path
        slpi.increments(p, count=0, path=K)                   # by path: range, refine, steps, noise_tau
    if kv.get("noise_file"):
        raise slpi._bad("noise_file", kv["noise_file"], "slpi.torch draws the canonical noise on the device; "
                        "a noise file's increments are not read (drop noise_file, or use slpi.run)")
    taus = _taus(kv.get("noise_tau", ""), M)
    every = save_every or p.output_every
    D = float(slpi._lib.slpi_problem_noise_threshold(p._p))
    tol = tol if tol is not None else (float(kv.get("tol", 1e-15)) if precision == "float64" else 4 * eps)
    maxit = int(maxit or kv.get("maxit", 100))
    update = kv.get("update", "comm")
    x0 = slpi.run(p, steps=1, output_every=1).states[0]   # the initial state, as the C library builds it
    if system == "euler-zeitlin":
        from slpi.torch.euler_zeitlin import Stepper
    else:
        from slpi.torch.rigid import Stepper
    S = Stepper(kv, p, x0, paths, dtype, dev)
    seed, refine = int(kv.get("seed", 1), 0), int(kv.get("refine", 0))
    pathlist = list(range(first_path, first_path + paths))
    rows, tsteps = [S.packed().cpu().numpy()], [0]
    its, stag, capped, reruns = [], 0, 0, 0     # kept on the device: no copy to the host per step
    t0, c0_cpu = time.perf_counter(), time.process_time()
    ou = tnoise.ou_start(seed, pathlist, taus, device=dev) if taus else None
    with _Flags(precision) as fl:
        vprec = verify_precision(precision, fl, dev.type)
        for c0 in range(0, steps, chunk):
            cn = min(chunk, steps - c0)
            eta = tnoise.increments(seed, pathlist, M, h, cn, refine=refine, first=c0,
                                    truncate=D if math.isfinite(D) else None, device=dev, taus=taus,
                                    eta=ou) if M else None
            start, learning = S.state, False
            while True:                   # the chunk, again (learning its sweeps) when a path was short
                saved, cits, cflags = [], [], []
                for j in range(cn):
                    it, st, cp, sh = S.step(eta[:, j, :] if M else None, tol, maxit, update, defect)
                    if S.sweeps is None and not learning:
                        S.sweeps = S.made         # the run's first step sets the sweeps
                    cits.append(it)
                    cflags.append(torch.stack((st, cp, sh)))   # summed once a chunk
                    if (c0 + j + 1) % every == 0 or c0 + j + 1 == steps:
                        saved.append(S.packed())
                cstag, ccap, short = torch.stack(cflags).sum(0)
                cstag, ccap = stag + cstag, capped + ccap
                block = torch.stack(saved, 1).reshape(-1) if saved else short.new_zeros(0, dtype=torch.float64)
                need = torch.stack(cits).max().double().view(1)           # the most sweeps a path needed
                host = torch.cat([block, (short > 0).double(), need]).cpu().numpy()   # the chunk's one copy to the host
                if not host[block.numel():-1].any():
                    break
                S.state, S.sweeps, S.made, learning = start, None, 0, True
                reruns += 1
            S.sweeps = max(1, int(host[-1]))      # the next chunk's sweeps: this one's most iterations
            its.extend(cits)
            stag, capped = cstag, ccap
            if saved:
                rows.extend(host[:block.numel()].reshape(paths, len(saved), -1).transpose(1, 0, 2))
                tsteps.extend(n + 1 for n in range(c0, c0 + cn) if (n + 1) % every == 0 or n + 1 == steps)
    if dev.type == "cuda":
        torch.cuda.synchronize()
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0_cpu
    from slpi.torch import isomp
    isomp.release()
    iters = torch.stack(its, 1).cpu().numpy() if its else np.zeros((paths, 0), dtype=np.int64)
    stag = stag.cpu().numpy() if torch.is_tensor(stag) else np.zeros(paths, dtype=np.int64)
    capped = capped.cpu().numpy() if torch.is_tensor(capped) else np.zeros(paths, dtype=np.int64)
    states = np.stack(rows, axis=1)
    step = np.array(tsteps)
    labels = p.labels
    st = slpi.Statistics(n=paths, names=list(labels), mean=states.mean(axis=0),
                         var=states.var(axis=0, ddof=1) if paths > 1 else np.full(states.shape[1:], np.nan),
                         min=states.min(axis=0), max=states.max(axis=0), radius=np.zeros(states.shape[1:]))
    e = slpi.Ensemble(t=step * h, step=step, states=states, labels=list(labels), paths=np.array(pathlist),
                      stats=st, problem=dict(kv, output_every=str(every)), route="torch %s on %s" % (precision, dev))
    e.precision, e.verify_precision, e.iterations = precision, vprec, iters
    e.stagnated, e.capped, e.seconds, e.tol, e.device = stag, capped, seconds, tol, str(dev)
    e.cpu_seconds, e.flags, e.sweeps, e.reruns, e.chunk = cpu, fl, S.sweeps, reruns, chunk
    return e


def _taus(text, M):
    """noise_tau's correlation times, one per component (None: white noise), as
    core/noise-ou.c reads them: one for every component or one each (the C library has
    checked the text)"""
    if not text or M == 0:
        return None
    vals = []
    for t in text.split(","):
        try:
            vals.append(float(t))
        except ValueError:
            vals.append(float.fromhex(t))
    vals = vals * M if len(vals) == 1 else vals
    return vals if any(v > 0 for v in vals) else None


def _header(ensemble, i):
    import torch
    kv = ensemble.problem
    lines = ["# slpi-trajectory 1"]
    lines += ["# %s=%s" % (k, v) for k, v in kv.items() if k not in ("path", "steps")]
    lines.append("# steps=%d" % int(ensemble.step[-1]))
    lines.append("## slpi.torch precision=%s (verify: slpi verify --precision %s) device=%s torch=%s tol=%g"
                 % (ensemble.precision, ensemble.verify_precision, ensemble.device, torch.__version__, ensemble.tol))
    lines.append("## slpi.torch flags: " + " ".join("%s=%s" % (k, "absent" if v is None else v)
                                                    for k, v in ensemble.flags.items()))
    lines.append("## slpi.torch solver: fixed sweeps a step (the previous chunk's most iterations; %s at the end), "
                 "no host sync in a step: a device-side check after the last sweep, read once a chunk of %d steps "
                 "with its rows; a chunk where a path had not stopped is re-run from its start with a host check "
                 "each sweep (%d re-runs); a stopped path keeps its iterate"
                 % ("none, no step made" if ensemble.sweeps is None else ensemble.sweeps, ensemble.chunk,
                    ensemble.reruns))
    it = ensemble.iterations if i is None else ensemble.iterations[i]
    st, cp = (ensemble.stagnated, ensemble.capped) if i is None else (ensemble.stagnated[i], ensemble.capped[i])
    lines.append("## slpi.torch iterations: mean %.3f max %d, stagnated %d, capped %d"
                 % (it.mean() if it.size else 0, it.max() if it.size else 0, st.sum(), cp.sum()))
    return lines


def write(ensemble, folder, stem="path", many=False):
    """Write a ``run`` result as ``slpi-trajectory 1`` files (hex doubles) that ``slpi
    verify --precision P`` reads, P = ``ensemble.verify_precision``; returns the file names.

    One file per path, ``folder/STEM-K.tsv`` (K the noise path; its header's ``path=K``),
    which verify pools; or, with ``many=True``, one file ``folder/STEM.tsv`` holding every
    path, with a ``path`` column and the rows step-major (the many-path files of
    oracle/README.md, which need an ``slpi verify`` that reads them). The header holds
    every key of the problem and ``## slpi.torch`` lines with the precision, device,
    tolerance and iterations."""
    import os
    os.makedirs(folder, exist_ok=True)
    out = []
    cols = list(ensemble.labels)
    groups = [(None, os.path.join(folder, "%s.tsv" % stem))] if many else \
        [(i, os.path.join(folder, "%s-%d.tsv" % (stem, K))) for i, K in enumerate(ensemble.paths.tolist())]
    for i, name in groups:
        lines = _header(ensemble, i)
        if i is None:
            lines.append("\t".join(["step", "t", "path"] + cols))
            for r, n in enumerate(ensemble.step.tolist()):
                for q, K in enumerate(ensemble.paths.tolist()):
                    lines.append("%d\t%.17g\t%d\t%s" % (n, ensemble.t[r], K, "\t".join(
                        float(v).hex() for v in ensemble.states[q, r])))
        else:
            lines.insert(-2, "# path=%d" % int(ensemble.paths[i]))
            lines.append("\t".join(["step", "t"] + cols))
            for r, n in enumerate(ensemble.step.tolist()):
                lines.append("%d\t%.17g\t%s" % (n, ensemble.t[r], "\t".join(float(v).hex()
                                                                             for v in ensemble.states[i, r])))
        tmp = name + ".tmp"
        with open(tmp, "w") as f:
            f.write("\n".join(lines) + "\n")
        os.replace(tmp, name)
        out.append(name)
    return out
