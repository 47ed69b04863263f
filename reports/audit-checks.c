/* audit-checks.c — the evaluators of the claims audit (docs/claims.md; check syntax in the
 * header of reports/claims.txt). Each check builds its case (a docs/experiments.md preset plus
 * key=value overrides, FULL=1 overrides appended), computes one number on the fast path
 * (diagnostic maxima over a run, a Poisson defect, a coupled convergence study), on the
 * certified path (a diagnostic's ball after some steps), in closed form, or by the
 * computations of reports/gaps.h (R19, V16, V18, V20, I13), compares it
 * with the threshold and records the evidence, the reproducing command and a figure. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arb_mat.h>

#include "reports/gaps.h"
#include "reports/reports.h"

#define EPS_FD 1e-5

/* Split s (copied into buf) into whitespace-separated tokens. */
static int tokens(const char *s, char *buf, size_t n, char **tok, int max)
{
    snprintf(buf, n, "%s", s);
    int k = 0;
    for (char *t = strtok(buf, " \t"); t && k < max; t = strtok(NULL, " \t")) tok[k++] = t;
    return k;
}

static int is_check_word(const char *s)
{
    static const char *w[] = {"max", "fails", "ref", "poisson", "slope", "gap", "resolvable",
                              "refpoisson", "sphere", "snapshots", "weakexact", "moments", "thresholds", "cayleypi", "test", "unable",
                              "dexpinv", "adstar", "sviident", "svivs", "lifted"};
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        if (!strncmp(s, w[i], strlen(w[i])) && (s[strlen(w[i])] == ' ' || !s[strlen(w[i])])) return 1;
    return 0;
}

/* The check string in force (FULL=1 may replace it). */
static const char *check_of(const slpi_audit *a, const slpi_audit_check *c)
{
    return a->full && strcmp(c->full, "-") && is_check_word(c->full) ? c->full : c->check;
}

/* The case as a problem; args receives " k=v ..." for the reproducing command. */
static int case_problem(const slpi_audit *a, const slpi_audit_check *c, slpi_problem *p,
                        char *args, size_t nargs, slpi_error *err)
{
    char buf[512], *tok[40];
    int n = tokens(c->kase, buf, sizeof buf, tok, 32);
    char fbuf[256];
    if (a->full && strcmp(c->full, "-") && !is_check_word(c->full))
        n += tokens(c->full, fbuf, sizeof fbuf, tok + n, 8);
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    if (n < 1 || !strcmp(tok[0], "-"))
        return slpi_error_set(err, SLPI_EINPUT, "line %d: the check needs a case", c->line);
    int rc = slpi_problem_preset(p, tok[0], err);
    char *keys[40], *vals[40], kv[40][64];
    int nk = 0;
    args[0] = 0;
    for (int i = 1; i < n && rc == SLPI_OK; i++) {
        snprintf(kv[nk], sizeof kv[nk], "%s", tok[i]);
        char *eq = strchr(kv[nk], '=');
        if (!eq) return slpi_error_set(err, SLPI_EINPUT, "line %d: '%s' is not key=value", c->line, tok[i]);
        *eq = 0;
        keys[nk] = kv[nk];
        vals[nk] = eq + 1;
        nk++;
        size_t l = strlen(args);
        snprintf(args + l, nargs - l, " %s", tok[i]);
    }
    if (rc == SLPI_OK && nk) rc = slpi_problem_set_all(p, nk, keys, vals, NULL, err);
    return rc;
}

static void set_outcome(slpi_audit_check *c, int pass, double value)
{
    c->outcome = pass ? SLPI_CHECK_PASS : SLPI_CHECK_FAIL;
    c->value = value;
}

static void unable(slpi_audit_check *c, const char *fmt, const char *msg)
{
    c->outcome = SLPI_CHECK_UNABLE;
    c->value = NAN;
    snprintf(c->evidence, sizeof c->evidence, fmt, msg);
}

/* "<= X" or ">= X": pass? */
static int compare(const char *op, double v, double thr)
{
    return !strcmp(op, "<=") ? v <= thr : v >= thr;
}

static void figure_name(const slpi_audit_check *c, char *out, size_t n)
{
    snprintf(out, n, "%s-l%d", c->id, c->line);
}

/* Figure title: the claim and its case. */
static const char *fig_title(const slpi_audit_check *c)
{
    static char t[300];
    snprintf(t, sizeof t, "%s: %s", c->id, c->kase);
    return t;
}

