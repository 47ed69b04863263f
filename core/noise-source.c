/* noise-source.c — a run's source of Wiener increments (docs/conventions.md#sde, docs/noise.md; docs/noise.md#contract): the
 * M increments of step n, from the canonical generator (core/noise.c, at the problem's
 * level: step size h, `refine` fine levels summed per step) or from a noise file
 * (core/noise-file.c), then clipped per docs/noise.md#truncation at D(h, ell) when the problem
 * truncates. Component k = 0..M-1 is the Wiener process W^{k+1} of the documentation.
 *
 * A noise file must match the problem: same M, same h (bit for bit: the level), first
 * step 0 and at least `steps` rows; a file written with truncation must have been
 * clipped at the threshold the problem uses (re-clipping is then the identity), and a
 * truncated file cannot feed an untruncated problem. The file's own seed, path and refine
 * must be the problem's too (a file from another path is another problem, not another
 * run of this one), unless the problem says seed=file: then slpi_problem_finish gives the
 * problem the file's (slpi_noise_source_bind, docs/noise.md#files), and the trajectory's
 * header records them with the file's digest (noise_digest).
 *
 * The generator is read in blocks of NOISE_BLOCK steps per component (the batch path of
 * slpi_noise_increments is an order of magnitude faster than one increment per call);
 * every increment is a pure function of its indices, so the block boundaries do not
 * change a bit, and a run resumed at any step sees the same values.
 *
 * A component with a correlation time (key noise_tau, docs/noise.md#ou, core/noise-ou.c)
 * is an Ornstein-Uhlenbeck process: its increments depend on the state eta, which the
 * source carries from block to block. A block that does not start where eta is (a
 * resume, a step asked out of order) first advances eta from step 0 (or from where it is,
 * if that is earlier), so every step still sees the same values; a checkpoint carries
 * eta (slpi_noise_source_ou_state) and a resume sets it (slpi_noise_source_ou_set).
 */
#include "slpi/errors.h"
#include "slpi/noise.h"
#include "slpi/problem-shape.h"
#include "core/problem-struct.h"
#include "core/noise.h"
#include "core/fpmode.h"
#include <stdint.h>
#include <stddef.h>

#include <limits.h>
#include <math.h>
#include <stdlib.h>

/* Steps generated at once per component. */
#define NOISE_BLOCK 64

struct slpi_noise_source {
    uint64_t seed, path;
    int M, refine, truncate;
    double h, D;
    long steps, clipped;
    double *file;  /* steps x M values of a noise file, or NULL: the generator */
    double *block; /* M x NOISE_BLOCK generated increments of steps b0 .. b0 + nb - 1 */
    long b0, nb;
    /* OU components (coloured, 0 when none): tau[k] > 0 with their coefficients ou[k] */
    int coloured;
    double *tau, *eta, *eta_at; /* eta[k]: eta at the start of step ou_next; eta_at: M x NOISE_BLOCK, at
                                   the start of each step of the block */
    slpi_ou_coef *ou;
    long ou_next;
};

/* eta of the OU components at step 0 (docs/noise.md#ou: the stationary start). */
static void source_ou_reset(slpi_noise_source *s)
{
    for (int k = 0; k < s->M; k++)
        s->eta[k] = s->tau[k] > 0 ? slpi_noise_ou_start(s->seed, s->path, (uint32_t)k, &s->ou[k]) : 0.0;
    s->ou_next = 0;
}

/* Steps n .. n + nb - 1 of OU component k into out (NOISE_BLOCK doubles), eta advanced to
 * step n first. */
static int source_ou_block(slpi_noise_source *s, int k, long n, long nb, double *out, double *eta_at, slpi_error *err)
{
    int rc = SLPI_OK;
    for (long m = s->ou_next; rc == SLPI_OK && m < n; m += NOISE_BLOCK) { /* advance eta (the values unused) */
        long len = n - m < NOISE_BLOCK ? n - m : NOISE_BLOCK;
        rc = slpi_noise_ou_steps(s->seed, s->path, (uint32_t)k, s->h, s->refine, &s->ou[k], (uint64_t)m, (size_t)len,
                                 &s->eta[k], out, NULL, err);
    }
    if (rc != SLPI_OK) return rc;
    return slpi_noise_ou_steps(s->seed, s->path, (uint32_t)k, s->h, s->refine, &s->ou[k], (uint64_t)n, (size_t)nb,
                               &s->eta[k], out, eta_at, err);
}

