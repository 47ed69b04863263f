/* initial-state.c — the problem's initial state (docs/systems.md), described once for both
 * paths. An explicit x0 / x0_file, or the system's default (its descriptor's default_state,
 * core/system-<name>.c): values, or for the su(N) systems coefficients that each path maps
 * with its own basis (the double path with its binary64 tables, the certified path in
 * balls), so that neither needs the other.
 * An explicit x0 / x0_file is read and checked here too (slpi_problem_explicit_x0,
 * slpi_problem_check_state): finite, the right count, on the system's manifold (the
 * descriptor's check_state). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "slpi/problem-shape.h"
#include "slpi/initial.h"
#include "core/problem-struct.h"
#include "core/problem.h"
#include "core/parse.h"
#include "core/fpmode.h"
#include "core/system.h"

slpi_initial_kind slpi_problem_initial_kind(const slpi_problem *p)
{
    const slpi_system_desc *d = slpi_system_get(p->sys.system);
    if (p->sys.n_x0 > 0 || p->sys.x0_file[0] || !d) return SLPI_INITIAL_VALUES;
    return d->initial_kind;
}

int slpi_problem_initial_size(const slpi_problem *p)
{
    const slpi_system_desc *d = slpi_system_get(p->sys.system);
    if (p->sys.n_x0 > 0 || p->sys.x0_file[0] || !d) return slpi_problem_state_dim(p);
    return d->initial_size(p);
}

/* The system's default, computed rounding to nearest whatever the caller's direction (the
 * caller of slpi_problem_initial_state sets it: core/fpmode.h), so that a default means
 * one state. */
static int default_state(const slpi_problem *p, double *x, slpi_error *err)
{
    const slpi_system_desc *d = slpi_system_get(p->sys.system);
    if (!d) return slpi_error_set(err, SLPI_EINPUT, "initial state: unknown system %d", (int)p->sys.system);
    return d->default_state(p, x, err);
}

int slpi_problem_initial_state(const slpi_problem *p, double *x, slpi_error *err)
{
    int given = slpi_problem_explicit_x0(p, x, err);
    if (given < 0) return err ? err->code : SLPI_EINPUT;
    if (given) return SLPI_OK;
    slpi_fpmode r = slpi_round_nearest();
    int rc = default_state(p, x, err);
    slpi_round_restore(r);
    return rc;
}

/* ------------------------------------------------------------ an explicit x0 */

/* An explicit initial state must lie on the system's manifold (the constraints the
 * schemes preserve, docs/conventions.md): each system's check_state. */
static int check_manifold(const slpi_problem *p, const double *x, const char *src, slpi_error *err)
{
    const slpi_system_desc *d = slpi_system_get(p->sys.system);
    return d ? d->check_state(p, x, src, err) : SLPI_OK;
}

int slpi_problem_check_state(const slpi_problem *p, const double *x, slpi_error *err)
{
    for (int i = 0; i < slpi_problem_state_dim(p); i++)
        if (!isfinite(x[i])) return slpi_error_set(err, SLPI_EINPUT, "x0[%d] = %g: not finite", i, x[i]);
    return check_manifold(p, x, "x0", err);
}

int slpi_problem_explicit_x0(const slpi_problem *p, double *x, slpi_error *err)
{
    int dim = slpi_problem_state_dim(p);
    if (p->sys.n_x0 > 0) {
        if (p->sys.n_x0 != dim) {
            slpi_error_set(err, SLPI_EINPUT, "x0: %d values given, the state has %d", p->sys.n_x0, dim);
            return -1;
        }
        memcpy(x, p->sys.x0, (size_t)dim * sizeof(double));
        return check_manifold(p, x, "x0", err) == SLPI_OK ? 1 : -1;
    }
    if (!p->sys.x0_file[0]) return 0;
    FILE *f = slpi_input_open(p->sys.x0_file, err);
    if (!f) return -1;
    int count = 0, lineno = 0, rc = 1;
    char *line = NULL; /* whole lines: a fixed buffer would split a number at its edge */
    size_t cap = 0;
    ssize_t len;
    while (rc == 1 && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
        if (len > 0 && line[len - 1] == '\r') line[--len] = '\0'; /* CRLF is harmless here */
        if (slpi_parse_text_line(p->sys.x0_file, lineno, line, (size_t)len, err) != SLPI_OK) {
            rc = -1;
            break;
        }
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *save = NULL, where[SLPI_PATH_MAX + 32];
        snprintf(where, sizeof where, "%s:%d:", p->sys.x0_file, lineno);
        for (char *tok = strtok_r(line, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
            double v;
            if (slpi_parse_double(where, tok, -DBL_MAX, DBL_MAX, &v, err) != SLPI_OK) {
                rc = -1;
                break;
            }
            if (count == dim) {
                slpi_error_set(err, SLPI_EINPUT, "%s:%d: more than the %d values of the state", p->sys.x0_file, lineno,
                               dim);
                rc = -1;
                break;
            }
            x[count++] = v;
        }
    }
    free(line);
    fclose(f);
    if (rc == 1 && count != dim) {
        slpi_error_set(err, SLPI_EINPUT, "%s: %d values, the state has %d", p->sys.x0_file, count, dim);
        rc = -1;
    }
    if (rc == 1 && check_manifold(p, x, p->sys.x0_file, err) != SLPI_OK) rc = -1;
    return rc;
}
