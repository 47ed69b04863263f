/* zeitlin-multiplier.c — the Zeitlin family's multiplier lambda(l) as a model problem per
 * degree l (core/zeitlin-family.h), which each path evaluates with its own model tape. Apart
 * from core/zeitlin-family.c because it builds a problem through the keys, which core's
 * system descriptors (core/system.h) sit below. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "slpi/problem-build.h"
#include "core/problem-struct.h"
#include "core/expr.h"
#include "core/zeitlin-family.h"

int slpi_zeitlin_multiplier_model(slpi_model *m, const slpi_problem *p, int l, slpi_error *err)
{
    int uses_l;
    char v[32];
    memset(m, 0, sizeof *m);
    if (slpi_zeitlin_multiplier_parse(p->sys.ez.multiplier, &uses_l, err) != SLPI_OK) return SLPI_EINPUT;
    slpi_problem *q = malloc(sizeof *q);
    if (!q) return slpi_error_set(err, SLPI_EINPUT, "multiplier: out of memory");
    slpi_problem_init(q, SLPI_SYS_MODEL, SLPI_SCHEME_ISOMP);
    snprintf(v, sizeof v, "%d", l);
    int rc = slpi_problem_set(q, "algebra", "so3", err);
    if (rc == SLPI_OK) rc = slpi_problem_set(q, "H", p->sys.ez.multiplier, err);
    if (rc == SLPI_OK && uses_l) rc = slpi_problem_set(q, "param.l", v, err);
    if (rc == SLPI_OK) rc = slpi_model_parse(m, q, err);
    free(q);
    return rc;
}
