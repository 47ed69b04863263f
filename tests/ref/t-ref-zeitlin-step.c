/* t-ref-zeitlin-step.c — the certified Euler–Zeitlin system file (ref/euler-zeitlin.c,
 * docs/systems.md#euler-zeitlin) under ref-a's schemes (ref/scheme.h):
 *   - generators two ways: B_0 = Delta^{-1} X against the spectral solve, H0 conserved
 *     along [B_0, X]; the (Q)/(L) noise generators against the basis coefficients;
 *     D B_k by exact linearity;
 *   - a certified ISOMP step at N = 12 (time reported, goal <= 20 ms, P4), and five at
 *     N = 6, with the eigenvalues of iX, Tr X^2, Im Tr X^3 and Tr X contained;
 *   - ISOMP symmetry at N = 5: the step with (-h, -dW) from X_{n+1} contains X_n;
 *     COMM and CAY updates overlap; a step from a wide state ball contains the steps
 *     from corner points (parametric enclosure);
 *   - every applicable scheme (docs/systems.md#applicability) certifies steps at N = 3 with its
 *     guaranteed invariants contained; without noise TMK and IM also keep H0;
 *   - the Jacobian-free Krawczyk solver on an affine contraction with a wide parameter
 *     ball contains the exact corner solutions;
 *   - a step far too large is UNABLE with a reason; a system certified on the BLAS route
 *     alone (blas_only) is UNABLE off the route with its reason, certified on it;
 *   - the invariants' names for N = 2..20 two ways: each delta name is "I_dev" or "I_rel_dev" of its
 *     name, the first four are H0, C2, C3, TrX, then every eigenvalue up to N = 12, and
 *     no two names are equal. */
#include "core/problem-struct.h"
#include "testutil.h"
#include "ref/matrix.h"
#include "ref/krawczyk.h"
#include "ref/scheme.h"
#include "ref/zeitlin.h"

#include <time.h>

slpi_ref_system_ctor slpi_ref_sys_euler_zeitlin; /* ref/euler-zeitlin.c */

#define PREC 128

