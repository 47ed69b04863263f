/* zeitlin-basis.c — Euler–Zeitlin discretisation of su(N), double path (docs/systems.md#euler-zeitlin;
 * ISO paper §6.4, eqs. (40)–(44), Hoppe–Yau Laplacian).
 *
 * The Hoppe–Yau Laplacian maps each diagonal d = b - a of a matrix to itself by the
 * symmetric tridiagonal L_d (diagonal -2(s(s+1) - m_a m_{a+d}), off-diagonal
 * beta_a beta_{a+d}); diagonal -d has the same L_d. Its eigenvectors, ordered by
 * l = d..N-1 (eigenvalue -l(l+1)), are the entries of the quantized harmonics T_ld
 * (docs: built by LAPACK, dstein for the 32 lowest degrees and dstevr for the rest, never
 * from 3j factorials, which overflow at N = 128; sign: the exact last component positive;
 * fast/zeitlin-degrees.c). The Poisson solve is O(N^2): Thomas per
 * diagonal, and on d = 0 (kernel: the identity) a pinned solve plus mean removal.
 */
#include "slpi/errors.h"
#include "fast/zeitlin.h"
#include "fast/team.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

/* Hard limit of the construction: the whole basis (lmax = N - 1) is ~N^3/3 doubles (2.8 GB at
 * 1024); a run builds the degrees it reads (slpi_fast_zeitlin_degrees). */
#define ZEITLIN_N_MAX 1024
#define ZEITLIN_SQRT1_2 0.70710678118654752440

static double zeitlin_beta(double s, double m)
{
    double v = s * (s + 1.0) - m * (m + 1.0);
    return v > 0.0 ? sqrt(v) : 0.0;
}

/* Thomas factorisation of the tridiagonal (ld, le) restricted to indices i0..n-1; the
 * coefficients of index i go to tc[i * cs], tinv[i * cs]. */
static void zeitlin_thomas_factor(const double *ld, const double *le, int i0, int n, size_t cs, double *tc,
                                  double *tinv)
{
    double prev = 0.0;
    for (int i = i0; i < n; i++) {
        double den = ld[i] - (i > i0 ? le[i - 1] * prev : 0.0);
        tinv[i * cs] = 1.0 / den;
        prev = i + 1 < n ? le[i] * tinv[i * cs] : 0.0;
        tc[i * cs] = prev;
    }
}

/* Solve on indices i0..n-1 in place on the strided complex vector p (p[i*stride]),
 * coefficients of index i at [i * cs]. */
static void zeitlin_thomas_solve(const double *le, const double *tc, const double *tinv, size_t cs, int i0, int n,
                                 double complex *p, size_t stride)
{
    double complex prev = 0.0;
    for (int i = i0; i < n; i++) {
        double complex y = p[i * stride];
        if (i > i0) y -= le[(i - 1) * cs] * prev;
        prev = y * tinv[i * cs];
        p[i * stride] = prev;
    }
    for (int i = n - 2; i >= i0; i--) p[i * stride] -= tc[i * cs] * p[(i + 1) * stride];
}

/* The Thomas factors of every L_d - shift (d = 0 with shift 0: of the trailing block
 * 1..N-1, the kernel pinned) as the symmetric coefficient matrices te, tc, tinv: entry a of
 * diagonal d at (a, a+d) and (a+d, a). */
static void zeitlin_factor(slpi_fast_zeitlin *z)
{
    int N = z->N;
    size_t st = (size_t)N + 1;
    double ld[N];
    for (int d = 0; d < N; d++) {
        int n = N - d;
        const double *le = z->le + z->off[d];
        for (int a = 0; a < n; a++) ld[a] = z->ld[z->off[d] + a] - z->shift;
        size_t up = (size_t)d * N, lo = (size_t)d;
        zeitlin_thomas_factor(ld, le, d == 0 && z->shift == 0 ? 1 : 0, n, st, z->tc + up, z->tinv + up);
        for (int a = 0; a < n; a++) {
            z->te[up + a * st] = z->te[lo + a * st] = le[a];
            z->tc[lo + a * st] = z->tc[up + a * st];
            z->tinv[lo + a * st] = z->tinv[up + a * st];
        }
    }
}

