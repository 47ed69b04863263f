/* verify.c — `slpi verify`: check a trajectory of another implementation (a port)
 * against the certified path (the port verifier). Input: a trajectory TSV
 * "slpi-trajectory 1" (core/trajectory.c; the port-facing description is in
 * oracle/README.md) whose '#' header carries the problem as key=value lines (the
 * provenance keys that slpi itself writes, arith= and state_columns= are skipped; case=NAME takes
 * a golden case's problem, the other keys apply on top) and whose columns
 * include the state coordinates under the names slpi_problem_state_name gives (extra
 * columns are ignored). The certified path is recomputed from the problem's initial
 * state on the same canonical noise (or the header's / the supplied noise file) and
 * every row is scored (oracle/score.c): state ratio |port - exact| / (n u |x|_max),
 * invariant ratio |I(port) - I(exact)| / (n u |I|) with I evaluated in balls on the
 * port's doubles (|I| is the scale of oracle/oracle.h), and the invariant drift ratios
 * |I(x_n) - I(x_0)| / (n u |I|) of the
 * port and of the exact discrete scheme (informative: a scheme that does not conserve
 * I drifts by design). A row PASSes when the certified ratio bounds are <= 30, FAILs
 * when their lower bound exceeds 30, and is UNABLE when the balls are too wide, when
 * the certified step is UNABLE, or beyond --max-steps: it is never PASS unchecked.
 *
 * The file is streamed (core/trajectory.c's row reader), never held: one pass
 * validates it (rows, steps, times, columns), then the global comparison walks it once
 * row by row beside the certified trajectory, and the local one reads it once more in
 * windows of LOCAL_WINDOW rows per thread. Memory is a window of rows, independent of
 * the file's length; the file is read sequentially (a pass per comparison), never
 * sought. Here: the global comparison, the report and the entry points; the input and its
 * validation pass are in oracle/verify-input.c, the local comparison in
 * oracle/verify-local.c, the pooled files' paths and proofs in oracle/verify-pool.c. */
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/plan.h"
#include "slpi/step.h"
#include "slpi/trajectory.h"
#include "slpi/noise.h"
#include "slpi/ref.h"
#include "slpi/tools.h"
#include "slpi/problem-shape.h"
#include "oracle/oracle.h"
#include "core/progress.h"
#include "core/threads.h"
#include "core/view-grid.h"
#include "core/view-scheme.h"
#include "core/view-system.h"

/* The global comparison's walker: the reader, the row it has read ahead (the next
 * stop) and the running result. */
typedef struct {
    const slpi_oracle_port *port;
    slpi_traj_reader *in;
    slpi_traj_row cur;
    int have;  /* cur holds a row not yet scored */
    long last; /* the last step certified (the last row's, or --max-steps) */
    slpi_error *err;
    slpi_ref *s;          /* invariants of the port's states */
    slpi_ref_diag dp, d0; /* of the port's row, of x0 */
    double *f;
    FILE *table; /* the per-row table, or NULL */
    slpi_verify_result *res;
    slpi_progress *pg; /* steps of the certified trajectory walked */
} verifier;

/* Read the next row ahead: SLPI_OK (have says whether there was one) or an input error
 * (a file that changed since the validation pass). */
static int read_ahead(verifier *v)
{
    int got = slpi_traj_next(v->in, &v->cur, v->err);
    v->have = got > 0;
    return got >= 0 ? SLPI_OK : v->err->code == SLPI_EINTR ? SLPI_EINTR : SLPI_EINPUT;
}

static long next_stop(void *ctx)
{
    const verifier *v = ctx;
    return v->have && v->cur.step <= v->last ? v->cur.step : -1;
}

