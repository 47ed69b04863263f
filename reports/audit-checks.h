/* audit-checks.h — internal interface of the claims audit's check evaluators (docs/claims.md;
 * check syntax in the header of reports/claims.txt). The layers, each calling only those
 * below it: reports/audit.c (the runner) -> reports/audit-lang.c (the language) -> one
 * file per check family -> reports/audit-figure.c (gnuplot) -> reports/audit-checks.c
 * (cases and outcomes). The check language itself, its words, typed arguments and
 * evaluators, is the table of reports/audit-lang.c; what a check's row says before it runs
 * (decidable, its bound, its result in words) is reports/audit-decidable.c. The registry
 * is read line by line by reports/audit-registry.c and its lines grouped into claims by
 * reports/audit-claims.c. The families:
 *   audit-runs.c     max/fails (diagnostics of a fast run), sphere, snapshots, ref,
 *                    growth (trend of a diagnostic), critical (critical step sweep),
 *                    ensemble (axis changes and spread of several realizations)
 *   audit-poisson.c  poisson/refpoisson (one-step Poisson defect, gaps/gaps.h)
 *   audit-studies.c  slope, gap, resolvable, weakexact (coupled convergence studies)
 *   audit-closed.c   closed computations and the gaps/ identities (incl. sviorbit, drift, legap:
 *                    Stratonovich consistency of Lie-Euler), test results, mutant
 *   audit-figure.c   gnuplot figures of the checks. */
#ifndef SLPI_REPORTS_AUDIT_CHECKS_H
#define SLPI_REPORTS_AUDIT_CHECKS_H

#include <jansson.h>
#include <stdio.h>
#include <stdint.h>
#include <stddef.h>

#include "reports/audit.h"
#include "studies/studies.h"

/* "= ID | statement | magnitude | paper size | why": a claim's description. */
typedef struct {
    char id[8];
    char statement[512], magnitude[256], paper_size[256], why[768];
    int line;
} slpi_audit_desc;

/* The claim's other description lines, by their first character:
 *   " ID | where | the paper's words      (quoted exactly; at least one for a paper's claim)
 *   ~ ID | the rule that decides it
 *   ! ID | values | why: a threshold, window or size the paper does not give (our choice)
 *   @ ID | LABEL | a variant: one reading of a choice the paper leaves open
 *   % ID | DIMENSION | VALUES | why: the claim's multiverse (docs/claims.md#multiverse) */
typedef struct {
    char kind, id[8], a[96], v[256], b[768];
    int line;
} slpi_audit_extra;
/* Group a's check lines (a->checks, read by slpi_audit_load) into claims (a->claims), with
 * their descriptions d[0..nd) and other lines x[0..nx), by the rules of reports/audit-claims.c;
 * an error names path:line. */
int slpi_audit_group(slpi_audit *a, const slpi_audit_desc *d, int nd, const slpi_audit_extra *x, int nx,
                     const char *path, slpi_error *err);

/* Split s (copied into buf) into at most max whitespace-separated tokens. */
int slpi_audit_tokens(const char *s, char *buf, size_t n, char **tok, int max);
/* The check string in force (FULL=1 may replace it). */
const char *slpi_audit_check_string(const slpi_audit *a, const slpi_audit_check *c);
/* The check in force typed (its args, or FULL=1's full_args where those replace it). */
const slpi_audit_args *slpi_audit_args_in_force(const slpi_audit *a, const slpi_audit_check *c);
/* The FULL=1 case overrides of c in force, or NULL. */
const char *slpi_audit_full_overrides(const slpi_audit *a, const slpi_audit_check *c);
/* The case as a problem; args receives " k=v ..." for the reproducing command. */
int slpi_audit_case(const slpi_audit *a, const slpi_audit_check *c, slpi_problem *p, char *args, size_t nargs,
                    slpi_error *err);
/* The case with `steps` steps, T and level cleared; on a bad case the check is UNABLE and
 * -1 is returned. */
int slpi_audit_steps_case(const slpi_audit *a, slpi_audit_check *c, long steps, slpi_problem *p);
void slpi_audit_outcome(slpi_audit_check *c, int pass, double value);
void slpi_audit_unable(slpi_audit_check *c, const char *fmt, const char *msg);
/* c's problems (c->problem, zeroed; 0 and c UNABLE when memory runs out), and their end. */
int slpi_audit_problems_alloc(slpi_audit_check *c);
void slpi_audit_problems_free(slpi_audit_check *c);
/* Append "sep text" to a claim field (dst[n]), bounded. */
void slpi_audit_append(char *dst, size_t n, const char *sep, const char *text);
/* Is c a control (role fails or passes)? */
int slpi_audit_is_control(const slpi_audit_check *c);
/* "<= X" or ">= X" (op: SLPI_AUDIT_LE or SLPI_AUDIT_GE): does v pass against thr? */
int slpi_audit_compare(int op, double v, double thr);
/* Read a check string through the language's table (reports/audit-lang.c) into x: 0, or
 * -1 with why (the word, what is wrong, the nearest valid word, the usage). */
