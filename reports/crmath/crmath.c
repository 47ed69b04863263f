/* crmath.c — exp, sin, cos and sincos correctly rounded (to nearest), through MPFR, as a
 * shared library loaded before the C library's libm (LD_PRELOAD): the `libm=mpfr` member
 * of a claim's multiverse (docs/claims.md#multiverse). The argument is exact in 53 bits;
 * MPFR rounds the exact function value to 53 bits once (its functions are correctly
 * rounded), and the exponent range of a double, subnormals included, is MPFR's here, so
 * that overflow, underflow and subnormal results round as a double's would. It is not part
 * of libslpi: the audit's multiverse driver (reports/multiverse/multiverse.sh) preloads it for a member.
 * SLPI_CRMATH_COUNT=1 prints, at exit, how many calls it served (the proof that the
 * process's calls went here and not to glibc). SLPI_CRMATH_ROUND=up or down rounds every
 * result upward or downward instead (the `libm=mpfr-up` and `mpfr-down` members: the
 * directed roundings of the special functions, docs/claims.md#multiverse); unset or
 * `near`: to nearest; any other value stops the process at load (exit 2). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

static unsigned long calls;
static mpfr_rnd_t rnd = MPFR_RNDN;

static void count_report(void)
{
    fprintf(stderr, "crmath: %lu calls of exp/sin/cos/sincos served by MPFR\n", calls);
}

/* How this library rounds, "near", "up" or "down": what the audit labels the member by
 * (reports/audit-loaded.c), read from the library that ran, not from the environment. */
const char *slpi_crmath_rounding(void);
const char *slpi_crmath_rounding(void)
{
    return rnd == MPFR_RNDU ? "up" : rnd == MPFR_RNDD ? "down" : "near";
}

__attribute__((constructor)) static void crmath_init(void)
{
    const char *c = getenv("SLPI_CRMATH_COUNT");
    if (c && *c == '1') atexit(count_report);
    const char *r = getenv("SLPI_CRMATH_ROUND");
    if (!r || !*r || !strcmp(r, "near"))
        rnd = MPFR_RNDN;
    else if (!strcmp(r, "up"))
        rnd = MPFR_RNDU;
    else if (!strcmp(r, "down"))
        rnd = MPFR_RNDD;
    else {
        fprintf(stderr, "crmath: SLPI_CRMATH_ROUND='%s' is not near, up or down\n", r);
        exit(2);
    }
}

typedef int (*mpfr_fn)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

/* f(x) rounded (to nearest, or as SLPI_CRMATH_ROUND says) in double's precision and
 * exponent range. */
static double cr(mpfr_fn f, double x)
{
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_t a, y;
    calls++;
    mpfr_set_emin(-1073); /* the double range: 2^-1074 the least subnormal, 2^1024 overflows */
    mpfr_set_emax(1024);
    mpfr_init2(a, 53);
    mpfr_init2(y, 53);
    mpfr_set_d(a, x, MPFR_RNDN); /* exact */
    int t = f(y, a, rnd);
    t = mpfr_check_range(y, t, rnd);
    mpfr_subnormalize(y, t, rnd);
    double r = mpfr_get_d(y, rnd); /* exact: y has 53 bits in double's range */
    mpfr_clear(a);
    mpfr_clear(y);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    return r;
}

double exp(double x)
{
    return isnan(x) ? x : cr(mpfr_exp, x);
}
double sin(double x)
{
    return isnan(x) || isinf(x) ? x - x : cr(mpfr_sin, x);
}
double cos(double x)
{
    return isnan(x) || isinf(x) ? x - x : cr(mpfr_cos, x);
}

/* (not through sin and cos: the compiler would fold the pair back into a call of sincos) */
void sincos(double x, double *s, double *c)
{
    int bad = isnan(x) || isinf(x);
    *s = bad ? x - x : cr(mpfr_sin, x);
    *c = bad ? x - x : cr(mpfr_cos, x);
}
