/* verify-input.c — `slpi verify`'s reading of a port's trajectory (oracle/verify.c's
 * header: the input): the problem of its '#' header (a golden case's, the keys on top, file
 * references relative to the trajectory), the validation pass over every row (the state
 * columns, steps, times, doubles), the rows the local comparison may visit, and the note on
 * an untruncated noise file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/process.h"
#include "slpi/registry.h"
#include "slpi/plan.h"
#include "slpi/noise.h"
#include "slpi/trajectory.h"
#include "slpi/tools.h"
#include "slpi/problem.h"
#include "slpi/problem-build.h"
#include "slpi/problem-shape.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/view-system.h"
#include "core/noise.h"
#include "core/rows.h"
#include "oracle/oracle.h"

/* A file reference of the header (noise_file=, x0_file=, noise_fields=) relative to the trajectory's
 * folder, as a port writes it next to its trajectory; absolute ones stay. */
static void header_file_ref(const char *traj, const char *val, char *out, size_t n)
{
    const char *slash = strrchr(traj, '/');
    if (val[0] == '/' || !slash)
        snprintf(out, n, "%s", val);
    else
        snprintf(out, n, "%.*s/%s", (int)(slash - traj), traj, val);
}

/* The problem of the header: a golden case's (case=NAME, from golden_dir), then every
 * other key except provenance and arith on top; finished into its plan (the model parsed
 * here, once for the whole verification). */
static int header_problem(const char *path, const slpi_traj_reader *r, const char *noise_file, const char *golden_dir,
                          slpi_plan **plan, slpi_error *err)
{
    const slpi_traj *t = slpi_traj_head(r);
    int nprov = 0, rc = SLPI_OK, have_case = 0;
    char **pk = NULL, **pv = NULL;
    int prov = slpi_oracle_provenance(&nprov, &pk, &pv);
    char **keys = calloc((size_t)t->nhead + 1, sizeof(char *)), **vals = calloc((size_t)t->nhead + 1, sizeof(char *));
    char **where = calloc((size_t)t->nhead + 1, sizeof(char *)), **own = calloc((size_t)t->nhead + 1, sizeof(char *));
    int n = 0;
    slpi_problem *p = slpi_problem_new(NULL); /* the plan keeps a copy; freed below */
    if (prov || !keys || !vals || !where || !own || !p)
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: out of memory", path);
    else
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
            slpi_problem_free(p); /* the case's problem, taken from the golden file */
            p = g.problem;
            g.problem = NULL;
            have_case = 1;
            slpi_golden_clear(&g);
            continue;
        }
        keys[n] = t->head_key[i];
        vals[n] = t->head_val[i];
        if ((!strcmp(keys[n], "noise_file") || !strcmp(keys[n], "x0_file") || !strcmp(keys[n], "noise_fields")) &&
            vals[n][0]) {
            char ref[2 * SLPI_PATH_MAX];
            header_file_ref(path, vals[n], ref, sizeof ref);
            vals[n] = own[n] = strdup(ref);
        }
        where[n++] = strdup(at);
    }
    for (int j = 0; j < nprov; j++) {
        free(pk[j]);
        free(pv[j]);
    }
    free(pk);
    free(pv);
    if (rc == SLPI_OK && n == 0 && !have_case)
        rc =
            slpi_error_set(err, SLPI_EINPUT, "%s: the header holds no problem (case=, or system=, scheme=, ...)", path);
    if (rc == SLPI_OK && n > 0) rc = slpi_problem_set_all(p, n, keys, vals, (const char *const *)where, err);
    if (rc == SLPI_OK && noise_file) rc = slpi_problem_set(p, "noise_file", noise_file, err);
    if (rc == SLPI_OK) rc = slpi_problem_plan(plan, p, err);
    slpi_problem_free(p);
    for (int i = 0; i < n; i++) {
        free(where[i]);
        free(own[i]);
    }
    free(where);
    free(own);
    free(keys);
    free(vals);
    return rc;
}

/* Row `index` (at step `step`) is one the local comparison visits: it has a
 * predecessor (or is row 0 at step 0) and its step lies in the --rows range. */
int slpi_verify_local_wanted(const slpi_verify_opts *o, long index, long step)
{
    if (index == 0 && step != 0) return 0;
    return !((o->row_first >= 0 && step < o->row_first) || (o->row_last >= 0 && step > o->row_last));
}

/* The column named name: the one after column prev where it is there (state columns
 * stand in the state's order), else the first of that name (a search over every column:
 * at su(1024), a million names, looking each up from the start took hours) */
static int column_after(const slpi_traj *t, const char *name, int prev)
{
    if (prev + 1 < t->ncols && strcmp(t->col[prev + 1], name) == 0) return prev + 1;
    return slpi_traj_column(t, name);
}

/* The header's state_columns= (slpi's line naming the state's columns, in its layout), when
 * there is one, must name the problem's state coordinates in their order: a file whose
 * line says otherwise describes another layout than the one verify reads by name. The
 * first difference is named. */
