/* t-fast-model.c — a model's derivatives on the double path (fast/model-tape.c, fast/model.c, docs/models.md).
 *
 * Two ways to each quantity:
 *  1. every operation's rule: H = f(t), t = a x1 + b x2 + c x3 on so3, for each function
 *     f; the gradient and the Hessian-vector product from the automatic differentiation
 *     against f'(t) (a, b, c) and f''(t) (a, b, c)(a w1 + b w2 + c w3) with f', f'' written
 *     here from the tables of derivatives; the same for products, quotients, integer and
 *     real powers of two coordinates. Scale-free ratio |AD - formula| / (u |formula|_max)
 *     <= 64 (a few roundings of the evaluation, amplified by at most the tape's depth 4).
 *  2. the built-ins restated as models (models/): gen and dgen of the model and of its
 *     built-in twin on random states, ratio <= 64 in units of u times the terms' scale
 *     (fu_term_scale: the sums' terms, not their result, as the standard error bound of a
 *     sum has it; a scale of max|xi| alone failed on about 45 of seeds 1-100 where the
 *     entries cancel, e.g. dgen 0.0037 off by 3e-17); on su(2) also with a function of
 *     the trace added to H, which the projection must remove.
 *  3. random nested expressions: gradient against Richardson-extrapolated central
 *     differences of H (the diagnostic H0), and dgen against differences of gen,
 *     within 1e-6 relative (the differences' own truncation and rounding).
 *  4. shared subtrees of the tape: t-fast-model-tape.c.
 * Also: outside the domain (log of a negative number) the gradient is NaN, so the step
 * fails; and in a constant subexpression it is an input error naming the column.
 * And slpi_algebra_commute (the Lie-Euler rule's reading of the algebra) agrees with the
 * double path's bracket of basis vectors on every pair of every family. */
#include "fastutil.h"
#include "core/expr.h"

#define U 0x1p-53

static slpi_fast *model(const char *alg, const char *H, const char *noise1, const char *x0)
{
    slpi_problem p;
    slpi_error err = { 0 };
    slpi_problem_init(&p, SLPI_SYS_MODEL, SLPI_SCHEME_TMK);
    int rc = slpi_problem_set(&p, "algebra", alg, &err);
    if (!rc) rc = slpi_problem_set(&p, "H", H, &err);
    if (!rc && noise1) rc = slpi_problem_set(&p, "noise_H1", noise1, &err);
    if (!rc) rc = slpi_problem_set(&p, "x0", x0, &err);
    slpi_fast *f = NULL;
    if (!rc) rc = slpi_fast_create(&f, &p, &err);
    TEST_CHECKF(rc == 0, "model %s H=%s: %s", alg, H, err.msg);
    return rc ? NULL : f;
}

static slpi_fast *from_file(const char *path, const char *extra_key, const char *extra_val)
{
    slpi_problem p;
    slpi_error err = { 0 };
    slpi_problem_init(&p, SLPI_SYS_MODEL, SLPI_SCHEME_TMK);
    int rc = slpi_problem_load(&p, path, &err);
    if (!rc && extra_key) rc = slpi_problem_set(&p, extra_key, extra_val, &err);
    slpi_fast *f = NULL;
    if (!rc) rc = slpi_fast_create(&f, &p, &err);
    TEST_CHECKF(rc == 0, "%s: %s", path, err.msg);
    return rc ? NULL : f;
}

