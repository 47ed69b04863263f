/* ensemble.c — structure-of-arrays ensembles of the so(3) rigid body for large Monte
 * Carlo studies (SPEC §4.1, §5.2 iso/rigid-body/weak, §5.3; benchmark P2): ISOMP-COMM
 * (SPEC §3.4) with iso-quad noise and SVI-SO3 (SPEC §3.5 d, rotation output) with
 * svi-lin noise, specialised to 3-vectors with the operation order of the general path
 * (isomp.c, svi.c, rigid-body.c), so every path is bit-identical to slpi_fast_step
 * (tests/t-fast-ensemble.c). The solver policy is SPEC §3.0 per path (solver.c). */
#include <math.h>
#include <string.h>
#include "fast.h"

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

/* Psi(Y) = -(h I^{-1} y + amp (eta_k y_k)_k) (iso-quad generators, B = -hat xi). */
static void iso_psi(const slpi_fast_rb_soa *c, const double *eta, const double *y, double *p)
{
    for (int i = 0; i < 3; i++) p[i] = -(eta[0] * (c->Iinv[i] * y[i]) + eta[i + 1] * (c->amp * y[i]));
}

static int isomp_lane(const slpi_fast_rb_soa *c, const double *eta, double *x, int *its)
{
    double y[3] = {x[0], x[1], x[2]}, yn[3], p[3];
    slpi_fast_iter it;
    slpi_fast_iter_begin(&it, &c->pol);
    int st;
    do {
        double ynorm;
        iso_psi(c, eta, y, p);
        double d = slpi_fast_blocks_isomp(SLPI_FAST_BLOCK_HAT, 1, p, x, y, yn, &ynorm);
        memcpy(y, yn, sizeof y);
        st = slpi_fast_iter_check(&it, d, ynorm);
    } while (st < 0);
    *its = it.it;
    if (slpi_step_failed(st)) return st;
    iso_psi(c, eta, y, p);
    slpi_fast_blocks_comm(SLPI_FAST_BLOCK_HAT, 1, p, y, x, x);
    return st;
}

/* x = Delta t xi = (h I^{-1} M + amp dW)/2 with M = (A + B)/2 (svi-lin generators). */
static void svi_x(const slpi_fast_rb_soa *c, const double *eta, const double *A, const double *B,
                  double *x, double *tau)
{
    for (int i = 0; i < 3; i++) {
        double m = 0.5 * (A[i] + B[i]);
        x[i] = 0.5 * (eta[0] * (c->Iinv[i] * m) + eta[i + 1] * c->amp);
    }
    slpi_fast_cayley3(x, tau);
}

static int svi_lane(const slpi_fast_rb_soa *c, const double *eta, double *P, int *its)
{
    double A[3] = {P[0], P[1], P[2]}, B[3] = {P[0], P[1], P[2]}, An[3], Bn[3], x[3], tau[9], t[3];
    slpi_fast_iter it;
    slpi_fast_iter_begin(&it, &c->pol);
    int st;
    do {
        svi_x(c, eta, A, B, x, tau);
        slpi_fast_mat3t_vec(tau, P, t);
        slpi_fast_ac_inv(c->c, x, P, An);
        slpi_fast_ac_inv(c->c, x, t, Bn);
        double d = fmax(slpi_fast_maxdiff(An, A, 3), slpi_fast_maxdiff(Bn, B, 3));
        memcpy(A, An, sizeof A);
        memcpy(B, Bn, sizeof B);
        st = slpi_fast_iter_check(&it, d, fmax(slpi_fast_maxabs(A, 3), slpi_fast_maxabs(B, 3)));
    } while (st < 0);
    *its = it.it;
    if (slpi_step_failed(st)) return st;
    svi_x(c, eta, A, B, x, tau);
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
        double eta[4] = {h, dW[r], dW[nl + r], dW[2 * nl + r]};
        double s[3] = {x[r], x[nl + r], x[2 * nl + r]};
        int k = 0;
        if (slpi_step_failed(fn(c, eta, s, &k))) {
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
    return soa_run(isomp_lane, c, nl, h, x, dW, iters);
}

long slpi_fast_rb_svi_soa(const slpi_fast_rb_soa *c, long nl, double h, double *x,
                          const double *dW, long *iters)
{
    return soa_run(svi_lane, c, nl, h, x, dW, iters);
}