static void row_line(verifier *v, long step, double t, const slpi_score *st, const slpi_score *in, double port_drift,
                     double exact_drift, slpi_verdict verdict, const char *why)
{
    slpi_verify_result *r = v->res;
    r->rows++;
    if (verdict == SLPI_VERDICT_PASS)
        r->rows_pass++;
    else if (verdict == SLPI_VERDICT_FAIL)
        r->rows_fail++;
    else
        r->rows_unable++;
    if (verdict == SLPI_VERDICT_FAIL && r->first_fail_step < 0) r->first_fail_step = step;
    r->global_verdict = slpi_verdict_worse(r->global_verdict, verdict);
    if (!v->table) return;
    char ulps[32] = "-";
    if (st && st->max_ulps >= 0) snprintf(ulps, sizeof ulps, "%.0f", st->max_ulps);
    if (st)
        fprintf(v->table, "%8ld %12.6g %10.3g %10.3g %8s %10.3g %10.3g %10.3g  %s\n", step, t, st->lo, st->hi, ulps,
                in->hi, port_drift, exact_drift, slpi_verdict_name(verdict));
    else
        fprintf(v->table, "%8ld %12.6g %10s %10s %8s %10s %10s %10s  %s (%s)\n", step, t, "-", "-", "-", "-", "-", "-",
                slpi_verdict_name(verdict), why);
}

static int visit_row(void *ctx, long step, arb_srcptr x, const slpi_ref_diag *inv, const slpi_step_info *info)
{
    verifier *v = ctx;
    const slpi_oracle_port *port = v->port;
    (void)info;
    slpi_progress_set(v->pg, step);
    const double *row = v->cur.mid;
    for (int i = 0; i < port->dim; i++) v->f[i] = row[1 + port->col[i]];
    slpi_score st, in;
    double unit = slpi_score_unit(step, port->precision.u);
    slpi_score_vector_bits(v->f, x, port->dim, unit, 0.0, &st, port->precision.bits);
    slpi_oracle_invariants_of(v->s, v->f, port->dim, step, &v->dp);
    int n = inv->n < v->dp.n ? inv->n : v->dp.n;
    double scale[SLPI_MAX_DIAG];
    slpi_oracle_invariant_scales(v->s, x, port->dim, scale, n);
    slpi_score_invariants(v->dp.value, inv->value, scale, n, unit, &in);
    slpi_verdict verdict =
        slpi_verdict_worse(slpi_score_verdict(&st, port->budget), slpi_score_verdict(&in, port->budget));
    slpi_score pd = { 0, 0, -1, 0, 0 }, ed = pd;
    slpi_verify_result *r = v->res;
    r->ninv = n;
    for (int i = 0; i < n; i++) {
        slpi_score a, b;
        slpi_score_invariants(v->dp.value + i, v->d0.value + i, scale + i, 1, unit, &a);
        slpi_score_invariants(inv->value + i, v->d0.value + i, scale + i, 1, unit, &b);
        slpi_score_merge(&pd, &a);
        slpi_score_merge(&ed, &b);
        r->inv_name[i] = inv->name[i];
        if (verdict == SLPI_VERDICT_UNABLE) continue;
        r->port_drift[i] = fmax(r->port_drift[i], a.hi);
        r->exact_drift[i] = fmax(r->exact_drift[i], b.hi);
    }
    row_line(v, step, row[0], &st, &in, pd.hi, ed.hi, verdict, NULL);
    if (verdict != SLPI_VERDICT_UNABLE) {
        slpi_score_merge(&r->state, &st);
        slpi_score_merge(&r->inv, &in);
        r->last_certified_step = step;
    }
    return read_ahead(v);
}

void slpi_verify_opts_init(slpi_verify_opts *o)
{
    memset(o, 0, sizeof *o);
    o->global = o->local = 1;
    slpi_precision_of_u(&o->precision, SLPI_U_BINARY64);
    o->alpha = SLPI_VERIFY_ALPHA;
    o->budget = SLPI_ORACLE_THRESHOLD;
    o->max_steps = o->row_first = o->row_last = -1;
    o->nranks = 1;
}

/* The global comparison: the certified trajectory from x0 walked beside the file,
 * each row scored at its step. */
