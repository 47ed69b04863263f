/* bench-fast-zeitlin.c — performance P1 (fast-path performance): Euler–Zeitlin ISOMP (docs/schemes.md#isomp, docs/systems.md#euler-zeitlin)
 * at N = 64, 128, 256, time per step against the lower bound (fixed-point iterations x 2
 * zgemm of size N, zgemm timed in the same run on one thread; the fastest step and the
 * fastest zgemm are compared, which is robust on a shared machine), then one thread
 * against two.
 *
 * The step starts from the Euler predictor (docs/schemes.md#solver), one commutator
 * product (a zgemm) before the iterations: the ratio to iterations x 2 zgemm counts it as
 * overhead (at 3 iterations it alone is 7/6), so the ratio to 2 it + 1 zgemm is printed
 * beside it, and the solver-settings lines run predictor=none in the same run.
 *
 * Setup: the `iso/zeitlin/long` parameters (h = 1/640, IC l <= 4, unit norm, COMM
 * update, tol 1e-15) without noise (the bound counts only the two products of an
 * iteration), then the same with noise (Q), amp 0.1, whose O(N^3) modal evaluation
 * the bound does not count (reported as its own ratio). Also the fused kernel alone
 * (slpi_fast_sun_isomp) per column-block count of the skew-Hermitian triangle product, which
 * is how fast/sun.c's default block count was chosen.
 *
 * Threads (docs/conventions.md#threads): OpenBLAS is pinned to one thread
 * (openblas_set_num_threads(1)); the su(N) kernels share their work out to the OpenMP team
 * from N = SLPI_FAST_TEAM_MIN_N, and the ratio lines run them on one OpenMP thread. The
 * "threads" line times the noise (Q) step on 1 and 2 OpenMP threads in wall-clock time,
 * alternating 1 and 2 over several repetitions and reporting the medians and their ratio.
 * The load average (/proc/loadavg) is printed before and after: while another session
 * keeps the cores busy, Linux's per-session scheduling (autogroup) gives this process
 * about one core whatever its thread count, and 2/1 can only be about 1; the free-core
 * figure needs idle cores (or the bench under `chrt -f 10`; docs/conventions.md#threads).
 *
 * BLAS: the kernel OpenBLAS picked is printed (openblas_get_corename); the environment
 * variable OPENBLAS_CORETYPE overrides it (e.g. OPENBLAS_CORETYPE=SkylakeX).
 * Default and how it was chosen: Debian's OpenBLAS 0.3.21 detected this Zen 5 machine as
 * Cooperlake (AVX-512 kernels) in one session and as Haswell in a later one (the core
 * printed on the first line says which). One-thread zgemm measured in one session
 * (N = 64/128/256, best of runs): Cooperlake 45/49/47 GFlop/s, SkylakeX 45/48/45,
 * Haswell 48/54/45, Zen 47/49/45, BLIS 0.9.0 (libblis-dev, zen3 kernels) 38-46/48-52/44-51;
 * all within the +-10% run-to-run spread on this shared machine, so the library keeps
 * the default OpenBLAS with its own detection (config.mk unchanged).
 *
 * Products: fast/sun.c forms every product with OpenBLAS's zgemm3m (the 3M method, three
 * real products per complex one; 1.15-1.29x a zgemm at N = 128..1024, normwise as
 * accurate, docs/schemes.md#isomp). So besides the ratio to 2 zgemm per iteration (the
 * unit in which the goal was set), each size prints the ratio to its own product bound:
 * per iteration one full product Psi Y and the block triangle of G Psi / 4 ((nblk + 1) /
 * (2 nblk) of a product, nblk the column blocks fast/sun.c uses at N), plus the
 * predictor's one product, all timed as zgemm3m in the same run.
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>
#include <omp.h>

#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-scheme.h"
#include "core/view-solver.h"
#include "core/view-system.h"
#include "slpi/fast.h"
#include "slpi/problem-build.h"
#include "slpi/problem-shape.h"
#include "benchutil.h"
#include "fast/team.h"
#include "fast/sun.h"

typedef double complex cplx;

/* Thread CPU time: BLAS runs on this thread (one thread), and time spent descheduled on
 * a shared machine is not counted. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static uint64_t rng = 42;
static double unif(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

static double gauss(void)
{
    return sqrt(-2 * log(1 - unif())) * cos(2 * 3.14159265358979323846 * unif());
}

static void rand_skewh(int N, cplx *X, double scale)
{
    for (int b = 0; b < N; b++)
        for (int a = 0; a <= b; a++) {
            cplx v = a == b ? I * (unif() - 0.5) : CMPLX(unif() - 0.5, unif() - 0.5);
            X[a + (size_t)N * b] = scale * v;
            X[b + (size_t)N * a] = -scale * conj(v);
        }
}

/* Best-of-reps time of one N x N complex product C = A B: zgemm, or (m3) zgemm3m. */
static double time_zgemm(int N, int m3, int reps)
{
    size_t NN = (size_t)N * N;
    cplx *A = malloc(NN * sizeof *A), *B = malloc(NN * sizeof *B), *C = malloc(NN * sizeof *C);
    cplx one = 1, zero = 0;
    rand_skewh(N, A, 1);
    rand_skewh(N, B, 1);
    double best = INFINITY;
    for (int r = 0; r < reps; r++) {
        double t = now();
        (m3 ? cblas_zgemm3m : cblas_zgemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, N, N, N, &one, A, N, B, N, &zero,
                                           C, N);
        best = fmin(best, now() - t);
    }
    free(A);
    free(B);
    free(C);
    return best;
}

