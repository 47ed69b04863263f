/* t-reports.c — the claims audit (reports/audit*.c, claims.txt; docs/claims.md):
 *  - the registry holds every claim of docs/claims.md (R1-R19, I1-I23, V1-V24, X1-X8) and parses;
 *  - verdict rules from outcomes only (a registry with deliberately wrong expectations
 *    gets CONFIRMED / CONDITIONAL / DISCREPANCY / UNABLE from its checks; a control that
 *    does not come out as it demands makes the claim UNABLE; with one claim selected
 *    (--only) only its checks run and count);
 *  - every claim of the registry has a description and a control;
 *  - the per-claim cache: a second run loads every claim and reproduces the outcomes;
 *  - malformed registry lines (fields, roles, missing description or control, unknown
 *    check words, bad arity or numbers, bad cases, undeclared variants) are rejected
 *    with file:line;
 *  - variants: each decided alone, CRITERION-DEPENDENT when the decided ones differ,
 *    DISCREPANCY only on all of them; the texts' {K.NAME} numbers come from the run;
 *  - the cache: an edited entry (digest mismatch) or an outcome outside the enumeration is
 *    recomputed;
 *  - a diagnostic check end to end (pass and fail on the same run);
 *  - the Poisson defect two ways (fast doubles vs certified balls) and the SVI -1/4
 *    defect away from 0, +1/4 at FD level (V4, V19);
 *  - claims.json and index.html: every claim with its verdict;
 *  - the run and closed checks on small cases (versus, sphere, ensemble, snapshots, drift,
 *    test) and the vorticity picture (Parseval: int omega^2 = |X|_F^2);
 *  - the memo of converge studies fed more studies than it keeps (each found while kept,
 *    with its own result, nothing written past it). */
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reports/audit-checks.h"
#include "reports/reports.h"
#include "testutil.h"

static slpi_claim_verdict verdict_of(const slpi_audit *a, const char *id)
{
    for (int j = 0; j < a->nclaims; j++)
        if (!strcmp(a->claims[j].id, id)) return a->claims[j].verdict;
    return (slpi_claim_verdict)-1;
}

static const slpi_audit_check *check_of(const slpi_audit *a, const char *id, int k)
{
    for (int j = 0; j < a->nclaims; j++)
        if (!strcmp(a->claims[j].id, id)) return &a->checks[a->claims[j].first + k];
    return NULL;
}

/* Load a registry text into a (report folder dir) and evaluate it. */
static int load_run(const char *reg, const char *dir, slpi_audit *a)
{
    slpi_error err;
    memset(a, 0, sizeof *a);
    snprintf(a->outdir, sizeof a->outdir, "%s", dir);
    int rc = slpi_audit_load(a, test_temp_file(reg), &err);
    TEST_CHECKF(rc == SLPI_OK, "%s", err.msg);
    if (rc == SLPI_OK) slpi_audit_run(a, NULL, NULL);
    return rc;
}

/* Load a registry text at a size; 1 when it loads, else its error must contain want. */
static int loads(const char *reg, int full, const char *want, slpi_audit *a)
{
    slpi_error err = {0, ""};
    memset(a, 0, sizeof *a);
    a->full = full;
    int rc = slpi_audit_load(a, test_temp_file(reg), &err);
    if (rc != SLPI_OK) TEST_CHECKF(want && strstr(err.msg, want), "'%s' lacks '%s'", err.msg, want);
    else TEST_CHECKF(!want, "loaded; expected an error with '%s'", want);
    return rc == SLPI_OK;
}

/* The text of a file (up to 1 MB; "" if it cannot be read); free it. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    char *text = calloc(1, 1 << 20);
    if (f && text) text[fread(text, 1, (1 << 20) - 1, f)] = 0;
    if (f) fclose(f);
    return text;
}

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
        slpi_error err = {0, ""};
        double x[64], f2 = 0, tr = 0, q = 0;
        TEST_CHECKF(slpi_vort_create(&v, N, &err) == SLPI_OK, "N = %d: %s", N, err.msg);
        if (!v) continue;
        int d = N * N;
        for (int i = 0; i < d; i++) x[i] = test_rand_uniform(-1, 1);
        for (int a = 0; a < N; a++) tr += x[a] / N;
        for (int a = 0; a < N; a++) x[a] -= tr;
        for (int i = 0; i < d; i++) f2 += (i < N ? 1 : 2) * x[i] * x[i];   /* off-diagonals twice */
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

/* The audit's memo of converge studies (reports/audit-studies.c), fed three times more
 * studies than it keeps: each study is found while it is among the last SLPI_AUDIT_MEMO
 * put, with its own result, and not after; nothing is written past the memo (a guard
 * after it keeps its pattern). */
static void check_memo(void)
{
    static struct {
        slpi_audit_memo m;
        unsigned char guard[sizeof(slpi_audit_memo)];
    } t;
    memset(t.guard, 0xa5, sizeof t.guard);
    static slpi_conv_result r;
    char cmd[64];
    for (int k = 0; k < 3 * SLPI_AUDIT_MEMO + 1; k++) {
        snprintf(cmd, sizeof cmd, "slpi converge --paths %d", 1000 + k);
        r.nlev = k;
        r.paths = 1000 + k;
        slpi_audit_memo_put(&t.m, cmd, &r);
        for (int j = 0; j <= k; j++) {
            snprintf(cmd, sizeof cmd, "slpi converge --paths %d", 1000 + j);
            const slpi_conv_result *f = slpi_audit_memo_find(&t.m, cmd);
            if (j > k - SLPI_AUDIT_MEMO)
                TEST_CHECKF(f && f->nlev == j && f->paths == 1000 + j, "memo after %d studies: study %d %s", k + 1,
                            j, f ? "holds another result" : "not found");
            else
                TEST_CHECKF(f == NULL, "memo after %d studies: study %d still found", k + 1, j);
        }
    }
    for (size_t i = 0; i < sizeof t.guard; i++)
        if (t.guard[i] != 0xa5) {
            TEST_CHECKF(0, "the memo wrote past its %d entries (byte %zu after it)", (int)SLPI_AUDIT_MEMO, i);
            break;
        }
}

