/* fuzz-golden.c — golden-case files (slpi_golden_read, oracle/golden.c): an accepted
 * file must write (slpi_golden_write) and read back, with the same problem, initial
 * state, increments and checkpoint count. */
#include "core/problem-struct.h"
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (memmem(data, size, "_file", 5)) return 0; /* file names are other readers' */
    slpi_golden g, h;
    slpi_error err = { 0, "" };
    int rc = slpi_golden_read(fuzz_file(data, size), &g, &err);
    fuzz_check_error(rc, &err);
    if (rc != SLPI_OK) return 0;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    slpi_golden_write(m, &g);
    fclose(m);
    rc = slpi_golden_read(fuzz_file((const uint8_t *)buf, len), &h, &err);
    if (rc != SLPI_OK) {
        fprintf(stderr, "round trip: the written golden file does not read: %s\n", err.msg);
        abort();
    }
    size_t steps = (size_t)g.problem->grid.steps;
    if (h.dim != g.dim || h.M != g.M || h.ncheck != g.ncheck || h.problem->grid.steps != g.problem->grid.steps ||
        memcmp(h.x0, g.x0, (size_t)g.dim * sizeof(double)) != 0 ||
        (g.M > 0 && memcmp(h.dW, g.dW, steps * (size_t)g.M * sizeof(double)) != 0)) {
        fprintf(stderr, "round trip changed the golden case\n");
        abort();
    }
    slpi_golden_clear(&h);
    slpi_golden_clear(&g);
    free(buf);
    return 0;
}
