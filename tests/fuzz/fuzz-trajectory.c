/* fuzz-trajectory.c — the trajectory reader (core/trajectory.c), as `slpi verify` reads
 * external trajectories: every accepted cell must be finite and radii non-negative. */
#include <math.h>

#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    slpi_traj t;
    slpi_error err = { 0, "" };
    int rc = slpi_traj_read(fuzz_file(data, size), &t, &err);
    fuzz_check_error(rc, &err);
    if (rc == SLPI_OK) {
        size_t cells = (size_t)t.nrows * (size_t)(t.ncols + 1);
        for (size_t i = 0; i < cells; i++)
            if (!isfinite(t.mid[i]) || !(t.rad[i] >= 0)) abort();
        for (int i = 0; i < t.ncols; i++) (void)slpi_traj_column(&t, t.col[i]);
        (void)slpi_traj_header(&t, "system");
        slpi_traj_free(&t);
    }
    return 0;
}
