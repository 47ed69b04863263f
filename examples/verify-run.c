/* verify-run.c — a trajectory written by the run driver on the fast path, then verified
 * against the certified path (as `slpi run -o FILE` and `slpi verify FILE`): a port
 * does the same with its own file. Prints the verdict and the worst certified ratio.
 * The verifier is a tool (slpi-tools.h, libslpi-tools):
 *   cc -std=c11 verify-run.c $(pkg-config --cflags --libs slpi-tools) -o verify-run */
#include <stdio.h>
#include <stdlib.h>

#include <slpi-tools.h>

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "verify-run.tsv";
    slpi_problem *p = slpi_problem_new("iso/rigid-body/trajectories"); /* opaque: made by the library */
    slpi_error err = { 0 };
    if (!p || slpi_problem_set(p, "steps", "64", &err) || slpi_problem_finish(p, &err)) {
        fprintf(stderr, "verify-run: %s\n", p ? err.msg : slpi_api_last_error());
        return 2;
    }
    FILE *f = fopen(path, "w");
    slpi_run_result run;
    if (!f || slpi_run(p, slpi_fast_path(), f, 1, NULL, &run, &err) || fclose(f)) {
        fprintf(stderr, "verify-run: %s: %s\n", path, f ? err.msg : "cannot open");
        return 2;
    }
    slpi_verify_result *res = malloc(sizeof *res);
    if (!res || slpi_verify_file(path, NULL, NULL, -1, NULL, res, &err)) {
        fprintf(stderr, "verify-run: %s\n", res ? err.msg : "out of memory");
        return 2;
    }
    const char *names[] = { "PASS", "FAIL", "", "UNABLE" };
    printf("verify-run: %s: %ld rows, %s (worst state ratio in [%.3g, %.3g], budget %g)\n", path, res->rows,
           names[res->verdict], res->state.lo, res->state.hi, res->budget);
    int rc = res->verdict == SLPI_VERDICT_PASS ? 0 : 1;
    free(res);
    slpi_problem_free(p);
    return rc;
}
