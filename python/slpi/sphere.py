"""The vorticity field on the sphere of an su(N) state: the inverse of the Zeitlin map
(docs/systems.md#vorticity derives it), with the spherical harmonics computed here in
NumPy (spherical_harmonic); slpi.plot draws the field.

The state X = sum_alpha omega_alpha Y_alpha in slpi's real basis (docs/systems.md
#euler-zeitlin: Y_l0 = i A on the main diagonal, Y^c_lm = (A - A^T)/sqrt 2 and Y^s_lm =
i (A + A^T)/sqrt 2 with A[a + m, a] = v[a], v the unit eigenvector of the Laplacian's
tridiagonal L_m for -l(l + 1) with a positive last component) is read back into its
coefficients omega_alpha = Re Tr(Y_alpha^* X), and each basis matrix is matched with the
real function it quantizes: the polarization tensors T_lm (the 3j formula, supported
where m_a - m_b = m, as A) quantize the complex harmonics Y_lm (Condon-Shortley phase),
with T_{l,-m} = (-1)^m T_lm^T as Y_{l,-m} = (-1)^m conj(Y_lm), and X = i T(omega). With
sigma_lm = +-1 the sign of v against T_lm (A = sigma_lm T_lm), the zonal element
quantizes sigma_l0 Y_l0, the cosine element Y^c_lm = i sigma_lm T(sqrt 2 Im Y_lm) the
function sigma_lm sqrt 2 Im Y_lm (a sin(m phi) field), and the sine element Y^s_lm the
function sigma_lm sqrt 2 Re Y_lm (cos(m phi)), so

    omega(theta, phi) = sum_alpha omega_alpha f_alpha(theta, phi),

L^2-normalised on the unit sphere: a unit Frobenius state is a unit field."""
from fractions import Fraction
from math import factorial

import numpy as np

__all__ = ["zeitlin_coefficients", "vorticity", "harmonic_sign", "spherical_harmonic"]


def _laplacian_diagonal(N, m):
    """The symmetric tridiagonal L_m of docs/systems.md#laplacian (diagonal, off-diagonal)."""
    s = (N - 1) / 2
    a = np.arange(N - m)
    ma, mb = -s + a, -s + a + m
    beta = lambda mm: np.sqrt(np.maximum(s * (s + 1) - mm * (mm + 1), 0.0))   # noqa: E731
    d = -2.0 * (s * (s + 1) - ma * mb)
    e = (beta(ma) * beta(mb))[:-1]
    return d, e


def exact_signs(d, e, lam, imax, at_imax):
    """+1 or -1 per column: the factor that makes the exact last component positive, for
    computed unit eigenvectors of the symmetric tridiagonal (d, e), e > 0, of the exact
    eigenvalues lam, whose largest components are at rows imax and have the signs of
    at_imax (docs/systems.md#euler-zeitlin). The computed last component cannot say it
    where it is below the rounding (from N = 67; T_97,0's is 0.0 at N = 128): the sign is
    read at row i by v_i / v_(n-1) = (-1)^(n-1-i) det(T - lam) / prod(e_i..e_(n-2)), T the
    trailing block of rows i+1..n-1, whose determinant's sign is that of its pivots'
    product (a Sturm count), for every column at once."""
    d, e = np.asarray(d, float), np.asarray(e, float)
    lam, imax = np.asarray(lam, float), np.asarray(imax)
    n = len(d)
    odd = (n - 1 - imax) % 2 == 1
    piv = np.ones(len(lam))
    # a zero pivot becomes -tiny and the next one overflows to an infinity of the right
    # sign, as in a Sturm count: numpy's warnings about it say nothing
    with np.errstate(over="ignore", divide="ignore"):
        for a in range(1, n):
            act = imax < a
            if not act.any():
                continue
            p = d[a] - lam
            p = np.where(imax == a - 1, p, p - e[a - 1] ** 2 / np.where(act, piv, 1.0))
            piv = np.where(act, np.where(p == 0.0, -np.finfo(float).tiny, p), piv)
            odd ^= act & (piv < 0.0)
    return np.where((np.asarray(at_imax) < 0) != odd, -1.0, 1.0)


