/* t-ref-isomp-blas.c — the certified ISOMP step on the BLAS route (docs/design.md#blas-route)
 * against the same step on Arb's products: on every built-in su(N) and so(n) case
 * (the presets iso/zeitlin/long, iso/zeitlin/strong, iso/manakov/long,
 * iso/manakov/strong), at sizes N = 4, 9, 16 with the COMM and the CAY update from three
 * kinds of binary64 states (the fast path's initial state, the same with entries spread
 * over 60 binades, and with a tenth of its entries subnormal), and at N = 32 (64, 128
 * under SLPI_TEST_MULTIPLIER >= 4; so(n) up to its key's 64) with COMM from the initial
 * state (and CAY at N = 32: the BLAS route's verified solve, ref/mrsolve.c). Both routes
 * must certify the step; every ball of the BLAS
 * route must contain the midpoint of the Arb route's ball and intersect it, and its
 * radius must stay below 2^-40 of the state's scale (five orders of magnitude under
 * verify's budget at N = 4). matmul=auto takes the BLAS route from N = 32: the
 * step there equals the forced route's bit for bit. A step the route cannot enclose
 * (h = 2) is UNABLE with its reason. Under SLPI_TEST_MULTIPLIER >= 10 (check-long), N = 513,
 * beyond the T_lm tables as balls: the route alone (check_beyond_balls). Public API only.
 * (At N = 513 the state's entries are small, so h = 2 still contracts there: the step that
 * cannot be enclosed is chosen as one whose map does not contract, h = T = 250, on which
 * the double path's own iteration diverges; the test checks that first.) */
#include "core/problem-struct.h"
#include "testutil.h"
#include "slpi.h"

enum { S_PLAIN, S_BINADES, S_SUBNORMAL, S_COUNT };
static const char *const state_name[S_COUNT] = { "plain", "binades", "subnormal" };

