#!/usr/bin/env python3
"""ports.py - precision-generic ports in Python, on NumPy or PyTorch, that measure the
power of `slpi verify` at a port's own precision on planted defects (docs/power.md).
Written from docs/schemes.md and docs/systems.md, in matrix form where the C ports of
tests/port/*.c use vectors:

  rb       ISOMP on the rigid body (preset iso/rigid-body/trajectories), on 3x3 hat
           matrices: Psi = hat(-h I^-1 y - 0.1 (y_i dW_i)), y = vee(Y),
           Y = X + 1/2 [Psi(Y), Y] + 1/4 Psi(Y) Y Psi(Y) from Y = X, X' = X + [Psi, Y];
  zeitlin  ISOMP on Euler-Zeitlin su(8), noise (Q), preset iso/zeitlin/strong N=8
           ic_lmax=7; the basis Y_alpha from the eigenvectors of the tridiagonal L_m
           (eigh in binary64, last component positive), Psi = sum_alpha omega_alpha
           (h / (-l(l+1)) - [l >= 4] a_l eta_alpha) Y_alpha, omega_alpha = Re Tr(Y_alpha^* Y);
  heavytop TMK on the heavy top, RKMK form (preset rkmk/heavy-top/stoch-421-realization),
           with the rotation R = I + c1 hat(xi) + c2 hat(xi)^2 as a matrix:
           mubar = 1/2 (mu + O_exp(sigma; mu)), sigma = h (I^-1 pibar, x) + dW (alpha, 0).

usage: ports.py numpy|torch float32|float64|float16|bfloat16 rb|zeitlin|heavytop NOISE STEPS
                [DEFECT MAG]
       ports.py emu bfloat16|binary16|tf32|bfloat16/binary32|u=VALUE rb|heavytop NOISE STEPS [DEFECT MAG]
                (a format but u=VALUE with +ftz: its subnormals flushed to zero, TINY)
(float16: binary16, NumPy or PyTorch; bfloat16: PyTorch only; the rigid body and the
heavy top, whose arithmetic is real. emu: NumPy's float64 with every operation rounded
to the format, EMU below.)
Writes an 'slpi-trajectory 1' file on standard output (seed and path from the noise
file, which `slpi noise --preset ... steps=STEPS` wrote). DEFECT as in tests/port/port.h:
none drop coef amp sign lap bad early. Exit 77 when the backend is not installed
(PyTorch is optional: Debian's python3-torch)."""
import math
import sys

DEFECTS = ("none", "drop", "coef", "amp", "sign", "lap", "bad", "early")


class Defect:
    def __init__(self, kind="none", mag=0.0):
        if kind not in DEFECTS:
            raise SystemExit("ports.py: unknown defect %r" % kind)
        self.kind, self.mag = kind, float(mag)

    def fac(self, kind, sign=1.0):
        """(1 + sign MAG) when the defect is `kind`, else 1"""
        return 1.0 + sign * self.mag if self.kind == kind else 1.0

    def cap(self):
        return int(self.mag) if self.kind == "early" else 100


# The formats the `emu` backend emulates (a rounding function per format): the
# significand bits of every operation's result, and of a matrix product's operands,
# products and sums. tf32: operands rounded to 11 bits, their products exact, the sums
# in binary32, every other operation binary32 (a GPU's tensor-core products);
# bfloat16/binary32 the same with bfloat16 operands (bfloat16 inputs, binary32
# accumulation and storage: `slpi verify --precision bfloat16/binary32`).
EMU = {"bfloat16": (8, 8, 8, 8), "binary16": (11, 11, 11, 11), "tf32": (24, 11, 53, 24),
       "bfloat16/binary32": (24, 8, 53, 24)}
# A format's smallest normal magnitude, below which a `+ftz` port (binary16+ftz: a unit
# that flushes subnormals, `slpi verify --precision binary16+ftz`) holds zero.
TINY = {"bfloat16": 2.0 ** -126, "binary16": 2.0 ** -14, "tf32": 2.0 ** -126, "bfloat16/binary32": 2.0 ** -126}


