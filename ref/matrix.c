/* ref/matrix.c — matrix-level helpers of the certified path and the generic
 * coordinate operations of a J-quadratic system (docs/conventions.md#algebras, docs/conventions.md#brackets, docs/conventions.md#orbit-maps, docs/conventions.md#sde):
 *   ad*_xi X = [xi^*, X] = [B, X] with B = xi^*, and the orbit map
 *   O_exp(sigma; X) = e^{sigma^*} X e^{-sigma^*} = e^B X e^{-B} (B skew-Hermitian,
 *   so e^{-B} = (e^B)^*). The derivative of the exponential is read off the block
 *   exponential exp([[A, W], [0, A]]) = [[e^A, D e^A[W]], [0, e^A]].
 * The su(N) packing is the state layout of slpi.h. */
#include "core/slpi-flint.h"
#include "ref/matrix.h"
#include "core/progress.h"
#include <stddef.h>
#include <stdlib.h>

void slpi_ref_sun_unpack(acb_mat_t X, arb_srcptr x, int N, slong prec)
{
    (void)prec;
    int idx = N;
    for (int a = 0; a < N; a++) {
        arb_zero(acb_realref(acb_mat_entry(X, a, a)));
        arb_set(acb_imagref(acb_mat_entry(X, a, a)), x + a);
    }
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++, idx += 2) {
            acb_ptr ab = acb_mat_entry(X, a, b), ba = acb_mat_entry(X, b, a);
            arb_set(acb_realref(ab), x + idx);
            arb_set(acb_imagref(ab), x + idx + 1);
            arb_neg(acb_realref(ba), x + idx);
            arb_set(acb_imagref(ba), x + idx + 1);
        }
}

void slpi_ref_sun_pack(arb_ptr x, const acb_mat_t X, int N, slong prec)
{
    (void)prec;
    int idx = N;
    for (int a = 0; a < N; a++) arb_set(x + a, acb_imagref(acb_mat_entry(X, a, a)));
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++, idx += 2) {
            arb_set(x + idx, acb_realref(acb_mat_entry(X, a, b)));
            arb_set(x + idx + 1, acb_imagref(acb_mat_entry(X, a, b)));
        }
}

/* Below this size acb_mat_mul (classical dot products) is as fast and keeps the small
 * systems' enclosures bit-identical to the golden files'. */
#define MAT_MUL_SPLIT_N 24

/* The real and imaginary parts of A (m x k) and B (k x n), as copies. */
typedef struct {
    arb_mat_t ar, ai, br, bi;
} mat_parts;

static void mat_split(arb_mat_t re, arb_mat_t im, const acb_mat_t A)
{
    for (slong i = 0; i < acb_mat_nrows(A); i++)
        for (slong j = 0; j < acb_mat_ncols(A); j++) {
            arb_set(arb_mat_entry(re, i, j), acb_realref(acb_mat_entry(A, i, j)));
            arb_set(arb_mat_entry(im, i, j), acb_imagref(acb_mat_entry(A, i, j)));
        }
}

static void mat_parts_init(mat_parts *p, const acb_mat_t A, const acb_mat_t B)
{
    arb_mat_init(p->ar, acb_mat_nrows(A), acb_mat_ncols(A));
    arb_mat_init(p->ai, acb_mat_nrows(A), acb_mat_ncols(A));
    arb_mat_init(p->br, acb_mat_nrows(B), acb_mat_ncols(B));
    arb_mat_init(p->bi, acb_mat_nrows(B), acb_mat_ncols(B));
    mat_split(p->ar, p->ai, A);
    mat_split(p->br, p->bi, B);
}

static void mat_parts_clear(mat_parts *p)
{
    arb_mat_clear(p->ar);
    arb_mat_clear(p->ai);
    arb_mat_clear(p->br);
    arb_mat_clear(p->bi);
}

/* C = re + i im, the entries moved out of re and im */
static void mat_join(acb_mat_t C, arb_mat_t re, arb_mat_t im)
{
    for (slong i = 0; i < acb_mat_nrows(C); i++)
        for (slong j = 0; j < acb_mat_ncols(C); j++) {
            arb_swap(acb_realref(acb_mat_entry(C, i, j)), arb_mat_entry(re, i, j));
            arb_swap(acb_imagref(acb_mat_entry(C, i, j)), arb_mat_entry(im, i, j));
        }
}

