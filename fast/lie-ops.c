/* fast/lie-ops.c — fast/lie-ops.h: the system table's algebra operations behind the public
 * slpi_fast handle, and the docs/schemes.md#solver fixed-point driver for code outside fast/. */
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/step.h"
#include "core/problem-options.h"
#include "fast/lie-ops.h"
#include "fast/fast.h"
#include "fast/solver.h"
#include "fast/vector-field.h"

int slpi_fast_algebra_dim(const slpi_fast *f)
{
    return f->sys.dim;
}

int slpi_fast_matrix_dim(const slpi_fast *f)
{
    return f->sys.mdim;
}

int slpi_fast_has_algebra(const slpi_fast *f)
{
    return f->sys.orbit && f->sys.lie && f->sys.coad;
}

int slpi_fast_orbit(const slpi_fast *f, double *out, const double *sigma, const double *mu)
{
    return f->sys.orbit(&f->sys, out, sigma, mu);
}

void slpi_fast_lie(const slpi_fast *f, double *out, const double *a, const double *b)
{
    f->sys.lie(&f->sys, out, a, b);
}

void slpi_fast_coad(const slpi_fast *f, double *out, const double *xi, const double *mu)
{
    f->sys.coad(&f->sys, out, xi, mu);
}

int slpi_fast_gradient_sum(const slpi_fast *f, double *xi, const double *delta, const double *mu)
{
    double tmp[64], *t = f->sys.dim <= 64 ? tmp : malloc(sizeof(double) * (size_t)f->sys.dim);
    if (!t) return SLPI_ENUMERIC;
    slpi_fast_gen_sum(&f->sys, xi, t, delta, mu);
    if (t != tmp) free(t);
    return SLPI_OK;
}

void slpi_fast_generator_sum(const slpi_fast *f, double *Psi, const double *delta, const double *Y)
{
    f->sys.m_gen_sum(&f->sys, Psi, delta, Y);
}

slpi_step_status slpi_fast_fixed_point(slpi_fast_fixed_map map, void *ctx, int n, double tol, int maxit, double *u,
                                       int *iters)
{
    const slpi_fast_policy pol = { .tol = tol, .maxit = maxit, .on_cap = SLPI_CAP_FAIL };
    double buf[64];
    double *un = n <= 64 ? buf : malloc(sizeof(double) * (size_t)n);
    slpi_fast_iter it;
    slpi_fast_iter_begin(&it, &pol);
    int st = un ? -1 : SLPI_STEP_DIVERGED;
    while (st < 0) {
        if (map(ctx, u, un)) {
            st = SLPI_STEP_DIVERGED;
            break;
        }
        double d = slpi_vec_maxdiff(un, u, n);
        memcpy(u, un, sizeof(double) * (size_t)n);
        st = slpi_fast_iter_check(&it, d, slpi_vec_maxabs(u, n));
    }
    if (un != buf) free(un);
    *iters = it.it;
    return (slpi_step_status)st;
}
