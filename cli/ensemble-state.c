/* cli/ensemble-state.c — what of `slpi ensemble` outlives one process (docs/api.md#ensembles):
 *   - state files (--state) and their merge (--merge), "slpi ensemble state" version 2:
 *       # slpi ensemble state 2 first_path=F paths=N every=E ref=R points=P
 *       point=K digest=D len=L sum=S    (grid points 0, 1, ...: D the digest of the point
 *       V_1 ... V_L, one a line           and its whole problem text, V the statistics'
 *                                         exact state, slpi_ensemble_export, %a; S the
 *                                         FNV-1a 64, hex, of F, K, L and the V's bits)
 *     A merge refuses a point whose S is not that of what it read before it imports it:
 *     an edited statistic (or first_path=) would be merged into a wrong report (version 1
 *     had no S); an edited paths= is refused by the count the statistics hold;
 *   - checkpoints (--checkpoint, --resume), format "slpi-ensemble-checkpoint" version 2 in
 *     the container of core/container.c (written atomically; each section's digest and
 *     an end digest, so a torn or edited file is refused naming the section):
 *       # slpi-ensemble-checkpoint 2
 *       section ensemble 1 HEX16
 *       ensemble first_path=F paths=N every=E ref=R points=P     (the run's own line)
 *       section points K HEX16
 *       point K DIGEST PATHS LEN V_1 ... V_LEN                    (grid points 0, 1, ...:
 *                                   each complete (PATHS = N) but the last; the state
 *                                   of its first PATHS paths, %a, export layout)
 *       end HEX16
 *     A resume imports each saved state into a new ensemble of its point and runs the
 *     rest of the paths: the statistics, and so the report, are those of one run, bit for
 *     bit (api/ensemble.c: the tree depends on the number of paths alone). */
#define _XOPEN_SOURCE 700 /* open_memstream */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <stdint.h>

#include "slpi/errors.h"
#include "slpi/problem.h"
#include "slpi/ensemble.h"
#include "cli/ensemble.h"
#include "core/checkpoint.h"
#include "core/digest.h"
#include "core/parse.h"

#define ENS_CKPT_FORMAT "slpi-ensemble-checkpoint"
#define ENS_CKPT_VERSION 2

/* The digest that a state file records for grid point `point`'s problem p: FNV-1a over
 * the point and the whole of p's text, whatever its length (a digest of a prefix took a
 * state of another model for this one when their texts first differed past it). */
int slpi_cli_ens_digest(uint64_t *digest, const slpi_problem *p, long point, slpi_error *err)
{
    long n = slpi_problem_text(p, NULL, 0);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!text || slpi_problem_text(p, text, (size_t)n + 1) != n) {
        free(text);
        return slpi_error_set(err, SLPI_EINPUT, "the problem's text for its digest: %s",
                              n < 0 ? slpi_api_last_error() : "out of memory");
    }
    *digest = slpi_fnv1a(slpi_fnv1a(SLPI_FNV_INIT, &point, sizeof point), text, (size_t)n);
    free(text);
    return SLPI_OK;
}

#define ENS_STATE_VERSION 2

void slpi_cli_ens_state_head(const ens_cfg *c)
{
    fprintf(c->state, "# slpi ensemble state %d first_path=%llu paths=%ld every=%ld ref=%d points=%ld\n",
            ENS_STATE_VERSION, (unsigned long long)c->first, c->paths, c->every, c->ref, c->points);
}

/* A state file's header: its first path, paths, --save-every, --ref and grid points. */
static int state_header(FILE *f, const char *name, uint64_t *first, long *paths, long *every, int *ref, long *points,
                        slpi_error *err)
{
    unsigned long long fp;
    int version = 0;
    if (!f ||
        fscanf(f, "# slpi ensemble state %d first_path=%llu paths=%ld every=%ld ref=%d points=%ld", &version, &fp,
               paths, every, ref, points) != 6)
        return slpi_error_set(err, SLPI_EINPUT, "--merge %s: %s", name,
                              f ? "not an slpi ensemble state file" : "cannot open");
    if (version != ENS_STATE_VERSION)
        return slpi_error_set(err, SLPI_EINPUT,
                              "--merge %s: an ensemble state of version %d, this slpi reads version %d (its "
                              "statistics carry a digest): write it again",
                              name, version, ENS_STATE_VERSION);
    *first = fp;
    return SLPI_OK;
}

/* The digest S of grid point `point`'s statistics v[0..len) in a state file whose paths
 * start at first: of the values as %a writes and reads them (a NaN, which a
 * diagnostic's statistics may hold, as the default NaN of its sign). */
