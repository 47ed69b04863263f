/* t-fpmode.c — the double path's floating-point mode (core/fpmode.h,
 * docs/conventions.md#subnormals): setting and restoring a thread's mode, that the mode
 * flushes a subnormal product, that the team's helper threads take the mode of the
 * caller of each job, and that slpi_fast_step, for every scheme of the rigid body, writes
 * no subnormal where IEEE arithmetic writes one and hands the caller back its own mode,
 * flushing or not, with the exception flags the step raised; so do the ensemble's lanes
 * where they take the scheme. The state (0, 1e-160, 1e-160) without noise makes x1's
 * step h c x2 x3, about 1e-321: a subnormal in IEEE arithmetic, 0 when flushed. */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/fpmode.h"
#include "api/ensemble-lanes.h"
#include "fast/team.h"
#include "slpi/fast.h"
#include "testutil.h"

static int lanes_seen; /* schemes x modes the lanes ran */
/* the processor keeps the mode's bits, honours the flush mode, keeps the exception flags
 * (valgrind's emulation does none of these: what it cannot show is said, not checked) */
static int keeps_bits, flushes, keeps_flags;

static int subnormal(double v)
{
    return v != 0 && fabs(v) < DBL_MIN;
}

/* The rigid body from (0, 1e-160, 1e-160), one step of h = 1/4, finished; *ok cleared when not. */
static slpi_problem *problem(const char *scheme, const char *form, const char *noise, int *ok)
{
    slpi_problem *p = slpi_problem_new(NULL);
    slpi_error err = { 0 };
    *ok = p && slpi_problem_set_key(p, "system", "rigid-body") == SLPI_OK &&
        slpi_problem_set_key(p, "scheme", scheme) == SLPI_OK &&
        (!form || slpi_problem_set_key(p, "form", form) == SLPI_OK) &&
        slpi_problem_set_key(p, "noise", noise) == SLPI_OK && slpi_problem_set_key(p, "h", "0.25") == SLPI_OK &&
        slpi_problem_set_key(p, "steps", "1") == SLPI_OK &&
        slpi_problem_set_key(p, "x0", "0,1e-160,1e-160") == SLPI_OK && slpi_problem_finish(p, &err) == SLPI_OK;
    TEST_CHECKF(*ok, "rigid-body/%s noise=%s: problem: %s %s", scheme, noise, err.msg, slpi_api_last_error());
    return p;
}

static void check_mode(void)
{
    slpi_fpmode m0 = slpi_fpmode_get();
    volatile double a = 0x1p-540, b = 0x1p-500, c;
#if defined(__SSE2__)
    unsigned csr0 = _mm_getcsr(); /* MXCSR alone: slpi_fpmode holds the x87's rounding bits too */
    _mm_setcsr(csr0 | 0x8040u);   /* the bits written directly, not through the header */
    keeps_bits = (_mm_getcsr() & 0x8040u) == 0x8040u;
    _mm_setcsr(csr0);
#else
    keeps_bits = 1;
#endif
    volatile double ia = 0x1.000004p-540, ib = 0x1.000004p-500; /* an inexact subnormal product: underflow */
    feclearexcept(FE_UNDERFLOW);
    c = ia * ib;
    keeps_flags = fetestexcept(FE_UNDERFLOW) != 0;
    slpi_fpmode prev = slpi_fpmode_set(0);
    TEST_CHECK(!slpi_fpmode_flushing());
    c = a * b;
    TEST_CHECKF(c == 0x1p-1040, "IEEE mode: 2^-540 2^-500 = %a", (double)c);
    slpi_fpmode_set(1);
    TEST_CHECK(!keeps_bits || slpi_fpmode_flushing() == (SLPI_FPMODE_FLUSH != 0));
    c = a * b;
    flushes = slpi_fpmode_flushing() && c == 0;
    slpi_fpmode_restore(prev);
    TEST_CHECK(slpi_fpmode_control(slpi_fpmode_get()) == slpi_fpmode_control(m0));
    if (!keeps_bits || !keeps_flags)
        printf("t-fpmode: this processor %s: not checked\n",
               !keeps_bits ? "keeps no mode bits (an emulator?)" : "keeps no exception flags (an emulator?)");
    if (!flushes)
        printf("t-fpmode: the flush mode %s here (2^-540 2^-500 = %a): the results are checked as IEEE's\n",
               SLPI_FPMODE_FLUSH == 0 ? "does not exist" : "is not honoured (an emulator?)", (double)c);
}

