/* isomp.c — ISOMP, the stochastic isospectral midpoint (docs/schemes.md#isomp; ISO §4.3, eqs.
 * (26)-(30)) for J-quadratic systems, on the system's matrix representation:
 *   Y <- X_n + [Psi(Y), Y]/2 + Psi(Y) Y Psi(Y)/4 from Y = X_n (m_isomp_iter, fused), or
 *   the quasi-Newton form Y <- (I - Psi/2)^{-1} X_n (I + Psi/2)^{-1} (solver=newton);
 * then COMM: X_{n+1} = X_n + [Psi(Y), Y] (after convergence, systems with
 * m_isomp_comm_last reuse the last iteration's product Psi Y: one GEMM less), or CAY: X_{n+1} = C X_n C^{-1},
 * C = (I - Psi/2)^{-1}(I + Psi/2). warm_start=1 (quflow's habit) starts the iteration from
 * Y = X_n + (Y_{n-1} - X_{n-1}), the previous step's increment, when the state handed in is
 * the one the previous step returned (a different state, e.g. another path, starts cold):
 * the same fixed point to within tol, usually an iteration fewer. The state layout stores only the independent entries
 * of a skew(-Hermitian) matrix, so every step ends projected onto the algebra
 * (p->reproject changes nothing on this path). */
#include <stdlib.h>
#include <string.h>
#include "fast/fast.h"

typedef struct {
    double *Xn, *Y, *Yn, *P, *out;
    double *D, *xlast;          /* warm start: Y - X_n and the state returned, of the last step */
    int warm;                   /* D and xlast hold a completed step */
} isomp_work;

static int isomp_check(const slpi_fast_system *s, const slpi_problem *p, slpi_error *err)
{
    if (!s->m_isomp_iter)
        return slpi_error_set(err, SLPI_EINPUT, "isomp is not applicable to %s: the algebra is "
                              "not J-quadratic (docs/schemes.md#isomp, docs/systems.md#applicability)", s->name);
    if (!s->m_gen_sum || !s->m_comm_update || !s->m_unpack || !s->m_pack)
        return slpi_error_set(err, SLPI_EINPUT, "isomp: %s lacks the matrix operations", s->name);
    if (p->isomp_update == SLPI_ISO_UPDATE_CAY && !s->m_cay_conj)
        return slpi_error_set(err, SLPI_EINPUT, "isomp: %s has no Cayley update (isomp_update=comm)",
                              s->name);
    if (p->solver == SLPI_SOLVER_NEWTON && !s->m_ainv)
        return slpi_error_set(err, SLPI_EINPUT, "isomp: %s has no quasi-Newton form "
                              "(solver=fixed-point)", s->name);
    if (s->state_dim != s->dim)
        return slpi_error_set(err, SLPI_EINPUT, "isomp: %s with a tracked group element is "
                              "SVI-only", s->name);
    return SLPI_OK;
}

static int isomp_init(slpi_fast *f, slpi_error *err)
{
    const slpi_fast_system *s = &f->sys;
    size_t m = (size_t)s->mdim;
    double *buf = slpi_fast_work_new(f, sizeof(isomp_work), 6 * m + (size_t)s->state_dim, err);
    if (!buf) return err->code;
    isomp_work *w = f->work;
    w->Xn = buf; w->Y = buf + m; w->Yn = buf + 2 * m; w->P = buf + 3 * m; w->out = buf + 4 * m;
    w->D = buf + 5 * m; w->xlast = buf + 6 * m;
    return SLPI_OK;
}

/* x <- the new state; with warm_start, remember it (the next step starts warm from it). */
static slpi_step_status isomp_finish(slpi_fast *f, isomp_work *w, double *x, int st)
{
    const slpi_fast_system *s = &f->sys;
    s->m_pack(s, x, w->out);
    if (f->p.warm_start) {
        memcpy(w->xlast, x, sizeof *x * (size_t)s->state_dim);
        w->warm = 1;
    }
    return st;
}

static slpi_step_status isomp_step(slpi_fast *f, double *x, const double *delta,
                                 slpi_step_info *info)
{
    const slpi_fast_system *s = &f->sys;
    isomp_work *w = f->work;
    int m = s->mdim, newton = f->p.solver == SLPI_SOLVER_NEWTON;
    s->m_unpack(s, w->Xn, x);
    int warm = f->p.warm_start && w->warm && memcmp(x, w->xlast, sizeof *x * (size_t)s->state_dim) == 0;
    w->warm = 0;
    for (int i = 0; i < m; i++) w->Y[i] = warm ? w->Xn[i] + w->D[i] : w->Xn[i];
    slpi_fast_iter it;
    slpi_fast_iter_begin(&it, &f->pol);
    int st;
    do {
        double dmax, ynorm;
        if (newton) {
            s->m_gen_sum(s, w->P, delta, w->Y);
            if (s->m_ainv(s, w->Yn, 0.5, w->P, w->Xn)) return SLPI_STEP_DIVERGED;
            dmax = slpi_fast_maxdiff(w->Yn, w->Y, m);
            ynorm = slpi_fast_maxabs(w->Yn, m);
        } else {
            dmax = s->m_isomp_iter(s, w->Yn, &ynorm, NULL, delta, w->Xn, w->Y);
        }
        double *t = w->Y; w->Y = w->Yn; w->Yn = t;
        st = slpi_fast_iter_check(&it, dmax, ynorm);
    } while (st < 0);
    info->iterations = it.it;
    info->residual = it.last;
    if (slpi_step_failed(st)) return st;
    if (f->p.warm_start)
        for (int i = 0; i < m; i++) w->D[i] = w->Y[i] - w->Xn[i];
    int cay = f->p.isomp_update == SLPI_ISO_UPDATE_CAY;
    if (!cay && !newton && s->m_isomp_comm_last &&
        (st == SLPI_STEP_CONVERGED || st == SLPI_STEP_STAGNATED)) {
        s->m_isomp_comm_last(s, w->out, w->Xn);
        return isomp_finish(f, w, x, st);
    }
    if (s->m_project) s->m_project(s, w->Y);
    s->m_gen_sum(s, w->P, delta, w->Y);
    if (cay) {
        if (s->m_cay_conj(s, w->out, 0.5, w->P, w->Xn)) return SLPI_STEP_DIVERGED;
    } else {
        s->m_comm_update(s, w->out, w->P, w->Y, w->Xn);
    }
    return isomp_finish(f, w, x, st);
}

const slpi_fast_scheme slpi_fast_scheme_isomp = {
    SLPI_SCHEME_ISOMP, isomp_check, isomp_step, isomp_init,
};
