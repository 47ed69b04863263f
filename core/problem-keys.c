/* problem-keys.c — a problem's keys through the one key table (core/problem-key-table.c:
 * each key's name, the system it belongs to (or all), its type, where it is stored, its
 * range and its help text): parsing key=value settings with errors that name the bad key
 * or value, presets applied as keys, and writing a problem back as keys. A model's own keys
 * (noise_H<k>, param.<NAME>) and callbacks are in core/problem-model-keys.c, problem files
 * and the builder in core/problem-build.c. `slpi run --help`
 * and `slpi list --keys` print the table, so the documentation cannot drift from the
 * parser; validation (core/problem-validate.c) checks every key's range through it. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem.h"
#include "slpi/problem-build.h"
#include "slpi/callback.h"
#include "core/problem-struct.h"
#include "core/problem-key-table.h"
#include "core/expr.h"
#include "core/problem.h"
#include "core/zeitlin-family.h"
#include "core/parse.h"
#include "core/fpmode.h"
#include "core/command.h"
#include "core/system.h"


/* ------------------------------------------------------------ parsing */

/* Comma-separated finite doubles in [lo, hi] (strict, core/parse.c); returns the count,
 * or -1 with the error naming the entry. */
static int parse_list(const char *key, const char *s, double lo, double hi, double *out, int max, slpi_error *err)
{
    char buf[8192];
    if (strlen(s) >= sizeof buf) {
        slpi_error_set(err, SLPI_EINPUT, "%s: value too long", key);
        return -1;
    }
    strcpy(buf, s);
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char name[64];
        snprintf(name, sizeof name, "%s: entry %d:", key, n + 1);
        if (n >= max) {
            slpi_error_set(err, SLPI_EINPUT, "%s: more than %d entries", key, max);
            return -1;
        }
        if (slpi_parse_double(name, tok, lo, hi, &out[n], err) != SLPI_OK) return -1;
        n++;
    }
    if (n == 0) {
        slpi_error_set(err, SLPI_EINPUT, "%s=%s: no values", key, s);
        return -1;
    }
    return n;
}

static const slpi_key_def *find_key(const char *name, slpi_system_id s)
{
    const slpi_key_def *k;
    for (int i = 0; (k = slpi_problem_key_row(i)); i++)
        if (strcmp(k->name, name) == 0 && (k->system < 0 || k->system == (int)s)) return k;
    return NULL;
}

static int enum_index(const char *const *names, const char *v)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], v) == 0) return i;
    return -1;
}

static int bad_enum(slpi_error *err, const char *key, const char *value, const char *const *names)
{
    char list[256] = "";
    for (int i = 0; names[i]; i++) {
        strncat(list, i ? " | " : "", sizeof list - strlen(list) - 1);
        strncat(list, names[i], sizeof list - strlen(list) - 1);
    }
    return slpi_error_set(err, SLPI_EINPUT, "%s=%s: expected one of %s", key, value, list);
}

static int set_special(slpi_problem *p, const slpi_key_def *k, const char *value, slpi_error *err)
{
    if (strcmp(k->name, "system") == 0) {
        slpi_system_id s;
        if (slpi_system_from_name(value, &s) != 0)
            return slpi_error_set(err, SLPI_EINPUT, "system=%s: unknown system (see `slpi list`)", value);
        slpi_scheme_id sch = p->sch.scheme;
        slpi_problem_init(p, s, sch);
        return SLPI_OK;
    }
    if (strcmp(k->name, "scheme") == 0) {
        slpi_scheme_id sch;
        if (slpi_scheme_from_name(value, &sch) != 0)
            return slpi_error_set(err, SLPI_EINPUT, "scheme=%s: unknown scheme (see `slpi list`)", value);
        slpi_scheme_id old = p->sch.scheme;
        p->sch.scheme = sch;
        /* The heavy top's SVI scheme has its own state (Pi, Gamma, R): switching to or
         * from it switches the form and its defaults. Every other system keeps its
         * parameters, so "preset, then another scheme" runs the same case. */
        if ((old == SLPI_SCHEME_SVI) != (sch == SLPI_SCHEME_SVI) && slpi_system_get(p->sys.system)->svi_resets_defaults)
            slpi_problem_system_defaults(p);
        slpi_problem_scheme_defaults(p);
        return SLPI_OK;
    }
    if (strcmp(k->name, "preset") == 0) return slpi_problem_preset(p, value, err);
    if (strcmp(k->name, "form") == 0) {
        int i = enum_index(k->enums, value);
        if (i < 0) return bad_enum(err, k->name, value, k->enums);
        slpi_problem_form_defaults(p, i);
        return SLPI_OK;
    }
    if (strcmp(k->name, "algebra") == 0) { /* the one parse of a problem's algebra */
        slpi_algebra a;
        if (slpi_algebra_parse(&a, "algebra", value, err) != SLPI_OK) return SLPI_EINPUT;
        p->sys.model.alg = a;
        slpi_algebra_text(&a, p->sys.model.algebra, sizeof p->sys.model.algebra);
        return SLPI_OK;
    }
    if (strcmp(k->name, "H") == 0) return slpi_problem_set_expression(p->sys.model.H, "H", value, err);
    if (strcmp(k->name, "x0") == 0) {
        double x[SLPI_MAX_X0];
        int n = parse_list("x0", value, -DBL_MAX, DBL_MAX, x, SLPI_MAX_X0, err);
        if (n < 0) return SLPI_EINPUT;
        memcpy(p->sys.x0, x, (size_t)n * sizeof x[0]);
        p->sys.n_x0 = n;
        return SLPI_OK;
    }
    return slpi_error_set(err, SLPI_EINPUT, "%s: internal error (unhandled key)", k->name);
}

