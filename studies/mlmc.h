/* studies/mlmc.h — multilevel Monte Carlo estimates of E phi(X_T) to a requested RMSE
 * (docs/noise.md#mlmc; Giles, "Multilevel Monte Carlo path simulation", Oper. Res. 56,
 * 2008). Used by cli/cmd-mlmc.c, studies/mlmc-report.c (the handle API, Python's slpi.mlmc)
 * and tests. Not on the audit's decision path. */
#ifndef SLPI_STUDIES_MLMC_H
#define SLPI_STUDIES_MLMC_H

#include <stdint.h>
#include <stdio.h>
#include "studies/studies.h"

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
/* studies/mlmc-report.c: the estimate as text (every digit deterministic) and as JSON. */
void slpi_mlmc_print(const slpi_mlmc_cfg *c, const slpi_mlmc_result *r, FILE *f);
int slpi_mlmc_write_json(const slpi_mlmc_cfg *c, const slpi_mlmc_result *r, FILE *f);

#endif
