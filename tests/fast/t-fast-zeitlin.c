/* t-fast-zeitlin.c — Euler–Zeitlin on su(N), double path (docs/systems.md#euler-zeitlin): the Hoppe–Yau
 * Laplacian in both forms, the quantized harmonics against exact 3j symbols, the real
 * basis and its coefficient maps, the O(N^2) Poisson solve, and the system file
 * (vector field, generators, Casimirs, an ISOMP run), the modal weights formed once per
 * step, the modal pass's parity blocks, and the threaded kernels bit for bit across thread
 * counts. Errors are scale-free ratios
 * |err| / (n u scale), u = 2^-53. */
#include <complex.h>
#include <float.h>
#include <omp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cblas.h>

#include "fast/fast.h"
#include "fast/team.h"
#include "fast/dense.h"
#include "fast/sun.h"
#include "fast/zeitlin.h"
#include "testutil.h"
#include "core/blas.h"

#define U (DBL_EPSILON / 2)
#define M_PI_ 3.14159265358979323846

typedef double complex cplx;

static cplx *cmat(int N) { return calloc((size_t)N * N, sizeof(cplx)); }

static double cmaxabs(const cplx *A, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++) m = fmax(m, cabs(A[i]));
    return m;
}

static double cmaxdiff(const cplx *A, const cplx *B, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++) m = fmax(m, cabs(A[i] - B[i]));
    return m;
}

static void rand_complex(cplx *A, size_t n)
{
    for (size_t i = 0; i < n; i++)
        A[i] = CMPLX(test_rand_uniform(-1, 1), test_rand_uniform(-1, 1));
}

/* Random skew-Hermitian matrix (with trace part). */
static void rand_skewh(cplx *X, int N)
{
    for (int b = 0; b < N; b++)
        for (int a = 0; a <= b; a++) {
            cplx v = a == b ? I * test_rand_uniform(-1, 1)
                            : CMPLX(test_rand_uniform(-1, 1), test_rand_uniform(-1, 1));
            X[a + (size_t)N * b] = v;
            X[b + (size_t)N * a] = -conj(v);
        }
}

/* C = A B (naive, column-major). */
static void cmul(int N, const cplx *A, const cplx *B, cplx *C)
{
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            cplx s = 0;
            for (int k = 0; k < N; k++) s += A[i + (size_t)N * k] * B[k + (size_t)N * j];
            C[i + (size_t)N * j] = s;
        }
}

static void ccomm(int N, const cplx *A, const cplx *B, cplx *C, cplx *tmp)
{
    cmul(N, A, B, C);
    cmul(N, B, A, tmp);
    for (size_t i = 0; i < (size_t)N * N; i++) C[i] -= tmp[i];
}

/* Laplacian as sum_k [S_k, [S_k, P]], S_k = i J_k (docs/systems.md#euler-zeitlin, second form). */
static void laplacian_commutator(int N, const cplx *P, cplx *out)
{
    size_t NN = (size_t)N * N;
    cplx *S = calloc(3 * NN, sizeof *S), *c1 = cmat(N), *c2 = cmat(N), *t = cmat(N);
    double s = 0.5 * (N - 1);
    for (int a = 0; a < N; a++) {
        double m = -s + a;
        S[2 * NN + a + (size_t)N * a] = I * m;                                /* i J3 */
        if (a + 1 < N) {
            double beta = sqrt(s * (s + 1) - m * (m + 1));
            /* J+ (a+1, a) = beta; J1 = (J+ + J+^T)/2, J2 = (J+ - J+^T)/(2i) */
            S[(a + 1) + (size_t)N * a] += I * 0.5 * beta;
            S[a + (size_t)N * (a + 1)] += I * 0.5 * beta;
            S[NN + (a + 1) + (size_t)N * a] += 0.5 * beta;
            S[NN + a + (size_t)N * (a + 1)] += -0.5 * beta;
        }
    }
    memset(out, 0, NN * sizeof *out);
    for (int k = 0; k < 3; k++) {
        ccomm(N, S + k * NN, P, c1, t);
        ccomm(N, S + k * NN, c1, c2, t);
        for (size_t i = 0; i < NN; i++) out[i] += c2[i];
    }
    free(S);
    free(c1);
    free(c2);
    free(t);
}

/* ln n! in long double, for the Racah formula. */
static long double lfact(int n) { return lgammal((long double)n + 1); }

/* Wigner 3j (j1 j2 j3; m1 m2 m3) with doubled arguments, by the Racah formula. */
static long double wigner3j(int J1, int J2, int J3, int M1, int M2, int M3)
{
    if (M1 + M2 + M3 != 0) return 0;
    int a = (J1 + J2 - J3) / 2, b = (J1 - J2 + J3) / 2, c = (-J1 + J2 + J3) / 2;
    if (a < 0 || b < 0 || c < 0) return 0;
    long double pre = 0.5L * (lfact(a) + lfact(b) + lfact(c) - lfact((J1 + J2 + J3) / 2 + 1)) +
                      0.5L * (lfact((J1 + M1) / 2) + lfact((J1 - M1) / 2) + lfact((J2 + M2) / 2) +
                              lfact((J2 - M2) / 2) + lfact((J3 + M3) / 2) + lfact((J3 - M3) / 2));
    long double sum = 0;
    for (int k = 0; k <= 100; k++) {
        int d[6] = {k, (J3 - J2 + M1) / 2 + k, (J3 - J1 - M2) / 2 + k, (J1 + J2 - J3) / 2 - k,
                    (J1 - M1) / 2 - k, (J2 + M2) / 2 - k};
        int ok = 1;
        long double den = 0;
        for (int i = 0; i < 6; i++) {
            if (d[i] < 0) ok = 0;
            else den += lfact(d[i]);
        }
        if (!ok) continue;
        sum += (k % 2 ? -1.0L : 1.0L) * expl(pre - den);
    }
    int ph = (J1 - J2 - M3) / 2;
    return (ph % 2 ? -1.0L : 1.0L) * sum;
}