int slpi_fast_zeitlin_init(slpi_fast_zeitlin *z, int N, slpi_error *err)
{
    return slpi_fast_zeitlin_init_degrees(z, N, N - 1, err);
}

int slpi_fast_zeitlin_init_degrees(slpi_fast_zeitlin *z, int N, int lmax, slpi_error *err)
{
    memset(z, 0, sizeof *z);
    if (N < 2 || N > ZEITLIN_N_MAX)
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: N = %d out of range 2..%d", N, ZEITLIN_N_MAX);
    z->N = N;
    z->lmax = -1;
    size_t tri = (size_t)N * (size_t)(N + 1) / 2;
    z->off = malloc((size_t)(N + 1) * sizeof *z->off);
    z->ld = malloc(tri * sizeof *z->ld);
    z->le = malloc(tri * sizeof *z->le);
    z->te = calloc((size_t)N * N, sizeof *z->te);
    z->tc = calloc((size_t)N * N, sizeof *z->tc);
    z->tinv = calloc((size_t)N * N, sizeof *z->tinv);
    if (!z->off || !z->ld || !z->le || !z->te || !z->tc || !z->tinv) {
        slpi_fast_zeitlin_clear(z);
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: out of memory for the basis at N = %d", N);
    }
    z->off[0] = 0;
    double s = 0.5 * (N - 1);
    for (int d = 0; d < N; d++) {
        int n = N - d;
        z->off[d + 1] = z->off[d] + (size_t)n;
        double *ld = z->ld + z->off[d], *le = z->le + z->off[d];
        for (int a = 0; a < n; a++) {
            double ma = -s + a, mb = -s + a + d;
            ld[a] = -2.0 * (s * (s + 1.0) - ma * mb);
            le[a] = a + 1 < n ? zeitlin_beta(s, ma) * zeitlin_beta(s, mb) : 0.0;
        }
    }
    int rc = slpi_fast_zeitlin_degrees(z, lmax, err);
    if (rc != SLPI_OK) {
        slpi_fast_zeitlin_clear(z);
        return rc;
    }
    zeitlin_factor(z);
    return SLPI_OK;
}

int slpi_fast_zeitlin_set_shift(slpi_fast_zeitlin *z, double shift)
{
    if (!(shift >= 0 && isfinite(shift))) return SLPI_EINPUT;
    z->shift = shift;
    zeitlin_factor(z);
    return SLPI_OK;
}

void slpi_fast_zeitlin_clear(slpi_fast_zeitlin *z)
{
    free(z->off);
    free(z->voff);
    free(z->ld);
    free(z->le);
    free(z->te);
    free(z->tc);
    free(z->tinv);
    free(z->vec);
    free(z->poff);
    free(z->pvec);
    memset(z, 0, sizeof *z);
}

const double *slpi_fast_zeitlin_harmonic(const slpi_fast_zeitlin *z, int l, int m)
{
    size_t n = (size_t)(z->N - m);
    return z->vec + z->voff[m] + (size_t)(l - m) * n;
}

void slpi_fast_zeitlin_laplacian(double complex *out, const double complex *P, const slpi_fast_zeitlin *z)
{
    int N = z->N;
    for (int d = 0; d < N; d++) {
        int n = N - d;
        const double *ld = z->ld + z->off[d], *le = z->le + z->off[d];
        /* diagonal +d starts at (0, d), diagonal -d at (d, 0); both step by N + 1 */
        for (int side = 0; side < (d ? 2 : 1); side++) {
            size_t start = side ? (size_t)d : (size_t)d * N, st = (size_t)N + 1;
            const double complex *p = P + start;
            double complex *o = out + start;
            for (int a = 0; a < n; a++) {
                double complex v = ld[a] * p[a * st];
                if (a + 1 < n) v += le[a] * p[(a + 1) * st];
                if (a > 0) v += le[a - 1] * p[(a - 1) * st];
                o[a * st] = v;
            }
        }
    }
}

