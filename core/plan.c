/* plan.c — a finished problem compiled once (docs/design.md#opaque-problem): the validated
 * keys, the model parsed once (system=model) and the output grid's shape, immutable and
 * reference-counted. Both paths' run objects hold a reference and read the model only
 * through it; there is no process-wide model store. The count is a C11 atomic, so any
 * number of threads may share one plan and take and drop references. */
#include <stdatomic.h>
#include <stdlib.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/registry-ids.h"
#include "slpi/plan.h"
#include "slpi/problem-shape.h"
#include "core/problem-struct.h"
#include "core/check.h"
#include "core/plan.h"
#include "core/rows.h"

struct slpi_plan {
    atomic_int refs;
    slpi_problem p;   /* the finished problem: its keys, noise configuration and files bound */
    slpi_model model; /* system=model: the parsed model (else zeroed) */
    int dim, noises, every;
    long steps, rows;
    double h;
};

/* 1 if pl is whole: a state, a row for step 0, and for system=model a parse that agrees
 * with core's layout (its algebra's coordinates, its noises, each H_k given as an
 * expression over the state's coordinates or as a callback); for a built-in system no
 * parse. What the paths read from a plan without checking it again. */
static int complete(const slpi_plan *pl)
{
    const slpi_model *m = &pl->model;
    if (pl->dim < 1 || pl->noises < 0 || pl->rows < 1) return 0;
    if (pl->p.sys.system != SLPI_SYS_MODEL) return m->alg.dim == 0 && m->H[0].n == 0;
    if (m->alg.dim != pl->dim || m->M != pl->noises) return 0;
    for (int k = 0; k <= m->M; k++)
        if (!m->callback[k] && (m->H[k].n < 1 || m->H[k].ncoord != pl->dim)) return 0;
    return 1;
}

/* Seal pl (its model parsed, p finished and valid): the problem and its shape, count 1. */
static int seal(slpi_plan **out, slpi_plan *pl, int rc, const slpi_problem *p, slpi_error *err)
{
    slpi_rows r;
    if (rc == SLPI_OK && (rc = slpi_rows_open(&r, p, err)) == SLPI_OK) {
        pl->p = *p;
        pl->dim = slpi_problem_state_dim(p);
        pl->noises = slpi_problem_noise_count(p);
        pl->steps = p->grid.steps;
        pl->rows = slpi_rows_count(&r);
        pl->h = p->grid.h;
        pl->every = p->grid.output_every;
        slpi_rows_close(&r);
        if (SLPI_NEVER(!complete(pl)))
            rc = slpi_error_set(err, SLPI_EINPUT,
                                "plan of %s: its shape or its model's parse disagrees with the problem",
                                slpi_system_name(p->sys.system));
    }
    if (rc != SLPI_OK) {
        slpi_model_free(&pl->model);
        free(pl);
        return rc;
    }
    atomic_init(&pl->refs, 1);
    *out = pl;
    return SLPI_OK;
}

int slpi_problem_plan(slpi_plan **out, slpi_problem *p, slpi_error *err)
{
    *out = NULL;
    slpi_plan *pl = calloc(1, sizeof *pl);
    if (!pl) return slpi_error_set(err, SLPI_EINPUT, "plan: out of memory");
    return seal(out, pl, slpi_problem_finish_model(p, &pl->model, err), p, err);
}

int slpi_plan_compile(slpi_plan **out, const slpi_problem *p, slpi_error *err)
{
    *out = NULL;
    slpi_plan *pl = calloc(1, sizeof *pl);
    if (!pl) return slpi_error_set(err, SLPI_EINPUT, "plan: out of memory");
    return seal(out, pl, slpi_problem_validate_model(p, &pl->model, err), p, err);
}

const slpi_plan *slpi_plan_ref(const slpi_plan *plan)
{
    atomic_fetch_add_explicit(&((slpi_plan *)plan)->refs, 1, memory_order_relaxed);
    return plan;
}

void slpi_plan_unref(const slpi_plan *plan)
{
    slpi_plan *pl = (slpi_plan *)plan;
    if (!pl || atomic_fetch_sub_explicit(&pl->refs, 1, memory_order_acq_rel) != 1) return;
    slpi_model_free(&pl->model);
    free(pl);
}

const slpi_problem *slpi_plan_problem(const slpi_plan *plan)
{
    return &plan->p;
}

const slpi_model *slpi_plan_model(const slpi_plan *plan)
{
    return plan->p.sys.system == SLPI_SYS_MODEL ? &plan->model : NULL;
}

void slpi_plan_shape(const slpi_plan *plan, int *dim, int *noises, long *steps, long *rows, double *h, int *every)
{
    if (dim) *dim = plan->dim;
    if (noises) *noises = plan->noises;
    if (steps) *steps = plan->steps;
    if (rows) *rows = plan->rows;
    if (h) *h = plan->h;
    if (every) *every = plan->every;
}
