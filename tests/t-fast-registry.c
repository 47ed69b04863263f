/* t-fast-registry.c — the double path agrees with the applicability matrix of docs/systems.md#applicability
 * (core's slpi_registry_pair): with the papers' defaults (slpi_problem_init), every pair
 * marked P or E is created and takes 20 steps without failure, and every N/A pair is
 * rejected with SLPI_EINPUT and a message. Systems of this module: rigid body, heavy
 * top, Manakov, point vortices (rkmk-le with each system's default noise: consistent
 * for every noise model, slpi_problem_le_consistent). */
#include "fastutil.h"

int main(void)
{
    static const slpi_system_id sys[] = {SLPI_SYS_RIGID_BODY, SLPI_SYS_HEAVY_TOP,
                                         SLPI_SYS_MANAKOV, SLPI_SYS_POINT_VORTICES};
    test_start("t-fast-registry", 1);
    for (size_t i = 0; i < sizeof sys / sizeof sys[0]; i++)
        for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
            const char *why = NULL;
            slpi_applicability a = slpi_registry_pair(sys[i], (slpi_scheme_id)k, &why);
            slpi_problem p;
            slpi_error err = {0};
            slpi_problem_init(&p, sys[i], (slpi_scheme_id)k);
            slpi_fast *f = NULL;
            int rc = slpi_fast_create(&f, &p, &err);
            const char *sn = slpi_system_name(sys[i]), *kn = slpi_scheme_name((slpi_scheme_id)k);
            if (a == SLPI_NA) {
                TEST_CHECKF(rc == SLPI_EINPUT && err.msg[0], "%s/%s is N/A (%s) but created",
                            sn, kn, why ? why : "");
            } else {
                TEST_CHECKF(rc == 0, "%s/%s is %s but rejected: %s", sn, kn,
                            a == SLPI_PAPER ? "P" : "E", err.msg);
                if (rc == 0) {
                    double x[64];
                    TEST_CHECK(slpi_fast_initial_state(f, x, &err) == 0);
                    TEST_CHECKF(fu_run(f, x, 20, NULL) == 0, "%s/%s: failed steps", sn, kn);
                }
            }
            slpi_fast_free(f);
        }
    TEST_END();
}
