/* t-fast-ingredients.c — the coefficients on a step's ingredients (fast/ingredients.h,
 * oracle/README.md#diagnosis), each against the same step computed a second way: by a
 * problem whose data carry the change. On the model
 *     H = (1 + eps cos(omega t)) (x1^2/I1 + x2^2/I2 + x3^2/I3)/2,  noise_H1 = amp sin(t) x3
 * (models/rigid-body-time.slpi with drawn parameters), for every scheme of the registry,
 * one step from a drawn state, step index, h and dW:
 *   - drift coefficient c  = the problem with I / c (H_0 times c), the time unmoved (the
 *     drift's coefficient scales delta_0 = h, which the time must not read);
 *   - noise 1 coefficient c = the problem with amp c;
 *   - time stage coefficient c = the problem with t0 + (c - 1) h (every stage c - 1 steps later);
 *   - the solver's stop m (any coefficient but 1), m = 1..4, = the problem with
 *     fixed_iters=m, and for an explicit scheme the step without it, bit for bit;
 *   - (ISOMP's terms) the stop m after the predictor, m = 1..3, = the problem with
 *     predictor=euler maxit=m on_cap=accept tol=2^-60 (m iterations from the Euler
 *     predictor, none converging), in its fused form;
 *   - the stop at 2^-k, k = 12, 13, ..., 30, = the problem with tol=2^-k tol_scale=state
 *     (the count its own, no fixed_iters);
 * each within 1e-12 |x| (the two ways round differently; a wrong time moves a step by about
 * |f'| h^2 > 1e-6 here). The second way steps with every coefficient 1 (ISOMP's unfused
 * form, fast/isomp.c), as the first. After slpi_fast_ingredient_scale(f, -1, 1) the step
 * is the scheme's own again, bit for bit against a fresh run object. The list: a model's
 * step has a time stage, a built-in system's none; the solver's four stops come last, then
 * ISOMP's three after the predictor or TMK's four in plain sweeps (SVI's five, 0..4), then the
 * nineteen at a tolerance. On the rigid body's three noises (ISOMP): the swaps
 * of 1 and 2, 1 and 3, 2 and 3 follow "noise", and at a drawn coefficient c each is the
 * step whose two increments are mixed by c - 1 by hand (c = 2: swapped), within 1e-12;
 * "Psi Y Psi/4 reordered" follows ISOMP's three terms (its value: tests/oracle's
 * t-verify-diagnosis, against a port that reorders the product). On Euler-Zeitlin su(8)
 * (more than 9 noises): noise 1 ... noise 9 each, noise 1 and 9 at a drawn coefficient
 * against the step with that increment scaled by hand. TMK's and SVI's stops in plain
 * sweeps (after their four stops from X_n) against the sweeps written in the test from the
 * docs, on the heavy top (TMK, SVI-SD) and the SVI rigid body (check_plain).
 * SLPI_TEST_SEED draws other cases; SLPI_TEST_DEPTH more of them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fastutil.h"
#include "core/view-scheme.h"
#include "fast/ingredients.h"
#include "fast/vec3.h"
#include "fast/vector-field.h"

#define TOL 1e-12

typedef struct {
    double I[3], amp, t0, h, eps, omega;
    int fixed_iters, pred_iters; /* pred_iters > 0: maxit=pred_iters on_cap=accept tol=2^-60 */
    int tol_exp;                 /* > 0: tol=2^-tol_exp tol_scale=state */
} model_case;

