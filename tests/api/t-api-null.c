/* t-api-null.c — the NULL rules of slpi.h (its conventions block; docs/api.md#reference):
 * every pointer argument a function's comment allows to be NULL, called with NULL, does
 * what the comment says, checked against the same call with the argument given (the
 * same quantity two ways) or against the documented effect. NULL_CASE(function,
 * parameter) marks each case; tests/api/t-api-doc.sh checks that the cases are exactly the
 * (function, parameter) pairs slpi.h's NULL tags name, so a new NULL rule without its
 * case, or a case of a rule slpi.h no longer states, fails `make check`. */
#include <string.h>

#include "core/problem-struct.h"
#include "slpi.h"
#include "testutil.h"
#include "core/progress.h"

#define NULL_CASE(fn, param) /* a case of the rule "fn: NULL: param" */

static long observed; /* steps count_steps saw */

static int count_steps(void *ctx, long step, double t, const double *x, int dim)
{
    (void)t, (void)x, (void)dim;
    observed += ctx == NULL && step == observed + 1;
    return 0;
}

static slpi_problem *problem(const char *preset, const char *steps)
{
    slpi_problem *p = slpi_problem_new(preset);
    TEST_CHECK(p != NULL);
    if (p && steps) TEST_CHECK(slpi_problem_set_key(p, "steps", steps) == SLPI_OK);
    return p;
}

static void errors_and_registry(void)
{
    NULL_CASE(slpi_error_set, err)
    TEST_CHECK(slpi_error_set(NULL, SLPI_ENUMERIC, "step %d", 3) == SLPI_ENUMERIC);

    NULL_CASE(slpi_registry_pair, reason)
    const char *why = NULL;
    for (int s = 0; s < SLPI_SYS_COUNT; s++)
        for (int k = 0; k < SLPI_SCHEME_COUNT; k++)
            TEST_CHECK(slpi_registry_pair(s, k, NULL) == slpi_registry_pair(s, k, &why));

    NULL_CASE(slpi_problem_le_consistent, why)
    slpi_problem p;
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_RKMK_LE);
    TEST_CHECK(slpi_problem_le_consistent(&p, NULL) == slpi_problem_le_consistent(&p, &why));
    slpi_problem_init(&p, SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_RKMK_LE);
    TEST_CHECK(slpi_problem_le_consistent(&p, NULL) == slpi_problem_le_consistent(&p, &why));
}

