/* ref/ref.h — internal interface of the certified Arb path (docs/design.md#two-paths, docs/conventions.md#sde).
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
 * `inv_delta_name` are static strings ("H0", "H0-H0(x0)").
 */
#ifndef SLPI_REF_H
#define SLPI_REF_H

#include "slpi.h"
#ifdef SLPI_FLINT3             /* the switch of config.mk, as in slpi.h */
#include <flint/arb_mat.h>
#include <flint/acb_mat.h>
#else
#include <arb_mat.h>
#include <acb_mat.h>
#endif

#define SLPI_REF_MAX_INV 16

typedef struct slpi_ref_system slpi_ref_system;

struct slpi_ref_system {
    const char *name;        /* the registry's system name (slpi_system_name) */
    const slpi_problem *p;   /* the problem (parameters as binary64, treated as exact) */
    int state_dim;           /* slpi_problem_state_dim(p) */
    int dim;                 /* entries of mu at the start of the state vector */
    int gdim;                /* coordinates of an algebra element */
    int M;                   /* number of Wiener processes (H_1..H_M) */
    int h0_quadratic;        /* 1 if H0 is a quadratic form (energy certificates) */
    void *data;              /* system-private data */

    /* coordinate level (filled by the system, or by slpi_ref_matrix_attach) */
    void (*gen)(const slpi_ref_system *s, int k, arb_ptr b, arb_srcptr mu, slong prec);
    void (*dgen)(const slpi_ref_system *s, int k, arb_ptr db, arb_srcptr mu,
                 arb_srcptr w, slong prec);
    void (*coad)(const slpi_ref_system *s, arb_ptr out, arb_srcptr b, arb_srcptr mu,
                 slong prec);
    void (*orbit)(const slpi_ref_system *s, arb_ptr out, arb_srcptr b, arb_srcptr mu,
                  slong prec);
    void (*dorbit)(const slpi_ref_system *s, arb_ptr out, arb_srcptr b, arb_srcptr db,
                   arb_srcptr mu, arb_srcptr dmu, slong prec);
    /* lie(a, b): the operator L_a b such that the left-trivialized truncated
     * dexp^{-1}_a(v) = sum_j B+_j/j! L_a^j v (docs/schemes.md#rkmk) in these coordinates:
     * ad_a b = [a, b] in coordinates, -[A, B] in the B-form of matrix systems. */
    void (*lie)(const slpi_ref_system *s, arb_ptr out, arb_srcptr a, arb_srcptr b,
                slong prec);

    /* matrix level: N = 0 if the system has no matrix form (heavy top, se(3)) */
    int N;
    void (*m_unpack)(const slpi_ref_system *s, acb_mat_t X, arb_srcptr mu, slong prec);
    void (*m_pack)(const slpi_ref_system *s, arb_ptr mu, const acb_mat_t X, slong prec);
    void (*m_gen)(const slpi_ref_system *s, int k, acb_mat_t B, const acb_mat_t X,
                 slong prec);
    void (*m_dgen)(const slpi_ref_system *s, int k, acb_mat_t dB, const acb_mat_t X,
                  const acb_mat_t W, slong prec);
    /* optional (NULL: summed from mgen/mdgen): B = sum_k delta_k B_k(X) if W == NULL,
     * else sum_k delta_k DB_k(X)[W], in one pass (systems with many generators). */
    void (*m_gen_sum)(const slpi_ref_system *s, acb_mat_t B, const double *delta,
                     const acb_mat_t X, const acb_mat_t W, slong prec);
    /* optional (NULL: ISOMP works on matrices): out = pack(A Y C + C Y A) for packed a,
     * y, c (skew-Hermitian for skew-Hermitian A, Y, C). A system that sets it, with
     * gen/dgen/coad in closed form, lets ISOMP run its fixed-point map in coordinates
     * (rigid body: hat identities, no 3x3 matrices). */
    void (*m_sandwich)(const slpi_ref_system *s, arb_ptr out, arb_srcptr a, arb_srcptr y,
                     arb_srcptr c, slong prec);

    /* invariants of the state x (full state vector) */
    int n_inv;
    const char *inv_name[SLPI_REF_MAX_INV];
    const char *inv_delta_name[SLPI_REF_MAX_INV];
    void (*invariants)(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec);

