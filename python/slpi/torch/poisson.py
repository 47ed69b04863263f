"""slpi.torch.poisson — the O(N^2) parts of Euler–Zeitlin's Psi on the device, for a batch
of skew-Hermitian pairs (docs/gpu.md#poisson derives them):

``Poisson``: h (L_m - kappa^2)^-1 on every diagonal m at once, as the C path's Thomas
solves (fast/zeitlin-basis.c) rewritten as two first-order linear recurrences,
  w_b = x_b - tc_{b-1} w_{b-1},  y_b = h tinv_b w_b,  p_b = y_b - tc_b p_{b+1},
each run as a Hillis–Steele scan: ceil(log2 N) elementwise operations over all diagonals
and paths, the multipliers' products precomputed (|tc| < 1: the products shrink). The
diagonals are held wrapped: row m of an (N, N) table holds X[(b+m) mod N, b], so the
gather from the matrix is one permutation, lower diagonal m at b < N - m and the rest
(entries of the upper triangle, never read: their multipliers are 0) after it. The C
path removes diagonal 0's mean before and after its solve; here that is a symmetric
rank-2 term added to the solve (``Poisson.trace``), which Modes applies.

``Modes``: the noise (Q) part, sum over l >= lmin of w_alpha omega_alpha(Y) Y_alpha, on
each diagonal's eigenvectors of order l >= lmin only (the C path's modal pass with lmin,
fast/zeitlin-basis.c), with the trace's two columns on diagonal 0. L_m is persymmetric,
so its eigenvectors are symmetric or antisymmetric: as the C path's parity blocks
(``slpi_fast_zeitlin_modal_init``), a diagonal m >= 1 is folded into u = x_a + x_{n-1-a},
v = x_a - x_{n-1-a} (a < n/2) and meets half tables (the symmetric and the antisymmetric
halves side by side), and the products give y_a = s + t, y_{n-1-a} = s - t back. The
diagonals are grouped (padded to the group's first diagonal), a group one batched product
to the coefficients, one weighting and one product back, whose rows are the paths' real
and imaginary parts (the pair folded into the product's columns: no copy of the table
per call); diagonal 0 (the trace's columns are of no parity) and, up to su(128), every
diagonal sit in unfolded groups of whole vectors, which read their diagonals in place."""
from slpi.torch.zeitlin import alpha_of, eigenvectors, laplacian


def _torch():
    import torch
    return torch


def _take(src, index):
    """src[:, index] of an (R, X) tensor: one gather by the index broadcast over the rows
    (PyTorch 1.13's CPU gather is several times faster than its index_select on dim 1)"""
    return _torch().gather(src, 1, index.expand(src.shape[0], -1))