static void problems(void)
{
    slpi_error err = { 0, "" };
    slpi_problem a, b;
    char *keys[] = { "steps", "h" }, *vals[] = { "7", "0.125" };

    NULL_CASE(slpi_problem_set_all, where)
    slpi_problem_init(&a, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_set_all(&a, 2, keys, vals, NULL, &err) == SLPI_OK && a.grid.steps == 7 &&
               a.grid.h == 0.125);
    char *bad[] = { "tol" }, *badv[] = { "abc" };
    TEST_CHECKF(slpi_problem_set_all(&a, 1, bad, badv, NULL, &err) == SLPI_EINPUT && strstr(err.msg, "tol"), "%s",
                err.msg);

    NULL_CASE(slpi_problem_build, preset)
    NULL_CASE(slpi_problem_build, config)
    NULL_CASE(slpi_problem_build, where)
    TEST_CHECK(slpi_problem_build(&a, NULL, NULL, 2, keys, vals, NULL, &err) == SLPI_OK);
    slpi_problem_init(&b, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_set_all(&b, 2, keys, vals, NULL, &err) == SLPI_OK);
    TEST_CHECK(memcmp(&a, &b, sizeof a) == 0); /* no preset, no file: the defaults and the keys */
    NULL_CASE(slpi_problem_build, keys)
    NULL_CASE(slpi_problem_build, values)
    TEST_CHECK(slpi_problem_build(&a, "iso/rigid-body/long", NULL, 0, NULL, NULL, NULL, &err) == SLPI_OK);
    slpi_problem_init(&b, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_preset(&b, "iso/rigid-body/long", &err) == SLPI_OK && memcmp(&a, &b, sizeof a) == 0);

    NULL_CASE(slpi_problem_text, buf)
    slpi_problem *p = problem("iso/rigid-body/long", NULL);
    long need = slpi_problem_text(p, NULL, 0);
    char text[8192];
    TEST_CHECK(need > 0 && need < (long)sizeof text && slpi_problem_text(p, text, sizeof text) == need &&
               (long)strlen(text) == need);

    /* slpi_problem_get_key: each key's line of slpi_problem_text, read there a second way */
    NULL_CASE(slpi_problem_get_key, buf)
    const char *want[] = { "system", "scheme", "inertia", "h", "steps", "seed", "prec" };
    char lines[8200], inertia[256];
    snprintf(lines, sizeof lines, "\n%s", text);
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        char line[256], value[256];
        const char *at = strstr(lines, (snprintf(line, sizeof line, "\n%s=", want[i]), line));
        long len = slpi_problem_get_key(p, want[i], NULL, 0);
        TEST_CHECKF(at && len == (long)strcspn(at + strlen(line), "\n") &&
                        slpi_problem_get_key(p, want[i], value, sizeof value) == len &&
                        strncmp(value, at + strlen(line), (size_t)len) == 0 && value[len] == 0,
                    "%s: %ld", want[i], len);
    }
    char small[4];
    TEST_CHECK(slpi_problem_get_key(p, "inertia", small, sizeof small) > 3 && strlen(small) == 3);
    TEST_CHECK(slpi_problem_get_key(p, "N", small, sizeof small) == 0 && small[0] == 0); /* another system's key */
    TEST_CHECKF(slpi_problem_get_key(p, "inertai", small, sizeof small) == -1 &&
                    strstr(slpi_api_last_error(), "inertai: unknown key"),
                "%s", slpi_api_last_error());
    TEST_CHECK(slpi_problem_get_key(p, "inertia", inertia, sizeof inertia) > 0 &&
               slpi_problem_set_key(p, "inertia", "3,2,0x1p-1") == SLPI_OK &&
               slpi_problem_get_key(p, "inertia", small, sizeof small) == 7 && strcmp(small, "3,2") == 0 &&
               slpi_problem_set_key(p, "inertia", inertia) == SLPI_OK);

    NULL_CASE(slpi_problem_shape, dim)
    NULL_CASE(slpi_problem_shape, noises)
    NULL_CASE(slpi_problem_shape, steps)
    NULL_CASE(slpi_problem_shape, rows)
    NULL_CASE(slpi_problem_shape, h)
    NULL_CASE(slpi_problem_shape, every)
    int dim, M, every;
    long steps, rows;
    double h;
    TEST_CHECK(slpi_problem_shape(p, &dim, &M, &steps, &rows, &h, &every) == SLPI_OK);
    TEST_CHECK(slpi_problem_shape(p, NULL, NULL, NULL, NULL, NULL, NULL) == SLPI_OK);
    int d1 = -1, M1 = -1, e1 = -1;
    long s1 = -1, r1 = -1;
    double h1 = -1;
    TEST_CHECK(slpi_problem_shape(p, &d1, NULL, &s1, NULL, &h1, NULL) == SLPI_OK && d1 == dim && s1 == steps &&
               h1 == h);
    NULL_CASE(slpi_problem_increments, clipped)
    double inc[6], inc1[6];
    long clipped = -1;
    TEST_CHECK(slpi_problem_increments(p, 1, 2, inc, &clipped) == SLPI_OK && clipped >= 0);
    TEST_CHECK(slpi_problem_increments(p, 1, 2, inc1, NULL) == SLPI_OK && memcmp(inc, inc1, sizeof inc) == 0);
    TEST_CHECK(slpi_problem_shape(p, NULL, &M1, NULL, &r1, NULL, &e1) == SLPI_OK && M1 == M && r1 == rows &&
               e1 == every);

    NULL_CASE(slpi_problem_new, preset)
    slpi_problem *q = slpi_problem_new(NULL), *r = slpi_problem_new("");
    TEST_CHECK(q && r && memcmp(q, r, sizeof *q) == 0 && q->sys.system == SLPI_SYS_RIGID_BODY &&
               q->sch.scheme == SLPI_SCHEME_ISOMP);

    NULL_CASE(slpi_problem_free, p)
    slpi_problem_free(NULL);
    slpi_problem_free(q);
    slpi_problem_free(r);
    slpi_problem_free(p);
}