/* invariant indices of ref/euler-zeitlin.c */
enum { INV_H0, INV_C2, INV_C3, INV_TRX, INV_LAMBDA };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double gauss(void)
{
    double u = test_rand_uniform(1e-300, 1), v = test_rand_uniform(0, 1);
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* One problem, its certified system, a random traceless binary64 state of Frobenius
 * norm `scale` (as balls) and a buffer for the increments (h, dW_1..dW_M). */
typedef struct {
    slpi_problem p;
    slpi_ref_system s;
    const slpi_ref_scheme *sc;
    int n;
    arb_ptr x;
    double *delta;
    char why[256];
} fixture;

static void setup(fixture *f, int N, slpi_ez_noise noise, slpi_scheme_id k, double amp, double scale)
{
    slpi_error err;
    slpi_problem_init(&f->p, SLPI_SYS_EULER_ZEITLIN, k);
    f->p.sys.ez.N = N;
    f->p.sys.ez.noise = noise;
    f->p.sys.ez.amp = amp;
    f->p.cert.prec = PREC;
    memset(&f->s, 0, sizeof f->s);
    TEST_CHECK(slpi_ref_sys_euler_zeitlin(&f->s, &f->p, &err) == SLPI_OK);
    f->sc = slpi_ref_scheme_get(k);
    TEST_CHECKF(f->sc->check == NULL || f->sc->check(&f->s, &f->p, &err) == SLPI_OK, "%s N=%d: check: %s",
                slpi_scheme_name(k), N, err.msg);
    f->n = f->s.state_dim;
    f->x = _arb_vec_init(f->n);
    f->delta = malloc(sizeof(double) * (size_t)(f->s.M + 1));
    f->why[0] = 0;
    double *x = malloc(sizeof(double) * (size_t)f->n), mean = 0, nrm = 0;
    for (int i = 0; i < f->n; i++) x[i] = test_rand_uniform(-1, 1);
    for (int a = 0; a < N; a++) mean += x[a] / N;
    for (int a = 0; a < N; a++) x[a] -= mean;
    for (int i = 0; i < f->n; i++) nrm += (i < N ? 1 : 2) * x[i] * x[i];
    for (int i = 0; i < f->n; i++) arb_set_d(f->x + i, scale * x[i] / sqrt(nrm));
    free(x);
}

static void teardown(fixture *f)
{
    _arb_vec_clear(f->x, f->n);
    free(f->delta);
    slpi_ref_system_clear(&f->s);
}

/* Increments (h, sqrt(h) Z_1, ..., sqrt(h) Z_M). */
static void increments(fixture *f, double h)
{
    f->delta[0] = h;
    for (int k = 1; k <= f->s.M; k++) f->delta[k] = sqrt(h) * gauss();
}

static slpi_step_status step(fixture *f, arb_ptr x)
{
    return f->sc->step(&f->s, x, f->delta, PREC, f->why, sizeof f->why);
}

/* Packed states x and y overlap entrywise (compared as matrices). */
static int states_overlap(const fixture *f, arb_srcptr x, arb_srcptr y)
{
    int N = f->s.N, r;
    acb_mat_t X, Y;
    acb_mat_init(X, N, N);
    acb_mat_init(Y, N, N);
    f->s.m_unpack(&f->s, X, x, PREC);
    f->s.m_unpack(&f->s, Y, y, PREC);
    r = acb_mat_overlaps(X, Y);
    acb_mat_clear(X);
    acb_mat_clear(Y);
    return r;
}

/* The invariants' names (ref/euler-zeitlin.c, slpi_ref_su_casimir_names). */
static void check_invariant_names(int N)
{
    static const char *const first[4] = { "H0", "C2", "C3", "TrX" };
    slpi_problem p;
    slpi_ref_system s;
    slpi_error err;
    slpi_problem_init(&p, SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP);
    p.sys.ez.N = N;
    p.cert.prec = PREC;
    memset(&s, 0, sizeof s);
    TEST_CHECKF(slpi_ref_sys_euler_zeitlin(&s, &p, &err) == SLPI_OK, "N=%d: %s", N, err.msg);
    TEST_CHECKF(s.n_inv == (N <= 12 ? 4 + N : 7), "N=%d: %d invariants", N, s.n_inv);
    for (int i = 0; i < s.n_inv && i < SLPI_REF_MAX_INV; i++) {
        char want[64];
        snprintf(want, sizeof want, "%s_%sdev", s.inv_name[i], s.inv_rel[i] ? "rel_" : "");
        TEST_CHECKF(strcmp(s.inv_delta_name[i], want) == 0, "N=%d: invariant %d: %s beside %s", N, i,
                    s.inv_delta_name[i], s.inv_name[i]);
        if (i < 4)
            TEST_CHECKF(strcmp(s.inv_name[i], first[i]) == 0, "N=%d: invariant %d is %s", N, i, s.inv_name[i]);
        else if (N <= 12) {
            snprintf(want, sizeof want, "lambda_%d", i - 3);
            TEST_CHECKF(strcmp(s.inv_name[i], want) == 0, "N=%d: invariant %d is %s", N, i, s.inv_name[i]);
        }
        for (int j = 0; j < i; j++)
            TEST_CHECKF(strcmp(s.inv_name[i], s.inv_name[j]) != 0, "N=%d: %s twice", N, s.inv_name[i]);
    }
    slpi_ref_system_clear(&s);
}

/* Generators of the system file against the basis (two ways). */
static void check_generators(int N, slpi_ez_noise noise)
{
    fixture f, g;
    slpi_error err;
    slpi_ref_zeitlin z;
    setup(&f, N, noise, SLPI_SCHEME_ISOMP, 2.0, 1.0);
    setup(&g, N, noise, SLPI_SCHEME_ISOMP, 2.0, 1.0);
    const slpi_ref_system *s = &f.s;
    TEST_CHECK(slpi_ref_zeitlin_init(&z, N, PREC, &err) == SLPI_OK && slpi_ref_zeitlin_harmonics(&z, &err) == SLPI_OK);
    int lmin = N / 2, nalpha = N * N - 1;
    TEST_CHECKF(s->M == (noise == SLPI_EZ_NOISE_NONE ? 0 : N * N - lmin * lmin), "N=%d: M = %d", N, s->M);
    arb_ptr om = _arb_vec_init(nalpha), ob = _arb_vec_init(nalpha);
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

    s->m_unpack(s, X, f.x, PREC);
    s->m_unpack(s, W, g.x, PREC);
    acb_mat_add(XW, X, W, PREC);
    slpi_ref_zeitlin_analysis(om, X, &z, PREC);

    /* B_0: spectral solve; d/dt H0 = Re Tr(B_0^* [B_0, X]) = 0 */
    s->m_gen(s, 0, B, X, PREC);
    for (int a = 0; a < nalpha; a++) {
        int l = slpi_ref_zeitlin_degree(a);
        arb_div_si(ob + a, om + a, -(slong)l * (l + 1), PREC);
    }
    slpi_ref_zeitlin_synthesis(B2, ob, 0, &z, PREC);
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
    for (int k = 1; k <= s->M; k++) {
        int alpha = lmin * lmin - 1 + (k - 1), l = slpi_ref_zeitlin_degree(alpha);
        s->m_gen(s, k, B, X, PREC);
        slpi_ref_zeitlin_analysis(ob, B, &z, PREC);
        arb_set_d(u, -f.p.sys.ez.amp);
        arb_div_ui(u, u, (ulong)(l * (l + 1)), PREC);
        if (noise == SLPI_EZ_NOISE_Q) arb_mul(u, u, om + alpha, PREC);
        for (int b = 0; b < nalpha; b++) {
            if (b == alpha)
                bad += !arb_overlaps(ob + b, u);
            else
                bad += !arb_contains_zero(ob + b);
        }
        /* D B_k[W] = B_k(X + W) - B_k(X) (affine generators) */
        s->m_dgen(s, k, dB, X, W, PREC);
        s->m_gen(s, k, B2, XW, PREC);
        acb_mat_sub(B2, B2, B, PREC);
        badlin += !acb_mat_overlaps(B2, dB);
    }
    TEST_CHECKF(bad == 0, "N=%d noise=%d: %d generator coefficients wrong", N, (int)noise, bad);
    TEST_CHECKF(badlin == 0, "N=%d noise=%d: %d derivatives wrong", N, (int)noise, badlin);
    s->m_dgen(s, 0, dB, X, W, PREC);
    s->m_gen(s, 0, B2, W, PREC);
    TEST_CHECKF(acb_mat_overlaps(B2, dB), "N=%d: D B_0 != Delta^-1", N);

    /* the one-pass sums (mgen_sum hook) against sum_k delta_k B_k one by one */
    increments(&f, 1.0 / 64);
    acb_mat_zero(C);
    acb_mat_zero(XW);
    for (int k = 0; k <= s->M; k++) {
        arb_set_d(u, f.delta[k]);
        s->m_gen(s, k, B, X, PREC);
        acb_mat_scalar_addmul_arb(C, B, u, PREC);
        s->m_dgen(s, k, B, X, W, PREC);
        acb_mat_scalar_addmul_arb(XW, B, u, PREC);
    }
    slpi_ref_mat_gen_sum(s, B, f.delta, X, PREC);
    slpi_ref_mat_dgen_sum(s, dB, f.delta, X, W, PREC);
    TEST_CHECKF(acb_mat_overlaps(B, C) && acb_mat_overlaps(dB, XW),
                "N=%d noise=%d: generator sums differ from the sums of generators", N, (int)noise);

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
    teardown(&f);
    teardown(&g);
}

/* Run `steps` certified steps of scheme k from a random state; check the statuses,
 * the final radius (< 1e-30), and that the invariants keep[0..nkeep) are contained.
 * Returns the mean time per step. */
static double run_steps(int N, slpi_ez_noise noise, slpi_scheme_id scheme, int steps, double h, const int *keep,
                        int nkeep)
{
    fixture f;
    setup(&f, N, noise, scheme, 2.0, 1.0);
    arb_ptr inv0 = _arb_vec_init(f.s.n_inv), inv = _arb_vec_init(f.s.n_inv);
    f.s.invariants(&f.s, inv0, f.x, PREC);
    double t0 = now();
    int ok = 1;
    for (int st = 0; st < steps && ok; st++) {
        increments(&f, h);
        slpi_step_status r = step(&f, f.x);
        ok = r == SLPI_STEP_CONVERGED;
        TEST_CHECKF(ok, "%s N=%d step %d: %s (%s)", slpi_scheme_name(scheme), N, st, slpi_step_status_name(r), f.why);
    }
    double dt = (now() - t0) / steps;
    if (ok) {
        double r = slpi_ref_vec_radius(f.x, f.n);
        TEST_CHECKF(r < 1e-30, "%s N=%d: radius %g after %d steps", slpi_scheme_name(scheme), N, r, steps);
        f.s.invariants(&f.s, inv, f.x, PREC);
        for (int j = 0; j < nkeep; j++) {
            int i = keep[j];
            TEST_CHECKF(arb_overlaps(inv + i, inv0 + i) && arb_is_finite(inv + i),
                        "%s N=%d: invariant %s not contained after %d steps", slpi_scheme_name(scheme), N,
                        f.s.inv_name[i], steps);
        }
    }
    _arb_vec_clear(inv0, f.s.n_inv);
    _arb_vec_clear(inv, f.s.n_inv);
    teardown(&f);
    return dt;
}

/* ISOMP is symmetric: (-h, -dW) maps X_{n+1} back onto X_n; COMM and CAY agree. */
static void check_isomp_symmetric(int N)
{
    fixture f;
    setup(&f, N, SLPI_EZ_NOISE_Q, SLPI_SCHEME_ISOMP, 2.0, 1.0);
    arb_ptr x1 = _arb_vec_init(f.n), xc = _arb_vec_init(f.n);
    increments(&f, 1.0 / 16);
    _arb_vec_set(x1, f.x, f.n);
    TEST_CHECK(step(&f, x1) == SLPI_STEP_CONVERGED);
    f.p.sch.isomp_update = SLPI_ISO_UPDATE_CAY;
    _arb_vec_set(xc, f.x, f.n);
    TEST_CHECK(step(&f, xc) == SLPI_STEP_CONVERGED);
    TEST_CHECKF(states_overlap(&f, xc, x1), "N=%d: ISOMP COMM and CAY updates differ", N);
    f.p.sch.isomp_update = SLPI_ISO_UPDATE_COMM;
    for (int k = 0; k <= f.s.M; k++) f.delta[k] = -f.delta[k];
    TEST_CHECK(step(&f, x1) == SLPI_STEP_CONVERGED);
    TEST_CHECKF(states_overlap(&f, x1, f.x) && slpi_ref_vec_radius(x1, f.n) < 1e-30,
                "N=%d: ISOMP backward step does not return to X_n", N);
    _arb_vec_clear(x1, f.n);
    _arb_vec_clear(xc, f.n);
    teardown(&f);
}

/* A system certified on the BLAS route alone (blas_only: Euler-Zeitlin beyond the T_lm
 * tables as balls, N > 512, set here at N = 5): a step off the route (matmul=arb) is
 * UNABLE with the system's reason, never Arb's products; on the route (matmul=blas) it
 * is certified. */
static void check_blas_only(int N)
{
    fixture f;
    setup(&f, N, SLPI_EZ_NOISE_Q, SLPI_SCHEME_ISOMP, 2.0, 1.0);
    arb_ptr y = _arb_vec_init(f.n);
    increments(&f, 1.0 / 64);
    f.s.blas_only = "the test's limit";
    f.p.cert.matmul = SLPI_MATMUL_ARB;
    _arb_vec_set(y, f.x, f.n);
    slpi_step_status st = step(&f, y);
    TEST_CHECKF(st == SLPI_STEP_UNABLE && strstr(f.why, "off the BLAS route: the test's limit"),
                "blas_only, matmul=arb: status %d, reason \"%s\"", (int)st, f.why);
    f.p.cert.matmul = SLPI_MATMUL_BLAS;
    _arb_vec_set(y, f.x, f.n);
    st = step(&f, y);
    TEST_CHECKF(st == SLPI_STEP_CONVERGED, "blas_only, matmul=blas: status %d, reason \"%s\"", (int)st, f.why);
    f.s.blas_only = NULL;
    _arb_vec_clear(y, f.n);
    teardown(&f);
}

/* Parametric enclosure: from a state ball of radius 1e-8 the certified step contains
 * the certified steps from corner points of that ball. */
static void check_parametric(int N)
{
    fixture f;
    setup(&f, N, SLPI_EZ_NOISE_Q, SLPI_SCHEME_ISOMP, 2.0, 1.0);
    arb_ptr xw = _arb_vec_init(f.n), xp = _arb_vec_init(f.n);
    increments(&f, 1.0 / 16);
    _arb_vec_set(xw, f.x, f.n);
    for (int i = 0; i < f.n; i++) mag_set_d(arb_radref(xw + i), 1e-8);
    TEST_CHECK(step(&f, xw) == SLPI_STEP_CONVERGED);
    int bad = 0;
    for (int r = 0; r < 4; r++) {
        for (int i = 0; i < f.n; i++)
            arb_set_d(xp + i, arf_get_d(arb_midref(f.x + i), ARF_RND_NEAR) + (test_rand_u64() & 1 ? 1e-8 : -1e-8));
        TEST_CHECK(step(&f, xp) == SLPI_STEP_CONVERGED);
        for (int i = 0; i < f.n; i++) bad += !arb_contains(xw + i, xp + i);
    }
    TEST_CHECKF(bad == 0, "N=%d: wide-ball step misses %d corner-step entries", N, bad);
    _arb_vec_clear(xw, f.n);
    _arb_vec_clear(xp, f.n);
    teardown(&f);
}

/* slpi_ref_krawczyk_fixed_point (added for the N = 12 ISOMP cost) on an affine
 * contraction G(y) = a + B y with a wide parameter ball a: the enclosure must contain
 * the exact fixed points (I - B)^{-1} a_c for corner points a_c (arb_mat_solve). */
typedef struct {
    arb_mat_struct B;
    arb_srcptr a;
} affine_map;

static void affine_G(void *ctx, arb_ptr out, arb_srcptr y, slong prec)
{
    const affine_map *m = ctx;
    int n = arb_mat_nrows(&m->B);
    for (int i = 0; i < n; i++) arb_dot(out + i, m->a + i, 0, arb_mat_entry(&m->B, i, 0), 1, y, 1, n, prec);
}

static void affine_dG(void *ctx, arb_ptr out, arb_srcptr Y, arb_srcptr Z, slong prec)
{
    const affine_map *m = ctx;
    int n = arb_mat_nrows(&m->B);
    (void)Y;
    for (int i = 0; i < n; i++) arb_dot(out + i, NULL, 0, arb_mat_entry(&m->B, i, 0), 1, Z, 1, n, prec);
}

static void check_fixed_point_solver(void)
{
    enum { n = 3 };
    static const double Bv[n][n] = { { 0.2, -0.1, 0.05 }, { 0.1, 0.3, 0 }, { -0.05, 0.1, 0.25 } };
    static const double av[n] = { 1, -2, 0.5 };
    affine_map m;
    arb_ptr a = _arb_vec_init(n), y = _arb_vec_init(n);
    arb_mat_t IB, rhs, sol;
    char why[256] = "";
    arb_mat_init(&m.B, n, n);
    arb_mat_init(IB, n, n);
    arb_mat_init(rhs, n, 1);
    arb_mat_init(sol, n, 1);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            arb_set_d(arb_mat_entry(&m.B, i, j), Bv[i][j]);
            arb_set_d(arb_mat_entry(IB, i, j), (i == j) - Bv[i][j]);
        }
        arb_set_d(a + i, av[i]);
        mag_set_d(arb_radref(a + i), 1e-6);
    }
    m.a = a;
    slpi_ref_fixmap g = { n, &m, affine_G, affine_dG, NULL, 0, NULL, NULL, 0 };
    TEST_CHECKF(slpi_ref_krawczyk_fixed_point(y, &g, a, PREC, why, sizeof why), "affine fixed point not certified: %s",
                why);
    int bad = 0;
    for (int r = 0; r < 8; r++) {
        for (int i = 0; i < n; i++) arb_set_d(arb_mat_entry(rhs, i, 0), av[i] + ((r >> i) & 1 ? 1e-6 : -1e-6));
        TEST_CHECK(arb_mat_solve(sol, IB, rhs, PREC));
        for (int i = 0; i < n; i++) bad += !arb_contains(y + i, arb_mat_entry(sol, i, 0));
    }
    TEST_CHECKF(bad == 0, "affine fixed point: %d corner solutions outside the enclosure", bad);
    arb_mat_clear(&m.B);
    arb_mat_clear(IB);
    arb_mat_clear(rhs);
    arb_mat_clear(sol);
    _arb_vec_clear(a, n);
    _arb_vec_clear(y, n);
}

