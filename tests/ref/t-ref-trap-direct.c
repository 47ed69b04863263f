/* t-ref-trap-direct.c — unit test of the trapezoidal rule on the state (ref/direct.c) on the
 * certified path: the steps at 128 and at 256 bits overlap (both contain the exact step)
 * and the wider precision is narrower; and the scheme breaks |x|^2 of the rigid body (its ball excludes 0), on every system it applies to
 * (tests/schemeutil.h). */
#include "schemeutil.h"

int main(void)
{
    test_start("t-ref-trap-direct", 1);
    su_ref_structure(SLPI_SCHEME_TRAP_DIRECT, SU_KEEPS_NONE);
    TEST_END();
}