void slpi_ref_mat_mul(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec)
{
    slong m = acb_mat_nrows(A), k = acb_mat_ncols(A), n = acb_mat_ncols(B);
    if (m < MAT_MUL_SPLIT_N || n < MAT_MUL_SPLIT_N || k < MAT_MUL_SPLIT_N) {
        acb_mat_mul(C, A, B, prec);
        return;
    }
    mat_parts p;
    arb_mat_t re, im, u;
    mat_parts_init(&p, A, B);
    arb_mat_init(re, m, n);
    arb_mat_init(im, m, n);
    arb_mat_init(u, m, n);
    arb_mat_mul(re, p.ar, p.br, prec);
    arb_mat_mul(u, p.ai, p.bi, prec);
    arb_mat_sub(re, re, u, prec);
    arb_mat_mul(im, p.ar, p.bi, prec);
    arb_mat_mul(u, p.ai, p.br, prec);
    arb_mat_add(im, im, u, prec);
    mat_join(C, re, im);
    mat_parts_clear(&p);
    arb_mat_clear(re);
    arb_mat_clear(im);
    arb_mat_clear(u);
}

void slpi_ref_mat_mul_approx(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec)
{
    slong m = acb_mat_nrows(A), n = acb_mat_ncols(B);
    mat_parts p;
    arb_mat_t t1, t2, t3;
    mat_parts_init(&p, A, B);
    arb_mat_init(t1, m, n);
    arb_mat_init(t2, m, n);
    arb_mat_init(t3, m, n);
    arb_mat_approx_mul(t1, p.ar, p.br, prec);
    arb_mat_approx_mul(t2, p.ai, p.bi, prec);
    arb_mat_add(p.ar, p.ar, p.ai, prec);
    arb_mat_add(p.br, p.br, p.bi, prec);
    arb_mat_approx_mul(t3, p.ar, p.br, prec); /* (ar + ai)(br + bi) */
    arb_mat_sub(t3, t3, t1, prec);
    arb_mat_sub(t3, t3, t2, prec); /* ar bi + ai br */
    arb_mat_sub(t1, t1, t2, prec); /* ar br - ai bi */
    arb_mat_get_mid(t1, t1);
    arb_mat_get_mid(t3, t3);
    mat_join(C, t1, t3);
    mat_parts_clear(&p);
    arb_mat_clear(t1);
    arb_mat_clear(t2);
    arb_mat_clear(t3);
}

void slpi_ref_mat_comm(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec)
{
    acb_mat_t T;
    acb_mat_init(T, acb_mat_nrows(A), acb_mat_ncols(A));
    slpi_ref_mat_mul(C, A, B, prec);
    slpi_ref_mat_mul(T, B, A, prec);
    acb_mat_sub(C, C, T, prec);
    acb_mat_clear(T);
}

void slpi_ref_mat_skew_part(acb_mat_t C, const acb_mat_t P, slong prec)
{
    slong n = acb_mat_nrows(P);
    acb_t t;
    acb_init(t);
    for (slong i = 0; i < n; i++) {
        /* P_ii - conj(P_ii) = 2i Im P_ii exactly */
        arb_zero(acb_realref(acb_mat_entry(C, i, i)));
        arb_mul_2exp_si(acb_imagref(acb_mat_entry(C, i, i)), acb_imagref(acb_mat_entry(P, i, i)), 1);
        for (slong j = i + 1; j < n; j++) {
            acb_conj(t, acb_mat_entry(P, j, i));
            acb_sub(t, acb_mat_entry(P, i, j), t, prec);
            acb_set(acb_mat_entry(C, i, j), t);
            acb_conj(t, t);
            acb_neg(acb_mat_entry(C, j, i), t);
        }
    }
    acb_clear(t);
}

