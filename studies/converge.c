/* converge.c — coupled strong and weak convergence studies (docs/noise.md#coupling, docs/noise.md#estimators; ISO §6,
 * Figs. 5, 7, 9, 11; SVI Thm 6.1; claims I3, I4, I14, I16, V6, V21, R12, X4, X5, X7).
 *
 * For every path r the fine increments of the reference level L (h_L = T 2^-L) are drawn
 * from the canonical generator (refine 0 at h_L), and every coarser level is formed from
 * them by dyadic pairwise binary64 sums: slpi_noise_levels (core/noise-levels.c), equal to
 * slpi_noise_increments at (h_l, refine L-l) bit for bit. Truncation is applied per level
 * AFTER summation, with that level's threshold D(h_l, ell) (docs/noise.md#coupling item 3), when the
 * problem truncates. Under noise_tau a coloured component's fine increments are its OU
 * increments on the fine step, summed alike (docs/noise.md#ou-studies). "clipped increments" counts each level's clipped increments once (the
 * independent reference shares the reference level's). The reference is the same scheme
 * at level L (column "self") and, when asked, an independent scheme at level L on the same
 * path (column "indep") or an exact value (weak-exact oracles).
 *
 * The files: this one (the study's configuration, its checkpoints and the batch loop),
 * studies/converge-paths.c (the lock-step path engine), studies/converge-stats.c (the
 * estimators), sharing studies/converge.h.
 *
 * Paths advance in lock-step blocks (slpi_conv_run_block, studies/converge-paths.c): per block, time is cut into the
 * 2^kmin steps of the coarsest level, and in each such segment the block's increments are
 * drawn once and every level advances the whole block; the rigid-body ISOMP (iso-quad) and
 * SVI-SO3 (svi-lin) levels run in the vectorised lanes of fast/ensemble.c, bit-identical
 * to slpi_fast_step per path (cfg.general forces the general path; tests/studies/t-converge.c
 * compares the two), the other systems path by path with slpi_fast_step.
 *
 * Work is split into batches of consecutive paths (batch b: paths [bR/B, (b+1)R/B)).
 * A batch's sums are formed in path order; batches are combined in batch order; so the
 * printed digits do not depend on the OpenMP thread count or the MPI rank count (rank
 * q computes the batches b = q mod nranks; the combine callback sums zero-filled slots).
 * The batches are also the units of the bootstrap CI of the slopes and of the MLMC
 * consistency check (even batches against odd batches).
 *
 * Checkpoints (resumable studies): with cfg.checkpoint the sums of the batches completed so far are
 * written (atomically, core/checkpoint.c's batch checkpoints, whose format it documents)
 * before any work and after every cfg.checkpoint_every completed batches; cfg.resume
 * reloads them and computes only the others; an interrupted study (SLPI_EINTR) writes
 * the batches it completed before it returns. A batch's row is a pure function of the
 * study (study_text below: every parameter that changes a printed digit), stored as %a
 * doubles, so the resumed study prints the same bytes as an uninterrupted one. A checkpoint is written by one rank only (with MPI the rows of other ranks are combined
 * only at the end); a resume works with any thread and rank count (rank 0 holds the
 * reloaded rows, the other ranks zeros, so the combining sum is exact).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#define OMP(x) _Pragma(#x)
#else
#define OMP(x)
#endif

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem.h"
#include "slpi/problem-shape.h"
#include "slpi/step.h"
#include "slpi/run.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/view-scheme.h"
#include "core/view-system.h"
#include "core/checkpoint.h"
#include "core/clock.h"
#include "studies/converge.h"
#include "core/threads.h"
#include "core/progress.h"

const char *slpi_conv_col_name(int col)
{
    static const char *n[] = { "self", "indep", "mlmc", "phi" };
    return col >= 0 && col < SLPI_CONV_NCOL ? n[col] : "?";
}

const char *slpi_conv_kind_name(slpi_conv_kind k)
{
    return k == SLPI_CONV_STRONG ? "strong" : k == SLPI_CONV_SUP ? "strong-sup" : "weak";
}

void slpi_conv_init(slpi_conv_cfg *c, const slpi_problem *base)
{
    memset(c, 0, sizeof *c);
    c->base = base;
    c->kind = SLPI_CONV_STRONG;
    c->phi = SLPI_PHI_SIN2PI;
    c->kmin = 3;
    c->kmax = 8;
    c->L = 12;
    c->paths = 100;
    c->batches = 0;
    c->boot = 1000;
    c->boot_seed = 20240501;
    c->nranks = 1;
}

static int check_cfg(const slpi_conv_cfg *c, slpi_error *err)
{
    if (!(slpi_view_grid(c->base)->T > 0))
        return slpi_error_set(err, SLPI_EINPUT, "converge: T must be given and positive");
    if (c->kmin < 0 || c->kmax < c->kmin || c->L <= c->kmax || c->L > 30 ||
        c->kmax - c->kmin + 1 > SLPI_CONV_MAXLEV - 1)
        return slpi_error_set(err, SLPI_EINPUT,
                              "converge: levels %d..%d with reference %d: need "
                              "0 <= kmin <= kmax < L <= 30 and at most %d levels",
                              c->kmin, c->kmax, c->L, SLPI_CONV_MAXLEV - 1);
    if (c->paths < 2 || c->path0 + (uint64_t)c->paths > (UINT64_C(1) << 32))
        return slpi_error_set(err, SLPI_EINPUT,
                              "converge: paths=%ld: need 2..2^32 paths "
                              "(indices below 2^32)",
                              c->paths);
    if (c->batches < 0 || c->batches > c->paths)
        return slpi_error_set(err, SLPI_EINPUT, "converge: batches=%d: need 1..paths", c->batches);
    if (c->nranks < 1 || c->rank < 0 || c->rank >= c->nranks)
        return slpi_error_set(err, SLPI_EINPUT, "converge: rank %d of %d", c->rank, c->nranks);
    if (c->checkpoint && c->checkpoint_every < 1)
        return slpi_error_set(err, SLPI_EINPUT,
                              "converge: checkpoint-every=%d: must be a positive "
                              "number of batches",
                              c->checkpoint_every);
    if (c->checkpoint && c->nranks > 1)
        return slpi_error_set(err, SLPI_EINPUT,
                              "converge: checkpoints are written by one MPI rank "
                              "only (use threads; a checkpoint resumes under any rank count)");
    if (slpi_view_noise(c->base)->noise_file[0])
        return slpi_error_set(err, SLPI_EINPUT,
                              "converge: runs on the canonical noise, not a "
                              "noise file");
    if (c->exact &&
        slpi_problem_white_only(c->base, "converge: the exact reference E x_1(T) = exp(-amp^2 T/2)", err) != SLPI_OK)
        return SLPI_EINPUT;
    if (c->exact && c->kind != SLPI_CONV_WEAK)
        return slpi_error_set(err, SLPI_EINPUT, "converge: an exact reference needs a weak study");
    const double *x0 = slpi_view_system(c->base)->x0;
    if (c->exact &&
        !(slpi_view_system(c->base)->system == SLPI_SYS_RIGID_BODY &&
          slpi_view_system(c->base)->rb.noise == SLPI_RB_NOISE_CONST_E3 &&
          slpi_view_system(c->base)->rb.h0_scale == 0 && slpi_view_system(c->base)->n_x0 >= 3 && x0[0] == 1 &&
          x0[1] == 0 && x0[2] == 0))
        return slpi_error_set(err, SLPI_EINPUT,
                              "converge: an exact reference needs the so(3) oracle (rigid-body, "
                              "noise=const-e3, h0_scale=0, x0=1,0,0; presets iso/so3/weak-exact, svi/so3/weak-exact)");
    if (c->exact && c->phi != SLPI_PHI_X1) /* exp(-amp^2 T/2) and the quadrature are E x_1(T) */
        return slpi_error_set(err, SLPI_EINPUT,
                              "converge: the exact reference is E x_1(T): it needs the "
                              "functional x1 (--phi x1)");
    if ((c->phi == SLPI_PHI_EXPR && !c->phi_text) || (c->phi == SLPI_PHI_FN && !c->phi_fn))
        return slpi_error_set(err, SLPI_EINPUT, "converge: phi: no expression or function given");
    if (c->phi == SLPI_PHI_FN && (c->checkpoint || c->resume)) /* code has no text to compare */
        return slpi_error_set(err, SLPI_EINPUT,
                              "converge: a checkpoint names its functional: give phi as an "
                              "expression of the state, not as code, to checkpoint or resume");
    if (c->boot < 0 || c->boot > 1000000 || c->threads < 0 || c->threads > SLPI_MAX_THREADS)
        return slpi_error_set(err, SLPI_EINPUT,
                              "converge: boot=%d, threads=%d: need 0..10^6 replicates and "
                              "0..%d threads",
                              c->boot, c->threads, SLPI_MAX_THREADS);
    /* per thread the noise hierarchy, M x 2^(L+1) doubles, and for a sup study 3 grids of
     * 2^kmax + 1 states: a study that cannot fit is refused before it starts */
    int M = slpi_problem_noise_count(c->base), d = slpi_problem_state_dim(c->base);
    double bytes = 8.0 *
        ((M > 0 ? M : 1) * ldexp(1.0, c->L + 1) +
         (c->kind == SLPI_CONV_SUP ? 3.0 * (ldexp(1.0, c->kmax) + 1) * d : 0.0));
    if (bytes > ldexp(1.0, 31))
        return slpi_error_set(err, SLPI_EINPUT,
                              "--ref %d: the noise hierarchy of M = %d noises over 2^%d fine steps "
                              "needs %.3g GiB per thread, more than the 2 GiB limit (lower --ref or the levels)",
                              c->L, M, c->L + 1, bytes / ldexp(1.0, 30));
    return SLPI_OK;
}

