/* t-fast-callback.c — Hamiltonians given as code (slpi_problem_set_callback,
 * docs/models.md#callbacks) on the double path (fast/model.c).
 *
 * Two ways to each quantity: the same model once as expressions (the automatic
 * differentiation of fast/model.c) and once as C callbacks that return the plain partial
 * derivatives dH/dmu and the Hessian-vector product, written here by hand:
 *  1. a rigid body on so3 (H = sum x_i^2 / I_i, a non-linear noise a x1^2 + sin x2 and a
 *     linear one x3) and a model on su(3) (H = 1/2 sum q_i mu_i^2 + b (sum mu_i^2)^2, the
 *     trace coordinates included so the traceless projection matters, noise
 *     ReX_0_1 + 2 ImX_1_2 and ImX_0_0 ReX_1_2): gen and dgen on random states, and the
 *     trajectory of every scheme the expression model admits.
 *  The rule, fixed before measuring: not bit-identical (the hand-written derivatives
 *  round differently from the tape's chain rule, e.g. 2 x / I against (1/I)(2 x)), but
 *  gen and dgen within 64 u max|xi| (the bound of t-fast-model's twins), and after
 *  n = 100 steps the states within the ratio of tests/fast/t-models.sh:
 *      max|x_cb - x_expr| / (n max(u, tol) max|x_expr|) <= 4.
 *  2. what a callback problem may not do: NULL functions, a Hamiltonian out of range, a
 *     problem that is not a model, H given twice, a gap in the noise numbering, the
 *     Lie-Euler rule (a callback's form cannot be read), the certified path, and the
 *     uncertified mark of the trajectory header, which verify refuses naming why; a
 *     callback that returns non-zero or NaN stops the run at that step (exit 3) with the
 *     Hamiltonian named. */
#include "fastutil.h"
#include "slpi-tools.h"
#include "fast/vector-field.h"
#include "core/command.h"

#define U 0x1p-53
#define STEPS 100

/* ---------------------------------------------------------------- so3 callbacks */

typedef struct {
    double c[3];
} rb_par; /* H = sum c_i x_i^2 */

static int rb_grad(double *g, const double *x, int dim, void *u)
{
    const rb_par *p = u;
    for (int i = 0; i < dim; i++) g[i] = 2 * p->c[i] * x[i];
    return 0;
}

static int rb_hvp(double *hv, const double *x, const double *w, int dim, void *u)
{
    const rb_par *p = u;
    (void)x;
    for (int i = 0; i < dim; i++) hv[i] = 2 * p->c[i] * w[i];
    return 0;
}

static int rb_energy(double *H, const double *x, int dim, void *u)
{
    const rb_par *p = u;
    *H = 0;
    for (int i = 0; i < dim; i++) *H += p->c[i] * x[i] * x[i];
    return 0;
}

static const double A1 = 0.25; /* noise_H1 = a x1^2 + sin(x2) */

static int n1_grad(double *g, const double *x, int dim, void *u)
{
    (void)dim;
    (void)u;
    g[0] = 2 * A1 * x[0];
    g[1] = cos(x[1]);
    g[2] = 0;
    return 0;
}

static int n1_hvp(double *hv, const double *x, const double *w, int dim, void *u)
{
    (void)dim;
    (void)u;
    hv[0] = 2 * A1 * w[0];
    hv[1] = -sin(x[1]) * w[1];
    hv[2] = 0;
    return 0;
}

/* a linear Hamiltonian sum_i l_i mu_i (a table of dim coefficients) */
static int lin_grad(double *g, const double *x, int dim, void *u)
{
    const double *l = u;
    (void)x;
    for (int i = 0; i < dim; i++) g[i] = l[i];
    return 0;
}

static int zero_hvp(double *hv, const double *x, const double *w, int dim, void *u)
{
    (void)x;
    (void)w;
    (void)u;
    for (int i = 0; i < dim; i++) hv[i] = 0;
    return 0;
}

