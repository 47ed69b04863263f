/* t-ensemble.c — ensembles of the handle API (api/ensemble.c, slpi.h "ensembles"), each
 * result computed a second way:
 *   - every kept row, with per-path initial states and increments or the problem's noise,
 *     against a stepper restarted from that state on those increments (bit for bit), and
 *     each path's row 0 against its given initial state;
 *   - the statistics against the kept rows summed in long double by two passes. The bound,
 *     fixed before the first run: a mean of n values by Welford's update and Chan's merges
 *     errs by at most 4 n u max|v| (each of the <= n updates or merges rounds a difference,
 *     a quotient and a sum, each step's error carried on with a factor <= 1), and the
 *     variance by at most 8 n u (M2 + n mean^2) / (n - 1) (Chan, Golub, LeVeque 1983:
 *     the error of M2 scales with the sum of squares S = M2 + n mean^2, not with M2);
 *     u = 2^-53. The minimum and maximum are exact; the radius is 0 on the fast path and
 *     the largest radius of the certified rows on the certified path;
 *   - the statistics on 1, 2 and 3 threads and with the paths handed in uneven calls (1,
 *     a block less one, the rest), against one call on one thread: the same bits;
 *   - the route (slpi_ensemble_route: the rigid body's ISOMP and SVI on the lanes, the heavy
 *     top and the certified path on the general route, each with its reason), and the
 *     statistics and kept rows of the lanes against the general route's
 *     (slpi_ensemble_set_lanes(e, 0)), on 2 threads: the same bits;
 *   - the saved times of save_at (every = 0): each row's statistics and step number against
 *     the row of the same step of an ensemble saving every step (the same bits), and
 *     every = 0 without save_at against output_every's grid;
 *   - exported states of disjoint path ranges (slpi_ensemble_export/import), each run by
 *     its own ensemble from its first noise path, imported in order: one run's statistics,
 *     bit for bit, for ranges of 64 x 2^k paths (the last one shorter, ending inside a
 *     block); a range that starts off the tree of one run (64 x 3 paths, then 64 x 2),
 *     a partial block before other paths and a state of another shape are refused
 *     (SLPI_EINPUT) with nothing added;
 *   - the refusals: every < 0, too many threads, a negative count, a non-finite
 *     increment (named dW[k, n, j]) and an initial state off the manifold (named by its path),
 *     each SLPI_EINPUT with nothing added to the statistics;
 *   - no path in the statistics (none run yet, or every path's wave failed: h = 8 with
 *     on_cap=fail stops each path at its first step, after its row 0 was formed): n = 0 and every statistic of every row NaN, the minimum,
 *     maximum and radius included (not the accumulators' +-inf and 0); a wave that fails
 *     (a state so large that the solve stalls) after good paths leaves their statistics
 *     unchanged, bit for bit.
 * The number of paths, steps, save interval and first noise path vary with the printed seed. */
#include <math.h>

#include "slpi.h"
#include "testutil.h"
#include "core/threads.h"

/* A preset, or a model file (a name ending in .slpi, from the source tree). */
static slpi_problem *problem(const char *preset, long steps)
{
    slpi_problem *p;
    slpi_error err = { 0 };
    TEST_CHECKF(test_problem(&p, preset, steps, &err) == SLPI_OK, "%s: %s", preset,
                err.msg[0] ? err.msg : slpi_api_last_error());
    return p;
}

typedef struct {
    long n;
    double *mean, *var, *min, *max, *rad;
} stats;

static stats stats_of(slpi_ensemble *e, long size)
{
    stats s;
    s.mean = malloc(5 * (size_t)size * sizeof(double));
    s.var = s.mean + size;
    s.min = s.var + size;
    s.max = s.min + size;
    s.rad = s.max + size;
    s.n = slpi_ensemble_stats(e, s.mean, s.var, s.min, s.max, s.rad);
    return s;
}

