/* t-converge-phi.c — the weak functional as an expression of the state or a function
 * (studies/converge-phi.c; docs/noise.md#functionals):
 *  - iso/rigid-body/weak with --phi 'x1*x2+x3^2': every level's E phi (the phi column),
 *    computed a second way path by path (slpi_noise_increments at (h_l, refine L - l),
 *    slpi_fast_step, phi written in C), summed per batch as the study does, to the bit;
 *  - the same functional given as a C function prints the same table;
 *  - 'sqrt(x3 - 0.4524)' (not finite where x3 <= 0.4524 on some level): those paths are failed paths,
 *    their count the direct computation's, and the report and its JSON say so: the first
 *    failure is the functional's (its value NaN, at the level's last step), never a step
 *    that diverged; 'log(x1 - 5)' (never finite): every path fails, exit 3 (SLPI_ENUMERIC),
 *    the message naming the functional and its value;
 *  - bad input: a name the state does not have, and a state with no names (the SVI form),
 *    are refused (SLPI_EINPUT) naming phi.
 *  - phi and a model's Hamiltonian, one evaluator: random expressions (every operation, t,
 *    pi, a parameter) over so3, se3, so(4), su(3) and so3^2 read as phi (slpi_conv_phi_eval,
 *    t = t0 + T) and as the H of a model with those keys (its binary64 tape at the same
 *    state and time), bit for bit, a value that is not finite both ways alike;
 *  - each built-in system's coordinate names, as slpi run prints them, read as phi: the
 *    coordinate itself, for every coordinate.
 * Tolerance: none, the values are compared bit for bit (the same operations in the same
 * order). The seed (SLPI_TEST_SEED) is the problem's noise seed and the expressions'. */
#include <math.h>

#include "convutil.h"
#include "studies/studies.h"
#include "studies/converge.h"
#include "core/expr.h"
#include "fast/model-tape.h"

static slpi_conv_cfg weak_cfg(slpi_problem *p, uint64_t seed, long paths, const char *phi)
{
    slpi_error err;
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    if (slpi_problem_preset(p, "iso/rigid-body/weak", &err) != SLPI_OK) fprintf(stderr, "%s\n", err.msg);
    p->grid.level = -1;
    p->noise.seed = seed;
    slpi_conv_cfg c;
    slpi_conv_init(&c, p);
    c.kind = SLPI_CONV_WEAK;
    c.kmin = 1;
    c.kmax = 3;
    c.L = 6;
    c.paths = paths;
    c.batches = 3;
    c.boot = 0;
    slpi_conv_phi_set(&c, phi);
    return c;
}

static char *printed(const slpi_conv_cfg *c, const slpi_conv_result *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    slpi_conv_print(c, r, f);
    fclose(f);
    return text;
}

static double phi_c(const double *x)
{
    return x[0] * x[1] + x[2] * x[2];
}

static int phi_fn(double *v, const double *x, int dim, void *data)
{
    (void)data;
    if (dim != 3) return 1;
    *v = phi_c(x);
    return 0;
}

/* ---------------------------------------------------------------- one evaluator */

/* A random expression of depth <= depth over the names nm[0..n), the parameter a, t, pi,
 * constants, every function and powers of every kind, into out. */
static void gen(char *out, size_t len, int depth, char nm[][16], int n)
{
    static const char *const fn[] = { "sqrt", "exp", "log", "sin", "cos", "tan", "atan", "sinh", "cosh", "tanh" };
    static const char *const pw[] = { "2", "3", "-1", "(-2)", "0", "0.5", "a", "(1/3)", "5" };
    char x[1024], y[1024];
    int k = depth <= 0 ? (int)test_rand_int(4) : 4 + (int)test_rand_int(4);
    if (k >= 4) gen(x, sizeof x, depth - 1 - (int)test_rand_int(2), nm, n);
    if (k <= 5 && k >= 4) gen(y, sizeof y, depth - 1 - (int)test_rand_int(2), nm, n);
    if (k == 0) snprintf(out, len, "%s", nm[test_rand_int(n)]);
    if (k == 1) snprintf(out, len, "%g", (double)(1 + test_rand_int(40)) / 8);
    if (k == 2) snprintf(out, len, "%s", test_rand_int(2) ? "t" : "pi");
    if (k == 3) snprintf(out, len, "a");
    if (k == 4 || k == 5) snprintf(out, len, "(%s %c %s)", x, "+-*/"[test_rand_int(4)], y);
    if (k == 6) snprintf(out, len, "%s(%s)", fn[test_rand_int(10)], x);
    if (k == 7) snprintf(out, len, "%s(%s)^%s", test_rand_int(2) ? "-" : "", x, pw[test_rand_int(9)]);
}

