/* t-ref-watch — the work inside a certified step (slpi_ref_set_watch; ref/ref.c and
 * ref/krawczyk.c), which `slpi run --ref --progress` draws so that a step of minutes
 * does not leave the line standing still:
 *  - the watch is called inside every step (between its start and its return), with
 *    that step's index, and its counts never go back within a step;
 *  - the same quantity two ways: the solver iterations the watch last saw in a step
 *    equal the iterations slpi_step_info reports for it, and the precision it last saw
 *    is the step's; a scheme that forms Jacobians (TMK's chord matrix, the dense
 *    Krawczyk test) reports its columns, a multiple of the state dimension;
 *  - the precision ladder: a step that fails at every precision reports each precision
 *    it tries, p->prec, 2 p->prec, ..., p->prec_max, in order (the raise is movement too:
 *    each new precision is told on its own, before any work at it);
 *  - no watch (fn NULL), no call. */
#include "core/problem-struct.h"
#include "testutil.h"
#include "ref/vec.h"

typedef struct {
    long calls, step, iterations, columns, prec, bad_order, bad_step;
    long raise_moved; /* a new precision first seen with counts that moved */
    long precs[16];
    int nprec;
    int inside;   /* 1 while slpi_ref_step runs */
    long outside; /* calls outside a step */
} seen;

static void watch(void *ctx, const slpi_ref_work *w)
{
    seen *s = ctx;
    s->calls++;
    if (!s->inside) s->outside++;
    if (w->step != s->step) s->bad_step++;
    if (w->iterations < s->iterations || w->columns < s->columns) s->bad_order++;
    if (s->nprec > 0 && s->precs[s->nprec - 1] != w->prec &&
        (w->iterations != s->iterations || w->columns != s->columns))
        s->raise_moved++;
    s->iterations = w->iterations;
    s->columns = w->columns;
    if (s->nprec == 0 || s->precs[s->nprec - 1] != w->prec) {
        if (s->nprec < 16) s->precs[s->nprec++] = w->prec;
    }
    s->prec = w->prec;
}

static slpi_ref *make(slpi_problem *p, const char *scheme, const char *h, const char *prec, const char *prec_max)
{
    slpi_error err = { 0, "" };
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_TMK);
    int rc = slpi_problem_set(p, "scheme", scheme, &err);
    if (rc == SLPI_OK) rc = slpi_problem_set(p, "h", h, &err);
    if (rc == SLPI_OK) rc = slpi_problem_set(p, "prec", prec, &err);
    if (rc == SLPI_OK) rc = slpi_problem_set(p, "prec_max", prec_max, &err);
    if (rc == SLPI_OK) rc = slpi_problem_finish(p, &err);
    slpi_ref *s = NULL;
    if (rc == SLPI_OK) rc = slpi_ref_create(&s, p, &err);
    TEST_CHECKF(rc == SLPI_OK, "%s: %s", scheme, err.msg);
    return s;
}

