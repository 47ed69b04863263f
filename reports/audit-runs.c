/* audit-runs.c — checks on runs of a case (docs/claims.md): the largest change of a fast-path
 * diagnostic (max DIAG <= X | >= X) and its ratio to another run's (versus), a run that must
 * stop with a solver failure (fails), a trajectory on its sphere (sphere A), Euler–Zeitlin
 * vorticity snapshots (snapshots STEPS), a certified diagnostic ball after some steps (ref
 * DIAG STEPS), the growth law of a diagnostic (growth) and the critical step size
 * (critical). Many paths of one case: reports/audit-ensemble.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/initial.h"
#include "slpi/problem-build.h"
#include "slpi/problem-finish.h"
#include "slpi/problem-shape.h"
#include "slpi/step.h"
#include "slpi/trajectory.h"
#include "slpi/run.h"
#include "slpi/fast.h"
#include "slpi/ref.h"
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/view-system.h"
#include "core/steps.h"
#include "reports/audit-checks.h"

/* Run the case of c on the fast path into data/<name>.tsv, its path in data[ndata] (at
 * most about 20000 rows and about 64 MB: every k-th step of a long or large run, e.g.
 * every 200th of N = 128 Zeitlin over 32000 steps, whose rows hold 16384 state columns; a
 * diagnostic's largest change is taken over the written rows, as by `slpi run`): -1 with
 * the check UNABLE on a bad case or a path that does not fit in data, else the run's
 * return code (err set). */
static int run_case(const slpi_audit *a, slpi_audit_check *c, slpi_problem *p, slpi_run_result *res, char *name,
                    char *data, size_t ndata, slpi_error *err)
{
    char args[512];
    if (slpi_audit_case(a, c, p, args, sizeof args, err) || slpi_problem_finish(p, err)) {
        slpi_audit_unable(c, "case: %s", err->msg);
        return -1;
    }
    long row_bytes = 25L * (slpi_problem_state_dim(p) + 16); /* %.17g columns and diagnostics */
    long rows = 64L * 1000 * 1000 / row_bytes;
    if (rows > 20000) rows = 20000;
    if (rows < 2) rows = 2;
    slpi_view_grid_edit(p)->output_every =
        slpi_view_grid(p)->steps > rows ? (int)((slpi_view_grid(p)->steps + rows - 1) / rows) : 1;
    slpi_audit_figure_name(c, name, 64);
    if (snprintf(data, ndata, "%s/data/%s.tsv", a->outdir, name) >= (int)ndata) {
        slpi_audit_unable(c, "the report folder's path is too long for its data file %s", name);
        return -1;
    }
    const char *fo = slpi_audit_full_overrides(a, c);
    snprintf(c->command, sizeof c->command, "slpi run --preset %s%s%s -o %s.tsv", c->kase, fo ? " " : "", fo ? fo : "",
             name);
    FILE *out = fopen(data, "w");
    if (!out) return slpi_error_set(err, SLPI_EINPUT, "%s: cannot write", data);
    int rc = slpi_run(p, slpi_fast_path(), out, 0, NULL, res, err);
    fclose(out);
    return rc;
}

