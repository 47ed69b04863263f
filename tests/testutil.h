/* testutil.h — Arb-style test harness shared by every tests/t-<unit>.c.
 *
 * Each test program:
 *   - prints the seed it uses (SLPI_TEST_SEED overrides it, for replay);
 *   - scales its iteration counts by SLPI_TEST_MULTIPLIER (default 1);
 *   - records failures with TEST_CHECK / TEST_CHECKF and ends with TEST_END,
 *     which prints "<name>: N checks, N failed" and exits non-zero on failure.
 * The random source here is only for generating test cases; it is not the
 * canonical noise (core/noise.c), which the tests check separately.
 */
#ifndef SLPI_TESTUTIL_H
#define SLPI_TESTUTIL_H

#include "slpi.h" /* tests are white-box: the whole public API */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *test_name_ = "test";
static long test_checks_ = 0, test_failures_ = 0;
static uint64_t test_rng_state_ = 0;

/* splitmix64: small, good enough to generate test cases reproducibly. */
static inline uint64_t test_rand_u64(void)
{
    uint64_t z = (test_rng_state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform double in [a, b). */
static inline double test_rand_uniform(double a, double b)
{
    return a + (b - a) * ((double)(test_rand_u64() >> 11) * 0x1p-53);
}

/* Integer in [0, n). */
static inline long test_rand_int(long n)
{
    return (long)(test_rand_u64() % (uint64_t)n);
}

/* The factor an environment variable gives, or 1 when it is unset or below `least`. */
static inline double test_env_factor(const char *name, double least)
{
    const char *m = getenv(name);
    double k = m ? atof(m) : 1.0;
    return k >= least ? k : 1.0;
}

/* SLPI_TEST_MULTIPLIER scales the depth of every randomized test. */
static inline long test_iters(long base)
{
    long n = (long)(base * test_env_factor("SLPI_TEST_MULTIPLIER", 0x1p-30));
    return n < 1 ? 1 : n;
}

/* A wall-clock limit of `base` seconds, times SLPI_TEST_TIME_SCALE (default 1): the tools
 * that slow a test down by a known factor set it (tests/valgrind.sh, `make coverage`). */
static inline unsigned test_seconds(unsigned base)
{
    return (unsigned)(base * test_env_factor("SLPI_TEST_TIME_SCALE", 1));
}

/* *p: a preset, or a model file (a name ending in .slpi, from the source tree), with
 * `steps` steps; SLPI_OK, or the failure (its message in err or slpi_api_last_error()).
 * *p is the caller's to free, made even when a key fails (NULL only out of memory). */
static inline int test_problem(slpi_problem **p, const char *preset, long steps, slpi_error *err)
{
    size_t n = strlen(preset);
    int file = n > 5 && !strcmp(preset + n - 5, ".slpi");
    char s[32];
    snprintf(s, sizeof s, "%ld", steps);
    *p = slpi_problem_new(file ? NULL : preset);
    if (!*p) return SLPI_EINPUT;
    int rc = file ? slpi_problem_load(*p, preset, err) : SLPI_OK;
    return rc == SLPI_OK ? slpi_problem_set_key(*p, "steps", s) : rc;
}

static inline void test_start(const char *name, uint64_t default_seed)
{
    test_name_ = name;
    const char *s = getenv("SLPI_TEST_SEED");
    uint64_t seed = s ? strtoull(s, NULL, 0) : default_seed;
    test_rng_state_ = seed;
    printf("%s: seed %" PRIu64 " (replay with SLPI_TEST_SEED=%" PRIu64 ")\n", name, seed, seed);
    fflush(stdout);
}

static inline void test_fail_(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    test_failures_++;
    fprintf(stderr, "%s: FAIL %s:%d: ", test_name_, file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* The temporary files of test_temp_file, removed when the test exits. */
static char test_temp_paths_[1024][32];
static int test_ntemp_;
static inline void test_temp_cleanup_(void)
{
    for (int i = 0; i < test_ntemp_; i++) unlink(test_temp_paths_[i]);
}

/* Write text to a new temporary file; returns its path (valid until the test exits,
 * when it is removed). */
static inline const char *test_temp_file(const char *text)
{
    if (test_ntemp_ == 0) atexit(test_temp_cleanup_);
    if (test_ntemp_ == (int)(sizeof test_temp_paths_ / sizeof test_temp_paths_[0])) {
        fprintf(stderr, "%s: too many temporary files\n", test_name_);
        exit(2);
    }
    char *path = test_temp_paths_[test_ntemp_++];
    strcpy(path, "/tmp/slpi-test-XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* Remove a file of test_temp_file now and free its place (a loop that makes one per
 * iteration stays within the table at any SLPI_TEST_MULTIPLIER). */
static inline void test_temp_remove(const char *path)
{
    for (int i = 0; i < test_ntemp_; i++)
        if (strcmp(test_temp_paths_[i], path) == 0) {
            unlink(test_temp_paths_[i]);
            if (i != test_ntemp_ - 1) strcpy(test_temp_paths_[i], test_temp_paths_[test_ntemp_ - 1]);
            test_ntemp_--;
            return;
        }
}

#define TEST_CHECK(cond)                                                                                               \
    do {                                                                                                               \
        test_checks_++;                                                                                                \
        if (!(cond)) test_fail_(__FILE__, __LINE__, "%s", #cond);                                                      \
    } while (0)
#define TEST_CHECKF(cond, ...)                                                                                         \
    do {                                                                                                               \
        test_checks_++;                                                                                                \
        if (!(cond)) test_fail_(__FILE__, __LINE__, __VA_ARGS__);                                                      \
    } while (0)

#define TEST_END()                                                                                                     \
    do {                                                                                                               \
        printf("%s: %ld checks, %ld failed\n", test_name_, test_checks_, test_failures_);                              \
        return test_failures_ ? 1 : 0;                                                                                 \
    } while (0)

#endif
