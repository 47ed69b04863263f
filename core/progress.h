/* core/progress.h — the progress line of long work on standard error (core/progress.c;
 * its mode: slpi_progress_set_mode, slpi/process.h). begin returns NULL when nothing will
 * be shown, and every other call accepts NULL, so a caller needs no test of its own.
 * add/set may be called from several threads. A declared interface of core, not
 * installed. */
#ifndef SLPI_CORE_PROGRESS_H
#define SLPI_CORE_PROGRESS_H

typedef struct slpi_progress slpi_progress;

slpi_progress *slpi_progress_begin(const char *what, long total);
/* n more units done; done units in total. NULL: pg (no-op). Thread: safe (one line
 * advanced from several threads). */
void slpi_progress_add(slpi_progress *pg, long n);
void slpi_progress_set(slpi_progress *pg, long done);

void slpi_progress_end(slpi_progress *pg); /* erase the line, free. NULL: pg (no-op) */
/* A line that stays (a finished command's cost: "verify: 12 CPU s, ..."), on standard
 * error where progress is shown (ON, or AUTO on a terminal), else nothing: like the
 * progress line, never in an output or a log. */
void slpi_progress_note(const char *fmt, ...);
/* Movement inside the current unit (a long certified step): the line is redrawn with
 * this text after it ("; in step 4: 120 iterations at 256 bits"), at most ten times a
 * second; the text is formatted only when the line is redrawn. */
void slpi_progress_within(slpi_progress *pg, const char *fmt, ...); /* NULL: pg (no-op) */
/* This thread's current line, which slpi_progress_tick draws on: slpi_run sets it around
 * its set-up and its steps, so that long work deep inside a path (a certified su(N)
 * path's tables at N = 256 take minutes before the first step) moves the line without
 * knowing its caller. NULL: pg (no current line: ticks do nothing). */
void slpi_progress_current(slpi_progress *pg);
/* slpi_progress_within on this thread's current line (a no-op without one). */
void slpi_progress_tick(const char *fmt, ...);

#endif
