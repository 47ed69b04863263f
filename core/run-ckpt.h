/* run-ckpt.h — a run's checkpoints and its resume (core/run-ckpt.c), for the run driver
 * core/run.c. Private to core/. */
#ifndef SLPI_CORE_RUN_CKPT_H
#define SLPI_CORE_RUN_CKPT_H

#include <stdint.h>
#include <stdio.h>

typedef struct slpi_error slpi_error; /* slpi/errors.h */
#include "slpi/run.h"
#include "core/checkpoint.h"
#include "core/rows.h"
#include "core/steps.h"

typedef struct {
    const slpi_run_ckpt *ck;
    char *problem;   /* this run's problem text */
    uint64_t digest; /* FNV-1a of output bytes [0, upto) */
    long upto;
    slpi_steps *steps; /* the run's steps: its noise source's OU state (docs/noise.md#ou) */
} slpi_run_ckpt_state;

/* SLPI_OK when ck asks for nothing or can be done (a path that saves its state, the
 * output in a regular file, a positive cadence); else the error. */
int slpi_run_ckpt_check(const slpi_run_ckpt *ck, const slpi_path_ops *ops, FILE *out, slpi_error *err);

/* The problem as slpi_problem_write text (malloc'd; NULL when out of memory). */
char *slpi_run_ckpt_problem_text(const slpi_problem *p);

/* Read the checkpoint ck->resume into *c and pin the complex product it records
 * (slpi_blas_zproduct_pin), before the run's path is made: a resume forms its products as
 * the run it continues did, or is refused. */
int slpi_run_ckpt_read(const slpi_run_ckpt *ck, slpi_checkpoint *c, slpi_error *err);

/* Check the checkpoint c (read by slpi_run_ckpt_read) against this run and restore the
 * path's state, the counters and the output (cut back to the checkpoint's bytes, last). */
int slpi_run_ckpt_resume(slpi_run_ckpt_state *cs, const slpi_checkpoint *c, const slpi_problem *p,
                         const slpi_rows *rows, const slpi_path_ops *ops, void *ctx, FILE *out, int hex,
                         slpi_run_result *res, long *total_iters, slpi_error *err);

/* Write a checkpoint at res->steps_done: the output flushed and fsync'ed, then the file. */
int slpi_run_ckpt_take(slpi_run_ckpt_state *cs, const slpi_path_ops *ops, void *ctx, FILE *out, int hex, int dim,
                       const slpi_run_result *res, long total_iters, slpi_error *err);

#endif
