/* bench-ref-radius — per docs/experiments.md preset on the ref path at 128 bits: how many steps are
 * certified before the radius of the state exceeds 1e-30 (canonical noise of the
 * preset, default initial state from the fast path), capped by STEP_CAP steps and
 * SECONDS of work per preset; also the largest precision used and UNABLE steps.
 * The mean-value (Lohner) propagation is on wherever slpi_ref_set_lohner allows it.
 * Usage: bench-ref-radius [FILTER [STEP_CAP [SECONDS]]]: only presets whose name
 * contains FILTER ("" for all), other caps (defaults 5000 steps, 5 s). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-scheme.h"
#include "core/steps.h"
#include "slpi.h"


static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); /* CPU time: the machine is shared */
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : "";
    long step_cap = argc > 2 ? atol(argv[2]) : 5000;
    double seconds = argc > 3 ? atof(argv[3]) : 5.0;
    printf("%-40s %-12s %10s %10s %8s %-6s %s\n", "preset", "scheme", "steps", "us/step", "maxprec", "stop",
           "propagation");
    slpi_problem *p = slpi_problem_alloc();
    if (!p) {
        fprintf(stderr, "bench-ref-radius: out of memory\n");
        return 1;
    }
    for (const slpi_preset *pr = slpi_presets(); pr->name != NULL; pr++) {
        if (strstr(pr->name, filter) == NULL) continue;
        slpi_error err;
        slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
        if (slpi_problem_preset(p, pr->name, &err) != SLPI_OK || slpi_problem_finish(p, &err) != SLPI_OK) {
            printf("%-40s   (%s)\n", pr->name, err.msg);
            continue;
        }
        slpi_ref *r = NULL;
        slpi_fast *f = NULL;
        slpi_ref_at rat = { NULL, NULL };
        slpi_steps stepping = { 0 };
        int n = slpi_problem_state_dim(p);
        double x0[4096];
        if (n > 4096 || slpi_ref_create(&r, p, &err) != SLPI_OK || slpi_fast_create(&f, p, &err) != SLPI_OK ||
            slpi_fast_initial_state(f, x0, &err) != SLPI_OK ||
            slpi_steps_open(&stepping, p, slpi_ref_step_at, &rat, 1, &err) != SLPI_OK) {
            printf("%-40s %-12s   (%s)\n", pr->name, slpi_scheme_name(slpi_view_scheme(p)->scheme),
                   n > 4096 ? "state too large" : err.msg);
            slpi_steps_close(&stepping);
            slpi_ref_free(r);
            slpi_fast_free(f);
            continue;
        }
        const char *lohner = slpi_ref_set_lohner(r, 1) == SLPI_OK ? "lohner" : "plain";
        arb_ptr x = _arb_vec_init(n);
        for (int i = 0; i < n; i++) arb_set_d(x + i, x0[i]);
        rat = (slpi_ref_at){ r, x };
        long steps = 0, maxprec = 0;
        const char *stop = "cap";
        double t0 = now(), t = 0;
        while (steps < step_cap && steps < slpi_view_grid(p)->steps) {
            if ((t = now() - t0) > seconds) {
                stop = "time";
                break;
            }
            slpi_step_status st;
            if (slpi_steps_take(&stepping, steps, NULL, &st, &err) != SLPI_OK) {
                stop = "noise";
                break;
            }
            const slpi_step_info info = stepping.info;
            if (st != SLPI_STEP_CONVERGED) {
                stop = "UNABLE";
                break;
            }
            if (info.prec > maxprec) maxprec = info.prec;
            if (info.radius > 1e-30) {
                stop = "radius";
                break;
            }
            steps++;
        }
        if (steps == slpi_view_grid(p)->steps) stop = "end";
        t = now() - t0;
        printf("%-40s %-12s %10ld %10.0f %8ld %-6s %s\n", pr->name, slpi_scheme_name(slpi_view_scheme(p)->scheme),
               steps, steps ? 1e6 * t / steps : 0.0, maxprec, stop, lohner);
        fflush(stdout);
        _arb_vec_clear(x, n);
        slpi_steps_close(&stepping);
        slpi_fast_free(f);
        slpi_ref_free(r);
    }
    slpi_problem_free(p);
    flint_cleanup();
    return 0;
}
