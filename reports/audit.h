/* audit.h — internal interface of reports/: the claims audit (docs/claims.md) and the
 * vorticity of its Euler–Zeitlin figures. Its studies are studies/'s (studies/studies.h).
 * Used by cli/cmd-audit.c and tests. */
#ifndef SLPI_REPORTS_AUDIT_H
#define SLPI_REPORTS_AUDIT_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
typedef struct slpi_error slpi_error;     /* slpi/errors.h */
typedef struct slpi_problem slpi_problem; /* slpi/problem.h */
#include "slpi/limits.h"

/* ------------------------------------------------------------ Euler–Zeitlin figures */

/* Vorticity of an euler-zeitlin state (core layout) on an nlat x nlon grid (row i:
 * colatitude pi (i + 1/2)/nlat; column j: longitude 2 pi j/nlon), for figures. */
typedef struct slpi_vort slpi_vort;
int slpi_vort_create(slpi_vort **v, int N, slpi_error *err);
void slpi_vort_grid(slpi_vort *v, const double *state, int nlat, int nlon, double *grid);
void slpi_vort_free(slpi_vort *v);

/* ------------------------------------------------------------ claims audit (docs/claims.md) */

/* claim: decides the verdict; cond: the condition under which a failed claim holds;
 * ev: evidence only; fails/passes: a control, the decisive check on a case where it must
 * fail (or pass), the demonstration that the check can fail (or pass). */
typedef enum { SLPI_ROLE_CLAIM, SLPI_ROLE_COND, SLPI_ROLE_EV, SLPI_ROLE_CTL_FAIL, SLPI_ROLE_CTL_PASS } slpi_audit_role;
typedef enum { SLPI_CHECK_PASS, SLPI_CHECK_FAIL, SLPI_CHECK_UNABLE, SLPI_CHECK_NOT_RUN } slpi_check_outcome;
/* CRITERION-DEPENDENT: the claim's variants (readings of a choice the paper leaves open,
 * each declared in the registry) reach different verdicts; the report shows the table. */
typedef enum {
    SLPI_CLAIM_CONFIRMED,
    SLPI_CLAIM_CONDITIONAL,
    SLPI_CLAIM_DISCREPANCY,
    SLPI_CLAIM_UNABLE,
    SLPI_CLAIM_CRITERION
} slpi_claim_verdict;
#define SLPI_CLAIM_NVERDICTS 5
#define SLPI_AUDIT_MAXVAR 8   /* variants of one claim */
#define SLPI_AUDIT_MAXNUM 8   /* named numbers of one check */
#define SLPI_AUDIT_PROBLEMS 3 /* problems one check builds at once */

/* A check string read through the check language's table (reports/audit-lang.c) at load:
 * the row it matched and its arguments, typed. arg[0] is the check word; an optional
 * argument left out has present = 0. */
#define SLPI_AUDIT_MAXARG 16
enum { SLPI_AUDIT_LE, SLPI_AUDIT_GE }; /* an operator's e: "<=", ">=" */
typedef struct {
    int present;
    double r;   /* a number (a real or an integer) */
    long i;     /* an integer */
    int e;      /* an enumeration's index (an operator: SLPI_AUDIT_LE/GE; a
                                   real's allowed word, as cayleypi's "pi": its index, else -1) */
    int at;     /* where it starts in the check string (a text: the rest of it) */
    char s[48]; /* as written (a key=value argument: its value) */
} slpi_audit_arg;
typedef struct {
    int form; /* the table's row */
    int n;    /* arguments, the check word included */
    slpi_audit_arg arg[SLPI_AUDIT_MAXARG];
    const char *name[SLPI_AUDIT_MAXARG]; /* each argument's name in the row ("WORD" the check
                                             word, an optional key=VALUE its key), set by
                                             slpi_audit_parse for slpi_audit_get */
} slpi_audit_args;

