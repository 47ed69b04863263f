/* t-fast-team.c — the su(N) kernels' thread team (fast/team.c, docs/conventions.md#threads)
 * under a caller who runs OpenBLAS on two threads: an Euler–Zeitlin ISOMP step at N = 513
 * (its products shared out to the team) finishes, converges and agrees with the same step
 * on one BLAS thread within 1e-12 of the state's scale (OpenBLAS's threads change the last
 * bits of products). Two team threads inside a threaded OpenBLAS deadlocked (0.3.21): the
 * step never returned. An alarm (120 s of wall, times SLPI_TEST_TIME_SCALE under valgrind or
 * coverage) turns a hang into a failure. Public API only. */
#include "core/problem-struct.h"
#include "testutil.h"
#include "slpi.h"

#include <signal.h>
#include <unistd.h>

void openblas_set_num_threads(int n) __attribute__((weak));
void omp_set_num_threads(int n) __attribute__((weak));

static void hung(int sig)
{
    (void)sig;
    static const char m[] = "t-fast-team: FAIL: a step did not return in its time (120 s times "
                            "SLPI_TEST_TIME_SCALE) with two BLAS threads (deadlock)\n";
    if (write(2, m, sizeof m - 1) < 0) _exit(1);
    _exit(1);
}

/* steps from the initial state on `blas` BLAS threads; 1 if every step converged */
static int run(int blas, double *x, int n, int steps)
{
    slpi_problem p;
    slpi_error err;
    slpi_fast *f = NULL;
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    if (slpi_problem_preset(&p, "iso/zeitlin/long", &err) != SLPI_OK || slpi_problem_set(&p, "N", "513", &err) != SLPI_OK ||
        slpi_problem_finish(&p, &err) != SLPI_OK || slpi_fast_create(&f, &p, &err) != SLPI_OK ||
        slpi_problem_state_dim(&p) != n) {
        TEST_CHECKF(0, "N=513: %s", err.msg);
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
    }
    free(dW);
    slpi_fast_free(f);
    return ok;
}

int main(void)
{
    test_start("t-fast-team", 513);
    if (!openblas_set_num_threads || !omp_set_num_threads) {
        printf("t-fast-team: SKIP: not linked with OpenBLAS and OpenMP\n");
        return 77;
    }
    omp_set_num_threads(2);   /* the team: the caller and one helper */
    int n = 513 * 513;
    double *a = malloc(sizeof(double) * (size_t)n), *b = malloc(sizeof(double) * (size_t)n), d = 0, scale = 0;
    signal(SIGALRM, hung);
    alarm(test_seconds(120));
    uint64_t seed = test_rng_state_;   /* the same increments for both runs */
    int oka = run(2, a, n, 2);
    test_rng_state_ = seed;
    int okb = run(1, b, n, 2);
    alarm(0);
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
