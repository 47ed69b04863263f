/* zeitlin-isomp.c — ISOMP on Euler-Zeitlin su(8) with noise (Q) (preset iso/zeitlin/strong
 * with N = 8, ic_lmax = 7; built with -DN=16 -DIC_LMAX=15, su(16)), a precision-generic port written from docs/schemes.md#isomp and
 * docs/systems.md#euler-zeitlin. The basis Y_alpha of su(N) (alpha = l^2 - 1 + j) is built
 * once in double from the eigenvectors of the tridiagonal L_m (Jacobi rotations), as the
 * docs construct it, then rounded to `real`. With omega_alpha(Y) = Re Tr(Y_alpha^* Y) and
 * Delta_N Y_alpha = -l(l+1) Y_alpha,
 *   Psi(Y) = sum_alpha omega_alpha(Y) (h / (-l(l+1)) - [l >= N/2] a_l eta_alpha) Y_alpha,
 *   a_l = 2 / (l(l+1)), the noise index k = alpha - (N/2)^2 + 1 (degrees N/2..N-1),
 *   Y = X + 1/2 [Psi(Y), Y] + 1/4 Psi(Y) Y Psi(Y)  (fixed point from Y = X; under the
 *       defect `pred` from the Euler predictor Y = X + 1/2 [Psi(X), X]),
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

/* Y_alpha lives on one pair of diagonals, m = mdiag[alpha] (m = 0: Y_l0 = i T_l0; else
 * (b+m, b) and (b, b+m) for b < N - m): its entries there, v_b (Y_l0) or v_b / sqrt 2
 * (Y^c, Y^s), in `wide` (dval) and rounded once to `real` (rval); kind 0: Y_l0, 1: Y^c
 * (entries v, -v), 2: Y^s (entries i v, i v). O(N^3) storage, so that su(64) and su(128)
 * build (a dense table of N^4 entries did not link at N = 128). */
/* the basis' arithmetic: double, or with -DPORT_BASIS_LD long double, so that `real`'s
 * basis is the exact one rounded once (the calibration's su(N >= 32) cells,
 * docs/power.md#cport-basis) */
#ifdef PORT_BASIS_LD
typedef long double wide;
#else
typedef double wide;
#endif
static wide dval[NB][N], lam[NB]; /* -l(l+1) */
static real rval[NB][N];
static int degree[NB], mdiag[NB], kind[NB];

/* eigenvectors of the symmetric n x n matrix a (Jacobi rotations), columns of v, by
 * decreasing eigenvalue (= increasing l) */
static void jacobi(wide a[N][N], wide v[N][N], int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) v[i][j] = i == j;
    for (int sweep = 0; sweep < 100; sweep++) {
        wide off = 0;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) off += a[p][q] * a[p][q];
        if (off < 1e-60) break;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) {
                if (a[p][q] == 0) continue;
                wide th = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                wide t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1)), c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < n; k++) {
                    wide akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < n; k++) {
                    wide apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < n; k++) {
                    wide vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
    }
    for (int i = 0; i < n; i++) /* selection sort by decreasing eigenvalue */
        for (int j = i + 1; j < n; j++)
            if (a[j][j] > a[i][i]) {
                wide t = a[i][i];
                a[i][i] = a[j][j];
                a[j][j] = t;
                for (int k = 0; k < n; k++) {
                    t = v[k][i];
                    v[k][i] = v[k][j];
                    v[k][j] = t;
                }
            }
}

static void put(int alpha, int l, int m, int k, const wide *v, int n, wide scale)
{
    for (int b = 0; b < n; b++) {
        dval[alpha][b] = scale * v[b];
        rval[alpha][b] = (real)dval[alpha][b];
    }
    degree[alpha] = l;
    mdiag[alpha] = m;
    kind[alpha] = k;
    lam[alpha] = -(wide)l * (l + 1);
}

/* Y_l0 = i T_l0, Y^c_lm = (A - A^T)/sqrt 2, Y^s_lm = i (A + A^T)/sqrt 2, A = T_lm with
 * (T_lm)_{b+m, b} = v_b, v the eigenvector of L_m for l, its last component positive */
