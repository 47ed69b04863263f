/* convutil.h — one coupled level of a convergence study computed directly, for the tests
 * that recompute studies/converge.c path by path (t-converge, t-converge-fail): level l
 * of the study's problem, its initial state, and its 2^l steps' increments on noise path
 * p, summed from the reference level L's Brownian path and clipped as the problem
 * truncates (docs/noise.md), as the engine couples the levels. */
#ifndef SLPI_TESTS_CONVUTIL_H
#define SLPI_TESTS_CONVUTIL_H

#include "core/problem-struct.h"
#include "testutil.h"
#include "slpi.h"

#define CONV_MAX_LEVEL 10
#define CONV_MAX_NOISES 3

/* The double path of level l (NULL on a failure, in err), x its initial state, dw[n][k]
 * the increments of step n and Wiener process k (M <= CONV_MAX_NOISES, l <= CONV_MAX_LEVEL). */
static slpi_fast *conv_level(const slpi_problem *base, int l, int L, long p, double *x, double dw[][CONV_MAX_NOISES],
                             slpi_error *err)
{
    slpi_problem q = *base;
    q.grid.level = l;
    slpi_fast *f = NULL;
    int M = slpi_problem_noise_count(base);
    TEST_CHECKF(l <= CONV_MAX_LEVEL && M <= CONV_MAX_NOISES, "conv_level: level %d, %d noises", l, M);
    if (slpi_problem_finish(&q, err) != SLPI_OK || slpi_fast_create(&f, &q, err) != SLPI_OK ||
        slpi_fast_initial_state(f, x, err) != SLPI_OK) {
        slpi_fast_free(f);
        return NULL;
    }
    double D = slpi_noise_threshold(q.grid.h, q.noise.trunc_ell), z[1 << CONV_MAX_LEVEL];
    for (int k = 0; k < M; k++) {
        slpi_noise_increments(q.noise.seed, (uint64_t)p, (uint32_t)k, q.grid.h, L - l, 0, (size_t)1 << l, z, NULL);
        if (slpi_problem_truncates(&q)) slpi_noise_clip(z, (size_t)1 << l, D);
        for (int n = 0; n < 1 << l; n++) dw[n][k] = z[n];
    }
    return f;
}

#endif
