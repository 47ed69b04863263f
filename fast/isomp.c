/* isomp.c — ISOMP, the stochastic isospectral midpoint (docs/schemes.md#isomp; ISO §4.3, eqs.
 * (26)-(30)) for J-quadratic systems, on the system's matrix representation:
 *   Y <- X_n + [Psi(Y), Y]/2 + Psi(Y) Y Psi(Y)/4 (m_isomp_iter, fused), or
 *   the quasi-Newton form Y <- (I - Psi/2)^{-1} X_n (I + Psi/2)^{-1} (solver=newton);
 * then COMM: X_{n+1} = X_n + [Psi(Y), Y] (after convergence, systems with
 * m_isomp_comm_last reuse the last iteration's product Psi Y: one GEMM less), or CAY: X_{n+1} = C X_n C^{-1},
 * C = (I - Psi/2)^{-1}(I + Psi/2). The solve starts from the Euler predictor
 * E = X_n + [Psi(X_n), X_n]/2 (predictor=euler, the default; docs/schemes.md#solver): the
 * midpoint to O(|Psi|^2), as the first iterate from X_n is, for one commutator product
 * instead of the iterate's two, so the solve takes about one iteration fewer; Psi(X_n)/2
 * is Psi(X_n) with the increments halved (exact in binary). predictor=none and the
 * fixed-iteration mode (whose map is defined from Y = X_n) start from E = X_n.
 * predictor=cayley follows E by one quasi-Newton step (27) (isomp_predict): one order more, so
 * about one iteration fewer again, for one m_ainv. warm_start=1
 * (quflow's habit) adds the previous step's correction to its start: Y = E_n + (Y_{n-1} -
 * E_{n-1}) (with predictor=none, quflow's own Y = X_n + (Y_{n-1} - X_{n-1})), when the state
 * handed in is the one the previous step returned (a different state, e.g. another path,
 * starts cold): the same fixed point to within tol; on a smooth (noise-free) trajectory
 * the correction changes by O(h^3) from step to step, so warm and predicted starts stack.
 * The fixed-iteration mode has neither (its map is defined from Y = X_n): the start in
 * force, w->pred and w->ws, is resolved once in isomp_init.
 * The state layout stores only the independent entries of a skew(-Hermitian) matrix, so every step ends projected onto the algebra
 * (p->reproject changes nothing on this path). */
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "slpi/step.h"
#include "core/view-scheme.h"
#include "core/view-solver.h"
#include "fast/fast.h"
#include "fast/solver.h"
#include "fast/dense.h"

typedef struct {
    double *Xn, *Y, *Yn, *P, *out;
    double *D, *D2, *xlast; /* warm start: the last step's Y - E (warm_start=1) or Y - X_n
                                   (2; D2: the step before's), and the state it returned */
    int warm;               /* consecutive completed steps behind xlast (at most 2) */
    slpi_predictor pred;    /* the start in force: the predictor and warm_start, */
    int ws;                 /* none and 0 in the fixed-iteration mode */
    double *half;           /* the step's increments halved (the Euler predictor) */
    double *Z, *C, *Q, *R;  /* the unfused form: a zero matrix, [Psi,Y], Psi Y Psi/4, and
                               [Psi,[Psi,Y]] */
} isomp_work;

static int isomp_check(const slpi_fast_system *s, const slpi_problem *p, slpi_error *err)
{
    if (!s->m_isomp_iter)
        return slpi_error_set(err, SLPI_EINPUT,
                              "isomp is not applicable to %s: the algebra is "
                              "not J-quadratic (docs/schemes.md#isomp, docs/systems.md#applicability)",
                              s->name);
    if (!s->m_gen_sum || !s->m_comm_update || !s->m_unpack || !s->m_pack)
        return slpi_error_set(err, SLPI_EINPUT, "isomp: %s lacks the matrix operations", s->name);
    if (slpi_view_scheme(p)->isomp_update == SLPI_ISO_UPDATE_CAY && !s->m_cay_conj)
        return slpi_error_set(err, SLPI_EINPUT, "isomp: %s has no Cayley update (isomp_update=comm)", s->name);
    if (slpi_view_scheme(p)->predictor == SLPI_PREDICTOR_CAYLEY && !s->m_ainv)
        return slpi_error_set(err, SLPI_EINPUT,
                              "isomp: %s has no Cayley congruence for "
                              "predictor=cayley (predictor=euler)",
                              s->name);
    if (slpi_view_solver(p)->solver == SLPI_SOLVER_NEWTON && !s->m_ainv)
        return slpi_error_set(err, SLPI_EINPUT,
                              "isomp: %s has no quasi-Newton form "
                              "(solver=fixed-point)",
                              s->name);
    if (s->state_dim != s->dim)
        return slpi_error_set(err, SLPI_EINPUT,
                              "isomp: %s with a tracked group element is "
                              "SVI-only",
                              s->name);
    return SLPI_OK;
}

