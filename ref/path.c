/* path.c — the certified (Arb ball) path behind the run driver's slpi_path_ops.
 * The default initial state is the problem's (slpi_ref_initial_state: values exactly,
 * su(N) coefficients through the certified basis); given states are exact input.
 * Rows hold balls "mid +/- rad" whose decimal rounding is added to the radius, so
 * every printed ball still contains the exact result. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/plan.h"
#include "slpi/step.h"
#include "slpi/run.h"
#include "slpi/ref.h"
#include "slpi/problem-shape.h"
#include "core/view-cert.h"
#include "ref/ref.h"
#include "core/clock.h"
#include "core/checkpoint.h"
#include "ref/state-tokens.h"
#include "core/progress.h"

typedef struct {
    slpi_ref *s;
    const slpi_problem *p;
    int dim;
    arb_ptr x, x0;
    slpi_ref_diag diag;
    int diag_fresh;         /* diag is that of x at the current step (a row's columns, the summary) */
    long diag_evals, steps; /* evaluations of the diagnostics, steps; the CPU seconds of each */
    double diag_cpu, step_cpu;
} ref_ctx;

static void *ref_create(const slpi_plan *plan, slpi_error *err)
{
    const slpi_problem *p = slpi_plan_problem(plan);
    ref_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        slpi_error_set(err, SLPI_EINPUT, "ref path: out of memory");
        return NULL;
    }
    if (slpi_ref_create_plan(&c->s, plan, err) != SLPI_OK) {
        free(c);
        return NULL;
    }
    c->p = p;
    c->dim = slpi_problem_state_dim(p);
    c->x = _arb_vec_init(c->dim);
    c->x0 = _arb_vec_init(c->dim);
    slpi_ref_diag_init(&c->diag);
    return c;
}

static void ref_destroy(void *ctx)
{
    ref_ctx *c = ctx;
    slpi_ref_free(c->s);
    _arb_vec_clear(c->x, c->dim);
    _arb_vec_clear(c->x0, c->dim);
    slpi_ref_diag_clear(&c->diag);
    free(c);
}

static int ref_set_state(void *ctx, const double *x0, slpi_error *err)
{
    ref_ctx *c = ctx;
    if (x0 == NULL) {
        int rc = slpi_ref_initial_state(c->s, c->x0, err);
        if (rc != SLPI_OK) return rc;
    } else {
        for (int i = 0; i < c->dim; i++) arb_set_d(c->x0 + i, x0[i]);
    }
    _arb_vec_set(c->x, c->x0, c->dim);
    c->diag_fresh = 0;
    return SLPI_OK;
}

static slpi_step_status ref_step(void *ctx, const double *dW, slpi_step_info *info)
{
    ref_ctx *c = ctx;
    c->diag_fresh = 0;
    double t0 = slpi_clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    slpi_step_status st = slpi_ref_step(c->s, c->x, dW, info);
    c->step_cpu += slpi_clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - t0;
    c->steps++;
    return st;
}

static void ref_seek(void *ctx, long n)
{
    ref_ctx *c = ctx;
    c->diag_fresh = 0;
    slpi_ref_set_step_index(c->s, n);
}

static const char *ref_why(void *ctx)
{
    ref_ctx *c = ctx;
    return slpi_ref_unable_reason(c->s);
}

/* The diagnostics of the current state, evaluated once per state: a written row asks for
 * them twice (the summary's record, the row's columns), the last row a third time (the
 * certified statements), and at N = 128 one evaluation (the Casimirs' traces) costs
 * more CPU than many steps. */
static void refresh(ref_ctx *c)
{
    if (c->diag_fresh) return;
    double t0 = slpi_clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    slpi_ref_diag_clear(&c->diag);
    slpi_ref_diag_init(&c->diag);
    slpi_ref_diagnostics(c->s, c->x, c->x0, &c->diag);
    c->diag_fresh = 1;
    c->diag_evals++;
    c->diag_cpu += slpi_clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - t0;
}

static int ref_diag_names(void *ctx, const char **names, int max)
{
    ref_ctx *c = ctx;
    refresh(c);
    int n = c->diag.n < max ? c->diag.n : max;
    for (int i = 0; i < n; i++) names[i] = c->diag.name[i];
    return n;
}

static void ref_diag_values(void *ctx, double *v, int n)
{
    ref_ctx *c = ctx;
    refresh(c);
    for (int i = 0; i < n && i < c->diag.n; i++) v[i] = arf_get_d(arb_midref(c->diag.value + i), ARF_RND_NEAR);
}

/* A ball as "mid +/- rad" without Arb's brackets; enough digits for the precision. */
static void write_ball(FILE *f, const arb_t x, long prec)
{
    char *s = arb_get_str(x, (slong)(prec * 0.30103) + 3, 0);
    size_t n = strlen(s);
    const char *body = s;
    int len = (int)n;
    if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
        body = s + 1;
        len = (int)n - 2;
    }
    /* Arb writes a ball whose midpoint is lost in its radius as "+/- r": keep "mid +/- rad" */
    fprintf(f, "\t%s%.*s", strncmp(body, "+/-", 3) == 0 ? "0 " : "", len, body);
    flint_free(s);
}

static void ref_write_row(void *ctx, FILE *f, long step, double t, const slpi_step_info *info, int hex)
{
    ref_ctx *c = ctx;
    (void)hex;
    refresh(c);
    long prec = info && info->prec ? info->prec : slpi_view_cert(c->p)->prec;
    fprintf(f, "%ld\t%.17g", step, t);
    for (int i = 0; i < c->dim; i++) write_ball(f, c->x + i, prec);
    for (int i = 0; i < c->diag.n; i++) write_ball(f, c->diag.value + i, prec);
    fprintf(f, "\t%d\t%.17g\n", info ? info->iterations : 0, info ? info->residual : 0.0);
}

