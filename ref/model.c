/* ref/model.c — a model described as data on the certified path (docs/models.md): an
 * algebra family (the structure of the built-in system with that algebra, ref/algebra.h)
 * and Hamiltonians H_0..H_M as parsed expressions (core/expr.h),
 * evaluated in Arb balls with their exact derivatives.
 *
 * How derivatives are certified (docs/models.md#certified-derivatives): forward-over-
 * reverse automatic differentiation over the expression's tape, in ball arithmetic.
 *  - forward sweep: each node i gets its value v_i and, for the directional derivative,
 *    its tangent t_i = D v_i(mu)[w]; each node also gets the local partials
 *    p = d v_i / d v_a, q = d v_i / d v_b evaluated as balls at the operands' balls, and
 *    (with a direction) their tangents dp = D p[w], dq = D q[w] (the closed-form second
 *    derivatives of the rule, e.g. d(sin)' = -sin x t_a);
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
 * The gradient in the algebra's pairing is xi_i = (dH/dmu_i) / w_i (w_i =
 * slpi_algebra_weight: 1 or 2, exact), for su(n) then its traceless part; the generator
 * in algebra coordinates is b = -xi for the matrix families (B = xi^* = -xi) and b = xi
 * for se(3) (dot pairing, the heavy top's convention), so dmu = sum ad*_{xi_k} mu o dS^k
 * exactly as for the built-in system of the same algebra.
 *
 * On su(n) a model's H means H at the traceless part of its argument, H(P mu) with
 * P mu = mu - (1/n) Tr mu I (docs/models.md#su-n): evaluate() reads P mu and the direction
 * P w, so the generator P grad H(P mu) and its derivative do not depend on the trace of
 * the point a scheme evaluates at (ISOMP's X~ has one, of order h^2). */
#include "ref/algebra.h"
#include "ref/matrix.h"
#include "core/expr.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    arb_struct v, t;          /* value, tangent */
    arb_struct p, dp, q, dq;  /* d v / d v_a, d v / d v_b, and their tangents */
    arb_struct a, e;          /* adjoint dH/dv, its tangent */
} ad_node;

typedef struct {
    slpi_model m;
    arb_ptr cst[1 + SLPI_MODEL_MAX_NOISE];   /* constants of H_k from their decimal text */
    ad_node *tape;                          /* scratch, max nodes over the H_k */
    int ntape;
    arb_ptr g, h;                           /* scratch: dH/dmu, D^2 H w */
    arb_ptr pmu, pw;                        /* su(n): P mu, P w (traceless) */
    int faulted;
    char why[160];
} model_data;

static void fault(model_data *d, int k, const slpi_expr_node *nd, const char *fmt, ...)
{
    if (d->faulted)
        return;
    d->faulted = 1;
    int n = k ? snprintf(d->why, sizeof d->why, "noise_H%d: col %d: ", k, nd->col)
              : snprintf(d->why, sizeof d->why, "H: col %d: ", nd->col);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->why + n, sizeof d->why - (size_t)n, fmt, ap);
    va_end(ap);
}

/* 1 unless the ball x reaches 0 or below (then a fault) */
static int positive(model_data *d, int k, const slpi_expr_node *nd, const arb_t x)
{
    if (arb_is_positive(x))
        return 1;
    fault(d, k, nd, "%s of a ball reaching 0 or below", slpi_expr_op_name(nd->op));
    return 0;
}

static int nonzero(model_data *d, int k, const slpi_expr_node *nd, const arb_t x,
                   const char *what)
{
    if (arb_is_nonzero(x))
        return 1;
    fault(d, k, nd, "%s", what);
    return 0;
}

/* Forward sweep for node i: value, and when grad the local partials; when tan (a
 * direction is given) the tangents t and dp, dq. Returns 0 on a domain error. */