/* ---------------------------------------------------------------- su(3) callbacks */

static const double QB = 0.125; /* H = 1/2 sum q_i mu_i^2 + b (sum mu_i^2)^2, q_i = 1 + i/4 */

static int su_grad(double *g, const double *x, int dim, void *u)
{
    double s = 0;
    (void)u;
    for (int i = 0; i < dim; i++) s += x[i] * x[i];
    for (int i = 0; i < dim; i++) g[i] = (1 + i / 4.0) * x[i] + 4 * QB * s * x[i];
    return 0;
}

static int su_hvp(double *hv, const double *x, const double *w, int dim, void *u)
{
    double s = 0, xw = 0;
    (void)u;
    for (int i = 0; i < dim; i++) {
        s += x[i] * x[i];
        xw += x[i] * w[i];
    }
    for (int i = 0; i < dim; i++) hv[i] = (1 + i / 4.0) * w[i] + 4 * QB * (s * w[i] + 2 * x[i] * xw);
    return 0;
}

/* noise_H2 = ImX_0_0 * ReX_1_2: coordinates 0 and 7 of su(3) */
static int su_n2_grad(double *g, const double *x, int dim, void *u)
{
    (void)u;
    for (int i = 0; i < dim; i++) g[i] = 0;
    g[0] = x[7];
    g[7] = x[0];
    return 0;
}

static int su_n2_hvp(double *hv, const double *x, const double *w, int dim, void *u)
{
    (void)x;
    (void)u;
    for (int i = 0; i < dim; i++) hv[i] = 0;
    hv[0] = w[7];
    hv[7] = w[0];
    return 0;
}

/* ---------------------------------------------------------------- failing callbacks */

typedef struct {
    int calls, after, rc;
} fail_par; /* fails from call `after` on */

static int fail_grad(double *g, const double *x, int dim, void *u)
{
    fail_par *p = u;
    (void)x;
    for (int i = 0; i < dim; i++) g[i] = i == 1 && p->calls >= p->after && !p->rc ? NAN : 1;
    return p->calls++ >= p->after ? p->rc : 0;
}

/* ---------------------------------------------------------------- problems */

static rb_par rb_c = { { 1 / 2.0, 1 / 1.0, 1 / 0.5 } };
static double rb_l3[3] = { 0, 0, 1 };
static double su_l1[9] = { 0, 0, 0, 1, 0, 0, 0, 0, 2 }; /* ReX_0_1 + 2 ImX_1_2 */

static int set(slpi_problem *p, const char *k, const char *v, slpi_error *err)
{
    return slpi_problem_set(p, k, v, err);
}

/* A model on alg from x0, h = 2^-8, 100 steps (the Hamiltonians still to give). */
static int base_problem(slpi_problem *p, slpi_scheme_id k, const char *alg, const char *x0, slpi_error *err)
{
    slpi_problem_init(p, SLPI_SYS_MODEL, k);
    int rc = set(p, "algebra", alg, err);
    if (!rc) rc = set(p, "x0", x0, err);
    if (!rc) rc = set(p, "h", "0.00390625", err);
    if (!rc) rc = set(p, "steps", "100", err);
    return rc;
}

/* The so3 rigid body, as expressions (cb = 0) or callbacks (cb = 1); noise: 2 (both
 * noises) or 1 (the linear one only, as noise_H1). */
static int rb_problem(slpi_problem *p, slpi_scheme_id k, int cb, int noise, slpi_error *err)
{
    int rc = base_problem(p, k, "so3", "1,0.5,0.2", err);
    if (rc) return rc;
    if (!cb) {
        rc = set(p, "H", "x1^2/2 + x2^2/1 + x3^2/0.5", err);
        if (!rc && noise == 2) rc = set(p, "noise_H1", "0.25*x1^2 + sin(x2)", err);
        if (!rc) rc = set(p, noise == 2 ? "noise_H2" : "noise_H1", "x3", err);
        return rc;
    }
    rc = slpi_problem_set_callback(p, 0, rb_grad, rb_hvp, rb_energy, &rb_c, err);
    if (!rc && noise == 2) rc = slpi_problem_set_callback(p, 1, n1_grad, n1_hvp, NULL, NULL, err);
    if (!rc) rc = slpi_problem_set_callback(p, noise, lin_grad, zero_hvp, NULL, rb_l3, err);
    return rc;
}

