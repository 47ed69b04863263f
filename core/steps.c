/* steps.c — the one stepping primitive (core/steps.h; docs/architecture.md#steps): the
 * problem's noise source and one step of a path on its increments, tallied. */
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/process.h"
#include "slpi/noise.h"
#include "slpi/step.h"
#include "slpi/problem-shape.h"
#include "slpi/problem-finish.h"
#include "core/problem-struct.h"
#include "core/check.h"
#include "core/fpmode.h"
#include "core/steps.h"

int slpi_steps_open(slpi_steps *s, const slpi_problem *p, slpi_step_fn step, void *path, int noise, slpi_error *err)
{
    memset(s, 0, sizeof *s);
    s->step = step;
    s->path = path;
    s->prec = p->cert.prec;
    s->M = slpi_problem_noise_count(p);
    if (!(s->dW = calloc((size_t)s->M + 1, sizeof *s->dW)))
        return slpi_error_set(err, SLPI_EINPUT, "out of memory (%d increments)", s->M);
    return noise ? slpi_noise_source_open(&s->noise, p, err) : SLPI_OK;
}

int slpi_steps_rewind(slpi_steps *s, const slpi_problem *p, slpi_error *err)
{
    int noise = s->noise != NULL;
    if (noise) slpi_noise_source_close(s->noise);
    s->noise = NULL;
    s->prec = p->cert.prec;
    memset(&s->tally, 0, sizeof s->tally);
    memset(&s->info, 0, sizeof s->info);
    return noise ? slpi_noise_source_open(&s->noise, p, err) : SLPI_OK;
}

int slpi_steps_take(slpi_steps *s, long n, const double *dW, slpi_step_status *st, slpi_error *err)
{
    if (slpi_interrupt_pending()) return slpi_error_set(err, SLPI_EINTR, "interrupted before step %ld", n);
    if (!dW) {
        if (SLPI_NEVER(s->noise == NULL)) /* opened with noise = 0: every step's increments are given */
            return slpi_error_set(err, SLPI_EINPUT, "step %ld: no increments given and no noise source open", n);
        slpi_fpmode r = slpi_round_nearest(); /* the path's increments, whatever the caller's direction */
        int rc = slpi_noise_source_step(s->noise, n, s->dW, err);
        slpi_round_restore(r);
        if (rc != SLPI_OK) return rc;
        dW = s->dW;
    }
    memset(&s->info, 0, sizeof s->info);
    if (s->seek) s->seek(s->path, n);
    *st = s->step(s->path, dW, &s->info);
    if (slpi_step_failed(*st)) return SLPI_OK;
    slpi_step_tally *t = &s->tally;
    const slpi_step_info *i = &s->info;
    t->steps++;
    t->iterations += i->iterations;
    if (i->iterations > t->max_iterations) t->max_iterations = i->iterations;
    t->stagnated += *st == SLPI_STEP_STAGNATED;
    t->capped += *st == SLPI_STEP_CAPPED;
    if (i->prec > t->max_prec) t->max_prec = i->prec;
    t->prec_raised += i->prec > s->prec;
    if (i->radius > t->max_radius) t->max_radius = i->radius;
    return SLPI_OK;
}

long slpi_steps_clipped(const slpi_steps *s)
{
    return s->noise ? slpi_noise_source_clipped(s->noise) : 0;
}

void slpi_steps_close(slpi_steps *s)
{
    if (s->noise) slpi_noise_source_close(s->noise);
    free(s->dW);
    memset(s, 0, sizeof *s);
}

int slpi_steps_increments(const slpi_problem *p, long first, long count, double *out, long *clipped, slpi_error *err)
{
    slpi_problem q = *p;
    int rc = slpi_problem_finish(&q, err); /* a copy: the caller's problem stays as it is */
    if (rc != SLPI_OK) return rc;
    const int M = slpi_problem_noise_count(&q);
    if (first < 0 || count < 0 || first > q.grid.steps - count || (count > 0 && M > 0 && !out))
        return slpi_error_set(err, SLPI_EINPUT,
                              "increments: first=%ld, count=%ld: need 0 <= first, first + count <= steps = %ld "
                              "(and out)",
                              first, count, q.grid.steps);
    slpi_noise_source *src = NULL;
    rc = slpi_noise_source_open(&src, &q, err);
    slpi_fpmode rnd = slpi_round_nearest(); /* the increments as every caller's: core/fpmode.h */
    for (long i = 0; rc == SLPI_OK && i < count; i++) rc = slpi_noise_source_step(src, first + i, out + i * M, err);
    slpi_round_restore(rnd);
    if (rc == SLPI_OK && clipped) *clipped = slpi_noise_source_clipped(src);
    slpi_noise_source_close(src);
    return rc;
}
