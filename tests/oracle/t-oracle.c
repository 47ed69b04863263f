/* t-oracle.c — unit tests of oracle/: the golden-file reader on malformed files
 * (each rejected with the right file:line), write/read round trip, the scores
 * (ratios and ulps against a direct computation in long double, tri-state verdicts),
 * and the invariant scales against their closed form on the rigid body. */
#include <unistd.h>

#include "core/problem-struct.h"
#include "oracle/oracle.h"
#include "testutil.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = '\0';
    fclose(f);
    return s;
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

/* The text with line `line` (1-based) replaced by `repl` (NULL: deleted). */
static char *replace_line(const char *text, int line, const char *repl)
{
    size_t n = strlen(text) + (repl ? strlen(repl) : 0) + 2;
    char *out = malloc(n), *o = out;
    int no = 1;
    for (const char *s = text; *s;) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s + 1) : strlen(s);
        if (no == line) {
            if (repl) o += sprintf(o, "%s\n", repl);
        } else {
            memcpy(o, s, len);
            o += len;
        }
        s += len;
        no++;
    }
    *o = '\0';
    return out;
}

/* Cut the ball (last field) off every state and inv line, in place. */
static void strip_balls(char *text)
{
    char *o = text;
    for (char *s = text; *s;) {
        char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s + 1) : strlen(s);
        size_t keep = len;
        if (strncmp(s, "state\t", 6) == 0 || strncmp(s, "inv\t", 4) == 0)
            for (keep = len - 1; keep > 0 && s[keep - 1] != '\t'; keep--) continue;
        memmove(o, s, keep);
        o += keep;
        s += len;
    }
    *o = '\0';
}

/* Line `line` (1-based) of text, without its newline (malloc'd). */
static char *line_at(const char *text, int line)
{
    const char *s = text;
    for (int no = 1; no < line && s; no++) {
        s = strchr(s, '\n');
        if (s) s++;
    }
    if (!s) return strdup("");
    const char *e = strchr(s, '\n');
    return strndup(s, e ? (size_t)(e - s) : strlen(s));
}

static int find_line(const char *text, const char *prefix)
{
    int no = 1;
    for (const char *s = text; *s; no++) {
        if (strncmp(s, prefix, strlen(prefix)) == 0) return no;
        const char *e = strchr(s, '\n');
        if (!e) break;
        s = e + 1;
    }
    return -1;
}

/* Expect the reader to reject `text` with "<path>:<line>:" and `what` in the message. */
static void expect_bad(const char *path, const char *text, int line, const char *what)
{
    char want[300];
    slpi_golden g;
    slpi_error err = { 0, "" };
    spit(path, text);
    snprintf(want, sizeof want, "%s:%d:", path, line);
    int rc = slpi_golden_read(path, &g, &err);
    TEST_CHECKF(rc == SLPI_EINPUT && strstr(err.msg, want) && strstr(err.msg, what),
                "malformed golden (line %d, '%s'): rc %d, message '%s'", line, what, rc, err.msg);
    if (rc == SLPI_OK) slpi_golden_clear(&g);
}

/* text with every `from` replaced by `to` (malloc'd). */
static char *replace_all(const char *text, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to), n = 0;
    for (const char *p = strstr(text, from); p; p = strstr(p + nf, from)) n++;
    char *out = malloc(strlen(text) + n * nt + 1), *o = out;
    for (const char *p = text, *q; (q = strstr(p, from)) || *p; p = q + nf) {
        if (!q) {
            strcpy(o, p);
            return out;
        }
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        memcpy(o, to, nt);
        o += nt;
    }
    *o = 0;
    return out;
}

/* A golden file written with the certified invariants' names of before the twins' one
 * vocabulary (docs/architecture.md#twin-diagnostics) still checks, every old name read as
 * the name it became; a name that never existed is UNABLE. */
static void test_old_names(const char *dir, const char *text)
{
    static const char *const cases[][3] = { { "casimir_norm2", "|x|^2", "PASS" },
                                            { "casimir_norm2", "|y|^2", "UNABLE" } };
    char path[256];
    snprintf(path, sizeof path, "%s/old-names.golden", dir);
    for (int k = 0; k < 2; k++) {
        char *old = replace_all(text, cases[k][0], cases[k][1]);
        spit(path, old);
        free(old);
        slpi_golden g;
        slpi_golden_result r;
        slpi_error err = { 0, "" };
        int rc = slpi_golden_read(path, &g, &err);
        TEST_CHECKF(rc == SLPI_OK, "old names: %s", err.msg);
        if (rc != SLPI_OK) continue;
        rc = slpi_golden_check(&g, &r, &err);
        TEST_CHECKF(rc == SLPI_OK && !strcmp(slpi_verdict_name(r.ref), cases[k][2]),
                    "invariant '%s' for '%s': ref %s, want %s (%s)", cases[k][1], cases[k][0], slpi_verdict_name(r.ref),
                    cases[k][2], r.msg);
        slpi_golden_clear(&g);
    }
}

