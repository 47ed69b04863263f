/* rb-svi.c — SVI on the rigid body in its vector form (preset svi/rigid-body/paths), a
 * precision-generic port written from docs/schemes.md#svi-so3 and
 * docs/systems.md#rigid-body-svi, with slpi's defaults (svi_c = 1/4, the rotation output):
 *   xi = 1/2 I^-1 (A + B)/2 + 1/2 sum_i chi_i dW_i / h,  I = diag(1, 2, 3), chi_i = 0.02 e_i,
 *   A <- Pi - (h/2) xi x A - c h^2 (xi.A) xi,
 *   B <- Pi - h (xi x A + 1/2 xi x B) - c h^2 (xi.B) xi     (fixed point from A = B = Pi),
 *   Pi' = tau^T tau^T Pi,  tau^T v = v - k x x v + (k/2) x x (x x v),  x = h xi,
 *   k = 4 / (4 + |x|^2), xi from the last A and B.
 * Of port.h's defects it takes amp, sign, lap (I^-1_2), drop (the c term scaled by 1 - MAG),
 * early, tol and swap. Driver and usage: port.h. */
#include "port.h"

static void crossv(real *c, const real *a, const real *b)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static void xi_of(real *xi, const real *a, const real *b, const double *dw, const defect *d)
{
    const real h = (real)0.01, amp = (real)(0.02 * dfac(d, D_AMP, 1));
    const real iinv[3] = { (real)1, (real)(0.5 * dfac(d, D_LAP, 1)), (real)(1.0 / 3) };
    for (int i = 0; i < 3; i++) {
        real s = amp * (i == 0 ? (real)dfac(d, D_SIGN, -2) : 1);
        xi[i] = (real)0.5 * iinv[i] * ((a[i] + b[i]) / 2) + (real)0.5 * s * (real)dw[i] / h;
    }
}

/* v <- tau(x)^T v */
static void rot_t(real *v, const real *x)
{
    real k = 4 / (4 + x[0] * x[0] + x[1] * x[1] + x[2] * x[2]), a[3], b[3];
    crossv(a, x, v);
    crossv(b, x, a);
    for (int i = 0; i < 3; i++) v[i] += -k * a[i] + k / 2 * b[i];
}

static void step(real *pi, const double *dw, const defect *d)
{
    const real h = (real)0.01, c = (real)(0.25 * dfac(d, D_DROP, -1));
    real a[3] = { pi[0], pi[1], pi[2] }, b[3] = { pi[0], pi[1], pi[2] }, xi[3], xa[3], xb[3];
    for (int it = 0, cap = dcap(d); it < cap; it++) {
        xi_of(xi, a, b, dw, d);
        real change = 0, size = 0, na[3], nb[3];
        crossv(xa, xi, a);
        real da = xi[0] * a[0] + xi[1] * a[1] + xi[2] * a[2];
        for (int i = 0; i < 3; i++) na[i] = pi[i] - h / 2 * xa[i] - c * h * h * da * xi[i];
        crossv(xa, xi, na);
        crossv(xb, xi, b);
        real db = xi[0] * b[0] + xi[1] * b[1] + xi[2] * b[2];
        for (int i = 0; i < 3; i++) nb[i] = pi[i] - h * (xa[i] + xb[i] / 2) - c * h * h * db * xi[i];
        for (int i = 0; i < 3; i++) {
            change = fmax(change, fmax(fabs(na[i] - a[i]), fabs(nb[i] - b[i])));
            size = fmax(size, fmax(fabs(na[i]), fabs(nb[i])));
            a[i] = na[i];
            b[i] = nb[i];
        }
        if (done(d, change, size)) break;
    }
    xi_of(xi, a, b, dw, d);
    for (int i = 0; i < 3; i++) xi[i] *= h;
    rot_t(pi, xi);
    rot_t(pi, xi);
}

static void columns(FILE *f)
{
    fprintf(f, "\tPi1\tPi2\tPi3");
}

static void x0(double *x)
{
    x[0] = -0.5878;
    x[1] = 0;
    x[2] = 0.8090;
}

int main(int argc, char **argv)
{
    const port p = { "rigid-body SVI (rb-svi.c)", "# preset=svi/rigid-body/paths\n", 3, 3, 0.01, x0, step, columns };
    return port_main(&p, argc, argv);
}
