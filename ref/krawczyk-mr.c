/* ref/krawczyk-mr.c — the Jacobian-free fixed-point test of ref/krawczyk.c
 * (slpi_ref_krawczyk_fixed_limit: its steps 1-3, the same stopping rules, inflation and
 * test) on a map given in midpoint–radius doubles (slpi_ref_fixmap's Gmr and dGmr, the
 * BLAS route's): the iterate, the images and the boxes stay doubles from one evaluation of
 * G to the next, with the inflation, the image K = DG(X)[Z] + (G(y~) - y~) and the interior
 * test in ref/mrmat.h's scalar arithmetic (radii rounded up: K in the interior of Z as
 * doubles implies it for the exact K), and only the result becomes balls. The iteration
 * starts from the nearest doubles of the guess's midpoints (any start of a contraction
 * reaches the same fixed point). The same doubles serve binary64's accurate step
 * (docs/power.md#accurate-start, #accurate-near): its start, and its map near that start. */
#include "ref/krawczyk.h"
#include "ref/mrmat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INFLATE_MAXIT 20 /* as ref/krawczyk.c */
#define FIXED_MAXIT 200
#define FIXED_MAXIT_BITS 128
/* before any image's radius is known, a step of at most 2^-52 of the iterate may meet
 * the stop: the images' radii on this route are at binary64's rounding level (2^-56 of
 * the iterate at N = 128, 2^-57 at N = 512, iso/zeitlin/long); and the first image is
 * enclosed where its step is predicted at most 2^-30 of it (its radius then sets the
 * rule for the rest; a radius near 2^-32 would resolve no binary64 state anyway) */
#define MAY_STOP_BITS 52
#define FIRST_BITS 30

static double up(double x)
{
    return slpi_ref_mrmat_up(x);
}

/* the ball <m, r> into x (its midpoint exact) */
static void ball_set(arb_t x, double m, double r)
{
    arb_set_d(x, m);
    mag_set_d(arb_radref(x), r);
}

/* the iteration y <- mid G(y) from y (ref/krawczyk.c); on return y is its last point, p
 * the one before, <gm, gr> the enclosing image G(p), *d and *dprev the last two steps and
 * *rg the image's largest radius. 1 when it converged, 0 when it did not (why set), -2
 * where Gmr cannot enclose. The stopping rule reads an image's radii; the evaluations it
 * cannot stop at do without them (Gmr's midpoints alone, the same bit for bit). A step
 * may meet the stop where it is at most `may_stop`: 8 times the last enclosed image's
 * radius, 2^-MAY_STOP_BITS of the iterate before any, or the 2^8-ulps floor. An
 * evaluation encloses where its predicted step (the last times the last contraction
 * ratio) is at most that, or, before any image is enclosed, at most 2^-FIRST_BITS of the
 * iterate; one that did not is made again at the same point, enclosed, where its step
 * came out at most `may_stop`. A step that did not shrink at an evaluation without radii
 * was predicted above that bound and is no smaller, so the stop cannot apply there. The
 * rule therefore stops and fails where an iteration enclosing every image does, the same
 * points and results, while each image's radius is at most twice the last enclosed one's
 * and, before the first, 4 times it at most 2^-MAY_STOP_BITS of the iterate (beyond that
 * it may stop one evaluation later, and fail only where a radius exceeds 2^-32 of the
 * iterate; docs/design.md#blas-route). */
