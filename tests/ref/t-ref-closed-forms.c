/* t-ref-closed-forms — the rigid body's closed-form coordinate level (ref/rigid-body.c,
 * ref/algebra-so3.c: hat identities) against the matrix level it replaces, and ISOMP in
 * coordinates against ISOMP on matrices (ref/isomp.c), two ways:
 *  - gen, dgen, coad, sandwich vs pack(B_k), pack(DB_k[W]), pack([B, X]) and
 *    pack(A Y C + C Y A) formed with acb matrices, for every noise model and form,
 *    on exact and on ball (radius 1e-20) inputs;
 *  - one ISOMP step from the same ball state with the closed forms and with the
 *    generic matrix attach (sandwich = NULL): the enclosures overlap, and the
 *    closed-form enclosure is no wider than 2x the matrix one, at small
 *    steps (Jacobian-free test), large steps (dense Krawczyk fallback), for both
 *    updates and in fixed-iteration mode. */
#include "core/problem-struct.h"
#include "testutil.h"
#include "ref/matrix.h"
#include "ref/scheme.h"

static void rand_vec(arb_ptr v, int n, double a, double rad)
{
    for (int i = 0; i < n; i++) {
        arb_set_d(v + i, test_rand_uniform(-a, a));
        mag_set_d(arb_radref(v + i), rad);
    }
}

/* the closed-form enclosure a overlaps the matrix one b and is no wider than 2x it
 * (+ 2^-100); it may be tighter (no dependency through matrix products) */
static int agree(arb_srcptr a, arb_srcptr b, int n)
{
    for (int i = 0; i < n; i++) {
        double ra = mag_get_d(arb_radref(a + i)), rb = mag_get_d(arb_radref(b + i));
        if (!arb_overlaps(a + i, b + i) || ra > 2 * rb + 0x1p-100) return 0;
    }
    return 1;
}

/* out = pack(A Y C + C Y A) with matrices */
static void sandwich_matrix(const slpi_ref_system *s, arb_ptr out, arb_srcptr a, arb_srcptr y, arb_srcptr c, slong prec)
{
    acb_mat_t A, Y, C, T, U, V;
    acb_mat_init(A, 3, 3);
    acb_mat_init(Y, 3, 3);
    acb_mat_init(C, 3, 3);
    acb_mat_init(T, 3, 3);
    acb_mat_init(U, 3, 3);
    acb_mat_init(V, 3, 3);
    s->m_unpack(s, A, a, prec);
    s->m_unpack(s, Y, y, prec);
    s->m_unpack(s, C, c, prec);
    acb_mat_mul(T, A, Y, prec);
    acb_mat_mul(U, T, C, prec);
    acb_mat_mul(T, C, Y, prec);
    acb_mat_mul(V, T, A, prec);
    acb_mat_add(U, U, V, prec);
    s->m_pack(s, out, U, prec);
    acb_mat_clear(A);
    acb_mat_clear(Y);
    acb_mat_clear(C);
    acb_mat_clear(T);
    acb_mat_clear(U);
    acb_mat_clear(V);
}

static void check_coordinates(const slpi_ref_system *s, const slpi_ref_system *m, slong prec)
{
    arb_ptr x = _arb_vec_init(3), w = _arb_vec_init(3), c = _arb_vec_init(3);
    arb_ptr u = _arb_vec_init(3), v = _arb_vec_init(3);
    for (long it = 0; it < test_iters(20); it++) {
        rand_vec(x, 3, 2, it % 2 ? 1e-20 : 0);
        rand_vec(w, 3, 2, it % 2 ? 1e-20 : 0);
        rand_vec(c, 3, 2, 0);
        for (int k = 0; k <= s->M; k++) {
            s->gen(s, k, u, x, prec);
            m->gen(m, k, v, x, prec);
            TEST_CHECKF(agree(u, v, 3), "gen k=%d", k);
            s->dgen(s, k, u, x, w, prec);
            m->dgen(m, k, v, x, w, prec);
            TEST_CHECKF(agree(u, v, 3), "dgen k=%d", k);
        }
        s->coad(s, u, w, x, prec);
        m->coad(m, v, w, x, prec);
        TEST_CHECK(agree(u, v, 3));
        s->m_sandwich(s, u, w, x, c, prec);
        sandwich_matrix(s, v, w, x, c, prec);
        TEST_CHECK(agree(u, v, 3));
        s->m_sandwich(s, u, c, x, c, prec);
        sandwich_matrix(s, v, c, x, c, prec);
        TEST_CHECK(agree(u, v, 3));
    }
    _arb_vec_clear(x, 3);
    _arb_vec_clear(w, 3);
    _arb_vec_clear(c, 3);
    _arb_vec_clear(u, 3);
    _arb_vec_clear(v, 3);
}

