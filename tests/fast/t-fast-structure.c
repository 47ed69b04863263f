/* t-fast-structure.c — structure preservation of fast/ over long runs (docs/schemes.md#summary, docs/claims.md):
 * Casimirs to rounding for the orbit-map schemes (TMK, RKMK, ISOMP-CAY, SVI) as the
 * scale-free ratio |dC| / (u |C| sqrt(steps)); ISOMP-COMM and IM to solver accuracy;
 * TRAP visibly drifting (negative control, claim R3); TMK deterministic energy and its
 * loss with 1 fixed iteration (R4); SVI energy exact for c = -1/4 and O(dt^2) for +1/4
 * (§3.5 f); SVI-SD Casimirs, Noether p_phi, p_psi and Gamma = R^T e3 (§4.2.2);
 * eigenvalue departure of Manakov and vortices under ISOMP. */
#include "fastutil.h"

#define U 0x1p-53

static slpi_scheme_id g_k;
static int g_cay, g_fixed, g_noise;
static double g_c;

static void tw_rb(slpi_problem *p)
{
    p->sch.isomp_update = g_cay ? SLPI_ISO_UPDATE_CAY : SLPI_ISO_UPDATE_COMM;
    p->sch.svi_c = g_c;
    if (g_k == SLPI_SCHEME_RKMK_LE) {
        p->sys.rb.noise = SLPI_RB_NOISE_SVI_LIN;
        p->sys.rb.amp = 0.1;
    }
}

/* Rigid body (paper parameters of the scheme's family), 10^4 noisy steps. */
static void rb_casimir(slpi_scheme_id k, int cay, double c, double bound, int drift, const char *what)
{
    g_k = k;
    g_cay = cay;
    g_c = c;
    slpi_fast *f = fu_make(SLPI_SYS_RIGID_BODY, k, tw_rb);
    if (!f) return;
    long n = test_iters(10000);
    double x[3], x0[3];
    slpi_fast_initial_state(f, x0, NULL);
    memcpy(x, x0, sizeof x);
    TEST_CHECKF(fu_run(f, x, n, NULL) == 0, "%s: failed steps", what);
    double C0 = slpi_fast_dot3(x0, x0), dC = fabs(slpi_fast_dot3(x, x) - C0);
    double ratio = dC / (U * C0 * sqrt((double)n));
    printf("  rigid body %-12s |dC| = %.3g  ratio %.3g\n", what, dC, ratio);
    if (drift)
        TEST_CHECKF(dC > bound, "%s must drift: |dC| = %g", what, dC);
    else
        TEST_CHECKF(ratio < bound, "%s: Casimir ratio %g >= %g", what, ratio, bound);
    slpi_fast_free(f);
}

static void tw_ht(slpi_problem *p)
{
    p->sol.fixed_iters = g_fixed;
    if (!g_noise) p->sys.ht.noise = SLPI_HT_NOISE_NONE;
}

/* Heavy top RKMK form, alpha = (0.01, 0.02, 0.03), h = 0.01, 10^4 steps. */
static void ht_run(slpi_scheme_id k, int noise, int fixed, double *dC1, double *dC2, double *dH)
{
    g_fixed = fixed;
    g_noise = noise;
    slpi_fast *f = fu_make(SLPI_SYS_HEAVY_TOP, k, tw_ht);
    if (!f) return;
    double x[6], x0[6];
    slpi_fast_initial_state(f, x0, NULL);
    memcpy(x, x0, sizeof x);
    TEST_CHECKF(fu_run(f, x, test_iters(10000), NULL) == 0, "heavy top %s: failed steps", slpi_scheme_name(k));
    *dC1 = fabs(fu_diag(f, x, x0, "C1_dev"));
    *dC2 = fabs(fu_diag(f, x, x0, "C2_dev"));
    *dH = fabs(fu_diag(f, x, x0, "H0_dev"));
    printf("  heavy top %-11s noise %d fixed %d: |dC1| %.3g |dC2| %.3g |dH| %.3g\n", slpi_scheme_name(k), noise, fixed,
           *dC1, *dC2, *dH);
    slpi_fast_free(f);
}