/* Generate the block of steps that starts at n (component-major). */
static int source_fill_block(slpi_noise_source *s, long n, slpi_error *err)
{
    long nb = s->steps - n < NOISE_BLOCK ? s->steps - n : NOISE_BLOCK;
    if (s->coloured && n < s->ou_next) source_ou_reset(s);
    for (int k = 0; k < s->M; k++) {
        double *col = s->block + (size_t)k * NOISE_BLOCK;
        int rc = s->coloured && s->tau[k] > 0
            ? source_ou_block(s, k, n, nb, col, s->eta_at + (size_t)k * NOISE_BLOCK, err)
            : slpi_noise_increments(s->seed, s->path, (uint32_t)k, s->h, s->refine, (uint64_t)n, (size_t)nb, col, err);
        if (rc != SLPI_OK) {
            s->nb = 0; /* eta may have moved: no block, and the next one starts over */
            if (s->coloured) s->ou_next = LONG_MAX;
            return rc;
        }
    }
    if (s->coloured) s->ou_next = n + nb;
    s->b0 = n;
    s->nb = nb;
    return SLPI_OK;
}

/* The file's own level (h), seed, path and refine against the problem's, and its digest
 * against a recorded one: SLPI_EINPUT naming both values and the file (as noise_file=F, the key
 * Python's SlpiError names). */
static int source_file_agrees(const slpi_problem *p, const slpi_noise_header *hd, slpi_error *err)
{
    const char *f = p->noise.noise_file;
    if (hd->h != p->grid.h) {
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s: wrong level: step size %.17g (%a), "
                              "the problem has h = %.17g (%a)",
                              f, hd->h, hd->h, p->grid.h, p->grid.h);
    }
    static const char *const what[] = { "seed", "path", "refine" };
    const uint64_t own[] = { hd->seed, hd->path, (uint64_t)hd->refine },
                   want[] = { p->noise.seed, p->noise.path, (uint64_t)p->noise.refine };
    for (int i = 0; i < 3; i++)
        if (own[i] != want[i])
            return slpi_error_set(err, SLPI_EINPUT,
                                  "noise_file=%s: the file's own %s is %llu, the problem has "
                                  "%s=%llu (seed=file takes the file's seed, path and refine; docs/noise.md#files)",
                                  f, what[i], (unsigned long long)own[i], what[i], (unsigned long long)want[i]);
    if (p->noise.noise_digest && p->noise.noise_digest != hd->digest)
        return slpi_error_set(err, SLPI_EINPUT,
                              "noise_file=%s: the file's digest is %llu, the problem records "
                              "noise_digest=%llu: the file changed",
                              f, (unsigned long long)hd->digest, (unsigned long long)p->noise.noise_digest);
    return SLPI_OK;
}

int slpi_noise_source_bind(slpi_problem *p, slpi_error *err)
{
    slpi_noise_header hd;
    int rc = slpi_noise_file_read(p->noise.noise_file, &hd, NULL, err);
    if (rc != SLPI_OK) return rc;
    if (p->noise.seed_from_file) {
        p->noise.seed = hd.seed;
        p->noise.path = hd.path;
        p->noise.refine = hd.refine;
    }
    rc = source_file_agrees(p, &hd, err);
    if (rc == SLPI_OK) p->noise.noise_digest = hd.digest;
    return rc;
}

static int source_check_file(slpi_noise_source *s, const slpi_problem *p, slpi_error *err)
{
    slpi_noise_header hd;
    int rc = slpi_noise_file_read(p->noise.noise_file, &hd, &s->file, err);
    if (rc != SLPI_OK || (rc = source_file_agrees(p, &hd, err)) != SLPI_OK) {
        return rc;
    }
    const char *f = p->noise.noise_file;
    if (hd.components != s->M) {
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s: %d components per step, the problem "
                              "has M = %d",
                              f, hd.components, s->M);
    }
    if (hd.first != 0 || hd.steps < s->steps) {
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s: holds steps %llu..%llu, the run needs "
                              "steps 0..%ld",
                              f, (unsigned long long)hd.first,
                              (unsigned long long)hd.first + (unsigned long long)hd.steps - 1, s->steps - 1);
    }
    if (hd.truncated && !s->truncate) {
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s: increments were truncated at %.17g, "
                              "the problem runs untruncated",
                              f, hd.threshold);
    }
    if (hd.truncated && hd.threshold != s->D) {
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s: increments were truncated at %.17g, "
                              "the problem truncates at %.17g",
                              f, hd.threshold, s->D);
    }
    return SLPI_OK;
}

