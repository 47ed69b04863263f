/* svi.c — SVI, the stochastic Lie-group variational midpoint with Cayley retraction
 * (docs/schemes.md#svi; SVI eqs. (28), (41), (46)-(50), (54)-(64)), in three forms:
 *  - SO3 (rigid body, vector form, sign switch c = +1/4 true Cayley or -1/4 as printed):
 *    x = Delta t xi = (1/2) sum_k delta_k grad_k((A+B)/2), tau = tau(x),
 *    A = A_c(x)^{-1} Pi_k, B = A_c(x)^{-1} tau^T Pi_k (equivalent to (62)/(64));
 *  - SD (heavy top, semidirect): as SO3 with Gamma~ = tau^T Gamma_k, f = (sum_k delta_k
 *    d_Gamma h_k) x Gamma~ and B = A_c(x)^{-1}(tau^T Pi_k - f), Gamma~ the previous
 *    sweep's in f (docs/schemes.md#designated-root's map; the diagnosis's plain sweeps take
 *    this sweep's, in the docs' written order);
 *    outputs Pi_{k+1} = tau^T(tau^T Pi_k - f) (rotation form) or A_c(-x) B (node form),
 *    Gamma_{k+1} = tau^T Gamma~, R_{k+1} = R_k tau^2;
 *  - LP (general compact quadratic group, c = +1/4): reduced fixed point in
 *    M = (mu~1 + mu~2)/2 with Psi = Psi(M) (x = -Psi/2), mu~1 = A^{-1} mu_k,
 *    mu~2 = A^{-1}(tau^{-1} mu_k tau), output mu_{k+1} = tau^{-2} mu_k tau^2.
 * A_c(x)^{-1} is slpi_fast_ac_inv (so3.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "slpi/step.h"
#include "core/view-scheme.h"
#include "core/check.h"
#include "fast/fast.h"
#include "fast/solver.h"
#include "fast/vector-field.h"

enum { FORM_SO3, FORM_SD, FORM_LP };

typedef struct {
    int form, node;
    double c;
    double *g, *tmp, *mu;              /* vector forms: dim scratch */
    double *Xk, *M, *Mn, *P, *t1, *nu; /* LP: mdim each */
} svi_work;

/* The form (slpi_registry_svi_form), svi_c and the output were checked by core's
 * validator, which lets the lp form run only on systems with a matrix form (every one
 * but the heavy top): that this system has its operations is an invariant. */
static int svi_check(const slpi_fast_system *s, const slpi_problem *p, slpi_error *err)
{
    if (SLPI_NEVER(slpi_registry_svi_form(p) == SLPI_SVI_FORM_LP && (!s->m_gen_sum || !s->m_ainv || !s->m_cay_conj)))
        return slpi_error_set(err, SLPI_EINPUT,
                              "svi: the lp form needs the matrix operations of a "
                              "compact quadratic group, which %s lacks (docs/systems.md#applicability)",
                              s->name);
    return SLPI_OK;
}

static int svi_init(slpi_fast *f, slpi_error *err)
{
    const slpi_fast_system *s = &f->sys;
    const slpi_problem *p = f->p;
    slpi_svi_form sf = slpi_registry_svi_form(p);
    int form = sf == SLPI_SVI_FORM_SO3 ? FORM_SO3 : sf == SLPI_SVI_FORM_SD ? FORM_SD : FORM_LP;
    double c = slpi_view_scheme(p)->svi_c;
    size_t m = form == FORM_LP ? (size_t)s->mdim : (size_t)s->dim;
    double *buf = slpi_fast_work_new(f, sizeof(svi_work), 6 * m + 3 * (size_t)s->dim, err);
    if (!buf) return err->code;
    svi_work *w = f->work;
    w->form = form;
    w->c = c;
    w->node = slpi_view_scheme(p)->svi_output == SLPI_SVI_OUT_NODE;
    w->g = buf;
    w->tmp = buf + s->dim;
    w->mu = buf + 2 * s->dim;
    double *b = buf + 3 * s->dim;
    w->Xk = b;
    w->M = b + m;
    w->Mn = b + 2 * m;
    w->P = b + 3 * m;
    w->t1 = b + 4 * m;
    w->nu = b + 5 * m;
    return SLPI_OK;
}

