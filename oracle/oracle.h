/* oracle.h — helpers shared inside oracle/ (not part of the public slpi.h): the
 * certified walk over given increments, the initial state and increments of a
 * problem, and the provenance as key/value pairs. */
#ifndef SLPI_ORACLE_H
#define SLPI_ORACLE_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
typedef struct slpi_error slpi_error; /* slpi/errors.h */
#include "slpi/limits.h"
typedef struct slpi_problem slpi_problem;
#include "slpi/step.h"
typedef struct slpi_progress slpi_progress;
typedef struct slpi_fast slpi_fast;
typedef struct slpi_plan slpi_plan;
#include "core/slpi-flint.h"
typedef struct slpi_ref slpi_ref;
typedef struct slpi_ref_diag slpi_ref_diag; /* slpi/ref.h, where its files call the certified path */
#include "slpi/tools.h"

/* Increments of steps 0..steps-1 (steps * M doubles, row n = step n) from the
 * problem's noise source (canonical generator or noise_file, truncation applied). */
int slpi_oracle_increments(const slpi_problem *p, long steps, double *dW, slpi_error *err);

/* What `golden --check` needs of a case's problem, checked where a case is read
 * (slpi_golden_read) and where one is made (slpi_golden_make_problem, so that `golden
 * --write` refuses at write time what could never be checked): p's own key=value text
 * goes through the reader's builder and finisher, and the problem it gives holds its
 * own data (no x0_file, noise_file, noise_fields or seed=file; no callback) within
 * the increments a golden file holds. SLPI_EINPUT naming the key and why. */
int slpi_golden_check_problem(const slpi_problem *p, slpi_error *err);

/* Called by the walk after each stop step with the certified state and invariants. */
typedef int (*slpi_oracle_visit)(void *ctx, long step, arb_srcptr x, const slpi_ref_diag *inv,
                                 const slpi_step_info *info);

/* Run the ref path from x0 over dW (row n = step n) and visit each step listed in
 * stops[0..nstops) (increasing). Returns SLPI_OK, the visitor's non-zero code, or
 * SLPI_ENUMERIC with step index and reason when a step is UNABLE or fails; *done gets
 * the number of steps certified. */
int slpi_oracle_ref_walk(const slpi_problem *p, const double *x0, const double *dW, const long *stops, int nstops,
                         slpi_oracle_visit visit, void *ctx, long *done, slpi_error *err);
/* The steps to visit, one by one in increasing order: the next, or -1 when none is left. */
typedef long (*slpi_oracle_next_stop)(void *ctx);
/* The same with the increments streamed from the problem's noise source and the stops
 * from next(ctx), called once before the walk and after each visit (no steps x M
 * array, no array of stops: a long run costs memory independent of its length). */
int slpi_oracle_ref_walk_source(const slpi_plan *plan, const double *x0, slpi_oracle_next_stop next,
                                slpi_oracle_visit visit, void *ctx, long *done, slpi_error *err);
/* The plan's initial state in core's layout on the double path (slpi_fast_initial_state of a
 * run object of the plan, so the model is not parsed again), else, where the plan makes no
 * run object, slpi_fast_problem_initial_state's answer. */
int slpi_oracle_initial_state(const slpi_plan *plan, double *x, slpi_error *err);

/* Certified invariants (no differences) of a state given as doubles, taken as exact, the
 * state of step `step` (a model's H reads t = t0 + step h; docs/models.md#time). */
void slpi_oracle_invariants_of(slpi_ref *s, const double *x, int dim, long step, slpi_ref_diag *d);

/* Scales of the invariants at the state x (ball midpoints): for each invariant I,
 * max(|I(x)|, sum_j |dI/dx_j| |x_j|), the second term measured as the radius of I on
 * the state widened by the relative radius eps = 2^-30, divided by eps. This is the
 * change of I that relative rounding errors of the state cause, so a near-zero
 * invariant (the trace of su(N), a Casimir that vanishes) is not scaled by itself. */
void slpi_oracle_invariant_scales(slpi_ref *s, arb_srcptr x, int dim, double *scale, int n);