typedef struct {
    pthread_t caller;
    double out[64];
    int helper[64];
} team_ctx;

/* a unit: a subnormal product, and a little work so that the helpers take some units */
static void team_unit(void *ctx, int u)
{
    team_ctx *c = ctx;
    volatile double a = 0x1p-540, b = 0x1p-500, w = 1;
    for (int i = 0; i < 20000; i++) w = w * 1.0000001;
    c->out[u] = a * b + 0 * w;
    c->helper[u] = !pthread_equal(pthread_self(), c->caller);
}

/* The helpers flush exactly when the job's caller does: jobs until a helper has run a unit
 * in each mode (the caller may take every unit of a job on a busy machine). */
void openblas_set_num_threads(int n) __attribute__((weak));

static void check_team(void)
{
    if (openblas_set_num_threads) openblas_set_num_threads(1); /* else the team runs alone (fast/team.c) */
    omp_set_num_threads(2);
    for (int flush = 1; flush >= 0; flush--) {
        int by_helper = 0;
        for (int job = 0; job < 2000 && !by_helper; job++) {
            team_ctx c = { .caller = pthread_self() };
            slpi_fpmode prev = slpi_fpmode_set(flush);
            slpi_fast_team_run(SLPI_FAST_TEAM_MIN_N, 64, team_unit, &c);
            slpi_fpmode_restore(prev);
            for (int u = 0; u < 64; u++) {
                by_helper += c.helper[u];
                double want = flush && flushes ? 0 : 0x1p-1040;
                TEST_CHECKF(c.out[u] == want, "team, caller %s: unit %d (%s) gave %a", flush ? "flushing" : "IEEE", u,
                            c.helper[u] ? "a helper" : "the caller", c.out[u]);
            }
        }
        TEST_CHECKF(by_helper > 0, "team, caller %s: no helper ran a unit in 2000 jobs", flush ? "flushing" : "IEEE");
    }
    omp_set_num_threads(1);
}

static void last_row(void *ctx, long row, int n, const double *val)
{
    (void)n;
    if (row == 1) memcpy(ctx, val, 3 * sizeof(double));
}

/* The lanes of the ensemble (api/ensemble-lanes.c), where they take this scheme: one path,
 * in the lanes' form and noise (ISOMP: iso, iso-quad; SVI: svi, svi-lin), increments 0. */
static void check_lanes(const char *name, int caller_flushes)
{
    const char *noise = !strcmp(name, "isomp") ? "iso-quad" : !strcmp(name, "svi") ? "svi-lin" : NULL;
    if (!noise) return; /* the lanes run ISOMP and SVI only: the others' ensembles step */
    int ok;
    slpi_problem *p = problem(name, !strcmp(name, "isomp") ? "iso" : "svi", noise, &ok);
    slpi_ens_lanes *L = NULL;
    const char *why = "";
    slpi_error err = { 0 };
    slpi_plan *plan = NULL;
    ok = ok && slpi_problem_plan(&plan, p, &err) == SLPI_OK && slpi_ens_lanes_new(&L, plan, 1, &why, &err) == SLPI_OK &&
        L;
    slpi_plan_unref(plan);
    TEST_CHECKF(ok, "rigid-body/%s noise=%s: no lanes: %s %s", name, noise, why, err.msg);
    double dW[16] = { 0 };
    double x[3] = { 1, 1, 1 };
    slpi_fpmode prev = slpi_fpmode_set(caller_flushes), before = slpi_fpmode_control(slpi_fpmode_get());
    int bad = ok ? slpi_ens_lanes_run(L, 0, 1, NULL, dW, last_row, x) : 1;
    slpi_fpmode after = slpi_fpmode_control(slpi_fpmode_get());
    slpi_fpmode_restore(prev);
    TEST_CHECKF(!bad && after == before, "rigid-body/%s lanes: %d, mode %#llx left as %#llx", name, bad,
                (unsigned long long)before, (unsigned long long)after);
    TEST_CHECKF(!flushes ? fabs(x[0]) < 1e-300 : x[0] == 0, "rigid-body/%s lanes (caller %s): x[0] = %a", name,
                caller_flushes ? "flushing" : "IEEE", x[0]);
    lanes_seen++;
    if (L) slpi_ens_lanes_free(L);
    slpi_problem_free(p);
}

