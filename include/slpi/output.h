/* slpi/output.h — safe output files: written aside and renamed, locked against a second
 * writer (part of slpi.h). */
#ifndef SLPI_PUBLIC_OUTPUT_H
#define SLPI_PUBLIC_OUTPUT_H

#include <stdio.h>

#include "slpi/errors.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ output files */

/* Safe output files (core/output.c documents the rules): a regular file is written
 * to a temporary file in its folder and renamed over PATH by commit (abort removes
 * only that temporary file); devices and FIFOs (/dev/null, /dev/full) are written in
 * place and never removed; NULL or "-" is standard output. Every write, flush, fsync,
 * close or rename error is reported (SLPI_EINPUT, "PATH: write error: ..."). From open to
 * commit or abort the output holds PATH's writer lock: a second writer of PATH, in this
 * process or another, is refused at open (SLPI_EINPUT, "PATH: in use by another process
 * (locked): not written"; docs/conventions.md#outputs). */
typedef struct slpi_output slpi_output;
typedef enum {
    SLPI_OUTPUT_REPLACE, /* temporary file, renamed over PATH at commit (or publish) */
    SLPI_OUTPUT_UPDATE   /* an existing regular file, in place, locked (resume) */
} slpi_output_mode;
/* NULL: path (standard output). Owns: *out is the caller's, freed by slpi_output_commit or
 * slpi_output_abort. Thread: not safe: records its temporary file in the process-wide
 * list a signal handler removes (open outputs from one thread). */
int slpi_output_open(slpi_output **out, const char *path, slpi_output_mode mode, slpi_error *err);

FILE *slpi_output_file(const slpi_output *o);       /* Owns: o's (commit or abort closes it). */
const char *slpi_output_name(const slpi_output *o); /* for messages */
/* Rename the temporary file over PATH now and keep writing into it (a streamed output
 * whose prefix must be visible, e.g. beside checkpoints); no-op otherwise. */
int slpi_output_publish(slpi_output *o, slpi_error *err);
/* Flush, fsync, close, rename; frees o (also on error, after removing the temporary). */
int slpi_output_commit(slpi_output *o, slpi_error *err);
/* Close and remove the temporary file if not yet published; frees o. NULL: o (nothing done). */
void slpi_output_abort(slpi_output *o);

#ifdef __cplusplus
}
#endif
#endif