class Poisson:
    """h (Delta_N - kappa^2)^-1 of pairs (P, 2, N, N) -> the lower triangle's diagonals solved,
    as a (P, 2, N, W) table (see solve)"""

    def __init__(self, N, kappa, h, dtype, device):
        torch = _torch()
        self.N, self.dtype, self.device = N, dtype, device
        shift = kappa * kappa
        self.pinned = shift == 0          # d = 0 with kappa = 0: the kernel (trace) pinned; the mean is removed
        #                                   before and after the solve in every case (fast/zeitlin-basis.c): trace
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
        self.trace = self._trace(tc[0], tinv[0], h)
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
        self.index, self.E = self.gather, 0
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

    def _trace(self, tc, tinv, h):
        """the trace's removal before and after diagonal 0's solve S (h T^-1, index 0 pinned
        when kappa = 0), as the C path removes it, in one symmetric rank-2 term added to S:
        C S C - S = lam_1 q_1 q_1^T + lam_2 q_2 q_2^T (C = I - 1 1^T / N; S symmetric, v = S 1:
        -(1 v^T + v 1^T) / N + (1^T v / N^2) 1 1^T), binary64 on the host from the Thomas
        factors of diagonal 0: (q (N, 2), lam (2,)) for Modes' extra columns"""
        import numpy as np
        N = self.N
        w, v = 0.0, [0.0] * N
        for b in range(N):                          # v = S 1 by the recurrences of ``solve``
            w = 1.0 - (tc[b - 1] * w if b else 0.0)
            v[b] = h * tinv[b] * w
        for b in range(N - 2, -1, -1):
            v[b] -= tc[b] * v[b + 1]
        v, one = np.array(v), np.ones(N)
        e = one / np.sqrt(N)
        f = v - (e @ v) * e                          # v's part off the constant: 0 in exact arithmetic
        f = f / np.linalg.norm(f) if np.linalg.norm(f) > 1e-10 * np.linalg.norm(v) else 0 * f   # when kappa != 0
        B = np.stack((e, f), 1)
        RB = -(np.outer(one, v @ B) + np.outer(v, one @ B)) / N + (v.sum() / N ** 2) * np.outer(one, one @ B)
        lam, U = np.linalg.eigh(B.T @ RB)
        return B @ U, lam

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

    def carry(self, index):
        """gather the entries ``index`` (2, E) of a path's pair (flat, Re then Im; row 0 after
        Re's diagonals, row 1 after Im's: a path's Re and Im diagonals one stride apart) with
        the diagonals: ``diagonals`` hands them back (Modes' folded inputs), in the same
        device operation"""
        torch = _torch()
        L = self.N * self.W
        self.E = index.shape[1]
        self.index = torch.cat((self.gather[:L], index[0], self.gather[L:], index[1]))

    def diagonals(self, Y):
        """the pairs (P, 2, N, N) as padded wrapped diagonals (P, 2, N, W) (Re 0, Im 1):
        diagonal m at columns pad .. pad + N - 1, the pads any finite numbers; and the
        carried entries (P, 2, E): one gather"""
        P, L = Y.shape[0], self.N * self.W
        out = _take(Y.reshape(P, -1), self.index).view(P, 2, L + self.E)
        return out[..., :L].view(P, 2, self.N, self.W), out[..., L:]

    def solve(self, a):
        """h L^-1 of the padded wrapped diagonals a (P, 2, N, W) (``diagonals``; a is overwritten),
        the trace not removed (``trace``'s columns do it, through Modes): the (P, 2, N, W) buffer
        whose rows hold the solution at columns pad .. pad + N - m - 1 (read it with
        ``matrix``). The buffer is reused by the next call."""
        torch = _torch()
        N, pad = self.N, self.pad
        if self.bufs is None or self.bufs.shape != a.shape:
            self.bufs = torch.zeros(a.shape, dtype=self.dtype, device=self.device)   # pads 0
        b = self.bufs
        mid = slice(pad, pad + N)
        for k, A in enumerate(self.fwd):            # 2K + 1 stages from a: the last writes b
            s = 1 << k
            torch.addcmul(a[..., mid], A, a[..., pad - s:pad + N - s], out=b[..., mid])
            a, b = b, a
        torch.mul(a[..., mid], self.scale, out=b[..., mid])
        a, b = b, a
        for k, G in enumerate(self.bwd):
            s = 1 << k
            torch.addcmul(a[..., mid], G, a[..., pad + s:pad + N + s], out=b[..., mid])
            a, b = b, a
        return a

    def matrix(self, buf, P):
        """Psi's real form [[Re, -Im], [Im, Re]] (P, 2N, 2N) of the skew-Hermitian pairs whose lower
        triangles the buffer (P, 2, N, W) holds: one gather and one product by the signs (exact)"""
        N = self.N
        return _take(buf.view(P, -1), self.block).view(P, 2 * N, 2 * N).mul_(self.sign)