/* The OU components of the problem (key noise_tau): their coefficients and eta at step 0. */
static int source_open_ou(slpi_noise_source *s, const slpi_problem *p, slpi_error *err)
{
    if (!p->noise.noise_tau[0] || s->M == 0) return SLPI_OK;
    if (!(s->tau = calloc((size_t)s->M, sizeof *s->tau)))
        return slpi_error_set(err, SLPI_EINPUT, "noise source: out of memory");
    int any = slpi_problem_noise_tau(p, s->tau, err);
    if (any <= 0) return any < 0 ? SLPI_EINPUT : SLPI_OK;
    if (p->noise.noise_file[0])
        return slpi_error_set(err, SLPI_EINPUT,
                              "noise_tau=%.80s with noise_file: a noise file holds white increments; "
                              "coloured noise is drawn from the canonical stream (drop one of the two)",
                              p->noise.noise_tau);
    const double delta = ldexp(p->grid.h, -p->noise.refine);
    s->eta = calloc((size_t)s->M, sizeof *s->eta);
    s->eta_at = calloc((size_t)s->M * NOISE_BLOCK, sizeof *s->eta_at);
    s->ou = calloc((size_t)s->M, sizeof *s->ou);
    if (!s->eta || !s->eta_at || !s->ou) return slpi_error_set(err, SLPI_EINPUT, "noise source: out of memory");
    for (int k = 0; k < s->M; k++)
        if (s->tau[k] > 0 && slpi_noise_ou_coef(&s->ou[k], s->tau[k], delta) != 0)
            return slpi_error_set(err, SLPI_EINPUT, "noise_tau: tau=%g on the fine step %g: no coefficients", s->tau[k],
                                  delta);
    s->coloured = 1;
    source_ou_reset(s);
    return SLPI_OK;
}

int slpi_noise_source_open(slpi_noise_source **out, const slpi_problem *p, slpi_error *err)
{
    *out = NULL;
    slpi_noise_source *s = calloc(1, sizeof *s);
    if (!s) {
        return slpi_error_set(err, SLPI_EINPUT, "noise source: out of memory");
    }
    s->seed = p->noise.seed;
    s->path = p->noise.path;
    s->M = slpi_problem_noise_count(p);
    s->refine = p->noise.refine;
    s->h = p->grid.h;
    s->steps = p->grid.steps;
    s->truncate = slpi_problem_truncates(p);
    int rc = SLPI_OK;
    if (!(p->grid.h > 0) || !isfinite(p->grid.h)) {
        rc = slpi_error_set(err, SLPI_EINPUT, "h=%g: the step size must be positive", p->grid.h);
    } else if (p->grid.steps < 0) {
        rc = slpi_error_set(err, SLPI_EINPUT, "steps=%ld: must be >= 0", p->grid.steps);
    } else if (p->noise.path >> 32) {
        rc = slpi_error_set(err, SLPI_EINPUT, "path=%llu: paths are numbered 0..2^32-1",
                            (unsigned long long)p->noise.path);
    } else if (p->noise.refine < 0 || p->noise.refine > SLPI_NOISE_MAX_REFINE ||
               (uint64_t)p->grid.steps >= (UINT64_C(1) << (62 - p->noise.refine))) {
        rc = slpi_error_set(err, SLPI_EINPUT,
                            "refine=%d: must be 0..%d with steps*2^refine "
                            "< 2^62",
                            p->noise.refine, SLPI_NOISE_MAX_REFINE);
    } else if (slpi_noise_check_work((uint64_t)p->grid.steps * (uint64_t)s->M, p->noise.refine, err) != SLPI_OK) {
        rc = SLPI_EINPUT;
    } else if (s->truncate && !(p->grid.h < 1)) {
        rc = slpi_error_set(err, SLPI_EINPUT,
                            "truncation needs 0 < h < 1 (docs/noise.md#truncation: "
                            "A_1 = 0), got h=%g",
                            p->grid.h);
    } else if (s->truncate && (!(p->noise.trunc_ell > 0) || !isfinite(p->noise.trunc_ell))) {
        rc = slpi_error_set(err, SLPI_EINPUT, "trunc_ell=%g: must be positive", p->noise.trunc_ell);
    }
    if (rc == SLPI_OK && s->truncate) {
        s->D = slpi_problem_noise_threshold(p);
    }
    if (rc == SLPI_OK) {
        slpi_fpmode r = slpi_round_nearest(); /* eta_0 and the coefficients' cut, as every caller's: core/fpmode.h */
        rc = source_open_ou(s, p, err);
        slpi_round_restore(r);
    }
    if (rc == SLPI_OK && p->noise.noise_file[0]) {
        rc = source_check_file(s, p, err);
    } else if (rc == SLPI_OK && s->M > 0) {
        s->block = malloc((size_t)s->M * NOISE_BLOCK * sizeof(double));
        if (!s->block) rc = slpi_error_set(err, SLPI_EINPUT, "noise source: out of memory");
    }
    if (rc != SLPI_OK) {
        slpi_noise_source_close(s);
        return rc;
    }
    *out = s;
    return SLPI_OK;
}

