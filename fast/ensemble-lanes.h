/* ensemble-lanes.h — the lock-step lane kernels of fast/ensemble.c, included once per
 * instruction set by fast/ensemble.c (portable), fast/ensemble-avx2.c and
 * fast/ensemble-avx512.c, each under its own `#pragma GCC target`: every function here,
 * comparisons included, is then compiled for that set (an always_inline default-target
 * body inlined into a target function would have its vector comparisons lowered lane by
 * lane for the default target). The including file defines ENS_W, the lanes per vector
 * (the set's register width: wider vectors would have their comparisons split lane by
 * lane), and ENS_ISOMP_FN and ENS_SVI_FN, the names of the two entry points it exports
 * (declared in fast/ensemble.c). The
 * arithmetic and the policy are documented in fast/ensemble.c. */
#include <string.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif
#include "slpi/step.h"
#include "core/problem-options.h"
#include "fast/fast.h"
#include "fast/ensemble.h"

typedef double ens_vd __attribute__((vector_size(8 * ENS_W)));
typedef long long ens_vl __attribute__((vector_size(8 * ENS_W)));
_Static_assert(ENS_W >= 2 && ENS_W <= 8, "a group register holds 2 to 8 lanes (ens_begin's lane index)");

#define ENS_INLINE static inline __attribute__((always_inline))
#define ENS_K 2 /* registers of lanes solved side by side (ens_isomp_group, ENS_RUN) */

/* Lane-wise helpers as macros (GCC notes an ABI change for 64-byte vectors passed by value
 * to functions, even inlined ones). ENS_SEL: m ? a : b (m: all ones or zeros per lane). */
#define ENS_SEL(m, a, b) ((ens_vd)(((m) & (ens_vl)(a)) | (~(m) & (ens_vl)(b))))
#define ENS_SELI(m, a, b) (((m) & (a)) | (~(m) & (b)))
#define ENS_ABS(a) ((ens_vd)(((ens_vl)(a)) & 0x7fffffffffffffffLL))
/* the scalar "if (!(v <= m)) m = v" of slpi_vec_maxabs / maxdiff (NaN propagates), for
 * m, v >= +0 or NaN (absolute values): the x86 max instructions return their second
 * operand v when either is a NaN or the two are equal, and -0 never occurs, so max(m, v)
 * has exactly these bits in one instruction. From m = +0 it is v itself, bits and all (v
 * the larger, or the operand returned when the two are equal or v is a NaN), so the sweeps
 * start their maxima at their first value. */
#if defined(__AVX512F__) && ENS_W == 8
#define ENS_UPD(m, v) ((m) = (ens_vd)_mm512_max_pd((__m512d)(m), (__m512d)(v)))
#elif defined(__AVX__) && ENS_W == 4
#define ENS_UPD(m, v) ((m) = (ens_vd)_mm256_max_pd((__m256d)(m), (__m256d)(v)))
#elif defined(__SSE2__) && ENS_W == 2
#define ENS_UPD(m, v) ((m) = (ens_vd)_mm_max_pd((__m128d)(m), (__m128d)(v)))
#else
#define ENS_UPD(m, v) ((m) = ENS_SEL((v) <= (m), (m), (v)))
#endif
/* slpi_fast_max2: (a >= b || a != a) ? a : b, with a != a (NaN) as ~(a <= a); and a
 * finiteness test, x - x == 0, as x - x <= 0 (x - x is +0 or NaN). GCC lowers vector
 * == and != on doubles lane by lane, <= and >= to one vector comparison. */
#define ENS_MAX2(a, b) ENS_SEL(((a) >= (b)) | ~((a) <= (a)), (a), (b))
#define ENS_FINITE(x) (((x) - (x)) <= 0)
#define ENS_DOT(a, b) ((a)[0] * (b)[0] + (a)[1] * (b)[1] + (a)[2] * (b)[2])

