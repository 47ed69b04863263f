/* slpi/tools.h — the declarations of libslpi-tools (golden cases, scores, the verifier and
 * the tools' handle entries), over the libslpi headers by module they need; slpi-tools.h
 * includes it with slpi.h. The conventions of every function: slpi-tools.h's. */
#ifndef SLPI_PUBLIC_TOOLS_H
#define SLPI_PUBLIC_TOOLS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "slpi/errors.h"
#include "slpi/diag.h"
#ifndef SLPI_FAST_ONLY
#include "slpi-flint.h" /* Arb from either FLINT generation (core/slpi-flint.h) */
#endif

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ oracle
 * Golden certified cases, fast-vs-ref scoring and the verifier for trajectories of
 * other implementations (oracle/; formats and workflow in oracle/README.md). */

/* A verdict is the exit code that says it (slpi/errors.h's one list). */
typedef enum {
    SLPI_VERDICT_PASS = SLPI_OK,
    SLPI_VERDICT_FAIL = SLPI_ECHECK,
    SLPI_VERDICT_UNABLE = SLPI_ENUMERIC
} slpi_verdict;
const char *slpi_verdict_name(slpi_verdict v);
/* The worse of two verdicts: FAIL over UNABLE over PASS. */
slpi_verdict slpi_verdict_worse(slpi_verdict a, slpi_verdict b);

/* A golden case "slpi-golden 1" (format documented in oracle/golden.c): the whole
 * problem, the initial state and every increment as exact doubles, and certified balls
 * of the state and of the invariants at a few checkpoints. */
#ifndef SLPI_FAST_ONLY
typedef struct {
    long step;
    long prec;     /* precision the balls were computed at */
    arb_ptr state; /* dim balls */
    int ninv;
    char **inv_name;
    arb_ptr inv; /* SLPI_MAX_DIAG balls, the first ninv used */
} slpi_golden_checkpoint;
#else
typedef struct slpi_golden_checkpoint slpi_golden_checkpoint;
#endif

typedef struct {
    char name[128]; /* case name, e.g. "rigid-body/isomp" */
    char what[256]; /* what the case is (its docs preset) */
    int nhead;      /* the "# key=value" provenance lines */
    char **head_key, **head_val;
    slpi_problem *problem; /* finished: h, steps set; owned (slpi_golden_clear frees it) */
    int dim, M;
    double *x0; /* dim */
    double *dW; /* steps * M, row n = the increments of step n */
    int ncheck;
    slpi_golden_checkpoint *check;
} slpi_golden;

/* Read and validate a golden file; every error names file:line and the problem.
 * Owns: *g's arrays are the caller's, freed by slpi_golden_clear (an error leaves none). */
int slpi_golden_read(const char *path, slpi_golden *g, slpi_error *err);
/* Write g in the golden format to f (SLPI_EINPUT on a write error). */
int slpi_golden_write(FILE *f, const slpi_golden *g);
/* Free what slpi_golden_read or slpi_golden_make put in g. */
void slpi_golden_clear(slpi_golden *g);

/* The curated cases (oracle/golden-cases.c): NULL-terminated names. Thread: not safe:
 * each call fills one process-wide table (the same names every time). */
const char *const *slpi_golden_cases(void);
/* Build case `name` by running the certified path on its problem (the regeneration done
 * by `make golden`). Owns: *g, freed by slpi_golden_clear. */
int slpi_golden_make(const char *name, slpi_golden *g, slpi_error *err);
/* The same for any finished problem (a user's model: `slpi golden --write --config`):
 * case `name`, described by `what`, its p->steps steps, checkpoints at 1, steps/2, steps.
 * Owns: *g, freed by slpi_golden_clear. */
int slpi_golden_make_problem(const char *name, const char *what, const slpi_problem *p, slpi_golden *g,
                             slpi_error *err);
/* Golden file name of a case: "<system>.<scheme>[.variant].golden". */
void slpi_golden_file_name(const char *name, char *buf, size_t n);

/* Regenerate the file of every case (or only the case `only`) in dir, logging each.
 * NULL: only (every case), log (no log). Thread: not safe (slpi_golden_save). */
int slpi_golden_regenerate(const char *dir, const char *only, FILE *log, slpi_error *err);
/* Write g to path whole (a temporary file renamed over it), or leave path as it was.
 * Thread: not safe: as slpi_output_open, records its temporary file in the process-wide
 * list a signal handler removes. */
