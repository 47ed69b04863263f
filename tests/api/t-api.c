/* t-api.c — the handle API's one-call runs (api/api.c) computed a second way, with a
 * stepper one step at a time, bit for bit:
 *   - slpi_integrate: the rows at step 0, every output_every-th step and the last, and its
 *     counters (steps, iterations, max iterations) against the stepper's counts;
 *   - slpi_integrate_ensemble: each path's final state against a stepper restarted on
 *     that path (paths first..first+n-1, and different paths give different states);
 * and its refusals, each SLPI_EINPUT with its message and nothing done: an x0 of the
 * wrong length, an advance of a negative count or of more steps than are left, every < 0,
 * and a non-finite increment at the third step (two steps done, their two rows written,
 * position 2). The preset, step count and output_every vary with the printed seed. */
#include "slpi.h"
#include "testutil.h"

#define MAXROWS 128
#define DIM 3

static int same_bits(const double *a, const double *b, int n)
{
    return memcmp(a, b, (size_t)n * sizeof *a) == 0;
}

/* the problem: the rigid body's trajectory preset with STEPS steps and rows every EVERY */
static slpi_problem *problem(long steps, long every)
{
    slpi_problem *p = slpi_problem_new("iso/rigid-body/trajectories");
    char s[32], e[32];
    snprintf(s, sizeof s, "%ld", steps);
    snprintf(e, sizeof e, "%ld", every);
    TEST_CHECK(p && slpi_problem_set_key(p, "steps", s) == SLPI_OK &&
               slpi_problem_set_key(p, "output_every", e) == SLPI_OK);
    return p;
}

static void check_integrate(long steps, long every)
{
    slpi_problem *p = problem(steps, every);
    int dim, noises, ev;
    long nsteps, rows;
    double h;
    TEST_CHECK(slpi_problem_shape(p, &dim, &noises, &nsteps, &rows, &h, &ev) == SLPI_OK);
    TEST_CHECKF(dim == DIM && nsteps == steps && rows <= MAXROWS, "dim %d steps %ld rows %ld", dim, nsteps, rows);
    static double one[MAXROWS * DIM], two[MAXROWS * DIM];
    long counters[SLPI_FAST_NCOUNTERS];
    for (int i = 0; i < SLPI_FAST_NCOUNTERS; i++) counters[i] = -1;
    TEST_CHECKF(slpi_integrate(p, one, counters) == SLPI_OK, "slpi_integrate: %s", slpi_api_last_error());
    /* the same rows from a stepper, one step per advance */
    slpi_stepper *s = NULL;
    TEST_CHECK(slpi_stepper_new(&s, p, 0, NULL, 0) == SLPI_OK);
    long got = 1, r;
    slpi_stepper_row(s, two, NULL, NULL, NULL);
    for (long n = 0; n < steps; n++) {
        TEST_CHECK(slpi_stepper_advance(s, 1, NULL, every, two + got * DIM, NULL, NULL, NULL, NULL, NULL, &r) ==
                   SLPI_OK);
        TEST_CHECK(slpi_stepper_position(s) == n + 1);
        got += r;
    }
    TEST_CHECKF(got == rows, "stepper wrote %ld rows, slpi_problem_shape says %ld", got, rows);
    TEST_CHECKF(same_bits(one, two, (int)(rows * DIM)), "steps %ld every %ld: slpi_integrate's rows differ", steps,
                every);
    long counts[SLPI_STEPPER_NCOUNTS];
    slpi_stepper_counts(s, counts);
    TEST_CHECKF(counters[0] == steps && counters[1] == counts[SLPI_STEPPER_ITERATIONS] &&
                    counters[2] == counts[SLPI_STEPPER_MAX_ITERATIONS] && counters[5] == 0,
                "counters %ld %ld %ld .. %ld, stepper: %ld iterations, max %ld", counters[0], counters[1], counters[2],
                counters[5], counts[SLPI_STEPPER_ITERATIONS], counts[SLPI_STEPPER_MAX_ITERATIONS]);
    slpi_stepper_free(s);
    slpi_problem_free(p);
}