static int set_key(slpi_problem *p, const char *key, const char *value, slpi_error *err)
{
    int rc;
    /* slpi_problem_write's mark of a problem whose Hamiltonians are code: the code is not
     * in the text, so the text cannot be run (docs/models.md#callbacks) */
    if (strcmp(key, "uncertified") == 0)
        return slpi_error_set(err, SLPI_EINPUT,
                              "uncertified=%.40s: these Hamiltonians were given as code "
                              "(callbacks), which no file holds: a file written from a callback problem cannot be "
                              "re-verified, resumed or run without the callback; run it through the C or Python API "
                              "with the same callbacks (docs/models.md#callbacks)",
                              value ? value : "");
    if (p->sys.system == SLPI_SYS_MODEL && (value == NULL || value[0] == '\0'))
        return slpi_error_set(err, SLPI_EINPUT, "%s: missing value", key);
    if (p->sys.system == SLPI_SYS_MODEL && slpi_problem_set_model_key(p, key, value, &rc, err)) return rc;
    const slpi_key_def *k = find_key(key, p->sys.system);
    if (!k) {
        for (int i = 0; slpi_problem_key_row(i); i++)
            if (strcmp(slpi_problem_key_row(i)->name, key) == 0)
                return slpi_error_set(err, SLPI_EINPUT, "%s: not a parameter of system %s", key,
                                      slpi_system_name(p->sys.system));
        return slpi_error_set(err, SLPI_EINPUT, "%s: unknown key (the keys: `slpi list --keys`, slpi_problem_key)",
                              key);
    }
    if (value == NULL || value[0] == '\0') return slpi_error_set(err, SLPI_EINPUT, "%s: missing value", key);
    char *field = (char *)p + k->offset;
    switch (k->type) {
    case K_SPECIAL:
        return set_special(p, k, value, err);
    case K_DOUBLE:
    case K_DOUBLE0:
        if (slpi_parse_double(key, value, k->lo, k->hi, (double *)field, err) != SLPI_OK) return SLPI_EINPUT;
        if (k->offset == offsetof(slpi_problem, grid.h)) p->grid.level = -1;
        return SLPI_OK;
    case K_INT:
    case K_LONG: {
        long v;
        if (slpi_parse_long(key, value, (long)k->lo, (long)k->hi, &v, err) != SLPI_OK) return SLPI_EINPUT;
        if (k->type == K_INT)
            *(int *)field = (int)v;
        else
            *(long *)field = v;
        if (k->offset == offsetof(slpi_problem, grid.steps)) {
            p->grid.T = 0.0;
            p->grid.level = -1;
        }
        return SLPI_OK;
    }
    case K_U64:
        if (k->offset == offsetof(slpi_problem, noise.seed)) {
            p->noise.seed_from_file = strcmp(value, "file") == 0;
            if (p->noise.seed_from_file) return SLPI_OK;
        }
        return slpi_parse_u64(key, value, UINT64_MAX, (uint64_t *)field, err);
    case K_ENUM: {
        int i = enum_index(k->enums, value);
        if (i < 0) return bad_enum(err, key, value, k->enums);
        *(int *)field = i;
        return SLPI_OK;
    }
    case K_VEC: {
        double tmp[8];
        int n = parse_list(key, value, k->lo, k->hi, tmp, 8, err);
        if (n < 0) return SLPI_EINPUT;
        if (n != k->count)
            return slpi_error_set(err, SLPI_EINPUT, "%s=%s: expected %d comma-separated finite numbers", key, value,
                                  k->count);
        memcpy(field, tmp, (size_t)n * sizeof(double));
        return SLPI_OK;
    }
    case K_STRING:
    case K_PATH: {
        char abs[SLPI_PATH_MAX + 1] = "";
        if (k->type == K_PATH && value[0] != '/' && !getcwd(abs, sizeof abs - 1))
            return slpi_error_set(err, SLPI_EINPUT,
                                  "%s=%.200s: a relative path, and the current folder has no name "
                                  "(%s)",
                                  key, value, strerror(errno));
        if (abs[0]) strcat(abs, "/"); /* relative to the current folder: held absolute */
        if (strlen(abs) + strlen(value) >= (size_t)k->count)
            return slpi_error_set(err, SLPI_EINPUT, "%s: value too long%s", key, abs[0] ? " (made absolute)" : "");
        strcpy(field, abs);
        strcat(field, value);
        if (k->offset == offsetof(slpi_problem, noise.noise_file)) p->noise.noise_digest = 0; /* another file's */
        if (k->offset == offsetof(slpi_problem, noise.noise_tau)) return slpi_noise_tau_check(field, err);
        if (k->offset == offsetof(slpi_problem, sys.ez.noise_fields)) return slpi_zeitlin_fields_count(p, err);
        return SLPI_OK;
    }
    }
    return slpi_error_set(err, SLPI_EINPUT, "%s: internal error (bad key type)", key);
}

