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


def _take(src, index):
    """src[:, index] of an (R, X) tensor: one gather by the index broadcast over the rows
    (PyTorch 1.13's CPU gather is several times faster than its index_select on dim 1)"""
    return _torch().gather(src, 1, index.expand(src.shape[0], -1))


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
        self.W = W = N + 2 * self.pad
        # wrapped diagonals, padded: (m, pad + b) <- flat (b + m mod N) N + b of a (Re or Im) matrix; the pads
        # <- entry 0 (any finite number: the scans' multipliers there are 0)
        import numpy as np
        m, c = np.divmod(np.arange(N * W), W)
        b = c - self.pad
        inside = (b >= 0) & (b < N)
        one = np.where(inside, ((b + m) % N) * N + b, 0)
        self.gather = torch.from_numpy(np.concatenate((one, one + N * N))).to(device)   # Re's rows, then Im's
        # Psi's real form [[Re, -Im], [Im, Re]] (2N, 2N) from the solved lower triangle (rows Re, Im of a
        # path's (2, N, W) buffer): entry (i, j) of Re or Im from diagonal |i - j| at b = min(i, j), times
        # the sign of its triangle (Re: -1 above, 0 on the diagonal; Im: +1), and -1 more in the block of -Im
        i, j = np.divmod(np.arange(4 * N * N), 2 * N)
        part = (i >= N) != (j >= N)                 # Im's blocks
        i, j = i % N, j % N
        self.block = torch.from_numpy(part * N * W + np.abs(i - j) * W + self.pad + np.minimum(i, j)).to(device)
        sign = np.where(part, 1.0, np.sign(i - j)) * np.where(part & (np.arange(4 * N * N) % (2 * N) >= N), -1, 1)
        self.sign = torch.from_numpy(sign.reshape(2 * N, 2 * N)).to(dtype=dtype, device=device)
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
        """the pairs (P, 2, N, N) as padded wrapped diagonals (2P, N, W), row 2p + part (Re 0, Im 1):
        diagonal m at columns pad .. pad + N - 1, the pads any finite numbers"""
        P = Y.shape[0]
        return _take(Y.reshape(P, -1), self.gather).view(2 * P, self.N, self.W)

    def solve(self, a):
        """h L^-1 of the padded wrapped diagonals a (2P, N, W) (``diagonals``; a is overwritten):
        the (2P, N, W) buffer whose rows hold the solution at columns pad .. pad + N - m - 1
        (read it with ``matrix``). The buffer is reused by the next call."""
        torch = _torch()
        N, pad = self.N, self.pad
        if self.bufs is None or self.bufs.shape[0] != a.shape[0]:
            self.bufs = torch.zeros(a.shape[0], N, self.W, dtype=self.dtype, device=self.device)   # pads 0
        b = self.bufs
        mid = slice(pad, pad + N)
        a[:, 0, mid].sub_(a[:, 0, mid].mean(1, keepdim=True))     # the trace removed, as the C path
        for k, A in enumerate(self.fwd):            # 2K + 1 stages from a: the last writes b
            s = 1 << k
            torch.addcmul(a[:, :, mid], A, a[:, :, pad - s:pad + N - s], out=b[:, :, mid])
            a, b = b, a
        torch.mul(a[:, :, mid], self.scale, out=b[:, :, mid])
        a, b = b, a
        for k, G in enumerate(self.bwd):
            s = 1 << k
            torch.addcmul(a[:, :, mid], G, a[:, :, pad + s:pad + N + s], out=b[:, :, mid])
            a, b = b, a
        a[:, 0, mid].sub_(a[:, 0, mid].mean(1, keepdim=True))
        return a

    def matrix(self, buf, P):
        """Psi's real form [[Re, -Im], [Im, Re]] (P, 2N, 2N) of the skew-Hermitian pairs whose lower
        triangles the buffer holds: one gather and one product by the signs (exact)"""
        N = self.N
        return _take(buf.view(P, -1), self.block).view(P, 2 * N, 2 * N).mul_(self.sign)


class Modes:
    """w_alpha omega_alpha(Y) Y_alpha summed over the noise (Q) modes l >= lmin, on the
    wrapped diagonals: per group of diagonals m0..m1-1 the eigenvectors of order
    l >= max(lmin, m) of L_m (columns col = N-1-l of docs/systems.md's V_m), padded to the
    group's first diagonal (``groups`` of them: each is 3 device operations a Psi, and fewer
    groups pad more; lmin a bound when more than one); the weights per path are set once a
    step (``weights``)."""

    def __init__(self, N, lmin, dtype, device, groups):
        torch = _torch()
        self.N, self.dtype, self.device = N, dtype, device
        bounds = sorted({round(i * N / groups) for i in range(groups + 1)} | ({min(N, lmin)} if groups > 1 else set()))
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
        next calls: one scatter into the groups' (cnt, 2P, k) tables (row 2p + part)"""
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
                pos.append([offs[gi] + ((r * P + p) * 2 + part) * k + col for p in range(P)])
            self.pos = torch.tensor(pos, dtype=torch.int64, device=self.device).t().contiguous()   # (P, M)
        self.flat[self.pos] = w.to(self.dtype)

    def coefficients(self, x):
        """the weighted coefficients of the padded wrapped diagonals x (2P, N, W) at columns
        pad .. : per group one product and one weighting, (cnt, 2P, k) each"""
        torch = _torch()
        pad = (x.shape[2] - self.N) // 2
        return [torch.bmm(x[:, m0:m1, pad:pad + n].transpose(0, 1), V).mul_(w)
                for (m0, m1, n, k, V), w in zip(self.groups, self.w)]

    def add(self, buf, coefs):
        """buf[:, m, pad + b] += the modes' sum from ``coefficients``: one product a group"""
        pad = (buf.shape[2] - self.N) // 2
        for (m0, m1, n, k, V), c in zip(self.groups, coefs):
            buf[:, m0:m1, pad:pad + n].transpose(0, 1).baddbmm_(c, V.transpose(1, 2))
