/* studies.h — internal interface of studies/: coupled convergence studies (docs/noise.md#coupling, docs/noise.md#estimators),
 * their statistics (weighted least-squares slopes, batch bootstrap CIs, MLMC diagnostics)
 * and the Monte-Carlo-free weak oracles (docs/experiments.md#iso iso/so3/weak-exact, docs/experiments.md#svi svi/so3/weak-exact).
 * Used by cli/cmd-converge.c, the claims audit (reports/), the benchmarks and tests; the
 * multilevel Monte Carlo estimator's interface is studies/mlmc.h. */
#ifndef SLPI_STUDIES_H
#define SLPI_STUDIES_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
typedef struct slpi_error slpi_error; /* slpi/errors.h */
#include "slpi/registry-ids.h"
typedef struct slpi_problem slpi_problem; /* slpi/problem.h */
#include "slpi/step.h"

/* ------------------------------------------------------------ convergence study */

typedef enum { SLPI_CONV_STRONG, SLPI_CONV_SUP, SLPI_CONV_WEAK } slpi_conv_kind;
/* The weak functional: the two named ones, an expression of the state in the model
 * language (phi_text; studies/converge-phi.c), or a function of the caller's (phi_fn). */
typedef enum { SLPI_PHI_SIN2PI, SLPI_PHI_X1, SLPI_PHI_EXPR, SLPI_PHI_FN } slpi_conv_phi;
/* phi(x) of a state x[dim] into *value; nonzero: failed (the path is a failed path). */
typedef int (*slpi_conv_phi_fn)(double *value, const double *x, int dim, void *user_data);

/* Reference columns of a study: the same scheme at the reference level (self), an
 * independent scheme at the reference level, or an exact value (weak-exact oracles). */
enum { SLPI_CONV_SELF, SLPI_CONV_INDEP, SLPI_CONV_MLMC, SLPI_CONV_PHI, SLPI_CONV_NCOL };
#define SLPI_CONV_MAXLEV 24

typedef struct {
    const slpi_problem *base; /* system, scheme, T, seed, noise, solver keys: the caller's
                                 * problem, which must outlive the study (slpi_conv_init) */
    slpi_conv_kind kind;
    slpi_conv_phi phi;       /* weak functional */
    const char *phi_text;    /* SLPI_PHI_EXPR: the expression (docs/noise.md#functionals) */
    slpi_conv_phi_fn phi_fn; /* SLPI_PHI_FN: the function and its data (thread-safe) */
    void *phi_data;
    int kmin, kmax, L; /* coarse levels h = T 2^-k, k = kmin..kmax; reference L */
    long paths;        /* R */
    uint64_t path0;    /* first path index */
    int batches;       /* batch count (the unit of work and of the bootstrap) */
    int indep;         /* 1: independent reference scheme indep_scheme at level L */
    slpi_scheme_id indep_scheme;
    int exact; /* 1: weak reference is exact_value (weak-exact oracles) */
    double exact_value;
    int general;     /* 1: never the structure-of-arrays kernels (comparison) */
    int boot;        /* bootstrap replicates (0: no CI) */
    int ols;         /* 1: the slope fit with equal weights (else (e/se)^2) */
    int drop_coarse; /* the coarsest levels left out of the slope fit (0: none) */
    uint64_t boot_seed;
    int threads;            /* OpenMP threads (0: the runtime default) */
    int rank, nranks;       /* this process computes batches b with b % nranks == rank */
    const char *checkpoint; /* write the completed batches' sums here (NULL: none) ... */
    int checkpoint_every;   /* ... after every this many completed batches (one rank) */
    const char *resume;     /* skip the batches a checkpoint of the same study holds */
} slpi_conv_cfg;

typedef struct {
    double e, se;     /* error estimate and its standard error */
    double mean, var; /* mean and variance of the per-path quantity */
    int fitted;       /* used in the slope fit */
} slpi_conv_cell;

typedef struct {
    double slope, lo, hi; /* WLS slope of log e on log h; bootstrap 95% CI */
    double intercept;
    int nfit;
} slpi_conv_fit;

/* A failed path of a study (docs/noise.md#failed-paths): path, fast object (the coarse
 * levels 0..nlev-1, the reference nlev, the independent reference nlev + 1), its level
 * and h, the step on that level's grid, and what failed: a step (its status, iterations
 * and residual), or, every step taken, the functional phi, not finite at the level's
 * last step (functional 1, its value). */
typedef struct {
    long long path; /* -1: none */
    int object, level;
    double h;
    long step;
    slpi_step_status status;
    int iterations;
    double residual;
    int functional; /* 1: phi was not finite (value), no step failed */
    double value;
} slpi_conv_failure;

