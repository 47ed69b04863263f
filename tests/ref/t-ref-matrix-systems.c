/* t-ref-matrix-systems — the J-quadratic ref systems (Manakov, point vortices,
 * sine-Euler) and the schemes on them:
 *  - Manakov n = 3 is the ISO rigid body with I = diag(3,2,1) (docs/systems.md#manakov): one ISOMP
 *    step from both enclosures overlaps (packed (X01, X02, X12) = (-x3, x2, -x1));
 *  - vortices: the tetrahedron is an equilibrium (0 in V_0, both models), and model B
 *    runs at 1/(2 sqrt2) the speed of model A (docs/systems.md#point-vortices, I23);
 *  - sine-Euler: the canonical IC (0.3, -0.2, 0.45, -0.1) built from T_m = i/(2eps) J_m
 *    with J_m = e^{i eps m1 m2} g^{m1} h^{m2} by matrix powers (a second construction)
 *    gives C2 = -0.117121, C3 = -0.0151538 (docs/systems.md#sine-euler) and H0 = N/(8 eps^2) sum
 *    |w_m|^2/|m|^2;
 *  - Casimirs certified (0 in C(X_n) - C(X_0)) for TMK, ISOMP-CAY, SVI-LP, RKMK-HEUN
 *    (vortices from the docs/systems.md#point-vortices initial condition);
 *  - the matrix product two ways (ref/matrix.c's four real products and its approximate
 *    product against acb_mat_mul), square and rectangular;
 *  - the exponential and its derivative (ref/matrix.c, used by the orbit map's
 *    derivative in the TMK solve) contain the exact values at points of wide sets;
 *  - every built-in system's generators b_k = grad H_k (k = 0..M) and their derivatives
 *    db_k[w], evaluated over a wide state ball (radius 1e-3 on every coordinate), contain
 *    their values at the ball's corners (random corners beyond 6 coordinates) and at
 *    random interior points, evaluated at 256 bits (thin boxes with the direction w
 *    along the box): a term taken at the ball's midpoint
 *    (a set replaced by a point) misses them. */
#include "core/problem-struct.h"
#include "testutil.h"
#include "ref/vector-field.h"
#include "ref/matrix.h"

static void set_vec(arb_ptr x, const double *v, int n)
{
    for (int i = 0; i < n; i++) arb_set_d(x + i, v[i]);
}

/* all Casimir differences (indices >= 1) of a diag contain 0 */
/* Every Casimir's departure from x0 contains 0: the invariants' NAME_dev and NAME_rel_dev
 * (docs/architecture.md#twin-diagnostics) but the energy's. */
static int casimirs_zero(const slpi_ref_diag *d)
{
    for (int i = 0; i < d->n; i++) {
        size_t n = strlen(d->name[i]);
        if (n > 4 && !strcmp(d->name[i] + n - 4, "_dev") && strncmp(d->name[i], "H0", 2) &&
            strcmp(d->name[i], "eig_dev") && !arb_contains_zero(d->value + i))
            return 0;
    }
    return 1;
}

