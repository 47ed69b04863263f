/* ensemble.c — an ensemble through the handle API (the one python/slpi uses): the mean
 * energy H0 at T of the stochastic rigid body over many noise paths, with its standard
 * error. Each path restarts one stepper; path r's noise is the canonical path r, so the
 * numbers are those of `slpi run ... path=r`.
 *   cc -std=c11 ensemble.c $(pkg-config --cflags --libs slpi) -lm -o ensemble */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slpi.h>

int main(int argc, char **argv)
{
    long paths = argc > 1 ? atol(argv[1]) : 200;
    slpi_problem *p = slpi_problem_new("iso/rigid-body/trajectories");
    slpi_stepper *s = NULL;
    if (!p || slpi_problem_set_key(p, "steps", "256") || slpi_stepper_new(&s, p, 0, NULL, 0)) {
        fprintf(stderr, "ensemble: %s\n", slpi_api_last_error());
        return 2;
    }
    int dim, M, ndiag, iH = -1;
    long steps, rows;
    double h;
    slpi_stepper_shape(s, &dim, &M, &ndiag, &steps, &h);
    for (int i = 0; i < ndiag; i++)
        if (strcmp(slpi_stepper_diag_name(s, i), "H0") == 0) iH = i;
    double *x = malloc((size_t)dim * sizeof *x), *d = malloc((size_t)ndiag * sizeof *d);
    double H0 = 0, sum = 0, sum2 = 0;
    if (!x || !d || iH < 0) return 2;
    slpi_stepper_row(s, x, NULL, d, NULL);
    H0 = d[iH];
    for (long r = 0; r < paths; r++) {
        /* one row: the last step (every = steps) */
        if (slpi_stepper_restart(s, (uint64_t)r) ||
            slpi_stepper_advance(s, steps, NULL, steps, x, NULL, d, NULL, NULL, NULL, &rows)) {
            fprintf(stderr, "ensemble: path %ld: %s\n", r, slpi_api_last_error());
            return 3;
        }
        sum += d[iH];
        sum2 += d[iH] * d[iH];
    }
    double mean = sum / (double)paths, se = sqrt((sum2 / (double)paths - mean * mean) / (double)(paths - 1));
    printf("ensemble: %ld paths, T = %g: mean H0 = %.6f +- %.6f (H0 at t = 0: %.6f)\n", paths, (double)steps * h, mean,
           se, H0);
    slpi_stepper_free(s);
    slpi_problem_free(p);
    free(x);
    free(d);
    return 0;
}
