/* api.c — the handle-based C API for bindings (slpi.h, "handle API for bindings"; the
 * Python package python/slpi uses it through cffi): opaque problems set up by key names,
 * steppers that advance the fast or the certified path in pieces, integration into a
 * caller's buffer, ensembles of final states, and the last error of the calling thread as
 * a string. No struct of slpi.h has to be mirrored by a caller. It is its own module of
 * libslpi (api/) because it drives both paths (core/ must not depend on fast/ or ref/);
 * the tools' entry points (slpi-tools.h: verify, golden, converge) live in the tools
 * library and record their errors through slpi_api_record (api/api.h). */
#include "slpi/errors.h"
#include "slpi/problem.h"
#include "slpi/plan.h"
#include "slpi/noise.h"
#include "slpi/step.h"
#include "slpi/version.h"
#include "slpi/fast.h"
#include "slpi/ref.h"
#include "slpi/stepper.h"
#include "slpi/problem-build.h"
#include "slpi/problem-shape.h"
#include "slpi/initial.h"
#include "slpi/problem-finish.h"
#include <stdint.h>
#include <stddef.h>
#include "api/api.h"
#include "api/stepper-struct.h"
#include "core/rows.h"
#include "core/steps.h"
#include "core/progress.h"
#include "core/fpmode.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/problem-store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char last_error[512];

int slpi_api_record(const slpi_error *err, int rc)
{
    if (rc != SLPI_OK) snprintf(last_error, sizeof last_error, "%s", err->msg[0] ? err->msg : "error");
    return rc;
}

/* A failed allocation of a function that returns no code: SLPI_EINPUT, "WHO: out of memory",
 * recorded like every other error (docs/conventions.md#errors). */
static void api_out_of_memory(const char *who)
{
    slpi_error err = { 0 };
    slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "%s: out of memory", who));
}

/* The text of slpi_problem_text into *text (the caller frees it), its length returned;
 * -1 when out of memory (recorded, naming who). */
static long problem_text(const slpi_problem *p, char **text, const char *who)
{
    size_t len = 0;
    FILE *f = open_memstream(text, &len);
    if (!f) {
        api_out_of_memory(who);
        return -1;
    }
    slpi_problem *q = slpi_problem_dup(p); /* the finished problem where it finishes, as a run's header */
    slpi_error err = { 0 };
    slpi_problem_write(q && slpi_problem_finish(q, &err) == SLPI_OK ? q : p, f, "");
    slpi_problem_free(q);
    fclose(f);
    return (long)len;
}

long slpi_problem_text(const slpi_problem *p, char *buf, size_t n)
{
    char *text = NULL;
    long len = problem_text(p, &text, "slpi_problem_text");
    if (len >= 0 && n > 0) snprintf(buf, n, "%s", text);
    free(text);
    return len;
}

/* 1 if key names a key of the table (slpi_problem_key), a model's noise_H<k> or param.<NAME> */
static int is_key(const char *key)
{
    const char *name, *sys, *help;
    for (int i = 0; slpi_problem_key(i, &name, &sys, &help); i++)
        if (strcmp(name, key) == 0) return 1;
    if (strncmp(key, "noise_H", 7) == 0) return key[7] && strspn(key + 7, "0123456789") == strlen(key + 7);
    return strncmp(key, "param.", 6) == 0 && key[6];
}

long slpi_problem_get_key(const slpi_problem *p, const char *key, char *buf, size_t n)
{
    slpi_error err = { 0 };
    if (!is_key(key)) {
        slpi_error_set(&err, SLPI_EINPUT, "%s: unknown key (the keys: `slpi list --keys`, slpi_problem_key)", key);
        slpi_api_record(&err, SLPI_EINPUT);
        return -1;
    }
    char *text = NULL;
    if (problem_text(p, &text, "slpi_problem_get_key") < 0) {
        free(text);
        return -1;
    }
    size_t kl = strlen(key);
    const char *v = "";
    for (const char *line = text; *line; line++) { /* line: the start of each line */
        if (strncmp(line, key, kl) == 0 && line[kl] == '=') {
            v = line + kl + 1;
            break;
        }
        line += strcspn(line, "\n");
        if (!*line) break;
    }
    int len = (int)strcspn(v, "\n");
    if (n > 0) snprintf(buf, n, "%.*s", len, v);
    free(text);
    return len;
}

