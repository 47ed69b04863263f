/* main.c — the `slpi` command: dispatch to subcommands (cli/cmd-*.c). */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>
#include <stddef.h>

#include "cli/cli.h"
#include "slpi/errors.h"
#include "slpi/process.h"
#include "slpi/version.h"
#include "core/blas-threads.h"
#include "core/command.h"

/* quiet: the command reads --quiet/-q itself (less output); for the others it only
 * silences progress and is taken out here */
typedef struct {
    const char *name;
    int (*fn)(int, char **);
    const char *what;
    int quiet;
} command;

static const command commands[] = {
    { "list", slpi_cli_list, "systems, schemes, presets, applicability (docs/systems.md#applicability), keys", 0 },
    { "run", slpi_cli_run, "integrate one problem on the fast or certified (--ref) path", 1 },
    { "noise", slpi_cli_noise, "write canonical Wiener increments (a noise file)", 0 },
    { "model", slpi_cli_model, "what a model integrates: its equation, and the drift and noise fields at x0", 0 },
    { "ensemble", slpi_cli_ensemble, "statistics of an ensemble at its saved times (threads, parameter grids)", 0 },
    { "converge", slpi_cli_converge, "coupled strong/weak convergence study (OpenMP, MPI)", 0 },
    { "mlmc", slpi_cli_mlmc, "multilevel Monte Carlo E phi(X_T) to a requested RMSE (Giles)", 0 },
    { "audit", slpi_cli_audit, "audit every claim of docs/claims.md: verdicts, HTML + JSON report", 1 },
    { "golden", slpi_cli_golden, "check (or regenerate) the golden certified cases", 0 },
    { "verify", slpi_cli_verify, "check another implementation's trajectory against the oracle", 1 },
    { "props", slpi_cli_props,
      "property harness: generated cases, docs/schemes.md#summary properties, shrinking, replay", 0 },
};

static void usage(FILE *f)
{
    fprintf(f, "usage: slpi <command> [options]   (slpi <command> --help for each)\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].what);
    fprintf(f,
            "\nprogress: on a terminal, work that runs longer than about 1.5 s shows its progress\n"
            "on standard error; --quiet (-q) silences it, --progress (any command) forces it\n");
    fprintf(f,
            "\nexit codes: 0 ok, 1 a check failed, 2 usage or input error, 3 numerical failure,\n"
            "130 interrupted (Ctrl-C, SIGTERM, SIGHUP: what was written is kept, a checkpoint is\n"
            "resumable)\n");
}

int main(int argc, char **argv)
{
    /* One BLAS thread unless OPENBLAS_NUM_THREADS chooses (docs/conventions.md#threads): a
     * pool of OpenBLAS threads spins against busy cores (Euler-Zeitlin N = 64, 200
     * steps: 0.17 s with one thread, 6.5 s with two, at load 5), its threads change the
     * last bits of 64 x 64 products, and the su(N) kernels thread themselves (fast/team.c,
     * sized by OMP_NUM_THREADS), calling BLAS from each thread. OpenBLAS's idle pool is
     * stopped too: a 0.2-s `slpi ensemble` cost 0.30 CPU-s on two
     * idle cores with it, 0.20 without (core/blas-threads.h). */
    slpi_blas_one_thread();
    /* The certified path makes and frees its N x N ball matrices thousands of times a
     * step: freed memory stays in the process (no trimming, no mmap below 32 MB), where
     * glibc's defaults returned it and faulted it back in, about a fifth of a certified
     * step at N = 128 (docs/design.md#blas-route). */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    /* `slpi run` (one path) runs the su(N) kernels' thread team (fast/team.c) on one thread
     * unless OMP_NUM_THREADS chooses: two threads gain on idle cores and lose on busy ones
     * (docs/conventions.md#threads). The commands that run many paths (ensemble, converge, verify,
     * audit) keep the OpenMP default for their own threads. */
    if (argc >= 2 && strcmp(argv[1], "run") == 0 && !getenv("OMP_NUM_THREADS")) omp_set_num_threads(1);
    /* Ctrl-C, SIGTERM, SIGHUP: every long call stops at its next step, case or claim,
     * keeps what it did and exits 130 (core/interrupt.c) */
    slpi_interrupt_catch();
    if (argc < 2) {
        usage(stderr);
        return SLPI_EINPUT;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return SLPI_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("slpi %s (git %s)\n", SLPI_VERSION, SLPI_GIT_REV);
        slpi_provenance_write(stdout, "  ");
        return SLPI_OK;
    }
    /* progress is one switch for every command (core/progress.c): --progress is taken
     * out here; --quiet/-q silences progress and stays for a command that reads it */
    const command *cmd = NULL;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) cmd = &commands[i];
    int kept = 2;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            while (i < argc) argv[kept++] = argv[i++];
            break;
        }
        if (strcmp(argv[i], "--progress") == 0) {
            slpi_progress_set_mode(SLPI_PROGRESS_ON);
            continue;
        }
        if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            slpi_progress_set_mode(SLPI_PROGRESS_OFF);
            if (cmd && !cmd->quiet) continue;
        }
        argv[kept++] = argv[i];
    }
    argv[kept] = NULL;
    argc = kept;
    if (cmd) {
        int rc = cmd->fn(argc - 1, argv + 1);
        /* a report that cannot be written (> /dev/full, a closed pipe) is never exit 0 */
        slpi_error err = { 0, "" };
        if (slpi_output_close_stdout(&err) != SLPI_OK) {
            fprintf(stderr, "slpi %s: %s\n", argv[1], err.msg);
            return SLPI_EINPUT;
        }
        return rc;
    }
    fprintf(stderr, "slpi: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return SLPI_EINPUT;
}
