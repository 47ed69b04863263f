/* t-fast-fields.c — the system files of fast/ against docs/systems.md's ground-truth formulas:
 * vector fields coad(grad_k(mu), mu) at random states (§4.1-§4.4), Hessians against
 * central differences of the gradients, O_exp against a Taylor series of exp(ad*_sigma)
 * and its Casimir preservation, and the so(3)/su(2) block matrix kernels (ISOMP map,
 * Cayley conjugation, A^{-1}) against explicit 3x3 real / 2x2 complex matrix products. */
#include <float.h>
#include <complex.h>
#include "fastutil.h"
#include "fast/so3.h"

static double rnd(void)
{
    return test_rand_uniform(-1, 1);
}

static void cross(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* V_k(mu) = coad(grad_k(mu), mu) */
static void field(const slpi_fast_system *s, int k, const double *mu, double *v)
{
    double xi[256];
    s->gen(s, k, xi, mu);
    s->coad(s, v, xi, mu);
}

static double maxdiff(const double *a, const double *b, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

static void rb_svi(slpi_problem *p)
{
    p->sys.rb.form = SLPI_RB_FORM_SVI;
    p->sys.rb.noise = SLPI_RB_NOISE_SVI_LIN;
    p->sys.rb.amp = 0.02;
    p->sys.rb.inertia[0] = 1;
    p->sys.rb.inertia[1] = 2;
    p->sys.rb.inertia[2] = 3;
}
static void pv_b(slpi_problem *p)
{
    p->sys.pv.model = SLPI_VORTEX_MODEL_B;
}
static void ht_pi2(slpi_problem *p)
{
    p->sys.ht.noise = SLPI_HT_NOISE_CASE2_PI2;
}

static void check_rigid_body(void)
{
    slpi_fast *f = fu_make(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_TMK, NULL);
    slpi_fast *g = fu_make(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_SVI, rb_svi);
    const double In[3] = { 2, 1, 2.0 / 3 }, J[3] = { 1, 2, 3 };
    for (int t = 0; t < test_iters(50); t++) {
        double x[3] = { rnd(), rnd(), rnd() }, w[3], v[3], e[3];
        for (int i = 0; i < 3; i++) w[i] = x[i] / In[i];
        cross(x, w, e); /* x cross I^{-1} x */
        field(&f->sys, 0, x, v);
        TEST_CHECKF(maxdiff(v, e, 3) < 1e-15, "rigid-body ISO drift field");
        for (int k = 1; k <= 3; k++) { /* 0.1 x_k (x cross e_k) */
            double ek[3] = { 0, 0, 0 };
            ek[k - 1] = 1;
            cross(x, ek, e);
            for (int i = 0; i < 3; i++) e[i] *= 0.1 * x[k - 1];
            field(&f->sys, k, x, v);
            TEST_CHECKF(maxdiff(v, e, 3) < 1e-16, "rigid-body iso-quad field %d", k);
            for (int i = 0; i < 3; i++) ek[i] *= 0.02; /* svi-lin: Pi cross 0.02 e_k */
            cross(x, ek, e);
            field(&g->sys, k, x, v);
            TEST_CHECKF(maxdiff(v, e, 3) < 1e-16, "rigid-body svi-lin field %d", k);
        }
        for (int i = 0; i < 3; i++) w[i] = x[i] / J[i];
        cross(x, w, e);
        field(&g->sys, 0, x, v);
        TEST_CHECKF(maxdiff(v, e, 3) < 1e-15, "rigid-body SVI drift field");
    }
    slpi_fast_free(f);
    slpi_fast_free(g);
}

static void check_heavy_top(void)
{
    slpi_fast *f = fu_make(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_TMK, NULL);
    const double In[3] = { 4, 2, 1 }, X[3] = { 0, 0, 1 }, al[3] = { 0.01, 0.02, 0.03 };
    for (int t = 0; t < test_iters(50); t++) {
        double mu[6], v[6], e[6], om[3], a[3], b[3];
        for (int i = 0; i < 6; i++) mu[i] = rnd();
        for (int i = 0; i < 3; i++) om[i] = mu[i] / In[i];
        cross(mu, om, a);
        cross(mu + 3, X, b);
        for (int i = 0; i < 3; i++) e[i] = a[i] + b[i]; /* pi x w + gamma x x */
        cross(mu + 3, om, e + 3);                       /* gamma x w */
        field(&f->sys, 0, mu, v);
        TEST_CHECKF(maxdiff(v, e, 6) < 1e-15, "heavy-top drift field");
        cross(mu, al, e);
        cross(mu + 3, al, e + 3);
        field(&f->sys, 1, mu, v);
        TEST_CHECKF(maxdiff(v, e, 6) < 1e-16, "heavy-top SALT field");
    }
    slpi_fast_free(f);
}

/* Manakov: dX = [X, I^{-1}X] and [B_ij, X], B_ij = -0.1 X_ij (E_ij - E_ji), in full matrices. */
static void check_manakov(void)
{
    slpi_fast *f = fu_make(SLPI_SYS_MANAKOV, SLPI_SCHEME_TMK, NULL);
    int n = 10, d = 45;
    double A[100], G[100], C[100], mu[45], v[45], e[45];
    for (int t = 0; t < test_iters(10); t++) {
        for (int i = 0; i < d; i++) mu[i] = rnd();
        for (int k = 0; k <= 3; k++) {
            int kk = k == 0 ? 0 : 1 + test_rand_int(d);
            int q = 0;
            for (int i = 0; i < n; i++) {
                A[i * n + i] = G[i * n + i] = 0;
                for (int j = i + 1; j < n; j++, q++) {
                    double gij = kk == 0 ? mu[q] / (q + 1) : (q == kk - 1 ? 0.1 * mu[q] : 0);
                    A[i * n + j] = mu[q];
                    A[j * n + i] = -mu[q];
                    G[i * n + j] = gij;
                    G[j * n + i] = -gij;
                }
            }
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    for (int l = 0; l < n; l++) s += A[i * n + l] * G[l * n + j] - G[i * n + l] * A[l * n + j];
                    C[i * n + j] = s;
                }
            q = 0;
            for (int i = 0; i < n; i++)
                for (int j = i + 1; j < n; j++) e[q++] = C[i * n + j];
            field(&f->sys, kk, mu, v);
            TEST_CHECKF(maxdiff(v, e, d) < 1e-14, "manakov field k=%d", kk);
        }
    }
    slpi_fast_free(f);
}

/* Vortices on the unit sphere: model A prefactor sqrt2/(4 pi), model B 1/(8 pi). */
static void check_vortices(void)
{
    slpi_fast *fa = fu_make(SLPI_SYS_POINT_VORTICES, SLPI_SCHEME_ISOMP, NULL);
    slpi_fast *fb = fu_make(SLPI_SYS_POINT_VORTICES, SLPI_SCHEME_ISOMP, pv_b);
    for (int t = 0; t < test_iters(30); t++) {
        double x[12], v[12], e[12];
        for (int i = 0; i < 4; i++) {
            double *xi = x + 3 * i, r;
            do {
                xi[0] = rnd();
                xi[1] = rnd();
                xi[2] = rnd();
                r = sqrt(xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2]);
            } while (r < 0.1);
            for (int k = 0; k < 3; k++) xi[k] /= r;
        }
        for (int model = 0; model < 2; model++) {
            slpi_fast *f = model ? fb : fa;
            double pre = model ? 1 / (8 * SLPI_FAST_PI) : SLPI_FAST_SQRT2 / (4 * SLPI_FAST_PI);
            /* scale: each term's size times 1 + 1/(1 - x_i.x_j), the relative error of
             * 1 - x_i.x_j for close vortices (a LAPACK-style ratio, not an absolute bound) */
            double scale = 0, sc[12] = { 0 };
            for (int i = 0; i < 12; i++) e[i] = 0;
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++) {
                    if (i == j) continue;
                    double c[3], dd = x[3 * i] * x[3 * j] + x[3 * i + 1] * x[3 * j + 1] + x[3 * i + 2] * x[3 * j + 2];
                    cross(x + 3 * i, x + 3 * j, c);
                    for (int k = 0; k < 3; k++) {
                        e[3 * i + k] += pre * c[k] / (1 - dd);
                        sc[3 * i + k] += fabs(pre * c[k] / (1 - dd)) * (1 + 1 / (1 - dd));
                    }
                }
            for (int i = 0; i < 12; i++) scale = sc[i] > scale ? sc[i] : scale;
            field(&f->sys, 0, x, v);
            double ratio = maxdiff(v, e, 12) / (DBL_EPSILON * (scale > 1 ? scale : 1));
            TEST_CHECKF(ratio <= 32, "vortex drift field, model %c: ratio %.3g (scale %.3g)", "AB"[model], ratio,
                        scale);
            for (int k = 1; k <= 3; k++) {
                double ek[3] = { 0, 0, 0 };
                ek[k - 1] = 1;
                for (int i = 0; i < 4; i++) {
                    cross(x + 3 * i, ek, e + 3 * i);
                    for (int m = 0; m < 3; m++) e[3 * i + m] *= 0.1 * x[3 * i + k - 1] * (model ? 1 : SLPI_FAST_SQRT2);
                }
                field(&f->sys, k, x, v);
                TEST_CHECKF(maxdiff(v, e, 12) < 1e-15, "vortex noise field %d model %c", k, "AB"[model]);
            }
        }
    }
    slpi_fast_free(fa);
    slpi_fast_free(fb);
}