/* A port's trajectory as the verifier sees it: the problem, the state columns, the
 * stated budget (unit roundoff u, PASS at ratio <= budget), the work bound, and the
 * split of the rows over threads and MPI ranks (combine sums the ranks' buffers in
 * place; NULL: one rank). The rows themselves are streamed (oracle/verify.c). */
typedef struct {
    const slpi_problem *p;
    const slpi_plan *plan; /* p compiled once: every run object of the verifier is made from it */
    const int *col;        /* state coordinate i is column col[i] of the file */
    int dim;
    const double *x0;         /* the problem's initial state */
    slpi_precision precision; /* the port's format: its u and bits */
    double budget;
    long max_steps;            /* < 0: no bound on the steps certified per row */
    int threads, rank, nranks; /* threads: resolved, >= 1 */
    int (*combine)(double *buf, size_t n, void *arg);
    void *combine_arg;
    /* 1: no progress line of its own (verify's files run at once, under one line over
     * the files) */
    int quiet;
    /* the plan with Arb's products (matmul=arb), whose steps give the statistics' reference
     * where the certified ball is too wide for them (the BLAS route at binary64); NULL:
     * the plan's products are Arb's already, or the problem refuses them */
    const slpi_plan *plan_arb;
    /* the statistics' reference (SLPI_STAT_REF_CERTIFIED, _DOUBLE or _ACCURATE,
     * docs/power.md#reference-rule): under the double and the accurate one every row gives
     * its statistics row, certified or not, within max(max_steps, 1) steps */
    int reference;
    /* 1: each statistics row also carries the diagnosis's (slpi_oracle_diag_row), which
     * verify computes in a second pass over the same rows, only where the statistics FAIL
     * (oracle/verify.c, oracle/README.md#diagnosis); 0: the rows carry none */
    int diagnose;
} slpi_oracle_port;

/* Doubles a row gives the test: valid (1, or 2 when its step moves the state by a few
 * ulps of the format), the projections of r on SLPI_STAT_DIRS directions, |r|^2, |t|^2,
 * then the projections and |r|^2 of r taken from the exact step rounded to the format,
 * and the row's allowance tau for the format's data. */
#define SLPI_STAT_FIELDS (8 + SLPI_STAT_COPY_PROJ + 2 * SLPI_STAT_DIRS + SLPI_DIAG_FIELDS)
/* Then the diagnosis's (oracle/diagnose.c): the row's step (-1: none), per ingredient
 * |D_i|^2, <r, D_i> and <r_rounded, D_i>, then <D_a, D_b> of each pair a < b at
 * SLPI_DIAG_PAIR(a, b). */
#define SLPI_DIAG_PAIR(a, b) (3 * SLPI_DIAG_INGREDIENTS + (a) * (2 * SLPI_DIAG_INGREDIENTS - 1 - (a)) / 2 + (b) - (a))
#define SLPI_DIAG_FIELDS (1 + 3 * SLPI_DIAG_INGREDIENTS + SLPI_DIAG_INGREDIENTS * (SLPI_DIAG_INGREDIENTS - 1) / 2)
#define SLPI_DIAG_OFFSET (5 + 2 * SLPI_STAT_DIRS)
/* Then 1 when the row's reference is the step on Arb's products (plan_arb). */
#define SLPI_STAT_ARB_FIELD (SLPI_DIAG_OFFSET + SLPI_DIAG_FIELDS)
/* Then the port's declared solver stop on the row, T / (u s) (oracle/stat.c). */
#define SLPI_STAT_STOP_FIELD (SLPI_STAT_ARB_FIELD + 1)
/* Then the row's fingerprint for the copies rule (oracle/stat.c, docs/power.md#copies-amendment):
 * the exact step's projections on SLPI_STAT_COPY_PROJ fixed vectors of random signs, and
 * the spread within which rows of the same steps are copies. */
#define SLPI_STAT_COPY_PROJ 4
#define SLPI_STAT_COPY_FIELD (SLPI_STAT_STOP_FIELD + 1)

/* One locally checked row: the port's state at step `to` and the state the certified
 * steps start from (the port's previous row at step `from`, or x0 with from = to for
 * row 0), then the certified bounds of |port - step(start)| / (k u scale), ulps,
 * verdict, and the certified walk's status (UNABLE: why). */
