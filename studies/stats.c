/* stats.c — statistics of the convergence studies (docs/noise.md#estimators): the weighted least-squares
 * slope of log e on log h (weights (e/SE)^2, the inverse variance of log e to first
 * order), a deterministic splitmix64 generator for the batch bootstrap, and quantiles. */
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <stddef.h>

#include "studies/studies.h"

int slpi_stats_wls(int n, const double *h, const double *e, const double *se, const int *use, double *slope,
                   double *intercept)
{
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (!use[i] || !(e[i] > 0) || !isfinite(e[i])) continue;
        double w = se && se[i] > 0 ? (e[i] / se[i]) * (e[i] / se[i]) : 1.0;
        double x = log(h[i]), y = log(e[i]);
        sw += w;
        sx += w * x;
        sy += w * y;
        sxx += w * x * x;
        sxy += w * x * y;
        m++;
    }
    double det = sw * sxx - sx * sx;
    if (m < 2 || !(det > 0)) {
        *slope = NAN;
        *intercept = NAN;
        return m;
    }
    *slope = (sw * sxy - sx * sy) / det;
    *intercept = (sy - *slope * sx) / sw;
    return m;
}

uint64_t slpi_stats_rand(uint64_t *state, uint64_t n)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return n ? z % n : z;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double slpi_stats_quantile(double *v, int n, double q)
{
    if (n < 1) return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double pos = q * (double)(n - 1);
    int i = (int)floor(pos);
    if (i >= n - 1) return v[n - 1];
    double f = pos - (double)i;
    return v[i] + f * (v[i + 1] - v[i]);
}