/* the sine-Euler state of real-even coefficients w = (w01, w11, w10, w1-1), N = 3 */
static void sine_euler_state(arb_ptr x, const double *w, slong prec)
{
    const int N = 3;
    const int modes[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 1, -1 } };
    acb_mat_t g, h, gp, hp, J, W;
    acb_mat_init(g, N, N);
    acb_mat_init(h, N, N);
    acb_mat_init(gp, N, N);
    acb_mat_init(hp, N, N);
    acb_mat_init(J, N, N);
    acb_mat_init(W, N, N);
    acb_t c;
    acb_init(c);
    arb_t eps;
    arb_init(eps);
    arb_const_pi(eps, prec);
    arb_mul_2exp_si(eps, eps, 1);
    arb_div_ui(eps, eps, N, prec);
    for (int a = 0; a < N; a++) { /* g = diag(q^a), q = e^{2 i eps}; h e_b = e_{b-1} */
        acb_set_arb(c, eps);
        acb_mul_ui(c, c, 2 * a, prec);
        acb_mul_onei(c, c);
        acb_exp(acb_mat_entry(g, a, a), c, prec);
        acb_one(acb_mat_entry(h, (a + N - 1) % N, a));
    }
    for (int j = 0; j < 4; j++)
        for (int s = -1; s <= 1; s += 2) {
            int m1 = s * modes[j][0], m2 = s * modes[j][1];
            acb_mat_pow_ui(gp, g, (m1 % N + N) % N, prec); /* g^N = h^N = I */
            acb_mat_pow_ui(hp, h, (m2 % N + N) % N, prec);
            acb_mat_mul(J, gp, hp, prec);
            acb_set_arb(c, eps);
            acb_mul_si(c, c, m1 * m2, prec);
            acb_mul_onei(c, c);
            acb_exp(c, c, prec);
            acb_mul_onei(c, c);
            acb_div_arb(c, c, eps, prec);
            acb_mul_2exp_si(c, c, -1); /* i e^{..} / (2 eps) */
            arb_t wt;
            arb_init(wt);
            arb_set_d(wt, w[j]);
            acb_mul_arb(c, c, wt, prec);
            arb_clear(wt);
            acb_mat_scalar_mul_acb(J, J, c, prec);
            acb_mat_add(W, W, J, prec);
        }
    slpi_ref_sun_pack(x, W, N, prec);
    acb_clear(c);
    arb_clear(eps);
    acb_mat_clear(g);
    acb_mat_clear(h);
    acb_mat_clear(gp);
    acb_mat_clear(hp);
    acb_mat_clear(J);
    acb_mat_clear(W);
}

/* The matrix exponential and its directional derivative (slpi_ref_mat_dexp: both from
 * the exponential of [[A, W], [0, A]]) over wide sets: A with radius ra and W with
 * radius rw on every entry; the exact e^{A'} and d/dt e^{A' + t W'} at a corner and
 * random points A', W' of the sets (256-bit point evaluations) lie inside. A set
 * replaced by a point anywhere in the block matrix loses them (with ra small, W's set
 * is what the derivative's width must hold). */
/* x = a + b exactly (two doubles: their sum fits in 256 bits) */
static void set_sum(arb_t x, double a, double b)
{
    arb_t t;
    arb_init(t);
    arb_set_d(t, b);
    arb_set_d(x, a);
    arb_add(x, x, t, 256);
    arb_clear(t);
}

static void check_dexp_wide(double ra, double rw)
{
    const slong n = 3, prec = 128;
    acb_mat_t A, W, E, dE, a, w, e, de;
    acb_mat_init(A, n, n);
    acb_mat_init(W, n, n);
    acb_mat_init(E, n, n);
    acb_mat_init(dE, n, n);
    acb_mat_init(a, n, n);
    acb_mat_init(w, n, n);
    acb_mat_init(e, n, n);
    acb_mat_init(de, n, n);
    double am[3][3][2], wm[3][3][2];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < 2; k++) {
                am[i][j][k] = test_rand_uniform(-1, 1);
                wm[i][j][k] = test_rand_uniform(-1, 1);
                acb_ptr x = acb_mat_entry(A, i, j), y = acb_mat_entry(W, i, j);
                arb_set_d(k ? acb_imagref(x) : acb_realref(x), am[i][j][k]);
                arb_set_d(k ? acb_imagref(y) : acb_realref(y), wm[i][j][k]);
                mag_set_d(arb_radref(k ? acb_imagref(x) : acb_realref(x)), ra);
                mag_set_d(arb_radref(k ? acb_imagref(y) : acb_realref(y)), rw);
            }
    slpi_ref_mat_dexp(E, dE, A, W, prec);
    int outside_e = 0, outside_de = 0, points = (int)test_iters(12);
    for (int t = 0; t < points; t++) {
        for (int i = 0; i < n; i++) /* point 0: a corner; then random points */
            for (int j = 0; j < n; j++)
                for (int k = 0; k < 2; k++) {
                    double da = t == 0 ? ra : test_rand_uniform(-ra, ra);
                    double dw = t == 0 ? -rw : test_rand_uniform(-rw, rw);
                    set_sum(k ? acb_imagref(acb_mat_entry(a, i, j)) : acb_realref(acb_mat_entry(a, i, j)), am[i][j][k],
                            da);
                    set_sum(k ? acb_imagref(acb_mat_entry(w, i, j)) : acb_realref(acb_mat_entry(w, i, j)), wm[i][j][k],
                            dw);
                }
        slpi_ref_mat_dexp(e, de, a, w, 256);
        outside_e += !acb_mat_contains(E, e);
        outside_de += !acb_mat_contains(dE, de);
    }
    TEST_CHECKF(outside_e == 0 && outside_de == 0,
                "dexp over sets of radii %g (A), %g (W): e^A misses %d of %d "
                "points, its derivative %d",
                ra, rw, outside_e, points, outside_de);
    acb_mat_clear(A);
    acb_mat_clear(W);
    acb_mat_clear(E);
    acb_mat_clear(dE);
    acb_mat_clear(a);
    acb_mat_clear(w);
    acb_mat_clear(e);
    acb_mat_clear(de);
}

