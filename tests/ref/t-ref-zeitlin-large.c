/* t-ref-zeitlin-large.c — the certified Euler–Zeitlin path above N = 16 (docs/systems.md#euler-zeitlin,
 * §3.4): the exact T_lm tables of ref/zeitlin-basis.c and the large-N ISOMP step
 * (approximate midpoint iteration, skew-Hermitian products, no dense test):
 *   - the T_lm tables (integer null-vector recurrence) against the 3j formula at N = 20
 *     and 33 (two exact formulas), and L_m V_m = V diag(-l(l+1)), V_m^T V_m = I at N = 40;
 *   - ISOMP at N = 24: COMM and CAY updates overlap (two forms of eq. (26)/(30)); the
 *     step at 128 and at 256 bits overlap; the step with (-h, -dW) from X_{n+1}
 *     contains X_n; the fast path's binary64 step lies within 1e-12 ||X|| of the ball;
 *   - soundness from a wide ball (radius 2^-30, h = 1/16): the certified image contains
 *     the certified steps from random corners of the ball (a dropped term of the
 *     derivative bound narrows the image and fails here);
 *   - N = 128 (the iso/zeitlin/long size) only under SLPI_TEST_MULTIPLIER >= 4: one
 *     step from binary64 input, certified, containing the fast step.
 * Public API (slpi_ref_*, slpi_fast_*) except the tables. */
#include "core/problem-struct.h"
#include "testutil.h"
#include "ref/zeitlin.h"

#define PREC 128