/* round trip: the golden file good (text, of g) read back and written again is the same text */
static void test_round_trip(const char *dir, const char *good, const char *text, const slpi_golden *g)
{
    slpi_golden h;
    slpi_error err = { 0, "" };
    TEST_CHECKF(slpi_golden_read(good, &h, &err) == SLPI_OK, "read: %s", err.msg);
    char again[256];
    snprintf(again, sizeof again, "%s/again.golden", dir);
    FILE *f = fopen(again, "w");
    slpi_golden_write(f, &h);
    fclose(f);
    char *text2 = slurp(again);
    /* the same text but for the balls, which widen by the decimal rounding (below) */
    strip_balls(text2);
    char *text1 = strdup(text);
    strip_balls(text1);
    TEST_CHECKF(strcmp(text1, text2) == 0, "golden write(read(write(g))) differs from write(g) outside the balls");
    free(text1);
    TEST_CHECK(h.dim == g->dim && h.M == g->M && h.ncheck == g->ncheck);
    TEST_CHECK(memcmp(h.dW, g->dW, (size_t)(g->problem->grid.steps * g->M) * sizeof(double)) == 0);
    for (int c = 0; c < g->ncheck; c++)
        for (int i = 0; i < g->dim; i++)
            TEST_CHECKF(arb_contains(h.check[c].state + i, g->check[c].state + i),
                        "checkpoint %d state %d: the read ball does not contain the computed one", c, i);
    slpi_golden_clear(&h);
    free(text2);
    if (!getenv("T_ORACLE_KEEP")) unlink(again);
}