int slpi_noise_source_step(slpi_noise_source *s, long n, double *dW, slpi_error *err)
{
    if (n < 0 || n >= s->steps) {
        return slpi_error_set(err, SLPI_EINPUT, "noise: step %ld outside 0..%ld", n, s->steps - 1);
    }
    if (s->file) {
        for (int k = 0; k < s->M; k++) dW[k] = s->file[(size_t)n * (size_t)s->M + (size_t)k];
    } else if (s->M > 0) {
        int rc = n < s->b0 || n >= s->b0 + s->nb ? source_fill_block(s, n, err) : SLPI_OK;
        if (rc != SLPI_OK) return rc;
        for (int k = 0; k < s->M; k++) dW[k] = s->block[(size_t)k * NOISE_BLOCK + (size_t)(n - s->b0)];
    }
    if (s->truncate) {
        s->clipped += slpi_noise_clip(dW, (size_t)s->M, s->D);
    }
    return SLPI_OK;
}

int slpi_noise_source_ou_state(const slpi_noise_source *s, long n, double *eta)
{
    if (!s->coloured) return 0;
    if (s->nb > 0 && n >= s->b0 && n < s->b0 + s->nb) {
        for (int k = 0; k < s->M; k++)
            eta[k] = s->tau[k] > 0 ? s->eta_at[(size_t)k * NOISE_BLOCK + (size_t)(n - s->b0)] : 0.0;
    } else if (n == s->ou_next) {
        for (int k = 0; k < s->M; k++) eta[k] = s->eta[k];
    } else {
        return -1;
    }
    return s->M;
}

int slpi_noise_source_ou_set(slpi_noise_source *s, long n, const double *eta)
{
    if (!s->coloured || n < 0 || n > s->steps) return -1;
    for (int k = 0; k < s->M; k++) s->eta[k] = s->tau[k] > 0 ? eta[k] : 0.0;
    s->ou_next = n;
    s->nb = 0;
    return 0;
}

long slpi_noise_source_clipped(const slpi_noise_source *s)
{
    return s->clipped;
}

void slpi_noise_source_close(slpi_noise_source *s)
{
    if (s) {
        free(s->file);
        free(s->block);
        free(s->tau);
        free(s->eta);
        free(s->eta_at);
        free(s->ou);
        free(s);
    }
}

int slpi_problem_many_paths(const slpi_problem *p, int given, const char *who, const char *first, slpi_error *err)
{
    if (!given && p->noise.path == 0) return SLPI_OK;
    const unsigned long long path = (unsigned long long)p->noise.path;
    if (!first)
        return slpi_error_set(err, SLPI_EINPUT,
                              "path=%llu: %s numbers its noise paths itself (path= is the one path of "
                              "`slpi run`, which it would ignore): drop path=",
                              path, who);
    return slpi_error_set(err, SLPI_EINPUT,
                          "path=%llu: %s runs the noise paths %s P .. P + N - 1 (path= is the one path of "
                          "`slpi run`, which it would ignore): give %s instead",
                          path, who, first, first);
}

long slpi_noise_rows(double *out, uint64_t seed, uint64_t path, int M, double h, int refine, uint64_t first,
                     size_t count, double D)
{
    if (M < 0) return -1;
    double *col = count > 1 ? malloc(count * sizeof *col) : NULL;
    if (count > 1 && !col) return -1;
    for (int k = 0; k < M; k++) {
        if (slpi_noise_increments(seed, path, (uint32_t)k, h, refine, first, count, count == 1 ? out + k : col, NULL) !=
            SLPI_OK) {
            free(col);
            return -1;
        }
        if (count > 1)
            for (size_t i = 0; i < count; i++) out[i * (size_t)M + (size_t)k] = col[i];
    }
    free(col);
    return slpi_noise_clip(out, count * (size_t)M, D);
}
