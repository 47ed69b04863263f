/* problem.c — the problem model: the papers' defaults (docs/systems.md, docs/experiments.md), key=value
 * parsing with validation that names the bad key or value, cross-key rules and the
 * problem-dependent part of the applicability matrix (docs/systems.md#applicability), and the derived
 * shape of a problem (state layout, number of noises, truncation rule of docs/noise.md#truncation).
 *
 * Every key lives in one table (`keys` below): its name, the system it belongs to
 * (or all), its type, where it is stored, its range and its help text. `slpi run
 * --help` and `slpi list --keys` print that table, so the documentation cannot drift
 * from the parser. */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "slpi.h"
#include "core/expr.h"

enum key_type { K_DOUBLE, K_INT, K_LONG, K_U64, K_ENUM, K_VEC, K_STRING, K_SPECIAL };

typedef struct {
    const char *name;
    int system;               /* -1: every system */
    enum key_type type;
    size_t offset;
    int count;                /* K_VEC: number of doubles; K_STRING: buffer size */
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
static const char *const e_predictor[] = { "euler", "none", NULL };
static const char *const e_warm[] = { "0", "1", "2", NULL };
static const char *const e_propagation[] = { "ball", "lohner", NULL };
static const char *const e_rb_form[] = { "iso", "svi", NULL };
static const char *const e_rb_noise[] = { "none", "iso-quad", "iso-quad1", "svi-lin", "svi-lin1",
                                          "const-e3", NULL };
static const char *const e_ht_form[] = { "rkmk", "svi", NULL };
static const char *const e_ht_noise[] = { "none", "salt", "case1", "case2", "case2-pi2", "case3",
                                          "case3-pi", NULL };
static const char *const e_ht_sign[] = { "bracket", "printed", NULL };
static const char *const e_ht_exp[] = { "stable", "rodrigues", "expm", NULL };
static const char *const e_quad[] = { "none", "quad", NULL };
static const char *const e_vortex[] = { "A", "B", NULL };
static const char *const e_ez_noise[] = { "none", "Q", "L", NULL };
static const char *const e_se_noise[] = { "none", "two-mode", NULL };
static const char *const e_se_ic[] = { "canonical", "random", "complex", NULL };
static const char *const e_bool[] = { "0", "1", NULL };

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
    /* noise */
    { "seed", ANY, K_U64, OFF(seed), 0, NULL, 0, 0, "canonical noise seed (64-bit)" },
    { "path", ANY, K_U64, OFF(path), 0, NULL, 0, 0, "realization (path) index" },
    { "truncate", ANY, K_ENUM, OFF(truncate), 0, e_trunc, 0, 0, "auto (on for ISO systems and the rigid body, off for heavy top and sine-Euler) | on | off" },
    { "trunc_ell", ANY, K_DOUBLE, OFF(trunc_ell), 0, NULL, 0x1p-20, 100, "ell of the threshold sqrt(2 ell h |ln h|) (papers: 2)" },
    { "refine", ANY, K_INT, OFF(refine), 0, NULL, 0, 40, "sum 2^refine fine increments per step (coupled hierarchy)" },
    { "noise_file", ANY, K_STRING, OFF(noise_file), SLPI_PATH_MAX, NULL, 0, 0, "read increments from this noise file instead of the generator" },
    /* solver and scheme options */
    { "tol", ANY, K_DOUBLE, OFF(tol), 0, NULL, 0x1p-60, 0.5, "solver tolerance (max norm, relative to max(1, |u|))" },
    { "tol_scale", ANY, K_ENUM, OFF(tol_scale), 0, e_tol_scale, 0, 0, "what tol is relative to: state (max(1, |u|), default) | step (h |u|, quflow's scaling; fast path)" },
    { "warm_start", ANY, K_ENUM, OFF(warm_start), 0, e_warm, 0, 0, "isomp, fast path: start the solve from the previous step: 0 | 1 (its correction to the start) | 2 (the last two increments extrapolated); not in ensembles or with checkpoints" },
    { "predictor", ANY, K_ENUM, OFF(predictor), 0, e_predictor, 0, 0, "isomp: the solve's starting guess: euler (default: X_n + [Psi(X_n), X_n]/2) | none (X_n); fixed_iters starts from X_n" },
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
    { "propagation", ANY, K_ENUM, OFF(ref_lohner), 0, e_propagation, 0, 0, "ref path: ball (step the last balls, default) | lohner (mean-value form: far smaller radii over long runs; ISOMP comm, states up to 64 entries; no checkpoints)" },
    { "x0", ANY, K_SPECIAL, 0, 0, NULL, 0, 0, "initial state, comma-separated, in the state layout (see slpi.h); on the manifold within 1e-10: heavy top |gamma| = 1, R^T R = I and det R = 1 (SVI forms), su(N) traceless" },
    { "x0_file", ANY, K_STRING, OFF(x0_file), SLPI_PATH_MAX, NULL, 0, 0, "initial state from a file of doubles ('#' comments); the same checks as x0" },
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
    { "exp_form", SLPI_SYS_HEAVY_TOP, K_ENUM, OFF(ht.exp_form), 0, e_ht_exp, 0, 0, "fast path, RKMK form: how the orbit map's exponential is rounded: stable (cancellation-free coefficients, default) | rodrigues (textbook (1 - cos t)/t^2, (t - sin t)/t^3) | expm (4x4 SE(3) matrix exponential by scaling and squaring); the exact map is the same (audit R2)" },
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
    { "N", SLPI_SYS_EULER_ZEITLIN, K_INT, OFF(ez.N), 0, NULL, 2, 256, "su(N)" },
    { "noise", SLPI_SYS_EULER_ZEITLIN, K_ENUM, OFF(ez.noise), 0, e_ez_noise, 0, 0, "none | Q (default) | L" },
    { "amp", SLPI_SYS_EULER_ZEITLIN, K_DOUBLE, OFF(ez.amp), 0, NULL, 0, 1e6, "a_l = amp / (l (l+1)) (0.1 long run, 2 strong test)" },
    { "ic_lmax", SLPI_SYS_EULER_ZEITLIN, K_INT, OFF(ez.ic_lmax), 0, NULL, 1, 255, "initial condition uses degrees l <= ic_lmax" },
    { "scale", SLPI_SYS_EULER_ZEITLIN, K_DOUBLE, OFF(ez.scale), 0, NULL, 1e-12, 1e12, "Frobenius norm of the initial condition" },
    /* sine-Euler */
    { "N", SLPI_SYS_SINE_EULER, K_INT, OFF(se.N), 0, NULL, 3, 99, "su(N), N odd" },
    { "amp", SLPI_SYS_SINE_EULER, K_DOUBLE, OFF(se.amp), 0, NULL, 0, 1e6, "noise amplitude (0.1)" },
    { "noise", SLPI_SYS_SINE_EULER, K_ENUM, OFF(se.noise), 0, e_se_noise, 0, 0, "none | two-mode (modes (1,1) and (1,-1))" },
    { "ic", SLPI_SYS_SINE_EULER, K_ENUM, OFF(se.ic), 0, e_se_ic, 0, 0, "canonical | random | complex" },
    { "ic_seed", SLPI_SYS_SINE_EULER, K_U64, OFF(se.ic_seed), 0, NULL, 0, 0, "seed of a random initial condition" },
    /* models (docs/models.md, core/expr.h) */
    { "algebra", SLPI_SYS_MODEL, K_SPECIAL, 0, 0, NULL, 0, 0, "so3 | se3 | so(n) | su(n) | so3^k: the model's algebra and state layout" },
    { "H", SLPI_SYS_MODEL, K_SPECIAL, 0, 0, NULL, 0, 0, "the Hamiltonian: an expression in the algebra's coordinates and the parameters" },
    { "noise_H<k>", SLPI_SYS_MODEL, K_SPECIAL, 0, 0, NULL, 0, 0, "noise Hamiltonian k = 1..16 (M = the highest k; 1..M all given)" },
    { "param.<NAME>", SLPI_SYS_MODEL, K_SPECIAL, 0, 0, NULL, 0, 0, "a named parameter usable in every expression: a decimal number" },
};
#undef OFF
#undef ANY
#define NKEYS ((int)(sizeof keys / sizeof keys[0]))