/* Equal bits, or both NaN. */
static int same(double u, double v)
{
    return (isnan(u) && isnan(v)) || !memcmp(&u, &v, sizeof u);
}

/* iters expressions per algebra: phi's value and the model tape's, at a random state. */
static void one_evaluator(long iters)
{
    static const char *const alg[] = { "so3", "se3", "so(4)", "su(3)", "so3^2" };
    long compared = 0, refused = 0, nonfinite = 0;
    for (int g = 0; g < 5; g++)
        for (long it = 0; it < iters; it++) {
            slpi_problem p;
            slpi_error err = { 0, "" };
            char nm[16][16], H[4096], N1[64], t0[32];
            slpi_problem_init(&p, SLPI_SYS_MODEL, SLPI_SCHEME_TMK);
            int rc = slpi_problem_set(&p, "algebra", alg[g], &err);
            int dim = rc ? 0 : slpi_problem_state_dim(&p);
            for (int i = 0; i < dim && i < 16; i++) slpi_problem_state_name(&p, i, nm[i], sizeof nm[i]);
            gen(H, sizeof H, 4, nm, dim < 16 ? dim : 16);
            snprintf(N1, sizeof N1, "a*cos(t)*%s", nm[0]); /* a and t are read whatever H reads */
            snprintf(t0, sizeof t0, "%.17g", test_rand_uniform(-2, 2));
            if (!rc) rc = slpi_problem_set(&p, "H", H, &err);
            if (!rc) rc = slpi_problem_set(&p, "noise_H1", N1, &err);
            if (!rc) rc = slpi_problem_set(&p, "param.a", "0.7", &err);
            if (!rc) rc = slpi_problem_set(&p, "t0", t0, &err);
            if (!rc) rc = slpi_problem_set(&p, "T", "0.75", &err);
            TEST_CHECKF(rc == SLPI_OK, "%s, H=%s: %s", alg[g], H, err.msg);
            slpi_model m;
            slpi_fast_tapes T;
            memset(&m, 0, sizeof m);
            memset(&T, 0, sizeof T);
            if (!rc) rc = slpi_model_parse(&m, &p, &err);
            TEST_CHECKF(rc == SLPI_OK, "%s, H=%s: %s", alg[g], H, err.msg);
            if (!rc && slpi_fast_tapes_build(&T, &m, &err) != SLPI_OK) {
                refused++; /* a constant outside its domain: the model's input error, phi's failed paths */
                rc = -1;
            }
            slpi_conv_cfg c;
            slpi_conv_init(&c, &p);
            slpi_conv_phi_set(&c, H);
            slpi_expr e;
            if (!rc) rc = slpi_conv_phi_parse(&e, &p, H, &err);
            TEST_CHECKF(rc <= 0, "phi=%s over %s: %s", H, alg[g], err.msg);
            if (rc == SLPI_OK) {
                double mu[16];
                for (int i = 0; i < dim; i++) mu[i] = test_rand_uniform(-1.5, 1.5);
                slpi_fast_tape_set_time(&T.t[0], strtod(t0, NULL) + 0.75);
                slpi_fast_tape_forward(&T.t[0], mu, NULL);
                double vm = T.t[0].v[T.t[0].root[0]], vp = slpi_conv_phi_eval(&c, &e, mu, dim);
                TEST_CHECKF(same(vm, vp), "%s, t0 = %s, H = phi = %s: the model's %a, phi's %a", alg[g], t0, H, vm, vp);
                compared++;
                nonfinite += !isfinite(vm);
            }
            if (rc == SLPI_OK) slpi_expr_free(&e);
            slpi_fast_tapes_clear(&T);
            slpi_model_free(&m);
        }
    printf("one evaluator: %ld expressions compared (%ld not finite), %ld with a constant refused\n", compared,
           nonfinite, refused);
    TEST_CHECKF(compared > 5 * iters / 2, "only %ld of %ld expressions compared", compared, 5 * iters);
}