int slpi_golden_save(const char *path, const slpi_golden *g, slpi_error *err);

/* Scores of the fast path against certified balls (oracle/score.c). Ratios are
 * LAPACK-style |fast - exact| / (unit scale), unit = max(n,1) u, certified as an
 * interval [lo, hi] from the ball; ulps are counted where Arb can round the ball to
 * the correctly rounded double (arb_can_round_arf). The default budget: binary64's
 * u and PASS at ratio <= 30; a port states its own (slpi_verify_opts). */
#define SLPI_ORACLE_THRESHOLD 30.0
#define SLPI_U_BINARY64 0x1p-53
#define SLPI_U_BINARY32 0x1p-24
/* How many of the rows a port's file omits the verifier names (slpi_verify_result). */
#define SLPI_VERIFY_MISSING_NAMED 8
/* A port's declared floating-point format (oracle/precision.c, one table): its name, its
 * unit roundoff u (the budget's and the statistics' unit), the significand bits of the
 * format its outputs are stored in (ulps are counted in it) and, for a unit that flushes
 * subnormals (+ftz), the smallest normal below which it holds zero (else 0). */
typedef struct {
    char name[32]; /* binary64, binary32, tf32, tf32-rz, bfloat16, binary16, u=VALUE, ARITH/STORE; +ftz */
    double u;
    int bits;
    double flush;
} slpi_precision;
/* A format by name ("binary32"), a stated unit roundoff "u=VALUE", 0 < VALUE < 1, or a
 * port's arithmetic and storage "ARITH/STORE" (u the larger of the two, the bits of
 * STORE: "bfloat16/binary32"), each but u=VALUE (and ARITH u=VALUE) optionally followed by
 * "+ftz" (flush: the arithmetic's smallest normal); anything else is SLPI_EINPUT naming
 * the accepted list. */
int slpi_precision_parse(slpi_precision *out, const char *s, slpi_error *err);
/* The table's entry of unit roundoff u (binary64, binary32, bfloat16, binary16), else
 * "u=VALUE" with bits = round(-log2 u) clamped to 2..53. */
void slpi_precision_of_u(slpi_precision *out, double u);
/* The accepted names, for messages and help. */
const char *slpi_precision_list(void);
/* The unit in the last place of x in a format of `bits` significand bits (exponent
 * range unbounded): 2^(e - bits) for |x| in [2^(e-1), 2^e). */
double slpi_precision_ulp(double x, int bits);
typedef struct {
    double lo, hi;      /* certified bounds of the ratio */
    double max_ulps;    /* over components that can be rounded; -1: none */
    int rounded, count; /* components rounded / compared */
} slpi_score;
/* The error unit of `steps` accumulated steps of unit roundoff u: max(steps,1) u. */
double slpi_score_unit(long steps, double u);
/* Score doubles f[0..n) against balls b[0..n) in units `unit` (slpi_score_unit) of the
 * given scale (scale <= 0: the max norm of the ball midpoints). */
#ifndef SLPI_FAST_ONLY
void slpi_score_vector(const double *f, arb_srcptr b, int n, double unit, double scale, slpi_score *s);
/* The same with the ulps counted in a format of `bits` significand bits (the ball rounded
 * to it; slpi_score_vector: 53). */
void slpi_score_vector_bits(const double *f, arb_srcptr b, int n, double unit, double scale, slpi_score *s, int bits);
/* Invariants: balls If against Ib (same step), invariant i scaled by scale[i] (1 if
 * it is 0); max_ulps = -1. */
void slpi_score_invariants(arb_srcptr If, arb_srcptr Ib, const double *scale, int n, double unit, slpi_score *s);
#endif
/* Fold a score into a running worst case; verdict of one score against the budget K
 * (PASS hi <= K, FAIL lo > K, else UNABLE). */
void slpi_score_merge(slpi_score *worst, const slpi_score *s);
slpi_verdict slpi_score_verdict(const slpi_score *s, double budget);

/* Check one golden case on both paths: the ref path must overlap every stored ball
 * (and reports whether it encloses them), the fast path is scored against them. */
typedef struct {
    slpi_verdict ref, fast;
    int ref_encloses;      /* fresh ref balls contained in the stored ones */
    double ref_radius;     /* max radius of the fresh ref state */
    slpi_score state, inv; /* worst over checkpoints, fast path */
    char msg[512];         /* why a verdict is not PASS */
} slpi_golden_result;
int slpi_golden_check(const slpi_golden *g, slpi_golden_result *r, slpi_error *err);