static uint64_t state_sum(uint64_t first, long point, const double *v, long len)
{
    const uint64_t head[3] = { first, (uint64_t)point, (uint64_t)len };
    uint64_t h = slpi_fnv1a(SLPI_FNV_INIT, head, sizeof head);
    for (long j = 0; j < len; j++) {
        const double x = isnan(v[j]) ? copysign(NAN, v[j]) : v[j];
        h = slpi_fnv1a(h, &x, sizeof x);
    }
    return h;
}

/* The --merge files' headers: sorted by first path, checked to tile the run's range. */
int slpi_cli_ens_parts_read(ens_cfg *c, slpi_error *err)
{
    int rc = SLPI_OK;
    for (int i = 0; rc == SLPI_OK && i < c->nparts; i++) {
        FILE *f = fopen(c->part[i], "r");
        long every, points, want = 1;
        int ref;
        rc = state_header(f, c->part[i], &c->part_first[i], &c->part_paths[i], &every, &ref, &points, err);
        for (int g = 0; g < c->ngrid; g++) want *= c->grid[g].n;
        if (rc == SLPI_OK && (every != c->every || ref != c->ref || points != want))
            rc = slpi_error_set(err, SLPI_EINPUT,
                                "--merge %s: saved with --save-every %ld%s and %ld grid points, "
                                "this run has %ld%s and %ld",
                                c->part[i], every, ref ? " --ref" : "", points, c->every, c->ref ? " --ref" : "", want);
        if (f) fclose(f);
        for (int j = i; j > 0 && c->part_first[j] < c->part_first[j - 1]; j--) { /* insertion sort */
            const char *t = c->part[j];
            uint64_t u = c->part_first[j];
            long v = c->part_paths[j];
            c->part[j] = c->part[j - 1], c->part_first[j] = c->part_first[j - 1],
            c->part_paths[j] = c->part_paths[j - 1];
            c->part[j - 1] = t, c->part_first[j - 1] = u, c->part_paths[j - 1] = v;
        }
    }
    uint64_t at = c->first;
    for (int i = 0; rc == SLPI_OK && i < c->nparts; at += (uint64_t)c->part_paths[i++])
        if (c->part_first[i] != at)
            rc = slpi_error_set(err, SLPI_EINPUT,
                                "--merge %s: its paths start at %llu, the next path of the run is "
                                "%llu (the files must tile --first-path %llu --paths %ld)",
                                c->part[i], (unsigned long long)c->part_first[i], (unsigned long long)at,
                                (unsigned long long)c->first, c->paths);
    if (rc == SLPI_OK && at != c->first + (uint64_t)c->paths)
        rc = slpi_error_set(err, SLPI_EINPUT, "--merge: the files hold paths %llu..%llu, the run asks for %llu..%llu",
                            (unsigned long long)c->first, (unsigned long long)at - 1, (unsigned long long)c->first,
                            (unsigned long long)(c->first + (uint64_t)c->paths - 1));
    return rc;
}

/* Grid point `point` of every --merge file, imported into e in path order. */
int slpi_cli_ens_merge_point(const ens_cfg *c, long point, const slpi_problem *p, slpi_ensemble *e, slpi_error *err)
{
    uint64_t digest;
    int rc = slpi_cli_ens_digest(&digest, p, point, err);
    for (int i = 0; rc == SLPI_OK && i < c->nparts; i++) {
        FILE *f = fopen(c->part[i], "r");
        uint64_t first;
        long paths, every, points, k = -1, len = 0;
        unsigned long long d = 0, sum = 0;
        int ref;
        double *buf = NULL;
        rc = state_header(f, c->part[i], &first, &paths, &every, &ref, &points, err);
        while (rc == SLPI_OK && k != point) {
            if (fscanf(f, " point=%ld digest=%llu len=%ld sum=%llx", &k, &d, &len, &sum) != 4 || len < 2 ||
                len > (1L << 40)) {
                rc = slpi_error_set(err, SLPI_EINPUT, "--merge %s: grid point %ld missing or damaged", c->part[i],
                                    point);
                break;
            }
            double *t = realloc(buf, (size_t)len * sizeof *buf);
            if (!t)
                rc = slpi_error_set(err, SLPI_EINPUT, "out of memory");
            else
                buf = t;
            for (long j = 0; rc == SLPI_OK && j < len; j++)
                if (fscanf(f, "%la", &buf[j]) != 1)
                    rc = slpi_error_set(err, SLPI_EINPUT, "--merge %s: grid point %ld cut short", c->part[i], k);
        }
        if (rc == SLPI_OK && d != digest)
            rc = slpi_error_set(err, SLPI_EINPUT,
                                "--merge %s: grid point %ld was run on another problem (its keys "
                                "differ from this run's)",
                                c->part[i], point);
        if (rc == SLPI_OK && state_sum(first, point, buf, len) != sum) /* an edited statistic */
            rc = slpi_error_set(err, SLPI_EINPUT,
                                "--merge %s: grid point %ld: its statistics differ from those written (their digest "
                                "is %016llx, the file records sum=%016llx): the file was altered (a statistic, or "
                                "first_path=)",
                                c->part[i], point, (unsigned long long)state_sum(first, point, buf, len), sum);
        long before = slpi_ensemble_paths(e);
        if (rc == SLPI_OK && slpi_ensemble_import(e, buf, len) != SLPI_OK)
            rc = slpi_error_set(err, SLPI_EINPUT, "--merge %s: %s", c->part[i], slpi_api_last_error());
        if (rc == SLPI_OK && slpi_ensemble_paths(e) - before != paths) /* an edited header */
            rc = slpi_error_set(err, SLPI_EINPUT,
                                "--merge %s: its header says paths=%ld, its statistics hold %ld "
                                "paths (the file was altered)",
                                c->part[i], paths, slpi_ensemble_paths(e) - before);
        free(buf);
        if (f) fclose(f);
    }
    return rc;
}

