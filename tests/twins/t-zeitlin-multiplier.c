/* t-zeitlin-multiplier.c — the Zeitlin family's general Poisson operator L given by its
 * spectral multiplier lambda(l) (key multiplier, docs/systems.md#zeitlin-family), on both
 * paths. Each quantity is computed two ways; the rules were fixed before the first run:
 *  1. multiplier=-l*(l+1)-k2 is kappa=sqrt(k2) (k a multiple of 1/8, so k2 is exact), with
 *     rotation, a background mode and noise=modes: one ISOMP step from one state and
 *     increments, double within |dy| / (N u max|y|) <= 10 of the kappa route (the modal
 *     pass against the tridiagonal solves), certified balls intersecting; the kappa
 *     route's double step within 1e-12 of the scale of its certified ball's midpoint (the
 *     solver's tolerance, as t-zeitlin-family's 5); H0 at the
 *     state, double within 10 N u relative, certified balls intersecting; the certified
 *     path with Arb's products (N < 32) and once on the BLAS route (matmul=blas); k = 1
 *     (the shift kappa^2 = 1, a definite solve as every k > 0) in the first iteration, at
 *     N = 2 and on the BLAS route, random k elsewhere;
 *  2. a multiplier that is a polynomial in Delta_N, lambda = -(l(l+1))^2 - 3 l(l+1), i.e.
 *     L = -Delta^2 + 3 Delta: B_0 = L^{-1} X of a random skew-Hermitian X (with a trace)
 *     against the independent per-diagonal Laplacian applied twice, -Delta(Delta B_0) +
 *     3 Delta B_0 = X - Tr X / N: double within |r| / (N u max(|X|, lambda_max |B_0|))
 *     <= 10, certified balls containing X - Tr X / N;
 *  3. a multiplier that is not a polynomial, lambda = -l(l+1) exp(1/l): H0 at a random
 *     state against -1/2 sum_alpha omega_alpha^2 / lambda(l) from the test's own analysis
 *     and C's exp: double and the certified ball's midpoint within 1e-12 relative;
 *  4. the rotating sphere's QG model of models/qg-128.slpi (rotation = 200, its eight noise
 *     modes, its initial state and h) at N = 24 (Arb's products) and 32 (the BLAS route under
 *     matmul=auto), prec_max = 128: one step from the initial state through
 *     multiplier=-l*(l+1)-4 is certified at 128 bits (no raise) and agrees with kappa=2 as
 *     1. (double within 10 N u, balls intersecting);
 *  5. refusals: a multiplier 0 at l = 2 on both paths (exit 2 naming l, one text), a ball
 *     containing 0 on the certified path (sin(pi l)), a domain error (log(l - 1) at l = 1,
 *     one text), a coordinate, with kappa.
 * Sizes N = 3..8 (to 12 under SLPI_TEST_MULTIPLIER). */
#include "core/problem-struct.h"
#include "zeitlinutil.h"
#include "fast/system.h"
#include "fast/sun.h"
#include "fast/zeitlin.h"
#include "ref/system.h"
#include "ref/zeitlin.h"

slpi_fast_system_ctor slpi_fast_sys_euler_zeitlin; /* fast/euler-zeitlin.c */
slpi_ref_system_ctor slpi_ref_sys_euler_zeitlin;   /* ref/euler-zeitlin.c */

typedef double complex cplx;