static void test_reader(const char *dir)
{
    char good[256], bad[256];
    snprintf(good, sizeof good, "%s/good.golden", dir);
    snprintf(bad, sizeof bad, "%s/bad.golden", dir);
    slpi_golden g, h;
    slpi_error err = { 0, "" };
    TEST_CHECKF(slpi_golden_make("rigid-body/rkmk-heun", &g, &err) == SLPI_OK, "make: %s", err.msg);
    FILE *f = fopen(good, "w");
    slpi_golden_write(f, &g);
    fclose(f);
    char *text = slurp(good);
    if (!text) {
        TEST_CHECKF(0, "cannot read back %s", good);
        return;
    }
    TEST_CHECKF(strstr(text, "\tcasimir_norm2\t"), "the rigid body's golden file names no casimir_norm2");
    test_old_names(dir, text);

    test_round_trip(dir, good, text, &g);

    int x0 = find_line(text, "x0\t"), dw0 = find_line(text, "dW\t0\t"), cp = find_line(text, "checkpoint\t");
    int st = find_line(text, "state\t0\t"), inv = find_line(text, "inv\t"), end = find_line(text, "end");
    int prob = find_line(text, "problem\tinertia=");
    char *t;
#define BAD(line, repl, what) (t = replace_line(text, line, repl), expect_bad(bad, t, line, what), free(t))
    BAD(1, "# slpi-golden 2", "unsupported version 'slpi-golden 2' (this slpi reads '# slpi-golden 1')");
    BAD(1, "# slpi-trajectory 1", "not a golden file");
    BAD(x0, "x0\t0x1p-1\tnope\t0x1p-1", "not a finite double");
    BAD(x0, "x0\t0x1p-1\t0x1p-1", "the state has 3");
    BAD(x0, "x0\t0x1p-1\tnan\t0x1p-1", "not a finite double");
    BAD(dw0, "dW\t0\t0x1p-8\t0x1p-8", "M = 3");
    BAD(dw0, "dW\t1\t0x1p-8\t0x1p-8\t0x1p-8", "expected increments of step 0");
    BAD(cp, "checkpoint\t99\t128", "not in 1..16");
    BAD(cp, "checkpoint\t1", "expected 'checkpoint");
    BAD(st, "state\t0\tx1\t0.5 +/- x", "not a finite ball");
    BAD(st, "state\t0\tx9\t0.5 +/- 1e-30", "the problem calls it 'x1'");
    BAD(st, "state\t1\tx2\t0.5 +/- 1e-30", "state index 1, expected 0");
    BAD(inv, "inv\tH0\t[nan +/- 1]", "not a finite ball");
    BAD(inv, "frobnicate\t1", "unknown record 'frobnicate'");
    BAD(prob, "problem\tinertia=2,1", "inertia");
    BAD(prob, "problem\tnosuchkey=1", "nosuchkey");
    BAD(prob, "problem", "expected 'problem<TAB>key=value'");
    BAD(dw0 + 1, NULL, "expected increments of step 1");
    BAD(dw0, "dW", "expected increments of step 0");
    BAD(x0, "x0", "the state has 3");
    BAD(st, "state", "expected 'state");
    BAD(inv, "inv", "expected 'inv");
    t = replace_line(text, find_line(text, "problem\tprec_max="), "problem\tprec_max=64");
    expect_bad(bad, t, x0, "below prec"); /* a whole-problem rule: named where it is complete */
    free(t);
    t = replace_line(text, find_line(text, "problem\tsteps="),
                     "problem\tsteps=100000000"); /* found when the problem is complete */
    expect_bad(bad, t, x0, "more increments than a golden case holds");
    free(t);
    BAD(st + 1, NULL, "state index 2, expected 1");
    /* records out of order, each named at its line (oracle/golden.c's reader states) */
    char *x0_text = line_at(text, x0), *dw0_text = line_at(text, dw0), *st_text = line_at(text, st);
    int cps = find_line(text, "# checkpoints="), invs = find_line(text, "# invariants="),
        what = find_line(text, "# what=");
    BAD(find_line(text, "problem\t"), x0_text, "no 'problem' lines before this record");
    BAD(dw0, x0_text, "second x0 line");
    BAD(dw0, "problem\th=0.01", "'problem' line after the x0 line");
    BAD(x0, dw0_text, "dW line before the x0 line");
    BAD(st, dw0_text, "dW line after a checkpoint");
    BAD(cp, "dW\t16\t0x1p-8\t0x1p-8\t0x1p-8", "step 16: the problem has only 16 steps");
    BAD(x0, "checkpoint\t1\t128", "checkpoint before the x0 line");
    BAD(dw0, "checkpoint\t1\t128", "0 dW lines before the first checkpoint, the problem has 16 steps");
    BAD(cp, "checkpoint\t1\t31", "checkpoint precision 31 bits out of range");
    BAD(cp, "checkpoint\t1\t1048577", "checkpoint precision 1048577 bits out of range");
    BAD(cp, "checkpoint\t0\t128", "checkpoint step 0 is not in 1..16");
    BAD(cp, st_text, "state line before a checkpoint");
    BAD(cp, "inv\tH0\t1 +/- 0", "inv line before a checkpoint");
    BAD(cp, "end", "'end' before any checkpoint");
    BAD(inv + 1, st_text, "state line after the invariants");
    BAD(inv, "state\t3\tx4\t1 +/- 0", "state index 3 beyond the state dimension 3");
    BAD(st + 2, NULL, "checkpoint at step 1 has 2 of 3 state balls");
    BAD(st, "state\t0\tx1\t", "not a finite ball");
    BAD(st, "state\t0\tx1\t 0.5 +/- 1e-30", "not a finite ball");
    BAD(inv, "inv\t\t1 +/- 0", "expected 'inv<TAB>name<TAB>ball'");
    t = replace_line(text, prob, "problem\tx0=1,0,0");
    expect_bad(bad, t, x0, "x0 line differs from the problem's x0 key");
    free(t);
    BAD(2, "# nokey", "expected a '# key=value' header line");
    char *cps_text = line_at(text, cps);
    t = replace_line(text, what, cps_text); /* named at the second one */
    expect_bad(bad, t, cps, "second 'checkpoints' header line");
    free(t);
    free(cps_text);
    /* the header's promises against the file's checkpoints and invariants */
    BAD(cps, "# checkpoints=1,8,16,17", "promises a checkpoint at step 17; the file lacks it");
    BAD(cps, "# checkpoints=1,9,16", "promises a checkpoint at step 9; the file has another one in its place");
    BAD(cps, "# checkpoints=1,8", "the file holds 3 checkpoints, the header promises 2");
    BAD(cps, "# checkpoints=1,x,16", "checkpoints:");
    BAD(invs, "# invariants=H0,casimir_norm2,C9",
        "promises the invariant 'C9' in every checkpoint; the checkpoint at step 1 lacks it");
    BAD(invs, "# invariants=casimir_norm2,H0",
        "promises the invariant 'casimir_norm2' in every checkpoint; the checkpoint at step 1 has another one in its place");
    BAD(invs, "# invariants=H0", "the checkpoint at step 1 holds 2 invariants, the header promises 1");
    free(x0_text), free(dw0_text), free(st_text);
    /* whole-file refusals (no line to name): an empty file, a file without its case name */
    struct {
        const char *text, *what;
    } whole[2] = { { "", ": empty file" }, { NULL, ": no '# case=' header line" } };
    char *nocase = replace_line(text, find_line(text, "# case="), "# other=1");
    whole[1].text = nocase;
    for (int k = 0; k < 2; k++) {
        slpi_golden e;
        spit(bad, whole[k].text);
        int rc = slpi_golden_read(bad, &e, &err);
        TEST_CHECKF(rc == SLPI_EINPUT && strstr(err.msg, whole[k].what), "golden '%s': rc %d, message '%s'",
                    whole[k].what, rc, err.msg);
        if (rc == SLPI_OK) slpi_golden_clear(&e);
    }
    free(nocase);
    /* a header line after the problem, text after end, a missing end, truncation */
    BAD(x0, "# late=1", "header line after the problem");
    size_t tn = strlen(text) + 8;
    t = malloc(tn);
    if (!t) return;
    snprintf(t, tn, "%sx\n", text);
    expect_bad(bad, t, end + 1, "after the 'end'");
    t[strlen(text) - 1] = '\0'; /* drop the last newline: "end" unterminated */
    expect_bad(bad, t, end, "truncated");
    free(t);
    t = replace_line(text, end, NULL);
    expect_bad(bad, t, end - 1, "before the 'end' line");
    free(t);
#undef BAD
    free(text);
    slpi_golden_clear(&g);
    TEST_CHECK(slpi_golden_read("/nonexistent/x.golden", &h, &err) == SLPI_EINPUT && strstr(err.msg, "cannot open"));
    if (!getenv("T_ORACLE_KEEP")) {
        unlink(good);
        unlink(bad);
    }
}

