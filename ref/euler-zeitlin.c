/* euler-zeitlin.c — the certified system file for Euler–Zeitlin on su(N), N <= 1024
 * (N > 512: ISOMP on the BLAS route only; docs/systems.md#euler-zeitlin; ISO, §6.4, eqs. (40)–(44)), at the matrix
 * level of ref/system.h:
 * and its family (docs/systems.md#zeitlin-family):
 *   B_0(X) = L^{-1}(X - F), L = Delta_N - kappa^2 (eq. (40) at kappa = 0, F = 0; trace
 *   removed first: docs/schemes.md#isomp), F the background (rotation, background_modes),
 *   or L given by its multiplier lambda(l): B_0 = sum_alpha omega_alpha(X - F)/lambda(l) Y_alpha,
 *   one analysis and one synthesis (on the BLAS route's products where the step takes it);
 *   noise (43)/(44), degrees l = floor(N/2)..N-1, a_l = amp/(l(l+1)), noise component
 *   k = 1..M <-> alpha = floor(N/2)^2 - 1 + (k-1) (docs/systems.md#euler-zeitlin order):
 *     reading (Q): B_k(X) = -a_l omega_alpha(X) Y_alpha;   reading (L): B_k = -a_l Y_alpha;
 *   noise=modes: B_k = -amp_k Y_alpha_k, the user's list;
 *   noise=fields: B_k = -xi_k, the user's fields (their binary64 coefficients, exact balls).
 * Invariants: H0 = -1/2 Tr((L^{-1}(X - F))^* (X - F)) (E-I2 sign), then su(N)'s Casimirs
 * (ref/algebra-su.c; Im Tr X is the central Casimir of U(N), for SVI-LP). The operator
 * L^{-1}, the tables and the background at a precision: ref/euler-zeitlin-operator.c; the
 * data the two files share: ref/euler-zeitlin.h. */
#include "slpi/errors.h"
#include "slpi/problem-shape.h"
#include "core/slpi-flint.h"
#include "core/view-cert.h"
#include "core/view-system.h"
#include "core/check.h"
#include "core/zeitlin-family.h"
#include "ref/algebra.h"
#include "ref/euler-zeitlin.h"
#include "ref/matrix.h"
#include "ref/mrmat.h"
#include "ref/zeitlin.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void ez_m_unpack(const slpi_ref_system *s, acb_mat_t X, arb_srcptr mu, slong prec)
{
    slpi_ref_sun_unpack(X, mu, s->N, prec);
}

static void ez_m_pack(const slpi_ref_system *s, arb_ptr mu, const acb_mat_t X, slong prec)
{
    slpi_ref_sun_pack(mu, X, s->N, prec);
}

/* Noise component k >= 1: alpha, and the coefficient c of B_k = c Y_alpha scaled by
 * the exact increment d: c = -d a_l omega_alpha(X) under (Q); under (L) c = -d a_l,
 * or c = 0 for the derivative (deriv = 1). */
static int noise_coeff(const slpi_ref_system *s, int k, double d, arb_t c, const acb_mat_t X, int deriv, slong prec)
{
    const slpi_ref_ez_data *e = s->data;
    const slpi_ref_zeitlin *z;
    int alpha = e->alpha[k - 1], l = slpi_ref_zeitlin_degree(alpha);
    if (e->noise == SLPI_EZ_NOISE_Q && (z = slpi_ref_ez_harmonics(s, prec)) != NULL)
        slpi_ref_zeitlin_coeff(c, X, alpha, z, prec);
    else if (e->noise == SLPI_EZ_NOISE_Q)
        arb_indeterminate(c);
    else
        arb_set_si(c, !deriv);
    arb_t t;
    arb_init(t);
    arb_set_d(t, -d); /* exact: -d a_l, or -d amp_k */
    arb_mul(t, t, e->noise == SLPI_EZ_NOISE_MODES ? e->ka + k - 1 : e->a + l, prec);
    arb_mul(c, c, t, prec);
    arb_clear(t);
    return alpha;
}

/* The noise (Q)'s weights on the BLAS route (slpi_ref_zeitlin_noise_weights_mr) for the
 * increments delta, made once for a step's generator sums (e->wq; NULL where a ball is
 * beyond the double range or out of memory) */