def emu_format(dtype):
    """(result bits, operand bits, product bits, sum bits, flush) of an emulated format, or
    None; flush the smallest normal of a `+ftz` format (every result below it zero), else
    0; u=VALUE rounds everything to p = round(-log2 VALUE) bits (slpi's reading of a user u)"""
    if dtype.endswith("+ftz") and dtype[:-4] in EMU:
        return EMU[dtype[:-4]] + (TINY[dtype[:-4]],)
    if dtype in EMU:
        return EMU[dtype] + (0.0,)
    if dtype.startswith("u="):
        u = float.fromhex(dtype[2:]) if "x" in dtype else float(dtype[2:])
        if 0 < u < 1:
            p = max(2, min(53, round(-math.log2(u))))
            return (p, p, p, p, 0.0)
    return None


def round_bits(x, bits, tiny=0.0):
    """x (a float64 array) rounded to nearest, ties to even, at `bits` significand bits,
    and below `tiny` in magnitude flushed to zero (the exponent range is not otherwise
    modelled)"""
    import numpy
    if bits < 53:
        m, e = numpy.frexp(x)
        x = numpy.ldexp(numpy.rint(numpy.ldexp(m, bits)), e - bits)
    return numpy.where(numpy.abs(x) < tiny, 0.0 * x, x) if tiny else x


def emu_class(fmt):
    """an ndarray subclass of float64 whose every ufunc rounds its result to fmt's bits,
    and whose matrix product rounds operands, products and sums (EMU)"""
    import numpy

    class Emu(numpy.ndarray):
        def __getitem__(self, key):   # an element is a 0-d array: it still rounds
            v = numpy.ndarray.__getitem__(self, key)
            return v if isinstance(v, numpy.ndarray) else numpy.asarray(v).view(Emu)

        def __array_ufunc__(self, ufunc, method, *inputs, **kw):
            out = kw.pop("out", None)
            args = [i.view(numpy.ndarray) if isinstance(i, numpy.ndarray) else i for i in inputs]
            if ufunc is numpy.matmul and method == "__call__":
                res = matmul(*args)
            elif ufunc is numpy.add and method == "reduce":   # a sum in order, rounded each time
                a = numpy.moveaxis(args[0], kw.get("axis", 0) or 0, 0)
                res = a[0]
                for v in a[1:]:
                    res = round_bits(res + v, fmt[0], fmt[4])
            else:
                res = getattr(ufunc, method)(*args, **kw)
                if numpy.asarray(res).dtype.kind == "f":
                    res = round_bits(numpy.asarray(res), fmt[0], fmt[4])
            if out is not None:
                numpy.copyto(out[0].view(numpy.ndarray), res)
                return out[0]
            return numpy.asarray(res).view(Emu) if numpy.asarray(res).dtype.kind == "f" else res

    def matmul(a, b):
        a, b = round_bits(a, fmt[1], fmt[4]), round_bits(b, fmt[1], fmt[4])
        col = b.ndim == 1
        b2 = b[:, None] if col else b
        acc = round_bits(numpy.multiply.outer(a[:, 0], b2[0]), fmt[2], fmt[4])
        for k in range(1, a.shape[1]):
            acc = round_bits(acc + round_bits(numpy.multiply.outer(a[:, k], b2[k]), fmt[2], fmt[4]), fmt[3], fmt[4])
        return round_bits(acc[:, 0] if col else acc, fmt[0], fmt[4])

    return Emu


class EmuNumpy:
    """the few NumPy functions the ports call, on Emu arrays"""

    def __init__(self, emu):
        import numpy
        self.np, self.emu = numpy, emu

    def stack(self, vs):
        return self.np.stack([self.np.asarray(v) for v in vs]).view(self.emu)

    def concatenate(self, vs):
        return self.np.concatenate([self.np.asarray(v) for v in vs]).view(self.emu)

    def sqrt(self, v):
        return self.np.sqrt(v)

    def sin(self, v):
        return self.np.sin(v)


