/* props/props.h — the property harness (props/; docs/architecture.md, docs/schemes.md#summary, docs/claims.md):
 * seeded generators of small problems biased to corner cases, properties checked per
 * scheme against its row of docs/schemes.md#summary (including negative controls that must fail),
 * a shrinker that reduces a failing case, and replay strings. Internal to slpi: the
 * `slpi props` command and tests/t-props*.c include it. */
#ifndef SLPI_PROPS_H
#define SLPI_PROPS_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include "core/vec.h"
typedef struct slpi_error slpi_error; /* slpi/errors.h */
#include "slpi/registry-ids.h"
typedef struct slpi_problem slpi_problem;
typedef struct slpi_system_view slpi_system_view; /* core/view-system.h */
#include "slpi/step.h"
#include "core/slpi-flint.h"

/* ------------------------------------------------------------------ cases
 * A case is a handful of numbers; everything else (inertia, X0, increments, group
 * elements) is drawn from `seed`, so a case prints as one replay string. */
typedef struct {
    int prop; /* index into the property table */
    slpi_system_id system;
    slpi_scheme_id scheme;
    int variant; /* isomp: 1 = update cay; svi: 1 = c = -1/4 (as printed) */
    int dim;     /* n (manakov, vortices), N (zeitlin, sine-euler); 3 otherwise */
    long steps;
    double h;
    double mag;  /* size of the initial state */
    double amp;  /* noise amplitude */
    int noises;  /* active Wiener components; the others get increment 0 */
    int inertia; /* 0 generic, 1 repeated eigenvalue, 2 near-degenerate,
                              3 well separated (1, 2, 3): order studies and controls,
                              4 near-singular (1e-2, 1, 2) */
    int state;   /* initial state: 0 random, 1 near a separatrix (so(3): the
                              middle axis), 2 near a pole (e_3; a vortex at the north pole,
                              the heavy top sleeping upright); su(N) states ignore it */
    uint64_t seed;
    int depth; /* work multiplier of statistical properties (order studies:
                              48 depth paths); < 1 means 1; not part of replay strings */
} slpi_props_case;

/* splitmix64 (test-case generation only; the canonical noise is core/noise.c). */
typedef struct {
    uint64_t s;
} slpi_props_rng;
uint64_t slpi_props_rng_u64(slpi_props_rng *r);
double slpi_props_rng_uniform(slpi_props_rng *r, double a, double b);
double slpi_props_rng_normal(slpi_props_rng *r);
long slpi_props_rng_int(slpi_props_rng *r, long n);

/* Group elements: tau(x) = (I - x^/2)^-1 (I + x^/2) (docs/schemes.md#svi-so3 closed form), and
 * tau of a random vector. */
void slpi_props_cayley_rotation(const double *x, double *R);
void slpi_props_random_rotation(slpi_props_rng *r, double *R);
/* The 24 rotations that are signed permutations (the cube's rotation group), idx 0..23:
 * g e_j = s_j e_perm(j), det g = +1. */
void slpi_props_signed_perm(int idx, int *perm, double *s);

/* The model the cases of system `model` use (docs/models.md; `slpi props --config FILE`):
 * its algebra, Hamiltonians and parameters are copied into every such case, whose state,
 * steps, h and active noises are drawn as for the built-ins. NULL: none (the model's cells
 * are then N/A). The problem is copied. */
void slpi_props_set_model(const slpi_problem *model);
/* For system model: the system view of the built-in system with the same algebra (the
 * Casimirs and the Poisson tensor are the algebra's), copied into *sys; returns sys, or
 * p's own view for a built-in; NULL when memory runs out. */
const slpi_system_view *slpi_props_algebra_twin(const slpi_problem *p, slpi_system_view *sys);

/* Case -> problem (keys set, x0 explicit) into storage of the caller's (p from
 * slpi_problem_alloc; core/problem-store.h), and the case's increments. */
int slpi_props_problem(const slpi_props_case *c, slpi_problem *p, slpi_error *err);
/* slpi_props_problem on the heap: *out, or NULL with err set when the case makes no
 * problem or memory runs out. Owns: the caller frees *out with slpi_problem_free. */
int slpi_props_problem_new(slpi_problem **out, const slpi_props_case *c, slpi_error *err);
/* SLPI_OK when the case makes a problem (slpi_props_problem), else its error. */
int slpi_props_problem_check(const slpi_props_case *c, slpi_error *err);
int slpi_props_noise_count(const slpi_props_case *c);
/* Increments of step n of the case's problem p (slpi_props_problem): the canonical noise
 * (seed c->seed, path 0) at p->h, truncated by p's rule; components >= c->noises are 0. */
void slpi_props_increments(const slpi_props_case *c, const slpi_problem *p, long n, double *dW);
int slpi_props_dim_min(slpi_system_id s);
int slpi_props_dim_max(slpi_system_id s);

