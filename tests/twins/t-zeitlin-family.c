/* t-zeitlin-family.c — the Zeitlin family of euler-zeitlin (docs/systems.md#zeitlin-family):
 * the keys kappa, rotation, background_modes, noise=modes with noise_modes, on both paths.
 * Each quantity is computed two ways; the rules were fixed before the first run:
 *  1. the shifted Poisson solve P = (Delta_N - kappa^2)^{-1} (X - Tr X/N): applying the
 *     independent Laplacian to P gives X back, double path to a scale-free residual
 *     |Delta P - kappa^2 P - X'| / (N u max(|X|, (N^2 + kappa^2)|P|)) <= 10, certified path
 *     as balls that contain X' (random N, kappa, X);
 *  2. the built-in reading (L) restated as noise=modes (the modes (l, 0), (l, 1), (l, -1),
 *     ... of l = N/2..N-1 with amplitudes a_l = amp/(l(l+1)), amp the least common
 *     multiple of the l(l+1) so that every a_l is an integer, exact on both paths): one
 *     ISOMP step from the same state and increments; double path within the scale-free
 *     ratio |dy| / (N u max|y|) <= 10, certified balls intersecting;
 *  3. the l = 1 precession on the rotating sphere, a closed form: X = F + omega with
 *     omega of degree 1 precesses about F's axis at the rate f/((2 + kappa^2) n),
 *     f = 2 Omega sqrt(4 pi/3), n = sqrt(N(N^2 - 1)/12) (the l = 1 harmonics are the spin
 *     matrices over their Frobenius norm n): the double path's angle after T = 1 with
 *     h = 2^-6 within 1e-3 rad of it (ISOMP's phase error is about T (theta h)^2/12 = 2e-5);
 *     rotation=Omega equals background_modes=1:0:f bit for bit on the double path;
 *  4. F enters H0 as H0 = -1/2 <X - F, L^{-1}(X - F)>: at the default initial state
 *     X0 + F, H0 is the H0 of X0 without F (double path within 1e-13 relative, certified
 *     ball within 1e-13 relative of it); the certified initial state X0 + F within 1e-14
 *     of the double one;
 *  5. the whole family (kappa, rotation, background_modes, noise=modes) one step on
 *     both paths from one state, with every scheme the registry admits on euler-zeitlin,
 *     and TMK with fixed_iters=2 (its step then depends on the chord matrix, the
 *     generators' derivative with the background's constant dropped):
 *     the double step within 1e-12 of the scale of the certified ball's midpoint (the solver's tolerance; a model difference, a sign of
 *     F or a kappa^2 dropped, is of order h |F| = 1e-2).
 *  6. the keys written back: none of the family's in the built-in's text (its outputs and
 *     golden files unchanged), each of the family's, reading back to the same problem;
 *     noise_fields with its digest, and a file edited after it was read refused by
 *     slpi_problem_finish and by both paths' create ("the file changed");
 *  7. noise=fields: M (the file's fields) known as soon as the key is set, before
 *     slpi_problem_finish; restated as noise=modes: nf random fields xi_k (field k dense on the
 *     modes alpha = k mod nf, 0 elsewhere, 6-digit decimals, one text for both) in a file
 *     with comments, blank lines and commas, against the list of every (l, m, xi_k's
 *     nonzero coefficient), each mode once, with the increment of field k repeated on
 *     each of its entries (sum_k dW_k xi_k is then the same field):
 *     one ISOMP step on both paths, double within |dy| / (N u max|y|) <= 10, certified
 *     balls intersecting (a sign of B_k or a coefficient in the wrong slot moves y by
 *     about |dW| |xi| = 1e-4), and the double step within 1e-12 of the scale of the
 *     certified ball's midpoint (as 5); the fields shown at that state (slpi_fast_fields, `slpi
 *     model`): each xi_k and V_k of the nf >= 2 fields the sum of its restated modes' (xi
 *     within |d| / (N u max|xi_k|) <= 10, V within |d| / (N^2 u max|xi_k| max|x|) <= 10),
 *     xi_k inside the certified system's ball up to the same budget, the drift the same;
 *  8. a Rossby-Haurwitz wave (docs/systems.md#time-unit): X = F + Y^c_lm (degree l >= 2,
 *     order 1 <= m <= l) on the sphere rotating at Omega, no noise, is a wave whose
 *     (cos, sin) pair of (l, m) turns at m 2 Omega c_N / (l(l+1) + kappa^2) per unit of the
 *     model's time, c_N = sqrt(4 pi/3)/||J_z||_F: the textbook rate 2 Omega/(l(l+1)) per
 *     unit of sphere time t c_N. Omega chosen so that the pair turns 1 rad at T = 1
 *     (h = 2^-6): the double path's angle within 1e-3 rad of 1 in magnitude (ISOMP's phase
 *     error about T h^2/12 = 2e-5, as 3), F's coefficient within 1e-12 relative of f,
 *     every other coefficient within the angle's O(h^2) budget 1e-3 of 0, and so (||X||_F
 *     conserved) the pair's amplitude within (N^2 - 1) 1e-6 / 2 of 1 (ISOMP's sandwich
 *     terms, O(h^2) a step, leave degree l: the first rules, 1e-12 for both, ignored
 *     them; measured 4e-6 and 8e-12 at N = 7, l = 2, m = 1).
 * Sizes N = 3..8 (to 12 under SLPI_TEST_MULTIPLIER). */
