"""slpi.torch.isomp — the stochastic isospectral midpoint of docs/schemes.md#isomp on a batch
of paths, in matrix form, for any Psi(Y):

  Y(0) = X + 1/2 [Psi(X), X]                                   (the Euler predictor,
  Y(l+1) = X + 1/2 [Psi(Y), Y] + 1/4 Psi(Y) Y Psi(Y)             docs/schemes.md#solver)
  comm: X' = X + [Psi(Y), Y];  cay: X' = C X C*, C = (I - Psi/2)^-1 (I + Psi/2)

A skew-Hermitian matrix is held as real tensors (every dtype, bfloat16 too, runs one code):
the state and the iterates as pairs (P, 2, n, n) (Re, Im; viewed as (P, 2n, n), Re's rows
over Im's), Psi in its real form [[Re, -Im], [Im, Re]] (P, 2n, 2n), so that a complex
product Psi A is one real product of the real form by A's rows (``product``). For
skew-Hermitian Y and Psi, [Psi, Y] = PY - (PY)* and Psi Y Psi = Psi (PY)*: two products
an iteration, (PY)* one signed transpose, the 1/2 and the 1/4 Psi (PY)* accumulated into
the second product (baddbmm), and X added last: one rounding at X's size an iteration.
Stopping (docs/schemes.md#solver): the
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


_SIGNS = {}


def _signs(A, a, b):
    """(1, 2, 1, 1) tensor (a, b) in A's dtype and device (cached)"""
    key = (a, b, A.dtype, str(A.device))
    if key not in _SIGNS:
        _SIGNS[key] = _torch().tensor([a, b], dtype=A.dtype, device=A.device).view(1, 2, 1, 1)
    return _SIGNS[key]


def block(A):
    """the real form [[Re, -Im], [Im, Re]] (P, 2n, 2n) of pairs (P, 2, n, n)"""
    torch = _torch()
    r, i = A[:, 0], A[:, 1]
    return torch.cat((torch.cat((r, -i), 2), torch.cat((i, r), 2)), 1)


def product(Pb, A):
    """Psi A of Psi's real form (P, 2n, 2n) and pairs A (P, 2, n, n): one real product"""
    P, _, n, _ = A.shape
    return _torch().bmm(Pb, A.view(P, 2 * n, n)).view(P, 2, n, n)


def skew(A):
    """A - A* of pairs (P, 2, n, n): Re - Re^T, Im + Im^T, one operation (exact signs)"""
    return _torch().addcmul(A, _signs(A, -1.0, 1.0), A.transpose(-1, -2))


def adjoint(A, out):
    """A* of pairs (P, 2, n, n) into out (contiguous): Re^T, -Im^T, one operation"""
    return _torch().mul(A.transpose(-1, -2), _signs(A, 1.0, -1.0), out=out)


def commutator(X, PY, c):
    """X + c (PY - (PY)*) of pairs: one rounding at X's size"""
    torch = _torch()
    return torch.add(X, skew(PY), alpha=c)


def amax(A):
    """max-abs of pairs (..., P, 2, n, n), per path (..., P)"""
    torch = _torch()
    return torch.linalg.vector_norm(A, float("inf"), dim=(-3, -2, -1))


def coefficients(defect):
    """the iteration's 1/2 and 1/4, or a planted defect's (tests only): "drop" drops the 1/4
    term, "coef:MAG" puts the 1/2 of the commutator off by the hex float MAG"""
    half, quarter = 0.5, 0.25
    if defect == "drop":
        quarter = 0.0
    elif defect and defect.startswith("coef:"):
        half = 0.5 * (1 + float.fromhex(defect[5:]))
    return half, quarter


_TOLS, _TABLES = {}, {}


def _table(key, make):
    """a scratch tensor kept from one step to the next (make() when first asked for key)"""
    if key not in _TABLES:
        _TABLES[key] = make()
    return _TABLES[key]


def release():
    """drop the scratch kept between steps (slpi.torch.run calls it at its end: 3 states a
    path, held until the next run otherwise)"""
    _TABLES.clear()