typedef struct {
    int nlev;
    double h[SLPI_CONV_MAXLEV];
    int level[SLPI_CONV_MAXLEV];
    int have[SLPI_CONV_NCOL];
    slpi_conv_cell cell[SLPI_CONV_NCOL][SLPI_CONV_MAXLEV];
    slpi_conv_fit fit[SLPI_CONV_NCOL];
    double refgap, refgap_se;             /* self reference vs independent reference at level L */
    double mlmc_check[SLPI_CONV_MAXLEV];  /* Giles consistency ratio (< 1 passes) */
    double quad[SLPI_CONV_MAXLEV];        /* weak-exact: quadrature E phi(X_h(T)) */
    long paths, iters, clipped;           /* paths: the surviving paths, those every estimate uses */
    long failed;                          /* failed paths, left out of every estimate */
    long failed_at[SLPI_CONV_MAXLEV + 1]; /* per fast object (slpi_conv_failure.object) */
    slpi_conv_failure first_failure;      /* lowest path, then lowest object */
    long resumed;                         /* paths whose batches came from cfg.resume, not computed */
    double seconds;
} slpi_conv_result;

/* Combine the per-batch sums of all ranks in place (MPI_Allreduce sum); NULL: one rank.
 * Each batch's slot is written by exactly one rank and is zero elsewhere, so the sum is
 * exact and the result independent of the rank count. */
typedef int (*slpi_conv_combine)(double *buf, size_t n, void *arg);

/* The defaults, over base: c->base points at it (no copy), so base must outlive every
 * slpi_conv_run of c, and a change to base is a change to the study. */
void slpi_conv_init(slpi_conv_cfg *c, const slpi_problem *base);
int slpi_conv_run(const slpi_conv_cfg *c, slpi_conv_combine combine, void *arg, slpi_conv_result *res, slpi_error *err);
/* Print the study (studies/converge-report.c): provenance and problem keys as "# " lines,
 * then the table; every digit is a deterministic function of cfg and the build. */
void slpi_conv_print(const slpi_conv_cfg *c, const slpi_conv_result *r, FILE *f);
/* The same study as one JSON document (provenance, problem, study, levels, slopes);
 * SLPI_EINPUT on a write error. */
int slpi_conv_write_json(const slpi_conv_cfg *c, const slpi_conv_result *r, FILE *f);
const char *slpi_conv_col_name(int col);
/* "SCHEME on path P, level L (h = H), step S: STATUS, I iterations, residual R". */
void slpi_conv_failure_text(const slpi_conv_cfg *c, const slpi_conv_failure *f, char *buf, size_t n);
const char *slpi_conv_kind_name(slpi_conv_kind k);
/* The functional by name into c: "sin2pi", "x1", else an expression of the state (text is
 * kept, not copied; parsed, and refused if bad, when the study starts). */
int slpi_conv_phi_set(slpi_conv_cfg *c, const char *text);
/* Its name as the report and the JSON give it: sin2pi, x1, the expression, "callable". */
const char *slpi_conv_phi_name(const slpi_conv_cfg *c);

/* ------------------------------------------------------------ statistics */

/* WLS fit of log e on log h with weights (e/se)^2 over the cells marked fitted (se NULL:
 * equal weights, ordinary least squares). */
int slpi_stats_wls(int n, const double *h, const double *e, const double *se, const int *use, double *slope,
                   double *intercept);
/* Deterministic pseudo-random integer in [0, n) (splitmix64 on *state). */
uint64_t slpi_stats_rand(uint64_t *state, uint64_t n);
/* q-quantile (0..1) of v[0..n) (sorts v). */
double slpi_stats_quantile(double *v, int n, double q);

/* ------------------------------------------------------------ weak-exact oracles */

/* E g(clip(sqrt(h) Z, +-D)) for Z ~ N(0,1), D = sqrt(2 ell h |ln h|) (D <= 0: no clip),
 * by composite Gauss–Legendre quadrature plus the two atoms at +-D. */
double slpi_weak_clipped_mean(double (*g)(double w, void *arg), void *arg, double h, double D);
/* E[first coordinate at T] of the so(3) oracle with H_0 = 0, chi = sigma e_3, x_0 = e_1:
 * (E cos phi(dW))^(T/h) with phi = 2 atan(sigma dW/2) (ISOMP) or 4 atan(sigma dW/4) (SVI). */
double slpi_weak_exact_scheme(slpi_scheme_id k, double sigma, double T, double h, double ell, int truncate);
/* The same for the SDE (h -> 0): exp(-sigma^2 T / 2), the oracle's exact weak reference. */
double slpi_weak_exact_sde(double sigma, double T);

#endif
