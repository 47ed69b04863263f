/* system-heavy-top.c — the heavy top on se(3) (docs/systems.md#heavy-top): its descriptor
 * (core/system.h). RKMK form (pi, gamma); SVI form (Pi, Gamma, R), scheme svi only. */
#include <stddef.h>
#include <math.h>
#include <string.h>
#include <stdio.h>

#include "slpi/registry.h"
#include "core/problem-struct.h"
#include "core/system.h"
#include "core/system-heavy-top.h"
#include "slpi/errors.h"
#include "core/problem-key-table.h"

static int state_dim(const slpi_problem *p)
{
    return p->sys.ht.form == SLPI_HT_FORM_SVI ? 15 : 6;
}

static int noise_count(const slpi_problem *p)
{
    static const int count[] = { 0, 1, 1, 1, 1, 2, 2 }; /* by slpi_ht_noise */
    _Static_assert(sizeof count / sizeof count[0] == SLPI_HT_NOISE_CASE3_PI + 1, "one count a noise model");
    return count[p->sys.ht.noise];
}

static void state_name(const slpi_problem *p, int i, char *buf, size_t n)
{
    static const char *const rkmk[] = { "pi1", "pi2", "pi3", "gamma1", "gamma2", "gamma3" };
    static const char *const svi[] = { "Pi1", "Pi2", "Pi3", "Gamma1", "Gamma2", "Gamma3", "R11", "R12",
                                       "R13", "R21", "R22", "R23",    "R31",    "R32",    "R33" };
    _Static_assert(sizeof rkmk / sizeof rkmk[0] == 6 && sizeof svi / sizeof svi[0] == 15, "a name a state double");
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

static void form_defaults(slpi_problem *p, int form)
{
    p->sys.ht.form = (slpi_ht_form)form;
    p->sys.ht.potential_printed = 0;
    p->sys.ht.exp_form = 0;
    p->sys.ht.alpha[0] = 0.01;
    p->sys.ht.alpha[1] = 0.02;
    p->sys.ht.alpha[2] = 0.03;
    p->sys.ht.k[0] = 0.1;
    p->sys.ht.k[1] = 0.1;
    p->sys.ht.mg = 0.98;
    p->grid.h = 0.01;
    if (form == SLPI_HT_FORM_RKMK) { /* RKMK §5, eqs. (42)-(45) */
        p->sys.ht.inertia[0] = 4.0;
        p->sys.ht.inertia[1] = 2.0;
        p->sys.ht.inertia[2] = 1.0;
        p->sys.ht.mga[0] = 0.0;
        p->sys.ht.mga[1] = 0.0;
        p->sys.ht.mga[2] = 1.0;
        p->sys.ht.noise = SLPI_HT_NOISE_SALT;
        p->sys.ht.theta0 = 0.0;
        p->sys.ht.pi0[0] = p->sys.ht.pi0[1] = p->sys.ht.pi0[2] = 0.0;
        p->grid.steps = 10000;
    } else { /* SVI §8.3, the gyroscope */
        p->sys.ht.inertia[0] = 0.1;
        p->sys.ht.inertia[1] = 0.1;
        p->sys.ht.inertia[2] = 1.0;
        p->sys.ht.mga[0] = 0.0;
        p->sys.ht.mga[1] = 0.0;
        p->sys.ht.mga[2] = 0.98;
        p->sys.ht.noise = SLPI_HT_NOISE_NONE;
        p->sys.ht.theta0 = 0.15 * 3.14159265358979323846;
        p->sys.ht.pi0[0] = 0.0;
        p->sys.ht.pi0[1] = 0.0;
        p->sys.ht.pi0[2] = 1.0;
        p->grid.steps = 2000;
    }
}

/* the form follows the scheme: svi brings the SVI form */
static void defaults(slpi_problem *p)
{
    form_defaults(p, p->sch.scheme == SLPI_SCHEME_SVI ? SLPI_HT_FORM_SVI : SLPI_HT_FORM_RKMK);
}

/* RKMK form pi = gamma = sqrt2/2 (-1, 1, 0) (E-R4); SVI form Pi = pi0, R = rotation by
 * theta0 about e_1 (rows (1,0,0), (0,c,s), (0,-s,c)), Gamma = R^T e_3 */
static int default_state(const slpi_problem *p, double *x, slpi_error *err)
{
    (void)err;
    if (p->sys.ht.form == SLPI_HT_FORM_RKMK) {
        double r = sqrt(2.0) / 2;
        double v[6] = { -r, r, 0, -r, r, 0 };
        memcpy(x, v, sizeof v);
        return SLPI_OK;
    }
    double th = p->sys.ht.theta0, ct = cos(th), st = sin(th);
    double R[9] = { 1, 0, 0, 0, ct, st, 0, -st, ct };
    memcpy(x, p->sys.ht.pi0, 3 * sizeof *x);
    x[3] = 0;
    x[4] = -st;
    x[5] = ct;
    memcpy(x + 6, R, sizeof R);
    return SLPI_OK;
}

static int check_state(const slpi_problem *p, const double *x, const char *src, slpi_error *err)
{
    double d;
    const double *g = x + 3;
    double norm = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    if (!(fabs(norm - 1) <= SLPI_MANIFOLD_TOL))
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s: |%s| = %.17g: the direction of gravity must be a unit "
                              "vector (within %g)",
                              src, p->sys.ht.form == SLPI_HT_FORM_SVI ? "Gamma" : "gamma", norm, SLPI_MANIFOLD_TOL);
    if (p->sys.ht.form == SLPI_HT_FORM_SVI && !slpi_system_orthogonal(x + 6, &d))
        return slpi_error_set(err, SLPI_EINPUT, "%s: R is not a rotation: max(|R^T R - I|, |det R - 1|) = %.3g > %g",
                              src, d, SLPI_MANIFOLD_TOL);
    return SLPI_OK;
}

