/* ref/lohner.c — the mean-value (Lohner) propagation of the certified path (key
 * propagation=lohner; the method: ref/ref.h, slpi_ref_lohner_set): the set behind the last
 * output, its QR re-basing and one step of it. */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "slpi/step.h"
#include "slpi/ref.h"
#include "core/problem-options.h"
#include "ref/ref.h"
#include "core/view-scheme.h"
#include "core/view-solver.h"

void slpi_ref_lohner_free(slpi_ref *s)
{
    int n = s->sys.state_dim;
    if (s->lo == NULL) return;
    _arb_vec_clear(s->lo->c, n);
    _arb_vec_clear(s->lo->r, n);
    _arb_vec_clear(s->lo->out, n);
    _arb_vec_clear(s->lo->plain, n);
    arb_mat_clear(s->lo->A);
    free(s->lo);
    s->lo = NULL;
}

int slpi_ref_lohner_size(const slpi_ref *s)
{
    int n = s->sys.state_dim;
    return s->lo ? 1 + 3 * n + n * n : 0;
}

void slpi_ref_lohner_get(arb_ptr v, const slpi_ref *s)
{
    const slpi_ref_lohner_set *L = s->lo;
    int n = s->sys.state_dim;
    arb_set_si(v, L->valid + 2 * L->plain_ok);
    _arb_vec_set(v + 1, L->c, n);
    _arb_vec_set(v + 1 + n, L->r, n);
    _arb_vec_set(v + 1 + 2 * n, L->plain, n);
    for (int i = 0; i < n; i++) _arb_vec_set(v + 1 + 3 * n + i * n, arb_mat_entry(L->A, i, 0), n);
}

int slpi_ref_lohner_put(slpi_ref *s, arb_srcptr v, arb_srcptr x)
{
    slpi_ref_lohner_set *L = s->lo;
    int n = s->sys.state_dim, exact = 1;
    for (int i = 0; i < n; i++) /* the centre and the basis are exact */
        exact = exact && arb_is_exact(v + 1 + i);
    for (int i = 0; i < n * n; i++) exact = exact && arb_is_exact(v + 1 + 3 * n + i);
    slong f = arb_is_int(v) ? arf_get_si(arb_midref(v), ARF_RND_DOWN) : -1;
    if (!exact || f < 0 || f > 3) return SLPI_EINPUT;
    L->valid = (int)(f & 1);
    L->plain_ok = (int)(f >> 1);
    _arb_vec_set(L->c, v + 1, n);
    _arb_vec_set(L->r, v + 1 + n, n);
    _arb_vec_set(L->plain, v + 1 + 2 * n, n);
    for (int i = 0; i < n; i++) _arb_vec_set(arb_mat_entry(L->A, i, 0), v + 1 + 3 * n + i * n, n);
    _arb_vec_set(L->out, x, n);
    return SLPI_OK;
}

int slpi_ref_has_step_jacobian(const slpi_ref *s)
{
    return s->scheme->jac != NULL && s->sys.state_dim <= SLPI_REF_LOHNER_MAX &&
        slpi_view_solver(s->p)->fixed_iters == 0 &&
        !(slpi_view_scheme(s->p)->scheme == SLPI_SCHEME_ISOMP &&
          slpi_view_scheme(s->p)->isomp_update != SLPI_ISO_UPDATE_COMM);
}

int slpi_ref_set_lohner(slpi_ref *s, int on)
{
    int n = s->sys.state_dim;
    slpi_ref_lohner_free(s);
    if (!on) return SLPI_OK;
    if (!slpi_ref_has_step_jacobian(s)) return SLPI_EINPUT;
    s->lo = calloc(1, sizeof *s->lo);
    if (s->lo == NULL) return SLPI_EINPUT;
    s->lo->c = _arb_vec_init(n);
    s->lo->r = _arb_vec_init(n);
    s->lo->out = _arb_vec_init(n);
    s->lo->plain = _arb_vec_init(n);
    arb_mat_init(s->lo->A, n, n);
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
            for (int i = 0; i < n; i++) arb_addmul(d, arb_mat_entry(Q, i, k), arb_mat_entry(Q, i, j), prec);
            for (int i = 0; i < n; i++) {
                arb_mul(t, d, arb_mat_entry(Q, i, k), prec);
                arb_sub(arb_mat_entry(Q, i, j), arb_mat_entry(Q, i, j), t, prec);
            }
        }
        arb_zero(d);
        for (int i = 0; i < n; i++) arb_addmul(d, arb_mat_entry(Q, i, j), arb_mat_entry(Q, i, j), prec);
        if (!arb_is_positive(d)) {
            arb_mat_one(Q); /* degenerate: any invertible basis is sound */
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

/* One Lohner step of the set behind x at prec. x gets the hull c' + A' r' intersected
 * with the next ball of the plain trajectory (both contain the exact image). */
slpi_step_status slpi_ref_lohner_step(slpi_ref *s, arb_ptr x, slong prec, char *why, size_t why_len)
{
    slpi_ref_lohner_set *L = s->lo;
    int n = s->sys.state_dim, same = L->valid, ok = 0;
    for (int i = 0; i < n && same; i++) same = arb_equal(x + i, L->out + i);
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
    for (int i = 0; i < n; i++) arb_dot(box + i, L->c + i, 0, arb_mat_entry(L->A, i, 0), 1, L->r, 1, n, prec);
    if (!s->scheme->jac(&s->sys, J, box, s->delta, prec, why, why_len)) goto done;
    _arb_vec_set(yc, L->c, n);
    if (s->scheme->step(&s->sys, yc, s->delta, prec, why, why_len) != SLPI_STEP_CONVERGED) goto done;
    arb_mat_mul(B, J, L->A, prec); /* Phi(c + A r) in Phi(c) + B r */
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
    for (int i = 0; i < n; i++) { /* new centre and its offset Phi(c) - c' */
        arb_get_mid_arb(L->c + i, yc + i);
        arb_sub(t + i, yc + i, L->c + i, prec);
    }
    for (int i = 0; i < n; i++) { /* r' = R r + Qi (Phi(c) - c') */
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
        L->plain_ok = s->scheme->step(&s->sys, u, s->delta, prec, why, why_len) == SLPI_STEP_CONVERGED;
        if (L->plain_ok) _arb_vec_swap(L->plain, u, n);
    }
    for (int i = 0; i < n; i++) {
        arb_dot(t + i, L->c + i, 0, arb_mat_entry(L->A, i, 0), 1, L->r, 1, n, prec);
        arb_set(x + i, L->plain_ok ? L->plain + i : t + i);
        if (L->plain_ok && !arb_contains(t + i, x + i) && !arb_intersection(x + i, x + i, t + i, prec + 64)) {
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