/* The rows and statistics of one ensemble, run in calls of the given sizes (0-ended). */
static int run(slpi_ensemble *e, const long *calls, const double *x0, const double *dW, double *x, double *xr,
               double *d, double *dr, int dim, int ndiag, long rows, long steps, int M)
{
    long k = 0;
    for (int c = 0; calls[c]; c++) {
        int rc = slpi_ensemble_run(e, calls[c], x0 ? x0 + k * dim : NULL, dW ? dW + k * steps * M : NULL,
                                   x ? x + k * rows * dim : NULL, xr ? xr + k * rows * dim : NULL,
                                   d ? d + k * rows * ndiag : NULL, dr ? dr + k * rows * ndiag : NULL);
        if (rc != SLPI_OK) return rc;
        k += calls[c];
    }
    return SLPI_OK;
}

/* The statistics against the rows, summed in long double by two passes. */
static void check_stats(const stats *s, const double *x, const double *xr, const double *d, const double *dr,
                        long paths, long rows, int dim, int ndiag)
{
    const long double u = 0x1p-53L;
    int nq = dim + ndiag;
    TEST_CHECKF(s->n == paths, "statistics of %ld paths, %ld run", s->n, paths);
    for (long r = 0; r < rows; r++)
        for (int q = 0; q < nq; q++) {
            long double sum = 0, m2 = 0, big = 0;
            double lo = INFINITY, hi = -INFINITY, rad = 0;
            for (long k = 0; k < paths; k++) {
                double v = q < dim ? x[(k * rows + r) * dim + q] : d[(k * rows + r) * ndiag + q - dim];
                double w = q < dim ? xr[(k * rows + r) * dim + q] : dr[(k * rows + r) * ndiag + q - dim];
                sum += v;
                big = fabsl(v) > big ? fabsl(v) : big;
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
                rad = w > rad ? w : rad;
            }
            long double mean = sum / paths;
            for (long k = 0; k < paths; k++) {
                double v = q < dim ? x[(k * rows + r) * dim + q] : d[(k * rows + r) * ndiag + q - dim];
                m2 += (v - mean) * (v - mean);
            }
            long double var = m2 / (paths - 1);
            /* relative bounds, plus binary64's absolute floor: a mean or variance below the
             * subnormal unit 2^-1074 (a certified departure's midpoint near 0, whose square
             * underflows) is not representable at all */
            long double tiny = 4 * paths * 0x1p-1074L;
            long double bm = 4 * paths * u * big + tiny,
                        bv = 8 * paths * u * (m2 + paths * mean * mean) / (paths - 1) + tiny;
            long i = r * nq + q;
            TEST_CHECKF(fabsl(s->mean[i] - mean) <= bm,
                        "row %ld quantity %d: mean %.17g, two passes %.17Lg, bound %.3Lg", r, q, s->mean[i], mean, bm);
            TEST_CHECKF(fabsl(s->var[i] - var) <= bv,
                        "row %ld quantity %d: variance %.17g, two passes %.17Lg, bound %.3Lg", r, q, s->var[i], var,
                        bv);
            TEST_CHECKF(s->min[i] == lo && s->max[i] == hi && s->rad[i] == rad,
                        "row %ld quantity %d: min %g max %g rad %g, rows give %g %g %g", r, q, s->min[i], s->max[i],
                        s->rad[i], lo, hi, rad);
        }
}

