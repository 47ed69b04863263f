/* ref/system.h — the system table of the certified Arb path (docs/design.md#two-paths,
 * docs/conventions.md#sde) and the systems that fill it (dispatched by ref/system.c).
 *
 * A system file fills a `slpi_ref_system` (docs/conventions.md#sde "system interface") for one
 * problem; scheme files use only this interface. Two levels:
 *
 *  - coordinate level (every system): the state vector x (slpi.h layout, length
 *    `state_dim`) whose first `dim` entries are the Lie–Poisson variable mu; algebra
 *    elements b (generators, the RKMK/TMK unknown sigma) are vectors of length `gdim`.
 *      gen(k, mu)          b_k(mu): the generator of H_k (docs/conventions.md#sde: xi_k, or B_k in
 *                          matrix form), in the system's algebra coordinates;
 *      dgen(k, mu, w)      D b_k(mu)[w] (docs/conventions.md#sde `hess`);
 *      coad(b, mu)         ad*_b mu, bilinear, so that V_k(mu) = coad(gen(k,mu), mu);
 *      orbit(b, mu)        the exponential orbit map O_exp(b; mu) (docs/conventions.md#orbit-maps),
 *                          equal to mu + coad(b, mu) + O(b^2);
 *      dorbit(b,db,mu,dmu) its derivative d/dt O_exp(b + t db; mu + t dmu) at t = 0
 *                          (dmu may be NULL: no variation of mu).
 *  - matrix level (J-quadratic systems, docs/conventions.md#algebras; `N > 0`): the state part mu is a
 *    skew-Hermitian N x N matrix X = unpack(mu), generators are matrices B_k(X) =
 *    xi_k^* with dX = sum_k [B_k(X), X] o dS^k (docs/conventions.md#sde), and an algebra element b
 *    is packed like the state (so b = pack(B)). `slpi_ref_matrix_attach` then fills
 *    the coordinate level generically: gen = pack(B_k), coad(b, mu) = pack([B, X]),
 *    orbit = pack(e^B X e^{-B}) with a rigorous exponential.
 *
 * Every function takes balls and returns balls containing the exact value for every
 * point of the input balls (parametric enclosure), at the precision `prec` passed
 * explicitly. Outputs never alias inputs unless a comment says so.
 * Invariants: `n_inv` named scalars (H0 first, then Casimirs, ...); `inv_name` and
 * `inv_delta_name` are static strings in the diagnostics' one vocabulary of both paths
 * (docs/architecture.md#twin-diagnostics): NAME, and NAME_dev = NAME(x) - NAME(x0), or
 * NAME_rel_dev = (NAME(x) - NAME(x0)) / NAME(x0) where `inv_rel` is set, as the double path
 * reports it. `departures` adds quantities of x against x0 that the double path reports
 * beside them (eig_dev, ...), named `dep_name`.
 */
#ifndef SLPI_REF_SYSTEM_H
#define SLPI_REF_SYSTEM_H

#include <stddef.h>
typedef struct slpi_error slpi_error; /* slpi/errors.h */
typedef struct slpi_problem slpi_problem;
typedef struct slpi_plan slpi_plan;
#include "core/slpi-flint.h"
#include "ref/vec.h"
#include "ref/mrmat.h"

#define SLPI_REF_MAX_INV 16

typedef struct slpi_ref_system slpi_ref_system;

struct slpi_ref_system {
    const char *name;      /* the registry's system name (slpi_system_name) */
    const slpi_problem *p; /* the problem (parameters as binary64, treated as exact) */
    int state_dim;         /* slpi_problem_state_dim(p) */
    int dim;               /* entries of mu at the start of the state vector */
    int gdim;              /* coordinates of an algebra element */
    int M;                 /* number of Wiener processes (H_1..H_M) */
    int h0_quadratic;      /* 1 if H0 is a quadratic form (energy certificates) */
    void *data;            /* system-private data */