/* One check of a claim: a registry line (reports/claims.txt) and its outcome. */
typedef struct {
    char id[8], source[96], expected[24], kase[256], check[160], full[160];
    char expected_full[24];               /* the expectation at the papers' sizes (FULL=1): the part after
                                   '/' of the expected field, else the same as expected */
    char vlabel[24];                      /* variant label of the role ("claim@LABEL"), "" if none */
    char full_case[160], full_check[160]; /* full split: "k=v ... [:: CHECK]" or "CHECK" */
    slpi_audit_args args, full_args;      /* check and full_check, typed at load */
    slpi_audit_role role;
    int line;
    int variant; /* index into the claim's variants (role "claim@LABEL",
                                   "cond@LABEL"), -1: common to every variant */
    /* outcome */
    slpi_check_outcome outcome;
    double value;       /* the measured number the threshold applies to */
    char evidence[768]; /* what was measured, with numbers */
    char command[1280]; /* the command that reproduces it */
    char figure[128];   /* figure base name (figures/<name>.svg/.png), "" if none */
    double seconds;
    /* named numbers of the measurement (value first), for the generated texts: a
     * registry text's {K.NAME} is number NAME of the claim's K-th line (1-based) */
    int nnum;
    char num_name[SLPI_AUDIT_MAXNUM][12];
    double num[SLPI_AUDIT_MAXNUM];
    /* the problems its evaluator builds and runs: heap storage (core/problem-store.h)
     * that slpi_audit_eval allocates before the evaluator and frees after, NULL otherwise */
    slpi_problem *problem[SLPI_AUDIT_PROBLEMS];
} slpi_audit_check;

/* A variant of a claim: one reading of a choice the paper leaves open ("@ ID | LABEL |
 * what"), decided on its own; verdict and reason computed. */
typedef struct {
    char label[24], what[384];
    slpi_claim_verdict verdict;
    char reason[512];
} slpi_audit_variant;

typedef struct {
    char id[8], source[96], expected[24];
    char expected_full[24]; /* expected at the papers' sizes (see slpi_audit_check) */
    /* the claim's description ("= ID | ..." line of the registry) */
    char statement[512];  /* the claim in our words */
    char magnitude[256];  /* what the paper reports (numbers, order) */
    char paper_size[256]; /* the paper's experiment size */
    char why[768];        /* what differs and why: a template, {K.NAME} filled from the run */
    char quote[1024];     /* the paper's words tested, with location ('" ID | where | words') */
    char rule[768];       /* the rule that decides it ("~ ID | rule") */
    char choices[1024];   /* the thresholds/windows the paper does not give, and why
                                   ("! ID | values | reason" lines, joined by "; ") */
    char multiverse[512]; /* its declared multiverse ("% ID | DIM | VALUES" lines, as
                                   "DIM VALUES; ..."; "" for one member) */
    int nvar;
    slpi_audit_variant var[SLPI_AUDIT_MAXVAR];
    int rule_line; /* registry line of the rule, for messages */
    slpi_claim_verdict verdict;
    char reason[1100];   /* one line: why this verdict (computed; room for every
                                   variant's verdict and the first variant's reason) */
    char why_text[1024]; /* why with its placeholders filled from the run */
    char condition[256]; /* CONDITIONAL: the condition found */
    int first, count;    /* its checks in the audit's check array */
    int cached;          /* its result came from the cache */
    int unfilled;        /* its text names a number this run did not measure (the
                                   report says so in its place; slpi_audit_unfilled) */
} slpi_audit_claim;

/* The longest report folder path (slpi audit --out refuses a longer one): the paths of its
 * files (figures/NAME.svg, data/NAME-path.tsv, NAME below 64 bytes) fit in SLPI_PATH_MAX. */
#define SLPI_AUDIT_OUTDIR_MAX (SLPI_PATH_MAX - 96)

typedef struct {
    int full;                     /* the papers' sizes (FULL=1) */
    char outdir[SLPI_PATH_MAX];   /* report folder (figures/, data/, index.html, claims.json) */
    const char *only;             /* run only this claim id (NULL: all) */
    const char *tests;            /* recorded unit-test results (reports/unit-tests.sh) or NULL */
    int controls;                 /* 1: evaluate only the control lines (failure demonstrations) */
    const char *cache;            /* per-claim result cache folder (NULL: none) */
    int cached_only;              /* 1: only what the cache holds (claims not in it: not run) */
    uint64_t seed_offset;         /* added to every case's noise seed and to a critical sweep's
                                   seeds (0: the registry's): a confirmatory run on noise the
                                   registry never used (docs/claims.md#confirmatory) */
    const char *archive;          /* an archived FULL=1 report folder shown beside (NULL: none) */
    int fit_ols;                  /* a multiverse member (docs/claims.md#multiverse): slopes fitted */
    int drop_coarse;              /* with equal weights; the coarsest level left out */
    char registry[SLPI_PATH_MAX]; /* the registry's path (slpi_audit_load) */
    const char *source_digest;    /* the decision path's digest and files, carried in the */
    const char *source_files;     /* command (mk/rules-digest.sh; NULL: not the command) */
    int rules_changed;            /* 1: run although the decision digest is not the frozen one
                                   (SLPI_AUDIT_RULES_CHANGED=1; the report flags it) */
    char outside[640];            /* why the run is outside the freeze ("": it is not): another
                                   registry than the frozen one, or no frozen lines found */
    int nchecks, nclaims;
    slpi_audit_check *checks;
    slpi_audit_claim *claims;
} slpi_audit;

