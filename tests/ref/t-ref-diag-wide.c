/* t-ref-diag-wide.c — the certified diagnostics over a wide state ball (ref/diagnostics.c and
 * each system's invariants): for every system the registry admits (its first scheme, the
 * default problem; Euler-Zeitlin and sine-Euler small), the diagnostics of a box
 * x0 +/- r (r = 1e-3 of the state's size) must contain the diagnostics of every point of
 * the box (the whole box and thin ones, wide in one coordinate): corners and random
 * interior points, each evaluated from exact point balls. A diagnostic that takes part of its ball at a midpoint (the
 * vortices' |x_i|^2 in H0) holds the midpoint's value and misses the corners'. A wide
 * diagnostic that is not finite (an eigenvalue over a wide box) contains everything and
 * says nothing; H0 must be finite, so the test bites on every system.
 * SLPI_TEST_SEED: the points; SLPI_TEST_MULTIPLIER: more points. */
#include "core/problem-struct.h"
#include "testutil.h"

#include "core/slpi-flint.h"
#include "slpi.h"

static void check_system(slpi_system_id s)
{
    slpi_scheme_id k = SLPI_SCHEME_COUNT;
    for (int j = 0; j < SLPI_SCHEME_COUNT && k == SLPI_SCHEME_COUNT; j++)
        if (slpi_registry_pair(s, (slpi_scheme_id)j, NULL) != SLPI_NA) k = (slpi_scheme_id)j;
    if (k == SLPI_SCHEME_COUNT || s == SLPI_SYS_MODEL) return;   /* the model system: t-ref-model */
    slpi_problem p;
    slpi_error err = { 0, "" };
    slpi_problem_init(&p, s, k);
    char *keys[4] = { "system", "scheme", "N", "ic_lmax" };
    char *values[4] = { (char *)slpi_system_name(s), (char *)slpi_scheme_name(k), "4", "2" };
    int nk = s == SLPI_SYS_EULER_ZEITLIN ? 4 : s == SLPI_SYS_SINE_EULER ? 3 : 2;
    if (s == SLPI_SYS_SINE_EULER) values[2] = "3";
    /* vortices with coordinates where another is 0: a thin box there moves |x_i|^2 in
     * H0's term of the pair and not x_i . x_j, so only |x_i|^2's own radius covers it */
    if (s == SLPI_SYS_POINT_VORTICES) {
        keys[2] = "x0";
        values[2] = "0.6,0.8,0,1,0,0,0,0.6,0.8,0.8,0,0.6";
        nk = 3;
    }
    int rc = slpi_problem_build(&p, NULL, NULL, nk, keys, values, NULL, &err);
    if (rc == SLPI_OK) rc = slpi_problem_finish(&p, &err);
    slpi_ref *r = NULL;
    if (rc == SLPI_OK) rc = slpi_ref_create(&r, &p, &err);
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
    for (int s = 0; s < SLPI_SYS_COUNT; s++)
        check_system((slpi_system_id)s);
    TEST_END();
}
