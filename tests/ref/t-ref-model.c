/* t-ref-model — the certified model system (ref/model-tape.c, ref/model.c, docs/models.md#certified-derivatives):
 *  (a) derivatives two ways: the forward-over-reverse ball AD against Taylor-mode
 *      power series of H(mu + t w) in Arb's series arithmetic (arb_poly_*_series) over the
 *      same parsed expression (c1 = grad H . w, c2 = w^T Hess H w / 2, mixed terms by
 *      polarization), on every function of the grammar and on every algebra's pairing
 *      weights, traceless projection and sign; a polynomial against its derivative in
 *      closed form; the model rigid body against the built-in's gen/dgen;
 *  (b) the built-ins restated as models, stepped: t-ref-model-steps.c;
 *  (c) domain errors (log, sqrt, real power, division, negative power, tan) give
 *      indeterminate outputs and a fault naming the key and column, and a step UNABLE;
 *  (d) a wide input ball (radius 0.05) contains the gradient and Hessian action at its
 *      corners and at random points of it, for a rich expression and for each function
 *      of the grammar alone (so that no other term's radius covers its own);
 *  (e) the tape's H, gradient and Hessian action over boxes wide in some coordinates
 *      contain the same at the corners and interior points at 256 bits (boxes where
 *      one rule's second-derivative term stands alone: x1^x3 near x3 = 0).
 * Balls are compared by overlap and a radius bound (an indeterminate ball overlaps
 * everything, so every compared ball must also be finite and narrow: tests/ref/modelutil.h). */
#include "core/expr.h"
#include "ref/model-tape.h"
#include "modelutil.h"

/* ------------------------------------------------- (a) Taylor-mode series */

#define LEN 3

static void set_const(arb_t c, const char *t)
{
    arb_set_str(c, t[0] == '+' ? t + 1 : t, 2 * PREC);
}

/* out = H(mu + t w) mod t^3, by Arb's power-series functions over the tape */
static void series_eval(arb_poly_t out, const slpi_expr *e, arb_srcptr mu, arb_srcptr w, slong prec)
{
    arb_poly_struct *v = flint_malloc((size_t)e->n * sizeof *v);
    arb_poly_t t, u;
    arb_poly_init(t);
    arb_poly_init(u);
    arb_t c;
    arb_init(c);
    for (int i = 0; i < e->n; i++) {
        const slpi_expr_node *nd = e->node + i;
        arb_poly_struct *z = v + i;
        const arb_poly_struct *x = nd->a >= 0 ? v + nd->a : NULL, *y = nd->b >= 0 ? v + nd->b : NULL;
        arb_poly_init(z);
        switch (nd->op) {
        case SLPI_EXPR_CONST:
            set_const(c, e->ctext[nd->arg]);
            arb_poly_set_arb(z, c);
            break;
        case SLPI_EXPR_COORD:
            arb_poly_set_coeff_arb(z, 0, mu + nd->arg);
            arb_poly_set_coeff_arb(z, 1, w + nd->arg);
            break;
        case SLPI_EXPR_PI:
            arb_const_pi(c, prec);
            arb_poly_set_arb(z, c);
            break;
        case SLPI_EXPR_NEG:
            arb_poly_neg(z, x);
            break;
        case SLPI_EXPR_ADD:
            arb_poly_add(z, x, y, prec);
            break;
        case SLPI_EXPR_SUB:
            arb_poly_sub(z, x, y, prec);
            break;
        case SLPI_EXPR_MUL:
            arb_poly_mullow(z, x, y, LEN, prec);
            break;
        case SLPI_EXPR_DIV:
            arb_poly_div_series(z, x, y, LEN, prec);
            break;
        case SLPI_EXPR_POWI:
            if (nd->arg >= 0) {
                arb_poly_pow_ui_trunc_binexp(z, x, (ulong)nd->arg, LEN, prec);
            } else {
                arb_poly_inv_series(t, x, LEN, prec);
                arb_poly_pow_ui_trunc_binexp(z, t, (ulong)(-nd->arg), LEN, prec);
            }
            break;
        case SLPI_EXPR_POW:
            arb_poly_pow_series(z, x, y, LEN, prec);
            break;
        case SLPI_EXPR_SQRT:
            arb_poly_sqrt_series(z, x, LEN, prec);
            break;
        case SLPI_EXPR_EXP:
            arb_poly_exp_series(z, x, LEN, prec);
            break;
        case SLPI_EXPR_LOG:
            arb_poly_log_series(z, x, LEN, prec);
            break;
        case SLPI_EXPR_SIN:
            arb_poly_sin_series(z, x, LEN, prec);
            break;
        case SLPI_EXPR_COS:
            arb_poly_cos_series(z, x, LEN, prec);
            break;
        case SLPI_EXPR_TAN:
            arb_poly_tan_series(z, x, LEN, prec);
            break;
        case SLPI_EXPR_ATAN:
            arb_poly_atan_series(z, x, LEN, prec);
            break;
        case SLPI_EXPR_SINH:
            arb_poly_sinh_series(z, x, LEN, prec);
            break;
        case SLPI_EXPR_COSH:
            arb_poly_cosh_series(z, x, LEN, prec);
            break;
        case SLPI_EXPR_TANH:
            arb_poly_sinh_series(t, x, LEN, prec);
            arb_poly_cosh_series(u, x, LEN, prec);
            arb_poly_div_series(z, t, u, LEN, prec);
            break;
        }
    }
    arb_poly_set(out, v + e->n - 1);
    for (int i = 0; i < e->n; i++) arb_poly_clear(v + i);
    flint_free(v);
    arb_poly_clear(t);
    arb_poly_clear(u);
    arb_clear(c);
}