/* T_lm at small N against the 3j values, up to one sign per (l, m). */
static void check_3j(const slpi_fast_zeitlin *z)
{
    int N = z->N, S2 = N - 1; /* 2s */
    double worst = 0;
    for (int l = 0; l < N; l++)
        for (int m = 0; m <= l; m++) {
            const double *t = slpi_fast_zeitlin_harmonic(z, l, m);
            double sg = 0, err = 0;
            for (int a = 0; a + m < N; a++) {
                /* (T_lm)_{a+m, a}: row index a+m, m_row = -s + a + m, m_col = -s + a */
                int Mr = -S2 + 2 * (a + m), Mc = -S2 + 2 * a;
                long double v = ((S2 - Mr) / 2 % 2 ? -1.0L : 1.0L) * sqrtl(2.0L * l + 1) *
                                wigner3j(S2, 2 * l, S2, -Mr, 2 * m, Mc);
                if (sg == 0 && fabsl(v) > 1e-3L) sg = (v > 0) == (t[a] > 0) ? 1 : -1;
                err = fmax(err, fabs(t[a] - sg * (double)v));
            }
            worst = fmax(worst, err);
        }
    TEST_CHECKF(worst / (N * U) < 64, "T_lm vs 3j at N=%d: ratio %.3g", N, worst / (N * U));
    printf("  N=%d: T_lm vs Racah 3j, max err %.3g (ratio %.2f)\n", N, worst, worst / (N * U));
}

