/* api-converge.c — the handle API's convergence study (slpi.h, slpi_api_converge; the
 * Python package's slpi.converge): the engine of reports/converge.c on a problem set up
 * by key names, its per-level errors and slope returned in the caller's arrays. The
 * same validation as `slpi converge` (check_cfg), the same numbers as its report. */
#include <string.h>

#include "api/api.h"
#include "reports/reports.h"
#include "slpi-tools.h"

int slpi_api_converge(const slpi_problem *p, const char *kind, int kmin, int kmax, int ref, long paths,
                      uint64_t path0, int boot, const char *indep, double *h, double *e, double *se,
                      double fit[3])
{
    slpi_error err = { 0, "" };
    slpi_conv_cfg c;
    slpi_conv_init(&c, p);
    int rc = SLPI_OK;
    if (!kind || !strcmp(kind, "strong")) c.kind = SLPI_CONV_STRONG;
    else if (!strcmp(kind, "sup")) c.kind = SLPI_CONV_SUP;
    else if (!strcmp(kind, "weak")) c.kind = SLPI_CONV_WEAK;
    else rc = slpi_error_set(&err, SLPI_EINPUT, "converge: kind '%s': strong | sup | weak", kind);
    if (rc == SLPI_OK && indep) {
        c.indep = 1;
        if (slpi_scheme_from_name(indep, &c.indep_scheme) != SLPI_OK)
            rc = slpi_error_set(&err, SLPI_EINPUT, "converge: indep '%s': unknown scheme", indep);
    }
    c.kmin = kmin;
    c.kmax = kmax;
    c.L = ref;
    c.paths = paths;
    c.path0 = path0;
    c.boot = boot;
    c.base.level = -1;
    slpi_conv_result r;
    if (rc == SLPI_OK) rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
    int col = c.indep ? SLPI_CONV_INDEP : SLPI_CONV_SELF;
    for (int i = 0; rc == SLPI_OK && i < r.nlev; i++) {
        h[i] = r.h[i];
        e[i] = r.cell[col][i].e;
        se[i] = r.cell[col][i].se;
    }
    if (rc == SLPI_OK) {
        fit[0] = r.fit[col].slope;
        fit[1] = r.fit[col].lo;
        fit[2] = r.fit[col].hi;
    }
    return slpi_api_record(&err, rc);
}