static const double *noise_q_weights(const slpi_ref_system *s, const double *delta)
{
    slpi_ref_ez_data *e = s->data;
    size_t nd = sizeof(double) * ((size_t)s->M + 1);
    if (e->wq != NULL && memcmp(e->wq_delta, delta, nd) == 0) return e->wq;
    free(e->wq);
    e->wq = NULL;
    if (e->wq_delta == NULL && (e->wq_delta = malloc(nd)) == NULL) return NULL;
    e->wq = slpi_ref_zeitlin_noise_weights_mr(delta, s->M, e->alpha, e->alpha0, e->a, s->N);
    memcpy(e->wq_delta, delta, nd);
    return e->wq;
}

/* T = sum_k delta_k B_k(V) (deriv: DB_k) in Arb: the coefficients one by one, one
 * synthesis (the BLAS route's where mr != NULL) */
static void noise_arb(const slpi_ref_system *s, acb_mat_t T, const double *delta, const acb_mat_t V, int deriv,
                      const slpi_ref_zeitlin_mr *mr, slong prec)
{
    const slpi_ref_ez_data *e = s->data;
    /* the noise components are among alpha = alpha0 .. N^2 - 2: one synthesis */
    int N = s->N, alpha0 = e->alpha0, nal = N * N - 1 - alpha0;
    arb_ptr cv = _arb_vec_init(nal);
    arb_t ck;
    arb_init(ck);
    for (int k = 1; k <= s->M; k++)
        if (delta[k] != 0 && e->noise == SLPI_EZ_NOISE_FIELDS && !deriv) { /* constant: DB_k = 0 */
            arb_set_d(ck, -delta[k]);
            _arb_vec_scalar_addmul(cv, e->xi + (slong)(k - 1) * nal, nal, ck, prec);
        } else if (delta[k] != 0 && e->noise != SLPI_EZ_NOISE_FIELDS) {
            int alpha = noise_coeff(s, k, delta[k], ck, V, deriv, prec);
            arb_add(cv + alpha - alpha0, cv + alpha - alpha0, ck, prec);
        }
    if (mr == NULL || !slpi_ref_zeitlin_synthesis_mr(T, cv, alpha0, mr, slpi_ref_ez_tables(s, prec), prec)) {
        const slpi_ref_zeitlin *zh = slpi_ref_ez_harmonics(s, prec);
        if (zh != NULL)
            slpi_ref_zeitlin_synthesis(T, cv, alpha0, zh, prec);
        else
            acb_mat_indeterminate(T);
    }
    arb_clear(ck);
    _arb_vec_clear(cv, nal);
}

/* H0 = -1/2 Re Tr((L^{-1} X)^* X) (X - F given). */
static void h0(const slpi_ref_system *s, arb_t H, const acb_mat_t X, slong prec)
{
    const slpi_ref_ez_data *e = s->data;
    int N = s->N;
    if (e->lam == NULL) {
        slpi_ref_zeitlin_h0(H, X, slpi_ref_ez_tables(s, prec), prec);
        return;
    }
    acb_mat_t P;
    acb_mat_init(P, N, N);
    slpi_ref_ez_solve(s, P, X, 0, prec);
    arb_zero(H);
    for (int a = 0; a < N; a++) /* Re(conj(P_ab) X_ab) = Re P Re X + Im P Im X */
        for (int b = 0; b < N; b++) {
            arb_addmul(H, acb_realref(acb_mat_entry(P, a, b)), acb_realref(acb_mat_entry(X, a, b)), prec);
            arb_addmul(H, acb_imagref(acb_mat_entry(P, a, b)), acb_imagref(acb_mat_entry(X, a, b)), prec);
        }
    arb_mul_2exp_si(H, H, -1);
    arb_neg(H, H);
    acb_mat_clear(P);
}

/* B = sum_k delta_k B_k(X) (W == NULL) or sum_k delta_k DB_k(X)[W]: B_0 and the (Q)
 * generators are linear in X, the (L) ones constant. The Poisson solve, O(N^2) per
 * diagonal, and the noise as one basis analysis (Q) and one synthesis of its
 * coefficients, O(N^3): on the BLAS route's products when the step takes it. */