/* Diagonals d0 <= d < d1 (d >= 1) of the Poisson solve, upper triangle if upper, else
 * lower. The coefficient matrices te, tc, tinv are indexed like the entries, and an
 * entry's predecessor on its diagonal is one column and one row back (index - st): the
 * upper triangle is swept column by column (the rows of column b in the band depend only
 * on column b-1), the lower one by columns a with its diagonals d in the band; every inner
 * loop is contiguous and free of dependencies. Each entry's arithmetic is the same for
 * every band, so the bands (the threads' units) do not change the result. */
static void zeitlin_poisson_band(const slpi_fast_zeitlin *z, double c, const double complex *X, double complex *P,
                                 int upper, int d0, int d1)
{
    int N = z->N;
    size_t st = (size_t)N + 1;
    const double *te = z->te, *tc = z->tc, *ti = z->tinv;
    if (upper) {
        /* entry (a, b = a + d) at a + N b; column b holds rows a = b - d */
        for (int b = d0; b < N; b++) {
            int a0 = b - d1 + 1 > 0 ? b - d1 + 1 : 0, a1 = b - d0;
            size_t j = (size_t)N * b;
            for (int a = a0; a <= a1; a++) {
                size_t i = j + a;
                P[i] = a == 0 ? c * X[i] * ti[i] : (c * X[i] - te[i - st] * P[i - st]) * ti[i];
            }
        }
        for (int b = N - 2; b >= d0; b--) {
            int a0 = b - d1 + 1 > 0 ? b - d1 + 1 : 0, a1 = b - d0;
            for (size_t i = (size_t)N * b + a0; i <= (size_t)N * b + a1; i++) P[i] -= tc[i] * P[i + st];
        }
        return;
    }
    /* entry (a + d, a) at a st + d; column a holds d = 1..N-1-a */
    for (int a = 0; a < N - 1; a++) {
        int e1 = d1 < N - a ? d1 : N - a;
        for (size_t i = a * st + d0; i < a * st + e1; i++)
            P[i] = a == 0 ? c * X[i] * ti[i] : (c * X[i] - te[i - st] * P[i - st]) * ti[i];
    }
    for (int a = N - 3; a >= 0; a--) {
        int e1 = d1 < N - 1 - a ? d1 : N - 1 - a;
        for (size_t i = a * st + d0; i < a * st + e1; i++) P[i] -= tc[i] * P[i + st];
    }
}

/* Bands of diagonals per triangle, the thread team's units: equal numbers of entries. */
#define ZEITLIN_POISSON_BANDS 4

typedef struct {
    const slpi_fast_zeitlin *z;
    double c;
    const double complex *X;
    double complex *P;
    int edge[ZEITLIN_POISSON_BANDS + 1];
} zeitlin_poisson_job;

/* Unit u < 2 bands: band u / 2 of the upper (u odd) or lower triangle; the last unit:
 * d = 0 (shift 0: kernel C I, pin p_0 = 0 and solve the trailing block), remove the mean. */