const char *slpi_api_last_error(void)
{
    return last_error;
}

slpi_problem *slpi_problem_new(const char *preset)
{
    slpi_problem *p = slpi_problem_alloc();
    slpi_error err = { 0 };
    if (!p) {
        api_out_of_memory("slpi_problem_new");
        return NULL;
    }
    if (slpi_api_record(&err,
                        slpi_problem_build(p, preset && preset[0] ? preset : NULL, NULL, 0, NULL, NULL, NULL, &err)) !=
        SLPI_OK) {
        slpi_problem_free(p);
        return NULL;
    }
    return p;
}

int slpi_problem_set_key(slpi_problem *p, const char *key, const char *value)
{
    slpi_error err = { 0 };
    return slpi_api_record(&err, slpi_problem_set(p, key, value, &err));
}

/* The finished copy a run uses (h, steps from T and level; validated) into *q, which the
 * caller frees with slpi_problem_free (NULL when memory ran out: recorded, naming who),
 * and with plan its plan, which the run objects are made from (NULL: not asked). */
static int finished(const slpi_problem *p, slpi_problem **q, slpi_plan **plan, const char *who)
{
    slpi_error err = { 0 };
    if (!(*q = slpi_problem_dup(p))) {
        api_out_of_memory(who);
        return SLPI_EINPUT;
    }
    int rc = plan ? slpi_problem_plan(plan, *q, &err) : slpi_problem_finish(*q, &err);
    return slpi_api_record(&err, rc);
}

/* slpi_problem_shape's outputs from the finished problem q. */
static int problem_shape(const slpi_problem *q, int *dim, int *noises, long *steps, long *rows, double *h, int *every)
{
    const slpi_grid_view *grid = slpi_view_grid(q);
    if (dim) *dim = slpi_problem_state_dim(q); /* each output may be NULL */
    if (noises) *noises = slpi_problem_noise_count(q);
    if (steps) *steps = grid->steps;
    if (rows) {
        slpi_rows r;
        slpi_error err = { 0 };
        int rc = slpi_rows_open(&r, q, &err);
        if (rc != SLPI_OK) return slpi_api_record(&err, rc);
        *rows = slpi_rows_count(&r);
        slpi_rows_close(&r);
    }
    if (h) *h = grid->h;
    if (every) *every = grid->output_every;
    return SLPI_OK;
}

int slpi_problem_shape(const slpi_problem *p, int *dim, int *noises, long *steps, long *rows, double *h, int *every)
{
    slpi_problem *q;
    int rc = finished(p, &q, NULL, "slpi_problem_shape");
    if (rc == SLPI_OK) rc = problem_shape(q, dim, noises, steps, rows, h, every);
    slpi_problem_free(q);
    return rc;
}

int slpi_problem_increments(const slpi_problem *p, long first, long count, double *out, long *clipped)
{
    slpi_error err = { 0 };
    return slpi_api_record(&err, slpi_steps_increments(p, first, count, out, clipped, &err));
}

int slpi_problem_state_label(const slpi_problem *p, int i, char *buf, size_t n)
{
    slpi_problem *q;
    int rc = finished(p, &q, NULL, "slpi_problem_state_label");
    if (rc == SLPI_OK) slpi_problem_state_name(q, i, buf, n);
    slpi_problem_free(q);
    return rc;
}

/* ------------------------------------------------------------------ steppers
 * A run that advances in pieces (slpi.h, "steppers"): the state of the fast path (doubles)
 * or of the certified path (balls) from the problem's initial state or a given one, the
 * problem's noise source or the caller's increments (clipped at the problem's threshold,
 * as a noise file's are), and the rows of every `every`-th step and the last one. Step n's
 * increments depend only on n, so any split of the steps into advances gives the same
 * bits as one call (python/slpi runs in pieces of about 0.05 s to stay interruptible). */

static int stepper_error(slpi_error *err, int code, const char *what)
{
    return slpi_api_record(err, slpi_error_set(err, code, "%s", what));
}

/* An advance or restart from inside the stepper's own observer would move the state the
 * outer advance is writing rows of (its rows would not add up): refused, defined. */
static int inside_observer(slpi_stepper *s, const char *what, slpi_error *err)
{
    if (!s->observing) return 0;
    stepper_error(err, SLPI_EINPUT, what);
    return 1;
}