static void run_global(const slpi_oracle_port *port, const slpi_verify_input *in, FILE *table, slpi_verify_result *res,
                       slpi_error *err, int *rc)
{
    verifier v;
    memset(&v, 0, sizeof v);
    long done = 0;
    v.port = port;
    v.err = err;
    v.last = in->last_step;
    if (port->max_steps >= 0 && v.last > port->max_steps) v.last = port->max_steps;
    v.f = malloc((size_t)port->dim * sizeof(double) + 1);
    if (!v.f) *rc = slpi_error_set(err, SLPI_EINPUT, "verify: out of memory");
    if (*rc == SLPI_OK) *rc = slpi_traj_open(&v.in, in->path, err);
    if (*rc == SLPI_OK) *rc = read_ahead(&v);
    if (*rc == SLPI_OK) *rc = slpi_ref_create_plan(&v.s, port->plan, err);
    if (*rc == SLPI_OK) {
        v.table = table;
        v.res = res;
        slpi_ref_diag_init(&v.dp);
        slpi_ref_diag_init(&v.d0);
        slpi_oracle_invariants_of(v.s, port->x0, port->dim, 0, &v.d0);
        if (table)
            fprintf(
                table,
                "global: each row against the certified trajectory from x0\n%8s %12s %10s %10s %8s %10s %10s %10s  %s\n",
                "step", "t", "state lo", "state hi", "ulps", "inv hi", "drift", "exact drift", "verdict");
        v.pg = port->rank == 0 && !port->quiet ? slpi_progress_begin("verify --global, steps", v.last) : NULL;
        *rc = slpi_oracle_ref_walk_source(port->plan, port->x0, next_stop, visit_row, &v, &done, err);
        slpi_progress_end(v.pg);
        char why[600] = "not checked (--max-steps)";
        if (*rc == SLPI_ENUMERIC) {
            snprintf(why, sizeof why, "%s", err->msg);
            snprintf(res->global_why, sizeof res->global_why, "%s", err->msg);
            *rc = SLPI_OK;
        }
        /* the rows the walk did not reach: the one read ahead, and the rest */
        while (*rc == SLPI_OK && v.have) {
            row_line(&v, v.cur.step, v.cur.mid[0], NULL, NULL, 0, 0, SLPI_VERDICT_UNABLE, why);
            *rc = read_ahead(&v);
        }
        slpi_ref_diag_clear(&v.dp);
        slpi_ref_diag_clear(&v.d0);
    }
    slpi_ref_free(v.s);
    slpi_traj_close(v.in);
    free(v.f);
}

/* A local comparison that would check no row (--rows outside the file, or one row that
 * is not row 0) is refused: a verdict over no row would be no evidence. */
static int no_local_row(const slpi_verify_input *in, const slpi_verify_opts *o, slpi_error *err)
{
    char range[64];
    if (slpi_verify_rows_range(o, range, sizeof range))
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s: --rows %s selects no row of the local comparison: the "
                              "file's rows are steps %ld..%ld (%ld rows)",
                              in->path, range, in->first_step, in->last_step, in->nrows);
    return slpi_error_set(err, SLPI_EINPUT,
                          "%s: the local comparison has no row to check: its one row (step %ld) "
                          "has no predecessor and is not row 0",
                          in->path, in->first_step);
}

/* A split path's messages name it as its report does (FILE#path=K): the file's name at
 * the start of err's message (the readers' "FILE:LINE: ...", verify's "FILE: ...")
 * becomes name, so that the messages do not depend on the private folder's name. */
static void name_in_message(slpi_error *err, const char *path, const char *name)
{
    size_t n = strlen(path);
    if (strcmp(path, name) == 0 || strncmp(err->msg, path, n) != 0 || err->msg[n] != ':') return;
    char rest[sizeof err->msg];
    snprintf(rest, sizeof rest, "%s", err->msg + n);
    snprintf(err->msg, sizeof err->msg, "%.200s%.311s", name, rest);
}

/* Without --max-steps, the work of a file's comparisons against the default cap: more
 * steps to certify is refused, naming the option (a typo or a hostile header, steps=1e11
 * over two rows, ran for days with no word). */
