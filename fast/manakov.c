/* manakov.c — the generalized rigid body on so(n) of ISO §6.2 (docs/systems.md#manakov, ISO eqs.
 * (36)-(37)): H_0 = sum_{i<j} X_ij^2 / c_ij, noise H_ij = amp X_ij^2 (M = n(n-1)/2).
 *
 * Coordinates (fast/system.h): mu = X_ij (i < j, row-major, core layout) in the basis
 * E_ij - E_ji; gradient coefficients g_ij with grad H = sum g_ij (E_ij - E_ji), so
 * g = X_ij / c_ij for H_0 and amp X_ij for H_ij; coad(xi, X) = [X, xi] (docs/conventions.md#brackets).
 * Matrix form: complex column-major n x n with zero imaginary parts (dense.c kernels). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/step.h"
#include "core/problem-struct.h"
#include "fast/system.h"
#include "fast/dense.h"

typedef struct {
    int n, d;
    double amp;
    int noise;
    double *cinv;               /* 1 / c_ij per coordinate */
    double *A, *B, *C;          /* real n x n scratch (row-major) */
    double complex *Z1, *Z2, *Z3;
    double *w0;                 /* eigen scratch */
} mk_ctx;

/* Upper coordinates -> row-major full skew matrix. */
static void mk_unpack(const mk_ctx *c, const double *u, double *A)
{
    int n = c->n, k = 0;
    for (int i = 0; i < n; i++) {
        A[i * n + i] = 0;
        for (int j = i + 1; j < n; j++, k++) {
            A[i * n + j] = u[k];
            A[j * n + i] = -u[k];
        }
    }
}

/* out = upper part of [a, b] for coordinate vectors a, b. */
static void mk_commutator(const mk_ctx *cc, const double *a, const double *b, double *out)
{
    mk_ctx *c = (mk_ctx *)cc;
    int n = c->n;
    mk_unpack(c, a, c->A);
    mk_unpack(c, b, c->B);
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++, k++) {
            double s = 0;
            for (int l = 0; l < n; l++)
                s += c->A[i * n + l] * c->B[l * n + j] - c->B[i * n + l] * c->A[l * n + j];
            out[k] = s;
        }
}

static void mk_gen(const slpi_fast_system *s, int k, double *g, const double *mu)
{
    const mk_ctx *c = s->data;
    if (k == 0) {
        for (int i = 0; i < c->d; i++) g[i] = mu[i] * c->cinv[i];
        return;
    }
    for (int i = 0; i < c->d; i++) g[i] = 0;
    g[k - 1] = c->amp * mu[k - 1];
}

static void mk_gen_sum(const slpi_fast_system *s, double *g, const double *delta,
                        const double *mu)
{
    const mk_ctx *c = s->data;
    for (int i = 0; i < c->d; i++)
        g[i] = delta[0] * mu[i] * c->cinv[i] + (s->M ? delta[i + 1] * c->amp * mu[i] : 0);
}

static void mk_dgen(const slpi_fast_system *s, int k, double *out, const double *mu,
                    const double *w)
{
    (void)mu;
    mk_gen(s, k, out, w);
}

static void mk_coad(const slpi_fast_system *s, double *out, const double *xi, const double *mu)
{
    mk_commutator(s->data, mu, xi, out);
}

static void mk_lie(const slpi_fast_system *s, double *out, const double *a, const double *b)
{
    mk_commutator(s->data, a, b, out);
}

static void mk_to_complex(const mk_ctx *c, const double *u, double complex *Z)
{
    int n = c->n, k = 0;
    for (int i = 0; i < n; i++) {
        Z[(size_t)i * n + i] = 0;
        for (int j = i + 1; j < n; j++, k++) {
            Z[(size_t)j * n + i] = u[k];     /* (i,j), column-major */
            Z[(size_t)i * n + j] = -u[k];
        }
    }
}

static void mk_from_complex(const mk_ctx *c, const double complex *Z, double *u)
{
    int n = c->n, k = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++, k++) u[k] = creal(Z[(size_t)j * n + i]);
}

static int mk_orbit(const slpi_fast_system *s, double *out, const double *sigma,
                        const double *mu)
{
    mk_ctx *c = s->data;
    int n = c->n;
    /* O_exp = e^{-sigma} X e^{sigma}: E = exp(-sigma), out = E X E^T. */
    mk_to_complex(c, sigma, c->Z1);
    for (int i = 0; i < n * n; i++) c->Z1[i] = -c->Z1[i];
    int rc = slpi_fast_expm_skewh(n, c->Z1, c->Z2);
    if (rc) return rc;
    for (int i = 0; i < n * n; i++) c->A[i] = creal(c->Z2[i]);   /* column-major E */
    mk_unpack(c, mu, c->B);
    /* C = E X (row-major indices: E(i,l) = A[l*n+i]) */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double t = 0;
            for (int l = 0; l < n; l++) t += c->A[l * n + i] * c->B[l * n + j];
            c->C[i * n + j] = t;
        }
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++, k++) {
            double t = 0;
            for (int l = 0; l < n; l++) t += c->C[i * n + l] * c->A[l * n + j];
            out[k] = t;
        }
    return 0;
}

