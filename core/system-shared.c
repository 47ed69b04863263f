/* system-shared.c — what several system descriptors share (core/system.h): the names of
 * an su(N) state, the value names of two keys. A leaf: the descriptors call it, it calls
 * none of them. */
#include <stddef.h>
#include <stdio.h>

#include "core/system.h"
#include "core/problem-key-table.h"

const char *const slpi_key_bool[] = { "0", "1", NULL };
const char *const slpi_key_none_quad[] = { "none", "quad", NULL };

void slpi_system_sun_name(int N, int i, char *buf, size_t n)
{
    if (i < N) {
        snprintf(buf, n, "ImX_%d_%d", i, i);
        return;
    }
    int k = (i - N) / 2, a = 0;
    while (k >= N - 1 - a) {
        k -= N - 1 - a;
        a++;
    }
    snprintf(buf, n, "%sX_%d_%d", (i - N) % 2 ? "Im" : "Re", a, a + 1 + k);
}
