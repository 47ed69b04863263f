/* t-ref-krawczyk — the generic Krawczyk enclosure (ref/krawczyk.c):
 *  - a zero known in closed form is contained (sqrt(c), c a ball parameter: the
 *    enclosure must contain sqrt(c') for every c' in the ball, checked at both ends);
 *  - a 2x2 nonlinear system with exact zero (1, 2) is contained, tight;
 *  - no zero (y^2 + 1) and a singular zero (y^2) are refused, never guessed; the
 *    fixed-point operator refuses a repelling fixed point ("does not contract") and a
 *    contraction too slow for its cap ("did not reach its tolerance"), saying which;
 *  - precision: an ill-conditioned zero is refused at 32 bits and certified at 64; a
 *    tight enclosure at 64 bits is coarser than at 256;
 *  - stagnation (kind 6): F loses 41 bits of y0 to cancellation, so near the zero its
 *    computed value is a sawtooth of amplitude ~2^-88 that no midpoint can cancel; with
 *    condition ~2^22 Newton's correction jitters near 2^-68, never below the 2^(8-128)
 *    |y| of convergence at 128 bits: the stagnation rule (accept below |y| 2^(-prec/2)
 *    once the correction stops halving) must accept it, and the Krawczyk test, whose
 *    balls carry the lost bits, certifies a box holding the zero (1/3, 1/3);
 *  - the solver work it reports (slpi_ref_iterations_take): fewer iterations from the
 *    double nearest sqrt(c) than from 1% off, at least one Newton step and one test;
 *  - wide parameter sets (radius 1e-4 and 1e-3), both Krawczyk operators (the dense one
 *    and the Jacobian-free fixed-point one): the enclosure holds the zero of every
 *    parameter of the set, checked at the set's corners and at random interior points
 *    (closed forms, or the solver at 256 bits from the point parameter). The guess is
 *    the midpoint's zero, so the preconditioner is exact there and only the set-valued
 *    term (I - Y F'(X)) Z (resp. DG(X)[Z]) covers the curvature over the set: a Jacobian
 *    taken at the midpoint y~ instead of over the box X misses the corners by about
 *    r^2 / (8 c^(3/2)) (resp. r^2), far above the rounding level at these radii;
 *    the fixed-point operator also with centre_prev (the test centred on the iteration's
 *    last point but one, whose image it has), which must take exactly one evaluation of G
 *    fewer and hold the same fixed point. */
#include "testutil.h"
#include "ref/krawczyk.h"

typedef struct {
    arb_t c;
    int kind;
    arb_t d;
} prob;

/* kind 0: y^2 - c; 1: y^2 + 1; 2: y^2; 3: (y0^2 + y1 - 3, y0 y1^2 - 4 y0) zero (1,2);
 * 5: kind 3 minus the parameters (c, d), zero (1, 2) at (c, d) = 0;
 * 4: the linear system (y0 + y1 - 2, y0 + (1 + 2^-40) y1 - 2 - 2^-40), zero (1, 1),
 *    condition ~2^42;
 * 6: (3 (((y0 + 2^40) - 2^40) + y1) - 2, 3 (y0 + (1 + 2^-20) y1) - 2 - 2^-20), zero
 *    (1/3, 1/3), condition ~2^22; (y0 + 2^40) - 2^40 is y0 in exact arithmetic and y0
 *    rounded to 2^-87 at 128 bits */
