/* euler-zeitlin.c — the Euler–Zeitlin system on su(N) for the double path (docs/systems.md#euler-zeitlin;
 * ISO paper §6.4, eqs. (40)–(44), errata E-I2..E-I4), and its family
 * (docs/systems.md#zeitlin-family).
 *
 *   B_0 = (Delta_N - kappa^2)^{-1} (X - F) (after trace removal), or with a multiplier
 *   B_0 = L^{-1} (X - F) = sum_alpha omega_alpha(X - F) / lambda(l) Y_alpha (one modal pass),
 *   H_0 = -1/2 Tr(((Delta_N - kappa^2)^{-1}(X - F))^* (X - F)); kappa = 0, F = 0: the built-in;
 *   built-in noise on degrees l = floor(N/2)..N-1, a_l = amp / (l(l+1)), one Wiener process per
 *   real basis element Y_alpha, in the order alpha = l^2 - 1 + j (component k = 1..M is
 *   alpha = lmin^2 - 1 + k - 1), M = N^2 - floor(N/2)^2 (3N^2/4 for even N; for odd N,
 *   e.g. N = 5: l = 2..4, M = 21);
 *   reading (Q), default: B_alpha = -a_l omega_alpha(X) Y_alpha (H_alpha = a_l omega^2/2);
 *   reading (L): B_alpha = -a_l Y_alpha (constant, SALT-type);
 *   noise=modes: B_k = -amp_k Y_alpha_k, the user's modes (H_k = <X, amp_k Y_alpha_k>);
 *   noise=fields: B_k = -xi_k, the user's fields (H_k = <X, xi_k>), one synthesis per step.
 * Coordinates and matrix form as fast/sun.h. The basis data is fast/zeitlin-basis.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/diag.h"
#include "slpi/problem-shape.h"
#include "core/view-system.h"
#include "fast/model-tape.h"
#include "fast/sun.h"
#include "fast/zeitlin.h"
#include "core/zeitlin-family.h"

typedef double complex cplx;

typedef struct {
    slpi_fast_sun u; /* first member (fast/sun.h) */
    slpi_fast_zeitlin z;
    slpi_ez_noise noise;
    int M, lmin;
    double amp;
    int *alpha;   /* M basis indices of the components */
    double *a;    /* M amplitudes of the components (a_l, amp_k of noise=modes, 1 of noise=fields) */
    double *xi;   /* noise=fields: the M fields' coefficients, row k-1 = xi_k (N^2 - 1 each) */
    double *cf;   /* noise=fields: scratch, sum_k w_k xi_k */
    cplx *F, *G;  /* the background F and L^{-1} F; NULL: F = 0 */
    double *ilam; /* multiplier: 1/lambda(l) per alpha (N^2 - 1); NULL: Delta_N - kappa^2 */
    double *w;    /* M modal weights -a_l delta_k of the last increments */
    double *weta; /* reading Q: the increments w was formed from */
    double *leta; /* reading L: increments of the cached constant field */
    cplx *lfield; /* reading L: sum_k delta_k B_k, cached per step */
    cplx *X, *P;  /* scratch for the coordinate operations */
    cplx *X0;     /* the reference state of the diagnostics */
} ez_ctx;

static ez_ctx *ez_of(const slpi_fast_system *s)
{
    return (ez_ctx *)s->data;
}

static double ez_a(const ez_ctx *c, int alpha)
{
    int l = slpi_fast_zeitlin_degree(alpha);
    return c->amp / ((double)l * (l + 1));
}

/* w_k = -a_l delta_k, formed when the increments change: once per step, not once per
 * solver iteration (cache keyed on the increments' values, as reading L's field). */
static void ez_weights(ez_ctx *c, const double *delta, double *cached)
{
    if (memcmp(cached, delta + 1, (size_t)c->M * sizeof *delta) == 0) return;
    memcpy(cached, delta + 1, (size_t)c->M * sizeof *delta);
    for (int k = 0; k < c->M; k++) c->w[k] = -c->a[k] * delta[k + 1];
}

/* P = c L^{-1} (X - Tr(X)/N I): the tridiagonal solves of Delta_N - kappa^2, or the
 * multiplier's modal pass (the skew-Hermitian part of X, as reading Q's). */