/* f, f', f'' of each function at t. */
typedef struct {
    const char *name;
    double (*f)(double);
    double (*d1)(double);
    double (*d2)(double);
    double lo, hi;
} fn;
static double sq(double t)
{
    return t * t;
}
static double d1_sqrt(double t)
{
    return 0.5 / sqrt(t);
}
static double d2_sqrt(double t)
{
    return -0.25 / (t * sqrt(t));
}
static double d1_log(double t)
{
    return 1 / t;
}
static double d2_log(double t)
{
    return -1 / (t * t);
}
static double d2_sin(double t)
{
    return -sin(t);
}
static double d1_cos(double t)
{
    return -sin(t);
}
static double d2_cos(double t)
{
    return -cos(t);
}
static double d1_tan(double t)
{
    return 1 / sq(cos(t));
}
static double d2_tan(double t)
{
    return 2 * sin(t) / (cos(t) * sq(cos(t)));
}
static double d1_atan(double t)
{
    return 1 / (1 + t * t);
}
static double d2_atan(double t)
{
    return -2 * t / sq(1 + t * t);
}
static double d1_tanh(double t)
{
    return 1 / sq(cosh(t));
}
static double d2_tanh(double t)
{
    return -2 * sinh(t) / (cosh(t) * sq(cosh(t)));
}
static const fn fns[] = {
    { "sqrt", sqrt, d1_sqrt, d2_sqrt, 0.1, 3 }, { "exp", exp, exp, exp, -2, 2 },
    { "log", log, d1_log, d2_log, 0.1, 3 },     { "sin", sin, cos, d2_sin, -3, 3 },
    { "cos", cos, d1_cos, d2_cos, -3, 3 },      { "tan", tan, d1_tan, d2_tan, -1.2, 1.2 },
    { "atan", atan, d1_atan, d2_atan, -3, 3 },  { "sinh", sinh, cosh, sinh, -2, 2 },
    { "cosh", cosh, sinh, cosh, -2, 2 },        { "tanh", tanh, d1_tanh, d2_tanh, -2, 2 },
};

/* Compare the model's gen (xi = grad/2 on so3) and dgen (along w) with the formulas g
 * and hv (Euclidean gradient and Hessian-vector product of H). */
static void compare(slpi_fast *f, const double *mu, const double *w, const double *g, const double *hv, double limit,
                    const char *what)
{
    double xi[3], dxi[3], es = 0, eh = 0, sg = 0, sh = 0;
    f->sys.gen(&f->sys, 0, xi, mu);
    f->sys.dgen(&f->sys, 0, dxi, mu, w);
    for (int i = 0; i < 3; i++) {
        es = fmax(es, fabs(xi[i] - g[i]));
        eh = fmax(eh, fabs(dxi[i] - hv[i]));
        sg = fmax(sg, fabs(g[i]));
        sh = fmax(sh, fabs(hv[i]));
    }
    TEST_CHECKF(es <= limit * U * sg, "%s: gradient off by %.3g (ratio %.3g)", what, es, es / (U * sg));
    TEST_CHECKF(eh <= limit * U * sh, "%s: Hessian-vector off by %.3g (ratio %.3g)", what, eh, eh / (U * sh));
}

