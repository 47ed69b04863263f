/* sun.c — su(N)/u(N) skew-Hermitian kernels of the double path, shared by the
 * Euler–Zeitlin (docs/systems.md#euler-zeitlin) and sine-Euler (docs/systems.md#sine-euler) system files: packed-layout
 * conversion, the J-quadratic coadjoint action ad*_xi X = [X, xi] (docs/conventions.md#brackets), the orbit
 * map O_exp(sigma; X) = e^{sigma^*} X e^{-sigma^*} (docs/conventions.md#orbit-maps), the bracket, and the ISOMP fixed-point
 * map (docs/schemes.md#isomp; ISO paper eq. (26)) with the skew-Hermitian savings: one product gives
 * the commutator, and the second product is formed on its upper block triangle only.
 * Every product of the fixed-point map, of the predictor and of the COMM update is
 * OpenBLAS's zgemm3m (three real products per complex one, the 3M method; normwise as
 * accurate, docs/schemes.md#isomp) or zgemm, whichever this machine runs faster, as timed
 * once and cached (slpi_blas_zproduct, docs/install.md#products). The Cayley
 * congruences (predictor=cayley, isomp_update=cay, solver=newton) are fast/dense.c's LU
 * solves and zgemm, shared with the Manakov system.
 */
#include "slpi/errors.h"
#include "slpi/diag.h"
#include "fast/sun.h"
#include "fast/dense.h"
#include "fast/team.h"
#include "core/blas.h"

#include <cblas.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef double complex cplx;

/* Tile edge of the fused pass of slpi_fast_sun_isomp (the thread team's unit); inside a
 * tile, as in every pass over a matrix and its transpose, SLPI_FAST_SUBTILE sub-tiles. */
#define SUN_TILE 32
#define SUN_SUB SLPI_FAST_SUBTILE

/* For each entry (i, j), i <= j, of rows [i0, i1) and columns [j0, j1) of the upper
 * triangle, sub-tile by sub-tile (the loop body sees the diagonal as i == j). */
#define SUN_FOR_UPPER(i0, i1, j0, j1, i, j)                                                                            \
    for (int sj_ = (j0); sj_ < (j1); sj_ += SUN_SUB)                                                                   \
        for (int si_ = (i0); si_ < (i1) && si_ <= sj_; si_ += SUN_SUB)                                                 \
            for (int j = sj_; j < sj_ + SUN_SUB && j < (j1); j++)                                                      \
                for (int i = si_; i < si_ + SUN_SUB && i < (i1) && i <= j; i++)

static size_t sun_pair(int N, int a, int b)
{
    return (size_t)N + 2 * ((size_t)a * (2 * (size_t)N - a - 1) / 2 + (size_t)(b - a - 1));
}

void slpi_fast_sun_unpack(cplx *X, const double *x, int N)
{
    SUN_FOR_UPPER(0, N, 0, N, i, j)
    {
        if (i == j) {
            X[j + (size_t)N * j] = CMPLX(0.0, x[j]);
            continue;
        }
        const double *p = x + sun_pair(N, i, j);
        X[i + (size_t)N * j] = CMPLX(p[0], p[1]);
        X[j + (size_t)N * i] = CMPLX(-p[0], p[1]);
    }
}

void slpi_fast_sun_pack(double *x, const cplx *X, int N)
{
    SUN_FOR_UPPER(0, N, 0, N, i, j)
    {
        if (i == j) {
            x[j] = cimag(X[j + (size_t)N * j]);
            continue;
        }
        double *p = x + sun_pair(N, i, j);
        cplx v = 0.5 * (X[i + (size_t)N * j] - conj(X[j + (size_t)N * i]));
        p[0] = creal(v);
        p[1] = cimag(v);
    }
}

/* Column blocks for the triangle product: fewer, larger GEMMs at small N (measured with
 * bench/bench-fast-zeitlin.c; the work is (nblk + 1) / (2 nblk) of a full zgemm). */
static int sun_default_blocks(int N)
{
    return N >= 192 ? 8 : N >= 96 ? 4 : N >= 48 ? 2 : 1;
}