static void ez_solve(const ez_ctx *c, cplx *P, const cplx *X, double coef)
{
    if (!c->ilam) {
        slpi_fast_zeitlin_poisson(P, X, coef, &c->z);
        return;
    }
    size_t NN = (size_t)c->u.N * c->u.N;
    memset(P, 0, NN * sizeof *P);
    slpi_fast_zeitlin_modal(P, c->ilam, X, 1, &c->z);
    for (size_t i = 0; i < NN; i++) P[i] *= coef;
}

/* noise=fields: lfield = sum_k w_k xi_k, the coefficients summed, then one synthesis. */
static void ez_fields_sum(ez_ctx *c)
{
    size_t n = (size_t)c->u.N * c->u.N - 1;
    memset(c->cf, 0, n * sizeof *c->cf);
    for (int k = 0; k < c->M; k++) {
        if (c->w[k] == 0) continue;
        for (size_t i = 0; i < n; i++) c->cf[i] += c->w[k] * c->xi[(size_t)k * n + i];
    }
    slpi_fast_zeitlin_synthesis(c->lfield, c->cf, &c->z);
}

/* Psi = eta_0 L^{-1} (Y - F) + sum_k delta_k B_k(Y), L = Delta_N - kappa^2 or the multiplier's. */
static void ez_m_gen_sum(slpi_fast_sun *u, const double *delta, const cplx *Y, cplx *Psi)
{
    ez_ctx *c = (ez_ctx *)u;
    int N = u->N;
    size_t NN = (size_t)N * N;
    ez_solve(c, Psi, Y, delta[0]);
    if (c->G)
        for (size_t i = 0; i < NN; i++) Psi[i] -= delta[0] * c->G[i];
    if (c->noise == SLPI_EZ_NOISE_NONE || c->M == 0) return;
    if (c->noise == SLPI_EZ_NOISE_Q) {
        ez_weights(c, delta, c->weta);
        slpi_fast_zeitlin_modal(Psi, c->w, Y, c->lmin, &c->z);
        return;
    }
    if (memcmp(c->leta, delta + 1, (size_t)c->M * sizeof *delta) != 0) {
        ez_weights(c, delta, c->weta);
        memcpy(c->leta, delta + 1, (size_t)c->M * sizeof *delta);
        memset(c->lfield, 0, NN * sizeof *c->lfield);
        if (c->noise == SLPI_EZ_NOISE_MODES)
            for (int k = 0; k < c->M; k++) slpi_fast_zeitlin_add_mode(c->lfield, c->alpha[k], c->w[k], &c->z);
        else if (c->noise == SLPI_EZ_NOISE_FIELDS)
            ez_fields_sum(c);
        else
            slpi_fast_zeitlin_modal(c->lfield, c->w, NULL, c->lmin, &c->z);
    }
    for (size_t i = 0; i < NN; i++) Psi[i] += c->lfield[i];
}

/* xi_k = -B_k: the generator of component k evaluated at the matrix X, into P. */
static void ez_gen(slpi_fast_sun *u, int k, const cplx *X, int derivative, cplx *P)
{
    ez_ctx *c = (ez_ctx *)u;
    int N = u->N;
    size_t NN = (size_t)N * N;
    if (k == 0) {
        ez_solve(c, P, X, -1.0);
        if (c->G && !derivative)
            for (size_t i = 0; i < NN; i++) P[i] += c->G[i];
        return;
    }
    memset(P, 0, NN * sizeof *P);
    if (c->noise == SLPI_EZ_NOISE_FIELDS) {
        if (!derivative) slpi_fast_zeitlin_synthesis(P, c->xi + (size_t)(k - 1) * (NN - 1), &c->z);
        return;
    }
    int alpha = c->alpha[k - 1];
    double coef = c->a[k - 1];
    if (c->noise == SLPI_EZ_NOISE_Q)
        coef *= slpi_fast_zeitlin_coeff(X, alpha, &c->z);
    else if (derivative)
        coef = 0.0;
    slpi_fast_zeitlin_add_mode(P, alpha, coef, &c->z);
}

/* X0 = F + sum omega_alpha Y_alpha (core's description) with the binary64 T_lm basis. */
static int ez_initial_map(const slpi_fast_system *s, double *x, const double *om, slpi_error *err)
{
    ez_ctx *c = ez_of(s);
    int top = c->u.N * c->u.N - 2; /* the highest alpha with a coefficient: the basis up to its degree */
    while (top > 0 && om[top] == 0) top--;
    int rc = slpi_fast_zeitlin_degrees(&c->z, slpi_fast_zeitlin_degree(top), err);
    if (rc != SLPI_OK) return rc;
    slpi_fast_zeitlin_synthesis(c->X, om, &c->z);
    if (c->F)
        for (size_t i = 0; i < (size_t)c->u.N * c->u.N; i++) c->X[i] += c->F[i];
    slpi_fast_sun_pack(x, c->X, c->u.N);
    return SLPI_OK;
}