/* --state: grid point `point`'s exported state. */
int slpi_cli_ens_state_write(const ens_cfg *c, long point, const slpi_problem *p, const slpi_ensemble *e,
                             slpi_error *err)
{
    uint64_t digest;
    if (slpi_cli_ens_digest(&digest, p, point, err) != SLPI_OK) return err->code;
    long len = slpi_ensemble_export(e, NULL);
    double *buf = malloc((size_t)len * sizeof *buf);
    if (!buf) return slpi_error_set(err, SLPI_EINPUT, "out of memory");
    slpi_ensemble_export(e, buf);
    fprintf(c->state, "point=%ld digest=%llu len=%ld sum=%016llx\n", point, (unsigned long long)digest, len,
            (unsigned long long)state_sum(c->first, point, buf, len));
    for (long j = 0; j < len; j++) fprintf(c->state, "%a\n", buf[j]);
    free(buf);
    return SLPI_OK;
}

/* ------------------------------------------------------------------ checkpoints */

/* The run's own line: what a checkpoint must share with the run that resumes it. */
static void ck_header(const ens_cfg *c, char *buf, size_t n)
{
    snprintf(buf, n, "first_path=%llu paths=%ld every=%ld ref=%d points=%ld", (unsigned long long)c->first, c->paths,
             c->every, c->ref, c->points);
}

int slpi_cli_ens_checkpoint(ens_cfg *c, long point, const slpi_problem *p, const slpi_ensemble *e, int complete,
                            slpi_error *err)
{
    uint64_t digest;
    if (slpi_cli_ens_digest(&digest, p, point, err) != SLPI_OK) return err->code;
    long len = slpi_ensemble_export(e, NULL);
    double *buf = malloc((size_t)len * sizeof *buf);
    char *line = NULL, head[256];
    size_t nline = 0;
    FILE *f = buf ? open_memstream(&line, &nline) : NULL;
    if (f) {
        slpi_ensemble_export(e, buf);
        fprintf(f, "point %ld %llu %ld %ld", point, (unsigned long long)digest, slpi_ensemble_paths(e), len);
        for (long j = 0; j < len; j++) fprintf(f, " %a", buf[j]);
        fputc('\n', f);
    }
    free(buf);
    if (!f || fclose(f) != 0) {
        free(line);
        return slpi_error_set(err, SLPI_EINPUT, "--checkpoint %s: out of memory", c->checkpoint);
    }
    ck_header(c, head, sizeof head);
    slpi_checkpoint_writer w;
    int rc = slpi_checkpoint_begin(&w);
    if (rc) {
        slpi_checkpoint_section(&w, "ensemble");
        fprintf(w.f, "ensemble %s\n", head);
        slpi_checkpoint_section(&w, "points");
        if (c->ck_len) fwrite(c->ck_done, 1, c->ck_len, w.f);
        fputs(line, w.f);
    }
    rc = rc ? slpi_checkpoint_commit(&w, c->checkpoint, ENS_CKPT_FORMAT, ENS_CKPT_VERSION, err)
            : slpi_error_set(err, SLPI_EINPUT, "--checkpoint %s: out of memory", c->checkpoint);
    if (rc == SLPI_OK && complete) {
        char *t = realloc(c->ck_done, c->ck_len + nline);
        if (!t)
            rc = slpi_error_set(err, SLPI_EINPUT, "--checkpoint %s: out of memory", c->checkpoint);
        else
            memcpy(t + c->ck_len, line, nline), c->ck_done = t, c->ck_len += nline;
    }
    free(line);
    return rc;
}

/* One "point" line's value into the saved states of c (its blank-separated fields read by
 * core/parse.c, the doubles exactly: %a). */
