/* t-container.c — the one container of every checkpoint (core/container.c): a container
 * of random sections reads back section for section (names, offsets, line numbers); one
 * byte changed in any section's lines is refused naming that section and its lines; the
 * text cut at every length is refused as a cut file, naming the section it ends in when
 * it ends inside one; another format, another version (with how to proceed), a binary
 * file, an edited end line, text after it and a section line out of shape are refused by
 * name; the writer refuses a bad section name and a text that is not whole lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/container.h"
#include "testutil.h"

#define NSEC 4

static const char *const names[NSEC] = { "counts", "noise", "array.x", "state" };
static char *texts[NSEC];
static size_t lens[NSEC];

/* Random lines of printable text (none for the second section: an empty one). */
static void random_sections(void)
{
    for (int i = 0; i < NSEC; i++) {
        long lines = i == 1 ? 0 : 1 + test_rand_int(6);
        texts[i] = calloc((size_t)lines * 40 + 1, 1);
        char *p = texts[i];
        for (long l = 0; l < lines; l++) {
            long k = test_rand_int(30);
            for (long j = 0; j < k; j++) *p++ = (char)(' ' + test_rand_int(95));
            *p++ = '\n';
        }
        lens[i] = (size_t)(p - texts[i]);
    }
}

/* check refuses text (n bytes) with a message holding want; 1 if so. */
static int refused(const char *text, size_t n, const char *format, int version, const char *want, char *msg)
{
    slpi_container_index ix;
    slpi_error err = { 0, "" };
    int rc = slpi_container_check(&ix, "ck", text, n, format, version, &err);
    snprintf(msg, 512, "%s", err.msg);
    if (rc == SLPI_OK) free(ix.s);
    return rc == SLPI_EINPUT && strstr(err.msg, want) && !strncmp(err.msg, "ck", 2);
}

/* The section index i whose lines hold byte `at` of text, or -1. */
static int section_of(const slpi_container_index *ix, size_t at)
{
    for (int i = 0; i < ix->n; i++)
        if (at >= ix->s[i].body && at < ix->s[i].body + ix->s[i].len) return i;
    return -1;
}

int main(void)
{
    test_start("t-container", 23);
    char msg[512], want[160];
    random_sections();
    size_t len;
    char *text = slpi_container_text(&len, "slpi-test", 3, NSEC, names, (const char *const *)texts, lens);
    TEST_CHECK(text != NULL);
    if (!text) return 1;
    slpi_container_index ix;
    slpi_error err = { 0, "" };
    TEST_CHECKF(slpi_container_check(&ix, "ck", text, len, "slpi-test", 3, &err) == SLPI_OK, "read back: %s", err.msg);
    int same = ix.n == NSEC;
    long line = 2;
    for (int i = 0; same && i < NSEC; i++) {
        same = !strcmp(ix.s[i].name, names[i]) && ix.s[i].len == lens[i] &&
            !memcmp(text + ix.s[i].body, texts[i], lens[i]) && ix.s[i].line == line;
        line += 1 + ix.s[i].nlines;
    }
    TEST_CHECK(same);
    /* every byte of every section's lines changed (a newline kept: the count stays) */
    char *bad = malloc(len + 16);
    for (size_t at = 0; at < len; at++) {
        int s = section_of(&ix, at);
        if (s < 0 || text[at] == '\n') continue;
        memcpy(bad, text, len);
        bad[at] = text[at] == 'A' ? 'B' : 'A';
        snprintf(want, sizeof want, ":%ld: section %s (lines %ld-%ld) differs from its digest: an edited file",
                 ix.s[s].line, names[s], ix.s[s].line + 1, ix.s[s].line + ix.s[s].nlines);
        TEST_CHECKF(refused(bad, len, "slpi-test", 3, want, msg), "byte %zu of %s: '%s'", at, names[s], msg);
    }
    /* every cut: empty, inside the first line, inside a section (named), before the end */
    for (size_t n = 0; n < len; n++) {
        int s = section_of(&ix, n);
        if (n == 0)
            snprintf(want, sizeof want, "ck: an empty file, not a checkpoint");
        else if (s >= 0)
            snprintf(want, sizeof want, ": a cut file: section %s holds", names[s]);
        else
            snprintf(want, sizeof want, ": a cut file");
        TEST_CHECKF(refused(text, n, "slpi-test", 3, want, msg), "cut at %zu of %zu: '%s' (want '%s')", n, len, msg,
                    want);
    }
    /* another format, another version, a binary file, an edited end line, text after it */
    const char *other = ":1: not a checkpoint of format slpi-other: its first line names slpi-test";
    TEST_CHECK(refused(text, len, "slpi-other", 3, other, msg));
    TEST_CHECK(refused(text, len, "slpi-test", 4,
                       ":1: slpi-test version 3: this slpi reads version 4 only; start again without resuming", msg));
    TEST_CHECK(refused("hello\nworld\n", 12, "slpi-test", 3, ":1: not a checkpoint: its first line is 'hello'", msg));
    memcpy(bad, text, len);
    bad[len / 2] = '\0';
    TEST_CHECK(refused(bad, len, "slpi-test", 3, "a NUL byte at offset", msg));
    memcpy(bad, text, len);
    bad[len - 2] = bad[len - 2] == '0' ? '1' : '0';
    TEST_CHECKF(refused(bad, len, "slpi-test", 3, "the end digest differs", msg), "%s", msg);
    memcpy(bad, text, len);
    memcpy(bad + len, "x\n", 2);
    TEST_CHECKF(refused(bad, len + 2, "slpi-test", 3, "text after the end line", msg), "%s", msg);
    /* a section line edited: its count (the walk then meets a body line) or its name */
    memcpy(bad, text, len);
    char *sec = strstr(bad, "section noise 0 ");
    sec[14] = '1';
    TEST_CHECKF(refused(bad, len, "slpi-test", 3, "expected 'section NAME LINES DIGEST' or the end line", msg) ||
                    refused(bad, len, "slpi-test", 3, "differs from its digest", msg),
                "%s", msg);
    memcpy(bad, text, len);
    sec = strstr(bad, "section noise 0 ");
    sec[8] = 'N';
    TEST_CHECKF(refused(bad, len, "slpi-test", 3, "expected 'section NAME LINES DIGEST'", msg), "%s", msg);
    memcpy(bad, text, len);
    sec = strstr(bad, "section noise 0 ");
    sec[9] = 'a';
    TEST_CHECKF(refused(bad, len, "slpi-test", 3, "the end digest differs", msg), "%s", msg);
    /* the writer: a bad name, a text that does not end a line, one with a NUL */
    size_t n2;
    const char *one[1] = { "a\n" }, *bad_names[3] = { "", "Upper", "with space" };
    size_t one_len[1] = { 2 }, cut_len[1] = { 1 }, nul_len[1] = { 3 };
    for (int i = 0; i < 3; i++)
        TEST_CHECKF(!slpi_container_text(&n2, "f", 1, 1, &bad_names[i], one, one_len), "name '%s' taken", bad_names[i]);
    TEST_CHECK(!slpi_container_text(&n2, "f", 1, 1, names, one, cut_len));
    TEST_CHECK(!slpi_container_text(&n2, "f", 1, 1, names, (const char *[]){ "a\0\n" }, nul_len));
    TEST_CHECK(!slpi_container_text(&n2, "two words", 1, 1, names, one, one_len));
    free(bad);
    free(ix.s);
    free(text);
    for (int i = 0; i < NSEC; i++) free(texts[i]);
    TEST_END();
}