static void check_heavy_top(void)
{
    double c1, c2, h;
    ht_run(SLPI_SCHEME_TMK, 1, 0, &c1, &c2, &h);
    TEST_CHECKF(c1 < 1e-12 && c2 < 1e-12, "TMK Casimirs (R1): %g %g", c1, c2);
    ht_run(SLPI_SCHEME_RKMK_HEUN, 1, 0, &c1, &c2, &h);
    TEST_CHECKF(c1 < 1e-12 && c2 < 1e-12, "HEUN Casimirs: %g %g", c1, c2);
    ht_run(SLPI_SCHEME_IM_DIRECT, 1, 0, &c1, &c2, &h);
    TEST_CHECKF(c1 < 1e-11 && c2 < 1e-11, "IM quadratic Casimirs (R3): %g %g", c1, c2);
    ht_run(SLPI_SCHEME_TRAP_DIRECT, 1, 0, &c1, &c2, &h);
    TEST_CHECKF(c1 > 1e-7 && c2 > 1e-7, "TRAP must drift (R3): %g %g", c1, c2);
    ht_run(SLPI_SCHEME_TMK, 0, 0, &c1, &c2, &h);
    TEST_CHECKF(h < 1e-12, "TMK deterministic energy (R4): %g", h);
    ht_run(SLPI_SCHEME_TMK, 0, 1, &c1, &c2, &h);
    TEST_CHECKF(h > 1e-7 && c1 < 1e-12, "TMK 1 fixed iteration: energy %g (must drift), C1 %g", h, c1);
}

static void tw_svi_det(slpi_problem *p)
{
    p->sys.rb.noise = SLPI_RB_NOISE_NONE;
    p->sch.svi_c = g_c;
}

/* SVI rigid body, no noise, dt = 0.01, T = 50 (docs/schemes.md#svi-sign). */
static void check_svi_energy(void)
{
    for (int s = 0; s < 2; s++) {
        g_c = s ? -0.25 : 0.25;
        slpi_fast *f = fu_make(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_SVI, tw_svi_det);
        if (!f) return;
        double x[3], x0[3], dE = 0;
        slpi_fast_initial_state(f, x0, NULL);
        memcpy(x, x0, sizeof x);
        for (int i = 0; i < 50; i++) {
            fu_run(f, x, 100, NULL);
            dE = fmax(dE, fabs(fu_diag(f, x, x0, "H0_rel_dev")));
        }
        printf("  svi c=%+.2f deterministic max |dE/E| = %.3g\n", g_c, dE);
        if (s)
            TEST_CHECKF(dE < 1e-13, "SVI c=-1/4 energy must be exact: %g", dE);
        else
            TEST_CHECKF(dE > 1e-9 && dE < 1e-5, "SVI c=+1/4 energy O(dt^2): %g", dE);
        slpi_fast_free(f);
    }
}

static void tw_sd(slpi_problem *p)
{
    p->sys.ht.noise = g_noise ? SLPI_HT_NOISE_CASE3 : SLPI_HT_NOISE_NONE;
    p->sch.svi_c = g_c;
}

/* SVI-SD gyroscope, T = 20 (deterministic and case 3). */
static void check_svi_sd(void)
{
    for (int s = 0; s < 4; s++) {
        g_noise = s & 1;
        g_c = s & 2 ? -0.25 : 0.25;
        slpi_fast *f = fu_make(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_SVI, tw_sd);
        if (!f) return;
        double x[15], x0[15];
        slpi_fast_initial_state(f, x0, NULL);
        memcpy(x, x0, sizeof x);
        TEST_CHECKF(fu_run(f, x, test_iters(2000), NULL) == 0, "svi-sd: failed steps");
        double c1 = fabs(fu_diag(f, x, x0, "C1_dev")), c2 = fabs(fu_diag(f, x, x0, "C2_dev"));
        double pphi = fabs(fu_diag(f, x, x0, "p_phi_dev")), g = fu_diag(f, x, x0, "gamma_RTe3_err");
        double ppsi = fabs(fu_diag(f, x, x0, "pi3_dev")), dH = fabs(fu_diag(f, x, x0, "H0_dev"));
        printf("  svi-sd c=%+.2f noise %d: C1 %.2g C2 %.2g p_phi %.2g p_psi %.2g Gamma %.2g dE %.2g\n", g_c, g_noise,
               c1, c2, pphi, ppsi, g, dH);
        TEST_CHECKF(c1 < 1e-13 && c2 < 1e-13 && pphi < 1e-13 && g < 1e-13, "svi-sd invariants: %g %g %g %g", c1, c2,
                    pphi, g);
        if (!g_noise)
            TEST_CHECKF(ppsi < 1e-13 && dH < 1e-4, "svi-sd p_psi %g, energy %g", ppsi, dH);
        else
            TEST_CHECKF(ppsi > 1e-6, "svi-sd case 3 must move p_psi: %g", ppsi);
        slpi_fast_free(f);
    }
}

