/* slpi/diag.h — named scalar diagnostics of a state: H0, Casimirs, eigenvalue departure, ...
 * (part of slpi.h). */
#ifndef SLPI_PUBLIC_DIAG_H
#define SLPI_PUBLIC_DIAG_H

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ diagnostics */

/* Named scalar diagnostics (H0, Casimirs, eigenvalue departure, ...). */
#define SLPI_MAX_DIAG 48
typedef struct slpi_diag {
    int n;
    const char *name[SLPI_MAX_DIAG]; /* static strings */
    double value[SLPI_MAX_DIAG];
} slpi_diag;
void slpi_diag_add(slpi_diag *d, const char *name, double value);

#ifdef __cplusplus
}
#endif
#endif
