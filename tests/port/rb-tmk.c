/* rb-tmk.c — a port (tests/port/port.h): the rigid body in its ISO form under TMK, the
 * trapezoidal Munthe-Kaas scheme, written over `real` (-DREAL=float or double) from
 * docs/schemes.md#tmk ([RKMK] §4, eqs. (36)-(41), Algorithm 1; its chord eq. (40) and
 * update eq. (41)), docs/systems.md#rigid-body-iso ([ISO] §6.1, eqs. (33)-(35)) and
 * docs/conventions.md (#pairing, #brackets, #orbit-maps, #hat-maps); never from fast/ or ref/.
 *
 * Problem: `slpi run --preset iso/rigid-body/trajectories scheme=tmk`: X = x^ in so(3),
 * Frobenius pairing <x^, y^> = 2 x.y, h = 2^-8, x0 = (sin 1.1, 0, cos 1.1), I = diag(2, 1, 2/3),
 * H0 = x.I^-1 x (grad H0 = (I^-1 x)^) and three noises `iso-quad`, H_i = 0.1 x_i^2
 * (grad H_i = (0.1 x_i e_i)^). In vector form, with sigma = s^ the unknown:
 *   g(y)  = h I^-1 y + 0.1 (y_1 dW_1, y_2 dW_2, y_3 dW_3)   (sum_k Delta_k xi_k(y), as a vector)
 *   O(s; x) = exp(-s^) x = R^T x, R = exp s^                (O_exp: e^{sigma*} X e^{-sigma*})
 *   xbar = (x_n + O(s; x_n))/2,  r = s - g(xbar)            (eq. (38))
 *   D = I - (1/2) G x_n^,  G = diag(h I^-1_j + 0.1 dW_j)     (eq. (40): D = I + 1/2 D2H J(mu_n),
 *                                                            J(mu) s = -ad*_s mu = -(x_n x s))
 *   s <- s - D^-1 r  from s = 0 (eq. (41)),  x_{n+1} = O(s; x_n).
 * Solve form: the chord iteration of the docs, D factored once per step by LU (3x3, no
 * pivoting: D = I + O(|G| |x|), |G| ~ 0.01, so its pivots are ~1). D is the Jacobian of r
 * at s = 0 (dO/ds = x^ there), so the iteration contracts by |r'(s) - D| ~ |G| |s| |x| ~
 * 1e-4 per sweep: 3-5 sweeps reach port.h's 4 eps stop in double, 2-3 in float (PORT_ITERS
 * on the preset's path 0). Each sweep calls done(d, |change|_max, |s|_max); cap dcap(d).
 * O_exp by Rodrigues (docs/conventions.md#hat-maps), (1 - cos t)/t^2 written as
 * (sin(t/2)/(t/2))^2/2 (the same number, free of cancellation in float), Taylor
 * coefficients below t = 1e-4.
 * Defects taken (port.h): amp, sign, lap (I^-1_2), swap (by port.h), early, tol, tolmax,
 * bad (by port.h); PORT_ITERS counts done() calls (port.h). */
#include "port.h"

static void x0(double *x)
{
    x[0] = sin(1.1);
    x[1] = 0;
    x[2] = cos(1.1);
}

static void cross(const real *a, const real *b, real *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* y = O_exp(s^; x) = exp(-s^) x = x - a s x x + b s x (s x x), a = sin t/t, b = (1 - cos t)/t^2 */
static void orbit(const real *s, const real *x, real *y)
{
    real t = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]), a, b;
    if (t < (real)1e-4) {
        a = 1 - t * t / 6;
        b = (real)0.5 - t * t / 24;
    } else {
        real q = sin(t / 2) / (t / 2);
        a = sin(t) / t;
        b = q * q / 2;
    }
    real u[3], v[3];
    cross(s, x, u);
    cross(s, u, v);
    for (int i = 0; i < 3; i++) y[i] = x[i] - a * u[i] + b * v[i];
}

static real maxnorm(const real *v)
{
    real m = 0;
    for (int i = 0; i < 3; i++) m = fabs(v[i]) > m ? fabs(v[i]) : m;
    return m;
}

static void step(real *x, const double *dw, const defect *d)
{
    real h = (real)0x1p-8, amp = (real)(0.1 * dfac(d, D_AMP, 1));
    real iinv[3] = { (real)0.5, (real)dfac(d, D_LAP, 1), (real)1.5 };
    real c[3] = { amp * (real)dfac(d, D_SIGN, -2), amp, amp }; /* noise k's coefficient */
    real gd[3];                                                /* G's diagonal */
    for (int j = 0; j < 3; j++) gd[j] = h * iinv[j] + c[j] * (real)dw[j];
    /* D = I - G x^ / 2, x^ = [[0, -x3, x2], [x3, 0, -x1], [-x2, x1, 0]]; LU in place */
    real m[3][3] = { { 1, gd[0] * x[2] / 2, -gd[0] * x[1] / 2 },
                     { -gd[1] * x[2] / 2, 1, gd[1] * x[0] / 2 },
                     { gd[2] * x[1] / 2, -gd[2] * x[0] / 2, 1 } };
    for (int k = 0; k < 3; k++)
        for (int i = k + 1; i < 3; i++) {
            m[i][k] /= m[k][k];
            for (int j = k + 1; j < 3; j++) m[i][j] -= m[i][k] * m[k][j];
        }
    real s[3] = { 0, 0, 0 }, y[3], r[3];
    for (int it = 0; it < dcap(d); it++) {
        orbit(s, x, y);
        for (int i = 0; i < 3; i++) y[i] = (x[i] + y[i]) / 2;   /* xbar */
        for (int i = 0; i < 3; i++) r[i] = s[i] - gd[i] * y[i]; /* g(xbar) = G xbar */
        for (int i = 1; i < 3; i++)
            for (int k = 0; k < i; k++) r[i] -= m[i][k] * r[k];
        for (int i = 2; i >= 0; i--) {
            for (int k = i + 1; k < 3; k++) r[i] -= m[i][k] * r[k];
            r[i] /= m[i][i];
        }
        for (int i = 0; i < 3; i++) s[i] -= r[i];
        if (done(d, maxnorm(r), maxnorm(s))) break;
    }
    orbit(s, x, y);
    for (int i = 0; i < 3; i++) x[i] = y[i];
}

static void columns(FILE *f)
{
    fprintf(f, "\tx1\tx2\tx3");
}

int main(int argc, char **argv)
{
    static const port p = { "rb-tmk", "# preset=iso/rigid-body/trajectories\n# scheme=tmk\n", 3, 3, 0x1p-8, x0, step,
                            columns };
    return port_main(&p, argc, argv);
}