/* Runs on given increments. dir = +1 forward over steps 0..steps-1; dir = -1 undoes
 * them: steps steps-1..0 with (-h, -dW). dWp (may be NULL) maps the increments first
 * (equivariance). Returns the first failed status, or SLPI_STEP_CONVERGED. */
typedef void (*slpi_props_noise_map)(const void *ctx, int M, double *dW);
slpi_step_status slpi_props_run_fast(const slpi_props_case *c, const slpi_problem *p, double *x, int dir,
                                     slpi_props_noise_map map, const void *map_ctx, char *why, size_t n);
slpi_step_status slpi_props_run_ref(const slpi_props_case *c, const slpi_problem *p, arb_ptr x, int dir,
                                    slpi_props_noise_map map, const void *map_ctx, char *why, size_t n);

/* core's su(N) layout (Im X_aa, then Re X_ab, Im X_ab for a < b; slpi.h) and the
 * skew-Hermitian N x N matrix, row-major (props/invariants.c; spelled _Complex here so
 * that this header does not bring complex.h's I into every props file). */
void slpi_props_sun_unpack(int N, const double *x, double _Complex *X);
void slpi_props_sun_pack(int N, const double _Complex *X, double *x);

/* ------------------------------------------------------------ invariants
 * Computed here from the state doubles (independently of both paths' diagnostics). */
#define SLPI_PROPS_MAX_CAS 8
typedef struct {
    int n;
    double value[SLPI_PROPS_MAX_CAS];
    double scale[SLPI_PROPS_MAX_CAS]; /* |x|^degree: the size rounding is relative to */
    int quadratic[SLPI_PROPS_MAX_CAS];
    const char *name[SLPI_PROPS_MAX_CAS];
} slpi_props_casimirs;
/* SLPI_OK, or SLPI_EINPUT (none in out) when memory for a model's twin runs out or the
 * system has no Casimirs listed here. */
int slpi_props_casimir_values(const slpi_problem *p, const double *x, slpi_props_casimirs *out);
/* Poisson tensor J(x) (dim x dim, row-major) of the coordinates the structure lives
 * on; returns that dimension, 0 if the system has none here (or memory runs out). */
int slpi_props_poisson_tensor(const slpi_problem *p, const double *x, double *J);

/* --------------------------------------------------------------- properties */
typedef enum { SLPI_PROPS_NA = 0, SLPI_PROPS_HOLDS, SLPI_PROPS_VIOLATED } slpi_props_expect;

typedef struct {
    int holds;    /* 1 observed, 0 violated, -1 UNABLE (solver, enclosure) */
    double ratio; /* the scale-free measure the verdict rests on */
    char msg[320];
} slpi_props_outcome;

typedef struct {
    const char *name;
    const char *what;
    /* docs/schemes.md#summary row of this scheme (variant) on this system; NA: not checked. */
    slpi_props_expect (*expect)(const slpi_props_case *c);
    /* Fit a generated or shrunk case to the property's needs (deterministic, sizes). */
    void (*adjust)(slpi_props_case *c, slpi_props_rng *r);
    void (*check)(const slpi_props_case *c, int use_ref, slpi_props_outcome *o);
    int shrinkable;
    int needs_ref; /* compares with the certified path: runs only ref_cases cases */
    /* Why a cell is not checked (the coverage table, `slpi props --list`): path 0 (fast)
     * is consulted only where expect() is NA; path 1 (ref) decides whether the engine
     * hands use_ref to check(). NULL (or a NULL function): checked. */
    const char *(*why_not)(const slpi_props_case *c, int ref);
} slpi_props_property;

int slpi_props_property_count(void);
const slpi_props_property *slpi_props_property_get(int i);
int slpi_props_property_find(const char *name);

extern const slpi_props_property slpi_props_prop_casimir, slpi_props_prop_energy, slpi_props_prop_reversible,
    slpi_props_prop_ref_fast, slpi_props_prop_equivariance, slpi_props_prop_poisson, slpi_props_prop_order_det,
    slpi_props_prop_order_strong, slpi_props_prop_order_control, slpi_props_prop_agree, slpi_props_prop_order_weak;

/* Helpers the property files share (props/outcome.c; max norms: core/vec.h). */
/* 1 if every ball contains the double. Worst excess over the radius in *excess. */
int slpi_props_balls_contain(arb_srcptr x, const double *v, int n, double *excess);
void slpi_props_outcome_unable(slpi_props_outcome *o, const char *why);
/* A property's check on the case's problem p, which is its own to change. */
typedef void (*slpi_props_body)(const slpi_props_case *c, slpi_problem *p, int use_ref, slpi_props_outcome *o);
/* body on the case's problem (slpi_props_problem_new), freed after; a case that makes no
 * problem is UNABLE with the reason. */
