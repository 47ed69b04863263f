/* oracleutil.h — helpers shared by the tests that compare the two paths case by case
 * (t-sweep.c, t-ref-soundness.c): a problem from a settings string. */
#ifndef SLPI_ORACLEUTIL_H
#define SLPI_ORACLEUTIL_H

#include "slpi.h" /* tests are white-box: the whole public API */
#include "oracle/oracle.h"
#include "testutil.h"

/* The problem of "key=value ..." (a preset first), then the keys of extra (may be
 * NULL), then steps (if > 0); finished. */
static inline int ou_problem(const char *settings, const char *extra, long steps, slpi_problem *p, slpi_error *err)
{
    char buf[2][600], nsteps[32];
    char *key[40], *val[40];
    int n = 0, first = 0, rc = SLPI_OK;
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    /* the settings, then the extra keys and steps over them (two sources: a key of
     * either may override one of the settings) */
    for (int src = 0; src < 2 && rc == SLPI_OK; src++) {
        snprintf(buf[src], sizeof buf[src], "%s", src ? (extra ? extra : "") : settings);
        char *save = NULL;
        for (char *t = strtok_r(buf[src], " ", &save); t && n < 38; t = strtok_r(NULL, " ", &save)) {
            char *eq = strchr(t, '=');
            if (!eq) return slpi_error_set(err, SLPI_EINPUT, "'%s': expected key=value", t);
            *eq = '\0';
            key[n] = t;
            val[n++] = eq + 1;
        }
        if (src == 1 && steps > 0) {
            snprintf(nsteps, sizeof nsteps, "%ld", steps);
            key[n] = "steps";
            val[n++] = nsteps;
        }
        rc = slpi_problem_set_all(p, n - first, key + first, val + first, NULL, err);
        first = n;
    }
    return rc == SLPI_OK ? slpi_problem_finish(p, err) : rc;
}

#endif
