/* ref/krawczyk.c — the one certified solver of the ref path (docs/design.md#two-paths):
 * a Krawczyk / interval-Newton enclosure of the zero of F near a guess.
 *
 *  1. approximate zero y~ by (simplified) Newton on midpoints, with
 *  2. the preconditioner Y ~ F'^{-1} (arb_mat_approx_inv on a midpoint Jacobian near y~);
 *  3. epsilon-inflation: Z = 0 +/- (1.1 (|z| + rad z) + delta) around the previous image,
 *     Krawczyk image K(Z) = -Y F(y~) + (I - Y F'(y~ + Z)) Z, with F'(y~ + Z) an
 *     enclosure of the Jacobian over the whole box (and over the parameter balls);
 *  4. if every K_j lies in the interior of Z_j (arb_contains_interior), F has exactly
 *     one zero in y~ + Z and it lies in y~ + K (Krawczyk 1969; Rump 1983): return it.
 * Since F and F' are evaluated with the scheme's parameters as balls (the previous
 * state, increments), the statement holds for every parameter in those balls.
 * The solver's work is counted per thread (slpi_ref_iterations_take): one per midpoint
 * iteration (Newton or fixed-point) and one per enclosure test. */
#include "slpi/ref.h"
#include "ref/krawczyk.h"
#include <stdio.h>
#include <stddef.h>
#include <string.h>

#define NEWTON_MAXIT 60
#define INFLATE_MAXIT 20
/* Midpoint iterations of the fixed-point variant: FIXED_MAXIT per FIXED_MAXIT_BITS bits of
 * working precision (at least FIXED_MAXIT). A contraction by q gains log2(1/q) bits per
 * iteration, so reaching 2^-prec takes prec / log2(1/q) iterations: a cap proportional
 * to prec demands the same rate q <= 2^(-128/200) = 0.64 at every precision (a fixed
 * 200 made TMK's sine-Euler step at h = 0.5 UNABLE from 768 bits on: raising the
 * precision could not rescue it). */
#define FIXED_MAXIT 200
#define FIXED_MAXIT_BITS 128

static _Thread_local long solver_iterations;

/* The watch of the step this thread runs (slpi_ref_set_watch), told of every unit of
 * work as it is done. */
static _Thread_local struct {
    void (*fn)(void *ctx, const slpi_ref_work *w);
    void *ctx;
    slpi_ref_work w;
} watch;

static void watch_tell(void)
{
    if (watch.fn != NULL) watch.fn(watch.ctx, &watch.w);
}

void slpi_ref_watch_begin(void (*fn)(void *ctx, const slpi_ref_work *w), void *ctx, long step)
{
    watch.fn = fn;
    watch.ctx = ctx;
    memset(&watch.w, 0, sizeof watch.w);
    watch.w.step = step;
}

void slpi_ref_watch_prec(long prec)
{
    watch.w.prec = prec;
    watch_tell();
}

void slpi_ref_watch_column(void)
{
    watch.w.columns++;
    watch_tell();
}

void slpi_ref_watch_end(void)
{
    watch.fn = NULL;
}

void slpi_ref_iteration_done(void)
{
    solver_iterations++;
    watch.w.iterations++;
    watch_tell();
}

long slpi_ref_iterations_take(void)
{
    long n = solver_iterations;
    solver_iterations = 0;
    return n;
}

static void vec_mid(arb_ptr out, arb_srcptr x, int n)
{
    for (int i = 0; i < n; i++) arb_get_mid_arb(out + i, x + i);
}

void slpi_ref_jacobian_columns(arb_mat_t Jm, int n, void *ctx,
                               void (*dF)(void *ctx, arb_ptr out, arb_srcptr Y, arb_srcptr w, slong prec), arb_srcptr Y,
                               slong prec)
{
    arb_ptr w = _arb_vec_init(n), col = _arb_vec_init(n);
    for (int j = 0; j < n; j++) {
        _arb_vec_zero(w, n);
        arb_one(w + j);
        dF(ctx, col, Y, w, prec);
        for (int i = 0; i < n; i++) arb_set(arb_mat_entry(Jm, i, j), col + i);
        slpi_ref_watch_column();
    }
    _arb_vec_clear(w, n);
    _arb_vec_clear(col, n);
}