/* Solver settings: slpi's default (the Euler predictor, docs/schemes.md#solver); the
 * default with predictor=none (cold start from X_n); warm start; quflow's (isomp_fixedpoint's defaults:
 * the iteration starts from the previous step's increment and stops when the change of
 * the increment is below sqrt(eps) dt/hbar |W|, i.e. tol_scale=step with tol = sqrt(eps)
 * = 1.49e-8; quflow measures both sides in the max-row-sum norm, slpi in the max-entry
 * norm, so the two rules agree to within a factor N either way). */
typedef enum { SOLVE_DEFAULT, SOLVE_NONE, SOLVE_WARM, SOLVE_QUFLOW } solve_mode;
static const char *const solve_name[] = { "default (tol 1e-15)", "predictor=none", "warm_start=1", "quflow's rule" };

/* The iso/zeitlin/long parameters at size N and the given noise reading. */
static void bench_problem(slpi_problem *p, int N, slpi_ez_noise noise, solve_mode mode)
{
    slpi_problem_init(p, SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP);
    slpi_system_view *sys = slpi_view_system_edit(p);
    sys->ez.N = N;
    sys->ez.noise = noise;
    sys->ez.amp = 0.1;
    sys->ez.ic_lmax = 4;
    slpi_view_grid_edit(p)->h = 1.0 / 640;
    slpi_view_scheme_edit(p)->warm_start = mode >= SOLVE_WARM;
    slpi_view_scheme_edit(p)->predictor = mode == SOLVE_NONE ? SLPI_PREDICTOR_NONE : SLPI_PREDICTOR_EULER;
    if (mode == SOLVE_QUFLOW) {
        slpi_view_solver_edit(p)->tol = 0x1p-26;
        slpi_view_solver_edit(p)->tol_scale = SLPI_TOL_STEP;
    }
}

/* Fastest single step of `steps` ISOMP steps over `passes` passes from the initial condition
 * (the minimum is robust against time slicing on a shared machine), with that step's
 * iteration count in *it, the mean over all steps in *mean_it and the fastest pass's
 * mean time per step in *mean_t; clk: thread CPU time (now) or wall time (bench_wall). */
