/* problem-keys.c — a problem's keys: the one key table (`keys` below: each key's name, the
 * system it belongs to (or all), its type, where it is stored, its range and its help
 * text), parsing key=value settings with errors that name the bad key or value, presets
 * applied as keys, and writing a problem back as keys. A model's own keys (noise_H<k>,
 * param.<NAME>) and callbacks are in core/problem-model-keys.c, problem files and the
 * builder in core/problem-build.c. `slpi run --help`
 * and `slpi list --keys` print the table, so the documentation cannot drift from the
 * parser; validation (core/problem-validate.c) checks every key's range through it. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem.h"
#include "slpi/problem-build.h"
#include "slpi/callback.h"
#include "core/problem-struct.h"
#include "core/expr.h"
#include "core/problem.h"
#include "core/zeitlin-family.h"
#include "core/parse.h"
#include "core/fpmode.h"
#include "core/command.h"

/* K_DOUBLE0: a K_DOUBLE not written back while 0 (a key that came later: the outputs of
 * problems without it stay as they were) */
/* K_PATH: a K_STRING naming a file, held absolute (slpi_problem_key_is_path: one rule for
 * a relative path, docs/models.md#paths) */
enum key_type { K_DOUBLE, K_DOUBLE0, K_INT, K_LONG, K_U64, K_ENUM, K_VEC, K_STRING, K_SPECIAL, K_PATH };

typedef struct {
    const char *name;
    int system;               /* -1: every system */
    enum key_type type;
    size_t offset;
    int count;                /* K_VEC: number of doubles; K_STRING, K_PATH: buffer size */
    const char *const *enums; /* K_ENUM: NULL-terminated names, value = index */
    double lo, hi;            /* numeric range (inclusive) */
    const char *help;
} key_def;

#define OFF(f) offsetof(slpi_problem, f)
#define ANY (-1)
static const char *const e_trunc[] = { "auto", "on", "off", NULL };
static const char *const e_cap[] = { "fail", "accept", NULL };
static const char *const e_update[] = { "comm", "cay", NULL };
static const char *const e_svi_form[] = { "auto", "lp", "so3", "sd", NULL };
static const char *const e_svi_out[] = { "rotation", "node", NULL };
static const char *const e_solver[] = { "fixed-point", "newton", NULL };
static const char *const e_tol_scale[] = { "state", "step", NULL };
static const char *const e_predictor[] = { "euler", "none", "cayley", NULL };
static const char *const e_warm[] = { "0", "1", "2", NULL };
static const char *const e_propagation[] = { "ball", "lohner", "auto", NULL };   /* = slpi_propagation */
static const char *const e_matmul[] = { "auto", "arb", "blas", NULL };
static const char *const e_rb_form[] = { "iso", "svi", NULL };
static const char *const e_rb_noise[] = { "none", "iso-quad", "iso-quad1", "svi-lin", "svi-lin1",
                                          "const-e3", NULL };
static const char *const e_ht_form[] = { "rkmk", "svi", NULL };
static const char *const e_ht_noise[] = { "none", "salt", "case1", "case2", "case2-pi2", "case3",
                                          "case3-pi", NULL };
static const char *const e_ht_sign[] = { "bracket", "printed", NULL };
static const char *const e_ht_exp[] = { "stable", "rodrigues", "expm", "rodrigues-up", NULL };
static const char *const e_quad[] = { "none", "quad", NULL };
static const char *const e_vortex[] = { "A", "B", NULL };
static const char *const e_ez_noise[] = { "none", "Q", "L", "modes", "fields", NULL };
static const char *const e_se_noise[] = { "none", "two-mode", NULL };
static const char *const e_se_ic[] = { "canonical", "random", "complex", NULL };
static const char *const e_bool[] = { "0", "1", NULL };

