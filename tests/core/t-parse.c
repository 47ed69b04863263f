/* t-parse.c — unit test of core/parse.c's exact binary64 fields (slpi_parse_binary64), the
 * reader of every trajectory, noise, golden and checkpoint number. Its hex form is read
 * without strtod where the text is a normal double's or a zero's canonical hex (at most 13
 * hex digits, exponent -1022..1023); everything else goes to strtod. Computed two ways:
 *  - random bit patterns (every exponent, subnormals, zeros of both signs; NaN and
 *    infinities), each written as C's %a, as Python's float.hex (13 digits, padded),
 *    with upper-case digits and an explicit '+', must read back to the same bits;
 *  - every text, those and the edge forms below, must read as strtod reads it (the same
 *    return code and, where it reads, the same bits): decimals, subnormal hex forms,
 *    14 or more digits (strtod rounds), exponents beyond the normal range, a missing or
 *    empty exponent, a point without digits, leading digits other than 0 or 1, trailing
 *    text, long exponents. */
#include "core/parse.h"
#include "testutil.h"
#include <float.h>

/* slpi_parse_binary64's contract on strtod alone (the reading before the hex form) */
static int by_strtod(const char *text, double *out)
{
    char *end;
    if (!*text || text[0] == ' ' || text[0] == '\t' || text[0] == '\n') return -1;
    double v = slpi_parse_strtod(text, &end);
    if (end == text || *end != '\0') return -1;
    *out = v;
    return isfinite(v) ? 0 : -2;
}

static uint64_t bits_of(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

/* text read both ways: the same code and, where it is 0 or -2, the same bits */
static void same_reading(const char *text)
{
    double a = 1.5, b = 1.5;
    int ra = slpi_parse_binary64(text, &a), rb = by_strtod(text, &b);
    TEST_CHECKF(ra == rb && (ra == -1 || bits_of(a) == bits_of(b) || (isnan(a) && isnan(b))),
                "'%s': read %d %a, strtod %d %a", text, ra, a, rb, b);
}

/* Python's float.hex: 0x1.<13 digits>p<sign><exponent> for normal x, 0x0.<13>p-1022 below */
static void python_hex(char *buf, size_t n, double x)
{
    uint64_t b = bits_of(x), m = b & ((UINT64_C(1) << 52) - 1);
    int e = (int)(b >> 52 & 0x7ff);
    const char *sign = b >> 63 ? "-" : "";
    if (e == 0)
        snprintf(buf, n, "%s0x0.%013" PRIx64 "p%+d", sign, m, m ? -1022 : 0);
    else
        snprintf(buf, n, "%s0x1.%013" PRIx64 "p%+d", sign, m, e - 1023);
}

int main(void)
{
    test_start("t-parse", 1207);
    long iters = test_iters(20000);
    char buf[96];
    for (long it = 0; it < iters; it++) {
        uint64_t b = test_rand_u64();
        switch (test_rand_int(8)) { /* the rarer classes often */
        case 0:
            b &= ~(UINT64_C(0x7ff) << 52); /* subnormal or zero */
            break;
        case 1:
            b &= UINT64_C(1) << 63; /* a zero */
            break;
        case 2:
            b |= UINT64_C(0x7ff) << 52; /* NaN or infinity */
            break;
        case 3:
            b &= ~((UINT64_C(1) << 52) - 1) | (UINT64_C(0xff) << 44); /* few digits: %a trims */
            break;
        }
        double x, y;
        memcpy(&x, &b, sizeof x);
        const int finite = isfinite(x);
        snprintf(buf, sizeof buf, "%a", x);
        same_reading(buf);
        y = 0;
        TEST_CHECKF(slpi_parse_binary64(buf, &y) == (finite ? 0 : -2) && (!finite || bits_of(y) == b),
                    "%%a '%s' of %016" PRIx64 " read %016" PRIx64, buf, b, bits_of(y));
        if (!finite) continue;
        python_hex(buf, sizeof buf, x);
        same_reading(buf);
        y = 0;
        TEST_CHECKF(slpi_parse_binary64(buf, &y) == 0 && bits_of(y) == b, "float.hex '%s' of %016" PRIx64 " read %a",
                    buf, b, y);
        snprintf(buf, sizeof buf, "%+A", x);
        same_reading(buf);
        snprintf(buf, sizeof buf, "%.17g", x);
        same_reading(buf);
        /* one more digit than binary64 holds: strtod rounds it */
        python_hex(buf, sizeof buf, x);
        char *p = strchr(buf, 'p');
        if (p != NULL && strlen(buf) + 2 < sizeof buf) {
            memmove(p + 1, p, strlen(p) + 1);
            *p = "08f"[test_rand_int(3)];
            same_reading(buf);
        }
    }
    static const char *edges[] = {
        "0x1p+0",
        "0x1p0",
        "0x1.p0",
        "0x1.P-3",
        "0X1.8P+1",
        "+0x1.8p1",
        "-0x1.fffffffffffffp+1023",
        "0x1p+1023",
        "0x1p+1024",
        "0x1p-1022",
        "0x1p-1023",
        "0x1.0000000000001p-1022",
        "0x0p+0",
        "-0x0p+0",
        "0x0.000p-5",
        "0x0.8p+0",
        "0x0.0000000000001p-1022",
        "0x1.00000000000008p+0",
        "0x1.00000000000018p+0",
        "0x1.0000000000000000000000001p+0",
        "0x2p+0",
        "0x10p-4",
        "0x.8p1",
        "0x1.8",
        "0x1.8p",
        "0x1.8p+",
        "0x1.8p-",
        "0x1.8p+1 ",
        "0x1.8p+1x",
        "0x1.8q+1",
        "0x1.8p+0000001",
        "0x1.8p+1000000",
        "0x1.8p-9999999",
        "0x1.gp+0",
        "0x",
        "0x1",
        "-",
        "+",
        "",
        " 0x1p0",
        "1.5",
        "-2.5e-310",
        "1e400",
        "inf",
        "nan",
        "0x1p+0\n",
    };
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++) same_reading(edges[i]);
    /* the fast form's own values, spelt out */
    double v = 0;
    TEST_CHECK(slpi_parse_binary64("0x1.8p+1", &v) == 0 && v == 3.0);
    TEST_CHECK(slpi_parse_binary64("-0x1.4p-2", &v) == 0 && v == -0.3125);
    TEST_CHECK(slpi_parse_binary64("0x1.fffffffffffffp+1023", &v) == 0 && v == DBL_MAX);
    TEST_CHECK(slpi_parse_binary64("0x1p-1022", &v) == 0 && v == DBL_MIN);
    TEST_CHECK(slpi_parse_binary64("-0x0p+0", &v) == 0 && v == 0 && signbit(v));
    TEST_END();
}