#include <float.h>
#include "core/problem-struct.h"
#include "testutil.h"
#include "slpi.h"
#include "fast/sun.h"
#include "fast/zeitlin.h"
#include "ref/system.h"
#include "ref/zeitlin.h"
#include "zeitlinutil.h"

static long lcm(long a, long b)
{
    long x = a, y = b;
    while (y) {
        long t = x % y;
        x = y;
        y = t;
    }
    return a / x * b;
}

/* 1. The shifted Poisson solve on both paths. */
static void check_poisson(int N, double kappa)
{
    size_t NN = (size_t)N * N;
    double complex *X = malloc(NN * sizeof *X), *P = malloc(NN * sizeof *P), *L = malloc(NN * sizeof *L);
    for (int b = 0; b < N; b++)
        for (int a = 0; a <= b; a++) {
            double complex e =
                a == b ? I * test_rand_uniform(-1, 1) : CMPLX(test_rand_uniform(-1, 1), test_rand_uniform(-1, 1));
            X[a + (size_t)N * b] = e;
            X[b + (size_t)N * a] = -conj(e);
        }
    slpi_fast_zeitlin z;
    slpi_error err;
    TEST_CHECK(slpi_fast_zeitlin_init(&z, N, &err) == SLPI_OK);
    TEST_CHECK(slpi_fast_zeitlin_set_shift(&z, kappa * kappa) == SLPI_OK);
    TEST_CHECK(slpi_fast_zeitlin_set_shift(&z, -1.0) == SLPI_EINPUT && z.shift == kappa * kappa);
    slpi_fast_zeitlin_poisson(P, X, 1.0, &z);
    slpi_fast_zeitlin_laplacian(L, P, &z);
    double complex tr = 0;
    for (int a = 0; a < N; a++) tr += X[a * (size_t)(N + 1)];
    double res = 0, sx = 0, sp = 0;
    for (size_t i = 0; i < NN; i++) {
        double complex want = X[i] - (i % (size_t)(N + 1) == 0 ? tr / N : 0);
        res = fmax(res, cabs(L[i] - z.shift * P[i] - want));
        sx = fmax(sx, cabs(X[i]));
        sp = fmax(sp, cabs(P[i]));
    }
    double ratio = res / (N * U * fmax(sx, ((double)N * N + z.shift) * sp));
    TEST_CHECKF(ratio <= 10, "N=%d kappa=%g: double path (Delta - kappa^2) P - X' ratio %.3g > 10", N, kappa, ratio);

    slpi_ref_zeitlin r;
    TEST_CHECK(slpi_ref_zeitlin_init(&r, N, 128, &err) == SLPI_OK);
    arb_t sh;
    arb_init(sh);
    arb_set_d(sh, kappa);
    arb_sqr(sh, sh, 128);
    slpi_ref_zeitlin_set_shift(&r, sh, 128);
    acb_mat_t Xb, Pb, Lb;
    acb_mat_init(Xb, N, N);
    acb_mat_init(Pb, N, N);
    acb_mat_init(Lb, N, N);
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++)
            acb_set_d_d(acb_mat_entry(Xb, a, b), creal(X[a + (size_t)N * b]), cimag(X[a + (size_t)N * b]));
    slpi_ref_zeitlin_poisson(Pb, Xb, &r, 128);
    slpi_ref_zeitlin_laplacian(Lb, Pb, &r, 128);
    acb_t t, w;
    acb_init(t);
    acb_init(w);
    int bad = -1;
    for (int a = 0; a < N && bad < 0; a++)
        for (int b = 0; b < N && bad < 0; b++) {
            acb_mul_arb(t, acb_mat_entry(Pb, a, b), sh, 128);
            acb_sub(t, acb_mat_entry(Lb, a, b), t, 128);
            acb_set_d_d(w, creal(X[a + (size_t)N * b]), cimag(X[a + (size_t)N * b]));
            if (a == b) { /* X' = X - Tr X / N */
                acb_t m;
                acb_init(m);
                for (int c = 0; c < N; c++) /* the trace in balls: the double sum rounds */
                    acb_add(m, m, acb_mat_entry(Xb, c, c), 128);
                acb_div_ui(m, m, (ulong)N, 128);
                acb_sub(w, w, m, 128);
                acb_clear(m);
            }
            if (!acb_contains(t, w)) bad = a * N + b;
        }
    TEST_CHECKF(bad < 0, "N=%d kappa=%g: certified (Delta - kappa^2) P misses X' at entry %d", N, kappa, bad);
    acb_clear(t);
    acb_clear(w);
    acb_mat_clear(Xb);
    acb_mat_clear(Pb);
    acb_mat_clear(Lb);
    arb_clear(sh);
    slpi_ref_zeitlin_clear(&r);
    slpi_fast_zeitlin_clear(&z);
    free(X);
    free(P);
    free(L);
}

