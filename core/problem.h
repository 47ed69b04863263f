/* core/problem.h — core's private header between the files of the problem model (slpi.h
 * declares the public functions): the defaults that keys reset (core/problem.c) and the
 * key table's services to validation (core/problem-keys.c), a model's own keys
 * (core/problem-model-keys.c). Not an interface of core:
 * other modules reach the problem through slpi.h only. */
#ifndef SLPI_CORE_PROBLEM_H
#define SLPI_CORE_PROBLEM_H

typedef struct slpi_error slpi_error; /* slpi/errors.h */
#include "slpi/registry-ids.h"
typedef struct slpi_problem slpi_problem;

/* The system's defaults for p->system (they depend on p->scheme: svi brings the SVI forms),
 * the scheme's solver defaults for p->scheme, and the defaults of the rigid body's or the
 * heavy top's form (p->system) `form` (slpi_rb_form / slpi_ht_form). */
void slpi_problem_system_defaults(slpi_problem *p);
void slpi_problem_scheme_defaults(slpi_problem *p);
void slpi_problem_form_defaults(slpi_problem *p, int form);

/* Every key's range and enum of p (also for problems filled in by code rather than parsed);
 * SLPI_OK or SLPI_EINPUT naming the key. */
int slpi_problem_check_ranges(const slpi_problem *p, slpi_error *err);
/* Key i of the table (slpi_problem_key's order) as the parser reads it, for the tests that
 * generate inputs from the table: its kind ("double", "int", "long", "u64", "enum",
 * "vec", "string" or "special"), its range (numbers, vec entries; a string's buffer size
 * in *hi) and its names (enum, NULL-terminated; else NULL). 0 past the end. */
int slpi_problem_key_kind(int i, const char **kind, double *lo, double *hi, const char *const **names);
/* 1 if key names a file (noise_file, x0_file, noise_fields). Such a key is held as an
 * absolute path: a relative value is relative to the file that names it (a key file's
 * folder, slpi_problem_load; a trajectory's, verify), else to the current folder
 * (docs/models.md#paths). */
int slpi_problem_key_is_path(const char *key);
/* The degrees l <= slpi_problem_ic_lmax(p) of euler-zeitlin's initial condition: the key
 * ic_lmax, or where it is 0 (the default) min(11, N - 1), the papers' 11 wherever N
 * allows it (docs/systems.md#euler-zeitlin). */
int slpi_problem_ic_lmax(const slpi_problem *p);
/* The name of value v of the enumerated key `key` of system s ("?" if there is none). */
const char *slpi_problem_enum_text(const char *key, slpi_system_id s, int v);

/* A model's keys beyond the table (core/problem-model-keys.c): an expression's text kept
 * as given in field (SLPI_EINPUT, naming key, when too long); noise_H<k>, param.<NAME> and t0:
 * returns 1 if key is one of them (then *rc is the result), 0 otherwise. */
int slpi_problem_set_expression(char *field, const char *key, const char *value, slpi_error *err);
int slpi_problem_set_model_key(slpi_problem *p, const char *key, const char *value, int *rc, slpi_error *err);

#endif
