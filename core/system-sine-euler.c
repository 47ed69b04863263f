/* system-sine-euler.c — the sine-Euler system on su(N), N odd (docs/systems.md#sine-euler):
 * its descriptor (core/system.h). */
#include <stddef.h>
#include <stdio.h>

#include "core/problem-struct.h"
#include "core/system.h"
#include "core/problem-key-table.h"

static int state_dim(const slpi_problem *p)
{
    return p->sys.se.N * p->sys.se.N;
}

static int noise_count(const slpi_problem *p)
{
    return p->sys.se.noise ? 2 : 0;
}

static void state_name(const slpi_problem *p, int i, char *buf, size_t n)
{
    slpi_system_sun_name(p->sys.se.N, i, buf, n);
}

static int truncates(const slpi_problem *p)
{
    (void)p;
    return 0;
}

static int layout_algebra(const slpi_problem *p, char *buf, size_t n)
{
    snprintf(buf, n, "su(%d)", p->sys.se.N);
    return 1;
}

static int le_consistent(const slpi_problem *p, const char **why)
{
    *why = p->sys.se.noise ? "SALT noise: linear H_k" : "no noise";
    return 1;
}

#define OFF(f) offsetof(slpi_problem, f)
static const char *const e_se_noise[] = { "none", "two-mode", NULL };
static const char *const e_se_ic[] = { "canonical", "random", "complex", NULL };
/* the system's keys (core/problem-key-table.h), in `slpi list --keys` order */
// clang-format off
static const slpi_key_def keys[] = {
    { "N", SLPI_SYS_SINE_EULER, K_INT, OFF(sys.se.N), 0, NULL, 3, 99, "su(N), N odd" },
    { "amp", SLPI_SYS_SINE_EULER, K_DOUBLE, OFF(sys.se.amp), 0, NULL, 0, 1e6, "noise amplitude (0.1)" },
    { "noise", SLPI_SYS_SINE_EULER, K_ENUM, OFF(sys.se.noise), 0, e_se_noise, 0, 0, "none | two-mode (modes (1,1) and (1,-1))" },
    { "ic", SLPI_SYS_SINE_EULER, K_ENUM, OFF(sys.se.ic), 0, e_se_ic, 0, 0, "canonical | random | complex" },
    { "ic_seed", SLPI_SYS_SINE_EULER, K_U64, OFF(sys.se.ic_seed), 0, NULL, 0, 0, "seed of a random initial condition" },
};
// clang-format on
#undef OFF

/* clang-format off */
const slpi_system_desc slpi_system_sine_euler = {
    .name = "sine-euler",
    .applicability = {
        [SLPI_SCHEME_TMK] = { SLPI_PAPER, "RKMK §6" },
        [SLPI_SCHEME_RKMK_LE] = { SLPI_EXTENSION, "SALT noise: linear H_k, consistent" },
        [SLPI_SCHEME_RKMK_HEUN] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_IM_DIRECT] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_TRAP_DIRECT] = { SLPI_PAPER, "RKMK §6, Fig. 9" },
        [SLPI_SCHEME_ISOMP] = { SLPI_EXTENSION, "su(N) is J-quadratic" },
        [SLPI_SCHEME_SVI] = { SLPI_EXTENSION, "SVI-LP on U(N); c = -1/4 N/A" },
    },
    .state_dim = state_dim,
    .noise_count = noise_count,
    .state_name = state_name,
    .truncates = truncates,
    .layout_algebra = layout_algebra,
    .le_consistent = le_consistent,
    .keys = keys,
    .nkeys = (int)(sizeof keys / sizeof keys[0]),
};
/* clang-format on */