static double gauss(void)
{
    double u = test_rand_uniform(1e-300, 1), v = test_rand_uniform(0, 1);
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* Tables against the 3j formula entrywise, tight to 2^-(PREC-8). */
static void check_tables_3j(int N)
{
    slpi_ref_zeitlin z;
    slpi_error err;
    arb_t u;
    arb_init(u);
    TEST_CHECK(slpi_ref_zeitlin_init(&z, N, PREC, &err) == SLPI_OK && slpi_ref_zeitlin_harmonics(&z, &err) == SLPI_OK);
    int bad = 0, loose = 0;
    for (int m = 0; m < N; m++)
        for (int l = m; l < N; l++) {
            int n = N - m;
            /* 3j vector of T_lm on diagonal -m, sign: last component positive */
            slpi_ref_zeitlin_threej(u, N, l, m, n - 1 + m, n - 1, PREC);
            int flip = arb_is_negative(u);
            for (int a = 0; a < n; a++) {
                slpi_ref_zeitlin_threej(u, N, l, m, a + m, a, PREC);
                if (flip) arb_neg(u, u);
                arb_srcptr t = arb_mat_entry(z.V + m, a, l - m);
                bad += !arb_overlaps(u, t);
                loose += mag_cmp_2exp_si(arb_radref(t), -(PREC - 8)) > 0;
            }
        }
    TEST_CHECKF(bad == 0, "N=%d: %d table entries differ from the 3j formula", N, bad);
    TEST_CHECKF(loose == 0, "N=%d: %d table entries wider than 2^-%d", N, loose, PREC - 8);
    slpi_ref_zeitlin_clear(&z);
    arb_clear(u);
}

/* L_m V_m contains V_m diag(-l(l+1)) and V_m^T V_m contains I. */
static void check_tables_eigen(int N)
{
    slpi_ref_zeitlin z;
    slpi_error err;
    TEST_CHECK(slpi_ref_zeitlin_init(&z, N, PREC, &err) == SLPI_OK && slpi_ref_zeitlin_harmonics(&z, &err) == SLPI_OK);
    int bad = 0;
    for (int m = 0; m < N; m++) {
        int n = N - m;
        arb_mat_t L, A, B;
        arb_mat_init(L, n, n);
        arb_mat_init(A, n, n);
        arb_mat_init(B, n, n);
        for (int a = 0; a < n; a++) {
            arb_set(arb_mat_entry(L, a, a), z.ldiag[m] + a);
            if (a + 1 < n) {
                arb_set(arb_mat_entry(L, a, a + 1), z.loff[m] + a);
                arb_set(arb_mat_entry(L, a + 1, a), z.loff[m] + a);
            }
        }
        arb_mat_mul(A, L, z.V + m, PREC);
        for (int a = 0; a < n; a++)
            for (int c = 0; c < n; c++) {
                long l = m + c;
                arb_mul_si(arb_mat_entry(B, a, c), arb_mat_entry(z.V + m, a, c), -l * (l + 1), PREC);
            }
        bad += !arb_mat_overlaps(A, B);
        arb_mat_transpose(A, z.V + m);
        arb_mat_mul(B, A, z.V + m, PREC);
        arb_mat_one(A);
        bad += !arb_mat_contains(B, A);
        arb_mat_clear(L);
        arb_mat_clear(A);
        arb_mat_clear(B);
    }
    TEST_CHECKF(bad == 0, "N=%d: %d blocks fail L V = V Lambda or V^T V = I", N, bad);
    slpi_ref_zeitlin_clear(&z);
}

/* An Euler-Zeitlin ISOMP problem at size N with a random binary64 state of Frobenius
 * norm 1 (degrees <= 4, as the long preset) and fresh increments. */
typedef struct {
    slpi_problem p;
    slpi_ref *r;
    int n, M;
    double *x, *dW;
} fixture;

static void setup(fixture *f, int N, double h, const char *update, long prec)
{
    slpi_error err;
    char buf[32];
    slpi_problem_init(&f->p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_preset(&f->p, "iso/zeitlin/long", &err) == SLPI_OK);
    snprintf(buf, sizeof buf, "%d", N);
    TEST_CHECK(slpi_problem_set(&f->p, "N", buf, &err) == SLPI_OK);
    snprintf(buf, sizeof buf, "%.17g", h);
    TEST_CHECK(slpi_problem_set(&f->p, "h", buf, &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_set(&f->p, "amp", "2", &err) == SLPI_OK);
    /* Arb's products: the radii checked here are Arb's (the BLAS route, matmul=auto's
     * choice from N = 32: t-ref-isomp-blas) */
    TEST_CHECK(slpi_problem_set(&f->p, "matmul", "arb", &err) == SLPI_OK);
    if (update) TEST_CHECK(slpi_problem_set(&f->p, "update", update, &err) == SLPI_OK);
    f->p.cert.prec = prec;
    TEST_CHECKF(slpi_problem_finish(&f->p, &err) == SLPI_OK, "%s", err.msg);
    TEST_CHECKF(slpi_ref_create(&f->r, &f->p, &err) == SLPI_OK, "N=%d: %s", N, err.msg);
    f->n = slpi_problem_state_dim(&f->p);
    f->M = slpi_problem_noise_count(&f->p);
    f->x = calloc((size_t)f->n, sizeof(double));
    f->dW = calloc((size_t)f->M + 1, sizeof(double));
}

static void fill(fixture *f, const fixture *from)
{
    double nrm = 0;
    if (from != NULL) {
        memcpy(f->x, from->x, sizeof(double) * (size_t)f->n);
        memcpy(f->dW, from->dW, sizeof(double) * (size_t)f->M);
        return;
    }
    int N = f->p.sys.ez.N;
    for (int i = 0; i < f->n; i++) f->x[i] = test_rand_uniform(-1, 1);
    for (int i = 0; i < f->n; i++) nrm += (i < N ? 1 : 2) * f->x[i] * f->x[i];
    for (int i = 0; i < f->n; i++) f->x[i] /= sqrt(nrm);
    for (int k = 0; k < f->M; k++) f->dW[k] = sqrt(f->p.grid.h) * gauss();
}

static void teardown(fixture *f)
{
    slpi_ref_free(f->r);
    free(f->x);
    free(f->dW);
}

/* One certified step of f from the binary64 state x (radius 0) or from x +/- rad. */
static int ref_step(fixture *f, arb_ptr y, const double *x, double rad, const double *dW)
{
    for (int i = 0; i < f->n; i++) {
        arb_set_d(y + i, x[i]);
        if (rad > 0) mag_set_d(arb_radref(y + i), rad);
    }
    slpi_step_info info;
    int st = slpi_ref_step(f->r, y, dW, &info);
    TEST_CHECKF(st == SLPI_STEP_CONVERGED, "N=%d: %s", f->p.sys.ez.N, slpi_ref_unable_reason(f->r));
    return st == SLPI_STEP_CONVERGED;
}

static int count_disjoint(arb_srcptr a, arb_srcptr b, int n)
{
    int bad = 0;
    for (int i = 0; i < n; i++) bad += !arb_overlaps(a + i, b + i);
    return bad;
}

/* The fast step from the same binary64 input lies within tol of every ball. */
static void check_fast(fixture *f, arb_srcptr y, double tol)
{
    slpi_fast *fp;
    slpi_error err;
    slpi_step_info info;
    double *x = malloc(sizeof(double) * (size_t)f->n);
    memcpy(x, f->x, sizeof(double) * (size_t)f->n);
    TEST_CHECK(slpi_fast_create(&fp, &f->p, &err) == SLPI_OK);
    TEST_CHECK(!slpi_step_failed(slpi_fast_step(fp, x, f->dW, &info)));
    int bad = 0;
    arb_t d;
    arb_init(d);
    for (int i = 0; i < f->n; i++) {
        arb_set_d(d, x[i]);
        arb_sub(d, d, y + i, PREC);
        bad += !(arf_cmpabs_d(arb_midref(d), tol) <= 0 && mag_cmp_2exp_si(arb_radref(d), -80) <= 0);
    }
    TEST_CHECKF(bad == 0, "N=%d: %d fast-step entries farther than %g from the ball", f->p.sys.ez.N, bad, tol);
    arb_clear(d);
    slpi_fast_free(fp);
    free(x);
}

static void check_step(int N)
{
    fixture f, g, c;
    setup(&f, N, 0.0015625, NULL, PREC);
    setup(&g, N, 0.0015625, NULL, 2 * PREC);
    setup(&c, N, 0.0015625, "cay", PREC);
    fill(&f, NULL);
    fill(&g, &f);
    fill(&c, &f);
    int n = f.n;
    arb_ptr y = _arb_vec_init(n), y2 = _arb_vec_init(n), yc = _arb_vec_init(n);
    if (ref_step(&f, y, f.x, 0, f.dW) && ref_step(&g, y2, f.x, 0, f.dW) && ref_step(&c, yc, f.x, 0, f.dW)) {
        double r = slpi_ref_vec_radius(y, n), r2 = slpi_ref_vec_radius(y2, n);
        TEST_CHECKF(r < 1e-35, "N=%d: radius %g after one step from binary64", N, r);
        TEST_CHECKF(r2 < 1e-70, "N=%d: radius %g at 256 bits", N, r2);
        TEST_CHECKF(count_disjoint(y, y2, n) == 0, "N=%d: 128 and 256 bits disagree", N);
        TEST_CHECKF(count_disjoint(y, yc, n) == 0, "N=%d: COMM and CAY disagree", N);
        check_fast(&f, y, 1e-12);
        /* the reversed step from the ball X_{n+1} contains X_n */
        double *mdW = malloc(sizeof(double) * (size_t)f.M);
        for (int k = 0; k < f.M; k++) mdW[k] = -f.dW[k];
        TEST_CHECK(slpi_ref_set_step(f.r, -f.p.grid.h) == SLPI_OK);
        slpi_step_info info;
        TEST_CHECKF(slpi_ref_step(f.r, y, mdW, &info) == SLPI_STEP_CONVERGED, "N=%d: %s", N,
                    slpi_ref_unable_reason(f.r));
        arb_t x0;
        arb_init(x0);
        int bad = 0;
        for (int i = 0; i < n; i++) {
            arb_set_d(x0, f.x[i]);
            bad += !arb_contains(y + i, x0);
        }
        TEST_CHECKF(bad == 0, "N=%d: reversed step misses X_n in %d entries", N, bad);
        arb_clear(x0);
        free(mdW);
    }
    _arb_vec_clear(y, n);
    _arb_vec_clear(y2, n);
    _arb_vec_clear(yc, n);
    teardown(&f);
    teardown(&g);
    teardown(&c);
}

/* A step from a wide ball contains the steps from random corners of the ball. */
static void check_wide(int N, int corners)
{
    const double rad = 0x1p-30;
    fixture f;
    setup(&f, N, 0.0625, NULL, PREC);
    fill(&f, NULL);
    int n = f.n;
    arb_ptr y = _arb_vec_init(n), yc = _arb_vec_init(n);
    double *xc = calloc((size_t)n, sizeof(double));
    if (ref_step(&f, y, f.x, rad, f.dW)) {
        double r = slpi_ref_vec_radius(y, n);
        TEST_CHECKF(r < 64 * rad, "N=%d: wide image radius %g for input %g", N, r, rad);
        for (int c = 0; c < corners; c++) {
            for (int i = 0; i < n; i++) xc[i] = f.x[i] + (test_rand_int(2) ? rad : -rad); /* exact: |x| < 2 */
            if (!ref_step(&f, yc, xc, 0, f.dW)) break;
            int bad = 0;
            for (int i = 0; i < n; i++) bad += !arb_contains(y + i, yc + i);
            TEST_CHECKF(bad == 0, "N=%d corner %d: %d entries outside the wide image", N, c, bad);
        }
    }
    free(xc);
    _arb_vec_clear(y, n);
    _arb_vec_clear(yc, n);
    teardown(&f);
}

static void check_n128(void)
{
    fixture f;
    setup(&f, 128, 0.0015625, NULL, PREC);
    fill(&f, NULL);
    arb_ptr y = _arb_vec_init(f.n);
    if (ref_step(&f, y, f.x, 0, f.dW)) {
        double r = slpi_ref_vec_radius(y, f.n);
        TEST_CHECKF(r < 1e-35, "N=128: radius %g after one step from binary64", r);
        check_fast(&f, y, 1e-12);
    }
    _arb_vec_clear(y, f.n);
    teardown(&f);
}

int main(void)
{
    test_start("t-ref-zeitlin-large", 20261122);
    check_tables_3j(20);
    check_tables_3j(33);
    check_tables_eigen(40);
    check_step(24);
    check_wide(24, (int)test_iters(4));
    if (test_iters(1) >= 4) {
        check_step(40);
        check_n128();
    }
    flint_cleanup();
    TEST_END();
}