/* epsilon-inflation of the last image k around 0: z = 0 +/- (1.1 |k| + delta),
 * delta = 2^(4-prec) max(1, |y~|), and the box x = y~ + z. */
static void inflate(arb_t z, arb_t x, const arb_t yt, const arb_t k, slong prec)
{
    mag_t r, delta;
    mag_init(r);
    mag_init(delta);
    arb_get_mag(delta, yt);
    mag_one(r);
    mag_max(delta, delta, r);
    mag_mul_2exp_si(delta, delta, -prec + 4);
    arb_get_mag(r, k);
    mag_mul_ui(r, r, 11);
    mag_div_ui(r, r, 10);
    mag_add(r, r, delta);
    arb_zero(z);
    mag_set(arb_radref(z), r);
    arb_add(x, yt, z, prec);
    mag_clear(r);
    mag_clear(delta);
}

/* Y = approximate inverse of the midpoint Jacobian at yt (the cheap approximation
 * Japprox unless exact is asked for); 0 if singular */
static int precond(arb_mat_t Y, const slpi_ref_fn *f, arb_srcptr yt, int exact, slong prec)
{
    arb_mat_t Jm;
    arb_mat_init(Jm, f->n, f->n);
    if (f->Japprox != NULL && !exact)
        f->Japprox(f->ctx, Jm, yt, prec);
    else
        f->J(f->ctx, Jm, yt, prec);
    arb_mat_get_mid(Jm, Jm);
    int ok = arb_mat_approx_inv(Y, Jm, prec);
    arb_mat_clear(Jm);
    return ok;
}

/* Newton on midpoints with the approximate inverse Y of the Jacobian kept while it
 * contracts (simplified Newton; Y is refreshed when a correction shrinks by less than
 * a factor 8; the refresh uses the exact Jacobian). Returns 1 if the last correction is negligible at prec; Y is left as
 * the last preconditioner. */
static int newton_mid(arb_ptr yt, arb_mat_t Y, const slpi_ref_fn *f, slong prec)
{
    int n = f->n, ok = 0, fresh = 1;
    arb_ptr Fv = _arb_vec_init(n);
    arb_mat_t rhs, d;
    arb_mat_init(rhs, n, 1);
    arb_mat_init(d, n, 1);
    mag_t dn, dprev, yn, tol, ybound, t;
    mag_init(dn);
    mag_init(dprev);
    mag_init(yn);
    mag_init(tol);
    mag_init(ybound);
    mag_init(t);
    mag_inf(dprev);
    mag_one(ybound); /* |y| beyond 2^20 max(1, |guess|) counts as divergence */
    for (int i = 0; i < n; i++) {
        arb_get_mag(t, yt + i);
        mag_max(ybound, ybound, t);
    }
    mag_mul_2exp_si(ybound, ybound, 20);
    if (!precond(Y, f, yt, 0, prec)) goto done;
    for (int it = 0; it < NEWTON_MAXIT; it++) {
        slpi_ref_iteration_done();
        f->F(f->ctx, Fv, yt, prec);
        for (int i = 0; i < n; i++) arb_get_mid_arb(arb_mat_entry(rhs, i, 0), Fv + i);
        arb_mat_mul(d, Y, rhs, prec);
        mag_zero(dn);
        mag_one(yn);
        for (int i = 0; i < n; i++) {
            arb_get_mag(t, arb_mat_entry(d, i, 0));
            mag_max(dn, dn, t);
            arb_sub(yt + i, yt + i, arb_mat_entry(d, i, 0), prec);
            arb_get_mid_arb(yt + i, yt + i);
            arb_get_mag(t, yt + i);
            mag_max(yn, yn, t);
        }
        if (!mag_is_finite(dn) || mag_cmp(yn, ybound) > 0) break; /* diverged: no zero near the guess */
        mag_mul_2exp_si(tol, yn, -prec + 8);
        if (mag_cmp(dn, tol) <= 0) {
            ok = 1;
            break;
        }
        /* stagnation at the rounding level of an ill-conditioned problem: accept
         * (the Krawczyk test decides) once below |y| 2^(-prec/2) */
        mag_mul_2exp_si(tol, yn, -prec / 2);
        mag_mul_2exp_si(t, dn, 1);
        if (mag_cmp(dn, tol) <= 0 && mag_cmp(t, dprev) >= 0) {
            ok = 1;
            break;
        }
        mag_mul_2exp_si(t, dn, 3);
        if (mag_cmp(t, dprev) > 0 && !fresh) { /* slow: refresh the Jacobian */
            if (!precond(Y, f, yt, 1, prec)) break;
            fresh = 1;
        } else {
            fresh = 0;
        }
        mag_set(dprev, dn);
    }
done:
    _arb_vec_clear(Fv, n);
    arb_mat_clear(rhs);
    arb_mat_clear(d);
    mag_clear(dn);
    mag_clear(dprev);
    mag_clear(yn);
    mag_clear(tol);
    mag_clear(ybound);
    mag_clear(t);
    return ok;
}