// clang-format off
static const key_def keys[] = {
    { "system", ANY, K_SPECIAL, 0, 0, NULL, 0, 0, "rigid-body | heavy-top | manakov | point-vortices | euler-zeitlin | sine-euler | model (resets defaults)" },
    { "scheme", ANY, K_SPECIAL, 0, 0, NULL, 0, 0, "tmk | rkmk-le | rkmk-heun | im-direct | trap-direct | isomp | svi (sets scheme defaults)" },
    { "preset", ANY, K_SPECIAL, 0, 0, NULL, 0, 0, "a docs/experiments.md case name (see `slpi list`)" },
    { "form", SLPI_SYS_RIGID_BODY, K_SPECIAL, 0, 0, e_rb_form, 0, 0, "iso (x, H0 = x.I^-1 x) | svi (Pi, h = Pi.I^-1 Pi / 2): resets the form's defaults" },
    { "form", SLPI_SYS_HEAVY_TOP, K_SPECIAL, 0, 0, e_ht_form, 0, 0, "rkmk (pi, gamma) | svi (Pi, Gamma, R; scheme svi only)" },
    /* time grid */
    { "h", ANY, K_DOUBLE, OFF(h), 0, NULL, 0x1p-60, 1e6, "time step (clears level)" },
    { "steps", ANY, K_LONG, OFF(steps), 0, NULL, 1, 1e12, "number of steps (clears T and level)" },
    { "T", ANY, K_DOUBLE, OFF(T), 0, NULL, 0x1p-60, 1e12, "final time (with h: steps = T/h, which must be an integer; with level: h = T 2^-level)" },
    { "level", ANY, K_INT, OFF(level), 0, NULL, 0, 40, "level L of the hierarchy: h = T 2^-L, 2^L steps (needs T)" },
    { "output_every", ANY, K_INT, OFF(output_every), 0, NULL, 1, 1e9, "write every k-th step" },
    { "save_at", ANY, K_STRING, OFF(save_at), SLPI_PATH_MAX, NULL, 0, 0, "t1,t2,...: write the rows at these increasing times on the step grid (t = n h) instead of every output_every-th step; the initial row always" },
    /* noise */
    { "seed", ANY, K_U64, OFF(seed), 0, NULL, 0, 0, "canonical noise seed (64-bit), or file: the noise_file's own seed, path and refine (else they must be the problem's; docs/noise.md#files)" },
    { "path", ANY, K_U64, OFF(path), 0, NULL, 0, 0, "realization (path) index" },
    { "truncate", ANY, K_ENUM, OFF(truncate), 0, e_trunc, 0, 0, "auto (on for ISO systems and the rigid body, off for heavy top and sine-Euler) | on | off" },
    { "trunc_ell", ANY, K_DOUBLE, OFF(trunc_ell), 0, NULL, 0x1p-20, 100, "ell of the threshold sqrt(2 ell h |ln h|) (papers: 2)" },
    { "refine", ANY, K_INT, OFF(refine), 0, NULL, 0, 40, "sum 2^refine fine increments per step (coupled hierarchy)" },
    { "noise_file", ANY, K_PATH, OFF(noise_file), SLPI_PATH_MAX, NULL, 0, 0, "read increments from this noise file instead of the generator; its own seed, path and refine must be the problem's (or seed=file)" },
    { "noise_tau", ANY, K_STRING, OFF(noise_tau), SLPI_NOISE_TAU_TEXT, NULL, 0, 0, "Ornstein-Uhlenbeck (coloured) noise: a correlation time tau for every noise Hamiltonian, or tau1,...,tauM one each; 0 or absent: white noise (docs/noise.md#ou)" },
    { "noise_digest", ANY, K_U64, OFF(noise_digest), 0, NULL, 0, 0, "FNV-1a 64 of the noise_file's bytes: recorded in the header by every run; given (verify reads it back), the file must have it" },
    /* solver and scheme options */
    { "tol", ANY, K_DOUBLE, OFF(tol), 0, NULL, 0x1p-60, 0.5, "solver tolerance (max norm, relative to max(1, |u|))" },
    { "tol_scale", ANY, K_ENUM, OFF(tol_scale), 0, e_tol_scale, 0, 0, "what tol is relative to: state (max(1, |u|), default) | step (h |u|, quflow's scaling; fast path)" },
    { "warm_start", ANY, K_ENUM, OFF(warm_start), 0, e_warm, 0, 0, "isomp, fast path: start the solve from the previous step: 0 | 1 (its correction to the start; the default on euler-zeitlin) | 2 (the last two increments extrapolated); checkpoints carry it" },
    { "predictor", ANY, K_ENUM, OFF(predictor), 0, e_predictor, 0, 0, "isomp: the solve's starting guess: euler (default: E = X_n + [Psi(X_n), X_n]/2) | none (X_n) | cayley ((I - Psi(E)/2)^-1 X_n (I + Psi(E)/2)^-1); fixed_iters starts from X_n" },
    { "maxit", ANY, K_INT, OFF(maxit), 0, NULL, 1, 1e6, "solver iteration cap" },
    { "on_cap", ANY, K_ENUM, OFF(on_cap), 0, e_cap, 0, 0, "fail | accept: what a step that reaches maxit does" },
    { "fixed_iters", ANY, K_INT, OFF(fixed_iters), 0, NULL, 0, 1e6, "run exactly this many iterations and accept (0: off)" },
    { "update", ANY, K_ENUM, OFF(isomp_update), 0, e_update, 0, 0, "isomp update: comm (default) | cay" },
    { "reproject", ANY, K_ENUM, OFF(reproject), 0, e_bool, 0, 0, "isomp: project X <- (X - X*)/2 after each step (0 | 1)" },
    { "svi_c", ANY, K_DOUBLE, OFF(svi_c), 0, NULL, -0.25, 0.25, "SVI quadratic-term sign: 0.25 (true Cayley) | -0.25 (as printed)" },
    { "svi_form", ANY, K_ENUM, OFF(svi_form), 0, e_svi_form, 0, 0, "auto | lp | so3 | sd" },
    { "svi_output", ANY, K_ENUM, OFF(svi_output), 0, e_svi_out, 0, 0, "rotation (default) | node" },
    { "dexp_order", ANY, K_INT, OFF(dexp_order), 0, NULL, 0, 8, "RKMK: order q of the truncated dexp^-1" },
    { "solver", ANY, K_ENUM, OFF(solver), 0, e_solver, 0, 0, "IM/TRAP solver: fixed-point | newton" },
    { "prec", ANY, K_LONG, OFF(prec), 0, NULL, 32, 1 << 20, "ref path: working precision in bits" },
    { "prec_max", ANY, K_LONG, OFF(prec_max), 0, NULL, 32, 1 << 20, "ref path: cap for automatic precision doubling" },
    { "propagation", ANY, K_ENUM, OFF(ref_lohner), 0, e_propagation, 0, 0, "ref path: auto (default: lohner where it applies, else ball) | ball (step the last balls) | lohner (mean-value form: far smaller radii over long runs, about 2.4 times the work of a step; ISOMP comm with solved steps, states up to 64 entries)" },
    { "matmul", ANY, K_ENUM, OFF(matmul), 0, e_matmul, 0, 0, "ref path, ISOMP on euler-zeitlin and manakov: who encloses the O(N^3) matrix products: auto (default: blas from N = 32 at the first precision, arb below and on retries) | arb (Arb balls) | blas (midpoint-radius products on binary64 BLAS under an a priori bound; docs/design.md#blas-route)" },
    { "x0", ANY, K_SPECIAL, 0, 0, NULL, 0, 0, "initial state, comma-separated, in the state layout (see slpi.h); on the manifold within 1e-10: heavy top |gamma| = 1, R^T R = I and det R = 1 (SVI forms), su(N) traceless" },
    { "x0_file", ANY, K_PATH, OFF(x0_file), SLPI_PATH_MAX, NULL, 0, 0, "initial state from a file of doubles ('#' comments); the same checks as x0" },
    /* rigid body */
    { "inertia", SLPI_SYS_RIGID_BODY, K_VEC, OFF(rb.inertia), 3, NULL, 1e-12, 1e12, "principal moments of inertia" },
    { "noise", SLPI_SYS_RIGID_BODY, K_ENUM, OFF(rb.noise), 0, e_rb_noise, 0, 0, "noise model (docs/systems.md#rigid-body)" },
    { "amp", SLPI_SYS_RIGID_BODY, K_DOUBLE, OFF(rb.amp), 0, NULL, 0, 1e6, "noise amplitude" },
    { "h0_scale", SLPI_SYS_RIGID_BODY, K_DOUBLE, OFF(rb.h0_scale), 0, NULL, 0, 1e6, "factor on H0 (0: noise only)" },
    { "track_R", SLPI_SYS_RIGID_BODY, K_ENUM, OFF(rb.track_R), 0, e_bool, 0, 0, "SVI form: also integrate R (0 | 1)" },
    /* heavy top */
    { "inertia", SLPI_SYS_HEAVY_TOP, K_VEC, OFF(ht.inertia), 3, NULL, 1e-12, 1e12, "body moments of inertia" },
    { "mga", SLPI_SYS_HEAVY_TOP, K_VEC, OFF(ht.mga), 3, NULL, -1e6, 1e6, "m g a (RKMK: the centre-of-mass vector x)" },
    { "mg", SLPI_SYS_HEAVY_TOP, K_DOUBLE, OFF(ht.mg), 0, NULL, 0, 1e6, "m g of the Gamma noise cases" },
    { "noise", SLPI_SYS_HEAVY_TOP, K_ENUM, OFF(ht.noise), 0, e_ht_noise, 0, 0, "noise model (docs/systems.md#heavy-top)" },
    { "alpha", SLPI_SYS_HEAVY_TOP, K_VEC, OFF(ht.alpha), 3, NULL, -1e6, 1e6, "SALT noise vector (h_1 = alpha.pi)" },
    { "k", SLPI_SYS_HEAVY_TOP, K_VEC, OFF(ht.k), 2, NULL, -1e6, 1e6, "k1,k2 of the SVI noise cases" },
    { "potential_sign", SLPI_SYS_HEAVY_TOP, K_ENUM, OFF(ht.potential_printed), 0, e_ht_sign, 0, 0, "bracket (gamma x x, default) | printed (x x gamma, E-R3)" },
    { "exp_form", SLPI_SYS_HEAVY_TOP, K_ENUM, OFF(ht.exp_form), 0, e_ht_exp, 0, 0, "fast path, RKMK form: how the orbit map's exponential is rounded: stable (cancellation-free coefficients, default) | rodrigues (textbook (1 - cos t)/t^2, (t - sin t)/t^3) | expm (4x4 SE(3) matrix exponential by scaling and squaring) | rodrigues-up (rodrigues with cos t one ulp up: a cosine whose error is one-sided, as NumPy's AVX-512 cos); the exact map is the same (audit R2)" },
    { "theta0", SLPI_SYS_HEAVY_TOP, K_DOUBLE, OFF(ht.theta0), 0, NULL, -10, 10, "SVI form: initial tilt about e_1" },
    { "pi0", SLPI_SYS_HEAVY_TOP, K_VEC, OFF(ht.pi0), 3, NULL, -1e6, 1e6, "SVI form: initial body momentum" },
    /* Manakov */
    { "n", SLPI_SYS_MANAKOV, K_INT, OFF(mk.n), 0, NULL, 3, 64, "so(n)" },
    { "amp", SLPI_SYS_MANAKOV, K_DOUBLE, OFF(mk.amp), 0, NULL, 0, 1e6, "noise amplitude (0.1)" },
    { "noise", SLPI_SYS_MANAKOV, K_ENUM, OFF(mk.noise), 0, e_quad, 0, 0, "none | quad (eq. (37))" },
    /* point vortices */
    { "n", SLPI_SYS_POINT_VORTICES, K_INT, OFF(pv.n), 0, NULL, 2, 64, "number of vortices" },
    { "model", SLPI_SYS_POINT_VORTICES, K_ENUM, OFF(pv.model), 0, e_vortex, 0, 0, "su(2) model A (default) | B" },
    { "amp", SLPI_SYS_POINT_VORTICES, K_DOUBLE, OFF(pv.amp), 0, NULL, 0, 1e6, "noise amplitude (0.1)" },
    { "noise", SLPI_SYS_POINT_VORTICES, K_ENUM, OFF(pv.noise), 0, e_quad, 0, 0, "none | quad (three shared Hamiltonians)" },
    /* Euler–Zeitlin */
    { "N", SLPI_SYS_EULER_ZEITLIN, K_INT, OFF(ez.N), 0, NULL, 2, 1024, "su(N)" },
    { "noise", SLPI_SYS_EULER_ZEITLIN, K_ENUM, OFF(ez.noise), 0, e_ez_noise, 0, 0, "none | Q (default) | L: the built-in noise (43)/(44) | modes: noise_modes | fields: noise_fields" },
    { "amp", SLPI_SYS_EULER_ZEITLIN, K_DOUBLE, OFF(ez.amp), 0, NULL, 0, 1e6, "a_l = amp / (l (l+1)) (0.1 long run, 2 strong test)" },
    { "ic_lmax", SLPI_SYS_EULER_ZEITLIN, K_INT, OFF(ez.ic_lmax), 0, NULL, 0, 1023, "initial condition uses degrees l <= ic_lmax, at most N-1 (0, the default: min(11, N-1), the papers' 11 where N allows)" },
    { "scale", SLPI_SYS_EULER_ZEITLIN, K_DOUBLE, OFF(ez.scale), 0, NULL, 1e-12, 1e12, "Frobenius norm of the initial condition" },
    /* the Zeitlin family (docs/systems.md#zeitlin-family) */
    { "kappa", SLPI_SYS_EULER_ZEITLIN, K_DOUBLE0, OFF(ez.kappa), 0, NULL, 0, 1e6, "quasi-geostrophic: the stream function is psi = (Delta_N - kappa^2)^-1 (X - F), spectral multiplier -l(l+1) - kappa^2 (kappa = 1/deformation radius; 0: Euler)" },
    { "rotation", SLPI_SYS_EULER_ZEITLIN, K_DOUBLE0, OFF(ez.rotation), 0, NULL, -1e6, 1e6, "Omega of the rotating sphere: F gains the Coriolis term f = 2 Omega cos(theta), 2 Omega sqrt(4 pi/3) on Y_(1,0); X is the potential vorticity. Time runs in the matrix unit: t_sphere = c_N t, c_N = sqrt(16 pi/(N(N^2-1))) (a Rossby-Haurwitz wave of degree l, order m turns at m 2 Omega c_N/(l(l+1)+kappa^2); docs/systems.md#time-unit)" },
    { "background_modes", SLPI_SYS_EULER_ZEITLIN, K_STRING, OFF(ez.background_modes), SLPI_EZ_MODES_TEXT, NULL, 0, 0, "fixed background vorticity F += sum amp Y_(l,m), as l:m:amp,... (m > 0 cosine, m < 0 sine, 1 <= l <= N-1); F gives H its linear term" },
    { "noise_modes", SLPI_SYS_EULER_ZEITLIN, K_STRING, OFF(ez.noise_modes), SLPI_EZ_MODES_TEXT, NULL, 0, 0, "noise=modes: one noise Hamiltonian H_k = <X, amp Y_(l,m)> per entry l:m:amp,... (transport noise; M = the entries)" },
    { "multiplier", SLPI_SYS_EULER_ZEITLIN, K_STRING, OFF(ez.multiplier), SLPI_EXPR_MAX_TEXT, NULL, 0, 0, "the Poisson operator L as its spectral multiplier lambda(l), an expression in l (e.g. -l*(l+1)-4, -(l*(l+1))^2): psi = L^-1 (X - F); finite and nonzero at l = 1..N-1, not reading t (L is one operator for the run); in place of kappa (O(N^3) per solve, not kappa's O(N^2))" },
    { "noise_fields", SLPI_SYS_EULER_ZEITLIN, K_PATH, OFF(ez.noise_fields), SLPI_PATH_MAX, NULL, 0, 0, "noise=fields: a file of fields xi_k, one noise Hamiltonian H_k = <X, xi_k> per line of the N^2-1 coefficients on Y_(l,m), l = 1..N-1, m = 0, 1, -1, ..., l, -l ('#' comments; M = the lines)" },
    { "noise_fields_digest", SLPI_SYS_EULER_ZEITLIN, K_U64, OFF(ez.noise_fields_digest), 0, NULL, 0, 0, "FNV-1a 64 of the noise_fields file's bytes: recorded in the header by every run; given (verify, resume), the file must have it" },
    /* sine-Euler */
    { "N", SLPI_SYS_SINE_EULER, K_INT, OFF(se.N), 0, NULL, 3, 99, "su(N), N odd" },
    { "amp", SLPI_SYS_SINE_EULER, K_DOUBLE, OFF(se.amp), 0, NULL, 0, 1e6, "noise amplitude (0.1)" },
    { "noise", SLPI_SYS_SINE_EULER, K_ENUM, OFF(se.noise), 0, e_se_noise, 0, 0, "none | two-mode (modes (1,1) and (1,-1))" },
    { "ic", SLPI_SYS_SINE_EULER, K_ENUM, OFF(se.ic), 0, e_se_ic, 0, 0, "canonical | random | complex" },
    { "ic_seed", SLPI_SYS_SINE_EULER, K_U64, OFF(se.ic_seed), 0, NULL, 0, 0, "seed of a random initial condition" },
    /* models (docs/models.md, core/expr.h) */
    { "algebra", SLPI_SYS_MODEL, K_SPECIAL, 0, 0, NULL, 0, 0, "so3 | se3 | so(n) | su(n) | so3^k: the model's algebra, state layout and textbook equation (so3: x' = x cross grad H; so(n), su(n): X' = [X, grad H], su(n) H at the traceless part; se3: the heavy top's; so3^k: per block; docs/models.md#equations, `slpi model`)" },
    { "H", SLPI_SYS_MODEL, K_SPECIAL, 0, 0, NULL, 0, 0, "the Hamiltonian: an expression in the algebra's coordinates and the parameters" },
    { "noise_H<k>", SLPI_SYS_MODEL, K_SPECIAL, 0, 0, NULL, 0, 0, "noise Hamiltonian k = 1..16 (M = the highest k; 1..M all given)" },
    { "param.<NAME>", SLPI_SYS_MODEL, K_SPECIAL, 0, 0, NULL, 0, 0, "a named parameter usable in every expression: a decimal number" },
    { "t0", SLPI_SYS_MODEL, K_SPECIAL, 0, 0, NULL, 0, 0, "the time of step 0 (default 0): the expressions read t = t0 + (n + c) h in step n at the scheme's stage c (docs/models.md#time); a decimal number, given only when an expression reads t" },
};
// clang-format on
#undef OFF
#undef ANY
#define NKEYS ((int)(sizeof keys / sizeof keys[0]))