/* the vortices x_i (3-vectors) scaled to unit length, x_1 moved to 12 degrees from x_0
 * (where 1/(1 - cos) varies by ~15 % over the ball: a close pair is where H0's
 * log(1 - cos) is curved); 1 if no other two are within 10 degrees (the ball then stays
 * far from the singularity cos = 1) */
static int place_vortices(double *x, int k)
{
    for (int i = 0; i < k; i++) {
        double r = sqrt(x[3 * i] * x[3 * i] + x[3 * i + 1] * x[3 * i + 1] + x[3 * i + 2] * x[3 * i + 2]);
        if (r < 0.1) return 0;
        for (int j = 0; j < 3; j++) x[3 * i + j] /= r;
    }
    double d = x[0] * x[3] + x[1] * x[4] + x[2] * x[5], t[3], r = 0;
    for (int j = 0; j < 3; j++) {
        t[j] = x[3 + j] - d * x[j];
        r += t[j] * t[j];
    }
    if (r < 0.01) return 0;
    r = tan(12 * 0.017453292519943295) / sqrt(r);
    for (int j = 0; j < 3; j++) x[3 + j] = x[j] + r * t[j];
    r = sqrt(x[3] * x[3] + x[4] * x[4] + x[5] * x[5]);
    for (int j = 3; j < 6; j++) x[j] /= r;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < i; j++)
            if (i > 1 &&
                x[3 * i] * x[3 * j] + x[3 * i + 1] * x[3 * j + 1] + x[3 * i + 2] * x[3 * j + 2] > 0.984807753012208)
                return 0; /* cos 10 degrees */
    return 1;
}

