/* fast/algebra-so3k.c — the algebra family so(3)^k = su(2)^k of the double path
 * (fast/algebra.h; docs/conventions.md#hat-maps): mu = (x_1..x_k), each block under the
 * matrix model SU2A (E_c = -i sigma_c / sqrt2, bracket factor kappa = sqrt2) or HAT
 * (kappa = 1) of fast/so3.h: coad(xi, mu)_i = kappa mu_i x xi_i, the orbit map block by
 * block, the matrix form the 3-vector blocks; the Casimirs |x_i|^2 and eig_dev. Shared by
 * the point vortices (fast/point-vortices.c) and the models on so3^k (fast/model.c, HAT),
 * as ref/algebra-so3k.c on the certified path. */
#include <math.h>
#include <string.h>
#include <stddef.h>

#include "slpi/diag.h"
#include "fast/algebra.h"
#include "fast/so3.h"
#include "fast/system.h"
#include "fast/vec3.h"

static const slpi_fast_so3k *so3k_of(const slpi_fast_system *s)
{
    return (const slpi_fast_so3k *)s->data;
}

void slpi_fast_so3k_init(slpi_fast_so3k *a, int n, slpi_fast_block_model model)
{
    a->n = n;
    a->model = model;
    a->kappa = model == SLPI_FAST_BLOCK_SU2A ? SLPI_FAST_SQRT2 : 1;
}

void slpi_fast_so3k_coad(const slpi_fast_system *s, double *out, const double *xi, const double *mu)
{
    const slpi_fast_so3k *c = so3k_of(s);
    for (int i = 0; i < c->n; i++) {
        slpi_fast_cross(out + 3 * i, mu + 3 * i, xi + 3 * i);
        for (int k = 0; k < 3; k++) out[3 * i + k] *= c->kappa;
    }
}

void slpi_fast_so3k_lie(const slpi_fast_system *s, double *out, const double *a, const double *b)
{
    slpi_fast_so3k_coad(s, out, b, a);
}

int slpi_fast_so3k_orbit(const slpi_fast_system *s, double *out, const double *sigma, const double *mu)
{
    const slpi_fast_so3k *c = so3k_of(s);
    for (int i = 0; i < c->n; i++) {
        double w[3], R[9];
        for (int k = 0; k < 3; k++) w[k] = c->kappa * sigma[3 * i + k];
        slpi_fast_rodrigues(R, w);
        slpi_fast_mat3t_vec(out + 3 * i, R, mu + 3 * i);
    }
    return 0;
}

/* Matrix form: the 3-vector blocks themselves. */
void slpi_fast_so3k_m_unpack(const slpi_fast_system *s, double *Y, const double *mu)
{
    memcpy(Y, mu, sizeof *mu * 3 * (size_t)so3k_of(s)->n);
}

void slpi_fast_so3k_m_pack(const slpi_fast_system *s, double *mu, const double *Y)
{
    memcpy(mu, Y, sizeof *Y * 3 * (size_t)so3k_of(s)->n);
}

void slpi_fast_so3k_m_comm_update(const slpi_fast_system *s, double *out, const double *P, const double *Y,
                                  const double *Xn)
{
    const slpi_fast_so3k *c = so3k_of(s);
    slpi_fast_blocks_comm(c->model, c->n, P, Y, Xn, out);
}

int slpi_fast_so3k_m_cay_conj(const slpi_fast_system *s, double *out, double a, const double *P, const double *X)
{
    const slpi_fast_so3k *c = so3k_of(s);
    slpi_fast_blocks_cay(c->model, c->n, a, P, X, out);
    return 0;
}

int slpi_fast_so3k_m_ainv(const slpi_fast_system *s, double *out, double a, const double *P, const double *X)
{
    const slpi_fast_so3k *c = so3k_of(s);
    slpi_fast_blocks_ainv(c->model, c->n, a, P, X, out);
    return 0;
}

void slpi_fast_so3k_fill_ops(slpi_fast_system *s)
{
    s->mdim = 3 * so3k_of(s)->n;
    s->coad = slpi_fast_so3k_coad;
    s->lie = slpi_fast_so3k_lie;
    s->orbit = slpi_fast_so3k_orbit;
    s->m_unpack = slpi_fast_so3k_m_unpack;
    s->m_pack = slpi_fast_so3k_m_pack;
    s->m_comm_update = slpi_fast_so3k_m_comm_update;
    s->m_cay_conj = slpi_fast_so3k_m_cay_conj;
    s->m_ainv = slpi_fast_so3k_m_ainv;
}

/* the Casimirs |x_i|^2 of the first min(k, 8) blocks (the certified path's) */
static const char *const cas[8][2] = {
    { "casimir_norm2_1", "casimir_norm2_1_dev" }, { "casimir_norm2_2", "casimir_norm2_2_dev" },
    { "casimir_norm2_3", "casimir_norm2_3_dev" }, { "casimir_norm2_4", "casimir_norm2_4_dev" },
    { "casimir_norm2_5", "casimir_norm2_5_dev" }, { "casimir_norm2_6", "casimir_norm2_6_dev" },
    { "casimir_norm2_7", "casimir_norm2_7_dev" }, { "casimir_norm2_8", "casimir_norm2_8_dev" }
};

void slpi_fast_so3k_casimirs(const slpi_fast_so3k *c, slpi_diag *d, const double *x)
{
    int nc = c->n < 8 ? c->n : 8;
    for (int i = 0; i < nc; i++) slpi_diag_add(d, cas[i][0], slpi_fast_dot3(x + 3 * i, x + 3 * i));
}

void slpi_fast_so3k_casimir_devs(const slpi_fast_so3k *c, slpi_diag *d, const double *x, const double *x0)
{
    int nc = c->n < 8 ? c->n : 8;
    for (int i = 0; i < nc; i++)
        slpi_diag_add(d, cas[i][1], slpi_fast_dot3(x + 3 * i, x + 3 * i) - slpi_fast_dot3(x0 + 3 * i, x0 + 3 * i));
    /* block eigenvalues of iX: +-|x_i|/sqrt2 (SU2A), {0, +-|x_i|} (HAT) */
    double ef = c->model == SLPI_FAST_BLOCK_SU2A ? 1 / SLPI_FAST_SQRT2 : 1, dev = 0;
    for (int i = 0; i < c->n; i++) {
        double a = sqrt(slpi_fast_dot3(x + 3 * i, x + 3 * i));
        double a0 = sqrt(slpi_fast_dot3(x0 + 3 * i, x0 + 3 * i));
        dev = fmax(dev, ef * fabs(a - a0));
    }
    slpi_diag_add(d, "eig_dev", dev);
}