static int iterate(const slpi_ref_fixmap *g, double *y, double *p, double *gm, double *gr, double *d, double *dprev,
                   double *rg, slong prec, char *why, size_t why_len)
{
    int n = g->n, it, enclose = 0;
    const int maxit = prec > FIXED_MAXIT_BITS ? (int)(FIXED_MAXIT * prec / FIXED_MAXIT_BITS) : FIXED_MAXIT;
    double q = 1, last_tol = -1; /* the last contraction ratio (1 before two steps), image radius (-1: none) */
    *dprev = INFINITY;
    for (it = 0; it < maxit; it++) {
        if (!g->Gmr(g->ctx, gm, enclose ? gr : NULL, y, NULL))
            return -2; /* counted by the balls' version, run instead */
        slpi_ref_iteration_done();
        double dd = 0, ym = 1, tol = 0;
        for (int i = 0; i < n; i++) {
            if (enclose) tol = fmax(tol, gr[i]);
            dd = fmax(dd, fabs(gm[i] - y[i]));
            ym = fmax(ym, fabs(gm[i]));
        }
        double floor = ldexp(ym, (int)(8 - prec));
        double may_stop = fmax(last_tol < 0 ? ldexp(ym, -MAY_STOP_BITS) : 8 * last_tol, floor);
        int grew = !isfinite(dd) || dd >= *dprev;
        if (!enclose && dd <= may_stop) { /* the stop may apply here: the same point, enclosed */
            enclose = 1;
            it--;
            continue;
        }
        memcpy(p, y, sizeof(double) * (size_t)n);
        memcpy(y, gm, sizeof(double) * (size_t)n);
        *d = dd;
        *rg = tol;
        /* done at 2^8 ulps, or once the step is below the width of the image ball */
        if (enclose && dd <= fmax(4 * tol, floor)) return 1;
        if (grew) {
            snprintf(why, why_len, "fixed-point iteration does not contract at %ld bits (its step grew at %ld bits)",
                     (long)prec, (long)prec);
            return 0;
        }
        if (enclose) last_tol = tol, may_stop = fmax(8 * tol, floor);
        if (isfinite(*dprev)) q = dd / *dprev;
        *dprev = dd;
        enclose = q * dd <= (last_tol < 0 ? fmax(ldexp(ym, -FIRST_BITS), floor) : may_stop);
    }
    snprintf(why, why_len,
             "fixed-point iteration did not reach its tolerance within its cap of %d iterations at %ld bits", maxit,
             (long)prec);
    return 0;
}

/* the limit y with its a posteriori error (ref/krawczyk.c: rg + q (d + rg) / (1 - q)) */
static void limit_set(arb_ptr limit, const double *y, int n, double d, double dprev, double rg)
{
    double t = up(d + rg);
    if (isfinite(dprev) && d < dprev) {
        double q = up(d / dprev), one_q = nextafter(1 - q, 0);
        t = up(up(t * q) / one_q);
    }
    t = up(t + rg);
    for (int i = 0; i < n; i++) ball_set(limit + i, y[i], t);
}

int slpi_ref_krawczyk_start_mr(arb_ptr y, const slpi_ref_fixmap *g, arb_srcptr start)
{
    int n = g->n, ok = 1;
    double *buf = malloc(sizeof(double) * 4 * (size_t)n), d, dprev, rg;
    char why[160];
    if (buf == NULL) return 0;
    double *yt = buf, *p = yt + n, *gm = p + n, *gr = gm + n;
    for (int i = 0; i < n && ok; i++) ok = slpi_ref_mrmat_ball_get(yt + i, NULL, start + i);
    ok = ok && iterate(g, yt, p, gm, gr, &d, &dprev, &rg, 53, why, sizeof why) == 1;
    for (int i = 0; i < n && ok; i++) arb_set_d(y + i, yt[i]);
    free(buf);
    return ok;
}

/* y -> G(y0) + G'(y0 +/- (|y - y0| + r))[y - y0] (slpi_ref_near_init) */
static void near_G(void *ctx, arb_ptr out, arb_srcptr y, slong prec)
{
    slpi_ref_near *c = ctx;
    const slpi_ref_fixmap *g = c->g;
    int n = g->n, ok = 1, zero = 1;
    double *dm = c->w, *dr = dm + n, *br = dr + n, *om = br + n, *orad = om + n;
    arb_t t;
    arb_init(t);
    for (int i = 0; i < n && ok; i++) { /* y - y0 as a ball of doubles, and the box around y0 holding y */
        arb_set_d(t, c->y0[i]);
        arb_sub(t, y + i, t, prec);
        ok = slpi_ref_mrmat_ball_get(dm + i, dr + i, t);
        br[i] = up(fabs(dm[i]) + dr[i]);
        zero &= dm[i] == 0 && dr[i] == 0;
    }
    if (ok && zero) { /* y = y0 */
        _arb_vec_set(out, c->g0, n);
        arb_clear(t);
        return;
    }
    ok = ok && g->dGmr(g->ctx, om, orad, c->y0, br, dm, dr);
    for (int i = 0; i < n && ok; i++) {
        ball_set(t, om[i], orad[i]);
        arb_add(out + i, c->g0 + i, t, prec);
    }
    if (!ok) g->G(g->ctx, out, y, prec);
    arb_clear(t);
}

