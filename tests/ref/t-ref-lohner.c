/* t-ref-lohner.c — the mean-value (Lohner) propagation of slpi_ref_step (ref/lohner.c)
 * with the ISOMP step Jacobian (ref/isomp.c), docs/schemes.md#isomp:
 *   - from exact binary64 states (rigid body, coordinate form; point vortices, matrix
 *     form): every ball of the 128-bit trajectory contains the 256-bit trajectory's
 *     ball (the same exact trajectory computed at twice the precision);
 *   - from a wide ball (radius 2^-40): every ball contains the 256-bit trajectories of
 *     random corners of the start ball, while its radius stays below the plain ball
 *     path's (a wrong Jacobian tilts the parallelepiped and loses the corners);
 *   - the gain: iso/rigid-body/long keeps the radius <= 1e-30 over 3000 steps (the
 *     plain ball path exceeds it at step 1016);
 *   - near the rigid body's unstable middle axis (hyperbolic motion) the parallelepiped's
 *     basis is re-orthogonalised (Lohner's QR method), and the corners stay inside;
 *   - slpi_ref_set_lohner refuses what it cannot do (CAY update, fixed iterations,
 *     TMK) with SLPI_EINPUT, and switched off again steps as a plain ref object.
 * Canonical noise of the presets; public API only. */
#include "core/problem-struct.h"
#include "testutil.h"
#include "slpi.h"

typedef struct {
    slpi_problem p;
    slpi_noise_source *src;
    double *x0, *dW;
    int n, M;
} fixture;

/* the preset, then the keys of `keys` ("k=v k=v", NULL: none) */
static int setup(fixture *f, const char *preset, const char *keys)
{
    slpi_error err;
    slpi_fast *fp = NULL;
    slpi_problem_init(&f->p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_preset(&f->p, preset, &err) == SLPI_OK);
    for (const char *k = keys; k && *k;) {
        char kv[128], *eq;
        size_t l = strcspn(k, " ");
        snprintf(kv, sizeof kv, "%.*s", (int)l, k);
        eq = strchr(kv, '=');
        *eq = 0;
        TEST_CHECKF(slpi_problem_set(&f->p, kv, eq + 1, &err) == SLPI_OK, "%s: %s", kv, err.msg);
        k += l + (k[l] == ' ');
    }
    TEST_CHECK(slpi_problem_finish(&f->p, &err) == SLPI_OK);
    f->n = slpi_problem_state_dim(&f->p);
    f->M = slpi_problem_noise_count(&f->p);
    f->x0 = calloc((size_t)f->n, sizeof(double));
    f->dW = calloc((size_t)f->M + 1, sizeof(double));
    int ok = slpi_fast_create(&fp, &f->p, &err) == SLPI_OK && slpi_fast_initial_state(fp, f->x0, &err) == SLPI_OK &&
        slpi_noise_source_open(&f->src, &f->p, &err) == SLPI_OK;
    TEST_CHECKF(ok, "%s: %s", preset, err.msg);
    slpi_fast_free(fp);
    return ok;
}

static void teardown(fixture *f)
{
    slpi_noise_source_close(f->src);
    free(f->x0);
    free(f->dW);
}

static slpi_ref *ref_at(fixture *f, long prec)
{
    slpi_ref *r = NULL;
    slpi_error err;
    f->p.cert.prec = prec;
    f->p.cert.ref_lohner = SLPI_PROPAGATION_BALL; /* plain; each check switches the form on */
    TEST_CHECKF(slpi_ref_create(&r, &f->p, &err) == SLPI_OK, "%s", err.msg);
    return r;
}

/* Steps the trajectory x (a ref object r) and the corner trajectories y[c] (at 256
 * bits) over `steps` steps; counts the steps where some y[c] is not inside x. */