/* 1. The shifted Laplacian as a multiplier is kappa's route. */
static void check_kappa(int N, double k, const char *route)
{
    int l2 = 1 + (int)test_rand_int(N - 1);
    char common[256], ka[320], mu[320];
    snprintf(common, sizeof common,
             "%s rotation=%.17g background_modes=%d:0:0.3 noise=modes noise_modes=1:0:0.1,%d:1:0.05", route,
             test_rand_uniform(-3, 3), l2, N - 1);
    snprintf(ka, sizeof ka, "%s kappa=%.17g", common, k);
    snprintf(mu, sizeof mu, "%s multiplier=-l*(l+1)-%.17g", common, k * k);
    slpi_problem pk, pm;
    if (!make(&pk, N, ka) || !make(&pm, N, mu)) {
        TEST_CHECKF(0, "N=%d: kappa problems refused", N);
        return;
    }
    int n = slpi_problem_state_dim(&pk), M = slpi_problem_noise_count(&pk);
    double *x = malloc(sizeof(double) * (size_t)n), *y1 = malloc(sizeof(double) * (size_t)n), dW[2];
    slpi_error err;
    char what[64];
    TEST_CHECK(M == 2 && slpi_fast_problem_initial_state(&pk, x, &err) == SLPI_OK);
    for (int i = 0; i < M; i++) dW[i] = 0.1 * gauss();
    arb_ptr b1 = _arb_vec_init(n);
    snprintf(what, sizeof what, "k=%g: multiplier vs kappa", k);
    int ok = same_step(&pk, dW, &pm, dW, x, y1, b1, what);
    TEST_CHECKF(!ok || mid_gap(y1, b1, n) <= 1e-12, "N=%d k=%g %s: kappa step: double vs certified, %.3g of the scale",
                N, k, route, mid_gap(y1, b1, n));
    /* H0 at the stepped state */
    slpi_fast *fk = NULL, *fm = NULL;
    slpi_ref *rk = NULL, *rm = NULL;
    if (ok && slpi_fast_create(&fk, &pk, &err) == SLPI_OK && slpi_fast_create(&fm, &pm, &err) == SLPI_OK &&
        slpi_ref_create(&rk, &pk, &err) == SLPI_OK && slpi_ref_create(&rm, &pm, &err) == SLPI_OK) {
        slpi_diag dk = { 0 }, dm = { 0 };
        slpi_fast_diagnostics(fk, y1, NULL, &dk);
        slpi_fast_diagnostics(fm, y1, NULL, &dm);
        double hk = diag_value(&dk, "H0"), hm = diag_value(&dm, "H0");
        TEST_CHECKF(fabs(hk - hm) <= 10 * N * U * fabs(hk), "N=%d k=%g: H0 %.17g (kappa) vs %.17g (multiplier)", N, k,
                    hk, hm);
        arb_t h1, h2;
        arb_init(h1);
        arb_init(h2);
        ref_diag_value(h1, rk, b1, "H0");
        ref_diag_value(h2, rm, b1, "H0");
        TEST_CHECKF(arb_is_finite(h1) && arb_overlaps(h1, h2), "N=%d k=%g: certified H0 balls apart", N, k);
        arb_clear(h1);
        arb_clear(h2);
    } else if (ok) {
        TEST_CHECKF(0, "N=%d: create: %s", N, err.msg);
    }
    slpi_fast_free(fk);
    slpi_fast_free(fm);
    slpi_ref_free(rk);
    slpi_ref_free(rm);
    _arb_vec_clear(b1, n);
    free(x);
    free(y1);
}

/* 4. The rotating QG model through its multiplier, certified at 128 bits on the BLAS route. */
static void check_rotating(int N)
{
    const char *common = "rotation=200 noise=modes prec_max=128 ic_lmax=4 h=0.015625 "
                         "noise_modes=1:0:0.05,1:1:0.05,2:0:0.03,2:1:0.03,2:-2:0.03,3:1:0.02,3:-2:0.02,4:3:0.01";
    char ka[320], mu[320];
    snprintf(ka, sizeof ka, "%s kappa=2", common);
    snprintf(mu, sizeof mu, "%s multiplier=-l*(l+1)-4", common);
    slpi_problem pk, pm;
    if (!make(&pk, N, ka) || !make(&pm, N, mu)) {
        TEST_CHECKF(0, "N=%d: QG problems refused", N);
        return;
    }
    int n = slpi_problem_state_dim(&pk), M = slpi_problem_noise_count(&pk);
    double *x = malloc(sizeof(double) * (size_t)n), *y1 = malloc(sizeof(double) * (size_t)n), dW[8];
    slpi_error err;
    TEST_CHECK(M == 8 && slpi_fast_problem_initial_state(&pm, x, &err) == SLPI_OK);
    for (int i = 0; i < M; i++) dW[i] = 0.125 * gauss(); /* sqrt(h) of qg-128 */
    arb_ptr b1 = _arb_vec_init(n);
    same_step(&pm, dW, &pk, dW, x, y1, b1, "rotating QG: multiplier vs kappa at 128 bits");
    _arb_vec_clear(b1, n);
    free(x);
    free(y1);
}