/* ------------------------------------------------------------------ checkpoints */

/* The study's parameters as "KEY=VALUE\n" lines (malloc'd; every one that changes a
 * printed digit, and nothing that does not: threads, ranks, checkpoint options). */
static char *study_text(const slpi_conv_cfg *c, const slpi_conv_layout *ly, int nb)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return NULL;
    fprintf(m, "kind=%s\nphi=%d\nkmin=%d\nkmax=%d\nref=%d\npaths=%ld\npath0=%llu\nbatches=%d\nstride=%d\n",
            slpi_conv_kind_name(c->kind), (int)c->phi, c->kmin, c->kmax, c->L, c->paths, (unsigned long long)c->path0,
            nb, ly->stride);
    if (c->phi == SLPI_PHI_EXPR) fprintf(m, "phi_expr=%s\n", c->phi_text);
    fprintf(m, "indep=%s\nexact=%d\nexact_value=%a\ngeneral=%d\nboot=%d\nboot_seed=%llu\n",
            c->indep ? slpi_scheme_name(c->indep_scheme) : "none", c->exact, c->exact_value, c->general, c->boot,
            (unsigned long long)c->boot_seed);
    slpi_problem_write(c->base, m, "problem.");
    fclose(m);
    return buf;
}

/* The study's split of paths: batch b of nb holds paths batch_first(b) .. batch_first(b + 1) - 1. */
static long batch_first(const slpi_conv_cfg *c, int b, int nb)
{
    return (long)((long double)c->paths * b / nb);
}

