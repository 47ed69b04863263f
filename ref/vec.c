/* ref/vec.c — small ball-vector kernels the system and scheme files share: the cross
 * product of 3-vectors, the largest radius of a ball vector and the largest difference of
 * two. */
#include "ref/vec.h"

double slpi_ref_vec_radius(arb_srcptr x, int n)
{
    mag_t m;
    mag_init(m);
    for (int i = 0; i < n; i++)
        mag_max(m, m, arb_radref(x + i));
    double r = mag_get_d(m);
    mag_clear(m);
    return r;
}

void slpi_ref_cross(arb_ptr out, arb_srcptr a, arb_srcptr b, slong prec)
{
    arb_t t;
    arb_init(t);
    arb_ptr r = _arb_vec_init(3);
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        arb_mul(r + i, a + j, b + k, prec);
        arb_mul(t, a + k, b + j, prec);
        arb_sub(r + i, r + i, t, prec);
    }
    _arb_vec_set(out, r, 3);
    _arb_vec_clear(r, 3);
    arb_clear(t);
}

void slpi_ref_max_abs_diff(arb_t out, arb_srcptr a, arb_srcptr b, int n, slong prec)
{
    arb_t t;
    arb_init(t);
    arb_zero(out);
    for (int i = 0; i < n; i++) {
        arb_sub(t, a + i, b + i, prec);
        arb_abs(t, t);
        arb_max(out, out, t, prec);
    }
    arb_clear(t);
}
