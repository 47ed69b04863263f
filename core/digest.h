/* core/digest.h — FNV-1a 64 (Fowler, Noll, Vo), the one digest of the tree: checkpoints
 * and their outputs (core/checkpoint.c, core/run.c), the audit's cache keys and entries
 * (reports/audit.c), its store of studies (reports/audit-studies.c) and its reports'
 * registry and build digests (reports/audit-words.c). It detects edits and torn files,
 * not forgeries (no MAC). */
#ifndef SLPI_CORE_DIGEST_H
#define SLPI_CORE_DIGEST_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a 64-bit digest of n bytes, continuing from h (start: SLPI_FNV_INIT). */
#define SLPI_FNV_INIT UINT64_C(0xcbf29ce484222325)
uint64_t slpi_fnv1a(uint64_t h, const void *data, size_t n);
/* The same over a file's bytes, continuing from h (h unchanged if it cannot be opened). */
uint64_t slpi_fnv1a_file(uint64_t h, const char *path);

#endif