int slpi_fast_sun_init(slpi_fast_sun *u, int N,
                       void (*m_gen_sum)(slpi_fast_sun *, const double *, const cplx *, cplx *),
                       void (*gen)(slpi_fast_sun *, int, const cplx *, int, cplx *), slpi_error *err)
{
    memset(u, 0, sizeof *u);
    u->N = N;
    u->m_gen_sum = m_gen_sum;
    u->gen = gen;
    u->nblk = sun_default_blocks(N);
    u->m3 = slpi_blas_zproduct_use();
    if (u->m3 < 0) return slpi_error_set(err, SLPI_EINPUT, "su(%d): %s", N, slpi_blas_zproduct_why());
    for (int i = 0; i < 4; i++) {
        u->w[i] = malloc((size_t)N * N * sizeof(cplx));
        if (!u->w[i]) {
            slpi_fast_sun_clear(u);
            return slpi_error_set(err, SLPI_EINPUT, "su(%d): out of memory", N);
        }
    }
    return SLPI_OK;
}

void slpi_fast_sun_clear(slpi_fast_sun *u)
{
    for (int i = 0; i < 4; i++) free(u->w[i]);
    for (int i = 0; i < 2; i++) {
        free(u->spec[i].X);
        free(u->spec[i].lam);
    }
    memset(u, 0, sizeof *u);
}

/* C = alpha A op(B), C m x n, A m x N, B N x n (op(B): N x n), leading dimensions N: the
 * product of u (zgemm3m or zgemm). */
static void sun_product(const slpi_fast_sun *u, CBLAS_TRANSPOSE tb, int m, int n, cplx alpha, const cplx *A,
                        const cplx *B, cplx *C)
{
    cplx beta = 0;
    int N = u->N;
    (u->m3 ? cblas_zgemm3m : cblas_zgemm)(CblasColMajor, CblasNoTrans, tb, m, n, N, &alpha, A, N, B, N, &beta, C, N);
}

/* The fused O(N^2) pass on one SUN_TILE x SUN_TILE tile (i0, j0), i0 <= j0, of the upper
 * triangle and its mirror; the tile's max |Ynew - Y| and max |Ynew| (over the doubles)
 * into m[0], m[1]. Each double of a pair has its own running maximum (six chains, not two
 * serial ones: the maxima's dependency chain, not the arithmetic, bounded the pass). */
static void sun_isomp_tile(int N, int i0, int j0, const cplx *G, const cplx *H, const cplx *Xn, const cplx *Y,
                           cplx *Ynew, double m[2])
{
    double d[4] = { 0, 0, 0, 0 }, y[2] = { 0, 0 };
    int j1 = j0 + SUN_TILE < N ? j0 + SUN_TILE : N;
    int i1 = i0 + SUN_TILE < N ? i0 + SUN_TILE : N;
    SUN_FOR_UPPER(i0, i1, j0, j1, i, j)
    {
        size_t ij = i + (size_t)N * j, ji = j + (size_t)N * i;
        if (i == j) {
            cplx v = Xn[ij] + I * (cimag(G[ij]) + cimag(H[ij]));
            Ynew[ij] = v;
            d[0] = slpi_vec_maxacc(d[0], fabs(creal(v) - creal(Y[ij])));
            d[1] = slpi_vec_maxacc(d[1], fabs(cimag(v) - cimag(Y[ij])));
            y[0] = slpi_vec_maxacc(y[0], fabs(creal(v)));
            y[1] = slpi_vec_maxacc(y[1], fabs(cimag(v)));
            continue;
        }
        cplx g = G[ij], gt = G[ji], h = H[ij];
        cplx v = Xn[ij] + 0.5 * (g - conj(gt)) + h;
        cplx w = Xn[ji] + 0.5 * (gt - conj(g)) - conj(h);
        Ynew[ij] = v;
        Ynew[ji] = w;
        d[0] = slpi_vec_maxacc(d[0], fabs(creal(v) - creal(Y[ij])));
        d[1] = slpi_vec_maxacc(d[1], fabs(cimag(v) - cimag(Y[ij])));
        d[2] = slpi_vec_maxacc(d[2], fabs(creal(w) - creal(Y[ji])));
        d[3] = slpi_vec_maxacc(d[3], fabs(cimag(w) - cimag(Y[ji])));
        y[0] = slpi_vec_maxacc(y[0], fabs(creal(v)));
        y[1] = slpi_vec_maxacc(y[1], fabs(cimag(v)));
    }
    m[0] = slpi_vec_maxacc(slpi_vec_maxacc(slpi_vec_maxacc(d[0], d[1]), d[2]), d[3]);
    m[1] = slpi_vec_maxacc(y[0], y[1]);
}

