/* t-rounding.c — a caller's rounding direction changes nothing slpi computes
 * (docs/conventions.md#rounding, core/fpmode.h). Under each of FE_TONEAREST, FE_UPWARD,
 * FE_DOWNWARD and FE_TOWARDZERO, set by the caller before every call (and on x86 upward
 * in the SSE or the x87 unit alone):
 *   - decimal texts read by the one scanner (random ones from the seed, and "0.1", "0.01")
 *     are the bits of round-to-nearest;
 *   - every preset's finished keys (slpi_problem_text: T / h resolved) and a model's
 *     constants are the round-to-nearest ones;
 *   - the fast path's trajectory, for every scheme on every preset that takes it (a few
 *     steps, small N; generated from the preset list and the registry), is bit-identical to
 *     the round-to-nearest one, on the general route and on the ensemble's lanes;
 *   - so are the stepper's diagnostics, and the certified path's default initial state
 *     (mid and radius of every ball);
 *   - the caller gets its direction (and the rest of its mode) back after every call,
 *     a failing step, a failing lane and a refused key included. */
#include <fenv.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fpmode.h"
#include "core/problem-struct.h"
#include "api/ensemble-lanes.h"
#include "core/parse.h"
#include "slpi/fast.h"
#include "slpi/registry.h"
#include "testutil.h"

#define STEPS 3
/* C's four directions; on x86 also upward in one unit alone (SSE's MXCSR, which the double
 * arithmetic reads; the x87's, which C's fegetround, strtod, printf and OpenBLAS's x87
 * kernels read), as a caller writing the bits itself leaves them. */
#if defined(__SSE2__)
#define NDIR 6
#else
#define NDIR 4
#endif
static const int dirs[6] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO, FE_TONEAREST, FE_TONEAREST };
static const char *const dir_name[6] = { "to-nearest",         "upward",          "downward", "toward-zero",
                                         "MXCSR upward alone", "x87 upward alone" };

/* The caller's mode, kept to compare with what a call leaves. */
static slpi_fpmode caller_control;
static int caller_round;
static void caller_sets(int d)
{
    fesetround(dirs[d]);
#if defined(__SSE2__)
    if (d == 4) _mm_setcsr((_mm_getcsr() & ~0x6000u) | 0x4000u);
    if (d == 5) {
        unsigned short cw;
        __asm__ __volatile__("fnstcw %0" : "=m"(cw));
        cw = (unsigned short)((cw & ~0xC00u) | 0x800u);
        __asm__ __volatile__("fldcw %0" : : "m"(cw));
    }
#endif
    caller_round = fegetround();
    caller_control = slpi_fpmode_control(slpi_fpmode_get());
}

static int restored_checks;
static void check_restored(int d, const char *what)
{
    int r = fegetround();
    slpi_fpmode c = slpi_fpmode_control(slpi_fpmode_get());
    TEST_CHECKF(r == caller_round && c == caller_control,
                "%s (caller %s): the direction left %d, mode %#llx, not %d %#llx", what, dir_name[d], r,
                (unsigned long long)c, caller_round, (unsigned long long)caller_control);
    restored_checks++;
    fesetround(FE_TONEAREST);
}

static int same_bits(const double *a, const double *b, size_t n)
{
    return memcmp(a, b, n * sizeof *a) == 0;
}

/* A random decimal: 1 to 20 digits, a point somewhere, an exponent from -30 to 30. */
static void random_decimal(char *s, size_t n)
{
    int digits = 1 + (int)test_rand_int(20), point = (int)test_rand_int(digits + 1), len = 0;
    if (test_rand_int(2)) s[len++] = '-';
    for (int i = 0; i < digits; i++) {
        if (i == point && i > 0) s[len++] = '.';
        s[len++] = (char)('0' + test_rand_int(10));
    }
    snprintf(s + len, n - (size_t)len, "e%d", (int)test_rand_int(61) - 30);
}

