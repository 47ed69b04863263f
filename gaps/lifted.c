/* lifted.c — the lifted stochastic midpoint on T*G (docs/schemes.md#isomp "Lifted scheme on T*G";
 * ISO eqs. (8), (21)-(22), Rem. 4.3, Lemma 4.4; claim I13, erratum E-I1) for G = SO(3),
 * J = I (c = 1): mu(Q, P) = (Q^T P - P^T Q)/2, and with G~ = sum_k eta_k grad H_k(mu~)
 * = Psi(mu~)^*, mu~ = mu(Q~, P~),
 *     Q_n = Q~ (I - a G~),  Q_{n+1} = Q~ (I + a G~),  P_n = P~ (I + a G~^*),  P_{n+1} = P~ (I - a G~^*).
 * a = 1/2 is the consistent form; a = 1/4 is the printed (21)-(22) (1/2 counted twice).
 * Since G~^* = -G~, both Q and P move by the same right factor. Solved as a fixed point in
 * G~ from Psi(X_n)^*: Q~ = Q_n (I - a G~)^{-1}, P~ = P_n (I - a G~)^{-1}. The generators
 * Psi are those of the fast ISO rigid body (m_gen_sum), so the projection mu o Phi_h is
 * compared with the fast path's own ISOMP step Psi_h. */
#include <lapacke.h>
#include <math.h>
#include <string.h>
#include <stdint.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/noise.h"
#include "slpi/step.h"
#include "slpi/fast.h"
#include "slpi/problem-shape.h"
#include "slpi/problem-finish.h"
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-scheme.h"
#include "core/view-system.h"
#include "core/steps.h"
#include "fast/lie-ops.h"
#include "gaps/gaps.h"

static void hat(const double *x, double *X)
{
    X[0] = 0;
    X[1] = -x[2];
    X[2] = x[1];
    X[3] = x[2];
    X[4] = 0;
    X[5] = -x[0];
    X[6] = -x[1];
    X[7] = x[0];
    X[8] = 0;
}

static void transpose(const double *A, double *T)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) T[3 * j + i] = A[3 * i + j];
}

/* mu(Q, P) as the 3-vector of the skew matrix (Q^T P - P^T Q)/2. */
static void momentum(const double *Q, const double *P, double *x)
{
    double Qt[9], W[9];
    transpose(Q, Qt);
    slpi_fast_mat3_mul(W, Qt, P);
    x[0] = 0.5 * (W[7] - W[5]);
    x[1] = 0.5 * (W[2] - W[6]);
    x[2] = 0.5 * (W[3] - W[1]);
}

/* out = B F^{-1} with F = I - a G (solve F^T out^T = B^T); -1 if singular. */
static int rsolve(double a, const double *G, const double *B, double *out)
{
    double Ft[9], R[9];
    lapack_int piv[3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) Ft[3 * j + i] = (i == j) - a * G[3 * i + j];
    transpose(B, R);
    if (LAPACKE_dgesv(LAPACK_ROW_MAJOR, 3, 3, Ft, 3, piv, R, 3)) return -1;
    transpose(R, out);
    return 0;
}

typedef struct {
    const slpi_fast *f;
    double a;
    const double *eta, *Q, *P;
} lifted_ctx;

/* The fixed-point map G~ -> Psi(mu(Q F^{-1}, P F^{-1}))^* (F = I - a G~) on the 3-vector g
 * of G~ = hat(g); -1 if F is singular. */
static int lifted_map(void *arg, const double *g, double *gn)
{
    const lifted_ctx *c = arg;
    double G[9], Qt[9], Pt[9], xt[3], psi[3];
    hat(g, G);
    if (rsolve(c->a, G, c->Q, Qt) || rsolve(c->a, G, c->P, Pt)) return -1;
    momentum(Qt, Pt, xt);
    slpi_fast_generator_sum(c->f, psi, c->eta, xt);
    for (int i = 0; i < 3; i++) gn[i] = -psi[i]; /* G = Psi^* = -hat(psi) */
    return 0;
}

