#!/usr/bin/env python3
"""ports_numba.py - a fourth writing of the ports of docs/power.md: loops compiled by
numba (Debian's python3-numba), written from docs/schemes.md#isomp and
docs/systems.md alone, apart from tests/port/*.c and ports.py. Where those solve from
X_n, use NumPy's products or vectors, this one:

- starts the fixed point from the Euler predictor Y0 = X + 1/2 [Psi(X), X] and stops
  when an iteration moves Y by at most 2 eps |Y| (every entry, in the port's format);
- keeps a complex matrix as two real arrays, each product written out in loops;
- rb: the rigid body's 3x3 hat matrices, Psi(Y) = hat(-h I^-1 y - 0.1 (y_i eta_i));
- zeitlin: su(8) with Psi(Y) formed diagonal by diagonal (O(N^3) in all, no N^2 basis
  matrices): on the diagonal d the real skew-Hermitian basis Y_lm of degree l >= d
  shares the eigenvectors t_l of the tridiagonal L_d, so with z = Y's entries
  (b + d, b), Psi's entries there are sum_l t_l (c^c_l <t_l, Re z> + i c^s_l <t_l, Im z>)
  (d = 0: i sum_l t_l c_l <t_l, Im diag Y>), c = -h / (l (l + 1)) - a_l eta, a_l =
  2 / (l (l + 1)) on l >= N/2 (noise (Q), iso/zeitlin/strong N=8 ic_lmax=7). The t_l are
  computed once, in 60-digit decimal arithmetic, by the three-term recurrence of L_d at
  the known eigenvalue -l (l + 1), then rounded to the port's format.

usage: ports_numba.py float32|float64 rb|zeitlin NOISE STEPS [DEFECT MAG]
An 'slpi-trajectory 1' file on standard output, as tests/port/port.h's ports write, with
the same planted defects (DEFECT none drop coef amp sign lap bad early; under `early`
the solve starts from X_n and stops after MAG iterations, the scheme's fixed-iteration
mode). Exit 77 when numba is not installed (it is optional, like PyTorch)."""
import decimal
import math
import os
import sys

try:
    import numpy as np
    from numba import njit
except ImportError as e:  # numba is optional: make check never needs this file
    print("ports_numba.py: SKIP: numba is not installed (%s)" % e, file=sys.stderr)
    sys.exit(77)

CACHE = bool(os.environ.get("NUMBA_CACHE_DIR"))
# indices of the constants array k (every constant in the port's format: numba turns a
# float32 combined with a Python float into float64)
K_ZERO, K_HALF, K_QUARTER, K_TOL, K_H = range(5)


@njit(cache=CACHE)
def _rb_psi(Y, k, iinv, amp, eta, P):
    """P = hat(psi), psi = -h I^-1 y - amp y eta, y = vee(Y)"""
    y0, y1, y2 = Y[2, 1], Y[0, 2], Y[1, 0]
    p0 = -(k[K_H] * iinv[0] * y0) - amp[0] * y0 * eta[0]
    p1 = -(k[K_H] * iinv[1] * y1) - amp[1] * y1 * eta[1]
    p2 = -(k[K_H] * iinv[2] * y2) - amp[2] * y2 * eta[2]
    z = k[K_ZERO]
    P[0, 0], P[0, 1], P[0, 2] = z, -p2, p1
    P[1, 0], P[1, 1], P[1, 2] = p2, z, -p0
    P[2, 0], P[2, 1], P[2, 2] = -p1, p0, z


@njit(cache=CACHE)
def _mul(A, B, C):
    """C = A B (real, square)"""
    n = A.shape[0]
    for i in range(n):
        for j in range(n):
            s = A[i, 0] * B[0, j]
            for q in range(1, n):
                s = s + A[i, q] * B[q, j]
            C[i, j] = s


