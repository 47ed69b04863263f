/* failalloc.c — the allocation-failure shim of tests/core/t-alloc-failures.sh, preloaded
 * into `slpi` (LD_PRELOAD). It counts the calls of malloc, calloc, realloc, strdup and
 * fdopen (which allocates its FILE, and fails with ENOMEM when it cannot) made from slpi's
 * own code (the caller's object, by dladdr, is the slpi executable or a
 * libslpi), and makes call number FAILALLOC_AT return NULL; FAILALLOC_COUNT=1 prints the
 * count at exit ("failalloc: N"). Calls from other libraries (FLINT, GMP, the BLAS, the
 * C library itself) always succeed: their allocators abort on failure by design. So do
 * the calls made once exit has begun and slpi's own exit handlers have run: the shim's
 * handler, registered at slpi's first counted call (after the loader's destructor
 * handler, before slpi's own), runs after slpi's handlers and before the destructors.
 * Under `make coverage` those write gcov's counters through gcov's runtime, which is
 * linked into slpi, so its calls would otherwise be counted as slpi's. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t), *__libc_calloc(size_t, size_t), *__libc_realloc(void *, size_t);

static long count, fail_at = -1;
static int started, registered, exiting;

static void exit_begun(void)
{
    exiting = 1;
}

static int fails(void *caller)
{
    Dl_info d;
    if (exiting) return 0;
    if (!started) {
        const char *s = getenv("FAILALLOC_AT");
        fail_at = s ? atol(s) : -1;
        started = 1;
    }
    if (!dladdr(caller, &d) || !d.dli_fname || !strstr(d.dli_fname, "slpi") || strstr(d.dli_fname, "failalloc"))
        return 0;
    if (!registered) {
        registered = 1;
        atexit(exit_begun);
    }
    return ++count == fail_at;
}

void *malloc(size_t n)
{
    return fails(__builtin_return_address(0)) ? NULL : __libc_malloc(n);
}

void *calloc(size_t k, size_t n)
{
    return fails(__builtin_return_address(0)) ? NULL : __libc_calloc(k, n);
}

void *realloc(void *p, size_t n)
{
    return fails(__builtin_return_address(0)) ? NULL : __libc_realloc(p, n);
}

char *strdup(const char *s)
{
    if (fails(__builtin_return_address(0))) return NULL;
    size_t len = strlen(s) + 1;
    char *d = __libc_malloc(len);
    return d ? memcpy(d, s, len) : NULL;
}

FILE *fdopen(int fd, const char *mode)
{
    static FILE *(*next)(int, const char *);
    if (fails(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    if (!next) *(void **)&next = dlsym(RTLD_NEXT, "fdopen");
    return next(fd, mode);
}

__attribute__((destructor)) static void report(void)
{
    if (getenv("FAILALLOC_COUNT")) fprintf(stderr, "failalloc: %ld\n", count);
}
