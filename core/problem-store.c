/* core/problem-store.c — a problem on the heap, or copied (core/problem-store.h,
 * docs/design.md#views). */
#include "slpi/problem.h"
#include "core/problem-store.h"
#include "core/problem-struct.h"

#include <stdlib.h>

slpi_problem *slpi_problem_alloc(void)
{
    return calloc(1, sizeof(slpi_problem));
}

slpi_problem *slpi_problem_dup(const slpi_problem *p)
{
    slpi_problem *q = malloc(sizeof *q);
    if (q) *q = *p;
    return q;
}

void slpi_problem_copy(slpi_problem *dst, const slpi_problem *src)
{
    *dst = *src;
}

void slpi_problem_free(slpi_problem *p)
{
    free(p);
}