static long batch_paths(const slpi_conv_cfg *c, int b, int nb)
{
    return batch_first(c, b + 1, nb) - batch_first(c, b, nb);
}

/* A saved batch's row must hold the batch's path count. */
static const char *row_check(void *arg, int b, const double *q)
{
    const void *const *a = arg;
    const slpi_conv_cfg *c = a[0];
    const slpi_conv_layout *ly = a[1];
    int nb = *(const int *)a[2];
    return q[2 * ly->nq + Q_PATHS] + q[2 * ly->nq + Q_FAILED] != (double)batch_paths(c, b, nb)
        ? "its path count is not the batch's"
        : NULL;
}

/* A batch's failures into its row's extras (rows are summed across ranks: zero is none). */
static void put_failures(double *q, const slpi_conv_worker *w, long lost)
{
    q[Q_FAILED] = (double)lost;
    for (int i = 0; i < w->nf; i++) q[Q_F_COUNT + i] = (double)w->nfail[i];
    const slpi_conv_failure *f = &w->first;
    if (f->path < 0) return;
    q[Q_F_PATH] = (double)f->path + 1;
    q[Q_F_OBJECT] = f->object;
    q[Q_F_STEP] = (double)f->step;
    q[Q_F_STATUS] = f->status;
    q[Q_F_ITERS] = f->iterations;
    q[Q_F_RESIDUAL] = f->residual;
    q[Q_F_FUNCTIONAL] = f->functional;
    q[Q_F_VALUE] = f->value;
}

/* The study's failures from the batch rows: counts, and the first (lowest path, then
 * object). */
