"""slpi.torch.isomp — the stochastic isospectral midpoint of docs/schemes.md#isomp on a batch
of paths, in matrix form on pairs (Re, Im) of real tensors (P, n, n), for any Psi(Y):

  Y(0) = X + 1/2 [Psi(X), X]                                   (the Euler predictor,
  Y(l+1) = X + 1/2 [Psi(Y), Y] + 1/4 Psi(Y) Y Psi(Y)             docs/schemes.md#solver)
  comm: X' = X + [Psi(Y), Y];  cay: X' = C X C*, C = (I - Psi/2)^-1 (I + Psi/2)

For skew-Hermitian Y and Psi, [Psi, Y] = PY - (PY)* and Psi Y Psi = (PY) Psi: two complex
products an iteration, each four real ones, the sums, the 1/2 and the 1/4 (PY) Psi
accumulated into the products' outputs (baddbmm) rather than made in passes of their
own, and X added last: one rounding at X's size an iteration. Stopping (docs/schemes.md#solver): the
max-abs change of Y on every path at most tol max(1, max|Y|); a path whose change stopped
decreasing while below 100 tol max(1, |Y|) is stagnated (accepted and counted); maxit
reached is capped. All paths iterate together; a path that stopped keeps its Y (solve).
No host sync in a step: the batch makes a fixed number of sweeps S with a device-side
check after the last (solve's ``short``), which slpi.torch.run reads with the saved
rows, once a chunk, re-running the chunk from its start with the sweeps learned on the
host (one check a sweep) when a path had not stopped (docs/gpu.md#how)."""


def _torch():
    import torch
    return torch


def cmm(A, B):
    """the complex product of two pairs (Re, Im) of (P, n, n) tensors: four real products,
    the sums accumulated into the first (baddbmm: no separate pass)"""
    Ar, Ai = A
    Br, Bi = B
    return (Ar @ Br).baddbmm_(Ai, Bi, alpha=-1), (Ar @ Bi).baddbmm_(Ai, Br)


def skew(PY):
    """PY - (PY)* of a pair"""
    r, i = PY
    return r - r.transpose(-1, -2), i + i.transpose(-1, -2)


def commutator(X, PY, c):
    """X + c (PY - (PY)*) of pairs: one rounding at X's size"""
    torch = _torch()
    C = skew(PY)
    return torch.add(X[0], C[0], alpha=c), torch.add(X[1], C[1], alpha=c)


def amax(A):
    """max-abs of a pair, per path (P,)"""
    torch = _torch()
    inf = float("inf")
    return torch.maximum(torch.linalg.vector_norm(A[0], inf, dim=(-1, -2)),
                         torch.linalg.vector_norm(A[1], inf, dim=(-1, -2)))


def coefficients(defect):
    """the iteration's 1/2 and 1/4, or a planted defect's (tests only): "drop" drops the 1/4
    term, "coef:MAG" puts the 1/2 of the commutator off by the hex float MAG"""
    half, quarter = 0.5, 0.25
    if defect == "drop":
        quarter = 0.0
    elif defect and defect.startswith("coef:"):
        half = 0.5 * (1 + float.fromhex(defect[5:]))
    return half, quarter


def _keep(live, Z, Y):
    """Z on the paths still iterating (live), Y on those that stopped (a pair or a tensor)"""
    torch = _torch()
    if isinstance(Y, tuple):
        return tuple(_keep(live, z, y) for z, y in zip(Z, Y))
    return torch.where(live.view((-1,) + (1,) * (Y.dim() - 1)), Z, Y)