/* ---- matrix form */
static void mk_m_unpack(const slpi_fast_system *s, double *Y, const double *mu)
{
    mk_to_complex(s->data, mu, (double complex *)Y);
}

static void mk_m_pack(const slpi_fast_system *s, double *mu, const double *Y)
{
    mk_from_complex(s->data, (const double complex *)Y, mu);
}

static void mk_m_gen_sum(const slpi_fast_system *s, double *Psi, const double *delta, const double *Y)
{
    mk_ctx *c = s->data;
    double *u = c->A, *g = c->B;
    mk_from_complex(c, (const double complex *)Y, u);
    mk_gen_sum(s, g, delta, u);
    for (int i = 0; i < c->d; i++) g[i] = -g[i];
    mk_to_complex(c, g, (double complex *)Psi);
}

static double mk_m_isomp_iter(const slpi_fast_system *s, double *Ynew, double *ynorm,
                       double *Psi_out, const double *delta, const double *Xn, const double *Y)
{
    mk_ctx *c = s->data;
    double complex *P = Psi_out ? (double complex *)Psi_out : c->Z3;
    mk_m_gen_sum(s, (double *)P, delta, Y);
    return slpi_fast_zisomp(c->n, P, (const double complex *)Xn, (const double complex *)Y,
                            (double complex *)Ynew, ynorm, c->Z1);
}

/* Xn + T - T^* with T = Psi Y left in Z1 by the last mk_m_isomp_iter. */
static void mk_m_isomp_comm_last(const slpi_fast_system *s, double *out, const double *Xn)
{
    const mk_ctx *c = s->data;
    slpi_fast_zcomm_from_T(c->n, c->Z1, (const double complex *)Xn, (double complex *)out);
}

static void mk_m_comm_update(const slpi_fast_system *s, double *out, const double *P,
                    const double *Y, const double *Xn)
{
    mk_ctx *c = s->data;
    slpi_fast_zcomm_update(c->n, (const double complex *)P, (const double complex *)Y,
                           (const double complex *)Xn, (double complex *)out, c->Z1);
}

static int mk_m_cay_conj(const slpi_fast_system *s, double *out, double a, const double *P,
                  const double *X)
{
    const mk_ctx *c = s->data;
    return slpi_fast_zcayley(c->n, 0, a, (const double complex *)P, (const double complex *)X,
                             (double complex *)out);
}

static int mk_m_ainv(const slpi_fast_system *s, double *out, double a, const double *P,
                   const double *X)
{
    const mk_ctx *c = s->data;
    return slpi_fast_zcayley(c->n, 1, a, (const double complex *)P, (const double complex *)X,
                             (double complex *)out);
}

static double mk_energy(const mk_ctx *c, const double *x)
{
    double e = 0;
    for (int i = 0; i < c->d; i++) e += x[i] * x[i] * c->cinv[i];
    return e;
}

/* Tr X^{2k}, k = 1..kmax, by repeated squaring of X^2 (row-major scratch). */
static void mk_traces(mk_ctx *c, const double *x, double *tr, int kmax)
{
    int n = c->n;
    mk_unpack(c, x, c->A);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double t = 0;
            for (int l = 0; l < n; l++) t += c->A[i * n + l] * c->A[l * n + j];
            c->B[i * n + j] = t;          /* X^2 */
        }
    memcpy(c->C, c->B, sizeof *c->C * (size_t)n * n);
    for (int k = 1; k <= kmax; k++) {
        double t = 0;
        for (int i = 0; i < n; i++) t += c->C[i * n + i];
        tr[k - 1] = t;
        if (k == kmax) break;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double v = 0;
                for (int l = 0; l < n; l++) v += c->C[i * n + l] * c->B[l * n + j];
                c->A[i * n + j] = v;
            }
        memcpy(c->C, c->A, sizeof *c->C * (size_t)n * n);
    }
}

