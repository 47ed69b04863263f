/* benchutil.h — clocks shared by the benchmarks: wall seconds (monotonic) and the
 * process's CPU seconds (all threads; the robust figure on a shared machine); the
 * process's peak resident memory. */
#ifndef SLPI_BENCHUTIL_H
#define SLPI_BENCHUTIL_H

#include <sys/resource.h>
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

/* peak resident set of the process so far, GB (Linux: ru_maxrss in KB) */
static inline double bench_peak_gb(void)
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? (double)u.ru_maxrss / (1024.0 * 1024.0) : 0.0;
}

#endif
