/* ref/isomp.c — ISOMP, the stochastic isospectral midpoint, certified (docs/schemes.md#isomp;
 * ISO §4.3, eqs. (26)-(30)). J-quadratic systems only.
 *
 * With delta = (h, dW_1..dW_M) (already truncated) and Psi(Y) = sum_k delta_k B_k(Y), the
 * midpoint Xt is the zero of (docs/schemes.md#isomp step 1, the derived form of eq. (26) line 2)
 *     F(Y) = Y - X_n - 1/2 [Psi(Y), Y] - 1/4 Psi(Y) Y Psi(Y),
 *     F'(Y)[W] = W - 1/2 ([dPsi, Y] + [Psi, W]) - 1/4 (dPsi Y Psi + Psi W Psi + Psi Y dPsi),
 * dPsi = sum_k delta_k DB_k(Y)[W], enclosed in the packed state coordinates by the
 * Jacobian-free Krawczyk test of the fixed point Y = G(Y) = X_n + 1/2[Psi, Y] +
 * 1/4 Psi Y Psi, or, if G does not contract enough, by the dense Krawczyk test on F.
 * Update COMM: X_{n+1} = X_n + [Psi~, Xt] (eq. (26) line 3); CAY:
 * X_{n+1} = C X_n C^*, C = (I - Psi~/2)^{-1}(I + Psi~/2) (eq. (30); C unitary for the
 * exact skew-Hermitian Psi~, so C^{-1} = C^*), formed as X_n + U - U^* + U K^* with
 * C = I + K, U = K X_n (isomp_update; on the BLAS route K by the verified solve of
 * ref/mrsolve.c; the sums of G, G' and the COMM update in midpoint–radius doubles,
 * route_eval). Fixed-iteration mode (fixed_iters = L):
 * L sweeps Y <- X_n + 1/2[Psi,Y] + 1/4 Psi Y Psi from Y = X_n define the map. */
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/step.h"
#include "core/slpi-flint.h"
#include "core/view-cert.h"
#include "core/view-scheme.h"
#include "core/view-solver.h"
#include "core/view-system.h"
#include "ref/vector-field.h"
#include "ref/matrix.h"
#include <stdio.h>
#include <stddef.h>
#include "ref/krawczyk.h"
#include "ref/scheme.h"
#include "ref/mrmat.h"
#include "ref/isomp-mr.h"

#include <stdlib.h>
#include <string.h>

/* From this size on the midpoint iteration uses approximate products (Gmid). */
#define ISOMP_MID_N 24
typedef void (*mat_mul_fn)(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec);

typedef struct {
    const slpi_ref_system *s;
    const double *delta;
    arb_srcptr x; /* X_n packed */
    acb_mat_t Xn;
    mat_mul_fn mul; /* the enclosing product of the step's route */
    slpi_ref_mr xn; /* on the BLAS route (and for the accurate start): X_n as doubles (xn_ok) */
    int xn_ok;
    slpi_ref_isomp_mr mr; /* there, G and G' in doubles (mr_ok: the system has m_gen_sum_mr) */
    int mr_ok;
    struct psi_at *psi0; /* the accurate step with them: Psi where G was last evaluated on balls */
} isomp_ctx;

/* Psi = Psi(Y), kept for the update (ok: set) */
struct psi_at {
    acb_mat_t Y, Psi;
    int ok;
};

/* The BLAS route's product; where it cannot enclose (a part beyond the double range)
 * Arb's product, an enclosure too. */
static void blas_mul(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec)
{
    char why[160];
    if (!slpi_ref_mrmat_mul(C, A, B, why, sizeof why)) slpi_ref_mat_mul(C, A, B, prec);
}

/* The BLAS route's doubles for the matrices m[0..n) with X_n: complex (2) where X_n is,
 * real (1) where all are real, 0 (the sums in Arb) where X_n is real and one is not */
