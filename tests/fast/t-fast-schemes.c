/* t-fast-schemes.c — scheme consistency of fast/ on the rigid body (docs/schemes.md, docs/systems.md#rigid-body):
 * deterministic global orders (2 for TMK, HEUN, IM, TRAP, ISOMP COMM/CAY, SVI +-1/4 and
 * SVI-LP; 1 for Lie–Euler) against an RK4 reference computed here; one step with zero
 * increments equals the deterministic step; ISOMP reversibility and COMM vs CAY updates;
 * SVI-LP equals SVI-SO3 (c = +1/4); Manakov so(3) (n = 3) equals the rigid body with
 * inertia (3, 2, 1) under every scheme (matrix path vs 3-vector path). */
#include "fastutil.h"

static const double Iiso[3] = { 2, 1, 2.0 / 3 };

/* RK4 reference of dx = x cross I^{-1} x. */
static void rk4_ref(const double *x0, double T, long n, double *x)
{
    double h = T / n, k[4][3], y[3];
    memcpy(x, x0, 3 * sizeof *x);
    for (long s = 0; s < n; s++) {
        for (int st = 0; st < 4; st++) {
            double c = st == 0 ? 0 : st == 3 ? 1 : 0.5;
            for (int i = 0; i < 3; i++) y[i] = x[i] + (st ? c * h * k[st - 1][i] : 0);
            double w[3] = { y[0] / Iiso[0], y[1] / Iiso[1], y[2] / Iiso[2] };
            slpi_fast_cross(k[st], y, w);
        }
        for (int i = 0; i < 3; i++) x[i] += h / 6 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
    }
}

typedef struct {
    const char *name;
    slpi_scheme_id k;
    int cay;
    double c;
    int lp;
    double order;
} cfg;
static const cfg cfgs[] = {
    { "tmk", SLPI_SCHEME_TMK, 0, 0.25, 0, 2 },
    { "rkmk-le", SLPI_SCHEME_RKMK_LE, 0, 0.25, 0, 1 },
    { "rkmk-heun", SLPI_SCHEME_RKMK_HEUN, 0, 0.25, 0, 2 },
    { "im", SLPI_SCHEME_IM_DIRECT, 0, 0.25, 0, 2 },
    { "trap", SLPI_SCHEME_TRAP_DIRECT, 0, 0.25, 0, 2 },
    { "isomp-comm", SLPI_SCHEME_ISOMP, 0, 0.25, 0, 2 },
    { "isomp-cay", SLPI_SCHEME_ISOMP, 1, 0.25, 0, 2 },
    { "svi+", SLPI_SCHEME_SVI, 0, 0.25, 0, 2 },
    { "svi-", SLPI_SCHEME_SVI, 0, -0.25, 0, 2 },
    { "svi-lp", SLPI_SCHEME_SVI, 0, 0.25, 1, 2 },
};
static const cfg *cur;
static double cur_h;
static slpi_rb_noise cur_noise;

static void tw_rb(slpi_problem *p)
{
    p->sys.rb.form = SLPI_RB_FORM_ISO;
    for (int i = 0; i < 3; i++) p->sys.rb.inertia[i] = Iiso[i];
    p->sys.rb.noise = cur_noise;
    p->sys.rb.amp = 0.1;
    p->grid.h = cur_h;
    p->sch.isomp_update = cur->cay ? SLPI_ISO_UPDATE_CAY : SLPI_ISO_UPDATE_COMM;
    p->sch.svi_c = cur->c;
    p->sch.svi_form = cur->lp ? SLPI_SVI_FORM_LP : SLPI_SVI_FORM_AUTO;
}

/* The run of configuration cfgs[i] with the given noise model and step. */
static slpi_fast *make_cfg(int i, slpi_rb_noise noise, double h)
{
    cur = &cfgs[i];
    cur_noise = noise;
    cur_h = h;
    return fu_make(SLPI_SYS_RIGID_BODY, cur->k, tw_rb);
}