/* one ISOMP step both ways from random states; h and dW scaled by `scale` */
static void check_steps(const slpi_ref_system *s, const slpi_ref_system *m, double scale, slong prec)
{
    arb_ptr xs = _arb_vec_init(3), xm = _arb_vec_init(3);
    double delta[4];
    char why[200];
    for (long it = 0; it < test_iters(10); it++) {
        rand_vec(xs, 3, 1, it % 2 ? 1e-30 : 0);
        _arb_vec_set(xm, xs, 3);
        delta[0] = scale * test_rand_uniform(0.001, 0.01);
        for (int k = 1; k <= s->M; k++) delta[k] = scale * test_rand_uniform(-0.1, 0.1);
        slpi_step_status a = slpi_ref_scheme_isomp.step(s, xs, delta, prec, why, sizeof why);
        slpi_step_status b = slpi_ref_scheme_isomp.step(m, xm, delta, prec, why, sizeof why);
        TEST_CHECKF(a == SLPI_STEP_CONVERGED && b == SLPI_STEP_CONVERGED, "scale %g: statuses %d %d (%s)", scale,
                    (int)a, (int)b, why);
        if (a == SLPI_STEP_CONVERGED && b == SLPI_STEP_CONVERGED)
            TEST_CHECKF(agree(xs, xm, 3), "scale %g, update %d, fixed %d: radii %g %g", scale,
                        (int)s->p->sch.isomp_update, s->p->sol.fixed_iters, slpi_ref_vec_radius(xs, 3),
                        slpi_ref_vec_radius(xm, 3));
    }
    _arb_vec_clear(xs, 3);
    _arb_vec_clear(xm, 3);
}

int main(void)
{
    test_start("t-ref-closed-forms", 29);
    const slong prec = 128;
    const int noises[] = { SLPI_RB_NOISE_NONE,    SLPI_RB_NOISE_ISO_QUAD, SLPI_RB_NOISE_ISO_QUAD1,
                           SLPI_RB_NOISE_SVI_LIN, SLPI_RB_NOISE_SVI_LIN1, SLPI_RB_NOISE_CONST_E3 };
    for (int form = 0; form < 2; form++)
        for (int j = 0; j < 6; j++)
            for (int upd = 0; upd < 2; upd++)
                for (int fixed = 0; fixed < 2; fixed++) {
                    slpi_problem p;
                    slpi_error err;
                    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
                    p.sys.rb.form = form ? SLPI_RB_FORM_SVI : SLPI_RB_FORM_ISO;
                    p.sys.rb.noise = noises[j];
                    p.sys.rb.inertia[0] = 1.5;
                    p.sys.rb.inertia[1] = 2.5;
                    p.sys.rb.inertia[2] = 0.75;
                    p.sch.isomp_update = upd ? SLPI_ISO_UPDATE_CAY : SLPI_ISO_UPDATE_COMM;
                    p.sol.fixed_iters = fixed ? 3 : 0;
                    slpi_ref_system s = { 0 };
                    TEST_CHECK(slpi_ref_system_init(&s, &p, NULL, &err) == SLPI_OK);
                    TEST_CHECK(s.m_sandwich != NULL);
                    slpi_ref_system m = s; /* the generic matrix level */
                    slpi_ref_matrix_attach(&m);
                    m.m_sandwich = NULL;
                    if (upd == 0 && fixed == 0) check_coordinates(&s, &m, prec);
                    check_steps(&s, &m, 1, prec);
                    if (fixed == 0) check_steps(&s, &m, 30, prec); /* the dense fallback */
                    slpi_ref_system_clear(&s);
                }
    TEST_END();
}
