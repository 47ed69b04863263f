/* mlmc.c — multilevel Monte Carlo estimates of E phi(X_T) to a requested RMSE eps
 * (docs/noise.md#mlmc; Giles, "Multilevel Monte Carlo path simulation", Oper. Res. 56(3),
 * 2008, Algorithm in §5), on the coupled levels of studies/converge.c.
 *
 * Level j = 0 is P_{l0} = phi(X at h = T 2^-l0); level j >= 1 (l = l0 + j) is
 * Y_j = P_l - P_{l-1}, the fine and the coarse scheme driven by the same Brownian path (the
 * coarse increments are the dyadic sums of the fine ones, truncated per level: the
 * coupling of `slpi converge`, which computes it: kmin = kmax = l - 1, ref = l). Level j's
 * paths are the canonical paths j 2^27, j 2^27 + 1, ..., so the levels are independent.
 * Level 0 is sampled here path by path (slpi_fast_step on the canonical increments of
 * h = T 2^-l0), at its own cost only. Under noise_tau a coloured component's increments
 * are its OU increments (docs/noise.md#ou-studies): at level 0 a plain run's at (h, refine
 * 0), above it the coupled levels' of studies/converge.c.
 *
 * The algorithm: start with levels 0..2 (plain: level 0 only), n0 pilot paths each; then
 * repeat: draw the paths each level still needs, N_j = ceil(2 eps^-2 sqrt(V_j/C_j)
 * sum_k sqrt(V_k C_k)) (V_j: the sample variance of Y_j; C_j: its steps per path, 2^l0 at
 * level 0 and 2^l + 2^(l-1) above), which makes the estimator's variance sum_j V_j/N_j at
 * most eps^2/2; when no level needs more, test the bias estimate
 * max(|m_top|, |m_top-1| / 2^alpha) / (2^alpha - 1) <= eps/sqrt(2) (m: the level means, the
 * second one only when it is a difference), and stop, or add a level with n0 pilot paths.
 * Stopped at lmax without the bias met, the result says converged = 0.
 *
 * A failed path (docs/noise.md#failed-paths) is left out of its level, counted, and
 * replaced by drawing more when the level needs them.
 *
 * Checkpoints: after every level's sampling the whole state (every level's drawn and
 * surviving paths, sums as %a, counts, and the paths still to draw in this round) is
 * written atomically after the estimate's parameters, format "slpi-mlmc-checkpoint" 2 in
 * the container of core/container.c (docs/design.md#checkpoints): a section "estimate",
 * lines "estimate KEY=VALUE", and a section "state", lines "levels L", "rounds R" and L
 * lines "level J DRAWN N S1 S2 P1 P2 FAILED CLIPPED PENDING"; version 1 ("slpi mlmc
 * checkpoint 1", no digest) is refused. Resume reloads it after checking the parameters
 * line by line. The state decides every later step, so a resumed estimate
 * prints the same bytes as an uninterrupted one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#ifdef _OPENMP
#include <omp.h>
#define OMP(x) _Pragma(#x)
#else
#define OMP(x)
#endif

#include "slpi/errors.h"
#include "slpi/process.h"
#include "slpi/problem.h"
#include "slpi/problem-finish.h"
#include "slpi/initial.h"
#include "slpi/problem-shape.h"
#include "slpi/noise.h"
#include "slpi/fast.h"
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/noise.h"
#include "core/checkpoint.h"
#include "core/clock.h"
#include "core/threads.h"
#include "studies/converge.h"
#include "studies/mlmc.h"

#define MLMC_CKPT_FORMAT "slpi-mlmc-checkpoint"
#define MLMC_CKPT_VERSION 2

void slpi_mlmc_init(slpi_mlmc_cfg *c, const slpi_problem *base)
{
    memset(c, 0, sizeof *c);
    slpi_conv_init(&c->conv, base);
    c->conv.kind = SLPI_CONV_WEAK;
    c->l0 = 3;
    c->lmax = 16;
    c->n0 = 200;
    c->alpha = 1;
}

static int level_of(const slpi_mlmc_cfg *c, int j)
{
    return c->l0 + j;
}

static double step_cost(const slpi_mlmc_cfg *c, int j)
{
    double fine = ldexp(1.0, level_of(c, j));
    return j == 0 ? fine : 1.5 * fine;
}

/* One path of level 0: phi of the state after 2^l steps of f, NaN when a step fails. ou:
 * the components' OU coefficients on h (tau 0: white), NULL when all are white: a
 * coloured component's increments are a plain run's at (h, refine 0). */
