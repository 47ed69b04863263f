/* registry.c — names of systems and schemes, and the applicability matrix of docs/systems.md#applicability
 * as data. Problem-dependent refinements (noise model, size, sign variant) are applied
 * by slpi_problem_validate in core/problem-validate.c. */
#include <string.h>

#include "core/problem-struct.h"
#include "slpi/registry.h"
#include "core/expr.h"

static const char *const system_names[SLPI_SYS_COUNT] = { "rigid-body",    "heavy-top",  "manakov", "point-vortices",
                                                          "euler-zeitlin", "sine-euler", "model" };

static const char *const scheme_names[SLPI_SCHEME_COUNT] = { "tmk",         "rkmk-le", "rkmk-heun", "im-direct",
                                                             "trap-direct", "isomp",   "svi" };

typedef struct {
    slpi_applicability a;
    const char *reason;
} cell;

/* the applicability matrix, one cell a line, as docs/systems.md#applicability reads */
/* clang-format off */
#define P(r) { SLPI_PAPER, r }
#define E(r) { SLPI_EXTENSION, r }
#define NA(r) { SLPI_NA, r }
static const cell matrix[SLPI_SYS_COUNT][SLPI_SCHEME_COUNT] = {
    [SLPI_SYS_RIGID_BODY] = {
        E("closed-form so(3) exponential"),
        E("Stratonovich-consistent with every noise model, iso-quad included: each H_k is linear or "
          "a function of one coordinate <x, e_k>, so the missed drift 1/2 sum ad*_{D xi_k V_k} x "
          "vanishes (docs/schemes.md#rkmk; slpi_problem_le_consistent; claim X4 computes it)"),
        E(""), E(""), E(""),
        P("ISO §6.1"),
        P("SVI §6-7, SVI-SO3 vector form (c = +1/4 default, -1/4 as printed)") },
    [SLPI_SYS_HEAVY_TOP] = {
        P("RKMK §5"),
        E("SALT noise (the RKMK form takes SALT or none; consistent: linear H_k). The SVI noise "
          "k|Pi|^2 is consistent too (it drives Gamma only, D xi V = 0) but its form runs svi only"),
        E(""),
        P("RKMK §5 label; the figures match TRAP-DIRECT (claim R3)"),
        P("matches RKMK Figs. 4-5"),
        NA("se(3) is not J-quadratic"),
        P("SVI §8, semidirect form SVI-SD") },
    [SLPI_SYS_MANAKOV] = {
        E(""),
        E("Stratonovich-consistent: H_ij = 0.1 X_ij^2 is a function of one coordinate, so the "
          "missed drift vanishes (docs/schemes.md#rkmk; slpi_problem_le_consistent; claim X4 computes 0)"),
        E(""), E(""), E(""),
        P("ISO §6.2"),
        E("SVI-LP on SO(n); c = -1/4 is defined only for SO(3) vectors") },
    [SLPI_SYS_POINT_VORTICES] = {
        E("no energy property: H0 is not quadratic"),
        E("Stratonovich-consistent: each shared H_k is a sum of functions of one coordinate per "
          "vortex, so the missed drift vanishes (docs/schemes.md#rkmk; slpi_problem_le_consistent; claim X4 "
          "computes 0)"),
        E(""), E(""), E(""),
        P("ISO §6.3"),
        E("SVI-LP blockwise on SU(2)^n; c = -1/4 N/A") },
    [SLPI_SYS_EULER_ZEITLIN] = {
        E("N <= 32 only: the chord matrix is dense of size (N^2-1)^2 (N/A at N = 128)"),
        E("Stratonovich-consistent under both readings ((Q): H = a_l omega^2/2 is a function of one "
          "coordinate; (L): linear; docs/schemes.md#rkmk; slpi_problem_le_consistent; claim X4)"),
        E(""), E(""), E(""),
        P("ISO §6.4"),
        E("SVI-LP on U(N); c = -1/4 N/A") },
    [SLPI_SYS_SINE_EULER] = {
        P("RKMK §6"),
        E("SALT noise: linear H_k, consistent"),
        E(""), E(""),
        P("RKMK §6, Fig. 9"),
        E("su(N) is J-quadratic"),
        E("SVI-LP on U(N); c = -1/4 N/A") },
    /* a model's applicability depends on its algebra and Hamiltonians: the rule for each
     * scheme is applied by slpi_problem_validate (docs/models.md#schemes) */
    [SLPI_SYS_MODEL] = {
        E("every algebra (the TMK chord is the exact Hessian of the expressions)"),
        E("when the model's noise Hamiltonians pass the Lie-Euler consistency rule"),
        E(""), E(""), E(""),
        E("matrix algebras with an invariant pairing: so3, so(n), su(n), so3^k (not se3)"),
        E("so3 (SVI-SO3 form) and the matrix algebras (SVI-LP); not se3") },
};
#undef P
#undef E
#undef NA
/* clang-format on */

const char *slpi_system_name(slpi_system_id s)
{
    return (unsigned)s < SLPI_SYS_COUNT ? system_names[s] : "?";
}

const char *slpi_scheme_name(slpi_scheme_id k)
{
    return (unsigned)k < SLPI_SCHEME_COUNT ? scheme_names[k] : "?";
}

int slpi_system_from_name(const char *name, slpi_system_id *out)
{
    for (int i = 0; i < SLPI_SYS_COUNT; i++)
        if (strcmp(name, system_names[i]) == 0) {
            *out = (slpi_system_id)i;
            return 0;
        }
    return -1;
}

int slpi_scheme_from_name(const char *name, slpi_scheme_id *out)
{
    for (int i = 0; i < SLPI_SCHEME_COUNT; i++)
        if (strcmp(name, scheme_names[i]) == 0) {
            *out = (slpi_scheme_id)i;
            return 0;
        }
    return -1;
}

slpi_svi_form slpi_registry_svi_form(const slpi_problem *p)
{
    if (p->sch.svi_form != SLPI_SVI_FORM_AUTO) return p->sch.svi_form;
    if (p->sys.system == SLPI_SYS_RIGID_BODY) return SLPI_SVI_FORM_SO3;
    const slpi_algebra *a = slpi_problem_algebra(p);
    if (a && a->kind == SLPI_ALGEBRA_SO3) return SLPI_SVI_FORM_SO3; /* a model on so3: its vector form */
    if (p->sys.system == SLPI_SYS_HEAVY_TOP) return SLPI_SVI_FORM_SD;
    return SLPI_SVI_FORM_LP;
}

slpi_applicability slpi_registry_pair(slpi_system_id s, slpi_scheme_id k, const char **reason)
{
    if ((unsigned)s >= SLPI_SYS_COUNT || (unsigned)k >= SLPI_SCHEME_COUNT) {
        if (reason) *reason = "unknown system or scheme";
        return SLPI_NA;
    }
    if (reason) *reason = matrix[s][k].reason;
    return matrix[s][k].a;
}
