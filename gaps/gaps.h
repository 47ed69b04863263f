/* gaps.h — the audit's extra mathematics (docs/claims.md): the computations behind the claims
 * that need more than a run of a registry scheme — R19 (dexp^{-1} sign, docs/schemes.md#rkmk,
 * E-R6), V18 (Cayley identity (30), docs/schemes.md#svi-cayley, docs/schemes.md#svi-so3), V20 (SVI-SO3 step identities and
 * the printed variant as a rescaled midpoint, docs/schemes.md#svi-so3), V25 (the fixed point of (64)
 * over the orbit, SVI Fig. 14), V16 (SVI-VS on the Kubo
 * oscillator, docs/schemes.md#svi-vs), I13 (the lifted midpoint on T*G, docs/schemes.md#isomp, E-I1) and the
 * one-step Poisson defect of a scheme (I11, V4, V5, V19). Every function computes its
 * number from the formulas (never from expected values); random inputs are canonical
 * normals slpi_noise_normal(seed, ...). The module uses slpi.h and fast/lie-ops.h only
 * (never fast/'s private tables); reports/audit-*.c evaluates the claims with it. */
#ifndef SLPI_GAPS_H
#define SLPI_GAPS_H

#include <stdint.h>
#include "core/vec.h"
typedef struct slpi_error slpi_error; /* slpi/errors.h */
#include "slpi/registry-ids.h"
typedef struct slpi_problem slpi_problem;
#include "slpi/step.h"
#include "core/slpi-flint.h"

/* R19: max over `trials` random (mu0, sigma, v) of the relative finite-difference defect
 * |d/dt O_exp(sigma(t); mu0) - ad*_v mu(t)| / (|v| |mu|) along sigma' = dexp^{-1}_sigma(v),
 * on the fast path's algebra of `sys` (rigid-body so(3) or heavy-top se(3): its orbit
 * map, bracket and coad), |sigma| = 0.2..2, fourth-order central differences at 1e-3.
 * printed = 0: the Bernoulli series to order 30 with B1+ = +1/2 (docs/schemes.md#rkmk);
 * printed = 1: the expansion printed in eq. (34), v + [v,sigma]/2 + [[v,sigma],sigma]/12
 * + ... (first-order sign opposite). */
int slpi_gaps_dexpinv(slpi_system_id sys, int printed, int trials, uint64_t seed, double *defect, slpi_error *err);

/* V18 on SO(3), vector form: max over random x, Pi and c = +-1/4 of
 * |A_c(-x) Pi - tau(x)^T A_c(x) Pi| / (|Pi| (1 + |x|^2)) (tau of the fast path). */
double slpi_gaps_cayley_ad_so3(int trials, uint64_t seed);
/* V18 on so(n), matrix form: max over random skew x, mu of
 * |tau^{-1} A(x) mu tau - A(-x) mu|_max / (|mu|_max (1 + |x|_max^2)) with
 * tau = (I - x/2)^{-1}(I + x/2) and A(x) mu = mu + [x,mu]/2 - s x mu x/4, s = +1 (the
 * Frobenius dual of d tau^{-1}, c = +1/4) or s = -1 (the c = -1/4 analogue). */
int slpi_gaps_cayley_ad_son(int n, int s, int trials, uint64_t seed, double *defect, slpi_error *err);

/* V20: `steps` steps of SVI-SO3 on the rigid body (problem p: svi, rigid-body; R is
 * tracked here) with the canonical noise of p. From each step's output R_{k+1} = R_k tau^2
 * the converged x is recovered, A, B solved from (62) given Pi_k and x, and measured:
 *   xi     max |x - Delta t xi((A+B)/2)|_max / (3 u max(1,|x|_max)): x is the fixed point;
 *   ident  max scale-free ratio |err|_max / (3 u |Pi_k|_max) of the two identities of
 *          docs/schemes.md#svi-so3;
 *   mid    max |Pi_{k+1} - IM(Pi_k; Delta t/s^2, dW/s)| / |Pi_k| against one IM-DIRECT
 *          step of the fast path, s = 1 - |x|^2/4. */
typedef struct {
    double xi, ident, mid, smin;
    long steps;
} slpi_gaps_svi_result;
int slpi_gaps_svi_identities(const slpi_problem *p, long steps, slpi_gaps_svi_result *r, slpi_error *err);

/* V25 (SVI Fig. 14): the fixed point (A, B) = (Pi~1, Pi~2) of (62)/(64) over the coadjoint
 * orbit. For Pi at the cell centres of a grid x 2 grid latitude-longitude grid of the sphere
 * |Pi| = |Pi_0| of p (svi on the rigid body, SVI form, truncated noise) and for every
 * increment vector in {-D, 0, D}^M (D the clipping threshold of p: the largest truncated
 * increment), one fast SVI step from Pi (the fast path's solver policy); A and B are
 * recovered from its output as for V20. Measured: points tried and failed (the iteration
 * did not converge), the range [nmin, nmax] of |(A, B)| = sqrt(|A|^2 + |B|^2),
 * ratio = max(|A|, |B|) / |Pi| (App. 10.2 places the fixed point in B_2R x B_2R, R = |Pi|:
 * ratio <= 2) and the most iterations; R = |Pi_0|, D the threshold. */
