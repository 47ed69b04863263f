/* t-fast-values.c — fast/ against the numbers and closed forms docs/systems.md, docs/experiments.md give:
 * initial energies and spectra (rigid body 0.705749, SVI E0 0.2818346, heavy top 0.1875,
 * gyroscope 1.373186, Manakov spectrum and its traces tr X^{2k}), the SVI rigid-body state at T = 50, the
 * MC-free weak oracles' one-step rotations (ISOMP 2 atan(s dW/2), SVI 4 atan(s dW/4),
 * TMK exact for H_0 = 0 with SALT noise), the vortex ring rotation rate and the
 * tetrahedron equilibrium, and vortex model (A) at h = model (B) at 2 sqrt2 h. */
#include "fastutil.h"
#include "fast/dense.h"

static void tw_none(slpi_problem *p)
{
    (void)p;
}

static void check_initial_values(void)
{
    double x[64];
    slpi_fast *f = fu_make(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP, tw_none);
    slpi_fast_initial_state(f, x, NULL);
    TEST_CHECKF(fabs(fu_diag(f, x, x, "H0") - 0.705749) < 1e-6, "ISO H0(X0)");
    slpi_fast_free(f);
    f = fu_make(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_SVI, tw_none);
    slpi_fast_initial_state(f, x, NULL);
    TEST_CHECKF(fabs(fu_diag(f, x, x, "H0") - 0.2818346) < 1e-7, "SVI E0 %.8f", fu_diag(f, x, x, "H0"));
    slpi_fast_free(f);
    f = fu_make(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_TMK, tw_none);
    slpi_fast_initial_state(f, x, NULL);
    TEST_CHECKF(fabs(fu_diag(f, x, x, "H0") - 0.1875) < 1e-15 && fabs(fu_diag(f, x, x, "C1") - 1) < 1e-15,
                "heavy top h(0), C1(0)");
    slpi_fast_free(f);
    f = fu_make(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_SVI, tw_none);
    slpi_fast_initial_state(f, x, NULL);
    TEST_CHECKF(fabs(fu_diag(f, x, x, "H0") - 1.373186) < 1e-6, "gyroscope E0 %.7f", fu_diag(f, x, x, "H0"));
    TEST_CHECKF(fabs(fu_diag(f, x, x, "p_phi") - 0.891007) < 1e-6, "gyroscope p_phi");
    slpi_fast_free(f);
    f = fu_make(SLPI_SYS_MANAKOV, SLPI_SCHEME_ISOMP, tw_none);
    slpi_fast_initial_state(f, x, NULL);
    double complex Z[100];
    double w[10];
    const double spec[5] = { 0.74778, 0.55109, 0.35565, 0.09862, 0.03033 };
    for (int i = 0, k = 0; i < 10; i++) {
        Z[i * 10 + i] = 0;
        for (int j = i + 1; j < 10; j++, k++) {
            Z[j * 10 + i] = x[k];
            Z[i * 10 + j] = -x[k];
        }
    }
    TEST_CHECK(slpi_fast_eig_skewh(10, Z, w) == 0);
    double e = 0;
    for (int k = 0; k < 5; k++) e = fmax(e, fmax(fabs(w[9 - k] - spec[k]), fabs(w[k] + spec[k])));
    TEST_CHECKF(e < 1e-5, "Manakov initial spectrum off by %g", e);
    /* its diagnostics tr X^{2k} (repeated squaring) from the spectrum i w_j: sum (-w_j^2)^k */
    slpi_diag d = { 0 };
    slpi_fast_diagnostics(f, x, NULL, &d);
    for (int k = 1; k <= 5; k++) {
        char name[8];
        double t = 0, got = NAN;
        for (int j = 0; j < 10; j++) t += pow(-w[j] * w[j], k);
        snprintf(name, sizeof name, "trX%d", 2 * k);
        for (int i = 0; i < d.n; i++)
            if (!strcmp(d.name[i], name)) got = d.value[i];
        TEST_CHECKF(fabs(got - t) <= 1e-13 * fabs(t), "Manakov %s = %.17g, from the spectrum %.17g", name, got, t);
    }
    slpi_fast_free(f);
}