static void tw_iso(slpi_problem *p)
{
    p->sch.isomp_update = g_cay ? SLPI_ISO_UPDATE_CAY : SLPI_ISO_UPDATE_COMM;
}

static void check_eigs(slpi_system_id s, slpi_scheme_id k, int cay, long n, double bound)
{
    g_cay = cay;
    slpi_fast *f = fu_make(s, k, tw_iso);
    if (!f) return;
    double x[64], x0[64];
    slpi_fast_initial_state(f, x0, NULL);
    memcpy(x, x0, sizeof x);
    TEST_CHECKF(fu_run(f, x, n, NULL) == 0, "%s %s: failed steps", slpi_system_name(s), slpi_scheme_name(k));
    double e = fu_diag(f, x, x0, "eig_dev"), h = fu_diag(f, x, x0, "H0_rel_dev");
    printf("  %s %s%s %ld steps: eig_dev %.3g, H0 rel dev %.3g, mean iters %.1f\n", slpi_system_name(s),
           slpi_scheme_name(k),
           k != SLPI_SCHEME_ISOMP ? ""
               : cay              ? "-cay"
                                  : "-comm",
           n, e, h, fu_diag(f, x, x0, "mean_iters"));
    TEST_CHECKF(e < bound, "%s eigenvalue departure %g", slpi_system_name(s), e);
    TEST_CHECKF(fabs(h) > 1e-9, "%s energy must move under noise: %g", slpi_system_name(s), h);
    slpi_fast_free(f);
}

int main(void)
{
    test_start("t-fast-structure", 777);
    rb_casimir(SLPI_SCHEME_TMK, 0, 0.25, 30, 0, "tmk");
    rb_casimir(SLPI_SCHEME_RKMK_HEUN, 0, 0.25, 30, 0, "rkmk-heun");
    rb_casimir(SLPI_SCHEME_RKMK_LE, 0, 0.25, 30, 0, "rkmk-le");
    rb_casimir(SLPI_SCHEME_ISOMP, 1, 0.25, 30, 0, "isomp-cay");
    rb_casimir(SLPI_SCHEME_ISOMP, 0, 0.25, 300, 0, "isomp-comm");
    rb_casimir(SLPI_SCHEME_SVI, 0, 0.25, 30, 0, "svi+");
    rb_casimir(SLPI_SCHEME_SVI, 0, -0.25, 30, 0, "svi-");
    rb_casimir(SLPI_SCHEME_IM_DIRECT, 0, 0.25, 300, 0, "im");
    rb_casimir(SLPI_SCHEME_TRAP_DIRECT, 0, 0.25, 1e-10, 1, "trap");
    check_heavy_top();
    check_svi_energy();
    check_svi_sd();
    check_eigs(SLPI_SYS_MANAKOV, SLPI_SCHEME_ISOMP, 1, test_iters(1000), 1e-13);
    check_eigs(SLPI_SYS_MANAKOV, SLPI_SCHEME_ISOMP, 0, test_iters(1000), 1e-12);
    check_eigs(SLPI_SYS_MANAKOV, SLPI_SCHEME_SVI, 0, test_iters(500), 1e-13);
    check_eigs(SLPI_SYS_MANAKOV, SLPI_SCHEME_TMK, 0, test_iters(300), 1e-13);
    check_eigs(SLPI_SYS_POINT_VORTICES, SLPI_SCHEME_ISOMP, 0, test_iters(4000), 1e-13);
    check_eigs(SLPI_SYS_POINT_VORTICES, SLPI_SCHEME_ISOMP, 1, test_iters(4000), 1e-13);
    check_eigs(SLPI_SYS_POINT_VORTICES, SLPI_SCHEME_SVI, 0, test_iters(4000), 1e-13);
    check_eigs(SLPI_SYS_POINT_VORTICES, SLPI_SCHEME_TMK, 0, test_iters(2000), 1e-13);
    TEST_END();
}