/* coefficient j of H(mu + t w) */
static void series_coeff(arb_t out, const slpi_expr *e, arb_srcptr mu, arb_srcptr w, int j)
{
    arb_poly_t P;
    arb_poly_init(P);
    series_eval(P, e, mu, w, PREC);
    arb_poly_get_coeff_arb(out, P, j);
    arb_poly_clear(P);
}

/* sum_i wt_i s b_i u_i: undoes the generator's weights and sign, paired with u */
static void unweigh(arb_t out, const slpi_algebra *a, arb_srcptr b, arb_srcptr u)
{
    arb_t t;
    arb_init(t);
    arb_zero(out);
    for (int i = 0; i < a->dim; i++) {
        arb_mul(t, b + i, u + i, PREC);
        arb_mul_si(t, t, slpi_algebra_weight(a, i), PREC);
        arb_add(out, out, t, PREC);
    }
    if (a->kind != SLPI_ALGEBRA_SE3) arb_neg(out, out);
    arb_clear(t);
}

/* a random direction, with zero trace on su(n)'s diagonal (where the projection acts) */
static void rand_dir(arb_ptr u, const slpi_algebra *a)
{
    double tr = 0;
    for (int i = 0; i < a->dim; i++) {
        double v = test_rand_uniform(-1, 1);
        if (a->kind == SLPI_ALGEBRA_SUN && i < a->n) {
            if (i == a->n - 1) v = -tr;
            tr += v;
        }
        arb_set_d(u + i, v);
    }
}

/* out = mu with su(n)'s diagonal less its mean (the traceless part), written here */
static void traceless_part(arb_ptr out, arb_srcptr mu, const slpi_algebra *a)
{
    arb_t m;
    arb_init(m);
    _arb_vec_set(out, mu, a->dim);
    for (int i = 0; i < a->n; i++) arb_add(m, m, mu + i, PREC);
    arb_div_ui(m, m, a->n, PREC);
    for (int i = 0; i < a->n; i++) arb_sub(out + i, mu + i, m, PREC);
    arb_clear(m);
}

/* gen/dgen of H_k against the series at a random point of the box [lo, hi]^dim, on su(n)
 * the series at the point's traceless part */
