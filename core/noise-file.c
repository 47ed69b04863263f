/* noise-file.c — noise files: Wiener increments as text, so that any scheme (and any
 * external implementation) consumes exactly the same increments (docs/noise.md#contract, docs/design.md#formats; docs/noise.md#increments). Writer and validating reader.
 *
 * Format "slpi-noise" version 1. Lines end in '\n'. First the header, ten lines in this
 * order (binary64 values as C99 "%a" hex floats, then "%.17g" decimals of the same):
 *   # slpi-noise 1
 *   # seed S                        64-bit unsigned, decimal
 *   # path P                        decimal (< 2^32)
 *   # components M                  M >= 1, increments per step
 *   # h HEX DEC                     step size of the level written, 0 < h
 *   # refine R                      fine levels summed into one step, 0..40
 *   # truncate off                  or: # truncate on ELL HEX DEC
 *                                   (clipped at D(h, ELL) = HEX, which must equal
 *                                   slpi_noise_threshold(h, ELL) bit for bit)
 *   # first F                       global index of the first step written
 *   # steps N                       number of data rows, N >= 1
 *   # columns dW_1..dW_M (%a), then dW_1..dW_M (%.17g)
 * Further lines starting with '#' before the first data row are comments (after it, a '#'
 * line is an error: skipping it would shift every later step). Then exactly N
 * data rows, row i holding the increments of step F + i: 2M fields separated by one tab,
 * M hex floats then the same M values in decimal. The reader checks the header keys,
 * order and values, the version, the column count, that each field parses completely,
 * is finite and that hex and decimal copies are the same binary64, |dW| <= D when
 * truncated, and the row count; every error reads "file:line: problem".
 */
#include "slpi/errors.h"
#include "slpi/noise.h"
#include "core/digest.h"
#include "core/noise.h"
#include "core/parse.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void slpi_noise_file_write_header(FILE *f, const slpi_noise_header *hd)
{
    fprintf(f, "# %s %d\n", SLPI_NOISE_FORMAT, SLPI_NOISE_VERSION);
    fprintf(f, "# seed %" PRIu64 "\n# path %" PRIu64 "\n# components %d\n", hd->seed, hd->path, hd->components);
    fprintf(f, "# h %a %.17g\n# refine %d\n", hd->h, hd->h, hd->refine);
    if (hd->truncated) {
        fprintf(f, "# truncate on %.17g %a %.17g\n", hd->ell, hd->threshold, hd->threshold);
    } else {
        fprintf(f, "# truncate off\n");
    }
    fprintf(f, "# first %" PRIu64 "\n# steps %ld\n", hd->first, hd->steps);
    fprintf(f, "# columns dW_1..dW_%d (%%a), then dW_1..dW_%d (%%.17g)\n", hd->components, hd->components);
}

void slpi_noise_file_write_row(FILE *f, int components, const double *dw)
{
    for (int k = 0; k < components; k++) {
        fprintf(f, "%a\t", dw[k]);
    }
    for (int k = 0; k < components; k++) {
        fprintf(f, "%.17g%c", dw[k], k + 1 < components ? '\t' : '\n');
    }
}

/* Reader state: the file, its name and the current line for messages. */
typedef struct {
    FILE *f;
    const char *name;
    long line;
    char *buf;
    size_t cap, len;
    slpi_error *err;
    uint64_t digest; /* FNV-1a 64 of the bytes read so far */
} noise_reader;

/* Next line without its newline into r->buf; 0 at end of file. */
static int reader_next(noise_reader *r)
{
    ssize_t n = getline(&r->buf, &r->cap, r->f);
    if (n < 0) {
        return 0;
    }
    r->line++;
    r->digest = slpi_fnv1a(r->digest, r->buf, (size_t)n);
    if (n > 0 && r->buf[n - 1] == '\n') {
        r->buf[--n] = '\0';
    }
    r->len = (size_t)n;
    return 1;
}

static int reader_fail(noise_reader *r, const char *what, const char *detail)
{
    return slpi_error_set(r->err, SLPI_EINPUT, "%s:%ld: %s%s", r->name, r->line, what, detail);
}

/* A whole token as a double (hex or decimal, subnormals exact); 0 unless it parses. */
static int parse_double(const char *s, double *out)
{
    return slpi_parse_binary64(s, out) == 0;
}

/* A whole decimal unsigned integer <= max (strict, core/parse.c). */
static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    return *s && strspn(s, "0123456789") == strlen(s) && slpi_parse_u64("", s, max, out, NULL) == SLPI_OK;
}

