/* fast/algebra-so3.c — the algebra family so(3) of the double path (fast/algebra.h;
 * docs/conventions.md#hat-maps, docs/conventions.md#brackets): mu = x in R^3 with X = hat x,
 * so coad(xi, mu) = mu x xi, [a, b] = a x b, the orbit map R^T mu with R = exp(hat sigma)
 * (Rodrigues), the matrix form one HAT block of fast/so3.h; the Casimir |x|^2 and the
 * departure eig_dev. Shared by the rigid body (fast/rigid-body.c) and the models on so3
 * (fast/model.c), as ref/algebra-so3.c on the certified path. */
#include <math.h>
#include <string.h>

#include "slpi/diag.h"
#include "fast/algebra.h"
#include "fast/so3.h"
#include "fast/system.h"
#include "fast/vec3.h"

void slpi_fast_so3_coad(const slpi_fast_system *s, double *out, const double *xi, const double *mu)
{
    (void)s;
    slpi_fast_cross(out, mu, xi);
}

void slpi_fast_so3_lie(const slpi_fast_system *s, double *out, const double *a, const double *b)
{
    (void)s;
    slpi_fast_cross(out, a, b);
}

int slpi_fast_so3_orbit(const slpi_fast_system *s, double *out, const double *sigma, const double *mu)
{
    double R[9];
    (void)s;
    slpi_fast_rodrigues(R, sigma);
    slpi_fast_mat3t_vec(out, R, mu);
    return 0;
}

/* Matrix form: one HAT block, the 3-vector itself. */
void slpi_fast_so3_m_unpack(const slpi_fast_system *s, double *Y, const double *mu)
{
    (void)s;
    memcpy(Y, mu, 3 * sizeof *mu);
}

void slpi_fast_so3_m_pack(const slpi_fast_system *s, double *mu, const double *Y)
{
    (void)s;
    memcpy(mu, Y, 3 * sizeof *Y);
}

void slpi_fast_so3_m_comm_update(const slpi_fast_system *s, double *out, const double *P, const double *Y,
                                 const double *Xn)
{
    (void)s;
    slpi_fast_blocks_comm(SLPI_FAST_BLOCK_HAT, 1, P, Y, Xn, out);
}

int slpi_fast_so3_m_cay_conj(const slpi_fast_system *s, double *out, double a, const double *P, const double *X)
{
    (void)s;
    slpi_fast_blocks_cay(SLPI_FAST_BLOCK_HAT, 1, a, P, X, out);
    return 0;
}

int slpi_fast_so3_m_ainv(const slpi_fast_system *s, double *out, double a, const double *P, const double *X)
{
    (void)s;
    slpi_fast_blocks_ainv(SLPI_FAST_BLOCK_HAT, 1, a, P, X, out);
    return 0;
}

void slpi_fast_so3_fill_ops(slpi_fast_system *s)
{
    s->mdim = 3;
    s->coad = slpi_fast_so3_coad;
    s->orbit = slpi_fast_so3_orbit;
    s->lie = slpi_fast_so3_lie;
    s->m_unpack = slpi_fast_so3_m_unpack;
    s->m_pack = slpi_fast_so3_m_pack;
    s->m_comm_update = slpi_fast_so3_m_comm_update;
    s->m_cay_conj = slpi_fast_so3_m_cay_conj;
    s->m_ainv = slpi_fast_so3_m_ainv;
}

void slpi_fast_so3_casimirs(slpi_diag *d, const double *x)
{
    slpi_diag_add(d, "casimir_norm2", slpi_fast_dot3(x, x));
}

void slpi_fast_so3_casimir_devs(slpi_diag *d, const double *x, const double *x0)
{
    double n2 = slpi_fast_dot3(x, x), n20 = slpi_fast_dot3(x0, x0);
    slpi_diag_add(d, "casimir_norm2_dev", n2 - n20);
    /* eigenvalues of iX for X = hat x are {-|x|, 0, |x|} */
    slpi_diag_add(d, "eig_dev", fabs(sqrt(n2) - sqrt(n20)));
}
