/* slpi/problem.h — a problem as a handle: its keys in and out, presets, the increments it
 * steps on (part of slpi.h). */
#ifndef SLPI_PUBLIC_PROBLEM_H
#define SLPI_PUBLIC_PROBLEM_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------- problem model */

/* A problem: a system, a scheme, parameters, an initial condition, a time grid and a
 * noise specification (docs/design.md#opaque-problem). Opaque: its size depends on no
 * key, so a new key is no ABI change; make one with slpi_problem_new (freed by
 * slpi_problem_free), fill it with keys (slpi_problem_set, slpi_problem_set_key,
 * slpi_problem_preset, slpi_problem_load) and read a key's canonical text back with slpi_problem_get_key. */
typedef struct slpi_problem slpi_problem;

/* Key i of the key table (slpi_problem_set's names; 0, 1, ...): its name, the system it
 * belongs to ("" for every system) and its help text; 0 past the last key. */
int slpi_problem_key(int i, const char **name, const char **system, const char **help);
/* Write the problem as key=value lines (round-trips through slpi_problem_load, except
 * for a problem with callbacks: its first line uncertified=callback H,... marks every
 * output written from it, and loading refuses that key, naming why). */
void slpi_problem_write(const slpi_problem *p, FILE *f, const char *prefix);
/* Presets (docs/experiments.md): NULL-terminated table of names and their key=value strings. */
typedef struct {
    const char *name;
    const char *settings;
    const char *what;
} slpi_preset;
const slpi_preset *slpi_presets(void);
/* A problem from a preset (slpi_presets), for slpi_problem_set_key. Returns NULL when
 * the preset is unknown or memory runs out, with slpi_api_last_error() naming why.
 * Owns: the caller frees it with slpi_problem_free.
 * NULL: preset (as "": rigid body, ISOMP). */
slpi_problem *slpi_problem_new(const char *preset);
/* NULL: p (nothing done). */
void slpi_problem_free(slpi_problem *p);

int slpi_problem_set_key(slpi_problem *p, const char *key, const char *value);
/* The increments a run of p steps on (its noise source: the canonical noise, white or
 * Ornstein-Uhlenbeck with noise_tau (docs/noise.md#ou), or its noise file, truncated per
 * the problem): out[i M + k] = increment k of step first + i, i < count, with
 * first + count <= steps; *clipped gets the number the truncation clipped. SLPI_EINPUT
 * (slpi_api_last_error says why). NULL: clipped (not asked). */
int slpi_problem_increments(const slpi_problem *p, long first, long count, double *out, long *clipped);

/* The problem's keys as slpi_problem_write prints them ("key=value" lines), finished where
 * slpi_problem_finish accepts it (as a run's header: h and steps resolved, a noise file's
 * own seed, path and noise_digest), into buf of n bytes; returns the length the whole text needs (without the terminating 0), so a
 * caller retries with a larger buffer when it is >= n; -1 on error. NULL: buf (when n is 0). */
long slpi_problem_text(const slpi_problem *p, char *buf, size_t n);
/* Key `key` of p as slpi_problem_text writes it (the value of its "key=value" line: the
 * canonical text, finished where slpi_problem_finish accepts it), into buf of n bytes;
 * returns its length (a caller retries with a larger buffer when it is >= n): 0 and ""
 * for a key the text does not hold (another system's key, a file or T not given, preset);
 * -1 with the last error naming it for a name that is no key (slpi_problem_key's table, a
 * model's noise_H<k>, param.<NAME>). The one way a key's value comes out of a problem, as
 * slpi_problem_set_key is the one way in. NULL: buf (when n is 0). */
long slpi_problem_get_key(const slpi_problem *p, const char *key, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