/* 2. L = -Delta^2 + 3 Delta through its multiplier, against the Laplacian applied twice. */
static void check_polynomial(int N)
{
    slpi_problem p;
    if (!make(&p, N, "noise=none multiplier=-(l*(l+1))^2-3*l*(l+1)")) {
        TEST_CHECKF(0, "N=%d: polynomial multiplier refused", N);
        return;
    }
    size_t NN = (size_t)N * N;
    cplx *X = malloc(NN * sizeof *X), *P = malloc(NN * sizeof *P), *L1 = malloc(NN * sizeof *L1),
         *L2 = malloc(NN * sizeof *L2);
    cplx tr = 0;
    for (int b = 0; b < N; b++)
        for (int a = 0; a <= b; a++) {
            cplx e = a == b ? I * test_rand_uniform(-1, 1) : CMPLX(test_rand_uniform(-1, 1), test_rand_uniform(-1, 1));
            X[a + (size_t)N * b] = e;
            X[b + (size_t)N * a] = -conj(e);
        }
    for (int a = 0; a < N; a++) tr += X[a * (size_t)(N + 1)];
    double lmax = pow((double)N * (N - 1), 2) + 3.0 * N * (N - 1), delta[1] = { 1.0 };
    slpi_fast_system s;
    slpi_fast_zeitlin z;
    slpi_error err;
    memset(&s, 0, sizeof s);
    TEST_CHECK(slpi_fast_zeitlin_init(&z, N, &err) == SLPI_OK);
    if (slpi_fast_sys_euler_zeitlin(&s, &p, &err) == SLPI_OK) {
        s.m_gen_sum(&s, (double *)P, delta, (const double *)X);
        slpi_fast_zeitlin_laplacian(L1, P, &z);
        slpi_fast_zeitlin_laplacian(L2, L1, &z);
        double res = 0, sx = 0, sp = 0;
        for (size_t i = 0; i < NN; i++) {
            cplx want = X[i] - (i % (size_t)(N + 1) == 0 ? tr / N : 0);
            res = fmax(res, cabs(-L2[i] + 3 * L1[i] - want));
            sx = fmax(sx, cabs(X[i]));
            sp = fmax(sp, cabs(P[i]));
        }
        double ratio = res / (N * U * fmax(sx, lmax * sp));
        TEST_CHECKF(ratio <= 10, "N=%d: double path (-Delta^2 + 3 Delta) B_0 - X' ratio %.3g > 10", N, ratio);
        s.clear(&s);
    } else {
        TEST_CHECKF(0, "N=%d: double path: %s", N, err.msg);
    }
    slpi_ref_system r;
    slpi_ref_zeitlin rz;
    memset(&r, 0, sizeof r);
    TEST_CHECK(slpi_ref_zeitlin_init(&rz, N, 128, &err) == SLPI_OK);
    if (slpi_ref_sys_euler_zeitlin(&r, &p, &err) == SLPI_OK) {
        acb_mat_t Xb, Pb, A, B;
        acb_mat_init(Xb, N, N);
        acb_mat_init(Pb, N, N);
        acb_mat_init(A, N, N);
        acb_mat_init(B, N, N);
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++)
                acb_set_d_d(acb_mat_entry(Xb, a, b), creal(X[a + (size_t)N * b]), cimag(X[a + (size_t)N * b]));
        r.m_gen(&r, 0, Pb, Xb, 128);
        slpi_ref_zeitlin_laplacian(A, Pb, &rz, 128);
        slpi_ref_zeitlin_laplacian(B, A, &rz, 128);
        acb_t t, w, m;
        acb_init(t);
        acb_init(w);
        acb_init(m);
        for (int c = 0; c < N; c++) acb_add(m, m, acb_mat_entry(Xb, c, c), 128);
        acb_div_ui(m, m, (ulong)N, 128);
        int bad = -1;
        for (int a = 0; a < N && bad < 0; a++)
            for (int b = 0; b < N && bad < 0; b++) {
                acb_mul_ui(t, acb_mat_entry(A, a, b), 3, 128);
                acb_sub(t, t, acb_mat_entry(B, a, b), 128);
                acb_set(w, acb_mat_entry(Xb, a, b));
                if (a == b) acb_sub(w, w, m, 128);
                if (!acb_contains(t, w)) bad = a * N + b;
            }
        TEST_CHECKF(bad < 0, "N=%d: certified (-Delta^2 + 3 Delta) B_0 misses X' at entry %d", N, bad);
        acb_clear(t);
        acb_clear(w);
        acb_clear(m);
        acb_mat_clear(Xb);
        acb_mat_clear(Pb);
        acb_mat_clear(A);
        acb_mat_clear(B);
        slpi_ref_system_clear(&r);
    } else {
        TEST_CHECKF(0, "N=%d: certified path: %s", N, err.msg);
    }
    slpi_ref_zeitlin_clear(&rz);
    slpi_fast_zeitlin_clear(&z);
    free(X);
    free(P);
    free(L1);
    free(L2);
}

