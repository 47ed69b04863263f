/* model.c — a model described as data on the double path (docs/models.md; core/expr.h is
 * the parsed form and its contract).
 *
 * DERIVATIVES. fast/model-tape.c evaluates each Hamiltonian's tape with its exact gradient
 * and Hessian-vector product (forward-over-reverse automatic differentiation). The
 * gradient in the algebra's pairing is xi_i = (dH/dmu_i) / w_i (slpi_algebra_weight,
 * exact: 1 or 1/2), projected to its traceless part on su(n).
 *
 * SU(N). A model's H on su(n) means H at the traceless part of its argument, H(P mu) with
 * P mu = mu - (1/n) Tr mu I (docs/models.md#su-n): every evaluation (value, gradient,
 * Hessian action, callbacks) reads P mu, and the Hessian action the direction P w, so the
 * gradient P grad H(P mu) and its derivative do not depend on the trace of the point a
 * scheme evaluates at (ISOMP's X~ has one, of order h^2).
 *
 * CALLBACKS (docs/models.md#callbacks). A Hamiltonian given as code (p->model.cb[k]) is
 * evaluated by the user's functions instead of a tape: grad gives dH/dmu and hvp its
 * derivative along w, and both go through the same weights and projection as a tape's
 * (to_algebra), so the user never applies the pairing. A non-zero return or a non-finite
 * output makes the result NaN and is named by s->fault (the step fails, exit 3).
 *
 * DOMAIN. A value outside an operation's domain (log or sqrt of x <= 0, division by 0,
 * x^n with n < 0 at 0, a real power of x <= 0, any non-finite value) makes the whole
 * gradient NaN and is recorded as the step's fault with the key and column of the first
 * such node (domain_fault), so the step fails (exit 3 with the step and that reason, as
 * the certified path's UNABLE names it). In a constant subexpression it is an input
 * error at creation.
 *
 * STRUCTURE. The algebra's operations and Casimirs are its family's (fast/algebra.h), the
 * ones the built-in systems on it use: so3, so(n), so3^k (HAT blocks: x_i cross grad_i H,
 * no sqrt 2) and se3 from fast/algebra-<family>.c, whose context is the first member of
 * this file's; su(n) installs fast/sun.c's kernels with this file's gradients. Only the
 * gradients, their derivatives, Psi (B_k = xi_k^*, so Psi = -sum_k delta_k xi_k in the
 * matrix representation), the ISOMP map that calls Psi, and the energy's diagnostics are
 * the model's own. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/plan.h"
#include "slpi/diag.h"
#include "core/view-grid.h"
#include "core/view-system.h"
#include "core/expr.h"
#include "core/plan.h"
#include "fast/algebra.h"
#include "fast/system.h"
#include "fast/dense.h"
#include "fast/so3.h"
#include "fast/model-tape.h"
#include "fast/sun.h"

typedef struct {
    union {                  /* the family's context: first member (fast/algebra.h) */
        slpi_fast_sun sun;   /* su(n) (fast/sun.h) */
        slpi_fast_so so;     /* so(n) */
        slpi_fast_so3k so3k; /* so3^k */
    };
    int has_sun;
    const slpi_plan *plan; /* a reference, released by model_clear */
    const slpi_model *m;   /* the plan's parsed model (slpi_plan_model) */
    slpi_fast_tapes tp;    /* H_0..H_M, and fused (gen_sum: one sweep each way) */
    int dim;
    double *winv, *g, *hv, *mu, *xi, *tmp;
    double *pmu, *pw;                             /* su(n): the traceless parts P mu, P w (at_traceless) */
    slpi_model_code cb[1 + SLPI_MODEL_MAX_NOISE]; /* p->model.cb */
    int ncb;                                      /* Hamiltonians given as code */
    char why[256];                                /* which callback failed, how (model_fault) */
    int faulted;
    double complex *Z, *X0; /* so(n) ISOMP scratch (n x n); su(n) diagnostics (2 N^2) */
    double t0;              /* key t0 (docs/models.md#time) */
    double t;               /* the time the tapes' t-nodes hold (model_at_time) */
} model_ctx;

static model_ctx *ctx_of(const slpi_fast_system *s)
{
    return (model_ctx *)s->data;
}

/* ------------------------------------------------------------ evaluation */