/* Hessians against central differences of grad. */
static void check_hess(slpi_fast *f, const char *what)
{
    const slpi_fast_system *s = &f->sys;
    int d = s->dim;
    double mu[64], w[64], mp[64], mm[64], gp[64], gm[64], h[64];
    slpi_fast_initial_state(f, mu, NULL);
    for (int i = 0; i < d; i++) mu[i] += 0.05 * rnd();
    for (int i = 0; i < d; i++) w[i] = rnd();
    double eps = 1e-5;
    for (int i = 0; i < d; i++) {
        mp[i] = mu[i] + eps * w[i];
        mm[i] = mu[i] - eps * w[i];
    }
    for (int k = 0; k <= (s->M < 3 ? s->M : 3); k++) {
        s->gen(s, k, gp, mp);
        s->gen(s, k, gm, mm);
        s->dgen(s, k, h, mu, w);
        double err = 0, sc = 1e-300;
        for (int i = 0; i < d; i++) {
            err = fmax(err, fabs((gp[i] - gm[i]) / (2 * eps) - h[i]));
            sc = fmax(sc, fabs(h[i]));
        }
        TEST_CHECKF(err <= 1e-7 * fmax(sc, 1e-3), "%s dgen k=%d: fd error %g (scale %g)", what, k, err, sc);
    }
}

