/* ensemble.c — structure-of-arrays ensembles of the so(3) rigid body for large Monte
 * Carlo studies (docs/systems.md#rigid-body, docs/experiments.md#iso iso/rigid-body/weak, docs/experiments.md#svi; benchmark P2): ISOMP-COMM
 * (docs/schemes.md#isomp) with iso-quad noise and SVI-SO3 (docs/schemes.md#svi-so3, rotation output) with
 * svi-lin noise, specialised to 3-vectors with the operation order of the general path
 * (isomp.c, svi.c, rigid-body.c), so every path is bit-identical to slpi_fast_step
 * (tests/t-fast-ensemble.c). The solver policy is docs/schemes.md#solver per path (solver.c). */
/* The sweeps below are written to be vectorised across paths; GCC does so at -O2 only
 * with its dynamic cost model. Elementwise only: no reassociation, results unchanged. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif
#include <math.h>
#include <string.h>
#include "fast/fast.h"

int slpi_fast_rb_soa_init(slpi_fast_rb_soa *c, const slpi_problem *p, slpi_error *err)
{
    if (p->system != SLPI_SYS_RIGID_BODY)
        return slpi_error_set(err, SLPI_EINPUT, "ensemble: rigid-body only");
    for (int i = 0; i < 3; i++) {
        if (!(p->rb.inertia[i] > 0))
            return slpi_error_set(err, SLPI_EINPUT, "ensemble: inertia[%d] must be > 0", i);
        c->Iinv[i] = p->rb.h0_scale / p->rb.inertia[i];
    }
    c->amp = p->rb.amp;
    c->c = p->svi_c == 0 ? 0.25 : p->svi_c;
    c->pol.tol = p->tol > 0 ? p->tol : 1e-15;
    c->pol.maxit = p->maxit > 0 ? p->maxit : p->scheme == SLPI_SCHEME_SVI ? 200 : 100;
    c->pol.fixed_iters = p->fixed_iters;
    c->pol.on_cap = p->on_cap;
    return SLPI_OK;
}

/* Psi(Y) = -(h I^{-1} y + amp (delta_k y_k)_k) (iso-quad generators, B = -hat xi). */
static void iso_psi(const slpi_fast_rb_soa *c, const double *delta, const double *y, double *p)
{
    for (int i = 0; i < 3; i++) p[i] = -(delta[0] * (c->Iinv[i] * y[i]) + delta[i + 1] * (c->amp * y[i]));
}

/* One ISOMP fixed-point sweep over a chunk of lanes (branch-free, vectorisable): the
 * operations of iso_psi and slpi_fast_blocks_isomp in the same order. */
enum { CHUNK = 64 };

static void isomp_sweep(const slpi_fast_rb_soa *c, int n, const double *restrict e0,
                        const double *restrict e1, const double *restrict e2,
                        const double *restrict x0, const double *restrict x1,
                        const double *restrict x2, double *restrict y0, double *restrict y1,
                        double *restrict y2, double *restrict v0, double *restrict v1,
                        double *restrict v2, double *restrict dm, double *restrict ym, double h)
{
    const double i0 = c->Iinv[0], i1 = c->Iinv[1], i2 = c->Iinv[2], a = c->amp;
    for (int r = 0; r < n; r++) {
        double p0 = -(h * (i0 * y0[r]) + e0[r] * (a * y0[r]));
        double p1 = -(h * (i1 * y1[r]) + e1[r] * (a * y1[r]));
        double p2 = -(h * (i2 * y2[r]) + e2[r] * (a * y2[r]));
        double c0 = p1 * y2[r] - p2 * y1[r], c1 = p2 * y0[r] - p0 * y2[r], c2 = p0 * y1[r] - p1 * y0[r];
        double py = p0 * y0[r] + p1 * y1[r] + p2 * y2[r];
        double w0 = x0[r] + 0.5 * c0 + 0.25 * (-py * p0);
        double w1 = x1[r] + 0.5 * c1 + 0.25 * (-py * p1);
        double w2 = x2[r] + 0.5 * c2 + 0.25 * (-py * p2);
        double d = fabs(w0 - y0[r]), t = fabs(w1 - y1[r]), u = fabs(w2 - y2[r]);
        d = t <= d ? d : t;
        d = u <= d ? d : u;
        double m = fabs(w0), s = fabs(w1), q = fabs(w2);
        m = s <= m ? m : s;
        m = q <= m ? m : q;
        v0[r] = w0; v1[r] = w1; v2[r] = w2; dm[r] = d; ym[r] = m;
    }
}