static int isomp_init(slpi_fast *f, slpi_error *err)
{
    const slpi_fast_system *s = &f->sys;
    size_t m = (size_t)s->mdim;
    double *buf = slpi_fast_work_new(f, sizeof(isomp_work), 11 * m + (size_t)s->state_dim + (size_t)s->M + 1, err);
    if (!buf) return err->code;
    isomp_work *w = f->work;
    w->Xn = buf;
    w->Y = buf + m;
    w->Yn = buf + 2 * m;
    w->P = buf + 3 * m;
    w->out = buf + 4 * m;
    w->D = buf + 5 * m;
    w->xlast = buf + 6 * m;
    w->half = w->xlast + s->state_dim;
    w->D2 = w->half + s->M + 1;
    w->Z = w->D2 + m;
    w->C = w->Z + m;
    w->Q = w->C + m;
    w->R = w->Q + m;
    int fixed = f->pol.fixed_iters > 0;
    w->pred = fixed ? SLPI_PREDICTOR_NONE : slpi_view_scheme(f->p)->predictor;
    w->ws = fixed ? 0 : slpi_view_scheme(f->p)->warm_start;
    return SLPI_OK;
}

/* x <- the new state; with warm_start, remember it (the next step starts warm from it)
 * after `chain` consecutive steps. */
static slpi_step_status isomp_finish(slpi_fast *f, isomp_work *w, double *x, int st, int chain)
{
    const slpi_fast_system *s = &f->sys;
    s->m_pack(s, x, w->out);
    if (w->ws) {
        memcpy(w->xlast, x, sizeof *x * (size_t)s->state_dim);
        w->warm = chain < 2 ? chain + 1 : 2;
    }
    return st;
}

/* The predictors (docs/schemes.md#solver), into w->out; w->P and w->Yn are scratch.
 * Euler: E = X_n + [Psi(X_n), X_n]/2, Psi(X_n)/2 being Psi(X_n) with the increments halved
 * (exact in binary): the midpoint to O(|Psi|^2), one commutator product.
 * Cayley: then C = (I - Psi(E)/2)^{-1} X_n (I + Psi(E)/2)^{-1}, one quasi-Newton step of
 * ISO eq. (27) from E (m_ainv): the midpoint X~ = (I - Psi(X~)/2)^{-1} X_n (I + Psi(X~)/2)^{-1}
 * exactly, so C - X~ = O(|Psi(X~ - E)|) = O(|Psi|^3), one order more than E. Psi is linear
 * in its argument (J-quadratic systems). Returns nonzero if m_ainv fails. */
static int isomp_predict(const slpi_fast_system *s, isomp_work *w, slpi_predictor pred, const double *delta)
{
    for (int k = 0; k <= s->M; k++) w->half[k] = 0.5 * delta[k];
    s->m_gen_sum(s, w->P, w->half, w->Xn);
    s->m_comm_update(s, w->out, w->P, w->Xn, w->Xn);
    if (pred != SLPI_PREDICTOR_CAYLEY) return 0;
    s->m_gen_sum(s, w->P, delta, w->out);
    if (s->m_ainv(s, w->Yn, 0.5, w->P, w->Xn)) return 1;
    memcpy(w->out, w->Yn, sizeof *w->out * (size_t)s->mdim);
    return 0;
}

