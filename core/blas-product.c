/* blas-product.c — which complex product the su(N) kernels use (docs/install.md#products):
 * zgemm or zgemm3m (the 3M method), whichever this machine runs faster, found by timing
 * both, never by a table of kernels. The first process that needs the choice times the two
 * products at N = SLPI_ZPRODUCT_N, interleaved, best of as many rounds as fit in about
 * 40 ms, and writes the result to a cache file keyed by the CPU (vendor, family, model),
 * the BLAS library's own configuration string (OpenBLAS's names its version) and the
 * kernel it runs; every later process with the same key reads it, so that every run on
 * one machine forms its products, and so writes its last bits, the same way. Two first
 * processes that race agree: the file is made by link(2), which fails for the second,
 * which then reads the first's. SLPI_ZPRODUCT=zgemm|zgemm3m decides instead (to pin the
 * bits across machines); another value is an error the su(N) kernels report. Where no
 * cache can be written, each process times anew and its provenance says so. A resume
 * pins the choice its checkpoint recorded (slpi_blas_zproduct_pin) before anything settles
 * it, so that it continues the run's bits. */
#include <cblas.h>
#include <complex.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/blas.h"
#include "core/clock.h"
#include "core/digest.h"

char *openblas_get_config(void) __attribute__((weak));

/* The timing: CPU seconds of the process (CLOCK_PROCESS_CPUTIME_ID, every BLAS thread's
 * work, and none of the time the machine gives other processes, so that a busy machine
 * does not decide), best of at least MIN_ROUNDS interleaved rounds and of as many more as
 * fit in BUDGET CPU seconds. */
#define BUDGET 0.040
#define MIN_ROUNDS 8

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int choice = -1;
static int pinned = -1;    /* slpi_blas_zproduct_pin's m3, read by settle */
static atomic_int settled; /* 1 once settle has run */
static atomic_int formed;  /* 1 once a kernel formed products (slpi_blas_zproduct_use) */
static char why[4800];     /* room for the cache path */

int slpi_blas_zproduct_env(const char *env)
{
    if (!env || !*env) return -1;
    if (!strcmp(env, "zgemm")) return 0;
    if (!strcmp(env, "zgemm3m")) return 1;
    return -2;
}

/* A time in whole nanoseconds: the resolution the cache file keeps, so that the choice a
 * file records is the one its times give when read back. The two can time alike: Debian
 * 13's OpenBLAS 0.3.29 timed both at 0.193 ms on an AMD EPYC, and a choice decided on
 * times a nanosecond apart was written into a file that read back as a tie. */
static long long nanoseconds(double t)
{
    return llround(t * 1e9);
}

int slpi_blas_zproduct_decide(double t_zgemm, double t_zgemm3m)
{
    return nanoseconds(t_zgemm3m) < nanoseconds(t_zgemm);
}

void slpi_blas_zproduct_format(char *buf, size_t n, const char *key, double t_zgemm, double t_zgemm3m)
{
    const long long z = nanoseconds(t_zgemm), m = nanoseconds(t_zgemm3m);
    snprintf(buf, n, "slpi-zproduct 1\nkey %s\nchoice %s\nzgemm_ms %lld.%06lld\nzgemm3m_ms %lld.%06lld\nn %d\n", key,
             slpi_blas_zproduct_decide(t_zgemm, t_zgemm3m) ? "zgemm3m" : "zgemm", z / 1000000, z % 1000000, m / 1000000,
             m % 1000000, SLPI_ZPRODUCT_N);
}

