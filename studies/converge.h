/* studies/converge.h — studies' private header between the files of the convergence studies
 * (studies/converge.c: the study, its configuration, checkpoints and the batch loop;
 * studies/converge-paths.c: the lock-step path engine; studies/converge-stats.c: the
 * estimators). Not an interface of studies: other modules see studies/studies.h. */
#ifndef SLPI_STUDIES_CONVERGE_H
#define SLPI_STUDIES_CONVERGE_H

#include <stdint.h>
typedef struct slpi_error slpi_error; /* slpi/errors.h */
typedef struct slpi_fast slpi_fast;
#include "fast/ensemble.h"
#include "studies/studies.h"
#include "core/expr.h"
#include "core/noise.h"

/* The extra doubles of a batch's row after its sums: solver iterations, clipped
 * increments, surviving paths, failed paths (docs/noise.md#failed-paths), the batch's first
 * failure (path + 1, 0: none; object, step, status, iterations, residual, 1 when it is
 * the functional's, phi's value), and the failed paths per fast object
 * (SLPI_CONV_MAXLEV + 1 slots). */
enum {
    Q_ITERS,
    Q_CLIPPED,
    Q_PATHS,
    Q_FAILED,
    Q_F_PATH,
    Q_F_OBJECT,
    Q_F_STEP,
    Q_F_STATUS,
    Q_F_ITERS,
    Q_F_RESIDUAL,
    Q_F_FUNCTIONAL,
    Q_F_VALUE,
    Q_F_COUNT,
    Q_EXTRA = Q_F_COUNT + SLPI_CONV_MAXLEV + 1
};

/* The shape of a study's rows. */
typedef struct {
    int nlev, nl1, nq, stride; /* levels, nlev + 1, values per path, doubles per batch */
    int dim, M, trunc, sup;
    const slpi_expr *phi; /* the parsed functional (SLPI_PHI_EXPR), else empty */
} slpi_conv_layout;

/* studies/converge-phi.c: parse an expression functional over the coordinate names of p's
 * state layout (and a model's parameters); SLPI_EINPUT naming phi= and the fix. */
int slpi_conv_phi_parse(slpi_expr *e, const slpi_problem *p, const char *text, slpi_error *err);
/* phi(x) (e: the parsed expression of SLPI_PHI_EXPR); NaN when it fails. */
double slpi_conv_phi_eval(const slpi_conv_cfg *c, const slpi_expr *e, const double *x, int dim);

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
    slpi_fast *f[SLPI_CONV_MAXLEV + 2]; /* coarse levels, then reference, independent */
    slpi_fast_rb_soa soa[SLPI_CONV_MAXLEV + 2];
    slpi_fast_soa_kind kind[SLPI_CONV_MAXLEV + 2]; /* the structure-of-arrays kernel of fast/ensemble.c */
    int nf, B;                                     /* fast objects; lanes per block */
    long S;                                        /* fine steps per segment, 2^(L - kmin) */
    double *x0;                                    /* the initial state */
    double *x;                                     /* states of a block, SoA: object i at x + i dim B */
    double *noise;                                 /* one segment's increments of a block, per level (noise_at) */
    int tile;                                      /* paths whose hierarchies are drawn together, min(TILE, B) */
    double *hier,
        *lev[TILE * 32]; /* path q of a tile's hierarchy of a segment: level L - i at lev[q (L - kmin + 1) + i] */
    double D[SLPI_CONV_MAXLEV + 2]; /* truncation threshold of object i's level */
    double *traj;                   /* sup: reference (and independent) states on the kmax grid */
    double *sup;                    /* sup: running maxima, (level, column) x lane */
    double *lane, *dW;              /* one path's state and increments (general path) */
    /* what each object carries from step to step for each lane of the block (general path:
     * a warm start, slpi_fast_carry_get), ncarry[i] doubles at carry + (i B + r) cmax */
    double *carry;
    int ncarry[SLPI_CONV_MAXLEV + 2], cmax;
    double *scratch;                   /* three states of one path */
    double phiv[SLPI_CONV_MAXLEV + 2]; /* weak: phi of each object's state, one lane */
    double *val;                       /* per-path values of the block, lane r at val + r nq */
    slpi_fast_lane *lane_out;          /* the SoA kernel's report of each lane's step */
    /* failed paths (docs/noise.md#failed-paths): dead[i B + r], lane r failed on object i;
     * lost[r] (after slpi_conv_run_block), lane r failed somewhere: left out of the sums */
    unsigned char *dead, *lost;
    long nfail[SLPI_CONV_MAXLEV + 1]; /* the batch's failed paths per object */
    slpi_conv_failure first;          /* the batch's first failure (path -1: none) */
    long iters, clipped;
    /* noise_tau (docs/noise.md#ou-studies): component k's coefficients on the fine step
     * T 2^-L (ou[k].tau = 0: white), and eta of component k, lane r at eta[k B + r];
     * NULL when every component is white */
    slpi_ou_coef *ou;
    double *eta;
} slpi_conv_worker;

/* A worker's fast objects and buffers (one per thread); SLPI_OK or an error. */
int slpi_conv_worker_init(slpi_conv_worker *w, const slpi_conv_cfg *c, const slpi_conv_layout *ly, slpi_error *err);
void slpi_conv_worker_free(slpi_conv_worker *w);
/* The n paths from path0 through every level, their per-path values into w->val; a lane
 * whose step failed is marked in w->lost and counted in w->nfail and w->first. */
int slpi_conv_run_block(slpi_conv_worker *w, const slpi_conv_cfg *c, const slpi_conv_layout *ly, uint64_t path0, int n,
                        slpi_error *err);
/* The estimators of a study from the batch sums buf (nb rows of ly->stride). */
void slpi_conv_cells(const slpi_conv_cfg *c, const slpi_conv_layout *ly, const double *buf, int nb, const int *cnt,
                     int col, slpi_conv_cell *out);
void slpi_conv_fit_col(const slpi_conv_cfg *c, const slpi_conv_layout *ly, const double *buf, int nb, int col,
                       slpi_conv_result *r);
void slpi_conv_mlmc_check(const slpi_conv_cfg *c, const slpi_conv_layout *ly, const double *buf, int nb,
                          slpi_conv_result *r);

#endif
