/* ref/krawczyk.h — certification (ref/krawczyk.c; which test a step gets: ref/solve.c).
 * One generic Krawczyk / interval-Newton enclosure for every implicit scheme: find the
 * unique zero of F: R^n -> R^n near `guess`.
 *   F(ctx, out, y, prec): a ball enclosure of F over the ball vector y (the scheme's
 *                         parameters, e.g. the previous state, may themselves be
 *                         balls: the enclosure is then parametric);
 *   J(ctx, Jm, Y, prec):  an enclosure of the Jacobian F'(y) for all y in the box Y
 *                         (and all parameters in their balls);
 *   Japprox (optional):   a cheap approximate Jacobian for the preconditioner.
 * On success y holds balls containing the unique zero in the verified box and the
 * function returns 1; on failure returns 0 and writes a reason into `why`. */
#ifndef SLPI_REF_KRAWCZYK_H
#define SLPI_REF_KRAWCZYK_H

#include <stddef.h>
typedef struct slpi_ref_work slpi_ref_work; /* slpi/ref.h */
#include "ref/vec.h"

typedef struct {
    int n;
    void *ctx;
    void (*F)(void *ctx, arb_ptr out, arb_srcptr y, slong prec);
    void (*J)(void *ctx, arb_mat_t Jm, arb_srcptr Y, slong prec);
    /* optional (may be NULL, then J): a cheap approximation of F' at a point, used only
     * for Newton's midpoint iteration and the preconditioner, never for the test */
    void (*Japprox)(void *ctx, arb_mat_t Jm, arb_srcptr y, slong prec);
} slpi_ref_fn;

int slpi_ref_krawczyk(arb_ptr y, const slpi_ref_fn *f, arb_srcptr guess, slong prec, char *why, size_t why_len);
/* The solvers' work on this thread since the last call (midpoint iterations plus
 * enclosure tests, every solve and precision included), and reset it to 0. */
long slpi_ref_iterations_take(void);
/* The watch of slpi_ref_set_watch for the step this thread runs (ref/krawczyk.c):
 * begin (fn may be NULL), each precision tried, each Jacobian column (the solvers
 * count their iterations themselves), end. */
void slpi_ref_watch_begin(void (*fn)(void *ctx, const slpi_ref_work *w), void *ctx, long step);
void slpi_ref_watch_prec(long prec);
void slpi_ref_watch_column(void);
void slpi_ref_watch_end(void);
/* Jacobian-free enclosure of the unique fixed point of a contraction G near `guess`
 * (Krawczyk with preconditioner I; ref/krawczyk.c):
 *   G(ctx, out, y, prec):      a ball enclosure of G over the ball vector y;
 *   dG(ctx, out, Y, Z, prec):  an enclosure of {G'(y) z : y in Y, z in Z} (the
 *                              directional derivative evaluated on balls).
 * Same return convention as slpi_ref_krawczyk; no Jacobian matrix is formed, so it is
 * much cheaper when G contracts well (implicit midpoint stages at small steps). */
typedef struct {
    int n;
    void *ctx;
    void (*G)(void *ctx, arb_ptr out, arb_srcptr y, slong prec);
    void (*dG)(void *ctx, arb_ptr out, arb_srcptr Y, arb_srcptr Z, slong prec);
    /* optional (NULL: G): G at a point to about prec bits with no error bound, for the
     * midpoint iteration only; with it, the iteration runs at prec/2 bits first. */
    void (*Gmid)(void *ctx, arb_ptr out, arb_srcptr y, slong prec);
    /* 1 (with Gmid NULL): the enclosure test is centred on the iteration's last point but one,
     * whose enclosing image G the iteration has just computed, not on its last point (one
     * evaluation of G less; the box then spans that last step too) */
    int centre_prev;
    /* optional (the BLAS route): G and dG on midpoint–radius doubles (n mids, n radii; a
     * NULL radius: 0), 0 where they cannot enclose; with them slpi_ref_solve runs the
     * iteration and the test in doubles (ref/krawczyk-mr.c), G and dG where they fail */
    int (*Gmr)(void *ctx, double *om, double *orad, const double *ym, const double *yr);
    int (*dGmr)(void *ctx, double *om, double *orad, const double *ym, const double *yr, const double *zm,
                const double *zr);
    /* 0, or: the iteration also stops once its step is at most 2^-stop_bits of the
     * iterate's largest entry (the accurate mode's, ref/solve.c) */
    int stop_bits;
} slpi_ref_fixmap;

int slpi_ref_krawczyk_fixed_point(arb_ptr y, const slpi_ref_fixmap *g, arb_srcptr guess, slong prec, char *why,
                                  size_t why_len);
/* slpi_ref_krawczyk_fixed_point; also the iteration's limit y~ (midpoints) into limit
 * (if not NULL) whenever the iteration converged. Returns 1 (certified), 0 (the
 * iteration converged, the enclosure test failed) or -1 (it did not converge). */
int slpi_ref_krawczyk_fixed_limit(arb_ptr y, arb_ptr limit, const slpi_ref_fixmap *g, arb_srcptr guess, slong prec,
                                  char *why, size_t why_len);