static void build_basis(void)
{
    const wide s = (N - 1) / 2.0;
    wide beta[N];
    for (int a = 0; a < N; a++) beta[a] = a < N - 1 ? sqrt(s * (s + 1) - (a - s) * (a - s + 1)) : 0;
    for (int m = 0; m < N; m++) {
        int n = N - m;
        static wide L[N][N], v[N][N];
        memset(L, 0, sizeof L);
        for (int a = 0; a < n; a++) {
            L[a][a] = -2 * (s * (s + 1) - (a - s) * (a + m - s));
            if (a + 1 < n) L[a][a + 1] = L[a + 1][a] = beta[a] * beta[a + m];
        }
        jacobi(L, v, n);
        for (int l = m; l < N; l++) {
            int col = l - m;
            wide sg = v[n - 1][col] > 0 ? 1 : -1, t[N];
            if (l == 0) continue;
            for (int b = 0; b < n; b++) t[b] = sg * v[b][col];
            if (m == 0)
                put(l * l - 1, l, 0, 0, t, n, 1);
            else {
                put(l * l - 1 + 2 * m - 1, l, m, 1, t, n, 1 / sqrt((wide)2));
                put(l * l - 1 + 2 * m, l, m, 2, t, n, 1 / sqrt((wide)2));
            }
        }
    }
}

/* Re Tr(Y_k^* y) */
static real omega(int k, cplx y[N][N])
{
    int m = mdiag[k];
    real om = 0;
    for (int b = 0; b < N - m; b++) {
        real r = rval[k][b];
        if (kind[k] == 0)
            om += r * cimag(y[b][b]);
        else if (kind[k] == 1)
            om += r * creal(y[b + m][b]) - r * creal(y[b][b + m]);
        else
            om += r * cimag(y[b + m][b]) + r * cimag(y[b][b + m]);
    }
    return om;
}

/* p += c Y_k */
static void add_basis(cplx p[N][N], int k, real c)
{
    int m = mdiag[k];
    for (int b = 0; b < N - m; b++) {
        real r = c * rval[k][b];
        if (kind[k] == 0)
            p[b][b] += I * r;
        else if (kind[k] == 1) {
            p[b + m][b] += r;
            p[b][b + m] -= r;
        } else {
            p[b + m][b] += I * r;
            p[b][b + m] += I * r;
        }
    }
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
        real om = omega(k, y);
        int l = degree[k];
        real c = h / (real)(lam[k] * (l == 2 ? dfac(d, D_LAP, 1) : 1));
        int noise = k - (N / 2) * (N / 2) + 1;
        if (noise >= 0) {
            real al = (real)(2.0 / (l * (l + 1)) * dfac(d, D_AMP, 1) * (noise == 0 ? dfac(d, D_SIGN, -2) : 1));
            c -= al * (real)dw[noise];
        }
        add_basis(p, k, c * om);
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
    const real ro = (real)(d->kind == D_REORD ? d->mag : 0);
    cplx x[N][N], y[N][N], p[N][N], py[N][N], yp[N][N], pyp[N][N], pt[N][N], pypt[N][N];
    unpack(x, v);
    memcpy(y, x, sizeof y);
    if (d->kind == D_PRED) {
        psi(p, x, dw, d);
        mul(py, p, x);
        mul(yp, x, p);
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++) y[a][b] = x[a][b] + half * (py[a][b] - yp[a][b]);
    }
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
        if (ro != 0) { /* the factors reordered, Psi Psi Y, in su(N): (Psi Psi Y + Y Psi Psi)/2 */
            mul(pt, p, py);
            mul(pypt, yp, p);
            for (int a = 0; a < N; a++)
                for (int b = 0; b < N; b++) pyp[a][b] = (1 - ro) * pyp[a][b] + ro * (pt[a][b] + pypt[a][b]) / 2;
        }
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

/* X0 = sum_alpha c_alpha Y_alpha over l <= IC_LMAX, c_alpha = cos(1.3 l + 0.7 j + 0.2),
 * normalized to |X0|_F = 1 (docs/systems.md#euler-zeitlin) */
static void x0(double *v)
{
    static double c[NB], xr[N][N], xi[N][N]; /* static: su(128)'s would crowd the stack */
    memset(xr, 0, sizeof xr);
    memset(xi, 0, sizeof xi);
    double norm = 0;
    for (int k = 0; k < NB; k++) {
        int l = degree[k];
        c[k] = l <= IC_LMAX ? cos(1.3 * l + 0.7 * (k - (l * l - 1)) + 0.2) : 0;
        norm += c[k] * c[k];
    }
    for (int k = 0; k < NB; k++) {
        int m = mdiag[k];
        double w = c[k] / sqrt(norm);
        for (int b = 0; b < N - m; b++) {
            double t = w * (double)dval[k][b];
            if (kind[k] == 0)
                xi[b][b] += t;
            else if (kind[k] == 1) {
                xr[b + m][b] += t;
                xr[b][b + m] -= t;
            } else {
                xi[b + m][b] += t;
                xi[b][b + m] += t;
            }
        }
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
