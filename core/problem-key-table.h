/* problem-key-table.h — the one key table of a problem (core/problem-key-table.c): each
 * key's name, the system it belongs to (or all), its type, where it is stored in the
 * problem struct, its range and its help text. Read by core/problem-keys.c (parsing,
 * writing, `slpi run --help`) and, through it, by validation. Private to core/. */
#ifndef SLPI_CORE_PROBLEM_KEY_TABLE_H
#define SLPI_CORE_PROBLEM_KEY_TABLE_H

#include <stddef.h>

/* K_DOUBLE0: a K_DOUBLE not written back while 0 (a key that came later: the outputs of
 * problems without it stay as they were) */
/* K_PATH: a K_STRING naming a file, held absolute (slpi_problem_key_is_path: one rule for
 * a relative path, docs/models.md#paths) */
/* K_SPECIAL: set by its own code in core/problem-keys.c; a system's key form (its values
 * in enums) keeps its value at offset, written first of the system's keys */
enum slpi_key_type { K_DOUBLE, K_DOUBLE0, K_INT, K_LONG, K_U64, K_ENUM, K_VEC, K_STRING, K_SPECIAL, K_PATH };

typedef struct {
    const char *name;
    int system; /* -1: every system */
    enum slpi_key_type type;
    size_t offset;
    int count;                /* K_VEC: number of doubles; K_STRING, K_PATH: buffer size */
    const char *const *enums; /* K_ENUM: NULL-terminated names, value = index */
    double lo, hi;            /* numeric range (inclusive) */
    const char *help;
} slpi_key_def;

/* Row i of the table: the keys of every system, then each system's own rows (its
 * descriptor's, core/system.h) in system order; NULL past the end. */
const slpi_key_def *slpi_problem_key_row(int i);

/* The value names two tables share (core/system-shared.c): 0 | 1, none | quad. */
extern const char *const slpi_key_bool[];
extern const char *const slpi_key_none_quad[];

#endif
