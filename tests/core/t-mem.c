/* t-mem.c — core/mem.c, the large arrays' allocation: small arrays are malloc's and
 * calloc's; a large uninitialised one is aligned to a huge page and advised, every page of
 * it (Linux: its mapping's VmFlags in /proc/self/smaps carry `hg`, MADV_HUGEPAGE); a large
 * zero one is zero even where the allocator hands back memory it had written, and its whole
 * huge pages are advised; a size that overflows is refused. Written end to end, so that a
 * short allocation is an error under `make asan` and valgrind. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "core/mem.h"

/* 1 when the mapping holding p is advised for huge pages, 0 when not, -1 when
 * /proc/self/smaps cannot say (not Linux). */
static int advised(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f) return -1;
    char line[512];
    int in = 0, hg = 0, seen = 0;
    uintptr_t a = (uintptr_t)p;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            in = a >= lo && a < hi;
            continue;
        }
        if (in && !strncmp(line, "VmFlags:", 8)) {
            seen = 1;
            hg = strstr(line, " hg") != NULL;
        }
    }
    fclose(f);
    return seen ? hg : -1;
}

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

static void check_small(void)
{
    size_t n = SLPI_MEM_LARGE / 2;
    unsigned char *p = slpi_mem_alloc(n, 1), *z = slpi_mem_zalloc(n / 8, 8), *e = slpi_mem_alloc(0, 8);
    TEST_CHECK(p && z && e);
    if (p) memset(p, 1, n);
    TEST_CHECKF(z && all_zero(z, n), "a small zero array is not zero");
    free(p);
    free(z);
    free(e);
    e = slpi_mem_zalloc(0, 0);
    TEST_CHECKF(e != NULL, "an empty zero array: NULL");
    free(e);
}

/* A large array of `bytes`: aligned, advised, written end to end. */
static void check_large(size_t bytes)
{
    unsigned char *p = slpi_mem_alloc(bytes / 8, 8);
    TEST_CHECKF(p != NULL, "%zu bytes: NULL", bytes);
    if (!p) return;
    TEST_CHECKF((uintptr_t)p % SLPI_MEM_LARGE == 0, "%zu bytes at %p: not aligned to a huge page", bytes, (void *)p);
    memset(p, 0x5a, bytes / 8 * 8);
    int a = advised(p);
    TEST_CHECKF(a != 0, "%zu bytes: not advised for huge pages", bytes);
    printf("  %zu bytes: aligned to 2 MiB, %s\n", bytes, a < 0 ? "advice unseen (no /proc/self/smaps)" : "advised");
    free(p);
}

/* A large zero array after the allocator held written arrays of its size: zero, and its
 * whole huge pages advised. */
static void check_zero(size_t bytes)
{
    for (int k = 0; k < 3; k++) {
        unsigned char *w = malloc(bytes);
        TEST_CHECK(w != NULL);
        if (w) memset(w, 0xa5 + k, bytes);
        free(w);
    }
    unsigned char *z = slpi_mem_zalloc(bytes, 1);
    TEST_CHECKF(z && all_zero(z, bytes), "%zu bytes after written ones: not zero", bytes);
    if (!z) return;
    uintptr_t inner = ((uintptr_t)z + SLPI_MEM_LARGE - 1) / SLPI_MEM_LARGE * SLPI_MEM_LARGE;
    if (inner + SLPI_MEM_LARGE <= (uintptr_t)z + bytes)
        TEST_CHECKF(advised((void *)inner) != 0, "%zu zero bytes: its whole huge pages not advised", bytes);
    memset(z, 1, bytes);
    free(z);
}

int main(void)
{
    test_start("t-mem", 20261203);
    check_small();
    check_large(SLPI_MEM_LARGE);
    check_large(SLPI_MEM_LARGE + 8);
    check_large(16 * SLPI_MEM_LARGE + 24);
    check_zero(3 * SLPI_MEM_LARGE + 40);
    check_zero(9 * SLPI_MEM_LARGE);
    /* n * size wraps to 4 bytes, and to nearly SIZE_MAX */
    const size_t wrap = SIZE_MAX / 4 + 2;
    TEST_CHECKF(slpi_mem_alloc(wrap, 4) == NULL, "an overflowing size: not refused");
    TEST_CHECKF(slpi_mem_zalloc(wrap, 4) == NULL, "an overflowing zero size: not refused");
    TEST_CHECKF(slpi_mem_alloc(SIZE_MAX / 2, 4) == NULL, "an overflowing size: not refused");
    TEST_CHECKF(slpi_mem_zalloc(SIZE_MAX / 2, 4) == NULL, "an overflowing zero size: not refused");
    TEST_END();
}
