/* point-vortices.c — n point vortices on S^2 as su(2)^n (docs/systems.md#point-vortices, ISO §6.3, eqs.
 * (38)-(39) with the fixes E-I5, E-I6): H_0 = -(1/4pi) sum_{i<j} log(1 - c_ij),
 * c_ij the cosine of x_i, x_j; shared noise H_k with Frobenius gradient amp x_ik E_k
 * (M = 3). Matrix models (A) E_k = -i sigma_k / sqrt2 (default) or (B) hat (docs/conventions.md#hat-maps).
 *
 * Coordinates (fast/system.h): mu = (x_1..x_n); gradient coefficients are the Frobenius
 * gradient in the block basis (E_k in (A), hat e_k in (B)), i.e. dH/dx_i in (A) and
 * dH/dx_i / 2 in (B). The algebra's operations, its matrix form and its Casimirs are
 * so(3)^k's (fast/algebra-so3k.c: coad(xi, mu)_i = kappa mu_i x xi_i, kappa = sqrt2 (A), 1 (B)). */
#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/diag.h"
#include "core/view-system.h"
#include "fast/algebra.h"
#include "fast/system.h"
#include "fast/so3.h"

typedef struct {
    slpi_fast_so3k so3k; /* the algebra's context: first member (fast/algebra.h) */
    int n;
    double amp;
    double gs;   /* Frobenius-gradient scale of dH/dx: 1 (A), 1/2 (B) */
    double *tmp; /* 3n scratch */
} pv_ctx;

/* g += s * dH_0/dx (all vortices). */
static void pv_grad0(const pv_ctx *c, const double *x, double s, double *g)
{
    double f = s / (4 * SLPI_FAST_PI);
    for (int i = 0; i < c->n; i++) {
        const double *xi = x + 3 * i;
        double a2 = slpi_fast_dot3(xi, xi), a = sqrt(a2);
        for (int j = 0; j < c->n; j++) {
            if (j == i) continue;
            const double *xj = x + 3 * j;
            double b = sqrt(slpi_fast_dot3(xj, xj));
            double cij = slpi_fast_dot3(xi, xj) / (a * b), w = f / (1 - cij);
            for (int k = 0; k < 3; k++) g[3 * i + k] += w * (xj[k] / (a * b) - cij * xi[k] / a2);
        }
    }
}

static void pv_gen(const slpi_fast_system *s, int k, double *g, const double *mu)
{
    const pv_ctx *c = s->data;
    for (int i = 0; i < 3 * c->n; i++) g[i] = 0;
    if (k == 0) {
        pv_grad0(c, mu, c->gs, g);
        return;
    }
    for (int i = 0; i < c->n; i++) g[3 * i + k - 1] = c->amp * mu[3 * i + k - 1];
}

static void pv_gen_sum(const slpi_fast_system *s, double *g, const double *delta, const double *mu)
{
    const pv_ctx *c = s->data;
    for (int i = 0; i < c->n; i++)
        for (int k = 0; k < 3; k++) g[3 * i + k] = s->M ? delta[k + 1] * c->amp * mu[3 * i + k] : 0;
    pv_grad0(c, mu, delta[0] * c->gs, g);
}

/* Directional derivative of the H_0 gradient (closed form of d(grad)[w]). */
static void pv_dgen(const slpi_fast_system *s, int k, double *out, const double *mu, const double *w)
{
    const pv_ctx *c = s->data;
    int n = c->n;
    for (int i = 0; i < 3 * n; i++) out[i] = 0;
    if (k > 0) {
        for (int i = 0; i < n; i++) out[3 * i + k - 1] = c->amp * w[3 * i + k - 1];
        return;
    }
    double f = c->gs / (4 * SLPI_FAST_PI);
    for (int i = 0; i < n; i++) {
        const double *xi = mu + 3 * i, *wi = w + 3 * i;
        double a2 = slpi_fast_dot3(xi, xi), a = sqrt(a2), ri = slpi_fast_dot3(xi, wi) / a2;
        for (int j = 0; j < n; j++) {
            if (j == i) continue;
            const double *xj = mu + 3 * j, *wj = w + 3 * j;
            double b2 = slpi_fast_dot3(xj, xj), b = sqrt(b2), rj = slpi_fast_dot3(xj, wj) / b2;
            double cij = slpi_fast_dot3(xi, xj) / (a * b);
            double dc = (slpi_fast_dot3(wi, xj) + slpi_fast_dot3(xi, wj)) / (a * b) - cij * (ri + rj);
            double q = 1 / (1 - cij);
            for (int m = 0; m < 3; m++) {
                double v = xj[m] / (a * b) - cij * xi[m] / a2;
                double dv = wj[m] / (a * b) - xj[m] / (a * b) * (ri + rj) - dc * xi[m] / a2 - cij * wi[m] / a2 +
                    2 * cij * xi[m] * ri / a2;
                out[3 * i + m] += f * (dc * q * q * v + q * dv);
            }
        }
    }
}