@njit(cache=CACHE)
def rb_step(x, eta, k, iinv, amp, cap, early):
    """one ISOMP step of the rigid body from the 3-vector x (matrix form, real 3x3)"""
    X = np.empty((3, 3), x.dtype)
    z = k[K_ZERO]
    X[0, 0], X[0, 1], X[0, 2] = z, -x[2], x[1]
    X[1, 0], X[1, 1], X[1, 2] = x[2], z, -x[0]
    X[2, 0], X[2, 1], X[2, 2] = -x[1], x[0], z
    P = np.empty_like(X)
    PY = np.empty_like(X)
    YP = np.empty_like(X)
    PYP = np.empty_like(X)
    Y = X.copy()
    if not early:  # the Euler predictor
        _rb_psi(X, k, iinv, amp, eta, P)
        _mul(P, X, PY)
        _mul(X, P, YP)
        Y = X + k[K_HALF] * (PY - YP)
    for _ in range(cap):
        _rb_psi(Y, k, iinv, amp, eta, P)
        _mul(P, Y, PY)
        _mul(Y, P, YP)
        _mul(PY, P, PYP)
        Z = X + k[K_HALF] * (PY - YP) + k[K_QUARTER] * PYP
        change, size = z, z
        for i in range(3):
            for j in range(3):
                change = max(change, abs(Z[i, j] - Y[i, j]))
                size = max(size, abs(Z[i, j]))
        Y = Z
        if not early and change <= k[K_TOL] * size:
            break
    _rb_psi(Y, k, iinv, amp, eta, P)
    _mul(P, Y, PY)
    _mul(Y, P, YP)
    Xn = X + (PY - YP)
    out = np.empty(3, x.dtype)
    out[0], out[1], out[2] = Xn[2, 1], Xn[0, 2], Xn[1, 0]
    return out


@njit(cache=CACHE)
def _ez_psi(Yr, Yi, T, cc, cs, Pr, Pi):
    """Psi of (Yr + i Yi) into (Pr + i Pi), diagonal by diagonal: T[d, l, :N-d] the unit
    eigenvector of L_d of degree l (zero for l < d and l = 0), cc / cs[d, l] the
    coefficients of the cosine / sine element of degree l on diagonal d (d = 0: cc)"""
    N = Yr.shape[0]
    zero = Yr[0, 0] - Yr[0, 0]
    for d in range(N):
        n = N - d
        for b in range(n):
            Pr[b + d, b] = zero
            Pi[b + d, b] = zero
        for l in range(max(d, 1), N):
            pr, pi = zero, zero
            for b in range(n):
                pr = pr + T[d, l, b] * Yr[b + d, b]
                pi = pi + T[d, l, b] * Yi[b + d, b]
            pr = cc[d, l] * pr
            pi = (cc[d, l] if d == 0 else cs[d, l]) * pi
            for b in range(n):
                Pi[b + d, b] = Pi[b + d, b] + T[d, l, b] * pi
                if d > 0:
                    Pr[b + d, b] = Pr[b + d, b] + T[d, l, b] * pr
        for b in range(n):
            if d == 0:
                Pr[b, b] = zero
            else:
                Pr[b, b + d] = -Pr[b + d, b]
                Pi[b, b + d] = Pi[b + d, b]


@njit(cache=CACHE)
def _cmul(Ar, Ai, Br, Bi, Cr, Ci):
    """(Cr + i Ci) = (Ar + i Ai)(Br + i Bi), square"""
    n = Ar.shape[0]
    for i in range(n):
        for j in range(n):
            sr = Ar[i, 0] * Br[0, j] - Ai[i, 0] * Bi[0, j]
            si = Ar[i, 0] * Bi[0, j] + Ai[i, 0] * Br[0, j]
            for q in range(1, n):
                sr = sr + (Ar[i, q] * Br[q, j] - Ai[i, q] * Bi[q, j])
                si = si + (Ar[i, q] * Bi[q, j] + Ai[i, q] * Br[q, j])
            Cr[i, j] = sr
            Ci[i, j] = si


