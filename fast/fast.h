/* fast.h — internal interface of the double path (fast/): the system-operations
 * table every system file fills, the scheme table, the solver policy (docs/schemes.md#solver) and
 * the shared dense kernels. Not installed; only the fast/ sources and tests include it.
 *
 * COORDINATES (docs/conventions.md#pairing, docs/conventions.md#sde). A system integrates the first `dim` doubles of the
 * core state layout (slpi.h, slpi_problem_state_dim), called mu. Algebra elements
 * (gradients xi, TMK/RKMK unknowns sigma) are stored as coefficients in the SAME basis
 * as mu, and `gen` returns the coefficients of the system's gradient (Frobenius or dot,
 * docs/conventions.md#pairing) in that basis; `coad(xi, mu)` returns the coefficients of ad*_xi mu.
 * Only these two are paired, so the dynamics dmu = sum_k coad(gen(k,mu),mu) dS^k are
 * the documentation ground-truth vector fields (tests/fast/t-fast-fields.c checks each system).
 * `dgen(k,mu,w)` is the derivative of gen(k,.) at mu along w (state coordinates in,
 * algebra coefficients out), for the TMK chord.
 *
 * MATRIX FORM (J-quadratic systems; ISOMP and SVI-LP). The system chooses a private
 * representation of its matrices in `mdim` doubles (3-vectors for so(3)/su(2) blocks,
 * a real n x n matrix for so(n), a complex column-major N x N matrix for su(N)).
 * The schemes never look inside: they call the m_* operations below, all of which work
 * on that representation. The generators are B_k = xi_k^* (docs/conventions.md#sde), so
 * Psi(Y) = sum_k delta_k B_k(Y) with delta = (h, dW_1..dW_M).
 *
 * HOW A SYSTEM REGISTERS. One constructor per system file,
 *     int slpi_fast_sys_<name>(slpi_fast_system *s, const slpi_problem *p, slpi_error *err);
 * fills *s (it arrives zeroed) and returns SLPI_OK or an slpi_error code; fast/fast.c
 * maps p->system to it. Fill the coordinate ops if the system supports TMK, RKMK, IM,
 * TRAP (docs/systems.md#applicability) and the m_* ops for ISOMP and SVI-LP; leave unsupported ones NULL:
 * the scheme then rejects the pair with a clear error. The scheme workspace and the
 * system context are released by slpi_fast_free (clear for the latter).
 */
#ifndef SLPI_FAST_H
#define SLPI_FAST_H

#include "slpi.h"
#include "fast/ensemble.h"
#include "fast/vec3.h"

typedef struct slpi_fast_system slpi_fast_system;

#define SLPI_FAST_SQRT2 1.41421356237309504880
#define SLPI_FAST_PI 3.14159265358979323846

/* Matrix size from which the su(N) kernels (fast/sun.c, fast/zeitlin-basis.c) share their
 * O(N^2) and O(N^3) passes out to the thread team (fast/team.c, docs/conventions.md#threads);
 * below it a second thread costs more than it saves. */
#define SLPI_FAST_TEAM_MIN_N 64

/* Run fn(ctx, u) for u = 0..n-1, each once, on the caller and the free helper threads
 * (omp_get_max_threads() in all; fast/team.c), in increasing u on each thread; returns
 * when all are done. The caller never waits for a helper that has not joined, and the
 * units must not depend on the thread that runs them: the results are then the same for
 * every thread count. size: the matrix size of the work; below SLPI_FAST_TEAM_MIN_N the
 * caller runs every unit itself. */
typedef void (*slpi_fast_team_fn)(void *ctx, int unit);
void slpi_fast_team_run(int size, int n, slpi_fast_team_fn fn, void *ctx);