static void zeitlin_poisson_unit(void *arg, int u)
{
    const zeitlin_poisson_job *b = arg;
    int N = b->z->N;
    if (u < 2 * ZEITLIN_POISSON_BANDS) {
        zeitlin_poisson_band(b->z, b->c, b->X, b->P, u % 2, b->edge[u / 2], b->edge[u / 2 + 1]);
        return;
    }
    const double complex *X = b->X;
    double complex *P = b->P;
    size_t st = (size_t)N + 1;
    double complex mean = 0.0;
    for (int a = 0; a < N; a++) mean += X[a * st];
    mean /= N;
    /* shift 0: the kernel C I, pinned at p_0 = 0; else L_0 - shift is definite */
    int a0 = b->z->shift == 0;
    P[0] = 0.0;
    for (int a = a0; a < N; a++) P[a * st] = b->c * (X[a * st] - mean);
    zeitlin_thomas_solve(b->z->te, b->z->tc, b->z->tinv, st, a0, N, P, st);
    double complex pm = 0.0;
    for (int a = 0; a < N; a++) pm += P[a * st];
    pm /= N;
    for (int a = 0; a < N; a++) P[a * st] -= pm;
}

void slpi_fast_zeitlin_poisson(double complex *P, const double complex *X, double c, const slpi_fast_zeitlin *z)
{
    int N = z->N, nb = ZEITLIN_POISSON_BANDS;
    zeitlin_poisson_job b = { z, c, X, P, { 0 } };
    /* diagonals 1..N-1 hold N(N-1)/2 entries; band k ends where k/nb of them are covered */
    b.edge[0] = 1;
    for (int k = 1, d = 1; k <= nb; k++) {
        double goal = (double)k / nb * (double)N * (N - 1) / 2;
        double got = (double)(d - 1) * (2.0 * N - d) / 2; /* entries of diagonals 1..d-1 */
        while (d < N && got < goal) {
            got += N - d;
            d++;
        }
        b.edge[k] = k == nb ? N : d;
    }
    slpi_fast_team_run(N, 2 * nb + 1, zeitlin_poisson_unit, &b);
}

/* Real projections of diagonal m of X onto the real-basis pattern (docs/systems.md#euler-zeitlin):
 * m = 0: x0_a = Im X_aa; m >= 1: x0_a = (Re X_{a+m,a} - Re X_{a,a+m})/sqrt2,
 * x1_a = (Im X_{a+m,a} + Im X_{a,a+m})/sqrt2, so that omega = V_m^T x. */
static void zeitlin_gather(int N, int m, const double complex *X, double *x0, double *x1)
{
    size_t st = (size_t)N + 1;
    if (m == 0) {
        for (int a = 0; a < N; a++) x0[a] = cimag(X[a * st]);
        return;
    }
    const double complex *lo = X + m, *up = X + (size_t)m * N;
    for (int a = 0; a < N - m; a++) {
        x0[a] = (creal(lo[a * st]) - creal(up[a * st])) * ZEITLIN_SQRT1_2;
        x1[a] = (cimag(lo[a * st]) + cimag(up[a * st])) * ZEITLIN_SQRT1_2;
    }
}

/* X += sum over the diagonal-m pattern with entry amplitudes u (cosine) and v (sine). */
static void zeitlin_scatter(int N, int m, const double *u, const double *v, double complex *X)
{
    size_t st = (size_t)N + 1;
    if (m == 0) {
        for (int a = 0; a < N; a++) X[a * st] += I * u[a];
        return;
    }
    double complex *lo = X + m, *up = X + (size_t)m * N;
    for (int a = 0; a < N - m; a++) {
        lo[a * st] += CMPLX(u[a] * ZEITLIN_SQRT1_2, v[a] * ZEITLIN_SQRT1_2);
        up[a * st] += CMPLX(-u[a] * ZEITLIN_SQRT1_2, v[a] * ZEITLIN_SQRT1_2);
    }
}

/* alpha of (l, m, part) with part 0 = cosine/zonal, 1 = sine. */
static int zeitlin_alpha(int l, int m, int part)
{
    return slpi_fast_zeitlin_alpha(l, m == 0 ? 0 : 2 * m - 1 + part);
}

/* The shared per-diagonal pass over degrees l >= lmin (lmin >= 1):
 *   analysis (X != NULL, omega != NULL): omega_alpha = <Y_alpha, X>;
 *   synthesis (out != NULL): out += sum c_alpha Y_alpha, where c_alpha = w_alpha times
 *   omega_alpha (if X != NULL) or times 1; c = omega when w == NULL.
 * The diagonals are independent (each reads and writes only its own): they are the thread
 * team's units, the longest first (m = 0, 1, ...). */