/* Each kept row against a stepper from the same state on the same increments. */
static void check_rows(const slpi_problem *p, int ref, uint64_t first, const double *x0, const double *dW,
                       const double *x, const double *d, long paths, long rows, long steps, long every, int dim,
                       int ndiag, int M)
{
    slpi_stepper *s = NULL;
    TEST_CHECK(slpi_stepper_new(&s, p, ref, NULL, 0) == SLPI_OK);
    double *a = malloc((size_t)(rows * (dim + ndiag)) * sizeof *a), *b = a + rows * dim;
    long bad = 0;
    for (long k = 0; k < paths; k++) {
        long got;
        TEST_CHECK(slpi_stepper_restart_from(s, first + (uint64_t)k, x0 ? x0 + k * dim : NULL, dim) == SLPI_OK);
        slpi_stepper_row(s, a, NULL, b, NULL);
        TEST_CHECK(slpi_stepper_advance(s, steps, dW ? dW + k * steps * M : NULL, every, a + dim, NULL, b + ndiag, NULL,
                                        NULL, NULL, &got) == SLPI_OK &&
                   got == rows - 1);
        bad += memcmp(a, x + k * rows * dim, (size_t)(rows * dim) * sizeof *a) != 0 ||
            memcmp(b, d + k * rows * ndiag, (size_t)(rows * ndiag) * sizeof *b) != 0;
    }
    TEST_CHECKF(bad == 0, "%ld of %ld paths' rows differ from a stepper's", bad, paths);
    free(a);
    slpi_stepper_free(s);
}

/* The statistics s1 and rows x, d of ensemble e (route want) against the general route's
 * on 2 threads: the same bits. */
static void check_route(slpi_ensemble *e, const char *want, const slpi_problem *p, uint64_t first, long every,
                        long paths, const double *x0, const double *dW, const stats *s1, const double *x,
                        const double *d)
{
    const char *route = slpi_ensemble_route(e);
    TEST_CHECKF(!strncmp(route, want, strlen(want)), "route '%s', want '%s...'", route, want);
    printf("  route: %s\n", route);
    slpi_ensemble *g = NULL;
    TEST_CHECK(slpi_ensemble_new(&g, p, 0, first, every, 2) == SLPI_OK);
    if (!g) return;
    slpi_ensemble_set_lanes(g, 0);
    TEST_CHECK(!strncmp(slpi_ensemble_route(g), "general: ", 9));
    int dim, M, nd;
    long steps, rows;
    slpi_ensemble_shape(g, &dim, &M, &nd, &steps, &rows);
    size_t nx = (size_t)(paths * rows * dim), nd2 = (size_t)(paths * rows * nd);
    double *gx = malloc((nx + nd2) * sizeof *gx), *gd = gx + nx;
    long one[] = { paths, 0 };
    TEST_CHECKF(run(g, one, x0, dW, gx, NULL, gd, NULL, dim, nd, rows, steps, M) == SLPI_OK, "%s",
                slpi_api_last_error());
    stats s2 = stats_of(g, rows * (dim + nd));
    TEST_CHECKF(s2.n == paths && !memcmp(s1->mean, s2.mean, 5 * (size_t)(rows * (dim + nd)) * sizeof(double)) &&
                    !memcmp(x, gx, nx * sizeof *gx) && !memcmp(d, gd, nd2 * sizeof *gd),
                "route %s: statistics or rows differ from the general route's", route);
    free(s2.mean);
    free(gx);
    slpi_ensemble_free(g);
}