/* The fused map's work in three phases of units for the thread team (fast/team.c), each
 * unit one BLAS call on a block of a partition fixed by N, or one tile: G = Psi Y in gsplit
 * column blocks, H = G Psi / 4 in its nblk column blocks (largest first), the fused pass in
 * tiles t = tj (tj + 1) / 2 + ti (ti <= tj), whose maxima go to tmax[t]. */
typedef struct {
    const slpi_fast_sun *u;
    int N, gsplit, nblk;
    const cplx *Psi, *Xn, *Y;
    cplx *G, *H, *Ynew;
    double (*tmax)[2];
} sun_isomp_job;

static void sun_isomp_g(void *arg, int J)
{
    const sun_isomp_job *b = arg;
    int N = b->N, c0 = J * N / b->gsplit, c1 = (J + 1) * N / b->gsplit;
    sun_product(b->u, CblasNoTrans, N, c1 - c0, 1, b->Psi, b->Y + (size_t)c0 * N, b->G + (size_t)c0 * N);
}

/* H = G Psi / 4 on rows 0..c1-1 of column block [c0, c1): covers i <= j */
static void sun_isomp_h(void *arg, int u)
{
    const sun_isomp_job *b = arg;
    int N = b->N, J = b->nblk - 1 - u;
    int c0 = (int)((long)J * N / b->nblk), c1 = (int)((long)(J + 1) * N / b->nblk);
    sun_product(b->u, CblasNoTrans, c1, c1 - c0, 0.25, b->G, b->Psi + (size_t)c0 * N, b->H + (size_t)c0 * N);
}

static void sun_isomp_t(void *arg, int t)
{
    const sun_isomp_job *b = arg;
    int tj = 0;
    while ((tj + 1) * (tj + 2) / 2 <= t) tj++;
    int ti = t - tj * (tj + 1) / 2;
    sun_isomp_tile(b->N, ti * SUN_TILE, tj * SUN_TILE, b->G, b->H, b->Xn, b->Y, b->Ynew, b->tmax[t]);
}

/* Threads (docs/conventions.md#threads): from N = SLPI_FAST_TEAM_MIN_N each phase runs on
 * the thread team; the tiles' maxima are combined in tile order. The result is the same
 * for every thread count. */
double slpi_fast_sun_isomp(slpi_fast_sun *u, cplx *Ynew, double *ynorm, const cplx *Psi, const cplx *Xn, const cplx *Y)
{
    int N = u->N, nt = (N + SUN_TILE - 1) / SUN_TILE, ntiles = nt * (nt + 1) / 2;
    double tmax[ntiles][2];
    /* the column halves of G from N = SLPI_FAST_TEAM_MIN_N, for every thread count */
    sun_isomp_job b = { u, N, N >= SLPI_FAST_TEAM_MIN_N ? 2 : 1, u->nblk, Psi, Xn, Y, u->w[0], u->w[1], Ynew, tmax };
    slpi_fast_team_run(N, b.gsplit, sun_isomp_g, &b);
    slpi_fast_team_run(N, b.nblk, sun_isomp_h, &b);
    slpi_fast_team_run(N, ntiles, sun_isomp_t, &b);
    double dmax = 0, ymax = 0;
    for (int t = 0; t < ntiles; t++) {
        dmax = slpi_vec_maxacc(dmax, tmax[t][0]);
        ymax = slpi_vec_maxacc(ymax, tmax[t][1]);
    }
    *ynorm = ymax;
    return dmax;
}

/* The system table's operations (fast/system.h). ctx starts with an slpi_fast_sun. */
static slpi_fast_sun *sun_of(const slpi_fast_system *s)
{
    return (slpi_fast_sun *)s->data;
}

/* gen(k, mu) = pack(xi_k(X)) and dgen(k, mu, w) = pack(D xi_k[W]). */
static void sun_gen_packed(const slpi_fast_system *s, int k, const double *x, int derivative, double *out)
{
    slpi_fast_sun *u = sun_of(s);
    slpi_fast_sun_unpack(u->w[0], x, u->N);
    u->gen(u, k, u->w[0], derivative, u->w[1]);
    slpi_fast_sun_pack(out, u->w[1], u->N);
}

