/* rows.c — the output grid (core/rows.h; docs/conventions.md#save-at): output_every, or the
 * times of the key save_at, each on the step grid t = n h within the tolerance a
 * trajectory's time column has ((1e-12 + 4 n u) max(1, |n h|), oracle/README.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "core/problem-struct.h"
#include "core/rows.h"
#include "core/parse.h"

/* The steps of save_at's text "t1,t2,..." into r->at (a time 0 is the initial row: none). */
static int parse_save_at(slpi_rows *r, const slpi_problem *p, slpi_error *err)
{
    const char *s = p->grid.save_at;
    long cap = 1;
    for (const char *c = s; *c; c++) cap += *c == ',';
    if (!(r->at = malloc((size_t)cap * sizeof *r->at)))
        return slpi_error_set(err, SLPI_EINPUT, "save_at: out of memory");
    double prev = 0;
    for (long i = 0; i < cap; i++) {
        int len = (int)strcspn(s, ","); /* the time as given, for the messages */
        char one[512], name[48];
        double t;
        /* each time through the one number scanner (docs/conventions.md#numbers) */
        snprintf(one, sizeof one, "%.*s", len, s);
        snprintf(name, sizeof name, "save_at (time %ld)", i + 1);
        if (len >= (int)sizeof one || slpi_parse_double(name, one, -HUGE_VAL, HUGE_VAL, &t, err) != SLPI_OK)
            return slpi_error_set(err, SLPI_EINPUT, "save_at: '%.*s' (time %ld) is not a number", len, s, i + 1);
        if (i > 0 && !(t > prev))
            return slpi_error_set(err, SLPI_EINPUT, "save_at: the times must increase: %.*s after %.17g", len, s, prev);
        double q = t / p->grid.h, n = nearbyint(q),
               tol = (1e-12 + 4 * fabs(n) * 0x1p-53) * fmax(1, fabs(n * p->grid.h));
        if (!(fabs(t - n * p->grid.h) <= tol)) {
            double lo = floor(q) * p->grid.h, hi = (floor(q) + 1) * p->grid.h;
            return slpi_error_set(err, SLPI_EINPUT,
                                  "save_at: t = %.*s is not on the step grid of h = %.17g: the "
                                  "nearest grid times are %.17g and %.17g",
                                  len, s, p->grid.h, lo, hi);
        }
        if (n < 0 || n > (double)p->grid.steps)
            return slpi_error_set(err, SLPI_EINPUT, "save_at: t = %.*s is outside the run, 0..T = %.17g (%ld steps)",
                                  len, s, (double)p->grid.steps * p->grid.h, p->grid.steps);
        if (n > 0) r->at[r->nat++] = (long)n;
        prev = t;
        s += len + (s[len] == ',');
    }
    return SLPI_OK;
}

int slpi_rows_open(slpi_rows *r, const slpi_problem *p, slpi_error *err)
{
    *r = (slpi_rows){ p->grid.output_every, p->grid.steps, NULL, 0, 0 };
    if (p->grid.save_at[0] == '\0') return SLPI_OK;
    int rc = parse_save_at(r, p, err);
    if (rc != SLPI_OK) slpi_rows_close(r);
    return rc;
}

int slpi_rows_open_every(slpi_rows *r, const slpi_problem *p, long every, slpi_error *err)
{
    if (every < 0)
        return slpi_error_set(err, SLPI_EINPUT, "every=%ld: must be >= 0 (0: the problem's output grid)", every);
    if (every == 0) return slpi_rows_open(r, p, err);
    *r = (slpi_rows){ every, p->grid.steps, NULL, 0, 0 };
    return SLPI_OK;
}

void slpi_rows_close(slpi_rows *r)
{
    free(r->at);
    r->at = NULL;
    r->nat = r->next = 0;
}

int slpi_rows_take(slpi_rows *r, long step)
{
    if (!r->at) return step % r->every == 0 || step == r->steps;
    while (r->next < r->nat && r->at[r->next] < step) r->next++;
    return r->next < r->nat && r->at[r->next] == step;
}

long slpi_rows_count(const slpi_rows *r)
{
    if (r->at) return 1 + r->nat;
    return r->steps / r->every + 1 + (r->steps % r->every != 0);
}

long slpi_rows_step(const slpi_rows *r, long i)
{
    if (i == 0) return 0;
    if (r->at) return r->at[i - 1];
    return i * r->every < r->steps ? i * r->every : r->steps;
}

long slpi_rows_last(const slpi_rows *r, long step)
{
    if (!r->at) return step % r->every == 0 || step == r->steps ? step : step - step % r->every;
    long last = 0;
    for (long i = 0; i < r->nat && r->at[i] <= step; i++) last = r->at[i];
    return last;
}
