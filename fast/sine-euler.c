/* sine-euler.c — the sine-Euler system on su(N), N odd, for the double path (docs/systems.md#sine-euler;
 * RKMK paper §6, eqs. (53), (55), errata E-R13, E-R14).
 *
 *   B_0 = P(W) = sum psi_m T_m, psi_m = -omega_m / |m|^2 (xi_0 = grad h = -P);
 *   SALT noise (M = 2 when p->se.noise): Z_1 = amp (T_(1,1) + T_(-1,-1)),
 *   Z_2 = amp (T_(1,-1) + T_(-1,1)), B_i = -Z_i (xi_i = Z_i), i.e. zeta = amp per +-n;
 *   initial conditions: the Fourier coefficients of core/initial-state.c, mapped here.
 * Coordinates and matrix form as fast/sun.h; basis: fast/sine-euler-basis.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/diag.h"
#include "slpi/problem-shape.h"
#include "core/view-system.h"
#include "core/check.h"
#include "fast/sine-euler.h"
#include "fast/sun.h"

typedef double complex cplx;

typedef struct {
    slpi_fast_sun u; /* first member (fast/sun.h) */
    slpi_fast_sine_euler_basis b;
    int M;
    cplx *Z;     /* M noise matrices */
    cplx *X, *P; /* scratch */
    cplx *X0;    /* the reference state of the diagnostics */
    cplx *om;    /* nm Fourier coefficients */
} se_ctx;

static se_ctx *se_of(const slpi_fast_system *s)
{
    return (se_ctx *)s->data;
}

static void se_m_gen_sum(slpi_fast_sun *u, const double *delta, const cplx *Y, cplx *Psi)
{
    se_ctx *c = (se_ctx *)u;
    size_t NN = (size_t)u->N * u->N;
    memset(Psi, 0, NN * sizeof *Psi);
    slpi_fast_sine_euler_stream(&c->b, delta[0], Y, Psi);
    for (int i = 0; i < c->M; i++)
        for (size_t e = 0; e < NN; e++) Psi[e] -= delta[i + 1] * c->Z[i * NN + e];
}

/* xi_k at X (k = 0: -P(X); k >= 1: Z_k), or its derivative along X. */
static void se_gen(slpi_fast_sun *u, int k, const cplx *X, int derivative, cplx *out)
{
    se_ctx *c = (se_ctx *)u;
    size_t NN = (size_t)c->u.N * c->u.N;
    memset(out, 0, NN * sizeof *out);
    if (k == 0)
        slpi_fast_sine_euler_stream(&c->b, -1.0, X, out);
    else if (!derivative)
        memcpy(out, c->Z + (size_t)(k - 1) * NN, NN * sizeof *out);
}

/* W0 = sum omega_m T_m (core's Fourier description, (Re, Im) per mode). */
static int se_initial_map(const slpi_fast_system *s, double *x, const double *om, slpi_error *err)
{
    se_ctx *c = se_of(s);
    const slpi_fast_sine_euler_basis *b = &c->b;
    (void)err;
    for (int k = 0; k < b->nm; k++) c->om[k] = CMPLX(om[2 * k], om[2 * k + 1]);
    slpi_fast_sine_euler_from_fourier(b, c->om, c->X);
    slpi_fast_sun_pack(x, c->X, b->N);
    return SLPI_OK;
}

static double se_energy(se_ctx *c, const cplx *W)
{
    int N = c->u.N;
    double h = 0;
    memset(c->P, 0, (size_t)N * N * sizeof *c->P);
    slpi_fast_sine_euler_stream(&c->b, 1.0, W, c->P);
    /* h = 1/2 Tr(W P) */
    for (int a = 0; a < N; a++)
        for (int e = 0; e < N; e++) h += creal(W[a + (size_t)N * e] * c->P[e + (size_t)N * a]);
    return 0.5 * h;
}

