/* t-fast-sine-euler.c — sine-Euler on su(N), N odd, double path (docs/systems.md#sine-euler): the basis
 * relations of T_m, Fourier I/O, the vector field against the Fourier form eq. (55),
 * the Casimir and energy closed forms against matrix traces, the canonical initial
 * condition's printed invariants, and the diagnostics. Scale-free ratios
 * |err| / (n u scale), u = 2^-53. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/problem-struct.h"
#include "fast/system.h"
#include "fast/sine-euler.h"
#include "fast/sun.h"
#include "testutil.h"

slpi_fast_system_ctor slpi_fast_sys_sine_euler; /* fast/sine-euler.c */

#define U (DBL_EPSILON / 2)

typedef double complex cplx;

static void cmul(int N, const cplx *A, const cplx *B, cplx *C)
{
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            cplx s = 0;
            for (int k = 0; k < N; k++) s += A[i + (size_t)N * k] * B[k + (size_t)N * j];
            C[i + (size_t)N * j] = s;
        }
}

static cplx ctrace(int N, const cplx *A)
{
    cplx t = 0;
    for (int a = 0; a < N; a++) t += A[a + (size_t)N * a];
    return t;
}

/* Random skew-Hermitian coefficients: omega_{-m} = conj(omega_m). */
static void rand_omega(const slpi_fast_sine_euler_basis *b, cplx *om, int real_even)
{
    for (int k = b->nm / 2; k < b->nm; k++) {
        int m1, m2;
        slpi_fast_sine_euler_mode_of(b, k, &m1, &m2);
        cplx v = CMPLX(test_rand_uniform(-0.5, 0.5), real_even ? 0 : test_rand_uniform(-0.5, 0.5));
        om[k] = v;
        om[slpi_fast_sine_euler_mode(b, -m1, -m2)] = conj(v);
    }
}

static int wedge(int a1, int a2, int b1, int b2)
{
    return a1 * b2 - a2 * b1;
}

