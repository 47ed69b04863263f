/* t-ref-diag-wide.c — the certified diagnostics over a wide state ball (ref/diagnostics.c and
 * each system's invariants): for every system the registry admits (its first scheme, the
 * default problem; Euler-Zeitlin and sine-Euler small), the diagnostics of a box
 * x0 +/- r (r = 1e-3 of the state's size) must contain the diagnostics of every point of
 * the box (the whole box and thin ones, wide in one coordinate): corners and random
 * interior points, each evaluated from exact point balls. A diagnostic that takes part of its ball at a midpoint (the
 * vortices' |x_i|^2 in H0) holds the midpoint's value and misses the corners'. A wide
 * diagnostic that is not finite (an eigenvalue over a wide box) contains everything and
 * says nothing; H0 must be finite, so the test bites on every system.
 * The same diagnostics two ways (ref/diagnostics.c's precision rule): at the rule's
 * precision and with every evaluation at prec_max, for states whose radii are 2^-47 (a
 * BLAS-route step's), 2^-100 and 2^-300 of their size, and Euler-Zeitlin at N = 20 (C4..C6
 * from the products): the balls overlap, and the rule's radius is at most 1.5 times prec_max's.
 * Not 1 + 2^-64: Arb's dot products below 1024 bits bound some radii more loosely (X^2 of
 * a 4 x 4 skew-Hermitian ball matrix with radii 2^-47: 1.37e-14 at 128..512 bits, 1.09e-14
 * at 1024; here up to 1.16 times), a property of the library, not of the rounding.
 * SLPI_TEST_SEED: the points; SLPI_TEST_MULTIPLIER: more points. */
#include "core/problem-struct.h"
#include "testutil.h"

#include "core/slpi-flint.h"
#include "slpi.h"

/* The default problem of system s with its first scheme (N = the Euler-Zeitlin size);
 * SLPI_EINPUT where s has none or it fails to build (reported). */
static int make_problem(slpi_problem *p, slpi_system_id s, const char *N)
{
    slpi_scheme_id k = SLPI_SCHEME_COUNT;
    for (int j = 0; j < SLPI_SCHEME_COUNT && k == SLPI_SCHEME_COUNT; j++)
        if (slpi_registry_pair(s, (slpi_scheme_id)j, NULL) != SLPI_NA) k = (slpi_scheme_id)j;
    if (k == SLPI_SCHEME_COUNT || s == SLPI_SYS_MODEL) return SLPI_EINPUT; /* the model system: t-ref-model */
    slpi_error err = { 0, "" };
    slpi_problem_init(p, s, k);
    char *keys[4] = { "system", "scheme", "N", "ic_lmax" };
    char *values[4] = { (char *)slpi_system_name(s), (char *)slpi_scheme_name(k), (char *)N, "2" };
    int nk = s == SLPI_SYS_EULER_ZEITLIN ? 4 : s == SLPI_SYS_SINE_EULER ? 3 : 2;
    if (s == SLPI_SYS_SINE_EULER) values[2] = "3";
    /* vortices with coordinates where another is 0: a thin box there moves |x_i|^2 in
     * H0's term of the pair and not x_i . x_j, so only |x_i|^2's own radius covers it */
    if (s == SLPI_SYS_POINT_VORTICES) {
        keys[2] = "x0";
        values[2] = "0.6,0.8,0,1,0,0,0,0.6,0.8,0.8,0,0.6";
        nk = 3;
    }
    int rc = slpi_problem_build(p, NULL, NULL, nk, keys, values, NULL, &err);
    if (rc == SLPI_OK) rc = slpi_problem_finish(p, &err);
    TEST_CHECKF(rc == SLPI_OK, "%s: %s", slpi_system_name(s), err.msg);
    return rc;
}