/* ---- max DIAG <= X | >= X ; fails */
void slpi_audit_check_run(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck)
{
    slpi_problem *p = c->problem[0];
    slpi_error err = { 0, "" };
    int want_fail = !strcmp(slpi_audit_get(ck, "WORD")->s, "fails");
    char name[64], data[SLPI_PATH_MAX + 96];
    slpi_run_result res;
    int rc = run_case(a, c, p, &res, name, data, sizeof data, &err);
    if (rc < 0) return;
    if (want_fail) {
        slpi_audit_outcome(c, rc == SLPI_ENUMERIC, (double)res.failed_step);
        snprintf(c->evidence, sizeof c->evidence, "%s",
                 rc == SLPI_ENUMERIC ? err.msg
                     : rc == SLPI_OK ? "the run completed without a solver failure"
                                     : err.msg);
        return;
    }
    if (rc == SLPI_ENUMERIC) { /* the scheme stopped: a numerical outcome, not an audit error */
        c->outcome = SLPI_CHECK_FAIL;
        c->value = NAN;
        snprintf(c->evidence, sizeof c->evidence,
                 "not met: the scheme stopped before the end of "
                 "the run, so %s has no value over it (%s)",
                 slpi_audit_get(ck, "DIAG")->s, err.msg);
        return;
    }
    if (rc != SLPI_OK) {
        slpi_audit_unable(c, "the case could not be run: %s", err.msg);
        return;
    }
    int k = -1;
    for (int i = 0; i < res.ndiag; i++)
        if (!strcmp(res.diag_name[i], slpi_audit_get(ck, "DIAG")->s)) k = i;
    if (k < 0) {
        slpi_audit_unable(c, "no diagnostic %s in this run", slpi_audit_get(ck, "DIAG")->s);
        return;
    }
    const char *diag = slpi_audit_get(ck, "DIAG")->s;
    double v = res.diag_maxchange[k], thr = slpi_audit_get(ck, "X")->r;
    slpi_audit_outcome(c, slpi_audit_compare(slpi_audit_get(ck, "OP")->e, v, thr), v);
    slpi_audit_num(c, "steps", (double)res.steps_done);
    slpi_audit_num(c, "h", slpi_view_grid(p)->h);
    slpi_audit_num(c, "T", slpi_view_grid(p)->h * (double)res.steps_done);
    char rows[96] = "";
    if (slpi_view_grid(p)->output_every > 1)
        snprintf(rows, sizeof rows, ", taken over the rows written (one per %d steps)",
                 slpi_view_grid(p)->output_every);
    snprintf(c->evidence, sizeof c->evidence,
             "max_t |%s(t) - %s(0)| = %.3e over %ld steps of h = %.6g "
             "(T = %.6g%s) %s threshold %s %.3g; solver mean %.2f, max %d iterations",
             diag, diag, v, res.steps_done, slpi_view_grid(p)->h, slpi_view_grid(p)->h * (double)res.steps_done, rows,
             slpi_audit_meets(c), slpi_audit_get(ck, "OP")->s, thr, res.mean_iters, res.max_iters);
    strcpy(c->figure, name);
    char body[3 * SLPI_PATH_MAX];
    snprintf(body, sizeof body,
             "set datafile columnheaders\nstats '%s' using (column('%s')) every "
             "::0::0 nooutput\nv0 = STATS_min\nplot '%s' using 2:(abs(column('%s') - v0)) with lines "
             "title '|%s - %s(0)|', %g with lines dt 2 title 'threshold'",
             data, diag, data, diag, diag, diag, thr);
    slpi_audit_plot(a, c, name, NULL, "t", diag, v > 0 ? "set logscale y\nset format y '%.0e'" : "", body);
}

/* ---- versus DIAG KEY=VALUE <= X | >= X: the largest change of DIAG over the case's run
 * divided by that over the same run with KEY=VALUE (e.g. noise=none: how much of the
 * change the noise makes). Both runs record the diagnostic at the same rows. */
void slpi_audit_check_versus(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck)
{
    slpi_problem *p = c->problem[0], *q = c->problem[1];
    slpi_error err = { 0, "" };
    char name[64], data[SLPI_PATH_MAX + 96], kv[96];
    const char *diag = slpi_audit_get(ck, "DIAG")->s, *other = slpi_audit_get(ck, "KEY=VALUE")->s;
    const slpi_audit_arg *op = slpi_audit_get(ck, "OP"), *thr = slpi_audit_get(ck, "X");
    snprintf(kv, sizeof kv, "%s", other); /* KEY=VALUE, the key known (the table) */
    char *eq = strchr(kv, '=');
    *eq = 0;
    slpi_run_result res, res2;
    int rc = run_case(a, c, p, &res, name, data, sizeof data, &err);
    if (rc < 0) return;
    slpi_problem_copy(q, p);
    if (!rc) rc = slpi_problem_set(q, kv, eq + 1, &err);
    if (!rc) rc = slpi_run(q, slpi_fast_path(), NULL, 0, NULL, &res2, &err);
    int k = -1, k2 = -1;
    for (int i = 0; !rc && i < res.ndiag; i++)
        if (!strcmp(res.diag_name[i], diag)) k = i;
    for (int i = 0; !rc && i < res2.ndiag; i++)
        if (!strcmp(res2.diag_name[i], diag)) k2 = i;
    if (rc || k < 0 || k2 < 0) {
        slpi_audit_unable(c, "versus: %s", rc ? err.msg : "no such diagnostic in both runs");
        return;
    }
    double v = res.diag_maxchange[k], w = res2.diag_maxchange[k2], ratio = w > 0 ? v / w : INFINITY;
    slpi_audit_outcome(c, slpi_audit_compare(op->e, ratio, thr->r), ratio);
    slpi_audit_num(c, "this", v);
    slpi_audit_num(c, "other", w);
    slpi_audit_num(c, "steps", (double)res.steps_done);
    snprintf(c->evidence, sizeof c->evidence,
             "max_t |%s(t) - %s(0)| over %ld steps of h = %g: %.3e on "
             "the case, %.3e with %s: ratio %.3g %s %s %s",
             diag, diag, res.steps_done, slpi_view_grid(p)->h, v, w, other, ratio, slpi_audit_meets(c), op->s, thr->s);
    snprintf(c->command, sizeof c->command, "slpi run --preset %s -o %s.tsv; the same with %s", c->kase, name, other);
}

