/* t-digest.c — unit test of core/digest.h, the one digest of checkpoints, state files and
 * the audit's cache: FNV-1a 64 computed two ways.
 *   - the published test vectors of FNV-1a 64 ("", "a", "foobar");
 *   - random byte strings (NUL, CR, LF and 0x1a included), from a random starting value,
 *     against the shift-and-add form of the FNV prime written here
 *     (h * 0x100000001b3 = h + h<<1 + h<<4 + h<<5 + h<<7 + h<<8 + h<<40);
 *   - a file's digest is the digest of its bytes, whatever its length: 0, 1, and lengths
 *     about the reader's 64 KiB buffer and its multiples, written here with write(2);
 *   - a file that cannot be opened (absent, or no path) leaves the value unchanged. */
#include <unistd.h>

#include "core/digest.h"
#include "testutil.h"

static uint64_t by_shifts(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h += (h << 1) + (h << 4) + (h << 5) + (h << 7) + (h << 8) + (h << 40);
    }
    return h;
}

static void fill(unsigned char *p, size_t n)
{
    static const unsigned char special[] = { 0, '\r', '\n', 0x1a, 0xff };
    for (size_t i = 0; i < n; i++)
        p[i] = test_rand_int(8) ? (unsigned char)test_rand_int(256) : special[test_rand_int(5)];
}

/* the file's digest against its bytes', from h */
static void check_file(const unsigned char *p, size_t n, uint64_t h)
{
    char path[] = "/tmp/slpi-t-digest-XXXXXX";
    int fd = mkstemp(path);
    TEST_CHECKF(fd >= 0, "mkstemp");
    if (fd < 0) return;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, p + done, n - done);
        if (w <= 0) break;
        done += (size_t)w;
    }
    close(fd);
    TEST_CHECKF(done == n, "write %zu of %zu bytes", done, n);
    uint64_t got = slpi_fnv1a_file(h, path), want = by_shifts(h, p, n);
    TEST_CHECKF(got == want, "file of %zu bytes from %016" PRIx64 ": %016" PRIx64 ", its bytes %016" PRIx64, n, h, got,
                want);
    unlink(path);
    TEST_CHECKF(slpi_fnv1a_file(h, path) == h, "a removed file of %zu bytes changed the value", n);
}

int main(void)
{
    test_start("t-digest", 71);
    static const struct {
        const char *s;
        uint64_t h;
    } kat[] = { { "", UINT64_C(0xcbf29ce484222325) },
                { "a", UINT64_C(0xaf63dc4c8601ec8c) },
                { "foobar", UINT64_C(0x85944171f73967e8) } };
    for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
        uint64_t h = slpi_fnv1a(SLPI_FNV_INIT, kat[i].s, strlen(kat[i].s));
        TEST_CHECKF(h == kat[i].h, "\"%s\": %016" PRIx64 ", published %016" PRIx64, kat[i].s, h, kat[i].h);
    }
    enum { BUF = 1 << 16, MOST = 3 * BUF + 64 };
    unsigned char *p = malloc(MOST);
    if (!p) return 2;
    long iters = test_iters(200);
    for (long it = 0; it < iters; it++) {
        size_t n = (size_t)test_rand_int(300);
        uint64_t h = test_rand_int(2) ? SLPI_FNV_INIT : test_rand_u64();
        fill(p, n);
        TEST_CHECKF(slpi_fnv1a(h, p, n) == by_shifts(h, p, n), "%zu bytes from %016" PRIx64, n, h);
        /* continuing: the digest of a split string is the digest of the whole */
        size_t k = n ? (size_t)test_rand_int((long)n + 1) : 0;
        TEST_CHECK(slpi_fnv1a(slpi_fnv1a(h, p, k), p + k, n - k) == slpi_fnv1a(h, p, n));
    }
    size_t lens[] = { 0, 1, 2, BUF - 1, BUF, BUF + 1, 2 * BUF, 3 * BUF + 63, 0 };
    lens[8] = (size_t)test_rand_int(MOST + 1);
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        fill(p, lens[i]);
        check_file(p, lens[i], SLPI_FNV_INIT);
        check_file(p, lens[i], test_rand_u64());
    }
    uint64_t h = test_rand_u64();
    TEST_CHECK(slpi_fnv1a_file(h, NULL) == h);
    TEST_CHECK(slpi_fnv1a_file(h, "/nonexistent/slpi-t-digest") == h);
    free(p);
    TEST_END();
}
