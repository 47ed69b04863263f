/* t-noise-ou.c — Ornstein-Uhlenbeck noise (docs/noise.md#ou, core/noise-ou.c):
 *  - noise_tau absent, 0 or 0,0,0: the white increments, bit for bit;
 *  - the law: over R paths, the variance of an increment and the covariance of two
 *    consecutive ones are the stationary OU integral's, tau (X - 1 + e^-X) and
 *    tau (1 - e^-X)^2 / 2 (X = h/tau), within 5 standard errors (the tolerance fixed
 *    before the first run), at X = 2 and X = 0.05, refine 0 and 3;
 *  - the hierarchy: increment n at (h, r) is increments 2n + (2n+1) at (h/2, r-1), bit for
 *    bit, at r = 1 and at r = 12 (across a chunk of 2^11 fine values);
 *  - steps asked out of order are the same values;
 *  - a run checkpoint carries eta (ou_eta): the resume is the uninterrupted bytes, and a
 *    checkpoint whose eta was changed (its end digest rewritten) resumes to other bytes;
 *  - refused: bad noise_tau values, a count that is neither 1 nor M, with a noise file,
 *    and where white noise only is meant (the lanes, an exact reference). */
#include <math.h>
#include <unistd.h>

#include "core/problem-struct.h"
#include "core/noise.h"
#include "core/checkpoint.h"
#include "testutil.h"

static slpi_problem rb(long steps, double h, int refine, const char *tau)
{
    slpi_problem p;
    slpi_error err = { 0, "" };
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    char hs[64], st[32], rf[16];
    snprintf(hs, sizeof hs, "%a", h);
    snprintf(st, sizeof st, "%ld", steps);
    snprintf(rf, sizeof rf, "%d", refine);
    int rc = slpi_problem_set(&p, "h", hs, &err) | slpi_problem_set(&p, "steps", st, &err) |
        slpi_problem_set(&p, "refine", rf, &err) | slpi_problem_set(&p, "truncate", "off", &err);
    if (tau) rc |= slpi_problem_set(&p, "noise_tau", tau, &err);
    TEST_CHECKF(rc == SLPI_OK, "problem: %s", err.msg);
    return p;
}

/* steps x M increments of p's source, steps taken in order (or in reverse) */
static double *source_rows(const slpi_problem *p, int reverse)
{
    const int M = slpi_problem_noise_count(p);
    double *out = calloc((size_t)(p->grid.steps * M), sizeof *out);
    slpi_noise_source *s = NULL;
    slpi_error err = { 0, "" };
    int rc = slpi_noise_source_open(&s, p, &err);
    for (long i = 0; rc == SLPI_OK && i < p->grid.steps; i++) {
        long n = reverse ? p->grid.steps - 1 - i : i;
        rc = slpi_noise_source_step(s, n, out + n * M, &err);
    }
    TEST_CHECKF(rc == SLPI_OK, "source: %s", err.msg);
    slpi_noise_source_close(s);
    return out;
}

static void check_white(void)
{
    slpi_problem w = rb(200, 0x1p-6, 2, NULL), z = rb(200, 0x1p-6, 2, "0"), z3 = rb(200, 0x1p-6, 2, "0,0,0"),
                 c = rb(200, 0x1p-6, 2, "0,0.5,0");
    double *a = source_rows(&w, 0), *b = source_rows(&z, 0), *d = source_rows(&z3, 0), *e = source_rows(&c, 0);
    TEST_CHECK(memcmp(a, b, 600 * sizeof *a) == 0 && memcmp(a, d, 600 * sizeof *a) == 0);
    int white_same = 1, coloured_differs = 0;
    for (int n = 0; n < 200; n++) {
        white_same &= e[3 * n] == a[3 * n] && e[3 * n + 2] == a[3 * n + 2];
        coloured_differs |= e[3 * n + 1] != a[3 * n + 1];
    }
    TEST_CHECKF(white_same && coloured_differs, "0,0.5,0: the white components kept %d, the coloured one moved %d",
                white_same, coloured_differs);
    free(a), free(b), free(d), free(e);
}

