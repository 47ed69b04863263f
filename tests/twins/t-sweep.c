/* t-sweep.c — fast path against the certified path over the settings the golden cases
 * (oracle/golden-cases.c) never touch: fixed_iters for every implicit
 * scheme the ref path defines it for (TMK chord steps, IM/TRAP fixed-point steps, ISOMP
 * in both updates), dexp_order 1..4 of RKMK-Heun, every noise case of every system (as
 * in core/problem-keys.c's key table, with distinct k1 != k2 so that a swapped coefficient
 * shows), svi_output=node, svi_form so3/lp, the Newton solver, update=cay beyond the
 * rigid body, reproject, vortex model B, the printed heavy-top potential, sine-Euler's
 * random initial condition.
 *
 * Each case runs 8..16 steps (fewer for the expensive certified TMK solves) on the
 * canonical increments from the problem's x0: the ref path's ball after step 1, at half
 * the horizon and at the end, and the fast path's doubles scored against it as the
 * golden check does (oracle/score.c: certified ratio |fast - exact| / (n u |x|) <= 30,
 * the ball narrow enough to decide; UNABLE is not a pass). Where a setting has a
 * visible signature it is checked too: fast fixed_iters steps report CAPPED after
 * exactly that many iterations, and a fixed_iters, dexp_order or noise case must move
 * the result away from its baseline setting by 100 times the budget (else the sweep
 * could not see a bug in it). (svi_output=node has none: for these states the node and
 * the rotation output agree to rounding.)
 *
 * Not covered: fixed_iters with SVI (the ref path defines no fixed-iteration SVI and
 * says so) and the Newton solver of IM/TRAP (the fast path offers Newton for ISOMP only). */
#include <time.h>

#include "core/problem-struct.h"
#include "oracleutil.h"

typedef struct {
    const char *settings; /* key=value ..., a preset first */
    long steps;
    const char *baseline; /* NULL, or keys that undo the setting: it must matter */
} sweep_case;

#define RB "preset=iso/rigid-body/trajectories "
#define RBS "preset=svi/rigid-body/paths "
#define HT "preset=rkmk/heavy-top/casimirs-421 "
#define HTS "preset=svi/heavy-top/case2 "
#define MK "preset=iso/manakov/long n=4 "
#define PV "preset=iso/vortices/trajectories "
#define EZ "preset=iso/zeitlin/long N=5 "
#define SE "preset=rkmk/sine-euler/casimirs-tmk "