void slpi_ref_mat_comm_skew(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec)
{
    acb_mat_t T;
    acb_mat_init(T, acb_mat_nrows(A), acb_mat_ncols(A));
    slpi_ref_mat_mul(T, A, B, prec);
    slpi_ref_mat_skew_part(C, T, prec);
    acb_mat_clear(T);
}

void slpi_ref_mat_exp(acb_mat_t E, const acb_mat_t A, slong prec)
{
    acb_mat_exp(E, A, prec);
}

void slpi_ref_mat_dexp(acb_mat_t E, acb_mat_t dE, const acb_mat_t A, const acb_mat_t W, slong prec)
{
    slong n = acb_mat_nrows(A);
    acb_mat_t big, ebig;
    acb_mat_init(big, 2 * n, 2 * n);
    acb_mat_init(ebig, 2 * n, 2 * n);
    for (slong i = 0; i < n; i++)
        for (slong j = 0; j < n; j++) {
            acb_set(acb_mat_entry(big, i, j), acb_mat_entry(A, i, j));
            acb_set(acb_mat_entry(big, n + i, n + j), acb_mat_entry(A, i, j));
            acb_set(acb_mat_entry(big, i, n + j), acb_mat_entry(W, i, j));
        }
    acb_mat_exp(ebig, big, prec);
    for (slong i = 0; i < n; i++)
        for (slong j = 0; j < n; j++) {
            acb_set(acb_mat_entry(E, i, j), acb_mat_entry(ebig, i, j));
            acb_set(acb_mat_entry(dE, i, j), acb_mat_entry(ebig, i, n + j));
        }
    acb_mat_clear(big);
    acb_mat_clear(ebig);
}

/* Tr(A B) = sum_ij A_ij B_ji = sum_i (row i of A) . (row i of B^T): N dot products */
static void trace_prod(acb_t t, const acb_mat_t A, const acb_mat_t Bt, slong prec)
{
    slong n = acb_mat_nrows(A);
    acb_t d;
    acb_init(d);
    acb_zero(t);
    for (slong i = 0; i < n; i++) {
        acb_dot(d, t, 0, acb_mat_entry(A, i, 0), 1, acb_mat_entry(Bt, i, 0), 1, n, prec);
        acb_swap(t, d);
    }
    acb_clear(d);
}

/* X with every part whose midpoint is below 2^-prec of X's largest as 0 +/- its
 * bound: a wider ball, by at most what prec bits round away. A few such parts (the state's
 * exact zeros after a step: 2^-594 beside 2^-4 at su(128)) make Arb's block product use
 * integers spanning the whole exponent range: 0.18 s a product instead of 0.05. */
static void trim_tiny(acb_mat_t X, slong prec)
{
    slong n = acb_mat_nrows(X), m = acb_mat_ncols(X), emax = WORD_MIN;
    mag_t b;
    mag_init(b);
    for (slong i = 0; i < n; i++)
        for (slong j = 0; j < m; j++)
            for (int c = 0; c < 2; c++) {
                arf_srcptr z =
                    arb_midref(c ? acb_imagref(acb_mat_entry(X, i, j)) : acb_realref(acb_mat_entry(X, i, j)));
                if (!arf_is_zero(z)) emax = FLINT_MAX(emax, arf_abs_bound_lt_2exp_si(z));
            }
    for (slong i = 0; i < n && emax > WORD_MIN; i++)
        for (slong j = 0; j < m; j++)
            for (int c = 0; c < 2; c++) {
                arb_ptr z = c ? acb_imagref(acb_mat_entry(X, i, j)) : acb_realref(acb_mat_entry(X, i, j));
                if (!arf_is_zero(arb_midref(z)) && arf_cmpabs_2exp_si(arb_midref(z), emax - prec) < 0) {
                    arb_get_mag(b, z);
                    arb_zero(z);
                    mag_swap(arb_radref(z), b);
                }
            }
    mag_clear(b);
}

