"""slpi.torch.zeitlin — Euler–Zeitlin on su(N) and its family (docs/systems.md#euler-zeitlin,
docs/systems.md#zeitlin-family) for the batched ISOMP step of slpi.torch.isomp, in PyTorch.

A skew-Hermitian matrix is a pair of real tensors (Re, Im), shape (P, N, N) for P paths:
every dtype of slpi.torch (bfloat16 too, which has no complex type) runs one code. The
operators of the family are diagonal in the real basis Y_alpha (systems.md, "Harmonics
and the real basis"): on lower diagonal m (entries X[b+m, b], b = 0..N-m-1) the basis
elements of order m are the unit eigenvectors t_l of the tridiagonal L_m (last entry
positive), so the coefficients of X on diagonal m are z V_m, V_m = (t_{N-1} .. t_m) by
column (col = N-1-l), and

  m >= 1:  z V_m = (omega^c_lm + i omega^s_lm) / sqrt(2)    (Y^c_lm, Y^s_lm)
  m  = 0:  Im(z) V_0 = omega_l0                             (Y_l0; l = 0, the trace, dropped)

A map Psi(Y) = sum_alpha (g_alpha omega_alpha(Y) + k_alpha) Y_alpha is then, diagonal by
diagonal, ((g o (z V_m)) + k') V_m^T, k' = k / sqrt(2) for m >= 1. Here g_alpha =
h / lambda(l) + [noise Q] (-a_l eta_alpha) and k_alpha = -h omega_alpha(F) / lambda(l) +
[noise L, modes, fields] (-sum_k eta_k b_k,alpha): B_0 = L^-1(X - F) and the noise
Hamiltonians of docs/systems.md. The diagonals are grouped and padded so that each group
is one batched product (memory: 0.365 N^3 table entries, 23.4 GiB at N = 2048 in float64).
The tables are built once in binary64 (torch.linalg.eigh, one call per diagonal, on the
run's device: LAPACK on the CPU as the C path, cuSOLVER on a GPU), then stored in the run's dtype."""
import math

SQRT_4PI_3 = math.sqrt(4 * math.pi / 3)


def _torch():
    import torch
    return torch


def alpha_of(l, m):
    """the index alpha = l^2 - 1 + j of mode (l, m) (j = 0 for m = 0, 2m - 1 for Y^c, 2|m| for Y^s)"""
    return l * l - 1 + (0 if m == 0 else 2 * m - 1 if m > 0 else -2 * m)


def parse_modes(text, N, key):
    """[(alpha, amp)] of a list 'l:m:amp,...' (checked by the C library already)"""
    out = []
    for item in [t for t in str(text).split(",") if t.strip()]:
        l, m, a = item.split(":")
        l, m = int(l), int(m)
        if not (1 <= l < N and abs(m) <= l):
            raise ValueError("%s=%s: mode (%d, %d) is not one of su(%d)" % (key, text, l, m, N))
        out.append((alpha_of(l, m), float(a)))
    return out


def laplacian(N, m):
    """the diagonal and off-diagonal of L_m (docs/systems.md#laplacian), binary64 lists"""
    s = (N - 1) / 2.0
    mm = [a - s for a in range(N)]
    beta = [math.sqrt(s * (s + 1) - mm[a] * (mm[a] + 1)) if a < N - 1 else 0.0 for a in range(N)]
    n = N - m
    return ([-2 * (s * (s + 1) - mm[a] * mm[a + m]) for a in range(n)],
            [beta[a] * beta[a + m] for a in range(n - 1)])


def eigenvectors(N, m, device):
    """L_m's unit eigenvectors by column, binary64 (N - m, N - m) on device: ascending
    eigenvalues (column 0 is l = N - 1), the exact last entry positive (slpi.sphere's
    exact_signs, from each column's largest entry: the computed last entry is below the
    rounding for some columns from N = 67)"""
    import numpy
    from slpi.sphere import exact_signs
    torch = _torch()
    d, e = laplacian(N, m)
    T = numpy.diag(d) + numpy.diag(e, 1) + numpy.diag(e, -1)        # on the host: exact (sums with 0)
    v = torch.linalg.eigh(torch.from_numpy(T).to(device))[1]
    i = v.abs().argmax(dim=0)
    at = v.gather(0, i[None])[0]
    l = numpy.arange(N - 1, m - 1, -1)
    s = exact_signs(d, e, -l * (l + 1.0), i.cpu().numpy(), at.cpu().numpy())
    return v * torch.from_numpy(s).to(device)