/* H0 = -1/2 <X - F, L^{-1}(X - F)>; X is overwritten by X - F. */
static double ez_h0(ez_ctx *c, cplx *X)
{
    int N = c->u.N;
    double h = 0;
    if (c->F)
        for (size_t i = 0; i < (size_t)N * N; i++) X[i] -= c->F[i];
    ez_solve(c, c->P, X, 1.0);
    for (size_t i = 0; i < (size_t)N * N; i++) h += creal(conj(c->P[i]) * X[i]);
    return -0.5 * h;
}

static void ez_diagnostics(const slpi_fast_system *s, slpi_diag *d, const double *x, const double *x0)
{
    ez_ctx *c = ez_of(s);
    int N = c->u.N;
    cplx *X0 = x0 ? c->X0 : NULL;
    slpi_fast_sun_unpack(c->X, x, N);
    double h = ez_h0(c, c->X);
    slpi_fast_sun_unpack(c->X, x, N);
    slpi_diag_add(d, "H0", h);
    if (X0) {
        slpi_fast_sun_unpack(X0, x0, N);
        double h0 = ez_h0(c, X0);
        slpi_fast_sun_unpack(X0, x0, N);
        slpi_diag_add(d, "H0_rel_dev", slpi_fast_rel_dev(h, h0));
    }
    slpi_fast_sun_diagnostics(&c->u, d, c->X, X0, SLPI_SUN_DIAG_SU);
}

static void ez_clear(slpi_fast_system *s)
{
    ez_ctx *c = ez_of(s);
    if (!c) return;
    slpi_fast_sun_clear(&c->u);
    slpi_fast_zeitlin_clear(&c->z);
    free(c->alpha);
    free(c->a);
    free(c->xi);
    free(c->cf);
    free(c->ilam);
    free(c->F);
    free(c->G);
    free(c->w);
    free(c->weta);
    free(c->leta);
    free(c->lfield);
    free(c->X);
    free(c->P);
    free(c->X0);
    free(c);
    s->data = NULL;
}

/* noise=fields: the fields of the file slpi_problem_finish read (its count and digest). */
static int ez_fields(ez_ctx *c, const slpi_problem *p, slpi_error *err)
{
    const slpi_system_view *sys = slpi_view_system(p);
    int M;
    uint64_t digest;
    if (slpi_zeitlin_fields_read(sys->ez.noise_fields, sys->ez.N, &c->xi, &M, &digest, err) != SLPI_OK)
        return SLPI_EINPUT;
    if (M != c->M || digest != sys->ez.noise_fields_digest)
        return slpi_error_set(err, SLPI_EINPUT,
                              "noise_fields=%s: %d fields of digest %llu, the problem has %d of "
                              "noise_fields_digest=%llu: the file changed (slpi_problem_finish reads it)",
                              sys->ez.noise_fields, M, (unsigned long long)digest, c->M,
                              (unsigned long long)sys->ez.noise_fields_digest);
    c->cf = malloc(((size_t)sys->ez.N * sys->ez.N - 1) * sizeof *c->cf);
    return c->cf ? SLPI_OK : slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: out of memory at N = %d", sys->ez.N);
}

/* multiplier: lambda(l) for l = 1..N-1, each the multiplier's model tape at that l in
 * binary64 (fast/model-tape.h); refused, with core's text, where a constant's domain
 * fails or |lambda(l)| is not within [SLPI_LAMBDA_MIN, SLPI_LAMBDA_MAX] (L not invertible). */