/* Check every .golden file of dir (sorted by name: the built-in cases or the user's own)
 * on both paths; report gets the non-PASS cases and the table of worst scores per scheme
 * x system pair. Input errors (a folder without .golden files, a malformed file) return
 * SLPI_EINPUT; *verdict is the worst verdict.
 * NULL: dir (every built-in case, each in its file in slpi_golden_dir(): a missing one
 * is an error), report (no report). Thread: not safe (slpi_golden_cases). */
int slpi_golden_check_dir(const char *dir, FILE *report, slpi_verdict *verdict, slpi_error *err);
/* The same for the given files (names: the case each must hold).
 * NULL: names (any case), report (no report). */
int slpi_golden_check_files(int n, const char *const *paths, const char *const *names, FILE *report,
                            slpi_verdict *verdict, slpi_error *err);

/* Verify a trajectory TSV of another implementation against the certified path
 * (oracle/verify.c): per-row state and invariant ratios, tri-state verdict. The
 * global comparison scores each row against the certified trajectory from x0; the
 * local one (oracle/local.c) each row against the certified step(s) from the port's
 * previous row. */
typedef struct {
    slpi_verdict verdict;
    long rows, rows_pass, rows_fail, rows_unable, first_fail_step;
    slpi_score state;                    /* worst step ratio over the certified rows */
    long rows_arb, rows_blas, rows_both; /* certified rows whose products Arb, the BLAS
                                * route (docs/design.md#blas-route) or both enclosed */
} slpi_verify_local;
/* The calibrated statistical test beside the worst-case budget (oracle/stat.c; the rule
 * and its derivation in oracle/README.md#statistics): the port's certified local
 * deviations r (port - exact step from the port's previous row, in units of u |x| per
 * step) tested for a systematic part along the step's directions (Hotelling's T^2 on
 * their projections) and for their size against a twin (the fast step with inputs
 * perturbed at u and outputs rounded to the format; RMS at most `envelope` times the
 * twin's), each at alpha / 2. verdict: FAIL (a p-value <= alpha / 2), UNABLE printed
 * LOW-POWER (too few rows: the effect per step the input detects with 90 % power exceeds
 * 1 u), else PASS. */
#define SLPI_STAT_DIRS 12
#define SLPI_VERIFY_ALPHA 1e-3
/* The work verify takes on when no bound is given (max_steps < 0): a file whose global
 * comparison would certify more steps, or one of whose rows is more steps after the
 * previous row, is refused (SLPI_EINPUT, naming --max-steps) instead of walked for days.
 * About a day of one core at the cheapest certified step (the rigid body, ~1e-4 s): no
 * ordinary file reaches it (oracle/README.md#max-steps). */
#define SLPI_VERIFY_MAX_STEPS_DEFAULT 1000000000L
/* The sums of the test's rows: projections, their cross products, the size test's
 * differences and squares, |r|^2. */
typedef struct {
    double sum[SLPI_STAT_DIRS], cross[SLPI_STAT_DIRS * SLPI_STAT_DIRS];
    double size_sum, size_sq, r2_sum;
} slpi_verify_sums;
/* The diagnosis beside the statistics (oracle/diagnose.c, oracle/README.md#diagnosis): the
 * rows' deviations r regressed, one ingredient at a time, on the derivative D_i of the
 * port's step with respect to a coefficient on ingredient i of the scheme (drift, each
 * noise's amplitude, the swap of two noises, a scheme's terms, the time stage, the solver's stop:
 * fast/ingredients.h; each component of the drift's gradient when the state has at most 9
 * coordinates). Sums over rows, whole and in SLPI_DIAG_BINS bins of steps, then the
 * result. */
