/* fuzz-batches.c — the convergence studies' batch checkpoints (core/checkpoint.c,
 * slpi_checkpoint_batches_read, what `slpi converge --resume` reads) for a fixed study of
 * two lines, 4 batches of 3 values, and a row check like the studies' own (the last value
 * must be the batch's index plus one). As in fuzz-checkpoint, the digest line is
 * recomputed for half of the inputs (first byte odd) so mutations get past it. The call
 * either accepts, touching only the rows it marks done, or refuses with SLPI_EINPUT, a
 * message, every row zero and no batch marked done. */
#include "fuzzutil.h"
#include "core/checkpoint.h"

#define NB 4
#define STRIDE 3
#define STUDY "kind strong\nlevels 0 3\n"

static const char *row_check(void *arg, int b, const double *q)
{
    (void)arg;
    return q[STRIDE - 1] != b + 1 ? "its last value is not the batch's" : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n;
    uint8_t *buf = fuzz_checkpoint_text(data, size, &n);
    double rows[NB * STRIDE];
    unsigned char done[NB] = { 0 };
    for (int i = 0; i < NB * STRIDE; i++) rows[i] = -7;
    slpi_error err = { 0, "" };
    int rc = slpi_checkpoint_batches_read(fuzz_file(buf, n), STUDY, rows, done, NB, STRIDE, row_check, NULL, &err);
    fuzz_check_error(rc, &err);
    free(buf);
    for (int b = 0; b < NB; b++) {
        if (rc != SLPI_OK && done[b]) abort();
        for (int j = 0; j < STRIDE; j++) {
            double v = rows[b * STRIDE + j];
            if (rc != SLPI_OK && v != 0) abort();              /* a refusal leaves no row behind */
            if (rc == SLPI_OK && !done[b] && v != -7) abort(); /* nor does an accepted file */
            if (rc == SLPI_OK && done[b] && j == STRIDE - 1 && v != b + 1) abort();
        }
    }
    return 0;
}