static void se_diagnostics(const slpi_fast_system *s, slpi_diag *d, const double *x, const double *x0)
{
    se_ctx *c = se_of(s);
    int N = c->u.N;
    cplx *X0 = x0 ? c->X0 : NULL;
    slpi_fast_sun_unpack(c->X, x, N);
    double h = se_energy(c, c->X), dep = 0;
    slpi_diag_add(d, "H0", h);
    slpi_fast_sine_euler_to_fourier(&c->b, c->X, c->om);
    for (int k = 0; k < c->b.nm; k++) dep = fmax(dep, fabs(cimag(c->om[k])));
    slpi_diag_add(d, "real_even_dev", dep);
    if (X0) {
        slpi_fast_sun_unpack(X0, x0, N);
        double h0 = se_energy(c, X0);
        slpi_diag_add(d, "H0_rel_dev", slpi_fast_rel_dev(h, h0));
    }
    slpi_fast_sun_diagnostics(&c->u, d, c->X, X0, SLPI_SUN_DIAG_SE);
}

static void se_clear(slpi_fast_system *s)
{
    se_ctx *c = se_of(s);
    if (!c) return;
    slpi_fast_sun_clear(&c->u);
    free(c->Z);
    free(c->X);
    free(c->P);
    free(c->X0);
    free(c->om);
    free(c);
    s->data = NULL;
}

int slpi_fast_sys_sine_euler(slpi_fast_system *s, const slpi_problem *p, slpi_error *err)
{
    const slpi_system_view *sys = slpi_view_system(p);
    slpi_fast_sine_euler_basis b;
    int rc = slpi_fast_sine_euler_basis_init(&b, sys->se.N, err);
    if (rc) return rc;
    if (!(sys->se.amp >= 0 && isfinite(sys->se.amp)))
        return slpi_error_set(err, SLPI_EINPUT, "sine-euler: amp = %g must be finite, >= 0", sys->se.amp);
    int N = b.N, M = sys->se.noise ? 2 : 0;
    /* slpi_fast_create validated the problem: core's layout comes from the same N */
    if (SLPI_NEVER(M != slpi_problem_noise_count(p) || N * N != slpi_problem_state_dim(p)))
        return slpi_error_set(err, SLPI_EINPUT, "sine-euler: core layout (dim %d, M %d) disagrees with N = %d",
                              slpi_problem_state_dim(p), slpi_problem_noise_count(p), N);
    se_ctx *c = calloc(1, sizeof *c);
    if (!c) return slpi_error_set(err, SLPI_EINPUT, "sine-euler: out of memory");
    s->data = c;
    s->clear = se_clear;
    rc = slpi_fast_sun_init(&c->u, N, se_m_gen_sum, se_gen, err);
    if (rc) {
        se_clear(s);
        return rc;
    }
    size_t NN = (size_t)N * N;
    c->b = b;
    c->M = M;
    c->Z = calloc((size_t)(M ? M : 1) * NN, sizeof *c->Z);
    c->X = malloc(NN * sizeof *c->X);
    c->P = malloc(NN * sizeof *c->P);
    c->X0 = malloc(NN * sizeof *c->X0);
    c->om = malloc((size_t)b.nm * sizeof *c->om);
    if (!c->Z || !c->X || !c->P || !c->X0 || !c->om) {
        se_clear(s);
        return slpi_error_set(err, SLPI_EINPUT, "sine-euler: out of memory at N = %d", N);
    }
    static const int zmode[2][2] = { { 1, 1 }, { 1, -1 } };
    for (int i = 0; i < M; i++) {
        slpi_fast_sine_euler_add(&b, slpi_fast_sine_euler_mode(&b, zmode[i][0], zmode[i][1]), sys->se.amp,
                                 c->Z + i * NN);
        slpi_fast_sine_euler_add(&b, slpi_fast_sine_euler_mode(&b, -zmode[i][0], -zmode[i][1]), sys->se.amp,
                                 c->Z + i * NN);
    }

    s->name = "sine-euler";
    s->state_dim = s->dim = N * N;
    s->M = M;
    s->initial_map = se_initial_map;
    s->diagnostics = se_diagnostics;
    slpi_fast_sun_fill_ops(s);
    return SLPI_OK;
}
