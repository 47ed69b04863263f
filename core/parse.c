/* parse.c — strict numbers for every key (core/problem-keys.c), every command-line option
 * (cli/) and every numeric field of core's text formats: one scanner, one set of
 * messages. The whole text must be the number (blanks around it are allowed): no
 * trailing garbage, no overflow, no NaN or infinity, no subnormal double; then the
 * value must lie in [lo, hi]. Every integer, of every kind (int, long, unsigned 64-bit),
 * is read one way (scan_integer): decimal digits, where leading zeros change nothing
 * (010 is ten, never octal eight), or 0x/0X and hex digits (0x10 is sixteen); a sign
 * only where negative values exist (-0x10 is minus sixteen). A message names the
 * value as it was given: "h=1e-320: ..." for a key, "--threads abc: ..." for an option
 * (a name that starts with '-'), "x0:3: 'abc': ..." for a field of a file (a name that
 * ends in ':').
 *
 * Also here: the exact binary64 fields of the data formats (noise, trajectory, golden,
 * checkpoint files: finite, subnormals allowed since they round-trip exactly), and the
 * checks every text reader shares: an input must be a regular file or a pipe (not
 * /dev/zero or a folder), a UTF-8 byte-order mark, CRLF line ends and NUL bytes are
 * named as such rather than reported as a wrong key or version. */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/limits.h"
#include "core/parse.h"
#include "core/fpmode.h"
#include "core/noise.h"

/* "name=TEXT: why" (a key), "--opt TEXT: why" (an option), "file:line: 'TEXT': why"
 * (a name ending in ':', a field of a file). */
static int reject(slpi_error *err, const char *name, const char *text, const char *why)
{
    size_t n = strlen(name);
    if (n > 0 && name[n - 1] == ':') return slpi_error_set(err, SLPI_EINPUT, "%s '%.200s': %s", name, text, why);
    return slpi_error_set(err, SLPI_EINPUT, "%s%s%.200s: %s", name, name[0] == '-' ? " " : "=", text, why);
}

/* The number's text without surrounding blanks, into buf; 0 if empty or too long. */
static int trimmed(const char *text, char *buf, size_t n)
{
    while (isspace((unsigned char)*text)) text++;
    size_t len = strlen(text);
    while (len > 0 && isspace((unsigned char)text[len - 1])) len--;
    if (len == 0 || len >= n) return 0;
    memcpy(buf, text, len);
    buf[len] = '\0';
    return 1;
}

int slpi_parse_double(const char *name, const char *text, double lo, double hi, double *out, slpi_error *err)
{
    char s[512], *end, why[160];
    if (!text || !trimmed(text, s, sizeof s))
        return reject(err, name, text ? text : "", text && *text ? "not a finite number" : "missing value");
    /* strtod would read "0x", "inf", "nan(...)" and hex floats; hex floats are exact
     * and allowed, the others are refused below */
    errno = 0;
    double v = slpi_parse_strtod(s, &end);
    if (end == s) return reject(err, name, text, "not a finite number");
    if (*end) {
        snprintf(why, sizeof why, "not a finite number (trailing '%.40s')", end);
        return reject(err, name, text, why);
    }
    if (isnan(v)) return reject(err, name, text, "not a finite number (NaN)");
    if (isinf(v))
        return reject(err, name, text,
                      strpbrk(s, "iI") ? "not a finite number (infinity)"
                                       : "not a finite number (beyond the largest double, 1.8e308)");
    if (v != 0 && fabs(v) < DBL_MIN)
        return reject(err, name, text,
                      "subnormal: below the smallest normal double "
                      "2.2250738585072014e-308 (use 0 or a normal value)");
    if (v == 0 && errno == ERANGE)
        return reject(err, name, text, "underflows to 0: below the smallest double (use 0 or a normal value)");
    if (!(v >= lo && v <= hi)) {
        snprintf(why, sizeof why, "out of range [%g, %g]", lo, hi);
        return reject(err, name, text, why);
    }
    *out = v;
    return SLPI_OK;
}

/* The one reading of an integer's text s (trimmed): an optional sign where sign_ok, then
 * decimal digits (leading zeros are decimal) or 0x/0X and hex digits; *neg and the
 * magnitude *mag. 0, or -1 when it is not such an integer, -2 when the magnitude passes
 * 2^64 - 1. */