/* A binary64 written as "HEX DEC": both parse, are finite and are the same number. */
static int parse_pair(noise_reader *r, const char *hex, const char *dec, double *out)
{
    double a, b;
    if (hex && slpi_parse_binary64(hex, &a) == -2) {
        return reader_fail(r, "value is not finite: ", hex);
    }
    if (!hex || !dec || !parse_double(hex, &a) || !parse_double(dec, &b)) {
        return reader_fail(r, "expected a hex float and its decimal copy", "");
    }
    if (memcmp(&a, &b, sizeof a) != 0) {
        return reader_fail(r, "hex and decimal copies differ: ", dec);
    }
    *out = a;
    return SLPI_OK;
}

/* Split r->buf at `sep` characters into at most max fields; returns the count (or
 * max + 1 if there are more). */
static int split_fields(char *s, const char *sep, char **field, int max)
{
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(s, sep, &save); tok; tok = strtok_r(NULL, sep, &save)) {
        if (n == max) {
            return max + 1;
        }
        field[n++] = tok;
    }
    return n;
}

/* One header line "# key values...": checks the key, returns its value fields. */
static int header_line(noise_reader *r, const char *key, char **field, int want)
{
    char *f[8];
    if (!reader_next(r)) {
        return reader_fail(r, "truncated header: missing line # ", key);
    }
    int n = split_fields(r->buf, " ", f, 7);
    if (n < 2 || strcmp(f[0], "#") != 0 || strcmp(f[1], key) != 0) {
        return reader_fail(r, "expected the header line # ", key);
    }
    if (n - 2 != want) {
        return reader_fail(r, "wrong number of values for header key ", key);
    }
    for (int i = 0; i < want; i++) {
        field[i] = f[i + 2];
    }
    return SLPI_OK;
}

static int read_header(noise_reader *r, slpi_noise_header *hd)
{
    char *v[7];
    uint64_t u;
    char *f[4];
    if (!reader_next(r)) {
        return reader_fail(r, "empty file", "");
    }
    if (slpi_parse_text_line(r->name, 1, r->buf, r->len, r->err) != SLPI_OK) {
        return SLPI_EINPUT;
    }
    int n = split_fields(r->buf, " ", f, 3);
    if (n != 3 || strcmp(f[0], "#") != 0 || strcmp(f[1], SLPI_NOISE_FORMAT) != 0) {
        return reader_fail(r, "not a noise file: the first line must be '# " SLPI_NOISE_FORMAT " 1'", "");
    }
    if (!parse_u64(f[2], UINT64_MAX, &u) || u != SLPI_NOISE_VERSION) {
        return reader_fail(r, "unsupported noise file version ", f[2]);
    }
    if (header_line(r, "seed", v, 1) || !parse_u64(v[0], UINT64_MAX, &hd->seed)) {
        return r->err->code ? r->err->code : reader_fail(r, "bad seed: ", v[0]);
    }
    if (header_line(r, "path", v, 1) || !parse_u64(v[0], UINT32_MAX, &hd->path)) {
        return r->err->code ? r->err->code : reader_fail(r, "bad path (0..2^32-1): ", v[0]);
    }
    if (header_line(r, "components", v, 1) || !parse_u64(v[0], SLPI_NOISE_FILE_MAX_COMPONENTS, &u) || u < 1) {
        return r->err->code ? r->err->code : reader_fail(r, "bad component count: ", v[0]);
    }
    hd->components = (int)u;
    if (header_line(r, "h", v, 2) || parse_pair(r, v[0], v[1], &hd->h)) {
        return r->err->code;
    }
    if (!(hd->h > 0)) {
        return reader_fail(r, "step size h must be positive: ", v[1]);
    }
    if (header_line(r, "refine", v, 1) || !parse_u64(v[0], 40, &u)) {
        return r->err->code ? r->err->code : reader_fail(r, "bad refine (0..40): ", v[0]);
    }
    hd->refine = (int)u;
    if (!reader_next(r)) {
        return reader_fail(r, "truncated header: missing line '# truncate'", "");
    }
    n = split_fields(r->buf, " ", v, 6);
    if (n == 3 && !strcmp(v[0], "#") && !strcmp(v[1], "truncate") && !strcmp(v[2], "off")) {
        hd->truncated = 0;
        hd->ell = hd->threshold = 0;
    } else if (n == 6 && !strcmp(v[0], "#") && !strcmp(v[1], "truncate") && !strcmp(v[2], "on")) {
        if (!parse_double(v[3], &hd->ell) || !(hd->ell > 0) || !isfinite(hd->ell)) {
            return reader_fail(r, "bad ell: ", v[3]);
        }
        if (parse_pair(r, v[4], v[5], &hd->threshold)) {
            return r->err->code;
        }
        double D = slpi_noise_threshold(hd->h, hd->ell);
        if (!(D == hd->threshold)) {
            char want[64];
            snprintf(want, sizeof want, "%a", D);
            return reader_fail(r, "threshold is not D(h, ell) = ", want);
        }
        hd->truncated = 1;
    } else {
        return reader_fail(r, "expected '# truncate off' or '# truncate on ELL HEX DEC'", "");
    }
    if (header_line(r, "first", v, 1) || !parse_u64(v[0], UINT64_MAX, &hd->first)) {
        return r->err->code ? r->err->code : reader_fail(r, "bad first step: ", v[0]);
    }
    if (header_line(r, "steps", v, 1) || !parse_u64(v[0], SLPI_NOISE_FILE_MAX_STEPS, &u) || u < 1) {
        return r->err->code ? r->err->code : reader_fail(r, "bad step count (1..2^30): ", v[0]);
    }
    hd->steps = (long)u;
    if (hd->steps > SLPI_NOISE_FILE_MAX_VALUES / hd->components) {
        char what[96];
        snprintf(what, sizeof what, "%ld steps x %d components: more than the 2^28 increments", hd->steps,
                 hd->components);
        return reader_fail(r, what, " a noise file may hold (the reader keeps them in memory)");
    }
    return SLPI_OK;
}

