/* zeitlinutil.h — the Zeitlin family tests' shared steps (t-zeitlin-family.c,
 * t-zeitlin-multiplier.c): a problem from keys, one step on both paths, a normal draw. */
#ifndef SLPI_TESTS_ZEITLINUTIL_H
#define SLPI_TESTS_ZEITLINUTIL_H

#include <float.h>
#include "testutil.h"
#include "slpi.h"

#define U (DBL_EPSILON / 2)

static inline double gauss(void)
{
    double u = test_rand_uniform(1e-300, 1), v = test_rand_uniform(0, 1);
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* An euler-zeitlin problem of scheme k and size N with the extra keys "k=v k=v ..." (NULL: none). */
static inline int make_scheme(slpi_problem *p, slpi_scheme_id k, int N, const char *extra)
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
    if (!ok) fprintf(stderr, "%s: N=%d %s: %s\n", test_name_, N, extra ? extra : "", err.msg);
    return ok;
}

static inline int make(slpi_problem *p, int N, const char *extra)
{
    return make_scheme(p, SLPI_SCHEME_ISOMP, N, extra);
}

/* One step of p from x with dW on both paths: y (double) and yb (balls); 1 if both stepped. */
static inline int step_both(const slpi_problem *p, const double *x, const double *dW, double *y, arb_ptr yb)
{
    slpi_fast *f = NULL;
    slpi_ref *r = NULL;
    slpi_error err;
    slpi_step_info info;
    int n = slpi_problem_state_dim(p), ok = 0;
    if (slpi_fast_create(&f, p, &err) == SLPI_OK && slpi_ref_create(&r, p, &err) == SLPI_OK) {
        memcpy(y, x, sizeof(double) * (size_t)n);
        for (int i = 0; i < n; i++) arb_set_d(yb + i, x[i]);
        ok = !slpi_step_failed(slpi_fast_step(f, y, dW, &info)); /* fixed_iters: accepted */
        ok = ok && !slpi_step_failed(slpi_ref_step(r, yb, dW, &info));
        if (!ok) fprintf(stderr, "%s: step: %s\n", test_name_, slpi_ref_unable_reason(r));
    } else {
        fprintf(stderr, "%s: create: %s\n", test_name_, err.msg);
    }
    slpi_fast_free(f);
    slpi_ref_free(r);
    return ok;
}

/* The double step y against the certified balls b of the same step: max |y - mid b| over
 * the scale max |y| (the solver's tolerance judges it: t-zeitlin-family's 5). */
static inline double mid_gap(const double *y, arb_srcptr b, int n)
{
    double d = 0, s = 0;
    for (int i = 0; i < n; i++) {
        d = fmax(d, fabs(y[i] - arf_get_d(arb_midref(b + i), ARF_RND_NEAR)));
        s = fmax(s, fabs(y[i]));
    }
    return d / s;
}

/* The same step two ways: p1 with dW1 and p2 with dW2 from x, on both paths, into y1 and b1
 * (p1's); the double steps within |dy| / (N u max|y|) <= 10, the certified balls
 * intersecting; what names the pair in messages. 1 if all four steps were taken. */
static inline int same_step(const slpi_problem *p1, const double *dW1, const slpi_problem *p2, const double *dW2,
                            const double *x, double *y1, arb_ptr b1, const char *what)
{
    int n = slpi_problem_state_dim(p1), N = (int)lround(sqrt(n));
    double *y2 = malloc(sizeof(double) * (size_t)n);
    arb_ptr b2 = _arb_vec_init(n);
    int ok = step_both(p1, x, dW1, y1, b1) && step_both(p2, x, dW2, y2, b2);
    TEST_CHECKF(ok, "N=%d: %s: a step failed", N, what);
    if (ok) {
        double d = 0, s = 0;
        int miss = -1;
        for (int i = 0; i < n; i++) {
            d = fmax(d, fabs(y1[i] - y2[i]));
            s = fmax(s, fabs(y1[i]));
            if (miss < 0 && !arb_overlaps(b1 + i, b2 + i)) miss = i;
        }
        TEST_CHECKF(d / (N * U * s) <= 10, "N=%d: %s, double ratio %.3g > 10", N, what, d / (N * U * s));
        TEST_CHECKF(miss < 0, "N=%d: %s, certified balls apart at entry %d", N, what, miss);
    }
    _arb_vec_clear(b2, n);
    free(y2);
    return ok;
}

/* The double path's diagnostic name of d (NaN if none). */
static inline double diag_value(const slpi_diag *d, const char *name)
{
    for (int i = 0; i < d->n; i++)
        if (strcmp(d->name[i], name) == 0) return d->value[i];
    return NAN;
}

/* The certified path's diagnostic name of r at the state xb: its ball into out (indeterminate if none). */
static inline void ref_diag_value(arb_t out, slpi_ref *r, arb_srcptr xb, const char *name)
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