int slpi_ref_krawczyk(arb_ptr y, const slpi_ref_fn *f, arb_srcptr guess, slong prec, char *why, size_t why_len)
{
    int n = f->n, ok = 0;
    arb_ptr yt = _arb_vec_init(n), Fv = _arb_vec_init(n), X = _arb_vec_init(n);
    arb_mat_t Jm, Y, Z, K, b, YJ;
    arb_mat_init(Jm, n, n);
    arb_mat_init(Y, n, n);
    arb_mat_init(YJ, n, n);
    arb_mat_init(Z, n, 1);
    arb_mat_init(K, n, 1);
    arb_mat_init(b, n, 1);

    vec_mid(yt, guess, n);
    if (!newton_mid(yt, Y, f, prec)) {
        snprintf(why, why_len, "Newton on midpoints did not converge at %ld bits", (long)prec);
        goto done;
    }
    /* b = -Y F(y~): F(y~) is a ball (rounding and parameter balls). */
    f->F(f->ctx, Fv, yt, prec);
    for (int i = 0; i < n; i++) arb_set(arb_mat_entry(K, i, 0), Fv + i);
    arb_mat_mul(b, Y, K, prec);
    arb_mat_neg(b, b);
    arb_mat_set(K, b);

    for (int it = 0; it < INFLATE_MAXIT && !ok; it++) {
        slpi_ref_iteration_done();
        for (int i = 0; i < n; i++) inflate(arb_mat_entry(Z, i, 0), X + i, yt + i, arb_mat_entry(K, i, 0), prec);
        /* K = b + (I - Y J(X)) Z */
        f->J(f->ctx, Jm, X, prec);
        arb_mat_mul(YJ, Y, Jm, prec);
        arb_mat_neg(YJ, YJ);
        for (int i = 0; i < n; i++) arb_add_ui(arb_mat_entry(YJ, i, i), arb_mat_entry(YJ, i, i), 1, prec);
        arb_mat_mul(K, YJ, Z, prec);
        arb_mat_add(K, K, b, prec);
        ok = 1;
        for (int i = 0; i < n && ok; i++)
            if (!arb_contains_interior(arb_mat_entry(Z, i, 0), arb_mat_entry(K, i, 0))) ok = 0;
    }
    if (ok) {
        for (int i = 0; i < n; i++) arb_add(y + i, yt + i, arb_mat_entry(K, i, 0), prec);
    } else {
        snprintf(why, why_len, "Krawczyk image not inside the inflated box after %d inflations at %ld bits",
                 INFLATE_MAXIT, (long)prec);
    }
done:
    _arb_vec_clear(yt, n);
    _arb_vec_clear(Fv, n);
    _arb_vec_clear(X, n);
    arb_mat_clear(Jm);
    arb_mat_clear(Y);
    arb_mat_clear(YJ);
    arb_mat_clear(Z);
    arb_mat_clear(K);
    arb_mat_clear(b);
    return ok;
}

