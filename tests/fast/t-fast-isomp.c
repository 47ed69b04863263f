/* t-fast-isomp.c — unit test of the isospectral midpoint method (fast/isomp.c) on the
 * double path:
 *  - on every system the scheme applies to, the same steps computed two ways, here and
 *    by the certified path, must agree within the oracle's budget, and a state off by
 *    1e-9 must not (tests/schemeutil.h);
 *  - the Euler predictor (predictor=euler, the default: the solve starts from
 *    X_n + [Psi(X_n), X_n]/2) against predictor=none (from X_n) on the same increments, on
 *    the four systems below: every state within 1e-13 relative, and at least half an
 *    iteration fewer per step on each system. The rule, fixed before measuring: the
 *    predictor is the midpoint to O(|Psi|^2), as the first iterate from X_n is, so it
 *    saves one iteration per step, less the steps that sit at a boundary of the stopping
 *    rule (measured when written: 0.8 to 1.1 per step); a predictor off by O(|Psi|)
 *    (a term dropped or doubled) saves nothing;
 *  - predictor=cayley (the Cayley congruence at Psi of the Euler predictor) against the
 *    Euler predictor on the same increments, on the same four systems: states within 1e-13
 *    relative and at least half an iteration fewer per step (predictors);
 *  - warm_start=1 (each solve starts from the previous step's increment) against a cold
 *    run (predictor=none, both) on the same increments, on the rigid body, Manakov so(4), point vortices and
 *    Euler–Zeitlin su(8) with noise (Q): every state within 1e-13 relative of the cold
 *    one, and on Euler–Zeitlin fewer iterations in total (so the warm start did happen;
 *    on the small systems at tol 1e-15 it saves nothing: 275 -> 278 on the rigid body,
 *    as measured when this test was written); a state that is
 *    not the one the previous step returned (another path) starts cold, bit for bit;
 *  - tol_scale=step is the stopping rule tol h max|Y|: on a state with max|Y| >= 1 it is
 *    the default rule with tol h, bit for bit and iteration for iteration.
 * Steps: 40 x the depth multiplier. */
#include "schemeutil.h"
#include "fastutil.h"

/* The starts are compared from cold solves: warm_start=0 (Euler-Zeitlin's default is 1). */
static void ez8(slpi_problem *p)
{
    p->sch.warm_start = 0;
    p->sys.mk.n = 4;
    p->sys.ez.N = 8;
    p->sys.ez.ic_lmax = 3;
    p->sys.ez.noise = SLPI_EZ_NOISE_Q;
    p->sys.ez.amp = 0.1;
    p->grid.h = 1.0 / 64;
}

static void ez8_cold(slpi_problem *p)
{
    ez8(p);
    p->sch.predictor = SLPI_PREDICTOR_NONE;
}

static void ez8_warm_predicted(slpi_problem *p)
{
    ez8(p);
    p->sch.warm_start = 1;
}

static void ez8_warm(slpi_problem *p)
{
    ez8_cold(p);
    p->sch.warm_start = 1;
}

/* n steps of a run, its states (n x dim) and its total iterations. */
static long run_states(slpi_fast *f, double *x, long n, const double *dw, double *states)
{
    int dim = f->sys.state_dim, M = f->sys.M;
    long its = 0;
    for (long i = 0; i < n; i++) {
        slpi_step_info info;
        TEST_CHECKF(!slpi_step_failed(slpi_fast_step(f, x, dw + i * M, &info)), "%s step %ld failed", f->sys.name, i);
        its += info.iterations;
        memcpy(states + i * dim, x, sizeof *x * (size_t)dim);
    }
    return its;
}

/* Runs a (the default start) and b on the same n increments: the states' worst
 * difference relative to b's largest entry, and both iteration totals. */
