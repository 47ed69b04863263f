/* slpi/version.h — the library's version and the provenance every output carries
 * (part of slpi.h). */
#ifndef SLPI_PUBLIC_VERSION_H
#define SLPI_PUBLIC_VERSION_H

#include <stdio.h>

#include "slpi/errors.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------- version */

/* The library's version, "MAJOR.MINOR.PATCH" (the Python package checks it is its own). */
const char *slpi_api_version(void);
/* Provenance lines (slpi, git, Arb, FLINT, MPFR, GMP, OpenBLAS core, libc, compiler,
 * flags) as "<prefix>key=value"; and the header-vs-library cross-check. */
void slpi_provenance_write(FILE *f, const char *prefix);
int slpi_provenance_check(slpi_error *err);

#ifdef __cplusplus
}
#endif
#endif
