/* t-ref-rigid-body — certified steps on the rigid body (docs/systems.md#rigid-body) through the public
 * ref API, each statement checked as ball containment:
 *  - ISOMP with one constant generator is the closed-form Cayley rotation by
 *    2 arctan(|b|/2) (docs/schemes.md#isomp), in COMM and CAY mode;
 *  - COMM and CAY updates enclose the same exact X_{n+1} (overlap) with noise; with one
 *    fixed-point sweep CAY still keeps |x|^2 and COMM provably does not (X8);
 *  - Casimir |x|^2: 0 in C(X_n) - C(X_0) for TMK, RKMK-HEUN, ISOMP-CAY, SVI (±1/4), IM;
 *  - deterministic energy: 0 in H0(X_n) - H0(X_0) for TMK, IM and SVI c = -1/4, while
 *    SVI c = +1/4 and TRAP are shown NOT to conserve (0 excluded);
 *  - Noether J = R Pi for SVI with R tracked;
 *  - coordinates vs matrix form: TMK on the heavy top with gamma = 0, x = 0 equals TMK
 *    on the rigid body (SVI form); SVI-LP on so(3) equals SVI-SO3 with c = +1/4;
 *  - radii stay below 1e-30 at 128 bits. */
#include "core/problem-struct.h"
#include "testutil.h"
#include "slpi.h"

typedef struct {
    slpi_ref *r;
    arb_ptr x, x0;
    int n, M;
    slpi_ref_diag d;
} run_t;

static int run(run_t *R, const slpi_problem *p, const double *x0, long steps, double dwamp, double *maxrad)
{
    slpi_error err;
    if (slpi_ref_create(&R->r, p, &err) != SLPI_OK) {
        fprintf(stderr, "create: %s\n", err.msg);
        return 0;
    }
    R->n = slpi_problem_state_dim(p);
    R->M = slpi_problem_noise_count(p);
    R->x = _arb_vec_init(R->n);
    R->x0 = _arb_vec_init(R->n);
    for (int i = 0; i < R->n; i++) arb_set_d(R->x0 + i, x0[i]);
    _arb_vec_set(R->x, R->x0, R->n);
    double dW[8];
    *maxrad = 0;
    for (long s = 0; s < steps; s++) {
        for (int k = 0; k < R->M; k++) dW[k] = dwamp * test_rand_uniform(-1, 1);
        slpi_step_info info;
        if (slpi_ref_step(R->r, R->x, dW, &info) != SLPI_STEP_CONVERGED) {
            fprintf(stderr, "step %ld: %s\n", s, slpi_ref_unable_reason(R->r));
            return 0;
        }
        if (info.radius > *maxrad) *maxrad = info.radius;
    }
    slpi_ref_diag_init(&R->d);
    slpi_ref_diagnostics(R->r, R->x, R->x0, &R->d);
    return 1;
}

static void done(run_t *R)
{
    slpi_ref_diag_clear(&R->d);
    _arb_vec_clear(R->x, R->n);
    _arb_vec_clear(R->x0, R->n);
    slpi_ref_free(R->r);
}

/* the diagnostic ball named `name` */
static arb_srcptr diag(const run_t *R, const char *name)
{
    for (int i = 0; i < R->d.n; i++)
        if (strcmp(R->d.name[i], name) == 0) return R->d.value + i;
    return NULL;
}

static int contains_zero(const run_t *R, const char *name)
{
    arb_srcptr v = diag(R, name);
    return v != NULL && arb_contains_zero(v);
}

/* e = a u + b v (u, v exact doubles) */
static void rot(arb_t e, const arb_t a, double u, const arb_t b, double v)
{
    arb_t t;
    arb_init(t);
    arb_set_d(t, u);
    arb_mul(e, a, t, 256);
    arb_set_d(t, v);
    arb_addmul(e, b, t, 256);
    arb_clear(t);
}

