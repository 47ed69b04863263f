"""The state layouts of slpi.h for matrix algebras: su(N) (Euler–Zeitlin, sine-Euler)
and so(n) (Manakov), packed to and from the state vector."""
import numpy as np

__all__ = ["pack_su", "unpack_su", "pack_so", "unpack_so"]


def _square(argument, X, dtype):
    from slpi import SlpiError
    if X is None:
        raise SlpiError(2, "%s=None: a square matrix is needed" % argument, argument, None)
    A = np.asarray(X)
    if A.ndim != 2 or A.shape[0] != A.shape[1] or A.shape[0] < 1:
        raise SlpiError(2, "%s: shape %s: need a square matrix" % (argument, A.shape), argument, A.shape)
    if A.dtype.kind not in "fiuc":
        raise SlpiError(2, "%s: dtype %s: need numbers" % (argument, A.dtype), argument, str(A.dtype))
    return A.astype(dtype)


def _vector(argument, v, sizes):
    from slpi import SlpiError
    if v is None:
        raise SlpiError(2, "%s=None: a state vector is needed" % argument, argument, None)
    a = np.asarray(v)
    if a.ndim != 1 or a.dtype.kind not in "fiu":
        raise SlpiError(2, "%s: shape %s dtype %s: need a 1-D real vector" % (argument, a.shape, a.dtype),
                        argument, a.shape)
    n = sizes(len(a))
    if n is None:
        raise SlpiError(2, "%s: %d values: not the size of a state of this layout" % (argument, len(a)),
                        argument, len(a))
    return a.astype(np.float64), n


def pack_su(X):
    """The su(N) state vector of a skew-Hermitian N x N matrix X: Im X_aa (a = 0..N-1),
    then Re X_ab, Im X_ab for a < b row-major (N^2 doubles; slpi.h's layout).

    Parameters
    ----------
    X : array_like (N, N), complex
        Skew-Hermitian (only its diagonal's imaginary part and upper triangle are read).

    Returns
    -------
    ndarray (N*N,)

    Raises
    ------
    SlpiError
        Not a square matrix of numbers.

    Examples
    --------
    >>> import slpi, numpy as np
    >>> X = np.array([[1j, 2 + 3j], [-2 + 3j, -1j]])
    >>> slpi.pack_su(X).tolist()
    [1.0, -1.0, 2.0, 3.0]
    >>> bool(np.array_equal(slpi.unpack_su(slpi.pack_su(X)), X))
    True
    """
    A = _square("X", X, np.complex128)
    N = A.shape[0]
    iu = np.triu_indices(N, 1)
    off = np.empty(2 * len(iu[0]))
    off[0::2], off[1::2] = A[iu].real, A[iu].imag
    return np.concatenate([A.diagonal().imag, off])


def unpack_su(v):
    """The skew-Hermitian matrix of an su(N) state vector (inverse of ``pack_su``).

    Parameters
    ----------
    v : array_like (N*N,)

    Returns
    -------
    ndarray (N, N), complex

    Raises
    ------
    SlpiError
        A length that is not a square, or not a real vector.

    Examples
    --------
    >>> X = slpi.unpack_su([0.5, -0.5, 2, 1])
    >>> complex(X[0, 1]), complex(X[1, 0]), bool(np.array_equal(X, -X.conj().T))
    ((2+1j), (-2+1j), True)
    """
    a, N = _vector("v", v, lambda n: int(round(n ** 0.5)) if n > 0 and int(round(n ** 0.5)) ** 2 == n else None)
    X = np.zeros((N, N), dtype=np.complex128)
    X[np.diag_indices(N)] = 1j * a[:N]
    iu = np.triu_indices(N, 1)
    X[iu] = a[N::2] + 1j * a[N + 1::2]
    X[(iu[1], iu[0])] = -np.conj(X[iu])
    return X


def pack_so(X):
    """The so(n) state vector of a skew-symmetric n x n matrix: X_ij for i < j, row-major
    (n(n-1)/2 doubles, the Manakov layout).

    Parameters
    ----------
    X : array_like (n, n), real

    Returns
    -------
    ndarray (n(n-1)/2,)

    Raises
    ------
    SlpiError
        Not a square real matrix.

    Examples
    --------
    >>> slpi.pack_so([[0, 1, 2], [-1, 0, 3], [-2, -3, 0]]).tolist()
    [1.0, 2.0, 3.0]
    """
    A = _square("X", X, np.complex128)
    if np.any(A.imag != 0):
        from slpi import SlpiError
        raise SlpiError(2, "X: complex entries: so(n) matrices are real", "X", None)
    return A.real[np.triu_indices(A.shape[0], 1)].copy()


def unpack_so(v):
    """The skew-symmetric matrix of an so(n) state vector (inverse of ``pack_so``).

    Parameters
    ----------
    v : array_like (n(n-1)/2,)

    Returns
    -------
    ndarray (n, n)

    Raises
    ------
    SlpiError
        A length that is not n(n-1)/2.

    Examples
    --------
    >>> slpi.unpack_so([1, 2, 3]).tolist()
    [[0.0, 1.0, 2.0], [-1.0, 0.0, 3.0], [-2.0, -3.0, 0.0]]
    """
    def size(m):
        n = int(round((1 + (1 + 8 * m) ** 0.5) / 2))
        return n if m > 0 and n * (n - 1) // 2 == m else None
    a, n = _vector("v", v, size)
    X = np.zeros((n, n))
    iu = np.triu_indices(n, 1)
    X[iu] = a
    X[(iu[1], iu[0])] = -a
    return X
