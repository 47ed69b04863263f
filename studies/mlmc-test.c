/* mlmc-test.c — `slpi mlmc --test`, Giles' mlmc_test (docs/noise.md#mlmc-test; M. B. Giles,
 * "Multilevel Monte Carlo methods", Acta Numerica 24, 2015, §3 and its mlmc_test routine):
 * is a problem fit for MLMC, and what would it cost?
 *
 * Every level l = l0..lmax draws the same number of paths (level j = l - l0 the canonical
 * paths j 2^27 + n, as studies/mlmc.c): level l0 with slpi_mlmc_bottom, the levels above
 * with the lock-step engine of studies/converge-paths.c at coarse level l - 1 and
 * reference l, the engine slpi_mlmc's upper levels go through (slpi_conv_run), so each
 * path's P_l and P_l-1 are bit for bit those of `slpi mlmc`. Each surviving path's Y_l
 * (P_l0 at l0, P_l - P_l-1 above) and P_l enter running central moments in path order by
 * Pebay's one-pass update (slpi_mlmc_moments_add): no power sum is ever formed, so the
 * kurtosis of a sample whose mean is large against its spread keeps its digits, and the
 * result does not depend on the thread count.
 *
 * Checkpoints: after every chunk of MLMC_TEST_CHUNK paths, format
 * "slpi-mlmc-test-checkpoint" 1 in the container of core/container.c: a section
 * "estimate" (slpi_mlmc_identity's lines and "paths=N"), a section "state", lines
 * "levels L" and L lines "level J DRAWN N FAILED CLIPPED YMEAN YM2 YM3 YM4 PMEAN PM2"
 * (doubles as %a). The state decides every later step, so a resumed test prints the
 * bytes of an uninterrupted one. The sweep of eps is computed at the end from the
 * moments, so another eps resumes the same checkpoint. */
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
#include "slpi/problem.h"
#include "slpi/problem-shape.h"
#include "core/checkpoint.h"
#include "core/clock.h"
#include "core/threads.h"
#include "studies/converge.h"
#include "studies/mlmc.h"

#define TEST_CKPT_FORMAT "slpi-mlmc-test-checkpoint"
#define TEST_CKPT_VERSION 1
enum { MLMC_TEST_CHUNK = 1024 };

void slpi_mlmc_test_init(slpi_mlmc_test_cfg *c, const slpi_problem *base)
{
    memset(c, 0, sizeof *c);
    slpi_mlmc_init(&c->m, base);
    c->m.lmax = 8;
    c->paths = 2000;
    c->neps = 3;
    c->eps[0] = 0.02;
    c->eps[1] = 0.01;
    c->eps[2] = 0.005;
}

/* Pebay, "Formulas for robust, one-pass parallel computation of covariances and
 * arbitrary-order statistical moments", Sandia report SAND2008-6212, eq. (2.2)-(2.4) with
 * one new value. */
void slpi_mlmc_moments_add(slpi_mlmc_moments *s, double x)
{
    double n1 = s->n, n = n1 + 1, d = x - s->mean, dn = d / n, dn2 = dn * dn, t = d * dn * n1;
    s->n = n;
    s->mean += dn;
    s->m4 += t * dn2 * (n * n - 3 * n + 3) + 6 * dn2 * s->m2 - 4 * dn * s->m3;
    s->m3 += t * dn * (n - 2) - 3 * dn * s->m2;
    s->m2 += t;
}

static double step_cost(const slpi_mlmc_test_cfg *c, int l)
{
    return l == c->m.l0 ? ldexp(1.0, l) : 1.5 * ldexp(1.0, l);
}

/* n paths of level l > l0 from path0 through the converge engine (coarse l - 1, reference
 * l): P_l into pf and P_l - P_l-1 into y, NaN for a failed path. */
