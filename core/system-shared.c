/* system-shared.c — what several system descriptors share (core/system.h): the names of
 * an su(N) state, the manifold checks of an initial state, the value names of two keys. A leaf: the descriptors call it, it calls
 * none of them. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "slpi/errors.h"
#include "core/system.h"
#include "core/problem-key-table.h"

const char *const slpi_key_bool[] = { "0", "1", NULL };
const char *const slpi_key_none_quad[] = { "none", "quad", NULL };

void slpi_system_sun_name(int N, int i, char *buf, size_t n)
{
    if (i < N) {
        snprintf(buf, n, "ImX_%d_%d", i, i);
        return;
    }
    int k = (i - N) / 2, a = 0;
    while (k >= N - 1 - a) {
        k -= N - 1 - a;
        a++;
    }
    snprintf(buf, n, "%sX_%d_%d", (i - N) % 2 ? "Im" : "Re", a, a + 1 + k);
}

/* The manifold checks of an explicit initial state (docs/conventions.md), within
 * SLPI_MANIFOLD_TOL: absolute for the rotation R, relative to max(1, max |x|) per diagonal
 * entry for the trace of su(N). */
int slpi_system_orthogonal(const double *R, double *defect)
{
    double d = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double g = R[i] * R[j] + R[3 + i] * R[3 + j] + R[6 + i] * R[6 + j] - (i == j);
            if (fabs(g) > d) d = fabs(g);
        }
    double det =
        R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) + R[2] * (R[3] * R[7] - R[4] * R[6]);
    *defect = d > fabs(det - 1) ? d : fabs(det - 1);
    return *defect <= SLPI_MANIFOLD_TOL;
}

int slpi_system_check_traceless(const double *x, int n, const char *src, slpi_error *err)
{
    /* Im X_aa (the first n values) sum to 0 */
    double tr = 0, scale = 1;
    for (int i = 0; i < n * n; i++) scale = fabs(x[i]) > scale ? fabs(x[i]) : scale;
    for (int i = 0; i < n; i++) tr += x[i];
    if (!(fabs(tr) <= SLPI_MANIFOLD_TOL * scale * n))
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s: the trace of X is %.3g i: an su(%d) state is traceless (the "
                              "diagonal values Im X_aa must sum to 0 within %g max(1, max|x|) N)",
                              src, tr, n, SLPI_MANIFOLD_TOL);
    return SLPI_OK;
}