/* Run gnuplot on script (SVG and PNG terminals set by the caller's plot body). */
static void gnuplot_sized(const slpi_audit *a, const char *name, const char *size, const char *title,
                          const char *xlabel, const char *ylabel, const char *logscale, const char *body)
{
    char path[SLPI_PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/figures/%s.gp", a->outdir, name);
    FILE *f = fopen(path, "w");
    if (!f) return;
    for (int t = 0; t < 2; t++) {
        fprintf(f, "set terminal %s size %s%s\nset output '%s/figures/%s.%s'\n",
                t ? "pngcairo" : "svg", size, t ? "" : " dynamic", a->outdir, name, t ? "png" : "svg");
        fprintf(f, "set termoption noenhanced\nset title \"%s\"\nset xlabel \"%s\"\nset ylabel \"%s\"\n%s\n"
                "set datafile separator '\\t'\nset datafile commentschars '#'\nset key left top\n"
                "set grid\n%s\n", title, xlabel, ylabel, logscale, body);
    }
    fclose(f);
    char cmd[2 * SLPI_PATH_MAX + 128];
    snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>/dev/null", path);
    if (system(cmd) != 0) fprintf(stderr, "audit: gnuplot failed on %s\n", path);
}

static void gnuplot(const slpi_audit *a, const char *name, const char *title, const char *xlabel,
                    const char *ylabel, const char *logscale, const char *body)
{
    gnuplot_sized(a, name, "640,420", title, xlabel, ylabel, logscale, body);
}

/* ---- max DIAG <= X | >= X ; fails */
static void check_run(const slpi_audit *a, slpi_audit_check *c, char **tok, int n)
{
    slpi_problem p;
    slpi_error err = {0, ""};
    char args[512];
    if (case_problem(a, c, &p, args, sizeof args, &err) || slpi_problem_finish(&p, &err)) {
        unable(c, "case: %s", err.msg);
        return;
    }
    int want_fail = !strcmp(tok[0], "fails");
    if (!want_fail && n != 4) {
        unable(c, "check syntax: %s", "max DIAG <= X");
        return;
    }
    p.output_every = p.steps > 20000 ? (int)(p.steps / 20000) : 1;
    char name[64], data[SLPI_PATH_MAX + 96];
    figure_name(c, name, sizeof name);
    snprintf(data, sizeof data, "%s/data/%s.tsv", a->outdir, name);
    FILE *out = fopen(data, "w");
    slpi_run_result res;
    int rc = slpi_run(&p, slpi_fast_path(), out, 0, NULL, &res, &err);
    if (out) fclose(out);
    int fo = a->full && strcmp(c->full, "-") && !is_check_word(c->full);
    snprintf(c->command, sizeof c->command, "slpi run --preset %s%s%s -o %s.tsv", c->kase,
             fo ? " " : "", fo ? c->full : "", name);
    if (want_fail) {
        set_outcome(c, rc == SLPI_ENUMERIC, (double)res.failed_step);
        snprintf(c->evidence, sizeof c->evidence, "%s", rc == SLPI_ENUMERIC ? err.msg :
                 rc == SLPI_OK ? "the run completed without a solver failure" : err.msg);
        return;
    }
    if (rc != SLPI_OK) {
        c->outcome = SLPI_CHECK_FAIL;
        c->value = NAN;
        snprintf(c->evidence, sizeof c->evidence, "the run failed: %s", err.msg);
        return;
    }
    int k = -1;
    for (int i = 0; i < res.ndiag; i++)
        if (!strcmp(res.diag_name[i], tok[1])) k = i;
    if (k < 0) {
        unable(c, "no diagnostic %s in this run", tok[1]);
        return;
    }
    double v = res.diag_maxchange[k], thr = atof(tok[3]);
    set_outcome(c, compare(tok[2], v, thr), v);
    snprintf(c->evidence, sizeof c->evidence, "max |%s - initial| = %.3e over %ld steps of h = %.6g "
             "(T = %.6g) %s threshold %s %.3g; solver mean %.2f, max %d iterations", tok[1], v,
             res.steps_done, p.h, p.h * (double)res.steps_done, c->outcome == SLPI_CHECK_PASS ?
             "meets" : "misses", tok[2], thr, res.mean_iters, res.max_iters);
    strcpy(c->figure, name);
    char body[3 * SLPI_PATH_MAX];
    snprintf(body, sizeof body, "set datafile columnheaders\nstats '%s' using (column('%s')) every "
             "::0::0 nooutput\nv0 = STATS_min\nplot '%s' using 2:(abs(column('%s') - v0)) with lines "
             "title '|%s - %s(0)|', %g with lines dt 2 title 'threshold'", data, tok[1], data, tok[1],
             tok[1], tok[1], thr);
    gnuplot(a, name, fig_title(c), "t", tok[1], "set logscale y\nset format y '%.0e'", body);
}

/* The case with `steps` steps (T and level cleared), for checks of `want` tokens; on
 * a bad case or check the check is UNABLE (usage names the syntax) and -1 returned. */
static int steps_case(const slpi_audit *a, slpi_audit_check *c, int n, int want, const char *usage,
                      char **tok, int steps_tok, slpi_problem *p)
{
    slpi_error err = {0, ""};
    char args[512];
    if (n != want || case_problem(a, c, p, args, sizeof args, &err)) {
        unable(c, "case or check: %s", n != want ? usage : err.msg);
        return -1;
    }
    p->steps = steps_tok ? atol(tok[steps_tok]) : 1;
    p->T = 0;
    p->level = -1;
    return 0;
}

/* ---- sphere A: the trajectory of state coordinates A..A+2 on its sphere (figure) */
static void check_sphere(const slpi_audit *a, slpi_audit_check *c, char **tok, int n)
{
    slpi_problem p;
    slpi_error err = {0, ""};
    char args[512], name[64], data[SLPI_PATH_MAX + 96];
    if (n != 2 || case_problem(a, c, &p, args, sizeof args, &err) || slpi_problem_finish(&p, &err)) {
        unable(c, "case or check: %s", n != 2 ? "sphere A" : err.msg);
        return;
    }
    int col = atoi(tok[1]);
    p.output_every = p.steps > 20000 ? (int)(p.steps / 20000) : 1;
    figure_name(c, name, sizeof name);
    snprintf(data, sizeof data, "%s/data/%s.tsv", a->outdir, name);
    snprintf(c->command, sizeof c->command, "slpi run --preset %s -o %s.tsv", c->kase, name);
    FILE *out = fopen(data, "w");
    slpi_run_result res;
    int rc = slpi_run(&p, slpi_fast_path(), out, 0, NULL, &res, &err);
    if (out) fclose(out);
    slpi_traj t;
    if (rc != SLPI_OK || slpi_traj_read(data, &t, &err) != SLPI_OK) {
        unable(c, "trajectory: %s", err.msg);
        return;
    }
    double r0 = 0, dev = 0;
    for (long r = 0; r < t.nrows; r++) {
        const double *v = t.mid + (size_t)r * (size_t)(t.ncols + 1) + 1 + col;
        double rad = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (r == 0) r0 = rad;
        dev = fmax(dev, fabs(rad - r0));
    }
    slpi_traj_free(&t);
    set_outcome(c, dev <= 1e-12 * fmax(1, r0), dev);
    snprintf(c->evidence, sizeof c->evidence, "trajectory of coordinates %d..%d over T = %.6g on the "
             "sphere of radius %.6f: max ||x(t)| - |x(0)|| = %.2e (figure)", col + 1, col + 3,
             p.h * (double)res.steps_done, r0, dev);
    char body[3 * SLPI_PATH_MAX];
    snprintf(body, sizeof body, "set parametric\nset isosamples 24,12\nset urange [0:2*pi]\n"
             "set vrange [-pi/2:pi/2]\nset view equal xyz\nset view 60,30\nunset tics\nunset border\n"
             "set datafile columnheaders\nr = %.17g\nsplot r*cos(u)*cos(v), r*sin(u)*cos(v), r*sin(v) "
             "with lines lc rgb '#cccccc' notitle, '%s' using %d:%d:%d with lines lw 1.2 title "
             "'trajectory'", r0, data, col + 3, col + 4, col + 5);
    gnuplot(a, name, fig_title(c), "", "", "", body);
    strcpy(c->figure, name);
}

/* ---- snapshots STEPS: Euler–Zeitlin vorticity at steps 0, STEPS/2, STEPS (figure) */
static void check_snapshots(const slpi_audit *a, slpi_audit_check *c, char **tok, int n)
{
    slpi_problem p;
    slpi_error err = {0, ""};
    char name[64], data[SLPI_PATH_MAX + 96];
    if (steps_case(a, c, n, 2, "snapshots STEPS", tok, 1, &p)) return;
    enum { NLAT = 64, NLON = 128 };
    int dim = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p);
    slpi_fast *f = NULL;
    slpi_vort *v = NULL;
    slpi_noise_source *src = NULL;
    double *x = calloc((size_t)(2 * dim + M + 1), sizeof *x), *x0 = x + dim, *dW = x0 + dim;
    double *grid = malloc(sizeof(double) * NLAT * NLON);
    int rc = !x || !grid || slpi_problem_validate(&p, &err) || p.system != SLPI_SYS_EULER_ZEITLIN;
    if (!rc) rc = slpi_fast_create(&f, &p, &err) || slpi_fast_initial_state(f, x, &err)
                  || slpi_noise_source_open(&src, &p, &err) || slpi_vort_create(&v, p.ez.N, &err);
    figure_name(c, name, sizeof name);
    snprintf(data, sizeof data, "%s/data/%s.dat", a->outdir, name);
    FILE *out = rc ? NULL : fopen(data, "w");
    if (!rc && out) memcpy(x0, x, sizeof(double) * (size_t)dim);
    long at[3] = {0, p.steps / 2, p.steps};
    double wmax = 0;
    slpi_step_info info;
    for (long s = 0, k = 0; !rc && out && k < 3; s++) {
        if (s == at[k]) {
            slpi_vort_grid(v, x, NLAT, NLON, grid);
            for (int i = 0; i < NLAT * NLON; i++) wmax = fmax(wmax, fabs(grid[i]));
            for (int i = 0; i < NLAT; i++) {
                for (int j = 0; j < NLON; j++)
                    fprintf(out, "%.6g %.6g %.9g\n", 360.0 * j / NLON, 90 - 180.0 * (i + 0.5) / NLAT,
                            grid[i * NLON + j]);
                fprintf(out, "\n");
            }
            fprintf(out, "\n");
            k++;
        }
        if (k < 3 && (slpi_noise_source_step(src, s, dW, &err)
                      || slpi_step_failed(slpi_fast_step(f, x, dW, &info))))
            rc = slpi_error_set(&err, SLPI_ENUMERIC, "step %ld failed", s);
    }
    if (out) fclose(out);
    if (rc) {
        unable(c, "snapshots: %s", err.msg[0] ? err.msg : "not an euler-zeitlin case");
    } else {
        slpi_diag d = {0};
        slpi_fast_diagnostics(f, x, x0, &d);
        double c2 = NAN, eig = NAN;
        for (int i = 0; i < d.n; i++) {
            if (!strcmp(d.name[i], "C2_rel_dev")) c2 = d.value[i];
            if (!strcmp(d.name[i], "eig_dev")) eig = d.value[i];
        }
        set_outcome(c, 1, c2);
        snprintf(c->evidence, sizeof c->evidence, "N = %d, %ld steps of h = %g: vorticity on a %dx%d "
                 "latitude-longitude grid at t = 0, %g, %g (figure); after the run relative enstrophy "
                 "change %.2e, eigenvalue departure %.2e", p.ez.N, p.steps, p.h, NLAT, NLON,
                 p.h * (double)at[1], p.h * (double)at[2], c2, eig);
        char body[5 * SLPI_PATH_MAX];
        snprintf(body, sizeof body, "unset logscale\nset datafile separator whitespace\n"
                 "set multiplot layout 3,1\nset size ratio 0.5\nunset key\n"
                 "set xtics 60\nset ytics 45\nset cbrange [%.6g:%.6g]\nset xrange [0:360]\nset yrange [-90:90]\nset palette defined (-1 'blue', 0 'white', "
                 "1 'red')\nset title 't = 0'\nplot '%s' index 0 using 1:2:3 with image\n"
                 "set title 't = %g'\nplot '%s' index 1 using 1:2:3 with image\n"
                 "set title 't = %g'\nplot '%s' index 2 using 1:2:3 with image\nunset multiplot",
                 -wmax, wmax, data, p.h * (double)at[1], data, p.h * (double)at[2], data);
        gnuplot_sized(a, name, "560,900", fig_title(c), "longitude", "latitude", "", body);
        strcpy(c->figure, name);
    }
    snprintf(c->command, sizeof c->command, "slpi audit --only %s  (case %s, %s steps)", c->id, c->kase, tok[1]);
    slpi_vort_free(v);
    slpi_noise_source_close(src);
    slpi_fast_free(f);
    free(x);
    free(grid);
}

