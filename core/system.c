/* system.c — the built-in systems' descriptors (core/system.h), indexed by slpi_system_id
 * with designated initializers: each system's knowledge is its file core/system-<name>.c;
 * here only the index and its look-ups: a system's descriptor, its name, its row of the
 * applicability matrix, the SVI form in force and the BLAS route (what several descriptors share: core/system-shared.c). */
#include <stddef.h>
#include <string.h>

#include "slpi/registry.h"
#include "core/system.h"
#include "core/system-list.h"
#include "core/problem-struct.h"
#include "core/expr.h"

#define SLPI_SYSTEM_DECLARE(ID, stem, params, member) extern const slpi_system_desc slpi_system_##stem;
SLPI_SYSTEM_LIST(SLPI_SYSTEM_DECLARE)
#undef SLPI_SYSTEM_DECLARE

/* the index, one row a line of core/system-list.h */
#define SLPI_SYSTEM_ROW(ID, stem, params, member) [SLPI_SYS_##ID] = &slpi_system_##stem,
static const slpi_system_desc *const systems[] = { SLPI_SYSTEM_LIST(SLPI_SYSTEM_ROW) };
#undef SLPI_SYSTEM_ROW
/* one row a system: a last id without its row leaves the table short, a row without its id
 * makes it long; a hole reads NULL, which tests/core/t-system.c names with every empty slot */
_Static_assert(sizeof systems / sizeof systems[0] == SLPI_SYS_COUNT, "core/system.c: one descriptor per system id");

const slpi_system_desc *slpi_system_get(slpi_system_id s)
{
    return (unsigned)s < SLPI_SYS_COUNT ? systems[s] : NULL;
}

const char *slpi_system_name(slpi_system_id s)
{
    return (unsigned)s < SLPI_SYS_COUNT ? slpi_system_get(s)->name : "?";
}

int slpi_system_from_name(const char *name, slpi_system_id *out)
{
    for (int i = 0; i < SLPI_SYS_COUNT; i++)
        if (strcmp(name, slpi_system_get((slpi_system_id)i)->name) == 0) {
            *out = (slpi_system_id)i;
            return 0;
        }
    return -1;
}

slpi_applicability slpi_registry_pair(slpi_system_id s, slpi_scheme_id k, const char **reason)
{
    if ((unsigned)s >= SLPI_SYS_COUNT || (unsigned)k >= SLPI_SCHEME_COUNT) {
        if (reason) *reason = "unknown system or scheme";
        return SLPI_NA;
    }
    const slpi_system_cell *c = &slpi_system_get(s)->applicability[k];
    if (reason) *reason = c->reason;
    return c->a;
}

slpi_svi_form slpi_registry_svi_form(const slpi_problem *p)
{
    if (p->sch.svi_form != SLPI_SVI_FORM_AUTO) return p->sch.svi_form;
    slpi_svi_form own = slpi_system_get(p->sys.system)->svi_form; /* the system's vector form */
    if (own != SLPI_SVI_FORM_LP) return own;
    const slpi_algebra *a = slpi_problem_algebra(p);
    if (a && a->kind == SLPI_ALGEBRA_SO3) return SLPI_SVI_FORM_SO3; /* a model on so3: its vector form */
    return SLPI_SVI_FORM_LP;
}

int slpi_registry_blas_route(const slpi_problem *p)
{
    return slpi_system_get(p->sys.system)->blas_route;
}