    /* x = the initial state from core's coefficient description (slpi_problem_initial_state
     * of kind ZEITLIN or FOURIER) with this path's certified basis; NULL for systems whose
     * initial states are always values. */
    void (*initial_map)(const slpi_ref_system *s, arb_ptr x, const double *c, slong prec);

    /* optional (NULL: never): 1 if an evaluation since the last call met a domain error
     * (a model's log, sqrt or power of a ball reaching 0 or below, ...: its outputs were
     * made indeterminate), with the reason in why; the record is cleared. slpi_ref_step
     * then calls the attempt UNABLE with that reason (ref/model.c). */
    int (*fault)(const slpi_ref_system *s, char *why, size_t why_len);

    void (*clear)(slpi_ref_system *s);   /* frees data; may be NULL */
};

/* --------------------------------------------------------------- systems
 * Each fills *s for problem p (s zeroed by the caller) or returns SLPI_EINPUT with a
 * message. One per system file. */
int slpi_ref_sys_rigid_body(slpi_ref_system *s, const slpi_problem *p, slpi_error *err);
int slpi_ref_sys_heavy_top(slpi_ref_system *s, const slpi_problem *p, slpi_error *err);
int slpi_ref_sys_manakov(slpi_ref_system *s, const slpi_problem *p, slpi_error *err);
int slpi_ref_sys_point_vortices(slpi_ref_system *s, const slpi_problem *p, slpi_error *err);
int slpi_ref_sys_euler_zeitlin(slpi_ref_system *s, const slpi_problem *p, slpi_error *err);
int slpi_ref_sys_sine_euler(slpi_ref_system *s, const slpi_problem *p, slpi_error *err);
/* A model described as data (docs/models.md; ref/model.c): an algebra family below and
 * Hamiltonians as expressions, evaluated in balls with exact derivatives. */
int slpi_ref_sys_model(slpi_ref_system *s, const slpi_problem *p, slpi_error *err);
/* Dispatch on p->system; clears nothing on failure. */
int slpi_ref_system_init(slpi_ref_system *s, const slpi_problem *p, slpi_error *err);
void slpi_ref_system_clear(slpi_ref_system *s);

/* Shared vector fields (ref/vector-field.c), delta = (Delta_0..Delta_M) exact binary64:
 *   gen_sum:  b = sum_k delta_k b_k(mu);          dgen_sum: db = sum_k delta_k Db_k(mu)[w];
 *   vf:       V = coad(gen_sum(mu), mu) = sum_k delta_k V_k(mu);
 *   dvf:      DV(mu)[w] = coad(dgen_sum(mu, w), mu) + coad(gen_sum(mu), w). */
void slpi_ref_gen_sum(const slpi_ref_system *s, arb_ptr b, const double *delta,
                      arb_srcptr mu, slong prec);
void slpi_ref_dgen_sum(const slpi_ref_system *s, arb_ptr db, const double *delta,
                       arb_srcptr mu, arb_srcptr w, slong prec);
void slpi_ref_vf(const slpi_ref_system *s, arb_ptr out, const double *delta,
                 arb_srcptr mu, slong prec);
void slpi_ref_dvf(const slpi_ref_system *s, arb_ptr out, const double *delta,
                  arb_srcptr mu, arb_srcptr w, slong prec);
/* SLPI_EINPUT unless the state is mu alone (no R): schemes on the LP variable only. */
int slpi_ref_check_plain(const slpi_ref_system *s, const char *scheme, slpi_error *err);
/* out = a × b in R^3 (out may alias a or b). */
void slpi_ref_cross(arb_ptr out, arb_srcptr a, arb_srcptr b, slong prec);
/* max radius of a ball vector, as a double (rounded up) */
double slpi_ref_vec_radius(arb_srcptr x, int n);

/* ------------------------------------------------------- algebra families
 * The structure of each family (docs/conventions.md#algebras), written once in its
 * built-in system's file and shared with ref/model.c (docs/models.md). Invariant 0 is H0,
 * the system's own; the Casimir functions fill invariants 1..n_inv-1, the name functions
 * set their names and s->n_inv (s->dim and s->N set first).
 *   so(3), hat map (ref/rigid-body.c): X = hat x; coad(b, x) = b × x;
 *     sandwich as the slpi_ref_system field. */