static slpi_fast *make(slpi_scheme_id k, const model_case *c)
{
    static const char *const name[] = { "I1", "I2", "I3", "amp", "eps", "omega" };
    double val[6] = { c->I[0], c->I[1], c->I[2], c->amp, c->eps, c->omega };
    slpi_problem p;
    slpi_error err = { 0 };
    char buf[64];
    slpi_problem_init(&p, SLPI_SYS_MODEL, k);
    int rc = slpi_problem_set(&p, "algebra", "so3", &err);
    if (!rc) rc = slpi_problem_set(&p, "H", "(1 + eps*cos(omega*t))*(x1^2/I1 + x2^2/I2 + x3^2/I3)/2", &err);
    if (!rc) rc = slpi_problem_set(&p, "noise_H1", "amp*sin(t)*x3", &err);
    snprintf(buf, sizeof buf, "%.17g", c->t0);
    if (!rc) rc = slpi_problem_set(&p, "t0", buf, &err);
    snprintf(buf, sizeof buf, "%.17g", c->h);
    if (!rc) rc = slpi_problem_set(&p, "h", buf, &err);
    snprintf(buf, sizeof buf, "%d", c->fixed_iters);
    if (!rc) rc = slpi_problem_set(&p, "fixed_iters", buf, &err);
    snprintf(buf, sizeof buf, "%d", c->pred_iters);
    if (!rc && c->pred_iters) rc = slpi_problem_set(&p, "maxit", buf, &err);
    if (!rc && c->pred_iters) rc = slpi_problem_set(&p, "on_cap", "accept", &err);
    if (!rc && c->pred_iters) rc = slpi_problem_set(&p, "tol", "0x1p-60", &err);
    snprintf(buf, sizeof buf, "0x1p-%d", c->tol_exp);
    if (!rc && c->tol_exp) rc = slpi_problem_set(&p, "tol", buf, &err);
    if (!rc && c->tol_exp) rc = slpi_problem_set(&p, "tol_scale", "state", &err);
    for (int i = 0; i < 6 && !rc; i++) {
        char key[32];
        snprintf(key, sizeof key, "param.%s", name[i]);
        snprintf(buf, sizeof buf, "%.17g", val[i]);
        rc = slpi_problem_set(&p, key, buf, &err);
    }
    slpi_fast *f = NULL;
    if (!rc) rc = slpi_fast_create(&f, &p, &err);
    TEST_CHECKF(rc == 0, "%s: %s", slpi_scheme_name(k), err.msg);
    return rc ? NULL : f;
}

/* One step of f from x at step index n with increment dw into y; 0, or -1 when it failed. */
static int step(slpi_fast *f, const double *x, long n, double dw, double *y)
{
    slpi_step_info info;
    memcpy(y, x, 3 * sizeof *y);
    slpi_fast_set_step_index(f, n);
    return slpi_step_failed(slpi_fast_step(f, y, &dw, &info)) ? -1 : 0;
}