def solve(g, Y, gap, size, P, device, tol, maxit, sweeps=None):
    """docs/schemes.md#solver on a batch: Y <- g(Y) until every path has stopped (its change
    gap(Z, Y) at most tol max(1, size(Z)), or stagnated), at most maxit times. gap and size
    give (P,) tensors; every representation (pairs of matrices, vectors) shares this loop.
    A path that stopped keeps its Y (frozen: its result is the one-path run's, whatever
    the batch, however many sweeps the batch makes).

    ``sweeps`` = S (an int): exactly min(S, maxit) sweeps, no host read: the check is on
    the device, after the last sweep (``short``: a path still iterating below maxit,
    which the caller reads at its next save point and answers by re-running with more
    sweeps). ``sweeps`` = None: the host reads the batch after every sweep and stops when
    every path has stopped (one sync a sweep: learning S). Returns Y, the per-path
    (iterations, stagnated, capped, short) as device tensors and the sweeps made."""
    torch = _torch()
    live = torch.ones(P, dtype=torch.bool, device=device)
    iters = torch.zeros(P, dtype=torch.int64, device=device)
    stag = torch.zeros_like(live)
    last = torch.full((P,), float("inf"), dtype=torch.float64, device=device)
    n = maxit if sweeps is None else max(1, min(sweeps, maxit))
    made = n
    for i in range(n):
        Z = g(Y)
        change = gap(Z, Y).double()
        lim = torch.clamp(size(Z).double(), min=1.0).mul_(tol)
        Y = _keep(live, Z, Y)
        iters += live
        conv = change <= lim
        stop = conv | ((change >= last) & (change <= 100 * lim))
        stag |= stop & ~conv & live
        live &= ~stop
        last = change
        if sweeps is None and not bool(live.any()):
            made = i + 1
            break
    if made < maxit:
        return Y, iters, stag, torch.zeros_like(live), live, made
    return Y, iters, stag, live, torch.zeros_like(live), made


def step(X, psi, tol, maxit, update="comm", defect=None, sweeps=None):
    """One ISOMP step of every path from X (a pair) with Psi(Y) = psi(Y); returns the new
    pair, the per-path (iterations, stagnated, capped, short) as tensors and the sweeps
    made (``solve``'s, ``sweeps`` fixed or None)."""
    half, quarter = coefficients(defect)
    Y = commutator(X, cmm(psi(X), X), half)

    def g(Y):
        Pm = psi(Y)
        PY = cmm(Pm, Y)
        Cr, Ci = skew(PY)               # 1/2 C + 1/4 (PY) Psi accumulated by the products, then
        Cr.baddbmm_(PY[0], Pm[0], beta=half, alpha=quarter).baddbmm_(PY[1], Pm[1], alpha=-quarter)
        Ci.baddbmm_(PY[0], Pm[1], beta=half, alpha=quarter).baddbmm_(PY[1], Pm[0], alpha=quarter)
        return X[0] + Cr, X[1] + Ci     # one rounding at X's size (it matters in bfloat16)

    Y, *flags, made = solve(g, Y, lambda Z, Y: amax((Z[0] - Y[0], Z[1] - Y[1])), amax,
                            X[0].shape[0], X[0].device, tol, maxit, sweeps)
    Pm = psi(Y)
    return (cayley(X, Pm) if update == "cay" else commutator(X, cmm(Pm, Y), 1.0)), *flags, made


def cayley(X, Psi):
    """C X C*, C = (I - Psi/2)^-1 (I + Psi/2): one complex LU per path, in complex128 for
    binary64 and complex64 otherwise (bfloat16 has no complex type: its LU is binary32);
    solve_ex, whose error check is not read (linalg.solve's is a host sync): Psi is
    skew-Hermitian, so the eigenvalues 1 - i lambda/2 of I - Psi/2 have modulus >= 1"""
    torch = _torch()
    dt = X[0].dtype
    cd = torch.complex128 if dt == torch.float64 else torch.complex64
    rd = torch.float64 if dt == torch.float64 else torch.float32
    Pc = torch.complex(Psi[0].to(rd), Psi[1].to(rd)).to(cd)
    Xc = torch.complex(X[0].to(rd), X[1].to(rd)).to(cd)
    eye = torch.eye(Pc.shape[-1], dtype=cd, device=Pc.device)
    C = torch.linalg.solve_ex(eye - 0.5 * Pc, eye + 0.5 * Pc)[0]   # no host check: I - Psi/2 is regular
    Xn = C @ Xc @ C.conj().transpose(-1, -2)
    return Xn.real.to(dt).contiguous(), Xn.imag.to(dt).contiguous()
