/* t-fast-zeitlin.c — Euler–Zeitlin on su(N), double path (docs/systems.md#euler-zeitlin): the
 * system file (vector field, generators, Casimirs, an ISOMP run), the fused ISOMP map of
 * fast/sun.c, the modal weights formed once per step, the threaded kernels bit for bit
 * across thread counts, with both complex products (which one runs is
 * tests/core/t-blas-product.c's). The basis
 * (fast/zeitlin-basis.c) has its own program, t-fast-zeitlin-basis.c. Errors are
 * scale-free ratios |err| / (n u scale), u = 2^-53. */
#include <complex.h>
#include <float.h>
#include <omp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include <cblas.h>

#include "core/problem-struct.h"
#include "fast/fast.h"
#include "fast/team.h"
#include "fast/dense.h"
#include "fast/sun.h"
#include "fast/zeitlin.h"
#include "testutil.h"
#include "core/blas.h"
#include "cplxutil.h"

slpi_fast_system_ctor slpi_fast_sys_euler_zeitlin; /* fast/euler-zeitlin.c */

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
    p.sys.ez.N = N;
    p.sys.ez.noise = noise;
    p.sys.ez.ic_lmax = N - 1;
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
    double *mu = malloc(dim * sizeof *mu), *xi = malloc(dim * sizeof *xi), *v = malloc(dim * sizeof *v),
           *ref = malloc(dim * sizeof *ref), *tmp = malloc(dim * sizeof *tmp), *w = malloc(dim * sizeof *w),
           *delta = malloc((M + 1) * sizeof *delta), *om = malloc(nb * sizeof *om), *e1 = calloc(nb, sizeof *e1);
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
            double c = -p.sys.ez.amp / ((double)l * (l + 1)) * delta[k] * (noise == SLPI_EZ_NOISE_Q ? om[alpha] : 1.0);
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
        slpi_diag d = { 0 };
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
    printf("  system N=%d noise %d (M=%d): field %.2f, gen_sum %.2f, dgen %.2f, H0/C2 %.2f\n", N, noise, M, wf, wk, wh,
           wH);
    free(mu);
    free(xi);
    free(v);
    free(ref);
    free(tmp);
    free(w);
    free(delta);
    free(om);
    free(e1);
    free(X);
    free(P);
    free(B);
    free(C);
    free(T);
    free(V);
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
    p.sys.ez.N = N;
    p.sys.ez.ic_lmax = N - 1;
    p.sch.isomp_update = upd;
    p.grid.h = 1.0 / 128;
    slpi_fast *f;
    int rc = slpi_fast_create(&f, &p, &err);
    TEST_CHECKF(rc == SLPI_OK, "isomp create: %s", err.msg);
    if (rc) return;
    int dim = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p);
    double *x = malloc(dim * sizeof *x), *x0 = malloc(dim * sizeof *x0), *dW = malloc((M + 1) * sizeof *dW);
    TEST_CHECK(slpi_fast_initial_state(f, x, &err) == SLPI_OK);
    memcpy(x0, x, dim * sizeof *x);
    slpi_diag d = { 0 };
    slpi_fast_diagnostics(f, x, NULL, &d);
    TEST_CHECKF(fabs(diag_get(&d, "C2") + 1) < 1e-14, "IC norm: C2 = %.17g", diag_get(&d, "C2"));
    int fails = 0;
    for (int n = 0; n < steps; n++) {
        for (int k = 0; k < M; k++) dW[k] = sqrt(p.grid.h) * gauss();
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
    TEST_CHECKF(fabs(diag_get(&d, "H0_rel_dev")) > 1e-8, "noise moves H0: %.3g", diag_get(&d, "H0_rel_dev"));
    printf("  isomp %s N=%d, %d steps: eig_dev ratio %.2f, C2 ratio %.2f, H0_rel_dev %.3g, mean "
           "iterations %.2f\n",
           upd == SLPI_ISO_UPDATE_CAY ? "cay" : "comm", N, steps, r, rc2, diag_get(&d, "H0_rel_dev"),
           diag_get(&d, "mean_iters"));
    free(x);
    free(x0);
    free(dW);
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
    cplx *P = cmat(N), *X = cmat(N), *Y = cmat(N), *R = cmat(N), *C = cmat(N), *T = cmat(N), *Yn = cmat(N),
         *Xx = cmat(N), *Rx = cmat(N);
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
    for (int m3 = 0; m3 <= 1; m3++) /* both products: zgemm and zgemm3m (slpi_blas_zproduct) */
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
    for (size_t i = 0; i < NN; i++) dm = fmax(dm, fmax(fabs(creal(Yn[i] - Y[i])), fabs(cimag(Yn[i] - Y[i]))));
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
    free(P);
    free(X);
    free(Y);
    free(R);
    free(C);
    free(T);
    free(Yn);
    free(Xx);
    free(Rx);
    slpi_fast_sun_clear(&u);
}

