/* t-verify-stat.c — the calibrated statistical test of `slpi verify` (oracle/stat.c,
 * oracle/README.md#statistics) computed two ways, and the behaviours a porter relies on.
 *
 * A binary32 "port" of ISOMP on the rigid body: each row the double path's step from the
 * port's previous row, rounded to binary32 (a correct port at binary32), or with every
 * noise increment times 1 + eps (a wrong amplitude, about 2 u|x| per step: far inside the
 * worst-case budget). On a noise path drawn from the seed:
 *  - the library's T^2, rows and RMS deviation equal the test's own: the certified step
 *    from each previous row (slpi_ref_step on exact balls), the fast path's directions
 *    (steps with the increments negated, zeroed, one component negated), the projections
 *    and Hotelling's T^2 solved by Gaussian elimination in long double; so does the
 *    twin's RMS: each row's inputs times 1 + u v, v uniform in [-1, 1) drawn from the
 *    row's counter by SplitMix64's output function, stepped and rounded to binary32;
 *  - the correct port PASSes (p > 1e-6) with the power to see 1 u per step, the wrong
 *    amplitude FAILs the statistics (p < 1e-6, effect >= 1 u per step along an odd
 *    direction) while the proof PASSes;
 *  - the statistical FAIL at p <= alpha / 2 and not above it;
 *  - with --rows, the diagnosis's bins span the rows kept;
 *  - pooled paths: the sums of two files are the sums of each, and the verdict of the
 *    pool is the same on 1 and 2 threads, bit for bit;
 *  - a short file is LOW-POWER (PASS, or UNABLE under require_power), a pooled file of
 *    another problem is an input error;
 *  - the precision table against IEEE's definitions (u = 2^-p, p from float.h).
 * SLPI_TEST_SEED replays a path, SLPI_TEST_MULTIPLIER lengthens the trajectories. */
#include <float.h>
#include <math.h>

#include "core/problem-struct.h"
#include "oracle/oracle.h"
#include "testutil.h"

#define U32 0x1p-24
#define MAXJ SLPI_STAT_DIRS

static void make_problem(slpi_problem *p, long steps, uint64_t path, const char *amp)
{
    char s[32], pa[32];
    snprintf(s, sizeof s, "%ld", steps);
    snprintf(pa, sizeof pa, "%llu", (unsigned long long)path);
    char *keys[3] = { "steps", "path", "amp" }, *vals[3] = { s, pa, (char *)amp };
    slpi_error err = { 0, "" };
    int rc = slpi_problem_build(p, "iso/rigid-body/trajectories", NULL, amp ? 3 : 2, keys, vals, NULL, &err);
    if (rc == SLPI_OK) rc = slpi_problem_finish(p, &err);
    TEST_CHECKF(rc == SLPI_OK, "problem: %s", err.msg);
}

/* The port's file: x0 then each step from the previous row with dW (1 + eps), rounded
 * to binary32. */
static void write_port(const char *path, const slpi_problem *p, double eps)
{
    slpi_error err = { 0, "" };
    int dim = slpi_problem_state_dim(p), M = slpi_problem_noise_count(p);
    double *dW = malloc((size_t)p->grid.steps * M * sizeof *dW), x[64], d[16];
    slpi_fast *f = NULL;
    TEST_CHECK(dW && slpi_oracle_increments(p, p->grid.steps, dW, &err) == SLPI_OK);
    TEST_CHECK(slpi_fast_create(&f, p, &err) == SLPI_OK && slpi_fast_problem_initial_state(p, x, &err) == SLPI_OK);
    FILE *o = fopen(path, "w");
    char name[dim][16];
    const char *cols[64];
    for (int i = 0; i < dim; i++) {
        slpi_problem_state_name(p, i, name[i], sizeof name[i]);
        cols[i] = name[i];
    }
    slpi_traj_write_header(o, p, "port", dim, cols);
    for (long n = 0; n <= p->grid.steps; n++) {
        if (n > 0) {
            for (int l = 0; l < M; l++) d[l] = dW[(n - 1) * M + l] * (1 + eps);
            slpi_step_info info;
            slpi_fast_set_step_index(f, n - 1);
            TEST_CHECK(!slpi_step_failed(slpi_fast_step(f, x, d, &info)));
        }
        for (int i = 0; i < dim; i++) x[i] = (double)(float)x[i];
        slpi_traj_write_row(o, n, (double)n * p->grid.h, dim, x, 1);
    }
    fclose(o);
    slpi_fast_free(f);
    free(dW);
}