static void check_basis(int N)
{
    slpi_fast_sine_euler_basis b;
    slpi_error err;
    TEST_CHECK(slpi_fast_sine_euler_basis_init(&b, N, &err) == SLPI_OK);
    size_t NN = (size_t)N * N;
    double scale = 1 / (2 * b.eps); /* |entries of T_m| */
    cplx *T = calloc(NN * b.nm, sizeof *T), *A = malloc(NN * sizeof *A), *B = malloc(NN * sizeof *B);
    for (int k = 0; k < b.nm; k++) slpi_fast_sine_euler_add(&b, k, 1.0, T + k * NN);
    double herm = 0, gram = 0, comm = 0, tr = 0;
    for (int i = 0; i < b.nm; i++) {
        int a1, a2;
        slpi_fast_sine_euler_mode_of(&b, i, &a1, &a2);
        TEST_CHECK(slpi_fast_sine_euler_mode(&b, a1, a2) == i);
        TEST_CHECK(slpi_fast_sine_euler_mode(&b, a1 + N, a2 - 2 * N) == i);
        const cplx *Ti = T + i * NN, *Tn = T + slpi_fast_sine_euler_mode(&b, -a1, -a2) * NN;
        for (int a = 0; a < N; a++)
            for (int e = 0; e < N; e++) herm = fmax(herm, cabs(conj(Ti[e + (size_t)N * a]) + Tn[a + (size_t)N * e]));
        tr = fmax(tr, cabs(ctrace(N, Ti)));
        for (int j = 0; j < b.nm; j++) {
            int b1, b2;
            slpi_fast_sine_euler_mode_of(&b, j, &b1, &b2);
            const cplx *Tj = T + j * NN;
            cplx g = 0;
            for (size_t e = 0; e < NN; e++) g += conj(Ti[e]) * Tj[e];
            gram = fmax(gram, cabs(g - (i == j ? N * scale * scale : 0)));
            /* [T_a, T_b] = sin(eps a^b)/eps T_{a+b} */
            cmul(N, Ti, Tj, A);
            cmul(N, Tj, Ti, B);
            int k = slpi_fast_sine_euler_mode(&b, a1 + b1, a2 + b2);
            double f = sin(b.eps * wedge(a1, a2, b1, b2)) / b.eps;
            for (size_t e = 0; e < NN; e++) {
                cplx ref = k < 0 ? 0 : f * T[k * NN + e];
                comm = fmax(comm, cabs(A[e] - B[e] - ref));
            }
        }
    }
    TEST_CHECKF(herm / (N * U * scale) < 4, "T_m^* = -T_-m N=%d: %.3g", N, herm);
    TEST_CHECKF(tr / (N * U * scale) < 4, "tr T_m = 0 N=%d: %.3g", N, tr);
    TEST_CHECKF(gram / (N * U * N * scale * scale) < 8, "Gram N=%d: ratio %.3g", N, gram / (N * U * N * scale * scale));
    TEST_CHECKF(comm / (N * U * N * scale * scale) < 16, "[T_a,T_b] N=%d: ratio %.3g", N,
                comm / (N * U * N * scale * scale));

    /* Fourier round trip, and the closed forms against matrix traces */
    cplx *om = malloc(b.nm * sizeof *om), *om2 = malloc(b.nm * sizeof *om2);
    cplx *W = malloc(NN * sizeof *W), *P = calloc(NN, sizeof *P);
    rand_omega(&b, om, 0);
    slpi_fast_sine_euler_from_fourier(&b, om, W);
    slpi_fast_sine_euler_to_fourier(&b, W, om2);
    double rt = 0;
    for (int k = 0; k < b.nm; k++) rt = fmax(rt, cabs(om[k] - om2[k]));
    TEST_CHECKF(rt / (N * U) < 16, "Fourier round trip N=%d: ratio %.3g", N, rt / (N * U));
    cmul(N, W, W, A);
    cplx t2 = ctrace(N, A);
    cmul(N, A, W, B);
    cplx t3 = ctrace(N, B), c3 = slpi_fast_sine_euler_tr3(&b, om);
    double c2 = slpi_fast_sine_euler_c2(&b, om);
    slpi_fast_sine_euler_stream(&b, 1.0, W, P);
    cmul(N, W, P, A);
    double h = slpi_fast_sine_euler_energy(&b, om), hm = 0.5 * creal(ctrace(N, A));
    double r2 = cabs(t2 - c2) / (N * U * fabs(c2));
    double r3 = cabs(t3 - c3) / (N * N * U * cabs(t3));
    double rh = fabs(h - hm) / (N * U * h);
    TEST_CHECKF(r2 < 64, "C2 closed form N=%d: ratio %.3g", N, r2);
    TEST_CHECKF(r3 < 64, "Tr W^3 closed form N=%d: ratio %.3g", N, r3);
    TEST_CHECKF(fabs(creal(t3)) <= 1e-13 * cabs(t3), "Tr W^3 imaginary N=%d", N);
    TEST_CHECKF(rh < 64, "energy closed form N=%d: ratio %.3g", N, rh);
    printf("  N=%d: basis herm %.2g tr %.2g gram %.2g comm %.2g; round trip %.2f; C2 %.2f "
           "C3 %.2f h %.2f (ratios)\n",
           N, herm, tr, gram, comm, rt / (N * U), r2, r3, rh);
    free(T);
    free(A);
    free(B);
    free(om);
    free(om2);
    free(W);
    free(P);
}

/* Eq. (55) coefficientwise: d omega_m = sum_n sin(eps m^n)/eps omega_{m-n}
 * (omega_n / |n|^2 h + sum_i zeta_{i,n} dW_i), zeta_{1,+-(1,1)} = zeta_{2,+-(1,-1)} = amp. */
