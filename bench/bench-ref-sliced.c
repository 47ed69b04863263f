/* bench-ref-sliced.c — the accurate reference's product by error-free slicing on BLAS
 * against Arb's product at the same 128 bits (docs/power.md#sliced-products: it replaces
 * the latter in the accurate ISOMP step from the size at which it is faster).
 *
 * `bench-ref-sliced [N...]` (default 8 12 16 24 32 64 128): for each N, the product of two
 * random skew-Hermitian N x N ball matrices (128-bit midpoints, radii 2^-130), the shapes
 * of an su(N) step, by slpi_ref_mrmat_mul_sliced and by slpi_ref_mat_mul (Arb's), taken
 * alternately until each has run 0.3 CPU s; thread CPU seconds per product (the BLAS on
 * one thread unless OPENBLAS_NUM_THREADS says otherwise: slpi_blas_one_thread, as Arb's
 * product runs on one), the ratio Arb ÷ sliced, and the largest sliced radius relative to
 * the largest entry. Both in one process and one floating-point mode, from the same
 * matrices (the digits and the level sums are normal numbers: no subnormal arises, flushed
 * or not). One run, one load line. */
#include "bench/benchutil.h"
#include "core/blas-threads.h"
#include "ref/matrix.h"
#include "ref/mrmat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void skew_random(acb_mat_t X, flint_rand_t st)
{
    slong N = acb_mat_nrows(X);
    for (slong i = 0; i < N; i++)
        for (slong j = i; j < N; j++) {
            acb_ptr z = acb_mat_entry(X, i, j);
            arb_urandom(acb_realref(z), st, 128);
            arb_urandom(acb_imagref(z), st, 128);
            if (i == j) arb_zero(acb_realref(z)); /* then -conj(z) = z */
            mag_set_ui_2exp_si(arb_radref(acb_realref(z)), 1, -130);
            mag_set_ui_2exp_si(arb_radref(acb_imagref(z)), 1, -130);
            acb_neg(acb_mat_entry(X, j, i), z);
            acb_conj(acb_mat_entry(X, j, i), acb_mat_entry(X, j, i));
        }
}

/* thread CPU seconds per call of one product */
static double per_call(int sliced, acb_mat_t C, const acb_mat_t A, const acb_mat_t B, int *calls)
{
    double t0 = bench_thread_cpu();
    if (sliced)
        slpi_ref_mrmat_mul_sliced(C, A, B, 128);
    else
        slpi_ref_mat_mul(C, A, B, 128);
    (*calls)++;
    return bench_thread_cpu() - t0;
}

int main(int argc, char **argv)
{
    static const int dflt[] = { 8, 12, 16, 24, 32, 64, 128 };
    int nn = argc > 1 ? argc - 1 : (int)(sizeof dflt / sizeof dflt[0]);
    flint_rand_t st;
    flint_randinit(st);
    slpi_blas_one_thread(); /* the sliced side's dgemm on one thread, as Arb's product */
    bench_print_load("start");
    printf("%6s %14s %14s %10s %16s\n", "N", "sliced s/prod", "Arb s/prod", "Arb/sliced", "sliced rad/max");
    for (int a = 0; a < nn; a++) {
        int N = argc > 1 ? atoi(argv[a + 1]) : dflt[a];
        if (N < 1 || N > 4096) {
            fprintf(stderr, "bench-ref-sliced: N must be 1..4096, not %s\n", argv[a + 1]);
            return 2;
        }
        acb_mat_t A, B, C;
        acb_mat_init(A, N, N);
        acb_mat_init(B, N, N);
        acb_mat_init(C, N, N);
        skew_random(A, st);
        skew_random(B, st);
        double ts = 0, ta = 0;
        int cs = 0, ca = 0;
        while (ts < 0.3 || ta < 0.3) {
            if (ts < 0.3) ts += per_call(1, C, A, B, &cs);
            if (ta < 0.3) ta += per_call(0, C, A, B, &ca);
        }
        slpi_ref_mrmat_mul_sliced(C, A, B, 128);
        double rmax = 0, mmax = 0;
        for (slong i = 0; i < N; i++)
            for (slong j = 0; j < N; j++)
                for (int p = 0; p < 2; p++) {
                    arb_srcptr x = p ? acb_imagref(acb_mat_entry(C, i, j)) : acb_realref(acb_mat_entry(C, i, j));
                    rmax = fmax(rmax, mag_get_d(arb_radref(x)));
                    mmax = fmax(mmax, fabs(arf_get_d(arb_midref(x), ARF_RND_NEAR)));
                }
        printf("%6d %14.3e %14.3e %10.2f %16.2e\n", N, ts / cs, ta / ca, (ta / ca) / (ts / cs),
               mmax > 0 ? rmax / mmax : 0);
        acb_mat_clear(A);
        acb_mat_clear(B);
        acb_mat_clear(C);
    }
    bench_print_load("end");
    flint_randclear(st);
    flint_cleanup();
    return 0;
}
