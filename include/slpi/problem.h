/* slpi/problem.h — a problem: its keys, presets, shape and initial state (part of slpi.h). */
#ifndef SLPI_PUBLIC_PROBLEM_H
#define SLPI_PUBLIC_PROBLEM_H

#include <stddef.h>
#include <stdio.h>

#include "slpi/errors.h"
#include "slpi/registry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------- problem model */

/* Enumerated options (the string names are in core/problem-keys.c's key table). */
typedef enum { SLPI_RB_FORM_ISO, SLPI_RB_FORM_SVI } slpi_rb_form;
typedef enum {
    SLPI_RB_NOISE_NONE,      /* M = 0 */
    SLPI_RB_NOISE_ISO_QUAD,  /* H_i = amp x_i^2 (Frobenius), i = 1..3   (ISO §6.1) */
    SLPI_RB_NOISE_ISO_QUAD1, /* only H_1 of iso-quad, M = 1            (derived)  */
    SLPI_RB_NOISE_SVI_LIN,   /* h_i = amp e_i . Pi, i = 1..3            (SVI §7.1) */
    SLPI_RB_NOISE_SVI_LIN1,  /* h_1 = amp/sqrt3 (1,1,1) . Pi, M = 1     (choice)   */
    SLPI_RB_NOISE_CONST_E3   /* one linear noise chi = amp e_3 (weak-exact oracles) */
} slpi_rb_noise;

typedef enum { SLPI_HT_FORM_RKMK, SLPI_HT_FORM_SVI } slpi_ht_form;
typedef enum {
    SLPI_HT_NOISE_NONE,
    SLPI_HT_NOISE_SALT,      /* h_1 = alpha . pi                  (RKMK §5)        */
    SLPI_HT_NOISE_CASE1,     /* h_1 = k1 Pi_z                      (SVI §8.3)       */
    SLPI_HT_NOISE_CASE2,     /* h_1 = mg k1 Gamma_z                                 */
    SLPI_HT_NOISE_CASE2_PI2, /* h_1 = k1 |Pi|^2                                     */
    SLPI_HT_NOISE_CASE3,     /* h_1 = mg k1 Gamma_x, h_2 = mg k2 Gamma_y            */
    SLPI_HT_NOISE_CASE3_PI   /* h_1 = k1 Pi_x, h_2 = k2 Pi_y                        */
} slpi_ht_noise;

typedef enum { SLPI_VORTEX_MODEL_A, SLPI_VORTEX_MODEL_B } slpi_vortex_model;
/* Q and L: the built-in noise (43)/(44); MODES: the user's list noise_modes; FIELDS: the
 * user's file of fields xi_k, noise_fields (docs/systems.md#zeitlin-family) */
typedef enum {
    SLPI_EZ_NOISE_NONE,
    SLPI_EZ_NOISE_Q,
    SLPI_EZ_NOISE_L,
    SLPI_EZ_NOISE_MODES,
    SLPI_EZ_NOISE_FIELDS
} slpi_ez_noise;
typedef enum { SLPI_SE_IC_CANONICAL, SLPI_SE_IC_RANDOM, SLPI_SE_IC_COMPLEX } slpi_se_ic;
typedef enum { SLPI_CAP_FAIL, SLPI_CAP_ACCEPT } slpi_cap_policy;
typedef enum { SLPI_ISO_UPDATE_COMM, SLPI_ISO_UPDATE_CAY } slpi_isomp_update;
/* The certified path's products of su(N)/so(n) ISOMP steps (docs/design.md#blas-route). */
typedef enum { SLPI_MATMUL_AUTO, SLPI_MATMUL_ARB, SLPI_MATMUL_BLAS } slpi_matmul_route;
/* The certified path's propagation (key propagation; docs/conventions.md#long-certified): AUTO is
 * the mean-value (Lohner) form wherever the scheme has its certified step Jacobian, else
 * the plain ball form. */