/* out = g / w (the pairing's gradient), traceless part on su(n); all NaN if g is not
 * finite (an overflow inside the evaluation: see node_value). */
static void to_algebra(const model_ctx *c, double *out, const double *g)
{
    double s = 0;
    for (int i = 0; i < c->dim; i++) {
        out[i] = g[i] * c->winv[i];
        s += out[i] - out[i];
    }
    if (s != 0 || s != s)
        for (int i = 0; i < c->dim; i++) out[i] = NAN;
    if (c->m->alg.kind == SLPI_ALGEBRA_SUN) {
        int N = c->m->alg.n;
        double tr = 0;
        for (int a = 0; a < N; a++) tr += out[a];
        for (int a = 0; a < N; a++) out[a] -= tr / N;
    }
}

/* The point (or direction) x where a Hamiltonian is evaluated: x itself, on su(n) its
 * traceless part in buf (the diagonal coordinates ImX_a_a less their mean). */
static const double *at_traceless(const model_ctx *c, double *buf, const double *x)
{
    if (c->m->alg.kind != SLPI_ALGEBRA_SUN) return x;
    int N = c->m->alg.n;
    double tr = 0;
    for (int a = 0; a < N; a++) tr += x[a];
    for (int a = 0; a < N; a++) buf[a] = x[a] - tr / N;
    memcpy(buf + N, x + N, (size_t)(c->dim - N) * sizeof *x);
    return buf;
}

/* After a forward pass failed on tape t: the first node whose value is not finite although
 * its operands are, recorded as the step's fault (model_fault). */
static void domain_fault(model_ctx *c, const slpi_fast_tape *t)
{
    if (c->faulted) return;
    int i = slpi_fast_tape_fault(t);
    if (i < 0) return;
    const slpi_expr_node *n = &t->node[i];
    char key[32];
    c->faulted = 1;
    snprintf(c->why, sizeof c->why, "%s: col %d: %s outside its domain or not finite (%g)",
             slpi_model_key(key, sizeof key, t->owner[i]), n->col, slpi_expr_op_name(n->op), t->v[i]);
}

static void fill_nan(double *x, int n)
{
    for (int i = 0; i < n; i++) x[i] = NAN;
}

static const double one = 1;

/* After callback `what` of H_k returned rc with out[0..n): 0 if it succeeded with finite
 * values, else -1 with the first failure since the last model_fault recorded. */
static int callback_result(model_ctx *c, int k, const char *what, int rc, const double *out, int n)
{
    char key[32];
    int bad = -1;
    for (int i = 0; i < n && rc == 0 && bad < 0; i++)
        if (!(out[i] - out[i] == 0)) bad = i;
    if (rc == 0 && bad < 0) return 0;
    if (c->faulted) return -1;
    c->faulted = 1;
    slpi_model_key(key, sizeof key, k);
    if (rc != 0)
        snprintf(c->why, sizeof c->why, "the %s callback of %s returned %d", what, key, rc);
    else
        snprintf(c->why, sizeof c->why, "the %s callback of %s gave a non-finite value %g at index %d", what, key,
                 out[bad], bad);
    return -1;
}

static int model_fault(const slpi_fast_system *s, char *why, size_t why_len)
{
    model_ctx *c = ctx_of(s);
    if (!c->faulted) return 0;
    snprintf(why, why_len, "%s", c->why);
    c->faulted = 0;
    return 1;
}

static void model_gen(const slpi_fast_system *s, int k, double *xi, const double *mu)
{
    model_ctx *c = ctx_of(s);
    mu = at_traceless(c, c->pmu, mu);
    if (c->m->callback[k]) {
        const slpi_model_code *cb = &c->cb[k];
        if (callback_result(c, k, "grad", cb->grad(c->g, mu, c->dim, cb->user_data), c->g, c->dim))
            fill_nan(xi, c->dim);
        else
            to_algebra(c, xi, c->g);
        return;
    }
    for (int i = 0; i < c->dim; i++) c->g[i] = 0;
    if (slpi_fast_tape_forward(&c->tp.t[k], mu, NULL)) {
        domain_fault(c, &c->tp.t[k]);
        fill_nan(xi, c->dim);
        return;
    }
    slpi_fast_tape_reverse(&c->tp.t[k], &one, c->g, NULL);
    to_algebra(c, xi, c->g);
}

