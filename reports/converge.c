/* converge.c — coupled strong and weak convergence studies (docs/noise.md#coupling, docs/noise.md#estimators; ISO §6,
 * Figs. 5, 7, 9, 11; SVI Thm 6.1; claims I3, I4, I14, I16, V6, V21, R12, X4, X5, X7).
 *
 * For every path r the fine increments of the reference level L (h_L = T 2^-L) are drawn
 * from the canonical generator (refine 0 at h_L), and every coarser level is formed from
 * them by dyadic pairwise binary64 sums: slpi_noise_levels (core/noise.c), equal to
 * slpi_noise_increments at (h_l, refine L-l) bit for bit. Truncation is applied per level
 * AFTER summation, with that level's threshold D(h_l, ell) (docs/noise.md#coupling item 3), when the
 * problem truncates; "clipped increments" counts each level's clipped increments once (the
 * independent reference shares the reference level's). The reference is the same scheme
 * at level L (column "self") and, when asked, an independent scheme at level L on the same
 * path (column "indep") or an exact value (weak-exact oracles).
 *
 * Paths advance in lock-step blocks (run_block below): per block, time is cut into the
 * 2^kmin steps of the coarsest level, and in each such segment the block's increments are
 * drawn once and every level advances the whole block; the rigid-body ISOMP (iso-quad) and
 * SVI-SO3 (svi-lin) levels run in the vectorised lanes of fast/ensemble.c, bit-identical
 * to slpi_fast_step per path (cfg.general forces the general path; tests/t-converge.c
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
 * written (atomically, core/checkpoint.c) before any work and after every
 * cfg.checkpoint_every completed batches; cfg.resume reloads them and computes only the
 * others. A batch's row is a pure function of the study, stored as %a doubles, so the
 * resumed study prints the same bytes as an uninterrupted one. Format "slpi-converge-checkpoint" version 1:
 *   # slpi-converge-checkpoint 1
 *   study_lines N               then N lines "study KEY=VALUE": the study's parameters
 *                               (kind, levels, paths, batches, row stride, ...) and its
 *                               problem (slpi_problem_write, prefix "problem.")
 *   done K                      completed batches, then K lines, batch indices increasing
 *   batch B V_1 ... V_S         the batch's row: S = stride %a doubles
 *   end HEX16                   FNV-1a 64 of every byte before this line
 * A checkpoint is written by one rank only (with MPI the rows of other ranks are combined
 * only at the end); a resume works with any thread and rank count (rank 0 holds the
 * reloaded rows, the other ranks zeros, so the combining sum is exact).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#define OMP(x) _Pragma(#x)
#else
#define OMP(x)
#endif

#include "core/checkpoint.h"
#include "core/noise.h"
#include "fast/ensemble.h"
#include "reports/reports.h"

#define CONV_CKPT_FORMAT "slpi-converge-checkpoint"
#define CONV_CKPT_VERSION 1

enum { Q_ITERS, Q_CLIPPED, Q_PATHS, Q_EXTRA };

typedef struct {
    int nlev, nl1, nq, stride;   /* levels, nlev + 1, values per path, doubles per batch */
    int dim, M, trunc, sup;
} layout;

typedef enum { SOA_NONE, SOA_ISOMP, SOA_SVI } soa_kind;

/* Lock-step blocks: the paths of a batch are taken BLOCK_MAX at a time (fewer
 * when one segment's increments would not fit in BLOCK_BYTES), and time is cut into the
 * 2^kmin segments of one coarsest step. Per segment, the increments of every path of the
 * block are drawn (slpi_noise_levels: the fine level and its pairwise sums, core's one
 * implementation), truncated per level (slpi_noise_threshold, slpi_noise_clip), and every
 * level advances the whole block through the segment: the rigid-body ISOMP/SVI levels in
 * the vectorised lanes of fast/ensemble.c, the others path by path with slpi_fast_step.
 * Each path's arithmetic is the same whatever the block size; the block's per-path values
 * are then added to the batch sums in path order, as one path at a time would. */
enum { BLOCK_MAX = 64, TILE = 8 };
#define BLOCK_BYTES ((size_t)8 << 20)

typedef struct {
    slpi_fast *f[SLPI_CONV_MAXLEV + 2];   /* coarse levels, then reference, independent */
    slpi_fast_rb_soa soa[SLPI_CONV_MAXLEV + 2];
    soa_kind kind[SLPI_CONV_MAXLEV + 2];  /* the structure-of-arrays kernel of fast/ensemble.c */
    int nf, B;                  /* fast objects; lanes per block */
    long S;                     /* fine steps per segment, 2^(L - kmin) */
    double *x0;                 /* the initial state */
    double *x;                  /* states of a block, SoA: object i at x + i dim B */
    double *noise;              /* one segment's increments of a block, per level (noise_at) */
    int tile;                   /* paths whose hierarchies are drawn together, min(TILE, B) */
    double *hier, *lev[TILE * 32];  /* path q of a tile's hierarchy of a segment: level L - i at lev[q (L - kmin + 1) + i] */
    double D[SLPI_CONV_MAXLEV + 2];  /* truncation threshold of object i's level */
    double *traj;               /* sup: reference (and independent) states on the kmax grid */
    double *sup;                /* sup: running maxima, (level, column) x lane */
    double *lane, *dW;          /* one path's state and increments (general path) */
    double *scratch;            /* three states of one path */
    double *val;                /* per-path values of the block, lane r at val + r nq */
    unsigned char *failed;
    long iters, clipped;
} worker;

const char *slpi_conv_col_name(int col)
{
    static const char *n[] = {"self", "indep", "mlmc", "phi"};
    return col >= 0 && col < SLPI_CONV_NCOL ? n[col] : "?";
}

