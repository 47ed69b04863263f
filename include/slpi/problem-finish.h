/* slpi/problem-finish.h — a built problem finished (its grid resolved) and validated
 * (part of slpi.h). */
#ifndef SLPI_PUBLIC_PROBLEM_FINISH_H
#define SLPI_PUBLIC_PROBLEM_FINISH_H

#include "slpi/errors.h"

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* Resolve T/level into (h, steps), then validate. Call once after all keys are set (a
 * problem whose T or level is not resolved is refused by slpi_fast_create and
 * slpi_ref_create). */
int slpi_problem_finish(slpi_problem *p, slpi_error *err);
/* slpi_problem_finish for a use that steps nothing, where the scheme plays no part (the
 * increments of `slpi noise --config`, the fields of `slpi model`): when the problem's
 * scheme is the only thing refused (a model on se3 with the default isomp), the scheme
 * becomes TMK, which every system and algebra admits; any other refusal is returned. */
int slpi_problem_finish_unstepped(slpi_problem *p, slpi_error *err);
/* SLPI_EINPUT naming who if p has a T or level that slpi_problem_finish has not resolved
 * since the grid last changed. */
int slpi_problem_check_finished(const slpi_problem *p, const char *who, slpi_error *err);
/* Whole-problem validation: ranges, cross-key rules, applicability. */
int slpi_problem_validate(const slpi_problem *p, slpi_error *err);
/* 1 if stochastic Lie-Euler (rkmk-le) is Stratonovich-consistent for p's system and noise
 * model (its missed drift 1/2 sum_k ad*_{D xi_k[V_k]} mu vanishes; docs/schemes.md#rkmk, claim X4),
 * with the one-line reason in *why; 0 and why not otherwise. NULL: why (no reason). */
int slpi_problem_le_consistent(const slpi_problem *p, const char **why);

#ifdef __cplusplus
}
#endif
#endif
