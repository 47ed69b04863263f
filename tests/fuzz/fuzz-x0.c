/* fuzz-x0.c — initial-state files (x0_file, slpi_problem_explicit_x0 in core/problem.c)
 * for a 15-double state (heavy top, SVI form). */
#include <math.h>

#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static slpi_problem p;
    static int ready;
    slpi_error err = { 0, "" };
    if (!ready) {
        slpi_problem_init(&p, SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_SVI);
        if (slpi_problem_set(&p, "form", "svi", &err) != SLPI_OK) abort();
        ready = 1;
    }
    snprintf(p.x0_file, sizeof p.x0_file, "%s", fuzz_file(data, size));
    double x[SLPI_MAX_X0];
    int dim = slpi_problem_state_dim(&p);
    int rc = slpi_problem_explicit_x0(&p, x, &err);
    if (rc < 0) fuzz_check_error(SLPI_EINPUT, &err);
    if (rc == 1)
        for (int i = 0; i < dim; i++)
            if (!isfinite(x[i])) abort();
    return 0;
}