void slpi_ref_mat_trace_powers(acb_ptr T, const acb_mat_t X, int kmax, slong prec)
{
    slong n = acb_mat_nrows(X);
    int h = (kmax + 1) / 2; /* the powers X^1..X^h and their transposes */
    acb_mat_struct *P = flint_malloc(sizeof *P * (size_t)(2 * h + 1));
    acb_mat_struct *Pt = P + h;
    for (int j = 0; j < h; j++) {
        acb_mat_init(P + j, n, n);
        acb_mat_init(Pt + j, n, n);
        if (j == 0)
            acb_mat_set(P, X);
        else
            acb_mat_mul(P + j, P + j - 1, P, prec);
        trim_tiny(P + j, prec);
        acb_mat_transpose(Pt + j, P + j);
        slpi_progress_tick("X^%d of %ld x %ld at %ld bits", j + 1, (long)n, (long)n, (long)prec);
    }
    for (int k = 1; k <= kmax; k++) {
        if (k == 1)
            acb_mat_trace(T, X, prec);
        else
            trace_prod(T + k - 1, P + k / 2 - 1, Pt + (k - k / 2) - 1, prec);
    }
    for (int j = 0; j < h; j++) {
        acb_mat_clear(P + j);
        acb_mat_clear(Pt + j);
    }
    flint_free(P);
}

static void gen_sum(const slpi_ref_system *s, acb_mat_t B, const double *delta, const acb_mat_t X, const acb_mat_t W,
                    slong prec)
{
    acb_mat_t T;
    arb_t c;
    if (s->m_gen_sum != NULL) {
        s->m_gen_sum(s, B, delta, X, W, prec);
        return;
    }
    acb_mat_init(T, s->N, s->N);
    arb_init(c);
    acb_mat_zero(B);
    for (int k = 0; k <= s->M; k++) {
        if (delta[k] == 0) continue;
        if (W == NULL)
            s->m_gen(s, k, T, X, prec);
        else
            s->m_dgen(s, k, T, X, W, prec);
        arb_set_d(c, delta[k]);
        acb_mat_scalar_addmul_arb(B, T, c, prec);
    }
    acb_mat_clear(T);
    arb_clear(c);
}

void slpi_ref_mat_gen_sum(const slpi_ref_system *s, acb_mat_t B, const double *delta, const acb_mat_t X, slong prec)
{
    gen_sum(s, B, delta, X, NULL, prec);
}

void slpi_ref_mat_dgen_sum(const slpi_ref_system *s, acb_mat_t dB, const double *delta, const acb_mat_t X,
                           const acb_mat_t W, slong prec)
{
    gen_sum(s, dB, delta, X, W, prec);
}

/* ------------------------------------------- generic coordinate operations */

static void mat_gen(const slpi_ref_system *s, int k, arb_ptr b, arb_srcptr mu, slong prec)
{
    acb_mat_t X, B;
    acb_mat_init(X, s->N, s->N);
    acb_mat_init(B, s->N, s->N);
    s->m_unpack(s, X, mu, prec);
    s->m_gen(s, k, B, X, prec);
    s->m_pack(s, b, B, prec);
    acb_mat_clear(X);
    acb_mat_clear(B);
}

static void mat_dgen(const slpi_ref_system *s, int k, arb_ptr db, arb_srcptr mu, arb_srcptr w, slong prec)
{
    acb_mat_t X, W, dB;
    acb_mat_init(X, s->N, s->N);
    acb_mat_init(W, s->N, s->N);
    acb_mat_init(dB, s->N, s->N);
    s->m_unpack(s, X, mu, prec);
    s->m_unpack(s, W, w, prec);
    s->m_dgen(s, k, dB, X, W, prec);
    s->m_pack(s, db, dB, prec);
    acb_mat_clear(X);
    acb_mat_clear(W);
    acb_mat_clear(dB);
}

/* out = pack([unpack(a), unpack(b)]) */
static void packed_comm(const slpi_ref_system *s, arb_ptr out, arb_srcptr a, arb_srcptr b, slong prec)
{
    acb_mat_t A, B, C;
    acb_mat_init(A, s->N, s->N);
    acb_mat_init(B, s->N, s->N);
    acb_mat_init(C, s->N, s->N);
    s->m_unpack(s, A, a, prec);
    s->m_unpack(s, B, b, prec);
    slpi_ref_mat_comm(C, A, B, prec);
    s->m_pack(s, out, C, prec);
    acb_mat_clear(A);
    acb_mat_clear(B);
    acb_mat_clear(C);
}