/* O_exp against sum_j ad*_sigma^j mu / j! and Casimir preservation. */
static void check_orbit(slpi_fast *f, const char *what, double (*casimir)(const double *, int))
{
    const slpi_fast_system *s = &f->sys;
    int d = s->dim;
    double mu[64], sg[64], o[64], term[64], t2[64], sum[64];
    slpi_fast_initial_state(f, mu, NULL);
    for (int i = 0; i < d; i++) sg[i] = 0.3 * rnd();
    s->orbit(s, o, sg, mu);
    for (int i = 0; i < d; i++) sum[i] = term[i] = mu[i];
    for (int j = 1; j < 40; j++) {
        s->coad(s, t2, sg, term);
        for (int i = 0; i < d; i++) {
            term[i] = t2[i] / j;
            sum[i] += term[i];
        }
    }
    TEST_CHECKF(maxdiff(o, sum, d) < 1e-13, "%s O_exp vs series: %g", what, maxdiff(o, sum, d));
    double c0 = casimir(mu, d), c1 = casimir(o, d);
    TEST_CHECKF(fabs(c1 - c0) <= 20 * d * 0x1p-53 * fabs(c0), "%s O_exp Casimir %g -> %g", what, c0, c1);
}

static double cas_norm(const double *x, int d)
{
    double s = 0;
    for (int i = 0; i < 3 && i < d; i++) s += x[i] * x[i];
    return s;
}

static double cas_gamma(const double *x, int d)
{
    (void)d;
    return x[0] * x[3] + x[1] * x[4] + x[2] * x[5];
}

static double cas_frob(const double *x, int d)
{
    double s = 0;
    for (int i = 0; i < d; i++) s += x[i] * x[i];
    return s;
}

/* Block kernels vs explicit matrices. HAT: 3x3 real; SU2A: 2x2 complex. */
static void mat_of(int model, const double *x, double complex *M, int *n)
{
    if (model == SLPI_FAST_BLOCK_HAT) {
        *n = 3;
        double h[9] = { 0, -x[2], x[1], x[2], 0, -x[0], -x[1], x[0], 0 };
        for (int i = 0; i < 9; i++) M[i] = h[i];
    } else {
        *n = 2; /* sum x_k E_k, E_k = -i sigma_k / sqrt2 (row-major) */
        double r = 1 / SLPI_FAST_SQRT2;
        M[0] = -I * r * x[2];
        M[1] = -I * r * x[0] - r * x[1];
        M[2] = -I * r * x[0] + r * x[1];
        M[3] = I * r * x[2];
    }
}

static void mmul(int n, const double complex *A, const double complex *B, double complex *C)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double complex s = 0;
            for (int l = 0; l < n; l++) s += A[i * n + l] * B[l * n + j];
            C[i * n + j] = s;
        }
}

