/* heavytop-tmk.c — TMK on the heavy top in its RKMK form (preset
 * rkmk/heavy-top/stoch-421-realization), a precision-generic port written from
 * docs/schemes.md#tmk and docs/systems.md#heavy-top-rkmk. State mu = (pi, gamma),
 * h = 1/2 pi.I^-1 pi + x.gamma with I = diag(4, 2, 1), x = (0, 0, 1), one SALT noise
 * h_1 = alpha.pi, alpha = (0.01, 0.02, 0.03), untruncated. With the orbit map
 *   O_exp((xi, b); (pi, gamma)) = (R^T (pi + gamma x v), R^T gamma),
 *   R = I + c1 hat(xi) + c2 hat(xi)^2,  v = (I + c2 hat(xi) + c3 hat(xi)^2) b,
 *   c1 = sin t / t, c2 = (1 - cos t) / t^2, c3 = (t - sin t) / t^3, t = |xi|
 * (series below t = 1/16, the closed forms above), one step is the fixed point, from
 * sigma = 0, of
 *   mubar = 1/2 (mu + O_exp(sigma; mu)),  sigma = h (I^-1 pibar, x) + dW (alpha, 0)
 * (the chord matrix of docs/schemes.md#tmk only speeds the solve up: the root is the
 * same), then mu' = O_exp(sigma; mu). Driver, usage and planted defects: port.h. */
#include "port.h"

static void crossv(real *c, const real *a, const real *b)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* w <- R^T w = w - c1 xi x w + c2 xi x (xi x w) */
static void rot_t(real *w, const real *xi, real c1, real c2)
{
    real a[3], b[3];
    crossv(a, xi, w);
    crossv(b, xi, a);
    for (int i = 0; i < 3; i++) w[i] += -c1 * a[i] + c2 * b[i];
}

/* out = O_exp((xi, b); mu); the defect `drop` scales the gamma x v term */
static void orbit(real *out, const real *xi, const real *b, const real *mu, const defect *d)
{
    real t2 = xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2], t = sqrt(t2), c1, c2, c3;
    if (t < (real)0.0625) {
        c1 = 1 - t2 / 6 * (1 - t2 / 20 * (1 - t2 / 42 * (1 - t2 / 72)));
        c2 = (real)0.5 * (1 - t2 / 12 * (1 - t2 / 30 * (1 - t2 / 56 * (1 - t2 / 90))));
        c3 = (1 - t2 / 20 * (1 - t2 / 42 * (1 - t2 / 72 * (1 - t2 / 110)))) / 6;
    } else {
        real s = sin(t / 2) / t;
        c1 = sin(t) / t;
        c2 = 2 * s * s;
        c3 = (t - sin(t)) / (t2 * t);
    }
    real v[3], a[3], e[3], g[3];
    crossv(a, xi, b);
    crossv(e, xi, a);
    for (int i = 0; i < 3; i++) v[i] = b[i] + c2 * a[i] + c3 * e[i];
    crossv(g, mu + 3, v);
    const real keep = (real)dfac(d, D_DROP, -1);
    for (int i = 0; i < 3; i++) {
        out[i] = mu[i] + keep * g[i];
        out[3 + i] = mu[3 + i];
    }
    rot_t(out, xi, c1, c2);
    rot_t(out + 3, xi, c1, c2);
}

static void step(real *mu, const double *dw, const defect *d)
{
    const real h = (real)0.01, half = (real)(0.5 * dfac(d, D_COEF, 1));
    const real iinv[3] = { (real)0.25, (real)(0.5 * dfac(d, D_LAP, 1)), 1 };
    const real alpha[3] = { (real)(0.01 * dfac(d, D_AMP, 1) * dfac(d, D_SIGN, -2)), (real)(0.02 * dfac(d, D_AMP, 1)),
                            (real)(0.03 * dfac(d, D_AMP, 1)) };
    const real dW = (real)dw[0], b[3] = { 0, 0, h };
    real xi[3] = { 0, 0, 0 }, o[6];
    for (int it = 0, cap = dcap(d); it < cap; it++) {
        orbit(o, xi, b, mu, d);
        real change = 0, size = 0;
        for (int i = 0; i < 3; i++) {
            real z = h * iinv[i] * (half * (mu[i] + o[i])) + dW * alpha[i];
            change = fmax(change, fabs(z - xi[i]));
            size = fmax(size, fabs(z));
            xi[i] = z;
        }
        if (done(d, change, size)) break;
    }
    orbit(o, xi, b, mu, d);
    memcpy(mu, o, sizeof o);
}

static void x0(double *x)
{
    const double r = sqrt(2.0) / 2;
    x[0] = -r;
    x[1] = r;
    x[2] = 0;
    x[3] = -r;
    x[4] = r;
    x[5] = 0;
}
static void columns(FILE *f)
{
    fprintf(f, "\tpi1\tpi2\tpi3\tgamma1\tgamma2\tgamma3");
}

int main(int argc, char **argv)
{
    const port p = { "heavy-top TMK (heavytop-tmk.c)",
                     "# preset=rkmk/heavy-top/stoch-421-realization\n",
                     6,
                     1,
                     0.01,
                     x0,
                     step,
                     columns };
    return port_main(&p, argc, argv);
}
