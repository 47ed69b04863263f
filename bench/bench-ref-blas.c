/* bench-ref-blas.c — the certified ISOMP step on the BLAS route against Arb's products
 * and against the double step (docs/design.md#blas-route; the goals set for the
 * route: the certified step <= 30x the double step at N >= 128, and every step of the
 * 32 000-step N = 128 run verified in <= 1 hour on 2 cores).
 *
 * `bench-ref-blas [--steps K] [--arb-max N] [--prec BITS] [--update comm|cay] CASE...`
 * (BITS: the working precision, default 128; the ISOMP update, default comm), CASE =
 * ez:N (iso/zeitlin/long at size N) or mk:n (iso/manakov/long on so(n)). For each case,
 * K steps from the fast path's binary64 states (each certified step from exact doubles,
 * as `verify --local` does), in one run: the double step (slpi_fast_step), the certified step with
 * matmul=blas, and with matmul=arb up to size --arb-max (default 64); process CPU seconds
 * (all threads) and wall seconds per step, both paths on one thread unless
 * OMP_NUM_THREADS or OPENBLAS_NUM_THREADS says otherwise (the double path's team helpers
 * spin between jobs, so with two threads on an idle machine its CPU time doubles at the
 * same wall time: docs/experiments.md#blas-route), the ratios certified / double, the share of
 * the BLAS route's step spent in its gemm calls and in its ball <-> double
 * conversions, the solver's iterations per step (midpoint iterations and enclosure
 * tests), the output radius and the precision each route needed, and the CPU seconds of
 * the certified path's set-up on the BLAS route (slpi_ref_create: the su(N) tables), with
 * the process's peak resident memory at the end of each case and how much of it came after the
 * double path's object was made (the certified path's set-up and steps, and the double
 * steps' work space: an upper bound of the certified path's own); and apart, the first (cold)
 * step's CPU on both paths and the steady ratio of steps 2..K (the double path warm: its
 * warm start has the previous increment from step 2 on; the steady ratio wants K >= 20).
 * Without a CASE (`make bench`): ez:128 and ez:512, 20 steps unless --steps says, each
 * steady ratio printed with its goal (the goals of docs/experiments.md: <= 8 at N = 128, <= 6 at N = 512). */
#include "core/problem-store.h"
#include "core/view-system.h"
#include "slpi/fast.h"
#include "slpi/ref.h"
#include "slpi/problem-build.h"
#include "slpi/problem-shape.h"
#include "slpi/problem-finish.h"
#include "bench/benchutil.h"
#include "core/blas-threads.h"
#include "core/steps.h"
#include "ref/mrmat.h"

#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double setup, cpu, wall, radius, gemm, convert, iterations;
    double rss0;                /* GB resident before the certified path's set-up (the double path's object made) */
    double cpu0, fast0, steady; /* the first (cold) step's CPU, certified and double; steady: the ratio of steps 2..K */
    long prec;
    int done;
} route_time;

/* one thread for the double path's team unless OMP_NUM_THREADS chooses, as one BLAS thread
 * (slpi_blas_one_thread, as the command): a ratio of one thread to one thread */
void omp_set_num_threads(int n) __attribute__((weak));

static const char *bench_prec = "128";    /* --prec */
static const char *bench_update = "comm"; /* --update */

static int bench_problem(slpi_problem *p, const char *spec, const char *route, slpi_error *err)
{
    int mk = strncmp(spec, "mk:", 3) == 0;
    if (!mk && strncmp(spec, "ez:", 3) != 0)
        return slpi_error_set(err, SLPI_EINPUT, "case %s: expected ez:N or mk:n", spec);
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    if (slpi_problem_preset(p, mk ? "iso/manakov/long" : "iso/zeitlin/long", err) != SLPI_OK ||
        slpi_problem_set(p, mk ? "n" : "N", spec + 3, err) != SLPI_OK ||
        slpi_problem_set(p, "matmul", route, err) != SLPI_OK ||
        slpi_problem_set(p, "prec", bench_prec, err) != SLPI_OK ||
        slpi_problem_set(p, "update", bench_update, err) != SLPI_OK)
        return SLPI_EINPUT;
    slpi_system_view *sys = slpi_view_system_edit(p);
    if (!mk && sys->ez.ic_lmax > sys->ez.N - 1)
        sys->ez.ic_lmax = sys->ez.N - 1; /* the preset's degrees <= 4, at N <= 4 */
    return slpi_problem_finish(p, err);
}

