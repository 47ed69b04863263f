/* toy.c — the toy on so(3) in doubles (core/system-toy.c): gen_0 = x, gen_1 = amp e3, and
 * so(3)'s operations (fast/algebra-so3.c). The double twin of ref/toy.c; the template of
 * a new built-in system (tests/core/t-toy-system.sh inserts it). */
#include <stdlib.h>
#include <string.h>
#include "slpi/errors.h"
#include "slpi/diag.h"
#include "core/view-system.h"
#include "fast/algebra.h"
#include "fast/system.h"
#include "fast/vector-field.h"
#include "fast/so3.h"

typedef struct {
    double amp;
} toy_ctx;

static void toy_gen(const slpi_fast_system *s, int k, double *xi, const double *mu)
{
    const toy_ctx *c = s->data;
    xi[0] = xi[1] = xi[2] = 0;
    if (k == 0)
        memcpy(xi, mu, 3 * sizeof *mu);
    else
        xi[2] = c->amp;
}

static void toy_dgen(const slpi_fast_system *s, int k, double *out, const double *mu, const double *w)
{
    (void)s;
    (void)mu;
    out[0] = out[1] = out[2] = 0;
    if (k == 0) memcpy(out, w, 3 * sizeof *w);
}

/* Matrix form: one HAT block (fast/algebra-so3.c); Psi = -sum_k delta_k xi_k. */
static void toy_m_gen_sum(const slpi_fast_system *s, double *Psi, const double *delta, const double *Y)
{
    double tmp[3];
    slpi_fast_gen_sum(s, Psi, tmp, delta, Y);
    for (int i = 0; i < 3; i++) Psi[i] = -Psi[i];
}

static double toy_m_isomp_iter(const slpi_fast_system *s, double *Ynew, double *ynorm, double *Psi_out,
                               const double *delta, const double *Xn, const double *Y)
{
    double P[3];
    toy_m_gen_sum(s, P, delta, Y);
    if (Psi_out) memcpy(Psi_out, P, sizeof P);
    return slpi_fast_blocks_isomp(SLPI_FAST_BLOCK_HAT, 1, P, Xn, Y, Ynew, ynorm);
}

static void toy_diagnostics(const slpi_fast_system *s, slpi_diag *d, const double *x, const double *x0)
{
    (void)s;
    double H = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
    slpi_diag_add(d, "H0", H);
    slpi_fast_so3_casimirs(d, x);
    if (x0) {
        slpi_diag_add(d, "H0_rel_dev", slpi_fast_rel_dev(H, x0[0] * x0[0] + x0[1] * x0[1] + x0[2] * x0[2]));
        slpi_fast_so3_casimir_devs(d, x, x0);
    }
}

static void toy_clear(slpi_fast_system *s)
{
    free(s->data);
    s->data = NULL;
}

int slpi_fast_sys_toy(slpi_fast_system *s, const slpi_problem *p, slpi_error *err)
{
    toy_ctx *c = calloc(1, sizeof *c);
    if (!c) return slpi_error_set(err, SLPI_EINPUT, "toy: out of memory");
    c->amp = slpi_view_system(p)->toy.amp;
    s->data = c;
    s->clear = toy_clear;
    s->name = "toy";
    s->M = 1;
    s->dim = 3;
    s->state_dim = 3;
    slpi_fast_so3_fill_ops(s);
    s->diagnostics = toy_diagnostics;
    s->gen = toy_gen;
    s->dgen = toy_dgen;
    s->m_gen_sum = toy_m_gen_sum;
    s->m_isomp_iter = toy_m_isomp_iter;
    return SLPI_OK;
}