static void check_decimals(void)
{
    char s[64];
    for (int i = 0; i < 2000; i++) {
        if (i == 0)
            strcpy(s, "0.1");
        else if (i == 1)
            strcpy(s, "0.01");
        else
            random_decimal(s, sizeof s);
        double want = 0, got;
        slpi_error err = { 0 };
        int ok = slpi_parse_double("h", s, -1e300, 1e300, &want, &err) == SLPI_OK;
        TEST_CHECKF(ok, "%s: %s", s, err.msg);
        for (int d = 1; ok && d < NDIR; d++) {
            caller_sets(d);
            got = 0;
            int rc = slpi_parse_double("h", s, -1e300, 1e300, &got, &err);
            check_restored(d, s);
            TEST_CHECKF(rc == SLPI_OK && same_bits(&got, &want, 1), "%s read %a under %s, %a to nearest", s, got,
                        dir_name[d], want);
        }
    }
    caller_sets(2); /* a refused key hands the direction back too */
    double v;
    slpi_error err = { 0 };
    TEST_CHECK(slpi_parse_double("h", "0.1x", 0, 1, &v, &err) != SLPI_OK);
    check_restored(2, "a refused key");
}

/* Problem for a preset with `scheme` (NULL: the preset's), STEPS steps and N small, built
 * under the caller's direction d; NULL when the preset does not take the scheme. */
static slpi_problem *problem(const char *preset, const char *scheme, int d)
{
    caller_sets(d);
    slpi_problem *p = slpi_problem_new(preset);
    int ok = p != NULL;
    char n[8], sys[64] = "";
    if (ok) slpi_problem_get_key(p, "system", sys, sizeof sys);
    snprintf(n, sizeof n, "%d", !strcmp(sys, "euler-zeitlin") ? 12 : 5); /* ic_lmax <= 11 */
    if (ok && scheme) ok = slpi_problem_set_key(p, "scheme", scheme) == SLPI_OK;
    if (ok && (!strcmp(sys, "euler-zeitlin") || !strcmp(sys, "sine-euler")))
        ok = slpi_problem_set_key(p, "N", n) == SLPI_OK;
    if (ok)
        ok =
            slpi_problem_set_key(p, "steps", "3") == SLPI_OK && slpi_problem_set_key(p, "output_every", "1") == SLPI_OK;
    check_restored(d, preset);
    if (!ok) {
        slpi_problem_free(p);
        return NULL;
    }
    return p;
}

/* The preset's keys, finished (h, steps resolved), as text. */
static void check_keys(const char *preset)
{
    char want[2][8192] = { "", "" }, got[8192];
    for (int d = 0; d < NDIR; d++)
        for (int own = 0; own < 2; own++) { /* the preset's own T, h and N, and the test's */
            slpi_problem *p = own ? NULL : problem(preset, NULL, d);
            if (own) {
                caller_sets(d);
                p = slpi_problem_new(preset);
                check_restored(d, "slpi_problem_new");
            }
            TEST_CHECKF(p, "%s: no problem under %s: %s", preset, dir_name[d], slpi_api_last_error());
            if (!p) continue;
            caller_sets(d);
            long n = slpi_problem_text(p, d ? got : want[own], sizeof got);
            slpi_error err = { 0 };
            int fin = slpi_problem_finish(p, &err);
            check_restored(d, "slpi_problem_text, slpi_problem_finish");
            TEST_CHECKF(n > 0 && n < (long)sizeof got, "%s: text %ld", preset, n);
            TEST_CHECKF(fin == SLPI_OK, "%s: does not finish under %s: %s", preset, dir_name[d], err.msg);
            if (d)
                TEST_CHECKF(!strcmp(got, want[own]), "%s: keys under %s:\n%s\nto nearest:\n%s", preset, dir_name[d],
                            got, want[own]);
            slpi_problem_free(p);
        }
}