void slpi_ref_so3_m_unpack(const slpi_ref_system *s, acb_mat_t X, arb_srcptr x, slong prec);
void slpi_ref_so3_m_pack(const slpi_ref_system *s, arb_ptr x, const acb_mat_t X, slong prec);
void slpi_ref_so3_coad(const slpi_ref_system *s, arb_ptr out, arb_srcptr b, arb_srcptr mu,
                       slong prec);
void slpi_ref_so3_m_sandwich(const slpi_ref_system *s, arb_ptr out, arb_srcptr a, arb_srcptr y,
                           arb_srcptr c, slong prec);
/*   se(3) in (pi, gamma), dot pairing (ref/heavy-top.c): the fields coad, lie, orbit, dorbit. */
void slpi_ref_se3_coad(const slpi_ref_system *s, arb_ptr out, arb_srcptr b, arb_srcptr mu,
                       slong prec);
void slpi_ref_se3_lie(const slpi_ref_system *s, arb_ptr out, arb_srcptr a, arb_srcptr b,
                      slong prec);
void slpi_ref_se3_orbit(const slpi_ref_system *s, arb_ptr out, arb_srcptr sigma, arb_srcptr mu,
                        slong prec);
void slpi_ref_se3_dorbit(const slpi_ref_system *s, arb_ptr out, arb_srcptr sigma,
                         arb_srcptr dsigma, arb_srcptr mu, arb_srcptr dmu, slong prec);
/*   so(n), X_ij for i < j row-major, n = s->N (ref/manakov.c). */
void slpi_ref_so_m_unpack(const slpi_ref_system *s, acb_mat_t X, arb_srcptr x, slong prec);
void slpi_ref_so_m_pack(const slpi_ref_system *s, arb_ptr x, const acb_mat_t X, slong prec);
void slpi_ref_so_casimirs(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec);
void slpi_ref_so_casimir_names(slpi_ref_system *s);
/*   su(N), packed as slpi_ref_sun_unpack below, N = s->N (ref/euler-zeitlin.c). */
void slpi_ref_su_casimirs(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec);
void slpi_ref_su_casimir_names(slpi_ref_system *s);
/*   so(3)^k = su(2)^k, x_1..x_k in R^3, blocks E(x_i) of size b: 2 (model A,
 *   E_c = -i sigma_c / sqrt2) or 3 (model B, hat) (ref/point-vortices.c). */
void slpi_ref_so3k_m_unpack(acb_mat_t X, arb_srcptr x, int k, int b, slong prec);
void slpi_ref_so3k_m_pack(arb_ptr x, const acb_mat_t X, int k, int b, slong prec);
void slpi_ref_so3k_casimirs(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec);
void slpi_ref_so3k_casimir_names(slpi_ref_system *s);

/* --------------------------------------------------------- matrix helpers
 * (ref/matrix.c) */
/* Fill gen/dgen/coad/orbit/dorbit/lie of a matrix system from N, unpack, pack, mgen,
 * mdgen (gdim = dim: algebra elements are packed like the state). */
void slpi_ref_matrix_attach(slpi_ref_system *s);
/* B = sum_k delta_k B_k(X) and dB = sum_k delta_k DB_k(X)[W] (matrix level). */
void slpi_ref_mat_gen_sum(const slpi_ref_system *s, acb_mat_t B, const double *delta,
                          const acb_mat_t X, slong prec);
void slpi_ref_mat_dgen_sum(const slpi_ref_system *s, acb_mat_t dB, const double *delta,
                           const acb_mat_t X, const acb_mat_t W, slong prec);
/* su(N) packed layout of slpi.h (Im X_aa, then Re X_ab, Im X_ab for a < b):
 * x has N^2 entries; X is skew-Hermitian. */
void slpi_ref_sun_unpack(acb_mat_t X, arb_srcptr x, int N, slong prec);
void slpi_ref_sun_pack(arb_ptr x, const acb_mat_t X, int N, slong prec);
/* C = [A, B] = AB - BA (C must not alias A or B). */
void slpi_ref_mat_comm(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec);
/* C = AB (no aliasing): from 24 x 24 on by four real products with Arb's arb_mat_mul
 * (block algorithm: exact integer midpoint products, radii in floating point), about
 * 2x faster than acb_mat_mul at N = 128; acb_mat_mul below. */
