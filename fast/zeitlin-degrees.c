/* zeitlin-degrees.c — the quantized harmonics of su(N) on the double path: V_d, the
 * eigenvectors of the Hoppe–Yau L_d by LAPACK dstevr (fast/zeitlin.h,
 * slpi_fast_zeitlin_degrees; fast/zeitlin-basis.c builds the rest of the basis).
 *
 * The tables are a function of (N, lmax) alone, and a process that builds the basis of
 * one N many times (`slpi verify` of a many-path file: the fast path's plans of every
 * path, its initial state and its paths' digests) gets the same bits from a copy of the
 * last one built: one table set of at most CACHE_BYTES is kept, under a lock, and copied
 * out, never shared. */
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
 * N^3/3 doubles, 2.8 MB at N = 64, 22 MB at 128, 45 MB at 256. */
#define CACHE_BYTES ((size_t)64 << 20)

static struct {
    pthread_mutex_t lock;
    int N, lmax;
    size_t len;
    double *vec;
} cache = { PTHREAD_MUTEX_INITIALIZER, 0, -1, 0, NULL };

/* vec (len doubles) from the last build of (N, lmax): 1, else 0. */
static int cache_get(int N, int lmax, double *vec, size_t len)
{
    pthread_mutex_lock(&cache.lock);
    int hit = cache.vec && cache.N == N && cache.lmax == lmax && cache.len == len;
    if (hit) memcpy(vec, cache.vec, len * sizeof *vec);
    pthread_mutex_unlock(&cache.lock);
    return hit;
}

/* Keep a copy of the tables of (N, lmax) (not when larger than CACHE_BYTES, or out of
 * memory: then the next build computes them again). */
static void cache_put(int N, int lmax, const double *vec, size_t len)
{
    if (len > CACHE_BYTES / sizeof *vec) return;
    double *copy = malloc((len ? len : 1) * sizeof *copy);
    if (!copy) return;
    memcpy(copy, vec, len * sizeof *copy);
    pthread_mutex_lock(&cache.lock);
    free(cache.vec);
    cache.vec = copy;
    cache.N = N;
    cache.lmax = lmax;
    cache.len = len;
    pthread_mutex_unlock(&cache.lock);
}

/* V_d into V (n x n): its columns k < cols (degrees l = d..d+cols-1), the others zero. All
 * of L_d's eigenvectors by dstevr (the same bits whatever cols is), ascending eigenvalues,
 * i.e. descending l; sign: last component positive. */
static int zeitlin_eigvec(const slpi_fast_zeitlin *z, int d, int cols, double *V, slpi_error *err)
{
    int N = z->N, n = N - d;
    double *dd = malloc((size_t)n * 3 * sizeof *dd), *ee = dd ? dd + n : NULL, *w = dd ? dd + 2 * n : NULL;
    double *Z = malloc((size_t)n * (size_t)n * sizeof *Z);
    lapack_int *isuppz = malloc((size_t)n * 2 * sizeof *isuppz);
    if (!dd || !Z || !isuppz) {
        free(dd);
        free(Z);
        free(isuppz);
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: out of memory at N = %d", N);
    }
    memcpy(dd, z->ld + z->off[d], (size_t)n * sizeof *dd);
    memcpy(ee, z->le + z->off[d], (size_t)n * sizeof *ee);
    lapack_int found = 0;
    lapack_int info =
        LAPACKE_dstevr(LAPACK_COL_MAJOR, 'V', 'A', n, dd, ee, 0.0, 0.0, 0, 0, 0.0, &found, w, Z, n, isuppz);
    double tol = 1e3 * DBL_EPSILON * (double)N * (double)N * (double)N;
    int bad = info != 0 || found != n;
    for (int k = 0; k < n && !bad; k++) {
        int l = d + k;
        if (fabs(w[n - 1 - k] + (double)l * (l + 1)) > tol) bad = 1;
        const double *src = Z + (size_t)(n - 1 - k) * n;
        double sg = src[n - 1] < 0.0 ? -1.0 : 1.0;
        for (int a = 0; a < n; a++) V[(size_t)k * n + a] = k < cols ? sg * src[a] : 0.0;
    }
    free(dd);
    free(Z);
    free(isuppz);
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
    double *vec = malloc((voff[N] ? voff[N] : 1) * sizeof *vec);
    int rc =
        vec ? SLPI_OK : slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: out of memory for the basis at N = %d", N);
    int hit = rc == SLPI_OK && cache_get(N, lmax, vec, voff[N]);
    for (int d = 0; d <= lmax && rc == SLPI_OK && !hit; d++)
        rc = zeitlin_eigvec(z, d, lmax - d + 1, vec + voff[d], err);
    if (rc == SLPI_OK && !hit) cache_put(N, lmax, vec, voff[N]);
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
