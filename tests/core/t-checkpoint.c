/* t-checkpoint.c — the checkpoint file format (core/checkpoint.c): a written
 * checkpoint reads back field for field (random contents, NaN diagnostics included, the
 * recorded complex product or none);
 * every line with a bad value, re-digested so that the parser sees it, is rejected
 * naming file:line; every proper prefix of a file (a torn write) is rejected; a file
 * altered after writing fails its digest; another version and an empty state token are
 * refused by name; and the write is atomic (no PATH.tmp left, an old checkpoint replaced
 * whole). Batch checkpoints read back, and a refused one keeps no row and no done flag.
 * The fast path's tokens carry ISOMP's warm start (warm_start=1|2): a path loaded from
 * another's tokens takes the next step bit for bit as the other does (state and
 * iterations), and a carry of the wrong length or with a bad value is refused, the loaded
 * path unchanged. */
#include <math.h>
#include <unistd.h>

#include "core/problem-struct.h"
#include "core/checkpoint.h"
#include "core/digest.h"
#include "ckptutil.h"
#include "testutil.h"

static char path[64];

static char *slurp(const char *name, size_t *len)
{
    FILE *f = fopen(name, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    *len = fread(s, 1, (size_t)n, f);
    s[*len] = '\0';
    fclose(f);
    return s;
}

static void put(const char *name, const char *s, size_t n)
{
    FILE *f = fopen(name, "wb");
    fwrite(s, 1, n, f);
    fclose(f);
}

/* body (an edited checkpoint) with its sections' and end digests renewed */
static void put_digested(const char *body, size_t n)
{
    ckpt_put_resealed(path, body, n);
}

static void random_checkpoint(slpi_checkpoint *c)
{
    memset(c, 0, sizeof *c);
    c->problem = strdup("system=rigid-body\nscheme=isomp\nh=0.00390625\nsteps=1000\n");
    strcpy(c->arith, test_rand_int(2) ? "fast" : "ref");
    c->hex = (int)test_rand_int(2);
    static const char *const zp[3] = { "", "zgemm", "zgemm3m" }; /* the product, recorded or none */
    strcpy(c->zproduct, zp[test_rand_int(3)]);
    c->dim = 1 + (int)test_rand_int(20);
    c->step = test_rand_int(1000);
    c->out_bytes = test_rand_int(1L << 40);
    c->out_digest = test_rand_u64();
    c->total_iters = test_rand_int(100000);
    c->res.max_iters = (int)test_rand_int(100);
    c->res.stagnated = test_rand_int(c->step + 1);
    c->res.capped = test_rand_int(c->step + 1);
    c->res.clipped = test_rand_int(50);
    c->res.max_radius = test_rand_uniform(0, 1e-10);
    c->res.max_prec = 64 << test_rand_int(5);
    c->res.ndiag = (int)test_rand_int(SLPI_MAX_DIAG + 1);
    for (int i = 0; i < c->res.ndiag; i++) {
        c->res.diag_first[i] = test_rand_uniform(-1e3, 1e3);
        c->res.diag_final[i] = i == 0 ? NAN : test_rand_uniform(-1e3, 1e3);
        c->res.diag_maxchange[i] = i == 1 ? INFINITY : test_rand_uniform(0, 1);
    }
    c->ntokens = c->dim + (int)test_rand_int(7);
    c->x = malloc((size_t)c->ntokens * sizeof(char *));
    for (int i = 0; i < c->ntokens; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, i % 2 ? "%a" : "%a 1f -3 7", test_rand_uniform(-1, 1));
        c->x[i] = strdup(buf);
    }
}