static void check_series(const char *alg, const char *H, double lo, double hi)
{
    slpi_problem p;
    slpi_ref_system s;
    model_problem(&p, SLPI_SCHEME_TMK, alg, H, 0, NULL);
    if (!sys_init(&s, &p)) return;
    const slpi_model *m = ((const slpi_ref_tape *)s.data)->m;
    const slpi_algebra *a = &m->alg;
    const slpi_expr *e = &m->H[0];
    int n = a->dim;
    arb_ptr mu = _arb_vec_init(n), w = _arb_vec_init(n), u = _arb_vec_init(n), b = _arb_vec_init(n),
            db = _arb_vec_init(n), pw = _arb_vec_init(n), pm = _arb_vec_init(n);
    arb_t x, y, z;
    arb_init(x);
    arb_init(y);
    arb_init(z);
    for (long it = 0; it < test_iters(20); it++) {
        for (int i = 0; i < n; i++) arb_set_d(mu + i, test_rand_uniform(lo, hi));
        rand_dir(w, a);
        rand_dir(u, a);
        if (a->kind == SLPI_ALGEBRA_SUN) /* H means H(P mu) (docs/models.md#su-n) */
            traceless_part(pm, mu, a);
        else
            _arb_vec_set(pm, mu, n);
        s.gen(&s, 0, b, mu, PREC);
        s.dgen(&s, 0, db, mu, w, PREC);
        /* grad H . w */
        unweigh(x, a, b, w);
        series_coeff(y, e, pm, w, 1);
        TEST_CHECKF(agree(x, y, 1, "grad . w"), "%s: grad . w (AD vs series)", alg);
        /* w^T Hess w = 2 c2(w) */
        unweigh(x, a, db, w);
        series_coeff(y, e, pm, w, 2);
        arb_mul_2exp_si(y, y, 1);
        TEST_CHECKF(agree(x, y, 1, "w Hess w"), "%s: w Hess w (AD vs series)", alg);
        /* u^T Hess w = (c2(u + w) - c2(u - w)) / 2 */
        unweigh(x, a, db, u);
        _arb_vec_add(pw, u, w, n, PREC);
        series_coeff(y, e, pm, pw, 2);
        _arb_vec_sub(pw, u, w, n, PREC);
        series_coeff(z, e, pm, pw, 2);
        arb_sub(y, y, z, PREC);
        arb_mul_2exp_si(y, y, -1);
        TEST_CHECKF(agree(x, y, 1, "u Hess w"), "%s: u Hess w (AD vs series)", alg);
        /* the value: invariant 0 */
        arb_ptr inv = _arb_vec_init(s.n_inv);
        s.invariants(&s, inv, mu, PREC);
        series_coeff(y, e, pm, w, 0);
        TEST_CHECKF(agree(inv, y, 1, "H"), "%s: H value", alg);
        _arb_vec_clear(inv, s.n_inv);
    }
    arb_clear(x);
    arb_clear(y);
    arb_clear(z);
    _arb_vec_clear(mu, n);
    _arb_vec_clear(w, n);
    _arb_vec_clear(u, n);
    _arb_vec_clear(b, n);
    _arb_vec_clear(db, n);
    _arb_vec_clear(pw, n);
    _arb_vec_clear(pm, n);
    slpi_ref_system_clear(&s);
}

/* su(n): H means H at the traceless part (docs/models.md#su-n). A Hamiltonian that reads
 * Im X_aa one by one against the same text with each Im X_aa replaced by its traceless
 * part written out: gen, dgen and the value at points and along directions with a trace
 * give balls that intersect. */
#define TR_M "(ImX_0_0 + ImX_1_1 + ImX_2_2)/3"
#define TR_H(d0, d1, d2) d0 "^2*" d1 " + 2*" d2 "^3 + ReX_0_1*" d0 " + exp(" d1 ")*ImX_1_2 + ReX_0_2^2"
static void check_traceless(void)
{
    static const char *const H[2] = { TR_H("ImX_0_0", "ImX_1_1", "ImX_2_2"),
                                      TR_H("(ImX_0_0 - " TR_M ")", "(ImX_1_1 - " TR_M ")", "(ImX_2_2 - " TR_M ")") };
    slpi_problem p[2];
    slpi_ref_system s[2];
    for (int j = 0; j < 2; j++) model_problem(p + j, SLPI_SCHEME_TMK, "su(3)", H[j], 0, NULL);
    if (!sys_init(s, p)) return;
    if (!sys_init(s + 1, p + 1)) {
        slpi_ref_system_clear(s);
        return;
    }
    int n = 9;
    arb_ptr mu = _arb_vec_init(n), w = _arb_vec_init(n), b = _arb_vec_init(4 * n), inv = _arb_vec_init(2 * s->n_inv);
    for (long it = 0; it < test_iters(20); it++) {
        for (int i = 0; i < n; i++) {
            arb_set_d(mu + i, test_rand_uniform(-0.9, 0.9));
            arb_set_d(w + i, test_rand_uniform(-1, 1));
        }
        for (int j = 0; j < 2; j++) {
            s[j].gen(s + j, 0, b + 2 * j * n, mu, PREC);
            s[j].dgen(s + j, 0, b + (2 * j + 1) * n, mu, w, PREC);
            s[j].invariants(s + j, inv + j * s->n_inv, mu, PREC);
        }
        TEST_CHECK(agree(b, b + 2 * n, n, "su(3) gen at a point with a trace"));
        TEST_CHECK(agree(b + n, b + 3 * n, n, "su(3) dgen along a direction with a trace"));
        TEST_CHECK(agree(inv, inv + s->n_inv, 1, "su(3) H at a point with a trace"));
    }
    _arb_vec_clear(mu, n);
    _arb_vec_clear(w, n);
    _arb_vec_clear(b, 4 * n);
    _arb_vec_clear(inv, 2 * s->n_inv);
    slpi_ref_system_clear(s);
    slpi_ref_system_clear(s + 1);
}

