/* core/digest.c — FNV-1a 64 (core/digest.h). */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "core/digest.h"

uint64_t slpi_fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

uint64_t slpi_fnv1a_file(uint64_t h, const char *path)
{
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) return h;
    unsigned char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) h = slpi_fnv1a(h, buf, n);
    fclose(f);
    return h;
}