/* sum_k delta_k xi_k: the fused tape, seeded with delta at its roots. */
static void model_gen_sum(const slpi_fast_system *s, double *xi, const double *delta, const double *mu)
{
    model_ctx *c = ctx_of(s);
    if (c->ncb) { /* no fused tape: the generic sum (slpi_fast_gen_sum's order) */
        for (int i = 0; i < c->dim; i++) xi[i] = 0;
        for (int k = 0; k <= c->m->M; k++) {
            if (delta[k] == 0) continue;
            model_gen(s, k, c->tmp, mu);
            for (int i = 0; i < c->dim; i++) xi[i] += delta[k] * c->tmp[i];
        }
        return;
    }
    mu = at_traceless(c, c->pmu, mu);
    for (int i = 0; i < c->dim; i++) c->g[i] = 0;
    if (slpi_fast_tape_forward(&c->tp.all, mu, NULL)) {
        domain_fault(c, &c->tp.all);
        fill_nan(xi, c->dim);
        return;
    }
    slpi_fast_tape_reverse(&c->tp.all, delta, c->g, NULL);
    to_algebra(c, xi, c->g);
}

static void model_dgen(const slpi_fast_system *s, int k, double *out, const double *mu, const double *w)
{
    model_ctx *c = ctx_of(s);
    mu = at_traceless(c, c->pmu, mu);
    w = at_traceless(c, c->pw, w);
    if (c->m->callback[k]) {
        const slpi_model_code *cb = &c->cb[k];
        if (callback_result(c, k, "hvp", cb->hvp(c->hv, mu, w, c->dim, cb->user_data), c->hv, c->dim))
            fill_nan(out, c->dim);
        else
            to_algebra(c, out, c->hv);
        return;
    }
    for (int i = 0; i < c->dim; i++) c->g[i] = c->hv[i] = 0;
    if (slpi_fast_tape_forward(&c->tp.t[k], mu, w)) {
        domain_fault(c, &c->tp.t[k]);
        fill_nan(out, c->dim);
        return;
    }
    slpi_fast_tape_reverse(&c->tp.t[k], &one, c->g, c->hv);
    to_algebra(c, out, c->hv);
}

/* H_k(mu), NAN outside the domain (or a callback without energy, or a failing one). */
static double model_value(model_ctx *c, int k, const double *mu)
{
    mu = at_traceless(c, c->pmu, mu);
    if (c->m->callback[k]) {
        double H = NAN;
        const slpi_model_code *cb = &c->cb[k];
        return cb->energy && cb->energy(&H, mu, c->dim, cb->user_data) == 0 ? H : NAN;
    }
    const slpi_fast_tape *t = &c->tp.t[k];
    if (slpi_fast_tape_forward(t, mu, NULL)) return NAN;
    return t->v[t->root[0]];
}

/* Every evaluation from now on reads t = t0 + stage h, stage = n + half/2
 * (docs/models.md#time): the formula of the certified twin (ref/model.c), rounded twice
 * here (the product, the sum; the stage n + half/2 is exact). */
static void model_at_time(const slpi_fast_system *s, double stage, double h)
{
    model_ctx *c = ctx_of(s);
    double t = c->t0 + stage * h;
    if (t == c->t) return;
    c->t = t;
    for (int k = 0; k <= c->m->M; k++) slpi_fast_tape_set_time(&c->tp.t[k], t);
    slpi_fast_tape_set_time(&c->tp.all, t);
}

/* ------------------------------------------------------------ the algebra's operations */

/* Psi(Y) = -sum_k delta_k xi_k(mu(Y)) in the matrix representation (B_k = xi_k^*). */
static void model_m_gen_sum(const slpi_fast_system *s, double *Psi, const double *delta, const double *Y)
{
    model_ctx *c = ctx_of(s);
    s->m_pack(s, c->mu, Y);
    model_gen_sum(s, c->xi, delta, c->mu);
    for (int i = 0; i < c->dim; i++) c->xi[i] = -c->xi[i];
    s->m_unpack(s, Psi, c->xi);
}

