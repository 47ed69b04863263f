/* t-model-lanes.c — the lock-step lanes of a model's ensembles (fast/model-lanes.c, the
 * lane program of its tape) against the general path (slpi_fast_step) on the same
 * increments: every path bit for bit, with its status and iteration count, for every
 * kernel this processor runs (portable, AVX2, AVX-512F), lane counts that leave a partial
 * register and a second block (1, 13, 64, 70), on so3 and so3^k models whose tapes hold
 * every kind of operation (+ - x /, squares and other integer powers, real powers,
 * divisions by a constant power of two, by other constants and by variables, each
 * function, the time t, a coordinate H does not read), under policies that stop lanes at
 * different iterations for different reasons (a tolerance, fixed iterations, a cap
 * failed, the Euler, Cayley and no predictor). And the failures: a NaN increment (the
 * path is invalid), and a path moved to coordinates of 1e200, beyond the bound below
 * which the roots cannot overflow, where H overflows while its gradient does not: the
 * general path's domain fault fails the step, and the lanes must fail it too (their
 * finiteness test runs there), and a model whose H is inf - inf wherever the paths go, with
 * a small gradient: every step fails on the general path, so must every lane. A failed path is compared by failing alone: its status
 * says why in the general path's words, the lanes only void their block. */
#include "fastutil.h"
#include "core/expr.h"
#include "core/plan.h"

typedef struct {
    const char *name;
    double tol;
    int maxit, fixed, fail_on_cap, bad_lane; /* bad_lane: 1 a NaN increment, 2 |x| = 1e200 */
    slpi_predictor pred;
} policy;

static const policy policies[] = {
    { "default", 0, 0, 0, 0, 0, SLPI_PREDICTOR_EULER },
    { "tol 1e-9", 1e-9, 0, 0, 0, 0, SLPI_PREDICTOR_EULER },
    { "fixed_iters 3", 0, 0, 3, 0, 0, SLPI_PREDICTOR_EULER },
    { "maxit 3, fail", 0, 3, 0, 1, 0, SLPI_PREDICTOR_EULER },
    { "predictor=cayley", 0, 0, 0, 0, 0, SLPI_PREDICTOR_CAYLEY },
    { "predictor=none", 0, 0, 0, 0, 0, SLPI_PREDICTOR_NONE },
    { "a NaN increment in lane 5", 0, 0, 0, 0, 1, SLPI_PREDICTOR_EULER },
    { "lane 5 at |x| = 1e200 (H overflows)", 0, 0, 0, 0, 2, SLPI_PREDICTOR_EULER },
};

/* A model: a file, or keys (algebra, H, noise Hamiltonians, x0). */
typedef struct {
    const char *file, *alg, *H, *n1, *n2, *x0;
} model;

static const model models[] = {
    { "models/rigid-body.slpi", 0, 0, 0, 0, 0 },
    { "models/rigid-body-nonquadratic.slpi", 0, 0, 0, 0, 0 },
    { "models/rigid-body-time.slpi", 0, 0, 0, 0, 0 },
    { "models/point-vortices.slpi", 0, 0, 0, 0, 0 },
    { 0, "so3",
      "(x1^2 + x2^2 + 1)^1.5/3 - x1*x2/(x2^2 + 2) + tanh(x2) - atan(x1)*sinh(x1)/7 + cosh(x2)/8"
      " - sqrt(x1^2 + 1) + tan(x2/4) + log(x1^2 + 3) - x1^(-2)/64",
      "-(x1 - x2)^2/4 + x1^3/3", "x1*x2/8 - exp(x2)/2^10 + (x2^2 + 2)^(x1/4)", "0.9,-0.4,0.3" },
    /* H is NaN (inf - inf) at these states while its gradient is small and finite: only
     * the finiteness test fails the steps */
    { 0, "so3", "(x1^2 + 2*x2^2 + 3*x3^2)*1e-22 + (1e300*x3 - 1e300*x3)", "1e-20*x1^2", "1e-20*x2*x3", "1e9,2e9,3e9" },
};

static const policy *g_pol;

static slpi_fast *make(const model *m, slpi_problem *p)
{
    slpi_error err = { 0 };
    slpi_problem_init(p, SLPI_SYS_MODEL, SLPI_SCHEME_ISOMP);
    int rc = m->file ? slpi_problem_load(p, m->file, &err) : slpi_problem_set(p, "algebra", m->alg, &err);
    if (!rc && !m->file) rc = slpi_problem_set(p, "H", m->H, &err);
    if (!rc && !m->file) rc = slpi_problem_set(p, "noise_H1", m->n1, &err);
    if (!rc && !m->file) rc = slpi_problem_set(p, "noise_H2", m->n2, &err);
    if (!rc && !m->file) rc = slpi_problem_set(p, "x0", m->x0, &err);
    if (!rc) rc = slpi_problem_set(p, "scheme", "isomp", &err);
    p->grid.h = 1.0 / 32;
    if (g_pol->tol > 0) p->sol.tol = g_pol->tol;
    if (g_pol->maxit > 0) p->sol.maxit = g_pol->maxit;
    p->sol.fixed_iters = g_pol->fixed;
    p->sch.predictor = g_pol->pred;
    p->sol.on_cap = g_pol->fail_on_cap ? SLPI_CAP_FAIL : SLPI_CAP_ACCEPT;
    slpi_fast *f = NULL;
    if (!rc) rc = slpi_fast_create(&f, p, &err);
    TEST_CHECKF(rc == 0, "%s: %s", m->file ? m->file : m->H, err.msg);
    return rc ? NULL : f;
}