class Backend:
    """The few array operations the ports use, on NumPy or PyTorch, in one real dtype;
    or `emu`: NumPy's float64 carrying a format of EMU, every result rounded to it."""

    def __init__(self, name, dtype):
        if name == "emu":
            import numpy
            fmt = emu_format(dtype)
            self.emu = emu_class(fmt)
            self.xp, self.real, self.cplx, self.name = EmuNumpy(self.emu), numpy.float64, None, "emu"
            self.eps = 2.0 ** (1 - fmt[0])
            return
        if name == "torch":
            import torch
            self.xp = torch
            self.real = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
                         "bfloat16": torch.bfloat16}[dtype]
            self.cplx = {"float32": torch.complex64, "float64": torch.complex128}.get(dtype)
            torch.set_num_threads(1)
        else:
            import numpy
            self.xp = numpy
            self.real = {"float32": numpy.float32, "float64": numpy.float64, "float16": numpy.float16}[dtype]
            self.cplx = {"float32": numpy.complex64, "float64": numpy.complex128}.get(dtype)
        self.name = name
        self.eps = {"float32": 2.0 ** -23, "float64": 2.0 ** -52, "float16": 2.0 ** -10, "bfloat16": 2.0 ** -7}[dtype]

    def r(self, v):
        """a real array (or 0-d scalar) of the port's dtype: no Python float ever meets
        an array of the dtype (NumPy would promote a 0-d float32 to float64)"""
        if self.name == "emu":
            import numpy
            return numpy.asarray(v, dtype=numpy.float64).view(self.emu) + 0.0   # rounded
        return self.xp.tensor(v, dtype=self.real) if self.name == "torch" else self.xp.asarray(v, dtype=self.real)

    def c(self, v):
        return self.xp.tensor(v, dtype=self.cplx) if self.name == "torch" else self.xp.asarray(v, dtype=self.cplx)

    def amax(self, a):
        return float(abs(a).max())

    def floats(self, a):
        return [float(v) for v in (a.reshape(-1).tolist())]


def hat(B, v):
    z = v[0] - v[0]
    return B.xp.stack([B.xp.stack([z, -v[2], v[1]]), B.xp.stack([v[2], z, -v[0]]),
                       B.xp.stack([-v[1], v[0], z])])


def vee(B, m):
    return B.xp.stack([m[2, 1], m[0, 2], m[1, 0]])


def isomp_step(B, X, psi, d):
    """the ISOMP step in matrix form from X, Psi(Y) given by psi(Y)"""
    half, quarter = B.r(0.5 * d.fac("coef")), B.r(0.25 * d.fac("drop", -1.0))
    Y = X
    for _ in range(d.cap()):
        P = psi(Y)
        PY = P @ Y
        Z = X + half * (PY - Y @ P) + quarter * (PY @ P)
        change, size = B.amax(Z - Y), B.amax(Z)
        Y = Z
        if d.kind != "early" and change <= 4 * B.eps * size:
            break
    P = psi(Y)
    return X + (P @ Y - Y @ P)


class RigidBody:
    problem, noises, h, columns = "# preset=iso/rigid-body/trajectories\n", 3, 2.0 ** -8, ["x1", "x2", "x3"]

    def __init__(self, B):
        self.B = B

    def x0(self):
        return [math.sin(1.1), 0.0, math.cos(1.1)]

    def step(self, x, dw, d):
        B = self.B
        iinv = B.r([0.5, 1.0 * d.fac("lap"), 1.5])
        amp = B.r([0.1 * d.fac("amp") * d.fac("sign", -2.0), 0.1 * d.fac("amp"), 0.1 * d.fac("amp")])
        h, eta = B.r(self.h), B.r(dw)

        def psi(Y):
            y = vee(B, Y)
            return hat(B, -h * iinv * y - amp * y * eta)
        return vee(B, isomp_step(B, hat(B, x), psi, d))


