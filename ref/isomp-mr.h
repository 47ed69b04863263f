/* ref/isomp-mr.h — ISOMP's fixed-point map G and its derivative on the BLAS route in
 * midpoint–radius doubles (ref/isomp-mr.c): the state's packed coordinates, the step's
 * matrices and their sums stay doubles from one evaluation of G to the next, and no ball
 * matrix is formed (docs/design.md#blas-route). */
#ifndef SLPI_REF_ISOMP_MR_H
#define SLPI_REF_ISOMP_MR_H

#include "ref/system.h"

/* out = S + a1 skew(T1) + a2 skew(T2) (+ a3 T3 where S = X_n), skew(T) = T - T^*, with
 * T1 = A1 B1, T2 = A2 B2, T3 = T2 B3 and S = X_n where A1 == NULL, else S = a3 T3;
 * B3 == NULL: no T3 (the a's powers of two). */
typedef struct {
    const slpi_ref_mr *A2, *B2, *B3, *A1, *B1;
    double a1, a2, a3;
    int mid_only; /* 1: the products by slpi_ref_mrmat_mul_mr_mid (midpoints, no enclosure) */
} slpi_ref_isomp_sum;
/* S (allocated here, to be cleared) = the sum t with X_n = xn, the products by
 * slpi_ref_mrmat_mul_mr and the sums by ref/mrmat.h's scalar arithmetic; 0 where the
 * route cannot enclose. */
int slpi_ref_isomp_sum_mr(slpi_ref_mr *S, const slpi_ref_mr *xn, const slpi_ref_isomp_sum *t);

/* The map of one step: the system (packed as su(N), with m_gen_sum_mr), its increments,
 * X_n as doubles, and the matrices of an evaluation, allocated once a step. Kept from
 * one evaluation to the next for G' (docs/design.md#mean-value-forms), for the step's
 * delta and xn: Up = Psi(p) p and Pp = Psi(p), enclosed at the point p (pt, n doubles)
 * of the last enclosed G at a point (pt_ok). */
typedef struct {
    const slpi_ref_system *s;
    const double *delta;
    const slpi_ref_mr *xn;
    slong prec;
    slpi_ref_mr Y, W, Psi, dPsi, M, Up, Pp;
    double *pt;
    int pt_ok;
} slpi_ref_isomp_mr;
/* 1 and w ready, or 0 (w cleared) where the system has no m_gen_sum_mr, X_n is not complex,
 * or out of memory. */
int slpi_ref_isomp_mr_init(slpi_ref_isomp_mr *w, const slpi_ref_system *s, const double *delta, const slpi_ref_mr *xn,
                           slong prec);
void slpi_ref_isomp_mr_clear(slpi_ref_isomp_mr *w);
/* <om, orad> encloses G(y) for every y in <ym, yr> (packed coordinates; yr NULL: radius 0);
 * 0 where the route cannot. orad NULL: om alone, the same midpoints bit for bit, the
 * products' radii not formed (the iteration's points, ref/krawczyk-mr.c). */
int slpi_ref_isomp_G_mr(slpi_ref_isomp_mr *w, double *om, double *orad, const double *ym, const double *yr);
/* <om, orad> encloses G'(y)[z] for every y in <ym, yr>, z in <zm, zr>; 0 where it cannot.
 * Where ym is the point of the kept Up and <zm, zr> holds 0 +/- yr (the Krawczyk test's
 * box, centred on the last enclosed image's point), Psi and U = Psi Y over the box are
 * formed from the kept Pp and Up and the derivative's parts (the mean-value forms of
 * docs/design.md#mean-value-forms): no generator sum beyond the derivative's, and
 * products of a centred factor alone. */
int slpi_ref_isomp_dG_mr(slpi_ref_isomp_mr *w, double *om, double *orad, const double *ym, const double *yr,
                         const double *zm, const double *zr);

/* The COMM update X_{n+1} = X_n + [Psi(Xt), Xt] from the midpoint's enclosure y (packed
 * balls) into x (packed balls); 0 (x unchanged) where the route cannot. */
int slpi_ref_isomp_update_mr(slpi_ref_isomp_mr *w, arb_ptr x, arb_srcptr y);

/* Psi(Xt) into Psi as Psi0 + Psi'(B)[Xt - Y0] in doubles, Psi0 = Psi(Y0) on balls and B the
 * box around Y0 that holds Xt, Psi' by the system's m_gen_sum_mr along Xt - Y0 (the accurate
 * step's update, docs/power.md#accurate-near-update): 1, or 0 where Xt - Y0 exceeds 2^-40
 * of Y0 or the doubles cannot enclose. */
int slpi_ref_isomp_psi_near(acb_mat_t Psi, const slpi_ref_system *s, const double *delta, const acb_mat_t Xt,
                            const acb_mat_t Y0, const acb_mat_t Psi0, slong prec);

#endif