static double run_pair(slpi_fast *a, slpi_fast *b, long n, long *ita, long *itb)
{
    int dim = a->sys.dim, M = a->sys.M;
    double *dw = malloc(sizeof *dw * (size_t)(n * (M ? M : 1))), *x = malloc(sizeof *x * dim),
           *sa = malloc(sizeof *x * dim * n), *sb = malloc(sizeof *x * dim * n);
    for (long i = 0; i < n * M; i++) dw[i] = sqrt(a->h) * fu_normal();
    slpi_error err;
    slpi_fast_initial_state(a, x, &err);
    *ita = run_states(a, x, n, dw, sa);
    slpi_fast_initial_state(b, x, &err);
    *itb = run_states(b, x, n, dw, sb);
    double worst = 0, scale = 0;
    for (long i = 0; i < n * dim; i++) {
        worst = fmax(worst, fabs(sa[i] - sb[i]));
        scale = fmax(scale, fabs(sb[i]));
    }
    free(dw);
    free(x);
    free(sa);
    free(sb);
    return worst / scale;
}

/* A start (tweak a) against an older one (tweak b) on the same n increments: states within
 * 1e-13 relative of each other, and a saving of at least half an iteration per step. */
static void better_start(slpi_system_id s, long n, fu_tweak a, fu_tweak b, const char *what, const char *than)
{
    slpi_fast *fa = fu_make(s, SLPI_SCHEME_ISOMP, a), *fb = fu_make(s, SLPI_SCHEME_ISOMP, b);
    if (!fa || !fb) return;
    long ita, itb;
    double rel = run_pair(fa, fb, n, &ita, &itb);
    TEST_CHECKF(rel <= 1e-13, "%s: the %s moves the states by %.3g (relative)", fa->sys.name, what, rel);
    TEST_CHECKF(2 * (itb - ita) >= n,
                "%s: the %s saves %ld iterations over %ld steps (%ld -> %ld), "
                "fewer than half an iteration per step",
                fa->sys.name, what, itb - ita, n, itb, ita);
    printf("t-fast-isomp: %s %s: %ld steps, %ld iterations (%s: %ld), states within %.2g relative\n", fa->sys.name,
           what, n, ita, than, itb, rel);
    slpi_fast_free(fa);
    slpi_fast_free(fb);
}

static void ez8_cayley(slpi_problem *p)
{
    ez8(p);
    p->sch.predictor = SLPI_PREDICTOR_CAYLEY;
}

/* The Euler predictor against X_n (rule: file comment). predictor=cayley against the Euler
 * predictor: the rule, fixed before measuring: the Cayley congruence at Psi(E) is the
 * midpoint to O(|Psi|^3), one order more than E, so it saves one iteration per step less
 * the boundary steps (measured when written: 1.0 to 1.3 per step); with the congruence
 * dropped, or taken at Psi(X_n) (an O(|Psi|^2) start again), it saves about nothing
 * (measured: 0.0, and 0.0 to 0.3). */
static void predictors(slpi_system_id s, long n)
{
    better_start(s, n, ez8, ez8_cold, "Euler predictor", "from X_n");
    better_start(s, n, ez8_cayley, ez8, "Cayley predictor", "Euler predictor");
}

/* warm_start=1 with the predictor (its start E_n + (Y_{n-1} - E_{n-1})) against the
 * predictor alone, with noise: states within 1e-13 relative, and at most a quarter of an
 * iteration more per step (the rule, fixed before measuring: the correction carried over
 * is the previous step's O(|Psi|^2) remainder, so the start stays O(|Psi|^2) off, as the
 * predictor's; a start off by O(|Psi|) costs about one iteration per step; measured when
 * written: -4 to +2 over 40 steps). */
