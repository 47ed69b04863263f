/* stepper-state.c — checkpoints of a stepper (slpi/stepper.h: slpi_stepper_save,
 * slpi_stepper_load): everything a stepper carries from one step to the next, as the
 * text of a run checkpoint (core/checkpoint.c's format "slpi-checkpoint" 2), so that a
 * stepper loaded at step n and advanced to the end gives the bits of one that never
 * stopped (python/slpi's run(checkpoint=, resume=) is built on it).
 *
 * What the text holds: the path (arith fast | ref), the state dimension, the step done,
 * the tally (iterations, max iterations, stagnated, capped, clipped increments, and on
 * the certified path the largest radius and precision), the OU state eta at that step
 * (coloured noise), the path's exact state tokens (fast/state-tokens.h,
 * ref/state-tokens.h: the state, the solver counters and the warm start; the balls and
 * the Lohner set), and the stepper's identity as "problem" lines: every key of its
 * finished problem (its noise path `path=` among them), then `stepper.x0=` with "problem"
 * (the problem's initial state) or the FNV-1a 64 digest of the initial state it was
 * given. No output file: out_bytes 0, and the row position follows from the step. A load
 * refuses text of another problem, path, initial state, dimension or arithmetic, a
 * checkpoint of `slpi run` (it names an output), and any malformed or edited text (the end
 * digest), naming what differs. */
#include "slpi/errors.h"
#include "slpi/problem.h"
#include "slpi/stepper.h"
#include "api/api.h"
#include "api/stepper-struct.h"
#include "core/blas.h"
#include "core/checkpoint.h"
#include "core/digest.h"
#include "core/noise.h"
#include "fast/state-tokens.h"
#include "ref/state-tokens.h"
#include "core/view-grid.h"
#include "core/view-noise.h"

