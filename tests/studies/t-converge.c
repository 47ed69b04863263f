/* t-converge.c — the coupled convergence machinery (studies/converge.c, stats.c,
 * weak-exact.c; docs/noise.md#coupling, docs/noise.md#estimators, docs/experiments.md#iso I16, docs/experiments.md#svi V21, docs/experiments.md#cross X4):
 *  - the lock-step engine's strong and sup errors equal, to the bit, a direct path-by-path
 *    computation from slpi_noise_increments at (h_l, refine L-l) and slpi_fast_step;
 *  - WLS slope of exact power laws; bootstrap quantiles;
 *  - weak-exact quadrature: docs/claims.md#i16 values, Gauss–Legendre vs a composite Simpson rule,
 *    Monte Carlo through the implemented ISOMP and SVI steps within 4 SE of the quadrature;
 *  - printed results identical for 1 and 2 threads and for 1 and 2 (simulated) ranks,
 *    and for the structure-of-arrays kernels and the general path;
 *  - ISO strong slopes: ~1/2 for M = 3 (I3), ~1 for M = 1 (I14);
 *  - RKMK-LE vs RKMK-HEUN (X4): at the reference level both are near ISOMP's limit, LE (strong
 *    order 1/2 here) much farther than Heun, and LE now runs without the inconsistent option;
 *  - checkpoints: a study resumed from a checkpoint of some of its batches prints the bytes
 *    of a plain study (1 and 2 threads, simulated 2 ranks); crafted checkpoints with a
 *    valid digest but a bad batch index or count are refused with file:line;
 *  - a weak study passes Giles' MLMC consistency check on every level;
 *  - bad configurations are rejected with a message. */
#include <unistd.h>

#include "core/checkpoint.h"
#include "ckptutil.h"
#include "convutil.h"
#include "studies/studies.h"

static double *saved;
static size_t saved_n;

/* Simulated rank 1: keep its partial sums. */
static int keep(double *buf, size_t n, void *arg)
{
    (void)arg;
    saved = malloc(n * sizeof *saved);
    memcpy(saved, buf, n * sizeof *saved);
    saved_n = n;
    return 0;
}

/* Simulated rank 0: add rank 1's sums (what MPI_Allreduce does). */
static int add_saved(double *buf, size_t n, void *arg)
{
    (void)arg;
    if (n != saved_n) return 1;
    for (size_t i = 0; i < n; i++) buf[i] += saved[i];
    return 0;
}

static char *study_text(slpi_conv_cfg *c, slpi_conv_combine comb, int *rc)
{
    slpi_conv_result r;
    slpi_error err = { 0, "" };
    char *text = NULL;
    size_t len = 0;
    *rc = slpi_conv_run(c, comb, NULL, &r, &err);
    if (*rc != SLPI_OK) {
        fprintf(stderr, "study failed: %s\n", err.msg);
        return NULL;
    }
    FILE *f = open_memstream(&text, &len);
    slpi_conv_print(c, &r, f);
    fclose(f);
    return text;
}

/* Rewrite checkpoint file path with its first `from` replaced by `to`, digests renewed. */
static int craft(const char *path, const char *out, const char *from, const char *to)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *end = strstr(text, "\nend "), *at = strstr(text, from);
    if (!end || !at || at > end) return -1;
    end[1] = '\0';
    char body[1 << 16];
    snprintf(body, sizeof body, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    ckpt_put_resealed(out, body, strlen(body));
    return SLPI_OK;
}

static slpi_conv_cfg preset_cfg(slpi_problem *p, const char *preset)
{
    slpi_error err;
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    if (slpi_problem_preset(p, preset, &err) != SLPI_OK) fprintf(stderr, "%s\n", err.msg);
    p->grid.level = -1;
    slpi_conv_cfg c;
    slpi_conv_init(&c, p);
    return c;
}

/* A weak study of iso/rigid-body/weak: levels kmin..kmax, reference L, paths in batches,
 * 100 bootstrap samples. */
