/* t-audit-studies.c — the audit's study and closed checks (reports/audit-studies.c,
 * reports/audit-closed.c): weakexact's Monte Carlo clause against the exact quadrature,
 * its slope against the quadrature computed here,
 * drift naming what it measured, test reading the recorded unit-test results, and the
 * memo of converge studies fed more studies than it keeps. */
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#include "auditutil.h"
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/view-system.h"
#include "slpi/problem-build.h"

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
                TEST_CHECKF(f && f->nlev == j && f->paths == 1000 + j, "memo after %d studies: study %d %s", k + 1, j,
                            f ? "holds another result" : "not found");
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

/* weakexact's Monte Carlo clause refuses level differences that disagree with the exact
 * quadrature: fed the oracle's own differences (z = 0), 3.9 SE off (agrees), 10 SE off
 * on one level (refused, z = 10), off with a zero SE (refused, z infinite) */
static void check_weakexact_clause(const char *dir)
{
    (void)dir;
    slpi_conv_result r;
    memset(&r, 0, sizeof r);
    r.nlev = 3;
    static const int lev[4] = { 3, 4, 5, 7 };
    for (int i = 0; i < 4; i++) r.quad[i] = slpi_weak_exact_scheme(SLPI_SCHEME_ISOMP, 1, 1, ldexp(1, -lev[i]), 2, 1);
    double z, off[4] = { 0, 3.9, 10, -10 };
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < 3; i++) {
            r.cell[SLPI_CONV_MLMC][i].se = 1e-4;
            r.cell[SLPI_CONV_MLMC][i].mean = r.quad[i] - r.quad[i + 1] + (i == 1 ? off[k] * 1e-4 : 0);
        }
        int agree = slpi_audit_weakexact_mc(&r, &z);
        TEST_CHECKF(agree == (fabs(off[k]) < 4) && fabs(z - fabs(off[k])) < 1e-6,
                    "weakexact MC clause "
                    "%g SE off: agree %d, z %.17g",
                    off[k], agree, z);
    }
    r.cell[SLPI_CONV_MLMC][1].se = 0;
    TEST_CHECKF(!slpi_audit_weakexact_mc(&r, &z) && isinf(z), "zero SE, off by 10 SE: z %g", z);
    r.cell[SLPI_CONV_MLMC][1].mean = r.quad[1] - r.quad[2];
    TEST_CHECKF(slpi_audit_weakexact_mc(&r, &z) && z == 0, "zero SE, equal: z %g", z);
}

/* closed checks: drift names what it measured (the case's noise, or the so(3) control),
 * and test reads the recorded unit-test results (slpi audit --tests FILE) */
static void check_closed(const char *dir)
{
    const char *reg = "# test registry\n"
                      "= X1 | s | m | p | -\n"
                      "X1 | t | CONFIRMED | claim | iso/rigid-body/long steps=8 | drift case >= 1e-9 | -\n"
                      "X1 | t | CONFIRMED | ev | iso/rigid-body/long steps=8 | drift x1x2 >= 1e-9 | -\n"
                      "X1 | t | CONFIRMED | ev | - | test t-one t-two | -\n"
                      "X1 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
    slpi_audit a;
    slpi_error lerr = { 0, "" };
    memset(&a, 0, sizeof a);
    snprintf(a.outdir, sizeof a.outdir, "%s", dir);
    a.tests = test_temp_file("t-one\t0\t12 checks, 0 failed\nt-two\t1\t5 checks, 1 failed\n");
    if (slpi_audit_load(&a, test_temp_file(reg), &lerr) == SLPI_OK && a.nchecks == 4) {
        slpi_audit_run(&a, NULL, NULL);
        TEST_CHECKF(strstr(a.checks[0].evidence, "for the noise of rigid-body") != NULL, "drift case: %s",
                    a.checks[0].evidence);
        TEST_CHECKF(strstr(a.checks[1].evidence, "for the so(3) control H_1 = a x_1 x_2: ") != NULL, "drift x1x2: %s",
                    a.checks[1].evidence);
        TEST_CHECKF(
            a.checks[2].outcome == SLPI_CHECK_FAIL &&
                strstr(a.checks[2].evidence, "t-one: exit 0 (12 checks, 0 failed); t-two: exit 1 (5 checks, 1 failed)"),
            "test t-one t-two: %s", a.checks[2].evidence);
    } else {
        TEST_CHECKF(0, "closed checks: %s (%d checks)", lerr.msg, a.nchecks);
    }
    slpi_audit_free(&a);
}

/* weakexact's slope, computed again here from the exact quadrature of the case's scheme at
 * its six step sizes T 2^-3 .. T 2^-8 (the same WLS of studies/stats.c, its inputs built
 * independently): the check's number is that slope, bit for bit, every level in the fit. */
static void check_weakexact_slope(const char *dir)
{
    const char *reg = "# test registry\n"
                      "= X1 | s | m | p | -\n"
                      "X1 | t | CONFIRMED | claim | iso/so3/weak-exact | weakexact isomp 0.9 1.1 | -\n"
                      "X1 | t | CONFIRMED | fails | - | thresholds 1 | -\n";
    slpi_error err = { 0, "" };
    slpi_problem *p = slpi_problem_alloc();
    int ok = p && slpi_problem_build(p, "iso/so3/weak-exact", NULL, 0, NULL, NULL, NULL, &err) == SLPI_OK;
    TEST_CHECKF(ok, "weakexact slope: the case: %s", err.msg);
    slpi_audit a;
    if (load_run(reg, dir, &a) == SLPI_OK && ok) {
        double T = slpi_view_grid(p)->T, amp = slpi_view_system(p)->rb.amp, ell = slpi_view_noise(p)->trunc_ell;
        double exact = slpi_weak_exact_sde(amp, T), h[6], e[6], se[6], slope, ic;
        int use[6];
        for (int i = 0; i < 6; i++) {
            h[i] = T / (double)(8 << i);
            e[i] = fabs(slpi_weak_exact_scheme(SLPI_SCHEME_ISOMP, amp, T, h[i], ell, 1) - exact);
            se[i] = 1e-3 * e[i];
            use[i] = 1;
        }
        slpi_stats_wls(6, h, e, se, use, &slope, &ic);
        TEST_CHECKF(a.checks[0].value == slope, "weakexact slope: the check's %.17g, the quadrature's %.17g (%s)",
                    a.checks[0].value, slope, a.checks[0].evidence);
    }
    slpi_problem_free(p);
    slpi_audit_free(&a);
}

int main(void)
{
    test_start("t-audit-studies", 11);
    check_memo();
    char dir[] = "/tmp/slpi-t-audit-studies-XXXXXX";
    audit_test_dir(dir);
    check_weakexact_clause(dir);
    check_weakexact_slope(dir);
    check_closed(dir);
    audit_test_rmdir(dir);
    TEST_END();
}
