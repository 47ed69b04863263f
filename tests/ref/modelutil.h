/* modelutil.h — what the tests of the certified model system share (tests/ref/
 * t-ref-model.c, the derivatives, domains, wide balls and tape; tests/ref/
 * t-ref-model-steps.c, the built-ins restated as models and stepped): a model problem from
 * its algebra, H and noises, the certified system of a problem, and the comparison of two
 * ball vectors (both tight, that is finite with radius <= 2^-90 max(1, |mid|), and
 * overlapping: an indeterminate ball overlaps everything). */
#ifndef SLPI_TESTS_MODELUTIL_H
#define SLPI_TESTS_MODELUTIL_H

#include "core/problem-struct.h"
#include "core/plan.h"
#include "testutil.h"
#include "ref/scheme.h"

#define PREC 128

static inline void model_problem(slpi_problem *p, slpi_scheme_id k, const char *alg, const char *H, int M,
                                 const char *const *noise)
{
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, k);
    p->sys.system = SLPI_SYS_MODEL;
    slpi_error err;
    TEST_CHECKF(slpi_problem_set(p, "algebra", alg, &err) == SLPI_OK, "%s", err.msg); /* its one parse */
    snprintf(p->sys.model.H, sizeof p->sys.model.H, "%s", H);
    int amp = strstr(H, "amp") != NULL;
    for (int i = 0; i < M; i++) {
        snprintf(p->sys.model.noise_H[i], sizeof p->sys.model.noise_H[i], "%s", noise[i]);
        amp |= strstr(noise[i], "amp") != NULL;
    }
    p->sys.model.nparam = amp; /* used by the restated noises (an unused one is refused) */
    snprintf(p->sys.model.param_name[0], SLPI_MODEL_NAME_MAX, "amp");
    snprintf(p->sys.model.param_text[0], SLPI_MODEL_NAME_MAX, "0.375");
    p->sys.model.param[0] = 0.375;
}

static inline int sys_init(slpi_ref_system *s, const slpi_problem *p)
{
    slpi_error err;
    slpi_plan *plan = NULL;
    memset(s, 0, sizeof *s);
    static slpi_problem q; /* a model's parse, under TMK, which admits every model (the system reads no scheme) */
    q = *p;
    q.sch.scheme = SLPI_SCHEME_TMK;
    int rc = p->sys.system == SLPI_SYS_MODEL ? slpi_plan_compile(&plan, &q, &err) : SLPI_OK;
    if (rc == SLPI_OK) rc = slpi_ref_system_init(s, p, plan, &err);
    slpi_plan_unref(plan); /* the system holds its own reference */
    if (rc != SLPI_OK) {
        TEST_CHECKF(0, "system init: %s", err.msg);
        return 0;
    }
    return 1;
}

/* tight: finite with radius <= 2^-90 max(1, |mid|) */
static inline int tight(const arb_t x)
{
    if (!arb_is_finite(x)) return 0;
    double m = fabs(arf_get_d(arb_midref(x), ARF_RND_NEAR));
    return mag_cmp_2exp_si(arb_radref(x), -90) <= 0 || mag_get_d(arb_radref(x)) <= 0x1p-90 * m;
}

/* both tight and overlapping, componentwise */
static inline int agree(arb_srcptr a, arb_srcptr b, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        if (!tight(a + i) || !tight(b + i) || !arb_overlaps(a + i, b + i)) {
            fprintf(stderr, "%s: component %d: ", what, i);
            arb_fprintd(stderr, a + i, 20);
            fprintf(stderr, " vs ");
            arb_fprintd(stderr, b + i, 20);
            fprintf(stderr, "\n");
            return 0;
        }
    return 1;
}

#endif