int main(void)
{
    test_start("t-ref-watch", 11);
    const char *schemes[] = { "tmk", "isomp", "im-direct", "trap-direct" };
    for (int k = 0; k < 4; k++) {
        slpi_problem p;
        slpi_ref *s = make(&p, schemes[k], "0.05", "128", "1024");
        if (!s) continue;
        int n = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p);
        arb_ptr x = _arb_vec_init(n);
        slpi_error err = { 0, "" };
        TEST_CHECKF(slpi_ref_initial_state(s, x, &err) == SLPI_OK, "%s", err.msg);
        double dW[8];
        seen w;
        memset(&w, 0, sizeof w);
        slpi_ref_set_watch(s, watch, &w);
        long steps = test_iters(3), columns = 0;
        for (long step = 0; step < steps; step++) {
            for (int j = 0; j < M; j++) dW[j] = test_rand_uniform(-0.2, 0.2);
            long before = w.calls;
            w.step = step;
            w.iterations = w.columns = 0;
            w.nprec = 0;
            slpi_step_info info;
            w.inside = 1;
            slpi_step_status st = slpi_ref_step(s, x, dW, &info);
            w.inside = 0;
            TEST_CHECKF(st == SLPI_STEP_CONVERGED, "%s step %ld: %s", schemes[k], step, slpi_ref_unable_reason(s));
            TEST_CHECKF(w.calls > before, "%s step %ld: the watch was not called inside the step", schemes[k], step);
            TEST_CHECKF(w.iterations == info.iterations && info.iterations > 0,
                        "%s step %ld: the watch saw %ld iterations, the step reports %d", schemes[k], step,
                        w.iterations, info.iterations);
            TEST_CHECKF(w.prec == info.prec && w.nprec >= 1 && w.precs[0] == p.cert.prec,
                        "%s step %ld: the watch saw %ld bits (first %ld), the step ran at %ld", schemes[k], step,
                        w.prec, w.nprec ? w.precs[0] : -1L, info.prec);
            TEST_CHECKF(w.columns % n == 0, "%s step %ld: %ld Jacobian columns, not a multiple of %d", schemes[k], step,
                        w.columns, n);
            columns += w.columns;
        }
        TEST_CHECKF(w.bad_step == 0 && w.bad_order == 0 && w.outside == 0,
                    "%s: %ld calls with another step's index, %ld with counts going back, %ld outside a step",
                    schemes[k], w.bad_step, w.bad_order, w.outside);
        if (k == 0) /* TMK forms its chord Jacobian by columns in every step */
            TEST_CHECKF(columns >= steps * n, "tmk: %ld Jacobian columns in %ld steps", columns, steps);
        /* no watch, no call */
        slpi_ref_set_watch(s, NULL, &w);
        long before = w.calls;
        slpi_ref_step(s, x, dW, NULL);
        TEST_CHECKF(w.calls == before, "%s: the watch was called after it was removed", schemes[k]);
        _arb_vec_clear(x, n);
        slpi_ref_free(s);
    }

    /* a step that no precision certifies (TMK, whose chord map does not
     * contract at h = 1000): it reports each precision of the ladder, in order */
    slpi_problem p;
    slpi_ref *s = make(&p, "tmk", "1000", "64", "256");
    if (s) {
        int n = slpi_problem_state_dim(&p);
        arb_ptr x = _arb_vec_init(n);
        slpi_error err = { 0, "" };
        TEST_CHECKF(slpi_ref_initial_state(s, x, &err) == SLPI_OK, "%s", err.msg);
        double dW[8] = { 300, -200, 100, 0, 0, 0, 0, 0 };
        seen w;
        memset(&w, 0, sizeof w);
        w.inside = 1;
        slpi_ref_set_watch(s, watch, &w);
        slpi_step_info info;
        slpi_step_status st = slpi_ref_step(s, x, dW, &info);
        TEST_CHECKF(st == SLPI_STEP_UNABLE, "h = 1000: the step was certified (%s); pick a harder one",
                    slpi_step_status_name(st));
        TEST_CHECKF(w.nprec == 3 && w.precs[0] == 64 && w.precs[1] == 128 && w.precs[2] == 256,
                    "h = 1000: the watch saw %d precisions (%ld, %ld, %ld), want 64, 128, 256", w.nprec,
                    w.nprec > 0 ? w.precs[0] : -1L, w.nprec > 1 ? w.precs[1] : -1L, w.nprec > 2 ? w.precs[2] : -1L);
        TEST_CHECKF(w.iterations == info.iterations, "h = 1000: the watch saw %ld iterations, the step reports %d",
                    w.iterations, info.iterations);
        TEST_CHECKF(w.raise_moved == 0, "h = 1000: %ld raises were first seen after work at the new precision",
                    w.raise_moved);
        _arb_vec_clear(x, n);
        slpi_ref_free(s);
    }
    TEST_END();
}