static void run(fixture *f, const char *name, double rad, int corners, int steps)
{
    int n = f->n;
    slpi_ref *r = ref_at(f, 128), *rp = ref_at(f, 128), *hi = ref_at(f, 256);
    TEST_CHECK(slpi_ref_set_lohner(r, 1) == SLPI_OK);
    slpi_error err;
    arb_ptr x = _arb_vec_init(n), xp = _arb_vec_init(n);
    arb_ptr *y = malloc(sizeof(arb_ptr) * (size_t)corners);
    for (int i = 0; i < n; i++) {
        arb_set_d(x + i, f->x0[i]);
        mag_set_d(arb_radref(x + i), rad);
    }
    _arb_vec_set(xp, x, n);
    for (int c = 0; c < corners; c++) {
        y[c] = _arb_vec_init(n);
        for (int i = 0; i < n; i++) {
            arb_set_d(y[c] + i, f->x0[i]);
            if (rad > 0 && c > 0) { /* corner 0: the centre */
                arb_t d;
                arb_init(d);
                /* every corner in turn while there are few (2^n <= corners - 1), then
                 * random ones; beyond 2^n + 1 (with all corners), random interior points */
                int all = n < 30 && (1L << n) < corners;
                if (all && c <= (1L << n))
                    arb_set_d(d, ((c - 1) >> i) & 1 ? rad : -rad);
                else if (all)
                    arb_set_d(d, test_rand_uniform(-rad, rad));
                else
                    arb_set_d(d, test_rand_int(2) ? rad : -rad);
                arb_add(y[c] + i, y[c] + i, d, 256);
                arb_clear(d);
            }
        }
    }
    int outside = 0, first = -1, wider = 0, failed = 0;
    for (int k = 0; k < steps && !failed; k++) {
        slpi_step_info info, infop;
        TEST_CHECK(slpi_noise_source_step(f->src, k, f->dW, &err) == SLPI_OK);
        if (slpi_ref_step(r, x, f->dW, &info) != SLPI_STEP_CONVERGED) {
            TEST_CHECKF(0, "%s step %d: %s", name, k, slpi_ref_unable_reason(r));
            break;
        }
        if (rad > 0 && slpi_ref_step(rp, xp, f->dW, &infop) == SLPI_STEP_CONVERGED) wider += info.radius > infop.radius;
        for (int c = 0; c < corners; c++) {
            if (slpi_ref_step(hi, y[c], f->dW, &infop) != SLPI_STEP_CONVERGED) {
                TEST_CHECKF(0, "%s step %d: 256 bits: %s", name, k, slpi_ref_unable_reason(hi));
                failed = 1;
                break;
            }
            int in = 1;
            for (int i = 0; i < n; i++) in &= arb_contains(x + i, y[c] + i);
            if (!in && first < 0) first = k;
            outside += !in;
        }
    }
    TEST_CHECKF(outside == 0, "%s (radius %g): %d corner-steps outside, first at step %d", name, rad, outside, first);
    TEST_CHECKF(wider == 0, "%s: the Lohner ball wider than the plain one at %d steps", name, wider);
    for (int c = 0; c < corners; c++) _arb_vec_clear(y[c], n);
    free(y);
    _arb_vec_clear(x, n);
    _arb_vec_clear(xp, n);
    slpi_ref_free(r);
    slpi_ref_free(rp);
    slpi_ref_free(hi);
}

/* The radius after `steps` steps from the exact initial state. */
static double horizon_radius(fixture *f, int steps)
{
    slpi_ref *r = ref_at(f, 128);
    slpi_error err;
    slpi_step_info info = { 0 };
    TEST_CHECK(slpi_ref_set_lohner(r, 1) == SLPI_OK);
    arb_ptr x = _arb_vec_init(f->n);
    for (int i = 0; i < f->n; i++) arb_set_d(x + i, f->x0[i]);
    for (int k = 0; k < steps; k++) {
        TEST_CHECK(slpi_noise_source_step(f->src, k, f->dW, &err) == SLPI_OK);
        if (slpi_ref_step(r, x, f->dW, &info) != SLPI_STEP_CONVERGED) break;
    }
    _arb_vec_clear(x, f->n);
    slpi_ref_free(r);
    return info.radius;
}