@njit(cache=CACHE)
def ez_step(Xr, Xi, T, cc, cs, k, cap, early):
    """one ISOMP step of Euler-Zeitlin from X = Xr + i Xi (update comm)"""
    N = Xr.shape[0]
    Pr, Pi = np.empty_like(Xr), np.empty_like(Xr)
    Ar, Ai = np.empty_like(Xr), np.empty_like(Xr)   # Psi Y
    Br, Bi = np.empty_like(Xr), np.empty_like(Xr)   # Y Psi
    Cr, Ci = np.empty_like(Xr), np.empty_like(Xr)   # Psi Y Psi
    Yr, Yi = Xr.copy(), Xi.copy()
    if not early:  # the Euler predictor
        _ez_psi(Xr, Xi, T, cc, cs, Pr, Pi)
        _cmul(Pr, Pi, Xr, Xi, Ar, Ai)
        _cmul(Xr, Xi, Pr, Pi, Br, Bi)
        Yr = Xr + k[K_HALF] * (Ar - Br)
        Yi = Xi + k[K_HALF] * (Ai - Bi)
    for _ in range(cap):
        _ez_psi(Yr, Yi, T, cc, cs, Pr, Pi)
        _cmul(Pr, Pi, Yr, Yi, Ar, Ai)
        _cmul(Yr, Yi, Pr, Pi, Br, Bi)
        _cmul(Ar, Ai, Pr, Pi, Cr, Ci)
        Zr = Xr + k[K_HALF] * (Ar - Br) + k[K_QUARTER] * Cr
        Zi = Xi + k[K_HALF] * (Ai - Bi) + k[K_QUARTER] * Ci
        change, size = k[K_ZERO], k[K_ZERO]
        for i in range(N):
            for j in range(N):
                change = max(change, max(abs(Zr[i, j] - Yr[i, j]), abs(Zi[i, j] - Yi[i, j])))
                size = max(size, max(abs(Zr[i, j]), abs(Zi[i, j])))
        Yr, Yi = Zr, Zi
        if not early and change <= k[K_TOL] * size:
            break
    _ez_psi(Yr, Yi, T, cc, cs, Pr, Pi)
    _cmul(Pr, Pi, Yr, Yi, Ar, Ai)
    _cmul(Yr, Yi, Pr, Pi, Br, Bi)
    return Xr + (Ar - Br), Xi + (Ai - Bi)


class Defect:
    NAMES = ("none", "drop", "coef", "amp", "sign", "lap", "bad", "early")

    def __init__(self, kind="none", mag=0.0):
        if kind not in self.NAMES:
            raise SystemExit("ports_numba.py: unknown defect %r" % kind)
        self.kind, self.mag = kind, float(mag)

    def f(self, kind, sign=1.0):
        return 1.0 + sign * self.mag if self.kind == kind else 1.0


def constants(dt, d, h):
    """the constants array k in the format dt"""
    eps = float(np.finfo(dt).eps)
    return np.array([0.0, 0.5 * d.f("coef"), 0.25 * d.f("drop", -1.0), 2 * eps, h], dtype=dt)


class RigidBody:
    header, noises, h = "# preset=iso/rigid-body/trajectories\n", 3, 2.0 ** -8
    columns = ("x1", "x2", "x3")

    def __init__(self, dt, d):
        self.dt, self.k = dt, constants(dt, d, self.h)
        self.iinv = np.array([0.5, 1.0 * d.f("lap"), 1.5], dtype=dt)
        self.amp = np.array([0.1 * d.f("amp") * d.f("sign", -2.0), 0.1 * d.f("amp"), 0.1 * d.f("amp")], dtype=dt)

    def x0(self):
        return np.array([math.sin(1.1), 0.0, math.cos(1.1)], dtype=self.dt)

    def step(self, x, dw, cap, early):
        return rb_step(x, np.asarray(dw, dtype=self.dt), self.k, self.iinv, self.amp, cap, early)

    def values(self, x):
        return [float(v) for v in x]