/* The fast path's step from x over d times mult (per component) into y. */
static void fast_step(slpi_fast *f, long n, const double *x, const double *d, const double *mult, int M, int dim,
                      double *y)
{
    double dd[16];
    for (int l = 0; l < M; l++) dd[l] = d[l] * mult[l];
    memcpy(y, x, (size_t)dim * sizeof *y);
    slpi_step_info info;
    slpi_fast_set_step_index(f, n);
    slpi_fast_step(f, y, dd, &info);
}

/* The test's own T^2 and RMS of the file's local rows (every row n >= 1 from row n-1). */
/* SplitMix64's output function (Vigna's splitmix64.c: the state plus the golden gamma,
 * then two xor-shift-multiplies and a xor-shift): the twin's counter is replaced by it
 * before each draw, and a row's counter starts as it of (to x FNV prime) ^ from. */
static uint64_t splitmix64_out(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double twin_draw(uint64_t *c)
{
    *c = splitmix64_out(*c);
    return (double)(*c >> 11) * 0x1p-52 - 1.0;
}

static void own_statistics(const char *path, const slpi_problem *p, double u, long *rows, double *t2, double *rms,
                           double *twin)
{
    slpi_error err = { 0, "" };
    slpi_traj tr, *t = &tr;
    TEST_CHECKF(slpi_traj_read(path, t, &err) == SLPI_OK, "%s", err.msg);
    int dim = slpi_problem_state_dim(p), M = slpi_problem_noise_count(p), J = 3 + M;
    double *dW = malloc((size_t)p->grid.steps * M * sizeof *dW);
    TEST_CHECK(dW && slpi_oracle_increments(p, p->grid.steps, dW, &err) == SLPI_OK);
    slpi_fast *f = NULL;
    slpi_ref *r = NULL;
    TEST_CHECK(slpi_fast_create(&f, p, &err) == SLPI_OK && slpi_ref_create(&r, p, &err) == SLPI_OK);
    arb_ptr b = _arb_vec_init(dim);
    long double S[MAXJ] = { 0 }, C[MAXJ][MAXJ] = { { 0 } }, r2 = 0, tw2 = 0;
    long n = 0;
    for (long k = 1; k < t->nrows; k++) {
        const double *x = t->mid + (k - 1) * (t->ncols + 1) + 1, *y = t->mid + k * (t->ncols + 1) + 1;
        const double *d = dW + (k - 1) * M;
        for (int i = 0; i < dim; i++) arb_set_d(b + i, x[i]);
        slpi_step_info info;
        slpi_ref_set_step_index(r, k - 1);
        TEST_CHECK(!slpi_step_failed(slpi_ref_step(r, b, d, &info)));
        double s = 0, e[64], P[64], Pm[64], P0[64], Q[64], dir[MAXJ][64];
        for (int i = 0; i < dim; i++) s = fmax(s, fabs(arf_get_d(arb_midref(b + i), ARF_RND_NEAR)));
        for (int i = 0; i < dim; i++) {
            arf_t a;
            arf_init(a);
            arf_set_d(a, y[i]);
            arf_sub(a, a, arb_midref(b + i), 256, ARF_RND_NEAR);
            e[i] = arf_get_d(a, ARF_RND_NEAR) / (u * s);
            arf_clear(a);
        }
        double one[16], neg[16], zero[16];
        for (int l = 0; l < M; l++) one[l] = 1, neg[l] = -1, zero[l] = 0;
        fast_step(f, k - 1, x, d, one, M, dim, P);
        fast_step(f, k - 1, x, d, neg, M, dim, Pm);
        fast_step(f, k - 1, x, d, zero, M, dim, P0);
        for (int i = 0; i < dim; i++) {
            dir[0][i] = P[i];
            dir[1][i] = P0[i] - x[i];
            dir[2][i] = (P[i] + Pm[i]) / 2 - P0[i];
        }
        for (int l = 0; l < M; l++) {
            double m[16];
            for (int j = 0; j < M; j++) m[j] = j == l ? -1 : 1;
            fast_step(f, k - 1, x, d, m, M, dim, Q);
            for (int i = 0; i < dim; i++) dir[3 + l][i] = (P[i] - Q[i]) / 2;
        }
        /* the twin: the inputs moved by at most u, the step rounded to binary32 */
        uint64_t c = splitmix64_out((uint64_t)k * 0x100000001b3ULL ^ (uint64_t)(k - 1));
        double xt[64], dt[16], T[64];
        for (int i = 0; i < dim; i++) xt[i] = x[i] * (1 + u * twin_draw(&c));
        for (int l = 0; l < M; l++) dt[l] = d[l] * (1 + u * twin_draw(&c));
        fast_step(f, k - 1, xt, dt, one, M, dim, T);
        for (int i = 0; i < dim; i++) {
            double ti = ((double)(float)T[i] - P[i]) / (u * s);
            tw2 += (long double)ti * ti;
        }
        long double a[MAXJ];
        for (int j = 0; j < J; j++) {
            long double nd = 0, pr = 0;
            for (int i = 0; i < dim; i++) nd += (long double)dir[j][i] * dir[j][i], pr += (long double)e[i] * dir[j][i];
            a[j] = pr / sqrtl(nd);
        }
        for (int i = 0; i < dim; i++) r2 += (long double)e[i] * e[i];
        for (int i = 0; i < J; i++) {
            S[i] += a[i];
            for (int j = 0; j < J; j++) C[i][j] += a[i] * a[j];
        }
        n++;
    }
    /* T^2 = n (n - 1) m' W^-1 m, W the centred cross products, m the mean: W z = m by
     * Gaussian elimination with partial pivoting */
    long double W[MAXJ][MAXJ + 1];
    for (int i = 0; i < J; i++) {
        for (int j = 0; j < J; j++) W[i][j] = C[i][j] - S[i] * S[j] / n;
        W[i][J] = S[i] / n;
    }
    for (int c = 0; c < J; c++) {
        int piv = c;
        for (int i = c + 1; i < J; i++)
            if (fabsl(W[i][c]) > fabsl(W[piv][c])) piv = i;
        for (int j = 0; j <= J; j++) {
            long double tmp = W[c][j];
            W[c][j] = W[piv][j];
            W[piv][j] = tmp;
        }
        for (int i = c + 1; i < J; i++) {
            long double g = W[i][c] / W[c][c];
            for (int j = c; j <= J; j++) W[i][j] -= g * W[c][j];
        }
    }
    long double z[MAXJ], q = 0;
    for (int i = J - 1; i >= 0; i--) {
        z[i] = W[i][J];
        for (int j = i + 1; j < J; j++) z[i] -= W[i][j] * z[j];
        z[i] /= W[i][i];
    }
    for (int i = 0; i < J; i++) q += z[i] * S[i] / n;
    *rows = n;
    *t2 = (double)(n * (n - 1) * q);
    *rms = (double)sqrtl(r2 / n);
    *twin = (double)sqrtl(tw2 / n);
    _arb_vec_clear(b, dim);
    slpi_ref_free(r);
    slpi_fast_free(f);
    slpi_traj_free(t);
    free(dW);
}

static int verify(int n, const char *const *files, int threads, int require_power, slpi_verify_result *res)
{
    slpi_verify_opts o;
    slpi_verify_opts_init(&o);
    slpi_error err = { 0, "" };
    TEST_CHECK(slpi_precision_parse(&o.precision, "binary32", &err) == SLPI_OK);
    o.global = 0;
    o.threads = threads;
    o.require_power = require_power;
    return slpi_verify_run_files(n, files, &o, NULL, res, &err);
}

static int rel_close(double a, double b, double tol)
{
    return fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
}

static void precision_table(void)
{
    static const struct {
        const char *name;
        int bits;
        double u;
    } ieee[] = {
        { "binary64", DBL_MANT_DIG, DBL_EPSILON / 2 },
        { "binary32", FLT_MANT_DIG, FLT_EPSILON / 2 },
        { "tf32", FLT_MANT_DIG, 0x1p-10 / 2 },
        { "bfloat16", 8, 0x1p-7 / 2 },
        { "binary16", 11, 0x1p-10 / 2 },
    };
    slpi_error err = { 0, "" };
    for (size_t i = 0; i < sizeof ieee / sizeof ieee[0]; i++) {
        slpi_precision p;
        TEST_CHECK(slpi_precision_parse(&p, ieee[i].name, &err) == SLPI_OK);
        TEST_CHECKF(p.bits == ieee[i].bits && p.u == ieee[i].u && !strcmp(p.name, ieee[i].name),
                    "%s: %d bits, u = %a (want %d, %a)", ieee[i].name, p.bits, p.u, ieee[i].bits, ieee[i].u);
        TEST_CHECK(slpi_precision_ulp(1.5, p.bits) == ldexp(1.0, 1 - p.bits));
    }
    slpi_precision p;
    TEST_CHECK(slpi_precision_parse(&p, "u=0x1p-20", &err) == SLPI_OK && p.bits == 20 && p.u == 0x1p-20);
    TEST_CHECK(slpi_precision_parse(&p, "binary128", &err) == SLPI_EINPUT && strstr(err.msg, "bfloat16"));
    TEST_CHECK(slpi_precision_parse(&p, "u=1", &err) == SLPI_EINPUT);
    /* arithmetic / storage: u the larger, the storage's bits (oracle/precision.c) */
    TEST_CHECK(slpi_precision_parse(&p, "bfloat16/binary32", &err) == SLPI_OK && p.u == 0x1p-8 && p.bits == 24 &&
               !strcmp(p.name, "bfloat16/binary32"));
    TEST_CHECK(slpi_precision_parse(&p, "binary64/binary16", &err) == SLPI_OK && p.u == 0x1p-11 && p.bits == 11);
    TEST_CHECK(slpi_precision_parse(&p, "u=0x1p-9/binary32", &err) == SLPI_OK && p.u == 0x1p-9 && p.bits == 24);
    TEST_CHECK(slpi_precision_parse(&p, "binary32/u=0x1p-9", &err) == SLPI_EINPUT && strstr(err.msg, "STORE"));
    TEST_CHECK(slpi_precision_parse(&p, "bfloat16/", &err) == SLPI_EINPUT);
    TEST_CHECK(slpi_precision_parse(&p, "/binary32", &err) == SLPI_EINPUT);
    TEST_CHECK(slpi_precision_parse(&p, "bfloat16/binary32/binary64", &err) == SLPI_EINPUT);
    /* TF32 truncated: u the whole ulp; +ftz: the arithmetic's smallest normal, not for u= */
    TEST_CHECK(slpi_precision_parse(&p, "tf32-rz", &err) == SLPI_OK && p.u == 0x1p-10 && p.bits == 24 && p.flush == 0);
    TEST_CHECK(slpi_precision_parse(&p, "tf32", &err) == SLPI_OK && p.flush == 0);
    slpi_precision_of_u(&p, 0x1p-10);
    TEST_CHECK(strcmp(p.name, "tf32-rz") != 0 && p.bits == 10);
    TEST_CHECK(slpi_precision_parse(&p, "binary16+ftz", &err) == SLPI_OK && p.u == 0x1p-11 && p.bits == 11 &&
               p.flush == 0x1p-14 && !strcmp(p.name, "binary16+ftz"));
    TEST_CHECK(slpi_precision_parse(&p, "tf32-rz+ftz", &err) == SLPI_OK && p.u == 0x1p-10 && p.flush == 0x1p-126);
    TEST_CHECK(slpi_precision_parse(&p, "binary64/binary16+ftz", &err) == SLPI_OK && p.u == 0x1p-11 && p.bits == 11 &&
               p.flush == 0x1p-1022);
    TEST_CHECK(slpi_precision_parse(&p, "bfloat16/binary32", &err) == SLPI_OK && p.flush == 0);
    TEST_CHECK(slpi_precision_parse(&p, "u=0x1p-9+ftz", &err) == SLPI_EINPUT && strstr(err.msg, "+ftz"));
    TEST_CHECK(slpi_precision_parse(&p, "u=0x1p-9/binary32+ftz", &err) == SLPI_EINPUT);
    TEST_CHECK(slpi_precision_parse(&p, "+ftz", &err) == SLPI_EINPUT);
    TEST_CHECK(slpi_precision_parse(&p, "binary16+ftz+ftz", &err) == SLPI_EINPUT);
}

int main(void)
{
    test_start("t-verify-stat", 55);
    precision_table();
    long steps = test_iters(1000);
    uint64_t path = test_rand_u64() & 0xffff;
    printf("t-verify-stat: path %llu, %ld steps\n", (unsigned long long)path, steps);
    slpi_problem p, q;
    make_problem(&p, steps, path, NULL);
    const char *good = test_temp_file(""), *wrong = test_temp_file(""), *good2 = test_temp_file("");
    write_port(good, &p, 0);
    write_port(wrong, &p, 4e-5); /* amplitude 0.1 (1 + 4e-5): about 2 u|x| per step */
    make_problem(&q, steps, path + 1, NULL);
    write_port(good2, &q, 0);

    slpi_verify_result *a = malloc(sizeof *a), *b = malloc(sizeof *b), *c = malloc(sizeof *c);
    TEST_CHECK(a && b && c);
    /* two ways */
    long rows;
    double t2, rms, twin;
    TEST_CHECK(verify(1, &good, 1, 0, a) == SLPI_OK);
    own_statistics(good, &p, U32, &rows, &t2, &rms, &twin);
    TEST_CHECKF(a->stats.rows == rows && rel_close(a->stats.t2, t2, 1e-6) && rel_close(a->stats.rms_u, rms, 1e-9) &&
                    rel_close(a->stats.twin_rms_u, twin, 1e-9),
                "library: %ld rows, T^2 %.10g, RMS %.10g, twin %.10g; test: %ld, %.10g, %.10g, %.10g", a->stats.rows,
                a->stats.t2, a->stats.rms_u, a->stats.twin_rms_u, rows, t2, rms, twin);
    TEST_CHECKF(a->proof == SLPI_VERDICT_PASS && a->stats.p_value > 1e-6 && a->stats.dirs == 6,
                "correct port: proof %s, statistics p = %g on %d directions", slpi_verdict_name(a->proof),
                a->stats.p_value, a->stats.dirs);
    TEST_CHECKF(a->stats.detectable_effect_u < 1 && a->stats.verdict != SLPI_VERDICT_UNABLE,
                "%ld steps detect %g u per step", steps, a->stats.detectable_effect_u);
    TEST_CHECK((a->stats.verdict == SLPI_VERDICT_FAIL) == (a->stats.p_value <= a->stats.alpha / 2));
    /* the power at 1 u per step: 0.9 at the detectable effect, so at least 0.9 below 1 u */
    TEST_CHECKF(a->stats.power_target >= 0.9 && a->stats.power_target <= 1, "power %g at 1 u, detects %g u",
                a->stats.power_target, a->stats.detectable_effect_u);
    printf("t-verify-stat: correct port: T^2 %.4g (test %.4g), p = %.3g, RMS %.3g u, twin %.3g u, detects %.3g u\n",
           a->stats.t2, t2, a->stats.p_value, a->stats.rms_u, a->stats.twin_rms_u, a->stats.detectable_effect_u);
    TEST_CHECK(verify(1, &wrong, 1, 0, b) == SLPI_OK);
    own_statistics(wrong, &p, U32, &rows, &t2, &rms, &twin);
    TEST_CHECKF(rel_close(b->stats.t2, t2, 1e-6), "wrong amplitude: T^2 %.10g, test %.10g", b->stats.t2, t2);
    TEST_CHECKF(b->proof == SLPI_VERDICT_PASS && b->stats.verdict == SLPI_VERDICT_FAIL &&
                    b->verdict == SLPI_VERDICT_FAIL && b->stats.p_value < 1e-6 &&
                    fabs(b->stats.effect_per_step_u) >= 1 && !strncmp(b->stats.effect_direction, "noise", 5),
                "wrong amplitude: proof %s, statistics %s p = %g, effect %g along %s", slpi_verdict_name(b->proof),
                slpi_verify_stat_verdict_name(b->stats.verdict), b->stats.p_value, b->stats.effect_per_step_u,
                b->stats.effect_direction);
    printf("t-verify-stat: wrong amplitude: T^2 %.4g (test %.4g), p = %.3g, effect %.3g u per step along %s\n",
           b->stats.t2, t2, b->stats.p_value, b->stats.effect_per_step_u, b->stats.effect_direction);
    /* the threshold is alpha / 2 (two tests, Bonferroni): p = alpha / 2 FAILs, p above it
     * does not */
    slpi_verify_opts o;
    slpi_verify_opts_init(&o);
    slpi_error err = { 0, "" };
    TEST_CHECK(slpi_precision_parse(&o.precision, "binary32", &err) == SLPI_OK);
    o.global = 0;
    double pw = b->stats.p_value;
    o.alpha = 2 * pw;
    TEST_CHECK(slpi_verify_run(wrong, &o, NULL, c, &err) == SLPI_OK && c->stats.verdict == SLPI_VERDICT_FAIL);
    o.alpha = 1.999 * pw;
    TEST_CHECKF(slpi_verify_run(wrong, &o, NULL, c, &err) == SLPI_OK && c->stats.verdict != SLPI_VERDICT_FAIL &&
                    c->stats.p_value == pw,
                "alpha = %g: %s with p = %g", o.alpha, slpi_verify_stat_verdict_name(c->stats.verdict),
                c->stats.p_value);
    /* the diagnosis's bins span the steps of the rows kept, 32 bins over 100..420 of 11
     * steps (docs/power.md#window-refine: a window's pass bins the window's steps) */
    {
        slpi_verify_opts ob = o;
        ob.alpha = 1e-3;
        ob.row_first = 100;
        ob.row_last = 420;
        TEST_CHECKF(slpi_verify_run(wrong, &ob, NULL, c, &err) == SLPI_OK && c->stats.diag.step0 == 100 &&
                        c->stats.diag.width == 11 && c->stats.diag.rows == 321,
                    "--rows 100..420: the diagnosis's bins from step %ld, %ld steps wide, %ld rows",
                    c->stats.diag.step0, c->stats.diag.width, c->stats.diag.rows);
    }
    /* the documented limits of the C options, at the limit and one past (before, the
     * library accepted u = 1 and returned PASS): 0 < u < 1, K > 0 finite, 0 < alpha < 1 */
    {
        static const struct {
            double u, k, alpha;
            int ok;
        } lim[] = {
            { 0x1.fffffffffffffp-1, 30, 1e-3, 1 },
            { 1, 30, 1e-3, 0 },
            { 0x1p-1074, 30, 1e-3, 1 },
            { 0, 30, 1e-3, 0 },
            { U32, 0x1p-1074, 1e-3, 1 },
            { U32, 0, 1e-3, 0 },
            { U32, INFINITY, 1e-3, 0 },
            { U32, NAN, 1e-3, 0 },
            { U32, 30, 0x1.fffffffffffffp-1, 1 },
            { U32, 30, 1, 0 },
            { U32, 30, 0x1p-1074, 1 },
            { U32, 30, 0, 0 },
        };
        for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++) {
            slpi_verify_opts ol = o;
            slpi_precision_of_u(&ol.precision, lim[i].u);
            ol.precision.u = lim[i].u;
            ol.budget = lim[i].k;
            ol.alpha = lim[i].alpha;
            ol.row_first = 1;
            ol.row_last = 3;
            int rc = slpi_verify_run(good, &ol, NULL, c, &err);
            TEST_CHECKF(lim[i].ok ? rc == SLPI_OK : rc == SLPI_EINPUT,
                        "u = %a, K = %a, alpha = %a: rc %d (want %s): %s", lim[i].u, lim[i].k, lim[i].alpha, rc,
                        lim[i].ok ? "accepted" : "refused", err.msg);
        }
    }
    /* pooled: the sums of two files are each file's, on any number of threads */
    const char *both[2] = { good, good2 };
    TEST_CHECK(verify(1, &good2, 1, 0, b) == SLPI_OK && verify(2, both, 1, 0, c) == SLPI_OK);
    int same = c->stats.rows == a->stats.rows + b->stats.rows && c->stats.paths == 2;
    for (int i = 0; i < SLPI_STAT_DIRS; i++)
        same &= rel_close(c->stats.exact.sum[i], a->stats.exact.sum[i] + b->stats.exact.sum[i], 1e-12);
    for (int i = 0; i < SLPI_STAT_DIRS * SLPI_STAT_DIRS; i++)
        same &= rel_close(c->stats.exact.cross[i], a->stats.exact.cross[i] + b->stats.exact.cross[i], 1e-12);
    TEST_CHECKF(same && rel_close(c->stats.exact.r2_sum, a->stats.exact.r2_sum + b->stats.exact.r2_sum, 1e-12),
                "pooled rows %ld of %ld + %ld, paths %d", c->stats.rows, a->stats.rows, b->stats.rows, c->stats.paths);
    TEST_CHECK(verify(2, both, 2, 0, a) == SLPI_OK);
    TEST_CHECKF(!memcmp(&a->stats.exact, &c->stats.exact, sizeof c->stats.exact) &&
                    a->stats.p_value == c->stats.p_value && a->stats.verdict == c->stats.verdict,
                "2 threads: p = %g, 1 thread: %g", a->stats.p_value, c->stats.p_value);
    /* short: LOW-POWER, the proof's verdict unless power is required; another problem */
    slpi_problem s;
    make_problem(&s, 12, path, NULL);
    const char *shrt = test_temp_file("");
    write_port(shrt, &s, 0);
    TEST_CHECK(verify(1, &shrt, 1, 0, a) == SLPI_OK && a->stats.verdict == SLPI_VERDICT_UNABLE &&
               a->verdict == SLPI_VERDICT_PASS &&
               !strcmp(slpi_verify_stat_verdict_name(a->stats.verdict), "LOW-POWER") && a->stats.power_target < 0.9);
    TEST_CHECK(verify(1, &shrt, 1, 1, a) == SLPI_OK && a->verdict == SLPI_VERDICT_UNABLE);
    slpi_problem op;
    make_problem(&op, steps, path, "0.2");
    const char *other = test_temp_file(""), *mixed[2] = { good, other };
    write_port(other, &op, 0);
    TEST_CHECK(verify(2, mixed, 1, 0, a) == SLPI_EINPUT);
    free(a);
    free(b);
    free(c);
    TEST_END();
}
