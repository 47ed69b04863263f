/* t-fast-poisson.c — Poisson-map property by finite differences (docs/schemes.md#isomp Thm 4.5,
 * §3.5 f, cases iso/rigid-body/poisson-fd and svi/rigid-body/poisson-fd): for fixed
 * increments the Jacobian D of x_n -> x_{n+1} satisfies D J(x_n) D^T = J(x_{n+1}),
 * J(x) = hat(x), for ISOMP (COMM and CAY) and SVI with c = +1/4, and visibly fails
 * for SVI with c = -1/4 (negative control). Also SVI node and rotation outputs agree. */
#include "fastutil.h"
#include "props/props.h"

static int g_cay, g_node;
static double g_c;
static slpi_rb_noise g_noise;
static void tw(slpi_problem *p)
{
    p->sys.rb.form = SLPI_RB_FORM_SVI;
    p->sys.rb.noise = g_noise;
    p->sys.rb.amp = 0.5;
    p->grid.h = 0.2;
    p->sch.isomp_update = g_cay ? SLPI_ISO_UPDATE_CAY : SLPI_ISO_UPDATE_COMM;
    p->sch.svi_c = g_c;
    p->sch.svi_output = g_node ? SLPI_SVI_OUT_NODE : SLPI_SVI_OUT_ROTATION;
}

/* max |D J(x) D^T - J(x1)| with D by central differences. */
static double poisson_residual(slpi_fast *f, const double *x, const double *dw)
{
    double D[9], x1[3], H0[9], H1[9], T[9], R[9], eps = 1e-6;
    for (int j = 0; j < 3; j++) {
        double xp[3], xm[3];
        memcpy(xp, x, sizeof xp);
        memcpy(xm, x, sizeof xm);
        xp[j] += eps;
        xm[j] -= eps;
        fu_run(f, xp, 1, dw);
        fu_run(f, xm, 1, dw);
        for (int i = 0; i < 3; i++) D[3 * i + j] = (xp[i] - xm[i]) / (2 * eps);
    }
    memcpy(x1, x, sizeof x1);
    fu_run(f, x1, 1, dw);
    slpi_props_poisson_tensor(f->p, x, H0); /* J = hat x (props/invariants.c) */
    slpi_props_poisson_tensor(f->p, x1, H1);
    slpi_fast_mat3_mul(T, D, H0);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R[3 * i + j] = T[3 * i] * D[3 * j] + T[3 * i + 1] * D[3 * j + 1] + T[3 * i + 2] * D[3 * j + 2];
    return fu_maxdiff(R, H1, 9);
}

static double worst(slpi_scheme_id k, int cay, double c, slpi_rb_noise noise)
{
    g_cay = cay;
    g_c = c;
    g_noise = noise;
    g_node = 0;
    slpi_fast *f = fu_make(SLPI_SYS_RIGID_BODY, k, tw);
    double w = 0;
    for (int t = 0; t < test_iters(10); t++) {
        double x[3] = { fu_normal(), fu_normal(), fu_normal() }, dw[3];
        for (int i = 0; i < 3; i++) dw[i] = 0.3 * fu_normal();
        w = fmax(w, poisson_residual(f, x, dw));
    }
    slpi_fast_free(f);
    return w;
}

int main(void)
{
    test_start("t-fast-poisson", 8);
    double a = worst(SLPI_SCHEME_ISOMP, 0, 0.25, SLPI_RB_NOISE_ISO_QUAD);
    double b = worst(SLPI_SCHEME_ISOMP, 1, 0.25, SLPI_RB_NOISE_ISO_QUAD);
    double c = worst(SLPI_SCHEME_SVI, 0, 0.25, SLPI_RB_NOISE_SVI_LIN);
    double d = worst(SLPI_SCHEME_SVI, 0, -0.25, SLPI_RB_NOISE_NONE);
    double e = worst(SLPI_SCHEME_SVI, 0, 0.25, SLPI_RB_NOISE_NONE);
    printf("  Poisson residual: isomp-comm %.2g, isomp-cay %.2g, svi+ (noise) %.2g, svi- %.2g, svi+ %.2g\n", a, b, c, d,
           e);
    TEST_CHECKF(a < 1e-8 && b < 1e-8, "ISOMP Poisson residual %g %g", a, b);
    TEST_CHECKF(c < 1e-8 && e < 1e-8, "SVI c=+1/4 Poisson residual %g %g", c, e);
    TEST_CHECKF(d > 1e-7, "SVI c=-1/4 must not be Poisson: %g", d);
    /* node and rotation outputs agree at convergence */
    for (int s = 0; s < 2; s++) {
        g_c = s ? -0.25 : 0.25;
        g_noise = SLPI_RB_NOISE_SVI_LIN;
        g_node = 1;
        slpi_fast *fn = fu_make(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_SVI, tw);
        g_node = 0;
        slpi_fast *fr = fu_make(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_SVI, tw);
        double x[3] = { 0.3, -0.6, 0.7 }, y[3] = { 0.3, -0.6, 0.7 }, dw[3] = { 0.1, -0.2, 0.3 };
        fu_run(fn, x, 1, dw);
        fu_run(fr, y, 1, dw);
        TEST_CHECKF(fu_maxdiff(x, y, 3) < 1e-14, "SVI c=%g node vs rotation: %g", g_c, fu_maxdiff(x, y, 3));
        slpi_fast_free(fn);
        slpi_fast_free(fr);
    }
    TEST_END();
}