/* The diagnostics at the precision rule's against those at prec_max throughout. */
static void check_precision(slpi_system_id s, const char *N)
{
    slpi_problem p, q;
    if (make_problem(&p, s, N) != SLPI_OK || make_problem(&q, s, N) != SLPI_OK) return;
    q.cert.prec = q.cert.prec_max;
    slpi_ref *r = NULL, *rmax = NULL;
    slpi_error err = { 0, "" };
    int rc = slpi_ref_create(&r, &p, &err);
    if (rc == SLPI_OK) rc = slpi_ref_create(&rmax, &q, &err);
    TEST_CHECKF(rc == SLPI_OK, "%s: %s", slpi_system_name(s), err.msg);
    int dim = slpi_problem_state_dim(&p);
    double *x0 = calloc((size_t)dim, sizeof *x0);
    if (rc == SLPI_OK) rc = slpi_fast_problem_initial_state(&p, x0, &err);
    arb_ptr bx = _arb_vec_init(dim), bx0 = _arb_vec_init(dim);
    slpi_ref_diag a, b;
    slpi_ref_diag_init(&a);
    slpi_ref_diag_init(&b);
    static const int lg_rad[3] = { -47, -100, -300 };
    for (int e = 0; e < 3 && rc == SLPI_OK; e++) {
        for (int i = 0; i < dim; i++) {
            arb_set_d(bx0 + i, x0[i]);
            arb_set_d(bx + i, x0[i] * (1 + 0x1p-10 * (i % 7)));
            arb_add_error_2exp_si(bx + i, lg_rad[e]);
        }
        slpi_ref_diagnostics(r, bx, bx0, &a);
        slpi_ref_diagnostics(rmax, bx, bx0, &b);
        TEST_CHECKF(a.n == b.n, "%s N=%s: %d diagnostics against %d", slpi_system_name(s), N, a.n, b.n);
        for (int i = 0; i < a.n && i < b.n; i++) {
            double ra = mag_get_d(arb_radref(a.value + i)), rb = mag_get_d(arb_radref(b.value + i));
            TEST_CHECKF(arb_overlaps(a.value + i, b.value + i) && ra <= 1.5 * rb,
                        "%s N=%s radius 2^%d: %s at the rule's precision %s +/- %.17g against %.17g at prec_max",
                        slpi_system_name(s), N, lg_rad[e], a.name[i],
                        arb_overlaps(a.value + i, b.value + i) ? "overlaps" : "misses", ra, rb);
        }
    }
    slpi_ref_diag_clear(&a);
    slpi_ref_diag_clear(&b);
    _arb_vec_clear(bx, dim);
    _arb_vec_clear(bx0, dim);
    free(x0);
    slpi_ref_free(r);
    slpi_ref_free(rmax);
}

static void check_system(slpi_system_id s)
{
    slpi_problem p;
    slpi_error err = { 0, "" };
    if (make_problem(&p, s, "4") != SLPI_OK) return;
    slpi_ref *r = NULL;
    int rc = slpi_ref_create(&r, &p, &err);
    TEST_CHECKF(rc == SLPI_OK, "%s: %s", slpi_system_name(s), err.msg);
    if (rc != SLPI_OK) return;
    int dim = slpi_problem_state_dim(&p);
    double *x0 = calloc((size_t)dim, sizeof *x0);
    TEST_CHECKF(slpi_fast_problem_initial_state(&p, x0, &err) == SLPI_OK, "%s: %s", slpi_system_name(s), err.msg);
    double scale = 0;
    for (int i = 0; i < dim; i++) scale = fmax(scale, fabs(x0[i]));
    double rad = 1e-3 * scale;
    arb_ptr box = _arb_vec_init(dim), pt = _arb_vec_init(dim), bx0 = _arb_vec_init(dim);
    slpi_ref_diag wide, at;
    slpi_ref_diag_init(&wide);
    slpi_ref_diag_init(&at);
    /* the whole box, then thin boxes wide in one coordinate (the first 24): there no other
     * coordinate's spread covers a term that lost its own */
    for (int axis = -1; axis < dim && axis < 24; axis++) {
        for (int i = 0; i < dim; i++) {
            arb_set_d(bx0 + i, x0[i]);
            arb_set_d(box + i, x0[i]);
            if (axis < 0 || axis == i) mag_set_d(arb_radref(box + i), rad);
        }
        slpi_ref_diagnostics(r, box, bx0, &wide);
        int h0 = -1;
        for (int i = 0; i < wide.n; i++)
            if (!strcmp(wide.name[i], "H0")) h0 = i;
        TEST_CHECKF(h0 >= 0 && arb_is_finite(wide.value + h0), "%s axis %d: H0 over the box is not finite",
                    slpi_system_name(s), axis);
        long npts = (axis < 0 ? 16 : 4) + test_iters(0);
        for (long q = 0; q < npts; q++) {
            for (int i = 0; i < dim; i++) {
                double u = q < npts / 2 ? (test_rand_int(2) ? 1.0 : -1.0) : test_rand_uniform(-1, 1);
                arb_set_d(pt + i, axis < 0 || axis == i ? x0[i] + u * rad : x0[i]);
            }
            slpi_ref_diagnostics(r, pt, bx0, &at);
            for (int i = 0; i < wide.n && i < at.n; i++)
                TEST_CHECKF(!arb_is_finite(wide.value + i) || arb_contains(wide.value + i, at.value + i),
                            "%s axis %d: %s at point %ld of the box escapes the box's ball", slpi_system_name(s), axis,
                            wide.name[i], q);
        }
    }
    slpi_ref_diag_clear(&wide);
    slpi_ref_diag_clear(&at);
    _arb_vec_clear(box, dim);
    _arb_vec_clear(pt, dim);
    _arb_vec_clear(bx0, dim);
    free(x0);
    slpi_ref_free(r);
}

int main(void)
{
    test_start("t-ref-diag-wide", 42);
    for (int s = 0; s < SLPI_SYS_COUNT; s++) {
        check_system((slpi_system_id)s);
        check_precision((slpi_system_id)s, "4");
    }
    check_precision(SLPI_SYS_EULER_ZEITLIN, "20");
    TEST_END();
}