int slpi_blas_zproduct_parse(const char *text, const char *key, double *t_zgemm, double *t_zgemm3m)
{
    char k[256], c[16], tail;
    double a, b;
    int n, used = 0;
    if (sscanf(text, "slpi-zproduct 1\nkey %255[^\n]\nchoice %15s\nzgemm_ms %lf\nzgemm3m_ms %lf\nn %d\n%n", k, c, &a,
               &b, &n, &used) != 5 ||
        used == 0 || sscanf(text + used, " %c", &tail) == 1)
        return -1;
    const int want = slpi_blas_zproduct_env(c);
    if (strcmp(k, key) || want < 0 || n != SLPI_ZPRODUCT_N || !(a > 0) || !(b > 0) ||
        want != slpi_blas_zproduct_decide(a / 1e3, b / 1e3))
        return -1;
    *t_zgemm = a / 1e3;
    *t_zgemm3m = b / 1e3;
    return want;
}

/* The cache key: the CPU, the BLAS library and its kernel; no spaces-only or newline. */
static void make_key(char *key, size_t n)
{
    const slpi_cpu *cpu = slpi_cpu_probe();
    const char *conf = openblas_get_config ? openblas_get_config() : "a CBLAS other than OpenBLAS";
    const char *core = slpi_blas_core();
    snprintf(key, n, "%s family %d model %d; %s; kernel %s", cpu->vendor[0] ? cpu->vendor : "unknown", cpu->family,
             cpu->model, conf, core ? core : "none");
    for (char *s = key; *s; s++)
        if (*s == '\n' || *s == '\r') *s = ' ';
}

/* The folder of the cache: SLPI_CACHE_DIR, else $XDG_CACHE_HOME/slpi, else ~/.cache/slpi
 * (made if missing); 0 when there is none. */
static int cache_dir(char *dir, size_t n)
{
    const char *d = getenv("SLPI_CACHE_DIR"), *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    if (d && *d)
        snprintf(dir, n, "%s", d);
    else if (x && *x)
        snprintf(dir, n, "%s/slpi", x);
    else if (h && *h)
        snprintf(dir, n, "%s/.cache/slpi", h);
    else
        return 0;
    if (!(d && *d) && !(x && *x) && h && *h) {
        char parent[4096];
        snprintf(parent, sizeof parent, "%s/.cache", h);
        mkdir(parent, 0755);
    }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) return 0;
    return 1;
}

static int read_file(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = 0;
    fclose(f);
    return 1;
}

/* Best-of time of each product over interleaved rounds, within BUDGET seconds. */
static int measure(double *t_zgemm, double *t_zgemm3m)
{
    const int N = SLPI_ZPRODUCT_N;
    const size_t nn = (size_t)N * N;
    double complex *A = malloc(3 * nn * sizeof *A);
    if (!A) return 0;
    double complex *B = A + nn, *C = B + nn;
    for (size_t i = 0; i < nn; i++) {
        A[i] = (double)(i % 7) - 3.0 + I * ((double)(i % 5) - 2.0);
        B[i] = (double)(i % 3) - 1.0 + I * ((double)(i % 11) - 5.0);
    }
    const double complex one = 1, zero = 0;
    double best[2] = { 1e300, 1e300 };
    const clockid_t cpu = CLOCK_PROCESS_CPUTIME_ID;
    const double start = slpi_clock_seconds(cpu);
    for (int round = 0; round < 1000; round++) {
        for (int m3 = 0; m3 <= 1; m3++) {
            const double t0 = slpi_clock_seconds(cpu);
            (m3 ? cblas_zgemm3m : cblas_zgemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, N, N, N, &one, A, N, B, N,
                                               &zero, C, N);
            const double t = slpi_clock_seconds(cpu) - t0;
            if (round > 0 && t < best[m3]) best[m3] = t; /* round 0 warms the library up */
        }
        if (round >= MIN_ROUNDS && slpi_clock_seconds(cpu) - start > BUDGET) break;
    }
    free(A);
    *t_zgemm = best[0];
    *t_zgemm3m = best[1];
    return 1;
}

static const char *name(int m3)
{
    return m3 ? "zgemm3m" : "zgemm";
}

