/* t-model-time.c — time-dependent Hamiltonians (docs/models.md#time, docs/schemes.md#time):
 * each scheme reads t where its derivation puts it, on both paths.
 *
 *  1. The discrete map in closed form. On so3, H = (A + B sin 3t) x3 and noise
 *     H1 = S cos(2t) x3 generate rotations about e3 (dx = x cross grad H = -b e3 cross x),
 *     so in z = x1 + i x2 one step of each scheme is a known complex factor, with
 *     b(c) = (A + B sin 3t_c) h + S cos(2t_c) dW at the stage time t_c = t0 + (n + c) h:
 *         TMK            exp(-i b(1/2))               (the orbit map of sigma = b e3)
 *         RKMK-LE        exp(-i b(0))
 *         RKMK-HEUN      exp(-i (b(0) + b(1)) / 2)
 *         IM, ISOMP      (1 - i b(1/2)/2) / (1 + i b(1/2)/2)   (the Cayley rotation)
 *         TRAP           (1 - i b(0)/2) / (1 + i b(1)/2)
 *         SVI            ((1 - i b(1/2)/4) / (1 + i b(1/2)/4))^2   (tau^-2, x = b/2)
 *     and x3 is constant. 20 steps from random t0, h, A, B, S, dW (the test's seed): the
 *     double path must be within 1e-12 of the product, and the certified balls must
 *     contain the double path's state within the oracle's budget 30 n u |x| and the
 *     product within 1e-12. A stage at the wrong time moves the state by about
 *     |b'| h^2 per step, > 1e-6 here: this is the test of each scheme's stage times
 *     (the noise Hamiltonian's with them). After the run the fields (slpi_fast_fields) and
 *     the diagnostic H0 of both paths are those at the state's time t0 + N h.
 *  2. Order against a known solution. H = f(t) G(x), f = 1 + cos(2t)/2 and G the Euler top
 *     of t-model-equations.c (I = (1, 2, 3), x(0) = (0.4, 0, 1)): the flow is the top's,
 *     reparametrised, x(t) = x_G(F(t)), F(t) = t - t0 + (sin 2t - sin 2t0)/4; t0 = 0.25,
 *     T = 2, no noise, h = 2^-4, 2^-5, 2^-6, every scheme. Rule, fixed
 *     before measuring: each halving divides the error by at least 2^p / 1.4 (observed
 *     order >= p - 0.49; p = 1 for RKMK-LE, 2 for the others), unless the error is
 *     already <= 1e-12, and the error at 2^-6 is <= 0.05; on both paths (the certified
 *     one's ball midpoints). A symmetric scheme reading t at t_n instead of t_n + h/2 is of
 *     order 1 here and fails. */
#include <complex.h>

#include "fastutil.h"
#include "jacobiutil.h"
#include "slpi-tools.h"

#define NSTEPS 20

typedef struct {
    double t0, h, A, B, S;
} rot_case;

static double b_at(const rot_case *c, long n, double half, double dW)
{
    double t = c->t0 + ((double)n + half) * c->h;
    return (c->A + c->B * sin(3 * t)) * c->h + c->S * cos(2 * t) * dW;
}

/* the factor of z = x1 + i x2 over step n of scheme k */
static double complex step_factor(slpi_scheme_id k, const rot_case *c, long n, double dW)
{
    double bm = b_at(c, n, 0.5, dW), b0 = b_at(c, n, 0, dW), b1 = b_at(c, n, 1, dW);
    double complex q;
    switch (k) {
    case SLPI_SCHEME_TMK:
        return cexp(-I * bm);
    case SLPI_SCHEME_RKMK_LE:
        return cexp(-I * b0);
    case SLPI_SCHEME_RKMK_HEUN:
        return cexp(-I * (b0 + b1) / 2);
    case SLPI_SCHEME_TRAP_DIRECT:
        return (1 - I * b0 / 2) / (1 + I * b1 / 2);
    case SLPI_SCHEME_SVI:
        q = (1 - I * bm / 4) / (1 + I * bm / 4);
        return q * q;
    default:
        return (1 - I * bm / 2) / (1 + I * bm / 2); /* IM, ISOMP */
    }
}

