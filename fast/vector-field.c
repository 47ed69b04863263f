/* fast/vector-field.c — what the schemes share above a system table: the generator sum of
 * one step's increment vector Delta = (h, dW_1..dW_M), xi = sum_k Delta_k gen(k, mu)
 * (docs/conventions.md#sde; the system's own gen_sum where it has one). */
#include "fast/system.h"
#include "fast/vector-field.h"

void slpi_fast_gen_sum(const slpi_fast_system *s, double *xi, double *tmp, const double *delta, const double *mu)
{
    if (s->gen_sum) {
        s->gen_sum(s, xi, delta, mu);
        return;
    }
    for (int i = 0; i < s->dim; i++) xi[i] = 0;
    for (int k = 0; k <= s->M; k++) {
        if (delta[k] == 0) continue;
        s->gen(s, k, tmp, mu);
        for (int i = 0; i < s->dim; i++) xi[i] += delta[k] * tmp[i];
    }
}
