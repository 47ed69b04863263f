/* manakov.c — the generalized rigid body on so(n) of ISO §6.2 (docs/systems.md#manakov, ISO eqs.
 * (36)-(37)): H_0 = sum_{i<j} X_ij^2 / c_ij, noise H_ij = amp X_ij^2 (M = n(n-1)/2).
 *
 * Coordinates (fast/system.h): mu = X_ij (i < j, row-major, core layout) in the basis
 * E_ij - E_ji; gradient coefficients g_ij with grad H = sum g_ij (E_ij - E_ji), so
 * g = X_ij / c_ij for H_0 and amp X_ij for H_ij. The algebra's operations, its matrix form
 * (complex column-major n x n) and its Casimirs are so(n)'s (fast/algebra-so.c). */
#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/diag.h"
#include "core/view-system.h"
#include "fast/algebra.h"
#include "fast/system.h"
#include "fast/dense.h"

typedef struct {
    slpi_fast_so so; /* the algebra's context: first member (fast/algebra.h) */
    int n, d;
    double amp;
    int noise;
    double *cinv; /* 1 / c_ij per coordinate */
} mk_ctx;

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

static void mk_gen_sum(const slpi_fast_system *s, double *g, const double *delta, const double *mu)
{
    const mk_ctx *c = s->data;
    for (int i = 0; i < c->d; i++) g[i] = delta[0] * mu[i] * c->cinv[i] + (s->M ? delta[i + 1] * c->amp * mu[i] : 0);
}

static void mk_dgen(const slpi_fast_system *s, int k, double *out, const double *mu, const double *w)
{
    (void)mu;
    mk_gen(s, k, out, w);
}

/* ---- matrix form */
static void mk_m_gen_sum(const slpi_fast_system *s, double *Psi, const double *delta, const double *Y)
{
    mk_ctx *c = s->data;
    double *u = c->so.A, *g = c->so.B;
    slpi_fast_so_m_pack(s, u, Y);
    mk_gen_sum(s, g, delta, u);
    for (int i = 0; i < c->d; i++) g[i] = -g[i];
    slpi_fast_so_m_unpack(s, Psi, g);
}

static double mk_m_isomp_iter(const slpi_fast_system *s, double *Ynew, double *ynorm, double *Psi_out,
                              const double *delta, const double *Xn, const double *Y)
{
    mk_ctx *c = s->data;
    double complex *P = Psi_out ? (double complex *)Psi_out : c->so.Z3;
    mk_m_gen_sum(s, (double *)P, delta, Y);
    return slpi_fast_zisomp(c->n, P, (const double complex *)Xn, (const double complex *)Y, (double complex *)Ynew,
                            ynorm, c->so.Z1);
}

/* Xn + T - T^* with T = Psi Y left in Z1 by the last mk_m_isomp_iter. */
static void mk_m_isomp_comm_last(const slpi_fast_system *s, double *out, const double *Xn)
{
    const mk_ctx *c = s->data;
    slpi_fast_zcomm_from_T(c->n, c->so.Z1, (const double complex *)Xn, (double complex *)out);
}

static double mk_energy(const mk_ctx *c, const double *x)
{
    double e = 0;
    for (int i = 0; i < c->d; i++) e += x[i] * x[i] * c->cinv[i];
    return e;
}

static void mk_diagnostics(const slpi_fast_system *s, slpi_diag *d, const double *x, const double *x0)
{
    mk_ctx *c = s->data;
    double H = mk_energy(c, x);
    slpi_diag_add(d, "H0", H);
    slpi_fast_so_casimirs(&c->so, d, x);
    if (!x0) return;
    slpi_diag_add(d, "H0_rel_dev", slpi_fast_rel_dev(H, mk_energy(c, x0)));
    slpi_fast_so_casimir_devs(&c->so, d, x0);
}

static void mk_clear(slpi_fast_system *s)
{
    mk_ctx *c = s->data;
    if (c) {
        slpi_fast_so_clear(&c->so);
        free(c->cinv);
        free(c);
    }
    s->data = NULL;
}

int slpi_fast_sys_manakov(slpi_fast_system *s, const slpi_problem *p, slpi_error *err)
{
    const slpi_system_view *sys = slpi_view_system(p);
    int n = sys->mk.n;
    if (n < 3 || n > 64) return slpi_error_set(err, SLPI_EINPUT, "manakov: n = %d must be in 3..64", n);
    if (!isfinite(sys->mk.amp)) return slpi_error_set(err, SLPI_EINPUT, "manakov: noise amplitude is not finite");
    mk_ctx *c = calloc(1, sizeof *c);
    if (!c) return slpi_error_set(err, SLPI_EINPUT, "manakov: out of memory");
    s->data = c;
    s->clear = mk_clear;
    c->n = n;
    c->d = n * (n - 1) / 2;
    c->amp = sys->mk.amp;
    c->noise = sys->mk.noise;
    int rc = slpi_fast_so_init(&c->so, n, err);
    if (rc != SLPI_OK) return rc;
    c->cinv = malloc(sizeof *c->cinv * (size_t)c->d);
    if (!c->cinv) return slpi_error_set(err, SLPI_EINPUT, "manakov: out of memory");
    for (int i = 0; i < c->d; i++) c->cinv[i] = 1.0 / (i + 1); /* c_ij = row-major index */
    s->name = "manakov";
    s->dim = s->state_dim = c->d;
    s->M = c->noise ? c->d : 0;
    slpi_fast_so_fill_ops(s);
    s->diagnostics = mk_diagnostics;
    s->gen = mk_gen;
    s->gen_sum = mk_gen_sum;
    s->dgen = mk_dgen;
    s->m_gen_sum = mk_m_gen_sum;
    s->m_isomp_iter = mk_m_isomp_iter;
    s->m_isomp_comm_last = mk_m_isomp_comm_last;
    return SLPI_OK;
}
