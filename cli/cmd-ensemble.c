/* cmd-ensemble.c — `slpi ensemble`: the online statistics of an ensemble (api/ensemble.c;
 * docs/api.md#ensembles) at its saved times, for one problem or for every point of a grid
 * of key values (--grid KEY=v1,v2,... repeated: every combination, the last key varying
 * fastest; each point runs the same noise paths), each row labelled by its point's values.
 * The paths run on --threads threads and, when built with -DSLPI_MPI (make mpi), on MPI
 * ranks: rank r takes the blocks [B r/K, B (r+1)/K) of the B whole blocks (the last rank
 * also the partial one), runs them as the subtrees of the statistics' tree they cover, and
 * rank 0 imports them in rank order (slpi_ensemble_export/import): the report is the same
 * bytes for any count of threads and ranks. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SLPI_MPI
#include <mpi.h>
#include <stdint.h>
#include <stddef.h>
#endif

#include "slpi/errors.h"
#include "slpi/problem.h"
#include "slpi/version.h"
#include "slpi/output.h"
#include "slpi/ensemble.h"
#include "slpi/plan.h"
#include "slpi/problem-build.h"
#include "slpi/problem-shape.h"
#include "slpi/problem-finish.h"
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/noise.h"
#include "cli/cli.h"
#include "api/api.h"
#include "core/digest.h"
#include "core/parse.h"
#include "core/threads.h"
#include "core/progress.h"
#include "core/command.h"
#include "cli/ensemble.h"


static void help(FILE *f)
{
    fputs("usage: slpi ensemble [options] [key=value ...]\n"
          "The statistics of an ensemble of paths at its saved times: for every state coordinate and\n"
          "diagnostic, the number of paths n, the mean, the variance M2/(n-1), the minimum, the\n"
          "maximum and the largest radius (certified path; 0 on the fast path), computed as the\n"
          "paths run (memory for the statistics only); the same bytes for any --threads\n"
          "(Welford per block of 64 paths, Chan's pairwise form along a fixed tree: docs/api.md#ensembles).\n"
          "  --preset NAME       start from a docs/experiments.md case\n"
          "  --config FILE       key=value lines ('#' comments), e.g. a model (docs/models.md)\n"
          "  --paths N           paths, 1..2^32 (default 100); path k runs on noise path P + k\n"
          "  --first-path P      the first noise path, 0..2^32-1 (default 0); the key path= is\n"
          "                      refused (it names the one path of `slpi run`)\n"
          "  --save-every K      saved times: step 0, every K-th step and the last (default: the\n"
          "                      problem's save_at=t1,t2,... when given, else step 0 and the last)\n"
          "  --grid KEY=V1,V2,.. one ensemble per value of KEY (repeat for a grid of up to 8 keys:\n"
          "                      every combination, the last key fastest; at most 4096 points), on\n"
          "                      the same noise paths; e.g. --grid param.I1=1,1.5,2\n"
          "  --threads T         threads, 1..256 (default: the OpenMP runtime's)\n"
          "  --ref               the certified path: statistics of the midpoints, and the radius\n"
          "  --state FILE        also write the statistics' exact state of every grid point to FILE\n"
          "  --merge FILE        (repeated) instead of running paths, import the states of runs of\n"
          "                      disjoint ranges that together cover --first-path .. + --paths - 1,\n"
          "                      each a multiple of 64 x 2^k paths from the first but the last: the\n"
          "                      report is that of one run, byte for byte (docs/api.md#ensembles)\n"
          "  --checkpoint FILE   write the statistics' exact state of the grid points done and of the\n"
          "                      point in hand to FILE every --checkpoint-every N paths (default\n"
          "                      65536, rounded up to whole blocks of 64), atomically, and when\n"
          "                      interrupted (Ctrl-C, SIGTERM, SIGHUP: exit 130, no report)\n"
          "  --checkpoint-every N\n"
          "  --resume FILE       continue the ensemble of checkpoint FILE (the same options and keys):\n"
          "                      the report is that of an uninterrupted run, byte for byte, for any\n"
          "                      --threads (--checkpoint may name the same FILE)\n"
          "  -o, --output FILE   the report in FILE (written to a temporary file, renamed when complete)\n"
          "  --progress, -q      force the progress line on standard error, or silence it (any\n"
          "                      command: `slpi --help`)\n"
          "  -h, --help          this help\n"
          "Report: '#' lines (provenance, the problem, the ensemble and its route: 'lanes', paths in\n"
          "lock-step SIMD lanes, or 'general: ' and why each path runs alone; the same values either\n"
          "way), then the columns: the grid's keys, step, t, quantity, n, mean, variance, min, max,\n"
          "radius; one row per grid point, saved time and quantity (%.17g).\n"
          "On MPI ranks (make mpi): mpirun -n K build/mpi/slpi ensemble ...: the same report.\n"
          "Exit 0; 2 for bad input (the option or key and the reason); 3 a path's step failed\n"
          "(naming the path and step); 130 interrupted (no report; with --checkpoint, a resumable\n"
          "checkpoint).\n",
          f);
}


/* --grid KEY=V1,V2,... (split in place). */
static int parse_grid(char *arg, grid_key *g, slpi_error *err)
{
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg) return slpi_error_set(err, SLPI_EINPUT, "--grid %s: expected KEY=V1,V2,...", arg);
    *eq = '\0';
    g->key = arg;
    g->n = 0;
    for (char *s = eq + 1;; s++) {
        char *comma = strchr(s, ',');
        if (comma) *comma = '\0';
        if (!*s) return slpi_error_set(err, SLPI_EINPUT, "--grid %s: an empty value", g->key);
        if (g->n == ENS_MAX_VALUES)
            return slpi_error_set(err, SLPI_EINPUT, "--grid %s: more than %d values", g->key, ENS_MAX_VALUES);
        g->value[g->n++] = s;
        if (!comma) break;
        s = comma;
    }
    return SLPI_OK;
}


