/* kinds.h — the double inputs of the su(N) route's tests (tests/ref/t-ref-zeitlin-mr.c,
 * tests/ref/t-ref-isomp-mr.c): Gaussian entries (plain), entries spread over 60 binades,
 * and a tenth of them subnormal. */
#ifndef SLPI_TESTS_KINDS_H
#define SLPI_TESTS_KINDS_H

#include "testutil.h"

enum { K_PLAIN, K_BINADES, K_SUBNORMAL, K_COUNT };
static const char *const kind_name[K_COUNT] = { "plain", "binades", "subnormal" };

static inline double gauss(void)
{
    double u = test_rand_uniform(1e-300, 1), v = test_rand_uniform(0, 1);
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* one entry of the given kind */
static inline double entry(int kind)
{
    double x = gauss();
    if (kind == K_BINADES) return ldexp(x, (int)test_rand_int(61) - 30);
    if (kind == K_SUBNORMAL && test_rand_int(10) == 0) return ldexp(x, -1060);
    return x;
}

#endif