static void rules(long iters)
{
    char H[256];
    for (long it = 0; it < iters; it++) {
        /* one function of a linear combination */
        for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
            const fn *F = &fns[k];
            double a[3], mu[3], w[3], g[3], hv[3];
            for (int i = 0; i < 3; i++) {
                a[i] = (double)(test_rand_int(9) - 4) / 4; /* exact quarters */
                w[i] = test_rand_uniform(-1, 1);
            }
            if (a[0] == 0) a[0] = 0.5;
            double t = test_rand_uniform(F->lo, F->hi);
            mu[1] = test_rand_uniform(-1, 1);
            mu[2] = test_rand_uniform(-1, 1);
            mu[0] = (t - a[1] * mu[1] - a[2] * mu[2]) / a[0];
            t = a[0] * mu[0] + a[1] * mu[1] + a[2] * mu[2];
            if (!(t > F->lo - 0.05 && t < F->hi + 0.05)) continue;
            snprintf(H, sizeof H, "%s(%.17g*x1 + %.17g*x2 + %.17g*x3)", F->name, a[0], a[1], a[2]);
            slpi_fast *f = model("so3", H, NULL, "1,0,0");
            if (!f) continue;
            double aw = a[0] * w[0] + a[1] * w[1] + a[2] * w[2];
            for (int i = 0; i < 3; i++) {
                g[i] = F->d1(t) * a[i];
                hv[i] = F->d2(t) * a[i] * aw;
            }
            compare(f, mu, w, g, hv, 64, H);
            slpi_fast_free(f);
        }
        /* products, quotients, integer and real powers */
        double x = test_rand_uniform(0.2, 2), y = test_rand_uniform(0.2, 2), z = test_rand_uniform(-1, 1);
        double mu[3] = { x, y, z }, w[3], g[3], hv[3];
        for (int i = 0; i < 3; i++) w[i] = test_rand_uniform(-1, 1);
        int n = (int)test_rand_int(9) - 4;
        double p = test_rand_uniform(-2, 2);
        struct {
            const char *H;
            double g[3];
            double Hm[3][3];
        } cases[4] = {
            { "x1*x2*x3", { y * z, x * z, x * y }, { { 0, z, y }, { z, 0, x }, { y, x, 0 } } },
            { "x1/x2 - x3",
              { 1 / y, -x / (y * y), -1 },
              { { 0, -1 / (y * y), 0 }, { -1 / (y * y), 2 * x / (y * y * y), 0 }, { 0, 0, 0 } } },
            { NULL, { 0 }, { { 0 } } },
            { NULL, { 0 }, { { 0 } } },
        };
        char Hn[64], Hp[64];
        snprintf(Hn, sizeof Hn, "x1^%d + x3^2", n);
        cases[2].H = Hn;
        cases[2].g[0] = n * pow(x, n - 1);
        cases[2].g[2] = 2 * z;
        cases[2].Hm[0][0] = n * (n - 1) * pow(x, n - 2);
        cases[2].Hm[2][2] = 2;
        snprintf(Hp, sizeof Hp, "x1^x2 + x2^%.17g", p);
        cases[3].H = Hp;
        double lx = log(x), xy = pow(x, y);
        cases[3].g[0] = y * xy / x;
        cases[3].g[1] = xy * lx + p * pow(y, p - 1);
        cases[3].Hm[0][0] = y * (y - 1) * xy / (x * x);
        cases[3].Hm[0][1] = cases[3].Hm[1][0] = xy / x * (1 + y * lx);
        cases[3].Hm[1][1] = xy * lx * lx + p * (p - 1) * pow(y, p - 2);
        for (int c = 0; c < 4; c++) {
            slpi_fast *f = model("so3", cases[c].H, NULL, "1,0,0");
            if (!f) continue;
            for (int i = 0; i < 3; i++) {
                g[i] = cases[c].g[i];
                hv[i] = 0;
                for (int j = 0; j < 3; j++) hv[i] += cases[c].Hm[i][j] * w[j];
            }
            compare(f, mu, w, g, hv, 64, cases[c].H);
            slpi_fast_free(f);
        }
    }
}

/* The built-in twin's gen/dgen against the model's, k = 0..M, on random states near x0. */
static void twins(const char *file, const char *const *keys, const char *const *vals, int nk, long iters, const char *H)
{
    slpi_fast *m = from_file(file, H ? "H" : NULL, H);
    if (!m) return;
    slpi_problem p;
    slpi_error err = { 0 };
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_TMK);
    int rc = slpi_problem_set_all(&p, nk, (char *const *)keys, (char *const *)vals, NULL, &err);
    slpi_fast *b = NULL;
    if (!rc) rc = slpi_fast_create(&b, &p, &err);
    TEST_CHECKF(rc == 0, "twin of %s: %s", file, err.msg);
    if (rc) {
        slpi_fast_free(m);
        return;
    }
    int d = m->sys.dim, M = m->sys.M;
    TEST_CHECKF(d == b->sys.dim && M == b->sys.M, "%s: dim %d/%d, M %d/%d", file, d, b->sys.dim, M, b->sys.M);
    double mu[SLPI_MAX_X0], w[SLPI_MAX_X0];
    for (long it = 0; it < iters && d == b->sys.dim; it++) {
        for (int i = 0; i < d; i++) {
            mu[i] = m->p->sys.x0[i] + 0.1 * fu_normal();
            w[i] = fu_normal();
        }
        if (m->p->sys.model.algebra[1] == 'u') { /* su(n): traceless states */
            int N = (int)lround(sqrt(d));
            double tr = 0;
            for (int a = 0; a < N; a++) tr += mu[a];
            for (int a = 0; a < N; a++) mu[a] -= tr / N;
        }
        for (int k = 0; k <= M; k++) {
            double g[4];
            fu_gen_diff(m, b, k, mu, w, g);
            double e = g[0], s = g[1], eh = g[2], sh = g[3];
            TEST_CHECKF(e <= 64 * U * fmax(s, 1e-300) || e == 0, "%s%s: gen(%d) off by %.3g (terms %.3g)", file,
                        H ? " (H with a trace term)" : "", k, e, s);
            TEST_CHECKF(eh <= 64 * U * fmax(sh, 1e-300) || eh == 0, "%s%s: dgen(%d) off by %.3g (terms %.3g)", file,
                        H ? " (H with a trace term)" : "", k, eh, sh);
        }
    }
    slpi_fast_free(m);
    slpi_fast_free(b);
}