/* ------------------------------------------------------------ defaults */

static void rigid_body_form_defaults(slpi_problem *p, slpi_rb_form form)
{
    p->rb.form = form;
    p->rb.h0_scale = 1.0;
    p->rb.track_R = 0;
    if (form == SLPI_RB_FORM_ISO) {          /* ISO §6.1, eqs. (33)-(35) */
        p->rb.inertia[0] = 2.0; p->rb.inertia[1] = 1.0; p->rb.inertia[2] = 2.0 / 3.0;
        p->rb.noise = SLPI_RB_NOISE_ISO_QUAD;
        p->rb.amp = 0.1;
        p->h = 0x1p-8;
        p->steps = 1000;
    } else {                                 /* SVI §7.1, eq. (53) */
        p->rb.inertia[0] = 1.0; p->rb.inertia[1] = 2.0; p->rb.inertia[2] = 3.0;
        p->rb.noise = SLPI_RB_NOISE_SVI_LIN;
        p->rb.amp = 0.02;
        p->h = 0.01;
        p->steps = 5000;
    }
}

static void heavy_top_form_defaults(slpi_problem *p, slpi_ht_form form)
{
    p->ht.form = form;
    p->ht.potential_printed = 0;
    p->ht.exp_form = 0;
    p->ht.alpha[0] = 0.01; p->ht.alpha[1] = 0.02; p->ht.alpha[2] = 0.03;
    p->ht.k[0] = 0.1; p->ht.k[1] = 0.1;
    p->ht.mg = 0.98;
    p->h = 0.01;
    if (form == SLPI_HT_FORM_RKMK) {         /* RKMK §5, eqs. (42)-(45) */
        p->ht.inertia[0] = 4.0; p->ht.inertia[1] = 2.0; p->ht.inertia[2] = 1.0;
        p->ht.mga[0] = 0.0; p->ht.mga[1] = 0.0; p->ht.mga[2] = 1.0;
        p->ht.noise = SLPI_HT_NOISE_SALT;
        p->ht.theta0 = 0.0;
        p->ht.pi0[0] = p->ht.pi0[1] = p->ht.pi0[2] = 0.0;
        p->steps = 10000;
    } else {                                 /* SVI §8.3, the gyroscope */
        p->ht.inertia[0] = 0.1; p->ht.inertia[1] = 0.1; p->ht.inertia[2] = 1.0;
        p->ht.mga[0] = 0.0; p->ht.mga[1] = 0.0; p->ht.mga[2] = 0.98;
        p->ht.noise = SLPI_HT_NOISE_NONE;
        p->ht.theta0 = 0.15 * 3.14159265358979323846;
        p->ht.pi0[0] = 0.0; p->ht.pi0[1] = 0.0; p->ht.pi0[2] = 1.0;
        p->steps = 2000;
    }
}

static void system_defaults(slpi_problem *p)
{
    switch (p->system) {
    case SLPI_SYS_RIGID_BODY:
        rigid_body_form_defaults(p, p->scheme == SLPI_SCHEME_SVI ? SLPI_RB_FORM_SVI : SLPI_RB_FORM_ISO);
        break;
    case SLPI_SYS_HEAVY_TOP:
        heavy_top_form_defaults(p, p->scheme == SLPI_SCHEME_SVI ? SLPI_HT_FORM_SVI : SLPI_HT_FORM_RKMK);
        break;
    case SLPI_SYS_MANAKOV:                   /* ISO §6.2 */
        p->mk.n = 10; p->mk.amp = 0.1; p->mk.noise = 1;
        p->h = 0x1p-8; p->steps = 1000;
        break;
    case SLPI_SYS_POINT_VORTICES:            /* ISO §6.3 */
        p->pv.n = 4; p->pv.model = SLPI_VORTEX_MODEL_A; p->pv.amp = 0.1; p->pv.noise = 1;
        p->h = 0x1p-8; p->steps = 1000;
        break;
    case SLPI_SYS_EULER_ZEITLIN:             /* ISO §6.4, strong-test size */
        p->ez.N = 12; p->ez.noise = SLPI_EZ_NOISE_Q; p->ez.amp = 2.0;
        p->ez.ic_lmax = 11; p->ez.scale = 1.0;
        p->h = 0x1p-8; p->steps = 100;
        break;
    case SLPI_SYS_SINE_EULER:                /* RKMK §6 */
        p->se.N = 3; p->se.amp = 0.1; p->se.noise = 1; p->se.ic = SLPI_SE_IC_CANONICAL;
        p->se.ic_seed = 1;
        p->h = 0.5; p->steps = 2000;
        break;
    case SLPI_SYS_MODEL:                     /* the ISO grid (docs/models.md) */
        p->h = 0x1p-8; p->steps = 1000;
        break;
    default:
        break;
    }
}

