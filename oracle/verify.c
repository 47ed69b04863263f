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
 * sought. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/noise.h"
#include "oracle/oracle.h"

/* Rows per thread in a window of the local comparison: enough that the dynamic
 * schedule balances rows of unequal cost (a thread idles at most about one row in
 * eight at a window's end), few enough that a window of su(128) states (2 x 16383
 * doubles a row) stays a few MB per thread. */
#define LOCAL_WINDOW 8

/* A file reference of the header (noise_file=, x0_file=, noise_fields=) relative to the trajectory's
 * folder, as a port writes it next to its trajectory; absolute ones stay. */
static void header_file_ref(const char *traj, const char *val, char *out, size_t n)
{
    const char *slash = strrchr(traj, '/');
    if (val[0] == '/' || !slash) snprintf(out, n, "%s", val);
    else snprintf(out, n, "%.*s/%s", (int)(slash - traj), traj, val);
}

/* The problem of the header: a golden case's (case=NAME, from golden_dir), then every
 * other key except provenance and arith on top. */
static int header_problem(const char *path, const slpi_traj_reader *r, const char *noise_file,
                          const char *golden_dir, slpi_problem *p, slpi_error *err)
{
    const slpi_traj *t = slpi_traj_head(r);
    int nprov = 0, rc = SLPI_OK, have_case = 0;
    char **pk = NULL, **pv = NULL;
    slpi_oracle_provenance(&nprov, &pk, &pv);
    char **keys = calloc((size_t)t->nhead + 1, sizeof(char *)), **vals = calloc((size_t)t->nhead + 1, sizeof(char *));
    char **where = calloc((size_t)t->nhead + 1, sizeof(char *)), **own = calloc((size_t)t->nhead + 1, sizeof(char *));
    int n = 0;
    if (!keys || !vals || !where || !own) rc = slpi_error_set(err, SLPI_EINPUT, "%s: out of memory", path);
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    for (int i = 0; i < t->nhead && rc == SLPI_OK; i++) {
        int skip = strcmp(t->head_key[i], "arith") == 0 || strcmp(t->head_key[i], "state_columns") == 0;
        for (int j = 0; j < nprov && !skip; j++) skip = strcmp(t->head_key[i], pk[j]) == 0;
        if (skip) continue;
        char at[SLPI_PATH_MAX + 32];
        snprintf(at, sizeof at, "%s:%ld", path, slpi_traj_header_line(r, i));
        if (strcmp(t->head_key[i], "case") == 0) {
            char file[200], gpath[SLPI_PATH_MAX + 200];
            slpi_golden g;
            slpi_golden_file_name(t->head_val[i], file, sizeof file);
            snprintf(gpath, sizeof gpath, "%s/%s", golden_dir ? golden_dir : slpi_golden_dir(), file);
            slpi_error gerr = { 0, "" };
            if (slpi_golden_read(gpath, &g, &gerr) != SLPI_OK) {
                rc = slpi_error_set(err, SLPI_EINPUT, "%s: case=%s: %s", at, t->head_val[i], gerr.msg);
                break;
            }
            *p = g.problem;
            have_case = 1;
            slpi_golden_clear(&g);
            continue;
        }
        keys[n] = t->head_key[i];
        vals[n] = t->head_val[i];
        if ((!strcmp(keys[n], "noise_file") || !strcmp(keys[n], "x0_file") || !strcmp(keys[n], "noise_fields"))
            && vals[n][0]) {
            char ref[2 * SLPI_PATH_MAX];
            header_file_ref(path, vals[n], ref, sizeof ref);
            vals[n] = own[n] = strdup(ref);
        }
        where[n++] = strdup(at);
    }
    for (int j = 0; j < nprov; j++) { free(pk[j]); free(pv[j]); }
    free(pk);
    free(pv);
    if (rc == SLPI_OK && n == 0 && !have_case)
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: the header holds no problem (case=, or system=, scheme=, ...)", path);
    if (rc == SLPI_OK && n > 0) rc = slpi_problem_set_all(p, n, keys, vals, (const char *const *)where, err);
    if (rc == SLPI_OK && noise_file) rc = slpi_problem_set(p, "noise_file", noise_file, err);
    if (rc == SLPI_OK) rc = slpi_problem_finish(p, err);
    for (int i = 0; i < n; i++) { free(where[i]); free(own[i]); }
    free(where);
    free(own);
    free(keys);
    free(vals);
    return rc;
}