def _eigenvectors(N, m):
    """V[:, k]: L_m's unit eigenvector for l = m + k, its exact last component positive
    (slpi's sign, exact_signs)."""
    d, e = _laplacian_diagonal(N, m)
    L = np.diag(d) + np.diag(e, 1) + np.diag(e, -1)
    w, V = np.linalg.eigh(L)
    V = V[:, ::-1]   # ascending eigenvalues -l(l+1): descending l; reversed: l = m, m + 1, ...
    l = np.arange(m, N)
    i = np.abs(V).argmax(axis=0)
    return V * exact_signs(d, e, -l * (l + 1.0), i, V[i, np.arange(N - m)])


def _legendre_normalized(lmax, m, x):
    """P[l - m] for l = m..lmax: the L^2-normalised associated Legendre functions
    Pbar_lm(x) with the Condon-Shortley phase, Y_lm = Pbar_lm(cos theta) e^(i m phi), by the
    standard three-term recurrence in l at fixed m (stable for every l and m: it never
    divides by sin theta), from Pbar_00 = 1/sqrt(4 pi) and
    Pbar_mm = -sqrt((2m + 1)/(2m)) sqrt(1 - x^2) Pbar_(m-1)(m-1),
    Pbar_(m+1)m = sqrt(2m + 3) x Pbar_mm,
    Pbar_lm = a_lm (x Pbar_(l-1)m - Pbar_(l-2)m / a_(l-1)m), a_lm = sqrt((4l^2 - 1)/(l^2 - m^2))."""
    s = np.sqrt(np.maximum(1.0 - x * x, 0.0))
    pmm = np.full(x.shape, 1.0 / np.sqrt(4.0 * np.pi))
    for k in range(1, m + 1):
        pmm = -np.sqrt((2.0 * k + 1.0) / (2.0 * k)) * s * pmm
    out = [pmm]
    if lmax > m:
        out.append(np.sqrt(2.0 * m + 3.0) * x * pmm)
    a_prev = np.sqrt(2.0 * m + 3.0)
    for l in range(m + 2, lmax + 1):
        a = np.sqrt((4.0 * l * l - 1.0) / (l * l - m * m))
        out.append(a * (x * out[-1] - out[-2] / a_prev))
        a_prev = a
    return out


def spherical_harmonic(l, m, theta, phi):
    """The complex spherical harmonic Y_lm(theta, phi), 0 <= m <= l, L^2-normalised on the
    unit sphere with the Condon-Shortley phase (theta the colatitude, phi the longitude;
    arrays broadcast together); Y_l(-m) = (-1)^m conj(Y_lm).

    Examples
    --------
    >>> th, ph = 0.7, 1.9
    >>> y = slpi.spherical_harmonic(1, 1, th, ph)
    >>> bool(abs(y + np.sqrt(3 / (8 * np.pi)) * np.sin(th) * np.exp(1j * ph)) < 1e-15)
    True
    """
    if not 0 <= m <= l:
        raise ValueError(f"spherical_harmonic: need 0 <= m <= l, got l = {l}, m = {m}")
    theta, phi = np.broadcast_arrays(np.asarray(theta, dtype=np.float64), np.asarray(phi, dtype=np.float64))
    return _legendre_normalized(l, m, np.cos(theta))[l - m] * np.exp(1j * m * phi)


def _wigner3j(j1, j2, j3, m1, m2, m3):
    """The 3j symbol by Racah's formula, exactly (Fractions; arguments as Fractions or ints),
    returned as (sign, square of its absolute value) to keep it exact."""
    if m1 + m2 + m3 != 0:
        return 0, Fraction(0)
    f = lambda x: factorial(int(x))   # noqa: E731 (every argument is a whole number here)
    total = Fraction(0)
    kmin = max(0, j2 - j3 - m1, j1 - j3 + m2)
    kmax = min(j1 + j2 - j3, j1 - m1, j2 + m2)
    k = kmin
    while k <= kmax:
        total += Fraction((-1) ** int(k), f(k) * f(j3 - j2 + k + m1) * f(j3 - j1 + k - m2) * f(j1 + j2 - j3 - k)
                          * f(j1 - k - m1) * f(j2 - k + m2))
        k += 1
    pre = Fraction(f(j1 + j2 - j3) * f(j1 - j2 + j3) * f(-j1 + j2 + j3), f(j1 + j2 + j3 + 1)) \
        * f(j1 + m1) * f(j1 - m1) * f(j2 + m2) * f(j2 - m2) * f(j3 + m3) * f(j3 - m3)
    sign = (-1) ** int(j1 - j2 - m3) * (1 if total > 0 else -1 if total < 0 else 0)
    return sign, pre * total * total