struct slpi_fast_system {
    const char *name;
    int state_dim;  /* doubles of the core state layout (slpi_problem_state_dim) */
    int dim;        /* leading doubles integrated as mu (state_dim minus a tracked R) */
    int M;          /* number of Wiener processes */
    int mdim;       /* doubles of one matrix in the private matrix representation (0: none) */
    void *data;     /* the system's own data, released by clear */
    void (*clear)(slpi_fast_system *s);
    /* Optional (NULL: never), as ref/system.h's: 1 if an evaluation since the last call
     * failed in a way the system can name (a model's callback returned non-zero or a
     * non-finite value: its outputs were made NaN), with the reason in why; the record is
     * cleared. slpi_fast_step then fails the step with that reason
     * (slpi_fast_failure_reason). */
    int (*fault)(const slpi_fast_system *s, char *why, size_t why_len);
    /* The time grid (docs/models.md#time): step is the index n of the step being taken
     * (slpi_fast_step advances it, slpi_fast_set_step_index sets it); at_time, optional
     * (NULL: the Hamiltonians do not read t), makes every evaluation from now on read
     * t = t0 + (n + half/2) h. The schemes call it through slpi_fast_time. */
    long step;
    void (*at_time)(const slpi_fast_system *s, long n, int half, double h);

    /* The initial state from core's coefficient description (slpi_problem_initial_state
     * of kind ZEITLIN or FOURIER) with this path's basis, into the core layout (state_dim
     * doubles); NULL for systems whose initial states are always values. */
    int (*initial_map)(const slpi_fast_system *s, double *x, const double *c, slpi_error *err);
    /* Diagnostics of state x (state_dim doubles); x0 may be NULL. */
    void (*diagnostics)(const slpi_fast_system *s, slpi_diag *d, const double *x,
                        const double *x0);

    /* ---- coordinate operations (NULL when the system does not support them) */
    void (*gen)(const slpi_fast_system *s, int k, double *xi, const double *mu);
    void (*coad)(const slpi_fast_system *s, double *out, const double *xi, const double *mu);
    void (*dgen)(const slpi_fast_system *s, int k, double *out, const double *mu,
                 const double *w);
    /* out = O_exp(sigma; mu) = exp(ad*_sigma) mu (docs/conventions.md#orbit-maps); returns 0 or an error. */
    int (*orbit)(const slpi_fast_system *s, double *out, const double *sigma,
                     const double *mu);
    /* Lie bracket [a, b] of algebra coefficients (RKMK dexp^{-1} with q >= 1). */
    void (*lie)(const slpi_fast_system *s, double *out, const double *a, const double *b);
    /* Optional: sum over k of delta_k gen(k, mu) into xi (when a system can do it faster
     * than M calls of gen); NULL = the generic loop. */
    void (*gen_sum)(const slpi_fast_system *s, double *xi, const double *delta,
                     const double *mu);

    /* ---- matrix operations (J-quadratic systems) */
    void (*m_unpack)(const slpi_fast_system *s, double *Y, const double *mu);
    void (*m_pack)(const slpi_fast_system *s, double *mu, const double *Y);
    /* Psi = sum_k delta_k B_k(Y), k = 0..M (Y need not be traceless: su(N) projects). */
    void (*m_gen_sum)(const slpi_fast_system *s, double *Psi, const double *delta, const double *Y);
    /* ISOMP fixed-point map (docs/schemes.md#isomp step 1), fused: Ynew = Xn + [Psi,Y]/2 + Psi Y Psi/4
     * with Psi = Psi(Y); returns ||Ynew - Y||_max and stores ||Ynew||_max in *ynorm.
     * If Psi_out != NULL it receives Psi(Y) (used by the final update). */
    double (*m_isomp_iter)(const slpi_fast_system *s, double *Ynew, double *ynorm,
                           double *Psi_out, const double *delta, const double *Xn, const double *Y);
    /* Optional: out = Xn + [Psi(Y), Y] for the Y of the most recent m_isomp_iter call,
     * from the products that call already formed (T = Psi Y, so no GEMM: P1). ISOMP uses
     * it for the COMM update after a converged or stagnated solve; X~ is then the last
     * iterate fed to the map, within tol of its image. NULL: m_gen_sum + m_comm_update. */
    void (*m_isomp_comm_last)(const slpi_fast_system *s, double *out, const double *Xn);
    /* out = Xn + [Psi, Y] (ISOMP COMM update). */
    void (*m_comm_update)(const slpi_fast_system *s, double *out, const double *Psi,
                          const double *Y, const double *Xn);
    /* out = C X C^{-1}, C = (I - a Psi)^{-1} (I + a Psi) (Cayley conjugation); 0 or error. */
    int (*m_cay_conj)(const slpi_fast_system *s, double *out, double a,
                      const double *Psi, const double *X);
    /* out = (I - a Psi)^{-1} X (I + a Psi)^{-1} (SVI A^{-1}; ISOMP quasi-Newton). */
    int (*m_ainv)(const slpi_fast_system *s, double *out, double a, const double *Psi,
                  const double *X);
    /* Optional: remove the central (trace) part of a matrix in place (su(N)); NULL: none. */
    void (*m_project)(const slpi_fast_system *s, double *Y);
};