static double bottom_path(const slpi_mlmc_cfg *c, const slpi_expr *phi, slpi_fast *f, const slpi_problem *p,
                          const slpi_ou_coef *ou, uint64_t path, const double *x0, double *buf, long *clipped)
{
    int dim = slpi_problem_state_dim(p), M = slpi_problem_noise_count(p);
    size_t S = (size_t)1 << level_of(c, 0);
    double *x = buf + (size_t)M * S, *dW = x + dim, *carry = dW + M;
    const uint64_t seed = slpi_view_noise(p)->seed;
    for (int k = 0; k < M; k++) {
        double *lev[1] = { buf + (size_t)k * S };
        double eta = ou && ou[k].tau > 0 ? slpi_noise_ou_start(seed, path, (uint32_t)k, &ou[k]) : 0;
        if (ou && ou[k].tau > 0) {
            if (slpi_noise_ou_levels(seed, path, 1, (uint32_t)k, slpi_view_grid(p)->h, 0, &ou[k], &eta, 0, S, lev,
                                     NULL) != SLPI_OK)
                return NAN;
        } else {
            slpi_noise_levels(seed, path, 1, (uint32_t)k, slpi_view_grid(p)->h, 0, 0, S, lev);
        }
    }
    if (slpi_problem_truncates(p))
        *clipped += slpi_noise_clip(buf, (size_t)M * S,
                                    slpi_noise_threshold(slpi_view_grid(p)->h, slpi_view_noise(p)->trunc_ell));
    memcpy(x, x0, (size_t)dim * sizeof *x);
    int nc = slpi_fast_carry_get(f, NULL);
    if (nc > 0) { /* a cold start, as every path of a study */
        memset(carry, 0, (size_t)nc * sizeof *carry);
        slpi_fast_carry_set(f, x, carry, nc);
    }
    for (size_t t = 0; t < S; t++) {
        for (int k = 0; k < M; k++) dW[k] = buf[(size_t)k * S + t];
        slpi_step_info info = { 0 };
        slpi_fast_set_step_index(f, (long)t);
        if (slpi_step_failed(slpi_fast_step(f, x, dW, &info))) return NAN;
    }
    return slpi_conv_phi_eval(&c->conv, phi, x, dim);
}

/* *ou: the coloured components' coefficients on level 0's step (docs/noise.md#ou-studies),
 * or NULL when the noise is white. */
static int bottom_ou(const slpi_problem *p, slpi_ou_coef **ou, slpi_error *err)
{
    int M = slpi_problem_noise_count(p), rc = SLPI_OK;
    double *tau = malloc((size_t)(M > 0 ? M : 1) * sizeof *tau);
    int any = tau ? slpi_problem_noise_tau(p, tau, err) : slpi_error_set(err, SLPI_EINPUT, "mlmc: out of memory");
    if (any > 0 && !(*ou = calloc((size_t)M, sizeof **ou)))
        rc = slpi_error_set(err, SLPI_EINPUT, "mlmc: out of memory");
    for (int k = 0; any > 0 && rc == SLPI_OK && k < M; k++)
        if (tau[k] > 0 && slpi_noise_ou_coef(&(*ou)[k], tau[k], slpi_view_grid(p)->h) != 0)
            rc = slpi_error_set(err, SLPI_EINPUT, "mlmc: noise_tau=%g on the step %g: no OU coefficients", tau[k],
                                slpi_view_grid(p)->h);
    free(tau);
    return any < 0 ? SLPI_EINPUT : rc;
}

