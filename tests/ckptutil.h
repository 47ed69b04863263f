/* ckptutil.h — for tests that hand a checkpoint's parser an edited file: the container's
 * own checks (core/container.c: each section's digest and line count, the end digest)
 * renewed over the edited text, as a forger would, so that what the parser of the format
 * does with the edit is what is tested. */
#ifndef SLPI_TESTS_CKPTUTIL_H
#define SLPI_TESTS_CKPTUTIL_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/digest.h"

/* text (n bytes: a container, edited: lines changed, added or removed) with its "section
 * NAME ..." lines' counts and digests and its end line renewed (malloc'd, *len bytes): a
 * section holds the lines up to the next line that begins "section "; a last line
 * "end ..." is dropped first; lines before the first section stay where they are. */
static inline char *ckpt_reseal(const char *text, size_t n, size_t *len)
{
    const char *stop = text + n, *p = memchr(text, '\n', n);
    if (n && text[n - 1] == '\n') {
        const char *last = stop - 1;
        while (last > text && last[-1] != '\n') last--;
        if (!strncmp(last, "end ", 4)) stop = last;
    }
    char *out = NULL;
    FILE *m = open_memstream(&out, len);
    p = p ? p + 1 : stop;
    fwrite(text, 1, (size_t)(p - text), m);
    uint64_t index = slpi_fnv1a(SLPI_FNV_INIT, text, (size_t)(p - text));
    while (p < stop) {
        const char *body = p, *name = p;
        if (!strncmp(p, "section ", 8)) {
            body = memchr(p, '\n', (size_t)(stop - p));
            body = body ? body + 1 : stop;
            name = p + 8;
        }
        const char *q = body;
        long lines = 0;
        while (q < stop && strncmp(q, "section ", 8)) {
            const char *nl = memchr(q, '\n', (size_t)(stop - q));
            q = nl ? nl + 1 : stop;
            lines++;
        }
        if (name != p) {
            char line[160];
            int k = snprintf(line, sizeof line, "section %.*s %ld %016" PRIx64 "\n", (int)strcspn(name, " \n"), name,
                             lines, slpi_fnv1a(SLPI_FNV_INIT, body, (size_t)(q - body)));
            index = slpi_fnv1a(index, line, (size_t)k);
            fwrite(line, 1, (size_t)k, m);
        }
        fwrite(body, 1, (size_t)(q - body), m);
        p = q;
    }
    fprintf(m, "end %016" PRIx64 "\n", index);
    fclose(m);
    return out;
}

/* ckpt_reseal of text into the file path. */
static inline void ckpt_put_resealed(const char *path, const char *text, size_t n)
{
    size_t len;
    char *s = ckpt_reseal(text, n, &len);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(s, 1, len, f);
        fclose(f);
    }
    free(s);
}

#endif