static void get_failures(const slpi_conv_cfg *c, const slpi_conv_layout *ly, const double *buf, int nb,
                         slpi_conv_result *res)
{
    slpi_conv_failure *f = &res->first_failure;
    f->path = -1;
    for (int b = 0; b < nb; b++) {
        const double *q = buf + (size_t)b * (size_t)ly->stride + 2 * (size_t)ly->nq;
        res->failed += (long)q[Q_FAILED];
        for (int i = 0; i <= ly->nlev + 1; i++) res->failed_at[i] += (long)q[Q_F_COUNT + i];
        long long path = (long long)q[Q_F_PATH] - 1;
        int obj = (int)q[Q_F_OBJECT];
        if (path < 0 || (f->path >= 0 && (path > f->path || (path == f->path && obj > f->object)))) continue;
        f->path = path;
        f->object = obj;
        f->level = obj < ly->nlev ? c->kmin + obj : c->L;
        f->h = ldexp(slpi_view_grid(c->base)->T, -f->level);
        f->step = (long)q[Q_F_STEP];
        f->status = (slpi_step_status)q[Q_F_STATUS];
        f->iterations = (int)q[Q_F_ITERS];
        f->residual = q[Q_F_RESIDUAL];
        f->functional = q[Q_F_FUNCTIONAL] != 0;
        f->value = q[Q_F_VALUE];
    }
}

void slpi_conv_failure_text(const slpi_conv_cfg *c, const slpi_conv_failure *f, char *buf, size_t n)
{
    int indep = c->indep && f->object == c->kmax - c->kmin + 2;
    const char *scheme = slpi_scheme_name(indep ? c->indep_scheme : slpi_view_scheme(c->base)->scheme);
    if (f->functional)
        snprintf(buf, n,
                 "%s on path %lld, level %d%s (h = %.17g), step %ld (the last, at T): the functional phi = %.80s "
                 "is not finite there: %g (every step succeeded)",
                 scheme, f->path, f->level, indep ? " (independent reference)" : "", f->h, f->step,
                 slpi_conv_phi_name(c), f->value);
    else
        snprintf(buf, n, "%s on path %lld, level %d%s (h = %.17g), step %ld: %s, %d iterations, residual %.3g", scheme,
                 f->path, f->level, indep ? " (independent reference)" : "", f->h, f->step,
                 slpi_step_status_name(f->status), f->iterations, f->residual);
}

/* Reload the completed batches of c->resume into buf (rank 0) and mark them in done. */
static int read_ckpt(const slpi_conv_cfg *c, const slpi_conv_layout *ly, const char *study, double *buf,
                     unsigned char *done, int nb, slpi_error *err)
{
    const void *arg[3] = { c, ly, &nb };
    int rc = slpi_checkpoint_batches_read(c->resume, study, buf, done, nb, ly->stride, row_check, (void *)arg, err);
    if (rc == SLPI_OK && c->rank != 0) /* rank 0 alone contributes the reloaded rows to the sum */
        for (int b = 0; b < nb; b++)
            if (done[b]) memset(buf + (size_t)b * (size_t)ly->stride, 0, (size_t)ly->stride * sizeof *buf);
    return rc;
}

/* The study's results from the summed batches buf (every rank's, combined): the levels,
 * the counts, the failures and, unless fewer than 2 paths survive (SLPI_ENUMERIC), each
 * column's cells and fit, the MLMC check and the exact quadrature where known. */
static int estimates(const slpi_conv_cfg *c, const slpi_conv_layout *ly, const double *buf, int nb,
                     slpi_conv_result *res, slpi_error *err)
{
    res->nlev = ly->nlev;
    for (int i = 0; i < ly->nl1; i++) {
        res->level[i] = i < ly->nlev ? c->kmin + i : c->L;
        res->h[i] = ldexp(slpi_view_grid(c->base)->T, -res->level[i]);
    }
    for (int b = 0; b < nb; b++) {
        const double *q = buf + (size_t)b * (size_t)ly->stride + 2 * (size_t)ly->nq;
        res->iters += (long)q[Q_ITERS];
        res->clipped += (long)q[Q_CLIPPED];
        res->paths += (long)q[Q_PATHS];
    }
    get_failures(c, ly, buf, nb, res);
    if (res->paths < 2) { /* docs/noise.md#failed-paths: nothing left to estimate */
        char why[400];
        slpi_conv_failure_text(c, &res->first_failure, why, sizeof why);
        return slpi_error_set(err, SLPI_ENUMERIC,
                              "converge: %ld of %ld paths failed, %ld survive (at least 2 "
                              "needed); the first: %s",
                              res->failed, c->paths, res->paths, why);
    }
    res->have[SLPI_CONV_SELF] = 1;
    res->have[SLPI_CONV_INDEP] = c->indep || c->exact;
    res->have[SLPI_CONV_MLMC] = res->have[SLPI_CONV_PHI] = c->kind == SLPI_CONV_WEAK;
    for (int col = 0; col < SLPI_CONV_NCOL; col++) {
        if (!res->have[col]) continue;
        slpi_conv_cells(c, ly, buf, nb, NULL, col, res->cell[col]);
        if (col != SLPI_CONV_PHI) slpi_conv_fit_col(c, ly, buf, nb, col, res);
    }
    res->refgap = res->cell[SLPI_CONV_SELF][ly->nlev].e;
    res->refgap_se = res->cell[SLPI_CONV_SELF][ly->nlev].se;
    if (c->kind == SLPI_CONV_WEAK) slpi_conv_mlmc_check(c, ly, buf, nb, res);
    if (c->exact)
        for (int i = 0; i < ly->nl1; i++)
            res->quad[i] = slpi_weak_exact_scheme(slpi_view_scheme(c->base)->scheme, slpi_view_system(c->base)->rb.amp,
                                                  slpi_view_grid(c->base)->T, res->h[i],
                                                  slpi_view_noise(c->base)->trunc_ell, ly->trunc);
    return SLPI_OK;
}

