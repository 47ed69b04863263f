"""slpi.torch.euler_zeitlin — the batched ISOMP stepper of Euler–Zeitlin and its family
(docs/systems.md#zeitlin-family): Psi(Y) = h B_0(Y) + sum_k eta_k B_k(Y) in the
coefficient form of slpi/torch/zeitlin.py, stepped by slpi/torch/isomp.py."""
from slpi.torch import isomp
from slpi.torch.zeitlin import Basis, Family


class Stepper:
    def __init__(self, kv, problem, x0, paths, dtype, device):
        import torch
        N = int(kv["N"])
        self.N, self.P, self.dtype, self.device = N, paths, dtype, device
        self.h = float(problem.h)
        self.basis = Basis(N, dtype, device)
        self.fam = Family(kv, self.basis)
        f64 = dict(dtype=torch.float64, device=device)
        lam = torch.tensor(self.fam.lam, **f64)
        F = torch.tensor(self.fam.F, **f64)
        self.g0 = self.h / lam                                 # h / lambda(l)
        self.k0 = -(self.h * F) / lam                          # -h omega(F) / lambda(l)
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
        self.X = (Xr.to(dtype).expand(paths, N, N).contiguous(), Xi.to(dtype).expand(paths, N, N).contiguous())

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

    def step(self, eta, tol, maxit, update, defect):
        if eta is None:
            import torch
            eta = torch.zeros(self.P, 0, dtype=torch.float64, device=self.device)
        g, k = self._coefficients(eta)
        basis, P = self.basis, self.P

        def psi(Y):
            c = basis.analyse(*Y)
            return basis.synthesise([gi * ci + ki for gi, ci, ki in zip(g, c, k)], P)
        self.X, it, st, cp = isomp.step(self.X, psi, tol, maxit, update, defect)
        return it, st, cp

    def packed(self):
        """the states in slpi's su(N) layout (P, N^2), float64 numpy"""
        import torch
        N = self.N
        Xr, Xi = self.X[0].double(), self.X[1].double()
        d = torch.diagonal(Xi, dim1=-2, dim2=-1)
        off = torch.stack([Xr[:, self.iu[0], self.iu[1]], Xi[:, self.iu[0], self.iu[1]]], -1).reshape(self.P, -1)
        return torch.cat([d, off], 1).cpu().numpy()
