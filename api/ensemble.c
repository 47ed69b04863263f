/* ensemble.c — ensembles a modeller drives (slpi.h, "ensembles"; docs/api.md#ensembles):
 * paths of one problem on the fast or the certified path, each from its own initial
 * state and on its own increments (or the problem's noise), run on several threads, their
 * rows at the saved times kept or not, and online statistics of the states and the
 * diagnostics (mean, variance, minimum, maximum; the largest radius on the certified path)
 * at those times, so that a million paths need memory for the statistics only.
 *
 * Statistics independent of the thread count and of how the paths are handed in batches:
 * the paths, numbered 0, 1, ... in the order they are run, fall into blocks of
 * SLPI_ENSEMBLE_BLOCK consecutive paths. One thread runs a block's paths in order and
 * adds each to the block's accumulator by Welford's update,
 *     n += 1;  d = v - mean;  mean += d / n;  M2 += d * (v - mean),
 * and the blocks' accumulators are combined in block order along a fixed binary tree
 * (Chan, Golub and LeVeque's pairwise form, A then B):
 *     n = nA + nB;  d = meanB - meanA;  mean = meanA + d * (nB / n);
 *     M2 = M2A + M2B + d * d * (nA * (nB / n))
 * The tree is the one of a binary counter: block b is pushed on a stack and merged with
 * the top while the two hold as many blocks, and the statistics fold the stack from its
 * top down onto the block in progress. Its shape depends on the number of paths alone,
 * and a wave of blocks run in parallel is pushed in block order, so every sum is taken in
 * the same order on any number of threads: the bits are the same. The variance is
 * M2 / (n - 1). The stack holds at most 64 accumulators of rows x (dim + ndiag) x 5
 * doubles; the paths themselves are not kept unless the caller asks for their rows.
 *
 * Two routes run a block's paths, with the same values bit for bit: the lock-step lanes
 * of api/ensemble-lanes.c where a lane kernel integrates the problem (the rigid body's
 * ISOMP-COMM and SVI-SO3 on the fast path), each path alone on its thread's stepper
 * otherwise (slpi_ensemble_route says which, and why). A block the lanes cannot finish (a
 * step fails, an input is refused) is run again on the general route, which fails on the
 * same path and words the error. */
#include "slpi/errors.h"
#include "slpi/stepper.h"
#include "slpi/ensemble.h"
#include "slpi/plan.h"
#include "slpi/problem.h"
#include "core/problem-store.h"
#include "api/api.h"
#include "api/ensemble-lanes.h"
#include "core/threads.h"
#include "core/fpmode.h"
#include "core/noise.h"

#ifdef _OPENMP
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#endif
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One set of paths' statistics at rows x nq quantities (the state, then the diagnostics). */
typedef struct {
    long n;                              /* paths */
    double *mean, *m2, *min, *max, *rad; /* [rows * nq] each, in one allocation (mean) */
} ens_acc;

#define ENS_DEPTH 64 /* blocks up to 2^64: the counter's stack never overflows */

struct slpi_ensemble {
    int ref, threads, dim, M, ndiag, nq;
    long steps, every, rows;
    uint64_t first_path;
    long done;                /* paths run: ordinals 0 .. done-1 */
    long clipped, capped;     /* over the paths this object ran: clipped increments, capped steps */
    slpi_stepper **worker;    /* one stepper per thread */
    slpi_ens_lanes **lanes;   /* one lane engine per thread, or NULL: the general route */
    int lanes_off;            /* slpi_ensemble_set_lanes(e, 0) */
    char route[160];          /* slpi_ensemble_route, with lanes */
    double *zero;             /* nq radii of the fast path */
    double **buf;             /* per thread: rows x (dim + ndiag) values and as many radii */
    ens_acc pending;          /* the block in progress (done % SLPI_ENSEMBLE_BLOCK paths) */
    ens_acc stack[ENS_DEPTH]; /* stack[i] holds 2^level[i] whole blocks, in block order */
    int level[ENS_DEPTH], depth;
    ens_acc *wave; /* the blocks of one parallel wave */
    int wave_blocks;
    ens_acc scratch[2]; /* the fold of slpi_ensemble_stats */
};