static double model_m_isomp_iter(const slpi_fast_system *s, double *Ynew, double *ynorm, double *Psi_out,
                                 const double *delta, const double *Xn, const double *Y)
{
    model_ctx *c = ctx_of(s);
    double *P = Psi_out ? Psi_out : (double *)(c->Z + (size_t)c->m->alg.n * c->m->alg.n);
    model_m_gen_sum(s, P, delta, Y);
    switch (c->m->alg.kind) {
    case SLPI_ALGEBRA_SO3:
        return slpi_fast_blocks_isomp(SLPI_FAST_BLOCK_HAT, 1, P, Xn, Y, Ynew, ynorm);
    case SLPI_ALGEBRA_SO3K:
        return slpi_fast_blocks_isomp(SLPI_FAST_BLOCK_HAT, c->m->alg.n, P, Xn, Y, Ynew, ynorm);
    default:
        return slpi_fast_zisomp(c->m->alg.n, (const double complex *)P, (const double complex *)Xn,
                                (const double complex *)Y, (double complex *)Ynew, ynorm, c->Z);
    }
}

/* su(n): fast/sun.c's callbacks. psi: Psi(Y) = -sum_k delta_k xi_k in matrix form. gen: the
 * matrix of xi_k (only fast/sun.c's own gen/dgen call it, and this file replaces both). */
static void sun_psi_cb(slpi_fast_sun *u, const double *delta, const double complex *Y, double complex *Psi)
{
    model_ctx *c = (model_ctx *)u;
    slpi_fast_system s = { .data = c };
    slpi_fast_sun_pack(c->mu, Y, u->N);
    model_gen_sum(&s, c->xi, delta, c->mu);
    for (int i = 0; i < c->dim; i++) c->xi[i] = -c->xi[i];
    slpi_fast_sun_unpack(Psi, c->xi, u->N);
}

static void sun_gen_cb(slpi_fast_sun *u, int k, const double complex *X, int derivative, double complex *out)
{
    model_ctx *c = (model_ctx *)u;
    slpi_fast_system s = { .data = c };
    slpi_fast_sun_pack(c->mu, X, u->N);
    if (derivative)
        fill_nan(c->xi, c->dim); /* not reachable: model_dgen replaces it */
    else
        model_gen(&s, k, c->xi, c->mu);
    slpi_fast_sun_unpack(out, c->xi, u->N);
}

/* ------------------------------------------------------------ diagnostics */

static void model_diagnostics(const slpi_fast_system *s, slpi_diag *d, const double *x, const double *x0)
{
    model_ctx *c = ctx_of(s);
    int has_H = !c->m->callback[0] || c->cb[0].energy; /* code without energy: no H0 */
    double H = has_H ? model_value(c, 0, x) : NAN;
    if (has_H) slpi_diag_add(d, "H0", H);
    if (x0 && has_H) {
        double H0 = model_value(c, 0, x0);
        slpi_diag_add(d, "H0_rel_dev", H0 != 0 ? (H - H0) / H0 : H - H0);
    }
    switch (c->m->alg.kind) {
    case SLPI_ALGEBRA_SE3:
        slpi_fast_se3_casimirs(d, x);
        if (x0) slpi_fast_se3_casimir_devs(d, x, x0);
        break;
    case SLPI_ALGEBRA_SO3:
        slpi_fast_so3_casimirs(d, x);
        if (x0) slpi_fast_so3_casimir_devs(d, x, x0);
        break;
    case SLPI_ALGEBRA_SON:
        slpi_fast_so_casimirs(&c->so, d, x);
        if (x0) slpi_fast_so_casimir_devs(&c->so, d, x0);
        break;
    case SLPI_ALGEBRA_SO3K:
        slpi_fast_so3k_casimirs(&c->so3k, d, x);
        if (x0) slpi_fast_so3k_casimir_devs(&c->so3k, d, x, x0);
        break;
    case SLPI_ALGEBRA_SUN: {
        int N = c->m->alg.n;
        double complex *X = c->Z, *X0 = x0 ? c->Z + (size_t)N * N : NULL;
        slpi_fast_sun_unpack(X, x, N);
        if (x0) slpi_fast_sun_unpack(X0, x0, N);
        slpi_fast_sun_diagnostics(&c->sun, d, X, X0, 1);
        break;
    }
    }
}

/* ------------------------------------------------------------ creation */

static void model_clear(slpi_fast_system *s)
{
    model_ctx *c = ctx_of(s);
    if (!c) return;
    if (c->has_sun) slpi_fast_sun_clear(&c->sun);
    if (c->m->alg.kind == SLPI_ALGEBRA_SON) slpi_fast_so_clear(&c->so);
    slpi_fast_tapes_clear(&c->tp);
    slpi_plan_unref(c->plan);
    free(c->winv);
    free(c->Z);
    free(c);
    s->data = NULL;
}