static void sun_gen(const slpi_fast_system *s, int k, double *xi, const double *mu)
{
    sun_gen_packed(s, k, mu, 0, xi);
}

static void sun_dgen(const slpi_fast_system *s, int k, double *out, const double *mu, const double *w)
{
    (void)mu; /* the generators are linear or constant in mu (see sun.h) */
    sun_gen_packed(s, k, w, 1, out);
}

/* sum_k delta_k xi_k = -Psi (B_k = xi_k^* = -xi_k). */
static void sun_gen_sum(const slpi_fast_system *s, double *xi, const double *delta, const double *mu)
{
    slpi_fast_sun *u = sun_of(s);
    size_t NN = (size_t)u->N * u->N;
    slpi_fast_sun_unpack(u->w[0], mu, u->N);
    u->m_gen_sum(u, delta, u->w[0], u->w[1]);
    for (size_t i = 0; i < NN; i++) u->w[1][i] = -u->w[1][i];
    slpi_fast_sun_pack(xi, u->w[1], u->N);
}

/* [A, B] of algebra coefficients: [A,B] = G - G^* with G = A B (A, B skew-Hermitian),
 * whose packed coefficients are 2 pack(G). */
static void sun_lie(const slpi_fast_system *s, double *out, const double *a, const double *b)
{
    slpi_fast_sun *u = sun_of(s);
    int N = u->N;
    slpi_fast_sun_unpack(u->w[0], a, N);
    slpi_fast_sun_unpack(u->w[1], b, N);
    sun_product(u, CblasNoTrans, N, N, 2.0, u->w[0], u->w[1], u->w[2]);
    slpi_fast_sun_pack(out, u->w[2], N);
}

/* ad*_xi X = [X, xi] (J-quadratic, Frobenius pairing; docs/conventions.md#brackets). */
static void sun_coad(const slpi_fast_system *s, double *out, const double *xi, const double *mu)
{
    sun_lie(s, out, mu, xi);
}

static int sun_orbit(const slpi_fast_system *s, double *out, const double *sigma, const double *mu)
{
    slpi_fast_sun *u = sun_of(s);
    int N = u->N;
    size_t NN = (size_t)N * N;
    cplx *S = u->w[0], *E = u->w[1], *T = u->w[2];
    /* sigma^* = -S for skew-Hermitian S: E = exp(-S), E^{-1} = E^* */
    slpi_fast_sun_unpack(S, sigma, N);
    for (size_t i = 0; i < NN; i++) S[i] = -S[i];
    int rc = slpi_fast_expm_skewh(N, S, E);
    if (rc) return rc;
    slpi_fast_sun_unpack(S, mu, N);
    sun_product(u, CblasNoTrans, N, N, 1.0, E, S, T);
    sun_product(u, CblasConjTrans, N, N, 1.0, T, E, S);
    slpi_fast_sun_pack(out, S, N);
    return slpi_fast_all_finite(out, (int)NN) ? 0 : SLPI_ENUMERIC;
}

static void sun_m_unpack(const slpi_fast_system *s, double *Y, const double *mu)
{
    slpi_fast_sun_unpack((cplx *)Y, mu, sun_of(s)->N);
}

static void sun_m_pack(const slpi_fast_system *s, double *mu, const double *Y)
{
    slpi_fast_sun_pack(mu, (const cplx *)Y, sun_of(s)->N);
}

static void sun_m_gen_sum(const slpi_fast_system *s, double *Psi, const double *delta, const double *Y)
{
    slpi_fast_sun *u = sun_of(s);
    u->m_gen_sum(u, delta, (const cplx *)Y, (cplx *)Psi);
}

static double sun_m_isomp_iter(const slpi_fast_system *s, double *Ynew, double *ynorm, double *Psi_out,
                               const double *delta, const double *Xn, const double *Y)
{
    slpi_fast_sun *u = sun_of(s);
    cplx *Psi = Psi_out ? (cplx *)Psi_out : u->w[2];
    u->m_gen_sum(u, delta, (const cplx *)Y, Psi);
    return slpi_fast_sun_isomp(u, (cplx *)Ynew, ynorm, Psi, (const cplx *)Xn, (const cplx *)Y);
}

/* COMM update from the last iteration's G = Psi Y, still in u->w[0] (no GEMM, P1). */
static void sun_m_isomp_comm_last(const slpi_fast_system *s, double *out, const double *Xn)
{
    slpi_fast_sun *u = sun_of(s);
    slpi_fast_zcomm_from_T(u->N, u->w[0], (const cplx *)Xn, (cplx *)out);
}