static void check_ensemble(const char *preset, const char *route, int ref, int own_x0, int own_dW)
{
    long steps = 4 + test_rand_int(ref ? 8 : 40), every = 1 + test_rand_int(5);
    /* the double path: more than two blocks (the calls below split them unevenly) at any
     * depth, the depth multiplier scaling the paths beyond them */
    long paths =
        ref ? 3 + test_rand_int(5) : 2 * SLPI_ENSEMBLE_BLOCK + 1 + test_rand_int(test_iters(3 * SLPI_ENSEMBLE_BLOCK));
    uint64_t first = test_rand_u64() >> 40;
    slpi_problem *p = problem(preset, steps);
    slpi_ensemble *e = NULL;
    TEST_CHECKF(slpi_ensemble_new(&e, p, ref, first, every, 1) == SLPI_OK, "%s", slpi_api_last_error());
    int dim, M, nd;
    long st, rows;
    slpi_ensemble_shape(e, &dim, &M, &nd, &st, &rows);
    TEST_CHECK(st == steps && rows == steps / every + 1 + (steps % every != 0));
    double *x0 = NULL, *dW = NULL;
    if (own_x0) { /* the problem's state, each coordinate moved by up to 10 % */
        x0 = malloc((size_t)(paths * dim) * sizeof *x0);
        slpi_stepper *s = NULL;
        TEST_CHECK(slpi_stepper_new(&s, p, 0, NULL, 0) == SLPI_OK);
        slpi_stepper_row(s, x0, NULL, NULL, NULL);
        slpi_stepper_free(s);
        for (long k = 0; k < paths * dim; k++) x0[k] = x0[k % dim] * test_rand_uniform(0.9, 1.1);
    }
    if (own_dW) {
        dW = malloc((size_t)(paths * steps * M) * sizeof *dW);
        for (long k = 0; k < paths * steps * M; k++) /* about one in 50 beyond the clipping threshold */
            dW[k] = test_rand_int(50) ? test_rand_uniform(-0.05, 0.05) : test_rand_uniform(-1, 1);
    }
    size_t nx = (size_t)(paths * rows * dim), nd2 = (size_t)(paths * rows * nd);
    double *x = malloc(nx * sizeof *x), *xr = malloc(nx * sizeof *x), *d = malloc(nd2 * sizeof *d),
           *dr = malloc(nd2 * sizeof *d);
    long one[] = { paths, 0 };
    TEST_CHECKF(run(e, one, x0, dW, x, xr, d, dr, dim, nd, rows, steps, M) == SLPI_OK, "%s", slpi_api_last_error());
    stats s1 = stats_of(e, rows * (dim + nd));
    check_stats(&s1, x, xr, d, dr, paths, rows, dim, nd);
    check_rows(p, ref, first, x0, dW, x, d, paths, rows, steps, every, dim, nd, M);
    long moved = 0; /* row 0 of path k is x0[k], as given (not the stepper's first state) */
    for (long k = 0; own_x0 && !ref && k < paths; k++)
        moved += memcmp(x + k * rows * dim, x0 + k * dim, (size_t)dim * sizeof *x) != 0;
    TEST_CHECKF(moved == 0, "%ld of %ld paths do not start from their x0", moved, paths);
    long zero = 0;
    for (size_t i = 0; i < nx; i++) zero += ref ? i % (size_t)(rows * dim) >= (size_t)dim && !(xr[i] > 0) : xr[i] != 0;
    TEST_CHECKF(zero == 0, "%ld radii are %s", zero, ref ? "not positive" : "not 0");
    if (!ref)
        check_route(e, route, p, first, every, paths, x0, dW, &s1, x, d);
    else
        TEST_CHECK(!strcmp(slpi_ensemble_route(e), route));
    /* the same statistics on 2 and 3 threads, handed in uneven calls, no rows kept */
    for (int threads = 2; !ref && threads <= 3; threads++) {
        slpi_ensemble *f = NULL;
        TEST_CHECK(slpi_ensemble_new(&f, p, ref, first, every, threads) == SLPI_OK);
        long calls[] = { 1, SLPI_ENSEMBLE_BLOCK - 1, paths - SLPI_ENSEMBLE_BLOCK, 0 };
        TEST_CHECKF(run(f, calls, x0, dW, NULL, NULL, NULL, NULL, dim, nd, rows, steps, M) == SLPI_OK, "%s",
                    slpi_api_last_error());
        stats s2 = stats_of(f, rows * (dim + nd));
        TEST_CHECKF(s2.n == paths && memcmp(s1.mean, s2.mean, 5 * (size_t)(rows * (dim + nd)) * sizeof(double)) == 0,
                    "%s: %d threads, calls 1, %d, rest: statistics differ from one thread's", preset, threads,
                    SLPI_ENSEMBLE_BLOCK - 1);
        free(s2.mean);
        slpi_ensemble_free(f);
    }
    free(s1.mean);
    free(x);
    free(xr);
    free(d);
    free(dr);
    free(x0);
    free(dW);
    slpi_ensemble_free(e);
    slpi_problem_free(p);
}

