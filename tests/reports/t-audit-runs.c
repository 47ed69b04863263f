/* t-audit-runs.c — the audit's checks on runs of a case (reports/audit-runs.c,
 * reports/audit-poisson.c): versus, sphere, ensemble, snapshots, resolvable, unable on
 * small cases; one run judged by two thresholds; the Poisson defect two ways (fast
 * doubles vs certified balls, V4, V19); a report folder that cannot be written or whose
 * path is 4050 bytes long; the vorticity picture (Parseval: int omega^2 = |X|_F^2). */
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#include "auditutil.h"

/* The vorticity picture (reports/zeitlin-snapshot.c) is an orthonormal expansion: over the
 * sphere, int omega^2 dOmega = |X|_F^2 for a traceless state X of su(N) (Parseval for the
 * normalised spherical harmonics and the orthonormal basis Y_alpha), here by the midpoint
 * rule on a 96 x 192 latitude-longitude grid, N = 2..7, random states (seen: within
 * 4e-5 relative; bound 1e-3). */
static void check_vorticity_norm(void)
{
    enum { NLAT = 96, NLON = 192 };
    static double grid[NLAT * NLON];
    const double pi = 3.14159265358979323846;
    for (int N = 2; N <= 7; N++) {
        slpi_vort *v = NULL;
        slpi_error err = { 0, "" };
        double x[64], f2 = 0, tr = 0, q = 0;
        TEST_CHECKF(slpi_vort_create(&v, N, &err) == SLPI_OK, "N = %d: %s", N, err.msg);
        if (!v) continue;
        int d = N * N;
        for (int i = 0; i < d; i++) x[i] = test_rand_uniform(-1, 1);
        for (int a = 0; a < N; a++) tr += x[a] / N;
        for (int a = 0; a < N; a++) x[a] -= tr;
        for (int i = 0; i < d; i++) f2 += (i < N ? 1 : 2) * x[i] * x[i]; /* off-diagonals twice */
        slpi_vort_grid(v, x, NLAT, NLON, grid);
        for (int i = 0; i < NLAT; i++) {
            double theta = pi * (i + 0.5) / NLAT;
            for (int j = 0; j < NLON; j++) q += grid[i * NLON + j] * grid[i * NLON + j] * sin(theta);
        }
        q *= (pi / NLAT) * (2 * pi / NLON);
        TEST_CHECKF(fabs(q - f2) <= 1e-3 * f2, "N = %d: int omega^2 = %.6g, |X|_F^2 = %.6g", N, q, f2);
        slpi_vort_free(v);
    }
}

/* a run that cannot be written (a report folder without data/, whose name holds a
 * '%'): UNABLE, the evidence quoting the error as text, never as a format */
static void check_unwritable_folder(const char *dir)
{
    char pct[128];
    snprintf(pct, sizeof pct, "%s/pct%%s%%d", dir);
    TEST_CHECK(mkdir(pct, 0755) == 0);
    const char *reg = "# test registry\n"
                      "= X1 | s | m | p | -\n"
                      "X1 | t | CONFIRMED | claim | iso/rigid-body/long steps=8 | max H0_rel_dev <= 1 | -\n"
                      "X1 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
    slpi_audit a;
    if (load_run(reg, pct, &a) == SLPI_OK && a.nchecks == 2) {
        char want[512];
        snprintf(want, sizeof want, "the case could not be run: %s/data/", pct);
        TEST_CHECKF(a.checks[0].outcome == SLPI_CHECK_UNABLE && !strncmp(a.checks[0].evidence, want, strlen(want)) &&
                        strstr(a.checks[0].evidence, ".tsv: cannot write"),
                    "unwritable run: '%s'", a.checks[0].evidence);
        slpi_audit_free(&a);
    }
    rmdir(pct);
}

/* a report folder path of 4050 bytes (nested folders of 200 bytes under dir; slpi audit
 * --out accepts 4000, SLPI_AUDIT_OUTDIR_MAX, the library takes any whose files' paths
 * fit): a run check writes its data file at the whole path and is met (a data path cut
 * short is refused, never written past) */
