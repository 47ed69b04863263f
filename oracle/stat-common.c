/* stat-common.c — what the statistical test (oracle/stat.c) and the diagnosis
 * (oracle/diagnose.c) share: a row's k steps on the double path, with each noise
 * component's increments multiplied by a factor, and the F distribution's tail. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "slpi/step.h"
#include "slpi/fast.h"
#include "slpi/tools.h"
#include "oracle/oracle.h"

int slpi_oracle_fast_steps(slpi_fast *f, const slpi_oracle_local_row *lr, const double *x, const double *dw, int M,
                           const double *mult, double *out, int dim, int *nomem)
{
    long k = lr->to - lr->from;
    double d[64], *dd = M <= 64 ? d : malloc((size_t)M * sizeof(double));
    if (!dd) {
        *nomem = 1;
        return -1;
    }
    memcpy(out, x, (size_t)dim * sizeof(double));
    int ok = 1;
    for (long n = 0; n < k && ok; n++) {
        for (int l = 0; l < M; l++) dd[l] = dw[n * M + l] * mult[l];
        slpi_step_info info;
        memset(&info, 0, sizeof info);
        slpi_fast_set_step_index(f, lr->from + n);
        ok = !slpi_step_failed(slpi_fast_step(f, out, dd, &info));
    }
    for (int i = 0; ok && i < dim; i++) ok = isfinite(out[i]);
    if (dd != d) free(dd);
    return ok ? 0 : -1;
}

/* P(F > f) for F of (d1, d2) degrees of freedom: I_{d2/(d2 + d1 f)}(d2/2, d1/2). */
double slpi_oracle_f_tail(double f, double d1, double d2)
{
    if (!(f > 0)) return 1.0;
    arb_t r, a, b, z;
    arb_init(r);
    arb_init(a);
    arb_init(b);
    arb_init(z);
    arb_set_d(a, d2 / 2);
    arb_set_d(b, d1 / 2);
    arb_set_d(z, d2 / (d2 + d1 * f));
    arb_hypgeom_beta_lower(r, a, b, z, 1, 128);
    double p = arf_get_d(arb_midref(r), ARF_RND_NEAR);
    arb_clear(r);
    arb_clear(a);
    arb_clear(b);
    arb_clear(z);
    return isfinite(p) ? fmin(1.0, fmax(0.0, p)) : 1.0;
}
