/* t-ref-poisson — the certified Poisson-map defect of one SVI step on the rigid body
 * (claims V4, V19; docs/schemes.md#svi-sign): D hat(Pi) D^T - hat(Pi_1), D = dPi_1/dPi_0; and of
 * one SVI-SD step on the heavy top (claim V5) with the se(3)^* tensor.
 *  - c = +1/4 (true Cayley): every entry encloses 0, deterministic and with noise,
 *    rotation and node output;
 *  - c = -1/4 (as printed): some entry provably excludes 0 (the audit's refutation);
 *  - ISOMP (update=comm; ISO Thm 4.5) on the rigid body, Manakov so(4), the vortices,
 *    Euler-Zeitlin su(3) and sine-Euler su(3) (where the packed layout's Frobenius metric
 *    enters the tensor), with noise: D J(x) D^T - J(x_1) with the scheme's certified step Jacobian
 *    and J(y) v = ad*_v y; every entry encloses 0 with radius below 1e-25, so a defect of
 *    that size would show;
 *  - wide sets (claim V4's refutation is a set statement): from a state box of radius
 *    1e-3 (rigid body) or 1e-4 (heavy top), the SVI c = -1/4 defect ball must contain the
 *    defect of every point of the box (its corners and random interior points, each at
 *    256 bits from the exact point); the defect varies over the box, so an enclosure
 *    that takes the step's zero or Jacobian at the box's midpoint misses corners. (The
 *    ISOMP defect is 0 at every point: a point evaluation there cannot show.)
 *  - other pairs (TMK, ISOMP with update=cay or fixed_iters) are refused (SLPI_EINPUT). */
#include "core/problem-struct.h"
#include "testutil.h"
#include "slpi.h"

/* the defect for a rigid-body SVI problem */
static int defect_of(const slpi_problem *p, const double *x0, const double *dW, arb_ptr def)
{
    slpi_ref *r;
    slpi_error err;
    if (slpi_ref_create(&r, p, &err) != SLPI_OK) {
        fprintf(stderr, "create: %s\n", err.msg);
        return 0;
    }
    arb_ptr x = _arb_vec_init(3);
    for (int i = 0; i < 3; i++) arb_set_d(x + i, x0[i]);
    int rc = slpi_ref_poisson_defect(r, x, dW, def, &err);
    if (rc != SLPI_OK) fprintf(stderr, "defect: %s\n", err.msg);
    _arb_vec_clear(x, 3);
    slpi_ref_free(r);
    return rc == SLPI_OK;
}

static int all_contain_zero(arb_srcptr d)
{
    for (int i = 0; i < 9; i++)
        if (!arb_contains_zero(d + i)) return 0;
    return 1;
}

static double max_abs_mid(arb_srcptr d)
{
    double m = 0;
    for (int i = 0; i < 9; i++) {
        double v = fabs(arf_get_d(arb_midref(d + i), ARF_RND_NEAR));
        if (v > m) m = v;
    }
    return m;
}

/* The defect over the box x0 +/- r (the first d coordinates wide: Pi, or Pi and Gamma)
 * contains each point's defect (nstate state numbers, d x d defect). */