ENS_INLINE int ens_any(const ens_vl *m)
{
#if defined(__AVX512F__) && ENS_W == 8
    return _mm512_test_epi64_mask((__m512i)*m, (__m512i)*m) != 0;
#elif defined(__AVX__) && ENS_W == 4
    return !_mm256_testz_si256((__m256i)*m, (__m256i)*m);
#else
    long long r = 0;
    _Pragma("GCC unroll 8") for (int l = 0; l < ENS_W; l++) r |= (*m)[l];
    return r != 0;
#endif
}

/* Lock-step twin of slpi_fast_iter_check: iteration `it` (>= 1) of the lanes with
 * increments d and norms m; their statuses in *out (-1: continue). Every sweep takes the
 * whole test: an early exit where no active lane could stop (most sweeps) is a branch
 * that the lanes' stopping iterations make unpredictable, and it cost more than the test
 * it skipped (docs/experiments.md#branchless-check). */
typedef struct {
    ens_vd first, prev, last;
} ens_iter;

ENS_INLINE void ens_check(const slpi_fast_policy *pol, int it, ens_iter *s, const ens_vd *dp, const ens_vd *mp,
                          ens_vl *out)
{
    const ens_vd d = *dp, m = *mp;
    if (it == 1) s->first = d;
    s->prev = s->last;
    s->last = d;
    const ens_vl zero = (ens_vl){ 0 }, none = zero - 1;
    const ens_vd scale = pol->tol_h > 0 ? pol->tol_h * m : ENS_SEL(m > 1, m, (ens_vd){ 0 } + 1);
    const double tol100 = 100 * pol->tol;
    const ens_vl nan = ~(ENS_FINITE(d) & ENS_FINITE(m));
    ens_vl st;
    if (pol->fixed_iters > 0) {
        st = it >= pol->fixed_iters ? zero + SLPI_STEP_CAPPED : none;
    } else {
        st = it >= pol->maxit ? zero + (pol->on_cap == SLPI_CAP_ACCEPT ? SLPI_STEP_CAPPED : SLPI_STEP_NOT_CONVERGED)
                              : none;
        if (it > 1) {
            st = ENS_SELI((d > 1e6 * s->first) & (s->first > 0), zero + SLPI_STEP_DIVERGED, st);
            st = ENS_SELI((d >= s->prev) & (d <= tol100 * scale), zero + SLPI_STEP_STAGNATED, st);
        }
        st = ENS_SELI(d <= pol->tol * scale, zero + SLPI_STEP_CONVERGED, st);
    }
    *out = ENS_SELI(nan, zero + SLPI_STEP_DIVERGED, st);
}

/* Lanes l < n of a group from SoA arrays; lanes n..ENS_W-1 repeat lane 0 (never stored). */
ENS_INLINE void ens_load(ens_vd *v, const double *a, int n)
{
    if (n == ENS_W) {
        memcpy(v, a, sizeof *v);
        return;
    }
    ens_vd t;
    _Pragma("GCC unroll 8") for (int l = 0; l < ENS_W; l++) t[l] = a[l < n ? l : 0];
    *v = t;
}

/* The lanes register k of a group of n lanes holds: n - k ENS_W, at most ENS_W. */
ENS_INLINE int ens_lanes_in(int n, int k)
{
    return n - k * ENS_W < ENS_W ? n - k * ENS_W : ENS_W;
}

/* The lanes l < n of a register (n >= ENS_W: all of them), all ones there, zeros beyond:
 * a compare, not lane writes (GCC 14 misreads those as uninitialized). */
ENS_INLINE ens_vl ens_lanes_below(int n)
{
    static const long long lane[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    ens_vl idx;
    memcpy(&idx, lane, sizeof idx);
    return idx < (ens_vl){ 0 } + n;
}

/* A group's state x and increments e (lanes l < n of the SoA arrays) and the lanes that
 * start solving: those with a finite state and finite increments; the others are INVALID
 * with 0 iterations, as slpi_fast_step reports them. */
ENS_INLINE void ens_begin(int n, double *const x[3], const double *const e[3], ens_vd *X, ens_vd *E, ens_vl *st,
                          ens_vl *act)
{
    ens_vl fin = (ens_vl){ 0 } - 1;
    _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++)
    {
        ens_load(&X[i], x[i], n);
        ens_load(&E[i], e[i], n);
        fin &= ENS_FINITE(X[i]) & ENS_FINITE(E[i]);
    }
    fin &= ens_lanes_below(n);
    *act = fin;
    *st = ENS_SELI(fin, (ens_vl){ 0 } - 1, (ens_vl){ 0 } + SLPI_STEP_INVALID);
}