/* ---- ref DIAG STEPS: 0 in the certified ball of DIAG after STEPS steps */
static void check_ref(const slpi_audit *a, slpi_audit_check *c, char **tok, int n)
{
    slpi_problem p;
    slpi_error err = {0, ""};
    if (steps_case(a, c, n, 3, "ref DIAG STEPS", tok, 2, &p)) return;
    if (slpi_problem_validate(&p, &err)) {
        unable(c, "case: %s", err.msg);
        return;
    }
    int dim = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p);
    double *x0 = calloc((size_t)dim + (size_t)M + 1, sizeof *x0), *dW = x0 + dim;
    slpi_fast *f = NULL;
    slpi_ref *r = NULL;
    slpi_noise_source *src = NULL;
    arb_ptr x = _arb_vec_init(dim), xi = _arb_vec_init(dim);
    slpi_ref_diag d;
    slpi_ref_diag_init(&d);
    int given = slpi_problem_explicit_x0(&p, x0, &err), rc = given < 0;
    if (!rc && !given) rc = slpi_fast_create(&f, &p, &err) || slpi_fast_initial_state(f, x0, &err);
    if (!rc) rc = slpi_ref_create(&r, &p, &err);
    if (!rc) rc = slpi_noise_source_open(&src, &p, &err);
    for (int i = 0; !rc && i < dim; i++) {
        arb_set_d(x + i, x0[i]);
        arb_set_d(xi + i, x0[i]);
    }
    slpi_step_info info = {0};
    for (long s = 0; !rc && s < p.steps; s++) {
        rc = slpi_noise_source_step(src, s, dW, &err);
        if (!rc && slpi_step_failed(slpi_ref_step(r, x, dW, &info))) {
            unable(c, "certified step failed: %s", slpi_ref_unable_reason(r));
            rc = -1;
        }
    }
    snprintf(c->command, sizeof c->command, "slpi run --ref --preset %s%s%s", c->kase,
             strstr(c->kase, "steps=") ? "" : " steps=", strstr(c->kase, "steps=") ? "" : tok[2]);
    if (rc > 0) unable(c, "certified run: %s", err.msg);
    if (!rc) {
        slpi_ref_diagnostics(r, x, xi, &d);
        int k = -1;
        for (int i = 0; i < d.n; i++)
            if (!strcmp(d.name[i], tok[1])) k = i;
        if (k < 0) {
            unable(c, "no certified diagnostic %s", tok[1]);
        } else {
            int in = arb_contains_zero(&d.value[k]);
            double mid = arf_get_d(arb_midref(&d.value[k]), ARF_RND_NEAR);
            double rad = mag_get_d(arb_radref(&d.value[k]));
            set_outcome(c, in, rad);
            snprintf(c->evidence, sizeof c->evidence, "certified (Arb, %ld bits): %s = %.3e +- %.3e "
                     "after %ld steps: the ball %s 0", info.prec, tok[1], mid, rad, p.steps,
                     in ? "contains" : "excludes");
        }
    }
    slpi_ref_diag_clear(&d);
    _arb_vec_clear(x, dim);
    _arb_vec_clear(xi, dim);
    slpi_noise_source_close(src);
    slpi_ref_free(r);
    slpi_fast_free(f);
    free(x0);
}

/* Poisson tensor of the first k state coordinates (rigid body: hat Pi; heavy top:
 * [[hat Pi, hat Gamma], [hat Gamma, 0]]), row-major k x k. */
/* One noise-free step from binary64 x to balls y: the fast path (exact balls of its
 * doubles) or the certified path (enclosures of the exact scheme for input x). */
typedef struct {
    slpi_fast *f;
    slpi_ref *r;
    int dim;
    arb_ptr tmp;
} stepper;

static int step_to_balls(stepper *s, const double *x, arb_ptr y)
{
    double dW[8] = {0}, v[64];
    slpi_step_info info;
    if (s->f) {
        memcpy(v, x, sizeof(double) * (size_t)s->dim);
        if (slpi_step_failed(slpi_fast_step(s->f, v, dW, &info))) return -1;
        for (int i = 0; i < s->dim; i++) arb_set_d(y + i, v[i]);
        return 0;
    }
    for (int i = 0; i < s->dim; i++) arb_set_d(y + i, x[i]);
    return slpi_step_failed(slpi_ref_step(s->r, y, dW, &info)) ? -1 : 0;
}

/* Poisson tensor of the first k state coordinates (rigid body: hat Pi; heavy top:
 * [[hat Pi, hat Gamma], [hat Gamma, 0]]), k x k balls. */
static void hat_block(arb_mat_t J, int r0, int c0, arb_srcptr v)
{
    arb_neg(arb_mat_entry(J, r0, c0 + 1), v + 2);
    arb_set(arb_mat_entry(J, r0, c0 + 2), v + 1);
    arb_set(arb_mat_entry(J, r0 + 1, c0), v + 2);
    arb_neg(arb_mat_entry(J, r0 + 1, c0 + 2), v + 0);
    arb_neg(arb_mat_entry(J, r0 + 2, c0), v + 1);
    arb_set(arb_mat_entry(J, r0 + 2, c0 + 1), v + 0);
}

