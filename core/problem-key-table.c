/* problem-key-table.c — the one key table of a problem (core/problem-key-table.h): the
 * names of each enumerated key's values, and one row a key: name, system (or all), type,
 * offset in the problem struct, range, help text. core/problem-keys.c parses and writes
 * keys through it; `slpi run --help` and `slpi list --keys` print it, so the documentation
 * cannot drift from the parser (docs/architecture.md, problem keys). */
#include <stddef.h>

#include "slpi/registry-ids.h"
#include "slpi/limits.h"
#include "core/problem-struct.h"
#include "core/problem-key-table.h"

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
static const char *const e_propagation[] = { "ball", "lohner", "auto", NULL }; /* = slpi_propagation */
static const char *const e_matmul[] = { "auto", "arb", "blas", NULL };
static const char *const e_rb_form[] = { "iso", "svi", NULL };
static const char *const e_rb_noise[] = { "none", "iso-quad", "iso-quad1", "svi-lin", "svi-lin1", "const-e3", NULL };
static const char *const e_ht_form[] = { "rkmk", "svi", NULL };
static const char *const e_ht_noise[] = { "none", "salt", "case1", "case2", "case2-pi2", "case3", "case3-pi", NULL };
static const char *const e_ht_sign[] = { "bracket", "printed", NULL };
static const char *const e_ht_exp[] = { "stable", "rodrigues", "expm", "rodrigues-up", NULL };
static const char *const e_quad[] = { "none", "quad", NULL };
static const char *const e_vortex[] = { "A", "B", NULL };
static const char *const e_ez_noise[] = { "none", "Q", "L", "modes", "fields", NULL };
static const char *const e_se_noise[] = { "none", "two-mode", NULL };
static const char *const e_se_ic[] = { "canonical", "random", "complex", NULL };
static const char *const e_bool[] = { "0", "1", NULL };

