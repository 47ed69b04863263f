/* slpi/container.h — the checkpoint container (part of slpi.h): the text format of every
 * checkpoint slpi writes (docs/design.md#checkpoints), for bindings that keep their
 * own state in it (python/slpi's run and ensemble checkpoints). A container names its
 * format and version and holds sections, each with its own digest, so that a reader
 * refuses another format or version, a cut file and an edited section by name. */
#ifndef SLPI_PUBLIC_CONTAINER_H
#define SLPI_PUBLIC_CONTAINER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------- handle API for bindings
 * (api/container.c): functions return SLPI_OK or an error code; slpi_api_last_error()
 * (slpi/errors.h) is the calling thread's last message. */
/* A container read and checked (slpi_container_parse). */
typedef struct slpi_container slpi_container;
/* The container of format (no blank) and version holding count sections: names[i] (1..63
 * characters of a-z, 0-9, '.', '_', '-') with the text texts[i] (whole lines: empty, or
 * ending in '\n', no NUL), written into buf (at most n bytes, NUL-terminated, as
 * snprintf); returns its length (the whole text's, as snprintf), -1 on error (recorded).
 * NULL: buf (the length only, computed without the digests; n must then be 0). */
long slpi_container_format(char *buf, size_t n, const char *format, int version, int count, const char *const *names,
                           const char *const *texts);
/* The container text (len bytes, as read from the file `name`, which the messages name)
 * of this format and version, every digest checked, into *out; refused with SLPI_EINPUT
 * naming the line and what differs: another format or version, a cut file (and the
 * section it ends in), the section whose lines were edited, the end line. *out is NULL on
 * error. Owns: *out (a copy of the text), freed with slpi_container_free. */
int slpi_container_parse(slpi_container **out, const char *name, const char *text, size_t len, const char *format,
                         int version);
/* The number of sections of c. */
int slpi_container_count(const slpi_container *c);
/* Section i's name and text (*len bytes of whole lines, within c: valid until
 * slpi_container_free); SLPI_EINPUT (recorded) when i is out of range. */
int slpi_container_section(const slpi_container *c, int i, const char **name, const char **text, size_t *len);
/* NULL: c (nothing done). */
void slpi_container_free(slpi_container *c);

#ifdef __cplusplus
}
#endif
#endif
