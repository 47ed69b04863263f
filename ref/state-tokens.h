/* state-tokens.h — a certified run object's state as checkpoint tokens (core/checkpoint.c's
 * "x" lines): the run adapter's checkpoints (ref/path.c) and the handle API's stepper
 * checkpoints (api/stepper-state.c) write and read the same tokens. */
#ifndef SLPI_REF_STATE_TOKENS_H
#define SLPI_REF_STATE_TOKENS_H

#include "slpi/ref.h"

/* The balls x[dim] and, where s propagates in Lohner form, its set, as exact one-line
 * tokens (arb_dump_str; *tokens and each token malloc'd, freed with
 * slpi_checkpoint_tokens_free); returns their count, -1 when out of memory. */
int slpi_ref_state_tokens(char ***tokens, const slpi_ref *s, arb_srcptr x, int dim);
/* Set x[dim] and the Lohner set of s from n tokens of slpi_ref_state_tokens;
 * SLPI_EINPUT (x unchanged) when they are not such tokens. */
int slpi_ref_state_untokens(slpi_ref *s, arb_ptr x, int dim, int n, char *const *tokens);

#endif