static int route_c(const isomp_ctx *c, const acb_mat_struct *const *m, int n)
{
    if (!c->xn_ok) return 0;
    for (int i = 0; i < n && c->xn.c == 1; i++)
        if (!slpi_ref_mrmat_is_real(m[i])) return 0;
    return c->xn.c;
}

/* A sum of the step on the BLAS route (slpi_ref_isomp_sum) from ball matrices into out; 0
 * where the route cannot (out then unchanged: the caller's Arb sums) */
typedef struct {
    const acb_mat_struct *A2, *B2, *B3, *A1, *B1;
    double a1, a2, a3;
} route_sum;

static int route_eval(const isomp_ctx *c, acb_mat_t out, const route_sum *t)
{
    const acb_mat_struct *m[5] = { t->A2, t->B2, t->B3, t->A1, t->B1 };
    int n = t->A1 != NULL ? 5 : t->B3 != NULL ? 3 : 2, cc = route_c(c, m, n), ok = cc > 0;
    slpi_ref_mr d[5] = { { 0 } }, S = { 0 };
    const slpi_ref_mr *dp[5] = { NULL };
    for (int i = 0; i < n && ok; i++) {
        int same = i == 2 && m[2] == m[0]; /* Psi Y Psi: Psi once */
        dp[i] = same ? d + 0 : d + i;
        ok = same || slpi_ref_mrmat_get(d + i, m[i], cc);
    }
    slpi_ref_isomp_sum st = { dp[0], dp[1], dp[2], dp[3], dp[4], t->a1, t->a2, t->a3, 0 };
    ok = ok && slpi_ref_isomp_sum_mr(&S, &c->xn, &st);
    if (ok) slpi_ref_mrmat_set(out, &S);
    for (int i = 0; i < 5; i++) slpi_ref_mrmat_clear(d + i);
    slpi_ref_mrmat_clear(&S);
    return ok;
}

/* The accurate step's product (docs/power.md#sliced-products): error-free slicing on BLAS,
 * Arb's where it refuses (a part not finite). */
static void sliced_mul(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec)
{
    if (!slpi_ref_mrmat_mul_sliced(C, A, B, prec)) slpi_ref_mat_mul(C, A, B, prec);
}

/* G(Y) = X_n + 1/2 [Psi, Y] + 1/4 Psi Y Psi, with Psi = Psi(Y) returned too. All
 * matrices are skew-Hermitian at every point of their balls, so with U = Psi Y,
 * [Psi, Y] = U - U^* (slpi_ref_mat_skew_part) and G = X_n + 1/2 (U - U^*) + 1/4 U Psi:
 * two products, by `mul` (slpi_ref_mat_mul for the enclosure, slpi_ref_mat_mul_approx
 * for the midpoint iteration). */
static void isomp_G(const isomp_ctx *c, acb_mat_t G, acb_mat_t Psi, const acb_mat_t Y, mat_mul_fn mul, slong prec)
{
    int N = c->s->N;
    acb_mat_t T, U;
    acb_mat_init(T, N, N);
    acb_mat_init(U, N, N);
    slpi_ref_mat_gen_sum(c->s, Psi, c->delta, Y, prec);
    route_sum t = { Psi, Y, Psi, NULL, NULL, 0, 0.5, 0.25 };
    if (mul == blas_mul && route_eval(c, G, &t)) {
        acb_mat_clear(T);
        acb_mat_clear(U);
        return;
    }
    mul(U, Psi, Y, prec);
    slpi_ref_mat_skew_part(T, U, prec);
    acb_mat_scalar_mul_2exp_si(T, T, -1);
    mul(G, U, Psi, prec);
    acb_mat_scalar_mul_2exp_si(G, G, -2);
    acb_mat_add(G, G, T, prec);
    acb_mat_add(G, G, c->Xn, prec);
    acb_mat_clear(T);
    acb_mat_clear(U);
}