/* The freeze of the rules (reports/audit-freeze.c, docs/claims.md#decision-digest): 1 and
 * msg when the run's decision path is not the one docs/claims.md freezes (a rule change:
 * the command refuses to run; SLPI_AUDIT_RULES_CHANGED=1 runs it, flagged); the two lines
 * docs/claims.md freezes, as this command computes them. */
int slpi_audit_freeze_check(slpi_audit *a, char *msg, size_t n);
/* The verdict rules over a multiverse's members (MEMBERS: reports/multiverse/multiverse.sh's
 * members.tsv; N: the members its declared choices make) and the kernel and libm
 * screen's decision (FILE: reports/multiverse/screen.sh's screen.json), one line to out each
 * (reports/audit-verdict.c; docs/claims.md#multiverse, #screen). */
int slpi_audit_multiverse_verdict(const char *id, const char *members, int n, FILE *out, slpi_error *err);
int slpi_audit_screen_verdict(const char *id, const char *file, FILE *out, slpi_error *err);
void slpi_audit_digest_lines(const slpi_audit *a, FILE *f);

const char *slpi_claim_verdict_name(slpi_claim_verdict v);
const char *slpi_audit_role_name(slpi_audit_role r);
/* The role in words: "decides", "condition", "evidence", "control: must (not) be met". */
const char *slpi_audit_role_words(slpi_audit_role r);
/* Is claim id selected by a->only (a comma-separated list; NULL: every claim)? */
int slpi_audit_selected(const slpi_audit *a, const char *id);
/* Read the registry; errors name file:line. */
int slpi_audit_load(slpi_audit *a, const char *path, slpi_error *err);
/* Record a named number of c's measurement (the first is the value). */
void slpi_audit_num(slpi_audit_check *c, const char *name, double v);
/* Fill a registry text's {K.NAME} placeholders from claim cl's checks into out (each number
 * with 3 significant digits); -1 (out names the bad placeholder) if one is unknown. */
int slpi_audit_fill(const slpi_audit *a, const slpi_audit_claim *cl, const char *tmpl, char *out, size_t n);
/* Evaluate one check by its row of the check language (reports/audit-lang.c); writes data and figure files in outdir. */
void slpi_audit_eval(const slpi_audit *a, slpi_audit_check *c);
/* Evaluate every check and derive each claim's verdict from the outcomes; log (may be
 * NULL) receives each claim's verdict; progress over the claims goes through
 * slpi_progress (core/progress.c). With a->cache, a claim whose inputs (its registry
 * lines, the size, the build) match a cached result is not recomputed. SLPI_OK, or
 * SLPI_EINTR (err names the claim; may be NULL) once slpi_interrupt_request was called:
 * the claims finished before it are cached, the one in hand is not. */
int slpi_audit_run(slpi_audit *a, FILE *log, slpi_error *err);
/* Controls mode: the number of control lines whose outcome differs from the one they
 * demand (0: every check demonstrated that it can fail). */
int slpi_audit_controls_wrong(const slpi_audit *a);
/* The number of claims whose generated text kept a placeholder {K.NAME} unfilled (a
 * number the run did not measure); `slpi audit` fails when there is one. */
int slpi_audit_unfilled(const slpi_audit *a);
/* The report: claims.json, index.html and the figures (gnuplot) in a->outdir. */
int slpi_audit_write(const slpi_audit *a, double seconds, slpi_error *err);
/* With an archive (a->archive, reduced mode): one line to out per claim whose archived FULL=1
 * verdict differs from the registry's expectation at the papers' sizes; their number. */
int slpi_audit_archive_differences(const slpi_audit *a, FILE *out);
/* The count of each verdict that decides the claims (over the archived multiverse where one
 * is, else this run's), "CONFIRMED n, CONDITIONAL n, ...", into out. */
void slpi_audit_decided_counts(const slpi_audit *a, char *out, size_t n);
void slpi_audit_free(slpi_audit *a);
/* docs/claims.md's per-claim entries, from the registry alone (reports/audit-docs.c). */
int slpi_audit_docs(const slpi_audit *a, FILE *f);

#endif
