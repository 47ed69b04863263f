/* t-ref-orbit — the coordinate operations of every ref system, two ways:
 *  - so(3): the orbit map through arb/acb_mat_exp vs Rodrigues in closed form;
 *  - se(3): the 6x6 exp(ad*_sigma) vs the closed form of docs/systems.md#heavy-top-rkmk;
 *  - every system: Casimirs of O_exp(b; mu) contain those of mu for random b
 *    (claim X1, cross/all/orbit-maps), and the derivatives dgen, dorbit, DV agree
 *    with central differences (ball arithmetic at 256 bits, step 2^-40);
 *  - aliasing: the orbit map in place and the cross product with out == a or b. */
#include "core/problem-struct.h"
#include "testutil.h"
#include "ref/vector-field.h"

static slpi_problem problem_for(int sys)
{
    slpi_problem p;
    slpi_problem_init(&p, sys, SLPI_SCHEME_TMK);
    if (sys == SLPI_SYS_MANAKOV) p.sys.mk.n = 5;
    if (sys == SLPI_SYS_POINT_VORTICES) p.sys.pv.n = 3;
    if (sys == SLPI_SYS_HEAVY_TOP) p.sys.ht.noise = SLPI_HT_NOISE_CASE2_PI2; /* the one state-dependent noise */
    return p;
}

static void rand_vec(arb_ptr v, int n, double a)
{
    for (int i = 0; i < n; i++) arb_set_d(v + i, test_rand_uniform(-a, a));
}

/* max |a_i - b_i| as a double */
static double maxdiff(arb_srcptr a, arb_srcptr b, int n)
{
    double m = 0;
    arb_t t;
    arb_init(t);
    for (int i = 0; i < n; i++) {
        arb_sub(t, a + i, b + i, 256);
        double d = fabs(arf_get_d(arb_midref(t), ARF_RND_NEAR));
        if (d > m) m = d;
    }
    arb_clear(t);
    return m;
}

/* central difference (f(x + t w) - f(x - t w)) / 2t */
static void central(arb_ptr out, int n, arb_srcptr fp, arb_srcptr fm, slong prec)
{
    _arb_vec_sub(out, fp, fm, n, prec);
    _arb_vec_scalar_mul_2exp_si(out, out, n, 39);
}

static void shift(arb_ptr out, arb_srcptr x, arb_srcptr w, int n, int sign)
{
    for (int i = 0; i < n; i++) {
        arb_mul_2exp_si(out + i, w + i, -40);
        if (sign < 0) arb_neg(out + i, out + i);
        arb_add(out + i, out + i, x + i, 256);
    }
}

static void rodrigues(arb_ptr out, arb_srcptr b, arb_srcptr x, slong prec)
{
    arb_t th, s1, s2, t;
    arb_init(th);
    arb_init(s1);
    arb_init(s2);
    arb_init(t);
    arb_ptr bx = _arb_vec_init(3), bbx = _arb_vec_init(3);
    arb_dot(th, NULL, 0, b, 1, b, 1, 3, prec);
    arb_sqrt(th, th, prec);
    arb_sin_cos(s1, s2, th, prec);
    arb_div(s1, s1, th, prec); /* sin/th */
    arb_sub_ui(s2, s2, 1, prec);
    arb_neg(s2, s2);
    arb_sqr(t, th, prec);
    arb_div(s2, s2, t, prec); /* (1 - cos)/th^2 */
    slpi_ref_cross(bx, b, x, prec);
    slpi_ref_cross(bbx, b, bx, prec);
    for (int i = 0; i < 3; i++) {
        arb_mul(t, bx + i, s1, prec);
        arb_add(out + i, x + i, t, prec);
        arb_addmul(out + i, bbx + i, s2, prec);
    }
    _arb_vec_clear(bx, 3);
    _arb_vec_clear(bbx, 3);
    arb_clear(th);
    arb_clear(s1);
    arb_clear(s2);
    arb_clear(t);
}