static void check_refusals(void)
{
    slpi_problem *p = problem("iso/rigid-body/trajectories", 10);
    slpi_ensemble *e = NULL;
    TEST_CHECK(slpi_ensemble_new(&e, p, 0, 0, -1, 1) == SLPI_EINPUT && e == NULL &&
               strstr(slpi_api_last_error(), "every=-1"));
    TEST_CHECK(slpi_ensemble_new(&e, p, 0, 0, 1, SLPI_MAX_THREADS + 1) == SLPI_EINPUT && e == NULL &&
               strstr(slpi_api_last_error(), "threads"));
    TEST_CHECK(slpi_ensemble_new(&e, p, 0, 0, 1, 2) == SLPI_OK);
    TEST_CHECK(slpi_ensemble_run(e, -1, NULL, NULL, NULL, NULL, NULL, NULL) == SLPI_EINPUT &&
               strstr(slpi_api_last_error(), "count=-1"));
    double dW[3 * 10 * 3] = { 0 };
    dW[(2 * 10 + 7) * 3 + 1] = NAN;
    TEST_CHECKF(slpi_ensemble_run(e, 3, NULL, dW, NULL, NULL, NULL, NULL) == SLPI_EINPUT &&
                    strstr(slpi_api_last_error(), "dW[2, 7, 1] = nan") && slpi_ensemble_paths(e) == 0,
                "%s", slpi_api_last_error());
    double x0[2 * 3] = { 1, 0, 0, NAN, 0, 0 };
    TEST_CHECKF(slpi_ensemble_run(e, 2, x0, NULL, NULL, NULL, NULL, NULL) == SLPI_EINPUT &&
                    strstr(slpi_api_last_error(), "path 1 ") && strstr(slpi_api_last_error(), "x0[0]") &&
                    slpi_ensemble_paths(e) == 0,
                "%s", slpi_api_last_error());
    TEST_CHECK(slpi_ensemble_run(e, 2, NULL, NULL, NULL, NULL, NULL, NULL) == SLPI_OK && slpi_ensemble_paths(e) == 2);
    slpi_ensemble_free(e);
    slpi_problem_free(p);
}