static void check_basis(int N, int samples)
{
    slpi_fast_zeitlin z;
    slpi_error err;
    int rc = slpi_fast_zeitlin_init(&z, N, &err);
    TEST_CHECKF(rc == SLPI_OK, "init N=%d: %s", N, err.msg);
    if (rc) return;
    size_t NN = (size_t)N * N;
    int dim = N * N - 1;
    double lapn = (double)N * (N - 1); /* ||Delta_N|| */
    cplx *A = cmat(N), *B = cmat(N), *C = cmat(N);
    double *om = malloc(dim * sizeof *om), *om2 = malloc(dim * sizeof *om2);

    /* 1. orthonormality of every V_m: max |V^T V - I| */
    double orth = 0;
    for (int m = 0; m < N; m++)
        for (int l1 = m; l1 < N; l1++)
            for (int l2 = l1; l2 < N; l2++) {
                const double *t1 = slpi_fast_zeitlin_harmonic(&z, l1, m), *t2 =
                                                                    slpi_fast_zeitlin_harmonic(&z, l2, m);
                double s = 0;
                for (int a = 0; a < N - m; a++) s += t1[a] * t2[a];
                orth = fmax(orth, fabs(s - (l1 == l2)));
            }
    TEST_CHECKF(orth / (N * U) < 16, "orthonormality N=%d: ratio %.3g", N, orth / (N * U));

    /* 2. Delta_N Y_alpha = -l(l+1) Y_alpha, Y_alpha skew-Hermitian, traceless, unit norm */
    double eig = 0, skew = 0, nrm = 0;
    for (int it = 0; it < samples; it++) {
        int alpha = samples >= dim ? it : (int)test_rand_int(dim);
        if (alpha >= dim) break;
        int l = (int)floor(sqrt(alpha + 1.0 + 0.5));
        memset(om, 0, dim * sizeof *om);
        om[alpha] = 1;
        slpi_fast_zeitlin_synthesis(A, om, &z);
        slpi_fast_zeitlin_laplacian(B, A, &z);
        double e = 0, f = 0;
        for (size_t i = 0; i < NN; i++) e = fmax(e, cabs(B[i] + (double)l * (l + 1) * A[i]));
        for (int a = 0; a < N; a++) {
            for (int b = 0; b < N; b++) {
                skew = fmax(skew, cabs(A[a + (size_t)N * b] + conj(A[b + (size_t)N * a])));
                f += creal(A[a + (size_t)N * b] * conj(A[a + (size_t)N * b]));
            }
        }
        eig = fmax(eig, e);
        nrm = fmax(nrm, fabs(f - 1));
        cplx trace = 0;
        for (int a = 0; a < N; a++) trace += A[a + (size_t)N * a];
        skew = fmax(skew, cabs(trace));
    }
    TEST_CHECKF(eig / (N * U * lapn) < 16, "Delta T_lm eigen N=%d: ratio %.3g", N,
                eig / (N * U * lapn));
    TEST_CHECKF(skew == 0 || skew / (N * U) < 4, "Y skew-Hermitian traceless N=%d: %.3g", N, skew);
    TEST_CHECKF(nrm / (N * U) < 16, "Y unit norm N=%d: ratio %.3g", N, nrm / (N * U));

    /* 3. both Laplacian forms agree on a random complex P (naive O(N^3) products) */
    rand_complex(A, NN);
    slpi_fast_zeitlin_laplacian(B, A, &z);
    laplacian_commutator(N, A, C);
    double lf = cmaxdiff(B, C, NN) / (N * U * lapn * cmaxabs(A, NN));
    TEST_CHECKF(lf < 16, "Laplacian forms N=%d: ratio %.3g", N, lf);

    /* 4. coefficient round trips: omega -> X -> omega, and X -> omega -> X (traceless X) */
    for (int i = 0; i < dim; i++) om[i] = test_rand_uniform(-1, 1);
    slpi_fast_zeitlin_synthesis(A, om, &z);
    slpi_fast_zeitlin_analysis(om2, A, &z);
    double rt = 0;
    for (int i = 0; i < dim; i++) rt = fmax(rt, fabs(om[i] - om2[i]));
    TEST_CHECKF(rt / (N * U) < 64, "omega round trip N=%d: ratio %.3g", N, rt / (N * U));
    rand_skewh(A, N);
    cplx tr = 0;
    for (int a = 0; a < N; a++) tr += A[a + (size_t)N * a];
    for (int a = 0; a < N; a++) A[a + (size_t)N * a] -= tr / N;
    slpi_fast_zeitlin_analysis(om, A, &z);
    slpi_fast_zeitlin_synthesis(B, om, &z);
    double rt2 = cmaxdiff(A, B, NN) / (N * U * cmaxabs(A, NN));
    TEST_CHECKF(rt2 < 64, "X round trip N=%d: ratio %.3g", N, rt2);

    /* 5. Poisson solve: residual of Delta P = X - tr/N, P traceless, and P against the
     *    modal solution P = -sum omega_alpha / (l(l+1)) Y_alpha; X with a trace part */
    rand_skewh(A, N);
    slpi_fast_zeitlin_poisson(B, A, 1.0, &z);
    slpi_fast_zeitlin_laplacian(C, B, &z);
    tr = 0;
    cplx trP = 0;
    for (int a = 0; a < N; a++) {
        tr += A[a + (size_t)N * a];
        trP += B[a + (size_t)N * a];
    }
    for (int a = 0; a < N; a++) C[a + (size_t)N * a] += tr / N;
    double res = cmaxdiff(C, A, NN) / (N * U * cmaxabs(A, NN));
    TEST_CHECKF(res < 64, "Poisson residual N=%d: ratio %.3g", N, res);
    TEST_CHECKF(cabs(trP) / (N * U * cmaxabs(B, NN)) < 16, "Poisson traceless N=%d: %.3g", N,
                cabs(trP));
    slpi_fast_zeitlin_analysis(om, A, &z);
    for (int l = 1; l < N; l++)
        for (int j = 0; j <= 2 * l; j++) om[slpi_fast_zeitlin_alpha(l, j)] /= -(double)l * (l + 1);
    slpi_fast_zeitlin_synthesis(C, om, &z);
    double pm = cmaxdiff(B, C, NN) / (N * U * cmaxabs(A, NN));
    TEST_CHECKF(pm < 64, "Poisson vs modal N=%d: ratio %.3g", N, pm);
    printf("  N=%d: orth %.2f, eig %.2f, forms %.2f, round trips %.2f %.2f, Poisson %.2f %.2f "
           "(ratios)\n", N, orth / (N * U), eig / (N * U * lapn), lf, rt / (N * U), rt2, res, pm);

    if (N <= 8) check_3j(&z);
    free(A);
    free(B);
    free(C);
    free(om);
    free(om2);
    slpi_fast_zeitlin_clear(&z);
}

static double diag_get(const slpi_diag *d, const char *name)
{
    for (int i = 0; i < d->n; i++)
        if (strcmp(d->name[i], name) == 0) return d->value[i];
    return NAN;
}

static double gauss(void)
{
    double u1 = test_rand_uniform(0, 1), u2 = test_rand_uniform(0, 1);
    return sqrt(-2 * log(1 - u1)) * cos(2 * M_PI_ * u2);
}

/* The system file against an independent evaluation (docs/systems.md#euler-zeitlin): the field
 * dX = eta_0 [P, X] + sum_alpha eta_alpha [B_alpha, X] with P from the modal solution
 * (analysis, division by -l(l+1), synthesis) and B_alpha = -a_l omega_alpha Y_alpha (Q)
 * or -a_l Y_alpha (L) built one at a time, naive products; per-component gradients;
 * dgen against a difference quotient; H0 and C2 against the coefficient sums. */