typedef struct {
    long from, to;
    const double *start, *state; /* dim doubles each */
    double lo, hi, ulps;
    slpi_verdict verdict;
    slpi_step_status status;
    int route;                     /* who enclosed its products: 0 Arb, 1 the BLAS route,
                                    * 2 both (a step retried at a raised precision), -1 no
                                    * step (row 0) */
    double stat[SLPI_STAT_FIELDS]; /* the row's part of the statistical test (oracle/stat.c) */
} slpi_oracle_local_row;

/* ---- the statistical test (oracle/stat.c) ---- */

/* A row's first field when its statistics ran out of memory: slpi_oracle_local then
 * fails with "out of memory" (a row is never left out of the test silently). */
#define SLPI_STAT_NOMEM (-1.0)
/* The word of a statistics' reference SLPI_STAT_REF_* (slpi/tools.h, whose enum is in this
 * order): `--stat-reference`'s and the JSON's; NULL past the last. */
static inline const char *slpi_oracle_stat_reference_name(int ref)
{
    static const char *const names[] = { "auto", "certified", "double", "accurate" };
    return ref >= 0 && ref < (int)(sizeof names / sizeof *names) ? names[ref] : NULL;
}
/* 1 when the ball x of a row of k steps knows the row's deviation to within frac of the
 * unit k u s, 0 when it is too wide; a row enters the test at SLPI_STAT_RESOLUTION. */
#define SLPI_STAT_RESOLUTION 1e-3
int slpi_oracle_stat_resolves(const slpi_oracle_port *port, arb_srcptr x, long k, double frac);
/* The directions used for M noise components (*split: one per component). */
int slpi_oracle_stat_dirs(int M, int *split);
const char *slpi_oracle_stat_dir_name(int j, int split);
/* A row's fields (out[SLPI_STAT_FIELDS]; valid 0 when a fast step failed, SLPI_STAT_NOMEM
 * when memory did): the port's
 * deviation from the certified step x (balls), dw the increments of the row's k steps
 * (k x M), f a fast run object of the problem; P the fast path's k steps from the row's
 * start over dw (slpi_oracle_fast_steps with every multiplier 1) when the caller has
 * them, else NULL (then computed here). */
void slpi_oracle_stat_row(slpi_fast *f, const slpi_oracle_port *port, const slpi_oracle_local_row *lr, const double *dw,
                          arb_srcptr x, const double *P, double *out);
/* Empty sums for M noise components and a state of dim coordinates at false-FAIL rate
 * alpha; add the row of steps from..to; merge sums (from's copies groups move to `to`).
 * Adding and merging return -1 when memory ran out for the copies groups, else 0. */
void slpi_oracle_stat_init(slpi_verify_stats *st, int M, int dim, double alpha);
int slpi_oracle_stat_add(slpi_verify_stats *st, long from, long to, const double *row);
int slpi_oracle_stat_merge(slpi_verify_stats *to, slpi_verify_stats *from);
/* The statistics, p-values, effect and verdict of the pooled sums of `paths` files (the
 * copies groups applied and freed). */
void slpi_oracle_stat_finish(slpi_verify_stats *st, int paths);
/* A row's part of the test into the sums (J directions, the size test's envelope), and
 * two sums merged (oracle/stat-sums.c). */
void slpi_oracle_stat_row_into(slpi_verify_sums *exact, slpi_verify_sums *rounded, double *t2_sum, double *tau_sum,
                               const double *row, int J, double envelope);
void slpi_oracle_stat_sums_merge(slpi_verify_sums *to, const slpi_verify_sums *from);

/* ---- rows that are copies at the format's resolution (oracle/stat-copies.c) ---- */
/* The row of steps from..to into its group (the table made at the first row); merge
 * table `from` into *to and free it; -1 when out of memory, else 0. dirs and envelope:
 * the test's (slpi_verify_stats), for the groups' own sums. */
int slpi_oracle_copies_add(struct slpi_stat_copies **t, long from, long to, const double *row, int dirs,
                           double envelope);