#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The identity lines of s (its finished problem's keys, then stepper.x0=), malloc'd. */
static char *identity(const slpi_stepper *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    slpi_problem_write(s->q, f, "");
    if (s->given)
        fprintf(f, "stepper.x0=%016" PRIx64 "\n",
                slpi_fnv1a(SLPI_FNV_INIT, s->given, (size_t)s->dim * sizeof *s->given));
    else
        fprintf(f, "stepper.x0=problem\n");
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* The checkpoint text of s into *text (malloc'd), *len its bytes. */
static int stepper_text(slpi_stepper *s, char **text, size_t *len, slpi_error *err)
{
    const slpi_step_tally *t = &s->steps.tally;
    slpi_checkpoint c = { 0 };
    snprintf(c.arith, sizeof c.arith, "%s", s->fast ? "fast" : "ref");
    c.dim = s->dim;
    c.step = s->n;
    c.out_digest = SLPI_FNV_INIT; /* of no output */
    c.total_iters = t->iterations;
    c.res.max_iters = t->max_iterations;
    c.res.stagnated = t->stagnated;
    c.res.capped = t->capped;
    c.res.clipped = s->clipped;
    c.res.max_radius = t->max_radius;
    c.res.max_prec = t->max_prec;
    snprintf(c.zproduct, sizeof c.zproduct, "%s", slpi_blas_zproduct_used());
    int rc = SLPI_OK;
    if (s->M > 0 && !(c.ou_eta = calloc((size_t)s->M, sizeof *c.ou_eta)))
        rc = slpi_error_set(err, SLPI_EINPUT, "slpi_stepper_save: out of memory");
    else if ((c.nou = slpi_noise_source_ou_state(s->steps.noise, s->n, c.ou_eta)) < 0)
        rc = slpi_error_set(err, SLPI_EINPUT,
                            "slpi_stepper_save: the noise source does not hold the OU state of step %ld "
                            "(the steps were given their increments: save where the problem's noise steps)",
                            s->n);
    if (rc == SLPI_OK && !(c.problem = identity(s)))
        rc = slpi_error_set(err, SLPI_EINPUT, "slpi_stepper_save: out of memory");
    if (rc == SLPI_OK) {
        c.ntokens = s->fast ? slpi_fast_state_tokens(&c.x, s->fast, s->x, s->dim)
                            : slpi_ref_state_tokens(&c.x, s->cert, s->bx, s->dim);
        if (c.ntokens < 0) {
            c.ntokens = 0;
            rc = slpi_error_set(err, SLPI_EINPUT, "slpi_stepper_save: out of memory for the state");
        }
    }
    if (rc == SLPI_OK && !(*text = slpi_checkpoint_format(&c, len)))
        rc = slpi_error_set(err, SLPI_EINPUT, "slpi_stepper_save: out of memory");
    slpi_checkpoint_free(&c);
    return rc;
}

long slpi_stepper_save(slpi_stepper *s, char *buf, size_t n)
{
    slpi_error err = { 0 };
    char *text = NULL;
    size_t len = 0;
    int rc = stepper_text(s, &text, &len, &err);
    if (rc != SLPI_OK) {
        slpi_api_record(&err, rc);
        return -1;
    }
    if (buf && n > 0) snprintf(buf, n, "%s", text);
    free(text);
    return (long)len;
}

/* SLPI_OK when the checkpoint c is of this stepper (problem, path, initial state, path
 * arithmetic, dimension, a step of its run); else the difference, named. */
static int same_stepper(const slpi_stepper *s, const slpi_checkpoint *c, slpi_error *err)
{
    const char *arith = s->fast ? "fast" : "ref";
    if (c->out_bytes != 0)
        return slpi_error_set(err, SLPI_EINPUT,
                              "checkpoint: one of `slpi run` (it names %ld bytes of output): resume it with "
                              "slpi run --resume, or save one with slpi_stepper_save",
                              c->out_bytes);
    if (strcmp(c->arith, arith) != 0)
        return slpi_error_set(err, SLPI_EINPUT, "checkpoint: of the %s path, this stepper steps the %s path", c->arith,
                              arith);
    if (c->dim != s->dim)
        return slpi_error_set(err, SLPI_EINPUT, "checkpoint: a state of %d doubles, this stepper's has %d", c->dim,
                              s->dim);
    char *want = identity(s);
    if (!want) return slpi_error_set(err, SLPI_EINPUT, "slpi_stepper_load: out of memory");
    int rc = SLPI_OK;
    for (const char *a = c->problem, *b = want; rc == SLPI_OK && (*a || *b);) {
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        if (la != lb || memcmp(a, b, la) != 0)
            rc = slpi_error_set(err, SLPI_EINPUT,
                                "checkpoint: of another problem, noise path or initial state: it has %.*s, this "
                                "stepper %.*s",
                                (int)(la ? la : 5), la ? a : "(end)", (int)(lb ? lb : 5), lb ? b : "(end)");
        a += la + (a[la] == '\n');
        b += lb + (b[lb] == '\n');
    }
    free(want);
    const char *have = slpi_blas_zproduct_used();
    if (rc == SLPI_OK && c->zproduct[0] && have[0] && strcmp(c->zproduct, have) != 0)
        rc = slpi_error_set(err, SLPI_EINPUT,
                            "checkpoint: its products were formed with %s, and this process forms them with %s "
                            "(%s): set SLPI_ZPRODUCT=%s before its first su(N) kernel (docs/install.md#products)",
                            c->zproduct, slpi_blas_zproduct_name(), slpi_blas_zproduct_why(), c->zproduct);
    if (rc == SLPI_OK && c->step > slpi_view_grid(s->q)->steps)
        rc = slpi_error_set(err, SLPI_EINPUT, "checkpoint: step %ld, past this run's %ld steps", c->step,
                            slpi_view_grid(s->q)->steps);
    if (rc == SLPI_OK && c->nou != 0 && c->nou != s->M)
        rc = slpi_error_set(err, SLPI_EINPUT, "checkpoint: an OU state of %d components, the noise has %d", c->nou,
                            s->M);
    double *eta = rc == SLPI_OK && s->M > 0 ? calloc((size_t)s->M, sizeof *eta) : NULL;
    int coloured = eta && slpi_noise_source_ou_state(s->steps.noise, s->n, eta) != 0; /* M, or -1: not held */
    free(eta);
    if (rc == SLPI_OK && coloured != (c->nou > 0))
        rc = slpi_error_set(err, SLPI_EINPUT, "checkpoint: %s, and the noise is %s",
                            coloured ? "holds no OU state (ou_eta)" : "holds an OU state (ou_eta)",
                            coloured ? "coloured (noise_tau)" : "white");
    return rc;
}

/* The checkpoint c (of this stepper) into s: back to step 0, then its state, step, OU
 * state and tally. On error s is left at step 0 of its path. */
static int restore(slpi_stepper *s, const slpi_checkpoint *c, slpi_error *err)
{
    int rc = slpi_stepper_restart(s, slpi_view_noise(s->q)->path);
    if (rc != SLPI_OK) return slpi_error_set(err, rc, "%s", slpi_api_last_error());
    rc = s->fast ? slpi_fast_state_untokens(s->fast, s->x, s->dim, c->ntokens, c->x)
                 : slpi_ref_state_untokens(s->cert, s->bx, s->dim, c->ntokens, c->x);
    if (rc == SLPI_OK && c->nou > 0 && slpi_noise_source_ou_set(s->steps.noise, c->step, c->ou_eta) != 0)
        rc = SLPI_EINPUT;
    if (rc != SLPI_OK) {
        slpi_stepper_restart(s, slpi_view_noise(s->q)->path);
        return slpi_error_set(err, SLPI_EINPUT,
                              "checkpoint: its state tokens are not a state of this stepper (%d tokens; an edited "
                              "checkpoint?): the stepper is back at step 0",
                              c->ntokens);
    }
    if (s->fast)
        slpi_fast_set_step_index(s->fast, c->step);
    else
        slpi_ref_set_step_index(s->cert, c->step);
    s->n = c->step;
    slpi_step_tally *t = &s->steps.tally;
    t->steps = c->step;
    t->iterations = c->total_iters;
    t->max_iterations = c->res.max_iters;
    t->stagnated = c->res.stagnated;
    t->capped = c->res.capped;
    t->max_radius = c->res.max_radius;
    t->max_prec = c->res.max_prec;
    s->clipped = s->clip_base = c->res.clipped;
    return SLPI_OK;
}

int slpi_stepper_load(slpi_stepper *s, const char *text)
{
    slpi_error err = { 0 };
    if (s->observing)
        return slpi_api_record(&err,
                               slpi_error_set(&err, SLPI_EINPUT,
                                              "load: called from the stepper's own observer (return nonzero "
                                              "to stop instead)"));
    slpi_checkpoint c;
    int rc = slpi_checkpoint_parse(&c, "checkpoint", text, &err);
    if (rc != SLPI_OK) return slpi_api_record(&err, rc);
    rc = same_stepper(s, &c, &err);
    if (rc == SLPI_OK) rc = restore(s, &c, &err);
    slpi_checkpoint_free(&c);
    return slpi_api_record(&err, rc);
}