/* ---- sphere A: the trajectory of state coordinates A..A+2 on its sphere (figure) */
void slpi_audit_check_sphere(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck)
{
    slpi_problem *p = c->problem[0];
    slpi_error err = { 0, "" };
    char name[64], data[SLPI_PATH_MAX + 96];
    int col = (int)slpi_audit_get(ck, "A")->i;
    slpi_run_result res;
    int rc = run_case(a, c, p, &res, name, data, sizeof data, &err);
    if (rc < 0) return;
    slpi_traj t;
    if (rc != SLPI_OK || slpi_traj_read(data, &t, &err) != SLPI_OK) {
        slpi_audit_unable(c, "trajectory: %s", err.msg);
        return;
    }
    double r0 = 0, dev = 0;
    long rows = t.nrows;
    for (long r = 0; r < t.nrows; r++) {
        const double *v = t.mid + (size_t)r * (size_t)(t.ncols + 1) + 1 + col;
        double rad = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (r == 0) r0 = rad;
        dev = fmax(dev, fabs(rad - r0));
    }
    slpi_traj_free(&t);
    slpi_audit_outcome(c, dev <= 1e-12 * fmax(1, r0), dev);
    snprintf(c->evidence, sizeof c->evidence,
             "trajectory of coordinates %d..%d over T = %.6g "
             "(%ld steps, %ld rows written, one per %d step%s) on the sphere of radius %.6f: max ||x(t)| - |x(0)|| "
             "= %.2e, %s <= 1e-12 max(1, |x(0)|) (figure)",
             col + 1, col + 3, slpi_view_grid(p)->h * (double)res.steps_done, res.steps_done, rows,
             slpi_view_grid(p)->output_every, slpi_view_grid(p)->output_every > 1 ? "s" : "", r0, dev,
             slpi_audit_meets(c));
    char body[3 * SLPI_PATH_MAX];
    snprintf(body, sizeof body,
             "set parametric\nset isosamples 24,12\nset urange [0:2*pi]\n"
             "set vrange [-pi/2:pi/2]\nset view equal xyz\nset view 60,30\nunset tics\nunset border\n"
             "set datafile columnheaders\nr = %.17g\nsplot r*cos(u)*cos(v), r*sin(u)*cos(v), r*sin(v) "
             "with lines lc rgb '#cccccc' notitle, '%s' using %d:%d:%d with lines lw 1.2 title "
             "'trajectory'",
             r0, data, col + 3, col + 4, col + 5);
    slpi_audit_plot(a, c, name, NULL, "", "", "", body);
    strcpy(c->figure, name);
}

/* ---- snapshots STEPS OP X: Euler–Zeitlin vorticity at steps 0, STEPS/2, STEPS (figure);
 * the number is the relative change of the vorticity field on the grid,
 * |omega(T) - omega(0)|_2 / |omega(0)|_2 (mixing moves the field; a frozen one stays). */
