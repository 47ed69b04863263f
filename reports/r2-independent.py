#!/usr/bin/python3
"""r2-independent.py — an independent TMK for the audit's claim R2, written from the RKMK
paper alone (Alg. 1, eqs. (37)-(41); heavy top eqs. (44)-(45), Fig. 6's setting: inertia
(4,2,1), x = (0,0,1), alpha = (0.01,0.02,0.03), pi0 = gamma0 = sqrt2/2 (-1,1,0), h = 0.01,
10^4 steps). It shares no code with slpi (NumPy only; its own noise, so it is compared with
slpi in distribution, not bit for bit).

Question it answers: why does a TMK with the textbook Rodrigues coefficients
(1 - cos t)/t^2 show the paper's linear Casimir growth in one implementation (slopes
1.0-1.2, about 1.5e-12 at 10^4 steps) and a random walk in slpi (exp_form=rodrigues)?
The formula is the same; the cosine is not. Forms:
  rodrigues     the textbook form with math.cos (glibc: correctly rounded, unbiased)
  rodrigues-np  the same with np.cos (NumPy 1.24 on an AVX-512 machine: SVML, errs upwards)
  rodrigues-up  the same with math.cos moved one ulp up (slpi's exp_form=rodrigues-up)
  stable        2 sin^2(t/2)/t^2 and a Taylor series for (t - sin t)/t^3
  expm          Taylor + scaling and squaring of the 4x4 SE(3) matrix

usage: /usr/bin/python3 reports/r2-independent.py [STEPS [SEEDS [FORM...]]]
       /usr/bin/python3 reports/r2-independent.py --cos   (the cosines' errors in ulps)
Prints per form and seed: the log-log slope of the running max |C - C(0)| over n = 16..STEPS
(fitted at n = 2^k, as the audit's growth check) and its value at the end, for
C1 = |gamma|^2 and C2 = pi.gamma. About 20 s of CPU per 10^4-step run.
"""
import math
import sys
from fractions import Fraction

import numpy as np

INERTIA_INV = 1 / np.array([4.0, 2.0, 1.0])
CHI = np.array([0.0, 0.0, 1.0])
ALPHA = np.array([0.01, 0.02, 0.03])
H = 0.01


def hat(w):
    return np.array([[0, -w[2], w[1]], [w[2], 0, -w[0]], [-w[1], w[0], 0]])


def coefficients(t2, form):
    """sin t/t, (1 - cos t)/t^2, (t - sin t)/t^3 for t^2 = t2, rounded as the form says."""
    t = math.sqrt(t2)
    if t == 0:
        return 1.0, 0.5, 1 / 6
    if form == 'stable':
        sh = math.sin(t / 2) / t
        c2 = (sum((-1) ** k * t2 ** k / math.factorial(2 * k + 3) for k in range(9)) if t < 1
              else (t - math.sin(t)) / (t2 * t))
        return math.sin(t) / t, 2 * sh * sh, c2
    cos, sin = {'rodrigues': (math.cos, math.sin),
                'rodrigues-np': (lambda x: float(np.cos(x)), lambda x: float(np.sin(x))),
                'rodrigues-up': (lambda x: math.nextafter(math.cos(x), 2.0), math.sin)}[form]
    return sin(t) / t, (1 - cos(t)) / t2, (t - sin(t)) / (t2 * t)


def expm4(a):
    """exp of a 4x4 matrix: Taylor to degree 14 after scaling to norm 1/4, then squaring."""
    n, j = np.abs(a).sum(axis=1).max(), 0
    while n > 0.25:
        n, j = n / 2, j + 1
    a = a / 2 ** j
    e, p = np.eye(4), np.eye(4)
    for k in range(1, 15):
        p = p @ a / k
        e = e + p
    for _ in range(j):
        e = e @ e
    return e


def group(sig, form):
    """R and V b of exp([[hat xi, b], [0, 0]]) = [[R, V b], [0, 1]]."""
    xi, b = sig[:3], sig[3:]
    if form == 'expm':
        a = np.zeros((4, 4))
        a[:3, :3], a[:3, 3] = hat(xi), b
        e = expm4(a)
        return e[:3, :3], e[:3, 3]
    s, c1, c2 = coefficients(float(xi @ xi), form)
    k = hat(xi)
    k2 = k @ k
    return np.eye(3) + s * k + c1 * k2, (np.eye(3) + c1 * k + c2 * k2) @ b