/* ------------------------------------------------------------ parsing */

/* Comma-separated finite doubles in [lo, hi] (strict, core/parse.c); returns the count,
 * or -1 with the error naming the entry. */
static int parse_list(const char *key, const char *s, double lo, double hi, double *out, int max, slpi_error *err)
{
    char buf[8192];
    if (strlen(s) >= sizeof buf) {
        slpi_error_set(err, SLPI_EINPUT, "%s: value too long", key);
        return -1;
    }
    strcpy(buf, s);
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char name[64];
        snprintf(name, sizeof name, "%s: entry %d:", key, n + 1);
        if (n >= max) {
            slpi_error_set(err, SLPI_EINPUT, "%s: more than %d entries", key, max);
            return -1;
        }
        if (slpi_parse_double(name, tok, lo, hi, &out[n], err) != SLPI_OK) return -1;
        n++;
    }
    if (n == 0) {
        slpi_error_set(err, SLPI_EINPUT, "%s=%s: no values", key, s);
        return -1;
    }
    return n;
}

static const key_def *find_key(const char *name, slpi_system_id s)
{
    for (int i = 0; i < NKEYS; i++)
        if (strcmp(keys[i].name, name) == 0 && (keys[i].system < 0 || keys[i].system == (int)s))
            return &keys[i];
    return NULL;
}

