/* system-heavy-top.c — the heavy top on se(3) (docs/systems.md#heavy-top): its descriptor
 * (core/system.h). RKMK form (pi, gamma); SVI form (Pi, Gamma, R), scheme svi only. */
#include <stdio.h>

#include "core/problem-struct.h"
#include "core/system.h"

static int state_dim(const slpi_problem *p)
{
    return p->sys.ht.form == SLPI_HT_FORM_SVI ? 15 : 6;
}

static int noise_count(const slpi_problem *p)
{
    static const int count[] = { 0, 1, 1, 1, 1, 2, 2 }; /* by slpi_ht_noise */
    return count[p->sys.ht.noise];
}

static void state_name(const slpi_problem *p, int i, char *buf, size_t n)
{
    static const char *const rkmk[] = { "pi1", "pi2", "pi3", "gamma1", "gamma2", "gamma3" };
    static const char *const svi[] = { "Pi1", "Pi2", "Pi3", "Gamma1", "Gamma2", "Gamma3", "R11", "R12",
                                       "R13", "R21", "R22", "R23",    "R31",    "R32",    "R33" };
    snprintf(buf, n, "%s", p->sys.ht.form == SLPI_HT_FORM_RKMK ? rkmk[i] : svi[i]);
}

static int truncates(const slpi_problem *p)
{
    (void)p;
    return 0;
}

static int layout_algebra(const slpi_problem *p, char *buf, size_t n)
{
    (void)p;
    snprintf(buf, n, "se3");
    return 1;
}

static int le_consistent(const slpi_problem *p, const char **why)
{
    *why = p->sys.ht.noise == SLPI_HT_NOISE_NONE     ? "no noise"
        : p->sys.ht.noise == SLPI_HT_NOISE_CASE2_PI2 ? "H_1 = k|Pi|^2 moves Gamma only: D xi[V] = 0"
                                                     : "linear H_k";
    return 1;
}

/* clang-format off */
const slpi_system_desc slpi_system_heavy_top = {
    .name = "heavy-top",
    .applicability = {
        [SLPI_SCHEME_TMK] = { SLPI_PAPER, "RKMK §5" },
        [SLPI_SCHEME_RKMK_LE] = { SLPI_EXTENSION,
            "SALT noise (the RKMK form takes SALT or none; consistent: linear H_k). The SVI noise "
            "k|Pi|^2 is consistent too (it drives Gamma only, D xi V = 0) but its form runs svi only" },
        [SLPI_SCHEME_RKMK_HEUN] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_IM_DIRECT] = { SLPI_PAPER, "RKMK §5 label; the figures match TRAP-DIRECT (claim R3)" },
        [SLPI_SCHEME_TRAP_DIRECT] = { SLPI_PAPER, "matches RKMK Figs. 4-5" },
        [SLPI_SCHEME_ISOMP] = { SLPI_NA, "se(3) is not J-quadratic" },
        [SLPI_SCHEME_SVI] = { SLPI_PAPER, "SVI §8, semidirect form SVI-SD" },
    },
    .state_dim = state_dim,
    .noise_count = noise_count,
    .state_name = state_name,
    .truncates = truncates,
    .layout_algebra = layout_algebra,
    .le_consistent = le_consistent,
};
/* clang-format on */