/* A time grid given as T or level is resolved into (h, steps) by slpi_problem_finish: a
 * key that changes the grid (T, level, h, steps, or a reset of defaults) while T or level
 * is in force makes the paths' create refuse the problem until it is finished again
 * (slpi_problem_check_finished); other keys leave a finished problem finished. */
int slpi_problem_set(slpi_problem *p, const char *key, const char *value, slpi_error *err)
{
    double T = p->grid.T, h = p->grid.h;
    long steps = p->grid.steps;
    int level = p->grid.level;
    int rc = set_key(p, key, value, err);
    if (rc == SLPI_OK && (T != p->grid.T || h != p->grid.h || steps != p->grid.steps || level != p->grid.level))
        p->unfinished = p->grid.T > 0 || p->grid.level >= 0;
    return rc;
}

/* Keys that reset defaults must be applied before the others: preset, scheme, system
 * (whose defaults depend on the scheme: SVI brings the SVI forms), form. */
static int key_rank(const char *key)
{
    if (strcmp(key, "preset") == 0) return 0;
    if (strcmp(key, "scheme") == 0) return 1; /* before system: the system's defaults */
    if (strcmp(key, "system") == 0) return 2; /* then follow the scheme (SVI forms) */
    if (strcmp(key, "form") == 0) return 3;
    return 4;
}

int slpi_problem_set_all(slpi_problem *p, int n, char *const *kv_keys, char *const *kv_values, const char *const *where,
                         slpi_error *err)
{
    /* one source (a file, the command line, a preset) gives each key once: a second value
     * would silently win or lose */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(kv_keys[i], kv_keys[j]))
                return slpi_error_set(err, SLPI_EINPUT, "%s%s%s: key given twice (%s=%.60s%s%s, then %s=%.60s)",
                                      where && where[i] ? where[i] : "", where && where[i] ? ": " : "", kv_keys[i],
                                      kv_keys[j], kv_values[j], where && where[j] ? " at " : "",
                                      where && where[j] ? where[j] : "", kv_keys[i], kv_values[i]);
    for (int rank = 0; rank <= 4; rank++)
        for (int i = 0; i < n; i++) {
            if (key_rank(kv_keys[i]) != rank) continue;
            if (slpi_problem_set(p, kv_keys[i], kv_values[i], err) != SLPI_OK) {
                if (where && where[i] && err) {
                    char msg[sizeof err->msg];
                    memcpy(msg, err->msg, sizeof msg);
                    snprintf(err->msg, sizeof err->msg, "%.200s: %.300s", where[i], msg);
                }
                return SLPI_EINPUT;
            }
        }
    return SLPI_OK;
}