int slpi_mlmc_bottom(const slpi_mlmc_cfg *c, const slpi_expr *phi, uint64_t path0, long n, double *v, long *clipped,
                     slpi_error *err)
{
    slpi_problem *p = slpi_problem_dup(c->conv.base);
    if (!p) return slpi_error_set(err, SLPI_EINPUT, "mlmc: out of memory");
    slpi_view_grid_edit(p)->level = level_of(c, 0);
    slpi_view_noise_edit(p)->refine = 0;
    slpi_view_noise_edit(p)->noise_file[0] = 0;
    int nt = 1, rc = slpi_problem_finish(p, err);
    if (rc == SLPI_OK) rc = slpi_threads_resolve(c->conv.threads, "mlmc", &nt, err);
    if (rc != SLPI_OK) {
        slpi_problem_free(p);
        return rc;
    }
    int dim = slpi_problem_state_dim(p), M = slpi_problem_noise_count(p), bad = SLPI_OK;
    size_t S = (size_t)1 << slpi_view_grid(p)->level;
    slpi_ou_coef *ou = NULL;
    if ((bad = bottom_ou(p, &ou, err)) != SLPI_OK) {
        slpi_problem_free(p);
        return bad;
    }
    long clip = 0;
    slpi_error first = { 0, "" };
    OMP(omp parallel num_threads(nt) reduction(+ : clip))
    {
        slpi_fast *f = NULL;
        slpi_error e = { 0, "" };
        int wrc = slpi_fast_create(&f, p, &e);
        int nc = wrc == SLPI_OK ? slpi_fast_carry_get(f, NULL) : 0;
        double *buf =
            malloc(((size_t)(M > 0 ? M : 1) * S + 3 * (size_t)dim + (size_t)M + (size_t)nc + 1) * sizeof *buf);
        double *x0 = buf ? buf + (size_t)(M > 0 ? M : 1) * S + 2 * (size_t)dim + (size_t)M + (size_t)nc + 1 : NULL;
        if (wrc == SLPI_OK && !buf)
            wrc = slpi_error_set(&e, SLPI_EINPUT, "mlmc: out of memory (2^%d steps)", slpi_view_grid(p)->level);
        if (wrc == SLPI_OK) {
            int given = slpi_problem_explicit_x0(p, x0, &e);
            if (given < 0)
                wrc = SLPI_EINPUT;
            else if (!given)
                wrc = slpi_fast_initial_state(f, x0, &e);
        }
        OMP(omp for schedule(dynamic, 16))
        for (long i = 0; i < n; i++) {
            if (wrc == SLPI_OK && slpi_interrupt_pending())
                wrc = slpi_error_set(&e, SLPI_EINTR, "mlmc: interrupted at level %d", slpi_view_grid(p)->level);
            if (wrc != SLPI_OK) continue;
            v[i] = bottom_path(c, phi, f, p, ou, path0 + (uint64_t)i, x0, buf, &clip);
        }
        OMP(omp critical)
        if (wrc != SLPI_OK && bad == SLPI_OK) {
            bad = wrc;
            first = e;
        }
        free(buf);
        slpi_fast_free(f);
    }
    slpi_problem_free(p);
    free(ou);
    *clipped += clip;
    if (bad != SLPI_OK) *err = first;
    return bad;
}

/* Draw n more paths of level j into r's sums. */
static int sample_level(const slpi_mlmc_cfg *c, const slpi_expr *phi, int j, long n, slpi_mlmc_result *r,
                        slpi_error *err)
{
    uint64_t path0 = (uint64_t)j * SLPI_MLMC_LEVEL_PATHS + (uint64_t)r->drawn[j];
    double t0 = slpi_clock_seconds(CLOCK_MONOTONIC);
    if ((uint64_t)r->drawn[j] + (uint64_t)n > SLPI_MLMC_LEVEL_PATHS)
        return slpi_error_set(err, SLPI_EINPUT, "mlmc: level %d needs more than 2^27 paths: ask a larger rmse",
                              level_of(c, j));
    if (j == 0) {
        double *v = malloc((size_t)n * sizeof *v);
        if (!v) return slpi_error_set(err, SLPI_EINPUT, "mlmc: out of memory (%ld paths)", n);
        int rc = slpi_mlmc_bottom(c, phi, path0, n, v, &r->clipped[0], err);
        for (long i = 0; rc == SLPI_OK && i < n; i++) { /* in path order: any thread count */
            if (!isfinite(v[i])) {
                r->failed[0]++;
                continue;
            }
            r->n[0]++;
            r->s1[0] += v[i];
            r->s2[0] += v[i] * v[i];
        }
        free(v);
        if (rc != SLPI_OK) return rc;
        r->p1[0] = r->s1[0];
        r->p2[0] = r->s2[0];
    } else {
        slpi_conv_cfg cc = c->conv;
        cc.kind = SLPI_CONV_WEAK;
        cc.kmin = cc.kmax = level_of(c, j) - 1;
        cc.L = level_of(c, j);
        cc.paths = n;
        cc.path0 = path0;
        cc.batches = 0;
        cc.boot = 0;
        cc.indep = cc.exact = 0;
        cc.checkpoint = cc.resume = NULL;
        cc.rank = 0;
        cc.nranks = 1;
        slpi_conv_result res;
        int rc = slpi_conv_run(&cc, NULL, NULL, &res, err);
        if (rc != SLPI_OK) return rc;
        double m = -res.cell[SLPI_CONV_SELF][0].mean, var = res.cell[SLPI_CONV_SELF][0].var, k = (double)res.paths;
        const slpi_conv_cell *pf = &res.cell[SLPI_CONV_PHI][1]; /* phi at level l: the reference */
        r->n[j] += res.paths;
        r->s1[j] += m * k;
        r->s2[j] += var * (k - 1) + m * m * k;
        r->p1[j] += pf->mean * k;
        r->p2[j] += pf->var * (k - 1) + pf->mean * pf->mean * k;
        r->failed[j] += res.failed;
        r->clipped[j] += res.clipped;
    }
    r->drawn[j] += n;
    r->seconds[j] += slpi_clock_seconds(CLOCK_MONOTONIC) - t0;
    return SLPI_OK;
}

