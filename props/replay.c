/* props/replay.c — a case as a replay string (property=...,system=...: the command a
 * failure prints) and back, the failure report, and the saved regressions under
 * tests/regressions/ that `make check` replays. */
#include <float.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/limits.h"
#include "slpi/output.h"
#include "props/props.h"
#include "core/parse.h"

void slpi_props_case_format(const slpi_props_case *c, char *buf, size_t n)
{
    snprintf(
        buf, n,
        "property=%s,system=%s,scheme=%s,variant=%d,dim=%d,steps=%ld,h=%a,mag=%.17g,amp=%.17g,noises=%d,inertia=%d",
        slpi_props_property_get(c->prop)->name, slpi_system_name(c->system), slpi_scheme_name(c->scheme), c->variant,
        c->dim, c->steps, c->h, c->mag, c->amp, c->noises, c->inertia);
    size_t len = strlen(buf);
    if (c->state && len < n) snprintf(buf + len, n - len, ",state=%d", c->state);
}

static int num(const char *key, const char *v, double *out, slpi_error *err)
{
    slpi_error why;
    if (slpi_parse_double(key, v, -DBL_MAX, DBL_MAX, out, &why) != SLPI_OK)
        return slpi_error_set(err, SLPI_EINPUT, "replay: %s=%s is not a number (%s)", key, v, why.msg);
    return SLPI_OK;
}

int slpi_props_case_parse(const char *s, slpi_props_case *c, slpi_error *err)
{
    char buf[1024];
    if (strlen(s) >= sizeof buf) return slpi_error_set(err, SLPI_EINPUT, "replay: string too long");
    strcpy(buf, s);
    uint64_t seed = c->seed;
    memset(c, 0, sizeof *c);
    c->seed = seed;
    c->prop = -1;
    c->system = SLPI_SYS_COUNT;
    c->scheme = SLPI_SCHEME_COUNT;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) return slpi_error_set(err, SLPI_EINPUT, "replay: expected key=value, got '%s'", tok);
        *eq = '\0';
        const char *k = tok, *v = eq + 1;
        double d = 0;
        if (strcmp(k, "property") == 0) {
            if ((c->prop = slpi_props_property_find(v)) < 0)
                return slpi_error_set(err, SLPI_EINPUT, "replay: unknown property '%s'", v);
        } else if (strcmp(k, "system") == 0) {
            if (slpi_system_from_name(v, &c->system))
                return slpi_error_set(err, SLPI_EINPUT, "replay: unknown system '%s'", v);
        } else if (strcmp(k, "scheme") == 0) {
            if (slpi_scheme_from_name(v, &c->scheme))
                return slpi_error_set(err, SLPI_EINPUT, "replay: unknown scheme '%s'", v);
        } else {
            static const char *const known[] = { "variant", "dim",    "steps",   "h",     "mag",
                                                 "amp",     "noises", "inertia", "state", NULL };
            int i = 0;
            while (known[i] && strcmp(known[i], k) != 0) i++;
            if (!known[i]) return slpi_error_set(err, SLPI_EINPUT, "replay: unknown key '%s'", k);
            if (num(k, v, &d, err)) return SLPI_EINPUT;
            if (strcmp(k, "variant") == 0)
                c->variant = (int)d;
            else if (strcmp(k, "dim") == 0)
                c->dim = (int)d;
            else if (strcmp(k, "steps") == 0)
                c->steps = (long)d;
            else if (strcmp(k, "h") == 0)
                c->h = d;
            else if (strcmp(k, "mag") == 0)
                c->mag = d;
            else if (strcmp(k, "amp") == 0)
                c->amp = d;
            else if (strcmp(k, "noises") == 0)
                c->noises = (int)d;
            else if (strcmp(k, "inertia") == 0)
                c->inertia = (int)d;
            else
                c->state = (int)d;
        }
    }
    if (c->prop < 0 || c->system == SLPI_SYS_COUNT || c->scheme == SLPI_SCHEME_COUNT)
        return slpi_error_set(err, SLPI_EINPUT, "replay: property, system and scheme are required");
    return slpi_props_problem_check(c, err);
}

void slpi_props_report_failure(FILE *f, const slpi_props_case *c, const slpi_props_outcome *o, int use_ref,
                               const char *dir)
{
    char buf[512];
    slpi_props_case_format(c, buf, sizeof buf);
    fprintf(f, "props: FAIL %s on %s/%s: %s\n", slpi_props_property_get(c->prop)->name, slpi_system_name(c->system),
            slpi_scheme_name(c->scheme), o->msg);
    fprintf(f, "  counterexample: %s\n", buf);
    fprintf(f, "  replay: SLPI_TEST_SEED=%" PRIu64 " slpi props --replay '%s'%s\n", c->seed, buf,
            use_ref ? "" : " --fast-only");
    if (!dir) return;
    char path[SLPI_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s-%s-%s-%" PRIu64 ".case", dir, slpi_props_property_get(c->prop)->name,
             slpi_system_name(c->system), slpi_scheme_name(c->scheme), c->seed);
    slpi_output *out = NULL;
    slpi_error err = { 0, "" };
    if (slpi_output_open(&out, path, SLPI_OUTPUT_REPLACE, &err) == SLPI_OK) {
        FILE *g = slpi_output_file(out);
        fprintf(g, "# slpi props counterexample (replayed by make check; it must pass once fixed)\n");
        fprintf(g, "# found: %s\nseed=%" PRIu64 "\ncase=%s\n", o->msg, c->seed, buf);
        if (slpi_output_commit(out, &err) == SLPI_OK) {
            fprintf(f, "  saved: %s\n", path);
            return;
        }
    }
    fprintf(f, "  could not save it: %s\n", err.msg);
}

int slpi_props_regression_load(const char *path, slpi_props_case *c, slpi_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) return slpi_error_set(err, SLPI_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    char line[1200], spec[1200] = "";
    int lineno = 0, have_seed = 0, rc = SLPI_OK;
    while (rc == SLPI_OK && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0') continue;
        if (strncmp(line, "seed=", 5) == 0) {
            slpi_error serr;
            have_seed = slpi_parse_u64("seed", line + 5, UINT64_MAX, &c->seed, &serr) == SLPI_OK;
            if (!have_seed) rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: %s", path, lineno, serr.msg);
        } else if (strncmp(line, "case=", 5) == 0) {
            snprintf(spec, sizeof spec, "%s", line + 5);
        } else {
            rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: expected seed= or case=", path, lineno);
        }
    }
    fclose(f);
    if (rc) return rc;
    if (!have_seed || !spec[0]) return slpi_error_set(err, SLPI_EINPUT, "%s: needs seed= and case= lines", path);
    rc = slpi_props_case_parse(spec, c, err);
    if (rc) {
        char msg[sizeof err->msg];
        memcpy(msg, err->msg, sizeof msg);
        snprintf(err->msg, sizeof err->msg, "%.200s: %.300s", path, msg);
    }
    return rc;
}