static void su_H_text(char *buf, size_t n)
{
    slpi_problem q;
    slpi_error err = { 0 };
    slpi_problem_init(&q, SLPI_SYS_MODEL, SLPI_SCHEME_TMK);
    set(&q, "algebra", "su(3)", &err);
    char sq[1024] = "", nm[32];
    size_t len = 0, sl = 0;
    for (int i = 0; i < 9; i++) {
        slpi_problem_state_name(&q, i, nm, sizeof nm);
        len += (size_t)snprintf(buf + len, n - len, "%s%.17g*%s^2/2", i ? " + " : "", 1 + i / 4.0, nm);
        sl += (size_t)snprintf(sq + sl, sizeof sq - sl, "%s%s^2", i ? " + " : "", nm);
    }
    snprintf(buf + len, n - len, " + %.17g*(%s)^2", QB, sq);
}

static int su_problem(slpi_problem *p, slpi_scheme_id k, int cb, slpi_error *err)
{
    int rc = base_problem(p, k, "su(3)", "0.3,-0.1,-0.2,0.4,0.1,-0.2,0.3,0.25,-0.15", err);
    if (rc) return rc;
    if (!cb) {
        char H[4096];
        su_H_text(H, sizeof H);
        rc = set(p, "H", H, err);
        if (!rc) rc = set(p, "noise_H1", "ReX_0_1 + 2*ImX_1_2", err);
        if (!rc) rc = set(p, "noise_H2", "ImX_0_0*ReX_1_2", err);
        return rc;
    }
    rc = slpi_problem_set_callback(p, 0, su_grad, su_hvp, NULL, NULL, err);
    if (!rc) rc = slpi_problem_set_callback(p, 1, lin_grad, zero_hvp, NULL, su_l1, err);
    if (!rc) rc = slpi_problem_set_callback(p, 2, su_n2_grad, su_n2_hvp, NULL, NULL, err);
    return rc;
}

/* ---------------------------------------------------------------- 1. agreement */

static int contains(const char *s, const char *t)
{
    return strstr(s, t) != NULL;
}


/* gen and dgen of the two runs at random states near x0 (traceless on su(n)). */
static void compare_gen(slpi_fast *e, slpi_fast *c, int su, long iters, const char *what)
{
    int d = e->sys.dim, M = e->sys.M;
    double mu[64], w[64];
    for (long it = 0; it < iters; it++) {
        for (int i = 0; i < d; i++) {
            mu[i] = e->p->sys.x0[i] + 0.3 * fu_normal();
            w[i] = fu_normal();
        }
        if (su) {
            double tr = (mu[0] + mu[1] + mu[2]) / 3;
            for (int a = 0; a < 3; a++) mu[a] -= tr;
        }
        for (int k = 0; k <= M; k++) {
            double g[4];
            fu_gen_diff(c, e, k, mu, w, g);
            double eg = g[0], sg = g[1], eh = g[2], sh = g[3];
            TEST_CHECKF(eg <= 64 * U * sg, "%s: gen(%d) off by %.3g (|xi| %.3g)", what, k, eg, sg);
            TEST_CHECKF(eh <= 64 * U * sh, "%s: dgen(%d) off by %.3g (|dxi| %.3g)", what, k, eh, sh);
        }
        /* the sum the implicit schemes use: callbacks take the generic loop */
        double delta[4] = { 0.01, 0.3, -0.2, 0 }, t1[64], t2[64], tmp[64];
        slpi_fast_gen_sum(&e->sys, t1, tmp, delta, mu);
        slpi_fast_gen_sum(&c->sys, t2, tmp, delta, mu);
        double es = fu_maxdiff(t1, t2, d), ss = 0;
        for (int i = 0; i < d; i++) ss = fmax(ss, fabs(t1[i]));
        TEST_CHECKF(es <= 64 * U * ss, "%s: gen_sum off by %.3g (|xi| %.3g)", what, es, ss);
    }
}