static void F(void *ctx, arb_ptr out, arb_srcptr y, slong prec)
{
    prob *p = ctx;
    switch (p->kind) {
    case 0:
        arb_sqr(out, y, prec);
        arb_sub(out, out, p->c, prec);
        break;
    case 1:
        arb_sqr(out, y, prec);
        arb_add_ui(out, out, 1, prec);
        break;
    case 2:
        arb_sqr(out, y, prec);
        break;
    case 4: {
        arb_t e;
        arb_init(e);
        arb_one(e);
        arb_mul_2exp_si(e, e, -40);
        arb_add(out, y, y + 1, prec);
        arb_sub_ui(out, out, 2, prec);
        arb_add_ui(out + 1, e, 1, prec);
        arb_mul(out + 1, out + 1, y + 1, prec);
        arb_add(out + 1, out + 1, y, prec);
        arb_sub_ui(out + 1, out + 1, 2, prec);
        arb_sub(out + 1, out + 1, e, prec);
        arb_clear(e);
        break;
    }
    case 6: {
        arb_t t;
        arb_init(t);
        arb_one(t);
        arb_mul_2exp_si(t, t, 40);
        arb_add(out, y, t, prec);
        arb_sub(out, out, t, prec);
        arb_add(out, out, y + 1, prec);
        arb_mul_ui(out, out, 3, prec);
        arb_sub_ui(out, out, 2, prec);
        arb_one(t);
        arb_mul_2exp_si(t, t, -20);
        arb_add_ui(out + 1, t, 1, prec);
        arb_mul(out + 1, out + 1, y + 1, prec);
        arb_add(out + 1, out + 1, y, prec);
        arb_mul_ui(out + 1, out + 1, 3, prec);
        arb_sub_ui(out + 1, out + 1, 2, prec);
        arb_sub(out + 1, out + 1, t, prec);
        arb_clear(t);
        break;
    }
    default: {
        arb_t t;
        arb_init(t);
        arb_sqr(t, y, prec);
        arb_add(t, t, y + 1, prec);
        arb_sub_ui(out, t, 3, prec);
        arb_sqr(t, y + 1, prec);
        arb_sub_ui(t, t, 4, prec);
        arb_mul(out + 1, t, y, prec);
        arb_clear(t);
        if (p->kind == 5) {
            arb_sub(out, out, p->c, prec);
            arb_sub(out + 1, out + 1, p->d, prec);
        }
    }
    }
}

static void J(void *ctx, arb_mat_t Jm, arb_srcptr y, slong prec)
{
    prob *p = ctx;
    if (p->kind < 3) {
        arb_mul_2exp_si(arb_mat_entry(Jm, 0, 0), y, 1);
        return;
    }
    if (p->kind == 4 || p->kind == 6) { /* k [[1, 1], [1, 1 + 2^-e]] */
        ulong k = p->kind == 4 ? 1 : 3;
        arb_set_ui(arb_mat_entry(Jm, 0, 0), k);
        arb_set_ui(arb_mat_entry(Jm, 0, 1), k);
        arb_set_ui(arb_mat_entry(Jm, 1, 0), k);
        arb_one(arb_mat_entry(Jm, 1, 1));
        arb_mul_2exp_si(arb_mat_entry(Jm, 1, 1), arb_mat_entry(Jm, 1, 1), p->kind == 4 ? -40 : -20);
        arb_add_ui(arb_mat_entry(Jm, 1, 1), arb_mat_entry(Jm, 1, 1), 1, prec);
        arb_mul_ui(arb_mat_entry(Jm, 1, 1), arb_mat_entry(Jm, 1, 1), k, prec);
        return;
    }
    arb_mul_2exp_si(arb_mat_entry(Jm, 0, 0), y, 1);
    arb_one(arb_mat_entry(Jm, 0, 1));
    arb_sqr(arb_mat_entry(Jm, 1, 0), y + 1, prec);
    arb_sub_ui(arb_mat_entry(Jm, 1, 0), arb_mat_entry(Jm, 1, 0), 4, prec);
    arb_mul(arb_mat_entry(Jm, 1, 1), y, y + 1, prec);
    arb_mul_2exp_si(arb_mat_entry(Jm, 1, 1), arb_mat_entry(Jm, 1, 1), 1);
}

/* the fixed-point maps with a wide parameter set (c, d) (ctx: a prob):
 * kind 0: G(y) = c + (y - 1)^2, fixed point 1 at c = 1; near it u = y - 1 solves
 *         u = (c - 1) + u^2, u = (1 - sqrt(1 - 4 (c - 1))) / 2;
 * kind 1: G(y) = (c + (y0 - 1)(y1 - 1), d + (y0 - 1)^2 / 2), fixed point (1, 1) at (1, 1).
 * G' vanishes at the fixed point of the midpoint: only its variation over X (DG(X)[Z])
 * covers the set's curvature.
 * kind 2: G(y) = 2 y - 1 (fixed point 1, repelling: the iteration's step grows);
 * kind 3: G(y) = 1 + (1 - 2^-12)(y - 1) (a contraction too slow for the iteration cap). */