static int ez_multiplier(ez_ctx *c, const slpi_problem *p, slpi_error *err)
{
    int N = slpi_view_system(p)->ez.N, rc = SLPI_OK;
    c->ilam = malloc(((size_t)N * N - 1) * sizeof *c->ilam);
    if (!c->ilam) return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: out of memory at N = %d", N);
    for (int l = 1; l < N && rc == SLPI_OK; l++) {
        slpi_error e;
        slpi_model m;
        slpi_fast_tapes T;
        memset(&T, 0, sizeof T);
        rc = slpi_zeitlin_multiplier_model(&m, p, l, err);
        if (rc == SLPI_OK && slpi_fast_tapes_build(&T, &m, &e) != SLPI_OK)
            rc = slpi_zeitlin_multiplier_refusal(err, p, l, e.msg);
        double lam = rc == SLPI_OK ? T.t[0].v[T.t[0].root[0]] : 0;
        if (rc == SLPI_OK && !(fabs(lam) >= SLPI_LAMBDA_MIN && fabs(lam) <= SLPI_LAMBDA_MAX))
            rc = slpi_zeitlin_multiplier_refusal(err, p, l, NULL);
        for (int j = 0; j <= 2 * l && rc == SLPI_OK; j++) c->ilam[slpi_fast_zeitlin_alpha(l, j)] = 1.0 / lam;
        slpi_fast_tapes_clear(&T);
        slpi_model_free(&m);
    }
    return rc;
}

/* The components' alpha and amplitude (the built-in's degrees, or noise_modes), and the
 * background F (rotation and background_modes) with G = L^{-1} F. */
static int ez_family(ez_ctx *c, const slpi_problem *p, slpi_error *err)
{
    const slpi_system_view *sys = slpi_view_system(p);
    int N = sys->ez.N, M = slpi_problem_noise_count(p), lmin = N / 2;
    int nb = slpi_zeitlin_modes_count(sys->ez.background_modes);
    size_t NN = (size_t)N * N;
    slpi_zeitlin_mode *md = malloc(((size_t)(M > nb ? M : nb) + 1) * sizeof *md);
    c->alpha = malloc(((size_t)M + 1) * sizeof *c->alpha);
    c->a = malloc(((size_t)M + 1) * sizeof *c->a);
    if (!md || !c->alpha || !c->a) {
        free(md);
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: out of memory at N = %d", N);
    }
    if (sys->ez.noise == SLPI_EZ_NOISE_MODES &&
        slpi_zeitlin_modes_parse(md, "noise_modes", sys->ez.noise_modes, N, err) != M) {
        free(md);
        return SLPI_EINPUT;
    }
    if (sys->ez.noise == SLPI_EZ_NOISE_FIELDS && ez_fields(c, p, err) != SLPI_OK) {
        free(md);
        return SLPI_EINPUT;
    }
    for (int k = 0; k < M; k++) {
        c->alpha[k] = sys->ez.noise == SLPI_EZ_NOISE_MODES ? md[k].alpha : lmin * lmin - 1 + k;
        c->a[k] = sys->ez.noise == SLPI_EZ_NOISE_MODES ? md[k].amp
            : sys->ez.noise == SLPI_EZ_NOISE_FIELDS    ? 1.0
                                                       : ez_a(c, c->alpha[k]);
    }
    int lmax = 1; /* the degrees the modes read: the basis up to them */
    for (int k = 0; sys->ez.noise == SLPI_EZ_NOISE_MODES && k < M; k++)
        if (slpi_fast_zeitlin_degree(c->alpha[k]) > lmax) lmax = slpi_fast_zeitlin_degree(c->alpha[k]);
    if (nb > 0 && slpi_zeitlin_modes_parse(md, "background_modes", sys->ez.background_modes, N, err) != nb) {
        free(md);
        return SLPI_EINPUT;
    }
    for (int k = 0; k < nb; k++)
        if (slpi_fast_zeitlin_degree(md[k].alpha) > lmax) lmax = slpi_fast_zeitlin_degree(md[k].alpha);
    int rc = slpi_fast_zeitlin_degrees(&c->z, lmax, err);
    if (rc != SLPI_OK) {
        free(md);
        return rc;
    }
    if (nb == 0 && sys->ez.rotation == 0) {
        free(md);
        return SLPI_OK;
    }
    c->F = calloc(NN, sizeof *c->F);
    c->G = malloc(NN * sizeof *c->G);
    if (!c->F || !c->G) {
        free(md);
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: out of memory at N = %d", N);
    }
    /* f = 2 Omega cos(theta) = 2 Omega sqrt(4 pi / 3) y_10, sqrt(4 pi / 3) = 2.0466534... */
    slpi_fast_zeitlin_add_mode(c->F, slpi_zeitlin_mode_alpha(1, 0), 2.0 * sys->ez.rotation * 2.04665341589297697696,
                               &c->z);
    for (int k = 0; k < nb; k++) slpi_fast_zeitlin_add_mode(c->F, md[k].alpha, md[k].amp, &c->z);
    ez_solve(c, c->G, c->F, 1.0);
    free(md);
    return SLPI_OK;
}

