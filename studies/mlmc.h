/* studies/mlmc.h — multilevel Monte Carlo estimates of E phi(X_T) to a requested RMSE
 * (docs/noise.md#mlmc; Giles, "Multilevel Monte Carlo path simulation", Oper. Res. 56,
 * 2008). Used by cli/cmd-mlmc.c, studies/mlmc-report.c (the handle API, Python's slpi.mlmc)
 * and tests. Not on the audit's decision path. */
#ifndef SLPI_STUDIES_MLMC_H
#define SLPI_STUDIES_MLMC_H

#include <stdint.h>
#include <stdio.h>
#include "studies/studies.h"
#include "core/expr.h"
#include "core/checkpoint.h"

#define SLPI_MLMC_MAXLEV 24
/* Level j's paths are the canonical paths j 2^27 + n, n = 0, 1, ... (disjoint per level). */
#define SLPI_MLMC_LEVEL_PATHS (UINT64_C(1) << 27)

typedef struct {
    slpi_conv_cfg conv;     /* base problem (seed, noise, T), phi, threads; the rest unused */
    double rmse;            /* requested root-mean-square error eps > 0 */
    int l0, lmax;           /* coarsest level (h = T 2^-l0) and the finest one allowed */
    long n0;                /* pilot paths of a level when it is first sampled (>= 2) */
    double alpha;           /* weak order in the bias estimate (> 0; default 1) */
    int plain;              /* 1: plain Monte Carlo at level l0 alone (no level is added) */
    const char *checkpoint; /* the state after every level's sampling (NULL: none) */
    const char *resume;     /* go on from a checkpoint of the same estimate */
} slpi_mlmc_cfg;

typedef struct {
    int nlev;                                          /* levels l0 .. l0 + nlev - 1 */
    long drawn[SLPI_MLMC_MAXLEV];                      /* paths drawn at each level (from j 2^27) */
    long n[SLPI_MLMC_MAXLEV];                          /* of them, the survivors its estimator uses */
    double s1[SLPI_MLMC_MAXLEV], s2[SLPI_MLMC_MAXLEV]; /* sums of Y_j, Y_j^2 */
    double p1[SLPI_MLMC_MAXLEV], p2[SLPI_MLMC_MAXLEV]; /* sums of the level's fine phi */
    long failed[SLPI_MLMC_MAXLEV], clipped[SLPI_MLMC_MAXLEV];
    long pending[SLPI_MLMC_MAXLEV]; /* paths still to draw this round (resumable) */
    int rounds;
    /* derived (slpi_mlmc_summary) */
    double mean[SLPI_MLMC_MAXLEV], var[SLPI_MLMC_MAXLEV], cost[SLPI_MLMC_MAXLEV];
    double estimate, se, bias, total_cost, mc_cost, var_fine;
    int converged; /* 1: variance and bias both met; 0: stopped at lmax */
    long resumed;  /* paths the checkpoint gave back */
    double seconds[SLPI_MLMC_MAXLEV], wall;
} slpi_mlmc_result;

/* The defaults, over base (held by pointer, as slpi_conv_init does: base must outlive the
 * runs of c). */
void slpi_mlmc_init(slpi_mlmc_cfg *c, const slpi_problem *base);
/* The estimate (Giles' algorithm; studies/mlmc.c says how); SLPI_OK, SLPI_EINPUT, SLPI_EINTR
 * (after a checkpoint of what was done), SLPI_ENUMERIC (a level lost every path). */
int slpi_mlmc_run(const slpi_mlmc_cfg *c, slpi_mlmc_result *r, slpi_error *err);
/* Means, variances, costs, the estimate, its SE, the bias estimate and plain MC's cost. */
void slpi_mlmc_summary(const slpi_mlmc_cfg *c, slpi_mlmc_result *r);
/* The paths each level needs: ceil(2 eps^-2 sqrt(V_j / C_j) sum_k sqrt(V_k C_k)). */
long slpi_mlmc_paths_needed(const slpi_mlmc_cfg *c, const slpi_mlmc_result *r, int j);
/* n paths of level l0 from path0: their phi into v (NaN: failed), OpenMP over paths; the
 * clipped increments added to *clipped. phi: the parsed expression of SLPI_PHI_EXPR. */
int slpi_mlmc_bottom(const slpi_mlmc_cfg *c, const slpi_expr *phi, uint64_t path0, long n, double *v, long *clipped,
                     slpi_error *err);
/* The parameters that decide every digit of an estimate, "key=value" lines (malloc'd). */
char *slpi_mlmc_identity(const slpi_mlmc_cfg *c);
/* The "estimate" lines of an opened checkpoint against id, line by line (naming the first
 * that differs). */