static void pv_m_gen_sum(const slpi_fast_system *s, double *Psi, const double *delta, const double *Y)
{
    pv_gen_sum(s, Psi, delta, Y);
    for (int i = 0; i < s->dim; i++) Psi[i] = -Psi[i];
}

static double pv_m_isomp_iter(const slpi_fast_system *s, double *Ynew, double *ynorm, double *Psi_out,
                              const double *delta, const double *Xn, const double *Y)
{
    const pv_ctx *c = s->data;
    double *P = Psi_out ? Psi_out : c->tmp;
    pv_m_gen_sum(s, P, delta, Y);
    return slpi_fast_blocks_isomp(c->so3k.model, c->n, P, Xn, Y, Ynew, ynorm);
}

static double pv_energy(const pv_ctx *c, const double *x)
{
    double e = 0;
    for (int i = 0; i < c->n; i++)
        for (int j = i + 1; j < c->n; j++) {
            const double *a = x + 3 * i, *b = x + 3 * j;
            double cij = slpi_fast_dot3(a, b) / sqrt(slpi_fast_dot3(a, a) * slpi_fast_dot3(b, b));
            e -= log(1 - cij);
        }
    return e / (4 * SLPI_FAST_PI);
}

static void pv_diagnostics(const slpi_fast_system *s, slpi_diag *d, const double *x, const double *x0)
{
    const pv_ctx *c = s->data;
    double H = pv_energy(c, x);
    slpi_diag_add(d, "H0", H);
    slpi_fast_so3k_casimirs(&c->so3k, d, x);
    if (!x0) return;
    slpi_diag_add(d, "H0_rel_dev", slpi_fast_rel_dev(H, pv_energy(c, x0)));
    slpi_fast_so3k_casimir_devs(&c->so3k, d, x, x0);
}

static void pv_clear(slpi_fast_system *s)
{
    pv_ctx *c = s->data;
    if (c) free(c->tmp);
    free(c);
    s->data = NULL;
}

int slpi_fast_sys_point_vortices(slpi_fast_system *s, const slpi_problem *p, slpi_error *err)
{
    const slpi_system_view *sys = slpi_view_system(p);
    int n = sys->pv.n;
    if (n < 2 || n > 1000) return slpi_error_set(err, SLPI_EINPUT, "point-vortices: n = %d must be in 2..1000", n);
    if (!isfinite(sys->pv.amp))
        return slpi_error_set(err, SLPI_EINPUT, "point-vortices: noise amplitude is not finite");
    pv_ctx *c = calloc(1, sizeof *c);
    if (!c) return slpi_error_set(err, SLPI_EINPUT, "point-vortices: out of memory");
    s->data = c;
    s->clear = pv_clear;
    c->n = n;
    slpi_fast_so3k_init(&c->so3k, n, sys->pv.model == SLPI_VORTEX_MODEL_A ? SLPI_FAST_BLOCK_SU2A : SLPI_FAST_BLOCK_HAT);
    c->amp = sys->pv.amp;
    c->gs = sys->pv.model == SLPI_VORTEX_MODEL_A ? 1 : 0.5;
    c->tmp = malloc(sizeof *c->tmp * 3 * (size_t)n);
    if (!c->tmp) return slpi_error_set(err, SLPI_EINPUT, "point-vortices: out of memory");
    s->name = "point-vortices";
    s->dim = s->state_dim = 3 * n;
    s->M = sys->pv.noise ? 3 : 0;
    slpi_fast_so3k_fill_ops(s);
    s->diagnostics = pv_diagnostics;
    s->gen = pv_gen;
    s->gen_sum = pv_gen_sum;
    s->dgen = pv_dgen;
    s->m_gen_sum = pv_m_gen_sum;
    s->m_isomp_iter = pv_m_isomp_iter;
    return SLPI_OK;
}
