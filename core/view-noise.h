/* core/view-noise.h — the canonical noise: one view of a problem, read-only once finished
 * (docs/design.md#views). A file outside core/ reads a problem through the views it
 * needs (slpi_view_noise(p)->member), never through the struct (core/problem-struct.h), so a change
 * to another concern's members recompiles none of it. Not installed. */
#ifndef SLPI_CORE_VIEW_NOISE_H
#define SLPI_CORE_VIEW_NOISE_H

#include <stdint.h>
#include "slpi/limits.h"
#include "core/problem-options.h"

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

/* The canonical noise (docs/noise.md, docs/noise.md#contract). */
typedef struct slpi_noise_view {
    uint64_t seed;
    uint64_t path;
    slpi_trunc_mode truncate;
    double trunc_ell; /* ell of A_h = sqrt(2 ell |ln h|); papers: 2 */
    int refine;       /* fine levels summed into one step (0: none) */
    char noise_file[SLPI_PATH_MAX];
    int seed_from_file;                  /* key seed=file: slpi_problem_finish takes seed, path and
                              refine from noise_file's header (docs/noise.md#files) */
    uint64_t noise_digest;               /* FNV-1a 64 of noise_file's bytes, set by slpi_problem_finish
                              (0: not yet); a given one must be the file's */
    char noise_tau[SLPI_NOISE_TAU_TEXT]; /* key noise_tau: "" (white), one correlation time
                              or one per noise Hamiltonian (docs/noise.md#ou, core/noise-ou.c) */
} slpi_noise_view;

/* p's noise view: owned by p, valid while p lives and unchanged. */
const slpi_noise_view *slpi_view_noise(const slpi_problem *p);
/* p's noise view to change, for a problem the caller is building (before
 * slpi_problem_finish or slpi_problem_plan; a plan's problem is never changed). */
slpi_noise_view *slpi_view_noise_edit(slpi_problem *p);

#endif