static int work_capped(const slpi_verify_input *in, const slpi_verify_opts *o, slpi_error *err)
{
    const long cap = SLPI_VERIFY_MAX_STEPS_DEFAULT;
    const char *why = "about a day of one core at the cheapest certified step";
    if (o->max_steps >= 0) return SLPI_OK;
    if (o->global && in->last_step > cap)
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s: the global comparison would certify %ld steps (to the last row's), more than "
                              "verify's default --max-steps %ld (%s): give --max-steps K to certify at most K "
                              "(UNABLE beyond), or --max-steps %ld to certify them all",
                              in->path, in->last_step, cap, why, in->last_step);
    if (o->local && in->max_gap > cap)
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s: the row at step %ld is %ld steps after the previous row: the local comparison "
                              "would certify them, more than verify's default --max-steps %ld (%s): give "
                              "--max-steps K to certify at most K a row (UNABLE beyond), or --max-steps %ld",
                              in->path, in->gap_step, in->max_gap, cap, why, in->max_gap);
    return SLPI_OK;
}

/* The steps of from..to that o's --rows keeps, into *lo..*hi. */
static void kept_steps(const slpi_verify_opts *o, long from, long to, long *lo, long *hi)
{
    *lo = o->row_first > from ? o->row_first : from;
    *hi = o->row_last >= 0 && o->row_last < to ? o->row_last : to;
}

/* One file (path, shown as name): its proof (global and local comparisons, the summary's
 * proof lines) and its rows' part of the statistics in res->stats (not finished). quiet:
 * no progress line of its own; diagnose: the rows carry the diagnosis's too. */
static int verify_one(const char *path, const char *name, const slpi_verify_opts *o, FILE *report, int quiet,
                      int diagnose, slpi_verify_input *in, slpi_verify_result *res, slpi_error *err)
{
    memset(res, 0, sizeof *res);
    res->verdict = res->global_verdict = res->local.verdict = SLPI_VERDICT_PASS;
    res->last_certified_step = res->first_fail_step = res->local.first_fail_step = -1;
    res->state.max_ulps = res->inv.max_ulps = res->local.state.max_ulps = -1;
    res->precision = o->precision;
    res->budget = o->budget;
    res->sample_seed = o->sample_seed;
    res->files = 1;
    in->path = path;
    in->name = name;
    int rc = slpi_verify_scan(in, o, err);
    int dim = in->dim;
    slpi_oracle_stat_init(&res->stats, rc == SLPI_OK ? slpi_problem_noise_count(in->p) : 0, dim, o->alpha);
    /* the diagnosis's bins span the steps of the rows kept (--rows: docs/power.md#window-refine) */
    long bin_lo, bin_hi;
    kept_steps(o, in->first_step, in->last_step, &bin_lo, &bin_hi);
    slpi_oracle_diag_init(&res->stats.diag, rc == SLPI_OK ? in->p : NULL, dim, bin_lo, bin_hi, o->precision.u);
    double *x0 = calloc((size_t)dim + 1, sizeof(double));
    if (rc == SLPI_OK && !x0) rc = slpi_error_set(err, SLPI_EINPUT, "verify: out of memory");
    if (rc == SLPI_OK && o->local && in->ncand == 0) rc = no_local_row(in, o, err);
    if (rc == SLPI_OK) rc = work_capped(in, o, err);
    if (rc == SLPI_OK) rc = slpi_oracle_initial_state(in->plan, x0, err);
    if (rc == SLPI_OK) rc = slpi_verify_note_noise_file(in->p, res, err);
    slpi_oracle_port port = { in->p,
                              in->plan,
                              in->col,
                              dim,
                              x0,
                              o->precision,
                              o->budget,
                              o->max_steps,
                              1,
                              o->rank,
                              o->nranks > 0 ? o->nranks : 1,
                              o->combine,
                              o->combine_arg,
                              quiet,
                              NULL,
                              0,
                              diagnose };
    int used = SLPI_STAT_REF_CERTIFIED;
    if (rc == SLPI_OK && o->local) rc = slpi_verify_stat_reference(&used, o->stat_reference, &o->precision, dim, err);
    port.reference = used;
    res->stats.reference = slpi_oracle_stat_reference_name(used);
    FILE *table = o->table ? report : NULL;
    if (rc == SLPI_OK && table)
        fprintf(table, "verify %s: %s on %s, %ld rows\n", name, slpi_scheme_name(slpi_view_scheme(in->p)->scheme),
                slpi_system_name(slpi_view_system(in->p)->system), in->nrows);
    if (rc == SLPI_OK && o->global) run_global(&port, in, table, res, err, &rc);
    if (rc == SLPI_OK && o->local) slpi_verify_run_local(&port, in, o, table, res, err, &rc);
    res->rows_missing = in->missing;
    memcpy(res->missing_step, in->missing_step, sizeof res->missing_step);
    if (rc == SLPI_OK) {
        if (in->missing > 0) res->verdict = SLPI_VERDICT_UNABLE;
        if (o->global) res->verdict = slpi_verdict_worse(res->verdict, res->global_verdict);
        if (o->local) res->verdict = slpi_verdict_worse(res->verdict, res->local.verdict);
        if (report) slpi_verify_write_summary(report, in, o, res);
    }
    if (rc != SLPI_OK) name_in_message(err, path, name);
    free(x0);
    return rc;
}

