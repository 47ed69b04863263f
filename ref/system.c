/* ref/system.c — system dispatch: p->system to the system files' constructors
 * (slpi_ref_sys_<system>), and the table's release. Nothing below it calls back: the
 * helpers the system and scheme files share live in ref/vector-field.c and ref/vec.c. */
#include <string.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/plan.h"
#include "core/view-system.h"
#include "ref/system.h"

int slpi_ref_system_init(slpi_ref_system *s, const slpi_problem *p, const slpi_plan *plan, slpi_error *err)
{
    const slpi_system_view *sys = slpi_view_system(p);
    int rc;
    memset(s, 0, sizeof *s); /* the constructors fill what they have; every other slot reads NULL */
    switch (sys->system) {
    case SLPI_SYS_RIGID_BODY:
        rc = slpi_ref_sys_rigid_body(s, p, err);
        break;
    case SLPI_SYS_HEAVY_TOP:
        rc = slpi_ref_sys_heavy_top(s, p, err);
        break;
    case SLPI_SYS_MANAKOV:
        rc = slpi_ref_sys_manakov(s, p, err);
        break;
    case SLPI_SYS_POINT_VORTICES:
        rc = slpi_ref_sys_point_vortices(s, p, err);
        break;
    case SLPI_SYS_EULER_ZEITLIN:
        rc = slpi_ref_sys_euler_zeitlin(s, p, err);
        break;
    case SLPI_SYS_SINE_EULER:
        rc = slpi_ref_sys_sine_euler(s, p, err);
        break;
    case SLPI_SYS_MODEL:
        rc = plan ? slpi_ref_sys_model(s, p, plan, err)
                  : slpi_error_set(err, SLPI_EINPUT, "ref: a model's system needs its plan");
        break;
    default:
        return slpi_error_set(err, SLPI_EINPUT, "ref: unknown system id %d", (int)sys->system);
    }
    s->name = slpi_system_name(sys->system);
    return rc;
}

void slpi_ref_system_clear(slpi_ref_system *s)
{
    if (s->clear != NULL) s->clear(s);
    s->data = NULL;
}