static int same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static void check_round_trip(const slpi_checkpoint *c)
{
    slpi_error err = { 0, "" };
    slpi_checkpoint d;
    TEST_CHECKF(slpi_checkpoint_write(path, c, &err) == SLPI_OK, "write: %s", err.msg);
    char tmp[80];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    TEST_CHECKF(access(tmp, F_OK) != 0, "%s left behind", tmp);
    int rc = slpi_checkpoint_read(path, &d, &err);
    TEST_CHECKF(rc == SLPI_OK, "read back: %s", err.msg);
    if (rc != SLPI_OK) return;
    int ok = !strcmp(c->problem, d.problem) && !strcmp(c->arith, d.arith) && c->hex == d.hex && c->dim == d.dim &&
        !strcmp(c->zproduct, d.zproduct) && c->step == d.step && c->out_bytes == d.out_bytes &&
        c->out_digest == d.out_digest && c->total_iters == d.total_iters && c->res.max_iters == d.res.max_iters &&
        c->res.stagnated == d.res.stagnated && c->res.capped == d.res.capped && c->res.clipped == d.res.clipped &&
        same_double(c->res.max_radius, d.res.max_radius) && c->res.max_prec == d.res.max_prec &&
        c->res.ndiag == d.res.ndiag && c->ntokens == d.ntokens && d.res.steps_done == c->step &&
        d.res.failed_step == -1;
    for (int i = 0; ok && i < c->res.ndiag; i++)
        ok = same_double(c->res.diag_first[i], d.res.diag_first[i]) &&
            same_double(c->res.diag_final[i], d.res.diag_final[i]) &&
            same_double(c->res.diag_maxchange[i], d.res.diag_maxchange[i]);
    for (int i = 0; ok && i < c->ntokens; i++) ok = !strcmp(c->x[i], d.x[i]);
    TEST_CHECKF(ok, "round trip changed a field (step %ld, %d tokens)", c->step, c->ntokens);
    slpi_checkpoint_free(&d);
}

static void expect_reject(const char *what, const char *want)
{
    slpi_error err = { 0, "" };
    slpi_checkpoint d;
    int rc = slpi_checkpoint_read(path, &d, &err);
    TEST_CHECKF(rc == SLPI_EINPUT && strstr(err.msg, want) && !strncmp(err.msg, path, strlen(path)),
                "%s: rc %d, message '%s' (want '%s')", what, rc, err.msg, want);
    if (rc == SLPI_OK) slpi_checkpoint_free(&d);
}

/* The certified path's checkpoint tokens (ref/path.c: arb_dump_str, four hex integers).
 * A state saved after a few random steps and loaded into a fresh context saves back to
 * the same tokens and writes the same row (the state read two ways: as tokens and as a
 * trajectory row). Every token out of the dump's shape is refused and leaves the loaded
 * state as it was: arb_load_str aborts on a radius mantissa of 32 bits (so the shape
 * check stands between a hostile file and an abort) and reads "-1" as a radius of 1; a
 * NaN or infinite midpoint (Arb's special exponents) and a wrong token count are refused. */
static char *row_text(const slpi_path_ops *ops, void *ctx)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    ops->write_row(ctx, f, 3, 0.5, NULL, 0);
    fclose(f);
    return buf;
}

static char *joined(char **t, int n)
{
    size_t len = 1;
    for (int i = 0; i < n; i++) len += strlen(t[i]) + 1;
    char *s = calloc(1, len);
    for (int i = 0; i < n; i++) strcat(strcat(s, t[i]), "|");
    return s;
}

static char *saved(const slpi_path_ops *ops, void *ctx, int *n)
{
    char **t;
    *n = ops->state_save(ctx, &t);
    char *s = joined(t, *n);
    for (int i = 0; i < *n; i++) free(t[i]);
    free(t);
    return s;
}

/* Path ctx loads the n tokens t with t[at] replaced by bad: 1 if the load is refused and
 * ctx's tokens are still `before`; its return code into *rc. */
static int load_refused(const slpi_path_ops *ops, void *ctx, char **t, int n, int at, const char *bad,
                        const char *before, int *rc)
{
    char *keep = t[at];
    t[at] = (char *)bad;
    *rc = ops->state_load(ctx, n, t);
    t[at] = keep;
    int nb;
    char *now = saved(ops, ctx, &nb);
    int same = !strcmp(now, before);
    free(now);
    return *rc == SLPI_EINPUT && same;
}

