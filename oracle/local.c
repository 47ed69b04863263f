/* local.c — per-step (local) verification of a port's trajectory (`slpi verify
 * --local`): each checked row n+1 against the certified step of the scheme taken from
 * the port's own row n. The doubles of row n are exact inputs (balls of radius 0), the
 * increments are the problem's (canonical noise or noise file, truncated as the problem
 * says), and the ref path (ref/) encloses the exact result of the discrete scheme after
 * the k = step(n+1) - step(n) steps between the two rows. The port's row n+1 is scored
 * against that ball in units of k m u scale (oracle/score.c; u the port's unit
 * roundoff, scale the max norm of the ball's midpoints, m = ceil(sqrt(dim)) the order of
 * the matrices a state of dimension dim stands for: LAPACK's tests measure a computed
 * product or solve of order m in units of m u): the budget of a correctly computed step
 * whose rounding errors are a few units of m u relative to the state. Row 0 (step 0) is
 * scored against the problem's initial state in the same units with k = 1.
 *
 * Rows are independent: OpenMP threads over the rows of this rank (each thread with
 * its own certified path and noise source), and MPI ranks (cli/cmd-verify.c under
 * `make mpi`) over rows i = rank (mod nranks); the ranks' results are summed by the
 * combine callback, each row being computed by exactly one rank. The result of a row does
 * not depend on the thread or rank that computed it. The caller (oracle/verify.c) hands
 * the rows over in windows, so memory does not grow with the file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/process.h"
#include "slpi/step.h"
#include "slpi/fast.h"
#include "slpi/ref.h"
#include "slpi/tools.h"
#include "core/view-cert.h"
#include "core/steps.h"
#include "oracle/oracle.h"
#include "ref/accurate.h"
#include "core/progress.h"
#include "core/fpmode.h"
#include "slpi/noise.h"

/* Doubles per row in the buffer the ranks combine: lo, hi, ulps, verdict + 1, status,
 * route, then the row's part of the statistical test. */
#define ROW_FIELDS (6 + SLPI_STAT_FIELDS)

double slpi_oracle_local_unit(long steps, int dim, double u)
{
    return slpi_score_unit(steps, u) * ceil(sqrt((double)dim));
}

/* A thread's other references for the statistics, made at their first use, into x: the
 * certified path on Arb's products (port->plan_arb) where the certified ball is too wide
 * for them; under the accurate reference the accurate step (ref/accurate.h) on that plan,
 * else on the port's; under the double one the double path's step. */
typedef struct {
    int tried, ok, nomem; /* nomem: the opening failed for memory */
    slpi_ref *s;
    arb_ptr x;
    slpi_ref_at at;
    slpi_steps steps;
    double *d; /* the double path's step, dim doubles */
} arb_reference;

static void arb_reference_init(arb_reference *a, int dim)
{
    if (!a->x) a->x = _arb_vec_init(dim);
}

/* Whether an error's message says memory ran out (slpi's words, or ENOMEM's). */
static int out_of_memory(const char *msg)
{
    return strstr(msg, "out of memory") != NULL || strstr(msg, "Cannot allocate memory") != NULL;
}

static int arb_reference_open(arb_reference *a, const slpi_oracle_port *port)
{
    if (a->tried) return a->ok;
    a->tried = 1;
    int accurate = port->reference == SLPI_STAT_REF_ACCURATE;
    const slpi_plan *plan = accurate && !port->plan_arb ? port->plan : port->plan_arb;
    slpi_error e = { 0, "" };
    arb_reference_init(a, port->dim);
    a->at.x = a->x;
    a->ok = plan && slpi_ref_create_plan(&a->s, plan, &e) == SLPI_OK;
    if (a->ok && accurate) slpi_ref_set_accurate(a->s, port->precision.u);
    a->at.r = a->s;
    a->ok = a->ok && slpi_steps_open(&a->steps, port->p, slpi_ref_step_at, &a->at, 1, &e) == SLPI_OK;
    a->steps.seek = slpi_ref_seek_at;
    a->nomem = !a->ok && out_of_memory(e.msg);
    return a->ok;
}