/* inverse of 2x2 or 3x3 complex (adjugate) */
static void minv(int n, const double complex *A, double complex *B)
{
    if (n == 2) {
        double complex det = A[0] * A[3] - A[1] * A[2];
        B[0] = A[3] / det;
        B[1] = -A[1] / det;
        B[2] = -A[2] / det;
        B[3] = A[0] / det;
        return;
    }
    double complex det =
        A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) + A[2] * (A[3] * A[7] - A[4] * A[6]);
    B[0] = (A[4] * A[8] - A[5] * A[7]) / det;
    B[1] = (A[2] * A[7] - A[1] * A[8]) / det;
    B[2] = (A[1] * A[5] - A[2] * A[4]) / det;
    B[3] = (A[5] * A[6] - A[3] * A[8]) / det;
    B[4] = (A[0] * A[8] - A[2] * A[6]) / det;
    B[5] = (A[2] * A[3] - A[0] * A[5]) / det;
    B[6] = (A[3] * A[7] - A[4] * A[6]) / det;
    B[7] = (A[1] * A[6] - A[0] * A[7]) / det;
    B[8] = (A[0] * A[4] - A[1] * A[3]) / det;
}

static double mdiff(int n, const double complex *A, const double complex *B)
{
    double m = 0;
    for (int i = 0; i < n * n; i++) m = fmax(m, cabs(A[i] - B[i]));
    return m;
}

static void check_blocks(void)
{
    for (int model = 0; model < 2; model++)
        for (int t = 0; t < test_iters(40); t++) {
            double p[3] = { rnd(), rnd(), rnd() }, y[3] = { rnd(), rnd(), rnd() }, x[3] = { rnd(), rnd(), rnd() };
            double a = test_rand_uniform(-1, 1), out[3], yn;
            double complex P[9], Y[9], X[9], T1[9], T2[9], T3[9], E[9], Ip[9], Im[9], Ii[9];
            int n;
            mat_of(model, p, P, &n);
            mat_of(model, y, Y, &n);
            mat_of(model, x, X, &n);
            /* ISOMP map */
            slpi_fast_blocks_isomp(model, 1, p, x, y, out, &yn);
            mmul(n, P, Y, T1);
            mmul(n, Y, P, T2);
            mmul(n, T1, P, T3);
            for (int i = 0; i < n * n; i++) E[i] = X[i] + 0.5 * (T1[i] - T2[i]) + 0.25 * T3[i];
            mat_of(model, out, T1, &n);
            TEST_CHECKF(mdiff(n, T1, E) < 1e-14, "block %d isomp map %g", model, mdiff(n, T1, E));
            /* Cayley conjugation and A^{-1} */
            for (int i = 0; i < n * n; i++) {
                Ip[i] = a * P[i] + (i % (n + 1) == 0);
                Im[i] = -a * P[i] + (i % (n + 1) == 0);
            }
            minv(n, Im, Ii);
            mmul(n, Ii, Ip, T1); /* C */
            minv(n, T1, T2);     /* C^{-1} */
            mmul(n, T1, X, T3);
            mmul(n, T3, T2, E);
            slpi_fast_blocks_cay(model, 1, a, p, x, out);
            mat_of(model, out, T1, &n);
            TEST_CHECKF(mdiff(n, T1, E) < 1e-13, "block %d cayley %g", model, mdiff(n, T1, E));
            minv(n, Ip, T2);
            mmul(n, Ii, X, T3);
            mmul(n, T3, T2, E);
            slpi_fast_blocks_ainv(model, 1, a, p, x, out);
            mat_of(model, out, T1, &n);
            TEST_CHECKF(mdiff(n, T1, E) < 1e-13, "block %d ainv %g", model, mdiff(n, T1, E));
        }
}

static void ht_zero_noise(slpi_problem *p)
{
    (void)p;
}

int main(void)
{
    test_start("t-fast-fields", 20261121);
    check_rigid_body();
    check_heavy_top();
    check_manakov();
    check_vortices();
    check_blocks();
    slpi_fast *f;
    f = fu_make(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_TMK, NULL);
    check_hess(f, "rigid-body");
    check_orbit(f, "rigid-body", cas_norm);
    slpi_fast_free(f);
    f = fu_make(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_TMK, ht_zero_noise);
    check_hess(f, "heavy-top");
    check_orbit(f, "heavy-top", cas_gamma);
    slpi_fast_free(f);
    f = fu_make(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_SVI, ht_pi2);
    check_hess(f, "heavy-top SVI |Pi|^2");
    slpi_fast_free(f);
    f = fu_make(SLPI_SYS_MANAKOV, SLPI_SCHEME_TMK, NULL);
    check_hess(f, "manakov");
    check_orbit(f, "manakov", cas_frob);
    slpi_fast_free(f);
    f = fu_make(SLPI_SYS_POINT_VORTICES, SLPI_SCHEME_TMK, NULL);
    check_hess(f, "vortices A");
    slpi_fast_free(f);
    f = fu_make(SLPI_SYS_POINT_VORTICES, SLPI_SCHEME_TMK, pv_b);
    check_hess(f, "vortices B");
    check_orbit(f, "vortices B", cas_norm);
    slpi_fast_free(f);
    TEST_END();
}