static void check_gen_wide(slpi_system_id sys, const char *what, double rad)
{
    slpi_problem p;
    slpi_error err;
    slpi_ref_system s = { 0 };
    slpi_problem_init(&p, sys, SLPI_SCHEME_TMK);
    p.sys.mk.n = 4;
    p.sys.ez.N = 4;
    if (what[0] == 'B') p.sys.pv.model = SLPI_VORTEX_MODEL_B;
    TEST_CHECKF(slpi_ref_system_init(&s, &p, NULL, &err) == SLPI_OK, "%s: %s", what, err.msg);
    int n = s.dim, g = s.gdim, outside = 0, points = 0;
    double worst[2] = { 0, 0 }; /* the widest radius relative to the values: whole, thin boxes */
    arb_ptr mu = _arb_vec_init(n), w = _arb_vec_init(n), pt = _arb_vec_init(n), b = _arb_vec_init(g),
            db = _arb_vec_init(g), bp = _arb_vec_init(g), dbp = _arb_vec_init(g);
    double *c = malloc(sizeof(double) * (size_t)n);
    for (long it = 0; it < test_iters(6); it++) {
        for (int i = 0; i < n; i++) c[i] = test_rand_uniform(-1, 1);
        if (sys == SLPI_SYS_POINT_VORTICES && !place_vortices(c, n / 3)) {
            it--; /* a state near a collision: drawn again */
            continue;
        }
        for (int i = 0; i < n; i++) arb_set_d(w + i, test_rand_uniform(-1, 1));
        /* the whole box (axis -1), then thin boxes wide along one axis only, where the
         * ball arithmetic loses less to decorrelation and a dropped term shows */
        for (int axis = -1; axis < n; axis++)
            for (int k = 0; k <= s.M; k++) {
                for (int i = 0; i < n; i++) {
                    if (axis >= 0) /* thin boxes: the direction along the box */
                        arb_set_si(w + i, i == axis);
                    arb_set_d(mu + i, c[i]);
                    if (axis < 0 || axis == i) mag_set_d(arb_radref(mu + i), rad);
                }
                s.gen(&s, k, b, mu, 128);
                s.dgen(&s, k, db, mu, w, 128);
                double bmax = 0, dbmax = 0;   /* not vacuous: radii below 4 (thin boxes 1) times the */
                for (int i = 0; i < g; i++) { /* largest entry + 1 (the close pair is wide in model A) */
                    bmax = fmax(bmax, fabs(arf_get_d(arb_midref(b + i), ARF_RND_NEAR)));
                    dbmax = fmax(dbmax, fabs(arf_get_d(arb_midref(db + i), ARF_RND_NEAR)));
                }
                for (int i = 0; i < g; i++) {
                    double rb = mag_get_d(arb_radref(b + i)) / (1 + bmax),
                           rdb = mag_get_d(arb_radref(db + i)) / (1 + dbmax);
                    worst[axis >= 0] = fmax(worst[axis >= 0], fmax(rb, rdb));
                    TEST_CHECKF(arb_is_finite(b + i) && arb_is_finite(db + i) && fmax(rb, rdb) < (axis < 0 ? 4 : 1),
                                "%s: b_%d over the %s box: entry %d not finite or too wide to mean anything (%.3g)",
                                what, k, axis < 0 ? "whole" : "thin", i, fmax(rb, rdb));
                }
                int ncorner = axis >= 0 ? 2 : n <= 6 ? 1 << n : 16;
                for (int r = 0; r < ncorner + (axis < 0 ? 8 : 2); r++) {
                    unsigned corner = n <= 6 || axis >= 0 ? (unsigned)r : (unsigned)test_rand_int(1 << 30);
                    for (int i = 0; i < n; i++) {
                        int bit = axis >= 0 ? 0 : i % 30;
                        double u = axis >= 0 && i != axis ? 0
                            : r < ncorner                 ? ((corner >> bit) & 1 ? 1.0 : -1.0)
                                                          : test_rand_uniform(-1, 1);
                        set_sum(pt + i, c[i], rad * u);
                    }
                    s.gen(&s, k, bp, pt, 256);
                    s.dgen(&s, k, dbp, pt, w, 256);
                    int in = 1;
                    for (int i = 0; i < g; i++) in = in && arb_contains(b + i, bp + i) && arb_contains(db + i, dbp + i);
                    outside += !in;
                    points++;
                }
            }
    }
    TEST_CHECKF(outside == 0, "%s: the generators over a ball of radius %g miss %d of %d points", what, rad, outside,
                points);
    printf("t-ref-matrix-systems: %-17s generators over boxes of radius %g: %d points, %d outside; widest "
           "radius/(1 + max|value|) %.2g (whole box), %.2g (thin)\n",
           what, rad, points, outside, worst[0], worst[1]);
    free(c);
    _arb_vec_clear(mu, n);
    _arb_vec_clear(w, n);
    _arb_vec_clear(pt, n);
    _arb_vec_clear(b, g);
    _arb_vec_clear(db, g);
    _arb_vec_clear(bp, g);
    _arb_vec_clear(dbp, g);
    slpi_ref_system_clear(&s);
}

/* slpi_ref_mat_mul (four real products from 24 x 24 on) and slpi_ref_mat_mul_approx on
 * rectangular factors, m x k times k x n, against Arb's acb_mat_mul: the balls overlap
 * (the approximate product lies inside the certified one's 2^-100 neighbourhood) */
