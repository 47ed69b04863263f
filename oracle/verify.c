/* verify.c — `slpi verify`: check a trajectory of another implementation (a port)
 * against the certified path (the port verifier). Input: a trajectory TSV
 * "slpi-trajectory 1" (core/trajectory.c; the port-facing description is in
 * oracle/README.md) whose '#' header carries the problem as key=value lines (the
 * provenance keys that slpi itself writes, and arith=, are skipped; case=NAME takes
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
 * the certified step is UNABLE, or beyond --max-steps: it is never PASS unchecked. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/oracle.h"

/* Line numbers of the header keys, the column line and the rows (for file:line). */
typedef struct {
    int nkeys;
    char **key;
    long *key_line;
    long column_line;
    long *row_line;
    long nrows;
} line_map;

static void map_lines(const char *path, line_map *m)
{
    memset(m, 0, sizeof *m);
    FILE *f = fopen(path, "r");
    if (!f) return;
    char *line = NULL;
    size_t cap = 0;
    long no = 0;
    while (getline(&line, &cap, f) >= 0) {
        no++;
        if (line[0] == '#') {
            const char *s = line + 1;
            while (*s == ' ') s++;
            const char *eq = strchr(s, '=');
            if (!eq) continue;
            m->key = realloc(m->key, (size_t)(m->nkeys + 1) * sizeof(char *));
            m->key_line = realloc(m->key_line, (size_t)(m->nkeys + 1) * sizeof(long));
            m->key[m->nkeys] = strndup(s, (size_t)(eq - s));
            m->key_line[m->nkeys++] = no;
        } else if (m->column_line == 0) {
            m->column_line = no;
        } else {
            m->row_line = realloc(m->row_line, (size_t)(m->nrows + 1) * sizeof(long));
            m->row_line[m->nrows++] = no;
        }
    }
    free(line);
    fclose(f);
}

static void free_map(line_map *m)
{
    for (int i = 0; i < m->nkeys; i++) free(m->key[i]);
    free(m->key);
    free(m->key_line);
    free(m->row_line);
}

static long key_line(const line_map *m, const char *key)
{
    for (int i = 0; i < m->nkeys; i++)
        if (strcmp(m->key[i], key) == 0) return m->key_line[i];
    return 0;
}

/* The problem of the header: a golden case's (case=NAME, from golden_dir), then every
 * other key except provenance and arith on top. */
