/* ensemble-lanes.c — the lock-step route of the handle API's ensembles (api/ensemble.c,
 * docs/api.md#ensembles): the paths of a block advance together, one step at a time, in the
 * SIMD lanes of fast/ensemble.c (the rigid body's ISOMP-COMM and SVI-SO3: the problems
 * slpi_fast_rb_soa_kind accepts), every path bit-identical to slpi_fast_step on the same
 * problem (tests/fast/t-fast-ensemble.c). Around the kernel, each path gets what a stepper gives
 * it (api/api.c): its increments (the canonical noise of its path, slpi_noise_rows, or the
 * caller's, clipped at the problem's threshold), its own solver tally (the counters its
 * diagnostics report), and at each saved row its state and the diagnostics of
 * slpi_fast_diagnostics at that step. So a path's row values are those of
 * slpi_stepper_advance bit for bit, and the statistics (summed by api/ensemble.c in path
 * order) do not depend on the route (tests/api/t-ensemble.c compares the two).
 *
 * A path that the route cannot finish (a failed step, a refused state or increment, an
 * interrupt) voids the block: api/ensemble.c runs its paths again on the general path,
 * which fails on the same path (the lanes allocate nothing as they run, and refuse only
 * what a stepper refuses) and reports the reason in its own words. */
#include "slpi/errors.h"
#include "slpi/process.h"
#include "slpi/registry-ids.h"
#include "slpi/noise.h"
#include "slpi/step.h"
#include "slpi/diag.h"
#include <stdint.h>
#include <stddef.h>
#include "slpi/fast.h"
#include "slpi/ensemble.h"
#include "slpi/plan.h"
#include "slpi/problem-shape.h"
#include "slpi/initial.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/view-system.h"
#include "api/ensemble-lanes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/fpmode.h"
#include "core/noise.h"
#include "core/rows.h"
#include "fast/ensemble.h"

#define LANES_CHUNK 64 /* steps of increments drawn at once per path */

struct slpi_ens_lanes {
    const slpi_plan *plan; /* a reference (slpi_plan_ref), dropped by slpi_ens_lanes_free */
    const slpi_problem *q; /* its problem */
    slpi_fast *f;          /* the diagnostics of one lane's state at a time */
    slpi_fast_rb_soa soa;
    slpi_fast_model_soa msoa; /* system=model */
    slpi_fast_soa_kind kind;
    int noise_isa; /* the canonical noise's kernel (slpi_ens_lanes_set_noise_isa) */
    int dim, M, nq;
    long rows, *at;                   /* the saved rows' steps */
    double D;                         /* the clipping threshold (+inf: none) */
    double *x, *x0, *noise, *val, *s; /* noise: [step][component][lane] of a chunk */
    slpi_fast_lane lane[SLPI_ENSEMBLE_BLOCK];
    long tally[SLPI_ENSEMBLE_BLOCK][SLPI_FAST_NCOUNTERS];
    long clipped, capped; /* since slpi_ens_lanes_take_counts: clipped increments, capped steps */
};

void slpi_ens_lanes_free(slpi_ens_lanes *L)
{
    if (!L) return;
    slpi_fast_free(L->f);
    slpi_plan_unref(L->plan);
    if (L->kind == SLPI_FAST_SOA_MODEL) slpi_fast_model_soa_clear(&L->msoa);
    free(L->at);
    free(L->x);
    free(L->s);
    free(L);
}

static int lanes_new(slpi_ens_lanes **out, const slpi_plan *plan, long every, const char **why, slpi_error *err)
{
    const slpi_problem *q = slpi_plan_problem(plan);
    *out = NULL;
    slpi_fast_soa_kind kind = slpi_view_system(q)->system == SLPI_SYS_MODEL ? slpi_fast_model_soa_kind(q, why)
                                                                            : slpi_fast_rb_soa_kind(q, why);
    if (kind == SLPI_FAST_SOA_NONE) return SLPI_OK;
    if (slpi_view_noise(q)->noise_file[0]) {
        *why = "noise_file (one file's path)";
        return SLPI_OK;
    }
    if (slpi_view_noise(q)->noise_tau[0] && slpi_problem_white_only(q, "lanes", NULL) != SLPI_OK) {
        *why = "noise_tau (coloured noise carries a state: path by path)";
        return SLPI_OK;
    }
    slpi_ens_lanes *L = calloc(1, sizeof *L);
    if (!L) return slpi_error_set(err, SLPI_EINPUT, "ensemble: out of memory");
    L->plan = slpi_plan_ref(plan);
    L->q = q;
    L->kind = kind;
    L->noise_isa = SLPI_NOISE_BEST;
    L->dim = slpi_problem_state_dim(q);
    L->M = slpi_problem_noise_count(q);
    L->D = slpi_problem_noise_threshold(q);
    int rc = slpi_fast_create_plan(&L->f, plan, err);
    if (rc == SLPI_OK)
        rc = kind == SLPI_FAST_SOA_MODEL ? slpi_fast_model_soa_init(&L->msoa, plan, err)
                                         : slpi_fast_rb_soa_init(&L->soa, q, err);
    slpi_diag d = { 0 };
    size_t B = SLPI_ENSEMBLE_BLOCK, D = (size_t)L->dim, M = (size_t)L->M;
    if (rc == SLPI_OK && !(L->s = calloc(D, sizeof *L->s)))
        rc = slpi_error_set(err, SLPI_EINPUT, "ensemble: out of memory");
    if (rc == SLPI_OK) {
        L->s[0] = 1; /* any state: the diagnostics' count */
        slpi_fast_diagnostics(L->f, L->s, L->s, &d);
        L->nq = L->dim + d.n;
        slpi_rows r;
        rc = slpi_rows_open_every(&r, q, every, err);
        if (rc == SLPI_OK) {
            L->rows = slpi_rows_count(&r);
            if ((L->at = malloc((size_t)L->rows * sizeof *L->at)))
                for (long i = 0; i < L->rows; i++) L->at[i] = slpi_rows_step(&r, i);
            slpi_rows_close(&r);
        }
    }
    if (rc == SLPI_OK && (!L->at || !(L->x = malloc((2 * D + LANES_CHUNK * M + (size_t)L->nq) * B * sizeof *L->x))))
        rc = slpi_error_set(err, SLPI_EINPUT, "ensemble: out of memory");
    if (rc != SLPI_OK) {
        slpi_ens_lanes_free(L);
        return rc;
    }
    L->x0 = L->x + D * B;
    L->noise = L->x0 + D * B;
    L->val = L->noise + LANES_CHUNK * M * B;
    *out = L;
    return SLPI_OK;
}

