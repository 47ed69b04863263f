/* tmk.c — TMK, the trapezoidal Munthe-Kaas scheme (docs/schemes.md#tmk; RKMK eqs. (36)-(41),
 * Algorithm 1): chord iteration on sigma with the matrix D frozen at sigma = 0,
 *   D v = v - 1/2 sum_k Delta_k D^2H_k(mu_n)[ad*_v mu_n]   (LU by LAPACKE_dgetrf),
 *   mubar = (mu_n + O_exp(sigma; mu_n))/2, r = sigma - sum_k Delta_k xi_k(mubar),
 *   sigma <- sigma - D^{-1} r, and mu_{n+1} = O_exp(sigma; mu_n).
 * Fixed-iteration mode (p->fixed_iters) accepts the non-converged iterate. The diagnosis's
 * stops in plain sweeps (f->stop_plain, fast/ingredients.h) iterate sigma <- sum_k Delta_k
 * xi_k(mubar) instead, unsolved, from tmk_plain_start. */
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "slpi/step.h"
#include "fast/fast.h"
#include "fast/solver.h"
#include "fast/vector-field.h"

typedef struct {
    double *D, *sigma, *r, *mubar, *e, *w, *h, *tmp;
    lapack_int *piv;
} tmk_work;

static int tmk_check(const slpi_fast_system *s, const slpi_problem *p, slpi_error *err)
{
    (void)p;
    if (!s->coad || !s->orbit || !s->dgen)
        return slpi_error_set(err, SLPI_EINPUT,
                              "tmk is not applicable to %s in this form (docs/systems.md#applicability)", s->name);
    return SLPI_OK;
}

static int tmk_init(slpi_fast *f, slpi_error *err)
{
    int d = f->sys.dim;
    /* doubles: D (d x d), 7 vectors, and room for the d pivots */
    double *buf = slpi_fast_work_new(f, sizeof(tmk_work), (size_t)d * d + 8 * (size_t)d, err);
    if (!buf) return err->code;
    tmk_work *w = f->work;
    w->D = buf;
    w->sigma = buf + (size_t)d * d;
    w->r = w->sigma + d;
    w->mubar = w->r + d;
    w->e = w->mubar + d;
    w->w = w->e + d;
    w->h = w->w + d;
    w->tmp = w->h + d;
    w->piv = (lapack_int *)(w->tmp + d); /* sizeof(lapack_int) <= sizeof(double) */
    return SLPI_OK;
}

/* Column-major chord matrix at mu_n, unfactored. */
static void tmk_chord_matrix(const slpi_fast_system *s, const double *delta, const double *mu, tmk_work *w)
{
    int d = s->dim;
    for (int j = 0; j < d; j++) {
        double *col = w->D + (size_t)j * d;
        memset(w->e, 0, sizeof *w->e * (size_t)d);
        w->e[j] = 1;
        s->coad(s, w->w, w->e, mu);
        memcpy(col, w->e, sizeof *col * (size_t)d);
        for (int k = 0; k <= s->M; k++) {
            if (delta[k] == 0) continue;
            s->dgen(s, k, w->h, mu, w->w);
            for (int i = 0; i < d; i++) col[i] -= 0.5 * delta[k] * w->h[i];
        }
    }
}

/* The chord matrix at mu_n, factored: 0, or -1 when singular. */
static int tmk_chord(const slpi_fast_system *s, const double *delta, const double *mu, tmk_work *w)
{
    tmk_chord_matrix(s, delta, mu, w);
    return LAPACKE_dgetrf(LAPACK_COL_MAJOR, s->dim, s->dim, w->D, s->dim, w->piv) == 0 ? 0 : -1;
}

/* The start of the plain sweeps (f->stop_plain): sigma = 0 but in the components that do
 * not depend on sigma (the chord matrix's row is the identity's, as the heavy top's
 * Gamma part h x: docs/systems.md#heavy-top-rkmk), which a port writing the equations sets
 * once, exactly: sum_k Delta_k xi_k(mu_n) there. */
static void tmk_plain_start(const slpi_fast_system *s, const double *delta, const double *mu, tmk_work *w)
{
    int d = s->dim;
    tmk_chord_matrix(s, delta, mu, w);
    slpi_fast_gen_sum(s, w->r, w->tmp, delta, mu);
    for (int i = 0; i < d; i++) {
        int fixed = 1;
        for (int j = 0; j < d && fixed; j++) fixed = w->D[i + (size_t)j * d] == (i == j);
        w->sigma[i] = fixed ? w->r[i] : 0;
    }
}

static slpi_step_status tmk_step(slpi_fast *f, double *x, const double *delta, slpi_step_info *info)
{
    const slpi_fast_system *s = &f->sys;
    tmk_work *w = f->work;
    int d = s->dim;
    slpi_fast_time(s, 1, delta); /* t_n + h/2: the t of the mean (mu_n + mu_{n+1})/2 */
    if (f->stop_plain) {
        tmk_plain_start(s, delta, x, w);
    } else if (tmk_chord(s, delta, x, w)) {
        info->residual = 0;
        return SLPI_STEP_DIVERGED; /* singular chord matrix */
    } else {
        memset(w->sigma, 0, sizeof *w->sigma * (size_t)d);
    }
    slpi_fast_iter it;
    slpi_fast_iter_begin(&it, &f->pol);
    int st;
    do {
        if (s->orbit(s, w->mubar, w->sigma, x)) return SLPI_STEP_DIVERGED;
        for (int i = 0; i < d; i++) w->mubar[i] = 0.5 * (x[i] + w->mubar[i]);
        slpi_fast_gen_sum(s, w->r, w->tmp, delta, w->mubar);
        for (int i = 0; i < d; i++) w->r[i] = w->sigma[i] - w->r[i];
        if (!f->stop_plain) LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', d, 1, w->D, d, w->piv, w->r, d);
        for (int i = 0; i < d; i++) w->sigma[i] -= w->r[i];
        st = slpi_fast_iter_check(&it, slpi_vec_maxabs(w->r, d), slpi_vec_maxabs(w->sigma, d));
    } while (st < 0);
    info->iterations = it.it;
    info->residual = it.last;
    if (slpi_step_failed(st)) return st;
    if (s->orbit(s, w->mubar, w->sigma, x)) return SLPI_STEP_DIVERGED;
    memcpy(x, w->mubar, sizeof *x * (size_t)d);
    return st;
}

const slpi_fast_scheme slpi_fast_scheme_tmk = {
    .id = SLPI_SCHEME_TMK,
    .check = tmk_check,
    .step = tmk_step,
    .init = tmk_init,
};
