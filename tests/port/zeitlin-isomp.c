/* zeitlin-isomp.c — ISOMP on Euler-Zeitlin su(8) with noise (Q) (preset iso/zeitlin/strong
 * with N = 8, ic_lmax = 7; built with -DN=16 -DIC_LMAX=15, su(16)), a precision-generic port written from docs/schemes.md#isomp and
 * docs/systems.md#euler-zeitlin. The basis Y_alpha of su(N) (alpha = l^2 - 1 + j) is built
 * once in double from the eigenvectors of the tridiagonal L_m (Jacobi rotations), as the
 * docs construct it, then rounded to `real`. With omega_alpha(Y) = Re Tr(Y_alpha^* Y) and
 * Delta_N Y_alpha = -l(l+1) Y_alpha,
 *   Psi(Y) = sum_alpha omega_alpha(Y) (h / (-l(l+1)) - [l >= N/2] a_l eta_alpha) Y_alpha,
 *   a_l = 2 / (l(l+1)), the noise index k = alpha - (N/2)^2 + 1 (degrees N/2..N-1),
 *   Y = X + 1/2 [Psi(Y), Y] + 1/4 Psi(Y) Y Psi(Y)  (fixed point from Y = X),
 *   X' = X + [Psi(Y), Y].
 * State: core's packed layout (Im X_aa, then Re X_ab, Im X_ab for a < b). Driver, usage
 * and planted defects: port.h. */
#include "port.h"
#include <complex.h>

#ifndef N
#define N 8 /* -DN=16 -DIC_LMAX=15: su(16) */
#define IC_LMAX 7
#endif
#define STR(x) #x
#define XSTR(x) STR(x)
#define NB (N * N - 1)
#define M (3 * N * N / 4)
typedef REAL _Complex cplx;

static cplx basis[NB][N][N];                /* Y_alpha in `real` */
static double dbasis[NB][N][N][2], lam[NB]; /* Y_alpha (re, im) in double; -l(l+1) */
static int degree[NB];

/* eigenvectors of the symmetric n x n matrix a (Jacobi rotations), columns of v, by
 * decreasing eigenvalue (= increasing l) */
static void jacobi(double a[N][N], double v[N][N], int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) v[i][j] = i == j;
    for (int sweep = 0; sweep < 100; sweep++) {
        double off = 0;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) off += a[p][q] * a[p][q];
        if (off < 1e-60) break;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) {
                if (a[p][q] == 0) continue;
                double th = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1)), c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < n; k++) {
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < n; k++) {
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < n; k++) {
                    double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
    }
    for (int i = 0; i < n; i++) /* selection sort by decreasing eigenvalue */
        for (int j = i + 1; j < n; j++)
            if (a[j][j] > a[i][i]) {
                double t = a[i][i];
                a[i][i] = a[j][j];
                a[j][j] = t;
                for (int k = 0; k < n; k++) {
                    t = v[k][i];
                    v[k][i] = v[k][j];
                    v[k][j] = t;
                }
            }
}

static void put(int alpha, int l, int a, int b, double re, double im)
{
    dbasis[alpha][a][b][0] = re;
    dbasis[alpha][a][b][1] = im;
    degree[alpha] = l;
    lam[alpha] = -(double)l * (l + 1);
}

/* Y_l0 = i T_l0, Y^c_lm = (A - A^T)/sqrt 2, Y^s_lm = i (A + A^T)/sqrt 2, A = T_lm with
 * (T_lm)_{b+m, b} = v_b, v the eigenvector of L_m for l, its last component positive */
static void build_basis(void)
{
    const double s = (N - 1) / 2.0;
    double beta[N];
    for (int a = 0; a < N; a++) beta[a] = a < N - 1 ? sqrt(s * (s + 1) - (a - s) * (a - s + 1)) : 0;
    for (int m = 0; m < N; m++) {
        int n = N - m;
        double L[N][N] = { { 0 } }, v[N][N];
        for (int a = 0; a < n; a++) {
            L[a][a] = -2 * (s * (s + 1) - (a - s) * (a + m - s));
            if (a + 1 < n) L[a][a + 1] = L[a + 1][a] = beta[a] * beta[a + m];
        }
        jacobi(L, v, n);
        for (int l = m; l < N; l++) {
            int col = l - m;
            double sg = v[n - 1][col] > 0 ? 1 : -1;
            if (l == 0) continue;
            for (int b = 0; b < n; b++) {
                double t = sg * v[b][col];
                if (m == 0)
                    put(l * l - 1, l, b, b, 0, t);
                else {
                    int c = l * l - 1 + 2 * m - 1;
                    put(c, l, b + m, b, t / sqrt(2), 0);
                    put(c, l, b, b + m, -t / sqrt(2), 0);
                    put(c + 1, l, b + m, b, 0, t / sqrt(2));
                    put(c + 1, l, b, b + m, 0, t / sqrt(2));
                }
            }
        }
    }
    for (int k = 0; k < NB; k++)
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++) basis[k][a][b] = (real)dbasis[k][a][b][0] + I * (real)dbasis[k][a][b][1];
}

