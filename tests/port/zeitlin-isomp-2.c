/* zeitlin-isomp-2.c — a port for tests/port/port.h: the stochastic isospectral midpoint
 * method (ISOMP) on Euler–Zeitlin, su(8), under strong noise: the preset
 * iso/zeitlin/strong with N=8 ic_lmax=7. Written once over `real` from docs/schemes.md#isomp
 * (with #solver and #designated-root) and the Euler–Zeitlin section of docs/systems.md
 * ([ISO] §4.3 eqs. (26)–(30), §6.4 eqs. (40)–(44), errata E-I2, E-I3, E-I4), not from
 * slpi's sources.
 *
 * State: X skew-Hermitian 8 x 8, written as ImX_a_a (a = 0..7), then ReX_a_b, ImX_a_b
 * for a < b. Basis: v the unit eigenvector of the Hoppe–Yau tridiagonal L_m at -l(l+1)
 * with a positive last entry, A = T_lm on the m-th subdiagonal (A_{b+m,b} = v_b);
 * Y_l0 = iA, Y^c_lm = (A - A^T)/sqrt2, Y^s_lm = i(A + A^T)/sqrt2, index
 * alpha = l^2 - 1 + j (j = 0, 2m - 1, 2m), coordinates w_alpha = Re Tr(Y_alpha^* X).
 *   B_0(X) = Lap^-1 X = sum_alpha w_alpha / (-l(l+1)) Y_alpha       (eq. (40), trace dropped)
 *   B_k(X) = -a_l w_alpha Y_alpha, a_l = 2/(l(l+1)), l = 4..7      (reading (Q), k = alpha - 15)
 *   Psi(Y) = h B_0(Y) + sum_k dW_k B_k(Y)
 *   Y <- X_n + [Psi(Y), Y]/2 + Psi(Y) Y Psi(Y)/4                    (X~ of eq. (26))
 *   X_{n+1} = X_n + [Psi(X~), X~]                                   (update `comm`)
 * The solve starts from Y = X_n and each sweep forms Psi from the current iterate; after
 * the loop Psi is evaluated again from the final iterate, and the update uses that Psi
 * with that iterate (nothing of the last sweep's Psi is reused).
 *
 * Defects: amp (every a_l times 1 + MAG), sign (the first noise mode's coefficient,
 * Y_40's, times 1 - 2 MAG), lap (the eigenvalue -6 of l = 2 times 1 + MAG), swap (applied
 * by port.h to the increments), early (dcap sweeps), tol and tolmax (port.h's done()).
 * The basis and x0 are built in binary64 once; the step runs in `real`. */
#include "port.h"

enum { N = 8, NB = N * N - 1, LNOISE = N / 2, M = N * N - LNOISE * LNOISE, DIM = N * N };
typedef REAL _Complex cplx;
typedef cplx mat[N][N];

static double _Complex Yd[NB][N][N]; /* the basis in binary64 (for x0) */
static mat Y[NB];                    /* and in `real` (for the step) */
static int deg[NB];                  /* l of each alpha */

static cplx mk(real re, real im)
{
    cplx z;
    ((real *)&z)[0] = re; /* C11 6.2.5: a complex is an array of two reals */
    ((real *)&z)[1] = im;
    return z;
}

/* eigenvectors (v's columns) of the symmetric n x n matrix a by cyclic Jacobi rotations;
 * the eigenvalues are left on a's diagonal */
static void jacobi(int n, double a[N][N], double v[N][N])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) v[i][j] = i == j;
    for (int sweep = 0; sweep < 30; sweep++)
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) {
                if (fabs(a[p][q]) < 1e-300) continue;
                double th = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < n; k++) {
                    double kp = a[k][p], kq = a[k][q];
                    a[k][p] = c * kp - s * kq, a[k][q] = s * kp + c * kq;
                }
                for (int k = 0; k < n; k++) {
                    double pk = a[p][k], qk = a[q][k];
                    a[p][k] = c * pk - s * qk, a[q][k] = s * pk + c * qk;
                }
                for (int k = 0; k < n; k++) {
                    double kp = v[k][p], kq = v[k][q];
                    v[k][p] = c * kp - s * kq, v[k][q] = s * kp + c * kq;
                }
            }
}

/* The real skew-Hermitian basis Y_alpha from the eigenvectors of L_m (docs/systems.md,
 * "Quantized Laplacian" and "Harmonics and the real basis"). */
static void basis(void)
{
    double s = (N - 1) / 2.0, mm[N], beta[N];
    for (int a = 0; a < N; a++) mm[a] = -s + a;
    for (int a = 0; a < N; a++) beta[a] = a < N - 1 ? sqrt(s * (s + 1) - mm[a] * (mm[a] + 1)) : 0;
    for (int m = 0; m < N; m++) {
        int n = N - m;
        double L[N][N] = { { 0 } }, v[N][N];
        for (int a = 0; a < n; a++) {
            L[a][a] = -2 * (s * (s + 1) - mm[a] * mm[a + m]);
            if (a + 1 < n) L[a][a + 1] = L[a + 1][a] = beta[a] * beta[a + m];
        }
        jacobi(n, L, v);
        for (int i = 0; i < n; i++) { /* the eigenvalue -l(l+1) is the (l-m)-th largest */
            int l = m;
            for (int k = 0; k < n; k++) l += L[k][k] > L[i][i];
            if (fabs(L[i][i] + l * (l + 1)) > 1e-9) {
                fprintf(stderr, "zeitlin-isomp-2: L_%d eigenvalue %.17g is not -l(l+1)\n", m, L[i][i]);
                exit(2);
            }
            if (l == 0) continue; /* the kernel: the identity, not in su(N) */
            double sg = v[n - 1][i] > 0 ? 1 : -1, A[N][N] = { { 0 } };
            for (int b = 0; b < n; b++) A[b + m][b] = sg * v[b][i];
            for (int c = m == 0 ? 0 : 2 * m - 1; c <= (m == 0 ? 0 : 2 * m); c++) {
                int al = l * l - 1 + c;
                deg[al] = l;
                for (int a = 0; a < N; a++)
                    for (int b = 0; b < N; b++) {
                        double _Complex z = m == 0 ? I * A[a][b]
                            : c == 2 * m - 1       ? (A[a][b] - A[b][a]) / sqrt(2.0)
                                                   : I * (A[a][b] + A[b][a]) / sqrt(2.0);
                        Yd[al][a][b] = z;
                        Y[al][a][b] = mk((real)creal(z), (real)cimag(z));
                    }
            }
        }
    }
}