static void ref_tokens(int propagation)
{
    const slpi_path_ops *ops = slpi_ref_path();
    slpi_problem p;
    slpi_error err = { 0, "" };
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    p.cert.ref_lohner = propagation;
    TEST_CHECK(slpi_problem_finish(&p, &err) == SLPI_OK);
    /* the state's balls, then in the Lohner form (auto, on ISOMP comm) its set: flags,
     * centre, coefficients, plain ball, basis */
    int n = slpi_problem_state_dim(&p), ntok = n + (propagation == SLPI_PROPAGATION_BALL ? 0 : 1 + 3 * n + n * n);
    slpi_plan *plan = NULL; /* the run objects hold references of their own */
    TEST_CHECKF(slpi_problem_plan(&plan, &p, &err) == SLPI_OK, "plan: %s", err.msg);
    void *a = plan ? ops->create(plan, &err) : NULL, *b = plan ? ops->create(plan, &err) : NULL;
    slpi_plan_unref(plan);
    TEST_CHECKF(a && b, "ref path: %s", err.msg);
    if (!a || !b) return;
    TEST_CHECK(ops->set_state(a, NULL, &err) == SLPI_OK && ops->set_state(b, NULL, &err) == SLPI_OK);
    long steps = 1 + test_rand_int(3);
    for (long k = 0; k < steps; k++) {
        double dW[8];
        for (int i = 0; i < 8; i++) dW[i] = test_rand_uniform(-0.1, 0.1);
        slpi_step_info info;
        memset(&info, 0, sizeof info);
        TEST_CHECK(ops->step(a, dW, &info) == SLPI_STEP_CONVERGED);
    }
    char **ta;
    int na = ops->state_save(a, &ta), nb;
    TEST_CHECKF(na == ntok, "ref tokens: %d, not %d", na, ntok);
    char *before = saved(ops, b, &nb);
    TEST_CHECK(ops->state_load(b, na, ta) == SLPI_OK);
    char *sa = joined(ta, na), *sb = saved(ops, b, &nb);
    char *ra = row_text(ops, a), *rb = row_text(ops, b);
    TEST_CHECKF(!strcmp(sa, sb) && !strcmp(ra, rb) && strcmp(sa, before), "ref tokens: %s / %s", sa, sb);
    TEST_CHECK(ops->state_load(b, na - 1, ta) == SLPI_EINPUT);
    /* mid mantissa, mid exponent, rad mantissa, rad exponent */
    static const char *const bad[] = {
        "1 0 40000000 0", /* radius mantissa 2^30: arb_dump_str never writes it */
        "1 0 -1 0",       /* negative radius mantissa */
        "1 0 ffffffff 0",
        "1 0 ffffffffff 0", /* radius mantissa of 32 bits, of 10 hex digits */
        "1 10000000000000000 0 0",
        "1 0 0 -10000000000000000", /* exponents of 17 digits */
        "1 0 0",
        "1 0 0 0 ",
        "1 0  0 0",
        " 1 0 0 0",
        "1 0 0 0 0",
        "1 0 0 A",
        "1 0 0 0x",
        "",
        "- 0 0 0",
        "0 -1 0 0",
        "0 -2 0 0",
        "0 -3 0 0", /* midpoint +inf, -inf, NaN */
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        int at = (int)test_rand_int(na), rc;
        TEST_CHECKF(load_refused(ops, b, ta, na, at, bad[k], sa, &rc), "ref token '%s' at %d: rc %d", bad[k], at, rc);
    }
    /* the Lohner set: flags 0..3 (valid + 2 plain_ok), an exact centre and basis; a
     * ball (radius 1 * 2^0) or a flag 4 there is no set this path wrote */
    if (na > n) {
        int at_c = n + 1 + (int)test_rand_int(n), at_a = n + 1 + 3 * n + (int)test_rand_int(n * n), rc;
        TEST_CHECKF(load_refused(ops, b, ta, na, n, "4 0 0 0", sa, &rc), "Lohner flags 4: rc %d", rc);
        TEST_CHECKF(load_refused(ops, b, ta, na, at_c, "1 0 1 0", sa, &rc), "Lohner centre with a radius: rc %d", rc);
        TEST_CHECKF(load_refused(ops, b, ta, na, at_a, "1 0 1 0", sa, &rc), "Lohner basis with a radius: rc %d", rc);
    }
    /* the largest radius mantissa, negative midpoints and exponents: all in shape */
    static const char *const good[] = { "-1 -2 3fffffff -1e", "0 0 0 0", "-a3 7 1 -1" };
    for (size_t k = 0; k < sizeof good / sizeof *good; k++) {
        char *keep = ta[0];
        ta[0] = (char *)good[k];
        TEST_CHECKF(ops->state_load(b, na, ta) == SLPI_OK, "ref token '%s' refused", good[k]);
        ta[0] = keep;
    }
    for (int i = 0; i < na; i++) free(ta[i]);
    free(ta);
    free(before), free(sa), free(sb), free(ra), free(rb);
    ops->destroy(a);
    ops->destroy(b);
}