static void check_long_folder(const char *dir)
{
    char deep[SLPI_PATH_MAX], comp[251]; /* the last folder's name: 1..201 bytes */
    memset(comp, 'd', 250);
    comp[250] = 0;
    snprintf(deep, sizeof deep, "%s", dir);
    int ok = 1;
    while (ok && strlen(deep) + 1 + 200 < 4050 - 1) {
        size_t l = strlen(deep);
        deep[l] = '/';
        memcpy(deep + l + 1, comp, 200);
        deep[l + 201] = 0;
        ok = mkdir(deep, 0755) == 0;
    }
    size_t last = 4050 - strlen(deep) - 1;
    strcat(deep, "/");
    strncat(deep, comp, last);
    char sub[SLPI_PATH_MAX + 16];
    snprintf(sub, sizeof sub, "%s/data", deep);
    ok = ok && mkdir(deep, 0755) == 0 && mkdir(sub, 0755) == 0;
    snprintf(sub, sizeof sub, "%s/figures", deep);
    ok = ok && mkdir(sub, 0755) == 0;
    TEST_CHECKF(ok && strlen(deep) == 4050, "a folder of %zu bytes", strlen(deep));
    const char *reg = "# test registry\n"
                      "= X1 | s | m | p | -\n"
                      "X1 | t | CONFIRMED | claim | iso/rigid-body/long steps=8 | max H0 <= 1 | -\n"
                      "X1 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
    slpi_audit a;
    memset(&a, 0, sizeof a);
    if (ok && load_run(reg, deep, &a) == SLPI_OK && a.nchecks == 2) {
        struct stat st;
        int w = snprintf(sub, sizeof sub, "%s/data/%s.tsv", deep, a.checks[0].figure);
        TEST_CHECKF(a.checks[0].outcome == SLPI_CHECK_PASS && a.checks[0].figure[0] && w < (int)sizeof sub &&
                        stat(sub, &st) == 0 && st.st_size > 0,
                    "a %zu-byte report folder: %s (%s)", strlen(deep), a.checks[0].evidence, a.checks[0].figure);
    }
    slpi_audit_free(&a);
}

/* the run checks on small cases: versus (the ratio of a diagnostic's change with and
 * without a key; a KEY=VALUE without '=' is a syntax error, UNABLE), sphere (ISOMP
 * keeps |Pi|), ensemble spread (paths differ at T/4 and T), snapshots (the evidence
 * names the snapshot times 0, T/2, T), a critical-step sweep over the case's horizon;
 * and two small studies: resolvable (levels A..B) and weakexact (the quadrature's weak
 * errors halve with h) */