static double h0(slpi_fast *f, const double *x)
{
    return fu_diag(f, x, NULL, "H0");
}

/* Richardson-extrapolated central difference of fun along e_j (or of gen). */
static void nested(long iters)
{
    static const char *const exprs[] = {
        "sqrt(x1^2 + x2^2 + 1)*exp(x3/3) - log(2 + cos(x1*x2))",
        "atan(x1 - x2)^3 / (1 + x3^2) + tanh(x1*x3)*sinh(x2/2)",
        "(x1^2 + 0.5)^0.75 * cosh(x2 - x3) + sin(x1)^-2",
        "-x1^2/3 + pi*x2*x3 - (x1*x2)^2/(x3^2 + 2)",
    };
    for (long it = 0; it < iters; it++)
        for (int c = 0; c < 4; c++) {
            slpi_fast *f = model("so3", exprs[c], NULL, "1,0,0");
            if (!f) continue;
            double mu[3], xi[3], hvw[3], w[3];
            for (int i = 0; i < 3; i++) {
                mu[i] = test_rand_uniform(0.3, 1.2);
                w[i] = fu_normal();
            }
            f->sys.gen(&f->sys, 0, xi, mu);
            f->sys.dgen(&f->sys, 0, hvw, mu, w);
            double e = 1e-3, scale = 0, err = 0, herr = 0, hscale = 0;
            double fdh[3] = { 0, 0, 0 };
            for (int j = 0; j < 3; j++) {
                double D[2];
                for (int r = 0; r < 2; r++) {
                    double ee = r ? e / 2 : e, xp[3], xm[3];
                    memcpy(xp, mu, sizeof xp);
                    memcpy(xm, mu, sizeof xm);
                    xp[j] += ee;
                    xm[j] -= ee;
                    D[r] = (h0(f, xp) - h0(f, xm)) / (2 * ee);
                }
                double fd = (4 * D[1] - D[0]) / 3;
                err = fmax(err, fabs(xi[j] - fd));
                scale = fmax(scale, fabs(fd));
            }
            /* dgen along w: difference of gen along w */
            for (int r = 0; r < 2; r++) {
                double ee = r ? e / 2 : e, xp[3], xm[3], gp[3], gm[3];
                for (int i = 0; i < 3; i++) {
                    xp[i] = mu[i] + ee * w[i];
                    xm[i] = mu[i] - ee * w[i];
                }
                f->sys.gen(&f->sys, 0, gp, xp);
                f->sys.gen(&f->sys, 0, gm, xm);
                for (int i = 0; i < 3; i++) fdh[i] += (r ? 4.0 / 3 : -1.0 / 3) * (gp[i] - gm[i]) / (2 * ee);
            }
            for (int i = 0; i < 3; i++) {
                herr = fmax(herr, fabs(hvw[i] - fdh[i]));
                hscale = fmax(hscale, fabs(fdh[i]));
            }
            TEST_CHECKF(err <= 1e-6 * fmax(scale, 1), "%s: gradient vs differences %.3g", exprs[c], err);
            TEST_CHECKF(herr <= 1e-6 * fmax(hscale, 1), "%s: dgen vs differences of gen %.3g", exprs[c], herr);
            slpi_fast_free(f);
        }
}

