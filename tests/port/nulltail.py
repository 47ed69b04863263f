#!/usr/bin/env python3
"""nulltail.py - is the F model of `slpi verify`'s systematic test right in its far tail
(docs/power.md#false-fail-rule)? For a binary32 rigid-body trajectory (tests/port's
ports on `iso/rigid-body/trajectories`), rebuild each row's projections as
oracle/stat.c defines them, with the binary64 step of ports.py in place of the
certified one (their difference, about 1e-16 |x|, is 1e-9 of the unit u |x|):

  r = (port row n+1 - F(row n, dW)) / (u s),  s = |F(row n, dW)|_max, u = 2^-24
  directions: F(x, dW), F(x, 0) - x, (F(x, dW) + F(x, -dW))/2 - F(x, 0), and per
  noise component (F(x, dW) - F(x, dW with dW_l negated))/2;  a_j = <r, d_j> / |d_j|

then Hotelling's T^2 of the rows' mean with its F(J, n - J) p-value (as verify), and
the same T^2's sign-flip p-value: under the null each row's vector a is as likely as -a,
so flipping the rows' signs at random draws from the null's own law, no F model. Also
each direction's kurtosis and lag-1 correlation (the F model assumes independent rows;
heavy tails slow its approach).

usage: nulltail.py TRAJECTORY NOISE [FLIPS]     one line of numbers (FLIPS 200000)"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ports  # noqa: E402  (the binary64 step)

U = 2.0 ** -24


def rows_of(path):
    out = []
    with open(path) as f:
        for line in f:
            if line[0] == "#" or line.startswith("step"):
                continue
            w = line.split("\t")
            out.append([float.fromhex(v) if "x" in v else float(v) for v in w[2:5]])
    return np.array(out)


def projections(traj, noise):
    B = ports.Backend("numpy", "float64")
    S, d = ports.RigidBody(B), ports.Defect()
    _, _, dw = ports.read_noise(noise, 3)
    X = rows_of(traj)
    A = []
    for n in range(len(X) - 1):
        x, w = X[n], np.array(dw[n])
        P = S.step(x, w, d)
        dirs = [P, S.step(x, 0 * w, d) - x, (P + S.step(x, -w, d)) / 2 - S.step(x, 0 * w, d)]
        for l in range(3):
            m = w.copy()
            m[l] = -m[l]
            dirs.append((P - S.step(x, m, d)) / 2)
        r = (X[n + 1] - P) / (U * np.abs(P).max())
        A.append([r @ v / np.linalg.norm(v) if np.linalg.norm(v) > 0 else 0.0 for v in dirs])
    return np.array(A)


def t2(A):
    """Hotelling's T^2 of the mean of the rows of A, directions that are (nearly)
    combinations of earlier ones dropped as oracle/stat.c does; (T^2, the kept columns)"""
    n = len(A)
    mean = A.mean(axis=0)
    W = (A - mean).T @ (A - mean)
    keep = []
    for i in range(A.shape[1]):
        k = keep + [i]
        if W[i, i] > 0 and np.linalg.eigvalsh(W[np.ix_(k, k)]).min() > 1e-10 * W[i, i]:
            keep = k
    Wk, mk = W[np.ix_(keep, keep)], mean[keep]
    return n * (n - 1) * mk @ np.linalg.solve(Wk, mk), keep


def f_tail(t, J, n):
    from scipy.stats import f
    return f.sf(t * (n - J) / (J * (n - 1)), J, n - J)


def main(argv):
    if len(argv) not in (3, 4):
        raise SystemExit(__doc__)
    flips = int(argv[3]) if len(argv) > 3 else 200000
    A = projections(argv[1], argv[2])
    n = len(A)
    T, keep = t2(A)
    J = len(keep)
    p_f = f_tail(T, J, n)
    A = A[:, keep]
    rng = np.random.default_rng(1)
    hits, done = 0, 0
    while done < flips:  # T^2 of the sign-flipped rows, in blocks
        b = min(2000, flips - done)
        s = rng.choice((-1.0, 1.0), size=(b, n))
        M = s @ A / n                           # flipped means, b x J
        S2 = A.T @ A                            # sum of a a^T: unchanged by flips
        W = S2[None, :, :] - n * M[:, :, None] * M[:, None, :]
        keepT = np.einsum("bi,bi->b", M, np.linalg.solve(W, M[:, :, None])[:, :, 0]) * n * (n - 1)
        hits += int((keepT >= T - 1e-9 * abs(T)).sum())
        done += b
    p_flip = (hits + 1) / (flips + 1)
    c = A - A.mean(axis=0)
    kurt = (c ** 4).mean(axis=0) / (c ** 2).mean(axis=0) ** 2
    lag1 = [float(np.corrcoef(A[:-1, j], A[1:, j])[0, 1]) for j in range(A.shape[1])]
    print("rows %d J %d T2 %.4g p_F %.3g p_flip %.3g kurtosis_max %.3g lag1_maxabs %.3g"
          % (n, J, T, p_f, p_flip, kurt.max(), max(abs(v) for v in lag1 if not math.isnan(v))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