/* docs/schemes.md#solver, docs/schemes.md#svi solver defaults. */
static void scheme_defaults(slpi_problem *p)
{
    p->on_cap = SLPI_CAP_FAIL;
    p->fixed_iters = 0;
    p->tol = 1e-15;
    switch (p->scheme) {
    case SLPI_SCHEME_TMK:
        p->maxit = 50;
        if (p->system == SLPI_SYS_SINE_EULER) p->tol = 1e-14;
        break;
    case SLPI_SCHEME_IM_DIRECT:
    case SLPI_SCHEME_TRAP_DIRECT:
    case SLPI_SCHEME_ISOMP:
        p->maxit = 100;
        break;
    case SLPI_SCHEME_SVI:
        p->maxit = 200;
        break;
    default:
        p->maxit = 1;    /* explicit schemes: no solver */
        break;
    }
}

void slpi_problem_init(slpi_problem *p, slpi_system_id s, slpi_scheme_id k)
{
    memset(p, 0, sizeof *p);
    p->system = s;
    p->scheme = k;
    p->T = 0.0;
    p->level = -1;
    p->output_every = 1;
    p->seed = 1;
    p->path = 0;
    p->truncate = SLPI_TRUNC_AUTO;
    p->trunc_ell = 2.0;
    p->isomp_update = SLPI_ISO_UPDATE_COMM;
    p->svi_c = 0.25;
    p->svi_form = SLPI_SVI_FORM_AUTO;
    p->svi_output = SLPI_SVI_OUT_ROTATION;
    p->dexp_order = 0;
    p->solver = SLPI_SOLVER_FIXED_POINT;
    p->prec = 128;
    p->prec_max = 1024;
    system_defaults(p);
    scheme_defaults(p);
}

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

/* An expression's text, kept as given (parsed by slpi_problem_validate through
 * slpi_model_parse, when every parameter is known). */
static int set_expression(char *field, const char *key, const char *value, slpi_error *err)
{
    size_t len = strlen(value);
    if (len >= SLPI_EXPR_MAX_TEXT)
        return slpi_error_set(err, SLPI_EINPUT, "%s: %zu characters, over the limit of %d", key, len,
                              SLPI_EXPR_MAX_TEXT - 1);
    memcpy(field, value, len + 1);
    return SLPI_OK;
}

int slpi_problem_callbacks(const slpi_problem *p, char *buf, size_t n)
{
    int count = 0;
    size_t len = 0;
    if (n) buf[0] = 0;
    if (p->system != SLPI_SYS_MODEL) return 0;
    for (int k = 0; k <= SLPI_MODEL_MAX_NOISE; k++) {
        if (!p->model.cb[k].grad) continue;
        char name[32];
        snprintf(name, sizeof name, k ? "noise_H%d" : "H", k);
        if (len < n) len += (size_t)snprintf(buf + len, n - len, "%s%s", count ? "," : "", name);
        count++;
    }
    return count;
}

int slpi_problem_set_callback(slpi_problem *p, int k, slpi_model_grad_fn grad, slpi_model_hvp_fn hvp,
                              slpi_model_energy_fn energy, void *user_data, slpi_error *err)
{
    if (!p || p->system != SLPI_SYS_MODEL)
        return slpi_error_set(err, SLPI_EINPUT, "callback: the problem is not a model (set system=model and "
                              "algebra= first; docs/models.md#callbacks)");
    if (k < 0 || k > SLPI_MODEL_MAX_NOISE)
        return slpi_error_set(err, SLPI_EINPUT, "callback %d: not a Hamiltonian (0 for H, 1..%d for noise_H1..)",
                              k, SLPI_MODEL_MAX_NOISE);
    char name[32];
    snprintf(name, sizeof name, k ? "noise_H%d" : "H", k);
    if (!grad || !hvp)
        return slpi_error_set(err, SLPI_EINPUT, "callback for %s: the %s function is NULL (grad and hvp are both "
                              "required; energy may be NULL)", name, grad ? "hvp" : "grad");
    p->model.cb[k] = (slpi_model_callback){ grad, hvp, energy, user_data };
    return SLPI_OK;
}

/* noise_H<k> and param.<NAME> of a model: 1 if key is one of them (then *rc is the result). */
static int set_model_key(slpi_problem *p, const char *key, const char *value, int *rc, slpi_error *err)
{
    if (strncmp(key, "noise_H", 7) == 0) {
        int k;
        if (slpi_parse_int(key, key + 7, 1, SLPI_MODEL_MAX_NOISE, &k, err) != SLPI_OK) {
            *rc = slpi_error_set(err, SLPI_EINPUT, "%s: unknown key (noise Hamiltonians are noise_H1..noise_H%d)",
                                 key, SLPI_MODEL_MAX_NOISE);
            return 1;
        }
        *rc = set_expression(p->model.noise_H[k - 1], key, value, err);
        return 1;
    }
    if (strncmp(key, "param.", 6) != 0) return 0;
    const char *name = key + 6;
    size_t len = strlen(name);
    int ok = len > 0 && len < SLPI_MODEL_NAME_MAX && (isalpha((unsigned char)name[0]) || name[0] == '_');
    for (size_t i = 0; ok && i < len; i++) ok = isalnum((unsigned char)name[i]) || name[i] == '_';
    if (!ok) {
        *rc = slpi_error_set(err, SLPI_EINPUT, "%s: a parameter name is a letter or '_' then letters, digits "
                             "and '_', at most %d characters", key, SLPI_MODEL_NAME_MAX - 1);
        return 1;
    }
    double v;
    if (slpi_expr_number(key, value, &v, err) != SLPI_OK) { *rc = SLPI_EINPUT; return 1; }
    const char *t = value;
    while (*t == ' ' || *t == '\t' || *t == '+') t++;
    size_t tl = strlen(t);
    while (tl > 0 && (t[tl - 1] == ' ' || t[tl - 1] == '\t')) tl--;
    if (tl >= SLPI_MODEL_PARAM_TEXT) {
        *rc = slpi_error_set(err, SLPI_EINPUT, "%s=%.40s...: at most %d characters", key, value, SLPI_MODEL_PARAM_TEXT - 1);
        return 1;
    }
    int i = 0;
    while (i < p->model.nparam && strcmp(p->model.param_name[i], name) != 0) i++;
    if (i == SLPI_MODEL_MAX_PARAMS) {
        *rc = slpi_error_set(err, SLPI_EINPUT, "%s: more than %d parameters", key, SLPI_MODEL_MAX_PARAMS);
        return 1;
    }
    if (i == p->model.nparam) p->model.nparam++;
    memcpy(p->model.param_name[i], name, len + 1);
    memcpy(p->model.param_text[i], t, tl);
    p->model.param_text[i][tl] = 0;
    p->model.param[i] = v;
    *rc = SLPI_OK;
    return 1;
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
            system_defaults(p);
        scheme_defaults(p);
        return SLPI_OK;
    }
    if (strcmp(k->name, "preset") == 0)
        return slpi_problem_preset(p, value, err);
    if (strcmp(k->name, "form") == 0) {
        int i = enum_index(k->enums, value);
        if (i < 0) return bad_enum(err, k->name, value, k->enums);
        if (p->system == SLPI_SYS_RIGID_BODY) rigid_body_form_defaults(p, (slpi_rb_form)i);
        else heavy_top_form_defaults(p, (slpi_ht_form)i);
        return SLPI_OK;
    }
    if (strcmp(k->name, "algebra") == 0) {
        slpi_algebra a;
        if (slpi_algebra_parse(&a, "algebra", value, err) != SLPI_OK) return SLPI_EINPUT;
        slpi_algebra_text(&a, p->model.algebra, sizeof p->model.algebra);
        return SLPI_OK;
    }
    if (strcmp(k->name, "H") == 0) return set_expression(p->model.H, "H", value, err);
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
    if (p->system == SLPI_SYS_MODEL && set_model_key(p, key, value, &rc, err)) return rc;
    const key_def *k = find_key(key, p->system);
    if (!k) {
        for (int i = 0; i < NKEYS; i++)
            if (strcmp(keys[i].name, key) == 0)
                return slpi_error_set(err, SLPI_EINPUT, "%s: not a parameter of system %s", key,
                                      slpi_system_name(p->system));
        return slpi_error_set(err, SLPI_EINPUT, "%s: unknown key (see `slpi run --help`)", key);
    }
    if (value == NULL || value[0] == '\0')
        return slpi_error_set(err, SLPI_EINPUT, "%s: missing value", key);
    char *field = (char *)p + k->offset;
    switch (k->type) {
    case K_SPECIAL:
        return set_special(p, k, value, err);
    case K_DOUBLE:
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
        if (strlen(value) >= (size_t)k->count)
            return slpi_error_set(err, SLPI_EINPUT, "%s: value too long", key);
        strcpy(field, value);
        return SLPI_OK;
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

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
    return s;
}

