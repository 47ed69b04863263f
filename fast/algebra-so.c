/* fast/algebra-so.c — the algebra family so(n) of the double path (fast/algebra.h;
 * docs/conventions.md#algebras, docs/conventions.md#brackets): mu = X_ij for i < j
 * row-major in the basis E_ij - E_ji, coad(xi, X) = [X, xi], the orbit map
 * e^{-sigma} X e^{sigma}, the matrix form complex column-major n x n (fast/dense.h's
 * kernels), and the Casimirs Tr X^{2k} with the spectrum of iX. Shared by the Manakov
 * system (fast/manakov.c) and the models on so(n) (fast/model.c), as ref/algebra-so.c on
 * the certified path. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/diag.h"
#include "fast/algebra.h"
#include "fast/dense.h"
#include "fast/system.h"

static slpi_fast_so *so_of(const slpi_fast_system *s)
{
    return (slpi_fast_so *)s->data;
}

int slpi_fast_so_init(slpi_fast_so *a, int n, slpi_error *err)
{
    size_t nn = (size_t)n * n;
    a->n = n;
    a->d = n * (n - 1) / 2;
    a->A = malloc(sizeof *a->A * nn * 3);
    a->Z1 = malloc(sizeof *a->Z1 * nn * 3);
    a->w = malloc(sizeof *a->w * (size_t)n * 2);
    if (!a->A || !a->Z1 || !a->w) return slpi_error_set(err, SLPI_EINPUT, "so(%d): out of memory", n);
    a->B = a->A + nn;
    a->C = a->A + 2 * nn;
    a->Z2 = a->Z1 + nn;
    a->Z3 = a->Z1 + 2 * nn;
    return SLPI_OK;
}

void slpi_fast_so_clear(slpi_fast_so *a)
{
    free(a->A);
    free(a->Z1);
    free(a->w);
    a->A = NULL;
    a->Z1 = NULL;
    a->w = NULL;
}

/* Upper coordinates -> row-major full skew matrix. */
static void so_unpack(const slpi_fast_so *a, const double *u, double *A)
{
    int n = a->n, k = 0;
    for (int i = 0; i < n; i++) {
        A[i * n + i] = 0;
        for (int j = i + 1; j < n; j++, k++) {
            A[i * n + j] = u[k];
            A[j * n + i] = -u[k];
        }
    }
}

/* out = upper part of [a, b] for coordinate vectors a, b. */
static void so_commutator(slpi_fast_so *c, const double *a, const double *b, double *out)
{
    int n = c->n;
    so_unpack(c, a, c->A);
    so_unpack(c, b, c->B);
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++, k++) {
            double s = 0;
            for (int l = 0; l < n; l++) s += c->A[i * n + l] * c->B[l * n + j] - c->B[i * n + l] * c->A[l * n + j];
            out[k] = s;
        }
}

void slpi_fast_so_coad(const slpi_fast_system *s, double *out, const double *xi, const double *mu)
{
    so_commutator(so_of(s), mu, xi, out);
}

void slpi_fast_so_lie(const slpi_fast_system *s, double *out, const double *a, const double *b)
{
    so_commutator(so_of(s), a, b, out);
}

static void so_to_complex(const slpi_fast_so *c, const double *u, double complex *Z)
{
    int n = c->n, k = 0;
    for (int i = 0; i < n; i++) {
        Z[(size_t)i * n + i] = 0;
        for (int j = i + 1; j < n; j++, k++) {
            Z[(size_t)j * n + i] = u[k]; /* (i,j), column-major */
            Z[(size_t)i * n + j] = -u[k];
        }
    }
}

static void so_from_complex(const slpi_fast_so *c, const double complex *Z, double *u)
{
    int n = c->n, k = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++, k++) u[k] = creal(Z[(size_t)j * n + i]);
}

