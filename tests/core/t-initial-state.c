/* t-initial-state.c — core's initial states (core/initial-state.c), each checked against
 * a property it must have, computed independently: unit |x| (rigid body, ISO), the
 * printed SVI values, |Gamma| = 1 with Gamma = R^T e_3 and R orthogonal (heavy top),
 * ||X||_F = sqrt 2 (Manakov), unit vortex vectors; and the two su(N) coefficient
 * descriptions mapped two ways: the double path's binary64 basis and the certified
 * basis must agree (the doubles score PASS against the balls) and ||X0||_F equals the
 * coefficients' norm (orthonormal basis: Euler–Zeitlin ||omega|| = scale; sine-Euler
 * (N^3/(16 pi^2))^(1/2) times it, tr(T_m^* T_n) = N/(4 eps^2) delta_mn); Euler–Zeitlin's
 * default ic_lmax valid for every N = 2..1024 (validated, written as min(11, N-1), the
 * coefficients of that explicit ic_lmax; N <= 64 for the coefficients), an explicit
 * ic_lmax = N refused. */
#include "core/problem-struct.h"
#include "testutil.h"
#include "slpi-tools.h"

#define U 0x1p-53

static slpi_problem problem(slpi_system_id s, slpi_scheme_id k, const char *key, const char *val)
{
    slpi_problem p;
    slpi_error err;
    slpi_problem_init(&p, s, k);
    if (key) TEST_CHECKF(slpi_problem_set(&p, key, val, &err) == SLPI_OK, "%s=%s: %s", key, val, err.msg);
    return p;
}

static void values(slpi_problem p, double *x)
{
    slpi_error err;
    TEST_CHECK(slpi_problem_initial_kind(&p) == SLPI_INITIAL_VALUES);
    TEST_CHECK(slpi_problem_initial_size(&p) == slpi_problem_state_dim(&p));
    TEST_CHECKF(slpi_problem_initial_state(&p, x, &err) == SLPI_OK, "%s", err.msg);
}

static void check_values(void)
{
    double x[64];
    values(problem(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP, NULL, NULL), x);
    TEST_CHECK(fabs(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] - 1) <= 4 * U && x[1] == 0);
    values(problem(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_SVI, "track_R", "1"), x);
    TEST_CHECK(x[0] == -0.5878 && x[1] == 0 && x[2] == 0.8090);
    for (int i = 0; i < 9; i++) TEST_CHECK(x[3 + i] == (i % 4 == 0));
    values(problem(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_SVI, NULL, NULL), x);
    const double *G = x + 3, *R = x + 6;
    for (int i = 0; i < 3; i++) {
        TEST_CHECKF(G[i] == R[6 + i], "Gamma = R^T e3: component %d", i);
        for (int j = 0; j < 3; j++) {
            double d = R[3 * i] * R[3 * j] + R[3 * i + 1] * R[3 * j + 1] + R[3 * i + 2] * R[3 * j + 2];
            TEST_CHECKF(fabs(d - (i == j)) <= 4 * U, "R R^T (%d,%d) = %.17g", i, j, d);
        }
    }
    values(problem(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_TMK, NULL, NULL), x);
    TEST_CHECK(fabs(x[3] * x[3] + x[4] * x[4] + x[5] * x[5] - 1) <= 4 * U && x[0] == x[3]);
    for (int n = 3; n <= 10; n++) {
        char v[8];
        snprintf(v, sizeof v, "%d", n);
        slpi_problem p = problem(SLPI_SYS_MANAKOV, SLPI_SCHEME_ISOMP, "n", v);
        values(p, x);
        double f = 0;
        for (int i = 0; i < slpi_problem_state_dim(&p); i++) f += 2 * x[i] * x[i];
        TEST_CHECKF(fabs(f - 2) <= 8 * n * U, "Manakov n=%d: ||X||_F^2 = %.17g", n, f);
    }
    values(problem(SLPI_SYS_POINT_VORTICES, SLPI_SCHEME_ISOMP, NULL, NULL), x);
    for (int i = 0; i < 4; i++)
        TEST_CHECK(fabs(x[3 * i] * x[3 * i] + x[3 * i + 1] * x[3 * i + 1] + x[3 * i + 2] * x[3 * i + 2] - 1) <= 4 * U);
    /* bad input: the default is for four vortices */
    slpi_problem p = problem(SLPI_SYS_POINT_VORTICES, SLPI_SCHEME_ISOMP, "n", "3");
    slpi_error err;
    TEST_CHECK(slpi_problem_initial_state(&p, x, &err) == SLPI_EINPUT && strstr(err.msg, "4 vortices"));
    /* an explicit x0 is the state, for any system */
    p = problem(SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP, "N", "2");
    TEST_CHECK(slpi_problem_set(&p, "x0", "0.5,-0.5,0,0", &err) == SLPI_OK);
    values(p, x);
    TEST_CHECK(x[0] == 0.5 && x[1] == -0.5);
}

