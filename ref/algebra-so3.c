/* ref/algebra-so3.c — the so(3) family in balls (ref/algebra.h; docs/conventions.md#hat-maps):
 * X = hat x, so coad(b, x) = b × x and hat a hat y hat c + hat c hat y hat a =
 * -hat((a . y) c + (c . y) a); the Casimir |x|^2 and the departure eig_dev. Used by the
 * rigid body (ref/rigid-body.c) and the models on so3 (ref/model.c). */
#include "core/slpi-flint.h"
#include "ref/algebra.h"
#include "ref/matrix.h"

#include <stddef.h>

void slpi_ref_so3_m_unpack(const slpi_ref_system *s, acb_mat_t X, arb_srcptr x, slong prec)
{
    (void)s;
    (void)prec;
    acb_mat_zero(X);
    arb_set(acb_realref(acb_mat_entry(X, 2, 1)), x + 0);
    arb_set(acb_realref(acb_mat_entry(X, 0, 2)), x + 1);
    arb_set(acb_realref(acb_mat_entry(X, 1, 0)), x + 2);
    arb_neg(acb_realref(acb_mat_entry(X, 1, 2)), x + 0);
    arb_neg(acb_realref(acb_mat_entry(X, 2, 0)), x + 1);
    arb_neg(acb_realref(acb_mat_entry(X, 0, 1)), x + 2);
}

void slpi_ref_so3_m_pack(const slpi_ref_system *s, arb_ptr x, const acb_mat_t X, slong prec)
{
    (void)s;
    (void)prec;
    arb_set(x + 0, acb_realref(acb_mat_entry(X, 2, 1)));
    arb_set(x + 1, acb_realref(acb_mat_entry(X, 0, 2)));
    arb_set(x + 2, acb_realref(acb_mat_entry(X, 1, 0)));
}

void slpi_ref_so3_coad(const slpi_ref_system *s, arb_ptr out, arb_srcptr b, arb_srcptr mu, slong prec)
{
    (void)s;
    slpi_ref_cross(out, b, mu, prec);
}

void slpi_ref_so3_m_sandwich(const slpi_ref_system *s, arb_ptr out, arb_srcptr a, arb_srcptr y, arb_srcptr c,
                             slong prec)
{
    (void)s;
    arb_t ay, cy;
    arb_init(ay);
    arb_init(cy);
    arb_dot(ay, NULL, 1, a, 1, y, 1, 3, prec); /* -(a . y) */
    arb_dot(cy, NULL, 1, c, 1, y, 1, 3, prec); /* -(c . y) */
    for (int i = 0; i < 3; i++) {
        arb_mul(out + i, ay, c + i, prec);
        arb_addmul(out + i, cy, a + i, prec);
    }
    arb_clear(ay);
    arb_clear(cy);
}

/* so(3)'s departure (fast/rigid-body.c): eig_dev = | |x| - |x0| | (the eigenvalues of
 * i hat(x) are -|x|, 0, |x|). */
void slpi_ref_so3_departures(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, arb_srcptr x0, slong prec)
{
    arb_t a, b;
    arb_init(a);
    arb_init(b);
    arb_dot(a, NULL, 0, x, 1, x, 1, 3, prec);
    arb_sqrt(a, a, prec);
    arb_dot(b, NULL, 0, x0, 1, x0, 1, 3, prec);
    arb_sqrt(b, b, prec);
    slpi_ref_max_abs_diff(out + 0, a, b, 1, prec);
    arb_clear(a);
    arb_clear(b);
    (void)s;
}

void slpi_ref_so3_casimir_names(slpi_ref_system *s)
{
    s->n_inv = 2;
    s->inv_name[1] = "casimir_norm2"; /* |x|^2 */
    s->inv_delta_name[1] = "casimir_norm2_dev";
    s->n_dep = 1;
    s->dep_name[0] = "eig_dev";
    s->departures = slpi_ref_so3_departures;
}
