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
reached is capped. All paths iterate together until each has stopped; a path that
stopped keeps its Y (solve), and the host checks the batch after as many sweeps as the
previous step took, then every sweep: one host sync a step when the count is steady."""


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


def _keep(done, Z, Y):
    """Z on the paths still iterating, Y on those that stopped (a pair or a tensor)"""
    torch = _torch()
    if isinstance(Y, tuple):
        return tuple(_keep(done, z, y) for z, y in zip(Z, Y))
    return torch.where(done.view((-1,) + (1,) * (Y.dim() - 1)), Y, Z)


def solve(g, Y, gap, size, P, device, tol, maxit, first=1):
    """docs/schemes.md#solver on a batch: Y <- g(Y) until every path has stopped (its change
    gap(Z, Y) at most tol max(1, size(Z)), or stagnated), at most maxit times; returns Y,
    the per-path (iterations, stagnated, capped) and the sweeps the batch took. gap and
    size give (P,) tensors; every representation (pairs of matrices, vectors) shares this
    loop. A path that stopped keeps its Y (frozen: its result is the one-path run's,
    whatever the batch). The host reads the device once per check, not once per sweep:
    the first check after ``first`` sweeps (the previous step's count), then one a sweep;
    one check (done, and the sweeps taken) is one copy of two numbers."""
    torch = _torch()
    done = torch.zeros(P, dtype=torch.bool, device=device)
    iters = torch.zeros(P, dtype=torch.int64, device=device)
    stag = torch.zeros_like(done)
    last = torch.full((P,), float("inf"), dtype=torch.float64, device=device)
    used = maxit
    for i in range(maxit):
        Z = g(Y)
        change = gap(Z, Y).double()
        scale = torch.clamp(size(Z).double(), min=1.0)
        Y = _keep(done, Z, Y)
        iters += (~done).long()
        conv = change <= tol * scale
        st = (~conv) & (change >= last) & (change <= 100 * tol * scale)
        stag |= st & ~done
        done |= conv | st
        last = change
        if i + 1 >= first:
            all_done, used = torch.stack([done.all().long(), iters.max()]).tolist()
            if all_done:
                break
    return Y, iters, stag, ~done, max(1, used)


def step(X, psi, tol, maxit, update="comm", defect=None, first=1):
    """One ISOMP step of every path from X (a pair) with Psi(Y) = psi(Y); returns the new
    pair, the per-path (iterations, stagnated, capped) as tensors and the sweeps taken
    (``solve``'s, whose first check comes after ``first`` sweeps)."""
    half, quarter = coefficients(defect)
    Y = commutator(X, cmm(psi(X), X), half)

    def g(Y):
        Pm = psi(Y)
        PY = cmm(Pm, Y)
        Cr, Ci = skew(PY)               # 1/2 C + 1/4 (PY) Psi accumulated by the products, then
        Cr.baddbmm_(PY[0], Pm[0], beta=half, alpha=quarter).baddbmm_(PY[1], Pm[1], alpha=-quarter)
        Ci.baddbmm_(PY[0], Pm[1], beta=half, alpha=quarter).baddbmm_(PY[1], Pm[0], alpha=quarter)
        return X[0] + Cr, X[1] + Ci     # one rounding at X's size (it matters in bfloat16)

    Y, iters, stag, capped, used = solve(g, Y, lambda Z, Y: amax((Z[0] - Y[0], Z[1] - Y[1])), amax,
                                         X[0].shape[0], X[0].device, tol, maxit, first)
    Pm = psi(Y)
    if update == "cay":
        return cayley(X, Pm), iters, stag, capped, used
    return commutator(X, cmm(Pm, Y), 1.0), iters, stag, capped, used


def cayley(X, Psi):
    """C X C*, C = (I - Psi/2)^-1 (I + Psi/2): one complex LU per path, in complex128 for
    binary64 and complex64 otherwise (bfloat16 has no complex type: its LU is binary32)"""
    torch = _torch()
    dt = X[0].dtype
    cd = torch.complex128 if dt == torch.float64 else torch.complex64
    rd = torch.float64 if dt == torch.float64 else torch.float32
    Pc = torch.complex(Psi[0].to(rd), Psi[1].to(rd)).to(cd)
    Xc = torch.complex(X[0].to(rd), X[1].to(rd)).to(cd)
    eye = torch.eye(Pc.shape[-1], dtype=cd, device=Pc.device)
    C = torch.linalg.solve(eye - 0.5 * Pc, eye + 0.5 * Pc)
    Xn = C @ Xc @ C.conj().transpose(-1, -2)
    return Xn.real.to(dt).contiguous(), Xn.imag.to(dt).contiguous()
