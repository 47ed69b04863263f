/* core/blas.h — which BLAS the process runs on (core/provenance.c). A declared interface of
 * core, not installed. */
#ifndef SLPI_CORE_BLAS_H
#define SLPI_CORE_BLAS_H

/* OpenBLAS's kernel name ("Haswell", "Cooperlake", ...), or NULL: another CBLAS, or a
 * program that calls no BLAS, linked --as-needed as Debian 13 links by default. */
const char *slpi_blas_core(void);

#endif
