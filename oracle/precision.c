/* precision.c — the floating-point formats a port may declare to `slpi verify`
 * (--precision), in one table: each with its unit roundoff u (the budget's and the
 * statistics' unit) and the significand bits p of the format its outputs are stored in
 * (the ulps are counted in it, and the statistics' twin rounds its outputs to it).
 *
 *   binary64  p = 53, u = 2^-53       IEEE double
 *   binary32  p = 24, u = 2^-24       IEEE single
 *   tf32      p = 24, u = 2^-11       products of 10-bit-mantissa (11-bit significand)
 *                                     operands accumulated in binary32: the products'
 *                                     rounding, 2^-11, dominates; outputs are binary32
 *   bfloat16  p = 8,  u = 2^-8        8-bit exponent, 7 stored mantissa bits
 *   binary16  p = 11, u = 2^-11       IEEE half
 *   u=VALUE   p = round(-log2 VALUE), u = VALUE (0 < VALUE < 1; p at least 2)
 *
 * The exponent ranges (binary16 overflows beyond 65504) are not modelled: verify reads
 * the port's values as the doubles it wrote. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "slpi/errors.h"
#include "slpi/tools.h"
#include "core/parse.h"

static const slpi_precision table[] = {
    { "binary64", 0x1p-53, 53 }, { "binary32", 0x1p-24, 24 }, { "tf32", 0x1p-11, 24 },
    { "bfloat16", 0x1p-8, 8 },   { "binary16", 0x1p-11, 11 },
};
#define NTABLE ((int)(sizeof table / sizeof table[0]))

const char *slpi_precision_list(void)
{
    return "binary64, binary32, tf32, bfloat16, binary16, u=VALUE (0 < VALUE < 1)";
}

void slpi_precision_of_u(slpi_precision *out, double u)
{
    for (int i = 0; i < NTABLE; i++)
        if (table[i].u == u && strcmp(table[i].name, "tf32") != 0) {
            *out = table[i];
            return;
        }
    snprintf(out->name, sizeof out->name, "u=%.6g", u);
    out->u = u;
    long p = lround(-log2(u));
    out->bits = p < 2 ? 2 : p > 53 ? 53 : (int)p;
}

int slpi_precision_parse(slpi_precision *out, const char *s, slpi_error *err)
{
    for (int i = 0; i < NTABLE; i++)
        if (strcmp(s, table[i].name) == 0) {
            *out = table[i];
            return SLPI_OK;
        }
    if (strncmp(s, "u=", 2) == 0) {
        double u;
        slpi_error uerr;
        if (slpi_parse_double("u", s + 2, 0, 1, &u, &uerr) == SLPI_OK && u > 0 && u < 1) {
            slpi_precision_of_u(out, u);
            return SLPI_OK;
        }
    }
    return slpi_error_set(err, SLPI_EINPUT, "unknown precision '%s': expected one of %s", s, slpi_precision_list());
}

double slpi_precision_ulp(double x, int bits)
{
    if (x == 0) return ldexp(1.0, -1074);
    int e;
    frexp(x, &e);   /* |x| in [2^(e-1), 2^e) */
    return ldexp(1.0, e - bits);
}