static void check_orders(void)
{
    double x0[3] = { sin(1.1), 0, cos(1.1) }, ref[3], x[3];
    rk4_ref(x0, 1.0, 1 << 13, ref);
    for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++) {
        double e[5];
        for (int l = 0; l < 5; l++) {
            slpi_fast *f = make_cfg((int)c, SLPI_RB_NOISE_NONE, 1.0 / (8 << l));
            if (!f) return;
            memcpy(x, x0, sizeof x);
            TEST_CHECKF(fu_run(f, x, 8 << l, NULL) == 0, "%s: failed steps", cur->name);
            e[l] = fu_maxdiff(x, ref, 3);
            slpi_fast_free(f);
        }
        double slope = log2(e[1] / e[4]) / 3;
        printf("  order %-10s errors %.2e .. %.2e slope %.3f\n", cur->name, e[0], e[4], slope);
        TEST_CHECKF(fabs(slope - cur->order) < 0.15, "%s: slope %.3f, expected %g", cur->name, slope, cur->order);
    }
}

/* Zero increments with a noise model = the deterministic step, bit for bit. */
static void check_zero_noise(void)
{
    for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++) {
        slpi_fast *f = make_cfg((int)c, SLPI_RB_NOISE_ISO_QUAD, 1.0 / 64);
        slpi_fast *g = make_cfg((int)c, SLPI_RB_NOISE_NONE, 1.0 / 64);
        double x[3] = { 0.3, -0.5, 0.8 }, y[3] = { 0.3, -0.5, 0.8 }, zero[30] = { 0 };
        fu_run(f, x, 10, zero);
        fu_run(g, y, 10, NULL);
        TEST_CHECKF(fu_maxdiff(x, y, 3) == 0, "%s: zero noise differs from none by %g", cur->name, fu_maxdiff(x, y, 3));
        slpi_fast_free(f);
        slpi_fast_free(g);
    }
}

/* ISOMP with (-h, -dW) undoes (h, dW); COMM and CAY agree to solver accuracy. */
static void check_isomp_symmetry(void)
{
    slpi_fast *f = make_cfg(5, SLPI_RB_NOISE_ISO_QUAD, 1.0 / 32);
    slpi_fast *g = make_cfg(6, SLPI_RB_NOISE_ISO_QUAD, 1.0 / 32);
    for (int t = 0; t < test_iters(50); t++) {
        double x0[3] = { fu_normal(), fu_normal(), fu_normal() }, x[3], y[3];
        double dw[3], mdw[3];
        for (int k = 0; k < 3; k++) {
            dw[k] = sqrt(cur_h) * fu_normal();
            mdw[k] = -dw[k];
        }
        memcpy(x, x0, sizeof x);
        memcpy(y, x0, sizeof y);
        fu_run(f, x, 1, dw);
        fu_run(g, y, 1, dw);
        double sc = slpi_vec_maxabs(x0, 3);
        TEST_CHECKF(fu_maxdiff(x, y, 3) < 1e-14 * sc, "comm vs cay: %g", fu_maxdiff(x, y, 3));
        f->h = -cur_h;
        fu_run(f, x, 1, mdw);
        f->h = cur_h;
        TEST_CHECKF(fu_maxdiff(x, x0, 3) < 1e-14 * sc, "isomp reversibility: %g", fu_maxdiff(x, x0, 3));
    }
    slpi_fast_free(f);
    slpi_fast_free(g);
}

/* ISOMP's quasi-Newton form (docs/schemes.md#isomp step 3) has the fixed point of the plain map:
 * on the rigid body, vortices and Manakov both solvers agree over 50 noisy steps. */
static slpi_solver_kind g_solver;
static void tw_solver(slpi_problem *p)
{
    p->sol.solver = g_solver;
}

static void check_isomp_newton(void)
{
    static const slpi_system_id ss[] = { SLPI_SYS_RIGID_BODY, SLPI_SYS_POINT_VORTICES, SLPI_SYS_MANAKOV };
    for (int j = 0; j < 3; j++) {
        g_solver = SLPI_SOLVER_NEWTON;
        slpi_fast *f = fu_make(ss[j], SLPI_SCHEME_ISOMP, tw_solver);
        g_solver = SLPI_SOLVER_FIXED_POINT;
        slpi_fast *g = fu_make(ss[j], SLPI_SCHEME_ISOMP, tw_solver);
        double x[64], y[64], dw[50 * 45];
        for (int i = 0; i < 50 * f->sys.M; i++) dw[i] = sqrt(f->h) * fu_normal();
        slpi_fast_initial_state(f, x, NULL);
        memcpy(y, x, sizeof y);
        TEST_CHECK(fu_run(f, x, 50, dw) == 0 && fu_run(g, y, 50, dw) == 0);
        double d = fu_maxdiff(x, y, f->sys.state_dim);
        TEST_CHECKF(d < 1e-13, "%s isomp newton vs fixed point: %g", slpi_system_name(ss[j]), d);
        slpi_fast_free(f);
        slpi_fast_free(g);
    }
}