static const sweep_case cases[] = {
    /* fixed_iters: the accepted iterate of exactly L iterations */
    { RB "scheme=isomp fixed_iters=2", 12, "fixed_iters=0" },
    { RB "scheme=isomp fixed_iters=3 update=cay", 12, "fixed_iters=0" },
    { MK "scheme=isomp fixed_iters=2", 8, "fixed_iters=0" },
    { PV "scheme=isomp fixed_iters=1", 8, "fixed_iters=0" },
    { EZ "scheme=isomp fixed_iters=1", 4, "fixed_iters=0" },
    { SE "scheme=isomp fixed_iters=2", 8, "fixed_iters=0" },
    { RB "scheme=im-direct fixed_iters=2", 12, "fixed_iters=0" },
    { HT "scheme=trap-direct fixed_iters=3", 12, "fixed_iters=0" },
    { MK "scheme=im-direct fixed_iters=1", 8, "fixed_iters=0" },
    { RB "scheme=tmk fixed_iters=2 h=0.0625", 8, "fixed_iters=0" },
    { HT "scheme=tmk fixed_iters=1", 4, "fixed_iters=0" },
    /* dexp_order q = 1..4 of RKMK-Heun (the q = 2 and 4 terms at h = 1/4) */
    { RB "scheme=rkmk-heun dexp_order=1", 16, "dexp_order=0" },
    { RB "scheme=rkmk-heun dexp_order=2 h=0.25", 16, "dexp_order=1" },
    { RB "scheme=rkmk-heun dexp_order=3 h=0.25", 16, NULL },
    { RB "scheme=rkmk-heun dexp_order=4 h=0.25", 16, "dexp_order=3" },
    { HT "scheme=rkmk-heun dexp_order=2 h=0.25", 16, "dexp_order=1" },
    { HT "scheme=rkmk-heun dexp_order=4 h=0.5", 16, "dexp_order=3" },
    { MK "scheme=rkmk-heun dexp_order=2 h=0.25", 8, "dexp_order=1" },
    { PV "scheme=rkmk-heun dexp_order=4 h=0.25", 8, "dexp_order=3" },
    /* every noise case of every system */
    { RB "scheme=isomp noise=none", 12, NULL },
    { RB "scheme=isomp noise=iso-quad1", 12, "noise=none" },
    { RB "scheme=isomp noise=svi-lin", 12, "noise=none" },
    { RB "scheme=isomp noise=svi-lin1", 12, "noise=none" },
    { RB "scheme=isomp noise=const-e3 amp=1", 12, "noise=none" },
    { RBS "noise=none", 12, NULL },
    { RBS "noise=iso-quad amp=0.3", 12, "noise=none" },
    { RBS "noise=iso-quad1 amp=0.3", 12, "noise=none" },
    { RBS "noise=svi-lin1", 12, "noise=none" },
    { RBS "noise=const-e3 amp=1", 12, "noise=none" },
    { HT "scheme=im-direct noise=none", 12, NULL },
    { HTS "noise=none", 12, NULL },
    { HTS "noise=case1 k=0.3,0.7", 12, "noise=none" },
    { HTS "noise=case2 k=0.7,0.3", 12, "noise=none" },
    { HTS "noise=case2-pi2 k=0.3,0.7", 12, "noise=none" },
    { HTS "noise=case3 k=0.3,0.7", 12, "k=0.3,0.3" },
    { HTS "noise=case3-pi k=0.3,0.7", 12, "k=0.3,0.3" },
    { MK "scheme=isomp noise=none", 8, NULL },
    { PV "scheme=isomp noise=none", 8, NULL },
    { EZ "scheme=isomp noise=none", 4, NULL },
    { EZ "scheme=isomp noise=L", 4, "noise=none" },
    { EZ "scheme=isomp noise=Q amp=2", 4, "noise=none" },
    { EZ "scheme=rkmk-heun noise=L", 4, "noise=none" },
    { EZ "scheme=tmk noise=L", 2, "noise=none" }, /* the per-noise generators, not ISOMP's modal pass */
    { EZ "scheme=tmk noise=Q amp=2", 2, "noise=none" },
    { SE "scheme=isomp noise=none", 8, NULL },
    /* outputs, forms, solvers and updates */
    { RBS "svi_output=node svi_form=so3", 12, NULL },
    { RBS "svi_form=lp", 12, NULL },
    { HTS "svi_output=node noise=case3 k=0.3,0.7", 12, NULL },
    { RB "scheme=isomp solver=newton", 12, NULL },
    { MK "scheme=isomp solver=newton", 8, NULL },
    { PV "scheme=isomp solver=newton update=cay", 8, NULL },
    { MK "scheme=isomp update=cay", 8, NULL },
    { EZ "scheme=isomp update=cay", 4, NULL },
    { SE "scheme=isomp update=cay", 8, NULL },
    { MK "scheme=isomp reproject=1", 8, NULL },
    { PV "scheme=isomp model=B", 8, "model=A" },
    { HT "scheme=im-direct potential_sign=printed", 12, "potential_sign=bracket" },
    { SE "scheme=isomp ic=random ic_seed=7", 8, NULL },
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* The fast path's states after steps 1..steps (row n-1 = after step n). */
static int fast_states(const slpi_problem *p, const double *x0, const double *dW, double *rows, const char *name)
{
    int dim = slpi_problem_state_dim(p), M = slpi_problem_noise_count(p);
    slpi_fast *f = NULL;
    slpi_error err = { 0, "" };
    int ok = slpi_fast_create(&f, p, &err) == SLPI_OK;
    TEST_CHECKF(ok, "%s: fast path: %s", name, err.msg);
    if (!ok) return 0;
    double *x = malloc((size_t)dim * sizeof *x);
    memcpy(x, x0, (size_t)dim * sizeof *x);
    for (long n = 0; ok && n < p->grid.steps; n++) {
        slpi_step_info info = { 0 };
        slpi_step_status st = slpi_fast_step(f, x, dW + n * M, &info);
        ok = !slpi_step_failed(st);
        TEST_CHECKF(ok, "%s: fast step %ld: %s", name, n, slpi_step_status_name(st));
        if (p->sol.fixed_iters > 0)
            TEST_CHECKF(st == SLPI_STEP_CAPPED && info.iterations == p->sol.fixed_iters,
                        "%s: fast step %ld: %s after %d iterations, fixed_iters=%d", name, n, slpi_step_status_name(st),
                        info.iterations, p->sol.fixed_iters);
        memcpy(rows + n * dim, x, (size_t)dim * sizeof *x);
    }
    free(x);
    slpi_fast_free(f);
    return ok;
}

typedef struct {
    const char *name;
    int dim;
    const double *fast;  /* fast_states rows */
    const double *other; /* the baseline setting's rows, or NULL */
    slpi_score worst;
    double moved; /* least ratio of the baseline's distance from the ball */
    int checked;
} sweep_visit;

static int score_step(void *ctx, long step, arb_srcptr x, const slpi_ref_diag *inv, const slpi_step_info *info)
{
    sweep_visit *v = ctx;
    slpi_score s;
    (void)inv;
    TEST_CHECKF(info->radius < 1e-20, "%s: ref radius %.3g at step %ld", v->name, info->radius, step);
    slpi_score_vector(v->fast + (step - 1) * v->dim, x, v->dim, slpi_score_unit(step, SLPI_U_BINARY64), 0.0, &s);
    slpi_score_merge(&v->worst, &s);
    if (v->other) {
        slpi_score_vector(v->other + (step - 1) * v->dim, x, v->dim, slpi_score_unit(step, SLPI_U_BINARY64), 0.0, &s);
        if (s.lo > v->moved) v->moved = s.lo;
    }
    v->checked++;
    return SLPI_OK;
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void sweep_one(const sweep_case *c)
{
    slpi_problem p, q;
    slpi_error err = { 0, "" };
    double t0 = seconds_now();
    int rc = ou_problem(c->settings, NULL, c->steps, &p, &err);
    TEST_CHECKF(rc == SLPI_OK, "'%s': %s", c->settings, err.msg);
    if (rc != SLPI_OK) return;
    int dim = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p);
    double *x0 = calloc((size_t)dim, sizeof *x0);
    double *dW = calloc((size_t)(p.grid.steps * M + 1), sizeof *dW);
    double *rows = calloc((size_t)(p.grid.steps * dim), sizeof *rows);
    double *base = NULL;
    rc = slpi_fast_problem_initial_state(&p, x0, &err);
    if (rc == SLPI_OK) rc = slpi_oracle_increments(&p, p.grid.steps, dW, &err);
    TEST_CHECKF(rc == SLPI_OK, "'%s': %s", c->settings, err.msg);
    sweep_visit v = { c->settings, dim, rows, NULL, { 0, 0, -1, 0, 0 }, 0, 0 };
    if (rc != SLPI_OK || !fast_states(&p, x0, dW, rows, c->settings)) goto done;
    if (c->baseline) {
        /* the baseline on the same x0 and increments (it has the same M) */
        rc = ou_problem(c->settings, c->baseline, c->steps, &q, &err);
        TEST_CHECKF(rc == SLPI_OK && slpi_problem_noise_count(&q) <= M, "'%s' + '%s': %s", c->settings, c->baseline,
                    err.msg);
        base = calloc((size_t)(p.grid.steps * dim), sizeof *base);
        if (rc == SLPI_OK) {
            double *dWq = calloc((size_t)(p.grid.steps * M + 1), sizeof *dWq);
            int Mq = slpi_problem_noise_count(&q);
            for (long n = 0; n < p.grid.steps; n++)
                for (int k = 0; k < Mq; k++) dWq[n * Mq + k] = dW[n * M + k];
            if (fast_states(&q, x0, dWq, base, c->baseline)) v.other = base;
            free(dWq);
        }
    }
    long stops[3] = { 1, p.grid.steps / 2, p.grid.steps };
    int nstops = 0;
    for (int i = 0; i < 3; i++)
        if (nstops == 0 || stops[i] > stops[nstops - 1]) stops[nstops++] = stops[i];
    long done;
    rc = slpi_oracle_ref_walk(&p, x0, dW, stops, nstops, score_step, &v, &done, &err);
    TEST_CHECKF(rc == SLPI_OK && v.checked == nstops, "'%s': ref path: %s (%ld steps certified)", c->settings, err.msg,
                done);
    slpi_verdict verdict = slpi_score_verdict(&v.worst, SLPI_ORACLE_THRESHOLD);
    TEST_CHECKF(verdict == SLPI_VERDICT_PASS, "'%s': fast path %s: ratio in [%.3g, %.3g], threshold %g", c->settings,
                slpi_verdict_name(verdict), v.worst.lo, v.worst.hi, SLPI_ORACLE_THRESHOLD);
    if (v.other)
        TEST_CHECKF(v.moved > 100 * SLPI_ORACLE_THRESHOLD,
                    "'%s': the baseline '%s' is only %.3g from the ball: "
                    "the setting does not matter here",
                    c->settings, c->baseline, v.moved);
    printf("%-64s %3ld steps  ratio <= %-9.3g ulps %-5.0f baseline >= %-9.3g %.2f s\n", c->settings, p.grid.steps,
           v.worst.hi, v.worst.max_ulps, v.moved, seconds_now() - t0);
done:
    free(x0);
    free(dW);
    free(rows);
    free(base);
}

int main(void)
{
    test_start("t-sweep", 11);
    const char *only = getenv("SLPI_SWEEP_ONLY"); /* a substring of the settings */
    for (int i = 0; i < NCASES; i++)
        if (!only || strstr(cases[i].settings, only)) sweep_one(cases + i);
    TEST_END();
}