/* G in packed coordinates (the fixed-point form) */
static void isomp_Gpack(const isomp_ctx *c, arb_ptr out, arb_srcptr y, mat_mul_fn mul, slong prec)
{
    const slpi_ref_system *s = c->s;
    acb_mat_t Y, G, Psi;
    acb_mat_init(Y, s->N, s->N);
    acb_mat_init(G, s->N, s->N);
    acb_mat_init(Psi, s->N, s->N);
    s->m_unpack(s, Y, y, prec);
    isomp_G(c, G, Psi, Y, mul, prec);
    s->m_pack(s, out, G, prec);
    if (c->psi0 != NULL && mul == c->mul) {
        acb_mat_swap(c->psi0->Y, Y);
        acb_mat_swap(c->psi0->Psi, Psi);
        c->psi0->ok = 1;
    }
    acb_mat_clear(Y);
    acb_mat_clear(G);
    acb_mat_clear(Psi);
}

static void isomp_Gp(void *ctx, arb_ptr out, arb_srcptr y, slong prec)
{
    const isomp_ctx *c = ctx;
    isomp_Gpack(c, out, y, c->mul, prec);
}

static void isomp_Gp_mid(void *ctx, arb_ptr out, arb_srcptr y, slong prec)
{
    isomp_Gpack(ctx, out, y, slpi_ref_mat_mul_approx, prec);
}

/* G and G' on the route's doubles (ref/isomp-mr.c) */
static int isomp_Gmr(void *ctx, double *om, double *orad, const double *ym, const double *yr)
{
    return slpi_ref_isomp_G_mr(&((isomp_ctx *)ctx)->mr, om, orad, ym, yr);
}

static int isomp_dGmr(void *ctx, double *om, double *orad, const double *ym, const double *yr, const double *zm,
                      const double *zr)
{
    return slpi_ref_isomp_dG_mr(&((isomp_ctx *)ctx)->mr, om, orad, ym, yr, zm, zr);
}

/* The parts of G'(Y) that do not depend on the direction: Psi(Y) and
 * M = 1/2 Y + 1/4 (Psi Y)^* = 1/2 Y + 1/4 Y Psi. */
typedef struct {
    acb_mat_t Y, Psi, M;
} dG_parts;

static void dG_parts_init(const isomp_ctx *c, dG_parts *d, arb_srcptr y, slong prec)
{
    const slpi_ref_system *s = c->s;
    int N = s->N;
    acb_mat_t U;
    acb_mat_init(d->Y, N, N);
    acb_mat_init(d->Psi, N, N);
    acb_mat_init(d->M, N, N);
    acb_mat_init(U, N, N);
    s->m_unpack(s, d->Y, y, prec);
    slpi_ref_mat_gen_sum(s, d->Psi, c->delta, d->Y, prec);
    c->mul(U, d->Psi, d->Y, prec);
    acb_mat_conjugate_transpose(d->M, U);
    acb_mat_scalar_mul_2exp_si(d->M, d->M, -1);
    acb_mat_add(d->M, d->M, d->Y, prec);
    acb_mat_scalar_mul_2exp_si(d->M, d->M, -1);
    acb_mat_clear(U);
}

static void dG_parts_clear(dG_parts *d)
{
    acb_mat_clear(d->Y);
    acb_mat_clear(d->Psi);
    acb_mat_clear(d->M);
}

/* out = G'(Y)[w] = 1/2 ([dPsi, Y] + [Psi, W]) + 1/4 (dPsi Y Psi + Psi W Psi + Psi Y dPsi)
 * (w may be a box of directions). With every matrix skew-Hermitian, A - A^* for
 * A = dPsi Y gives [dPsi, Y], for A = dPsi Y Psi gives dPsi Y Psi + Psi Y dPsi, so
 *     G'(Y)[W] = skew(dPsi M + 1/2 Psi W) + 1/4 (Psi W) Psi,   skew(A) = A - A^*:
 * three products. */