class Basis:
    """The per-diagonal tables V_m of su(N), grouped (``groups`` consecutive diagonals
    padded to the first one's length), in dtype on device, and the maps between the
    alpha order and the grouped coefficient layout."""

    def __init__(self, N, dtype, device, groups=None):
        torch = _torch()
        self.N, self.dtype, self.device = N, dtype, device
        G = groups or max(1, min(N, 16 if N >= 64 else N))
        bounds = [round(i * N / G) for i in range(G + 1)]
        self.groups = []                   # (m0, m1, n_max, V (cnt, n, n), lower index (cnt, n))
        lower_pos = {}                     # (m, b) -> position in the flat lower layout
        self.L = N * (N + 1) // 2
        for m in range(N):
            for b in range(N - m):
                lower_pos[(m, b)] = len(lower_pos)
        self.flat_lower = torch.tensor([(b + m) * N + b for (m, b) in lower_pos], dtype=torch.int64, device=device)
        self.flat_upper = torch.tensor([b * N + b + m for (m, b) in lower_pos], dtype=torch.int64, device=device)
        self.alpha_slot = [None] * (N * N - 1)   # alpha -> (group, row in group, col, part 0 re / 1 im)
        for g in range(G):
            m0, m1 = bounds[g], bounds[g + 1]
            if m0 == m1:
                continue
            n_max = N - m0
            V = torch.zeros(m1 - m0, n_max, n_max, dtype=torch.float64, device=device)
            idx = torch.full((m1 - m0, n_max), self.L, dtype=torch.int64)   # L: the padding slot
            for m in range(m0, m1):
                n = N - m
                V[m - m0, :n, :n] = eigenvectors(N, m, device)
                idx[m - m0, :n] = torch.tensor([lower_pos[(m, b)] for b in range(n)])
                for col in range(n):
                    l = N - 1 - col
                    if l == 0:
                        continue
                    if m == 0:
                        self.alpha_slot[alpha_of(l, 0)] = (len(self.groups), 0, col, 1)
                    else:
                        self.alpha_slot[alpha_of(l, m)] = (len(self.groups), m - m0, col, 0)
                        self.alpha_slot[alpha_of(l, -m)] = (len(self.groups), m - m0, col, 1)
            self.groups.append((m0, m1, n_max, V.to(dtype=dtype), idx.to(device)))
        # alpha -> flat position in the grouped layout (group-major), and the scale of a
        # constant coefficient (1/sqrt(2) off the diagonal)
        self.sizes = [(m1 - m0) * n for (m0, m1, n, _, _) in self.groups]
        off = [0]
        for sz in self.sizes:
            off.append(off[-1] + sz)
        self.offsets = off
        pos, part, scale = [], [], []
        for a in range(N * N - 1):
            gi, r, col, pt = self.alpha_slot[a]
            pos.append(off[gi] + r * self.groups[gi][2] + col)
            part.append(pt)
            scale.append(1.0 if self.groups[gi][0] + r == 0 else 1.0 / math.sqrt(2.0))
        self.alpha_pos = torch.tensor(pos, dtype=torch.int64, device=device)
        self.alpha_part = torch.tensor(part, dtype=torch.int64, device=device)
        self.alpha_scale = torch.tensor(scale, dtype=torch.float64, device=device)
        self.K = off[-1]

    def coefficients_layout(self, values):
        """alpha-ordered values (..., N^2 - 1), binary64, to the grouped layout (..., 2, K)
        (part 0: the real parts' slots, 1: the imaginary parts'), unscaled"""
        torch = _torch()
        out = torch.zeros(values.shape[:-1] + (2, self.K), dtype=values.dtype, device=values.device)
        flat = out.reshape(values.shape[:-1] + (2 * self.K,))
        flat[..., self.alpha_part * self.K + self.alpha_pos] = values
        return out

    def analyse(self, Xr, Xi):
        """(P, N, N) pair -> the coefficients z V_m per group: a list of (2, cnt, P, n)"""
        torch = _torch()
        P = Xr.shape[0]
        zero = torch.zeros(P, 1, dtype=Xr.dtype, device=Xr.device)
        lr = torch.cat([Xr.reshape(P, -1)[:, self.flat_lower], zero], 1)   # padding slot last
        li = torch.cat([Xi.reshape(P, -1)[:, self.flat_lower], zero], 1)
        out = []
        for (m0, m1, n, V, idx) in self.groups:
            z = torch.stack([lr[:, idx], li[:, idx]], 1)       # (P, 2, cnt, n)
            z = z.permute(2, 1, 0, 3).reshape(m1 - m0, 2 * P, n)   # the pair folded into the rows
            out.append(torch.bmm(z, V).view(m1 - m0, 2, P, n).transpose(0, 1))   # (2, cnt, P, n)
        return out

    def synthesise(self, coefs, P):
        """the inverse of analyse: grouped coefficients -> skew-Hermitian pairs (P, 2, N, N)"""
        torch = _torch()
        N = self.N
        lr = torch.zeros(P, self.L + 1, dtype=self.dtype, device=self.device)
        li = torch.zeros(P, self.L + 1, dtype=self.dtype, device=self.device)
        for (m0, m1, n, V, idx), c in zip(self.groups, coefs):
            c = c.expand(2, m1 - m0, P, n).transpose(0, 1).reshape(m1 - m0, 2 * P, n)   # folded, as analyse
            z = torch.bmm(c, V.transpose(-1, -2)).view(m1 - m0, 2, P, n)
            z = z.permute(1, 2, 0, 3).reshape(2, P, -1)
            lr[:, idx.reshape(-1)] = z[0]
            li[:, idx.reshape(-1)] = z[1]
        Y = torch.zeros(P, 2, N * N, dtype=self.dtype, device=self.device)
        Yr, Yi = Y[:, 0], Y[:, 1]
        Yr[:, self.flat_upper] = -lr[:, :self.L]
        Yi[:, self.flat_upper] = li[:, :self.L]
        Yr[:, self.flat_lower] = lr[:, :self.L]     # the diagonal: lower wins (Re = 0 there)
        Yi[:, self.flat_lower] = li[:, :self.L]
        return Y.view(P, 2, N, N)

    def split(self, layout):
        """a grouped layout (..., 2, K) as the list of (2, cnt, ..., n) tensors analyse gives"""
        out = []
        for (m0, m1, n, _, _), o, sz in zip(self.groups, self.offsets, self.sizes):
            t = layout[..., o:o + sz].reshape(layout.shape[:-1] + (m1 - m0, n))   # (..., 2, cnt, n)
            nd = t.dim()
            t = t.permute([nd - 3, nd - 2] + list(range(nd - 3)) + [nd - 1])     # (2, cnt, ..., n)
            out.append(t)
        return out


