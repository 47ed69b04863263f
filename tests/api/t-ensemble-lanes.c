/* t-ensemble-lanes.c — the lock-step route of the ensembles (api/ensemble-lanes.c) alone,
 * without api/ensemble.c's fallback: t-ensemble compares the statistics of the two routes,
 * but a block the lanes refuse is run again on the general route with the same result, so
 * lanes that refuse every block, or read past what they were handed, pass it unseen. Here:
 *   - the canonical noise drawn across the lanes by the best kernel (AVX-512F: eight paths a
 *     register), by the portable one (slpi_ens_lanes_set_noise_isa) and at refine > 0 (path
 *     by path) gives each path the stepper's increments, bit for bit (the rows below);
 *   - slpi_ens_lanes_run returns 0 (the block ran on the lanes) for n paths of one block,
 *     from the problem's initial state (x0 NULL) or given ones, on the canonical noise or
 *     given increments, over more steps than one chunk of increments (64) and a partial
 *     last chunk;
 *   - every row handed to the callback, in order, is bit for bit a stepper's row of that
 *     path: the state and the diagnostics with their solver counters, for ISOMP, SVI and
 *     a model, and with fixed_iters (every step CAPPED after that many iterations);
 *   - the given increments end at a PROT_NONE page: the lanes read no increment past the
 *     last path's last step (a read past it stops the test with SIGSEGV);
 *   - two models whose H is not finite at step 0 (a pole in t; an overflow of H with a
 *     finite gradient) are refused by the lanes (return 1) as by the stepper.
 * Paths, steps, save interval and first noise path vary with the printed seed. */
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>

#include "core/problem-struct.h"
#include "core/noise.h"
#include "api/ensemble-lanes.h"
#include "slpi.h"
#include "testutil.h"

typedef struct {
    int n, nq;
    long rows, next, order; /* next row expected; rows handed out of order or of other n */
    double *val;            /* [rows][n][nq] */
} sink;

static void take(void *ctx, long row, int n, const double *val)
{
    sink *s = ctx;
    s->order += row != s->next++ || n != s->n;
    if (row >= 0 && row < s->rows && n == s->n)
        memcpy(s->val + row * n * s->nq, val, (size_t)(n * s->nq) * sizeof *val);
}

static void on_segv(int sig)
{
    (void)sig;
    static const char a[] = "t-ensemble-lanes: FAIL: the lanes read past the given increments (SIGSEGV)\n";
    if (write(2, a, sizeof a - 1) < 0) _exit(1);
    _exit(1);
}

/* nd doubles whose end is the start of a PROT_NONE page (NULL on failure); *map, *len the mapping */
static double *at_guard(size_t nd, void **map, size_t *len)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE), bytes = nd * sizeof(double), body = (bytes + pg - 1) / pg * pg;
    int fd = open("/dev/zero", O_RDWR);
    *len = body + pg;
    *map = fd < 0 ? MAP_FAILED : mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    if (fd >= 0) close(fd);
    if (*map == MAP_FAILED || mprotect((char *)*map + body, pg, PROT_NONE) != 0) {
        *map = NULL;
        return NULL;
    }
    return (double *)((char *)*map + body - bytes);
}

static const char *const isa_name[] = { "portable", "best", "AVX2", "AVX-512F" };

static void check(const char *preset, const char *key, int own_x0, int own_dW, int isa)
{
    long steps = 65 + test_rand_int(100), every = 1 + test_rand_int(4);
    if (steps % 64 == 0) steps++; /* a partial last chunk */
    int n = 1 + (int)test_rand_int(SLPI_ENSEMBLE_BLOCK);
    uint64_t path0 = test_rand_u64() >> 40;
    slpi_problem *p;
    slpi_error err = { 0 };
    int ok = test_problem(&p, preset, steps, &err) == SLPI_OK;
    if (ok && key) {
        char k[64];
        snprintf(k, sizeof k, "%s", key);
        char *eq = strchr(k, '=');
        *eq = '\0';
        ok = slpi_problem_set_key(p, k, eq + 1) == SLPI_OK;
    }
    TEST_CHECKF(ok, "%s %s: problem: %s", preset, key ? key : "", err.msg[0] ? err.msg : slpi_api_last_error());
    slpi_stepper *st = NULL;
    ok = ok && slpi_stepper_new(&st, p, 0, NULL, 0) == SLPI_OK;
    TEST_CHECKF(ok, "%s: stepper: %s", preset, slpi_api_last_error());
    if (!ok) {
        slpi_problem_free(p);
        return;
    }
    int dim, M, nd;
    slpi_stepper_shape(st, &dim, &M, &nd, NULL, NULL);
    long rows = slpi_stepper_row_steps(st, every, NULL);
    slpi_problem q = *p;
    slpi_plan *plan = NULL;
    TEST_CHECKF(slpi_problem_plan(&plan, &q, &err) == SLPI_OK, "%s: finish: %s", preset, err.msg);
    slpi_ens_lanes *L = NULL;
    const char *why = "";
    TEST_CHECKF(plan && slpi_ens_lanes_new(&L, plan, every, &why, &err) == SLPI_OK && L, "%s %s: no lanes (%s) %s",
                preset, key ? key : "", why, err.msg);
    slpi_plan_unref(plan); /* the lanes hold their reference */
    double *x0 = NULL, *dW = NULL;
    void *map = NULL;
    size_t maplen = 0;
    if (L) slpi_ens_lanes_set_noise_isa(L, isa);
    if (own_x0) { /* the problem's state, each coordinate moved by up to 10 % */
        x0 = malloc((size_t)(n * dim) * sizeof *x0);
        slpi_stepper_row(st, x0, NULL, NULL, NULL);
        for (long k = 0; k < (long)n * dim; k++) x0[k] = x0[k % dim] * test_rand_uniform(0.9, 1.1);
    }
    if (own_dW) {
        dW = at_guard((size_t)(n * steps * M), &map, &maplen);
        TEST_CHECK(dW != NULL);
        for (long k = 0; dW && k < n * steps * M; k++) dW[k] = test_rand_uniform(-0.05, 0.05);
    }
    sink sk = { n, dim + nd, rows, 0, 0, malloc((size_t)(rows * n * (dim + nd)) * sizeof(double)) };
    if (L && (!own_dW || dW)) {
        TEST_CHECKF(slpi_ens_lanes_run(L, path0, n, x0, dW, take, &sk) == 0,
                    "%s %s: %d paths, x0 %s, dW %s: the lanes "
                    "refused the block",
                    preset, key ? key : "", n, own_x0 ? "given" : "NULL", own_dW ? "given" : "NULL");
        TEST_CHECKF(sk.next == rows && sk.order == 0, "%s: %ld rows handed (%ld out of order), want %ld", preset,
                    sk.next, sk.order, rows);
        double *a = malloc((size_t)(rows * (dim + nd)) * sizeof *a), *b = a + rows * dim;
        long bad = 0, badd = 0;
        for (int l = 0; l < n; l++) {
            long got = 0;
            TEST_CHECK(slpi_stepper_restart_from(st, path0 + (uint64_t)l, x0 ? x0 + l * dim : NULL, dim) == SLPI_OK);
            slpi_stepper_row(st, a, NULL, b, NULL);
            TEST_CHECK(slpi_stepper_advance(st, steps, dW ? dW + (size_t)l * steps * M : NULL, every, a + dim, NULL,
                                            b + nd, NULL, NULL, NULL, &got) == SLPI_OK &&
                       got == rows - 1);
            for (long r = 0; r < rows; r++) {
                const double *v = sk.val + (r * n + l) * (dim + nd);
                bad += memcmp(v, a + r * dim, (size_t)dim * sizeof *v) != 0;
                badd += memcmp(v + dim, b + r * nd, (size_t)nd * sizeof *v) != 0;
            }
        }
        TEST_CHECKF(bad == 0 && badd == 0, "%s %s: %ld states and %ld diagnostics rows of %ld differ from a stepper's",
                    preset, key ? key : "", bad, badd, rows * n);
        free(a);
    }
    printf("  %s %s: %d paths, %ld steps, every %ld, x0 %s, dW %s, noise kernel %s\n", preset, key ? key : "", n, steps,
           every, own_x0 ? "given" : "NULL", own_dW ? "given" : "NULL", isa_name[isa]);
    free(sk.val);
    free(x0);
    if (map) munmap(map, maplen);
    slpi_ens_lanes_free(L);
    slpi_stepper_free(st);
    slpi_problem_free(p);
}