/* ad*_b mu = [B, X] */
static void mat_coad(const slpi_ref_system *s, arb_ptr out, arb_srcptr b, arb_srcptr mu, slong prec)
{
    packed_comm(s, out, b, mu, prec);
}

/* out = E X E^*, i.e. e^B X e^{-B} for the exact skew-Hermitian B in the ball. */
static void conj_by(acb_mat_t out, const acb_mat_t E, const acb_mat_t X, slong prec)
{
    acb_mat_t T, Es;
    slong n = acb_mat_nrows(X);
    acb_mat_init(T, n, n);
    acb_mat_init(Es, n, n);
    acb_mat_conjugate_transpose(Es, E);
    acb_mat_mul(T, E, X, prec);
    acb_mat_mul(out, T, Es, prec);
    acb_mat_clear(T);
    acb_mat_clear(Es);
}

static void mat_orbit(const slpi_ref_system *s, arb_ptr out, arb_srcptr b, arb_srcptr mu, slong prec)
{
    acb_mat_t X, B, E, Y;
    acb_mat_init(X, s->N, s->N);
    acb_mat_init(B, s->N, s->N);
    acb_mat_init(E, s->N, s->N);
    acb_mat_init(Y, s->N, s->N);
    s->m_unpack(s, X, mu, prec);
    s->m_unpack(s, B, b, prec);
    slpi_ref_mat_exp(E, B, prec);
    conj_by(Y, E, X, prec);
    s->m_pack(s, out, Y, prec);
    acb_mat_clear(X);
    acb_mat_clear(B);
    acb_mat_clear(E);
    acb_mat_clear(Y);
}

/* d/dt e^{B+t dB} (X + t dX) e^{-B-t dB} = dE X E^* + E X dE^* + E dX E^*. */
static void mat_dorbit(const slpi_ref_system *s, arb_ptr out, arb_srcptr b, arb_srcptr db, arb_srcptr mu,
                       arb_srcptr dmu, slong prec)
{
    int n = s->N;
    acb_mat_t X, B, dB, E, dE, T, U, V;
    acb_mat_init(X, n, n);
    acb_mat_init(B, n, n);
    acb_mat_init(dB, n, n);
    acb_mat_init(E, n, n);
    acb_mat_init(dE, n, n);
    acb_mat_init(T, n, n);
    acb_mat_init(U, n, n);
    acb_mat_init(V, n, n);
    s->m_unpack(s, X, mu, prec);
    s->m_unpack(s, B, b, prec);
    s->m_unpack(s, dB, db, prec);
    slpi_ref_mat_dexp(E, dE, B, dB, prec);
    acb_mat_mul(T, dE, X, prec); /* T = dE X */
    acb_mat_conjugate_transpose(U, E);
    acb_mat_mul(V, T, U, prec);        /* V = dE X E^* */
    acb_mat_conjugate_transpose(T, V); /* (dE X E^*)^* = -E X dE^* for skew X */
    acb_mat_sub(V, V, T, prec);
    if (dmu != NULL) {
        s->m_unpack(s, X, dmu, prec);
        conj_by(T, E, X, prec);
        acb_mat_add(V, V, T, prec);
    }
    s->m_pack(s, out, V, prec);
    acb_mat_clear(X);
    acb_mat_clear(B);
    acb_mat_clear(dB);
    acb_mat_clear(E);
    acb_mat_clear(dE);
    acb_mat_clear(T);
    acb_mat_clear(U);
    acb_mat_clear(V);
}

/* L_a b = -[A, B] = [B, A]: the B-form of ad (B = sigma^*, docs/schemes.md#rkmk). */
static void mat_lie(const slpi_ref_system *s, arb_ptr out, arb_srcptr a, arb_srcptr b, slong prec)
{
    packed_comm(s, out, b, a, prec);
}

