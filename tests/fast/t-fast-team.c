/* t-fast-team.c — the su(N) kernels' thread team (fast/team.c, docs/conventions.md#threads)
 * under a caller who runs OpenBLAS on two threads: an Euler–Zeitlin ISOMP step at N = 513
 * (its products shared out to the team) finishes, converges and agrees with the same step
 * on one BLAS thread within 1e-12 of the state's scale (OpenBLAS's threads change the last
 * bits of products). Two team threads inside a threaded OpenBLAS deadlocked (0.3.21): the
 * step never returned. A watchdog turns a hang into a failure by what the process does, not
 * by the wall clock (a busy machine may give it no processor for minutes): no step finished
 * while the process spent 120 s of CPU time (times SLPI_TEST_TIME_SCALE under valgrind or
 * coverage: threads spinning in a deadlock), or while every other thread of the process
 * slept for 60 checks a second apart (threads blocked in one). And a step at N = 64 inside
 * an OpenMP region of one thread (`slpi verify --threads 1`'s rows) starts no thread: the
 * team adds helpers in no region, active or not. Public API only. */
#include "core/problem-struct.h"
#include "testutil.h"
#include "slpi.h"

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

void openblas_set_num_threads(int n) __attribute__((weak));
void omp_set_num_threads(int n) __attribute__((weak));

static atomic_long progress; /* steps finished */
static atomic_int done;

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* 1 if every thread of the process but one (this watchdog, which runs as it reads) sleeps
 * (a state other than R in /proc: waiting, not waiting for a processor), 0 if another runs
 * or may run, or /proc cannot tell. */
static int all_asleep(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d) return 0;
    int running = 0, seen = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
        if (f) fclose(f);
        buf[n] = 0;
        const char *p = strrchr(buf, ')'); /* "pid (comm) S ...": the state after the name */
        seen++;
        running += !p || p[1] != ' ' || p[2] == 'R';
    }
    closedir(d);
    return seen > 1 && running <= 1;
}

static void *watchdog(void *arg)
{
    (void)arg;
    long last = atomic_load(&progress), asleep = 0;
    double cpu0 = cpu_seconds(), limit = test_seconds(120);
    while (!atomic_load(&done)) {
        sleep(1);
        long now = atomic_load(&progress);
        if (now != last) {
            last = now;
            cpu0 = cpu_seconds();
            asleep = 0;
            continue;
        }
        asleep = all_asleep() ? asleep + 1 : 0;
        if (cpu_seconds() - cpu0 > limit || asleep >= 60) {
            fprintf(stderr,
                    "t-fast-team: FAIL: no step finished in %.0f s of CPU time%s with two BLAS threads "
                    "(deadlock)\n",
                    cpu_seconds() - cpu0, asleep >= 60 ? ", every thread asleep for 60 s" : "");
            _exit(1);
        }
    }
    return NULL;
}

/* steps of iso/zeitlin/long at size N from the initial state on `blas` BLAS threads; 1 if
 * every step converged */
static int run(int N, int blas, double *x, int n, int steps)
{
    slpi_problem p;
    slpi_error err;
    slpi_fast *f = NULL;
    char size[16];
    snprintf(size, sizeof size, "%d", N);
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    if (slpi_problem_preset(&p, "iso/zeitlin/long", &err) != SLPI_OK ||
        slpi_problem_set(&p, "N", size, &err) != SLPI_OK || slpi_problem_finish(&p, &err) != SLPI_OK ||
        slpi_fast_create(&f, &p, &err) != SLPI_OK || slpi_problem_state_dim(&p) != n) {
        TEST_CHECKF(0, "N=%d: %s", N, err.msg);
        slpi_fast_free(f);
        return 0;
    }
    int M = slpi_problem_noise_count(&p), ok = slpi_fast_initial_state(f, x, &err) == SLPI_OK;
    double *dW = calloc((size_t)M + 1, sizeof *dW);
    openblas_set_num_threads(blas);
    for (int s = 0; s < steps && ok; s++) {
        for (int k = 0; k < M; k++) dW[k] = 0.01 * test_rand_uniform(-1, 1);
        slpi_step_info info;
        ok = !slpi_step_failed(slpi_fast_step(f, x, dW, &info));
        atomic_fetch_add(&progress, 1);
    }
    free(dW);
    slpi_fast_free(f);
    return ok;
}

/* the threads of this process (/proc/self/task), or -1 */
static int threads_now(void)
{
    DIR *d = opendir("/proc/self/task");
    int n = 0;
    struct dirent *e;
    if (!d) return -1;
    while ((e = readdir(d))) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* A step at N = 64 (the team's least size) inside an OpenMP region of one thread, as
 * `slpi verify --threads 1` runs its rows: the team starts no helper, the caller having
 * asked for one thread (with two threads the default); the first use of the team here. */
static void check_one_thread_region(void)
{
    double *x = malloc(sizeof(double) * 64 * 64);
    int before = threads_now(), ok = 0;
#pragma omp parallel num_threads(1)
    ok = run(64, 1, x, 64 * 64, 2);
    int after = threads_now();
    TEST_CHECKF(ok && before > 0 && after == before,
                "N=64 in an OpenMP region of one thread: %d threads before the step, %d after", before, after);
    free(x);
}

int main(void)
{
    test_start("t-fast-team", 513);
    if (!openblas_set_num_threads || !omp_set_num_threads) {
        printf("t-fast-team: SKIP: not linked with OpenBLAS and OpenMP\n");
        return 77;
    }
    omp_set_num_threads(2); /* the team: the caller and one helper */
    check_one_thread_region();
    int n = 513 * 513;
    double *a = malloc(sizeof(double) * (size_t)n), *b = malloc(sizeof(double) * (size_t)n), d = 0, scale = 0;
    pthread_t dog;
    int watching = pthread_create(&dog, NULL, watchdog, NULL) == 0;
    TEST_CHECKF(watching, "no watchdog thread");
    uint64_t seed = test_rng_state_; /* the same increments for both runs */
    int oka = run(513, 2, a, n, 2);
    test_rng_state_ = seed;
    int okb = run(513, 1, b, n, 2);
    atomic_store(&done, 1);
    if (watching) pthread_join(dog, NULL);
    TEST_CHECKF(oka && okb, "N=513: a step failed (two BLAS threads %d, one %d)", oka, okb);
    for (int i = 0; i < n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        scale = fmax(scale, fabs(b[i]));
    }
    TEST_CHECKF(d <= 1e-12 * scale, "N=513: two BLAS threads against one: %.3g (scale %.3g)", d, scale);
    openblas_set_num_threads(1);
    free(a);
    free(b);
    TEST_END();
}