static void poisson_tensor(arb_mat_t J, arb_srcptr u, int k)
{
    arb_mat_zero(J);
    hat_block(J, 0, 0, u);
    if (k == 6) {
        hat_block(J, 0, 3, u + 3);
        hat_block(J, 3, 0, u + 3);
    }
}

/* Enclosure of max |D J(x0) D^T - J(Phi(x0))| with D the central difference quotient
 * of the step at eps (exact for the fast path's doubles; for the certified path an
 * enclosure of the exact scheme's difference quotient: the O(eps^2) remainder to the
 * derivative is not enclosed, which is why two eps are reported). */
static int poisson_defect(stepper *s, const double *x0, int k, double eps, arb_t out)
{
    const slong prec = 128;
    int dim = s->dim, rc = 0;
    double xp[64], xm[64];
    arb_ptr yp = _arb_vec_init(dim), ym = _arb_vec_init(dim), y0 = _arb_vec_init(dim), u0 = _arb_vec_init(dim);
    arb_mat_t D, J, Jy, T, P;
    arb_mat_init(D, k, k); arb_mat_init(J, k, k); arb_mat_init(Jy, k, k);
    arb_mat_init(T, k, k); arb_mat_init(P, k, k);
    for (int i = 0; i < dim; i++) arb_set_d(u0 + i, x0[i]);
    rc = step_to_balls(s, x0, y0);
    for (int j = 0; !rc && j < k; j++) {
        memcpy(xp, x0, sizeof(double) * (size_t)dim);
        memcpy(xm, x0, sizeof(double) * (size_t)dim);
        xp[j] += eps;
        xm[j] -= eps;
        rc = step_to_balls(s, xp, yp) || step_to_balls(s, xm, ym);
        double w = xp[j] - xm[j];   /* exact in binary64 */
        for (int i = 0; !rc && i < k; i++) {
            arb_sub(arb_mat_entry(D, i, j), yp + i, ym + i, prec);
            arb_t wd;
            arb_init(wd);
            arb_set_d(wd, w);
            arb_div(arb_mat_entry(D, i, j), arb_mat_entry(D, i, j), wd, prec);
            arb_clear(wd);
        }
    }
    if (!rc) {
        poisson_tensor(J, u0, k);
        poisson_tensor(Jy, y0, k);
        arb_mat_mul(T, D, J, prec);
        arb_mat_transpose(P, D);
        arb_mat_mul(T, T, P, prec);
        arb_mat_sub(T, T, Jy, prec);
        arb_zero(out);
        for (int i = 0; i < k; i++)
            for (int j = 0; j < k; j++) {
                arb_abs(arb_mat_entry(T, i, j), arb_mat_entry(T, i, j));
                arb_max(out, out, arb_mat_entry(T, i, j), prec);
            }
    }
    arb_mat_clear(D); arb_mat_clear(J); arb_mat_clear(Jy); arb_mat_clear(T); arb_mat_clear(P);
    _arb_vec_clear(yp, dim); _arb_vec_clear(ym, dim); _arb_vec_clear(y0, dim); _arb_vec_clear(u0, dim);
    return rc;
}

/* The rigorous defect of ref/ (implicit-function-theorem Jacobian in balls; SVI on the
 * rigid body only): max over the 9 entries of |D hat(x) D^T - hat(x_1)|. */
static int ift_defect(slpi_ref *r, const double *x0, arb_t out, slpi_error *err)
{
    arb_ptr x = _arb_vec_init(3), d = _arb_vec_init(9);
    double dW[8] = {0};
    for (int i = 0; i < 3; i++) arb_set_d(x + i, x0[i]);
    int rc = slpi_ref_poisson_defect(r, x, dW, d, err);
    arb_zero(out);
    for (int i = 0; rc == SLPI_OK && i < 9; i++) {
        arb_abs(d + i, d + i);
        arb_max(out, out, d + i, 128);
    }
    _arb_vec_clear(x, 3);
    _arb_vec_clear(d, 9);
    return rc;
}

/* poisson <= X | >= X (fast path) and refpoisson <= X | >= X (certified path: the
 * rigorous defect of ref/ where it exists, else enclosed difference quotients). */
static void check_poisson(const slpi_audit *a, slpi_audit_check *c, char **tok, int n)
{
    slpi_problem p;
    slpi_error err = {0, ""};
    if (steps_case(a, c, n, 3, "poisson <= X", tok, 0, &p)) return;
    int certified = !strcmp(tok[0], "refpoisson");
    stepper st = {0};
    st.dim = slpi_problem_state_dim(&p);
    double x0[64];
    slpi_fast *f0 = NULL;
    int rc = slpi_problem_validate(&p, &err) || slpi_fast_create(&f0, &p, &err)
             || slpi_fast_initial_state(f0, x0, &err);
    if (!rc && certified) rc = slpi_ref_create(&st.r, &p, &err);
    else st.f = f0;
    int k = p.system == SLPI_SYS_HEAVY_TOP ? 6 : 3;
    arb_t d1, d2;
    arb_init(d1);
    arb_init(d2);
    int rigorous = certified && p.system == SLPI_SYS_RIGID_BODY && p.scheme == SLPI_SCHEME_SVI;
    if (!rc && rigorous) {
        rc = ift_defect(st.r, x0, d1, &err);
        arb_set(d2, d1);
    } else if (!rc && (poisson_defect(&st, x0, k, EPS_FD, d1) || poisson_defect(&st, x0, k, EPS_FD / 2, d2))) {
        rc = slpi_error_set(&err, SLPI_ENUMERIC, "a step failed%s%s", certified ? ": " : "",
                            certified ? slpi_ref_unable_reason(st.r) : "");
    }
    if (rc) {
        unable(c, "poisson: %s", err.msg);
    } else {
        double thr = atof(tok[2]);
        double lo1 = arf_get_d(arb_midref(d1), ARF_RND_NEAR) - mag_get_d(arb_radref(d1));
        double hi1 = arf_get_d(arb_midref(d1), ARF_RND_NEAR) + mag_get_d(arb_radref(d1));
        /* "<= X": the whole ball below X; ">= X": the whole ball above X */
        int pass = !strcmp(tok[1], "<=") ? hi1 <= thr : lo1 >= thr;
        double m1 = arf_get_d(arb_midref(d1), ARF_RND_NEAR), m2 = arf_get_d(arb_midref(d2), ARF_RND_NEAR);
        set_outcome(c, pass, arf_get_d(arb_midref(d1), ARF_RND_NEAR));
        if (rigorous) {
            snprintf(c->evidence, sizeof c->evidence, "one noise-free step at h = %g (svi, c = %+g), "
                     "rigorous (ref/: Jacobian by the implicit function theorem in Arb balls): max |D "
                     "hat(Pi) D^T - hat(Pi_1)| in [%.4e, %.4e] %s %s %.1e; the enclosure %s 0", p.h,
                     p.svi_c, lo1 > 0 ? lo1 : 0.0, hi1, pass ? "meets" : "misses", tok[1], thr,
                     lo1 > 0 ? "excludes" : "contains");
        } else {
        snprintf(c->evidence, sizeof c->evidence, "one noise-free step at h = %g (%s%s), %s: max |D Phi J "
                 "D Phi^T - J o Phi| in [%.4e, %.4e] with central differences eps = %.0e (%.4e at "
                 "eps/2: the FD remainder scale) %s %s %.1e%s", p.h, slpi_scheme_name(p.scheme),
                 p.scheme == SLPI_SCHEME_SVI ? (p.svi_c < 0 ? ", c = -1/4" : ", c = +1/4") : "",
                 certified ? "certified Arb balls of the exact scheme's difference quotients" :
                 "fast path (binary64)", lo1 > 0 ? lo1 : 0.0, hi1, EPS_FD,
                 arf_get_d(arb_midref(d2), ARF_RND_NEAR), pass ? "meets" : "misses", tok[1], thr,
                 certified && lo1 > 0 && fabs(m1 - m2) < 1e-3 * m1 ?
                 "; the enclosure excludes 0 and does not change with eps: a defect of the scheme, "
                 "not of the difference quotient" : "");
        }
    }
    snprintf(c->command, sizeof c->command, "slpi audit --only %s", c->id);
    arb_clear(d1);
    arb_clear(d2);
    slpi_ref_free(st.r);
    slpi_fast_free(f0);
}