/* Register k of a group of n lanes (k ENS_W < n): ens_begin on its lanes. */
ENS_INLINE void ens_begin_at(int n, int k, double *const x[3], const double *const e[3], ens_vd *X, ens_vd *E,
                             ens_vl *st, ens_vl *act)
{
    const int o = k * ENS_W, nk = ens_lanes_in(n, k);
    double *const xk[3] = { x[0] + o, x[1] + o, x[2] + o };
    const double *const ek[3] = { e[0] + o, e[1] + o, e[2] + o };
    ens_begin(nk, xk, ek, X, E, st, act);
}

/* Whether a lane of the K registers m[0..K) is set. */
ENS_INLINE int ens_any_of(const ens_vl *m, const int K)
{
    ens_vl a = m[0];
    for (int k = 1; k < K; k++) a |= m[k];
    return ens_any(&a);
}

/* ens_check on each of the K registers after sweep `it`: a lane that stops gets its
 * status and iteration count, and leaves the active set. */
ENS_INLINE void ens_check_all(const slpi_fast_policy *pol, int it, const int K, ens_iter *s, const ens_vd *d,
                              const ens_vd *m, ens_vl *act, ens_vl *st, ens_vl *its)
{
    _Pragma("GCC unroll 2") for (int k = 0; k < K; k++)
    {
        ens_vl sn;
        ens_check(pol, it, &s[k], &d[k], &m[k], &sn);
        st[k] = ENS_SELI(act[k], sn, st[k]);
        its[k] = ENS_SELI(act[k], (ens_vl){ 0 } + it, its[k]);
        act[k] &= sn < 0;
    }
}

/* The lanes l < n of a register after the solve, with statuses *stp and iteration counts
 * *itsp: their iterations added to *iters, each one's reported in lane (unless NULL);
 * returns how many failed. */
ENS_INLINE long ens_tally(int n, const ens_vl *stp, const ens_vl *itsp, long *iters, slpi_fast_lane *lane)
{
    const ens_vl fl = *stp >= SLPI_STEP_NOT_CONVERGED; /* slpi_step_failed */
    long bad = 0, its = 0;
    for (int l = 0; l < n; l++) {
        its += (*itsp)[l];
        bad -= fl[l];
        if (lane) lane[l] = (slpi_fast_lane){ (int)(*itsp)[l], (slpi_step_status)(*stp)[l] };
    }
    *iters += its;
    return bad;
}

/* The lanes' bookkeeping after the solve: store the finished lanes (the failed ones keep
 * their old state), then ens_tally. */
ENS_INLINE long ens_store3(int n, const ens_vl *stp, const ens_vl *itsp, const ens_vd *v, const ens_vd *old,
                           double *const x[3], long *iters, slpi_fast_lane *lane)
{
    const ens_vl fl = *stp >= SLPI_STEP_NOT_CONVERGED; /* slpi_step_failed */
    _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++)
    {
        const ens_vd o = ENS_SEL(fl, old[i], v[i]);
        if (n == ENS_W) {
            memcpy(x[i], &o, sizeof o);
        } else {
            memcpy(x[i], &o, (size_t)n * sizeof(double)); /* n < ENS_W lanes */
        }
    }
    return ens_tally(n, stp, itsp, iters, lane);
}

/* Register k of a group of n lanes (k ENS_W < n): ens_store3 on its lanes. */
ENS_INLINE long ens_store3_at(int n, int k, const ens_vl *stp, const ens_vl *itsp, const ens_vd *v, const ens_vd *old,
                              double *const x[3], long *iters, slpi_fast_lane *lane)
{
    const int o = k * ENS_W, nk = ens_lanes_in(n, k);
    double *const xk[3] = { x[0] + o, x[1] + o, x[2] + o };
    return ens_store3(nk, stp, itsp, v, old, xk, iters, lane ? lane + o : NULL);
}