typedef enum { SLPI_PROPAGATION_BALL, SLPI_PROPAGATION_LOHNER, SLPI_PROPAGATION_AUTO } slpi_propagation;
typedef enum { SLPI_SVI_FORM_AUTO, SLPI_SVI_FORM_LP, SLPI_SVI_FORM_SO3, SLPI_SVI_FORM_SD } slpi_svi_form;
typedef enum { SLPI_SVI_OUT_ROTATION, SLPI_SVI_OUT_NODE } slpi_svi_output;
typedef enum { SLPI_SOLVER_FIXED_POINT, SLPI_SOLVER_NEWTON } slpi_solver_kind;
/* tol relative to max(1, |u|) (STATE, default) or to h |u| (STEP, as quflow scales its
 * stopping rule by dt |W|); |.| the max norm of the iterate */
typedef enum { SLPI_TOL_STATE, SLPI_TOL_STEP } slpi_tol_scale;
/* ISOMP's starting guess of the midpoint solve (docs/schemes.md#solver). */
typedef enum { SLPI_PREDICTOR_EULER, SLPI_PREDICTOR_NONE, SLPI_PREDICTOR_CAYLEY } slpi_predictor;
typedef enum { SLPI_TRUNC_AUTO, SLPI_TRUNC_ON, SLPI_TRUNC_OFF } slpi_trunc_mode;

#define SLPI_MAX_X0 64 /* explicit initial conditions longer than this use x0_file */
#define SLPI_PATH_MAX 4096
/* characters of a Zeitlin mode list (noise_modes, background_modes): text below this */
#define SLPI_EZ_MODES_TEXT 4096
/* the text of the key noise_tau (docs/noise.md#ou) */
#define SLPI_NOISE_TAU_TEXT 1024
/* Models (docs/models.md, core/expr.h): characters of one expression (text below this),
 * noise Hamiltonians, parameters, the length of a parameter's name and of its value text. */
#define SLPI_EXPR_MAX_TEXT 4096
#define SLPI_MODEL_MAX_NOISE 16
#define SLPI_MODEL_MAX_PARAMS 32
#define SLPI_MODEL_NAME_MAX 32
#define SLPI_MODEL_PARAM_TEXT                                                                                          \
    800 /* room for any double's exact decimal expansion: at most 767 significant digits, sign, point, exponent (5e-324: 757 characters) */

/* A Hamiltonian H_k of a model given as code (docs/models.md#callbacks), for what an
 * expression cannot reach (a matrix function on a large su(N)). In the model's
 * coordinates mu[0..dim) (the algebra's state layout, docs/models.md#algebras), each
 * function writes its output first and returns 0, or non-zero to stop the run:
 *   grad    dH[i] = dH/dmu_i, the plain partial derivatives (slpi applies the algebra's
 *           pairing weights and, on su(n), the traceless projection, as for an expression)
 *   hvp     Hw[i] = sum_j (d^2 H / dmu_i dmu_j) w_j, the derivative of grad along w (the
 *           TMK chord, Newton and RKMK's dgen need it)
 *   energy  *H = H(mu); optional (NULL): only the diagnostic H0 (k = 0) uses it.
 * Non-finite output or a non-zero return fails the step (exit 3 with the step and the
 * Hamiltonian named). Only the double path evaluates a callback: the certified path,
 * golden files and certified verification refuse a problem that has one, and every
 * output of its runs says it is uncertified. */
typedef int (*slpi_model_grad_fn)(double *dH, const double *mu, int dim, void *user_data);
typedef int (*slpi_model_hvp_fn)(double *Hw, const double *mu, const double *w, int dim, void *user_data);
typedef int (*slpi_model_energy_fn)(double *H, const double *mu, int dim, void *user_data);
typedef struct {
    slpi_model_grad_fn grad; /* NULL: H_k is not a callback */
    slpi_model_hvp_fn hvp;
    slpi_model_energy_fn energy;
    void *user_data;
} slpi_model_callback;