int slpi_fast_so_orbit(const slpi_fast_system *s, double *out, const double *sigma, const double *mu)
{
    slpi_fast_so *c = so_of(s);
    int n = c->n;
    /* O_exp = e^{-sigma} X e^{sigma}: E = exp(-sigma), out = E X E^T. */
    so_to_complex(c, sigma, c->Z1);
    for (int i = 0; i < n * n; i++) c->Z1[i] = -c->Z1[i];
    int rc = slpi_fast_expm_skewh(n, c->Z1, c->Z2);
    if (rc) return rc;
    for (int i = 0; i < n * n; i++) c->A[i] = creal(c->Z2[i]); /* column-major E */
    so_unpack(c, mu, c->B);
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
void slpi_fast_so_m_unpack(const slpi_fast_system *s, double *Y, const double *mu)
{
    so_to_complex(so_of(s), mu, (double complex *)Y);
}

void slpi_fast_so_m_pack(const slpi_fast_system *s, double *mu, const double *Y)
{
    so_from_complex(so_of(s), (const double complex *)Y, mu);
}

void slpi_fast_so_m_comm_update(const slpi_fast_system *s, double *out, const double *P, const double *Y,
                                const double *Xn)
{
    slpi_fast_so *c = so_of(s);
    slpi_fast_zcomm_update(c->n, (const double complex *)P, (const double complex *)Y, (const double complex *)Xn,
                           (double complex *)out, c->Z1);
}

int slpi_fast_so_m_cay_conj(const slpi_fast_system *s, double *out, double a, const double *P, const double *X)
{
    const slpi_fast_so *c = so_of(s);
    return slpi_fast_zcayley(c->n, 0, a, (const double complex *)P, (const double complex *)X, (double complex *)out);
}

int slpi_fast_so_m_ainv(const slpi_fast_system *s, double *out, double a, const double *P, const double *X)
{
    const slpi_fast_so *c = so_of(s);
    return slpi_fast_zcayley(c->n, 1, a, (const double complex *)P, (const double complex *)X, (double complex *)out);
}

void slpi_fast_so_fill_ops(slpi_fast_system *s)
{
    int n = so_of(s)->n;
    s->mdim = 2 * n * n;
    s->coad = slpi_fast_so_coad;
    s->lie = slpi_fast_so_lie;
    s->orbit = slpi_fast_so_orbit;
    s->m_unpack = slpi_fast_so_m_unpack;
    s->m_pack = slpi_fast_so_m_pack;
    s->m_comm_update = slpi_fast_so_m_comm_update;
    s->m_cay_conj = slpi_fast_so_m_cay_conj;
    s->m_ainv = slpi_fast_so_m_ainv;
}

/* ---- Casimirs */

/* Tr X^{2k}, k = 1..kmax, by repeated squaring of X^2 (row-major scratch). */
static void so_traces(slpi_fast_so *c, const double *x, double *tr, int kmax)
{
    int n = c->n;
    so_unpack(c, x, c->A);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double t = 0;
            for (int l = 0; l < n; l++) t += c->A[i * n + l] * c->A[l * n + j];
            c->B[i * n + j] = t; /* X^2 */
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

static const char *const tr_name[5][2] = { { "trX2", "trX2_rel_dev" },
                                           { "trX4", "trX4_rel_dev" },
                                           { "trX6", "trX6_rel_dev" },
                                           { "trX8", "trX8_rel_dev" },
                                           { "trX10", "trX10_rel_dev" } };
/* the largest min(n/2, 10) eigenvalues of iX, descending (the certified path's lambda_j) */
static const char *const lam[10][2] = { { "lambda_1", "lambda_1_dev" }, { "lambda_2", "lambda_2_dev" },
                                        { "lambda_3", "lambda_3_dev" }, { "lambda_4", "lambda_4_dev" },
                                        { "lambda_5", "lambda_5_dev" }, { "lambda_6", "lambda_6_dev" },
                                        { "lambda_7", "lambda_7_dev" }, { "lambda_8", "lambda_8_dev" },
                                        { "lambda_9", "lambda_9_dev" }, { "lambda_10", "lambda_10_dev" } };

void slpi_fast_so_casimirs(slpi_fast_so *c, slpi_diag *d, const double *x)
{
    int n = c->n, kmax = n / 2 < 5 ? n / 2 : 5, neig = n / 2 < 10 ? n / 2 : 10;
    double *w = c->w;
    so_traces(c, x, c->tr, kmax);
    for (int k = 0; k < kmax; k++) slpi_diag_add(d, tr_name[k][0], c->tr[k]);
    so_to_complex(c, x, c->Z1);
    c->bad = slpi_fast_eig_skewh(n, c->Z1, w);
    for (int j = 0; j < neig; j++) slpi_diag_add(d, lam[j][0], c->bad ? NAN : w[n - 1 - j]);
}

void slpi_fast_so_casimir_devs(slpi_fast_so *c, slpi_diag *d, const double *x0)
{
    int n = c->n, kmax = n / 2 < 5 ? n / 2 : 5, neig = n / 2 < 10 ? n / 2 : 10;
    double tr0[5], *w = c->w, *w0 = c->w + n, dev = 0;
    so_traces(c, x0, tr0, kmax);
    for (int k = 0; k < kmax; k++) slpi_diag_add(d, tr_name[k][1], slpi_fast_rel_dev(c->tr[k], tr0[k]));
    so_to_complex(c, x0, c->Z2);
    int bad = c->bad | slpi_fast_eig_skewh(n, c->Z2, w0);
    for (int j = 0; j < neig; j++) slpi_diag_add(d, lam[j][1], bad ? NAN : w[n - 1 - j] - w0[n - 1 - j]);
    if (bad)
        dev = NAN;
    else
        for (int i = 0; i < n; i++) dev = fmax(dev, fabs(w[i] - w0[i]));
    slpi_diag_add(d, "eig_dev", dev);
}