void slpi_audit_check_snapshots(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck)
{
    slpi_problem *p = c->problem[0];
    slpi_error err = { 0, "" };
    char name[64], data[SLPI_PATH_MAX + 96];
    if (slpi_audit_steps_case(a, c, slpi_audit_get(ck, "STEPS")->i, p)) return;
    enum { NLAT = 64, NLON = 128 };
    int dim = slpi_problem_state_dim(p);
    slpi_fast *f = NULL;
    slpi_vort *v = NULL;
    slpi_steps steps = { 0 };
    double *x = calloc((size_t)(2 * dim), sizeof *x), *x0 = x + dim;
    slpi_fast_at fat = { NULL, x };
    double *grid = malloc(sizeof(double) * 2 * NLAT * NLON), *grid0 = grid + NLAT * NLON;
    int rc = !x || !grid ? slpi_error_set(&err, SLPI_EINPUT, "out of memory") : SLPI_OK;
    if (!rc) rc = slpi_problem_validate(p, &err);
    if (!rc && slpi_view_system(p)->system != SLPI_SYS_EULER_ZEITLIN)
        rc = slpi_error_set(&err, SLPI_EINPUT, "not an euler-zeitlin case");
    if (!rc) rc = slpi_fast_create(&f, p, &err);
    if (!rc) rc = slpi_fast_initial_state(f, x, &err);
    fat.f = f;
    if (!rc) rc = slpi_steps_open(&steps, p, slpi_fast_step_at, &fat, 1, &err);
    if (!rc) rc = slpi_vort_create(&v, slpi_view_system(p)->ez.N, &err);
    slpi_audit_figure_name(c, name, sizeof name);
    snprintf(data, sizeof data, "%s/data/%s.dat", a->outdir, name);
    FILE *out = rc ? NULL : fopen(data, "w");
    if (!rc && out) memcpy(x0, x, sizeof(double) * (size_t)dim);
    long at[3] = { 0, slpi_view_grid(p)->steps / 2, slpi_view_grid(p)->steps };
    double wmax = 0, d2 = 0, n2 = 0;
    for (long s = 0, k = 0; !rc && out && k < 3; s++) {
        if (s == at[k]) {
            slpi_vort_grid(v, x, NLAT, NLON, grid);
            for (int i = 0; i < NLAT * NLON; i++) wmax = fmax(wmax, fabs(grid[i]));
            if (k == 0) memcpy(grid0, grid, sizeof(double) * NLAT * NLON);
            for (int i = 0; k == 2 && i < NLAT * NLON; i++) {
                d2 += (grid[i] - grid0[i]) * (grid[i] - grid0[i]);
                n2 += grid0[i] * grid0[i];
            }
            for (int i = 0; i < NLAT; i++) {
                for (int j = 0; j < NLON; j++)
                    fprintf(out, "%.6g %.6g %.9g\n", 360.0 * j / NLON, 90 - 180.0 * (i + 0.5) / NLAT,
                            grid[i * NLON + j]);
                fprintf(out, "\n");
            }
            fprintf(out, "\n");
            k++;
        }
        slpi_step_status st = SLPI_STEP_CONVERGED;
        if (k < 3 && (slpi_steps_take(&steps, s, NULL, &st, &err) || slpi_step_failed(st)))
            rc = slpi_error_set(&err, SLPI_ENUMERIC, "the scheme's solver stopped at step %ld", s);
    }
    if (out) fclose(out);
    if (rc) {
        slpi_audit_unable(c, "snapshots: %s", err.msg);
    } else {
        slpi_diag d = { 0 };
        slpi_fast_diagnostics(f, x, x0, &d);
        double c2 = NAN, eig = NAN;
        for (int i = 0; i < d.n; i++) {
            if (!strcmp(d.name[i], "C2_rel_dev")) c2 = d.value[i];
            if (!strcmp(d.name[i], "eig_dev")) eig = d.value[i];
        }
        double change = n2 > 0 ? sqrt(d2 / n2) : 0;
        const slpi_audit_arg *op = slpi_audit_get(ck, "OP"), *thr = slpi_audit_get(ck, "X");
        slpi_audit_outcome(c, slpi_audit_compare(op->e, change, thr->r), change);
        slpi_audit_num(c, "steps", (double)slpi_view_grid(p)->steps);
        slpi_audit_num(c, "c2", c2);
        slpi_audit_num(c, "eig", eig);
        snprintf(c->evidence, sizeof c->evidence,
                 "N = %d, %ld steps of h = %g: vorticity on a %dx%d "
                 "latitude-longitude grid at t = 0, %g, %g (figure); relative change of the field "
                 "|w(T) - w(0)| / |w(0)| = %.3f (%s %s %s); after the run relative enstrophy change "
                 "%.2e, eigenvalue departure %.2e",
                 slpi_view_system(p)->ez.N, slpi_view_grid(p)->steps, slpi_view_grid(p)->h, NLAT, NLON,
                 slpi_view_grid(p)->h * (double)at[1], slpi_view_grid(p)->h * (double)at[2], change,
                 slpi_audit_meets(c), op->s, thr->s, c2, eig);
        char body[5 * SLPI_PATH_MAX];
        snprintf(body, sizeof body,
                 "unset logscale\nset datafile separator whitespace\n"
                 "set multiplot layout 3,1\nset size ratio 0.5\nunset key\n"
                 "set xtics 60\nset ytics 45\nset cbrange [%.6g:%.6g]\nset xrange [0:360]\nset yrange [-90:90]\nset "
                 "palette defined (-1 'blue', 0 'white', "
                 "1 'red')\nset title 't = 0'\nplot '%s' index 0 using 1:2:3 with image\n"
                 "set title 't = %g'\nplot '%s' index 1 using 1:2:3 with image\n"
                 "set title 't = %g'\nplot '%s' index 2 using 1:2:3 with image\nunset multiplot",
                 -wmax, wmax, data, slpi_view_grid(p)->h * (double)at[1], data, slpi_view_grid(p)->h * (double)at[2],
                 data);
        slpi_audit_plot(a, c, name, "640,1000", "longitude", "latitude", "", body);
        strcpy(c->figure, name);
    }
    snprintf(c->command, sizeof c->command, "slpi audit --only %s  (case %s, %s steps)", c->id, c->kase,
             slpi_audit_get(ck, "STEPS")->s);
    slpi_vort_free(v);
    slpi_steps_close(&steps);
    slpi_fast_free(f);
    free(x);
    free(grid);
}

