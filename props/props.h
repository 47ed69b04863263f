/* props/props.h — the property harness (issue 6, props/; DESIGN §2, SPEC §3.6, §6):
 * seeded generators of small problems biased to corner cases, properties checked per
 * scheme against its row of SPEC §3.6 (including negative controls that must fail),
 * a shrinker that reduces a failing case, and replay strings. Internal to slpi: the
 * `slpi props` command and tests/t-props*.c include it. */
#ifndef SLPI_PROPS_H
#define SLPI_PROPS_H

#include "slpi.h"

/* ------------------------------------------------------------------ cases
 * A case is a handful of numbers; everything else (inertia, X0, increments, group
 * elements) is drawn from `seed`, so a case prints as one replay string. */
typedef struct {
    int prop;              /* index into the property table */
    slpi_system_id system;
    slpi_scheme_id scheme;
    int variant;           /* isomp: 1 = update cay; svi: 1 = c = -1/4 (as printed) */
    int dim;               /* n (manakov, vortices), N (zeitlin, sine-euler); 3 otherwise */
    long steps;
    double h;
    double mag;            /* size of the initial state */
    double amp;            /* noise amplitude */
    int noises;            /* active Wiener components; the others get increment 0 */
    int inertia;           /* 0 generic, 1 repeated eigenvalue, 2 near-degenerate,
                              3 well separated (1, 2, 3): order studies and controls */
    uint64_t seed;
} props_case;

/* splitmix64 (test-case generation only; the canonical noise is core/noise.c). */
typedef struct { uint64_t s; } props_rng;
uint64_t props_rng_u64(props_rng *r);
double props_rng_uniform(props_rng *r, double a, double b);
double props_rng_normal(props_rng *r);
long props_rng_int(props_rng *r, long n);

/* Group elements: tau(x) = (I - x^/2)^-1 (I + x^/2) (SPEC §3.5(d) closed form), and
 * tau of a random vector. */
void props_cayley_rotation(const double *x, double *R);
void props_random_rotation(props_rng *r, double *R);

/* Case -> problem (keys set, x0 explicit), and the case's increments. */
int props_problem(const props_case *c, slpi_problem *p, slpi_error *err);
int props_noise_count(const props_case *c);
/* Increments of step n (M values; components >= c->noises are 0), for step size h. */
void props_increments(const props_case *c, long n, int M, double h, double *dW);
int props_dim_min(slpi_system_id s);
int props_dim_max(slpi_system_id s);

/* Runs on given increments. dir = +1 forward over steps 0..steps-1; dir = -1 undoes
 * them: steps steps-1..0 with (-h, -dW). dWp (may be NULL) maps the increments first
 * (equivariance). Returns the first failed status, or SLPI_STEP_CONVERGED. */
typedef void (*props_noise_map)(const void *ctx, int M, double *dW);
slpi_step_status props_run_fast(const props_case *c, const slpi_problem *p, double *x, int dir,
                                props_noise_map map, const void *map_ctx, char *why, size_t n);
slpi_step_status props_run_ref(const props_case *c, const slpi_problem *p, arb_ptr x, int dir,
                               char *why, size_t n);

/* ------------------------------------------------------------ invariants
 * Computed here from the state doubles (independently of both paths' diagnostics). */
#define PROPS_MAX_CAS 8
typedef struct {
    int n;
    double value[PROPS_MAX_CAS];
    double scale[PROPS_MAX_CAS];   /* |x|^degree: the size rounding is relative to */
    int quadratic[PROPS_MAX_CAS];
    const char *name[PROPS_MAX_CAS];
} props_casimirs;
void props_casimir_values(const slpi_problem *p, const double *x, props_casimirs *out);
/* Poisson tensor J(x) (dim x dim, row-major) of the coordinates the structure lives
 * on; returns that dimension, 0 if the system has none here. */
int props_poisson_tensor(const slpi_problem *p, const double *x, double *J);

/* --------------------------------------------------------------- properties */
typedef enum { PROPS_NA = 0, PROPS_HOLDS, PROPS_VIOLATED } props_expect;