const char *slpi_conv_kind_name(slpi_conv_kind k)
{
    return k == SLPI_CONV_STRONG ? "strong" : k == SLPI_CONV_SUP ? "strong-sup" : "weak";
}

void slpi_conv_init(slpi_conv_cfg *c, const slpi_problem *base)
{
    memset(c, 0, sizeof *c);
    c->base = *base;
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

static double phi_of(slpi_conv_phi phi, const double *x, int dim)
{
    if (phi == SLPI_PHI_X1) return x[0];
    double s = 0;
    for (int i = 0; i < dim && i < 3; i++) s += sin(2 * 3.14159265358979323846 * x[i]);
    return s;
}

static double dist2(const double *a, const double *b, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
    return s;
}

/* The same for lane r of two SoA blocks with n lanes. */
static double dist2_lane(const double *a, const double *b, int dim, int n, int r)
{
    double s = 0;
    for (int i = 0; i < dim; i++) {
        double d = a[(size_t)i * (size_t)n + (size_t)r] - b[(size_t)i * (size_t)n + (size_t)r];
        s += d * d;
    }
    return s;
}

/* The level of fast object i: coarse kmin + i, then the reference and independent at L. */
static int level_of(const slpi_conv_cfg *c, const layout *ly, int i)
{
    return i < ly->nlev ? c->kmin + i : c->L;
}

/* Increments of object i's level in the segment buffer of a block of n lanes: step t,
 * component k, lane r at noise_at(...)[(t M + k) n + r]; the independent scheme shares
 * the reference's. */
static double *noise_at(const worker *w, const slpi_conv_cfg *c, const layout *ly, int i, int n)
{
    size_t off = 0;
    if (i > ly->nlev) i = ly->nlev;
    for (int j = 0; j < i; j++) off += (size_t)1 << (level_of(c, ly, j) - c->kmin);
    return w->noise + off * (size_t)ly->M * (size_t)n;
}

/* The problem of level l (h = T 2^-l), validated, and its fast-path object. */
static int make_level(const slpi_conv_cfg *c, slpi_scheme_id k, int l, slpi_fast **out,
                      slpi_error *err)
{
    slpi_problem p = c->base;
    p.scheme = k;
    if (k != c->base.scheme) {
        /* an independent scheme keeps the system and form, with its own solver defaults */
        slpi_problem q = c->base;
        int rc = slpi_problem_set(&q, "scheme", slpi_scheme_name(p.scheme), err);
        if (rc != SLPI_OK) return rc;
        p.tol = q.tol;
        p.maxit = q.maxit;
        p.on_cap = q.on_cap;
        p.fixed_iters = q.fixed_iters;
    }
    p.level = l;
    p.refine = 0;
    p.noise_file[0] = 0;
    int rc = slpi_problem_finish(&p, err);
    if (rc == SLPI_OK) rc = slpi_fast_create(out, &p, err);
    return rc;
}

/* Problems that fast/ensemble.c integrates bit-identically to slpi_fast_step. */
static soa_kind soa_eligible(const slpi_fast *f)
{
    const slpi_problem *p = slpi_fast_problem(f);
    if (p->system != SLPI_SYS_RIGID_BODY || p->rb.track_R) return SOA_NONE;
    if (p->scheme == SLPI_SCHEME_ISOMP && p->rb.form == SLPI_RB_FORM_ISO
        && p->rb.noise == SLPI_RB_NOISE_ISO_QUAD && p->isomp_update == SLPI_ISO_UPDATE_COMM
        && p->solver == SLPI_SOLVER_FIXED_POINT)
        return SOA_ISOMP;
    if (p->scheme == SLPI_SCHEME_SVI && p->rb.form == SLPI_RB_FORM_SVI
        && p->rb.noise == SLPI_RB_NOISE_SVI_LIN && p->svi_output == SLPI_SVI_OUT_ROTATION
        && (p->svi_form == SLPI_SVI_FORM_AUTO || p->svi_form == SLPI_SVI_FORM_SO3))
        return SOA_SVI;
    return SOA_NONE;
}

static void worker_free(worker *w)
{
    for (int i = 0; i < w->nf; i++) slpi_fast_free(w->f[i]);
    free(w->x0);
    free(w->noise);
    free(w->failed);
}

static int worker_init(worker *w, const slpi_conv_cfg *c, const layout *ly, slpi_error *err)
{
    memset(w, 0, sizeof *w);
    int rc = SLPI_OK;
    for (int i = 0; i < ly->nlev && rc == SLPI_OK; i++)
        if ((rc = make_level(c, c->base.scheme, c->kmin + i, &w->f[i], err)) == SLPI_OK) w->nf++;
    if (rc == SLPI_OK && (rc = make_level(c, c->base.scheme, c->L, &w->f[ly->nlev], err)) == SLPI_OK)
        w->nf++;
    if (rc == SLPI_OK && c->indep
        && (rc = make_level(c, c->indep_scheme, c->L, &w->f[ly->nlev + 1], err)) == SLPI_OK)
        w->nf++;
    if (rc != SLPI_OK) {
        worker_free(w);
        return rc;
    }
    for (int i = 0; i < w->nf; i++) {
        slpi_error ignored;
        w->kind[i] = c->general ? SOA_NONE : soa_eligible(w->f[i]);
        if (w->kind[i] != SOA_NONE && slpi_fast_rb_soa_init(&w->soa[i], slpi_fast_problem(w->f[i]), &ignored))
            w->kind[i] = SOA_NONE;
    }
    size_t d = (size_t)ly->dim, M = (size_t)(ly->M > 0 ? ly->M : 1), nf = (size_t)w->nf;
    w->S = 1L << (c->L - c->kmin);
    size_t seg = 0;                      /* increments of one segment and lane, all levels */
    for (int i = 0; i <= ly->nlev; i++) seg += (size_t)1 << (level_of(c, ly, i) - c->kmin);
    seg *= M;
    size_t grid = ((size_t)1 << (c->kmax - c->kmin)) + 1, per_lane = seg + nf * d
                  + (ly->sup ? 2 * grid * d + 2 * (size_t)ly->nlev : 0) + (size_t)ly->nq;
    size_t B = BLOCK_BYTES / (per_lane * sizeof(double));
    w->B = B >= BLOCK_MAX ? BLOCK_MAX : B >= 8 ? (int)(B & ~(size_t)7) : B >= 1 ? (int)B : 1;
    size_t n = (size_t)w->B + 1;         /* + the lone-path buffers (lane, dW) */
    w->tile = w->B < TILE ? w->B : TILE;
    w->x0 = malloc((d + 2 * (size_t)w->tile * (size_t)w->S + 4 * d + M) * sizeof *w->x0);
    w->noise = malloc(per_lane * n * sizeof *w->noise);
    w->failed = malloc((size_t)w->B);
    if (!w->x0 || !w->noise || !w->failed) {
        worker_free(w);
        return slpi_error_set(err, SLPI_ENUMERIC, "converge: out of memory (2^%d fine steps)", c->L);
    }
    w->hier = w->x0 + d;
    w->lane = w->hier + 2 * (size_t)w->tile * (size_t)w->S;
    w->dW = w->lane + d;
    w->scratch = w->dW + M;
    for (int q = 0; q < w->tile; q++)
        for (int i = 0; i <= c->L - c->kmin; i++)
            w->lev[q * (c->L - c->kmin + 1) + i] = w->hier + (size_t)(q + 1) * 2 * (size_t)w->S - (2 * w->S >> i);
    for (int i = 0; i < w->nf; i++)
        w->D[i] = slpi_noise_threshold(slpi_fast_problem(w->f[i])->h, c->base.trunc_ell);
    w->x = w->noise + seg * (size_t)w->B;
    w->traj = w->x + nf * d * (size_t)w->B;
    w->sup = w->traj + (ly->sup ? 2 * grid * d * (size_t)w->B : 0);
    w->val = w->sup + (ly->sup ? 2 * (size_t)ly->nlev * (size_t)w->B : 0);
    int given = slpi_problem_explicit_x0(&c->base, w->x0, err);
    if (given < 0) rc = SLPI_EINPUT;
    else if (!given) rc = slpi_fast_initial_state(w->f[0], w->x0, err);
    if (rc != SLPI_OK) worker_free(w);
    return rc;
}

/* One segment's increments of the n paths from path0: every level's, truncated per level
 * after summation (docs/noise.md#coupling item 3). The paths are drawn a tile at a time
 * (each path's hierarchy contiguous, truncated there) and written to the block's
 * step-major layout a tile row (one cache line of lanes) at a time. */
static void block_noise(worker *w, const slpi_conv_cfg *c, const layout *ly, uint64_t path0, int n,
                        long seg)
{
#define LEV(q, l) w->lev[(q) * (nup + 1) + c->L - (l)]   /* path r0 + q's level l */
    int M = ly->M, nup = c->L - c->kmin;
    for (int r0 = 0; r0 < n; r0 += w->tile) {
        int nt = n - r0 < w->tile ? n - r0 : w->tile;
        for (int k = 0; k < M; k++) {
            slpi_noise_levels(c->base.seed, path0 + (uint64_t)r0, (size_t)nt, (uint32_t)k, ldexp(c->base.T, -c->L),
                              nup, (uint64_t)seg * (uint64_t)w->S, (size_t)w->S, w->lev);
            for (int i = 0; i <= ly->nlev; i++) {
                int l = level_of(c, ly, i);
                double *dst = noise_at(w, c, ly, i, n) + (size_t)k * (size_t)n + (size_t)r0;
                for (long t = 0; t < 1L << (l - c->kmin); t++, dst += (size_t)M * (size_t)n)
                    for (int q = 0; q < nt; q++) dst[q] = LEV(q, l)[t];
            }
        }
    }
#undef LEV
    for (int i = 0; i <= ly->nlev && ly->trunc; i++) {
        size_t cnt = ((size_t)1 << (level_of(c, ly, i) - c->kmin)) * (size_t)M * (size_t)n;
        w->clipped += slpi_noise_clip(noise_at(w, c, ly, i, n), cnt, w->D[i]);
    }
}

/* Step `step` (0-based on the level's grid) of object i for the n lanes of SoA state x. */
static int step_block(worker *w, const slpi_conv_cfg *c, const layout *ly, int i, double *x,
                      const double *dW, int n, uint64_t path0, long step, slpi_error *err)
{
    slpi_fast *f = w->f[i];
    long bad = 0;
    if (w->kind[i] != SOA_NONE) {
        bad = w->kind[i] == SOA_ISOMP
                  ? slpi_fast_rb_isomp_soa(&w->soa[i], n, slpi_fast_problem(f)->h, x, dW, &w->iters, w->failed)
                  : slpi_fast_rb_svi_soa(&w->soa[i], n, slpi_fast_problem(f)->h, x, dW, &w->iters, w->failed);
        if (!bad) return SLPI_OK;
    }
    for (int r = 0; r < n; r++) {
        if (bad && !w->failed[r]) continue;   /* SoA: only a failed lane, for its report */
        for (int j = 0; j < ly->dim; j++) w->lane[j] = x[(size_t)j * (size_t)n + (size_t)r];
        for (int k = 0; k < ly->M; k++) w->dW[k] = dW[(size_t)k * (size_t)n + (size_t)r];
        slpi_step_info info = {0};
        slpi_step_status st = slpi_fast_step(f, w->lane, w->dW, &info);
        if (slpi_step_failed(st))
            return slpi_error_set(err, SLPI_ENUMERIC, "converge: %s on path %llu, level %d "
                                  "(h = %.17g), step %ld: %s, %d iterations, residual %.3g",
                                  slpi_scheme_name(slpi_fast_problem(f)->scheme), (unsigned long long)(path0 + (uint64_t)r),
                                  level_of(c, ly, i), slpi_fast_problem(f)->h, step, slpi_step_status_name(st),
                                  info.iterations, info.residual);
        w->iters += info.iterations;
        for (int j = 0; j < ly->dim; j++) x[(size_t)j * (size_t)n + (size_t)r] = w->lane[j];
    }
    return SLPI_OK;
}

/* Copy SoA state x (n lanes) to slot j of a trajectory block. */
static void traj_put(double *traj, int j, const double *x, size_t dn)
{
    memcpy(traj + (size_t)j * dn, x, dn * sizeof *x);
}

/* The n paths from path0 through every level; path r's values go to w->val + r nq
 * (col * nl1 + level). */
static int run_block(worker *w, const slpi_conv_cfg *c, const layout *ly, uint64_t path0, int n,
                     slpi_error *err)
{
    int d = ly->dim, nl = ly->nlev, nl1 = ly->nl1;
    size_t dn = (size_t)d * (size_t)n, grid = ((size_t)1 << (c->kmax - c->kmin)) + 1;
    for (int i = 0; i < w->nf; i++)
        for (int j = 0; j < d; j++)
            for (int r = 0; r < n; r++) w->x[(size_t)i * dn + (size_t)j * (size_t)n + (size_t)r] = w->x0[j];
    double *supv = w->sup;                        /* (level, column) x lane */
    if (ly->sup) memset(supv, 0, 2 * (size_t)nl * (size_t)n * sizeof *supv);
    int rc = SLPI_OK;
    for (long seg = 0; seg < 1L << c->kmin && rc == SLPI_OK; seg++) {
        block_noise(w, c, ly, path0, n, seg);
        /* the references first (their kmax-grid states for the sup estimator), then the
         * coarse levels */
        for (int o = 0; o < w->nf && rc == SLPI_OK; o++) {
            int i = o < w->nf - nl ? nl + o : o - (w->nf - nl), l = level_of(c, ly, i);
            long cnt = 1L << (l - c->kmin);
            double *x = w->x + (size_t)i * dn, *traj = w->traj + (size_t)(i - nl) * grid * dn;
            const double *noise = noise_at(w, c, ly, i, n);
            long ts = 1L << (c->L - c->kmax);
            if (ly->sup && i >= nl) traj_put(traj, 0, x, dn);
            for (long t = 0; t < cnt && rc == SLPI_OK; t++) {
                rc = step_block(w, c, ly, i, x, noise + (size_t)t * (size_t)ly->M * (size_t)n, n, path0,
                                seg * cnt + t, err);
                if (!ly->sup) continue;
                if (i >= nl) {
                    if ((t + 1) % ts == 0) traj_put(traj, (int)((t + 1) / ts), x, dn);
                    continue;
                }
                size_t j = (size_t)(t + 1) << (c->kmax - l);
                for (int col = 0; col < 1 + (c->indep != 0); col++) {
                    const double *ref = w->traj + ((size_t)col * grid + j) * dn;
                    double *m = supv + ((size_t)i * 2 + (size_t)col) * (size_t)n;
                    for (int r = 0; r < n; r++) {
                        double e = dist2_lane(x, ref, d, n, r);
                        if (e > m[r]) m[r] = e;
                    }
                }
            }
        }
    }
    if (rc != SLPI_OK) return rc;
    for (int r = 0; r < n; r++) {
        double *v = w->val + (size_t)r * (size_t)ly->nq;
        memset(v, 0, (size_t)ly->nq * sizeof *v);
        /* lane r of object i as a plain vector */
#define LANE(i, buf)                                                                           \
    for (int j = 0; j < d; j++) (buf)[j] = w->x[(size_t)(i) * dn + (size_t)j * (size_t)n + (size_t)r]
        double *xref = w->lane, *xi = w->scratch, *xn = w->scratch + d, *xind = w->scratch + 2 * d;
        LANE(nl, xref);
        if (c->indep) LANE(nl + 1, xind);
        double pref = phi_of(c->phi, xref, d);
        for (int i = 0; i < nl; i++) {
            LANE(i, xi);
            if (ly->sup) {
                v[SLPI_CONV_SELF * nl1 + i] = supv[((size_t)i * 2) * (size_t)n + (size_t)r];
                if (c->indep) v[SLPI_CONV_INDEP * nl1 + i] = supv[((size_t)i * 2 + 1) * (size_t)n + (size_t)r];
            } else if (c->kind == SLPI_CONV_WEAK) {
                double pi = phi_of(c->phi, xi, d);
                if (i + 1 < nl) LANE(i + 1, xn);
                else memcpy(xn, xref, (size_t)d * sizeof *xn);
                v[SLPI_CONV_SELF * nl1 + i] = pi - pref;
                if (c->exact) v[SLPI_CONV_INDEP * nl1 + i] = pi - c->exact_value;
                else if (c->indep) v[SLPI_CONV_INDEP * nl1 + i] = pi - phi_of(c->phi, xind, d);
                v[SLPI_CONV_MLMC * nl1 + i] = pi - phi_of(c->phi, xn, d);
                v[SLPI_CONV_PHI * nl1 + i] = pi;
            } else {
                v[SLPI_CONV_SELF * nl1 + i] = dist2(xi, xref, d);
                if (c->indep) v[SLPI_CONV_INDEP * nl1 + i] = dist2(xi, xind, d);
            }
        }
#undef LANE
        if (c->kind == SLPI_CONV_WEAK) {
            v[SLPI_CONV_PHI * nl1 + nl] = pref;
            if (c->indep) v[SLPI_CONV_SELF * nl1 + nl] = pref - phi_of(c->phi, xind, d);
        } else if (c->indep) {
            v[SLPI_CONV_SELF * nl1 + nl] = dist2(xref, xind, d);
        }
    }
    return SLPI_OK;
}

static int check_cfg(const slpi_conv_cfg *c, slpi_error *err)
{
    if (!(c->base.T > 0))
        return slpi_error_set(err, SLPI_EINPUT, "converge: T must be given and positive");
    if (c->kmin < 0 || c->kmax < c->kmin || c->L <= c->kmax || c->L > 30
        || c->kmax - c->kmin + 1 > SLPI_CONV_MAXLEV - 1)
        return slpi_error_set(err, SLPI_EINPUT, "converge: levels %d..%d with reference %d: need "
                              "0 <= kmin <= kmax < L <= 30 and at most %d levels",
                              c->kmin, c->kmax, c->L, SLPI_CONV_MAXLEV - 1);
    if (c->paths < 2 || c->path0 + (uint64_t)c->paths > (UINT64_C(1) << 32))
        return slpi_error_set(err, SLPI_EINPUT, "converge: paths=%ld: need 2..2^32 paths "
                              "(indices below 2^32)", c->paths);
    if (c->batches < 0 || c->batches > c->paths)
        return slpi_error_set(err, SLPI_EINPUT, "converge: batches=%d: need 1..paths", c->batches);
    if (c->nranks < 1 || c->rank < 0 || c->rank >= c->nranks)
        return slpi_error_set(err, SLPI_EINPUT, "converge: rank %d of %d", c->rank, c->nranks);
    if (c->checkpoint && c->checkpoint_every < 1)
        return slpi_error_set(err, SLPI_EINPUT, "converge: checkpoint-every=%d: must be a positive "
                              "number of batches", c->checkpoint_every);
    if (c->checkpoint && c->nranks > 1)
        return slpi_error_set(err, SLPI_EINPUT, "converge: checkpoints are written by one MPI rank "
                              "only (use threads; a checkpoint resumes under any rank count)");
    if (c->base.noise_file[0])
        return slpi_error_set(err, SLPI_EINPUT, "converge: runs on the canonical noise, not a "
                              "noise file");
    if (c->base.warm_start)
        return slpi_error_set(err, SLPI_EINPUT, "converge: warm_start=%d carries one path's solve from "
                              "step to step; the ensemble engine starts every step cold", c->base.warm_start);
    if (c->exact && c->kind != SLPI_CONV_WEAK)
        return slpi_error_set(err, SLPI_EINPUT, "converge: an exact reference needs a weak study");
    if (c->boot < 0 || c->boot > 1000000 || c->threads < 0 || c->threads > SLPI_MAX_THREADS)
        return slpi_error_set(err, SLPI_EINPUT, "converge: boot=%d, threads=%d: need 0..10^6 replicates and "
                              "0..%d threads", c->boot, c->threads, SLPI_MAX_THREADS);
    /* per thread the noise hierarchy, M x 2^(L+1) doubles, and for a sup study 3 grids of
     * 2^kmax + 1 states: a study that cannot fit is refused before it starts */
    int M = slpi_problem_noise_count(&c->base), d = slpi_problem_state_dim(&c->base);
    double bytes = 8.0 * ((M > 0 ? M : 1) * ldexp(1.0, c->L + 1)
                          + (c->kind == SLPI_CONV_SUP ? 3.0 * (ldexp(1.0, c->kmax) + 1) * d : 0.0));
    if (bytes > ldexp(1.0, 31))
        return slpi_error_set(err, SLPI_EINPUT, "--ref %d: the noise hierarchy of M = %d noises over 2^%d fine steps "
                              "needs %.3g GiB per thread, more than the 2 GiB limit (lower --ref or the levels)",
                              c->L, M, c->L + 1, bytes / ldexp(1.0, 30));
    return SLPI_OK;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Error estimate of one cell from path sums s1, s2 over n paths. */
static void cell_from_sums(slpi_conv_kind kind, int col, double s1, double s2, double n,
                           slpi_conv_cell *cell)
{
    cell->mean = s1 / n;
    cell->var = n > 1 ? fmax(0, (s2 - s1 * s1 / n) / (n - 1)) : 0;
    double se = sqrt(cell->var / n);
    if (col == SLPI_CONV_PHI) {
        cell->e = cell->mean;
        cell->se = se;
    } else if (kind == SLPI_CONV_WEAK) {
        cell->e = fabs(cell->mean);
        cell->se = se;
    } else {
        cell->e = sqrt(fmax(0, cell->mean));
        cell->se = cell->e > 0 ? se / (2 * cell->e) : 0;
    }
}

/* Cells of column col from batch sums, with batch multiplicities cnt (NULL: all once). */
static void cells(const slpi_conv_cfg *c, const layout *ly, const double *buf, int nb,
                  const int *cnt, int col, slpi_conv_cell *out)
{
    for (int i = 0; i < ly->nl1; i++) {
        double s1 = 0, s2 = 0, n = 0;
        for (int b = 0; b < nb; b++) {
            int m = cnt ? cnt[b] : 1;
            const double *q = buf + (size_t)b * (size_t)ly->stride;
            for (int j = 0; j < m; j++) {
                s1 += q[col * ly->nl1 + i];
                s2 += q[ly->nq + col * ly->nl1 + i];
                n += q[2 * ly->nq + Q_PATHS];
            }
        }
        cell_from_sums(c->kind, col, s1, s2, n, &out[i]);
    }
}

static void fit_col(const slpi_conv_cfg *c, const layout *ly, const double *buf, int nb, int col,
                    slpi_conv_result *r)
{
    slpi_conv_cell *cl = r->cell[col];
    int use[SLPI_CONV_MAXLEV] = {0};
    double e[SLPI_CONV_MAXLEV], se[SLPI_CONV_MAXLEV];
    for (int i = 0; i < ly->nlev; i++) {
        use[i] = c->kind == SLPI_CONV_WEAK ? cl[i].e > 3 * cl[i].se : cl[i].e > 0;
        cl[i].fitted = use[i];
        e[i] = cl[i].e;
        se[i] = cl[i].se;
    }
    slpi_conv_fit *f = &r->fit[col];
    f->nfit = slpi_stats_wls(ly->nlev, r->h, e, se, use, &f->slope, &f->intercept);
    f->lo = f->hi = NAN;
    if (c->boot < 2 || nb < 2 || f->nfit < 2) return;
    double *s = malloc((size_t)c->boot * sizeof *s);
    int *cnt = calloc((size_t)nb, sizeof *cnt);
    slpi_conv_cell bc[SLPI_CONV_MAXLEV];
    if (!s || !cnt) {
        free(s);
        free(cnt);
        return;
    }
    uint64_t st = c->boot_seed + (uint64_t)col;
    int ns = 0;
    for (int k = 0; k < c->boot; k++) {
        memset(cnt, 0, (size_t)nb * sizeof *cnt);
        for (int b = 0; b < nb; b++) cnt[slpi_stats_rand(&st, (uint64_t)nb)]++;
        cells(c, ly, buf, nb, cnt, col, bc);
        for (int i = 0; i < ly->nlev; i++) {
            e[i] = bc[i].e;
            se[i] = bc[i].se;
        }
        double sl, ic;
        slpi_stats_wls(ly->nlev, r->h, e, se, use, &sl, &ic);
        if (isfinite(sl)) s[ns++] = sl;
    }
    f->lo = slpi_stats_quantile(s, ns, 0.025);
    f->hi = slpi_stats_quantile(s, ns, 0.975);
    free(s);
    free(cnt);
}

/* Giles' MLMC consistency check per level: |E[P_i - P_{i+1}] - (E P_i - E P_{i+1})| over
 * 3 (sd_a/sqrt(n_a) + sd_b/sqrt(n_b) + sd_c/sqrt(n_c)), the difference from the even
 * batches and the two levels from the odd ones (independent samples); < 1 passes. */
static void mlmc_check(const slpi_conv_cfg *c, const layout *ly, const double *buf, int nb,
                       slpi_conv_result *r)
{
    int *even = calloc((size_t)nb, sizeof *even), *odd = calloc((size_t)nb, sizeof *odd);
    for (int b = 0; even && odd && b < nb; b++) (b % 2 ? odd : even)[b] = 1;
    slpi_conv_cell a[SLPI_CONV_MAXLEV], p[SLPI_CONV_MAXLEV];
    if (even && odd && nb >= 2) {
        cells(c, ly, buf, nb, even, SLPI_CONV_MLMC, a);
        cells(c, ly, buf, nb, odd, SLPI_CONV_PHI, p);
        double ne = 0, no = 0;
        for (int b = 0; b < nb; b++) {
            double m = buf[(size_t)b * (size_t)ly->stride + 2 * (size_t)ly->nq + Q_PATHS];
            if (b % 2) no += m;
            else ne += m;
        }
        for (int i = 0; i < ly->nlev; i++) {
            double num = fabs(a[i].mean - (p[i].mean - p[i + 1].mean));
            double den = 3 * (sqrt(a[i].var / ne) + sqrt(p[i].var / no) + sqrt(p[i + 1].var / no));
            r->mlmc_check[i] = den > 0 ? num / den : NAN;
        }
    } else {
        for (int i = 0; i < ly->nlev; i++) r->mlmc_check[i] = NAN;
    }
    free(even);
    free(odd);
}

/* ------------------------------------------------------------------ checkpoints */

/* The study's parameters as "KEY=VALUE\n" lines (malloc'd; every one that changes a
 * printed digit, and nothing that does not: threads, ranks, checkpoint options). */
static char *study_text(const slpi_conv_cfg *c, const layout *ly, int nb)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return NULL;
    fprintf(m, "kind=%s\nphi=%d\nkmin=%d\nkmax=%d\nref=%d\npaths=%ld\npath0=%llu\nbatches=%d\nstride=%d\n",
            slpi_conv_kind_name(c->kind), (int)c->phi, c->kmin, c->kmax, c->L, c->paths,
            (unsigned long long)c->path0, nb, ly->stride);
    fprintf(m, "indep=%s\nexact=%d\nexact_value=%a\ngeneral=%d\nboot=%d\nboot_seed=%llu\n",
            c->indep ? slpi_scheme_name(c->indep_scheme) : "none", c->exact, c->exact_value,
            c->general, c->boot, (unsigned long long)c->boot_seed);
    slpi_problem_write(&c->base, m, "problem.");
    fclose(m);
    return buf;
}

static int write_ckpt(const slpi_conv_cfg *c, const layout *ly, const char *study, const double *buf,
                      const unsigned char *done, int nb, slpi_error *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return slpi_error_set(err, SLPI_EINPUT, "%s: out of memory for the checkpoint", c->checkpoint);
    int nl = 0, nd = 0;
    for (const char *s = study; *s; s++) nl += *s == '\n';
    for (int b = 0; b < nb; b++) nd += done[b];
    fprintf(m, "# %s %d\nstudy_lines %d\n", CONV_CKPT_FORMAT, CONV_CKPT_VERSION, nl);
    for (const char *s = study; *s;) {
        size_t k = strcspn(s, "\n");
        fprintf(m, "study %.*s\n", (int)k, s);
        s += k + 1;
    }
    fprintf(m, "done %d\n", nd);
    for (int b = 0; b < nb; b++) {
        if (!done[b]) continue;
        fprintf(m, "batch %d", b);
        for (int j = 0; j < ly->stride; j++) fprintf(m, " %a", buf[(size_t)b * (size_t)ly->stride + (size_t)j]);
        fputc('\n', m);
    }
    fclose(m);
    int rc = slpi_checkpoint_write_text(c->checkpoint, text, len, err);
    free(text);
    return rc;
}

/* One "batch B V..." line into its row of buf; the path count must be the batch's. */
static int read_batch(slpi_checkpoint_reader *r, const slpi_conv_cfg *c, const layout *ly, int nb, int prev,
                      double *buf, int *bout)
{
    char *v = slpi_checkpoint_value(r, "batch"), *end;
    if (!v) return SLPI_EINPUT;
    long b = strtol(v, &end, 10);
    if (end == v || *end != ' ' || b <= prev || b >= nb)
        return slpi_checkpoint_fail(r, "batch index '%.20s': expected increasing indices below the batch count", v);
    double *q = buf + (size_t)b * (size_t)ly->stride;
    for (int j = 0; j < ly->stride; j++) {
        char *t = end;
        q[j] = strtod(t, &end);
        if (end == t || (*end != ' ' && *end != '\0') || (*end == '\0') != (j + 1 == ly->stride))
            return slpi_checkpoint_fail(r, "batch row: expected %s %%a doubles", j + 1 < ly->stride ? "more" : "exactly stride");
    }
    long r0 = (long)((long double)c->paths * b / nb), r1 = (long)((long double)c->paths * (b + 1) / nb);
    if (q[2 * ly->nq + Q_PATHS] != (double)(r1 - r0))
        return slpi_checkpoint_fail(r, "batch row: its path count is not the batch's%s", "");
    *bout = (int)b;
    return SLPI_OK;
}

/* Reload the completed batches of c->resume into buf (rank 0) and mark them in done. */
static int read_ckpt(const slpi_conv_cfg *c, const layout *ly, const char *study, double *buf,
                     unsigned char *done, int nb, slpi_error *err)
{
    slpi_checkpoint_reader r;
    int rc = slpi_checkpoint_open(&r, c->resume, CONV_CKPT_FORMAT, CONV_CKPT_VERSION, err);
    if (rc != SLPI_OK) return rc;
    long nl = 0, nd = 0;
    int mine = 0;
    for (const char *s = study; *s; s++) mine += *s == '\n';
    rc = slpi_checkpoint_long(&r, "study_lines", 1, 65536, &nl);
    const char *s = study;
    for (long i = 0; i < nl && rc == SLPI_OK; i++) {
        char *v = slpi_checkpoint_value(&r, "study");
        size_t k = strcspn(s, "\n");
        if (!v) {
            rc = SLPI_EINPUT;
        } else if (!*s || strlen(v) != k || memcmp(v, s, k) != 0) {
            char msg[512];
            snprintf(msg, sizeof msg, "the checkpoint is of another study: it has %.200s, this study %.*s", v,
                     *s ? (int)(k < 200 ? k : 200) : 4, *s ? s : "none");
            rc = slpi_checkpoint_fail(&r, "%s", msg);
        }
        s += k + (s[k] == '\n');
    }
    if (rc == SLPI_OK && nl != mine) {
        char msg[256];
        snprintf(msg, sizeof msg, "%.*s", (int)strcspn(s, "\n"), s);
        rc = slpi_checkpoint_fail(&r, "the checkpoint is of another study: it lacks %s", msg);
    }
    if (rc == SLPI_OK) rc = slpi_checkpoint_long(&r, "done", 0, nb, &nd);
    for (int i = 0, prev = -1; i < nd && rc == SLPI_OK; i++) {
        rc = read_batch(&r, c, ly, nb, prev, buf, &prev);
        if (rc == SLPI_OK) done[prev] = 1;
    }
    if (rc == SLPI_OK && r.pos != r.end) {
        r.line++;
        rc = slpi_checkpoint_fail(&r, "unexpected line before the end line%s", "");
    }
    slpi_checkpoint_close(&r);
    if (rc != SLPI_OK) memset(buf, 0, (size_t)nb * (size_t)ly->stride * sizeof *buf);
    else if (c->rank != 0)   /* rank 0 alone contributes the reloaded rows to the sum */
        for (int b = 0; b < nb; b++)
            if (done[b]) memset(buf + (size_t)b * (size_t)ly->stride, 0, (size_t)ly->stride * sizeof *buf);
    return rc;
}

int slpi_conv_run(const slpi_conv_cfg *c, slpi_conv_combine combine, void *arg,
                  slpi_conv_result *res, slpi_error *err)
{
    memset(res, 0, sizeof *res);
    int rc = check_cfg(c, err);
    if (rc != SLPI_OK) return rc;
    double t0 = now_seconds();
    layout ly;
    ly.nlev = c->kmax - c->kmin + 1;
    ly.nl1 = ly.nlev + 1;
    ly.nq = SLPI_CONV_NCOL * ly.nl1;
    ly.stride = 2 * ly.nq + Q_EXTRA;
    ly.dim = slpi_problem_state_dim(&c->base);
    ly.M = slpi_problem_noise_count(&c->base);
    ly.trunc = slpi_problem_truncates(&c->base);
    ly.sup = c->kind == SLPI_CONV_SUP;
    int nb = c->batches > 0 ? c->batches : (int)(c->paths < 32 ? c->paths : 32);
    double *buf = calloc((size_t)nb * (size_t)ly.stride, sizeof *buf);
    unsigned char *done = calloc((size_t)nb, 1);
    char *study = c->checkpoint || c->resume ? study_text(c, &ly, nb) : NULL;
    if (!buf || !done || ((c->checkpoint || c->resume) && !study)) {
        free(buf);
        free(done);
        free(study);
        return slpi_error_set(err, SLPI_ENUMERIC, "converge: out of memory");
    }
    /* the thread count, then the first checkpoint (the reloaded batches, or none) before
     * any work: an unwritable path fails at once */
    int nt = 1;
    if ((rc = slpi_threads_resolve(c->threads, "converge", &nt, err)) != SLPI_OK
        || (c->resume && (rc = read_ckpt(c, &ly, study, buf, done, nb, err)) != SLPI_OK)
        || (c->checkpoint && (rc = write_ckpt(c, &ly, study, buf, done, nb, err)) != SLPI_OK)) {
        free(buf);
        free(done);
        free(study);
        return rc;
    }
    int since_ckpt = 0, ckrc = SLPI_OK;
    slpi_error ckerr = {0};

    int bad_batch = nb;
    slpi_error first = {0};
    long todo = 0;   /* the paths this rank computes now (progress on rank 0 only) */
    for (int b = 0; b < nb; b++)
        if (b % c->nranks == c->rank && !done[b])
            todo += (long)((long double)c->paths * (b + 1) / nb) - (long)((long double)c->paths * b / nb);
    slpi_progress *pg = c->rank == 0 ? slpi_progress_begin("converge, paths", todo) : NULL;
    OMP(omp parallel num_threads(nt))
    {
        worker w;
        slpi_error werr = {0};
        int wrc = worker_init(&w, c, &ly, &werr);
        OMP(omp for schedule(dynamic, 1))
        for (int b = 0; b < nb; b++) {
            if (b % c->nranks != c->rank || done[b]) continue;
            int brc = wrc;
            double *q = buf + (size_t)b * (size_t)ly.stride;
            long r0 = (long)((long double)c->paths * b / nb), r1 = (long)((long double)c->paths * (b + 1) / nb);
            w.iters = w.clipped = 0;
            for (long r = r0; r < r1 && brc == SLPI_OK; r += w.B) {
                int n = r1 - r < w.B ? (int)(r1 - r) : w.B;
                brc = run_block(&w, c, &ly, c->path0 + (uint64_t)r, n, &werr);
                slpi_progress_add(pg, n);
                for (int k = 0; brc == SLPI_OK && k < n; k++) {   /* in path order */
                    const double *v = w.val + (size_t)k * (size_t)ly.nq;
                    for (int j = 0; j < ly.nq; j++) {
                        q[j] += v[j];
                        q[ly.nq + j] += v[j] * v[j];
                    }
                }
            }
            for (int j = 0; j < 2 * ly.nq; j++) q[j] += 0.0;   /* -0 -> +0: exact rank sums */
            q[2 * ly.nq + Q_ITERS] = (double)w.iters;
            q[2 * ly.nq + Q_CLIPPED] = (double)w.clipped;
            q[2 * ly.nq + Q_PATHS] = (double)(r1 - r0);
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
                        ckrc = write_ckpt(c, &ly, study, buf, done, nb, &ckerr);
                    }
                }
            }
        }
        if (wrc == SLPI_OK) worker_free(&w);
    }
    slpi_progress_end(pg);
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
        return slpi_error_set(err, SLPI_ENUMERIC, "converge: batch %d failed on another rank",
                              -bad_batch - 1);
    }

    res->nlev = ly.nlev;
    for (int i = 0; i < ly.nl1; i++) {
        res->level[i] = i < ly.nlev ? c->kmin + i : c->L;
        res->h[i] = ldexp(c->base.T, -res->level[i]);
    }
    for (int b = 0; b < nb; b++) {
        const double *q = buf + (size_t)b * (size_t)ly.stride + 2 * (size_t)ly.nq;
        res->iters += (long)q[Q_ITERS];
        res->clipped += (long)q[Q_CLIPPED];
        res->paths += (long)q[Q_PATHS];
    }
    res->have[SLPI_CONV_SELF] = 1;
    res->have[SLPI_CONV_INDEP] = c->indep || c->exact;
    res->have[SLPI_CONV_MLMC] = res->have[SLPI_CONV_PHI] = c->kind == SLPI_CONV_WEAK;
    for (int col = 0; col < SLPI_CONV_NCOL; col++) {
        if (!res->have[col]) continue;
        cells(c, &ly, buf, nb, NULL, col, res->cell[col]);
        if (col != SLPI_CONV_PHI) fit_col(c, &ly, buf, nb, col, res);
    }
    res->refgap = res->cell[SLPI_CONV_SELF][ly.nlev].e;
    res->refgap_se = res->cell[SLPI_CONV_SELF][ly.nlev].se;
    if (c->kind == SLPI_CONV_WEAK) mlmc_check(c, &ly, buf, nb, res);
    if (c->exact)
        for (int i = 0; i < ly.nl1; i++)
            res->quad[i] = slpi_weak_exact_scheme(c->base.scheme, c->base.rb.amp, c->base.T,
                                                  res->h[i], c->base.trunc_ell, ly.trunc);
    free(buf);
    res->seconds = now_seconds() - t0;
    return SLPI_OK;
}