/* K certified steps of the given route from the double states of the fast path, the
 * problem built into the storage p; the double step's CPU time per step in *fast (when
 * fast != NULL). */
static int time_route_on(slpi_problem *p, const char *spec, const char *route, int K, route_time *rt, double *fast,
                         slpi_error *err)
{
    slpi_fast *f = NULL;
    slpi_ref *r = NULL;
    slpi_ref_at rat = { NULL, NULL };
    slpi_steps stepping = { 0 };
    memset(rt, 0, sizeof *rt);
    double t_setup = 0;
    if (bench_problem(p, spec, route, err) != SLPI_OK || slpi_fast_create(&f, p, err) != SLPI_OK ||
        slpi_steps_open(&stepping, p, slpi_ref_step_at, &rat, 1, err) != SLPI_OK ||
        (rt->rss0 = bench_rss_gb(), t_setup = bench_cpu(), slpi_ref_create(&r, p, err)) != SLPI_OK) {
        slpi_fast_free(f);
        slpi_steps_close(&stepping);
        return SLPI_EINPUT;
    }
    rt->setup = bench_cpu() - t_setup;
    int n = slpi_problem_state_dim(p), rc = SLPI_OK;
    double *xf = malloc(sizeof(double) * (size_t)n), tfast = 0, g, c;
    arb_ptr x = _arb_vec_init(n);
    rat = (slpi_ref_at){ r, x };
    slpi_ref_mrmat_seconds_take(&g, &c);
    if (slpi_fast_initial_state(f, xf, err) != SLPI_OK) rc = SLPI_EINPUT;
    for (int k = 0; k < K && rc == SLPI_OK; k++) {
        slpi_step_status st = SLPI_STEP_INVALID;
        for (int i = 0; i < n; i++) arb_set_d(x + i, xf[i]);
        double c0 = bench_cpu(), w0 = bench_wall();
        if (slpi_steps_take(&stepping, k, NULL, &st, err) != SLPI_OK || st != SLPI_STEP_CONVERGED) {
            rc = slpi_error_set(err, SLPI_ENUMERIC, "%s matmul=%s step %d: %s", spec, route, k,
                                slpi_ref_unable_reason(r));
            break;
        }
        const double cc = bench_cpu() - c0;
        rt->cpu += cc;
        if (k == 0) rt->cpu0 = cc;
        rt->wall += bench_wall() - w0;
        rt->radius = fmax(rt->radius, stepping.info.radius);
        rt->prec = stepping.info.prec > rt->prec ? stepping.info.prec : rt->prec;
        rt->iterations += stepping.info.iterations;
        rt->done++;
        slpi_step_info info;
        c0 = bench_cpu();
        if (slpi_step_failed(slpi_fast_step(f, xf, stepping.dW, &info)))
            rc = slpi_error_set(err, SLPI_ENUMERIC, "%s: double step %d failed", spec, k);
        const double cf = bench_cpu() - c0;
        tfast += cf;
        if (k == 0) rt->fast0 = cf;
    }
    if (rt->done > 1) rt->steady = (rt->cpu - rt->cpu0) / (tfast - rt->fast0);
    slpi_ref_mrmat_seconds_take(&rt->gemm, &rt->convert);
    if (rt->done) {
        rt->cpu /= rt->done, rt->wall /= rt->done, rt->gemm /= rt->done, rt->convert /= rt->done;
        rt->iterations /= rt->done;
        if (fast != NULL) *fast = tfast / rt->done;
    }
    _arb_vec_clear(x, n);
    free(xf);
    slpi_ref_free(r);
    slpi_fast_free(f);
    slpi_steps_close(&stepping);
    return rc;
}

/* time_route_on on a problem of its own. */
static int time_route(const char *spec, const char *route, int K, route_time *rt, double *fast, slpi_error *err)
{
    slpi_problem *p = slpi_problem_alloc();
    int rc = p ? time_route_on(p, spec, route, K, rt, fast, err) : slpi_error_set(err, SLPI_EINPUT, "out of memory");
    slpi_problem_free(p);
    return rc;
}