/* B = unpack(gen_packed(k, pack X)), or with W: unpack(gen_packed(k, pack X, pack W)) */
static void packed_matrix(const slpi_ref_system *s, int k, acb_mat_t B, const acb_mat_t X, const acb_mat_t W,
                          slong prec)
{
    int n = s->dim;
    arb_ptr x = _arb_vec_init(n), w = _arb_vec_init(n), b = _arb_vec_init(n);
    s->m_pack(s, x, X, prec);
    if (W != NULL) s->m_pack(s, w, W, prec);
    s->gen_packed(s, k, b, x, W != NULL ? w : NULL, prec);
    s->m_unpack(s, B, b, prec);
    _arb_vec_clear(x, n);
    _arb_vec_clear(w, n);
    _arb_vec_clear(b, n);
}

static void packed_m_gen(const slpi_ref_system *s, int k, acb_mat_t B, const acb_mat_t X, slong prec)
{
    packed_matrix(s, k, B, X, NULL, prec);
}

static void packed_m_dgen(const slpi_ref_system *s, int k, acb_mat_t dB, const acb_mat_t X, const acb_mat_t W,
                          slong prec)
{
    packed_matrix(s, k, dB, X, W, prec);
}

void slpi_ref_packed_gen(const slpi_ref_system *s, int k, arb_ptr b, arb_srcptr mu, slong prec)
{
    s->gen_packed(s, k, b, mu, NULL, prec);
}

void slpi_ref_packed_dgen(const slpi_ref_system *s, int k, arb_ptr db, arb_srcptr mu, arb_srcptr w, slong prec)
{
    s->gen_packed(s, k, db, mu, w, prec);
}

void slpi_ref_matrix_attach(slpi_ref_system *s)
{
    if (s->gen_packed) {
        s->m_gen = packed_m_gen;
        s->m_dgen = packed_m_dgen;
    }
    s->lie = mat_lie;
    s->gdim = s->dim;
    s->gen = mat_gen;
    s->dgen = mat_dgen;
    s->coad = mat_coad;
    s->orbit = mat_orbit;
    s->dorbit = mat_dorbit;
}

static int arb_mid_cmp(const void *pa, const void *pb)
{
    return arf_cmp(arb_midref((arb_srcptr)pa), arb_midref((arb_srcptr)pb));
}

int slpi_ref_mat_eig_skewh(arb_ptr lam, const acb_mat_t X, slong prec)
{
    int N = acb_mat_nrows(X), kind;
    acb_mat_t A, Ra;
    acb_ptr E = _acb_vec_init(N), Ea = _acb_vec_init(N);
    acb_mat_init(A, N, N);
    acb_mat_init(Ra, N, N);
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++) acb_mul_onei(acb_mat_entry(A, a, b), acb_mat_entry(X, a, b));
    acb_mat_approx_eig_qr(Ea, NULL, Ra, A, NULL, 0, prec);
    if (acb_mat_eig_simple(E, NULL, NULL, A, Ea, Ra, prec))
        kind = 2;
    else if (acb_mat_eig_multiple(E, A, Ea, Ra, prec))
        kind = 1;
    else
        kind = 0;
    for (int k = 0; k < N; k++) {
        if (kind)
            arb_set(lam + k, acb_realref(E + k));
        else
            arb_indeterminate(lam + k);
    }
    if (kind) {
        /* Sorted by midpoint; a run of overlapping balls holds as many eigenvalues as
         * it has members, in any order: give each member the hull of the run. */
        qsort(lam, (size_t)N, sizeof(arb_struct), arb_mid_cmp);
        for (int k = 0; k < N;) {
            int e = k + 1;
            arb_t hull;
            arb_init(hull);
            arb_set(hull, lam + k);
            while (e < N && arb_overlaps(hull, lam + e)) arb_union(hull, hull, lam + e++, prec);
            if (e - k > 1) {
                kind = 1;
                for (int i = k; i < e; i++) arb_set(lam + i, hull);
            }
            arb_clear(hull);
            k = e;
        }
    }
    acb_mat_clear(A);
    acb_mat_clear(Ra);
    _acb_vec_clear(E, N);
    _acb_vec_clear(Ea, N);
    return kind;
}