static void check_wide_defect(const char *name, const slpi_problem *p, const double *x0, int nstate, int d,
                              const double *dW, double r)
{
    slpi_problem hp = *p;
    hp.cert.prec = hp.cert.prec_max = 256;
    slpi_ref *r0 = NULL, *rh = NULL;
    slpi_error err;
    TEST_CHECKF(slpi_ref_create(&r0, p, &err) == SLPI_OK && slpi_ref_create(&rh, &hp, &err) == SLPI_OK, "%s: %s", name,
                err.msg);
    arb_ptr x = _arb_vec_init(nstate), dd = _arb_vec_init(d * d), dp = _arb_vec_init(d * d);
    for (int i = 0; i < nstate; i++) {
        arb_set_d(x + i, x0[i]);
        if (i < d) mag_set_d(arb_radref(x + i), r); /* x0 +/- r: holds the double corners */
    }
    int ok = slpi_ref_poisson_defect(r0, x, dW, dd, &err) == SLPI_OK;
    TEST_CHECKF(ok, "%s wide: %s", name, err.msg);
    double rad = 0;
    for (int i = 0; ok && i < d * d; i++) rad = fmax(rad, mag_get_d(arb_radref(dd + i)));
    TEST_CHECKF(!ok || rad < 0.1, "%s wide: defect radius %g too wide to mean anything", name, rad);
    long ncorner = d <= 3 ? 1L << d : 16, npts = ncorner + 1 + test_iters(4), outside = 0;
    double worst = 0;
    for (long k = 0; ok && k < npts; k++) {
        for (int i = 0; i < nstate; i++) {
            double v = x0[i];
            if (i < d) {
                if (k < ncorner)
                    v += ((d <= 3 ? (k >> i) & 1 : test_rand_int(2)) ? r : -r);
                else if (k > ncorner)
                    v = test_rand_uniform(x0[i] - r, x0[i] + r);
            }
            arb_set_d(x + i, v);
        }
        if (slpi_ref_poisson_defect(rh, x, dW, dp, &err) != SLPI_OK) {
            TEST_CHECKF(0, "%s: point %ld at 256 bits: %s", name, k, err.msg);
            continue;
        }
        int in = 1;
        for (int i = 0; i < d * d; i++) {
            in &= arb_contains(dd + i, dp + i);
            arb_t t;
            arb_init(t);
            arb_sub(t, dp + i, dd + i, 128);
            worst =
                fmax(worst, fabs(arf_get_d(arb_midref(t), ARF_RND_NEAR)) / fmax(mag_get_d(arb_radref(dd + i)), 1e-300));
            arb_clear(t);
        }
        outside += !in;
    }
    TEST_CHECKF(outside == 0,
                "UNSOUND: %s (radius %g): %ld of %ld points' defects outside the defect ball "
                "(worst %.4f radii from its centre)",
                name, r, outside, npts, worst);
    printf("wide set: %-36s radius %-6g %3ld points, defect radius %.3g, tightness %.4f\n", name, r, npts, rad, worst);
    _arb_vec_clear(x, nstate);
    _arb_vec_clear(dd, d * d);
    _arb_vec_clear(dp, d * d);
    slpi_ref_free(r0);
    slpi_ref_free(rh);
}

/* SVI on the rigid body, c = +-1/4, rotation and node output, with and without noise;
 * def: 9 balls */
static void rigid_body_svi(arb_ptr def)
{
    slpi_problem p;
    for (long it = 0; it < test_iters(6); it++) {
        double x0[3] = { test_rand_uniform(-1, 1), test_rand_uniform(-1, 1), test_rand_uniform(-1, 1) };
        double dW[3] = { 0, 0, 0 };
        int noisy = it % 2;
        if (noisy)
            for (int k = 0; k < 3; k++) dW[k] = test_rand_uniform(-0.3, 0.3);
        for (int node = 0; node < 2; node++)
            for (int sign = -1; sign <= 1; sign += 2) {
                slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_SVI);
                p.grid.h = 0.2;
                p.sch.svi_c = 0.25 * sign;
                p.sch.svi_output = node ? SLPI_SVI_OUT_NODE : SLPI_SVI_OUT_ROTATION;
                p.sys.rb.amp = 1.0;
                TEST_CHECK(defect_of(&p, x0, dW, def));
                if (sign > 0)
                    TEST_CHECKF(all_contain_zero(def),
                                "c=+1/4 (node %d, noise %d): defect "
                                "excludes 0, max %g",
                                node, noisy, max_abs_mid(def));
                else
                    TEST_CHECKF(!all_contain_zero(def),
                                "c=-1/4 (node %d, noise %d): defect "
                                "not refuted",
                                node, noisy);
                if (it == 0 && node == 0)
                    printf("c=%+.2f: max |defect| = %.3g, radius %.3g\n", p.sch.svi_c, max_abs_mid(def),
                           mag_get_d(arb_radref(def)));
                if (it < 2 && sign < 0)
                    check_wide_defect(node ? "svi c=-1/4 rigid body, node" : "svi c=-1/4 rigid body, rotation", &p, x0,
                                      3, 3, dW, 1e-3);
            }
    }
}

