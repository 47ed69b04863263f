/* team.c — the threads of the su(N) kernels (docs/conventions.md#threads).
 *
 * slpi_fast_team_run(size, n, fn, ctx) runs fn(ctx, 0..n-1), each unit exactly once, on the
 * calling thread and on helper threads, and returns when every unit is done. Units are
 * claimed in increasing order from a shared counter; the caller claims too, and waits
 * only for units a helper has claimed and not yet finished — never for a helper that has
 * not arrived. So a helper that the scheduler keeps off the cores (a busy shared machine)
 * costs nothing: the caller does all the work itself, at the one-thread speed. (An OpenMP
 * parallel region ends with a barrier that waits for every thread of the team: at load 4-7
 * on two cores that made an N = 64 step 14x slower on two threads than on one.)
 *
 * The units are a partition fixed by the caller, and a unit computes the same bits on any
 * thread, so results do not depend on the number of threads.
 *
 * Team size: omp_get_max_threads() (OMP_NUM_THREADS), i.e. that many - 1 helpers, created
 * on first use and kept for the life of the process; inside any OpenMP parallel region
 * (the lock-step ensembles, `slpi converge --threads`, `slpi verify`'s rows: a region of
 * one thread too, where the caller asked for `--threads 1`), while another thread holds
 * the team, or while OpenBLAS runs on more than one thread (below), the caller runs
 * every unit itself. Helpers spin briefly between jobs
 * (TEAM_SPIN pauses, a fraction of a millisecond), then sleep on a condition variable; a
 * helper that gets too few units (it is rarely on a core: a busy machine) stops spinning
 * and sleeps until every TEAM_PROBE-th job, so that it does not take the caller's share of
 * the cores; the
 * caller, waiting for a claimed unit, spins a little, then yields its core. When that
 * wait was long (a helper preempted in the middle of a unit: more than twice the caller's
 * own work in the job), the caller runs the next TEAM_SOLO_JOBS jobs alone.
 *
 * Protocol: state = (generation << 32) | next unit. A job is published in slot
 * generation & 1 before state moves to the new generation; a claim is a compare-and-swap
 * that names the generation, so a helper that read a job late can never claim a unit of a
 * later one, and the slot it read stays untouched until the job after next. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/clock.h"
#include "core/fpmode.h"
#include "fast/team.h"

#define TEAM_MAX_HELPERS 63
#define TEAM_SPIN 20000
/* Back-off: a job whose caller waited for claimed units longer than twice its own work
 * plus TEAM_STALL_SLACK seconds (a helper preempted in the middle of a unit) makes the next
 * TEAM_SOLO_JOBS jobs run on the caller alone. */
#define TEAM_STALL_SLACK 20e-6
#define TEAM_SOLO_JOBS 256
/* A helper whose share of the units it could have taken falls below 1/TEAM_IDLE_SHARE
 * (moving average over about 8 jobs: the caller took nearly everything, so the helper is
 * rarely on a core when a job comes: a busy machine) sleeps without spinning until every
 * TEAM_PROBE-th job: spinning there only takes the caller's share of the cores. */
#define TEAM_IDLE_SHARE 5
#define TEAM_PROBE 64

typedef struct {
    _Atomic(slpi_fast_team_fn) fn;
    _Atomic(void *) ctx;
    atomic_int n;
    atomic_int helpers; /* helpers (by index) allowed to join */
    atomic_int flush;   /* the caller flushes subnormals (core/fpmode.h): so do they */
} team_job;

static struct {
    pthread_mutex_t m;
    pthread_cond_t c, cidle;
    int started;                 /* helpers created (under m) */
    atomic_int sleepers, idlers; /* helpers asleep between jobs, and idle ones */
    atomic_uint probe;           /* bumped (under m) at every TEAM_PROBE-th job */
    atomic_int pending;          /* a wake-up was sent and no sleeper has woken since */
    atomic_flag busy;            /* a caller holds the team */
    _Atomic uint64_t state;      /* generation << 32 | next unit */
    atomic_int done;             /* units of the current job finished by helpers */
    team_job job[2];
    int solo; /* jobs left to run alone (back-off; the holder's) */
} team = { .m = PTHREAD_MUTEX_INITIALIZER,
           .c = PTHREAD_COND_INITIALIZER,
           .cidle = PTHREAD_COND_INITIALIZER,
           .busy = ATOMIC_FLAG_INIT }; /* the rest: zero */

static inline void team_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    atomic_signal_fence(memory_order_seq_cst);
#endif
}

/* Claim the next unit of generation g (fewer than n units): the unit, or -1. */
static int team_claim(uint32_t g, int n)
{
    uint64_t w = atomic_load(&team.state);
    for (;;) {
        if ((uint32_t)(w >> 32) != g || (int)(w & 0xffffffffu) >= n) return -1;
        if (atomic_compare_exchange_weak(&team.state, &w, w + 1)) return (int)(w & 0xffffffffu);
    }
}

