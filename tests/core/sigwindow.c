/* sigwindow.c — the signal-window shim of tests/core/t-lock-signals.sh, preloaded into
 * `slpi` (LD_PRELOAD). With SIGWINDOW=take it raises SIGWINDOW_SIG (a signal number) from
 * inside the flock(2) of a writer's lock file (".NAME.slpi-lock"), between the file's
 * creation and its naming as pending; with SIGWINDOW=release, from inside the unlink(2)
 * of that file, between the unlink and its forgetting; with SIGWINDOW=temp, from inside the
 * mkstemp(3) of a temporary output (".NAME.slpi-PID-XXXXXX"), after the file exists and
 * before it is named pending. Once per process. The signal lands where a signal from
 * outside could land only by chance, in a window of a few calls. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fired;

static int is_lock(const char *path)
{
    size_t n = strlen(path), k = strlen(".slpi-lock");
    return n > k && strcmp(path + n - k, ".slpi-lock") == 0;
}

static void fire(const char *when)
{
    const char *w = getenv("SIGWINDOW"), *s = getenv("SIGWINDOW_SIG");
    if (fired || !w || strcmp(w, when) != 0) return;
    fired = 1;
    fprintf(stderr, "sigwindow: signal %d raised in the %s window\n", s ? atoi(s) : SIGTERM, when);
    raise(s ? atoi(s) : SIGTERM);
}

int flock(int fd, int op)
{
    static int (*next)(int, int);
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n > 0) {
        path[n] = '\0';
        if (is_lock(path)) fire("take");
    }
    if (!next) *(void **)&next = dlsym(RTLD_NEXT, "flock");
    return next(fd, op);
}

int mkstemp(char *template)
{
    static int (*next)(char *);
    if (!next) *(void **)&next = dlsym(RTLD_NEXT, "mkstemp");
    int fd = next(template);
    if (fd >= 0 && strstr(template, ".slpi-")) fire("temp");
    return fd;
}

int unlink(const char *path)
{
    static int (*next)(const char *);
    if (!next) *(void **)&next = dlsym(RTLD_NEXT, "unlink");
    int rc = next(path);
    if (is_lock(path)) fire("release");
    return rc;
}