static void check_system(int N, slpi_ez_noise noise, int samples)
{
    slpi_problem p;
    slpi_error err;
    slpi_problem_init(&p, SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP);
    p.ez.N = N;
    p.ez.noise = noise;
    p.ez.ic_lmax = N - 1;
    slpi_fast_system s;
    memset(&s, 0, sizeof s);
    int rc = slpi_fast_sys_euler_zeitlin(&s, &p, &err);
    TEST_CHECKF(rc == SLPI_OK, "create N=%d: %s", N, err.msg);
    if (rc) return;
    slpi_fast_zeitlin z;
    slpi_fast_zeitlin_init(&z, N, &err);
    int dim = s.state_dim, M = s.M, lmin = N / 2, nb = N * N - 1;
    size_t NN = (size_t)N * N;
    TEST_CHECK(M == (noise == SLPI_EZ_NOISE_NONE ? 0 : N * N - lmin * lmin));
    double *mu = malloc(dim * sizeof *mu), *xi = malloc(dim * sizeof *xi),
           *v = malloc(dim * sizeof *v), *ref = malloc(dim * sizeof *ref),
           *tmp = malloc(dim * sizeof *tmp), *w = malloc(dim * sizeof *w),
           *delta = malloc((M + 1) * sizeof *delta), *om = malloc(nb * sizeof *om),
           *e1 = calloc(nb, sizeof *e1);
    cplx *X = cmat(N), *P = cmat(N), *B = cmat(N), *C = cmat(N), *T = cmat(N), *V = cmat(N);
    double wf = 0, wk = 0, wh = 0, wH = 0;
    for (int it = 0; it < samples; it++) {
        rand_skewh(X, N);
        slpi_fast_sun_pack(mu, X, N);
        for (int k = 0; k <= M; k++) delta[k] = test_rand_uniform(-1, 1);
        /* independent field */
        slpi_fast_zeitlin_analysis(om, X, &z);
        for (int i = 0; i < nb; i++) {
            int l = slpi_fast_zeitlin_degree(i);
            e1[i] = -om[i] / ((double)l * (l + 1));
        }
        slpi_fast_zeitlin_synthesis(P, e1, &z);
        for (size_t i = 0; i < NN; i++) P[i] *= delta[0];
        memset(e1, 0, nb * sizeof *e1);
        for (int k = 1; k <= M; k++) {
            int alpha = lmin * lmin - 1 + k - 1, l = slpi_fast_zeitlin_degree(alpha);
            e1[alpha] = 1;
            slpi_fast_zeitlin_synthesis(B, e1, &z);
            e1[alpha] = 0;
            double c = -p.ez.amp / ((double)l * (l + 1)) * delta[k] *
                       (noise == SLPI_EZ_NOISE_Q ? om[alpha] : 1.0);
            for (size_t i = 0; i < NN; i++) P[i] += c * B[i];
        }
        ccomm(N, P, X, V, T);
        slpi_fast_sun_pack(ref, V, N);
        s.gen_sum(&s, xi, delta, mu);
        s.coad(&s, v, xi, mu);
        double sc = 0, e = 0, ek = 0, eh = 0;
        for (int i = 0; i < dim; i++) {
            sc = fmax(sc, fabs(ref[i]));
            e = fmax(e, fabs(v[i] - ref[i]));
        }
        memset(ref, 0, dim * sizeof *ref);
        for (int k = 0; k <= M; k++) {
            s.gen(&s, k, xi, mu);
            s.coad(&s, tmp, xi, mu);
            for (int i = 0; i < dim; i++) ref[i] += delta[k] * tmp[i];
        }
        for (int i = 0; i < dim; i++) ek = fmax(ek, fabs(v[i] - ref[i]));
        /* dgen: the generators are linear in mu, so the quotient is exact up to rounding */
        for (int i = 0; i < dim; i++) w[i] = test_rand_uniform(-1, 1);
        int k = (int)test_rand_int(M + 1);
        s.gen(&s, k, xi, mu);
        for (int i = 0; i < dim; i++) tmp[i] = mu[i] + 0.5 * w[i];
        s.gen(&s, k, v, tmp);
        s.dgen(&s, k, ref, mu, w);
        double hs = 0;
        for (int i = 0; i < dim; i++) {
            double q = (noise == SLPI_EZ_NOISE_L && k > 0) ? 0.0 : 2 * (v[i] - xi[i]);
            eh = fmax(eh, fabs(q - ref[i]));
            hs = fmax(hs, fabs(ref[i]));
        }
        /* H0 = 1/2 sum omega^2 / (l(l+1)), C2 = -sum omega^2 (traceless X) */
        cplx tr = 0;
        for (int a = 0; a < N; a++) tr += X[a + (size_t)N * a];
        for (int a = 0; a < N; a++) X[a + (size_t)N * a] -= tr / N;
        slpi_fast_sun_pack(mu, X, N);
        slpi_fast_zeitlin_analysis(om, X, &z);
        double h = 0, c2 = 0;
        for (int i = 0; i < nb; i++) {
            int l = slpi_fast_zeitlin_degree(i);
            h += 0.5 * om[i] * om[i] / ((double)l * (l + 1));
            c2 -= om[i] * om[i];
        }
        slpi_diag d = {0};
        s.diagnostics(&s, &d, mu, NULL);
        double eH = fmax(fabs(diag_get(&d, "H0") - h) / h, fabs(diag_get(&d, "C2") - c2) / -c2);
        wf = fmax(wf, e / (N * N * U * sc));
        wk = fmax(wk, ek / (N * N * U * sc));
        wh = fmax(wh, eh / (N * N * U * (hs > 0 ? hs : 1)));
        wH = fmax(wH, eH / (N * N * U));
    }
    TEST_CHECKF(wf < 256, "field vs independent N=%d noise %d: ratio %.3g", N, noise, wf);
    TEST_CHECKF(wk < 256, "gen_sum vs grad N=%d noise %d: ratio %.3g", N, noise, wk);
    TEST_CHECKF(wh < 1024, "dgen vs quotient N=%d noise %d: ratio %.3g", N, noise, wh);
    TEST_CHECKF(wH < 256, "H0, C2 vs coefficients N=%d noise %d: ratio %.3g", N, noise, wH);
    printf("  system N=%d noise %d (M=%d): field %.2f, gen_sum %.2f, dgen %.2f, H0/C2 %.2f\n", N,
           noise, M, wf, wk, wh, wH);
    free(mu); free(xi); free(v); free(ref); free(tmp); free(w); free(delta); free(om); free(e1);
    free(X); free(P); free(B); free(C); free(T); free(V);
    slpi_fast_zeitlin_clear(&z);
    s.clear(&s);
}

