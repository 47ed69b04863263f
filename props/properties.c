/* props/properties.c — the property table (one entry per property file: prop-structure.c,
 * prop-geometry.c, prop-order.c, prop-agree.c), its lookup, and the verdict of one case: the property's
 * check against its expectation (docs/schemes.md#summary: holds, or a negative control
 * that must be violated). Tri-state: UNABLE (solver failure, no enclosure) is never a PASS. */
#include <string.h>

#include "props/props.h"

static const slpi_props_property *const table[] = {
    &slpi_props_prop_casimir,      &slpi_props_prop_energy,       &slpi_props_prop_reversible,
    &slpi_props_prop_equivariance, &slpi_props_prop_poisson,      &slpi_props_prop_ref_fast,
    &slpi_props_prop_order_det,    &slpi_props_prop_order_strong, &slpi_props_prop_order_control,
    &slpi_props_prop_order_weak,   &slpi_props_prop_agree,
};
#define NPROPS ((int)(sizeof table / sizeof table[0]))

int slpi_props_property_count(void)
{
    return NPROPS;
}
const slpi_props_property *slpi_props_property_get(int i)
{
    return i >= 0 && i < NPROPS ? table[i] : NULL;
}

int slpi_props_property_find(const char *name)
{
    for (int i = 0; i < NPROPS; i++)
        if (strcmp(table[i]->name, name) == 0) return i;
    return -1;
}

int slpi_props_verdict(const slpi_props_case *c, int use_ref, slpi_props_outcome *o)
{
    return slpi_props_verdict_with(table[c->prop], c, use_ref, o);
}

const char *slpi_props_why_not(const slpi_props_property *P, const slpi_props_case *c, int ref)
{
    return P->why_not ? P->why_not(c, ref) : NULL;
}

int slpi_props_verdict_with(const slpi_props_property *P, const slpi_props_case *c, int use_ref, slpi_props_outcome *o)
{
    memset(o, 0, sizeof *o);
    slpi_props_expect e = P->expect(c);
    if (e == SLPI_PROPS_NA) {
        slpi_props_outcome_unable(o, "not claimed for this scheme/system (docs/schemes.md#summary)");
        return -1;
    }
    P->check(c, use_ref && !slpi_props_why_not(P, c, 1), o);
    if (o->holds < 0) return -1;
    return o->holds == (e == SLPI_PROPS_HOLDS);
}
