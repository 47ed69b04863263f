/* t-fast-zeitlin-basis.c — the su(N) basis of the double path (fast/zeitlin-basis.c,
 * docs/systems.md#euler-zeitlin): the Hoppe–Yau Laplacian in both forms, the quantized
 * harmonics against exact 3j symbols, the real basis and its coefficient maps, the O(N^2)
 * Poisson solve, the modal pass's parity blocks, the basis of the low degrees alone (the
 * same bits as the whole's), the tables a process keeps for its next build
 * (fast/zeitlin-degrees.c), and the refusal of N = 1. Errors are
 * scale-free ratios |err| / (n u scale), u = 2^-53. */
#include <cblas.h>
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "fast/zeitlin.h"
#include "cplxutil.h"

/* Laplacian as sum_k [S_k, [S_k, P]], S_k = i J_k (docs/systems.md#euler-zeitlin, second form). */
static void laplacian_commutator(int N, const cplx *P, cplx *out)
{
    size_t NN = (size_t)N * N;
    cplx *S = calloc(3 * NN, sizeof *S), *c1 = cmat(N), *c2 = cmat(N), *t = cmat(N);
    double s = 0.5 * (N - 1);
    for (int a = 0; a < N; a++) {
        double m = -s + a;
        S[2 * NN + a + (size_t)N * a] = I * m; /* i J3 */
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
static long double lfact(int n)
{
    return lgammal((long double)n + 1);
}

/* Wigner 3j (j1 j2 j3; m1 m2 m3) with doubled arguments, by the Racah formula. */
static long double wigner3j(int J1, int J2, int J3, int M1, int M2, int M3)
{
    if (M1 + M2 + M3 != 0) return 0;
    int a = (J1 + J2 - J3) / 2, b = (J1 - J2 + J3) / 2, c = (-J1 + J2 + J3) / 2;
    if (a < 0 || b < 0 || c < 0) return 0;
    long double pre = 0.5L * (lfact(a) + lfact(b) + lfact(c) - lfact((J1 + J2 + J3) / 2 + 1)) +
        0.5L *
            (lfact((J1 + M1) / 2) + lfact((J1 - M1) / 2) + lfact((J2 + M2) / 2) + lfact((J2 - M2) / 2) +
             lfact((J3 + M3) / 2) + lfact((J3 - M3) / 2));
    long double sum = 0;
    for (int k = 0; k <= 100; k++) {
        int d[6] = { k,
                     (J3 - J2 + M1) / 2 + k,
                     (J3 - J1 - M2) / 2 + k,
                     (J1 + J2 - J3) / 2 - k,
                     (J1 - M1) / 2 - k,
                     (J2 + M2) / 2 - k };
        int ok = 1;
        long double den = 0;
        for (int i = 0; i < 6; i++) {
            if (d[i] < 0)
                ok = 0;
            else
                den += lfact(d[i]);
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
                long double v =
                    ((S2 - Mr) / 2 % 2 ? -1.0L : 1.0L) * sqrtl(2.0L * l + 1) * wigner3j(S2, 2 * l, S2, -Mr, 2 * m, Mc);
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
                const double *t1 = slpi_fast_zeitlin_harmonic(&z, l1, m), *t2 = slpi_fast_zeitlin_harmonic(&z, l2, m);
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
    TEST_CHECKF(eig / (N * U * lapn) < 16, "Delta T_lm eigen N=%d: ratio %.3g", N, eig / (N * U * lapn));
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
    TEST_CHECKF(cabs(trP) / (N * U * cmaxabs(B, NN)) < 16, "Poisson traceless N=%d: %.3g", N, cabs(trP));
    slpi_fast_zeitlin_analysis(om, A, &z);
    for (int l = 1; l < N; l++)
        for (int j = 0; j <= 2 * l; j++) om[slpi_fast_zeitlin_alpha(l, j)] /= -(double)l * (l + 1);
    slpi_fast_zeitlin_synthesis(C, om, &z);
    double pm = cmaxdiff(B, C, NN) / (N * U * cmaxabs(A, NN));
    TEST_CHECKF(pm < 64, "Poisson vs modal N=%d: ratio %.3g", N, pm);
    printf("  N=%d: orth %.2f, eig %.2f, forms %.2f, round trips %.2f %.2f, Poisson %.2f %.2f "
           "(ratios)\n",
           N, orth / (N * U), eig / (N * U * lapn), lf, rt / (N * U), rt2, res, pm);

    if (N <= 8) check_3j(&z);
    free(A);
    free(B);
    free(C);
    free(om);
    free(om2);
    slpi_fast_zeitlin_clear(&z);
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
    free(Y);
    free(A);
    free(B);
    free(w);
    slpi_fast_zeitlin_clear(&zf);
    slpi_fast_zeitlin_clear(&zp);
}

/* The synthesis the second way: every diagonal's whole product, V_m times all of its
 * coefficients (the zero ones too), by one dgemv, then scattered onto the real-basis
 * pattern (docs/systems.md#euler-zeitlin). slpi_fast_zeitlin_synthesis stops each product
 * at its last nonzero coefficient: the bits must be these. */
static void synthesis_whole(cplx *X, const double *om, const slpi_fast_zeitlin *z)
{
    int N = z->N;
    size_t st = (size_t)N + 1;
    memset(X, 0, (size_t)N * N * sizeof *X);
    for (int m = 0; m < N && m <= z->lmax; m++) {
        int n = N - m, k0 = m >= 1 ? 0 : 1, kk = n - k0;
        const double *V = z->vec + z->voff[m] + (size_t)k0 * n;
        double c[2][N], x[2][N];
        for (int part = 0; part < (m ? 2 : 1); part++) {
            for (int k = 0; k < kk; k++)
                c[part][k] = om[slpi_fast_zeitlin_alpha(m + k0 + k, m == 0 ? 0 : 2 * m - 1 + part)];
            cblas_dgemv(CblasColMajor, CblasNoTrans, n, kk, 1.0, V, n, c[part], 1, 0.0, x[part], 1);
        }
        for (int a = 0; a < n; a++) {
            if (m == 0) {
                X[a * st] += I * x[0][a];
                continue;
            }
            const double r = 0.70710678118654752440;
            X[m + a * st] += CMPLX(x[0][a] * r, x[1][a] * r);
            X[(size_t)m * N + a * st] += CMPLX(-x[0][a] * r, x[1][a] * r);
        }
    }
}

/* The basis of degrees l <= L (slpi_fast_zeitlin_init_degrees, what a run without the
 * readings Q, L or fields builds): its harmonics are the whole basis's bit for bit and its
 * columns above L zero; a synthesis of coefficients of degrees <= L writes the whole
 * basis's bits (a run's initial state: the same output as before the basis was cut); an
 * analysis reads the degrees above L as 0; growing it to N - 1 gives the whole basis. */
static void check_degrees(int N, int L)
{
    size_t NN = (size_t)N * N;
    slpi_fast_zeitlin zf, zp;
    slpi_error err;
    TEST_CHECK(slpi_fast_zeitlin_init(&zf, N, &err) == SLPI_OK && zf.lmax == N - 1);
    TEST_CHECK(slpi_fast_zeitlin_init_degrees(&zp, N, L, &err) == SLPI_OK && zp.lmax == L);
    int same = 1, zero = 1;
    for (int m = 0; m <= L; m++)
        for (int l = m; l < N; l++) {
            const double *a = slpi_fast_zeitlin_harmonic(&zf, l, m), *b = slpi_fast_zeitlin_harmonic(&zp, l, m);
            for (int i = 0; i < N - m; i++) {
                if (l <= L && memcmp(&a[i], &b[i], sizeof *a) != 0) same = 0;
                if (l > L && b[i] != 0) zero = 0;
            }
        }
    TEST_CHECKF(same, "degrees N=%d L=%d: a harmonic of degree <= L differs from the whole basis's", N, L);
    TEST_CHECKF(zero, "degrees N=%d L=%d: a column above L is not zero", N, L);
    double *om = calloc(NN, sizeof *om), *oa = calloc(NN, sizeof *oa), *ob = calloc(NN, sizeof *ob);
    cplx *A = cmat(N), *B = cmat(N);
    for (int alpha = 0; alpha < (L + 1) * (L + 1) - 1; alpha++) om[alpha] = test_rand_uniform(-1, 1);
    slpi_fast_zeitlin_synthesis(A, om, &zf);
    slpi_fast_zeitlin_synthesis(B, om, &zp);
    TEST_CHECKF(memcmp(A, B, NN * sizeof *A) == 0, "degrees N=%d L=%d: the synthesis differs from the whole basis's", N,
                L);
    synthesis_whole(B, om, &zf);
    TEST_CHECKF(memcmp(A, B, NN * sizeof *A) == 0,
                "degrees N=%d L=%d: the synthesis differs from the whole products' (every column)", N, L);
    rand_skewh(A, N);
    slpi_fast_zeitlin_analysis(oa, A, &zf);
    for (size_t i = 0; i + 1 < NN; i++) ob[i] = 1.0; /* every coefficient written */
    slpi_fast_zeitlin_analysis(ob, A, &zp);
    int readl = 1, readh = 1;
    for (int alpha = 0; alpha + 1 < N * N; alpha++)
        if (slpi_fast_zeitlin_degree(alpha) <= L ? oa[alpha] != ob[alpha] : ob[alpha] != 0) {
            if (slpi_fast_zeitlin_degree(alpha) <= L)
                readl = 0;
            else
                readh = 0;
        }
    TEST_CHECKF(readl, "degrees N=%d L=%d: the analysis of a degree <= L differs from the whole basis's", N, L);
    TEST_CHECKF(readh, "degrees N=%d L=%d: the analysis reads a degree above L as nonzero", N, L);
    TEST_CHECK(slpi_fast_zeitlin_degrees(&zp, L - 1, &err) == SLPI_OK && zp.lmax == L);
    TEST_CHECK(slpi_fast_zeitlin_degrees(&zp, N + 5, &err) == SLPI_OK && zp.lmax == N - 1);
    TEST_CHECKF(zp.voff[N] == zf.voff[N] && memcmp(zp.vec, zf.vec, zf.voff[N] * sizeof *zf.vec) == 0,
                "degrees N=%d L=%d grown to N-1: not the whole basis", N, L);
    printf("  basis of degrees <= %d at N=%d: harmonics, synthesis and analysis as the whole basis's\n", L, N);
    free(om);
    free(oa);
    free(ob);
    free(A);
    free(B);
    slpi_fast_zeitlin_clear(&zf);
    slpi_fast_zeitlin_clear(&zp);
}

/* The tables a process keeps (fast/zeitlin-degrees.c): a build of (N, 2) after the whole
 * basis of N, and one after that, give the first (N, 2) build's bits, and the kept copy is
 * the caller's own (the build it came from cleared first). */
static void check_kept(int N)
{
    slpi_fast_zeitlin a, b, c, d;
    slpi_error err;
    TEST_CHECK(slpi_fast_zeitlin_init_degrees(&a, N, 2, &err) == SLPI_OK);
    TEST_CHECK(slpi_fast_zeitlin_init(&b, N, &err) == SLPI_OK);
    TEST_CHECK(slpi_fast_zeitlin_init_degrees(&c, N, 2, &err) == SLPI_OK);
    TEST_CHECK(slpi_fast_zeitlin_init_degrees(&d, N, 2, &err) == SLPI_OK);
    int after_whole = c.voff[N] == a.voff[N] && memcmp(c.vec, a.vec, a.voff[N] * sizeof *a.vec) == 0;
    slpi_fast_zeitlin_clear(&c);
    int again = d.voff[N] == a.voff[N] && memcmp(d.vec, a.vec, a.voff[N] * sizeof *a.vec) == 0;
    TEST_CHECKF(after_whole && again, "N=%d: degrees <= 2 after the whole basis %s, built again %s", N,
                after_whole ? "the same" : "differ", again ? "the same" : "differ");
    printf("  N=%d: the basis of degrees <= 2 built after the whole basis and again: the same bits\n", N);
    slpi_fast_zeitlin_clear(&a);
    slpi_fast_zeitlin_clear(&b);
    slpi_fast_zeitlin_clear(&d);
}

int main(void)
{
    test_start("t-fast-zeitlin-basis", 20261126);
    check_basis(2, 1000);
    check_basis(5, 1000);
    check_basis(6, 1000);
    check_basis(128, (int)test_iters(40));
    check_modal_parity(2);
    check_modal_parity(5);
    check_modal_parity(6);
    check_modal_parity(37);
    check_modal_parity(128);
    check_degrees(32, 5);
    check_degrees(67, 11);
    check_kept(24);

    slpi_fast_zeitlin z;
    slpi_error err;
    TEST_CHECK(slpi_fast_zeitlin_init(&z, 1, &err) == SLPI_EINPUT && strstr(err.msg, "N = 1"));
    TEST_END();
}