/* Back to step 0 of the current path: the initial state, fresh noise and counters. */
static int stepper_rewind(slpi_stepper *s, slpi_error *err)
{
    int rc = SLPI_OK;
    s->clipped = s->clip_base = 0;
    s->n = 0;
    s->rows.next = 0;
    if (s->fast) {
        static const long zero[SLPI_FAST_NCOUNTERS];
        slpi_fast_set_counters(s->fast, zero); /* the diagnostics' solver counts are the path's own */
        slpi_fast_set_step_index(s->fast, 0);  /* and its time: t0 (docs/models.md#time) */
        if (s->given)
            memcpy(s->x0, s->given, (size_t)s->dim * sizeof *s->x0);
        else
            rc = slpi_fast_initial_state(s->fast, s->x0, err);
        if (rc == SLPI_OK) memcpy(s->x, s->x0, (size_t)s->dim * sizeof *s->x);
    } else {
        slpi_ref_set_step_index(s->cert, 0);
        if (s->given)
            for (int i = 0; i < s->dim; i++) arb_set_d(s->bx0 + i, s->given[i]);
        else
            rc = slpi_ref_initial_state(s->cert, s->bx0, err);
        if (rc == SLPI_OK) _arb_vec_set(s->bx, s->bx0, s->dim);
    }
    if (rc == SLPI_OK)
        rc = s->steps.step ? slpi_steps_rewind(&s->steps, s->q, err)
            : s->fast      ? slpi_steps_open(&s->steps, s->q, slpi_fast_step_at, &s->fat, 1, err)
                           : slpi_steps_open(&s->steps, s->q, slpi_ref_step_at, &s->rat, 1, err);
    return rc;
}

void slpi_stepper_free(slpi_stepper *s)
{
    if (!s) return;
    slpi_steps_close(&s->steps);
    slpi_rows_close(&s->rows);
    if (s->fast) slpi_fast_free(s->fast);
    if (s->cert) slpi_ref_free(s->cert);
    if (s->bx) _arb_vec_clear(s->bx, s->dim);
    if (s->bx0) _arb_vec_clear(s->bx0, s->dim);
    free(s->x);
    free(s->x0);
    free(s->given0);
    free(s->user);
    free(s->dW);
    free(s->mid);
    slpi_problem_free(s->q);
    free(s);
}

/* A double and an upper bound of its distance to every point of the ball b. */
static void ball_to_doubles(const arb_t b, double *mid, double *rad)
{
    arb_t t;
    arf_t u;
    arb_init(t);
    arf_init(u);
    *mid = arf_get_d(arb_midref(b), ARF_RND_NEAR);
    arb_set_d(t, *mid);
    arb_sub(t, b, t, 64);
    arb_get_abs_ubound_arf(u, t, 64);
    *rad = arf_get_d(u, ARF_RND_UP);
    arf_clear(u);
    arb_clear(t);
}

/* The diagnostics of the current state: names (may be NULL), values and radii (may be NULL). */
static int stepper_diag(slpi_stepper *s, const char **names, double *v, double *r)
{
    int n;
    slpi_fpmode rnd = slpi_round_nearest(); /* the diagnostics round as every caller's: core/fpmode.h */
    if (s->fast) {
        slpi_diag d;
        d.n = 0;
        slpi_fast_diagnostics(s->fast, s->x, s->x0, &d);
        n = d.n;
        for (int i = 0; i < n; i++) {
            if (names) names[i] = d.name[i];
            if (v) v[i] = d.value[i];
            if (r) r[i] = 0;
        }
    } else {
        slpi_ref_diag d;
        slpi_ref_diag_init(&d);
        slpi_ref_diagnostics(s->cert, s->bx, s->bx0, &d);
        n = d.n;
        for (int i = 0; i < n; i++) {
            double m, rr;
            if (names) names[i] = d.name[i];
            ball_to_doubles(d.value + i, &m, &rr);
            if (v) v[i] = m;
            if (r) r[i] = rr;
        }
        slpi_ref_diag_clear(&d);
    }
    slpi_round_restore(rnd);
    return n;
}