static double time_steps_on(double (*clk)(void), int N, slpi_ez_noise noise, solve_mode mode, int steps, int passes,
                            int *it, double *mean_it, double *mean_t)
{
    slpi_error err;
    slpi_problem *p = slpi_problem_alloc();
    if (!p) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    bench_problem(p, N, noise, mode);
    slpi_fast *f;
    if (slpi_fast_create(&f, p, &err)) {
        fprintf(stderr, "bench: %s\n", err.msg);
        slpi_problem_free(p);
        exit(1);
    }
    int dim = slpi_problem_state_dim(p), M = slpi_problem_noise_count(p);
    double *x = malloc(dim * sizeof *x), *dW = malloc(((size_t)M + 1) * steps * sizeof *dW);
    for (long i = 0; i < (long)M * steps; i++) dW[i] = sqrt(slpi_view_grid(p)->h) * gauss();
    double best = INFINITY;
    long its = 0;
    *mean_t = INFINITY;
    for (int pass = 0; pass < passes; pass++) {
        double tp = 0;
        slpi_fast_initial_state(f, x, &err);
        for (int n = 0; n < steps; n++) {
            slpi_step_info info;
            double t = clk();
            if (slpi_step_failed(slpi_fast_step(f, x, dW + (size_t)M * n, &info))) {
                fprintf(stderr, "bench: step %d failed\n", n);
                slpi_problem_free(p);
                exit(1);
            }
            t = clk() - t;
            tp += t;
            if (t < best) {
                best = t;
                *it = info.iterations;
            }
            its += info.iterations;
        }
        *mean_t = fmin(*mean_t, tp / steps);
    }
    *mean_it = (double)its / ((double)passes * steps);
    free(x);
    free(dW);
    slpi_fast_free(f);
    slpi_problem_free(p);
    return best;
}

static double time_steps(int N, slpi_ez_noise noise, solve_mode mode, int steps, int *it, double *mean_it,
                         double *mean_t)
{
    return time_steps_on(now, N, noise, mode, steps, 3, it, mean_it, mean_t);
}

/* The products of one fixed-point iteration of fast/sun.c at N, in full products: Psi Y
 * and the block triangle of G Psi / 4 in the column blocks fast/sun.c uses. */
static double iteration_products(int N)
{
    slpi_fast_sun u;
    slpi_error err;
    if (slpi_fast_sun_init(&u, N, NULL, NULL, &err)) exit(1);
    double p = 1 + (u.nblk + 1) / (2.0 * u.nblk);
    slpi_fast_sun_clear(&u);
    return p;
}

/* The fused kernel alone with nblk column blocks; a Psi of the size ISOMP sees. */
static double time_kernel(int N, int nblk, int reps)
{
    size_t NN = (size_t)N * N;
    slpi_fast_sun u;
    slpi_error err;
    if (slpi_fast_sun_init(&u, N, NULL, NULL, &err)) exit(1);
    u.nblk = nblk;
    cplx *P = malloc(NN * sizeof *P), *X = malloc(NN * sizeof *X), *Y = malloc(NN * sizeof *Y);
    rand_skewh(N, P, 1e-3);
    rand_skewh(N, X, 1);
    double best = INFINITY, yn;
    for (int r = 0; r < reps; r++) {
        double t = now();
        slpi_fast_sun_isomp(&u, Y, &yn, P, X, X);
        best = fmin(best, now() - t);
    }
    free(P);
    free(X);
    free(Y);
    slpi_fast_sun_clear(&u);
    return best;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median over reps of the mean wall time per noise (Q) step on 1 and on 2 OpenMP
 * threads, alternating, into t[0], t[1]. */
static void time_threads(int N, int steps, int reps, double t[2])
{
    double s[2][16];
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < 2; k++) {
            int it;
            double mit;
            omp_set_num_threads(k + 1);
            time_steps_on(bench_wall, N, SLPI_EZ_NOISE_Q, SOLVE_DEFAULT, steps, 1, &it, &mit, &s[k][r]);
        }
    omp_set_num_threads(1);
    for (int k = 0; k < 2; k++) {
        qsort(s[k], reps, sizeof s[k][0], cmp_double);
        t[k] = s[k][reps / 2];
    }
}