typedef int (*problem_fn)(slpi_problem *p, slpi_scheme_id k, int cb, slpi_error *err);

static int rb2(slpi_problem *p, slpi_scheme_id k, int cb, slpi_error *err)
{
    return rb_problem(p, k, cb, 2, err);
}
static int su3(slpi_problem *p, slpi_scheme_id k, int cb, slpi_error *err)
{
    return su_problem(p, k, cb, err);
}

static void agreement(problem_fn make, const char *name, int su, long iters)
{
    int ran = 0;
    for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
        slpi_problem pe, pc;
        slpi_error err = { 0 }, err2 = { 0 };
        slpi_fast *e = NULL, *c = NULL;
        TEST_CHECKF(make(&pe, (slpi_scheme_id)k, 0, &err) == 0, "%s: %s", name, err.msg);
        TEST_CHECKF(make(&pc, (slpi_scheme_id)k, 1, &err) == 0, "%s (callbacks): %s", name, err.msg);
        int rce = slpi_fast_create(&e, &pe, &err), rcc = slpi_fast_create(&c, &pc, &err2);
        if (rce) { /* the expression model's own refusal: the callbacks' must agree */
            TEST_CHECKF(rcc != 0, "%s/%s: callbacks accepted where the expressions are refused (%s)", name,
                        slpi_scheme_name(k), err.msg);
            slpi_fast_free(c);
            continue;
        }
        if (k == SLPI_SCHEME_RKMK_LE) { /* the rule cannot read code: refused, saying so */
            TEST_CHECKF(rcc == SLPI_EINPUT && contains(err2.msg, "callback"), "%s/rkmk-le (callbacks): %s", name,
                        rcc ? err2.msg : "accepted");
            slpi_fast_free(e);
            slpi_fast_free(c);
            continue;
        }
        TEST_CHECKF(rcc == 0, "%s/%s (callbacks): %s", name, slpi_scheme_name(k), err2.msg);
        if (rcc) {
            slpi_fast_free(e);
            continue;
        }
        ran++;
        char what[64];
        snprintf(what, sizeof what, "%s/%s", name, slpi_scheme_name(k));
        if (k == 0) compare_gen(e, c, su, iters, what);
        int d = e->sys.dim, M = e->sys.M;
        double xe[64], xc[64], *dw = malloc((size_t)STEPS * M * sizeof *dw);
        for (long i = 0; i < (long)STEPS * M; i++) dw[i] = sqrt(pe.grid.h) * fu_normal();
        memcpy(xe, pe.sys.x0, (size_t)d * sizeof *xe);
        memcpy(xc, pc.sys.x0, (size_t)d * sizeof *xc);
        int be = fu_run(e, xe, STEPS, dw), bc = fu_run(c, xc, STEPS, dw);
        TEST_CHECKF(be == 0 && bc == 0, "%s: failed steps %d (expressions), %d (callbacks)", what, be, bc);
        double s = 0, dx = fu_maxdiff(xe, xc, d), tol = fmax(e->pol.tol, U);
        for (int i = 0; i < d; i++) s = fmax(s, fabs(xe[i]));
        double r = dx / (STEPS * tol * s);
        printf("t-fast-callback: %s: ratio %.3g (<= 4)\n", what, r);
        TEST_CHECKF(r <= 4, "%s: ratio %.3g > 4", what, r);
        free(dw);
        slpi_fast_free(e);
        slpi_fast_free(c);
    }
    TEST_CHECKF(ran >= 5, "%s: only %d schemes ran", name, ran);
}

/* ---------------------------------------------------------------- 2. refusals */

