/* t-run.c — the run driver: a fast run streamed to a trajectory file reads back with the
 * right shape, the header reconstructs the problem exactly (provenance + problem keys),
 * the state in the file equals a second run's bit for bit (determinism), explicit x0
 * files are used, a numerical failure stops the run with exit code 3 naming the step and
 * residual and leaves a valid prefix, and the JSON summary is written and parses. */
#include <jansson.h>
#include <unistd.h>

#include "core/problem-struct.h"
#include "slpi.h"
#include "testutil.h"
#include "core/command.h"

static int run_to(const slpi_problem *p, const char *path, slpi_run_result *res, slpi_error *err)
{
    FILE *f = fopen(path, "w");
    int rc = slpi_run(p, slpi_fast_path(), f, 0, NULL, res, err);
    fclose(f);
    return rc;
}

/* Rebuild a problem from a trajectory header's key=value lines. */
static int problem_from_header(const slpi_traj *t, slpi_problem *q, slpi_error *err)
{
    static const char *const skip[] = {
        "arith",        "state_columns", "slpi_version", "git_rev", "arb",  "flint",    "mpfr",   "gmp", "openblas",
        "openblas_why", "zproduct",      "zproduct_why", "cpu",     "libc", "compiler", "cflags", "fp"
    };
    char *k[256], *v[256];
    int n = 0;
    for (int i = 0; i < t->nhead && n < 256; i++) {
        int drop = 0;
        for (size_t j = 0; j < sizeof skip / sizeof skip[0]; j++) drop |= strcmp(t->head_key[i], skip[j]) == 0;
        if (!drop) {
            k[n] = t->head_key[i];
            v[n] = t->head_val[i];
            n++;
        }
    }
    slpi_problem_init(q, SLPI_SYS_MANAKOV, SLPI_SCHEME_TMK);
    return slpi_problem_set_all(q, n, k, v, NULL, err);
}

int main(void)
{
    test_start("t-run", 5);
    slpi_problem p, q;
    slpi_error err = { 0, "" };
    slpi_run_result res;
    char path[] = "/tmp/slpi-t-run-XXXXXX";
    close(mkstemp(path));

    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)(test_rand_u64() >> 1));
    TEST_CHECK(slpi_problem_set(&p, "seed", seed, &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_set(&p, "steps", "200", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_set(&p, "output_every", "10", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_finish(&p, &err) == SLPI_OK);
    TEST_CHECKF(run_to(&p, path, &res, &err) == SLPI_OK, "%s", err.msg);
    TEST_CHECK(res.steps_done == 200 && res.failed_step == -1 && res.ndiag > 0);
    /* the steps' CPU time is measured (a sanity range, not a timing claim) */
    TEST_CHECKF(res.cpu_seconds > 0 && res.cpu_seconds < 600, "cpu_seconds %g", res.cpu_seconds);
    slpi_traj t, t2;
    TEST_CHECKF(slpi_traj_read(path, &t, &err) == SLPI_OK, "%s", err.msg);
    TEST_CHECK(t.nrows == 21 && t.step[20] == 200 && t.mid[20 * (t.ncols + 1)] == 200 * p.grid.h);
    TEST_CHECK(t.ncols == 3 + res.ndiag + 2);
    TEST_CHECK(slpi_traj_column(&t, "x1") == 0 && slpi_traj_column(&t, "iters") == t.ncols - 2);
    TEST_CHECK(strcmp(slpi_traj_header(&t, "arith"), "fast") == 0);
    TEST_CHECK(strcmp(slpi_traj_header(&t, "state_columns"), "x1,x2,x3") == 0); /* the state's columns, named */
    TEST_CHECKF(problem_from_header(&t, &q, &err) == SLPI_OK, "%s", err.msg);
    TEST_CHECK(memcmp(&p, &q, sizeof p) == 0);
    /* the |x|^2 Casimir column barely moves (IsoMP preserves the spectrum) */
    double x2first = 0, x2last = 0;
    for (int i = 0; i < 3; i++) {
        x2first += t.mid[1 + i] * t.mid[1 + i];
        x2last += t.mid[20 * (t.ncols + 1) + 1 + i] * t.mid[20 * (t.ncols + 1) + 1 + i];
    }
    TEST_CHECKF(fabs(x2last - x2first) < 200 * 0x1p-52, "|x|^2 drift %g", x2last - x2first);

    /* determinism: the same problem twice gives the same bytes of state */
    TEST_CHECK(run_to(&p, path, &res, &err) == SLPI_OK);
    TEST_CHECK(slpi_traj_read(path, &t2, &err) == SLPI_OK);
    TEST_CHECK(t2.nrows == t.nrows &&
               memcmp(t.mid, t2.mid, (size_t)t.nrows * (size_t)(t.ncols + 1) * sizeof(double)) == 0);
    slpi_traj_free(&t2);

    /* explicit x0 from a file is the first row */
    char x0path[] = "/tmp/slpi-t-run-x0-XXXXXX";
    FILE *f = fdopen(mkstemp(x0path), "w");
    fprintf(f, "# initial state\n0.6 0\n0.8\n");
    fclose(f);
    slpi_problem_set(&p, "x0_file", x0path, &err);
    TEST_CHECKF(slpi_problem_finish(&p, &err) == SLPI_OK, "%s", err.msg);
    TEST_CHECK(run_to(&p, path, &res, &err) == SLPI_OK);
    TEST_CHECK(slpi_traj_read(path, &t2, &err) == SLPI_OK);
    TEST_CHECK(t2.mid[1] == 0.6 && t2.mid[2] == 0.0 && t2.mid[3] == 0.8);
    slpi_traj_free(&t2);
    f = fopen(x0path, "w");
    fprintf(f, "0.6 0 zz\n");
    fclose(f);
    TEST_CHECK(run_to(&p, path, &res, &err) == SLPI_EINPUT && strstr(err.msg, ":1: 'zz'"));
    unlink(x0path);

    /* numerical failure: TMK at a huge step does not converge; exit 3, step named */
    slpi_problem_init(&p, SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_TMK);
    slpi_problem_set(&p, "h", "50", &err);
    slpi_problem_set(&p, "steps", "5", &err);
    TEST_CHECK(slpi_problem_finish(&p, &err) == SLPI_OK);
    int rc = run_to(&p, path, &res, &err);
    TEST_CHECKF(rc == SLPI_ENUMERIC && strstr(err.msg, "step 0") && strstr(err.msg, "residual"), "rc %d: %s", rc,
                err.msg);
    TEST_CHECK(res.failed_step == 0 && res.steps_done == 0);
    TEST_CHECKF(slpi_traj_read(path, &t2, &err) == SLPI_OK && t2.nrows == 1, "prefix: %s", err.msg);
    slpi_traj_free(&t2);

    /* JSON summary */
    char jpath[] = "/tmp/slpi-t-run-json-XXXXXX";
    close(mkstemp(jpath));
    TEST_CHECK(slpi_run_write_json(&p, "fast", &res, rc, err.msg, jpath, &err) == SLPI_OK);
    json_error_t jerr;
    json_t *j = json_load_file(jpath, 0, &jerr);
    TEST_CHECK(j != NULL);
    if (j) {
        TEST_CHECK(json_integer_value(json_object_get(j, "exit_code")) == SLPI_ENUMERIC);
        TEST_CHECK(json_integer_value(json_object_get(j, "failed_step")) == 0);
        TEST_CHECK(strcmp(json_string_value(json_object_get(j, "scheme")), "tmk") == 0);
        json_decref(j);
    }
    unlink(jpath);
    slpi_traj_free(&t);
    unlink(path);
    TEST_END();
}