static int run_files(int n, const char *const *paths, const char *const *names, const slpi_verify_opts *o, FILE *report,
                     int diagnose, slpi_verify_result *res, slpi_error *err);

/* The files as given, a file with a `path` column split into its paths first
 * (oracle/verify-paths.c). */
int slpi_verify_run_files(int n, const char *const *paths, const slpi_verify_opts *o, FILE *report,
                          slpi_verify_result *res, slpi_error *err)
{
    slpi_verify_paths sp;
    int rc = n >= 1 ? slpi_verify_paths_split(&sp, n, paths, err) : SLPI_OK;
    if (rc == SLPI_OK && n >= 1)
        rc = sp.nlist > INT_MAX ? slpi_error_set(err, SLPI_EINPUT, "verify: too many paths")
                                : run_files((int)sp.nlist, sp.list, sp.shown, o, report, 0, res, err);
    else if (rc == SLPI_OK)
        rc = run_files(n, paths, paths, o, report, 0, res, err);
    if (n >= 1) slpi_verify_paths_clear(&sp);
    return rc;
}

/* Files per thread from which verify's files run at once, each on one thread, instead of
 * one file at a time on all threads: with a dynamic schedule a thread then idles at
 * most about one file in four at a batch's end. Many short paths (a GPU ensemble's
 * shape: each file a few rows) would otherwise start a parallel region per few rows,
 * between which the idle threads spin while one reads the next file. */
#define FILES_PER_THREAD 4
/* Files per thread verified before their results are folded (in file order) and their
 * reports written: memory stays a batch of results whatever the count of files. */
#define FILES_BATCH 8

/* A file's work when the files run at once: its input, result and report (buffered,
 * written in file order). */
typedef struct {
    slpi_verify_input in;
    slpi_verify_result *res;
    slpi_error err;
    int rc;
    char *text;
    size_t len;
} file_work;

static void work_file(file_work *w, const char *path, const char *name, const slpi_verify_opts *o, FILE *report,
                      int quiet, int diagnose)
{
    FILE *out = report && quiet ? open_memstream(&w->text, &w->len) : report;
    memset(&w->in, 0, sizeof w->in);
    w->rc = report && !out ? slpi_error_set(&w->err, SLPI_EINPUT, "verify: out of memory")
                           : verify_one(path, name, o, out, quiet, diagnose, &w->in, w->res, &w->err);
    if (out && out != report) fclose(out);
}

/* The threads over which the files run at once (1: one file at a time, its rows on
 * o->threads): a local comparison on one rank, at least FILES_PER_THREAD files a thread. */