/* A problem: a system, a scheme, parameters, an initial condition, a time grid and a
 * noise specification (docs/design.md#opaque-problem). Opaque: its size depends on no
 * key, so a new key is no ABI change; make one with slpi_problem_new (freed by
 * slpi_problem_free), fill it with keys (slpi_problem_set, slpi_problem_set_key,
 * slpi_problem_preset, slpi_problem_load) and read a key's canonical text back with slpi_problem_get_key. */
typedef struct slpi_problem slpi_problem;

/* The papers' defaults for system s and scheme k. */
void slpi_problem_init(slpi_problem *p, slpi_system_id s, slpi_scheme_id k);
/* Set one key=value (names as in `slpi run --help`); bad key or value → SLPI_EINPUT
 * with a message naming it. Setting "system" or "scheme" resets system defaults. */
int slpi_problem_set(slpi_problem *p, const char *key, const char *value, slpi_error *err);
/* Set n keys at once, those that reset defaults first (preset, scheme, system, form);
 * where[i] (may be NULL) prefixes error messages, e.g. "file:line".
 * NULL: where (no prefixes). */
int slpi_problem_set_all(slpi_problem *p, int n, char *const *keys, char *const *values, const char *const *where,
                         slpi_error *err);
/* Key i of that table (0, 1, ...): its name, the system it belongs to ("" for every
 * system) and its help text; 0 past the last key. */
int slpi_problem_key(int i, const char **name, const char **system, const char **help);
/* Read key=value lines ('#' comments) from a file; errors name file:line. */
int slpi_problem_load(slpi_problem *p, const char *path, slpi_error *err);
/* Apply a docs/experiments.md preset by name to a problem from slpi_problem_init (sets
 * system, scheme and all its keys). */
int slpi_problem_preset(slpi_problem *p, const char *name, slpi_error *err);
/* The one problem builder every command and tool uses: p from the defaults
 * (slpi_problem_init), then the preset (NULL: none), then the key file `config` (NULL:
 * none; the keys preset, system and scheme among the given ones are applied before it, so
 * the file refines the case the caller names), then the n given keys (slpi_problem_set_all:
 * those that reset defaults first; where[i], if where is given, prefixes key i's error).
 * The caller then calls slpi_problem_finish, after any keys of its own.
 * NULL: preset, config, keys and values (when n is 0), where. */
int slpi_problem_build(slpi_problem *p, const char *preset, const char *config, int n, char *const *keys,
                       char *const *values, const char *const *where, slpi_error *err);
/* Resolve T/level into (h, steps), then validate. Call once after all keys are set (a
 * problem whose T or level is not resolved is refused by slpi_fast_create and
 * slpi_ref_create). */
int slpi_problem_finish(slpi_problem *p, slpi_error *err);
/* slpi_problem_finish for a use that steps nothing, where the scheme plays no part (the
 * increments of `slpi noise --config`, the fields of `slpi model`): when the problem's
 * scheme is the only thing refused (a model on se3 with the default isomp), the scheme
 * becomes TMK, which every system and algebra admits; any other refusal is returned. */
int slpi_problem_finish_unstepped(slpi_problem *p, slpi_error *err);
/* SLPI_EINPUT naming who if p has a T or level that slpi_problem_finish has not resolved
 * since the grid last changed. */
int slpi_problem_check_finished(const slpi_problem *p, const char *who, slpi_error *err);
/* Whole-problem validation: ranges, cross-key rules, applicability. */
int slpi_problem_validate(const slpi_problem *p, slpi_error *err);
/* The explicit initial state (x0 values or x0_file) into x[state_dim]: returns 1 if
 * one was given, 0 if the system's default applies, -1 on error (err set). A given
 * state must lie on the system's manifold within SLPI_MANIFOLD_TOL (heavy top |gamma| =
 * 1; R^T R = I, det R = 1 where the state holds R; Euler-Zeitlin and sine-Euler states
 * traceless, relative to max(1, max |x|) per diagonal entry). */