/* ---- convergence studies: slope, gap, resolvable */
static int study(const slpi_audit *a, slpi_audit_check *c, char **tok, int n, slpi_conv_kind kind,
                 int kmin, int kmax, int L, long R, slpi_conv_cfg *cfg, slpi_conv_result *res,
                 char *cmd, size_t ncmd)
{
    slpi_problem p;
    slpi_error err = {0, ""};
    char args[512];
    if (case_problem(a, c, &p, args, sizeof args, &err)) {
        unable(c, "case: %s", err.msg);
        return -1;
    }
    p.level = -1;
    slpi_conv_init(cfg, &p);
    cfg->kind = kind;
    cfg->kmin = kmin;
    cfg->kmax = kmax;
    cfg->L = L;
    cfg->paths = R;
    cfg->boot = 400;
    char extra[128] = "";
    for (int i = 0; i < n; i++) {
        if (!strncmp(tok[i], "indep=", 6) && !slpi_scheme_from_name(tok[i] + 6, &cfg->indep_scheme)) {
            cfg->indep = 1;
            snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " --indep %s", tok[i] + 6);
        }
        if (!strcmp(tok[i], "inconsistent")) {
            cfg->allow_inconsistent = 1;
            snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " --allow-inconsistent");
        }
    }
    char pre[256];
    snprintf(pre, sizeof pre, "%s", c->kase);
    char *sp = strchr(pre, ' ');
    if (sp) *sp = 0;
    snprintf(cmd, ncmd, "slpi converge --preset %s%s --kind %s --levels %d..%d --ref %d --paths %ld%s",
             pre, args, kind == SLPI_CONV_WEAK ? "weak" : kind == SLPI_CONV_SUP ? "sup" : "strong",
             kmin, kmax, L, R, extra);
    if (slpi_conv_run(cfg, NULL, NULL, res, &err)) {
        c->outcome = SLPI_CHECK_FAIL;
        c->value = NAN;
        snprintf(c->evidence, sizeof c->evidence, "the study failed: %s", err.msg);
        return -1;
    }
    return 0;
}

static void slope_figure(const slpi_audit *a, slpi_audit_check *c, const slpi_conv_result *r,
                         int col, const char *what)
{
    char name[64], data[SLPI_PATH_MAX + 96], body[3 * SLPI_PATH_MAX];
    figure_name(c, name, sizeof name);
    snprintf(data, sizeof data, "%s/data/%s.tsv", a->outdir, name);
    FILE *f = fopen(data, "w");
    if (!f) return;
    fprintf(f, "# h\te\tSE\tfitted\n");
    for (int i = 0; i < r->nlev; i++)
        fprintf(f, "%.17g\t%.17g\t%.17g\t%d\n", r->h[i], r->cell[col][i].e, r->cell[col][i].se,
                r->cell[col][i].fitted);
    fclose(f);
    const slpi_conv_fit *ft = &r->fit[col];
    snprintf(body, sizeof body, "plot '%s' using 1:2:3 with yerrorbars pt 7 title '%s error +- SE', "
             "exp(%.17g)*x**%.17g with lines title sprintf('WLS slope %.3f [%.3f, %.3f]')", data,
             what, isfinite(ft->intercept) ? ft->intercept : 0.0, isfinite(ft->slope) ? ft->slope : 0.0,
             ft->slope, ft->lo, ft->hi);
    gnuplot(a, name, fig_title(c), "h", "error", "set logscale xy\nset format y '%.0e'\nset format x '%.0e'", body);
    strcpy(c->figure, name);
}

static void check_slope(const slpi_audit *a, slpi_audit_check *c, char **tok, int n)
{
    if (n < 8) {
        unable(c, "check syntax: %s", "slope KIND A B L R LO HI");
        return;
    }
    slpi_conv_kind kind = !strcmp(tok[1], "weak") ? SLPI_CONV_WEAK
                          : !strcmp(tok[1], "sup") ? SLPI_CONV_SUP : SLPI_CONV_STRONG;
    slpi_conv_cfg cfg;
    slpi_conv_result r;
    if (study(a, c, tok, n, kind, atoi(tok[2]), atoi(tok[3]), atoi(tok[4]), atol(tok[5]), &cfg, &r,
              c->command, sizeof c->command))
        return;
    int col = cfg.indep && !cfg.allow_inconsistent ? SLPI_CONV_INDEP : SLPI_CONV_SELF;
    const slpi_conv_fit *f = &r.fit[col];
    double lo = atof(tok[6]), hi = atof(tok[7]);
    set_outcome(c, f->nfit >= 2 && f->slope >= lo && f->slope <= hi, f->slope);
    int last = r.nlev - 1;
    snprintf(c->evidence, sizeof c->evidence, "%s slope %.3f (95%% batch-bootstrap CI [%.3f, %.3f], "
             "%d levels fitted) against the %s reference, window [%.2f, %.2f]; e = %.3e +- %.1e at "
             "h = %.4g, %.3e at h = %.4g; %ld paths%s", slpi_conv_kind_name(kind), f->slope, f->lo,
             f->hi, f->nfit, col == SLPI_CONV_INDEP ? slpi_scheme_name(cfg.indep_scheme) : "same-scheme",
             lo, hi, r.cell[col][last].e, r.cell[col][last].se, r.h[last], r.cell[col][0].e, r.h[0],
             r.paths, cfg.indep ? "" : "");
    if (cfg.indep) {
        size_t l = strlen(c->evidence);
        snprintf(c->evidence + l, sizeof c->evidence - l, "; self slope %.3f; reference gap to %s at "
                 "level %d: %.3e", r.fit[SLPI_CONV_SELF].slope, slpi_scheme_name(cfg.indep_scheme),
                 cfg.L, r.refgap);
    }
    slope_figure(a, c, &r, col, slpi_conv_kind_name(kind));
}

static void check_gap(const slpi_audit *a, slpi_audit_check *c, char **tok, int n)
{
    if (n != 6) {
        unable(c, "check syntax: %s", "gap SCHEME L R >= X");
        return;
    }
    char ind[64];
    snprintf(ind, sizeof ind, "indep=%s", tok[1]);
    char *t2[3] = {ind, "inconsistent", NULL};
    slpi_conv_cfg cfg;
    slpi_conv_result r;
    int L = atoi(tok[2]);
    if (study(a, c, t2, 2, SLPI_CONV_STRONG, 3, 4, L, atol(tok[3]), &cfg, &r, c->command,
              sizeof c->command))
        return;
    double thr = atof(tok[5]);
    set_outcome(c, compare(tok[4], r.refgap, thr), r.refgap);
    snprintf(c->evidence, sizeof c->evidence, "rms gap at level %d (h = %.4g) between %s and %s on the "
             "same %ld paths: %.3e +- %.1e (%s %s %.1e); self-convergence error at h = %.4g: %.3e",
             L, r.h[r.nlev], slpi_scheme_name(cfg.base.scheme), tok[1], r.paths, r.refgap,
             r.refgap_se, c->outcome == SLPI_CHECK_PASS ? "meets" : "misses", tok[4], thr,
             r.h[r.nlev - 1], r.cell[SLPI_CONV_SELF][r.nlev - 1].e);
}