static slpi_conv_cfg weak_cfg(slpi_problem *p, int kmin, int kmax, int L, long paths, int batches)
{
    slpi_conv_cfg c = preset_cfg(p, "iso/rigid-body/weak");
    c.kind = SLPI_CONV_WEAK;
    c.kmin = kmin;
    c.kmax = kmax;
    c.L = L;
    c.paths = paths;
    c.batches = batches;
    c.boot = 100;
    return c;
}

static double g_cos2(double w, void *arg)
{
    (void)arg;
    return cos(2 * atan(w / 2));
}

/* the lock-step engine against a direct path-by-path computation: for every path,
 * each level's increments from slpi_noise_increments(h_l, refine L - l), clipped at
 * D(h_l), stepped with slpi_fast_step; the mean squared error to the reference at T
 * (strong) or the mean over paths of the largest squared error over the level's grid
 * (sup), summed in path order as one batch does, must be the engine's to the bit (70
 * paths: a full lock-step block and a partial one; ISOMP and SVI, vector lanes and
 * general path; and ISOMP with warm_start=1 and 2, which the general path carries per
 * path, so that each path's steps are those of the path run alone) */
static void check_engine_direct(void)
{
    const char *pr[2] = { "iso/rigid-body/weak", "svi/rigid-body/strong-n3" };
    const slpi_conv_kind kinds[8] = { SLPI_CONV_STRONG, SLPI_CONV_STRONG, SLPI_CONV_SUP,    SLPI_CONV_SUP,
                                      SLPI_CONV_STRONG, SLPI_CONV_SUP,    SLPI_CONV_STRONG, SLPI_CONV_SUP };
    for (int j = 0; j < 8; j++) {
        slpi_problem c_p;
        slpi_conv_cfg c = preset_cfg(&c_p, pr[j < 6 ? j % 2 : 0]);
        c.kind = kinds[j];
        c.kmin = 2;
        c.kmax = 4;
        c.L = 7;
        c.paths = 70;
        c.batches = 1;
        c.boot = 0;
        c.general = j >= 4;
        if (j >= 6) c_p.sch.warm_start = j - 5;
        const char *what = c.kind == SLPI_CONV_SUP ? "sup" : "strong";
        slpi_conv_result r;
        slpi_error err;
        int rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
        TEST_CHECKF(rc == SLPI_OK, "%s", err.msg);
        int nlev = c.kmax - c.kmin + 1;
        double s1[8] = { 0 }, x[3], dw[1 << 7][CONV_MAX_NOISES], traj[(1 << 4) + 1][3];
        long iters = 0;
        for (long p = 0; rc == SLPI_OK && p < c.paths; p++) {
            for (int i = nlev; i >= 0; i--) { /* the reference first: its kmax-grid states */
                int l = i < nlev ? c.kmin + i : c.L;
                slpi_fast *f = conv_level(c.base, l, c.L, p, x, dw, &err);
                TEST_CHECKF(f != NULL, "%s", err.msg);
                if (!f) break;
                double sup = 0;
                if (i == nlev) memcpy(traj[0], x, sizeof x);
                for (int n = 0; n < 1 << l; n++) {
                    slpi_step_info info;
                    TEST_CHECK(!slpi_step_failed(slpi_fast_step(f, x, dw[n], &info)));
                    iters += info.iterations;
                    if (i == nlev && (n + 1) % (1 << (c.L - c.kmax)) == 0)
                        memcpy(traj[(n + 1) >> (c.L - c.kmax)], x, sizeof x);
                    const double *ref =
                        i < nlev ? traj[(n + 1) << (c.kmax - l)] : x; /* the reference level compares with nothing */
                    double e = 0;
                    for (int k = 0; i < nlev && k < 3; k++) e += (x[k] - ref[k]) * (x[k] - ref[k]);
                    if (e > sup) sup = e;
                    if (i < nlev && n + 1 == 1 << l) s1[i] += c.kind == SLPI_CONV_SUP ? sup : e;
                }
                slpi_fast_free(f);
            }
        }
        for (int i = 0; rc == SLPI_OK && i < nlev; i++)
            TEST_CHECKF(r.cell[SLPI_CONV_SELF][i].mean == s1[i] / (double)c.paths,
                        "%s %s%s level %d: engine %a, direct %a", pr[j < 6 ? j % 2 : 0], what,
                        c.general ? " (general)" : "", r.level[i], r.cell[SLPI_CONV_SELF][i].mean,
                        s1[i] / (double)c.paths);
        TEST_CHECKF(r.iters == iters, "%s %s: iterations %ld vs %ld", pr[j < 6 ? j % 2 : 0], what, r.iters, iters);
    }
}