class Modes:
    """sum_alpha w_alpha omega_alpha(Y) Y_alpha over the noise (Q) modes l >= lmin and the
    trace's two columns on diagonal 0 (``extra``, weighted by its lam), on the padded
    wrapped diagonals, per group of diagonals bounds[i] .. bounds[i+1]-1 (``groups``: the
    bounds and ``fold``; each group is 3 device operations a Psi, and fewer groups pad
    more). With ``fold``, a group of m >= 1 is folded: its rows a < ceil(n0/2) (n0 = N - m0) hold u, v = x_a +- x_{n-1-a} (the middle
    of an odd diagonal: u = 2 x_a, v = 0, its symmetric row halved), its table the
    symmetric eigenvectors' halves (0.5 (t_a + t_{n-1-a}), as the C path's parity blocks)
    beside the antisymmetric ones'. Per folded group (T (cnt, 2, ks, hs): block j = 0
    meets u, block 1 meets v; the columns of u and v: (r, path, part), each entry twice,
    r = 0 for the rows s + t, r = 1 for s - t):

      F_j = T_j u_j   (the coefficients, one batched product over the diagonals and j)
      G = F w         (w of block 1 negated in the columns r = 1)
      Y = (T_0; T_1)^T G   (columns r: s + t = y_a, s - t = y_{n-1-a})

    and Y goes into the solved diagonals by one gather and one product for every folded
    group (``add``). The other groups (diagonal 0's, and all without ``fold``) are
    unfolded: a table of whole vectors (T (cnt, n0, ks)), its product reading the
    diagonals x in place (columns (path, part)), F = T^T x, G = F w, and its product back
    T G adding straight into them (no gathered entries, no duplicated columns: at su(64)
    the folded layout's fourfold gather and doubled product made the step 10-25 % slower). The inputs are gathered with the diagonals (``index``, given to Poisson.carry)
    and folded by one operation; the weights per path are set once a step (``weights``:
    one gather of the increments, one product)."""

    def __init__(self, N, lmin, dtype, device, groups, extra, noise=((), ())):
        import numpy as np
        torch = _torch()
        self.N, self.dtype, self.device = N, dtype, device
        q, lam = extra
        bounds, fold = groups
        column = {a: i for i, a in enumerate(noise[0])}       # alpha -> the increments' column
        self.groups = []                             # (first row, m0, m1, hs, ks, folded, T (cnt, 2ks, hs))
        A, R, sgn, wrows = [], [], [], []            # per row: the entries folded; per weight row
        self.uidx = np.zeros(N * N, dtype=np.int64)  # buf position (m, b) <- Y's row (row, r)
        scale = np.zeros(N * N)
        rows = 0
        for m0, m1 in zip(bounds, bounds[1:]):
            n0, folded = N - m0, fold and m0 > 0
            hs = (n0 + 1) // 2 if folded else n0
            blocks = []                              # per diagonal: two lists of (vector, weight)
            for m in range(m0, m1):
                n, km = N - m, max(0, N - max(lmin, m))
                V = eigenvectors(N, m, "cpu").numpy()
                cols = []
                for col in range(km):
                    l = N - 1 - col
                    alphas = (None, alpha_of(l, 0)) if m == 0 else (alpha_of(l, m), alpha_of(l, -m))
                    cols.append((V[:, col], [(column[a], noise[1][column[a]], 0.0) if a in column else (0, 0.0, 0.0)
                                             for a in alphas]))
                if m == 0:
                    cols += [(q[:, i], [(0, 0.0, lam[i])] * 2) for i in range(len(lam))]
                if folded:
                    sym = [np.abs(v - v[::-1]).max() < np.abs(v + v[::-1]).max() for v, _ in cols]
                    blocks.append([[c for c, s in zip(cols, sym) if s == want] for want in (True, False)])
                else:
                    blocks.append([cols])
            ks = max([len(b) for bl in blocks for b in bl] + [0])
            if ks == 0:
                continue
            if not folded:                           # whole vectors (cnt, n0, ks), the diagonals read in place
                T = np.zeros((m1 - m0, n0, ks))
                for i, m in enumerate(range(m0, m1)):
                    for c in range(ks):
                        v, w = blocks[i][0][c] if c < len(blocks[i][0]) else (0.0, [(0, 0.0, 0.0)] * 2)
                        T[i, :N - m, c] = v
                        wrows.append(w)
                self.groups.append((rows, m0, m1, hs, ks, folded, torch.from_numpy(T).to(dtype=dtype, device=device)))
                continue
            T = np.zeros((m1 - m0, 2, ks, hs))
            for i, m in enumerate(range(m0, m1)):
                n, h = N - m, (N - m) // 2
                for j in range(2):                   # u's rows, then v's
                    for a in range(hs):              # rows past the diagonal's end: any entry (table 0)
                        b, rb = (a, n - 1 - a) if a < (n + 1) // 2 else (0, 0)
                        A += [((b + m) * N + b, (b + m) * N + b + N * N)] * 2         # once for each r
                        R += [((rb + m) * N + rb, (rb + m) * N + rb + N * N)] * 2
                        sgn += [-1.0 if j else 1.0] * 4
                for j in range(2):
                    for c, (v, w) in enumerate(blocks[i][j]):
                        T[i, j, c, :h] = 0.5 * (v[:h] + (-1) ** j * v[::-1][:h])
                        if n % 2 and j == 0:
                            T[i, j, c, h] = 0.5 * v[h]
                    for c in range(ks):
                        w = blocks[i][j][c][1] if c < len(blocks[i][j]) else [(0, 0.0, 0.0)] * 2
                        for r in range(2):
                            s = -1.0 if j == 1 and r == 1 else 1.0
                            wrows.append([(k, s * f, s * g) for k, f, g in w])
                for b in range(n):                   # where each entry of the diagonal comes from
                    if b < h:
                        src, sc = (rows + i * hs + b) * 2, 1.0
                    elif b == h and n % 2:
                        src, sc = (rows + i * hs + b) * 2, 2.0
                    else:
                        src, sc = (rows + i * hs + n - 1 - b) * 2 + 1, 1.0
                    self.uidx[m * N + b], scale[m * N + b] = src, sc
            self.groups.append((rows, m0, m1, hs, ks, folded, torch.from_numpy(T).to(dtype=dtype, device=device)))
            rows += (m1 - m0) * hs
        self.rows = rows
        self.index = torch.tensor(np.array(A + R, dtype=np.int64).reshape(-1, 2).T.copy(), device=device)   # (part, E)
        self.sgn = torch.tensor(sgn, dtype=dtype, device=device).view(2 * rows, 2, 1, 2)
        self.uidx = torch.from_numpy(self.uidx).to(device).view(N * N, 1)
        self.scale = torch.from_numpy(scale.reshape(N, N)).to(dtype=dtype, device=device)
        w = np.array(wrows).reshape(len(wrows), 2, 3)
        self.widx = torch.from_numpy(w[:, :, 0].astype(np.int64).reshape(-1)).to(device)
        self.wcoef = torch.from_numpy(w[:, :, 1].reshape(-1, 1, 2)).to(device)
        self.wconst = torch.from_numpy(w[:, :, 2].reshape(-1, 1, 2)).to(device)
        self.P = None

    def table_numbers(self):
        """the numbers the tables hold (padding included)"""
        return sum(g[-1].numel() for g in self.groups)

    def ready(self, P):
        """the buffers for P paths (made when P changes) and the weights without increments
        (the trace's columns)"""
        torch = _torch()
        if self.P == P:
            return
        self.P = P
        kw = dict(dtype=self.dtype, device=self.device)
        self.In = torch.empty(2 * self.rows, 2, P, 2, **kw)
        self.Y = torch.empty(self.rows * 2, 2 * P, **kw)
        shapes = [(2 * (m1 - m0), ks, 4 * P) if f else (m1 - m0, ks, 2 * P) for (_, m0, m1, _, ks, f, _) in self.groups]
        self.F = [torch.empty((sh[0], sh[2], sh[1]) if not g[5] else sh, **kw) for sh, g in zip(shapes, self.groups)]
        self.G = [torch.empty_like(F) for F in self.F]
        self.w64 = self.wconst.expand(-1, P, 2).contiguous()
        self.w = self.w64 if self.dtype == torch.float64 else self.w64.to(self.dtype)
        self.wg, o = [], 0
        for sh in shapes:
            wv = self.w[o:o + sh[0] * sh[1] * sh[2] // (2 * P)].view(sh)
            self.wg.append(wv if sh[2] == 4 * P else wv.transpose(1, 2))   # unfolded: (cnt, 2P, ks)
            o += sh[0] * sh[1] * sh[2] // (2 * P)

    def weights(self, eta):
        """the weights of this step's increments eta (P, M) (binary64; w = -a eta, as the
        C path rounds it, then the run's dtype)"""
        torch = _torch()
        P = eta.shape[0]
        self.ready(P)
        g = _take(eta, self.widx).view(P, -1, 2).permute(1, 0, 2)
        torch.addcmul(self.wconst, g, self.wcoef, out=self.w64)
        if self.w is not self.w64:
            self.w.copy_(self.w64)

    def apply(self, x, tail):
        """the modes' part of the padded wrapped diagonals x (P, 2, N, W) and the gathered
        entries ``tail`` (P, 2, E) (Poisson.diagonals' carried entries), before the solve
        overwrites x: per group a product and a weighting; a folded group's inputs are
        folded first (one operation for all) and its product back goes into this object's
        rows (``add``), an unfolded group reads its diagonals in place"""
        torch = _torch()
        P, rows = x.shape[0], self.rows
        pad = (x.shape[3] - self.N) // 2
        if rows:
            Av = tail[..., :4 * rows].view(P, 2, 2 * rows, 2).permute(2, 3, 0, 1)   # gathered for each r
            Rv = tail[..., 4 * rows:].view(P, 2, 2 * rows, 2).permute(2, 3, 0, 1)
            torch.addcmul(Av, self.sgn, Rv, out=self.In)              # u's rows, v's: (2 rows, 2, P, 2)
        In, Y = self.In.view(2 * rows, 4 * P), self.Y.view(rows, 4 * P)
        for (r0, m0, m1, hs, ks, folded, T), F, G, w in zip(self.groups, self.F, self.G, self.wg):
            cnt = m1 - m0
            if not folded:
                xin = x[..., m0:m1, pad:pad + hs].permute(2, 0, 1, 3).view(cnt, 2 * P, hs)
                torch.bmm(xin, T, out=F)
                torch.mul(F, w, out=G)
                continue
            torch.bmm(T.view(2 * cnt, ks, hs), In[2 * r0:2 * (r0 + cnt * hs)].view(2 * cnt, hs, 4 * P), out=F)
            torch.mul(F, w, out=G)
            if folded:
                torch.bmm(T.view(cnt, 2 * ks, hs).transpose(1, 2), G.view(cnt, 2 * ks, 4 * P),
                          out=Y[r0:r0 + cnt * hs].view(cnt, hs, 4 * P))

    def add(self, buf):
        """buf[p, part, m, pad + b] += the modes' sum from ``apply``: an unfolded group's
        product back straight into its diagonals, the folded groups' rows by one gather and
        one product"""
        torch = _torch()
        P, N = buf.shape[0], self.N
        pad = (buf.shape[3] - N) // 2
        for (r0, m0, m1, hs, ks, folded, T), G in zip(self.groups, self.G):
            if not folded:
                into = buf[..., m0:m1, pad:pad + hs].permute(2, 0, 1, 3).view(m1 - m0, 2 * P, hs)
                into.baddbmm_(G, T.transpose(1, 2))
        if any(g[5] for g in self.groups):
            v = torch.gather(self.Y, 0, self.uidx.expand(N * N, 2 * P))
            buf[..., pad:pad + N].addcmul_(v.view(N, N, P, 2).permute(2, 3, 0, 1), self.scale)
