/* ref/algebra-su.c — the certified Casimirs, departures and their names on su(N) (ref/algebra.h),
 * shared by Euler–Zeitlin (ref/euler-zeitlin.c) and the models on su(n) (ref/model.c):
 * C2 = Tr X^2, C3 = Im Tr X^3, Im Tr X, then for N <= 12 the sorted eigenvalues of iX; for
 * 12 < N <= 16 Tr X^4 and the extreme eigenvalues of iX (the interface holds
 * SLPI_REF_MAX_INV names); for N > 16 C4 = Tr X^4, C5 = Im Tr X^5, C6 = Tr X^6
 * (docs/systems.md#euler-zeitlin). Eigenvalues Arb cannot enclose are returned
 * indeterminate. */
#include "core/slpi-flint.h"
#include "ref/algebra.h"
#include "ref/matrix.h"

static const char *const lam_name[] = { "lambda_1",  "lambda_2",  "lambda_3",  "lambda_4",  "lambda_5",  "lambda_6",
                                        "lambda_7",  "lambda_8",  "lambda_9",  "lambda_10", "lambda_11", "lambda_12",
                                        "lambda_13", "lambda_14", "lambda_15", "lambda_16" };
static const char *const lam_delta_name[] = { "lambda_1_dev",  "lambda_2_dev",  "lambda_3_dev",  "lambda_4_dev",
                                              "lambda_5_dev",  "lambda_6_dev",  "lambda_7_dev",  "lambda_8_dev",
                                              "lambda_9_dev",  "lambda_10_dev", "lambda_11_dev", "lambda_12_dev",
                                              "lambda_13_dev", "lambda_14_dev", "lambda_15_dev", "lambda_16_dev" };
#define EZ_ALL_EIGS_MAX 12 /* 4 scalar invariants + N eigenvalues <= SLPI_REF_MAX_INV */
_Static_assert(4 + EZ_ALL_EIGS_MAX <= SLPI_REF_MAX_INV, "su(N)'s invariants fit the system's table");
_Static_assert(sizeof lam_name / sizeof *lam_name >= EZ_ALL_EIGS_MAX &&
                   sizeof lam_delta_name / sizeof *lam_delta_name == sizeof lam_name / sizeof *lam_name,
               "a name per eigenvalue");
/* Above this N no eigenvalues: acb_mat_eig_simple at the diagnostics' precision costs
 * 1 s per row at N = 16 and 5 s at N = 32 (growing like N^3 or worse); the Casimirs
 * Tr X^k (k <= 6) are certified instead, a few matrix products. */
#define EZ_EIGS_MAX 16

/* The Casimirs and spectrum of su(N) (shared with ref/model.c): out[1..n_inv) */
void slpi_ref_su_casimirs(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec)
{
    int N = s->N;
    acb_mat_t X;
    acb_ptr T = _acb_vec_init(6);
    arb_ptr lam = _arb_vec_init(N);
    acb_mat_init(X, N, N);
    slpi_ref_sun_unpack(X, x, N, prec);
    slpi_ref_mat_trace_powers(T, X, N > EZ_EIGS_MAX ? 6 : 4, prec);
    arb_set(out + 1, acb_realref(T + 1));
    arb_set(out + 2, acb_imagref(T + 2));
    arb_set(out + 3, acb_imagref(T + 0));
    if (N > EZ_EIGS_MAX) {
        arb_set(out + 4, acb_realref(T + 3));
        arb_set(out + 5, acb_imagref(T + 4));
        arb_set(out + 6, acb_realref(T + 5));
    } else {
        slpi_ref_mat_eig_skewh(lam, X, prec);
        if (N <= EZ_ALL_EIGS_MAX) {
            _arb_vec_set(out + 4, lam, N);
        } else {
            arb_set(out + 4, acb_realref(T + 3));
            arb_set(out + 5, lam + 0);
            arb_set(out + 6, lam + N - 1);
        }
    }
    acb_mat_clear(X);
    _acb_vec_clear(T, 6);
    _arb_vec_clear(lam, N);
}

/* The double path's other su(N) diagnostics (fast/sun.c): C4 = Tr X^4 where it is not an
 * invariant (N <= 12), abs_trace = |Tr X|, and for N <= 12 eig_dev = max_k |lambda_k -
 * lambda_k(x0)| (every eigenvalue is an invariant there). */
void slpi_ref_su_departures(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, arb_srcptr x0, slong prec)
{
    int N = s->N, k = 0;
    acb_mat_t X;
    acb_ptr T = _acb_vec_init(4);
    acb_mat_init(X, N, N);
    slpi_ref_sun_unpack(X, x, N, prec);
    /* Tr X^4 only where C4 is a departure (N <= 12); above, |Tr X| alone: no products (at
     * N = 128 the three saved 128 x 128 ball products were a quarter of a row's diagnostics) */
    slpi_ref_mat_trace_powers(T, X, N <= EZ_ALL_EIGS_MAX ? 4 : 1, prec);
    if (N <= EZ_ALL_EIGS_MAX) arb_set(out + k++, acb_realref(T + 3));
    acb_abs(out + k++, T + 0, prec);
    if (N <= EZ_ALL_EIGS_MAX) {
        arb_ptr lam = _arb_vec_init(2 * N);
        slpi_ref_mat_eig_skewh(lam, X, prec);
        slpi_ref_sun_unpack(X, x0, N, prec);
        slpi_ref_mat_eig_skewh(lam + N, X, prec);
        slpi_ref_max_abs_diff(out + k++, lam, lam + N, N, prec);
        _arb_vec_clear(lam, 2 * N);
    }
    acb_mat_clear(X);
    _acb_vec_clear(T, 4);
}

void slpi_ref_su_casimir_names(slpi_ref_system *s)
{
    int N = s->N;
    static const char *const base[3] = { "C2", "C3", "TrX" };
    static const char *const base_delta[3] = { "C2_rel_dev", "C3_rel_dev", "TrX_dev" };
    for (int i = 0; i < 3; i++) {
        s->inv_name[1 + i] = base[i];
        s->inv_delta_name[1 + i] = base_delta[i];
        s->inv_rel[1 + i] = i < 2;
    }
    s->departures = slpi_ref_su_departures;
    s->n_dep = 0;
    if (N <= EZ_ALL_EIGS_MAX) s->dep_name[s->n_dep++] = "C4";
    s->dep_name[s->n_dep++] = "abs_trace";
    if (N <= EZ_ALL_EIGS_MAX) s->dep_name[s->n_dep++] = "eig_dev";
    if (N <= EZ_ALL_EIGS_MAX) {
        for (int i = 0; i < N; i++) {
            s->inv_name[4 + i] = lam_name[i];
            s->inv_delta_name[4 + i] = lam_delta_name[i];
        }
        s->n_inv = 4 + N;
    } else if (N > EZ_EIGS_MAX) {
        static const char *const more[3] = { "C4", "C5", "C6" };
        static const char *const more_delta[3] = { "C4_dev", "C5_dev", "C6_dev" };
        for (int i = 0; i < 3; i++) {
            s->inv_name[4 + i] = more[i];
            s->inv_delta_name[4 + i] = more_delta[i];
        }
        s->n_inv = 7;
    } else {
        s->inv_name[4] = "C4";
        s->inv_delta_name[4] = "C4_dev";
        s->inv_name[5] = lam_name[0];
        s->inv_delta_name[5] = lam_delta_name[0];
        s->inv_name[6] = "lambda_N";
        s->inv_delta_name[6] = "lambda_N_dev";
        s->n_inv = 7;
    }
}
