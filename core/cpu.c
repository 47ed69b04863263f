/* cpu.c — the one CPU-feature probe (core/cpu.h): cpuid for what the CPU offers and
 * xgetbv for what the operating system saves on a context switch (a CPU with AVX-512
 * under an OS that does not enable the ZMM state must not run AVX-512 code). Every
 * kernel choice of the library reads it, so "AVX-512" has one meaning. */
#include <pthread.h>
#include <string.h>

#include "core/cpu.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>

static unsigned long long xcr0(void)
{
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

static void probe(slpi_cpu *c)
{
    unsigned a, b, cx, d, max;
    if (!__get_cpuid(0, &max, &b, &cx, &d)) return;
    memcpy(c->vendor, &b, 4);
    memcpy(c->vendor + 4, &d, 4);
    memcpy(c->vendor + 8, &cx, 4);
    c->vendor[12] = '\0';
    if (max < 1 || !__get_cpuid(1, &a, &b, &cx, &d)) return;
    const int fam = (int)((a >> 8) & 15), mod = (int)((a >> 4) & 15);
    c->family = fam == 15 ? fam + (int)((a >> 20) & 255) : fam;
    c->model = fam == 6 || fam == 15 ? mod + (int)(((a >> 16) & 15) << 4) : mod;
    const int fma = (cx >> 12) & 1, osxsave = (cx >> 27) & 1, avx = (cx >> 28) & 1;
    if (!osxsave || !avx || max < 7) return;
    const unsigned long long x = xcr0();
    unsigned b7, c7, d7;
    __cpuid_count(7, 0, a, b7, c7, d7);
    const int avx2 = (b7 >> 5) & 1;
    if ((x & 0x6) != 0x6 || !avx2 || !fma) return;
    c->tier = SLPI_CPU_AVX2;
    const unsigned v4 = 1u << 16 | 1u << 17 | 1u << 28 | 1u << 30 | 1u << 31; /* F DQ CD BW VL */
    if ((x & 0xe6) == 0xe6 && (b7 & v4) == v4) c->tier = SLPI_CPU_AVX512;
    c->amx = (d7 >> 24) & 1 && (x & 0x60000) == 0x60000;
    unsigned a1, b1, c1, d1;
    __cpuid_count(7, 1, a1, b1, c1, d1);
    c->avx512_bf16 = c->tier == SLPI_CPU_AVX512 && ((a1 >> 5) & 1);
}
#else
static void probe(slpi_cpu *c)
{
    (void)c;
}
#endif

static slpi_cpu cpu;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void probe_once(void)
{
    probe(&cpu);
}

const slpi_cpu *slpi_cpu_probe(void)
{
    pthread_once(&once, probe_once);
    return &cpu;
}

int slpi_cpu_supports(slpi_cpu_tier t)
{
    return slpi_cpu_probe()->tier >= t;
}

const char *slpi_cpu_tier_name(slpi_cpu_tier t)
{
    return t == SLPI_CPU_AVX512 ? "avx512" : t == SLPI_CPU_AVX2 ? "avx2" : "baseline";
}
