/* t-ref-accurate.c — the accurate step (ref/accurate.h; docs/power.md#accurate-reference),
 * against the certified step it skips the enclosure tests of: for every implicit scheme
 * of the ref path (and the variants that change its solve: fixed_iters, the CAY update,
 * the SVI forms and outputs; two explicit RKMK steps, which have no solve), on the rigid body, the heavy top, Manakov, point vortices,
 * sine-Euler and Euler–Zeitlin su(8), su(16) and su(32) on Arb's products (the accurate
 * step's products from su(16) on by error-free slicing, ref/mrmat-sliced.c), one step from the
 * preset's x0 moved by a random relative 1e-3 (a state off the preset's symmetric start),
 * with the problem's canonical increments, both ways at the problem's precision. Each
 * coordinate of the accurate midpoint must lie within the certified ball widened by the
 * accurate radius, and that radius must be at most SLPI_STAT_REF_FRACTION of the unit
 * u s at binary64 (s the state's largest coordinate): the bound under which verify's
 * statistics take the accurate step. Printed: the largest midpoint difference and the
 * accurate radius, in that unit. Seeds printed; SLPI_TEST_SEED replays. */
#include "core/problem-struct.h"
#include "oracleutil.h"
#include "ref/accurate.h"
#include "slpi/tools.h"

static const char *const cases[] = {
    "preset=iso/rigid-body/trajectories scheme=tmk",
    "preset=iso/rigid-body/trajectories scheme=tmk fixed_iters=2",
    "preset=iso/rigid-body/trajectories scheme=im-direct",
    "preset=iso/rigid-body/trajectories scheme=trap-direct",
    "preset=iso/rigid-body/trajectories scheme=isomp",
    "preset=iso/rigid-body/trajectories scheme=isomp update=cay",
    "preset=iso/rigid-body/trajectories scheme=isomp fixed_iters=2",
    "preset=svi/rigid-body/paths svi_form=so3",
    "preset=svi/rigid-body/paths svi_form=so3 svi_output=node",
    "preset=svi/rigid-body/paths svi_form=lp",
    "preset=svi/heavy-top/case3 k=0.3,0.7",
    "preset=rkmk/heavy-top/casimirs-421 scheme=tmk",
    "preset=rkmk/heavy-top/casimirs-421 scheme=im-direct",
    "preset=rkmk/heavy-top/casimirs-421 scheme=rkmk-heun",
    "preset=iso/rigid-body/trajectories scheme=rkmk-le noise=svi-lin",
    "preset=iso/manakov/long n=4 scheme=isomp",
    "preset=iso/manakov/long n=4 scheme=svi",
    "preset=iso/vortices/trajectories scheme=isomp update=cay",
    "preset=rkmk/sine-euler/casimirs-tmk N=3 scheme=tmk",
    "preset=iso/zeitlin/strong N=8 ic_lmax=7 matmul=arb",
    "preset=iso/zeitlin/strong N=16 matmul=arb",
    "preset=iso/zeitlin/strong N=32 matmul=arb",
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* The accurate mode of a binary64 port, the unit the checks below take */
static void accurate_binary64(slpi_ref *s)
{
    slpi_ref_set_accurate(s, 0x1p-53);
}

static void check_case(const char *settings)
{
    slpi_problem p;
    double *x0, *dW;
    if (!ou_problem_start(settings, &p, &x0, &dW)) {
        free(x0);
        free(dW);
        return;
    }
    int dim = slpi_problem_state_dim(&p);
    arb_ptr a = _arb_vec_init(dim), c = _arb_vec_init(dim);
    for (int i = 0; i < dim; i++) {
        arb_set_d(a + i, x0[i] * (1 + 1e-3 * test_rand_uniform(-1, 1)));
        arb_set(c + i, a + i);
    }
    char why_a[600] = "", why_c[600] = "";
    slpi_step_info info;
    int ok_a = ou_ref_step(&p, accurate_binary64, a, dW, &info, why_a, sizeof why_a);
    int ok_c = ou_ref_step(&p, NULL, c, dW, &info, why_c, sizeof why_c);
    TEST_CHECKF(ok_a, "'%s': the accurate step failed (%s)", settings, why_a);
    TEST_CHECKF(ok_c, "'%s': the certified step failed (%s)", settings, why_c);
    if (ok_a && ok_c) {
        double s = 0, diff = 0, rad = 0;
        int outside = -1;
        arb_t d;
        arb_init(d);
        for (int i = 0; i < dim; i++) s = fmax(s, fabs(arf_get_d(arb_midref(c + i), ARF_RND_NEAR)));
        for (int i = 0; i < dim; i++) {
            arb_get_mid_arb(d, a + i);
            arb_add_error_mag(d, arb_radref(c + i));
            arb_add_error_mag(d, arb_radref(a + i));
            if (!arb_contains_arf(d, arb_midref(c + i)) && outside < 0) outside = i;
            arf_sub(arb_midref(d), arb_midref(a + i), arb_midref(c + i), 128, ARF_RND_NEAR);
            diff = fmax(diff, fabs(arf_get_d(arb_midref(d), ARF_RND_NEAR)));
            rad = fmax(rad, mag_get_d(arb_radref(a + i)));
        }
        arb_clear(d);
        double unit = 0x1p-53 * s;
        TEST_CHECKF(outside < 0,
                    "'%s': coordinate %d: the accurate midpoint is %.3g units from the certified one, "
                    "outside both balls",
                    settings, outside, diff / unit);
        TEST_CHECKF(rad <= SLPI_STAT_REF_FRACTION * unit, "'%s': accurate radius %.3g units > %g", settings, rad / unit,
                    SLPI_STAT_REF_FRACTION);
        printf("%-64s |accurate - certified| %-9.3g accurate radius %.3g (units of 2^-53 s)\n", settings, diff / unit,
               rad / unit);
    }
    _arb_vec_clear(a, dim);
    _arb_vec_clear(c, dim);
    free(x0);
    free(dW);
}

int main(void)
{
    test_start("t-ref-accurate", 1);
    for (int i = 0; i < NCASES; i++) check_case(cases[i]);
    TEST_END();
}