#define SLPI_DIAG_INGREDIENTS 57
#define SLPI_DIAG_BINS 32
typedef struct {
    int n;                                   /* ingredients; 0: not run */
    const char *name[SLPI_DIAG_INGREDIENTS]; /* static names */
    long rows, step0, width;                 /* bin b: rows ending at steps step0 + [b width, (b + 1) width) */
    double u;                                /* the port's unit roundoff */
    double dd[SLPI_DIAG_INGREDIENTS];        /* sum |D_i|^2, and of <r, D_i> and its square, r */
    double z[2][SLPI_DIAG_INGREDIENTS], zz[2][SLPI_DIAG_INGREDIENTS]; /* from the exact step [0], rounded [1] */
    double zd[2][SLPI_DIAG_INGREDIENTS], d4[SLPI_DIAG_INGREDIENTS];   /* of <r, D_i> |D_i|^2 and |D_i|^4 */
    /* per bin, for the window's choice: sum <r, D_i> and its square, and the rows (the
     * window's own sums come from a pass over its rows: slpi_oracle_diag_window) */
    double bin_z[2][SLPI_DIAG_BINS][SLPI_DIAG_INGREDIENTS], bin_zz[2][SLPI_DIAG_BINS][SLPI_DIAG_INGREDIENTS];
    long bin_rows[SLPI_DIAG_BINS];
    /* the pairs a != b, for their joint fit (separability): sum <D_a, D_b>, its square,
     * |D_a|^2 <D_a, D_b>, |D_a|^2 |D_b|^2; and per form <r, D_a> <r, D_b>, <r, D_a> <D_a, D_b>
     * and <r, D_a> |D_b|^2 */
    double gram[SLPI_DIAG_INGREDIENTS][SLPI_DIAG_INGREDIENTS], gram2[SLPI_DIAG_INGREDIENTS][SLPI_DIAG_INGREDIENTS];
    double dgram[SLPI_DIAG_INGREDIENTS][SLPI_DIAG_INGREDIENTS], ddpair[SLPI_DIAG_INGREDIENTS][SLPI_DIAG_INGREDIENTS];
    double zpair[2][SLPI_DIAG_INGREDIENTS][SLPI_DIAG_INGREDIENTS],
        zgram[2][SLPI_DIAG_INGREDIENTS][SLPI_DIAG_INGREDIENTS];
    double zdpair[2][SLPI_DIAG_INGREDIENTS][SLPI_DIAG_INGREDIENTS];
    /* the result: named when the statistics FAIL and the best ingredient's p <= alpha */
    int named;
    int ranked;                        /* the ingredients with a direction (some D_i != 0) */
    int order[SLPI_DIAG_INGREDIENTS];  /* those, by the share of sum |r|^2 each explains, largest first
                                        * (the share on the window's rows when one is named) */
    double rel[SLPI_DIAG_INGREDIENTS]; /* estimated relative error of the ingredient per step */
    double lo[SLPI_DIAG_INGREDIENTS], hi[SLPI_DIAG_INGREDIENTS]; /* its 95 % interval */
    double t[SLPI_DIAG_INGREDIENTS];                             /* t of its excess over the format's data (2 u) */
    double share[SLPI_DIAG_INGREDIENTS];                         /* the share of sum |r|^2 it explains alone */
    /* separability from the first (the joint fit of the two, on the window's rows when a
     * window is named): the angle between their pooled directions in degrees, the first's
     * joint t, its degrees of freedom, p (Bonferroni) and critical t, the other's joint t
     * and its degrees of freedom, 1 when both t's are beyond their critical t (neither
     * alone explains the rows), 1 when the rows separate them: the first's t beyond it and
     * the other's not (the first itself: 0) */
    double angle[SLPI_DIAG_INGREDIENTS], sep_t[SLPI_DIAG_INGREDIENTS], sep_p[SLPI_DIAG_INGREDIENTS];
    double sep_df[SLPI_DIAG_INGREDIENTS], sep_crit[SLPI_DIAG_INGREDIENTS];
    double other_t[SLPI_DIAG_INGREDIENTS], other_df[SLPI_DIAG_INGREDIENTS];
    int both[SLPI_DIAG_INGREDIENTS], separated[SLPI_DIAG_INGREDIENTS];
    int alike;         /* the ranked ones the rows do not separate from the first (0: none) */
    double more_rows;  /* the factor of rows at these states that would separate them all
                        * (infinite: an angle of 0, only rows from other states; NaN: every
                        * one not separated has both t's beyond, no factor) */
    double p;          /* the first's p-value, Bonferroni over the ingredients */
    long from, to;     /* the window of steps of its evidence; -1 -1: all */
    double window_rel; /* the first's relative error within the window */
} slpi_verify_diagnosis;
typedef struct {
    slpi_verdict verdict;
    double alpha;
    long rows;                 /* rows in the test (pooled over the files) */
    long observations;         /* of them, independent observations: the rows of one step
                                * that are copies at the format's resolution count once
                                * (docs/power.md#copies-amendment) */
    long copies_groups;        /* the groups of such rows */
    long rows_small;           /* of them, rows whose step moves the state by at most
                                * STEP_ULPS ulps of the format (oracle/stat.c) */
    int against_rounded;       /* 1 when most rows are: every deviation is then taken from
                                * the exact step rounded to the format */
    int paths, dirs;           /* files pooled; directions used in T^2 */
    double t2, p_systematic;   /* Hotelling's T^2 and its p-value (F distribution) */
    double size_t, p_size;     /* the size test's t statistic and one-sided p-value */
    double rms_u, twin_rms_u;  /* RMS |r| of the port and of the twin, in u |x| per step */
    double envelope;           /* the size test's bound on their ratio: 2 ceil(sqrt(dim)) */
    double statistic, p_value; /* of the test that decides (the smaller p-value) */
    const char *which;         /* "systematic" or "size" */
    double effect_per_step_u;  /* the largest mean projection of r on a direction */
    const char *effect_direction;
    double detectable_effect_u; /* the effect per step detected with 90 % power at alpha */
    double power_target;        /* the power to detect 1 u per step (the rows' own variances) */
    /* sufficient statistics (pooled: sums over rows in file order, then row order) */
    const char *dir_name[SLPI_STAT_DIRS];
    slpi_verify_sums exact, rounded; /* the deviations from the exact step, and from it
                                        * rounded to the format */
    double t2_sum;
    double tau_sum;          /* the rows' allowance for the format's data (oracle/stat.c) */
    double tolerance_u;      /* against the rounded step: the mean per step along a direction
                         * the format's data allow (the systematic test's null), in
                         * u |x|; 0 against the exact step */
    double tol_t;            /* then the largest t of a mean's excess over it */
    double declared_stop_u;  /* the largest over the rows of the port's declared solver stop,
                              * T / (u s) per step (0: none; oracle/README.md#declared-stop) */
    long rows_arb_reference; /* rows whose certified ball was too wide for the test (the BLAS
                              * route at binary64), taken from the step on Arb's products */
    double cpu_seconds;      /* the process's CPU time over the verification (every file) */
    const char *reference;   /* the rows' reference: "certified", "double" or "accurate"
                              * (slpi_verify_stat_reference) */
    slpi_verify_diagnosis diag;
    struct slpi_stat_copies *copies; /* private: the rows' groups until the finish */
} slpi_verify_stats;
/* A statistical verdict's word: PASS, FAIL, or LOW-POWER for UNABLE. */
const char *slpi_verify_stat_verdict_name(slpi_verdict v);
typedef struct {
    slpi_verdict verdict;                         /* the worse of the comparisons that ran */
    long rows, rows_pass, rows_fail, rows_unable; /* global comparison from here on */
    long last_certified_step;                     /* last row with a PASS or FAIL verdict, -1: none */
    long first_fail_step;                         /* -1: none */
    slpi_score state, inv;                        /* worst over the rows with a PASS or FAIL verdict */
    int ninv;                                     /* per invariant: worst drift ratio of the port and of */
    const char *inv_name[SLPI_MAX_DIAG];          /* the exact scheme (static names) */
    double port_drift[SLPI_MAX_DIAG], exact_drift[SLPI_MAX_DIAG];
    slpi_verdict global_verdict;
    char global_why[600]; /* why the certified walk stopped early, or "" */
    slpi_verify_local local;
    slpi_precision precision; /* the stated budget: the format (its u) and K */
    double budget;
    uint64_t sample_seed;
    char note[1024];                              /* a warning about the inputs (an untruncated noise file), or "" */
    slpi_verify_stats stats;                      /* the calibrated test of the local deviations (with --local) */
    slpi_verdict proof;                           /* the worst-case budget's verdict (global and local) */
    int files;                                    /* trajectories verified (paths of one problem, pooled) */
    long rows_missing;                            /* rows of the header's output grid (output_every or save_at)
                                * the file omits: unchecked, so the verdict is at best UNABLE */
    long missing_step[SLPI_VERIFY_MISSING_NAMED]; /* the first of them (rows_missing of them) */
} slpi_verify_result;
/* The global comparison alone (slpi_verify_run with local = 0; `slpi verify` and
 * slpi_verify_opts_init run both; res->local stays empty). noise_file overrides the
 * header's noise; a header key case=NAME takes the problem of
 * that golden case in golden_dir; max_steps < 0: at most SLPI_VERIFY_MAX_STEPS_DEFAULT
 * steps, else an input error (give LONG_MAX to certify any number); report gets a summary.
 * Returns SLPI_OK or an input error (exit 2). NULL: noise_file (the header's noise),
 * golden_dir (slpi_golden_dir()), report (no report). */