/* A short ISOMP run (docs/schemes.md#isomp; ISO §6.4 strong-test size) conserves the spectrum:
 * eig_dev / (N u max|lambda|) and |C2_rel_dev| / (N u) stay below 64 (measured: 0.5-2.2);
 * the initial condition has unit norm. */
static void check_isomp_run(int N, int steps, slpi_isomp_update upd)
{
    slpi_problem p;
    slpi_error err;
    slpi_problem_init(&p, SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP);
    p.ez.N = N;
    p.ez.ic_lmax = N - 1;
    p.isomp_update = upd;
    p.h = 1.0 / 128;
    slpi_fast *f;
    int rc = slpi_fast_create(&f, &p, &err);
    TEST_CHECKF(rc == SLPI_OK, "isomp create: %s", err.msg);
    if (rc) return;
    int dim = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p);
    double *x = malloc(dim * sizeof *x), *x0 = malloc(dim * sizeof *x0),
           *dW = malloc((M + 1) * sizeof *dW);
    TEST_CHECK(slpi_fast_initial_state(f, x, &err) == SLPI_OK);
    memcpy(x0, x, dim * sizeof *x);
    slpi_diag d = {0};
    slpi_fast_diagnostics(f, x, NULL, &d);
    TEST_CHECKF(fabs(diag_get(&d, "C2") + 1) < 1e-14, "IC norm: C2 = %.17g", diag_get(&d, "C2"));
    int fails = 0;
    for (int n = 0; n < steps; n++) {
        for (int k = 0; k < M; k++) dW[k] = sqrt(p.h) * gauss();
        slpi_step_info info;
        if (slpi_step_failed(slpi_fast_step(f, x, dW, &info))) fails++;
    }
    TEST_CHECK(fails == 0);
    d.n = 0;
    slpi_fast_diagnostics(f, x, x0, &d);
    double lmax = 1.0; /* ||X0||_F = 1 bounds every eigenvalue */
    double r = diag_get(&d, "eig_dev") / (N * U * lmax), rc2 = fabs(diag_get(&d, "C2_rel_dev")) / (N * U);
    TEST_CHECKF(r < 64 && rc2 < 64, "isomp %s N=%d: eig ratio %.3g C2 ratio %.3g",
                upd == SLPI_ISO_UPDATE_CAY ? "cay" : "comm", N, r, rc2);
    TEST_CHECKF(fabs(diag_get(&d, "H0_rel_dev")) > 1e-8, "noise moves H0: %.3g",
                diag_get(&d, "H0_rel_dev"));
    printf("  isomp %s N=%d, %d steps: eig_dev ratio %.2f, C2 ratio %.2f, H0_rel_dev %.3g, mean "
           "iterations %.2f\n", upd == SLPI_ISO_UPDATE_CAY ? "cay" : "comm", N, steps, r, rc2,
           diag_get(&d, "H0_rel_dev"), diag_get(&d, "mean_iters"));
    free(x); free(x0); free(dW);
    slpi_fast_free(f);
}

/* The fused ISOMP map of fast/sun.c against the naive formula, at sizes that cut the
 * tiles and column blocks unevenly, for every block count; the packed layout. */