static void fourier_field(const slpi_fast_sine_euler_basis *b, double amp, const double *delta, const cplx *om,
                          cplx *out)
{
    for (int i = 0; i < b->nm; i++) {
        int m1, m2;
        slpi_fast_sine_euler_mode_of(b, i, &m1, &m2);
        cplx s = 0;
        for (int j = 0; j < b->nm; j++) {
            int n1, n2;
            slpi_fast_sine_euler_mode_of(b, j, &n1, &n2);
            int k = slpi_fast_sine_euler_mode(b, m1 - n1, m2 - n2);
            if (k < 0) continue;
            cplx f = om[j] / (double)(n1 * n1 + n2 * n2) * delta[0];
            if ((n1 == 1 && n2 == 1) || (n1 == -1 && n2 == -1)) f += amp * delta[1];
            if ((n1 == 1 && n2 == -1) || (n1 == -1 && n2 == 1)) f += amp * delta[2];
            s += sin(b->eps * wedge(m1, m2, n1, n2)) / b->eps * om[k] * f;
        }
        out[i] = s;
    }
}

static void check_system(int N, int samples)
{
    slpi_problem p;
    slpi_error err;
    slpi_problem_init(&p, SLPI_SYS_SINE_EULER, SLPI_SCHEME_ISOMP);
    p.sys.se.N = N;
    slpi_fast_system s;
    memset(&s, 0, sizeof s);
    int rc = slpi_fast_sys_sine_euler(&s, &p, &err);
    TEST_CHECKF(rc == SLPI_OK, "create N=%d: %s", N, err.msg);
    if (rc) return;
    slpi_fast_sine_euler_basis b;
    slpi_fast_sine_euler_basis_init(&b, N, &err);
    int dim = s.state_dim;
    size_t NN = (size_t)N * N;
    double *mu = malloc(dim * sizeof *mu), *xi = malloc(dim * sizeof *xi), *v = malloc(dim * sizeof *v),
           *ref = malloc(dim * sizeof *ref), *tmp = malloc(dim * sizeof *tmp);
    cplx *om = malloc(b.nm * sizeof *om), *f = malloc(b.nm * sizeof *f), *W = malloc(NN * sizeof *W);
    double worst = 0, worst_k = 0;
    for (int it = 0; it < samples; it++) {
        double delta[3] = { test_rand_uniform(0, 1), test_rand_uniform(-1, 1), test_rand_uniform(-1, 1) };
        rand_omega(&b, om, 0);
        slpi_fast_sine_euler_from_fourier(&b, om, W);
        /* plus a trace part: central, it must not change the field */
        double c = test_rand_uniform(-1, 1);
        for (int i = 0; i < N; i++) W[i + (size_t)N * i] += I * c;
        slpi_fast_sun_pack(mu, W, N);
        s.gen_sum(&s, xi, delta, mu);
        s.coad(&s, v, xi, mu);
        /* the same through the per-component gradients */
        memset(ref, 0, dim * sizeof *ref);
        for (int k = 0; k <= s.M; k++) {
            s.gen(&s, k, xi, mu);
            s.coad(&s, tmp, xi, mu);
            for (int i = 0; i < dim; i++) ref[i] += delta[k] * tmp[i];
        }
        fourier_field(&b, p.sys.se.amp, delta, om, f);
        slpi_fast_sine_euler_from_fourier(&b, f, W);
        slpi_fast_sun_pack(tmp, W, N);
        double e = 0, e2 = 0, sc = 0;
        for (int i = 0; i < dim; i++) {
            e = fmax(e, fabs(v[i] - tmp[i]));
            e2 = fmax(e2, fabs(v[i] - ref[i]));
        }
        for (int i = 0; i < dim; i++) sc = fmax(sc, fabs(v[i]));
        worst = fmax(worst, e / (N * N * U * (sc > 0 ? sc : 1)));
        worst_k = fmax(worst_k, e2 / (N * N * U * (sc > 0 ? sc : 1)));
    }
    TEST_CHECKF(worst < 256, "vector field vs eq. (55) N=%d: ratio %.3g", N, worst);
    TEST_CHECKF(worst_k < 64, "gen_sum vs per-component grad N=%d: ratio %.3g", N, worst_k);
    printf("  N=%d: vector field vs eq. (55): ratio %.2f; gen_sum vs grad: %.2f\n", N, worst, worst_k);
    free(mu);
    free(xi);
    free(v);
    free(ref);
    free(tmp);
    free(om);
    free(f);
    free(W);
    s.clear(&s);
}

static double diag_get(const slpi_diag *d, const char *name)
{
    for (int i = 0; i < d->n; i++)
        if (strcmp(d->name[i], name) == 0) return d->value[i];
    return NAN;
}