static void compare(const model *m, const policy *pol, slpi_fast_isa isa, int nl)
{
    g_pol = pol;
    slpi_problem p;
    slpi_fast *f = make(m, &p);
    if (!f) return;
    slpi_fast_model_soa soa;
    slpi_error err = { 0 };
    slpi_plan *plan = NULL;
    TEST_CHECKF(slpi_fast_model_soa_kind(&p, NULL) == SLPI_FAST_SOA_MODEL && slpi_plan_compile(&plan, &p, &err) == 0 &&
                    slpi_fast_model_soa_init(&soa, plan, &err) == 0,
                "%s", err.msg);
    slpi_plan_unref(plan); /* the lanes hold their reference */
    soa.isa = isa;
    enum { MAXL = 70, STEPS = 20 };
    const int dim = soa.dim, M = soa.M;
    double *xs = malloc((size_t)(2 * dim + M) * MAXL * sizeof *xs), *xa = xs + dim * MAXL, *dW = xa + dim * MAXL;
    double x0[3 * 64];
    TEST_CHECK(slpi_fast_initial_state(f, x0, &err) == 0);
    for (int r = 0; r < nl; r++)
        for (int i = 0; i < dim; i++) xs[i * nl + r] = xa[r * dim + i] = x0[i] * (1 + 0.2 * fu_normal());
    long its_soa = 0, its = 0, bad_soa = 0, bad = 0, flags = 0;
    slpi_fast_lane lane[MAXL];
    for (int n = 0; n < STEPS; n++) {
        for (int i = 0; i < M * nl; i++) dW[i] = 2 * sqrt(p.grid.h) * fu_normal();
        if (pol->bad_lane == 1 && nl > 5 && n == STEPS / 2) dW[5] = NAN;
        if (pol->bad_lane == 2 && nl > 5 && n == STEPS / 2)
            for (int i = 0; i < dim; i++) xs[i * nl + 5] = xa[5 * dim + i] = 1e200 * (i % 3 + 1);
        slpi_fast_set_step_index(f, n);
        bad_soa += slpi_fast_model_isomp_soa(&soa, nl, p.grid.h, n, xs, dW, &its_soa, lane);
        for (int r = 0; r < nl; r++) {
            double w[SLPI_MODEL_MAX_NOISE];
            for (int k = 0; k < M; k++) w[k] = dW[k * nl + r];
            slpi_step_info info;
            slpi_fast_set_step_index(f, n);
            int fl = slpi_step_failed(slpi_fast_step(f, xa + r * dim, w, &info));
            bad += fl;
            flags += fl != slpi_step_failed(lane[r].status) ||
                (!fl && (lane[r].status != info.status || lane[r].iterations != info.iterations));
            its += fl ? 0 : info.iterations;
            its_soa -= fl ? lane[r].iterations : 0;
        }
    }
    int same = 1;
    for (int r = 0; r < nl; r++)
        for (int i = 0; i < dim; i++) same &= memcmp(&xs[i * nl + r], &xa[r * dim + i], sizeof(double)) == 0;
    TEST_CHECKF(same && its == its_soa && bad == bad_soa && flags == 0,
                "%s, %s, %s kernel, %d lanes: bits %s, iterations %ld vs %ld, failures %ld vs %ld"
                " (%ld lane reports differ)",
                m->file ? m->file : m->H, pol->name, fu_isa_name(isa), nl, same ? "equal" : "differ", its_soa, its,
                bad_soa, bad, flags);
    if (nl == MAXL)
        printf("  %-36.36s %-36s %-8s: %ld iterations, %ld failures: %s\n", m->file ? m->file : m->H, pol->name,
               fu_isa_name(isa), its, bad, same && its == its_soa && bad == bad_soa ? "identical" : "DIFFERENT");
    free(xs);
    slpi_fast_model_soa_clear(&soa);
    slpi_fast_free(f);
}

int main(void)
{
    test_start("t-model-lanes", 51);
    int lanes[] = { 70, 1, 13, 64 };
    FU_EACH_ISA (isa)
        for (size_t m = 0; m < sizeof models / sizeof models[0]; m++)
            for (size_t q = 0; q < sizeof policies / sizeof policies[0]; q++)
                for (int l = 0; l < 4; l++) compare(&models[m], &policies[q], isa, lanes[l]);
    TEST_END();
}