static int grad(double *dH, const double *mu, int dim, void *u)
{
    for (int i = 0; i < dim; i++) dH[i] = mu[i] * (u ? *(double *)u : 0.5);
    return 0;
}

static int hvp(double *Hw, const double *mu, const double *w, int dim, void *u)
{
    (void)mu;
    for (int i = 0; i < dim; i++) Hw[i] = w[i] * (u ? *(double *)u : 0.5);
    return 0;
}

static void callbacks(void)
{
    NULL_CASE(slpi_problem_set_callback, energy)
    NULL_CASE(slpi_problem_set_callback, user_data)
    /* H = |mu|^2 / 4 given as code without energy and user data, and with the user data
     * that gives the same H: the same steps (the noise 0.1 x1 turns x off x0) */
    slpi_error err = { 0, "" };
    double half = 0.5, x[2][3];
    for (int w = 0; w < 2; w++) {
        slpi_problem *p = problem(NULL, NULL);
        TEST_CHECK(slpi_problem_set_key(p, "system", "model") == SLPI_OK &&
                   slpi_problem_set_key(p, "algebra", "so3") == SLPI_OK);
        TEST_CHECK(slpi_problem_set_key(p, "steps", "5") == SLPI_OK);
        TEST_CHECK(slpi_problem_set_key(p, "x0", "0.6,0,0.8") == SLPI_OK);
        TEST_CHECKF(slpi_problem_set_callback(p, 0, grad, hvp, NULL, w ? &half : NULL, &err) == SLPI_OK, "%s", err.msg);
        TEST_CHECKF(slpi_problem_set_key(p, "noise_H1", "0.1*x1") == SLPI_OK, "%s", slpi_api_last_error());
        long rows = 0;
        int dim = 0;
        TEST_CHECK(slpi_problem_shape(p, &dim, NULL, NULL, &rows, NULL, NULL) == SLPI_OK && dim == 3);
        double st[64 * 3];
        TEST_CHECKF(rows <= 64 && slpi_integrate(p, st, NULL) == SLPI_OK, "%s", slpi_api_last_error());
        memcpy(x[w], st + (rows - 1) * 3, sizeof x[w]);
        slpi_problem_free(p);
    }
    TEST_CHECKF(memcmp(x[0], x[1], sizeof x[0]) == 0 && x[0][1] != 0, "%.17g %.17g %.17g / %.17g %.17g %.17g", x[0][0],
                x[0][1], x[0][2], x[1][0], x[1][1], x[1][2]);
}

static void noise(void)
{
    slpi_error err = { 0, "" };
    NULL_CASE(slpi_noise_increments, out)
    TEST_CHECK(slpi_noise_increments(1, 2, 0, 0.01, 0, 0, 0, NULL, &err) == SLPI_OK);
    NULL_CASE(slpi_noise_increments, err)
    double a[4], b[4];
    TEST_CHECK(slpi_noise_increments(1, 2, 0, 0.01, 1, 3, 4, a, NULL) == SLPI_OK);
    TEST_CHECK(slpi_noise_increments(1, 2, 0, 0.01, 1, 3, 4, b, &err) == SLPI_OK && memcmp(a, b, sizeof a) == 0);
    TEST_CHECK(slpi_noise_increments(1, 2, 0, -1.0, 0, 0, 4, a, NULL) == SLPI_EINPUT && memcmp(a, b, sizeof a) == 0);
    NULL_CASE(slpi_noise_check_work, err)
    TEST_CHECK(slpi_noise_check_work(4, 30, NULL) == SLPI_OK && slpi_noise_check_work(5, 36, NULL) == SLPI_EINPUT);
}