/* 2. Reading (L) restated as noise=modes. */
static void check_restated(int N)
{
    int lmin = N / 2;
    long amp = 1;
    for (int l = lmin; l < N; l++) amp = lcm(amp, (long)l * (l + 1));
    char builtin[64], modes[8192];
    snprintf(builtin, sizeof builtin, "noise=L amp=%ld", amp);
    int len = snprintf(modes, sizeof modes, "noise=modes noise_modes=");
    for (int l = lmin; l < N; l++)
        for (int j = 0; j <= 2 * l; j++) {
            int m = j == 0 ? 0 : j % 2 ? (j + 1) / 2 : -(j / 2);
            len += snprintf(modes + len, sizeof modes - (size_t)len, "%s%d:%d:%ld", l == lmin && j == 0 ? "" : ",", l,
                            m, amp / ((long)l * (l + 1)));
        }
    slpi_problem p1, p2;
    if (!make(&p1, N, builtin) || !make(&p2, N, modes)) {
        TEST_CHECKF(0, "N=%d: restated problems refused", N);
        return;
    }
    int n = slpi_problem_state_dim(&p1), M = slpi_problem_noise_count(&p1);
    TEST_CHECKF(M == slpi_problem_noise_count(&p2), "N=%d: M %d vs %d", N, M, slpi_problem_noise_count(&p2));
    double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n),
           *dW = malloc(sizeof(double) * (size_t)(M + 1));
    slpi_error err;
    TEST_CHECK(slpi_fast_problem_initial_state(&p1, x, &err) == SLPI_OK);
    for (int k = 0; k < M; k++) dW[k] = 1e-4 * gauss();
    arb_ptr b = _arb_vec_init(n);
    same_step(&p1, dW, &p2, dW, x, y, b, "reading L vs noise=modes");
    _arb_vec_clear(b, n);
    free(x);
    free(y);
    free(dW);
}

/* 3. The l = 1 precession about F's axis, and rotation = its background mode. */
static void check_precession(int N, double kappa)
{
    double nrm = sqrt(N * ((double)N * N - 1) / 12), s43 = 2.04665341589297697696;
    double Omega = (2 + kappa * kappa) * nrm / (2 * s43); /* rate 1: angle 1 at T = 1 */
    double f = 2 * Omega * s43;
    char e1[160], e2[160];
    snprintf(e1, sizeof e1, "noise=none ic_lmax=1 h=0.015625 steps=64 kappa=%.17g rotation=%.17g", kappa, Omega);
    snprintf(e2, sizeof e2, "noise=none ic_lmax=1 h=0.015625 steps=64 kappa=%.17g background_modes=1:0:%.17g", kappa,
             f);
    slpi_problem p1, p2;
    if (!make(&p1, N, e1) || !make(&p2, N, e2)) {
        TEST_CHECKF(0, "N=%d: precession problems refused", N);
        return;
    }
    int n = slpi_problem_state_dim(&p1);
    double *x0 = malloc(sizeof(double) * (size_t)n), *x = malloc(sizeof(double) * (size_t)n),
           *x2 = malloc(sizeof(double) * (size_t)n), dW[1] = { 0 };
    slpi_step_info info;
    slpi_fast *a = NULL, *b = NULL;
    slpi_error err;
    TEST_CHECK(slpi_fast_create(&a, &p1, &err) == SLPI_OK && slpi_fast_create(&b, &p2, &err) == SLPI_OK);
    if (a && b) {
        TEST_CHECK(slpi_fast_initial_state(a, x0, &err) == SLPI_OK && slpi_fast_initial_state(b, x2, &err) == SLPI_OK);
        memcpy(x, x0, sizeof(double) * (size_t)n);
        int same = memcmp(x, x2, sizeof(double) * (size_t)n) == 0;
        for (int k = 0; k < 64; k++) {
            TEST_CHECK(slpi_fast_step(a, x, dW, &info) == SLPI_STEP_CONVERGED);
            TEST_CHECK(slpi_fast_step(b, x2, dW, &info) == SLPI_STEP_CONVERGED);
        }
        same = same && memcmp(x, x2, sizeof(double) * (size_t)n) == 0;
        TEST_CHECKF(same, "N=%d: rotation=%g and background_modes=1:0:%.17g differ", N, Omega, f);
        /* omega's part off F's axis: the off-diagonal coordinates (after the N diagonal ones) */
        double dot = 0, n0 = 0, n1 = 0;
        for (int i = N; i < n; i++) {
            dot += x0[i] * x[i];
            n0 += x0[i] * x0[i];
            n1 += x[i] * x[i];
        }
        double ang = acos(fmax(-1, fmin(1, dot / sqrt(n0 * n1))));
        TEST_CHECKF(fabs(ang - 1.0) <= 1e-3 && fabs(n1 / n0 - 1) <= 1e-12,
                    "N=%d kappa=%g: precession angle %.9g (want 1 within 1e-3), |omega|^2 ratio %.17g", N, kappa, ang,
                    n1 / n0);
    }
    slpi_fast_free(a);
    slpi_fast_free(b);
    free(x0);
    free(x);
    free(x2);
}