static int enum_index(const char *const *names, const char *v)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], v) == 0) return i;
    return -1;
}

static int bad_enum(slpi_error *err, const char *key, const char *value, const char *const *names)
{
    char list[256] = "";
    for (int i = 0; names[i]; i++) {
        strncat(list, i ? " | " : "", sizeof list - strlen(list) - 1);
        strncat(list, names[i], sizeof list - strlen(list) - 1);
    }
    return slpi_error_set(err, SLPI_EINPUT, "%s=%s: expected one of %s", key, value, list);
}

static int set_special(slpi_problem *p, const key_def *k, const char *value, slpi_error *err)
{
    if (strcmp(k->name, "system") == 0) {
        slpi_system_id s;
        if (slpi_system_from_name(value, &s) != 0)
            return slpi_error_set(err, SLPI_EINPUT, "system=%s: unknown system (see `slpi list`)", value);
        slpi_scheme_id sch = p->scheme;
        slpi_problem_init(p, s, sch);
        return SLPI_OK;
    }
    if (strcmp(k->name, "scheme") == 0) {
        slpi_scheme_id sch;
        if (slpi_scheme_from_name(value, &sch) != 0)
            return slpi_error_set(err, SLPI_EINPUT, "scheme=%s: unknown scheme (see `slpi list`)", value);
        slpi_scheme_id old = p->scheme;
        p->scheme = sch;
        /* The heavy top's SVI scheme has its own state (Pi, Gamma, R): switching to or
         * from it switches the form and its defaults. Every other system keeps its
         * parameters, so "preset, then another scheme" runs the same case. */
        if ((old == SLPI_SCHEME_SVI) != (sch == SLPI_SCHEME_SVI) && p->system == SLPI_SYS_HEAVY_TOP)
            slpi_problem_system_defaults(p);
        slpi_problem_scheme_defaults(p);
        return SLPI_OK;
    }
    if (strcmp(k->name, "preset") == 0)
        return slpi_problem_preset(p, value, err);
    if (strcmp(k->name, "form") == 0) {
        int i = enum_index(k->enums, value);
        if (i < 0) return bad_enum(err, k->name, value, k->enums);
        slpi_problem_form_defaults(p, i);
        return SLPI_OK;
    }
    if (strcmp(k->name, "algebra") == 0) { /* the one parse of a problem's algebra */
        slpi_algebra a;
        if (slpi_algebra_parse(&a, "algebra", value, err) != SLPI_OK) return SLPI_EINPUT;
        p->model.alg = a;
        slpi_algebra_text(&a, p->model.algebra, sizeof p->model.algebra);
        return SLPI_OK;
    }
    if (strcmp(k->name, "H") == 0) return slpi_problem_set_expression(p->model.H, "H", value, err);
    if (strcmp(k->name, "x0") == 0) {
        double x[SLPI_MAX_X0];
        int n = parse_list("x0", value, -DBL_MAX, DBL_MAX, x, SLPI_MAX_X0, err);
        if (n < 0) return SLPI_EINPUT;
        memcpy(p->x0, x, (size_t)n * sizeof x[0]);
        p->n_x0 = n;
        return SLPI_OK;
    }
    return slpi_error_set(err, SLPI_EINPUT, "%s: internal error (unhandled key)", k->name);
}

