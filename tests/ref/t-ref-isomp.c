/* t-ref-isomp.c — unit test of the isospectral midpoint method (ref/isomp.c) on the
 * certified path: the steps at 128 and at 256 bits overlap (both contain the exact step)
 * and the wider precision is narrower; and the scheme keeps every Casimir (its balls of C - C(x0) contain 0), on every system it applies to
 * (tests/schemeutil.h). */
#include "schemeutil.h"

int main(void)
{
    test_start("t-ref-isomp", 1);
    su_ref_structure(SLPI_SCHEME_ISOMP, SU_KEEPS_CASIMIRS);
    TEST_END();
}