/* Coefficients mapped by both paths at size N. */
static void check_coefficients(slpi_system_id s, int N, const char *ic)
{
    char v[16];
    snprintf(v, sizeof v, "%d", N);
    slpi_problem p = problem(s, SLPI_SCHEME_ISOMP, "N", v);
    slpi_error err;
    if (s == SLPI_SYS_EULER_ZEITLIN) {
        snprintf(v, sizeof v, "%d", N - 1);
        TEST_CHECK(slpi_problem_set(&p, "ic_lmax", v, &err) == SLPI_OK);
    } else if (ic) {
        TEST_CHECK(slpi_problem_set(&p, "ic", ic, &err) == SLPI_OK);
    }
    int dim = slpi_problem_state_dim(&p), n = slpi_problem_initial_size(&p);
    TEST_CHECK(slpi_problem_initial_kind(&p) ==
               (s == SLPI_SYS_EULER_ZEITLIN ? SLPI_INITIAL_ZEITLIN : SLPI_INITIAL_FOURIER));
    double *c = malloc((size_t)n * sizeof *c), *x = malloc((size_t)dim * sizeof *x);
    TEST_CHECKF(slpi_problem_initial_state(&p, c, &err) == SLPI_OK, "%s", err.msg);
    TEST_CHECKF(slpi_fast_problem_initial_state(&p, x, &err) == SLPI_OK, "%s", err.msg);
    slpi_ref *r = NULL;
    arb_ptr b = _arb_vec_init(dim);
    TEST_CHECKF(slpi_ref_create(&r, &p, &err) == SLPI_OK && slpi_ref_initial_state(r, b, &err) == SLPI_OK, "%s",
                err.msg);
    slpi_score sc;
    slpi_score_vector(x, b, dim, slpi_score_unit(0, SLPI_U_BINARY64), 0, &sc);
    TEST_CHECKF(slpi_score_verdict(&sc, SLPI_ORACLE_THRESHOLD) == SLPI_VERDICT_PASS,
                "%s N=%d: binary64 vs certified x0: ratio %.3g", slpi_system_name(s), N, sc.hi);
    /* ||X||_F^2 from the packed state (diagonal once, off-diagonal pairs twice) */
    double f = 0, w = 0;
    for (int a = 0; a < N; a++) f += x[a] * x[a];
    for (int i = N; i < dim; i++) f += 2 * x[i] * x[i];
    for (int i = 0; i < n; i++) w += c[i] * c[i];
    double want =
        s == SLPI_SYS_EULER_ZEITLIN ? w : w * N * N * N / (16 * 3.14159265358979323846 * 3.14159265358979323846);
    TEST_CHECKF(fabs(f - want) <= 64 * dim * U * want, "%s N=%d: ||X0||_F^2 %.17g, from the coefficients %.17g",
                slpi_system_name(s), N, f, want);
    if (s == SLPI_SYS_EULER_ZEITLIN) TEST_CHECK(fabs(w - p.sys.ez.scale * p.sys.ez.scale) <= 8 * n * U);
    printf("  %s N=%d%s%s: x0 binary64 vs certified ratio %.3g, ||X0||_F^2 = %.6f\n", slpi_system_name(s), N,
           ic ? " ic=" : "", ic ? ic : "", sc.hi, f);
    slpi_ref_free(r);
    _arb_vec_clear(b, dim);
    free(c);
    free(x);
}

