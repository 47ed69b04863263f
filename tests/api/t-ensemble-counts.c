/* t-ensemble-counts.c — an ensemble counts the increments its truncation clipped and the
 * steps it capped (slpi_ensemble_counts; api/ensemble.c, api/ensemble-lanes.c):
 *  - iso/rigid-body/weak (3 noises) at trunc_ell = 0.5 (about 4 % of the increments clipped),
 *    300 paths of 64 steps: the clipped count on the lanes and on the general route (2
 *    threads each) equals the count made here from the canonical increments themselves
 *    (slpi_noise_increments per path and component, |dW| > D(h, ell) by comparison);
 *  - with on_cap=accept and maxit=1, the capped steps counted on both routes agree and are
 *    more than 0.
 * Exact counts, no tolerance. The seed (SLPI_TEST_SEED) is the problem's noise seed. */
#include <math.h>

#include "core/problem-struct.h"
#include "slpi.h"
#include "testutil.h"

enum { PATHS = 300, STEPS = 64 };

static slpi_problem *make(uint64_t seed, int capped)
{
    slpi_error err = { 0, "" };
    slpi_problem *p = NULL;
    char s[32];
    snprintf(s, sizeof s, "%llu", (unsigned long long)seed);
    int rc = test_problem(&p, "iso/rigid-body/weak", STEPS, &err);
    if (rc == SLPI_OK) rc = slpi_problem_set_key(p, "seed", s);
    if (rc == SLPI_OK) rc = slpi_problem_set_key(p, "trunc_ell", "0.5");
    if (rc == SLPI_OK && capped) rc = slpi_problem_set_key(p, "on_cap", "accept");
    if (rc == SLPI_OK && capped) rc = slpi_problem_set_key(p, "maxit", "1");
    TEST_CHECKF(rc == SLPI_OK, "problem: %s", slpi_api_last_error());
    return p;
}

/* clipped, capped of the ensemble of p on the lanes (lanes 1) or the general route */
static void counts(const slpi_problem *p, int lanes, long *clipped, long *capped, char *route, size_t n)
{
    slpi_ensemble *e = NULL;
    TEST_CHECKF(slpi_ensemble_new(&e, p, 0, 0, STEPS, 2) == SLPI_OK, "%s", slpi_api_last_error());
    if (!e) return;
    slpi_ensemble_set_lanes(e, lanes);
    TEST_CHECKF(slpi_ensemble_run(e, PATHS, NULL, NULL, NULL, NULL, NULL, NULL) == SLPI_OK, "%s",
                slpi_api_last_error());
    slpi_ensemble_counts(e, clipped, capped);
    snprintf(route, n, "%s", slpi_ensemble_route(e));
    slpi_ensemble_free(e);
}

int main(void)
{
    test_start("t-ensemble-counts", 5);
    uint64_t seed = test_rng_state_;
    slpi_problem *p = make(seed, 0);
    slpi_problem q = *p;
    slpi_error err = { 0, "" };
    TEST_CHECKF(slpi_problem_finish(&q, &err) == SLPI_OK, "%s", err.msg);
    double D = slpi_noise_threshold(q.grid.h, q.noise.trunc_ell), dw[STEPS];
    long want = 0;
    for (long k = 0; k < PATHS; k++)
        for (int c = 0; c < slpi_problem_noise_count(&q); c++) {
            TEST_CHECK(slpi_noise_increments(q.noise.seed, (uint64_t)k, (uint32_t)c, q.grid.h, 0, 0, STEPS, dw, NULL) ==
                       SLPI_OK);
            for (int i = 0; i < STEPS; i++) want += dw[i] > D || dw[i] < -D;
        }
    long cl[2], ca[2];
    char route[2][200];
    counts(p, 1, &cl[0], &ca[0], route[0], sizeof route[0]);
    counts(p, 0, &cl[1], &ca[1], route[1], sizeof route[1]);
    printf("clipped: direct %ld, %s %ld, %s %ld (of %d increments)\n", want, route[0], cl[0], route[1], cl[1],
           PATHS * STEPS * 3);
    TEST_CHECKF(!strcmp(route[0], "lanes"), "the lanes did not run: %s", route[0]);
    TEST_CHECKF(want > 0 && cl[0] == want && cl[1] == want, "clipped: direct %ld, lanes %ld, general %ld", want, cl[0],
                cl[1]);
    slpi_problem_free(p);

    p = make(seed, 1);
    counts(p, 1, &cl[0], &ca[0], route[0], sizeof route[0]);
    counts(p, 0, &cl[1], &ca[1], route[1], sizeof route[1]);
    printf("capped (on_cap=accept, maxit=1): %s %ld, %s %ld\n", route[0], ca[0], route[1], ca[1]);
    TEST_CHECKF(ca[0] > 0 && ca[0] == ca[1], "capped: lanes %ld, general %ld", ca[0], ca[1]);
    slpi_problem_free(p);
    TEST_END();
}