static size_t acc_size(const slpi_ensemble *e)
{
    return (size_t)e->rows * (size_t)e->nq;
}

static void acc_reset(ens_acc *a, size_t size)
{
    a->n = 0;
    memset(a->mean, 0, 2 * size * sizeof *a->mean); /* mean and m2 */
    for (size_t i = 0; i < size; i++) {
        a->min[i] = INFINITY;
        a->max[i] = -INFINITY;
        a->rad[i] = 0;
    }
}

static int acc_init(ens_acc *a, size_t size)
{
    if (a->mean) return 1;
    if (!(a->mean = malloc(5 * size * sizeof *a->mean))) return 0;
    a->m2 = a->mean + size;
    a->min = a->m2 + size;
    a->max = a->min + size;
    a->rad = a->max + size;
    acc_reset(a, size);
    return 1;
}

static void acc_copy(ens_acc *a, const ens_acc *b, size_t size)
{
    a->n = b->n;
    memcpy(a->mean, b->mean, 5 * size * sizeof *a->mean);
}

/* Welford's update of quantities from .. from + len - 1 by the n-th path: value v[i] and
 * radius r[i] of quantity from + i. */
static void acc_add_at(ens_acc *a, long n, size_t from, size_t len, const double *v, const double *r)
{
    double *mean = a->mean + from, *m2 = a->m2 + from, *min = a->min + from, *max = a->max + from, *rad = a->rad + from;
    for (size_t i = 0; i < len; i++) {
        double d = v[i] - mean[i];
        mean[i] += d / (double)n;
        m2[i] += d * (v[i] - mean[i]);
        if (v[i] < min[i]) min[i] = v[i];
        if (v[i] > max[i]) max[i] = v[i];
        if (r[i] > rad[i]) rad[i] = r[i];
    }
}

/* Welford's update by one path: value v[i] and radius r[i] of quantity i. */
static void acc_add(ens_acc *a, const double *v, const double *r, size_t size)
{
    a->n++;
    acc_add_at(a, a->n, 0, size, v, r);
}

/* a = a then b (Chan's pairwise form). */
static void acc_merge(ens_acc *a, const ens_acc *b, size_t size)
{
    if (b->n == 0) return;
    if (a->n == 0) {
        acc_copy(a, b, size);
        return;
    }
    double na = (double)a->n, nb = (double)b->n, n = na + nb;
    for (size_t i = 0; i < size; i++) {
        double d = b->mean[i] - a->mean[i];
        a->mean[i] += d * (nb / n);
        a->m2[i] += b->m2[i] + d * d * (na * (nb / n));
        if (b->min[i] < a->min[i]) a->min[i] = b->min[i];
        if (b->max[i] > a->max[i]) a->max[i] = b->max[i];
        if (b->rad[i] > a->rad[i]) a->rad[i] = b->rad[i];
    }
    a->n += b->n;
}

/* 2^level whole blocks (a subtree of the counter's tree), next in block order, onto the
 * binary counter's stack. */
static int push_blocks(slpi_ensemble *e, const ens_acc *b, int level)
{
    size_t size = acc_size(e);
    if (!acc_init(&e->stack[e->depth], size)) return 0;
    acc_copy(&e->stack[e->depth], b, size);
    e->level[e->depth++] = level;
    while (e->depth >= 2 && e->level[e->depth - 1] == e->level[e->depth - 2]) {
        acc_merge(&e->stack[e->depth - 2], &e->stack[e->depth - 1], size);
        e->level[e->depth - 2]++;
        e->depth--;
    }
    return 1;
}

void slpi_ensemble_free(slpi_ensemble *e)
{
    if (!e) return;
    for (int t = 0; t < e->threads; t++) {
        if (e->worker) slpi_stepper_free(e->worker[t]);
        if (e->buf) free(e->buf[t]);
        if (e->lanes) slpi_ens_lanes_free(e->lanes[t]);
    }
    free(e->worker);
    free(e->buf);
    free(e->lanes);
    free(e->zero);
    free(e->pending.mean);
    for (int i = 0; i < ENS_DEPTH; i++) free(e->stack[i].mean);
    for (int i = 0; e->wave && i < e->wave_blocks; i++) free(e->wave[i].mean);
    free(e->wave);
    free(e->scratch[0].mean);
    free(e->scratch[1].mean);
    free(e);
}