static long fix_G_calls; /* evaluations of fix_G (check_centre_prev) */

static void fix_G(void *ctx, arb_ptr out, arb_srcptr y, slong prec)
{
    prob *p = ctx;
    fix_G_calls++;
    arb_t u, v;
    arb_init(u);
    arb_init(v);
    arb_sub_ui(u, y, 1, prec);
    if (p->kind == 0) {
        arb_sqr(u, u, prec);
        arb_add(out, u, p->c, prec);
    } else if (p->kind >= 2) {
        arb_mul_2exp_si(v, u, p->kind == 2 ? 1 : -12);
        if (p->kind == 3) arb_sub(v, u, v, prec);
        arb_add_ui(out, v, 1, prec);
    } else {
        arb_sub_ui(v, y + 1, 1, prec);
        arb_mul(v, u, v, prec);
        arb_sqr(u, u, prec);
        arb_mul_2exp_si(u, u, -1);
        arb_add(out, v, p->c, prec);
        arb_add(out + 1, u, p->d, prec);
    }
    arb_clear(u);
    arb_clear(v);
}

static void fix_dG(void *ctx, arb_ptr out, arb_srcptr Y, arb_srcptr Z, slong prec)
{
    prob *p = ctx;
    arb_t u, v;
    arb_init(u);
    arb_init(v);
    arb_sub_ui(u, Y, 1, prec);
    if (p->kind == 0) {
        arb_mul(out, u, Z, prec);
        arb_mul_2exp_si(out, out, 1);
    } else if (p->kind >= 2) {
        arb_mul_2exp_si(v, Z, p->kind == 2 ? 1 : -12);
        if (p->kind == 3) arb_sub(v, Z, v, prec);
        arb_set(out, v);
    } else {
        arb_sub_ui(v, Y + 1, 1, prec);
        arb_mul(v, v, Z, prec); /* (y1 - 1) z0 + (y0 - 1) z1 */
        arb_addmul(v, u, Z + 1, prec);
        arb_mul(out + 1, u, Z, prec); /* (y0 - 1) z0 */
        arb_set(out, v);
    }
    arb_clear(u);
    arb_clear(v);
}

/* One parameter of the set (mid +/- r in each of its n coordinates): corner k < 2^n,
 * else a random interior point; written as exact balls into c (and d). */
static void set_point(prob *p, int n, const double *mid, double r, long k)
{
    for (int i = 0; i < n; i++) {
        double v = k < (1L << n) ? mid[i] + ((k >> i) & 1 ? r : -r) : test_rand_uniform(mid[i] - r, mid[i] + r);
        arb_set_d(i == 0 ? p->c : p->d, v);
    }
}

/* Wide parameter sets: the dense operator on sqrt(c) and on kind 5, the fixed-point
 * operator on both fix_G maps; each at radius r from the midpoint's zero. */