static void domain(void)
{
    slpi_fast *f = model("so3", "log(x1) + x2^2", NULL, "1,0,0");
    if (f) {
        double mu[3] = { -0.5, 1, 0 }, xi[3];
        f->sys.gen(&f->sys, 0, xi, mu);
        TEST_CHECK(isnan(xi[0]) && isnan(xi[1]) && isnan(xi[2]));
        mu[0] = 0.5;
        f->sys.gen(&f->sys, 0, xi, mu);
        TEST_CHECK(xi[0] == 2.0 && xi[1] == 2.0 && xi[2] == 0); /* (1/x1, 2 x2, 0): dot pairing */
        slpi_fast_free(f);
    }
    slpi_problem p;
    slpi_error err = { 0 };
    slpi_fast *g = NULL;
    slpi_problem_init(&p, SLPI_SYS_MODEL, SLPI_SCHEME_TMK);
    slpi_problem_set(&p, "algebra", "so3", &err);
    slpi_problem_set(&p, "H", "x1^2 + log(1 - 2)", &err);
    slpi_problem_set(&p, "x0", "1,0,0", &err);
    TEST_CHECK(slpi_fast_create(&g, &p, &err) == SLPI_EINPUT && strstr(err.msg, "H: col 8: log outside its domain"));
    slpi_fast_free(g);
}

/* slpi_algebra_commute (the Lie-Euler rule's reading of an algebra, core/algebra.c) against
 * the double path's bracket of basis vectors (fast/lie-ops.c): e_i and e_j commute
 * exactly when [e_i, e_j] = 0, for every pair of every family. */
static void commute(void)
{
    static const char *const algs[] = { "so3", "se3", "so(4)", "so(5)", "su(2)", "su(3)", "so3^3" };
    for (size_t a = 0; a < sizeof algs / sizeof *algs; a++) {
        slpi_algebra alg;
        slpi_error err = { 0 };
        TEST_CHECK(slpi_algebra_parse(&alg, "algebra", algs[a], &err) == SLPI_OK);
        char x0[1024] = "", name[32];
        for (int i = 0; i < alg.dim; i++) strcat(x0, i ? ",0" : "0");
        slpi_algebra_coord_name(&alg, 0, name, sizeof name);
        char H[64];
        snprintf(H, sizeof H, "%s^2/2", name);
        slpi_fast *f = model(algs[a], H, NULL, x0);
        if (!f) continue;
        double ei[512] = { 0 }, ej[512] = { 0 }, out[512];
        int bad = 0;
        for (int i = 0; i < alg.dim; i++)
            for (int j = 0; j < alg.dim; j++) {
                ei[i] = 1;
                ej[j] = 1;
                f->sys.lie(&f->sys, out, ei, ej);
                int zero = 1;
                for (int k = 0; k < alg.dim; k++) zero &= out[k] == 0;
                if (zero != slpi_algebra_commute(&alg, i, j) && bad++ == 0)
                    TEST_CHECKF(0, "%s: e_%d, e_%d: bracket %s, slpi_algebra_commute says %d", algs[a], i, j,
                                zero ? "0" : "not 0", slpi_algebra_commute(&alg, i, j));
                ei[i] = 0;
                ej[j] = 0;
            }
        TEST_CHECKF(bad == 0, "%s: %d pairs misread", algs[a], bad);
        slpi_fast_free(f);
    }
}

/* su(n): H means H at the traceless part (docs/models.md#su-n). A Hamiltonian (and a
 * noise Hamiltonian) reading Im X_aa one by one against the same texts with each Im X_aa
 * replaced by its traceless part written out: gen, dgen, the fused sum and H0 at points
 * and along directions with a trace, ratio <= 64 in units of u times the terms' scale as item 2. */