/* The algebra family's context (fast/algebra.h). */
static int build_family(model_ctx *c, slpi_error *err)
{
    const slpi_algebra *a = &c->m->alg;
    switch (a->kind) {
    case SLPI_ALGEBRA_SO3:
    case SLPI_ALGEBRA_SE3:
        return SLPI_OK; /* no context */
    case SLPI_ALGEBRA_SON:
        return slpi_fast_so_init(&c->so, a->n, err);
    case SLPI_ALGEBRA_SO3K:
        slpi_fast_so3k_init(&c->so3k, a->n, SLPI_FAST_BLOCK_HAT); /* x_i cross grad_i H, no sqrt 2 */
        return SLPI_OK;
    case SLPI_ALGEBRA_SUN:
        c->has_sun = 1;
        return slpi_fast_sun_init(&c->sun, a->n, sun_psi_cb, sun_gen_cb, err);
    }
    return slpi_error_set(err, SLPI_EINPUT, "model: unknown algebra");
}

int slpi_fast_sys_model(slpi_fast_system *s, const slpi_problem *p, const slpi_plan *plan, slpi_error *err)
{
    model_ctx *c = calloc(1, sizeof *c);
    if (!c) return slpi_error_set(err, SLPI_EINPUT, "model: out of memory");
    s->data = c;
    s->clear = model_clear;
    c->plan = slpi_plan_ref(plan);
    c->m = slpi_plan_model(plan);
    int rc;
    const slpi_algebra *a = &c->m->alg;
    int dim = c->dim = a->dim, n = a->n;
    for (int k = 0; k <= c->m->M; k++) {
        c->cb[k] = slpi_view_system(p)->model.cb[k];
        c->ncb += c->m->callback[k];
    }
    if ((rc = slpi_fast_tapes_build(&c->tp, c->m, err)) != SLPI_OK) return rc;
    c->t0 = slpi_view_system(p)->model.t0;
    c->t = NAN; /* no time yet: the first model_at_time sets the t-nodes */
    c->winv = malloc(8 * (size_t)dim * sizeof *c->winv);
    c->Z = calloc(3 * (size_t)n * n, sizeof *c->Z);
    if (!c->winv || !c->Z) return slpi_error_set(err, SLPI_EINPUT, "model: out of memory");
    c->g = c->winv + dim;
    c->hv = c->g + dim;
    c->mu = c->hv + dim;
    c->xi = c->mu + dim;
    c->tmp = c->xi + dim;
    c->pmu = c->tmp + dim;
    c->pw = c->pmu + dim;
    for (int i = 0; i < dim; i++) c->winv[i] = 1.0 / slpi_algebra_weight(a, i);
    if ((rc = build_family(c, err)) != SLPI_OK) return rc;

    s->name = "model";
    s->fault = model_fault;
    s->state_dim = s->dim = dim;
    s->M = c->m->M;
    s->diagnostics = model_diagnostics;
    if (c->m->reads_t) {
        s->at_time = model_at_time;
        model_at_time(s, 0.0, slpi_view_grid(p)->h); /* step 0's start until a scheme says otherwise */
    }
    switch (a->kind) {
    case SLPI_ALGEBRA_SUN:
        slpi_fast_sun_fill_ops(s);
        break;
    case SLPI_ALGEBRA_SE3:
        s->mdim = 0;
        s->coad = slpi_fast_se3_coad;
        s->orbit = slpi_fast_se3_orbit;
        s->lie = slpi_fast_se3_lie;
        break;
    case SLPI_ALGEBRA_SO3:
        slpi_fast_so3_fill_ops(s);
        break;
    case SLPI_ALGEBRA_SON:
        slpi_fast_so_fill_ops(s);
        break;
    case SLPI_ALGEBRA_SO3K:
        slpi_fast_so3k_fill_ops(s);
        break;
    }
    if (s->m_unpack && !c->has_sun) { /* the matrix form of so3, so(n), so3^k */
        s->m_gen_sum = model_m_gen_sum;
        s->m_isomp_iter = model_m_isomp_iter;
    }
    s->gen = model_gen;
    s->gen_sum = model_gen_sum;
    s->dgen = model_dgen;
    return SLPI_OK;
}