int slpi_audit_parse(const char *check, slpi_audit_args *x, char *why, size_t nwhy);
/* The word of words[0..n) nearest to w by edit distance (of w and each word's first 63
 * characters; the first of equals; "?" if n is 0). */
const char *slpi_audit_nearest(const char *const *words, int n, const char *w);
/* Row `form` of the language's table (slpi_audit_args.form), as the rules before a run read
 * it (reports/audit-decidable.c): what its number is (SLPI_AUDIT_MAG: a magnitude, >= 0;
 * SLPI_AUDIT_WIN: a value judged by a window LO HI; 0: neither) and its result in words
 * (NULL: none). */
enum { SLPI_AUDIT_MAG = 1, SLPI_AUDIT_WIN = 2 };
int slpi_audit_form_kind(int form);
const char *slpi_audit_form_says(int form);
/* Argument `name` of a check read by slpi_audit_parse: its name in the language's table
 * ("DIAG", "LO", "OP", ...; an optional key=VALUE by its key; "WORD" the check word).
 * slpi_audit_find: its index in x->arg, -1 if the row has none. slpi_audit_get: the
 * argument; a name the row does not have is a programming error: the process aborts,
 * naming it. */
int slpi_audit_find(const slpi_audit_args *x, const char *name);
const slpi_audit_arg *slpi_audit_get(const slpi_audit_args *x, const char *name);
/* 0 if the check can come out either way, else -1 with why (the nearest valid word where
 * there is one): a diagnostic not among diag[0..ndiag) (the case's run's; diag NULL: not
 * checked), a reversed, empty or unbounded window, an empty sweep, a threshold that a
 * magnitude always or never meets, a window wider than its quantity's range, or a change's
 * threshold under the round-off floor of the case's run of `steps` steps (0: unknown, one
 * rounding). The registry refuses such a check at load. */
int slpi_audit_decidable(const slpi_audit_args *x, const char *const *diag, int ndiag, long steps, char *why, size_t n);
/* The bound the number of check x is judged against (docs/claims.md#screen reads how far
 * a run is from it): 1, a magnitude's threshold (*lo = *hi = X, or resolvable's N); 2, a
 * window [*lo, *hi] (a CI must lie inside it, or the number: critical's h, a growth
 * slope); 0, none (the outcome is not one number against a bound: fails, sphere, ref,
 * test, ensemble away, ...). */
int slpi_audit_bound(const slpi_audit_args *x, double *lo, double *hi);
/* The audit's sizes in words (reports/audit-sizes.c): a named number of check c (NAN if
 * absent); the size of check c (a study's paths and step sizes, a sweep's step sizes,
 * seeds and horizon, one step for a Poisson defect, the steps of a run, with the system's
 * size; a closed computation; else its case); claim cl's decisive checks' sizes, each
 * distinct one once. */
double slpi_audit_number(const slpi_audit_check *c, const char *name);
void slpi_audit_size_words(const slpi_audit *a, const slpi_audit_check *c, char *out, size_t n);
void slpi_audit_claim_size_words(const slpi_audit *a, const slpi_audit_claim *cl, char *out, size_t n);
/* "meets" or "misses", for evidence sentences (a check never says a bare "fail"). */
const char *slpi_audit_meets(const slpi_audit_check *c);
void slpi_audit_figure_name(const slpi_audit_check *c, char *out, size_t n);
/* Write figures/<name>.gp and run gnuplot on it (SVG and PNG): title from the claim,
 * size "W,H" (NULL: the default page-width size), axis labels, a logscale/format
 * preamble and the plot body. Failures are reported on stderr (the figure is absent). */
void slpi_audit_plot(const slpi_audit *a, const slpi_audit_check *c, const char *name, const char *size,
                     const char *xlabel, const char *ylabel, const char *preamble, const char *body);

/* The converge studies run in this process, by their reproducing command
 * (reports/audit-studies.c): a study read by several claims runs once. A ring of
 * SLPI_AUDIT_MEMO: the oldest is replaced; n counts the studies ever put. */
enum { SLPI_AUDIT_MEMO = 4 };
typedef struct {
    int n;
    struct {
        char cmd[1280];
        slpi_conv_result res;
    } e[SLPI_AUDIT_MEMO];
} slpi_audit_memo;
/* The study of cmd, or NULL if none is kept. */
const slpi_conv_result *slpi_audit_memo_find(const slpi_audit_memo *m, const char *cmd);
void slpi_audit_memo_put(slpi_audit_memo *m, const char *cmd, const slpi_conv_result *res);

