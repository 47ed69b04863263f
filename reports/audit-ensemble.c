/* audit-ensemble.c — a check over many paths of one case (docs/claims.md): PATHS
 * realizations against the case's noise-free path (ensemble PATHS away LO HI | ensemble
 * PATHS spread X). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/problem-build.h"
#include "slpi/problem-finish.h"
#include "slpi/trajectory.h"
#include "slpi/run.h"
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "reports/audit-checks.h"

/* Run p into tmp and read it back (tmp removed); 0 or an error code. */
static int run_traj(const slpi_problem *p, const char *tmp, slpi_traj *t, slpi_error *err)
{
    slpi_run_result res;
    FILE *out = fopen(tmp, "w");
    int rc = out ? slpi_run(p, slpi_fast_path(), out, 0, NULL, &res, err)
                 : slpi_error_set(err, SLPI_EINPUT, "%s: cannot write", tmp);
    if (out) fclose(out);
    if (!rc) rc = slpi_traj_read(tmp, t, err);
    remove(tmp);
    return rc;
}

/* ---- ensemble PATHS away LO HI | ensemble PATHS spread X: PATHS realizations (path =
 * 0..PATHS-1) of the case against its noise-free path, state coordinates 0..2 (a
 * momentum on its sphere). away: each path's largest distance from the deterministic
 * path over the run; met iff the smallest is <= LO (a path keeps close) and the largest
 * >= HI (a path moves away, into another quarter of the sphere). spread: rms distance of
 * the paths from their mean at T and at T/4; met iff spread(T) / spread(T/4) >= X. */
void slpi_audit_check_ensemble(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck)
{
    int away = !strcmp(slpi_audit_get(ck, "MODE")->s, "away"); /* else spread */
    long np = slpi_audit_get(ck, "PATHS")->i;
    slpi_problem *p0 = c->problem[0], *pd = c->problem[1], *p = c->problem[2];
    slpi_error err = { 0, "" };
    char args[512], name[64], data[SLPI_PATH_MAX + 96], tmp[SLPI_PATH_MAX + 96];
    if (slpi_audit_case(a, c, p0, args, sizeof args, &err) || slpi_problem_finish(p0, &err)) {
        slpi_audit_unable(c, "case: %s", err.msg);
        return;
    }
    long steps = slpi_view_grid(p0)->steps, q = steps / 4;
    slpi_view_grid_edit(p0)->output_every = steps > 2000 ? (int)(steps / 2000) : 1;
    slpi_audit_figure_name(c, name, sizeof name);
    snprintf(data, sizeof data, "%s/data/%s.tsv", a->outdir, name);
    snprintf(tmp, sizeof tmp, "%s/data/%s-path.tsv", a->outdir, name);
    slpi_problem_copy(pd, p0);
    slpi_traj det;
    int rc = slpi_problem_set(pd, "noise", "none", &err);
    if (!rc) rc = run_traj(pd, tmp, &det, &err);
    if (rc) {
        slpi_audit_unable(c, "ensemble: the noise-free path: %s", err.msg);
        return;
    }
    double *at = calloc((size_t)np * 6, sizeof *at), dmin = INFINITY, dmax = 0;
    if (!at) rc = slpi_error_set(&err, SLPI_EINPUT, "out of memory");
    FILE *fig = rc ? NULL : fopen(data, "w");
    if (fig) fprintf(fig, "# path\tt\t|Pi(t) - Pi_det(t)|\n");
    for (long r = 0; !rc && r < np; r++) {
        slpi_problem_copy(p, p0);
        slpi_traj t;
        slpi_view_noise_edit(p)->path = (uint64_t)r;
        rc = run_traj(p, tmp, &t, &err);
        if (rc) break;
        double dist = 0;
        for (long k = 0; k < t.nrows && k < det.nrows; k++) {
            const double *v = t.mid + (size_t)k * (size_t)(t.ncols + 1);
            const double *w = det.mid + (size_t)k * (size_t)(det.ncols + 1);
            double d2 = 0;
            for (int i = 1; i <= 3; i++) d2 += (v[i] - w[i]) * (v[i] - w[i]);
            dist = fmax(dist, sqrt(d2));
            if (fig && k % 4 == 0) fprintf(fig, "%ld\t%.9g\t%.9g\n", r, v[0], sqrt(d2));
            if (t.step[k] == q || t.step[k] == steps)
                memcpy(at + 6 * r + (t.step[k] == q ? 0 : 3), v + 1, 3 * sizeof(double));
        }
        if (fig) fprintf(fig, "\n\n");
        slpi_traj_free(&t);
        dmin = fmin(dmin, dist);
        dmax = fmax(dmax, dist);
    }
    slpi_traj_free(&det);
    if (fig) fclose(fig);
    if (rc) {
        slpi_audit_unable(c, "ensemble: %s", err.msg);
        free(at);
        return;
    }
    double s[2] = { 0, 0 };
    for (int w = 0; w < 2; w++) {
        double m[3] = { 0, 0, 0 };
        for (long r = 0; r < np; r++)
            for (int i = 0; i < 3; i++) m[i] += at[6 * r + 3 * w + i] / (double)np;
        for (long r = 0; r < np; r++)
            for (int i = 0; i < 3; i++) s[w] += pow(at[6 * r + 3 * w + i] - m[i], 2) / (double)np;
        s[w] = sqrt(s[w]);
    }
    free(at);
    if (away)
        slpi_audit_outcome(c, dmin <= slpi_audit_get(ck, "LO")->r && dmax >= slpi_audit_get(ck, "HI")->r, dmax);
    else
        slpi_audit_outcome(c, s[0] > 0 && s[1] / s[0] >= slpi_audit_get(ck, "X")->r, s[0] > 0 ? s[1] / s[0] : NAN);
    snprintf(c->evidence, sizeof c->evidence,
             "%ld paths over T = %g against the noise-free path: the "
             "closest path stays within %.3f, the farthest moves %.3f away (on the unit sphere); rms "
             "spread of the paths %.3e at T/4 and %.3e at T (ratio %.2f); %s %s",
             np, slpi_view_grid(p0)->h * (double)steps, dmin, dmax, s[0], s[1], s[0] > 0 ? s[1] / s[0] : 0.0,
             slpi_audit_meets(c), away ? "min <= LO and max >= HI" : "ratio >= X");
    /* the numbers behind both readings, for a referee's re-check (docs/claims.md#labels) */
    slpi_audit_num(c, "closest", dmin);
    slpi_audit_num(c, "farthest", dmax);
    slpi_audit_num(c, "spread_quarter", s[0]);
    slpi_audit_num(c, "spread_end", s[1]);
    snprintf(c->command, sizeof c->command, "slpi run --preset %s path=R (R = 0..%ld) and noise=none", c->kase, np - 1);
    char body[3 * SLPI_PATH_MAX];
    snprintf(body, sizeof body, "plot for [i=0:%ld] '%s' index i using 2:3 with lines notitle", np - 1, data);
    slpi_audit_plot(a, c, name, NULL, "t", "|Pi(t) - Pi_deterministic(t)|", "", body);
    strcpy(c->figure, name);
}