void slpi_ref_mat_mul(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec);
/* C ~ AB from the midpoints of A and B, without an error bound (radii zero): three
 * real products (Gauss) with arb_mat_approx_mul. Only for approximate iterates
 * (midpoint iterations), never for an enclosure. */
void slpi_ref_mat_mul_approx(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec);
/* C = P - P^* (C may alias P). For P = AB with A, B skew-Hermitian, (AB)^* = BA, so
 * C = [A, B]: the commutator of skew-Hermitian matrices from one product. Sound for
 * ball matrices every point of which is skew-Hermitian (the unpacked states and the
 * generators of a J-quadratic system). */
void slpi_ref_mat_skew_part(acb_mat_t C, const acb_mat_t P, slong prec);
/* C = [A, B] = AB - (AB)^* for skew-Hermitian A, B (as above); C must not alias. */
void slpi_ref_mat_comm_skew(acb_mat_t C, const acb_mat_t A, const acb_mat_t B, slong prec);
/* Rigorous e^A for a ball matrix A (contains e^A for every A in the ball). */
void slpi_ref_mat_exp(acb_mat_t E, const acb_mat_t A, slong prec);
/* E = e^A and dE = d/dt e^{A + t W} at t = 0 (block-matrix exponential). */
void slpi_ref_mat_dexp(acb_mat_t E, acb_mat_t dE, const acb_mat_t A, const acb_mat_t W,
                       slong prec);
/* Traces of powers for Casimirs: T[j] = Tr(X^(j+1)), j < kmax. */
void slpi_ref_mat_trace_powers(acb_ptr T, const acb_mat_t X, int kmax, slong prec);
/* Sorted eigenvalue enclosures of the Hermitian iX for skew-Hermitian X (N x N, lam: N
 * balls). Returns 2 if isolated as simple eigenvalues, 1 if only enclosed as clusters
 * (acb_mat_eig_multiple; a run of overlapping balls gets their hull), 0 if Arb cannot
 * enclose them (lam is then indeterminate). */
int slpi_ref_mat_eig_skewh(arb_ptr lam, const acb_mat_t X, slong prec);

/* ---------------------------------------------------------- certification
 * (ref/krawczyk.c) One generic Krawczyk / interval-Newton enclosure for every
 * implicit scheme: find the unique zero of F: R^n -> R^n near `guess`.
 *   F(ctx, out, y, prec): a ball enclosure of F over the ball vector y (the scheme's
 *                         parameters, e.g. the previous state, may themselves be
 *                         balls: the enclosure is then parametric);
 *   J(ctx, Jm, Y, prec):  an enclosure of the Jacobian F'(y) for all y in the box Y
 *                         (and all parameters in their balls);
 *   Japprox (optional):   a cheap approximate Jacobian for the preconditioner.
 * On success y holds balls containing the unique zero in the verified box and the
 * function returns 1; on failure returns 0 and writes a reason into `why`. */
typedef struct {
    int n;
    void *ctx;
    void (*F)(void *ctx, arb_ptr out, arb_srcptr y, slong prec);
    void (*J)(void *ctx, arb_mat_t Jm, arb_srcptr Y, slong prec);
    /* optional (may be NULL, then J): a cheap approximation of F' at a point, used only
     * for Newton's midpoint iteration and the preconditioner, never for the test */
    void (*Japprox)(void *ctx, arb_mat_t Jm, arb_srcptr y, slong prec);
} slpi_ref_fn;

int slpi_ref_krawczyk(arb_ptr y, const slpi_ref_fn *f, arb_srcptr guess, slong prec,
                      char *why, size_t why_len);
/* The solvers' work on this thread since the last call (midpoint iterations plus
 * enclosure tests, every solve and precision included), and reset it to 0. */
long slpi_ref_iterations_take(void);
/* Jacobian-free enclosure of the unique fixed point of a contraction G near `guess`
 * (Krawczyk with preconditioner I; ref/krawczyk.c):
 *   G(ctx, out, y, prec):      a ball enclosure of G over the ball vector y;
 *   dG(ctx, out, Y, Z, prec):  an enclosure of {G'(y) z : y in Y, z in Z} (the
 *                              directional derivative evaluated on balls).
 * Same return convention as slpi_ref_krawczyk; no Jacobian matrix is formed, so it is
 * much cheaper when G contracts well (implicit midpoint stages at small steps). */
