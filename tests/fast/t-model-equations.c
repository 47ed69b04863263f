/* t-model-equations.c — a model integrates its algebra's textbook equation
 * (docs/models.md#equations), checked against closed-form solutions on the double path.
 *
 *  1. so3, H = 1/2 sum x_i^2 / I_i: Euler's equations dx = x cross I^-1 x, whose solution
 *     from x(0) = (a, 0, c) with 1/I1 > 1/I2 > 1/I3 is (Jacobi's elliptic functions)
 *         x = (a cn(lt, k^2), b sn(lt, k^2), c dn(lt, k^2)),
 *         l^2 = c^2 (B - C)(A - C), b = c a (A - C) / l, k^2 = a^2 (A - B) / (c^2 (B - C))
 *     (A, B, C = 1/I1, 1/I2, 1/I3; substitute into the three equations). The Jacobi
 *     functions are computed here by the arithmetic-geometric mean (Abramowitz & Stegun
 *     16.4), dn = sqrt(1 - k^2 sn^2), and checked by sn^2 + cn^2 = 1, the derivatives
 *     sn' = cn dn, cn' = -sn dn, dn' = -k^2 sn cn (central differences) and m = 0.
 *     The same body on so(3) in the coordinates X_i_j (X = hat x: X_1_2 = -x3, X_1_3 = x2,
 *     X_2_3 = -x1), dX = [X, grad H] in the pairing sum_{i<j} A_ij B_ij.
 *  2. so3^2: block 1 the same body, block 2 H = e . x_2, so dx_2 = x_2 cross e: a rotation
 *     by the angle -|e| t about e (Rodrigues); one run, both blocks.
 *  3. se3: H = |pi|^2 / (2 I): pi constant, dgamma = gamma cross pi / I, a rotation by
 *     -|pi| t / I about pi; and H = e . gamma: gamma constant, pi(t) = pi0 + t gamma0 x e.
 * Every scheme the registry admits for the algebra, no noise, T = 4 at h = 2^-5 and 2^-6.
 * A wrong time scale (the half speed of a Frobenius gradient on so3, the sqrt 2 of the
 * su(2) model A bracket on so3^k, a sign) leaves an O(1) error that does not shrink with h.
 * Rule, fixed before measuring: the error e = max |x(T) - x_exact(T)| must converge,
 * e(h/2) <= 0.6 e(h) (order >= 0.74; the schemes have order 1 or 2) unless e(h/2) <= 1e-12
 * (a scheme exact on that flow), and e(h/2) <= 0.1. */
#include "fastutil.h"
#include "jacobiutil.h"

#define T_END 4.0

/* out = exp(theta hat(axis / |axis|)) v */
static void rotate(double *out, const double *axis, double theta, const double *v)
{
    double n = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]), k[3], kv[3], d = 0;
    for (int i = 0; i < 3; i++) {
        k[i] = axis[i] / n;
        d += k[i] * v[i];
    }
    kv[0] = k[1] * v[2] - k[2] * v[1];
    kv[1] = k[2] * v[0] - k[0] * v[2];
    kv[2] = k[0] * v[1] - k[1] * v[0];
    for (int i = 0; i < 3; i++) out[i] = v[i] * cos(theta) + kv[i] * sin(theta) + k[i] * d * (1 - cos(theta));
}

static const double e_vec[3] = { 0.3, -0.2, 0.5 };

static void exact_so3(double *x, double t)
{
    ju_euler_top(x, t);
}

static void exact_so3k(double *x, double t)
{
    static const double x2[3] = { 0.6, 0.8, -0.3 };
    ju_euler_top(x, t);
    rotate(x + 3, e_vec, -sqrt(0.38) * t, x2);
}

/* so(3) in the coordinates (X_1_2, X_1_3, X_2_3) = (-x3, x2, -x1) of the hat map */
static void exact_so3_matrix(double *X, double t)
{
    double x[3];
    ju_euler_top(x, t);
    X[0] = -x[2];
    X[1] = x[1];
    X[2] = -x[0];
}

static const double pi0[3] = { 0.3, -0.4, 0.5 }, gamma0[3] = { 0.6, 0.2, -0.7 };

static void exact_se3_free(double *x, double t) /* I = 2 */
{
    memcpy(x, pi0, sizeof pi0);
    rotate(x + 3, pi0, -sqrt(0.5) * t / 2, gamma0);
}

static void exact_se3_potential(double *x, double t)
{
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        x[i] = pi0[i] + t * (gamma0[j] * e_vec[k] - gamma0[k] * e_vec[j]);
        x[3 + i] = gamma0[i];
    }
}

typedef struct {
    const char *alg, *H, *x0;
    void (*exact)(double *x, double t);
} flow;