/* Ratios and ulps against a direct long double computation. */
static void test_scores(void)
{
    int n = 6;
    arb_ptr b = _arb_vec_init(n);
    double f[6], m[6];
    for (long it = 0; it < test_iters(200); it++) {
        long step = 1 + test_rand_int(50);
        double scale = 0;
        for (int i = 0; i < n; i++) {
            m[i] = test_rand_uniform(-2, 2);
            scale = fmax(scale, fabs(m[i]));
            int k = (int)test_rand_int(40);
            f[i] = m[i];
            for (int j = 0; j < k; j++) f[i] = nextafter(f[i], test_rand_int(2) ? 3.0 : -3.0);
            arb_set_d(b + i, m[i]);
        }
        slpi_score s;
        slpi_score_vector(f, b, n, slpi_score_unit(step, SLPI_U_BINARY64), 0.0, &s);
        long double worst = 0, ulps = 0;
        for (int i = 0; i < n; i++) {
            long double e =
                fabsl((long double)f[i] - (long double)m[i]) / ((long double)step * 0x1p-53L * (long double)scale);
            if (e > worst) worst = e;
            if (fabs(m[i]) >= 0x1p-26 * scale) {
                long double u = fabsl((long double)f[i] - (long double)m[i]) /
                    (long double)(nextafter(fabs(m[i]), 3.0) - fabs(m[i]));
                if (u > ulps) ulps = u;
            }
        }
        TEST_CHECKF(fabsl(s.hi - worst) <= 1e-12L * worst + 1e-300L && s.lo == s.hi,
                    "ratio %.17g, direct %.17Lg (lo %.17g)", s.hi, worst, s.lo);
        TEST_CHECKF(fabsl(s.max_ulps - ulps) <= 1, "ulps %.17g, direct %.17Lg", s.max_ulps, ulps);
        TEST_CHECK(s.count == n);
    }
    /* a ball of radius r around the midpoint: lo and hi are |f - m| -/+ r */
    arb_set_d(b, 1.0);
    mag_set_d(arb_radref(b), 1e-14);
    f[0] = 1.0 + 4e-14;
    slpi_score s;
    slpi_score_vector(f, b, 1, slpi_score_unit(1, SLPI_U_BINARY64), 1.0, &s);
    double lo = (f[0] - 1.0 - 1e-14) / 0x1p-53, hi = (f[0] - 1.0 + 1e-14) / 0x1p-53;
    TEST_CHECKF(fabs(s.lo - lo) < 1e-8 * lo && fabs(s.hi - hi) < 1e-8 * hi, "ball ratio [%g, %g], want [%g, %g]", s.lo,
                s.hi, lo, hi);
    TEST_CHECKF(s.rounded == 0 && s.max_ulps < 0, "a wide ball cannot be rounded (rounded %d)", s.rounded);
    /* exact zeros: a coordinate 0 in both counts as rounded (0 ulps); one the certified
     * path puts at 0 while the fast one does not is below the 2^-26 scale cut and not
     * measured in ulps */
    {
        arb_ptr z = _arb_vec_init(3);
        double g[3] = { 0, 1, 1e-20 };
        arb_set_d(z + 1, 1.0);
        slpi_score_vector(g, z, 3, slpi_score_unit(1, SLPI_U_BINARY64), 1.0, &s);
        TEST_CHECKF(s.rounded == 2 && s.max_ulps == 0, "exact zeros: rounded %d, max ulps %g", s.rounded, s.max_ulps);
        /* a state of zeros with the scale left to the score (<= 0): the scale is 1, not 0 */
        double g0[3] = { 0, 0, 0 };
        arb_zero(z + 1);
        slpi_score_vector(g0, z, 3, slpi_score_unit(1, SLPI_U_BINARY64), 0.0, &s);
        TEST_CHECKF(s.lo == 0 && s.hi == 0, "zero state, own scale: ratio [%g, %g]", s.lo, s.hi);
        _arb_vec_clear(z, 3);
    }
    /* verdicts */
    slpi_score v = { 1, 30, -1, 0, 1 };
    TEST_CHECK(slpi_score_verdict(&v, SLPI_ORACLE_THRESHOLD) == SLPI_VERDICT_PASS);
    v.hi = 31;
    TEST_CHECK(slpi_score_verdict(&v, SLPI_ORACLE_THRESHOLD) == SLPI_VERDICT_UNABLE);
    v.lo = 30.5;
    TEST_CHECK(slpi_score_verdict(&v, SLPI_ORACLE_THRESHOLD) == SLPI_VERDICT_FAIL);
    v.lo = 0, v.hi = NAN;
    TEST_CHECK(slpi_score_verdict(&v, SLPI_ORACLE_THRESHOLD) == SLPI_VERDICT_UNABLE);
    TEST_CHECK(slpi_verdict_worse(SLPI_VERDICT_PASS, SLPI_VERDICT_UNABLE) == SLPI_VERDICT_UNABLE);
    TEST_CHECK(slpi_verdict_worse(SLPI_VERDICT_FAIL, SLPI_VERDICT_UNABLE) == SLPI_VERDICT_FAIL);
    TEST_CHECK(slpi_verdict_worse(SLPI_VERDICT_PASS, SLPI_VERDICT_PASS) == SLPI_VERDICT_PASS);
    _arb_vec_clear(b, n);
}

