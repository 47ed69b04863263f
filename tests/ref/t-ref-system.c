/* t-ref-system.c — the certified path's system dispatch (ref/system.c): slpi_ref_system_init
 * zeroes the table before a constructor fills it, so a slot a system does not set reads
 * NULL (or 0) whatever the caller's memory held. For every system × scheme pair the
 * validator admits (a model on so3, euler-zeitlin at a random N in 3..6), the table built
 * on memory filled with a random byte equals, byte for byte, the table built on zeroed
 * memory (the data pointers aside: two allocations). A constructor that leaves a slot
 * unset (gen_packed, read by slpi_ref_matrix_attach, was one) fails this on any fill but
 * 0. */
#include "core/problem-struct.h"
#include "core/plan.h"
#include "testutil.h"
#include "slpi.h"
#include "ref/system.h"

/* p for system s and scheme k; 1 if the validator admits the pair. */
static int problem(slpi_problem *p, slpi_system_id s, slpi_scheme_id k, int N)
{
    slpi_error err;
    char n[16], l[16];
    slpi_problem_init(p, s, k);
    snprintf(n, sizeof n, "%d", N);
    snprintf(l, sizeof l, "%d", N - 1);
    int ok = 1;
    if (s == SLPI_SYS_MODEL)
        ok = slpi_problem_set(p, "algebra", "so3", &err) == SLPI_OK &&
            slpi_problem_set(p, "H", "x1^2/2+x2^2/4+x3^2/6", &err) == SLPI_OK &&
            slpi_problem_set(p, "noise_H1", "x1", &err) == SLPI_OK &&
            slpi_problem_set(p, "x0", "1,2,3", &err) == SLPI_OK;
    if (s == SLPI_SYS_EULER_ZEITLIN)
        ok = slpi_problem_set(p, "N", n, &err) == SLPI_OK && slpi_problem_set(p, "ic_lmax", l, &err) == SLPI_OK;
    TEST_CHECKF(ok, "%s: keys refused: %s", slpi_system_name(s), err.msg);
    return ok && slpi_problem_set(p, "steps", "2", &err) == SLPI_OK && slpi_problem_finish(p, &err) == SLPI_OK &&
        slpi_problem_validate(p, &err) == SLPI_OK;
}

int main(void)
{
    test_start("t-ref-system", 20261125);
    long rounds = test_iters(2);
    for (long r = 0; r < rounds; r++) {
        unsigned char fill = (unsigned char)(1 + test_rand_int(255));
        int N = 3 + (int)test_rand_int(4);
        for (int s = 0; s < SLPI_SYS_COUNT; s++) {
            int pairs = 0;
            for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
                slpi_problem p;
                if (!problem(&p, (slpi_system_id)s, (slpi_scheme_id)k, N)) continue;
                slpi_ref_system a, b;
                slpi_error err;
                slpi_plan *plan = NULL; /* a model's system reads the plan's parsed model */
                memset(&a, 0, sizeof a);
                memset(&b, fill, sizeof b);
                int ra = slpi_plan_compile(&plan, &p, &err), rb = ra;
                if (ra == SLPI_OK)
                    ra = slpi_ref_system_init(&a, &p, plan, &err), rb = slpi_ref_system_init(&b, &p, plan, &err);
                slpi_plan_unref(plan); /* the systems hold their own references */
                TEST_CHECKF(ra == SLPI_OK && rb == SLPI_OK, "%s/%s: init: %s", slpi_system_name(s), slpi_scheme_name(k),
                            err.msg);
                if (ra != SLPI_OK || rb != SLPI_OK) continue;
                pairs++;
                void *da = a.data, *db = b.data;
                a.data = b.data = NULL;
                TEST_CHECKF(memcmp(&a, &b, sizeof a) == 0,
                            "%s/%s (N = %d): the table on memory filled with 0x%02x "
                            "differs from the one on zeroed memory",
                            slpi_system_name(s), slpi_scheme_name(k), N, fill);
                a.data = da;
                b.data = db;
                slpi_ref_system_clear(&a);
                slpi_ref_system_clear(&b);
            }
            TEST_CHECKF(pairs > 0, "%s: no scheme admitted", slpi_system_name(s));
        }
    }
    TEST_END();
}