static void refusals(void)
{
    slpi_problem p;
    slpi_error err = { 0 };
    slpi_fast *f = NULL;

    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_set_callback(&p, 0, rb_grad, rb_hvp, NULL, NULL, &err) == SLPI_EINPUT &&
               contains(err.msg, "not a model"));
    TEST_CHECK(rb_problem(&p, SLPI_SCHEME_ISOMP, 0, 1, &err) == 0);
    TEST_CHECKF(slpi_problem_set_callback(&p, 0, NULL, rb_hvp, NULL, NULL, &err) == SLPI_EINPUT &&
                    contains(err.msg, "grad function is NULL"),
                "%s", err.msg);
    TEST_CHECKF(slpi_problem_set_callback(&p, 0, rb_grad, NULL, NULL, NULL, &err) == SLPI_EINPUT &&
                    contains(err.msg, "hvp function is NULL"),
                "%s", err.msg);
    TEST_CHECK(slpi_problem_set_callback(&p, -1, rb_grad, rb_hvp, NULL, NULL, &err) == SLPI_EINPUT);
    TEST_CHECK(slpi_problem_set_callback(&p, SLPI_MODEL_MAX_NOISE + 1, rb_grad, rb_hvp, NULL, NULL, &err) ==
               SLPI_EINPUT);
    /* H both as text and as code */
    TEST_CHECK(slpi_problem_set_callback(&p, 0, rb_grad, rb_hvp, NULL, &rb_c, &err) == 0);
    TEST_CHECKF(slpi_fast_create(&f, &p, &err) == SLPI_EINPUT && contains(err.msg, "H: given both"), "%s", err.msg);
    /* a gap: a callback for noise_H3 with noise_H2 absent */
    TEST_CHECK(rb_problem(&p, SLPI_SCHEME_ISOMP, 1, 1, &err) == 0);
    TEST_CHECK(slpi_problem_noise_count(&p) == 1);
    TEST_CHECK(slpi_problem_set_callback(&p, 3, lin_grad, zero_hvp, NULL, rb_l3, &err) == 0);
    TEST_CHECK(slpi_problem_noise_count(&p) == 3);
    TEST_CHECKF(slpi_fast_create(&f, &p, &err) == SLPI_EINPUT && contains(err.msg, "noise_H2"), "%s", err.msg);
    /* setting system clears the callbacks */
    TEST_CHECK(set(&p, "system", "model", &err) == 0 && p.sys.model.cb[0].grad == NULL &&
               p.sys.model.cb[3].grad == NULL);

    /* Lie-Euler: the linear noise is admitted as an expression, not as code */
    TEST_CHECK(rb_problem(&p, SLPI_SCHEME_RKMK_LE, 0, 1, &err) == 0);
    TEST_CHECKF(slpi_fast_create(&f, &p, &err) == 0, "%s", err.msg);
    slpi_fast_free(f);
    f = NULL;
    TEST_CHECK(rb_problem(&p, SLPI_SCHEME_RKMK_LE, 1, 1, &err) == 0);
    TEST_CHECKF(slpi_fast_create(&f, &p, &err) == SLPI_EINPUT && contains(err.msg, "callback"), "%s", err.msg);

    /* the certified path refuses; the fast path runs */
    TEST_CHECK(rb_problem(&p, SLPI_SCHEME_ISOMP, 1, 2, &err) == 0);
    TEST_CHECK(slpi_problem_finish(&p, &err) == 0);
    slpi_ref *r = NULL;
    TEST_CHECKF(slpi_ref_create(&r, &p, &err) == SLPI_EINPUT && contains(err.msg, "certified path"), "%s", err.msg);
    slpi_ref_free(r);
    char list[64];
    TEST_CHECK(slpi_problem_callbacks(&p, list, sizeof list) == 3 && strcmp(list, "H,noise_H1,noise_H2") == 0);

    /* the trajectory says it is uncertified, and verify refuses it naming why */
    const char *path = test_temp_file("");
    FILE *out = fopen(path, "w");
    slpi_run_result res;
    TEST_CHECKF(slpi_run(&p, slpi_fast_path(), out, 0, NULL, &res, &err) == 0, "%s", err.msg);
    fclose(out);
    slpi_traj t;
    TEST_CHECKF(slpi_traj_read(path, &t, &err) == 0, "%s", err.msg);
    const char *mark = slpi_traj_header(&t, "uncertified");
    TEST_CHECKF(mark && strcmp(mark, "callback H,noise_H1,noise_H2") == 0, "header: uncertified=%s",
                mark ? mark : "(none)");
    TEST_CHECK(slpi_traj_column(&t, "H0") >= 0); /* H's energy callback gives H0 */
    slpi_traj_free(&t);
    /* the run's JSON summary says so too */
    const char *json = test_temp_file("");
    TEST_CHECKF(slpi_run_write_json(&p, "fast", &res, 0, "", json, &err) == 0, "%s", err.msg);
    FILE *jf = fopen(json, "r");
    char jtext[8192] = "";
    size_t jn = jf ? fread(jtext, 1, sizeof jtext - 1, jf) : 0;
    jtext[jn] = 0;
    if (jf) fclose(jf);
    TEST_CHECKF(contains(jtext, "\"uncertified\": \"callback H,noise_H1,noise_H2\""), "JSON: %.300s", jtext);
    slpi_verify_result vr;
    TEST_CHECKF(slpi_verify_file(path, NULL, NULL, 5, NULL, &vr, &err) == SLPI_EINPUT &&
                    contains(err.msg, "cannot be re-verified"),
                "verify: %s", err.msg);
    slpi_problem q;
    slpi_problem_init(&q, SLPI_SYS_MODEL, SLPI_SCHEME_ISOMP);
    TEST_CHECK(set(&q, "uncertified", "callback H", &err) == SLPI_EINPUT && contains(err.msg, "without the callback"));
}