/* closed-form Cayley rotation: H0 = 0, B = -sigma dW hat(e3) */
static void check_cayley_closed_form(void)
{
    slpi_problem p;
    for (int mode = 0; mode < 2; mode++) {
        slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
        p.sys.rb.h0_scale = 0;
        p.sys.rb.noise = SLPI_RB_NOISE_CONST_E3;
        p.sys.rb.amp = 1.0;
        p.sch.isomp_update = mode ? SLPI_ISO_UPDATE_CAY : SLPI_ISO_UPDATE_COMM;
        slpi_error err;
        slpi_ref *r;
        TEST_CHECK(slpi_ref_create(&r, &p, &err) == SLPI_OK);
        arb_ptr x = _arb_vec_init(3);
        arb_t phi, c, s, e;
        arb_init(phi);
        arb_init(c);
        arb_init(s);
        arb_init(e);
        for (long it = 0; it < test_iters(20); it++) {
            double x0[3] = { test_rand_uniform(-1, 1), test_rand_uniform(-1, 1), test_rand_uniform(-1, 1) };
            double w = test_rand_uniform(-0.5, 0.5);
            for (int i = 0; i < 3; i++) arb_set_d(x + i, x0[i]);
            TEST_CHECK(slpi_ref_step(r, x, &w, NULL) == SLPI_STEP_CONVERGED);
            /* Psi = hat(b), b = -w e3: rotation about e3 by phi = -2 arctan(w/2) */
            arb_set_d(phi, w);
            arb_mul_2exp_si(phi, phi, -1);
            arb_atan(phi, phi, 256);
            arb_mul_2exp_si(phi, phi, 1);
            arb_neg(phi, phi);
            arb_sin_cos(s, c, phi, 256);
            rot(e, c, x0[0], s, -x0[1]);
            TEST_CHECKF(arb_contains(x + 0, e), "mode %d: x1 not the Cayley rotation", mode);
            rot(e, s, x0[0], c, x0[1]);
            TEST_CHECKF(arb_contains(x + 1, e), "mode %d: x2 not the Cayley rotation", mode);
            arb_set_d(e, x0[2]);
            TEST_CHECK(arb_contains(x + 2, e));
        }
        arb_clear(phi);
        arb_clear(c);
        arb_clear(s);
        arb_clear(e);
        _arb_vec_clear(x, 3);
        slpi_ref_free(r);
    }
}

/* coordinates (se(3), 6x6 exp) vs matrix form (so(3) hat): TMK, and RKMK-HEUN with
 * the truncated dexp^{-1} of order q = 2 (the B-form bracket against the se(3) one) */
static void check_coordinates_vs_matrix(void)
{
    slpi_problem p;
    double rad;
    for (int j = 0; j < 2; j++) {
        run_t A, B;
        const double x6[6] = { -0.5878, 0, 0.8090, 0, 0, 0 };
        const int scheme = j ? SLPI_SCHEME_RKMK_HEUN : SLPI_SCHEME_TMK;
        slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, scheme);
        p.sch.dexp_order = 2 * j;
        p.sys.rb.form = SLPI_RB_FORM_SVI;
        p.sys.rb.inertia[0] = 1;
        p.sys.rb.inertia[1] = 2;
        p.sys.rb.inertia[2] = 3;
        p.sys.rb.noise = SLPI_RB_NOISE_NONE;
        p.grid.h = 0.05;
        TEST_CHECK(run(&A, &p, x6, 10, 0, &rad));
        slpi_problem_init(&p, SLPI_SYS_HEAVY_TOP, scheme);
        p.sch.dexp_order = 2 * j;
        p.sys.ht.inertia[0] = 1;
        p.sys.ht.inertia[1] = 2;
        p.sys.ht.inertia[2] = 3;
        p.sys.ht.mga[0] = p.sys.ht.mga[1] = p.sys.ht.mga[2] = 0;
        p.sys.ht.noise = SLPI_HT_NOISE_NONE;
        p.grid.h = 0.05;
        TEST_CHECK(run(&B, &p, x6, 10, 0, &rad));
        for (int i = 0; i < 3; i++)
            TEST_CHECKF(arb_overlaps(A.x + i, B.x + i), "%s: matrix vs coordinates, entry %d", slpi_scheme_name(scheme),
                        i);
        done(&A);
        done(&B);
    }
}

