/* ref/solve.c — which enclosure an implicit step's equation gets (ref/krawczyk.h): the
 * designated root (docs/schemes.md#designated-root) is the limit of the scheme's own
 * iteration from its start, as the double path runs it, so the iteration runs first
 * (slpi_ref_krawczyk_fixed_limit); its Jacobian-free enclosure is kept when tight
 * enough, and otherwise the dense Krawczyk test (slpi_ref_krawczyk) must prove a box that
 * holds that limit. The tests themselves are ref/krawczyk.c's. In this thread's
 * accurate mode (slpi_ref_solve_accurate) only that limit is taken, with its a-posteriori
 * error and no enclosure test (docs/power.md#accurate-reference). */
#include "core/slpi-flint.h"
#include "ref/krawczyk.h"
#include <math.h>
#include <stddef.h>
#include <stdio.h>

/* max radius of a ball vector */
static void max_rad(mag_t m, arb_srcptr y, int n)
{
    mag_zero(m);
    for (int i = 0; i < n; i++) mag_max(m, m, arb_radref(y + i));
}

/* F = y - G and its Jacobian, for the dense test inside slpi_ref_solve */
typedef struct {
    const slpi_ref_fixmap *g;
    void (*J)(void *ctx, arb_mat_t Jm, arb_srcptr Y, slong prec);
    void (*Japprox)(void *ctx, arb_mat_t Jm, arb_srcptr y, slong prec);
} solve_ctx;

static void solve_F(void *ctx, arb_ptr out, arb_srcptr y, slong prec)
{
    const solve_ctx *c = ctx;
    c->g->G(c->g->ctx, out, y, prec);
    _arb_vec_sub(out, y, out, c->g->n, prec);
}

static void solve_dF(void *ctx, arb_ptr out, arb_srcptr y, arb_srcptr w, slong prec)
{
    const solve_ctx *c = ctx;
    c->g->dG(c->g->ctx, out, y, w, prec);
    _arb_vec_sub(out, w, out, c->g->n, prec);
}

static void solve_J(void *ctx, arb_mat_t Jm, arb_srcptr Y, slong prec)
{
    const solve_ctx *c = ctx;
    if (c->J != NULL)
        c->J(c->g->ctx, Jm, Y, prec);
    else
        slpi_ref_jacobian_columns(Jm, c->g->n, ctx, solve_dF, Y, prec);
}

static void solve_Japprox(void *ctx, arb_mat_t Jm, arb_srcptr y, slong prec)
{
    const solve_ctx *c = ctx;
    c->Japprox(c->g->ctx, Jm, y, prec);
}

/* 1 if the box y holds the point lim, the fixed-point iteration's limit, to within
 * 2^(-prec/2) max(1, |lim|): the iteration stops at a step of 2^(8 - prec) |y|, its limit
 * then within that step / (1 - L) of the root for a contraction factor L, which leaves
 * room for L up to 1 - 2^(8 - prec/2); another root (another branch) is O(1) away. */
static int holds_limit(arb_srcptr y, arb_srcptr lim, int n, slong prec)
{
    arb_t z;
    arb_init(z);
    int in = 1;
    for (int i = 0; i < n && in; i++) {
        arb_set(z, lim + i);
        mag_t m;
        mag_init(m);
        arb_get_mag(m, lim + i);
        if (mag_cmp_2exp_si(m, 0) < 0) mag_one(m);
        mag_mul_2exp_si(m, m, -prec / 2);
        mag_add(arb_radref(z), arb_radref(z), m);
        in = arb_overlaps(y + i, z);
        mag_clear(m);
    }
    arb_clear(z);
    return in;
}

/* The reason of a step whose scheme's iteration does not converge. */
static void no_designated_root(char *why, size_t why_len)
{
    /* the designated root (docs/schemes.md#designated-root) is the limit of the
     * scheme's own iteration from its start, which the double path runs: where that
     * iteration does not converge there is none, and a root Newton's method finds
     * (the dense test) may lie on another branch, across a pole */
    snprintf(why, why_len,
             "no designated root (docs/schemes.md#designated-root): the scheme's "
             "iteration does not converge");
}

static _Thread_local int accurate; /* slpi_ref_solve_accurate: its bits, 0 off */

int slpi_ref_solve_accurate(int bits)
{
    int was = accurate;
    accurate = bits;
    return was;
}

int slpi_ref_accurate_stop_bits(double u)
{
    int b;
    frexp(u, &b); /* u = f 2^b, 1/2 <= f < 1: 2^(b-1) <= u < 2^b, so u = 2^-53 gives 53 + 27 */
    return 1 - b + 27;
}

int slpi_ref_solve_is_accurate(void)
{
    return accurate;
}

/* The accurate mode's root: the limit of y <- G(y) from start on balls (no Gmid, whose
 * images carry no error bound) with its a-posteriori error, into y: 1, or 0 with the
 * reason where the iteration does not converge. Where the map has doubles (g->Gmr) the
 * balls' iteration starts from their limit (docs/power.md#accurate-start), and with
 * g->dGmr its map is G there plus corrections in doubles (#accurate-near). */