static double gauss(void)
{
    double u = test_rand_uniform(1e-300, 1), v = test_rand_uniform(0, 1);
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

static const char *size2(int k)
{
    static char b[16];
    snprintf(b, sizeof b, "%d", k);
    return b;
}

static int make_problem(slpi_problem *p, const char *preset, int N, const char *update, const char *route)
{
    slpi_error err;
    char size[16];
    int mk = strstr(preset, "manakov") != NULL;
    snprintf(size, sizeof size, "%d", N);
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    int rc = slpi_problem_preset(p, preset, &err) != SLPI_OK ||
        slpi_problem_set(p, mk ? "n" : "N", size, &err) != SLPI_OK ||
        (!mk && p->sys.ez.ic_lmax > N - 1 && slpi_problem_set(p, "ic_lmax", size2(N - 1), &err) != SLPI_OK) ||
        slpi_problem_set(p, "update", update, &err) != SLPI_OK ||
        slpi_problem_set(p, "matmul", route, &err) != SLPI_OK || slpi_problem_finish(p, &err) != SLPI_OK;
    if (rc) fprintf(stderr, "t-ref-isomp-blas: %s N=%d: %s\n", preset, N, err.msg);
    return !rc;
}

/* One step from the double state x on the given route into y; 1 if certified. */
static int ref_step(const char *preset, int N, const char *update, const char *route, const double *x, const double *dW,
                    arb_ptr y, int n)
{
    slpi_problem p;
    slpi_error err;
    slpi_ref *r = NULL;
    if (!make_problem(&p, preset, N, update, route) || slpi_ref_create(&r, &p, &err) != SLPI_OK) return 0;
    for (int i = 0; i < n; i++) arb_set_d(y + i, x[i]);
    slpi_step_status st = slpi_ref_step(r, y, dW, NULL);
    if (st != SLPI_STEP_CONVERGED)
        fprintf(stderr, "t-ref-isomp-blas: %s N=%d %s %s: %s\n", preset, N, update, route, slpi_ref_unable_reason(r));
    slpi_ref_free(r);
    return st == SLPI_STEP_CONVERGED;
}

static int vec_equal(arb_srcptr a, arb_srcptr b, int n)
{
    for (int i = 0; i < n; i++)
        if (!arb_equal(a + i, b + i)) return 0;
    return 1;
}

static void check_case(const char *preset, int N, const char *update, int kind)
{
    slpi_problem p;
    slpi_error err;
    slpi_fast *f = NULL;
    if (!make_problem(&p, preset, N, update, "arb") || slpi_fast_create(&f, &p, &err) != SLPI_OK) {
        TEST_CHECKF(0, "%s N=%d: no problem", preset, N);
        return;
    }
    int n = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p);
    double *x = malloc(sizeof(double) * (size_t)n), *dW = malloc(sizeof(double) * (size_t)(M + 1)), scale = 0;
    TEST_CHECK(slpi_fast_initial_state(f, x, &err) == SLPI_OK);
    for (int i = 0; i < n; i++) {
        if (kind == S_BINADES)
            x[i] = ldexp(x[i], -(int)test_rand_int(61));
        else if (kind == S_SUBNORMAL && test_rand_int(10) == 0)
            x[i] = ldexp((double)(1 + test_rand_int(1 << 20)), -1074);
        scale = fmax(scale, fabs(x[i]));
    }
    for (int k = 0; k < M; k++) dW[k] = sqrt(p.grid.h) * gauss();
    arb_ptr ya = _arb_vec_init(n), yb = _arb_vec_init(n), yc = _arb_vec_init(n);
    int oka = ref_step(preset, N, update, "arb", x, dW, ya, n);
    int okb = ref_step(preset, N, update, "blas", x, dW, yb, n);
    TEST_CHECKF(oka && okb, "%s N=%d %s %s: a route could not certify (arb %d, blas %d)", preset, N, update,
                state_name[kind], oka, okb);
    if (oka && okb) {
        int bad = -1;
        mag_t rmax, lim;
        mag_init(rmax);
        mag_init(lim);
        for (int i = 0; i < n; i++) {
            if (bad < 0 && (!arb_contains_arf(yb + i, arb_midref(ya + i)) || !arb_overlaps(yb + i, ya + i))) bad = i;
            mag_max(rmax, rmax, arb_radref(yb + i));
        }
        TEST_CHECKF(bad < 0, "%s N=%d %s %s: entry %d: blas %s misses arb %s", preset, N, update, state_name[kind], bad,
                    arb_get_str(yb + (bad < 0 ? 0 : bad), 20, 0), arb_get_str(ya + (bad < 0 ? 0 : bad), 30, 0));
        mag_set_d(lim, ldexp(scale, -40));
        TEST_CHECKF(mag_cmp(rmax, lim) <= 0, "%s N=%d %s %s: blas radius %g above 2^-40 of the scale %g", preset, N,
                    update, state_name[kind], mag_get_d(rmax), scale);
        mag_clear(rmax);
        mag_clear(lim);
    }
    if (N == 32 && kind == S_PLAIN && ref_step(preset, N, update, "auto", x, dW, yc, n))
        TEST_CHECKF(vec_equal(yc, yb, n), "%s N=32 %s: matmul=auto differs from matmul=blas", preset, update);
    _arb_vec_clear(ya, n);
    _arb_vec_clear(yb, n);
    _arb_vec_clear(yc, n);
    free(x);
    free(dW);
    slpi_fast_free(f);
}

/* A step the route cannot enclose (h = 2: the map does not contract) is UNABLE with the
 * reason, at the route's 64 bits, never a ball. */
static void check_unable(void)
{
    slpi_problem p;
    slpi_error err;
    slpi_ref *r = NULL;
    if (!make_problem(&p, "iso/zeitlin/long", 32, "comm", "blas") || slpi_problem_set(&p, "h", "2", &err) != SLPI_OK ||
        slpi_problem_set(&p, "prec_max", "128", &err) != SLPI_OK || slpi_problem_finish(&p, &err) != SLPI_OK ||
        slpi_ref_create(&r, &p, &err) != SLPI_OK) {
        TEST_CHECKF(0, "h=2: no problem");
        return;
    }
    int n = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p);
    arb_ptr x = _arb_vec_init(n);
    double *dW = calloc((size_t)M + 1, sizeof(double));
    TEST_CHECK(slpi_ref_initial_state(r, x, &err) == SLPI_OK);
    slpi_step_status st = slpi_ref_step(r, x, dW, NULL);
    TEST_CHECKF(st == SLPI_STEP_UNABLE && strstr(slpi_ref_unable_reason(r), "at 64 bits") != NULL,
                "h=2 on the BLAS route: status %d, reason \"%s\"", (int)st, slpi_ref_unable_reason(r));
    _arb_vec_clear(x, n);
    free(dW);
    slpi_ref_free(r);
}

/* Beyond the T_lm tables as balls (N = 513; SLPI_TEST_MULTIPLIER >= 10, about half a
 * minute on an idle core): matmul=auto certifies the step from the fast path's initial
 * state on the route alone, within 1e-12 of the state's scale of the fast path's step;
 * matmul=arb is refused at creation; a step whose map does not contract (h = T = 250: the
 * double path's iteration diverges on it, checked here) is UNABLE, its retries at raised
 * precisions refused off the route with the reason (never Arb's products at this size). */
