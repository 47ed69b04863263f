/* walk.c — the certified walk shared by golden generation, the golden check and
 * `slpi verify`: the ref path (docs/design.md#two-paths, docs/conventions.md#two-paths) stepped over given binary64
 * increments from a given binary64 initial state, both taken as exact. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/noise.h"
#include "slpi/step.h"
#include "slpi/version.h"
#include "slpi/ref.h"
#include "slpi/fast.h"
#include "slpi/plan.h"
#include "slpi/problem-shape.h"
#include "core/view-cert.h"
#include "core/steps.h"
#include "oracle/oracle.h"

#define SCALE_EPS_BITS 30

int slpi_oracle_increments(const slpi_problem *p, long steps, double *dW, slpi_error *err)
{
    slpi_noise_source *src = NULL;
    int M = slpi_problem_noise_count(p);
    int rc = slpi_noise_source_open(&src, p, err);
    for (long n = 0; rc == SLPI_OK && n < steps; n++) rc = slpi_noise_source_step(src, n, dW + n * M, err);
    if (src) slpi_noise_source_close(src);
    return rc;
}

void slpi_oracle_invariants_of(slpi_ref *s, const double *x, int dim, long step, slpi_ref_diag *d)
{
    slpi_ref_set_step_index(s, step); /* H at the row's time t0 + step h */
    arb_ptr b = _arb_vec_init(dim);
    for (int i = 0; i < dim; i++) arb_set_d(b + i, x[i]);
    slpi_ref_diagnostics(s, b, NULL, d);
    _arb_vec_clear(b, dim);
}

void slpi_oracle_invariant_scales(slpi_ref *s, arb_srcptr x, int dim, double *scale, int n)
{
    arb_ptr b = _arb_vec_init(dim);
    mag_t m;
    mag_init(m);
    for (int i = 0; i < dim; i++) {
        arf_set(arb_midref(b + i), arb_midref(x + i));
        arf_get_mag(m, arb_midref(b + i));
        mag_mul_2exp_si(arb_radref(b + i), m, -SCALE_EPS_BITS);
    }
    slpi_ref_diag d;
    slpi_ref_diag_init(&d);
    slpi_ref_diagnostics(s, b, NULL, &d);
    for (int i = 0; i < n && i < d.n; i++)
        scale[i] = fmax(fabs(arf_get_d(arb_midref(d.value + i), ARF_RND_NEAR)),
                        ldexp(mag_get_d(arb_radref(d.value + i)), SCALE_EPS_BITS));
    slpi_ref_diag_clear(&d);
    mag_clear(m);
    _arb_vec_clear(b, dim);
}

/* The walk; the increments of step n are dW + n M, or the problem's noise source's when dW
 * is NULL (through the stepping primitive, core/steps.h); the steps to visit come from
 * next(nctx). The run object is made from plan, or from p when plan is NULL. */