int slpi_mlmc_ckpt_same(slpi_checkpoint_reader *rd, const char *id);
/* studies/mlmc-report.c: the estimate as text (every digit deterministic) and as JSON. */
void slpi_mlmc_print(const slpi_mlmc_cfg *c, const slpi_mlmc_result *r, FILE *f);
int slpi_mlmc_write_json(const slpi_mlmc_cfg *c, const slpi_mlmc_result *r, FILE *f);


/* ------------------------------------------------------------ Giles' mlmc_test */

/* `slpi mlmc --test` (studies/mlmc-test.c; docs/noise.md#mlmc-test; Giles, "Multilevel
 * Monte Carlo methods", Acta Numerica 24, 2015): a fixed number of paths on every level
 * l0..lmax, each level's moments, the consistency check, the fitted rates and the cost
 * of MLMC against plain Monte Carlo over a sweep of requested RMSEs. */
#define SLPI_MLMC_TEST_MAXEPS 16

typedef struct {
    slpi_mlmc_cfg m; /* problem, phi, threads, levels l0..lmax, checkpoint, resume */
    long paths;      /* paths per level, 2..2^27 */
    int neps;        /* the sweep's requested RMSEs (1..SLPI_MLMC_TEST_MAXEPS) */
    double eps[SLPI_MLMC_TEST_MAXEPS];
} slpi_mlmc_test_cfg;

/* Running central moments of one sample (Pebay's one-pass update): count, mean, and the
 * sums of the 2nd, 3rd and 4th powers of the deviations from the mean. */
typedef struct {
    double n, mean, m2, m3, m4;
} slpi_mlmc_moments;

typedef struct {
    int nlev;                                               /* levels started */
    long drawn[SLPI_MLMC_MAXLEV], failed[SLPI_MLMC_MAXLEV], /* paths drawn, left out */
        clipped[SLPI_MLMC_MAXLEV];
    slpi_mlmc_moments y[SLPI_MLMC_MAXLEV], p[SLPI_MLMC_MAXLEV]; /* Y_l and P_l (survivors) */
    /* derived (slpi_mlmc_test_summary); NaN where undefined */
    double mean[SLPI_MLMC_MAXLEV], var[SLPI_MLMC_MAXLEV], kurt[SLPI_MLMC_MAXLEV];
    double mean_p[SLPI_MLMC_MAXLEV], var_p[SLPI_MLMC_MAXLEV], check[SLPI_MLMC_MAXLEV], cost[SLPI_MLMC_MAXLEV];
    double alpha, beta, gamma; /* minus the OLS slopes of log2 |mean|, var, cost on l, l > l0 */
    int nfit[3];               /* levels each of the three fits used */
    /* the sweep: the finest level L each eps needs (-1: none up to 24), MLMC's steps
     * (sum N_l C_l) and plain MC's (ceil(2 V[P_L] / eps^2) 2^L) */
    int sweep_level[SLPI_MLMC_TEST_MAXEPS];
    double mlmc_cost[SLPI_MLMC_TEST_MAXEPS], mc_cost[SLPI_MLMC_TEST_MAXEPS];
    int check_flag, kurt_flag; /* a check above 1 (at level index check_flag - 1); kurtosis > 100 on top */
    long resumed;
    double seconds[SLPI_MLMC_MAXLEV], wall;
} slpi_mlmc_test_result;

void slpi_mlmc_test_init(slpi_mlmc_test_cfg *c, const slpi_problem *base);
/* The test; SLPI_OK, SLPI_EINPUT, SLPI_EINTR (after a checkpoint of the chunks done),
 * SLPI_ENUMERIC (a level lost all but one path). */
int slpi_mlmc_test_run(const slpi_mlmc_test_cfg *c, slpi_mlmc_test_result *r, slpi_error *err);
/* One value into running moments (Pebay's update). */
void slpi_mlmc_moments_add(slpi_mlmc_moments *s, double x);
/* The derived figures of r from its moments. */
void slpi_mlmc_test_summary(const slpi_mlmc_test_cfg *c, slpi_mlmc_test_result *r);
/* The paths level j of the sweep's eps e would need, N_j = ceil(2 e^-2 sqrt(V_j/C_j)
 * sum_k sqrt(V_k C_k)), over the levels l0..L of the sweep (j from l0). */
double slpi_mlmc_test_paths(const slpi_mlmc_test_cfg *c, const slpi_mlmc_test_result *r, int L, int j, double e);
/* studies/mlmc-report.c: the test as text (every digit deterministic) and JSON. */
void slpi_mlmc_test_print(const slpi_mlmc_test_cfg *c, const slpi_mlmc_test_result *r, FILE *f);
int slpi_mlmc_test_write_json(const slpi_mlmc_test_cfg *c, const slpi_mlmc_test_result *r, FILE *f);

#endif