static void check_sun_kernel(int N)
{
    size_t NN = (size_t)N * N;
    slpi_fast_sun u;
    slpi_error err;
    TEST_CHECK(slpi_fast_sun_init(&u, N, NULL, NULL, &err) == SLPI_OK);
    cplx *P = cmat(N), *X = cmat(N), *Y = cmat(N), *R = cmat(N), *C = cmat(N), *T = cmat(N),
         *Yn = cmat(N), *Xx = cmat(N), *Rx = cmat(N);
    rand_skewh(P, N);
    rand_skewh(X, N);
    rand_skewh(Y, N);
    for (size_t i = 0; i < NN; i++) P[i] *= 0.1;
    ccomm(N, P, Y, C, T);
    cmul(N, P, Y, T);
    cmul(N, T, P, R);
    double dref = 0, yref = 0;
    for (size_t i = 0; i < NN; i++) {
        Rx[i] = X[i] + C[i];
        R[i] = X[i] + 0.5 * C[i] + 0.25 * R[i];
        dref = fmax(dref, fmax(fabs(creal(R[i] - Y[i])), fabs(cimag(R[i] - Y[i]))));
        yref = fmax(yref, fmax(fabs(creal(R[i])), fabs(cimag(R[i]))));
    }
    double worst = 0;
    for (int m3 = 0; m3 <= 1; m3++) /* both products: zgemm and zgemm3m (slpi_fast_zgemm_3m) */
        for (int nb = 1; nb <= 5; nb++) {
            u.m3 = m3;
            u.nblk = nb;
            double yn, d = slpi_fast_sun_isomp(&u, Yn, &yn, P, X, Y);
            if (N < SLPI_FAST_TEAM_MIN_N) { /* G = Psi Y in one call: the product m3 names, to the bit */
                cplx one = 1, zero = 0;
                (m3 ? cblas_zgemm3m : cblas_zgemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, N, N, N, &one, P, N, Y, N,
                                                   &zero, T, N);
                TEST_CHECKF(!memcmp(T, u.w[0], NN * sizeof *T), "sun isomp N=%d m3=%d: G is not that product's", N, m3);
            }
            slpi_fast_zcomm_from_T(N, u.w[0], X, Xx); /* the COMM update ISOMP takes from G */
            double e = fmax(cmaxdiff(Yn, R, NN), cmaxdiff(Xx, Rx, NN)) / (N * U * cmaxabs(X, NN));
            worst = fmax(worst, e);
            TEST_CHECKF(fabs(d - dref) <= 4 * N * U && fabs(yn - yref) <= 4 * N * U,
                        "sun isomp norms N=%d nblk=%d m3=%d", N, nb, m3);
            for (int a = 0; a < N; a++)
                for (int b = 0; b < N; b++)
                    if (Yn[a + (size_t)N * b] != -conj(Yn[b + (size_t)N * a])) worst = INFINITY;
        }
    TEST_CHECKF(worst < 16, "sun isomp vs naive N=%d: ratio %.3g", N, worst);
    /* the dense map of fast/dense.c (Manakov's) against the same naive formula */
    double zy, zd = slpi_fast_zisomp(N, P, X, Y, Yn, &zy, T);
    double ez = cmaxdiff(Yn, R, NN) / (N * U * cmaxabs(X, NN));
    TEST_CHECKF(ez < 16 && fabs(zd - dref) <= 4 * N * U && fabs(zy - yref) <= 4 * N * U,
                "dense isomp vs naive N=%d: ratio %.3g, norms %.3g %.3g", N, ez, zd - dref, zy - yref);
    /* the residual is over every double of Ynew - Y, the lower triangle's too: a start Y
     * need not be skew-Hermitian to the bit (the Euler predictor's is not) */
    Y[1] += 10 * I;
    double yr, dr = slpi_fast_sun_isomp(&u, Yn, &yr, P, X, Y), dm = 0;
    for (size_t i = 0; i < NN; i++)
        dm = fmax(dm, fmax(fabs(creal(Yn[i] - Y[i])), fabs(cimag(Yn[i] - Y[i]))));
    TEST_CHECKF(dr == dm, "sun isomp N=%d: residual %.17g, over every double %.17g", N, dr, dm);
    /* a NaN met early in the pass (entry (0, 1) of X_n, the first tile) stays in both maxima */
    X[(size_t)N] = NAN;
    double yn, d = slpi_fast_sun_isomp(&u, Yn, &yn, P, X, Y);
    TEST_CHECKF(isnan(d) && isnan(yn), "sun isomp N=%d: a NaN in the first tile gives %g, %g", N, d, yn);
    zd = slpi_fast_zisomp(N, P, X, Y, Yn, &zy, T);
    TEST_CHECKF(isnan(zd) && isnan(zy), "dense isomp N=%d: a NaN real part of X_n(0, 1) gives %g, %g", N, zd, zy);
    /* packed layout: unpack(pack(A)) is the skew-Hermitian part of A */
    rand_complex(T, NN);
    double *x = malloc(NN * sizeof *x), e = 0;
    slpi_fast_sun_pack(x, T, N);
    slpi_fast_sun_unpack(C, x, N);
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++) {
            cplx sk = 0.5 * (T[a + (size_t)N * b] - conj(T[b + (size_t)N * a]));
            e = fmax(e, cabs(C[a + (size_t)N * b] - sk));
        }
    TEST_CHECKF(e <= 2 * U, "pack/unpack N=%d: %.3g", N, e);
    printf("  sun kernel N=%d: vs naive ratio %.2f\n", N, worst);
    free(x);
    free(P); free(X); free(Y); free(R); free(C); free(T); free(Yn); free(Xx); free(Rx);
    slpi_fast_sun_clear(&u);
}

/* The modal pass through the parity blocks (slpi_fast_zeitlin_modal_init) against the pass
 * through the full V_m, both readings: |difference| / (N u max|out|) below 64 (measured
 * 0-3.5: the blocks hold symmetrized columns, and half-length sums). */