static int set_key(slpi_problem *p, const char *key, const char *value, slpi_error *err)
{
    int rc;
    /* slpi_problem_write's mark of a problem whose Hamiltonians are code: the code is not
     * in the text, so the text cannot be run (docs/models.md#callbacks) */
    if (strcmp(key, "uncertified") == 0)
        return slpi_error_set(err, SLPI_EINPUT, "uncertified=%.40s: these Hamiltonians were given as code "
                              "(callbacks), which no file holds: a file written from a callback problem cannot be "
                              "re-verified, resumed or run without the callback; run it through the C or Python API "
                              "with the same callbacks (docs/models.md#callbacks)", value ? value : "");
    if (p->system == SLPI_SYS_MODEL && (value == NULL || value[0] == '\0'))
        return slpi_error_set(err, SLPI_EINPUT, "%s: missing value", key);
    if (p->system == SLPI_SYS_MODEL && slpi_problem_set_model_key(p, key, value, &rc, err)) return rc;
    const key_def *k = find_key(key, p->system);
    if (!k) {
        for (int i = 0; i < NKEYS; i++)
            if (strcmp(keys[i].name, key) == 0)
                return slpi_error_set(err, SLPI_EINPUT, "%s: not a parameter of system %s", key,
                                      slpi_system_name(p->system));
        return slpi_error_set(err, SLPI_EINPUT, "%s: unknown key (the keys: `slpi list --keys`, slpi_problem_key)", key);
    }
    if (value == NULL || value[0] == '\0')
        return slpi_error_set(err, SLPI_EINPUT, "%s: missing value", key);
    char *field = (char *)p + k->offset;
    switch (k->type) {
    case K_SPECIAL:
        return set_special(p, k, value, err);
    case K_DOUBLE:
    case K_DOUBLE0:
        if (slpi_parse_double(key, value, k->lo, k->hi, (double *)field, err) != SLPI_OK) return SLPI_EINPUT;
        if (k->offset == offsetof(slpi_problem, h)) p->level = -1;
        return SLPI_OK;
    case K_INT:
    case K_LONG: {
        long v;
        if (slpi_parse_long(key, value, (long)k->lo, (long)k->hi, &v, err) != SLPI_OK) return SLPI_EINPUT;
        if (k->type == K_INT) *(int *)field = (int)v;
        else *(long *)field = v;
        if (k->offset == offsetof(slpi_problem, steps)) { p->T = 0.0; p->level = -1; }
        return SLPI_OK;
    }
    case K_U64:
        if (k->offset == offsetof(slpi_problem, seed)) {
            p->seed_from_file = strcmp(value, "file") == 0;
            if (p->seed_from_file) return SLPI_OK;
        }
        return slpi_parse_u64(key, value, UINT64_MAX, (uint64_t *)field, err);
    case K_ENUM: {
        int i = enum_index(k->enums, value);
        if (i < 0) return bad_enum(err, key, value, k->enums);
        *(int *)field = i;
        return SLPI_OK;
    }
    case K_VEC: {
        double tmp[8];
        int n = parse_list(key, value, k->lo, k->hi, tmp, 8, err);
        if (n < 0) return SLPI_EINPUT;
        if (n != k->count)
            return slpi_error_set(err, SLPI_EINPUT, "%s=%s: expected %d comma-separated finite numbers",
                                  key, value, k->count);
        memcpy(field, tmp, (size_t)n * sizeof(double));
        return SLPI_OK;
    }
    case K_STRING:
    case K_PATH: {
        char abs[SLPI_PATH_MAX + 1] = "";
        if (k->type == K_PATH && value[0] != '/' && !getcwd(abs, sizeof abs - 1))
            return slpi_error_set(err, SLPI_EINPUT, "%s=%.200s: a relative path, and the current folder has no name "
                                  "(%s)", key, value, strerror(errno));
        if (abs[0]) strcat(abs, "/");   /* relative to the current folder: held absolute */
        if (strlen(abs) + strlen(value) >= (size_t)k->count)
            return slpi_error_set(err, SLPI_EINPUT, "%s: value too long%s", key, abs[0] ? " (made absolute)" : "");
        strcpy(field, abs);
        strcat(field, value);
        if (k->offset == offsetof(slpi_problem, noise_file)) p->noise_digest = 0;   /* another file's */
        if (k->offset == offsetof(slpi_problem, noise_tau)) return slpi_noise_tau_check(field, err);
        if (k->offset == offsetof(slpi_problem, ez.noise_fields)) return slpi_zeitlin_fields_count(p, err);
        return SLPI_OK;
    }
    }
    return slpi_error_set(err, SLPI_EINPUT, "%s: internal error (bad key type)", key);
}