/* One lifted step (Q, P) -> (Q1, P1) with increments eta = (h, dW...); status. */
static slpi_step_status lifted_step(const slpi_fast *f, double a, const double *eta, const double *Q, const double *P,
                                    double *Q1, double *P1)
{
    lifted_ctx c = { f, a, eta, Q, P };
    double xn[3], psi[3], g[3], G[9], Qt[9], Pt[9], F[9];
    int iters;
    momentum(Q, P, xn);
    slpi_fast_generator_sum(f, psi, eta, xn);
    for (int i = 0; i < 3; i++) g[i] = -psi[i];
    slpi_step_status st = slpi_fast_fixed_point(lifted_map, &c, 3, 1e-15, 100, g, &iters);
    if (slpi_step_failed(st)) return st;
    hat(g, G);
    if (rsolve(a, G, Q, Qt) || rsolve(a, G, P, Pt)) return SLPI_STEP_DIVERGED;
    for (int i = 0; i < 9; i++) F[i] = (i % 4 == 0) + a * G[i];
    slpi_fast_mat3_mul(Q1, Qt, F);
    slpi_fast_mat3_mul(P1, Pt, F);
    return st;
}

/* The lifted step as a thing to step on the problem's increments (core/steps.h): the
 * pair (Q, P) to (Q1, P1) with eta = (h, dW). */
typedef struct {
    const slpi_fast *f;
    double a, h;
    int M;
    const double *Q, *P;
    double *Q1, *P1;
} lifted_path;

static void lifted_eta(const lifted_path *l, const double *dW, double *eta)
{
    eta[0] = l->h;
    for (int i = 0; i < l->M; i++) eta[1 + i] = dW[i];
}

static slpi_step_status lifted_path_step(void *path, const double *dW, slpi_step_info *info)
{
    const lifted_path *l = path;
    double eta[8];
    (void)info;
    lifted_eta(l, dW, eta);
    return lifted_step(l->f, l->a, eta, l->Q, l->P, l->Q1, l->P1);
}

/* Random rotation: Cayley of a normal 3-vector. */
static void random_rotation(uint64_t seed, uint32_t comp, double *R)
{
    double w[3];
    for (int i = 0; i < 3; i++) w[i] = slpi_noise_normal(seed, 0, comp, (uint64_t)i);
    slpi_fast_cayley3(R, w);
}