/* What a check measured, in a few words, from its check string and numbers (the words of
 * its row of the language's table, reports/audit-lang.c). The results in words
 * (reports/audit-words.c): the archived FULL=1 run (a->archive's claims.json, NULL in FULL mode
 * or without one; json_decref it), one claim of it, the revision in a provenance, and a
 * claim's archived verdict and first decisive number in words (with its own run, and the
 * registry's expectation where that differs). */
void slpi_audit_measured_words(const char *check, double value, double lo, double hi, char *out, size_t n);
json_t *slpi_audit_archive_load(const slpi_audit *a);
json_t *slpi_audit_archive_claim(json_t *arch, const char *id);
const char *slpi_audit_archive_rev(json_t *o, char *buf, size_t n);
void slpi_audit_archive_words(json_t *o, const slpi_audit_claim *cl, char *out, size_t n);
/* What a run is checkable against, into root: seed offset, fit, levels, and the registry's,
 * build's and rules' digests (reports/audit-words.c). */
void slpi_audit_digests(const slpi_audit *a, json_t *root);
/* The freeze of the rules (reports/audit-freeze.c, docs/claims.md#decision-digest): the
 * run's decision digest (its sources' digest and the registry's bytes); the digests into a
 * report's root (slpi_audit_freeze_check and slpi_audit_digest_lines: reports/audit.h). */
void slpi_audit_decision_digest(const slpi_audit *a, char out[17]);
void slpi_audit_freeze_record(const slpi_audit *a, json_t *root);
/* What ran (reports/audit-loaded.c, docs/claims.md#what-ran): the objects that served exp
 * (the libm, with its label from the object: glibc, mpfr, mpfr-up, mpfr-down or other) and
 * cblas_zgemm (the BLAS, with the kernel OpenBLAS reports), by path and sha256, found once a
 * process; into a report's root as "loaded", or as two provenance lines. */
typedef struct {
    char libm[4096], libm_sha256[65], libm_label[16];
    char blas[4096], blas_sha256[65], blas_kernel[64];
} slpi_audit_ran;
const slpi_audit_ran *slpi_audit_loaded_once(void);
void slpi_audit_loaded_record(json_t *root);
void slpi_audit_loaded_write(FILE *f);
/* When and where a report is written: UTC date; host, processors and load average. */
void slpi_audit_run_stamp(char *date, size_t nd, char *machine, size_t nm);
/* The archived verdict over claim cl's multiverse: "VERDICT over N members: shares" from
 * a->archive's multiverse/ID/multiverse.txt (multiverse-full/ for a FULL run; _at: for the
 * size full names, whatever this run's), or "". */
void slpi_audit_multiverse_archived(const slpi_audit *a, const slpi_audit_claim *cl, char *out, size_t n);
void slpi_audit_multiverse_at(const slpi_audit *a, const slpi_audit_claim *cl, int full, char *out, size_t n);
/* The count of claim cl's declared multiverse members (1 without a declared choice), and
 * its dimensions' names into dims. */
int slpi_audit_multiverse_members(const slpi_audit_claim *cl, char *dims, size_t nd);
/* Claim cl's multiverse in words (docs/claims.md#multiverse): its members' count into
 * *members, the member this run is, the archived verdict over the members (a->archive's
 * multiverse/ID/multiverse.txt), or that the verdict rests on one member. */
void slpi_audit_multiverse_words(const slpi_audit *a, const slpi_audit_claim *cl, int *members, char *out, size_t n);
/* The verdict that decides claim cl in a report: the archived one over its multiverse into
 * word, its members and shares (and this run's verdict) into dist; else this run's. */
void slpi_audit_multiverse_decided(const slpi_audit *a, const slpi_audit_claim *cl, char *word, size_t nw, char *dist,
                                   size_t nd);

/* The evaluators (reports/audit-lang.c names each row's): ck holds the check in force,
 * typed (ck->arg[0] the check word). */
void slpi_audit_check_run(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_versus(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_sphere(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_snapshots(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_ref(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_poisson(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_slope(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_gap(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_resolvable(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_weakexact(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
/* weakexact's Monte-Carlo clause: 1 iff the largest |z| (in *zmax) of a weak study's level
 * differences E[P_l - P_l+1] (its MLMC column) against the exact quadrature's
 * r->quad[l] - r->quad[l+1] is below 4 (a zero SE: z = 0 if they are equal, else infinite). */
int slpi_audit_weakexact_mc(const slpi_conv_result *r, double *zmax);
void slpi_audit_check_moments(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_thresholds(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_cayleypi(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_mutant(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_drift(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_legap(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_growth(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_critical(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_ensemble(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_dexpinv(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_adstar(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_sviident(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_sviorbit(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_svivs(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_lifted(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_tests(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);
void slpi_audit_check_unable(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck);

#endif