typedef struct {
    const slpi_fast_zeitlin *z;
    int lmin;
    const double *w;
    const double complex *X;
    double *omega;
    double complex *out;
} zeitlin_pass_job;

/* Column blocks of the synthesis's products: a multiple of the BLAS kernels' column
 * groups (4 in OpenBLAS's dgemv_n), so that a product cut at a block's end forms the sums
 * of the whole one; without it the bits move (check_degrees, t-fast-zeitlin-basis). */
#define ZEITLIN_SYNTH_GROUP 16

static void zeitlin_pass_diagonal(void *arg, int m)
{
    const zeitlin_pass_job *b = arg;
    const slpi_fast_zeitlin *z = b->z;
    int N = z->N, lmin = b->lmin, base = slpi_fast_zeitlin_alpha(lmin, 0);
    int n = N - m, k0 = lmin - m > 0 ? lmin - m : 0, kk = n - k0, parts = m ? 2 : 1;
    if (kk <= 0) return;
    if (m > z->lmax) { /* V_m not built: its degrees read 0 and add nothing (see zeitlin.h) */
        for (int part = 0; b->omega && part < parts; part++)
            for (int k = 0; k < kk; k++) b->omega[zeitlin_alpha(m + k0 + k, m, part)] = 0.0;
        return;
    }
    double x[2 * N], c[2 * N];
    const double *V = z->vec + z->voff[m] + (size_t)k0 * n;
    if (b->X) {
        zeitlin_gather(N, m, b->X, x, x + n);
        for (int part = 0; part < parts; part++)
            cblas_dgemv(CblasColMajor, CblasTrans, n, kk, 1.0, V, n, x + part * n, 1, 0.0, c + part * kk, 1);
    } else {
        for (int i = 0; i < kk * parts; i++) c[i] = 1.0;
    }
    for (int part = 0; part < parts; part++)
        for (int k = 0; k < kk; k++) {
            int alpha = zeitlin_alpha(m + k0 + k, m, part);
            if (b->omega) b->omega[alpha] = c[part * kk + k];
            if (b->w) c[part * kk + k] *= b->w[alpha - base];
        }
    if (!b->out) return;
    for (int part = 0; part < parts; part++) {
        /* The columns after the last nonzero coefficient add nothing: the product stops
         * at it, rounded up to a whole block, and forms the whole product's bits. So a
         * basis of degrees <= lmax is never read above them: its zero columns, about
         * 96 MB at N = 1024, stay unfaulted (docs/experiments.md#setup-faults). */
        const double *cp = c + part * kk;
        int kt = kk;
        while (kt > 0 && cp[kt - 1] == 0.0) kt--;
        kt = (kt + ZEITLIN_SYNTH_GROUP - 1) / ZEITLIN_SYNTH_GROUP * ZEITLIN_SYNTH_GROUP;
        if (kt > kk) kt = kk;
        if (kt == 0)
            memset(x + part * n, 0, (size_t)n * sizeof *x);
        else
            cblas_dgemv(CblasColMajor, CblasNoTrans, n, kt, 1.0, V, n, cp, 1, 0.0, x + part * n, 1);
    }
    zeitlin_scatter(N, m, x, m ? x + n : NULL, b->out);
}

static void zeitlin_pass(const slpi_fast_zeitlin *z, int lmin, const double *w, const double complex *X, double *omega,
                         double complex *out)
{
    zeitlin_pass_job b = { z, lmin, w, X, omega, out };
    slpi_fast_team_run(z->N, z->N, zeitlin_pass_diagonal, &b);
}