/* The stepper's rows with their diagnostics, of the preset as it is (its own scheme). */
static void check_diagnostics(const char *preset)
{
    double want[2][4096], got[2][4096];
    for (int d = 0; d < NDIR; d++) {
        slpi_problem *p = problem(preset, NULL, d);
        if (!p) return;
        slpi_stepper *s = NULL;
        int dim = 0, nd = 0;
        long rows = 0;
        caller_sets(d);
        int rc = slpi_stepper_new(&s, p, 0, NULL, 0);
        if (rc == SLPI_OK) slpi_stepper_shape(s, &dim, NULL, &nd, NULL, NULL);
        rc = rc == SLPI_OK && (dim + nd) * STEPS <= 4096 ? rc : SLPI_EINPUT;
        double *x = d ? got[0] : want[0], *g = d ? got[1] : want[1];
        if (rc == SLPI_OK) rc = slpi_stepper_advance(s, STEPS, NULL, 1, x, NULL, g, NULL, NULL, NULL, &rows);
        check_restored(d, "slpi_stepper_advance");
        TEST_CHECKF(rc == SLPI_OK && rows == STEPS, "%s: stepper under %s: %s", preset, dir_name[d],
                    slpi_api_last_error());
        if (d && rc == SLPI_OK)
            TEST_CHECKF(same_bits(got[0], want[0], (size_t)(dim * STEPS)) &&
                            same_bits(got[1], want[1], (size_t)(nd * STEPS)),
                        "%s: the stepper's states or diagnostics under %s differ", preset, dir_name[d]);
        slpi_stepper_free(s);
        slpi_problem_free(p);
    }
}

/* The fast path's rows of the preset with this scheme, under each direction; 1 if it ran. */
static int check_trajectory(const char *preset, const char *scheme)
{
    double *want = NULL;
    size_t len = 0;
    int ran = 0;
    for (int d = 0; d < NDIR; d++) {
        slpi_problem *p = problem(preset, scheme, d);
        if (!p) return 0;
        int dim = 0;
        long rows = 0;
        caller_sets(d);
        int rc = slpi_problem_shape(p, &dim, NULL, NULL, &rows, NULL, NULL);
        check_restored(d, "slpi_problem_shape");
        if (rc != SLPI_OK || dim <= 0) {
            slpi_problem_free(p);
            return 0;
        }
        len = (size_t)rows * (size_t)dim;
        double *x = calloc(len, sizeof *x);
        caller_sets(d);
        rc = x ? slpi_integrate(p, x, NULL) : SLPI_EINPUT;
        check_restored(d, "slpi_integrate");
        if (d == 0 && rc != SLPI_OK) { /* this preset does not run this scheme: skipped */
            free(x);
            slpi_problem_free(p);
            return 0;
        }
        TEST_CHECKF(rc == SLPI_OK, "%s scheme=%s under %s: %s", preset, scheme, dir_name[d], slpi_api_last_error());
        if (d == 0)
            want = x;
        else {
            TEST_CHECKF(rc != SLPI_OK || same_bits(x, want, len), "%s scheme=%s: the trajectory under %s differs",
                        preset, scheme, dir_name[d]);
            free(x);
        }
        ran = 1;
        slpi_problem_free(p);
    }
    free(want);
    return ran;
}

/* The certified path's initial state (balls as mid, radius) of the preset, under each direction. */
static void check_certified(const char *preset)
{
    double want[2][1024], got[2][1024];
    int dim = 0;
    for (int d = 0; d < NDIR; d++) {
        slpi_problem *p = problem(preset, NULL, d);
        if (!p) return;
        slpi_stepper *s = NULL;
        caller_sets(d);
        int rc = slpi_stepper_new(&s, p, 1, NULL, 0);
        check_restored(d, "slpi_stepper_new (certified)");
        TEST_CHECKF(rc == SLPI_OK, "%s: certified stepper under %s: %s", preset, dir_name[d], slpi_api_last_error());
        if (rc == SLPI_OK) {
            slpi_stepper_shape(s, &dim, NULL, NULL, NULL, NULL);
            TEST_CHECK(dim <= 1024);
            caller_sets(d);
            slpi_stepper_row(s, d ? got[0] : want[0], d ? got[1] : want[1], NULL, NULL);
            check_restored(d, "slpi_stepper_row");
            if (d)
                TEST_CHECKF(same_bits(got[0], want[0], (size_t)dim) && same_bits(got[1], want[1], (size_t)dim),
                            "%s: the certified initial state under %s differs (x1 %a +- %a, to nearest %a +- %a)",
                            preset, dir_name[d], got[0][0], got[1][0], want[0][0], want[1][0]);
        }
        slpi_stepper_free(s);
        slpi_problem_free(p);
    }
}

