/* slpi/process.h — the process-wide controls a program or binding sets: the interrupt
 * flag and the progress mode (part of slpi.h). */
#ifndef SLPI_PUBLIC_PROCESS_H
#define SLPI_PUBLIC_PROCESS_H

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------- process */

/* Interruption (core/interrupt.c; docs/conventions.md#interrupt). Every long call polls
 * one process-wide flag (each step of a run, verify, audit run and stepper; each
 * lock-step step of a convergence study; each golden and property case; each audit
 * claim) and, once it is raised, returns SLPI_EINTR naming where it stopped, having kept
 * what it did (a streamed output is a valid prefix; a checkpoint is written at the last
 * completed step or batch). The flag stays raised (every call then stops at its first
 * poll) until slpi_interrupt_clear. request, clear and pending are async-signal-safe
 * and thread-safe (an atomic int): a binding raises it from its Ctrl-C handler or
 * another thread (libslpi-tools.so calls libslpi's: one flag in the process). */
void slpi_interrupt_request(void);
void slpi_interrupt_clear(void);
int slpi_interrupt_pending(void);

/* Progress of long work on standard error (core/progress.c): "what: done/total (pct),
 * rate, time left". The mode is process-wide: AUTO shows it when stderr is a terminal
 * and the work has run 2 s, ON always (from the start), OFF never. Progress never writes
 * anything but standard error, and never changes an output. */
typedef enum { SLPI_PROGRESS_AUTO, SLPI_PROGRESS_ON, SLPI_PROGRESS_OFF } slpi_progress_mode;
void slpi_progress_set_mode(slpi_progress_mode mode);

#ifdef __cplusplus
}
#endif
#endif