static int sample_upper(const slpi_mlmc_test_cfg *c, const slpi_expr *phi, int l, uint64_t path0, long n, double *y,
                        double *pf, long *clipped, slpi_error *err)
{
    slpi_conv_cfg cc = c->m.conv;
    cc.kind = SLPI_CONV_WEAK;
    cc.kmin = cc.kmax = l - 1;
    cc.L = l;
    cc.indep = cc.exact = 0;
    slpi_conv_layout ly = { .nlev = 1, .nl1 = 2, .nq = 2 * SLPI_CONV_NCOL, .phi = phi };
    ly.stride = 2 * ly.nq + Q_EXTRA;
    ly.dim = slpi_problem_state_dim(cc.base);
    ly.M = slpi_problem_noise_count(cc.base);
    ly.trunc = slpi_problem_truncates(cc.base);
    int nt = 1, bad = slpi_threads_resolve(cc.threads, "mlmc", &nt, err);
    if (bad != SLPI_OK) return bad;
    long nblk = (n + BLOCK_MAX - 1) / BLOCK_MAX, clip = 0;
    slpi_error first = { 0, "" };
    OMP(omp parallel num_threads(nt) reduction(+ : clip))
    {
        slpi_conv_worker w;
        slpi_error e = { 0, "" };
        int wrc = slpi_conv_worker_init(&w, &cc, &ly, &e);
        OMP(omp for schedule(dynamic, 1))
        for (long b = 0; b < nblk; b++) {
            for (long r = b * BLOCK_MAX; wrc == SLPI_OK && r < n && r < (b + 1) * BLOCK_MAX; r += w.B) {
                long end = (b + 1) * BLOCK_MAX < n ? (b + 1) * BLOCK_MAX : n;
                int k = end - r < w.B ? (int)(end - r) : w.B;
                w.clipped = 0;
                wrc = slpi_conv_run_block(&w, &cc, &ly, path0 + (uint64_t)r, k, &e);
                clip += w.clipped;
                for (int q = 0; wrc == SLPI_OK && q < k; q++) {
                    const double *v = w.val + (size_t)q * (size_t)ly.nq + SLPI_CONV_PHI * ly.nl1;
                    pf[r + q] = w.lost[q] ? NAN : v[1];
                    y[r + q] = w.lost[q] ? NAN : v[1] - v[0];
                }
            }
        }
        OMP(omp critical)
        if (wrc != SLPI_OK && bad == SLPI_OK) {
            bad = wrc;
            first = e;
        }
        if (wrc == SLPI_OK) slpi_conv_worker_free(&w);
    }
    *clipped += clip;
    if (bad != SLPI_OK) *err = first;
    return bad;
}

/* The next chunk of level j into r's moments, in path order. */
static int sample_chunk(const slpi_mlmc_test_cfg *c, const slpi_expr *phi, int j, slpi_mlmc_test_result *r,
                        slpi_error *err)
{
    long n = c->paths - r->drawn[j] < MLMC_TEST_CHUNK ? c->paths - r->drawn[j] : MLMC_TEST_CHUNK;
    uint64_t path0 = (uint64_t)j * SLPI_MLMC_LEVEL_PATHS + (uint64_t)r->drawn[j];
    double *y = malloc(2 * (size_t)n * sizeof *y), *pf = y ? y + n : NULL, t0 = slpi_clock_seconds(CLOCK_MONOTONIC);
    if (!y) return slpi_error_set(err, SLPI_EINPUT, "mlmc: out of memory (%ld paths)", n);
    int rc = j == 0 ? slpi_mlmc_bottom(&c->m, phi, path0, n, pf, &r->clipped[0], err)
                    : sample_upper(c, phi, c->m.l0 + j, path0, n, y, pf, &r->clipped[j], err);
    for (long i = 0; rc == SLPI_OK && i < n; i++) {
        double yi = j == 0 ? pf[i] : y[i];
        if (!isfinite(yi) || !isfinite(pf[i])) {
            r->failed[j]++;
            continue;
        }
        slpi_mlmc_moments_add(&r->y[j], yi);
        slpi_mlmc_moments_add(&r->p[j], pf[i]);
    }
    free(y);
    if (rc == SLPI_OK) r->drawn[j] += n;
    r->seconds[j] += slpi_clock_seconds(CLOCK_MONOTONIC) - t0;
    return rc;
}

/* ------------------------------------------------------------------ checkpoints */

static char *test_identity(const slpi_mlmc_test_cfg *c)
{
    char *id = slpi_mlmc_identity(&c->m);
    size_t k = id ? strlen(id) + 40 : 0;
    char *out = id ? malloc(k) : NULL;
    if (out) snprintf(out, k, "%stest paths=%ld\n", id, c->paths);
    free(id);
    return out;
}