/* 8. a Rossby-Haurwitz wave of degree l, order m on the rotating sphere */
static void check_rossby_haurwitz(int N, double kappa)
{
    int l = 2 + (int)test_rand_int(N - 2), m = 1 + (int)test_rand_int(l), dim = N * N - 1;
    double cN = 2.04665341589297697696 / sqrt(N * ((double)N * N - 1) / 12);
    double Omega = (l * (l + 1) + kappa * kappa) / (2 * m * cN), f = 2 * Omega * 2.04665341589297697696;
    char e[160];
    snprintf(e, sizeof e, "noise=none h=0.015625 steps=64 kappa=%.17g rotation=%.17g", kappa, Omega);
    slpi_problem p;
    slpi_fast *a = NULL;
    slpi_fast_zeitlin z;
    slpi_error err;
    if (!make(&p, N, e) || slpi_fast_create(&a, &p, &err) != SLPI_OK ||
        slpi_fast_zeitlin_init(&z, N, &err) != SLPI_OK) {
        TEST_CHECKF(0, "N=%d: the Rossby-Haurwitz problem refused", N);
        slpi_fast_free(a);
        return;
    }
    double *om = calloc((size_t)dim, sizeof *om), *x = malloc(sizeof(double) * (size_t)N * N), dW[1] = { 0 };
    double complex *X = malloc(sizeof *X * (size_t)N * N);
    int ac = slpi_fast_zeitlin_alpha(l, 2 * m - 1), as = ac + 1, a0 = slpi_fast_zeitlin_alpha(1, 0);
    om[a0] = f;
    om[ac] = 1;
    slpi_fast_zeitlin_synthesis(X, om, &z);
    slpi_fast_sun_pack(x, X, N);
    slpi_step_info info;
    for (int k = 0; k < 64; k++) TEST_CHECK(slpi_fast_step(a, x, dW, &info) == SLPI_STEP_CONVERGED);
    slpi_fast_sun_unpack(X, x, N);
    slpi_fast_zeitlin_analysis(om, X, &z);
    double ang = atan2(om[as], om[ac]), amp = hypot(om[as], om[ac]), rest = 0;
    for (int i = 0; i < dim; i++)
        if (i != ac && i != as && i != a0) rest = fmax(rest, fabs(om[i]));
    printf("  N=%d l=%d m=%d kappa=%g: Rossby-Haurwitz angle %.9f after T = 1 (want 1 in magnitude)\n", N, l, m, kappa,
           ang);
    TEST_CHECKF(fabs(fabs(ang) - 1) <= 1e-3 && fabs(amp - 1) <= dim * 1e-6 / 2 && rest <= 1e-3 &&
                    fabs(om[a0] / f - 1) <= 1e-12,
                "N=%d l=%d m=%d kappa=%g: angle %.9g (want 1 in magnitude within 1e-3), amplitude %.17g, others %.3g, "
                "F %.17g of %.17g",
                N, l, m, kappa, ang, amp, rest, om[a0], f);
    slpi_fast_zeitlin_clear(&z);
    slpi_fast_free(a);
    free(om);
    free(x);
    free(X);
}

