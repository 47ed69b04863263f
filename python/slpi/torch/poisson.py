"""slpi.torch.poisson — the O(N^2) parts of Euler–Zeitlin's Psi on the device, for a batch
of skew-Hermitian pairs (docs/gpu.md#poisson derives them):

``Poisson``: h (L_m - kappa^2)^-1 on every diagonal m at once, as the C path's Thomas
solves (fast/zeitlin-basis.c) rewritten as two first-order linear recurrences,
  w_b = x_b - tc_{b-1} w_{b-1},  y_b = h tinv_b w_b,  p_b = y_b - tc_b p_{b+1},
each run as a Hillis–Steele scan: ceil(log2 N) elementwise operations over all diagonals
and paths, the multipliers' products precomputed (|tc| < 1: the products shrink). The
diagonals are held wrapped: row m of an (N, N) table holds X[(b+m) mod N, b], so the
gather from the matrix is one permutation, lower diagonal m at b < N - m and the rest
(entries of the upper triangle, never read: their multipliers are 0) after it.

``Modes``: the noise (Q) part, sum over l >= lmin of w_alpha omega_alpha(Y) Y_alpha, on
each diagonal's eigenvectors of order l >= lmin only (the C path's modal pass with lmin,
fast/zeitlin-basis.c), grouped in a few batched products whose rows are the paths' real
and imaginary parts side by side (the pair folded into the product's rows: no copy of
the table per call)."""
from slpi.torch.zeitlin import alpha_of, eigenvectors, laplacian


def _torch():
    import torch
    return torch


class Poisson:
    """h (Delta_N - kappa^2)^-1 of pairs (P, N, N) -> the lower triangle's diagonals solved,
    as a (2P, N, W) table (see solve)"""

    def __init__(self, N, kappa, h, dtype, device):
        torch = _torch()
        self.N, self.dtype, self.device = N, dtype, device
        shift = kappa * kappa
        self.pinned = shift == 0          # d = 0 with kappa = 0: the kernel (trace) pinned; the mean is removed
        #                                   before and after the solve in every case (fast/zeitlin-basis.c)
        tc = [[0.0] * N for _ in range(N)]          # built in Python floats: one tensor, not N^2 operations
        tinv = [[0.0] * N for _ in range(N)]
        for m in range(N):
            d, e = laplacian(N, m)
            n, i0 = N - m, 1 if (m == 0 and self.pinned) else 0
            prev = 0.0
            for i in range(i0, n):
                den = d[i] - shift - (e[i - 1] * prev if i > i0 else 0.0)
                tinv[m][i] = 1.0 / den
                prev = e[i] * tinv[m][i] if i + 1 < n else 0.0
                tc[m][i] = prev
        tc, tinv = torch.tensor(tc, dtype=torch.float64), torch.tensor(tinv, dtype=torch.float64)
        self.K = max(1, (N - 1).bit_length())      # stages: 2^K >= N
        self.pad = 1 << (self.K - 1)
        alpha = torch.zeros(N, N, dtype=torch.float64)
        alpha[:, 1:] = -tc[:, :-1]                  # w_b = x_b + alpha_b w_{b-1}
        gamma = -tc                                 # p_b = y_b + gamma_b p_{b+1}
        self.fwd, self.bwd = self._stages(alpha, 1), self._stages(gamma, -1)
        self.scale = (h * tinv).to(dtype=dtype, device=device)
        # wrapped diagonals: (m, b) <- flat (b + m mod N) N + b, and its inverse on the lower triangle
        m = torch.arange(N).repeat_interleave(N)
        b = torch.arange(N).repeat(N)
        self.gather = (((b + m) % N) * N + b).to(device)
        W = N + 2 * self.pad
        inv = torch.empty(N * N, dtype=torch.int64)
        lower = b < N - m
        inv[self.gather[lower.to(device)].cpu()] = (m * W + self.pad + b)[lower]
        upper = torch.ones(N * N, dtype=torch.bool)
        upper[self.gather[lower.to(device)].cpu()] = False
        inv[upper] = 0                              # any left pad: 0
        self.scatter = inv.to(device)
        self.W = W
        self.bufs = None

    def _stages(self, coef, direction):
        """the scan's multipliers per stage k (shift 2^k, in direction): A_0 = coef,
        A_{k+1}[b] = A_k[b] A_k[b - direction 2^k] (0 beyond the ends), each (N, N) in the
        run's dtype"""
        torch = _torch()
        out, A = [], coef.clone()
        for k in range(self.K):
            s = 1 << k
            out.append(A.to(dtype=self.dtype, device=self.device))
            nxt = torch.zeros_like(A)
            if direction > 0:
                nxt[:, s:] = A[:, s:] * A[:, :-s]
            else:
                nxt[:, :-s] = A[:, :-s] * A[:, s:]
            A = nxt
        return out

    def diagonals(self, Y):
        """the stacked pair (2, P, N, N) as wrapped diagonals (2P, N, N), the pair folded into rows"""
        P = Y.shape[1]
        return Y.reshape(2 * P, self.N * self.N).index_select(1, self.gather).view(2 * P, self.N, self.N)

    def solve(self, x):
        """h L^-1 of the wrapped diagonals x (2P, N, N): the (2P, N, W) buffer whose rows
        hold the solution at columns pad .. pad + N - m - 1 and 0 elsewhere (read it
        with ``matrix``). The buffer is reused by the next call."""
        torch = _torch()
        N, pad = self.N, self.pad
        if self.bufs is None or self.bufs[0].shape[0] != x.shape[0]:
            self.bufs = [torch.zeros(x.shape[0], N, self.W, dtype=self.dtype, device=self.device) for _ in range(2)]
        a, b = self.bufs
        a[:, :, pad:pad + N].copy_(x)
        a[:, 0, pad:pad + N].sub_(x[:, 0, :].mean(1, keepdim=True))     # the trace removed, as the C path

        mid = slice(pad, pad + N)                   # the pads stay 0: never written
        for k, A in enumerate(self.fwd):
            s = 1 << k
            torch.addcmul(a[:, :, mid], A, a[:, :, pad - s:pad + N - s], out=b[:, :, mid])
            a, b = b, a
        torch.mul(a[:, :, mid], self.scale, out=b[:, :, mid])
        a, b = b, a
        for k, G in enumerate(self.bwd):
            s = 1 << k
            torch.addcmul(a[:, :, mid], G, a[:, :, pad + s:pad + N + s], out=b[:, :, mid])
            a, b = b, a
        a[:, 0, pad:pad + N].sub_(a[:, 0, pad:pad + N].mean(1, keepdim=True))
        return a

    def matrix(self, buf, sign, P):
        """the skew-Hermitian pair (stacked, (2, P, N, N)) whose lower triangle the buffer
        holds: one gather, then Z = B + S B^T (S: -1 on Re, +1 on Im off the diagonal, 0 on
        Im's diagonal)"""
        torch = _torch()
        N = self.N
        B = buf.view(2 * P, -1).index_select(1, self.scatter).view(2, P, N, N)
        return torch.addcmul(B, sign, B.transpose(-1, -2))

    def sign(self):
        torch = _torch()
        S = torch.ones(2, 1, self.N, self.N, dtype=self.dtype, device=self.device)
        S[0] = -1
        S[1, 0].fill_diagonal_(0)
        return S