static void tw_svi_det(slpi_problem *p)
{
    p->sys.rb.noise = SLPI_RB_NOISE_NONE;
}
static double g_c;
static void tw_svi_c(slpi_problem *p)
{
    p->sys.rb.noise = SLPI_RB_NOISE_NONE;
    p->sch.svi_c = g_c;
}

static void check_svi_t50(void)
{
    const double ex[3] = { -0.441197, -0.776799, 0.449353 };
    for (int s = 0; s < 2; s++) {
        g_c = s ? -0.25 : 0.25;
        slpi_fast *f = fu_make(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_SVI, tw_svi_c);
        double x[3];
        slpi_fast_initial_state(f, x, NULL);
        fu_run(f, x, 5000, NULL);
        TEST_CHECKF(fu_maxdiff(x, ex, 3) < 1e-3, "SVI c=%g Pi(50) off by %g", g_c, fu_maxdiff(x, ex, 3));
        slpi_fast_free(f);
    }
    (void)tw_svi_det;
}

/* H_0 = 0, one constant generator amp e3, x0 = e1: one step rotates about e3. */
static slpi_rb_form g_form;
static void tw_weak(slpi_problem *p)
{
    p->sys.rb.form = g_form;
    p->sys.rb.noise = SLPI_RB_NOISE_CONST_E3;
    p->sys.rb.amp = 1;
    p->sys.rb.h0_scale = 0;
    p->grid.h = 1.0 / 8;
}

static void check_weak_oracles(void)
{
    static const slpi_scheme_id ks[] = { SLPI_SCHEME_ISOMP, SLPI_SCHEME_SVI, SLPI_SCHEME_TMK };
    for (int j = 0; j < 3; j++) {
        g_form = ks[j] == SLPI_SCHEME_SVI ? SLPI_RB_FORM_SVI : SLPI_RB_FORM_ISO;
        slpi_fast *f = fu_make(SLPI_SYS_RIGID_BODY, ks[j], tw_weak);
        for (int t = 0; t < test_iters(20); t++) {
            double x[3] = { 1, 0, 0 }, dw = 0.5 * fu_normal(), phi;
            fu_run(f, x, 1, &dw);
            phi = j == 0 ? 2 * atan(dw / 2) : j == 1 ? 4 * atan(dw / 4) : dw;
            double e[3] = { cos(phi), -sin(phi), 0 };
            double e2[3] = { cos(phi), sin(phi), 0 };
            double d = fmin(fu_maxdiff(x, e, 3), fu_maxdiff(x, e2, 3));
            TEST_CHECKF(d < 1e-15, "%s weak oracle rotation: %g", slpi_scheme_name(ks[j]), d);
        }
        slpi_fast_free(f);
    }
}

/* Vortices: a 4-ring at height z rotates at -sqrt2 Omega (A), Omega = 3 z/(4 pi (1 - z^2)). */
static void tw_pv_det(slpi_problem *p)
{
    p->sys.pv.noise = 0;
    p->grid.h = 1.0 / 256;
}
static void tw_pv_ring(slpi_problem *p)
{
    double z = 0.5, r = sqrt(1 - z * z);
    p->sys.pv.noise = 0;
    p->grid.h = 1.0 / 256;
    p->sys.n_x0 = 12;
    for (int i = 0; i < 4; i++) {
        p->sys.x0[3 * i] = r * cos(i * SLPI_FAST_PI / 2);
        p->sys.x0[3 * i + 1] = r * sin(i * SLPI_FAST_PI / 2);
        p->sys.x0[3 * i + 2] = z;
    }
}
static void tw_pv_tet(slpi_problem *p)
{
    static const double t[12] = { 1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, 1 };
    p->sys.pv.noise = 0;
    p->sys.n_x0 = 12;
    for (int i = 0; i < 12; i++) p->sys.x0[i] = t[i] / sqrt(3.0);
}

