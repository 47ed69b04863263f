/* oracleutil.h — helpers shared by the tests that compare the two paths case by case
 * (t-sweep.c, t-ref-soundness.c, t-ref-accurate.c): a problem from a settings string, one
 * ref step. */
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

/* The problem of settings (ou_problem, one step) with its x0 and its canonical increments of
 * step 1 into *x0 and *dW (dim and M doubles, malloc'd: the caller frees both, also on an
 * error); a failure is a test failure, printed. 1 when all is there. */
static inline int ou_problem_start(const char *settings, slpi_problem *p, double **x0, double **dW)
{
    slpi_error err = { 0, "" };
    *x0 = *dW = NULL;
    int rc = ou_problem(settings, NULL, 1, p, &err);
    if (rc == SLPI_OK) {
        *x0 = calloc((size_t)slpi_problem_state_dim(p) + 1, sizeof **x0);
        *dW = calloc((size_t)slpi_problem_noise_count(p) + 1, sizeof **dW);
        rc = *x0 && *dW ? slpi_fast_problem_initial_state(p, *x0, &err)
                        : slpi_error_set(&err, SLPI_EINPUT, "out of memory");
    }
    if (rc == SLPI_OK) rc = slpi_oracle_increments(p, 1, *dW, &err);
    TEST_CHECKF(rc == SLPI_OK, "'%s': %s", settings, err.msg);
    return rc == SLPI_OK;
}

/* One ref step of x (balls, in place) on a run object of p at the problem's precision, made
 * ready by ready (NULL: as created); 1 when it converged, else 0; why gets the status and
 * the reason. */
static inline int ou_ref_step(const slpi_problem *p, void (*ready)(slpi_ref *s), arb_ptr x, const double *dW,
                              slpi_step_info *info, char *why, size_t n)
{
    slpi_ref *s = NULL;
    slpi_error err = { 0, "" };
    memset(info, 0, sizeof *info);
    if (slpi_ref_create(&s, p, &err) != SLPI_OK) {
        snprintf(why, n, "%s", err.msg);
        return 0;
    }
    if (ready) ready(s);
    slpi_step_status st = slpi_ref_step(s, x, dW, info);
    snprintf(why, n, "%s: %s", slpi_step_status_name(st), slpi_ref_unable_reason(s));
    slpi_ref_free(s);
    return !slpi_step_failed(st);
}

#endif
