/* fast/system.h — the system table of the double path (fast/), which every system file
 * fills and the scheme files read (the twin of ref/system.h). Not installed.
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
 * declares it (slpi_fast_system_ctor, below) and maps p->system to it. Fill the coordinate ops if the system supports TMK, RKMK, IM,
 * TRAP (docs/systems.md#applicability) and the m_* ops for ISOMP and SVI-LP; leave unsupported ones NULL:
 * the scheme then rejects the pair with a clear error. The scheme workspace and the
 * system context are released by slpi_fast_free (clear for the latter).
 */
#ifndef SLPI_FAST_SYSTEM_H
#define SLPI_FAST_SYSTEM_H

#include <stddef.h>
typedef struct slpi_error slpi_error; /* slpi/errors.h */
typedef struct slpi_problem slpi_problem;
typedef struct slpi_plan slpi_plan;
typedef struct slpi_diag slpi_diag; /* slpi/diag.h */
#include "fast/vec3.h"

typedef struct slpi_fast_system slpi_fast_system;

#define SLPI_FAST_SQRT2 1.41421356237309504880
#define SLPI_FAST_PI 3.14159265358979323846

struct slpi_fast_system {
    const char *name;
    int state_dim; /* doubles of the core state layout (slpi_problem_state_dim) */
    int dim;       /* leading doubles integrated as mu (state_dim minus a tracked R) */
    int M;         /* number of Wiener processes */
    int mdim;      /* doubles of one matrix in the private matrix representation (0: none) */
    void *data;    /* the system's own data, released by clear */
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
     * t = t0 + stage h, stage = n + half/2 the step's stage in steps. The schemes call
     * it through slpi_fast_time. */
    long step;
    void (*at_time)(const slpi_fast_system *s, double stage, double h);
    /* Set only by the ingredients' coefficients (fast/ingredients.h; 0 otherwise): t_h,
     * when not 0, the step's h for the time, which the drift's coefficient on delta_0
     * must not move; t_shift, the stages read this many steps later (the time stage). */
    double t_h, t_shift;

    /* The initial state from core's coefficient description (slpi_problem_initial_state
     * of kind ZEITLIN or FOURIER) with this path's basis, into the core layout (state_dim
     * doubles); NULL for systems whose initial states are always values. */
    int (*initial_map)(const slpi_fast_system *s, double *x, const double *c, slpi_error *err);
    /* Diagnostics of state x (state_dim doubles); x0 may be NULL. */
    void (*diagnostics)(const slpi_fast_system *s, slpi_diag *d, const double *x, const double *x0);

    /* ---- coordinate operations (NULL when the system does not support them) */
    void (*gen)(const slpi_fast_system *s, int k, double *xi, const double *mu);
    void (*coad)(const slpi_fast_system *s, double *out, const double *xi, const double *mu);
    void (*dgen)(const slpi_fast_system *s, int k, double *out, const double *mu, const double *w);
    /* out = O_exp(sigma; mu) = exp(ad*_sigma) mu (docs/conventions.md#orbit-maps); returns 0 or an error. */
    int (*orbit)(const slpi_fast_system *s, double *out, const double *sigma, const double *mu);
    /* Lie bracket [a, b] of algebra coefficients (RKMK dexp^{-1} with q >= 1). */
    void (*lie)(const slpi_fast_system *s, double *out, const double *a, const double *b);
    /* Optional: sum over k of delta_k gen(k, mu) into xi (when a system can do it faster
     * than M calls of gen); NULL = the generic loop. */
    void (*gen_sum)(const slpi_fast_system *s, double *xi, const double *delta, const double *mu);

    /* ---- matrix operations (J-quadratic systems) */
    void (*m_unpack)(const slpi_fast_system *s, double *Y, const double *mu);
    void (*m_pack)(const slpi_fast_system *s, double *mu, const double *Y);
    /* Psi = sum_k delta_k B_k(Y), k = 0..M (Y need not be traceless: su(N) projects). */
    void (*m_gen_sum)(const slpi_fast_system *s, double *Psi, const double *delta, const double *Y);
    /* ISOMP fixed-point map (docs/schemes.md#isomp step 1), fused: Ynew = Xn + [Psi,Y]/2 + Psi Y Psi/4
     * with Psi = Psi(Y); returns ||Ynew - Y||_max and stores ||Ynew||_max in *ynorm.
     * If Psi_out != NULL it receives Psi(Y) (used by the final update). */
    double (*m_isomp_iter)(const slpi_fast_system *s, double *Ynew, double *ynorm, double *Psi_out, const double *delta,
                           const double *Xn, const double *Y);
    /* Optional: out = Xn + [Psi(Y), Y] for the Y of the most recent m_isomp_iter call,
     * from the products that call already formed (T = Psi Y, so no GEMM: P1). ISOMP uses
     * it for the COMM update after a converged or stagnated solve; X~ is then the last
     * iterate fed to the map, within tol of its image. NULL: m_gen_sum + m_comm_update. */
    void (*m_isomp_comm_last)(const slpi_fast_system *s, double *out, const double *Xn);
    /* out = Xn + [Psi, Y] (ISOMP COMM update). */
    void (*m_comm_update)(const slpi_fast_system *s, double *out, const double *Psi, const double *Y, const double *Xn);
    /* out = C X C^{-1}, C = (I - a Psi)^{-1} (I + a Psi) (Cayley conjugation); 0 or error. */
    int (*m_cay_conj)(const slpi_fast_system *s, double *out, double a, const double *Psi, const double *X);
    /* out = (I - a Psi)^{-1} X (I + a Psi)^{-1} (SVI A^{-1}; ISOMP quasi-Newton). */
    int (*m_ainv)(const slpi_fast_system *s, double *out, double a, const double *Psi, const double *X);
    /* Optional: remove the central (trace) part of a matrix in place (su(N)); NULL: none. */
    void (*m_project)(const slpi_fast_system *s, double *Y);
};

/* A built-in system's constructor, slpi_fast_sys_<name> in fast/<name>.c (one file each;
 * the contract above). fast/fast.c declares each beside its row of the table, so a new
 * system's constructor needs no line here; a test that builds one system directly declares
 * the one it calls. */
typedef int slpi_fast_system_ctor(slpi_fast_system *s, const slpi_problem *p, slpi_error *err);
/* A model's system over the model its plan parsed (slpi_plan_model): the system holds a
 * reference to the plan until it is cleared. */
int slpi_fast_sys_model(slpi_fast_system *s, const slpi_problem *p, const slpi_plan *plan, slpi_error *err);

/* The Hamiltonians of the step being taken are read at its stage c = half/2 from here on:
 * t = t0 + (n + c) h (docs/schemes.md#time says each scheme's stages), h = delta[0] (or
 * t_h while the ingredients' coefficients are set). No-op for systems that do not read t. */
static inline void slpi_fast_time(const slpi_fast_system *s, int half, const double *delta)
{
    if (s->at_time) s->at_time(s, (double)s->step + 0.5 * half + s->t_shift, s->t_h != 0 ? s->t_h : delta[0]);
}

/* A diagnostic's relative departure from its value v0 at x0, the absolute one where v0 = 0
 * (docs/architecture.md#twin-diagnostics; the certified path's rule, ref/diagnostics.c). */
static inline double slpi_fast_rel_dev(double v, double v0)
{
    return v0 != 0 ? (v - v0) / v0 : v - v0;
}

#endif
