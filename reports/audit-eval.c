/* audit-eval.c — the dispatcher of the claims audit's checks: the check string in force
 * (FULL=1 may replace it) to the evaluator of its family (reports/audit-checks.h). Above
 * the evaluators, below the runner (reports/audit.c). */
#include <string.h>

#include "reports/audit-checks.h"

void slpi_audit_eval(const slpi_audit *a, slpi_audit_check *c)
{
    char buf[256], *tok[16];
    if (slpi_audit_check_string(a, c) != c->check)   /* FULL=1 */
        snprintf(c->check, sizeof c->check, "%s", c->full_check);
    int n = slpi_audit_tokens(slpi_audit_check_string(a, c), buf, sizeof buf, tok, 16);
    c->figure[0] = 0;
    c->command[0] = 0;
    c->nnum = 0;
    if (n < 1) {
        slpi_audit_unable(c, "empty check%s", "");
    } else if (!strcmp(tok[0], "max") || !strcmp(tok[0], "fails")) {
        slpi_audit_check_run(a, c, tok, n);
    } else if (!strcmp(tok[0], "versus")) {
        slpi_audit_check_versus(a, c, tok, n);
    } else if (!strcmp(tok[0], "sphere")) {
        slpi_audit_check_sphere(a, c, tok, n);
    } else if (!strcmp(tok[0], "snapshots")) {
        slpi_audit_check_snapshots(a, c, tok, n);
    } else if (!strcmp(tok[0], "ref")) {
        slpi_audit_check_ref(a, c, tok, n);
    } else if (!strcmp(tok[0], "poisson") || !strcmp(tok[0], "refpoisson")) {
        slpi_audit_check_poisson(a, c, tok, n);
    } else if (!strcmp(tok[0], "slope")) {
        slpi_audit_check_slope(a, c, tok, n);
    } else if (!strcmp(tok[0], "gap")) {
        slpi_audit_check_gap(a, c, tok, n);
    } else if (!strcmp(tok[0], "resolvable")) {
        slpi_audit_check_resolvable(a, c, tok, n);
    } else if (!strcmp(tok[0], "weakexact")) {
        slpi_audit_check_weakexact(a, c, tok, n);
    } else if (!strcmp(tok[0], "moments")) {
        slpi_audit_check_moments(c);
    } else if (!strcmp(tok[0], "thresholds")) {
        slpi_audit_check_thresholds(c, tok, n);
    } else if (!strcmp(tok[0], "cayleypi")) {
        slpi_audit_check_cayleypi(c, tok, n);
    } else if (!strcmp(tok[0], "mutant")) {
        slpi_audit_check_mutant(c, tok, n);
    } else if (!strcmp(tok[0], "drift")) {
        slpi_audit_check_drift(a, c, tok, n);
    } else if (!strcmp(tok[0], "legap")) {
        slpi_audit_check_legap(a, c, tok, n);
    } else if (!strcmp(tok[0], "growth")) {
        slpi_audit_check_growth(a, c, tok, n);
    } else if (!strcmp(tok[0], "critical")) {
        slpi_audit_check_critical(a, c, tok, n);
    } else if (!strcmp(tok[0], "ensemble")) {
        slpi_audit_check_ensemble(a, c, tok, n);
    } else if (!strcmp(tok[0], "dexpinv")) {
        slpi_audit_check_dexpinv(c, tok, n);
    } else if (!strcmp(tok[0], "adstar")) {
        slpi_audit_check_adstar(c, tok, n);
    } else if (!strcmp(tok[0], "sviident")) {
        slpi_audit_check_sviident(a, c, tok, n);
    } else if (!strcmp(tok[0], "sviorbit")) {
        slpi_audit_check_sviorbit(a, c, tok, n);
    } else if (!strcmp(tok[0], "svivs")) {
        slpi_audit_check_svivs(c, tok, n);
    } else if (!strcmp(tok[0], "lifted")) {
        slpi_audit_check_lifted(a, c, tok, n);
    } else if (!strcmp(tok[0], "test")) {
        slpi_audit_check_tests(a, c, tok, n);
    } else if (!strcmp(tok[0], "unable")) {
        slpi_audit_unable(c, "%s", slpi_audit_check_string(a, c) + 7);
    } else {
        slpi_audit_unable(c, "unknown check '%s'", tok[0]);
    }
}