/* The ensemble (rigid-body presets: the lanes where they run ISOMP or SVI): 70 paths'
 * rows and their means. */
static int lanes_runs;
static void check_lanes(const char *preset)
{
    enum { PATHS = 70 };
    double want[PATHS * 3 * (STEPS + 1)], got[PATHS * 3 * (STEPS + 1)], wm[64], gm[64];
    for (int d = 0; d < NDIR; d++) {
        slpi_problem *p = problem(preset, NULL, d);
        if (!p) return;
        slpi_ensemble *e = NULL;
        int dim = 0, nd = 0;
        long rows = 0;
        caller_sets(d);
        int rc = slpi_ensemble_new(&e, p, 0, 0, 0, 1);
        if (rc == SLPI_OK) slpi_ensemble_shape(e, &dim, NULL, &nd, NULL, &rows);
        if (rc == SLPI_OK && !(dim == 3 && rows == STEPS + 1 && (dim + nd) * rows <= 64)) { /* another shape: skipped */
            check_restored(d, "slpi_ensemble_new");
            slpi_ensemble_free(e);
            slpi_problem_free(p);
            return;
        }
        if (rc == SLPI_OK) rc = slpi_ensemble_run(e, PATHS, NULL, NULL, d ? got : want, NULL, NULL, NULL);
        if (rc == SLPI_OK) slpi_ensemble_stats(e, d ? gm : wm, NULL, NULL, NULL, NULL);
        check_restored(d, "slpi_ensemble_run");
        TEST_CHECKF(rc == SLPI_OK, "%s: ensemble under %s: %s", preset, dir_name[d], slpi_api_last_error());
        if (rc == SLPI_OK && !strcmp(slpi_ensemble_route(e), "lanes")) lanes_runs += d == 0;
        if (d && rc == SLPI_OK) {
            TEST_CHECKF(same_bits(got, want, sizeof got / sizeof *got), "%s: the paths under %s differ (route %s)",
                        preset, dir_name[d], slpi_ensemble_route(e));
            TEST_CHECKF(same_bits(gm, wm, (size_t)((dim + nd) * rows)), "%s: the means under %s differ (route %s)",
                        preset, dir_name[d], slpi_ensemble_route(e));
        }
        slpi_ensemble_free(e);
        slpi_problem_free(p);
    }
}

static void no_row(void *ctx, long row, int n, const double *val)
{
    (void)ctx, (void)row, (void)n, (void)val;
}

/* An ensemble on two threads whose OpenMP helper was left rounding upward by an earlier
 * parallel region (the pool's threads keep their mode from one region to the next): the
 * paths and means of one thread rounding to nearest, on the lanes and on the general route. */
static void check_pool(const char *preset)
{
    enum { PATHS = 200 };
    static double x[2][PATHS * 256], m[2][256];
    int up = 0;
#pragma omp parallel num_threads(2) reduction(+ : up)
    {
        fesetround(FE_UPWARD);
        up += omp_get_thread_num() > 0;
    }
    fesetround(FE_TONEAREST);
    for (int t = 0; t < 2; t++) {
        slpi_problem *p = problem(preset, NULL, 0);
        slpi_ensemble *e = NULL;
        int dim = 0, nd = 0;
        long rows = 0;
        int rc = p ? slpi_ensemble_new(&e, p, 0, 0, 0, t + 1) : SLPI_EINPUT;
        if (rc == SLPI_OK) slpi_ensemble_shape(e, &dim, NULL, &nd, NULL, &rows);
        TEST_CHECKF(rc != SLPI_OK || (dim + nd) * rows <= 256, "%s: %d x %ld values a path", preset, dim + nd, rows);
        rc = rc == SLPI_OK && (dim + nd) * rows <= 256 ? rc : SLPI_EINPUT;
        if (rc == SLPI_OK) rc = slpi_ensemble_run(e, PATHS, NULL, NULL, x[t], NULL, NULL, NULL);
        if (rc == SLPI_OK) slpi_ensemble_stats(e, m[t], NULL, NULL, NULL, NULL);
        TEST_CHECKF(rc == SLPI_OK, "%s on %d threads: %s", preset, t + 1, slpi_api_last_error());
        TEST_CHECKF(up == 1, "no OpenMP helper thread was left rounding upward (%d)", up);
        if (t && rc == SLPI_OK)
            TEST_CHECKF(same_bits(x[0], x[1], (size_t)(PATHS * dim * rows)) &&
                            same_bits(m[0], m[1], (size_t)((dim + nd) * rows)),
                        "%s: two threads, a helper left rounding upward (%d): the paths or means differ (route %s)",
                        preset, up, slpi_ensemble_route(e));
        slpi_ensemble_free(e);
        slpi_problem_free(p);
    }
#pragma omp parallel num_threads(2)
    fesetround(FE_TONEAREST);
}