/* The lanes of every thread where a lane kernel integrates the plan's problem (e->route:
 * "lanes", else the reason). */
static int ensemble_route(slpi_ensemble *e, const slpi_plan *plan, slpi_error *err)
{
    const char *why = "the certified path (ref=1)";
    snprintf(e->route, sizeof e->route, "general: %s", why);
    if (e->ref) return SLPI_OK;
    e->lanes = calloc((size_t)e->threads, sizeof *e->lanes);
    if (!e->lanes || !(e->zero = calloc((size_t)e->nq, sizeof *e->zero)))
        return slpi_error_set(err, SLPI_EINPUT, "ensemble: out of memory");
    for (int t = 0; t < e->threads; t++) {
        if (slpi_ens_lanes_new(&e->lanes[t], plan, e->every, &why, err) != SLPI_OK) return SLPI_EINPUT;
        if (!e->lanes[t]) break;
    }
    if (!e->lanes[0]) {
        free(e->lanes);
        e->lanes = NULL;
    }
    if (e->lanes)
        snprintf(e->route, sizeof e->route, "lanes");
    else
        snprintf(e->route, sizeof e->route, "general: %s", why);
    return SLPI_OK;
}

int slpi_ensemble_new(slpi_ensemble **out, const slpi_problem *p, int ref, uint64_t first_path, long every, int threads)
{
    slpi_error err = { 0 };
    *out = NULL;
    slpi_problem *q = slpi_problem_dup(p); /* the finished copy the plan is made of */
    slpi_plan *plan = NULL;
    if (!q) return slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "ensemble: out of memory"));
    int rc = slpi_problem_plan(&plan, q, &err);
    slpi_problem_free(q);
    if (rc == SLPI_OK)
        rc = slpi_ensemble_new_plan(out, plan, ref, first_path, every, threads);
    else
        slpi_api_record(&err, rc);
    slpi_plan_unref(plan); /* the ensemble's steppers and lanes hold what they need of it */
    return rc;
}

int slpi_ensemble_new_plan(slpi_ensemble **out, const slpi_plan *plan, int ref, uint64_t first_path, long every,
                           int threads)
{
    slpi_error err = { 0 };
    *out = NULL;
    int nt;
    if (slpi_problem_many_paths(slpi_plan_problem(plan), 0, "an ensemble", "first_path", &err) != SLPI_OK)
        return slpi_api_record(&err, SLPI_EINPUT);
    if (every < 0)
        return slpi_api_record(&err,
                               slpi_error_set(&err, SLPI_EINPUT,
                                              "every=%ld: must be >= 0 (0: the problem's "
                                              "output grid)",
                                              every));
    if (slpi_threads_resolve(threads, "ensemble", &nt, &err) != SLPI_OK) return slpi_api_record(&err, SLPI_EINPUT);
#ifndef _OPENMP
    nt = 1;
#endif
    slpi_ensemble *e = calloc(1, sizeof *e);
    if (!e) return slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "ensemble: out of memory"));
    e->ref = ref != 0;
    e->threads = nt;
    e->first_path = first_path;
    e->worker = calloc((size_t)nt, sizeof *e->worker);
    e->buf = calloc((size_t)nt, sizeof *e->buf);
    int rc = e->worker && e->buf ? SLPI_OK : slpi_error_set(&err, SLPI_EINPUT, "ensemble: out of memory");
    for (int t = 0; rc == SLPI_OK && t < nt; t++)
        if ((rc = slpi_stepper_new_plan(&e->worker[t], plan, e->ref, NULL, 0)) != SLPI_OK) /* its message is recorded */
            snprintf(err.msg, sizeof err.msg, "%s", slpi_api_last_error());
    if (rc == SLPI_OK) {
        slpi_stepper_shape(e->worker[0], &e->dim, &e->M, &e->ndiag, &e->steps, NULL);
        e->nq = e->dim + e->ndiag;
        e->every = every;
        e->rows = slpi_stepper_row_steps(e->worker[0], every, NULL);
        size_t size = acc_size(e);
        /* waves of up to 256 blocks a thread (a wave ends at a barrier, where a thread waits
         * for a preempted one: on a loaded machine that wait, not the paths, sets the time),
         * their statistics within 64 MB, at least 4 blocks a thread */
        size_t w = ((size_t)64 << 20) / (5 * size * sizeof(double) * (size_t)nt);
        e->wave_blocks = nt * (w < 4 ? 4 : w > 256 ? 256 : (int)w);
        e->wave = calloc((size_t)e->wave_blocks, sizeof *e->wave);
        int ok =
            e->wave && acc_init(&e->pending, size) && acc_init(&e->scratch[0], size) && acc_init(&e->scratch[1], size);
        for (int i = 0; ok && i < e->wave_blocks; i++) ok = acc_init(&e->wave[i], size);
        for (int t = 0; ok && t < nt; t++) ok = (e->buf[t] = malloc(4 * size * sizeof(double))) != NULL;
        if (!ok)
            rc = slpi_error_set(&err, SLPI_EINPUT, "ensemble: out of memory for %ld rows of %d quantities", e->rows,
                                e->nq);
    }
    if (rc == SLPI_OK) rc = ensemble_route(e, plan, &err);
    if (rc != SLPI_OK) {
        slpi_ensemble_free(e);
        return slpi_api_record(&err, rc);
    }
    *out = e;
    return SLPI_OK;
}

