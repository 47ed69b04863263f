/* t-converge-phi.c — the weak functional as an expression of the state or a function
 * (reports/converge-phi.c; docs/noise.md#functionals):
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
 * Tolerance: none, the values are compared bit for bit (the same operations in the same
 * order). The seed (SLPI_TEST_SEED) is the problem's noise seed. */
#include <math.h>

#include "convutil.h"
#include "reports/reports.h"

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
    TEST_END();
}