/* The kernels' constants (1/I, ...) round to nearest whatever the caller's direction: core/fpmode.h. */
int slpi_ens_lanes_new(slpi_ens_lanes **out, const slpi_plan *plan, long every, const char **why, slpi_error *err)
{
    slpi_fpmode rnd = slpi_round_nearest();
    int rc = lanes_new(out, plan, every, why, err);
    slpi_round_restore(rnd);
    return rc;
}

void slpi_ens_lanes_set_noise_isa(slpi_ens_lanes *L, int isa)
{
    L->noise_isa = isa;
}

/* Row `row` after `step` steps: every lane's state and diagnostics (its own counters). */
static void lanes_row(slpi_ens_lanes *L, int n, long row, long step, slpi_ens_row_fn fn, void *ctx)
{
    double *s = L->s;
    for (int l = 0; l < n; l++) {
        double *v = L->val + (size_t)l * (size_t)L->nq;
        for (int i = 0; i < L->dim; i++) v[i] = s[i] = L->x[(size_t)i * (size_t)n + (size_t)l];
        slpi_diag d = { 0 };
        slpi_fast_set_counters(L->f, L->tally[l]);
        slpi_fast_set_step_index(L->f, step);
        slpi_fast_diagnostics(L->f, s, L->x0 + (size_t)l * (size_t)L->dim, &d);
        memcpy(v + L->dim, d.value, (size_t)d.n * sizeof *v);
    }
    fn(ctx, row, n, L->val);
}

/* The increments of steps s .. s + cnt - 1 of the n paths into L->noise (step s + t's
 * component k of path l at (t M + k) n + l: the layout the lane kernels read), clipped; 1
 * when a given one is not finite, or the generator refuses (as the general route's noise
 * source would). The canonical noise at refine 0 is drawn across the paths at once
 * (slpi_noise_normals_lanes: the AVX-512 kernel runs eight paths a register) and scaled
 * by slpi_noise_increments' sigma = sqrt(h), so each is that function's increment bit for
 * bit; at refine > 0 each path's increments come from slpi_noise_increments itself. */
static int lanes_noise(slpi_ens_lanes *L, uint64_t path0, int n, const double *dW, long s, long cnt)
{
    const size_t M = (size_t)L->M, N = (size_t)n, all = (size_t)cnt * M * N;
    double *o = L->noise;
    if (!dW && slpi_view_noise(L->q)->refine == 0) {
        /* the generator's own checks of h and of the steps' range */
        if (slpi_noise_increments(slpi_view_noise(L->q)->seed, path0, 0, slpi_view_grid(L->q)->h, 0, (uint64_t)s, 0,
                                  NULL, NULL) != SLPI_OK)
            return 1;
        for (size_t k = 0; k < M; k++)
            slpi_noise_normals_lanes(L->noise_isa, slpi_view_noise(L->q)->seed, path0, N, (uint32_t)k, (uint64_t)s,
                                     (size_t)cnt, o + k * N, M * N);
        const double sigma = sqrt(slpi_view_grid(L->q)->h), D = L->D;
        long clipped = 0;
        /* scaled, then clipped as slpi_noise_clip; 8 at a time (the compiler's vectors), so
         * up to 7 unused values past the chunk's end (inside L->noise: LANES_CHUNK M
         * SLPI_ENSEMBLE_BLOCK is a multiple of 8) are scaled too, and not counted */
        for (size_t i = 0; i < all; i += 8)
            for (size_t j = 0; j < 8; j++) {
                const double v = sigma * o[i + j], c = v < -D ? -D : v;
                o[i + j] = c > D ? D : c;
                clipped += (i + j < all) & ((v < -D) | (v > D));
            }
        L->clipped += clipped;
        return 0;
    } else {
        double inc[LANES_CHUNK];
        for (size_t l = 0; l < N; l++)
            for (size_t k = 0; k < M; k++) {
                if (!dW) {
                    if (slpi_noise_increments(slpi_view_noise(L->q)->seed, path0 + l, (uint32_t)k,
                                              slpi_view_grid(L->q)->h, slpi_view_noise(L->q)->refine, (uint64_t)s,
                                              (size_t)cnt, inc, NULL) != SLPI_OK)
                        return 1;
                } else {
                    for (long t = 0; t < cnt; t++) {
                        inc[t] = dW[(l * (size_t)slpi_view_grid(L->q)->steps + (size_t)(s + t)) * M + k];
                        if (!isfinite(inc[t])) return 1;
                    }
                }
                for (long t = 0; t < cnt; t++) o[((size_t)t * M + k) * N + l] = inc[t];
            }
    }
    /* the cnt steps' increments: a last chunk's tail is never written (nor read by a
     * step), so it is not clipped either */
    L->clipped += slpi_noise_clip(o, all, L->D);
    return 0;
}