/* SVI-LP (matrix operations) equals SVI-SO3 with c = +1/4 (vector formulas). */
static void check_svi_lp(void)
{
    slpi_fast *f = make_cfg(7, SLPI_RB_NOISE_ISO_QUAD, 1.0 / 64);
    slpi_fast *g = make_cfg(9, SLPI_RB_NOISE_ISO_QUAD, 1.0 / 64);
    double dw[300], x[3] = { sin(1.1), 0, cos(1.1) }, y[3];
    for (int i = 0; i < 300; i++) dw[i] = sqrt(cur_h) * fu_normal();
    memcpy(y, x, sizeof y);
    fu_run(f, x, 100, dw);
    fu_run(g, y, 100, dw);
    TEST_CHECKF(fu_maxdiff(x, y, 3) < 1e-13, "svi-lp vs svi-so3: %g", fu_maxdiff(x, y, 3));
    slpi_fast_free(f);
    slpi_fast_free(g);
}

/* Manakov n = 3 in coordinates (X12, X13, X23) = (-x3, x2, -x1), noise order reversed. */
static slpi_scheme_id mk_scheme;
static void tw_mk3(slpi_problem *p)
{
    p->sys.mk.n = 3;
    p->grid.h = 1.0 / 64;
    p->sch.svi_c = 0.25;
    (void)mk_scheme;
}
static void tw_rb321(slpi_problem *p)
{
    p->sys.rb.form = SLPI_RB_FORM_ISO;
    p->sys.rb.inertia[0] = 3;
    p->sys.rb.inertia[1] = 2;
    p->sys.rb.inertia[2] = 1;
    p->sys.rb.noise = SLPI_RB_NOISE_ISO_QUAD;
    p->sys.rb.amp = 0.1;
    p->grid.h = 1.0 / 64;
    p->sch.svi_form = SLPI_SVI_FORM_LP;
}

static void check_manakov3(void)
{
    static const slpi_scheme_id ks[] = { SLPI_SCHEME_TMK,         SLPI_SCHEME_RKMK_HEUN, SLPI_SCHEME_IM_DIRECT,
                                         SLPI_SCHEME_TRAP_DIRECT, SLPI_SCHEME_ISOMP,     SLPI_SCHEME_SVI };
    double dw[600], dwm[600];
    for (int i = 0; i < 200; i++)
        for (int k = 0; k < 3; k++) dw[3 * i + k] = dwm[3 * i + 2 - k] = sqrt(1.0 / 64) * fu_normal();
    for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++) {
        slpi_fast *f = fu_make(SLPI_SYS_MANAKOV, ks[j], tw_mk3);
        slpi_fast *g = fu_make(SLPI_SYS_RIGID_BODY, ks[j], tw_rb321);
        if (!f || !g) return;
        double x[3] = { 0.4, -0.7, 0.5 }, m[3] = { -0.5, -0.7, -0.4 };
        fu_run(g, x, 200, dw);
        fu_run(f, m, 200, dwm);
        double e[3] = { -m[2], m[1], -m[0] };
        TEST_CHECKF(fu_maxdiff(x, e, 3) < 1e-12, "manakov n=3 vs rigid body, %s: %g", slpi_scheme_name(ks[j]),
                    fu_maxdiff(x, e, 3));
        slpi_fast_free(f);
        slpi_fast_free(g);
    }
}

int main(void)
{
    test_start("t-fast-schemes", 4242);
    check_orders();
    check_zero_noise();
    check_isomp_symmetry();
    check_isomp_newton();
    check_svi_lp();
    check_manakov3();
    TEST_END();
}
