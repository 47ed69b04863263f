/* ref/sine-euler.c — sine-Euler on the torus, su(N) with N odd, in balls (docs/systems.md#sine-euler;
 * RKMK §6, eqs. (46)-(55)).
 *   eps = 2 pi / N, K = (N-1)/2, modes m in {-K..K}^2 \ {0};
 *   T_m = i/(2 eps) J_m, J_m = e^{i eps m1 m2} g^{m1} h^{m2}, g = diag(q^a), q = e^{2 i eps},
 *   h e_b = e_{(b-1) mod N}: (J_m)_{a,b} = e^{i eps (m1 m2 + 2 a m1)} [a = b - m2 mod N];
 *   tr(T_m^* T_n) = N/(4 eps^2) delta_mn, so omega_m = (4 eps^2/N) tr(T_m^* W);
 *   P = sum_m psi_m T_m, psi_m = -omega_m/|m|^2; B_0 = P(W) (linear), H0 = 1/2 Tr(W P);
 *   noise (SALT, eq. (55)): B_i = -Z_i, Z_1 = amp (T_(1,1) + T_-(1,1)),
 *   Z_2 = amp (T_(1,-1) + T_-(1,-1));
 *   Casimirs C2 = Tr W^2 and C3 = Im Tr W^3 (E-R14), and for N <= 12 the sorted
 *   eigenvalues of iW as certified enclosures (slpi_ref_mat_eig_skewh; indeterminate if
 *   Arb cannot separate them).
 * State: the packed skew-Hermitian W (slpi.h su(N) layout). */
#include "slpi/errors.h"
#include "core/slpi-flint.h"
#include "core/view-cert.h"
#include "core/view-system.h"
#include "ref/matrix.h"
#include <math.h>

#define SE_MAX_EIG 12

typedef struct {
    int nm;            /* number of modes */
    acb_mat_struct *T; /* T_m */
    arb_struct *wgt;   /* -(4 eps^2 / N) / |m|^2 */
    acb_mat_t Z[2];
} se_data;

static void se_m_unpack(const slpi_ref_system *s, acb_mat_t X, arb_srcptr x, slong prec)
{
    slpi_ref_sun_unpack(X, x, s->N, prec);
}

static void se_m_pack(const slpi_ref_system *s, arb_ptr x, const acb_mat_t X, slong prec)
{
    slpi_ref_sun_pack(x, X, s->N, prec);
}

/* P(W) = sum_m wgt_m tr(T_m^* W) T_m */
static void se_P(const slpi_ref_system *s, acb_mat_t P, const acb_mat_t W, slong prec)
{
    const se_data *d = s->data;
    int N = s->N;
    acb_t c, t;
    acb_init(c);
    acb_init(t);
    acb_mat_zero(P);
    for (int j = 0; j < d->nm; j++) {
        const acb_mat_struct *T = d->T + j;
        acb_zero(c);
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++) {
                acb_conj(t, acb_mat_entry(T, a, b));
                acb_addmul(c, t, acb_mat_entry(W, a, b), prec);
            }
        acb_mul_arb(c, c, d->wgt + j, prec);
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++) acb_addmul(acb_mat_entry(P, a, b), c, acb_mat_entry(T, a, b), prec);
    }
    acb_clear(c);
    acb_clear(t);
}

static void se_m_gen(const slpi_ref_system *s, int k, acb_mat_t B, const acb_mat_t X, slong prec)
{
    const se_data *d = s->data;
    if (k == 0)
        se_P(s, B, X, prec);
    else
        acb_mat_neg(B, d->Z[k - 1]);
}

static void se_m_dgen(const slpi_ref_system *s, int k, acb_mat_t dB, const acb_mat_t X, const acb_mat_t W, slong prec)
{
    (void)X;
    if (k == 0)
        se_P(s, dB, W, prec);
    else
        acb_mat_zero(dB);
}

/* The double path's other diagnostics (fast/sun.c): C4 = Tr W^4, abs_trace = |Tr W|, and
 * for N <= SE_MAX_EIG eig_dev = max_k |lambda_k - lambda_k(x0)|. */