/* Ranges run apart and imported, against one run. */
static void check_import(const char *preset)
{
    const long B = SLPI_ENSEMBLE_BLOCK, k = test_rand_int(3), size = B << k;
    const long paths = 3 * size + 1 + test_rand_int(B - 1), steps = 3 + test_rand_int(10);
    const uint64_t first = test_rand_u64() >> 44;
    slpi_problem *p = problem(preset, steps);
    slpi_ensemble *one = NULL, *all = NULL, *bad = NULL;
    TEST_CHECK(slpi_ensemble_new(&one, p, 0, first, 2, 2) == SLPI_OK &&
               slpi_ensemble_new(&all, p, 0, first, 2, 1) == SLPI_OK &&
               slpi_ensemble_new(&bad, p, 0, first, 2, 1) == SLPI_OK);
    TEST_CHECK(slpi_ensemble_run(one, paths, NULL, NULL, NULL, NULL, NULL, NULL) == SLPI_OK);
    int dim, nd;
    long rows;
    slpi_ensemble_shape(one, &dim, NULL, &nd, NULL, &rows);
    long q = rows * (dim + nd), refused = 0;
    double *buf[4] = { 0 };
    long len[4];
    for (int r = 0; r < 4; r++) { /* ranges [r size, (r + 1) size), the last to the end */
        slpi_ensemble *part = NULL;
        long n = r < 3 ? size : paths - 3 * size;
        TEST_CHECK(slpi_ensemble_new(&part, p, 0, first + (uint64_t)(r * size), 2, 1 + r % 2) == SLPI_OK);
        TEST_CHECK(slpi_ensemble_run(part, n, NULL, NULL, NULL, NULL, NULL, NULL) == SLPI_OK);
        len[r] = slpi_ensemble_export(part, NULL);
        buf[r] = malloc((size_t)len[r] * sizeof(double));
        TEST_CHECK(slpi_ensemble_export(part, buf[r]) == len[r]);
        TEST_CHECKF(slpi_ensemble_import(all, buf[r], len[r]) == SLPI_OK, "%s", slpi_api_last_error());
        slpi_ensemble_free(part);
    }
    stats a = stats_of(one, q), b = stats_of(all, q);
    TEST_CHECKF(a.n == paths && b.n == paths && !memcmp(a.mean, b.mean, 5 * (size_t)q * sizeof(double)),
                "%s: 4 ranges of %ld paths imported: n %ld of %ld, statistics %s one run's", preset, size, b.n, paths,
                memcmp(a.mean, b.mean, 5 * (size_t)q * sizeof(double)) ? "differ from" : "are");
    /* off the tree: 2 x size paths after 3 x size (k = 0: blocks 3, 4 hold a level-1 piece
     * at block 3); the partial last range before another; another shape */
    slpi_ensemble *two = NULL;
    TEST_CHECK(slpi_ensemble_new(&two, p, 0, first, 2, 1) == SLPI_OK);
    TEST_CHECK(slpi_ensemble_run(two, 2 * size, NULL, NULL, NULL, NULL, NULL, NULL) == SLPI_OK);
    long l2 = slpi_ensemble_export(two, NULL);
    double *b2 = malloc((size_t)l2 * sizeof *b2);
    slpi_ensemble_export(two, b2);
    for (int r = 0; r < 3; r++) TEST_CHECK(slpi_ensemble_import(bad, buf[0], len[0]) == SLPI_OK);
    refused += slpi_ensemble_import(bad, b2, l2) == SLPI_EINPUT && strstr(slpi_api_last_error(), "not aligned");
    refused += slpi_ensemble_import(bad, buf[3], len[3]) == SLPI_OK &&
        slpi_ensemble_import(bad, buf[0], len[0]) == SLPI_EINPUT && strstr(slpi_api_last_error(), "partial block");
    refused += slpi_ensemble_import(bad, buf[0], len[0] - 1) == SLPI_EINPUT;
    TEST_CHECKF(refused == 3 && slpi_ensemble_paths(bad) == 3 * size + paths - 3 * size,
                "%s: %ld of 3 refusals, %ld paths after them", preset, refused, slpi_ensemble_paths(bad));
    free(b2);
    for (int r = 0; r < 4; r++) free(buf[r]);
    free(a.mean);
    free(b.mean);
    slpi_ensemble_free(two);
    slpi_ensemble_free(one);
    slpi_ensemble_free(all);
    slpi_ensemble_free(bad);
    slpi_problem_free(p);
}

/* Statistics that cannot be mistaken for numbers: n = 0 and all NaN at every row. */
static void check_nan_stats(slpi_ensemble *e, long size, long want_n, const char *when)
{
    stats s = stats_of(e, size);
    long bad = -1;
    for (long i = 0; bad < 0 && i < 5 * size; i++)
        if (!isnan(s.mean[i])) bad = i;
    TEST_CHECKF(s.n == want_n && bad < 0,
                "%s: n = %ld, statistic %ld (mean, var, min, max, rad) at [row][quantity] %ld = %g (want n = 0, NaN)",
                when, s.n, bad < 0 ? -1 : bad / size, bad < 0 ? -1 : bad % size, bad < 0 ? 0 : s.mean[bad]);
    free(s.mean);
}

