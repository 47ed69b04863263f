/* container.c — the checkpoint container for bindings (slpi/container.h) over the one
 * implementation of core/container.c, which the C checkpoints use too: a Python
 * checkpoint is a container as a run's is, checked by the same reader. */
#include "slpi/errors.h"
#include "slpi/container.h"
#include "api/api.h"
#include "core/container.h"

#include <stdlib.h>
#include <string.h>

struct slpi_container {
    char *text;
    slpi_container_index ix;
};

/* The lengths of the count texts (malloc'd; NULL, recorded, when out of memory). */
static size_t *text_lengths(int count, const char *const *texts)
{
    size_t *lens = malloc((size_t)(count > 0 ? count : 1) * sizeof *lens);
    slpi_error err = { 0 };
    if (!lens) slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "container: out of memory"));
    for (int i = 0; lens && i < count; i++) lens[i] = strlen(texts[i]);
    return lens;
}

long slpi_container_format(char *buf, size_t n, const char *format, int version, int count, const char *const *names,
                           const char *const *texts)
{
    slpi_error err = { 0 };
    if (count < 0 || (!buf && n))
        return slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "container: count %d or buffer size", count)),
               -1;
    size_t *lens = text_lengths(count, texts);
    if (!lens) return -1;
    long size = slpi_container_size(format, version, count, names, texts, lens);
    if (size < 0) {
        free(lens);
        slpi_api_record(&err,
                        slpi_error_set(&err, SLPI_EINPUT,
                                       "container: format '%.40s' has a blank, or a section's name or text is "
                                       "malformed (names: 1..63 of a-z 0-9 . _ -; texts: whole lines, no NUL)",
                                       format));
        return -1;
    }
    if (buf) {
        size_t len;
        char *text = slpi_container_text(&len, format, version, count, names, texts, lens);
        if (!text) {
            free(lens);
            slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "container: out of memory"));
            return -1;
        }
        size_t k = len < n ? len : n - 1;
        memcpy(buf, text, k);
        buf[k] = '\0';
        free(text);
    }
    free(lens);
    return size;
}

int slpi_container_parse(slpi_container **out, const char *name, const char *text, size_t len, const char *format,
                         int version)
{
    slpi_error err = { 0 };
    *out = NULL;
    slpi_container *c = calloc(1, sizeof *c);
    if (!c || !(c->text = malloc(len + 1))) {
        free(c);
        return slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "%s: out of memory", name));
    }
    memcpy(c->text, text, len);
    c->text[len] = '\0';
    int rc = slpi_container_check(&c->ix, name, c->text, len, format, version, &err);
    if (rc != SLPI_OK) {
        slpi_container_free(c);
        return slpi_api_record(&err, rc);
    }
    *out = c;
    return SLPI_OK;
}

int slpi_container_count(const slpi_container *c)
{
    return c->ix.n;
}

int slpi_container_section(const slpi_container *c, int i, const char **name, const char **text, size_t *len)
{
    slpi_error err = { 0 };
    if (i < 0 || i >= c->ix.n)
        return slpi_api_record(&err,
                               slpi_error_set(&err, SLPI_EINPUT, "container: no section %d (it has %d)", i, c->ix.n));
    *name = c->ix.s[i].name;
    *text = c->text + c->ix.s[i].body;
    *len = c->ix.s[i].len;
    return SLPI_OK;
}

void slpi_container_free(slpi_container *c)
{
    if (!c) return;
    free(c->ix.s);
    free(c->text);
    free(c);
}