static void ez_m_gen_sum(const slpi_ref_system *s, acb_mat_t B, const double *delta, const acb_mat_t X,
                         const acb_mat_t W, slong prec)
{
    slpi_ref_ez_tables(s, prec); /* the tables and the amplitudes a_l at this precision */
    const acb_mat_struct *V = W != NULL ? W : X;
    arb_t c;
    arb_init(c);
    const slpi_ref_ez_data *e = s->data;
    acb_mat_zero(B);
    if (delta[0] != 0) {
        slpi_ref_ez_solve(s, B, V, 1, prec);
        if (e->has_F && W == NULL) acb_mat_sub(B, B, e->G, prec);
        arb_set_d(c, delta[0]);
        acb_mat_scalar_mul_arb(B, B, c, prec);
    }
    if (s->M > 0) {
        const slpi_ref_zeitlin_mr *mr = slpi_ref_ez_tables_mr(s, prec);
        const double *w = mr != NULL && e->noise == SLPI_EZ_NOISE_Q ? noise_q_weights(s, delta) : NULL;
        acb_mat_t T;
        acb_mat_init(T, s->N, s->N);
        if (w == NULL || !slpi_ref_zeitlin_noise_mr(T, V, e->alpha0, w, w + s->N * s->N - 1 - e->alpha0, mr))
            noise_arb(s, T, delta, V, W != NULL, mr, prec);
        acb_mat_add(B, B, T, prec);
        acb_mat_clear(T);
    }
    arb_clear(c);
}

/* ez_m_gen_sum on the BLAS route's doubles (the slot m_gen_sum_mr) */
static int ez_m_gen_sum_mr(const slpi_ref_system *s, slpi_ref_mr *B, const double *delta, const slpi_ref_mr *X,
                           const slpi_ref_mr *W, slong prec)
{
    slpi_ref_ez_tables(s, prec);
    slpi_ref_ez_data *e = s->data;
    const slpi_ref_zeitlin_mr *mr = slpi_ref_ez_tables_dd(s);
    slpi_ref_mr g = { 0 };
    const double *w = NULL;
    int ok = e->lam == NULL && (s->M == 0 || (mr != NULL && e->noise == SLPI_EZ_NOISE_Q)) &&
        (!e->has_F || W != NULL || slpi_ref_mrmat_get(&g, e->G, 2)) &&
        (s->M == 0 || (w = noise_q_weights(s, delta)) != NULL);
    if (ok && delta[0] != 0) slpi_ref_zeitlin_factors_mr(&e->z);
    ok = ok &&
        slpi_ref_zeitlin_gen_sum_dd(B, W != NULL ? W : X, delta[0], g.mid != NULL ? &g : NULL, w, e->alpha0, &e->z, mr);
    slpi_ref_mrmat_clear(&g);
    return ok;
}

/* B_k(X) (W NULL) or its derivative along W; out of memory: indeterminate (never certified) */
static void ez_m_gen_one(const slpi_ref_system *s, int k, acb_mat_t B, const acb_mat_t X, const acb_mat_t W, slong prec)
{
    double *delta = calloc((size_t)s->M + 1, sizeof(double));
    if (delta) delta[k] = 1;
    if (delta)
        ez_m_gen_sum(s, B, delta, X, W, prec);
    else
        acb_mat_indeterminate(B);
    free(delta);
}

static void ez_m_gen(const slpi_ref_system *s, int k, acb_mat_t B, const acb_mat_t X, slong prec)
{
    ez_m_gen_one(s, k, B, X, NULL, prec);
}

static void ez_m_dgen(const slpi_ref_system *s, int k, acb_mat_t dB, const acb_mat_t X, const acb_mat_t W, slong prec)
{
    ez_m_gen_one(s, k, dB, X, W, prec);
}

static void ez_invariants(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec)
{
    int N = s->N;
    acb_mat_t X;
    acb_mat_init(X, N, N);
    slpi_ref_sun_unpack(X, x, N, prec);
    const slpi_ref_ez_data *e = s->data;
    if (e->has_F) acb_mat_sub(X, X, e->F, prec);
    h0(s, out + 0, X, prec);
    acb_mat_clear(X);
    slpi_ref_su_casimirs(s, out, x, prec);
}

