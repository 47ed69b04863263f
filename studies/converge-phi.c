/* converge-phi.c — the weak functional phi of a study (docs/noise.md#functionals): the named
 * ones (sin2pi, x1), an expression of the state in the model language (core/expr.h: parsed
 * once over the coordinate names of the problem's state layout, slpi_problem_state_algebra,
 * and evaluated by the double path's evaluator of models, slpi_fast_expr_value), or a
 * function of the caller's. A value that is not finite (a domain error, an overflow, a callback that
 * failed) makes its path a failed path, never a silent number. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem-shape.h"
#include "core/expr.h"
#include "fast/model-tape.h"
#include "studies/converge.h"
#include "core/view-grid.h"
#include "core/view-system.h"

int slpi_conv_phi_parse(slpi_expr *e, const slpi_problem *p, const char *text, slpi_error *err)
{
    slpi_algebra a;
    memset(e, 0, sizeof *e);
    if (!slpi_problem_state_algebra(&a, p)) {
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
    case SLPI_PHI_EXPR: { /* X(t0 + T): t is the final time */
        double t0 = slpi_view_system(c->base)->system == SLPI_SYS_MODEL ? slpi_view_system(c->base)->model.t0 : 0;
        return slpi_fast_expr_value(e, x, t0 + slpi_view_grid(c->base)->T);
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