class Family:
    """The problem's data in coefficient form: lambda(l), F, the noise components"""

    def __init__(self, keys, N):
        self.N = N
        deg = [math.isqrt(a + 1) for a in range(N * N - 1)]          # alpha = l^2 - 1 + j, j <= 2l
        kappa = float(keys.get("kappa", 0) or 0)
        mult = keys.get("multiplier", "")
        if mult:
            lam = [_multiplier(mult, l) for l in range(N)]
        else:
            lam = [-(l * (l + 1)) - kappa * kappa for l in range(N)]
        self.lam = [lam[l] for l in deg]                                # by alpha
        F = [0.0] * (N * N - 1)
        rot = float(keys.get("rotation", 0) or 0)
        if rot:
            F[alpha_of(1, 0)] += 2 * rot * SQRT_4PI_3
        for a, amp in parse_modes(keys.get("background_modes", ""), N, "background_modes"):
            F[a] += amp
        self.F = F
        self.noise = keys.get("noise", "Q")
        amp = float(keys.get("amp", 0) or 0)
        lmin = N // 2
        if self.noise in ("Q", "L"):
            self.comp = [(lmin * lmin - 1 + k) for k in range(N * N - lmin * lmin)]
            self.a = [amp / (deg[a] * (deg[a] + 1)) for a in self.comp]
        elif self.noise == "modes":
            md = parse_modes(keys["noise_modes"], N, "noise_modes")
            self.comp, self.a = [a for a, _ in md], [amp_k for _, amp_k in md]
        elif self.noise == "fields":
            import numpy
            self.xi = numpy.loadtxt(keys["noise_fields"], ndmin=2, comments="#", delimiter=None)
            self.comp, self.a = list(range(self.xi.shape[0])), [1.0] * self.xi.shape[0]
        else:
            self.comp, self.a = [], []
        self.M = len(self.comp)


def _multiplier(text, l):
    """lambda(l) of an expression in l and pi (docs/models.md#grammar: ^ is a power)"""
    env = {"l": float(l), "pi": math.pi, "__builtins__": {}}
    for f in ("sqrt", "exp", "log", "sin", "cos", "tan", "atan", "tanh", "sinh", "cosh"):
        env[f] = getattr(math, f)
    env["abs"] = abs
    return float(eval(str(text).replace("^", "**"), env))   # the C library parsed and checked it