static void check_wide_sets(double r)
{
    char why[200];
    prob p;
    arb_init(p.c);
    arb_init(p.d);
    arb_ptr y = _arb_vec_init(2), g = _arb_vec_init(2), z = _arb_vec_init(2);
    arb_t t;
    arb_init(t);
    long npts = 4 + test_iters(8);
    for (int op = 0; op < 6; op++) {
        int o = op >= 4 ? op - 2 : op; /* 4, 5: the fixed-point operator centred on the last point but one */
        /* o 0: dense, sqrt(c); 1: dense, kind 5; 2, 3: fixed point, kinds 0, 1 */
        int n = o == 0 || o == 2 ? 1 : 2;
        double mid[2] = { o == 0 ? test_rand_uniform(0.5, 4.0) : o == 1 ? 0 : 1, o == 1 ? 0 : 1 };
        p.kind = o == 0 ? 0 : o == 1 ? 5 : o - 2;
        slpi_ref_fn f = { n, &p, F, J, NULL };
        slpi_ref_fixmap fm = { n, &p, fix_G, fix_dG, NULL, op >= 4, NULL, NULL, 0 };
        /* the set, and the guess: the midpoint's zero */
        arb_set_d(p.c, mid[0]);
        arb_set_d(p.d, mid[1]);
        arb_set_d(g, o == 0 ? sqrt(mid[0]) : 1);
        arb_set_d(g + 1, o == 1 ? 2 : 1);
        mag_set_d(arb_radref(p.c), r);
        mag_set_d(arb_radref(p.d), r);
        int ok = o < 2 ? slpi_ref_krawczyk(y, &f, g, 128, why, sizeof why)
                       : slpi_ref_krawczyk_fixed_point(y, &fm, g, 128, why, sizeof why);
        TEST_CHECKF(ok, "wide set o %d r %g: %s", o, r, why);
        TEST_CHECKF(!ok || mag_cmp_2exp_si(arb_radref(y), -2) < 0,
                    "wide set o %d r %g: radius too wide to mean anything", o, r);
        long outside = 0;
        double worst = 0;
        for (long k = 0; ok && k < npts; k++) {
            set_point(&p, o == 0 || o == 2 ? 1 : 2, mid, r, k);
            if (o == 0) {
                arb_sqrt(z, p.c, 256);
            } else if (o == 2) { /* u = (1 - sqrt(1 - 4 (c - 1))) / 2, y = 1 + u */
                arb_sub_ui(t, p.c, 1, 256);
                arb_mul_2exp_si(t, t, 2);
                arb_sub_ui(t, t, 1, 256);
                arb_neg(t, t);
                arb_sqrt(t, t, 256);
                arb_sub_ui(t, t, 1, 256);
                arb_mul_2exp_si(t, t, -1);
                arb_sub_ui(z, t, 1, 256);
                arb_neg(z, z);
            } else { /* the solver at 256 bits from the point parameter */
                int pok = o == 1 ? slpi_ref_krawczyk(z, &f, g, 256, why, sizeof why)
                                 : slpi_ref_krawczyk_fixed_point(z, &fm, g, 256, why, sizeof why);
                TEST_CHECKF(pok, "wide set o %d: point %ld not solved: %s", o, k, why);
                if (!pok) continue;
            }
            int in = 1;
            for (int i = 0; i < n; i++) {
                in &= arb_contains(y + i, z + i);
                arb_sub(t, z + i, y + i, 128);
                worst = fmax(worst, fabs(arf_get_d(arb_midref(t), ARF_RND_NEAR)) / mag_get_d(arb_radref(y + i)));
            }
            outside += !in;
        }
        TEST_CHECKF(outside == 0,
                    "UNSOUND: wide set o %d r %g: %ld of %ld points' zeros outside the enclosure "
                    "(worst %.6f radii from its centre)",
                    o, r, outside, npts, worst);
        printf("wide set: operator %-11s %s radius %-6g %3ld points, tightness %.6f\n",
               o < 2        ? "dense"
                   : op < 4 ? "fixed-point"
                            : "centre-prev",
               n == 1 ? "1-d" : "2-d", r, npts, worst);
    }
    arb_clear(t);
    arb_clear(p.c);
    arb_clear(p.d);
    _arb_vec_clear(y, 2);
    _arb_vec_clear(g, 2);
    _arb_vec_clear(z, 2);
}

/* centre_prev: the same fixed point (kind 0, c = 5/4 - 1/16: y = 1.25) enclosed with one
 * evaluation of G less, from five guesses; both boxes hold it and intersect. */
static void check_centre_prev(void)
{
    char why[200];
    prob p;
    arb_init(p.c);
    arb_init(p.d);
    p.kind = 0;
    arb_set_d(p.c, 1.1875);
    arb_ptr y = _arb_vec_init(1), yp = _arb_vec_init(1), g = _arb_vec_init(1), z = _arb_vec_init(1);
    arb_set_d(z, 1.25);
    for (int k = 0; k < 5; k++) {
        slpi_ref_fixmap fm = { 1, &p, fix_G, fix_dG, NULL, 0, NULL, NULL, 0 },
                        fp = { 1, &p, fix_G, fix_dG, NULL, 1, NULL, NULL, 0 };
        arb_set_d(g, 1.25 + 0.01 * k * test_rand_uniform(-1, 1));
        fix_G_calls = 0;
        int ok = slpi_ref_krawczyk_fixed_point(y, &fm, g, 128, why, sizeof why);
        long c0 = fix_G_calls;
        fix_G_calls = 0;
        int okp = slpi_ref_krawczyk_fixed_point(yp, &fp, g, 128, why, sizeof why);
        TEST_CHECKF(ok && okp, "centre_prev guess %d: not certified: %s", k, why);
        TEST_CHECKF(fix_G_calls == c0 - 1, "centre_prev guess %d: %ld evaluations of G, %ld without it", k, fix_G_calls,
                    c0);
        TEST_CHECKF(arb_contains(y, z) && arb_contains(yp, z) && arb_overlaps(y, yp),
                    "UNSOUND: centre_prev guess %d: the fixed point 1.25 outside a box", k);
    }
    arb_clear(p.c);
    arb_clear(p.d);
    _arb_vec_clear(y, 1);
    _arb_vec_clear(yp, 1);
    _arb_vec_clear(g, 1);
    _arb_vec_clear(z, 1);
}