static void check_run_checks(const char *dir)
{
    slpi_error err = { 0, "" };
    const char *reg =
        "# test registry\n"
        "= X1 | s | m | p | -\n"
        "X1 | t | CONFIRMED | claim | iso/rigid-body/long steps=8 | versus H0_rel_dev noise=none >= 0.5 | -\n"
        "X1 | t | CONFIRMED | ev | - | unable  no such computation in this build | -\n"
        "X1 | t | CONFIRMED | ev | iso/rigid-body/long steps=8 | sphere 0 | -\n"
        "X1 | t | CONFIRMED | ev | iso/rigid-body/long steps=8 | ensemble 3 spread 1e-20 | -\n"
        "X1 | t | CONFIRMED | ev | iso/zeitlin/long N=5 h=0.25 | snapshots 4 >= 0.01 | -\n"
        "X1 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
        "X1 | t | CONFIRMED | ev | iso/so3/weak-exact | resolvable 3 4 6 16 1e6 >= 1 | -\n"
        "X1 | t | CONFIRMED | ev | iso/so3/weak-exact | weakexact isomp 0.9 1.1 | -\n"
        "X1 | t | CONFIRMED | ev | rkmk/heavy-top/critical-step T=0.4 h=0.4 maxit=10 | critical 0.4 0.4 0.1 1 0.4 0.4 | -\n"
        "X1 | t | CONFIRMED | ev | iso/rigid-body/long steps=40 scheme=trap-direct h=0.05 | sphere 0 | -\n"
        "X1 | t | CONFIRMED | ev | svi/so3/weak-exact | weakexact isomp 0.9 1.1 | -\n";
    slpi_audit a;
    if (load_run(reg, dir, &a) == SLPI_OK && a.nchecks == 11) {
        TEST_CHECKF(a.checks[0].outcome == SLPI_CHECK_PASS, "versus: %s", a.checks[0].evidence);
        TEST_CHECKF(a.checks[1].outcome == SLPI_CHECK_UNABLE &&
                        !strcmp(a.checks[1].evidence, "no such computation in this build"),
                    "unable: the reason is the rest of the check: '%s'", a.checks[1].evidence);
        TEST_CHECKF(a.checks[2].outcome == SLPI_CHECK_PASS, "sphere: %s", a.checks[2].evidence);
        TEST_CHECKF(a.checks[3].outcome == SLPI_CHECK_PASS && a.checks[3].value > 0, "ensemble spread: %s",
                    a.checks[3].evidence);
        TEST_CHECKF(a.checks[4].outcome == SLPI_CHECK_PASS && strstr(a.checks[4].evidence, "at t = 0, 0.5, 1 (figure)"),
                    "snapshots: %s", a.checks[4].evidence);
        TEST_CHECKF(a.checks[6].outcome == SLPI_CHECK_UNABLE && strstr(a.checks[6].evidence, " of 2 levels") &&
                        strstr(a.checks[6].evidence, "undecided >= 1") &&
                        strstr(a.checks[6].command, "--levels 3..4 --ref 6 --paths 16"),
                    "resolvable: %s (%s)", a.checks[6].evidence, a.checks[6].command);
        /* weak order 1: the quadrature errors at h = 2^-3..2^-8 halve with h */
        double e[6] = { 0 };
        const char *q = strstr(a.checks[7].evidence, "= ");
        int ok = a.checks[7].outcome == SLPI_CHECK_PASS && q &&
            sscanf(q, "= %lf, %lf, %lf, %lf, %lf, %lf", e, e + 1, e + 2, e + 3, e + 4, e + 5) == 6;
        for (int i = 0; ok && i < 5; i++) ok = e[i] > 1.8 * e[i + 1] && e[i] < 2.2 * e[i + 1];
        TEST_CHECKF(ok, "weakexact: %s", a.checks[7].evidence);
        /* its Monte Carlo clause compares E x_1 through the step with the exact oracle's
         * quadrature at each level (3, 4, 5, reference 7; slpi_weak_exact_scheme, which
         * t-converge checks against Simpson's rule): nonzero, near exp(-1/2), and z < 4 */
        static const char *qn[4] = { "q3", "q4", "q5", "qref" };
        static const int ql[4] = { 3, 4, 5, 7 };
        for (int i = 0; i < 4; i++) {
            double q = NAN, want = slpi_weak_exact_scheme(SLPI_SCHEME_ISOMP, 1, 1, ldexp(1, -ql[i]), 2, 1);
            for (int j = 0; j < a.checks[7].nnum; j++)
                if (!strcmp(a.checks[7].num_name[j], qn[i])) q = a.checks[7].num[j];
            TEST_CHECKF(q == want && fabs(q - exp(-0.5)) < 0.02,
                        "weakexact: %s = %.17g, the oracle's "
                        "quadrature at h = 2^-%d %.17g",
                        qn[i], q, ql[i], want);
        }
        TEST_CHECKF(strstr(a.checks[7].evidence, "agrees with") && strstr(a.checks[7].evidence, "(< 4)") &&
                        strstr(a.checks[7].command, "--phi x1 --exact"),
                    "weakexact: %s (%s)", a.checks[7].evidence, a.checks[7].command);
        /* the quadrature is the check's scheme's: a case running another is UNABLE */
        TEST_CHECKF(a.checks[10].outcome == SLPI_CHECK_UNABLE &&
                        strstr(a.checks[10].evidence, "the case runs svi, the check names isomp"),
                    "weakexact on another scheme's case: %s", a.checks[10].evidence);
        /* the critical-step sweep runs each h over the case's horizon: one step of h = 0.4
         * converges in 10 iterations (a second one would not) */
        /* sphere, row for row: TRAP-DIRECT leaves the sphere; the check's number is the
         * largest ||x(t)| - |x(0)|| over every row of its trajectory, recomputed here
         * from the file (whose worst row lies in its later half, so that a check reading
         * part of the rows reports less) */
        {
            char data[SLPI_PATH_MAX + 96];
            slpi_traj t;
            snprintf(data, sizeof data, "%s/data/%s.tsv", dir, a.checks[9].figure);
            int rrc = slpi_traj_read(data, &t, &err);
            TEST_CHECKF(rrc == SLPI_OK, "sphere: %s: %s", data, err.msg);
            double r0 = 0, dev = 0;
            long worst = 0;
            for (long r = 0; rrc == SLPI_OK && r < t.nrows; r++) {
                const double *v = t.mid + (size_t)r * (size_t)(t.ncols + 1) + 1;
                double rad = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
                if (r == 0) r0 = rad;
                if (fabs(rad - r0) > dev) {
                    dev = fabs(rad - r0);
                    worst = r;
                }
            }
            TEST_CHECKF(rrc == SLPI_OK && t.nrows == 41 && 2 * worst > t.nrows && dev > 1e-9 &&
                            a.checks[9].outcome == SLPI_CHECK_FAIL && a.checks[9].value == dev,
                        "sphere of TRAP-DIRECT: the check's %.17g (%s) against %.17g over the file's %ld rows "
                        "(worst row %ld)",
                        a.checks[9].value, a.checks[9].evidence, dev, rrc == SLPI_OK ? t.nrows : -1L, worst);
            if (rrc == SLPI_OK) slpi_traj_free(&t);
        }
        TEST_CHECKF(strstr(a.checks[8].evidence, "T = 0.4): none up to h = 0.4") &&
                        strstr(a.checks[8].evidence, "h = 0.4: all converged (max 10 iterations)"),
                    "critical: %s", a.checks[8].evidence);
    } else {
        TEST_CHECKF(0, "run checks: %d checks loaded", a.nchecks);
    }
    slpi_audit_free(&a);
}

