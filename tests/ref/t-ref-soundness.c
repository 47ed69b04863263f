/* t-ref-soundness.c — scheme-level soundness of the certified path:
 * for every ref scheme (and the variants that change its arithmetic: fixed_iters, the
 * CAY update, the SVI forms and outputs, c = -1/4, dexp_order), one certified step from
 * wide input balls x_i = m_i +/- r (r = 1e-8 of the state's size) must contain the
 * exact step of every point of the box. The points are all corners of the box (a
 * random half of them, at least 16, when the state has more than 6 doubles), its
 * midpoint, and random interior points; each is stepped by the ref path at 320 bits
 * from exact point inputs, and its (narrow) ball must lie inside the wide output ball.
 * The wide step's solver sees a whole box of parameters at once: an enclosure that
 * forgot a term of a derivative (e.g. 1/2 D O_exp -> 1/4 D O_exp in the TMK Krawczyk
 * operator) still contains the midpoint's solution but misses the corners'.
 *
 * The step sizes are large (h = 0.1 .. 0.25, where a solver's derivative has weight),
 * the increments are the problem's canonical ones for its first step (or given, for the
 * derivative-dominated cases below), and the output balls must stay narrow enough
 * (radius < 1e-4 of the state) that containment means something. Besides the whole box,
 * thin boxes (one coordinate wide) are stepped: there the ball arithmetic after the solve
 * loses less to decorrelation. The "tightness" printed is the largest distance of a
 * point's result from the ball's centre in units of its radius (<= 1: inside).
 * Replay one case: SLPI_SOUNDNESS_CASE='settings' [SLPI_SOUNDNESS_DW=a,b,c]; a subset:
 * SLPI_SOUNDNESS_ONLY=substring. */
#include "core/problem-struct.h"
#include "oracleutil.h"

#define POINT_PREC 320
#define REL_RADIUS 1e-8

typedef struct {
    const char *settings;
    const char *dW; /* the increments (comma-separated), NULL: the canonical ones */
} sound_case;

#define RB "preset=iso/rigid-body/trajectories h=0.1 "
#define RBS "preset=svi/rigid-body/paths h=0.1 "
#define HT "preset=rkmk/heavy-top/casimirs-421 h=0.1 "
#define HTS "preset=svi/heavy-top/case3 h=0.1 k=0.3,0.7 "
#define MK "preset=iso/manakov/long n=4 h=0.1 "
#define PV "preset=iso/vortices/trajectories h=0.1 "
#define EZ "preset=iso/zeitlin/long N=3 ic_lmax=2 h=0.1 amp=1 "
#define SE "preset=rkmk/sine-euler/casimirs-tmk N=3 h=0.25 "
/* Derivative-dominated: noise only (h0_scale=0), state near the pole e_1, increments
 * only on H_2, H_3 = amp x_2^2, amp x_3^2, which vanish there while their derivatives
 * do not: the step sigma is tiny (so the ball arithmetic after the solve stays tight)
 * but the solve's derivative has weight ~0.6. Here an enclosure that halves a term of
 * the derivative misses the corners of the box by a few percent of its radius. */
#define STIFF "preset=iso/rigid-body/trajectories h=0.01 h0_scale=0 noise=iso-quad x0=1,0.001,0.002 "
#define STIFFS "preset=svi/rigid-body/paths h=0.01 h0_scale=0 noise=iso-quad x0=1,0.001,0.002 "

