/* t-stepper-state.c — stepper checkpoints (slpi_stepper_save, slpi_stepper_load;
 * api/stepper-state.c), each case against the uninterrupted stepper, bit for bit:
 *   - a stepper advanced k steps (k random), saved, freed, and a fresh stepper of the same
 *     problem loaded from the text and advanced to the end writes the rows (states,
 *     diagnostics, iterations, residuals) and ends with the counts (slpi_stepper_counts,
 *     clipped included) of one advance over the whole run; so does one saved inside its
 *     observer after step k; the problems: the rigid body (ISOMP) with warm_start=1 and
 *     a truncation that clips (trunc_ell=0.05), the same with coloured noise
 *     (noise_tau), a given x0, and the certified path; on the fast path also a stepper
 *     restarted on noise path 3 before saving;
 *   - the length slpi_stepper_save returns with buf NULL is the text's;
 *   - refused with SLPI_EINPUT, the message naming what differs, the stepper left where
 *     it stood: the text cut at a random byte, one byte changed (the end digest), a
 *     stepper of other steps (naming steps=), another noise path (path=), another initial
 *     state (stepper.x0=), and the other path (fast/ref).
 * k, the cut and the changed byte vary with the printed seed. */
#include "slpi.h"
#include "testutil.h"

#define DIM 3
#define MAXROWS 65
#define NDIAG 32

typedef struct {
    double x[MAXROWS * DIM], d[MAXROWS * NDIAG];
    int it[MAXROWS];
    double res[MAXROWS];
    long rows, counts[SLPI_STEPPER_NCOUNTS];
} rows_t;

static slpi_problem *problem(long steps, const char *tau)
{
    slpi_problem *p = slpi_problem_new("iso/rigid-body/trajectories");
    char s[32];
    snprintf(s, sizeof s, "%ld", steps);
    TEST_CHECK(p && slpi_problem_set_key(p, "steps", s) == SLPI_OK);
    TEST_CHECK(p && slpi_problem_set_key(p, "warm_start", "1") == SLPI_OK);
    TEST_CHECK(p && slpi_problem_set_key(p, "trunc_ell", "0.05") == SLPI_OK);
    if (p && tau) TEST_CHECK(slpi_problem_set_key(p, "noise_tau", tau) == SLPI_OK);
    return p;
}

/* Advance s by count steps, every step a row, appended to r. */
static void advance(slpi_stepper *s, long count, rows_t *r, int ndiag)
{
    long got = 0;
    int rc = slpi_stepper_advance(s, count, NULL, 1, r->x + r->rows * DIM, NULL, r->d + r->rows * ndiag, NULL,
                                  r->it + r->rows, r->res + r->rows, &got);
    TEST_CHECKF(rc == SLPI_OK, "advance: %s", slpi_api_last_error());
    r->rows += got;
    slpi_stepper_counts(s, r->counts);
}

static int same(const rows_t *a, const rows_t *b, int ndiag)
{
    return a->rows == b->rows && !memcmp(a->x, b->x, (size_t)a->rows * DIM * sizeof(double)) &&
        !memcmp(a->d, b->d, (size_t)a->rows * (size_t)ndiag * sizeof(double)) &&
        !memcmp(a->it, b->it, (size_t)a->rows * sizeof(int)) &&
        !memcmp(a->res, b->res, (size_t)a->rows * sizeof(double)) && !memcmp(a->counts, b->counts, sizeof a->counts);
}

static char *save(slpi_stepper *s)
{
    long n = slpi_stepper_save(s, NULL, 0);
    TEST_CHECKF(n > 0, "save: %s", slpi_api_last_error());
    char *text = malloc((size_t)(n > 0 ? n : 0) + 1);
    long m = slpi_stepper_save(s, text, (size_t)n + 1);
    TEST_CHECKF(m == n && (long)strlen(text) == n, "save: %ld then %ld bytes", n, m);
    return text;
}

typedef struct {
    slpi_stepper *s;
    long at;
    char *text;
} saver;

static int save_at(void *ctx, long step, double t, const double *x, int dim)
{
    saver *v = ctx;
    (void)t, (void)x, (void)dim;
    if (step == v->at) v->text = save(v->s);
    return 0;
}

/* The uninterrupted run against one saved at step k (after an advance, or inside the
 * observer) and loaded into a fresh stepper. */