static int ckpt_write(const slpi_mlmc_test_cfg *c, const char *id, const slpi_mlmc_test_result *r, slpi_error *err)
{
    slpi_checkpoint_writer w;
    if (!slpi_checkpoint_begin(&w))
        return slpi_error_set(err, SLPI_EINPUT, "mlmc: --checkpoint %s: out of memory", c->m.checkpoint);
    slpi_checkpoint_section(&w, "estimate");
    for (const char *s = id; *s;) {
        size_t k = strcspn(s, "\n");
        fprintf(w.f, "estimate %.*s\n", (int)k, s);
        s += k + (s[k] == '\n');
    }
    slpi_checkpoint_section(&w, "state");
    fprintf(w.f, "levels %d\n", r->nlev);
    for (int j = 0; j < r->nlev; j++)
        fprintf(w.f, "level %d %ld %.0f %ld %ld %a %a %a %a %a %a\n", j, r->drawn[j], r->y[j].n, r->failed[j],
                r->clipped[j], r->y[j].mean, r->y[j].m2, r->y[j].m3, r->y[j].m4, r->p[j].mean, r->p[j].m2);
    return slpi_checkpoint_commit(&w, c->m.checkpoint, TEST_CKPT_FORMAT, TEST_CKPT_VERSION, err);
}

static int ckpt_read(const slpi_mlmc_test_cfg *c, const char *id, slpi_mlmc_test_result *r, slpi_error *err)
{
    slpi_checkpoint_reader rd;
    int rc = slpi_checkpoint_open(&rd, c->m.resume, TEST_CKPT_FORMAT, TEST_CKPT_VERSION, err);
    if (rc != SLPI_OK) return rc;
    long nlev = 0;
    rc = slpi_mlmc_ckpt_same(&rd, id);
    if (rc == SLPI_OK && slpi_checkpoint_long(&rd, "levels", 1, c->m.lmax - c->m.l0 + 1, &nlev) != SLPI_OK)
        rc = SLPI_EINPUT;
    r->nlev = (int)nlev;
    for (int j = 0; rc == SLPI_OK && j < r->nlev; j++) {
        char *v = slpi_checkpoint_value(&rd, "level");
        int jj, used = -1;
        long n = -1;
        if (!v)
            rc = SLPI_EINPUT;
        else if (sscanf(v, "%d %ld %ld %ld %ld %la %la %la %la %la %la%n", &jj, &r->drawn[j], &n, &r->failed[j],
                        &r->clipped[j], &r->y[j].mean, &r->y[j].m2, &r->y[j].m3, &r->y[j].m4, &r->p[j].mean,
                        &r->p[j].m2, &used) != 11 ||
                 jj != j || v[used] != '\0' || n < 0 || r->drawn[j] > c->paths || n + r->failed[j] != r->drawn[j])
            rc = slpi_checkpoint_fail(&rd,
                                      "level %s: expected its index, 4 counts (paths drawn = kept + failed) "
                                      "and 6 %%a moments",
                                      v);
        else {
            r->y[j].n = r->p[j].n = (double)n;
            r->resumed += r->drawn[j];
        }
    }
    if (rc == SLPI_OK) rc = slpi_checkpoint_last(&rd);
    slpi_checkpoint_close(&rd);
    return rc;
}

/* ------------------------------------------------------------------ the summary */

/* Minus the OLS slope of log2 v_j on l over the levels l0 + 1.. with v_j > 0 (into *n). */
static double rate(const slpi_mlmc_test_cfg *c, const slpi_mlmc_test_result *r, const double *v, int *n)
{
    double h[SLPI_MLMC_MAXLEV], e[SLPI_MLMC_MAXLEV], slope, icpt;
    int use[SLPI_MLMC_MAXLEV];
    for (int j = 1; j < r->nlev; j++) {
        h[j - 1] = ldexp(1.0, -(c->m.l0 + j));
        e[j - 1] = fabs(v[j]);
        use[j - 1] = 1;
    }
    *n = slpi_stats_wls(r->nlev - 1, h, e, NULL, use, &slope, &icpt);
    return slope;
}

