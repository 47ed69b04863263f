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

#include "core/cpu.h"
#include "core/fpmode.h"
#include "core/noise.h"
#include "core/rows.h"
#include "fast/ensemble.h"

#define LANES_CHUNK 64 /* steps of increments drawn at once per path */

/* Each lane's solver counters (slpi_fast_counters' iterations, max, stagnated, capped),
 * one array a counter so that the update after a step (lanes_count) runs in vectors; the
 * steps are the block's, and no lane fails (a failure voids the block). */
typedef struct {
    long iters[SLPI_ENSEMBLE_BLOCK], max[SLPI_ENSEMBLE_BLOCK], stagnated[SLPI_ENSEMBLE_BLOCK],
        capped[SLPI_ENSEMBLE_BLOCK];
} lanes_tally;

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
    lanes_tally tally;
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
        const lanes_tally *t = &L->tally;
        const long c[SLPI_FAST_NCOUNTERS] = { step, t->iters[l], t->max[l], t->stagnated[l], t->capped[l], 0 };
        slpi_fast_set_counters(L->f, c);
        slpi_fast_set_step_index(L->f, step);
        slpi_fast_diagnostics(L->f, s, L->x0 + (size_t)l * (size_t)L->dim, &d);
        memcpy(v + L->dim, d.value, (size_t)d.n * sizeof *v);
    }
    fn(ctx, row, n, L->val);
}

/* The normals o[0..all) scaled by sigma, then clipped at +-D as slpi_noise_clip: the
 * number clipped. 8 at a time, which the compiler turns into vectors, so up to 7 unused
 * values past the end (inside L->noise: LANES_CHUNK M SLPI_ENSEMBLE_BLOCK is a multiple
 * of 8) are scaled too, and not counted. Each value is one product and two comparisons,
 * the same bits however many lanes run at once. */
__attribute__((always_inline)) static inline long lanes_scale_clip_body(double *o, size_t all, double sigma, double D)
{
    long clipped = 0;
    for (size_t i = 0; i < all; i += 8)
        for (size_t j = 0; j < 8; j++) {
            const double v = sigma * o[i + j], c = v < -D ? -D : v;
            o[i + j] = c > D ? D : c;
            clipped += (i + j < all) & ((v < -D) | (v > D));
        }
    return clipped;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* The same loop compiled for AVX-512F, taken where the processor has it: gcc -O2 makes
 * it 512-bit vectors, 0.29 ns a value against 0.98 for the baseline's scalar loop (26 Nov
 * 2026, Zen 4), a third of the canonical noise's cost a path-step (docs/experiments.md). */
__attribute__((target("avx512f"))) static long lanes_scale_clip_avx512(double *o, size_t all, double sigma, double D)
{
    return lanes_scale_clip_body(o, all, sigma, D);
}
#endif

static long lanes_scale_clip(double *o, size_t all, double sigma, double D)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (slpi_cpu_supports(SLPI_CPU_AVX512)) return lanes_scale_clip_avx512(o, all, sigma, D);
#endif
    return lanes_scale_clip_body(o, all, sigma, D);
}

/* A step's iterations and statuses (lane) into the lanes' counters, as fast.c counts them,
 * eight lanes a vector: every one of the SLPI_ENSEMBLE_BLOCK lanes (lanes past a block's
 * last hold what an earlier block left, or zeros, and are never read). A lane's two ints
 * are read as they lie in memory and split by a shuffle (gcc does not vectorize the loop
 * over the structures). */
typedef int lanes_vi16 __attribute__((vector_size(64)));
typedef int lanes_vi8 __attribute__((vector_size(32)));
typedef long lanes_vl8 __attribute__((vector_size(64)));
_Static_assert(sizeof(slpi_fast_lane) == 2 * sizeof(int), "slpi_fast_lane: two ints");

__attribute__((always_inline)) static inline void lanes_count_body(lanes_tally *t, const slpi_fast_lane *lane)
{
    for (int l = 0; l < SLPI_ENSEMBLE_BLOCK; l += 8) {
        lanes_vi16 w;
        lanes_vl8 sum, max, stag, cap;
        memcpy(&w, lane + l, sizeof w);
        const lanes_vl8 it =
            __builtin_convertvector(__builtin_shufflevector(w, w, 0, 2, 4, 6, 8, 10, 12, 14), lanes_vl8);
        const lanes_vl8 st =
            __builtin_convertvector(__builtin_shufflevector(w, w, 1, 3, 5, 7, 9, 11, 13, 15), lanes_vl8);
        memcpy(&sum, t->iters + l, sizeof sum);
        memcpy(&max, t->max + l, sizeof max);
        memcpy(&stag, t->stagnated + l, sizeof stag);
        memcpy(&cap, t->capped + l, sizeof cap);
        const lanes_vl8 up = it > max; /* -1 where it is the larger */
        sum += it;
        max = (up & it) | (~up & max);
        stag -= st == SLPI_STEP_STAGNATED;
        cap -= st == SLPI_STEP_CAPPED;
        memcpy(t->iters + l, &sum, sizeof sum);
        memcpy(t->max + l, &max, sizeof max);
        memcpy(t->stagnated + l, &stag, sizeof stag);
        memcpy(t->capped + l, &cap, sizeof cap);
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* The same loop compiled for AVX-512F (one register a vector), taken where the processor
 * has it. */
__attribute__((target("avx512f"))) static void lanes_count_avx512(lanes_tally *t, const slpi_fast_lane *lane)
{
    lanes_count_body(t, lane);
}
#endif

static void lanes_count(lanes_tally *t, const slpi_fast_lane *lane)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (slpi_cpu_supports(SLPI_CPU_AVX512)) {
        lanes_count_avx512(t, lane);
        return;
    }
#endif
    lanes_count_body(t, lane);
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
        const double sigma = sqrt(slpi_view_grid(L->q)->h);
        L->clipped += lanes_scale_clip(o, all, sigma, L->D);
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
    }
    memset(&L->tally, 0, sizeof L->tally);
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
        lanes_count(&L->tally, L->lane);
        if (row < L->rows && L->at[row] == s + 1) lanes_row(L, n, row++, s + 1, fn, ctx);
    }
    for (int l = 0; l < n; l++) L->capped += L->tally.capped[l];
    return 0;
}