static int limit_only(arb_ptr y, const slpi_ref_fixmap *g, arb_srcptr start, slong prec, char *why, size_t why_len)
{
    slpi_ref_fixmap it = *g;
    it.dG = NULL;
    it.Gmid = NULL;
    it.stop_bits = accurate;
    arb_ptr t = _arb_vec_init(2 * g->n), near = t + g->n;
    slpi_ref_near nc;
    int lin = 0;
    if (g->Gmr != NULL && slpi_ref_krawczyk_start_mr(near, g, start)) {
        start = near;
        lin = slpi_ref_near_init(&nc, &it, g, near, prec); /* docs/power.md#accurate-near */
    }
    int ok = slpi_ref_krawczyk_fixed_limit(t, y, &it, start, prec, why, why_len) >= 0;
    if (!ok) no_designated_root(why, why_len);
    if (lin) slpi_ref_near_clear(&nc);
    _arb_vec_clear(t, 2 * g->n);
    return ok;
}

/* The dense Krawczyk test on f from guess, whose box (where the root is unique) must hold
 * lim, the scheme's iteration's limit: so the root it proves is the designated one. */
static int dense_designated(arb_ptr y, const slpi_ref_fn *f, arb_srcptr lim, arb_srcptr guess, slong prec, char *why,
                            size_t why_len)
{
    int dense = slpi_ref_krawczyk(y, f, guess, prec, why, why_len);
    if (dense && !holds_limit(y, lim, f->n, prec)) {
        dense = 0;
        snprintf(why, why_len,
                 "the root the dense Krawczyk test proves is not the limit of the scheme's "
                 "iteration from X_n (docs/schemes.md#designated-root)");
    }
    return dense;
}

int slpi_ref_krawczyk_designated(arb_ptr y, const slpi_ref_fn *f, const slpi_ref_fixmap *g, arb_srcptr start,
                                 arb_srcptr guess, slong prec, char *why, size_t why_len)
{
    if (accurate) return limit_only(y, g, start, prec, why, why_len);
    arb_ptr lim = _arb_vec_init(f->n), t = _arb_vec_init(f->n);
    slpi_ref_fixmap it = *g;
    it.dG = NULL;
    int ok = slpi_ref_krawczyk_fixed_limit(t, lim, &it, start, prec, why, why_len);
    if (ok < 0) {
        no_designated_root(why, why_len);
    }
    ok = ok < 0 ? 0 : dense_designated(y, f, lim, guess, prec, why, why_len);
    _arb_vec_clear(lim, f->n);
    _arb_vec_clear(t, f->n);
    return ok;
}

/* Largest size at which slpi_ref_solve insists on the tighter dense enclosure. */
#define SOLVE_DENSE_N 64

int slpi_ref_solve(arb_ptr y, const slpi_ref_fixmap *g, void (*J)(void *ctx, arb_mat_t Jm, arb_srcptr Y, slong prec),
                   void (*Japprox)(void *ctx, arb_mat_t Jm, arb_srcptr y, slong prec), arb_srcptr guess, slong prec,
                   char *why, size_t why_len)
{
    if (accurate) return limit_only(y, g, guess, prec, why, why_len);
    int n = g->n, ok, small = n <= SLPI_REF_DENSE_MAX; /* beyond it, no dense test: yf alone */
    solve_ctx sc = { g, J, Japprox };
    slpi_ref_fn f = { n, &sc, solve_F, solve_J, Japprox != NULL ? solve_Japprox : NULL };
    arb_ptr yf = _arb_vec_init(n), t = small ? _arb_vec_init(n) : NULL, u = small ? _arb_vec_init(n) : NULL;
    arb_ptr lim = small ? _arb_vec_init(n) : NULL;
    mag_t rf, rg;
    mag_init(rf);
    mag_init(rg);
    ok = g->Gmr != NULL ? slpi_ref_krawczyk_fixed_limit_mr(yf, lim, g, guess, prec, why, why_len) : -2;
    if (ok == -2) /* no map in doubles, or it cannot enclose: the balls' */
        ok = slpi_ref_krawczyk_fixed_limit(yf, lim, g, guess, prec, why, why_len);
    if (ok < 0) {
        no_designated_root(why, why_len);
        ok = 0;
        goto done;
    }
    if (ok && !small) {
        _arb_vec_swap(y, yf, n); /* no dense test at this size */
        goto done;
    }
    if (!ok && !small) goto done;
    if (ok) {
        /* tight enough: within 5/4 of the radius of G at the midpoint (parameter balls
         * and rounding), i.e. the inflation 1/(1 - |G'|) stayed small; a larger factor
         * would compound from step to step. Above SOLVE_DENSE_N unknowns the dense test
         * costs n derivative evaluations and an n^3 solve (Euler-Zeitlin N = 12: 5x the
         * step), so there the fixed-point enclosure is kept up to an inflation of 4. */
        for (int i = 0; i < n; i++) arb_get_mid_arb(t + i, yf + i);
        g->G(g->ctx, u, t, prec);
        max_rad(rg, u, n);
        max_rad(rf, yf, n);
        mag_mul_ui(rg, rg, n > SOLVE_DENSE_N ? 16 : 5);
        mag_mul_2exp_si(rf, rf, 2);
        if (mag_cmp(rf, rg) <= 0) {
            _arb_vec_set(y, yf, n);
            goto done;
        }
    }
    int dense = dense_designated(y, &f, lim, guess, prec, why, why_len);
    if (dense)
        ok = 1;
    else if (ok)
        _arb_vec_set(y, yf, n); /* the wider certified enclosure */
done:
    _arb_vec_clear(yf, n);
    if (small) {
        _arb_vec_clear(t, n);
        _arb_vec_clear(u, n);
        _arb_vec_clear(lim, n);
    }
    mag_clear(rf);
    mag_clear(rg);
    return ok;
}
