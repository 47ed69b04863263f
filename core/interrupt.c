/* interrupt.c — stopping a long call cleanly (docs/conventions.md#interrupt): one flag for
 * the process, raised by slpi_interrupt_request (async-signal-safe: from a signal handler
 * or another thread) and polled where the long loops go round (every step of
 * core/steps.c, every lock-step step of a convergence study, every case of golden and
 * props, every claim of the audit). A polled call returns SLPI_EINTR naming where it
 * stopped, after it has kept what it did: a streamed output is a valid prefix, a
 * checkpoint is written at the last step or batch completed.
 *
 * slpi_interrupt_catch is the `slpi` command's stop: the first SIGINT, SIGTERM or SIGHUP
 * raises the flag (the command then exits 130 after keeping what it did, whichever of the
 * three came: a batch scheduler's SIGTERM at its wall-time limit keeps what a Ctrl-C keeps),
 * and arms a fallback in case the work in hand polls nowhere: one second of the process's
 * CPU time (ITIMER_PROF, all threads), or ten seconds of wall time for work that waits
 * without computing. A second such signal, or the fallback, removes the temporary outputs
 * (core/output.c) and ends the process by the first signal at once (a shell sees 128 + its
 * number). CPU time, not wall time: on a busy machine a command that polls every few
 * hundred milliseconds of its own work may get no processor for a second, and was ended
 * by a wall-clock fallback before its poll came. A signal the command inherited ignored
 * (nohup's SIGHUP, a background job's SIGINT) stays ignored. */
#define _XOPEN_SOURCE 700
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "core/output.h"
#include "slpi/process.h"
#include "core/command.h"

static atomic_int requested;

void slpi_interrupt_request(void)
{
    atomic_store_explicit(&requested, 1, memory_order_relaxed);
}

void slpi_interrupt_clear(void)
{
    atomic_store_explicit(&requested, 0, memory_order_relaxed);
}

int slpi_interrupt_pending(void)
{
    return atomic_load_explicit(&requested, memory_order_relaxed);
}

/* the first stopping signal, re-raised by die (0: none yet) */
static volatile sig_atomic_t first_signal;

static void die(void)
{
    int sig = first_signal ? first_signal : SIGINT;
    slpi_output_remove_pending();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_alarm(int sig)
{
    (void)sig;
    die();
}

/* The fallback's two clocks (setitimer and alarm are async-signal-safe). */
#define FALLBACK_CPU_SECONDS 1
#define FALLBACK_WALL_SECONDS 10

static void on_stop(int sig)
{
    if (!first_signal) first_signal = sig;
    if (atomic_exchange_explicit(&requested, 1, memory_order_relaxed)) die();
    struct itimerval cpu = { { 0, 0 }, { FALLBACK_CPU_SECONDS, 0 } };
    setitimer(ITIMER_PROF, &cpu, NULL);
    alarm(FALLBACK_WALL_SECONDS);
}

int slpi_interrupt_catch(void)
{
    static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction old, sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_alarm;
    if (sigaction(SIGALRM, &sa, NULL) != 0 || sigaction(SIGPROF, &sa, NULL) != 0) return 0;
    int sigint = 0;
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
        if (sigaction(stops[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN) continue; /* ignored: kept so */
        sa.sa_handler = on_stop;
        if (sigaction(stops[i], &sa, NULL) == 0 && stops[i] == SIGINT) sigint = 1;
    }
    return sigint;
}