int main(void)
{
    test_start("t-reports", 11);
    check_vorticity_norm();
    check_memo();
    slpi_error err;
    char dir[] = "/tmp/slpi-t-reports-XXXXXX";
    TEST_CHECK(mkdtemp(dir) != NULL);
    char sub[64];
    snprintf(sub, sizeof sub, "%s/figures", dir);
    mkdir(sub, 0755);
    snprintf(sub, sizeof sub, "%s/data", dir);
    mkdir(sub, 0755);

    /* the registry covers docs/claims.md */
    {
        slpi_audit a;
        memset(&a, 0, sizeof a);
        int rc = slpi_audit_load(&a, "reports/claims.txt", &err);
        TEST_CHECKF(rc == SLPI_OK, "%s", err.msg);
        static const struct { char k; int n; } fam[] = {{'R', 20}, {'I', 26}, {'V', 26}, {'X', 8}};
        for (int f = 0; rc == SLPI_OK && f < 4; f++)
            for (int i = 1; i <= fam[f].n; i++) {
                char id[16];
                snprintf(id, sizeof id, "%c%d", fam[f].k, i);
                TEST_CHECKF(check_of(&a, id, 0) != NULL,
                            "claim %s missing from the registry", id);
            }
        TEST_CHECKF(a.nclaims == 80, "%d claims", a.nclaims);
        slpi_audit_free(&a);
    }

    /* a run that cannot be written (a report folder without data/, whose name holds a
     * '%'): UNABLE, the evidence quoting the error as text, never as a format */
    {
        char pct[128];
        snprintf(pct, sizeof pct, "%s/pct%%s%%d", dir);
        TEST_CHECK(mkdir(pct, 0755) == 0);
        const char *reg =
            "# test registry\n"
            "= X1 | s | m | p | -\n"
            "X1 | t | CONFIRMED | claim | iso/rigid-body/long steps=8 | max H0_rel_dev <= 1 | -\n"
            "X1 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
        slpi_audit a;
        if (load_run(reg, pct, &a) == SLPI_OK && a.nchecks == 2) {
            char want[512];
            snprintf(want, sizeof want, "the case could not be run: %s/data/", pct);
            TEST_CHECKF(a.checks[0].outcome == SLPI_CHECK_UNABLE && !strncmp(a.checks[0].evidence, want, strlen(want)) &&
                        strstr(a.checks[0].evidence, ".tsv: cannot write"), "unwritable run: '%s'", a.checks[0].evidence);
            slpi_audit_free(&a);
        }
        rmdir(pct);
    }

    /* a report folder path of 4050 bytes (nested folders of 200 bytes under dir; slpi audit
     * --out accepts 4000, SLPI_AUDIT_OUTDIR_MAX, the library takes any whose files' paths
     * fit): a run check writes its data file at the whole path and is met (a data path cut
     * short is refused, never written past) */
    {
        char deep[SLPI_PATH_MAX], comp[201];
        memset(comp, 'd', 200);
        comp[200] = 0;
        snprintf(deep, sizeof deep, "%s", dir);
        int ok = 1;
        while (ok && strlen(deep) + 1 + 200 < 4050 - 1) {
            strcat(deep, "/");
            strcat(deep, comp);
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
        const char *reg =
            "# test registry\n"
            "= X1 | s | m | p | -\n"
            "X1 | t | CONFIRMED | claim | iso/rigid-body/long steps=8 | max H0 <= 1 | -\n"
            "X1 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
        slpi_audit a;
        memset(&a, 0, sizeof a);
        if (ok && load_run(reg, deep, &a) == SLPI_OK && a.nchecks == 2) {
            struct stat st;
            snprintf(sub, sizeof sub, "%s/data/%s.tsv", deep, a.checks[0].figure);
            TEST_CHECKF(a.checks[0].outcome == SLPI_CHECK_PASS && a.checks[0].figure[0] && stat(sub, &st) == 0 &&
                        st.st_size > 0, "a %zu-byte report folder: %s (%s)", strlen(deep), a.checks[0].evidence,
                        a.checks[0].figure);
        }
        slpi_audit_free(&a);
    }

    /* weakexact's Monte Carlo clause refuses level differences that disagree with the exact
     * quadrature: fed the oracle's own differences (z = 0), 3.9 SE off (agrees), 10 SE off
     * on one level (refused, z = 10), off with a zero SE (refused, z infinite) */
    {
        slpi_conv_result r;
        memset(&r, 0, sizeof r);
        r.nlev = 3;
        static const int lev[4] = {3, 4, 5, 7};
        for (int i = 0; i < 4; i++)
            r.quad[i] = slpi_weak_exact_scheme(SLPI_SCHEME_ISOMP, 1, 1, ldexp(1, -lev[i]), 2, 1);
        double z, off[4] = {0, 3.9, 10, -10};
        for (int k = 0; k < 4; k++) {
            for (int i = 0; i < 3; i++) {
                r.cell[SLPI_CONV_MLMC][i].se = 1e-4;
                r.cell[SLPI_CONV_MLMC][i].mean = r.quad[i] - r.quad[i + 1] + (i == 1 ? off[k] * 1e-4 : 0);
            }
            int agree = slpi_audit_weakexact_mc(&r, &z);
            TEST_CHECKF(agree == (fabs(off[k]) < 4) && fabs(z - fabs(off[k])) < 1e-6, "weakexact MC clause "
                        "%g SE off: agree %d, z %.17g", off[k], agree, z);
        }
        r.cell[SLPI_CONV_MLMC][1].se = 0;
        TEST_CHECKF(!slpi_audit_weakexact_mc(&r, &z) && isinf(z), "zero SE, off by 10 SE: z %g", z);
        r.cell[SLPI_CONV_MLMC][1].mean = r.quad[1] - r.quad[2];
        TEST_CHECKF(slpi_audit_weakexact_mc(&r, &z) && z == 0, "zero SE, equal: z %g", z);
    }

    /* the run checks on small cases: versus (the ratio of a diagnostic's change with and
     * without a key; a KEY=VALUE without '=' is a syntax error, UNABLE), sphere (ISOMP
     * keeps |Pi|), ensemble spread (paths differ at T/4 and T), snapshots (the evidence
     * names the snapshot times 0, T/2, T), a critical-step sweep over the case's horizon;
     * and two small studies: resolvable (levels A..B) and weakexact (the quadrature's weak
     * errors halve with h) */
    {
        const char *reg =
            "# test registry\n"
            "= X1 | s | m | p | -\n"
            "X1 | t | CONFIRMED | claim | iso/rigid-body/long steps=8 | versus H0_rel_dev noise=none >= 0 | -\n"
            "X1 | t | CONFIRMED | ev | - | unable  no such computation in this build | -\n"
            "X1 | t | CONFIRMED | ev | iso/rigid-body/long steps=8 | sphere 0 | -\n"
            "X1 | t | CONFIRMED | ev | iso/rigid-body/long steps=8 | ensemble 3 spread 0 | -\n"
            "X1 | t | CONFIRMED | ev | iso/zeitlin/long N=5 h=0.25 | snapshots 4 >= 0 | -\n"
            "X1 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
            "X1 | t | CONFIRMED | ev | iso/so3/weak-exact | resolvable 3 4 6 16 1e6 >= 0 | -\n"
            "X1 | t | CONFIRMED | ev | iso/so3/weak-exact | weakexact isomp 0.9 1.1 | -\n"
            "X1 | t | CONFIRMED | ev | rkmk/heavy-top/critical-step T=0.4 h=0.4 maxit=10 | critical 0.4 0.4 0.1 1 0 1 | -\n"
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
            TEST_CHECKF(a.checks[6].outcome == SLPI_CHECK_PASS && strstr(a.checks[6].evidence, " of 2 levels") &&
                        strstr(a.checks[6].command, "--levels 3..4 --ref 6 --paths 16"), "resolvable: %s (%s)",
                        a.checks[6].evidence, a.checks[6].command);
            /* weak order 1: the quadrature errors at h = 2^-3..2^-8 halve with h */
            double e[6] = {0};
            const char *q = strstr(a.checks[7].evidence, "= ");
            int ok = a.checks[7].outcome == SLPI_CHECK_PASS && q &&
                     sscanf(q, "= %lf, %lf, %lf, %lf, %lf, %lf", e, e + 1, e + 2, e + 3, e + 4, e + 5) == 6;
            for (int i = 0; ok && i < 5; i++) ok = e[i] > 1.8 * e[i + 1] && e[i] < 2.2 * e[i + 1];
            TEST_CHECKF(ok, "weakexact: %s", a.checks[7].evidence);
            /* its Monte Carlo clause compares E x_1 through the step with the exact oracle's
             * quadrature at each level (3, 4, 5, reference 7; slpi_weak_exact_scheme, which
             * t-converge checks against Simpson's rule): nonzero, near exp(-1/2), and z < 4 */
            static const char *qn[4] = {"q3", "q4", "q5", "qref"};
            static const int ql[4] = {3, 4, 5, 7};
            for (int i = 0; i < 4; i++) {
                double q = NAN, want = slpi_weak_exact_scheme(SLPI_SCHEME_ISOMP, 1, 1, ldexp(1, -ql[i]), 2, 1);
                for (int j = 0; j < a.checks[7].nnum; j++)
                    if (!strcmp(a.checks[7].num_name[j], qn[i])) q = a.checks[7].num[j];
                TEST_CHECKF(q == want && fabs(q - exp(-0.5)) < 0.02, "weakexact: %s = %.17g, the oracle's "
                            "quadrature at h = 2^-%d %.17g", qn[i], q, ql[i], want);
            }
            TEST_CHECKF(strstr(a.checks[7].evidence, "agrees with") && strstr(a.checks[7].evidence, "(< 4)") &&
                        strstr(a.checks[7].command, "--phi x1 --exact"), "weakexact: %s (%s)",
                        a.checks[7].evidence, a.checks[7].command);
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
                    if (fabs(rad - r0) > dev) { dev = fabs(rad - r0); worst = r; }
                }
                TEST_CHECKF(rrc == SLPI_OK && t.nrows == 41 && 2 * worst > t.nrows && dev > 1e-9 &&
                            a.checks[9].outcome == SLPI_CHECK_FAIL && a.checks[9].value == dev,
                            "sphere of TRAP-DIRECT: the check's %.17g (%s) against %.17g over the file's %ld rows "
                            "(worst row %ld)", a.checks[9].value, a.checks[9].evidence, dev,
                            rrc == SLPI_OK ? t.nrows : -1L, worst);
                if (rrc == SLPI_OK) slpi_traj_free(&t);
            }
            TEST_CHECKF(strstr(a.checks[8].evidence, "T = 0.4): none up to h = 0.4") &&
                        strstr(a.checks[8].evidence, "h = 0.4: all converged (max 10 iterations)"), "critical: %s",
                        a.checks[8].evidence);
        } else {
            TEST_CHECKF(0, "run checks: %d checks loaded", a.nchecks);
        }
        slpi_audit_free(&a);
    }

    /* closed checks: drift names what it measured (the case's noise, or the so(3) control),
     * and test reads the recorded unit-test results (slpi audit --tests FILE) */
    {
        const char *reg =
            "# test registry\n"
            "= X1 | s | m | p | -\n"
            "X1 | t | CONFIRMED | claim | iso/rigid-body/long steps=8 | drift case >= 0 | -\n"
            "X1 | t | CONFIRMED | ev | iso/rigid-body/long steps=8 | drift x1x2 >= 0 | -\n"
            "X1 | t | CONFIRMED | ev | - | test t-one t-two | -\n"
            "X1 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
        slpi_audit a;
        slpi_error lerr = {0, ""};
        memset(&a, 0, sizeof a);
        snprintf(a.outdir, sizeof a.outdir, "%s", dir);
        a.tests = test_temp_file("t-one\t0\t12 checks, 0 failed\nt-two\t1\t5 checks, 1 failed\n");
        if (slpi_audit_load(&a, test_temp_file(reg), &lerr) == SLPI_OK && a.nchecks == 4) {
            slpi_audit_run(&a, NULL, NULL);
            TEST_CHECKF(strstr(a.checks[0].evidence, "for the noise of rigid-body") != NULL, "drift case: %s",
                        a.checks[0].evidence);
            TEST_CHECKF(strstr(a.checks[1].evidence, "for the so(3) control H_1 = a x_1 x_2: ") != NULL,
                        "drift x1x2: %s", a.checks[1].evidence);
            TEST_CHECKF(a.checks[2].outcome == SLPI_CHECK_FAIL &&
                        strstr(a.checks[2].evidence, "t-one: exit 0 (12 checks, 0 failed); t-two: exit 1 (5 checks, 1 failed)"),
                        "test t-one t-two: %s", a.checks[2].evidence);
        } else {
            TEST_CHECKF(0, "closed checks: %s (%d checks)", lerr.msg, a.nchecks);
        }
        slpi_audit_free(&a);
    }

    /* sizes in words, from the case's problem and the check: the system's size and the
     * steps of a run, a sweep's step sizes, seeds and horizon, one step for a Poisson
     * defect; the summary shows every decisive check's size, as the claim's section does;
     * each check (a run, a sweep, a Poisson defect, a closed one) names its command */
    {
        const char *reg =
            "# test registry\n"
            "= X1 | s | m | p | -\n"
            "X1 | t | CONFIRMED | claim | iso/zeitlin/long N=8 steps=3 | max H0_rel_dev <= 1 | -\n"
            "X1 | t | CONFIRMED | claim | rkmk/heavy-top/critical-step T=0.4 h=0.2 maxit=10 | critical 0.1 0.2 0.1 1 0 1 | -\n"
            "X1 | t | CONFIRMED | claim | iso/rigid-body/long h=0.125 noise=none | poisson <= 1 | -\n"
            "X1 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
        slpi_audit a;
        if (load_run(reg, dir, &a) == SLPI_OK) {
            /* every check names the slpi command that reproduces it (with the claim or its files) */
            for (int i = 0; i < a.nchecks; i++)
                TEST_CHECKF(!strncmp(a.checks[i].command, "slpi ", 5) && strstr(a.checks[i].command, "X1"),
                            "check %d (%s): command '%s'", i, a.checks[i].check, a.checks[i].command);
            TEST_CHECKF(slpi_audit_write(&a, 1.0, &err) == SLPI_OK, "%s", err.msg);
            char path[128];
            snprintf(path, sizeof path, "%s/claims.json", dir);
            json_t *root = json_load_file(path, 0, NULL);
            const char *sz = json_string_value(json_object_get(json_array_get(json_object_get(root, "claims"), 0),
                                                               "audit_size"));
            printf("  sizes in words: %s\n", sz ? sz : "(none)");
            static const char *want[] = {"N = 8, 3 steps of h = ", "h = 0.1..0.2 by 0.1, seeds 1..1, T = 0.4 each",
                                         "one step of h = 0.125"};
            for (int k = 0; k < 3; k++) TEST_CHECKF(sz && strstr(sz, want[k]), "size lacks '%s'", want[k]);
            json_decref(root);
            snprintf(path, sizeof path, "%s/index.html", dir);
            char *html = read_text(path);
            size_t n = strlen(html);
            int seen = 0;
            for (const char *q = html; n && (q = strstr(q, "one step of h = 0.125")); q++) seen++;
            TEST_CHECKF(seen == 2, "the third check's size appears %d times (summary and section: 2)", seen);
            free(html);
        }
        slpi_audit_free(&a);
    }

    /* verdicts from outcomes only: every expectation below is deliberately wrong */
    {
        const char *reg =
            "# test registry\n"
            "= X1 | s | m | p | -\n"
            "X1 | t | DISCREPANCY | claim | - | thresholds 2 | -\n"
            "X1 | t | DISCREPANCY | fails | - | thresholds 1 | -\n"
            "= X2 | s | m | p | why\n"
            "X2 | t | CONFIRMED | claim | - | cayleypi pi | -\n"
            "X2 | t | CONFIRMED | cond | - | thresholds 2 | -\n"
            "X2 | t | CONFIRMED | passes | - | cayleypi 3 | -\n"
            "= X3 | s | m | p | -\n"
            "X3 | t | CONFIRMED | claim | - | cayleypi pi | -\n"
            "X3 | t | CONFIRMED | ev | - | thresholds 2 | -\n"
            "X3 | t | CONFIRMED | passes | - | cayleypi 3 | -\n"
            "= X4 | s | m | p | -\n"
            "X4 | t | CONFIRMED | claim | - | unable not built | -\n"
            "X4 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
            "= X5 | s | m | p | -\n"
            "X5 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
            "X5 | t | CONFIRMED | fails | - | thresholds 2 | -\n"
            "= X6 | s | m | p | -\n"
            "X6 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
            "X6 | t | CONFIRMED | cond | - | cayleypi pi | -\n"
            "X6 | t | CONFIRMED | fails | - | mutant some-bug | -\n";
        slpi_audit a;
        if (load_run(reg, dir, &a) == SLPI_OK) {
            TEST_CHECK(verdict_of(&a, "X1") == SLPI_CLAIM_CONFIRMED);
            TEST_CHECK(verdict_of(&a, "X2") == SLPI_CLAIM_CONDITIONAL);
            TEST_CHECK(verdict_of(&a, "X3") == SLPI_CLAIM_DISCREPANCY);
            TEST_CHECK(verdict_of(&a, "X4") == SLPI_CLAIM_UNABLE);
            TEST_CHECK(verdict_of(&a, "X5") == SLPI_CLAIM_UNABLE);
            TEST_CHECK(verdict_of(&a, "X6") == SLPI_CLAIM_CONFIRMED);
            TEST_CHECK(slpi_audit_controls_wrong(&a) == 1);
            TEST_CHECK(strstr(a.claims[4].reason, "control") != NULL);
            TEST_CHECK(!strcmp(a.claims[1].condition, "-") && !strcmp(a.claims[1].why, "why"));
            /* the report: JSON and HTML with every claim, differences flagged */
            TEST_CHECKF(slpi_audit_write(&a, 1.0, &err) == SLPI_OK, "%s", err.msg);
            char path[128];
            snprintf(path, sizeof path, "%s/claims.json", dir);
            json_error_t je;
            json_t *root = json_load_file(path, 0, &je);
            TEST_CHECKF(root != NULL, "claims.json: %s", je.text);
            json_t *cl = root ? json_object_get(root, "claims") : NULL;
            TEST_CHECK(cl && json_array_size(cl) == 6);
            for (size_t i = 0; cl && i < json_array_size(cl); i++) {
                json_t *o = json_array_get(cl, i);
                const char *v = json_string_value(json_object_get(o, "verdict"));
                TEST_CHECK(v && !strcmp(v, slpi_claim_verdict_name(a.claims[i].verdict)));
                TEST_CHECK(json_is_true(json_object_get(o, "differs_from_expected")) ==
                           (strcmp(a.claims[i].expected, v ? v : "") != 0));
                /* every field a referee needs, present and not empty */
                static const char *fields[] = {"id", "paper", "paper_reference", "source",
                    "statement", "paper_magnitude", "paper_size", "audit_size", "verdict", "reason",
                    "expected"};
                for (size_t k = 0; k < sizeof fields / sizeof *fields; k++) {
                    const char *fv = json_string_value(json_object_get(o, fields[k]));
                    TEST_CHECKF(fv && fv[0], "claim %zu: field %s missing or empty", i, fields[k]);
                }
                json_t *demo = json_object_get(o, "failure_demonstration");
                TEST_CHECK(json_array_size(demo) == 1);
                for (size_t d = 0; d < json_array_size(demo); d++) {
                    static const char *dfields[] = {"role", "check", "outcome", "evidence"};
                    for (size_t k = 0; k < 4; k++) {
                        const char *fv = json_string_value(json_object_get(json_array_get(demo, d), dfields[k]));
                        TEST_CHECKF(fv && fv[0], "claim %zu: failure demonstration lacks %s", i, dfields[k]);
                    }
                }
            }
            json_decref(root);
            snprintf(path, sizeof path, "%s/index.html", dir);
            char *html = read_text(path);
            size_t n = strlen(html);
            TEST_CHECK(n > 0 && strstr(html, "<section id='X6'>") && strstr(html, "Summary") &&
                       strstr(html, "arXiv:2408.16701") && !strstr(html, ".txt"));
            free(html);
        }
        slpi_audit_free(&a);
        /* one claim selected (slpi audit --only X1): its two checks alone, its control as
         * demanded; the lines of the other claims are parsed (the last one, X6's control,
         * into the slot past the selected checks) but neither run nor counted */
        memset(&a, 0, sizeof a);
        a.only = "X1";
        snprintf(a.outdir, sizeof a.outdir, "%s", dir);
        if (slpi_audit_load(&a, test_temp_file(reg), &err) == SLPI_OK) {
            slpi_audit_run(&a, NULL, NULL);
            TEST_CHECKF(a.nchecks == 2 && a.nclaims == 1 && verdict_of(&a, "X1") == SLPI_CLAIM_CONFIRMED &&
                        slpi_audit_controls_wrong(&a) == 0, "--only X1: %d checks, %d claims, %d controls not as demanded",
                        a.nchecks, a.nclaims, slpi_audit_controls_wrong(&a));
            slpi_audit_free(&a);
        } else {
            TEST_CHECKF(0, "--only X1: %s", err.msg);
        }
        /* the cache: a second run loads every claim, the outcomes are the same */
        char cache[96];
        snprintf(cache, sizeof cache, "%s/cache", dir);
        mkdir(cache, 0755);
        slpi_audit b, c2;
        memset(&b, 0, sizeof b);
        memset(&c2, 0, sizeof c2);
        b.cache = c2.cache = cache;
        snprintf(b.outdir, sizeof b.outdir, "%s", dir);
        snprintf(c2.outdir, sizeof c2.outdir, "%s", dir);
        const char *path = test_temp_file(reg);
        if (slpi_audit_load(&b, path, &err) == SLPI_OK && slpi_audit_load(&c2, path, &err) == SLPI_OK) {
            slpi_audit_run(&b, NULL, NULL);
            for (int i = 0; i < c2.nchecks; i++) c2.checks[i].seconds = -1;
            slpi_audit_run(&c2, NULL, NULL);
            for (int i = 0; i < b.nchecks; i++)
                TEST_CHECKF(b.checks[i].outcome == c2.checks[i].outcome &&
                            !strcmp(b.checks[i].evidence, c2.checks[i].evidence) &&
                            c2.checks[i].seconds == b.checks[i].seconds, "check %d", i);
        }
        /* an edited entry (an outcome flipped, the digest left) and an entry whose
         * outcome is outside the enumeration (digest recomputed the documented way) are
         * not used: the checks are recomputed, with b's outcomes */
        for (int edit = 0; edit < 2; edit++) {
            char cmd[256];
            snprintf(cmd, sizeof cmd, "ls %s/*.json", cache);
            FILE *ls = popen(cmd, "r");
            char file[256];
            int nfiles = 0;
            while (ls && fgets(file, sizeof file, ls)) {
                file[strcspn(file, "\n")] = 0;
                json_t *root = json_load_file(file, 0, NULL), *arr = json_object_get(root, "checks");
                for (size_t i = 0; i < json_array_size(arr); i++) {
                    json_t *k = json_array_get(arr, i);
                    json_int_t o = json_integer_value(json_object_get(k, "outcome"));
                    json_object_set_new(k, "outcome", json_integer(edit ? 7 : o == SLPI_CHECK_PASS));
                }
                if (edit) {   /* FNV-1a of the key (the file name's hex) and the compact sorted JSON */
                    uint64_t key = strtoull(strrchr(file, '-') + 1, NULL, 16), h = 0xcbf29ce484222325ULL;
                    char *text = json_dumps(arr, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
                    for (size_t i = 0; i < sizeof key; i++) h = (h ^ ((unsigned char *)&key)[i]) * 0x100000001b3ULL;
                    for (const char *t = text; *t; t++) h = (h ^ (unsigned char)*t) * 0x100000001b3ULL;
                    free(text);
                    char hex[17];
                    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
                    json_object_set_new(root, "digest", json_string(hex));
                }
                TEST_CHECK(json_dump_file(root, file, JSON_REAL_PRECISION(17)) == 0);
                json_decref(root);
                nfiles++;
            }
            if (ls) pclose(ls);
            TEST_CHECKF(nfiles == b.nclaims, "%d cache entries for %d claims", nfiles, b.nclaims);
            slpi_audit d;
            memset(&d, 0, sizeof d);
            d.cache = cache;
            snprintf(d.outdir, sizeof d.outdir, "%s", dir);
            if (slpi_audit_load(&d, path, &err) == SLPI_OK) {
                slpi_audit_run(&d, NULL, NULL);
                for (int i = 0; i < d.nchecks; i++)
                    TEST_CHECKF(d.checks[i].outcome == b.checks[i].outcome, "edit %d: check %d: outcome %d, not %d",
                                edit, i, (int)d.checks[i].outcome, (int)b.checks[i].outcome);
            }
            slpi_audit_free(&d);
        }
        slpi_audit_free(&b);
        slpi_audit_free(&c2);
    }

    /* one run, two thresholds; Poisson defects fast vs certified; unknown diagnostic */
    {
        const char *reg =
            "= B1 | s | m | p | {2.steps} steps of h = {2.h}, up to T = {2.T}: {2.value}\n= B2 | s | m | p | -\n= B3 | s | m | p | -\n= B4 | s | m | p | -\n"
            "= B5 | s | m | p | -\n"
            "B1 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
            "B1 | t | CONFIRMED | claim | iso/rigid-body/long T=0.5 | max casimir_norm2_dev <= 1e-13 | -\n"
            "B2 | t | CONFIRMED | claim | iso/rigid-body/long T=0.5 | max casimir_norm2_dev >= 1e-13 | -\n"
            "B2 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
            "B3 | t | CONFIRMED | claim | iso/rigid-body/long T=0.5 | max no_such_diag <= 1 | -\n"
            "B3 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
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
            TEST_CHECKF(b1->outcome == SLPI_CHECK_PASS && b2->outcome == SLPI_CHECK_FAIL &&
                        b1->value == b2->value && b1->value < 1e-13, "%s", b1->evidence);
            TEST_CHECK(b1->figure[0] && strstr(b1->command, "slpi run --preset iso/rigid-body/long"));
            /* a generated text states the run's own numbers, each from its name */
            char want[128];
            snprintf(want, sizeof want, "128 steps of h = 0.00391, up to T = 0.5: %.3g", b1->value);
            TEST_CHECKF(!strcmp(a.claims[0].why_text, want), "'%s' vs '%s'", a.claims[0].why_text, want);
            TEST_CHECK(verdict_of(&a, "B3") == SLPI_CLAIM_UNABLE);
            const slpi_audit_check *pf = check_of(&a, "B4", 1), *pr = check_of(&a, "B4", 2);
            TEST_CHECKF(verdict_of(&a, "B4") == SLPI_CLAIM_CONFIRMED &&
                        fabs(pf->value - pr->value) < 1e-9 * fmax(1, pr->value),
                        "fast %.6g vs certified %.6g", pf->value, pr->value);
            TEST_CHECKF(verdict_of(&a, "B5") == SLPI_CLAIM_CONFIRMED, "%s", check_of(&a, "B5", 0)->evidence);
            /* a slope whose point estimate lies in the window but whose CI straddles it */
            const slpi_audit_check *b6 = check_of(&a, "B6", 0);
            TEST_CHECKF(b6->outcome == SLPI_CHECK_UNABLE && b6->value >= 0.35 && b6->value <= 0.65,
                        "%s", b6->evidence);
        }
        slpi_audit_free(&a);
    }
    /* a generated text never keeps a placeholder: one naming a check the claim lacks is
     * refused at load; one naming a number the run did not measure is counted (slpi audit
     * fails); an infinite number (no critical step up to the sweep's end) is filled, also
     * from the cache (the cache keeps it as a word: R7's archived text had lost it) */
    {
        slpi_audit a;
        loads("= P1 | s | m | p | {3.value}\nP1 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
              "P1 | t | CONFIRMED | fails | - | thresholds 1 | -\n", 0,
              ":1: claim P1: its text names {3.value}, but the claim has 2 check lines", &a);
        slpi_audit_free(&a);
        const char *reg =
            "= P2 | s | m | p | worst {1.value}, and {1.nosuch}\n"
            "P2 | t | CONFIRMED | claim | - | thresholds 2 | -\nP2 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
            "= P3 | s | m | p | critical step {1.value}\n"
            "P3 | t | CONFIRMED | claim | rkmk/heavy-top/critical-step T=0.4 h=0.4 maxit=10 | critical 0.4 0.4 0.1 1 0 1 | -\n"
            "P3 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
        char cache[128], path[512];
        snprintf(cache, sizeof cache, "%s/cache-p", dir);
        TEST_CHECK(mkdir(cache, 0755) == 0);
        snprintf(path, sizeof path, "%s", test_temp_file(reg));
        for (int pass = 0; pass < 2; pass++) {   /* computed, then from the cache */
            slpi_error err = {0, ""};
            memset(&a, 0, sizeof a);
            a.cache = cache;
            snprintf(a.outdir, sizeof a.outdir, "%s", dir);
            TEST_CHECKF(slpi_audit_load(&a, path, &err) == SLPI_OK, "%s", err.msg);
            slpi_audit_run(&a, NULL, NULL);
            TEST_CHECKF(a.nclaims == 2 && a.claims[1].cached == pass, "pass %d: cached %d", pass,
                        a.nclaims == 2 ? a.claims[1].cached : -1);
            TEST_CHECKF(slpi_audit_unfilled(&a) == 1 && a.claims[0].unfilled &&
                        strstr(a.claims[0].why_text, "names {1.nosuch}, a number this run did not measure"),
                        "pass %d: %d unfilled: '%s'", pass, slpi_audit_unfilled(&a), a.claims[0].why_text);
            TEST_CHECKF(a.nclaims == 2 && !a.claims[1].unfilled && !strcmp(a.claims[1].why_text, "critical step inf"),
                        "pass %d: '%s'", pass, a.nclaims == 2 ? a.claims[1].why_text : "");
            slpi_audit_free(&a);
        }
    }
    /* a confirmatory run (seed_offset) draws the noise the registry never used: the same
     * number as the case with seed = default + offset written out, another than the
     * registry's own; a critical sweep's seeds move with it (its evidence names them) */
    {
        const char *reg =
            "= S1 | s | m | p | -\nS1 | t | CONFIRMED | claim | iso/rigid-body/long T=0.25 | max H0_rel_dev <= 1 | -\n"
            "S1 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
            "= S2 | s | m | p | -\nS2 | t | CONFIRMED | claim | iso/rigid-body/long T=0.25 seed=1001 | max H0_rel_dev <= 1 | -\n"
            "S2 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
            "= S3 | s | m | p | -\nS3 | t | CONFIRMED | claim | rkmk/heavy-top/critical-step T=0.4 h=0.4 maxit=10 | critical 0.4 0.4 0.1 2 0 1 | -\n"
            "S3 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
        slpi_problem q;
        slpi_problem_init(&q, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
        TEST_CHECKF(q.seed == 1, "the default seed is %llu, the test assumes 1", (unsigned long long)q.seed);
        double v[2][2] = {{0}};
        for (int off = 0; off < 2; off++) {
            slpi_audit a;
            slpi_error err = {0, ""};
            memset(&a, 0, sizeof a);
            a.seed_offset = off ? 1000 : 0;
            snprintf(a.outdir, sizeof a.outdir, "%s", dir);
            TEST_CHECKF(slpi_audit_load(&a, test_temp_file(reg), &err) == SLPI_OK, "%s", err.msg);
            slpi_audit_run(&a, NULL, NULL);
            v[off][0] = check_of(&a, "S1", 0)->value;
            v[off][1] = check_of(&a, "S2", 0)->value;
            const char *ev = check_of(&a, "S3", 0)->evidence;
            TEST_CHECKF(strstr(ev, off ? "seeds 1001..1002, T = 0.4)" : "seeds 1..2, T = 0.4)") != NULL, "offset %d: %s",
                        off, ev);
            slpi_audit_free(&a);
        }
        TEST_CHECKF(v[1][0] == v[0][1] && v[1][0] != v[0][0] && v[0][0] > 0,
                    "offset 1000: %.17g, seed=1001: %.17g, the registry's seed: %.17g", v[1][0], v[0][1], v[0][0]);
    }
    /* malformed registries are refused with file:line; REDUCED/FULL expectations */
    {
        static const struct { const char *line, *want; } bad[] = {
            {"M1 | t | CONFIRMED | claim | - | thresholds 2", ":3: 6 fields, expected 7"},
            {"M1 | t | CONFIRMED | decides | - | thresholds 2 | -", ":3: role 'decides'"},
            {"M1 | t | MAYBE | claim | - | thresholds 2 | -", ":3: expected verdict 'MAYBE'"},
            {"M1 | t | UNABLE/MAYBE | claim | - | thresholds 2 | -", ":3: expected verdict 'MAYBE'"},
            {"M1 | t | UNABLE/ | claim | - | thresholds 2 | -", ":3: expected verdict ''"},
            {"M1 | t | CONFIRMED | claim | - | thresholds 2 | -", "has no control"},
            /* a typo is a load error naming file:line, never an UNABLE after the run */
            {"M1 | t | CONFIRMED | claim | - | treshold 2 | -", ":3: check 'treshold 2': unknown check word 'treshold' (nearest: thresholds)"},
            {"M1 | t | CONFIRMED | claim | - | max H0 =< 1e-3 | -", ":3: check 'max H0 =< 1e-3': word 3"},
            {"M1 | t | CONFIRMED | claim | - | max H0 <= 1e-3x | -", "is not a number"},
            {"M1 | t | CONFIRMED | claim | - | slope strong 4 7 10 | -", "word 6: too few words; usage: slope strong|weak|sup A B L R LO HI [indep=SCHEME] [phi=x1]"},
            {"M1 | t | CONFIRMED | claim | - | slope strong 4 7 10 2 0.4 0.6 1 | -", "word 9: '1' is one word too many"},
            /* every argument is typed by the check language's table; a misspelt one names the nearest word */
            {"M1 | t | CONFIRMED | claim | - | drift kase <= 1 | -", ":3: check 'drift kase <= 1': word 2: 'kase' is not one of case x1x2 x1sq (nearest: case)"},
            {"M1 | t | CONFIRMED | claim | - | versus H0 none >= 0 | -", "word 3: 'none' is not KEY=VALUE with a problem key"},
            {"M1 | t | CONFIRMED | claim | - | versus H0 nose=none >= 0 | -", "(nearest: noise)"},
            {"M1 | t | CONFIRMED | claim | - | gap isomq 10 32 <= 1 | -", "'isomq' is not a scheme (nearest: isomp)"},
            {"M1 | t | CONFIRMED | claim | - | dexpinv rigidbody sigma <= 1 | -", "'rigidbody' is not a system (nearest: rigid-body)"},
            {"M1 | t | CONFIRMED | claim | - | slope weak 4 7 10 2 0.4 0.6 indp=svi | -", "word 9: 'indp=svi' is one word too many (nearest: indep=)"},
            {"M1 | t | CONFIRMED | claim | - | refpoisson dw=0.3 <= 1 | -", "'dw=0.3' is not an optional key=VALUE here (nearest: dW=)"},
            {"M1 | t | CONFIRMED | claim | - | ensemble 20 awy 0.5 1.5 | -", "'awy' is not one of away spread (nearest: away)"},
            {"M1 | t | CONFIRMED | claim | - | sphere -1 | -", "'-1' is not an integer in 0..1000000000 (A)"},
            {"M1 | t | CONFIRMED | claim | - | max H0 <= 1e999 | -", "'1e999' is not a number"},
            {"M1 | t | CONFIRMED | claim | - | cayleypi tau | -", "'tau' is not a number or pi"},
            {"M1 | t | CONFIRMED | claim | - | thresholds 2 | T=1 :: thresholds two", ":3: FULL check 'thresholds two'"},
            {"M1 | t | CONFIRMED | claim | - | thresholds 2 | slope weak 1 2", ":3: FULL check"},
            {"M1 | t | CONFIRMED | claim | iso/rigid-body/lng T=1 | max H0 <= 1 | -", ":3: case 'iso/rigid-body/lng T=1'"},
            {"M1 | t | CONFIRMED | claim | iso/rigid-body/long T1 | max H0 <= 1 | -", ":3: case"},
            {"M1 | t | CONFIRMED | claim | iso/rigid-body/long tol=abc | max H0 <= 1 | -", ":3: case"},
            {"M1 | t | CONFIRMED | claim | iso/rigid-body/long | max H0 <= 1 | T=1 nosuchkey=2", ":3: FULL case"},
            {"M1 | t | CONFIRMED | claim@v1 | - | thresholds 2 | -", ":3: claim M1: variant 'v1' is not declared"},
            {"M1 | t | CONFIRMED | ev@v1 | - | thresholds 2 | -", ":3: role 'ev@v1'"},
            {"M1 | t | CRITERION-DEPENDENT | claim | - | thresholds 2 | -", "has no control"},
            {"@ M1 | v", ":3: 2 fields, expected 3"},
            {"\" M1 | where |  ", ":3: 2 fields, expected 3"},
        };
        char reg[512];
        slpi_audit a;
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            snprintf(reg, sizeof reg, "# bad line %zu\n= M1 | s | m | p | -\n%s\n", i, bad[i].line);
            loads(reg, 0, bad[i].want, &a);
            slpi_audit_free(&a);
        }
        loads("M2 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
              "M2 | t | CONFIRMED | fails | - | thresholds 1 | -\n", 0, "has no description", &a);
        slpi_audit_free(&a);
        loads("= M2 | s | m | p | -\n~ M3 | a rule\nM2 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
              "M2 | t | CONFIRMED | fails | - | thresholds 1 | -\n", 0, ":2: '~ M3': no such claim", &a);
        slpi_audit_free(&a);
        loads("= M2 | s | m | p | -\n@ M2 | v | a reading\nM2 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
              "M2 | t | CONFIRMED | fails | - | thresholds 1 | -\n", 0, "variant 'v' has no claim@v line", &a);
        slpi_audit_free(&a);
        /* a variant's label or description that would not fit is refused, never cut */
        {
            char lng[1200], d[400];
            memset(d, 'w', sizeof d - 1);
            d[sizeof d - 1] = 0;
            snprintf(lng, sizeof lng, "= M2 | s | m | p | -\n@ M2 | v | %s\n"
                     "M2 | t | CONFIRMED | claim@v | - | thresholds 2 | -\n"
                     "M2 | t | CONFIRMED | fails | - | thresholds 1 | -\n", d);
            loads(lng, 0, ":2: variant v: its description is longer than 383 characters", &a);
            slpi_audit_free(&a);
            d[383] = 0;   /* 383 characters fit */
            snprintf(lng, sizeof lng, "= M2 | s | m | p | -\n@ M2 | v | %s\n"
                     "M2 | t | CONFIRMED | claim@v | - | thresholds 2 | -\n"
                     "M2 | t | CONFIRMED | fails | - | thresholds 1 | -\n", d);
            loads(lng, 0, NULL, &a);
            TEST_CHECKF(a.nclaims == 1 && strlen(a.claims[0].var[0].what) == 383, "a 383-character description "
                        "is kept whole");
            slpi_audit_free(&a);
            loads("= M2 | s | m | p | -\n@ M2 | a-label-of-24-characters | r\n"
                  "M2 | t | CONFIRMED | claim@a-label-of-24-characters | - | thresholds 2 | -\n"
                  "M2 | t | CONFIRMED | fails | - | thresholds 1 | -\n", 0, "variant label 'a-label-of-24-characters' too long", &a);
            slpi_audit_free(&a);
        }
        /* a description without the paper's size (or statement) is refused */
        loads("= M3 | s | m | - | -\nM3 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
              "M3 | t | CONFIRMED | fails | - | thresholds 1 | -\n", 0, ":1: the paper's size is empty", &a);
        slpi_audit_free(&a);
        loads("= M4 |  | m | p | -\nM4 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
              "M4 | t | CONFIRMED | fails | - | thresholds 1 | -\n", 0, ":1: statement is empty", &a);
        slpi_audit_free(&a);
        const char *two = "= M3 | s | m | p | -\n"
                          "M3 | t | UNABLE/CONFIRMED | claim | - | thresholds 2 | -\n"
                          "M3 | t | UNABLE/CONFIRMED | fails | - | thresholds 1 | -\n";
        for (int full = 0; full < 2; full++) {
            if (loads(two, full, NULL, &a))
                TEST_CHECKF(a.nclaims == 1 && !strcmp(a.claims[0].expected, full ? "CONFIRMED" : "UNABLE"),
                            "full=%d: expected '%s'", full, a.nclaims ? a.claims[0].expected : "");
            slpi_audit_free(&a);
        }
    }

    /* variants: each decided alone; DISCREPANCY only on all, CRITERION-DEPENDENT when the
     * decided ones differ, UNABLE when one is undecided and the rest agree */
    {
        const char *reg =
            "= X1 | s | m | p | {2.value} and {3.value}; {1.value}\n"
            "@ X1 | a | first reading\n@ X1 | b | second reading\n"
            "X1 | t | CONFIRMED | claim | - | thresholds 2 | -\n"
            "X1 | t | CONFIRMED | claim@a | - | thresholds 2 | -\n"
            "X1 | t | CONFIRMED | claim@b | - | thresholds 2 | -\n"
            "X1 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
            "= X2 | s | m | p | -\n"
            "@ X2 | a | first reading\n@ X2 | b | second reading\n"
            "X2 | t | CONFIRMED | claim@a | - | thresholds 2 | -\n"
            "X2 | t | CONFIRMED | claim@b | - | thresholds 1 | -\n"
            "X2 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
            "= X3 | s | m | p | -\n"
            "@ X3 | a | first reading\n@ X3 | b | second reading\n"
            "X3 | t | CONFIRMED | claim@a | - | thresholds 1 | -\n"
            "X3 | t | CONFIRMED | claim@b | - | thresholds 1 | -\n"
            "X3 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
            "= X4 | s | m | p | -\n"
            "@ X4 | a | first reading\n@ X4 | b | second reading\n"
            "X4 | t | CONFIRMED | claim@a | - | thresholds 1 | -\n"
            "X4 | t | CONFIRMED | claim@b | - | unable not built | -\n"
            "X4 | t | CONFIRMED | fails | - | thresholds 1 | -\n"
            "= X5 | s | m | p | {1.nosuch}\n"
            "@ X5 | a | first reading\n@ X5 | b | second reading\n"
            "X5 | t | CONFIRMED | claim@a | - | thresholds 1 | -\n"
            "X5 | t | CONFIRMED | cond@a | - | thresholds 2 | -\n"
            "X5 | t | CONFIRMED | claim@b | - | thresholds 2 | -\n"
            "X5 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
        slpi_audit a;
        if (load_run(reg, dir, &a) == SLPI_OK) {
            TEST_CHECK(verdict_of(&a, "X1") == SLPI_CLAIM_CONFIRMED);
            TEST_CHECKF(verdict_of(&a, "X2") == SLPI_CLAIM_CRITERION, "%s", a.claims[1].reason);
            TEST_CHECK(a.claims[1].var[0].verdict == SLPI_CLAIM_CONFIRMED &&
                       a.claims[1].var[1].verdict == SLPI_CLAIM_DISCREPANCY);
            TEST_CHECK(strstr(a.claims[1].reason, "a: CONFIRMED; b: DISCREPANCY") != NULL);
            TEST_CHECK(verdict_of(&a, "X3") == SLPI_CLAIM_DISCREPANCY);
            TEST_CHECK(verdict_of(&a, "X4") == SLPI_CLAIM_UNABLE);
            /* a condition inside one variant: CONDITIONAL there, CONFIRMED in the other */
            TEST_CHECKF(verdict_of(&a, "X5") == SLPI_CLAIM_CRITERION &&
                        a.claims[4].var[0].verdict == SLPI_CLAIM_CONDITIONAL, "%s", a.claims[4].reason);
            /* the texts take their numbers from the run: X1's line 2 and 3 are thresholds 2 */
            char want[96];
            snprintf(want, sizeof want, "%.3g and %.3g; %.3g", a.checks[1].value, a.checks[2].value,
                     a.checks[0].value);
            TEST_CHECKF(!strcmp(a.claims[0].why_text, want), "'%s' vs '%s'", a.claims[0].why_text, want);
            TEST_CHECKF(strstr(a.claims[4].why_text, "{1.nosuch}") != NULL && a.claims[4].unfilled, "%s",
                        a.claims[4].why_text);
            /* a brace that does not close a {K.NAME} is text, copied as it is */
            char filled[96];
            TEST_CHECKF(slpi_audit_fill(&a, &a.claims[0], "{1.value) and {2.value", filled, sizeof filled) == 0 &&
                        !strcmp(filled, "{1.value) and {2.value"), "unclosed braces filled as '%s'", filled);
            /* the variant table reaches claims.json */
            TEST_CHECKF(slpi_audit_write(&a, 1.0, &err) == SLPI_OK, "%s", err.msg);
            char path[128];
            snprintf(path, sizeof path, "%s/claims.json", dir);
            json_t *root = json_load_file(path, 0, NULL);
            json_t *x2 = json_array_get(json_object_get(root, "claims"), 1);
            json_t *vars = json_object_get(x2, "variants");
            TEST_CHECK(json_array_size(vars) == 2 &&
                       !strcmp(json_string_value(json_object_get(x2, "verdict")), "CRITERION-DEPENDENT") &&
                       !strcmp(json_string_value(json_object_get(json_array_get(vars, 1), "verdict")),
                               "DISCREPANCY"));
            json_decref(root);
        }
        slpi_audit_free(&a);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    TEST_CHECK(system(cmd) == 0);
    TEST_END();
}
