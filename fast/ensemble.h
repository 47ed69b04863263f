/* ensemble.h — the declared interface of the double path's lock-step ensembles
 * (fast/ensemble.c), for the convergence studies of studies/ (docs/architecture.md):
 * the structure-of-arrays kernels and the solver policy they take. Everything else of
 * fast/ stays behind fast/fast.h. */
#ifndef SLPI_FAST_ENSEMBLE_H
#define SLPI_FAST_ENSEMBLE_H

typedef struct slpi_error slpi_error; /* slpi/errors.h */
typedef struct slpi_plan slpi_plan;
#include "slpi/step.h"
#include "core/problem-options.h"
#include "fast/model-tape.h"

/* The fixed-point solver policy of docs/schemes.md#solver. */
typedef struct {
    double tol;
    double tol_h; /* 0: tol relative to max(1, |u|); > 0: to tol_h |u| (tol_scale=step, tol_h = |h|) */
    int maxit;
    int fixed_iters; /* > 0: exactly this many iterations, then CAPPED */
    slpi_cap_policy on_cap;
} slpi_fast_policy;
/* The policy of problem p (its tol, maxit, fixed_iters, on_cap and tol_scale: tol_h
 * = |h| for tol_scale=step). fast/fast.c. */
void slpi_fast_policy_set(slpi_fast_policy *pol, const slpi_problem *p);

/* Structure-of-arrays ensembles of the so(3) rigid body (docs/systems.md#rigid-body; benchmark P2),
 * fast/ensemble.c: nl paths, state x[i*nl + r] (component i of path r), increments
 * dW[k*nl + r]. ISOMP-COMM with iso-quad noise (M = 3), and SVI-SO3 (rotation output)
 * with svi-lin noise (M = 3), advanced in lock-step groups of 2, 4 or 8 lanes (vectorised; the
 * kernel for the instruction set `isa`, AUTO or unavailable: the best one present), each
 * path bit-identical to slpi_fast_step on the same problem. Returns the number of failed
 * paths (their state is left unchanged); iters (may be NULL) accumulates the iterations;
 * lane (may be NULL) gets each path's iterations and status, those slpi_fast_step reports
 * (failed paths: slpi_step_failed(lane[r].status)). */
/* ISOMP's start in the lanes, as fast/isomp.c's (docs/schemes.md#solver). */
enum { SLPI_FAST_PREDICT_NONE, SLPI_FAST_PREDICT_EULER, SLPI_FAST_PREDICT_CAYLEY };
typedef enum { SLPI_FAST_ISA_AUTO, SLPI_FAST_ISA_PORTABLE, SLPI_FAST_ISA_AVX2, SLPI_FAST_ISA_AVX512 } slpi_fast_isa;
typedef struct {
    double Iinv[3]; /* inverse inertia (h0_scale included) */
    double amp;     /* noise amplitude */
    double c;       /* SVI quadratic-term sign (+-1/4) */
    slpi_fast_policy pol;
    int predict;       /* ISOMP's start (fast/isomp.c isomp_predict): SLPI_FAST_PREDICT_* */
    slpi_fast_isa isa; /* set by init to the best available */
} slpi_fast_rb_soa;
typedef struct {
    int iterations;
    slpi_step_status status;
} slpi_fast_lane;
/* The kernel that integrates problem p bit-identically to slpi_fast_step (the rigid body's
 * ISOMP-COMM with iso-quad noise and fixed-point solves, SVI-SO3 with svi-lin noise and
 * rotation output, cold starts), or NONE with the reason in *why (may be NULL). */
typedef enum { SLPI_FAST_SOA_NONE, SLPI_FAST_SOA_ISOMP, SLPI_FAST_SOA_SVI, SLPI_FAST_SOA_MODEL } slpi_fast_soa_kind;
slpi_fast_soa_kind slpi_fast_rb_soa_kind(const slpi_problem *p, const char **why);
int slpi_fast_rb_soa_init(slpi_fast_rb_soa *c, const slpi_problem *p, slpi_error *err);
int slpi_fast_ensemble_isa_available(slpi_fast_isa isa);
slpi_fast_isa slpi_fast_ensemble_isa_best(void);
/* The slot (0 portable, 1 AVX2, 2 AVX-512F) of the kernel that runs for isa: AUTO the
 * best available, one this processor lacks the portable one. */
int slpi_fast_ensemble_isa_slot(slpi_fast_isa isa);
long slpi_fast_rb_isomp_soa(const slpi_fast_rb_soa *c, long nl, double h, double *x, const double *dW, long *iters,
                            slpi_fast_lane *lane);
long slpi_fast_rb_svi_soa(const slpi_fast_rb_soa *c, long nl, double h, double *x, const double *dW, long *iters,
                          slpi_fast_lane *lane);

