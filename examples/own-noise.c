/* own-noise.c — a run step by step on your own noise: the stochastic rigid body of
 * Ephrati, Jansson, Lang and Luesink, "An exponential map free implicit midpoint method
 * for stochastic Lie-Poisson systems" (arXiv:2408.16701), ISOMP, with Wiener increments
 * from the caller's generator (here xorshift64 and Box-Muller, so the example needs
 * nothing else).
 * |x| is a Casimir: the scheme keeps it to rounding, whatever the noise.
 *   cc -std=c11 own-noise.c $(pkg-config --cflags --libs slpi) -lm -o own-noise */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <slpi.h>

static uint64_t rng = 42;

static double uniform(void) /* in (0, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return ((double)(rng >> 11) + 0.5) * 0x1p-53;
}

static double normal(void)
{
    return sqrt(-2 * log(uniform())) * cos(6.283185307179586 * uniform());
}

int main(void)
{
    slpi_problem *p = slpi_problem_new("iso/rigid-body/trajectories"); /* opaque: made by the library */
    slpi_error err = { 0 };
    long steps;
    double h;
    if (!p || slpi_problem_set(p, "steps", "2000", &err) || slpi_problem_finish(p, &err) ||
        slpi_problem_shape(p, NULL, NULL, &steps, NULL, &h, NULL)) {
        fprintf(stderr, "own-noise: %s\n", p ? err.msg : slpi_api_last_error());
        return 2;
    }
    slpi_fast *s;
    if (slpi_fast_create(&s, p, &err)) {
        fprintf(stderr, "own-noise: %s\n", err.msg);
        return 2;
    }
    int dim = slpi_problem_state_dim(p), M = slpi_problem_noise_count(p);
    double *x = malloc((size_t)dim * sizeof *x), *dW = malloc((size_t)M * sizeof *dW);
    if (!x || !dW || slpi_fast_initial_state(s, x, &err)) {
        fprintf(stderr, "own-noise: %s\n", x && dW ? err.msg : "out of memory");
        return 2;
    }
    double r0 = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]), drift = 0;
    for (long n = 0; n < steps; n++) {
        for (int k = 0; k < M; k++) dW[k] = sqrt(h) * normal();
        slpi_step_info info;
        slpi_step_status st = slpi_fast_step(s, x, dW, &info);
        if (slpi_step_failed(st)) {
            fprintf(stderr, "own-noise: step %ld: %s, residual %.3g\n", n, slpi_step_status_name(st), info.residual);
            return 3;
        }
        double r = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
        if (fabs(r - r0) > drift) drift = fabs(r - r0);
    }
    printf("own-noise: %ld steps of h = %g, x(T) = (%.6f, %.6f, %.6f), max ||x| - |x0|| = %.2e\n", steps, h, x[0], x[1],
           x[2], drift);
    slpi_fast_free(s);
    slpi_problem_free(p);
    free(x);
    free(dW);
    return drift < 1e-12 ? 0 : 1;
}