/* Certified statements: every difference from the initial state (the ref path names
 * them with "x0") whose ball contains 0 is consistent with exact conservation, and one
 * that excludes 0 proves the quantity changed. */
static void ref_summary(void *ctx, FILE *f)
{
    ref_ctx *c = ctx;
    refresh(c);
    for (int i = 0; i < c->diag.n; i++) {
        if (!strstr(c->diag.name[i], "x0")) continue;
        const arb_struct *v = c->diag.value + i;
        fprintf(f, "  certified: %-24s %s (radius %.3g)\n", c->diag.name[i],
                arb_contains_zero(v) ? "contains 0" : "excludes 0: provably changed", mag_get_d(arb_radref(v)));
    }
    fprintf(f, "  time: %ld steps %.3f CPU-s, the certified diagnostics %.3f CPU-s", c->steps, c->step_cpu,
            c->diag_cpu);
    fprintf(f, " (%ld evaluations, one per written row)\n", c->diag_evals);
}

/* Checkpoint tokens: arb_dump_str's exact midpoint and radius, four hexadecimal
 * integers one space apart: midpoint mantissa and exponent, radius mantissa and
 * exponent. arb_load_str aborts on text it was not meant for (a radius mantissa over
 * MAG_BITS = 30 bits, a negative one), so the shape is checked first: optional '-' on
 * all but the radius mantissa, exponents at most 16 hex digits, radius mantissa
 * below 2^30. */
static int dump_shaped(const char *s)
{
    static const size_t maxlen[4] = { 100000, 16, 8, 16 };
    for (int k = 0; k < 4; k++) {
        if (*s == '-' && k != 2) s++;
        size_t n = strspn(s, "0123456789abcdef");
        if (n == 0 || n > maxlen[k]) return 0;
        if (k == 2 && strtoul(s, NULL, 16) >= (1UL << 30)) return 0;
        s += n;
        if (k < 3 && *s++ != ' ') return 0;
    }
    return *s == '\0';
}

/* Checkpoint tokens (ref/state-tokens.h): the state's balls, then the Lohner set behind
 * them when the object propagates in that form (slpi_ref_lohner_get), so a resumed run
 * continues the same set. */
int slpi_ref_state_tokens(char ***tokens, const slpi_ref *s, arb_srcptr x, int dim)
{
    int m = slpi_ref_lohner_size(s), n = dim + m;
    arb_ptr v = _arb_vec_init(n);
    _arb_vec_set(v, x, dim);
    if (m) slpi_ref_lohner_get(v + dim, s);
    char **t = malloc((size_t)n * sizeof *t);
    *tokens = NULL;
    for (int i = 0; t && i < n; i++) {
        char *a = arb_dump_str(v + i);
        t[i] = strdup(a);
        flint_free(a);
        if (!t[i]) {
            slpi_checkpoint_tokens_free(t, i);
            t = NULL;
        }
    }
    _arb_vec_clear(v, n);
    if (!t) return -1;
    *tokens = t;
    return n;
}

int slpi_ref_state_untokens(slpi_ref *s, arb_ptr x, int dim, int n, char *const *tokens)
{
    int m = slpi_ref_lohner_size(s);
    if (n != dim + m) return SLPI_EINPUT;
    arb_ptr v = _arb_vec_init(n);
    int ok = 1;
    for (int i = 0; ok && i < n; i++)
        ok = dump_shaped(tokens[i]) && arb_load_str(v + i, tokens[i]) == 0 && arb_is_finite(v + i);
    if (ok && m) ok = slpi_ref_lohner_put(s, v + dim, v) == SLPI_OK;
    if (ok) _arb_vec_swap(x, v, dim);
    _arb_vec_clear(v, n);
    return ok ? SLPI_OK : SLPI_EINPUT;
}

static int ref_state_save(void *ctx, char ***tokens)
{
    ref_ctx *c = ctx;
    return slpi_ref_state_tokens(tokens, c->s, c->x, c->dim);
}

static int ref_state_load(void *ctx, int n, char *const *tokens)
{
    ref_ctx *c = ctx;
    c->diag_fresh = 0;
    return slpi_ref_state_untokens(c->s, c->x, c->dim, n, tokens);
}

/* The work inside a certified step, on the run's progress line. */
static void ref_work(void *ctx, const slpi_ref_work *w)
{
    slpi_progress_within(ctx, "in step %ld: %ld iterations, %ld Jacobian columns at %ld bits", w->step, w->iterations,
                         w->columns, w->prec);
}

static void ref_watch(void *ctx, slpi_progress *pg)
{
    ref_ctx *c = ctx;
    slpi_ref_set_watch(c->s, pg ? ref_work : NULL, pg);
}

static const slpi_path_ops ref_ops = {
    "ref",         ref_create,  ref_destroy,    ref_set_state,  ref_step, ref_diag_names, ref_diag_values,
    ref_write_row, ref_summary, ref_state_save, ref_state_load, ref_why,  ref_watch,      ref_seek,
};

slpi_step_status slpi_ref_step_at(void *at, const double *dW, slpi_step_info *info)
{
    slpi_ref_at *a = at;
    return slpi_ref_step(a->r, a->x, dW, info);
}

void slpi_ref_seek_at(void *at, long n)
{
    slpi_ref_set_step_index(((slpi_ref_at *)at)->r, n);
}

const slpi_path_ops *slpi_ref_path(void)
{
    return &ref_ops;
}