int slpi_fast_sys_euler_zeitlin(slpi_fast_system *s, const slpi_problem *p, slpi_error *err)
{
    const slpi_system_view *sys = slpi_view_system(p);
    int N = sys->ez.N;
    if (N < 2) return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: N = %d must be at least 2", N);
    if ((unsigned)sys->ez.noise > SLPI_EZ_NOISE_FIELDS)
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: unknown noise reading %d", (int)sys->ez.noise);
    if (!(sys->ez.amp >= 0 && isfinite(sys->ez.amp)))
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: amp = %g must be finite, >= 0", sys->ez.amp);
    if (sys->ez.ic_lmax < 0 || sys->ez.ic_lmax > N - 1) /* 0: core's default degree */
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: ic_lmax = %d outside 0..N-1 = %d", sys->ez.ic_lmax,
                              N - 1);
    if (!(sys->ez.scale > 0 && isfinite(sys->ez.scale)))
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: scale = %g must be finite, > 0", sys->ez.scale);
    int lmin = N / 2, M = slpi_problem_noise_count(p);
    if (N * N != slpi_problem_state_dim(p))
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: core layout (dim %d) disagrees with N = %d",
                              slpi_problem_state_dim(p), N);

    ez_ctx *c = calloc(1, sizeof *c);
    if (!c) return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: out of memory");
    s->data = c;
    s->clear = ez_clear;
    c->noise = sys->ez.noise;
    c->M = M;
    c->lmin = lmin;
    c->amp = sys->ez.amp;
    int rc = slpi_fast_sun_init(&c->u, N, ez_m_gen_sum, ez_gen, err);
    /* the basis: of every degree where a map reads them all (reading Q or L, noise=fields, a
     * multiplier), else of those the modes and the initial state read (below) */
    int all = sys->ez.noise == SLPI_EZ_NOISE_Q || sys->ez.noise == SLPI_EZ_NOISE_L ||
        sys->ez.noise == SLPI_EZ_NOISE_FIELDS || sys->ez.multiplier[0];
    if (rc == SLPI_OK) rc = slpi_fast_zeitlin_init_degrees(&c->z, N, all ? N - 1 : 1, err);
    /* the parity blocks of the modal pass: the built-in noise's degrees, else the multiplier's */
    if (rc == SLPI_OK && (sys->ez.noise == SLPI_EZ_NOISE_Q || sys->ez.noise == SLPI_EZ_NOISE_L))
        rc = slpi_fast_zeitlin_modal_init(&c->z, N / 2, err);
    else if (rc == SLPI_OK && sys->ez.multiplier[0])
        rc = slpi_fast_zeitlin_modal_init(&c->z, 1, err);
    if (rc == SLPI_OK && sys->ez.multiplier[0]) rc = ez_multiplier(c, p, err);
    if (rc == SLPI_OK && slpi_fast_zeitlin_set_shift(&c->z, sys->ez.kappa * sys->ez.kappa) != SLPI_OK)
        rc = slpi_error_set(err, SLPI_EINPUT, "kappa=%g: must be finite, >= 0", sys->ez.kappa);
    if (rc == SLPI_OK) rc = ez_family(c, p, err);
    if (rc) {
        ez_clear(s);
        return rc;
    }
    size_t NN = (size_t)N * N;
    c->w = malloc(((size_t)M + 1) * sizeof *c->w);
    c->weta = malloc(((size_t)M + 1) * sizeof *c->weta);
    c->leta = malloc(((size_t)M + 1) * sizeof *c->leta);
    c->lfield = malloc(NN * sizeof *c->lfield);
    c->X = malloc(NN * sizeof *c->X);
    c->P = malloc(NN * sizeof *c->P);
    c->X0 = malloc(NN * sizeof *c->X0);
    if (!c->w || !c->weta || !c->leta || !c->lfield || !c->X || !c->P || !c->X0) {
        ez_clear(s);
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: out of memory at N = %d", N);
    }
    /* NaN increments: the first evaluation always fills the caches */
    for (int k = 0; k < M; k++) {
        c->weta[k] = c->leta[k] = NAN;
        c->w[k] = -c->a[k] * c->weta[k];
    }

    s->name = "euler-zeitlin";
    s->state_dim = s->dim = N * N;
    s->M = M;
    s->initial_map = ez_initial_map;
    s->diagnostics = ez_diagnostics;
    slpi_fast_sun_fill_ops(s);
    return SLPI_OK;
}