/* Levels an UNCOUPLED estimator would resolve: |E phi_l - E phi_ref| > 3 SE_uncoupled. */
static void check_resolvable(const slpi_audit *a, slpi_audit_check *c, char **tok, int n)
{
    if (n != 7) {
        unable(c, "check syntax: %s", "resolvable A B L R >= N");
        return;
    }
    slpi_conv_cfg cfg;
    slpi_conv_result r;
    if (study(a, c, tok, 0, SLPI_CONV_WEAK, atoi(tok[1]), atoi(tok[2]), atoi(tok[3]), atol(tok[4]),
              &cfg, &r, c->command, sizeof c->command))
        return;
    int k = 0;
    double se_u = 0, se_c = 0;
    for (int i = 0; i < r.nlev; i++) {
        se_u = sqrt((r.cell[SLPI_CONV_PHI][i].var + r.cell[SLPI_CONV_PHI][r.nlev].var) / (double)r.paths);
        se_c = r.cell[SLPI_CONV_SELF][i].se;
        k += r.cell[SLPI_CONV_SELF][i].e > 3 * se_u;
    }
    int need = atoi(tok[6]);
    set_outcome(c, compare(tok[5], k, need), k);
    snprintf(c->evidence, sizeof c->evidence, "uncoupled estimation resolves %d of %d levels (e_w > 3 "
             "SE); at h = %.4g: e_w = %.3e, uncoupled SE %.2e, coupled SE %.2e (%ld paths; ratio %.0f)",
             k, r.nlev, r.h[r.nlev - 1], r.cell[SLPI_CONV_SELF][r.nlev - 1].e, se_u, se_c, r.paths,
             se_c > 0 ? se_u / se_c : 0.0);
    slope_figure(a, c, &r, SLPI_CONV_SELF, "coupled weak");
}

/* ---- weak-exact oracle: quadrature error slope, and Monte Carlo through the steps */
static void check_weakexact(const slpi_audit *a, slpi_audit_check *c, char **tok, int n)
{
    slpi_scheme_id k;
    if (n != 4 || slpi_scheme_from_name(tok[1], &k)) {
        unable(c, "check syntax: %s", "weakexact SCHEME LO HI");
        return;
    }
    double h[6], e[6], se[6];
    int use[6];
    for (int i = 0; i < 6; i++) {
        h[i] = ldexp(1, -3 - i);
        e[i] = fabs(slpi_weak_exact_scheme(k, 1, 1, h[i], 2, 1) - exp(-0.5));
        se[i] = 1e-3 * e[i];
        use[i] = 1;
    }
    double s, ic;
    slpi_stats_wls(6, h, e, se, use, &s, &ic);
    char *t2[1] = {NULL};
    slpi_conv_cfg cfg;
    slpi_conv_result r;
    if (study(a, c, t2, 0, SLPI_CONV_WEAK, 3, 5, 7, 400, &cfg, &r, c->command, sizeof c->command))
        return;
    double zmax = 0;
    for (int i = 0; i < r.nlev; i++) {
        const slpi_conv_cell *d = &r.cell[SLPI_CONV_MLMC][i];
        double z = d->se > 0 ? fabs(d->mean - (r.quad[i] - r.quad[i + 1])) / d->se : 0;
        zmax = fmax(zmax, z);
    }
    double lo = atof(tok[2]), hi = atof(tok[3]);
    set_outcome(c, s >= lo && s <= hi && zmax < 4, s);
    snprintf(c->evidence, sizeof c->evidence, "quadrature (no Monte Carlo) |E x_1(T) - exp(-1/2)| = %.5f, "
             "%.5f, %.5f, %.5f, %.5f, %.5f at h = 2^-3..2^-8: slope %.4f (window [%.2f, %.2f]); "
             "Monte Carlo through the implemented %s step (400 coupled paths) agrees with the "
             "quadrature's level differences: max |z| = %.2f (< 4)", e[0], e[1], e[2], e[3], e[4],
             e[5], s, lo, hi, tok[1], zmax);
    strcat(c->command, " --phi x1 --exact");
    char name[64], data[SLPI_PATH_MAX + 96], body[3 * SLPI_PATH_MAX];
    figure_name(c, name, sizeof name);
    snprintf(data, sizeof data, "%s/data/%s.tsv", a->outdir, name);
    FILE *f = fopen(data, "w");
    if (f) {
        for (int i = 0; i < 6; i++) fprintf(f, "%.17g\t%.17g\n", h[i], e[i]);
        fclose(f);
        snprintf(body, sizeof body, "plot '%s' using 1:2 with linespoints pt 7 title 'quadrature weak "
                 "error', exp(%.17g)*x**%.17g title 'slope %.3f'", data, ic, s, s);
        gnuplot(a, name, fig_title(c), "h", "|E x_1(T) - exp(-T/2)|", "set logscale xy", body);
        strcpy(c->figure, name);
    }
}

/* ---- closed computations */
static double pow4(double w, void *arg)
{
    (void)arg;
    return w * w * w * w;
}

static void check_moments(slpi_audit_check *c)
{
    double h = 0.01, D = slpi_noise_threshold(h, 2), A = D / sqrt(h);
    double phiA = exp(-0.5 * A * A) / sqrt(2 * 3.14159265358979323846), tail = 0.5 * erfc(A / sqrt(2.0));
    double m2 = 2 * h * ((1 + A * A) * tail - A * phiA);  /* E (dW - clip dW)^2 */
    double m4 = slpi_weak_clipped_mean(pow4, NULL, h, D);
    int pass = m2 <= h * h * h && fabs(m2 - 1.5e-8) < 0.05e-8 && m4 <= 3 * h * h;
    set_outcome(c, pass, m2);
    snprintf(c->evidence, sizeof c->evidence, "h = 0.01, D = %.6f: E(dW - clip dW)^2 = %.4e (closed form; "
             "<= h^3 = 1e-6; docs/conventions.md.5e-8), E clip(dW)^4 = %.6e <= 3h^2 = %.1e (quadrature); odd "
             "moments vanish by symmetry of the clipped law", D, m2, m4, 3 * h * h);
    snprintf(c->command, sizeof c->command, "slpi audit --only %s", c->id);
}

static void check_thresholds(slpi_audit_check *c)
{
    static const double hs[6] = {0.125, 0.0078125, 0.01, 0.00390625, 0.000244140625, 0.0000152587890625};
    static const double spec[6] = {1.0197, 0.38939, 0.42919, 0.29435, 0.09013, 0.02602};
    double worst = 0, wspec = 0;
    for (int i = 0; i < 6; i++) {
        double D = slpi_noise_threshold(hs[i], 2);
        double iso = sqrt(4 * fabs(log(hs[i]))) * sqrt(hs[i]);  /* A_h sqrt h, ISO */
        double svi = sqrt(4 * fabs(log(hs[i])) * hs[i]);         /* D_dt, SVI */
        worst = fmax(worst, fmax(fabs(iso - D), fabs(svi - D)) / D);
        wspec = fmax(wspec, fabs(D - spec[i]) / spec[i]);
    }
    set_outcome(c, worst < 4e-16 && wspec < 2e-4, worst);
    snprintf(c->evidence, sizeof c->evidence, "ISO A_h sqrt(h) and SVI D_h agree with D(h, 2) to %.1e "
             "relative (rounding) at h = 2^-3, 2^-7, 0.01, 2^-8, 2^-12, 2^-16; docs table values "
             "reproduced to %.1e", worst, wspec);
    snprintf(c->command, sizeof c->command, "slpi audit --only %s", c->id);
}

