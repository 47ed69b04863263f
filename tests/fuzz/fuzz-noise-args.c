/* fuzz-noise-args.c — the arguments of the public noise API (slpi_noise_increments, its
 * rules in slpi.h; slpi_noise_rows): h from 8 raw bytes (NaN, infinities, subnormals,
 * negatives), refine from a signed byte, first and count from raw words. The call either
 * fills exactly `count` finite values or refuses with SLPI_EINPUT, a message, and the
 * output untouched. Valid requests of more than 2^16 fine draws are shrunk to count 0
 * (their cost is the request's, not a bug), so every input runs in microseconds.
 * The pointers too: a 35th byte asks for the call again with out NULL (refused exactly
 * when count > 0, unless the call was refused anyway) and with err NULL (the same result).
 * Layout: h[8] refine[1] flags[1] first[8] seed[8] component[4] path[4] pointers[1]. */
#include <math.h>

#include "fuzzutil.h"

#define OUT 64

static uint64_t word(const uint8_t *p, int n)
{
    uint64_t w = 0;
    for (int i = 0; i < n; i++) w |= (uint64_t)p[i] << (8 * i);
    return w;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t in[35] = { 0 };
    memcpy(in, data, size < sizeof in ? size : sizeof in);
    double h;
    uint64_t hb = word(in, 8);
    memcpy(&h, &hb, sizeof h);
    int refine = (int8_t)in[8], flags = in[9];
    uint64_t first = word(in + 10, 8), seed = word(in + 18, 8);
    uint32_t component = (uint32_t)word(in + 26, 4), path = (uint32_t)word(in + 30, 4);
    if (!(flags & 0x40)) first &= 0xffff; /* mostly valid indices */
    size_t count = flags & 0x80 ? (size_t)-1 - (flags & 0x3f) : (size_t)(flags & 0x3f);
    if (refine >= 0 && refine <= SLPI_NOISE_MAX_REFINE && count <= OUT && ((uint64_t)count << refine) > (1u << 16))
        count = 0;
    double out[OUT + 1];
    for (int i = 0; i <= OUT; i++) out[i] = 7;
    slpi_error err = { 0, "" };
    int rc = slpi_noise_increments(seed, path, component, h, refine, first, count, out, &err);
    fuzz_check_error(rc, &err);
    if (rc == SLPI_OK && count > OUT) abort(); /* a count that large must be refused */
    size_t filled = rc == SLPI_OK ? count : 0;
    for (size_t i = 0; i < filled; i++)
        if (!isfinite(out[i])) abort();
    for (size_t i = filled; i <= OUT; i++)
        if (out[i] != 7) abort(); /* untouched beyond what it filled */
    if (in[34] & 1) {             /* out NULL */
        slpi_error e2 = { 0, "" };
        int rc2 = slpi_noise_increments(seed, path, component, h, refine, first, count, NULL, &e2);
        fuzz_check_error(rc2, &e2);
        if (rc2 != (count > 0 ? SLPI_EINPUT : rc)) abort();
    }
    if (in[34] & 2) { /* err NULL: the same answer */
        double again[OUT + 1];
        for (int i = 0; i <= OUT; i++) again[i] = 7;
        int rc3 = slpi_noise_increments(seed, path, component, h, refine, first, count, again, NULL);
        if (rc3 != rc || memcmp(again, out, sizeof again) != 0) abort();
    }
    /* the rows form (at most 4 steps of M = 1 or 2 components): refused exactly when the
     * increments are */
    if (count <= 4) {
        double rows[4 * 2];
        long clipped = slpi_noise_rows(rows, seed, path, 1 + (in[33] & 1), h, refine, first, count, 1.0);
        if ((clipped < 0) != (rc != SLPI_OK)) abort();
    }
    return 0;
}