int slpi_stepper_new_plan(slpi_stepper **out, const slpi_plan *plan, int ref, const double *x0, int nx0)
{
    slpi_error err = { 0 };
    *out = NULL;
    slpi_stepper *s = calloc(1, sizeof *s);
    if (!s) return stepper_error(&err, SLPI_EINPUT, "out of memory");
    int rc = (s->q = slpi_problem_dup(slpi_plan_problem(plan))) ? SLPI_OK
                                                                : stepper_error(&err, SLPI_EINPUT, "out of memory");
    if (rc != SLPI_OK) {
        free(s);
        return rc;
    }
    s->ref = ref != 0;
    s->dim = slpi_problem_state_dim(s->q);
    s->M = slpi_problem_noise_count(s->q);
    s->D = slpi_problem_noise_threshold(s->q);
    if (x0 && nx0 != s->dim)
        rc = slpi_error_set(&err, SLPI_EINPUT, "x0: %d values given, the state has %d", nx0, s->dim);
    s->x = calloc((size_t)s->dim, sizeof *s->x);
    s->x0 = calloc((size_t)s->dim, sizeof *s->x0);
    s->dW = calloc((size_t)s->M + 1, sizeof *s->dW);
    s->mid = calloc((size_t)s->dim, sizeof *s->mid);
    if (rc == SLPI_OK && (!s->x || !s->x0 || !s->dW || !s->mid))
        rc = slpi_error_set(&err, SLPI_EINPUT, "out of memory");
    if (rc == SLPI_OK) rc = slpi_rows_open(&s->rows, s->q, &err);
    if (rc == SLPI_OK && x0) {
        if (!(s->given = malloc((size_t)s->dim * sizeof *s->given)))
            rc = slpi_error_set(&err, SLPI_EINPUT, "out of memory");
        else {
            memcpy(s->given, x0, (size_t)s->dim * sizeof *s->given);
            rc = slpi_problem_check_state(s->q, s->given, &err);
        }
    } else if (rc == SLPI_OK) {
        int given = slpi_problem_explicit_x0(s->q, s->x0, &err);
        if (given < 0)
            rc = SLPI_EINPUT;
        else if (given && !(s->given = malloc((size_t)s->dim * sizeof *s->given)))
            rc = slpi_error_set(&err, SLPI_EINPUT, "out of memory");
        else if (given)
            memcpy(s->given, s->x0, (size_t)s->dim * sizeof *s->given);
    }
    s->given0 = s->given;
    if (rc == SLPI_OK && s->ref) {
        rc = slpi_ref_create_plan(&s->cert, plan, &err);
        if (rc == SLPI_OK) {
            s->bx = _arb_vec_init(s->dim);
            s->bx0 = _arb_vec_init(s->dim);
            s->rat = (slpi_ref_at){ s->cert, s->bx };
        }
    } else if (rc == SLPI_OK) {
        rc = slpi_fast_create_plan(&s->fast, plan, &err);
        s->fat = (slpi_fast_at){ s->fast, s->x };
    }
    if (rc == SLPI_OK) rc = stepper_rewind(s, &err);
    if (rc == SLPI_OK) s->ndiag = stepper_diag(s, s->diag_name, NULL, NULL);
    if (rc != SLPI_OK) {
        slpi_stepper_free(s);
        return slpi_api_record(&err, rc);
    }
    *out = s;
    return SLPI_OK;
}

int slpi_stepper_new(slpi_stepper **out, const slpi_problem *p, int ref, const double *x0, int nx0)
{
    slpi_problem *q; /* the finished copy its plan is made of */
    slpi_plan *plan = NULL;
    *out = NULL;
    int rc = finished(p, &q, &plan, "slpi_stepper_new");
    slpi_problem_free(q);
    if (rc == SLPI_OK) rc = slpi_stepper_new_plan(out, plan, ref, x0, nx0);
    slpi_plan_unref(plan); /* the run objects hold what they need of it */
    return rc;
}

int slpi_stepper_restart(slpi_stepper *s, uint64_t path)
{
    slpi_error err = { 0 };
    if (inside_observer(s, "restart: called from the stepper's own observer (return nonzero to stop instead)", &err))
        return SLPI_EINPUT;
    slpi_view_noise_edit(s->q)->path = path;
    return slpi_api_record(&err, stepper_rewind(s, &err));
}