/* H = x1^3 x2 - 2 x2 x3^2 on so3 (dot pairing): gen = -grad, dgen = -Hess w in closed form */
static void check_closed_form(void)
{
    slpi_problem p;
    slpi_ref_system s;
    model_problem(&p, SLPI_SCHEME_TMK, "so3", "x1^3*x2 - 2*x2*x3^2", 0, NULL);
    if (!sys_init(&s, &p)) return;
    arb_ptr mu = _arb_vec_init(3), w = _arb_vec_init(3), b = _arb_vec_init(3), c = _arb_vec_init(3);
    for (long it = 0; it < test_iters(20); it++) {
        double x[3], v[3];
        for (int i = 0; i < 3; i++) {
            x[i] = test_rand_uniform(-2, 2);
            v[i] = test_rand_uniform(-2, 2);
            arb_set_d(mu + i, x[i]);
            arb_set_d(w + i, v[i]);
        }
        /* exact in binary64 to ~1e-15; the comparison is by a relative 1e-12 */
        double g[3] = { 3 * x[0] * x[0] * x[1], x[0] * x[0] * x[0] - 2 * x[2] * x[2], -4 * x[1] * x[2] };
        double hw[3] = { 6 * x[0] * x[1] * v[0] + 3 * x[0] * x[0] * v[1], 3 * x[0] * x[0] * v[0] - 4 * x[2] * v[2],
                         -4 * x[2] * v[1] - 4 * x[1] * v[2] };
        s.gen(&s, 0, b, mu, PREC);
        s.dgen(&s, 0, c, mu, w, PREC);
        for (int i = 0; i < 3; i++) {
            double gb = arf_get_d(arb_midref(b + i), ARF_RND_NEAR);
            double cb = arf_get_d(arb_midref(c + i), ARF_RND_NEAR);
            TEST_CHECKF(fabs(gb + g[i]) <= 1e-12 * (1 + fabs(g[i])), "closed form: gen[%d] = %.17g, expected %.17g", i,
                        gb, -g[i]);
            TEST_CHECKF(fabs(cb + hw[i]) <= 1e-12 * (1 + fabs(hw[i])), "closed form: dgen[%d] = %.17g, expected %.17g",
                        i, cb, -hw[i]);
        }
    }
    _arb_vec_clear(mu, 3);
    _arb_vec_clear(w, 3);
    _arb_vec_clear(b, 3);
    _arb_vec_clear(c, 3);
    slpi_ref_system_clear(&s);
}

/* ------------------------------------------------------- (c) domain errors */