typedef struct {
    int n;
    void *ctx;
    void (*G)(void *ctx, arb_ptr out, arb_srcptr y, slong prec);
    void (*dG)(void *ctx, arb_ptr out, arb_srcptr Y, arb_srcptr Z, slong prec);
    /* optional (NULL: G): G at a point to about prec bits with no error bound, for the
     * midpoint iteration only; with it, the iteration runs at prec/2 bits first. */
    void (*Gmid)(void *ctx, arb_ptr out, arb_srcptr y, slong prec);
} slpi_ref_fixmap;

int slpi_ref_krawczyk_fixed_point(arb_ptr y, const slpi_ref_fixmap *g, arb_srcptr guess,
                                  slong prec, char *why, size_t why_len);
/* The implicit schemes' solver for y = G(y) (F = y - G): the Jacobian-free test of g
 * first, kept if its radius is within 5/4 of that of G at the midpoint (always kept
 * above SLPI_REF_DENSE_MAX unknowns, where no dense test is tried); otherwise (or
 * if it fails) the dense Krawczyk test on F, with Jacobian J (an enclosure of F' over
 * a box, called with g->ctx) or, if J is NULL, I - G' by columns of dG; Japprox (may
 * be NULL) approximates F' for the preconditioner. The wider certified enclosure if
 * only the first test succeeds. Same return convention as slpi_ref_krawczyk. */
#define SLPI_REF_DENSE_MAX 256   /* Euler-Zeitlin N = 16: n^2 Jacobian entries */
int slpi_ref_solve(arb_ptr y, const slpi_ref_fixmap *g,
                   void (*J)(void *ctx, arb_mat_t Jm, arb_srcptr Y, slong prec),
                   void (*Japprox)(void *ctx, arb_mat_t Jm, arb_srcptr y, slong prec),
                   arb_srcptr guess, slong prec, char *why, size_t why_len);
/* The Jacobian of f over the box Y column by column from a directional derivative
 * dF(ctx, out, Y, w, prec) = F'(Y)[w] (w = unit vectors). */
void slpi_ref_jacobian_columns(arb_mat_t Jm, int n, void *ctx,
                               void (*dF)(void *ctx, arb_ptr out, arb_srcptr Y,
                                          arb_srcptr w, slong prec),
                               arb_srcptr Y, slong prec);

/* ------------------------------------------------------------- schemes
 * One file per scheme. A scheme step maps the state x (state_dim balls, in place) with
 * increments Delta = (h, dW_1..dW_M) at precision prec; it returns
 * SLPI_STEP_CONVERGED with every output ball certified, or SLPI_STEP_UNABLE with a
 * reason in why (the caller then retries at doubled precision). `check` rejects
 * N/A pairs and unsupported options with SLPI_EINPUT. */
typedef struct slpi_ref_scheme slpi_ref_scheme;

/* The scheme table, the same shape as fast/fast.h's slpi_fast_scheme: id, check, step, then
 * the path's own slot (here jac; there init). */
struct slpi_ref_scheme {
    slpi_scheme_id id;
    int (*check)(const slpi_ref_system *s, const slpi_problem *p, slpi_error *err);
    slpi_step_status (*step)(const slpi_ref_system *s, arb_ptr x, const double *delta,
                             slong prec, char *why, size_t why_len);
    /* optional (NULL: none): an enclosure J (state_dim^2) of the step map's Jacobian
     * D Phi(xi) for every xi in the box x, for the mean-value (Lohner) propagation of
     * slpi_ref_step; 0 with a reason where the scheme's options give none. */
    int (*jac)(const slpi_ref_system *s, arb_mat_t J, arb_srcptr x, const double *delta,
               slong prec, char *why, size_t why_len);
};