static int scan_integer(const char *s, int sign_ok, int *neg, unsigned long long *mag)
{
    *neg = 0;
    if (sign_ok && (*s == '-' || *s == '+')) *neg = *s++ == '-';
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *digits = s + (hex ? 2 : 0);
    if (!*digits || strspn(digits, hex ? "0123456789abcdefABCDEF" : "0123456789") != strlen(digits)) return -1;
    errno = 0;
    *mag = strtoull(digits, NULL, hex ? 16 : 10);
    return errno == ERANGE ? -2 : 0;
}

int slpi_parse_long(const char *name, const char *text, long lo, long hi, long *out, slpi_error *err)
{
    char s[512], why[160];
    int neg;
    unsigned long long mag;
    if (!text || !trimmed(text, s, sizeof s))
        return reject(err, name, text ? text : "", text && *text ? "not an integer" : "missing value");
    int got = scan_integer(s, 1, &neg, &mag);
    if (got == -1) return reject(err, name, text, "not an integer");
    /* |LONG_MIN| = LONG_MAX + 1 */
    int fits = got == 0 && (neg ? mag <= (unsigned long long)LONG_MAX + 1 : mag <= (unsigned long long)LONG_MAX);
    long v = !fits ? 0 : neg ? (mag > (unsigned long long)LONG_MAX ? LONG_MIN : -(long)mag) : (long)mag;
    if (!fits || v < lo || v > hi) {
        snprintf(why, sizeof why, "out of range [%ld, %ld]", lo, hi);
        return reject(err, name, text, why);
    }
    *out = v;
    return SLPI_OK;
}

int slpi_parse_int(const char *name, const char *text, int lo, int hi, int *out, slpi_error *err)
{
    long v;
    int rc = slpi_parse_long(name, text, lo, hi, &v, err);
    if (rc == SLPI_OK) *out = (int)v;
    return rc;
}

int slpi_parse_u64(const char *name, const char *text, uint64_t hi, uint64_t *out, slpi_error *err)
{
    char s[512], why[160];
    const char *what = "not an unsigned 64-bit integer";
    int neg;
    unsigned long long v;
    if (!text || !trimmed(text, s, sizeof s))
        return reject(err, name, text ? text : "", text && *text ? what : "missing value");
    int got = scan_integer(s, 0, &neg, &v);
    if (got == -1) return reject(err, name, text, what);
    if (got == -2) return reject(err, name, text, "not an unsigned 64-bit integer (above 2^64-1)");
    if (v > hi) {
        snprintf(why, sizeof why, "out of range [0, %llu]", (unsigned long long)hi);
        return reject(err, name, text, why);
    }
    *out = (uint64_t)v;
    return SLPI_OK;
}

double slpi_parse_strtod(const char *s, char **end)
{
    slpi_fpmode r = slpi_round_nearest();
    double v = strtod(s, end);
    slpi_round_restore(r);
    return v;
}

/* 1 + the value of each hex digit, 0 for every other byte (a table: the digits and the
 * letters of a mantissa alternate at random, and a branch per class mispredicts) */
