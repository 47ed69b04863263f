/* path.c — the fast (double) path behind the run driver's slpi_path_ops, and as one thing
 * to step for the stepping primitive (slpi_fast_step_at; core/steps.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/plan.h"
#include "slpi/step.h"
#include "slpi/trajectory.h"
#include "slpi/run.h"
#include "slpi/fast.h"
#include "slpi/problem-shape.h"
#include "core/checkpoint.h"
#include "fast/state-tokens.h"

typedef struct {
    slpi_fast *s;
    int dim;
    double *x, *x0;
    double *row;    /* one output row: the state, the diagnostics, iterations, residual */
    slpi_diag diag; /* of the current state, refreshed on demand */
    int diag_fresh; /* diag is that of x, the counters and the step index now */
} fast_ctx;

static void fast_destroy(void *ctx)
{
    fast_ctx *c = ctx;
    slpi_fast_free(c->s);
    free(c->x);
    free(c->x0);
    free(c->row);
    free(c);
}

static void *fast_create(const slpi_plan *plan, slpi_error *err)
{
    fast_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        slpi_error_set(err, SLPI_EINPUT, "fast path: out of memory");
        return NULL;
    }
    if (slpi_fast_create_plan(&c->s, plan, err) != SLPI_OK) {
        free(c);
        return NULL;
    }
    c->dim = slpi_problem_state_dim(slpi_plan_problem(plan));
    c->x = calloc((size_t)c->dim, sizeof(double));
    c->x0 = calloc((size_t)c->dim, sizeof(double));
    c->row = calloc((size_t)c->dim + SLPI_MAX_DIAG + 2, sizeof(double));
    if (!c->x || !c->x0 || !c->row) {
        slpi_error_set(err, SLPI_EINPUT, "fast path: out of memory (state of %d doubles)", c->dim);
        fast_destroy(c);
        return NULL;
    }
    return c;
}

static int fast_set_state(void *ctx, const double *x0, slpi_error *err)
{
    fast_ctx *c = ctx;
    if (x0)
        memcpy(c->x0, x0, (size_t)c->dim * sizeof(double));
    else if (slpi_fast_initial_state(c->s, c->x0, err) != SLPI_OK)
        return err ? err->code : SLPI_EINPUT;
    memcpy(c->x, c->x0, (size_t)c->dim * sizeof(double));
    c->diag_fresh = 0;
    return SLPI_OK;
}

static slpi_step_status fast_step(void *ctx, const double *dW, slpi_step_info *info)
{
    fast_ctx *c = ctx;
    c->diag_fresh = 0;
    return slpi_fast_step(c->s, c->x, dW, info);
}

static void fast_seek(void *ctx, long n)
{
    fast_ctx *c = ctx;
    c->diag_fresh = 0;
    slpi_fast_set_step_index(c->s, n);
}

/* Once per state: the run driver asks for a written row's diagnostics twice (its summary,
 * the row), and at N = 1024 they hold a Hermitian eigensolve of about 1 s. */
static void refresh(fast_ctx *c)
{
    if (c->diag_fresh) return;
    c->diag.n = 0;
    slpi_fast_diagnostics(c->s, c->x, c->x0, &c->diag);
    c->diag_fresh = 1;
}

static int fast_diag_names(void *ctx, const char **names, int max)
{
    fast_ctx *c = ctx;
    refresh(c);
    int n = c->diag.n < max ? c->diag.n : max;
    for (int i = 0; i < n; i++) names[i] = c->diag.name[i];
    return n;
}

static void fast_diag_values(void *ctx, double *v, int n)
{
    fast_ctx *c = ctx;
    refresh(c);
    for (int i = 0; i < n && i < c->diag.n; i++) v[i] = c->diag.value[i];
}

static void fast_write_row(void *ctx, FILE *f, long step, double t, const slpi_step_info *info, int hex)
{
    fast_ctx *c = ctx;
    refresh(c);
    int n = c->dim + c->diag.n + 2;
    double *row = c->row;
    memcpy(row, c->x, (size_t)c->dim * sizeof(double));
    memcpy(row + c->dim, c->diag.value, (size_t)c->diag.n * sizeof(double));
    row[n - 2] = info ? info->iterations : 0;
    row[n - 1] = info ? info->residual : 0.0;
    slpi_traj_write_row(f, step, t, n, row, hex);
}

static void fast_summary(void *ctx, FILE *f)
{
    (void)ctx;
    (void)f;
}