/* X0 = F + sum omega_alpha Y_alpha (core's description). */
static void ez_initial_map(const slpi_ref_system *s, arb_ptr x, const double *c, slong prec)
{
    const slpi_ref_ez_data *e = s->data;
    int N = s->N, n = N * N - 1;
    arb_ptr om = _arb_vec_init(n);
    acb_mat_t X;
    acb_mat_init(X, N, N);
    for (int i = 0; i < n; i++) arb_set_d(om + i, c[i]);
    slpi_ref_ez_synthesis_all(s, X, om, prec);
    if (e->has_F) acb_mat_add(X, X, e->F, prec);
    slpi_ref_sun_pack(x, X, N, prec);
    acb_mat_clear(X);
    _arb_vec_clear(om, n);
}

static void ez_clear(slpi_ref_system *s)
{
    slpi_ref_ez_data *d = s->data;
    slpi_ref_zeitlin_clear(&d->z);
    slpi_ref_ez_free(d);
    s->data = NULL;
}

/* noise=fields: the fields of the file slpi_problem_finish read (its count and digest),
 * their binary64 coefficients as exact balls. */
static int fields(slpi_ref_ez_data *d, const slpi_problem *p, slpi_error *err)
{
    const slpi_system_view *sys = slpi_view_system(p);
    int M, M0 = slpi_problem_noise_count(p);
    uint64_t digest;
    double *xi = NULL;
    if (slpi_zeitlin_fields_read(sys->ez.noise_fields, sys->ez.N, &xi, &M, &digest, err) != SLPI_OK) return SLPI_EINPUT;
    if (M != M0 || digest != sys->ez.noise_fields_digest) {
        free(xi);
        return slpi_error_set(err, SLPI_EINPUT,
                              "noise_fields=%s: %d fields of digest %llu, the problem has %d of "
                              "noise_fields_digest=%llu: the file changed (slpi_problem_finish reads it)",
                              sys->ez.noise_fields, M, (unsigned long long)digest, M0,
                              (unsigned long long)sys->ez.noise_fields_digest);
    }
    d->nxi = (slong)M * (sys->ez.N * sys->ez.N - 1);
    d->xi = _arb_vec_init(d->nxi);
    for (slong i = 0; i < d->nxi; i++) arb_set_d(d->xi + i, xi[i]);
    free(xi);
    return SLPI_OK;
}