/* Core's Fourier description of the initial state, mapped by the system (N = 3). */
static int initial(const slpi_fast_system *s, const slpi_problem *p, double *x, slpi_error *err)
{
    double c[16];
    int rc = slpi_problem_initial_state(p, c, err);
    return rc ? rc : s->initial_map(s, x, c, err);
}

/* Initial conditions and diagnostics: the canonical IC's printed C2 and C3 (docs/systems.md#sine-euler),
 * C3 from the eigenvalues against the closed form, real-even departure, random ICs. */
static void check_ic(void)
{
    slpi_problem p;
    slpi_error err;
    slpi_problem_init(&p, SLPI_SYS_SINE_EULER, SLPI_SCHEME_ISOMP);
    slpi_fast_system s;
    memset(&s, 0, sizeof s);
    TEST_CHECK(slpi_fast_sys_sine_euler(&s, &p, &err) == SLPI_OK);
    double x[9], y[9];
    slpi_diag d = { 0 };
    TEST_CHECK(initial(&s, &p, x, &err) == SLPI_OK);
    s.diagnostics(&s, &d, x, x);
    double c2 = diag_get(&d, "C2"), c3 = diag_get(&d, "C3");
    TEST_CHECKF(fabs(c2 + 0.117121) < 1e-6 && fabs(c3 + 0.0151538) < 1e-7,
                "canonical IC: C2 %.9g C3 %.9g, printed -0.117121 -0.0151538", c2, c3);
    TEST_CHECK(diag_get(&d, "real_even_dev") < 64 * U);
    TEST_CHECK(diag_get(&d, "eig_dev") == 0 && diag_get(&d, "H0") > 0);
    printf("  canonical IC: C2 %.9g, C3 %.9g, H0 %.9g\n", c2, c3, diag_get(&d, "H0"));
    /* closed form of Tr W^3 on the canonical coefficients */
    slpi_fast_sine_euler_basis b;
    slpi_fast_sine_euler_basis_init(&b, 3, &err);
    cplx W[9], om[8];
    slpi_fast_sun_unpack(W, x, 3);
    slpi_fast_sine_euler_to_fourier(&b, W, om);
    double c3c = cimag(slpi_fast_sine_euler_tr3(&b, om));
    TEST_CHECKF(fabs(c3 - c3c) / (9 * U * fabs(c3)) < 64, "C3 eigenvalues vs closed form: %.3g", fabs(c3 - c3c));
    p.sys.se.ic = SLPI_SE_IC_RANDOM;
    p.sys.se.ic_seed = 7;
    TEST_CHECK(initial(&s, &p, x, &err) == SLPI_OK);
    TEST_CHECK(initial(&s, &p, y, &err) == SLPI_OK && memcmp(x, y, sizeof x) == 0);
    d.n = 0;
    s.diagnostics(&s, &d, x, NULL);
    TEST_CHECK(diag_get(&d, "real_even_dev") < 64 * U);
    p.sys.se.ic = SLPI_SE_IC_COMPLEX;
    TEST_CHECK(initial(&s, &p, y, &err) == SLPI_OK);
    d.n = 0;
    s.diagnostics(&s, &d, y, NULL);
    TEST_CHECK(diag_get(&d, "real_even_dev") > 1e-3);
    p.sys.se.ic_seed = 8;
    TEST_CHECK(initial(&s, &p, x, &err) == SLPI_OK && memcmp(x, y, sizeof x) != 0);
    s.clear(&s);

    /* bad input: even N, negative amplitude */
    p.sys.se.N = 4;
    memset(&s, 0, sizeof s);
    TEST_CHECK(slpi_fast_sys_sine_euler(&s, &p, &err) == SLPI_EINPUT && strstr(err.msg, "odd"));
    p.sys.se.N = 3;
    p.sys.se.amp = -1;
    TEST_CHECK(slpi_fast_sys_sine_euler(&s, &p, &err) == SLPI_EINPUT && strstr(err.msg, "amp"));
}