// clang-format off
const slpi_key_def slpi_problem_keys[] = {
    { "system", ANY, K_SPECIAL, 0, 0, NULL, 0, 0, "rigid-body | heavy-top | manakov | point-vortices | euler-zeitlin | sine-euler | model (resets defaults)" },
    { "scheme", ANY, K_SPECIAL, 0, 0, NULL, 0, 0, "tmk | rkmk-le | rkmk-heun | im-direct | trap-direct | isomp | svi (sets scheme defaults)" },
    { "preset", ANY, K_SPECIAL, 0, 0, NULL, 0, 0, "a docs/experiments.md case name (see `slpi list`)" },
    { "form", SLPI_SYS_RIGID_BODY, K_SPECIAL, 0, 0, e_rb_form, 0, 0, "iso (x, H0 = x.I^-1 x) | svi (Pi, h = Pi.I^-1 Pi / 2): resets the form's defaults" },
    { "form", SLPI_SYS_HEAVY_TOP, K_SPECIAL, 0, 0, e_ht_form, 0, 0, "rkmk (pi, gamma) | svi (Pi, Gamma, R; scheme svi only)" },
    /* time grid */
    { "h", ANY, K_DOUBLE, OFF(grid.h), 0, NULL, 0x1p-60, 1e6, "time step (clears level)" },
    { "steps", ANY, K_LONG, OFF(grid.steps), 0, NULL, 1, 1e12, "number of steps (clears T and level)" },
    { "T", ANY, K_DOUBLE, OFF(grid.T), 0, NULL, 0x1p-60, 1e12, "final time (with h: steps = T/h, which must be an integer; with level: h = T 2^-level)" },
    { "level", ANY, K_INT, OFF(grid.level), 0, NULL, 0, 40, "level L of the hierarchy: h = T 2^-L, 2^L steps (needs T)" },
    { "output_every", ANY, K_INT, OFF(grid.output_every), 0, NULL, 1, 1e9, "write every k-th step" },
    { "save_at", ANY, K_STRING, OFF(grid.save_at), SLPI_PATH_MAX, NULL, 0, 0, "t1,t2,...: write the rows at these increasing times on the step grid (t = n h) instead of every output_every-th step; the initial row always" },
    /* noise */
    { "seed", ANY, K_U64, OFF(noise.seed), 0, NULL, 0, 0, "canonical noise seed (64-bit), or file: the noise_file's own seed, path and refine (else they must be the problem's; docs/noise.md#files)" },
    { "path", ANY, K_U64, OFF(noise.path), 0, NULL, 0, 0, "realization (path) index" },
    { "truncate", ANY, K_ENUM, OFF(noise.truncate), 0, e_trunc, 0, 0, "auto (on for ISO systems and the rigid body, off for heavy top and sine-Euler) | on | off" },
    { "trunc_ell", ANY, K_DOUBLE, OFF(noise.trunc_ell), 0, NULL, 0x1p-20, 100, "ell of the threshold sqrt(2 ell h |ln h|) (papers: 2)" },
    { "refine", ANY, K_INT, OFF(noise.refine), 0, NULL, 0, 40, "sum 2^refine fine increments per step (coupled hierarchy)" },
    { "noise_file", ANY, K_PATH, OFF(noise.noise_file), SLPI_PATH_MAX, NULL, 0, 0, "read increments from this noise file instead of the generator; its own seed, path and refine must be the problem's (or seed=file)" },
    { "noise_tau", ANY, K_STRING, OFF(noise.noise_tau), SLPI_NOISE_TAU_TEXT, NULL, 0, 0, "Ornstein-Uhlenbeck (coloured) noise: a correlation time tau for every noise Hamiltonian, or tau1,...,tauM one each; 0 or absent: white noise (docs/noise.md#ou)" },
    { "noise_digest", ANY, K_U64, OFF(noise.noise_digest), 0, NULL, 0, 0, "FNV-1a 64 of the noise_file's bytes: recorded in the header by every run; given (verify reads it back), the file must have it" },
    /* solver and scheme options */
    { "tol", ANY, K_DOUBLE, OFF(sol.tol), 0, NULL, 0x1p-60, 0.5, "solver tolerance (max norm, relative to max(1, |u|))" },
    { "tol_scale", ANY, K_ENUM, OFF(sol.tol_scale), 0, e_tol_scale, 0, 0, "what tol is relative to: state (max(1, |u|), default) | step (h |u|, quflow's scaling; fast path)" },
    { "warm_start", ANY, K_ENUM, OFF(sch.warm_start), 0, e_warm, 0, 0, "isomp, fast path: start the solve from the previous step: 0 | 1 (its correction to the start; the default on euler-zeitlin) | 2 (the last two increments extrapolated); checkpoints carry it" },
    { "predictor", ANY, K_ENUM, OFF(sch.predictor), 0, e_predictor, 0, 0, "isomp: the solve's starting guess: euler (default: E = X_n + [Psi(X_n), X_n]/2) | none (X_n) | cayley ((I - Psi(E)/2)^-1 X_n (I + Psi(E)/2)^-1); fixed_iters starts from X_n" },
    { "maxit", ANY, K_INT, OFF(sol.maxit), 0, NULL, 1, 1e6, "solver iteration cap" },
    { "on_cap", ANY, K_ENUM, OFF(sol.on_cap), 0, e_cap, 0, 0, "fail | accept: what a step that reaches maxit does" },
    { "fixed_iters", ANY, K_INT, OFF(sol.fixed_iters), 0, NULL, 0, 1e6, "run exactly this many iterations and accept (0: off)" },
    { "update", ANY, K_ENUM, OFF(sch.isomp_update), 0, e_update, 0, 0, "isomp update: comm (default) | cay" },
    { "reproject", ANY, K_ENUM, OFF(sch.reproject), 0, e_bool, 0, 0, "isomp: project X <- (X - X*)/2 after each step (0 | 1)" },
    { "svi_c", ANY, K_DOUBLE, OFF(sch.svi_c), 0, NULL, -0.25, 0.25, "SVI quadratic-term sign: 0.25 (true Cayley) | -0.25 (as printed)" },
    { "svi_form", ANY, K_ENUM, OFF(sch.svi_form), 0, e_svi_form, 0, 0, "auto | lp | so3 | sd" },
    { "svi_output", ANY, K_ENUM, OFF(sch.svi_output), 0, e_svi_out, 0, 0, "rotation (default) | node" },
    { "dexp_order", ANY, K_INT, OFF(sch.dexp_order), 0, NULL, 0, 8, "RKMK: order q of the truncated dexp^-1" },
    { "solver", ANY, K_ENUM, OFF(sol.solver), 0, e_solver, 0, 0, "IM/TRAP solver: fixed-point | newton" },
    { "prec", ANY, K_LONG, OFF(cert.prec), 0, NULL, 32, 1 << 20, "ref path: working precision in bits" },
    { "prec_max", ANY, K_LONG, OFF(cert.prec_max), 0, NULL, 32, 1 << 20, "ref path: cap for automatic precision doubling" },
    { "propagation", ANY, K_ENUM, OFF(cert.ref_lohner), 0, e_propagation, 0, 0, "ref path: auto (default: lohner where it applies, else ball) | ball (step the last balls) | lohner (mean-value form: far smaller radii over long runs, about 2.4 times the work of a step; ISOMP comm with solved steps, states up to 64 entries)" },
    { "matmul", ANY, K_ENUM, OFF(cert.matmul), 0, e_matmul, 0, 0, "ref path, ISOMP on euler-zeitlin and manakov: who encloses the O(N^3) matrix products: auto (default: blas from N = 32 at the first precision, arb below and on retries) | arb (Arb balls) | blas (midpoint-radius products on binary64 BLAS under an a priori bound; docs/design.md#blas-route)" },
    { "x0", ANY, K_SPECIAL, 0, 0, NULL, 0, 0, "initial state, comma-separated, in the state layout (see slpi.h); on the manifold within 1e-10: heavy top |gamma| = 1, R^T R = I and det R = 1 (SVI forms), su(N) traceless" },
    { "x0_file", ANY, K_PATH, OFF(sys.x0_file), SLPI_PATH_MAX, NULL, 0, 0, "initial state from a file of doubles ('#' comments); the same checks as x0" },
    /* rigid body */
    { "inertia", SLPI_SYS_RIGID_BODY, K_VEC, OFF(sys.rb.inertia), 3, NULL, 1e-12, 1e12, "principal moments of inertia" },
    { "noise", SLPI_SYS_RIGID_BODY, K_ENUM, OFF(sys.rb.noise), 0, e_rb_noise, 0, 0, "noise model (docs/systems.md#rigid-body)" },
    { "amp", SLPI_SYS_RIGID_BODY, K_DOUBLE, OFF(sys.rb.amp), 0, NULL, 0, 1e6, "noise amplitude" },
    { "h0_scale", SLPI_SYS_RIGID_BODY, K_DOUBLE, OFF(sys.rb.h0_scale), 0, NULL, 0, 1e6, "factor on H0 (0: noise only)" },
    { "track_R", SLPI_SYS_RIGID_BODY, K_ENUM, OFF(sys.rb.track_R), 0, e_bool, 0, 0, "SVI form: also integrate R (0 | 1)" },
    /* heavy top */
    { "inertia", SLPI_SYS_HEAVY_TOP, K_VEC, OFF(sys.ht.inertia), 3, NULL, 1e-12, 1e12, "body moments of inertia" },
    { "mga", SLPI_SYS_HEAVY_TOP, K_VEC, OFF(sys.ht.mga), 3, NULL, -1e6, 1e6, "m g a (RKMK: the centre-of-mass vector x)" },
    { "mg", SLPI_SYS_HEAVY_TOP, K_DOUBLE, OFF(sys.ht.mg), 0, NULL, 0, 1e6, "m g of the Gamma noise cases" },
    { "noise", SLPI_SYS_HEAVY_TOP, K_ENUM, OFF(sys.ht.noise), 0, e_ht_noise, 0, 0, "noise model (docs/systems.md#heavy-top)" },
    { "alpha", SLPI_SYS_HEAVY_TOP, K_VEC, OFF(sys.ht.alpha), 3, NULL, -1e6, 1e6, "SALT noise vector (h_1 = alpha.pi)" },
    { "k", SLPI_SYS_HEAVY_TOP, K_VEC, OFF(sys.ht.k), 2, NULL, -1e6, 1e6, "k1,k2 of the SVI noise cases" },
    { "potential_sign", SLPI_SYS_HEAVY_TOP, K_ENUM, OFF(sys.ht.potential_printed), 0, e_ht_sign, 0, 0, "bracket (gamma x x, default) | printed (x x gamma, E-R3)" },
    { "exp_form", SLPI_SYS_HEAVY_TOP, K_ENUM, OFF(sys.ht.exp_form), 0, e_ht_exp, 0, 0, "fast path, RKMK form: how the orbit map's exponential is rounded: stable (cancellation-free coefficients, default) | rodrigues (textbook (1 - cos t)/t^2, (t - sin t)/t^3) | expm (4x4 SE(3) matrix exponential by scaling and squaring) | rodrigues-up (rodrigues with cos t one ulp up: a cosine whose error is one-sided, as NumPy's AVX-512 cos); the exact map is the same (audit R2)" },
    { "theta0", SLPI_SYS_HEAVY_TOP, K_DOUBLE, OFF(sys.ht.theta0), 0, NULL, -10, 10, "SVI form: initial tilt about e_1" },
    { "pi0", SLPI_SYS_HEAVY_TOP, K_VEC, OFF(sys.ht.pi0), 3, NULL, -1e6, 1e6, "SVI form: initial body momentum" },
    /* Manakov */
    { "n", SLPI_SYS_MANAKOV, K_INT, OFF(sys.mk.n), 0, NULL, 3, 64, "so(n)" },
    { "amp", SLPI_SYS_MANAKOV, K_DOUBLE, OFF(sys.mk.amp), 0, NULL, 0, 1e6, "noise amplitude (0.1)" },
    { "noise", SLPI_SYS_MANAKOV, K_ENUM, OFF(sys.mk.noise), 0, e_quad, 0, 0, "none | quad (eq. (37))" },
    /* point vortices */
    { "n", SLPI_SYS_POINT_VORTICES, K_INT, OFF(sys.pv.n), 0, NULL, 2, 64, "number of vortices" },
    { "model", SLPI_SYS_POINT_VORTICES, K_ENUM, OFF(sys.pv.model), 0, e_vortex, 0, 0, "su(2) model A (default) | B" },
    { "amp", SLPI_SYS_POINT_VORTICES, K_DOUBLE, OFF(sys.pv.amp), 0, NULL, 0, 1e6, "noise amplitude (0.1)" },
    { "noise", SLPI_SYS_POINT_VORTICES, K_ENUM, OFF(sys.pv.noise), 0, e_quad, 0, 0, "none | quad (three shared Hamiltonians)" },
    /* Euler–Zeitlin */
    { "N", SLPI_SYS_EULER_ZEITLIN, K_INT, OFF(sys.ez.N), 0, NULL, 2, 1024, "su(N)" },
    { "noise", SLPI_SYS_EULER_ZEITLIN, K_ENUM, OFF(sys.ez.noise), 0, e_ez_noise, 0, 0, "none | Q (default) | L: the built-in noise (43)/(44) | modes: noise_modes | fields: noise_fields" },
    { "amp", SLPI_SYS_EULER_ZEITLIN, K_DOUBLE, OFF(sys.ez.amp), 0, NULL, 0, 1e6, "a_l = amp / (l (l+1)) (0.1 long run, 2 strong test)" },
    { "ic_lmax", SLPI_SYS_EULER_ZEITLIN, K_INT, OFF(sys.ez.ic_lmax), 0, NULL, 0, 1023, "initial condition uses degrees l <= ic_lmax, at most N-1 (0, the default: min(11, N-1), the papers' 11 where N allows)" },
    { "scale", SLPI_SYS_EULER_ZEITLIN, K_DOUBLE, OFF(sys.ez.scale), 0, NULL, 1e-12, 1e12, "Frobenius norm of the initial condition" },
    /* the Zeitlin family (docs/systems.md#zeitlin-family) */
    { "kappa", SLPI_SYS_EULER_ZEITLIN, K_DOUBLE0, OFF(sys.ez.kappa), 0, NULL, 0, 1e6, "quasi-geostrophic: the stream function is psi = (Delta_N - kappa^2)^-1 (X - F), spectral multiplier -l(l+1) - kappa^2 (kappa = 1/deformation radius; 0: Euler)" },
    { "rotation", SLPI_SYS_EULER_ZEITLIN, K_DOUBLE0, OFF(sys.ez.rotation), 0, NULL, -1e6, 1e6, "Omega of the rotating sphere: F gains the Coriolis term f = 2 Omega cos(theta), 2 Omega sqrt(4 pi/3) on Y_(1,0); X is the potential vorticity. Time runs in the matrix unit: t_sphere = c_N t, c_N = sqrt(16 pi/(N(N^2-1))) (a Rossby-Haurwitz wave of degree l, order m turns at m 2 Omega c_N/(l(l+1)+kappa^2); docs/systems.md#time-unit)" },
    { "background_modes", SLPI_SYS_EULER_ZEITLIN, K_STRING, OFF(sys.ez.background_modes), SLPI_EZ_MODES_TEXT, NULL, 0, 0, "fixed background vorticity F += sum amp Y_(l,m), as l:m:amp,... (m > 0 cosine, m < 0 sine, 1 <= l <= N-1); F gives H its linear term" },
    { "noise_modes", SLPI_SYS_EULER_ZEITLIN, K_STRING, OFF(sys.ez.noise_modes), SLPI_EZ_MODES_TEXT, NULL, 0, 0, "noise=modes: one noise Hamiltonian H_k = <X, amp Y_(l,m)> per entry l:m:amp,... (transport noise; M = the entries)" },
    { "multiplier", SLPI_SYS_EULER_ZEITLIN, K_STRING, OFF(sys.ez.multiplier), SLPI_EXPR_MAX_TEXT, NULL, 0, 0, "the Poisson operator L as its spectral multiplier lambda(l), an expression in l (e.g. -l*(l+1)-4, -(l*(l+1))^2): psi = L^-1 (X - F); finite and nonzero at l = 1..N-1, not reading t (L is one operator for the run); in place of kappa (O(N^3) per solve, not kappa's O(N^2))" },
    { "noise_fields", SLPI_SYS_EULER_ZEITLIN, K_PATH, OFF(sys.ez.noise_fields), SLPI_PATH_MAX, NULL, 0, 0, "noise=fields: a file of fields xi_k, one noise Hamiltonian H_k = <X, xi_k> per line of the N^2-1 coefficients on Y_(l,m), l = 1..N-1, m = 0, 1, -1, ..., l, -l ('#' comments; M = the lines)" },
    { "noise_fields_digest", SLPI_SYS_EULER_ZEITLIN, K_U64, OFF(sys.ez.noise_fields_digest), 0, NULL, 0, 0, "FNV-1a 64 of the noise_fields file's bytes: recorded in the header by every run; given (verify, resume), the file must have it" },
    /* sine-Euler */
    { "N", SLPI_SYS_SINE_EULER, K_INT, OFF(sys.se.N), 0, NULL, 3, 99, "su(N), N odd" },
    { "amp", SLPI_SYS_SINE_EULER, K_DOUBLE, OFF(sys.se.amp), 0, NULL, 0, 1e6, "noise amplitude (0.1)" },
    { "noise", SLPI_SYS_SINE_EULER, K_ENUM, OFF(sys.se.noise), 0, e_se_noise, 0, 0, "none | two-mode (modes (1,1) and (1,-1))" },
    { "ic", SLPI_SYS_SINE_EULER, K_ENUM, OFF(sys.se.ic), 0, e_se_ic, 0, 0, "canonical | random | complex" },
    { "ic_seed", SLPI_SYS_SINE_EULER, K_U64, OFF(sys.se.ic_seed), 0, NULL, 0, 0, "seed of a random initial condition" },
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
const int slpi_problem_nkeys = (int)(sizeof slpi_problem_keys / sizeof slpi_problem_keys[0]);
