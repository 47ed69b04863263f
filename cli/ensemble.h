/* cli/ensemble.h — what `slpi ensemble` (cli/cmd-ensemble.c) shares with its state files,
 * merges and checkpoints (cli/ensemble-state.c). */
#ifndef SLPI_CLI_ENSEMBLE_H
#define SLPI_CLI_ENSEMBLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct slpi_error slpi_error; /* slpi/errors.h */
#include "slpi/ensemble.h"

#define ENS_MAX_GRID 8      /* grid keys */
#define ENS_MAX_VALUES 64   /* values of one key */
#define ENS_MAX_POINTS 4096 /* grid points */
#define ENS_MAX_KEYS 64     /* key=value arguments */
#define ENS_MAX_PARTS 4096  /* --merge files */

typedef struct {
    char *key;
    char *value[ENS_MAX_VALUES];
    int n;
} grid_key;

typedef struct {
    const char *preset, *config;
    int nk;
    char **keys, **vals;
    grid_key grid[ENS_MAX_GRID];
    int ngrid;
    long paths;
    uint64_t first;
    long every; /* 0: save_at's times, or step 0 and the last */
    int threads, ref;
    int rank, nranks;                /* MPI */
    FILE *state;                     /* --state: the exported states, or NULL */
    const char *part[ENS_MAX_PARTS]; /* --merge files, in path order once read */
    uint64_t part_first[ENS_MAX_PARTS];
    long part_paths[ENS_MAX_PARTS];
    int nparts;
    int path_key;                    /* path= given on the command line or in --grid (refused) */
    long points;                     /* grid points */
    const char *checkpoint, *resume; /* --checkpoint, --resume files, or NULL */
    long ck_every;                   /* paths between checkpoints, a multiple of SLPI_ENSEMBLE_BLOCK */
    char *ck_done;                   /* the checkpoint lines of the grid points completed (malloc'd) */
    size_t ck_len;
    long nsaved; /* --resume: the grid points it holds, each one's state (export layout) */
    double **saved;
    long *saved_len, *saved_paths;
    uint64_t *saved_digest;
} ens_cfg;

/* The digest a state file or a checkpoint records for grid point `point`'s problem p:
 * FNV-1a over the point and the whole of p's text. */
int slpi_cli_ens_digest(uint64_t *digest, const slpi_problem *p, long point, slpi_error *err);
/* --state: the state file's header line, written to c->state. */
void slpi_cli_ens_state_head(const ens_cfg *c);
/* --merge: the files' headers, sorted by first path and checked to tile the run's range. */
int slpi_cli_ens_parts_read(ens_cfg *c, slpi_error *err);
/* --merge: grid point `point` of every file, imported into e in path order. */
int slpi_cli_ens_merge_point(const ens_cfg *c, long point, const slpi_problem *p, slpi_ensemble *e, slpi_error *err);
/* --state: grid point `point`'s exported state, written to c->state. */
int slpi_cli_ens_state_write(const ens_cfg *c, long point, const slpi_problem *p, const slpi_ensemble *e,
                             slpi_error *err);
/* --resume: read the checkpoint c->resume (refused if it is of another ensemble, torn or
 * altered) into c->saved. */
int slpi_cli_ens_resume_read(ens_cfg *c, slpi_error *err);
/* --resume: import into the new ensemble e of grid point `point` the paths the checkpoint
 * saved of it, if any (refused if the point's problem is another). */
int slpi_cli_ens_resume_point(const ens_cfg *c, long point, const slpi_problem *p, slpi_ensemble *e, slpi_error *err);
/* --checkpoint: write c->checkpoint atomically: the grid points completed and point
 * `point`'s paths so far (e); when `complete`, point `point` joins the completed ones. */
int slpi_cli_ens_checkpoint(ens_cfg *c, long point, const slpi_problem *p, const slpi_ensemble *e, int complete,
                            slpi_error *err);
/* Free what the checkpoint and the resume hold. */
void slpi_cli_ens_checkpoint_free(ens_cfg *c);

#endif