/* A time grid given as T or level is resolved into (h, steps) by slpi_problem_finish: a
 * key that changes the grid (T, level, h, steps, or a reset of defaults) while T or level
 * is in force makes the paths' create refuse the problem until it is finished again
 * (slpi_problem_check_finished); other keys leave a finished problem finished. */
int slpi_problem_set(slpi_problem *p, const char *key, const char *value, slpi_error *err)
{
    double T = p->T, h = p->h;
    long steps = p->steps;
    int level = p->level;
    int rc = set_key(p, key, value, err);
    if (rc == SLPI_OK && (T != p->T || h != p->h || steps != p->steps || level != p->level))
        p->unfinished = p->T > 0 || p->level >= 0;
    return rc;
}

/* Keys that reset defaults must be applied before the others: preset, scheme, system
 * (whose defaults depend on the scheme: SVI brings the SVI forms), form. */
static int key_rank(const char *key)
{
    if (strcmp(key, "preset") == 0) return 0;
    if (strcmp(key, "scheme") == 0) return 1;   /* before system: the system's defaults */
    if (strcmp(key, "system") == 0) return 2;   /* then follow the scheme (SVI forms) */
    if (strcmp(key, "form") == 0) return 3;
    return 4;
}

int slpi_problem_set_all(slpi_problem *p, int n, char *const *kv_keys, char *const *kv_values,
                         const char *const *where, slpi_error *err)
{
    /* one source (a file, the command line, a preset) gives each key once: a second value
     * would silently win or lose */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(kv_keys[i], kv_keys[j]))
                return slpi_error_set(err, SLPI_EINPUT, "%s%s%s: key given twice (%s=%.60s%s%s, then %s=%.60s)",
                                      where && where[i] ? where[i] : "", where && where[i] ? ": " : "", kv_keys[i],
                                      kv_keys[j], kv_values[j], where && where[j] ? " at " : "",
                                      where && where[j] ? where[j] : "", kv_keys[i], kv_values[i]);
    for (int rank = 0; rank <= 4; rank++)
        for (int i = 0; i < n; i++) {
            if (key_rank(kv_keys[i]) != rank) continue;
            if (slpi_problem_set(p, kv_keys[i], kv_values[i], err) != SLPI_OK) {
                if (where && where[i] && err) {
                    char msg[sizeof err->msg];
                    memcpy(msg, err->msg, sizeof msg);
                    snprintf(err->msg, sizeof err->msg, "%.200s: %.300s", where[i], msg);
                }
                return SLPI_EINPUT;
            }
        }
    return SLPI_OK;
}