/* slpi_gaps_lifted on p, a copy of the caller's problem (the caller's to free). */
static int lifted_run(slpi_problem *p, double a, long steps, uint64_t seed, slpi_gaps_lifted_result *r, slpi_error *err)
{
    slpi_grid_view *grid = slpi_view_grid_edit(p);
    grid->steps = steps;
    grid->T = 0;
    grid->level = -1;
    memset(r, 0, sizeof *r);
    if (slpi_view_system(p)->system != SLPI_SYS_RIGID_BODY || slpi_view_scheme(p)->scheme != SLPI_SCHEME_ISOMP)
        return slpi_error_set(err, SLPI_EINPUT,
                              "lifted: needs scheme isomp on the rigid body, "
                              "not %s/%s",
                              slpi_scheme_name(slpi_view_scheme(p)->scheme),
                              slpi_system_name(slpi_view_system(p)->system));
    if (!(a > 0 && a < 1)) return slpi_error_set(err, SLPI_EINPUT, "lifted: a = %g not in (0, 1)", a);
    slpi_fast *f = NULL;
    int M = slpi_problem_noise_count(p);
    double Q[9], P[9], Q1[9], P1[9], gR[9], gQ[9], gP[9], Qg[9], Pg[9], eta[8], half[8];
    lifted_path lp = { NULL, a, grid->h, M, Q, P, Q1, P1 };
    slpi_steps stepping = { 0 };
    int rc = slpi_problem_validate(p, err);
    if (!rc) rc = slpi_fast_create(&f, p, err);
    lp.f = f;
    if (!rc) rc = slpi_steps_open(&stepping, p, lifted_path_step, &lp, 1, err);
    if (!rc && (M > 7 || slpi_fast_matrix_dim(f) != 3))
        rc = slpi_error_set(err, SLPI_EINPUT, "lifted: needs the so(3) matrix form, M <= 7");
    random_rotation(seed, 9, Q);
    random_rotation(seed, 10, gR);
    for (int i = 0; i < 9; i++) P[i] = slpi_noise_normal(seed, 0, 11, (uint64_t)i);
    for (long k = 0; !rc && k < steps; k++) {
        slpi_step_status st;
        rc = slpi_steps_take(&stepping, k, NULL, &st, err);
        if (rc) break;
        if (slpi_step_failed(st)) {
            rc = slpi_error_set(err, SLPI_ENUMERIC, "lifted: step %ld did not converge", k);
            break;
        }
        const double *dW = stepping.dW;
        lifted_eta(&lp, dW, eta);
        if (k == 0) { /* equivariance under left translation by g */
            slpi_fast_mat3_mul(gQ, gR, Q);
            slpi_fast_mat3_mul(gP, gR, P);
            if (slpi_step_failed(lifted_step(f, a, eta, gQ, gP, Qg, Pg))) {
                rc = slpi_error_set(err, SLPI_ENUMERIC, "lifted: translated step did not converge");
                break;
            }
            slpi_fast_mat3_mul(gQ, gR, Q1);
            slpi_fast_mat3_mul(gP, gR, P1);
            for (int i = 0; i < 9; i++) {
                r->equiv = fmax(r->equiv, fabs(Qg[i] - gQ[i]));
                r->equiv = fmax(r->equiv, fabs(Pg[i] - gP[i]) / slpi_vec_maxabs(P, 9));
            }
        }
        /* the projection against the fast ISOMP step at (h, dW) and at (h/2, dW/2) */
        double x[3], y[3], z[3], x1[3];
        slpi_step_info info;
        momentum(Q, P, x);
        momentum(Q1, P1, x1);
        memcpy(y, x, sizeof y);
        memcpy(z, x, sizeof z);
        for (int i = 0; i < M; i++) half[i] = 0.5 * dW[i];
        if (slpi_fast_set_step(f, grid->h) || slpi_step_failed(slpi_fast_step(f, y, dW, &info)) ||
            slpi_fast_set_step(f, 0.5 * grid->h) || slpi_step_failed(slpi_fast_step(f, z, half, &info))) {
            rc = slpi_error_set(err, SLPI_ENUMERIC, "lifted: the ISOMP step %ld failed", k);
            break;
        }
        double xn = slpi_vec_maxabs(x, 3);
        r->proj = fmax(r->proj, slpi_vec_maxdiff(x1, y, 3) / xn);
        r->half = fmax(r->half, slpi_vec_maxdiff(x1, z, 3) / xn);
        double Qt[9], QQ[9];
        transpose(Q1, Qt);
        slpi_fast_mat3_mul(QQ, Qt, Q1);
        for (int i = 0; i < 9; i++) r->group = fmax(r->group, fabs(QQ[i] - (i % 4 == 0)));
        memcpy(Q, Q1, sizeof Q);
        memcpy(P, P1, sizeof P);
        r->steps = k + 1;
    }
    slpi_steps_close(&stepping);
    slpi_fast_free(f);
    return rc;
}

int slpi_gaps_lifted(const slpi_problem *p0, double a, long steps, uint64_t seed, slpi_gaps_lifted_result *r,
                     slpi_error *err)
{
    slpi_problem *p = slpi_problem_dup(p0);
    int rc = p ? lifted_run(p, a, steps, seed, r, err) : slpi_error_set(err, SLPI_EINPUT, "lifted: out of memory");
    slpi_problem_free(p);
    return rc;
}