typedef struct {
    int holds;             /* 1 observed, 0 violated, -1 UNABLE (solver, enclosure) */
    double ratio;          /* the scale-free measure the verdict rests on */
    char msg[320];
} props_outcome;

typedef struct {
    const char *name;
    const char *what;
    /* SPEC §3.6 row of this scheme (variant) on this system; NA: not checked. */
    props_expect (*expect)(const props_case *c);
    /* Fit a generated or shrunk case to the property's needs (deterministic, sizes). */
    void (*adjust)(props_case *c, props_rng *r);
    void (*check)(const props_case *c, int use_ref, props_outcome *o);
    int shrinkable;
    int needs_ref;         /* compares with the certified path: runs only ref_cases cases */
} props_property;

int props_property_count(void);
const props_property *props_property_get(int i);
int props_property_find(const char *name);

extern const props_property props_prop_casimir, props_prop_energy, props_prop_reversible,
    props_prop_ref_fast, props_prop_equivariance, props_prop_poisson, props_prop_order_det,
    props_prop_order_strong;

/* Helpers the property files share. */
double props_maxabs(const double *x, int n);
double props_maxdiff(const double *a, const double *b, int n);
/* 1 if every ball contains the double. Worst excess over the radius in *excess. */
int props_balls_contain(arb_srcptr x, const double *v, int n, double *excess);
void props_outcome_unable(props_outcome *o, const char *why);
/* Negative controls must fail visibly: moderate h and state, inertia (1, 2, 3), all
 * noises on, enough steps and modes (a symmetric top, two vortices or su(2) Zeitlin
 * move by linear rotations that even TRAP-DIRECT or SVI c = -1/4 get exactly right). */
void props_control_case(props_case *c);
/* UNABLE (returns 1) when the state moved by more than half its size per step: then the
 * implicit equations need not have a unique solution near x0, and two solvers (or the
 * forward and backward solves) may pick different ones. */
int props_too_fast(const props_case *c, const double *x0, const double *x, int d, props_outcome *o);

/* --------------------------------------------------------------- the engine */
typedef struct {
    int prop;              /* -1: all */
    int system;            /* -1: all */
    int scheme;            /* -1: all */
    long cases;            /* per (property, system, scheme, variant) */
    uint64_t seed;
    int use_ref;           /* also check the certified path where meaningful */
    long ref_cases;        /* ... on the first ref_cases cases of each group */
    const char *save_dir;  /* write shrunk counterexamples here (NULL: no) */
    int verbose;
    FILE *out;
} props_options;

typedef struct { long pass, fail, unable, skipped, groups, failed_groups; } props_summary;

/* Draw case `seed` of a group, biased to corner cases, fitted to the property. */
void props_generate(props_case *c, int prop, slpi_system_id s, slpi_scheme_id k, int variant,
                    uint64_t seed);
/* Run the harness; returns SLPI_OK or SLPI_ECHECK (some property failed). */
int props_run(const props_options *o, props_summary *s);
/* Check one case and give its verdict: 1 pass, 0 fail, -1 unable. */
int props_verdict(const props_case *c, int use_ref, props_outcome *o);
/* Shrink a failing case in place; returns the number of accepted reductions. */
int props_shrink(props_case *c, int use_ref, props_outcome *o, FILE *log);
/* The same for a property given directly (tests shrink synthetic properties). */
int props_verdict_with(const props_property *P, const props_case *c, int use_ref, props_outcome *o);
int props_shrink_with(const props_property *P, props_case *c, int use_ref, props_outcome *o, FILE *log);
/* Replay strings: "property=...,system=...,..." (the seed travels separately). */
void props_case_format(const props_case *c, char *buf, size_t n);
int props_case_parse(const char *s, props_case *c, slpi_error *err);
/* Print the counterexample and its replay command; save under dir if dir != NULL. */
void props_report_failure(FILE *f, const props_case *c, const props_outcome *o, int use_ref,
                          const char *dir);
/* A regression file: "seed=..." and "case=..." lines ('#' comments). */
int props_regression_load(const char *path, props_case *c, slpi_error *err);

#endif