static void se_departures(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, arb_srcptr x0, slong prec)
{
    int N = s->N;
    acb_mat_t W;
    acb_ptr T = _acb_vec_init(4);
    acb_mat_init(W, N, N);
    se_m_unpack(s, W, x, prec);
    slpi_ref_mat_trace_powers(T, W, 4, prec);
    arb_set(out + 0, acb_realref(T + 3));
    acb_abs(out + 1, T + 0, prec);
    if (s->n_dep == 3) {
        arb_ptr lam = _arb_vec_init(2 * N);
        slpi_ref_mat_eig_skewh(lam, W, prec);
        se_m_unpack(s, W, x0, prec);
        slpi_ref_mat_eig_skewh(lam + N, W, prec);
        slpi_ref_max_abs_diff(out + 2, lam, lam + N, N, prec);
        _arb_vec_clear(lam, 2 * N);
    }
    acb_mat_clear(W);
    _acb_vec_clear(T, 4);
}

static void se_invariants(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec)
{
    int N = s->N;
    acb_mat_t W, P, T;
    acb_mat_init(W, N, N);
    acb_mat_init(P, N, N);
    acb_mat_init(T, N, N);
    acb_ptr tr = _acb_vec_init(3);
    acb_t h;
    acb_init(h);
    se_m_unpack(s, W, x, prec);
    se_P(s, P, W, prec);
    acb_mat_mul(T, W, P, prec);
    acb_mat_trace(h, T, prec);
    arb_mul_2exp_si(out + 0, acb_realref(h), -1);
    slpi_ref_mat_trace_powers(tr, W, 3, prec);
    arb_set(out + 1, acb_realref(tr + 1));
    arb_set(out + 2, acb_imagref(tr + 2));
    if (s->n_inv > 3) slpi_ref_mat_eig_skewh(out + 3, W, prec);
    acb_clear(h);
    _acb_vec_clear(tr, 3);
    acb_mat_clear(W);
    acb_mat_clear(P);
    acb_mat_clear(T);
}

/* W0 = sum omega_m T_m (core's Fourier description, (Re, Im) per mode). */
static void se_initial_map(const slpi_ref_system *s, arb_ptr x, const double *c, slong prec)
{
    const se_data *d = s->data;
    acb_mat_t W;
    acb_t w;
    acb_mat_init(W, s->N, s->N);
    acb_init(w);
    for (int j = 0; j < d->nm; j++) {
        acb_set_d_d(w, c[2 * j], c[2 * j + 1]);
        acb_mat_scalar_addmul_acb(W, d->T + j, w, prec);
    }
    slpi_ref_sun_pack(x, W, s->N, prec);
    acb_clear(w);
    acb_mat_clear(W);
}

static void se_clear(slpi_ref_system *s)
{
    se_data *d = s->data;
    for (int j = 0; j < d->nm; j++) {
        acb_mat_clear(d->T + j);
        arb_clear(d->wgt + j);
    }
    acb_mat_clear(d->Z[0]);
    acb_mat_clear(d->Z[1]);
    flint_free(d->T);
    flint_free(d->wgt);
    flint_free(d);
}

/* T_m at precision prec */
static void basis_matrix(acb_mat_t T, int N, int m1, int m2, slong prec)
{
    arb_t eps, sn, cs;
    fmpq_t r;
    arb_init(eps);
    arb_init(sn);
    arb_init(cs);
    fmpq_init(r);
    acb_mat_zero(T);
    arb_const_pi(eps, prec);
    arb_mul_2exp_si(eps, eps, 1);
    arb_div_si(eps, eps, N, prec); /* eps = 2 pi / N */
    for (int b = 0; b < N; b++) {
        int a = ((b - m2) % N + N) % N;
        /* angle eps (m1 m2 + 2 a m1) = pi * 2 (m1 m2 + 2 a m1) / N */
        fmpq_set_si(r, 2L * (m1 * m2 + 2 * a * m1), N);
        arb_sin_cos_pi_fmpq(sn, cs, r, prec);
        acb_ptr e = acb_mat_entry(T, a, b);
        /* i/(2 eps) (cs + i sn) = (-sn + i cs) / (2 eps) */
        arb_neg(acb_realref(e), sn);
        arb_set(acb_imagref(e), cs);
        acb_div_arb(e, e, eps, prec);
        acb_mul_2exp_si(e, e, -1);
    }
    arb_clear(eps);
    arb_clear(sn);
    arb_clear(cs);
    fmpq_clear(r);
}

