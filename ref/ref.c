/* ref/ref.c — public entry points of the certified path (slpi.h; docs/design.md#two-paths):
 * create/step/diagnostics/free, the scheme table, and the precision policy:
 * a step runs at p->prec bits and, when its enclosure fails, again at doubled
 * precision, the last try exactly at p->prec_max; beyond that it is UNABLE (never a
 * guess), with the reason in slpi_ref_unable_reason. A failed step leaves the state
 * unchanged. */
#include "core/check.h"
#include "ref/ref.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Mean-value (Lohner) propagation (slpi_ref_set_lohner) for schemes with a step
 * Jacobian and states of at most LOHNER_MAX entries: the trajectory this object produced is kept as the set
 * c + A r (c exact, A an exact invertible matrix, r a ball vector) and stepped
 *     Phi(c + A r) in Phi(c) + J (A r),  J enclosing D Phi over the box hull of the set,
 * then re-centred c' = mid Phi(c), A' = mid(J A) while its condition number stays
 * below LOHNER_COND_MAX (the parallelepiped method: no growth for elliptic motion),
 * else the Q of its QR factorisation (Lohner 1987, "QR method"), and
 * r' = (A'^{-1} J A) r + A'^{-1} (Phi(c) - c'), A'^{-1} enclosed by arb_mat_inv. The ball
 * returned is the hull c' + A' r' intersected with the plain ball trajectory, stepped
 * alongside (so no ball is wider than the plain path's, and where the hull holds the
 * plain ball it is that ball, bit for bit). Only the rounding and the curvature of Phi over
 * the box enter as box wrapping, so the radius grows like the trajectory's own
 * sensitivity (up to the wrapping of r through A'^{-1} J A) instead of like |D Phi|
 * entrywise. A state other than the last output
 * starts afresh (c = mid x, A = I, r = 0 +/- rad x). */
#define LOHNER_MAX 64

typedef struct {
    int valid, plain_ok;
    arb_ptr c, r, out;        /* centre, coefficients, last output */
    arb_ptr plain;            /* the plain ball trajectory from the same start */
    arb_mat_t A;
} lohner_set;

struct slpi_ref {
    slpi_problem p;
    slpi_ref_system sys;
    const slpi_ref_scheme *scheme;
    long step_index;          /* steps attempted so far */
    double *delta;            /* (h, dW_1..dW_M) */
    arb_ptr work;             /* copy of the state for retries */
    lohner_set *lo;           /* NULL: plain ball steps */
    char why[256];            /* reason of the last UNABLE */
    void (*watch)(void *ctx, const slpi_ref_work *w);   /* slpi_ref_set_watch */
    void *watch_ctx;
};

static const slpi_ref_scheme *const scheme_table[SLPI_SCHEME_COUNT] = {
    [SLPI_SCHEME_TMK] = &slpi_ref_scheme_tmk,
    [SLPI_SCHEME_RKMK_LE] = &slpi_ref_scheme_rkmk_le,
    [SLPI_SCHEME_RKMK_HEUN] = &slpi_ref_scheme_rkmk_heun,
    [SLPI_SCHEME_IM_DIRECT] = &slpi_ref_scheme_im_direct,
    [SLPI_SCHEME_TRAP_DIRECT] = &slpi_ref_scheme_trap_direct,
    [SLPI_SCHEME_ISOMP] = &slpi_ref_scheme_isomp,
    [SLPI_SCHEME_SVI] = &slpi_ref_scheme_svi,
};

const slpi_ref_scheme *slpi_ref_scheme_get(slpi_scheme_id k)
{
    if ((int)k < 0 || k >= SLPI_SCHEME_COUNT)
        return NULL;
    return scheme_table[k];
}

int slpi_ref_create(slpi_ref **out, const slpi_problem *p, slpi_error *err)
{
    *out = NULL;
    /* applicability, ranges and cross-key rules live in one place: core/problem.c */
    if (slpi_problem_check_finished(p, "ref", err) != SLPI_OK || slpi_problem_validate(p, err) != SLPI_OK)
        return SLPI_EINPUT;
    slpi_ref *s = calloc(1, sizeof *s);
    if (s == NULL)
        return slpi_error_set(err, SLPI_ENUMERIC, "ref: out of memory");
    s->p = *p;
    int rc = slpi_ref_system_init(&s->sys, &s->p, err);
    if (rc != SLPI_OK) {
        free(s);
        return rc;
    }
    s->scheme = slpi_ref_scheme_get(p->scheme);
    /* the validator knows every scheme id; the system builds core's layout */
    if (SLPI_NEVER(s->scheme == NULL))
        rc = slpi_error_set(err, SLPI_EINPUT, "ref: scheme id %d has no table", (int)p->scheme);
    else
        rc = s->scheme->check(&s->sys, &s->p, err);
    if (rc == SLPI_OK && SLPI_NEVER(s->sys.state_dim != slpi_problem_state_dim(p)))
        rc = slpi_error_set(err, SLPI_EINPUT, "ref: state layout mismatch (%d vs %d)",
                            s->sys.state_dim, slpi_problem_state_dim(p));
    if (rc != SLPI_OK) {
        slpi_ref_system_clear(&s->sys);
        free(s);
        return rc;
    }
    s->delta = calloc((size_t)s->sys.M + 1, sizeof(double));
    if (s->delta == NULL) {
        slpi_ref_system_clear(&s->sys);
        free(s);
        return slpi_error_set(err, SLPI_ENUMERIC, "ref: out of memory");
    }
    s->work = _arb_vec_init(s->sys.state_dim);
    if (p->ref_lohner && slpi_ref_set_lohner(s, 1) != SLPI_OK) {
        slpi_ref_free(s);
        return slpi_error_set(err, SLPI_EINPUT, "propagation=lohner: not available for %s on %s (it needs "
                              "ISOMP with update=comm and solved steps, on states of at most 64 entries)",
                              slpi_scheme_name(p->scheme), slpi_system_name(p->system));
    }
    *out = s;
    return SLPI_OK;
}

static void lohner_free(slpi_ref *s)
{
    int n = s->sys.state_dim;
    if (s->lo == NULL)
        return;
    _arb_vec_clear(s->lo->c, n);
    _arb_vec_clear(s->lo->r, n);
    _arb_vec_clear(s->lo->out, n);
    _arb_vec_clear(s->lo->plain, n);
    arb_mat_clear(s->lo->A);
    free(s->lo);
    s->lo = NULL;
}

/* Whether the scheme's certified step Jacobian serves this problem (the Lohner propagation
 * and ISOMP's Poisson defect use it). */
static int has_step_jacobian(const slpi_ref *s)
{
    return s->scheme->jac != NULL && s->sys.state_dim <= LOHNER_MAX && s->p.fixed_iters == 0 &&
           !(s->p.scheme == SLPI_SCHEME_ISOMP && s->p.isomp_update != SLPI_ISO_UPDATE_COMM);
}

int slpi_ref_set_lohner(slpi_ref *s, int on)
{
    int n = s->sys.state_dim;
    lohner_free(s);
    if (!on)
        return SLPI_OK;
    if (!has_step_jacobian(s))
        return SLPI_EINPUT;
    s->lo = calloc(1, sizeof *s->lo);
    if (s->lo == NULL)
        return SLPI_EINPUT;
    s->lo->c = _arb_vec_init(n);
    s->lo->r = _arb_vec_init(n);
    s->lo->out = _arb_vec_init(n);
    s->lo->plain = _arb_vec_init(n);
    arb_mat_init(s->lo->A, n, n);
    return SLPI_OK;
}

void slpi_ref_free(slpi_ref *s)
{
    if (s == NULL)
        return;
    lohner_free(s);
    _arb_vec_clear(s->work, s->sys.state_dim);
    free(s->delta);
    slpi_ref_system_clear(&s->sys);
    free(s);
}

int slpi_ref_initial_state(slpi_ref *s, arb_ptr x, slpi_error *err)
{
    int n = slpi_problem_initial_size(&s->p);
    double *c = malloc((size_t)n * sizeof *c);
    if (c == NULL)
        return slpi_error_set(err, SLPI_ENUMERIC, "ref: out of memory");
    int rc = slpi_problem_initial_state(&s->p, c, err);
    for (int i = 0; rc == SLPI_OK && i < n; i++)
        if (!isfinite(c[i]))
            rc = slpi_error_set(err, SLPI_EINPUT, "initial state of %s has NaN/Inf",
                                slpi_system_name(s->p.system));
    if (rc == SLPI_OK && slpi_problem_initial_kind(&s->p) == SLPI_INITIAL_VALUES)
        for (int i = 0; i < n; i++)
            arb_set_d(x + i, c[i]);
    else if (rc == SLPI_OK)
        s->sys.initial_map(&s->sys, x, c, s->p.prec);
    free(c);
    return rc;
}

/* the precision ladder prec, 2 prec, 4 prec, ..., ending exactly at prec_max; 0 after */
static long next_prec(long prec, long prec_max)
{
    if (prec >= prec_max)
        return 0;
    return 2 * prec < prec_max ? 2 * prec : prec_max;
}

int slpi_ref_set_step(slpi_ref *s, double h)
{
    if (!(h != 0) || !isfinite(h))
        return SLPI_EINPUT;
    s->p.h = h;
    return SLPI_OK;
}

/* Q = an orthonormal basis from the columns of B's midpoint (modified Gram-Schmidt
 * at prec, midpoints kept: Q is exact, only nearly orthogonal); I if a column
 * vanishes (any invertible basis is sound, this one only tighter). */
static void lohner_orth(arb_mat_t Q, const arb_mat_t B, slong prec)
{
    int n = arb_mat_nrows(B);
    arb_t d, t;
    arb_init(d);
    arb_init(t);
    arb_mat_get_mid(Q, B);
    for (int j = 0; j < n; j++) {
        for (int k = 0; k < j; k++) {
            arb_zero(d);
            for (int i = 0; i < n; i++)
                arb_addmul(d, arb_mat_entry(Q, i, k), arb_mat_entry(Q, i, j), prec);
            for (int i = 0; i < n; i++) {
                arb_mul(t, d, arb_mat_entry(Q, i, k), prec);
                arb_sub(arb_mat_entry(Q, i, j), arb_mat_entry(Q, i, j), t, prec);
            }
        }
        arb_zero(d);
        for (int i = 0; i < n; i++)
            arb_addmul(d, arb_mat_entry(Q, i, j), arb_mat_entry(Q, i, j), prec);
        if (!arb_is_positive(d)) {
            arb_mat_one(Q);      /* degenerate: any invertible basis is sound */
            break;
        }
        arb_rsqrt(d, d, prec);
        for (int i = 0; i < n; i++) {
            arb_mul(arb_mat_entry(Q, i, j), arb_mat_entry(Q, i, j), d, prec);
            arb_get_mid_arb(arb_mat_entry(Q, i, j), arb_mat_entry(Q, i, j));
        }
    }
    arb_clear(d);
    arb_clear(t);
}

/* Largest condition number kept for the parallelepiped basis A' = mid(J A). */
#define LOHNER_COND_MAX 1e4

/* ||A||_inf ||Ai||_inf, about (a heuristic: it only chooses the basis) */
static double lohner_cond(const arb_mat_t A, const arb_mat_t Ai)
{
    double na = 0, ni = 0;
    for (slong i = 0; i < arb_mat_nrows(A); i++) {
        double ra = 0, ri = 0;
        for (slong j = 0; j < arb_mat_ncols(A); j++) {
            ra += fabs(arf_get_d(arb_midref(arb_mat_entry(A, i, j)), ARF_RND_NEAR));
            ri += fabs(arf_get_d(arb_midref(arb_mat_entry(Ai, i, j)), ARF_RND_NEAR)) +
                  mag_get_d(arb_radref(arb_mat_entry(Ai, i, j)));
        }
        na = ra > na ? ra : na;
        ni = ri > ni ? ri : ni;
    }
    return na * ni;
}

/* One Lohner step of the set behind x (see LOHNER_MAX) at prec. x gets the hull
 * c' + A' r' intersected with the next ball of the plain trajectory (both contain the
 * exact image). */
static slpi_step_status lohner_step(slpi_ref *s, arb_ptr x, slong prec, char *why,
                                    size_t why_len)
{
    lohner_set *L = s->lo;
    int n = s->sys.state_dim, same = L->valid, ok = 0;
    for (int i = 0; i < n && same; i++)
        same = arb_equal(x + i, L->out + i);
    if (!same) {
        for (int i = 0; i < n; i++) {
            arb_get_mid_arb(L->c + i, x + i);
            arb_zero(L->r + i);
            mag_set(arb_radref(L->r + i), arb_radref(x + i));
        }
        arb_mat_one(L->A);
        _arb_vec_set(L->plain, x, n);
        L->plain_ok = 1;
    }
    L->valid = 0;
    arb_mat_t J, B, Q, Qi, R;
    arb_mat_init(J, n, n);
    arb_mat_init(B, n, n);
    arb_mat_init(Q, n, n);
    arb_mat_init(Qi, n, n);
    arb_mat_init(R, n, n);
    arb_ptr yc = _arb_vec_init(n), t = _arb_vec_init(n), u = _arb_vec_init(n);
    arb_ptr box = _arb_vec_init(n);
    /* the Jacobian over the box hull of c + A r: it holds c and the whole set */
    for (int i = 0; i < n; i++)
        arb_dot(box + i, L->c + i, 0, arb_mat_entry(L->A, i, 0), 1, L->r, 1, n, prec);
    if (!s->scheme->jac(&s->sys, J, box, s->delta, prec, why, why_len))
        goto done;
    _arb_vec_set(yc, L->c, n);
    if (s->scheme->step(&s->sys, yc, s->delta, prec, why, why_len) != SLPI_STEP_CONVERGED)
        goto done;
    arb_mat_mul(B, J, L->A, prec);                /* Phi(c + A r) in Phi(c) + B r */
    /* A' = mid(B) while it stays well conditioned (elliptic motion: no growth at all),
     * else the orthogonal factor of mid(B) (Lohner's QR method) */
    arb_mat_get_mid(Q, B);
    if (!arb_mat_inv(Qi, Q, prec) || lohner_cond(Q, Qi) > LOHNER_COND_MAX) {
        lohner_orth(Q, B, prec);
        if (!arb_mat_inv(Qi, Q, prec)) {
            snprintf(why, why_len, "lohner: basis not provably invertible");
            goto done;
        }
    }
    arb_mat_mul(R, Qi, B, prec);
    for (int i = 0; i < n; i++) {             /* new centre and its offset Phi(c) - c' */
        arb_get_mid_arb(L->c + i, yc + i);
        arb_sub(t + i, yc + i, L->c + i, prec);
    }
    for (int i = 0; i < n; i++) {             /* r' = R r + Qi (Phi(c) - c') */
        arb_dot(yc + i, NULL, 0, arb_mat_entry(R, i, 0), 1, L->r, 1, n, prec);
        arb_dot(u + i, yc + i, 0, arb_mat_entry(Qi, i, 0), 1, t, 1, n, prec);
    }
    _arb_vec_swap(L->r, u, n);
    arb_mat_swap(L->A, Q);
    /* the plain trajectory's step (dropped once it fails), then the intersection with
     * the hull c' + A' r' (the plain ball kept as it is where the hull holds it; the
     * intersection at 64 more bits, so its rounding cannot leave the plain ball) */
    if (L->plain_ok) {
        _arb_vec_set(u, L->plain, n);
        L->plain_ok = s->scheme->step(&s->sys, u, s->delta, prec, why, why_len) ==
                      SLPI_STEP_CONVERGED;
        if (L->plain_ok)
            _arb_vec_swap(L->plain, u, n);
    }
    for (int i = 0; i < n; i++) {
        arb_dot(t + i, L->c + i, 0, arb_mat_entry(L->A, i, 0), 1, L->r, 1, n, prec);
        arb_set(x + i, L->plain_ok ? L->plain + i : t + i);
        if (L->plain_ok && !arb_contains(t + i, x + i) &&
            !arb_intersection(x + i, x + i, t + i, prec + 64)) {
            snprintf(why, why_len, "lohner: hull and ball step disjoint at entry %d", i);
            goto done;
        }
    }
    _arb_vec_set(L->out, x, n);
    L->valid = ok = 1;
done:
    arb_mat_clear(J);
    arb_mat_clear(B);
    arb_mat_clear(Q);
    arb_mat_clear(Qi);
    arb_mat_clear(R);
    _arb_vec_clear(yc, n);
    _arb_vec_clear(t, n);
    _arb_vec_clear(u, n);
    _arb_vec_clear(box, n);
    return ok ? SLPI_STEP_CONVERGED : SLPI_STEP_UNABLE;
}

void slpi_ref_set_watch(slpi_ref *s, void (*fn)(void *ctx, const slpi_ref_work *w), void *ctx)
{
    s->watch = fn;
    s->watch_ctx = ctx;
}

const char *slpi_ref_unable_reason(const slpi_ref *s)
{
    return s->why;
}

slpi_step_status slpi_ref_step(slpi_ref *s, arb_ptr x, const double *dW, slpi_step_info *info)
{
    int n = s->sys.state_dim;
    slpi_step_info local;
    if (info == NULL)
        info = &local;
    memset(info, 0, sizeof *info);
    long step = s->step_index++;
    s->why[0] = '\0';
    s->delta[0] = s->p.h;
    for (int k = 1; k <= s->sys.M; k++) {
        s->delta[k] = dW[k - 1];
        if (!isfinite(dW[k - 1])) {
            snprintf(s->why, sizeof s->why, "step %ld: increment dW[%d] is not finite",
                     step, k - 1);
            return info->status = SLPI_STEP_INVALID;
        }
    }
    for (int i = 0; i < n; i++)
        if (!arb_is_finite(x + i)) {
            snprintf(s->why, sizeof s->why, "step %ld: state entry %d is not finite",
                     step, i);
            return info->status = SLPI_STEP_INVALID;
        }
    char why[200] = "";
    slpi_ref_iterations_take();
    slpi_ref_watch_begin(s->watch, s->watch_ctx, step);
    for (long prec = s->p.prec; prec > 0; prec = next_prec(prec, s->p.prec_max)) {
        slpi_ref_watch_prec(prec);
        _arb_vec_set(s->work, x, n);
        slpi_step_status st = SLPI_STEP_UNABLE;
        if (s->sys.fault != NULL)
            s->sys.fault(&s->sys, why, sizeof why);   /* forget earlier evaluations' */
        if (s->lo != NULL)
            st = lohner_step(s, s->work, prec, why, sizeof why);
        if (st != SLPI_STEP_CONVERGED) {        /* the plain ball step */
            _arb_vec_set(s->work, x, n);
            st = s->scheme->step(&s->sys, s->work, s->delta, prec, why, sizeof why);
        }
        /* a domain error anywhere in the attempt (a model's log of a ball reaching 0,
         * ...) makes it UNABLE with its reason, whatever the scheme concluded */
        if (s->sys.fault != NULL && s->sys.fault(&s->sys, why, sizeof why))
            st = SLPI_STEP_UNABLE;
        info->prec = prec;
        info->iterations = (int)slpi_ref_iterations_take() + info->iterations;
        if (st == SLPI_STEP_CONVERGED) {
            slpi_ref_watch_end();
            _arb_vec_set(x, s->work, n);
            info->status = st;
            info->radius = slpi_ref_vec_radius(x, n);
            return st;
        }
    }
    slpi_ref_watch_end();
    snprintf(s->why, sizeof s->why, "step %ld: UNABLE at precision cap %ld bits: %.150s", step,
             s->p.prec_max, why);
    info->radius = INFINITY;
    return info->status = SLPI_STEP_UNABLE;
}

void slpi_ref_diag_init(slpi_ref_diag *d)
{
    d->n = 0;
    for (int i = 0; i < SLPI_MAX_DIAG; i++) {
        d->name[i] = NULL;
        arb_init(d->value + i);
    }
}

void slpi_ref_diag_clear(slpi_ref_diag *d)
{
    for (int i = 0; i < SLPI_MAX_DIAG; i++)
        arb_clear(d->value + i);
    d->n = 0;
}

void slpi_ref_diagnostics(slpi_ref *s, arb_srcptr x, arb_srcptr x0, slpi_ref_diag *d)
{
    const slpi_ref_system *sys = &s->sys;
    slong prec = s->p.prec_max;
    int m = sys->n_inv;
    arb_ptr v = _arb_vec_init(m), v0 = _arb_vec_init(m);
    sys->invariants(sys, v, x, prec);
    if (x0 != NULL)
        sys->invariants(sys, v0, x0, prec);
    d->n = 0;
    for (int i = 0; i < m && d->n < SLPI_MAX_DIAG; i++) {
        d->name[d->n] = sys->inv_name[i];
        arb_set(d->value + d->n++, v + i);
    }
    for (int i = 0; x0 != NULL && i < m && d->n < SLPI_MAX_DIAG; i++) {
        d->name[d->n] = sys->inv_delta_name[i];
        arb_sub(d->value + d->n++, v + i, v0 + i, prec);
    }
    _arb_vec_clear(v, m);
    _arb_vec_clear(v0, m);
}

/* ISOMP's defect (docs/schemes.md#isomp; ISO Thm 4.5): D the scheme's step Jacobian at
 * the point x, J(y) e_j = coad(e_j / g_j, y) the Lie-Poisson tensor in the state's
 * coordinates, g_j = |unpack(e_j)|_F^2 the Frobenius metric of coordinate j (1 without a
 * matrix form; the su(N) layout weighs off-diagonal entries twice). A constant factor and
 * the sign do not matter to D J(x) D^T = J(x_1). */
static int isomp_poisson_defect(slpi_ref *s, arb_srcptr x, arb_ptr defect, slong prec, char *why,
                                size_t why_len)
{
    const slpi_ref_system *sys = &s->sys;
    int d = sys->state_dim;
    arb_mat_t D, J0, J1, T;
    arb_mat_init(D, d, d);
    arb_mat_init(J0, d, d);
    arb_mat_init(J1, d, d);
    arb_mat_init(T, d, d);
    arb_ptr x1 = _arb_vec_init(d), e = _arb_vec_init(d), col = _arb_vec_init(d);
    _arb_vec_set(x1, x, d);
    int ok = s->scheme->jac(sys, D, x, s->delta, prec, why, why_len) &&
             s->scheme->step(sys, x1, s->delta, prec, why, why_len) == SLPI_STEP_CONVERGED;
    acb_mat_t E;
    acb_mat_init(E, sys->N > 0 ? sys->N : 1, sys->N > 0 ? sys->N : 1);
    for (int j = 0; ok && j < d; j++) {
        _arb_vec_zero(e, d);
        arb_one(e + j);
        if (sys->m_unpack != NULL && sys->N > 0) {
            arb_t g;
            arb_init(g);
            sys->m_unpack(sys, E, e, prec);
            for (int a = 0; a < sys->N * sys->N; a++) {
                acb_srcptr z = acb_mat_entry(E, a / sys->N, a % sys->N);
                arb_addmul(g, acb_realref(z), acb_realref(z), prec);
                arb_addmul(g, acb_imagref(z), acb_imagref(z), prec);
            }
            arb_div(e + j, e + j, g, prec);
            arb_clear(g);
        }
        sys->coad(sys, col, e, x, prec);
        for (int i = 0; i < d; i++)
            arb_set(arb_mat_entry(J0, i, j), col + i);
        sys->coad(sys, col, e, x1, prec);
        for (int i = 0; i < d; i++)
            arb_set(arb_mat_entry(J1, i, j), col + i);
    }
    if (ok) {
        arb_mat_mul(T, D, J0, prec);
        arb_mat_transpose(J0, D);
        arb_mat_mul(D, T, J0, prec);
        arb_mat_sub(D, D, J1, prec);
        for (int i = 0; i < d; i++)
            for (int j = 0; j < d; j++)
                arb_set(defect + d * i + j, arb_mat_entry(D, i, j));
    }
    acb_mat_clear(E);
    _arb_vec_clear(x1, d);
    _arb_vec_clear(e, d);
    _arb_vec_clear(col, d);
    arb_mat_clear(D);
    arb_mat_clear(J0);
    arb_mat_clear(J1);
    arb_mat_clear(T);
    return ok;
}

int slpi_ref_poisson_defect(slpi_ref *s, arb_srcptr x, const double *dW, arb_ptr defect,
                            slpi_error *err)
{
    const slpi_problem *p = &s->p;
    int svi = p->scheme == SLPI_SCHEME_SVI && p->svi_form != SLPI_SVI_FORM_LP &&
              (p->system == SLPI_SYS_RIGID_BODY || p->system == SLPI_SYS_HEAVY_TOP);
    int isomp = p->scheme == SLPI_SCHEME_ISOMP && has_step_jacobian(s) &&
                s->sys.gdim == s->sys.state_dim;
    if (!svi && !isomp)
        return slpi_error_set(err, SLPI_EINPUT,
                              "ref: the Poisson defect is certified for svi on the rigid body and "
                              "the heavy top in vector form and for isomp (update=comm, no "
                              "fixed_iters, state of at most %d numbers), not %s/%s", LOHNER_MAX,
                              slpi_system_name(p->system), slpi_scheme_name(p->scheme));
    s->delta[0] = p->h;
    for (int k = 1; k <= s->sys.M; k++)
        s->delta[k] = dW[k - 1];
    char why[200] = "";
    for (long prec = p->prec; prec > 0; prec = next_prec(prec, p->prec_max))
        if (svi ? slpi_ref_svi_poisson_defect(&s->sys, x, s->delta, defect, prec, why, sizeof why)
                : isomp_poisson_defect(s, x, defect, prec, why, sizeof why))
            return SLPI_OK;
    return slpi_error_set(err, SLPI_ENUMERIC, "ref: Poisson defect UNABLE at %ld bits: %s",
                          p->prec_max, why);
}