void slpi_ensemble_counts(const slpi_ensemble *e, long *clipped, long *capped)
{
    if (clipped) *clipped = e->clipped;
    if (capped) *capped = e->capped;
}

const char *slpi_ensemble_route(const slpi_ensemble *e)
{
    return e->lanes && e->lanes_off ? "general: asked (slpi_ensemble_set_lanes)" : e->route;
}

void slpi_ensemble_set_lanes(slpi_ensemble *e, int on)
{
    e->lanes_off = !on;
}

void slpi_ensemble_shape(const slpi_ensemble *e, int *dim, int *noises, int *ndiag, long *steps, long *rows)
{
    if (dim) *dim = e->dim;
    if (noises) *noises = e->M;
    if (ndiag) *ndiag = e->ndiag;
    if (steps) *steps = e->steps;
    if (rows) *rows = e->rows;
}

void slpi_ensemble_row_steps(const slpi_ensemble *e, long *steps)
{
    slpi_stepper_row_steps(e->worker[0], e->every, steps);
}

const char *slpi_ensemble_diag_name(const slpi_ensemble *e, int i)
{
    return slpi_stepper_diag_name(e->worker[0], i);
}

long slpi_ensemble_paths(const slpi_ensemble *e)
{
    return e->done;
}

/* What slpi_ensemble_run was handed: path i of the call is ordinal done + i. */
typedef struct {
    long base; /* the ordinal of the call's path 0 */
    const double *x0, *dW;
    double *x, *xrad, *diag, *drad;
} ens_call;

/* One path, ordinal k, on thread t, added to a; msg gets its error. The thread's buffer
 * holds the rows the caller does not keep (states, their radii, diagnostics, their radii),
 * then the path's values and radii in the statistics' layout (row by row, the state then
 * the diagnostics). */
