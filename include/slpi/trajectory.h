/* slpi/trajectory.h — the trajectory file: writing it and reading it whole or row by row
 * (part of slpi.h). */
#ifndef SLPI_PUBLIC_TRAJECTORY_H
#define SLPI_PUBLIC_TRAJECTORY_H

#include <stdio.h>

#include "slpi/errors.h"

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* -------------------------------------------------------- trajectory files */

/* Trajectory TSV "slpi-trajectory 1" (format documented in core/trajectory.c). */
int slpi_traj_write_header(FILE *f, const slpi_problem *p, const char *path_name, int ncols, const char *const *cols);
void slpi_traj_write_row(FILE *f, long step, double t, int n, const double *v, int hex);

typedef struct {
    int nhead; /* "# key=value" header lines */
    char **head_key, **head_val;
    int ncols; /* columns after step and t */
    char **col;
    long nrows;
    long *step;        /* step index of each row */
    double *mid, *rad; /* row-major, ncols + 1 per row: t, then the columns;
                                  rad is 0 for plain doubles, the radius for balls */
} slpi_traj;
/* Owns: t's arrays are the caller's, freed by slpi_traj_free. */
int slpi_traj_read(const char *path, slpi_traj *t, slpi_error *err);

void slpi_traj_free(slpi_traj *t);
const char *slpi_traj_header(const slpi_traj *t, const char *key);
int slpi_traj_column(const slpi_traj *t, const char *name);
/* The same format read one row at a time, in memory independent of the file's length
 * (slpi_traj_read is built on it): slpi_traj_open reads the version line, the header and
 * the column line (slpi_traj_head: nrows counts the rows read so far, no row arrays;
 * slpi_traj_header_line: the line of header entry i), slpi_traj_next the next row
 * into the reader's storage, valid until the next call: 1, 0 at the end of the file,
 * or -1 with err set (file:line, as slpi_traj_read). The file is read sequentially,
 * never sought: a FIFO will do. */
typedef struct slpi_traj_reader slpi_traj_reader;
typedef struct {
    long step;
    const double *mid, *rad; /* ncols + 1 each: t, then the columns (as slpi_traj) */
} slpi_traj_row;
/* Owns: *r is the caller's, freed by slpi_traj_close; the head and the rows are the reader's. */
int slpi_traj_open(slpi_traj_reader **r, const char *path, slpi_error *err);

const slpi_traj *slpi_traj_head(const slpi_traj_reader *r);
long slpi_traj_header_line(const slpi_traj_reader *r, int i);
long slpi_traj_line(const slpi_traj_reader *r);
int slpi_traj_next(slpi_traj_reader *r, slpi_traj_row *row, slpi_error *err);
void slpi_traj_close(slpi_traj_reader *r);

#ifdef __cplusplus
}
#endif
#endif
