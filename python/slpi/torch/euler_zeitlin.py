"""slpi.torch.euler_zeitlin — the batched ISOMP stepper of Euler–Zeitlin and its family
(docs/systems.md#zeitlin-family): Psi(Y) = h B_0(Y) + sum_k eta_k B_k(Y), stepped by
slpi/torch/isomp.py. Two routes (docs/gpu.md#how):

- the O(N^2) route (no ``multiplier``): h B_0 = h (Delta_N - kappa^2)^-1 (Y - F) by the
  scanned Thomas solves of slpi/torch/poisson.py, noise (Q)'s modes l >= N/2 by its
  grouped products, and the step's constant part (F; noise L, modes, fields) added on
  the diagonals, synthesised once a step (once a run for F alone) by the full basis;
- the modal route (``multiplier``): every coefficient through the full basis of
  slpi/torch/zeitlin.py (its folded products)."""
from slpi.torch import isomp
from slpi.torch.poisson import Modes, Poisson
from slpi.torch.zeitlin import Basis, Family


def modes_groups(N):
    """the noise (Q) tables' groups (slpi.torch.poisson.Modes; docs/gpu.md#cost): their
    bounds, and whether the groups past diagonal 0 are folded. One unfolded group up to
    su(64), where the device operations cost more than the tables; 3 unfolded groups at
    su(128), where the fold's fixed costs outweigh the table bytes it saves (measured:
    10.1-10.6 ms a step against 11.5-13.3 folded); above, diagonal 0 alone (unfolded:
    the trace's columns have no parity) and the folded diagonals 1 .. N-1 in 2 groups up
    to su(256) (split at N/2, where the modes' count starts to fall) and 1 above, where
    the scans' 2 more operations a Psi a doubling of N need the room (each group is 3
    operations a Psi)"""
    if N <= 64:
        return [0, N], False
    if N <= 128:
        return [round(i * N / 3) for i in range(4)], False
    return ([0, 1, N // 2, N] if N <= 256 else [0, 1, N]), True


class Stepper:
    def __init__(self, kv, problem, x0, paths, dtype, device):
        import torch
        N = int(kv["N"])
        self.N, self.P, self.dtype, self.device = N, paths, dtype, device
        self.h = float(problem.h)
        self._basis, self.sweeps, self.made = None, None, 0
        self.fam = Family(kv, N)
        f64 = dict(dtype=torch.float64, device=device)
        lam = torch.tensor(self.fam.lam, **f64)
        F = torch.tensor(self.fam.F, **f64)
        self.g0 = self.h / lam                                 # h / lambda(l)
        self.k0 = -(self.h * F) / lam                          # -h omega(F) / lambda(l)
        self.fast = not kv.get("multiplier", "")
        if self.fast:
            self.pois = Poisson(N, float(kv.get("kappa", 0) or 0), self.h, dtype, device)
            q = self.fam.noise == "Q" and self.fam.M
            self.modes = Modes(N, N // 2 if q else N, dtype, device, modes_groups(N), self.pois.trace,
                               (self.fam.comp, [-a for a in self.fam.a]) if q else ((), ()))
            self.pois.carry(self.modes.index)
            self.modes_noise = bool(q)
            self.const_per_step = self.fam.noise in ("L", "modes", "fields") and self.fam.M > 0
            self.const = None if self.const_per_step or not bool((F != 0).any()) else self._constant(None)
        self.comp = torch.tensor(self.fam.comp, dtype=torch.int64, device=device)
        self.a = torch.tensor(self.fam.a, **f64)
        self.xi = torch.tensor(self.fam.xi, **f64) if self.fam.noise == "fields" else None
        v = torch.tensor(x0, **f64)
        iu = torch.triu_indices(N, N, 1, device=device)
        self.iu = iu
        Xr = torch.zeros(N, N, **f64)
        Xi = torch.zeros(N, N, **f64)
        Xi[range(N), range(N)] = v[:N]
        off = v[N:].reshape(-1, 2)
        Xr[iu[0], iu[1]], Xi[iu[0], iu[1]] = off[:, 0], off[:, 1]
        Xr[iu[1], iu[0]], Xi[iu[1], iu[0]] = -off[:, 0], off[:, 1]
        self.state = torch.stack((Xr, Xi))[None].to(dtype).expand(paths, 2, N, N).contiguous()   # pairs (P, 2, N, N)

    def _coefficients(self, eta):
        """the grouped g and k of this step's increments (P, M), in the run's dtype"""
        import torch
        P = self.P
        g = self.g0.expand(P, -1).clone()
        k = self.k0.expand(P, -1).clone()
        noise = self.fam.noise
        if noise == "Q":
            g[:, self.comp] += -(self.a * eta)
        elif noise in ("L", "modes"):
            k[:, self.comp] += -(self.a * eta)
        elif noise == "fields":
            k += -(eta @ self.xi)
        k = k * self.basis.alpha_scale
        gl = self.basis.split(self.basis.coefficients_layout(g))
        kl = self.basis.split(self.basis.coefficients_layout(k))
        return [t.to(self.dtype) for t in gl], [t.to(self.dtype) for t in kl]

    @property
    def basis(self):
        """the full basis (0.365 N^3 numbers), built when first needed: the modal route, or
        a constant part of Psi"""
        if self._basis is None:
            self._basis = Basis(self.N, self.dtype, self.device)
        return self._basis

    def _constant(self, eta):
        """the step's constant part of Psi (sum_alpha k_alpha Y_alpha) as the lower triangle's
        wrapped diagonals (P, 2, N, N), 0 above: one synthesis by the full basis"""
        import torch
        P = self.P
        k = self.k0.expand(P, -1).clone()
        if eta is not None:
            if self.fam.noise in ("L", "modes"):
                k[:, self.comp] += -(self.a * eta)
            else:
                k += -(eta @ self.xi)
        k = k * self.basis.alpha_scale
        kl = [t.to(self.dtype) for t in self.basis.split(self.basis.coefficients_layout(k))]
        N, pad = self.N, self.pois.pad
        x = self.pois.diagonals(self.basis.synthesise(kl, P))[0][..., pad:pad + N]
        lower = torch.arange(N, device=self.device)[None, :] < N - torch.arange(N, device=self.device)[:, None]
        return x * lower

    def step(self, eta, tol, maxit, update, defect):
        import torch
        if eta is None:
            eta = torch.zeros(self.P, 0, dtype=torch.float64, device=self.device)
        P = self.P
        if self.fast:
            pois, pad, N, modes = self.pois, self.pois.pad, self.N, self.modes
            if self.modes_noise:
                modes.weights(eta)
            else:
                modes.ready(P)
            const = self._constant(eta) if self.const_per_step else self.const

            def psi(Y):
                x, tail = pois.diagonals(Y)
                modes.apply(x, tail)                # before the solve overwrites x
                buf = pois.solve(x)
                modes.add(buf)                      # the noise (Q) modes and the trace's removal
                if const is not None:
                    buf[..., pad:pad + N] += const
                return pois.matrix(buf, P)
        else:
            g, k = self._coefficients(eta)
            basis = self.basis

            def psi(Y):
                c = basis.analyse(Y[:, 0], Y[:, 1])
                return isomp.block(basis.synthesise([gi * ci + ki for gi, ci, ki in zip(g, c, k)], P))
        self.state, it, st, cp, short, made = isomp.step(self.state, psi, tol, maxit, update, defect, self.sweeps)
        self.made = max(self.made, made)
        return it, st, cp, short

    def packed(self):
        """the states in slpi's su(N) layout (P, N^2), float64, on the device"""
        import torch
        Xr, Xi = self.state[:, 0].double(), self.state[:, 1].double()
        d = torch.diagonal(Xi, dim1=-2, dim2=-1)
        off = torch.stack([Xr[:, self.iu[0], self.iu[1]], Xi[:, self.iu[0], self.iu[1]]], -1).reshape(self.P, -1)
        return torch.cat([d, off], 1)