/* The problem of grid point `point` (its index in the product, the last key fastest),
 * finished (and so validated) and, with plan, compiled into *plan (its model parsed once,
 * the caller's reference); label[g] gets its value of grid key g. */
static int point_problem(const ens_cfg *c, long point, slpi_problem *p, char **label, slpi_plan **plan, slpi_error *err)
{
    char *keys[ENS_MAX_KEYS + ENS_MAX_GRID], *vals[ENS_MAX_KEYS + ENS_MAX_GRID];
    int nk = c->nk;
    memcpy(keys, c->keys, (size_t)nk * sizeof *keys);
    memcpy(vals, c->vals, (size_t)nk * sizeof *vals);
    for (int g = c->ngrid - 1; g >= 0; g--) {
        label[g] = c->grid[g].value[point % c->grid[g].n];
        point /= c->grid[g].n;
    }
    for (int g = 0; g < c->ngrid; g++) {
        keys[nk] = c->grid[g].key;
        vals[nk++] = label[g];
    }
    int rc = slpi_problem_build(p, c->preset, c->config, nk, keys, vals, NULL, err);
    if (rc == SLPI_OK) rc = plan ? slpi_problem_plan(plan, p, err) : slpi_problem_finish(p, err);
    if (rc == SLPI_OK) rc = slpi_problem_many_paths(p, c->path_key, "an ensemble", "--first-path", err);
    if (rc == SLPI_OK && c->every && slpi_view_grid(p)->save_at[0])
        rc = slpi_error_set(err, SLPI_EINPUT, "--save-every %ld with save_at=%s: give one of the two", c->every,
                            slpi_view_grid(p)->save_at);
    return rc;
}

/* The next n paths of e, in batches (the progress line). */
static int run_paths(slpi_ensemble *e, long n, slpi_error *err)
{
    int rc = SLPI_OK;
    slpi_progress *pg = slpi_progress_begin("ensemble, paths", n);
    for (long done = 0; rc == SLPI_OK && done < n; done += 65536) {
        long k = n - done < 65536 ? n - done : 65536;
        if ((rc = slpi_ensemble_run(e, k, NULL, NULL, NULL, NULL, NULL, NULL)) != SLPI_OK)
            slpi_error_set(err, rc, "%s", slpi_api_last_error());
        slpi_progress_add(pg, k);
    }
    slpi_progress_end(pg);
    return rc;
}

#ifdef SLPI_MPI
/* This rank's share of the paths of problem p, exported piece by piece into *buf (*len
 * doubles, slpi_ensemble_export's layout): each subtree of the statistics' tree its blocks
 * cover (2^k blocks from a multiple of 2^k), and on the last rank the partial block. */