/* A step far too large to certify is UNABLE with a reason, not a crash or a guess. */
static void check_unable(int N)
{
    fixture f;
    setup(&f, N, SLPI_EZ_NOISE_Q, SLPI_SCHEME_ISOMP, 100.0, 50.0);
    increments(&f, 4.0);
    slpi_step_status r = step(&f, f.x);
    TEST_CHECKF(r == SLPI_STEP_UNABLE && f.why[0], "huge ISOMP step: %s (%s)", slpi_step_status_name(r), f.why);
    teardown(&f);
}

int main(void)
{
    test_start("t-ref-zeitlin-step", 20261122);
    check_generators(5, SLPI_EZ_NOISE_Q);
    check_generators(12, SLPI_EZ_NOISE_Q);
    check_generators(6, SLPI_EZ_NOISE_L);
    check_generators(4, SLPI_EZ_NOISE_NONE);
    for (int N = 2; N <= 20; N++) check_invariant_names(N);

    /* Casimirs: C2, C3, Tr X and the eigenvalues of iX */
    int cas[3 + 12];
    for (int i = 0; i < 3 + 12; i++) cas[i] = INV_C2 + i;
    double dt = run_steps(12, SLPI_EZ_NOISE_Q, SLPI_SCHEME_ISOMP, 1, 1.0 / 128, cas, 3 + 12);
    printf("t-ref-zeitlin-step: certified ISOMP step N=12 (Q), 128 bits: %.2f ms (goal <= 20 ms)\n", 1e3 * dt);
    dt = run_steps(6, SLPI_EZ_NOISE_Q, SLPI_SCHEME_ISOMP, 5, 1.0 / 64, cas, 3 + 6);
    printf("t-ref-zeitlin-step: certified ISOMP step N=6 (Q): %.2f ms\n", 1e3 * dt);
    check_isomp_symmetric(5);
    check_blas_only(5);
    check_parametric(5);
    check_fixed_point_solver();

    /* N = 3 under every applicable scheme: orbit-map schemes keep every Casimir, IM the
     * quadratic ones (C2, Tr X), TRAP none; without noise TMK and IM keep H0 too. */
    static const int im_keep[] = { INV_C2, INV_TRX }, det_keep[] = { INV_H0, INV_C2, INV_TRX };
    static const struct {
        slpi_scheme_id k;
        slpi_ez_noise noise;
        const int *keep;
        int nkeep;
    } pairs[] = {
        { SLPI_SCHEME_ISOMP, SLPI_EZ_NOISE_Q, NULL, 6 },
        { SLPI_SCHEME_TMK, SLPI_EZ_NOISE_Q, NULL, 6 },
        { SLPI_SCHEME_RKMK_HEUN, SLPI_EZ_NOISE_Q, NULL, 6 },
        { SLPI_SCHEME_RKMK_LE, SLPI_EZ_NOISE_L, NULL, 6 },
        { SLPI_SCHEME_RKMK_LE, SLPI_EZ_NOISE_Q, NULL, 6 }, /* consistent too (claim X4) */
        { SLPI_SCHEME_IM_DIRECT, SLPI_EZ_NOISE_Q, im_keep, 2 },
        { SLPI_SCHEME_TRAP_DIRECT, SLPI_EZ_NOISE_Q, NULL, 0 },
        { SLPI_SCHEME_SVI, SLPI_EZ_NOISE_Q, NULL, 6 },
        { SLPI_SCHEME_TMK, SLPI_EZ_NOISE_NONE, det_keep, 3 },
        { SLPI_SCHEME_IM_DIRECT, SLPI_EZ_NOISE_NONE, det_keep, 3 },
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const int *keep = pairs[i].keep ? pairs[i].keep : cas;
        dt = run_steps(3, pairs[i].noise, pairs[i].k, 2, 1.0 / 32, keep, pairs[i].nkeep);
        printf("t-ref-zeitlin-step: %s N=3 noise=%d: %.2f ms/step\n", slpi_scheme_name(pairs[i].k), (int)pairs[i].noise,
               1e3 * dt);
    }
    check_unable(5);
    flint_cleanup();
    TEST_END();
}