/* the law of the increments over R paths at step n0 and n0 + 1 */
static void check_law(double h, double tau, int refine)
{
    const long R = test_iters(4000);
    char ts[64];
    snprintf(ts, sizeof ts, "%a", tau);
    slpi_problem p = rb(6, h, refine, ts);
    double s1 = 0, s2 = 0, s12 = 0;
    const uint64_t base = test_rand_u64() >> 34; /* paths base .. base + R - 1 */
    for (long r = 0; r < R; r++) {
        p.noise.path = base + (uint64_t)r;
        double *y = source_rows(&p, 0);
        const double a = y[3 * 4], b = y[3 * 5]; /* component 0, steps 4 and 5 */
        s1 += a * a;
        s2 += b * b;
        s12 += a * b;
        free(y);
    }
    const double X = h / tau, var = tau * (X - 1 + exp(-X)), cov = tau * (1 - exp(-X)) * (1 - exp(-X)) / 2;
    const double v = (s1 + s2) / (2.0 * (double)R), c = s12 / (double)R;
    const double se_v = var * sqrt(1.0 / (double)R), se_c = sqrt((var * var + cov * cov) / (double)R);
    printf("  law h=%g tau=%g refine %d: var %.5g (exact %.5g, %.1f SE), lag-1 cov %.5g (exact %.5g, %.1f SE)\n", h,
           tau, refine, v, var, (v - var) / se_v, c, cov, (c - cov) / se_c);
    TEST_CHECKF(fabs(v - var) <= 5 * se_v, "variance %g, exact %g", v, var);
    TEST_CHECKF(fabs(c - cov) <= 5 * se_c, "lag-1 covariance %g, exact %g", c, cov);
}

static void check_levels(int r)
{
    slpi_problem f = rb(8, 0x1p-5, r - 1, "0.01,0.3,0"), g = rb(4, 0x1p-4, r, "0.01,0.3,0");
    double *a = source_rows(&f, 0), *b = source_rows(&g, 0), *c = source_rows(&g, 1);
    int same = 1;
    for (int n = 0; n < 4; n++)
        for (int k = 0; k < 3; k++) same &= b[3 * n + k] == a[3 * (2 * n) + k] + a[3 * (2 * n + 1) + k];
    TEST_CHECKF(same, "refine %d: a coarse increment is not the sum of its two fine ones", r);
    TEST_CHECKF(memcmp(b, c, 12 * sizeof *b) == 0, "refine %d: steps in reverse order differ", r);
    free(a), free(b), free(c);
}

static long run_to(const slpi_problem *p, const char *out, const char *ck, const char *resume)
{
    FILE *f = fopen(out, resume ? "r+" : "w+");
    slpi_run_ckpt c = { ck, 70, resume, out, NULL };
    slpi_run_result res;
    slpi_error err = { 0, "" };
    int rc = slpi_run_checkpointed(p, slpi_fast_path(), f, 1, NULL, ck || resume ? &c : NULL, &res, &err);
    TEST_CHECKF(rc == SLPI_OK, "run: %s", err.msg);
    fclose(f);
    return res.steps_done;
}

static int same_file(const char *a, const char *b)
{
    FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
    int same = f && g;
    while (same) {
        int ca = getc(f), cb = getc(g);
        same = ca == cb;
        if (ca == EOF) break;
    }
    if (f) fclose(f);
    if (g) fclose(g);
    return same;
}