static void check_cayleypi(slpi_audit_check *c)
{
    /* tau(x) rotates by 2 atan(|x|/2) < pi for every finite x: a rotation by pi is not
     * in the image of Cayley (its eigenvalue -1 makes I + R singular). */
    double sup = 0;
    for (double r = 1; r <= 1e15; r *= 10) sup = fmax(sup, 2 * atan(r / 2));
    double gap = 3.14159265358979323846 - sup;
    set_outcome(c, gap <= 0, gap);
    snprintf(c->evidence, sizeof c->evidence, "Cayley tau(x) is the rotation by 2 atan(|x|/2): the supremum "
             "over |x| <= 1e15 is pi - %.1e < pi, so rotations by pi (eigenvalue -1, I + R singular) "
             "are not Cayley images: the map onto SO(3) is not surjective", gap > 0 ? gap : 0.0);
    snprintf(c->command, sizeof c->command, "slpi audit --only %s", c->id);
}

/* ---- computed identities and the two non-registry schemes (reports/gaps.h) */

/* Outcome of "OP X" (tokens op, thr) for value v, with the check's own command line. */
static void gap_outcome(slpi_audit_check *c, const char *op, const char *thr, double v)
{
    set_outcome(c, compare(op, v, atof(thr)), v);
    snprintf(c->command, sizeof c->command, "slpi audit --only %s", c->id);
}

/* dexpinv SYSTEM sigma|printed <= X (R19) */
static void check_dexpinv(slpi_audit_check *c, char **tok, int n)
{
    slpi_system_id sys;
    slpi_error err = {0, ""};
    double d;
    int printed = n == 5 && !strcmp(tok[2], "printed");
    if (n != 5 || slpi_system_from_name(tok[1], &sys) || (!printed && strcmp(tok[2], "sigma"))) {
        unable(c, "check syntax: %s", "dexpinv SYSTEM sigma|printed <= X");
        return;
    }
    if (slpi_gaps_dexpinv(sys, printed, 50, 1, &d, &err)) {
        unable(c, "dexpinv: %s", err.msg);
        return;
    }
    gap_outcome(c, tok[3], tok[4], d);
    snprintf(c->evidence, sizeof c->evidence, "%s on the fast path's %s algebra (its orbit map "
             "O_exp, bracket and ad*): sigma' = dexp^-1_sigma(v) by %s; max over 50 random (mu0, "
             "sigma, v), |sigma| = 0.2..2, of |d/dt O_exp(sigma(t); mu0) - ad*_v mu| / (|v||mu|) "
             "= %.3e (4th-order central differences at 1e-3) %s %s %s", printed ?
             "printed eq. (34) v + [v,sigma]/2 + [[v,sigma],sigma]/12 + ..." :
             "Sigma form B_j+/j! ad^j_sigma v, B1+ = +1/2 (docs/schemes.md#rkmk)", tok[1], printed ?
             "the printed expansion" : "the Bernoulli series to order 30", d,
             c->outcome == SLPI_CHECK_PASS ? "meets" : "misses", tok[3], tok[4]);
}

/* adstar so3 <= X | adstar son N +|- <= X (V18) */
static void check_adstar(slpi_audit_check *c, char **tok, int n)
{
    slpi_error err = {0, ""};
    double d;
    if (n == 4 && !strcmp(tok[1], "so3")) {
        d = slpi_gaps_cayley_ad_so3(200, 1);
        gap_outcome(c, tok[2], tok[3], d);
        snprintf(c->evidence, sizeof c->evidence, "SO(3) vector form, c = +1/4 and -1/4, 200 random "
                 "x (|x| ~ 0.2..15) and Pi: max |A_c(-x) Pi - tau(x)^T A_c(x) Pi| / (|Pi| (1 + "
                 "|x|^2)) = %.3e with the fast path's Cayley tau (%s %s %s)", d,
                 c->outcome == SLPI_CHECK_PASS ? "meets" : "misses", tok[2], tok[3]);
        return;
    }
    if (n != 6 || strcmp(tok[1], "son") || (strcmp(tok[3], "+") && strcmp(tok[3], "-"))) {
        unable(c, "check syntax: %s", "adstar so3 <= X | adstar son N +|- <= X");
        return;
    }
    int sg = tok[3][0] == '+' ? 1 : -1, dim = atoi(tok[2]);
    if (slpi_gaps_cayley_ad_son(dim, sg, 100, 1, &d, &err)) {
        unable(c, "adstar: %s", err.msg);
        return;
    }
    gap_outcome(c, tok[4], tok[5], d);
    snprintf(c->evidence, sizeof c->evidence, "so(%d) matrix form, A(x) mu = mu + [x,mu]/2 %s x mu x/4 "
             "(%s), Ad*_g mu = g^-1 mu g, tau = (I - x/2)^-1 (I + x/2): max over 100 random skew x, "
             "mu of |tau^-1 A(x) mu tau - A(-x) mu|_max / (|mu|_max (1 + |x|_max^2)) = %.3e (%s %s %s)",
             dim, sg > 0 ? "-" : "+", sg > 0 ? "the dual of d tau^-1, c = +1/4" :
             "the c = -1/4 analogue", d, c->outcome == SLPI_CHECK_PASS ? "meets" : "misses",
             tok[4], tok[5]);
}

/* sviident STEPS xi|ident|mid <= X (V20) */
static void check_sviident(const slpi_audit *a, slpi_audit_check *c, char **tok, int n)
{
    slpi_problem p;
    slpi_error err = {0, ""};
    slpi_gaps_svi_result r;
    if (steps_case(a, c, n, 5, "sviident STEPS xi|ident|mid <= X", tok, 1, &p)) return;
    int k = !strcmp(tok[2], "xi") ? 0 : !strcmp(tok[2], "ident") ? 1 : !strcmp(tok[2], "mid") ? 2 : -1;
    if (k < 0) {
        unable(c, "check syntax: %s", "sviident STEPS xi|ident|mid <= X");
        return;
    }
    if (slpi_gaps_svi_identities(&p, p.steps, &r, &err)) {
        unable(c, "sviident: %s", err.msg);
        return;
    }
    double v = k == 0 ? r.xi : k == 1 ? r.ident : r.mid;
    gap_outcome(c, tok[3], tok[4], v);
    double cc = p.svi_c == 0 ? 0.25 : p.svi_c;
    snprintf(c->evidence, sizeof c->evidence, "%ld SVI-SO3 steps (c = %+g, h = %g) on the canonical "
             "noise; x recovered from R_{k+1} = tau^2, A and B solved from (62): fixed point "
             "|x - h xi((A+B)/2)| = %.2f u; identities Pi1 - Pi0 = -x cross (A+B) and Pi0 + Pi1 = "
             "s (A+B) + (1/4 + c)(x.(A+B)) x to %.2f u |Pi| (n = 3); against one IM-DIRECT step "
             "of h/s^2 with dW/s: max |Pi1 - IM| / |Pi0| = %.3e (s >= %.6f); checked: %s %s %s",
             r.steps, cc, p.h, r.xi, r.ident, r.mid, r.smin, tok[2], tok[3], tok[4]);
    snprintf(c->command, sizeof c->command, "slpi audit --only %s  (case %s)", c->id, c->kase);
}