void slpi_mlmc_summary(const slpi_mlmc_cfg *c, slpi_mlmc_result *r)
{
    r->estimate = 0;
    r->total_cost = 0;
    double v = 0;
    for (int j = 0; j < r->nlev; j++) {
        double n = (double)r->n[j];
        r->mean[j] = n > 0 ? r->s1[j] / n : NAN;
        r->var[j] = n > 1 ? fmax(0, (r->s2[j] - r->s1[j] * r->s1[j] / n) / (n - 1)) : NAN;
        r->cost[j] = step_cost(c, j);
        r->estimate += r->mean[j];
        v += n > 0 ? r->var[j] / n : NAN;
        r->total_cost += (double)r->drawn[j] * r->cost[j];
    }
    r->se = sqrt(v);
    int top = r->nlev - 1;
    double a = pow(2.0, c->alpha);
    r->bias = NAN;
    if (top >= 1) {
        r->bias = fabs(r->mean[top]);
        if (top >= 2) r->bias = fmax(r->bias, fabs(r->mean[top - 1]) / a);
        r->bias /= a - 1;
    }
    double n = (double)r->n[top];
    r->var_fine = n > 1 ? fmax(0, (r->p2[top] - r->p1[top] * r->p1[top] / n) / (n - 1)) : NAN;
    r->mc_cost = ceil(2 * r->var_fine / (c->rmse * c->rmse)) * ldexp(1.0, level_of(c, top));
}

long slpi_mlmc_paths_needed(const slpi_mlmc_cfg *c, const slpi_mlmc_result *r, int j)
{
    double s = 0;
    for (int k = 0; k < r->nlev; k++) s += sqrt(r->var[k] * r->cost[k]);
    double need = ceil(2 / (c->rmse * c->rmse) * sqrt(r->var[j] / r->cost[j]) * s);
    return need > (double)SLPI_MLMC_LEVEL_PATHS ? (long)SLPI_MLMC_LEVEL_PATHS + 1 : (long)need;
}

/* ------------------------------------------------------------------ checkpoints */

char *slpi_mlmc_identity(const slpi_mlmc_cfg *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return NULL;
    fprintf(m, "rmse=%a\nl0=%d\nlmax=%d\nn0=%ld\nalpha=%a\nplain=%d\nphi=%s\n", c->rmse, c->l0, c->lmax, c->n0,
            c->alpha, c->plain, slpi_conv_phi_name(&c->conv));
    slpi_problem_write(c->conv.base, m, "problem.");
    fclose(m);
    return buf;
}

