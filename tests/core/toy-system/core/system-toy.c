/* system-toy.c — the toy on so(3): H0 = x.x (Frobenius, as the rigid body's ISO form with
 * I = 1), one noise H1 = amp x3; the drift vanishes and the noise turns x about e3. Its
 * descriptor (core/system.h), the template of a new built-in system
 * (CONTRIBUTING.md#adding-a-system; tests/core/t-toy-system.sh inserts it). */
#include <stddef.h>
#include <stdio.h>

#include "core/problem-struct.h"
#include "core/system.h"
#include "core/system-toy.h"
#include "slpi/errors.h"
#include "core/problem-key-table.h"

static int state_dim(const slpi_problem *p)
{
    (void)p;
    return 3;
}

static int noise_count(const slpi_problem *p)
{
    (void)p;
    return 1;
}

static void state_name(const slpi_problem *p, int i, char *buf, size_t n)
{
    (void)p;
    snprintf(buf, n, "x%d", i + 1);
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
    (void)p;
    *why = "linear H_1";
    return 1;
}

static void defaults(slpi_problem *p)
{
    p->sys.toy.amp = 0.5;
    p->grid.h = 0x1p-6;
    p->grid.steps = 64;
}

static int default_state(const slpi_problem *p, double *x, slpi_error *err)
{
    (void)p;
    (void)err;
    x[0] = 0.6;
    x[1] = 0;
    x[2] = 0.8;
    return SLPI_OK;
}

static int check_state(const slpi_problem *p, const double *x, const char *src, slpi_error *err)
{
    (void)p;
    (void)x;
    (void)src;
    (void)err;
    return SLPI_OK; /* every x of R^3 is a state */
}

static int validate(const slpi_problem *p, slpi_error *err)
{
    (void)p;
    (void)err;
    return SLPI_OK; /* the ranges of its keys are its rules */
}

#define OFF(f) offsetof(slpi_problem, f)
// clang-format off
static const slpi_key_def keys[] = {
    { "amp", SLPI_SYS_TOY, K_DOUBLE, OFF(sys.toy.amp), 0, NULL, 0, 1e6, "noise amplitude" },
};
// clang-format on
#undef OFF

/* clang-format off */
const slpi_system_desc slpi_system_toy = {
    .name = "toy",
    .applicability = {
        [SLPI_SCHEME_TMK] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_RKMK_LE] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_RKMK_HEUN] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_IM_DIRECT] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_TRAP_DIRECT] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_ISOMP] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_SVI] = { SLPI_NA, "the toy has no SVI form" },
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