typedef struct {
    double R, D, nmin, nmax, ratio;
    long points, failed;
    int maxit;
} slpi_gaps_svi_orbit_result;
int slpi_gaps_svi_orbit(const slpi_problem *p, int grid, slpi_gaps_svi_orbit_result *r, double *map, slpi_error *err);

/* V16: SVI-VS (SVI eq. (14)) on R^2 for H = (q^2+p^2)/2, H_1 = sigma (q^2+p^2)/2: one step
 * (q, p) -> (q1, p1) with increments dt, dW by fixed-point iteration (tol 1e-15, maxit
 * 200); returns the step status. */
slpi_step_status slpi_svivs_kubo_step(double sigma, double dt, double dW, const double *z, double *z1, int *iters);
/* Over `trials` random states and increments dW ~ N(0, dt): max |det D - 1| (central
 * differences, exact up to rounding for this linear map) and max relative change of
 * q^2 + p^2. */
int slpi_gaps_svivs(double sigma, double dt, int trials, uint64_t seed, double *det_dev, double *quad_dev,
                    slpi_error *err);

/* I13: the lifted midpoint on T*SO(3) (J = I, mu(Q,P) = (Q^T P - P^T Q)/2) driven by the
 * generators of the fast ISO rigid body of p, with half-weight a: a = 1/2 is the
 * consistent form of docs/schemes.md#isomp, a = 1/4 the printed (21)-(22). Over `steps` steps from a
 * random (Q0, P0): group = max |Q^T Q - I|_max; proj = max |mu(Phi_h(Q,P)) - Psi(mu(Q,P))|
 * / |mu| against one fast ISOMP step at (h, dW); half = the same against (h/2, dW/2);
 * equiv = |Phi(gQ, gP) - g Phi(Q, P)|_max / |P| for a random g in SO(3). */
typedef struct {
    double group, proj, half, equiv;
    long steps;
} slpi_gaps_lifted_result;
int slpi_gaps_lifted(const slpi_problem *p, double a, long steps, uint64_t seed, slpi_gaps_lifted_result *r,
                     slpi_error *err);

/* I11, V4, V5, V19, V26: the one-step Poisson defect of the map x0 -> Phi(x0; dW) for
 * the fixed increment dW = (dw, ..., dw) (dw = 0: the noise-free map) of problem p against
 * the Lie-Poisson tensor J of its first k = slpi_gaps_poisson_coords(p) coordinates (rigid body 3: hat Pi; heavy top 6: [[hat Pi, hat Gamma], [hat Gamma, 0]];
 * 0: no tensor here). slpi_gaps_poisson_fd encloses max |D J(x0) D^T - J(Phi(x0))| with D
 * the central difference quotient at eps: of the fast step (exact balls of its doubles)
 * or (certified = 1) of the certified step (enclosures of the exact scheme's quotients;
 * the O(eps^2) remainder to the derivative is not enclosed, so callers compare two eps).
 * slpi_gaps_poisson_ift: the rigorous defect of ref/ (slpi_ref_poisson_defect: svi's
 * implicit-function-theorem Jacobian or isomp's certified step Jacobian, in balls; on the
 * rigid body only), max over the 9 entries. */
int slpi_gaps_poisson_coords(const slpi_problem *p);
int slpi_gaps_poisson_fd(const slpi_problem *p, const double *x0, int certified, double eps, double dw, arb_t out,
                         slpi_error *err);
/* 1 where slpi_gaps_poisson_ift applies. */
int slpi_gaps_poisson_rigorous(const slpi_problem *p);
int slpi_gaps_poisson_ift(const slpi_problem *p, const double *x0, double dw, arb_t out, slpi_error *err);

/* X4 (docs/schemes.md#rkmk): the missed drift of stochastic Lie-Euler, d(mu) = 1/2 sum_k
 * ad*_{D xi_k(mu)[V_k]} mu with V_k = ad*_{xi_k(mu)} mu, relative to sum_k |xi_k| |V_k|
 * (max norms), maximised over `trials` random mu (canonical normals). control = 0: the
 * generators of problem p on the fast path (its system and noise; any scheme with
 * coordinate operations, e.g. tmk); control = 1: the so(3) control H_1 = a x_1 x_2,
 * control = 2: H_1 = a x_1^2/2 (p: the rigid body). 0 iff RKMK-LE is consistent. */
int slpi_gaps_missed_drift(const slpi_problem *p, int control, int trials, uint64_t seed, double *drift,
                           slpi_error *err);
/* X4: rms over `paths` coupled paths of |x_LE(T) - x_Heun(T)| at h = T 2^-l,
 * l = kmin..kmax (gap[l - kmin]), on the noise-free fast rigid body plus the control noise
 * (1: a x_1 x_2, inconsistent; 2: a x_1^2/2, consistent), x0 = (0.6, 0.64, 0.48); Heun is
 * RKMK-Heun with q = 0 (Stratonovich-consistent). Shrinks with h iff d = 0. */
int slpi_gaps_le_gap(int control, double T, int kmin, int kmax, long paths, uint64_t seed, double *gap,
                     slpi_error *err);
/* The same per path: gap2[r * (kmax - kmin + 1) + (l - kmin)] = |x_LE(T) - x_Heun(T)|^2 on
 * path r (the property harness bootstraps its slope over paths). */
int slpi_gaps_le_gap_paths(int control, double T, int kmin, int kmax, long paths, uint64_t seed, double *gap2,
                           slpi_error *err);

#endif