/* Models whose H is not finite at step 0, each with a divisor that changes with t (so
 * fast/model-lanes.c's root_bound may bound no root by it): the stepper fails there, and so
 * must the lanes (return 1). One divides by t - 1/8, zero at step 0's midpoint; the other's
 * x1^2 overflows while its gradient 2 x1 / (3.4e273 + 0 t) and the step stay finite: only
 * the lanes' test of the roots' finiteness can refuse it. */
static void check_pole(const char *H, const char *x0, const char *h)
{
    char path[] = "/tmp/t-ensemble-lanes-XXXXXX", text[512];
    int fd = mkstemp(path);
    int len = snprintf(text, sizeof text, "system=model\nalgebra=so3\nH=%s\nnoise_H1=0.1*x3\nx0=%s\nh=%s\nsteps=8\n", H,
                       x0, h);
    TEST_CHECK(fd >= 0 && write(fd, text, (size_t)len) == (ssize_t)len);
    if (fd >= 0) close(fd);
    slpi_problem *p = slpi_problem_new(NULL);
    slpi_error err = { 0 };
    TEST_CHECKF(p && slpi_problem_load(p, path, &err) == SLPI_OK, "H=%s: %s", H, err.msg);
    unlink(path);
    slpi_stepper *st = NULL;
    long got = 0;
    double x[3 * 9];
    TEST_CHECK(slpi_stepper_new(&st, p, 0, NULL, 0) == SLPI_OK);
    TEST_CHECKF(st && slpi_stepper_advance(st, 8, NULL, 1, x, NULL, NULL, NULL, NULL, NULL, &got) != SLPI_OK,
                "H=%s: the stepper did not fail", H);
    slpi_problem q = *p;
    slpi_ens_lanes *L = NULL;
    const char *why = "";
    slpi_plan *plan = NULL;
    TEST_CHECK(slpi_problem_plan(&plan, &q, &err) == SLPI_OK);
    TEST_CHECKF(plan && slpi_ens_lanes_new(&L, plan, 1, &why, &err) == SLPI_OK && L, "H=%s: no lanes (%s)", H, why);
    slpi_plan_unref(plan);
    int nd = 0;
    if (st) slpi_stepper_shape(st, NULL, NULL, &nd, NULL, NULL);
    sink sk = { 4, 3 + nd, 9, 0, 0, malloc((size_t)(9 * 4 * (3 + nd)) * sizeof(double)) };
    TEST_CHECKF(!L || slpi_ens_lanes_run(L, 0, 4, NULL, NULL, take, &sk) == 1,
                "H=%s: the lanes ran through the step the stepper fails at", H);
    free(sk.val);
    slpi_ens_lanes_free(L);
    slpi_stepper_free(st);
    slpi_problem_free(p);
}

int main(void)
{
    test_start("t-ensemble-lanes", 25115401);
    signal(SIGSEGV, on_segv);
    const char *presets[] = { "iso/rigid-body/trajectories", "svi/rigid-body/paths", "models/rigid-body.slpi" };
    for (long it = 0; it < test_iters(2); it++)
        for (int i = 0; i < 3; i++)
            for (int c = 0; c < 4; c++) /* the canonical noise by the best kernel and the portable one */
                check(presets[i], NULL, c & 1, c >> 1, c & 1 ? SLPI_NOISE_PORTABLE : SLPI_NOISE_BEST);
    check("iso/rigid-body/trajectories", "fixed_iters=2", 0, 0, SLPI_NOISE_AVX512);
    check("models/rigid-body.slpi", "fixed_iters=1", 1, 1, SLPI_NOISE_BEST);
    check("iso/rigid-body/trajectories", "refine=2", 0, 0, SLPI_NOISE_BEST); /* each path's increments */
    check_pole("(x1^2 + 2*x2^2 + 3*x3^2)/(t - 0.125)", "0.4,0.1,1", "0.25");
    check_pole("x1^2/(3.4e273 + 0*t)", "1e291,0.5,1", "8.67362e-19");
    TEST_END();
}
