/* schemeutil.h — the two checks behind the per-scheme unit tests (t-fast-<scheme>.c,
 * t-ref-<scheme>.c), each run on every system the scheme applies to, at sizes the
 * certified path takes in a fraction of a second (Manakov n = 4, Euler–Zeitlin and
 * sine-Euler N = 3), from the problem's default initial state on canonical increments:
 *
 *   su_fast_vs_ref   the same steps two ways: the double path's state after SU_STEPS
 *                    steps must score PASS (ratio <= 30, oracle/score.c) against the
 *                    certified balls, and a state moved by 1e-9 of its size must FAIL
 *                    (so the comparison can fail);
 *   su_ref_structure the certified step two ways and against the scheme's theory: at
 *                    128 and 256 bits the balls must overlap (both contain the exact
 *                    step) with the 256-bit one narrower; and the Casimir departures
 *                    (certified diagnostics named after x0, energy and R aside) must contain 0
 *                    where the scheme keeps them (orbit-preserving schemes: all; the
 *                    implicit midpoint rule: the quadratic ones) and exclude 0 where it
 *                    provably does not (trapezoidal rule: |x|^2 of the rigid body;
 *                    implicit midpoint: the cubic C3 of Euler–Zeitlin). */
#ifndef SLPI_SCHEMEUTIL_H
#define SLPI_SCHEMEUTIL_H

#include "slpi.h" /* tests are white-box: the whole public API */
#include "core/problem-struct.h"
#include "testutil.h"
#include "slpi-tools.h"

#define SU_STEPS 3

typedef enum { SU_KEEPS_CASIMIRS, SU_KEEPS_QUADRATIC, SU_KEEPS_NONE } su_structure;

/* The scheme's problem on system s at test size; 0 if the pair is not applicable. */
static inline int su_problem(slpi_problem *p, slpi_system_id s, slpi_scheme_id k, long prec)
{
    slpi_error err;
    slpi_problem_init(p, s, k);
    p->sys.mk.n = 4;
    p->sys.ez.N = 3;
    p->sys.ez.ic_lmax = 2;
    p->sys.se.N = 3;
    p->grid.h = 0.05;
    p->grid.steps = SU_STEPS;
    p->cert.prec = prec;
    if (p->cert.prec_max < prec) p->cert.prec_max = prec;
    return slpi_registry_pair(s, k, NULL) != SLPI_NA && slpi_problem_validate(p, &err) == SLPI_OK;
}

static inline void su_increments(const slpi_problem *p, double *dW)
{
    slpi_noise_source *src = NULL;
    slpi_error err;
    int M = slpi_problem_noise_count(p);
    TEST_CHECKF(slpi_noise_source_open(&src, p, &err) == SLPI_OK, "noise: %s", err.msg);
    for (long n = 0; src && n < SU_STEPS; n++) slpi_noise_source_step(src, n, dW + n * M, &err);
    slpi_noise_source_close(src);
}

/* SU_STEPS certified steps from the doubles x0 at the problem's precision; 0 if UNABLE. */
static inline int su_ref_run(const slpi_problem *p, const double *x0, const double *dW, arb_ptr x)
{
    slpi_ref *r = NULL;
    slpi_error err;
    int dim = slpi_problem_state_dim(p), M = slpi_problem_noise_count(p), ok = 1;
    TEST_CHECKF(slpi_ref_create(&r, p, &err) == SLPI_OK, "ref %s/%s: %s", slpi_system_name(p->sys.system),
                slpi_scheme_name(p->sch.scheme), err.msg);
    if (!r) return 0;
    for (int i = 0; i < dim; i++) arb_set_d(x + i, x0[i]);
    for (long n = 0; ok && n < SU_STEPS; n++) {
        slpi_step_info info;
        ok = !slpi_step_failed(slpi_ref_step(r, x, dW + n * M, &info));
    }
    slpi_ref_free(r);
    return ok;
}

/* su_fast_vs_ref on one system (sys >= 0) or all (-1), with the problem adjusted by tweak
 * (NULL: none) before the run: e.g. the heavy top's exp_form, whose roundings of the
 * same exact map must all agree with the certified path. */
static inline void su_fast_vs_ref_with(slpi_scheme_id k, int sys, void (*tweak)(slpi_problem *))
{
    int systems = 0;
    for (int s = 0; s < SLPI_SYS_COUNT; s++) {
        slpi_problem p;
        slpi_error err;
        if ((sys >= 0 && s != sys) || !su_problem(&p, (slpi_system_id)s, k, 128)) continue;
        if (tweak) tweak(&p);
        int dim = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p);
        double *x0 = malloc((size_t)dim * sizeof *x0), *x = malloc((size_t)dim * sizeof *x);
        double *dW = calloc((size_t)(M * SU_STEPS + 1), sizeof *dW);
        arb_ptr b = _arb_vec_init(dim);
        slpi_fast *f = NULL;
        TEST_CHECKF(slpi_fast_problem_initial_state(&p, x0, &err) == SLPI_OK, "x0: %s", err.msg);
        TEST_CHECKF(slpi_fast_create(&f, &p, &err) == SLPI_OK, "fast: %s", err.msg);
        su_increments(&p, dW);
        memcpy(x, x0, (size_t)dim * sizeof *x);
        for (long n = 0; f && n < SU_STEPS; n++) {
            slpi_step_info info;
            TEST_CHECK(!slpi_step_failed(slpi_fast_step(f, x, dW + n * M, &info)));
        }
        if (f && su_ref_run(&p, x0, dW, b)) {
            slpi_score sc;
            slpi_score_vector(x, b, dim, slpi_score_unit(SU_STEPS, SLPI_U_BINARY64), 0, &sc);
            printf("  %s/%s: fast vs certified after %d steps: ratio in [%.3g, %.3g]\n", slpi_system_name(p.sys.system),
                   slpi_scheme_name(k), SU_STEPS, sc.lo, sc.hi);
            TEST_CHECKF(slpi_score_verdict(&sc, SLPI_ORACLE_THRESHOLD) == SLPI_VERDICT_PASS, "%s/%s: ratio %.3g",
                        slpi_system_name(p.sys.system), slpi_scheme_name(k), sc.hi);
            double big = 0;
            for (int i = 0; i < dim; i++) big = fmax(big, fabs(x[i]));
            int i = (int)test_rand_int(dim);
            x[i] += 1e-9 * big;
            slpi_score_vector(x, b, dim, slpi_score_unit(SU_STEPS, SLPI_U_BINARY64), 0, &sc);
            TEST_CHECKF(slpi_score_verdict(&sc, SLPI_ORACLE_THRESHOLD) == SLPI_VERDICT_FAIL,
                        "%s/%s: a state off by 1e-9 scores %.3g", slpi_system_name(p.sys.system), slpi_scheme_name(k),
                        sc.hi);
            systems++;
        } else {
            TEST_CHECKF(0, "%s/%s: certified run UNABLE", slpi_system_name(p.sys.system), slpi_scheme_name(k));
        }
        slpi_fast_free(f);
        _arb_vec_clear(b, dim);
        free(x0);
        free(x);
        free(dW);
    }
    TEST_CHECKF(systems > 0, "%s applies to no system", slpi_scheme_name(k));
}

static inline void su_fast_vs_ref(slpi_scheme_id k)
{
    su_fast_vs_ref_with(k, -1, NULL);
}

static inline double su_radius(arb_srcptr x, int n)
{
    double r = 0;
    for (int i = 0; i < n; i++) r = fmax(r, mag_get_d(arb_radref(x + i)));
    return r;
}

/* A Casimir departure name: NAME_dev or NAME_rel_dev of an invariant (docs/architecture.md#twin-diagnostics),
 * without the energy H0, the rotation's p_phi = (R Pi)_z and J = R Pi, and the heavy top's pi3. */
static inline int su_casimir(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, "_dev") == 0 && strncmp(name, "H0", 2) != 0 &&
        strncmp(name, "p_phi", 5) != 0 && strncmp(name, "J_", 2) != 0 && strcmp(name, "pi3_dev") != 0 &&
        strcmp(name, "eig_dev") != 0 && strcmp(name, "noether_J_dev") != 0;
}