/* Scales of the rigid body (ISO form) invariants: H0 = x.I^-1 x and |x|^2 are
 * quadratic, so sum_j |dI/dx_j| |x_j| = 2 sum_j c_j x_j^2 = 2 I for positive c_j. */
static void test_scales(void)
{
    slpi_problem p;
    slpi_error err = { 0, "" };
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_finish(&p, &err) == SLPI_OK);
    slpi_ref *s = NULL;
    TEST_CHECKF(slpi_ref_create(&s, &p, &err) == SLPI_OK, "%s", err.msg);
    arb_ptr x = _arb_vec_init(3);
    for (long it = 0; it < test_iters(20); it++) {
        double xv[3];
        for (int i = 0; i < 3; i++) arb_set_d(x + i, xv[i] = test_rand_uniform(-1, 1));
        slpi_ref_diag d;
        slpi_ref_diag_init(&d);
        slpi_oracle_invariants_of(s, xv, 3, 0, &d);
        double scale[SLPI_MAX_DIAG];
        slpi_oracle_invariant_scales(s, x, 3, scale, d.n);
        for (int i = 0; i < d.n; i++) {
            double I = arf_get_d(arb_midref(d.value + i), ARF_RND_NEAR);
            TEST_CHECKF(fabs(scale[i] - 2 * I) <= 1e-6 * fabs(I), "%s: scale %.17g, closed form %.17g", d.name[i],
                        scale[i], 2 * I);
        }
        slpi_ref_diag_clear(&d);
    }
    _arb_vec_clear(x, 3);
    slpi_ref_free(s);
}

int main(void)
{
    test_start("t-oracle", 6);
    char dir[] = "/tmp/t-oracle-XXXXXX";
    if (!mkdtemp(dir)) return 2;
    test_reader(dir);
    test_scores();
    test_scales();
    rmdir(dir);
    TEST_END();
}
