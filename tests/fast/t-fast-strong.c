/* t-fast-strong.c — strong convergence on coupled Brownian paths (docs/noise.md#coupling, docs/noise.md#estimators): for
 * one noise (commuting case) the strong order is 1 (docs/schemes.md#tmk Remark 4.2, docs/schemes.md#rkmk, docs/schemes.md#isomp
 * [derived]): TMK and RKMK-HEUN on the heavy top with SALT alpha = (0.3, 0.6, 0.9), and
 * ISOMP on the rigid body with iso-quad1. Errors at T = 1 against the same scheme at
 * h = 2^-12 on the same path (fine increments summed pairwise); slope by least squares
 * over h = 2^-4..2^-7. */
#include "fastutil.h"

enum { LMAX = 12, L0 = 4, L1 = 7, NL = L1 - L0 + 1 };

static void tw_ht(slpi_problem *p)
{
    p->sys.ht.alpha[0] = 0.3;
    p->sys.ht.alpha[1] = 0.6;
    p->sys.ht.alpha[2] = 0.9;
}
static void tw_rb(slpi_problem *p)
{
    p->sys.rb.noise = SLPI_RB_NOISE_ISO_QUAD1;
    p->sys.rb.amp = 0.5;
}

static double strong_slope(slpi_system_id s, slpi_scheme_id k, fu_tweak tw, int R)
{
    static double fine[1 << LMAX], lev[1 << LMAX];
    slpi_fast *f = fu_make(s, k, tw);
    if (!f) return NAN;
    double err2[NL] = { 0 }, x0[64], xr[64], x[64];
    slpi_fast_initial_state(f, x0, NULL);
    int d = f->sys.state_dim;
    for (int r = 0; r < R; r++) {
        for (int j = 0; j < (1 << LMAX); j++) fine[j] = sqrt(1.0 / (1 << LMAX)) * fu_normal();
        f->h = 1.0 / (1 << LMAX);
        memcpy(xr, x0, sizeof xr);
        fu_run(f, xr, 1 << LMAX, fine);
        memcpy(lev, fine, sizeof lev);
        for (int L = LMAX - 1; L >= L0; L--) {
            for (int j = 0; j < (1 << L); j++) lev[j] = lev[2 * j] + lev[2 * j + 1];
            if (L > L1) continue;
            f->h = 1.0 / (1 << L);
            memcpy(x, x0, sizeof x);
            TEST_CHECK(fu_run(f, x, 1 << L, lev) == 0);
            double e = fu_maxdiff(x, xr, d);
            err2[L - L0] += e * e / R;
        }
    }
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < NL; i++) {
        double lx = -(L0 + i) * log(2.0), ly = 0.5 * log(err2[i]);
        sx += lx;
        sy += ly;
        sxx += lx * lx;
        sxy += lx * ly;
    }
    double slope = (NL * sxy - sx * sy) / (NL * sxx - sx * sx);
    printf("  %s/%s: e_s %.3g .. %.3g, slope %.3f (R = %d)\n", slpi_system_name(s), slpi_scheme_name(k), sqrt(err2[0]),
           sqrt(err2[NL - 1]), slope, R);
    slpi_fast_free(f);
    return slope;
}

int main(void)
{
    test_start("t-fast-strong", 2024);
    int R = (int)test_iters(40);
    double s1 = strong_slope(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_TMK, tw_ht, R);
    double s2 = strong_slope(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_RKMK_HEUN, tw_ht, R);
    double s3 = strong_slope(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP, tw_rb, R);
    TEST_CHECKF(s1 > 0.8 && s1 < 1.3, "TMK strong slope %g", s1);
    TEST_CHECKF(s2 > 0.8 && s2 < 1.3, "HEUN strong slope %g", s2);
    TEST_CHECKF(s3 > 0.8 && s3 < 1.3, "ISOMP (one noise) strong slope %g", s3);
    TEST_END();
}
