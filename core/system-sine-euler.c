/* system-sine-euler.c — the sine-Euler system on su(N), N odd (docs/systems.md#sine-euler):
 * its descriptor (core/system.h). */
#include <stdio.h>

#include "core/problem-struct.h"
#include "core/system.h"

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
};
/* clang-format on */