int main(void)
{
    test_start("t-ref-rigid-body", 3);
    const double xiso[3] = { sin(1.1), 0.0, cos(1.1) };
    const double xsvi[12] = { -0.5878, 0, 0.8090, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    slpi_problem p;
    run_t R;
    double rad;

    check_cayley_closed_form();

    /* COMM vs CAY with iso-quad noise, h = 2^-4 */
    {
        run_t A, B;
        slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
        p.grid.h = 0x1p-4;
        uint64_t st = test_rng_state_;
        TEST_CHECK(run(&A, &p, xiso, 5, 0.25, &rad));
        test_rng_state_ = st;
        p.sch.isomp_update = SLPI_ISO_UPDATE_CAY;
        TEST_CHECK(run(&B, &p, xiso, 5, 0.25, &rad));
        for (int i = 0; i < 3; i++) TEST_CHECKF(arb_overlaps(A.x + i, B.x + i), "COMM and CAY disagree in x%d", i);
        TEST_CHECK(contains_zero(&B, "casimir_norm2_dev"));
        done(&A);
        done(&B);
    }

    /* Casimir containment with noise, and radius, for the orbit schemes and IM */
    const int casimir_schemes[] = {
        SLPI_SCHEME_TMK,       SLPI_SCHEME_RKMK_HEUN, SLPI_SCHEME_ISOMP,
        SLPI_SCHEME_IM_DIRECT, SLPI_SCHEME_SVI,       SLPI_SCHEME_RKMK_LE
    }; /* with iso-quad (claim X4) */
    for (int j = 0; j < 6; j++) {
        slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, casimir_schemes[j]);
        p.sch.isomp_update = SLPI_ISO_UPDATE_CAY;
        const double *x0 = casimir_schemes[j] == SLPI_SCHEME_SVI ? xsvi : xiso;
        TEST_CHECK(run(&R, &p, x0, 20, 0.1, &rad));
        TEST_CHECKF(contains_zero(&R, "casimir_norm2_dev"), "%s: Casimir not certified",
                    slpi_scheme_name(p.sch.scheme));
        TEST_CHECKF(rad < 1e-30, "%s: radius %g", slpi_scheme_name(p.sch.scheme), rad);
        done(&R);
    }

    /* X8: with one fixed-point sweep (fixed_iters = 1, a different, certified map) the
     * CAY update still keeps |x|^2 exactly, the COMM update provably does not */
    for (int mode = 0; mode < 2; mode++) {
        slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
        p.sch.isomp_update = mode ? SLPI_ISO_UPDATE_CAY : SLPI_ISO_UPDATE_COMM;
        p.sol.fixed_iters = 1;
        p.grid.h = 0x1p-4;
        TEST_CHECK(run(&R, &p, xiso, 5, 0.2, &rad));
        TEST_CHECKF(contains_zero(&R, "casimir_norm2_dev") == mode, "fixed-iteration %s", mode ? "CAY" : "COMM");
        done(&R);
    }

    /* deterministic energy */
    const int energy_schemes[] = { SLPI_SCHEME_TMK, SLPI_SCHEME_IM_DIRECT };
    for (int j = 0; j < 2; j++) {
        slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, energy_schemes[j]);
        p.sys.rb.noise = SLPI_RB_NOISE_NONE;
        p.grid.h = 0.1;
        TEST_CHECK(run(&R, &p, xiso, 20, 0, &rad));
        TEST_CHECKF(contains_zero(&R, "H0_rel_dev"), "%s: energy not certified", slpi_scheme_name(p.sch.scheme));
        done(&R);
    }
    for (int sign = -1; sign <= 1; sign += 2) {
        slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_SVI);
        p.sys.rb.noise = SLPI_RB_NOISE_NONE;
        p.sys.rb.track_R = 1;
        p.grid.h = 0.1;
        p.sch.svi_c = 0.25 * sign;
        TEST_CHECK(run(&R, &p, xsvi, 20, 0, &rad));
        /* c = -1/4 conserves H0 exactly (App. 10.1); c = +1/4 provably does not */
        TEST_CHECKF(contains_zero(&R, "H0_rel_dev") == (sign < 0), "svi c=%g energy", p.sch.svi_c);
        for (int i = 0; i < 3; i++)
            TEST_CHECK(arb_contains_zero(diag(&R, i == 0 ? "J_x_dev" : i == 1 ? "J_y_dev" : "J_z_dev")));
        done(&R);
    }
    /* TRAP provably loses the Casimir */
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_TRAP_DIRECT);
    p.grid.h = 0.1;
    TEST_CHECK(run(&R, &p, xiso, 10, 0.3, &rad));
    TEST_CHECK(!contains_zero(&R, "casimir_norm2_dev"));
    done(&R);

    /* SVI: the matrix form SVI-LP (U(N) formulas of docs/schemes.md#svi-lp on so(3)) and the
     * vector form SVI-SO3 with c = +1/4 are one scheme: the enclosures overlap */
    {
        run_t A, B;
        slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_SVI);
        p.grid.h = 0.1;
        p.sys.rb.amp = 0.5;
        uint64_t st = test_rng_state_;
        TEST_CHECK(run(&A, &p, xsvi, 5, 0.3, &rad));
        test_rng_state_ = st;
        p.sch.svi_form = SLPI_SVI_FORM_LP;
        TEST_CHECK(run(&B, &p, xsvi, 5, 0.3, &rad));
        for (int i = 0; i < 3; i++) TEST_CHECKF(arb_overlaps(A.x + i, B.x + i), "SVI-LP vs SVI-SO3, entry %d", i);
        done(&A);
        done(&B);
    }

    check_coordinates_vs_matrix();
    flint_cleanup();
    TEST_END();
}