int slpi_oracle_copies_merge(struct slpi_stat_copies **to, struct slpi_stat_copies *from, int dirs, double envelope);
/* st->observations and st->copies_groups from st->copies; where a group is copies, the
 * sums again with each copies group one observation, its rows' mean; the table freed. */
void slpi_oracle_copies_apply(slpi_verify_stats *st);
void slpi_oracle_copies_free(struct slpi_stat_copies *t);


/* The fast path's k steps of row lr from x over dw (k x M), increment l multiplied by
 * mult[l], into out; 0, or -1 when a step failed (*nomem set when memory did). */
int slpi_oracle_fast_steps(slpi_fast *f, const slpi_oracle_local_row *lr, const double *x, const double *dw, int M,
                           const double *mult, double *out, int dim, int *nomem);
/* P(F > f) for F of (d1, d2) degrees of freedom. */
double slpi_oracle_f_tail(double f, double d1, double d2);

/* ---- pooled files (oracle/verify-pool.c) ---- */
/* A pooled file's path: two 64-bit hashes of its initial state and increments. */
typedef struct {
    uint64_t h[2];
} slpi_verify_path_key;
/* The key of the path plan draws (its first max(1, max_steps) increments when max_steps >= 0). */
int slpi_verify_path_key_of(const slpi_plan *plan, long max_steps, slpi_verify_path_key *k, slpi_error *err);
/* SLPI_OK when file i's path is none of files 0..i-1's, else an input error naming both. */
int slpi_verify_distinct_path(const slpi_verify_path_key *keys, int i, const char *const *names, slpi_error *err);
/* File b's proof folded into a's (counts summed, the worst scores, the statistics merged:
 * b's copies groups move to a); an input error when memory ran out. */
int slpi_verify_fold_proof(slpi_verify_result *a, slpi_verify_result *b, slpi_error *err);

/* ---- the diagnosis (oracle/diagnose.c) ---- */
/* Empty sums for problem p's ingredients (its state of dim coordinates) over the steps
 * first..last, for a port of unit roundoff u. */
void slpi_oracle_diag_init(slpi_verify_diagnosis *d, const slpi_problem *p, int dim, long first, long last, double u);
/* A row's fields (out[SLPI_DIAG_FIELDS]) from its deviations r and rr (from the exact step
 * and from it rounded; dim each, in units of `unit` = k u s) and the fast path f. */
void slpi_oracle_diag_row(slpi_fast *f, const slpi_oracle_local_row *lr, const double *dw, int M, const double *r,
                          const double *rr, double unit, int dim, double *out, int *nomem);
void slpi_oracle_diag_add(slpi_verify_diagnosis *d, const double *row);
void slpi_oracle_diag_merge(slpi_verify_diagnosis *to, const slpi_verify_diagnosis *from);
/* The result over the rows' form (rounded: 1), named when the statistics FAIL (fail) and
 * the best ingredient's p <= alpha; r2 the sum |r|^2 of that form. */
void slpi_oracle_diag_finish(slpi_verify_diagnosis *d, int rounded, double r2, double alpha, int fail);
/* Where d names a window: its ingredients ranked again by the share each explains on the
 * window's rows, the window's relative error and separability from w, the sums of a pass
 * over those rows alone (the joint fit's sandwich error there; docs/power.md#window-sandwich). */
void slpi_oracle_diag_window(slpi_verify_diagnosis *d, const slpi_verify_diagnosis *w, int rounded, double alpha);
/* Where d names a window and w is the pass over its rows (binned over them): the run of
 * w's bins where d's first has the largest t, with the sign of its sum there, into
 * *from..*to (docs/power.md#window-refine); 1 when it is narrower than d's window. */
int slpi_oracle_diag_refine(const slpi_verify_diagnosis *d, const slpi_verify_diagnosis *w, int rounded, long *from,
                            long *to);

/* The error unit of a local row k steps after its predecessor: k m u, m = ceil(sqrt(dim)). */
double slpi_oracle_local_unit(long steps, int dim, double u);

/* Check the rows rows[0..nrows) locally (oracle/local.c), a window of a longer list of
 * which rows[0] is entry `first` (the MPI split: entry i is this rank's when i = rank
 * mod nranks); pg (may be NULL) counts this rank's rows. */