/* Batch checkpoints (what `slpi converge --resume` reads) for a study of two lines, 4
 * batches of 3 values, the last of which must be the batch's index plus one. */
static const char *last_is_index(void *arg, int b, const double *q)
{
    (void)arg;
    return q[2] != b + 1 ? "its last value is not the batch's" : NULL;
}

/* The batch checkpoint of `good` with `from` replaced by `to` (re-digested) is refused
 * naming `want`, and keeps no row and no done flag, whichever line refused it. */
static void expect_batch_reject(const char *good, const char *from, const char *to, const char *want)
{
    const char *at = strstr(good, from);
    size_t body = (size_t)(strstr(good, "\nend ") - good) + 1, k = (size_t)(at - good);
    char *bad = malloc(body + strlen(to) + 1);
    memcpy(bad, good, k);
    memcpy(bad + k, to, strlen(to));
    memcpy(bad + k + strlen(to), at + strlen(from), body - k - strlen(from));
    put_digested(bad, body - strlen(from) + strlen(to));
    free(bad);
    double rows[12];
    unsigned char done[4];
    for (int i = 0; i < 12; i++) rows[i] = 5;
    memset(done, 1, sizeof done);
    slpi_error err = { 0, "" };
    int rc =
        slpi_checkpoint_batches_read(path, "kind strong\nlevels 0 3\n", rows, done, 4, 3, last_is_index, NULL, &err);
    int kept = 0;
    for (int i = 0; i < 12; i++) kept += rows[i] != 0;
    for (int b = 0; b < 4; b++) kept += done[b] != 0;
    TEST_CHECKF(rc == SLPI_EINPUT && strstr(err.msg, want) && kept == 0,
                "batch checkpoint with '%s': rc %d, message '%s' (want '%s'), %d rows or flags kept", to, rc, err.msg,
                want, kept);
}

static void check_batches(void)
{
    const char *study = "kind strong\nlevels 0 3\n";
    const double rows[12] = { 0.25, -2.5, 1, 9, 9, 9, 1e-300, -0.0, 3, 7, 0x1.fffffffffffffp+1023, 4 };
    const unsigned char done[4] = { 1, 0, 1, 1 };
    slpi_error err = { 0, "" };
    TEST_CHECK(slpi_checkpoint_batches_write(path, study, rows, done, 4, 3, &err) == SLPI_OK);
    double back[12] = { 0 };
    unsigned char got[4] = { 0 };
    int rc = slpi_checkpoint_batches_read(path, study, back, got, 4, 3, last_is_index, NULL, &err);
    int same = rc == SLPI_OK && memcmp(got, done, sizeof got) == 0;
    for (int i = 0; i < 12; i++) same = same && same_double(back[i], done[i / 3] ? rows[i] : 0);
    TEST_CHECKF(same, "batch checkpoint round trip: rc %d '%s'", rc, err.msg);
    size_t len;
    char *good = slurp(path, &len);
    /* refused when opened (the version), after the study lines, after two batches */
    expect_batch_reject(good, "checkpoint 2\n", "checkpoint 1\n", ":1: slpi-converge-checkpoint version 1: this slpi");
    expect_batch_reject(good, "levels 0 3", "levels 0 4", "of another study");
    expect_batch_reject(good, " 0x1p+2\n", " 0x1p+1\n", "batch row: its last value is not the batch's");
    free(good);
}