static void outputs_and_runs(void)
{
    slpi_error err = { 0, "" };
    NULL_CASE(slpi_output_open, path)
    slpi_output *o = NULL;
    TEST_CHECK(slpi_output_open(&o, NULL, SLPI_OUTPUT_REPLACE, &err) == SLPI_OK && slpi_output_file(o) == stdout);
    TEST_CHECK(slpi_output_commit(o, &err) == SLPI_OK);
    NULL_CASE(slpi_output_abort, o)
    slpi_output_abort(NULL);

    NULL_CASE(slpi_run, out)
    NULL_CASE(slpi_run, summary)
    NULL_CASE(slpi_run_checkpointed, out)
    NULL_CASE(slpi_run_checkpointed, summary)
    NULL_CASE(slpi_run_checkpointed, ck)
    NULL_CASE(slpi_run_plan, out)
    NULL_CASE(slpi_run_plan, summary)
    NULL_CASE(slpi_run_plan, ck)
    /* the result of a run without rows or summary is that of a run with both */
    slpi_problem p;
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_preset(&p, "iso/rigid-body/trajectories", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_set(&p, "steps", "20", &err) == SLPI_OK && slpi_problem_finish(&p, &err) == SLPI_OK);
    slpi_run_result r0, r1, r2, r3;
    slpi_plan *plan = NULL;
    TEST_CHECK(slpi_problem_plan(&plan, &p, &err) == SLPI_OK);
    FILE *sink = fopen("/dev/null", "w");
    TEST_CHECK(sink != NULL);
    TEST_CHECK(slpi_run(&p, slpi_fast_path(), sink, 0, sink, &r0, &err) == SLPI_OK);
    TEST_CHECK(slpi_run(&p, slpi_fast_path(), NULL, 0, NULL, &r1, &err) == SLPI_OK);
    TEST_CHECK(slpi_run_checkpointed(&p, slpi_fast_path(), NULL, 0, NULL, NULL, &r2, &err) == SLPI_OK);
    TEST_CHECK(plan && slpi_run_plan(plan, slpi_fast_path(), NULL, 0, NULL, NULL, &r3, &err) == SLPI_OK);
    slpi_plan_unref(plan);
    fclose(sink);
    for (const slpi_run_result *r = &r1; r; r = r == &r1 ? &r2 : r == &r2 ? &r3 : NULL)
        TEST_CHECK(r->steps_done == 20 && r->ndiag == r0.ndiag &&
                   memcmp(r->diag_final, r0.diag_final, sizeof r0.diag_final) == 0);

    /* the progress line (core/progress.h, private to the library and the command): every
     * call but begin takes NULL (nothing to show) */
    slpi_progress_add(NULL, 1);
    slpi_progress_set(NULL, 2);
    slpi_progress_within(NULL, "in step %d", 3);
    slpi_progress_end(NULL);
    slpi_progress_current(NULL);
    slpi_progress_tick("su(%d) tables", 4); /* no current line: the tick does nothing */
}

static void paths(void)
{
    slpi_error err = { 0, "" };
    slpi_problem p;
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_preset(&p, "iso/rigid-body/trajectories", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_set(&p, "warm_start", "1", &err) == SLPI_OK && slpi_problem_finish(&p, &err) == SLPI_OK);
    slpi_fast *f = NULL;
    TEST_CHECKF(slpi_fast_create(&f, &p, &err) == SLPI_OK, "%s", err.msg);
    double x[3], x0[3], dW[3] = { 0.01, -0.02, 0.005 }, buf[64];
    TEST_CHECK(slpi_fast_initial_state(f, x0, &err) == SLPI_OK);
    memcpy(x, x0, sizeof x);
    slpi_step_info info;
    TEST_CHECK(!slpi_step_failed(slpi_fast_step(f, x, dW, &info)));

    NULL_CASE(slpi_fast_carry_get, buf)
    int n = slpi_fast_carry_get(f, NULL);
    TEST_CHECK(n > 0 && n <= 64 && slpi_fast_carry_get(f, buf) == n);

    NULL_CASE(slpi_fast_diagnostics, x0)
    slpi_diag d0 = { 0 }, d1 = { 0 };
    slpi_fast_diagnostics(f, x, NULL, &d0);
    slpi_fast_diagnostics(f, x, x0, &d1);
    /* without x0: the entries of the full list but the departures from x0 */
    TEST_CHECK(d0.n > 0 && d0.n < d1.n);
    for (int i = 0; i < d0.n; i++) {
        int j = 0;
        while (j < d1.n && strcmp(d0.name[i], d1.name[j]) != 0) j++;
        TEST_CHECKF(j < d1.n && d0.value[i] == d1.value[j], "%s", d0.name[i]);
    }
    /* the fields: either output left out, the other the same */
    NULL_CASE(slpi_fast_fields, xi)
    NULL_CASE(slpi_fast_fields, V)
    double xi[4 * 3], V[4 * 3], xi1[4 * 3], V1[4 * 3];
    int dim = slpi_fast_fields(f, xi, V, x);
    TEST_CHECK(dim == 3 && slpi_fast_fields(f, NULL, V1, x) == dim && slpi_fast_fields(f, xi1, NULL, x) == dim);
    TEST_CHECK(memcmp(V, V1, sizeof V) == 0 && memcmp(xi, xi1, sizeof xi) == 0);
    slpi_fast_free(f);

    NULL_CASE(slpi_ref_diagnostics, x0)
    slpi_ref *s = NULL;
    TEST_CHECKF(slpi_ref_create(&s, &p, &err) == SLPI_OK, "%s", err.msg);
    arb_ptr bx = _arb_vec_init(3), bx0 = _arb_vec_init(3);
    TEST_CHECK(slpi_ref_initial_state(s, bx0, &err) == SLPI_OK);
    _arb_vec_set(bx, bx0, 3);
    TEST_CHECK(!slpi_step_failed(slpi_ref_step(s, bx, dW, &info)));
    slpi_ref_diag r0, r1;
    slpi_ref_diag_init(&r0);
    slpi_ref_diag_init(&r1);
    slpi_ref_diagnostics(s, bx, NULL, &r0);
    slpi_ref_diagnostics(s, bx, bx0, &r1);
    TEST_CHECK(r0.n > 0 && r0.n < r1.n);
    for (int i = 0; i < r0.n; i++) {
        int j = 0;
        while (j < r1.n && strcmp(r0.name[i], r1.name[j]) != 0) j++;
        TEST_CHECKF(j < r1.n && arb_equal(r0.value + i, r1.value + j), "%s", r0.name[i]);
    }
    slpi_ref_diag_clear(&r0);
    slpi_ref_diag_clear(&r1);

    NULL_CASE(slpi_ref_set_watch, fn)
    NULL_CASE(slpi_ref_set_watch, ctx)
    slpi_ref_set_watch(s, NULL, NULL);
    TEST_CHECK(!slpi_step_failed(slpi_ref_step(s, bx, dW, &info)));
    _arb_vec_clear(bx, 3);
    _arb_vec_clear(bx0, 3);
    slpi_ref_free(s);
}

