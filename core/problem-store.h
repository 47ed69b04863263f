/* core/problem-store.h — a problem's storage for code outside core/, which cannot size
 * one (docs/design.md#views): on the heap, freed by slpi_problem_free (slpi/problem.h),
 * or copied into another. Not installed. */
#ifndef SLPI_CORE_PROBLEM_STORE_H
#define SLPI_CORE_PROBLEM_STORE_H

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

/* Zeroed storage for one problem, for slpi_problem_init or slpi_problem_build to fill.
 * Returns NULL when memory runs out. Owns: the caller frees it with slpi_problem_free. */
slpi_problem *slpi_problem_alloc(void);
/* A copy of p on the heap. Returns NULL when memory runs out.
 * Owns: the caller frees it with slpi_problem_free. */
slpi_problem *slpi_problem_dup(const slpi_problem *p);
/* dst becomes a copy of src (a problem owns no memory, so this is the whole copy). */
void slpi_problem_copy(slpi_problem *dst, const slpi_problem *src);
/* Frees p; NULL: nothing. The handle API's (slpi/problem.h), declared here too, so that
 * a file that only allocates and frees problems needs no public header of the problem. */
void slpi_problem_free(slpi_problem *p);

#endif