static void check_modal_parity(int N)
{
    size_t NN = (size_t)N * N;
    slpi_fast_zeitlin zf, zp;
    slpi_error err;
    TEST_CHECK(slpi_fast_zeitlin_init(&zf, N, &err) == SLPI_OK);
    TEST_CHECK(slpi_fast_zeitlin_init(&zp, N, &err) == SLPI_OK);
    int lmin = N / 2 > 0 ? N / 2 : 1, M = N * N - lmin * lmin;
    TEST_CHECK(slpi_fast_zeitlin_modal_init(&zp, lmin, &err) == SLPI_OK);
    cplx *Y = cmat(N), *A = cmat(N), *B = cmat(N);
    double *w = malloc(((size_t)M + 1) * sizeof *w), worst = 0;
    rand_skewh(Y, N);
    for (int k = 0; k < M; k++) w[k] = test_rand_uniform(-1, 1);
    for (int reading = 0; reading < 2; reading++) {
        memset(A, 0, NN * sizeof *A);
        memset(B, 0, NN * sizeof *B);
        slpi_fast_zeitlin_modal(A, w, reading ? NULL : Y, lmin, &zf);
        slpi_fast_zeitlin_modal(B, w, reading ? NULL : Y, lmin, &zp);
        double e = cmaxdiff(A, B, NN) / (N * U * cmaxabs(A, NN));
        TEST_CHECKF(e < 64, "modal parity vs full N=%d reading %s: ratio %.3g", N, reading ? "L" : "Q", e);
        worst = fmax(worst, e);
    }
    printf("  modal parity blocks N=%d: vs full V_m ratio %.2f\n", N, worst);
    free(Y); free(A); free(B); free(w);
    slpi_fast_zeitlin_clear(&zf);
    slpi_fast_zeitlin_clear(&zp);
}

/* An ISOMP problem with noise (Q) strong enough to matter (amp 2, every degree in the IC). */
static slpi_fast *noisy_isomp(int N, slpi_problem *p)
{
    slpi_error err;
    slpi_problem_init(p, SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP);
    p->ez.N = N;
    p->ez.ic_lmax = N - 1;
    p->ez.amp = 2;
    p->h = 1.0 / 128;
    p->warm_start = 0;   /* a step after a step starts as a fresh system's (the default is warm) */
    slpi_fast *f;
    int rc = slpi_fast_create(&f, p, &err);
    TEST_CHECKF(rc == SLPI_OK, "isomp create N=%d: %s", N, err.msg);
    return rc ? NULL : f;
}

/* The modal weights -a_l delta_k are formed once per step, when the increments change
 * (fast/euler-zeitlin.c): a step after another one equals, bit for bit, the same step of a
 * fresh system, also when the increments differ only in the last component. */
static void check_weights_once(int N)
{
    slpi_problem p;
    slpi_error err;
    slpi_fast *f = noisy_isomp(N, &p), *g = noisy_isomp(N, &p);
    if (!f || !g) return;
    int dim = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p);
    double *x = malloc(dim * sizeof *x), *y = malloc(dim * sizeof *y),
           *dW = malloc((M + 1) * sizeof *dW);
    TEST_CHECK(slpi_fast_initial_state(f, x, &err) == SLPI_OK);
    for (int k = 0; k < M; k++) dW[k] = sqrt(p.h) * gauss();
    slpi_step_info info;
    TEST_CHECK(!slpi_step_failed(slpi_fast_step(f, x, dW, &info)));
    memcpy(y, x, dim * sizeof *x);
    dW[M - 1] += 0.25 * sqrt(p.h);
    TEST_CHECK(!slpi_step_failed(slpi_fast_step(f, x, dW, &info)));
    TEST_CHECK(!slpi_step_failed(slpi_fast_step(g, y, dW, &info)));
    TEST_CHECKF(memcmp(x, y, dim * sizeof *x) == 0,
                "N=%d: a step after a step differs from a fresh system's", N);
    /* the cache itself: the field for increments that differ from the last ones only in
     * the last component equals a fresh system's (within a step the predictor's halved
     * increments change every component, so steps alone cannot see a stale last weight) */
    slpi_fast *f2 = noisy_isomp(N, &p), *g2 = noisy_isomp(N, &p);
    double *delta = malloc((M + 1) * sizeof *delta), *v = malloc(dim * sizeof *v), *w = malloc(dim * sizeof *w);
    if (f2 && g2) {
        delta[0] = p.h;
        memcpy(delta + 1, dW, M * sizeof *dW);
        f2->sys.gen_sum(&f2->sys, v, delta, x);
        delta[M] += 0.25 * sqrt(p.h);
        f2->sys.gen_sum(&f2->sys, v, delta, x);
        g2->sys.gen_sum(&g2->sys, w, delta, x);
        TEST_CHECKF(memcmp(v, w, dim * sizeof *v) == 0,
                    "N=%d: the field after a change of the last increment alone is stale", N);
    }
    free(delta); free(v); free(w);
    if (f2) slpi_fast_free(f2);
    if (g2) slpi_fast_free(g2);
    free(x); free(y); free(dW);
    slpi_fast_free(f);
    slpi_fast_free(g);
}

/* The threaded kernels (Poisson bands, modal diagonals, the fused map's GEMM blocks and
 * tiles; N >= SLPI_FAST_OMP_MIN_N) give the same bits for 1, 2 and 3 threads: three ISOMP
 * steps with noise (Q), and the vector field alone. */