/* WLS of an exact power law; quantiles */
static void check_wls_quantiles(void)
{
    double h[5], e[5], se[5], s, ic;
    int use[5] = { 1, 1, 1, 1, 1 };
    for (int i = 0; i < 5; i++) {
        h[i] = ldexp(1, -i - 3);
        e[i] = 0.7 * pow(h[i], 0.5);
        se[i] = e[i] * (0.1 + 0.1 * i);
    }
    TEST_CHECK(slpi_stats_wls(5, h, e, se, use, &s, &ic) == 5);
    TEST_CHECKF(fabs(s - 0.5) < 1e-13 && fabs(ic - log(0.7)) < 1e-12, "slope %.17g", s);
    double v[5] = { 5, 1, 4, 2, 3 };
    TEST_CHECK(slpi_stats_quantile(v, 5, 0.5) == 3 && slpi_stats_quantile(v, 5, 0.25) == 2);
}

/* weak-exact quadrature: docs/claims.md#i16 values and an independent Simpson rule */
static void check_weak_exact(void)
{
    static const double i16[6] = { 0.01805, 0.00921, 0.00467, 0.00235, 0.00118, 0.00059 };
    for (int k = 3; k <= 8; k++) {
        double h = ldexp(1, -k);
        double e = slpi_weak_exact_scheme(SLPI_SCHEME_ISOMP, 1, 1, h, 2, 1) - exp(-0.5);
        TEST_CHECKF(fabs(e - i16[k - 3]) < 0.006 * i16[k - 3] + 5e-6, "h=2^-%d: %.6g vs %.5g", k, e, i16[k - 3]);
        /* Simpson on [-A, A] plus the atoms, 20000 intervals */
        double D = slpi_noise_threshold(h, 2), A = D / sqrt(h), s = 0;
        int n = 20000;
        for (int i = 0; i <= n; i++) {
            double z = -A + 2 * A * i / n, wgt = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
            s += wgt * g_cos2(sqrt(h) * z, NULL) * exp(-0.5 * z * z);
        }
        s *= (2 * A / n) / 3 / sqrt(2 * 3.14159265358979323846);
        s += 0.5 * erfc(A / sqrt(2.0)) * 2 * g_cos2(D, NULL);
        double q = slpi_weak_clipped_mean(g_cos2, NULL, h, D);
        TEST_CHECKF(fabs(q - s) < 1e-12, "h=2^-%d: GL %.17g Simpson %.17g", k, q, s);
    }
}