int slpi_verify_file(const char *path, const char *noise_file, const char *golden_dir, long max_steps, FILE *report,
                     slpi_verify_result *res, slpi_error *err);
/* The result as JSON (verdict, rows, certified steps, worst scores, drifts) for CI. */
int slpi_verify_write_json(const char *input, const slpi_verify_result *res, const char *file, slpi_error *err);

/* Options of slpi_verify_run (slpi_verify_opts_init: both comparisons, binary64's u,
 * K = 30, no bounds, every row, one rank). */
typedef struct {
    const char *noise_file;   /* NULL: the header's noise_file (relative to the file), else canonical */
    const char *golden_dir;   /* where case=NAME is looked up; NULL: slpi_golden_dir() */
    int global, local;        /* which comparisons run */
    slpi_precision precision; /* the port's format (its unit roundoff u) */
    double budget;            /* the ratio K that PASSes */
    double alpha;             /* the statistical test's false-FAIL rate (default 1e-3) */
    int require_power;        /* a LOW-POWER statistical test makes the verdict UNABLE */
    long max_steps;           /* certify at most this many steps (globally; locally per row), UNABLE beyond;
                                 -1: a file beyond SLPI_VERIFY_MAX_STEPS_DEFAULT is an input error */
    long row_first, row_last; /* local: only rows whose step lies in [first, last]; -1: open */
    long sample;              /* local: check this many of those rows, drawn from sample_seed; 0: all */
    uint64_t sample_seed;
    int table;                                        /* the report gets one line per row */
    int threads;                                      /* OpenMP threads of the local check (0: the runtime's) */
    int rank, nranks;                                 /* MPI: this rank checks rows i = rank (mod nranks) */
    int (*combine)(double *buf, size_t n, void *arg); /* sum over ranks in place; NULL: one rank */
    void *combine_arg;
    int stat_reference; /* the statistics' reference asked for: SLPI_STAT_REF_AUTO (default), _CERTIFIED, _DOUBLE,
                         * _ACCURATE */
} slpi_verify_opts;
/* The statistics' reference (docs/power.md#reference-rule, #accurate-reference): the
 * certified step; slpi's double path where its error bound K m 2^-53 (K =
 * SLPI_ORACLE_THRESHOLD, m = ceil(sqrt(dim))) is at most SLPI_STAT_REF_FRACTION u of the
 * port's format; or the accurate step (the certified path's arithmetic without its
 * enclosure tests), on rows where its radius is at most SLPI_STAT_REF_FRACTION units;
 * auto: double where allowed, else accurate. In the order of `--stat-reference`'s words
 * (auto, certified, double, accurate). */
