/* container.h — the one container of every checkpoint slpi writes (core/container.c
 * documents the format): run checkpoints and stepper states (core/checkpoint.c), the
 * studies' batch checkpoints, `slpi ensemble --checkpoint`, `slpi mlmc --checkpoint`,
 * and, through slpi/container.h, the Python package's checkpoints. */
#ifndef SLPI_CORE_CONTAINER_H
#define SLPI_CORE_CONTAINER_H

#include <stddef.h>
typedef struct slpi_error slpi_error; /* slpi/errors.h */

#define SLPI_CONTAINER_NAME_MAX 64 /* a section's name: [a-z0-9._-], 1..63 characters */

typedef struct {
    char name[SLPI_CONTAINER_NAME_MAX];
    size_t body, len; /* its lines: len bytes from offset body of the text */
    long line;        /* the line number of its "section" line */
    long nlines;
} slpi_container_section_at;

typedef struct {
    int n;
    slpi_container_section_at *s; /* n sections, in file order (malloc'd) */
} slpi_container_index;

/* The whole text of a container (malloc'd, NUL-terminated, *len bytes; NULL when out of
 * memory or a name or text is malformed): format and version, then n sections, names[i]
 * with lens[i] bytes of whole lines at texts[i]. */
char *slpi_container_text(size_t *len, const char *format, int version, int n, const char *const *names,
                          const char *const *texts, const size_t *lens);
/* The length of that text, computed without it (no digest); -1 where slpi_container_text
 * would refuse. */
long slpi_container_size(const char *format, int version, int n, const char *const *names, const char *const *texts,
                         const size_t *lens);
/* The index of the container text (len bytes) of this format and version, every digest
 * checked; a refusal names `name`, the line and what differs (another format or version,
 * a cut file, the section that was edited). Free ix->s on success. */
int slpi_container_check(slpi_container_index *ix, const char *name, const char *text, size_t len, const char *format,
                         int version, slpi_error *err);
/* NULL, or why name cannot name a section. */
const char *slpi_container_bad_name(const char *name);

#endif