/* Monte Carlo through the implemented steps agrees with the quadrature (ISOMP, SVI) */
static void check_mc_quadrature(void)
{
    const char *pr[2] = { "iso/so3/weak-exact", "svi/so3/weak-exact" };
    for (int j = 0; j < 2; j++) {
        slpi_problem c_p;
        slpi_conv_cfg c = preset_cfg(&c_p, pr[j]);
        c.kind = SLPI_CONV_WEAK;
        c.phi = SLPI_PHI_X1;
        c.exact = 1;
        c.exact_value = exp(-0.5);
        c.kmin = 3;
        c.kmax = 5;
        c.L = 7;
        c.paths = test_iters(400);
        c.boot = 50;
        slpi_conv_result r;
        slpi_error err;
        int rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
        TEST_CHECKF(rc == SLPI_OK, "%s: %s", pr[j], err.msg);
        for (int i = 0; rc == SLPI_OK && i < r.nlev; i++) {
            const slpi_conv_cell *ph = &r.cell[SLPI_CONV_PHI][i];
            TEST_CHECKF(fabs(ph->mean - r.quad[i]) < 4 * ph->se,
                        "%s level %d: MC %.6g +- %.2g, "
                        "quadrature %.6g",
                        pr[j], r.level[i], ph->mean, ph->se, r.quad[i]);
            /* coupled level differences against the quadrature's: a sharp test */
            const slpi_conv_cell *dl = &r.cell[SLPI_CONV_MLMC][i];
            double dq = r.quad[i] - r.quad[i + 1];
            TEST_CHECKF(fabs(dl->mean - dq) < 4 * dl->se + 1e-12,
                        "%s level %d: E[P_l - P_l+1] "
                        "%.6g +- %.2g, quadrature %.6g",
                        pr[j], r.level[i], dl->mean, dl->se, dq);
            /* coupling: the coupled SE is far below the uncoupled one (X7) */
            TEST_CHECK(r.cell[SLPI_CONV_SELF][i].se < 0.2 * ph->se);
        }
    }
}

/* thread and (simulated) rank independence of every printed digit */
static void check_thread_rank(void)
{
    slpi_problem c_p;
    slpi_conv_cfg c = weak_cfg(&c_p, 2, 5, 8, 60, 6);
    c.indep = 1;
    c.indep_scheme = SLPI_SCHEME_SVI;
    int rc1, rc2, rc3;
    c.threads = 1;
    char *t1 = study_text(&c, NULL, &rc1);
    c.threads = 2;
    char *t2 = study_text(&c, NULL, &rc2);
    TEST_CHECK(rc1 == SLPI_OK && rc2 == SLPI_OK && t1 && t2 && strcmp(t1, t2) == 0);
    c.nranks = 2;
    c.rank = 1;
    free(study_text(&c, keep, &rc3));
    c.rank = 0;
    char *t3 = study_text(&c, add_saved, &rc3);
    TEST_CHECKF(rc3 == SLPI_OK && t1 && t3 && strcmp(t1, t3) == 0, "2 ranks differ:\n%s\n%s", t1 ? t1 : "",
                t3 ? t3 : "");
    free(saved);
    free(t1);
    free(t2);
    free(t3);
}

/* the structure-of-arrays kernels (fast/ensemble.c) print the same digits as the
 * general path: ISOMP iso-quad weak study, SVI-SO3 svi-lin sup study (both c) */
static void check_soa_kernels(void)
{
    const char *pr[3] = { "iso/rigid-body/weak", "svi/rigid-body/strong-n3", "svi/rigid-body/strong-n3" };
    for (int j = 0; j < 3; j++) {
        slpi_problem c_p;
        slpi_conv_cfg c = preset_cfg(&c_p, pr[j]);
        c.kind = j ? SLPI_CONV_SUP : SLPI_CONV_WEAK;
        if (j == 2) c_p.sch.svi_c = -0.25;
        c.kmin = 2;
        c.kmax = 5;
        c.L = 8;
        c.paths = 24;
        c.boot = 50;
        slpi_conv_result rs, rg;
        slpi_error err;
        int rc1 = slpi_conv_run(&c, NULL, NULL, &rs, &err);
        c.general = 1;
        int rc2 = slpi_conv_run(&c, NULL, NULL, &rg, &err);
        int same = rc1 == SLPI_OK && rc2 == SLPI_OK && rs.iters == rg.iters;
        for (int col = 0; same && col < SLPI_CONV_NCOL; col++)
            for (int i = 0; i <= rs.nlev; i++)
                same &= rs.cell[col][i].mean == rg.cell[col][i].mean && rs.cell[col][i].var == rg.cell[col][i].var;
        TEST_CHECKF(same, "%s: the SoA kernels and the general path differ", pr[j]);
    }
}

