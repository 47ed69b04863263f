/* t-fast-isomp.c — unit test of the isospectral midpoint method (fast/isomp.c) on the
 * double path:
 *  - on every system the scheme applies to, the same steps computed two ways, here and
 *    by the certified path, must agree within the oracle's budget, and a state off by
 *    1e-9 must not (tests/schemeutil.h);
 *  - warm_start=1 (each solve starts from the previous step's increment) against a cold
 *    run on the same increments, on the rigid body, Manakov so(4), point vortices and
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

static void ez8(slpi_problem *p)
{
    p->mk.n = 4;
    p->ez.N = 8;
    p->ez.ic_lmax = 3;
    p->ez.noise = SLPI_EZ_NOISE_Q;
    p->ez.amp = 0.1;
    p->h = 1.0 / 64;
}

static void ez8_warm(slpi_problem *p)
{
    ez8(p);
    p->warm_start = 1;
}

/* n steps of a run, its states (n x dim) and its total iterations. */
static long run_states(slpi_fast *f, double *x, long n, const double *dw, double *states)
{
    int dim = f->sys.state_dim, M = f->sys.M;
    long its = 0;
    for (long i = 0; i < n; i++) {
        slpi_step_info info;
        TEST_CHECKF(!slpi_step_failed(slpi_fast_step(f, x, dw + i * M, &info)), "%s step %ld failed",
                    f->sys.name, i);
        its += info.iterations;
        memcpy(states + i * dim, x, sizeof *x * (size_t)dim);
    }
    return its;
}

static void warm_vs_cold(slpi_system_id s, long n)
{
    slpi_fast *cold = fu_make(s, SLPI_SCHEME_ISOMP, ez8), *warm = fu_make(s, SLPI_SCHEME_ISOMP, ez8_warm);
    if (!cold || !warm) return;
    int dim = cold->sys.state_dim, M = cold->sys.M;
    double *dw = malloc(sizeof *dw * (size_t)(n * (M ? M : 1))), *x = malloc(sizeof *x * dim),
           *xc = malloc(sizeof *x * dim), *sc = malloc(sizeof *x * dim * n), *sw = malloc(sizeof *x * dim * n);
    for (long i = 0; i < n * M; i++) dw[i] = sqrt(cold->p.h) * fu_normal();
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
                "%s: a state that is not the previous step's is not solved cold (%d vs %d iterations)",
                warm->sys.name, iw.iterations, ic.iterations);
    free(dw); free(x); free(xc); free(sc); free(sw);
    slpi_fast_free(cold);
    slpi_fast_free(warm);
}

static void rb_big(slpi_problem *p)
{
    p->n_x0 = 3;
    p->x0[0] = 3; p->x0[1] = 1; p->x0[2] = 2;
    p->h = 1.0 / 16;
}

static void rb_step_rule(slpi_problem *p)
{
    rb_big(p);
    p->tol = 1e-6;
    p->tol_scale = SLPI_TOL_STEP;
}

static void rb_state_rule(slpi_problem *p)
{
    rb_big(p);
    p->tol = 1e-6 / 16;
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
    static const slpi_system_id sys[] = {SLPI_SYS_RIGID_BODY, SLPI_SYS_MANAKOV, SLPI_SYS_POINT_VORTICES,
                                         SLPI_SYS_EULER_ZEITLIN};
    for (size_t i = 0; i < sizeof sys / sizeof *sys; i++) warm_vs_cold(sys[i], n);
    tol_scale_step(n);
    TEST_END();
}
