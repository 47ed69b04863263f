/* slpi/registry.h — the systems, the schemes and which pairs apply (part of slpi.h). */
#ifndef SLPI_PUBLIC_REGISTRY_H
#define SLPI_PUBLIC_REGISTRY_H

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- registry */

typedef enum {
    SLPI_SYS_RIGID_BODY,
    SLPI_SYS_HEAVY_TOP,
    SLPI_SYS_MANAKOV,
    SLPI_SYS_POINT_VORTICES,
    SLPI_SYS_EULER_ZEITLIN,
    SLPI_SYS_SINE_EULER,
    SLPI_SYS_MODEL, /* a model described as data (docs/models.md) */
    SLPI_SYS_COUNT
} slpi_system_id;

typedef enum {
    SLPI_SCHEME_TMK,
    SLPI_SCHEME_RKMK_LE,
    SLPI_SCHEME_RKMK_HEUN,
    SLPI_SCHEME_IM_DIRECT,
    SLPI_SCHEME_TRAP_DIRECT,
    SLPI_SCHEME_ISOMP,
    SLPI_SCHEME_SVI,
    SLPI_SCHEME_COUNT
} slpi_scheme_id;

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