/* A preset's settings (core/presets.c holds the cases as data), applied as keys. */
int slpi_problem_preset(slpi_problem *p, const char *name, slpi_error *err)
{
    for (const slpi_preset *c = slpi_presets(); c->name; c++) {
        if (strcmp(c->name, name) != 0) continue;
        char buf[1024];
        char *k[32], *v[32];
        int n = 0;
        strcpy(buf, c->settings);
        char *save = NULL;
        for (char *tok = strtok_r(buf, " ", &save); tok && n < 32; tok = strtok_r(NULL, " ", &save)) {
            char *eq = strchr(tok, '=');
            *eq = '\0';
            k[n] = tok;
            v[n] = eq + 1;
            n++;
        }
        int rc = slpi_problem_set_all(p, n, k, v, NULL, err);
        if (rc == SLPI_OK) {
            strncpy(p->sys.preset, name, sizeof p->sys.preset - 1);
            p->sys.preset[sizeof p->sys.preset - 1] = '\0';
        }
        return rc;
    }
    return slpi_error_set(err, SLPI_EINPUT, "preset=%s: unknown preset (see `slpi list`)", name);
}
/* ------------------------------------------------------------ ranges */

/* Every key's range and enum, also for problems filled in by code rather than parsed. */
int slpi_problem_check_ranges(const slpi_problem *p, slpi_error *err)
{
    const slpi_key_def *k;
    for (int i = 0; (k = slpi_problem_key_row(i)); i++) {
        if (k->system >= 0 && k->system != (int)p->sys.system) continue;
        const char *field = (const char *)p + k->offset;
        double v[8];
        int n = 1;
        switch (k->type) {
        case K_DOUBLE:
        case K_DOUBLE0:
            v[0] = *(const double *)field;
            break;
        case K_INT:
            v[0] = *(const int *)field;
            break;
        case K_LONG:
            v[0] = (double)*(const long *)field;
            break;
        case K_VEC:
            n = k->count;
            memcpy(v, field, (size_t)n * sizeof(double));
            break;
        case K_ENUM: {
            int e = *(const int *)field, count = 0;
            while (k->enums[count]) count++;
            if (e < 0 || e >= count) return slpi_error_set(err, SLPI_EINPUT, "%s: invalid value %d", k->name, e);
            continue;
        }
        default:
            continue;
        }
        /* unset optional keys */
        if ((k->offset == offsetof(slpi_problem, grid.T) && v[0] == 0) ||
            (k->offset == offsetof(slpi_problem, grid.level) && v[0] == -1))
            continue;
        for (int j = 0; j < n; j++)
            if (!(v[j] >= k->lo && v[j] <= k->hi))
                return slpi_error_set(err, SLPI_EINPUT, "%s=%g: out of range [%g, %g]", k->name, v[j], k->lo, k->hi);
    }
    return SLPI_OK;
}

const char *slpi_problem_enum_text(const char *key, slpi_system_id s, int v)
{
    const slpi_key_def *k = find_key(key, s);
    int n = 0;
    while (k && k->enums && k->enums[n]) n++;
    return v >= 0 && v < n ? k->enums[v] : "?";
}

/* ------------------------------------------------------------ writing */

static void write_value(const slpi_key_def *k, const slpi_problem *p, FILE *f, const char *prefix)
{
    const char *field = (const char *)p + k->offset;
    fprintf(f, "%s%s=", prefix, k->name);
    switch (k->type) {
    case K_DOUBLE:
    case K_DOUBLE0:
        fprintf(f, "%.17g", *(const double *)field);
        break;
    case K_INT: /* ic_lmax: the degree the default stands for, what a reader of the file runs */
        fprintf(f, "%d",
                k->offset == offsetof(slpi_problem, sys.ez.ic_lmax) ? slpi_problem_ic_lmax(p) : *(const int *)field);
        break;
    case K_LONG:
        fprintf(f, "%ld", *(const long *)field);
        break;
    case K_U64:
        if (k->offset == offsetof(slpi_problem, noise.seed) && p->noise.seed_from_file && !p->noise.noise_digest)
            fprintf(f, "file"); /* not yet bound to its noise file (slpi_problem_finish) */
        else
            fprintf(f, "%llu", (unsigned long long)*(const uint64_t *)field);
        break;
    case K_ENUM:
        fprintf(f, "%s", k->enums[*(const int *)field]);
        break;
    case K_VEC:
        for (int i = 0; i < k->count; i++) fprintf(f, "%s%.17g", i ? "," : "", ((const double *)field)[i]);
        break;
    case K_STRING:
    case K_PATH:
        fprintf(f, "%s", field);
        break;
    case K_SPECIAL:
        break;
    }
    fputc('\n', f);
}

