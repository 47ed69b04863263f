/* t-provenance.c — run first (alphabetically after nothing it depends on): prints the
 * library versions this build sees and fails on a header/library mismatch (à la MPFR's
 * tversion). Also checks that the provenance block names every library. */
#include "slpi.h"
#include "testutil.h"

int main(void)
{
    test_start("t-provenance", 4);
    slpi_error err = { 0, "" };
    slpi_provenance_write(stdout, "  ");
    int rc = slpi_provenance_check(&err);
    TEST_CHECKF(rc == SLPI_OK, "%s", err.msg);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    slpi_provenance_write(f, "# ");
    fclose(f);
    /* Arb's line names the generation built against (core/slpi-flint.h) */
    const char *const need[] = { "# slpi_version=",
                                 "# git_rev=",
                                 SLPI_FLINT_GENERATION == 3 ? "# arb=flint 3." : "# arb=2.",
                                 "# flint=",
                                 "# mpfr=",
                                 "# gmp=",
                                 "# openblas=",
                                 "# libc=glibc",
                                 "# compiler=",
                                 "# cflags=",
                                 "# fp=contraction off (probed), fast-math off" };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        TEST_CHECKF(strstr(buf, need[i]) != NULL, "provenance lacks %s", need[i]);
    TEST_CHECK(strstr(buf, "-ffp-contract=off") != NULL);
    /* the whole arb= line against the library's own version string, read here without
     * the provenance's macro (on FLINT 2 a line printing FLINT's version would
     * have passed the prefix check): Arb's arb_version, or FLINT 3's flint_version */
    char want[160];
#if SLPI_FLINT_GENERATION == 3
    snprintf(want, sizeof want, "\n# arb=flint %s\n", flint_version);
#else
    snprintf(want, sizeof want, "\n# arb=%s\n", arb_version);
#endif
    TEST_CHECKF(strstr(buf, want) != NULL, "provenance's arb line is not '%.*s'", (int)strlen(want) - 2, want + 1);
    free(buf);
    TEST_END();
}