#define OFF(f) offsetof(slpi_problem, f)
static const char *const e_ht_form[] = { "rkmk", "svi", NULL };
static const char *const e_ht_noise[] = { "none", "salt", "case1", "case2", "case2-pi2", "case3", "case3-pi", NULL };
_Static_assert(sizeof e_ht_noise / sizeof e_ht_noise[0] == SLPI_HT_NOISE_CASE3_PI + 2,
               "a name a noise model, then NULL");
_Static_assert(sizeof e_ht_form / sizeof e_ht_form[0] == SLPI_HT_FORM_SVI + 2, "a name a form, then NULL");
static const char *const e_ht_sign[] = { "bracket", "printed", NULL };
static const char *const e_ht_exp[] = { "stable", "rodrigues", "expm", "rodrigues-up", NULL };
static int validate(const slpi_problem *p, slpi_error *err)
{
    const char *sch = slpi_scheme_name(p->sch.scheme);
    if (p->sys.ht.form == SLPI_HT_FORM_SVI && p->sch.scheme != SLPI_SCHEME_SVI)
        return slpi_error_set(err, SLPI_EINPUT,
                              "heavy-top form=svi (the semidirect state (Pi, Gamma, R)) runs only with svi, not %s",
                              sch);
    if (p->sys.ht.form == SLPI_HT_FORM_RKMK && p->sch.scheme == SLPI_SCHEME_SVI)
        return slpi_error_set(err, SLPI_EINPUT, "scheme svi on heavy-top runs only with form=svi");
    if (p->sys.ht.form == SLPI_HT_FORM_RKMK && p->sys.ht.noise != SLPI_HT_NOISE_NONE &&
        p->sys.ht.noise != SLPI_HT_NOISE_SALT)
        return slpi_error_set(err, SLPI_EINPUT,
                              "heavy-top noise=%s: the RKMK form (pi, gamma) takes SALT noise or none; "
                              "the SVI noise cases need scheme svi",
                              e_ht_noise[p->sys.ht.noise]);
    return SLPI_OK;
}

/* the system's keys (core/problem-key-table.h), in `slpi list --keys` order */
// clang-format off
static const slpi_key_def keys[] = {
    { "form", SLPI_SYS_HEAVY_TOP, K_SPECIAL, OFF(sys.ht.form), 0, e_ht_form, 0, 0, "rkmk (pi, gamma) | svi (Pi, Gamma, R; scheme svi only)" },
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
    .defaults = defaults,
    .form_defaults = form_defaults,
    .initial_kind = SLPI_INITIAL_VALUES,
    .initial_size = state_dim,
    .default_state = default_state,
    .check_state = check_state,
    .validate = validate,
    .keys = keys,
    .nkeys = (int)(sizeof keys / sizeof keys[0]),
    .svi_form = SLPI_SVI_FORM_SD,
    .svi_forms = 1u << SLPI_SVI_FORM_SD,
    .svi_resets_defaults = 1,
};
/* clang-format on */