int main(void)
{
    test_start("t-ref-krawczyk", 5);
    char why[200];
    prob p;
    arb_init(p.c);
    arb_init(p.d);
    arb_ptr y = _arb_vec_init(2), g = _arb_vec_init(2);
    arb_t t, lo;
    arb_init(t);
    arb_init(lo);

    /* sqrt(c) for random c, with a parameter ball of radius 1e-20 */
    for (long it = 0; it < test_iters(50); it++) {
        double c = test_rand_uniform(0.1, 10.0);
        arb_set_d(p.c, c);
        mag_set_d(arb_radref(p.c), 1e-20);
        p.kind = 0;
        slpi_ref_fn f = { 1, &p, F, J, NULL };
        /* the work counted two ways: from the double nearest sqrt(c) Newton needs fewer
         * iterations than from 1% off, and at least one test each time */
        arb_set_d(g, sqrt(c));
        slpi_ref_iterations_take();
        TEST_CHECKF(slpi_ref_krawczyk(y, &f, g, 128, why, sizeof why), "sqrt(%g) from near: %s", c, why);
        long near = slpi_ref_iterations_take();
        arb_set_d(g, sqrt(c) * 1.01);
        int ok = slpi_ref_krawczyk(y, &f, g, 128, why, sizeof why);
        TEST_CHECKF(ok, "sqrt(%g): %s", c, why);
        long far = slpi_ref_iterations_take();
        TEST_CHECKF(near >= 2 && far > near && far < 60 + 20, "sqrt(%g): %ld iterations from near, %ld from 1%% off", c,
                    near, far);
        /* both ends of the parameter ball: sqrt(c +/- 1e-20) */
        for (int s = -1; s <= 1; s += 2) {
            arb_set_d(t, 1e-20 * s);
            arb_add_ui(t, t, 0, 256);
            arb_set_d(lo, c);
            arb_add(t, t, lo, 256);
            arb_sqrt(t, t, 256);
            TEST_CHECKF(arb_contains(y, t), "sqrt(%g %+d e-20) not contained", c, s);
        }
        TEST_CHECK(mag_cmp_2exp_si(arb_radref(y), -60) < 0);
    }

    /* a wide parameter ball c = 2 +/- 0.1: the linear part -Y F(y~) alone misses
     * sqrt(1.9); only the full Krawczyk image (with the (I - Y F'(X)) Z term) holds
     * both ends */
    arb_set_ui(p.c, 2);
    mag_set_d(arb_radref(p.c), 0.1);
    p.kind = 0;
    {
        slpi_ref_fn f = { 1, &p, F, J, NULL };
        arb_set_d(g, 1.4);
        TEST_CHECKF(slpi_ref_krawczyk(y, &f, g, 128, why, sizeof why), "wide: %s", why);
        arb_set_d(t, 1.9);
        arb_sqrt(t, t, 128);
        TEST_CHECK(arb_contains(y, t));
        arb_set_d(t, 2.1);
        arb_sqrt(t, t, 128);
        TEST_CHECK(arb_contains(y, t));
    }

    /* 2x2 system, exact zero (1, 2) */
    p.kind = 3;
    slpi_ref_fn f2 = { 2, &p, F, J, NULL };
    arb_set_d(g, 1.1);
    arb_set_d(g + 1, 1.9);
    TEST_CHECKF(slpi_ref_krawczyk(y, &f2, g, 128, why, sizeof why), "2x2: %s", why);
    TEST_CHECK(arb_contains_si(y, 1) && arb_contains_si(y + 1, 2));
    TEST_CHECK(mag_cmp_2exp_si(arb_radref(y), -110) < 0);

    /* precision matters for an ill-conditioned zero (condition ~2^42): refused at 32
     * bits, certified at 64 (what the precision ladder of slpi_ref_step relies on) */
    p.kind = 4;
    slpi_ref_fn f4 = { 2, &p, F, J, NULL };
    arb_set_d(g, 0.9);
    arb_set_d(g + 1, 1.1);
    TEST_CHECK(!slpi_ref_krawczyk(y, &f4, g, 32, why, sizeof why));
    TEST_CHECKF(slpi_ref_krawczyk(y, &f4, g, 64, why, sizeof why), "64 bits: %s", why);
    TEST_CHECK(arb_contains_si(y, 1) && arb_contains_si(y + 1, 1));

    /* stagnation at the rounding level of a cancelling F (kind 6): accepted by the
     * stagnation rule and certified, long before Newton's 60-iteration cap */
    p.kind = 6;
    {
        slpi_ref_fn f6 = { 2, &p, F, J, NULL };
        arb_set_d(g, 0.3);
        arb_set_d(g + 1, 0.35);
        slpi_ref_iterations_take();
        TEST_CHECKF(slpi_ref_krawczyk(y, &f6, g, 128, why, sizeof why), "stagnation at 128 bits: %s", why);
        long its = slpi_ref_iterations_take();
        arb_set_ui(t, 1);
        arb_div_ui(t, t, 3, 256);
        TEST_CHECK(arb_contains(y, t) && arb_contains(y + 1, t));
        TEST_CHECKF(its < 40, "stagnation: %ld iterations", its);
        printf("stagnation: %ld iterations, radius ", its);
        mag_printd(arb_radref(y), 3);
        printf("\n");
    }

    /* the fixed-point operator's refusals, each with its reason: a repelling fixed point
     * (the step grows) and a contraction too slow for the cap (the step keeps shrinking) */
    for (int kind = 2; kind <= 3; kind++) {
        p.kind = kind;
        slpi_ref_fixmap fm = { 1, &p, fix_G, fix_dG, NULL, 0, NULL, NULL, 0 };
        arb_set_d(g, 1.1);
        why[0] = 0;
        TEST_CHECK(!slpi_ref_krawczyk_fixed_point(y, &fm, g, 128, why, sizeof why));
        const char *want = kind == 2 ? "does not contract" : "did not reach its tolerance within its cap of 200";
        TEST_CHECKF(strstr(why, want) != NULL, "fixed point, kind %d: reason '%s', expected '%s'", kind, why, want);
    }

    /* refusals */
    p.kind = 1;
    slpi_ref_fn f1 = { 1, &p, F, J, NULL };
    arb_set_d(g, 0.5);
    TEST_CHECK(!slpi_ref_krawczyk(y, &f1, g, 128, why, sizeof why));
    p.kind = 2;
    TEST_CHECK(!slpi_ref_krawczyk(y, &f1, g, 128, why, sizeof why));

    /* precision: radius shrinks with prec */
    p.kind = 0;
    arb_set_ui(p.c, 2);
    slpi_ref_fn f0 = { 1, &p, F, J, NULL };
    arb_set_d(g, 1.5);
    TEST_CHECK(slpi_ref_krawczyk(y, &f0, g, 64, why, sizeof why));
    arb_set(t, y);
    TEST_CHECK(slpi_ref_krawczyk(y, &f0, g, 256, why, sizeof why));
    TEST_CHECK(arb_overlaps(t, y) && mag_cmp(arb_radref(y), arb_radref(t)) < 0);
    TEST_CHECK(mag_cmp_2exp_si(arb_radref(y), -240) < 0);

    check_wide_sets(1e-4);
    check_wide_sets(1e-3);
    check_centre_prev();

    arb_clear(t);
    arb_clear(lo);
    arb_clear(p.c);
    arb_clear(p.d);
    _arb_vec_clear(y, 2);
    _arb_vec_clear(g, 2);
    flint_cleanup();
    TEST_END();
}