static void check_ensemble(long steps, uint64_t first, long npaths)
{
    slpi_problem *p = problem(steps, 1);
    static double finals[8 * DIM], x[DIM], x0[DIM];
    TEST_CHECKF(slpi_integrate_ensemble(p, first, npaths, finals) == SLPI_OK, "ensemble: %s", slpi_api_last_error());
    slpi_stepper *s = NULL;
    TEST_CHECK(slpi_stepper_new(&s, p, 0, NULL, 0) == SLPI_OK);
    slpi_stepper_row(s, x0, NULL, NULL, NULL);
    for (long k = 0; k < npaths; k++) {
        long r = 0;
        TEST_CHECK(slpi_stepper_restart(s, first + (uint64_t)k) == SLPI_OK);
        TEST_CHECK(slpi_stepper_advance(s, steps, NULL, steps + 1, x, NULL, NULL, NULL, NULL, NULL, &r) == SLPI_OK);
        TEST_CHECKF(r == 1, "path %ld: %ld rows", k, r);
        TEST_CHECKF(same_bits(finals + k * DIM, x, DIM), "steps %ld, path %llu: the ensemble's final state differs",
                    steps, (unsigned long long)(first + (uint64_t)k));
        TEST_CHECKF(!same_bits(x, x0, DIM), "path %ld: the final state is x0", k);
        if (k > 0)
            TEST_CHECKF(!same_bits(finals + k * DIM, finals + (k - 1) * DIM, DIM), "paths %ld and %ld end alike", k - 1,
                        k);
    }
    slpi_stepper_free(s);
    slpi_problem_free(p);
}

static void check_refusals(void)
{
    slpi_problem *p = problem(10, 1);
    slpi_stepper *s = (slpi_stepper *)p; /* must become NULL */
    const double two[2] = { 1, 0 };
    TEST_CHECK(slpi_stepper_new(&s, p, 0, two, 2) == SLPI_EINPUT && s == NULL);
    TEST_CHECKF(strstr(slpi_api_last_error(), "x0: 2 values given, the state has 3"), "x0 length: '%s'",
                slpi_api_last_error());
    TEST_CHECK(slpi_stepper_new(&s, p, 0, NULL, 0) == SLPI_OK);
    double x[10 * DIM], dW[4 * DIM] = { 0.01, -0.02, 0.01, 0.03, 0.02, -0.01, NAN, 0.01, 0.02, 0.03 };
    long rows = -1;
    struct {
        long count, every;
        const char *msg;
    } bad[] = {
        { -1, 1, "count outside" },
        { 11, 1, "count outside" },
        { 1, -1, "every must be >= 0" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = slpi_stepper_advance(s, bad[i].count, NULL, bad[i].every, x, NULL, NULL, NULL, NULL, NULL, &rows);
        TEST_CHECKF(rc == SLPI_EINPUT && strstr(slpi_api_last_error(), bad[i].msg) && rows == 0 &&
                        slpi_stepper_position(s) == 0,
                    "advance(%ld, every %ld): rc %d '%s', %ld rows, position %ld", bad[i].count, bad[i].every, rc,
                    slpi_api_last_error(), rows, slpi_stepper_position(s));
    }
    /* a NaN increment at the third step: two steps done and written, then the refusal */
    int rc = slpi_stepper_advance(s, 4, dW, 1, x, NULL, NULL, NULL, NULL, NULL, &rows);
    TEST_CHECKF(rc == SLPI_EINPUT && strstr(slpi_api_last_error(), "dW[2, 0] = nan: increments must be finite") &&
                    rows == 2 && slpi_stepper_position(s) == 2,
                "NaN increment: rc %d '%s', %ld rows, position %ld", rc, slpi_api_last_error(), rows,
                slpi_stepper_position(s));
    /* and the whole 10 steps are then still there to take */
    TEST_CHECK(slpi_stepper_advance(s, 8, NULL, 1, x, NULL, NULL, NULL, NULL, NULL, &rows) == SLPI_OK && rows == 8 &&
               slpi_stepper_position(s) == 10);
    slpi_stepper_free(s);
    slpi_problem_free(p);
}

int main(void)
{
    test_start("t-api", 11);
    for (int k = 0; k < (int)test_iters(3); k++) {
        long steps = 1 + test_rand_int(60), every = 1 + test_rand_int(9);
        check_integrate(steps, every);
        check_integrate(steps, steps); /* only step 0 and the last */
    }
    check_ensemble(1 + test_rand_int(20), (uint64_t)test_rand_int(1000), 4);
    check_refusals();
    TEST_END();
}
