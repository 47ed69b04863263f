/* system-model.c — a model described as data (docs/models.md): its descriptor
 * (core/system.h). Its algebra, Hamiltonians and parameters are keys, parsed by
 * core/expr.h; a model's applicability depends on them, and the validator applies the
 * rule for each scheme (docs/models.md#schemes). */
#include <stddef.h>
#include <stdio.h>

#include "slpi/errors.h"
#include "slpi/problem-finish.h"
#include "core/problem-struct.h"
#include "core/system.h"
#include "core/system-model.h"
#include "core/problem-key-table.h"
#include "core/expr.h"

static int state_dim(const slpi_problem *p)
{
    return p->sys.model.alg.dim;
}

static void state_name(const slpi_problem *p, int i, char *buf, size_t n)
{
    if (slpi_problem_algebra(p))
        slpi_algebra_coord_name(slpi_problem_algebra(p), i, buf, n);
    else
        snprintf(buf, n, "x%d", i + 1);
}

/* a model follows the built-in of its algebra: se3 (the heavy top) off, the others on */
static int truncates(const slpi_problem *p)
{
    return !(p->sys.model.alg.dim && p->sys.model.alg.kind == SLPI_ALGEBRA_SE3);
}

static int layout_algebra(const slpi_problem *p, char *buf, size_t n)
{
    if (!slpi_problem_algebra(p)) return 0;
    snprintf(buf, n, "%s", p->sys.model.algebra);
    return 1;
}

/* The rule on a model (core/expr.h): every noise Hamiltonian affine, or a function of
 * coordinates whose basis elements commute pairwise (then D xi_k[V_k] = 0 as above). */
int slpi_model_le_consistent(const slpi_model *m, const char **why)
{
    int affine = 1;
    for (int k = 1; k <= m->M; k++) {
        const slpi_expr *e = &m->H[k];
        if (m->callback[k]) {
            *why = "a noise Hamiltonian is given by a callback, whose form the rule cannot read "
                   "(docs/models.md#callbacks)";
            return 0;
        }
        int deg = slpi_expr_degree(e);
        if (deg >= 0 && deg <= 1) continue;
        affine = 0;
        for (int i = 0; i < e->n; i++) {
            if (e->node[i].op != SLPI_EXPR_COORD) continue;
            for (int j = 0; j < i; j++)
                if (e->node[j].op == SLPI_EXPR_COORD &&
                    !slpi_algebra_commute(&m->alg, e->node[i].arg, e->node[j].arg)) {
                    *why = "a noise Hamiltonian is neither affine nor a function of coordinates whose "
                           "basis elements commute, so Lie-Euler's missed drift need not vanish "
                           "(docs/models.md#schemes)";
                    return 0;
                }
        }
    }
    *why = m->M == 0 ? "no noise"
        : affine     ? "affine noise Hamiltonians"
                     : "every noise Hamiltonian is affine or a function of commuting coordinates";
    return 1;
}

static int le_consistent(const slpi_problem *p, const char **why)
{
    slpi_error e;
    slpi_model m;
    if (slpi_model_parse(&m, p, &e) != SLPI_OK) {
        *why = "the model does not parse";
        return 0;
    }
    int ok = slpi_model_le_consistent(&m, why);
    slpi_model_free(&m);
    return ok;
}

/* the ISO grid (docs/models.md) */
static void defaults(slpi_problem *p)
{
    p->grid.h = 0x1p-8;
    p->grid.steps = 1000;
}

static int default_state(const slpi_problem *p, double *x, slpi_error *err)
{
    (void)p, (void)x;
    return slpi_error_set(err, SLPI_EINPUT, "system=model has no default initial state: give x0= or x0_file=");
}

/* an su(n) state is traceless; the other algebras' states are any vector */
static int check_state(const slpi_problem *p, const double *x, const char *src, slpi_error *err)
{
    if (!slpi_problem_algebra(p) || slpi_problem_algebra(p)->kind != SLPI_ALGEBRA_SUN) return SLPI_OK;
    return slpi_system_check_traceless(x, slpi_problem_algebra(p)->n, src, err);
}

/* the model's rules are its parse's and each scheme's (core/problem-validate.c) */
static int validate(const slpi_problem *p, slpi_error *err)
{
    (void)p, (void)err;
    return SLPI_OK;
}

#define OFF(f) offsetof(slpi_problem, f)
/* the system's keys (core/problem-key-table.h), in `slpi list --keys` order */
// clang-format off
static const slpi_key_def keys[] = {
    { "algebra", SLPI_SYS_MODEL, K_SPECIAL, 0, 0, NULL, 0, 0, "so3 | se3 | so(n) | su(n) | so3^k: the model's algebra, state layout and textbook equation (so3: x' = x cross grad H; so(n), su(n): X' = [X, grad H], su(n) H at the traceless part; se3: the heavy top's; so3^k: per block; docs/models.md#equations, `slpi model`)" },
    { "H", SLPI_SYS_MODEL, K_SPECIAL, 0, 0, NULL, 0, 0, "the Hamiltonian: an expression in the algebra's coordinates and the parameters" },
    { "noise_H<k>", SLPI_SYS_MODEL, K_SPECIAL, 0, 0, NULL, 0, 0, "noise Hamiltonian k = 1..16 (M = the highest k; 1..M all given)" },
    { "param.<NAME>", SLPI_SYS_MODEL, K_SPECIAL, 0, 0, NULL, 0, 0, "a named parameter usable in every expression: a decimal number" },
    { "t0", SLPI_SYS_MODEL, K_SPECIAL, 0, 0, NULL, 0, 0, "the time of step 0 (default 0): the expressions read t = t0 + (n + c) h in step n at the scheme's stage c (docs/models.md#time); a decimal number, given only when an expression reads t" },
};
// clang-format on
#undef OFF

/* clang-format off */
const slpi_system_desc slpi_system_model = {
    .name = "model",
    .applicability = {
        [SLPI_SCHEME_TMK] = { SLPI_EXTENSION, "every algebra (the TMK chord is the exact Hessian of the expressions)" },
        [SLPI_SCHEME_RKMK_LE] = { SLPI_EXTENSION, "when the model's noise Hamiltonians pass the Lie-Euler consistency rule" },
        [SLPI_SCHEME_RKMK_HEUN] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_IM_DIRECT] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_TRAP_DIRECT] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_ISOMP] = { SLPI_EXTENSION, "matrix algebras with an invariant pairing: so3, so(n), su(n), so3^k (not se3)" },
        [SLPI_SCHEME_SVI] = { SLPI_EXTENSION, "so3 (SVI-SO3 form) and the matrix algebras (SVI-LP); not se3" },
    },
    .state_dim = state_dim,
    .noise_count = slpi_model_noise_count,
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
    .svi_forms = 1u << SLPI_SVI_FORM_LP | 1u << SLPI_SVI_FORM_SO3,
};
/* clang-format on */
