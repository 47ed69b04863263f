/* blas-threads.c — one BLAS thread, OpenBLAS's idle pool stopped (core/blas-threads.h). */
#include <stdlib.h>

#include "core/blas-threads.h"

/* OpenBLAS's; weak, so that slpi links with another CBLAS too (docs/install.md#blas). */
void openblas_set_num_threads(int n) __attribute__((weak));
int blas_thread_shutdown_(void) __attribute__((weak));

void slpi_blas_one_thread(void)
{
    if (getenv("OPENBLAS_NUM_THREADS") || !openblas_set_num_threads) return;
    openblas_set_num_threads(1);
    if (blas_thread_shutdown_) blas_thread_shutdown_();
}