/* System constructors (one file each). Same contract as described above. */
int slpi_fast_sys_rigid_body(slpi_fast_system *s, const slpi_problem *p, slpi_error *err);
int slpi_fast_sys_heavy_top(slpi_fast_system *s, const slpi_problem *p, slpi_error *err);
int slpi_fast_sys_manakov(slpi_fast_system *s, const slpi_problem *p, slpi_error *err);
int slpi_fast_sys_point_vortices(slpi_fast_system *s, const slpi_problem *p, slpi_error *err);
int slpi_fast_sys_euler_zeitlin(slpi_fast_system *s, const slpi_problem *p, slpi_error *err);
int slpi_fast_sys_sine_euler(slpi_fast_system *s, const slpi_problem *p, slpi_error *err);
int slpi_fast_sys_model(slpi_fast_system *s, const slpi_problem *p, slpi_error *err);

/* -------------------------------------------------------------- solver policy */


typedef struct {
    const slpi_fast_policy *pol;
    int it;                     /* iterations done */
    double first, prev, last;   /* increments */
} slpi_fast_iter;

/* A diagnostic's relative departure from its value v0 at x0, the absolute one where v0 = 0
 * (docs/architecture.md#twin-diagnostics; the certified path's rule, ref/diagnostics.c). */
static inline double slpi_fast_rel_dev(double v, double v0)
{
    return v0 != 0 ? (v - v0) / v0 : v - v0;
}

static inline void slpi_fast_iter_begin(slpi_fast_iter *it, const slpi_fast_policy *pol)
{
    it->pol = pol;
    it->it = 0;
    it->first = it->prev = it->last = 0;
}

/* Record one iteration with increment dmax = ||u_new - u||_max and unorm = ||u_new||_max.
 * Returns -1 to continue, or the final step status (docs/schemes.md#solver): converged when
 * dmax <= tol s, s = max(1, unorm) (or tol_h unorm, tol_scale=step); stagnated when the
 * increment stopped decreasing within 100 tol s; diverged on NaN/Inf or growth > 1e6 over the first increment;
 * capped at maxit (policy ACCEPT) or not converged (FAIL); fixed_iters > 0 runs exactly
 * that many iterations and reports CAPPED. (Inline: the ensembles call it per path.) */
static inline int slpi_fast_iter_check(slpi_fast_iter *it, double dmax, double unorm)
{
    const slpi_fast_policy *pol = it->pol;
    it->it++;
    if (it->it == 1) it->first = dmax;
    it->prev = it->last;
    it->last = dmax;
    if (!(dmax - dmax == 0) || !(unorm - unorm == 0)) return SLPI_STEP_DIVERGED;  /* NaN/Inf */
    if (pol->fixed_iters > 0)
        return it->it >= pol->fixed_iters ? SLPI_STEP_CAPPED : -1;
    double scale = pol->tol_h > 0 ? pol->tol_h * unorm : unorm > 1 ? unorm : 1;
    if (dmax <= pol->tol * scale) return SLPI_STEP_CONVERGED;
    if (it->it > 1 && dmax >= it->prev && dmax <= 100 * pol->tol * scale)
        return SLPI_STEP_STAGNATED;
    if (it->it > 1 && dmax > 1e6 * it->first && it->first > 0) return SLPI_STEP_DIVERGED;
    if (it->it >= pol->maxit)
        return pol->on_cap == SLPI_CAP_ACCEPT ? SLPI_STEP_CAPPED : SLPI_STEP_NOT_CONVERGED;
    return -1;
}

/* -------------------------------------------------------------- scheme table */

typedef struct slpi_fast_scheme slpi_fast_scheme;

