/* checkpoint.h — internal interface of run checkpoints (core/checkpoint.c documents
 * the file format; core/run.c writes and resumes them). */
#ifndef SLPI_CHECKPOINT_H
#define SLPI_CHECKPOINT_H

#include "slpi.h"

#define SLPI_CKPT_FORMAT "slpi-checkpoint"
#define SLPI_CKPT_VERSION 1

typedef struct {
    char *problem;            /* the problem as slpi_problem_write lines (no prefix) */
    char arith[16];           /* path name: fast | ref */
    int hex;                  /* rows written as %a */
    int dim;                  /* state doubles (slpi_problem_state_dim) */
    int ntokens;              /* path state tokens (state_save) */
    long step;                /* steps done: the run continues with step `step` */
    long out_bytes;           /* output length when the checkpoint was taken */
    uint64_t out_digest;      /* FNV-1a 64 of those out_bytes bytes */
    long total_iters;
    slpi_run_result res;      /* counters and diagnostics so far (names not stored) */
    char **x;                 /* ntokens exact state tokens of the path (state_save) */
} slpi_checkpoint;

/* FNV-1a 64-bit digest of n bytes, continuing from h (start: SLPI_FNV_INIT). */
#define SLPI_FNV_INIT UINT64_C(0xcbf29ce484222325)
uint64_t slpi_fnv1a(uint64_t h, const void *data, size_t n);

/* Write c to path atomically: path.tmp, fsync, rename. */
int slpi_checkpoint_write(const char *path, const slpi_checkpoint *c, slpi_error *err);
/* Read and validate a checkpoint file; errors read "file:line: problem". */
int slpi_checkpoint_read(const char *path, slpi_checkpoint *c, slpi_error *err);
void slpi_checkpoint_free(slpi_checkpoint *c);

#endif