/* ---- ref DIAG STEPS: 0 in the certified ball of DIAG after STEPS steps */
void slpi_audit_check_ref(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck)
{
    slpi_problem *p = c->problem[0];
    slpi_error err = { 0, "" };
    if (slpi_audit_steps_case(a, c, slpi_audit_get(ck, "STEPS")->i, p)) return;
    if (slpi_problem_validate(p, &err)) {
        slpi_audit_unable(c, "case: %s", err.msg);
        return;
    }
    int dim = slpi_problem_state_dim(p);
    double *x0 = calloc((size_t)dim, sizeof *x0);
    slpi_ref *r = NULL;
    arb_ptr x = _arb_vec_init(dim), xi = _arb_vec_init(dim);
    slpi_ref_at rat = { NULL, x };
    slpi_steps steps = { 0 };
    slpi_ref_diag d;
    slpi_ref_diag_init(&d);
    int given = slpi_problem_explicit_x0(p, x0, &err), rc = given < 0;
    if (!rc && !given) rc = slpi_fast_problem_initial_state(p, x0, &err);
    if (!rc) rc = slpi_ref_create(&r, p, &err);
    rat.r = r;
    if (!rc) rc = slpi_steps_open(&steps, p, slpi_ref_step_at, &rat, 1, &err);
    for (int i = 0; !rc && i < dim; i++) {
        arb_set_d(x + i, x0[i]);
        arb_set_d(xi + i, x0[i]);
    }
    for (long s = 0; !rc && s < slpi_view_grid(p)->steps; s++) {
        slpi_step_status st;
        rc = slpi_steps_take(&steps, s, NULL, &st, &err);
        if (!rc && slpi_step_failed(st)) {
            slpi_audit_unable(c, "certified step failed: %s", slpi_ref_unable_reason(r));
            rc = -1;
        }
    }
    snprintf(
        c->command, sizeof c->command, "slpi run --ref --preset %s%s%s", c->kase,
        strstr(c->kase, "steps=") ? "" : " steps=", strstr(c->kase, "steps=") ? "" : slpi_audit_get(ck, "STEPS")->s);
    if (rc > 0) slpi_audit_unable(c, "certified run: %s", err.msg);
    if (!rc) {
        slpi_ref_diagnostics(r, x, xi, &d);
        int k = -1;
        for (int i = 0; i < d.n; i++)
            if (!strcmp(d.name[i], slpi_audit_get(ck, "DIAG")->s)) k = i;
        if (k < 0) {
            slpi_audit_unable(c, "no certified diagnostic %s", slpi_audit_get(ck, "DIAG")->s);
        } else {
            int in = arb_contains_zero(&d.value[k]);
            double mid = arf_get_d(arb_midref(&d.value[k]), ARF_RND_NEAR);
            double rad = mag_get_d(arb_radref(&d.value[k]));
            slpi_audit_outcome(c, in, rad);
            snprintf(c->evidence, sizeof c->evidence,
                     "certified (Arb, %ld bits): %s = %.3e +- %.3e "
                     "after %ld steps: the ball %s 0",
                     steps.info.prec, slpi_audit_get(ck, "DIAG")->s, mid, rad, slpi_view_grid(p)->steps,
                     in ? "contains" : "excludes");
        }
    }
    slpi_ref_diag_clear(&d);
    _arb_vec_clear(x, dim);
    _arb_vec_clear(xi, dim);
    slpi_steps_close(&steps);
    slpi_ref_free(r);
    free(x0);
}