int slpi_stepper_restart_from(slpi_stepper *s, uint64_t path, const double *x0, int nx0)
{
    slpi_error err = { 0 };
    if (inside_observer(s, "restart: called from the stepper's own observer (return nonzero to stop instead)", &err))
        return SLPI_EINPUT;
    if (x0) {
        int rc = nx0 != s->dim ? slpi_error_set(&err, SLPI_EINPUT, "x0: %d values given, the state has %d", nx0, s->dim)
                               : slpi_problem_check_state(s->q, x0, &err);
        if (rc != SLPI_OK) return slpi_api_record(&err, rc);
        if (!s->user && !(s->user = malloc((size_t)s->dim * sizeof *s->user)))
            return stepper_error(&err, SLPI_EINPUT, "out of memory");
        memcpy(s->user, x0, (size_t)s->dim * sizeof *s->user);
    }
    s->given = x0 ? s->user : s->given0;
    slpi_view_noise_edit(s->q)->path = path;
    return slpi_api_record(&err, stepper_rewind(s, &err));
}

void slpi_stepper_shape(const slpi_stepper *s, int *dim, int *noises, int *ndiag, long *steps, double *h)
{
    if (dim) *dim = s->dim; /* each output may be NULL, as in slpi_problem_shape */
    if (noises) *noises = s->M;
    if (ndiag) *ndiag = s->ndiag;
    if (steps) *steps = slpi_view_grid(s->q)->steps;
    if (h) *h = slpi_view_grid(s->q)->h;
}

long slpi_stepper_row_steps(const slpi_stepper *s, long every, long *steps)
{
    slpi_error err = { 0 };
    slpi_rows r;
    if (slpi_rows_open_every(&r, s->q, every, &err) != SLPI_OK) {
        slpi_api_record(&err, SLPI_EINPUT);
        return -1;
    }
    long n = slpi_rows_count(&r);
    for (long i = 0; steps && i < n; i++) steps[i] = slpi_rows_step(&r, i);
    slpi_rows_close(&r);
    return n;
}

const char *slpi_stepper_diag_name(const slpi_stepper *s, int i)
{
    return i >= 0 && i < s->ndiag ? s->diag_name[i] : NULL;
}

long slpi_stepper_position(const slpi_stepper *s)
{
    return s->n;
}

void slpi_stepper_counts(const slpi_stepper *s, long counts[SLPI_STEPPER_NCOUNTS])
{
    const slpi_step_tally *t = &s->steps.tally;
    counts[SLPI_STEPPER_STEPS] = t->steps;
    counts[SLPI_STEPPER_ITERATIONS] = t->iterations;
    counts[SLPI_STEPPER_MAX_ITERATIONS] = t->max_iterations;
    counts[SLPI_STEPPER_STAGNATED] = t->stagnated;
    counts[SLPI_STEPPER_CAPPED] = t->capped;
    counts[SLPI_STEPPER_CLIPPED] = s->clipped;
    counts[SLPI_STEPPER_MAX_PREC] = t->max_prec;
}

void slpi_stepper_row(slpi_stepper *s, double *x, double *xrad, double *diag, double *drad)
{
    for (int i = 0; i < s->dim; i++) {
        if (s->fast) {
            x[i] = s->x[i];
            if (xrad) xrad[i] = 0;
        } else {
            double m, r;
            ball_to_doubles(s->bx + i, &m, &r);
            x[i] = m;
            if (xrad) xrad[i] = r;
        }
    }
    if (diag || drad) stepper_diag(s, NULL, diag, drad);
}

void slpi_stepper_set_observer(slpi_stepper *s, slpi_observer fn, void *ctx)
{
    s->observer = fn;
    s->observer_ctx = ctx;
}

/* The observer on the state after step s->n (the certified path's: its midpoints). */
static int observe(slpi_stepper *s)
{
    const double *x = s->x;
    if (s->cert) {
        for (int i = 0; i < s->dim; i++) s->mid[i] = arf_get_d(arb_midref(s->bx + i), ARF_RND_NEAR);
        x = s->mid;
    }
    s->observing = 1;
    int stop = s->observer(s->observer_ctx, s->n, (double)s->n * slpi_view_grid(s->q)->h, x, s->dim);
    s->observing = 0;
    return stop;
}