static void check_checkpoint(void)
{
    slpi_problem p = rb(300, 0x1p-7, 0, "0.05,0,0.5");
    p.noise.truncate = SLPI_TRUNC_AUTO;
    char full[] = "/tmp/t-noise-ou-full-XXXXXX", part[] = "/tmp/t-noise-ou-part-XXXXXX",
         ck[] = "/tmp/t-noise-ou-ck-XXXXXX";
    close(mkstemp(full)), close(mkstemp(part)), close(mkstemp(ck));
    run_to(&p, full, NULL, NULL);
    run_to(&p, part, ck, NULL); /* its last checkpoint: step 280 */
    slpi_checkpoint c;
    slpi_error err = { 0, "" };
    TEST_CHECKF(slpi_checkpoint_read(ck, &c, &err) == SLPI_OK && c.nou == 3 && c.step == 280, "checkpoint: %s, nou %d",
                err.msg, c.nou);
    TEST_CHECKF(c.ou_eta[1] == 0 && c.ou_eta[0] != 0 && c.ou_eta[2] != 0, "ou_eta %a %a %a", c.ou_eta[0], c.ou_eta[1],
                c.ou_eta[2]);
    run_to(&p, part, NULL, ck);
    TEST_CHECK(same_file(full, part));
    c.ou_eta[0] += 1.0; /* another eta, the file still whole: the resume goes on from it */
    TEST_CHECK(slpi_checkpoint_write(ck, &c, &err) == SLPI_OK);
    run_to(&p, part, NULL, ck);
    TEST_CHECKF(!same_file(full, part), "a resume from another eta gave the same bytes: eta is not carried");
    c.nou = 0; /* no ou_eta line: refused */
    TEST_CHECK(slpi_checkpoint_write(ck, &c, &err) == SLPI_OK);
    FILE *f = fopen(part, "r+");
    slpi_run_ckpt rk = { NULL, 70, ck, part, NULL };
    slpi_run_result res;
    int rc = slpi_run_checkpointed(&p, slpi_fast_path(), f, 1, NULL, &rk, &res, &err);
    fclose(f);
    TEST_CHECKF(rc == SLPI_EINPUT && strstr(err.msg, "no OU state"), "no ou_eta: rc %d, '%s'", rc, err.msg);
    c.nou = 3;
    slpi_checkpoint_free(&c);
    unlink(full), unlink(part), unlink(ck);
}

static void check_refused(void)
{
    slpi_problem p = rb(10, 0x1p-7, 0, NULL);
    slpi_error err = { 0, "" };
    const char *bad[] = { "-1", "0.1,x", "1e-30", "0.1,,", "2e6" };
    for (int i = 0; i < 5; i++) {
        int rc = slpi_problem_set(&p, "noise_tau", bad[i], &err);
        TEST_CHECKF(rc == SLPI_EINPUT && strstr(err.msg, "noise_tau"), "noise_tau=%s: rc %d '%s'", bad[i], rc, err.msg);
    }
    p = rb(10, 0x1p-7, 0, "0.1,0.2");
    slpi_noise_source *s = NULL;
    int rc = slpi_noise_source_open(&s, &p, &err);
    TEST_CHECKF(rc == SLPI_EINPUT && strstr(err.msg, "2 values, the problem has 3"), "two of three: '%s'", err.msg);
    p = rb(10, 0x1p-7, 0, "0.1");
    strcpy(p.noise.noise_file, "/nonexistent/noise");
    rc = slpi_noise_source_open(&s, &p, &err);
    TEST_CHECKF(rc == SLPI_EINPUT && strstr(err.msg, "with noise_file"), "noise_file: '%s'", err.msg);
    p = rb(10, 0x1p-7, 0, "0.1");
    TEST_CHECK(slpi_problem_white_only(&p, "lanes", &err) == SLPI_EINPUT &&
               strstr(err.msg, "lanes is for white noise only"));
    p = rb(10, 0x1p-7, 0, "0,0");
    TEST_CHECK(slpi_problem_white_only(&p, "lanes", &err) == SLPI_OK);
}

int main(void)
{
    test_start("t-noise-ou", 1);
    check_white();
    check_law(0x1p-6, 0x1p-7, 0); /* X = 2 */
    check_law(0x1p-6, 0.3125, 0); /* X = 0.05 */
    check_law(0x1p-6, 0x1p-7, 3);
    check_levels(1);
    check_levels(12);
    check_checkpoint();
    check_refused();
    TEST_END();
}