static void sun_m_comm_update(const slpi_fast_system *s, double *out, const double *Psi, const double *Y,
                              const double *Xn)
{
    slpi_fast_sun *u = sun_of(s);
    sun_product(u, CblasNoTrans, u->N, u->N, 1, (const cplx *)Psi, (const cplx *)Y, u->w[0]);
    slpi_fast_zcomm_from_T(u->N, u->w[0], (const cplx *)Xn, (cplx *)out);
}

static int sun_m_cay_conj(const slpi_fast_system *s, double *out, double a, const double *Psi, const double *X)
{
    return slpi_fast_zcayley(sun_of(s)->N, 0, a, (const cplx *)Psi, (const cplx *)X, (cplx *)out);
}

static int sun_m_ainv(const slpi_fast_system *s, double *out, double a, const double *Psi, const double *X)
{
    return slpi_fast_zcayley(sun_of(s)->N, 1, a, (const cplx *)Psi, (const cplx *)X, (cplx *)out);
}

static void sun_m_project(const slpi_fast_system *s, double *Yd)
{
    int N = sun_of(s)->N;
    cplx *Y = (cplx *)Yd, tr = 0;
    for (int a = 0; a < N; a++) tr += Y[a + (size_t)N * a];
    for (int a = 0; a < N; a++) Y[a + (size_t)N * a] -= tr / N;
}

void slpi_fast_sun_fill_ops(slpi_fast_system *s)
{
    s->mdim = 2 * sun_of(s)->N * sun_of(s)->N;
    s->gen = sun_gen;
    s->dgen = sun_dgen;
    s->gen_sum = sun_gen_sum;
    s->coad = sun_coad;
    s->lie = sun_lie;
    s->orbit = sun_orbit;
    s->m_unpack = sun_m_unpack;
    s->m_pack = sun_m_pack;
    s->m_gen_sum = sun_m_gen_sum;
    s->m_isomp_iter = sun_m_isomp_iter;
    s->m_isomp_comm_last = sun_m_isomp_comm_last;
    s->m_comm_update = sun_m_comm_update;
    s->m_cay_conj = sun_m_cay_conj;
    s->m_ainv = sun_m_ainv;
    s->m_project = sun_m_project;
}

int slpi_fast_sun_spectrum(double *lam, cplx tr[7], const cplx *X, int N)
{
    int rc = slpi_fast_eig_skewh(N, X, lam);
    for (int k = 0; k < 7; k++) tr[k] = 0;
    if (rc) return rc;
    for (int a = 0; a < N; a++) {
        cplx e = -I * lam[a], p = 1;
        for (int k = 0; k < 7; k++) {
            tr[k] += p;
            p *= e;
        }
    }
    return 0;
}

/* The spectrum of X (slpi_fast_sun_spectrum) through u's slots: a hit in either slot when X
 * has the bits of its matrix, else computed into slot `slot` (the initial state's is the
 * slot that does not hold the current state's, so neither overwrites the other). Returns the slot's index (its
 * rc says whether the eigenvalues are valid) or -1 when out of memory. */
static int sun_spectrum_cached(slpi_fast_sun *u, int slot, const cplx *X)
{
    const size_t nn = (size_t)u->N * u->N;
    for (int i = 0; i < 2; i++)
        if (u->spec[i].valid && !memcmp(u->spec[i].X, X, nn * sizeof *X)) return i;
    if (!u->spec[slot].X) u->spec[slot].X = malloc(nn * sizeof *X);
    if (!u->spec[slot].lam) u->spec[slot].lam = malloc((size_t)u->N * sizeof(double));
    if (!u->spec[slot].X || !u->spec[slot].lam) return -1;
    memcpy(u->spec[slot].X, X, nn * sizeof *X);
    u->spec[slot].rc = slpi_fast_sun_spectrum(u->spec[slot].lam, u->spec[slot].tr, X, u->N);
    u->spec[slot].valid = 1;
    return slot;
}

/* The invariants of X listed by shape (slpi_fast_sun_diagnostics), at most N + 4, into v,
 * with their names and their departures' names and kinds (rel: relative); their count.
 * w, tr: X's spectrum (slpi_fast_sun_spectrum), NULL if it failed. */