/* 4 and 5. H0 with and without F; the whole family one step on both paths. */
static void check_family(int N)
{
    double kappa = test_rand_uniform(0, 4), Omega = test_rand_uniform(-3, 3);
    int l2, m2;
    do { /* a mode the lists below do not already hold (each mode once) */
        l2 = 1 + (int)test_rand_int(N - 1);
        m2 = (int)test_rand_int(2 * l2 + 1) - l2;
    } while ((l2 == 1 && (m2 == 0 || m2 == 1)) || (l2 == N - 1 && m2 == -(N - 1)));
    char fam[512], plain[128];
    snprintf(plain, sizeof plain, "noise=none kappa=%.17g", kappa);
    snprintf(
        fam, sizeof fam,
        "kappa=%.17g rotation=%.17g background_modes=%d:%d:0.3,1:1:-0.2 noise=modes noise_modes=1:0:0.1,%d:%d:0.05,%d:%d:-0.07",
        kappa, Omega, l2, m2, N - 1, -(N - 1), l2, m2);
    slpi_problem pf, pp;
    if (!make(&pf, N, fam) || !make(&pp, N, plain)) {
        TEST_CHECKF(0, "N=%d: family problems refused", N);
        return;
    }
    int n = slpi_problem_state_dim(&pf), M = slpi_problem_noise_count(&pf);
    TEST_CHECKF(M == 3, "N=%d: noise_modes of 3 entries gives M = %d", N, M);
    double *xf = malloc(sizeof(double) * (size_t)n), *xp = malloc(sizeof(double) * (size_t)n),
           *y = malloc(sizeof(double) * (size_t)n), dW[4];
    slpi_error err;
    TEST_CHECK(slpi_fast_problem_initial_state(&pf, xf, &err) == SLPI_OK);
    TEST_CHECK(slpi_fast_problem_initial_state(&pp, xp, &err) == SLPI_OK);
    /* 4: H0 at X0 + F is H0 at X0 */
    slpi_fast *a = NULL, *b = NULL;
    slpi_ref *r = NULL;
    if (slpi_fast_create(&a, &pf, &err) == SLPI_OK && slpi_fast_create(&b, &pp, &err) == SLPI_OK &&
        slpi_ref_create(&r, &pf, &err) == SLPI_OK) {
        slpi_diag da = { 0 }, db = { 0 };
        slpi_fast_diagnostics(a, xf, NULL, &da);
        slpi_fast_diagnostics(b, xp, NULL, &db);
        double ha = diag_value(&da, "H0"), hb = diag_value(&db, "H0");
        TEST_CHECKF(fabs(ha - hb) <= 1e-13 * fabs(hb), "N=%d: H0 with F %.17g, without %.17g", N, ha, hb);
        arb_ptr xb = _arb_vec_init(n);
        for (int i = 0; i < n; i++) arb_set_d(xb + i, xf[i]);
        arb_t hball;
        arb_init(hball);
        ref_diag_value(hball, r, xb, "H0");
        double hr = arf_get_d(arb_midref(hball), ARF_RND_NEAR);
        TEST_CHECKF(fabs(hr - hb) <= 1e-13 * fabs(hb), "N=%d: certified H0 with F %.17g, without %.17g", N, hr, hb);
        arb_clear(hball);
        _arb_vec_clear(xb, n);
    } else {
        TEST_CHECKF(0, "N=%d: create: %s", N, err.msg);
    }
    slpi_fast_free(a);
    slpi_fast_free(b);
    slpi_ref_free(r);
    /* the certified initial state (its own basis) holds the double one within 1e-14 */
    arb_ptr yb = _arb_vec_init(n);
    slpi_ref *r0 = NULL;
    if (slpi_ref_create(&r0, &pf, &err) == SLPI_OK && slpi_ref_initial_state(r0, yb, &err) == SLPI_OK) {
        double d = 0, s = 0;
        for (int i = 0; i < n; i++) {
            d = fmax(d, fabs(xf[i] - arf_get_d(arb_midref(yb + i), ARF_RND_NEAR)));
            s = fmax(s, fabs(xf[i]));
        }
        TEST_CHECKF(d <= 1e-14 * s, "N=%d: certified initial state %.3g from the double one (scale %.3g)", N, d, s);
    } else {
        TEST_CHECKF(0, "N=%d: certified initial state: %s", N, err.msg);
    }
    slpi_ref_free(r0);
    /* 5: one step of the family on both paths, every scheme the registry admits; and TMK
     * with fixed_iters=2, whose two chord steps make the step depend on the chord matrix
     * (the generators' derivative), not on its fixed point alone */
    for (int k = 0; k < M; k++) dW[k] = sqrt(pf.grid.h) * gauss();
    char fixed[600];
    snprintf(fixed, sizeof fixed, "%s fixed_iters=2", fam);
    for (int v = 0; v < SLPI_SCHEME_COUNT + 1; v++) {
        slpi_scheme_id sc = v < SLPI_SCHEME_COUNT ? (slpi_scheme_id)v : SLPI_SCHEME_TMK;
        const char *keys = v < SLPI_SCHEME_COUNT ? fam : fixed, *what = v < SLPI_SCHEME_COUNT ? "" : " fixed_iters=2";
        slpi_problem ps;
        if (slpi_registry_pair(SLPI_SYS_EULER_ZEITLIN, sc, NULL) == SLPI_NA) continue;
        if (!make_scheme(&ps, sc, N, keys)) {
            TEST_CHECKF(0, "N=%d %s%s: family refused", N, slpi_scheme_name(sc), what);
            continue;
        }
        int ok = step_both(&ps, xf, dW, y, yb);
        TEST_CHECKF(ok, "N=%d %s%s: family step failed", N, slpi_scheme_name(sc), what);
        TEST_CHECKF(!ok || mid_gap(y, yb, n) <= 1e-12, "N=%d %s%s: family step: double vs certified, %.3g of the scale",
                    N, slpi_scheme_name(sc), what, mid_gap(y, yb, n));
    }
    _arb_vec_clear(yb, n);
    free(xf);
    free(xp);
    free(y);
}