/* ---- growth DIAG LO HI: the growth law of |DIAG - DIAG(0)| over a run: the WLS slope of
 * log max_{m <= n} |DIAG_m - DIAG_0| on log n over n = 2^4 .. steps (round-off that
 * accumulates linearly gives 1, a random walk 1/2); pass iff the slope is in [LO, HI]. */
void slpi_audit_check_growth(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck)
{
    slpi_problem *p = c->problem[0];
    slpi_error err = { 0, "" };
    char name[64], data[SLPI_PATH_MAX + 96];
    const char *diag = slpi_audit_get(ck, "DIAG")->s;
    slpi_run_result res;
    int rc = run_case(a, c, p, &res, name, data, sizeof data, &err);
    if (rc < 0) return;
    slpi_traj t;
    if (rc || slpi_traj_read(data, &t, &err)) {
        slpi_audit_unable(c, "growth: %s", err.msg);
        return;
    }
    int col = slpi_traj_column(&t, diag);
    enum { NB = 40 };
    double hs[NB], es[NB], se[NB], run = 0, v0 = 0;
    int use[NB], nb = 0;
    long next = 16;
    for (long r = 0; col >= 0 && r < t.nrows && nb < NB; r++) {
        double v = t.mid[(size_t)r * (size_t)(t.ncols + 1) + 1 + (size_t)col];
        if (r == 0) v0 = v;
        run = fmax(run, fabs(v - v0));
        if (t.step[r] >= next && run > 0) {
            hs[nb] = (double)t.step[r];
            es[nb] = run;
            se[nb] = 0.1 * run;
            use[nb++] = 1;
            next *= 2;
        }
    }
    slpi_traj_free(&t);
    if (col < 0 || nb < 3) {
        slpi_audit_unable(c, col < 0 ? "growth: no column %s" : "growth: %s stays 0 (no trend)", diag);
        return;
    }
    double slope, ic, lo = slpi_audit_get(ck, "LO")->r, hi = slpi_audit_get(ck, "HI")->r;
    slpi_stats_wls(nb, hs, es, se, use, &slope, &ic);
    slpi_audit_outcome(c, slope >= lo && slope <= hi, slope);
    slpi_audit_num(c, "steps", (double)res.steps_done);
    slpi_audit_num(c, "at_end", es[nb - 1]);
    slpi_audit_num(c, "extrap", exp(ic) * pow(1e10, slope));
    snprintf(c->evidence, sizeof c->evidence,
             "running max |%s - %s(0)| over %ld steps: %.2e at n = %g, "
             "%.2e at n = %g; log-log slope %.3f over n = 16..%g (%s [%.2f, %.2f]; 1 = linear, 1/2 = "
             "random walk); extrapolated to 1e10 steps: %.1e",
             diag, diag, res.steps_done, es[0], hs[0], es[nb - 1], hs[nb - 1], slope, hs[nb - 1], slpi_audit_meets(c),
             lo, hi, exp(ic) * pow(1e10, slope));
    char body[3 * SLPI_PATH_MAX];
    snprintf(body, sizeof body,
             "set datafile columnheaders\nstats '%s' using (column('%s')) every "
             "::0::0 nooutput\nv0 = STATS_min\nplot '%s' using 1:(abs(column('%s') - v0)) with lines "
             "title '|%s - %s(0)|', exp(%.17g)*x**%.17g with lines lw 2 title 'fit: slope %.2f', "
             "exp(%.17g)*x with lines dt 2 title 'reference slope 1 (linear)', exp(%.17g)*x**0.5 "
             "with lines dt 3 title 'reference slope 1/2'",
             data, diag, data, diag, diag, diag, ic, slope, slope, log(es[nb - 1] / hs[nb - 1]),
             log(es[nb - 1] / sqrt(hs[nb - 1])));
    slpi_audit_plot(a, c, name, NULL, "step n", diag, "set logscale xy\nset format y '%.0e'", body);
    strcpy(c->figure, name);
}