/* A preset's settings (core/presets.c holds the cases as data), applied as keys. */
int slpi_problem_preset(slpi_problem *p, const char *name, slpi_error *err)
{
    for (const slpi_preset *c = slpi_presets(); c->name; c++) {
        if (strcmp(c->name, name) != 0) continue;
        char buf[1024];
        char *k[32], *v[32];
        int n = 0;
        strcpy(buf, c->settings);
        char *save = NULL;
        for (char *tok = strtok_r(buf, " ", &save); tok && n < 32; tok = strtok_r(NULL, " ", &save)) {
            char *eq = strchr(tok, '=');
            *eq = '\0';
            k[n] = tok;
            v[n] = eq + 1;
            n++;
        }
        int rc = slpi_problem_set_all(p, n, k, v, NULL, err);
        if (rc == SLPI_OK) {
            strncpy(p->preset, name, sizeof p->preset - 1);
            p->preset[sizeof p->preset - 1] = '\0';
        }
        return rc;
    }
    return slpi_error_set(err, SLPI_EINPUT, "preset=%s: unknown preset (see `slpi list`)", name);
}
/* ------------------------------------------------------------ ranges */

/* Every key's range and enum, also for problems filled in by code rather than parsed. */
int slpi_problem_check_ranges(const slpi_problem *p, slpi_error *err)
{
    for (int i = 0; i < NKEYS; i++) {
        const key_def *k = &keys[i];
        if (k->system >= 0 && k->system != (int)p->system) continue;
        const char *field = (const char *)p + k->offset;
        double v[8];
        int n = 1;
        switch (k->type) {
        case K_DOUBLE:
        case K_DOUBLE0: v[0] = *(const double *)field; break;
        case K_INT: v[0] = *(const int *)field; break;
        case K_LONG: v[0] = (double)*(const long *)field; break;
        case K_VEC: n = k->count; memcpy(v, field, (size_t)n * sizeof(double)); break;
        case K_ENUM: {
            int e = *(const int *)field, count = 0;
            while (k->enums[count]) count++;
            if (e < 0 || e >= count)
                return slpi_error_set(err, SLPI_EINPUT, "%s: invalid value %d", k->name, e);
            continue;
        }
        default: continue;
        }
        /* unset optional keys */
        if ((k->offset == offsetof(slpi_problem, T) && v[0] == 0) ||
            (k->offset == offsetof(slpi_problem, level) && v[0] == -1))
            continue;
        for (int j = 0; j < n; j++)
            if (!(v[j] >= k->lo && v[j] <= k->hi))
                return slpi_error_set(err, SLPI_EINPUT, "%s=%g: out of range [%g, %g]", k->name, v[j], k->lo,
                                      k->hi);
    }
    return SLPI_OK;
}

const char *slpi_problem_enum_text(const char *key, slpi_system_id s, int v)
{
    const key_def *k = find_key(key, s);
    int n = 0;
    while (k && k->enums && k->enums[n]) n++;
    return v >= 0 && v < n ? k->enums[v] : "?";
}

/* ------------------------------------------------------------ writing */