/* one run, two thresholds; Poisson defects fast vs certified */
static void check_one_run_two_thresholds(const char *dir)
{
    const char *reg =
        "= B1 | s | m | p | {2.steps} steps of h = {2.h}, up to T = {2.T}: {2.value}\n= B2 | s | m | p | -\n= B3 | s | m | p | -\n= B4 | s | m | p | -\n"
        "= B5 | s | m | p | -\n"
        "B1 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
        "B1 | t | CONFIRMED | claim | iso/rigid-body/long T=0.5 | max casimir_norm2_dev <= 1e-13 | -\n"
        "B2 | t | CONFIRMED | claim | iso/rigid-body/long T=0.5 | max casimir_norm2_dev >= 1e-13 | -\n"
        "B2 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
        "B4 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
        "B4 | t | CONFIRMED | claim | svi/rigid-body/energy-det h=0.2 svi_c=-0.25 | poisson >= 1e-7 | -\n"
        "B4 | t | CONFIRMED | claim | svi/rigid-body/energy-det h=0.2 svi_c=-0.25 | refpoisson >= 1e-7 | -\n"
        "B5 | t | CONFIRMED | claim | svi/rigid-body/energy-det h=0.2 | refpoisson <= 1e-12 | -\n"
        "B5 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
        "= B6 | s | m | p | -\n"
        "B6 | t | CONFIRMED | claim | iso/vortices/strong | slope strong 6 9 12 40 0.35 0.65 | -\n"
        "B6 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
    slpi_audit a;
    if (load_run(reg, dir, &a) == SLPI_OK) {
        const slpi_audit_check *b1 = check_of(&a, "B1", 1), *b2 = check_of(&a, "B2", 0);
        TEST_CHECKF(b1->outcome == SLPI_CHECK_PASS && b2->outcome == SLPI_CHECK_FAIL && b1->value == b2->value &&
                        b1->value < 1e-13,
                    "%s", b1->evidence);
        TEST_CHECK(b1->figure[0] && strstr(b1->command, "slpi run --preset iso/rigid-body/long"));
        /* a generated text states the run's own numbers, each from its name */
        char want[128];
        snprintf(want, sizeof want, "128 steps of h = 0.00391, up to T = 0.5: %.3g", b1->value);
        TEST_CHECKF(!strcmp(a.claims[0].why_text, want), "'%s' vs '%s'", a.claims[0].why_text, want);
        const slpi_audit_check *pf = check_of(&a, "B4", 1), *pr = check_of(&a, "B4", 2);
        TEST_CHECKF(verdict_of(&a, "B4") == SLPI_CLAIM_CONFIRMED &&
                        fabs(pf->value - pr->value) < 1e-9 * fmax(1, pr->value),
                    "fast %.6g vs certified %.6g", pf->value, pr->value);
        TEST_CHECKF(verdict_of(&a, "B5") == SLPI_CLAIM_CONFIRMED, "%s", check_of(&a, "B5", 0)->evidence);
        /* a slope whose point estimate lies in the window but whose CI straddles it */
        const slpi_audit_check *b6 = check_of(&a, "B6", 0);
        TEST_CHECKF(b6->outcome == SLPI_CHECK_UNABLE && b6->value >= 0.35 && b6->value <= 0.65, "%s", b6->evidence);
    }
    slpi_audit_free(&a);
}

