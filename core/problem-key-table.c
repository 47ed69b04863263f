/* problem-key-table.c — the one key table of a problem (core/problem-key-table.h): the
 * names of each enumerated key's values, and one row a key: name, system (or all), type,
 * offset in the problem struct, range, help text. The keys of every system are here, then
 * each system's own rows, which its descriptor holds (core/system-<name>.c). core/problem-keys.c parses and writes
 * keys through it; `slpi run --help` and `slpi list --keys` print it, so the documentation
 * cannot drift from the parser (docs/architecture.md, problem keys). */
#include <stddef.h>

#include "slpi/registry-ids.h"
#include "slpi/limits.h"
#include "core/problem-struct.h"
#include "core/problem-key-table.h"
#include "core/system.h"

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

// clang-format off
static const slpi_key_def common[] = {
    { "system", ANY, K_SPECIAL, 0, 0, NULL, 0, 0, "a system that `slpi list` names: a built-in one or model (resets defaults)" },
    { "scheme", ANY, K_SPECIAL, 0, 0, NULL, 0, 0, "tmk | rkmk-le | rkmk-heun | im-direct | trap-direct | isomp | svi (sets scheme defaults)" },
    { "preset", ANY, K_SPECIAL, 0, 0, NULL, 0, 0, "a docs/experiments.md case name (see `slpi list`)" },
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
    { "reproject", ANY, K_ENUM, OFF(sch.reproject), 0, slpi_key_bool, 0, 0, "isomp: project X <- (X - X*)/2 after each step (0 | 1)" },
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
};
// clang-format on
#undef OFF
#undef ANY
static const int ncommon = (int)(sizeof common / sizeof common[0]);

const slpi_key_def *slpi_problem_key_row(int i)
{
    if (i < 0) return NULL;
    if (i < ncommon) return &common[i];
    i -= ncommon;
    for (int s = 0; s < SLPI_SYS_COUNT; s++) {
        const slpi_system_desc *d = slpi_system_get((slpi_system_id)s);
        if (i < d->nkeys) return &d->keys[i];
        i -= d->nkeys;
    }
    return NULL;
}
