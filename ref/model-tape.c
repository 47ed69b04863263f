/* ref/model-tape.c — a model's Hamiltonians evaluated in Arb balls with their exact
 * derivatives (ref/model-tape.h; docs/models.md#certified-derivatives).
 *
 * Forward-over-reverse automatic differentiation over the expression's tape, in ball
 * arithmetic:
 *  - forward sweep: each node i gets its value v_i and, for the directional derivative,
 *    its tangent t_i = D v_i(mu)[w]; each node also gets the local partials
 *    p = d v_i / d v_a, q = d v_i / d v_b evaluated as balls at the operands' balls, and
 *    (with a direction) their tangents dp = D p[w], dq = D q[w] (the closed-form second
 *    derivatives of the rule, e.g. d(sin)' = -sin x t_a). One function per kind of node
 *    (leaves, sums, products, quotients, powers, and the functions by family), as the
 *    double path's fast/model-tape.c;
 *  - reverse sweep: adjoints a_i = dH/dv_i (a_{n-1} = 1) and their tangents
 *    e_i = D a_i[w], by a_a += a_i p and e_a += e_i p + a_i dp (chain and product rule);
 *  - dH/dmu_j = sum of a_i over the nodes reading mu_j, and (D^2 H(mu) w)_j the same
 *    sum of e_i: one pass gives the gradient and the Hessian-vector product dgen needs.
 * Every operation is an Arb ball operation, so each ball contains the exact derivative
 * for every point mu of the input balls (and w of its balls): the rules are the exact
 * derivatives of the node functions, and interval evaluation of an exact formula over a
 * box encloses its range. Constants come from their decimal text (arb_set_str, which
 * encloses the decimal), pi from arb_const_pi, integer powers by arb_pow_ui (exact
 * multiplication, no logarithm), real powers as exp(y log x). Domain errors (log, sqrt,
 * real power of a ball reaching 0 or below, a negative integer power or a division of a
 * ball containing 0, tan where the cosine ball contains 0) make the node indeterminate,
 * the whole output indeterminate and are recorded with the key and column; slpi_ref_step
 * turns the record into UNABLE (the fault field of slpi_ref_system).
 *
 * On su(n) a model's H means H at the traceless part of its argument, H(P mu) with
 * P mu = mu - (1/n) Tr mu I (docs/models.md#su-n): slpi_ref_tape_eval reads P mu and the
 * direction P w, so the generator P grad H(P mu) and its derivative do not depend on the
 * trace of the point a scheme evaluates at (ISOMP's X~ has one, of order h^2). */
#include "slpi/errors.h"
#include "core/slpi-flint.h"
#include "ref/model-tape.h"
#include "ref/vec.h"