static void warm_predicted(slpi_system_id s, long n)
{
    slpi_fast *e = fu_make(s, SLPI_SCHEME_ISOMP, ez8), *w = fu_make(s, SLPI_SCHEME_ISOMP, ez8_warm_predicted);
    if (!e || !w) return;
    long ite, itw;
    double rel = run_pair(w, e, n, &itw, &ite);
    TEST_CHECKF(rel <= 1e-13, "%s: warm start with the predictor moves the states by %.3g (relative)", e->sys.name,
                rel);
    TEST_CHECKF(4 * (itw - ite) <= n,
                "%s: warm start with the predictor %ld iterations, the predictor "
                "alone %ld, over %ld steps",
                e->sys.name, itw, ite, n);
    printf("t-fast-isomp: %s warm start with the predictor: %ld steps, %ld iterations (predictor alone: %ld), "
           "states within %.2g relative\n",
           e->sys.name, n, itw, ite, rel);
    slpi_fast_free(e);
    slpi_fast_free(w);
}

static void ez8_smooth_warm1(slpi_problem *p)
{
    ez8_warm(p);
    p->sys.ez.noise = SLPI_EZ_NOISE_NONE;
}

static void ez8_smooth_warm2(slpi_problem *p)
{
    ez8(p);
    p->sys.ez.noise = SLPI_EZ_NOISE_NONE;
    p->sch.warm_start = 2;
}

/* warm_start=2 (the last two increments extrapolated) against quflow's warm start
 * (warm_start=1, predictor=none) on a noise-free Euler–Zeitlin run: states within 1e-13
 * relative, and at least half an iteration fewer per step (the extrapolated start is off
 * by O(h^2) of the increment where the previous increment is off by O(h): about one
 * iteration fewer per step, less the steps at a boundary of the stopping rule, as for
 * the predictor; measured when written: 122 against 161 over 40 steps). */
static void warm_extrapolated(long n)
{
    slpi_fast *a = fu_make(SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP, ez8_smooth_warm2),
              *b = fu_make(SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP, ez8_smooth_warm1);
    if (!a || !b) return;
    long ita, itb;
    double rel = run_pair(a, b, n, &ita, &itb);
    TEST_CHECKF(rel <= 1e-13, "warm_start=2 moves the states by %.3g (relative)", rel);
    TEST_CHECKF(2 * (itb - ita) >= n,
                "warm_start=2: %ld iterations, warm_start=1: %ld, over %ld steps: "
                "fewer than half an iteration per step saved",
                ita, itb, n);
    printf("t-fast-isomp: euler-zeitlin without noise, warm_start=2: %ld steps, %ld iterations (warm_start=1: "
           "%ld), states within %.2g relative\n",
           n, ita, itb, rel);
    slpi_fast_free(a);
    slpi_fast_free(b);
}

static void warm_vs_cold(slpi_system_id s, long n)
{
    slpi_fast *cold = fu_make(s, SLPI_SCHEME_ISOMP, ez8_cold), *warm = fu_make(s, SLPI_SCHEME_ISOMP, ez8_warm);
    if (!cold || !warm) return;
    int dim = cold->sys.state_dim, M = cold->sys.M;
    double *dw = malloc(sizeof *dw * (size_t)(n * (M ? M : 1))), *x = malloc(sizeof *x * dim),
           *xc = malloc(sizeof *x * dim), *sc = malloc(sizeof *x * dim * n), *sw = malloc(sizeof *x * dim * n);
    for (long i = 0; i < n * M; i++) dw[i] = sqrt(cold->h) * fu_normal();
    slpi_error err;
    slpi_fast_initial_state(cold, x, &err);
    long itc = run_states(cold, x, n, dw, sc);
    slpi_fast_initial_state(warm, x, &err);
    long itw = run_states(warm, x, n, dw, sw);
    double worst = 0, scale = 0;
    for (long i = 0; i < n * dim; i++) {
        worst = fmax(worst, fabs(sw[i] - sc[i]));
        scale = fmax(scale, fabs(sc[i]));
    }
    TEST_CHECKF(worst <= 1e-13 * scale, "%s: warm start moves the states by %.3g (relative)", warm->sys.name,
                worst / scale);
    if (s == SLPI_SYS_EULER_ZEITLIN)
        TEST_CHECKF(itw < itc, "%s: warm start %ld iterations, cold %ld", warm->sys.name, itw, itc);
    printf("t-fast-isomp: %s warm start: %ld steps, %ld iterations (cold %ld), states within %.2g relative\n",
           warm->sys.name, n, itw, itc, worst / scale);
    /* another path's state: the warm object starts cold, bit for bit */
    slpi_fast_initial_state(cold, xc, &err);
    for (int i = 0; i < dim; i++) x[i] = xc[i];
    slpi_step_info ic, iw;
    slpi_fast_step(cold, xc, dw, &ic);
    slpi_fast_step(warm, x, dw, &iw);
    TEST_CHECKF(memcmp(x, xc, sizeof *x * dim) == 0 && ic.iterations == iw.iterations,
                "%s: a state that is not the previous step's is not solved cold (%d vs %d iterations)", warm->sys.name,
                iw.iterations, ic.iterations);
    free(dw);
    free(x);
    free(xc);
    free(sc);
    free(sw);
    slpi_fast_free(cold);
    slpi_fast_free(warm);
}

