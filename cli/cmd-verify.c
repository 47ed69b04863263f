/* cmd-verify.c — `slpi verify FILE...`: check trajectories of another implementation
 * against the certified path (oracle/verify.c, oracle/local.c; the port author's guide
 * is oracle/README.md): globally (each row against the certified trajectory from x0)
 * and locally (each row against the certified step from the port's previous row), with
 * the port's stated budget, and the calibrated statistical test pooled over the files
 * (oracle/stat.c); the options are read by slpi_verify_parse_args (oracle/verify-args.c).
 * The local rows run on OpenMP threads and, when built with
 * -DSLPI_MPI (make mpi), on MPI ranks:  mpirun -n K build/mpi/slpi verify --local F */
#include <stdio.h>
#include <stdlib.h>

#ifdef SLPI_MPI
#include <mpi.h>
#include <stddef.h>
#endif

#include "cli/cli.h"
#include "slpi/errors.h"
#include "slpi/output.h"
#include "slpi/tools.h"
#include "core/command.h"
#include "core/progress.h"

#ifdef SLPI_MPI
static int mpi_combine(double *buf, size_t n, void *arg)
{
    (void)arg;
    return MPI_Allreduce(MPI_IN_PLACE, buf, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS;
}
#endif

/* At most this many trajectory files (paths) in one verify. */
#define MAX_FILES 4096

static int verify_main(int argc, char **argv, int rank, int nranks)
{
    slpi_verify_opts o;
    slpi_verify_io io;
    slpi_error err = { 0, "" };
    const char **files = malloc(MAX_FILES * sizeof *files);
    int nfiles = 0, rc = files ? SLPI_OK : slpi_error_set(&err, SLPI_EINPUT, "out of memory");
    if (rc == SLPI_OK) rc = slpi_verify_parse_args(&o, &io, argc, argv, files, MAX_FILES, &nfiles, &err);
    if (rc == SLPI_OK && io.help) {
        if (rank == 0) slpi_verify_help(stdout);
        free(files);
        return SLPI_OK;
    }
    if (rc != SLPI_OK) {
        if (rank == 0) fprintf(stderr, "slpi verify: %s\n", err.msg);
        free(files);
        return rc;
    }
    o.rank = rank;
    o.nranks = nranks;
#ifdef SLPI_MPI
    if (nranks > 1) {
        o.combine = mpi_combine;
        MPI_Bcast(&o.sample_seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    }
#endif
    const char *outs[2] = { io.output, io.json }, *out_role[2] = { "--output", "--json" };
    const char **in_role = malloc((size_t)nfiles * sizeof *in_role);
    if (!in_role) rc = slpi_error_set(&err, SLPI_EINPUT, "out of memory");
    for (int i = 0; in_role && i < nfiles; i++) in_role[i] = "trajectory";
    if (rc == SLPI_OK) rc = slpi_output_check_paths(2, outs, out_role, nfiles, files, in_role, &err);
    free(in_role);
    if (rc != SLPI_OK) {
        if (rank == 0) fprintf(stderr, "slpi verify: %s\n", err.msg);
        free(files);
        return SLPI_EINPUT;
    }
    slpi_output *report = rank == 0 ? slpi_cli_output_open("verify", io.output) : NULL;
    if (rank == 0 && !report) {
        free(files);
        return SLPI_EINPUT;
    }
    FILE *out = report ? slpi_output_file(report) : NULL;
    slpi_verify_result *res = malloc(sizeof *res);
    rc = res ? slpi_verify_run_files(nfiles, files, &o, io.quiet ? NULL : out, res, &err)
             : slpi_error_set(&err, SLPI_EINPUT, "out of memory");
    if (rc != SLPI_OK && rank == 0) fprintf(stderr, "slpi verify: %s\n", err.msg);
    if (rc == SLPI_OK && rank == 0 && io.json && slpi_verify_write_json(files[0], res, io.json, &err) != SLPI_OK) {
        fprintf(stderr, "slpi verify: %s\n", err.msg);
        rc = SLPI_EINPUT;
    }
    if (rc == SLPI_OK && !io.quiet && rank == 0) { /* the cost, where progress is shown: a run's own */
        double cpu = res->stats.cpu_seconds;
        slpi_progress_note("verify: %.3g CPU s; proof %ld rows (%.3g a CPU second), statistics %ld rows (%.3g a "
                           "CPU second)\n",
                           cpu, res->rows + res->local.rows,
                           cpu > 0 ? (double)(res->rows + res->local.rows) / cpu : 0.0, res->stats.rows,
                           cpu > 0 ? (double)res->stats.rows / cpu : 0.0);
    }
    if (rc == SLPI_OK && io.quiet && rank == 0) {
        fprintf(out, "%s%s: %s (%s, u = %.3g, K = %g;", files[0], nfiles > 1 ? " ..." : "",
                slpi_verdict_name(res->verdict), res->precision.name, res->precision.u, res->budget);
        if (o.global)
            fprintf(
                out,
                " global %s, %ld rows: %ld PASS, %ld FAIL, %ld UNABLE, worst state ratio %.3g, invariant ratio %.3g;",
                slpi_verdict_name(res->global_verdict), res->rows, res->rows_pass, res->rows_fail, res->rows_unable,
                res->state.hi, res->inv.hi);
        if (o.local)
            fprintf(
                out,
                " local %s, %ld rows: %ld PASS, %ld FAIL, %ld UNABLE, worst step ratio %.3g; statistics %s, p = %.3g;",
                slpi_verdict_name(res->local.verdict), res->local.rows, res->local.rows_pass, res->local.rows_fail,
                res->local.rows_unable, res->local.state.hi, slpi_verify_stat_verdict_name(res->stats.verdict),
                res->stats.p_value);
        fprintf(out, ")\n");
    }
    if (report && slpi_cli_output_close("verify", report) != SLPI_OK && rc == SLPI_OK) rc = SLPI_EINPUT;
    int verdict = rc == SLPI_OK ? (int)res->verdict : rc;
    free(res);
    free(files);
    return verdict;
}

int slpi_cli_verify(int argc, char **argv)
{
#ifdef SLPI_MPI
    int rank = 0, nranks = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int rc = verify_main(argc, argv, rank, nranks);
    MPI_Finalize();
    return rc;
#else
    return verify_main(argc, argv, 0, 1);
#endif
}