static int run_study(const slpi_conv_cfg *c, const slpi_expr *phi, slpi_conv_combine combine, void *arg,
                     slpi_conv_result *res, slpi_error *err)
{
    int rc;
    double t0 = slpi_clock_seconds(CLOCK_MONOTONIC);
    slpi_conv_layout ly;
    ly.phi = phi;
    ly.nlev = c->kmax - c->kmin + 1;
    ly.nl1 = ly.nlev + 1;
    ly.nq = SLPI_CONV_NCOL * ly.nl1;
    ly.stride = 2 * ly.nq + Q_EXTRA;
    ly.dim = slpi_problem_state_dim(c->base);
    ly.M = slpi_problem_noise_count(c->base);
    ly.trunc = slpi_problem_truncates(c->base);
    ly.sup = c->kind == SLPI_CONV_SUP;
    int nb = c->batches > 0 ? c->batches : (int)(c->paths < 32 ? c->paths : 32);
    double *buf = calloc((size_t)nb * (size_t)ly.stride, sizeof *buf);
    unsigned char *done = calloc((size_t)nb, 1);
    char *study = c->checkpoint || c->resume ? study_text(c, &ly, nb) : NULL;
    if (!buf || !done || ((c->checkpoint || c->resume) && !study)) {
        free(buf);
        free(done);
        free(study);
        return slpi_error_set(err, SLPI_EINPUT, "converge: out of memory");
    }
    /* the thread count, then the first checkpoint (the reloaded batches, or none) before
     * any work: an unwritable path fails at once */
    int nt = 1;
    if ((rc = slpi_threads_resolve(c->threads, "converge", &nt, err)) != SLPI_OK ||
        (c->resume && (rc = read_ckpt(c, &ly, study, buf, done, nb, err)) != SLPI_OK) ||
        (c->checkpoint &&
         (rc = slpi_checkpoint_batches_write(c->checkpoint, study, buf, done, nb, ly.stride, err)) != SLPI_OK)) {
        free(buf);
        free(done);
        free(study);
        return rc;
    }
    int since_ckpt = 0, ckrc = SLPI_OK;
    slpi_error ckerr = { 0 };

    int bad_batch = nb;
    slpi_error first = { 0 };
    long mine = 0; /* the paths this rank computes now (progress on rank 0 only) */
    for (int b = 0; b < nb; b++) {
        if (done[b])
            res->resumed += batch_paths(c, b, nb); /* the paths the checkpoint gave back */
        else if (b % c->nranks == c->rank)
            mine += batch_paths(c, b, nb);
    }
    slpi_progress *pg = c->rank == 0 ? slpi_progress_begin("converge, paths", mine) : NULL;
    OMP(omp parallel num_threads(nt))
    {
        slpi_conv_worker w;
        slpi_error werr = { 0 };
        int wrc = slpi_conv_worker_init(&w, c, &ly, &werr);
        OMP(omp for schedule(dynamic, 1))
        for (int b = 0; b < nb; b++) {
            if (b % c->nranks != c->rank || done[b]) continue;
            int brc = wrc;
            double *q = buf + (size_t)b * (size_t)ly.stride;
            long r0 = batch_first(c, b, nb), r1 = batch_first(c, b + 1, nb);
            w.iters = w.clipped = 0;
            memset(w.nfail, 0, sizeof w.nfail);
            w.first.path = -1;
            long lost = 0;
            for (long r = r0; r < r1 && brc == SLPI_OK; r += w.B) {
                int n = r1 - r < w.B ? (int)(r1 - r) : w.B;
                brc = slpi_conv_run_block(&w, c, &ly, c->path0 + (uint64_t)r, n, &werr);
                slpi_progress_add(pg, n);
                for (int k = 0; brc == SLPI_OK && k < n; k++) { /* in path order, the survivors */
                    if (w.lost[k]) {
                        lost++;
                        continue;
                    }
                    const double *v = w.val + (size_t)k * (size_t)ly.nq;
                    for (int j = 0; j < ly.nq; j++) {
                        q[j] += v[j];
                        q[ly.nq + j] += v[j] * v[j];
                    }
                }
            }
            for (int j = 0; j < 2 * ly.nq; j++) q[j] += 0.0; /* -0 -> +0: exact rank sums */
            q[2 * ly.nq + Q_ITERS] = (double)w.iters;
            q[2 * ly.nq + Q_CLIPPED] = (double)w.clipped;
            q[2 * ly.nq + Q_PATHS] = (double)(r1 - r0 - lost);
            put_failures(q + 2 * ly.nq, &w, lost);
            OMP(omp critical)
            {
                if (brc != SLPI_OK && b < bad_batch) {
                    bad_batch = b;
                    first = werr;
                    first.code = brc;
                } else if (brc == SLPI_OK && c->checkpoint) {
                    done[b] = 1;
                    if (++since_ckpt == c->checkpoint_every && ckrc == SLPI_OK) {
                        since_ckpt = 0;
                        ckrc = slpi_checkpoint_batches_write(c->checkpoint, study, buf, done, nb, ly.stride, &ckerr);
                    }
                }
            }
        }
        if (wrc == SLPI_OK) slpi_conv_worker_free(&w);
    }
    slpi_progress_end(pg);
    /* interrupted: the batches completed since the last checkpoint are kept too */
    if (bad_batch < nb && first.code == SLPI_EINTR && c->checkpoint && ckrc == SLPI_OK && since_ckpt > 0)
        ckrc = slpi_checkpoint_batches_write(c->checkpoint, study, buf, done, nb, ly.stride, &ckerr);
    free(done);
    free(study);
    if (ckrc != SLPI_OK) {
        free(buf);
        *err = ckerr;
        return ckrc;
    }
    /* every rank reports failure the same way: a failed batch sends a NaN path count */
    if (bad_batch < nb) buf[(size_t)bad_batch * (size_t)ly.stride + 2 * (size_t)ly.nq + Q_PATHS] = NAN;
    if (combine && combine(buf, (size_t)nb * (size_t)ly.stride, arg) != 0) {
        free(buf);
        return slpi_error_set(err, SLPI_ENUMERIC, "converge: combining the ranks' sums failed");
    }
    for (int b = 0; b < nb && bad_batch == nb; b++)
        if (isnan(buf[(size_t)b * (size_t)ly.stride + 2 * (size_t)ly.nq + Q_PATHS])) bad_batch = -b - 1;
    if (bad_batch != nb) {
        free(buf);
        if (bad_batch >= 0) {
            *err = first;
            return first.code;
        }
        return slpi_error_set(err, SLPI_ENUMERIC, "converge: batch %d failed on another rank", -bad_batch - 1);
    }

    rc = estimates(c, &ly, buf, nb, res, err);
    free(buf);
    if (rc != SLPI_OK) return rc;
    res->seconds = slpi_clock_seconds(CLOCK_MONOTONIC) - t0;
    return SLPI_OK;
}

int slpi_conv_run(const slpi_conv_cfg *c, slpi_conv_combine combine, void *arg, slpi_conv_result *res, slpi_error *err)
{
    memset(res, 0, sizeof *res);
    int rc = check_cfg(c, err);
    if (rc != SLPI_OK) return rc;
    slpi_expr phi;
    memset(&phi, 0, sizeof phi);
    if (c->phi == SLPI_PHI_EXPR && (rc = slpi_conv_phi_parse(&phi, c->base, c->phi_text, err)) != SLPI_OK) {
        slpi_expr_free(&phi);
        return rc;
    }
    rc = run_study(c, &phi, combine, arg, res, err);
    slpi_expr_free(&phi);
    return rc;
}