static void mul(cplx c[N][N], cplx a[N][N], cplx b[N][N])
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            cplx t = 0;
            for (int k = 0; k < N; k++) t += a[i][k] * b[k][j];
            c[i][j] = t;
        }
}

static void psi(cplx p[N][N], cplx y[N][N], const double *dw, const defect *d)
{
    const real h = (real)0x1p-8;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) p[i][j] = 0;
    for (int k = 0; k < NB; k++) {
        real om = 0;
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++) om += creal(conj(basis[k][a][b]) * y[a][b]);
        int l = degree[k];
        real c = h / (real)(lam[k] * (l == 2 ? dfac(d, D_LAP, 1) : 1));
        int noise = k - (N / 2) * (N / 2) + 1;
        if (noise >= 0) {
            real al = (real)(2.0 / (l * (l + 1)) * dfac(d, D_AMP, 1) * (noise == 0 ? dfac(d, D_SIGN, -2) : 1));
            c -= al * (real)dw[noise];
        }
        c *= om;
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++) p[a][b] += c * basis[k][a][b];
    }
}

static void unpack(cplx x[N][N], const real *v)
{
    int k = N;
    for (int a = 0; a < N; a++) x[a][a] = I * v[a];
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++, k += 2) {
            x[a][b] = v[k] + I * v[k + 1];
            x[b][a] = -conj(x[a][b]);
        }
}

static void pack(real *v, cplx x[N][N])
{
    int k = N;
    for (int a = 0; a < N; a++) v[a] = cimag(x[a][a]);
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++, k += 2) {
            v[k] = creal(x[a][b]);
            v[k + 1] = cimag(x[a][b]);
        }
}

static void step(real *v, const double *dw, const defect *d)
{
    const real half = (real)(0.5 * dfac(d, D_COEF, 1)), quarter = (real)(0.25 * dfac(d, D_DROP, -1));
    const real upd = (real)dfac(d, D_UPD, 1), tr = (real)(d->kind == D_TRANS ? d->mag : 0);
    cplx x[N][N], y[N][N], p[N][N], py[N][N], yp[N][N], pyp[N][N], pt[N][N], pypt[N][N];
    unpack(x, v);
    memcpy(y, x, sizeof y);
    for (int it = 0, cap = dcap(d); it < cap; it++) {
        psi(p, y, dw, d);
        mul(py, p, y);
        mul(yp, y, p);
        mul(pyp, py, p);
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++) pt[a][b] = p[b][a];
        mul(pypt, py, pt);
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++) pyp[a][b] = (1 - tr) * pyp[a][b] + tr * pypt[a][b];
        real change = 0, size = 0;
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++) {
                cplx z = x[a][b] + half * (py[a][b] - yp[a][b]) + quarter * pyp[a][b];
                change = fmax(change, fmax(fabs(creal(z - y[a][b])), fabs(cimag(z - y[a][b]))));
                size = fmax(size, fmax(fabs(creal(z)), fabs(cimag(z))));
                y[a][b] = z;
            }
        if (done(d, change, size)) break;
    }
    psi(p, y, dw, d);
    mul(py, p, y);
    mul(yp, y, p);
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++) x[a][b] += upd * (py[a][b] - yp[a][b]);
    pack(v, x);
}

/* X0 = sum_alpha c_alpha Y_alpha, c_alpha = cos(1.3 l + 0.7 j + 0.2), normalized to
 * |X0|_F = 1 (docs/systems.md#euler-zeitlin, ic_lmax = N - 1) */
static void x0(double *v)
{
    double c[NB], norm = 0;
    for (int k = 0; k < NB; k++) {
        int l = degree[k];
        c[k] = cos(1.3 * l + 0.7 * (k - (l * l - 1)) + 0.2);
        norm += c[k] * c[k];
    }
    double xr[N][N] = { { 0 } }, xi[N][N] = { { 0 } };
    for (int k = 0; k < NB; k++)
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++) {
                xr[a][b] += c[k] / sqrt(norm) * dbasis[k][a][b][0];
                xi[a][b] += c[k] / sqrt(norm) * dbasis[k][a][b][1];
            }
    int k = N;
    for (int a = 0; a < N; a++) v[a] = xi[a][a];
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++, k += 2) {
            v[k] = xr[a][b];
            v[k + 1] = xi[a][b];
        }
}

static void columns(FILE *f)
{
    for (int a = 0; a < N; a++) fprintf(f, "\tImX_%d_%d", a, a);
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++) fprintf(f, "\tReX_%d_%d\tImX_%d_%d", a, b, a, b);
}

int main(int argc, char **argv)
{
    build_basis();
    const port p = { "Euler-Zeitlin su(" XSTR(N) ") ISOMP (zeitlin-isomp.c)",
                     "# preset=iso/zeitlin/strong\n# N=" XSTR(N) "\n# ic_lmax=" XSTR(IC_LMAX) "\n",
                     N * N,
                     M,
                     0x1p-8,
                     x0,
                     step,
                     columns };
    return port_main(&p, argc, argv);
}
