/* verify-local.c — `slpi verify --local` (oracle/verify.c's header): each row of a port's
 * trajectory against the certified step(s) from the port's previous row, in windows of
 * LOCAL_WINDOW rows per thread (oracle/local.c scores a window), over the --rows range or a
 * --sample of it drawn from a printed seed. */
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/process.h"
#include "slpi/step.h"
#include "slpi/trajectory.h"
#include "slpi/tools.h"
#include "oracle/oracle.h"
#include "core/threads.h"
#include "core/progress.h"
#include "core/problem-store.h"
#include "core/view-cert.h"
#include "core/view-scheme.h"
#include "core/view-system.h"
#include "slpi/problem-build.h"
#include "slpi/plan.h"

/* Rows per thread in a window of the local comparison: enough that the dynamic
 * schedule balances rows of unequal cost (a thread idles at most about one row in
 * eight at a window's end), few enough that a window of su(128) states (2 x 16383
 * doubles a row) stays a few MB per thread. */
#define LOCAL_WINDOW 8

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* A permutation of 0..n-1 held sparsely: only the entries a swap moved (open
 * addressing; an absent key maps to itself). */
typedef struct {
    long *key, *val;
    size_t mask;
} sparse_perm;

static long *perm_slot(sparse_perm *m, long k)
{
    size_t i = (size_t)k * 0x9e3779b97f4a7c15u & m->mask;
    while (m->key[i] >= 0 && m->key[i] != k) i = (i + 1) & m->mask;
    if (m->key[i] < 0) {
        m->key[i] = k;
        m->val[i] = k;
    }
    return m->val + i;
}

/* The ordinals (among the n rows local_wanted admits) that --sample K keeps: the first
 * K entries of a partial Fisher-Yates shuffle of 0..n-1 drawn by splitmix64 from the
 * seed, ascending. The shuffle touches at most 2K entries, held sparsely: memory O(K),
 * not O(n). NULL when out of memory. */
static long *sample_ordinals(long n, long k, uint64_t seed)
{
    sparse_perm m;
    size_t cap = 4;
    while (cap < 4 * (size_t)k) cap *= 2;
    m.mask = cap - 1;
    m.key = malloc(cap * sizeof(long));
    m.val = malloc(cap * sizeof(long));
    long *out = malloc((size_t)k * sizeof(long));
    if (m.key && m.val && out) {
        memset(m.key, 0xff, cap * sizeof(long)); /* -1: empty */
        uint64_t state = seed;
        for (long i = 0; i < k; i++) {
            long j = i + (long)(splitmix64(&state) % (uint64_t)(n - i));
            long *vi = perm_slot(&m, i), *vj = perm_slot(&m, j), tmp = *vi;
            *vi = *vj;
            *vj = tmp;
            out[i] = *vi;
        }
        qsort(out, (size_t)k, sizeof *out, cmp_long);
    } else {
        free(out);
        out = NULL;
    }
    free(m.key);
    free(m.val);
    return out;
}

/* Score a window of local rows and fold them into the result, in order. */
static int local_window(const slpi_oracle_port *port, slpi_oracle_local_row *w, long nw, long first, slpi_progress *pg,
                        FILE *table, int *header, slpi_verify_result *res, slpi_error *err)
{
    slpi_verify_local *L = &res->local;
    int rc = slpi_oracle_local(port, w, nw, first, pg, err);
    if (rc != SLPI_OK) return rc;
    if (table && !*header)
        fprintf(
            table,
            "local: each row against the certified step(s) from the port's previous row\n%8s %8s %10s %10s %8s  %-6s %s\n",
            "step", "from", "local lo", "local hi", "ulps", "verdict", "products");
    *header = 1;
    for (long i = 0; i < nw; i++) {
        const slpi_oracle_local_row *lr = w + i;
        L->rows++;
        if (lr->verdict == SLPI_VERDICT_PASS)
            L->rows_pass++;
        else if (lr->verdict == SLPI_VERDICT_FAIL)
            L->rows_fail++;
        else
            L->rows_unable++;
        if (lr->verdict == SLPI_VERDICT_FAIL && L->first_fail_step < 0) L->first_fail_step = lr->to;
        L->verdict = slpi_verdict_worse(L->verdict, lr->verdict);
        if (slpi_oracle_stat_add(&res->stats, lr->from, lr->to, lr->stat) != 0)
            return slpi_error_set(err, SLPI_EINPUT, "verify --local: out of memory for the statistics' groups");
        int certified = !slpi_step_failed(lr->status);
        if (certified) {
            slpi_score sc = { lr->lo, lr->hi, lr->ulps, 0, 1 };
            slpi_score_merge(&L->state, &sc);
            L->rows_arb += lr->route == 0;
            L->rows_blas += lr->route == 1;
            L->rows_both += lr->route == 2;
        }
        if (!table) continue;
        if (certified) {
            char ulps[32] = "-";
            if (lr->ulps >= 0) snprintf(ulps, sizeof ulps, "%.0f", lr->ulps);
            static const char *const route[4] = { "-", "arb", "blas", "blas+arb" };
            fprintf(table, "%8ld %8ld %10.3g %10.3g %8s  %-6s %s\n", lr->to, lr->from, lr->lo, lr->hi, ulps,
                    slpi_verdict_name(lr->verdict), route[lr->route + 1]);
        } else {
            fprintf(table, "%8ld %8ld %10s %10s %8s  UNABLE (%s)\n", lr->to, lr->from, "-", "-", "-",
                    lr->status == SLPI_STEP_INVALID ? "more steps than --max-steps" : "the certified step is UNABLE");
        }
    }
    return SLPI_OK;
}