/* The fast path's tokens with a warm start: path a steps k times, b loads a's tokens, and
 * both take the same next step (the same quantity two ways: the uninterrupted path and the
 * resumed one). Euler-Zeitlin N = 4 without noise (a smooth run, where the warm start
 * changes the start) and the rigid body with noise. */
static void fast_warm_tokens(const char *sys, int ws)
{
    const slpi_path_ops *ops = slpi_fast_path();
    slpi_problem p;
    slpi_error err = { 0, "" };
    char wtext[2] = { (char)('0' + ws), 0 };
    int euler = !strcmp(sys, "euler-zeitlin");
    slpi_problem_init(&p, euler ? SLPI_SYS_EULER_ZEITLIN : SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_set(&p, "warm_start", wtext, &err) == SLPI_OK);
    if (euler)
        TEST_CHECK(slpi_problem_set(&p, "N", "4", &err) == SLPI_OK &&
                   slpi_problem_set(&p, "ic_lmax", "3", &err) == SLPI_OK &&
                   slpi_problem_set(&p, "noise", "none", &err) == SLPI_OK &&
                   slpi_problem_set(&p, "h", "0.25", &err) == SLPI_OK);
    TEST_CHECKF(slpi_problem_finish(&p, &err) == SLPI_OK, "%s warm_start=%d: %s", sys, ws, err.msg);
    slpi_plan *plan = NULL; /* the run objects hold references of their own */
    TEST_CHECKF(slpi_problem_plan(&plan, &p, &err) == SLPI_OK, "plan: %s", err.msg);
    void *a = plan ? ops->create(plan, &err) : NULL, *b = plan ? ops->create(plan, &err) : NULL;
    slpi_plan_unref(plan);
    TEST_CHECKF(a && b, "fast path: %s", err.msg);
    if (!a || !b) return;
    TEST_CHECK(ops->set_state(a, NULL, &err) == SLPI_OK && ops->set_state(b, NULL, &err) == SLPI_OK);
    int M = slpi_problem_noise_count(&p), dim = slpi_problem_state_dim(&p);
    double dW[8]; /* h and at most the rigid body's 3 increments */
    dW[0] = p.grid.h;
    long steps = 2 + test_rand_int(3);
    for (long k = 0; k < steps; k++) {
        for (int i = 1; i <= M; i++) dW[i] = test_rand_uniform(-0.1, 0.1);
        slpi_step_info info;
        TEST_CHECK(ops->step(a, dW, &info) == SLPI_STEP_CONVERGED);
    }
    char **ta;
    int na = ops->state_save(a, &ta), nb;
    TEST_CHECKF(na > dim + SLPI_FAST_NCOUNTERS + 1, "%s warm_start=%d: %d tokens carry no warm start", sys, ws, na);
    if (na <= dim + SLPI_FAST_NCOUNTERS + 1) return;
    TEST_CHECK(ops->state_load(b, na - 1, ta) == SLPI_EINPUT);
    char *before = saved(ops, b, &nb);
    /* the carry's chain count (the first token after the counters) and one correction */
    static const char *const bad[] = { "0x1.8p+1", "0x1p-1", "-0x1p+0", "nan", "inf", "0x1p", "" };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        int at = k < 3 ? dim + SLPI_FAST_NCOUNTERS
                       : dim + SLPI_FAST_NCOUNTERS + 1 + (int)test_rand_int(na - dim - SLPI_FAST_NCOUNTERS - 1);
        int rc;
        TEST_CHECKF(load_refused(ops, b, ta, na, at, bad[k], before, &rc),
                    "%s warm_start=%d: carry token '%s' at %d: rc %d", sys, ws, bad[k], at, rc);
    }
    TEST_CHECK(ops->state_load(b, na, ta) == SLPI_OK);
    for (int i = 1; i <= M; i++) dW[i] = test_rand_uniform(-0.1, 0.1);
    slpi_step_info ia, ib;
    TEST_CHECK(ops->step(a, dW, &ia) == SLPI_STEP_CONVERGED && ops->step(b, dW, &ib) == SLPI_STEP_CONVERGED);
    char *sa = saved(ops, a, &na), *sb = saved(ops, b, &nb);
    TEST_CHECKF(!strcmp(sa, sb) && ia.iterations == ib.iterations,
                "%s warm_start=%d: the resumed step differs (%d vs %d iterations)", sys, ws, ia.iterations,
                ib.iterations);
    for (int i = 0; i < na; i++) free(ta[i]);
    free(ta);
    free(before), free(sa), free(sb);
    ops->destroy(a);
    ops->destroy(b);
    /* the handle API's own check (a caller's carry, not read from a file): a non-finite
     * correction is refused */
    slpi_fast *f;
    TEST_CHECK(slpi_fast_create(&f, &p, &err) == SLPI_OK);
    double *x = calloc((size_t)dim, sizeof *x);
    TEST_CHECK(slpi_fast_initial_state(f, x, &err) == SLPI_OK);
    slpi_step_info info;
    TEST_CHECK(slpi_fast_step(f, x, dW, &info) == SLPI_STEP_CONVERGED);
    int nc = slpi_fast_carry_get(f, NULL);
    double *carry = malloc((size_t)nc * sizeof *carry);
    TEST_CHECK(slpi_fast_carry_get(f, carry) == nc && slpi_fast_carry_set(f, x, carry, nc) == SLPI_OK);
    carry[1 + test_rand_int(nc - 1)] = test_rand_int(2) ? NAN : -INFINITY;
    TEST_CHECKF(slpi_fast_carry_set(f, x, carry, nc) == SLPI_EINPUT, "%s warm_start=%d: a non-finite carry taken", sys,
                ws);
    free(carry);
    free(x);
    slpi_fast_free(f);
}