def eigvec(N, d, l):
    """the unit eigenvector of L_d (docs/systems.md#laplacian) for -l(l+1), last entry
    positive: the three-term recurrence from v_0 = 1 in 60-digit decimals"""
    D = decimal.Decimal
    with decimal.localcontext() as c:
        c.prec = 60
        s = D(N - 1) / 2
        m = [-s + a for a in range(N)]
        beta = [(s * (s + 1) - m[a] * (m[a] + 1)).sqrt() if a < N - 1 else D(0) for a in range(N)]
        n, lam = N - d, D(-l * (l + 1))
        diag = [-2 * (s * (s + 1) - m[a] * m[a + d]) for a in range(n)]
        off = [beta[a] * beta[a + d] for a in range(n - 1)]
        v = [D(1)]
        for a in range(n - 1):
            prev = off[a - 1] * v[a - 1] if a > 0 else D(0)
            v.append(((lam - diag[a]) * v[a] - prev) / off[a])
        norm = sum(t * t for t in v).sqrt()
        sign = 1 if v[-1] > 0 else -1
        return [float(sign * t / norm) for t in v]


class Zeitlin:
    N = 8
    header, noises, h = "# preset=iso/zeitlin/strong\n# N=8\n# ic_lmax=7\n", 48, 2.0 ** -8

    def __init__(self, dt, d):
        N = self.N
        self.dt, self.d, self.k = dt, d, constants(dt, d, self.h)
        self.T64 = np.zeros((N, N, N))
        for dd in range(N):
            for l in range(max(dd, 1), N):
                self.T64[dd, l, :N - dd] = eigvec(N, dd, l)
        self.T = self.T64.astype(dt)
        self.columns = ["ImX_%d_%d" % (a, a) for a in range(N)] + \
            [c % (a, b) for a in range(N) for b in range(a + 1, N) for c in ("ReX_%d_%d", "ImX_%d_%d")]

    @staticmethod
    def slot(l, d, part):
        """the index alpha = l^2 - 1 + j of the element of degree l on diagonal d
        (part 0: the zonal or cosine element, 1: the sine element)"""
        return l * l - 1 + (0 if d == 0 else 2 * d - 1 + part)

    def x0(self):
        """X0 = sum c_alpha Y_alpha / |c|, c_alpha = cos(1.3 l + 0.7 j + 0.2), in binary64"""
        N, T = self.N, self.T64
        c = {}
        for l in range(1, N):
            for j in range(2 * l + 1):
                c[l * l - 1 + j] = math.cos(1.3 * l + 0.7 * j + 0.2)
        norm = math.sqrt(sum(v * v for v in c.values()))
        Xr, Xi = np.zeros((N, N)), np.zeros((N, N))
        for d in range(N):
            for l in range(max(d, 1), N):
                for b in range(N - d):
                    t = T[d, l, b] / norm
                    if d == 0:
                        Xi[b, b] += c[self.slot(l, 0, 0)] * t
                    else:  # (A - A^T)/sqrt2 and i (A + A^T)/sqrt2, A = t on (b + d, b)
                        cr, ci = c[self.slot(l, d, 0)] * t / math.sqrt(2), c[self.slot(l, d, 1)] * t / math.sqrt(2)
                        Xr[b + d, b] += cr
                        Xr[b, b + d] -= cr
                        Xi[b + d, b] += ci
                        Xi[b, b + d] += ci
        return self.pack(Xr, Xi).astype(self.dt)

    def coefficients(self, dw):
        """cc, cs[d, l]: -h / (l (l + 1)) - a_l eta_alpha (noise (Q), a_l = 2 / (l (l + 1))
        for l >= N/2, the components in the order of alpha from (N/2)^2 - 1)"""
        N, d = self.N, self.d
        first = (N // 2) ** 2 - 1
        cc, cs = np.zeros((N, N)), np.zeros((N, N))
        for dd in range(N):
            for l in range(max(dd, 1), N):
                lam = -l * (l + 1) * (d.f("lap") if l == 2 else 1.0)
                for part, cm in ((0, cc), (1, cs)):
                    a = self.slot(l, dd, part)
                    v = self.h / lam
                    if a >= first:
                        amp = 2.0 / (l * (l + 1)) * d.f("amp") * (d.f("sign", -2.0) if a == first else 1.0)
                        v -= amp * dw[a - first]
                    cm[dd, l] = v
        return cc.astype(self.dt), cs.astype(self.dt)

    def pack(self, Xr, Xi):
        N = self.N
        up = [v for a in range(N) for b in range(a + 1, N) for v in (Xr[a, b], Xi[a, b])]
        return np.array([Xi[a, a] for a in range(N)] + up, dtype=Xr.dtype)

    def step(self, x, dw, cap, early):
        N = self.N
        Xr, Xi = np.zeros((N, N), self.dt), np.zeros((N, N), self.dt)
        for a in range(N):
            Xi[a, a] = x[a]
        q = N
        for a in range(N):
            for b in range(a + 1, N):
                Xr[a, b], Xi[a, b] = x[q], x[q + 1]
                Xr[b, a], Xi[b, a] = -x[q], x[q + 1]
                q += 2
        cc, cs = self.coefficients(dw)
        Yr, Yi = ez_step(Xr, Xi, self.T, cc, cs, self.k, cap, early)
        return self.pack(Yr, Yi)

    def values(self, x):
        return [float(v) for v in x]


def read_noise(path, m):
    """seed, path and increment rows (m per row, the hex columns) of an slpi noise file"""
    head, rows = {}, []
    with open(path) as f:
        for line in f:
            if line[0] == "#":
                w = line[1:].split()
                if len(w) > 1:
                    head[w[0]] = w[1]
            else:
                rows.append([float.fromhex(v) for v in line.split("\t", m)[:m]])
    if head.get("components") != str(m) or "seed" not in head or "path" not in head:
        raise SystemExit("ports_numba.py: %s is not a noise file of %d components with seed and path" % (path, m))
    return head["seed"], head["path"], rows


def main(argv):
    if len(argv) not in (5, 7) or argv[1] not in ("float32", "float64") or argv[2] not in ("rb", "zeitlin"):
        raise SystemExit(__doc__)
    dt = np.float32 if argv[1] == "float32" else np.float64
    d = Defect(*argv[5:7]) if len(argv) == 7 else Defect()
    S = (RigidBody if argv[2] == "rb" else Zeitlin)(dt, d)
    steps = int(argv[4])
    seed, path, rows = read_noise(argv[3], S.noises)
    if len(rows) < steps:
        raise SystemExit("ports_numba.py: %s has %d increments, fewer than %d steps" % (argv[3], len(rows), steps))
    early = d.kind == "early"
    cap = int(d.mag) if early else 100
    out = sys.stdout
    out.write("# slpi-trajectory 1\n%s# steps=%d\n# seed=%s\n# path=%s\n# port %s numba %s, defect %s %g\n"
              % (S.header, steps, seed, path, argv[2], argv[1], d.kind, d.mag))
    out.write("step\tt\t%s\n" % "\t".join(S.columns))
    x = S.x0()
    for n in range(steps + 1):
        out.write("%d\t%.17g\t%s\n" % (n, n * S.h, "\t".join(v.hex() for v in S.values(x))))
        if n == steps:
            break
        x = S.step(x, rows[n], cap, early)
        if x.dtype != dt:
            raise SystemExit("ports_numba.py: the step left %s for %s" % (x.dtype, dt))
        if d.kind == "bad" and n == steps // 2:
            x[0] += dt(d.mag * 2.0 ** -24 * float(np.abs(x).max()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