/* The increments as the general route's (core/steps.c): rounded to nearest whatever the
 * caller's direction (core/fpmode.h). */
static int lanes_noise_nearest(slpi_ens_lanes *L, uint64_t path0, int n, const double *dW, long s, long cnt)
{
    slpi_fpmode r = slpi_round_nearest();
    int bad = lanes_noise(L, path0, n, dW, s, cnt);
    slpi_round_restore(r);
    return bad;
}

void slpi_ens_lanes_take_counts(slpi_ens_lanes *L, long *clipped, long *capped)
{
    *clipped = L->clipped;
    *capped = L->capped;
    L->clipped = L->capped = 0;
}

int slpi_ens_lanes_run(slpi_ens_lanes *L, uint64_t path0, int n, const double *x0, const double *dW, slpi_ens_row_fn fn,
                       void *ctx)
{
    const size_t D = (size_t)L->dim, M = (size_t)L->M;
    slpi_error err = { 0 };
    for (int l = 0; l < n; l++) {
        double *o = L->x0 + (size_t)l * D;
        if (x0) {
            memcpy(o, x0 + (size_t)l * D, D * sizeof *o);
            if (slpi_problem_check_state(L->q, o, &err) != SLPI_OK) return 1;
        } else if (l == 0) {
            int given = slpi_problem_explicit_x0(L->q, o, &err);
            if (given < 0 || (!given && slpi_fast_initial_state(L->f, o, &err) != SLPI_OK)) return 1;
        } else {
            memcpy(o, L->x0, D * sizeof *o);
        }
        for (size_t i = 0; i < D; i++) L->x[i * (size_t)n + (size_t)l] = o[i];
        memset(L->tally[l], 0, sizeof L->tally[l]);
    }
    long row = 0, steps = slpi_view_grid(L->q)->steps;
    if (L->at[0] == 0) lanes_row(L, n, row++, 0, fn, ctx);
    for (long s = 0; s < steps; s++) {
        long c = s % LANES_CHUNK;
        if (slpi_interrupt_pending() ||
            (c == 0 && lanes_noise_nearest(L, path0, n, dW, s, steps - s < LANES_CHUNK ? steps - s : LANES_CHUNK)))
            return 1;
        const double *dWs = L->noise + (size_t)c * M * (size_t)n;
        slpi_fpmode mode = slpi_fpmode_set(1); /* as slpi_fast_step: core/fpmode.h */
        long bad = L->kind == SLPI_FAST_SOA_MODEL
            ? slpi_fast_model_isomp_soa(&L->msoa, n, slpi_view_grid(L->q)->h, s, L->x, dWs, NULL, L->lane)
            : L->kind == SLPI_FAST_SOA_ISOMP
            ? slpi_fast_rb_isomp_soa(&L->soa, n, slpi_view_grid(L->q)->h, L->x, dWs, NULL, L->lane)
            : slpi_fast_rb_svi_soa(&L->soa, n, slpi_view_grid(L->q)->h, L->x, dWs, NULL, L->lane);
        slpi_fpmode_restore(mode);
        if (bad) return 1;
        for (int l = 0; l < n; l++) { /* as fast.c's counters: steps, iterations, max, stagnated, capped */
            long *t = L->tally[l];
            const slpi_fast_lane *r = &L->lane[l];
            t[0]++;
            t[1] += r->iterations;
            if (r->iterations > t[2]) t[2] = r->iterations;
            t[3] += r->status == SLPI_STEP_STAGNATED;
            t[4] += r->status == SLPI_STEP_CAPPED;
        }
        if (row < L->rows && L->at[row] == s + 1) lanes_row(L, n, row++, s + 1, fn, ctx);
    }
    for (int l = 0; l < n; l++) L->capped += L->tally[l][4];
    return 0;
}