/* What the validation pass learned of the file: its problem, where the state
 * columns are, its rows' count and steps, and how many rows the local comparison may
 * visit (local_wanted). */
typedef struct {
    const char *path;
    slpi_problem p;
    int dim, *col;             /* state coordinate i is column col[i] */
    long nrows, first_step, last_step, ncand;
} input;

/* Row `index` (at step `step`) is one the local comparison visits: it has a
 * predecessor (or is row 0 at step 0) and its step lies in the --rows range. */
static int local_wanted(const slpi_verify_opts *o, long index, long step)
{
    if (index == 0 && step != 0) return 0;
    return !((o->row_first >= 0 && step < o->row_first) || (o->row_last >= 0 && step > o->row_last));
}

/* The validation pass: the header's problem, the state columns, and every row (a step
 * within the header's steps, t on the grid, doubles in the state columns), with the
 * last row at the header's steps. A malformed line anywhere is reported first (the
 * reader's file:line), then the header, the columns, the rows in order, the end. */
static int scan(input *in, const slpi_verify_opts *o, slpi_error *err)
{
    const char *path = in->path;
    slpi_traj_reader *r;
    int rc = slpi_traj_open(&r, path, err);
    if (rc != SLPI_OK) return rc;
    const slpi_traj *t = slpi_traj_head(r);
    long column_line = slpi_traj_line(r), last_line = 0;
    slpi_error herr = { 0, "" }, rerr = { 0, "" };
    int hrc = header_problem(path, r, o->noise_file, o->golden_dir, &in->p, &herr), rrc = SLPI_OK;
    in->dim = hrc == SLPI_OK ? slpi_problem_state_dim(&in->p) : 0;
    in->col = calloc((size_t)in->dim + 1, sizeof(int));
    if (!in->col && hrc == SLPI_OK) hrc = slpi_error_set(&herr, SLPI_EINPUT, "verify: out of memory");
    char name[64];
    for (int i = 0; hrc == SLPI_OK && i < in->dim; i++) {
        slpi_problem_state_name(&in->p, i, name, sizeof name);
        if ((in->col[i] = slpi_traj_column(t, name)) < 0)
            hrc = slpi_error_set(&herr, SLPI_EINPUT, "%s:%ld: no column '%s' (state coordinate %d of %s)", path,
                                 column_line, name, i + 1, slpi_system_name(in->p.system));
    }
    const slpi_problem *p = &in->p;
    slpi_traj_row row;
    int got;
    while ((got = slpi_traj_next(r, &row, err)) > 0) {
        long line = slpi_traj_line(r), index = in->nrows++;
        if (index == 0) in->first_step = row.step;
        in->last_step = row.step;
        last_line = line;
        in->ncand += local_wanted(o, index, row.step);
        if (hrc != SLPI_OK || rrc != SLPI_OK) continue;
        double tr = row.mid[0], te = (double)row.step * p->h;
        if (row.step > p->steps)
            rrc = slpi_error_set(&rerr, SLPI_EINPUT, "%s:%ld: step %ld beyond the header's steps=%ld", path, line,
                                 row.step, p->steps);
        /* t may have been accumulated (t += h): allow its rounding, 4 n u, beyond 1e-12 */
        else if (fabs(tr - te) > (1e-12 + 4.0 * (double)row.step * 0x1p-53) * fmax(1.0, fabs(te)))
            rrc = slpi_error_set(&rerr, SLPI_EINPUT, "%s:%ld: t = %.17g but step %ld of h = %.17g is at %.17g", path,
                                 line, tr, row.step, p->h, te);
        for (int i = 0; rrc == SLPI_OK && i < in->dim; i++)
            if (row.rad[1 + in->col[i]] != 0)
                rrc = slpi_error_set(&rerr, SLPI_EINPUT, "%s:%ld: column %s holds a ball: verify reads doubles", path,
                                     line, t->col[in->col[i]]);
    }
    slpi_traj_close(r);
    if (got < 0) return SLPI_EINPUT;
    if (hrc != SLPI_OK) return *err = herr, hrc;
    if (in->nrows == 0) return slpi_error_set(err, SLPI_EINPUT, "%s: no rows", path);
    if (rrc != SLPI_OK) return *err = rerr, rrc;
    /* a file that stops short of its header's steps is truncated, or its header is wrong
     * (steps=1e11 over a few rows): either way it is not the run the header describes */
    if (in->last_step < p->steps)
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s:%ld: the header says steps=%ld but the last row is step %ld: a truncated file, or "
                              "set steps=%ld", path, last_line, p->steps, in->last_step, in->last_step);
    return SLPI_OK;
}

