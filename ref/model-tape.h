/* ref/model-tape.h — a model's Hamiltonians in Arb balls with their certified derivatives
 * (ref/model-tape.c; docs/models.md#certified-derivatives): forward-over-reverse automatic
 * differentiation over core's parsed tape (core/expr.h). ref/model.c builds the system on
 * it; fast/model-tape.h is the double path's twin. */
#ifndef SLPI_REF_MODEL_TAPE_H
#define SLPI_REF_MODEL_TAPE_H

#include "core/expr.h"
typedef struct slpi_error slpi_error; /* slpi/errors.h */
#include "slpi/limits.h"
typedef struct slpi_plan slpi_plan;
#include "core/slpi-flint.h"

typedef struct {
    arb_struct v, t;         /* value, tangent */
    arb_struct p, dp, q, dq; /* d v / d v_a, d v / d v_b, and their tangents */
    arb_struct a, e;         /* adjoint dH/dv, its tangent */
} slpi_ref_ad_node;

typedef struct {
    const slpi_model *m;                   /* the parsed model, which outlives the tape */
    const slpi_plan *plan;                 /* a model system's reference to m's plan
                                               (ref/model.c); NULL: the caller keeps m */
    arb_ptr cst[1 + SLPI_MODEL_MAX_NOISE]; /* constants of H_k from their decimal text */
    slpi_ref_ad_node *tape;                /* scratch, max nodes over the H_k */
    int ntape;
    arb_ptr g, h;        /* dH/dmu, D^2 H w (slpi_ref_tape_eval's output) */
    arb_ptr pmu, pw;     /* su(n): P mu, P w (traceless) */
    arb_struct t0, time; /* key t0 (exact from its text); the t that TIME
                                               nodes read (docs/models.md#time) */
    int faulted;         /* a domain error since the last read of why */
    char why[160];       /* "KEY: col C: reason" */
} slpi_ref_tape;

/* The tape of model m (a plan's parse, or the caller's own) with its constants read at
 * precision cprec, the time origin from t0 (key t0's text, "" for 0); the scratch; its
 * constant subexpressions evaluated once, SLPI_EINPUT as the double path refuses them (a
 * domain error, or beyond binary64's range: core/expr.h's slpi_model_constant_refusal).
 * On error nothing is left to clear. */
int slpi_ref_tape_init(slpi_ref_tape *d, const slpi_model *m, const char *t0, slong cprec, slpi_error *err);
void slpi_ref_tape_clear(slpi_ref_tape *d);
/* H_k at mu into *val (may be NULL); with grad, dH/dmu into d->g; with w, also
 * D^2 H_k(mu) w into d->h; on su(n) at P mu along P w. Returns 0 after a domain error
 * (outputs indeterminate, d->faulted and d->why set). */
int slpi_ref_tape_eval(slpi_ref_tape *d, int k, arb_t val, arb_srcptr mu, arb_srcptr w, int grad, slong prec);
/* out = the traceless part of the su(n) coordinates x (n diagonal ones first, dim in all);
 * out may be x. */
void slpi_ref_tape_traceless(arb_ptr out, arb_srcptr x, int n, int dim, slong prec);

#endif