#define TR_M "(ImX_0_0 + ImX_1_1 + ImX_2_2)/3"
#define TR_H(d0, d1, d2) d0 "^2*" d1 " + 2*" d2 "^3 + ReX_0_1*" d0 " + exp(" d1 ")*ImX_1_2 + ReX_0_2^2"
#define TR_N(d0, d2) "0.2*" d0 "*ReX_1_2 + " d2 "^2"
static void traceless(long iters)
{
    static const char x0[] = "0.3,-0.1,-0.2,0.2,0.1,-0.3,0.25,0.15,-0.05";
    slpi_fast *a = model("su(3)", TR_H("ImX_0_0", "ImX_1_1", "ImX_2_2"), TR_N("ImX_0_0", "ImX_2_2"), x0);
    slpi_fast *b = model("su(3)", TR_H("(ImX_0_0 - " TR_M ")", "(ImX_1_1 - " TR_M ")", "(ImX_2_2 - " TR_M ")"),
                         TR_N("(ImX_0_0 - " TR_M ")", "(ImX_2_2 - " TR_M ")"), x0);
    for (long it = 0; it < iters && a && b; it++) {
        double mu[9], w[9], delta[2] = { fu_normal(), fu_normal() }, xa[9], xb[9], e = 0;
        for (int i = 0; i < 9; i++) {
            mu[i] = 0.8 * fu_normal();
            w[i] = fu_normal();
        }
        double ss = 0, sh = fabs(h0(b, mu)), xi[9];
        for (int k = 0; k <= 1; k++) {
            double g[4];
            fu_gen_diff(a, b, k, mu, w, g);
            TEST_CHECKF(g[0] <= 64 * U * g[1], "su(3) with a trace: gen(%d) off by %.3g (terms %.3g)", k, g[0], g[1]);
            TEST_CHECKF(g[2] <= 64 * U * g[3], "su(3) with a trace: dgen(%d) off by %.3g (terms %.3g)", k, g[2], g[3]);
            ss += fabs(delta[k]) * g[1];
        }
        a->sys.gen_sum(&a->sys, xa, delta, mu);
        b->sys.gen_sum(&b->sys, xb, delta, mu);
        for (int i = 0; i < 9; i++) e = fmax(e, fabs(xa[i] - xb[i]));
        TEST_CHECKF(e <= 64 * U * ss, "su(3) with a trace: gen_sum off by %.3g (terms %.3g)", e, ss);
        b->sys.gen(&b->sys, 0, xi, mu);
        for (int i = 0; i < 9; i++) sh += fabs(xi[i] * mu[i]);
        double ha = h0(a, mu), hb = h0(b, mu);
        TEST_CHECKF(fabs(ha - hb) <= 64 * U * sh, "su(3) with a trace: H0 %.17g vs %.17g (terms %.3g)", ha, hb, sh);
    }
    slpi_fast_free(a);
    slpi_fast_free(b);
}

int main(void)
{
    test_start("t-fast-model", 424242);
    commute();
    long iters = test_iters(20);
    rules(iters);
    nested(iters);
    domain();
    traceless(iters);
    {
        const char *k1[] = { "system", "form", "x0" }, *v1[] = { "rigid-body", "iso", "1,0.5,0.2" };
        twins("models/rigid-body.slpi", k1, v1, 3, iters, NULL);
        const char *k2[] = { "system", "form", "x0" },
                   *v2[] = { "heavy-top", "rkmk",
                             "-0.70710678118654757,0.70710678118654757,0,-0.70710678118654757,0.70710678118654757,0" };
        twins("models/heavy-top.slpi", k2, v2, 3, iters, NULL);
        const char *k3[] = { "system", "n", "x0" }, *v3[] = { "manakov", "4", "0.3,-0.5,0.2,0.7,-0.1,0.4" };
        twins("models/manakov.slpi", k3, v3, 3, iters, NULL);
        const char *k4[] = { "system", "N", "ic_lmax", "x0" },
                   *v4[] = { "euler-zeitlin", "2", "1", "0.4,-0.4,0.3,-0.5" };
        twins("models/euler-zeitlin.slpi", k4, v4, 4, iters, NULL);
        /* a function of the trace added: its gradient is central, removed by the su(n)
         * projection, so the twin is unchanged */
        twins(
            "models/euler-zeitlin.slpi", k4, v4, 4, iters,
            "(((ImX_0_0 - ImX_1_1)/2)^2 + ReX_0_1^2 + ImX_0_1^2)/2 + 0.3*(ImX_0_0 + ImX_1_1) + 0.2*exp(ImX_0_0 + ImX_1_1)");
        const char *k5[] = { "system", "model" }, *v5[] = { "point-vortices", "B" };
        twins("models/point-vortices.slpi", k5, v5, 2, iters, NULL);
    }
    TEST_END();
}