/* 6. The problem written back as keys: the built-in's text names no key of the family (the
 * outputs and golden files of the built-in stay as they were); the family's names each and
 * reads back to the same problem. */
static void check_write(void)
{
    static char text[65536];
    slpi_problem p, q;
    slpi_error err;
    if (!make(&p, 4, NULL)) return;
    TEST_CHECK(slpi_problem_text(&p, text, sizeof text) > 0);
    TEST_CHECKF(!strstr(text, "kappa=") && !strstr(text, "rotation=") && !strstr(text, "_modes="),
                "the built-in's keys name the family: %.400s", text);
    if (!make(&p, 4, "kappa=1.5 rotation=-0.25 background_modes=2:1:0.5 noise=modes noise_modes=1:0:0.1,3:-2:0.2"))
        return;
    TEST_CHECK(slpi_problem_text(&p, text, sizeof text) > 0);
    TEST_CHECKF(strstr(text, "kappa=1.5\n") && strstr(text, "rotation=-0.25\n") &&
                    strstr(text, "background_modes=2:1:0.5\n") && strstr(text, "noise=modes\n") &&
                    strstr(text, "noise_modes=1:0:0.1,3:-2:0.2\n"),
                "the family's keys not written: %.400s", text);
    slpi_problem_init(&q, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_TMK);
    const char *path = test_temp_file(text);
    TEST_CHECKF(slpi_problem_load(&q, path, &err) == SLPI_OK, "written keys do not load: %s", err.msg);
    TEST_CHECK(q.sys.ez.kappa == p.sys.ez.kappa && q.sys.ez.rotation == p.sys.ez.rotation &&
               q.sys.ez.noise == p.sys.ez.noise && !strcmp(q.sys.ez.noise_modes, p.sys.ez.noise_modes) &&
               !strcmp(q.sys.ez.background_modes, p.sys.ez.background_modes));
    /* noise_fields: the path and the digest written; an edited file refused */
    char keys[SLPI_PATH_MAX + 64], want[SLPI_PATH_MAX + 64];
    const char *xi = test_temp_file("1 2 3\n");
    snprintf(keys, sizeof keys, "noise=fields noise_fields=%s", xi);
    if (!make(&p, 2, keys)) return;
    TEST_CHECK(slpi_problem_text(&p, text, sizeof text) > 0);
    snprintf(want, sizeof want, "noise_fields=%s\nnoise_fields_digest=%llu\n", xi,
             (unsigned long long)p.sys.ez.noise_fields_digest);
    TEST_CHECKF(p.sys.ez.n_fields == 1 && p.sys.ez.noise_fields_digest != 0 && strstr(text, want),
                "noise_fields not written: %.600s", text);
    slpi_problem_init(&q, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_TMK);
    path = test_temp_file(text);
    TEST_CHECKF(slpi_problem_load(&q, path, &err) == SLPI_OK && slpi_problem_finish(&q, &err) == SLPI_OK,
                "written noise_fields keys do not load: %s", err.msg);
    FILE *f = fopen(xi, "a");
    fputs("# edited\n", f);
    fclose(f);
    slpi_fast *fa = NULL;
    slpi_ref *r = NULL;
    TEST_CHECKF(slpi_problem_finish(&q, &err) == SLPI_EINPUT && strstr(err.msg, "the file changed"),
                "an edited noise_fields file accepted: %s", err.msg);
    TEST_CHECKF(slpi_fast_create(&fa, &p, &err) == SLPI_EINPUT && strstr(err.msg, "the file changed"),
                "the double path takes an edited noise_fields file: %s", err.msg);
    TEST_CHECKF(slpi_ref_create(&r, &p, &err) == SLPI_EINPUT && strstr(err.msg, "the file changed"),
                "the certified path takes an edited noise_fields file: %s", err.msg);
    slpi_fast_free(fa);
    slpi_ref_free(r);
}

/* The entries of field k (of nf) in fields_text's list: the modes alpha = k mod nf, after
 * the entries of the fields before it (*first, 0-based); returns their count. */
