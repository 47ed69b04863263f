/* api.h — the handle API's error channel, for the entry points the tools library adds
 * (oracle/api-tools.c, studies/api-converge.c; their declarations are in slpi-tools.h).
 * Not part of slpi.h: libslpi.so does not export it. */
#ifndef SLPI_API_H
#define SLPI_API_H

#include <stdint.h>

typedef struct slpi_error slpi_error; /* slpi/errors.h */

/* Record err's message as the calling thread's slpi_api_last_error when rc is an error;
 * returns rc. */
int slpi_api_record(const slpi_error *err, int rc);

/* The handle API's objects made from a plan (slpi/plan.h) rather than a problem, so that
 * its model is parsed once whatever number of them a caller makes: slpi_stepper_new and
 * slpi_ensemble_new on the plan's finished problem (each holds what it needs of the plan;
 * the caller keeps its reference). Errors as theirs, recorded for slpi_api_last_error. */
typedef struct slpi_plan slpi_plan;
typedef struct slpi_stepper slpi_stepper;
typedef struct slpi_ensemble slpi_ensemble;
int slpi_stepper_new_plan(slpi_stepper **out, const slpi_plan *plan, int ref, const double *x0, int nx0);
int slpi_ensemble_new_plan(slpi_ensemble **out, const slpi_plan *plan, int ref, uint64_t first_path, long every,
                           int threads);

#endif