static void decide(void)
{
    const char *env = getenv("SLPI_ZPRODUCT");
    const int forced = slpi_blas_zproduct_env(env);
    if (forced == -2) {
        snprintf(why, sizeof why, "SLPI_ZPRODUCT is '%.60s': it takes zgemm or zgemm3m", env);
        return;
    }
    if (forced >= 0) {
        choice = forced;
        snprintf(why, sizeof why, "set by SLPI_ZPRODUCT");
        return;
    }
    if (pinned >= 0) {
        choice = pinned;
        snprintf(why, sizeof why, "as recorded by the checkpoint this run resumes");
        return;
    }
    char key[256], dir[4096], path[4400], text[1024];
    double tz = 0, t3 = 0;
    make_key(key, sizeof key);
    const int have_dir = cache_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/zproduct-%016llx", dir,
             (unsigned long long)slpi_fnv1a(SLPI_FNV_INIT, key, strlen(key)));
    if (have_dir && read_file(path, text, sizeof text) &&
        (choice = slpi_blas_zproduct_parse(text, key, &tz, &t3)) >= 0) {
        snprintf(why, sizeof why, "cached: zgemm %.3f ms, zgemm3m %.3f ms at N %d (%s)", 1e3 * tz, 1e3 * t3,
                 SLPI_ZPRODUCT_N, path);
        return;
    }
    if (!measure(&tz, &t3)) {
        snprintf(why, sizeof why, "no memory for the 3 x %d x %d complex entries that time the products",
                 SLPI_ZPRODUCT_N, SLPI_ZPRODUCT_N);
        return;
    }
    choice = slpi_blas_zproduct_decide(tz, t3);
    const char *fate = "not cached: no cache folder (SLPI_CACHE_DIR, XDG_CACHE_HOME, HOME)";
    char tmp[4500], body[512];
    snprintf(tmp, sizeof tmp, "%s/.zproduct-%ld-XXXXXX", dir, (long)getpid());
    int fd = have_dir ? mkstemp(tmp) : -1;
    if (have_dir && fd < 0) fate = "not cached: the cache folder is not writable";
    if (fd >= 0) {
        slpi_blas_zproduct_format(body, sizeof body, key, tz, t3);
        const size_t len = strlen(body);
        const int ok = write(fd, body, len) == (ssize_t)len && fsync(fd) == 0;
        close(fd);
        fate = "not cached: writing the cache file failed";
        if (ok && link(tmp, path) == 0)
            fate = "cached for later runs";
        else if (ok && errno == EEXIST) {
            double oz, o3;
            const int theirs = read_file(path, text, sizeof text) ? slpi_blas_zproduct_parse(text, key, &oz, &o3) : -1;
            if (theirs >= 0) choice = theirs;
            fate = theirs >= 0 ? "another process cached its measurement first, and its choice is kept"
                               : "not cached: the cache file is unreadable (remove it to measure again)";
        }
        unlink(tmp);
    }
    snprintf(why, sizeof why, "measured: zgemm %.3f ms, zgemm3m %.3f ms at N %d; %s (%s)", 1e3 * tz, 1e3 * t3,
             SLPI_ZPRODUCT_N, fate, path);
}

static void settle(void)
{
    decide();
    atomic_store(&settled, 1);
}

int slpi_blas_zproduct_use(void)
{
    const int c = slpi_blas_zproduct();
    atomic_store(&formed, 1);
    return c;
}

const char *slpi_blas_zproduct_used(void)
{
    return atomic_load(&formed) && choice >= 0 ? name(choice) : "";
}

int slpi_blas_zproduct_pin(int m3)
{
    if (!atomic_load(&settled)) pinned = m3;
    return slpi_blas_zproduct() == m3 ? 0 : -1;
}

int slpi_blas_zproduct(void)
{
    pthread_once(&once, settle);
    return choice;
}

const char *slpi_blas_zproduct_name(void)
{
    const int c = slpi_blas_zproduct();
    return c < 0 ? "invalid" : name(c);
}

const char *slpi_blas_zproduct_why(void)
{
    pthread_once(&once, settle);
    return why;
}
