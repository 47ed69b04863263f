/* fast/so3.h — so(3), su(2) and se(3) in 3-vectors (fast/so3.c): the exponential's
 * coefficients, Rodrigues' rotation, and blocks of 3-vectors as matrices for the systems
 * built of so(3) blocks (the families so(3) and so(3)^k of fast/algebra.h, and se(3)'s
 * orbit map). Not installed. */
#ifndef SLPI_FAST_SO3_H
#define SLPI_FAST_SO3_H

/* c1 = (1 - cos t)/t^2, c2 = (t - sin t)/t^3 at t^2 = t2, free of cancellation. */
void slpi_fast_exp_coeffs(double *c1, double *c2, double t2);
/* R = exp(hat(w)) (Rodrigues, Taylor coefficients for |w| < 1e-4), row-major 3x3. */
void slpi_fast_rodrigues(double *R, const double *w);
/* Rotation about w/|w| by angle theta (R = I for w = 0). */
void slpi_fast_rotation(double *R, const double *w, double theta);

/* Blocks of so(3) 3-vectors under one of two matrix models (docs/conventions.md#hat-maps):
 * HAT (X = hat x, [X,Y] = hat(x cross y)) or SU2A (X = sum x_k E_k, E_k = -i sigma_k/sqrt2,
 * [X,Y] = sqrt2 (x cross y).E): the m_* operations of fast/algebra-so3.c and -so3k.c, and
 * the ISOMP map of the systems and models on them. */
typedef enum { SLPI_FAST_BLOCK_HAT, SLPI_FAST_BLOCK_SU2A } slpi_fast_block_model;
/* Ynew = Xn + [P,Y]/2 + P Y P/4 on nb blocks; returns ||Ynew - Y||_max, *ynorm. */
double slpi_fast_blocks_isomp(slpi_fast_block_model m, int nb, const double *P, const double *Xn, const double *Y,
                              double *Ynew, double *ynorm);
void slpi_fast_blocks_comm(slpi_fast_block_model m, int nb, const double *P, const double *Y, const double *Xn,
                           double *out);
void slpi_fast_blocks_cay(slpi_fast_block_model m, int nb, double a, const double *P, const double *X, double *out);
void slpi_fast_blocks_ainv(slpi_fast_block_model m, int nb, double a, const double *P, const double *X, double *out);

#endif