/* Failing steps hand the caller its mode back: a fast step on a state with a NaN (refused
 * before the scheme), a step whose solve overflows, and a model whose H is not finite at
 * step 0 on the stepper and on the lanes (the public ensemble, and its lanes called alone,
 * where no outer call restores the mode for them). */
static void check_failures(void)
{
    for (int d = 0; d < NDIR; d++) {
        slpi_problem *p = problem("iso/rigid-body/trajectories", NULL, d);
        slpi_fast *f = NULL;
        slpi_error err = { 0 };
        caller_sets(d);
        int ok = p && slpi_problem_finish(p, &err) == SLPI_OK && slpi_fast_create(&f, p, &err) == SLPI_OK;
        check_restored(d, "slpi_fast_create");
        TEST_CHECKF(ok, "rigid body: %s", err.msg);
        double x[3] = { NAN, 0, 1 }, big[3] = { 1e300, 1e300, 1e300 }, dW[8] = { 0 };
        slpi_step_info info;
        caller_sets(d);
        slpi_step_status st = ok ? slpi_fast_step(f, x, dW, &info) : SLPI_STEP_INVALID;
        check_restored(d, "a refused fast step");
        TEST_CHECK(st == SLPI_STEP_INVALID);
        caller_sets(d);
        st = ok ? slpi_fast_step(f, big, dW, &info) : SLPI_STEP_INVALID;
        check_restored(d, "an overflowing fast step");
        TEST_CHECKF(slpi_step_failed(st), "rigid body from 1e300: step status %d", (int)st);
        slpi_fast_free(f);
        slpi_problem_free(p);

        caller_sets(d);
        p = slpi_problem_new(NULL);
        ok = p && slpi_problem_set_key(p, "system", "model") == SLPI_OK &&
            slpi_problem_set_key(p, "algebra", "so3") == SLPI_OK &&
            slpi_problem_set_key(p, "H", "x1^2/(t - 0.125) + x2^2 + x3^2") == SLPI_OK &&
            slpi_problem_set_key(p, "noise_H1", "0.1*x3") == SLPI_OK &&
            slpi_problem_set_key(p, "x0", "1,0.5,0.2") == SLPI_OK && slpi_problem_set_key(p, "h", "0.25") == SLPI_OK &&
            slpi_problem_set_key(p, "steps", "8") == SLPI_OK;
        check_restored(d, "the model's keys");
        TEST_CHECKF(ok, "model: %s", slpi_api_last_error());
        slpi_ensemble *e = NULL;
        caller_sets(d);
        int rc = ok ? slpi_ensemble_new(&e, p, 0, 0, 0, 1) : SLPI_EINPUT;
        check_restored(d, "slpi_ensemble_new");
        TEST_CHECKF(rc == SLPI_OK && !strcmp(slpi_ensemble_route(e), "lanes"), "model with a pole: %s",
                    e ? slpi_ensemble_route(e) : slpi_api_last_error());
        caller_sets(d);
        rc = e ? slpi_ensemble_run(e, 70, NULL, NULL, NULL, NULL, NULL, NULL) : SLPI_OK;
        check_restored(d, "a failing lane");
        TEST_CHECKF(rc != SLPI_OK, "model with a pole: the lanes did not fail under %s", dir_name[d]);
        slpi_problem q = *p;
        slpi_ens_lanes *L = NULL;
        const char *why = "";
        caller_sets(d);
        slpi_plan *plan = NULL;
        ok = ok && slpi_problem_plan(&plan, &q, &err) == SLPI_OK &&
            slpi_ens_lanes_new(&L, plan, 1, &why, &err) == SLPI_OK && L;
        slpi_plan_unref(plan);
        check_restored(d, "slpi_ens_lanes_new");
        TEST_CHECKF(ok, "model with a pole: no lanes: %s %s", why, err.msg);
        caller_sets(d);
        rc = ok ? slpi_ens_lanes_run(L, 0, 4, NULL, NULL, no_row, NULL) : 1;
        check_restored(d, "a failing lane (slpi_ens_lanes_run)");
        TEST_CHECKF(rc == 1, "model with a pole: slpi_ens_lanes_run gave %d under %s", rc, dir_name[d]);
        slpi_ens_lanes_free(L);
        slpi_stepper *s = NULL;
        double xs[3 * 9];
        long got = 0;
        caller_sets(d);
        rc = ok ? slpi_stepper_new(&s, p, 0, NULL, 0) : SLPI_EINPUT;
        if (rc == SLPI_OK) rc = slpi_stepper_advance(s, 8, NULL, 1, xs, NULL, NULL, NULL, NULL, NULL, &got);
        check_restored(d, "a failing stepper");
        TEST_CHECKF(rc != SLPI_OK, "model with a pole: the stepper did not fail under %s", dir_name[d]);
        slpi_stepper_free(s);
        slpi_ensemble_free(e);
        slpi_problem_free(p);
    }
}

