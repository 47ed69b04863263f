/* t-fast-tmk.c — unit test of the Munthe-Kaas-type Lie-group method (fast/tmk.c) on the
 * double path: on every system the scheme applies to, the same steps computed two ways,
 * here and by the certified path, must agree within the oracle's budget, and a state off
 * by 1e-9 must not (tests/schemeutil.h). */
#include "schemeutil.h"

int main(void)
{
    test_start("t-fast-tmk", 1);
    su_fast_vs_ref(SLPI_SCHEME_TMK);
    TEST_END();
}