/* |E Y_l| and V Y_l of level l0 + j: measured up to the top level, then extrapolated from
 * it with the rates a and b (docs/noise.md#mlmc-test). */
static double ext(const slpi_mlmc_test_result *r, const double *v, int j, double rt)
{
    int top = r->nlev - 1;
    return j <= top ? fabs(v[j]) : fabs(v[top]) * exp2(-rt * (j - top));
}

double slpi_mlmc_test_paths(const slpi_mlmc_test_cfg *c, const slpi_mlmc_test_result *r, int L, int j, double e)
{
    double b = fmax(0.5, r->beta), s = 0;
    for (int k = 0; k <= L - c->m.l0; k++) s += sqrt(ext(r, r->var, k, b) * step_cost(c, c->m.l0 + k));
    double need = ceil(2 / (e * e) * sqrt(ext(r, r->var, j, b) / step_cost(c, c->m.l0 + j)) * s);
    return need < 1 ? 1 : need;
}

/* The sweep: per eps the finest level L >= l0 + 2 whose bias estimate
 * max(|m_L|, |m_L-1| / 2^a) / (2^a - 1) is <= eps / sqrt 2 (a = max(0.5, alpha)), the
 * steps of MLMC over l0..L and plain MC's at L. */
static void sweep(const slpi_mlmc_test_cfg *c, slpi_mlmc_test_result *r)
{
    double a = fmax(0.5, r->alpha), pa = exp2(a);
    for (int i = 0; i < c->neps; i++) {
        double e = c->eps[i];
        r->sweep_level[i] = -1;
        r->mlmc_cost[i] = r->mc_cost[i] = NAN;
        for (int L = c->m.l0 + 2; L <= 24 && L - c->m.l0 < SLPI_MLMC_MAXLEV; L++) {
            int j = L - c->m.l0;
            double bias = fmax(ext(r, r->mean, j, a), ext(r, r->mean, j - 1, a) / pa) / (pa - 1);
            if (!(bias <= e / sqrt(2.0))) continue;
            r->sweep_level[i] = L;
            r->mlmc_cost[i] = 0;
            for (int k = 0; k <= j; k++)
                r->mlmc_cost[i] += slpi_mlmc_test_paths(c, r, L, k, e) * step_cost(c, c->m.l0 + k);
            double vp = r->var_p[j < r->nlev ? j : r->nlev - 1];
            r->mc_cost[i] = ceil(2 * vp / (e * e)) * ldexp(1.0, L);
            break;
        }
    }
}

void slpi_mlmc_test_summary(const slpi_mlmc_test_cfg *c, slpi_mlmc_test_result *r)
{
    r->check_flag = r->kurt_flag = 0;
    double worst = 1;
    for (int j = 0; j < r->nlev; j++) {
        const slpi_mlmc_moments *y = &r->y[j], *p = &r->p[j];
        r->mean[j] = y->n > 0 ? y->mean : NAN;
        r->var[j] = y->n > 1 ? y->m2 / (y->n - 1) : NAN;
        r->kurt[j] = j > 0 && y->m2 > 0 ? y->n * y->m4 / (y->m2 * y->m2) : NAN;
        r->mean_p[j] = p->n > 0 ? p->mean : NAN;
        r->var_p[j] = p->n > 1 ? p->m2 / (p->n - 1) : NAN;
        r->cost[j] = step_cost(c, c->m.l0 + j);
        r->check[j] = NAN;
        if (j == 0) continue;
        double den = 3 * (sqrt(r->var[j] / y->n) + sqrt(r->var_p[j] / p->n) + sqrt(r->var_p[j - 1] / r->p[j - 1].n));
        r->check[j] = fabs(r->mean[j] - r->mean_p[j] + r->mean_p[j - 1]) / den;
        if (r->check[j] > worst) {
            worst = r->check[j];
            r->check_flag = j + 1;
        }
    }
    r->kurt_flag = r->nlev > 1 && r->kurt[r->nlev - 1] > 100;
    r->alpha = rate(c, r, r->mean, &r->nfit[0]);
    r->beta = rate(c, r, r->var, &r->nfit[1]);
    r->gamma = -rate(c, r, r->cost, &r->nfit[2]);
    sweep(c, r);
}

/* ------------------------------------------------------------------ the run */