static int field_entries(int n, int nf, int k, int *first)
{
    *first = 0;
    for (int i = 0; i < k; i++) *first += (n - i + nf - 1) / nf;
    return (n - k + nf - 1) / nf;
}

/* The text of nf random fields (6-digit decimals) as a noise_fields file and as a noise_modes
 * list. Field k is dense on the modes alpha = k mod nf and 0 on the others (a list names
 * each mode once, so the fields share none); the list holds each field's nonzero modes,
 * field after field (field_entries). */
static void fields_text(int N, int nf, char *file, size_t nfile, char *modes, size_t nmodes)
{
    size_t lf = (size_t)snprintf(file, nfile, "# %d fields of su(%d)\n\n", nf, N);
    size_t lm = (size_t)snprintf(modes, nmodes, "noise=modes noise_modes="), lm0 = lm;
    for (int k = 0; k < nf; k++) {
        for (int l = 1; l < N; l++)
            for (int j = 0; j <= 2 * l; j++) {
                char v[32];
                int m = j == 0 ? 0 : j % 2 ? (j + 1) / 2 : -(j / 2), alpha = l * l - 1 + j;
                snprintf(v, sizeof v, "%.6g", alpha % nf == k ? 0.5 * gauss() : 0.0);
                lf += (size_t)snprintf(file + lf, nfile - lf, "%s%s", l == 1 && j == 0 ? "" : j % 3 ? " " : ", ", v);
                if (alpha % nf == k)
                    lm += (size_t)snprintf(modes + lm, nmodes - lm, "%s%d:%d:%s", lm > lm0 ? "," : "", l, m, v);
            }
        lf += (size_t)snprintf(file + lf, nfile - lf, "   # xi_%d\n", k + 1);
    }
}

/* 7, the fields shown (slpi_fast_fields, `slpi model`): at x, xi_k and V_k of p1's nf
 * fields against the sums of p2's restated modes over each field's entries (xi within
 * |d| / (N u max|xi_k|) <= 10, V within |d| / (N^2 u max|xi_k| max|x|) <= 10, a commutator's
 * rounding), the drift k = 0 bit for bit; and xi_k inside the certified system's ball of
 * p1 at the point x (its coordinates are of B_k = -xi_k, ref/system.h), up to the same budget. */
static void fields_shown(const slpi_problem *p1, const slpi_problem *p2, int nf, const double *x)
{
    int dim = slpi_problem_state_dim(p1), N = p1->sys.ez.N, n = N * N - 1;
    double *f1 = malloc(sizeof(double) * 2 * (size_t)(nf + 1) * dim),
           *f2 = malloc(sizeof(double) * 2 * (size_t)(n + 1) * dim);
    double *V1 = f1 + (size_t)(nf + 1) * dim, *V2 = f2 + (size_t)(n + 1) * dim;
    slpi_fast *a = NULL, *b = NULL;
    slpi_ref_system s;
    slpi_error err;
    int ok = slpi_fast_create(&a, p1, &err) == SLPI_OK && slpi_fast_create(&b, p2, &err) == SLPI_OK &&
        slpi_ref_system_init(&s, p1, NULL, &err) == SLPI_OK,
        sys = ok;
    TEST_CHECKF(ok, "N=%d: fields: create: %s", N, err.msg);
    ok = ok && slpi_fast_fields(a, f1, V1, x) == dim && slpi_fast_fields(b, f2, V2, x) == dim;
    if (ok) {
        TEST_CHECKF(memcmp(f1, f2, sizeof(double) * dim) == 0 && memcmp(V1, V2, sizeof(double) * dim) == 0,
                    "N=%d: the drift field differs between noise=fields and noise=modes", N);
        arb_ptr mu = _arb_vec_init(s.state_dim), g = _arb_vec_init(dim);
        double xs = 0;
        for (int i = 0; i < dim; i++) {
            arb_set_d(mu + i, x[i]);
            xs = fmax(xs, fabs(x[i]));
        }
        for (int k = 1; k <= nf; k++) {
            double dx = 0, dv = 0, dr = 0, sx = 0;
            const double *xi = f1 + (size_t)k * dim, *v = V1 + (size_t)k * dim;
            int first, count = field_entries(n, nf, k - 1, &first);
            s.gen(&s, k, g, mu, 128);
            for (int i = 0; i < dim; i++) {
                double sxi = 0, sv = 0;
                for (int j = first + 1; j <= first + count; j++) {
                    sxi += f2[(size_t)j * dim + i];
                    sv += V2[(size_t)j * dim + i];
                }
                dx = fmax(dx, fabs(xi[i] - sxi));
                dv = fmax(dv, fabs(v[i] - sv));
                sx = fmax(sx, fabs(xi[i]));
                dr = fmax(dr, fabs(xi[i] + arf_get_d(arb_midref(g + i), ARF_RND_NEAR)) - mag_get_d(arb_radref(g + i)));
            }
            TEST_CHECKF(sx > 0 && dx / (N * U * sx) <= 10,
                        "N=%d: xi_%d of %d fields: ratio %.3g to the restated modes' (> 10)", N, k, nf,
                        dx / (N * U * sx));
            TEST_CHECKF(dv / ((double)N * N * U * sx * xs) <= 10,
                        "N=%d: V_%d of %d fields: ratio %.3g to the restated modes' (> 10)", N, k, nf,
                        dv / ((double)N * N * U * sx * xs));
            TEST_CHECKF(dr / (N * U * sx) <= 10,
                        "N=%d: xi_%d of %d fields: %.3g outside the certified ball (ratio > 10)", N, k, nf, dr);
        }
        _arb_vec_clear(mu, s.state_dim);
        _arb_vec_clear(g, dim);
    }
    if (sys) slpi_ref_system_clear(&s);
    slpi_fast_free(a);
    slpi_fast_free(b);
    free(f1);
    free(f2);
}