static int ckpt_write(const slpi_mlmc_cfg *c, const char *id, const slpi_mlmc_result *r, slpi_error *err)
{
    slpi_checkpoint_writer w;
    if (!slpi_checkpoint_begin(&w))
        return slpi_error_set(err, SLPI_EINPUT, "mlmc: --checkpoint %s: out of memory", c->checkpoint);
    slpi_checkpoint_section(&w, "estimate");
    for (const char *s = id; *s;) {
        size_t k = strcspn(s, "\n");
        fprintf(w.f, "estimate %.*s\n", (int)k, s);
        s += k + (s[k] == '\n');
    }
    slpi_checkpoint_section(&w, "state");
    fprintf(w.f, "levels %d\nrounds %d\n", r->nlev, r->rounds);
    for (int j = 0; j < r->nlev; j++)
        fprintf(w.f, "level %d %ld %ld %a %a %a %a %ld %ld %ld\n", j, r->drawn[j], r->n[j], r->s1[j], r->s2[j],
                r->p1[j], r->p2[j], r->failed[j], r->clipped[j], r->pending[j]);
    return slpi_checkpoint_commit(&w, c->checkpoint, MLMC_CKPT_FORMAT, MLMC_CKPT_VERSION, err);
}

int slpi_mlmc_ckpt_same(slpi_checkpoint_reader *rd, const char *id)
{
    const char *want = id;
    while (*want) {
        size_t k = strcspn(want, "\n");
        char *v = slpi_checkpoint_value(rd, "estimate"), msg[600];
        if (!v) return SLPI_EINPUT;
        if (strlen(v) != k || strncmp(v, want, k) != 0) {
            snprintf(msg, sizeof msg, "another estimate (it has %.250s, this one %.*s)", v, (int)(k < 250 ? k : 250),
                     want);
            return slpi_checkpoint_fail(rd, "%s", msg);
        }
        want += k + (want[k] == '\n');
    }
    return SLPI_OK;
}

static int ckpt_read(const slpi_mlmc_cfg *c, const char *id, slpi_mlmc_result *r, slpi_error *err)
{
    slpi_checkpoint_reader rd;
    int rc = slpi_checkpoint_open(&rd, c->resume, MLMC_CKPT_FORMAT, MLMC_CKPT_VERSION, err);
    if (rc != SLPI_OK) return rc;
    long nlev = 0, rounds = 0;
    rc = slpi_mlmc_ckpt_same(&rd, id);
    if (rc == SLPI_OK &&
        (slpi_checkpoint_long(&rd, "levels", 1, c->lmax - c->l0 + 1, &nlev) != SLPI_OK ||
         slpi_checkpoint_long(&rd, "rounds", 0, 1L << 30, &rounds) != SLPI_OK))
        rc = SLPI_EINPUT;
    r->nlev = (int)nlev;
    r->rounds = (int)rounds;
    for (int j = 0; rc == SLPI_OK && j < r->nlev; j++) {
        char *v = slpi_checkpoint_value(&rd, "level");
        int jj, used = -1;
        if (!v)
            rc = SLPI_EINPUT;
        else if (sscanf(v, "%d %ld %ld %la %la %la %la %ld %ld %ld%n", &jj, &r->drawn[j], &r->n[j], &r->s1[j],
                        &r->s2[j], &r->p1[j], &r->p2[j], &r->failed[j], &r->clipped[j], &r->pending[j], &used) != 10 ||
                 jj != j || v[used] != '\0')
            rc = slpi_checkpoint_fail(&rd, "level %s: expected its index, 2 counts, 4 %%a sums and 3 counts", v);
        else
            r->resumed += r->drawn[j];
    }
    if (rc == SLPI_OK) rc = slpi_checkpoint_last(&rd);
    slpi_checkpoint_close(&rd);
    return rc;
}

/* ------------------------------------------------------------------ the algorithm */

static int check_cfg(const slpi_mlmc_cfg *c, slpi_error *err)
{
    if (!(c->rmse > 0) || !isfinite(c->rmse))
        return slpi_error_set(err, SLPI_EINPUT, "mlmc: rmse=%g: need a positive requested RMSE (--rmse E)", c->rmse);
    if (c->l0 < 0 || c->lmax < c->l0 || c->lmax > 24 || c->lmax - c->l0 + 1 > SLPI_MLMC_MAXLEV)
        return slpi_error_set(err, SLPI_EINPUT, "mlmc: levels %d..%d: need 0 <= l0 <= lmax <= 24", c->l0, c->lmax);
    if (c->n0 < 2 || c->n0 > 1L << 24)
        return slpi_error_set(err, SLPI_EINPUT, "mlmc: n0=%ld: need 2..2^24 pilot paths", c->n0);
    if (!(c->alpha > 0) || c->alpha > 8)
        return slpi_error_set(err, SLPI_EINPUT, "mlmc: alpha=%g: need a weak order in (0, 8]", c->alpha);
    if (c->conv.phi == SLPI_PHI_FN && (c->checkpoint || c->resume))
        return slpi_error_set(err, SLPI_EINPUT,
                              "mlmc: a callable phi has no text a checkpoint can name; "
                              "give phi as an expression, or no checkpoint");
    return SLPI_OK;
}