static void dG_apply(const isomp_ctx *c, const dG_parts *d, arb_ptr out, arb_srcptr w, slong prec)
{
    const slpi_ref_system *s = c->s;
    int N = s->N;
    acb_mat_t W, dPsi, T, V, dG;
    acb_mat_init(W, N, N);
    acb_mat_init(dPsi, N, N);
    acb_mat_init(T, N, N);
    acb_mat_init(V, N, N);
    acb_mat_init(dG, N, N);
    s->m_unpack(s, W, w, prec);
    slpi_ref_mat_dgen_sum(s, dPsi, c->delta, d->Y, W, prec);
    route_sum t = { d->Psi, W, d->Psi, dPsi, d->M, 1, 0.5, 0.25 };
    if (c->mul == blas_mul && route_eval(c, dG, &t)) {
        s->m_pack(s, out, dG, prec);
        goto done;
    }
    c->mul(V, d->Psi, W, prec);
    c->mul(T, dPsi, d->M, prec);
    acb_mat_scalar_mul_2exp_si(dG, V, -1);
    acb_mat_add(T, T, dG, prec);
    slpi_ref_mat_skew_part(T, T, prec);
    c->mul(dG, V, d->Psi, prec);
    acb_mat_scalar_mul_2exp_si(dG, dG, -2);
    acb_mat_add(dG, dG, T, prec);
    s->m_pack(s, out, dG, prec);
done:
    acb_mat_clear(W);
    acb_mat_clear(dPsi);
    acb_mat_clear(T);
    acb_mat_clear(V);
    acb_mat_clear(dG);
}

/* G'(y)[w] (w may be a box of directions) */
static void isomp_dG(void *ctx, arb_ptr out, arb_srcptr y, arb_srcptr w, slong prec)
{
    const isomp_ctx *c = ctx;
    dG_parts d;
    dG_parts_init(c, &d, y, prec);
    dG_apply(c, &d, out, w, prec);
    dG_parts_clear(&d);
}

/* F'(Y) = I - G'(Y) column by column, the direction-free parts formed once */
static void isomp_J(void *ctx, arb_mat_t Jm, arb_srcptr y, slong prec)
{
    const isomp_ctx *c = ctx;
    int n = c->s->dim;
    dG_parts d;
    dG_parts_init(c, &d, y, prec);
    arb_ptr w = _arb_vec_init(n), col = _arb_vec_init(n);
    for (int j = 0; j < n; j++) {
        _arb_vec_zero(w, n);
        arb_one(w + j);
        dG_apply(c, &d, col, w, prec);
        for (int i = 0; i < n; i++) arb_sub(arb_mat_entry(Jm, i, j), w + i, col + i, prec);
        slpi_ref_watch_column();
    }
    _arb_vec_clear(w, n);
    _arb_vec_clear(col, n);
    dG_parts_clear(&d);
}

/* The coordinate form, for systems with a closed-form `sandwich` (no matrices): with
 * p = sum_k delta_k b_k(y) = pack(Psi(Y)),
 *     G(y) = x_n + 1/2 coad(p, y) + 1/8 sandwich(p, y, p),
 *     G'(y)[w] = 1/2 (coad(dp, y) + coad(p, w)) + 1/4 sandwich(dp, y, p)
 *                + 1/8 sandwich(p, w, p),  dp = sum_k delta_k Db_k(y)[w]. */
static void isomp_Gc(void *ctx, arb_ptr out, arb_srcptr y, slong prec)
{
    const isomp_ctx *c = ctx;
    const slpi_ref_system *s = c->s;
    int n = s->dim;
    arb_ptr p = _arb_vec_init(n), t = _arb_vec_init(n);
    slpi_ref_gen_sum(s, p, c->delta, y, prec);
    s->coad(s, out, p, y, prec);
    _arb_vec_scalar_mul_2exp_si(out, out, n, -1);
    s->m_sandwich(s, t, p, y, p, prec);
    _arb_vec_scalar_mul_2exp_si(t, t, n, -3);
    _arb_vec_add(out, out, t, n, prec);
    _arb_vec_add(out, out, c->x, n, prec);
    _arb_vec_clear(p, n);
    _arb_vec_clear(t, n);
}

