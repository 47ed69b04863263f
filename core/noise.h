/* noise.h — internal interface of the canonical noise (core/noise*.c), beyond slpi.h:
 * the word -> normal map on its own (for the accuracy tests and ports), and the noise
 * file format (core/noise-file.c). */
#ifndef SLPI_NOISE_H
#define SLPI_NOISE_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include "slpi/errors.h"
typedef struct slpi_problem slpi_problem;

/* Steps 2-4 of core/noise.c's header: the standard normal of one 64-bit Philox word. */
double slpi_noise_word_normal(uint64_t w);
/* slpi_noise_normals with a chosen kernel: the portable ones only, the best this processor
 * has (what slpi_noise_normals uses), or the AVX2 or the AVX-512F kernel where the processor
 * has it (else the portable ones): the same bits every way (tests/core/t-noise-batch.c). */
enum { SLPI_NOISE_PORTABLE = 0, SLPI_NOISE_BEST = 1, SLPI_NOISE_AVX2 = 2, SLPI_NOISE_AVX512 = 3 };
void slpi_noise_normals_isa(int isa, uint64_t seed, uint64_t path, uint32_t component,
                            uint64_t first, size_t count, double *out);
/* 1 if this processor runs kernel isa (PORTABLE and BEST: always). */
int slpi_noise_isa_available(int isa);
/* slpi_noise_normals_isa on the npaths paths path, path + 1, ... (path + q to
 * out[q stride]), with a kernel's set-up made once for all of them (core/noise-levels.c). */
void slpi_noise_normals_paths(int isa, uint64_t seed, uint64_t path, size_t npaths, uint32_t component,
                              uint64_t first, size_t count, double *const *out, size_t stride);
/* The normals first .. first+count-1 of the npaths paths path, path + 1, ..., normal
 * first + i of path + q to out[i stride + q] (stride >= npaths): the layout of the
 * ensembles' lanes (api/ensemble-lanes.c). BEST and AVX512 run the AVX-512F kernel across
 * paths where the processor has it; PORTABLE and AVX2 (and an odd start or end) go path
 * by path through slpi_noise_normals_paths: the same bits every way (t-noise-batch). */
void slpi_noise_normals_lanes(int isa, uint64_t seed, uint64_t path, size_t npaths, uint32_t component, uint64_t first,
                              size_t count, double *out, size_t stride);
/* Whole dyadic hierarchies at once (the coupled studies of reports/converge.c), of the
 * npaths paths path, path + 1, ...: path + q's levels are lev[q (nup + 1) + i], i = 0..nup;
 * level 0 gets the count increments first..first+count-1 at step h (refine 0), and level
 * i the count >> i increments above them at step 2^i h, each the pairwise sum of two of
 * level i-1: bit for bit slpi_noise_increments(seed, path + q, component, 2^i h, i,
 * first >> i, count >> i, .) (tests/core/t-noise-batch.c). first and count are multiples of
 * 2^nup. The paths share the generator's set-up. */
void slpi_noise_levels(uint64_t seed, uint64_t path, size_t npaths, uint32_t component, double h,
                       int nup, uint64_t first, size_t count, double *const *lev);

/* ---- noise files (core/noise-file.c documents the format) ---- */
typedef struct {
    uint64_t seed, path;
    int components;           /* M, increments per step */
    double h;                 /* step size of the level written */
    int refine;               /* fine levels summed into one step */
    int truncated;            /* 1: values clipped at `threshold` = D(h, ell) */
    double ell, threshold;
    uint64_t first;           /* global index of the first step in the file */
    long steps;               /* data rows */
    uint64_t digest;          /* FNV-1a 64 of the file's bytes (core/digest.h), once read to its end */
} slpi_noise_header;

#define SLPI_NOISE_FORMAT "slpi-noise"
#define SLPI_NOISE_VERSION 1
/* Size limits shared by the writer (`slpi noise`) and the reader, which holds the whole
 * file in memory: what one writes, the other reads. */
#define SLPI_NOISE_FILE_MAX_COMPONENTS 100000
#define SLPI_NOISE_FILE_MAX_STEPS (1L << 30)
#define SLPI_NOISE_FILE_MAX_VALUES (1L << 28)   /* steps x M: 2 GiB of doubles */

void slpi_noise_file_write_header(FILE *f, const slpi_noise_header *hd);
void slpi_noise_file_write_row(FILE *f, int components, const double *dw);
/* Read and validate a whole noise file: *dw gets steps x M values (row-major, malloc'd,
 * the caller frees). dw NULL: the header and the digest only (the rows are not parsed).
 * Errors name "file:line: problem" and return SLPI_EINPUT. */
int slpi_noise_file_read(const char *path, slpi_noise_header *hd, double **dw,
                         slpi_error *err);
/* slpi_problem_finish's part for a problem with a noise_file (core/noise-source.c,
 * docs/noise.md#files): with seed=file, the problem takes the file's seed, path and refine;
 * then they must be the file's own (SLPI_EINPUT naming both values and the file), a given
 * noise_digest must be the file's, and noise_digest becomes the file's. */
int slpi_noise_source_bind(slpi_problem *p, slpi_error *err);
#endif
