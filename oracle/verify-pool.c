/* verify-pool.c — the files of one `slpi verify` pooled (oracle/README.md#statistics,
 * "Pooled paths"): each file's path identified by a digest of what it draws, so that no
 * path is pooled twice, and each file's proof folded into the run's. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "slpi/errors.h"
#include "slpi/noise.h"
#include "slpi/plan.h"
#include "slpi/problem-shape.h"
#include "slpi/tools.h"
#include "oracle/oracle.h"
#include "core/view-grid.h"

/* Fold file b's proof into the rows of all (counts summed, the worst scores). */
int slpi_verify_fold_proof(slpi_verify_result *a, slpi_verify_result *b, slpi_error *err)
{
    a->verdict = slpi_verdict_worse(a->verdict, b->verdict);
    a->global_verdict = slpi_verdict_worse(a->global_verdict, b->global_verdict);
    a->rows += b->rows;
    a->rows_pass += b->rows_pass;
    a->rows_fail += b->rows_fail;
    a->rows_unable += b->rows_unable;
    if (b->last_certified_step < a->last_certified_step) a->last_certified_step = b->last_certified_step;
    if (a->first_fail_step < 0) a->first_fail_step = b->first_fail_step;
    slpi_score_merge(&a->state, &b->state);
    slpi_score_merge(&a->inv, &b->inv);
    for (int i = 0; i < b->ninv && i < a->ninv; i++) {
        a->port_drift[i] = fmax(a->port_drift[i], b->port_drift[i]);
        a->exact_drift[i] = fmax(a->exact_drift[i], b->exact_drift[i]);
    }
    if (!a->global_why[0]) memcpy(a->global_why, b->global_why, sizeof a->global_why);
    if (!a->note[0]) memcpy(a->note, b->note, sizeof a->note);
    for (long i = a->rows_missing; i < SLPI_VERIFY_MISSING_NAMED && i - a->rows_missing < b->rows_missing; i++)
        a->missing_step[i] = b->missing_step[i - a->rows_missing];
    a->rows_missing += b->rows_missing;
    slpi_verify_local *L = &a->local;
    const slpi_verify_local *M = &b->local;
    L->verdict = slpi_verdict_worse(L->verdict, M->verdict);
    L->rows += M->rows;
    L->rows_pass += M->rows_pass;
    L->rows_fail += M->rows_fail;
    L->rows_unable += M->rows_unable;
    if (L->first_fail_step < 0) L->first_fail_step = M->first_fail_step;
    slpi_score_merge(&L->state, &M->state);
    L->rows_arb += M->rows_arb;
    L->rows_blas += M->rows_blas;
    L->rows_both += M->rows_both;
    a->files++;
    if (slpi_oracle_stat_merge(&a->stats, &b->stats) != 0)
        return slpi_error_set(err, SLPI_EINPUT, "verify: out of memory for the statistics' groups");
    return SLPI_OK;
}

/* A pooled file's path: a digest of what it is, its initial state and every increment
 * of its steps as the verifier draws them (the canonical generator's (seed, path) or the
 * noise file's content, truncated as the problem says), whatever the file's name, its
 * noise file's name or its header's seed= and path= say. Two 64-bit hashes of the bits.
 * Under --max-steps K (max_steps >= 0) the first max(1, K) increments: a header of 2e10
 * steps was drawn whole before K bounded anything. Two paths equal that far are called
 * one (refused, never pooled twice); canonical paths differ from their first increment. */
static void key_add(slpi_verify_path_key *k, const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t b;
        memcpy(&b, v + i, sizeof b);
        b = b == UINT64_C(0x8000000000000000) ? 0 : b; /* -0 and 0 are one increment */
        k->h[0] = (k->h[0] ^ b) * UINT64_C(0x100000001b3);
        k->h[1] = (k->h[1] + b) * UINT64_C(0x9e3779b97f4a7c15) ^ (k->h[1] >> 29);
    }
}

int slpi_verify_path_key_of(const slpi_plan *plan, long max_steps, slpi_verify_path_key *k, slpi_error *err)
{
    const slpi_problem *p = slpi_plan_problem(plan);
    *k = (slpi_verify_path_key){ { UINT64_C(0xcbf29ce484222325), UINT64_C(0x243f6a8885a308d3) } };
    int dim = slpi_problem_state_dim(p), M = slpi_problem_noise_count(p);
    double *v = malloc(((size_t)(dim > M ? dim : M) + 1) * sizeof *v);
    slpi_noise_source *src = NULL;
    int rc = v ? slpi_oracle_initial_state(plan, v, err) : slpi_error_set(err, SLPI_EINPUT, "verify: out of memory");
    if (rc == SLPI_OK) key_add(k, v, (size_t)dim);
    if (rc == SLPI_OK && M > 0) rc = slpi_noise_source_open(&src, p, err);
    long steps = slpi_view_grid(p)->steps;
    if (max_steps >= 0 && steps > (max_steps > 1 ? max_steps : 1)) steps = max_steps > 1 ? max_steps : 1;
    for (long n = 0; rc == SLPI_OK && M > 0 && n < steps; n++) {
        rc = slpi_noise_source_step(src, n, v, err);
        if (rc == SLPI_OK) key_add(k, v, (size_t)M);
    }
    if (src) slpi_noise_source_close(src);
    free(v);
    return rc;
}

/* Pooled files run distinct paths: the same path twice would count its rows twice in the
 * statistics (two ports on one path are verified in two calls). */
int slpi_verify_distinct_path(const slpi_verify_path_key *keys, int i, const char *const *names, slpi_error *err)
{
    for (int j = 0; j < i; j++)
        if (keys[j].h[0] == keys[i].h[0] && keys[j].h[1] == keys[i].h[1])
            return slpi_error_set(err, SLPI_EINPUT,
                                  "%s: the same path as %s (the same initial state and the same increments, "
                                  "whatever the names of the files, their noise files, seed= and path= say): pooled "
                                  "files must run distinct paths, or the statistics count one path twice; verify two "
                                  "ports of one path in separate calls",
                                  names[i], names[j]);
    return SLPI_OK;
}