static int file_threads(int n, const slpi_verify_opts *o, slpi_error *err, int *rc)
{
    int nt = 1;
    if (!o->local || o->nranks > 1 || n < 2 * FILES_PER_THREAD) return 1;
    *rc = slpi_threads_resolve(o->threads, "verify --local", &nt, err);
    return *rc == SLPI_OK && nt > 1 && n >= FILES_PER_THREAD * nt ? nt : 1;
}

/* The diagnosis's pass over the rows of steps from..to alone (within o's own range) into r. */
static int rows_pass(int n, const char *const *paths, const char *const *names, const slpi_verify_opts *o, long from,
                     long to, slpi_verify_result *r, slpi_error *err)
{
    slpi_verify_opts d = *o;
    kept_steps(o, from, to, &d.row_first, &d.row_last);
    memset(r, 0, sizeof *r);
    return run_files(n, paths, names, &d, NULL, 1, r, err);
}

/* The diagnosis's pass: where the statistics FAIL, the local comparison again over the
 * same rows (the same options, the proof's global comparison and table left out, no
 * report), now with the ingredients' directions (oracle/diagnose.c), whose cost (a
 * double step per ingredient a row) a passing run does not pay. Its rows and so its
 * statistics are the first pass's; its diagnosis replaces the first's, which had no rows.
 * Where it names a window, a third pass over the window's rows (at most a quarter of the
 * steps) gives the ranking and separability there (docs/power.md#window-sandwich), and a
 * fourth over the first's best run of the third's bins, where that trims the window's
 * edges, gives them again (docs/power.md#window-refine). */
static int diagnose_pass(int n, const char *const *paths, const char *const *names, const slpi_verify_opts *o,
                         slpi_verify_result *res, slpi_error *err)
{
    slpi_verify_opts d = *o;
    d.global = 0;
    d.table = 0;
    slpi_verify_result *r = calloc(1, sizeof *r);
    int rc = r ? run_files(n, paths, names, &d, NULL, 1, r, err)
               : slpi_error_set(err, SLPI_EINPUT, "verify: out of memory for the diagnosis");
    slpi_verify_diagnosis *g = &res->stats.diag;
    const int rounded = res->stats.against_rounded;
    long from, to;
    if (rc == SLPI_OK) *g = r->stats.diag;
    if (rc == SLPI_OK && g->from >= 0) { /* a window: a third pass over its rows alone */
        rc = rows_pass(n, paths, names, &d, g->from, g->to, r, err);
        if (rc == SLPI_OK) slpi_oracle_diag_window(g, &r->stats.diag, rounded, res->stats.alpha);
        /* its edges refined: a fourth pass over the first's best run of its bins */
        if (rc == SLPI_OK && slpi_oracle_diag_refine(g, &r->stats.diag, rounded, &from, &to) &&
            (rc = rows_pass(n, paths, names, &d, from, to, r, err)) == SLPI_OK) {
            g->from = from;
            g->to = to;
            slpi_oracle_diag_window(g, &r->stats.diag, rounded, res->stats.alpha);
        }
    }
    free(r);
    return rc;
}

