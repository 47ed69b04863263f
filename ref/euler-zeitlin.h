/* ref/euler-zeitlin.h — the certified Euler–Zeitlin system's data, shared by its two files
 * (docs/systems.md#euler-zeitlin, #zeitlin-family): ref/euler-zeitlin.c, the system (the
 * generators B_k, H0, the invariants, the initial map, the constructor), over
 * ref/euler-zeitlin-operator.c, the operator L^{-1} and what it needs at a precision (the
 * tables, rebuilt on demand, the noise amplitudes, the shift kappa^2, the multiplier
 * lambda(l), the background F and G = L^{-1} F). Private to these two files. */
#ifndef SLPI_REF_EULER_ZEITLIN_H
#define SLPI_REF_EULER_ZEITLIN_H

typedef struct slpi_error slpi_error; /* slpi/errors.h */
#include "core/problem-options.h"
#include "core/slpi-flint.h"
#include "core/zeitlin-family.h"
#include "ref/system.h"
#include "ref/zeitlin.h"

typedef struct {
    slpi_ref_zeitlin z;
    arb_ptr a; /* a[l] = amp / (l(l+1)) > 0, l = 0..N-1 (a[0] unused): the
                          * amplitudes a_l; the minus sign of B_k = -a_l ... is applied
                          * where B_k is formed (noise_coeff), as in fast/euler-zeitlin.c */
    int lmin;
    slpi_ez_noise noise;
    double amp;
    int *alpha; /* alpha of noise component k = 1..M at alpha[k-1] */
    arb_ptr ka; /* noise=modes: amp_k at ka[k-1] (exact); nka entries */
    int nka;
    arb_ptr xi; /* noise=fields: xi_k's coefficients at xi[(k-1)(N^2-1) + alpha] (exact) */
    slong nxi;
    int alpha0; /* the least alpha of the components */
    double kappa, rotation;
    slpi_zeitlin_mode *bg; /* background_modes, nb entries */
    int nb;
    int has_F; /* F != 0: F and G = L^{-1} F below */
    acb_mat_t F, G;
    arb_ptr lam;             /* multiplier: lambda(l) at lam[l], l = 1..N-1 (N entries); NULL: Delta_N - kappa^2 */
    double *ilam_m, *ilam_r; /* multiplier: 1/lambda(l) per alpha as midpoint-radius doubles (the BLAS
                               * route's weights); NULL where a ball is beyond the double range */
    double *lrho;            /* multiplier: the norms of slpi_ref_zeitlin_weights_norm_mr for these
                               * weights (made at the first solve on the BLAS route); NULL: not yet */
    slpi_ref_zeitlin_mr mr;  /* the tables as doubles for the BLAS route, built at creation
                              * where the first precision takes it, else at its first use */
    int mr_state;            /* 0 not built, 1 built, -1 failed (the Arb transforms then) */
    double *wq, *wq_delta;   /* noise (Q): the weights of slpi_ref_zeitlin_noise_weights_mr for the
                              * increments wq_delta[0..M] (a step's: its generator sums reuse them);
                              * NULL: none yet, or the amplitudes changed since */
} slpi_ref_ez_data;
/* The noise amplitudes a_l at precision prec. */
void slpi_ref_ez_amplitudes(slpi_ref_ez_data *d, slong prec);
/* The tables at precision >= prec, rebuilt on demand (with the amplitudes and the family). */
const slpi_ref_zeitlin *slpi_ref_ez_tables(const slpi_ref_system *s, slong prec);
/* The tables with the T_lm as balls, or NULL where they cannot be (N > SLPI_ZEITLIN_ARB_NMAX). */
const slpi_ref_zeitlin *slpi_ref_ez_harmonics(const slpi_ref_system *s, slong prec);
/* The tables of the BLAS route, or NULL off it (or where they cannot be built). */
const slpi_ref_zeitlin_mr *slpi_ref_ez_tables_mr(const slpi_ref_system *s, slong prec);
/* Those tables whatever the route (the doubles' G of the accurate step's start, ref/solve.c),
 * or NULL where they cannot be built. */
const slpi_ref_zeitlin_mr *slpi_ref_ez_tables_dd(const slpi_ref_system *s);
/* The norms of the multiplier's map per diagonal, or NULL. */
const double *slpi_ref_ez_multiplier_norms(const slpi_ref_system *s);
/* P = L^{-1}(X - Tr(X)/N I) (step: this is a step's solve, which may take the BLAS route). */
void slpi_ref_ez_solve(const slpi_ref_system *s, acb_mat_t P, const acb_mat_t X, int step, slong prec);
/* X = sum_alpha c_alpha Y_alpha over all N^2 - 1 coefficients. */
void slpi_ref_ez_synthesis_all(const slpi_ref_system *s, acb_mat_t X, arb_srcptr c, slong prec);
/* The shift kappa^2, the multiplier and the background F, G at the tables' precision. */
void slpi_ref_ez_family(const slpi_ref_system *s, slong prec);
/* lambda(l), l = 1..N-1 (N = the problem's), of the multiplier into d->lam at precision prec;
 * SLPI_EINPUT with core's text. */
int slpi_ref_ez_multiplier(slpi_ref_ez_data *d, const slpi_problem *p, int N, slong prec, slpi_error *err);
/* Everything of d but the tables z. */
void slpi_ref_ez_free(slpi_ref_ez_data *d);

#endif
