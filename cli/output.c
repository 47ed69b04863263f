/* output.c — a command's report on standard output or in an -o/--output file, and
 * the check that every byte of it was written (a full disk, /dev/full, a closed pipe):
 * a report that cannot be written is an error (exit 2), never a silent success. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "slpi.h"

FILE *slpi_cli_output_open(const char *cmd, const char *path)
{
    if (!path) return stdout;
    FILE *f = fopen(path, "w");
    if (!f) fprintf(stderr, "slpi %s: cannot write %s: %s\n", cmd, path, strerror(errno));
    return f;
}

int slpi_cli_output_close(const char *cmd, const char *path, FILE *f)
{
    int bad = ferror(f);
    bad |= (f == stdout ? fflush(f) : fclose(f)) != 0;
    if (f == stdout) bad |= ferror(f);
    if (!bad) return SLPI_OK;
    fprintf(stderr, "slpi %s: write error on %s\n", cmd, path ? path : "standard output");
    return SLPI_EINPUT;
}