static int run_path(slpi_ensemble *e, int t, long k, const ens_call *c, ens_acc *a, long count[2], char *msg, size_t n)
{
    slpi_stepper *s = e->worker[t];
    long i = k - c->base, R = e->rows, steps = e->steps, D = e->dim, G = e->ndiag;
    size_t size = acc_size(e);
    double *b = e->buf[t], *val = b + 2 * size, *rad = val + size;
    double *x = c->x ? c->x + i * R * D : b, *xr = c->xrad ? c->xrad + i * R * D : b + R * D;
    double *dg = c->diag ? c->diag + i * R * G : b + 2 * R * D,
           *dr = c->drad ? c->drad + i * R * G : b + 2 * R * D + R * G;
    const double *dW = c->dW ? c->dW + (size_t)i * (size_t)steps * (size_t)e->M : NULL;
    for (long j = 0; dW && j < steps * e->M; j++)
        if (!isfinite(dW[j])) {
            snprintf(msg, n, "dW[%ld, %ld, %ld] = %g: increments must be finite", k, j / e->M, j % e->M, dW[j]);
            return SLPI_EINPUT;
        }
    long rows = 0;
    int rc = slpi_stepper_restart_from(s, e->first_path + (uint64_t)k, c->x0 ? c->x0 + i * D : NULL, (int)D);
    if (rc == SLPI_OK) {
        slpi_stepper_row(s, x, xr, dg, dr);
        if (steps > 0)
            rc = slpi_stepper_advance(s, steps, dW, e->every, x + D, xr + D, dg + G, dr + G, NULL, NULL, &rows);
    }
    if (rc != SLPI_OK) {
        snprintf(msg, n, "path %ld (noise path %llu): %s", k, (unsigned long long)(e->first_path + (uint64_t)k),
                 slpi_api_last_error());
        return rc;
    }
    long cnt[SLPI_STEPPER_NCOUNTS];
    slpi_stepper_counts(s, cnt);
    count[0] += cnt[SLPI_STEPPER_CLIPPED];
    count[1] += cnt[SLPI_STEPPER_CAPPED];
    for (long q = 0; q < R; q++) {
        memcpy(val + q * e->nq, x + q * D, (size_t)D * sizeof *val);
        memcpy(val + q * e->nq + D, dg + q * G, (size_t)G * sizeof *val);
        memcpy(rad + q * e->nq, xr + q * D, (size_t)D * sizeof *rad);
        memcpy(rad + q * e->nq + D, dr + q * G, (size_t)G * sizeof *rad);
    }
    acc_add(a, val, rad, size);
    return SLPI_OK;
}

/* A job of a wave: the paths [from, to) of one block, run in order by one thread. */
typedef struct {
    long from, to, failed; /* failed: the ordinal of the first path that failed, or -1 */
    long count[2];         /* its paths' clipped increments and capped steps */
    int rc;
    char msg[512];
} ens_job;

/* A block's paths on the lanes, added to a path by path as run_path would. */
typedef struct {
    const slpi_ensemble *e;
    const ens_call *c;
    ens_acc *a;
    long i0, n0; /* the call's index of the first path; a's paths before it */
} lanes_ctx;

static void lanes_row(void *ctx, long row, int n, const double *val)
{
    const lanes_ctx *z = ctx;
    const slpi_ensemble *e = z->e;
    const ens_call *c = z->c;
    const long R = e->rows, D = e->dim, G = e->ndiag;
    for (int l = 0; l < n; l++) {
        const double *v = val + (size_t)l * (size_t)e->nq;
        long i = z->i0 + l;
        acc_add_at(z->a, z->n0 + l + 1, (size_t)row * (size_t)e->nq, (size_t)e->nq, v, e->zero);
        if (c->x) memcpy(c->x + (i * R + row) * D, v, (size_t)D * sizeof *v);
        if (c->xrad) memset(c->xrad + (i * R + row) * D, 0, (size_t)D * sizeof *v);
        if (c->diag) memcpy(c->diag + (i * R + row) * G, v + D, (size_t)G * sizeof *v);
        if (c->drad) memset(c->drad + (i * R + row) * G, 0, (size_t)G * sizeof *v);
    }
}

/* The paths [from, to) of one block on thread t's lanes, added to a; 0 when the lanes
 * cannot run them: a's rows are then void, and the general route run on the same paths
 * fails too (api/ensemble-lanes.h), so the wave and a with it are discarded. */
static int run_lanes(slpi_ensemble *e, int t, long from, long to, const ens_call *c, ens_acc *a, long count[2])
{
    const long i = from - c->base;
    lanes_ctx z = { e, c, a, i, a->n };
    int bad = slpi_ens_lanes_run(e->lanes[t], e->first_path + (uint64_t)from, (int)(to - from),
                                 c->x0 ? c->x0 + i * e->dim : NULL,
                                 c->dW ? c->dW + (size_t)i * (size_t)e->steps * (size_t)e->M : NULL, lanes_row, &z);
    long clipped, capped;
    slpi_ens_lanes_take_counts(e->lanes[t], &clipped, &capped); /* a failed block's are void */
    if (bad) return 0;
    count[0] += clipped;
    count[1] += capped;
    a->n += to - from;
    return 1;
}