/* x0 = sum_alpha c_alpha Y_alpha / |.|_F, c_alpha = cos(1.3 l + 0.7 j + 0.2), l <= 7 */
static void x0(double *x)
{
    double _Complex X[N][N] = { { 0 } };
    double f = 0;
    for (int al = 0; al < NB; al++) {
        int l = deg[al], j = al - (l * l - 1);
        double c = cos(1.3 * l + 0.7 * j + 0.2);
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++) X[a][b] += c * Yd[al][a][b];
    }
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++) f += creal(X[a][b]) * creal(X[a][b]) + cimag(X[a][b]) * cimag(X[a][b]);
    f = sqrt(f);
    int i = 0;
    for (int a = 0; a < N; a++) x[i++] = cimag(X[a][a]) / f;
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++) x[i++] = creal(X[a][b]) / f, x[i++] = cimag(X[a][b]) / f;
}

static void columns(FILE *f)
{
    for (int a = 0; a < N; a++) fprintf(f, "\tImX_%d_%d", a, a);
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++) fprintf(f, "\tReX_%d_%d\tImX_%d_%d", a, b, a, b);
}

static void mul(mat A, mat B, mat C) /* C = A B */
{
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++) {
            cplx z = 0;
            for (int k = 0; k < N; k++) z += A[a][k] * B[k][b];
            C[a][b] = z;
        }
}

/* P = Psi(Z) = sum_alpha g_alpha w_alpha(Z) Y_alpha, g_alpha = h/lambda_l - a_l dW_k */
static void psi(mat Z, mat P, const real *g)
{
    memset(P, 0, sizeof(mat));
    for (int al = 0; al < NB; al++) {
        real w = 0;
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++) w += creal(Y[al][a][b]) * creal(Z[a][b]) + cimag(Y[al][a][b]) * cimag(Z[a][b]);
        real c = g[al] * w;
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++) P[a][b] += c * Y[al][a][b];
    }
}

static void step(real *x, const double *dw, const defect *d)
{
    static mat X, U, Z, P, A, B, C;
    real g[NB];
    for (int al = 0; al < NB; al++) {
        int l = deg[al];
        real lam = (real)(-l * (l + 1)) * (l == 2 ? (real)dfac(d, D_LAP, 1) : 1);
        g[al] = (real)0x1p-8 / lam;
        if (l >= LNOISE) {
            int k = al - (LNOISE * LNOISE - 1);
            real amp = (real)(2.0 / (l * (l + 1))) * (real)dfac(d, D_AMP, 1);
            if (k == 0) amp *= (real)dfac(d, D_SIGN, -2);
            g[al] -= amp * (real)dw[k];
        }
    }
    int i = 0;
    for (int a = 0; a < N; a++) X[a][a] = mk(0, x[i++]);
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++, i += 2) X[a][b] = mk(x[i], x[i + 1]), X[b][a] = mk(-x[i], x[i + 1]);
    memcpy(U, X, sizeof(mat)); /* the unknown X~, from X_n */
    for (int it = 0; it < dcap(d); it++) {
        psi(U, P, g);
        mul(P, U, A);
        mul(U, P, B);
        mul(A, P, C);
        real change = 0, size = 0;
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++) {
                Z[a][b] = X[a][b] + (A[a][b] - B[a][b]) / 2 + C[a][b] / 4;
                cplx e = Z[a][b] - U[a][b];
                change = fmax(change, fmax(fabs(creal(e)), fabs(cimag(e))));
                size = fmax(size, fmax(fabs(creal(Z[a][b])), fabs(cimag(Z[a][b]))));
            }
        memcpy(U, Z, sizeof(mat));
        if (done(d, change, size)) break;
    }
    psi(U, P, g); /* the update: Psi again from the final iterate */
    mul(P, U, A);
    mul(U, P, B);
    i = 0;
    for (int a = 0; a < N; a++) x[i++] = cimag(X[a][a] + A[a][a] - B[a][a]);
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++, i += 2) {
            cplx z = X[a][b] + (A[a][b] - B[a][b]);
            x[i] = creal(z), x[i + 1] = cimag(z);
        }
}

int main(int argc, char **argv)
{
    static const port p = {
        "zeitlin-isomp-2", "# preset=iso/zeitlin/strong\n# N=8\n# ic_lmax=7\n", DIM, M, 0x1p-8, x0, step, columns
    };
    basis();
    return port_main(&p, argc, argv);
}