static int rank_pieces(const ens_cfg *c, const slpi_problem *p, long every, double **buf, long *len, slpi_error *err)
{
    const long B = SLPI_ENSEMBLE_BLOCK, nb = c->paths / B, hi = nb * (c->rank + 1) / c->nranks;
    long x = nb * c->rank / c->nranks, rem = c->rank == c->nranks - 1 ? c->paths % B : 0;
    if (!(*buf = calloc(2, sizeof **buf))) return slpi_error_set(err, SLPI_EINPUT, "out of memory");
    *len = 2;
    int rc = SLPI_OK;
    while (rc == SLPI_OK && (x < hi || rem > 0)) {
        long k = 0;
        while (x % (2L << k) == 0 && x + (2L << k) <= hi) k++;
        long n = x < hi ? B << k : rem;
        slpi_ensemble *e = NULL;
        if (slpi_ensemble_new(&e, p, c->ref, c->first + (uint64_t)(x * B), every, c->threads) != SLPI_OK)
            return slpi_error_set(err, SLPI_EINPUT, "%s", slpi_api_last_error());
        rc = run_paths(e, n, err);
        long m = slpi_ensemble_export(e, NULL);
        double *t = rc == SLPI_OK ? realloc(*buf, (size_t)(*len + m) * sizeof *t) : NULL;
        if (rc == SLPI_OK && !t) rc = slpi_error_set(err, SLPI_EINPUT, "out of memory");
        if (t) { /* the piece's header lands past the end, then its body moves over it */
            *buf = t;
            slpi_ensemble_export(e, t + *len);
            t[0] += t[*len];
            t[1] = t[*len + 1];
            memmove(t + *len, t + *len + 2, (size_t)(m - 2) * sizeof *t);
            *len += m - 2;
        }
        slpi_ensemble_free(e);
        if (x < hi)
            x += 1L << k;
        else
            rem = 0;
    }
    return rc;
}

/* Every rank's pieces, imported by rank 0 into e in rank order; the first rank that failed
 * (its paths come first) names the error, on every rank. */
