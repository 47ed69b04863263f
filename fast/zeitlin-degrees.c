/* zeitlin-degrees.c — the quantized harmonics of su(N) on the double path: V_d, the
 * eigenvectors of the Hoppe–Yau L_d (docs/systems.md#euler-zeitlin, "Harmonics and the
 * real basis") by LAPACK's dstein at the exact eigenvalues for the lowest degrees and
 * dstevr for the rest, signed as the certified path's (fast/zeitlin.h,
 * slpi_fast_zeitlin_degrees; fast/zeitlin-basis.c builds the rest of the basis).
 *
 * The tables are a function of (N, lmax) alone, and a process that builds the basis of
 * one N many times (`slpi verify` of a many-path file: the fast path's plans of every
 * path, its initial state and its paths' digests) gets the same bits from a copy of the
 * last one built: one table set of at most CACHE_BYTES is kept, under a lock, and copied
 * out, never shared. The copy holds the columns built (V_d's first lmax - d + 1, contiguous
 * in column-major order), not the zero columns above them, whose pages neither the copy
 * nor the set-up touches. */
#include "slpi/errors.h"
#include "fast/zeitlin.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

/* The largest table set kept for the next build (bytes): su(N)'s whole basis is about
 * N^3/3 doubles, 2.8 MB at N = 64, 22 MB at 128, 45 MB at 256; the degrees <= lmax of
 * any N, about (lmax + 1)^2 N / 2 doubles. */
#define CACHE_BYTES ((size_t)64 << 20)

static struct {
    pthread_mutex_t lock;
    int N, lmax;
    double *vec;
} cache = { PTHREAD_MUTEX_INITIALIZER, 0, -1, NULL };

/* Doubles of V_d that the basis of degrees <= lmax writes (d <= lmax): its first
 * lmax - d + 1 columns of N - d. */
static size_t cache_part(int N, int lmax, int d)
{
    return (size_t)(lmax - d + 1) * (size_t)(N - d);
}

/* Copy the built columns of every V_d between vec (laid out by voff) and the compact
 * copy c: into vec if in, else out of it. */
static void cache_copy(int N, int lmax, double *vec, const size_t *voff, double *c, int in)
{
    for (int d = 0; d <= lmax; d++) {
        size_t len = cache_part(N, lmax, d);
        if (in)
            memcpy(vec + voff[d], c, len * sizeof *c);
        else
            memcpy(c, vec + voff[d], len * sizeof *c);
        c += len;
    }
}

/* vec (laid out by voff, zero on entry) from the last build of (N, lmax): 1, else 0. */
static int cache_get(int N, int lmax, double *vec, const size_t *voff)
{
    pthread_mutex_lock(&cache.lock);
    int hit = cache.vec && cache.N == N && cache.lmax == lmax;
    if (hit) cache_copy(N, lmax, vec, voff, cache.vec, 1);
    pthread_mutex_unlock(&cache.lock);
    return hit;
}

/* Keep a copy of the tables of (N, lmax) (not when larger than CACHE_BYTES, or out of
 * memory: then the next build computes them again). */
static void cache_put(int N, int lmax, double *vec, const size_t *voff)
{
    size_t len = 0;
    for (int d = 0; d <= lmax; d++) len += cache_part(N, lmax, d);
    if (len > CACHE_BYTES / sizeof *vec) return;
    double *copy = malloc((len ? len : 1) * sizeof *copy);
    if (!copy) return;
    cache_copy(N, lmax, vec, voff, copy, 0);
    pthread_mutex_lock(&cache.lock);
    free(cache.vec);
    cache.vec = copy;
    cache.N = N;
    cache.lmax = lmax;
    pthread_mutex_unlock(&cache.lock);
}

/* The columns of the lowest degrees (k < HEAD: what a run that reads degrees <= ic_lmax
 * needs) come from inverse iteration at their exact eigenvalues -l(l+1) (dstein, which
 * orthogonalizes them against one another); the others from the whole decomposition
 * (dstevr, RANGE='A'), made only when a run reads a degree above them. So a column's bits
 * depend on (N, d) alone, never on how many columns a run reads. */
#define HEAD 32

/* Column k of V from src, the eigenvector of L_d (diagonal ld, off-diagonal le > 0, n) for
 * lam = -l(l+1), l = d + k, signed so that its last component is positive in exact arithmetic (the
 * certified path's sign, ref/zeitlin-basis.c). The computed last component cannot say so
 * where it is below the rounding (at N = 128, T_97,0's is computed as 0.0): the sign is
 * read at the largest component i instead, by v_i / v_{n-1} = (-1)^{n-1-i}
 * det(T - lam I) / prod_{a >= i} le_a, T the trailing block of rows i+1..n-1, whose
 * determinant's sign is that of its pivots' product (a Sturm count). */
static void zeitlin_column(double *V, const double *ld, const double *le, int n, int d, int k, const double *src)
{
    const double lam = -(double)(d + k) * (d + k + 1);
    int i = 0;
    for (int a = 1; a < n; a++)
        if (fabs(src[a]) > fabs(src[i])) i = a;
    int odd = (n - 1 - i) & 1;
    double piv = 1.0;
    for (int a = i + 1; a < n; a++) {
        piv = (ld[a] - lam) - (a > i + 1 ? le[a - 1] * le[a - 1] / piv : 0.0);
        if (piv == 0.0) piv = -DBL_MIN; /* as a Sturm count does (dstebz's pivmin) */
        odd ^= piv < 0.0;
    }
    double sg = (src[i] < 0.0) != odd ? -1.0 : 1.0;
    for (int a = 0; a < n; a++) V[(size_t)k * n + a] = sg * src[a];
}