int slpi_problem_load(slpi_problem *p, const char *path, slpi_error *err)
{
    FILE *f = slpi_input_open(path, err);
    if (!f) return SLPI_EINPUT;
    enum { MAXL = 256 };
    char *k[MAXL], *v[MAXL], *where[MAXL];
    int n = 0, rc = SLPI_OK, lineno = 0;
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {   /* fgets stops at a NUL byte's line end only */
            rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: %s", path, lineno,
                                strlen(line) < sizeof line - 1 ? "NUL byte in the line" : "line too long");
            break;
        }
        if (lineno == 1 && slpi_parse_text_line(path, 1, line, strlen(line), err) != SLPI_OK) {   /* a BOM */
            rc = SLPI_EINPUT;
            break;
        }
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *s = trim(line);
        if (*s == '\0') continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: expected key=value, got '%s'", path, lineno, s);
            break;
        }
        if (n == MAXL) {
            rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: too many keys", path, lineno);
            break;
        }
        *eq = '\0';
        char loc[SLPI_PATH_MAX + 32];
        snprintf(loc, sizeof loc, "%s:%d", path, lineno);
        k[n] = strdup(trim(s));
        v[n] = strdup(trim(eq + 1));
        where[n] = strdup(loc);
        n++;
    }
    if (rc == SLPI_OK && ferror(f))
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: read error", path);
    fclose(f);
    if (rc == SLPI_OK)
        rc = slpi_problem_set_all(p, n, k, v, (const char *const *)where, err);
    for (int i = 0; i < n; i++) { free(k[i]); free(v[i]); free(where[i]); }
    return rc;
}

/* ------------------------------------------------------------ validation */

/* Stochastic Lie-Euler (RKMK-LE) is Stratonovich-consistent for p's system and noise model
 * (docs/schemes.md#rkmk; claim X4, computed two ways in gaps/consistency.c). Its mean increment carries
 * 1/2 sum_k ad*_{xi_k} V_k h with V_k = ad*_{xi_k(mu)} mu; the Stratonovich SDE's Ito drift is
 * 1/2 sum_k (ad*_{xi_k} V_k + ad*_{D xi_k(mu)[V_k]} mu), so the scheme misses
 * d(mu) = 1/2 sum_k ad*_{D xi_k(mu)[V_k]} mu and is consistent iff d = 0. Linear H_k have
 * D xi_k = 0; H_k = phi(<mu, e_k>) has D xi_k[V_k] = phi'' <V_k, e_k> e_k with
 * <ad*_{e_k} mu, e_k> = <mu, [e_k, e_k]> = 0; the heavy top's k|Pi|^2 moves Gamma only
 * (V_k = (0, .)), so D xi_k[V_k] = 0. So every noise model here is consistent; a noise
 * such as H_1 = a x_1 x_2 on so(3) is not (d != 0: the audit's negative control). */
int slpi_problem_le_consistent(const slpi_problem *p, const char **why)
{
    const char *r = NULL;
    switch (p->system) {
    case SLPI_SYS_RIGID_BODY:
        switch (p->rb.noise) {
        case SLPI_RB_NOISE_NONE: r = "no noise"; break;
        case SLPI_RB_NOISE_ISO_QUAD:
        case SLPI_RB_NOISE_ISO_QUAD1: r = "H_i = amp x_i^2 is a function of one coordinate"; break;
        case SLPI_RB_NOISE_SVI_LIN:
        case SLPI_RB_NOISE_SVI_LIN1:
        case SLPI_RB_NOISE_CONST_E3: r = "linear H_k"; break;
        }
        break;
    case SLPI_SYS_HEAVY_TOP:
        r = p->ht.noise == SLPI_HT_NOISE_NONE ? "no noise"
            : p->ht.noise == SLPI_HT_NOISE_CASE2_PI2 ? "H_1 = k|Pi|^2 moves Gamma only: D xi[V] = 0"
            : "linear H_k";
        break;
    case SLPI_SYS_MANAKOV:
        r = p->mk.noise ? "H_ij = amp X_ij^2 is a function of one coordinate" : "no noise";
        break;
    case SLPI_SYS_POINT_VORTICES:
        r = p->pv.noise ? "each shared H_k is a sum of functions of one coordinate per vortex"
            : "no noise";
        break;
    case SLPI_SYS_EULER_ZEITLIN:
        r = p->ez.noise == SLPI_EZ_NOISE_Q ? "reading (Q): H = a_l omega^2/2 is a function of one "
            "coordinate" : p->ez.noise == SLPI_EZ_NOISE_L ? "reading (L): linear H_k" : "no noise";
        break;
    case SLPI_SYS_SINE_EULER:
        r = p->se.noise ? "SALT noise: linear H_k" : "no noise";
        break;
    case SLPI_SYS_MODEL: {
        slpi_model m;
        slpi_error e;
        if (slpi_model_parse(&m, p, &e) != SLPI_OK) {
            if (why) *why = "the model does not parse";
            return 0;
        }
        const char *w;
        int ok = slpi_model_le_consistent(&m, &w);
        slpi_model_free(&m);
        if (why) *why = w;
        return ok;
    }
    default:
        break;
    }
    if (why) *why = r ? r : "no derivation for this noise model (docs/schemes.md#rkmk)";
    return r != NULL;
}

