/* t-ensemble-parses.c — an ensemble parses its model once (api/ensemble.c compiles the
 * problem into one plan and makes every thread's stepper and lanes from it; before, each
 * stepper, the route's finished copy and each thread's lane objects compiled plans of
 * their own: 7 parses on two threads, and the command's 11). Counted with core/model.c's
 * parse counter (slpi_model_parse_count) around slpi_ensemble_new and slpi_ensemble_run
 * of models/rigid-body.slpi on two threads:
 *  - the double path (the lanes route: one lane object per thread): exactly 1 parse;
 *  - the double path with the lanes off, and the certified path (3 paths, 4 steps): 1;
 *  - slpi_stepper_new: 1; slpi_ensemble_new_plan and slpi_stepper_new_plan on a plan the
 *    caller compiled (slpi_problem_plan, its 1 parse): 0 more;
 *  - a built-in system (the rigid-body preset): 0.
 * The paths' count and first path are drawn from the seed (SLPI_TEST_SEED);
 * SLPI_TEST_MULTIPLIER lengthens the paths. */
#include "slpi.h"
#include "api/api.h"
#include "core/expr.h"
#include "testutil.h"

/* Parses of one ensemble (creation and `paths` paths) of p on two threads. */
static long ensemble_parses(const slpi_problem *p, const slpi_plan *plan, int ref, int lanes, long paths,
                            const char *what)
{
    slpi_ensemble *e = NULL;
    uint64_t first = (uint64_t)test_rand_int(1000);
    long n0 = slpi_model_parse_count();
    int rc = plan ? slpi_ensemble_new_plan(&e, plan, ref, first, 0, 2) : slpi_ensemble_new(&e, p, ref, first, 0, 2);
    if (rc == SLPI_OK && !lanes) slpi_ensemble_set_lanes(e, 0);
    if (rc == SLPI_OK) rc = slpi_ensemble_run(e, paths, NULL, NULL, NULL, NULL, NULL, NULL);
    long n1 = slpi_model_parse_count();
    TEST_CHECKF(rc == SLPI_OK, "%s: %s", what, slpi_api_last_error());
    if (rc == SLPI_OK)
        printf("  %s: route %s, %ld paths: %ld parse(s)\n", what, slpi_ensemble_route(e), paths, n1 - n0);
    slpi_ensemble_free(e);
    return n1 - n0;
}

/* Parses of one stepper of p (or of plan). */
static long stepper_parses(const slpi_problem *p, const slpi_plan *plan, const char *what)
{
    slpi_stepper *s = NULL;
    long n0 = slpi_model_parse_count();
    int rc = plan ? slpi_stepper_new_plan(&s, plan, 0, NULL, 0) : slpi_stepper_new(&s, p, 0, NULL, 0);
    long n1 = slpi_model_parse_count();
    TEST_CHECKF(rc == SLPI_OK, "%s: %s", what, slpi_api_last_error());
    slpi_stepper_free(s);
    return n1 - n0;
}

int main(void)
{
    test_start("t-ensemble-parses", 72);
    long steps = 20 * test_iters(1), paths = 65 + test_rand_int(200);
    slpi_problem *p = NULL, *b = NULL;
    slpi_error err = { 0, "" };
    int rc = test_problem(&p, "models/rigid-body.slpi", steps, &err);
    TEST_CHECKF(rc == SLPI_OK, "the model: %s %s", err.msg, slpi_api_last_error());
    rc = rc == SLPI_OK ? test_problem(&b, "iso/rigid-body/trajectories", steps, &err) : rc;
    TEST_CHECKF(rc == SLPI_OK, "the preset: %s %s", err.msg, slpi_api_last_error());
    if (rc != SLPI_OK) TEST_END();
    long lanes = ensemble_parses(p, NULL, 0, 1, paths, "model, double path");
    long general = ensemble_parses(p, NULL, 0, 0, paths, "model, double path, lanes off");
    slpi_problem_set_key(p, "steps", "4");
    long cert = ensemble_parses(p, NULL, 1, 0, 3, "model, certified path");
    slpi_problem_set_key(p, "steps", "20");
    long stepper = stepper_parses(p, NULL, "model, stepper");
    long builtin = ensemble_parses(b, NULL, 0, 1, paths, "preset, double path");

    slpi_plan *plan = NULL;
    long n0 = slpi_model_parse_count();
    rc = slpi_problem_plan(&plan, p, &err);
    long compiled = slpi_model_parse_count() - n0;
    TEST_CHECKF(rc == SLPI_OK, "slpi_problem_plan: %s", err.msg);
    long on_plan = rc == SLPI_OK ? ensemble_parses(p, plan, 0, 1, paths, "model, on the caller's plan") +
            stepper_parses(p, plan, "model, stepper on the plan")
                                 : -1;
    slpi_plan_unref(plan);
    TEST_CHECKF(lanes == 1, "an ensemble of the model (lanes): %ld parses, not 1", lanes);
    TEST_CHECKF(general == 1, "an ensemble of the model (lanes off): %ld parses, not 1", general);
    TEST_CHECKF(cert == 1, "a certified ensemble of the model: %ld parses, not 1", cert);
    TEST_CHECKF(stepper == 1, "a stepper of the model: %ld parses, not 1", stepper);
    TEST_CHECKF(builtin == 0, "an ensemble of a built-in system: %ld parses, not 0", builtin);
    TEST_CHECKF(compiled == 1 && on_plan == 0, "on a plan: %ld parse(s) to compile it (want 1), %ld more (want 0)",
                compiled, on_plan);
    slpi_problem_free(p);
    slpi_problem_free(b);
    TEST_END();
}
