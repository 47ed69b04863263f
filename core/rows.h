/* rows.h — the output grid (docs/conventions.md#save-at): after which steps a run writes a
 * row. Step 0 (the initial state) always; then every output_every-th step and the last, or,
 * when the problem has save_at, exactly the steps at those times. One home for the run
 * driver (core/run.c) and the handle API's shapes and steppers (api/api.c). */
#ifndef SLPI_ROWS_H
#define SLPI_ROWS_H

typedef struct slpi_error slpi_error; /* slpi/errors.h */
typedef struct slpi_problem slpi_problem;

typedef struct {
    long every, steps;
    long *at;       /* save_at's steps, increasing, each in 1..steps (NULL: the every-th grid) */
    long nat, next; /* their count; the index of the next one not yet passed */
} slpi_rows;

/* The problem's output grid (SLPI_EINPUT: save_at is no increasing list of times on the
 * step grid within the run, the message naming the time and the grid times nearest it). */
int slpi_rows_open(slpi_rows *r, const slpi_problem *p, slpi_error *err);
/* every > 0: step 0, every every-th step and the last; every = 0: the problem's grid
 * (slpi_rows_open); every < 0: SLPI_EINPUT. */
int slpi_rows_open_every(slpi_rows *r, const slpi_problem *p, long every, slpi_error *err);
void slpi_rows_close(slpi_rows *r);
/* 1 if step `step` (1..steps; asked in increasing order, from any first step) ends with a row. */
int slpi_rows_take(slpi_rows *r, long step);
/* The rows of the whole run, the initial one included. */
long slpi_rows_count(const slpi_rows *r);
/* The step that ends row i (0 <= i < slpi_rows_count: 0 is the initial row). */
long slpi_rows_step(const slpi_rows *r, long i);
/* The last step <= step that ends with a row (0: the initial row). */
long slpi_rows_last(const slpi_rows *r, long step);

#endif