#include <float.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static void fault(slpi_ref_tape *d, int k, const slpi_expr_node *nd, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fault(slpi_ref_tape *d, int k, const slpi_expr_node *nd, const char *fmt, ...)
{
    if (d->faulted) return;
    d->faulted = 1;
    int n = k ? snprintf(d->why, sizeof d->why, "noise_H%d: col %d: ", k, nd->col)
              : snprintf(d->why, sizeof d->why, "H: col %d: ", nd->col);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->why + n, sizeof d->why - (size_t)n, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------ the forward sweep, by kind */

/* One node's forward step: z the node, x and y its operands (NULL when unused); tan when a
 * direction is given and the node depends on a coordinate, der when the gradient is asked
 * and it does; u and r scratch balls. */
typedef struct {
    slpi_ref_tape *d;
    int k;
    const slpi_expr_node *nd;
    slpi_ref_ad_node *z;
    const slpi_ref_ad_node *x, *y;
    arb_srcptr mu, w;
    int tan, der;
    arb_ptr u, r;
    slong prec;
} node_step;

/* 1 unless the ball x reaches 0 or below (then a fault) */
static int positive(const node_step *S, const arb_t x)
{
    if (arb_is_positive(x)) return 1;
    fault(S->d, S->k, S->nd, "%s of a ball reaching 0 or below", slpi_expr_op_name(S->nd->op));
    return 0;
}

static int nonzero(const node_step *S, const arb_t x, const char *what)
{
    if (arb_is_nonzero(x)) return 1;
    fault(S->d, S->k, S->nd, "%s", what);
    return 0;
}

/* CONST, COORD, PI, TIME */
static int fwd_leaf(const node_step *S)
{
    slpi_ref_ad_node *z = S->z;
    const slpi_expr_node *nd = S->nd;
    if (nd->op == SLPI_EXPR_CONST) {
        arb_set_round(&z->v, S->d->cst[S->k] + nd->arg, S->prec);
    } else if (nd->op == SLPI_EXPR_COORD) {
        arb_set(&z->v, S->mu + nd->arg);
        if (S->tan) arb_set(&z->t, S->w + nd->arg);
    } else if (nd->op == SLPI_EXPR_TIME) {
        arb_set_round(&z->v, &S->d->time, S->prec);
    } else {
        arb_const_pi(&z->v, S->prec);
    }
    return 1;
}

/* NEG, ADD, SUB: constant partials */
static int fwd_sum(const node_step *S)
{
    slpi_ref_ad_node *z = S->z;
    const slpi_ref_ad_node *x = S->x, *y = S->y;
    slong prec = S->prec;
    if (S->nd->op == SLPI_EXPR_NEG) {
        arb_neg(&z->v, &x->v);
        arb_set_si(&z->p, -1);
        arb_zero(&z->dp);
        if (S->tan) arb_neg(&z->t, &x->t);
        return 1;
    }
    int add = S->nd->op == SLPI_EXPR_ADD;
    if (add)
        arb_add(&z->v, &x->v, &y->v, prec);
    else
        arb_sub(&z->v, &x->v, &y->v, prec);
    arb_one(&z->p);
    arb_set_si(&z->q, add ? 1 : -1);
    arb_zero(&z->dp);
    arb_zero(&z->dq);
    if (S->tan) {
        if (add)
            arb_add(&z->t, &x->t, &y->t, prec);
        else
            arb_sub(&z->t, &x->t, &y->t, prec);
    }
    return 1;
}

/* MUL: p = y, q = x */
static int fwd_mul(const node_step *S)
{
    slpi_ref_ad_node *z = S->z;
    const slpi_ref_ad_node *x = S->x, *y = S->y;
    arb_mul(&z->v, &x->v, &y->v, S->prec);
    arb_set(&z->p, &y->v);
    arb_set(&z->q, &x->v);
    if (S->tan) {
        arb_set(&z->dp, &y->t);
        arb_set(&z->dq, &x->t);
        arb_mul(&z->t, &x->t, &y->v, S->prec);
        arb_addmul(&z->t, &x->v, &y->t, S->prec);
    }
    return 1;
}

/* DIV: p = 1/y, q = -v/y */
static int fwd_div(const node_step *S)
{
    slpi_ref_ad_node *z = S->z;
    const slpi_ref_ad_node *x = S->x, *y = S->y;
    slong prec = S->prec;
    arb_ptr u = S->u;
    if (!nonzero(S, &y->v, "division by a ball containing 0")) return 0;
    arb_div(&z->v, &x->v, &y->v, prec);
    arb_inv(&z->p, &y->v, prec);
    arb_mul(&z->q, &z->v, &z->p, prec);
    arb_neg(&z->q, &z->q);
    if (S->tan) {
        /* t = p t_a + q t_b; dp = -t_b / y^2 = -p^2 t_b; dq = -(t + q t_b) / y */
        arb_mul(u, &z->q, &y->t, prec);
        arb_mul(&z->t, &z->p, &x->t, prec);
        arb_add(&z->t, &z->t, u, prec);
        arb_sqr(&z->dp, &z->p, prec);
        arb_mul(&z->dp, &z->dp, &y->t, prec);
        arb_neg(&z->dp, &z->dp);
        arb_add(&z->dq, &z->t, u, prec);
        arb_mul(&z->dq, &z->dq, &z->p, prec);
        arb_neg(&z->dq, &z->dq);
    }
    return 1;
}

/* out = x^m for any integer m: arb_pow_ui of x or of ix = 1/x (exact products) */
static void pow_si(arb_t out, const arb_t x, const arb_t ix, slong m, slong prec)
{
    if (m >= 0)
        arb_pow_ui(out, x, (ulong)m, prec);
    else
        arb_pow_ui(out, ix, (ulong)(-m), prec);
}

/* POWI: v = x^n, p = n x^(n-1), dp = n (n-1) x^(n-2) t_a */
static int fwd_powi(const node_step *S)
{
    slpi_ref_ad_node *z = S->z;
    const slpi_ref_ad_node *x = S->x;
    slong n = S->nd->arg, prec = S->prec;
    if (n < 0 && !nonzero(S, &x->v, "negative power of a ball containing 0")) return 0;
    if (n == 0) {
        arb_one(&z->v);
        arb_zero(&z->p);
        arb_zero(&z->dp);
        if (S->tan) arb_zero(&z->t);
        return 1;
    }
    arb_t ix;
    arb_init(ix);
    if (n < 0) arb_inv(ix, &x->v, prec);
    pow_si(&z->v, &x->v, ix, n, prec);
    if (S->der) {
        pow_si(&z->p, &x->v, ix, n - 1, prec);
        arb_mul_si(&z->p, &z->p, n, prec);
    }
    if (S->tan) {
        arb_mul(&z->t, &z->p, &x->t, prec);
        pow_si(&z->dp, &x->v, ix, n - 2, prec);
        arb_mul_si(&z->dp, &z->dp, n * (n - 1), prec);
        arb_mul(&z->dp, &z->dp, &x->t, prec);
    }
    arb_clear(ix);
    return 1;
}

/* POW: v = exp(y log x); p = y v / x, q = v log x */
static int fwd_pow(const node_step *S)
{
    slpi_ref_ad_node *z = S->z;
    const slpi_ref_ad_node *x = S->x, *y = S->y;
    slong prec = S->prec;
    arb_ptr u = S->u, r = S->r;
    if (!positive(S, &x->v)) return 0;
    arb_log(r, &x->v, prec); /* r = log x */
    arb_mul(u, &y->v, r, prec);
    arb_exp(&z->v, u, prec);
    arb_mul(&z->p, &y->v, &z->v, prec);
    arb_div(&z->p, &z->p, &x->v, prec);
    arb_mul(&z->q, &z->v, r, prec);
    if (S->tan) {
        /* t = p t_a + q t_b; dp = (t_b v + y t) / x - p t_a / x; dq = t log x + v t_a / x */
        arb_mul(&z->t, &z->p, &x->t, prec);
        arb_addmul(&z->t, &z->q, &y->t, prec);
        arb_mul(&z->dp, &y->t, &z->v, prec);
        arb_addmul(&z->dp, &y->v, &z->t, prec);
        arb_submul(&z->dp, &z->p, &x->t, prec);
        arb_div(&z->dp, &z->dp, &x->v, prec);
        arb_mul(&z->dq, &z->t, r, prec);
        arb_mul(u, &z->v, &x->t, prec);
        arb_div(u, u, &x->v, prec);
        arb_add(&z->dq, &z->dq, u, prec);
    }
    return 1;
}

/* SQRT (p = 1 / (2 v), dp = -p t / v), EXP (p = v, dp = v t_a), LOG (p = 1/x,
 * dp = -p^2 t_a) */
static int fwd_sqrt_exp_log(const node_step *S)
{
    slpi_ref_ad_node *z = S->z;
    const slpi_ref_ad_node *x = S->x;
    slong prec = S->prec;
    int op = S->nd->op;
    if (op != SLPI_EXPR_EXP && !positive(S, &x->v)) return 0;
    if (op == SLPI_EXPR_SQRT) {
        arb_sqrt(&z->v, &x->v, prec);
        arb_inv(&z->p, &z->v, prec);
        arb_mul_2exp_si(&z->p, &z->p, -1);
    } else if (op == SLPI_EXPR_EXP) {
        arb_exp(&z->v, &x->v, prec);
        arb_set(&z->p, &z->v);
    } else {
        arb_log(&z->v, &x->v, prec);
        arb_inv(&z->p, &x->v, prec);
    }
    if (S->tan) {
        arb_mul(&z->t, &z->p, &x->t, prec);
        if (op == SLPI_EXPR_EXP) {
            arb_set(&z->dp, &z->t);
            return 1;
        }
        arb_mul(&z->dp, &z->p, &z->t, prec);
        if (op == SLPI_EXPR_SQRT) arb_div(&z->dp, &z->dp, &z->v, prec);
        arb_neg(&z->dp, &z->dp);
    }
    return 1;
}

/* SIN (p = cos x, dp = -sin x t_a), COS (p = -sin x, dp = -cos x t_a), TAN (v = sin / cos,
 * p = 1 / cos^2, dp = 2 v p t_a), ATAN (p = 1 / (1 + x^2), dp = -2 x p^2 t_a) */
static int fwd_trig(const node_step *S)
{
    slpi_ref_ad_node *z = S->z;
    const slpi_ref_ad_node *x = S->x;
    slong prec = S->prec;
    arb_ptr u = S->u, r = S->r;
    int op = S->nd->op;
    if (op == SLPI_EXPR_ATAN) {
        arb_atan(&z->v, &x->v, prec);
        arb_sqr(u, &x->v, prec);
        arb_add_ui(u, u, 1, prec);
        arb_inv(&z->p, u, prec);
        if (S->tan) {
            arb_mul(&z->t, &z->p, &x->t, prec);
            arb_mul(&z->dp, &z->p, &z->t, prec);
            arb_mul(&z->dp, &z->dp, &x->v, prec);
            arb_mul_2exp_si(&z->dp, &z->dp, 1);
            arb_neg(&z->dp, &z->dp);
        }
        return 1;
    }
    arb_sin_cos(u, r, &x->v, prec);
    if (op == SLPI_EXPR_TAN) {
        if (!nonzero(S, r, "tan of a ball whose cosine contains 0")) return 0;
        arb_div(&z->v, u, r, prec);
        arb_sqr(&z->p, r, prec);
        arb_inv(&z->p, &z->p, prec);
        if (S->tan) {
            arb_mul(&z->t, &z->p, &x->t, prec);
            arb_mul(&z->dp, &z->v, &z->t, prec);
            arb_mul_2exp_si(&z->dp, &z->dp, 1);
        }
        return 1;
    }
    if (op == SLPI_EXPR_SIN) {
        arb_set(&z->v, u);
        arb_set(&z->p, r);
    } else {
        arb_set(&z->v, r);
        arb_neg(&z->p, u);
    }
    if (S->tan) {
        arb_mul(&z->t, &z->p, &x->t, prec);
        arb_mul(&z->dp, &z->v, &x->t, prec);
        arb_neg(&z->dp, &z->dp);
    }
    return 1;
}

/* SINH (p = cosh x, dp = sinh x t_a), COSH (p = sinh x, dp = cosh x t_a), TANH
 * (p = 1 - v^2, dp = -2 v t) */
static int fwd_hyperbolic(const node_step *S)
{
    slpi_ref_ad_node *z = S->z;
    const slpi_ref_ad_node *x = S->x;
    slong prec = S->prec;
    arb_ptr u = S->u, r = S->r;
    if (S->nd->op == SLPI_EXPR_TANH) {
        arb_tanh(&z->v, &x->v, prec);
        arb_sqr(u, &z->v, prec);
        arb_sub_ui(&z->p, u, 1, prec);
        arb_neg(&z->p, &z->p);
        if (S->tan) {
            arb_mul(&z->t, &z->p, &x->t, prec);
            arb_mul(&z->dp, &z->v, &z->t, prec);
            arb_mul_2exp_si(&z->dp, &z->dp, 1);
            arb_neg(&z->dp, &z->dp);
        }
        return 1;
    }
    arb_sinh_cosh(u, r, &x->v, prec);
    if (S->nd->op == SLPI_EXPR_SINH) {
        arb_set(&z->v, u);
        arb_set(&z->p, r);
    } else {
        arb_set(&z->v, r);
        arb_set(&z->p, u);
    }
    if (S->tan) {
        arb_mul(&z->t, &z->p, &x->t, prec);
        arb_mul(&z->dp, &z->v, &x->t, prec);
    }
    return 1;
}

static int (*const forward_of[SLPI_EXPR_OP_COUNT])(const node_step *) = {
    [SLPI_EXPR_CONST] = fwd_leaf,       [SLPI_EXPR_COORD] = fwd_leaf,       [SLPI_EXPR_PI] = fwd_leaf,
    [SLPI_EXPR_TIME] = fwd_leaf,        [SLPI_EXPR_NEG] = fwd_sum,          [SLPI_EXPR_ADD] = fwd_sum,
    [SLPI_EXPR_SUB] = fwd_sum,          [SLPI_EXPR_MUL] = fwd_mul,          [SLPI_EXPR_DIV] = fwd_div,
    [SLPI_EXPR_POWI] = fwd_powi,        [SLPI_EXPR_POW] = fwd_pow,          [SLPI_EXPR_SQRT] = fwd_sqrt_exp_log,
    [SLPI_EXPR_EXP] = fwd_sqrt_exp_log, [SLPI_EXPR_LOG] = fwd_sqrt_exp_log, [SLPI_EXPR_SIN] = fwd_trig,
    [SLPI_EXPR_COS] = fwd_trig,         [SLPI_EXPR_TAN] = fwd_trig,         [SLPI_EXPR_ATAN] = fwd_trig,
    [SLPI_EXPR_SINH] = fwd_hyperbolic,  [SLPI_EXPR_COSH] = fwd_hyperbolic,  [SLPI_EXPR_TANH] = fwd_hyperbolic,
};

/* Forward sweep for node i: value, and when grad the local partials; when a direction w
 * is given the tangents t and dp, dq. Returns 0 on a domain error. */
static int forward(slpi_ref_tape *d, int k, int i, arb_srcptr mu, arb_srcptr w, int grad, slong prec)
{
    const slpi_expr *e = &d->m->H[k];
    const slpi_expr_node *nd = e->node + i;
    slpi_ref_ad_node *T = d->tape, *z = T + i;
    arb_t u, r;
    arb_init(u);
    arb_init(r);
    node_step S = { .d = d,
                    .k = k,
                    .nd = nd,
                    .z = z,
                    .x = nd->a >= 0 ? T + nd->a : NULL,
                    .y = nd->b >= 0 ? T + nd->b : NULL,
                    .mu = mu,
                    .w = w,
                    .tan = w != NULL && e->dep[i],
                    .der = grad && e->dep[i],
                    .u = u,
                    .r = r,
                    .prec = prec };
    int ok;
    if (nd->op >= 0 && nd->op < SLPI_EXPR_OP_COUNT && forward_of[nd->op]) {
        ok = forward_of[nd->op](&S);
    } else {
        fault(d, k, nd, "unknown operation %d", nd->op);
        ok = 0;
    }
    if (!ok) {
        arb_indeterminate(&z->v);
        arb_indeterminate(&z->t);
    } else if (w != NULL && !e->dep[i]) {
        arb_zero(&z->t); /* read by the tangents of dependent nodes */
    }
    arb_clear(u);
    arb_clear(r);
    return ok;
}

/* ------------------------------------------------------------ the reverse sweep */

void slpi_ref_tape_traceless(arb_ptr out, arb_srcptr x, int n, int dim, slong prec)
{
    arb_t mean;
    arb_init(mean);
    for (int a = 0; a < n; a++) arb_add(mean, mean, x + a, prec);
    arb_div_si(mean, mean, n, prec);
    for (int a = 0; a < n; a++) arb_sub(out + a, x + a, mean, prec);
    if (out != x) _arb_vec_set(out + n, x + n, dim - n);
    arb_clear(mean);
}

/* The adjoints of node i pushed to its coordinate-dependent operands (chain and product
 * rule), and at a coordinate into d->g and d->h. */
static void reverse(slpi_ref_tape *d, const slpi_expr *e, int i, int tan, slong prec)
{
    const slpi_expr_node *nd = e->node + i;
    slpi_ref_ad_node *T = d->tape, *z = T + i;
    if (nd->op == SLPI_EXPR_COORD) {
        arb_add(d->g + nd->arg, d->g + nd->arg, &z->a, prec);
        if (tan) arb_add(d->h + nd->arg, d->h + nd->arg, &z->e, prec);
        return;
    }
    for (int s = 0; s < 2; s++) {
        int o = s ? nd->b : nd->a;
        if (o < 0 || !e->dep[o]) continue;
        arb_srcptr p = s ? &z->q : &z->p, dp = s ? &z->dq : &z->dp;
        arb_addmul(&T[o].a, &z->a, p, prec);
        if (tan) {
            arb_addmul(&T[o].e, &z->e, p, prec);
            arb_addmul(&T[o].e, &z->a, dp, prec);
        }
    }
}

int slpi_ref_tape_eval(slpi_ref_tape *d, int k, arb_t val, arb_srcptr mu, arb_srcptr w, int grad, slong prec)
{
    const slpi_expr *e = &d->m->H[k];
    slpi_ref_ad_node *T = d->tape;
    int n = e->n, dim = d->m->alg.dim, ok = 1;
    if (d->m->alg.kind == SLPI_ALGEBRA_SUN) {
        slpi_ref_tape_traceless(d->pmu, mu, d->m->alg.n, dim, prec);
        mu = d->pmu;
        if (w != NULL) {
            slpi_ref_tape_traceless(d->pw, w, d->m->alg.n, dim, prec);
            w = d->pw;
        }
    }
    for (int i = 0; i < n && ok; i++) ok = forward(d, k, i, mu, w, grad, prec);
    if (val != NULL) {
        if (ok)
            arb_set(val, &T[n - 1].v);
        else
            arb_indeterminate(val);
    }
    if (!grad) return ok;
    if (!ok) {
        for (int j = 0; j < dim; j++) {
            arb_indeterminate(d->g + j);
            arb_indeterminate(d->h + j);
        }
        return 0;
    }
    _arb_vec_zero(d->g, dim);
    if (w != NULL) _arb_vec_zero(d->h, dim);
    for (int i = 0; i < n; i++) {
        arb_zero(&T[i].a);
        arb_zero(&T[i].e);
    }
    arb_one(&T[n - 1].a);
    for (int i = n - 1; i >= 0; i--)
        if (e->dep[i]) reverse(d, e, i, w != NULL, prec);
    return 1;
}

/* ------------------------------------------------------------ creation */

/* The constant subexpressions of every H_k (nodes that read neither a coordinate nor t),
 * evaluated once at prec: a domain fault or a ball reaching beyond DBL_MAX is the input's
 * error, refused with the double path's text (core's slpi_model_constant_refusal). */
static int check_constants(slpi_ref_tape *d, slong prec, slpi_error *err)
{
    for (int k = 0; k <= d->m->M; k++) {
        const slpi_expr *e = &d->m->H[k];
        for (int i = 0; i < e->n; i++) {
            if (e->dep[i] || e->tdep[i]) continue; /* a constant node's operands are constant: evaluated before it */
            if (!forward(d, k, i, NULL, NULL, 0, prec) || !slpi_ref_within(&d->tape[i].v, 0, DBL_MAX))
                return slpi_model_constant_refusal(err, k, e->node + i);
        }
    }
    d->faulted = 0;
    return SLPI_OK;
}

void slpi_ref_tape_clear(slpi_ref_tape *d)
{
    for (int k = 0; k <= d->m->M; k++) _arb_vec_clear(d->cst[k], d->m->H[k].nconst > 0 ? d->m->H[k].nconst : 1);
    for (int i = 0; i < d->ntape; i++) {
        slpi_ref_ad_node *z = d->tape + i;
        arb_clear(&z->v);
        arb_clear(&z->t);
        arb_clear(&z->p);
        arb_clear(&z->dp);
        arb_clear(&z->q);
        arb_clear(&z->dq);
        arb_clear(&z->a);
        arb_clear(&z->e);
    }
    flint_free(d->tape);
    _arb_vec_clear(d->g, d->m->alg.dim);
    _arb_vec_clear(d->h, d->m->alg.dim);
    _arb_vec_clear(d->pmu, d->m->alg.dim);
    _arb_vec_clear(d->pw, d->m->alg.dim);
    arb_clear(&d->t0);
    arb_clear(&d->time);
}

int slpi_ref_tape_init(slpi_ref_tape *d, const slpi_model *m, const char *t0, slong cprec, slpi_error *err)
{
    memset(d, 0, sizeof *d);
    int rc = SLPI_OK;
    d->m = m;
    const slpi_algebra *alg = &d->m->alg;
    for (int k = 0; k <= d->m->M; k++) {
        const slpi_expr *e = &d->m->H[k];
        d->cst[k] = _arb_vec_init(e->nconst > 0 ? e->nconst : 1);
        for (int c = 0; c < e->nconst; c++) {
            const char *t = e->ctext[c];
            if (arb_set_str(d->cst[k] + c, t[0] == '+' ? t + 1 : t, cprec) != 0 || !arb_is_finite(d->cst[k] + c))
                rc = slpi_error_set(err, SLPI_EINPUT, "%s%d: constant '%s' is not a finite decimal",
                                    k ? "noise_H" : "H", k, t);
        }
        if (e->n > d->ntape) d->ntape = e->n;
    }
    d->tape = flint_calloc((size_t)d->ntape, sizeof(slpi_ref_ad_node));
    for (int i = 0; i < d->ntape; i++) {
        slpi_ref_ad_node *z = d->tape + i;
        arb_init(&z->v);
        arb_init(&z->t);
        arb_init(&z->p);
        arb_init(&z->dp);
        arb_init(&z->q);
        arb_init(&z->dq);
        arb_init(&z->a);
        arb_init(&z->e);
    }
    d->g = _arb_vec_init(alg->dim);
    d->h = _arb_vec_init(alg->dim);
    d->pmu = _arb_vec_init(alg->dim);
    d->pw = _arb_vec_init(alg->dim);
    arb_init(&d->t0);
    arb_init(&d->time);
    if (t0[0] && (arb_set_str(&d->t0, t0, cprec) != 0 || !arb_is_finite(&d->t0)))
        rc = slpi_error_set(err, SLPI_EINPUT, "t0=%.40s: not a finite decimal", t0);
    arb_set(&d->time, &d->t0);
    if (rc == SLPI_OK) rc = check_constants(d, cprec, err);
    if (rc != SLPI_OK) slpi_ref_tape_clear(d);
    return rc;
}