static int forward(model_data *d, int k, int i, arb_srcptr mu, arb_srcptr w, int grad,
                   slong prec)
{
    const slpi_expr *e = &d->m.H[k];
    const slpi_expr_node *nd = e->node + i;
    ad_node *T = d->tape, *z = T + i;
    const ad_node *x = nd->a >= 0 ? T + nd->a : NULL, *y = nd->b >= 0 ? T + nd->b : NULL;
    int tan = w != NULL && e->dep[i], der = grad && e->dep[i];
    arb_t u, r;
    arb_init(u);
    arb_init(r);
    int ok = 1;
    switch (nd->op) {
    case SLPI_EXPR_CONST:
        arb_set_round(&z->v, d->cst[k] + nd->arg, prec);
        break;
    case SLPI_EXPR_COORD:
        arb_set(&z->v, mu + nd->arg);
        if (tan)
            arb_set(&z->t, w + nd->arg);
        break;
    case SLPI_EXPR_PI:
        arb_const_pi(&z->v, prec);
        break;
    case SLPI_EXPR_NEG:
        arb_neg(&z->v, &x->v);
        arb_set_si(&z->p, -1);
        arb_zero(&z->dp);
        if (tan)
            arb_neg(&z->t, &x->t);
        break;
    case SLPI_EXPR_ADD:
    case SLPI_EXPR_SUB:
        if (nd->op == SLPI_EXPR_ADD)
            arb_add(&z->v, &x->v, &y->v, prec);
        else
            arb_sub(&z->v, &x->v, &y->v, prec);
        arb_one(&z->p);
        arb_set_si(&z->q, nd->op == SLPI_EXPR_ADD ? 1 : -1);
        arb_zero(&z->dp);
        arb_zero(&z->dq);
        if (tan) {
            if (nd->op == SLPI_EXPR_ADD)
                arb_add(&z->t, &x->t, &y->t, prec);
            else
                arb_sub(&z->t, &x->t, &y->t, prec);
        }
        break;
    case SLPI_EXPR_MUL:                 /* p = y, q = x */
        arb_mul(&z->v, &x->v, &y->v, prec);
        arb_set(&z->p, &y->v);
        arb_set(&z->q, &x->v);
        if (tan) {
            arb_set(&z->dp, &y->t);
            arb_set(&z->dq, &x->t);
            arb_mul(&z->t, &x->t, &y->v, prec);
            arb_addmul(&z->t, &x->v, &y->t, prec);
        }
        break;
    case SLPI_EXPR_DIV:                 /* p = 1/y, q = -v/y */
        if (!(ok = nonzero(d, k, nd, &y->v, "division by a ball containing 0")))
            break;
        arb_div(&z->v, &x->v, &y->v, prec);
        arb_inv(&z->p, &y->v, prec);
        arb_mul(&z->q, &z->v, &z->p, prec);
        arb_neg(&z->q, &z->q);
        if (tan) {
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
        break;
    case SLPI_EXPR_POWI: {              /* v = x^n, p = n x^(n-1), dp = n (n-1) x^(n-2) t_a */
        slong n = nd->arg;
        if (n < 0 && !(ok = nonzero(d, k, nd, &x->v, "negative power of a ball containing 0")))
            break;
        if (n == 0) {
            arb_one(&z->v);
            arb_zero(&z->p);
            arb_zero(&z->dp);
            if (tan)
                arb_zero(&z->t);
            break;
        }
        /* x^m for any integer m: arb_pow_ui of x or of 1/x (exact products) */
        arb_t ix;
        arb_init(ix);
        if (n < 0)
            arb_inv(ix, &x->v, prec);
#define POW_SI(out, m)                                                          \
        do {                                                                    \
            slong m_ = (m);                                                     \
            if (m_ >= 0) arb_pow_ui(out, &x->v, (ulong)m_, prec);               \
            else arb_pow_ui(out, ix, (ulong)(-m_), prec);                       \
        } while (0)
        POW_SI(&z->v, n);
        if (der) {
            POW_SI(&z->p, n - 1);
            arb_mul_si(&z->p, &z->p, n, prec);
        }
        if (tan) {
            arb_mul(&z->t, &z->p, &x->t, prec);
            POW_SI(&z->dp, n - 2);
            arb_mul_si(&z->dp, &z->dp, n * (n - 1), prec);
            arb_mul(&z->dp, &z->dp, &x->t, prec);
        }
#undef POW_SI
        arb_clear(ix);
        break;
    }
    case SLPI_EXPR_POW:                 /* v = exp(y log x); p = y v / x, q = v log x */
        if (!(ok = positive(d, k, nd, &x->v)))
            break;
        arb_log(r, &x->v, prec);                 /* r = log x */
        arb_mul(u, &y->v, r, prec);
        arb_exp(&z->v, u, prec);
        arb_mul(&z->p, &y->v, &z->v, prec);
        arb_div(&z->p, &z->p, &x->v, prec);
        arb_mul(&z->q, &z->v, r, prec);
        if (tan) {
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
        break;
    case SLPI_EXPR_SQRT:                /* p = 1 / (2 v), dp = -p t / v */
        if (!(ok = positive(d, k, nd, &x->v)))
            break;
        arb_sqrt(&z->v, &x->v, prec);
        arb_inv(&z->p, &z->v, prec);
        arb_mul_2exp_si(&z->p, &z->p, -1);
        if (tan) {
            arb_mul(&z->t, &z->p, &x->t, prec);
            arb_mul(&z->dp, &z->p, &z->t, prec);
            arb_div(&z->dp, &z->dp, &z->v, prec);
            arb_neg(&z->dp, &z->dp);
        }
        break;
    case SLPI_EXPR_EXP:                 /* p = v, dp = v t_a */
        arb_exp(&z->v, &x->v, prec);
        arb_set(&z->p, &z->v);
        if (tan) {
            arb_mul(&z->t, &z->v, &x->t, prec);
            arb_set(&z->dp, &z->t);
        }
        break;
    case SLPI_EXPR_LOG:                 /* p = 1/x, dp = -p^2 t_a */
        if (!(ok = positive(d, k, nd, &x->v)))
            break;
        arb_log(&z->v, &x->v, prec);
        arb_inv(&z->p, &x->v, prec);
        if (tan) {
            arb_mul(&z->t, &z->p, &x->t, prec);
            arb_mul(&z->dp, &z->p, &z->t, prec);
            arb_neg(&z->dp, &z->dp);
        }
        break;
    case SLPI_EXPR_SIN:                 /* p = cos x, dp = -sin x t_a */
    case SLPI_EXPR_COS:                 /* p = -sin x, dp = -cos x t_a */
        arb_sin_cos(u, r, &x->v, prec);
        if (nd->op == SLPI_EXPR_SIN) {
            arb_set(&z->v, u);
            arb_set(&z->p, r);
        } else {
            arb_set(&z->v, r);
            arb_neg(&z->p, u);
        }
        if (tan) {
            arb_mul(&z->t, &z->p, &x->t, prec);
            arb_mul(&z->dp, &z->v, &x->t, prec);
            arb_neg(&z->dp, &z->dp);
        }
        break;
    case SLPI_EXPR_TAN:                 /* v = sin / cos, p = 1 / cos^2, dp = 2 v p t_a */
        arb_sin_cos(u, r, &x->v, prec);
        if (!(ok = nonzero(d, k, nd, r, "tan of a ball whose cosine contains 0")))
            break;
        arb_div(&z->v, u, r, prec);
        arb_sqr(&z->p, r, prec);
        arb_inv(&z->p, &z->p, prec);
        if (tan) {
            arb_mul(&z->t, &z->p, &x->t, prec);
            arb_mul(&z->dp, &z->v, &z->t, prec);
            arb_mul_2exp_si(&z->dp, &z->dp, 1);
        }
        break;
    case SLPI_EXPR_ATAN:                /* p = 1 / (1 + x^2), dp = -2 x p^2 t_a */
        arb_atan(&z->v, &x->v, prec);
        arb_sqr(u, &x->v, prec);
        arb_add_ui(u, u, 1, prec);
        arb_inv(&z->p, u, prec);
        if (tan) {
            arb_mul(&z->t, &z->p, &x->t, prec);
            arb_mul(&z->dp, &z->p, &z->t, prec);
            arb_mul(&z->dp, &z->dp, &x->v, prec);
            arb_mul_2exp_si(&z->dp, &z->dp, 1);
            arb_neg(&z->dp, &z->dp);
        }
        break;
    case SLPI_EXPR_SINH:                /* p = cosh x, dp = sinh x t_a */
    case SLPI_EXPR_COSH:                /* p = sinh x, dp = cosh x t_a */
        arb_sinh_cosh(u, r, &x->v, prec);
        if (nd->op == SLPI_EXPR_SINH) {
            arb_set(&z->v, u);
            arb_set(&z->p, r);
        } else {
            arb_set(&z->v, r);
            arb_set(&z->p, u);
        }
        if (tan) {
            arb_mul(&z->t, &z->p, &x->t, prec);
            arb_mul(&z->dp, &z->v, &x->t, prec);
        }
        break;
    case SLPI_EXPR_TANH:                /* p = 1 - v^2, dp = -2 v t */
        arb_tanh(&z->v, &x->v, prec);
        arb_sqr(u, &z->v, prec);
        arb_sub_ui(&z->p, u, 1, prec);
        arb_neg(&z->p, &z->p);
        if (tan) {
            arb_mul(&z->t, &z->p, &x->t, prec);
            arb_mul(&z->dp, &z->v, &z->t, prec);
            arb_mul_2exp_si(&z->dp, &z->dp, 1);
            arb_neg(&z->dp, &z->dp);
        }
        break;
    default:
        fault(d, k, nd, "unknown operation %d", nd->op);
        ok = 0;
    }
    if (!ok) {
        arb_indeterminate(&z->v);
        arb_indeterminate(&z->t);
    } else if (w != NULL && !e->dep[i]) {
        arb_zero(&z->t);                 /* read by the tangents of dependent nodes */
    }
    arb_clear(u);
    arb_clear(r);
    return ok;
}

/* out = the traceless part of the su(n) coordinates x: Im X_aa less their mean, the
 * other coordinates as they are (out may be x). */
static void traceless(arb_ptr out, arb_srcptr x, int n, int dim, slong prec)
{
    arb_t mean;
    arb_init(mean);
    for (int a = 0; a < n; a++)
        arb_add(mean, mean, x + a, prec);
    arb_div_si(mean, mean, n, prec);
    for (int a = 0; a < n; a++)
        arb_sub(out + a, x + a, mean, prec);
    if (out != x)
        _arb_vec_set(out + n, x + n, dim - n);
    arb_clear(mean);
}

/* H_k at mu into *val (may be NULL); with grad, dH/dmu into d->g; with w, also
 * D^2 H_k(mu) w into d->h; on su(n) at P mu along P w. Returns 0 after a domain error
 * (outputs indeterminate). */
static int evaluate(model_data *d, int k, arb_t val, arb_srcptr mu, arb_srcptr w, int grad,
                    slong prec)
{
    const slpi_expr *e = &d->m.H[k];
    ad_node *T = d->tape;
    int n = e->n, dim = d->m.alg.dim, ok = 1;
    if (d->m.alg.kind == SLPI_ALGEBRA_SUN) {
        traceless(d->pmu, mu, d->m.alg.n, dim, prec);
        mu = d->pmu;
        if (w != NULL) {
            traceless(d->pw, w, d->m.alg.n, dim, prec);
            w = d->pw;
        }
    }
    for (int i = 0; i < n && ok; i++)
        ok = forward(d, k, i, mu, w, grad, prec);
    if (val != NULL) {
        if (ok)
            arb_set(val, &T[n - 1].v);
        else
            arb_indeterminate(val);
    }
    if (!grad)
        return ok;
    if (!ok) {
        for (int j = 0; j < dim; j++) {
            arb_indeterminate(d->g + j);
            arb_indeterminate(d->h + j);
        }
        return 0;
    }
    _arb_vec_zero(d->g, dim);
    if (w != NULL)
        _arb_vec_zero(d->h, dim);
    for (int i = 0; i < n; i++) {
        arb_zero(&T[i].a);
        arb_zero(&T[i].e);
    }
    arb_one(&T[n - 1].a);
    for (int i = n - 1; i >= 0; i--) {
        const slpi_expr_node *nd = e->node + i;
        ad_node *z = T + i;
        if (!e->dep[i])
            continue;
        if (nd->op == SLPI_EXPR_COORD) {
            arb_add(d->g + nd->arg, d->g + nd->arg, &z->a, prec);
            if (w != NULL)
                arb_add(d->h + nd->arg, d->h + nd->arg, &z->e, prec);
            continue;
        }
        for (int s = 0; s < 2; s++) {
            int o = s ? nd->b : nd->a;
            if (o < 0 || !e->dep[o])
                continue;
            arb_srcptr p = s ? &z->q : &z->p, dp = s ? &z->dq : &z->dp;
            arb_addmul(&T[o].a, &z->a, p, prec);
            if (w != NULL) {
                arb_addmul(&T[o].e, &z->e, p, prec);
                arb_addmul(&T[o].e, &z->a, dp, prec);
            }
        }
    }
    return 1;
}

/* b = the generator of H_k in algebra coordinates from the derivative vector g */
static void to_generator(const slpi_ref_system *s, arb_ptr b, arb_srcptr g, slong prec)
{
    const model_data *d = s->data;
    const slpi_algebra *alg = &d->m.alg;
    for (int i = 0; i < alg->dim; i++) {
        if (slpi_algebra_weight(alg, i) == 2)
            arb_mul_2exp_si(b + i, g + i, -1);
        else
            arb_set(b + i, g + i);
    }
    if (alg->kind == SLPI_ALGEBRA_SUN)
        traceless(b, b, alg->n, alg->dim, prec);
    if (alg->kind != SLPI_ALGEBRA_SE3)
        _arb_vec_neg(b, b, alg->dim);
}

/* b = the generator of H_k at mu (w != NULL: its derivative along w), packed */
static void md_gen_packed(const slpi_ref_system *s, int k, arb_ptr b, arb_srcptr mu, arb_srcptr w,
                          slong prec)
{
    model_data *d = s->data;
    evaluate(d, k, NULL, mu, w, 1, prec);
    to_generator(s, b, w != NULL ? d->h : d->g, prec);
}

/* the su(n) and so(3)^k packings with the interface's signature */
static void sun_m_unpack(const slpi_ref_system *s, acb_mat_t X, arb_srcptr x, slong prec)
{
    slpi_ref_sun_unpack(X, x, s->N, prec);
}

static void sun_m_pack(const slpi_ref_system *s, arb_ptr x, const acb_mat_t X, slong prec)
{
    slpi_ref_sun_pack(x, X, s->N, prec);
}

static void so3k_m_unpack(const slpi_ref_system *s, acb_mat_t X, arb_srcptr x, slong prec)
{
    slpi_ref_so3k_m_unpack(X, x, s->dim / 3, 3, prec);   /* hat blocks */
}

static void so3k_m_pack(const slpi_ref_system *s, arb_ptr x, const acb_mat_t X, slong prec)
{
    slpi_ref_so3k_m_pack(x, X, s->dim / 3, 3, prec);
}

static void md_invariants(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec)
{
    model_data *d = s->data;
    evaluate(d, 0, out + 0, x, NULL, 0, prec);
    switch (d->m.alg.kind) {
    case SLPI_ALGEBRA_SO3:
        arb_dot(out + 1, NULL, 0, x, 1, x, 1, 3, prec);              /* |x|^2 */
        break;
    case SLPI_ALGEBRA_SE3:
        arb_dot(out + 1, NULL, 0, x + 3, 1, x + 3, 1, 3, prec);      /* |gamma|^2 */
        arb_dot(out + 2, NULL, 0, x, 1, x + 3, 1, 3, prec);          /* pi . gamma */
        break;
    case SLPI_ALGEBRA_SON:
        slpi_ref_so_casimirs(s, out, x, prec);
        break;
    case SLPI_ALGEBRA_SUN:
        slpi_ref_su_casimirs(s, out, x, prec);
        break;
    case SLPI_ALGEBRA_SO3K:
        slpi_ref_so3k_casimirs(s, out, x, prec);
        break;
    }
}

static int md_fault(const slpi_ref_system *s, char *why, size_t why_len)
{
    model_data *d = s->data;
    if (!d->faulted)
        return 0;
    snprintf(why, why_len, "%s", d->why);
    d->faulted = 0;
    return 1;
}

static void md_clear(slpi_ref_system *s)
{
    model_data *d = s->data;
    for (int k = 0; k <= d->m.M; k++)
        _arb_vec_clear(d->cst[k], d->m.H[k].nconst > 0 ? d->m.H[k].nconst : 1);
    for (int i = 0; i < d->ntape; i++) {
        ad_node *z = d->tape + i;
        arb_clear(&z->v); arb_clear(&z->t); arb_clear(&z->p); arb_clear(&z->dp);
        arb_clear(&z->q); arb_clear(&z->dq); arb_clear(&z->a); arb_clear(&z->e);
    }
    flint_free(d->tape);
    _arb_vec_clear(d->g, d->m.alg.dim);
    _arb_vec_clear(d->h, d->m.alg.dim);
    _arb_vec_clear(d->pmu, d->m.alg.dim);
    _arb_vec_clear(d->pw, d->m.alg.dim);
    slpi_model_free(&d->m);
    flint_free(d);
}

int slpi_ref_sys_model(slpi_ref_system *s, const slpi_problem *p, slpi_error *err)
{
    /* constants: far below any step radius, as the built-in systems' parameters */
    const slong cprec = 2 * p->prec_max + 64;
    model_data *d = flint_calloc(1, sizeof *d);
    int rc = slpi_model_parse(&d->m, p, err);
    if (rc != SLPI_OK) {
        flint_free(d);
        return rc;
    }
    const slpi_algebra *alg = &d->m.alg;
    for (int k = 0; k <= d->m.M; k++) {
        const slpi_expr *e = &d->m.H[k];
        d->cst[k] = _arb_vec_init(e->nconst > 0 ? e->nconst : 1);
        for (int c = 0; c < e->nconst; c++) {
            const char *t = e->ctext[c];
            if (arb_set_str(d->cst[k] + c, t[0] == '+' ? t + 1 : t, cprec) != 0 ||
                !arb_is_finite(d->cst[k] + c))
                rc = slpi_error_set(err, SLPI_EINPUT, "%s%d: constant '%s' is not a finite decimal",
                                    k ? "noise_H" : "H", k, t);
        }
        if (e->n > d->ntape)
            d->ntape = e->n;
    }
    d->tape = flint_calloc((size_t)d->ntape, sizeof(ad_node));
    for (int i = 0; i < d->ntape; i++) {
        ad_node *z = d->tape + i;
        arb_init(&z->v); arb_init(&z->t); arb_init(&z->p); arb_init(&z->dp);
        arb_init(&z->q); arb_init(&z->dq); arb_init(&z->a); arb_init(&z->e);
    }
    d->g = _arb_vec_init(alg->dim);
    d->h = _arb_vec_init(alg->dim);
    d->pmu = _arb_vec_init(alg->dim);
    d->pw = _arb_vec_init(alg->dim);
    s->data = d;
    if (rc != SLPI_OK) {
        md_clear(s);
        s->data = NULL;
        return rc;
    }
    s->p = p;
    s->clear = md_clear;
    s->dim = s->state_dim = alg->dim;
    s->M = d->m.M;
    s->h0_quadratic = 0;
    s->fault = md_fault;
    s->invariants = md_invariants;
    s->inv_name[0] = "H0";
    s->inv_delta_name[0] = "H0-H0(x0)";
    switch (alg->kind) {
    case SLPI_ALGEBRA_SE3:
        s->N = 0;
        s->gdim = 6;
        s->coad = slpi_ref_se3_coad;
        s->lie = slpi_ref_se3_lie;
        s->orbit = slpi_ref_se3_orbit;
        s->dorbit = slpi_ref_se3_dorbit;
        s->n_inv = 3;
        s->inv_name[1] = "C1=|gamma|^2";
        s->inv_delta_name[1] = "C1-C1(x0)";
        s->inv_name[2] = "C2=pi.gamma";
        s->inv_delta_name[2] = "C2-C2(x0)";
        break;
    case SLPI_ALGEBRA_SO3:
        s->N = 3;
        s->m_unpack = slpi_ref_so3_m_unpack;
        s->m_pack = slpi_ref_so3_m_pack;
        s->n_inv = 2;
        s->inv_name[1] = "|x|^2";
        s->inv_delta_name[1] = "|x|^2-|x0|^2";
        break;
    case SLPI_ALGEBRA_SON:
        s->N = alg->n;
        s->m_unpack = slpi_ref_so_m_unpack;
        s->m_pack = slpi_ref_so_m_pack;
        slpi_ref_so_casimir_names(s);
        break;
    case SLPI_ALGEBRA_SUN:
        s->N = alg->n;
        s->m_unpack = sun_m_unpack;
        s->m_pack = sun_m_pack;
        slpi_ref_su_casimir_names(s);
        break;
    case SLPI_ALGEBRA_SO3K:
        s->N = 3 * alg->n;
        s->m_unpack = so3k_m_unpack;
        s->m_pack = so3k_m_pack;
        slpi_ref_so3k_casimir_names(s);
        break;
    }
    s->gen_packed = md_gen_packed;
    if (s->N > 0) {
        slpi_ref_matrix_attach(s);
    }
    if (alg->kind == SLPI_ALGEBRA_SO3) {       /* closed forms of the hat map */
        s->coad = slpi_ref_so3_coad;
        s->m_sandwich = slpi_ref_so3_m_sandwich;
    }
    s->gen = slpi_ref_packed_gen;
    s->dgen = slpi_ref_packed_dgen;
    return SLPI_OK;
}