static void arb_reference_close(arb_reference *a, int dim)
{
    if (a->x) _arb_vec_clear(a->x, dim);
    free(a->d);
    if (!a->tried) return;
    slpi_steps_close(&a->steps);
    slpi_ref_free(a->s);
}

/* The row's k steps on the double path from its start over dw into a->x (exact balls of
 * its doubles): 1, or 0 when a step failed (*nomem set when memory did). */
static int double_reference_steps(arb_reference *a, slpi_fast *f, const slpi_oracle_port *port,
                                  const slpi_oracle_local_row *lr, const double *dw, int M, int *nomem)
{
    if (!a->d) a->d = malloc(((size_t)port->dim + (size_t)M + 1) * sizeof(double));
    if (!a->d) {
        *nomem = 1;
        return 0;
    }
    double *one = a->d + port->dim;
    for (int l = 0; l < M; l++) one[l] = 1.0;
    if (slpi_oracle_fast_steps(f, lr, lr->start, dw, M, one, a->d, port->dim, nomem) != 0) return 0;
    arb_reference_init(a, port->dim);
    for (int i = 0; i < port->dim; i++) arb_set_d(a->x + i, a->d[i]);
    return 1;
}

/* The row's steps on Arb's products (accurate or certified, as arb_reference_open says) from
 * its start into a->x: 1, or 0 when a step failed (*nomem set when opening the reference ran
 * out of memory; t-verify-alloc's sweep finds no other allocation of slpi's own on the way). */
static int arb_reference_steps(arb_reference *a, const slpi_oracle_port *port, const slpi_oracle_local_row *lr,
                               int *nomem)
{
    if (!arb_reference_open(a, port)) {
        *nomem = a->nomem;
        return 0;
    }
    for (int i = 0; i < port->dim; i++) arb_set_d(a->x + i, lr->start[i]);
    slpi_step_status st = SLPI_STEP_CONVERGED;
    slpi_error err = { 0, "" };
    for (long n = lr->from; n < lr->to && !slpi_step_failed(st); n++)
        if (slpi_steps_take(&a->steps, n, NULL, &st, &err) != SLPI_OK) st = SLPI_STEP_INVALID;
    return !slpi_step_failed(st);
}

/* The row's increments from the noise source into dw (k x M): SLPI_OK or its error. */
static int row_increments(slpi_steps *steps, const slpi_oracle_local_row *lr, double *dw, slpi_error *err)
{
    slpi_fpmode r = slpi_round_nearest(); /* the path's increments, whatever the caller's direction */
    int rc = SLPI_OK;
    for (long n = lr->from; n < lr->to && rc == SLPI_OK; n++)
        rc = slpi_noise_source_step(steps->noise, n, dw + (n - lr->from) * steps->M, err);
    slpi_round_restore(r);
    return rc;
}

/* The most steps a row's statistics take: --max-steps (no bound without it), at least one
 * under the double and the accurate reference, which need no certified step. */
static long stat_steps(const slpi_oracle_port *port, const slpi_oracle_local_row *lr)
{
    if (port->max_steps < 0) return lr->to - lr->from;
    return port->reference != SLPI_STAT_REF_CERTIFIED && port->max_steps < 1 ? 1 : port->max_steps;
}

/* The statistics' fields of a row (out[6..]): from the double path's step or the accurate
 * one (those references, certified or not, within max(max_steps, 1) steps; the accurate
 * one is the certified ball x where the proof made one within SLPI_STAT_REF_FRACTION
 * units, else the accurate step where its radius is), else from the certified ball x, or
 * where it is too wide for them the step on Arb's products. */
