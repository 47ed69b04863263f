/* bench-ref-zeitlin.c — P4 (certified-path performance): the certified ISOMP step on Euler–Zeitlin su(12)
 * at 128 bits (docs/schemes.md#isomp, docs/systems.md#euler-zeitlin: `iso/zeitlin/strong` setting, reading (Q), amp 2,
 * h = 2^-7, IC c_alpha = cos(1.3 l + 0.7 j + 0.2) over all degrees, ||X0||_F = 1).
 * Goal: <= 20 ms per step. Prints the mean step time (process CPU time: the machine is
 * shared), the radius growth, the step from which the radius exceeds 1e-30, and the
 * ref/fast cost ratio on the same steps (public slpi_fast_* API). With arguments
 * N..., the per-size table of bench_sizes below instead. */
#include "core/problem-store.h"
#include "core/view-cert.h"
#include "core/view-grid.h"
#include "core/view-system.h"
#include "slpi/fast.h"
#include "slpi/ref.h"
#include "slpi/problem-build.h"
#include "slpi/problem-shape.h"
#include "slpi/problem-finish.h"
#include "core/steps.h"
#include "ref/scheme.h"
#include "ref/zeitlin.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

slpi_ref_system_ctor slpi_ref_sys_euler_zeitlin; /* ref/euler-zeitlin.c */

#define N_EZ 12
#define PREC 128
#define STEPS 20

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Benchmark increments: a fixed xorshift stream through Box–Muller (not the
 * canonical noise; any binary64 inputs are exact inputs to the certified step). */
static double gauss(uint64_t *st)
{
    double u[2];
    for (int i = 0; i < 2; i++) {
        *st ^= *st << 13;
        *st ^= *st >> 7;
        *st ^= *st << 17;
        u[i] = ((double)(*st >> 11) + 0.5) * 0x1p-53;
    }
    return sqrt(-2 * log(u[0])) * cos(6.283185307179586 * u[1]);
}

/* `bench-ref-zeitlin N...`: for each N, the iso/zeitlin/long setting (reading (Q),
 * amp 0.1, h = 1/640, IC degrees <= 4) with N replaced: the certified path's set-up
 * time (T_lm tables), and STEPS_N certified ISOMP steps from the fast path's binary64
 * states (each step from exact doubles, as `verify --local` does) through the public
 * slpi_ref_step: CPU time per step, radius, precision used. */
