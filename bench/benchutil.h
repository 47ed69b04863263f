/* benchutil.h — clocks shared by the benchmarks: wall seconds (monotonic) and the
 * process's CPU seconds (all threads; the robust figure on a shared machine). */
#ifndef SLPI_BENCHUTIL_H
#define SLPI_BENCHUTIL_H

#include <time.h>

static inline double bench_wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline double bench_cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif
