/* checkpoint.h — internal interface of run checkpoints (core/checkpoint.c documents
 * the file format; core/run.c writes and resumes them). */
#ifndef SLPI_CHECKPOINT_H
#define SLPI_CHECKPOINT_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
typedef struct slpi_error slpi_error; /* slpi/errors.h */
#include "slpi/run.h"
#include "core/container.h"

#define SLPI_CKPT_FORMAT "slpi-checkpoint"
#define SLPI_CKPT_VERSION 2

typedef struct {
    char *problem;       /* the problem as slpi_problem_write lines (no prefix) */
    char arith[16];      /* path name: fast | ref */
    int hex;             /* rows written as %a */
    int dim;             /* state doubles (slpi_problem_state_dim) */
    int ntokens;         /* path state tokens (state_save) */
    long step;           /* steps done: the run continues with step `step` */
    long out_bytes;      /* output length when the checkpoint was taken */
    uint64_t out_digest; /* FNV-1a 64 of those out_bytes bytes */
    long total_iters;
    slpi_run_result res; /* counters and diagnostics so far (names not stored) */
    char zproduct[16];   /* the complex product the run formed (core/blas.h): zgemm | zgemm3m,
                          * or "" when its process formed none (no su(N) kernel ran) */
    char **x;            /* ntokens exact state tokens of the path (state_save) */
    int nou;             /* 0, or M: the noise's OU state at `step` (docs/noise.md#ou) */
    double *ou_eta;      /* nou doubles: eta of each noise component (0 for white ones) */
} slpi_checkpoint;

/* Write c to path atomically (core/output.c: temporary file, fsync, rename). */
int slpi_checkpoint_write(const char *path, const slpi_checkpoint *c, slpi_error *err);
/* Read and validate a checkpoint file; errors read "file:line: problem". */
int slpi_checkpoint_read(const char *path, slpi_checkpoint *c, slpi_error *err);
/* The same on text: c as the file's bytes (malloc'd, NUL-terminated, *len of them; NULL
 * when out of memory), and a checkpoint read from such text, errors naming `name`
 * (slpi_stepper_save and slpi_stepper_load, api/stepper-state.c). */
char *slpi_checkpoint_format(const slpi_checkpoint *c, size_t *len);
int slpi_checkpoint_parse(slpi_checkpoint *c, const char *name, const char *text, slpi_error *err);
void slpi_checkpoint_free(slpi_checkpoint *c);
/* frees n path state tokens and their array (a path's state_save, slpi.h) */
void slpi_checkpoint_tokens_free(char **x, int n);

/* Batch checkpoints of resumable ensemble studies (core/checkpoint.c documents the format;
 * studies/converge.c writes and resumes them): the study's text (KEY=VALUE lines, each
 * ending in '\n'), and the rows (stride doubles) of the nb batches, those with done[b] set.
 * The reader refuses a checkpoint of another study, sets done[b] and row b of each saved
 * batch (row_check, if given, returns NULL or why it refuses a row), and on failure zeroes
 * every row and every done flag, whatever step refused it. Errors read "file:line: problem". */
#define SLPI_BATCH_CKPT_FORMAT "slpi-converge-checkpoint"
#define SLPI_BATCH_CKPT_VERSION 2
int slpi_checkpoint_batches_write(const char *path, const char *study, const double *rows, const unsigned char *done,
                                  int nb, int stride, slpi_error *err);
int slpi_checkpoint_batches_read(const char *path, const char *study, double *rows, unsigned char *done, int nb,
                                 int stride, const char *(*row_check)(void *, int, const double *), void *arg,
                                 slpi_error *err);

/* Primitives shared by every checkpoint format, over the container of core/container.c. */
/* A writer: each section's lines go to w->f after slpi_checkpoint_section names it. */
#define SLPI_CHECKPOINT_MAX_SECTIONS 8
typedef struct {
    FILE *f;
    char *buf;
    size_t len;
    int n;
    const char *names[SLPI_CHECKPOINT_MAX_SECTIONS];
    size_t off[SLPI_CHECKPOINT_MAX_SECTIONS];
} slpi_checkpoint_writer;
/* 0 when out of memory (nothing to end then). */
int slpi_checkpoint_begin(slpi_checkpoint_writer *w);
void slpi_checkpoint_section(slpi_checkpoint_writer *w, const char *name);
/* The container's text (malloc'd, *len bytes; NULL when out of memory); w is ended. */
char *slpi_checkpoint_end(slpi_checkpoint_writer *w, const char *format, int version, size_t *len);
/* The container written atomically to path (core/output.c); w is ended. */
int slpi_checkpoint_commit(slpi_checkpoint_writer *w, const char *path, const char *format, int version,
                           slpi_error *err);

typedef struct {
    const char *name;
    char *text;      /* whole file, lines split in place */
    char *pos, *end; /* next line; end of the covered part (the end line) */
    long line;       /* line number of the last line read */
    slpi_error *err;
    slpi_container_index ix; /* the sections (core/container.c) */
    int isec;                /* the next section whose "section" line is still ahead */
} slpi_checkpoint_reader;

/* Read path and check it (slpi_container_check: format, version, cut, every digest);
 * then the reader stands before the first section's first line. Errors read
 * "file:line: problem". Close with slpi_checkpoint_close. */
int slpi_checkpoint_open(slpi_checkpoint_reader *r, const char *path, const char *format, int version, slpi_error *err);
void slpi_checkpoint_close(slpi_checkpoint_reader *r);
/* Whether a line is left (the container's "section" lines are skipped). */
int slpi_checkpoint_more(slpi_checkpoint_reader *r);
/* After a reader's last expected line: SLPI_OK when no line is left, else the error
 * "unexpected line before the end line". */
int slpi_checkpoint_last(slpi_checkpoint_reader *r);
/* The value of the next line "key value" (NULL, error set, if the key differs). */
char *slpi_checkpoint_value(slpi_checkpoint_reader *r, const char *key);
/* The next line "key N" with lo <= N <= hi. */
int slpi_checkpoint_long(slpi_checkpoint_reader *r, const char *key, long lo, long hi, long *out);
/* Set the error "file:line: " + fmt (one %s: detail); returns SLPI_EINPUT. */
int slpi_checkpoint_fail(slpi_checkpoint_reader *r, const char *fmt, const char *detail);

#endif
