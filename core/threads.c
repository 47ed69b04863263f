/* threads.c — the thread count of the work that runs OpenMP threads of its own (`slpi
 * converge`, `slpi verify --local`; docs/conventions.md#threads): the count asked for, or
 * the OpenMP runtime's default (OMP_NUM_THREADS), refused above SLPI_MAX_THREADS with a
 * message naming where the count came from. (Without the cap, OMP_NUM_THREADS=65536 made
 * the runtime's thread creation crash and 20000 took 300x the time of one thread on two
 * cores.) The su(N) kernels' team (fast/team.c) caps its own helpers. */
#ifdef _OPENMP
#include <omp.h>
#endif

#include "slpi/errors.h"
#include "core/threads.h"

int slpi_threads_resolve(int requested, const char *who, int *nt, slpi_error *err)
{
    int n = requested;
    const char *from = "threads";
    if (n <= 0) {
#ifdef _OPENMP
        n = omp_get_max_threads();
        from = "the OpenMP default (OMP_NUM_THREADS)";
#else
        n = 1;
#endif
    }
    if (n < 1 || n > SLPI_MAX_THREADS)
        return slpi_error_set(err, SLPI_EINPUT, "%s: %s is %d threads: out of range [1, %d]", who, from, n,
                              SLPI_MAX_THREADS);
    *nt = n;
    return SLPI_OK;
}
