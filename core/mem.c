/* core/mem.c — large arrays advised for huge pages (core/mem.h). madvise and MADV_HUGEPAGE
 * are Linux's, outside POSIX: this file asks for them (_DEFAULT_SOURCE); where they are
 * missing, the arrays are only allocated. */
#define _DEFAULT_SOURCE
#include "core/mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Advise the whole huge pages of [p, p + bytes) (advice: refused, as without THP, is
 * harmless). */
static void mem_advise(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    uintptr_t a = ((uintptr_t)p + SLPI_MEM_LARGE - 1) / SLPI_MEM_LARGE * SLPI_MEM_LARGE;
    uintptr_t b = ((uintptr_t)p + bytes) / SLPI_MEM_LARGE * SLPI_MEM_LARGE;
    if (p && b > a) (void)madvise((void *)a, b - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

/* Uninitialised: aligned to a huge page and of whole huge pages (aligned_alloc wants a
 * multiple of the alignment), so that every page of it can be huge. */
void *slpi_mem_alloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    size_t bytes = n * size;
    if (bytes < SLPI_MEM_LARGE) return malloc(bytes ? bytes : 1);
    if (bytes > SIZE_MAX - (SLPI_MEM_LARGE - 1)) return NULL;
    size_t whole = (bytes + SLPI_MEM_LARGE - 1) / SLPI_MEM_LARGE * SLPI_MEM_LARGE;
    void *p = aligned_alloc(SLPI_MEM_LARGE, whole);
    mem_advise(p, whole);
    return p;
}

/* Zero: calloc's, whose fresh pages read as zero untouched, so that a workspace the set-up
 * does not write costs the set-up nothing; its first and last partial huge pages stay
 * small. */
void *slpi_mem_zalloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    size_t bytes = n * size;
    void *p = calloc(1, bytes ? bytes : 1);
    if (bytes >= SLPI_MEM_LARGE) mem_advise(p, bytes);
    return p;
}