/* The global comparison's walker: the reader, the row it has read ahead (the next
 * stop) and the running result. */
typedef struct {
    const slpi_oracle_port *port;
    slpi_traj_reader *in;
    slpi_traj_row cur;
    int have;                  /* cur holds a row not yet scored */
    long last;                 /* the last step certified (the last row's, or --max-steps) */
    slpi_error *err;
    slpi_ref *s;               /* invariants of the port's states */
    slpi_ref_diag dp, d0;      /* of the port's row, of x0 */
    double *f;
    FILE *table;               /* the per-row table, or NULL */
    slpi_verify_result *res;
    slpi_progress *pg;         /* steps of the certified trajectory walked */
} verifier;

/* Read the next row ahead: SLPI_OK (have says whether there was one) or an input error
 * (a file that changed since the validation pass). */
static int read_ahead(verifier *v)
{
    int got = slpi_traj_next(v->in, &v->cur, v->err);
    v->have = got > 0;
    return got < 0 ? SLPI_EINPUT : SLPI_OK;
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
    if (verdict == SLPI_VERDICT_PASS) r->rows_pass++;
    else if (verdict == SLPI_VERDICT_FAIL) r->rows_fail++;
    else r->rows_unable++;
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
    double unit = slpi_score_unit(step, port->u);
    slpi_score_vector(v->f, x, port->dim, unit, 0.0, &st);
    slpi_oracle_invariants_of(v->s, v->f, port->dim, &v->dp);
    int n = inv->n < v->dp.n ? inv->n : v->dp.n;
    double scale[SLPI_MAX_DIAG];
    slpi_oracle_invariant_scales(v->s, x, port->dim, scale, n);
    slpi_score_invariants(v->dp.value, inv->value, scale, n, unit, &in);
    slpi_verdict verdict = slpi_verdict_worse(slpi_score_verdict(&st, port->budget), slpi_score_verdict(&in, port->budget));
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

/* A noise file the problem truncates but that was written untruncated (`slpi noise`
 * without --truncate on, or --preset/--config): the verifier clips its values as the
 * problem says, a port that consumed them as they are solved another problem. Noted in
 * res->note with the count of values beyond the threshold; a file of another shape
 * (M, level, steps, threshold) is refused by the noise source itself. */
static int note_noise_file(const slpi_problem *p, slpi_verify_result *res, slpi_error *err)
{
    if (!p->noise_file[0] || !slpi_problem_truncates(p)) return SLPI_OK;
    slpi_noise_header hd;
    double *dw = NULL;
    int rc = slpi_noise_file_read(p->noise_file, &hd, &dw, err);
    if (rc != SLPI_OK) return rc;
    if (!hd.truncated && hd.components == slpi_problem_noise_count(p) && hd.h == p->h) {
        double D = slpi_noise_threshold(p->h, p->trunc_ell);
        long beyond = 0, total = hd.steps * (long)hd.components;
        for (long i = 0; i < total; i++) beyond += fabs(dw[i]) > D;
        if (beyond > 0)
            snprintf(res->note, sizeof res->note,
                     "noise file %.400s is untruncated, the problem truncates at D = %.17g: %ld of its %ld increments exceed D "
                     "and are clipped here; a port that used them unclipped solved another problem (write the file with "
                     "`slpi noise --preset/--config`, which truncates as the problem does)",
                     p->noise_file, D, beyond, total);
    }
    free(dw);
    return SLPI_OK;
}

void slpi_verify_opts_init(slpi_verify_opts *o)
{
    memset(o, 0, sizeof *o);
    o->global = o->local = 1;
    o->u = SLPI_U_BINARY64;
    o->budget = SLPI_ORACLE_THRESHOLD;
    o->max_steps = o->row_first = o->row_last = -1;
    o->nranks = 1;
}

const char *slpi_verify_precision_name(double u)
{
    return u == SLPI_U_BINARY64 ? "binary64" : u == SLPI_U_BINARY32 ? "binary32" : "stated";
}

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
        memset(m.key, 0xff, cap * sizeof(long));   /* -1: empty */
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
static int local_window(const slpi_oracle_port *port, slpi_oracle_local_row *w, long nw, long first,
                        slpi_progress *pg, FILE *table, int *header, slpi_verify_local *L, slpi_error *err)
{
    int rc = slpi_oracle_local(port, w, nw, first, pg, err);
    if (rc != SLPI_OK) return rc;
    if (table && !*header)
        fprintf(table, "local: each row against the certified step(s) from the port's previous row\n%8s %8s %10s %10s %8s  %-6s %s\n",
                "step", "from", "local lo", "local hi", "ulps", "verdict", "products");
    *header = 1;
    for (long i = 0; i < nw; i++) {
        const slpi_oracle_local_row *lr = w + i;
        L->rows++;
        if (lr->verdict == SLPI_VERDICT_PASS) L->rows_pass++;
        else if (lr->verdict == SLPI_VERDICT_FAIL) L->rows_fail++;
        else L->rows_unable++;
        if (lr->verdict == SLPI_VERDICT_FAIL && L->first_fail_step < 0) L->first_fail_step = lr->to;
        L->verdict = slpi_verdict_worse(L->verdict, lr->verdict);
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

/* The local comparison, the file read once more in windows: each visited row with the
 * state it starts from (the port's previous row, or x0 for row 0), LOCAL_WINDOW rows
 * per thread at a time. */
static void run_local(slpi_oracle_port *port, const input *in, const slpi_verify_opts *o, FILE *table,
                      slpi_verify_result *res, slpi_error *err, int *rc)
{
    int threads = 1;
    if ((*rc = slpi_threads_resolve(o->threads, "verify --local", &threads, err)) != SLPI_OK) return;
    port->threads = threads;
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
    long mine = nsel / port->nranks + (port->rank < nsel % port->nranks);   /* this rank's rows (progress on rank 0 only) */
    slpi_progress *pg = *rc == SLPI_OK && port->rank == 0 ? slpi_progress_begin("verify --local, rows", mine) : NULL;
    slpi_traj_row row;
    int got = 0;
    while (*rc == SLPI_OK && (got = slpi_traj_next(r, &row, err)) > 0) {
        if (local_wanted(o, index, row.step) && (!sel || (k < nsel && sel[k] == cand))) {
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
                *rc = local_window(port, w, nw, done, pg, table, &header, &res->local, err);
                done += nw;
                nw = 0;
            }
        }
        cand += local_wanted(o, index, row.step);
        for (int i = 0; i < dim; i++) prev[i] = row.mid[1 + port->col[i]];
        prev_step = row.step;
        index++;
    }
    if (*rc == SLPI_OK && got < 0) *rc = SLPI_EINPUT;
    if (*rc == SLPI_OK && (nw > 0 || done == 0)) *rc = local_window(port, w, nw, done, pg, table, &header, &res->local, err);
    slpi_progress_end(pg);
    slpi_traj_close(r);
    free(store);
    free(w);
    free(sel);
}

/* The global comparison: the certified trajectory from x0 walked beside the file,
 * each row scored at its step. */
static void run_global(const slpi_oracle_port *port, const input *in, FILE *table, slpi_verify_result *res,
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
    if (*rc == SLPI_OK) *rc = slpi_ref_create(&v.s, port->p, err);
    if (*rc == SLPI_OK) {
        v.table = table;
        v.res = res;
        slpi_ref_diag_init(&v.dp);
        slpi_ref_diag_init(&v.d0);
        slpi_oracle_invariants_of(v.s, port->x0, port->dim, &v.d0);
        if (table)
            fprintf(table, "global: each row against the certified trajectory from x0\n%8s %12s %10s %10s %8s %10s %10s %10s  %s\n",
                    "step", "t", "state lo", "state hi", "ulps", "inv hi", "drift", "exact drift", "verdict");
        v.pg = port->rank == 0 ? slpi_progress_begin("verify --global, steps", v.last) : NULL;
        *rc = slpi_oracle_ref_walk_source(port->p, port->x0, next_stop, visit_row, &v, &done, err);
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

static void write_summary(FILE *f, const input *in, const slpi_verify_opts *o, const slpi_verify_result *res)
{
    static const char *const matmul_name[] = { "auto", "arb", "blas" };   /* slpi_matmul_route */
    const slpi_problem *p = &in->p;
    fprintf(f, "verify %s: %s on %s, %ld rows, steps %ld..%ld of h = %.17g; noise: %s%s\n", in->path,
            slpi_scheme_name(p->scheme), slpi_system_name(p->system), in->nrows, in->first_step, in->last_step,
            p->h, p->noise_file[0] ? "file " : "canonical", p->noise_file);
    fprintf(f, "budget: u = %.6g (%s), K = %g: PASS when |port - exact| <= K n u |x|, n = the step (global) or the "
               "steps since the previous row (local)\n", res->u, slpi_verify_precision_name(res->u), res->budget);
    if (res->note[0]) fprintf(f, "note: %s\n", res->note);
    if (o->global) {
        fprintf(f, "global: invariant drift |I(x_n) - I(x_0)| / (n u |I|), worst over certified rows:\n");
        for (int i = 0; i < res->ninv; i++)
            fprintf(f, "  %-24s port %10.3g   exact scheme %10.3g\n", res->inv_name[i], res->port_drift[i],
                    res->exact_drift[i]);
        fprintf(f, "global rows: %ld PASS, %ld FAIL, %ld UNABLE; ", res->rows_pass, res->rows_fail, res->rows_unable);
        if (res->last_certified_step >= 0) fprintf(f, "certified through step %ld", res->last_certified_step);
        else fprintf(f, "no row certified");
        if (res->first_fail_step >= 0) fprintf(f, "; first FAIL at step %ld", res->first_fail_step);
        char ulps[32] = "no";
        if (res->state.max_ulps >= 0) snprintf(ulps, sizeof ulps, "max %.0f", res->state.max_ulps);
        fprintf(f, "\nglobal certified rows: worst state ratio <= %.3g (%s ulps), worst invariant ratio <= %.3g\n",
                res->state.hi, ulps, res->inv.hi);
        if (res->global_why[0]) fprintf(f, "global stopped: %s\n", res->global_why);
    }
    if (o->local) {
        const slpi_verify_local *L = &res->local;
        fprintf(f, "local rows: %ld PASS, %ld FAIL, %ld UNABLE", L->rows_pass, L->rows_fail, L->rows_unable);
        if (o->sample > 0) fprintf(f, " (a sample of %ld rows, seed %llu)", o->sample, (unsigned long long)o->sample_seed);
        if (o->row_first >= 0 || o->row_last >= 0) fprintf(f, " (steps %ld..%ld)", o->row_first, o->row_last);
        if (L->first_fail_step >= 0) fprintf(f, "; first FAIL at step %ld", L->first_fail_step);
        char ulps[32] = "no";
        if (L->state.max_ulps >= 0) snprintf(ulps, sizeof ulps, "max %.0f", L->state.max_ulps);
        fprintf(f, "\nlocal certified rows: worst step ratio <= %.3g (%s ulps); products enclosed by Arb in %ld, "
                   "by the BLAS route in %ld, by both in %ld (matmul=%s, docs/design.md#blas-route)\n", L->state.hi, ulps,
                L->rows_arb, L->rows_blas, L->rows_both,
                matmul_name[p->matmul]);
    }
    fprintf(f, "verdict:");
    if (o->global) fprintf(f, " global %s", slpi_verdict_name(res->global_verdict));
    if (o->local) fprintf(f, "%s local %s", o->global ? "," : "", slpi_verdict_name(res->local.verdict));
    fprintf(f, " => %s\n", slpi_verdict_name(res->verdict));
}

int slpi_verify_run(const char *path, const slpi_verify_opts *o, FILE *report, slpi_verify_result *res,
                    slpi_error *err)
{
    memset(res, 0, sizeof *res);
    res->verdict = res->global_verdict = res->local.verdict = SLPI_VERDICT_PASS;
    res->last_certified_step = res->first_fail_step = res->local.first_fail_step = -1;
    res->state.max_ulps = res->inv.max_ulps = res->local.state.max_ulps = -1;
    res->u = o->u;
    res->budget = o->budget;
    res->sample_seed = o->sample_seed;
    if (!(o->u > 0 && o->u < 1) || !(o->budget > 0) || !isfinite(o->budget))
        return slpi_error_set(err, SLPI_EINPUT, "budget: u = %g must lie in (0, 1) and K = %g be positive", o->u, o->budget);
    input in;
    memset(&in, 0, sizeof in);
    in.path = path;
    int rc = scan(&in, o, err);
    int dim = in.dim;
    double *x0 = calloc((size_t)dim + 1, sizeof(double));
    if (rc == SLPI_OK && !x0) rc = slpi_error_set(err, SLPI_EINPUT, "verify: out of memory");
    if (rc == SLPI_OK) rc = slpi_fast_problem_initial_state(&in.p, x0, err);
    if (rc == SLPI_OK) rc = note_noise_file(&in.p, res, err);
    slpi_oracle_port port = { &in.p, in.col, dim, x0, o->u, o->budget, o->max_steps, 1,
                              o->rank, o->nranks > 0 ? o->nranks : 1, o->combine, o->combine_arg };
    FILE *table = o->table ? report : NULL;
    if (rc == SLPI_OK && table)
        fprintf(table, "verify %s: %s on %s, %ld rows\n", path, slpi_scheme_name(in.p.scheme),
                slpi_system_name(in.p.system), in.nrows);
    if (rc == SLPI_OK && o->global) run_global(&port, &in, table, res, err, &rc);
    if (rc == SLPI_OK && o->local) run_local(&port, &in, o, table, res, err, &rc);
    if (rc == SLPI_OK) {
        if (o->global) res->verdict = slpi_verdict_worse(res->verdict, res->global_verdict);
        if (o->local) res->verdict = slpi_verdict_worse(res->verdict, res->local.verdict);
        if (report) write_summary(report, &in, o, res);
    }
    free(x0);
    free(in.col);
    return rc;
}

int slpi_verify_file(const char *path, const char *noise_file, const char *golden_dir, long max_steps,
                     FILE *report, slpi_verify_result *res, slpi_error *err)
{
    slpi_verify_opts o;
    slpi_verify_opts_init(&o);
    o.noise_file = noise_file;
    o.golden_dir = golden_dir;
    o.max_steps = max_steps;
    o.local = 0;
    return slpi_verify_run(path, &o, report, res, err);
}

int slpi_verify_write_json(const char *input, const slpi_verify_result *res, const char *file, slpi_error *err)
{
    json_t *drift = json_array();
    for (int i = 0; i < res->ninv; i++)
        json_array_append_new(drift, json_pack("{s:s, s:f, s:f}", "invariant", res->inv_name[i], "port",
                                               res->port_drift[i], "exact_scheme", res->exact_drift[i]));
    const slpi_verify_local *L = &res->local;
    json_t *local = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f}", "verdict", slpi_verdict_name(L->verdict),
                              "rows", (json_int_t)L->rows, "rows_pass", (json_int_t)L->rows_pass, "rows_fail",
                              (json_int_t)L->rows_fail, "rows_unable", (json_int_t)L->rows_unable, "first_fail_step",
                              (json_int_t)L->first_fail_step, "step_ratio_lo", L->state.lo, "step_ratio_hi", L->state.hi,
                              "max_ulps", L->state.max_ulps);
    json_object_set_new(local, "products", json_pack("{s:I, s:I, s:I}", "arb", (json_int_t)L->rows_arb, "blas",
                                                     (json_int_t)L->rows_blas, "both", (json_int_t)L->rows_both));
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)res->sample_seed);
    json_t *budget = json_pack("{s:s, s:f, s:f, s:s}", "precision", slpi_verify_precision_name(res->u), "unit_roundoff",
                               res->u, "K", res->budget, "rule", "PASS when |port - exact| <= K n u |x|");
    json_t *j = json_pack("{s:s, s:s, s:s, s:f, s:o, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:o, s:o, s:s, s:s}",
                          "slpi_version", SLPI_VERSION, "input", input, "verdict", slpi_verdict_name(res->verdict),
                          "threshold", res->budget, "budget", budget, "global_verdict",
                          slpi_verdict_name(res->global_verdict), "rows", (json_int_t)res->rows, "rows_pass",
                          (json_int_t)res->rows_pass, "rows_fail", (json_int_t)res->rows_fail, "rows_unable",
                          (json_int_t)res->rows_unable, "last_certified_step", (json_int_t)res->last_certified_step,
                          "first_fail_step", (json_int_t)res->first_fail_step, "state_ratio_lo", res->state.lo,
                          "state_ratio_hi", res->state.hi, "max_ulps", res->state.max_ulps, "invariant_ratio_lo",
                          res->inv.lo, "invariant_ratio_hi", res->inv.hi, "drift", drift, "local", local, "sample_seed",
                          seed, "note", res->note);
    int bad = j == NULL || json_dump_file(j, file, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) != 0;
    json_decref(j);
    if (bad) return slpi_error_set(err, SLPI_EINPUT, "%s: cannot write the JSON summary", file);
    return SLPI_OK;
}
