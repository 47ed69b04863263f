/* slpi/step.h — what one step reports (part of slpi.h; the named diagnostics of a state are
 * slpi/diag.h's). */
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

typedef struct slpi_step_info {
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

#ifdef __cplusplus
}
#endif
#endif
