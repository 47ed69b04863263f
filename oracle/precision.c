/* precision.c — the floating-point formats a port may declare to `slpi verify`
 * (--precision), in one table: each with its unit roundoff u (the budget's and the
 * statistics' unit) and the significand bits p of the format its outputs are stored in
 * (the ulps are counted in it, and the statistics' twin rounds its outputs to it).
 *
 *   binary64  p = 53, u = 2^-53       IEEE double
 *   binary32  p = 24, u = 2^-24       IEEE single
 *   tf32      p = 24, u = 2^-11       products of 10-bit-mantissa (11-bit significand)
 *                                     operands accumulated in binary32: the products'
 *                                     rounding, 2^-11, dominates; outputs are binary32.
 *                                     The operands' conversion rounds to nearest (ties to
 *                                     even; ties away, PTX's cvt.rna, differs only on ties)
 *   tf32-rz   p = 24, u = 2^-10       the same with the operands truncated (round toward
 *                                     zero: the first 10 mantissa bits of a binary32 read
 *                                     as they are); a directed rounding's u is the ulp
 *   bfloat16  p = 8,  u = 2^-8        8-bit exponent, 7 stored mantissa bits
 *   binary16  p = 11, u = 2^-11       IEEE half
 *   u=VALUE   p = round(-log2 VALUE), u = VALUE (0 < VALUE < 1; p at least 2)
 *   A/S       a port whose arithmetic is A and whose results are stored in S (both of the
 *             above, S not u=): u = the larger of A's and S's, p = S's (bfloat16 inputs
 *             accumulated and stored in binary32: bfloat16/binary32, u = 2^-8, p = 24)
 *   F+ftz     any of the above but u= (of A/S: A not u=): a unit that flushes subnormal
 *             inputs and results to zero; flush = the smallest normal of F (of A), 2^-1022
 *             binary64, 2^-14 binary16, 2^-126 the others, below which a value is held as
 *             0: off by up to flush absolutely (the statistics' tau, oracle/stat.c)
 *
 * The exponent ranges (binary16 overflows beyond 65504) are not otherwise modelled:
 * verify reads the port's values as the doubles it wrote. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "slpi/errors.h"
#include "slpi/tools.h"
#include "core/parse.h"

static const slpi_precision table[] = {
    { "binary64", 0x1p-53, 53, 0 }, { "binary32", 0x1p-24, 24, 0 }, { "tf32", 0x1p-11, 24, 0 },
    { "tf32-rz", 0x1p-10, 24, 0 },  { "bfloat16", 0x1p-8, 8, 0 },   { "binary16", 0x1p-11, 11, 0 },
};
/* each format's smallest normal magnitude, what +ftz flushes below */
static const double tiny[] = { 0x1p-1022, 0x1p-126, 0x1p-126, 0x1p-126, 0x1p-126, 0x1p-14 };
#define NTABLE ((int)(sizeof table / sizeof table[0]))
#define FTZ "+ftz"

const char *slpi_precision_list(void)
{
    return "binary64, binary32, tf32, tf32-rz, bfloat16, binary16, u=VALUE (0 < VALUE < 1), ARITH/STORE "
           "(bfloat16/binary32), any but u=VALUE with +ftz (binary16+ftz)";
}

void slpi_precision_of_u(slpi_precision *out, double u)
{
    out->flush = 0;
    for (int i = 0; i < NTABLE; i++)
        if (table[i].u == u && strncmp(table[i].name, "tf32", 4) != 0) {
            *out = table[i];
            return;
        }
    snprintf(out->name, sizeof out->name, "u=%.6g", u);
    out->u = u;
    long p = lround(-log2(u));
    out->bits = p < 2 ? 2 : p > 53 ? 53 : (int)p;
}

/* A name of the table or u=VALUE into out; 0, or -1. */
static int parse_one(slpi_precision *out, const char *s)
{
    for (int i = 0; i < NTABLE; i++)
        if (strcmp(s, table[i].name) == 0) {
            *out = table[i];
            return 0;
        }
    if (strncmp(s, "u=", 2) == 0) {
        double u;
        slpi_error uerr;
        if (slpi_parse_double("u", s + 2, 0, 1, &u, &uerr) == SLPI_OK && u > 0 && u < 1) {
            slpi_precision_of_u(out, u);
            return 0;
        }
    }
    return -1;
}

/* ARITH/STORE: u the larger, the bits of the storage. */
static int parse_mixed(slpi_precision *out, const char *s, const char *slash, slpi_error *err)
{
    char a[sizeof out->name];
    slpi_precision pa, ps;
    size_t n = (size_t)(slash - s);
    if (n >= sizeof a || strlen(s) >= sizeof out->name)
        return slpi_error_set(err, SLPI_EINPUT, "precision '%s' is too long", s);
    memcpy(a, s, n);
    a[n] = 0;
    if (parse_one(&pa, a) || strncmp(slash + 1, "u=", 2) == 0 || parse_one(&ps, slash + 1))
        return slpi_error_set(err, SLPI_EINPUT,
                              "unknown precision '%s': ARITH/STORE takes ARITH one of %s and STORE "
                              "a format's name (binary32, ...)",
                              s, slpi_precision_list());
    out->u = pa.u > ps.u ? pa.u : ps.u;
    out->bits = ps.bits;
    out->flush = 0;
    snprintf(out->name, sizeof out->name, "%s", s);
    return SLPI_OK;
}

/* Without +ftz: a name of the table, u=VALUE or ARITH/STORE. */
static int parse_plain(slpi_precision *out, const char *s, slpi_error *err)
{
    const char *slash = strchr(s, '/');
    if (slash) return parse_mixed(out, s, slash, err);
    if (parse_one(out, s) == 0) return SLPI_OK;
    return slpi_error_set(err, SLPI_EINPUT, "unknown precision '%s': expected one of %s", s, slpi_precision_list());
}

int slpi_precision_parse(slpi_precision *out, const char *s, slpi_error *err)
{
    size_t n = strlen(s), nf = strlen(FTZ);
    if (n <= nf || strcmp(s + n - nf, FTZ) != 0) return parse_plain(out, s, err);
    char plain[sizeof out->name];
    if (n >= sizeof plain) return slpi_error_set(err, SLPI_EINPUT, "precision '%s' is too long", s);
    memcpy(plain, s, n - nf);
    plain[n - nf] = 0;
    int rc = parse_plain(out, plain, err);
    if (rc != SLPI_OK) return rc;
    size_t na = strcspn(plain, "/"); /* the arithmetic's name: it flushes */
    for (int i = 0; i < NTABLE; i++)
        if (strlen(table[i].name) == na && strncmp(plain, table[i].name, na) == 0) {
            out->flush = tiny[i];
            snprintf(out->name, sizeof out->name, "%s", s);
            return SLPI_OK;
        }
    return slpi_error_set(err, SLPI_EINPUT,
                          "precision '%s': +ftz needs a format with an exponent range (binary16+ftz, "
                          "tf32-rz+ftz, bfloat16/binary32+ftz), not u=VALUE",
                          s);
}

double slpi_precision_ulp(double x, int bits)
{
    if (x == 0) return ldexp(1.0, -1074);
    int e;
    frexp(x, &e); /* |x| in [2^(e-1), 2^e) */
    return ldexp(1.0, e - bits);
}
