/* fuzz-checkpoint.c — checkpoint files (core/checkpoint.c) and the paths' state
 * loaders (fast/path.c, ref/path.c) on the tokens of an accepted file.
 * The digest line would stop almost every mutation at the reader's first check, so
 * the harness recomputes it for half of the inputs (first byte odd) before reading. */
#include "core/problem-struct.h"
#include "fuzzutil.h"
#include "core/checkpoint.h"

static void *path_ctx(const slpi_path_ops *ops)
{
    slpi_problem p;
    slpi_error err = { 0, "" };
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    slpi_plan *plan = NULL; /* the run object holds its own reference */
    if (slpi_problem_plan(&plan, &p, &err) != SLPI_OK) abort();
    void *ctx = ops->create(plan, &err);
    slpi_plan_unref(plan);
    if (!ctx || ops->set_state(ctx, NULL, &err) != SLPI_OK) abort();
    return ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static void *fast, *ref;
    if (!fast) {
        fast = path_ctx(slpi_fast_path());
        ref = path_ctx(slpi_ref_path());
    }
    size_t n;
    uint8_t *buf = fuzz_checkpoint_text(data, size, &n);
    slpi_checkpoint c;
    slpi_error err = { 0, "" };
    int rc = slpi_checkpoint_read(fuzz_file(buf, n), &c, &err);
    fuzz_check_error(rc, &err);
    free(buf);
    if (rc == SLPI_OK) {
        if (c.ntokens < 1 || c.dim < 1 || !c.problem) abort();
        (void)slpi_fast_path()->state_load(fast, c.ntokens, c.x);
        (void)slpi_ref_path()->state_load(ref, c.ntokens, c.x);
        slpi_checkpoint_free(&c);
    }
    return 0;
}