extern const slpi_ref_scheme slpi_ref_scheme_tmk;
extern const slpi_ref_scheme slpi_ref_scheme_rkmk_le;
extern const slpi_ref_scheme slpi_ref_scheme_rkmk_heun;
extern const slpi_ref_scheme slpi_ref_scheme_im_direct;
extern const slpi_ref_scheme slpi_ref_scheme_trap_direct;
extern const slpi_ref_scheme slpi_ref_scheme_isomp;
extern const slpi_ref_scheme slpi_ref_scheme_svi;
/* SVI-LP, the matrix form of the SVI scheme (ref/svi-lp.c), dispatched from svi. */
slpi_step_status slpi_ref_svi_lp_step(const slpi_ref_system *s, arb_ptr x,
                                      const double *delta, slong prec, char *why,
                                      size_t why_len);
/* Certified Poisson-map defect of one SVI step in vector form (ref/svi.c):
 * D J(p_k) D^T - J(p_{k+1}), p = Pi (rigid body, d = 3) or (Pi, Gamma) (heavy top,
 * d = 6), D = dp_{k+1}/dp_k by the implicit function theorem on the enclosed zero
 * (row-major d x d in defect); 0 with a reason on failure. */
int slpi_ref_svi_poisson_defect(const slpi_ref_system *s, arb_srcptr x, const double *delta,
                                arb_ptr defect, slong prec, char *why, size_t why_len);
/* The scheme table, indexed by slpi_scheme_id. */
const slpi_ref_scheme *slpi_ref_scheme_get(slpi_scheme_id k);

/* ------------------------------------------------------------ the run object */

/* The certified path's run object (slpi.h's slpi_ref; ref/ref.c), shared by the files of
 * its concerns: the Lohner propagation (ref/lohner.c), the Poisson defect
 * (ref/poisson-defect.c) and the diagnostics (ref/diagnostics.c).
 *
 * Mean-value (Lohner) propagation (slpi_ref_set_lohner) for schemes with a step Jacobian
 * and states of at most SLPI_REF_LOHNER_MAX entries: the trajectory this object produced is kept as the set
 * c + A r (c exact, A an exact invertible matrix, r a ball vector) and stepped
 *     Phi(c + A r) in Phi(c) + J (A r),  J enclosing D Phi over the box hull of the set,
 * then re-centred c' = mid Phi(c), A' = mid(J A) while its condition number stays
 * below LOHNER_COND_MAX (ref/lohner.c; the parallelepiped method: no growth for elliptic motion),
 * else the Q of its QR factorisation (Lohner 1987, "QR method"), and
 * r' = (A'^{-1} J A) r + A'^{-1} (Phi(c) - c'), A'^{-1} enclosed by arb_mat_inv. The ball
 * returned is the hull c' + A' r' intersected with the plain ball trajectory, stepped
 * alongside (so no ball is wider than the plain path's, and where the hull holds the
 * plain ball it is that ball, bit for bit). Only the rounding and the curvature of Phi over
 * the box enter as box wrapping, so the radius grows like the trajectory's own
 * sensitivity (up to the wrapping of r through A'^{-1} J A) instead of like |D Phi|
 * entrywise. A state other than the last output
 * starts afresh (c = mid x, A = I, r = 0 +/- rad x). */
#define SLPI_REF_LOHNER_MAX 64

typedef struct {
    int valid, plain_ok;
    arb_ptr c, r, out;        /* centre, coefficients, last output */
    arb_ptr plain;            /* the plain ball trajectory from the same start */
    arb_mat_t A;
} slpi_ref_lohner_set;

struct slpi_ref {
    slpi_problem p;
    slpi_ref_system sys;
    const slpi_ref_scheme *scheme;
    long step_index;          /* steps attempted so far */
    double *delta;            /* (h, dW_1..dW_M) */
    arb_ptr work;             /* copy of the state for retries */
    slpi_ref_lohner_set *lo;  /* NULL: plain ball steps */
    char why[256];            /* reason of the last UNABLE */
};

/* the precision ladder prec, 2 prec, 4 prec, ..., ending exactly at prec_max; 0 after */
long slpi_ref_next_prec(long prec, long prec_max);
/* Whether the scheme's certified step Jacobian serves this problem (the Lohner propagation
 * and ISOMP's Poisson defect use it). */
int slpi_ref_has_step_jacobian(const slpi_ref *s);
/* One Lohner step of the set behind x (ref/lohner.c) at prec; the set's release. */
slpi_step_status slpi_ref_lohner_step(slpi_ref *s, arb_ptr x, slong prec, char *why, size_t why_len);
void slpi_ref_lohner_free(slpi_ref *s);

#endif
