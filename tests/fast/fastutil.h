/* fastutil.h — helpers shared by the tests of fast/ (t-fast-*.c): problem set-up,
 * Gaussian increments from the test generator, and running n steps. */
#ifndef SLPI_FASTUTIL_H
#define SLPI_FASTUTIL_H

#include "slpi.h" /* tests are white-box: the whole public API */
#include "testutil.h"
#include "core/problem-struct.h"
#include "fast/fast.h"

typedef void (*fu_tweak)(slpi_problem *p);

/* Create the double-path run for (s, k) with the papers' defaults, then tweak. */
static inline slpi_fast *fu_make(slpi_system_id s, slpi_scheme_id k, fu_tweak tweak)
{
    slpi_problem p;
    slpi_error err = { 0 };
    slpi_problem_init(&p, s, k);
    if (tweak) tweak(&p);
    slpi_fast *f = NULL;
    int rc = slpi_fast_create(&f, &p, &err);
    TEST_CHECKF(rc == 0, "create %s/%s: %s", slpi_system_name(s), slpi_scheme_name(k), err.msg);
    return f;
}

/* Standard normal (Box–Muller) from the test generator. */
static inline double fu_normal(void)
{
    double u = test_rand_uniform(0x1p-60, 1), v = test_rand_uniform(0, 1);
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* n steps with N(0, h) increments drawn from dw (n * M values) or fresh if dw == NULL;
 * returns the number of failed steps. */
static inline int fu_run(slpi_fast *f, double *x, long n, const double *dw)
{
    int M = f->sys.M, bad = 0;
    double w[4096];
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < M; k++) w[k] = dw ? dw[i * M + k] : sqrt(f->h) * fu_normal();
        slpi_step_info info;
        if (slpi_step_failed(slpi_fast_step(f, x, w, &info))) bad++;
    }
    return bad;
}

static inline double fu_maxdiff(const double *a, const double *b, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

/* The terms' scale of g(mu) and of its derivative J w (J = dg/dmu, column j the derivative
 * along e_j), the condition of each with respect to relative changes of its inputs:
 *   s[0] = max_i |g_i| + sum_j |J_ij mu_j|,
 *   s[1] = max_i |(J w)_i| + sum_j |J_ij w_j| + sum_j |(dJ/dmu_j w)_i mu_j|,
 * the last by central differences of J w (a magnitude, so its truncation is immaterial).
 * Two evaluation orders of one expression differ by a few u times the terms they add, not
 * their sum, which may cancel (the standard bound gamma_n sum |t|); for a monomial t of
 * degree d, sum_j mu_j dt/dmu_j = d t, and an inner argument (cos(x1 + 2 x2)) rounded by
 * u moves the result as a relative change of the inputs does. */
static inline void fu_term_scale(slpi_fast *f, int k, const double *mu, const double *w, double s[2])
{
    double g[SLPI_MAX_X0], dg[SLPI_MAX_X0], col[SLPI_MAX_X0], e[SLPI_MAX_X0] = { 0 };
    double sg[SLPI_MAX_X0], sd[SLPI_MAX_X0], m[SLPI_MAX_X0], up[SLPI_MAX_X0], dn[SLPI_MAX_X0];
    int n = f->sys.dim;
    f->sys.gen(&f->sys, k, g, mu);
    f->sys.dgen(&f->sys, k, dg, mu, w);
    for (int i = 0; i < n; i++) {
        sg[i] = fabs(g[i]);
        sd[i] = fabs(dg[i]);
        m[i] = mu[i];
    }
    for (int j = 0; j < n; j++) {
        double eta = 0x1p-20 * fmax(fabs(mu[j]), 1);
        e[j] = 1;
        f->sys.dgen(&f->sys, k, col, mu, e);
        e[j] = 0;
        m[j] = mu[j] + eta;
        f->sys.dgen(&f->sys, k, up, m, w);
        m[j] = mu[j] - eta;
        f->sys.dgen(&f->sys, k, dn, m, w);
        m[j] = mu[j];
        for (int i = 0; i < n; i++) {
            sg[i] += fabs(col[i] * mu[j]);
            sd[i] += fabs(col[i] * w[j]) + fabs((up[i] - dn[i]) / (2 * eta) * mu[j]);
        }
    }
    s[0] = s[1] = 0;
    for (int i = 0; i < n; i++) {
        s[0] = fmax(s[0], sg[i]);
        s[1] = fmax(s[1], sd[i]);
    }
}

/* Generator k of two runs on the same state: d[0] = max|gen_a - gen_b|, d[1] = the terms'
 * scale of gen_b (fu_term_scale), and the same for dgen along w in d[2], d[3]
 * (dim <= SLPI_MAX_X0). */
static inline void fu_gen_diff(slpi_fast *a, slpi_fast *b, int k, const double *mu, const double *w, double d[4])
{
    double x1[SLPI_MAX_X0], x2[SLPI_MAX_X0], s[2];
    int n = b->sys.dim;
    d[0] = d[2] = 0;
    a->sys.gen(&a->sys, k, x1, mu);
    b->sys.gen(&b->sys, k, x2, mu);
    for (int i = 0; i < n; i++) d[0] = fmax(d[0], fabs(x1[i] - x2[i]));
    a->sys.dgen(&a->sys, k, x1, mu, w);
    b->sys.dgen(&b->sys, k, x2, mu, w);
    for (int i = 0; i < n; i++) d[2] = fmax(d[2], fabs(x1[i] - x2[i]));
    fu_term_scale(b, k, mu, w, s);
    d[1] = s[0];
    d[3] = s[1];
}

static inline const char *fu_isa_name(slpi_fast_isa isa)
{
    return isa == SLPI_FAST_ISA_AVX512 ? "avx512" : isa == SLPI_FAST_ISA_AVX2 ? "avx2" : "portable";
}

/* The next lock-step kernel after *isa (fast/ensemble.h) that this processor runs, into
 * *isa (0 when none is left); prints a line for each one passed over, and the portable
 * kernel, which runs everywhere, missing fails the test. */
static inline int fu_isa_next(slpi_fast_isa *isa)
{
    while (*isa < SLPI_FAST_ISA_AVX512) {
        *isa = (slpi_fast_isa)(*isa + 1);
        if (slpi_fast_ensemble_isa_available(*isa)) return 1;
        printf("  %s kernel: not available on this processor\n", fu_isa_name(*isa));
        TEST_CHECKF(*isa != SLPI_FAST_ISA_PORTABLE, "the portable kernel is not available");
    }
    return 0;
}

/* FU_EACH_ISA(isa) { ... }: the body once for each kernel this processor runs, in the
 * order portable, AVX2, AVX-512F (fu_isa_next). */
#define FU_EACH_ISA(isa) for (slpi_fast_isa isa = SLPI_FAST_ISA_AUTO; fu_isa_next(&isa);)

/* Value of a named diagnostic (NAN if absent). */
static inline double fu_diag(slpi_fast *f, const double *x, const double *x0, const char *name)
{
    slpi_diag d = { 0 };
    slpi_fast_diagnostics(f, x, x0, &d);
    for (int i = 0; i < d.n; i++)
        if (strcmp(d.name[i], name) == 0) return d.value[i];
    return NAN;
}

#endif
