/* slpi/registry-ids.h — the systems and the schemes by id (part of slpi.h; included by
 * slpi/registry.h, whose functions name them and say which pairs apply). */
#ifndef SLPI_PUBLIC_REGISTRY_IDS_H
#define SLPI_PUBLIC_REGISTRY_IDS_H

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif
#endif
