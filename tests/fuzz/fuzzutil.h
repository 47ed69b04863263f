/* fuzzutil.h — shared by the fuzz harnesses (tests/fuzz/fuzz-*.c): every reader of
 * external input takes a file name, so each input is written to an in-memory file
 * (memfd) and handed over as /proc/self/fd/N. Harnesses build two ways: with clang's
 * libFuzzer (`make fuzz`) and with tests/fuzz/replay.c's main, which replays a corpus
 * (`make fuzz-smoke`, part of `make check`). A harness aborts only on a broken
 * contract (a reader that fails without a message, or a round trip that changes a
 * value); crashes, leaks and undefined behaviour are the sanitizers' to report.
 * Built with -D_GNU_SOURCE (memfd_create, memmem). */
#ifndef SLPI_FUZZUTIL_H
#define SLPI_FUZZUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "slpi-tools.h"
#include "core/checkpoint.h"
#include "core/digest.h"
#include "../ckptutil.h" /* -Itests/fuzz only */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a file: a name valid until the next call. */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char name[64];
    if (fd < 0) {
        fd = memfd_create("slpi-fuzz", 0);
        if (fd < 0) abort();
        snprintf(name, sizeof name, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size)) abort();
    return name;
}

/* A reader's failure must carry the input-error code and a message. */
static inline void fuzz_check_error(int rc, const slpi_error *err)
{
    if (rc != SLPI_OK && (rc != SLPI_EINPUT || err->code != SLPI_EINPUT || err->msg[0] == '\0')) {
        fprintf(stderr, "reader failed with rc %d, code %d, message '%s'\n", rc, err->code, err->msg);
        abort();
    }
}

/* A checkpoint's text for its reader (fuzz-checkpoint, fuzz-batches): a copy of the input
 * (free it) that, when the first byte is odd, has its container's digests renewed
 * (tests/ckptutil.h: each section's count and digest, and the end line); otherwise the
 * digests would stop almost every mutation at the reader's first checks. */
static inline uint8_t *fuzz_checkpoint_text(const uint8_t *data, size_t size, size_t *len)
{
    if (size > 0 && (data[0] & 1) && !memchr(data, '\0', size))
        return (uint8_t *)ckpt_reseal((const char *)data, size, len);
    uint8_t *buf = malloc(size + 1);
    if (!buf) abort();
    memcpy(buf, data, size);
    *len = size;
    return buf;
}
#endif