static void check_threads(int N)
{
    int keep = omp_get_max_threads(), M = N * N - (N / 2) * (N / 2), dim = N * N;
    double *ref = NULL, *refv = NULL, *dW = malloc(3 * (size_t)M * sizeof *dW),
           *delta = malloc(((size_t)M + 1) * sizeof *delta);
    for (int k = 0; k < 3 * M; k++) dW[k] = gauss() / sqrt(128.0);
    delta[0] = 1.0 / 128;
    memcpy(delta + 1, dW, (size_t)M * sizeof *dW);
    for (int t = 1; t <= 3; t++) {
        omp_set_num_threads(t);
        slpi_problem p;
        slpi_error err;
        slpi_fast *f = noisy_isomp(N, &p);
        if (!f) break;
        TEST_CHECK(slpi_problem_state_dim(&p) == dim && slpi_problem_noise_count(&p) == M);
        double *x = malloc(dim * sizeof *x), *v = malloc(dim * sizeof *v);
        TEST_CHECK(slpi_fast_initial_state(f, x, &err) == SLPI_OK);
        f->sys.gen_sum(&f->sys, v, delta, x);
        for (int n = 0; n < 3; n++) {
            slpi_step_info info;
            TEST_CHECK(!slpi_step_failed(slpi_fast_step(f, x, dW + (size_t)M * n, &info)));
        }
        if (!ref) {
            ref = x;
            refv = v;
        } else {
            TEST_CHECKF(memcmp(x, ref, dim * sizeof *x) == 0, "N=%d: steps on %d threads differ "
                        "from 1 thread", N, t);
            TEST_CHECKF(memcmp(v, refv, dim * sizeof *v) == 0, "N=%d: field on %d threads "
                        "differs from 1 thread", N, t);
            free(x);
            free(v);
        }
        slpi_fast_free(f);
    }
    omp_set_num_threads(keep);
    printf("  threads N=%d: 1, 2, 3 threads bit-identical\n", N);
    free(ref); free(refv); free(dW); free(delta);
}

/* slpi_fast_zgemm_3m's rule (docs/install.md#products) under the OpenBLAS kernels that
 * OPENBLAS_CORETYPE forces (OpenBLAS reads it when it loads, so each is a child run of this
 * program with --product-rule, which prints the kernel's name and the choice). A kernel
 * this CPU cannot run is replaced by OpenBLAS, and the child's name then says which. */
static void check_product_rule(const char *self)
{
    static const struct {
        const char *core;
        int m3;
    } want[] = { { "SkylakeX", 0 }, { "Cooperlake", 0 }, { "Haswell", 1 }, { "Zen", 1 }, { "Prescott", 1 } };
    int checked = 0;
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        int fd[2];
        TEST_CHECK(pipe(fd) == 0);
        pid_t pid = fork();
        if (pid == 0) {
            dup2(fd[1], 1);
            close(fd[0]);
            setenv("OPENBLAS_CORETYPE", want[k].core, 1);
            execl(self, self, "--product-rule", (char *)NULL);
            _exit(127);
        }
        close(fd[1]);
        char line[128] = "", core[64] = "";
        FILE *f = fdopen(fd[0], "r");
        int m3 = -1, st = 0;
        if (f && fgets(line, sizeof line, f)) sscanf(line, "%63s %d", core, &m3);
        if (f) fclose(f);
        waitpid(pid, &st, 0);
        TEST_CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0 && m3 >= 0, "product rule: child for %s: %s", want[k].core,
                    line);
        if (strcasecmp(core, want[k].core)) {
            printf("  product rule: OpenBLAS runs %s for %s here: not checked\n", core, want[k].core);
            continue;
        }
        checked++;
        TEST_CHECKF(m3 == want[k].m3, "product rule: %s gives %s", core, m3 ? "zgemm3m" : "zgemm");
    }
    printf("  product rule: %d of 5 kernels checked\n", checked);
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--product-rule")) {
        printf("%s %d\n", slpi_blas_core() ? slpi_blas_core() : "none", slpi_fast_zgemm_3m());
        return 0;
    }
    test_start("t-fast-zeitlin", 20261121);
    check_product_rule(argv[0]);
    check_basis(2, 1000);
    check_basis(5, 1000);
    check_basis(6, 1000);
    check_basis(128, (int)test_iters(40));
    check_sun_kernel(5);
    check_sun_kernel(37);
    check_sun_kernel(70);
    check_system(5, SLPI_EZ_NOISE_Q, (int)test_iters(20));
    check_system(6, SLPI_EZ_NOISE_L, (int)test_iters(20));
    check_system(7, SLPI_EZ_NOISE_NONE, (int)test_iters(10));
    check_isomp_run(12, (int)test_iters(200), SLPI_ISO_UPDATE_COMM);
    check_isomp_run(12, (int)test_iters(100), SLPI_ISO_UPDATE_CAY);
    check_modal_parity(2);
    check_modal_parity(5);
    check_modal_parity(6);
    check_modal_parity(37);
    check_modal_parity(128);
    check_weights_once(12);
    check_threads(64);
    check_threads(67);

    slpi_fast_zeitlin z;
    slpi_error err;
    TEST_CHECK(slpi_fast_zeitlin_init(&z, 1, &err) == SLPI_EINPUT && strstr(err.msg, "N = 1"));
    TEST_END();
}
