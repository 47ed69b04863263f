/* ref/vec.c — small ball-vector kernels the system and scheme files share: the cross
 * product of 3-vectors, the largest radius of a ball vector, the largest difference of two
 * and a ball's magnitude range. */
#include "core/slpi-flint.h"
#include "ref/vec.h"

double slpi_ref_vec_radius(arb_srcptr x, int n)
{
    mag_t m;
    mag_init(m);
    for (int i = 0; i < n; i++) mag_max(m, m, arb_radref(x + i));
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

int slpi_ref_within(const arb_t x, double lo, double hi)
{
    if (!arb_is_finite(x)) return 0;
    arf_t a, b;
    arf_init(a);
    arf_init(b);
    arb_get_abs_lbound_arf(a, x, 64); /* rounded down */
    arb_get_abs_ubound_arf(b, x, 64); /* rounded up */
    int in = arf_cmp_d(a, lo) >= 0 && arf_cmp_d(b, hi) <= 0;
    arf_clear(a);
    arf_clear(b);
    return in;
}