#define STEPS_N 2
static int bench_sizes(int argc, char **argv)
{
    printf("%6s %8s %10s %12s %12s %8s\n", "N", "unknowns", "setup s", "step s (CPU)", "radius", "prec");
    slpi_problem *p = slpi_problem_alloc();
    if (!p) {
        fprintf(stderr, "bench-ref-zeitlin: out of memory\n");
        return 2;
    }
    for (int a = 1; a < argc; a++) {
        slpi_error err;
        slpi_fast *f = NULL;
        slpi_ref *r = NULL;
        slpi_ref_at rat = { NULL, NULL };
        slpi_steps stepping = { 0 };
        slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
        if (slpi_problem_preset(p, "iso/zeitlin/long", &err) != SLPI_OK ||
            slpi_problem_set(p, "N", argv[a], &err) != SLPI_OK || slpi_problem_finish(p, &err) != SLPI_OK ||
            slpi_fast_create(&f, p, &err) != SLPI_OK ||
            slpi_steps_open(&stepping, p, slpi_ref_step_at, &rat, 1, &err) != SLPI_OK) {
            fprintf(stderr, "bench-ref-zeitlin: N=%s: %s\n", argv[a], err.msg);
            slpi_problem_free(p);
            return 2;
        }
        int n = slpi_problem_state_dim(p);
        double *xf = malloc(sizeof(double) * (size_t)n);
        arb_ptr x = _arb_vec_init(n);
        double t0 = now();
        int rc = slpi_ref_create(&r, p, &err);
        double tsetup = now() - t0, tstep = 0, rad = 0;
        long prec = 0;
        int done = 0;
        if (rc == SLPI_OK && slpi_fast_initial_state(f, xf, &err) == SLPI_OK) {
            rat = (slpi_ref_at){ r, x };
            for (int k = 0; k < STEPS_N; k++) {
                slpi_step_status st = SLPI_STEP_INVALID;
                for (int i = 0; i < n; i++) arb_set_d(x + i, xf[i]);
                t0 = now(); /* the step's increments (microseconds) and the certified step */
                if (slpi_steps_take(&stepping, k, NULL, &st, &err) != SLPI_OK || st != SLPI_STEP_CONVERGED) {
                    printf("N=%s step %d: %s\n", argv[a], k, slpi_ref_unable_reason(r));
                    break;
                }
                tstep += now() - t0;
                slpi_step_info info = stepping.info;
                rad = info.radius > rad ? info.radius : rad;
                prec = info.prec > prec ? info.prec : prec;
                done++;
                if (slpi_step_failed(slpi_fast_step(f, xf, stepping.dW, &info))) break;
            }
        }
        if (done)
            printf("%6d %8d %10.3f %12.3f %12.3g %8ld\n", slpi_view_system(p)->ez.N, n, tsetup, tstep / done, rad,
                   prec);
        fflush(stdout);
        _arb_vec_clear(x, n);
        free(xf);
        slpi_ref_free(r);
        slpi_fast_free(f);
        slpi_steps_close(&stepping);
    }
    slpi_problem_free(p);
    flint_cleanup();
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1) return bench_sizes(argc, argv);
    slpi_ref_system s;
    slpi_error err;
    slpi_ref_zeitlin z;
    char why[256] = "";
    slpi_problem *p = slpi_problem_alloc();
    if (!p) {
        fprintf(stderr, "bench-ref-zeitlin: out of memory\n");
        return 2;
    }
    slpi_problem_init(p, SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP);
    slpi_system_view *sys = slpi_view_system_edit(p);
    sys->ez.N = N_EZ;
    sys->ez.noise = SLPI_EZ_NOISE_Q;
    sys->ez.amp = 2.0;
    slpi_view_cert_edit(p)->prec = PREC;
    memset(&s, 0, sizeof s);
    if (slpi_ref_sys_euler_zeitlin(&s, p, &err) != SLPI_OK || slpi_ref_zeitlin_init(&z, N_EZ, PREC, &err) != SLPI_OK ||
        slpi_ref_zeitlin_harmonics(&z, &err) != SLPI_OK) {
        fprintf(stderr, "bench-ref-zeitlin: %s\n", err.msg);
        slpi_problem_free(p);
        return 2;
    }
    int n = s.state_dim, nalpha = N_EZ * N_EZ - 1;
    arb_ptr c = _arb_vec_init(nalpha), x = _arb_vec_init(n);
    acb_mat_t X;
    acb_mat_init(X, N_EZ, N_EZ);
    double nrm = 0;
    for (int a = 0; a < nalpha; a++) {
        int l = slpi_ref_zeitlin_degree(a), j = a - slpi_ref_zeitlin_alpha(l, 0);
        double v = cos(1.3 * l + 0.7 * j + 0.2);
        arb_set_d(c + a, v);
        nrm += v * v;
    }
    arb_t r;
    arb_init(r);
    arb_set_d(r, sqrt(nrm));
    _arb_vec_scalar_div(c, c, nalpha, r, PREC);
    arb_clear(r);
    slpi_ref_zeitlin_synthesis(X, c, 0, &z, PREC);
    s.m_pack(&s, x, X, PREC);
    for (int i = 0; i < n; i++) /* the state comes in as binary64 */
        arb_set_d(x + i, arf_get_d(arb_midref(x + i), ARF_RND_NEAR));

    const slpi_ref_scheme *sc = slpi_ref_scheme_get(SLPI_SCHEME_ISOMP);
    double *delta = malloc(sizeof(double) * (size_t)(s.M + 1) * STEPS);
    double *xf = malloc(sizeof(double) * (size_t)n);
    uint64_t st = 0x9e3779b97f4a7c15ULL;
    double h = 1.0 / 128, total = 0, first_big = -1, rad = 0;
    for (int k = 0; k < STEPS; k++) {
        delta[k * (s.M + 1)] = h;
        for (int i = 1; i <= s.M; i++) delta[k * (s.M + 1) + i] = sqrt(h) * gauss(&st);
    }
    for (int i = 0; i < n; i++) xf[i] = arf_get_d(arb_midref(x + i), ARF_RND_NEAR);
    int done = 0;
    for (int k = 0; k < STEPS; k++) {
        double t0 = now();
        slpi_step_status r = sc->step(&s, x, delta + k * (s.M + 1), PREC, why, sizeof why);
        total += now() - t0;
        if (r != SLPI_STEP_CONVERGED) {
            printf("bench-ref-zeitlin: step %d %s: %s\n", k, slpi_step_status_name(r), why);
            break;
        }
        done++;
        rad = slpi_ref_vec_radius(x, n);
        if (rad > 1e-30 && first_big < 0) first_big = k;
    }
    double tref = done ? total / done : 0;
    printf("bench-ref-zeitlin: certified ISOMP step, Euler-Zeitlin N=%d (Q), %d bits: "
           "%.2f ms/step (CPU) over %d steps (goal <= 20 ms); max radius %.3g",
           N_EZ, PREC, 1e3 * tref, done, rad);
    if (first_big >= 0)
        printf("; radius > 1e-30 from step %.0f\n", first_big);
    else
        printf("; radius <= 1e-30 throughout\n");

    /* the same steps on the fast path: the ref/fast cost ratio */
    slpi_fast *fp;
    slpi_step_info info;
    slpi_view_grid_edit(p)->h = h;
    if (slpi_fast_create(&fp, p, &err) == SLPI_OK) {
        double t0 = now();
        int fdone = 0;
        for (int k = 0; k < STEPS; k++, fdone++)
            if (slpi_step_failed(slpi_fast_step(fp, xf, delta + k * (s.M + 1) + 1, &info))) break;
        double tfast = fdone ? (now() - t0) / fdone : 0;
        printf("bench-ref-zeitlin: fast ISOMP step %.3f ms (CPU); ref/fast cost ratio %.0f\n", 1e3 * tfast,
               tfast > 0 ? tref / tfast : 0.0);
        slpi_fast_free(fp);
    } else {
        printf("bench-ref-zeitlin: fast path unavailable: %s\n", err.msg);
    }
    free(delta);
    free(xf);
    _arb_vec_clear(c, nalpha);
    _arb_vec_clear(x, n);
    acb_mat_clear(X);
    slpi_ref_zeitlin_clear(&z);
    slpi_ref_system_clear(&s);
    slpi_problem_free(p);
    flint_cleanup();
    return done == STEPS ? 0 : 3;
}