static void write_value(const key_def *k, const slpi_problem *p, FILE *f, const char *prefix)
{
    const char *field = (const char *)p + k->offset;
    fprintf(f, "%s%s=", prefix, k->name);
    switch (k->type) {
    case K_DOUBLE:
    case K_DOUBLE0: fprintf(f, "%.17g", *(const double *)field); break;
    case K_INT:   /* ic_lmax: the degree the default stands for, what a reader of the file runs */
        fprintf(f, "%d", k->offset == offsetof(slpi_problem, ez.ic_lmax) ? slpi_problem_ic_lmax(p) : *(const int *)field);
        break;
    case K_LONG: fprintf(f, "%ld", *(const long *)field); break;
    case K_U64:
        if (k->offset == offsetof(slpi_problem, seed) && p->seed_from_file && !p->noise_digest)
            fprintf(f, "file");   /* not yet bound to its noise file (slpi_problem_finish) */
        else
            fprintf(f, "%llu", (unsigned long long)*(const uint64_t *)field);
        break;
    case K_ENUM: fprintf(f, "%s", k->enums[*(const int *)field]); break;
    case K_VEC:
        for (int i = 0; i < k->count; i++)
            fprintf(f, "%s%.17g", i ? "," : "", ((const double *)field)[i]);
        break;
    case K_STRING:
    case K_PATH: fprintf(f, "%s", field); break;
    case K_SPECIAL: break;
    }
    fputc('\n', f);
}

void slpi_problem_write(const slpi_problem *p, FILE *f, const char *prefix)
{
    char cb[256];
    slpi_fpmode r = slpi_round_nearest(); /* %.17g as every caller's: core/fpmode.h */
    if (slpi_problem_callbacks(p, cb, sizeof cb)) fprintf(f, "%suncertified=callback %s\n", prefix, cb);
    fprintf(f, "%ssystem=%s\n", prefix, slpi_system_name(p->system));
    fprintf(f, "%sscheme=%s\n", prefix, slpi_scheme_name(p->scheme));
    if (p->system == SLPI_SYS_RIGID_BODY) fprintf(f, "%sform=%s\n", prefix, e_rb_form[p->rb.form]);
    if (p->system == SLPI_SYS_HEAVY_TOP) fprintf(f, "%sform=%s\n", prefix, e_ht_form[p->ht.form]);
    for (int i = 0; i < NKEYS; i++) {
        const key_def *k = &keys[i];
        if (k->type == K_SPECIAL || (k->system >= 0 && k->system != (int)p->system)) continue;
        if ((k->type == K_STRING || k->type == K_PATH) && ((const char *)p + k->offset)[0] == '\0') continue;
        if (k->type == K_DOUBLE0 && *(const double *)((const char *)p + k->offset) == 0.0) continue;
        if ((strcmp(k->name, "T") == 0 && p->T == 0) || (strcmp(k->name, "level") == 0 && p->level < 0)
            || (k->offset == offsetof(slpi_problem, noise_digest) && !p->noise_digest)
            || (k->offset == offsetof(slpi_problem, ez.noise_fields_digest) && !p->ez.noise_fields_digest))
            continue;
        write_value(k, p, f, prefix);
    }
    if (p->system == SLPI_SYS_MODEL) {
        fprintf(f, "%salgebra=%s\n", prefix, p->model.algebra);
        if (p->model.H[0]) fprintf(f, "%sH=%s\n", prefix, p->model.H);
        for (int k = 0; k < SLPI_MODEL_MAX_NOISE; k++)
            if (p->model.noise_H[k][0]) fprintf(f, "%snoise_H%d=%s\n", prefix, k + 1, p->model.noise_H[k]);
        for (int i = 0; i < p->model.nparam; i++)
            fprintf(f, "%sparam.%s=%s\n", prefix, p->model.param_name[i], p->model.param_text[i]);
        if (p->model.t0_text[0]) fprintf(f, "%st0=%s\n", prefix, p->model.t0_text);
    }
    if (p->n_x0 > 0) {
        fprintf(f, "%sx0=", prefix);
        for (int i = 0; i < p->n_x0; i++) fprintf(f, "%s%.17g", i ? "," : "", p->x0[i]);
        fputc('\n', f);
    }
    slpi_round_restore(r);
}

int slpi_problem_key(int i, const char **name, const char **system, const char **help)
{
    if (i < 0 || i >= NKEYS) return 0;
    *name = keys[i].name;
    *system = keys[i].system < 0 ? "" : slpi_system_name((slpi_system_id)keys[i].system);
    *help = keys[i].help;
    return 1;
}

int slpi_problem_key_kind(int i, const char **kind, double *lo, double *hi, const char *const **names)
{
    static const char *const kinds[] = { "double", "double", "int", "long", "u64", "enum", "vec", "string", "special",
                                         "path" };
    if (i < 0 || i >= NKEYS) return 0;
    *kind = kinds[keys[i].type];
    *lo = keys[i].lo;
    *hi = keys[i].type == K_STRING || keys[i].type == K_PATH ? keys[i].count : keys[i].hi;
    *names = keys[i].enums;
    return 1;
}

int slpi_problem_key_is_path(const char *key)
{
    for (int i = 0; i < NKEYS; i++)
        if (keys[i].type == K_PATH && strcmp(keys[i].name, key) == 0) return 1;
    return 0;
}

void slpi_problem_print_keys(FILE *f)
{
    int w = 15; /* the name column: as wide as the longest key */
    for (int i = 0; i < NKEYS; i++)
        if ((int)strlen(keys[i].name) > w) w = (int)strlen(keys[i].name);
    for (int i = 0; i < NKEYS; i++) {
        const key_def *k = &keys[i];
        fprintf(f, "  %-*s %-15s %s\n", w, k->name,
                k->system < 0 ? "" : slpi_system_name((slpi_system_id)k->system), k->help);
    }
}