static double maxdiff(const double *a, const double *b)
{
    double m = 0;
    for (int i = 0; i < 3; i++) m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

/* The step of f with ingredient i at coefficient coef against g's with every coefficient
 * 1 (then f's and g's coefficients are put back); what differs, or -1 when a step failed. */
static double against(slpi_fast *f, int i, double coef, slpi_fast *g, const double *x, long n, double dw)
{
    double y[3], z[3];
    int bad = slpi_fast_ingredient_scale(f, i, coef) || slpi_fast_ingredient_scale(g, 0, 1.0) || step(f, x, n, dw, y) ||
        step(g, x, n, dw, z);
    slpi_fast_ingredient_scale(f, -1, 1.0);
    slpi_fast_ingredient_scale(g, -1, 1.0);
    return bad ? -1 : maxdiff(y, z);
}

static void check_scheme(slpi_scheme_id k, const model_case *c)
{
    const char *sn = slpi_scheme_name(k);
    slpi_fast *f = make(k, c), *fresh = make(k, c);
    if (!f || !fresh) goto done;
    const char *name[SLPI_FAST_INGREDIENTS_MAX];
    int nf = slpi_fast_ingredients(slpi_fast_problem(f), name), s0 = 0;
    while (s0 < nf && strcmp(name[s0], "solver stop")) s0++;
    int nq = nf - s0 - SLPI_FAST_STOPS - SLPI_FAST_TOL_STOPS; /* after the predictor, or in plain sweeps */
    int np = k == SLPI_SCHEME_ISOMP ? nq : 0;
    TEST_CHECKF(
        s0 >= 3 && s0 < nf && !strcmp(name[0], "drift") && !strcmp(name[1], "noise 1") &&
            !strcmp(name[s0 - 1], "time stage") && !strcmp(name[s0 + 3], "solver stop 4") &&
            (nq == 0 ||
             (nq == SLPI_FAST_PRED_STOPS && k == SLPI_SCHEME_ISOMP &&
              !strcmp(name[nf - 1 - SLPI_FAST_TOL_STOPS], "solver stop 3 after predictor")) ||
             (nq == SLPI_FAST_PLAIN_STOPS + (k == SLPI_SCHEME_SVI) && (k == SLPI_SCHEME_TMK || k == SLPI_SCHEME_SVI) &&
              !strcmp(name[nf - nq - SLPI_FAST_TOL_STOPS],
                      k == SLPI_SCHEME_SVI ? "solver stop 0, plain sweeps" : "solver stop 1, plain sweeps") &&
              !strcmp(name[nf - 1 - SLPI_FAST_TOL_STOPS], "solver stop 4, plain sweeps"))) &&
            !strcmp(name[nf - SLPI_FAST_TOL_STOPS], "solver stop at 2^-12") &&
            !strcmp(name[nf - 1], "solver stop at 2^-30") && slpi_fast_ingredient_discrete(slpi_fast_problem(f), s0) &&
            slpi_fast_ingredient_discrete(slpi_fast_problem(f), nf - 1) &&
            !slpi_fast_ingredient_discrete(slpi_fast_problem(f), s0 - 1),
        "%s: %d ingredients, %s ... %s", sn, nf, name[0], name[nf - 1]);
    if (s0 >= nf || s0 < 3) goto done;
    double x[3] = { test_rand_uniform(-1, 1), test_rand_uniform(-1, 1), test_rand_uniform(0.5, 1) };
    long n = test_rand_int(40);
    double dw = sqrt(c->h) * fu_normal(), cd = 1 + test_rand_uniform(0.01, 0.1), cn = 1 + test_rand_uniform(-0.1, 0.1);
    double cs = 1 + test_rand_uniform(-0.5, 0.5);

    model_case d = *c;
    for (int i = 0; i < 3; i++) d.I[i] = c->I[i] / cd;
    slpi_fast *g = make(k, &d);
    double e = g ? against(f, 0, cd, g, x, n, dw) : -1;
    TEST_CHECKF(e >= 0 && e <= TOL, "%s: drift times %.6f against I / c: off by %.3g", sn, cd, e);
    slpi_fast_free(g);

    d = *c;
    d.amp = c->amp * cn;
    g = make(k, &d);
    e = g ? against(f, 1, cn, g, x, n, dw) : -1;
    TEST_CHECKF(e >= 0 && e <= TOL, "%s: noise 1 times %.6f against amp c: off by %.3g", sn, cn, e);
    slpi_fast_free(g);

    d = *c;
    d.t0 = c->t0 + (cs - 1) * c->h;
    g = make(k, &d);
    e = g ? against(f, s0 - 1, cs, g, x, n, dw) : -1;
    TEST_CHECKF(e >= 0 && e <= TOL, "%s: time stage %.6f against t0 + (c - 1) h: off by %.3g", sn, cs, e);
    slpi_fast_free(g);

    for (int m = 1; m <= 4; m++) {
        d = *c;
        d.fixed_iters = m;
        g = make(k, &d);
        e = g ? against(f, s0 - 1 + m, 2.0, g, x, n, dw) : -1;
        TEST_CHECKF(e >= 0 && e <= TOL, "%s: the solver's stop %d against fixed_iters=%d: off by %.3g", sn, m, m, e);
        slpi_fast_free(g);
    }
    for (int m = 1; m <= np; m++) {
        d = *c;
        d.pred_iters = m;
        g = make(k, &d);
        double u[3], v[3];
        int bad = !g || slpi_fast_ingredient_scale(f, s0 + SLPI_FAST_STOPS - 1 + m, 2.0) || step(f, x, n, dw, u) ||
            step(g, x, n, dw, v);
        slpi_fast_ingredient_scale(f, -1, 1.0);
        e = bad ? -1 : maxdiff(u, v);
        TEST_CHECKF(e >= 0 && e <= TOL, "%s: the solver's stop %d after the predictor against maxit=%d: off by %.3g",
                    sn, m, m, e);
        slpi_fast_free(g);
    }

    for (int j = 0; j < SLPI_FAST_TOL_STOPS; j++) {
        d = *c;
        d.tol_exp = SLPI_FAST_TOL_FIRST + j;
        g = make(k, &d);
        e = g ? against(f, nf - SLPI_FAST_TOL_STOPS + j, 2.0, g, x, n, dw) : -1;
        TEST_CHECKF(e >= 0 && e <= TOL, "%s: the stop at 2^-%d against tol=2^-%d: off by %.3g", sn, d.tol_exp,
                    d.tol_exp, e);
        slpi_fast_free(g);
    }

    double y[3], z[3];
    int implicit = 1;
    for (int i = s0; i < nf && (k == SLPI_SCHEME_RKMK_LE || k == SLPI_SCHEME_RKMK_HEUN); i++) {
        implicit = 0; /* explicit: no stop changes anything */
        int bad = slpi_fast_ingredient_scale(f, i, 2.0) || step(f, x, n, dw, y) || step(fresh, x, n, dw, z);
        slpi_fast_ingredient_scale(f, -1, 1.0);
        TEST_CHECKF(!bad && !memcmp(y, z, sizeof y), "%s (explicit): the %s moved the step by %.3g", sn, name[i],
                    maxdiff(y, z));
    }
    /* put back: the scheme's own step, bit for bit */
    int bad = slpi_fast_ingredient_scale(f, 0, 1.5) || slpi_fast_ingredient_scale(f, -1, 1.0) || step(f, x, n, dw, y) ||
        step(fresh, x, n, dw, z);
    TEST_CHECKF(!bad && !memcmp(y, z, sizeof y), "%s: after the coefficients are put back the step differs by %.3g", sn,
                maxdiff(y, z));
    printf("  %-11s %d ingredients (%s), drift %.4f, noise %.4f, stage %.4f\n", sn, nf,
           implicit ? "implicit" : "explicit", cd, cn, cs);
done:
    slpi_fast_free(f);
    slpi_fast_free(fresh);
}

/* One step of f from x (dim coordinates) with the increments dw (f's count) into y; 0, or
 * -1 when it failed. */
static int step_m(slpi_fast *f, int dim, const double *x, const double *dw, double *y)
{
    slpi_step_info info;
    memcpy(y, x, (size_t)dim * sizeof *y);
    return slpi_step_failed(slpi_fast_step(f, y, dw, &info)) ? -1 : 0;
}

/* The rigid body's swaps (ISOMP, three noises): swap k of (a, b) at coefficient c against
 * the step with dW_a + (c - 1)(dW_b - dW_a), dW_b + (c - 1)(dW_a - dW_b) by hand. */
static void check_swaps(void)
{
    static const int pair[3][2] = { { 0, 1 }, { 0, 2 }, { 1, 2 } };
    slpi_problem *p = NULL;
    slpi_error err = { 0, "" };
    slpi_fast *f = NULL;
    TEST_CHECK(test_problem(&p, "iso/rigid-body/trajectories", 10, &err) == SLPI_OK &&
               slpi_fast_create(&f, p, &err) == 0);
    const char *name[SLPI_FAST_INGREDIENTS_MAX];
    int nf = p ? slpi_fast_ingredients(p, name) : 0, s = 0;
    while (s < nf && strcmp(name[s], "noise 1 and 2 swapped")) s++;
    TEST_CHECKF(nf == 38 && s == 5 && !strcmp(name[4], "noise") && !strcmp(name[7], "noise 2 and 3 swapped") &&
                    !strcmp(name[10], "update") && !strcmp(name[11], "Psi Y Psi/4 reordered"),
                "rigid body: %d ingredients, the swaps from %d", nf, s);
    for (int k = 0; f && k < 3 && s + k < nf; k++) {
        double x[3] = { test_rand_uniform(-1, 1), test_rand_uniform(-1, 1), test_rand_uniform(0.5, 1) };
        double dw[3], mixed[3], y[3], z[3], c = k == 0 ? 2.0 : 1 + test_rand_uniform(-1, 1);
        for (int j = 0; j < 3; j++) dw[j] = mixed[j] = 0.0625 * fu_normal();
        int a = pair[k][0], b = pair[k][1];
        mixed[a] = dw[a] + (c - 1) * (dw[b] - dw[a]);
        mixed[b] = dw[b] + (c - 1) * (dw[a] - dw[b]);
        int bad = slpi_fast_ingredient_scale(f, s + k, c) || step_m(f, 3, x, dw, y) ||
            slpi_fast_ingredient_scale(f, -1, 1.0) || slpi_fast_ingredient_scale(f, 0, 1.0) ||
            step_m(f, 3, x, mixed, z);
        slpi_fast_ingredient_scale(f, -1, 1.0);
        TEST_CHECKF(!bad && maxdiff(y, z) <= TOL, "rigid body: %s at %.4f against the increments mixed: off by %.3g",
                    name[s + k], c, bad ? -1.0 : maxdiff(y, z));
    }
    slpi_fast_free(f);
    slpi_problem_free(p);
}

/* Euler-Zeitlin su(8) (ISOMP, more than 9 noises): "noise 1" ... "noise 9" follow the
 * drift, then "noise" (docs/power.md#diagnosis-rule-4); noise k at a drawn coefficient c,
 * k = 1 and 9, is the step with dW_k times c by hand, within 1e-12 |x|. */
static void check_noise_each(void)
{
    enum { MAX = 128 };
    slpi_problem *p = NULL;
    slpi_error err = { 0, "" };
    slpi_fast *f = NULL;
    TEST_CHECK(test_problem(&p, "iso/zeitlin/strong", 10, &err) == SLPI_OK && !slpi_problem_set_key(p, "N", "8") &&
               !slpi_problem_set_key(p, "ic_lmax", "7") && slpi_fast_create(&f, p, &err) == 0);
    const char *name[SLPI_FAST_INGREDIENTS_MAX];
    int nf = f ? slpi_fast_ingredients(p, name) : 0, M = f ? slpi_problem_noise_count(p) : 0;
    int dim = f ? slpi_problem_state_dim(p) : 0, sized = M > 9 && M <= MAX && dim <= MAX && nf == 47;
    TEST_CHECKF(sized && !strcmp(name[1], "noise 1") && !strcmp(name[9], "noise 9") && !strcmp(name[10], "noise") &&
                    !strcmp(name[11], "noise 1 and 2 swapped"),
                "Euler-Zeitlin su(8): %d noises, %d ingredients", M, nf);
    double x[MAX], y[MAX], z[MAX], dw[MAX], scaled[MAX];
    if (!sized || slpi_fast_problem_initial_state(p, x, &err)) goto done;
    for (int k = 1; k <= 9; k += 8) {
        double c = 1 + test_rand_uniform(-0.5, 0.5), e = 0;
        for (int j = 0; j < M; j++) dw[j] = scaled[j] = 0.01 * fu_normal();
        scaled[k - 1] *= c;
        int bad = slpi_fast_ingredient_scale(f, k, c) || step_m(f, dim, x, dw, y) ||
            slpi_fast_ingredient_scale(f, -1, 1.0) || slpi_fast_ingredient_scale(f, 0, 1.0) ||
            step_m(f, dim, x, scaled, z);
        slpi_fast_ingredient_scale(f, -1, 1.0);
        for (int j = 0; j < dim; j++) e = fmax(e, fabs(y[j] - z[j]));
        TEST_CHECKF(!bad && e <= TOL, "Euler-Zeitlin su(8): noise %d at %.4f against dW_%d times it: off by %.3g", k, c,
                    k, bad ? -1.0 : e);
    }
done:
    slpi_fast_free(f);
    slpi_problem_free(p);
}

/* A_c(x)^-1 v by docs/schemes.md#svi-so3's closed form, P_x/(1 + c|x|^2) + (I - P_x -
 * 1/2 hat x)/(1 + |x|^2/4), P_x = x x^T/|x|^2 (x != 0 on a drawn step). */
static void ac_inv(double *out, double c, const double *x, const double *v)
{
    double xx = slpi_fast_dot3(x, x), xv = slpi_fast_dot3(x, v), xc[3];
    slpi_fast_cross(xc, x, v);
    for (int i = 0; i < 3; i++)
        out[i] = xv / xx * x[i] / (1 + c * xx) + (v[i] - xv / xx * x[i] - 0.5 * xc[i]) / (1 + xx / 4);
}

/* SVI's velocity part as docs/schemes.md#svi-sd orders it, from A, B: x = (1/2) P at M =
 * (A + B)/2 and the previous Gamma~ (mu[3..5]; none for SO3), tau = cay(x), then (SD)
 * Gamma~ = tau^T Gamma_k into mu[3..5] and f = Q x Gamma~, Q at (M, Gamma~). */
static void svi_velocity(const slpi_fast_system *s, const double *delta, int sd, const double *Gk, const double *A,
                         const double *B, double *mu, double *x, double *tau, double *f)
{
    double g[16], tmp[16];
    for (int i = 0; i < 3; i++) mu[i] = 0.5 * (A[i] + B[i]);
    slpi_fast_gen_sum(s, g, tmp, delta, mu);
    for (int i = 0; i < 3; i++) x[i] = 0.5 * g[i];
    slpi_fast_cayley3(tau, x);
    f[0] = f[1] = f[2] = 0;
    if (!sd) return;
    slpi_fast_mat3t_vec(mu + 3, tau, Gk);
    slpi_fast_gen_sum(s, g, tmp, delta, mu);
    slpi_fast_cross(f, g + 3, mu + 3);
}

/* Stop m in plain sweeps against the sweeps written here from the docs, on a built-in
 * system's drawn step: TMK on the heavy top (m = 1..4; docs/schemes.md#tmk, sigma <-
 * sum_k Delta_k xi_k((mu + O_exp(sigma; mu))/2) from sigma = 0 but its Gamma part, h x,
 * set once: docs/systems.md#heavy-top-rkmk), SVI on the rigid body (m = 0..4; the paper's
 * (64), docs/schemes.md#svi-so3, from A = B = Pi_k, then Pi' = tau^T tau^T Pi_k at x of
 * the final A, B) and SVI on the heavy top (m = 0..4; docs/schemes.md#svi-sd's steps in
 * their written order, A = A_c(x)^-1 Pi_k, B = A_c(x)^-1 (tau^T Pi_k - f), then Pi' =
 * tau^T (tau^T Pi_k - f), Gamma' = tau^T Gamma~, R' = R tau^2 at x of the final A, B),
 * within 1e-12 |x|; and stop 1 differs from the scheme's own (its chord, its A_c^-1 with
 * the previous sweep's Gamma~; both converge, so from m = 2 they may meet within the
 * rounding). */
static void check_plain(const char *preset, slpi_scheme_id k)
{
    enum { MAX = 16 };
    slpi_problem *p = NULL;
    slpi_error err = { 0, "" };
    slpi_fast *f = NULL;
    TEST_CHECK(test_problem(&p, preset, 10, &err) == SLPI_OK && slpi_fast_create(&f, p, &err) == 0);
    const char *name[SLPI_FAST_INGREDIENTS_MAX];
    int nf = f ? slpi_fast_ingredients(p, name) : 0, q = 0, M = f ? slpi_problem_noise_count(p) : 0;
    int dim = f ? slpi_problem_state_dim(p) : 0, first = k == SLPI_SCHEME_SVI ? 0 : 1;
    int plain = SLPI_FAST_PLAIN_STOPS + 1 - first, own = 0;
    while (q < nf && !strstr(name[q], "plain sweeps")) q++;
    while (own < nf && strcmp(name[own], "solver stop")) own++;
    char want[64];
    snprintf(want, sizeof want, "solver stop %d, plain sweeps", first);
    TEST_CHECKF(f && q + plain + SLPI_FAST_TOL_STOPS == nf && M < MAX && dim <= MAX &&
                    !strcmp(name[q - 1], "solver stop 4") && !strcmp(name[q], want),
                "%s: %d ingredients, plain sweeps from %d (%s)", preset, nf, q, q < nf ? name[q] : "none");
    double x[MAX], y[MAX], z[MAX], u[MAX], dw[MAX], delta[MAX + 1], sg[MAX], o[MAX], mb[MAX], tmp[MAX];
    if (q + plain + SLPI_FAST_TOL_STOPS != nf || slpi_fast_problem_initial_state(p, x, &err)) goto done;
    const slpi_fast_system *s = &f->sys;
    int sd = k == SLPI_SCHEME_SVI && dim > 3;
    delta[0] = f->h;
    for (int j = 0; j < M; j++) delta[j + 1] = dw[j] = 0.3 * sqrt(f->h) * fu_normal();
    for (int i = 0; i < 3; i++) x[i] += 0.2 * fu_normal(); /* Pi */
    for (int m = first; m <= SLPI_FAST_PLAIN_STOPS; m++) {
        memcpy(z, x, (size_t)dim * sizeof *z);
        if (k == SLPI_SCHEME_TMK) {
            slpi_fast_gen_sum(s, sg, tmp, delta, x);
            for (int i = 0; i < s->dim; i++) sg[i] = i < 3 ? 0 : sg[i]; /* xi = 0, b = h x */
            for (int it = 0; it < m; it++) {
                s->orbit(s, o, sg, x);
                for (int i = 0; i < s->dim; i++) mb[i] = 0.5 * (x[i] + o[i]);
                slpi_fast_gen_sum(s, sg, tmp, delta, mb);
            }
            s->orbit(s, z, sg, x);
        } else {
            double A[3], B[3], xv[3], xa[3], xb[3], tau[9], v[3], fv[3], c = slpi_view_scheme(p)->svi_c;
            memcpy(A, x, sizeof A);
            memcpy(B, x, sizeof B);
            if (sd) memcpy(mb + 3, x + 3, 3 * sizeof *mb); /* Gamma~ = Gamma_k before the first sweep */
            for (int it = 0; it <= m; it++) {
                svi_velocity(s, delta, sd, x + 3, A, B, mb, xv, tau, fv);
                if (it == m) break;
                if (sd) {
                    slpi_fast_mat3t_vec(v, tau, x);
                    for (int i = 0; i < 3; i++) v[i] -= fv[i];
                    ac_inv(A, c, xv, x);
                    ac_inv(B, c, xv, v);
                    continue;
                }
                double da = slpi_fast_dot3(xv, A), db = slpi_fast_dot3(xv, B);
                slpi_fast_cross(xa, xv, A);
                for (int i = 0; i < 3; i++) A[i] = x[i] - 0.5 * xa[i] - c * da * xv[i];
                slpi_fast_cross(xa, xv, A);
                slpi_fast_cross(xb, xv, B);
                for (int i = 0; i < 3; i++) B[i] = x[i] - xa[i] - 0.5 * xb[i] - c * db * xv[i];
            }
            slpi_fast_mat3t_vec(v, tau, x);
            for (int i = 0; i < 3; i++) v[i] -= fv[i];
            slpi_fast_mat3t_vec(z, tau, v);
            if (sd) {
                double t2[9];
                slpi_fast_mat3t_vec(z + 3, tau, mb + 3);
                slpi_fast_mat3_mul(t2, tau, tau);
                slpi_fast_mat3_mul(z + 6, x + 6, t2);
            }
        }
        int bad = slpi_fast_ingredient_scale(f, q + m - first, 2.0) || step_m(f, dim, x, dw, y) ||
            slpi_fast_ingredient_scale(f, -1, 1.0) || (m > 0 && slpi_fast_ingredient_scale(f, own + m - 1, 2.0)) ||
            (m > 0 && step_m(f, dim, x, dw, u));
        slpi_fast_ingredient_scale(f, -1, 1.0);
        double e = 0, apart = 0, top = 0;
        for (int i = 0; i < (k == SLPI_SCHEME_TMK ? s->dim : dim); i++) {
            e = fmax(e, fabs(y[i] - z[i]));
            apart = m > 0 ? fmax(apart, fabs(y[i] - u[i])) : apart;
            top = fmax(top, fabs(z[i]));
        }
        TEST_CHECKF(!bad && e <= TOL * top, "%s: %s against the sweeps written here: off by %.3g", preset,
                    name[q + m - first], bad ? -1.0 : e);
        TEST_CHECKF(!bad && (m != 1 || apart > 1e3 * TOL * top), "%s: %s is the scheme's own stop %d (%.3g apart)",
                    preset, name[q + m - first], m, apart);
    }
done:
    slpi_fast_free(f);
    slpi_problem_free(p);
}

int main(void)
{
    test_start("t-fast-ingredients", 4711);
    long rounds = test_iters(2);
    for (long r = 0; r < rounds; r++) {
        model_case c = { { test_rand_uniform(0.8, 1.2), test_rand_uniform(1.6, 2.4), test_rand_uniform(2.5, 3.5) },
                         test_rand_uniform(0.05, 0.3),
                         test_rand_uniform(-1, 1),
                         test_rand_uniform(0.02, 0.06),
                         test_rand_uniform(0.3, 0.7),
                         test_rand_uniform(1, 3),
                         0,
                         0,
                         0 };
        for (int k = 0; k < SLPI_SCHEME_COUNT; k++) check_scheme((slpi_scheme_id)k, &c);
    }
    /* a built-in system reads no t: no time stage */
    slpi_problem *p = NULL;
    slpi_error err = { 0, "" };
    TEST_CHECK(test_problem(&p, "iso/rigid-body/trajectories", 10, &err) == SLPI_OK);
    const char *name[SLPI_FAST_INGREDIENTS_MAX];
    int nf = p ? slpi_fast_ingredients(p, name) : 0;
    int has_time = 0;
    for (int i = 0; i < nf; i++) has_time |= !strcmp(name[i], "time stage");
    TEST_CHECKF(
        nf == 38 && !has_time && !strcmp(name[nf - 26], "solver stop") && !strcmp(name[nf - 23], "solver stop 4") &&
            !strcmp(name[nf - 20], "solver stop 3 after predictor") && !strcmp(name[nf - 1], "solver stop at 2^-30"),
        "rigid body: %d ingredients", nf);
    slpi_problem_free(p);
    check_swaps();
    check_noise_each();
    check_plain("rkmk/heavy-top/stoch-421-realization", SLPI_SCHEME_TMK);
    check_plain("svi/rigid-body/paths", SLPI_SCHEME_SVI);
    check_plain("svi/heavy-top/case3", SLPI_SCHEME_SVI);
    /* SVI's LP form (Manakov) has no plain form in the docs: no stops in plain sweeps */
    TEST_CHECK(test_problem(&p, "iso/manakov/long", 10, &err) == SLPI_OK &&
               slpi_problem_set_key(p, "scheme", "svi") == SLPI_OK);
    nf = p ? slpi_fast_ingredients(p, name) : 0;
    int plain = 0;
    for (int i = 0; i < nf; i++) plain |= strstr(name[i], "plain sweeps") != NULL;
    TEST_CHECKF(nf > 0 && !plain && !strcmp(name[nf - SLPI_FAST_TOL_STOPS - 1], "solver stop 4"),
                "SVI on Manakov (form lp): %d ingredients, plain sweeps listed: %d", nf, plain);
    slpi_problem_free(p);
    TEST_END();
}
