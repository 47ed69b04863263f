/* t-api-observer.c — save times and per-step observers of the handle API (slpi.h:
 * the key save_at, slpi_problem_shape's rows, slpi_stepper_advance with every = 0,
 * slpi_stepper_set_observer; core/rows.c), each computed a second way, bit for bit:
 *   - save_at: the rows slpi_integrate writes are the rows of the same run with every
 *     step written, at the steps of the times given (a random increasing subset of the
 *     grid, written "%.17g" of n h, sometimes with t = 0); slpi_problem_shape counts
 *     them; a stepper advancing in random pieces with every = 0 writes the same rows,
 *     and again once restarted;
 *   - a time off the grid (n h + h/3) is refused naming the grid times n h and (n+1) h;
 *     a decreasing or repeated time, and one past T, are refused naming it;
 *   - an observer sees every step once, in order, with t = step h and the state of that
 *     step (the fast path: the full run's row; the certified path: the midpoints
 *     slpi_stepper_row gives); returning nonzero after step k stops the advance there
 *     (position k, SLPI_OK, the rows of steps <= k), and advancing again finishes the run
 *     with the rows of the uninterrupted one; fn = NULL removes it.
 * Steps, save times and the stopping step vary with the printed seed. */
#include "slpi.h"
#include "testutil.h"

#define DIM 3
#define MAXSTEPS 64

static slpi_problem *problem(long steps, const char *save_at)
{
    slpi_problem *p = slpi_problem_new("iso/rigid-body/trajectories");
    char s[32];
    snprintf(s, sizeof s, "%ld", steps);
    TEST_CHECK(p && slpi_problem_set_key(p, "steps", s) == SLPI_OK);
    if (p && save_at) TEST_CHECKF(slpi_problem_set_key(p, "save_at", save_at) == SLPI_OK, "save_at=%s", save_at);
    return p;
}

/* every step's state: full[(steps + 1) * DIM] */
static void full_run(long steps, double *full)
{
    slpi_problem *p = problem(steps, NULL);
    TEST_CHECK(slpi_integrate(p, full, NULL) == SLPI_OK);
    slpi_problem_free(p);
}

static void check_save_at(long steps, double h)
{
    static double full[(MAXSTEPS + 1) * DIM], one[(MAXSTEPS + 1) * DIM], two[(MAXSTEPS + 1) * DIM];
    full_run(steps, full);
    long at[MAXSTEPS + 1], nat = 0;
    char text[4096] = "";
    size_t len = 0;
    /* each time as one number of docs/conventions.md#numbers: blanks around it allowed,
     * decimal or a hex float (core/parse.c, the one scanner) */
    static const char *const sep[4] = { ",", " , ", ", ", " ," };
    for (long n = test_rand_int(2) ? 0 : 1; n <= steps; n++)
        if (test_rand_int(3) == 0 || n == 0) {
            if (n > 0) at[nat++] = n;
            len += (size_t)snprintf(text + len, sizeof text - len, test_rand_int(2) ? "%s%.17g" : "%s%a",
                                    len ? sep[test_rand_int(4)] : "", (double)n * h);
        }
    if (nat == 0) {
        at[nat++] = steps;
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%.17g", len ? sep[test_rand_int(4)] : "",
                                (double)steps * h);
    }
    slpi_problem *p = problem(steps, text);
    long rows = -1;
    TEST_CHECKF(slpi_problem_shape(p, NULL, NULL, NULL, &rows, NULL, NULL) == SLPI_OK && rows == 1 + nat,
                "save_at=%s: %ld rows, want %ld", text, rows, 1 + nat);
    TEST_CHECKF(slpi_integrate(p, one, NULL) == SLPI_OK, "%s", slpi_api_last_error());
    int same = !memcmp(one, full, DIM * sizeof *one);
    for (long r = 0; r < nat; r++) same &= !memcmp(one + (r + 1) * DIM, full + at[r] * DIM, DIM * sizeof *one);
    TEST_CHECKF(same, "save_at=%s: the rows are not the full run's at those steps", text);
    /* a stepper in random pieces, every = 0: the same rows */
    slpi_stepper *s = NULL;
    TEST_CHECK(slpi_stepper_new(&s, p, 0, NULL, 0) == SLPI_OK);
    long got = 1, r;
    slpi_stepper_row(s, two, NULL, NULL, NULL);
    while (s && slpi_stepper_position(s) < steps) {
        long piece = 1 + test_rand_int(steps - slpi_stepper_position(s));
        TEST_CHECK(slpi_stepper_advance(s, piece, NULL, 0, two + got * DIM, NULL, NULL, NULL, NULL, NULL, &r) ==
                   SLPI_OK);
        got += r;
    }
    TEST_CHECKF(got == rows && !memcmp(one, two, (size_t)rows * DIM * sizeof *one),
                "save_at=%s: the stepper's rows differ", text);
    /* restarted on the same path, in one advance: the same rows again */
    memset(two + DIM, 0, (size_t)(rows - 1) * DIM * sizeof *two);
    TEST_CHECK(slpi_stepper_restart(s, 0) == SLPI_OK &&
               slpi_stepper_advance(s, steps, NULL, 0, two + DIM, NULL, NULL, NULL, NULL, NULL, &r) == SLPI_OK);
    TEST_CHECKF(r == rows - 1 && !memcmp(one, two, (size_t)rows * DIM * sizeof *one),
                "save_at=%s: restarted, the stepper writes %ld rows, not the %ld of the first pass", text, r, rows - 1);
    slpi_stepper_free(s);
    slpi_problem_free(p);
}