class Zeitlin:
    N = 8
    problem, noises, h = "# preset=iso/zeitlin/strong\n# N=8\n# ic_lmax=7\n", 48, 2.0 ** -8

    def __init__(self, B):
        import numpy
        self.B, N = B, self.N
        s = (N - 1) / 2
        beta = [math.sqrt(s * (s + 1) - (a - s) * (a - s + 1)) if a < N - 1 else 0.0 for a in range(N)]
        basis, self.deg = numpy.zeros((N * N - 1, N, N), complex), [0] * (N * N - 1)
        for m in range(N):
            n = N - m
            L = numpy.zeros((n, n))
            for a in range(n):
                L[a, a] = -2 * (s * (s + 1) - (a - s) * (a + m - s))
                if a + 1 < n:
                    L[a, a + 1] = L[a + 1, a] = beta[a] * beta[a + m]
            w, v = numpy.linalg.eigh(L)          # ascending: l = N-1 first
            for col in range(n):
                l = N - 1 - col
                if l == 0:
                    continue
                t = v[:, col] * (1 if v[n - 1, col] > 0 else -1)
                A = numpy.zeros((N, N))
                for b in range(n):
                    A[b + m, b] = t[b]
                k = l * l - 1 + max(2 * m - 1, 0)
                if m == 0:
                    basis[k] = 1j * A
                else:
                    basis[k], basis[k + 1] = (A - A.T) / math.sqrt(2), 1j * (A + A.T) / math.sqrt(2)
                    self.deg[k + 1] = l
                self.deg[k] = l
        self.basis64 = basis
        self.basis = B.c(basis)
        self.columns = ["ImX_%d_%d" % (a, a) for a in range(N)] + \
            [c % (a, b) for a in range(N) for b in range(a + 1, N) for c in ("ReX_%d_%d", "ImX_%d_%d")]

    def x0(self):
        import numpy
        c = numpy.array([math.cos(1.3 * l + 0.7 * (k - (l * l - 1)) + 0.2) for k, l in enumerate(self.deg)])
        return self.pack64((c / numpy.linalg.norm(c)) @ self.basis64.reshape(len(c), -1))

    def pack64(self, flat):
        N = self.N
        X = flat.reshape(N, N)
        return [X[a, a].imag for a in range(N)] + \
            [v for a in range(N) for b in range(a + 1, N) for v in (X[a, b].real, X[a, b].imag)]

    def step(self, x, dw, d):
        B, N, xp = self.B, self.N, self.B.xp
        diag, off = x[:N], x[N:].reshape(-1, 2)
        X = B.c([[0] * N] * N)
        iu = [(a, b) for a in range(N) for b in range(a + 1, N)]
        rows, cols = [a for a, _ in iu], [b for _, b in iu]
        X[list(range(N)), list(range(N))] = diag * B.c(1j)
        X[rows, cols] = off[:, 0] + off[:, 1] * B.c(1j)
        X[cols, rows] = -(off[:, 0] - off[:, 1] * B.c(1j))
        coef = []
        for k, l in enumerate(self.deg):
            c = self.h / (-l * (l + 1) * (d.fac("lap") if l == 2 else 1.0))
            j = k - (N // 2) ** 2 + 1
            if j >= 0:
                c -= 2.0 / (l * (l + 1)) * d.fac("amp") * (d.fac("sign", -2.0) if j == 0 else 1.0) * dw[j]
            coef.append(c)
        coef = B.r(coef)
        Bc = self.basis.conj()

        def psi(Y):
            om = (Bc * Y).sum(axis=(1, 2)) if B.name == "numpy" else (Bc * Y).sum(dim=(1, 2))
            w = (om.real * coef).to(B.cplx) if B.name == "torch" else (om.real * coef).astype(B.cplx)
            return xp.tensordot(w, self.basis, 1) if B.name == "numpy" else xp.tensordot(w, self.basis, dims=1)
        Xn = isomp_step(B, X, psi, d)
        ends = [Xn[a, a].imag for a in range(N)]
        return xp.stack(ends + [v for a, b in iu for v in (Xn[a, b].real, Xn[a, b].imag)])


class HeavyTop:
    problem, noises, h = "# preset=rkmk/heavy-top/stoch-421-realization\n", 1, 0.01
    columns = ["pi1", "pi2", "pi3", "gamma1", "gamma2", "gamma3"]

    def __init__(self, B):
        self.B = B

    def x0(self):
        r = math.sqrt(2.0) / 2
        return [-r, r, 0.0, -r, r, 0.0]

    def orbit(self, xi, b, pi, gamma, d):
        B, xp = self.B, self.B.xp
        t2 = (xi * xi).sum()
        t = xp.sqrt(t2)
        if float(t) < 0.0625:
            one = B.r(1.0)
            c1 = one - t2 / B.r(6) * (one - t2 / B.r(20) * (one - t2 / B.r(42) * (one - t2 / B.r(72))))
            c2 = B.r(0.5) * (one - t2 / B.r(12) * (one - t2 / B.r(30) * (one - t2 / B.r(56) * (one - t2 / B.r(90)))))
            c3 = (one - t2 / B.r(20) * (one - t2 / B.r(42) * (one - t2 / B.r(72) * (one - t2 / B.r(110))))) / B.r(6)
        else:
            s = xp.sin(t / B.r(2)) / t
            c1, c2, c3 = xp.sin(t) / t, B.r(2) * s * s, (t - xp.sin(t)) / (t2 * t)
        K = hat(B, xi)
        K2 = K @ K
        R = B.r([[1, 0, 0], [0, 1, 0], [0, 0, 1]]) + c1 * K + c2 * K2
        v = b + c2 * (K @ b) + c3 * (K2 @ b)
        g = xp.stack([gamma[1] * v[2] - gamma[2] * v[1], gamma[2] * v[0] - gamma[0] * v[2],
                      gamma[0] * v[1] - gamma[1] * v[0]])
        return R.T @ (pi + B.r(d.fac("drop", -1.0)) * g), R.T @ gamma

    def step(self, mu, dw, d):
        B, xp = self.B, self.B.xp
        h, half = B.r(0.01), B.r(0.5 * d.fac("coef"))
        iinv = B.r([0.25, 0.5 * d.fac("lap"), 1.0])
        alpha = B.r([0.01 * d.fac("amp") * d.fac("sign", -2.0), 0.02 * d.fac("amp"), 0.03 * d.fac("amp")])
        b, dW = B.r([0.0, 0.0, 0.01]), B.r(dw[0])
        pi, gamma = mu[:3], mu[3:]
        xi = B.r([0.0, 0.0, 0.0])
        for _ in range(d.cap()):
            opi, _ = self.orbit(xi, b, pi, gamma, d)
            z = h * iinv * (half * (pi + opi)) + dW * alpha
            change, size = B.amax(z - xi), B.amax(z)
            xi = z
            if d.kind != "early" and change <= 4 * B.eps * size:
                break
        p, g = self.orbit(xi, b, pi, gamma, d)
        return xp.cat([p, g]) if B.name == "torch" else xp.concatenate([p, g])


def read_noise(path, m):
    """the seed, the path and the rows (lists of m floats) of an slpi noise file"""
    head, rows = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                w = line[1:].split()
                if len(w) >= 2:
                    head[w[0]] = w[1]
                continue
            rows.append([float.fromhex(v) for v in line.split("\t")[:m]])
    if head.get("components") != str(m) or "seed" not in head or "path" not in head:
        raise SystemExit("ports.py: %s: not a noise file of %d components with seed and path" % (path, m))
    return head["seed"], head["path"], rows


def main(argv):
    if len(argv) < 6:
        raise SystemExit(__doc__)
    backend, dtype, system, noise, steps = argv[1], argv[2], argv[3], argv[4], int(argv[5])
    d = Defect(argv[6], argv[7]) if len(argv) > 7 else Defect()
    if backend == "emu":
        if emu_format(dtype) is None or system == "zeitlin":
            raise SystemExit("ports.py: no emu port %s of %s (emu: bfloat16, binary16, tf32, u=VALUE; rb and "
                             "heavytop)" % (dtype, system))
    elif dtype not in ("float32", "float64", "float16", "bfloat16") or (dtype == "bfloat16" and backend != "torch") \
            or (dtype in ("float16", "bfloat16") and system == "zeitlin"):
        raise SystemExit("ports.py: no %s port of %s on %s (float16: rb and heavytop; bfloat16: torch only)"
                         % (dtype, system, backend))
    try:
        B = Backend(backend, dtype)
    except ImportError as e:
        print("ports.py: SKIP: %s is not installed (%s)" % (backend, e), file=sys.stderr)
        return 77
    S = {"rb": RigidBody, "zeitlin": Zeitlin, "heavytop": HeavyTop}[system](B)
    seed, path, rows = read_noise(noise, S.noises)
    if len(rows) < steps:
        raise SystemExit("ports.py: %s: too few increments" % noise)
    out = sys.stdout
    out.write("# slpi-trajectory 1\n%s# steps=%d\n# seed=%s\n# path=%s\n## port %s %s %s, defect %s %g\n"
              % (S.problem, steps, seed, path, system, backend, dtype, d.kind, d.mag))
    out.write("step\tt\t" + "\t".join(S.columns) + "\n")
    x = B.r(S.x0())
    for n in range(steps + 1):
        out.write("%d\t%.17g\t%s\n" % (n, n * S.h, "\t".join(v.hex() for v in B.floats(x))))
        if n == steps:
            break
        x = S.step(x, rows[n], d)
        if x.dtype != B.real:
            raise SystemExit("ports.py: the step left %s for %s" % (x.dtype, B.real))
        if d.kind == "bad" and n == steps // 2:
            x[0] += B.r(d.mag * 2.0 ** -24 * B.amax(x))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