/* An ISOMP problem with noise (Q) strong enough to matter (amp 2, every degree in the IC). */
static slpi_fast *noisy_isomp(int N, slpi_problem *p)
{
    slpi_error err;
    slpi_problem_init(p, SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP);
    p->sys.ez.N = N;
    p->sys.ez.ic_lmax = N - 1;
    p->sys.ez.amp = 2;
    p->grid.h = 1.0 / 128;
    p->sch.warm_start = 0; /* a step after a step starts as a fresh system's (the default is warm) */
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
    double *x = malloc(dim * sizeof *x), *y = malloc(dim * sizeof *y), *dW = malloc((M + 1) * sizeof *dW);
    TEST_CHECK(slpi_fast_initial_state(f, x, &err) == SLPI_OK);
    for (int k = 0; k < M; k++) dW[k] = sqrt(p.grid.h) * gauss();
    slpi_step_info info;
    TEST_CHECK(!slpi_step_failed(slpi_fast_step(f, x, dW, &info)));
    memcpy(y, x, dim * sizeof *x);
    dW[M - 1] += 0.25 * sqrt(p.grid.h);
    TEST_CHECK(!slpi_step_failed(slpi_fast_step(f, x, dW, &info)));
    TEST_CHECK(!slpi_step_failed(slpi_fast_step(g, y, dW, &info)));
    TEST_CHECKF(memcmp(x, y, dim * sizeof *x) == 0, "N=%d: a step after a step differs from a fresh system's", N);
    /* the cache itself: the field for increments that differ from the last ones only in
     * the last component equals a fresh system's (within a step the predictor's halved
     * increments change every component, so steps alone cannot see a stale last weight) */
    slpi_fast *f2 = noisy_isomp(N, &p), *g2 = noisy_isomp(N, &p);
    double *delta = malloc((M + 1) * sizeof *delta), *v = malloc(dim * sizeof *v), *w = malloc(dim * sizeof *w);
    if (f2 && g2) {
        delta[0] = p.grid.h;
        memcpy(delta + 1, dW, M * sizeof *dW);
        f2->sys.gen_sum(&f2->sys, v, delta, x);
        delta[M] += 0.25 * sqrt(p.grid.h);
        f2->sys.gen_sum(&f2->sys, v, delta, x);
        g2->sys.gen_sum(&g2->sys, w, delta, x);
        TEST_CHECKF(memcmp(v, w, dim * sizeof *v) == 0,
                    "N=%d: the field after a change of the last increment alone is stale", N);
    }
    free(delta);
    free(v);
    free(w);
    if (f2) slpi_fast_free(f2);
    if (g2) slpi_fast_free(g2);
    free(x);
    free(y);
    free(dW);
    slpi_fast_free(f);
    slpi_fast_free(g);
}

/* The diagnostics' spectra are computed once a state (fast/sun.c's two slots): a sequence
 * of (state, initial state) pairs on one system, where states recur in either role and
 * two states differ from a third in one component, gives
 * every diagnostic bit for bit as a fresh system's, at N with every eigenvalue listed (12),
 * with lambda_1 and lambda_N (16) and with C5, C6 (20). */
