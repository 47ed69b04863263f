/* clock.h — seconds read from a POSIX clock: CLOCK_MONOTONIC for elapsed (wall) time,
 * CLOCK_PROCESS_CPUTIME_ID or CLOCK_THREAD_CPUTIME_ID for CPU time. The one place the
 * library and the tools read time as seconds (core/progress.c keeps integer nanoseconds
 * for its atomics). */
#ifndef SLPI_CLOCK_H
#define SLPI_CLOCK_H

#include <time.h>

static inline double slpi_clock_seconds(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