static void expect_refused(long steps, const char *save_at, const char *want)
{
    slpi_problem *p = problem(steps, NULL);
    long rows;
    int rc = slpi_problem_set_key(p, "save_at", save_at);
    if (rc == SLPI_OK) rc = slpi_problem_shape(p, NULL, NULL, NULL, &rows, NULL, NULL);
    TEST_CHECKF(rc == SLPI_EINPUT && strstr(slpi_api_last_error(), want), "save_at=%s: rc %d '%s', want '%s'", save_at,
                rc, slpi_api_last_error(), want);
    slpi_problem_free(p);
}

static void check_refusals(long steps, double h)
{
    long n = test_rand_int(steps);
    char t[64], lo[64], hi[64], want[400];
    snprintf(t, sizeof t, "%.17g", (double)n * h + h / 3);
    snprintf(lo, sizeof lo, "%.17g", (double)n * h);
    snprintf(hi, sizeof hi, "%.17g", (double)(n + 1) * h);
    snprintf(want, sizeof want,
             "save_at: t = %s is not on the step grid of h = 0.00390625: the nearest grid times are %s and %s", t, lo,
             hi);
    expect_refused(steps, t, want);
    snprintf(t, sizeof t, "%.17g,%.17g", (double)(n + 1) * h, (double)(n + 1) * h);
    expect_refused(steps, t, "save_at: the times must increase");
    snprintf(t, sizeof t, "%.17g", (double)(steps + 1) * h);
    snprintf(want, sizeof want, "save_at: t = %s is outside the run", t);
    expect_refused(steps, t, want);
    expect_refused(steps, "0.5x", "save_at: '0.5x' (time 1) is not a number");
}

typedef struct {
    const double *full; /* fast: the full run's rows; NULL: compare with the stepper's row */
    slpi_stepper *s;
    double h;
    long calls, stop, bad;
} watch;

static int observer(void *ctx, long step, double t, const double *x, int dim)
{
    watch *w = ctx;
    double row[DIM];
    w->calls++;
    if (w->full)
        memcpy(row, w->full + step * DIM, sizeof row);
    else
        slpi_stepper_row(w->s, row, NULL, NULL, NULL);
    if (dim != DIM || t != (double)step * w->h || memcmp(row, x, sizeof row) != 0) w->bad++;
    return step == w->stop;
}

