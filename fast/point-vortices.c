/* point-vortices.c — n point vortices on S^2 as su(2)^n (docs/systems.md#point-vortices, ISO §6.3, eqs.
 * (38)-(39) with the fixes E-I5, E-I6): H_0 = -(1/4pi) sum_{i<j} log(1 - c_ij),
 * c_ij the cosine of x_i, x_j; shared noise H_k with Frobenius gradient amp x_ik E_k
 * (M = 3). Matrix models (A) E_k = -i sigma_k / sqrt2 (default) or (B) hat (docs/conventions.md#hat-maps).
 *
 * Coordinates (fast/system.h): mu = (x_1..x_n); gradient coefficients are the Frobenius
 * gradient in the block basis (E_k in (A), hat e_k in (B)), i.e. dH/dx_i in (A) and
 * dH/dx_i / 2 in (B); coad(xi, mu)_i = kappa mu_i x xi_i with kappa = sqrt2 (A), 1 (B). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/step.h"
#include "core/problem-struct.h"
#include "fast/system.h"
#include "fast/so3.h"

typedef struct {
    int n;
    slpi_vortex_model model;
    double amp;
    double kappa;     /* bracket factor */
    double gs;        /* Frobenius-gradient scale of dH/dx: 1 (A), 1/2 (B) */
    double *tmp;      /* 3n scratch */
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

static void pv_gen_sum(const slpi_fast_system *s, double *g, const double *delta,
                        const double *mu)
{
    const pv_ctx *c = s->data;
    for (int i = 0; i < c->n; i++)
        for (int k = 0; k < 3; k++)
            g[3 * i + k] = s->M ? delta[k + 1] * c->amp * mu[3 * i + k] : 0;
    pv_grad0(c, mu, delta[0] * c->gs, g);
}

/* Directional derivative of the H_0 gradient (closed form of d(grad)[w]). */
static void pv_dgen(const slpi_fast_system *s, int k, double *out, const double *mu,
                    const double *w)
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
                double dv = wj[m] / (a * b) - xj[m] / (a * b) * (ri + rj)
                            - dc * xi[m] / a2 - cij * wi[m] / a2 + 2 * cij * xi[m] * ri / a2;
                out[3 * i + m] += f * (dc * q * q * v + q * dv);
            }
        }
    }
}

static void pv_coad(const slpi_fast_system *s, double *out, const double *xi, const double *mu)
{
    const pv_ctx *c = s->data;
    for (int i = 0; i < c->n; i++) {
        slpi_fast_cross(out + 3 * i, mu + 3 * i, xi + 3 * i);
        for (int k = 0; k < 3; k++) out[3 * i + k] *= c->kappa;
    }
}

static void pv_lie(const slpi_fast_system *s, double *out, const double *a, const double *b)
{
    pv_coad(s, out, b, a);
}

static int pv_orbit(const slpi_fast_system *s, double *out, const double *sigma,
                        const double *mu)
{
    const pv_ctx *c = s->data;
    for (int i = 0; i < c->n; i++) {
        double w[3], R[9];
        for (int k = 0; k < 3; k++) w[k] = c->kappa * sigma[3 * i + k];
        slpi_fast_rodrigues(R, w);
        slpi_fast_mat3t_vec(out + 3 * i, R, mu + 3 * i);
    }
    return 0;
}

static slpi_fast_block_model pv_model(const pv_ctx *c)
{
    return c->model == SLPI_VORTEX_MODEL_A ? SLPI_FAST_BLOCK_SU2A : SLPI_FAST_BLOCK_HAT;
}

/* Matrix form: the 3-vector blocks themselves. */
static void pv_m_unpack(const slpi_fast_system *s, double *Y, const double *mu)
{
    memcpy(Y, mu, sizeof *mu * (size_t)s->dim);
}

static void pv_m_pack(const slpi_fast_system *s, double *mu, const double *Y)
{
    memcpy(mu, Y, sizeof *Y * (size_t)s->dim);
}

static void pv_m_gen_sum(const slpi_fast_system *s, double *Psi, const double *delta, const double *Y)
{
    pv_gen_sum(s, Psi, delta, Y);
    for (int i = 0; i < s->dim; i++) Psi[i] = -Psi[i];
}

static double pv_m_isomp_iter(const slpi_fast_system *s, double *Ynew, double *ynorm,
                       double *Psi_out, const double *delta, const double *Xn, const double *Y)
{
    const pv_ctx *c = s->data;
    double *P = Psi_out ? Psi_out : c->tmp;
    pv_m_gen_sum(s, P, delta, Y);
    return slpi_fast_blocks_isomp(pv_model(c), c->n, P, Xn, Y, Ynew, ynorm);
}