void slpi_props_check_with(const slpi_props_case *c, int use_ref, slpi_props_outcome *o, slpi_props_body body);
/* Negative controls must fail visibly: moderate h and state, inertia (1, 2, 3), all
 * noises on, enough steps and modes (a symmetric top, two vortices or su(2) Zeitlin
 * move by linear rotations that even TRAP-DIRECT or SVI c = -1/4 get exactly right). */
void slpi_props_control_case(slpi_props_case *c);
/* UNABLE (returns 1) when the state moved by more than half its size per step: then the
 * implicit equations need not have a unique solution near x0, and two solvers (or the
 * forward and backward solves) may pick different ones. */
int slpi_props_too_fast(const slpi_props_case *c, const double *x0, const double *x, int d, slpi_props_outcome *o);

/* The ref-fast verdict (props/prop-structure.c) on a fast result x after `steps` steps
 * against the certified balls xb: holds when x is inside, or outside by at most the
 * budget (30 steps u max(|x|, 1) for the explicit schemes, 1e3 for the implicit ones). */
void slpi_props_ref_fast_judge(slpi_props_outcome *o, arb_srcptr xb, const double *x, int d, long steps,
                               slpi_scheme_id scheme);

/* --------------------------------------------------------------- the engine */
typedef struct {
    int prop;   /* -1: all */
    int system; /* -1: all */
    int scheme; /* -1: all */
    long cases; /* per (property, system, scheme, variant) */
    uint64_t seed;
    int use_ref;          /* also check the certified path where meaningful */
    long ref_cases;       /* ... on the first ref_cases cases of each group */
    const char *save_dir; /* write shrunk counterexamples here (NULL: no) */
    int verbose;
    FILE *out;
    /* NULL, or a property (not in the table) that replaces table entry `prop` (tests
     * exercise the engine's group rules with synthetic properties) */
    const slpi_props_property *property;
    int depth;   /* slpi_props_case.depth of every generated case (< 1: 1) */
    int corners; /* the first cases of each group are the corner corpus
                              (slpi_props_corner; `make check-long` turns it on) */
} slpi_props_options;

typedef struct {
    long pass, fail, unable, skipped, groups, failed_groups;
} slpi_props_summary;

/* Draw case `seed` of a group, biased to corner cases, fitted to the property. */
void slpi_props_generate(slpi_props_case *c, int prop, slpi_system_id s, slpi_scheme_id k, int variant, uint64_t seed);
/* Corner i of the corpus applied to a generated case (then refitted to its property):
 * the largest, smallest and other-parity dimension, near-singular inertia at a small h,
 * a state near a separatrix, near a pole, and a large noise amplitude. Returns 0 when
 * there is no corner i. */
int slpi_props_corner(slpi_props_case *c, int i);
/* The coverage table: every property x system x scheme (variant) x path as `checked`,
 * `N/A: reason` or `limitation: reason`, from the same decisions slpi_props_run makes;
 * a markdown table on out. Returns the number of cells that are neither (0). */
int slpi_props_table(FILE *out);
/* Run the harness; returns SLPI_OK, SLPI_ECHECK (some property failed), SLPI_EINPUT (the
 * selection holds no group: nothing was checked, so nothing passed) or SLPI_EINTR
 * (slpi_interrupt_request: stopped before its next case, the groups so far printed). */
int slpi_props_run(const slpi_props_options *o, slpi_props_summary *s);
/* Check one case and give its verdict: 1 pass, 0 fail, -1 unable. */
int slpi_props_verdict(const slpi_props_case *c, int use_ref, slpi_props_outcome *o);
/* Shrink a failing case in place; returns the number of accepted reductions. */
int slpi_props_shrink(slpi_props_case *c, int use_ref, slpi_props_outcome *o, FILE *log);
/* The same for a property given directly (tests shrink synthetic properties). */
int slpi_props_verdict_with(const slpi_props_property *P, const slpi_props_case *c, int use_ref, slpi_props_outcome *o);
/* Why property P cannot be checked on case c on the certified path (ref = 1) or at all
 * (ref = 0), or NULL (P's why_not; props/properties.c). */
const char *slpi_props_why_not(const slpi_props_property *P, const slpi_props_case *c, int ref);
int slpi_props_shrink_with(const slpi_props_property *P, slpi_props_case *c, int use_ref, slpi_props_outcome *o,
                           FILE *log);
/* Replay strings: "property=...,system=...,..." (the seed travels separately). */
void slpi_props_case_format(const slpi_props_case *c, char *buf, size_t n);
int slpi_props_case_parse(const char *s, slpi_props_case *c, slpi_error *err);
/* Print the counterexample and its replay command; save under dir if dir != NULL. */
void slpi_props_report_failure(FILE *f, const slpi_props_case *c, const slpi_props_outcome *o, int use_ref,
                               const char *dir);
/* A regression file: "seed=..." and "case=..." lines ('#' comments). */
int slpi_props_regression_load(const char *path, slpi_props_case *c, slpi_error *err);

#endif
