/* ref/ref.h — the certified path's run object (slpi.h's slpi_ref; ref/ref.c), shared by the
 * files of its concerns: the Lohner propagation (ref/lohner.c), the Poisson defect
 * (ref/poisson-defect.c) and the diagnostics (ref/diagnostics.c).
 *
 * Mean-value (Lohner) propagation (slpi_ref_set_lohner) for schemes with a step Jacobian
 * and states of at most SLPI_REF_LOHNER_MAX entries: the trajectory this object produced is kept as the set
 * c + A r (c exact, A an exact invertible matrix, r a ball vector) and stepped
 *     Phi(c + A r) in Phi(c) + J (A r),  J enclosing D Phi over the box hull of the set,
 * then re-centred c' = mid Phi(c), A' = mid(J A) while its condition number stays
 * below LOHNER_COND_MAX (ref/lohner.c; the parallelepiped method: no growth for elliptic motion),
 * else the Q of its QR factorisation (Lohner 1987, "QR method"), and
 * r' = (A'^{-1} J A) r + A'^{-1} (Phi(c) - c'), A'^{-1} enclosed by arb_mat_inv. The ball
 * returned is the hull c' + A' r' intersected with the plain ball trajectory, stepped
 * alongside (so no ball is wider than the plain path's, and where the hull holds the
 * plain ball it is that ball, bit for bit). Only the rounding and the curvature of Phi over
 * the box enter as box wrapping, so the radius grows like the trajectory's own
 * sensitivity (up to the wrapping of r through A'^{-1} J A) instead of like |D Phi|
 * entrywise. A state other than the last output
 * starts afresh (c = mid x, A = I, r = 0 +/- rad x). */
#ifndef SLPI_REF_H
#define SLPI_REF_H

#include <stddef.h>
typedef struct slpi_problem slpi_problem;
#include "slpi/step.h"
#include "slpi/ref.h"
#include "ref/scheme.h"

typedef struct slpi_plan slpi_plan; /* slpi/plan.h */

#define SLPI_REF_LOHNER_MAX 64

typedef struct {
    int valid, plain_ok;
    arb_ptr c, r, out; /* centre, coefficients, last output */
    arb_ptr plain;     /* the plain ball trajectory from the same start */
    arb_mat_t A;
} slpi_ref_lohner_set;

struct slpi_ref {
    const slpi_plan *plan; /* a reference (slpi_plan_ref), released by slpi_ref_free */
    const slpi_problem *p; /* the plan's finished problem, read through its views (core/view-*.h) */
    double h;              /* the step size: the plan's h until slpi_ref_set_step changes it */
    slpi_ref_system sys;
    const slpi_ref_scheme *scheme;
    double *delta;                                    /* (h, dW_1..dW_M) */
    arb_ptr work;                                     /* copy of the state for retries */
    slpi_ref_lohner_set *lo;                          /* NULL: plain ball steps */
    char why[256];                                    /* reason of the last UNABLE */
    void (*watch)(void *ctx, const slpi_ref_work *w); /* slpi_ref_set_watch */
    void *watch_ctx;
    arb_ptr inv0_x0, inv0; /* slpi_ref_diagnostics' invariants at x0 and that x0 (NULL: none kept) */
    int accurate;          /* slpi_ref_set_accurate (ref/accurate.h): balls not certified, the
                            * iteration stopped at 2^-accurate (0: certified) */
};

/* the precision ladder prec, 2 prec, 4 prec, ..., ending exactly at prec_max; 0 after */
long slpi_ref_next_prec(long prec, long prec_max);
/* Whether the scheme's certified step Jacobian serves this problem (the Lohner propagation
 * and ISOMP's Poisson defect use it). */
int slpi_ref_has_step_jacobian(const slpi_ref *s);
/* One Lohner step of the set behind x (ref/lohner.c) at prec; the set's release. */
slpi_step_status slpi_ref_lohner_step(slpi_ref *s, arb_ptr x, slong prec, char *why, size_t why_len);
void slpi_ref_lohner_free(slpi_ref *s);
/* The set as balls, for checkpoints (ref/path.c): its size (0: plain ball steps), the
 * set into v (flags valid + 2 plain_ok, c, r, the plain ball, A by rows), and back from
 * v behind the state x (SLPI_EINPUT: v is no set of this object's shape). */
int slpi_ref_lohner_size(const slpi_ref *s);
void slpi_ref_lohner_get(arb_ptr v, const slpi_ref *s);
int slpi_ref_lohner_put(slpi_ref *s, arb_srcptr v, arb_srcptr x);

#endif