/* Psi(Y) = -(h I^{-1} y + amp (delta_k y_k)_k) (iso-quad generators, B = -hat xi), as
 * rigid-body.c's psi. */
ENS_INLINE void ens_iso_psi(const slpi_fast_rb_soa *c, double h, const ens_vd *e, const ens_vd *y, ens_vd *p)
{
    _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++) p[i] = -(h * (c->Iinv[i] * y[i]) + e[i] * (c->amp * y[i]));
}

ENS_INLINE void ens_cross(const ens_vd *a, const ens_vd *b, ens_vd *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* ISOMP-COMM on n <= K ENS_W lanes, K registers side by side (their chains of dependent
 * operations overlap; ENS_RUN): Y <- X + [P,Y]/2 + P Y P/4 with P = Psi(Y) (so3.c
 * slpi_fast_blocks_isomp, HAT model) from the Euler predictor Y = X + [Psi(X), X]/2, Psi
 * with the increments halved (isomp.c isomp_predict; c->predict), followed for
 * predictor=cayley by its Cayley congruence (slpi_fast_blocks_ainv, HAT model), or from
 * Y = X; then X + [Psi(Y), Y]
 * (slpi_fast_blocks_comm). Every lane counts its own iterations from 1, so a register
 * that has stopped sweeps on, discarded, while another runs. */
ENS_INLINE long ens_isomp_group(const slpi_fast_rb_soa *c, int n, const int K, double h, double *const xp[3],
                                const double *const ep[3], long *iters, slpi_fast_lane *lane)
{
    /* zeros: gcc cannot see K >= 1 through the loops below and warns (-Wmaybe-uninitialized) */
    ens_vd X[ENS_K][3] = { { { 0 } } }, E[ENS_K][3] = { { { 0 } } }, Y[ENS_K][3] = { { { 0 } } };
    ens_vl st[ENS_K], act[ENS_K] = { { 0 } }, its[ENS_K];
    ens_iter s[ENS_K];
    _Pragma("GCC unroll 2") for (int k = 0; k < K; k++)
    {
        ens_begin_at(n, k, xp, ep, X[k], E[k], &st[k], &act[k]);
        its[k] = (ens_vl){ 0 };
        s[k] = (ens_iter){ { 0 }, { 0 }, { 0 } };
        _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++) Y[k][i] = X[k][i];
        if (c->predict) {
            ens_vd Eh[3], P[3], C[3];
            _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++) Eh[i] = 0.5 * E[k][i];
            ens_iso_psi(c, 0.5 * h, Eh, X[k], P);
            ens_cross(P, X[k], C);
            _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++) Y[k][i] = X[k][i] + 1.0 * C[i];
            if (c->predict == SLPI_FAST_PREDICT_CAYLEY) { /* (I - P/2)^{-1} X (I + P/2)^{-1}, P = Psi(Y) */
                ens_iso_psi(c, h, E[k], Y[k], P);
                const ens_vd q = 1 / (1 + 0.25 * ENS_DOT(P, P));
                ens_cross(P, X[k], C);
                _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++) Y[k][i] = q * (X[k][i] + 0.5 * C[i]);
            }
        }
    }
    for (int it = 1; ens_any_of(act, K); it++) {
        ens_vd d[ENS_K], m[ENS_K];
        _Pragma("GCC unroll 2") for (int k = 0; k < K; k++)
        {
            ens_vd P[3], C[3], V[3];
            ens_iso_psi(c, h, E[k], Y[k], P);
            ens_cross(P, Y[k], C);
            const ens_vd py = ENS_DOT(P, Y[k]);
            _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++) V[i] = X[k][i] + 0.5 * C[i] + 0.25 * (-py * P[i]);
            d[k] = ENS_ABS(V[0] - Y[k][0]); /* ENS_UPD from +0 */
            m[k] = ENS_ABS(V[0]);
            _Pragma("GCC unroll 2") for (int i = 1; i < 3; i++)
            {
                ENS_UPD(d[k], ENS_ABS(V[i] - Y[k][i]));
                ENS_UPD(m[k], ENS_ABS(V[i]));
            }
            _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++) Y[k][i] = ENS_SEL(act[k], V[i], Y[k][i]);
        }
        ens_check_all(&c->pol, it, K, s, d, m, act, st, its);
    }
    long bad = 0;
    _Pragma("GCC unroll 2") for (int k = 0; k < K; k++)
    {
        ens_vd P[3], C[3], out[3];
        ens_iso_psi(c, h, E[k], Y[k], P);
        ens_cross(P, Y[k], C);
        _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++) out[i] = X[k][i] + 1.0 * C[i];
        bad += ens_store3_at(n, k, &st[k], &its[k], out, X[k], xp, iters, lane);
    }
    return bad;
}

