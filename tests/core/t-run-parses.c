/* t-run-parses.c — `slpi run` parses a model once (cli/cmd-run.c makes one plan,
 * slpi_problem_plan, and runs it with slpi_run_plan; the run driver's create takes the
 * plan, so the path's run object reads the model from it). Before, the command finished
 * the problem (a parse) and the path's create compiled a plan of its own (a second).
 * Counted with core/model.c's parse counter (slpi_model_parse_count) on models/rigid-body.slpi:
 *  - the command's sequence, slpi_problem_plan then slpi_run_plan: exactly 1 parse on the
 *    double path and 1 on the certified path (the run itself: 0);
 *  - slpi_run_checkpointed on a problem slpi_problem_finish finished: 1 (its own plan);
 *  - a built-in system (the rigid-body preset): 0.
 * Each run's rows are the same bytes whichever way it was made. The steps and the noise
 * path are drawn from the seed (SLPI_TEST_SEED); SLPI_TEST_MULTIPLIER lengthens the runs. */
#include "slpi.h"
#include "core/expr.h"
#include "testutil.h"

/* The rows of one run of p (on its plan when plan, else from p) into a new temporary
 * file; *parses gets the parses it took, making the plan included. */
static const char *run_rows(slpi_problem *p, int plan, int ref, long *parses, const char *what)
{
    slpi_error err = { 0, "" };
    const char *file = test_temp_file("");
    FILE *out = fopen(file, "w");
    slpi_run_result res;
    slpi_plan *pl = NULL;
    const slpi_path_ops *ops = ref ? slpi_ref_path() : slpi_fast_path();
    long n0 = slpi_model_parse_count();
    int rc = out ? SLPI_OK : SLPI_EINPUT;
    if (rc == SLPI_OK && plan) rc = slpi_problem_plan(&pl, p, &err);
    if (rc == SLPI_OK)
        rc = plan ? slpi_run_plan(pl, ops, out, 1, NULL, NULL, &res, &err)
                  : slpi_run_checkpointed(p, ops, out, 1, NULL, NULL, &res, &err);
    *parses = slpi_model_parse_count() - n0;
    slpi_plan_unref(pl);
    if (out) fclose(out);
    TEST_CHECKF(rc == SLPI_OK, "%s: %s", what, err.msg);
    printf("  %s: %ld parse(s)\n", what, *parses);
    return file;
}

/* 1 if the files a and b hold the same bytes */
static int same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb, ca, cb;
    while (same && ((ca = fgetc(fa)) != EOF) | ((cb = fgetc(fb)) != EOF)) same = ca == cb;
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

int main(void)
{
    test_start("t-run-parses", 72);
    long steps = (20 + test_rand_int(40)) * test_iters(1);
    char path[32];
    snprintf(path, sizeof path, "%ld", test_rand_int(1000));
    slpi_problem *p = NULL, *b = NULL;
    slpi_error err = { 0, "" };
    int rc = test_problem(&p, "models/rigid-body.slpi", steps, &err);
    if (rc == SLPI_OK) rc = slpi_problem_set_key(p, "path", path);
    TEST_CHECKF(rc == SLPI_OK, "the model: %s %s", err.msg, slpi_api_last_error());
    rc = rc == SLPI_OK ? test_problem(&b, "iso/rigid-body/trajectories", steps, &err) : rc;
    TEST_CHECKF(rc == SLPI_OK, "the preset: %s %s", err.msg, slpi_api_last_error());
    if (rc != SLPI_OK) TEST_END();
    printf("t-run-parses: %ld steps on path %s\n", steps, path);

    long fast, ref, own, builtin;
    const char *a = run_rows(p, 1, 0, &fast, "model, double path, on its plan (the command)");
    TEST_CHECKF(slpi_problem_finish(p, &err) == SLPI_OK, "finish: %s", err.msg);
    const char *c = run_rows(p, 0, 0, &own, "model, double path, slpi_run_checkpointed");
    slpi_problem_set_key(p, "steps", "3");
    run_rows(p, 1, 1, &ref, "model, certified path, on its plan (the command)");
    run_rows(b, 1, 0, &builtin, "preset, double path, on its plan");
    TEST_CHECKF(fast == 1, "`slpi run` of the model: %ld parses, not 1", fast);
    TEST_CHECKF(ref == 1, "`slpi run --ref` of the model: %ld parses, not 1", ref);
    TEST_CHECKF(own == 1, "slpi_run_checkpointed of the model: %ld parses, not 1", own);
    TEST_CHECKF(builtin == 0, "a built-in system's run: %ld model parses, not none", builtin);
    TEST_CHECKF(same_bytes(a, c), "the rows on the plan and from the problem differ (%s, %s)", a, c);
    slpi_problem_free(p);
    slpi_problem_free(b);
    TEST_END();
}