/* Checkpoint tokens (fast/state-tokens.h): the state's doubles as %a hex floats (strtod
 * reads them back exactly), the solver counters as decimal integers, then what the scheme
 * carries from step to step (slpi_fast_carry_get: a warm start), as %a. */
int slpi_fast_state_tokens(char ***tokens, const slpi_fast *s, const double *x, int dim)
{
    int nc = slpi_fast_carry_get(s, NULL), n = dim + SLPI_FAST_NCOUNTERS + nc;
    long cnt[SLPI_FAST_NCOUNTERS];
    slpi_fast_counters(s, cnt);
    double *carry = malloc((size_t)nc * sizeof *carry + 1);
    char **t = calloc((size_t)n, sizeof *t);
    *tokens = NULL;
    if (!carry || !t) {
        free(carry);
        free(t);
        return -1;
    }
    slpi_fast_carry_get(s, carry);
    for (int i = 0; i < n; i++) {
        if (!(t[i] = malloc(40))) {
            slpi_checkpoint_tokens_free(t, i);
            free(carry);
            return -1;
        }
        if (i < dim)
            snprintf(t[i], 40, "%a", x[i]);
        else if (i < dim + SLPI_FAST_NCOUNTERS)
            snprintf(t[i], 40, "%ld", cnt[i - dim]);
        else
            snprintf(t[i], 40, "%a", carry[i - dim - SLPI_FAST_NCOUNTERS]);
    }
    free(carry);
    *tokens = t;
    return n;
}

int slpi_fast_state_untokens(slpi_fast *s, double *x, int dim, int n, char *const *tokens)
{
    long cnt[SLPI_FAST_NCOUNTERS];
    int nc = n - dim - SLPI_FAST_NCOUNTERS, ok = nc >= 0;
    double *y = malloc((size_t)dim * sizeof *y), *carry = malloc((size_t)(ok ? nc : 0) * sizeof *carry + 1);
    if (!y || !carry) errno = ENOMEM; /* (slpi.h: state_load) */
    ok = ok && y && carry;
    for (int i = 0; ok && i < n; i++) {
        char *end;
        errno = 0;
        if (i < dim || i >= dim + SLPI_FAST_NCOUNTERS) {
            double v = strtod(tokens[i], &end);
            ok = end != tokens[i] && *end == '\0' && isfinite(v);
            if (i < dim)
                y[i] = v;
            else
                carry[i - dim - SLPI_FAST_NCOUNTERS] = v;
        } else {
            cnt[i - dim] = strtol(tokens[i], &end, 10);
            ok = end != tokens[i] && *end == '\0' && !errno && cnt[i - dim] >= 0;
        }
    }
    /* the carry belongs to the state the next step is handed: the loaded x */
    if (ok) ok = slpi_fast_carry_set(s, y, carry, nc) == SLPI_OK;
    if (ok) {
        memcpy(x, y, (size_t)dim * sizeof *y);
        slpi_fast_set_counters(s, cnt);
    }
    free(y);
    free(carry);
    return ok ? SLPI_OK : SLPI_EINPUT;
}

static int fast_state_save(void *ctx, char ***tokens)
{
    fast_ctx *c = ctx;
    return slpi_fast_state_tokens(tokens, c->s, c->x, c->dim);
}

static int fast_state_load(void *ctx, int n, char *const *tokens)
{
    fast_ctx *c = ctx;
    c->diag_fresh = 0;
    return slpi_fast_state_untokens(c->s, c->x, c->dim, n, tokens);
}

static const char *fast_why(void *ctx)
{
    fast_ctx *c = ctx;
    return slpi_fast_failure_reason(c->s);
}

static const slpi_path_ops fast_ops = {
    "fast",          fast_create,      fast_destroy,   fast_set_state, fast_step,
    fast_diag_names, fast_diag_values, fast_write_row, fast_summary,   fast_state_save,
    fast_state_load, fast_why,         NULL,           fast_seek,
};

void slpi_fast_seek_at(void *at, long n)
{
    slpi_fast_set_step_index(((slpi_fast_at *)at)->f, n);
}

slpi_step_status slpi_fast_step_at(void *at, const double *dW, slpi_step_info *info)
{
    slpi_fast_at *a = at;
    return slpi_fast_step(a->f, a->x, dW, info);
}

const slpi_path_ops *slpi_fast_path(void)
{
    return &fast_ops;
}