static void check_mat_mul_shapes(slong m, slong k, slong n)
{
    acb_mat_t A, B, C, D, E;
    acb_mat_init(A, m, k);
    acb_mat_init(B, k, n);
    acb_mat_init(C, m, n);
    acb_mat_init(D, m, n);
    acb_mat_init(E, m, n);
    for (slong i = 0; i < m; i++)
        for (slong j = 0; j < k; j++)
            acb_set_d_d(acb_mat_entry(A, i, j), test_rand_uniform(-1, 1), test_rand_uniform(-1, 1));
    for (slong i = 0; i < k; i++)
        for (slong j = 0; j < n; j++)
            acb_set_d_d(acb_mat_entry(B, i, j), test_rand_uniform(-1, 1), test_rand_uniform(-1, 1));
    slpi_ref_mat_mul(C, A, B, 128);
    acb_mat_mul(D, A, B, 128);
    slpi_ref_mat_mul_approx(E, A, B, 128);
    int bad = 0;
    for (slong i = 0; i < m; i++)
        for (slong j = 0; j < n; j++) {
            acb_ptr e = acb_mat_entry(E, i, j);
            mag_set_ui_2exp_si(arb_radref(acb_realref(e)), 1, -100);
            mag_set_ui_2exp_si(arb_radref(acb_imagref(e)), 1, -100);
            bad += !acb_overlaps(acb_mat_entry(C, i, j), acb_mat_entry(D, i, j)) ||
                !acb_overlaps(e, acb_mat_entry(D, i, j));
        }
    TEST_CHECKF(bad == 0, "ref matrix product %ld x %ld times %ld x %ld: %d entries differ", (long)m, (long)k, (long)k,
                (long)n, bad);
    acb_mat_clear(A);
    acb_mat_clear(B);
    acb_mat_clear(C);
    acb_mat_clear(D);
    acb_mat_clear(E);
}

/* Manakov n = 3 vs rigid body, ISOMP */
static void check_manakov_rigid_body(void)
{
    slpi_problem p;
    slpi_error err;
    double x[3] = { sin(1.1), 0.3, cos(1.1) }, w[3] = { 0.05, -0.03, 0.02 };
    double xm[3] = { -x[2], x[1], -x[0] }, wm[3] = { w[2], w[1], w[0] };
    slpi_ref *a, *b;
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    p.sys.rb.inertia[0] = 3;
    p.sys.rb.inertia[1] = 2;
    p.sys.rb.inertia[2] = 1;
    TEST_CHECK(slpi_ref_create(&a, &p, &err) == SLPI_OK);
    slpi_problem_init(&p, SLPI_SYS_MANAKOV, SLPI_SCHEME_ISOMP);
    p.sys.mk.n = 3;
    TEST_CHECK(slpi_ref_create(&b, &p, &err) == SLPI_OK);
    arb_ptr xa = _arb_vec_init(3), xb = _arb_vec_init(3);
    set_vec(xa, x, 3);
    set_vec(xb, xm, 3);
    TEST_CHECK(slpi_ref_step(a, xa, w, NULL) == SLPI_STEP_CONVERGED);
    TEST_CHECK(slpi_ref_step(b, xb, wm, NULL) == SLPI_STEP_CONVERGED);
    arb_neg(xb, xb);
    arb_neg(xb + 2, xb + 2);
    TEST_CHECK(arb_overlaps(xa, xb + 2) && arb_overlaps(xa + 1, xb + 1) && arb_overlaps(xa + 2, xb));
    _arb_vec_clear(xa, 3);
    _arb_vec_clear(xb, 3);
    slpi_ref_free(a);
    slpi_ref_free(b);
}