/* ---- critical H0 H1 DH SEEDS LO HI: the critical step size, the smallest h in H0, H0+DH,
 * .., H1 at which a run of the case (T of the case, seeds 1..SEEDS) ends in a solver
 * failure (converged mode, the case's tolerance and iteration cap); +inf if none does.
 * Pass iff it lies in [LO, HI]. */
void slpi_audit_check_critical(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck)
{
    slpi_problem *p0 = c->problem[0], *p = c->problem[1];
    slpi_error err = { 0, "" };
    char args[512];
    if (slpi_audit_case(a, c, p0, args, sizeof args, &err)) {
        slpi_audit_unable(c, "case: %s", err.msg);
        return;
    }
    double h0 = slpi_audit_get(ck, "H0")->r, h1 = slpi_audit_get(ck, "H1")->r;
    double dh = slpi_audit_get(ck, "DH")->r, lo = slpi_audit_get(ck, "LO")->r, hi = slpi_audit_get(ck, "HI")->r;
    long seeds = slpi_audit_get(ck, "SEEDS")->i;
    uint64_t seed0 = 1 + a->seed_offset; /* seeds seed0 .. seed0 + seeds - 1 */
    double T = slpi_view_grid(p0)->T > 0 ? slpi_view_grid(p0)->T
                                         : slpi_view_grid(p0)->h * (double)slpi_view_grid(p0)->steps,
           hc = INFINITY;
    char list[600] = "";
    for (double h = h0; h <= h1 + 1e-12 && isinf(hc); h += dh) {
        int failed = 0, maxit = 0;
        for (long s = 1; s <= seeds && !failed; s++) {
            slpi_problem_copy(p, p0);
            slpi_run_result res;
            slpi_view_grid_edit(p)->h = h;
            slpi_view_grid_edit(p)->T = 0;
            slpi_view_grid_edit(p)->level = -1;
            slpi_view_grid_edit(p)->steps = (long)ceil(T / h);
            slpi_view_noise_edit(p)->seed = seed0 + (uint64_t)(s - 1);
            int rc = slpi_problem_finish(p, &err);
            if (!rc) rc = slpi_run(p, slpi_fast_path(), NULL, 0, NULL, &res, &err);
            if (rc == SLPI_EINPUT) {
                slpi_audit_unable(c, "critical: %s", err.msg);
                return;
            }
            failed = rc != SLPI_OK;
            if (!failed) maxit = maxit > res.max_iters ? maxit : res.max_iters;
        }
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%sh = %.3g: %s", l ? "; " : "", h,
                 failed ? "solver failure" : "all converged");
        if (!failed) {
            l = strlen(list);
            snprintf(list + l, sizeof list - l, " (max %d iterations)", maxit);
        }
        if (failed) hc = h;
    }
    slpi_audit_outcome(c, hc >= lo && hc <= hi, hc);
    snprintf(c->evidence, sizeof c->evidence,
             "critical step (first h with a solver failure, seeds "
             "%llu..%llu, T = %g): %s%.3g (%s [%g, %g]); %s",
             (unsigned long long)seed0, (unsigned long long)(seed0 + (uint64_t)(seeds - 1)), T,
             isinf(hc) ? "none up to h = " : "h = ", isinf(hc) ? h1 : hc, slpi_audit_meets(c), lo, hi, list);
    snprintf(c->command, sizeof c->command,
             "slpi audit --only %s  (slpi run --preset %s h=H seed=S "
             "for H = %s..%s step %s)",
             c->id, c->kase, slpi_audit_get(ck, "H0")->s, slpi_audit_get(ck, "H1")->s, slpi_audit_get(ck, "DH")->s);
}
