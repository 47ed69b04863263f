/* t-noise-source.c — the run-time noise source (core/noise-source.c; docs/noise.md): its
 * increments equal the generator's at the problem's level, clipped at D(h, ell) when the
 * problem truncates, with the clipped count; a noise file written from those values
 * feeds the same bits; mismatched files (components, level, steps, truncation) and bad
 * problems are refused with SLPI_EINPUT and a message naming the problem; the threshold
 * D(h, ell) itself agrees with its binary64 formula; the default ell is 2. */
#include <float.h>
#include <math.h>
#include <unistd.h>

#include "core/problem-struct.h"
#include "core/noise.h"
#include "testutil.h"

static char tmpl[] = "/tmp/t-noise-source-XXXXXX";

/* Open must fail with SLPI_EINPUT and a message containing `what`. */
static void expect_refused(const char *name, const slpi_problem *p, const char *what)
{
    slpi_noise_source *s = NULL;
    slpi_error err = { 0, "" };
    int rc = slpi_noise_source_open(&s, p, &err);
    TEST_CHECKF(rc == SLPI_EINPUT && !s && strstr(err.msg, what), "%s: rc %d, message '%s', wanted '%s'", name, rc,
                err.msg, what);
    slpi_noise_source_close(s);
}

/* Write the source's increments of p (steps x M) as a noise file. */
static void write_file(const slpi_problem *p, const double *dw, int M, int truncated)
{
    slpi_noise_header hd = { p->noise.seed,
                             p->noise.path,
                             M,
                             p->grid.h,
                             p->noise.refine,
                             truncated,
                             p->noise.trunc_ell,
                             truncated ? slpi_noise_threshold(p->grid.h, p->noise.trunc_ell) : 0,
                             0,
                             p->grid.steps,
                             0 };
    FILE *f = fopen(tmpl, "w");
    slpi_noise_file_write_header(f, &hd);
    for (long n = 0; n < p->grid.steps; n++) slpi_noise_file_write_row(f, M, dw + n * M);
    fclose(f);
}

/* FNV-1a 64 of a file's bytes, byte by byte (the digest a run records, computed here
 * without core/digest.c) */
static uint64_t file_fnv(const char *path)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    FILE *f = fopen(path, "rb");
    for (int c; f && (c = getc(f)) != EOF;) h = (h ^ (uint64_t)c) * UINT64_C(0x100000001b3);
    if (f) fclose(f);
    return h;
}

/* problems the noise source refuses, each with its message (and one it accepts) */
static void check_bad_problems(const slpi_problem *p)
{
    slpi_error err = { 0, "" };
    slpi_problem q = *p;
    q.noise.path = UINT64_C(1) << 32;
    expect_refused("path", &q, "paths are numbered");
    q = *p;
    q.grid.h = 1.5;
    q.noise.truncate = SLPI_TRUNC_ON; /* (auto resolves to off for h >= 1) */
    expect_refused("truncation with h >= 1", &q, "truncation needs 0 < h < 1");
    q.noise.truncate = SLPI_TRUNC_OFF;
    slpi_noise_source *u = NULL;
    TEST_CHECK(slpi_noise_source_open(&u, &q, &err) == SLPI_OK); /* fine untruncated */
    slpi_noise_source_close(u);
    q = *p;
    q.noise.refine = 41;
    expect_refused("refine", &q, "refine=41");
    q = *p;
    q.grid.h = -1;
    expect_refused("h", &q, "step size must be positive");
}

/* untruncated (heavy top, RKMK: SALT noise, no truncation) equals the generator */
static void check_untruncated(void)
{
    slpi_problem p;
    slpi_error err = { 0, "" };
    slpi_noise_source *s = NULL;
    slpi_problem_init(&p, SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_TMK);
    p.grid.h = 0x1p-7;
    p.grid.steps = 100;
    p.noise.seed = 99;
    TEST_CHECK(!slpi_problem_truncates(&p) && slpi_problem_noise_count(&p) >= 1);
    TEST_CHECKF(slpi_noise_source_open(&s, &p, &err) == SLPI_OK, "%s", err.msg);
    for (long n = 0; s && n < p.grid.steps; n++) {
        double a, b;
        slpi_noise_source_step(s, n, &a, &err);
        slpi_noise_increments(p.noise.seed, p.noise.path, 0, p.grid.h, p.noise.refine, (uint64_t)n, 1, &b, NULL);
        TEST_CHECK(a == b);
    }
    TEST_CHECK(s && slpi_noise_source_clipped(s) == 0);
    slpi_noise_source_close(s);
}