int main(void)
{
    test_start("t-checkpoint", 17);
    /* the digest is FNV-1a 64 as published (Fowler, Noll, Vo): its test vectors */
    TEST_CHECK(slpi_fnv1a(SLPI_FNV_INIT, "", 0) == UINT64_C(0xcbf29ce484222325));
    TEST_CHECK(slpi_fnv1a(SLPI_FNV_INIT, "a", 1) == UINT64_C(0xaf63dc4c8601ec8c));
    TEST_CHECK(slpi_fnv1a(SLPI_FNV_INIT, "foobar", 6) == UINT64_C(0x85944171f73967e8));
    TEST_CHECK(slpi_fnv1a(slpi_fnv1a(SLPI_FNV_INIT, "foo", 3), "bar", 3) == UINT64_C(0x85944171f73967e8));
    snprintf(path, sizeof path, "/tmp/t-checkpoint-%ld", (long)getpid());
    long iters = test_iters(20);
    for (long it = 0; it < iters; it++) {
        slpi_checkpoint c;
        random_checkpoint(&c);
        check_round_trip(&c);
        slpi_checkpoint_free(&c);
    }

    slpi_checkpoint c;
    random_checkpoint(&c);
    c.res.ndiag = 2;
    strcpy(c.zproduct, "zgemm3m"); /* its line's value replaced below too */
    while (c.ntokens > 2) free(c.x[--c.ntokens]);
    slpi_error err = { 0, "" };
    TEST_CHECK(slpi_checkpoint_write(path, &c, &err) == SLPI_OK);
    size_t len;
    char *good = slurp(path, &len);
    size_t body = (size_t)(strstr(good, "\nend ") - good) + 1;

    /* every line's value replaced by garbage (re-digested): file:line named */
    int line = 0;
    for (size_t at = 0; at < body; line++) {
        size_t eol = (size_t)(strchr(good + at, '\n') - good);
        const char *sp = memchr(good + at, ' ', eol - at);
        if (line > 0 && sp && strncmp(good + at, "x ", 2) != 0 && strncmp(good + at, "section ", 8) != 0) {
            char *bad = malloc(body + 8);
            size_t k = (size_t)(sp - good) + 1;
            memcpy(bad, good, k);
            memcpy(bad + k, "#bad", 4);
            memcpy(bad + k + 4, good + eol, body - eol);
            put_digested(bad, k + 4 + body - eol);
            char where[96], what[64];
            snprintf(where, sizeof where, "%s:%d: ", path, line + 1);
            snprintf(what, sizeof what, "line %d value", line + 1);
            expect_reject(what, where);
            free(bad);
        }
        at = eol + 1;
    }
    /* torn writes: every proper prefix is refused */
    for (size_t n = 0; n < len; n++) {
        put(path, good, n);
        expect_reject("prefix", n == 0 ? "an empty file" : "a cut file");
    }
    /* altered after writing: the digest names it */
    char *alt = strdup(good);
    alt[strstr(alt, "step ") - alt + 5] ^= 1;
    put(path, alt, len);
    expect_reject("altered", ":2: section counts (lines 3-14) differs from its digest");
    free(alt);
    /* another version (re-digested) and a missing end line */
    char *v2 = strdup(good);
    v2[strlen("# slpi-checkpoint ")] = '1';
    put_digested(v2, body);
    expect_reject("version 1", ":1: slpi-checkpoint version 1: this slpi reads version 2 only; start again");
    put(path, good, body);
    expect_reject("no end line", "a cut file: it ends after section state, with no end line");
    put(path, "hello\n", 6);
    expect_reject("other file", ":1: not a checkpoint");
    free(v2);
    /* an extra line before the end line */
    char *extra = malloc(body + 16);
    memcpy(extra, good, body);
    memcpy(extra + body, "x extra\n", 8);
    put_digested(extra, body + 8);
    expect_reject("extra line", "unexpected line before the end line");
    free(extra);
    /* a state token left empty (re-digested) */
    char *empty = malloc(body + 1);
    size_t xat = (size_t)(strstr(good, "\nx ") - good) + 3, xend = (size_t)(strchr(good + xat, '\n') - good);
    memcpy(empty, good, xat);
    memcpy(empty + xat, good + xend, body - xend);
    put_digested(empty, body - (xend - xat));
    expect_reject("empty token", "empty state token");
    free(empty);
    /* atomic replacement: the old file is replaced whole */
    put(path, "old\n", 4);
    TEST_CHECK(slpi_checkpoint_write(path, &c, &err) == SLPI_OK);
    size_t len2;
    char *again = slurp(path, &len2);
    TEST_CHECK(len2 == len && memcmp(again, good, len) == 0);
    free(again);
    /* unwritable folder */
    TEST_CHECK(slpi_checkpoint_write("/nonexistent-dir/ck", &c, &err) == SLPI_EINPUT &&
               strstr(err.msg, "/nonexistent-dir/ck: cannot write"));
    free(good);
    slpi_checkpoint_free(&c);
    check_batches();
    unlink(path);
    ref_tokens(SLPI_PROPAGATION_BALL);
    ref_tokens(SLPI_PROPAGATION_AUTO);
    for (int ws = 1; ws <= 2; ws++) {
        fast_warm_tokens("euler-zeitlin", ws);
        fast_warm_tokens("rigid-body", ws);
    }
    TEST_END();
}