static int check_state_columns(const char *path, const slpi_traj_reader *r, const slpi_problem *p, int dim,
                               slpi_error *err)
{
    const slpi_traj *t = slpi_traj_head(r);
    for (int i = 0; i < t->nhead; i++) {
        if (strcmp(t->head_key[i], "state_columns") != 0) continue;
        const char *v = t->head_val[i];
        char name[64], first[200] = "";
        for (int k = 0; k < dim && k < 8; k++) {
            slpi_problem_state_name(p, k, name, sizeof name);
            size_t len = strlen(first);
            snprintf(first + len, sizeof first - len, "%s%s%s", k ? "," : "", name, k == 7 && dim > 8 ? ",..." : "");
        }
        for (int k = 0; v || k < dim; k++) { /* v: the rest after a comma, NULL past the end */
            size_t len = v ? strcspn(v, ",") : 0;
            if (k < dim) slpi_problem_state_name(p, k, name, sizeof name);
            if (v && k < dim && strlen(name) == len && strncmp(v, name, len) == 0) {
                v = v[len] == ',' ? v + len + 1 : NULL;
                continue;
            }
            return slpi_error_set(
                err, SLPI_EINPUT,
                "%s:%ld: state_columns= names %s%.*s%s as coordinate %d of the state, where the state "
                "of %s (%d coordinates: %s) has %s%s%s: the columns are read by the state's names, "
                "in its order",
                path, slpi_traj_header_line(r, i), v ? "'" : "", v ? (int)(len > 64 ? 64 : len) : 7, v ? v : "nothing",
                v ? "'" : "", k + 1, slpi_system_name(slpi_view_system(p)->system), dim, first, k < dim ? "'" : "",
                k < dim ? name : "none", k < dim ? "'" : "");
        }
    }
    return SLPI_OK;
}

/* Row `step` against the header's output grid (core/rows.c; *next: the index of the
 * first grid row not yet met): the grid rows before it are missing (counted, the first
 * named), a step off the grid is an input error. The grid rows up to it are found by
 * bisection (their steps increase): two rows 1e11 steps apart on output_every=1 took
 * minutes counted one by one. */
static int grid_row(slpi_verify_input *in, const slpi_rows *grid, long *next, long step, long line, slpi_error *err)
{
    long n = slpi_rows_count(grid), lo = *next, hi = n;
    while (lo < hi) {
        const long mid = lo + (hi - lo) / 2;
        if (slpi_rows_step(grid, mid) < step)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; *next < lo && in->missing < SLPI_VERIFY_MISSING_NAMED; ++*next)
        in->missing_step[in->missing++] = slpi_rows_step(grid, *next);
    in->missing += lo - *next;
    *next = lo;
    if (*next < n && slpi_rows_step(grid, *next) == step) {
        ++*next;
        return SLPI_OK;
    }
    const slpi_problem *p = in->p;
    if (slpi_view_grid(p)->save_at[0])
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s:%ld: step %ld is not a row of the header's save_at=%.200s "
                              "(rows: step 0 and those times)",
                              in->path, line, step, slpi_view_grid(p)->save_at);
    return slpi_error_set(err, SLPI_EINPUT,
                          "%s:%ld: step %ld is not a row of the header's grid output_every=%d "
                          "(rows: step 0, the multiples of %d and the last): set the output_every= the file was "
                          "written with",
                          in->path, line, step, slpi_view_grid(p)->output_every, slpi_view_grid(p)->output_every);
}

/* The validation pass: the header's problem, the state columns, and every row (a step
 * within the header's steps, t on the grid, doubles in the state columns), with the
 * last row at the header's steps. A malformed line anywhere is reported first (the
 * reader's file:line), then the header, the columns, the rows in order, the end. */