int main(void)
{
    test_start("t-noise-source", 13);
    int fd = mkstemp(tmpl);
    close(fd);
    slpi_error err = { 0, "" };

    /* the clipping threshold two ways: core's correctly rounded D(h, ell) against the
     * binary64 formula sqrt(2 ell h |ln h|) (docs/noise.md#truncation), a few ulps apart */
    for (long t = 0; t < test_iters(200); t++) {
        double h = ldexp(test_rand_uniform(0.5, 1), -(int)test_rand_int(30)), ell = 1 + (double)test_rand_int(4);
        double D = slpi_noise_threshold(h, ell), f = sqrt(2 * ell * h * fabs(log(h)));
        TEST_CHECKF(fabs(D - f) <= 8 * DBL_EPSILON * f, "D(%a, %g) = %.17g, formula %.17g", h, ell, D, f);
    }

    /* rigid body, iso-quad noise (M = 3), truncation on by default (ISO), h = 2^-3 */
    slpi_problem p;
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    p.grid.h = 0x1p-3;
    p.grid.steps = test_iters(20000);
    p.noise.seed = test_rand_u64();
    p.noise.path = test_rand_u64() >> 40;
    p.noise.refine = 2;
    const int M = slpi_problem_noise_count(&p);
    TEST_CHECK(M == 3 && slpi_problem_truncates(&p));
    double D = slpi_noise_threshold(p.grid.h, p.noise.trunc_ell);
    /* the default ell is the papers' 2: D = sqrt(4 h |ln h|) (docs/noise.md#truncation) */
    TEST_CHECKF(p.noise.trunc_ell == 2 && fabs(D - sqrt(4 * p.grid.h * fabs(log(p.grid.h)))) <= 8 * DBL_EPSILON * D &&
                    slpi_problem_noise_threshold(&p) == D,
                "default ell %g: D(%a) = %.17g, sqrt(4 h |ln h|) = %.17g", p.noise.trunc_ell, p.grid.h, D,
                sqrt(4 * p.grid.h * fabs(log(p.grid.h))));
    double *dw = malloc((size_t)p.grid.steps * (size_t)M * sizeof *dw);
    slpi_noise_source *s = NULL;
    TEST_CHECKF(slpi_noise_source_open(&s, &p, &err) == SLPI_OK, "%s", err.msg);
    long clipped = 0;
    for (long n = 0; s && n < p.grid.steps; n++) {
        TEST_CHECK(slpi_noise_source_step(s, n, dw + n * M, &err) == SLPI_OK);
        for (int k = 0; k < M; k++) {
            double g;
            slpi_noise_increments(p.noise.seed, p.noise.path, (uint32_t)k, p.grid.h, p.noise.refine, (uint64_t)n, 1, &g,
                                  NULL);
            clipped += fabs(g) > D;
            g = g > D ? D : g < -D ? -D : g;
            TEST_CHECKF(memcmp(&g, &dw[n * M + k], sizeof g) == 0, "step %ld comp %d", n, k);
        }
    }
    printf("t-noise-source: %ld of %ld increments clipped at %.6g\n", clipped, p.grid.steps * M, D);
    TEST_CHECK(s && slpi_noise_source_clipped(s) == clipped && clipped > 0);
    TEST_CHECK(s && slpi_noise_source_step(s, p.grid.steps, dw, &err) == SLPI_EINPUT);
    TEST_CHECK(s && slpi_noise_source_step(s, -1, dw, &err) == SLPI_EINPUT);
    /* random access (a resumed run, block boundaries anywhere) gives the same bits */
    for (long it = 0; s && it < test_iters(2000); it++) {
        long n = test_rand_int(p.grid.steps);
        double row[3];
        TEST_CHECK(slpi_noise_source_step(s, n, row, &err) == SLPI_OK);
        TEST_CHECKF(memcmp(row, dw + n * M, sizeof row) == 0, "random access, step %ld", n);
    }
    slpi_noise_source_close(s);

    /* the same increments through a noise file */
    write_file(&p, dw, M, 1);
    slpi_problem q = p;
    snprintf(q.noise.noise_file, sizeof q.noise.noise_file, "%s", tmpl);
    s = NULL;
    TEST_CHECKF(slpi_noise_source_open(&s, &q, &err) == SLPI_OK, "%s", err.msg);
    double row[3];
    long same = 0;
    for (long n = 0; s && n < q.grid.steps; n++) {
        slpi_noise_source_step(s, n, row, &err);
        same += memcmp(row, dw + n * M, sizeof row) == 0;
    }
    TEST_CHECKF(same == q.grid.steps, "%ld of %ld file rows equal the generator's", same, q.grid.steps);
    slpi_noise_source_close(s);

    /* mismatched files */
    q.grid.steps = p.grid.steps + 1;
    expect_refused("too few steps", &q, "the run needs steps 0..");
    q = p;
    snprintf(q.noise.noise_file, sizeof q.noise.noise_file, "%s", tmpl);
    q.grid.h = 0x1p-4;
    expect_refused("wrong level", &q, "wrong level");
    q.grid.h = p.grid.h;
    q.sys.rb.noise = SLPI_RB_NOISE_ISO_QUAD1;
    expect_refused("wrong M", &q, "3 components per step, the problem has M = 1");
    q.sys.rb.noise = p.sys.rb.noise;
    q.noise.truncate = SLPI_TRUNC_OFF;
    expect_refused("truncated file", &q, "the problem runs untruncated");
    q.noise.truncate = SLPI_TRUNC_ON;
    q.noise.trunc_ell = 3;
    expect_refused("other threshold", &q, "the problem truncates at");
    snprintf(q.noise.noise_file, sizeof q.noise.noise_file, "%s.missing", tmpl);
    q.noise.trunc_ell = 2;
    expect_refused("missing file", &q, "cannot open");
    /* a file of another seed, path or refine: both values named (docs/noise.md#files) */
    for (int i = 0; i < 3; i++) {
        static const char *const key[] = { "seed", "path", "refine" };
        char want[160];
        q = p;
        snprintf(q.noise.noise_file, sizeof q.noise.noise_file, "%s", tmpl);
        uint64_t own = i == 0 ? p.noise.seed
            : i == 1          ? p.noise.path
                              : (uint64_t)p.noise.refine,
                 other = own ^ (1 + test_rand_int(3));
        if (i == 0)
            q.noise.seed = other;
        else if (i == 1)
            q.noise.path = other;
        else
            q.noise.refine = (int)other;
        snprintf(want, sizeof want, "the file's own %s is %llu, the problem has %s=%llu", key[i],
                 (unsigned long long)own, key[i], (unsigned long long)other);
        expect_refused(key[i], &q, want);
        /* seed=file: the problem takes the file's seed, path and refine, and its digest */
        q.noise.seed_from_file = 1;
        TEST_CHECKF(slpi_noise_source_bind(&q, &err) == SLPI_OK, "%s, seed=file: %s", key[i], err.msg);
        TEST_CHECKF(q.noise.seed == p.noise.seed && q.noise.path == p.noise.path && q.noise.refine == p.noise.refine,
                    "%s, seed=file: not the file's", key[i]);
        TEST_CHECKF(q.noise.noise_digest == file_fnv(tmpl), "digest %llu, the file's bytes %llu",
                    (unsigned long long)q.noise.noise_digest, (unsigned long long)file_fnv(tmpl));
        s = NULL;
        TEST_CHECKF(slpi_noise_source_open(&s, &q, &err) == SLPI_OK, "%s, seed=file: %s", key[i], err.msg);
        slpi_noise_source_close(s);
    }
    /* a recorded digest must be the file's (a trajectory read back after the file changed) */
    q.noise.noise_digest ^= UINT64_C(1) << test_rand_int(64);
    expect_refused("other digest", &q, "the file changed");
    q.noise.seed_from_file = 0;
    TEST_CHECK(slpi_noise_source_bind(&q, &err) == SLPI_EINPUT && strstr(err.msg, "the file changed"));

    check_bad_problems(&p);
    check_untruncated();
    free(dw);
    unlink(tmpl);
    TEST_END();
}
