/* oracleutil.h — helpers shared by the tests that compare the two paths case by case
 * (t-sweep.c, t-ref-soundness.c): a problem from a settings string. */
#ifndef SLPI_ORACLEUTIL_H
#define SLPI_ORACLEUTIL_H

#include "oracle/oracle.h"
#include "testutil.h"

/* The problem of "key=value ..." (a preset first), then the keys of extra (may be
 * NULL), then steps (if > 0); finished. */
static inline int ou_problem(const char *settings, const char *extra, long steps, slpi_problem *p,
                             slpi_error *err)
{
    char buf[600], nsteps[32];
    char *key[40], *val[40];
    int n = 0;
    snprintf(buf, sizeof buf, "%s %s", settings, extra ? extra : "");
    char *save = NULL;
    for (char *t = strtok_r(buf, " ", &save); t && n < 38; t = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(t, '=');
        if (!eq) return slpi_error_set(err, SLPI_EINPUT, "'%s': expected key=value", t);
        *eq = '\0';
        key[n] = t;
        val[n++] = eq + 1;
    }
    if (steps > 0) {
        snprintf(nsteps, sizeof nsteps, "%ld", steps);
        key[n] = "steps";
        val[n++] = nsteps;
    }
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    int rc = slpi_problem_set_all(p, n, key, val, NULL, err);
    return rc == SLPI_OK ? slpi_problem_finish(p, err) : rc;
}

#endif