/* Settings without a step Jacobian are refused. */
static void check_refusals(void)
{
    static const char *const cases[][2] = {
        { "iso/rigid-body/long", "update=cay" },
        { "iso/rigid-body/long", "fixed_iters=2" },
        { "rkmk/heavy-top/casimirs-421", "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        slpi_problem p;
        slpi_error err;
        slpi_ref *r = NULL;
        slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
        TEST_CHECK(slpi_problem_preset(&p, cases[i][0], &err) == SLPI_OK);
        if (cases[i][1][0]) {
            char key[32];
            const char *eq = strchr(cases[i][1], '=');
            snprintf(key, sizeof key, "%.*s", (int)(eq - cases[i][1]), cases[i][1]);
            TEST_CHECK(slpi_problem_set(&p, key, eq + 1, &err) == SLPI_OK);
        }
        TEST_CHECK(slpi_problem_finish(&p, &err) == SLPI_OK);
        TEST_CHECK(slpi_ref_create(&r, &p, &err) == SLPI_OK);
        TEST_CHECKF(slpi_ref_set_lohner(r, 1) == SLPI_EINPUT, "%s %s: accepted", cases[i][0], cases[i][1]);
        slpi_ref_free(r);
    }
}

/* Switched on and off again (slpi_ref_set_lohner(r, 0)), a ref object steps as one that
 * never had the Lohner form: the same balls, midpoint and radius, bit for bit, over
 * `steps` steps from a wide start (where the two forms differ: checked on a third object
 * left on). A fourth object, made from the problem's default propagation=auto, steps as
 * the one switched on. */
static void check_switch_off(fixture *f, int steps)
{
    int n = f->n;
    slpi_ref *off = ref_at(f, 128), *plain = ref_at(f, 128), *on = ref_at(f, 128), *autom = NULL;
    slpi_error err;
    f->p.cert.ref_lohner = SLPI_PROPAGATION_AUTO;
    TEST_CHECKF(slpi_ref_create(&autom, &f->p, &err) == SLPI_OK, "%s", err.msg);
    TEST_CHECK(slpi_ref_set_lohner(off, 1) == SLPI_OK && slpi_ref_set_lohner(off, 0) == SLPI_OK);
    TEST_CHECK(slpi_ref_set_lohner(on, 1) == SLPI_OK);
    arb_ptr x = _arb_vec_init(n), y = _arb_vec_init(n), z = _arb_vec_init(n), w = _arb_vec_init(n);
    for (int i = 0; i < n; i++) {
        arb_set_d(x + i, f->x0[i]);
        mag_set_d(arb_radref(x + i), 0x1p-40);
    }
    _arb_vec_set(y, x, n);
    _arb_vec_set(z, x, n);
    _arb_vec_set(w, x, n);
    int same = 1, differ = 0, as_on = 1;
    for (int k = 0; k < steps; k++) {
        slpi_step_info a, b, c, d;
        TEST_CHECK(slpi_noise_source_step(f->src, k, f->dW, &err) == SLPI_OK);
        if (slpi_ref_step(off, x, f->dW, &a) != SLPI_STEP_CONVERGED ||
            slpi_ref_step(plain, y, f->dW, &b) != SLPI_STEP_CONVERGED ||
            slpi_ref_step(on, z, f->dW, &c) != SLPI_STEP_CONVERGED ||
            slpi_ref_step(autom, w, f->dW, &d) != SLPI_STEP_CONVERGED) {
            TEST_CHECKF(0, "switch off: step %d failed", k);
            break;
        }
        for (int i = 0; i < n; i++) {
            same &= arb_equal(x + i, y + i);
            differ |= !arb_equal(x + i, z + i);
            as_on &= arb_equal(w + i, z + i);
        }
    }
    TEST_CHECKF(same, "Lohner switched off: the balls differ from a plain ref object's");
    TEST_CHECKF(differ, "Lohner switched off: the balls equal the Lohner form's (the control does not separate them)");
    TEST_CHECKF(as_on, "propagation=auto: the balls differ from the Lohner form's");
    _arb_vec_clear(x, n);
    _arb_vec_clear(y, n);
    _arb_vec_clear(z, n);
    _arb_vec_clear(w, n);
    slpi_ref_free(off);
    slpi_ref_free(plain);
    slpi_ref_free(on);
    slpi_ref_free(autom);
}

int main(void)
{
    test_start("t-ref-lohner", 20261123);
    check_refusals();
    int steps = (int)test_iters(100);
    fixture f;
    if (setup(&f, "iso/rigid-body/long", NULL)) {
        run(&f, "rigid body, exact start", 0, 1, steps);
        check_switch_off(&f, 20);
        run(&f, "rigid body, wide start", 0x1p-40, 6, steps);
        /* a wide set (radius 1e-3): curvature over the box matters at the first steps */
        run(&f, "rigid body, wide set 1e-3", 1e-3, 1 + 8 + 4, steps / 4);
        double rad = horizon_radius(&f, 3000);
        TEST_CHECKF(rad <= 1e-30, "rigid body: radius %g after 3000 steps", rad);
    }
    teardown(&f);
    /* near the middle axis the motion is hyperbolic: mid(B) loses its conditioning
     * within the first 100 steps and the basis is re-orthogonalised (Lohner's QR) */
    if (setup(&f, "iso/rigid-body/long", "x0=0.01,10,0.01 h=0.015625")) {
        run(&f, "rigid body, unstable axis, wide start", 0x1p-40, 6, steps);
        run(&f, "rigid body, unstable axis, wide set 1e-4", 1e-4, 1 + 8 + 4, steps / 4);
    }
    teardown(&f);
    if (setup(&f, "iso/vortices/long", NULL)) {
        run(&f, "point vortices, exact start", 0, 1, steps / 4);
        run(&f, "point vortices, wide start", 0x1p-40, 3, steps / 4);
    }
    teardown(&f);
    flint_cleanup();
    TEST_END();
}