/* No path in the statistics: before any run, and after a run whose every path failed at
 * its first step; a failed wave after a good one leaves the good one's statistics. */
static void check_no_paths(int ref)
{
    slpi_problem *p = problem("iso/rigid-body/trajectories", 4), *q = problem("iso/rigid-body/trajectories", 4);
    TEST_CHECK(slpi_problem_set_key(p, "h", "8") == SLPI_OK && slpi_problem_set_key(p, "maxit", "5") == SLPI_OK &&
               slpi_problem_set_key(p, "on_cap", "fail") == SLPI_OK &&
               slpi_problem_set_key(q, "on_cap", "fail") == SLPI_OK);
    slpi_ensemble *e = NULL, *f = NULL;
    TEST_CHECKF(slpi_ensemble_new(&e, p, ref, 0, 1, 1) == SLPI_OK && slpi_ensemble_new(&f, q, ref, 0, 1, 1) == SLPI_OK,
                "%s", slpi_api_last_error());
    if (!e || !f) goto out;
    int dim, nd;
    long rows;
    slpi_ensemble_shape(e, &dim, NULL, &nd, NULL, &rows);
    long size = rows * (dim + nd);
    const char *what = ref ? "certified" : "double";
    check_nan_stats(e, size, 0, what);
    int rc = slpi_ensemble_run(e, 3, NULL, NULL, NULL, NULL, NULL, NULL);
    TEST_CHECKF(rc == SLPI_ENUMERIC && slpi_ensemble_paths(e) == 0, "%s: h = 8, on_cap=fail: rc %d, %ld paths: %s",
                what, rc, slpi_ensemble_paths(e), slpi_api_last_error());
    check_nan_stats(e, size, 0, what);
    /* good paths, then a wave that fails: its initial state so large that the step's solve
     * does not converge (its row 0 would move the min and max) */
    TEST_CHECK(slpi_ensemble_run(f, 2, NULL, NULL, NULL, NULL, NULL, NULL) == SLPI_OK);
    stats a = stats_of(f, size);
    double x0[3] = { 3e5, -4e5, 5e5 };
    rc = slpi_ensemble_run(f, 1, x0, NULL, NULL, NULL, NULL, NULL);
    stats b = stats_of(f, size);
    TEST_CHECKF(
        rc == SLPI_ENUMERIC && b.n == 2 && a.n == 2 && memcmp(a.mean, b.mean, 5 * (size_t)size * sizeof(double)) == 0,
        "%s: a failed wave after 2 good paths: rc %d, n %ld, statistics %s: %s", what, rc, b.n,
        memcmp(a.mean, b.mean, 5 * (size_t)size * sizeof(double)) ? "changed" : "the same", slpi_api_last_error());
    free(a.mean);
    free(b.mean);
out:
    slpi_ensemble_free(e);
    slpi_ensemble_free(f);
    slpi_problem_free(p);
    slpi_problem_free(q);
}

/* An ensemble's rows on the problem's grid (every = 0: save_at, or output_every) against
 * one saving every step: the rows of the same steps have the same statistics, bit for bit. */