int slpi_verify_scan(slpi_verify_input *in, const slpi_verify_opts *o, slpi_error *err)
{
    const char *path = in->path;
    slpi_traj_reader *r;
    int rc = slpi_traj_open(&r, path, err);
    if (rc != SLPI_OK) return rc;
    const slpi_traj *t = slpi_traj_head(r);
    long column_line = slpi_traj_line(r), last_line = 0;
    slpi_error herr = { 0, "" }, rerr = { 0, "" };
    int hrc = header_problem(path, r, o->noise_file, o->golden_dir, &in->plan, &herr), rrc = SLPI_OK;
    in->p = hrc == SLPI_OK ? slpi_plan_problem(in->plan) : NULL;
    in->dim = hrc == SLPI_OK ? slpi_problem_state_dim(in->p) : 0;
    in->col = calloc((size_t)in->dim + 1, sizeof(int));
    if (!in->col && hrc == SLPI_OK) hrc = slpi_error_set(&herr, SLPI_EINPUT, "verify: out of memory");
    if (hrc == SLPI_OK) hrc = check_state_columns(path, r, in->p, in->dim, &herr);
    char name[64];
    for (int i = 0; hrc == SLPI_OK && i < in->dim; i++) {
        slpi_problem_state_name(in->p, i, name, sizeof name);
        if ((in->col[i] = column_after(t, name, i ? in->col[i - 1] : -1)) < 0)
            hrc = slpi_error_set(&herr, SLPI_EINPUT, "%s:%ld: no column '%s' (state coordinate %d of %s)", path,
                                 column_line, name, i + 1, slpi_system_name(slpi_view_system(in->p)->system));
    }
    const slpi_problem *p = in->p;
    slpi_rows grid = { 0 };
    long next = 0;
    if (hrc == SLPI_OK) hrc = slpi_rows_open(&grid, p, &herr);
    slpi_traj_row row;
    int got;
    while ((got = slpi_traj_next(r, &row, err)) > 0) {
        long line = slpi_traj_line(r), index = in->nrows++;
        if (slpi_interrupt_pending()) {
            slpi_traj_close(r);
            slpi_rows_close(&grid);
            return slpi_error_set(err, SLPI_EINTR, "%s: interrupted while reading it, at line %ld", path, line);
        }
        if (index == 0) in->first_step = row.step;
        const int wanted = slpi_verify_local_wanted(o, index, row.step);
        if (wanted && index > 0 && row.step - in->last_step > in->max_gap) {
            in->max_gap = row.step - in->last_step;
            in->gap_step = row.step;
        }
        in->last_step = row.step;
        last_line = line;
        in->ncand += wanted;
        if (hrc != SLPI_OK || rrc != SLPI_OK) continue;
        double tr = row.mid[0], te = (double)row.step * slpi_view_grid(p)->h;
        if (row.step > slpi_view_grid(p)->steps)
            rrc = slpi_error_set(&rerr, SLPI_EINPUT, "%s:%ld: step %ld beyond the header's steps=%ld", path, line,
                                 row.step, slpi_view_grid(p)->steps);
        /* t may have been accumulated (t += h): allow its rounding, 4 n u, beyond 1e-12 */
        else if (fabs(tr - te) > (1e-12 + 4.0 * (double)row.step * 0x1p-53) * fmax(1.0, fabs(te)))
            rrc = slpi_error_set(&rerr, SLPI_EINPUT, "%s:%ld: t = %.17g but step %ld of h = %.17g is at %.17g", path,
                                 line, tr, row.step, slpi_view_grid(p)->h, te);
        if (rrc == SLPI_OK) rrc = grid_row(in, &grid, &next, row.step, line, &rerr);
        for (int i = 0; rrc == SLPI_OK && i < in->dim; i++)
            if (row.rad[1 + in->col[i]] != 0)
                rrc = slpi_error_set(&rerr, SLPI_EINPUT, "%s:%ld: column %s holds a ball: verify reads doubles", path,
                                     line, t->col[in->col[i]]);
    }
    slpi_traj_close(r);
    slpi_rows_close(&grid);
    if (got < 0) return err->code == SLPI_EINTR ? SLPI_EINTR : SLPI_EINPUT;
    if (hrc != SLPI_OK) return *err = herr, hrc;
    if (in->nrows == 0) return slpi_error_set(err, SLPI_EINPUT, "%s: no rows", path);
    if (rrc != SLPI_OK) return *err = rerr, rrc;
    /* a file that stops short of its header's steps is truncated, or its header is wrong
     * (steps=1e11 over a few rows): either way it is not the run the header describes */
    if (in->last_step < slpi_view_grid(p)->steps)
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s:%ld: the header says steps=%ld but the last row is step %ld: a truncated file, or "
                              "set steps=%ld",
                              path, last_line, slpi_view_grid(p)->steps, in->last_step, in->last_step);
    return SLPI_OK;
}

/* A noise file the problem truncates but that was written untruncated (`slpi noise`
 * without --truncate on, or --preset/--config): the verifier clips its values as the
 * problem says, a port that consumed them as they are solved another problem. Noted in
 * res->note with the count of values beyond the threshold; a file of another shape
 * (M, level, steps, threshold) is refused by the noise source itself. */
int slpi_verify_note_noise_file(const slpi_problem *p, slpi_verify_result *res, slpi_error *err)
{
    if (!slpi_view_noise(p)->noise_file[0] || !slpi_problem_truncates(p)) return SLPI_OK;
    slpi_noise_header hd;
    double *dw = NULL;
    int rc = slpi_noise_file_read(slpi_view_noise(p)->noise_file, &hd, &dw, err);
    if (rc != SLPI_OK) return rc;
    if (!hd.truncated && hd.components == slpi_problem_noise_count(p) && hd.h == slpi_view_grid(p)->h) {
        double D = slpi_noise_threshold(slpi_view_grid(p)->h, slpi_view_noise(p)->trunc_ell);
        long beyond = 0, total = hd.steps * (long)hd.components;
        for (long i = 0; i < total; i++) beyond += fabs(dw[i]) > D;
        if (beyond > 0)
            snprintf(
                res->note, sizeof res->note,
                "noise file %.400s is untruncated, the problem truncates at D = %.17g: %ld of its %ld increments "
                "exceed D "
                "and are clipped here; a port that used them unclipped solved another problem (write the file with "
                "`slpi noise --preset/--config`, which truncates as the problem does)",
                slpi_view_noise(p)->noise_file, D, beyond, total);
    }
    free(dw);
    return SLPI_OK;
}