void slpi_problem_write(const slpi_problem *p, FILE *f, const char *prefix)
{
    char cb[256];
    slpi_fpmode r = slpi_round_nearest(); /* %.17g as every caller's: core/fpmode.h */
    if (slpi_problem_callbacks(p, cb, sizeof cb)) fprintf(f, "%suncertified=callback %s\n", prefix, cb);
    fprintf(f, "%ssystem=%s\n", prefix, slpi_system_name(p->sys.system));
    fprintf(f, "%sscheme=%s\n", prefix, slpi_scheme_name(p->sch.scheme));
    const slpi_key_def *k = find_key("form", p->sys.system);
    if (k && k->system >= 0) fprintf(f, "%sform=%s\n", prefix, k->enums[*(const int *)((const char *)p + k->offset)]);
    for (int i = 0; (k = slpi_problem_key_row(i)); i++) {
        if (k->type == K_SPECIAL || (k->system >= 0 && k->system != (int)p->sys.system)) continue;
        if ((k->type == K_STRING || k->type == K_PATH) && ((const char *)p + k->offset)[0] == '\0') continue;
        if (k->type == K_DOUBLE0 && *(const double *)((const char *)p + k->offset) == 0.0) continue;
        if ((strcmp(k->name, "T") == 0 && p->grid.T == 0) || (strcmp(k->name, "level") == 0 && p->grid.level < 0) ||
            (k->offset == offsetof(slpi_problem, noise.noise_digest) && !p->noise.noise_digest) ||
            (k->offset == offsetof(slpi_problem, sys.ez.noise_fields_digest) && !p->sys.ez.noise_fields_digest))
            continue;
        write_value(k, p, f, prefix);
    }
    if (p->sys.system == SLPI_SYS_MODEL) {
        fprintf(f, "%salgebra=%s\n", prefix, p->sys.model.algebra);
        if (p->sys.model.H[0]) fprintf(f, "%sH=%s\n", prefix, p->sys.model.H);
        for (int k = 0; k < SLPI_MODEL_MAX_NOISE; k++)
            if (p->sys.model.noise_H[k][0]) fprintf(f, "%snoise_H%d=%s\n", prefix, k + 1, p->sys.model.noise_H[k]);
        for (int i = 0; i < p->sys.model.nparam; i++)
            fprintf(f, "%sparam.%s=%s\n", prefix, p->sys.model.param_name[i], p->sys.model.param_text[i]);
        if (p->sys.model.t0_text[0]) fprintf(f, "%st0=%s\n", prefix, p->sys.model.t0_text);
    }
    if (p->sys.n_x0 > 0) {
        fprintf(f, "%sx0=", prefix);
        for (int i = 0; i < p->sys.n_x0; i++) fprintf(f, "%s%.17g", i ? "," : "", p->sys.x0[i]);
        fputc('\n', f);
    }
    slpi_round_restore(r);
}

int slpi_problem_key(int i, const char **name, const char **system, const char **help)
{
    const slpi_key_def *k = slpi_problem_key_row(i);
    if (!k) return 0;
    *name = k->name;
    *system = k->system < 0 ? "" : slpi_system_name((slpi_system_id)k->system);
    *help = k->help;
    return 1;
}

int slpi_problem_key_kind(int i, const char **kind, double *lo, double *hi, const char *const **names)
{
    static const char *const kinds[] = { "double", "double", "int",    "long",    "u64",
                                         "enum",   "vec",    "string", "special", "path" };
    const slpi_key_def *k = slpi_problem_key_row(i);
    if (!k) return 0;
    *kind = kinds[k->type];
    *lo = k->lo;
    *hi = k->type == K_STRING || k->type == K_PATH ? k->count : k->hi;
    *names = k->enums;
    return 1;
}

int slpi_problem_key_is_path(const char *key)
{
    const slpi_key_def *k;
    for (int i = 0; (k = slpi_problem_key_row(i)); i++)
        if (k->type == K_PATH && strcmp(k->name, key) == 0) return 1;
    return 0;
}

void slpi_problem_print_keys(FILE *f)
{
    int w = 15; /* the name column: as wide as the longest key */
    const slpi_key_def *k;
    for (int i = 0; (k = slpi_problem_key_row(i)); i++)
        if ((int)strlen(k->name) > w) w = (int)strlen(k->name);
    for (int i = 0; (k = slpi_problem_key_row(i)); i++) {
        fprintf(f, "  %-*s %-15s %s\n", w, k->name, k->system < 0 ? "" : slpi_system_name((slpi_system_id)k->system),
                k->help);
    }
}