int slpi_ensemble_run(slpi_ensemble *e, long count, const double *x0, const double *dW, double *x, double *xrad,
                      double *diag, double *drad)
{
    slpi_error err = { 0 };
    if (count < 0) return slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "count=%ld: must be >= 0", count));
    const ens_call c = { e->done, x0, dW, x, xrad, diag, drad };
    const long B = SLPI_ENSEMBLE_BLOCK, end = e->done + count;
    const size_t size = acc_size(e);
    ens_job *job = calloc((size_t)e->wave_blocks, sizeof *job);
    if (!job) return slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "ensemble: out of memory"));
    int rc = SLPI_OK;
    slpi_fpmode rnd = slpi_round_nearest(); /* the statistics too: core/fpmode.h */
    while (rc == SLPI_OK && e->done < end) {
        int nj = 0;
        for (long from = e->done; from < end && nj < e->wave_blocks; nj++) {
            long to = (from / B + 1) * B < end ? (from / B + 1) * B : end;
            job[nj] = (ens_job){ from, to, -1, { 0, 0 }, SLPI_OK, "" };
            if (nj == 0)
                acc_copy(&e->wave[0], &e->pending, size); /* the block in progress goes on */
            else
                acc_reset(&e->wave[nj], size);
            from = to;
        }
#pragma omp parallel for num_threads(e->threads) schedule(dynamic, 1)
        for (int j = 0; j < nj; j++) {
#ifdef _OPENMP
            int t = omp_get_thread_num();
#else
            int t = 0;
#endif
            slpi_fpmode rnd = slpi_round_nearest(); /* each thread's own mode: core/fpmode.h */
            if (!(e->lanes && !e->lanes_off && run_lanes(e, t, job[j].from, job[j].to, &c, &e->wave[j], job[j].count)))
                for (long k = job[j].from; k < job[j].to && job[j].rc == SLPI_OK; k++)
                    if ((job[j].rc = run_path(e, t, k, &c, &e->wave[j], job[j].count, job[j].msg, sizeof job[j].msg)) !=
                        SLPI_OK)
                        job[j].failed = k;
            slpi_round_restore(rnd);
        }
        for (int j = 0; rc == SLPI_OK && j < nj; j++) /* the first path that failed, whatever the threads */
            if (job[j].rc != SLPI_OK) rc = slpi_error_set(&err, job[j].rc, "%s", job[j].msg);
        if (rc != SLPI_OK) break; /* the wave's paths are not counted */
        acc_reset(&e->pending, size);
        for (int j = 0; j < nj; j++) {
            e->clipped += job[j].count[0];
            e->capped += job[j].count[1];
            if (job[j].to % B != 0)
                acc_copy(&e->pending, &e->wave[j], size); /* only the last can end early */
            else if (!push_blocks(e, &e->wave[j], 0))
                rc = slpi_error_set(&err, SLPI_EINPUT, "ensemble: out of memory for the statistics");
        }
        e->done = job[nj - 1].to;
    }
    free(job);
    slpi_round_restore(rnd);
    return slpi_api_record(&err, rc);
}

long slpi_ensemble_stats(slpi_ensemble *e, double *mean, double *var, double *min, double *max, double *rad)
{
    const size_t size = acc_size(e);
    ens_acc *r = &e->scratch[0], *s = &e->scratch[1];
    slpi_fpmode rnd = slpi_round_nearest(); /* Chan's merges and M2 / (n - 1), as every caller's: core/fpmode.h */
    acc_copy(r, &e->pending, size);
    for (int i = e->depth - 1; i >= 0; i--) { /* the stack's blocks come before the one in progress */
        acc_copy(s, &e->stack[i], size);
        acc_merge(s, r, size);
        ens_acc *u = r;
        r = s;
        s = u;
    }
    for (size_t i = 0; i < size; i++) {
        if (mean) mean[i] = r->n > 0 ? r->mean[i] : NAN;
        if (var) var[i] = r->n > 1 ? r->m2[i] / (double)(r->n - 1) : NAN;
        if (min) min[i] = r->n > 0 ? r->min[i] : NAN;
        if (max) max[i] = r->n > 0 ? r->max[i] : NAN;
        if (rad) rad[i] = r->n > 0 ? r->rad[i] : NAN;
    }
    slpi_round_restore(rnd);
    return r->n;
}