/* Every coordinate name of each built-in system's default form, read as phi, is that
 * coordinate. */
static void builtin_names(void)
{
    static const slpi_system_id sys[] = { SLPI_SYS_RIGID_BODY,     SLPI_SYS_HEAVY_TOP,     SLPI_SYS_MANAKOV,
                                          SLPI_SYS_POINT_VORTICES, SLPI_SYS_EULER_ZEITLIN, SLPI_SYS_SINE_EULER };
    for (int s = 0; s < 6; s++) {
        slpi_problem p;
        slpi_error err = { 0, "" };
        slpi_problem_init(&p, sys[s], SLPI_SCHEME_ISOMP);
        int dim = slpi_problem_state_dim(&p);
        slpi_conv_cfg c;
        slpi_conv_init(&c, &p);
        double x[64];
        for (int i = 0; i < dim && i < 64; i++) x[i] = test_rand_uniform(-1, 1);
        for (int i = 0; i < dim && i < 64; i++) {
            char name[32];
            slpi_expr e;
            slpi_problem_state_name(&p, i, name, sizeof name);
            slpi_conv_phi_set(&c, name);
            int rc = slpi_conv_phi_parse(&e, &p, name, &err);
            double v = rc == SLPI_OK ? slpi_conv_phi_eval(&c, &e, x, dim) : NAN;
            TEST_CHECKF(rc == SLPI_OK && v == x[i], "%s: phi=%s: rc %d (%s), %g for x[%d] = %g",
                        slpi_system_name(sys[s]), name, rc, err.msg, v, i, x[i]);
            slpi_expr_free(&e);
        }
    }
}