static double gauss(void)
{
    double u1 = test_rand_uniform(0, 1), u2 = test_rand_uniform(0, 1);
    return sqrt(-2 * log(1 - u1)) * cos(2 * 3.14159265358979323846 * u2);
}

/* One noisy path of `steps` steps at h = 0.5 from the canonical IC (RKMK §6 settings);
 * returns the final diagnostics in d. */
static int run_path(slpi_scheme_id k, int steps, slpi_diag *d)
{
    slpi_problem p;
    slpi_error err;
    slpi_problem_init(&p, SLPI_SYS_SINE_EULER, k);
    p.grid.h = 0.5;
    slpi_fast *f;
    if (slpi_fast_create(&f, &p, &err)) {
        TEST_CHECKF(0, "create %s: %s", slpi_scheme_name(k), err.msg);
        return -1;
    }
    double x[9], x0[9], dW[2];
    slpi_fast_initial_state(f, x, &err);
    memcpy(x0, x, sizeof x);
    int fails = 0;
    for (int n = 0; n < steps; n++) {
        dW[0] = sqrt(p.grid.h) * gauss();
        dW[1] = sqrt(p.grid.h) * gauss();
        slpi_step_info info;
        if (slpi_step_failed(slpi_fast_step(f, x, dW, &info))) fails++;
    }
    d->n = 0;
    slpi_fast_diagnostics(f, x, x0, d);
    slpi_fast_free(f);
    return fails;
}

/* Structure: every orbit-preserving scheme keeps C2 and C3 to rounding, ISOMP and IM
 * keep C2; TRAP visibly drifts C3 (negative control, docs/schemes.md#direct, claim R3/R8 setting). */
static void check_runs(int steps)
{
    static const slpi_scheme_id exact[] = { SLPI_SCHEME_TMK, SLPI_SCHEME_RKMK_LE, SLPI_SCHEME_RKMK_HEUN,
                                            SLPI_SCHEME_ISOMP, SLPI_SCHEME_SVI };
    slpi_diag d;
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++) {
        uint64_t keep = test_rng_state_;
        TEST_CHECK(run_path(exact[i], steps, &d) == 0);
        test_rng_state_ = keep; /* every scheme on the same Brownian path */
        double r2 = fabs(diag_get(&d, "C2_rel_dev")) / (9 * U), r3 = fabs(diag_get(&d, "C3_rel_dev")) / (9 * U);
        TEST_CHECKF(r2 < 16 * sqrt(steps) && r3 < 16 * sqrt(steps), "%s: C2 ratio %.3g, C3 ratio %.3g",
                    slpi_scheme_name(exact[i]), r2, r3);
        printf("  %s, %d steps: C2 ratio %.2f, C3 ratio %.2f, real-even dev %.2g\n", slpi_scheme_name(exact[i]), steps,
               r2, r3, diag_get(&d, "real_even_dev"));
    }
    TEST_CHECK(run_path(SLPI_SCHEME_IM_DIRECT, steps, &d) == 0);
    double im2 = fabs(diag_get(&d, "C2_rel_dev")), im3 = fabs(diag_get(&d, "C3_rel_dev"));
    TEST_CHECKF(im2 < 1e-12, "im-direct C2 %.3g", im2);
    TEST_CHECK(run_path(SLPI_SCHEME_TRAP_DIRECT, steps, &d) == 0);
    double tr3 = fabs(diag_get(&d, "C3_rel_dev"));
    TEST_CHECKF(tr3 > 1e-6, "trap-direct must drift C3: %.3g", tr3);
    printf("  im-direct: C2 %.2g, C3 %.2g; trap-direct: C3 %.2g (relative)\n", im2, im3, tr3);
}

int main(void)
{
    test_start("t-fast-sine-euler", 5511);
    check_basis(3);
    check_basis(5);
    check_basis(7);
    check_system(3, (int)test_iters(50));
    check_system(5, (int)test_iters(20));
    check_ic();
    check_runs((int)test_iters(200));

    slpi_fast_sine_euler_basis b;
    slpi_error err;
    TEST_CHECK(slpi_fast_sine_euler_basis_init(&b, 4, &err) == SLPI_EINPUT && strstr(err.msg, "odd"));
    TEST_END();
}
