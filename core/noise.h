/* noise.h — internal interface of the canonical noise (core/noise*.c), beyond slpi.h:
 * the word -> normal map on its own (for the accuracy tests and ports), and the noise
 * file format (core/noise-file.c). */
#ifndef SLPI_NOISE_H
#define SLPI_NOISE_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
typedef struct slpi_error slpi_error; /* slpi/errors.h */
typedef struct slpi_problem slpi_problem;

/* Steps 2-4 of core/noise.c's header: the standard normal of one 64-bit Philox word. */
double slpi_noise_word_normal(uint64_t w);
/* slpi_noise_normals with a chosen kernel: the portable ones only, the best this processor
 * has (what slpi_noise_normals uses), or the AVX2 or the AVX-512F kernel where the processor
 * has it (else the portable ones): the same bits every way (tests/core/t-noise-batch.c). */
enum { SLPI_NOISE_PORTABLE = 0, SLPI_NOISE_BEST = 1, SLPI_NOISE_AVX2 = 2, SLPI_NOISE_AVX512 = 3 };
void slpi_noise_normals_isa(int isa, uint64_t seed, uint64_t path, uint32_t component, uint64_t first, size_t count,
                            double *out);
/* 1 if this processor runs kernel isa (PORTABLE and BEST: always). */
int slpi_noise_isa_available(int isa);
/* slpi_noise_normals_isa on the npaths paths path, path + 1, ... (path + q to
 * out[q stride]), with a kernel's set-up made once for all of them (core/noise-levels.c). */
void slpi_noise_normals_paths(int isa, uint64_t seed, uint64_t path, size_t npaths, uint32_t component, uint64_t first,
                              size_t count, double *const *out, size_t stride);
/* The normals first .. first+count-1 of the npaths paths path, path + 1, ..., normal
 * first + i of path + q to out[i stride + q] (stride >= npaths): the layout of the
 * ensembles' lanes (api/ensemble-lanes.c). BEST and AVX512 run the AVX-512F kernel across
 * paths where the processor has it; PORTABLE and AVX2 (and an odd start or end) go path
 * by path through slpi_noise_normals_paths: the same bits every way (t-noise-batch). */
void slpi_noise_normals_lanes(int isa, uint64_t seed, uint64_t path, size_t npaths, uint32_t component, uint64_t first,
                              size_t count, double *out, size_t stride);
/* Whole dyadic hierarchies at once (the coupled studies of studies/converge.c), of the
 * npaths paths path, path + 1, ...: path + q's levels are lev[q (nup + 1) + i], i = 0..nup;
 * level 0 gets the count increments first..first+count-1 at step h (refine 0), and level
 * i the count >> i increments above them at step 2^i h, each the pairwise sum of two of
 * level i-1: bit for bit slpi_noise_increments(seed, path + q, component, 2^i h, i,
 * first >> i, count >> i, .) (tests/core/t-noise-batch.c). first and count are multiples of
 * 2^nup. The paths share the generator's set-up. */
void slpi_noise_levels(uint64_t seed, uint64_t path, size_t npaths, uint32_t component, double h, int nup,
                       uint64_t first, size_t count, double *const *lev);

/* One level up the hierarchy: out[i] = in[2i] + in[2i+1], i < m (each node is left child
 * + right child; out == in allowed). */
void slpi_noise_pair_sums(const double *in, size_t m, double *out);
/* The dyadic tree sum of fine values into increments (docs/noise.md#refine), a chunk of at
 * most 2^SLPI_NOISE_CHUNK_LOG fine values at a time: pairwise sums level by level inside the
 * chunk (node = left child + right child); when 2^refine exceeds a chunk, the chunks' roots
 * are combined by a binary counter over the remaining levels. */
#define SLPI_NOISE_CHUNK_LOG 11
typedef struct {
    double partial[64]; /* partial[k]: the pending left subtree of 2^k chunk roots */
    uint64_t root;      /* chunk roots so far within the current increment */
    int inner, outer;   /* levels inside a chunk, levels above it */
} slpi_noise_tree;
/* An empty tree for increments of 2^refine fine values (0 <= refine <= 62). */
void slpi_noise_tree_init(slpi_noise_tree *t, int refine);
/* Adds the next len fine values w (a whole number of increments when 2^refine fits a
 * chunk, else a whole chunk; w is overwritten) and writes the increments they complete to
 * out: their count (len 2^-refine, or 0 or 1 above a chunk). */
size_t slpi_noise_tree_add(double *out, slpi_noise_tree *t, double *w, size_t len);

/* ---- Ornstein-Uhlenbeck noise (core/noise-ou.c states the contract; docs/noise.md#ou) ---- */
#define SLPI_NOISE_TAU_MAX 1024                   /* entries of the key noise_tau */
#define SLPI_NOISE_OU_STREAM UINT32_C(0x80000000) /* component k's OU normals: stream 2^31 + k */
typedef struct {
    double tau;                  /* correlation time (> 0) */
    double a, c, s, g, q, r, s0; /* the contract's coefficients, each rounded to nearest */
} slpi_ou_coef;
/* The entries of a noise_tau text (each 0 or in [2^-60, 1e6]): their count, or -1 with
 * err naming the entry. */
