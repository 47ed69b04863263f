/* interrupt.c — stopping a long call cleanly (docs/conventions.md#interrupt): one flag for
 * the process, raised by slpi_interrupt_request (async-signal-safe: from a signal handler
 * or another thread) and polled where the long loops go round (every step of
 * core/steps.c, every lock-step step of a convergence study, every case of golden and
 * props, every claim of the audit). A polled call returns SLPI_EINTR naming where it
 * stopped, after it has kept what it did: a streamed output is a valid prefix, a
 * checkpoint is written at the last step or batch completed.
 *
 * slpi_interrupt_catch is the `slpi` command's Ctrl-C: the first SIGINT raises the flag
 * (the command then exits 130), and arms a one-second alarm in case the work in hand
 * polls nowhere; a second SIGINT, or the alarm, removes the temporary outputs
 * (core/output.c) and ends the process by SIGINT at once (a shell sees 130 either way). */
#define _XOPEN_SOURCE 700
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
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

static void die(void)
{
    slpi_output_remove_pending();
    signal(SIGINT, SIG_DFL);
    raise(SIGINT);
}

static void on_alarm(int sig)
{
    (void)sig;
    die();
}

static void on_sigint(int sig)
{
    (void)sig;
    if (atomic_exchange_explicit(&requested, 1, memory_order_relaxed)) die();
    alarm(1);
}

int slpi_interrupt_catch(void)
{
    struct sigaction old, sa;
    if (sigaction(SIGINT, NULL, &old) != 0 || old.sa_handler == SIG_IGN) return 0;   /* ignored: a background job */
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_alarm;
    if (sigaction(SIGALRM, &sa, NULL) != 0) return 0;
    sa.sa_handler = on_sigint;
    return sigaction(SIGINT, &sa, NULL) == 0;
}
