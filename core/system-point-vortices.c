/* system-point-vortices.c — point vortices on su(2)^n (docs/systems.md#point-vortices):
 * their descriptor (core/system.h). State x_1..x_n, x_i in R^3. */
#include <stddef.h>
#include <math.h>
#include <stdio.h>

#include "core/problem-struct.h"
#include "core/system.h"
#include "core/system-point-vortices.h"
#include "slpi/errors.h"
#include "core/problem-key-table.h"

static int state_dim(const slpi_problem *p)
{
    return 3 * p->sys.pv.n;
}

static int noise_count(const slpi_problem *p)
{
    return p->sys.pv.noise ? 3 : 0;
}

static void state_name(const slpi_problem *p, int i, char *buf, size_t n)
{
    (void)p;
    snprintf(buf, n, "x%d_%d", i / 3 + 1, i % 3 + 1);
}

static int truncates(const slpi_problem *p)
{
    (void)p;
    return 1;
}

static int layout_algebra(const slpi_problem *p, char *buf, size_t n)
{
    snprintf(buf, n, "so3^%d", p->sys.pv.n);
    return 1;
}

static int le_consistent(const slpi_problem *p, const char **why)
{
    *why = p->sys.pv.noise ? "each shared H_k is a sum of functions of one coordinate per vortex" : "no noise";
    return 1;
}

/* ISO §6.3 */
static void defaults(slpi_problem *p)
{
    p->sys.pv.n = 4;
    p->sys.pv.model = SLPI_VORTEX_MODEL_A;
    p->sys.pv.amp = 0.1;
    p->sys.pv.noise = 1;
    p->grid.h = 0x1p-8;
    p->grid.steps = 1000;
}

#define PV_PI 3.14159265358979323846

/* 4 unit vectors at the polar/azimuthal angles (theta, phi)/pi of `ang` */
static int default_state(const slpi_problem *p, double *x, slpi_error *err)
{
    static const double ang[4][2] = { { 0.3, 0 }, { 0.45, 0.6 }, { 0.6, 1.3 }, { 0.35, 1.7 } };
    if (p->sys.pv.n != 4)
        return slpi_error_set(err, SLPI_EINPUT,
                              "point-vortices: the default initial condition is for 4 vortices "
                              "(n = %d): give x0",
                              p->sys.pv.n);
    for (int i = 0; i < 4; i++) {
        double th = ang[i][0] * PV_PI, ph = ang[i][1] * PV_PI;
        x[3 * i] = sin(th) * cos(ph);
        x[3 * i + 1] = sin(th) * sin(ph);
        x[3 * i + 2] = cos(th);
    }
    return SLPI_OK;
}


static int check_state(const slpi_problem *p, const double *x, const char *src, slpi_error *err)
{
    (void)p, (void)x, (void)src, (void)err;
    return SLPI_OK;
}

static int validate(const slpi_problem *p, slpi_error *err)
{
    (void)p, (void)err;
    return SLPI_OK;
}

#define OFF(f) offsetof(slpi_problem, f)
static const char *const e_vortex[] = { "A", "B", NULL };
_Static_assert(sizeof e_vortex / sizeof e_vortex[0] == SLPI_VORTEX_MODEL_B + 2, "a name a model, then NULL");
/* the system's keys (core/problem-key-table.h), in `slpi list --keys` order */
// clang-format off
static const slpi_key_def keys[] = {
    { "n", SLPI_SYS_POINT_VORTICES, K_INT, OFF(sys.pv.n), 0, NULL, 2, 64, "number of vortices" },
    { "model", SLPI_SYS_POINT_VORTICES, K_ENUM, OFF(sys.pv.model), 0, e_vortex, 0, 0, "su(2) model A (default) | B" },
    { "amp", SLPI_SYS_POINT_VORTICES, K_DOUBLE, OFF(sys.pv.amp), 0, NULL, 0, 1e6, "noise amplitude (0.1)" },
    { "noise", SLPI_SYS_POINT_VORTICES, K_ENUM, OFF(sys.pv.noise), 0, slpi_key_none_quad, 0, 0, "none | quad (three shared Hamiltonians)" },
};
// clang-format on
#undef OFF

/* clang-format off */
const slpi_system_desc slpi_system_point_vortices = {
    .name = "point-vortices",
    .applicability = {
        [SLPI_SCHEME_TMK] = { SLPI_EXTENSION, "no energy property: H0 is not quadratic" },
        [SLPI_SCHEME_RKMK_LE] = { SLPI_EXTENSION,
            "Stratonovich-consistent: each shared H_k is a sum of functions of one coordinate per "
            "vortex, so the missed drift vanishes (docs/schemes.md#rkmk; slpi_problem_le_consistent; claim X4 "
            "computes 0)" },
        [SLPI_SCHEME_RKMK_HEUN] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_IM_DIRECT] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_TRAP_DIRECT] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_ISOMP] = { SLPI_PAPER, "ISO §6.3" },
        [SLPI_SCHEME_SVI] = { SLPI_EXTENSION, "SVI-LP blockwise on SU(2)^n; c = -1/4 N/A" },
    },
    .state_dim = state_dim,
    .noise_count = noise_count,
    .state_name = state_name,
    .truncates = truncates,
    .layout_algebra = layout_algebra,
    .le_consistent = le_consistent,
    .defaults = defaults,
    .initial_kind = SLPI_INITIAL_VALUES,
    .initial_size = state_dim,
    .default_state = default_state,
    .check_state = check_state,
    .validate = validate,
    .keys = keys,
    .nkeys = (int)(sizeof keys / sizeof keys[0]),
    .svi_form = SLPI_SVI_FORM_LP,
    .svi_forms = 1u << SLPI_SVI_FORM_LP,
};
/* clang-format on */