static int resume_line(ens_cfg *c, slpi_checkpoint_reader *r, char *v)
{
    char *save = NULL, *f[4];
    for (int i = 0; i < 4; i++) f[i] = strtok_r(i ? NULL : v, " ", &save);
    long k, paths, len;
    uint64_t d;
    if (!f[3] || slpi_parse_long("point", f[0], 0, c->points - 1, &k, NULL) != SLPI_OK || k != c->nsaved)
        return slpi_checkpoint_fail(r, "grid point '%s' out of order or beyond the grid", f[0] ? f[0] : "");
    if (k > 0 && c->saved_paths[k - 1] != c->paths)
        return slpi_checkpoint_fail(r, "a grid point after an incomplete one%s", "");
    if (slpi_parse_u64("digest", f[1], UINT64_MAX, &d, NULL) != SLPI_OK ||
        slpi_parse_long("paths", f[2], 0, c->paths, &paths, NULL) != SLPI_OK ||
        slpi_parse_long("length", f[3], 2, 1L << 30, &len, NULL) != SLPI_OK)
        return slpi_checkpoint_fail(r, "bad digest, path count or state length%s", "");
    if (!(c->saved[k] = malloc((size_t)len * sizeof **c->saved)))
        return slpi_checkpoint_fail(r, "out of memory for a saved state%s", "");
    for (long j = 0; j < len; j++) {
        const char *t = strtok_r(NULL, " ", &save);
        if (!t || slpi_parse_binary64(t, &c->saved[k][j]) == -1) /* NaN kept: a diagnostic may be */
            return slpi_checkpoint_fail(r, "a saved state cut short or damaged%s", "");
    }
    if (strtok_r(NULL, " ", &save)) return slpi_checkpoint_fail(r, "text after a saved state%s", "");
    c->saved_digest[k] = d;
    c->saved_paths[k] = paths;
    c->saved_len[k] = len;
    c->nsaved = k + 1;
    return SLPI_OK;
}

int slpi_cli_ens_resume_read(ens_cfg *c, slpi_error *err)
{
    slpi_checkpoint_reader r;
    int rc = slpi_checkpoint_open(&r, c->resume, ENS_CKPT_FORMAT, ENS_CKPT_VERSION, err);
    if (rc != SLPI_OK) return rc;
    char head[256];
    ck_header(c, head, sizeof head);
    char *v = slpi_checkpoint_value(&r, "ensemble");
    if (!v)
        rc = SLPI_EINPUT;
    else if (strcmp(v, head) != 0)
        rc = slpi_checkpoint_fail(&r,
                                  "the checkpoint is of another ensemble (%s): give the same --first-path, "
                                  "--paths, --save-every, --ref and --grid",
                                  v);
    c->saved = calloc((size_t)c->points, sizeof *c->saved);
    c->saved_len = calloc((size_t)c->points, sizeof *c->saved_len);
    c->saved_paths = calloc((size_t)c->points, sizeof *c->saved_paths);
    c->saved_digest = calloc((size_t)c->points, sizeof *c->saved_digest);
    if (rc == SLPI_OK && (!c->saved || !c->saved_len || !c->saved_paths || !c->saved_digest))
        rc = slpi_error_set(err, SLPI_EINPUT, "--resume %s: out of memory", c->resume);
    while (rc == SLPI_OK && slpi_checkpoint_more(&r))
        rc = (v = slpi_checkpoint_value(&r, "point")) ? resume_line(c, &r, v) : SLPI_EINPUT;
    slpi_checkpoint_close(&r);
    return rc;
}

int slpi_cli_ens_resume_point(const ens_cfg *c, long point, const slpi_problem *p, slpi_ensemble *e, slpi_error *err)
{
    if (point >= c->nsaved) return SLPI_OK;
    uint64_t digest;
    if (slpi_cli_ens_digest(&digest, p, point, err) != SLPI_OK) return err->code;
    if (digest != c->saved_digest[point])
        return slpi_error_set(err, SLPI_EINPUT,
                              "--resume %s: grid point %ld was run on another problem (its keys "
                              "differ from this run's)",
                              c->resume, point);
    if (slpi_ensemble_import(e, c->saved[point], c->saved_len[point]) != SLPI_OK ||
        slpi_ensemble_paths(e) != c->saved_paths[point])
        return slpi_error_set(err, SLPI_EINPUT, "--resume %s: grid point %ld: %s", c->resume, point,
                              slpi_ensemble_paths(e) != c->saved_paths[point] ? "its state holds another count of paths"
                                                                              : slpi_api_last_error());
    return SLPI_OK;
}

void slpi_cli_ens_checkpoint_free(ens_cfg *c)
{
    for (long k = 0; c->saved && k < c->nsaved; k++) free(c->saved[k]);
    free(c->saved);
    free(c->saved_len);
    free(c->saved_paths);
    free(c->saved_digest);
    free(c->ck_done);
}