def orbit(sig, mu, form):
    """The coadjoint orbit map: mu' = ad*_sig mu for unit time, with
    ad*_(xi,b)(pi,gamma) = (pi x xi + gamma x b, gamma x xi): gamma -> R^T gamma,
    pi -> R^T (pi + gamma x V b)."""
    r, vb = group(sig, form)
    pi, g = mu[:3], mu[3:]
    return np.concatenate([r.T @ (pi + np.cross(g, vb)), r.T @ g])


def coad(sig, mu):
    pi, g = mu[:3], mu[3:]
    return np.concatenate([np.cross(pi, sig[:3]) + np.cross(g, sig[3:]), np.cross(g, sig[:3])])


def increment(mu, dw):
    """h dh/dmu + dW dh1/dmu (h = pi.I^-1 pi/2 + x.gamma, h1 = alpha.pi)."""
    return np.concatenate([H * INERTIA_INV * mu[:3] + dw * ALPHA, H * CHI])


def step(mu, dw, form, tol=1e-15, maxit=50):
    """sig = increment((mu + orbit(sig, mu))/2) by the chord method, Jacobian frozen at
    sig = 0 (eqs. (40)-(41)); then mu -> orbit(sig, mu)."""
    d2 = np.zeros((6, 6))
    d2[:3, :3] = np.diag(H * INERTIA_INV)
    a = np.column_stack([coad(e, mu) for e in np.eye(6)])
    jinv = np.linalg.inv(np.eye(6) - 0.5 * d2 @ a)
    sig = np.zeros(6)
    for _ in range(maxit):
        d = jinv @ (sig - increment(0.5 * mu + 0.5 * orbit(sig, mu, form), dw))
        sig = sig - d
        if np.abs(d).max() <= tol * max(1.0, np.abs(sig).max()):
            break
    return orbit(sig, mu, form)


def run(form, seed, steps):
    """C1 - C1(0) and C2 - C2(0) after each step."""
    dws = np.random.default_rng(seed).standard_normal(steps) * math.sqrt(H)
    v = np.array([-1.0, 1.0, 0.0]) * math.sqrt(2) / 2
    mu = np.concatenate([v, v])
    c10, c20 = mu[3:] @ mu[3:], mu[:3] @ mu[3:]
    dev = np.zeros((steps + 1, 2))
    for n in range(steps):
        mu = step(mu, dws[n], form)
        dev[n + 1] = (mu[3:] @ mu[3:] - c10, mu[:3] @ mu[3:] - c20)
    return dev


def growth(dev):
    """Log-log slope of the running max |dev| at n = 16, 32, .. and its value at the end."""
    run_max = np.maximum.accumulate(np.abs(dev))
    ns = [n for n in 2 ** np.arange(4, 40) if n < len(dev) and run_max[n] > 0]
    return np.polyfit(np.log(ns), np.log(run_max[ns]), 1)[0], run_max[-1]


def cos_errors():
    """The error of math.cos and np.cos in ulps against exact values (Taylor series in
    rationals) at 2000 points of [1e-3, 1e-2], the range of t = |xi| in Fig. 6's run."""
    ts = np.random.default_rng(2).uniform(1e-3, 1e-2, 2000)

    def exact(x):
        x, s, term, k = Fraction(x), Fraction(0), Fraction(1), 0
        while abs(term) > Fraction(1, 10 ** 40):
            s, k = s + term, k + 2
            term = -term * x * x / ((k - 1) * k)
        return s
    for name, f in (('math.cos (libm)', math.cos), ('np.cos', lambda x: float(np.cos(x)))):
        e = np.array([float((Fraction(f(t)) - exact(t)) / Fraction(float(np.spacing(f(t)))))
                      for t in ts])
        print(f"{name:16s} error in ulps: mean {e.mean():+.3f}, range [{e.min():+.2f}, {e.max():+.2f}]")
    print(f"(NumPy {np.__version__})")


def main(argv):
    if argv[:1] == ['--cos']:
        cos_errors()
        return
    steps = int(argv[0]) if argv else 10000
    seeds = range(1, 1 + (int(argv[1]) if len(argv) > 1 else 3))
    for form in argv[2:] or ['rodrigues', 'rodrigues-np', 'rodrigues-up', 'stable', 'expm']:
        for seed in seeds:
            dev = run(form, seed, steps)
            (s1, e1), (s2, e2) = growth(dev[:, 0]), growth(dev[:, 1])
            print(f"{form:12s} seed {seed}: C1 slope {s1:.2f}, max {e1:.2e} (end {dev[-1, 0]:+.2e}); "
                  f"C2 slope {s2:.2f}, max {e2:.2e} (end {dev[-1, 1]:+.2e})", flush=True)


if __name__ == '__main__':
    main(sys.argv[1:])
