/* noise-trunc.c — truncation of Wiener increments (docs/noise.md#truncation; ISO §4.2 after eq. (22),
 * A_h = sqrt(2 ell |ln h|) on dW/sqrt(h); SVI eq. (55), D_dt = sqrt(4 |ln dt| dt) on dW).
 * The two rules coincide: one threshold D(h, ell) = sqrt(2 ell h |ln h|) on the
 * increment, evaluated once in Arb ball arithmetic with the precision raised until the
 * ball determines the round-to-nearest binary64, then applied by exact comparison. */
#include "core/problem-struct.h"
#include "slpi/noise.h"
#include "slpi/problem-shape.h"
#include "core/slpi-flint.h"

#include <math.h>
#include <stddef.h>

double slpi_noise_threshold(double h, double ell)
{
    if (!(h > 0 && h < 1) || !(ell > 0) || !isfinite(ell)) {
        return NAN; /* outside the rule's domain; callers report it (noise source) */
    }
    arb_t d, lh, e;
    arb_init(d);
    arb_init(lh);
    arb_init(e);
    double out = NAN;
    for (slong prec = 64; prec <= 4096; prec *= 2) {
        arb_set_d(lh, h);
        arb_log(lh, lh, prec);
        arb_neg(lh, lh); /* |ln h| = -ln h for 0 < h < 1 */
        arb_set_d(d, h);
        arb_mul(d, d, lh, prec);
        arb_set_d(e, ell);
        arb_mul(d, d, e, prec);
        arb_mul_2exp_si(d, d, 1);
        arb_sqrt(d, d, prec);
        if (arb_can_round_arf(d, 53, ARF_RND_NEAR)) {
            out = arf_get_d(arb_midref(d), ARF_RND_NEAR);
            break;
        }
    }
    arb_clear(d);
    arb_clear(lh);
    arb_clear(e);
    return out;
}

long slpi_noise_clip(double *x, size_t n, double D)
{
    long clipped = 0;
    for (size_t i = 0; i < n; i++) {
        if (x[i] > D) {
            x[i] = D;
            clipped++;
        } else if (x[i] < -D) {
            x[i] = -D;
            clipped++;
        }
    }
    return clipped;
}

double slpi_problem_noise_threshold(const slpi_problem *p)
{
    return slpi_problem_truncates(p) ? slpi_noise_threshold(p->grid.h, p->noise.trunc_ell) : INFINITY;
}