/* A callback that returns non-zero, or NaN, at its `after`-th call: the run stops at that
 * step with SLPI_ENUMERIC naming the step and the Hamiltonian. */
static void failures(void)
{
    for (int mode = 0; mode < 2; mode++) {
        slpi_problem p;
        slpi_error err = { 0 };
        fail_par fp = { 0, 40, mode ? 7 : 0 };
        TEST_CHECK(rb_problem(&p, SLPI_SCHEME_ISOMP, 1, 1, &err) == 0);
        TEST_CHECK(slpi_problem_set_callback(&p, 1, fail_grad, zero_hvp, NULL, &fp, &err) == 0);
        TEST_CHECK(slpi_problem_finish(&p, &err) == 0);
        slpi_run_result res;
        int rc = slpi_run(&p, slpi_fast_path(), NULL, 0, NULL, &res, &err);
        TEST_CHECKF(rc == SLPI_ENUMERIC && res.failed_step > 0 && contains(err.msg, "step ") &&
                        contains(err.msg, "callback of noise_H1") &&
                        contains(err.msg, mode ? "returned 7" : "non-finite value nan at index 1"),
                    "mode %d: rc %d, failed step %ld: %s", mode, rc, res.failed_step, err.msg);
        /* no H energy: no H0 column */
        slpi_problem_set_callback(&p, 0, rb_grad, rb_hvp, NULL, &rb_c, &err);
        slpi_fast *f = NULL;
        TEST_CHECK(slpi_fast_create(&f, &p, &err) == 0);
        if (f)
            TEST_CHECK(isnan(fu_diag(f, p.sys.x0, NULL, "H0")) && !isnan(fu_diag(f, p.sys.x0, NULL, "casimir_norm2")));
        slpi_fast_free(f);
    }
}

int main(void)
{
    test_start("t-fast-callback", 24);
    long iters = test_iters(50);
    agreement(rb2, "so3 rigid body", 0, iters);
    agreement(su3, "su(3)", 1, iters);
    refusals();
    failures();
    TEST_END();
}
