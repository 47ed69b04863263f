/* t-converge-fail.c — a convergence study whose coarse level stalls (studies/converge.c,
 * studies/converge-paths.c; the rule of docs/noise.md#failed-paths):
 *  - the ISOMP rigid body with maxit=9 at h = T/2: the implicit solve of some paths' coarse
 *    steps does not converge; the study completes instead of aborting;
 *  - computed a second way, path by path (slpi_noise_increments at (h_l, refine L - l),
 *    slpi_fast_step): a path is failed when a step fails on any level, the failed level
 *    keeps its state; the study's failed count, failures per level, first failure (path,
 *    level, step), surviving paths, solver iterations and every level's mean squared
 *    error over the survivors (summed per batch of paths, then over the 3 batches, as the
 *    study does) must be the direct computation's, to the bit;
 *  - the vector lanes and the general path print the same bytes, failure lines included;
 *  - a study whose every path fails is exit 3 (SLPI_ENUMERIC) naming the first failure.
 * The seed (SLPI_TEST_SEED) is the problem's noise seed; SLPI_TEST_MULTIPLIER scales the
 * paths. */
#include "convutil.h"
#include "studies/studies.h"

static slpi_conv_cfg stall_cfg(slpi_problem *p, uint64_t seed, long paths, int maxit)
{
    slpi_error err;
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    if (slpi_problem_preset(p, "iso/rigid-body/strong", &err) != SLPI_OK) fprintf(stderr, "%s\n", err.msg);
    p->grid.level = -1;
    p->noise.seed = seed;
    p->sol.maxit = maxit;
    slpi_conv_cfg c;
    slpi_conv_init(&c, p);
    c.kmin = 1;
    c.kmax = 3;
    c.L = 6;
    c.paths = paths;
    c.batches = 3;
    c.boot = 0;
    return c;
}

static char *printed(const slpi_conv_cfg *c, const slpi_conv_result *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    slpi_conv_print(c, r, f);
    fclose(f);
    return text;
}