/* 3. H0 of a multiplier that is not a polynomial, against the test's own spectral sum. */
static void check_h0(int N)
{
    slpi_problem p;
    if (!make(&p, N, "noise=none multiplier=-l*(l+1)*exp(1/l)")) {
        TEST_CHECKF(0, "N=%d: exp multiplier refused", N);
        return;
    }
    int n = N * N, nb = N * N - 1;
    double *x = malloc(sizeof(double) * (size_t)n), *om = malloc(sizeof(double) * (size_t)nb);
    cplx *X = malloc(sizeof(cplx) * (size_t)n);
    slpi_error err;
    TEST_CHECK(slpi_fast_problem_initial_state(&p, x, &err) == SLPI_OK);
    for (int i = N; i < n; i++) x[i] += 0.1 * gauss(); /* off the default's degrees */
    slpi_fast_zeitlin z;
    TEST_CHECK(slpi_fast_zeitlin_init(&z, N, &err) == SLPI_OK);
    slpi_fast_sun_unpack(X, x, N);
    slpi_fast_zeitlin_analysis(om, X, &z);
    double want = 0;
    for (int a = 0; a < nb; a++) {
        int l = slpi_fast_zeitlin_degree(a);
        want += om[a] * om[a] / (-(double)l * (l + 1) * exp(1.0 / l));
    }
    want *= -0.5;
    slpi_fast *f = NULL;
    slpi_ref *r = NULL;
    if (slpi_fast_create(&f, &p, &err) == SLPI_OK && slpi_ref_create(&r, &p, &err) == SLPI_OK) {
        slpi_diag d = { 0 };
        slpi_fast_diagnostics(f, x, NULL, &d);
        double h = diag_value(&d, "H0");
        TEST_CHECKF(fabs(h - want) <= 1e-12 * fabs(want), "N=%d: H0 %.17g, the spectral sum %.17g", N, h, want);
        arb_ptr xb = _arb_vec_init(n);
        arb_t hb;
        arb_init(hb);
        for (int i = 0; i < n; i++) arb_set_d(xb + i, x[i]);
        ref_diag_value(hb, r, xb, "H0");
        double hm = arf_get_d(arb_midref(hb), ARF_RND_NEAR);
        TEST_CHECKF(arb_is_finite(hb) && fabs(hm - want) <= 1e-12 * fabs(want),
                    "N=%d: certified H0 %.17g, the spectral sum %.17g", N, hm, want);
        arb_clear(hb);
        _arb_vec_clear(xb, n);
    } else {
        TEST_CHECKF(0, "N=%d: create: %s", N, err.msg);
    }
    slpi_fast_free(f);
    slpi_ref_free(r);
    slpi_fast_zeitlin_clear(&z);
    free(x);
    free(om);
    free(X);
}