/* vortices: tetrahedron equilibrium; model B = model A / (2 sqrt 2) */
static void check_vortex_models(slong prec)
{
    slpi_error err;
    const double r3 = 1 / sqrt(3.0);
    const double tet[12] = { r3, r3, r3, r3, -r3, -r3, -r3, r3, -r3, -r3, -r3, r3 };
    double delta[4] = { 1, 0, 0, 0 };
    slpi_ref_system sa = { 0 }, sb = { 0 };
    slpi_problem pa, pb;
    slpi_problem_init(&pa, SLPI_SYS_POINT_VORTICES, SLPI_SCHEME_ISOMP);
    pb = pa;
    pb.sys.pv.model = SLPI_VORTEX_MODEL_B;
    TEST_CHECK(slpi_ref_system_init(&sa, &pa, NULL, &err) == SLPI_OK);
    TEST_CHECK(slpi_ref_system_init(&sb, &pb, NULL, &err) == SLPI_OK);
    arb_ptr x = _arb_vec_init(12), va = _arb_vec_init(12), vb = _arb_vec_init(12);
    set_vec(x, tet, 12);
    slpi_ref_vf(&sa, va, delta, x, prec);
    slpi_ref_vf(&sb, vb, delta, x, prec);
    for (int i = 0; i < 12; i++)
        TEST_CHECK(arb_contains_zero(va + i) && arb_contains_zero(vb + i) &&
                   mag_cmp_2exp_si(arb_radref(va + i), -100) < 0);
    arb_t s;
    arb_init(s);
    arb_sqrt_ui(s, 8, prec);
    for (long it = 0; it < test_iters(5); it++) {
        for (int i = 0; i < 12; i++) arb_set_d(x + i, test_rand_uniform(-1, 1));
        slpi_ref_vf(&sa, va, delta, x, prec);
        slpi_ref_vf(&sb, vb, delta, x, prec);
        _arb_vec_scalar_mul(vb, vb, 12, s, prec);
        for (int i = 0; i < 12; i++) TEST_CHECK(arb_overlaps(va + i, vb + i));
    }
    arb_clear(s);
    _arb_vec_clear(x, 12);
    _arb_vec_clear(va, 12);
    _arb_vec_clear(vb, 12);
    slpi_ref_system_clear(&sa);
    slpi_ref_system_clear(&sb);
}