/* Jacobian-free variant for a fixed point y = G(y) (preconditioner I):
 *  1. y~ by the midpoint iteration y <- mid G(y) (it must contract) until the step is
 *     below 2^8 ulps or below the width of the image ball G(y~);
 *  2. with Z the epsilon-inflated box around 0 and X = y~ + Z,
 *     K = G(y~) + DG(X)[Z], DG(X)[Z] the ball evaluation of the directional derivative
 *     over all x in X and directions z in Z (a box containing every DG(x) z);
 *  3. if K lies in the interior of X: by the mean value theorem G(X) is in K, so G has
 *     a fixed point in K (Brouwer); DG(x) Z inside int Z for the centred box Z gives
 *     |DG(x)| rad Z < rad Z, a contraction in the weighted max norm, so it is unique in
 *     X (Krawczyk with C = I). No Jacobian matrix: a few evaluations of G and DG. */
int slpi_ref_krawczyk_fixed_point(arb_ptr y, const slpi_ref_fixmap *g, arb_srcptr guess, slong prec, char *why,
                                  size_t why_len)
{
    return slpi_ref_krawczyk_fixed_limit(y, NULL, g, guess, prec, why, why_len) == 1;
}

int slpi_ref_krawczyk_fixed_limit(arb_ptr y, arb_ptr limit, const slpi_ref_fixmap *g, arb_srcptr guess, slong prec,
                                  char *why, size_t why_len)
{
    int n = g->n, ok = 0, it;
    arb_ptr yt = _arb_vec_init(n), Gv = _arb_vec_init(n), k = _arb_vec_init(n);
    arb_ptr Z = _arb_vec_init(n), X = _arb_vec_init(n);
    mag_t d, dprev, ym, t, tol, rg;
    mag_init(d);
    mag_init(rg);
    mag_init(dprev);
    mag_init(ym);
    mag_init(t);
    mag_init(tol);

    int keep = g->centre_prev && g->Gmid == NULL; /* the last ball image, in Gb */
    arb_ptr Gb = _arb_vec_init(keep ? n : 0);
    vec_mid(yt, guess, n);
    /* with an approximate Gmid: first at half precision to its rounding level (or until
     * it stalls there), then at prec; the enclosure below never uses Gmid */
    slong lp = g->Gmid != NULL && prec >= 128 ? prec / 2 : prec;
    const int maxit = prec > FIXED_MAXIT_BITS ? (int)(FIXED_MAXIT * prec / FIXED_MAXIT_BITS) : FIXED_MAXIT;
    int grew = 0; /* the step stopped decreasing (not the cap) */
    /* stopped at 2^-stop_bits of the iterate, before the precision's 2^8 ulps */
    int early = g->stop_bits > 0 && g->stop_bits < prec - 8;
    for (;; lp = prec) {
        mag_inf(dprev);
        for (it = 0; it < maxit; it++) {
            slpi_ref_iteration_done();
            if (g->Gmid != NULL)
                g->Gmid(g->ctx, Gv, yt, lp);
            else
                g->G(g->ctx, Gv, yt, lp);
            if (keep) _arb_vec_set(Gb, Gv, n);
            mag_zero(d);
            mag_one(ym);
            mag_zero(tol);
            for (int i = 0; i < n; i++) {
                mag_max(tol, tol, arb_radref(Gv + i));
                arb_get_mid_arb(Gv + i, Gv + i);
                arb_sub(k + i, Gv + i, yt + i, prec);
                arb_get_mag(t, k + i);
                mag_max(d, d, t);
                arb_get_mag(t, Gv + i);
                mag_max(ym, ym, t);
            }
            _arb_vec_swap(yt, Gv, n);
            mag_set(rg, tol);
            /* done at 2^8 ulps (or at 2^-stop_bits of the iterate), or once the step is
             * below the width of the image ball (wide parameter balls: Arb keeps fewer
             * midpoint bits) */
            mag_mul_2exp_si(tol, tol, 2);
            mag_mul_2exp_si(ym, ym, early && lp == prec ? -g->stop_bits : -lp + 8);
            mag_max(tol, tol, ym);
            if (mag_cmp(d, tol) <= 0) break;
            if (!mag_is_finite(d) || mag_cmp(d, dprev) >= 0) {
                if (lp < prec && mag_is_finite(d)) break; /* stalled at the half-precision rounding level */
                it = maxit;
                grew = 1;
                break;
            }
            mag_set(dprev, d);
        }
        if (lp == prec || it == maxit) break;
    }
    if (it == maxit) {
        if (grew)
            snprintf(why, why_len, "fixed-point iteration does not contract at %ld bits (its step grew at %ld bits)",
                     (long)prec, (long)lp);
        else
            snprintf(why, why_len,
                     "fixed-point iteration did not reach its tolerance within its cap of %d "
                     "iterations at %ld bits",
                     maxit, (long)prec);
        ok = -1;
        goto done;
    }
    if (limit) {
        /* The limit with its a posteriori error, for every parameter in the balls. The
         * iteration runs on the midpoints of G's images, and with wide parameter balls
         * Arb computes those midpoints from inputs of fewer correct bits: they can sit
         * anywhere in the image ball G(y), of radius rg, not at G(y) of the midpoint
         * parameters (a bias of 1e-11 beside a dense box 2e-12 wide in an SVI-LP step
         * from a box of radius 1e-8). The last step came from y' with
         * |y' - mid G(y')| = d; for any parameter p in the balls G_p(y') lies in G(y'),
         * so |y' - G_p(y')| <= d + rg, |y' - root_p| <= (d + rg) / (1 - q), and the
         * limit mid G(y') is within rg + q (d + rg) / (1 - q) of root_p, for G_p's
         * contraction q, estimated d / d_prev (q / (1 - q) = 1 where unknown). With
         * point parameters rg is the rounding level and this is the usual bound. Stopped
         * early (at stop_bits), q / (1 - q) is at least 1 (q's estimate from the last two steps
         * understated the error 100-fold on TMK's and IM-direct's iterations there:
         * docs/power.md#accurate-stop-checks). */
        _arb_vec_set(limit, yt, n);
        mag_add(t, d, rg);
        if (mag_is_finite(dprev) && mag_cmp(d, dprev) < 0) {
            mag_div(ym, d, dprev); /* q */
            mag_one(tol);
            mag_sub_lower(tol, tol, ym); /* 1 - q, rounded down */
            mag_div(tol, ym, tol);       /* q / (1 - q) */
            if (!early || mag_cmp_2exp_si(tol, 0) > 0) mag_mul(t, t, tol);
        }
        mag_add(t, t, rg);
        for (int i = 0; i < n; i++) mag_add(arb_radref(limit + i), arb_radref(limit + i), t);
    }
    if (g->dG == NULL) goto done; /* the limit alone (slpi_ref_krawczyk_designated) */
    /* k = G(y~) - y~, the first image (a ball: rounding and parameter balls); with
     * centre_prev y~ is the last point but one (in Gv after the swap) and G(y~) is in Gb */
    if (keep) {
        _arb_vec_swap(yt, Gv, n);
        _arb_vec_swap(Gv, Gb, n);
    } else {
        g->G(g->ctx, Gv, yt, prec);
    }
    _arb_vec_sub(k, Gv, yt, n, prec);
    for (it = 0; it < INFLATE_MAXIT && !ok; it++) {
        slpi_ref_iteration_done();
        for (int i = 0; i < n; i++) inflate(Z + i, X + i, yt + i, k + i, prec);
        g->dG(g->ctx, k, X, Z, prec);
        _arb_vec_add(k, k, Gv, n, prec);
        _arb_vec_sub(k, k, yt, n, prec);
        ok = 1;
        for (int i = 0; i < n && ok; i++) ok = arb_contains_interior(Z + i, k + i);
    }
    if (ok)
        _arb_vec_add(y, yt, k, n, prec);
    else
        snprintf(why, why_len,
                 "fixed-point Krawczyk image not inside the inflated box "
                 "after %d inflations at %ld bits",
                 INFLATE_MAXIT, (long)prec);
done:
    _arb_vec_clear(Gb, keep ? n : 0);
    _arb_vec_clear(yt, n);
    _arb_vec_clear(Gv, n);
    _arb_vec_clear(k, n);
    _arb_vec_clear(Z, n);
    _arb_vec_clear(X, n);
    mag_clear(d);
    mag_clear(dprev);
    mag_clear(ym);
    mag_clear(t);
    mag_clear(tol);
    mag_clear(rg);
    return ok;
}