/* docs/systems.md#heavy-top-rkmk closed form of O_exp((xi,b);(pi,gamma)) */
static void se3_closed(arb_ptr out, arb_srcptr sig, arb_srcptr mu, slong prec)
{
    arb_t th, c1, c2, t, u;
    arb_init(th);
    arb_init(c1);
    arb_init(c2);
    arb_init(t);
    arb_init(u);
    arb_ptr v = _arb_vec_init(3), w = _arb_vec_init(3), q = _arb_vec_init(3), mxi = _arb_vec_init(3);
    arb_dot(th, NULL, 0, sig, 1, sig, 1, 3, prec);
    arb_sqrt(th, th, prec);
    arb_sin_cos(t, u, th, prec);
    arb_sub_ui(c1, u, 1, prec);
    arb_neg(c1, c1);
    arb_sqr(u, th, prec);
    arb_div(c1, c1, u, prec); /* (1 - cos)/th^2 */
    arb_sub(c2, th, t, prec);
    arb_mul(u, u, th, prec);
    arb_div(c2, c2, u, prec); /* (th - sin)/th^3 */
    slpi_ref_cross(w, sig, sig + 3, prec);
    slpi_ref_cross(q, sig, w, prec);
    for (int i = 0; i < 3; i++) {
        arb_mul(t, w + i, c1, prec);
        arb_add(v + i, sig + 3 + i, t, prec);
        arb_addmul(v + i, q + i, c2, prec);
    }
    slpi_ref_cross(w, mu + 3, v, prec); /* gamma × v */
    _arb_vec_add(w, w, mu, 3, prec);
    _arb_vec_neg(mxi, sig, 3); /* R^T y = exp(-hat xi) y */
    rodrigues(out, mxi, w, prec);
    rodrigues(out + 3, mxi, mu + 3, prec);
    _arb_vec_clear(v, 3);
    _arb_vec_clear(w, 3);
    _arb_vec_clear(q, 3);
    _arb_vec_clear(mxi, 3);
    arb_clear(th);
    arb_clear(c1);
    arb_clear(c2);
    arb_clear(t);
    arb_clear(u);
}