static void mk_diagnostics(const slpi_fast_system *s, slpi_diag *d, const double *x, const double *x0)
{
    static const char *tr_name[5] = {"trX2", "trX4", "trX6", "trX8", "trX10"};
    static const char *tr_dev[5] = {"trX2_rel_dev", "trX4_rel_dev", "trX6_rel_dev",
                                    "trX8_rel_dev", "trX10_rel_dev"};
    mk_ctx *c = s->data;
    int n = c->n, kmax = n / 2 < 5 ? n / 2 : 5;
    double tr[5], tr0[5];
    double H = mk_energy(c, x);
    slpi_diag_add(d, "H0", H);
    mk_traces(c, x, tr, kmax);
    for (int k = 0; k < kmax; k++) slpi_diag_add(d, tr_name[k], tr[k]);
    /* the largest min(n/2, 10) eigenvalues of iX, descending (the certified path's lambda_j) */
    static const char *lam[10][2] = { { "lambda_1", "lambda_1_dev" }, { "lambda_2", "lambda_2_dev" },
        { "lambda_3", "lambda_3_dev" }, { "lambda_4", "lambda_4_dev" }, { "lambda_5", "lambda_5_dev" },
        { "lambda_6", "lambda_6_dev" }, { "lambda_7", "lambda_7_dev" }, { "lambda_8", "lambda_8_dev" },
        { "lambda_9", "lambda_9_dev" }, { "lambda_10", "lambda_10_dev" } };
    int neig = n / 2 < 10 ? n / 2 : 10;
    double *w = c->w0, *w0 = c->w0 + n, dev = 0;
    mk_to_complex(c, x, c->Z1);
    int bad = slpi_fast_eig_skewh(n, c->Z1, w);
    for (int j = 0; j < neig; j++) slpi_diag_add(d, lam[j][0], bad ? NAN : w[n - 1 - j]);
    if (!x0) return;
    slpi_diag_add(d, "H0_rel_dev", slpi_fast_rel_dev(H, mk_energy(c, x0)));
    mk_traces(c, x0, tr0, kmax);
    for (int k = 0; k < kmax; k++) slpi_diag_add(d, tr_dev[k], slpi_fast_rel_dev(tr[k], tr0[k]));
    mk_to_complex(c, x0, c->Z2);
    bad |= slpi_fast_eig_skewh(n, c->Z2, w0);
    for (int j = 0; j < neig; j++) slpi_diag_add(d, lam[j][1], bad ? NAN : w[n - 1 - j] - w0[n - 1 - j]);
    if (bad) dev = NAN;
    else
        for (int i = 0; i < n; i++) dev = fmax(dev, fabs(w[i] - w0[i]));
    slpi_diag_add(d, "eig_dev", dev);
}

static void mk_clear(slpi_fast_system *s)
{
    mk_ctx *c = s->data;
    if (c) {
        free(c->cinv);
        free(c->A);
        free(c->Z1);
        free(c->w0);
        free(c);
    }
    s->data = NULL;
}

int slpi_fast_sys_manakov(slpi_fast_system *s, const slpi_problem *p, slpi_error *err)
{
    int n = p->mk.n;
    if (n < 3 || n > 64)
        return slpi_error_set(err, SLPI_EINPUT, "manakov: n = %d must be in 3..64", n);
    if (!isfinite(p->mk.amp))
        return slpi_error_set(err, SLPI_EINPUT, "manakov: noise amplitude is not finite");
    mk_ctx *c = calloc(1, sizeof *c);
    if (!c) return slpi_error_set(err, SLPI_EINPUT, "manakov: out of memory");
    s->data = c;
    s->clear = mk_clear;
    c->n = n;
    c->d = n * (n - 1) / 2;
    c->amp = p->mk.amp;
    c->noise = p->mk.noise;
    size_t nn = (size_t)n * n;
    c->cinv = malloc(sizeof *c->cinv * (size_t)c->d);
    c->A = malloc(sizeof *c->A * nn * 3);
    c->Z1 = malloc(sizeof *c->Z1 * nn * 3);
    c->w0 = malloc(sizeof *c->w0 * (size_t)n * 2);
    if (!c->cinv || !c->A || !c->Z1 || !c->w0)
        return slpi_error_set(err, SLPI_EINPUT, "manakov: out of memory");
    c->B = c->A + nn;
    c->C = c->A + 2 * nn;
    c->Z2 = c->Z1 + nn;
    c->Z3 = c->Z1 + 2 * nn;
    for (int i = 0; i < c->d; i++) c->cinv[i] = 1.0 / (i + 1);   /* c_ij = row-major index */
    s->name = "manakov";
    s->dim = s->state_dim = c->d;
    s->M = c->noise ? c->d : 0;
    s->mdim = (int)(2 * nn);
    s->diagnostics = mk_diagnostics;
    s->gen = mk_gen;
    s->gen_sum = mk_gen_sum;
    s->dgen = mk_dgen;
    s->coad = mk_coad;
    s->lie = mk_lie;
    s->orbit = mk_orbit;
    s->m_unpack = mk_m_unpack;
    s->m_pack = mk_m_pack;
    s->m_gen_sum = mk_m_gen_sum;
    s->m_isomp_iter = mk_m_isomp_iter;
    s->m_comm_update = mk_m_comm_update;
    s->m_isomp_comm_last = mk_m_isomp_comm_last;
    s->m_cay_conj = mk_m_cay_conj;
    s->m_ainv = mk_m_ainv;
    return SLPI_OK;
}