/* Vector forms: x, tau and f from the unknowns A, B (w->mu holds (M, Gamma~)); the
 * semidirect form then advances Gamma~ = tau^T Gamma_k for the next evaluation. */
typedef struct {
    const slpi_fast *f;
    svi_work *w;
    const double *Gk, *delta;
    int plain; /* SD: f from this sweep's Gamma~ (the diagnosis's plain sweeps) */
} svi_vec_ctx;

static void svi_vec_map(void *ctx, const double *A, const double *B, double *x, double *tau, double *ft)
{
    svi_vec_ctx *c = ctx;
    svi_work *w = c->w;
    for (int i = 0; i < 3; i++) w->mu[i] = 0.5 * (A[i] + B[i]);
    slpi_fast_gen_sum(&c->f->sys, w->g, w->tmp, c->delta, w->mu);
    for (int i = 0; i < 3; i++) x[i] = 0.5 * w->g[i];
    slpi_fast_cayley3(tau, x);
    ft[0] = ft[1] = ft[2] = 0;
    if (w->form == FORM_SD) {
        /* f = u x Gamma~ with the previous sweep's Gamma~, then Gamma~ = tau^T Gamma_k; in
         * plain sweeps the other way round (u = d_Gamma h reads no Gamma~: the heavy top's
         * Hamiltonians are linear in Gamma) */
        if (c->plain) slpi_fast_mat3t_vec(w->mu + 3, tau, c->Gk);
        slpi_fast_cross(ft, w->g + 3, w->mu + 3);
        if (!c->plain) slpi_fast_mat3t_vec(w->mu + 3, tau, c->Gk);
    }
}

/* One sweep of the paper's fixed point (64) as docs/schemes.md#svi-so3 writes it, x = Delta t xi:
 *   An = Pi_k - 1/2 cross(x, A) - c (x.A) x,  Bn = Pi_k - cross(x, An) - 1/2 cross(x, B) - c (x.B) x. */
static void svi3_plain(double *An, double *Bn, double c, const double *x, const double *Pk, const double *A,
                       const double *B)
{
    double xa[3], xb[3];
    slpi_fast_cross(xa, x, A);
    double da = slpi_fast_dot3(x, A), db = slpi_fast_dot3(x, B);
    for (int i = 0; i < 3; i++) An[i] = Pk[i] - 0.5 * xa[i] - c * da * x[i];
    slpi_fast_cross(xa, x, An);
    slpi_fast_cross(xb, x, B);
    for (int i = 0; i < 3; i++) Bn[i] = Pk[i] - xa[i] - 0.5 * xb[i] - c * db * x[i];
}

int slpi_fast_svi3_solve(double c, int sweeps, const slpi_fast_policy *pol, slpi_fast_svi3_map map, void *ctx,
                         const double *Pk, double *A, double *B, double *x, double *tau, double *ft, int *iters,
                         double *resid)
{
    double An[3], Bn[3], v[3];
    memcpy(A, Pk, 3 * sizeof *A);
    memcpy(B, Pk, 3 * sizeof *B);
    slpi_fast_iter it;
    slpi_fast_iter_begin(&it, pol);
    int st = SLPI_STEP_CAPPED;
    while (sweeps != SLPI_FAST_SVI_NONE) {
        map(ctx, A, B, x, tau, ft);
        if (sweeps == SLPI_FAST_SVI_PAPER) {
            svi3_plain(An, Bn, c, x, Pk, A, B);
        } else {
            slpi_fast_mat3t_vec(v, tau, Pk);
            for (int i = 0; i < 3; i++) v[i] -= ft[i];
            slpi_fast_ac_inv(An, c, x, Pk);
            slpi_fast_ac_inv(Bn, c, x, v);
        }
        double dmax = slpi_fast_max2(slpi_vec_maxdiff(An, A, 3), slpi_vec_maxdiff(Bn, B, 3));
        memcpy(A, An, sizeof An);
        memcpy(B, Bn, sizeof Bn);
        st = slpi_fast_iter_check(&it, dmax, slpi_fast_max2(slpi_vec_maxabs(A, 3), slpi_vec_maxabs(B, 3)));
        if (st >= 0) break;
    }
    *iters = it.it;
    *resid = it.last;
    if (!slpi_step_failed(st)) map(ctx, A, B, x, tau, ft);
    return st;
}