static void check_domain(const char *H, const char *where, double x1)
{
    slpi_problem p;
    slpi_ref_system s;
    char why[200];
    /* an explicit scheme: its own step never fails, so UNABLE comes from the fault */
    model_problem(&p, SLPI_SCHEME_RKMK_LE, "so3", H, 0, NULL);
    if (!sys_init(&s, &p)) return;
    arb_ptr mu = _arb_vec_init(3), b = _arb_vec_init(3);
    arb_set_d(mu + 0, x1);
    arb_set_d(mu + 1, 0.5);
    arb_set_d(mu + 2, 0.25);
    TEST_CHECKF(!s.fault(&s, why, sizeof why), "%s: fault before any evaluation", H);
    s.gen(&s, 0, b, mu, PREC);
    int f = s.fault(&s, why, sizeof why);
    TEST_CHECKF(f && strstr(why, where) != NULL, "%s: fault %d '%s', expected '%s'", H, f, f ? why : "", where);
    for (int i = 0; i < 3; i++) TEST_CHECKF(!arb_is_finite(b + i), "%s: gen[%d] finite after a domain error", H, i);
    TEST_CHECKF(!s.fault(&s, why, sizeof why), "%s: fault not cleared", H);
    /* a ball around a valid point that reaches the boundary */
    arb_set_d(mu + 0, 0.5);
    mag_set_d(arb_radref(mu + 0), 0.6);
    s.dgen(&s, 0, b, mu, mu, PREC);
    TEST_CHECKF(s.fault(&s, why, sizeof why), "%s: a ball reaching the boundary passed", H);
    /* the whole step: UNABLE, with the reason */
    slpi_ref *r = NULL;
    slpi_error err;
    p.sys.n_x0 = 3;
    p.sys.x0[0] = x1;
    p.sys.x0[1] = 0.5;
    p.sys.x0[2] = 0.25;
    p.grid.h = 0.01;
    p.grid.steps = 1;
    if (slpi_ref_create(&r, &p, &err) == SLPI_OK) {
        arb_ptr x = _arb_vec_init(3);
        slpi_step_info info;
        for (int i = 0; i < 3; i++) arb_set_d(x + i, p.sys.x0[i]);
        slpi_step_status st = slpi_ref_step(r, x, NULL, &info);
        TEST_CHECKF(st == SLPI_STEP_UNABLE && strstr(slpi_ref_unable_reason(r), where), "%s: step status %d (%s)", H,
                    (int)st, slpi_ref_unable_reason(r));
        _arb_vec_clear(x, 3);
        slpi_ref_free(r);
    } else {
        TEST_CHECKF(0, "%s: slpi_ref_create: %s", H, err.msg);
    }
    _arb_vec_clear(mu, 3);
    _arb_vec_clear(b, 3);
    slpi_ref_system_clear(&s);
}

/* ------------------------------------------------------- (d) wide balls */

static void check_wide(const char *alg, const char *H, double lo, double hi, double rad)
{
    slpi_problem p;
    slpi_ref_system s;
    model_problem(&p, SLPI_SCHEME_TMK, alg, H, 0, NULL);
    if (!sys_init(&s, &p)) return;
    int n = s.dim, g = s.gdim;
    arb_ptr mu = _arb_vec_init(n), w = _arb_vec_init(n), pt = _arb_vec_init(n), b = _arb_vec_init(g),
            db = _arb_vec_init(g), bp = _arb_vec_init(g), dbp = _arb_vec_init(g);
    for (long it = 0; it < test_iters(10); it++) {
        double c[64];
        for (int i = 0; i < n; i++) {
            c[i] = test_rand_uniform(lo, hi);
            arb_set_d(mu + i, c[i]);
            mag_set_d(arb_radref(mu + i), rad);
            arb_set_d(w + i, test_rand_uniform(-1, 1));
        }
        s.gen(&s, 0, b, mu, PREC);
        s.dgen(&s, 0, db, mu, w, PREC);
        for (int i = 0; i < g; i++)
            TEST_CHECKF(arb_is_finite(b + i) && arb_is_finite(db + i), "%s: wide ball not finite", H);
        for (int r = 0; r < 16; r++) {
            /* 8 corners of the box (random ones for n > 3), then 8 interior points */
            unsigned corner = r < 8 && n <= 3 ? (unsigned)r : (unsigned)test_rand_int(1 << 30);
            for (int i = 0; i < n; i++)
                arb_set_d(pt + i, c[i] + rad * (r < 8 ? ((corner >> i) & 1 ? 1.0 : -1.0) : test_rand_uniform(-1, 1)));
            s.gen(&s, 0, bp, pt, PREC);
            s.dgen(&s, 0, dbp, pt, w, PREC);
            for (int i = 0; i < g; i++) {
                TEST_CHECKF(arb_contains(b + i, bp + i), "%s: gen[%d] at a point of the ball escapes", H, i);
                TEST_CHECKF(arb_contains(db + i, dbp + i), "%s: dgen[%d] at a point of the ball escapes", H, i);
            }
        }
    }
    _arb_vec_clear(mu, n);
    _arb_vec_clear(w, n);
    _arb_vec_clear(pt, n);
    _arb_vec_clear(b, g);
    _arb_vec_clear(db, g);
    _arb_vec_clear(bp, g);
    _arb_vec_clear(dbp, g);
    slpi_ref_system_clear(&s);
}