class Modes:
    """w_alpha omega_alpha(Y) Y_alpha summed over the noise (Q) modes l >= lmin, on the
    wrapped diagonals: per group of diagonals m0..m1-1 the eigenvectors of order
    l >= max(lmin, m) of L_m (columns col = N-1-l of docs/systems.md's V_m), padded to the
    group's first diagonal; the weights per path are set once a step (``weights``)."""

    def __init__(self, N, lmin, dtype, device, groups=8):
        torch = _torch()
        self.N, self.dtype, self.device = N, dtype, device
        bounds = sorted({round(i * N / groups) for i in range(groups + 1)} | {min(N, lmin)})
        self.groups = []                            # (m0, m1, n, k, V (cnt, n, k))
        slot = {}                                   # alpha -> (group, row, col, part)
        for g in range(len(bounds) - 1):
            m0, m1 = bounds[g], bounds[g + 1]
            n, k = N - m0, N - max(lmin, m0)
            if k <= 0:
                continue
            V = torch.zeros(m1 - m0, n, k, dtype=torch.float64)
            for m in range(m0, m1):
                nm, km = N - m, N - max(lmin, m)
                V[m - m0, :nm, :km] = eigenvectors(N, m, "cpu")[:, :km]
                for col in range(km):
                    l = N - 1 - col
                    if m == 0:
                        slot[alpha_of(l, 0)] = (len(self.groups), 0, col, 1)
                    else:
                        slot[alpha_of(l, m)] = (len(self.groups), m - m0, col, 0)
                        slot[alpha_of(l, -m)] = (len(self.groups), m - m0, col, 1)
            self.groups.append((m0, m1, n, k, V.to(dtype=dtype, device=device)))
        self.slot = slot
        self.w = None

    def weights(self, alphas, w):
        """the weights w (P, M) of the modes alphas (each l >= lmin), binary64, for the
        next calls: one scatter into the groups' (cnt, 2P, k) tables"""
        torch = _torch()
        P = w.shape[0]
        if self.w is None or self.w[0].shape[1] != 2 * P:
            sizes = [(m1 - m0) * 2 * P * k for (m0, m1, n, k, _) in self.groups]
            self.flat = torch.zeros(sum(sizes), dtype=self.dtype, device=self.device)
            offs, o = [], 0
            for sz in sizes:
                offs.append(o)
                o += sz
            self.w = [self.flat[o:o + sz].view(m1 - m0, 2 * P, k)
                      for o, sz, (m0, m1, n, k, _) in zip(offs, sizes, self.groups)]
            pos = []
            for a in alphas:
                gi, r, col, part = self.slot[a]
                k = self.groups[gi][3]
                pos.append([offs[gi] + ((r * 2 + part) * P + p) * k + col for p in range(P)])
            self.pos = torch.tensor(pos, dtype=torch.int64, device=self.device).t().contiguous()   # (P, M)
        self.flat[self.pos] = w.to(self.dtype)

    def add(self, buf, x, pad):
        """buf[:, m, pad + b] += the modes' sum, from the wrapped diagonals x (2P, N, N):
        per group one product to the coefficients, their weighting, one product back"""
        torch = _torch()
        for (m0, m1, n, k, V), w in zip(self.groups, self.w):
            z = x[:, m0:m1, :n].transpose(0, 1)                       # (cnt, 2P, n)
            c = torch.bmm(z, V).mul_(w)                              # (cnt, 2P, k)
            out = buf[:, m0:m1, pad:pad + n].transpose(0, 1)
            out.baddbmm_(c, V.transpose(1, 2))