int slpi_ref_sys_euler_zeitlin(slpi_ref_system *s, const slpi_problem *p, slpi_error *err)
{
    const slpi_cert_view *cert = slpi_view_cert(p);
    const slpi_system_view *sys = slpi_view_system(p);
    int N = sys->ez.N;
    if (N < 2 || N > SLPI_ZEITLIN_NMAX)
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: N=%d: the certified path covers N = 2..%d", N,
                              SLPI_ZEITLIN_NMAX);
    if (N > SLPI_ZEITLIN_ARB_NMAX && !slpi_ref_mrmat_route(p, N, cert->prec))
        return slpi_error_set(err, SLPI_EINPUT,
                              "euler-zeitlin: N=%d: the certified path covers N = 2..%d, and up to %d "
                              "with ISOMP on the BLAS route (matmul=auto|blas, docs/design.md#blas-route)",
                              N, SLPI_ZEITLIN_ARB_NMAX, SLPI_ZEITLIN_NMAX);
    /* slpi_ref_create validated the problem: the key table's enum range (core/problem-keys.c) */
    if (SLPI_NEVER((unsigned)sys->ez.noise > SLPI_EZ_NOISE_FIELDS))
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: noise=%d unknown", (int)sys->ez.noise);
    if (!isfinite(sys->ez.amp) || sys->ez.amp < 0)
        return slpi_error_set(err, SLPI_EINPUT, "euler-zeitlin: amp=%g: must be finite, >= 0", sys->ez.amp);
    int M = slpi_problem_noise_count(p), nb = slpi_zeitlin_modes_count(sys->ez.background_modes);
    slpi_zeitlin_mode *md = flint_malloc(sizeof *md * (size_t)(M + 1));
    slpi_ref_ez_data *d = flint_calloc(1, sizeof(slpi_ref_ez_data));
    d->lmin = N / 2;
    d->noise = sys->ez.noise;
    d->amp = sys->ez.amp;
    d->kappa = sys->ez.kappa;
    d->rotation = sys->ez.rotation;
    d->a = _arb_vec_init(N);
    d->alpha = flint_malloc(sizeof(int) * (size_t)(M + 1));
    d->nka = d->noise == SLPI_EZ_NOISE_MODES ? M : 0;
    d->ka = _arb_vec_init(d->nka);
    d->bg = flint_malloc(sizeof *d->bg * (size_t)(nb + 1));
    d->nb = nb;
    d->has_F = nb > 0 || sys->ez.rotation != 0;
    acb_mat_init(d->F, d->has_F ? N : 0, d->has_F ? N : 0);
    acb_mat_init(d->G, d->has_F ? N : 0, d->has_F ? N : 0);
    /* core validated the lists (slpi_zeitlin_family_check): they parse */
    int rc = SLPI_OK;
    if (d->noise == SLPI_EZ_NOISE_MODES &&
        SLPI_NEVER(slpi_zeitlin_modes_parse(md, "noise_modes", sys->ez.noise_modes, N, err) != M))
        rc = SLPI_EINPUT;
    if (nb > 0 &&
        SLPI_NEVER(slpi_zeitlin_modes_parse(d->bg, "background_modes", sys->ez.background_modes, N, err) != nb))
        rc = SLPI_EINPUT;
    if (d->noise == SLPI_EZ_NOISE_FIELDS && rc == SLPI_OK) rc = fields(d, p, err);
    slong prec = cert->prec > 0 ? cert->prec : 128;
    if (sys->ez.multiplier[0] && rc == SLPI_OK) rc = slpi_ref_ez_multiplier(d, p, N, prec, err);
    d->alpha0 = d->noise == SLPI_EZ_NOISE_MODES ? N * N - 2
        : d->noise == SLPI_EZ_NOISE_FIELDS      ? 0
                                                : d->lmin * d->lmin - 1;
    for (int k = 0; k < M && rc == SLPI_OK; k++) {
        d->alpha[k] = d->noise == SLPI_EZ_NOISE_MODES ? md[k].alpha
            : d->noise == SLPI_EZ_NOISE_FIELDS        ? 0
                                                      : d->lmin * d->lmin - 1 + k;
        if (d->noise == SLPI_EZ_NOISE_MODES) arb_set_d(d->ka + k, md[k].amp);
        if (d->alpha[k] < d->alpha0) d->alpha0 = d->alpha[k];
    }
    flint_free(md);
    if (rc == SLPI_OK) rc = slpi_ref_zeitlin_init(&d->z, N, prec, err);
    if (rc != SLPI_OK) {
        d->z.N = N; /* ez_free's length of a; init failed before its tables */
        slpi_ref_ez_free(d);
        return rc;
    }
    slpi_ref_ez_amplitudes(d, prec);
    if (slpi_ref_mrmat_route(p, N, prec)) /* the BLAS route's tables, before the first step */
        d->mr_state = slpi_ref_zeitlin_mr_init(&d->mr, N) ? 1 : -1;

    s->p = p;
    s->state_dim = slpi_problem_state_dim(p);
    s->dim = N * N;
    s->M = slpi_problem_noise_count(p);
    s->h0_quadratic = !d->has_F; /* F adds a linear term */
    s->data = d;
    s->N = N;
    s->blas_only = N > SLPI_ZEITLIN_ARB_NMAX ? "the T_lm tables as balls cover N = 2..512" : NULL;
    s->m_unpack = ez_m_unpack;
    s->m_pack = ez_m_pack;
    s->m_gen = ez_m_gen;
    s->m_dgen = ez_m_dgen;
    s->m_gen_sum = ez_m_gen_sum;
    s->m_gen_sum_mr = ez_m_gen_sum_mr;
    slpi_ref_matrix_attach(s);

    s->inv_name[0] = "H0";
    s->inv_delta_name[0] = "H0_rel_dev";
    s->inv_rel[0] = 1;
    slpi_ref_su_casimir_names(s);
    s->invariants = ez_invariants;
    s->clear = ez_clear;
    s->initial_map = ez_initial_map;
    slpi_ref_ez_family(s, prec);
    return SLPI_OK;
}
