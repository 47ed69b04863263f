/* t-fast-svi.c — unit test of the stochastic variational integrator (fast/svi.c) on the
 * double path: on every system the scheme applies to, the same steps computed two ways,
 * here and by the certified path, must agree within the oracle's budget, and a state off
 * by 1e-9 must not (tests/schemeutil.h). */
#include "schemeutil.h"

int main(void)
{
    test_start("t-fast-svi", 1);
    su_fast_vs_ref(SLPI_SCHEME_SVI);
    TEST_END();
}