/* The same on g->Gmr and g->dGmr (ref/krawczyk-mr.c), with -2 where they cannot enclose
 * (a part beyond the double range): then the balls' version must run. */
int slpi_ref_krawczyk_fixed_limit_mr(arb_ptr y, arb_ptr limit, const slpi_ref_fixmap *g, arb_srcptr guess, slong prec,
                                     char *why, size_t why_len);
/* The start the accurate mode's iteration takes where g->Gmr is given: the limit of the
 * same iteration on g->Gmr's midpoints from start, to binary64's rounding level, into y
 * (points): 1, or 0 (y unchanged) where that iteration does not converge or Gmr cannot
 * enclose. A contraction's iteration from there reaches the limit it reaches from start
 * (docs/power.md#accurate-start). */
int slpi_ref_krawczyk_start_mr(arb_ptr y, const slpi_ref_fixmap *g, arb_srcptr start);
/* The accurate mode's map near y0 (docs/power.md#accurate-near): in out (a copy of g, as
 * the iteration takes it), G replaced by y -> G(y0) + G'(B)[y - y0], G(y0) on balls once, G' by g->dGmr on the box B
 * around y0 that holds y (g->G where dGmr cannot enclose): images that enclose G(y), the
 * same fixed point. 1, or 0 (nothing to clear) without g->dGmr or a y0 in doubles. */
typedef struct {
    const slpi_ref_fixmap *g;
    arb_ptr g0;
    double *y0, *w;
} slpi_ref_near;
int slpi_ref_near_init(slpi_ref_near *c, slpi_ref_fixmap *out, const slpi_ref_fixmap *g, arb_srcptr y0, slong prec);
void slpi_ref_near_clear(slpi_ref_near *c);
/* One solver iteration done (the count of slpi_ref_iterations_take and the watch). */
void slpi_ref_iteration_done(void);
/* ref/solve.c: */
/* The implicit schemes' solver for y = G(y) (F = y - G): the Jacobian-free test of g
 * first, kept if its radius is within 5/4 of that of G at the midpoint (always kept
 * above SLPI_REF_DENSE_MAX unknowns, where no dense test is tried); otherwise (or
 * if it fails) the dense Krawczyk test on F, with Jacobian J (an enclosure of F' over
 * a box, called with g->ctx) or, if J is NULL, I - G' by columns of dG; Japprox (may
 * be NULL) approximates F' for the preconditioner. The wider certified enclosure if
 * only the first test succeeds. Same return convention as slpi_ref_krawczyk. The root
 * is the designated one (docs/schemes.md#designated-root): the limit of the iteration
 * y <- G(y) from guess, which the double path runs; where that iteration does not
 * converge, 0 with the reason (the dense test would prove whatever root Newton's method
 * reaches, possibly across a pole), and the dense test's root must be that limit. */
/* The same rule for a scheme whose equations f are not written y - G(y) (SVI: f's zeros
 * are the fixed points of the map g the double path iterates): the iteration y <- G(y)
 * from start on midpoints first (g->dG is not used); where it does not converge, 0 with
 * the reason "no designated root"; then the dense Krawczyk test on f from guess, whose
 * box must hold the iteration's limit. */
int slpi_ref_krawczyk_designated(arb_ptr y, const slpi_ref_fn *f, const slpi_ref_fixmap *g, arb_srcptr start,
                                 arb_srcptr guess, slong prec, char *why, size_t why_len);
/* This thread's accurate mode for slpi_ref_solve and slpi_ref_krawczyk_designated (bits >
 * 0; 0 off): the iteration's limit alone, stopped at a step of 2^-bits of the iterate
 * (or at the precision's 2^8 ulps, if sooner), with its a-posteriori error as the radius,
 * no enclosure test (docs/power.md#accurate-reference, #accurate-stop; ref/accurate.h).
 * Returns the mode before. */
int slpi_ref_solve_accurate(int bits);
/* Nonzero where this thread is in accurate mode. */
int slpi_ref_solve_is_accurate(void);
/* The accurate mode's bits for a port of unit roundoff u = 2^-b: b + 27, so that the
 * limit's error, about 2^-(b + 26) relative, is 2^9.4 inside the 1e-5 units of u that the
 * statistics' reference may carry (docs/power.md#accurate-stop). */
int slpi_ref_accurate_stop_bits(double u);
#define SLPI_REF_DENSE_MAX 256 /* Euler-Zeitlin N = 16: n^2 Jacobian entries */
int slpi_ref_solve(arb_ptr y, const slpi_ref_fixmap *g, void (*J)(void *ctx, arb_mat_t Jm, arb_srcptr Y, slong prec),
                   void (*Japprox)(void *ctx, arb_mat_t Jm, arb_srcptr y, slong prec), arb_srcptr guess, slong prec,
                   char *why, size_t why_len);
/* The Jacobian of f over the box Y column by column from a directional derivative
 * dF(ctx, out, Y, w, prec) = F'(Y)[w] (w = unit vectors). */
void slpi_ref_jacobian_columns(arb_mat_t Jm, int n, void *ctx,
                               void (*dF)(void *ctx, arb_ptr out, arb_srcptr Y, arb_srcptr w, slong prec), arb_srcptr Y,
                               slong prec);

#endif