static int header_problem(const char *path, const slpi_traj *t, const line_map *m, const char *noise_file,
                          const char *golden_dir, slpi_problem *p, slpi_error *err)
{
    int nprov = 0, rc = SLPI_OK, have_case = 0;
    char **pk = NULL, **pv = NULL;
    slpi_oracle_provenance(&nprov, &pk, &pv);
    char **keys = calloc((size_t)t->nhead + 1, sizeof(char *)), **vals = calloc((size_t)t->nhead + 1, sizeof(char *));
    char **where = calloc((size_t)t->nhead + 1, sizeof(char *));
    int n = 0;
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    for (int i = 0; i < t->nhead && rc == SLPI_OK; i++) {
        int skip = strcmp(t->head_key[i], "arith") == 0;
        for (int j = 0; j < nprov && !skip; j++) skip = strcmp(t->head_key[i], pk[j]) == 0;
        if (skip) continue;
        char at[SLPI_PATH_MAX + 32];
        snprintf(at, sizeof at, "%s:%ld", path, key_line(m, t->head_key[i]));
        if (strcmp(t->head_key[i], "case") == 0) {
            char file[200], gpath[SLPI_PATH_MAX + 200];
            slpi_golden g;
            slpi_golden_file_name(t->head_val[i], file, sizeof file);
            snprintf(gpath, sizeof gpath, "%s/%s", golden_dir ? golden_dir : "oracle/golden", file);
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
    for (int i = 0; i < n; i++) free(where[i]);
    free(where);
    free(keys);
    free(vals);
    return rc;
}

typedef struct {
    const slpi_traj *t;
    const slpi_problem *p;
    const int *col;            /* state coordinate i is column col[i] */
    int dim;
    slpi_ref *s;               /* invariants of the port's states */
    slpi_ref_diag dp, d0;      /* of the port's row, of x0 */
    double *f;
    long row;                  /* next row */
    FILE *report;
    slpi_verify_result *res;
} verifier;

static void row_line(verifier *v, long step, double t, const slpi_score *st, const slpi_score *in, double port_drift,
                     double exact_drift, slpi_verdict verdict, const char *why)
{
    slpi_verify_result *r = v->res;
    r->rows++;
    if (verdict == SLPI_VERDICT_PASS) r->rows_pass++;
    else if (verdict == SLPI_VERDICT_FAIL) r->rows_fail++;
    else r->rows_unable++;
    if (verdict == SLPI_VERDICT_FAIL && r->first_fail_step < 0) r->first_fail_step = step;
    r->verdict = slpi_verdict_worse(r->verdict, verdict);
    if (!v->report) return;
    char ulps[32] = "-";
    if (st && st->max_ulps >= 0) snprintf(ulps, sizeof ulps, "%.0f", st->max_ulps);
    if (st)
        fprintf(v->report, "%8ld %12.6g %10.3g %10.3g %8s %10.3g %10.3g %10.3g  %s\n", step, t, st->lo, st->hi, ulps,
                in->hi, port_drift, exact_drift, slpi_verdict_name(verdict));
    else
        fprintf(v->report, "%8ld %12.6g %10s %10s %8s %10s %10s %10s  %s (%s)\n", step, t, "-", "-", "-", "-", "-", "-",
                slpi_verdict_name(verdict), why);
}

static int visit_row(void *ctx, long step, arb_srcptr x, const slpi_ref_diag *inv, const slpi_step_info *info)
{
    verifier *v = ctx;
    const slpi_traj *t = v->t;
    (void)info;
    const double *row = t->mid + (size_t)v->row * (size_t)(t->ncols + 1);
    for (int i = 0; i < v->dim; i++) v->f[i] = row[1 + v->col[i]];
    slpi_score st, in;
    slpi_score_vector(v->f, x, v->dim, step, 0.0, &st);
    slpi_oracle_invariants_of(v->s, v->f, v->dim, &v->dp);
    int n = inv->n < v->dp.n ? inv->n : v->dp.n;
    double scale[SLPI_MAX_DIAG];
    slpi_oracle_invariant_scales(v->s, x, v->dim, scale, n);
    slpi_score_invariants(v->dp.value, inv->value, scale, n, step, &in);
    slpi_verdict verdict = slpi_verdict_worse(slpi_score_verdict(&st), slpi_score_verdict(&in));
    slpi_score pd = { 0, 0, -1, 0, 0 }, ed = pd;
    slpi_verify_result *r = v->res;
    r->ninv = n;
    for (int i = 0; i < n; i++) {
        slpi_score a, b;
        slpi_score_invariants(v->dp.value + i, v->d0.value + i, scale + i, 1, step, &a);
        slpi_score_invariants(inv->value + i, v->d0.value + i, scale + i, 1, step, &b);
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
    v->row++;
    return SLPI_OK;
}

static int check_rows(const char *path, const slpi_traj *t, const line_map *m, const slpi_problem *p, int dim, int *col,
                      slpi_error *err)
{
    char name[64];
    for (int i = 0; i < dim; i++) {
        slpi_problem_state_name(p, i, name, sizeof name);
        if ((col[i] = slpi_traj_column(t, name)) < 0)
            return slpi_error_set(err, SLPI_EINPUT, "%s:%ld: no column '%s' (state coordinate %d of %s)", path,
                                  m->column_line, name, i + 1, slpi_system_name(p->system));
    }
    if (t->nrows == 0) return slpi_error_set(err, SLPI_EINPUT, "%s: no rows", path);
    for (long r = 0; r < t->nrows; r++) {
        long line = r < m->nrows ? m->row_line[r] : 0;
        double tr = t->mid[(size_t)r * (size_t)(t->ncols + 1)], te = (double)t->step[r] * p->h;
        if (t->step[r] > p->steps)
            return slpi_error_set(err, SLPI_EINPUT, "%s:%ld: step %ld beyond the header's steps=%ld", path, line,
                                  t->step[r], p->steps);
        /* t may have been accumulated (t += h): allow its rounding, 4 n u, beyond 1e-12 */
        if (fabs(tr - te) > (1e-12 + 4.0 * (double)t->step[r] * 0x1p-53) * fmax(1.0, fabs(te)))
            return slpi_error_set(err, SLPI_EINPUT, "%s:%ld: t = %.17g but step %ld of h = %.17g is at %.17g", path,
                                  line, tr, t->step[r], p->h, te);
        for (int i = 0; i < dim; i++)
            if (t->rad[(size_t)r * (size_t)(t->ncols + 1) + 1 + col[i]] != 0)
                return slpi_error_set(err, SLPI_EINPUT, "%s:%ld: column %s holds a ball: verify reads doubles", path,
                                      line, t->col[col[i]]);
    }
    return SLPI_OK;
}

int slpi_verify_file(const char *path, const char *noise_file, const char *golden_dir, long max_steps,
                     FILE *report, slpi_verify_result *res, slpi_error *err)
{
    memset(res, 0, sizeof *res);
    res->verdict = SLPI_VERDICT_PASS;
    res->last_certified_step = res->first_fail_step = -1;
    res->state.max_ulps = res->inv.max_ulps = -1;
    slpi_traj t;
    int rc = slpi_traj_read(path, &t, err);
    if (rc != SLPI_OK) return rc;
    line_map m;
    map_lines(path, &m);
    slpi_problem p;
    verifier v;
    memset(&v, 0, sizeof v);
    rc = header_problem(path, &t, &m, noise_file, golden_dir, &p, err);
    int dim = rc == SLPI_OK ? slpi_problem_state_dim(&p) : 0, M = rc == SLPI_OK ? slpi_problem_noise_count(&p) : 0;
    int *col = calloc((size_t)dim + 1, sizeof(int));
    if (rc == SLPI_OK) rc = check_rows(path, &t, &m, &p, dim, col, err);
    long last = rc == SLPI_OK ? t.step[t.nrows - 1] : 0;
    if (max_steps >= 0 && last > max_steps) last = max_steps;
    double *x0 = calloc((size_t)dim + 1, sizeof(double)), *dW = calloc((size_t)(last * M + 1), sizeof(double));
    long *stops = calloc((size_t)t.nrows + 1, sizeof(long));
    int nstops = 0;
    for (long r = 0; r < t.nrows && t.step[r] <= last; r++) stops[nstops++] = t.step[r];
    if (rc == SLPI_OK) rc = slpi_fast_problem_initial_state(&p, x0, err);
    if (rc == SLPI_OK) rc = slpi_oracle_increments(&p, last, dW, err);
    if (rc == SLPI_OK) rc = slpi_ref_create(&v.s, &p, err);
    if (rc == SLPI_OK) {
        v.t = &t;
        v.p = &p;
        v.col = col;
        v.dim = dim;
        v.f = calloc((size_t)dim, sizeof(double));
        v.report = report;
        v.res = res;
        slpi_ref_diag_init(&v.dp);
        slpi_ref_diag_init(&v.d0);
        slpi_oracle_invariants_of(v.s, x0, dim, &v.d0);
        if (report) {
            fprintf(report, "verify %s: %s on %s, %ld rows, steps %ld..%ld of h = %.17g; noise: %s%s\n", path,
                    slpi_scheme_name(p.scheme), slpi_system_name(p.system), t.nrows, t.step[0], t.step[t.nrows - 1],
                    p.h, p.noise_file[0] ? "file " : "canonical", p.noise_file);
            fprintf(report, "%8s %12s %10s %10s %8s %10s %10s %10s  %s\n", "step", "t", "state lo", "state hi",
                    "ulps", "inv hi", "drift", "exact drift", "verdict");
        }
        long done;
        rc = slpi_oracle_ref_walk(&p, x0, dW, stops, nstops, visit_row, &v, &done, err);
        char why[600] = "not checked (--max-steps)";
        if (rc == SLPI_ENUMERIC) {
            snprintf(why, sizeof why, "%s", err->msg);
            rc = SLPI_OK;
        }
        for (long r = v.row; rc == SLPI_OK && r < t.nrows; r++)
            row_line(&v, t.step[r], t.mid[(size_t)r * (size_t)(t.ncols + 1)], NULL, NULL, 0, 0, SLPI_VERDICT_UNABLE, why);
        slpi_ref_diag_clear(&v.dp);
        slpi_ref_diag_clear(&v.d0);
        free(v.f);
    }
    if (rc == SLPI_OK && report) {
        fprintf(report, "invariant drift |I(x_n) - I(x_0)| / (n u |I|), worst over certified rows:\n");
        for (int i = 0; i < res->ninv; i++)
            fprintf(report, "  %-24s port %10.3g   exact scheme %10.3g\n", res->inv_name[i], res->port_drift[i],
                    res->exact_drift[i]);
        fprintf(report, "rows: %ld PASS, %ld FAIL, %ld UNABLE; ", res->rows_pass, res->rows_fail, res->rows_unable);
        if (res->last_certified_step >= 0) fprintf(report, "certified through step %ld", res->last_certified_step);
        else fprintf(report, "no row certified");
        if (res->first_fail_step >= 0) fprintf(report, "; first FAIL at step %ld", res->first_fail_step);
        char ulps[32] = "no";
        if (res->state.max_ulps >= 0) snprintf(ulps, sizeof ulps, "max %.0f", res->state.max_ulps);
        fprintf(report, "\ncertified rows: worst state ratio <= %.3g (%s ulps), worst invariant ratio <= %.3g, threshold %g\n",
                res->state.hi, ulps, res->inv.hi, SLPI_ORACLE_THRESHOLD);
        fprintf(report, "verdict: %s\n", slpi_verdict_name(res->verdict));
    }
    slpi_ref_free(v.s);
    free(stops);
    free(dW);
    free(x0);
    free(col);
    free_map(&m);
    slpi_traj_free(&t);
    return rc;
}

int slpi_verify_write_json(const char *input, const slpi_verify_result *res, const char *file, slpi_error *err)
{
    json_t *drift = json_array();
    for (int i = 0; i < res->ninv; i++)
        json_array_append_new(drift, json_pack("{s:s, s:f, s:f}", "invariant", res->inv_name[i], "port",
                                               res->port_drift[i], "exact_scheme", res->exact_drift[i]));
    json_t *j = json_pack("{s:s, s:s, s:s, s:f, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:o}",
                          "slpi_version", SLPI_VERSION, "input", input, "verdict", slpi_verdict_name(res->verdict),
                          "threshold", SLPI_ORACLE_THRESHOLD, "rows", (json_int_t)res->rows, "rows_pass",
                          (json_int_t)res->rows_pass, "rows_fail", (json_int_t)res->rows_fail, "rows_unable",
                          (json_int_t)res->rows_unable, "last_certified_step", (json_int_t)res->last_certified_step,
                          "first_fail_step", (json_int_t)res->first_fail_step, "state_ratio_lo", res->state.lo,
                          "state_ratio_hi", res->state.hi, "max_ulps", res->state.max_ulps, "invariant_ratio_lo",
                          res->inv.lo, "invariant_ratio_hi", res->inv.hi, "drift", drift);
    int bad = j == NULL || json_dump_file(j, file, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) != 0;
    json_decref(j);
    if (bad) return slpi_error_set(err, SLPI_EINPUT, "%s: cannot write the JSON summary", file);
    return SLPI_OK;
}