static void check_grid(const char *preset, int use_save_at)
{
    long steps = 6 + test_rand_int(30), paths = 1 + test_rand_int(2 * SLPI_ENSEMBLE_BLOCK);
    slpi_problem *p = problem(preset, steps);
    char text[256] = "";
    long want[64] = { 0 }, nwant = 1;
    if (use_save_at) { /* some steps, increasing, the last one included or not */
        for (long n = 1 + test_rand_int(3); n <= steps; n += 1 + test_rand_int(4)) {
            size_t len = strlen(text);
            double h;
            slpi_problem_shape(p, NULL, NULL, NULL, NULL, &h, NULL);
            snprintf(text + len, sizeof text - len, "%s%.17g", len ? "," : "", (double)n * h);
            want[nwant++] = n;
        }
        TEST_CHECK(slpi_problem_set_key(p, "save_at", text) == SLPI_OK);
    } else {
        long every = 1 + test_rand_int(5);
        char s[32];
        snprintf(s, sizeof s, "%ld", every);
        TEST_CHECK(slpi_problem_set_key(p, "output_every", s) == SLPI_OK);
        for (long n = every; n < steps + every; n += every) want[nwant++] = n < steps ? n : steps;
    }
    slpi_ensemble *e = NULL, *all = NULL;
    TEST_CHECKF(slpi_ensemble_new(&e, p, 0, 7, 0, 1) == SLPI_OK && slpi_ensemble_new(&all, p, 0, 7, 1, 1) == SLPI_OK,
                "%s", slpi_api_last_error());
    int dim, nd;
    long rows, rows_all;
    slpi_ensemble_shape(e, &dim, NULL, &nd, NULL, &rows);
    slpi_ensemble_shape(all, NULL, NULL, NULL, NULL, &rows_all);
    long at[64];
    slpi_ensemble_row_steps(e, at);
    long wrong = rows != nwant;
    for (long r = 0; !wrong && r < rows; r++) wrong += at[r] != want[r];
    TEST_CHECKF(wrong == 0 && rows_all == steps + 1, "%s %s: %ld rows (want %ld), %ld steps differ", preset,
                use_save_at ? text : "output_every", rows, nwant, wrong);
    TEST_CHECK(slpi_ensemble_run(e, paths, NULL, NULL, NULL, NULL, NULL, NULL) == SLPI_OK &&
               slpi_ensemble_run(all, paths, NULL, NULL, NULL, NULL, NULL, NULL) == SLPI_OK);
    long q = dim + nd;
    stats a = stats_of(e, rows * q), b = stats_of(all, rows_all * q);
    long differ = 0;
    for (long r = 0; !wrong && r < rows; r++)
        for (int k = 0; k < 5; k++)
            differ += memcmp(a.mean + k * rows * q + r * q, b.mean + k * rows_all * q + at[r] * q,
                             (size_t)q * sizeof(double)) != 0;
    TEST_CHECKF(differ == 0, "%s: %ld rows' statistics differ from the every-step ensemble's", preset, differ);
    free(a.mean);
    free(b.mean);
    slpi_ensemble_free(e);
    slpi_ensemble_free(all);
    slpi_problem_free(p);
}

int main(void)
{
    test_start("t-ensemble", 44);
    check_ensemble("iso/rigid-body/trajectories", "lanes", 0, 0, 0);
    check_ensemble("iso/rigid-body/trajectories", "lanes", 0, 1, 1);
    check_ensemble("svi/rigid-body/paths", "lanes", 0, 0, 0);
    check_ensemble("models/rigid-body.slpi", "lanes", 0, 0, 0);
    check_ensemble("models/rigid-body.slpi", "lanes", 0, 1, 1);
    check_ensemble("models/rigid-body-nonquadratic.slpi", "lanes", 0, 1, 1);
    check_ensemble("models/rigid-body-time.slpi", "lanes", 0, 0, 0);
    check_ensemble("models/point-vortices.slpi", "lanes", 0, 0, 0);
    check_ensemble("models/manakov.slpi", "general: the model lanes run so3 and so3^k", 0, 0, 0);
    check_ensemble("rkmk/heavy-top/stoch-421-realization", "general: no lane kernel for this system", 0, 0, 1);
    check_ensemble("iso/rigid-body/trajectories", "general: the certified path (ref=1)", 1, 1, 1);
    check_grid("iso/rigid-body/trajectories", 1);
    check_grid("rkmk/heavy-top/stoch-421-realization", 1);
    check_grid("iso/rigid-body/trajectories", 0);
    check_import("iso/rigid-body/trajectories");
    check_import("rkmk/heavy-top/stoch-421-realization");
    check_refusals();
    check_no_paths(0);
    check_no_paths(1);
    TEST_END();
}