/* A model whose constants are decimals that no binary64 holds (0.05, 0.1, 1.5). */
static void check_model(void)
{
    static const char *const keys[][2] = {
        { "system", "model" },
        { "algebra", "so3" },
        { "param.q", "0.05" },
        { "H", "x1^2/2 + x2^2 + 1.5*x3^2 + q*x1^4 + 0.1*cos(x2)" },
        { "noise_H1", "0.1*sin(x1*x2)" },
        { "x0", "1,0.5,0.2" },
        { "h", "0.01" },
        { "steps", "3" },
        { "scheme", "isomp" },
    };
    double want[4 * 3], got[4 * 3];
    for (int d = 0; d < NDIR; d++) {
        caller_sets(d);
        slpi_problem *p = slpi_problem_new(NULL);
        int ok = p != NULL;
        for (size_t i = 0; ok && i < sizeof keys / sizeof *keys; i++)
            ok = slpi_problem_set_key(p, keys[i][0], keys[i][1]) == SLPI_OK;
        ok = ok && slpi_integrate(p, d ? got : want, NULL) == SLPI_OK;
        check_restored(d, "a model");
        TEST_CHECKF(ok, "model under %s: %s", dir_name[d], slpi_api_last_error());
        if (d) TEST_CHECKF(same_bits(got, want, 12), "model: the trajectory under %s differs", dir_name[d]);
        slpi_problem_free(p);
    }
}

int main(void)
{
    test_start("t-rounding", 71202611);
    check_decimals();
    check_model();
    check_failures();
    check_pool("iso/rigid-body/trajectories");          /* the lanes */
    check_pool("rkmk/heavy-top/stoch-421-realization"); /* the general route */
    int presets = 0, runs = 0, per_scheme[SLPI_SCHEME_COUNT] = { 0 };
    for (const slpi_preset *ps = slpi_presets(); ps->name; ps++) {
        presets++;
        check_keys(ps->name);
        check_certified(ps->name);
        check_diagnostics(ps->name);
        if (strstr(ps->name, "/rigid-body/")) check_lanes(ps->name);
        for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
            int r = check_trajectory(ps->name, slpi_scheme_name((slpi_scheme_id)k));
            per_scheme[k] += r;
            runs += r;
        }
    }
    for (int k = 0; k < SLPI_SCHEME_COUNT; k++)
        TEST_CHECKF(per_scheme[k] >= 2, "scheme %s ran on %d presets only", slpi_scheme_name((slpi_scheme_id)k),
                    per_scheme[k]);
    TEST_CHECKF(lanes_runs >= 4, "the lanes ran %d presets only", lanes_runs);
    printf("t-rounding: %d presets, %d preset x scheme trajectories, %d on the lanes, %d restorations checked, "
           "%d caller modes\n",
           presets, runs, lanes_runs, restored_checks, NDIR);
    TEST_END();
}
