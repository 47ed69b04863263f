/* slpi.h — the public header of libslpi, the integrator library of a verified reference
 * implementation of stochastic Lie–Poisson integrators (the mathematics: docs/README.md;
 * design: docs/design.md; the two libraries: docs/architecture.md).
 *
 * Layers: the problem model and registry (core/), canonical noise (core/noise.c),
 * file formats (core/), the run driver (core/run.c), the double path (fast/) and the
 * certified Arb path (ref/), each with its run adapter (fast/path.c, ref/path.c), and the
 * handle API for bindings (api/). libslpi.so exports exactly the functions declared here.
 * The verification tools (golden cases, verify, the property harness, the audit) are the
 * second library, libslpi-tools, with its own header slpi-tools.h.
 * Exit/status codes everywhere: 0 ok, 1 a check failed, 2 usage or input error,
 * 3 numerical failure (non-convergence, NaN/Inf, UNABLE), 130 interrupted.
 *
 * Conventions of every function (docs/api.md#reference lists each function with the
 * three lines below, generated from this header by mk/api-doc.py):
 *   NULL    A pointer argument must not be NULL, unless the function's comment names
 *           it in a line "NULL: a, b" (what NULL means is said there); this includes
 *           slpi_error *err. tests/api/t-api-null.c calls each function with each pointer
 *           its comment allows to be NULL.
 *   Owns    What a _new, _create, _open or _begin function makes is the caller's,
 *           freed by the module's _free, _close or _end (an output by commit or
 *           abort); a returned const char * or table is static (or lives as long as
 *           the object it came from) and is never freed; "Owns:" says otherwise.
 *   Thread  An object (a problem, run object, stepper, reader, output, noise source)
 *           is used by one thread at a time; calls on distinct objects, and calls
 *           that only read their arguments, may run concurrently; "Thread:" names a
 *           call that touches process-wide state.
 */
#ifndef SLPI_H
#define SLPI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* SLPI_FAST_ONLY: the double path only, without Arb's headers (the certified path's
 * ball declarations are left out). */
#ifndef SLPI_FAST_ONLY
#include "slpi-flint.h"   /* Arb from either FLINT generation (core/slpi-flint.h) */
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ errors */

/* SLPI_EINTR: the call was interrupted (slpi_interrupt_request, Ctrl-C); its value is the
 * `slpi` command's exit code then, 128 + SIGINT as a shell reports it. */
enum { SLPI_OK = 0, SLPI_ECHECK = 1, SLPI_EINPUT = 2, SLPI_ENUMERIC = 3, SLPI_EINTR = 130 };

typedef struct {
    int code;       /* one of SLPI_OK, SLPI_EINPUT, SLPI_ENUMERIC, SLPI_ECHECK, SLPI_EINTR */
    char msg[512];  /* names the problem: key, value, file:line, step, residual */
} slpi_error;

/* Record an error (printf-style) and return its code.
 * NULL: err (the code is returned, nothing recorded). */