/* Every key's range and enum, also for problems filled in by code rather than parsed. */
static int check_all_ranges(const slpi_problem *p, slpi_error *err)
{
    for (int i = 0; i < NKEYS; i++) {
        const key_def *k = &keys[i];
        if (k->system >= 0 && k->system != (int)p->system) continue;
        const char *field = (const char *)p + k->offset;
        double v[8];
        int n = 1;
        switch (k->type) {
        case K_DOUBLE: v[0] = *(const double *)field; break;
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

/* Refuse a problem set since its last slpi_problem_finish (for the paths' create). */
int slpi_problem_check_finished(const slpi_problem *p, const char *who, slpi_error *err)
{
    if (p->unfinished && (p->T > 0 || p->level >= 0))
        return slpi_error_set(err, SLPI_EINPUT, "%s: T=%.17g, level=%d not resolved: call slpi_problem_finish after "
                              "the last key (it turns T and level into h and steps)", who, p->T, p->level);
    return SLPI_OK;
}

/* A model's applicability, scheme by scheme (docs/models.md#schemes): ISOMP and SVI need a
 * matrix algebra with an invariant pairing (not se3); the SVI-SO3 vector form is for so3
 * only, the SVI-LP form for the matrix algebras; TMK, RKMK-Heun, IM and TRAP need the
 * gradient, its derivative, ad*, the bracket and the orbit map, which every algebra has;
 * RKMK-LE needs the consistency rule (slpi_problem_le_consistent). Also: the model must
 * parse. (Its initial state is the user's: slpi_problem_initial_state refuses a model
 * without x0 or x0_file, while an API caller may hand the state to the step directly.) */
static int validate_model(const slpi_problem *p, slpi_error *err)
{
    slpi_model m;
    if (slpi_model_parse(&m, p, err) != SLPI_OK) return SLPI_EINPUT;
    int se3 = m.alg.kind == SLPI_ALGEBRA_SE3, so3 = m.alg.kind == SLPI_ALGEBRA_SO3;
    slpi_model_free(&m);
    const char *sch = slpi_scheme_name(p->scheme);
    if (se3 && (p->scheme == SLPI_SCHEME_ISOMP || p->scheme == SLPI_SCHEME_SVI))
        return slpi_error_set(err, SLPI_EINPUT, "scheme %s is not applicable to a model on se3: %s", sch,
                              p->scheme == SLPI_SCHEME_ISOMP
                                  ? "ISOMP needs a J-quadratic matrix algebra with an invariant pairing, and se(3) is not one"
                                  : "SVI's forms are the SO(3) vector form, the semidirect form with R (the heavy top's "
                                    "SVI state) and the compact quadratic group form; se3's (pi, gamma) state has none");
    if (p->scheme == SLPI_SCHEME_SVI && p->svi_form == SLPI_SVI_FORM_SO3 && !so3)
        return slpi_error_set(err, SLPI_EINPUT, "svi_form=so3 (SO(3) vector form) needs algebra=so3, not %s",
                              p->model.algebra);
    return SLPI_OK;
}

int slpi_problem_validate(const slpi_problem *p, slpi_error *err)
{
    const char *reason = "";
    if ((unsigned)p->system >= SLPI_SYS_COUNT)
        return slpi_error_set(err, SLPI_EINPUT, "unknown system id %d", (int)p->system);
    if ((unsigned)p->scheme >= SLPI_SCHEME_COUNT)
        return slpi_error_set(err, SLPI_EINPUT, "unknown scheme id %d", (int)p->scheme);
    const char *sys = slpi_system_name(p->system), *sch = slpi_scheme_name(p->scheme);
    if (!(p->h > 0) || !isfinite(p->h))
        return slpi_error_set(err, SLPI_EINPUT, "h=%g: the step size must be positive", p->h);
    if (check_all_ranges(p, err) != SLPI_OK) return SLPI_EINPUT;
    if (p->system == SLPI_SYS_MODEL && validate_model(p, err) != SLPI_OK) return SLPI_EINPUT;
    if (slpi_registry_pair(p->system, p->scheme, &reason) == SLPI_NA)
        return slpi_error_set(err, SLPI_EINPUT, "scheme %s is not applicable to system %s: %s", sch,
                              sys, reason);
    if (p->scheme == SLPI_SCHEME_RKMK_LE && !slpi_problem_le_consistent(p, &reason))
        return slpi_error_set(err, SLPI_EINPUT,
                              "scheme rkmk-le is not applicable to system %s with this noise model: "
                              "stochastic Lie-Euler is not Stratonovich-consistent: %s", sys, reason);
    if (p->steps < 1)
        return slpi_error_set(err, SLPI_EINPUT, "steps=%ld: must be at least 1", p->steps);
    if (p->truncate == SLPI_TRUNC_ON && !(p->h < 1.0))
        return slpi_error_set(err, SLPI_EINPUT,
                              "truncate=on needs h < 1 (the threshold sqrt(2 ell h |ln h|) vanishes at h = 1), got h=%g",
                              p->h);
    if (p->prec_max < p->prec)
        return slpi_error_set(err, SLPI_EINPUT, "prec_max=%ld is below prec=%ld", p->prec_max, p->prec);
    if (p->warm_start && p->scheme != SLPI_SCHEME_ISOMP)
        return slpi_error_set(err, SLPI_EINPUT, "warm_start=%d is an ISOMP solver option, not %s's",
                              p->warm_start, sch);
    if (p->predictor != SLPI_PREDICTOR_EULER && p->scheme != SLPI_SCHEME_ISOMP)
        return slpi_error_set(err, SLPI_EINPUT, "predictor=%s is an ISOMP solver option, not %s's",
                              e_predictor[p->predictor], sch);
    if (p->svi_c != 0.25 && p->svi_c != -0.25)
        return slpi_error_set(err, SLPI_EINPUT, "svi_c=%g: must be 0.25 (true Cayley) or -0.25 (as printed)",
                              p->svi_c);
    if (p->scheme == SLPI_SCHEME_SVI && p->svi_form != SLPI_SVI_FORM_AUTO) {
        int ok = p->svi_form == SLPI_SVI_FORM_LP ? p->system != SLPI_SYS_HEAVY_TOP
               : p->svi_form == SLPI_SVI_FORM_SO3 ? p->system == SLPI_SYS_RIGID_BODY || p->system == SLPI_SYS_MODEL
               : p->system == SLPI_SYS_HEAVY_TOP;
        static const char *const what[] = { "", "general quadratic group", "SO(3) vector form",
                                            "semidirect heavy-top form" };
        if (!ok)
            return slpi_error_set(err, SLPI_EINPUT, "svi_form=%s (%s) does not apply to system %s%s",
                                  e_svi_form[p->svi_form], what[p->svi_form], sys,
                                  p->system == SLPI_SYS_HEAVY_TOP ? ": its SVI is the semidirect form sd" : "");
    }
    /* The SVI form in force (slpi_registry_svi_form, the one rule) and what it admits. */
    if (p->scheme == SLPI_SCHEME_SVI) {
        slpi_svi_form form = slpi_registry_svi_form(p);
        if (form == SLPI_SVI_FORM_LP && p->svi_c == -0.25)
            return slpi_error_set(err, SLPI_EINPUT, "svi_c=-0.25 is defined only for the SO(3) vector "
                                  "forms (svi_form=so3 or sd), not for the lp form of %s", sys);
        if (form == SLPI_SVI_FORM_LP && p->svi_output == SLPI_SVI_OUT_NODE)
            return slpi_error_set(err, SLPI_EINPUT, "svi_output=node exists only for the SO(3) vector "
                                  "forms (svi_form=so3 or sd), not for the lp form of %s", sys);
        if (form == SLPI_SVI_FORM_LP && p->system == SLPI_SYS_RIGID_BODY && p->rb.track_R)
            return slpi_error_set(err, SLPI_EINPUT, "track_R=1 needs the SO(3) vector form (svi_form=so3)");
    }
    switch (p->system) {
    case SLPI_SYS_RIGID_BODY:
        if (p->rb.track_R && p->rb.form != SLPI_RB_FORM_SVI)
            return slpi_error_set(err, SLPI_EINPUT, "track_R=1 needs form=svi");
        break;
    case SLPI_SYS_HEAVY_TOP:
        if (p->ht.form == SLPI_HT_FORM_SVI && p->scheme != SLPI_SCHEME_SVI)
            return slpi_error_set(err, SLPI_EINPUT,
                                  "heavy-top form=svi (the semidirect state (Pi, Gamma, R)) runs only with svi, not %s",
                                  sch);
        if (p->ht.form == SLPI_HT_FORM_RKMK && p->scheme == SLPI_SCHEME_SVI)
            return slpi_error_set(err, SLPI_EINPUT, "scheme svi on heavy-top runs only with form=svi");
        if (p->ht.form == SLPI_HT_FORM_RKMK && p->ht.noise != SLPI_HT_NOISE_NONE &&
            p->ht.noise != SLPI_HT_NOISE_SALT)
            return slpi_error_set(err, SLPI_EINPUT,
                                  "heavy-top noise=%s: the RKMK form (pi, gamma) takes SALT noise or none; "
                                  "the SVI noise cases need scheme svi", e_ht_noise[p->ht.noise]);
        break;
    case SLPI_SYS_EULER_ZEITLIN:
        if (p->scheme == SLPI_SCHEME_TMK && p->ez.N > 32)
            return slpi_error_set(err, SLPI_EINPUT,
                                  "scheme tmk is not applicable to euler-zeitlin with N=%d > 32: the chord matrix is dense of size (N^2-1)^2",
                                  p->ez.N);
        if (p->ez.ic_lmax > p->ez.N - 1)
            return slpi_error_set(err, SLPI_EINPUT, "ic_lmax=%d: must be at most N-1 = %d", p->ez.ic_lmax,
                                  p->ez.N - 1);
        break;
    case SLPI_SYS_SINE_EULER:
        if (p->se.N % 2 == 0)
            return slpi_error_set(err, SLPI_EINPUT, "N=%d: sine-Euler needs N odd (docs/systems.md#sine-euler)", p->se.N);
        break;
    default:
        break;
    }
    for (int i = 0; i < p->n_x0 && i < SLPI_MAX_X0; i++)
        if (!isfinite(p->x0[i]))
            return slpi_error_set(err, SLPI_EINPUT, "x0: entry %d is not finite", i + 1);
    if (p->n_x0 > 0 && p->n_x0 != slpi_problem_state_dim(p))
        return slpi_error_set(err, SLPI_EINPUT, "x0: %d values given, the %s state has %d", p->n_x0, sys,
                              slpi_problem_state_dim(p));
    if (p->n_x0 > 0 && p->x0_file[0])
        return slpi_error_set(err, SLPI_EINPUT, "x0 and x0_file are both given");
    return SLPI_OK;
}

int slpi_problem_finish(slpi_problem *p, slpi_error *err)
{
    if (p->level >= 0) {
        if (!(p->T > 0))
            return slpi_error_set(err, SLPI_EINPUT, "level=%d needs T", p->level);
        p->h = ldexp(p->T, -p->level);
        p->steps = 1L << p->level;
    } else if (p->T > 0) {
        double n = p->T / p->h;
        double r = nearbyint(n);
        if (!(r >= 1) || fabs(n - r) > 1e-9 * r || r > 1e12)
            return slpi_error_set(err, SLPI_EINPUT,
                                  "T=%.17g is not an integer multiple of h=%.17g (T/h = %.17g); the step count is never rounded",
                                  p->T, p->h, n);
        p->steps = (long)r;
    }
    int rc = slpi_problem_validate(p, err);
    if (rc == SLPI_OK) p->unfinished = 0;
    return rc;
}

/* ------------------------------------------------------------ shape */

int slpi_problem_state_dim(const slpi_problem *p)
{
    switch (p->system) {
    case SLPI_SYS_RIGID_BODY: return p->rb.track_R ? 12 : 3;
    case SLPI_SYS_HEAVY_TOP: return p->ht.form == SLPI_HT_FORM_SVI ? 15 : 6;
    case SLPI_SYS_MANAKOV: return p->mk.n * (p->mk.n - 1) / 2;
    case SLPI_SYS_POINT_VORTICES: return 3 * p->pv.n;
    case SLPI_SYS_EULER_ZEITLIN: return p->ez.N * p->ez.N;
    case SLPI_SYS_SINE_EULER: return p->se.N * p->se.N;
    case SLPI_SYS_MODEL: {
        slpi_algebra a;
        slpi_error e;
        return slpi_algebra_parse(&a, "algebra", p->model.algebra, &e) == SLPI_OK ? a.dim : 0;
    }
    default: return 0;
    }
}

int slpi_problem_noise_count(const slpi_problem *p)
{
    static const int rb[] = { 0, 3, 1, 3, 1, 1 };
    static const int ht[] = { 0, 1, 1, 1, 1, 2, 2 };
    switch (p->system) {
    case SLPI_SYS_RIGID_BODY: return rb[p->rb.noise];
    case SLPI_SYS_HEAVY_TOP: return ht[p->ht.noise];
    case SLPI_SYS_MANAKOV: return p->mk.noise ? p->mk.n * (p->mk.n - 1) / 2 : 0;
    case SLPI_SYS_POINT_VORTICES: return p->pv.noise ? 3 : 0;
    case SLPI_SYS_EULER_ZEITLIN: {
        /* degrees l = floor(N/2) .. N-1, 2l+1 real basis elements each (docs/systems.md#euler-zeitlin) */
        int lmin = p->ez.N / 2;
        return p->ez.noise ? p->ez.N * p->ez.N - lmin * lmin : 0;
    }
    case SLPI_SYS_SINE_EULER: return p->se.noise ? 2 : 0;
    case SLPI_SYS_MODEL: {
        int M = 0;
        for (int k = 0; k < SLPI_MODEL_MAX_NOISE; k++)
            if (p->model.noise_H[k][0] || p->model.cb[k + 1].grad) M = k + 1;
        return M;
    }
    default: return 0;
    }
}

int slpi_problem_truncates(const slpi_problem *p)
{
    if (p->truncate != SLPI_TRUNC_AUTO) return p->truncate == SLPI_TRUNC_ON;
    /* a model follows the built-in of its algebra: se3 (the heavy top) off, the others on */
    int iso_like = p->system != SLPI_SYS_HEAVY_TOP && p->system != SLPI_SYS_SINE_EULER &&
                   !(p->system == SLPI_SYS_MODEL && strcmp(p->model.algebra, "se3") == 0);
    return iso_like && p->h < 1.0;
}

void slpi_problem_state_name(const slpi_problem *p, int i, char *buf, size_t n)
{
    static const char *const rb_iso[] = { "x1", "x2", "x3" };
    static const char *const rb_svi[] = { "Pi1", "Pi2", "Pi3", "R11", "R12", "R13", "R21", "R22",
                                          "R23", "R31", "R32", "R33" };
    static const char *const ht_rkmk[] = { "pi1", "pi2", "pi3", "gamma1", "gamma2", "gamma3" };
    static const char *const ht_svi[] = { "Pi1", "Pi2", "Pi3", "Gamma1", "Gamma2", "Gamma3", "R11",
                                          "R12", "R13", "R21", "R22", "R23", "R31", "R32", "R33" };
    switch (p->system) {
    case SLPI_SYS_MODEL: {
        slpi_algebra a;
        slpi_error e;
        if (slpi_algebra_parse(&a, "algebra", p->model.algebra, &e) == SLPI_OK) slpi_algebra_coord_name(&a, i, buf, n);
        else snprintf(buf, n, "x%d", i + 1);
        return;
    }
    case SLPI_SYS_RIGID_BODY:
        snprintf(buf, n, "%s", p->rb.form == SLPI_RB_FORM_ISO ? rb_iso[i] : rb_svi[i]);
        return;
    case SLPI_SYS_HEAVY_TOP:
        snprintf(buf, n, "%s", p->ht.form == SLPI_HT_FORM_RKMK ? ht_rkmk[i] : ht_svi[i]);
        return;
    case SLPI_SYS_MANAKOV: {
        int row = 0, k = i;
        while (k >= p->mk.n - 1 - row) { k -= p->mk.n - 1 - row; row++; }
        snprintf(buf, n, "X_%d_%d", row + 1, row + 2 + k);
        return;
    }
    case SLPI_SYS_POINT_VORTICES:
        snprintf(buf, n, "x%d_%d", i / 3 + 1, i % 3 + 1);
        return;
    default: {
        int N = p->system == SLPI_SYS_EULER_ZEITLIN ? p->ez.N : p->se.N;
        if (i < N) { snprintf(buf, n, "ImX_%d_%d", i, i); return; }
        int k = (i - N) / 2, a = 0;
        while (k >= N - 1 - a) { k -= N - 1 - a; a++; }
        snprintf(buf, n, "%sX_%d_%d", (i - N) % 2 ? "Im" : "Re", a, a + 1 + k);
        return;
    }
    }
}

/* An explicit initial state must lie on the system's manifold (the constraints the
 * schemes preserve, docs/conventions.md): within SLPI_MANIFOLD_TOL, absolute for |gamma| and the
 * rotation R, relative to max(1, max |x|) per diagonal entry for the trace of su(N). */
static int orthogonal(const double *R, double *defect)
{
    double d = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double g = R[i] * R[j] + R[3 + i] * R[3 + j] + R[6 + i] * R[6 + j] - (i == j);
            if (fabs(g) > d) d = fabs(g);
        }
    double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6])
               + R[2] * (R[3] * R[7] - R[4] * R[6]);
    *defect = d > fabs(det - 1) ? d : fabs(det - 1);
    return *defect <= SLPI_MANIFOLD_TOL;
}

