/* noise-dump.c — stand-alone driver for the determinism test (tests/toolchain/t-noise-builds.sh):
 * compiled with core/noise*.c (noise.c, noise-avx.c, noise-levels.c; and core/error.c) alone under several compilers and optimisation levels, it
 * prints the same text as `slpi noise --format bits` (per step the M increments as
 * 16-digit hex binary64 bit patterns, tab-separated), or with `words` the normals of a
 * fixed set of Philox words that reaches every binade of core/noise-table.h.
 *   noise-dump bits SEED PATH M H REFINE STEPS
 *   noise-dump words                                                              */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "noise.h"
#include "slpi/noise.h"

static void put_bits(double x, char end)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    printf("%016" PRIx64 "%c", b, end);
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "words")) {
        uint64_t x = 0;
        for (int s = 0; s <= 52; s++) { /* p's binade follows the shift s */
            for (int i = 0; i < 64; i++) {
                uint64_t z = (x += 0x9e3779b97f4a7c15ULL); /* splitmix64 */
                z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
                z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
                z ^= z >> 31;
                uint64_t m = ((z >> 12) >> s) << 11;
                put_bits(slpi_noise_word_normal(m | (z & (UINT64_C(1) << 63)) | (z & 0x7ff)), '\n');
            }
        }
        return 0;
    }
    if (argc != 8 || strcmp(argv[1], "bits")) {
        fprintf(stderr, "usage: noise-dump bits SEED PATH M H REFINE STEPS | noise-dump words\n");
        return 2;
    }
    uint64_t seed = strtoull(argv[2], NULL, 0), path = strtoull(argv[3], NULL, 0);
    int M = atoi(argv[4]), refine = atoi(argv[6]);
    double h = strtod(argv[5], NULL);
    size_t steps = (size_t)strtoull(argv[7], NULL, 0);
    double *v = malloc((size_t)M * steps * sizeof *v);
    for (int k = 0; k < M; k++) {
        slpi_noise_increments(seed, path, (uint32_t)k, h, refine, 0, steps, v + (size_t)k * steps, NULL);
    }
    for (size_t i = 0; i < steps; i++) {
        for (int k = 0; k < M; k++) {
            put_bits(v[(size_t)k * steps + i], k + 1 < M ? '\t' : '\n');
        }
    }
    free(v);
    return 0;
}