int slpi_stepper_advance(slpi_stepper *s, long count, const double *dW, long every, double *x, double *xrad,
                         double *diag, double *drad, int *iters, double *resid, long *rows)
{
    slpi_error err = { 0 };
    int rc = SLPI_OK;
    *rows = 0;
    if (inside_observer(s, "advance: called from the stepper's own observer (return nonzero to stop instead)", &err))
        return SLPI_EINPUT;
    if (count < 0 || count > slpi_view_grid(s->q)->steps - s->n)
        return stepper_error(&err, SLPI_EINPUT, "advance: count outside 0..the steps left");
    if (every < 0) return stepper_error(&err, SLPI_EINPUT, "advance: every must be >= 0");
    for (long k = 0; k < count; k++) {
        long n = s->n;
        if (dW) {
            for (int j = 0; j < s->M; j++) {
                double w = dW[k * s->M + j];
                if (!isfinite(w)) {
                    rc = slpi_error_set(&err, SLPI_EINPUT, "dW[%ld, %d] = %g: increments must be finite", k, j, w);
                    break;
                }
                s->dW[j] = w > s->D ? s->D : w < -s->D ? -s->D : w;
                s->clipped += fabs(w) > s->D;
            }
            if (rc != SLPI_OK) break;
        }
        slpi_step_status st;
        rc = slpi_steps_take(&s->steps, n, dW ? s->dW : NULL, &st, &err);
        if (!dW) s->clipped = s->clip_base + slpi_steps_clipped(&s->steps); /* current for an observer's save */
        if (rc != SLPI_OK) break;
        const slpi_step_info info = s->steps.info;
        if (slpi_step_failed(st)) {
            const char *why = s->cert ? slpi_ref_unable_reason(s->cert) : slpi_fast_failure_reason(s->fast);
            rc = slpi_error_set(&err, SLPI_ENUMERIC, "step %ld: %s after %d iterations, residual %.3g%s%s", n,
                                slpi_step_status_name(st), info.iterations, info.residual, why[0] ? ": " : "", why);
            break;
        }
        s->n = n + 1;
        if (every ? s->n % every == 0 || s->n == slpi_view_grid(s->q)->steps : slpi_rows_take(&s->rows, s->n)) {
            long r = (*rows)++;
            slpi_stepper_row(s, x + r * s->dim, xrad ? xrad + r * s->dim : NULL, diag ? diag + r * s->ndiag : NULL,
                             drad ? drad + r * s->ndiag : NULL);
            if (iters) iters[r] = info.iterations;
            if (resid) resid[r] = info.residual;
        }
        if (s->observer && observe(s)) break; /* stopped: the rows so far are a prefix */
    }
    return slpi_api_record(&err, rc);
}

int slpi_integrate(const slpi_problem *p, double *states, long counters[SLPI_FAST_NCOUNTERS])
{
    slpi_stepper *s;
    int rc = slpi_stepper_new(&s, p, 0, NULL, 0);
    if (rc != SLPI_OK) return rc;
    long rows;
    slpi_stepper_row(s, states, NULL, NULL, NULL);
    rc = slpi_stepper_advance(s, slpi_view_grid(s->q)->steps, NULL, 0, states + s->dim, NULL, NULL, NULL, NULL, NULL,
                              &rows);
    if (counters) slpi_fast_counters(s->fast, counters);
    slpi_stepper_free(s);
    return rc;
}

int slpi_integrate_ensemble(const slpi_problem *p, uint64_t first_path, long npaths, double *finals)
{
    slpi_stepper *s;
    int rc = slpi_stepper_new(&s, p, 0, NULL, 0);
    if (rc != SLPI_OK) return rc;
    slpi_progress *pg = slpi_progress_begin("ensemble, paths", npaths);
    for (long r = 0; rc == SLPI_OK && r < npaths; r++) {
        long rows;
        rc = slpi_stepper_restart(s, first_path + (uint64_t)r);
        if (rc == SLPI_OK)
            rc = slpi_stepper_advance(s, slpi_view_grid(s->q)->steps, NULL, slpi_view_grid(s->q)->steps + 1,
                                      finals + r * s->dim, NULL, NULL, NULL, NULL, NULL, &rows);
        slpi_progress_add(pg, 1);
    }
    slpi_progress_end(pg);
    slpi_stepper_free(s);
    return rc;
}

const char *slpi_api_version(void)
{
    return SLPI_VERSION;
}