def solve(g, Y, measure, P, device, tol, maxit, sweeps=None, axis=0):
    """docs/schemes.md#solver on a batch: Y <- g(Y) until every path has stopped (its change
    at most tol max(1, size), or stagnated), at most maxit times. measure(Z, Y) gives the
    (change, size) of the new iterate Z, (P,) tensors each or one (2, P) tensor, the paths on
    Y's ``axis``; every representation (pairs of matrices, vectors) shares this loop.
    A path that stopped keeps its Y (frozen: its result is the one-path run's, whatever
    the batch, however many sweeps the batch makes).

    ``sweeps`` = S (an int): exactly min(S, maxit) sweeps, no host read: the check is on
    the device, after the last sweep (``short``: a path still iterating below maxit,
    which the caller reads at its next save point and answers by re-running with more
    sweeps). ``sweeps`` = None: the host reads the batch after every sweep and stops when
    every path has stopped (one sync a sweep: learning S). Per sweep the flags go into
    tables (live before each sweep, stopped, converged) from which the iterations and the
    stagnated paths are counted once, after the last. Returns Y, the per-path
    (iterations, stagnated, capped, short) as device tensors (capped and short views of
    tables that the next call rewrites: read them first) and the sweeps made."""
    torch = _torch()
    n = maxit if sweeps is None else max(1, min(sweeps, maxit))
    key = (tol, str(device))
    if key not in _TOLS:                               # fast/solver.h's roundings: tol s, (100 tol) s
        _TOLS[key] = torch.tensor([tol, 100 * tol], dtype=torch.float64, device=device)
    tols = _TOLS[key]
    flags = _table(("flags", n, P, str(device)),        # one table, four rows a sweep, kept (row live[0]
                   lambda: torch.ones(n + 1, 4, P, dtype=torch.bool, device=device))   # stays 1):
    live, ok, stop = flags[:, 0], flags[:n, 1:3].transpose(1, 2), flags[:n, 3]   # live before sweep i; (conv, near)
    shape = [1] * Y.dim()
    shape[axis] = -1
    made, last = n, None
    for i in range(n):
        Z = g(Y)
        change, size = (t.double() for t in measure(Z, Y))
        torch.le(change[:, None], torch.clamp(size, min=1.0)[:, None] * tols, out=ok[i])
        if last is None:                               # the first sweep: no change before it
            stop[i] = ok[i, :, 0]
        else:
            torch.logical_or(ok[i, :, 0], ok[i, :, 1] & (change >= last), out=stop[i])
        Y = torch.where(live[i].view(shape), Z, Y)     # a path that stopped keeps its Y
        torch.gt(live[i], stop[i], out=live[i + 1])    # live and not stopped
        last = change
        if sweeps is None and not bool(live[i + 1].any()):
            made = i + 1
            break
    iters = live[:made].sum(0)
    stag = (torch.gt(stop[:made], ok[:made, :, 0]) & live[:made]).any(0)   # stopped, not converged
    left = live[made]                                  # a view of the table: read before the next step
    zero = _table(("zero", P, str(device)), lambda: torch.zeros_like(left))
    if made < maxit:
        return Y, iters, stag, zero, left, made
    return Y, iters, stag, left, zero, made


def step(X, psi, tol, maxit, update="comm", defect=None, sweeps=None):
    """One ISOMP step of every path from X (pairs (P, 2, n, n)) with Psi(Y) = psi(Y) (its
    real form (P, 2n, 2n)); returns the new pairs, the per-path (iterations, stagnated,
    capped, short) as tensors and the sweeps made (``solve``'s, ``sweeps`` fixed or None)."""
    torch = _torch()
    half, quarter = coefficients(defect)
    P, _, n, _ = X.shape
    Y = commutator(X, product(psi(X), X), half)
    W = _table(("W", tuple(X.shape), X.dtype, str(X.device)),   # (Z - Y, Z): one max-abs; (PY)*
               lambda: torch.empty((3,) + tuple(X.shape), dtype=X.dtype, device=X.device))

    def g(Y):
        Pb = psi(Y)
        PY = product(Pb, Y)
        Q = adjoint(PY, W[2])               # (PY)* = Y Psi
        C = torch.sub(PY, Q)                # PY - (PY)*; 1/2 of it + 1/4 Psi (PY)* by the product:
        C.view(P, 2 * n, n).baddbmm_(Pb, Q.view(P, 2 * n, n), beta=half, alpha=quarter)
        return torch.add(X, C, out=W[1])    # one rounding at X's size (it matters in bfloat16)

    def measure(Z, Y):
        torch.sub(Z, Y, out=W[0])
        return amax(W[:2])

    Y, *flags, made = solve(g, Y, measure, P, X.device, tol, maxit, sweeps, 0)
    Pb = psi(Y)
    return (cayley(X, Pb) if update == "cay" else commutator(X, product(Pb, Y), 1.0)), *flags, made


def cayley(X, Pb):
    """C X C*, C = (I - Psi/2)^-1 (I + Psi/2), of pairs X and Psi's real form: one complex LU
    per path, in complex128 for binary64 and complex64 otherwise (bfloat16 has no complex
    type: its LU is binary32); solve_ex, whose error check is not read (linalg.solve's is a
    host sync): Psi is skew-Hermitian, so the eigenvalues 1 - i lambda/2 of I - Psi/2 have
    modulus >= 1"""
    torch = _torch()
    dt = X.dtype
    n = X.shape[-1]
    cd = torch.complex128 if dt == torch.float64 else torch.complex64
    rd = torch.float64 if dt == torch.float64 else torch.float32
    Pc = torch.complex(Pb[:, :n, :n].to(rd), Pb[:, n:, :n].to(rd)).to(cd)
    Xc = torch.complex(X[:, 0].to(rd), X[:, 1].to(rd)).to(cd)
    eye = torch.eye(n, dtype=cd, device=Pc.device)
    C = torch.linalg.solve_ex(eye - 0.5 * Pc, eye + 0.5 * Pc)[0]   # no host check: I - Psi/2 is regular
    Xn = C @ Xc @ C.conj().transpose(-1, -2)
    return torch.stack((Xn.real, Xn.imag), 1).to(dt)