static void check_spectra_once(int N)
{
    static const int seq[][2] = { { 0, 0 }, { 0, 0 },  { 1, 0 }, { 2, 0 }, { 0, 0 }, { 0, 1 },
                                  { 1, 1 }, { 2, -1 }, { 0, 2 }, { 2, 2 }, { 1, 2 }, { 1, 0 },
                                  { 0, 0 }, { 3, 0 },  { 4, 0 }, { 3, 3 }, { 0, 3 } };
    slpi_problem p;
    slpi_fast *f = noisy_isomp(N, &p);
    if (!f) return;
    int dim = slpi_problem_state_dim(&p), bad = 0;
    double *x = malloc(5 * (size_t)dim * sizeof *x);
    for (int i = 0; i < 3 * dim; i++) x[i] = gauss();
    /* states 3 and 4: state 0 with one component changed (the last, the middle one) */
    memcpy(x + 3 * (size_t)dim, x, (size_t)dim * sizeof *x);
    memcpy(x + 4 * (size_t)dim, x, (size_t)dim * sizeof *x);
    x[4 * (size_t)dim - 1] += 0.5;
    x[4 * (size_t)dim + dim / 2] += 0.5;
    for (size_t k = 0; k < sizeof seq / sizeof *seq; k++) {
        slpi_diag d = { 0 }, e = { 0 };
        const double *x0 = seq[k][1] < 0 ? NULL : x + (size_t)seq[k][1] * dim;
        slpi_fast *g = noisy_isomp(N, &p);
        if (!g) break;
        slpi_fast_diagnostics(f, x + (size_t)seq[k][0] * dim, x0, &d);
        slpi_fast_diagnostics(g, x + (size_t)seq[k][0] * dim, x0, &e);
        slpi_fast_free(g);
        int same = d.n == e.n && d.n > 0;
        for (int i = 0; i < d.n && same; i++)
            same = !strcmp(d.name[i], e.name[i]) && memcmp(&d.value[i], &e.value[i], sizeof d.value[i]) == 0;
        TEST_CHECKF(same, "N=%d: diagnostics of pair %zu (state %d, initial %d) differ from a fresh system's", N, k,
                    seq[k][0], seq[k][1]);
        bad += !same;
    }
    printf("  N=%d: %zu (state, initial state) pairs, diagnostics as a fresh system's: %s\n", N,
           sizeof seq / sizeof *seq, bad ? "no" : "yes");
    free(x);
    slpi_fast_free(f);
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
            TEST_CHECKF(memcmp(x, ref, dim * sizeof *x) == 0,
                        "N=%d: steps on %d threads differ "
                        "from 1 thread",
                        N, t);
            TEST_CHECKF(memcmp(v, refv, dim * sizeof *v) == 0,
                        "N=%d: field on %d threads "
                        "differs from 1 thread",
                        N, t);
            free(x);
            free(v);
        }
        slpi_fast_free(f);
    }
    omp_set_num_threads(keep);
    printf("  threads N=%d: 1, 2, 3 threads bit-identical\n", N);
    free(ref);
    free(refv);
    free(dW);
    free(delta);
}

int main(void)
{
    test_start("t-fast-zeitlin", 20261121);
    check_sun_kernel(5);
    check_sun_kernel(37);
    check_sun_kernel(70);
    check_system(5, SLPI_EZ_NOISE_Q, (int)test_iters(20));
    check_system(6, SLPI_EZ_NOISE_L, (int)test_iters(20));
    check_system(7, SLPI_EZ_NOISE_NONE, (int)test_iters(10));
    check_isomp_run(12, (int)test_iters(200), SLPI_ISO_UPDATE_COMM);
    check_isomp_run(12, (int)test_iters(100), SLPI_ISO_UPDATE_CAY);
    check_weights_once(12);
    check_spectra_once(12);
    check_spectra_once(16);
    check_spectra_once(20);
    check_threads(64);
    check_threads(67);

    TEST_END();
}