static void steppers(void)
{
    slpi_problem *p = problem("iso/rigid-body/trajectories", "12");
    NULL_CASE(slpi_integrate, counters)
    double a[13 * 3], b[13 * 3];
    long counters[SLPI_FAST_NCOUNTERS];
    TEST_CHECK(slpi_integrate(p, a, NULL) == SLPI_OK && slpi_integrate(p, b, counters) == SLPI_OK);
    TEST_CHECK(memcmp(a, b, sizeof a) == 0 && counters[0] == 12);

    NULL_CASE(slpi_stepper_new, x0)
    slpi_stepper *s = NULL, *t = NULL;
    TEST_CHECK(slpi_stepper_new(&s, p, 0, NULL, 0) == SLPI_OK && slpi_stepper_new(&t, p, 0, a, 3) == SLPI_OK);

    NULL_CASE(slpi_stepper_shape, dim)
    NULL_CASE(slpi_stepper_shape, noises)
    NULL_CASE(slpi_stepper_shape, ndiag)
    NULL_CASE(slpi_stepper_shape, steps)
    NULL_CASE(slpi_stepper_shape, h)
    int dim, M, nd, d1 = -1, M1 = -1, nd1 = -1;
    long steps, s1 = -1;
    double h, h1 = -1;
    slpi_stepper_shape(s, &dim, &M, &nd, &steps, &h);
    slpi_stepper_shape(s, NULL, NULL, NULL, NULL, NULL);
    slpi_stepper_shape(s, &d1, NULL, &nd1, NULL, &h1);
    slpi_stepper_shape(s, NULL, &M1, NULL, &s1, NULL);
    TEST_CHECK(dim == 3 && d1 == dim && M1 == M && nd1 == nd && s1 == steps && h1 == h && steps == 12);

    NULL_CASE(slpi_stepper_row_steps, steps)
    long at[13];
    TEST_CHECK(slpi_stepper_row_steps(s, 0, NULL) == 13 && slpi_stepper_row_steps(s, 5, at) == 4 && at[3] == 12 &&
               slpi_stepper_row_steps(s, -1, NULL) == -1);

    NULL_CASE(slpi_stepper_save, buf)
    long ckpt = slpi_stepper_save(s, NULL, 0);
    char *ckpt_text = malloc((size_t)(ckpt > 0 ? ckpt : 0) + 1);
    TEST_CHECK(ckpt > 0 && ckpt_text && slpi_stepper_save(s, ckpt_text, (size_t)ckpt + 1) == ckpt &&
               slpi_stepper_load(s, ckpt_text) == SLPI_OK);
    free(ckpt_text);

    NULL_CASE(slpi_stepper_advance, dW)
    NULL_CASE(slpi_stepper_advance, xrad)
    NULL_CASE(slpi_stepper_advance, diag)
    NULL_CASE(slpi_stepper_advance, drad)
    NULL_CASE(slpi_stepper_advance, iters)
    NULL_CASE(slpi_stepper_advance, resid)
    /* the noise's rows, all outputs off, against slpi_integrate's rows */
    double x[12 * 3];
    long rows = 0;
    TEST_CHECK(slpi_stepper_advance(s, 12, NULL, 1, x, NULL, NULL, NULL, NULL, NULL, &rows) == SLPI_OK && rows == 12);
    TEST_CHECK(memcmp(x, a + 3, sizeof x) == 0);
    /* the stepper from a's initial row, all outputs on: the same states */
    double xr[12 * 3], dg[12 * 64], dr[12 * 64], res[12];
    int it[12];
    TEST_CHECK(nd <= 64 && slpi_stepper_advance(t, 12, NULL, 1, x, xr, dg, dr, it, res, &rows) == SLPI_OK &&
               rows == 12);
    TEST_CHECK(memcmp(x, a + 3, sizeof x) == 0);

    NULL_CASE(slpi_stepper_set_observer, fn)
    NULL_CASE(slpi_stepper_set_observer, ctx)
    /* an observer with ctx NULL sees each step; fn NULL removes it: then no call */
    slpi_stepper *o = NULL;
    double z[12 * 3];
    observed = 0;
    TEST_CHECK(slpi_stepper_new(&o, p, 0, NULL, 0) == SLPI_OK);
    slpi_stepper_set_observer(o, count_steps, NULL);
    TEST_CHECK(slpi_stepper_advance(o, 5, NULL, 1, z, NULL, NULL, NULL, NULL, NULL, &rows) == SLPI_OK && observed == 5);
    slpi_stepper_set_observer(o, NULL, NULL);
    TEST_CHECK(slpi_stepper_advance(o, 7, NULL, 1, z + 15, NULL, NULL, NULL, NULL, NULL, &rows) == SLPI_OK &&
               observed == 5);
    TEST_CHECK(memcmp(z, a + 3, sizeof z) == 0);
    slpi_stepper_free(o);

    NULL_CASE(slpi_stepper_row, xrad)
    NULL_CASE(slpi_stepper_row, diag)
    NULL_CASE(slpi_stepper_row, drad)
    double y[3], yd[64];
    slpi_stepper_row(s, y, NULL, NULL, NULL);
    TEST_CHECK(memcmp(y, a + 36, sizeof y) == 0);
    slpi_stepper_row(t, y, xr, yd, dr);
    TEST_CHECK(memcmp(y, a + 36, sizeof y) == 0 && memcmp(yd, dg + 11 * nd, (size_t)nd * sizeof *yd) == 0);

    NULL_CASE(slpi_stepper_restart_from, x0)
    TEST_CHECK(slpi_stepper_restart_from(t, 0, NULL, 0) == SLPI_OK); /* back to t's own x0, a's first row */
    slpi_stepper_row(t, y, NULL, NULL, NULL);
    TEST_CHECK(memcmp(y, a, sizeof y) == 0);

    NULL_CASE(slpi_stepper_free, s)
    slpi_stepper_free(NULL);
    slpi_stepper_free(s);
    slpi_stepper_free(t);
    slpi_problem_free(p);
}

