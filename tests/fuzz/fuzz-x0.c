/* fuzz-x0.c — initial-state files (x0_file, slpi_problem_explicit_x0 in core/initial-state.c)
 * for a 15-double state (heavy top, SVI form); an accepted state must lie on the
 * manifold (|Gamma| = 1, R^T R = I). */
#include <math.h>

#include "core/problem-struct.h"
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
    snprintf(p.sys.x0_file, sizeof p.sys.x0_file, "%s", fuzz_file(data, size));
    double x[SLPI_MAX_X0];
    int dim = slpi_problem_state_dim(&p);
    int rc = slpi_problem_explicit_x0(&p, x, &err);
    if (rc < 0) fuzz_check_error(SLPI_EINPUT, &err);
    if (rc == 1) {
        for (int i = 0; i < dim; i++)
            if (!isfinite(x[i])) abort();
        /* an accepted state is on the manifold: |Gamma| = 1, R a rotation */
        const double *g = x + 3, *R = x + 6;
        if (fabs(sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) - 1) > SLPI_MANIFOLD_TOL) abort();
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                if (fabs(R[i] * R[j] + R[3 + i] * R[3 + j] + R[6 + i] * R[6 + j] - (i == j)) > SLPI_MANIFOLD_TOL)
                    abort();
    }
    return 0;
}
