/* state-tokens.h — a fast run object's state as checkpoint tokens (core/checkpoint.c's
 * "x" lines): the run adapter's checkpoints (fast/path.c) and the handle API's stepper
 * checkpoints (api/stepper-state.c) write and read the same tokens. */
#ifndef SLPI_FAST_STATE_TOKENS_H
#define SLPI_FAST_STATE_TOKENS_H

#include "slpi/fast.h"

/* The state x (dim doubles) of s, its solver counters and what it carries from step to
 * step, as exact one-line tokens (*tokens and each token malloc'd; free them with
 * slpi_checkpoint_tokens_free); returns their count, -1 when out of memory. */
int slpi_fast_state_tokens(char ***tokens, const slpi_fast *s, const double *x, int dim);
/* Set x (dim doubles), the counters and the carry of s from n tokens of
 * slpi_fast_state_tokens; SLPI_EINPUT (nothing set) when they are not such tokens, and
 * errno ENOMEM when out of memory. */
int slpi_fast_state_untokens(slpi_fast *s, double *x, int dim, int n, char *const *tokens);

#endif