static int make_problem(slpi_problem *p, slpi_scheme_id k, const char *H, const char *noise, double t0, double h,
                        int npar, const char *const *par, const double *val, const char *x0)
{
    slpi_error err = { 0 };
    char buf[64];
    slpi_problem_init(p, SLPI_SYS_MODEL, k);
    int rc = slpi_problem_set(p, "algebra", "so3", &err);
    if (!rc) rc = slpi_problem_set(p, "H", H, &err);
    if (!rc && noise) rc = slpi_problem_set(p, "noise_H1", noise, &err);
    snprintf(buf, sizeof buf, "%.17g", t0);
    if (!rc) rc = slpi_problem_set(p, "t0", buf, &err);
    snprintf(buf, sizeof buf, "%.17g", h);
    if (!rc) rc = slpi_problem_set(p, "h", buf, &err);
    if (!rc) rc = slpi_problem_set(p, "x0", x0, &err);
    for (int i = 0; i < npar && !rc; i++) {
        char key[32];
        snprintf(key, sizeof key, "param.%s", par[i]);
        snprintf(buf, sizeof buf, "%.17g", val[i]);
        rc = slpi_problem_set(p, key, buf, &err);
    }
    if (!rc) rc = slpi_problem_validate(p, &err);
    TEST_CHECKF(rc == 0, "%s H=%s: %s", slpi_scheme_name(k), H, err.msg);
    return rc;
}

static void check_closed_form(slpi_scheme_id k)
{
    static const char *const par[] = { "A", "B", "S" };
    rot_case c = { test_rand_uniform(-2, 2), test_rand_uniform(0.02, 0.1), test_rand_uniform(-1, 1),
                   test_rand_uniform(-1, 1), test_rand_uniform(-1, 1) };
    double val[3] = { c.A, c.B, c.S }, dW[NSTEPS];
    for (int n = 0; n < NSTEPS; n++) dW[n] = sqrt(c.h) * fu_normal();
    slpi_problem p;
    if (make_problem(&p, k, "(A + B*sin(3*t))*x3", "S*cos(2*t)*x3", c.t0, c.h, 3, par, val, "0.6,-0.3,0.7")) return;
    slpi_error err = { 0 };
    slpi_fast *f = NULL;
    slpi_ref *r = NULL;
    TEST_CHECKF(slpi_fast_create(&f, &p, &err) == 0 && slpi_ref_create(&r, &p, &err) == 0, "%s: %s",
                slpi_scheme_name(k), err.msg);
    if (!f || !r) goto done;
    double x[3] = { 0.6, -0.3, 0.7 };
    double complex z = x[0] + I * x[1];
    arb_ptr bx = _arb_vec_init(3);
    for (int i = 0; i < 3; i++) arb_set_d(bx + i, x[i]);
    double worst = 0, worst_ref = 0, excess = 0;
    for (long n = 0; n < NSTEPS; n++) {
        slpi_step_info info;
        TEST_CHECKF(!slpi_step_failed(slpi_fast_step(f, x, dW + n, &info)), "%s: fast step %ld", slpi_scheme_name(k),
                    n);
        TEST_CHECKF(!slpi_step_failed(slpi_ref_step(r, bx, dW + n, &info)), "%s: ref step %ld: %s", slpi_scheme_name(k),
                    n, slpi_ref_unable_reason(r));
        z *= step_factor(k, &c, n, dW[n]);
        double ex[3] = { creal(z), cimag(z), 0.7 };
        for (int i = 0; i < 3; i++) {
            double mid = arf_get_d(arb_midref(bx + i), ARF_RND_NEAR), rad = mag_get_d(arb_radref(bx + i));
            worst = fmax(worst, fabs(x[i] - ex[i]));
            worst_ref = fmax(worst_ref, fabs(mid - ex[i]));
            /* the ball contains the fast state within the oracle's budget 30 n u |x| */
            excess = fmax(excess, (fabs(x[i] - mid) - rad) / (30.0 * (n + 1) * 0x1p-53 * 1.0));
        }
    }
    /* after the run, the fields and H0 of the state are those at its time t_N = t0 + N h */
    double tN = c.t0 + NSTEPS * c.h, aN = c.A + c.B * sin(3 * tN), xi[2 * 3], V[2 * 3];
    double fH0 = fu_diag(f, x, NULL, "H0");
    slpi_ref_diag rd;
    slpi_ref_diag_init(&rd);
    slpi_ref_diagnostics(r, bx, NULL, &rd);
    double rH0 = rd.n > 0 && strcmp(rd.name[0], "H0") == 0 ? arf_get_d(arb_midref(rd.value), ARF_RND_NEAR) : NAN;
    slpi_ref_diag_clear(&rd);
    TEST_CHECKF(fabs(fH0 - aN * x[2]) <= 1e-14 && fabs(rH0 - aN * x[2]) <= 1e-14,
                "%s: at t_N: fast H0 %.17g, ref H0 %.17g, expected %.17g", slpi_scheme_name(k), fH0, rH0, aN * x[2]);
    /* one step more (its last stage time set), then the fields at t_{N+1} */
    slpi_step_info info;
    double aN1 = c.A + c.B * sin(3 * (tN + c.h));
    TEST_CHECK(!slpi_step_failed(slpi_fast_step(f, x, dW, &info)) && slpi_fast_fields(f, xi, V, x) == 3);
    TEST_CHECKF(fabs(xi[2] - aN1) <= 1e-14, "%s: at t_N+1: xi_0 %.17g, expected %.17g", slpi_scheme_name(k), xi[2],
                aN1);
    printf("  %-11s t0 = %.3f, h = %.3f: |fast - closed form| %.2g, |ref - closed form| %.2g, fast outside the ball "
           "by %.2g of the budget\n",
           slpi_scheme_name(k), c.t0, c.h, worst, worst_ref, fmax(excess, 0));
    TEST_CHECKF(worst <= 1e-12 && worst_ref <= 1e-12,
                "%s: the step is not the closed form at its stage times "
                "(fast %.3g, ref %.3g)",
                slpi_scheme_name(k), worst, worst_ref);
    TEST_CHECKF(excess <= 1, "%s: the double path is %.3g budgets outside the certified ball", slpi_scheme_name(k),
                excess);
    _arb_vec_clear(bx, 3);
done:
    slpi_fast_free(f);
    slpi_ref_free(r);
}

