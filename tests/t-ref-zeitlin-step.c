/* t-ref-zeitlin-step.c — the certified Euler–Zeitlin system file (ref/euler-zeitlin.c,
 * SPEC §4.5) under ref-a's schemes (ref/ref.h):
 *   - generators two ways: B_0 = Delta^{-1} X against the spectral solve, H0 conserved
 *     along [B_0, X]; the (Q)/(L) noise generators against the basis coefficients;
 *     D B_k by exact linearity;
 *   - a certified ISOMP step at N = 12 (time reported, goal <= 20 ms, P4), and five at
 *     N = 6, with the eigenvalues of iX, Tr X^2, Im Tr X^3 and Tr X contained;
 *   - ISOMP symmetry at N = 5: the step with (-h, -dW) from X_{n+1} contains X_n;
 *     COMM and CAY updates overlap;
 *   - every applicable scheme (SPEC §4.7) certifies a step at N = 3 with its
 *     guaranteed invariants contained. */
#include "testutil.h"
#include "ref/ref.h"
#include "ref/zeitlin.h"

#include <time.h>

#define PREC 128

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double gauss(void)
{
    double u = test_rand_uniform(1e-300, 1), v = test_rand_uniform(0, 1);
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* A random traceless skew-Hermitian state with binary64 entries, ||X||_F ~ 1. */
static void random_state(double *x, int N)
{
    double mean = 0, nrm = 0;
    for (int k = 0; k < N * N; k++)
        x[k] = test_rand_uniform(-1, 1);
    for (int a = 0; a < N; a++)
        mean += x[a] / N;
    for (int a = 0; a < N; a++)
        x[a] -= mean;
    for (int k = 0; k < N * N; k++)
        nrm += (k < N ? 1 : 2) * x[k] * x[k];
    for (int k = 0; k < N * N; k++)
        x[k] /= sqrt(nrm);
}

static void problem(slpi_problem *p, int N, slpi_ez_noise noise, slpi_scheme_id k)
{
    slpi_problem_init(p, SLPI_SYS_EULER_ZEITLIN, k);
    p->ez.N = N;
    p->ez.noise = noise;
    p->ez.amp = 2.0;
    p->prec = PREC;
}

static int mat_contains_zero(const acb_mat_t A)
{
    for (slong i = 0; i < acb_mat_nrows(A); i++)
        for (slong j = 0; j < acb_mat_ncols(A); j++)
            if (!acb_contains_zero(acb_mat_entry(A, i, j)))
                return 0;
    return 1;
}

static int vec_overlaps(arb_srcptr x, arb_srcptr y, int n)
{
    for (int i = 0; i < n; i++)
        if (!arb_overlaps(x + i, y + i))
            return 0;
    return 1;
}

static double vec_max_rad(arb_srcptr x, int n)
{
    double r = 0;
    for (int i = 0; i < n; i++) {
        double t = mag_get_d(arb_radref(x + i));
        r = t > r ? t : r;
    }
    return r;
}

/* Generators of the system file against the basis (two ways). */
static void check_generators(int N, slpi_ez_noise noise)
{
    slpi_problem p;
    slpi_ref_system s;
    slpi_error err;
    slpi_ref_zeitlin z;
    problem(&p, N, noise, SLPI_SCHEME_ISOMP);
    memset(&s, 0, sizeof s);
    TEST_CHECK(slpi_ref_sys_euler_zeitlin_init(&s, &p, &err) == SLPI_OK);
    TEST_CHECK(slpi_ref_zeitlin_init(&z, N, PREC, &err) == SLPI_OK);
    int lmin = N / 2, nalpha = N * N - 1;
    TEST_CHECKF(s.M == (noise == SLPI_EZ_NOISE_NONE ? 0 : N * N - lmin * lmin),
                "N=%d: M = %d", N, s.M);
    double *x = malloc(sizeof(double) * (size_t)(N * N));
    arb_ptr xb = _arb_vec_init(N * N), om = _arb_vec_init(nalpha), ob = _arb_vec_init(nalpha);
    acb_mat_t X, W, XW, B, B2, dB, C;
    acb_mat_init(X, N, N);
    acb_mat_init(W, N, N);
    acb_mat_init(XW, N, N);
    acb_mat_init(B, N, N);
    acb_mat_init(B2, N, N);
    acb_mat_init(dB, N, N);
    acb_mat_init(C, N, N);
    arb_t t, u;
    arb_init(t);
    arb_init(u);

    random_state(x, N);
    for (int i = 0; i < N * N; i++)
        arb_set_d(xb + i, x[i]);
    s.unpack(&s, X, xb, PREC);
    random_state(x, N);
    for (int i = 0; i < N * N; i++)
        arb_set_d(xb + i, x[i]);
    s.unpack(&s, W, xb, PREC);
    acb_mat_add(XW, X, W, PREC);
    slpi_ref_zeitlin_coeffs(om, X, &z, PREC);

    /* B_0: spectral solve; d/dt H0 = Re Tr(B_0^* [B_0, X]) = 0 */
    s.mgen(&s, 0, B, X, PREC);
    for (int a = 0; a < nalpha; a++) {
        int l = slpi_ref_zeitlin_degree(a);
        arb_div_si(ob + a, om + a, -(slong)l * (l + 1), PREC);
    }
    slpi_ref_zeitlin_synth(B2, ob, 0, &z, PREC);
    TEST_CHECKF(acb_mat_overlaps(B, B2), "N=%d: B_0 != spectral Delta^-1 X", N);
    slpi_ref_mat_comm(C, B, X, PREC);
    arb_zero(t);
    for (int i = 0; i < N * N; i++) {
        arb_addmul(t, acb_realref(B->entries + i), acb_realref(C->entries + i), PREC);
        arb_addmul(t, acb_imagref(B->entries + i), acb_imagref(C->entries + i), PREC);
    }
    TEST_CHECKF(arb_contains_zero(t) && mag_cmp_2exp_si(arb_radref(t), -100) < 0,
                "N=%d: H0 not conserved by the vector field", N);

    /* noise: B_k = -a_l c Y_alpha; coefficients of B_k are zero except at alpha */
    int bad = 0, badlin = 0;
    for (int k = 1; k <= s.M; k++) {
        int alpha = lmin * lmin - 1 + (k - 1), l = slpi_ref_zeitlin_degree(alpha);
        s.mgen(&s, k, B, X, PREC);
        slpi_ref_zeitlin_coeffs(ob, B, &z, PREC);
        arb_set_d(u, -p.ez.amp);
        arb_div_ui(u, u, (ulong)(l * (l + 1)), PREC);
        if (noise == SLPI_EZ_NOISE_Q)
            arb_mul(u, u, om + alpha, PREC);
        for (int b = 0; b < nalpha; b++) {
            if (b == alpha)
                bad += !arb_overlaps(ob + b, u);
            else
                bad += !arb_contains_zero(ob + b);
        }
        /* D B_k[W] = B_k(X + W) - B_k(X) (affine generators) */
        s.mdgen(&s, k, dB, X, W, PREC);
        s.mgen(&s, k, B2, XW, PREC);
        acb_mat_sub(B2, B2, B, PREC);
        acb_mat_sub(B2, B2, dB, PREC);
        badlin += !mat_contains_zero(B2);
    }
    TEST_CHECKF(bad == 0, "N=%d noise=%d: %d generator coefficients wrong", N, (int)noise, bad);
    TEST_CHECKF(badlin == 0, "N=%d noise=%d: %d derivatives wrong", N, (int)noise, badlin);
    s.mdgen(&s, 0, dB, X, W, PREC);
    s.mgen(&s, 0, B2, W, PREC);
    acb_mat_sub(B2, B2, dB, PREC);
    TEST_CHECKF(mat_contains_zero(B2), "N=%d: D B_0 != Delta^-1", N);

    free(x);
    _arb_vec_clear(xb, N * N);
    _arb_vec_clear(om, nalpha);
    _arb_vec_clear(ob, nalpha);
    acb_mat_clear(X);
    acb_mat_clear(W);
    acb_mat_clear(XW);
    acb_mat_clear(B);
    acb_mat_clear(B2);
    acb_mat_clear(dB);
    acb_mat_clear(C);
    arb_clear(t);
    arb_clear(u);
    slpi_ref_zeitlin_clear(&z);
    slpi_ref_system_clear(&s);
}

/* Increments (h, sqrt(h) Z_1, ..., sqrt(h) Z_M). */
static void increments(double *delta, int M, double h)
{
    delta[0] = h;
    for (int k = 1; k <= M; k++)
        delta[k] = sqrt(h) * gauss();
}

/* Run `steps` certified steps of scheme k from a random state; check the statuses,
 * the final radius, and that invariant i is contained for every i with keep[i]
 * (keep = NULL: all invariants). Returns the mean time per step. */
static double run_steps(int N, slpi_ez_noise noise, slpi_scheme_id scheme, int steps, double h,
                        const int *keep, int nkeep, double rad_max)
{
    slpi_problem p;
    slpi_ref_system s;
    slpi_error err;
    char why[256] = "";
    problem(&p, N, noise, scheme);
    memset(&s, 0, sizeof s);
    TEST_CHECK(slpi_ref_sys_euler_zeitlin_init(&s, &p, &err) == SLPI_OK);
    const slpi_ref_scheme *sc = slpi_ref_scheme_get(scheme);
    TEST_CHECKF(sc->check == NULL || sc->check(&s, &p, &err) == SLPI_OK, "%s N=%d: check: %s",
                slpi_scheme_name(scheme), N, err.msg);
    int n = s.state_dim;
    double *x = malloc(sizeof(double) * (size_t)n), *delta = malloc(sizeof(double) * (size_t)(s.M + 1));
    arb_ptr xb = _arb_vec_init(n), inv0 = _arb_vec_init(s.n_inv), inv = _arb_vec_init(s.n_inv);
    random_state(x, N);
    for (int i = 0; i < n; i++)
        arb_set_d(xb + i, x[i]);
    s.invariants(&s, inv0, xb, PREC);
    double t0 = now();
    int ok = 1;
    for (int st = 0; st < steps && ok; st++) {
        increments(delta, s.M, h);
        slpi_step_status r = sc->step(&s, xb, delta, PREC, why, sizeof why);
        ok = r == SLPI_STEP_CONVERGED;
        TEST_CHECKF(ok, "%s N=%d step %d: %s (%s)", slpi_scheme_name(scheme), N, st,
                    slpi_step_status_name(r), why);
    }
    double dt = (now() - t0) / steps;
    if (ok) {
        double r = vec_max_rad(xb, n);
        TEST_CHECKF(r < rad_max, "%s N=%d: radius %g after %d steps", slpi_scheme_name(scheme),
                    N, r, steps);
        s.invariants(&s, inv, xb, PREC);
        for (int j = 0; j < (keep ? nkeep : s.n_inv); j++) {
            int i = keep ? keep[j] : j;
            TEST_CHECKF(arb_overlaps(inv + i, inv0 + i) && arb_is_finite(inv + i),
                        "%s N=%d: invariant %s not contained after %d steps",
                        slpi_scheme_name(scheme), N, s.inv_name[i], steps);
        }
    }
    free(x);
    free(delta);
    _arb_vec_clear(xb, n);
    _arb_vec_clear(inv0, s.n_inv);
    _arb_vec_clear(inv, s.n_inv);
    slpi_ref_system_clear(&s);
    return dt;
}

/* ISOMP is symmetric: (-h, -dW) maps X_{n+1} back onto X_n; COMM and CAY agree. */
static void check_isomp_symmetric(int N)
{
    slpi_problem p;
    slpi_ref_system s;
    slpi_error err;
    char why[256] = "";
    problem(&p, N, SLPI_EZ_NOISE_Q, SLPI_SCHEME_ISOMP);
    memset(&s, 0, sizeof s);
    TEST_CHECK(slpi_ref_sys_euler_zeitlin_init(&s, &p, &err) == SLPI_OK);
    const slpi_ref_scheme *sc = slpi_ref_scheme_get(SLPI_SCHEME_ISOMP);
    int n = s.state_dim;
    double *x = malloc(sizeof(double) * (size_t)n), *delta = malloc(sizeof(double) * (size_t)(s.M + 1));
    arb_ptr x0 = _arb_vec_init(n), x1 = _arb_vec_init(n), xc = _arb_vec_init(n);
    random_state(x, N);
    for (int i = 0; i < n; i++)
        arb_set_d(x0 + i, x[i]);
    increments(delta, s.M, 1.0 / 16);
    _arb_vec_set(x1, x0, n);
    TEST_CHECK(sc->step(&s, x1, delta, PREC, why, sizeof why) == SLPI_STEP_CONVERGED);
    /* CAY update of the same step */
    p.isomp_update = SLPI_ISO_UPDATE_CAY;
    _arb_vec_set(xc, x0, n);
    TEST_CHECK(sc->step(&s, xc, delta, PREC, why, sizeof why) == SLPI_STEP_CONVERGED);
    TEST_CHECKF(vec_overlaps(xc, x1, n), "N=%d: ISOMP COMM and CAY updates differ", N);
    p.isomp_update = SLPI_ISO_UPDATE_COMM;
    for (int k = 0; k <= s.M; k++)
        delta[k] = -delta[k];
    TEST_CHECK(sc->step(&s, x1, delta, PREC, why, sizeof why) == SLPI_STEP_CONVERGED);
    TEST_CHECKF(vec_overlaps(x1, x0, n) && vec_max_rad(x1, n) < 1e-30,
                "N=%d: ISOMP backward step does not return to X_n", N);
    free(x);
    free(delta);
    _arb_vec_clear(x0, n);
    _arb_vec_clear(x1, n);
    _arb_vec_clear(xc, n);
    slpi_ref_system_clear(&s);
}

/* A step far too large to certify is UNABLE with a reason, not a crash or a guess. */
static void check_unable(int N)
{
    slpi_problem p;
    slpi_ref_system s;
    slpi_error err;
    char why[256] = "";
    problem(&p, N, SLPI_EZ_NOISE_Q, SLPI_SCHEME_ISOMP);
    p.ez.amp = 100;
    memset(&s, 0, sizeof s);
    TEST_CHECK(slpi_ref_sys_euler_zeitlin_init(&s, &p, &err) == SLPI_OK);
    int n = s.state_dim;
    double *x = malloc(sizeof(double) * (size_t)n), *delta = malloc(sizeof(double) * (size_t)(s.M + 1));
    arb_ptr xb = _arb_vec_init(n);
    random_state(x, N);
    for (int i = 0; i < n; i++)
        arb_set_d(xb + i, 50 * x[i]);
    increments(delta, s.M, 4.0);
    slpi_step_status r = slpi_ref_scheme_get(SLPI_SCHEME_ISOMP)->step(&s, xb, delta, PREC, why,
                                                                      sizeof why);
    TEST_CHECKF(r == SLPI_STEP_UNABLE && why[0], "huge ISOMP step: %s (%s)",
                slpi_step_status_name(r), why);
    free(x);
    free(delta);
    _arb_vec_clear(xb, n);
    slpi_ref_system_clear(&s);
}

int main(void)
{
    test_start("t-ref-zeitlin-step", 20261122);
    check_generators(5, SLPI_EZ_NOISE_Q);
    check_generators(12, SLPI_EZ_NOISE_Q);
    check_generators(6, SLPI_EZ_NOISE_L);
    check_generators(4, SLPI_EZ_NOISE_NONE);

    /* invariants: 0 H0, 1 C2, 2 C3, 3 TrX, 4.. eigenvalues */
    int casimirs[4 + 12];
    for (int i = 0; i < 4 + 12; i++)
        casimirs[i] = i + 1;
    double dt = run_steps(12, SLPI_EZ_NOISE_Q, SLPI_SCHEME_ISOMP, 1, 1.0 / 128, casimirs, 3 + 12,
                          1e-30);
    printf("t-ref-zeitlin-step: certified ISOMP step N=12 (Q), 128 bits: %.2f ms (goal <= 20 ms)\n",
           1e3 * dt);
    dt = run_steps(6, SLPI_EZ_NOISE_Q, SLPI_SCHEME_ISOMP, 5, 1.0 / 64, casimirs, 3 + 6, 1e-30);
    printf("t-ref-zeitlin-step: certified ISOMP step N=6 (Q): %.2f ms\n", 1e3 * dt);
    check_isomp_symmetric(5);

    /* N = 3 under every applicable scheme; orbit-map schemes keep every Casimir */
    static const struct { slpi_scheme_id k; slpi_ez_noise noise; int orbit; } pairs[] = {
        { SLPI_SCHEME_ISOMP, SLPI_EZ_NOISE_Q, 1 },     { SLPI_SCHEME_TMK, SLPI_EZ_NOISE_Q, 1 },
        { SLPI_SCHEME_RKMK_HEUN, SLPI_EZ_NOISE_Q, 1 }, { SLPI_SCHEME_RKMK_LE, SLPI_EZ_NOISE_L, 1 },
        { SLPI_SCHEME_IM_DIRECT, SLPI_EZ_NOISE_Q, 0 }, { SLPI_SCHEME_TRAP_DIRECT, SLPI_EZ_NOISE_Q, 0 },
        { SLPI_SCHEME_SVI, SLPI_EZ_NOISE_Q, 1 },
    };
    int im_keep[] = { 1, 3 };   /* IM keeps the quadratic invariants C2 and Tr X */
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        int trap = pairs[i].k == SLPI_SCHEME_TRAP_DIRECT;
        dt = run_steps(3, pairs[i].noise, pairs[i].k, 2, 1.0 / 32, pairs[i].orbit ? casimirs : im_keep,
                       pairs[i].orbit ? 3 + 3 : (trap ? 0 : 2), 1e-30);
        printf("t-ref-zeitlin-step: %s N=3: %.2f ms/step\n", slpi_scheme_name(pairs[i].k), 1e3 * dt);
    }
    check_unable(5);
    flint_cleanup();
    TEST_END();
}