/* tau = cay(x) = I + k hat x + (k/2) hat x^2, k = 4/(4 + |x|^2) (vec3.h slpi_fast_cayley3
 * and slpi_fast_rot_coeffs), row-major. */
ENS_INLINE void ens_cayley(const ens_vd *w, ens_vd *R)
{
    const ens_vd k = 4 / (4 + ENS_DOT(w, w)), c = 0.5 * k;
    const ens_vd xx = w[0] * w[0], yy = w[1] * w[1], zz = w[2] * w[2];
    R[0] = 1 - c * (yy + zz);
    R[1] = -k * w[2] + c * w[0] * w[1];
    R[2] = k * w[1] + c * w[0] * w[2];
    R[3] = k * w[2] + c * w[0] * w[1];
    R[4] = 1 - c * (xx + zz);
    R[5] = -k * w[0] + c * w[1] * w[2];
    R[6] = -k * w[1] + c * w[0] * w[2];
    R[7] = k * w[0] + c * w[1] * w[2];
    R[8] = 1 - c * (xx + yy);
}

ENS_INLINE void ens_mat3t_vec(const ens_vd *R, const ens_vd *v, ens_vd *out) /* R^T v */
{
    const ens_vd o0 = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
    const ens_vd o1 = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
    const ens_vd o2 = R[2] * v[0] + R[5] * v[1] + R[8] * v[2];
    out[0] = o0;
    out[1] = o1;
    out[2] = o2;
}

/* slpi_fast_ac_inv: A_c(x)^{-1} v. */
ENS_INLINE void ens_ac_inv(double c, const ens_vd *x, const ens_vd *v, ens_vd *out)
{
    const ens_vd xv = ENS_DOT(x, v), xx = ENS_DOT(x, x);
    const ens_vd k = (0.25 - c) * xv / (1 + c * xx), inv = 1 / (1 + 0.25 * xx);
    ens_vd xc[3];
    ens_cross(x, v, xc);
    _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++) out[i] = (v[i] - 0.5 * xc[i] + k * x[i]) * inv;
}

/* x = Delta t xi = (h I^{-1} M + amp dW)/2 with M = (A + B)/2 (svi-lin generators), and
 * tau = cay(x). */
ENS_INLINE void ens_svi_map(const slpi_fast_rb_soa *c, double h, const ens_vd *E, const ens_vd *A, const ens_vd *B,
                            ens_vd *x, ens_vd *tau)
{
    _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++)
    {
        const ens_vd m = 0.5 * (A[i] + B[i]);
        x[i] = 0.5 * (h * (c->Iinv[i] * m) + E[i] * c->amp);
    }
    ens_cayley(x, tau);
}

/* SVI-SO3 on n <= K ENS_W lanes, K registers side by side (as ens_isomp_group):
 * slpi_fast_svi3_solve from A = B = Pi_k, then Pi_{k+1} = tau^T tau^T Pi_k (rotation
 * output). */
