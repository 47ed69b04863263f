/* props/invariants.c — invariants and Poisson tensors the properties check, computed
 * here from the state doubles in core's layout (slpi.h), independently of both paths'
 * diagnostics: Casimirs of docs/systems.md (|x|^2; |gamma|^2, pi.gamma; Tr X^2k; |x_i|^2;
 * Tr X^2, Im Tr X^3, Re Tr X^4 on su(N)) with their degree, and the Lie–Poisson tensor
 * J(x)_ab = <x, [e_a, e_b]> of docs/conventions.md#brackets up to a constant factor (on su(N)
 * with the packed layout's Frobenius metric; all that the test
 * D J(x_n) D^T = J(x_{n+1}) of ISO Thm 4.5 / SVI Prop. 4.4 needs). */
#include <complex.h>
#include <math.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "core/view-system.h"
#include "props/props.h"

static void add(slpi_props_casimirs *c, const char *name, double v, double scale, int quad)
{
    if (c->n >= SLPI_PROPS_MAX_CAS) return;
    c->name[c->n] = name;
    c->value[c->n] = v;
    c->scale[c->n] = scale > 0 ? scale : 1;
    c->quadratic[c->n++] = quad;
}

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Real skew n x n from the packed upper triangle. */
static void unpack_skew(int n, const double *x, double *X)
{
    int k = 0;
    memset(X, 0, (size_t)n * n * sizeof *X);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++, k++) {
            X[i * n + j] = x[k];
            X[j * n + i] = -x[k];
        }
}

static void matmul(int n, const double *A, const double *B, double *C)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++) s += A[i * n + k] * B[k * n + j];
            C[i * n + j] = s;
        }
}

static void cmatmul(int n, const double complex *A, const double complex *B, double complex *C)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double complex s = 0;
            for (int k = 0; k < n; k++) s += A[i * n + k] * B[k * n + j];
            C[i * n + j] = s;
        }
}

void slpi_props_sun_unpack(int N, const double *x, double complex *X)
{
    memset(X, 0, (size_t)N * N * sizeof *X);
    for (int a = 0, k = N; a < N; a++) {
        X[a * N + a] = I * x[a];
        for (int b = a + 1; b < N; b++, k += 2) {
            X[a * N + b] = x[k] + I * x[k + 1];
            X[b * N + a] = -x[k] + I * x[k + 1];
        }
    }
}

void slpi_props_sun_pack(int N, const double complex *X, double *x)
{
    for (int a = 0, k = N; a < N; a++) {
        x[a] = cimag(X[a * N + a]);
        for (int b = a + 1; b < N; b++, k += 2) {
            x[k] = creal(X[a * N + b]);
            x[k + 1] = cimag(X[a * N + b]);
        }
    }
}

static double complex ctrace(int n, const double complex *A)
{
    double complex s = 0;
    for (int i = 0; i < n; i++) s += A[i * n + i];
    return s;
}

int slpi_props_casimir_values(const slpi_problem *p, const double *x, slpi_props_casimirs *out)
{
    slpi_system_view twin;
    const slpi_system_view *sys = slpi_props_algebra_twin(p, &twin); /* a model: its algebra's Casimirs */
    static const char *const vname[] = {
        "|x1|^2", "|x2|^2", "|x3|^2", "|x4|^2", "|x5|^2", "|x6|^2", "|x7|^2", "|x8|^2"
    };
    out->n = 0;
    if (!sys) return SLPI_EINPUT;
    switch (sys->system) {
    case SLPI_SYS_RIGID_BODY:
        add(out, "|x|^2", dot3(x, x), dot3(x, x), 1);
        break;
    case SLPI_SYS_HEAVY_TOP:
        add(out, "|gamma|^2", dot3(x + 3, x + 3), dot3(x + 3, x + 3), 1);
        add(out, "pi.gamma", dot3(x, x + 3), sqrt(dot3(x, x) * dot3(x + 3, x + 3)), 1);
        break;
    case SLPI_SYS_POINT_VORTICES:
        for (int i = 0; i < sys->pv.n && i < (int)(sizeof vname / sizeof *vname); i++)
            add(out, vname[i], dot3(x + 3 * i, x + 3 * i), dot3(x + 3 * i, x + 3 * i), 1);
        break;
    case SLPI_SYS_MANAKOV: {
        int n = sys->mk.n;
        double X[36], X2[36], X4[36], f2 = 0, t2 = 0, t4 = 0;
        unpack_skew(n, x, X);
        matmul(n, X, X, X2);
        matmul(n, X2, X2, X4);
        for (int i = 0; i < n * n; i++) f2 += X[i] * X[i];
        for (int i = 0; i < n; i++) {
            t2 += X2[i * n + i];
            t4 += X4[i * n + i];
        }
        add(out, "Tr X^2", t2, f2, 1);
        add(out, "Tr X^4", t4, f2 * f2, 0);
        break;
    }
    case SLPI_SYS_EULER_ZEITLIN:
    case SLPI_SYS_SINE_EULER: {
        int N = sys->system == SLPI_SYS_EULER_ZEITLIN ? sys->ez.N : sys->se.N;
        double complex X[25], X2[25], X3[25], X4[25];
        double f2 = 0;
        slpi_props_sun_unpack(N, x, X);
        for (int i = 0; i < N * N; i++) f2 += creal(X[i] * conj(X[i]));
        cmatmul(N, X, X, X2);
        cmatmul(N, X2, X, X3);
        cmatmul(N, X2, X2, X4);
        add(out, "Tr X^2", creal(ctrace(N, X2)), f2, 1);
        add(out, "Im Tr X^3", cimag(ctrace(N, X3)), f2 * sqrt(f2), 0);
        add(out, "Tr X^4", creal(ctrace(N, X4)), f2 * f2, 0);
        break;
    }
    default: /* a system added without its Casimirs here: named by the caller, never "none" */
        return SLPI_EINPUT;
    }
    return SLPI_OK;
}