/* V_d into V (n x n, zero on entry): its columns k < cols (degrees l = d..d+cols-1);
 * column k is the eigenvector of L_d's eigenvalue -l(l+1), l = d + k. */
static int zeitlin_eigvec(const slpi_fast_zeitlin *z, int d, int cols, double *V, slpi_error *err)
{
    int N = z->N, n = N - d, head = HEAD < n ? HEAD : n;
    const double *ld = z->ld + z->off[d], *le = z->le + z->off[d];
    double *work = malloc((size_t)n * 3 * sizeof *work), *dd = work, *ee = work ? work + n : NULL,
           *w = work ? work + 2 * n : NULL;
    double *Z = malloc((size_t)n * (size_t)(cols > head ? n : head) * sizeof *Z);
    lapack_int *iw = malloc((size_t)n * 2 * sizeof *iw);
    if (!work || !Z || !iw) {
        free(work);
        free(Z);
        free(iw);
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: out of memory at N = %d", N);
    }
    /* the head: ascending eigenvalues, so entry j is degree d + head - 1 - j */
    for (int j = 0; j < head; j++) {
        int l = d + head - 1 - j;
        w[j] = -(double)l * (l + 1);
        iw[j] = 1; /* one block */
    }
    for (int j = head; j < n; j++) w[j] = 0.0; /* LAPACKE_dstein's NaN check reads n of them */
    lapack_int split = n, info = 0, found = 0;
    lapack_int *ifail = iw + head;
    info = LAPACKE_dstein(LAPACK_COL_MAJOR, n, ld, le, head, w, iw, &split, Z, n, ifail);
    for (int j = 0; j < head && info == 0; j++)
        if (head - 1 - j < cols) zeitlin_column(V, ld, le, n, d, head - 1 - j, Z + (size_t)j * n);
    int stein_bad = info != 0, bad = stein_bad;
    if (!bad && cols > head) {
        memcpy(dd, ld, (size_t)n * sizeof *dd);
        memcpy(ee, le, (size_t)n * sizeof *ee);
        info = LAPACKE_dstevr(LAPACK_COL_MAJOR, 'V', 'A', n, dd, ee, 0.0, 0.0, 0, 0, 0.0, &found, w, Z, n, iw);
        double tol = 1e3 * DBL_EPSILON * (double)N * (double)N * (double)N;
        bad = info != 0 || found != n;
        for (int k = 0; k < n && !bad; k++) {
            int l = d + k;
            if (fabs(w[n - 1 - k] + (double)l * (l + 1)) > tol) bad = 1;
            if (k >= head && k < cols) zeitlin_column(V, ld, le, n, d, k, Z + (size_t)(n - 1 - k) * n);
        }
    }
    free(work);
    free(Z);
    free(iw);
    if (stein_bad)
        return slpi_error_set(err, SLPI_ENUMERIC,
                              "euler-zeitlin: eigenvectors of L_%d failed at N = %d (dstein info %d: "
                              "vectors that did not converge)",
                              d, N, (int)info);
    if (bad)
        return slpi_error_set(err, SLPI_ENUMERIC,
                              "euler-zeitlin: eigen-decomposition of L_%d failed at N = %d "
                              "(dstevr info %d, %d of %d eigenvalues -l(l+1))",
                              d, N, (int)info, (int)found, n);
    return SLPI_OK;
}

int slpi_fast_zeitlin_degrees(slpi_fast_zeitlin *z, int lmax, slpi_error *err)
{
    int N = z->N;
    if (lmax > N - 1) lmax = N - 1;
    if (lmax <= z->lmax) return SLPI_OK;
    size_t *voff = malloc((size_t)(N + 1) * sizeof *voff);
    if (!voff) return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: out of memory for the basis at N = %d", N);
    voff[0] = 0;
    for (int d = 0; d < N; d++) {
        size_t n = (size_t)(N - d);
        voff[d + 1] = voff[d] + (d <= lmax ? n * n : 0);
    }
    /* zeroed by calloc: the columns above lmax are never written, and their pages cost no
     * page faults: neither the copy kept nor the synthesis (it stops at the last nonzero
     * coefficient) reads them */
    double *vec = calloc(voff[N] ? voff[N] : 1, sizeof *vec);
    int rc =
        vec ? SLPI_OK : slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: out of memory for the basis at N = %d", N);
    int hit = rc == SLPI_OK && cache_get(N, lmax, vec, voff);
    for (int d = 0; d <= lmax && rc == SLPI_OK && !hit; d++)
        rc = zeitlin_eigvec(z, d, lmax - d + 1, vec + voff[d], err);
    if (rc == SLPI_OK && !hit) cache_put(N, lmax, vec, voff);
    if (rc != SLPI_OK) {
        free(voff);
        free(vec);
        return rc;
    }
    free(z->voff);
    free(z->vec);
    z->voff = voff;
    z->vec = vec;
    z->lmax = lmax;
    return SLPI_OK;
}