static void isomp_dGc(void *ctx, arb_ptr out, arb_srcptr y, arb_srcptr w, slong prec)
{
    const isomp_ctx *c = ctx;
    const slpi_ref_system *s = c->s;
    int n = s->dim;
    arb_ptr p = _arb_vec_init(n), dp = _arb_vec_init(n), t = _arb_vec_init(n);
    slpi_ref_gen_sum(s, p, c->delta, y, prec);
    slpi_ref_dgen_sum(s, dp, c->delta, y, w, prec);
    s->coad(s, out, dp, y, prec);
    s->coad(s, t, p, w, prec);
    _arb_vec_add(out, out, t, n, prec);
    s->m_sandwich(s, t, dp, y, p, prec);
    _arb_vec_scalar_mul_2exp_si(t, t, n, -1);
    _arb_vec_add(out, out, t, n, prec);
    s->m_sandwich(s, t, p, w, p, prec);
    _arb_vec_scalar_mul_2exp_si(t, t, n, -2);
    _arb_vec_add(out, out, t, n, prec);
    _arb_vec_scalar_mul_2exp_si(out, out, n, -1);
    _arb_vec_clear(p, n);
    _arb_vec_clear(dp, n);
    _arb_vec_clear(t, n);
}

/* C = A^{-1} B for the Cayley factor on the step's route: on the BLAS route its verified
 * solve (ref/mrsolve.c; acb_mat_solve where the route cannot represent the parts), else
 * acb_mat_solve; 0 with the reason in why if the factor is not provably invertible. */
static int cayley_solve(const isomp_ctx *c, acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec, char *why,
                        size_t why_len)
{
    int ok = c->mul == blas_mul ? slpi_ref_mrmat_solve(C, A, B, prec, why, why_len) : 0;
    if (ok == 0 && !(ok = acb_mat_solve(C, A, B, prec))) snprintf(why, why_len, "acb_mat_solve fails");
    return ok > 0;
}

/* X_{n+1} from the midpoint Xt (matrix); 0 with the reason in why */
static int isomp_update(const isomp_ctx *c, acb_mat_t Xout, const acb_mat_t Xt, slong prec, char *why, size_t why_len)
{
    const slpi_ref_system *s = c->s;
    int N = s->N, ok = 1;
    acb_mat_t Psi, A, B, C;
    acb_mat_init(Psi, N, N);
    acb_mat_init(A, N, N);
    acb_mat_init(B, N, N);
    acb_mat_init(C, N, N);
    if (c->psi0 == NULL || !c->psi0->ok ||
        !slpi_ref_isomp_psi_near(Psi, s, c->delta, Xt, c->psi0->Y, c->psi0->Psi, prec))
        slpi_ref_mat_gen_sum(s, Psi, c->delta, Xt, prec);
    route_sum t = { Psi, Xt, NULL, NULL, NULL, 0, 1, 0 }; /* X_n + [Psi, Xt] */
    if (slpi_view_scheme(s->p)->isomp_update == SLPI_ISO_UPDATE_COMM) {
        if (c->mul != blas_mul || !route_eval(c, Xout, &t)) {
            c->mul(B, Psi, Xt, prec);
            slpi_ref_mat_skew_part(A, B, prec); /* [Psi, Xt] for skew-Hermitian factors */
            acb_mat_add(Xout, c->Xn, A, prec);
        }
    } else {
        /* C = (I - Psi/2)^{-1}(I + Psi/2) = I + K, K = (I - Psi/2)^{-1} Psi; with X_n
         * skew-Hermitian at every point of its ball, C X_n C^* = X_n + U - U^* + U K^*,
         * U = K X_n: the products meet the small K only, so their rounding bounds (the
         * BLAS route's gamma_K |K| |X_n|) scale with the step, not with |X_n| */
        acb_mat_scalar_mul_2exp_si(B, Psi, -1);
        acb_mat_one(A);
        acb_mat_sub(A, A, B, prec);                          /* I - Psi/2 */
        ok = cayley_solve(c, C, A, Psi, prec, why, why_len); /* K */
        if (ok) {
            c->mul(B, C, c->Xn, prec); /* U = K X_n */
            acb_mat_conjugate_transpose(A, C);
            c->mul(Xout, B, A, prec);           /* U K^* */
            slpi_ref_mat_skew_part(A, B, prec); /* U - U^* */
            acb_mat_add(Xout, Xout, A, prec);
            acb_mat_add(Xout, Xout, c->Xn, prec);
        }
    }
    acb_mat_clear(Psi);
    acb_mat_clear(A);
    acb_mat_clear(B);
    acb_mat_clear(C);
    return ok;
}

