/* ref/scheme.h — the scheme table of the certified path. One file per scheme. A scheme
 * step maps the state x (state_dim balls, in place) with increments Delta = (h, dW_1..dW_M)
 * at precision prec; it returns SLPI_STEP_CONVERGED with every output ball certified, or
 * SLPI_STEP_UNABLE with a reason in why (the caller then retries at doubled precision). `check` rejects
 * N/A pairs and unsupported options with SLPI_EINPUT. */
#ifndef SLPI_REF_SCHEME_H
#define SLPI_REF_SCHEME_H

#include <stddef.h>
typedef struct slpi_error slpi_error; /* slpi/errors.h */
#include "slpi/registry-ids.h"
typedef struct slpi_problem slpi_problem;
#include "slpi/step.h"
#include "core/slpi-flint.h"
#include "ref/system.h"

typedef struct slpi_ref_scheme slpi_ref_scheme;

/* The scheme table, the same shape as fast/fast.h's slpi_fast_scheme: id, check, step, then
 * the path's own slot (here jac; there init). */
struct slpi_ref_scheme {
    slpi_scheme_id id;
    int (*check)(const slpi_ref_system *s, const slpi_problem *p, slpi_error *err);
    slpi_step_status (*step)(const slpi_ref_system *s, arb_ptr x, const double *delta, slong prec, char *why,
                             size_t why_len);
    /* optional (NULL: none): an enclosure J (state_dim^2) of the step map's Jacobian
     * D Phi(xi) for every xi in the box x, for the mean-value (Lohner) propagation of
     * slpi_ref_step; 0 with a reason where the scheme's options give none. */
    int (*jac)(const slpi_ref_system *s, arb_mat_t J, arb_srcptr x, const double *delta, slong prec, char *why,
               size_t why_len);
};

extern const slpi_ref_scheme slpi_ref_scheme_tmk;
extern const slpi_ref_scheme slpi_ref_scheme_rkmk_le;
extern const slpi_ref_scheme slpi_ref_scheme_rkmk_heun;
extern const slpi_ref_scheme slpi_ref_scheme_im_direct;
extern const slpi_ref_scheme slpi_ref_scheme_trap_direct;
extern const slpi_ref_scheme slpi_ref_scheme_isomp;
extern const slpi_ref_scheme slpi_ref_scheme_svi;
/* SVI-LP, the matrix form of the SVI scheme (ref/svi-lp.c), dispatched from svi. */
slpi_step_status slpi_ref_svi_lp_step(const slpi_ref_system *s, arb_ptr x, const double *delta, slong prec, char *why,
                                      size_t why_len);
/* SVI-LP's equation at state mu (packed) and increments delta (ref/svi-lp.c), the map the
 * Krawczyk test encloses: F = F(x) and dF = DF(x)[w] (either may be NULL) over the ball
 * vectors x, w; indeterminate where P or Q is not provably invertible. */
void slpi_ref_svi_lp_map(arb_ptr F, arb_ptr dF, arb_srcptr x, arb_srcptr w, arb_srcptr mu, const double *delta,
                         const slpi_ref_system *s, slong prec);
/* The point M(x) = P^{-1} (mu + nu) Q^{-1} / 2 (nu = P^{-1} Q mu Q^{-1} P, P, Q = I +- x/2)
 * at which SVI-LP's map evaluates the Hamiltonian's gradient, packed into m, for state mu
 * and ball vector x; 0 (m untouched) where P or Q is not provably invertible. */
int slpi_ref_svi_lp_argument(arb_ptr m, arb_srcptr x, arb_srcptr mu, const slpi_ref_system *s, slong prec);
/* Certified Poisson-map defect of one SVI step in vector form (ref/svi.c):
 * D J(p_k) D^T - J(p_{k+1}), p = Pi (rigid body, d = 3) or (Pi, Gamma) (heavy top,
 * d = 6), D = dp_{k+1}/dp_k by the implicit function theorem on the enclosed zero
 * (row-major d x d in defect); 0 with a reason on failure. */
int slpi_ref_svi_poisson_defect(const slpi_ref_system *s, arb_srcptr x, const double *delta, arb_ptr defect, slong prec,
                                char *why, size_t why_len);
/* The scheme table, indexed by slpi_scheme_id. */
const slpi_ref_scheme *slpi_ref_scheme_get(slpi_scheme_id k);

#endif