int main(void)
{
    test_start("t-converge-fail", 1);
    uint64_t seed = test_rng_state_;
    long paths = 40 * test_iters(1);
    char *text[2] = { NULL, NULL };
    for (int general = 0; general < 2; general++) {
        slpi_problem c_p;
        slpi_conv_cfg c = stall_cfg(&c_p, seed, paths, 9);
        c.general = general;
        slpi_conv_result r;
        slpi_error err = { 0, "" };
        int rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
        TEST_CHECKF(rc == SLPI_OK, "a stalled coarse step aborted the study: %s", err.msg);
        if (rc != SLPI_OK) break;
        text[general] = printed(&c, &r);

        /* the direct computation, path by path, the reference first */
        int nlev = c.kmax - c.kmin + 1;
        double s1[4] = { 0 }, bs[3][4] = { { 0 } }, x[3], dw[1 << 6][CONV_MAX_NOISES], ref[3] = { 0 }, e[4];
        long iters = 0, failed = 0, failed_at[5] = { 0 }, first_path = -1, first_step = -1;
        int first_obj = -1;
        for (long p = 0; p < c.paths; p++) {
            int lost = 0;
            for (int i = nlev; i >= 0; i--) {
                int l = i < nlev ? c.kmin + i : c.L, dead = 0;
                slpi_fast *f = conv_level(c.base, l, c.L, p, x, dw, &err);
                TEST_CHECKF(f != NULL, "%s", err.msg);
                if (!f) break;
                for (int n = 0; n < 1 << l; n++) {
                    double y[3];
                    memcpy(y, x, sizeof x);
                    slpi_step_info info;
                    slpi_step_status st = slpi_fast_step(f, y, dw[n], &info);
                    iters += info.iterations;
                    if (!slpi_step_failed(st)) {
                        memcpy(x, y, sizeof x);
                    } else if (!dead) { /* the level keeps its state; counted once */
                        dead = 1;
                        failed_at[i]++;
                        if (first_path < 0) {
                            first_path = p;
                            first_obj = i;
                            first_step = n;
                        } else if (first_path == p && i < first_obj) {
                            first_obj = i;
                            first_step = n;
                        }
                    }
                }
                lost |= dead;
                if (i == nlev)
                    memcpy(ref, x, sizeof x);
                else
                    e[i] = (x[0] - ref[0]) * (x[0] - ref[0]) + (x[1] - ref[1]) * (x[1] - ref[1]) +
                        (x[2] - ref[2]) * (x[2] - ref[2]);
                slpi_fast_free(f);
            }
            failed += lost;
            int b = 0; /* batch b holds the paths [b R / 3, (b + 1) R / 3): summed per batch, in order */
            while ((b + 1) * c.paths / 3 <= p) b++;
            for (int i = 0; !lost && i < nlev; i++) bs[b][i] += e[i];
        }
        for (int b = 0; b < 3; b++)
            for (int i = 0; i < nlev; i++) s1[i] += bs[b][i];
        const char *how = general ? "general path" : "vector lanes";
        TEST_CHECKF(failed_at[0] > 0 && failed < c.paths - 1 && failed_at[nlev] == 0,
                    "the case must stall on the coarse level only, on some paths: %ld of %ld failed, %ld on level %d",
                    failed, c.paths, failed_at[0], c.kmin);
        TEST_CHECKF(r.failed == failed && r.paths == c.paths - failed, "%s: failed %ld (direct %ld), survivors %ld",
                    how, r.failed, failed, r.paths);
        for (int i = 0; i <= nlev; i++)
            TEST_CHECKF(r.failed_at[i] == failed_at[i], "%s: object %d: %ld failed (direct %ld)", how, i,
                        r.failed_at[i], failed_at[i]);
        TEST_CHECKF(r.first_failure.path == first_path && r.first_failure.object == first_obj &&
                        r.first_failure.step == first_step && r.first_failure.level == c.kmin + first_obj &&
                        r.first_failure.status == SLPI_STEP_NOT_CONVERGED && r.first_failure.iterations == 9,
                    "%s: first failure path %lld object %d step %ld (direct %ld, %d, %ld)", how, r.first_failure.path,
                    r.first_failure.object, r.first_failure.step, first_path, first_obj, first_step);
        TEST_CHECKF(r.iters == iters, "%s: iterations %ld (direct %ld)", how, r.iters, iters);
        for (int i = 0; i < nlev; i++)
            TEST_CHECKF(r.cell[SLPI_CONV_SELF][i].mean == s1[i] / (double)(c.paths - failed),
                        "%s: level %d: mean %a over the survivors (direct %a)", how, r.level[i],
                        r.cell[SLPI_CONV_SELF][i].mean, s1[i] / (double)(c.paths - failed));
        TEST_CHECKF(strstr(text[general], "# failed paths ") &&
                        strstr(text[general], "# first failure: isomp on path "),
                    "%s: the report does not state the failures:\n%s", how, text[general]);
    }
    TEST_CHECKF(text[0] && text[1] && strcmp(text[0], text[1]) == 0, "vector lanes and general path print differently");
    free(text[0]);
    free(text[1]);

    /* every path fails: exit 3 with the first failure */
    {
        slpi_problem c_p;
        slpi_conv_cfg c = stall_cfg(&c_p, seed, 6, 1);
        slpi_conv_result r;
        slpi_error err = { 0, "" };
        int rc = slpi_conv_run(&c, NULL, NULL, &r, &err);
        TEST_CHECKF(rc == SLPI_ENUMERIC && strstr(err.msg, "6 of 6 paths failed, 0 survive") &&
                        strstr(err.msg, "isomp on path 0, level 1") && strstr(err.msg, "residual"),
                    "rc %d: %s", rc, err.msg);
    }
    TEST_END();
}