int slpi_ref_near_init(slpi_ref_near *c, slpi_ref_fixmap *out, const slpi_ref_fixmap *g, arb_srcptr y0, slong prec)
{
    int n = g->n, ok = g->dGmr != NULL;
    c->g = g;
    c->y0 = ok ? malloc(sizeof(double) * 6 * (size_t)n) : NULL;
    c->g0 = NULL;
    ok = c->y0 != NULL;
    for (int i = 0; i < n && ok; i++) ok = slpi_ref_mrmat_ball_get(c->y0 + i, NULL, y0 + i);
    if (!ok) {
        free(c->y0);
        c->y0 = NULL;
        return 0;
    }
    c->w = c->y0 + n;
    c->g0 = _arb_vec_init(n);
    arb_ptr p = _arb_vec_init(n);
    for (int i = 0; i < n; i++) arb_set_d(p + i, c->y0[i]);
    g->G(g->ctx, c->g0, p, prec);
    _arb_vec_clear(p, n);
    out->ctx = c;
    out->G = near_G;
    return 1;
}

void slpi_ref_near_clear(slpi_ref_near *c)
{
    if (c->g0 != NULL) _arb_vec_clear(c->g0, c->g->n);
    free(c->y0);
    c->g0 = NULL;
    c->y0 = NULL;
}

int slpi_ref_krawczyk_fixed_limit_mr(arb_ptr y, arb_ptr limit, const slpi_ref_fixmap *g, arb_srcptr guess, slong prec,
                                     char *why, size_t why_len)
{
    int n = g->n, ok = 0;
    double *buf = malloc(sizeof(double) * 8 * (size_t)n), d = 0, dprev = 0, rg = 0;
    if (buf == NULL) return -2;
    double *yt = buf, *p = yt + n, *gm = p + n, *gr = gm + n, *km = gr + n, *kr = km + n, *zr = kr + n;
    double *dm = zr + n;
    for (int i = 0; i < n && ok == 0; i++)
        if (!slpi_ref_mrmat_ball_get(yt + i, NULL, guess + i)) ok = -2;
    ok = ok == 0 ? iterate(g, yt, p, gm, gr, &d, &dprev, &rg, prec, why, why_len) : ok;
    if (ok == 0) ok = -1; /* it did not converge */
    if (ok != 1) goto done;
    if (limit) limit_set(limit, yt, n, d, dprev, rg);
    /* centred on the last point but one, p, whose enclosing image G(p) is <gm, gr>: from here
     * on <gm, gr> is G(p) - p (nearly exact: p is close to G(p)), and K is DG(X)[Z] added to
     * it (adding G(p) first would round at the size of p) */
    for (int i = 0; i < n; i++) {
        slpi_ref_mrmat_scalar_sub(gm + i, gr + i, gm[i], gr[i], p[i], 0);
        km[i] = gm[i], kr[i] = gr[i];
    }
    ok = 0;
    for (int it = 0; it < INFLATE_MAXIT && !ok; it++) {
        slpi_ref_iteration_done();
        for (int i = 0; i < n; i++) { /* Z = 0 +/- (1.1 |k| + 2^(4-prec) max(1, |p|)) */
            double delta = ldexp(fmax(1, fabs(p[i])), (int)(4 - prec));
            zr[i] = up(up(up(up(fabs(km[i]) + kr[i]) * 11) / 10) + delta);
            dm[i] = 0;
        }
        if (!g->dGmr(g->ctx, km, kr, p, zr, dm, zr)) {
            ok = -2;
            goto done;
        }
        ok = 1;
        for (int i = 0; i < n; i++) { /* K = DG(X)[Z] + (G(p) - p), inside the interior of Z */
            slpi_ref_mrmat_scalar_add(km + i, kr + i, km[i], kr[i], gm[i], gr[i]);
            ok &= up(fabs(km[i]) + kr[i]) < zr[i];
        }
    }
    if (ok) {
        arb_t k;
        arb_init(k);
        for (int i = 0; i < n; i++) {
            ball_set(k, km[i], kr[i]);
            arb_set_d(y + i, p[i]);
            arb_add(y + i, y + i, k, prec);
        }
        arb_clear(k);
    } else {
        snprintf(why, why_len, "fixed-point Krawczyk image not inside the inflated box after %d inflations at %ld bits",
                 INFLATE_MAXIT, (long)prec);
    }
done:
    free(buf);
    return ok;
}
