/* bench-ref-step — P4: cost of one certified ref step per scheme x system pair at
 * 128 bits on the systems' default sizes (rigid body, heavy top, Manakov n = 10,
 * point vortices n = 4, sine-Euler N = 3), and the goal figure for the certified
 * rigid-body IsoMP step (<= 50 us). Also: steps certified at 128 bits before the
 * radius of the state exceeds 1e-30 (capped at LIMIT steps or 2 s), from the system's
 * default initial state (fast path), on the increments sqrt(h) sin(3.3 n + j), and the
 * ref/fast cost ratio of the same steps (process CPU time). "prec" is that of the last
 * step; "ended" names the status that stopped a run early (UNABLE: the precision cap
 * was reached; invalid: the enclosure overflowed). Euler–Zeitlin is ref-b's
 * (bench-ref-zeitlin). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "slpi.h"

#define LIMIT 400

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);   /* CPU time: the machine is shared */
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* fast-path cost of the same steps (us/step); -1 if the fast path refuses the pair */
static double fast_cost(const slpi_problem *p, const double *x0, long steps)
{
    slpi_fast *f;
    slpi_error err;
    if (steps <= 0 || slpi_fast_create(&f, p, &err) != SLPI_OK)
        return -1;
    int n = slpi_problem_state_dim(p), M = slpi_problem_noise_count(p);
    double x[64], dW[64];
    long done = 0;
    slpi_step_info info;
    double t0 = now(), t;
    do {
        memcpy(x, x0, n * sizeof(double));
        for (long s = 0; s < steps; s++, done++) {
            for (int j = 0; j < M; j++)
                dW[j] = sqrt(p->h) * sin(3.3 * s + j);
            slpi_fast_step(f, x, dW, &info);
        }
    } while ((t = now() - t0) < 0.2);
    slpi_fast_free(f);
    return 1e6 * t / done;
}

int main(void)
{
    printf("%-16s %-12s %12s %12s %9s %6s %20s %s\n", "system", "scheme", "ref us/step",
           "fast us/step", "ref/fast", "prec", "steps to rad>1e-30", "ended");
    for (int sys = 0; sys < SLPI_SYS_COUNT; sys++)
        for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
            if (sys == SLPI_SYS_EULER_ZEITLIN)
                continue;
            slpi_problem p;
            slpi_error err;
            slpi_problem_init(&p, sys, k);
            slpi_ref *r;
            if (slpi_ref_create(&r, &p, &err) != SLPI_OK)
                continue;
            int n = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p);
            double x0[64], dW[64];
            slpi_fast *f;
            if (slpi_fast_create(&f, &p, &err) != SLPI_OK ||
                slpi_fast_initial_state(f, x0, &err) != SLPI_OK) {
                printf("%-16s %-12s   (no initial state: %s)\n", slpi_system_name(sys),
                       slpi_scheme_name(k), err.msg);
                slpi_ref_free(r);
                continue;
            }
            slpi_fast_free(f);
            arb_ptr x = _arb_vec_init(n);
            for (int i = 0; i < n; i++)
                arb_set_d(x + i, x0[i]);
            long steps = 0, certified = -1;
            const char *stop = "";
            double t0 = now(), t = 0;
            slpi_step_info info;
            while (steps < LIMIT && (t = now() - t0) < 2.0) {
                for (int j = 0; j < M; j++)
                    dW[j] = sqrt(p.h) * sin(3.3 * steps + j);
                slpi_step_status st = slpi_ref_step(r, x, dW, &info);
                if (st != SLPI_STEP_CONVERGED) {
                    stop = slpi_step_status_name(st);
                    break;
                }
                steps++;
                if (certified < 0 && info.radius > 1e-30)
                    certified = steps - 1;
            }
            char cert[32];
            if (certified >= 0)
                snprintf(cert, sizeof cert, "%ld", certified);
            else
                snprintf(cert, sizeof cert, ">= %ld", steps);
            double tr = steps ? 1e6 * t / steps : INFINITY, tf = fast_cost(&p, x0, steps);
            printf("%-16s %-12s %12.1f %12.3f %9.0f %6ld %20s %s\n", slpi_system_name(sys),
                   slpi_scheme_name(k), tr, tf, tf > 0 ? tr / tf : NAN, info.prec, cert, stop);
            fflush(stdout);
            _arb_vec_clear(x, n);
            slpi_ref_free(r);
        }
    /* P4 goal */
    {
        slpi_problem p;
        slpi_error err;
        slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
        slpi_ref *r;
        if (slpi_ref_create(&r, &p, &err) != SLPI_OK)
            return 1;
        arb_ptr x = _arb_vec_init(3);
        arb_set_d(x, sin(1.1));
        arb_set_d(x + 2, cos(1.1));           /* ISO §6.1 initial condition */
        double dW[3] = { 0.01, -0.02, 0.015 };
        long steps = 0;
        double t0 = now(), t;
        while ((t = now() - t0) < 1.0) {
            slpi_ref_step(r, x, dW, NULL);
            steps++;
        }
        printf("P4 certified rigid-body IsoMP step at 128 bits: %.1f us (goal <= 50 us)\n",
               1e6 * t / steps);
        _arb_vec_clear(x, 3);
        slpi_ref_free(r);
    }
    flint_cleanup();
    return 0;
}
