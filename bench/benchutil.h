/* benchutil.h — clocks shared by the benchmarks: wall seconds (monotonic), the process's
 * CPU seconds (all threads; the robust figure on a shared machine) and the calling
 * thread's; the process's peak resident memory; the load average every figure states. */
#ifndef SLPI_BENCHUTIL_H
#define SLPI_BENCHUTIL_H

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
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

/* The process's resident memory now, in GB (/proc/self/statm; 0 where it cannot be read) */
static inline double bench_rss_gb(void)
{
    long size = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f == NULL) return 0.0;
    if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = 0;
    fclose(f);
    return (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0 * 1024.0);
}

/* The calling thread's CPU seconds (a single-threaded step: time descheduled on a shared
 * machine is not counted). */
static inline double bench_thread_cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The load average (/proc/loadavg) on standard output, labelled `when`: every figure of a
 * benchmark states the load it was measured under. */
static inline void bench_print_load(const char *when)
{
    char buf[128] = "?";
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (!fgets(buf, sizeof buf, f)) strcpy(buf, "?\n");
        fclose(f);
    }
    printf("load (/proc/loadavg) %s: %s", when, buf);
}

/* A goal's line, the one form bench/goals.py reads (docs/experiments.md#goals):
 *     goal ID: VALUE (<= GOAL; bound BOUND) WHAT: met|not met
 * `le` says the goal is an upper limit (else a lower one); a bound of 0 is none. */
static inline void bench_goal(const char *id, double value, int le, double goal, double bound, const char *what)
{
    const int met = le ? value <= goal : value >= goal;
    printf("goal %s: %.4g (%s %g", id, value, le ? "<=" : ">=", goal);
    if (bound > 0) printf("; bound %g", bound);
    printf(") %s: %s\n", what, met ? "met" : "not met");
}

#endif