static void rb_big(slpi_problem *p)
{
    p->sys.n_x0 = 3;
    p->sys.x0[0] = 3;
    p->sys.x0[1] = 1;
    p->sys.x0[2] = 2;
    p->grid.h = 1.0 / 16;
}

static void rb_step_rule(slpi_problem *p)
{
    rb_big(p);
    p->sol.tol = 1e-6;
    p->sol.tol_scale = SLPI_TOL_STEP;
}

static void rb_state_rule(slpi_problem *p)
{
    rb_big(p);
    p->sol.tol = 1e-6 / 16;
}

static void tol_scale_step(long n)
{
    slpi_fast *a = fu_make(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP, rb_step_rule),
              *b = fu_make(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP, rb_state_rule),
              *d = fu_make(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP, rb_big);
    if (!a || !b || !d) return;
    double dw[3], xa[3], xb[3], xd[3];
    slpi_error err;
    slpi_fast_initial_state(a, xa, &err);
    slpi_fast_initial_state(b, xb, &err);
    slpi_fast_initial_state(d, xd, &err);
    long ia = 0, id = 0;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) dw[k] = 0.25 * fu_normal();
        slpi_step_info sa, sb, sd;
        slpi_fast_step(a, xa, dw, &sa);
        slpi_fast_step(b, xb, dw, &sb);
        slpi_fast_step(d, xd, dw, &sd);
        ia += sa.iterations;
        id += sd.iterations;
        TEST_CHECKF(memcmp(xa, xb, sizeof xa) == 0 && sa.iterations == sb.iterations,
                    "tol_scale=step, tol 1e-6 differs from tol 1e-6 h at step %ld (%d vs %d iterations)", i,
                    sa.iterations, sb.iterations);
    }
    TEST_CHECKF(ia < id, "tol_scale=step tol 1e-6: %ld iterations, the default tol: %ld", ia, id);
    slpi_fast_free(a);
    slpi_fast_free(b);
    slpi_fast_free(d);
}

int main(void)
{
    test_start("t-fast-isomp", 1);
    su_fast_vs_ref(SLPI_SCHEME_ISOMP);
    long n = test_iters(40);
    static const slpi_system_id sys[] = { SLPI_SYS_RIGID_BODY, SLPI_SYS_MANAKOV, SLPI_SYS_POINT_VORTICES,
                                          SLPI_SYS_EULER_ZEITLIN };
    for (size_t i = 0; i < sizeof sys / sizeof *sys; i++) {
        predictors(sys[i], n);
        warm_predicted(sys[i], n);
        warm_vs_cold(sys[i], n);
    }
    warm_extrapolated(n);
    tol_scale_step(n);
    TEST_END();
}