static void pv_m_comm_update(const slpi_fast_system *s, double *out, const double *P,
                    const double *Y, const double *Xn)
{
    const pv_ctx *c = s->data;
    slpi_fast_blocks_comm(pv_model(c), c->n, P, Y, Xn, out);
}

static int pv_m_cay_conj(const slpi_fast_system *s, double *out, double a, const double *P,
                  const double *X)
{
    const pv_ctx *c = s->data;
    slpi_fast_blocks_cay(pv_model(c), c->n, a, P, X, out);
    return 0;
}

static int pv_m_ainv(const slpi_fast_system *s, double *out, double a, const double *P,
                   const double *X)
{
    const pv_ctx *c = s->data;
    slpi_fast_blocks_ainv(pv_model(c), c->n, a, P, X, out);
    return 0;
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
    /* the Casimirs |x_i|^2 of the first min(n, 8) vortices (the certified path's) */
    static const char *cas[8][2] = { { "casimir_norm2_1", "casimir_norm2_1_dev" },
        { "casimir_norm2_2", "casimir_norm2_2_dev" }, { "casimir_norm2_3", "casimir_norm2_3_dev" },
        { "casimir_norm2_4", "casimir_norm2_4_dev" }, { "casimir_norm2_5", "casimir_norm2_5_dev" },
        { "casimir_norm2_6", "casimir_norm2_6_dev" }, { "casimir_norm2_7", "casimir_norm2_7_dev" },
        { "casimir_norm2_8", "casimir_norm2_8_dev" } };
    int nc = c->n < 8 ? c->n : 8;
    slpi_diag_add(d, "H0", H);
    for (int i = 0; i < nc; i++) slpi_diag_add(d, cas[i][0], slpi_fast_dot3(x + 3 * i, x + 3 * i));
    if (!x0) return;
    slpi_diag_add(d, "H0_rel_dev", slpi_fast_rel_dev(H, pv_energy(c, x0)));
    for (int i = 0; i < nc; i++)
        slpi_diag_add(d, cas[i][1], slpi_fast_dot3(x + 3 * i, x + 3 * i) - slpi_fast_dot3(x0 + 3 * i, x0 + 3 * i));
    /* block eigenvalues of iX: +-|x_i|/sqrt2 (A), {0, +-|x_i|} (B) */
    double ef = c->model == SLPI_VORTEX_MODEL_A ? 1 / SLPI_FAST_SQRT2 : 1, dev = 0;
    for (int i = 0; i < c->n; i++) {
        double a = sqrt(slpi_fast_dot3(x + 3 * i, x + 3 * i));
        double a0 = sqrt(slpi_fast_dot3(x0 + 3 * i, x0 + 3 * i));
        dev = fmax(dev, ef * fabs(a - a0));
    }
    slpi_diag_add(d, "eig_dev", dev);
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
    int n = p->pv.n;
    if (n < 2 || n > 1000)
        return slpi_error_set(err, SLPI_EINPUT, "point-vortices: n = %d must be in 2..1000", n);
    if (!isfinite(p->pv.amp))
        return slpi_error_set(err, SLPI_EINPUT, "point-vortices: noise amplitude is not finite");
    pv_ctx *c = calloc(1, sizeof *c);
    if (!c) return slpi_error_set(err, SLPI_EINPUT, "point-vortices: out of memory");
    s->data = c;
    s->clear = pv_clear;
    c->n = n;
    c->model = p->pv.model;
    c->amp = p->pv.amp;
    c->kappa = c->model == SLPI_VORTEX_MODEL_A ? SLPI_FAST_SQRT2 : 1;
    c->gs = c->model == SLPI_VORTEX_MODEL_A ? 1 : 0.5;
    c->tmp = malloc(sizeof *c->tmp * 3 * (size_t)n);
    if (!c->tmp) return slpi_error_set(err, SLPI_EINPUT, "point-vortices: out of memory");
    s->name = "point-vortices";
    s->dim = s->state_dim = s->mdim = 3 * n;
    s->M = p->pv.noise ? 3 : 0;
    s->diagnostics = pv_diagnostics;
    s->gen = pv_gen;
    s->gen_sum = pv_gen_sum;
    s->dgen = pv_dgen;
    s->coad = pv_coad;
    s->lie = pv_lie;
    s->orbit = pv_orbit;
    s->m_unpack = pv_m_unpack;
    s->m_pack = pv_m_pack;
    s->m_gen_sum = pv_m_gen_sum;
    s->m_isomp_iter = pv_m_isomp_iter;
    s->m_comm_update = pv_m_comm_update;
    s->m_cay_conj = pv_m_cay_conj;
    s->m_ainv = pv_m_ainv;
    return SLPI_OK;
}
