/* bench-observer.c — the cost of a per-step observer (slpi_stepper_set_observer): a
 * stepper of the rigid-body ISOMP preset (fast path, canonical noise, one row at the end)
 * advances STEPS steps without an observer, with an observer that does nothing, and with
 * one that reads the state (sums it); each case the best of REPEATS rounds, the cases
 * interleaved within each round so that the machine's load falls on all alike. Prints
 * ns per step (process CPU time) and the ratios to the run without an observer, measured
 * in this run. Without one, the stepper's loop tests one pointer per step: the first
 * ratio is the cost of calling an empty function, the second of looking at the state. */
#include <stdio.h>
#include "slpi.h"
#include "benchutil.h"

#define STEPS 200000
#define REPEATS 5

static int nothing(void *ctx, long step, double t, const double *x, int dim)
{
    (void)ctx, (void)step, (void)t, (void)x, (void)dim;
    return 0;
}

static int sum_state(void *ctx, long step, double t, const double *x, int dim)
{
    double *acc = ctx;
    (void)step, (void)t;
    for (int i = 0; i < dim; i++) *acc += x[i];
    return 0;
}

/* CPU ns per step of one advance over the whole run with observer fn (NULL: none) */
static double timed(slpi_stepper *s, slpi_observer fn, void *ctx, double *final)
{
    long rows;
    slpi_stepper_restart(s, 0);
    slpi_stepper_set_observer(s, fn, ctx);
    double t0 = bench_cpu();
    if (slpi_stepper_advance(s, STEPS, NULL, STEPS, final, NULL, NULL, NULL, NULL, NULL, &rows) != SLPI_OK) {
        fprintf(stderr, "bench-observer: %s\n", slpi_api_last_error());
        return -1;
    }
    return 1e9 * (bench_cpu() - t0) / STEPS;
}

int main(void)
{
    slpi_problem *p = slpi_problem_new("iso/rigid-body/trajectories");
    slpi_stepper *s = NULL;
    char steps[32];
    snprintf(steps, sizeof steps, "%d", STEPS);
    if (!p || slpi_problem_set_key(p, "steps", steps) != SLPI_OK || slpi_stepper_new(&s, p, 0, NULL, 0) != SLPI_OK) {
        fprintf(stderr, "bench-observer: %s\n", slpi_api_last_error());
        return 1;
    }
    static const char *const name[3] = { "no observer", "empty observer", "observer summing x" };
    double best[3] = { 1e300, 1e300, 1e300 }, x[3][3], acc = 0;
    for (int r = 0; r < REPEATS; r++)
        for (int k = 0; k < 3; k++) {
            double t = timed(s, k == 0 ? NULL : k == 1 ? nothing : sum_state, &acc, x[k]);
            if (t < 0) return 1;
            if (t < best[k]) best[k] = t;
        }
    printf("bench-observer: rigid-body ISOMP (fast path), %d steps, best of %d, process CPU time\n", STEPS, REPEATS);
    for (int k = 0; k < 3; k++)
        printf("  %-20s %8.1f ns/step   ratio to no observer %.3f%s\n", name[k], best[k], best[k] / best[0],
               k && (x[k][0] != x[0][0] || x[k][1] != x[0][1] || x[k][2] != x[0][2]) ? "  (final state DIFFERS)" : "");
    printf("  (sum of the states seen: %.6g)\n", acc);
    slpi_stepper_free(s);
    slpi_problem_free(p);
    return 0;
}
