"""slpi.torch.rigid — the batched ISOMP stepper of the rigid body on so(3)
(docs/systems.md#rigid-body-iso), on vectors x (paths, 3) with X = x^.

Psi = psi^ with psi(y) = -(h I^-1 y + sum_k eta_k xi_k(y)), the generators B_k = -xi_k^ of
the noise models (iso-quad, iso-quad1: xi_k = amp y_k e_k; svi-lin: amp e_k; svi-lin1:
amp/sqrt(3) (1, 1, 1); const-e3: amp e_3). docs/schemes.md#isomp's iteration in vector
form: [a^, b^] = (a x b)^ and a^ b^ a^ = -(a . b) a^ [derived: a^ b^ a^ v = a x (b x (a x
v)) = -(a . b)(a x v) for every v], so

  Y(0) = x + 1/2 psi(x) x x,  Y(l+1) = x + 1/2 psi(Y) x Y - 1/4 (psi(Y) . Y) psi(Y),
  x' = x + psi(Y) x Y  (comm; cay is refused here)

with docs/schemes.md#solver's stopping rule on every path."""
import math

from . import isomp


class Stepper:
    def __init__(self, kv, problem, x0, paths, dtype, device):
        import torch
        if kv.get("form", "iso") != "iso":
            raise ValueError("slpi.torch: rigid-body form=%s: the torch path runs form=iso" % kv.get("form"))
        if kv.get("update", "comm") != "comm":
            raise ValueError("slpi.torch: rigid-body update=%s: the torch path runs update=comm" % kv.get("update"))
        self.P, self.dtype, self.device = paths, dtype, device
        h = float(problem.h)
        inertia = [float(v) for v in kv["inertia"].split(",")]
        scale = float(kv.get("h0_scale", 1))
        self.hI = torch.tensor([h * (scale / v) for v in inertia], dtype=dtype, device=device)
        self.noise, amp = kv.get("noise", "iso-quad"), float(kv.get("amp", 0.1))
        self.amp = torch.tensor(amp, dtype=dtype, device=device)
        self.const = None
        if self.noise == "svi-lin":
            self.const = torch.eye(3, dtype=torch.float64, device=device) * amp
        elif self.noise == "svi-lin1":
            self.const = torch.full((1, 3), amp / math.sqrt(3.0), dtype=torch.float64, device=device)
        elif self.noise == "const-e3":
            self.const = torch.tensor([[0.0, 0.0, amp]], dtype=torch.float64, device=device)
        elif self.noise not in ("iso-quad", "iso-quad1", "none"):
            raise ValueError("slpi.torch: rigid-body noise=%s is not one the torch path runs" % self.noise)
        self.state = torch.tensor(x0, dtype=torch.float64, device=device).to(dtype).expand(paths, 3).contiguous()
        self.sweeps, self.made = None, 0

    def step(self, eta, tol, maxit, update, defect):
        import torch
        x = self.state
        half, quarter = isomp.coefficients(defect)
        if self.noise in ("iso-quad", "iso-quad1"):
            M = eta.shape[1]
            q = torch.zeros(self.P, 3, dtype=self.dtype, device=self.device)
            q[:, :M] = eta.to(self.dtype) * self.amp
            lin = self.hI + q                                   # psi = -(lin o y)
            c = None
        else:
            lin = self.hI.expand(self.P, 3)
            c = (eta @ self.const).to(self.dtype) if self.const is not None else None

        def psi(y):
            v = lin * y
            return -(v + c) if c is not None else -v
        def g(y):
            p = psi(y)
            return x + half * torch.cross(p, y, dim=1) - quarter * (p * y).sum(1, keepdim=True) * p

        y, iters, stag, capped, short, made = isomp.solve(g, x + half * torch.cross(psi(x), x, dim=1),
                                                          lambda z, y: ((z - y).abs().amax(1), z.abs().amax(1)),
                                                          self.P, self.device, tol, maxit, self.sweeps)
        self.made = max(self.made, made)
        self.state = x + torch.cross(psi(y), y, dim=1)
        return iters, stag, capped, short

    def packed(self):
        """the states (P, 3), float64, on the device"""
        return self.state.double()
