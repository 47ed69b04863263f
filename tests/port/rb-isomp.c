/* rb-isomp.c — ISOMP on the rigid body (preset iso/rigid-body/trajectories), a
 * precision-generic port written from docs/schemes.md#isomp and docs/systems.md#rigid-body-iso
 * in the vector form of so(3) (hat(a) hat(b) hat(a) = -(a.b) hat(a), [hat a, hat b] =
 * hat(a x b)):
 *   psi(y) = -h I^-1 y - 0.1 (y_1 dW_1, y_2 dW_2, y_3 dW_3),  I^-1 = diag(1/2, 1, 3/2),
 *   y = x + 1/2 psi(y) x y - 1/4 (psi(y).y) psi(y)   (fixed point from y = x),
 *   x' = x + psi(y) x y                               (update=comm).
 * Built with -DRB_TIME, the same step on models/rigid-body-time.slpi (docs/models.md#time),
 * whose Hamiltonians read t at the midpoint t = t0 + (n + 1/2) h, t0 = 1/4:
 *   psi(y) = -h f(t) (y_1/1, y_2/2, y_3/3) - 0.1 sin(t) dW (0, 0, 1),  f(t) = 1 + cos(2t)/2.
 * Driver, usage and planted defects: port.h. */
#include "port.h"

#ifdef RB_TIME
#define NOISES 1
static void solve_psi(real *p, const real *y, const double *dw, const defect *d)
{
    const double t = 0.25 + ((double)port_n + 0.5 + (d->kind == D_STAGE ? d->mag : 0)) * 0x1p-8;
    const real h = (real)0x1p-8, f = (real)(1 + 0.5 * cos(2 * t)), a = (real)(0.1 * sin(t) * dfac(d, D_AMP, 1));
    const real iinv[3] = { (real)1, (real)(0.5 * dfac(d, D_LAP, 1)), (real)(1.0 / 3) };
    for (int i = 0; i < 3; i++) p[i] = -h * f * iinv[i] * y[i];
    p[2] -= a * (real)dw[0];
}
#else
#define NOISES 3
static void solve_psi(real *p, const real *y, const double *dw, const defect *d)
{
    const real h = (real)0x1p-8, a = (real)(0.1 * dfac(d, D_AMP, 1));
    const real iinv[3] = { (real)0.5, (real)dfac(d, D_LAP, 1), (real)1.5 };
    for (int i = 0; i < 3; i++) p[i] = -h * iinv[i] * y[i] - a * y[i] * (real)dw[i];
    if (d->kind == D_SIGN) p[0] += (real)(2 * d->mag) * a * y[0] * (real)dw[0];
}
#endif

static void cross(real *c, const real *p, const real *y)
{
    c[0] = p[1] * y[2] - p[2] * y[1];
    c[1] = p[2] * y[0] - p[0] * y[2];
    c[2] = p[0] * y[1] - p[1] * y[0];
}

static void step(real *x, const double *dw, const defect *d)
{
    const real half = (real)(0.5 * dfac(d, D_COEF, 1));
    const real quarter = (real)(0.25 * dfac(d, D_DROP, -1) * dfac(d, D_TRANS, -2)), upd = (real)dfac(d, D_UPD, 1);
    const real ro = (real)(d->kind == D_REORD ? d->mag : 0); /* hat(p)hat(p)hat(y) in so(3): -(|p|^2 y + (p.y) p)/2 */
    real y[3] = { x[0], x[1], x[2] }, p[3], c[3];
    for (int it = 0, cap = dcap(d); it < cap; it++) {
        solve_psi(p, y, dw, d);
        cross(c, p, y);
        real dot = p[0] * y[0] + p[1] * y[1] + p[2] * y[2], pp = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
        real change = 0, size = 0;
        for (int i = 0; i < 3; i++) {
            real z = x[i] + half * c[i] - quarter * ((1 - ro) * dot * p[i] + ro * (pp * y[i] + dot * p[i]) / 2);
            change = fmax(change, fabs(z - y[i]));
            size = fmax(size, fabs(z));
            y[i] = z;
        }
        if (done(d, change, size)) break;
    }
    solve_psi(p, y, dw, d);
    cross(c, p, y);
    for (int i = 0; i < 3; i++) x[i] += upd * c[i];
}

static void columns(FILE *f)
{
    fprintf(f, "\tx1\tx2\tx3");
}

#ifdef RB_TIME
static void x0(double *x)
{
    x[0] = 0.4;
    x[1] = 0;
    x[2] = 1;
}
#define NAME "rigid-body-time ISOMP (rb-isomp.c -DRB_TIME)"
#define PROBLEM                                                                                                        \
    "# system=model\n# scheme=isomp\n# h=0.00390625\n# algebra=so3\n"                                                  \
    "# H=(1 + eps*cos(omega*t))*(x1^2/I1 + x2^2/I2 + x3^2/I3)/2\n# noise_H1=amp*sin(t)*x3\n"                           \
    "# param.I1=1\n# param.I2=2\n# param.I3=3\n# param.eps=0.5\n# param.omega=2\n# param.amp=0.1\n"                    \
    "# t0=0.25\n# x0=0.4,0,1\n"
#else
static void x0(double *x)
{
    x[0] = sin(1.1);
    x[1] = 0;
    x[2] = cos(1.1);
}
#define NAME "rigid-body ISOMP (rb-isomp.c)"
#define PROBLEM "# preset=iso/rigid-body/trajectories\n"
#endif

int main(int argc, char **argv)
{
    const port p = { NAME, PROBLEM, 3, NOISES, 0x1p-8, x0, step, columns };
    return port_main(&p, argc, argv);
}