/* Euler–Zeitlin's default degree at every N: min(11, N - 1), as the key would say it. */
static void check_default_degree(void)
{
    for (int N = 2; N <= 1024; N++) {
        char v[16], w[16], *text = NULL;
        size_t len = 0;
        int top = N - 1 < 11 ? N - 1 : 11;
        snprintf(v, sizeof v, "%d", N);
        snprintf(w, sizeof w, "%d", top);
        slpi_problem p = problem(SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP, "N", v), q = p;
        slpi_error err;
        TEST_CHECKF(slpi_problem_finish(&p, &err) == SLPI_OK && slpi_problem_validate(&p, &err) == SLPI_OK,
                    "N=%d with the default ic_lmax: %s", N, err.msg);
        FILE *m = open_memstream(&text, &len);
        slpi_problem_write(&p, m, "");
        fclose(m);
        char want[32];
        snprintf(want, sizeof want, "\nic_lmax=%d\n", top);
        TEST_CHECKF(text && strstr(text, want), "N=%d: the default written as %s", N, want + 1);
        free(text);
        snprintf(w, sizeof w, "%d", N);
        int rc = slpi_problem_set(&q, "ic_lmax", w, &err); /* N = 1024: beyond the key's range */
        if (rc == SLPI_OK) rc = slpi_problem_validate(&q, &err);
        TEST_CHECKF(rc == SLPI_EINPUT && strstr(err.msg, "ic_lmax="), "N=%d: ic_lmax=N not refused (%s)", N, err.msg);
        if (N > 64) continue;
        snprintf(w, sizeof w, "%d", top);
        TEST_CHECK(slpi_problem_set(&q, "ic_lmax", w, &err) == SLPI_OK);
        int n = slpi_problem_initial_size(&p);
        double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
        TEST_CHECK(slpi_problem_initial_state(&p, a, &err) == SLPI_OK &&
                   slpi_problem_initial_state(&q, b, &err) == SLPI_OK);
        TEST_CHECKF(memcmp(a, b, (size_t)n * sizeof *a) == 0, "N=%d: the default's coefficients are not ic_lmax=%d's",
                    N, top);
        free(a);
        free(b);
    }
}

/* The manifold check of an explicit SVI state (slpi_problem_check_state): R R^T = I and
 * det R = 1. A rotation with no zero entry (0.5 rad about (1, 1, 1)/sqrt 3, so every
 * cofactor of det R counts) passes; the same with its third row negated (det -1, still
 * orthogonal) and with an entry moved by 1e-6 are refused. */
static void check_rotation(void)
{
    double c = cos(0.5), s = sin(0.5), a = 1 / sqrt(3.0);
    double K[9] = { 0, -a, a, a, 0, -a, -a, a, 0 }, x[15] = { 0.1, 0.2, 0.3 };
    double *G = x + 3, *R = x + 6;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double kk = 0;
            for (int l = 0; l < 3; l++) kk += K[3 * i + l] * K[3 * l + j];
            R[3 * i + j] = (i == j) + s * K[3 * i + j] + (1 - c) * kk;
        }
    for (int i = 0; i < 3; i++) G[i] = R[6 + i];
    slpi_problem p = problem(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_SVI, NULL, NULL);
    slpi_error err;
    TEST_CHECKF(slpi_problem_check_state(&p, x, &err) == SLPI_OK, "a rotation refused: %s", err.msg);
    for (int i = 0; i < 3; i++) R[6 + i] = -R[6 + i];
    for (int i = 0; i < 3; i++) G[i] = R[6 + i];
    TEST_CHECK(slpi_problem_check_state(&p, x, &err) == SLPI_EINPUT);
    for (int i = 0; i < 3; i++) R[6 + i] = -R[6 + i];
    for (int i = 0; i < 3; i++) G[i] = R[6 + i];
    R[4] += 1e-6;
    TEST_CHECK(slpi_problem_check_state(&p, x, &err) == SLPI_EINPUT);
}

int main(void)
{
    test_start("t-initial-state", 1);
    check_values();
    check_rotation();
    check_default_degree();
    for (int N = 2; N <= 6; N++) check_coefficients(SLPI_SYS_EULER_ZEITLIN, N, NULL);
    check_coefficients(SLPI_SYS_SINE_EULER, 3, NULL);
    check_coefficients(SLPI_SYS_SINE_EULER, 5, NULL);
    check_coefficients(SLPI_SYS_SINE_EULER, 5, "random");
    check_coefficients(SLPI_SYS_SINE_EULER, 7, "complex");
    TEST_END();
}