/* The unfused form with the terms' coefficients c = (a, b, c, d) of fast/ingredients.h (the
 * diagnosis of `slpi verify`, oracle/README.md#diagnosis): from Y = X_n (from the Euler
 * predictor under a stop after it, f->stop_pred),
 * Y <- X_n + a [Psi(Y), Y]/2 + b Psi(Y) Y Psi(Y)/4 + (d - 1) [Psi,[Psi,Y]]/8, then
 * X_{n+1} = X_n + c [Psi(Y), Y], each term from the m_* operations: [Psi, Y] =
 * m_comm_update(Psi, Y, 0) and Psi Y Psi/4 = m_isomp_iter(X_n = 0, Y) - [Psi, Y]/2. At
 * c = (1, 1, 1, 1) it is the scheme's map to within the solver's tolerance. */
static slpi_step_status isomp_step_terms(slpi_fast *f, double *x, const double *delta, const double *c,
                                         slpi_step_info *info)
{
    const slpi_fast_system *s = &f->sys;
    isomp_work *w = f->work;
    int m = s->mdim, st;
    slpi_fast_time(s, 1, delta);
    s->m_unpack(s, w->Xn, x);
    if (f->stop_pred) isomp_predict(s, w, SLPI_PREDICTOR_EULER, delta); /* into w->out */
    memcpy(w->Y, f->stop_pred ? w->out : w->Xn, sizeof *w->Y * (size_t)m);
    slpi_fast_iter it;
    slpi_fast_iter_begin(&it, &f->pol);
    do {
        double ynorm;
        s->m_gen_sum(s, w->P, delta, w->Y);
        s->m_comm_update(s, w->C, w->P, w->Y, w->Z);
        s->m_isomp_iter(s, w->Q, &ynorm, NULL, delta, w->Z, w->Y);
        if (c[3] != 1.0) s->m_comm_update(s, w->R, w->P, w->C, w->Z);
        for (int i = 0; i < m; i++)
            w->Yn[i] = w->Xn[i] + c[0] * (0.5 * w->C[i]) + c[1] * (w->Q[i] - 0.5 * w->C[i]) +
                (c[3] != 1.0 ? (c[3] - 1.0) * 0.125 * w->R[i] : 0.0);
        double dmax = slpi_vec_maxdiff(w->Yn, w->Y, m);
        double *t = w->Y;
        w->Y = w->Yn;
        w->Yn = t;
        st = slpi_fast_iter_check(&it, dmax, slpi_vec_maxabs(w->Y, m));
    } while (st < 0);
    info->iterations = it.it;
    info->residual = it.last;
    if (slpi_step_failed(st)) return st;
    if (s->m_project) s->m_project(s, w->Y);
    s->m_gen_sum(s, w->P, delta, w->Y);
    s->m_comm_update(s, w->C, w->P, w->Y, w->Z);
    for (int i = 0; i < m; i++) w->out[i] = w->Xn[i] + c[2] * w->C[i];
    return isomp_finish(f, w, x, st, 0);
}