static void stat_fields(slpi_fast *f, const slpi_oracle_port *port, const slpi_oracle_local_row *lr, const double *dw,
                        int M, arb_srcptr x, int certified, arb_reference *acc, double *out)
{
    long k = lr->to - lr->from;
    int nomem = 0;
    if (port->reference == SLPI_STAT_REF_ACCURATE) { /* the proof's ball where it is as accurate */
        if (k > 0 && certified && slpi_oracle_stat_resolves(port, x, k, SLPI_STAT_REF_FRACTION))
            slpi_oracle_stat_row(f, port, lr, dw, x, NULL, out);
        else if (k > 0 && arb_reference_steps(acc, port, lr, &nomem) &&
                 slpi_oracle_stat_resolves(port, acc->x, k, SLPI_STAT_REF_FRACTION))
            slpi_oracle_stat_row(f, port, lr, dw, acc->x, NULL, out);
    } else if (port->reference == SLPI_STAT_REF_DOUBLE) {
        if (k > 0 && double_reference_steps(acc, f, port, lr, dw, M, &nomem))
            slpi_oracle_stat_row(f, port, lr, dw, acc->x, acc->d, out); /* acc->d: the same steps */
    } else if (certified) {
        int wide = k > 0 && !slpi_oracle_stat_resolves(port, x, k, SLPI_STAT_RESOLUTION) && port->plan_arb &&
            arb_reference_steps(acc, port, lr, &nomem);
        if (!nomem) slpi_oracle_stat_row(f, port, lr, dw, wide ? acc->x : x, NULL, out);
        out[SLPI_STAT_ARB_FIELD] = wide;
    }
    if (nomem) out[0] = SLPI_STAT_NOMEM;
}

/* The certified state after the steps from the row's start to its step (through the
 * stepping primitive, core/steps.h), compared with the port's state there. The statistics
 * take their reference as stat_fields says. */
static void check_row(slpi_steps *steps, const slpi_ref *s, slpi_fast *f, const slpi_oracle_port *port,
                      const slpi_oracle_local_row *lr, arb_ptr x, arb_reference *acc, double *out)
{
    for (int i = 0; i < port->dim; i++) arb_set_d(x + i, lr->start[i]);
    slpi_step_status st = SLPI_STEP_CONVERGED;
    slpi_error err = { 0, "" };
    long raised = steps->tally.prec_raised, prec = slpi_view_cert(port->p)->prec;
    if (port->max_steps >= 0 && lr->to - lr->from > port->max_steps) st = SLPI_STEP_INVALID;
    int M = steps->M, within = lr->to - lr->from <= stat_steps(port, lr);
    /* the increments, drawn once for the steps and the statistics (else the steps draw them) */
    double *dw = within ? malloc(((size_t)(lr->to - lr->from) * (size_t)M + 1) * sizeof(double)) : NULL;
    int drawn = dw && row_increments(steps, lr, dw, &err) == SLPI_OK;
    for (long n = lr->from; n < lr->to && !slpi_step_failed(st); n++)
        if (slpi_steps_take(steps, n, drawn ? dw + (n - lr->from) * M : NULL, &st, &err) != SLPI_OK)
            st = SLPI_STEP_INVALID;
    raised = steps->tally.prec_raised - raised;
    /* the route of the steps at the problem's precision and of those raised above it (the
     * rule, slpi_ref_blas_route, is the same at every raised precision) */
    int first = slpi_ref_blas_route(s, prec), retried = slpi_ref_blas_route(s, 2 * prec);
    int all_raised = raised > 0 && raised >= lr->to - lr->from;
    memset(out, 0, ROW_FIELDS * sizeof *out);
    out[4] = (double)st;
    out[5] = lr->to == lr->from ? -1 : raised == 0 || first == retried ? (all_raised ? retried : first) : 2;
    int certified = !slpi_step_failed(st);
    if (!dw && within && (certified || port->reference != SLPI_STAT_REF_CERTIFIED))
        out[6] = SLPI_STAT_NOMEM; /* an error below, not a row left out */
    else if (f && drawn)
        stat_fields(f, port, lr, dw, M, x, certified, acc, out + 6);
    free(dw);
    if (!certified) {
        out[3] = 1.0 + (double)SLPI_VERDICT_UNABLE;
        return;
    }
    slpi_score sc;
    slpi_score_vector_bits(lr->state, x, port->dim,
                           slpi_oracle_local_unit(lr->to - lr->from, port->dim, port->precision.u), 0.0, &sc,
                           port->precision.bits);
    out[0] = sc.lo;
    out[1] = sc.hi;
    out[2] = sc.max_ulps;
    out[3] = 1.0 + (double)slpi_score_verdict(&sc, port->budget);
}