/* ISOMP on nl lanes in chunks: vector sweeps, then the per-lane solver policy. */
static long isomp_chunk(const slpi_fast_rb_soa *c, int n, double h, double *x0, double *x1,
                        double *x2, const double *e0, const double *e1, const double *e2,
                        long *iters)
{
    double y[3][CHUNK], v[3][CHUNK], dm[CHUNK], ym[CHUNK];
    slpi_fast_iter it[CHUNK];
    int st[CHUNK], active = n;
    long bad = 0;
    for (int r = 0; r < n; r++) {
        y[0][r] = x0[r]; y[1][r] = x1[r]; y[2][r] = x2[r];
        slpi_fast_iter_begin(&it[r], &c->pol);
        st[r] = -1;
    }
    while (active > 0) {
        isomp_sweep(c, n, e0, e1, e2, x0, x1, x2, y[0], y[1], y[2], v[0], v[1], v[2], dm, ym, h);
        for (int r = 0; r < n; r++) {
            if (st[r] >= 0) continue;
            y[0][r] = v[0][r]; y[1][r] = v[1][r]; y[2][r] = v[2][r];
            st[r] = slpi_fast_iter_check(&it[r], dm[r], ym[r]);
            if (st[r] >= 0) active--;
        }
    }
    for (int r = 0; r < n; r++) {
        *iters += it[r].it;
        if (slpi_step_failed(st[r])) {
            bad++;
            continue;
        }
        double delta[4] = {h, e0[r], e1[r], e2[r]}, yy[3] = {y[0][r], y[1][r], y[2][r]}, p[3];
        double xx[3] = {x0[r], x1[r], x2[r]};
        iso_psi(c, delta, yy, p);
        slpi_fast_blocks_comm(SLPI_FAST_BLOCK_HAT, 1, p, yy, xx, xx);
        x0[r] = xx[0]; x1[r] = xx[1]; x2[r] = xx[2];
    }
    return bad;
}

/* x = Delta t xi = (h I^{-1} M + amp dW)/2 with M = (A + B)/2 (svi-lin generators). */
typedef struct { const slpi_fast_rb_soa *c; const double *delta; } svi_lane_ctx;

static void svi_map(void *ctx, const double *A, const double *B, double *x, double *tau,
                    double *ft)
{
    const svi_lane_ctx *l = ctx;
    for (int i = 0; i < 3; i++) {
        double m = 0.5 * (A[i] + B[i]);
        x[i] = 0.5 * (l->delta[0] * (l->c->Iinv[i] * m) + l->delta[i + 1] * l->c->amp);
        ft[i] = 0;
    }
    slpi_fast_cayley3(x, tau);
}

static int svi_lane(const slpi_fast_rb_soa *c, const double *delta, double *P, int *its)
{
    double A[3], B[3], x[3], tau[9], ft[3], t[3], resid;
    svi_lane_ctx l = {c, delta};
    int st = slpi_fast_svi3_solve(c->c, &c->pol, svi_map, &l, P, A, B, x, tau, ft, its, &resid);
    if (slpi_step_failed(st)) return st;
    slpi_fast_mat3t_vec(tau, P, t);
    slpi_fast_mat3t_vec(tau, t, P);
    return st;
}

typedef int (*lane_fn)(const slpi_fast_rb_soa *, const double *, double *, int *);

static long soa_run(lane_fn fn, const slpi_fast_rb_soa *c, long nl, double h, double *x,
                    const double *dW, long *iters)
{
    long bad = 0, its = 0;
    for (long r = 0; r < nl; r++) {
        double delta[4] = {h, dW[r], dW[nl + r], dW[2 * nl + r]};
        double s[3] = {x[r], x[nl + r], x[2 * nl + r]};
        int k = 0;
        if (slpi_step_failed(fn(c, delta, s, &k))) {
            bad++;
        } else {
            x[r] = s[0]; x[nl + r] = s[1]; x[2 * nl + r] = s[2];
        }
        its += k;
    }
    if (iters) *iters += its;
    return bad;
}

long slpi_fast_rb_isomp_soa(const slpi_fast_rb_soa *c, long nl, double h, double *x,
                            const double *dW, long *iters)
{
    long bad = 0, its = 0;
    for (long r = 0; r < nl; r += CHUNK) {
        int n = nl - r < CHUNK ? (int)(nl - r) : CHUNK;
        bad += isomp_chunk(c, n, h, x + r, x + nl + r, x + 2 * nl + r, dW + r, dW + nl + r,
                           dW + 2 * nl + r, &its);
    }
    if (iters) *iters += its;
    return bad;
}

long slpi_fast_rb_svi_soa(const slpi_fast_rb_soa *c, long nl, double h, double *x,
                          const double *dW, long *iters)
{
    return soa_run(svi_lane, c, nl, h, x, dW, iters);
}