/* (e) the tape's own second derivatives over a wide box: H_k, dH/dmu and D^2 H w from
 * slpi_ref_tape_eval over a box wide in some coordinates at PREC bits must contain the
 * same at every corner of the box and at 8 interior points at 256 bits. The boxes are
 * chosen so that one rule's term carries the second derivative alone and the rest is
 * nearly constant over the box (no other term's radius covers it): x1^x3 with x3 near 0,
 * wide in x1, is 1/x1 times a nearly constant ball in both mixed partials (d/dx3 of
 * dH/dx1 along w = e3: the power rule's dp; d/dx1 of dH/dx3 along w = e1: its dq), whose
 * enclosure must follow 1/x1 over the box, not its value at the midpoint. */
typedef struct {
    const char *H;
    double c[3], r[3], w[3];
} tape_box;

static const tape_box tape_boxes[] = {
    { "x1^x3", { 0.4, 0.5, 0.01 }, { 0.05, 0, 0 }, { 0, 0, 1 } }, /* dp of POW */
    { "x1^x3", { 0.4, 0.5, 0.01 }, { 0.05, 0, 0 }, { 1, 0, 0 } }, /* dq of POW */
    { "x1^x3", { 0.4, 0.5, 0.01 }, { 0.05, 0, 0.001 }, { 1, 0, 1 } },
    { "x1^2.5", { 0.4, 0.5, 0.3 }, { 0.05, 0, 0 }, { 1, 0, 0 } },
    { "x1^-3", { 0.6, 0.5, 0.3 }, { 0.05, 0, 0 }, { 1, 0, 0 } },
    { "x2/x1", { 0.6, 0.5, 0.3 }, { 0.05, 0, 0 }, { 1, 1, 0 } },
};

static void check_tape_box(const tape_box *b)
{
    slpi_problem p;
    slpi_error err = { 0, "" };
    model_problem(&p, SLPI_SCHEME_TMK, "so3", b->H, 0, NULL);
    slpi_ref_tape wide, point;
    slpi_model m;
    if (slpi_model_parse(&m, &p, &err) != SLPI_OK) {
        TEST_CHECKF(0, "%s: slpi_model_parse: %s", b->H, err.msg);
        return;
    }
    if (slpi_ref_tape_init(&wide, &m, "", 320, &err) != SLPI_OK ||
        slpi_ref_tape_init(&point, &m, "", 320, &err) != SLPI_OK) {
        TEST_CHECKF(0, "%s: slpi_ref_tape_init: %s", b->H, err.msg);
        slpi_model_free(&m);
        return;
    }
    arb_ptr mu = _arb_vec_init(3), w = _arb_vec_init(3), pt = _arb_vec_init(3);
    arb_t v, vp;
    arb_init(v);
    arb_init(vp);
    int nwide = 0, axis[3];
    for (int i = 0; i < 3; i++) {
        arb_set_d(mu + i, b->c[i]);
        mag_set_d(arb_radref(mu + i), b->r[i]);
        arb_set_d(w + i, b->w[i]);
        if (b->r[i] > 0) axis[nwide++] = i;
    }
    TEST_CHECKF(slpi_ref_tape_eval(&wide, 0, v, mu, w, 1, PREC), "%s: the wide box faulted: %s", b->H, wide.why);
    for (int i = 0; i < 3; i++)
        TEST_CHECKF(arb_is_finite(wide.g + i) && arb_is_finite(wide.h + i), "%s: wide ball not finite", b->H);
    long npts = (1L << nwide) + 8;
    for (long k = 0; k < npts; k++) {
        for (int i = 0; i < 3; i++) arb_set_d(pt + i, b->c[i]);
        for (int j = 0; j < nwide; j++) {
            int i = axis[j];
            double s = k < (1L << nwide) ? ((k >> j) & 1 ? 1.0 : -1.0) : test_rand_uniform(-1, 1);
            arb_set_d(pt + i, b->c[i] + s * b->r[i]);
        }
        TEST_CHECKF(slpi_ref_tape_eval(&point, 0, vp, pt, w, 1, 256), "%s: a point faulted: %s", b->H, point.why);
        TEST_CHECKF(arb_contains(v, vp), "%s: H at point %ld of the box escapes", b->H, k);
        for (int i = 0; i < 3; i++) {
            TEST_CHECKF(arb_contains(wide.g + i, point.g + i), "%s: dH/dx%d at point %ld of the box escapes", b->H,
                        i + 1, k);
            TEST_CHECKF(arb_contains(wide.h + i, point.h + i),
                        "%s: (D^2 H w)_%d at point %ld of the box escapes "
                        "(w = %g,%g,%g)",
                        b->H, i + 1, k, b->w[0], b->w[1], b->w[2]);
        }
    }
    arb_clear(v);
    arb_clear(vp);
    _arb_vec_clear(mu, 3);
    _arb_vec_clear(w, 3);
    _arb_vec_clear(pt, 3);
    slpi_ref_tape_clear(&wide);
    slpi_ref_tape_clear(&point);
    slpi_model_free(&m);
}