/* An error naming the first row whose statistics ran out of memory (SLPI_STAT_NOMEM,
 * after the ranks' rows are combined: any rank's failure), or SLPI_OK. */
static int nomem_rows(const double *buf, const slpi_oracle_local_row *rows, long nrows, slpi_error *err)
{
    for (long i = 0; i < nrows; i++)
        if (buf[i * ROW_FIELDS + 6] == SLPI_STAT_NOMEM)
            return slpi_error_set(err, SLPI_EINPUT,
                                  "verify --local: out of memory for the statistics of the row at step %ld",
                                  rows[i].to);
    return SLPI_OK;
}

int slpi_oracle_local(const slpi_oracle_port *port, slpi_oracle_local_row *rows, long nrows, long first,
                      slpi_progress *pg, slpi_error *err)
{
    const slpi_problem *p = port->p;
    double *buf = calloc((size_t)nrows * ROW_FIELDS + 1, sizeof *buf);
    if (!buf) return slpi_error_set(err, SLPI_EINPUT, "verify --local: out of memory for %ld rows", nrows);
    int rc = SLPI_OK;
#pragma omp parallel num_threads(port->threads)
    {
        slpi_ref *s = NULL;
        slpi_error e = { 0, "" };
        arb_ptr x = _arb_vec_init(port->dim);
        slpi_ref_at at = { NULL, x };
        slpi_steps steps = { 0 };
        slpi_fast *f = NULL; /* the statistics' directions and twin */
        arb_reference acc = { 0 };
        int ok = slpi_ref_create_plan(&s, port->plan, &e) == SLPI_OK;
        slpi_error fe = { 0, "" };
        if (slpi_fast_create_plan(&f, port->plan, &fe) != SLPI_OK) { /* then the rows give no statistics, */
            f = NULL;
            if (ok && strstr(fe.msg, "out of memory")) { /* unless it was memory: an error */
                ok = 0;
                e = fe;
            }
        }
        at.r = s;
        ok = ok && slpi_steps_open(&steps, p, slpi_ref_step_at, &at, 1, &e) == SLPI_OK;
        steps.seek = slpi_ref_seek_at; /* each row's steps at their own times */
        if (!ok) {
#pragma omp critical(slpi_oracle_local_err)
            if (rc == SLPI_OK) rc = slpi_error_set(err, SLPI_EINPUT, "verify --local: %s", e.msg);
        }
#pragma omp for schedule(dynamic, 1)
        for (long i = 0; i < nrows; i++)
            if (ok && (first + i) % port->nranks == port->rank) {
                check_row(&steps, s, f, port, rows + i, x, &acc, buf + i * ROW_FIELDS);
                slpi_progress_add(pg, 1);
            }
        _arb_vec_clear(x, port->dim);
        arb_reference_close(&acc, port->dim);
        slpi_steps_close(&steps);
        slpi_ref_free(s);
        slpi_fast_free(f);
    }
    if (rc == SLPI_OK && slpi_interrupt_pending()) /* the rows not checked are marked INVALID */
        rc = slpi_error_set(err, SLPI_EINTR, "verify --local: interrupted in the rows from %ld", first);
    if (rc == SLPI_OK && port->combine && port->combine(buf, (size_t)nrows * ROW_FIELDS, port->combine_arg))
        rc = slpi_error_set(err, SLPI_ENUMERIC, "verify --local: combining the ranks' rows failed");
    if (rc == SLPI_OK) rc = nomem_rows(buf, rows, nrows, err);
    for (long i = 0; rc == SLPI_OK && i < nrows; i++) {
        const double *b = buf + i * ROW_FIELDS;
        rows[i].lo = b[0];
        rows[i].hi = b[1];
        rows[i].ulps = b[2];
        rows[i].verdict = (slpi_verdict)((int)b[3] - 1);
        rows[i].status = (slpi_step_status)(int)b[4];
        rows[i].route = (int)b[5];
        memcpy(rows[i].stat, b + 6, sizeof rows[i].stat);
    }
    free(buf);
    return rc;
}