static const sound_case cases[] = {
    { RB "scheme=tmk", NULL },
    { RB "scheme=tmk fixed_iters=2", NULL },
    { RB "scheme=rkmk-le noise=svi-lin", NULL },
    { RB "scheme=rkmk-heun", NULL },
    { RB "scheme=rkmk-heun dexp_order=4", NULL },
    { RB "scheme=im-direct", NULL },
    { RB "scheme=im-direct fixed_iters=3", NULL },
    { RB "scheme=trap-direct", NULL },
    { RB "scheme=isomp", NULL },
    { RB "scheme=isomp update=cay", NULL },
    { RB "scheme=isomp fixed_iters=2", NULL },
    { RBS "svi_form=so3", NULL },
    { RBS "svi_form=so3 svi_output=node", NULL },
    { RBS "svi_form=lp", NULL },
    { RBS "svi_c=-0.25", NULL },
    { HT "scheme=tmk", NULL },
    { HT "scheme=rkmk-le", NULL },
    { HT "scheme=rkmk-heun dexp_order=2", NULL },
    { HT "scheme=im-direct", NULL },
    { HT "scheme=trap-direct", NULL },
    { HTS "", NULL },
    { MK "scheme=isomp", NULL },
    { MK "scheme=svi", NULL },
    { MK "scheme=tmk", NULL },
    { PV "scheme=isomp update=cay", NULL },
    { PV "scheme=trap-direct", NULL },
    { EZ "scheme=isomp", NULL },
    { EZ "scheme=rkmk-heun", NULL },
    { SE "scheme=isomp", NULL },
    { SE "scheme=tmk", NULL },
    { STIFF "scheme=tmk amp=3", "0,0.2,0.2" },
    { STIFF "scheme=tmk amp=6", "0,0.1,0.1" },
    { STIFF "scheme=im-direct amp=3", "0,0.2,0.2" },
    { STIFF "scheme=trap-direct amp=3", "0,0.2,0.2" },
    { STIFF "scheme=isomp amp=3", "0,0.2,0.2" },
    { STIFF "scheme=isomp amp=3 update=cay", "0,0.2,0.2" },
    { STIFF "scheme=rkmk-heun amp=3 dexp_order=2", "0,0.2,0.2" },
    { STIFFS "amp=3", "0,0.2,0.2" },
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* One box: x0 +/- r in every coordinate (axis < 0) or in coordinate `axis` only. The
 * thin boxes matter: with one direction the ball arithmetic after the solve loses less
 * to decorrelation, so an enclosure of the solve that is too narrow shows at the output. */
static void check_box(const char *settings, const slpi_problem *p, const double *x0, const double *dW, int axis)
{
    slpi_problem hp = *p;
    hp.cert.prec = hp.cert.prec_max = POINT_PREC;
    int dim = slpi_problem_state_dim(p);
    if (dim < 1) return;
    double scale = 0;
    for (int i = 0; i < dim; i++) scale = fmax(scale, fabs(x0[i]));
    double r = REL_RADIUS * scale;
    arb_ptr box = _arb_vec_init(dim), y = _arb_vec_init(dim), z = _arb_vec_init(dim);
    double *lo = calloc((size_t)dim, sizeof *lo), *hi = calloc((size_t)dim, sizeof *hi);
    double *pt = calloc((size_t)dim, sizeof *pt);
    for (int i = 0; i < dim; i++) {
        int wide = axis < 0 || axis == i;
        lo[i] = wide ? x0[i] - r : x0[i];
        hi[i] = wide ? x0[i] + r : x0[i];
        arb_set_d(box + i, lo[i]);
        arb_set_d(z + i, hi[i]);
        arb_union(box + i, box + i, z + i, 128); /* contains [lo, hi] */
    }
    /* the wide step */
    _arb_vec_set(y, box, dim);
    slpi_step_info info;
    char why[600] = "";
    int ok = ou_ref_step(p, NULL, y, dW, &info, why, sizeof why);
    TEST_CHECKF(ok, "'%s' axis %d: the wide step is not certified (%s)", settings, axis, why);
    TEST_CHECKF(!ok || info.radius < 1e-4 * scale, "'%s' axis %d: output radius %.3g: too wide to mean anything",
                settings, axis, info.radius);

    /* points of the box: corners (all, or a random half when there are many), the
     * midpoint, random interior points */
    int wide = axis < 0 ? dim : 1, all_corners = wide <= 6;
    long ncorner = all_corners ? 1L << wide : 16 + test_rand_int(16);
    long npoints = ncorner + 1 + test_iters(axis < 0 ? 6 : 2), outside = 0, failed = 0;
    double worst = 0;
    for (long k = 0; ok && k < npoints; k++) {
        for (int i = 0, j = 0; i < dim; i++) {
            if (axis >= 0 && i != axis)
                pt[i] = x0[i];
            else if (k < ncorner)
                pt[i] = (all_corners ? (k >> j++) & 1 : test_rand_u64() & 1) ? hi[i] : lo[i];
            else if (k == ncorner)
                pt[i] = x0[i];
            else
                pt[i] = fmin(hi[i], fmax(lo[i], test_rand_uniform(lo[i], hi[i])));
            arb_set_d(z + i, pt[i]);
        }
        slpi_step_info pinfo;
        if (!ou_ref_step(&hp, NULL, z, dW, &pinfo, why, sizeof why)) {
            failed++;
            continue;
        }
        int in = 1;
        for (int i = 0; i < dim; i++) {
            /* how far from the centre, in units of the output radius (> 1: outside) */
            arb_t d;
            arb_init(d);
            arb_sub(d, z + i, y + i, 128);
            double e = fabs(arf_get_d(arb_midref(d), ARF_RND_NEAR)) / fmax(mag_get_d(arb_radref(y + i)), 1e-300);
            if (mag_cmp(arb_radref(y + i), arb_radref(z + i)) > 0) worst = fmax(worst, e);
            arb_clear(d);
            in &= arb_contains(y + i, z + i);
        }
        outside += !in;
    }
    TEST_CHECKF(failed == 0, "'%s' axis %d: %ld of %ld point steps not certified at %d bits (%s)", settings, axis,
                failed, npoints, POINT_PREC, why);
    TEST_CHECKF(outside == 0,
                "'%s' axis %d: UNSOUND: %ld of %ld points of the input box step outside the "
                "output ball (worst %.3g radii from its centre)",
                settings, axis, outside, npoints, worst);
    printf("%-72s axis %2d  %3ld points  output radius %-9.3g tightness %.3f\n", settings, axis, npoints,
           ok ? info.radius : -1.0, worst);
    _arb_vec_clear(box, dim);
    _arb_vec_clear(y, dim);
    _arb_vec_clear(z, dim);
    free(lo);
    free(hi);
    free(pt);
}

/* The whole box, then a thin box along each coordinate (the first 6). */
static void check_case(const char *settings, const char *dWs)
{
    slpi_problem p;
    double *x0, *dW;
    if (ou_problem_start(settings, &p, &x0, &dW)) {
        int dim = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p);
        for (int k = 0; dWs && k < M; k++) { /* given increments */
            char *end;
            dW[k] = strtod(dWs, &end);
            dWs = end + (*end == ',');
        }
        for (int axis = -1; axis < dim && axis < 6; axis++) check_box(settings, &p, x0, dW, axis);
    }
    free(x0);
    free(dW);
}

int main(void)
{
    test_start("t-ref-soundness", 5);
    const char *only = getenv("SLPI_SOUNDNESS_ONLY"); /* a substring of the settings */
    const char *one = getenv("SLPI_SOUNDNESS_CASE");  /* settings of a case to run alone */
    if (one) check_case(one, getenv("SLPI_SOUNDNESS_DW"));
    for (int i = 0; i < NCASES && !one; i++)
        if (!only || strstr(cases[i].settings, only)) check_case(cases[i].settings, cases[i].dW);
    TEST_END();
}