/* The plan of in with Arb's products (matmul=arb) when its own may take the BLAS route
 * (docs/design.md#blas-route: ISOMP on the systems whose descriptor allows it,
 * slpi_registry_blas_route; ref/mrmat.c), else NULL (Arb's already, another problem, or one that refuses them: its
 * rows whose certified ball is too wide stay out of the statistics). */
static slpi_plan *arb_plan(const slpi_verify_input *in)
{
    if (slpi_view_cert(in->p)->matmul == SLPI_MATMUL_ARB || slpi_view_scheme(in->p)->scheme != SLPI_SCHEME_ISOMP ||
        !slpi_registry_blas_route(in->p))
        return NULL;
    slpi_problem *p = slpi_problem_dup(in->p);
    slpi_plan *plan = NULL;
    slpi_error e = { 0, "" };
    if (p && (slpi_problem_set(p, "matmul", "arb", &e) != SLPI_OK || slpi_problem_plan(&plan, p, &e) != SLPI_OK))
        plan = NULL;
    slpi_problem_free(p);
    return plan;
}

/* The local comparison, the file read once more in windows: each visited row with the
 * state it starts from (the port's previous row, or x0 for row 0), LOCAL_WINDOW rows
 * per thread at a time. */
void slpi_verify_run_local(slpi_oracle_port *port, const slpi_verify_input *in, const slpi_verify_opts *o, FILE *table,
                           slpi_verify_result *res, slpi_error *err, int *rc)
{
    int threads = 1;
    if ((*rc = slpi_threads_resolve(o->threads, "verify --local", &threads, err)) != SLPI_OK) return;
    port->threads = threads;
    slpi_plan *plan_arb = arb_plan(in);
    port->plan_arb = plan_arb;
    int dim = port->dim, header = 0;
    long nsel = o->sample > 0 && o->sample < in->ncand ? o->sample : in->ncand;
    long *sel = nsel < in->ncand ? sample_ordinals(in->ncand, nsel, o->sample_seed) : NULL;
    long cap = (long)LOCAL_WINDOW * threads, nw = 0, done = 0, cand = 0, k = 0, index = 0, prev_step = 0;
    slpi_oracle_local_row *w = calloc((size_t)cap, sizeof *w);
    double *store = malloc(((size_t)2 * (size_t)cap + 1) * (size_t)dim * sizeof(double) + 1);
    double *prev = store ? store + (size_t)2 * (size_t)cap * (size_t)dim : NULL;
    slpi_traj_reader *r = NULL;
    if (!w || !store || (nsel < in->ncand && !sel))
        *rc = slpi_error_set(err, SLPI_EINPUT, "verify --local: out of memory for %ld rows", nsel);
    if (*rc == SLPI_OK) *rc = slpi_traj_open(&r, in->path, err);
    long mine =
        nsel / port->nranks + (port->rank < nsel % port->nranks); /* this rank's rows (progress on rank 0 only) */
    slpi_progress *pg =
        *rc == SLPI_OK && port->rank == 0 && !port->quiet ? slpi_progress_begin("verify --local, rows", mine) : NULL;
    slpi_traj_row row;
    int got = 0, cut = 0; /* cut: a Ctrl-C between rows, or one that cut a FIFO's read */
    while (*rc == SLPI_OK && (got = slpi_traj_next(r, &row, err)) > 0) {
        if ((cut = slpi_interrupt_pending())) { /* rows skipped by --rows or --sample take no step that polls */
            prev_step = row.step;
            break;
        }
        if (slpi_verify_local_wanted(o, index, row.step) && (!sel || (k < nsel && sel[k] == cand))) {
            slpi_oracle_local_row *lr = w + nw;
            double *start = store + (size_t)(2 * nw) * (size_t)dim, *state = start + dim;
            memcpy(start, index > 0 ? prev : port->x0, (size_t)dim * sizeof(double));
            for (int i = 0; i < dim; i++) state[i] = row.mid[1 + port->col[i]];
            lr->from = index > 0 ? prev_step : row.step;
            lr->to = row.step;
            lr->start = start;
            lr->state = state;
            k++;
            if (++nw == cap) {
                *rc = local_window(port, w, nw, done, pg, table, &header, res, err);
                done += nw;
                nw = 0;
            }
        }
        cand += slpi_verify_local_wanted(o, index, row.step);
        for (int i = 0; i < dim; i++) prev[i] = row.mid[1 + port->col[i]];
        prev_step = row.step;
        index++;
    }
    cut = cut || (got < 0 && err->code == SLPI_EINTR);
    if (*rc == SLPI_OK && cut)
        *rc = slpi_error_set(err, SLPI_EINTR, "%s: interrupted while reading it for the local comparison, at step %ld",
                             in->path, prev_step);
    else if (*rc == SLPI_OK && got < 0)
        *rc = SLPI_EINPUT;
    if (*rc == SLPI_OK && (nw > 0 || done == 0)) *rc = local_window(port, w, nw, done, pg, table, &header, res, err);
    slpi_progress_end(pg);
    slpi_traj_close(r);
    port->plan_arb = NULL;
    slpi_plan_unref(plan_arb);
    free(store);
    free(w);
    free(sel);
}