/* Lock-step ensembles of a model (system=model, docs/models.md) on so3 or so3^k,
 * fast/model-lanes.c: ISOMP-COMM with fixed-point solves, as slpi_fast_rb_isomp_soa (the
 * same layout, policy and report), each path bit-identical to slpi_fast_step on the same
 * problem. The model's fused tape (fast/model-tape.h) is compiled once into a lane
 * program, a list of operations on slots of SLPI_ENSEMBLE_BLOCK lanes each, run in
 * registers of ENS_W lanes by fast/ensemble-model.h. */
typedef enum {
    SLPI_LANE_ADD,
    SLPI_LANE_SUB,
    SLPI_LANE_MUL,
    SLPI_LANE_NEG,
    SLPI_LANE_DIV,
    SLPI_LANE_SQR,
    SLPI_LANE_POWI,  /* d = a^n, n >= 3, by squaring as fast/model-tape.c's ipow */
    SLPI_LANE_VALUE, /* any other operation, path by path */
    SLPI_LANE_ACC,
    SLPI_LANE_DEC,
    SLPI_LANE_ACC_MUL,
    SLPI_LANE_ACC_DIV,
    SLPI_LANE_DEC_MULDIV,
    SLPI_LANE_ACC_SQR,
    SLPI_LANE_ACC_POWI, /* d = z + a (n b^(n-1)), n >= 3, as fast/model-tape.c's reverse pass */
    SLPI_LANE_ACC_DERIV,
    SLPI_LANE_ACC_POW_BASE,
    SLPI_LANE_ACC_POW_EXP,
    SLPI_LANE_FINITE /* d = z + (a - a) + (b - b): NaN unless a, b finite */
} slpi_lane_opcode;
typedef struct {
    slpi_lane_opcode op;
    int d, a, b, c, e; /* slots: the result, the operands (0 if unused) */
    int acc;           /* the sums': the sum so far (d, or a zero slot) */
    int kb;            /* MUL, DIV, ACC_MUL, ACC_DIV: b is a constant, k */
    double k;
    const slpi_expr_node *node; /* VALUE, ACC_DERIV: the tape's node */
    int n;                      /* POWI, ACC_POWI: the exponent */
} slpi_fast_lane_op;
typedef struct {
    const slpi_plan *plan; /* a reference: its model m */
    const slpi_model *m;
    slpi_fast_tapes tp;              /* the fused tape tp.all is compiled */
    int dim, M, nb;                  /* coordinates, noises, so(3) blocks (dim = 3 nb) */
    int nslot;                       /* slots of SLPI_ENSEMBLE_BLOCK doubles in S: */
    int y0, x0, w0, s0, d0, g0, fin; /* the iterate Y (the tape's coordinates), X_n, the new
                                         iterate, the seeds (0 + seed), delta, the gradient,
                                         a slot of zeros (fin - 1), the finiteness test (0:
                                         the roots and the gradient are finite) */
    int *psi;                        /* per coordinate: the slot of its gradient */
    int nprog, nhoist, ncheck;
    slpi_fast_lane_op *prog;    /* the forward pass's values the reverse pass reads and
                                         the reverse pass: first (to nhoist) the operations
                                         that read no coordinate (run once per seeds), then
                                         the others; from ncheck on the test of the roots'
                                         finiteness (the values only it reads) */
    double bound;               /* > 0: the roots are finite where every coordinate
                                         is at most bound in magnitude (no test needed) */
    int nconst, *cslot, *cnode; /* constant slots: the tape's node (-1 - node: its
                                         reciprocal, a power of two), refreshed at each t */
    double t0, *S;
    slpi_fast_policy pol;
    int predict;
    slpi_fast_isa isa;
} slpi_fast_model_soa;
/* The kernel for problem p, or NONE with the reason in *why; init builds c (free with
 * slpi_fast_model_soa_clear, after an error too). */
slpi_fast_soa_kind slpi_fast_model_soa_kind(const slpi_problem *p, const char **why);
int slpi_fast_model_soa_init(slpi_fast_model_soa *c, const slpi_plan *plan, slpi_error *err);
void slpi_fast_model_soa_clear(slpi_fast_model_soa *c);
/* c's solver policy, predictor, t0 and kernel, those of p (fast/ensemble.c). */
void slpi_fast_model_soa_policy(slpi_fast_model_soa *c, const slpi_problem *p);
/* Step `step` (its time t0 + (step + 1/2) h, for models that read t) of nl paths. */
long slpi_fast_model_isomp_soa(slpi_fast_model_soa *c, long nl, double h, long step, double *x, const double *dW,
                               long *iters, slpi_fast_lane *lane);

#endif
