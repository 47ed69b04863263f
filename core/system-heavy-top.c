/* system-heavy-top.c — the heavy top on se(3) (docs/systems.md#heavy-top): its descriptor
 * (core/system.h). RKMK form (pi, gamma); SVI form (Pi, Gamma, R), scheme svi only. */
#include <stddef.h>
#include <stdio.h>

#include "core/problem-struct.h"
#include "core/system.h"
#include "core/problem-key-table.h"

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

#define OFF(f) offsetof(slpi_problem, f)
static const char *const e_ht_form[] = { "rkmk", "svi", NULL };
static const char *const e_ht_noise[] = { "none", "salt", "case1", "case2", "case2-pi2", "case3", "case3-pi", NULL };
static const char *const e_ht_sign[] = { "bracket", "printed", NULL };
static const char *const e_ht_exp[] = { "stable", "rodrigues", "expm", "rodrigues-up", NULL };
/* the system's keys (core/problem-key-table.h), in `slpi list --keys` order */
// clang-format off
static const slpi_key_def keys[] = {
    { "form", SLPI_SYS_HEAVY_TOP, K_SPECIAL, 0, 0, e_ht_form, 0, 0, "rkmk (pi, gamma) | svi (Pi, Gamma, R; scheme svi only)" },
    { "inertia", SLPI_SYS_HEAVY_TOP, K_VEC, OFF(sys.ht.inertia), 3, NULL, 1e-12, 1e12, "body moments of inertia" },
    { "mga", SLPI_SYS_HEAVY_TOP, K_VEC, OFF(sys.ht.mga), 3, NULL, -1e6, 1e6, "m g a (RKMK: the centre-of-mass vector x)" },
    { "mg", SLPI_SYS_HEAVY_TOP, K_DOUBLE, OFF(sys.ht.mg), 0, NULL, 0, 1e6, "m g of the Gamma noise cases" },
    { "noise", SLPI_SYS_HEAVY_TOP, K_ENUM, OFF(sys.ht.noise), 0, e_ht_noise, 0, 0, "noise model (docs/systems.md#heavy-top)" },
    { "alpha", SLPI_SYS_HEAVY_TOP, K_VEC, OFF(sys.ht.alpha), 3, NULL, -1e6, 1e6, "SALT noise vector (h_1 = alpha.pi)" },
    { "k", SLPI_SYS_HEAVY_TOP, K_VEC, OFF(sys.ht.k), 2, NULL, -1e6, 1e6, "k1,k2 of the SVI noise cases" },
    { "potential_sign", SLPI_SYS_HEAVY_TOP, K_ENUM, OFF(sys.ht.potential_printed), 0, e_ht_sign, 0, 0, "bracket (gamma x x, default) | printed (x x gamma, E-R3)" },
    { "exp_form", SLPI_SYS_HEAVY_TOP, K_ENUM, OFF(sys.ht.exp_form), 0, e_ht_exp, 0, 0, "fast path, RKMK form: how the orbit map's exponential is rounded: stable (cancellation-free coefficients, default) | rodrigues (textbook (1 - cos t)/t^2, (t - sin t)/t^3) | expm (4x4 SE(3) matrix exponential by scaling and squaring) | rodrigues-up (rodrigues with cos t one ulp up: a cosine whose error is one-sided, as NumPy's AVX-512 cos); the exact map is the same (audit R2)" },
    { "theta0", SLPI_SYS_HEAVY_TOP, K_DOUBLE, OFF(sys.ht.theta0), 0, NULL, -10, 10, "SVI form: initial tilt about e_1" },
    { "pi0", SLPI_SYS_HEAVY_TOP, K_VEC, OFF(sys.ht.pi0), 3, NULL, -1e6, 1e6, "SVI form: initial body momentum" },
};
// clang-format on
#undef OFF

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
    .keys = keys,
    .nkeys = (int)(sizeof keys / sizeof keys[0]),
};
/* clang-format on */