static int run_ranks(const ens_cfg *c, const slpi_problem *p, long every, slpi_ensemble *e, slpi_error *err)
{
    double *buf = NULL;
    long len = 0;
    int rc = rank_pieces(c, p, every, &buf, &len, err);
    long head[2] = { rc, len };
    if (c->rank != 0) {
        MPI_Send(head, 2, MPI_LONG, 0, 0, MPI_COMM_WORLD);
        if (rc == SLPI_OK)
            MPI_Send(buf, (int)len, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
        else
            MPI_Send(err->msg, (int)sizeof err->msg, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
    }
    for (int r = 0; c->rank == 0 && r < c->nranks; r++) {
        long h[2] = { head[0], head[1] };
        double *b = buf;
        char msg[sizeof err->msg];
        memcpy(msg, err->msg, sizeof msg);
        if (r != 0) {
            MPI_Recv(h, 2, MPI_LONG, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (h[0] != SLPI_OK) {
                b = NULL;
                MPI_Recv(msg, (int)sizeof msg, MPI_CHAR, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if ((b = malloc((size_t)h[1] * sizeof *b))) {
                MPI_Recv(b, (int)h[1], MPI_DOUBLE, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Abort(MPI_COMM_WORLD, SLPI_EINPUT); /* its message could not be received */
            }
        }
        if (rc == SLPI_OK && h[0] != SLPI_OK) rc = slpi_error_set(err, (int)h[0], "rank %d: %s", r, msg);
        if (rc == SLPI_OK && h[1] > 2 && slpi_ensemble_import(e, b, h[1]) != SLPI_OK)
            rc = slpi_error_set(err, SLPI_EINPUT, "rank %d: %s", r, slpi_api_last_error());
        if (b != buf) free(b);
    }
    free(buf);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(err->msg, (int)sizeof err->msg, MPI_CHAR, 0, MPI_COMM_WORLD);
    return rc;
}
#endif

/* The paths of grid point `point` not yet in e (all of them, or those after what a resumed
 * checkpoint saved), with --checkpoint by batches of --checkpoint-every paths, each
 * followed by a checkpoint; an interrupted batch leaves e at the batches before it, and
 * the checkpoint then written holds them. */
static int run_checkpointed(ens_cfg *c, long point, const slpi_problem *p, slpi_ensemble *e, slpi_error *err)
{
    int rc = c->resume ? slpi_cli_ens_resume_point(c, point, p, e, err) : SLPI_OK;
    while (rc == SLPI_OK) {
        long left = c->paths - slpi_ensemble_paths(e), k = c->checkpoint && left > c->ck_every ? c->ck_every : left;
        if (k > 0) rc = run_paths(e, k, err);
        if (c->checkpoint && (rc == SLPI_OK || rc == SLPI_EINTR)) {
            slpi_error cerr = { 0, "" };
            int done = rc == SLPI_OK && slpi_ensemble_paths(e) == c->paths;
            if (slpi_cli_ens_checkpoint(c, point, p, e, done, &cerr) != SLPI_OK) {
                if (rc == SLPI_OK)
                    rc = cerr.code, *err = cerr;
                else
                    fprintf(stderr, "slpi ensemble: %s\n", cerr.msg);
            }
        }
        if (slpi_ensemble_paths(e) == c->paths) break;
    }
    return rc;
}

/* The ensemble of grid point `point` on the problem storage p: its statistics as report
 * rows (the columns line first when header is set). */
static int run_point_on(ens_cfg *c, long point, slpi_problem *p, FILE *f, int header, slpi_error *err)
{
    char *label[ENS_MAX_GRID];
    slpi_plan *plan = NULL;
    int rc = point_problem(c, point, p, label, &plan, err);
    if (rc != SLPI_OK) {
        slpi_plan_unref(plan);
        return rc;
    }
    const slpi_grid_view *grid = slpi_view_grid(p);
    slpi_ensemble *e = NULL;
    long every = c->every ? c->every : grid->save_at[0] ? 0 : grid->steps > 0 ? grid->steps : 1; /* 0: save_at's */
    rc = slpi_ensemble_new_plan(&e, plan, c->ref, c->first, every, c->threads);
    slpi_plan_unref(plan); /* the ensemble holds what it needs of it */
    if (rc != SLPI_OK) return slpi_error_set(err, SLPI_EINPUT, "%s", slpi_api_last_error());
    int dim, nd;
    long rows;
    slpi_ensemble_shape(e, &dim, NULL, &nd, NULL, &rows);
#ifdef SLPI_MPI
    if (c->nranks > 1)
        rc = run_ranks(c, p, every, e, err);
    else
#endif
        rc = c->nparts ? slpi_cli_ens_merge_point(c, point, p, e, err) : run_checkpointed(c, point, p, e, err);
    if (rc == SLPI_OK && c->state && c->rank == 0) rc = slpi_cli_ens_state_write(c, point, p, e, err);
    if (rc == SLPI_OK && !c->nparts && c->nranks == 1) { /* the report's bytes are a merge's: the counts go here */
        long clipped, capped;
        slpi_ensemble_counts(e, &clipped, &capped);
        fprintf(stderr, "slpi ensemble: %s%ld increments clipped (truncation), %ld steps capped, 0 paths failed%s\n",
                c->ngrid ? "grid point: " : "", clipped, capped,
                c->resume ? " (in the paths run since the resume)" : "");
    }
    if (c->rank != 0) { /* rank 0 reports */
        slpi_ensemble_free(e);
        return rc;
    }
    size_t size = (size_t)rows * (size_t)(dim + nd);
    double *s = rc == SLPI_OK ? malloc(5 * size * sizeof *s) : NULL;
    long *at = rc == SLPI_OK ? malloc((size_t)rows * sizeof *at) : NULL;
    if (rc == SLPI_OK && (!s || !at)) rc = slpi_error_set(err, SLPI_EINPUT, "out of memory");
    if (rc == SLPI_OK) {
        long n = slpi_ensemble_stats(e, s, s + size, s + 2 * size, s + 3 * size, s + 4 * size);
        slpi_ensemble_row_steps(e, at);
        if (header) {
            fprintf(f, "# ensemble: paths=%ld first_path=%llu ", c->paths, (unsigned long long)c->first);
            if (every)
                fprintf(f, "save_every=%ld", every);
            else
                fprintf(f, "save_at=%s", grid->save_at);
            fprintf(f, " path=%s\n# route: %s\n", c->ref ? "ref" : "fast", slpi_ensemble_route(e));
            for (int g = 0; g < c->ngrid; g++) /* what such a grid compares */
                if (!strcmp(c->grid[g].key, "system") || !strcmp(c->grid[g].key, "scheme"))
                    fprintf(f,
                            "# grid %s: each point is another %s, its own discrete map, driven by the same noise "
                            "paths (seed, paths): the rows compare the statistics of different maps\n",
                            c->grid[g].key, c->grid[g].key);
            fprintf(f, "# problem (of the first grid point):\n");
            slpi_problem_write(p, f, "#   ");
            for (int g = 0; g < c->ngrid; g++) fprintf(f, "%s\t", c->grid[g].key);
            fprintf(f, "step\tt\tquantity\tn\tmean\tvariance\tmin\tmax\tradius\n");
        }
        for (long r = 0; r < rows; r++) {
            long step = at[r];
            for (int q = 0; q < dim + nd; q++) {
                char name[64];
                if (q < dim)
                    slpi_problem_state_name(p, q, name, sizeof name);
                else
                    snprintf(name, sizeof name, "%s", slpi_ensemble_diag_name(e, q - dim));
                for (int g = 0; g < c->ngrid; g++) fprintf(f, "%s\t", label[g]);
                size_t i = (size_t)r * (size_t)(dim + nd) + (size_t)q;
                fprintf(f, "%ld\t%.17g\t%s\t%ld\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\n", step, (double)step * grid->h,
                        name, n, s[i], s[size + i], s[2 * size + i], s[3 * size + i], s[4 * size + i]);
            }
        }
    }
    free(s);
    free(at);
    slpi_ensemble_free(e);
    return rc;
}

/* run_point_on on a problem of its own. */
static int run_point(ens_cfg *c, long point, FILE *f, int header, slpi_error *err)
{
    slpi_problem *p = slpi_problem_alloc();
    int rc = p ? run_point_on(c, point, p, f, header, err) : slpi_error_set(err, SLPI_EINPUT, "out of memory");
    slpi_problem_free(p);
    return rc;
}

/* The command line's own outputs, and the key=value words (c->keys points here). */
typedef struct {
    const char *output, *state;
    char *keys[ENS_MAX_KEYS], *vals[ENS_MAX_KEYS];
    int done; /* the help printed, or an unknown option said: return at once */
} ens_args;

/* The options into *c and *a, the grid's points counted, the key=value words: SLPI_OK,
 * or an error in *err for the caller to say (a->done: nothing more to do or say). */
static int parse_args(ens_cfg *c, ens_args *a, int argc, char **argv, slpi_error *err)
{
    static const struct option opts[] = { { "preset", required_argument, 0, 'P' },
                                          { "config", required_argument, 0, 'c' },
                                          { "paths", required_argument, 0, 'R' },
                                          { "path", required_argument, 0, 'x' }, /* refused, below */
                                          { "first-path", required_argument, 0, 'p' },
                                          { "save-every", required_argument, 0, 'e' },
                                          { "grid", required_argument, 0, 'g' },
                                          { "threads", required_argument, 0, 't' },
                                          { "ref", no_argument, 0, 'r' },
                                          { "state", required_argument, 0, 's' },
                                          { "merge", required_argument, 0, 'm' },
                                          { "checkpoint", required_argument, 0, 'C' },
                                          { "checkpoint-every", required_argument, 0, 'E' },
                                          { "resume", required_argument, 0, 'u' },
                                          { "output", required_argument, 0, 'o' },
                                          { "help", no_argument, 0, 'h' },
                                          { 0, 0, 0, 0 } };
    int rc = SLPI_OK, opt;
    *a = (ens_args){ .done = 0 };
    optind = 1;
    while (rc == SLPI_OK && (opt = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (opt) {
        case 'P':
            c->preset = optarg;
            break;
        case 'c':
            c->config = optarg;
            break;
        case 'R':
            rc = slpi_parse_long("--paths", optarg, 1, 1L << 32, &c->paths, err);
            break;
        case 'p':
            rc = slpi_parse_u64("--first-path", optarg, UINT32_MAX, &c->first, err);
            break;
        case 'x': /* getopt would take --path as --paths, the paths' count */
            rc = slpi_error_set(err, SLPI_EINPUT,
                                "--path %s: an ensemble runs the noise paths --first-path P .. P + --paths - 1: "
                                "give --first-path (where they start) or --paths (how many)",
                                optarg);
            break;
        case 'e':
            rc = slpi_parse_long("--save-every", optarg, 1, 1L << 40, &c->every, err);
            break;
        case 'g':
            if (c->ngrid == ENS_MAX_GRID)
                rc = slpi_error_set(err, SLPI_EINPUT, "--grid: more than %d keys", ENS_MAX_GRID);
            else
                rc = parse_grid(optarg, &c->grid[c->ngrid++], err);
            break;
        case 't':
            rc = slpi_parse_int("--threads", optarg, 1, SLPI_MAX_THREADS, &c->threads, err);
            break;
        case 'r':
            c->ref = 1;
            break;
        case 's':
            a->state = optarg;
            break;
        case 'm':
            if (c->nparts == ENS_MAX_PARTS)
                rc = slpi_error_set(err, SLPI_EINPUT, "--merge: more than %d files", ENS_MAX_PARTS);
            else
                c->part[c->nparts++] = optarg;
            break;
        case 'C':
            c->checkpoint = optarg;
            break;
        case 'E':
            rc = slpi_parse_long("--checkpoint-every", optarg, 1, 1L << 32, &c->ck_every, err);
            break;
        case 'u':
            c->resume = optarg;
            break;
        case 'o':
            a->output = optarg;
            break;
        case 'h':
            if (c->rank == 0) help(stdout);
            a->done = 1;
            return SLPI_OK;
        default:
            if (c->rank == 0) fprintf(stderr, "slpi ensemble: see `slpi ensemble --help`\n");
            a->done = 1;
            return SLPI_EINPUT;
        }
    }
    if (rc == SLPI_OK && c->first + (uint64_t)c->paths - 1 > UINT32_MAX)
        rc = slpi_error_set(err, SLPI_EINPUT, "--first-path %llu --paths %ld: paths beyond 2^32-1",
                            (unsigned long long)c->first, c->paths);
    const long B = SLPI_ENSEMBLE_BLOCK;
    c->ck_every = (c->ck_every + B - 1) / B * B; /* whole blocks */
    long points = 1;
    for (int g = 0; rc == SLPI_OK && g < c->ngrid; g++) {
        for (int h = 0; h < g; h++)
            if (!strcmp(c->grid[h].key, c->grid[g].key))
                rc = slpi_error_set(err, SLPI_EINPUT, "--grid %s: key given twice", c->grid[g].key);
        if ((points *= c->grid[g].n) > ENS_MAX_POINTS)
            rc = slpi_error_set(err, SLPI_EINPUT, "--grid: more than %d points", ENS_MAX_POINTS);
    }
    for (int i = optind; rc == SLPI_OK && i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq || eq == argv[i] || c->nk == ENS_MAX_KEYS)
            rc = slpi_error_set(err, SLPI_EINPUT, "'%s': expected key=value", argv[i]);
        else {
            *eq = '\0';
            a->keys[c->nk] = argv[i];
            a->vals[c->nk++] = eq + 1;
            c->path_key |= !strcmp(argv[i], "path");
        }
    }
    for (int g = 0; g < c->ngrid; g++) c->path_key |= c->grid[g].key && !strcmp(c->grid[g].key, "path");
    c->keys = a->keys;
    c->vals = a->vals;
    c->points = points;
    return rc;
}

/* The outputs against the inputs and each other, and the modes that do not go together
 * (--merge, --checkpoint or --resume, MPI ranks). */
static int check_args(const ens_cfg *c, const ens_args *a, slpi_error *err)
{
    /* no output is an input or another output; the checkpoint may be the file resumed
     * (read whole first, rewritten atomically) */
    const char *outs[3] = { a->output, a->state, c->checkpoint },
               *out_role[3] = { "--output", "--state", "--checkpoint" }, *ins[2 + ENS_MAX_PARTS],
               *in_role[2 + ENS_MAX_PARTS];
    ins[0] = c->config, ins[1] = c->resume;
    in_role[0] = "--config", in_role[1] = "--resume";
    for (int i = 0; i < c->nparts; i++) ins[2 + i] = c->part[i], in_role[2 + i] = "--merge";
    int rc = slpi_output_check_paths(2, outs, out_role, 2 + c->nparts, ins, in_role, err);
    ins[1] = ins[0], in_role[1] = in_role[0]; /* --checkpoint against --config and --merge */
    if (rc == SLPI_OK) rc = slpi_output_check_paths(3, outs, out_role, 1 + c->nparts, ins + 1, in_role + 1, err);
    if (rc == SLPI_OK && c->nparts && c->nranks > 1) rc = slpi_error_set(err, SLPI_EINPUT, "--merge runs on one rank");
    if (rc == SLPI_OK && (c->checkpoint || c->resume) && (c->nparts || c->nranks > 1))
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: not with %s", c->checkpoint ? "--checkpoint" : "--resume",
                            c->nparts ? "--merge" : "MPI ranks (one rank checkpoints)");
    return rc;
}

/* The reports: --state and the report (by rank 0, committed only when every point ran),
 * each grid point's rows. */
static int write_reports(ens_cfg *c, const ens_args *a, slpi_error *err)
{
    slpi_output *report = NULL, *st = NULL;
    int rc = SLPI_OK;
    if (c->rank == 0 && a->state && (rc = slpi_output_open(&st, a->state, SLPI_OUTPUT_REPLACE, err)) == SLPI_OK) {
        c->state = slpi_output_file(st);
        slpi_cli_ens_state_head(c);
    }
    if (rc == SLPI_OK && c->rank == 0) rc = slpi_output_open(&report, a->output, SLPI_OUTPUT_REPLACE, err);
    if (rc == SLPI_OK && c->rank == 0) {
        FILE *f = slpi_output_file(report);
        fprintf(f, "# slpi ensemble %s (git %s)\n", SLPI_VERSION, SLPI_GIT_REV);
        slpi_provenance_write(f, "# ");
    }
    for (long k = 0; rc == SLPI_OK && k < c->points; k++)
        rc = run_point(c, k, report ? slpi_output_file(report) : NULL, k == 0, err);
    if (rc == SLPI_OK && st)
        rc = slpi_output_commit(st, err);
    else if (st)
        slpi_output_abort(st);
    if (rc == SLPI_OK && report)
        rc = slpi_output_commit(report, err);
    else if (report)
        slpi_output_abort(report);
    return rc;
}

static int run_ensemble(int argc, char **argv, int rank, int nranks)
{
    ens_cfg c = { 0 };
    c.paths = 100;
    c.ck_every = 65536;
    c.rank = rank;
    c.nranks = nranks;
    ens_args a;
    slpi_error err = { 0, "" };
    int rc = parse_args(&c, &a, argc, argv, &err);
    if (a.done) return rc;
    if (rc == SLPI_OK) rc = check_args(&c, &a, &err);
    if (rc == SLPI_OK && c.nparts) rc = slpi_cli_ens_parts_read(&c, &err);
    if (rc == SLPI_OK && c.resume) rc = slpi_cli_ens_resume_read(&c, &err);
    /* every grid point's problem is checked before any path runs */
    slpi_problem *p = rc == SLPI_OK ? slpi_problem_alloc() : NULL;
    if (rc == SLPI_OK && !p) rc = slpi_error_set(&err, SLPI_EINPUT, "out of memory");
    for (long k = 0; rc == SLPI_OK && k < c.points; k++) {
        char *label[ENS_MAX_GRID];
        rc = point_problem(&c, k, p, label, NULL, &err);
    }
    slpi_problem_free(p);
    if (rc == SLPI_OK) rc = write_reports(&c, &a, &err);
    if (rc != SLPI_OK && rank == 0) fprintf(stderr, "slpi ensemble: %s\n", err.msg);
    if (rc == SLPI_EINTR && rank == 0)
        fprintf(stderr, "slpi ensemble: interrupted: no report%s%s\n",
                c.checkpoint ? "; the paths completed are in the checkpoint: continue with --resume " : "",
                c.checkpoint ? c.checkpoint : " (--checkpoint FILE keeps the paths completed)");
    slpi_cli_ens_checkpoint_free(&c);
    return rc;
}

int slpi_cli_ensemble(int argc, char **argv)
{
#ifdef SLPI_MPI
    int rank = 0, nranks = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int rc = run_ensemble(argc, argv, rank, nranks);
    MPI_Finalize();
    return rc;
#else
    return run_ensemble(argc, argv, 0, 1);
#endif
}
