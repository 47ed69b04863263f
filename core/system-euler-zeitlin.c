/* system-euler-zeitlin.c — Euler–Zeitlin on su(N) and its family (docs/systems.md#euler-zeitlin,
 * #zeitlin-family): its descriptor (core/system.h). The family's mode lists and fields
 * file are core/zeitlin-family.c's. */
#include <stdio.h>

#include "core/problem-struct.h"
#include "core/system.h"
#include "core/zeitlin-family.h"

static int state_dim(const slpi_problem *p)
{
    return p->sys.ez.N * p->sys.ez.N;
}

static int noise_count(const slpi_problem *p)
{
    /* degrees l = floor(N/2) .. N-1, 2l+1 real basis elements each (docs/systems.md#euler-zeitlin) */
    int lmin = p->sys.ez.N / 2;
    if (p->sys.ez.noise == SLPI_EZ_NOISE_MODES) return slpi_zeitlin_modes_count(p->sys.ez.noise_modes);
    if (p->sys.ez.noise == SLPI_EZ_NOISE_FIELDS) return p->sys.ez.n_fields; /* read by slpi_problem_finish */
    return p->sys.ez.noise ? p->sys.ez.N * p->sys.ez.N - lmin * lmin : 0;
}

static void state_name(const slpi_problem *p, int i, char *buf, size_t n)
{
    slpi_system_sun_name(p->sys.ez.N, i, buf, n);
}

static int truncates(const slpi_problem *p)
{
    (void)p;
    return 1;
}

static int layout_algebra(const slpi_problem *p, char *buf, size_t n)
{
    snprintf(buf, n, "su(%d)", p->sys.ez.N);
    return 1;
}

static int le_consistent(const slpi_problem *p, const char **why)
{
    *why = p->sys.ez.noise == SLPI_EZ_NOISE_Q     ? "reading (Q): H = a_l omega^2/2 is a function of one "
                                                    "coordinate"
        : p->sys.ez.noise == SLPI_EZ_NOISE_L      ? "reading (L): linear H_k"
        : p->sys.ez.noise == SLPI_EZ_NOISE_MODES  ? "noise=modes: linear H_k"
        : p->sys.ez.noise == SLPI_EZ_NOISE_FIELDS ? "noise=fields: linear H_k"
                                                  : "no noise";
    return 1;
}

/* clang-format off */
const slpi_system_desc slpi_system_euler_zeitlin = {
    .name = "euler-zeitlin",
    .applicability = {
        [SLPI_SCHEME_TMK] = { SLPI_EXTENSION, "N <= 32 only: the chord matrix is dense of size (N^2-1)^2 (N/A at N = 128)" },
        [SLPI_SCHEME_RKMK_LE] = { SLPI_EXTENSION,
            "Stratonovich-consistent under both readings ((Q): H = a_l omega^2/2 is a function of one "
            "coordinate; (L): linear; docs/schemes.md#rkmk; slpi_problem_le_consistent; claim X4)" },
        [SLPI_SCHEME_RKMK_HEUN] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_IM_DIRECT] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_TRAP_DIRECT] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_ISOMP] = { SLPI_PAPER, "ISO §6.4" },
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
