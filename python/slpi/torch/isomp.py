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
    """PY - (PY)* of a pair, as one (2, P, n, n) tensor (the pair stacked: a sum with a
    stacked X is one operation)"""
    torch = _torch()
    r, i = PY
    C = torch.empty((2,) + tuple(r.shape), dtype=r.dtype, device=r.device)
    torch.sub(r, r.transpose(-1, -2), out=C[0])
    torch.add(i, i.transpose(-1, -2), out=C[1])
    return C


def commutator(X, PY, c):
    """X + c (PY - (PY)*) of stacked pairs: one rounding at X's size"""
    torch = _torch()
    return torch.add(X, skew(PY), alpha=c)


def amax(A):
    """max-abs of a stacked pair (2, P, n, n), per path (P,)"""
    torch = _torch()
    return torch.linalg.vector_norm(A, float("inf"), dim=(0, -1, -2))


def coefficients(defect):
    """the iteration's 1/2 and 1/4, or a planted defect's (tests only): "drop" drops the 1/4
    term, "coef:MAG" puts the 1/2 of the commutator off by the hex float MAG"""
    half, quarter = 0.5, 0.25
    if defect == "drop":
        quarter = 0.0
    elif defect and defect.startswith("coef:"):
        half = 0.5 * (1 + float.fromhex(defect[5:]))
    return half, quarter


def _keep(live, Z, Y, axis):
    """Z on the paths still iterating (live), Y on those that stopped (paths on ``axis``)"""
    torch = _torch()
    shape = [1] * Y.dim()
    shape[axis] = -1
    return torch.where(live.view(shape), Z, Y)


def solve(g, Y, gap, size, P, device, tol, maxit, sweeps=None, axis=0):
    """docs/schemes.md#solver on a batch: Y <- g(Y) until every path has stopped (its change
    gap(Z, Y) at most tol max(1, size(Z)), or stagnated), at most maxit times. gap and size
    give (P,) tensors, the paths on Y's ``axis``; every representation (stacked pairs of
    matrices, vectors) shares this loop.
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
        scale = torch.clamp(size(Z).double(), min=1.0)
        Y = _keep(live, Z, Y, axis)
        iters += live
        conv = change <= tol * scale                   # fast/solver.h's roundings: tol s, (100 tol) s
        stop = conv | ((change >= last) & (change <= 100 * tol * scale))
        stag |= (stop ^ conv) & live                   # stopped, not converged: stagnated
        live &= ~stop
        last = change
        if sweeps is None and not bool(live.any()):
            made = i + 1
            break
    if made < maxit:
        return Y, iters, stag, torch.zeros_like(live), live, made
    return Y, iters, stag, live, torch.zeros_like(live), made


def step(X, psi, tol, maxit, update="comm", defect=None, sweeps=None):
    """One ISOMP step of every path from X (a stacked pair (2, P, n, n)) with Psi(Y) =
    psi(Y); returns the new stacked pair, the per-path (iterations, stagnated, capped, short) as tensors and the sweeps
    made (``solve``'s, ``sweeps`` fixed or None)."""
    half, quarter = coefficients(defect)
    Y = commutator(X, cmm(psi(X), X), half)

    def g(Y):
        Pm = psi(Y)
        PY = cmm(Pm, Y)
        C = skew(PY)                    # 1/2 C + 1/4 (PY) Psi accumulated by the products, then
        C[0].baddbmm_(PY[0], Pm[0], beta=half, alpha=quarter).baddbmm_(PY[1], Pm[1], alpha=-quarter)
        C[1].baddbmm_(PY[0], Pm[1], beta=half, alpha=quarter).baddbmm_(PY[1], Pm[0], alpha=quarter)
        return X + C                    # one rounding at X's size (it matters in bfloat16)

    Y, *flags, made = solve(g, Y, lambda Z, Y: amax(Z - Y), amax, X.shape[1], X.device, tol, maxit, sweeps, 1)
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
    return torch.stack((Xn.real, Xn.imag)).to(dt)
