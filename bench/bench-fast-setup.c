/* bench-fast-setup.c — the double path's set-up against its step (the goal:
 * "set-up at N = 1024 costs <= one step's CPU and <= 1 GB beyond the state and the step's
 * workspace", docs/experiments.md#setup-profile), Euler–Zeitlin without noise at N = 256, 512, 1024 (or the orders given).
 *
 * Each N runs in a child process of its own (its resident memory is its own): the CPU
 * seconds of slpi_stepper_new (the plan, the path's kernels, the basis and the initial
 * state: what `slpi run` does before its first row), of the first row's diagnostics
 * (slpi_stepper_row: the Casimirs' eigenvalues, which a run computes once more at its
 * end), and of two single steps (the faster is the step); the resident memory the set-up
 * added, against the state (N^2 doubles). Process CPU time, one BLAS thread: the robust
 * figure on a shared machine; the load is printed before and after. Prints each ratio
 * with its goal; asserts nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "slpi.h"
#include "benchutil.h"

void openblas_set_num_threads(int);

static int one(int N)
{
    char n[16];
    snprintf(n, sizeof n, "%d", N);
    slpi_problem *p = slpi_problem_new("");
    slpi_stepper *s = NULL;
    if (!p || slpi_problem_set_key(p, "system", "euler-zeitlin") != SLPI_OK ||
        slpi_problem_set_key(p, "N", n) != SLPI_OK || slpi_problem_set_key(p, "noise", "none") != SLPI_OK ||
        slpi_problem_set_key(p, "steps", "2") != SLPI_OK) {
        fprintf(stderr, "bench-fast-setup: %s\n", slpi_api_last_error());
        return 1;
    }
    const double rss0 = bench_rss_gb(), t0 = bench_cpu();
    if (slpi_stepper_new(&s, p, 0, NULL, 0) != SLPI_OK) {
        fprintf(stderr, "bench-fast-setup: %s\n", slpi_api_last_error());
        return 1;
    }
    const double setup = bench_cpu() - t0, added = bench_rss_gb() - rss0;
    int dim = 0, ndiag = 0;
    slpi_stepper_shape(s, &dim, NULL, &ndiag, NULL, NULL);
    double *x = malloc(2 * (size_t)dim * sizeof *x), *diag = malloc((size_t)(ndiag + 1) * sizeof *diag);
    if (!x || !diag) {
        fprintf(stderr, "bench-fast-setup: out of memory\n");
        return 1;
    }
    double t = bench_cpu();
    slpi_stepper_row(s, x, NULL, diag, NULL);
    const double diags = bench_cpu() - t;
    double step = 1e300;
    long rows = 0;
    for (int k = 0; k < 2; k++) {
        t = bench_cpu();
        if (slpi_stepper_advance(s, 1, NULL, 1, x, NULL, NULL, NULL, NULL, NULL, &rows) != SLPI_OK) {
            fprintf(stderr, "bench-fast-setup: %s\n", slpi_api_last_error());
            return 1;
        }
        if (bench_cpu() - t < step) step = bench_cpu() - t;
    }
    const double state = (double)dim * sizeof(double) / (1024.0 * 1024.0 * 1024.0);
    printf("  N %4d  set-up %7.3f CPU-s  first row's diagnostics %7.3f  step %7.3f  set-up / step %6.2f (goal <= 1)"
           "  (set-up + diagnostics) / step %6.2f\n",
           N, setup, diags, step, setup / step, (setup + diags) / step);
    printf("          set-up added %.3f GB resident (the state %.3f GB; goal <= 1 GB beyond the state and the "
           "step's workspace), peak %.3f GB\n",
           added, state, bench_peak_gb());
    if (N == 1024) { /* the goals are stated at N = 1024 (docs/experiments.md#setup-profile) */
        bench_goal("setup-1024", setup / step, 1, 1, 0, "set-up / step, CPU, N = 1024");
        bench_goal("setup-memory-1024", added - state, 1, 1, 0,
                   "GB the set-up adds beyond the state (its workspace included), N = 1024");
    }
    free(x);
    free(diag);
    slpi_stepper_free(s);
    slpi_problem_free(p);
    return 0;
}

int main(int argc, char **argv)
{
    static const int orders[] = { 256, 512, 1024 };
    const int n = argc > 1 ? argc - 1 : 3;
    openblas_set_num_threads(1);
    printf("bench-fast-setup: euler-zeitlin noise=none, fast path, process CPU time, one BLAS thread\n");
    bench_print_load("before");
    fflush(stdout);
    for (int i = 0; i < n; i++) {
        const int N = argc > 1 ? atoi(argv[i + 1]) : orders[i];
        pid_t pid = fork();
        if (pid == 0) {
            const int rc = one(N);
            fflush(stdout);
            _exit(rc);
        }
        int status = 0;
        if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
    }
    bench_print_load("after");
    return 0;
}
