/* registry.c — the schemes' names and the SVI form in force. The systems' names and the
 * applicability matrix of docs/systems.md#applicability are the descriptors' (each system's
 * name and row in core/system-<name>.c, looked up by core/system.c). Problem-dependent
 * refinements (noise model, size, sign variant) are applied by slpi_problem_validate in
 * core/problem-validate.c. */
#include <string.h>

#include "core/problem-struct.h"
#include "slpi/registry.h"
#include "core/expr.h"

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

slpi_svi_form slpi_registry_svi_form(const slpi_problem *p)
{
    if (p->sch.svi_form != SLPI_SVI_FORM_AUTO) return p->sch.svi_form;
    if (p->sys.system == SLPI_SYS_RIGID_BODY) return SLPI_SVI_FORM_SO3;
    const slpi_algebra *a = slpi_problem_algebra(p);
    if (a && a->kind == SLPI_ALGEBRA_SO3) return SLPI_SVI_FORM_SO3; /* a model on so3: its vector form */
    if (p->sys.system == SLPI_SYS_HEAVY_TOP) return SLPI_SVI_FORM_SD;
    return SLPI_SVI_FORM_LP;
}