/* 4. Refusals: where, and by which path. */
static void check_refusals(void)
{
    static const struct {
        const char *keys, *fast, *ref;
    } row[] = {
        { "multiplier=l*(l+1)-6", "lambda(l = 2) is 0, not finite", "lambda(l = 2) is 0, not finite" },
        { "multiplier=sin(pi*l)", NULL, "lambda(l = 1) is 0, not finite" },
        { "multiplier=-log(l-1)-1", "at l = 1: col 2: log outside its domain",
          "at l = 1: col 2: log outside its domain" },
    };
    for (size_t i = 0; i < sizeof row / sizeof row[0]; i++) {
        slpi_problem p;
        slpi_fast *f = NULL;
        slpi_ref *r = NULL;
        slpi_error e1 = { 0, "" }, e2 = { 0, "" };
        if (!make(&p, 4, row[i].keys)) {
            TEST_CHECKF(0, "%s: refused before the paths", row[i].keys);
            continue;
        }
        int rf = slpi_fast_create(&f, &p, &e1), rr = slpi_ref_create(&r, &p, &e2);
        TEST_CHECKF(row[i].fast ? rf == SLPI_EINPUT && strstr(e1.msg, row[i].fast) : rf == SLPI_OK,
                    "%s: double path: %d %s", row[i].keys, rf, e1.msg);
        TEST_CHECKF(rr == SLPI_EINPUT && strstr(e2.msg, row[i].ref), "%s: certified path: %d %s", row[i].keys, rr,
                    e2.msg);
        TEST_CHECKF(!row[i].fast || strcmp(e1.msg, e2.msg) == 0, "%s: the paths' reasons differ: '%s' and '%s'",
                    row[i].keys, e1.msg, e2.msg);
        slpi_fast_free(f);
        slpi_ref_free(r);
    }
    slpi_problem p;
    slpi_error err;
    slpi_problem_init(&p, SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_set(&p, "multiplier", "-l*(l+1)-x1", &err) == SLPI_OK);
    TEST_CHECKF(slpi_problem_finish(&p, &err) == SLPI_EINPUT && strstr(err.msg, "multiplier: col 10: a coordinate"),
                "a coordinate in the multiplier: %s", err.msg);
    TEST_CHECK(slpi_problem_set(&p, "multiplier", "-l*(l+1)", &err) == SLPI_OK &&
               slpi_problem_set(&p, "kappa", "2", &err) == SLPI_OK);
    TEST_CHECKF(slpi_problem_finish(&p, &err) == SLPI_EINPUT && strstr(err.msg, "kappa=2 with multiplier=-l*(l+1)"),
                "kappa with a multiplier: %s", err.msg);
}

int main(void)
{
    test_start("t-zeitlin-multiplier", 0x5a7e1ULL);
    long iters = test_iters(2);
    int nmax = test_iters(1) > 1 ? 12 : 8;
    for (long it = 0; it < iters; it++) {
        int N = 3 + (int)test_rand_int(nmax - 2);
        check_kappa(N, it == 0 ? 1.0 : (1 + (int)test_rand_int(32)) / 8.0, "matmul=auto");
        check_polynomial(N);
        check_h0(N);
    }
    check_kappa(2, 1.0, "matmul=auto");
    check_kappa(2, (1 + (int)test_rand_int(32)) / 8.0, "matmul=auto");
    check_kappa(6, 1.0, "matmul=blas"); /* the certified solve on the BLAS route's tables (from N = 32 under auto) */
    check_polynomial(2);
    check_rotating(24);
    check_rotating(32);
    check_refusals();
    TEST_END();
}