#define SLPI_MANIFOLD_TOL 1e-10
int slpi_problem_explicit_x0(const slpi_problem *p, double *x, slpi_error *err);
/* The same manifold check of a state x[state_dim] given by other means (a binding's array). */
int slpi_problem_check_state(const slpi_problem *p, const double *x, slpi_error *err);
/* Give Hamiltonian k of a model (0: H, k >= 1: noise_Hk) as code instead of an expression
 * (slpi_model_callback above; docs/models.md#callbacks): grad and hvp required, energy
 * may be NULL, user_data is passed back to each. The key H or noise_Hk must then be left
 * unset; a noise callback counts in M like noise_Hk. SLPI_EINPUT naming the reason if p
 * is not system=model, k is out of 0..SLPI_MODEL_MAX_NOISE or grad/hvp is NULL. Setting
 * the key system (or a preset) clears the callbacks.
 * NULL: energy, user_data. */
int slpi_problem_set_callback(slpi_problem *p, int k, slpi_model_grad_fn grad, slpi_model_hvp_fn hvp,
                              slpi_model_energy_fn energy, void *user_data, slpi_error *err);
/* The Hamiltonians of p given as code, as "H,noise_H2" into buf (n bytes; "" if none);
 * returns their number. A problem with any is uncertified in every output. */
int slpi_problem_callbacks(const slpi_problem *p, char *buf, size_t n);
/* Write the problem as key=value lines (round-trips through slpi_problem_load, except
 * for a problem with callbacks: its first line uncertified=callback H,... marks every
 * output written from it, and loading refuses that key, naming why). */
void slpi_problem_write(const slpi_problem *p, FILE *f, const char *prefix);

/* Derived shape of a problem. The state layout is owned by core: both paths, the
 * trajectory files and external ports read and write exactly these doubles.
 *   rigid-body      x (ISO form) or Pi (SVI form): 3; with rb.track_R (SVI form)
 *                   followed by R row-major: 12
 *   heavy-top       RKMK form (pi, gamma): 6; SVI form (Pi, Gamma, R row-major): 15
 *   manakov         X_ij for i < j, row-major: n(n-1)/2
 *   point-vortices  x_1..x_n (x_i in R^3: X_i = sum_k x_ik E_k (model A), hat(x_i) (B)): 3n
 *   su(N): euler-zeitlin and sine-euler
 *                   packed N x N skew-Hermitian X: Im X_aa (a = 0..N-1), then Re X_ab,
 *                   Im X_ab for a < b row-major: N^2 (the trace part included)  */
int slpi_problem_state_dim(const slpi_problem *p);   /* doubles in the state vector */
int slpi_problem_noise_count(const slpi_problem *p); /* M, the number of Wiener processes */
/* Truncation in force for this problem (resolves TRUNC_AUTO per docs/noise.md#truncation). */
int slpi_problem_truncates(const slpi_problem *p);
/* Name of state coordinate i (for TSV column headers), written into buf. */
void slpi_problem_state_name(const slpi_problem *p, int i, char *buf, size_t n);

/* Presets (docs/experiments.md): NULL-terminated table of names and their key=value strings. */
typedef struct {
    const char *name;
    const char *settings;
    const char *what;
} slpi_preset;
const slpi_preset *slpi_presets(void);
/* 1 if stochastic Lie-Euler (rkmk-le) is Stratonovich-consistent for p's system and noise
 * model (its missed drift 1/2 sum_k ad*_{D xi_k[V_k]} mu vanishes; docs/schemes.md#rkmk, claim X4),
 * with the one-line reason in *why; 0 and why not otherwise. NULL: why (no reason). */
int slpi_problem_le_consistent(const slpi_problem *p, const char **why);
/* The SVI formulation problem p runs (docs/schemes.md#svi): svi_form when given, else the
 * SO(3) vector form (so3) for the rigid body and a model on so3, the semidirect form (sd)
 * for the heavy top and the Lie-Poisson matrix form (lp) for the other systems. The one rule both paths and
 * the validator follow (core/registry.c). */
slpi_svi_form slpi_registry_svi_form(const slpi_problem *p);