ENS_INLINE long ens_svi_group(const slpi_fast_rb_soa *c, int n, const int K, double h, double *const xp[3],
                              const double *const ep[3], long *iters, slpi_fast_lane *lane)
{
    ens_vd Pk[ENS_K][3], E[ENS_K][3], A[ENS_K][3], B[ENS_K][3];
    ens_vl st[ENS_K], act[ENS_K], its[ENS_K];
    ens_iter s[ENS_K];
    _Pragma("GCC unroll 2") for (int k = 0; k < K; k++)
    {
        ens_begin_at(n, k, xp, ep, Pk[k], E[k], &st[k], &act[k]);
        its[k] = (ens_vl){ 0 };
        s[k] = (ens_iter){ { 0 }, { 0 }, { 0 } };
        _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++) A[k][i] = B[k][i] = Pk[k][i];
    }
    for (int it = 1; ens_any_of(act, K); it++) {
        ens_vd d[ENS_K], m[ENS_K];
        _Pragma("GCC unroll 2") for (int k = 0; k < K; k++)
        {
            ens_vd x[3], tau[9], v[3], An[3], Bn[3];
            ens_svi_map(c, h, E[k], A[k], B[k], x, tau);
            ens_mat3t_vec(tau, Pk[k], v);
            ens_ac_inv(c->c, x, Pk[k], An);
            ens_ac_inv(c->c, x, v, Bn);
            ens_vd da = ENS_ABS(An[0] - A[k][0]), db = ENS_ABS(Bn[0] - B[k][0]); /* ENS_UPD from +0 */
            ens_vd ma = ENS_ABS(An[0]), mb = ENS_ABS(Bn[0]);
            _Pragma("GCC unroll 2") for (int i = 1; i < 3; i++)
            {
                ENS_UPD(da, ENS_ABS(An[i] - A[k][i]));
                ENS_UPD(db, ENS_ABS(Bn[i] - B[k][i]));
                ENS_UPD(ma, ENS_ABS(An[i]));
                ENS_UPD(mb, ENS_ABS(Bn[i]));
            }
            _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++)
            {
                A[k][i] = ENS_SEL(act[k], An[i], A[k][i]);
                B[k][i] = ENS_SEL(act[k], Bn[i], B[k][i]);
            }
            d[k] = ENS_MAX2(da, db);
            m[k] = ENS_MAX2(ma, mb);
        }
        ens_check_all(&c->pol, it, K, s, d, m, act, st, its);
    }
    long bad = 0;
    _Pragma("GCC unroll 2") for (int k = 0; k < K; k++)
    {
        ens_vd x[3], tau[9], t[3], out[3];
        ens_svi_map(c, h, E[k], A[k], B[k], x, tau);
        ens_mat3t_vec(tau, Pk[k], t);
        ens_mat3t_vec(tau, t, out);
        bad += ens_store3_at(n, k, &st[k], &its[k], out, Pk[k], xp, iters, lane);
    }
    return bad;
}

/* Every group of nl lanes: ENS_K registers at a time, a last one alone. */
#define ENS_RUN(GROUP)                                                                                                 \
    long bad = 0;                                                                                                      \
    for (long r = 0; r < nl; r += ENS_K * ENS_W) {                                                                     \
        const int n = nl - r < ENS_K * ENS_W ? (int)(nl - r) : ENS_K * ENS_W;                                          \
        double *const xs[3] = { x + r, x + nl + r, x + 2 * nl + r };                                                   \
        const double *const es[3] = { dW + r, dW + nl + r, dW + 2 * nl + r };                                          \
        bad += n > ENS_W ? GROUP(c, n, ENS_K, h, xs, es, iters, lane ? lane + r : NULL)                                \
                         : GROUP(c, n, 1, h, xs, es, iters, lane ? lane + r : NULL);                                   \
    }                                                                                                                  \
    return bad

long ENS_ISOMP_FN(const slpi_fast_rb_soa *c, long nl, double h, double *x, const double *dW, long *iters,
                  slpi_fast_lane *lane);
long ENS_ISOMP_FN(const slpi_fast_rb_soa *c, long nl, double h, double *x, const double *dW, long *iters,
                  slpi_fast_lane *lane)
{
    ENS_RUN(ens_isomp_group);
}

long ENS_SVI_FN(const slpi_fast_rb_soa *c, long nl, double h, double *x, const double *dW, long *iters,
                slpi_fast_lane *lane);
long ENS_SVI_FN(const slpi_fast_rb_soa *c, long nl, double h, double *x, const double *dW, long *iters,
                slpi_fast_lane *lane)
{
    ENS_RUN(ens_svi_group);
}
#undef ENS_RUN