/* ISO strong slopes: 1/2 with three noises (I3), 1 with one (I14); bootstrap CI around */
static void check_iso_slopes(void)
{
    const char *pr[2] = { "iso/rigid-body/strong", "iso/rigid-body/strong-single-noise" };
    double lo[2] = { 0.3, 0.75 }, hi[2] = { 0.75, 1.3 };
    for (int j = 0; j < 2; j++) {
        slpi_problem c_p;
        slpi_conv_cfg c = preset_cfg(&c_p, pr[j]);
        c.kmin = 3;
        c.kmax = 7;
        c.L = 10;
        c.paths = test_iters(64);
        c.boot = 200;
        slpi_conv_result r;
        slpi_error err;
        int rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
        const slpi_conv_fit *f = &r.fit[SLPI_CONV_SELF];
        TEST_CHECKF(rc == SLPI_OK && f->slope > lo[j] && f->slope < hi[j] && f->lo <= f->slope && f->slope <= f->hi,
                    "%s: slope %.3f [%.3f, %.3f]", pr[j], f->slope, f->lo, f->hi);
    }
}

/* X4: RKMK-LE with iso-quad is Stratonovich-consistent (slpi_problem_le_consistent), so
 * its gap to ISOMP shrinks with h (the audit's X4 'gap' checks); at level 10 it is still
 * far above Heun's. The genuinely inconsistent control (H_1 = a x_1 x_2, whose gap stays
 * flat) is gaps/consistency.c's, tested in t-audit-gaps. */
static void check_le_consistent(void)
{
    double gap[2];
    slpi_scheme_id k[2] = { SLPI_SCHEME_RKMK_LE, SLPI_SCHEME_RKMK_HEUN };
    for (int j = 0; j < 2; j++) {
        slpi_problem c_p;
        slpi_conv_cfg c = preset_cfg(&c_p, "iso/rigid-body/strong");
        c_p.sch.scheme = k[j];
        c_p.sol.maxit = 1;
        c.kmin = 3;
        c.kmax = 5;
        c.L = 10;
        c.paths = 32;
        c.indep = 1;
        c.indep_scheme = SLPI_SCHEME_ISOMP;
        slpi_conv_result r;
        slpi_error err;
        int rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
        TEST_CHECKF(rc == SLPI_OK, "%s", err.msg);
        gap[j] = r.refgap;
    }
    TEST_CHECKF(gap[0] > 100 * gap[1], "LE gap %.3g vs Heun gap %.3g", gap[0], gap[1]);
    slpi_problem c_p;
    slpi_conv_cfg c = preset_cfg(&c_p, "iso/rigid-body/strong");
    c_p.sch.scheme = SLPI_SCHEME_RKMK_LE;
    c_p.sol.maxit = 1;
    c.kmin = 3;
    c.kmax = 4;
    c.L = 6;
    c.paths = 4;
    slpi_conv_result r;
    slpi_error err;
    TEST_CHECKF(slpi_conv_run(&c, NULL, NULL, &r, &err) == SLPI_OK, "%s", err.msg);
}

/* an independent scheme takes its own solver defaults: Euler-Zeitlin's ISOMP starts
 * warm, its independent TMK reference cold (warm_start is an ISOMP option) */
static void check_solver_defaults(void)
{
    slpi_problem p;
    slpi_error err;
    slpi_problem_init(&p, SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_preset(&p, "iso/zeitlin/strong", &err) == SLPI_OK && p.sch.warm_start == 1);
    p.grid.level = -1;
    slpi_conv_cfg c;
    slpi_conv_init(&c, &p);
    c.kmin = 2;
    c.kmax = 3;
    c.L = 5;
    c.paths = 2;
    c.boot = 0;
    c.indep = 1;
    c.indep_scheme = SLPI_SCHEME_TMK;
    slpi_conv_result r;
    TEST_CHECKF(slpi_conv_run(&c, NULL, NULL, &r, &err) == SLPI_OK, "Euler-Zeitlin with an independent TMK: %s",
                err.msg);
}

/* checkpoints: taken every 4 of 7 batches (one thread: the file then holds batches
 * 0..3), then resumed on 1 and 2 threads and as simulated ranks 0 and 1 of 2 */
