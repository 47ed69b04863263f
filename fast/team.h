/* fast/team.h — the thread team of the su(N) kernels (fast/team.c,
 * docs/conventions.md#threads). Not installed. */
#ifndef SLPI_FAST_TEAM_H
#define SLPI_FAST_TEAM_H

/* Matrix size from which the su(N) kernels (fast/sun.c, fast/zeitlin-basis.c) share their
 * O(N^2) and O(N^3) passes out to the thread team (fast/team.c, docs/conventions.md#threads);
 * below it a second thread costs more than it saves. */
#define SLPI_FAST_TEAM_MIN_N 64

/* Run fn(ctx, u) for u = 0..n-1, each once, on the caller and the free helper threads
 * (omp_get_max_threads() in all; fast/team.c), in increasing u on each thread; returns
 * when all are done. The caller never waits for a helper that has not joined, and the
 * units must not depend on the thread that runs them: the results are then the same for
 * every thread count. size: the matrix size of the work; below SLPI_FAST_TEAM_MIN_N the
 * caller runs every unit itself. */
typedef void (*slpi_fast_team_fn)(void *ctx, int unit);
void slpi_fast_team_run(int size, int n, slpi_fast_team_fn fn, void *ctx);

#endif