    /* coordinate level (filled by the system, or by slpi_ref_matrix_attach) */
    void (*gen)(const slpi_ref_system *s, int k, arb_ptr b, arb_srcptr mu, slong prec);
    void (*dgen)(const slpi_ref_system *s, int k, arb_ptr db, arb_srcptr mu, arb_srcptr w, slong prec);
    void (*coad)(const slpi_ref_system *s, arb_ptr out, arb_srcptr b, arb_srcptr mu, slong prec);
    void (*orbit)(const slpi_ref_system *s, arb_ptr out, arb_srcptr b, arb_srcptr mu, slong prec);
    void (*dorbit)(const slpi_ref_system *s, arb_ptr out, arb_srcptr b, arb_srcptr db, arb_srcptr mu, arb_srcptr dmu,
                   slong prec);
    /* lie(a, b): the operator L_a b such that the left-trivialized truncated
     * dexp^{-1}_a(v) = sum_j B+_j/j! L_a^j v (docs/schemes.md#rkmk) in these coordinates:
     * ad_a b = [a, b] in coordinates, -[A, B] in the B-form of matrix systems. */
    void (*lie)(const slpi_ref_system *s, arb_ptr out, arb_srcptr a, arb_srcptr b, slong prec);

    /* matrix level: N = 0 if the system has no matrix form (heavy top, se(3)) */
    int N;
    /* non-NULL: why a step whose products do not take the BLAS route (ref/mrmat.h) cannot
     * be certified here (euler-zeitlin at N > SLPI_ZEITLIN_ARB_NMAX); NULL otherwise */
    const char *blas_only;
    void (*m_unpack)(const slpi_ref_system *s, acb_mat_t X, arb_srcptr mu, slong prec);
    void (*m_pack)(const slpi_ref_system *s, arb_ptr mu, const acb_mat_t X, slong prec);
    void (*m_gen)(const slpi_ref_system *s, int k, acb_mat_t B, const acb_mat_t X, slong prec);
    void (*m_dgen)(const slpi_ref_system *s, int k, acb_mat_t dB, const acb_mat_t X, const acb_mat_t W, slong prec);
    /* optional: the generators computed in coordinates, b = pack(B_k(unpack mu)), or
     * their derivative along w when w != NULL (the sign B_k = xi_k^* included); from it
     * slpi_ref_matrix_attach makes m_gen and m_dgen (unpack o gen_packed o pack), and
     * slpi_ref_packed_gen/dgen are the coordinate level's gen/dgen without matrices. */
    void (*gen_packed)(const slpi_ref_system *s, int k, arb_ptr b, arb_srcptr mu, arb_srcptr w, slong prec);
    /* optional (NULL: summed from mgen/mdgen): B = sum_k delta_k B_k(X) if W == NULL,
     * else sum_k delta_k DB_k(X)[W], in one pass (systems with many generators). */
    void (*m_gen_sum)(const slpi_ref_system *s, acb_mat_t B, const double *delta, const acb_mat_t X, const acb_mat_t W,
                      slong prec);
    /* optional, on the BLAS route (ref/mrmat.h): m_gen_sum on N x N complex matrices of
     * midpoint-radius doubles (B's arrays the caller's), for a system packed as su(N)
     * (slpi_ref_sun_pack); 0 where it cannot (B undefined): then m_gen_sum on balls.
     * B->rad NULL: B's midpoints alone, the same bits, no radius formed or read. */
    int (*m_gen_sum_mr)(const slpi_ref_system *s, slpi_ref_mr *B, const double *delta, const slpi_ref_mr *X,
                        const slpi_ref_mr *W, slong prec);
    /* optional (NULL: ISOMP works on matrices): out = pack(A Y C + C Y A) for packed a,
     * y, c (skew-Hermitian for skew-Hermitian A, Y, C). A system that sets it, with
     * gen/dgen/coad in closed form, lets ISOMP run its fixed-point map in coordinates
     * (rigid body: hat identities, no 3x3 matrices). */
    void (*m_sandwich)(const slpi_ref_system *s, arb_ptr out, arb_srcptr a, arb_srcptr y, arb_srcptr c, slong prec);

