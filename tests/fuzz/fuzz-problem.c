/* fuzz-problem.c — problem spec files (slpi_problem_load, core/problem-keys.c) as `slpi run
 * --config` reads them, then finish/validate and a round trip: a problem that loads
 * and validates is written (slpi_problem_write), read back, and must write the same
 * text. Inputs naming files (x0_file, noise_file) are only parsed, never opened: the
 * file readers have their own harnesses. */
#include "core/problem-struct.h"
#include "fuzzutil.h"

static char *write_text(const slpi_problem *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    slpi_problem_write(p, m, "");
    fclose(m);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (memmem(data, size, "_file", 5)) return 0;
    slpi_problem p;
    slpi_error err = { 0, "" };
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    int rc = slpi_problem_load(&p, fuzz_file(data, size), &err);
    fuzz_check_error(rc, &err);
    if (rc == SLPI_OK) rc = slpi_problem_finish(&p, &err);
    fuzz_check_error(rc, &err);
    if (rc != SLPI_OK) return 0;
    if (slpi_problem_state_dim(&p) <= 0 || slpi_problem_noise_count(&p) < 0) abort();
    char *a = write_text(&p);
    slpi_problem q;
    slpi_problem_init(&q, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    rc = slpi_problem_load(&q, fuzz_file((const uint8_t *)a, strlen(a)), &err);
    if (rc == SLPI_OK) rc = slpi_problem_finish(&q, &err);
    if (rc != SLPI_OK) {
        fprintf(stderr, "round trip: the written problem does not load: %s\n%s", err.msg, a);
        abort();
    }
    char *b = write_text(&q);
    if (strcmp(a, b) != 0) {
        fprintf(stderr, "round trip changed the problem:\n%s---\n%s", a, b);
        abort();
    }
    free(a);
    free(b);
    return 0;
}
