/* core/blas-threads.h — how many threads the BLAS runs (core/blas-threads.c;
 * docs/conventions.md#threads). A declared interface of core, not installed. */
#ifndef SLPI_CORE_BLAS_THREADS_H
#define SLPI_CORE_BLAS_THREADS_H

/* One BLAS thread unless OPENBLAS_NUM_THREADS chooses: the slpi command's setting, and its
 * benchmarks' (a ratio of one thread to one thread). With OpenBLAS it also stops the pool
 * OpenBLAS made when it loaded (a thread a core but one), whose threads spin about 2^28
 * cycles (0.1 CPU-s) each before they sleep; one BLAS thread never wakes it, and OpenBLAS
 * makes it again if a caller asks for threads. Another CBLAS: nothing. */
void slpi_blas_one_thread(void);

#endif