int slpi_oracle_local(const slpi_oracle_port *port, slpi_oracle_local_row *rows, long nrows, long first,
                      slpi_progress *pg, slpi_error *err);

/* The provenance lines as key/value pairs (appended to *n, *key, *val); 0, or -1 out of
 * memory (the lists then hold the pairs made so far). */
int slpi_oracle_provenance(int *n, char ***key, char ***val);

/* ---- the verifier's parts (oracle/verify.c: the global walk, the report, the entry
 * points; oracle/verify-input.c: the input; oracle/verify-local.c: --local) ---- */
/* What the validation pass learned of the file: its problem, where the state
 * columns are, its rows' count and steps, and how many rows the local comparison may
 * visit (slpi_verify_local_wanted). */
typedef struct {
    const char *path;      /* the file read */
    const char *name;      /* the file in the report and messages: path, or FILE#path=K for a
                            * split path's file (verify-paths.c) */
    const slpi_problem *p; /* the header's problem, its plan's (NULL until it is read) */
    slpi_plan *plan;       /* the header's plan (the model parsed once), the caller's to slpi_plan_unref */
    int dim, *col;         /* state coordinate i is column col[i] */
    long nrows, first_step, last_step, ncand;
    long max_gap, gap_step; /* the most steps between a local row and the previous row, and its step */
    long missing, missing_step[SLPI_VERIFY_MISSING_NAMED]; /* rows of the header's output
                                * grid (core/rows.c) the file omits; the first ones named */
} slpi_verify_input;
/* The validation pass (oracle/verify-input.c): the header's problem, the state columns,
 * and every row (a step within the header's steps, t on the grid, doubles in the state
 * columns), with the last row at the header's steps; in->path set by the caller. */
int slpi_verify_scan(slpi_verify_input *in, const slpi_verify_opts *o, slpi_error *err);
/* Row `index` (at step `step`) is one the local comparison visits. */
int slpi_verify_local_wanted(const slpi_verify_opts *o, long index, long step);
/* res->note on a noise file the problem truncates but that was written untruncated. */
int slpi_verify_note_noise_file(const slpi_problem *p, slpi_verify_result *res, slpi_error *err);
/* The report (oracle/verify-report.c): a file's summary ending with its proof line; the
 * statistics and verdict lines after every file; pooled files' problems agree (but for
 * path, seed, noise file); --rows as given (A..B, A.., ..B) in buf, 0 when there is none. */
int slpi_verify_rows_range(const slpi_verify_opts *o, char *buf, size_t n);
void slpi_verify_write_summary(FILE *f, const slpi_verify_input *in, const slpi_verify_opts *o,
                               const slpi_verify_result *res);
void slpi_verify_write_verdict(FILE *f, const slpi_verify_opts *o, const slpi_verify_result *res);
int slpi_verify_same_problem(const slpi_verify_input *a, const slpi_verify_input *b, slpi_error *err);
/* The local comparison (oracle/verify-local.c) into res->local; *rc its status. */
void slpi_verify_run_local(slpi_oracle_port *port, const slpi_verify_input *in, const slpi_verify_opts *o, FILE *table,
                           slpi_verify_result *res, slpi_error *err, int *rc);

/* Files with a `path` column (many noise paths in one file) split into one file per path
 * (oracle/verify-paths.c): list[0..nlist) the files to verify, in order, each such file
 * replaced by its paths' files file[] in the private folder dir (made: by this run);
 * shown[0..nlist) their names in the report and messages, name[] a split path's
 * (FILE#path=K, FILE as given: the same bytes whatever the private folder's name). */
typedef struct {
    const char **list, **shown;
    long nlist;
    char **file, **name;
    long n, cap;
    char dir[SLPI_PATH_MAX];
    int made;
} slpi_verify_paths;
int slpi_verify_paths_split(slpi_verify_paths *sp, int n, const char *const *paths, slpi_error *err);
/* Removes the files and the folder this run made. */
void slpi_verify_paths_clear(slpi_verify_paths *sp);

#endif