int main(void)
{
    openblas_set_num_threads(1);
    omp_set_num_threads(1);
    printf("P1 Euler-Zeitlin ISOMP; BLAS: OpenBLAS core %s (%s), one BLAS thread; thread team from N = %d\n",
           openblas_get_corename(), openblas_get_config(), SLPI_FAST_TEAM_MIN_N);
    bench_print_load("start");
    static const int Ns[3] = { 64, 128, 256 }, steps[3] = { 200, 40, 10 };
    double ratio[3][2], pratio[3], thr[3][2];
    for (int i = 0; i < 3; i++) {
        int N = Ns[i];
        double tg = time_zgemm(N, 0, N >= 256 ? 20 : 100), tg3 = time_zgemm(N, 1, N >= 256 ? 20 : 100);
        double mit, mitq, mt, mtq;
        int it, itq;
        double ts = time_steps(N, SLPI_EZ_NOISE_NONE, SOLVE_DEFAULT, steps[i], &it, &mit, &mt);
        double tq = time_steps(N, SLPI_EZ_NOISE_Q, SOLVE_DEFAULT, steps[i] / 2, &itq, &mitq, &mtq);
        double bound = it * 2 * tg, boundq = itq * 2 * tg;
        ratio[i][0] = ts / bound;
        ratio[i][1] = tq / boundq;
        printf("N=%3d  zgemm %8.3f ms (%5.1f GFlop/s)  step %8.3f ms  iterations %d (mean %.2f)  "
               "bound %8.3f ms  ratio %.3f (goal <= 1.15 at N >= 128); with the predictor's product "
               "(2 it + 1 zgemm) %.3f\n",
               N, 1e3 * tg, 8.0 * N * N * N / tg * 1e-9, 1e3 * ts, it, mit, 1e3 * bound, ts / bound,
               ts / ((2 * it + 1) * tg));
        double pit = iteration_products(N), pbound = (it * pit + 1) * tg3;
        pratio[i] = ts / pbound;
        printf("       zgemm3m %8.3f ms (zgemm / zgemm3m %.2f); product bound (iterations x %.4f + 1 for the "
               "predictor) x zgemm3m %8.3f ms  step / product bound %.3f\n",
               1e3 * tg3, tg / tg3, pit, 1e3 * pbound, pratio[i]);
        printf("       noise (Q), amp 0.1, M=%d: step %8.3f ms  iterations %d  ratio %.3f (goal <= 1.3 at N = 128)\n",
               N * N - (N / 2) * (N / 2), 1e3 * tq, itq, tq / boundq);
        printf("       solver settings, noise (Q), %d steps: mean per step, iterations, / (mean iterations x 2 zgemm),"
               " / (products x zgemm; products = 2 iterations + 1 for the predictor's commutator)\n",
               steps[i]);
        for (int mode = SOLVE_DEFAULT; mode <= SOLVE_QUFLOW; mode++) {
            double m1, t1;
            int i1;
            time_steps(N, SLPI_EZ_NOISE_Q, mode, steps[i], &i1, &m1, &t1);
            double prods = 2 * m1 + (mode == SOLVE_DEFAULT); /* warm modes start warm after step 1 */
            printf("         %-20s %8.3f ms  %.2f  %.3f  %.3f\n", solve_name[mode], 1e3 * t1, m1, t1 / (m1 * 2 * tg),
                   t1 / (prods * tg));
        }
        printf("       fused kernel / 2 zgemm by column blocks:");
        for (int nb = 1; nb <= 8; nb *= 2) printf("  %d: %.3f", nb, time_kernel(N, nb, N >= 256 ? 10 : 50) / (2 * tg));
        printf("\n");
        time_threads(N, steps[i], 7, thr[i]);
        printf("       threads, noise (Q), wall, median of 7: 1 thread %8.3f ms/step  2 threads %8.3f ms/step  "
               "2/1 %.3f (goal < 1 at N >= 64)\n",
               1e3 * thr[i][0], 1e3 * thr[i][1], thr[i][1] / thr[i][0]);
    }
    printf("summary  N   step/(it x 2 zgemm) no noise  noise (Q)   step/product bound no noise   ms/step 1 thread  "
           "2 threads  2/1\n");
    for (int i = 0; i < 3; i++)
        printf("       %4d   %10.3f                %8.3f   %10.3f                  %14.3f  %9.3f  %.3f\n", Ns[i],
               ratio[i][0], ratio[i][1], pratio[i], 1e3 * thr[i][0], 1e3 * thr[i][1], thr[i][1] / thr[i][0]);
    bench_print_load("end");
    return 0;
}