/* The exported state: its pieces, each [level (-1: the block in progress), n, then mean,
 * m2, min, max, rad of every quantity], after a header [pieces, doubles per piece]. */
long slpi_ensemble_export(const slpi_ensemble *e, double *buf)
{
    const long size = (long)acc_size(e), piece = 2 + 5 * size, np = e->depth + (e->pending.n > 0);
    if (buf) {
        buf[0] = (double)np;
        buf[1] = (double)piece;
        for (long i = 0; i < np; i++) {
            const ens_acc *a = i < e->depth ? &e->stack[i] : &e->pending;
            double *o = buf + 2 + i * piece;
            o[0] = i < e->depth ? e->level[i] : -1;
            o[1] = (double)a->n;
            memcpy(o + 2, a->mean, 5 * (size_t)size * sizeof *o);
        }
    }
    return 2 + np * piece;
}

int slpi_ensemble_import(slpi_ensemble *e, const double *buf, long n)
{
    slpi_error err = { 0 };
    const long size = (long)acc_size(e), piece = 2 + 5 * size, B = SLPI_ENSEMBLE_BLOCK;
    if (n < 2 || buf[1] != (double)piece || !(buf[0] >= 0) || buf[0] > ENS_DEPTH + 1 || n != 2 + (long)buf[0] * piece)
        return slpi_api_record(&err,
                               slpi_error_set(&err, SLPI_EINPUT,
                                              "import: %ld doubles are no exported state of "
                                              "this ensemble's shape (%ld doubles a piece)",
                                              n, piece));
    const long np = (long)buf[0];
    for (long i = 0; i < np; i++) { /* checked whole before anything is added */
        const double *o = buf + 2 + i * piece;
        long lev = (long)o[0], cnt = (long)o[1], at = e->done / B;
        const char *why = o[0] != (double)lev || lev < -1 || lev > 62 ? "a bad level"
            : (lev >= 0 && (double)cnt != (double)B * ldexp(1, (int)lev)) || (lev < 0 && !(cnt > 0 && cnt < B))
            ? "a path count that is not its level's"
            : e->pending.n > 0 || (lev < 0 && i != np - 1) ? "a partial block before other paths"
            : lev >= 0 && at % (1L << lev) != 0            ? "blocks not aligned on the tree of one run"
                                                           : NULL;
        if (why)
            return slpi_api_record(
                &err,
                slpi_error_set(&err, SLPI_EINPUT,
                               "import: piece %ld (level %g, %g paths) "
                               "after %ld paths: %s (split runs into ranges of 64 x 2^k paths from the first, "
                               "docs/api.md#ensembles)",
                               i, o[0], o[1], e->done, why));
        e->done += cnt; /* undone below: only the check walks forward here */
    }
    for (long i = 0; i < np; i++) e->done -= (long)buf[2 + i * piece + 1];
    ens_acc a = { 0 };
    slpi_fpmode rnd = slpi_round_nearest(); /* Chan's merges, as in slpi_ensemble_run */
    for (long i = 0; i < np; i++) {
        const double *o = buf + 2 + i * piece;
        a.n = (long)o[1];
        a.mean = (double *)(o + 2); /* the five arrays from mean on, read only: acc_copy copies them as one */
        if (o[0] < 0)
            acc_copy(&e->pending, &a, (size_t)size);
        else if (!push_blocks(e, &a, (int)o[0])) {
            slpi_round_restore(rnd);
            return slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "import: out of memory"));
        }
        e->done += a.n;
    }
    slpi_round_restore(rnd);
    return SLPI_OK;
}