enum { SLPI_STAT_REF_AUTO, SLPI_STAT_REF_CERTIFIED, SLPI_STAT_REF_DOUBLE, SLPI_STAT_REF_ACCURATE };
#define SLPI_STAT_REF_FRACTION 1e-5
/* The reference (SLPI_STAT_REF_CERTIFIED, _DOUBLE or _ACCURATE) the statistics of a state
 * of dim coordinates at precision use when `asked`: SLPI_OK, or SLPI_EINPUT when double is
 * asked where the rule does not allow it (naming the bound). */
int slpi_verify_stat_reference(int *used, int asked, const slpi_precision *precision, int dim, slpi_error *err);
void slpi_verify_opts_init(slpi_verify_opts *o);
/* Verify with options; report gets the summary (and the table). NULL: report (no report). */
int slpi_verify_run(const char *path, const slpi_verify_opts *o, FILE *report, slpi_verify_result *res,
                    slpi_error *err);
/* Verify n trajectories, paths of one problem (their headers agree but for path=, seed=
 * and noise_file=; another problem is SLPI_EINPUT): each file's proof, res the rows of all
 * (counts summed, worst scores) and the statistical test pooled over them.
 * NULL: report (no report). */
int slpi_verify_run_files(int n, const char *const *paths, const slpi_verify_opts *o, FILE *report,
                          slpi_verify_result *res, slpi_error *err);