int main(int argc, char **argv)
{
    int K = 0, arb_max = 64, a = 1;
    static char *goal_cases[] = { "ez:128", "ez:512" };
    for (; a + 1 < argc && strncmp(argv[a], "--", 2) == 0; a += 2) {
        if (strcmp(argv[a], "--steps") == 0)
            K = atoi(argv[a + 1]);
        else if (strcmp(argv[a], "--arb-max") == 0)
            arb_max = atoi(argv[a + 1]);
        else if (strcmp(argv[a], "--prec") == 0)
            bench_prec = argv[a + 1];
        else if (strcmp(argv[a], "--update") == 0)
            bench_update = argv[a + 1];
        else
            break;
    }
    slpi_blas_one_thread();
    if (!getenv("OMP_NUM_THREADS") && omp_set_num_threads) omp_set_num_threads(1);
    mallopt(M_MMAP_THRESHOLD, 32 << 20); /* the command's allocator settings (cli/main.c) */
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    char **cases = argv + a;
    int ncases = argc - a;
    if (ncases == 0) { /* no case: the goals' */
        cases = goal_cases;
        ncases = 2;
        K = K ? K : 20;
    }
    K = K ? K : 3;
    if (K < 1) {
        fprintf(stderr,
                "usage: bench-ref-blas [--steps K] [--arb-max N] [--prec BITS] [--update comm|cay] ez:N|mk:n ...\n");
        return 2;
    }
    printf(
        "# CPU s per step (all threads; one thread each unless OMP_NUM_THREADS), wall s; ratios = certified CPU / double CPU; %d steps per case; update=%s\n",
        K, bench_update);
    printf("# cold: the first step (the double path's warm start has no earlier increment yet), double ms and "
           "blas s; steady: the ratio over steps 2..K\n");
    printf("%-8s %10s %10s %10s %8s %6s %6s %6s %10s %10s %8s %10s %10s %8s %7s %8s %9s %8s %7s\n", "case", "double ms",
           "blas s", "blas wall", "blas/dbl", "gemm%", "conv%", "iter", "radius", "arb s", "arb/dbl", "radius",
           "prec b/a", "setup s", "peak GB", "added GB", "cold dbl", "cold s", "steady");
    for (int i = 0; i < ncases; i++) {
        const char *spec = cases[i];
        slpi_error err = { 0, "" };
        route_time b, r;
        double fast = 0;
        memset(&r, 0, sizeof r);
        if (time_route(spec, "blas", K, &b, &fast, &err) != SLPI_OK) {
            fprintf(stderr, "bench-ref-blas: %s\n", err.msg);
            return 3;
        }
        int size = atoi(spec + 3);
        if (size <= arb_max && time_route(spec, "arb", K, &r, NULL, &err) != SLPI_OK) {
            fprintf(stderr, "bench-ref-blas: %s\n", err.msg);
            return 3;
        }
        printf("%-8s %10.3f %10.3f %10.3f %8.1f %6.1f %6.1f %6.1f %10.2e", spec, 1e3 * fast, b.cpu, b.wall,
               b.cpu / fast, 100 * b.gemm / b.wall, 100 * b.convert / b.wall, b.iterations, b.radius);
        if (r.done)
            printf(" %10.3f %8.1f %10.2e %5ld/%ld", r.cpu, r.cpu / fast, r.radius, b.prec, r.prec);
        else
            printf(" %10s %8s %10s %5ld/-", "-", "-", "-", b.prec);
        printf(" %8.1f %7.2f %8.2f %9.3f %8.3f", b.setup, bench_peak_gb(), bench_peak_gb() - b.rss0, 1e3 * b.fast0,
               b.cpu0);
        if (b.done > 1)
            printf(" %7.1f\n", b.steady);
        else
            printf(" %7s\n", "-");
        const double goal = !strcmp(spec, "ez:128") ? 8 : !strcmp(spec, "ez:512") ? 6 : 0;
        if (goal > 0) {
            char id[32], what[96];
            snprintf(id, sizeof id, "certified-%s", spec + 3);
            snprintf(what, sizeof what, "certified / double step, CPU, %s over steps %s..%d, N = %s",
                     b.done > 1 ? "steady" : "one step", b.done > 1 ? "2" : "1", K, spec + 3);
            bench_goal(id, b.done > 1 ? b.steady : b.cpu / fast, 1, goal, 0, what);
        }
        fflush(stdout);
    }
    flint_cleanup();
    return 0;
}
