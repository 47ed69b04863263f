/* system-rigid-body.c — the rigid body on so(3) (docs/systems.md#rigid-body): its
 * descriptor (core/system.h). ISO form: x, H0 = x.I^-1 x; SVI form: Pi, with track_R R. */
#include <stddef.h>
#include <math.h>
#include <stdio.h>

#include "core/problem-struct.h"
#include "core/system.h"
#include "core/system-rigid-body.h"
#include "slpi/errors.h"
#include "core/problem-key-table.h"

static int state_dim(const slpi_problem *p)
{
    return p->sys.rb.track_R ? 12 : 3;
}

static int noise_count(const slpi_problem *p)
{
    static const int count[] = { 0, 3, 1, 3, 1, 1 }; /* by slpi_rb_noise */
    _Static_assert(sizeof count / sizeof count[0] == SLPI_RB_NOISE_CONST_E3 + 1, "one count a noise model");
    return count[p->sys.rb.noise];
}

static void state_name(const slpi_problem *p, int i, char *buf, size_t n)
{
    static const char *const iso[] = { "x1", "x2", "x3" };
    static const char *const svi[] = { "Pi1", "Pi2", "Pi3", "R11", "R12", "R13",
                                       "R21", "R22", "R23", "R31", "R32", "R33" };
    _Static_assert(sizeof iso / sizeof iso[0] == 3 && sizeof svi / sizeof svi[0] == 12, "a name a state double");
    snprintf(buf, n, "%s", p->sys.rb.form == SLPI_RB_FORM_ISO ? iso[i] : svi[i]);
}

static int truncates(const slpi_problem *p)
{
    (void)p;
    return 1;
}

static int layout_algebra(const slpi_problem *p, char *buf, size_t n)
{
    (void)p;
    snprintf(buf, n, "so3");
    return 1;
}

static int le_consistent(const slpi_problem *p, const char **why)
{
    switch (p->sys.rb.noise) {
    case SLPI_RB_NOISE_NONE:
        *why = "no noise";
        return 1;
    case SLPI_RB_NOISE_ISO_QUAD:
    case SLPI_RB_NOISE_ISO_QUAD1:
        *why = "H_i = amp x_i^2 is a function of one coordinate";
        return 1;
    case SLPI_RB_NOISE_SVI_LIN:
    case SLPI_RB_NOISE_SVI_LIN1:
    case SLPI_RB_NOISE_CONST_E3:
        *why = "linear H_k";
        return 1;
    }
    *why = "no derivation for this noise model (docs/schemes.md#rkmk)";
    return 0;
}

static void form_defaults(slpi_problem *p, int form)
{
    p->sys.rb.form = (slpi_rb_form)form;
    p->sys.rb.h0_scale = 1.0;
    p->sys.rb.track_R = 0;
    if (form == SLPI_RB_FORM_ISO) { /* ISO §6.1, eqs. (33)-(35) */
        p->sys.rb.inertia[0] = 2.0;
        p->sys.rb.inertia[1] = 1.0;
        p->sys.rb.inertia[2] = 2.0 / 3.0;
        p->sys.rb.noise = SLPI_RB_NOISE_ISO_QUAD;
        p->sys.rb.amp = 0.1;
        p->grid.h = 0x1p-8;
        p->grid.steps = 1000;
    } else { /* SVI §7.1, eq. (53) */
        p->sys.rb.inertia[0] = 1.0;
        p->sys.rb.inertia[1] = 2.0;
        p->sys.rb.inertia[2] = 3.0;
        p->sys.rb.noise = SLPI_RB_NOISE_SVI_LIN;
        p->sys.rb.amp = 0.02;
        p->grid.h = 0.01;
        p->grid.steps = 5000;
    }
}

/* the form follows the scheme: svi brings the SVI form */
static void defaults(slpi_problem *p)
{
    form_defaults(p, p->sch.scheme == SLPI_SCHEME_SVI ? SLPI_RB_FORM_SVI : SLPI_RB_FORM_ISO);
}

/* ISO form x = (sin 1.1, 0, cos 1.1) (ISO §6.1); SVI form Pi = (-0.5878, 0, 0.8090) as
 * printed (SVI §7.1); with track_R, R = I */
static int default_state(const slpi_problem *p, double *x, slpi_error *err)
{
    (void)err;
    if (p->sys.rb.form == SLPI_RB_FORM_ISO) {
        x[0] = sin(1.1);
        x[1] = 0;
        x[2] = cos(1.1);
    } else {
        x[0] = -0.5878;
        x[1] = 0;
        x[2] = 0.8090;
    }
    if (p->sys.rb.track_R && p->sys.rb.form == SLPI_RB_FORM_SVI)
        for (int i = 0; i < 9; i++) x[3 + i] = (i % 4 == 0);
    return SLPI_OK;
}