static void check_resume(slpi_problem *p, int ref, const double *x0, uint64_t path, long steps, long k, int observer)
{
    static rows_t full, cut;
    slpi_stepper *s = NULL, *u = NULL;
    memset(&full, 0, sizeof full);
    memset(&cut, 0, sizeof cut);
    TEST_CHECK(slpi_stepper_new(&u, p, ref, x0, x0 ? DIM : 0) == SLPI_OK);
    int ndiag;
    slpi_stepper_shape(u, NULL, NULL, &ndiag, NULL, NULL);
    TEST_CHECK(ndiag <= NDIAG);
    if (path) TEST_CHECK(slpi_stepper_restart(u, path) == SLPI_OK);
    advance(u, steps, &full, ndiag);
    TEST_CHECK(slpi_stepper_new(&s, p, ref, x0, x0 ? DIM : 0) == SLPI_OK);
    if (path) TEST_CHECK(slpi_stepper_restart(s, path) == SLPI_OK);
    char *text;
    if (observer) {
        saver v = { s, k, NULL };
        slpi_stepper_set_observer(s, save_at, &v);
        advance(s, steps, &cut, ndiag);
        text = v.text;
        cut.rows = k;
    } else {
        advance(s, k, &cut, ndiag);
        text = save(s);
    }
    slpi_stepper_free(s);
    TEST_CHECK(slpi_stepper_new(&s, p, ref, x0, x0 ? DIM : 0) == SLPI_OK);
    if (path) TEST_CHECK(slpi_stepper_restart(s, path) == SLPI_OK);
    int rc = text ? slpi_stepper_load(s, text) : SLPI_EINPUT;
    TEST_CHECKF(rc == SLPI_OK && slpi_stepper_position(s) == k, "load at step %ld: %s", k, slpi_api_last_error());
    advance(s, steps - k, &cut, ndiag);
    TEST_CHECKF(same(&full, &cut, ndiag),
                "%s path, x0 %s, noise path %lu, saved at step %ld of %ld%s: the resumed rows or counts differ "
                "(clipped %ld and %ld)",
                ref ? "ref" : "fast", x0 ? "given" : "problem's", (unsigned long)path, k, steps,
                observer ? " in the observer" : "", full.counts[SLPI_STEPPER_CLIPPED],
                cut.counts[SLPI_STEPPER_CLIPPED]);
    free(text);
    slpi_stepper_free(s);
    slpi_stepper_free(u);
}

/* The text of a stepper at step k is refused, naming `want`, by s (then unmoved). */
static void refused(slpi_stepper *s, const char *text, const char *want, const char *what)
{
    long at = slpi_stepper_position(s);
    int rc = slpi_stepper_load(s, text);
    const char *msg = slpi_api_last_error();
    TEST_CHECKF(rc == SLPI_EINPUT && strstr(msg, want) && slpi_stepper_position(s) == at,
                "%s: rc %d, position %ld (was %ld), message '%s' (want '%s')", what, rc, slpi_stepper_position(s), at,
                msg, want);
}

static void check_refusals(long steps, long k)
{
    static rows_t r;
    memset(&r, 0, sizeof r);
    slpi_problem *p = problem(steps, NULL), *q = problem(steps + 1, NULL);
    const double x0[DIM] = { 0.6, 0.0, 0.8 };
    slpi_stepper *s = NULL, *t = NULL;
    TEST_CHECK(slpi_stepper_new(&s, p, 0, NULL, 0) == SLPI_OK);
    int ndiag;
    slpi_stepper_shape(s, NULL, NULL, &ndiag, NULL, NULL);
    advance(s, k, &r, ndiag);
    char *text = save(s);
    size_t len = strlen(text);
    char *bad = malloc(len + 1);
    /* cut at a random byte */
    memcpy(bad, text, len + 1);
    bad[test_rand_int((long)len)] = '\0';
    TEST_CHECK(slpi_stepper_new(&t, p, 0, NULL, 0) == SLPI_OK);
    refused(t, bad, "checkpoint", "cut text");
    /* one byte changed (not a newline: the digest, not the line structure, must see it) */
    memcpy(bad, text, len + 1);
    size_t at;
    do at = (size_t)test_rand_int((long)len - 30);
    while (bad[at] == '\n');
    bad[at] = bad[at] == '7' ? '5' : '7';
    refused(t, bad, "checkpoint", "a changed byte");
    free(bad);
    slpi_stepper_free(t);
    TEST_CHECK(slpi_stepper_new(&t, q, 0, NULL, 0) == SLPI_OK);
    refused(t, text, "steps=", "other steps");
    slpi_stepper_free(t);
    TEST_CHECK(slpi_stepper_new(&t, p, 0, NULL, 0) == SLPI_OK);
    TEST_CHECK(slpi_stepper_restart(t, 1) == SLPI_OK);
    refused(t, text, "path=", "another noise path");
    slpi_stepper_free(t);
    TEST_CHECK(slpi_stepper_new(&t, p, 0, x0, DIM) == SLPI_OK);
    refused(t, text, "stepper.x0=", "another initial state");
    slpi_stepper_free(t);
    TEST_CHECK(slpi_stepper_new(&t, p, 1, NULL, 0) == SLPI_OK);
    refused(t, text, "fast path", "the other path");
    slpi_stepper_free(t);
    free(text);
    slpi_stepper_free(s);
    slpi_problem_free(p);
    slpi_problem_free(q);
}

int main(void)
{
    test_start("t-stepper-state", 70);
    const double x0[DIM] = { 0.0, 0.6, 0.8 };
    for (int i = 0; i < (int)test_iters(3); i++) {
        long steps = 8 + test_rand_int(MAXROWS - 9), k = 1 + test_rand_int(steps - 1);
        slpi_problem *p = problem(steps, NULL), *o = problem(steps, "0.05,0,0.3");
        check_resume(p, 0, NULL, 0, steps, k, 0);
        check_resume(p, 0, NULL, 3, steps, k, 1);
        check_resume(o, 0, NULL, 0, steps, k, test_rand_int(2));
        check_resume(p, 0, x0, 0, steps, k, 0);
        if (i == 0) check_resume(p, 1, NULL, 0, steps < 16 ? steps : 16, k < 16 ? k : 8, 0);
        check_refusals(steps, k);
        slpi_problem_free(p);
        slpi_problem_free(o);
    }
    TEST_END();
}