/* The next round: the paths each level still needs (1: some; 0: none). */
static int plan_round(const slpi_mlmc_cfg *c, slpi_mlmc_result *r, slpi_error *err, int *rc)
{
    int more = 0;
    slpi_mlmc_summary(c, r);
    for (int j = 0; j < r->nlev; j++) {
        if (r->n[j] < 2) {
            *rc = slpi_error_set(err, SLPI_ENUMERIC,
                                 "mlmc: level %d: %ld of %ld paths failed (docs/noise.md#failed-paths)", level_of(c, j),
                                 r->failed[j], r->drawn[j]);
            return 0;
        }
        long need = slpi_mlmc_paths_needed(c, r, j);
        r->pending[j] = need > r->n[j] ? (need - r->n[j] < 2 ? 2 : need - r->n[j]) : 0;
        more |= r->pending[j] > 0;
    }
    return more;
}

static int run(const slpi_mlmc_cfg *c, const slpi_expr *phi, slpi_mlmc_result *r, slpi_error *err)
{
    char *id = c->checkpoint || c->resume ? slpi_mlmc_identity(c) : NULL;
    int rc = (c->checkpoint || c->resume) && !id ? slpi_error_set(err, SLPI_EINPUT, "mlmc: out of memory") : SLPI_OK;
    if (rc == SLPI_OK && c->resume)
        rc = ckpt_read(c, id, r, err);
    else if (rc == SLPI_OK) {
        r->nlev = c->plain ? 1 : (c->lmax - c->l0 + 1 < 3 ? c->lmax - c->l0 + 1 : 3);
        for (int j = 0; j < r->nlev; j++) r->pending[j] = c->n0;
    }
    if (rc == SLPI_OK && c->checkpoint) rc = ckpt_write(c, id, r, err);
    while (rc == SLPI_OK) {
        for (int j = 0; j < r->nlev && rc == SLPI_OK; j++) {
            if (r->pending[j] <= 0) continue;
            if ((rc = sample_level(c, phi, j, r->pending[j], r, err)) != SLPI_OK) break;
            r->pending[j] = 0;
            if (c->checkpoint) rc = ckpt_write(c, id, r, err);
        }
        if (rc != SLPI_OK) break;
        r->rounds++;
        if (plan_round(c, r, err, &rc) || rc != SLPI_OK) {
            if (rc == SLPI_OK && c->checkpoint) rc = ckpt_write(c, id, r, err);
            continue;
        }
        if (c->plain || r->bias <= c->rmse / sqrt(2.0)) {
            r->converged = 1;
            break;
        }
        if (level_of(c, r->nlev - 1) == c->lmax) break; /* converged = 0: the bias not met */
        r->pending[r->nlev++] = c->n0;
        if (c->checkpoint) rc = ckpt_write(c, id, r, err);
    }
    free(id);
    if (rc == SLPI_OK) slpi_mlmc_summary(c, r);
    return rc;
}

int slpi_mlmc_run(const slpi_mlmc_cfg *c, slpi_mlmc_result *r, slpi_error *err)
{
    memset(r, 0, sizeof *r);
    int rc = slpi_problem_many_paths(c->conv.base, 0, "mlmc", NULL, err);
    if (rc == SLPI_OK) rc = check_cfg(c, err);
    if (rc != SLPI_OK) return rc;
    double t0 = slpi_clock_seconds(CLOCK_MONOTONIC);
    slpi_expr phi;
    memset(&phi, 0, sizeof phi);
    if (c->conv.phi == SLPI_PHI_EXPR &&
        (rc = slpi_conv_phi_parse(&phi, c->conv.base, c->conv.phi_text, err)) != SLPI_OK) {
        slpi_expr_free(&phi);
        return rc;
    }
    rc = run(c, &phi, r, err);
    slpi_expr_free(&phi);
    r->wall = slpi_clock_seconds(CLOCK_MONOTONIC) - t0;
    return rc;
}