static int walk(const slpi_problem *p, const slpi_plan *plan, const double *x0, const double *dW,
                slpi_oracle_next_stop next, void *nctx, slpi_oracle_visit visit, void *ctx, long *done, slpi_error *err)
{
    slpi_ref *s = NULL;
    *done = 0;
    int dim = slpi_problem_state_dim(p), M = slpi_problem_noise_count(p);
    arb_ptr x = _arb_vec_init(dim);
    slpi_ref_at at = { NULL, x };
    slpi_steps steps = { 0 };
    int rc = slpi_steps_open(&steps, p, slpi_ref_step_at, &at, dW == NULL, err);
    steps.seek = slpi_ref_seek_at;
    if (rc == SLPI_OK) rc = plan ? slpi_ref_create_plan(&s, plan, err) : slpi_ref_create(&s, p, err);
    if (rc != SLPI_OK) {
        slpi_steps_close(&steps);
        _arb_vec_clear(x, dim);
        return rc;
    }
    at.r = s;
    for (int i = 0; i < dim; i++) arb_set_d(x + i, x0[i]);
    slpi_ref_diag d;
    slpi_ref_diag_init(&d);
    long stop = next(nctx);
    slpi_step_info info = { 0 };
    info.prec = slpi_view_cert(p)->prec;
    if (stop == 0) {
        slpi_ref_diagnostics(s, x, NULL, &d);
        rc = visit(ctx, 0, x, &d, &info);
        stop = next(nctx);
    }
    for (long n = 0; n < stop && rc == SLPI_OK; n++) {
        slpi_step_status st;
        if ((rc = slpi_steps_take(&steps, n, dW ? dW + n * M : NULL, &st, err)) != SLPI_OK) break;
        info = steps.info;
        if (slpi_step_failed(st)) {
            const char *why = slpi_ref_unable_reason(s);
            rc = slpi_error_set(err, SLPI_ENUMERIC, "ref step %ld: %s (radius %.3g, precision %ld bits)%s%s", n,
                                slpi_step_status_name(st), info.radius, info.prec, why[0] ? ": " : "", why);
            break;
        }
        *done = n + 1;
        if (stop == n + 1) {
            slpi_ref_diagnostics(s, x, NULL, &d);
            rc = visit(ctx, n + 1, x, &d, &info);
            stop = next(nctx);
        }
    }
    slpi_ref_diag_clear(&d);
    _arb_vec_clear(x, dim);
    slpi_steps_close(&steps);
    slpi_ref_free(s);
    return rc;
}

/* The stops of an array, one by one. */
typedef struct {
    const long *stops;
    int n, i;
} stop_array;

static long next_in_array(void *ctx)
{
    stop_array *a = ctx;
    return a->i < a->n ? a->stops[a->i++] : -1;
}

int slpi_oracle_ref_walk(const slpi_problem *p, const double *x0, const double *dW, const long *stops, int nstops,
                         slpi_oracle_visit visit, void *ctx, long *done, slpi_error *err)
{
    stop_array a = { stops, nstops, 0 };
    return walk(p, NULL, x0, dW, next_in_array, &a, visit, ctx, done, err);
}

int slpi_oracle_ref_walk_source(const slpi_plan *plan, const double *x0, slpi_oracle_next_stop next,
                                slpi_oracle_visit visit, void *ctx, long *done, slpi_error *err)
{
    return walk(slpi_plan_problem(plan), plan, x0, NULL, next, ctx, visit, ctx, done, err);
}

int slpi_oracle_initial_state(const slpi_plan *plan, double *x, slpi_error *err)
{
    slpi_fast *f = NULL;
    slpi_error e = { 0, "" };
    if (slpi_fast_create_plan(&f, plan, &e) != SLPI_OK)
        return slpi_fast_problem_initial_state(slpi_plan_problem(plan), x, err);
    int rc = slpi_fast_initial_state(f, x, err);
    slpi_fast_free(f);
    return rc;
}

int slpi_oracle_provenance(int *n, char ***key, char ***val)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return -1;
    slpi_provenance_write(f, "");
    if (fclose(f) != 0 || !buf) {
        free(buf);
        return -1;
    }
    int rc = 0;
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line && rc == 0; line = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(line, '=');
        if (!eq) continue;
        char **k = realloc(*key, (size_t)(*n + 1) * sizeof(char *));
        if (k) *key = k;
        char **v = k ? realloc(*val, (size_t)(*n + 1) * sizeof(char *)) : NULL;
        if (v) *val = v;
        char *ks = v ? strndup(line, (size_t)(eq - line)) : NULL, *vs = ks ? strdup(eq + 1) : NULL;
        if (!vs) { /* the lists keep the *n pairs made so far */
            free(ks);
            rc = -1;
            continue;
        }
        (*key)[*n] = ks;
        (*val)[*n] = vs;
        (*n)++;
    }
    free(buf);
    return rc;
}