static void check_observer(long steps, double h, int ref)
{
    static double full[(MAXSTEPS + 1) * DIM], a[(MAXSTEPS + 1) * DIM], b[(MAXSTEPS + 1) * DIM];
    slpi_problem *p = problem(steps, NULL);
    slpi_stepper *s = NULL, *u = NULL;
    TEST_CHECK(slpi_stepper_new(&s, p, ref, NULL, 0) == SLPI_OK && slpi_stepper_new(&u, p, ref, NULL, 0) == SLPI_OK);
    long r1, r2, stop = 1 + test_rand_int(steps);
    TEST_CHECK(slpi_stepper_advance(u, steps, NULL, 1, full + DIM, NULL, NULL, NULL, NULL, NULL, &r1) == SLPI_OK);
    watch w = { ref ? NULL : full, s, h, 0, stop, 0 };
    slpi_stepper_set_observer(s, observer, &w);
    int rc = slpi_stepper_advance(s, steps, NULL, 1, a, NULL, NULL, NULL, NULL, NULL, &r1);
    TEST_CHECKF(rc == SLPI_OK && slpi_stepper_position(s) == stop && r1 == stop && w.calls == stop && w.bad == 0,
                "ref %d, stop at %ld: rc %d, position %ld, %ld rows, %ld calls, %ld wrong", ref, stop, rc,
                slpi_stepper_position(s), r1, w.calls, w.bad);
    /* on to the end: the rows of the uninterrupted advance */
    w.stop = -1;
    rc = slpi_stepper_advance(s, steps - stop, NULL, 1, a + r1 * DIM, NULL, NULL, NULL, NULL, NULL, &r2);
    TEST_CHECKF(rc == SLPI_OK && r1 + r2 == steps && w.calls == steps && w.bad == 0 &&
                    !memcmp(a, full + DIM, (size_t)steps * DIM * sizeof *a),
                "ref %d: the rows after the stop differ", ref);
    /* removed (fn NULL): the stepper restarted runs as one without it */
    slpi_stepper_set_observer(s, NULL, NULL);
    TEST_CHECK(slpi_stepper_restart(s, 0) == SLPI_OK);
    w.stop = 1;
    rc = slpi_stepper_advance(s, steps, NULL, 1, b, NULL, NULL, NULL, NULL, NULL, &r1);
    TEST_CHECKF(rc == SLPI_OK && r1 == steps && w.calls == steps &&
                    !memcmp(b, full + DIM, (size_t)steps * DIM * sizeof *b),
                "ref %d: observer removed: %ld rows, %ld calls", ref, r1, w.calls);
    slpi_stepper_free(s);
    slpi_stepper_free(u);
    slpi_problem_free(p);
}

/* An observer that advances or restarts its own stepper (before, the outer advance's
 * rows did not add up): each call is refused with SLPI_EINPUT naming the observer, and the
 * outer advance writes the rows of an advance without it. */
typedef struct {
    slpi_stepper *s;
    long calls, refused;
} meddler;

static int meddle(void *ctx, long step, double t, const double *x, int dim)
{
    meddler *m = ctx;
    double row[DIM];
    long r;
    (void)step, (void)t, (void)x, (void)dim;
    m->calls++;
    int a = slpi_stepper_advance(m->s, 1, NULL, 1, row, NULL, NULL, NULL, NULL, NULL, &r);
    m->refused += a == SLPI_EINPUT && r == 0 && strstr(slpi_api_last_error(), "own observer");
    int b = m->calls % 2 ? slpi_stepper_restart(m->s, 0) : slpi_stepper_restart_from(m->s, 0, NULL, 0);
    m->refused += b == SLPI_EINPUT && strstr(slpi_api_last_error(), "own observer");
    return 0;
}

static void check_meddling(long steps)
{
    static double full[(MAXSTEPS + 1) * DIM], a[(MAXSTEPS + 1) * DIM];
    slpi_problem *p = problem(steps, NULL);
    slpi_stepper *s = NULL, *u = NULL;
    TEST_CHECK(slpi_stepper_new(&s, p, 0, NULL, 0) == SLPI_OK && slpi_stepper_new(&u, p, 0, NULL, 0) == SLPI_OK);
    long r1, r2;
    TEST_CHECK(slpi_stepper_advance(u, steps, NULL, 1, full, NULL, NULL, NULL, NULL, NULL, &r1) == SLPI_OK);
    meddler m = { s, 0, 0 };
    slpi_stepper_set_observer(s, meddle, &m);
    int rc = slpi_stepper_advance(s, steps, NULL, 1, a, NULL, NULL, NULL, NULL, NULL, &r2);
    TEST_CHECKF(rc == SLPI_OK && r2 == steps && slpi_stepper_position(s) == steps && m.calls == steps &&
                    m.refused == 2 * steps && !memcmp(a, full, (size_t)steps * DIM * sizeof *a),
                "meddling observer: rc %d, %ld rows of %ld, %ld calls, %ld of %ld refused", rc, r2, steps, m.calls,
                m.refused, 2 * steps);
    slpi_stepper_set_observer(s, NULL, NULL);
    TEST_CHECK(slpi_stepper_restart(s, 0) == SLPI_OK); /* outside the observer: as ever */
    slpi_stepper_free(s);
    slpi_stepper_free(u);
    slpi_problem_free(p);
}

int main(void)
{
    test_start("t-api-observer", 44);
    const double h = 0.00390625; /* the preset's step */
    for (int k = 0; k < (int)test_iters(4); k++) {
        long steps = 1 + test_rand_int(MAXSTEPS);
        check_save_at(steps, h);
        check_refusals(steps, h);
        check_observer(steps, h, 0);
        check_meddling(steps);
        if (k == 0) check_observer(1 + test_rand_int(16), h, 1);
    }
    TEST_END();
}
