/* progress.c — progress of long work on standard error: "what: done/total (pct), rate,
 * time left". Shown when standard error is a terminal and the work has run for 1.5 s (so
 * that a line is up within 2 s of a command's start, a certified su(256) set-up
 * included: 2.06 s with a 2 s wait, at a load of 13), or
 * always when forced (`--progress`); never with `--quiet`. The line is redrawn at most
 * ten times a second and erased at the end, so nothing of it is left in a log and no
 * output file or stream other than standard error is touched. Updates may come from
 * several threads (done counts are atomic; one thread draws at a time). Inside a long
 * unit (a certified step of minutes), slpi_progress_within redraws the line with what
 * moves inside it, so the line never stands still while work is done; work that does not
 * know its caller's line (a certified path's set-up) ticks this thread's current line
 * (slpi_progress_current, slpi_progress_tick). */
#include "slpi/process.h"
#include "core/progress.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct slpi_progress {
    char what[48];
    char within[96]; /* slpi_progress_within's text, or "" */
    long total;
    double start;
    atomic_long done;
    atomic_llong next_draw_ns; /* monotonic time of the next redraw */
    atomic_flag drawing;
    int drawn; /* a line is on the terminal */
};

static atomic_int progress_mode = SLPI_PROGRESS_AUTO;
static _Thread_local slpi_progress *current; /* slpi_progress_tick's line on this thread */

void slpi_progress_set_mode(slpi_progress_mode mode)
{
    atomic_store(&progress_mode, (int)mode);
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Whether progress is shown: ON, or AUTO with standard error a terminal. */
static int shown(void)
{
    int mode = atomic_load(&progress_mode);
    return mode == SLPI_PROGRESS_ON || (mode == SLPI_PROGRESS_AUTO && isatty(2));
}

void slpi_progress_note(const char *fmt, ...)
{
    if (!shown()) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fflush(stderr);
}

slpi_progress *slpi_progress_begin(const char *what, long total)
{
    if (total <= 0 || !shown()) return NULL;
    slpi_progress *pg = calloc(1, sizeof *pg);
    if (!pg) return NULL; /* progress is never worth failing the work for */
    snprintf(pg->what, sizeof pg->what, "%s", what);
    pg->total = total;
    long long t = now_ns();
    pg->start = (double)t * 1e-9;
    atomic_init(&pg->done, 0);
    atomic_init(&pg->next_draw_ns, atomic_load(&progress_mode) == SLPI_PROGRESS_ON ? t : t + 1500000000LL);
    atomic_flag_clear(&pg->drawing);
    return pg;
}

static void draw(slpi_progress *pg, long done, double now)
{
    double el = now - pg->start, rate = el > 0 ? (double)done / el : 0.0;
    char left[32] = "";
    if (rate > 0 && done < pg->total) {
        double s = (double)(pg->total - done) / rate;
        if (s < 120)
            snprintf(left, sizeof left, ", %.0f s left", s);
        else if (s < 7200)
            snprintf(left, sizeof left, ", %.1f min left", s / 60);
        else
            snprintf(left, sizeof left, ", %.1f h left", s / 3600);
    }
    fprintf(stderr, "\r%s: %ld/%ld (%.0f%%), %.3g/s, %.0f s%s%s%s\033[K", pg->what, done, pg->total,
            100.0 * (double)done / (double)pg->total, rate, el, left, pg->within[0] ? "; " : "", pg->within);
    fflush(stderr);
    pg->drawn = 1;
}

/* The drawing turn when a redraw is due (then 1: the caller draws and clears the flag). */
static int draw_turn(slpi_progress *pg, long long t)
{
    if (t < atomic_load(&pg->next_draw_ns) || atomic_flag_test_and_set(&pg->drawing)) return 0;
    atomic_store(&pg->next_draw_ns, t + 100000000LL);
    return 1;
}

void slpi_progress_add(slpi_progress *pg, long n)
{
    if (!pg) return;
    long done = atomic_fetch_add(&pg->done, n) + n;
    long long t = now_ns();
    if (!draw_turn(pg, t)) return;
    pg->within[0] = '\0'; /* a unit is done: what was inside it is over */
    draw(pg, done, (double)t * 1e-9);
    atomic_flag_clear(&pg->drawing);
}

static void within(slpi_progress *pg, const char *fmt, va_list ap)
{
    if (!pg) return;
    long long t = now_ns();
    if (!draw_turn(pg, t)) return;
    vsnprintf(pg->within, sizeof pg->within, fmt, ap);
    draw(pg, atomic_load(&pg->done), (double)t * 1e-9);
    atomic_flag_clear(&pg->drawing);
}

void slpi_progress_within(slpi_progress *pg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    within(pg, fmt, ap);
    va_end(ap);
}

void slpi_progress_current(slpi_progress *pg)
{
    current = pg;
}

void slpi_progress_tick(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    within(current, fmt, ap);
    va_end(ap);
}

void slpi_progress_set(slpi_progress *pg, long done)
{
    if (!pg) return;
    slpi_progress_add(pg, done - atomic_load(&pg->done));
}

void slpi_progress_end(slpi_progress *pg)
{
    if (!pg) return;
    if (pg->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    free(pg);
}
