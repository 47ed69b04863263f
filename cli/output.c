/* output.c — a command's report on standard output or in an -o/--output file, and
 * the check that every byte of it was written (a full disk, /dev/full, a closed pipe):
 * a report that cannot be written is an error (exit 2), never a silent success. The
 * file itself is core/output.c's: nothing the run did not create is truncated, and a
 * report that names one of the command's inputs is refused (by the command, with
 * slpi_output_check_paths) before anything is opened. A command stopped before it
 * wrote a byte of its report leaves the file as it was. */
#include <stdio.h>

#include "cli/cli.h"
#include "slpi/errors.h"
#include "slpi/output.h"
#include "slpi/process.h"

slpi_output *slpi_cli_output_open(const char *cmd, const char *path)
{
    slpi_error err = { 0, "" };
    slpi_output *o = NULL;
    if (slpi_output_open(&o, path, SLPI_OUTPUT_REPLACE, &err) != SLPI_OK) {
        fprintf(stderr, "slpi %s: %s\n", cmd, err.msg);
        return NULL;
    }
    return o;
}

int slpi_cli_output_close(const char *cmd, slpi_output *o)
{
    slpi_error err = { 0, "" };
    FILE *f = o ? slpi_output_file(o) : NULL;
    /* stopped (Ctrl-C, SIGTERM, SIGHUP) before a byte of the report: the file the -o names
     * is left as it was, not replaced by an empty report (docs/conventions.md#interrupt) */
    if (f && f != stdout && slpi_interrupt_pending() && ftell(f) == 0) {
        slpi_output_abort(o);
        return SLPI_OK;
    }
    if (slpi_output_commit(o, &err) == SLPI_OK) return SLPI_OK;
    fprintf(stderr, "slpi %s: %s\n", cmd, err.msg);
    return SLPI_EINPUT;
}