static int isomp_check(const slpi_ref_system *s, const slpi_problem *p, slpi_error *err)
{
    char why[160];
    if (s->N == 0)
        return slpi_error_set(err, SLPI_EINPUT, "isomp: %s is not J-quadratic (docs/systems.md#applicability)",
                              slpi_system_name(slpi_view_system(s->p)->system));
    if (slpi_view_cert(p)->matmul == SLPI_MATMUL_BLAS && !slpi_ref_mrmat_probe(why, sizeof why))
        return slpi_error_set(err, SLPI_EINPUT, "matmul=blas: %s", why);
    return slpi_ref_check_plain(s, "isomp", err);
}

/* The context and the fixed-point map of one step from the (ball) state x. */
static void isomp_setup(isomp_ctx *c, slpi_ref_fixmap *g, const slpi_ref_system *s, arb_srcptr x, const double *delta,
                        slong prec)
{
    int coord = s->m_sandwich != NULL;
    c->s = s;
    c->delta = delta;
    c->x = x;
    c->mul = slpi_ref_mrmat_route(s->p, s->N, prec)                       ? blas_mul
        : slpi_ref_solve_is_accurate() && s->N >= SLPI_REF_MRMAT_SLICED_N ? sliced_mul
                                                                          : slpi_ref_mat_mul;
    acb_mat_init(c->Xn, s->N, s->N);
    s->m_unpack(s, c->Xn, x, prec);
    memset(&c->xn, 0, sizeof c->xn);
    /* the accurate step takes G and G' in doubles for its iteration only (ref/solve.c) */
    int start = c->mul != blas_mul && slpi_ref_solve_is_accurate();
    c->xn_ok =
        (c->mul == blas_mul || start) && slpi_ref_mrmat_get(&c->xn, c->Xn, slpi_ref_mrmat_is_real(c->Xn) ? 1 : 2);
    g->n = s->dim;
    g->ctx = c;
    g->G = coord ? isomp_Gc : isomp_Gp;
    g->dG = coord ? isomp_dGc : isomp_dG;
    /* the BLAS route iterates on its enclosing G: its products' radii, at the binary64
     * rounding level, are the iteration's tolerance (approximate products have none) */
    g->Gmid = coord || s->N < ISOMP_MID_N || c->mul == blas_mul ? NULL : isomp_Gp_mid;
    /* there the iteration's images enclose: the test reuses the last one (one G less a step) */
    g->centre_prev = c->mul == blas_mul;
    /* and where the system's generator sum has doubles too, the whole solve stays in them */
    c->mr_ok = !coord && c->xn_ok && slpi_ref_isomp_mr_init(&c->mr, s, delta, &c->xn, prec);
    g->Gmr = c->mr_ok ? isomp_Gmr : NULL;
    g->dGmr = c->mr_ok ? isomp_dGmr : NULL;
    g->stop_bits = 0;
    c->psi0 = start && c->mr_ok ? malloc(sizeof *c->psi0) : NULL;
    if (c->psi0 != NULL) {
        acb_mat_init(c->psi0->Y, s->N, s->N);
        acb_mat_init(c->psi0->Psi, s->N, s->N);
        c->psi0->ok = 0;
    }
}