static int check_manifold(const slpi_problem *p, const double *x, const char *src, slpi_error *err)
{
    double d;
    int n = 0;
    switch (p->system) {
    case SLPI_SYS_RIGID_BODY:
        if (p->rb.track_R && !orthogonal(x + 3, &d))
            return slpi_error_set(err, SLPI_EINPUT, "%s: R is not a rotation: max(|R^T R - I|, |det R - 1|) = %.3g > %g",
                                  src, d, SLPI_MANIFOLD_TOL);
        return SLPI_OK;
    case SLPI_SYS_HEAVY_TOP: {
        const double *g = x + 3;
        double norm = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        if (!(fabs(norm - 1) <= SLPI_MANIFOLD_TOL))
            return slpi_error_set(err, SLPI_EINPUT, "%s: |%s| = %.17g: the direction of gravity must be a unit "
                                  "vector (within %g)", src, p->ht.form == SLPI_HT_FORM_SVI ? "Gamma" : "gamma", norm,
                                  SLPI_MANIFOLD_TOL);
        if (p->ht.form == SLPI_HT_FORM_SVI && !orthogonal(x + 6, &d))
            return slpi_error_set(err, SLPI_EINPUT, "%s: R is not a rotation: max(|R^T R - I|, |det R - 1|) = %.3g > %g",
                                  src, d, SLPI_MANIFOLD_TOL);
        return SLPI_OK;
    }
    case SLPI_SYS_EULER_ZEITLIN: n = p->ez.N; break;
    case SLPI_SYS_SINE_EULER: n = p->se.N; break;
    case SLPI_SYS_MODEL:
        if (sscanf(p->model.algebra, "su(%d)", &n) != 1) return SLPI_OK;
        break;
    default: return SLPI_OK;
    }
    /* su(N): Im X_aa (the first N values) sum to 0 */
    double tr = 0, scale = 1;
    for (int i = 0; i < n * n; i++) scale = fabs(x[i]) > scale ? fabs(x[i]) : scale;
    for (int i = 0; i < n; i++) tr += x[i];
    if (!(fabs(tr) <= SLPI_MANIFOLD_TOL * scale * n))
        return slpi_error_set(err, SLPI_EINPUT, "%s: the trace of X is %.3g i: an su(%d) state is traceless (the "
                              "diagonal values Im X_aa must sum to 0 within %g max(1, max|x|) N)", src, tr, n,
                              SLPI_MANIFOLD_TOL);
    return SLPI_OK;
}