static int run_files(int n, const char *const *paths, const char *const *names, const slpi_verify_opts *o, FILE *report,
                     int diagnose, slpi_verify_result *res, slpi_error *err)
{
    if (n < 1) return slpi_error_set(err, SLPI_EINPUT, "verify: no trajectory file given");
    if (!(o->precision.u > 0 && o->precision.u < 1) || !(o->budget > 0) || !isfinite(o->budget))
        return slpi_error_set(err, SLPI_EINPUT, "budget: u = %g must lie in (0, 1) and K = %g be positive",
                              o->precision.u, o->budget);
    if (!(o->alpha > 0 && o->alpha < 1))
        return slpi_error_set(err, SLPI_EINPUT, "alpha = %g must lie in (0, 1)", o->alpha);
    int rc = SLPI_OK, nt = file_threads(n, o, err, &rc), quiet = nt > 1;
    if (rc != SLPI_OK) return rc;
    clock_t cpu0 = clock();
    int batch = quiet ? FILES_BATCH * nt : 1;
    slpi_verify_opts one = *o;
    if (quiet) one.threads = 1; /* each file's rows on its one thread */
    file_work *w = calloc((size_t)batch, sizeof *w);
    slpi_verify_result *store = calloc((size_t)batch, sizeof *store);
    slpi_verify_input first;
    memset(&first, 0, sizeof first);
    slpi_verify_path_key *keys = malloc((size_t)n * sizeof *keys);
    if (!w || !store || !keys) rc = slpi_error_set(err, SLPI_EINPUT, "verify: out of memory");
    slpi_progress *pg = rc == SLPI_OK && quiet && o->rank == 0 ? slpi_progress_begin("verify, files", n) : NULL;
    for (int b = 0; b < n && rc == SLPI_OK; b += batch) {
        int m = n - b < batch ? n - b : batch;
        for (int j = 0; j < m; j++) w[j].res = b + j == 0 ? res : store + j;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (quiet)
        for (int j = 0; j < m; j++) {
            work_file(w + j, paths[b + j], names[b + j], &one, report, quiet, diagnose);
            slpi_progress_add(pg, 1);
        }
        /* in file order, as one file at a time: its report, its error, then the checks
         * against the files before it */
        for (int j = 0; j < m; j++) {
            int i = b + j;
            if (rc == SLPI_OK && w[j].text) fwrite(w[j].text, 1, w[j].len, report);
            if (rc == SLPI_OK && (rc = w[j].rc) != SLPI_OK) *err = w[j].err;
            if (rc == SLPI_OK && i > 0) rc = slpi_verify_same_problem(&first, &w[j].in, err);
            if (rc == SLPI_OK) rc = slpi_verify_path_key_of(w[j].in.plan, o->max_steps, &keys[i], err);
            if (rc == SLPI_OK && i > 0) rc = slpi_verify_distinct_path(keys, i, names, err);
            if (rc == SLPI_OK && i > 0) rc = slpi_verify_fold_proof(res, w[j].res, err);
            if (i == 0)
                first = w[j].in;
            else {
                free(w[j].in.col);
                slpi_plan_unref(w[j].in.plan);
            }
            free(w[j].text);
            w[j].text = NULL;
        }
    }
    slpi_progress_end(pg);
    free(first.col);
    slpi_plan_unref(first.plan);
    for (int j = 0; store && j < batch; j++) slpi_oracle_copies_free(store[j].stats.copies); /* unfolded: an error */
    if (rc != SLPI_OK) {
        slpi_oracle_copies_free(res->stats.copies);
        res->stats.copies = NULL;
    }
    free(store);
    free(w);
    free(keys);
    if (rc != SLPI_OK) return rc;
    res->proof = res->verdict;
    if (!o->local) res->stats.dirs = 0; /* not run */
    if (o->local) {
        slpi_oracle_stat_finish(&res->stats, n);
        if (!diagnose && res->stats.verdict == SLPI_VERDICT_FAIL &&
            (rc = diagnose_pass(n, paths, names, o, res, err)) != SLPI_OK)
            return rc;
        if (res->stats.verdict == SLPI_VERDICT_FAIL || (o->require_power && res->stats.verdict == SLPI_VERDICT_UNABLE))
            res->verdict = slpi_verdict_worse(res->verdict, res->stats.verdict);
    }
    res->stats.cpu_seconds = (double)(clock() - cpu0) / CLOCKS_PER_SEC; /* both passes */
    if (report) slpi_verify_write_verdict(report, o, res);
    return SLPI_OK;
}

int slpi_verify_run(const char *path, const slpi_verify_opts *o, FILE *report, slpi_verify_result *res, slpi_error *err)
{
    return slpi_verify_run_files(1, &path, o, report, res, err);
}

int slpi_verify_file(const char *path, const char *noise_file, const char *golden_dir, long max_steps, FILE *report,
                     slpi_verify_result *res, slpi_error *err)
{
    slpi_verify_opts o;
    slpi_verify_opts_init(&o);
    o.noise_file = noise_file;
    o.golden_dir = golden_dir;
    o.max_steps = max_steps;
    o.local = 0;
    return slpi_verify_run(path, &o, report, res, err);
}
