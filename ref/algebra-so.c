/* ref/algebra-so.c — the so(n) family in balls (ref/algebra.h; docs/conventions.md#algebras):
 * X_ij for i < j row-major, n = s->N; the Casimirs Tr X^{2k}, k = 1..floor(n/2) (at most
 * SLPI_REF_SO_MAX_CAS), and the spectrum +-i lambda_j as certified enclosures
 * lambda_1 >= lambda_2 >= ... (at most SLPI_REF_SO_MAX_EIG; acb_mat_eig_simple through
 * slpi_ref_mat_eig_skewh, indeterminate where Arb cannot separate them). Used by the
 * Manakov system (ref/manakov.c) and the models on so(n) (ref/model.c). */
#include "core/slpi-flint.h"
#include "ref/algebra.h"
#include "ref/matrix.h"

void slpi_ref_so_m_unpack(const slpi_ref_system *s, acb_mat_t X, arb_srcptr x, slong prec)
{
    (void)prec;
    int n = s->N, idx = 0;
    acb_mat_zero(X);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++, idx++) {
            arb_set(acb_realref(acb_mat_entry(X, i, j)), x + idx);
            arb_neg(acb_realref(acb_mat_entry(X, j, i)), x + idx);
        }
}

void slpi_ref_so_m_pack(const slpi_ref_system *s, arb_ptr x, const acb_mat_t X, slong prec)
{
    (void)prec;
    int n = s->N, idx = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++, idx++) arb_set(x + idx, acb_realref(acb_mat_entry(X, i, j)));
}

/* The Casimirs and spectrum of so(n) (shared with ref/model.c): out[1..n_inv) */
void slpi_ref_so_casimirs(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec)
{
    int n = s->N;
    acb_mat_t X;
    acb_mat_init(X, n, n);
    acb_ptr T = _acb_vec_init(2 * SLPI_REF_SO_MAX_CAS);
    slpi_ref_so_m_unpack(s, X, x, prec);
    slpi_ref_mat_trace_powers(T, X, 2 * SLPI_REF_SO_MAX_CAS, prec);
    int ncas = n / 2 < SLPI_REF_SO_MAX_CAS ? n / 2 : SLPI_REF_SO_MAX_CAS, neig = s->n_inv - 1 - ncas;
    for (int k = 1; k <= ncas; k++) arb_set(out + k, acb_realref(T + 2 * k - 1));
    arb_ptr lam = _arb_vec_init(n);
    slpi_ref_mat_eig_skewh(lam, X, prec); /* ascending: -lambda_1 .. lambda_1 */
    for (int j = 0; j < neig; j++) arb_set(out + 1 + ncas + j, lam + n - 1 - j);
    _arb_vec_clear(lam, n);
    _acb_vec_clear(T, 2 * SLPI_REF_SO_MAX_CAS);
    acb_mat_clear(X);
}

/* eig_dev = max_j |lambda_j - lambda_j(x0)| over the listed eigenvalues, which are the
 * whole spectrum up to its sign (so(n): -lambda_j, lambda_j and a 0 for n odd). */
static void so_departures(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, arb_srcptr x0, slong prec)
{
    int ncas = s->N / 2 < SLPI_REF_SO_MAX_CAS ? s->N / 2 : SLPI_REF_SO_MAX_CAS, neig = s->n_inv - 1 - ncas;
    arb_ptr v = _arb_vec_init(2 * s->n_inv);
    slpi_ref_so_casimirs(s, v, x, prec);
    slpi_ref_so_casimirs(s, v + s->n_inv, x0, prec);
    slpi_ref_max_abs_diff(out, v + 1 + ncas, v + s->n_inv + 1 + ncas, neig, prec);
    _arb_vec_clear(v, 2 * s->n_inv);
}

void slpi_ref_so_casimir_names(slpi_ref_system *s)
{
    static const char *const cas[] = { "trX2", "trX4", "trX6", "trX8", "trX10" };
    static const char *const dcas[] = { "trX2_rel_dev", "trX4_rel_dev", "trX6_rel_dev", "trX8_rel_dev",
                                        "trX10_rel_dev" };
    static const char *const eig[] = { "lambda_1", "lambda_2", "lambda_3", "lambda_4", "lambda_5",
                                       "lambda_6", "lambda_7", "lambda_8", "lambda_9", "lambda_10" };
    static const char *const deig[] = {
        "lambda_1_dev", "lambda_2_dev", "lambda_3_dev", "lambda_4_dev", "lambda_5_dev",
        "lambda_6_dev", "lambda_7_dev", "lambda_8_dev", "lambda_9_dev", "lambda_10_dev"
    };
    _Static_assert(sizeof cas / sizeof *cas == SLPI_REF_SO_MAX_CAS && sizeof dcas / sizeof *dcas == SLPI_REF_SO_MAX_CAS,
                   "a name per Casimir");
    _Static_assert(sizeof eig / sizeof *eig == SLPI_REF_SO_MAX_EIG && sizeof deig / sizeof *deig == SLPI_REF_SO_MAX_EIG,
                   "a name per eigenvalue");
    _Static_assert(1 + SLPI_REF_SO_MAX_CAS + SLPI_REF_SO_MAX_EIG <= SLPI_REF_MAX_INV,
                   "so(n)'s invariants fit the system's table");
    int n = s->N;
    int ncas = n / 2 < SLPI_REF_SO_MAX_CAS ? n / 2 : SLPI_REF_SO_MAX_CAS;
    int neig = n / 2 < SLPI_REF_SO_MAX_EIG ? n / 2 : SLPI_REF_SO_MAX_EIG;
    s->n_inv = 1 + ncas + neig;
    for (int k = 0; k < ncas; k++) {
        s->inv_name[1 + k] = cas[k];
        s->inv_delta_name[1 + k] = dcas[k];
        s->inv_rel[1 + k] = 1;
    }
    for (int j = 0; j < neig; j++) {
        s->inv_name[1 + ncas + j] = eig[j];
        s->inv_delta_name[1 + ncas + j] = deig[j];
    }
    if (neig == n / 2) { /* the whole spectrum listed */
        s->n_dep = 1;
        s->dep_name[0] = "eig_dev";
        s->departures = so_departures;
    }
}