int slpi_problem_check_state(const slpi_problem *p, const double *x, slpi_error *err)
{
    for (int i = 0; i < slpi_problem_state_dim(p); i++)
        if (!isfinite(x[i])) return slpi_error_set(err, SLPI_EINPUT, "x0[%d] = %g: not finite", i, x[i]);
    return check_manifold(p, x, "x0", err);
}

int slpi_problem_explicit_x0(const slpi_problem *p, double *x, slpi_error *err)
{
    int dim = slpi_problem_state_dim(p);
    if (p->n_x0 > 0) {
        if (p->n_x0 != dim) {
            slpi_error_set(err, SLPI_EINPUT, "x0: %d values given, the state has %d", p->n_x0, dim);
            return -1;
        }
        memcpy(x, p->x0, (size_t)dim * sizeof(double));
        return check_manifold(p, x, "x0", err) == SLPI_OK ? 1 : -1;
    }
    if (!p->x0_file[0]) return 0;
    FILE *f = slpi_input_open(p->x0_file, err);
    if (!f) return -1;
    int count = 0, lineno = 0, rc = 1;
    char *line = NULL;   /* whole lines: a fixed buffer would split a number at its edge */
    size_t cap = 0;
    ssize_t len;
    while (rc == 1 && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
        if (len > 0 && line[len - 1] == '\r') line[--len] = '\0';   /* CRLF is harmless here */
        if (slpi_parse_text_line(p->x0_file, lineno, line, (size_t)len, err) != SLPI_OK) {
            rc = -1;
            break;
        }
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *save = NULL, where[SLPI_PATH_MAX + 32];
        snprintf(where, sizeof where, "%s:%d:", p->x0_file, lineno);
        for (char *tok = strtok_r(line, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
            double v;
            if (slpi_parse_double(where, tok, -DBL_MAX, DBL_MAX, &v, err) != SLPI_OK) {
                rc = -1;
                break;
            }
            if (count == dim) {
                slpi_error_set(err, SLPI_EINPUT, "%s:%d: more than the %d values of the state", p->x0_file,
                               lineno, dim);
                rc = -1;
                break;
            }
            x[count++] = v;
        }
    }
    free(line);
    fclose(f);
    if (rc == 1 && count != dim) {
        slpi_error_set(err, SLPI_EINPUT, "%s: %d values, the state has %d", p->x0_file, count, dim);
        rc = -1;
    }
    if (rc == 1 && check_manifold(p, x, p->x0_file, err) != SLPI_OK) rc = -1;
    return rc;
}

/* ------------------------------------------------------------ writing */

static void write_value(const key_def *k, const slpi_problem *p, FILE *f, const char *prefix)
{
    const char *field = (const char *)p + k->offset;
    fprintf(f, "%s%s=", prefix, k->name);
    switch (k->type) {
    case K_DOUBLE: fprintf(f, "%.17g", *(const double *)field); break;
    case K_INT: fprintf(f, "%d", *(const int *)field); break;
    case K_LONG: fprintf(f, "%ld", *(const long *)field); break;
    case K_U64: fprintf(f, "%llu", (unsigned long long)*(const uint64_t *)field); break;
    case K_ENUM: fprintf(f, "%s", k->enums[*(const int *)field]); break;
    case K_VEC:
        for (int i = 0; i < k->count; i++)
            fprintf(f, "%s%.17g", i ? "," : "", ((const double *)field)[i]);
        break;
    case K_STRING: fprintf(f, "%s", field); break;
    case K_SPECIAL: break;
    }
    fputc('\n', f);
}

void slpi_problem_write(const slpi_problem *p, FILE *f, const char *prefix)
{
    char cb[256];
    if (slpi_problem_callbacks(p, cb, sizeof cb)) fprintf(f, "%suncertified=callback %s\n", prefix, cb);
    fprintf(f, "%ssystem=%s\n", prefix, slpi_system_name(p->system));
    fprintf(f, "%sscheme=%s\n", prefix, slpi_scheme_name(p->scheme));
    if (p->system == SLPI_SYS_RIGID_BODY) fprintf(f, "%sform=%s\n", prefix, e_rb_form[p->rb.form]);
    if (p->system == SLPI_SYS_HEAVY_TOP) fprintf(f, "%sform=%s\n", prefix, e_ht_form[p->ht.form]);
    for (int i = 0; i < NKEYS; i++) {
        const key_def *k = &keys[i];
        if (k->type == K_SPECIAL || (k->system >= 0 && k->system != (int)p->system)) continue;
        if (k->type == K_STRING && ((const char *)p + k->offset)[0] == '\0') continue;
        if ((strcmp(k->name, "T") == 0 && p->T == 0) || (strcmp(k->name, "level") == 0 && p->level < 0))
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
    }
    if (p->n_x0 > 0) {
        fprintf(f, "%sx0=", prefix);
        for (int i = 0; i < p->n_x0; i++) fprintf(f, "%s%.17g", i ? "," : "", p->x0[i]);
        fputc('\n', f);
    }
}

int slpi_problem_key(int i, const char **name, const char **system, const char **help)
{
    if (i < 0 || i >= NKEYS) return 0;
    *name = keys[i].name;
    *system = keys[i].system < 0 ? "" : slpi_system_name((slpi_system_id)keys[i].system);
    *help = keys[i].help;
    return 1;
}

void slpi_problem_print_keys(FILE *f)
{
    for (int i = 0; i < NKEYS; i++) {
        const key_def *k = &keys[i];
        fprintf(f, "  %-15s %-15s %s\n", k->name,
                k->system < 0 ? "" : slpi_system_name((slpi_system_id)k->system), k->help);
    }
}
