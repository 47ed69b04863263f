/* t-ref-im-direct.c — unit test of the implicit midpoint rule on the state (ref/direct.c) on the
 * certified path: the steps at 128 and at 256 bits overlap (both contain the exact step)
 * and the wider precision is narrower; and the scheme keeps the quadratic Casimirs and breaks the cubic C3 of Euler–Zeitlin, on every system it applies to
 * (tests/schemeutil.h). */
#include "schemeutil.h"

int main(void)
{
    test_start("t-ref-im-direct", 1);
    su_ref_structure(SLPI_SCHEME_IM_DIRECT, SU_KEEPS_QUADRATIC);
    TEST_END();
}
