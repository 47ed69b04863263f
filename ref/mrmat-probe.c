/* ref/mrmat-probe.c — the BLAS route's assumptions checked (docs/design.md#blas-route):
 * ref/mrmat.c's bounds hold for a BLAS that rounds to nearest with gradual underflow in and
 * out. slpi_ref_mrmat_probe checks the calling thread's mode on every call and, once per
 * process, dgemm, dgemv and zgemm (both parts) on products whose exact results tell a tie
 * rounded to nearest, a rounding above, an underflow to a subnormal and a subnormal input
 * apart, at a size run on one thread and at one OpenBLAS runs on its threads. */
#include "slpi/errors.h"
#include "core/slpi-flint.h"
#include "core/fpmode.h"
#include "ref/mrmat.h"

#include <cblas.h>
#include <fenv.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROBE_BIG 128 /* a size OpenBLAS runs on its threads */

static slpi_error probe_err; /* the probe's first failure */
static int probe_ok;
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

/* Row i of A = [1, 2^-53, 3 2^-54, 2^-537, 2^-1074, 0...] and column j of B selecting one
 * pair by j mod 4: 1 + 2^-53 (a tie: 1), 1 + 3 2^-54 (above: 1 + 2^-52), 2^-537 2^-537
 * (underflow: 2^-1074, not 0), 2^-1074 2^100 (subnormal input: 2^-974, not 0). */
static const double probe_want[4] = { 1.0, 1.0 + 0x1p-52, 0x1p-1074, 0x1p-974 };

static void probe_fill(double *A, double *B, int n, int stride)
{
    static const double row[5] = { 1.0, 0x1p-53, 0x3p-54, 0x1p-537, 0x1p-1074 };
    for (int i = 0; i < n; i++)
        for (int l = 0; l < 5; l++) A[stride * (i * n + l)] = row[l];
    for (int j = 0; j < n; j++) {
        double *b = B + stride * j;
        switch (j % 4) {
        case 0:
            b[0] = 1.0;
            b[stride * n] = 1.0;
            break;
        case 1:
            b[0] = 1.0;
            b[stride * 2 * n] = 1.0;
            break;
        case 2:
            b[stride * 3 * n] = 0x1p-537;
            break;
        default:
            b[stride * 4 * n] = 0x1p100;
            break;
        }
    }
}

static int probe_check(const double *C, int n, int stride, const char *what)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (C[stride * (i * n + j)] != probe_want[j % 4]) {
                slpi_error_set(&probe_err, SLPI_EINPUT, "BLAS %s at n = %d gives %a for %a (case %d: %s)", what, n,
                               C[stride * (i * n + j)], probe_want[j % 4], j % 4,
                               j % 4 < 2 ? "not rounded to nearest" : "flushes subnormals to zero");
                return 0;
            }
    return 1;
}

static int probe_size(int n)
{
    size_t nn = (size_t)n * n;
    double *A = calloc(2 * nn, sizeof *A), *B = calloc(2 * nn, sizeof *B), *C = calloc(2 * nn, sizeof *C);
    int ok = A && B && C;
    if (!ok) slpi_error_set(&probe_err, SLPI_EINPUT, "BLAS probe: out of memory");
    if (ok) {
        probe_fill(A, B, n, 1);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A, n, B, n, 0.0, C, n);
        ok = probe_check(C, n, 1, "dgemm");
        for (int j = 0; j < 4 && ok; j++) { /* dgemv (the tables' products): column j of B */
            cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, A, n, B + j, n, 0.0, C + j, n);
            ok = probe_check(C, n, 1, "dgemv");
        }
    }
    if (ok) { /* zgemm, the real part: A real, B real */
        memset(A, 0, 2 * nn * sizeof *A);
        memset(B, 0, 2 * nn * sizeof *B);
        probe_fill(A, B, n, 2);
        const double one[2] = { 1.0, 0.0 }, zero[2] = { 0.0, 0.0 };
        cblas_zgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, one, A, n, B, n, zero, C, n);
        ok = probe_check(C, n, 2, "zgemm (real part)");
        if (ok) { /* the imaginary part: B imaginary */
            for (size_t e = 0; e < nn; e++) {
                B[2 * e + 1] = B[2 * e];
                B[2 * e] = 0.0;
            }
            cblas_zgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, one, A, n, B, n, zero, C, n);
            ok = probe_check(C + 1, n, 2, "zgemm (imaginary part)");
        }
    }
    free(A);
    free(B);
    free(C);
    return ok;
}

static void probe_run(void)
{
    probe_ok = probe_size(8) && probe_size(PROBE_BIG);
}

int slpi_ref_mrmat_probe(char *why, size_t why_len)
{
    if (fegetround() != FE_TONEAREST) {
        snprintf(why, why_len, "blas route: this thread does not round to nearest");
        return 0;
    }
    if (slpi_fpmode_flushing()) { /* per call, as the rounding: the probe below runs once per process */
        snprintf(why, why_len, "blas route: this thread flushes subnormals to zero");
        return 0;
    }
    pthread_once(&probe_once, probe_run);
    if (!probe_ok) snprintf(why, why_len, "blas route refused: %s", probe_err.msg);
    return probe_ok;
}