static slpi_step_status isomp_step(slpi_fast *f, double *x, const double *delta, slpi_step_info *info)
{
    const double *terms = slpi_fast_ingredient_terms(f);
    if (terms) return isomp_step_terms(f, x, delta, terms, info);
    const slpi_fast_system *s = &f->sys;
    isomp_work *w = f->work;
    int m = s->mdim, newton = slpi_view_solver(f->p)->solver == SLPI_SOLVER_NEWTON;
    slpi_fast_time(s, 1, delta); /* the midpoint X~ at t_n + h/2 */
    s->m_unpack(s, w->Xn, x);
    int chain = w->ws && w->warm && memcmp(x, w->xlast, sizeof *x * (size_t)s->state_dim) == 0 ? w->warm : 0,
        extrap = w->ws == 2 && chain > 0;
    w->warm = 0;
    /* the start E: a predictor (kept in w->out until the update) or X_n */
    const double *E = w->Xn;
    if (!extrap && w->pred != SLPI_PREDICTOR_NONE) {
        if (isomp_predict(s, w, w->pred, delta)) return SLPI_STEP_DIVERGED;
        E = w->out;
    }
    if (extrap && chain > 1) {
        for (int i = 0; i < m; i++) w->Y[i] = E[i] + (2 * w->D[i] - w->D2[i]);
    } else {
        for (int i = 0; i < m; i++) w->Y[i] = chain ? E[i] + w->D[i] : E[i];
    }
    slpi_fast_iter it;
    slpi_fast_iter_begin(&it, &f->pol);
    int st;
    do {
        double dmax, ynorm;
        if (newton) {
            s->m_gen_sum(s, w->P, delta, w->Y);
            if (s->m_ainv(s, w->Yn, 0.5, w->P, w->Xn)) return SLPI_STEP_DIVERGED;
            dmax = slpi_vec_maxdiff(w->Yn, w->Y, m);
            ynorm = slpi_vec_maxabs(w->Yn, m);
        } else {
            dmax = s->m_isomp_iter(s, w->Yn, &ynorm, NULL, delta, w->Xn, w->Y);
        }
        double *t = w->Y;
        w->Y = w->Yn;
        w->Yn = t;
        st = slpi_fast_iter_check(&it, dmax, ynorm);
    } while (st < 0);
    info->iterations = it.it;
    info->residual = it.last;
    if (slpi_step_failed(st)) return st;
    if (w->ws == 2) {
        double *t = w->D2;
        w->D2 = w->D;
        w->D = t;
        for (int i = 0; i < m; i++) w->D[i] = w->Y[i] - w->Xn[i];
    } else if (w->ws) {
        for (int i = 0; i < m; i++) w->D[i] = w->Y[i] - E[i];
    }
    int cay = slpi_view_scheme(f->p)->isomp_update == SLPI_ISO_UPDATE_CAY;
    if (!cay && !newton && s->m_isomp_comm_last && (st == SLPI_STEP_CONVERGED || st == SLPI_STEP_STAGNATED)) {
        s->m_isomp_comm_last(s, w->out, w->Xn);
        return isomp_finish(f, w, x, st, chain);
    }
    if (s->m_project) s->m_project(s, w->Y);
    s->m_gen_sum(s, w->P, delta, w->Y);
    if (cay) {
        if (s->m_cay_conj(s, w->out, 0.5, w->P, w->Xn)) return SLPI_STEP_DIVERGED;
    } else {
        s->m_comm_update(s, w->out, w->P, w->Y, w->Xn);
    }
    return isomp_finish(f, w, x, st, chain);
}

/* The warm start's carry: the count of consecutive steps behind it, the last correction D
 * and (warm_start=2) the one before, D2; xlast is the state handed to the next step. */
static int isomp_carry_get(const slpi_fast *f, double *buf)
{
    const isomp_work *w = f->work;
    if (!w->ws) return 0;
    size_t m = (size_t)f->sys.mdim;
    if (buf) {
        buf[0] = w->warm;
        memcpy(buf + 1, w->D, sizeof *buf * m);
        if (w->ws == 2) memcpy(buf + 1 + m, w->D2, sizeof *buf * m);
    }
    return 1 + f->sys.mdim * w->ws;
}

static int isomp_carry_set(slpi_fast *f, const double *x, const double *buf, int n)
{
    isomp_work *w = f->work;
    int m = f->sys.mdim;
    if (n != isomp_carry_get(f, NULL) || (n && buf[0] != 0 && buf[0] != 1 && buf[0] != 2)) return SLPI_EINPUT;
    if (!n) return SLPI_OK;
    if (!slpi_fast_all_finite(buf + 1, n - 1)) return SLPI_EINPUT;
    w->warm = (int)buf[0];
    memcpy(w->D, buf + 1, sizeof *buf * (size_t)m);
    if (w->ws == 2) memcpy(w->D2, buf + 1 + m, sizeof *buf * (size_t)m);
    memcpy(w->xlast, x, sizeof *x * (size_t)f->sys.state_dim);
    return SLPI_OK;
}

const slpi_fast_scheme slpi_fast_scheme_isomp = {
    .id = SLPI_SCHEME_ISOMP,
    .check = isomp_check,
    .step = isomp_step,
    .init = isomp_init,
    .carry_get = isomp_carry_get,
    .carry_set = isomp_carry_set,
};