static void check_beyond_balls(void)
{
    slpi_problem p;
    slpi_error err;
    slpi_ref *r = NULL;
    slpi_fast *f = NULL;
    TEST_CHECK(make_problem(&p, "iso/zeitlin/long", 513, "comm", "arb"));
    TEST_CHECKF(slpi_ref_create(&r, &p, &err) == SLPI_EINPUT && strstr(err.msg, "BLAS route"), "matmul=arb at 513: %s",
                err.msg);
    if (!make_problem(&p, "iso/zeitlin/long", 513, "comm", "auto") || slpi_fast_create(&f, &p, &err) != SLPI_OK ||
        slpi_ref_create(&r, &p, &err) != SLPI_OK) {
        TEST_CHECKF(0, "N=513: %s", err.msg);
        return;
    }
    int n = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p), far = 0;
    double *x = malloc(sizeof(double) * (size_t)n), *dW = malloc(sizeof(double) * (size_t)(M + 1)), scale = 0;
    arb_ptr y = _arb_vec_init(n);
    slpi_step_info info;
    TEST_CHECK(slpi_fast_initial_state(f, x, &err) == SLPI_OK);
    for (int k = 0; k < M; k++) dW[k] = sqrt(p.grid.h) * gauss();
    for (int i = 0; i < n; i++) {
        arb_set_d(y + i, x[i]);
        scale = fmax(scale, fabs(x[i]));
    }
    TEST_CHECKF(slpi_ref_step(r, y, dW, NULL) == SLPI_STEP_CONVERGED, "N=513: %s", slpi_ref_unable_reason(r));
    TEST_CHECK(!slpi_step_failed(slpi_fast_step(f, x, dW, &info)));
    for (int i = 0; i < n; i++) far += !(fabs(x[i] - arf_get_d(arb_midref(y + i), ARF_RND_NEAR)) <= 1e-12 * scale);
    TEST_CHECKF(far == 0, "N=513: %d entries of the fast step beyond 1e-12 of the scale", far);
    slpi_ref_free(r);
    r = NULL;
    slpi_fast_free(f);
    f = NULL;
    if (slpi_problem_set(&p, "T", "250", &err) == SLPI_OK && slpi_problem_set(&p, "h", "250", &err) == SLPI_OK &&
        slpi_problem_set(&p, "prec_max", "256", &err) == SLPI_OK && slpi_problem_finish(&p, &err) == SLPI_OK &&
        slpi_fast_create(&f, &p, &err) == SLPI_OK && slpi_ref_create(&r, &p, &err) == SLPI_OK) {
        for (int i = 0; i < n; i++) arb_set_d(y + i, x[i]);
        slpi_step_status sf = slpi_fast_step(f, x, dW, &info), st = slpi_ref_step(r, y, dW, NULL);
        TEST_CHECKF(slpi_step_failed(sf), "N=513 h=250: the double path's step did not fail (status %d)", (int)sf);
        TEST_CHECKF(st == SLPI_STEP_UNABLE && strstr(slpi_ref_unable_reason(r), "off the BLAS route"),
                    "N=513 h=250: status %d, reason \"%s\"", (int)st, slpi_ref_unable_reason(r));
    } else {
        TEST_CHECKF(0, "N=513 h=250: %s", err.msg);
    }
    _arb_vec_clear(y, n);
    free(x);
    free(dW);
    slpi_ref_free(r);
    slpi_fast_free(f);
}

int main(void)
{
    test_start("t-ref-isomp-blas", 4141);
    static const char *const presets[] = { "iso/zeitlin/long", "iso/zeitlin/strong", "iso/manakov/long",
                                           "iso/manakov/strong" };
    static const char *const updates[] = { "comm", "cay" };
    int sizes[] = { 4, 9, 16, 32, 64, 128 }, nsizes = test_iters(1) >= 4 ? 6 : 4;
    for (int s = 0; s < nsizes; s++)
        for (int a = 0; a < 4; a++)
            for (int u = 0; u < 2; u++)
                for (int kind = 0; kind < S_COUNT; kind++) {
                    if ((sizes[s] > 16 && kind != S_PLAIN) || (sizes[s] > 32 && u == 1) || (a >= 2 && sizes[s] > 64))
                        continue; /* the large sizes: plain states, CAY to 32; so(n): n <= 64 */
                    check_case(presets[a], sizes[s], updates[u], kind);
                }
    check_unable();
    if (test_iters(1) >= 10) check_beyond_balls();
    flint_cleanup();
    TEST_END();
}