static void check_checkpoints(void)
{
    char ck[] = "/tmp/t-converge-ckpt-XXXXXX", bad[64];
    int fd = mkstemp(ck), rc;
    TEST_CHECK(fd >= 0);
    close(fd);
    snprintf(bad, sizeof bad, "%s.bad", ck);
    slpi_problem c_p;
    slpi_conv_cfg c = preset_cfg(&c_p, "iso/rigid-body/weak");
    c.kind = SLPI_CONV_WEAK;
    c.kmin = 2;
    c.kmax = 4;
    c.L = 7;
    c.paths = 28;
    c.batches = 7;
    c.boot = 50;
    c.indep = 1;
    c.indep_scheme = SLPI_SCHEME_SVI;
    c.threads = 1;
    char *plain = study_text(&c, NULL, &rc);
    c.checkpoint = ck;
    c.checkpoint_every = 4;
    char *with = study_text(&c, NULL, &rc);
    TEST_CHECK(plain && with && strcmp(plain, with) == 0);
    free(with);
    c.checkpoint = NULL;
    c.resume = ck;
    for (int t = 1; t <= 2; t++) {
        c.threads = t;
        char *res = study_text(&c, NULL, &rc);
        TEST_CHECKF(plain && res && strcmp(plain, res) == 0, "resumed on %d threads differs", t);
        free(res);
    }
    c.nranks = 2;
    c.rank = 1;
    free(study_text(&c, keep, &rc));
    c.rank = 0;
    char *ranks = study_text(&c, add_saved, &rc);
    TEST_CHECKF(plain && ranks && strcmp(plain, ranks) == 0, "resumed on 2 ranks differs");
    free(ranks);
    free(saved);
    saved = NULL;
    c.nranks = 1;
    slpi_conv_result r;
    slpi_error err;
    const char *from[] = { "\nbatch 1 ", "\ndone 4\n", "study paths=28", "\nbatch 2 0x" };
    const char *to[] = { "\nbatch 0 ", "\ndone 5\n", "study paths=29", "\nbatch 2 zz" };
    const char *want[] = { "increasing indices", "missing 'batch'", "it has paths=29, this study paths=28",
                           "%a doubles" };
    for (int i = 0; i < 4; i++) {
        TEST_CHECK(craft(ck, bad, from[i], to[i]) == SLPI_OK);
        c.resume = bad;
        rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
        TEST_CHECKF(rc == SLPI_EINPUT && strstr(err.msg, bad) && strstr(err.msg, want[i]), "crafted %d: %s", i,
                    err.msg);
    }
    c.resume = NULL;
    c.checkpoint = ck;
    c.checkpoint_every = 0;
    TEST_CHECK(slpi_conv_run(&c, NULL, NULL, &r, &err) == SLPI_EINPUT && strstr(err.msg, "checkpoint-every"));
    free(plain);
    unlink(ck);
    unlink(bad);
}

/* Giles' MLMC consistency check of a weak study (even batches' level differences
 * against the odd batches' levels, over 3 SE): the coupled estimator passes its rule
 * (< 1) on every level (seen: about 0.01 here) */
static void check_mlmc(void)
{
    slpi_problem c_p;
    slpi_conv_cfg c = weak_cfg(&c_p, 0, 3, 6, 2000, 8);
    slpi_conv_result r;
    slpi_error err = { 0, "" };
    c.path0 = test_rand_u64() % 1000000;
    int rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
    TEST_CHECKF(rc == SLPI_OK, "%s", err.msg);
    for (int i = 0; rc == SLPI_OK && i < r.nlev; i++) {
        TEST_CHECKF(r.mlmc_check[i] >= 0 && r.mlmc_check[i] < 1, "paths %llu..: level %d (h = %g): Giles check %.3g",
                    (unsigned long long)c.path0, i, r.h[i], r.mlmc_check[i]);
    }
}