/* Initial states (core/initial-state.c documents every default, docs/systems.md). The initial
 * state is part of the problem: an explicit x0 / x0_file, or the system's default,
 * described here once for both paths. Most are values in the state layout; the
 * Euler–Zeitlin and sine-Euler defaults are coefficients in a basis of su(N) that each
 * path maps with its own basis (slpi_fast_initial_state: binary64 tables;
 * slpi_ref_initial_state: certified balls), so neither path needs the other. */
typedef enum {
    SLPI_INITIAL_VALUES,  /* slpi_problem_state_dim doubles: the state itself */
    SLPI_INITIAL_ZEITLIN, /* N^2 - 1 doubles omega_alpha: X0 = sum omega_alpha Y_alpha, the
                              real basis of the quantized harmonics, alpha = l^2 - 1 + j */
    SLPI_INITIAL_FOURIER  /* 2 (N^2 - 1) doubles (Re, Im) of omega_m by mode index (m1 =
                              -K..K, then m2, zero skipped): W0 = sum omega_m T_m */
} slpi_initial_kind;
slpi_initial_kind slpi_problem_initial_kind(const slpi_problem *p);
/* Doubles of the description (state_dim for values). */
int slpi_problem_initial_size(const slpi_problem *p);
/* The description into x[slpi_problem_initial_size]; SLPI_OK or an input error. */
int slpi_problem_initial_state(const slpi_problem *p, double *x, slpi_error *err);

/* A problem from a preset (slpi_presets), for slpi_problem_set_key. Returns NULL when
 * the preset is unknown or memory runs out, with slpi_api_last_error() naming why.
 * Owns: the caller frees it with slpi_problem_free.
 * NULL: preset (as "": rigid body, ISOMP). */
slpi_problem *slpi_problem_new(const char *preset);
/* NULL: p (nothing done). */
void slpi_problem_free(slpi_problem *p);

int slpi_problem_set_key(slpi_problem *p, const char *key, const char *value);
/* State doubles, Wiener processes, steps, rows slpi_integrate writes (the output grid:
 * step 0, then every output_every-th step and the last, or the steps at the times of
 * the key save_at), the step size and output_every. SLPI_EINPUT: a save_at time off the
 * step grid (the message names the nearest grid times).
 * NULL: dim, noises, steps, rows, h, every (not asked). */
int slpi_problem_shape(const slpi_problem *p, int *dim, int *noises, long *steps, long *rows, double *h, int *every);
/* The increments a run of p steps on (its noise source: the canonical noise, white or
 * Ornstein-Uhlenbeck with noise_tau (docs/noise.md#ou), or its noise file, truncated per
 * the problem): out[i M + k] = increment k of step first + i, i < count, with
 * first + count <= steps; *clipped gets the number the truncation clipped. SLPI_EINPUT
 * (slpi_api_last_error says why). NULL: clipped (not asked). */
int slpi_problem_increments(const slpi_problem *p, long first, long count, double *out, long *clipped);

int slpi_problem_state_label(const slpi_problem *p, int i, char *buf, size_t n);
/* The problem's keys as slpi_problem_write prints them ("key=value" lines), finished where
 * slpi_problem_finish accepts it (as a run's header: h and steps resolved, a noise file's
 * own seed, path and noise_digest), into buf of n bytes; returns the length the whole text needs (without the terminating 0), so a
 * caller retries with a larger buffer when it is >= n; -1 on error. NULL: buf (when n is 0). */
long slpi_problem_text(const slpi_problem *p, char *buf, size_t n);
/* Key `key` of p as slpi_problem_text writes it (the value of its "key=value" line: the
 * canonical text, finished where slpi_problem_finish accepts it), into buf of n bytes;
 * returns its length (a caller retries with a larger buffer when it is >= n): 0 and ""
 * for a key the text does not hold (another system's key, a file or T not given, preset);
 * -1 with the last error naming it for a name that is no key (slpi_problem_key's table, a
 * model's noise_H<k>, param.<NAME>). The one way a key's value comes out of a problem, as
 * slpi_problem_set_key is the one way in. NULL: buf (when n is 0). */
long slpi_problem_get_key(const slpi_problem *p, const char *key, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
