/* ref/system.c — system dispatch: p->system to the system files' constructors
 * (slpi_ref_sys_<system>, a table by slpi_system_id), and the table's release. Nothing
 * below it calls back: the helpers the system and scheme files share live in
 * ref/vector-field.c and ref/vec.c. */
#include <string.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/plan.h"
#include "core/view-system.h"
#include "ref/system.h"

/* The system files' constructors (ref/<name>.c), indexed by slpi_system_id (a model's
 * system is built from its plan); a built-in system without its row is refused by name
 * (tests/core/t-system.c builds every one). */
slpi_ref_system_ctor slpi_ref_sys_rigid_body, slpi_ref_sys_heavy_top, slpi_ref_sys_manakov, slpi_ref_sys_point_vortices,
    slpi_ref_sys_euler_zeitlin, slpi_ref_sys_sine_euler;
static slpi_ref_system_ctor *const system_ctor[SLPI_SYS_COUNT] = {
    [SLPI_SYS_RIGID_BODY] = slpi_ref_sys_rigid_body,
    [SLPI_SYS_HEAVY_TOP] = slpi_ref_sys_heavy_top,
    [SLPI_SYS_MANAKOV] = slpi_ref_sys_manakov,
    [SLPI_SYS_POINT_VORTICES] = slpi_ref_sys_point_vortices,
    [SLPI_SYS_EULER_ZEITLIN] = slpi_ref_sys_euler_zeitlin,
    [SLPI_SYS_SINE_EULER] = slpi_ref_sys_sine_euler,
};

int slpi_ref_system_init(slpi_ref_system *s, const slpi_problem *p, const slpi_plan *plan, slpi_error *err)
{
    const slpi_system_view *sys = slpi_view_system(p);
    int rc;
    memset(s, 0, sizeof *s); /* the constructors fill what they have; every other slot reads NULL */
    if ((unsigned)sys->system >= SLPI_SYS_COUNT)
        return slpi_error_set(err, SLPI_EINPUT, "ref: unknown system id %d", (int)sys->system);
    if (sys->system == SLPI_SYS_MODEL)
        rc = plan ? slpi_ref_sys_model(s, p, plan, err)
                  : slpi_error_set(err, SLPI_EINPUT, "ref: a model's system needs its plan");
    else if (system_ctor[sys->system])
        rc = system_ctor[sys->system](s, p, err);
    else
        return slpi_error_set(err, SLPI_EINPUT, "ref: system %s has no row in ref/system.c's table",
                              slpi_system_name(sys->system));
    s->name = slpi_system_name(sys->system);
    return rc;
}

void slpi_ref_system_clear(slpi_ref_system *s)
{
    if (s->clear != NULL) s->clear(s);
    s->data = NULL;
}