static void isomp_teardown(isomp_ctx *c)
{
    acb_mat_clear(c->Xn);
    slpi_ref_mrmat_clear(&c->xn);
    if (c->mr_ok) slpi_ref_isomp_mr_clear(&c->mr);
    if (c->psi0 != NULL) {
        acb_mat_clear(c->psi0->Y);
        acb_mat_clear(c->psi0->Psi);
        free(c->psi0);
    }
}

/* The midpoint y (packed) for every X_n in the ball x: L sweeps in fixed-iteration
 * mode, else the certified fixed point (the Jacobian-free test of the contraction G
 * first; the dense Krawczyk test when G does not contract enough). */
static int isomp_midpoint(const isomp_ctx *c, const slpi_ref_fixmap *g, arb_ptr y, slong prec, char *why,
                          size_t why_len)
{
    const slpi_ref_system *s = c->s;
    int n = s->dim;
    if (slpi_view_solver(s->p)->fixed_iters > 0) {
        arb_ptr t = _arb_vec_init(n);
        _arb_vec_set(y, c->x, n);
        for (int l = 0; l < slpi_view_solver(s->p)->fixed_iters; l++) {
            g->G(g->ctx, t, y, prec); /* packed: stays in the skew space */
            _arb_vec_swap(y, t, n);
        }
        _arb_vec_clear(t, n);
        return 1;
    }
    return slpi_ref_solve(y, g, s->m_sandwich != NULL ? NULL : isomp_J, NULL, c->x, prec, why, why_len);
}

static slpi_step_status isomp_step(const slpi_ref_system *s, arb_ptr x, const double *delta, slong prec, char *why,
                                   size_t why_len)
{
    int n = s->dim, N = s->N, ok;
    /* the BLAS route's balls are as wide as binary64 products make them: beyond
     * SLPI_REF_MRMAT_PREC bits Arb's arithmetic around them narrows nothing */
    if (slpi_ref_mrmat_route(s->p, N, prec) && prec > SLPI_REF_MRMAT_PREC) {
        prec = SLPI_REF_MRMAT_PREC;
    } else if (!slpi_ref_mrmat_route(s->p, N, prec) && s->blas_only != NULL) {
        snprintf(why, why_len, "isomp: no certified step at %ld bits off the BLAS route: %s", (long)prec, s->blas_only);
        return SLPI_STEP_UNABLE;
    }
    isomp_ctx c;
    slpi_ref_fixmap g;
    arb_ptr y = _arb_vec_init(n);
    slpi_ref_time(s, 1, delta, prec); /* the midpoint X~ at t_n + h/2 */
    isomp_setup(&c, &g, s, x, delta, prec);
    ok = isomp_midpoint(&c, &g, y, prec, why, why_len);
    /* the COMM update in doubles where the map was on the BLAS route, else on ball matrices */
    if (ok &&
        !(c.mr_ok && c.mul == blas_mul && slpi_view_scheme(s->p)->isomp_update == SLPI_ISO_UPDATE_COMM &&
          slpi_ref_isomp_update_mr(&c.mr, x, y))) {
        acb_mat_t Y, G;
        acb_mat_init(Y, N, N);
        acb_mat_init(G, N, N);
        s->m_unpack(s, Y, y, prec);
        char reason[200] = "";
        ok = isomp_update(&c, G, Y, prec, reason, sizeof reason);
        if (ok)
            s->m_pack(s, x, G, prec);
        else
            snprintf(why, why_len, "isomp: Cayley factor I - Psi/2 not provably invertible (%s)", reason);
        acb_mat_clear(Y);
        acb_mat_clear(G);
    }
    isomp_teardown(&c);
    _arb_vec_clear(y, n);
    return ok ? SLPI_STEP_CONVERGED : SLPI_STEP_UNABLE;
}

