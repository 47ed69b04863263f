/* core/threads.h — the thread count of one command's OpenMP work (core/threads.c). A
 * declared interface of core, not installed. */
#ifndef SLPI_CORE_THREADS_H
#define SLPI_CORE_THREADS_H

typedef struct slpi_error slpi_error; /* slpi/errors.h */

/* Threads of one command's OpenMP work (core/threads.c): `requested` (> 0), or the OpenMP
 * runtime's default (OMP_NUM_THREADS) when requested <= 0, into *nt; more than
 * SLPI_MAX_THREADS is refused (SLPI_EINPUT, the message names who and the source). */
#define SLPI_MAX_THREADS 256
int slpi_threads_resolve(int requested, const char *who, int *nt, slpi_error *err);

#endif