static void ensembles(void)
{
    slpi_problem *p = problem("iso/rigid-body/trajectories", "12");
    double a[13 * 3];
    TEST_CHECK(slpi_integrate(p, a, NULL) == SLPI_OK);
    slpi_ensemble *e = NULL, *f = NULL;
    TEST_CHECK(slpi_ensemble_new(&e, p, 0, 0, 1, 1) == SLPI_OK && slpi_ensemble_new(&f, p, 0, 0, 1, 1) == SLPI_OK);

    NULL_CASE(slpi_ensemble_shape, dim)
    NULL_CASE(slpi_ensemble_shape, noises)
    NULL_CASE(slpi_ensemble_shape, ndiag)
    NULL_CASE(slpi_ensemble_shape, steps)
    NULL_CASE(slpi_ensemble_shape, rows)
    int dim, M, nd, d1 = -1, M1 = -1, nd1 = -1;
    long steps, rows, s1 = -1, r1 = -1;
    slpi_ensemble_shape(e, &dim, &M, &nd, &steps, &rows);
    slpi_ensemble_shape(e, NULL, NULL, NULL, NULL, NULL);
    slpi_ensemble_shape(e, &d1, NULL, &nd1, NULL, &r1);
    slpi_ensemble_shape(e, NULL, &M1, NULL, &s1, NULL);
    TEST_CHECK(dim == 3 && d1 == dim && M1 == M && nd1 == nd && s1 == steps && r1 == rows && rows == 13 && nd <= 64);

    NULL_CASE(slpi_ensemble_run, x0)
    NULL_CASE(slpi_ensemble_run, dW)
    NULL_CASE(slpi_ensemble_run, x)
    NULL_CASE(slpi_ensemble_run, xrad)
    NULL_CASE(slpi_ensemble_run, diag)
    NULL_CASE(slpi_ensemble_run, drad)
    /* one path of the problem's state and noise, nothing kept, against all kept */
    double x[13 * 3], xr[13 * 3], dg[13 * 64], dr[13 * 64];
    TEST_CHECK(slpi_ensemble_run(e, 1, NULL, NULL, NULL, NULL, NULL, NULL) == SLPI_OK);
    TEST_CHECK(slpi_ensemble_run(f, 1, a, NULL, x, xr, dg, dr) == SLPI_OK && memcmp(x, a, sizeof x) == 0);

    NULL_CASE(slpi_ensemble_counts, clipped)
    NULL_CASE(slpi_ensemble_counts, capped)
    long cl = -1, cp = -1, cl1 = -1, cp1 = -1;
    slpi_ensemble_counts(e, &cl, &cp);
    slpi_ensemble_counts(e, NULL, NULL);
    slpi_ensemble_counts(e, &cl1, NULL);
    slpi_ensemble_counts(e, NULL, &cp1);
    TEST_CHECK(cl >= 0 && cp >= 0 && cl1 == cl && cp1 == cp);

    NULL_CASE(slpi_ensemble_stats, mean)
    NULL_CASE(slpi_ensemble_stats, var)
    NULL_CASE(slpi_ensemble_stats, min)
    NULL_CASE(slpi_ensemble_stats, max)
    NULL_CASE(slpi_ensemble_stats, rad)
    double m[13 * 67], lo[13 * 67], m1[13 * 67];
    TEST_CHECK(slpi_ensemble_stats(e, NULL, NULL, NULL, NULL, NULL) == 1);
    TEST_CHECK(slpi_ensemble_stats(e, m, NULL, lo, NULL, NULL) == 1 &&
               slpi_ensemble_stats(f, m1, NULL, NULL, NULL, NULL) == 1);
    TEST_CHECK(memcmp(m, m1, (size_t)(rows * (dim + nd)) * sizeof *m) == 0 &&
               memcmp(m, lo, (size_t)(rows * (dim + nd)) * sizeof *m) == 0);

    NULL_CASE(slpi_ensemble_export, buf)
    long len = slpi_ensemble_export(e, NULL);
    double *st = malloc((size_t)len * sizeof *st);
    TEST_CHECK(st && slpi_ensemble_export(e, st) == len && len > 2);
    free(st);

    NULL_CASE(slpi_ensemble_free, e)
    slpi_ensemble_free(NULL);
    slpi_ensemble_free(e);
    slpi_ensemble_free(f);
    slpi_problem_free(p);
}