int slpi_noise_tau_parse(const char *text, double *tau, int max, slpi_error *err);
/* tau[0..M) of the problem's M noise Hamiltonians (0: white): 1 if any is coloured, 0 if
 * none, -1 (err set) when noise_tau is bad or has neither 1 nor M entries. */
int slpi_problem_noise_tau(const slpi_problem *p, double *tau, slpi_error *err);
/* SLPI_OK, or SLPI_EINPUT naming `who` when the problem has coloured noise: what holds
 * for white noise only (an ensemble's lanes, a study's exact white-noise reference)
 * refuses it. */
int slpi_problem_white_only(const slpi_problem *p, const char *who, slpi_error *err);
/* SLPI_OK, or SLPI_EINPUT naming `who` when the problem names a noise path (path= other
 * than 0, or `given`: the key was given at all): the commands that run many paths number
 * them themselves and would ignore it. first: how `who` is told where its paths start
 * ("--first-path"), or NULL when it chooses them all itself (mlmc). */
int slpi_problem_many_paths(const slpi_problem *p, int given, const char *who, const char *first, slpi_error *err);
/* The coefficients for correlation time tau on the fine step delta (0, or -1 if the
 * arguments are not positive and finite). */
int slpi_noise_ou_coef(slpi_ou_coef *o, double tau, double delta);
/* eta_0 of component (seed, path, component): s0 times normal 0 of its OU stream. */
double slpi_noise_ou_start(uint64_t seed, uint64_t path, uint32_t component, const slpi_ou_coef *o);
/* The OU increments of steps first..first+count-1 at (h, refine), untruncated, from *eta =
 * eta at fine index first 2^refine, which is advanced to (first + count) 2^refine;
 * eta_at (count doubles, or NULL) gets eta at each step's start. o is the coefficients
 * on delta = h 2^-refine. */
int slpi_noise_ou_steps(uint64_t seed, uint64_t path, uint32_t component, double h, int refine, const slpi_ou_coef *o,
                        uint64_t first, size_t count, double *eta, double *out, double *eta_at, slpi_error *err);
/* slpi_noise_levels for OU component `component` (the coupled studies under noise_tau,
 * docs/noise.md#ou-studies): level 0 gets the OU increments first..first+count-1 at step h
 * (refine 0, o the coefficients on delta = h), level i the pairwise sums of level i-1, so
 * that level i is bit for bit slpi_noise_ou_steps at (2^i h, refine i) and a run's source
 * at that level and refine (core/noise-ou.c). eta[q]: eta of path + q at fine index first, advanced to
 * first + count. SLPI_OK, or an error (range, interrupt). */
int slpi_noise_ou_levels(uint64_t seed, uint64_t path, size_t npaths, uint32_t component, double h, int nup,
                         const slpi_ou_coef *o, double *eta, uint64_t first, size_t count, double *const *lev,
                         slpi_error *err);

/* A run's source with OU components: eta[0..M) at the start of step n (0 for white
 * components) when the source holds it (n in its current block, or where eta stands): M;
 * 0 without OU components; -1 when it does not hold step n. */
typedef struct slpi_noise_source slpi_noise_source;
int slpi_noise_source_ou_state(const slpi_noise_source *s, long n, double *eta);
/* Set eta at the start of step n (a resume from a checkpoint): 0, -1 without OU components. */
int slpi_noise_source_ou_set(slpi_noise_source *s, long n, const double *eta);

/* ---- noise files (core/noise-file.c documents the format) ---- */
typedef struct {
    uint64_t seed, path;
    int components; /* M, increments per step */
    double h;       /* step size of the level written */
    int refine;     /* fine levels summed into one step */
    int truncated;  /* 1: values clipped at `threshold` = D(h, ell) */
    double ell, threshold;
    uint64_t first;  /* global index of the first step in the file */
    long steps;      /* data rows */
    uint64_t digest; /* FNV-1a 64 of the file's bytes (core/digest.h), once read to its end */
} slpi_noise_header;

#define SLPI_NOISE_FORMAT "slpi-noise"
#define SLPI_NOISE_VERSION 1
/* Size limits shared by the writer (`slpi noise`) and the reader, which holds the whole
 * file in memory: what one writes, the other reads. */
#define SLPI_NOISE_FILE_MAX_COMPONENTS 100000
#define SLPI_NOISE_FILE_MAX_STEPS (1L << 30)
#define SLPI_NOISE_FILE_MAX_VALUES (1L << 28) /* steps x M: 2 GiB of doubles */

void slpi_noise_file_write_header(FILE *f, const slpi_noise_header *hd);
void slpi_noise_file_write_row(FILE *f, int components, const double *dw);
/* Read and validate a whole noise file: *dw gets steps x M values (row-major, malloc'd,
 * the caller frees). dw NULL: the header and the digest only (the rows are not parsed).
 * Errors name "file:line: problem" and return SLPI_EINPUT. */
int slpi_noise_file_read(const char *path, slpi_noise_header *hd, double **dw, slpi_error *err);
/* slpi_problem_finish's part for a problem with a noise_file (core/noise-source.c,
 * docs/noise.md#files): with seed=file, the problem takes the file's seed, path and refine;
 * then they must be the file's own (SLPI_EINPUT naming both values and the file), a given
 * noise_digest must be the file's, and noise_digest becomes the file's. */
int slpi_noise_source_bind(slpi_problem *p, slpi_error *err);
#endif