/* 7. noise=fields restated as noise=modes. */
static void check_fields(int N)
{
    int n = N * N - 1, nf = N <= 8 ? 2 : 1;
    static char file[65536], modes[SLPI_EZ_MODES_TEXT + 64], keys[SLPI_PATH_MAX + 64];
    fields_text(N, nf, file, sizeof file, modes, sizeof modes);
    const char *path = test_temp_file(file);
    snprintf(keys, sizeof keys, "noise=fields noise_fields=%s", path);
    slpi_problem p1, p2;
    if (!make(&p1, N, keys) || !make(&p2, N, modes)) {
        TEST_CHECKF(0, "N=%d: noise=fields problems refused", N);
        test_temp_remove(path);
        return;
    }
    /* M is the file's count as soon as the key is set: a problem's shape before
     * slpi_problem_finish (a convergence study lays out its increments so) */
    slpi_problem q;
    slpi_error e;
    slpi_problem_init(&q, SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP);
    TEST_CHECKF(slpi_problem_set(&q, "noise", "fields", &e) == SLPI_OK &&
                    slpi_problem_set(&q, "noise_fields", path, &e) == SLPI_OK && slpi_problem_noise_count(&q) == nf,
                "N=%d: M %d before finish, want %d", N, slpi_problem_noise_count(&q), nf);
    TEST_CHECKF(slpi_problem_noise_count(&p1) == nf && slpi_problem_noise_count(&p2) == n,
                "N=%d: M %d and %d, want %d and %d", N, slpi_problem_noise_count(&p1), slpi_problem_noise_count(&p2),
                nf, n);
    int dim = slpi_problem_state_dim(&p1);
    double *x = malloc(sizeof(double) * (size_t)dim), *y = malloc(sizeof(double) * (size_t)dim),
           *dW1 = malloc(sizeof(double) * (size_t)nf), *dW2 = malloc(sizeof(double) * (size_t)n);
    slpi_error err;
    TEST_CHECK(slpi_fast_problem_initial_state(&p1, x, &err) == SLPI_OK);
    for (int k = 0; k < nf; k++) {
        int first, count = field_entries(n, nf, k, &first);
        dW1[k] = 1e-4 * gauss();
        for (int i = 0; i < count; i++) dW2[first + i] = dW1[k];
    }
    arb_ptr b = _arb_vec_init(dim);
    if (same_step(&p1, dW1, &p2, dW2, x, y, b, "noise=fields vs noise=modes"))
        TEST_CHECKF(mid_gap(y, b, dim) <= 1e-12, "N=%d: %d fields' step: double vs certified, %.3g of the scale", N, nf,
                    mid_gap(y, b, dim));
    fields_shown(&p1, &p2, nf, x);
    _arb_vec_clear(b, dim);
    free(x);
    free(y);
    free(dW1);
    free(dW2);
    test_temp_remove(path);
}

int main(void)
{
    test_start("t-zeitlin-family", 0x2e17f40ULL);
    long iters = test_iters(2);
    int nmax = test_iters(1) > 1 ? 12 : 8;
    for (long it = 0; it < iters; it++) {
        int N = 3 + (int)test_rand_int(nmax - 2);
        check_poisson(N, it == 0 ? 0.0 : test_rand_uniform(0, 5));
        check_poisson(N, test_rand_uniform(0.01, 5));
        check_restated(N);
        check_precession(N, it == 0 ? 0.0 : test_rand_uniform(0, 3));
        check_rossby_haurwitz(N, it == 0 ? 0.0 : test_rand_uniform(0, 3));
        check_family(N);
        check_fields(N);
    }
    check_fields(2);
    check_restated(2);
    check_family(3);
    check_write();
    TEST_END();
}