/* A plan's shape against the problem's (the same numbers two ways), each output NULL in turn. */
static void plans(void)
{
    NULL_CASE(slpi_plan_unref, plan)
    slpi_plan_unref(NULL);
    slpi_error err = { 0, "" };
    slpi_problem *p = problem("iso/rigid-body/long", "9");
    slpi_plan *plan = NULL;
    TEST_CHECKF(p && slpi_problem_plan(&plan, p, &err) == SLPI_OK, "%s", err.msg);
    if (!plan) {
        slpi_problem_free(p);
        return;
    }
    int dim, noises, every, d2, n2, e2;
    long steps, rows, s2, r2;
    double h, h2;
    TEST_CHECK(slpi_problem_shape(p, &dim, &noises, &steps, &rows, &h, &every) == SLPI_OK);
    NULL_CASE(slpi_plan_shape, dim)
    NULL_CASE(slpi_plan_shape, noises)
    NULL_CASE(slpi_plan_shape, steps)
    NULL_CASE(slpi_plan_shape, rows)
    NULL_CASE(slpi_plan_shape, h)
    NULL_CASE(slpi_plan_shape, every)
    for (int k = 0; k <= 6; k++) { /* k < 6: output k not asked; 6: all asked */
        d2 = n2 = e2 = -1;
        s2 = r2 = -1;
        h2 = -1;
        slpi_plan_shape(plan, k == 0 ? NULL : &d2, k == 1 ? NULL : &n2, k == 2 ? NULL : &s2, k == 3 ? NULL : &r2,
                        k == 4 ? NULL : &h2, k == 5 ? NULL : &e2);
        TEST_CHECKF((k == 0 ? d2 == -1 : d2 == dim) && (k == 1 ? n2 == -1 : n2 == noises) &&
                        (k == 2 ? s2 == -1 : s2 == steps) && (k == 3 ? r2 == -1 : r2 == rows) &&
                        (k == 4 ? h2 == -1 : h2 == h) && (k == 5 ? e2 == -1 : e2 == every),
                    "slpi_plan_shape with output %d NULL differs from slpi_problem_shape", k);
    }
    slpi_plan_unref(plan);
    slpi_problem_free(p);
}

/* The checkpoint container: its length asked with buf NULL is the length it writes; the
 * text reads back section for section (the same text two ways); free(NULL) does nothing. */
static void containers(void)
{
    const char *names[2] = { "meta", "array.x" }, *texts[2] = { "{}\n", "dtype <f8\nshape 1\ndata 000000000000f03f\n" };
    NULL_CASE(slpi_container_format, buf)
    long n = slpi_container_format(NULL, 0, "slpi-test", 1, 2, names, texts);
    char *buf = malloc((size_t)(n > 0 ? n : 0) + 1);
    TEST_CHECK(n > 0 && buf && slpi_container_format(buf, (size_t)n + 1, "slpi-test", 1, 2, names, texts) == n &&
               strlen(buf) == (size_t)n);
    slpi_container *c = NULL;
    int same =
        buf && slpi_container_parse(&c, "t", buf, (size_t)n, "slpi-test", 1) == SLPI_OK && slpi_container_count(c) == 2;
    for (int i = 0; same && i < 2; i++) {
        const char *name, *text;
        size_t len;
        same = slpi_container_section(c, i, &name, &text, &len) == SLPI_OK && !strcmp(name, names[i]) &&
            len == strlen(texts[i]) && !memcmp(text, texts[i], len);
    }
    TEST_CHECK(same);
    const char *name, *text;
    size_t len;
    TEST_CHECK(c && slpi_container_section(c, 2, &name, &text, &len) == SLPI_EINPUT);
    NULL_CASE(slpi_container_free, c)
    slpi_container_free(NULL);
    slpi_container_free(c);
    free(buf);
}

int main(void)
{
    test_start("t-api-null", 1);
    containers();
    plans();
    errors_and_registry();
    problems();
    callbacks();
    noise();
    outputs_and_runs();
    paths();
    steppers();
    ensembles();
    TEST_END();
}