static int check_state(const slpi_problem *p, const double *x, const char *src, slpi_error *err)
{
    double d;
    if (p->sys.rb.track_R && !slpi_system_orthogonal(x + 3, &d))
        return slpi_error_set(err, SLPI_EINPUT, "%s: R is not a rotation: max(|R^T R - I|, |det R - 1|) = %.3g > %g",
                              src, d, SLPI_MANIFOLD_TOL);
    return SLPI_OK;
}

static int validate(const slpi_problem *p, slpi_error *err)
{
    /* its SVI form in force: svi_form when given, else so3 (its descriptor's svi_form) */
    if (p->sys.rb.track_R && p->sch.scheme == SLPI_SCHEME_SVI && p->sch.svi_form == SLPI_SVI_FORM_LP)
        return slpi_error_set(err, SLPI_EINPUT, "track_R=1 needs the SO(3) vector form (svi_form=so3)");
    if (p->sys.rb.track_R && p->sys.rb.form != SLPI_RB_FORM_SVI)
        return slpi_error_set(err, SLPI_EINPUT, "track_R=1 needs form=svi");
    return SLPI_OK;
}

#define OFF(f) offsetof(slpi_problem, f)
static const char *const e_rb_form[] = { "iso", "svi", NULL };
static const char *const e_rb_noise[] = { "none", "iso-quad", "iso-quad1", "svi-lin", "svi-lin1", "const-e3", NULL };
_Static_assert(sizeof e_rb_noise / sizeof e_rb_noise[0] == SLPI_RB_NOISE_CONST_E3 + 2,
               "a name a noise model, then NULL");
_Static_assert(sizeof e_rb_form / sizeof e_rb_form[0] == SLPI_RB_FORM_SVI + 2, "a name a form, then NULL");
/* the system's keys (core/problem-key-table.h), in `slpi list --keys` order */
// clang-format off
static const slpi_key_def keys[] = {
    { "form", SLPI_SYS_RIGID_BODY, K_SPECIAL, OFF(sys.rb.form), 0, e_rb_form, 0, 0, "iso (x, H0 = x.I^-1 x) | svi (Pi, h = Pi.I^-1 Pi / 2): resets the form's defaults" },
    { "inertia", SLPI_SYS_RIGID_BODY, K_VEC, OFF(sys.rb.inertia), 3, NULL, 1e-12, 1e12, "principal moments of inertia" },
    { "noise", SLPI_SYS_RIGID_BODY, K_ENUM, OFF(sys.rb.noise), 0, e_rb_noise, 0, 0, "noise model (docs/systems.md#rigid-body)" },
    { "amp", SLPI_SYS_RIGID_BODY, K_DOUBLE, OFF(sys.rb.amp), 0, NULL, 0, 1e6, "noise amplitude" },
    { "h0_scale", SLPI_SYS_RIGID_BODY, K_DOUBLE, OFF(sys.rb.h0_scale), 0, NULL, 0, 1e6, "factor on H0 (0: noise only)" },
    { "track_R", SLPI_SYS_RIGID_BODY, K_ENUM, OFF(sys.rb.track_R), 0, slpi_key_bool, 0, 0, "SVI form: also integrate R (0 | 1)" },
};
// clang-format on
#undef OFF

/* clang-format off */
const slpi_system_desc slpi_system_rigid_body = {
    .name = "rigid-body",
    .applicability = {
        [SLPI_SCHEME_TMK] = { SLPI_EXTENSION, "closed-form so(3) exponential" },
        [SLPI_SCHEME_RKMK_LE] = { SLPI_EXTENSION,
            "Stratonovich-consistent with every noise model, iso-quad included: each H_k is linear or "
            "a function of one coordinate <x, e_k>, so the missed drift 1/2 sum ad*_{D xi_k V_k} x "
            "vanishes (docs/schemes.md#rkmk; slpi_problem_le_consistent; claim X4 computes it)" },
        [SLPI_SCHEME_RKMK_HEUN] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_IM_DIRECT] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_TRAP_DIRECT] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_ISOMP] = { SLPI_PAPER, "ISO §6.1" },
        [SLPI_SCHEME_SVI] = { SLPI_PAPER, "SVI §6-7, SVI-SO3 vector form (c = +1/4 default, -1/4 as printed)" },
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
    .svi_form = SLPI_SVI_FORM_SO3,
    .svi_forms = 1u << SLPI_SVI_FORM_LP | 1u << SLPI_SVI_FORM_SO3,
};
/* clang-format on */
