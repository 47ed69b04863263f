/* slpi/registry.h — the systems' and schemes' names and which pairs apply (part of
 * slpi.h); their ids are slpi/registry-ids.h's, which it includes. */
#ifndef SLPI_PUBLIC_REGISTRY_H
#define SLPI_PUBLIC_REGISTRY_H

#include "slpi/registry-ids.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- registry */

/* docs/systems.md#applicability: P = used in a paper, E = supported extension, N/A = not applicable. */
typedef enum { SLPI_NA = 0, SLPI_PAPER = 1, SLPI_EXTENSION = 2 } slpi_applicability;

const char *slpi_system_name(slpi_system_id s);
const char *slpi_scheme_name(slpi_scheme_id k);
int slpi_system_from_name(const char *name, slpi_system_id *out);
int slpi_scheme_from_name(const char *name, slpi_scheme_id *out);
/* The static matrix of docs/systems.md#applicability (reason: why N/A, or a remark).
 * NULL: reason (not asked). */
slpi_applicability slpi_registry_pair(slpi_system_id s, slpi_scheme_id k, const char **reason);

#ifdef __cplusplus
}
#endif
#endif