static inline int su_quadratic(slpi_system_id s, const char *name)
{
    return s == SLPI_SYS_RIGID_BODY || s == SLPI_SYS_HEAVY_TOP || s == SLPI_SYS_POINT_VORTICES ||
        strncmp(name, "C2", 2) == 0 || strncmp(name, "trX2", 4) == 0;
}

static inline void su_ref_structure(slpi_scheme_id k, su_structure kind)
{
    int systems = 0, negatives = 0;
    for (int s = 0; s < SLPI_SYS_COUNT; s++) {
        slpi_problem p, q;
        slpi_error err;
        if (!su_problem(&p, (slpi_system_id)s, k, 128) || !su_problem(&q, (slpi_system_id)s, k, 256)) continue;
        int dim = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p);
        double *x0 = malloc((size_t)dim * sizeof *x0), *dW = calloc((size_t)(M * SU_STEPS + 1), sizeof *dW);
        arb_ptr a = _arb_vec_init(dim), b = _arb_vec_init(dim), a0 = _arb_vec_init(dim);
        TEST_CHECKF(slpi_fast_problem_initial_state(&p, x0, &err) == SLPI_OK, "x0: %s", err.msg);
        su_increments(&p, dW);
        for (int i = 0; i < dim; i++) arb_set_d(a0 + i, x0[i]);
        if (su_ref_run(&p, x0, dW, a) && su_ref_run(&q, x0, dW, b)) {
            int overlap = 1;
            for (int i = 0; i < dim; i++) overlap &= arb_overlaps(a + i, b + i);
            double ra = su_radius(a, dim), rb = su_radius(b, dim);
            TEST_CHECKF(overlap && rb < ra, "%s/%s: 128 and 256 bits: overlap %d, radii %.3g %.3g",
                        slpi_system_name(p.sys.system), slpi_scheme_name(k), overlap, ra, rb);
            slpi_ref *r = NULL;
            slpi_ref_diag d;
            slpi_ref_diag_init(&d);
            if (slpi_ref_create(&r, &p, &err) == SLPI_OK) slpi_ref_diagnostics(r, a, a0, &d);
            int kept = 0, broken = 0;
            for (int i = 0; i < d.n; i++) {
                if (!su_casimir(d.name[i]) || arb_is_finite(d.value + i) == 0) continue;
                int zero = arb_contains_zero(d.value + i);
                int keeps =
                    kind == SU_KEEPS_CASIMIRS || (kind == SU_KEEPS_QUADRATIC && su_quadratic(p.sys.system, d.name[i]));
                int breaks = (kind == SU_KEEPS_NONE && p.sys.system == SLPI_SYS_RIGID_BODY) ||
                    (kind == SU_KEEPS_QUADRATIC && p.sys.system == SLPI_SYS_EULER_ZEITLIN &&
                     strncmp(d.name[i], "C3", 2) == 0);
                if (keeps) {
                    kept++;
                    TEST_CHECKF(zero, "%s/%s: %s = %s must contain 0", slpi_system_name(p.sys.system),
                                slpi_scheme_name(k), d.name[i], arb_get_str(d.value + i, 10, 0));
                } else if (breaks) {
                    broken++;
                    TEST_CHECKF(!zero, "%s/%s: %s must exclude 0 (the scheme does not keep it)",
                                slpi_system_name(p.sys.system), slpi_scheme_name(k), d.name[i]);
                }
            }
            negatives += broken;
            printf("  %s/%s: radii %.3g (128 bits) %.3g (256 bits); %d Casimir departures contain 0, %d exclude it\n",
                   slpi_system_name(p.sys.system), slpi_scheme_name(k), ra, rb, kept, broken);
            slpi_ref_diag_clear(&d);
            slpi_ref_free(r);
            systems++;
        } else {
            TEST_CHECKF(0, "%s/%s: certified run UNABLE", slpi_system_name(p.sys.system), slpi_scheme_name(k));
        }
        _arb_vec_clear(a, dim);
        _arb_vec_clear(b, dim);
        _arb_vec_clear(a0, dim);
        free(x0);
        free(dW);
    }
    TEST_CHECKF(systems > 0, "%s applies to no system", slpi_scheme_name(k));
    if (kind != SU_KEEPS_CASIMIRS)
        TEST_CHECKF(negatives > 0, "%s: no departure shown to exclude 0", slpi_scheme_name(k));
}

#endif