def harmonic_sign(N, l, m):
    """sigma_lm: the sign of slpi's eigenvector v against the 3j formula's T_lm at the last
    entry of its diagonal, (row, column) = (N - 1, N - 1 - m): m_a = s, m_b = s - m, so
    (-1)^(s - m_a) (s l s; -m_a, m, m_b) = (s l s; -s, m, s - m)."""
    s = Fraction(N - 1, 2)
    sg, _ = _wigner3j(s, l, s, -s, m, s - m)
    return sg


def zeitlin_coefficients(state):
    """omega_alpha = Re Tr(Y_alpha^* X) of an su(N) state (pack_su layout), in slpi's order
    alpha = l^2 - 1 + j (j = 0 the zonal Y_l0, 2m - 1 the cosine Y^c_lm, 2m the sine
    Y^s_lm; l = 1..N-1): the coefficients the built-in initial condition and the noise use.

    Examples
    --------
    >>> r = slpi.run("iso/zeitlin/strong", N=4, ic_lmax=3, steps=1)
    >>> w = slpi.zeitlin_coefficients(r.states[0])
    >>> c = np.cos(1.3 * np.repeat([1, 2, 3], [3, 5, 7]) + 0.7 * np.concatenate([np.arange(3), np.arange(5),
    ...            np.arange(7)]) + 0.2)
    >>> bool(np.allclose(w, c / np.linalg.norm(c), rtol=0, atol=1e-14))
    True
    """
    from slpi.algebra import unpack_su
    X = unpack_su(state)
    N = X.shape[0]
    om = np.zeros(N * N - 1)
    r = np.sqrt(0.5)
    for m in range(N):
        V = _eigenvectors(N, m)
        a = np.arange(N - m)
        if m == 0:
            c0, c1 = V.T @ X[a, a].imag, None
        else:
            up, lo = X[a, a + m], X[a + m, a]
            c0, c1 = V.T @ ((lo.real - up.real) * r), V.T @ ((lo.imag + up.imag) * r)
        for k in range(N - m):
            l = m + k
            if l == 0:
                continue
            if m == 0:
                om[l * l - 1] = c0[k]
            else:
                om[l * l - 1 + 2 * m - 1], om[l * l - 1 + 2 * m] = c0[k], c1[k]
    return om


def vorticity(state, theta, phi):
    """The vorticity field omega(theta, phi) of an su(N) state (the module's map):
    theta the colatitude, phi the longitude (arrays broadcast together).

    Examples
    --------
    >>> X = slpi.unpack_su(slpi.run("iso/zeitlin/strong", N=6, ic_lmax=5, steps=1).states[0])
    >>> th, ph = np.meshgrid(np.linspace(0, np.pi, 41), np.linspace(0, 2 * np.pi, 81), indexing="ij")
    >>> w = slpi.vorticity(slpi.pack_su(X), th, ph)
    >>> area = np.sin(th) * (np.pi / 40) * (2 * np.pi / 80)
    >>> round(float(np.sum(w[:, :-1] ** 2 * area[:, :-1])), 2)   # a unit state: a unit field
    1.0
    """
    om = zeitlin_coefficients(state)
    N = int(round(np.sqrt(len(om) + 1)))
    theta, phi = np.broadcast_arrays(np.asarray(theta, dtype=np.float64), np.asarray(phi, dtype=np.float64))
    out = np.zeros(theta.shape)
    x = np.cos(theta)
    for m in range(0, N):
        P = _legendre_normalized(N - 1, m, x)
        for l in range(max(m, 1), N):
            j0 = l * l - 1 + (2 * m - 1 if m else 0)
            if not om[j0] and not (m and om[j0 + 1]):
                continue
            Y = P[l - m] * np.exp(1j * m * phi)
            sg = harmonic_sign(N, l, m)
            if m == 0:
                out += om[j0] * sg * Y.real
            else:
                f = sg * np.sqrt(2.0)
                out += om[j0] * f * Y.imag + om[j0 + 1] * f * Y.real
    return out