/* svivs det|quad <= X (V16) */
static void check_svivs(slpi_audit_check *c, char **tok, int n)
{
    slpi_error err = {0, ""};
    double det, quad;
    if (n != 4 || (strcmp(tok[1], "det") && strcmp(tok[1], "quad"))) {
        unable(c, "check syntax: %s", "svivs det|quad <= X");
        return;
    }
    if (slpi_gaps_svivs(1.0, 0.1, 200, 1, &det, &quad, &err)) {
        unable(c, "svivs: %s", err.msg);
        return;
    }
    gap_outcome(c, tok[2], tok[3], !strcmp(tok[1], "det") ? det : quad);
    snprintf(c->evidence, sizeof c->evidence, "SVI-VS (eq. (14)) on the Kubo oscillator, sigma = 1, "
             "dt = 0.1, 200 random states and dW ~ N(0, dt): max |det D - 1| = %.3e (central "
             "differences), max |q1^2 + p1^2 - q0^2 - p0^2| / (q0^2 + p0^2) = %.3e; checked: %s %s %s",
             det, quad, tok[1], tok[2], tok[3]);
}

/* lifted A STEPS group|proj|half|equiv <= X (I13) */
static void check_lifted(const slpi_audit *a, slpi_audit_check *c, char **tok, int n)
{
    slpi_problem p;
    slpi_error err = {0, ""};
    slpi_gaps_lifted_result r;
    if (steps_case(a, c, n, 6, "lifted A STEPS group|proj|half|equiv <= X", tok, 2, &p)) return;
    static const char *what[] = {"group", "proj", "half", "equiv"};
    int k = -1;
    for (int i = 0; i < 4; i++)
        if (!strcmp(tok[3], what[i])) k = i;
    if (k < 0) {
        unable(c, "check syntax: %s", "lifted A STEPS group|proj|half|equiv <= X");
        return;
    }
    double aw = atof(tok[1]);
    if (slpi_gaps_lifted(&p, aw, p.steps, 1, &r, &err)) {
        unable(c, "lifted: %s", err.msg);
        return;
    }
    double v[4] = {r.group, r.proj, r.half, r.equiv};
    gap_outcome(c, tok[4], tok[5], v[k]);
    snprintf(c->evidence, sizeof c->evidence, "lifted midpoint on T*SO(3), half-weight a = %g (%s), "
             "%ld steps of h = %g from a random (Q0, P0): max |Q^T Q - I| = %.2e; mu o Phi_h vs "
             "the fast ISOMP step: %.3e relative at (h, dW), %.3e at (h/2, dW/2); equivariance "
             "|Phi(gQ, gP) - g Phi(Q, P)| = %.2e; checked: %s %s %s", aw,
             aw == 0.5 ? "consistent form, docs/schemes.md#isomp" : aw == 0.25 ? "printed (21)-(22)" : "other",
             r.steps, p.h, r.group, r.proj, r.half, r.equiv, tok[3], tok[4], tok[5]);
    snprintf(c->command, sizeof c->command, "slpi audit --only %s  (case %s)", c->id, c->kase);
}

/* ---- test NAME...: the project's unit-test programs (build/tests, or $SLPI_BUILD/tests) */
static void check_tests(const slpi_audit *a, slpi_audit_check *c, char **tok, int n)
{
    const char *b = getenv("SLPI_BUILD");
    int pass = 1;
    c->evidence[0] = 0;
    snprintf(c->command, sizeof c->command, "make check (programs");
    for (int i = 1; i < n; i++) {
        char bin[SLPI_PATH_MAX], cmd[3 * SLPI_PATH_MAX], last[256] = "";
        snprintf(bin, sizeof bin, "%s/tests/%s", b ? b : "build", tok[i]);
        if (access(bin, X_OK)) {
            unable(c, "unit test %s is not built (make tests)", tok[i]);
            return;
        }
        snprintf(cmd, sizeof cmd, "'%s' > '%s/data/%s.log' 2>&1", bin, a->outdir, tok[i]);
        int rc = system(cmd);
        snprintf(cmd, sizeof cmd, "%s/data/%s.log", a->outdir, tok[i]);
        FILE *f = fopen(cmd, "r");
        char line[256];
        while (f && fgets(line, sizeof line, f))
            if (strstr(line, "checks")) snprintf(last, sizeof last, "%s", line);
        if (f) fclose(f);
        last[strcspn(last, "\n")] = 0;
        pass &= rc == 0;
        size_t l = strlen(c->evidence);
        snprintf(c->evidence + l, sizeof c->evidence - l, "%s%s: %s (%s)", l ? "; " : "", tok[i],
                 rc == 0 ? "passed" : "FAILED", last);
        l = strlen(c->command);
        snprintf(c->command + l, sizeof c->command - l, " build/tests/%s", tok[i]);
    }
    strcat(c->command, ")");
    set_outcome(c, pass, pass);
}

void slpi_audit_eval(const slpi_audit *a, slpi_audit_check *c)
{
    char buf[256], *tok[16];
    if (check_of(a, c) != c->check) snprintf(c->check, sizeof c->check, "%s", c->full);  /* FULL=1 */
    int n = tokens(check_of(a, c), buf, sizeof buf, tok, 16);
    c->figure[0] = 0;
    c->command[0] = 0;
    if (n < 1) {
        unable(c, "empty check%s", "");
    } else if (!strcmp(tok[0], "max") || !strcmp(tok[0], "fails")) {
        check_run(a, c, tok, n);
    } else if (!strcmp(tok[0], "sphere")) {
        check_sphere(a, c, tok, n);
    } else if (!strcmp(tok[0], "snapshots")) {
        check_snapshots(a, c, tok, n);
    } else if (!strcmp(tok[0], "ref")) {
        check_ref(a, c, tok, n);
    } else if (!strcmp(tok[0], "poisson") || !strcmp(tok[0], "refpoisson")) {
        check_poisson(a, c, tok, n);
    } else if (!strcmp(tok[0], "slope")) {
        check_slope(a, c, tok, n);
    } else if (!strcmp(tok[0], "gap")) {
        check_gap(a, c, tok, n);
    } else if (!strcmp(tok[0], "resolvable")) {
        check_resolvable(a, c, tok, n);
    } else if (!strcmp(tok[0], "weakexact")) {
        check_weakexact(a, c, tok, n);
    } else if (!strcmp(tok[0], "moments")) {
        check_moments(c);
    } else if (!strcmp(tok[0], "thresholds")) {
        check_thresholds(c);
    } else if (!strcmp(tok[0], "cayleypi")) {
        check_cayleypi(c);
    } else if (!strcmp(tok[0], "dexpinv")) {
        check_dexpinv(c, tok, n);
    } else if (!strcmp(tok[0], "adstar")) {
        check_adstar(c, tok, n);
    } else if (!strcmp(tok[0], "sviident")) {
        check_sviident(a, c, tok, n);
    } else if (!strcmp(tok[0], "svivs")) {
        check_svivs(c, tok, n);
    } else if (!strcmp(tok[0], "lifted")) {
        check_lifted(a, c, tok, n);
    } else if (!strcmp(tok[0], "test")) {
        check_tests(a, c, tok, n);
    } else if (!strcmp(tok[0], "unable")) {
        unable(c, "%s", check_of(a, c) + 7);
    } else {
        unable(c, "unknown check '%s'", tok[0]);
    }
}
