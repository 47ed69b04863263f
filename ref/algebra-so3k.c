/* ref/algebra-so3k.c — the so(3)^k = su(2)^k family in balls (ref/algebra.h;
 * docs/conventions.md#hat-maps): X = diag(E(x_1), .., E(x_k)), blocks of size b: 2 (model
 * A, E(v) = sum_c v_c E_c, E_c = -i sigma_c / sqrt2) or 3 (model B, E(v) = hat v); the
 * Casimirs |x_i|^2 and eig_dev. Used by point vortices (ref/point-vortices.c) and the
 * models on so3^k (ref/model.c). */
#include "core/slpi-flint.h"
#include "ref/algebra.h"
#include "ref/matrix.h"

#include <stddef.h>

/* write E(v) into block i of X (blocks of size b: 2 model A, 3 model B) */
static void put_block(int b, acb_mat_t X, int i, arb_srcptr v, slong prec)
{
    int o = b * i;
    if (b == 3) {
        arb_set(acb_realref(acb_mat_entry(X, o + 2, o + 1)), v + 0);
        arb_set(acb_realref(acb_mat_entry(X, o + 0, o + 2)), v + 1);
        arb_set(acb_realref(acb_mat_entry(X, o + 1, o + 0)), v + 2);
        arb_neg(acb_realref(acb_mat_entry(X, o + 1, o + 2)), v + 0);
        arb_neg(acb_realref(acb_mat_entry(X, o + 2, o + 0)), v + 1);
        arb_neg(acb_realref(acb_mat_entry(X, o + 0, o + 1)), v + 2);
        return;
    }
    /* -i/sqrt2 [[v3, v1 - i v2], [v1 + i v2, -v3]] */
    arb_t r;
    arb_init(r);
    arb_rsqrt_ui(r, 2, prec);
    acb_ptr e00 = acb_mat_entry(X, o, o), e01 = acb_mat_entry(X, o, o + 1), e10 = acb_mat_entry(X, o + 1, o),
            e11 = acb_mat_entry(X, o + 1, o + 1);
    arb_zero(acb_realref(e00));
    arb_mul(acb_imagref(e00), v + 2, r, prec);
    arb_neg(acb_imagref(e00), acb_imagref(e00));
    acb_neg(e11, e00);
    arb_mul(acb_realref(e01), v + 1, r, prec);
    arb_neg(acb_realref(e01), acb_realref(e01));
    arb_mul(acb_imagref(e01), v + 0, r, prec);
    arb_neg(acb_imagref(e01), acb_imagref(e01));
    arb_neg(acb_realref(e10), acb_realref(e01));
    arb_set(acb_imagref(e10), acb_imagref(e01));
    arb_clear(r);
}

/* v = E^{-1}(block i of X) */
static void get_block(int b, arb_ptr v, const acb_mat_t X, int i, slong prec)
{
    int o = b * i;
    if (b == 3) {
        arb_set(v + 0, acb_realref(acb_mat_entry(X, o + 2, o + 1)));
        arb_set(v + 1, acb_realref(acb_mat_entry(X, o + 0, o + 2)));
        arb_set(v + 2, acb_realref(acb_mat_entry(X, o + 1, o + 0)));
        return;
    }
    arb_t r;
    arb_init(r);
    arb_sqrt_ui(r, 2, prec);
    arb_neg(r, r);
    arb_mul(v + 0, acb_imagref(acb_mat_entry(X, o, o + 1)), r, prec);
    arb_mul(v + 1, acb_realref(acb_mat_entry(X, o, o + 1)), r, prec);
    arb_mul(v + 2, acb_imagref(acb_mat_entry(X, o, o)), r, prec);
    arb_clear(r);
}

void slpi_ref_so3k_m_unpack(acb_mat_t X, arb_srcptr x, int k, int b, slong prec)
{
    acb_mat_zero(X);
    for (int i = 0; i < k; i++) put_block(b, X, i, x + 3 * i, prec);
}

void slpi_ref_so3k_m_pack(arb_ptr x, const acb_mat_t X, int k, int b, slong prec)
{
    for (int i = 0; i < k; i++) get_block(b, x + 3 * i, X, i, prec);
}

/* The Casimirs |x_i|^2 of so(3)^k, at most 8 (shared with ref/model.c): out[1..n_inv) */
void slpi_ref_so3k_casimirs(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec)
{
    for (int i = 0; i + 1 < s->n_inv; i++) arb_dot(out + 1 + i, NULL, 0, x + 3 * i, 1, x + 3 * i, 1, 3, prec);
}

/* eig_dev = e max_i | |x_i| - |x_i(x0)| | over every vortex, the block eigenvalues of iX
 * being +-|x_i|/sqrt2 (blocks of 2, point vortices' model A, e = 1/sqrt2) or 0, +-|x_i|
 * (hat blocks of 3, model B and the model system, e = 1), as fast/point-vortices.c
 * reports it. */
static void so3k_departures(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, arb_srcptr x0, slong prec)
{
    int n = s->dim / 3;
    arb_ptr r = _arb_vec_init(2 * n);
    for (int i = 0; i < n; i++) {
        arb_dot(r + i, NULL, 0, x + 3 * i, 1, x + 3 * i, 1, 3, prec);
        arb_sqrt(r + i, r + i, prec);
        arb_dot(r + n + i, NULL, 0, x0 + 3 * i, 1, x0 + 3 * i, 1, 3, prec);
        arb_sqrt(r + n + i, r + n + i, prec);
    }
    slpi_ref_max_abs_diff(out, r, r + n, n, prec);
    if (s->N == 2 * n) {
        arb_t q;
        arb_init(q);
        arb_rsqrt_ui(q, 2, prec);
        arb_mul(out, out, q, prec);
        arb_clear(q);
    }
    _arb_vec_clear(r, 2 * n);
}

void slpi_ref_so3k_casimir_names(slpi_ref_system *s)
{
    static const char *const nm[8] = { "casimir_norm2_1", "casimir_norm2_2", "casimir_norm2_3", "casimir_norm2_4",
                                       "casimir_norm2_5", "casimir_norm2_6", "casimir_norm2_7", "casimir_norm2_8" };
    static const char *const dnm[8] = { "casimir_norm2_1_dev", "casimir_norm2_2_dev", "casimir_norm2_3_dev",
                                        "casimir_norm2_4_dev", "casimir_norm2_5_dev", "casimir_norm2_6_dev",
                                        "casimir_norm2_7_dev", "casimir_norm2_8_dev" };
    int k = s->dim / 3, nv = k < 8 ? k : 8;
    s->n_inv = 1 + nv;
    for (int i = 0; i < nv; i++) {
        s->inv_name[1 + i] = nm[i];
        s->inv_delta_name[1 + i] = dnm[i];
    }
    s->n_dep = 1;
    s->dep_name[0] = "eig_dev";
    s->departures = so3k_departures;
}
