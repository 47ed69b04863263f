/* zeitlinutil.h — the Zeitlin family tests' shared steps (t-zeitlin-family.c,
 * t-zeitlin-multiplier.c): a problem from keys, one step on both paths, a normal draw. */
#ifndef SLPI_TESTS_ZEITLINUTIL_H
#define SLPI_TESTS_ZEITLINUTIL_H

#include <float.h>
#include "testutil.h"
#include "slpi.h"

#define U (DBL_EPSILON / 2)

static double gauss(void)
{
    double u = test_rand_uniform(1e-300, 1), v = test_rand_uniform(0, 1);
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* An euler-zeitlin problem of scheme k and size N with the extra keys "k=v k=v ..." (NULL: none). */
static int make_scheme(slpi_problem *p, slpi_scheme_id k, int N, const char *extra)
{
    slpi_error err;
    char buf[8192], v[32];
    slpi_problem_init(p, SLPI_SYS_EULER_ZEITLIN, k);
    snprintf(v, sizeof v, "%d", N);
    int ok = slpi_problem_set(p, "N", v, &err) == SLPI_OK;
    snprintf(v, sizeof v, "%d", N - 1);
    ok = ok && slpi_problem_set(p, "ic_lmax", v, &err) == SLPI_OK;
    snprintf(buf, sizeof buf, "%s", extra ? extra : "");
    char *save = NULL;
    for (char *kv = strtok_r(buf, " ", &save); kv && ok; kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        *eq = '\0';
        ok = slpi_problem_set(p, kv, eq + 1, &err) == SLPI_OK;
    }
    ok = ok && slpi_problem_finish(p, &err) == SLPI_OK;
    if (!ok)
        fprintf(stderr, "%s: N=%d %s: %s\n", test_name_, N, extra ? extra : "", err.msg);
    return ok;
}

static int make(slpi_problem *p, int N, const char *extra)
{
    return make_scheme(p, SLPI_SCHEME_ISOMP, N, extra);
}

/* One step of p from x with dW on both paths: y (double) and yb (balls); 1 if both stepped. */
static int step_both(const slpi_problem *p, const double *x, const double *dW, double *y, arb_ptr yb)
{
    slpi_fast *f = NULL;
    slpi_ref *r = NULL;
    slpi_error err;
    slpi_step_info info;
    int n = slpi_problem_state_dim(p), ok = 0;
    if (slpi_fast_create(&f, p, &err) == SLPI_OK && slpi_ref_create(&r, p, &err) == SLPI_OK) {
        memcpy(y, x, sizeof(double) * (size_t)n);
        for (int i = 0; i < n; i++)
            arb_set_d(yb + i, x[i]);
        ok = !slpi_step_failed(slpi_fast_step(f, y, dW, &info));   /* fixed_iters: accepted */
        ok = ok && !slpi_step_failed(slpi_ref_step(r, yb, dW, &info));
        if (!ok)
            fprintf(stderr, "%s: step: %s\n", test_name_, slpi_ref_unable_reason(r));
    } else {
        fprintf(stderr, "%s: create: %s\n", test_name_, err.msg);
    }
    slpi_fast_free(f);
    slpi_ref_free(r);
    return ok;
}

/* The double path's diagnostic name of d (NaN if none). */
static double diag_value(const slpi_diag *d, const char *name)
{
    for (int i = 0; i < d->n; i++)
        if (strcmp(d->name[i], name) == 0) return d->value[i];
    return NAN;
}

/* The certified path's diagnostic name of r at the state xb: its ball into out (indeterminate if none). */
static void ref_diag_value(arb_t out, slpi_ref *r, arb_srcptr xb, const char *name)
{
    slpi_ref_diag rd;
    slpi_ref_diag_init(&rd);
    slpi_ref_diagnostics(r, xb, NULL, &rd);
    arb_indeterminate(out);
    for (int i = 0; i < rd.n; i++)
        if (strcmp(rd.name[i], name) == 0) arb_set(out, rd.value + i);
    slpi_ref_diag_clear(&rd);
}

#endif
