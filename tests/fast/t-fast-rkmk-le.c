/* t-fast-rkmk-le.c — unit test of stochastic Lie–Euler RKMK (fast/rkmk.c) on the
 * double path: on every system the scheme applies to, the same steps computed two ways,
 * here and by the certified path, must agree within the oracle's budget, and a state off
 * by 1e-9 must not (tests/schemeutil.h). */
#include "schemeutil.h"

int main(void)
{
    test_start("t-fast-rkmk-le", 1);
    su_fast_vs_ref(SLPI_SCHEME_RKMK_LE);
    TEST_END();
}
