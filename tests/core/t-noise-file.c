/* t-noise-file.c — noise files (core/noise-file.c): writer -> reader round trip of the
 * exact binary64 values and header, and rejection of malformed files, each with the
 * message "file:line: problem" naming the right line. */
#include <unistd.h>

#include "core/noise.h"
#include "testutil.h"

static char tmpl[] = "/tmp/t-noise-file-XXXXXX";

static void put(const char *text)
{
    FILE *f = fopen(tmpl, "w");
    fputs(text, f);
    fclose(f);
}

/* The text of a file with the given header and values. */
static char *render(const slpi_noise_header *hd, const double *dw)
{
    FILE *f = tmpfile();
    slpi_noise_file_write_header(f, hd);
    for (long i = 0; i < hd->steps; i++) {
        slpi_noise_file_write_row(f, hd->components, dw + i * hd->components);
    }
    long len = ftell(f);
    char *buf = calloc((size_t)len + 1, 1);
    rewind(f);
    TEST_CHECK(fread(buf, 1, (size_t)len, f) == (size_t)len);
    fclose(f);
    return buf;
}

/* Replace the first occurrence of `from` in `text` by `to` (fresh string). */
static char *replace(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at) return NULL;
    size_t a = (size_t)(at - text), n = strlen(text) - strlen(from) + strlen(to);
    char *out = malloc(n + 1);
    memcpy(out, text, a);
    strcpy(out + a, to);
    strcat(out, at + strlen(from));
    return out;
}

/* Text with the first `lines` lines of `text`. */
static char *head(const char *text, int lines)
{
    const char *p = text;
    for (int i = 0; i < lines && *p; i++) p = strchr(p, '\n') + 1;
    char *out = malloc((size_t)(p - text) + 1);
    memcpy(out, text, (size_t)(p - text));
    out[p - text] = '\0';
    return out;
}

/* Read `text` as a file: must fail at `line` with a message containing `what`. */
static void expect_bad(const char *name, char *text, int line, const char *what)
{
    slpi_noise_header hd;
    slpi_error err = { 0, "" };
    double *dw = NULL;
    char where[64];
    TEST_CHECKF(text != NULL, "%s: test text not built", name);
    if (!text) return;
    put(text);
    int rc = slpi_noise_file_read(tmpl, &hd, &dw, &err);
    snprintf(where, sizeof where, "%s:%d: ", tmpl, line);
    TEST_CHECKF(rc == SLPI_EINPUT && dw == NULL, "%s: accepted (rc %d)", name, rc);
    TEST_CHECKF(strncmp(err.msg, where, strlen(where)) == 0 && strstr(err.msg, what), "%s: message '%s', wanted '%s%s'",
                name, err.msg, where, what);
    free(text);
}

int main(void)
{
    test_start("t-noise-file", 3);
    int fd = mkstemp(tmpl);
    close(fd);

    /* round trip */
    slpi_noise_header hd = { test_rand_u64(), 17, 3, 0x1p-7, 2, 1, 2.0, 0, 5, 4, 0 };
    hd.threshold = slpi_noise_threshold(hd.h, hd.ell);
    double dw[12];
    for (int i = 0; i < 12; i++) {
        dw[i] = slpi_noise_normal(hd.seed, 0, 0, (uint64_t)i) * sqrt(hd.h);
    }
    dw[0] = hd.threshold;
    dw[1] = -0.0;
    dw[2] = 0x1.fffffffffffffp-1000;
    slpi_noise_clip(dw, 12, hd.threshold);
    char *good = render(&hd, dw);
    put(good);
    slpi_noise_header rd;
    slpi_error err = { 0, "" };
    double *back = NULL;
    TEST_CHECKF(slpi_noise_file_read(tmpl, &rd, &back, &err) == SLPI_OK, "%s", err.msg);
    TEST_CHECK(back && memcmp(back, dw, sizeof dw) == 0);
    TEST_CHECK(rd.seed == hd.seed && rd.path == hd.path && rd.components == 3 && rd.h == hd.h && rd.refine == 2 &&
               rd.truncated && rd.ell == 2 && rd.threshold == hd.threshold && rd.first == 5 && rd.steps == 4);
    free(back);

    /* malformed files: lines 1-10 header, 11-14 data */
    char hx[64], dc[64], row1[512];
    snprintf(hx, sizeof hx, "%a\t", dw[3]);
    snprintf(dc, sizeof dc, "\t%.17g", dw[3]);
    const char *r1 = strstr(good, "\n0x") + 1;
    memcpy(row1, r1, (size_t)(strchr(r1, '\n') - r1 + 1));
    row1[strchr(r1, '\n') - r1 + 1] = '\0';
    expect_bad("empty", strdup(""), 0, "empty file");
    expect_bad("not ours", replace(good, "# slpi-noise 1", "time\tx"), 1, "not a noise file");
    expect_bad("version", replace(good, "# slpi-noise 1", "# slpi-noise 2"), 1, "version");
    expect_bad("missing key", replace(good, "# refine 2\n", ""), 6, "# refine");
    expect_bad("bad count", replace(good, "# components 3", "# components x"), 4, "component");
    expect_bad("short header", head(good, 5), 5, "truncated header");
    char *inner = replace(good, "0x1.8ebcb6ec1f23fp-2", "0x1.8ebcb6ec1f23ep-2");
    expect_bad("threshold", replace(inner, "0.38939176384136326", "0.38939176384136320"), 7,
               "threshold is not D(h, ell)");
    free(inner);
    expect_bad("nan", replace(good, hx, "nan\t"), 12, "not finite");
    expect_bad("garbage", replace(good, hx, "0x1.zzp-3\t"), 12, "expected a hex float");
    expect_bad("hex/dec", replace(good, dc, "\t0.5"), 12, "differ");
    expect_bad("columns-", replace(good, hx, ""), 12, "wrong column count: 5, expected 6");
    expect_bad("columns+", replace(good, hx, "0x1p-9\t0x1p-9\t"), 12, "wrong column count");
    expect_bad("truncated", head(good, 12), 12, "truncated file: 2 data rows");
    size_t gl = strlen(good);
    char *more = malloc(gl + strlen(row1) + 1);
    strcpy(more, good);
    strcat(more, row1);
    expect_bad("extra row", more, 15, "more data rows");
    /* a '#' line between data rows is refused, never skipped (it would shift the steps) */
    char cm[96];
    snprintf(cm, sizeof cm, "# a comment\n%s", hx);
    expect_bad("comment between rows", replace(good, hx, cm), 12, "a '#' line between data rows");
    char big[64];
    snprintf(big, sizeof big, "%a\t", 2 * hd.threshold);
    char bigd[64];
    snprintf(bigd, sizeof bigd, "\t%.17g", 2 * hd.threshold);
    inner = replace(good, hx, big);
    expect_bad("exceeds D", replace(inner, dc, bigd), 12, "exceeds");
    free(inner);
    expect_bad("bad h", replace(good, "# h 0x1p-7 0.0078125", "# h 0x1p-7 0.0078"), 5, "differ");
    free(good);
    unlink(tmpl);
    TEST_END();
}
