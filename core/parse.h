/* core/parse.h — the library's one reader of numbers and text lines (core/parse.c), for
 * every key, option and numeric field of core/ and the tools, and the command's options
 * (cli/). A declared interface of core, not installed: libslpi.so exports it under
 * SLPI_PRIVATE only. */
#ifndef SLPI_CORE_PARSE_H
#define SLPI_CORE_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct slpi_error slpi_error; /* slpi/errors.h */

/* Strict numbers (core/parse.c), for every key, option and numeric text field: the
 * whole text is the number (blanks around it allowed), no trailing garbage, overflow,
 * NaN, infinity or subnormal; lo <= value <= hi; every integer (int, long, u64) in
 * decimal, leading zeros included (010 is ten, never octal), or in 0x/0X hex (0x10 is
 * sixteen; a sign before it where negative values exist).
 * Errors (SLPI_EINPUT) name the value as given: name "h" -> "h=1e-320: subnormal ...",
 * name "--threads" -> "--threads abc: not an integer". *out is set only on success. */
int slpi_parse_double(const char *name, const char *text, double lo, double hi, double *out, slpi_error *err);
int slpi_parse_long(const char *name, const char *text, long lo, long hi, long *out, slpi_error *err);
int slpi_parse_int(const char *name, const char *text, int lo, int hi, int *out, slpi_error *err);
int slpi_parse_u64(const char *name, const char *text, uint64_t hi, uint64_t *out, slpi_error *err);
/* An exact binary64 field of a data file (%a or %.17g): the whole token, finite;
 * subnormals allowed. 0 on success, -1 not a number, -2 NaN or infinite (*out set to
 * it; the caller names file:line). */
int slpi_parse_binary64(const char *text, double *out);
/* C's strtod rounding to nearest whatever the caller's direction (core/fpmode.h): the one
 * reading of a decimal in keys, values and model constants (docs/conventions.md#rounding). */
double slpi_parse_strtod(const char *s, char **end);
/* Open an input file for reading: a regular file or a pipe; a folder or a device
 * (/dev/zero) is refused with "PATH: not a regular file (...)"; returns NULL then, with
 * err set. Owns: the FILE returned is the caller's (fclose). */
FILE *slpi_input_open(const char *path, slpi_error *err);
/* Shared checks of one text line s[0..len) (without its '\n') of file at line: a UTF-8
 * byte-order mark on line 1, a NUL byte, a CRLF line end; each named as such. */
int slpi_parse_text_line(const char *file, long line, const char *s, size_t len, slpi_error *err);

/* The entries of a noise_tau text (docs/noise.md#ou; each 0 or in [2^-60, 1e6]): their
 * count, or -1 with err naming the entry (also declared in core/noise.h). */
int slpi_noise_tau_parse(const char *text, double *tau, int max, slpi_error *err);
/* SLPI_OK if text is a noise_tau value, else SLPI_EINPUT naming the entry (the key's setter). */
int slpi_noise_tau_check(const char *text, slpi_error *err);

#endif