int main(void)
{
    test_start("t-ref-orbit", 11);
    const slong prec = 256;
    int systems[] = { SLPI_SYS_RIGID_BODY, SLPI_SYS_HEAVY_TOP, SLPI_SYS_MANAKOV, SLPI_SYS_POINT_VORTICES,
                      SLPI_SYS_SINE_EULER };
    for (int si = 0; si < 5; si++) {
        slpi_problem p = problem_for(systems[si]);
        slpi_ref_system s = { 0 };
        slpi_error err;
        int rc = slpi_ref_system_init(&s, &p, NULL, &err);
        TEST_CHECKF(rc == SLPI_OK, "%s: %s", slpi_system_name(p.sys.system), err.msg);
        if (rc != SLPI_OK) continue;
        int n = s.dim, g = s.gdim;
        arb_ptr mu = _arb_vec_init(n), b = _arb_vec_init(g), w = _arb_vec_init(n), db = _arb_vec_init(g),
                o1 = _arb_vec_init(n), o2 = _arb_vec_init(n), gp = _arb_vec_init(n), gm = _arb_vec_init(n),
                xp = _arb_vec_init(n), xm = _arb_vec_init(n), i1 = _arb_vec_init(s.n_inv), i2 = _arb_vec_init(s.n_inv);
        double *delta = calloc(s.M + 1, sizeof(double));
        for (long it = 0; it < test_iters(4); it++) {
            rand_vec(mu, n, 1.0);
            rand_vec(b, g, 0.8);
            rand_vec(w, n, 1.0);
            rand_vec(db, g, 1.0);
            /* Casimirs along the orbit map */
            s.orbit(&s, o1, b, mu, prec);
            s.invariants(&s, i1, mu, prec);
            s.invariants(&s, i2, o1, prec);
            for (int k = 1; k < s.n_inv; k++)
                TEST_CHECKF(arb_overlaps(i1 + k, i2 + k), "%s: %s not kept by O_exp", slpi_system_name(p.sys.system),
                            s.inv_name[k]);
            /* dorbit vs central differences, in b and in mu */
            s.dorbit(&s, o1, b, db, mu, w, prec);
            shift(gp, b, db, g, 1);
            shift(gm, b, db, g, -1);
            shift(xp, mu, w, n, 1);
            shift(xm, mu, w, n, -1);
            s.orbit(&s, o2, gp, xp, prec);
            s.orbit(&s, gp, gm, xm, prec);
            central(o2, n, o2, gp, prec);
            TEST_CHECKF(maxdiff(o1, o2, n) < 1e-18, "%s: dorbit off by %g", slpi_system_name(p.sys.system),
                        maxdiff(o1, o2, n));
            /* dgen for every k, and DV */
            for (int k = 0; k <= s.M; k++) {
                s.dgen(&s, k, o1, mu, w, prec);
                s.gen(&s, k, gp, xp, prec);
                s.gen(&s, k, gm, xm, prec);
                central(o2, g, gp, gm, prec);
                TEST_CHECKF(maxdiff(o1, o2, g) < 1e-18, "%s: dgen(%d) off by %g", slpi_system_name(p.sys.system), k,
                            maxdiff(o1, o2, g));
                delta[k] = test_rand_uniform(-1, 1);
            }
            slpi_ref_dvf(&s, o1, delta, mu, w, prec);
            slpi_ref_vf(&s, gp, delta, xp, prec);
            slpi_ref_vf(&s, gm, delta, xm, prec);
            central(o2, n, gp, gm, prec);
            TEST_CHECKF(maxdiff(o1, o2, n) < 1e-18, "%s: dvf off by %g", slpi_system_name(p.sys.system),
                        maxdiff(o1, o2, n));
            /* aliasing: the orbit map in place (out == mu) */
            s.orbit(&s, o1, b, mu, prec);
            _arb_vec_set(o2, mu, n);
            s.orbit(&s, o2, b, o2, prec);
            for (int i = 0; i < n; i++) TEST_CHECK(arb_equal(o1 + i, o2 + i));
            /* second way for the exponentials */
            if (p.sys.system == SLPI_SYS_RIGID_BODY) {
                s.orbit(&s, o1, b, mu, prec);
                /* B = hat(b): e^B X e^-B = hat(exp(hat b) x) */
                rodrigues(o2, b, mu, prec);
                for (int i = 0; i < 3; i++) TEST_CHECK(arb_overlaps(o1 + i, o2 + i));
            }
            if (p.sys.system == SLPI_SYS_HEAVY_TOP) {
                s.orbit(&s, o1, b, mu, prec);
                se3_closed(o2, b, mu, prec);
                for (int i = 0; i < 6; i++) TEST_CHECKF(arb_overlaps(o1 + i, o2 + i), "se(3) closed form entry %d", i);
                TEST_CHECK(slpi_ref_vec_radius(o1, 6) < 1e-60);
            }
        }
        free(delta);
        _arb_vec_clear(mu, n);
        _arb_vec_clear(b, g);
        _arb_vec_clear(w, n);
        _arb_vec_clear(db, g);
        _arb_vec_clear(o1, n);
        _arb_vec_clear(o2, n);
        _arb_vec_clear(gp, n);
        _arb_vec_clear(gm, n);
        _arb_vec_clear(xp, n);
        _arb_vec_clear(xm, n);
        _arb_vec_clear(i1, s.n_inv);
        _arb_vec_clear(i2, s.n_inv);
        slpi_ref_system_clear(&s);
    }
    /* aliasing of the cross product: out == a and out == b */
    {
        arb_ptr a = _arb_vec_init(3), b = _arb_vec_init(3), c = _arb_vec_init(3), d = _arb_vec_init(3);
        rand_vec(a, 3, 1);
        rand_vec(b, 3, 1);
        slpi_ref_cross(c, a, b, prec);
        _arb_vec_set(d, a, 3);
        slpi_ref_cross(d, d, b, prec);
        for (int i = 0; i < 3; i++) TEST_CHECK(arb_equal(c + i, d + i));
        _arb_vec_set(d, b, 3);
        slpi_ref_cross(d, a, d, prec);
        for (int i = 0; i < 3; i++) TEST_CHECK(arb_equal(c + i, d + i));
        _arb_vec_clear(a, 3);
        _arb_vec_clear(b, 3);
        _arb_vec_clear(c, 3);
        _arb_vec_clear(d, 3);
    }
    flint_cleanup();
    TEST_END();
}
