/* t-check.c — the defensive-check convention of core/check.h
 * (docs/conventions.md#defensive-checks), read two ways: as a release build compiles it
 * (SLPI_ALWAYS(X) and SLPI_NEVER(X) are (X), evaluated once, so the code beside them
 * handles the impossible case; SLPI_ASSERT is nothing) and as a debug or sanitizer build
 * does (SLPI_DEBUG: a broken check stops the program with SIGABRT and prints
 * "file:line: defensive check failed: NEVER(...)" on stderr, a holding one passes its
 * value through). The debug reading runs in child processes. */
#undef SLPI_DEBUG
#include "core/check.h"
#include "slpi.h"
#include "testutil.h"

#include <signal.h>
#include <sys/wait.h>

static int evals;
static int count(int v)
{
    evals++;
    return v;
}

/* the release reading */
static int release_never(int v)
{
    return SLPI_NEVER(count(v)) ? 1 : 0;
}
static int release_always(int v)
{
    return SLPI_ALWAYS(count(v)) ? 1 : 0;
}
static void release_assert(int v)
{
    (void)v;
    SLPI_ASSERT(count(v));
}

/* the debug reading: the same header again with SLPI_DEBUG */
#undef SLPI_CORE_CHECK_H
#undef SLPI_ALWAYS
#undef SLPI_NEVER
#undef SLPI_ASSERT
#define SLPI_DEBUG 1
#include "core/check.h"

static int debug_never(int v)
{
    return SLPI_NEVER(count(v)) ? 1 : 0;
}
static int debug_always(int v)
{
    return SLPI_ALWAYS(count(v)) ? 1 : 0;
}
static void debug_assert(int v)
{
    SLPI_ASSERT(count(v));
}

/* Run fn(v) in a child; *sig = the signal that ended it (0: exited), err = its stderr. */
static int child(int (*fn)(int), void (*vfn)(int), int v, char *err, size_t n)
{
    int fd[2];
    if (pipe(fd) != 0) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        int r = fn ? fn(v) : (vfn(v), 0);
        _exit(r == 1 ? 10 : 11);
    }
    close(fd[1]);
    size_t got = 0;
    ssize_t k;
    while (got + 1 < n && (k = read(fd[0], err + got, n - 1 - got)) > 0) got += (size_t)k;
    err[got] = 0;
    close(fd[0]);
    int st;
    waitpid(pid, &st, 0);
    return WIFSIGNALED(st) ? -WTERMSIG(st) : WEXITSTATUS(st);
}

int main(void)
{
    test_start("t-check", 1);
    /* release: the value, evaluated once; ASSERT evaluates nothing */
    for (int v = 0; v <= 1; v++) {
        evals = 0;
        TEST_CHECKF(release_never(v) == v && evals == 1, "release NEVER(%d): %d evaluations", v, evals);
        evals = 0;
        TEST_CHECKF(release_always(v) == v && evals == 1, "release ALWAYS(%d): %d evaluations", v, evals);
        evals = 0;
        release_assert(v);
        TEST_CHECKF(evals == 0, "release ASSERT evaluated its condition %d times", evals);
    }
    /* debug: holding checks pass their value through, broken ones abort with file:line */
    char err[512];
    int r = child(debug_never, NULL, 0, err, sizeof err);
    TEST_CHECKF(r == 11 && err[0] == 0, "debug NEVER(0): status %d, stderr '%s'", r, err);
    r = child(debug_always, NULL, 1, err, sizeof err);
    TEST_CHECKF(r == 10 && err[0] == 0, "debug ALWAYS(1): status %d, stderr '%s'", r, err);
    r = child(NULL, debug_assert, 1, err, sizeof err);
    TEST_CHECKF(r == 11 && err[0] == 0, "debug ASSERT(1): status %d, stderr '%s'", r, err);
    static const char *const what[3] = { "NEVER(count(v))", "ALWAYS(count(v))", "ASSERT(count(v))" };
    for (int i = 0; i < 3; i++) {
        r = i == 0   ? child(debug_never, NULL, 1, err, sizeof err)
            : i == 1 ? child(debug_always, NULL, 0, err, sizeof err)
                     : child(NULL, debug_assert, 0, err, sizeof err);
        TEST_CHECKF(r == -SIGABRT, "debug %s broken: status %d (want SIGABRT)", what[i], r);
        TEST_CHECKF(strstr(err, "t-check.c:") && strstr(err, "defensive check failed: ") && strstr(err, what[i]),
                    "debug %s broken: stderr '%s'", what[i], err);
    }
    TEST_END();
}