int slpi_ref_sys_sine_euler(slpi_ref_system *s, const slpi_problem *p, slpi_error *err)
{
    const slpi_system_view *sys = slpi_view_system(p);
    const slong prec = 2 * slpi_view_cert(p)->prec_max + 64;
    int N = sys->se.N;
    if (N < 3 || N % 2 == 0 || N > 99)
        return slpi_error_set(err, SLPI_EINPUT, "sine-euler: N=%d must be odd in [3, 99]", N);
    if (!isfinite(sys->se.amp)) return slpi_error_set(err, SLPI_EINPUT, "sine-euler: amp must be finite");
    int K = (N - 1) / 2, nm = N * N - 1, j = 0;
    se_data *d = flint_malloc(sizeof *d);
    d->nm = nm;
    d->T = flint_malloc(nm * sizeof(acb_mat_struct));
    d->wgt = flint_malloc(nm * sizeof(arb_struct));
    arb_t c;
    arb_init(c);
    arb_const_pi(c, prec);
    arb_sqr(c, c, prec);
    arb_mul_2exp_si(c, c, 4);
    arb_div_si(c, c, N, prec);
    arb_div_si(c, c, N, prec);
    arb_div_si(c, c, N, prec); /* 4 eps^2 / N = 16 pi^2 / N^3 */
    acb_mat_init(d->Z[0], N, N);
    acb_mat_init(d->Z[1], N, N);
    arb_t amp;
    arb_init(amp);
    arb_set_d(amp, sys->se.amp);
    for (int m1 = -K; m1 <= K; m1++)
        for (int m2 = -K; m2 <= K; m2++) {
            if (m1 == 0 && m2 == 0) continue;
            acb_mat_init(d->T + j, N, N);
            basis_matrix(d->T + j, N, m1, m2, prec);
            arb_init(d->wgt + j);
            arb_div_si(d->wgt + j, c, -(m1 * m1 + m2 * m2), prec);
            /* Z_1 on (1,1) and (-1,-1), Z_2 on (1,-1) and (-1,1) */
            if (sys->se.noise && m1 * m1 == 1 && m2 * m2 == 1)
                acb_mat_scalar_addmul_arb(d->Z[m1 == m2 ? 0 : 1], d->T + j, amp, prec);
            j++;
        }
    arb_clear(c);
    arb_clear(amp);
    s->p = p;
    s->data = d;
    s->clear = se_clear;
    s->initial_map = se_initial_map;
    s->N = N;
    s->dim = s->state_dim = N * N;
    s->M = sys->se.noise ? 2 : 0;
    s->h0_quadratic = 1;
    s->m_unpack = se_m_unpack;
    s->m_pack = se_m_pack;
    s->m_gen = se_m_gen;
    s->m_dgen = se_m_dgen;
    slpi_ref_matrix_attach(s);
    s->invariants = se_invariants;
    static const char *const eig[] = { "lambda_1", "lambda_2", "lambda_3", "lambda_4",  "lambda_5",  "lambda_6",
                                       "lambda_7", "lambda_8", "lambda_9", "lambda_10", "lambda_11", "lambda_12" };
    static const char *const deig[] = { "lambda_1_dev", "lambda_2_dev",  "lambda_3_dev",  "lambda_4_dev",
                                        "lambda_5_dev", "lambda_6_dev",  "lambda_7_dev",  "lambda_8_dev",
                                        "lambda_9_dev", "lambda_10_dev", "lambda_11_dev", "lambda_12_dev" };
    _Static_assert(sizeof eig / sizeof *eig == SE_MAX_EIG && sizeof deig / sizeof *deig == SE_MAX_EIG,
                   "a name per eigenvalue");
    _Static_assert(3 + SE_MAX_EIG <= SLPI_REF_MAX_INV, "sine-Euler's invariants fit the system's table");
    s->n_inv = 3 + (N <= SE_MAX_EIG ? N : 0);
    for (int j = 3; j < s->n_inv; j++) {
        s->inv_name[j] = eig[j - 3];
        s->inv_delta_name[j] = deig[j - 3];
    }
    s->inv_name[0] = "H0"; /* C2 = Tr W^2, C3 = Im Tr W^3 */
    s->inv_delta_name[0] = "H0_rel_dev";
    s->inv_name[1] = "C2";
    s->inv_delta_name[1] = "C2_rel_dev";
    s->inv_name[2] = "C3";
    s->inv_delta_name[2] = "C3_rel_dev";
    s->inv_rel[0] = s->inv_rel[1] = s->inv_rel[2] = 1;
    s->n_dep = N <= SE_MAX_EIG ? 3 : 2;
    s->dep_name[0] = "C4";
    s->dep_name[1] = "abs_trace";
    s->dep_name[2] = "eig_dev";
    s->departures = se_departures;
    return SLPI_OK;
}