int slpi_error_set(slpi_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Interruption (core/interrupt.c; docs/conventions.md#interrupt). Every long call polls
 * one process-wide flag (each step of a run, verify, audit run and stepper; each
 * lock-step step of a convergence study; each golden and property case; each audit
 * claim) and, once it is raised, returns SLPI_EINTR naming where it stopped, having kept
 * what it did (a streamed output is a valid prefix; a checkpoint is written at the last
 * completed step or batch). The flag stays raised (every call then stops at its first
 * poll) until slpi_interrupt_clear. request, clear and pending are async-signal-safe
 * and thread-safe (an atomic int): a binding raises it from its Ctrl-C handler or
 * another thread (libslpi-tools.so calls libslpi's: one flag in the process).
 * slpi_interrupt_catch installs the `slpi` command's SIGINT handler (not where SIGINT
 * is ignored; returns 1 if installed): the first SIGINT raises the flag, and ends the
 * process by SIGINT one second later if it is still running, or at a second SIGINT. */
void slpi_interrupt_request(void);
void slpi_interrupt_clear(void);
int slpi_interrupt_pending(void);
/* Thread: not safe: sets the process's SIGINT and SIGALRM handlers (call it once, at start). */
int slpi_interrupt_catch(void);

/* Strict numbers (core/parse.c), for every key, option and numeric text field: the
 * whole text is the number (blanks around it allowed), no trailing garbage, overflow,
 * NaN, infinity or subnormal; lo <= value <= hi; every integer (int, long, u64) in
 * decimal, leading zeros included (010 is ten, never octal), or in 0x/0X hex (0x10 is
 * sixteen; a sign before it where negative values exist).
 * Errors (SLPI_EINPUT) name the value as given: name "h" -> "h=1e-320: subnormal ...",
 * name "--threads" -> "--threads abc: not an integer". *out is set only on success. */
int slpi_parse_double(const char *name, const char *text, double lo, double hi, double *out, slpi_error *err);
int slpi_parse_long(const char *name, const char *text, long lo, long hi, long *out, slpi_error *err);
int slpi_parse_int(const char *name, const char *text, int lo, int hi, int *out, slpi_error *err);
int slpi_parse_u64(const char *name, const char *text, uint64_t hi, uint64_t *out, slpi_error *err);
/* An exact binary64 field of a data file (%a or %.17g): the whole token, finite;
 * subnormals allowed. 0 on success, -1 not a number, -2 NaN or infinite (*out set to
 * it; the caller names file:line). */
int slpi_parse_binary64(const char *text, double *out);
/* Threads of one command's OpenMP work (core/threads.c): `requested` (> 0), or the OpenMP
 * runtime's default (OMP_NUM_THREADS) when requested <= 0, into *nt; more than
 * SLPI_MAX_THREADS is refused (SLPI_EINPUT, the message names who and the source). */
#define SLPI_MAX_THREADS 256
int slpi_threads_resolve(int requested, const char *who, int *nt, slpi_error *err);
/* Open an input file for reading: a regular file or a pipe; a folder or a device
 * (/dev/zero) is refused with "PATH: not a regular file (...)"; returns NULL then, with
 * err set. Owns: the FILE returned is the caller's (fclose). */
FILE *slpi_input_open(const char *path, slpi_error *err);
/* Shared checks of one text line s[0..len) (without its '\n') of file at line: a UTF-8
 * byte-order mark on line 1, a NUL byte, a CRLF line end; each named as such. */
int slpi_parse_text_line(const char *file, long line, const char *s, size_t len, slpi_error *err);

/* ---------------------------------------------------------------- registry */

typedef enum {
    SLPI_SYS_RIGID_BODY, SLPI_SYS_HEAVY_TOP, SLPI_SYS_MANAKOV,
    SLPI_SYS_POINT_VORTICES, SLPI_SYS_EULER_ZEITLIN, SLPI_SYS_SINE_EULER,
    SLPI_SYS_MODEL,     /* a model described as data (docs/models.md) */
    SLPI_SYS_COUNT
} slpi_system_id;

typedef enum {
    SLPI_SCHEME_TMK, SLPI_SCHEME_RKMK_LE, SLPI_SCHEME_RKMK_HEUN,
    SLPI_SCHEME_IM_DIRECT, SLPI_SCHEME_TRAP_DIRECT, SLPI_SCHEME_ISOMP,
    SLPI_SCHEME_SVI, SLPI_SCHEME_COUNT
} slpi_scheme_id;

/* docs/systems.md#applicability: P = used in a paper, E = supported extension, N/A = not applicable. */
typedef enum { SLPI_NA = 0, SLPI_PAPER = 1, SLPI_EXTENSION = 2 } slpi_applicability;

const char *slpi_system_name(slpi_system_id s);
const char *slpi_scheme_name(slpi_scheme_id k);
int slpi_system_from_name(const char *name, slpi_system_id *out);
int slpi_scheme_from_name(const char *name, slpi_scheme_id *out);
/* The static matrix of docs/systems.md#applicability (reason: why N/A, or a remark).
 * NULL: reason (not asked). */
slpi_applicability slpi_registry_pair(slpi_system_id s, slpi_scheme_id k, const char **reason);

/* ----------------------------------------------------------- problem model */

/* Enumerated options (the string names are in core/problem-keys.c's key table). */
typedef enum { SLPI_RB_FORM_ISO, SLPI_RB_FORM_SVI } slpi_rb_form;
typedef enum {
    SLPI_RB_NOISE_NONE,       /* M = 0 */
    SLPI_RB_NOISE_ISO_QUAD,   /* H_i = amp x_i^2 (Frobenius), i = 1..3   (ISO §6.1) */
    SLPI_RB_NOISE_ISO_QUAD1,  /* only H_1 of iso-quad, M = 1            (derived)  */
    SLPI_RB_NOISE_SVI_LIN,    /* h_i = amp e_i . Pi, i = 1..3            (SVI §7.1) */
    SLPI_RB_NOISE_SVI_LIN1,   /* h_1 = amp/sqrt3 (1,1,1) . Pi, M = 1     (choice)   */
    SLPI_RB_NOISE_CONST_E3    /* one linear noise chi = amp e_3 (weak-exact oracles) */
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
typedef enum { SLPI_EZ_NOISE_NONE, SLPI_EZ_NOISE_Q, SLPI_EZ_NOISE_L, SLPI_EZ_NOISE_MODES,
               SLPI_EZ_NOISE_FIELDS } slpi_ez_noise;
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

#define SLPI_MAX_X0 64   /* explicit initial conditions longer than this use x0_file */
#define SLPI_PATH_MAX 4096
/* characters of a Zeitlin mode list (noise_modes, background_modes): text below this */
#define SLPI_EZ_MODES_TEXT 4096
/* Models (docs/models.md, core/expr.h): characters of one expression (text below this),
 * noise Hamiltonians, parameters, the length of a parameter's name and of its value text. */
#define SLPI_EXPR_MAX_TEXT 4096
#define SLPI_MODEL_MAX_NOISE 16
#define SLPI_MODEL_MAX_PARAMS 32
#define SLPI_MODEL_NAME_MAX 32
#define SLPI_MODEL_PARAM_TEXT 800   /* room for any double's exact decimal expansion: at most 767 significant digits, sign, point, exponent (5e-324: 757 characters) */

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
    slpi_model_grad_fn grad;          /* NULL: H_k is not a callback */
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
int slpi_problem_set_all(slpi_problem *p, int n, char *const *keys, char *const *values,
                         const char *const *where, slpi_error *err);
/* Print every key with its system and help text (the documentation of the keys). */
void slpi_problem_print_keys(FILE *f);
/* Key i of that table (0, 1, ...): its name, the system it belongs to ("" for every
 * system) and its help text; 0 past the last key. */
int slpi_problem_key(int i, const char **name, const char **system, const char **help);
/* Read key=value lines ('#' comments) from a file; errors name file:line. */
int slpi_problem_load(slpi_problem *p, const char *path, slpi_error *err);
/* Apply a docs/experiments.md preset by name (sets system, scheme and all its keys). */
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
/* A plan: a finished problem compiled once (docs/design.md#opaque-problem), immutable and
 * reference-counted. It holds the validated keys (the noise configuration among them, its
 * files bound), a model's parsed Hamiltonians (system=model, parsed once here: both paths
 * created from the plan share them) and the output grid's shape. slpi_problem_plan
 * finishes p as slpi_problem_finish does (p is finished after it) and compiles it; later
 * changes to p do not reach the plan, which outlives p.
 * Owns: *out is the caller's, released by slpi_plan_unref.
 * Thread: safe: a plan is never changed; any threads may read one and take or drop
 * references at once. */
typedef struct slpi_plan slpi_plan;
int slpi_problem_plan(slpi_plan **out, slpi_problem *p, slpi_error *err);
/* One more reference to plan (returned); each is dropped by one slpi_plan_unref, the last
 * frees it. Thread: safe: the count is atomic. */
const slpi_plan *slpi_plan_ref(const slpi_plan *plan);
/* NULL: plan (nothing done). Thread: safe: the count is atomic. */
void slpi_plan_unref(const slpi_plan *plan);
/* The plan's finished problem (owned by the plan). */
const slpi_problem *slpi_plan_problem(const slpi_plan *plan);
/* slpi_problem_shape's numbers, fixed when the plan was made.
 * NULL: dim, noises, steps, rows, h, every (not asked). */
void slpi_plan_shape(const slpi_plan *plan, int *dim, int *noises, long *steps, long *rows, double *h, int *every);
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
typedef struct { const char *name; const char *settings; const char *what; } slpi_preset;
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
    SLPI_INITIAL_VALUES,   /* slpi_problem_state_dim doubles: the state itself */
    SLPI_INITIAL_ZEITLIN,  /* N^2 - 1 doubles omega_alpha: X0 = sum omega_alpha Y_alpha, the
                              real basis of the quantized harmonics, alpha = l^2 - 1 + j */
    SLPI_INITIAL_FOURIER   /* 2 (N^2 - 1) doubles (Re, Im) of omega_m by mode index (m1 =
                              -K..K, then m2, zero skipped): W0 = sum omega_m T_m */
} slpi_initial_kind;
slpi_initial_kind slpi_problem_initial_kind(const slpi_problem *p);
/* Doubles of the description (state_dim for values). */
int slpi_problem_initial_size(const slpi_problem *p);
/* The description into x[slpi_problem_initial_size]; SLPI_OK or an input error. */
int slpi_problem_initial_state(const slpi_problem *p, double *x, slpi_error *err);

/* ---------------------------------------------------------- canonical noise
 * docs/noise.md#contract, docs/noise.md. Every increment is a pure function of (seed, path, component,
 * level, index): Philox4x32-10 counters, a uniform → normal map that gives the same
 * bits on every IEEE binary64 platform, and bottom-up dyadic sums for coarse levels.
 * The construction is documented in core/noise.c. */

/* Standard normal number j of stream (seed, path, component). */
double slpi_noise_normal(uint64_t seed, uint64_t path, uint32_t component, uint64_t j);
/* out[i] = slpi_noise_normal(seed, path, component, first + i), i < count. */
void slpi_noise_normals(uint64_t seed, uint64_t path, uint32_t component,
                        uint64_t first, size_t count, double *out);
/* Wiener increments of steps first..first+count-1 at step size h, in a hierarchy
 * whose finest level is `refine` levels below: each increment is the dyadic pairwise
 * binary64 sum of its 2^refine fine increments sqrt(h/2^refine) * Z. refine = 0 gives
 * sqrt(h) * Z. Untruncated. Arguments (the same rules as `slpi noise`): h finite and
 * 0 < h <= 1e6 (NaN, infinity, zero and negative step sizes are refused), 0 <= refine
 * <= SLPI_NOISE_MAX_REFINE, (first + count) 2^refine < 2^62 (the fine index), out not
 * NULL when count > 0. SLPI_OK, or SLPI_EINPUT with out untouched and err naming the
 * argument. A generation of more than 2^20 fine draws polls the interrupt flag after
 * every 2^20 (about 3 ms) and returns SLPI_EINTR once it is raised, out partly written.
 * NULL: out (when count is 0), err. */
#define SLPI_NOISE_MAX_REFINE 40
int slpi_noise_increments(uint64_t seed, uint64_t path, uint32_t component, double h,
                          int refine, uint64_t first, size_t count, double *out, slpi_error *err);
/* The work bound of a generation: count increments at refine cost count 2^refine fine
 * draws, at most SLPI_NOISE_MAX_DRAWS = 2^38 per call of slpi_noise_increments, per run's
 * noise (steps M 2^refine) and per `slpi noise` (about 15 minutes at the ~3 ns a fine
 * draw takes: docs/noise.md#refine). Beyond it SLPI_EINPUT naming refine and the time
 * (generate such noise in pieces with first/--first). NULL: err. */
#define SLPI_NOISE_MAX_DRAWS (UINT64_C(1) << 38)
int slpi_noise_check_work(uint64_t count, int refine, slpi_error *err);
/* docs/noise.md#truncation threshold D(h, ell) = sqrt(2 ell h |ln h|) (0 < h < 1), computed in high
 * precision and rounded to nearest binary64. */
double slpi_noise_threshold(double h, double ell);
/* Clip x[0..n) to [-D, D] by exact comparison; returns how many were clipped. */
long slpi_noise_clip(double *x, size_t n, double D);

/* A run's source of increments: the canonical generator or a noise file
 * (p->noise_file), with the problem's truncation rule applied. */
typedef struct slpi_noise_source slpi_noise_source;
int slpi_noise_source_open(slpi_noise_source **out, const slpi_problem *p, slpi_error *err);
/* The M increments of step n (0-based), truncated per the problem. */
int slpi_noise_source_step(slpi_noise_source *src, long n, double *dW, slpi_error *err);
long slpi_noise_source_clipped(const slpi_noise_source *src);
void slpi_noise_source_close(slpi_noise_source *src);
/* The truncation rule in one place (docs/noise.md#truncation): the problem's threshold D(h, trunc_ell)
 * when slpi_problem_truncates(p), +INFINITY when it does not truncate (clipping at it is
 * the identity), NAN outside the rule's domain (the noise source reports that). */
double slpi_problem_noise_threshold(const slpi_problem *p);
/* Canonical increments as rows: out[i M + k] = increment of step first + i, component
 * k (slpi_noise_increments with h and refine, so coarse levels are the canonical dyadic
 * sums), i < count, clipped to [-D, D] (D = INFINITY: untruncated). Returns the number
 * clipped, -1 if out of memory or an argument breaks slpi_noise_increments's rules (M
 * must be >= 0). */
long slpi_noise_rows(double *out, uint64_t seed, uint64_t path, int M, double h, int refine,
                     uint64_t first, size_t count, double D);

/* ------------------------------------------------------------ step reports */

typedef enum {
    SLPI_STEP_CONVERGED = 0,   /* solver met its tolerance (or explicit scheme) */
    SLPI_STEP_STAGNATED,       /* accepted: increment stopped decreasing near tol */
    SLPI_STEP_CAPPED,          /* maxit / fixed iterations reached, iterate accepted */
    SLPI_STEP_NOT_CONVERGED,   /* maxit reached under policy FAIL: a failure */
    SLPI_STEP_DIVERGED,        /* NaN/Inf or growth: a failure */
    SLPI_STEP_UNABLE,          /* ref path: enclosure failed at the precision cap */
    SLPI_STEP_INVALID          /* invalid input state or increments */
} slpi_step_status;

typedef struct {
    slpi_step_status status;
    int iterations;
    double residual;           /* final solver increment/residual (max norm) */
    long prec;                 /* ref path: precision used for this step */
    double radius;             /* ref path: max radius of the output state */
} slpi_step_info;

const char *slpi_step_status_name(slpi_step_status s);
static inline int slpi_step_failed(slpi_step_status s)
{
    return s >= SLPI_STEP_NOT_CONVERGED;
}

/* Named scalar diagnostics (H0, Casimirs, eigenvalue departure, ...). */
#define SLPI_MAX_DIAG 48
typedef struct {
    int n;
    const char *name[SLPI_MAX_DIAG];   /* static strings */
    double value[SLPI_MAX_DIAG];
} slpi_diag;
void slpi_diag_add(slpi_diag *d, const char *name, double value);

/* ------------------------------------------------------------ file formats */

/* Provenance lines (slpi, git, Arb, FLINT, MPFR, GMP, OpenBLAS core, libc, compiler,
 * flags) as "<prefix>key=value"; and the header-vs-library cross-check. */
void slpi_provenance_write(FILE *f, const char *prefix);
int slpi_provenance_check(slpi_error *err);

/* Trajectory TSV "slpi-trajectory 1" (format documented in core/trajectory.c). */
int slpi_traj_write_header(FILE *f, const slpi_problem *p, const char *path_name, int ncols,
                           const char *const *cols);
void slpi_traj_write_row(FILE *f, long step, double t, int n, const double *v, int hex);

typedef struct {
    int nhead;                 /* "# key=value" header lines */
    char **head_key, **head_val;
    int ncols;                 /* columns after step and t */
    char **col;
    long nrows;
    long *step;                /* step index of each row */
    double *mid, *rad;         /* row-major, ncols + 1 per row: t, then the columns;
                                  rad is 0 for plain doubles, the radius for balls */
} slpi_traj;
/* Owns: t's arrays are the caller's, freed by slpi_traj_free. */
int slpi_traj_read(const char *path, slpi_traj *t, slpi_error *err);

void slpi_traj_free(slpi_traj *t);
const char *slpi_traj_header(const slpi_traj *t, const char *key);
int slpi_traj_column(const slpi_traj *t, const char *name);
/* The same format read one row at a time, in memory independent of the file's length
 * (slpi_traj_read is built on it): slpi_traj_open reads the version line, the header and
 * the column line (slpi_traj_head: nrows counts the rows read so far, no row arrays;
 * slpi_traj_header_line: the line of header entry i), slpi_traj_next the next row
 * into the reader's storage, valid until the next call: 1, 0 at the end of the file,
 * or -1 with err set (file:line, as slpi_traj_read). The file is read sequentially,
 * never sought: a FIFO will do. */
typedef struct slpi_traj_reader slpi_traj_reader;
typedef struct {
    long step;
    const double *mid, *rad;   /* ncols + 1 each: t, then the columns (as slpi_traj) */
} slpi_traj_row;
/* Owns: *r is the caller's, freed by slpi_traj_close; the head and the rows are the reader's. */
int slpi_traj_open(slpi_traj_reader **r, const char *path, slpi_error *err);

const slpi_traj *slpi_traj_head(const slpi_traj_reader *r);
long slpi_traj_header_line(const slpi_traj_reader *r, int i);
long slpi_traj_line(const slpi_traj_reader *r);
int slpi_traj_next(slpi_traj_reader *r, slpi_traj_row *row, slpi_error *err);
void slpi_traj_close(slpi_traj_reader *r);

/* Safe output files (core/output.c documents the rules): a regular file is written
 * to a temporary file in its folder and renamed over PATH by commit (abort removes
 * only that temporary file); devices and FIFOs (/dev/null, /dev/full) are written in
 * place and never removed; NULL or "-" is standard output. Every write, flush, fsync,
 * close or rename error is reported (SLPI_EINPUT, "PATH: write error: ..."). From open to
 * commit or abort the output holds PATH's writer lock: a second writer of PATH, in this
 * process or another, is refused at open (SLPI_EINPUT, "PATH: in use by another process
 * (locked): not written"; docs/conventions.md#outputs). */
typedef struct slpi_output slpi_output;
typedef enum {
    SLPI_OUTPUT_REPLACE,   /* temporary file, renamed over PATH at commit (or publish) */
    SLPI_OUTPUT_UPDATE     /* an existing regular file, in place, locked (resume) */
} slpi_output_mode;
/* NULL: path (standard output). Owns: *out is the caller's, freed by slpi_output_commit or
 * slpi_output_abort. Thread: not safe: records its temporary file in the process-wide
 * list a signal handler removes (open outputs from one thread). */
int slpi_output_open(slpi_output **out, const char *path, slpi_output_mode mode, slpi_error *err);

FILE *slpi_output_file(const slpi_output *o);   /* Owns: o's (commit or abort closes it). */
const char *slpi_output_name(const slpi_output *o);   /* for messages */
/* Rename the temporary file over PATH now and keep writing into it (a streamed output
 * whose prefix must be visible, e.g. beside checkpoints); no-op otherwise. */
int slpi_output_publish(slpi_output *o, slpi_error *err);
/* Flush, fsync, close, rename; frees o (also on error, after removing the temporary). */
int slpi_output_commit(slpi_output *o, slpi_error *err);
/* Close and remove the temporary file if not yet published; frees o. NULL: o (nothing done). */
void slpi_output_abort(slpi_output *o);
/* 1 if a and b name one file: same device and inode when both exist, else the same
 * normalized path (real folder + last component). */
int slpi_output_same_file(const char *a, const char *b);
/* Refuse (SLPI_EINPUT, naming both) an output that is another output or an input of
 * the command; NULL, "" and "-" entries are skipped, as are existing non-regular files
 * (/dev/null may be named twice). Roles name the options: "--output", "noise_file". */
int slpi_output_check_paths(int nout, const char *const *out, const char *const *out_role, int nin,
                            const char *const *in, const char *const *in_role, slpi_error *err);
/* Flush standard output; a write error (e.g. > /dev/full) is SLPI_EINPUT. */
int slpi_output_close_stdout(slpi_error *err);

/* A progress line (core/progress.c; the API follows the run driver). */
typedef struct slpi_progress slpi_progress;

/* ------------------------------------------------------------- run driver
 * One arithmetic path as seen by the driver (core/run.c); adapters for the fast and
 * ref paths are slpi_fast_path() (fast/path.c) and slpi_ref_path() (ref/path.c). */
typedef struct {
    const char *name;                                            /* "fast" or "ref" */
    void *(*create)(const slpi_problem *p, slpi_error *err);     /* NULL on error */
    void (*destroy)(void *ctx);
    /* Set the state from doubles; x0 == NULL: the system's default initial state. */
    int (*set_state)(void *ctx, const double *x0, slpi_error *err);
    slpi_step_status (*step)(void *ctx, const double *dW, slpi_step_info *info);
    int (*diag_names)(void *ctx, const char **names, int max);  /* count */
    void (*diag_values)(void *ctx, double *v, int n);             /* midpoints for balls */
    /* One trajectory row: the state, the diagnostics, iterations and residual. */
    void (*write_row)(void *ctx, FILE *f, long step, double t, const slpi_step_info *info, int hex);
    void (*summary)(void *ctx, FILE *f);                          /* path-specific lines */
    /* Checkpoints (core/checkpoint.c): everything the path carries from step to step
     * (the current state, solver counters) as exact one-line text tokens without
     * newlines (*tokens and each token malloc'd; fast: %a and integers, ref:
     * arb_dump_str); returns the count, or -1 when out of memory (nothing to free).
     * Loading sets only what saving wrote: set_state has set the initial state already;
     * it fails with SLPI_EINPUT, and errno ENOMEM when it ran out of memory. */
    int (*state_save)(void *ctx, char ***tokens);
    int (*state_load)(void *ctx, int n, char *const *tokens);
    /* optional (NULL: none): why the last step failed, in words ("" if not known); the
     * certified path's UNABLE reason (a model's domain error names its key and column) */
    const char *(*why)(void *ctx);
    /* optional (NULL: none): show the work inside each step on the progress line pg
     * (NULL: stop); the certified path's steps can take minutes (slpi_ref_set_watch) */
    void (*watch)(void *ctx, slpi_progress *pg);
    /* the next step is step n of the time grid (slpi_fast_set_step_index): a resumed run's */
    void (*seek)(void *ctx, long n);
} slpi_path_ops;

typedef struct {
    long steps_done, failed_step, stagnated, capped, clipped;
    int max_iters;
    double mean_iters, max_radius, seconds;
    long max_prec;
    int ndiag;                                  /* diagnostics: initial, final, and */
    const char *diag_name[SLPI_MAX_DIAG];       /* the largest |value - initial| over */
    double diag_first[SLPI_MAX_DIAG];           /* the written steps */
    double diag_final[SLPI_MAX_DIAG];
    double diag_maxchange[SLPI_MAX_DIAG];
    long prec_raised;                           /* ref path: steps above p->prec bits */
    double cpu_seconds;                         /* the process's CPU time over the steps
                                                   (seconds: their wall time) */
} slpi_run_result;

/* Estimated size in bytes of the trajectory text slpi_run writes for p (ball: the
 * certified path's `mid +/- rad` columns), for the command's large-output guard. */
double slpi_run_output_bytes(const slpi_problem *p, int ball);
/* Integrate p->steps steps on the canonical noise (or p->noise_file), streaming rows
 * to out (hex: doubles as %a) and a summary to summary. NULL: out (no rows), summary
 * (no summary). */
int slpi_run(const slpi_problem *p, const slpi_path_ops *ops, FILE *out, int hex, FILE *summary,
             slpi_run_result *res, slpi_error *err);
/* Checkpoint/resume (core/checkpoint.c documents the file format). checkpoint: write
 * the file every `every` steps (atomically: write, fsync, rename); resume: continue the
 * run recorded in that file. Both need `out` to be a regular file opened for update,
 * named output (resume truncates it to the checkpointed length after checking its
 * digest, then appends), so that the finished file is byte-identical to an
 * uninterrupted run. */
typedef struct {
    const char *checkpoint;   /* NULL: no checkpoints */
    long every;               /* steps between checkpoints (> 0) */
    const char *resume;       /* NULL: start at step 0 */
    const char *output;       /* the output file's name (for messages) */
    slpi_output *handle;      /* may be NULL; else published before the first checkpoint */
} slpi_run_ckpt;
/* NULL: out, summary (as slpi_run), ck (no checkpoint: slpi_run). */
int slpi_run_checkpointed(const slpi_problem *p, const slpi_path_ops *ops, FILE *out, int hex,
                          FILE *summary, const slpi_run_ckpt *ck, slpi_run_result *res,
                          slpi_error *err);
/* The run's summary as JSON (problem, result, diagnostics) for machines. */
int slpi_run_write_json(const slpi_problem *p, const char *path_name, const slpi_run_result *res,
                        int rc, const char *message, const char *file, slpi_error *err);
const slpi_path_ops *slpi_fast_path(void);
const slpi_path_ops *slpi_ref_path(void);

/* Progress of long work on standard error (core/progress.c): "what: done/total (pct),
 * rate, time left". The mode is process-wide and set once by the command line:
 * AUTO shows it when stderr is a terminal and the work has run 2 s, ON always (from the
 * start), OFF never. begin returns NULL when nothing will be shown, and every other
 * call accepts NULL, so a caller needs no test of its own. add/set may be called from
 * several threads. Progress never writes anything but standard error. */
typedef enum { SLPI_PROGRESS_AUTO, SLPI_PROGRESS_ON, SLPI_PROGRESS_OFF } slpi_progress_mode;
void slpi_progress_set_mode(slpi_progress_mode mode);
slpi_progress *slpi_progress_begin(const char *what, long total);
/* n more units done; done units in total. NULL: pg (no-op). Thread: safe (one line
 * advanced from several threads). */
void slpi_progress_add(slpi_progress *pg, long n);
void slpi_progress_set(slpi_progress *pg, long done);

void slpi_progress_end(slpi_progress *pg);             /* erase the line, free. NULL: pg (no-op) */
/* Movement inside the current unit (a long certified step): the line is redrawn with
 * this text after it ("; in step 4: 120 iterations at 256 bits"), at most ten times a
 * second; the text is formatted only when the line is redrawn. */
void slpi_progress_within(slpi_progress *pg, const char *fmt, ...);   /* NULL: pg (no-op) */
/* This thread's current line, which slpi_progress_tick draws on: slpi_run sets it around
 * its set-up and its steps, so that long work deep inside a path (a certified su(N)
 * path's tables at N = 256 take minutes before the first step) moves the line without
 * knowing its caller. NULL: pg (no current line: ticks do nothing). */
void slpi_progress_current(slpi_progress *pg);
/* slpi_progress_within on this thread's current line (a no-op without one). */
void slpi_progress_tick(const char *fmt, ...);

/* ------------------------------------------------------------ fast path API */

typedef struct slpi_fast slpi_fast;
/* A run object of the plan (holding a reference to it). */
int slpi_fast_create_plan(slpi_fast **out, const slpi_plan *plan, slpi_error *err);
/* slpi_fast_create_plan on the plan of p, which slpi_problem_finish finished. */
int slpi_fast_create(slpi_fast **out, const slpi_problem *p, slpi_error *err);
void slpi_fast_free(slpi_fast *s);
/* The finished problem the run object integrates (h and steps resolved). */
const slpi_problem *slpi_fast_problem(const slpi_fast *s);
/* The problem's initial state (slpi_problem_initial_state) in core's layout, coefficient
 * descriptions mapped with the binary64 basis. */
int slpi_fast_initial_state(const slpi_fast *s, double *x, slpi_error *err);
/* One step in place. dW: the M (truncated) Wiener increments of this step. */
slpi_step_status slpi_fast_step(slpi_fast *s, double *x, const double *dW, slpi_step_info *info);
/* Why the last failed step failed where the system knows more than its status (a model's
 * callback that returned non-zero or a non-finite value, named); "" otherwise. */
const char *slpi_fast_failure_reason(const slpi_fast *s);
/* A run object and its state as one thing to step (the stepping primitive of core/steps.h
 * takes it with slpi_fast_step_at: slpi_fast_step(at->f, at->x, dW, info); fast/path.c). */
typedef struct {
    slpi_fast *f;
    double *x;
} slpi_fast_at;
slpi_step_status slpi_fast_step_at(void *at, const double *dW, slpi_step_info *info);
/* slpi_fast_set_step_index(at->f, n): the stepping primitive's seek (core/steps.h). */
void slpi_fast_seek_at(void *at, long n);
/* Step size of the following steps: any finite h != 0; h < 0 steps backwards (the
 * reversibility property, step with (-h, -dW)). Returns SLPI_EINPUT otherwise. */
int slpi_fast_set_step(slpi_fast *s, double h);
/* The index n of the next step on the problem's time grid: a model whose Hamiltonians
 * read t evaluates step n at t = t0 + (n + c) h, c the scheme's stage
 * (docs/models.md#time); diagnostics read H at t0 + n h. A new run object starts at 0 and
 * each slpi_fast_step advances it by one; set it when the next step is not the one after
 * the last (a resumed run: the checkpoint's step; verify's row n; a path restarted at 0;
 * a backward run with h < 0 from step N: -N). */
void slpi_fast_set_step_index(slpi_fast *s, long n);
/* The solver counters the diagnostics report (steps, iterations, max iterations,
 * stagnated, capped, failed), read and restored by checkpoints. */
#define SLPI_FAST_NCOUNTERS 6
void slpi_fast_counters(const slpi_fast *s, long c[SLPI_FAST_NCOUNTERS]);
void slpi_fast_set_counters(slpi_fast *s, const long c[SLPI_FAST_NCOUNTERS]);
/* What a run carries from step to step besides the state and the counters: ISOMP's warm
 * start (warm_start=1|2, docs/schemes.md#solver), read and restored by checkpoints so that a
 * resumed run is byte-identical. slpi_fast_carry_get writes it into buf (or counts
 * only) and returns its length in doubles, 0 if nothing is carried; slpi_fast_carry_set
 * restores n doubles taken by slpi_fast_carry_get, for the state x that the next step is
 * handed, or returns SLPI_EINPUT (n or the values not of this run). */
int slpi_fast_carry_get(const slpi_fast *s, double *buf);   /* NULL: buf (counts only) */
int slpi_fast_carry_set(slpi_fast *s, const double *x, const double *buf, int n);
/* Diagnostics of a state; x0 is the initial state (for departures). NULL: x0 (no departures).
 * A model whose Hamiltonians read t: at the time t0 + n h of the step index n. */
void slpi_fast_diagnostics(slpi_fast *s, const double *x, const double *x0, slpi_diag *d);
/* The equation's vector fields at the algebra state x (its first dim coordinates,
 * docs/conventions.md#sde): for k = 0..M, the generator xi_k(x) = grad H_k in the system's
 * pairing into xi + k dim and the field V_k(x) = ad*_{xi_k(x)} x into V + k dim (V_0 the
 * drift per unit time, V_k the noise field of dW^k). Returns the algebra dimension dim,
 * -1 out of memory. `slpi model` prints them (docs/models.md#equations). A model whose
 * Hamiltonians read t: at t0 + n h, n the step index (a new run object: t0).
 * NULL: xi, V (that output is not computed). */
int slpi_fast_fields(slpi_fast *s, double *xi, double *V, const double *x);
/* The same initial state for a problem without an integrator (only the system's basis
 * tables are built): the binary64 state that golden files and `slpi verify` start from. */
int slpi_fast_problem_initial_state(const slpi_problem *p, double *x, slpi_error *err);

/* ------------------------------------------------------------- ref path API
 * Certified: every output ball contains the exact result of the discrete scheme for
 * the given binary64 inputs (docs/design.md#two-paths), or the step reports SLPI_STEP_UNABLE. */

typedef struct slpi_ref slpi_ref;
/* A certified run object of the plan (holding a reference to it). */
int slpi_ref_create_plan(slpi_ref **out, const slpi_plan *plan, slpi_error *err);
/* slpi_ref_create_plan on the plan of p, which slpi_problem_finish finished. */
int slpi_ref_create(slpi_ref **out, const slpi_problem *p, slpi_error *err);
void slpi_ref_free(slpi_ref *s);
/* One step in place on a vector of slpi_problem_state_dim balls. */
#ifndef SLPI_FAST_ONLY
slpi_step_status slpi_ref_step(slpi_ref *s, arb_ptr x, const double *dW, slpi_step_info *info);
/* As slpi_fast_at: slpi_ref_step_at(at, dW, info) is slpi_ref_step(at->r, at->x, dW, info). */
typedef struct {
    slpi_ref *r;
    arb_ptr x;
} slpi_ref_at;
slpi_step_status slpi_ref_step_at(void *at, const double *dW, slpi_step_info *info);
/* slpi_ref_set_step_index(at->r, n), as slpi_fast_seek_at. */
void slpi_ref_seek_at(void *at, long n);
#endif
/* As slpi_fast_set_step: h < 0 steps backwards. */
int slpi_ref_set_step(slpi_ref *s, double h);
/* The index n of the next step on the time grid, as slpi_fast_set_step_index: a model
 * whose Hamiltonians read t evaluates step n at t0 + (n + c) h, exactly in balls. */
void slpi_ref_set_step_index(slpi_ref *s, long n);
/* 1 if the matrix products of s's ISOMP steps at precision prec take the BLAS route
 * (key matmul, docs/design.md#blas-route), 0 if they are Arb's. */
int slpi_ref_blas_route(const slpi_ref *s, long prec);
/* Why the last step was UNABLE or INVALID (step index, precision cap, reason); "" if
 * it was certified. */
const char *slpi_ref_unable_reason(const slpi_ref *s);
#ifndef SLPI_FAST_ONLY
/* Certified Poisson-map defect of one step from x with increments dW (claims V4, V5,
 * V19, I11): D J(x) D^T - J(x_1) as d x d balls (row-major), D the Jacobian of x -> x_1.
 * Scheme svi in vector form: D by the implicit function theorem in balls, d = 3 for the
 * rigid body (J = hat Pi), d = 6 for the heavy top (J = [[hat Pi, hat Gamma],
 * [hat Gamma, 0]]; R is not differentiated); c = +1/4: contains 0; c = -1/4: excludes 0.
 * Scheme isomp with update=comm and no fixed_iters, on a state of at most 64 numbers
 * that is the algebra's dual (rigid body, Manakov, vortices, Zeitlin, sine-Euler): D the
 * scheme's certified step Jacobian, d the state dimension, J(y) e_j = ad*_(e_j / g_j) y
 * with g_j the Frobenius weight of coordinate j (2 for the off-diagonal entries of the
 * su(N) layout; a constant factor and the sign do not matter). SLPI_EINPUT otherwise, SLPI_ENUMERIC if it cannot
 * be certified at the precision cap. */
int slpi_ref_poisson_defect(slpi_ref *s, arb_srcptr x, const double *dW, arb_ptr defect,
                            slpi_error *err);
/* Certified diagnostics (balls): invariants, and with x0 their departures from it and the
 * system's other departures, named as the double path names them (NAME_dev, NAME_rel_dev,
 * eig_dev, ...: docs/architecture.md#twin-diagnostics). */
typedef struct {
    int n;
    int n_inv;    /* the invariants: entries [0, n_inv); with x0, their departures next */
    const char *name[SLPI_MAX_DIAG];
    arb_struct value[SLPI_MAX_DIAG];
} slpi_ref_diag;
void slpi_ref_diag_init(slpi_ref_diag *d);
void slpi_ref_diag_clear(slpi_ref_diag *d);
/* As slpi_fast_diagnostics. NULL: x0 (no departures). */
void slpi_ref_diagnostics(slpi_ref *s, arb_srcptr x, arb_srcptr x0, slpi_ref_diag *d);
/* Mean-value (Lohner) propagation of the trajectory stepped by s (on = 1, off = 0; on
 * from slpi_ref_create where it applies, unless the problem says propagation=ball): far
 * smaller radii over long runs (ISOMP with update=comm and solved steps, states of at
 * most 64 entries: the rigid body, point vortices, Manakov up to so(11)). The balls then
 * depend on the trajectory's history (the set the run checkpoints, `slpi run
 * --checkpoint`), not on the last ball alone. SLPI_EINPUT (and off) where the scheme or
 * the state size does not allow it. */
int slpi_ref_set_lohner(slpi_ref *s, int on);
/* Work inside one certified step, for a caller that shows progress within steps (a
 * step can take minutes: TMK's dense chord matrix on su(N), Euler-Zeitlin at large N):
 * fn(ctx, w) is called on the stepping thread at each precision the step tries, after
 * each solver iteration (midpoint iteration or enclosure test) and each Jacobian column,
 * with the step's work so far. `slpi run --ref` draws it on its progress line. */
typedef struct {
    long step;                 /* the step's index (steps attempted before it) */
    long prec;                 /* the precision of the attempt, bits */
    long iterations;           /* solver iterations in the step so far, every precision */
    long columns;              /* Jacobian columns formed in the step so far */
} slpi_ref_work;
/* NULL: fn (no calls), ctx. */
void slpi_ref_set_watch(slpi_ref *s, void (*fn)(void *ctx, const slpi_ref_work *w), void *ctx);
/* The problem's initial state (slpi_problem_initial_state) as slpi_problem_state_dim
 * balls: values exactly, coefficients mapped with the certified basis (balls containing
 * the exact state). Needs no fast path. */
int slpi_ref_initial_state(slpi_ref *s, arb_ptr x, slpi_error *err);
#endif

/* ------------------------------------------------- handle API for bindings
 * (api/api.c; python/slpi uses it): no struct needs mirroring. Functions return
 * SLPI_OK or an error code; slpi_api_last_error() is the calling thread's last message. */
/* Owns: the calling thread's buffer, overwritten by its next failing call. */
const char *slpi_api_last_error(void);
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
int slpi_problem_shape(const slpi_problem *p, int *dim, int *noises, long *steps, long *rows, double *h,
                       int *every);

int slpi_problem_state_label(const slpi_problem *p, int i, char *buf, size_t n);
/* The fast path from step 0 on the problem's noise: states[rows][dim]; counters as
 * slpi_fast_counters. NULL: counters (not asked). */
int slpi_integrate(const slpi_problem *p, double *states, long counters[SLPI_FAST_NCOUNTERS]);
/* Final states of paths first_path .. first_path+npaths-1: finals[npaths][dim]. */
int slpi_integrate_ensemble(const slpi_problem *p, uint64_t first_path, long npaths, double *finals);
/* Steppers: a run that advances in pieces, on the fast path (ref = 0) or the certified
 * path (ref = 1: states and diagnostics as midpoints and radii; every exact value lies
 * within radius of the midpoint). x0 (nx0 doubles, may be NULL: the problem's initial
 * state) must lie on the system's manifold (slpi_problem_check_state). Any split of the
 * steps into advances gives the same bits as one advance. */
typedef struct slpi_stepper slpi_stepper;
/* The stepper copies the problem (finished: T or level become h and steps) and x0, so
 * both may change or be freed after the call; the functions and user_data of callbacks
 * set on p (slpi_problem_set_callback) are shared, not copied, and must outlive it.
 * *out is NULL on error. Owns: *out, freed with slpi_stepper_free.
 * NULL: x0 (the problem's initial state). */
int slpi_stepper_new(slpi_stepper **out, const slpi_problem *p, int ref, const double *x0, int nx0);
/* NULL: s (nothing done). */
void slpi_stepper_free(slpi_stepper *s);
/* Back to step 0 from the initial state on another path of the problem's noise. */
int slpi_stepper_restart(slpi_stepper *s, uint64_t path);
/* As slpi_stepper_restart, from the state x0 (nx0 doubles, on the system's manifold as
 * for slpi_stepper_new), which stays the stepper's initial state until the next call.
 * NULL: x0 (the initial state slpi_stepper_new was given, or the problem's). */
int slpi_stepper_restart_from(slpi_stepper *s, uint64_t path, const double *x0, int nx0);
/* State doubles, Wiener processes, diagnostics, steps and step size of the stepper.
 * NULL: dim, noises, ndiag, steps, h (not asked). */
void slpi_stepper_shape(const slpi_stepper *s, int *dim, int *noises, int *ndiag, long *steps, double *h);
/* The rows an advance over the whole run writes with `every` (slpi_stepper_advance's; 0:
 * the problem's output grid, save_at or output_every), the initial row included, and
 * their step numbers to steps[rows] (0 first); -1 (SLPI_EINPUT recorded) for every < 0.
 * NULL: steps (the count only). */
long slpi_stepper_row_steps(const slpi_stepper *s, long every, long *steps);

const char *slpi_stepper_diag_name(const slpi_stepper *s, int i);   /* NULL past the last */
long slpi_stepper_position(const slpi_stepper *s);                  /* steps done */
/* Counts since step 0: steps, solver iterations, max iterations, stagnated and capped
 * steps, clipped increments, the largest precision in bits (certified path). */
enum { SLPI_STEPPER_STEPS, SLPI_STEPPER_ITERATIONS, SLPI_STEPPER_MAX_ITERATIONS, SLPI_STEPPER_STAGNATED,
       SLPI_STEPPER_CAPPED, SLPI_STEPPER_CLIPPED, SLPI_STEPPER_MAX_PREC, SLPI_STEPPER_NCOUNTS };
void slpi_stepper_counts(const slpi_stepper *s, long counts[SLPI_STEPPER_NCOUNTS]);
/* The current state x[dim] and its radii, diagnostics diag[ndiag] and their radii (the
 * radii 0 on the fast path). NULL: xrad, diag, drad (not asked). */
void slpi_stepper_row(slpi_stepper *s, double *x, double *xrad, double *diag, double *drad);
/* Advance count steps (at most those left): increments dW[count][M] (clipped at the
 * problem's truncation threshold, as a noise file's), or (NULL) the problem's noise. After
 * each step whose number (steps done) is a multiple of every, or the problem's last (every
 * = 0: each step of the problem's output grid, as slpi_problem_shape counts its rows), one
 * row goes to x, xrad, diag, drad (as slpi_stepper_row), iters and resid (the step's
 * solver iterations and residual; may be NULL); *rows gets their number. A failing step
 * stops with SLPI_ENUMERIC naming it; the rows before it are written. An observer
 * (slpi_stepper_set_observer) that returns nonzero stops the advance after that step
 * with SLPI_OK: slpi_stepper_position tells where, and the rows written are those of
 * an uninterrupted advance up to that step.
 * NULL: dW (the problem's noise), xrad, diag, drad, iters, resid (not asked). */
int slpi_stepper_advance(slpi_stepper *s, long count, const double *dW, long every, double *x, double *xrad,
                         double *diag, double *drad, int *iters, double *resid, long *rows);
/* Ensembles (api/ensemble.c; docs/api.md#ensembles): paths of one problem on the fast path
 * (ref = 0) or the certified path (ref = 1: midpoints, and the largest radius), each from
 * its own initial state and on its own increments or the problem's noise, on `threads`
 * threads (<= 0: the OpenMP default), with their rows at step 0, every `every`-th step and
 * the last (every = 0: the problem's output grid, save_at or output_every; the rows of
 * slpi_ensemble_shape, their steps slpi_ensemble_row_steps) kept or not, and online statistics of the states
 * and the diagnostics at those rows: a million paths take memory for the statistics only.
 * The paths are numbered 0, 1, ... in the order slpi_ensemble_run receives them; path k
 * runs on noise path first_path + k. Blocks of SLPI_ENSEMBLE_BLOCK consecutive paths are
 * summed by Welford's update and combined in a fixed binary tree by Chan's pairwise form
 * (the formulas: api/ensemble.c), so that the statistics are the same bits for any number
 * of threads and any split of the paths into calls.
 * The ensemble copies the problem as slpi_stepper_new does (callbacks shared, not
 * copied); *out is NULL on error. Owns: *out, freed with slpi_ensemble_free.
 * Thread: the ensemble's threads are OpenMP's, and a problem with callbacks
 * (slpi_problem_set_callback) has them called from those threads concurrently. */
#define SLPI_ENSEMBLE_BLOCK 64
typedef struct slpi_ensemble slpi_ensemble;
int slpi_ensemble_new(slpi_ensemble **out, const slpi_problem *p, int ref, uint64_t first_path, long every,
                      int threads);
/* NULL: e (nothing done). */
void slpi_ensemble_free(slpi_ensemble *e);
/* State doubles, Wiener processes, diagnostics, steps, and rows of a path.
 * NULL: dim, noises, ndiag, steps, rows (not asked). */
void slpi_ensemble_shape(const slpi_ensemble *e, int *dim, int *noises, int *ndiag, long *steps, long *rows);
/* The step numbers of a path's rows, steps[rows] (as slpi_stepper_row_steps). */
void slpi_ensemble_row_steps(const slpi_ensemble *e, long *steps);
const char *slpi_ensemble_diag_name(const slpi_ensemble *e, int i);   /* NULL past the last */
long slpi_ensemble_paths(const slpi_ensemble *e);                     /* paths in the statistics */
/* How the paths run: "lanes" (blocks of paths in lock-step SIMD lanes: the rigid body's
 * ISOMP-COMM and SVI-SO3, and ISOMP-COMM of models on so3 and so3^k, on the fast path), else "general: " or "lanes: " and the reason
 * each path runs alone on its thread's stepper. The values are the same bits either way. */
const char *slpi_ensemble_route(const slpi_ensemble *e);
/* on = 0: every path runs alone on the general route from now on (route "general: asked"),
 * to compare the routes; on != 0: the lanes again where the problem has them. */
void slpi_ensemble_set_lanes(slpi_ensemble *e, int on);
/* The statistics' exact state, to combine ensembles of disjoint path ranges run apart
 * (MPI ranks, jobs, machines) into the bits of one run: slpi_ensemble_export writes it to
 * buf (its pieces: the subtrees of whole blocks, the block in progress) and returns its
 * length in doubles; slpi_ensemble_import appends an exported state's paths to e (the
 * same problem and saved rows) as its next paths. The bits are one run's when every range
 * starts at a multiple of 64 x 2^k paths from the first, 2^k blocks its largest piece
 * (ranges of equal size 64 x 2^k, the last one shorter, do), and only the last range ends
 * inside a block; otherwise SLPI_EINPUT, nothing added.
 * NULL: buf (the length only). */
long slpi_ensemble_export(const slpi_ensemble *e, double *buf);
/* Append the n doubles of slpi_ensemble_export's buf (see there). */
int slpi_ensemble_import(slpi_ensemble *e, const double *buf, long n);
/* Run the next count paths (path i of the call is path slpi_ensemble_paths() + i of the
 * ensemble) and add them to the statistics: initial states x0[count][dim], increments
 * dW[count][steps][M] (finite; clipped at the problem's truncation threshold, as
 * slpi_stepper_advance's); rows kept in x[count][rows][dim], xrad (the same shape),
 * diag[count][rows][ndiag], drad. The first path that fails, in path order, names the
 * error ("path k (noise path p): ..."); then the paths of the parallel wave it was in
 * (at most 256 x threads x SLPI_ENSEMBLE_BLOCK) are not in the statistics, those before it
 * are (slpi_ensemble_paths says how many).
 * NULL: x0 (the problem's initial state), dW (the problem's noise), x, xrad, diag, drad (not kept). */
int slpi_ensemble_run(slpi_ensemble *e, long count, const double *x0, const double *dW, double *x, double *xrad,
                      double *diag, double *drad);
/* The statistics of the paths run so far, at each row and quantity ([rows][dim + ndiag]:
 * the state, then the diagnostics): mean, variance M2 / (n - 1), minimum, maximum, and
 * the largest radius (0 on the fast path); NaN where there are too few paths: var for n = 1,
 * every statistic (min, max and rad included) for n = 0 (none run yet, or every path run
 * failed: a failed path is in no row's statistics). Returns the number of paths n.
 * NULL: mean, var, min, max, rad (not asked). */
long slpi_ensemble_stats(slpi_ensemble *e, double *mean, double *var, double *min, double *max, double *rad);
typedef int (*slpi_observer)(void *ctx, long step, double t, const double *x, int dim);
/* A per-step observer: fn(ctx, step, t, x, dim) after every step an advance takes, with
 * the steps done, t = step h and the state x[dim] (the certified path: its midpoints),
 * valid during the call only; a nonzero return stops the advance (slpi_stepper_advance).
 * Called on the advancing thread. Without one (the default) an advance tests one pointer
 * per step. Inside fn, an advance or restart of the same stepper is refused (SLPI_EINPUT,
 * "called from the stepper's own observer"): return nonzero to stop instead.
 * NULL: fn (no observer), ctx (passed as given). */
void slpi_stepper_set_observer(slpi_stepper *s, slpi_observer fn, void *ctx);
/* The library's version, "MAJOR.MINOR.PATCH" (the Python package checks it is its own). */
const char *slpi_api_version(void);
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