/* heavy top (V5): I = diag(1,2,3), mga = (0.2, 0.1, 1), dt = 0.05, deterministic and
 * with h_1 = 0.3 Pi_x, h_2 = 0.4 Pi_y (case3-pi) */
static void heavy_top_svi(void)
{
    slpi_problem p;
    arb_ptr def6 = _arb_vec_init(36);
    double g = sqrt(0.01 + 0.09 + 0.81);
    double x0[15] = { 0.3, 0.5, 0.8, 0.1 / g, -0.3 / g, 0.9 / g, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    for (int noisy = 0; noisy < 2; noisy++)
        for (int sign = -1; sign <= 1; sign += 2) {
            slpi_problem_init(&p, SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_SVI);
            p.sys.ht.inertia[0] = 1;
            p.sys.ht.inertia[1] = 2;
            p.sys.ht.inertia[2] = 3;
            p.sys.ht.mga[0] = 0.2;
            p.sys.ht.mga[1] = 0.1;
            p.sys.ht.mga[2] = 1;
            p.sys.ht.noise = noisy ? SLPI_HT_NOISE_CASE3_PI : SLPI_HT_NOISE_NONE;
            p.sys.ht.k[0] = 0.3;
            p.sys.ht.k[1] = 0.4;
            p.grid.h = 0.05;
            p.sch.svi_c = 0.25 * sign;
            double dW[2] = { 0.2, -0.15 };
            slpi_ref *r;
            slpi_error err;
            TEST_CHECKF(slpi_ref_create(&r, &p, &err) == SLPI_OK, "%s", err.msg);
            arb_ptr x = _arb_vec_init(15);
            for (int i = 0; i < 15; i++) arb_set_d(x + i, x0[i]);
            TEST_CHECKF(slpi_ref_poisson_defect(r, x, dW, def6, &err) == SLPI_OK, "%s", err.msg);
            int zero = 1;
            double m = 0;
            for (int i = 0; i < 36; i++) {
                zero = zero && arb_contains_zero(def6 + i);
                double a = fabs(arf_get_d(arb_midref(def6 + i), ARF_RND_NEAR));
                m = a > m ? a : m;
            }
            TEST_CHECKF(zero == (sign > 0), "heavy top c=%+.2f noise %d: max |defect| %g", p.sch.svi_c, noisy, m);
            printf("heavy top c=%+.2f noise %d: max |defect| = %.3g\n", p.sch.svi_c, noisy, m);
            if (sign < 0)
                check_wide_defect(noisy ? "svi c=-1/4 heavy top, noise" : "svi c=-1/4 heavy top", &p, x0, 15, 6, dW,
                                  1e-4);
            _arb_vec_clear(x, 15);
            slpi_ref_free(r);
        }
    _arb_vec_clear(def6, 36);
}

/* ISOMP: the presets' systems with noise, a random state near the preset's */
static void isomp_presets(void)
{
    /* a preset and key=value overrides (NULL-terminated pairs) */
    static const struct {
        const char *preset, *kv[8];
    } cases[] = {
        { "iso/rigid-body/long", { "h", "0.05" } },
        { "iso/manakov/long", { "n", "4", "h", "0.05" } },
        { "iso/vortices/long", { "h", "0.05" } },
        { "iso/zeitlin/strong", /* su(3): the metric matters */
          { "N", "3", "ic_lmax", "2", "level", "0", "h", "0.0625" } },
        { "rkmk/sine-euler/casimirs-tmk", { "scheme", "isomp", "h", "0.5" } },
    };
    for (int k = 0; k < 5; k++) {
        slpi_problem q;
        slpi_error err;
        slpi_problem_init(&q, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP); /* a preset applies to an initialised problem */
        TEST_CHECKF(slpi_problem_preset(&q, cases[k].preset, &err) == SLPI_OK, "%s", err.msg);
        for (int i = 0; i < 8 && cases[k].kv[i]; i += 2)
            TEST_CHECKF(slpi_problem_set(&q, cases[k].kv[i], cases[k].kv[i + 1], &err) == SLPI_OK, "%s=%s: %s",
                        cases[k].kv[i], cases[k].kv[i + 1], err.msg);
        TEST_CHECKF(slpi_problem_finish(&q, &err) == SLPI_OK, "%s: %s", cases[k].preset, err.msg);
        int d = slpi_problem_state_dim(&q), M = slpi_problem_noise_count(&q);
        double x0[64], dWk[64];
        TEST_CHECKF(slpi_problem_initial_state(&q, x0, &err) == SLPI_OK, "%s", err.msg);
        for (int i = 0; i < d; i++) x0[i] += test_rand_uniform(-0.05, 0.05);
        for (int i = 0; i < M; i++) dWk[i] = test_rand_uniform(-0.2, 0.2);
        slpi_ref *r;
        TEST_CHECKF(slpi_ref_create(&r, &q, &err) == SLPI_OK, "%s", err.msg);
        arb_ptr x = _arb_vec_init(d), dd = _arb_vec_init(d * d);
        for (int i = 0; i < d; i++) arb_set_d(x + i, x0[i]);
        int rc = slpi_ref_poisson_defect(r, x, dWk, dd, &err);
        TEST_CHECKF(rc == SLPI_OK, "%s: %s", cases[k].preset, err.msg);
        int zero = 1;
        double rad = 0, mid = 0;
        for (int i = 0; rc == SLPI_OK && i < d * d; i++) {
            zero = zero && arb_contains_zero(dd + i);
            rad = fmax(rad, mag_get_d(arb_radref(dd + i)));
            mid = fmax(mid, fabs(arf_get_d(arb_midref(dd + i), ARF_RND_NEAR)));
        }
        TEST_CHECKF(zero && rad < 1e-25, "%s: defect mid %g radius %g", cases[k].preset, mid, rad);
        printf("isomp %s (state %d, %d noises): defect |mid| <= %.3g, radius <= %.3g\n", cases[k].preset, d, M, mid,
               rad);
        _arb_vec_clear(x, d);
        _arb_vec_clear(dd, d * d);
        slpi_ref_free(r);
    }
}

/* other pairs are refused with a message; def: 9 balls, passed as the state */
static void refused_pairs(arb_ptr def)
{
    slpi_problem p;
    static const struct {
        slpi_scheme_id k;
        const char *key, *value;
    } refused[] = {
        { SLPI_SCHEME_TMK, "h", "0.1" },
        { SLPI_SCHEME_ISOMP, "update", "cay" },
        { SLPI_SCHEME_ISOMP, "fixed_iters", "2" },
    };
    for (int k = 0; k < 3; k++) {
        slpi_ref *r;
        slpi_error err;
        slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, refused[k].k);
        TEST_CHECK(slpi_problem_set(&p, refused[k].key, refused[k].value, &err) == SLPI_OK);
        TEST_CHECK(slpi_ref_create(&r, &p, &err) == SLPI_OK);
        double dW[3] = { 0, 0, 0 };
        TEST_CHECKF(slpi_ref_poisson_defect(r, def, dW, def, &err) == SLPI_EINPUT, "%s=%s", refused[k].key,
                    refused[k].value);
        slpi_ref_free(r);
    }
}

int main(void)
{
    test_start("t-ref-poisson", 17);
    arb_ptr def = _arb_vec_init(9);
    rigid_body_svi(def);
    heavy_top_svi();
    isomp_presets();
    refused_pairs(def);
    _arb_vec_clear(def, 9);
    flint_cleanup();
    TEST_END();
}