/* every function and operation of the grammar once (arguments in their domains on
 * the box the tests draw from, [0.2, 0.9]) */
static const char rich[] = "sin(x1)*exp(x2) + cos(x3)^3 - tan(x1*x2) + atan(x3/x1) + sinh(x2)*cosh(x3) "
                           "- tanh(x1 - x3) + log(x2 + 1.5) * sqrt(x1 + x3) + x1^x2 + x2^-2 + (x3 + 0.5)^1.75 "
                           "+ pi*x1*x2*x3 - -x2/(x3 + 2) + amp*x1^0 + 0.1*x1*x3";

int main(void)
{
    test_start("t-ref-model", 0x6d6f64656cULL);
    /* (a) */
    check_series("so3", rich, 0.2, 0.9);
    check_series("se3", "pi1^2*gamma3 + sin(pi2)*gamma1 + exp(pi3*gamma2) + log(gamma3 + 2)", -0.9, 0.9);
    check_series("so(4)", "X_1_2^2*X_3_4 + cosh(X_1_3)*X_2_4 + sqrt(X_1_4^2 + X_2_3^2 + 1)", -0.9, 0.9);
    check_series("su(3)",
                 "ImX_0_0^2*ImX_1_1 + ReX_0_1*ImX_1_2 + exp(ImX_2_2)*ReX_0_2 + "
                 "atan(ImX_0_1)",
                 -0.9, 0.9);
    check_series("so3^2", "log(1.5 - x1_1*x2_1) + x1_2^3*x2_3 + tanh(x2_2)", -0.9, 0.9);
    check_closed_form();
    check_traceless();
    /* (c) */
    check_domain("log(x1)", "H: col 1: log", 0);
    check_domain("x2 + sqrt(x1)", "H: col 6: sqrt", -0.25);
    check_domain("x1^0.5", "H: col 3: pow", 0);
    check_domain("1/x1", "H: col 2: division", 0);
    check_domain("x3 + x1^-2", "H: col 8: negative power", 0);
    check_domain("tan(x1*pi/2)", "H: col 1: tan", 1);
    /* (d) */
    check_wide("so3", rich, 0.4, 0.7, 0.05);
    /* each function alone, so that no other term's radius covers its own (its second
     * derivative's ball included: dgen) */
    static const char *const one[] = { "sin(2*x1)*x2",  "cos(2*x1)*x2",  "tan(x1)*x2",  "atan(2*x1)*x2",
                                       "exp(2*x1)*x2",  "log(x1)*x2",    "sqrt(x1)*x2", "sinh(2*x1)*x2",
                                       "cosh(2*x1)*x2", "tanh(2*x1)*x2", "x1^2.5*x2",   "x1^-3*x2",
                                       "x2/x1",         "x1^x3*x2" };
    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) check_wide("so3", one[i], 0.4, 0.7, 0.05);
    check_wide("so3^2", "-log(1 - (x1_1*x2_1 + x1_2*x2_2 + x1_3*x2_3)/4)", -0.9, 0.9, 0.1);
    /* (e) */
    for (size_t i = 0; i < sizeof tape_boxes / sizeof tape_boxes[0]; i++) check_tape_box(tape_boxes + i);
    TEST_END();
}