int main(void)
{
    test_start("t-converge-phi", 1);
    uint64_t seed = test_rng_state_;
    long paths = 24 * test_iters(1);
    slpi_problem c_p;
    slpi_conv_cfg c = weak_cfg(&c_p, seed, paths, "x1*x2+x3^2");
    slpi_conv_result r;
    slpi_error err = { 0, "" };
    int rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
    TEST_CHECKF(rc == SLPI_OK && r.failed == 0, "rc %d, failed %ld: %s", rc, r.failed, err.msg);
    char *text = rc == SLPI_OK ? printed(&c, &r) : NULL;
    TEST_CHECKF(text && strstr(text, "# phi = x1*x2+x3^2\n"), "the report does not name the functional:\n%s",
                text ? text : "");

    /* the direct computation: every level of every path, phi in C, per batch in path order */
    int nlev = c.kmax - c.kmin + 1;
    double bs[3][5] = { { 0 } }, x[3], dw[1 << 6][CONV_MAX_NOISES];
    long sqrt_failed = 0;
    for (long p = 0; p < c.paths; p++) {
        double ph[5];
        int neg = 0;
        for (int i = 0; i <= nlev; i++) {
            int l = i < nlev ? c.kmin + i : c.L;
            slpi_fast *f = conv_level(c.base, l, c.L, p, x, dw, &err);
            TEST_CHECKF(f != NULL, "%s", err.msg);
            if (!f) break;
            for (int n = 0; n < 1 << l; n++) {
                slpi_step_info info;
                TEST_CHECKF(!slpi_step_failed(slpi_fast_step(f, x, dw[n], &info)), "path %ld level %d step %d failed",
                            p, l, n);
            }
            ph[i] = phi_c(x);
            neg |= !(x[2] - 0.4524 > 0);
            slpi_fast_free(f);
        }
        sqrt_failed += neg;
        int b = 0;
        while ((b + 1) * c.paths / 3 <= p) b++;
        for (int i = 0; i <= nlev; i++) bs[b][i] += ph[i];
    }
    for (int i = 0; rc == SLPI_OK && i <= nlev; i++) {
        double s = bs[0][i] + bs[1][i] + bs[2][i];
        TEST_CHECKF(r.cell[SLPI_CONV_PHI][i].mean == s / (double)c.paths, "level %d: E phi %a, direct %a",
                    i < nlev ? r.level[i] : c.L, r.cell[SLPI_CONV_PHI][i].mean, s / (double)c.paths);
    }

    /* the same functional as a function of the caller's: the same table */
    slpi_conv_cfg cf = c;
    cf.phi = SLPI_PHI_FN;
    cf.phi_fn = phi_fn;
    cf.phi_text = NULL;
    slpi_conv_result rf;
    rc = slpi_conv_run(&cf, NULL, NULL, &rf, &err);
    char *tf = rc == SLPI_OK ? printed(&cf, &rf) : NULL;
    const char *body = text ? strstr(text, "\nlevel ") : NULL, *bodyf = tf ? strstr(tf, "\nlevel ") : NULL;
    TEST_CHECKF(body && bodyf && !strcmp(body, bodyf) && strstr(tf, "# phi = callable\n"),
                "the function's study differs from the expression's:\n%s\n%s", text ? text : "", tf ? tf : err.msg);
    free(text);
    free(tf);

    /* not finite on some paths: failed paths, counted */
    slpi_problem cs_p;
    slpi_conv_cfg cs = weak_cfg(&cs_p, seed, paths, "sqrt(x3 - 0.4524)");
    rc = slpi_conv_run(&cs, NULL, NULL, &r, &err);
    if (sqrt_failed <= c.paths - 2) {
        TEST_CHECKF(rc == SLPI_OK && r.failed == sqrt_failed && r.paths == c.paths - sqrt_failed,
                    "sqrt(x3 - 0.4524): rc %d, failed %ld (direct %ld): %s", rc, r.failed, sqrt_failed, err.msg);
        char *ts = rc == SLPI_OK ? printed(&cs, &r) : NULL, *js = NULL;
        size_t jn = 0;
        FILE *jf = open_memstream(&js, &jn);
        if (jf && rc == SLPI_OK) slpi_conv_write_json(&cs, &r, jf);
        if (jf) fclose(jf);
        const slpi_conv_failure *ff = &r.first_failure;
        TEST_CHECKF(!sqrt_failed ||
                        (ts && strstr(ts, "# failed paths ") &&
                         strstr(ts, "the functional phi = sqrt(x3 - 0.4524) is not finite there: ") &&
                         !strstr(ts, "diverged") && ff->functional && isnan(ff->value) &&
                         ff->step == (1L << ff->level) - 1 && js &&
                         strstr(js, "\"status\": \"functional not finite\"") &&
                         strstr(js, "\"functional\": \"sqrt(x3 - 0.4524)\"")),
                    "sqrt(x3 - 0.4524): the failures are not reported as the functional's:\n%s\n%s", ts ? ts : "",
                    js ? js : "");
        free(ts);
        free(js);
    }
    printf("sqrt(x3 - 0.4524): %ld of %ld paths failed\n", sqrt_failed, c.paths);
    slpi_problem cl_p;
    slpi_conv_cfg cl = weak_cfg(&cl_p, seed, 6, "log(x1 - 5)");
    rc = slpi_conv_run(&cl, NULL, NULL, &r, &err);
    TEST_CHECKF(rc == SLPI_ENUMERIC && strstr(err.msg, "6 of 6 paths failed") &&
                    strstr(err.msg, "the functional phi = log(x1 - 5) is not finite there: ") &&
                    !strstr(err.msg, "diverged"),
                "log(x1 - 5): rc %d: %s", rc, err.msg);

    /* bad input, named */
    slpi_problem cb_p;
    slpi_conv_cfg cb = weak_cfg(&cb_p, seed, 6, "x1*x9");
    rc = slpi_conv_run(&cb, NULL, NULL, &r, &err);
    TEST_CHECKF(rc == SLPI_EINPUT && strstr(err.msg, "phi: col 4"), "x9: rc %d: %s", rc, err.msg);
    slpi_problem cv_p;
    slpi_conv_cfg cv = weak_cfg(&cv_p, seed, 6, "Pi1");
    slpi_error e2;
    TEST_CHECKF(slpi_problem_set(&cv_p, "form", "svi", &e2) == SLPI_OK, "form=svi: %s", e2.msg);
    rc = slpi_conv_run(&cv, NULL, NULL, &r, &err);
    TEST_CHECKF(rc == SLPI_EINPUT && strstr(err.msg, "phi=Pi1") && strstr(err.msg, "no names"), "svi: rc %d: %s", rc,
                err.msg);
    one_evaluator(40 * test_iters(1));
    builtin_names();
    TEST_END();
}