static int sun_invariants(int shape, int N, const cplx *X, const double *w, const cplx *tr, double *v,
                          const char **name, const char **dev, int *rel)
{
    static const char *const lam[12][2] = { { "lambda_1", "lambda_1_dev" },   { "lambda_2", "lambda_2_dev" },
                                            { "lambda_3", "lambda_3_dev" },   { "lambda_4", "lambda_4_dev" },
                                            { "lambda_5", "lambda_5_dev" },   { "lambda_6", "lambda_6_dev" },
                                            { "lambda_7", "lambda_7_dev" },   { "lambda_8", "lambda_8_dev" },
                                            { "lambda_9", "lambda_9_dev" },   { "lambda_10", "lambda_10_dev" },
                                            { "lambda_11", "lambda_11_dev" }, { "lambda_12", "lambda_12_dev" } };
    double fro = 0;
    cplx trace = 0;
    for (size_t i = 0; i < (size_t)N * N; i++) fro += creal(X[i] * conj(X[i]));
    for (int a = 0; a < N; a++) trace += X[a + (size_t)N * a];
    int ok = w != NULL, n = 0;
#define PUT(nm, dnm, val, r) (name[n] = (nm), dev[n] = (dnm), rel[n] = (r), v[n++] = (val))
    PUT("C2", "C2_rel_dev", -fro, 1);
    PUT("C3", "C3_rel_dev", ok ? cimag(tr[3]) : NAN, 1);
    if (shape == SLPI_SUN_DIAG_SU) PUT("TrX", "TrX_dev", cimag(trace), 0);
    if (N <= 12) {
        for (int a = 0; a < N; a++) PUT(lam[a][0], lam[a][1], ok ? w[a] : NAN, 0);
    } else if (shape == SLPI_SUN_DIAG_SU) {
        PUT("C4", "C4_dev", ok ? creal(tr[4]) : NAN, 0);
        if (N <= 16) {
            PUT("lambda_1", "lambda_1_dev", ok ? w[0] : NAN, 0);
            PUT("lambda_N", "lambda_N_dev", ok ? w[N - 1] : NAN, 0);
        } else {
            PUT("C5", "C5_dev", ok ? cimag(tr[5]) : NAN, 0);
            PUT("C6", "C6_dev", ok ? creal(tr[6]) : NAN, 0);
        }
    }
#undef PUT
    return n;
}

void slpi_fast_sun_diagnostics(slpi_fast_sun *u, slpi_diag *d, const cplx *X, const cplx *X0, int shape)
{
    int N = u->N, rel[16 + 4];
    const char *name[16 + 4], *dev[16 + 4];
    double v[16 + 4], v0[16 + 4];
    cplx trace = 0;
    int k = sun_spectrum_cached(u, 0, X), ok = k >= 0 && u->spec[k].rc == 0;
    const double *lam = ok ? u->spec[k].lam : NULL;
    const cplx *tr = ok ? u->spec[k].tr : NULL;
    int n = sun_invariants(shape, N, X, lam, tr, v, name, dev, rel), listed4 = 0;
    for (int i = 0; i < n; i++) {
        slpi_diag_add(d, name[i], v[i]);
        listed4 |= !strcmp(name[i], "C4");
    }
    for (int a = 0; a < N; a++) trace += X[a + (size_t)N * a];
    if (!listed4) slpi_diag_add(d, "C4", ok ? creal(tr[4]) : NAN);
    slpi_diag_add(d, "abs_trace", cabs(trace));
    if (X0) {
        int k0 = sun_spectrum_cached(u, k == 1 ? 0 : 1, X0), ok0 = k0 >= 0 && u->spec[k0].rc == 0;
        const double *lam0 = ok0 ? u->spec[k0].lam : NULL;
        sun_invariants(shape, N, X0, lam0, ok0 ? u->spec[k0].tr : NULL, v0, name, dev, rel);
        for (int i = 0; i < n; i++) slpi_diag_add(d, dev[i], rel[i] ? slpi_fast_rel_dev(v[i], v0[i]) : v[i] - v0[i]);
        double dep = 0;
        ok0 = ok && ok0;
        for (int a = 0; a < N && ok0; a++) dep = fmax(dep, fabs(lam[a] - lam0[a]));
        slpi_diag_add(d, "eig_dev", ok0 ? dep : NAN);
    }
}
