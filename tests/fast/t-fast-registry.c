/* t-fast-registry.c — the double path agrees with the applicability matrix of docs/systems.md#applicability
 * (core's slpi_registry_pair): with the papers' defaults (slpi_problem_init), every pair
 * marked P or E is created and takes 20 steps without failure, and every N/A pair is
 * rejected with SLPI_EINPUT and a message. Systems of this module: rigid body, heavy
 * top, Manakov, point vortices (rkmk-le with each system's default noise: consistent
 * for every noise model, slpi_problem_le_consistent). Each such step also reads and writes
 * only the state_dim doubles of the caller's state: the state is placed against an
 * inaccessible page, just after one and just before one (a read or write past either
 * end stops the test with the pair's name), and ends bit-identical to the run on a roomy
 * buffer with the same increments. */
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include "fastutil.h"

static const char *pair_name = "";

static void on_fault(int sig)
{
    (void)sig;
    static const char a[] = "t-fast-registry: FAIL: a step read or wrote past the caller's state: ";
    if (write(2, a, sizeof a - 1) < 0 || write(2, pair_name, strlen(pair_name)) < 0 || write(2, "\n", 1) < 0) _exit(1);
    _exit(1);
}

/* Three pages, the outer two inaccessible: the middle one's address. */
static double *guarded_page(size_t page)
{
    int fd = open("/dev/zero", O_RDWR);
    TEST_CHECK(fd >= 0);
    char *m = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    TEST_CHECK(m != MAP_FAILED);
    if (m == MAP_FAILED) exit(1);
    TEST_CHECK(mprotect(m, page, PROT_NONE) == 0 && mprotect(m + 2 * page, page, PROT_NONE) == 0);
    return (double *)(m + page);
}

/* 20 steps from the initial state with the increments dw: in x (roomy) and in the
 * guarded page at its start and at its end; the three results bit-identical. */
static void guarded_run(const slpi_problem *p, const double *dw, double *page, size_t page_bytes)
{
    int n = slpi_problem_state_dim(p);
    double x[64], *lo = page, *hi = page + page_bytes / sizeof(double) - n;
    double *at[3] = { x, lo, hi };
    for (int r = 0; r < 3; r++) {
        slpi_fast *f = NULL;
        slpi_error err = { 0 };
        TEST_CHECK(slpi_fast_create(&f, p, &err) == 0 && slpi_fast_initial_state(f, at[r], &err) == 0);
        TEST_CHECK(fu_run(f, at[r], 20, dw) == 0);
        slpi_fast_free(f);
    }
    TEST_CHECKF(memcmp(x, lo, sizeof *x * (size_t)n) == 0 && memcmp(x, hi, sizeof *x * (size_t)n) == 0,
                "%s: the state against a guard page ends elsewhere", pair_name);
}

int main(void)
{
    static const slpi_system_id sys[] = { SLPI_SYS_RIGID_BODY, SLPI_SYS_HEAVY_TOP, SLPI_SYS_MANAKOV,
                                          SLPI_SYS_POINT_VORTICES };
    test_start("t-fast-registry", 1);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    double *guarded = guarded_page(page), dw[20 * 64];
    char name[128];
    signal(SIGSEGV, on_fault);
    signal(SIGBUS, on_fault);
    for (size_t i = 0; i < sizeof sys / sizeof sys[0]; i++)
        for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
            const char *why = NULL;
            slpi_applicability a = slpi_registry_pair(sys[i], (slpi_scheme_id)k, &why);
            slpi_problem p;
            slpi_error err = { 0 };
            slpi_problem_init(&p, sys[i], (slpi_scheme_id)k);
            slpi_fast *f = NULL;
            int rc = slpi_fast_create(&f, &p, &err);
            const char *sn = slpi_system_name(sys[i]), *kn = slpi_scheme_name((slpi_scheme_id)k);
            if (a == SLPI_NA) {
                TEST_CHECKF(rc == SLPI_EINPUT && err.msg[0], "%s/%s is N/A (%s) but created", sn, kn, why ? why : "");
            } else {
                TEST_CHECKF(rc == 0, "%s/%s is %s but rejected: %s", sn, kn, a == SLPI_PAPER ? "P" : "E", err.msg);
                if (rc == 0) {
                    double x[64];
                    TEST_CHECK(slpi_fast_initial_state(f, x, &err) == 0);
                    TEST_CHECKF(fu_run(f, x, 20, NULL) == 0, "%s/%s: failed steps", sn, kn);
                    TEST_CHECK(f->sys.M <= 64);
                    for (int j = 0; j < 20 * f->sys.M; j++) dw[j] = sqrt(p.grid.h) * fu_normal();
                    snprintf(name, sizeof name, "%s/%s", sn, kn);
                    pair_name = name;
                    guarded_run(&p, dw, guarded, page);
                }
            }
            slpi_fast_free(f);
        }
    TEST_END();
}
