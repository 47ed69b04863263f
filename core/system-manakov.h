/* core/system-manakov.h — the Manakov top's parameters, the member mk of the system view
 * (core/view-system.h); its descriptor is core/system-manakov.c. Not installed. */
#ifndef SLPI_CORE_SYSTEM_MANAKOV_H
#define SLPI_CORE_SYSTEM_MANAKOV_H

/* (SVI form: default state Pi0 = ht.pi0, R0 = rotation by ht.theta0 about e_1,
 *  Gamma0 = R0^T e_3; RKMK form: pi0 = gamma0 = sqrt2/2 (-1, 1, 0).) */
/* Manakov so(n) (docs/systems.md#manakov) */
typedef struct {
    int n;
    double amp;
    int noise;
} slpi_mk_params;

#endif
