/* t-verify-parses.c — `slpi verify` parses a model once per file (oracle/verify-input.c
 * compiles the header's problem into one plan, and the global walk, the local windows on
 * every thread, the initial state and the pooled files' noise keys make their run objects
 * from it). Counted with core/model.c's parse counter (slpi_model_parse_count) around
 * slpi_verify_run_files:
 *  - one file of a model (models/rigid-body.slpi, 400 steps, the global and the local
 *    comparison on two threads): exactly 1 parse (before this test, 109: two run objects
 *    per local window and thread, each compiling a plan of its own);
 *  - two pooled files of the model (paths p and p + 1): exactly 2, one per file;
 *  - a built-in system's file (the rigid-body preset): 0.
 * Each verdict is PASS: the files are the double path's own trajectories. The paths
 * are drawn from the seed (SLPI_TEST_SEED); SLPI_TEST_MULTIPLIER lengthens the files. */
#include "slpi-tools.h"
#include "core/expr.h"
#include "testutil.h"

/* A trajectory of the double path for preset or model file `what` at `steps` steps on
 * noise path `path`, written to a new temporary file (returned). */
static const char *trajectory(const char *what, long steps, long path)
{
    slpi_problem *p = NULL;
    slpi_error err = { 0, "" };
    char pa[32];
    snprintf(pa, sizeof pa, "%ld", path);
    int rc = test_problem(&p, what, steps, &err);
    if (rc == SLPI_OK) rc = slpi_problem_set_key(p, "path", pa);
    if (rc == SLPI_OK) rc = slpi_problem_finish(p, &err);
    const char *file = test_temp_file("");
    FILE *out = fopen(file, "w");
    slpi_run_result res;
    if (rc == SLPI_OK && out) rc = slpi_run(p, slpi_fast_path(), out, 0, NULL, &res, &err);
    if (out) fclose(out);
    TEST_CHECKF(rc == SLPI_OK && out, "%s: the trajectory: %s", what, err.msg);
    slpi_problem_free(p);
    return file;
}

/* Parses of one verification of the n files (both comparisons, two threads). */
static long parses(int n, const char *const *files, const char *what)
{
    slpi_verify_opts o;
    slpi_verify_opts_init(&o);
    o.threads = 2;
    slpi_verify_result *res = malloc(sizeof *res);
    slpi_error err = { 0, "" };
    long n0 = slpi_model_parse_count();
    int rc = res ? slpi_verify_run_files(n, files, &o, NULL, res, &err) : SLPI_EINPUT;
    long n1 = slpi_model_parse_count();
    TEST_CHECKF(rc == SLPI_OK && res->verdict == SLPI_VERDICT_PASS, "%s: verify: rc %d, %s", what, rc,
                rc == SLPI_OK ? slpi_verdict_name(res->verdict) : err.msg);
    free(res);
    return n1 - n0;
}

int main(void)
{
    test_start("t-verify-parses", 72);
    long steps = 400 * test_iters(1), path = test_rand_int(1000);
    const char *model = trajectory("models/rigid-body.slpi", steps, path);
    const char *other = trajectory("models/rigid-body.slpi", steps, path + 1);
    const char *builtin = trajectory("iso/rigid-body/trajectories", 40, path);
    const char *pool[2] = { model, other };
    long one = parses(1, &model, "the model's file"), two = parses(2, pool, "two pooled files"),
         none = parses(1, &builtin, "the preset's file");
    printf("t-verify-parses: %ld steps on path %ld: %ld parse(s) for one model file, %ld for two, %ld for a built-in\n",
           steps, path, one, two, none);
    TEST_CHECKF(one == 1, "one model file: the model was parsed %ld times, not once", one);
    TEST_CHECKF(two == 2, "two pooled model files: %ld parses, not one per file", two);
    TEST_CHECKF(none == 0, "a built-in system's file: %ld model parses, not none", none);
    TEST_END();
}