static slpi_step_status svi_vec_step(slpi_fast *f, double *xs, const double *delta, slpi_step_info *info)
{
    const slpi_fast_system *s = &f->sys;
    svi_work *w = f->work;
    int sd = w->form == FORM_SD;
    const double *Pk = xs, *Gk = xs + 3;
    double A[3], B[3], x[3], tau[9], ft[3], v[3], Pn[3];
    svi_vec_ctx ctx = { f, w, Gk, delta, sd && f->stop_plain };
    if (sd) memcpy(w->mu + 3, Gk, 3 * sizeof *Gk);
    int sweeps = !f->stop_plain   ? SLPI_FAST_SVI_AC
        : f->pol.fixed_iters == 0 ? SLPI_FAST_SVI_NONE
        : sd                      ? SLPI_FAST_SVI_AC
                                  : SLPI_FAST_SVI_PAPER;
    int st = slpi_fast_svi3_solve(w->c, sweeps, &f->pol, svi_vec_map, &ctx, Pk, A, B, x, tau, ft, &info->iterations,
                                  &info->residual);
    if (slpi_step_failed(st)) return st;
    if (w->node) {
        double xc[3], xb = slpi_fast_dot3(x, B);
        slpi_fast_cross(xc, x, B);
        for (int i = 0; i < 3; i++) Pn[i] = B[i] - 0.5 * xc[i] + w->c * xb * x[i];
    } else {
        slpi_fast_mat3t_vec(v, tau, Pk);
        for (int i = 0; i < 3; i++) v[i] -= ft[i];
        slpi_fast_mat3t_vec(Pn, tau, v);
    }
    if (sd) {
        double Gt[3];
        slpi_fast_mat3t_vec(Gt, tau, Gk);
        slpi_fast_mat3t_vec(xs + 3, tau, Gt);
    }
    memcpy(xs, Pn, sizeof Pn);
    if (s->state_dim > s->dim) {
        double *R = xs + s->dim, t2[9];
        slpi_fast_mat3_mul(t2, tau, tau);
        slpi_fast_mat3_mul(R, R, t2);
    }
    return st;
}

static slpi_step_status svi_lp_step(slpi_fast *f, double *xs, const double *delta, slpi_step_info *info)
{
    const slpi_fast_system *s = &f->sys;
    svi_work *w = f->work;
    int m = s->mdim;
    s->m_unpack(s, w->Xk, xs);
    memcpy(w->M, w->Xk, sizeof *w->M * (size_t)m);
    slpi_fast_iter it;
    slpi_fast_iter_begin(&it, &f->pol);
    int st;
    do {
        s->m_gen_sum(s, w->P, delta, w->M);
        if (s->m_ainv(s, w->t1, 0.25, w->P, w->Xk) || s->m_cay_conj(s, w->nu, 0.25, w->P, w->Xk) ||
            s->m_ainv(s, w->Mn, 0.25, w->P, w->nu))
            return SLPI_STEP_DIVERGED;
        for (int i = 0; i < m; i++) w->Mn[i] = 0.5 * (w->t1[i] + w->Mn[i]);
        double dmax = slpi_vec_maxdiff(w->Mn, w->M, m);
        double *t = w->M;
        w->M = w->Mn;
        w->Mn = t;
        st = slpi_fast_iter_check(&it, dmax, slpi_vec_maxabs(w->M, m));
    } while (st < 0);
    info->iterations = it.it;
    info->residual = it.last;
    if (slpi_step_failed(st)) return st;
    s->m_gen_sum(s, w->P, delta, w->M);
    if (s->m_cay_conj(s, w->nu, 0.25, w->P, w->Xk) || s->m_cay_conj(s, w->t1, 0.25, w->P, w->nu))
        return SLPI_STEP_DIVERGED;
    s->m_pack(s, xs, w->t1);
    return st;
}

static slpi_step_status svi_step(slpi_fast *f, double *x, const double *delta, slpi_step_info *info)
{
    svi_work *w = f->work;
    slpi_fast_time(&f->sys, 1, delta); /* the midpoint velocity xi at t_n + h/2 */
    return w->form == FORM_LP ? svi_lp_step(f, x, delta, info) : svi_vec_step(f, x, delta, info);
}

const slpi_fast_scheme slpi_fast_scheme_svi = {
    .id = SLPI_SCHEME_SVI,
    .check = svi_check,
    .step = svi_step,
    .init = svi_init,
};
