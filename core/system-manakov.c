/* system-manakov.c — the Manakov top on so(n) (docs/systems.md#manakov): its descriptor
 * (core/system.h). State X_ij for i < j, row-major. */
#include <stddef.h>
#include <math.h>
#include <stdio.h>

#include "core/problem-struct.h"
#include "core/system.h"
#include "core/system-manakov.h"
#include "slpi/errors.h"
#include "core/problem-key-table.h"

static int state_dim(const slpi_problem *p)
{
    return p->sys.mk.n * (p->sys.mk.n - 1) / 2;
}

static int noise_count(const slpi_problem *p)
{
    return p->sys.mk.noise ? p->sys.mk.n * (p->sys.mk.n - 1) / 2 : 0;
}

static void state_name(const slpi_problem *p, int i, char *buf, size_t n)
{
    int row = 0, k = i;
    while (k >= p->sys.mk.n - 1 - row) {
        k -= p->sys.mk.n - 1 - row;
        row++;
    }
    snprintf(buf, n, "X_%d_%d", row + 1, row + 2 + k);
}

static int truncates(const slpi_problem *p)
{
    (void)p;
    return 1;
}

static int layout_algebra(const slpi_problem *p, char *buf, size_t n)
{
    snprintf(buf, n, "so(%d)", p->sys.mk.n);
    return 1;
}

static int le_consistent(const slpi_problem *p, const char **why)
{
    *why = p->sys.mk.noise ? "H_ij = amp X_ij^2 is a function of one coordinate" : "no noise";
    return 1;
}

/* ISO §6.2 */
static void defaults(slpi_problem *p)
{
    p->sys.mk.n = 10;
    p->sys.mk.amp = 0.1;
    p->sys.mk.noise = 1;
    p->grid.h = 0x1p-8;
    p->grid.steps = 1000;
}

/* X_ij = sin(1.1 i + 0.7 j + 0.3 i j) (1 <= i < j <= n), scaled to ||X||_F = sqrt 2 */
static int default_state(const slpi_problem *p, double *x, slpi_error *err)
{
    (void)err;
    int n = p->sys.mk.n, k = 0, d = n * (n - 1) / 2;
    double ss = 0;
    for (int i = 1; i <= n; i++)
        for (int j = i + 1; j <= n; j++, k++) {
            x[k] = sin(1.1 * i + 0.7 * j + 0.3 * i * j);
            ss += 2 * x[k] * x[k];
        }
    double f = sqrt(2.0 / ss);
    for (int i = 0; i < d; i++) x[i] *= f;
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
/* the system's keys (core/problem-key-table.h), in `slpi list --keys` order */
// clang-format off
static const slpi_key_def keys[] = {
    { "n", SLPI_SYS_MANAKOV, K_INT, OFF(sys.mk.n), 0, NULL, 3, 64, "so(n)" },
    { "amp", SLPI_SYS_MANAKOV, K_DOUBLE, OFF(sys.mk.amp), 0, NULL, 0, 1e6, "noise amplitude (0.1)" },
    { "noise", SLPI_SYS_MANAKOV, K_ENUM, OFF(sys.mk.noise), 0, slpi_key_none_quad, 0, 0, "none | quad (eq. (37))" },
};
// clang-format on
#undef OFF

/* clang-format off */
const slpi_system_desc slpi_system_manakov = {
    .name = "manakov",
    .applicability = {
        [SLPI_SCHEME_TMK] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_RKMK_LE] = { SLPI_EXTENSION,
            "Stratonovich-consistent: H_ij = 0.1 X_ij^2 is a function of one coordinate, so the "
            "missed drift vanishes (docs/schemes.md#rkmk; slpi_problem_le_consistent; claim X4 computes 0)" },
        [SLPI_SCHEME_RKMK_HEUN] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_IM_DIRECT] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_TRAP_DIRECT] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_ISOMP] = { SLPI_PAPER, "ISO §6.2" },
        [SLPI_SCHEME_SVI] = { SLPI_EXTENSION, "SVI-LP on SO(n); c = -1/4 is defined only for SO(3) vectors" },
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
    .blas_route = 1,
};
/* clang-format on */
