/* core/mem.h — large arrays: the allocation policy of the arrays that grow with a system's
 * size (docs/experiments.md#setup-faults). The pages of an array of at least
 * SLPI_MEM_LARGE bytes are advised to the kernel as candidates for transparent huge pages
 * (Linux madvise MADV_HUGEPAGE, where the system's mode is `madvise` or `always`), so that
 * its first touch costs one page fault per 2 MiB instead of one per 4 KiB: all of them for
 * an uninitialised array, aligned to a huge page; the whole huge pages inside a zero one,
 * calloc's (lazily zero). Smaller arrays are malloc's and calloc's. Either kind is released with free(). Placement moves no result:
 * the arrays' bits are their computations' (tests/core/t-mem.c holds the policy). */
#ifndef SLPI_CORE_MEM_H
#define SLPI_CORE_MEM_H

#include <stddef.h>

/* The size from which an array is aligned and advised: one huge page of x86-64 and
 * AArch64 (4 KiB base pages). */
#define SLPI_MEM_LARGE ((size_t)2 << 20)

/* n elements of size bytes each, uninitialised (slpi_mem_alloc) or zero (slpi_mem_zalloc);
 * NULL when out of memory or when n * size overflows. Release with free(). */
void *slpi_mem_alloc(size_t n, size_t size);
void *slpi_mem_zalloc(size_t n, size_t size);

#endif
