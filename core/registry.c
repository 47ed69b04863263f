/* registry.c — the schemes' names. The systems' names, the applicability matrix of
 * docs/systems.md#applicability, the SVI form in force and the BLAS route are the
 * descriptors' (each system's in core/system-<name>.c, looked up by core/system.c).
 * Problem-dependent refinements (noise model, size, sign variant) are applied by
 * slpi_problem_validate in core/problem-validate.c. */
#include <string.h>

#include "slpi/registry.h"

static const char *const scheme_names[] = {
    [SLPI_SCHEME_TMK] = "tmk",
    [SLPI_SCHEME_RKMK_LE] = "rkmk-le",
    [SLPI_SCHEME_RKMK_HEUN] = "rkmk-heun",
    [SLPI_SCHEME_IM_DIRECT] = "im-direct",
    [SLPI_SCHEME_TRAP_DIRECT] = "trap-direct",
    [SLPI_SCHEME_ISOMP] = "isomp",
    [SLPI_SCHEME_SVI] = "svi",
};
_Static_assert(sizeof scheme_names / sizeof scheme_names[0] == SLPI_SCHEME_COUNT, "core/registry.c: one name a scheme");

const char *slpi_scheme_name(slpi_scheme_id k)
{
    return (unsigned)k < SLPI_SCHEME_COUNT ? scheme_names[k] : "?";
}

int slpi_scheme_from_name(const char *name, slpi_scheme_id *out)
{
    for (int i = 0; i < SLPI_SCHEME_COUNT; i++)
        if (strcmp(name, scheme_names[i]) == 0) {
            *out = (slpi_scheme_id)i;
            return 0;
        }
    return -1;
}