int slpi_fast_zeitlin_degree(int alpha)
{
    int l = (int)sqrt((double)alpha + 1.0);
    while (l * l > alpha + 1) l--;
    while ((l + 1) * (l + 1) <= alpha + 1) l++;
    return l;
}

/* (l, m, part) of alpha: j = 0 -> (m 0, zonal), j = 2m-1 -> cosine, j = 2m -> sine. */
static void zeitlin_split(int alpha, int *l, int *m, int *part)
{
    *l = slpi_fast_zeitlin_degree(alpha);
    int j = alpha + 1 - *l * *l;
    *m = (j + 1) / 2;
    *part = j > 0 && j % 2 == 0;
}

double slpi_fast_zeitlin_coeff(const double complex *X, int alpha, const slpi_fast_zeitlin *z)
{
    int N = z->N, l, m, part;
    zeitlin_split(alpha, &l, &m, &part);
    double x[2 * N], s = 0;
    zeitlin_gather(N, m, X, x, x + (N - m));
    const double *t = slpi_fast_zeitlin_harmonic(z, l, m), *xp = x + part * (N - m);
    for (int a = 0; a < N - m; a++) s += t[a] * xp[a];
    return s;
}

void slpi_fast_zeitlin_add_mode(double complex *X, int alpha, double c, const slpi_fast_zeitlin *z)
{
    int N = z->N, l, m, part;
    zeitlin_split(alpha, &l, &m, &part);
    double x[2 * N];
    const double *t = slpi_fast_zeitlin_harmonic(z, l, m);
    for (int a = 0; a < N - m; a++) {
        x[a] = part ? 0.0 : c * t[a];
        x[N - m + a] = part ? c * t[a] : 0.0;
    }
    zeitlin_scatter(N, m, x, m ? x + (N - m) : NULL, X);
}

void slpi_fast_zeitlin_analysis(double *omega, const double complex *X, const slpi_fast_zeitlin *z)
{
    zeitlin_pass(z, 1, NULL, X, omega, NULL);
}

void slpi_fast_zeitlin_synthesis(double complex *X, const double *omega, const slpi_fast_zeitlin *z)
{
    memset(X, 0, (size_t)z->N * z->N * sizeof *X);
    zeitlin_pass(z, 1, omega, NULL, NULL, X);
}

int slpi_fast_zeitlin_modal_init(slpi_fast_zeitlin *z, int lmin, slpi_error *err)
{
    int N = z->N;
    if (lmin < 1) lmin = 1;
    int rc = slpi_fast_zeitlin_degrees(z, N - 1, err);
    if (rc != SLPI_OK) return rc;
    free(z->poff);
    free(z->pvec);
    z->pvec = NULL;
    z->plmin = 0;
    z->poff = malloc((2 * (size_t)N + 1) * sizeof *z->poff);
    if (!z->poff) return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: out of memory at N = %d", N);
    size_t tot = 0;
    for (int m = 0; m < N; m++) {
        int n = N - m, k0 = lmin - m > 0 ? lmin - m : 0;
        for (int p = 0; p < 2; p++) {
            int rows = p ? n / 2 : (n + 1) / 2, k1 = k0 + ((k0 & 1) != p), cols = k1 < n ? (n - k1 + 1) / 2 : 0;
            z->poff[2 * m + p] = tot;
            tot += (size_t)rows * cols;
        }
    }
    z->poff[2 * N] = tot;
    z->pvec = malloc((tot ? tot : 1) * sizeof *z->pvec);
    if (!z->pvec) return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: out of memory at N = %d", N);
    for (int m = 0; m < N; m++) {
        int n = N - m, k0 = lmin - m > 0 ? lmin - m : 0;
        for (int p = 0; p < 2; p++) {
            int rows = p ? n / 2 : (n + 1) / 2, j = 0;
            double *B = z->pvec + z->poff[2 * m + p];
            for (int k = k0 + ((k0 & 1) != p); k < n; k += 2, j++) {
                const double *v = z->vec + z->voff[m] + (size_t)k * n;
                for (int a = 0; a < rows; a++)
                    B[(size_t)j * rows + a] = a == n - 1 - a ? v[a]
                        : p                                  ? 0.5 * (v[a] - v[n - 1 - a])
                                                             : 0.5 * (v[a] + v[n - 1 - a]);
            }
        }
    }
    z->plmin = lmin;
    return SLPI_OK;
}

