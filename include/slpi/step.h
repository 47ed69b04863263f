/* slpi/step.h — what one step reports, and named diagnostics (part of slpi.h). */
#ifndef SLPI_PUBLIC_STEP_H
#define SLPI_PUBLIC_STEP_H

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ step reports */

typedef enum {
    SLPI_STEP_CONVERGED = 0, /* solver met its tolerance (or explicit scheme) */
    SLPI_STEP_STAGNATED,     /* accepted: increment stopped decreasing near tol */
    SLPI_STEP_CAPPED,        /* maxit / fixed iterations reached, iterate accepted */
    SLPI_STEP_NOT_CONVERGED, /* maxit reached under policy FAIL: a failure */
    SLPI_STEP_DIVERGED,      /* NaN/Inf or growth: a failure */
    SLPI_STEP_UNABLE,        /* ref path: enclosure failed at the precision cap */
    SLPI_STEP_INVALID        /* invalid input state or increments */
} slpi_step_status;

typedef struct {
    slpi_step_status status;
    int iterations;
    double residual; /* final solver increment/residual (max norm) */
    long prec;       /* ref path: precision used for this step */
    double radius;   /* ref path: max radius of the output state */
} slpi_step_info;

const char *slpi_step_status_name(slpi_step_status s);
static inline int slpi_step_failed(slpi_step_status s)
{
    return s >= SLPI_STEP_NOT_CONVERGED;
}

/* Named scalar diagnostics (H0, Casimirs, eigenvalue departure, ...). */
#define SLPI_MAX_DIAG 48
typedef struct {
    int n;
    const char *name[SLPI_MAX_DIAG]; /* static strings */
    double value[SLPI_MAX_DIAG];
} slpi_diag;
void slpi_diag_add(slpi_diag *d, const char *name, double value);

#ifdef __cplusplus
}
#endif
#endif
