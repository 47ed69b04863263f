/* core/plan.h — what the library reads from a plan (slpi.h's slpi_plan; core/plan.c):
 * the parsed model its paths share, and the compile of a finished problem that the paths'
 * create functions make when they are handed a problem. Not installed. */
#ifndef SLPI_CORE_PLAN_H
#define SLPI_CORE_PLAN_H

typedef struct slpi_error slpi_error; /* slpi/errors.h */
typedef struct slpi_problem slpi_problem;
typedef struct slpi_plan slpi_plan;
#include "core/expr.h"

/* The model the plan parsed (system=model), NULL for a built-in system. Owned by the
 * plan: valid while the caller holds a reference. */
const slpi_model *slpi_plan_model(const slpi_plan *plan);
/* The plan of p as it is (slpi_problem_finish already finished it): SLPI_EINPUT when p
 * does not validate. The model is parsed here, once.
 * Owns: *out is the caller's, released by slpi_plan_unref. */
int slpi_plan_compile(slpi_plan **out, const slpi_problem *p, slpi_error *err);

/* slpi_problem_validate and slpi_problem_finish that keep what they parse: a model
 * problem's model is parsed into *m, once (*m zeroed first, so for any system and any
 * result the caller frees it with slpi_model_free). */
int slpi_problem_validate_model(const slpi_problem *p, slpi_model *m, slpi_error *err);
int slpi_problem_finish_model(slpi_problem *p, slpi_model *m, slpi_error *err);

#endif