static const unsigned char HEX1[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,  ['7'] = 8,
    ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* The hex form the data files hold, read exactly without strtod (which took 9 % of
 * `slpi verify --local`'s CPU on an su(64) many-path file, this reader 2 %):
 * [+-]0x1[.H...]p[+-]D with at most 13 hex digits H (52 bits: no
 * rounding) and -1022 <= D <= 1023, a normal double, as C's %a and Python's float.hex
 * write it, or [+-]0x0[.0...]p[+-]D, a zero. 1 with *out set; 0 for every other text
 * (strtod then reads it: decimals, subnormals, longer mantissas, no exponent, garbage). */
static int hex_normal(const char *s, double *out)
{
    uint64_t neg = *s == '-', m = 0;
    s += *s == '-' || *s == '+';
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || (s[2] != '0' && s[2] != '1')) return 0;
    const int lead = s[2] - '0';
    int nd = 0, d, ed = 0;
    s += 3;
    if (*s == '.')
        for (s++; (d = HEX1[(unsigned char)*s]) > 0; s++, nd++) {
            if (nd == 13) return 0;
            m = m << 4 | (uint64_t)(d - 1);
        }
    if (*s != 'p' && *s != 'P') return 0;
    s++;
    const int eneg = *s == '-';
    s += *s == '-' || *s == '+';
    long e = 0;
    for (; *s >= '0' && *s <= '9'; s++, ed++) {
        if (ed == 6) return 0;
        e = e * 10 + (*s - '0');
    }
    if (ed == 0 || *s != '\0') return 0;
    e = eneg ? -e : e;
    if (lead == 0) {
        if (m != 0) return 0;
        *out = neg ? -0.0 : 0.0;
        return 1;
    }
    if (e < -1022 || e > 1023) return 0;
    const uint64_t bits = neg << 63 | (uint64_t)(e + 1023) << 52 | m << (4 * (13 - nd));
    memcpy(out, &bits, sizeof bits);
    return 1;
}

int slpi_parse_binary64(const char *text, double *out)
{
    char *end;
    if (!*text || isspace((unsigned char)*text)) return -1;
    if (hex_normal(text, out)) return 0;
    double v = slpi_parse_strtod(text, &end); /* ERANGE on a subnormal: the value is still exact */
    if (end == text || *end != '\0') return -1;
    *out = v;
    return isfinite(v) ? 0 : -2;
}

FILE *slpi_input_open(const char *path, slpi_error *err)
{
    FILE *f = fopen(path, "r");
    struct stat st;
    if (!f) {
        slpi_error_set(err, SLPI_EINPUT, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fileno(f), &st) != 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) {
        slpi_error_set(err, SLPI_EINPUT, "%s: not a regular file (%s)", path,
                       S_ISDIR(st.st_mode)       ? "a folder"
                           : S_ISCHR(st.st_mode) ? "a character device"
                           : S_ISBLK(st.st_mode) ? "a block device"
                                                 : "a socket or special file");
        fclose(f);
        return NULL;
    }
    return f;
}

int slpi_parse_text_line(const char *file, long line, const char *s, size_t len, slpi_error *err)
{
    if (line == 1 && len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s:1: starts with a UTF-8 byte-order mark (EF BB BF): "
                              "save the file without it",
                              file);
    if (memchr(s, '\0', len)) return slpi_error_set(err, SLPI_EINPUT, "%s:%ld: NUL byte in the line", file, line);
    if (len > 0 && s[len - 1] == '\r')
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s:%ld: CRLF line end (Windows text): convert it to LF "
                              "line ends (e.g. dos2unix)",
                              file, line);
    return SLPI_OK;
}

/* The key noise_tau (core/noise.h declares it; docs/noise.md#ou): here, below the
 * problem's files, since the key's setter (core/problem-keys.c) calls it. */
int slpi_noise_tau_parse(const char *text, double *tau, int max, slpi_error *err)
{
    char buf[SLPI_NOISE_TAU_TEXT];
    size_t len = strlen(text);
    if (len >= sizeof buf) return slpi_error_set(err, SLPI_EINPUT, "noise_tau: value too long"), -1;
    if (len == 0 || text[0] == ',' || text[len - 1] == ',' || strstr(text, ",,"))
        return slpi_error_set(err, SLPI_EINPUT, "noise_tau=%.80s: an empty entry (comma-separated numbers)", text), -1;
    strcpy(buf, text);
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char name[64];
        snprintf(name, sizeof name, "noise_tau: entry %d:", n + 1);
        if (n >= max)
            return slpi_error_set(err, SLPI_EINPUT,
                                  "noise_tau=%.80s: more than %d entries (one tau, or one per "
                                  "noise Hamiltonian)",
                                  text, max),
                   -1;
        double v;
        if (slpi_parse_double(name, tok, 0, 1e6, &v, err) != SLPI_OK) return -1;
        if (v != 0 && v < 0x1p-60)
            return slpi_error_set(err, SLPI_EINPUT,
                                  "noise_tau: entry %d: %g: a correlation time is 0 (white noise) "
                                  "or in [2^-60, 1e6]",
                                  n + 1, v),
                   -1;
        tau[n++] = v;
    }
    return n;
}

int slpi_noise_tau_check(const char *text, slpi_error *err)
{
    double tau[SLPI_NOISE_TAU_TEXT / 2]; /* at most one entry per two characters */
    return slpi_noise_tau_parse(text, tau, SLPI_NOISE_TAU_TEXT / 2, err) < 0 ? SLPI_EINPUT : SLPI_OK;
}
