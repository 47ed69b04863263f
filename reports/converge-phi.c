/* converge-phi.c — the weak functional phi of a study (docs/noise.md#functionals): the named
 * ones (sin2pi, x1), an expression of the state in the model language (core/expr.h: parsed
 * once over the coordinate names of the problem's state layout, evaluated in binary64 node
 * by node with the double path's own operations, fast/model-tape.h), or a function of the
 * caller's. A value that is not finite (a domain error, an overflow, a callback that
 * failed) makes its path a failed path, never a silent number. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem-shape.h"
#include "core/expr.h"
#include "fast/model-tape.h"
#include "reports/converge.h"
#include "core/view-grid.h"
#include "core/view-system.h"

/* The algebra whose coordinate names are the problem's state layout (slpi_problem_state_name);
 * 0 when the layout is no algebra's (the SVI forms' rotation matrices). */
static int layout_algebra(slpi_algebra *a, const slpi_problem *p)
{
    char text[32];
    slpi_error e;
    switch (slpi_view_system(p)->system) {
    case SLPI_SYS_MODEL:
        if (!slpi_problem_algebra(p)) return 0;
        *a = *slpi_problem_algebra(p);
        return 1;
    case SLPI_SYS_RIGID_BODY:
        snprintf(text, sizeof text, "so3");
        break;
    case SLPI_SYS_HEAVY_TOP:
        snprintf(text, sizeof text, "se3");
        break;
    case SLPI_SYS_MANAKOV:
        snprintf(text, sizeof text, "so(%d)", slpi_view_system(p)->mk.n);
        break;
    case SLPI_SYS_POINT_VORTICES:
        snprintf(text, sizeof text, "so3^%d", slpi_view_system(p)->pv.n);
        break;
    case SLPI_SYS_EULER_ZEITLIN:
        snprintf(text, sizeof text, "su(%d)", slpi_view_system(p)->ez.N);
        break;
    case SLPI_SYS_SINE_EULER:
        snprintf(text, sizeof text, "su(%d)", slpi_view_system(p)->se.N);
        break;
    default:
        return 0;
    }
    if (slpi_algebra_parse(a, "phi", text, &e) != SLPI_OK || a->dim != slpi_problem_state_dim(p)) return 0;
    for (int i = 0; i < a->dim; i++) { /* the names must be the layout's, one for one */
        char x[64], y[64];
        slpi_algebra_coord_name(a, i, x, sizeof x);
        slpi_problem_state_name(p, i, y, sizeof y);
        if (strcmp(x, y)) return 0;
    }
    return 1;
}

int slpi_conv_phi_parse(slpi_expr *e, const slpi_problem *p, const char *text, slpi_error *err)
{
    slpi_algebra a;
    memset(e, 0, sizeof *e);
    if (!layout_algebra(&a, p)) {
        char first[64];
        slpi_problem_state_name(p, 0, first, sizeof first);
        return slpi_error_set(err, SLPI_EINPUT,
                              "phi=%.80s: the state of %s (coordinates %s, ...) has no names an "
                              "expression can read; use --phi sin2pi | x1, or a form whose state is an algebra's "
                              "(docs/noise.md#functionals)",
                              text, slpi_system_name(slpi_view_system(p)->system), first);
    }
    /* a model's parameters are read as in its Hamiltonians */
    slpi_expr_param par[SLPI_MODEL_MAX_PARAMS];
    int npar = slpi_view_system(p)->system == SLPI_SYS_MODEL ? slpi_view_system(p)->model.nparam : 0;
    for (int i = 0; i < npar; i++) {
        par[i].name = slpi_view_system(p)->model.param_name[i];
        par[i].text = slpi_view_system(p)->model.param_text[i];
        par[i].value = slpi_view_system(p)->model.param[i];
        par[i].used = NULL;
    }
    return slpi_expr_parse(e, "phi", text, &a, npar, par, err);
}

double slpi_conv_phi_eval(const slpi_conv_cfg *c, const slpi_expr *e, const double *x, int dim)
{
    switch (c->phi) {
    case SLPI_PHI_X1:
        return x[0];
    case SLPI_PHI_FN: {
        double v = NAN;
        return c->phi_fn(&v, x, dim, c->phi_data) == 0 ? v : NAN;
    }
    case SLPI_PHI_EXPR: {
        double v[SLPI_EXPR_MAX_NODES];
        for (int i = 0; i < e->n; i++) {
            const slpi_expr_node *n = &e->node[i];
            switch (n->op) {
            case SLPI_EXPR_CONST:
                v[i] = e->cval[n->arg];
                break;
            case SLPI_EXPR_COORD:
                v[i] = x[n->arg];
                break;
            case SLPI_EXPR_PI:
                v[i] = 3.14159265358979323846;
                break;
            case SLPI_EXPR_TIME:
                v[i] = (slpi_view_system(c->base)->system == SLPI_SYS_MODEL ? slpi_view_system(c->base)->model.t0 : 0) +
                    slpi_view_grid(c->base)->T;
                break; /* X(t0 + T) */
            default:
                v[i] = slpi_fast_tape_value(n, n->a >= 0 ? v[n->a] : 0, n->b >= 0 ? v[n->b] : 0);
                break;
            }
        }
        return e->n ? v[e->n - 1] : NAN;
    }
    default: {
        double s = 0;
        for (int i = 0; i < dim && i < 3; i++) s += sin(2 * 3.14159265358979323846 * x[i]);
        return s;
    }
    }
}

const char *slpi_conv_phi_name(const slpi_conv_cfg *c)
{
    switch (c->phi) {
    case SLPI_PHI_X1:
        return "x1";
    case SLPI_PHI_EXPR:
        return c->phi_text;
    case SLPI_PHI_FN:
        return "callable";
    default:
        return "sin2pi";
    }
}

int slpi_conv_phi_set(slpi_conv_cfg *c, const char *text)
{
    if (!strcmp(text, "sin2pi"))
        c->phi = SLPI_PHI_SIN2PI;
    else if (!strcmp(text, "x1"))
        c->phi = SLPI_PHI_X1;
    else
        c->phi = SLPI_PHI_EXPR;
    c->phi_text = c->phi == SLPI_PHI_EXPR ? text : NULL;
    return SLPI_OK;
}