/* growth: the evidence sentence states the running maximum at the first and the last
 * fitted step as "E at n = N", the last E the recorded at_end and its N the fit's end
 * ("over n = 16..N"); the slope in the sentence is the value (printed %.3f) */
static void check_growth_sentence(const char *dir)
{
    const char *reg = "= G1 | s | m | p | -\n"
                      "G1 | t | CONFIRMED | claim | rkmk/heavy-top/casimirs-tmk-421 T=2 | growth C2_dev 0 5 | -\n"
                      "G1 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
    slpi_audit a;
    if (load_run(reg, dir, &a) == SLPI_OK) {
        const slpi_audit_check *g = check_of(&a, "G1", 0);
        double at_end = NAN;
        for (int i = 0; i < g->nnum; i++)
            if (!strcmp(g->num_name[i], "at_end")) at_end = g->num[i];
        const char *over = strstr(g->evidence, "over n = 16..");
        char last[64], want[160], slope[32];
        snprintf(last, sizeof last, "%.*s", over ? (int)strcspn(over + 13, " ") : 0, over ? over + 13 : "");
        snprintf(want, sizeof want, "%.2e at n = %s; log-log slope", at_end, last);
        snprintf(slope, sizeof slope, "log-log slope %.3f ", g->value);
        TEST_CHECKF(g->outcome != SLPI_CHECK_UNABLE && over && last[0] && strstr(g->evidence, want) &&
                        strstr(g->evidence, slope),
                    "growth: '%s' lacks '%s' or '%s'", g->evidence, want, slope);
    }
    slpi_audit_free(&a);
}

int main(void)
{
    test_start("t-audit-runs", 11);
    check_vorticity_norm();
    char dir[] = "/tmp/slpi-t-audit-runs-XXXXXX";
    audit_test_dir(dir);
    check_unwritable_folder(dir);
    check_long_folder(dir);
    check_run_checks(dir);
    check_one_run_two_thresholds(dir);
    check_growth_sentence(dir);
    audit_test_rmdir(dir);
    TEST_END();
}