/* The run object behind the public slpi_fast handle. */
struct slpi_fast {
    slpi_problem p;
    slpi_fast_system sys;
    const slpi_fast_scheme *scheme;
    void *work;                 /* scheme workspace */
    slpi_fast_policy pol;
    double *delta;              /* M+1 increments (h, dW...) of the current step, which
                                 * slpi_fast_step passes to the scheme's step */
    /* solver statistics (docs/schemes.md#solver) */
    long steps, iters, max_iters, stagnated, capped, failed;
    char why[256];              /* the system's fault in the last step, "" if none */
};

/* The scheme table, the same shape as ref/scheme.h's slpi_ref_scheme: id, check, step, then
 * the path's own slot (here init; there jac). */
struct slpi_fast_scheme {
    slpi_scheme_id id;
    /* Whether system s has what the scheme needs for problem p (core's validator has
     * checked the problem's own rules); SLPI_EINPUT naming the pair and why. */
    int (*check)(const slpi_fast_system *s, const slpi_problem *p, slpi_error *err);
    /* One step in place on the state x (state_dim doubles) with the increments
     * delta = (h, dW_1..dW_M). */
    slpi_step_status (*step)(slpi_fast *f, double *x, const double *delta, slpi_step_info *info);
    /* After check: allocate the workspace f->work (slpi_fast_work_new; freed by
     * slpi_fast_free). */
    int (*init)(slpi_fast *f, slpi_error *err);
    /* Optional (NULL: the scheme carries nothing from step to step): what it carries, as
     * doubles (slpi_fast_carry_get/_set in slpi.h). carry_get writes it into buf (NULL:
     * counts only) and returns the count; carry_set restores it (n doubles) for the state
     * x that the next step is handed, or returns SLPI_EINPUT if the values cannot be its. */
    int (*carry_get)(const slpi_fast *f, double *buf);
    int (*carry_set)(slpi_fast *f, const double *x, const double *buf, int n);
};

/* Scheme workspace in one zeroed allocation: f->work = a struct of wsize bytes, followed
 * by ndoubles doubles (16-byte aligned), whose address is returned; NULL with an
 * SLPI_EINPUT error (out of memory) naming the scheme (fast/workspace.c). slpi_fast_work_free
 * (slpi_fast_free) frees it. */
double *slpi_fast_work_new(slpi_fast *f, size_t wsize, size_t ndoubles, slpi_error *err);
void slpi_fast_work_free(slpi_fast *f);

extern const slpi_fast_scheme slpi_fast_scheme_tmk, slpi_fast_scheme_rkmk_le,
    slpi_fast_scheme_rkmk_heun, slpi_fast_scheme_im_direct, slpi_fast_scheme_trap_direct,
    slpi_fast_scheme_isomp, slpi_fast_scheme_svi;

/* The Hamiltonians of the step being taken are read at its stage c = half/2 from here on:
 * t = t0 + (n + c) h (docs/schemes.md#time says each scheme's stages). No-op for systems
 * that do not read t. */
static inline void slpi_fast_time(const slpi_fast_system *s, int half, const double *delta)
{
    if (s->at_time) s->at_time(s, s->step, half, delta[0]);
}

/* Sum over k = 0..M of delta_k gen(k, mu) (uses gen_sum when present); tmp: dim. */
void slpi_fast_gen_sum(const slpi_fast_system *s, double *xi, double *tmp,
                        const double *delta, const double *mu);

/* ------------------------------------------------------------ dense kernels */

/* (max norms, 3-vectors, Cayley3, A_c^{-1}: inline in vec3.h) */
int slpi_fast_all_finite(const double *x, int n);

/* 3-vectors (so(3), su(2), se(3)): fast/so3.c. */
/* c1 = (1 - cos t)/t^2, c2 = (t - sin t)/t^3 at t^2 = t2, free of cancellation. */
void slpi_fast_exp_coeffs(double *c1, double *c2, double t2);
/* R = exp(hat(w)) (Rodrigues, Taylor coefficients for |w| < 1e-4), row-major 3x3. */
void slpi_fast_rodrigues(double *R, const double *w);
/* Rotation about w/|w| by angle theta (R = I for w = 0). */
void slpi_fast_rotation(double *R, const double *w, double theta);

/* Blocks of so(3) 3-vectors under one of two matrix models (docs/conventions.md#hat-maps):
 * HAT (X = hat x, [X,Y] = hat(x cross y)) or SU2A (X = sum x_k E_k, E_k = -i sigma_k/sqrt2,
 * [X,Y] = sqrt2 (x cross y).E). The m_* operations of rigid body and vortices. */