static void check_vortices(void)
{
    /* every vortex of the ring, through the matrix path (ISOMP) and the coordinate
     * vector field (TMK, IM-direct: each vortex's ad* on its own) */
    static const slpi_scheme_id kr[] = { SLPI_SCHEME_ISOMP, SLPI_SCHEME_TMK, SLPI_SCHEME_IM_DIRECT };
    double x[12], x0[12], z = 0.5, Om = 3 * z / (4 * SLPI_FAST_PI * (1 - z * z));
    for (int j = 0; j < 3; j++) {
        slpi_fast *f = fu_make(SLPI_SYS_POINT_VORTICES, kr[j], tw_pv_ring);
        slpi_fast_initial_state(f, x0, NULL);
        memcpy(x, x0, sizeof x);
        fu_run(f, x, 256, NULL);
        double worst = 0;
        for (int i = 0; i < 4; i++) {
            double ang = remainder(atan2(x[3 * i + 1], x[3 * i]) - i * SLPI_FAST_PI / 2, 2 * SLPI_FAST_PI);
            worst = fmax(worst, fabs(ang - (-SLPI_FAST_SQRT2 * Om)));
        }
        printf("  ring rotation (%s): worst vortex off by %.2e rad\n", slpi_scheme_name(kr[j]), worst);
        TEST_CHECKF(worst < 1e-5, "ring rotation (%s): a vortex off by %g", slpi_scheme_name(kr[j]), worst);
        slpi_fast_free(f);
    }
    slpi_fast *f = fu_make(SLPI_SYS_POINT_VORTICES, SLPI_SCHEME_TMK, tw_pv_tet);
    slpi_fast_initial_state(f, x0, NULL);
    memcpy(x, x0, sizeof x);
    fu_run(f, x, 100, NULL);
    TEST_CHECKF(fu_maxdiff(x, x0, 12) < 1e-14, "tetrahedron moved by %g", fu_maxdiff(x, x0, 12));
    slpi_fast_free(f);
    /* model (A) at h equals model (B) at 2 sqrt2 h for the coordinate schemes */
    static const slpi_scheme_id ks[] = { SLPI_SCHEME_TMK, SLPI_SCHEME_RKMK_HEUN, SLPI_SCHEME_IM_DIRECT };
    for (int j = 0; j < 3; j++) {
        slpi_fast *a = fu_make(SLPI_SYS_POINT_VORTICES, ks[j], tw_pv_det);
        slpi_fast *b = fu_make(SLPI_SYS_POINT_VORTICES, ks[j], tw_pv_det);
        b->h = a->h * 2 * SLPI_FAST_SQRT2;
        double xa[12], xb[12];
        slpi_fast_initial_state(a, xa, NULL);
        memcpy(xb, xa, sizeof xb);
        slpi_fast_free(b);
        slpi_problem pb = *a->p;
        pb.sys.pv.model = SLPI_VORTEX_MODEL_B;
        pb.grid.h = a->h * 2 * SLPI_FAST_SQRT2;
        slpi_error err = { 0 };
        TEST_CHECK(slpi_fast_create(&b, &pb, &err) == 0);
        fu_run(a, xa, 200, NULL);
        fu_run(b, xb, 200, NULL);
        TEST_CHECKF(fu_maxdiff(xa, xb, 12) < 1e-12, "vortex A vs B (%s): %g", slpi_scheme_name(ks[j]),
                    fu_maxdiff(xa, xb, 12));
        slpi_fast_free(a);
        slpi_fast_free(b);
    }
}

int main(void)
{
    test_start("t-fast-values", 5);
    check_initial_values();
    check_svi_t50();
    check_weak_oracles();
    check_vortices();
    TEST_END();
}