/* bad configurations */
static void check_bad_configs(void)
{
    slpi_problem c_p;
    slpi_conv_cfg c = preset_cfg(&c_p, "iso/rigid-body/strong");
    slpi_conv_result r;
    slpi_error err;
    c.kmax = c.L;
    TEST_CHECK(slpi_conv_run(&c, NULL, NULL, &r, &err) == SLPI_EINPUT && strstr(err.msg, "levels"));
    c = preset_cfg(&c_p, "iso/rigid-body/strong");
    c.paths = 1;
    TEST_CHECK(slpi_conv_run(&c, NULL, NULL, &r, &err) == SLPI_EINPUT && strstr(err.msg, "paths"));
    c = preset_cfg(&c_p, "iso/rigid-body/strong");
    c.exact = 1;
    TEST_CHECK(slpi_conv_run(&c, NULL, NULL, &r, &err) == SLPI_EINPUT && strstr(err.msg, "exact"));
    c = preset_cfg(&c_p, "iso/rigid-body/weak"); /* weak, but not the so(3) oracle */
    c.kind = SLPI_CONV_WEAK;
    c.exact = 1;
    TEST_CHECKF(slpi_conv_run(&c, NULL, NULL, &r, &err) == SLPI_EINPUT && strstr(err.msg, "the so(3) oracle"),
                "exact off the oracle: %s", err.msg);
    c = preset_cfg(&c_p, "iso/so3/weak-exact"); /* the oracle from x0 = e_2: x_1(T) is not cos */
    c.kind = SLPI_CONV_WEAK;
    c.phi = SLPI_PHI_X1;
    c.exact = 1;
    c_p.sys.x0[0] = 0;
    c_p.sys.x0[1] = 1;
    TEST_CHECKF(slpi_conv_run(&c, NULL, NULL, &r, &err) == SLPI_EINPUT && strstr(err.msg, "x0=1,0,0"),
                "exact from x0 = e_2: %s", err.msg);
    c = preset_cfg(&c_p, "iso/so3/weak-exact"); /* the exact value is E x_1, not E sum sin 2 pi x_i */
    c.kind = SLPI_CONV_WEAK;
    c.exact = 1;
    TEST_CHECKF(slpi_conv_run(&c, NULL, NULL, &r, &err) == SLPI_EINPUT && strstr(err.msg, "--phi x1"),
                "exact with phi = sin2pi: %s", err.msg);
    c = preset_cfg(&c_p, "iso/rigid-body/strong"); /* T = 0: no interval to converge over */
    c_p.grid.T = 0;
    TEST_CHECKF(slpi_conv_run(&c, NULL, NULL, &r, &err) == SLPI_EINPUT &&
                    strstr(err.msg, "T must be given and positive"),
                "T = 0: %s", err.msg);
    /* the documented bootstrap limit, 0..10^6 replicates, at the limit and one past
     * (it was once refused though the help allows it) */
    c = preset_cfg(&c_p, "iso/rigid-body/strong");
    c.kmin = 2;
    c.kmax = 3;
    c.L = 5;
    c.paths = 4;
    c.batches = 4;
    c.boot = 1000000;
    int rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
    TEST_CHECKF(rc == SLPI_OK, "boot = 10^6: %s", err.msg);
    c.boot = 1000001;
    TEST_CHECKF(slpi_conv_run(&c, NULL, NULL, &r, &err) == SLPI_EINPUT && strstr(err.msg, "10^6 replicates"),
                "boot = 10^6 + 1: %s", err.msg);
    c.boot = -1;
    TEST_CHECK(slpi_conv_run(&c, NULL, NULL, &r, &err) == SLPI_EINPUT);
}

int main(void)
{
    test_start("t-converge", 7);
    check_engine_direct();
    check_wls_quantiles();
    check_weak_exact();
    check_mc_quadrature();
    check_thread_rank();
    check_soa_kernels();
    check_iso_slopes();
    check_le_consistent();
    check_solver_defaults();
    check_checkpoints();
    check_mlmc();
    check_bad_configs();
    TEST_END();
}