static void *team_helper(void *arg)
{
    int id = (int)(intptr_t)arg, share = 512; /* moving average of got / n, in 1/1024 */
    uint32_t seen = 0;
    for (;;) {
        uint64_t w;
        if (share < 1024 / TEAM_IDLE_SHARE) {
            pthread_mutex_lock(&team.m);
            unsigned pr = atomic_load(&team.probe);
            atomic_fetch_add(&team.idlers, 1);
            while (atomic_load(&team.probe) == pr) pthread_cond_wait(&team.cidle, &team.m);
            atomic_fetch_sub(&team.idlers, 1);
            pthread_mutex_unlock(&team.m);
            share = 512;
            seen = (uint32_t)(atomic_load(&team.state) >> 32) - 1; /* join the current job */
        }
        int spins = 0;
        while ((uint32_t)((w = atomic_load(&team.state)) >> 32) == seen) {
            if (++spins < TEAM_SPIN) {
                if (spins % 64 == 0)
                    sched_yield();
                else
                    team_pause();
                continue;
            }
            pthread_mutex_lock(&team.m);
            atomic_fetch_add(&team.sleepers, 1);
            while ((uint32_t)(atomic_load(&team.state) >> 32) == seen) pthread_cond_wait(&team.c, &team.m);
            atomic_fetch_sub(&team.sleepers, 1);
            atomic_store(&team.pending, 0);
            pthread_mutex_unlock(&team.m);
            spins = 0;
        }
        uint32_t g = (uint32_t)(w >> 32);
        seen = g;
        team_job *j = &team.job[g & 1];
        if (id >= atomic_load(&j->helpers)) continue;
        slpi_fast_team_fn fn = atomic_load(&j->fn);
        void *ctx = atomic_load(&j->ctx);
        int n = atomic_load(&j->n), u, got = 0;
        slpi_fpmode mode = slpi_fpmode_set(atomic_load(&j->flush));
        while ((u = team_claim(g, n)) >= 0) {
            fn(ctx, u);
            atomic_fetch_add(&team.done, 1);
            got++;
        }
        slpi_fpmode_restore(mode);
        share += (got * 1024 / n - share) / 8;
    }
    return NULL;
}

/* OpenBLAS's own thread pool must not be entered from two threads at once: when the
 * caller runs BLAS on several threads (OPENBLAS_NUM_THREADS > 1 or openblas_set_num_threads,
 * the library's caller's choice: docs/conventions.md#threads), two team threads in zgemm
 * deadlocked in OpenBLAS 0.3.21 (an Euler-Zeitlin step at N = 513: both threads waiting in
 * exec_blas, the caller spinning). The team then runs every unit on the caller: the same
 * results (they do not depend on the thread count), BLAS's threads doing the sharing. */
int openblas_get_num_threads(void) __attribute__((weak));

/* Helpers wanted for this call: 0 when the caller must run alone. */
static int team_size(int n)
{
    int want = 0;
#ifdef _OPENMP
    if (omp_get_level() == 0) want = omp_get_max_threads() - 1; /* in no region, active or not */
#endif
    if (openblas_get_num_threads && openblas_get_num_threads() > 1) want = 0;
    if (want > n - 1) want = n - 1;
    if (want > TEAM_MAX_HELPERS) want = TEAM_MAX_HELPERS;
    if (want <= 0) return 0;
    pthread_mutex_lock(&team.m);
    while (team.started < want) {
        pthread_t t;
        pthread_attr_t a;
        pthread_attr_init(&a);
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&t, &a, team_helper, (void *)(intptr_t)team.started);
        pthread_attr_destroy(&a);
        if (rc) break;
        team.started++;
    }
    if (want > team.started) want = team.started;
    pthread_mutex_unlock(&team.m);
    return want;
}

void slpi_fast_team_run(int size, int n, slpi_fast_team_fn fn, void *ctx)
{
    int helpers = n > 1 && size >= SLPI_FAST_TEAM_MIN_N ? team_size(n) : 0;
    if (helpers == 0 || atomic_flag_test_and_set(&team.busy)) {
        for (int u = 0; u < n; u++) fn(ctx, u);
        return;
    }
    if (team.solo > 0) {
        team.solo--;
        atomic_flag_clear(&team.busy);
        for (int u = 0; u < n; u++) fn(ctx, u);
        return;
    }
    uint32_t g = (uint32_t)(atomic_load(&team.state) >> 32) + 1;
    team_job *j = &team.job[g & 1];
    atomic_store(&j->fn, fn);
    atomic_store(&j->ctx, ctx);
    atomic_store(&j->n, n);
    atomic_store(&j->helpers, helpers);
    atomic_store(&j->flush, slpi_fpmode_flushing());
    atomic_store(&team.done, 0);
    atomic_store(&team.state, (uint64_t)g << 32);
    /* wake sleepers once (not again until one has woken: under load the wake-up takes
     * long), and the idle helpers at a probe */
    int probe = g % TEAM_PROBE == 0;
    if ((atomic_load(&team.sleepers) > 0 && !atomic_exchange(&team.pending, 1)) ||
        (probe && atomic_load(&team.idlers) > 0)) {
        pthread_mutex_lock(&team.m);
        if (probe) {
            atomic_fetch_add(&team.probe, 1);
            pthread_cond_broadcast(&team.cidle);
        }
        pthread_cond_broadcast(&team.c);
        pthread_mutex_unlock(&team.m);
    }
    int mine = 0, u;
    double t0 = slpi_clock_seconds(CLOCK_MONOTONIC);
    while ((u = team_claim(g, n)) >= 0) {
        fn(ctx, u);
        mine++;
    }
    /* the units the helpers claimed are under way: wait for them only (yielding, in case
     * a preempted helper waits for this core) */
    double t1 = slpi_clock_seconds(CLOCK_MONOTONIC);
    for (int spins = 0; atomic_load(&team.done) < n - mine; spins++) {
        if (spins < TEAM_SPIN / 16)
            team_pause();
        else
            sched_yield();
    }
    if (slpi_clock_seconds(CLOCK_MONOTONIC) - t1 > 2 * (t1 - t0) + TEAM_STALL_SLACK) team.solo = TEAM_SOLO_JOBS;
    atomic_flag_clear(&team.busy);
}
