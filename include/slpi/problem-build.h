/* slpi/problem-build.h — a problem built from defaults, presets, key files and keys
 * (part of slpi.h; slpi/problem-finish.h finishes it). */
#ifndef SLPI_PUBLIC_PROBLEM_BUILD_H
#define SLPI_PUBLIC_PROBLEM_BUILD_H

#include "slpi/errors.h"
#include "slpi/registry-ids.h"

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* The papers' defaults for system s and scheme k. */
void slpi_problem_init(slpi_problem *p, slpi_system_id s, slpi_scheme_id k);
/* Set one key=value (names as in `slpi run --help`); bad key or value → SLPI_EINPUT
 * with a message naming it. Setting "system" or "scheme" resets system defaults. */
int slpi_problem_set(slpi_problem *p, const char *key, const char *value, slpi_error *err);
/* Set n keys at once, those that reset defaults first (preset, scheme, system, form);
 * where[i] (may be NULL) prefixes error messages, e.g. "file:line".
 * NULL: where (no prefixes). */
int slpi_problem_set_all(slpi_problem *p, int n, char *const *keys, char *const *values, const char *const *where,
                         slpi_error *err);
/* Read key=value lines ('#' comments) from a file; errors name file:line. */
int slpi_problem_load(slpi_problem *p, const char *path, slpi_error *err);
/* Apply a docs/experiments.md preset by name to a problem from slpi_problem_init (sets
 * system, scheme and all its keys). */
int slpi_problem_preset(slpi_problem *p, const char *name, slpi_error *err);
/* The one problem builder every command and tool uses: p from the defaults
 * (slpi_problem_init), then the preset (NULL: none), then the key file `config` (NULL:
 * none; the keys preset, system and scheme among the given ones are applied before it, so
 * the file refines the case the caller names), then the n given keys (slpi_problem_set_all:
 * those that reset defaults first; where[i], if where is given, prefixes key i's error).
 * The caller then calls slpi_problem_finish, after any keys of its own.
 * NULL: preset, config, keys and values (when n is 0), where. */
int slpi_problem_build(slpi_problem *p, const char *preset, const char *config, int n, char *const *keys,
                       char *const *values, const char *const *where, slpi_error *err);

#ifdef __cplusplus
}
#endif
#endif