/* What `slpi verify`'s command line asks beside the options: the report's file (NULL:
 * standard output), the JSON file (NULL: none), only a one-line summary, the help. */
typedef struct {
    const char *output, *json;
    int quiet, help;
} slpi_verify_io;
/* The command line of `slpi verify` (argv[0] the command's name, then options and files;
 * `slpi verify --help` lists them) into o, io and files[0..*nfiles) (pointers into argv,
 * at most max; at least one unless io->help). The sample seed defaults to
 * $SLPI_VERIFY_SEED, else the clock. SLPI_EINPUT names the bad option. Thread: not safe
 * (getopt_long's state). */
int slpi_verify_parse_args(slpi_verify_opts *o, slpi_verify_io *io, int argc, char **argv, const char **files, int max,
                           int *nfiles, slpi_error *err);
/* The text of `slpi verify --help`. */
void slpi_verify_help(FILE *f);
/* The folder of the golden files: the installed $(PREFIX)/share/slpi/golden beside the
 * running executable's ../share, else the source tree's oracle/golden
 * (oracle/golden-dir.c). Owns: the calling thread's buffer, overwritten by its next call. */
const char *slpi_golden_dir(void);

/* ------------------------------------------- handle API: the tools' entries
 * (oracle/api-tools.c, studies/api-converge.c; python/slpi loads libslpi-tools.so for
 * them). Errors as the handle API's (slpi.h): SLPI_OK or an error code, the message in
 * slpi_api_last_error() (libslpi's: this library links it, one copy in a process). */
/* slpi_verify_file, its result written as slpi_verify_write_json writes it to the file json.
 * NULL: noise_file (the header's noise). */
int slpi_api_verify_json(const char *path, const char *noise_file, long max_steps, const char *json);
/* `slpi verify` with the command line argv[0..argc) (argv[0] the command's name, then its
 * options and files: slpi_verify_parse_args), its result written to the file json as
 * `--json` writes it (the options' own --json, --quiet and --help are refused: the caller
 * names json); --output FILE writes the command's text report to FILE (with --table, the
 * rows too). */
int slpi_api_verify_argv(int argc, char **argv, const char *json);
/* A port's own increments dw (steps x M, row n = step first + n) written to file as
 * `slpi noise` writes a noise file (the same writer: byte for byte its output for the same
 * values and header), for `slpi verify --noise-file` or a header's noise_file=: seed and
 * path as the header states them, refine the fine levels summed, ell > 0 the truncation
 * D(h, ell) the values must respect (0: untruncated). The file is replaced whole or left
 * as it was. */
int slpi_api_noise_write(const char *file, const double *dw, long steps, int M, double h, uint64_t seed, uint64_t path,
                         int refine, double ell, uint64_t first);
/* slpi_golden_check_dir on dir: *verdict a slpi_verdict, the report's text in report[n]
 * (cut at n - 1 bytes). NULL: dir (the built-in cases), report (when n is 0).
 * Thread: not safe (slpi_golden_cases). */
int slpi_api_golden(const char *dir, int *verdict, char *report, size_t n);
/* A coupled convergence study of the problem (studies/api-converge.c; docs/noise.md#coupling):
 * kind "strong", "sup" or "weak"; levels kmin..kmax against reference level ref; paths
 * paths from path0; boot bootstrap replicates; indep a scheme name for an independent
 * reference. Per level i = 0..kmax-kmin: h[i], the error e[i] against the reference and
 * its standard error se[i]; fit = {slope, CI low, CI high}.
 * NULL: kind ("strong"), indep (the same scheme). */
int slpi_api_converge(const slpi_problem *p, const char *kind, int kmin, int kmax, int ref, long paths, uint64_t path0,
                      int boot, const char *indep, double *h, double *e, double *se, double fit[3]);
