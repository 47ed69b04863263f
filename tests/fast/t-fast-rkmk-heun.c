/* t-fast-rkmk-heun.c — unit test of the RKMK Heun method (fast/rkmk.c) on the
 * double path: on every system the scheme applies to, the same steps computed two ways,
 * here and by the certified path, must agree within the oracle's budget, and a state off
 * by 1e-9 must not (tests/schemeutil.h). */
#include "schemeutil.h"

int main(void)
{
    test_start("t-fast-rkmk-heun", 1);
    su_fast_vs_ref(SLPI_SCHEME_RKMK_HEUN);
    TEST_END();
}