static void hat(const double *v, double *J, int ld)
{
    J[0 * ld + 1] = -v[2];
    J[0 * ld + 2] = v[1];
    J[1 * ld + 0] = v[2];
    J[1 * ld + 2] = -v[0];
    J[2 * ld + 0] = -v[1];
    J[2 * ld + 1] = v[0];
}

int slpi_props_poisson_tensor(const slpi_problem *p, const double *x, double *J)
{
    slpi_system_view twin;
    const slpi_system_view *sys = slpi_props_algebra_twin(p, &twin); /* a model: its algebra's bracket */
    if (!sys) return 0;                                              /* out of memory */
    switch (sys->system) {
    case SLPI_SYS_RIGID_BODY:
        memset(J, 0, 9 * sizeof *J);
        hat(x, J, 3);
        return 3;
    case SLPI_SYS_HEAVY_TOP:
        memset(J, 0, 36 * sizeof *J);
        hat(x, J, 6);
        hat(x + 3, J + 3, 6);
        hat(x + 3, J + 18, 6);
        return 6;
    case SLPI_SYS_POINT_VORTICES: {
        int d = 3 * sys->pv.n;
        memset(J, 0, (size_t)d * d * sizeof *J);
        for (int i = 0; i < sys->pv.n; i++) hat(x + 3 * i, J + 3 * i * d + 3 * i, d);
        return d;
    }
    case SLPI_SYS_MANAKOV: {
        int n = sys->mk.n, m = n * (n - 1) / 2;
        double Ea[36], Eb[36], AB[36], BA[36];
        double e[36];
        for (int a = 0; a < m; a++)
            for (int b = 0; b < m; b++) {
                memset(e, 0, sizeof e);
                e[a] = 1;
                unpack_skew(n, e, Ea);
                e[a] = 0;
                e[b] = 1;
                unpack_skew(n, e, Eb);
                matmul(n, Ea, Eb, AB);
                matmul(n, Eb, Ea, BA);
                double s = 0;
                for (int i = 0, k = 0; i < n; i++)
                    for (int j = i + 1; j < n; j++, k++) s += x[k] * (AB[i * n + j] - BA[i * n + j]);
                J[a * m + b] = s;
            }
        return m;
    }
    case SLPI_SYS_EULER_ZEITLIN:
    case SLPI_SYS_SINE_EULER: {
        /* coordinate functions x_a = <X, F_a> / g_a (F_a = unpack(e_a), g_a = |F_a|_F^2: the
         * layout weighs off-diagonal entries twice), so J_ab = <X, [F_a, F_b]> / (g_a g_b) */
        int N = sys->system == SLPI_SYS_EULER_ZEITLIN ? sys->ez.N : sys->se.N, m = N * N;
        double complex X[25], F[25][25], AB[25], BA[25];
        double e[25], g[25];
        if (m > 25) return 0;
        slpi_props_sun_unpack(N, x, X);
        for (int a = 0; a < m; a++) {
            memset(e, 0, sizeof e);
            e[a] = 1;
            slpi_props_sun_unpack(N, e, F[a]);
            g[a] = 0;
            for (int i = 0; i < m; i++) g[a] += creal(F[a][i] * conj(F[a][i]));
        }
        for (int a = 0; a < m; a++)
            for (int b = 0; b < m; b++) {
                cmatmul(N, F[a], F[b], AB);
                cmatmul(N, F[b], F[a], BA);
                double s = 0;
                for (int i = 0; i < m; i++) s += creal(conj(X[i]) * (AB[i] - BA[i]));
                J[a * m + b] = s / (g[a] * g[b]);
            }
        return m;
    }
    default:
        return 0;
    }
}