/* The same study with the rest of `slpi converge`'s options, written as `slpi converge
 * --json` writes it (every level's columns, the slopes, the failed paths, provenance and
 * problem) to the file json: batches (0: min(paths, 32)), phi "sin2pi" | "x1" | an
 * expression of the state in the model language (the weak functional), exact 1 (--exact), fit "wls" | "ols" (the slope fit's weights, --fit),
 * drop_coarse 0..30 (the coarsest levels left out of the fit, --drop-coarse), checkpoint
 * (the completed batches' sums written there every checkpoint_every completed batches,
 * 0: 1; --checkpoint, --checkpoint-every), resume (a checkpoint of the same study whose
 * batches are reloaded, not run: the same JSON as an uninterrupted study; --resume),
 * threads (0: the runtime's). Progress goes to standard error as slpi_progress_set_mode
 * says (slpi.h).
 * NULL: kind ("strong"), indep, phi ("sin2pi"), fit ("wls"), checkpoint (none), resume
 * (none). */
int slpi_api_converge_json(const slpi_problem *p, const char *kind, int kmin, int kmax, int ref, long paths,
                           uint64_t path0, int batches, int boot, const char *indep, const char *phi, int exact,
                           const char *fit, int drop_coarse, const char *checkpoint, int checkpoint_every,
                           const char *resume, int threads, const char *json);
/* The same weak study (kind "weak" or NULL) with the functional a function of the caller's:
 * phi_fn(&value, x, dim, phi_data) sets value = phi(x) for a state x[dim] (the problem's
 * state layout) and returns 0; called from the study's threads at once (it must be
 * thread-safe). Nonzero, or a value that is not finite, makes the path a failed path
 * (docs/noise.md#failed-paths). No checkpoint: code has no text a checkpoint could name. */
int slpi_api_converge_json_fn(const slpi_problem *p, const char *kind, int kmin, int kmax, int ref, long paths,
                              uint64_t path0, int batches, int boot, const char *indep,
                              int (*phi_fn)(double *value, const double *x, int dim, void *user_data), void *phi_data,
                              const char *fit, int drop_coarse, int threads, const char *json);
/* A multilevel Monte Carlo estimate of E phi(X_T) to the requested RMSE rmse
 * (studies/mlmc.c; docs/noise.md#mlmc), written as `slpi mlmc --json` writes it: phi as
 * slpi_api_converge_json's, levels l0..lmax (h = T 2^-l), n0 pilot paths per new level,
 * alpha the weak order of the bias estimate, plain 1: plain Monte Carlo at level l0 alone;
 * checkpoint/resume as `slpi mlmc --checkpoint/--resume`; threads (0: the runtime's).
 * NULL: phi ("sin2pi"), checkpoint, resume. */
int slpi_api_mlmc_json(const slpi_problem *p, const char *phi, double rmse, int l0, int lmax, long n0, double alpha,
                       int plain, const char *checkpoint, const char *resume, int threads, const char *json);
/* The same estimate with the functional a function of the caller's, as
 * slpi_api_converge_json_fn takes it (thread-safe; nonzero or not finite: a failed path). No
 * checkpoint: code has no text a checkpoint could name. */
int slpi_api_mlmc_json_fn(const slpi_problem *p,
                          int (*phi_fn)(double *value, const double *x, int dim, void *user_data), void *phi_data,
                          double rmse, int l0, int lmax, long n0, double alpha, int plain, int threads,
                          const char *json);
/* Giles' mlmc_test of E phi(X_T) (studies/mlmc-test.c; docs/noise.md#mlmc-test), written
 * as `slpi mlmc --test --json` writes it: paths paths on every level l0..L (h = T 2^-l,
 * L >= l0 + 2), each level's mean, variance and kurtosis of Y_l and mean and variance of
 * P_l, the consistency check, the fitted alpha, beta, gamma, and the costs of MLMC and
 * plain Monte Carlo at each of the neps requested RMSEs eps[]; phi as
 * slpi_api_converge_json's; checkpoint/resume as `slpi mlmc --test --checkpoint/--resume`;
 * threads (0: the runtime's). NULL: phi ("sin2pi"), checkpoint, resume. */
int slpi_api_mlmc_test_json(const slpi_problem *p, const char *phi, int l0, int L, long paths, const double *eps,
                            int neps, const char *checkpoint, const char *resume, int threads, const char *json);
/* The same test with the functional a function of the caller's, as slpi_api_mlmc_json_fn
 * takes it (thread-safe; nonzero or not finite: a failed path). No checkpoint. */
int slpi_api_mlmc_test_json_fn(const slpi_problem *p,
                               int (*phi_fn)(double *value, const double *x, int dim, void *user_data), void *phi_data,
                               int l0, int L, long paths, const double *eps, int neps, int threads, const char *json);

#ifdef __cplusplus
}
#endif
#endif