static int check_cfg(const slpi_mlmc_test_cfg *c, slpi_error *err)
{
    const slpi_mlmc_cfg *m = &c->m;
    if (m->l0 < 0 || m->lmax > 24 || m->lmax < m->l0 + 2)
        return slpi_error_set(err, SLPI_EINPUT,
                              "mlmc test: levels %d..%d: need 0 <= l0 and l0 + 2 <= L <= 24 (the rates are "
                              "fitted to the levels above l0, two at least)",
                              m->l0, m->lmax);
    if (c->paths < 2 || c->paths > (long)SLPI_MLMC_LEVEL_PATHS)
        return slpi_error_set(err, SLPI_EINPUT, "mlmc test: paths=%ld: need 2..2^27 paths per level", c->paths);
    if (c->neps < 1 || c->neps > SLPI_MLMC_TEST_MAXEPS)
        return slpi_error_set(err, SLPI_EINPUT, "mlmc test: %d requested RMSEs: need 1..%d", c->neps,
                              SLPI_MLMC_TEST_MAXEPS);
    for (int i = 0; i < c->neps; i++)
        if (!(c->eps[i] > 0) || !isfinite(c->eps[i]))
            return slpi_error_set(err, SLPI_EINPUT, "mlmc test: eps %g: need positive requested RMSEs", c->eps[i]);
    if (m->conv.phi == SLPI_PHI_FN && (m->checkpoint || m->resume))
        return slpi_error_set(err, SLPI_EINPUT,
                              "mlmc test: a callable phi has no text a checkpoint can name; "
                              "give phi as an expression, or no checkpoint");
    return SLPI_OK;
}

static int run(const slpi_mlmc_test_cfg *c, const slpi_expr *phi, slpi_mlmc_test_result *r, slpi_error *err)
{
    char *id = c->m.checkpoint || c->m.resume ? test_identity(c) : NULL;
    int rc =
        (c->m.checkpoint || c->m.resume) && !id ? slpi_error_set(err, SLPI_EINPUT, "mlmc: out of memory") : SLPI_OK;
    if (rc == SLPI_OK && c->m.resume) rc = ckpt_read(c, id, r, err);
    if (rc == SLPI_OK && r->nlev == 0) r->nlev = 1;
    if (rc == SLPI_OK && c->m.checkpoint) rc = ckpt_write(c, id, r, err);
    for (int j = r->nlev - 1; rc == SLPI_OK && j <= c->m.lmax - c->m.l0; j++) {
        r->nlev = j + 1;
        while (rc == SLPI_OK && r->drawn[j] < c->paths) {
            rc = sample_chunk(c, phi, j, r, err);
            if (rc == SLPI_OK && c->m.checkpoint) rc = ckpt_write(c, id, r, err);
        }
        if (rc == SLPI_OK && r->y[j].n < 2)
            rc = slpi_error_set(err, SLPI_ENUMERIC,
                                "mlmc test: level %d: %ld of %ld paths failed (docs/noise.md#failed-paths)",
                                c->m.l0 + j, r->failed[j], r->drawn[j]);
    }
    free(id);
    if (rc == SLPI_OK) slpi_mlmc_test_summary(c, r);
    return rc;
}

int slpi_mlmc_test_run(const slpi_mlmc_test_cfg *c, slpi_mlmc_test_result *r, slpi_error *err)
{
    memset(r, 0, sizeof *r);
    int rc = slpi_problem_many_paths(c->m.conv.base, 0, "mlmc", NULL, err);
    if (rc == SLPI_OK) rc = check_cfg(c, err);
    if (rc != SLPI_OK) return rc;
    double t0 = slpi_clock_seconds(CLOCK_MONOTONIC);
    slpi_expr phi;
    memset(&phi, 0, sizeof phi);
    if (c->m.conv.phi == SLPI_PHI_EXPR &&
        (rc = slpi_conv_phi_parse(&phi, c->m.conv.base, c->m.conv.phi_text, err)) != SLPI_OK) {
        slpi_expr_free(&phi);
        return rc;
    }
    rc = run(c, &phi, r, err);
    slpi_expr_free(&phi);
    r->wall = slpi_clock_seconds(CLOCK_MONOTONIC) - t0;
    return rc;
}