typedef enum { SLPI_FAST_BLOCK_HAT, SLPI_FAST_BLOCK_SU2A } slpi_fast_block_model;
/* Ynew = Xn + [P,Y]/2 + P Y P/4 on nb blocks; returns ||Ynew - Y||_max, *ynorm. */
double slpi_fast_blocks_isomp(slpi_fast_block_model m, int nb, const double *P,
                              const double *Xn, const double *Y, double *Ynew, double *ynorm);
void slpi_fast_blocks_comm(slpi_fast_block_model m, int nb, const double *P,
                           const double *Y, const double *Xn, double *out);
void slpi_fast_blocks_cay(slpi_fast_block_model m, int nb, double a, const double *P,
                          const double *X, double *out);
void slpi_fast_blocks_ainv(slpi_fast_block_model m, int nb, double a, const double *P,
                           const double *X, double *out);

/* SVI vector forms (docs/schemes.md#svi-so3, docs/schemes.md#svi-sd), fast/svi.c. map(ctx, A, B, x, tau, f) gives
 * x = Delta t xi, tau = cay(x) and f (0 for SO(3)) for the current unknowns A, B.
 * slpi_fast_svi3_solve iterates A = A_c(x)^{-1} Pi_k, B = A_c(x)^{-1}(tau^T Pi_k - f)
 * from A = B = Pi_k under pol, then calls map once more on the final A, B; returns the
 * step status with the iteration count and last increment. */
typedef void (*slpi_fast_svi3_map)(void *ctx, const double *A, const double *B, double *x,
                                   double *tau, double *f);
int slpi_fast_svi3_solve(double c, const slpi_fast_policy *pol, slpi_fast_svi3_map map,
                         void *ctx, const double *Pk, double *A, double *B, double *x,
                         double *tau, double *f, int *iters, double *resid);

/* Complex/real dense matrices (column-major), fast/dense.c. */
#include <complex.h>
/* E = exp(B) for skew-Hermitian B (n x n), via zheev of iB; 0 or SLPI_ENUMERIC. */
int slpi_fast_expm_skewh(int n, const double complex *B, double complex *E);
/* Eigenvalues (ascending) of the Hermitian matrix iX for skew-Hermitian X; 0 or error. */
int slpi_fast_eig_skewh(int n, const double complex *X, double *w);
/* out = C X C^{-1} with C = (I - aP)^{-1}(I + aP), or (mode 1) out = (I-aP)^{-1} X (I+aP)^{-1},
 * for complex n x n P and X (LU via LAPACKE_zgesv); 0 or SLPI_ENUMERIC if singular. */
int slpi_fast_zcayley(int n, int mode, double a, const double complex *P,
                      const double complex *X, double complex *out);

/* ISOMP map on complex matrices with 2 zgemm: Ynew = Xn + [P,Y]/2 + P Y P/4 for skew-
 * Hermitian P, Y ([P,Y] = T - T^*, T = P Y; P Y P = T P). T: n*n workspace. Returns
 * ||Ynew - Y||_max over real and imaginary parts, *ynorm = ||Ynew||_max. */
double slpi_fast_zisomp(int n, const double complex *P, const double complex *Xn,
                        const double complex *Y, double complex *Ynew, double *ynorm,
                        double complex *T);
/* The edge of the square blocks in which the passes over a matrix and its transpose go
 * (fast/dense.c, fast/sun.c): at power-of-two n a column is a multiple of 4 KiB, so the
 * transposed accesses of one block fall in one set of the level-1 cache, and this many
 * must fit its ways (8 of 8-12; 32 cost 4x on an n = 512 unpack). */
#define SLPI_FAST_SUBTILE 8
/* out = Xn + [P,Y] = Xn + T - T^* (T = P Y, one zgemm) for skew-Hermitian P, Y;
 * slpi_fast_zcomm_from_T: the same from a T already computed (no GEMM). */
void slpi_fast_zcomm_from_T(int n, const double complex *T, const double complex *Xn,
                            double complex *out);
void slpi_fast_zcomm_update(int n, const double complex *P, const double complex *Y,
                            const double complex *Xn, double complex *out, double complex *T);

#endif