/* The modal pass on diagonal m through the parity blocks (lmin = z->plmin): the symmetric
 * and antisymmetric halves of the gathered vectors (x_a +- x_{n-1-a}), their coefficients
 * (one dgemv per block and part), the weights, and back (y_a, y_{n-1-a} = s_a +- t_a). */
static void zeitlin_modal_diagonal(void *arg, int m)
{
    const zeitlin_pass_job *b = arg;
    const slpi_fast_zeitlin *z = b->z;
    int N = z->N, lmin = b->lmin, base = slpi_fast_zeitlin_alpha(lmin, 0);
    int n = N - m, k0 = lmin - m > 0 ? lmin - m : 0, h = n / 2, hs = (n + 1) / 2;
    if (n - k0 <= 0) return;
    double x[2 * N], hx[2][2][hs], c[2][2][hs], y[2][2][hs];
    if (b->X) {
        zeitlin_gather(N, m, b->X, x, x + n);
        if (!m) memcpy(x + n, x, (size_t)n * sizeof *x); /* m = 0: one part */
        for (int part = 0; part < 2; part++) {
            const double *xp = x + part * n;
            for (int a = 0; a < h; a++) {
                hx[0][part][a] = xp[a] + xp[n - 1 - a];
                hx[1][part][a] = xp[a] - xp[n - 1 - a];
            }
            if (hs > h) hx[0][part][h] = xp[h];
        }
    }
    for (int p = 0; p < 2; p++) {
        int rows = p ? h : hs, k1 = k0 + ((k0 & 1) != p), cols = k1 < n ? (n - k1 + 1) / 2 : 0;
        const double *B = z->pvec + z->poff[2 * m + p];
        for (int part = 0; part < 2; part++)
            for (int a = 0; a < rows; a++) y[p][part][a] = 0.0;
        if (rows == 0 || cols == 0) continue;
        for (int part = 0; part < 2; part++) {
            if (b->X)
                cblas_dgemv(CblasColMajor, CblasTrans, rows, cols, 1.0, B, rows, hx[p][part], 1, 0.0, c[p][part], 1);
            else
                for (int j = 0; j < cols; j++) c[p][part][j] = 1.0;
            if (part < (m ? 2 : 1))
                for (int j = 0; j < cols; j++) c[p][part][j] *= b->w[zeitlin_alpha(m + k1 + 2 * j, m, part) - base];
            cblas_dgemv(CblasColMajor, CblasNoTrans, rows, cols, 1.0, B, rows, c[p][part], 1, 0.0, y[p][part], 1);
        }
    }
    for (int part = 0; part < 2; part++) {
        double *xp = x + part * n;
        for (int a = 0; a < h; a++) {
            xp[a] = y[0][part][a] + y[1][part][a];
            xp[n - 1 - a] = y[0][part][a] - y[1][part][a];
        }
        if (hs > h) xp[h] = y[0][part][h];
    }
    zeitlin_scatter(N, m, x, m ? x + n : NULL, b->out);
}

void slpi_fast_zeitlin_modal(double complex *out, const double *w, const double complex *Y, int lmin,
                             const slpi_fast_zeitlin *z)
{
    if (lmin < 1) lmin = 1;
    if (z->plmin != lmin) {
        zeitlin_pass(z, lmin, w, Y, NULL, out);
        return;
    }
    zeitlin_pass_job b = { z, lmin, w, Y, NULL, out };
    slpi_fast_team_run(z->N, z->N, zeitlin_modal_diagonal, &b);
}
