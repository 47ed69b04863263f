/* fuzz-noise.c — the noise-file reader (core/noise-file.c, docs/noise.md#contract, docs/design.md#formats). */
#include "fuzzutil.h"
#include "core/noise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    slpi_noise_header hd;
    double *dw = NULL;
    slpi_error err = { 0, "" };
    int rc = slpi_noise_file_read(fuzz_file(data, size), &hd, &dw, &err);
    fuzz_check_error(rc, &err);
    free(dw);
    return 0;
}