/* One data row (already in r->buf) into dw[0..M). */
static int read_row(noise_reader *r, const slpi_noise_header *hd, char **field, double *dw)
{
    int M = hd->components;
    if (slpi_parse_text_line(r->name, r->line, r->buf, r->len, r->err) != SLPI_OK) {
        return SLPI_EINPUT;
    }
    int n = split_fields(r->buf, "\t", field, 2 * M);
    if (n != 2 * M) {
        char got[64];
        snprintf(got, sizeof got, "%s%d, expected %d", n > 2 * M ? "more than " : "", n > 2 * M ? 2 * M : n, 2 * M);
        return reader_fail(r, "wrong column count: ", got);
    }
    for (int k = 0; k < M; k++) {
        if (parse_pair(r, field[k], field[M + k], &dw[k])) {
            return r->err->code;
        }
        if (hd->truncated && !(fabs(dw[k]) <= hd->threshold)) {
            return reader_fail(r, "increment exceeds the truncation threshold: ", field[M + k]);
        }
    }
    return SLPI_OK;
}

int slpi_noise_file_read(const char *path, slpi_noise_header *hd, double **dw, slpi_error *err)
{
    slpi_error local = { 0, "" };
    noise_reader r = { NULL, path, 0, NULL, 0, 0, err ? err : &local, SLPI_FNV_INIT };
    r.err->code = SLPI_OK;
    if (dw) *dw = NULL;
    r.f = slpi_input_open(path, r.err);
    if (!r.f) {
        return SLPI_EINPUT;
    }
    int rc = read_header(&r, hd);
    double *v = NULL;
    char **field = NULL;
    long cap_rows = 0;
    if (rc == SLPI_OK && !dw) { /* the header and the digest only */
        while (reader_next(&r)) continue;
        hd->digest = r.digest;
        fclose(r.f);
        free(r.buf);
        return SLPI_OK;
    }
    if (rc == SLPI_OK) {
        /* room for the rows grows as they arrive: the header's counts alone must not
         * make the reader allocate (steps x M can claim terabytes) */
        cap_rows = 65536 / hd->components > 1 ? 65536 / hd->components : 1;
        if (cap_rows > hd->steps) cap_rows = hd->steps;
        v = malloc((size_t)cap_rows * (size_t)hd->components * sizeof *v);
        field = malloc(((size_t)2 * hd->components + 1) * sizeof *field);
        if (!v || !field) {
            rc = reader_fail(&r, "out of memory for the data rows", "");
        }
    }
    long rows = 0;
    while (rc == SLPI_OK && reader_next(&r)) {
        if (r.buf[0] == '#') {
            if (rows == 0) {
                continue;
            }
            /* never skipped: a commented-out row would shift every later step */
            rc = reader_fail(&r, "a '#' line between data rows (comments only before the first row)", "");
            break;
        }
        if (rows == hd->steps) {
            rc = reader_fail(&r, "more data rows than the header's steps", "");
        } else {
            if (rows == cap_rows) {
                cap_rows = 2 * cap_rows < hd->steps ? 2 * cap_rows : hd->steps;
                double *w = realloc(v, (size_t)cap_rows * (size_t)hd->components * sizeof *v);
                if (!w) {
                    rc = reader_fail(&r, "out of memory for the data rows", "");
                    break;
                }
                v = w;
            }
            rc = read_row(&r, hd, field, v + (size_t)rows * hd->components);
            rows++;
        }
    }
    if (rc == SLPI_OK && rows < hd->steps) {
        rc = slpi_error_set(r.err, SLPI_EINPUT,
                            "%s:%ld: truncated file: %ld data rows, "
                            "the header says %ld",
                            path, r.line, rows, hd->steps);
    }
    fclose(r.f);
    free(r.buf);
    free(field);
    if (rc != SLPI_OK) {
        free(v);
        return rc;
    }
    hd->digest = r.digest;
    *dw = v;
    return SLPI_OK;
}