/* ------------------------------------------------------------ order */

#define T0 0.25
#define T_SPAN 2.0

static void exact_top(double *x, double t)
{
    ju_euler_top(x, t - T0 + (sin(2 * t) - sin(2 * T0)) / 4);
}

/* max |x(T) - exact| after T / h steps of scheme k on the double path (ref = 0) or, from
 * the certified balls' midpoints, on the certified path (ref = 1) */
static double order_error(slpi_scheme_id k, double h, int ref)
{
    slpi_problem p;
    if (make_problem(&p, k, "(1 + cos(2*t)/2)*(x1^2/2 + x2^2/4 + x3^2/6)", NULL, T0, h, 0, NULL, NULL, "0.4,0,1"))
        return -1;
    slpi_error err = { 0 };
    slpi_fast *f = NULL;
    slpi_ref *r = NULL;
    TEST_CHECKF((ref ? slpi_ref_create(&r, &p, &err) : slpi_fast_create(&f, &p, &err)) == 0, "%s: %s",
                slpi_scheme_name(k), err.msg);
    if (!f && !r) return -1;
    double x[3] = { 0.4, 0, 1 }, ex[3];
    arb_ptr bx = _arb_vec_init(3);
    for (int i = 0; i < 3; i++) arb_set_d(bx + i, x[i]);
    long steps = lround(T_SPAN / h);
    for (long n = 0; n < steps; n++) {
        slpi_step_info info;
        slpi_step_status st = ref ? slpi_ref_step(r, bx, NULL, &info) : slpi_fast_step(f, x, NULL, &info);
        TEST_CHECKF(!slpi_step_failed(st), "%s: step %ld", slpi_scheme_name(k), n);
    }
    for (int i = 0; ref && i < 3; i++) x[i] = arf_get_d(arb_midref(bx + i), ARF_RND_NEAR);
    _arb_vec_clear(bx, 3);
    slpi_fast_free(f);
    slpi_ref_free(r);
    exact_top(ex, T0 + T_SPAN);
    return fu_maxdiff(x, ex, 3);
}

static void check_order(slpi_scheme_id k, int ref)
{
    int p = k == SLPI_SCHEME_RKMK_LE ? 1 : 2;
    double e[3];
    for (int j = 0; j < 3; j++) e[j] = order_error(k, ldexp(1, -4 - j), ref);
    printf("  %-11s %s errors %.3g %.3g %.3g at h = 2^-4, 2^-5, 2^-6: observed orders %.2f %.2f (p = %d)\n",
           slpi_scheme_name(k), ref ? "ref " : "fast", e[0], e[1], e[2], log2(e[0] / e[1]), log2(e[1] / e[2]), p);
    for (int j = 0; j < 2; j++)
        TEST_CHECKF(e[j + 1] <= 1e-12 || e[j + 1] <= 1.4 * e[j] / (1 << p), "%s %s: error %.3g -> %.3g, not order %d",
                    slpi_scheme_name(k), ref ? "ref" : "fast", e[j], e[j + 1], p);
    TEST_CHECKF(e[2] <= 0.05, "%s: error %.3g at h = 2^-6", slpi_scheme_name(k), e[2]);
}

int main(void)
{
    test_start("t-model-time", 4040);
    long reps = test_iters(2);
    for (long r = 0; r < reps; r++)
        for (int k = 0; k < SLPI_SCHEME_COUNT; k++) check_closed_form((slpi_scheme_id)k);
    for (int k = 0; k < SLPI_SCHEME_COUNT; k++)
        for (int ref = 0; ref < 2; ref++) check_order((slpi_scheme_id)k, ref);
    TEST_END();
}