int main(void)
{
    test_start("t-ref-matrix-systems", 13);
    check_dexp_wide(1e-3, 1e-3);
    check_dexp_wide(1e-12, 1e-3);
    check_mat_mul_shapes(24, 24, 24);
    check_mat_mul_shapes(26, 30, 25);
    check_mat_mul_shapes(30, 25, 27);
    check_gen_wide(SLPI_SYS_RIGID_BODY, "rigid-body", 1e-3);
    check_gen_wide(SLPI_SYS_HEAVY_TOP, "heavy-top", 1e-3);
    check_gen_wide(SLPI_SYS_MANAKOV, "manakov n=4", 1e-3);
    check_gen_wide(SLPI_SYS_POINT_VORTICES, "A point-vortices", 1e-3);
    check_gen_wide(SLPI_SYS_POINT_VORTICES, "B point-vortices", 1e-3);
    check_gen_wide(SLPI_SYS_EULER_ZEITLIN, "euler-zeitlin N=4", 1e-3);
    check_gen_wide(SLPI_SYS_SINE_EULER, "sine-euler", 1e-3);
    const slong prec = 128;
    slpi_problem p;
    slpi_error err;
    slpi_ref_diag d;
    slpi_ref_diag_init(&d);

    check_manakov_rigid_body();
    check_vortex_models(prec);

    /* sine-Euler canonical IC: C2, C3, H0 */
    arb_ptr xse = _arb_vec_init(9);
    {
        const double w[4] = { 0.3, -0.2, 0.45, -0.1 };
        sine_euler_state(xse, w, 256);
        slpi_ref_system s = { 0 };
        slpi_problem_init(&p, SLPI_SYS_SINE_EULER, SLPI_SCHEME_TMK);
        TEST_CHECK(slpi_ref_system_init(&s, &p, NULL, &err) == SLPI_OK);
        arb_ptr inv = _arb_vec_init(s.n_inv);
        s.invariants(&s, inv, xse, 256);
        double c2 = arf_get_d(arb_midref(inv + 1), ARF_RND_NEAR);
        double c3 = arf_get_d(arb_midref(inv + 2), ARF_RND_NEAR);
        TEST_CHECKF(fabs(c2 + 0.117121) < 1e-6 && fabs(c3 + 0.0151538) < 1e-7, "sine-Euler C2 = %.9g, C3 = %.9g", c2,
                    c3);
        /* H0 = N/(8 eps^2) sum_m |w_m|^2/|m|^2, each real-even w counted for +-m */
        arb_t h, e;
        arb_init(h);
        arb_init(e);
        const int m2[4] = { 1, 2, 1, 2 };
        for (int j = 0; j < 4; j++) {
            arb_set_d(e, w[j]);
            arb_sqr(e, e, 256);
            arb_div_ui(e, e, m2[j], 256);
            arb_add(h, h, e, 256);
        }
        arb_mul_2exp_si(h, h, 1);
        arb_const_pi(e, 256);
        arb_sqr(e, e, 256);
        arb_div(h, h, e, 256);
        arb_mul_ui(h, h, 27, 256);
        arb_div_ui(h, h, 32, 256); /* N/(8 eps^2) = 27 / (32 pi^2) */
        TEST_CHECK(arb_overlaps(h, inv));
        arb_clear(h);
        arb_clear(e);
        _arb_vec_clear(inv, s.n_inv);
        slpi_ref_system_clear(&s);
    }

    /* certified Casimirs on the matrix systems */
    const int systems[] = { SLPI_SYS_MANAKOV, SLPI_SYS_POINT_VORTICES, SLPI_SYS_SINE_EULER };
    const int schemes[] = { SLPI_SCHEME_TMK, SLPI_SCHEME_ISOMP, SLPI_SCHEME_SVI, SLPI_SCHEME_RKMK_HEUN,
                            SLPI_SCHEME_RKMK_LE }; /* LE: claim X4 */
    for (int si = 0; si < 3; si++)
        for (int k = 0; k < 5; k++) {
            slpi_problem_init(&p, systems[si], schemes[k]);
            p.sys.mk.n = 4;
            p.sch.isomp_update = SLPI_ISO_UPDATE_CAY;
            if (systems[si] == SLPI_SYS_SINE_EULER) p.grid.h = 0.05;
            slpi_ref *r;
            TEST_CHECKF(slpi_ref_create(&r, &p, &err) == SLPI_OK, "%s", err.msg);
            int n = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p);
            arb_ptr x = _arb_vec_init(n), x0 = _arb_vec_init(n);
            if (systems[si] == SLPI_SYS_SINE_EULER)
                _arb_vec_set(x0, xse, n);
            else if (systems[si] == SLPI_SYS_POINT_VORTICES)
                for (int i = 0; i < 4; i++) {
                    const double th[4] = { 0.3, 0.45, 0.6, 0.35 }, ph[4] = { 0, 0.6, 1.3, 1.7 };
                    arb_set_d(x0 + 3 * i, sin(th[i] * 3.14159265358979323846) * cos(ph[i] * 3.14159265358979323846));
                    arb_set_d(x0 + 3 * i + 1,
                              sin(th[i] * 3.14159265358979323846) * sin(ph[i] * 3.14159265358979323846));
                    arb_set_d(x0 + 3 * i + 2, cos(th[i] * 3.14159265358979323846));
                }
            else
                for (int i = 0; i < n; i++) arb_set_d(x0 + i, sin(1.0 + 2.1 * i));
            _arb_vec_set(x, x0, n);
            double dW[8];
            int ok = 1;
            for (int step = 0; step < 3 && ok; step++) {
                for (int j = 0; j < M; j++) dW[j] = 0.05 * test_rand_uniform(-1, 1);
                ok = slpi_ref_step(r, x, dW, NULL) == SLPI_STEP_CONVERGED;
            }
            TEST_CHECKF(ok, "%s/%s: %s", slpi_system_name(p.sys.system), slpi_scheme_name(p.sch.scheme),
                        slpi_ref_unable_reason(r));
            slpi_ref_diagnostics(r, x, x0, &d);
            TEST_CHECKF(casimirs_zero(&d), "%s/%s: Casimirs not certified", slpi_system_name(p.sys.system),
                        slpi_scheme_name(p.sch.scheme));
            _arb_vec_clear(x, n);
            _arb_vec_clear(x0, n);
            slpi_ref_free(r);
        }

    _arb_vec_clear(xse, 9);
    slpi_ref_diag_clear(&d);
    flint_cleanup();
    TEST_END();
}