static const flow flows[] = {
    { "so3", "x1^2/2 + x2^2/4 + x3^2/6", "0.4,0,1", exact_so3 },
    { "so(3)", "X_2_3^2/2 + X_1_3^2/4 + X_1_2^2/6", "-1,0,-0.4", exact_so3_matrix },
    { "so3^2", "x1_1^2/2 + x1_2^2/4 + x1_3^2/6 + 0.3*x2_1 - 0.2*x2_2 + 0.5*x2_3", "0.4,0,1,0.6,0.8,-0.3", exact_so3k },
    { "se3", "(pi1^2 + pi2^2 + pi3^2)/(2*2)", "0.3,-0.4,0.5,0.6,0.2,-0.7", exact_se3_free },
    { "se3", "0.3*gamma1 - 0.2*gamma2 + 0.5*gamma3", "0.3,-0.4,0.5,0.6,0.2,-0.7", exact_se3_potential },
};

/* max |x(T) - exact| after T / h steps of scheme k, or -1 when the registry refuses it */
static double run_error(const flow *fl, slpi_scheme_id k, double h)
{
    slpi_problem p;
    slpi_error err = { 0 };
    char hs[32];
    snprintf(hs, sizeof hs, "%.17g", h);
    slpi_problem_init(&p, SLPI_SYS_MODEL, k);
    int rc = slpi_problem_set(&p, "algebra", fl->alg, &err);
    if (!rc) rc = slpi_problem_set(&p, "H", fl->H, &err);
    if (!rc) rc = slpi_problem_set(&p, "x0", fl->x0, &err);
    if (!rc) rc = slpi_problem_set(&p, "h", hs, &err);
    if (!rc) rc = slpi_problem_validate(&p, &err);
    if (rc == SLPI_EINPUT && strstr(err.msg, "not applicable")) return -1;
    slpi_fast *f = NULL;
    if (!rc) rc = slpi_fast_create(&f, &p, &err);
    TEST_CHECKF(rc == 0, "%s H=%s %s: %s", fl->alg, fl->H, slpi_scheme_name(k), err.msg);
    if (rc) return -1;
    int dim = f->sys.dim;
    double x[SLPI_MAX_X0], ex[SLPI_MAX_X0], e = 0;
    memcpy(x, p.sys.x0, (size_t)dim * sizeof *x);
    long steps = lround(T_END / h);
    for (long n = 0; n < steps; n++) {
        slpi_step_info info;
        slpi_step_status st = slpi_fast_step(f, x, NULL, &info);
        TEST_CHECKF(!slpi_step_failed(st), "%s %s: step %ld failed", fl->alg, slpi_scheme_name(k), n);
        if (slpi_step_failed(st)) break;
    }
    fl->exact(ex, T_END);
    for (int i = 0; i < dim; i++) e = fmax(e, fabs(x[i] - ex[i]));
    slpi_fast_free(f);
    return e;
}

static void check_jacobi(void)
{
    for (int it = 0; it < 50; it++) {
        double u = test_rand_uniform(-5, 5), m = test_rand_uniform(0, 0.95), sn, cn, dn;
        ju_jacobi(u, m, &sn, &cn, &dn);
        TEST_CHECKF(fabs(sn * sn + cn * cn - 1) < 1e-14, "jacobi(%g, %g): sn^2 + cn^2 - 1 = %.3g", u, m,
                    sn * sn + cn * cn - 1);
        /* d sn / du = cn dn by a central difference */
        double s1, c1, d1, s2, c2, d2, e = 1e-5;
        ju_jacobi(u + e, m, &s1, &c1, &d1);
        ju_jacobi(u - e, m, &s2, &c2, &d2);
        TEST_CHECKF(fabs((s1 - s2) / (2 * e) - cn * dn) < 1e-8, "jacobi(%g, %g): sn' = cn dn", u, m);
        TEST_CHECKF(fabs((c1 - c2) / (2 * e) + sn * dn) < 1e-8, "jacobi(%g, %g): cn' = -sn dn", u, m);
        TEST_CHECKF(fabs((d1 - d2) / (2 * e) + m * sn * cn) < 1e-8, "jacobi(%g, %g): dn' = -m sn cn", u, m);
    }
    double sn, cn, dn;
    ju_jacobi(1.0, 0.0, &sn, &cn, &dn); /* m = 0: the circular functions */
    TEST_CHECK(fabs(sn - sin(1.0)) < 1e-15 && fabs(cn - cos(1.0)) < 1e-15 && dn == 1);
}

int main(void)
{
    test_start("t-model-equations", 40);
    check_jacobi();
    int ran = 0;
    for (size_t c = 0; c < sizeof flows / sizeof *flows; c++)
        for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
            double e1 = run_error(flows + c, (slpi_scheme_id)k, 0x1p-5);
            if (e1 < 0) continue;
            double e2 = run_error(flows + c, (slpi_scheme_id)k, 0x1p-6);
            printf("  %s H=%s %s: error %.3g at h = 2^-5, %.3g at 2^-6\n", flows[c].alg, flows[c].H,
                   slpi_scheme_name((slpi_scheme_id)k), e1, e2);
            TEST_CHECKF((e2 <= 0.6 * e1 || e2 <= 1e-12) && e2 <= 0.1, "%s H=%s %s: error %.3g -> %.3g", flows[c].alg,
                        flows[c].H, slpi_scheme_name((slpi_scheme_id)k), e1, e2);
            ran++;
        }
    TEST_CHECKF(ran >= 29, "only %d flow/scheme pairs ran", ran);
    TEST_END();
}