static void check_step(slpi_scheme_id k, int caller_flushes)
{
    const char *name = slpi_scheme_name(k);
    int ok;
    slpi_problem *p = problem(name, NULL, "none", &ok);
    slpi_error err = { 0 };
    slpi_fast *f = NULL;
    ok = ok && slpi_fast_create(&f, p, &err) == SLPI_OK;
    TEST_CHECKF(ok, "rigid-body/%s: %s", name, err.msg);
    double x[64] = { 0 }, dW[16] = { 0 };
    ok = ok && slpi_fast_initial_state(f, x, &err) == SLPI_OK;
    TEST_CHECKF(ok && x[0] == 0 && x[1] == 1e-160, "rigid-body/%s: initial state %a %a (%s)", name, x[0], x[1],
                err.msg);
    slpi_step_info info;
    slpi_fpmode prev = slpi_fpmode_set(caller_flushes), before = slpi_fpmode_control(slpi_fpmode_get());
    feclearexcept(FE_UNDERFLOW);
    slpi_step_status st = ok ? slpi_fast_step(f, x, dW, &info) : SLPI_STEP_INVALID;
    int underflowed = fetestexcept(FE_UNDERFLOW) != 0; /* x1's step underflows, flushed or not */
    slpi_fpmode after = slpi_fpmode_control(slpi_fpmode_get());
    slpi_fpmode_restore(prev);
    TEST_CHECKF(underflowed || !keeps_flags, "rigid-body/%s: the step's underflow flag was not kept for the caller",
                name);
    TEST_CHECKF(after == before, "rigid-body/%s: the step left the caller's mode %#llx as %#llx", name,
                (unsigned long long)before, (unsigned long long)after);
    TEST_CHECKF(ok && !slpi_step_failed(st), "rigid-body/%s: step status %d", name, (int)st);
    for (int i = 0; ok && i < 3; i++)
        TEST_CHECKF(!flushes ? fabs(x[i]) < 1e-300 || fabs(x[i] - 1e-160) < 1e-175
                             : !subnormal(x[i]) && (i > 0 || x[0] == 0),
                    "rigid-body/%s (caller %s): x[%d] = %a", name, caller_flushes ? "flushing" : "IEEE", i, x[i]);
    slpi_fast_free(f);
    slpi_problem_free(p);
    check_lanes(name, caller_flushes);
}

int main(void)
{
    test_start("t-fpmode", 25112520);
    check_mode();
    check_team();
    int schemes = 0;
    for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
        if (slpi_registry_pair(SLPI_SYS_RIGID_BODY, (slpi_scheme_id)k, NULL) == SLPI_NA) continue;
        schemes++;
        check_step((slpi_scheme_id)k, 0);
        check_step((slpi_scheme_id)k, 1);
    }
    TEST_CHECKF(schemes >= 6, "%d schemes apply to the rigid body", schemes);
    TEST_CHECKF(lanes_seen >= 4, "the lanes ran %d of the schemes x modes (ISOMP and SVI, expected)", lanes_seen);
    TEST_END();
}
