/* ref/algebra-se3.c — the se(3) family in balls (ref/algebra.h; docs/conventions.md#brackets):
 *   mu = (pi, gamma), dot pairing; sigma = (xi, b);
 *   ad*_(xi,b)(pi,gamma) = (pi × xi + gamma × b, gamma × xi);
 *   [(xi1,b1),(xi2,b2)] = (xi1 × xi2, xi1 × b2 - xi2 × b1);
 *   O_exp(sigma; mu) = exp(ad*_sigma) mu, the 6x6 exponential of
 *   ad*_sigma = -[[hat xi, hat b], [0, hat xi]] (literal; the closed form of RKMK §4.2.1
 *   is the second way in the tests); the Casimirs |gamma|^2 and pi . gamma.
 * Used by the heavy top (ref/heavy-top.c) and the models on se3 (ref/model.c). */
#include "core/slpi-flint.h"
#include "ref/algebra.h"

#include <stddef.h>

void slpi_ref_se3_coad(const slpi_ref_system *s, arb_ptr out, arb_srcptr b, arb_srcptr mu, slong prec)
{
    (void)s;
    arb_ptr t = _arb_vec_init(6);
    slpi_ref_cross(t, mu, b, prec);             /* pi × xi */
    slpi_ref_cross(t + 3, mu + 3, b + 3, prec); /* gamma × b */
    _arb_vec_add(t, t, t + 3, 3, prec);
    slpi_ref_cross(t + 3, mu + 3, b, prec); /* gamma × xi */
    _arb_vec_set(out, t, 6);
    _arb_vec_clear(t, 6);
}

void slpi_ref_se3_lie(const slpi_ref_system *s, arb_ptr out, arb_srcptr a, arb_srcptr b, slong prec)
{
    (void)s;
    arb_ptr t = _arb_vec_init(9);
    slpi_ref_cross(t, a, b, prec);
    slpi_ref_cross(t + 3, a, b + 3, prec);
    slpi_ref_cross(t + 6, b, a + 3, prec);
    _arb_vec_sub(t + 3, t + 3, t + 6, 3, prec);
    _arb_vec_set(out, t, 6);
    _arb_vec_clear(t, 9);
}

/* A = ad*_sigma as a 6x6 matrix: A e_j = coad(sigma, e_j) */
static void coad_matrix(const slpi_ref_system *s, arb_mat_t A, arb_srcptr sigma, slong prec)
{
    arb_ptr e = _arb_vec_init(6), col = _arb_vec_init(6);
    for (int j = 0; j < 6; j++) {
        _arb_vec_zero(e, 6);
        arb_one(e + j);
        slpi_ref_se3_coad(s, col, sigma, e, prec);
        for (int i = 0; i < 6; i++) arb_set(arb_mat_entry(A, i, j), col + i);
    }
    _arb_vec_clear(e, 6);
    _arb_vec_clear(col, 6);
}

static void mat_vec(arb_ptr out, const arb_mat_t A, arb_srcptr v, slong prec)
{
    for (slong i = 0; i < arb_mat_nrows(A); i++) arb_dot(out + i, NULL, 0, A->rows[i], 1, v, 1, arb_mat_ncols(A), prec);
}

void slpi_ref_se3_orbit(const slpi_ref_system *s, arb_ptr out, arb_srcptr sigma, arb_srcptr mu, slong prec)
{
    arb_mat_t A, E;
    arb_mat_init(A, 6, 6);
    arb_mat_init(E, 6, 6);
    coad_matrix(s, A, sigma, prec);
    arb_mat_exp(E, A, prec);
    arb_ptr t = _arb_vec_init(6);
    mat_vec(t, E, mu, prec);
    _arb_vec_set(out, t, 6);
    _arb_vec_clear(t, 6);
    arb_mat_clear(A);
    arb_mat_clear(E);
}

/* d/dt exp(ad*_{sigma + t dsigma}) (mu + t dmu): block exponential */
void slpi_ref_se3_dorbit(const slpi_ref_system *s, arb_ptr out, arb_srcptr sigma, arb_srcptr dsigma, arb_srcptr mu,
                         arb_srcptr dmu, slong prec)
{
    arb_mat_t A, dA, big, E;
    arb_mat_init(A, 6, 6);
    arb_mat_init(dA, 6, 6);
    arb_mat_init(big, 12, 12);
    arb_mat_init(E, 12, 12);
    coad_matrix(s, A, sigma, prec);
    coad_matrix(s, dA, dsigma, prec);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            arb_set(arb_mat_entry(big, i, j), arb_mat_entry(A, i, j));
            arb_set(arb_mat_entry(big, 6 + i, 6 + j), arb_mat_entry(A, i, j));
            arb_set(arb_mat_entry(big, i, 6 + j), arb_mat_entry(dA, i, j));
        }
    arb_mat_exp(E, big, prec);
    arb_ptr t = _arb_vec_init(6);
    for (int i = 0; i < 6; i++) {
        arb_dot(t + i, NULL, 0, E->rows[i] + 6, 1, mu, 1, 6, prec);
        if (dmu != NULL) arb_dot(t + i, t + i, 0, E->rows[i], 1, dmu, 1, 6, prec);
    }
    _arb_vec_set(out, t, 6);
    _arb_vec_clear(t, 6);
    arb_mat_clear(A);
    arb_mat_clear(dA);
    arb_mat_clear(big);
    arb_mat_clear(E);
}

void slpi_ref_se3_casimir_names(slpi_ref_system *s)
{
    s->n_inv = 3;
    s->inv_name[1] = "C1"; /* |gamma|^2 */
    s->inv_delta_name[1] = "C1_dev";
    s->inv_name[2] = "C2"; /* pi . gamma */
    s->inv_delta_name[2] = "C2_dev";
}