    /* invariants of the state x (full state vector) */
    int n_inv;
    const char *inv_name[SLPI_REF_MAX_INV];
    const char *inv_delta_name[SLPI_REF_MAX_INV];
    unsigned char inv_rel[SLPI_REF_MAX_INV]; /* 1: the departure is relative (NAME_rel_dev) */
    void (*invariants)(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec);
    /* optional (n_dep = 0): n_dep quantities of the state x against x0, named dep_name */
    int n_dep;
    const char *dep_name[SLPI_REF_MAX_INV];
    void (*departures)(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, arb_srcptr x0, slong prec);

    /* x = the initial state from core's coefficient description (slpi_problem_initial_state
     * of kind ZEITLIN or FOURIER) with this path's certified basis; NULL for systems whose
     * initial states are always values. */
    void (*initial_map)(const slpi_ref_system *s, arb_ptr x, const double *c, slong prec);

    /* optional (NULL: never): 1 if an evaluation since the last call met a domain error
     * (a model's log, sqrt or power of a ball reaching 0 or below, ...: its outputs were
     * made indeterminate), with the reason in why; the record is cleared. slpi_ref_step
     * then calls the attempt UNABLE with that reason (ref/model.c). */
    int (*fault)(const slpi_ref_system *s, char *why, size_t why_len);

    /* the time grid (docs/models.md#time): step is the index n of the step being taken
     * (slpi_ref_step sets it); at_time, optional (NULL: the Hamiltonians do not read t),
     * makes every evaluation from now on read t = t0 + (n + half/2) h, exactly in balls.
     * The schemes call it through slpi_ref_time. */
    long step;
    void (*at_time)(const slpi_ref_system *s, long n, int half, double h, slong prec);

    void (*clear)(slpi_ref_system *s); /* frees data; may be NULL */
};

/* The Hamiltonians of the step being taken are read at its stage c = half/2 from here on:
 * t = t0 + (n + c) h (docs/schemes.md#time says each scheme's stages). No-op for systems
 * that do not read t. */
static inline void slpi_ref_time(const slpi_ref_system *s, int half, const double *delta, slong prec)
{
    if (s->at_time != NULL) s->at_time(s, s->step, half, delta[0], prec);
}

/* --------------------------------------------------------------- systems
 * A built-in system's constructor, slpi_ref_sys_<name> in ref/<name>.c (one per system
 * file), fills *s for problem p (s zeroed by slpi_ref_system_init) or returns SLPI_EINPUT
 * with a message. ref/system.c declares each beside its row of the table, so a new system's
 * constructor needs no line here; a test that builds one system directly declares the one
 * it calls. */
typedef int slpi_ref_system_ctor(slpi_ref_system *s, const slpi_problem *p, slpi_error *err);
/* A model described as data (docs/models.md; ref/model.c): an algebra family below and
 * Hamiltonians as expressions, evaluated in balls with exact derivatives; the expressions
 * are the ones p's plan parsed (slpi_plan_model), and the system holds a reference to the
 * plan until it is cleared. */
int slpi_ref_sys_model(slpi_ref_system *s, const slpi_problem *p, const slpi_plan *plan, slpi_error *err);
/* Zeroes *s, then dispatches on p->system (a slot the system does not fill reads NULL
 * or 0, whatever the caller's memory held); clears nothing on failure. plan: p's plan,
 * which a model's system reads (NULL: a built-in system, which needs none). */
int slpi_ref_system_init(slpi_ref_system *s, const slpi_problem *p, const slpi_plan *plan, slpi_error *err);
void slpi_ref_system_clear(slpi_ref_system *s);

#endif