/* D Phi over the box x for the COMM update (docs/schemes.md#isomp): with Y(X) the midpoint,
 *     dY = (I - G'(Y)) ^{-1} dX,   X_{n+1} = X + [Psi(Y), Y],
 *     D Phi = I + DC(Y) (I - G'(Y))^{-1},   DC(Y)[W] = [DPsi(Y)[W], Y] + [Psi(Y), W],
 * every factor enclosed over the midpoint enclosure Ybox of the whole box (columns of
 * G' and DC from unit directions; the inverse by arb_mat_inv). Not for CAY or
 * fixed-iteration steps (0 with a reason). */
static int isomp_jac(const slpi_ref_system *s, arb_mat_t J, arb_srcptr x, const double *delta, slong prec, char *why,
                     size_t why_len)
{
    int n = s->dim, N = s->N, ok;
    if (slpi_view_solver(s->p)->fixed_iters > 0 || slpi_view_scheme(s->p)->isomp_update != SLPI_ISO_UPDATE_COMM) {
        snprintf(why, why_len, "isomp: no step Jacobian for CAY or fixed iterations");
        return 0;
    }
    isomp_ctx c;
    slpi_ref_fixmap g;
    arb_ptr y = _arb_vec_init(n), w = _arb_vec_init(n), col = _arb_vec_init(n);
    arb_mat_t A, Ai, C;
    acb_mat_t Y, Psi, W, dPsi, T, U;
    arb_mat_init(A, n, n);
    arb_mat_init(Ai, n, n);
    arb_mat_init(C, n, n);
    acb_mat_init(Y, N, N);
    acb_mat_init(Psi, N, N);
    acb_mat_init(W, N, N);
    acb_mat_init(dPsi, N, N);
    acb_mat_init(T, N, N);
    acb_mat_init(U, N, N);
    slpi_ref_time(s, 1, delta, prec); /* as isomp_step */
    isomp_setup(&c, &g, s, x, delta, prec);
    ok = isomp_midpoint(&c, &g, y, prec, why, why_len);
    if (ok) {
        s->m_unpack(s, Y, y, prec);
        slpi_ref_mat_gen_sum(s, Psi, delta, Y, prec);
        for (int j = 0; j < n; j++) {
            _arb_vec_zero(w, n);
            arb_one(w + j);
            g.dG(g.ctx, col, y, w, prec); /* A = I - G'(Ybox) */
            for (int i = 0; i < n; i++) arb_sub(arb_mat_entry(A, i, j), w + i, col + i, prec);
            s->m_unpack(s, W, w, prec); /* C = DC(Ybox) */
            slpi_ref_mat_dgen_sum(s, dPsi, delta, Y, W, prec);
            slpi_ref_mat_comm(T, dPsi, Y, prec);
            slpi_ref_mat_comm(U, Psi, W, prec);
            acb_mat_add(T, T, U, prec);
            s->m_pack(s, col, T, prec);
            for (int i = 0; i < n; i++) arb_set(arb_mat_entry(C, i, j), col + i);
            slpi_ref_watch_column();
        }
        ok = arb_mat_inv(Ai, A, prec);
        if (ok) {
            arb_mat_mul(J, C, Ai, prec);
            for (int i = 0; i < n; i++) arb_add_ui(arb_mat_entry(J, i, i), arb_mat_entry(J, i, i), 1, prec);
        } else {
            snprintf(why, why_len, "isomp: I - G' not provably invertible over the box");
        }
    }
    isomp_teardown(&c);
    _arb_vec_clear(y, n);
    _arb_vec_clear(w, n);
    _arb_vec_clear(col, n);
    arb_mat_clear(A);
    arb_mat_clear(Ai);
    arb_mat_clear(C);
    acb_mat_clear(Y);
    acb_mat_clear(Psi);
    acb_mat_clear(W);
    acb_mat_clear(dPsi);
    acb_mat_clear(T);
    acb_mat_clear(U);
    return ok;
}

const slpi_ref_scheme slpi_ref_scheme_isomp = { SLPI_SCHEME_ISOMP, isomp_check, isomp_step, isomp_jac };
