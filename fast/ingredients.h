/* fast/ingredients.h — the ingredients of a step that `slpi verify`'s diagnosis scales
 * (oracle/diagnose.c; oracle/README.md#diagnosis): each is a coefficient, 1 in the scheme,
 * on one part of the step in the words of docs/schemes.md. Every scheme has the drift (the
 * increment h of H_0), the amplitude of each of the first SLPI_FAST_NOISE_NAMED noise
 * Hamiltonians (its increment dW_k), of all of them together ("noise"), and the swap of
 * each two of the first SLPI_FAST_SWAP_NAMED components ("noise 1 and 2 swapped": at
 * coefficient c, dW_a + (c - 1)(dW_b - dW_a) drives H_a and dW_b + (c - 1)(dW_a - dW_b)
 * H_b, so c = 2 swaps the increments; a sign flip or an amplitude error of one component
 * is noise k's coefficient, -1 or 1 + e). ISOMP with the commutator update and the
 * fixed-point solver adds the terms of its step, [Psi,Y]/2 and Psi Y Psi/4 of the
 * midpoint's fixed point and the update X_n + [Psi,Y] (docs/schemes.md#isomp), and the
 * reordered product ("Psi Y Psi/4 reordered": at coefficient c, c - 1 of Psi Y Psi/4 is
 * formed with its factors reordered as Psi Psi Y, or Y Psi Psi, taken in the algebra,
 * (Psi Psi Y + Y Psi Psi)/2, which adds (c - 1) [Psi,[Psi,Y]]/8 to the fixed point). A model's step has the time stage: coefficient c reads every
 * stage c - 1 steps later, t0 + (n + stage + c - 1) h (docs/schemes.md#time). Every step
 * ends with the solver's stops, SLPI_FAST_STOPS discrete ingredients: at any coefficient
 * other than 1, stop m ("solver stop", "solver stop 2", ...) stops an implicit step's
 * solve m iterations after its start X_n (fixed_iters=m), as ports with a fixed count of
 * sweeps do, and as a tolerance stop does on a path where its count does not change; none
 * changes an explicit step. A step with ISOMP's terms then has SLPI_FAST_PRED_STOPS more:
 * stop m after the predictor ("solver stop 1 after predictor", ...) starts the solve from
 * the Euler predictor X_n + [Psi(X_n), X_n]/2 and stops it m iterations later, as GPU
 * ports with a fixed count of sweeps and no data-dependent exit do. A step whose solve is
 * not the plain iteration of its fixed point (TMK's chord, docs/schemes.md#tmk; SVI-SO3's
 * A = A_c(x)^-1 Pi_k, docs/schemes.md#svi-so3; SVI-SD's Gamma~ of the previous sweep in f,
 * docs/schemes.md#svi-sd) then has SLPI_FAST_PLAIN_STOPS more: stop m in plain sweeps
 * ("solver stop 1, plain sweeps", ...) runs m sweeps of the fixed point as the docs write
 * it, from the same start (TMK: sigma <- sum_k Delta_k xi_k(mubar(sigma)) from sigma = 0;
 * SVI-SO3: the paper's (64), A then B from the new A, from A = B = Pi_k; SVI-SD: the steps
 * of docs/schemes.md#svi-sd in their written order, f from this sweep's Gamma~), as ports
 * written from the equations do (docs/power.md#diagnosis-rule-5, #diagnosis-rule-7). The
 * SVI forms' list starts with stop 0 ("solver stop 0, plain sweeps": no sweep, the step at
 * the start's velocity x(Pi_k)): their output takes x from the final A, B, and a port that
 * keeps the velocity of its last sweep instead runs, after m sweeps, stop m - 1 (the same
 * numbers), so its one sweep is stop 0. Last come
 * SLPI_FAST_TOL_STOPS stops at a tolerance ("solver stop at 2^-12", "2^-13", ..., "2^-30":
 * tol = 2^-(SLPI_FAST_TOL_FIRST + j), one binade apart: docs/power.md#diagnosis-tol-grid-2):
 * the solve from X_n stopped by slpi's own rule (fast/solver.h, the update's max norm at
 * most tol max(1, |unknown|max)) at that tol, no
 * fixed count, so each step takes its own count, as a port's tolerance stop does; the grid
 * is the diagnosis's 1-D search for the port's tolerance (docs/power.md#diagnosis-tol-stop). */
#ifndef SLPI_FAST_INGREDIENTS_H
#define SLPI_FAST_INGREDIENTS_H

typedef struct slpi_problem slpi_problem;
typedef struct slpi_fast slpi_fast;

#define SLPI_FAST_INGREDIENTS_MAX 48
#define SLPI_FAST_STOPS 4
#define SLPI_FAST_PRED_STOPS 3
#define SLPI_FAST_PLAIN_STOPS 4 /* 1..4; the SVI forms' list has stop 0 too */
#define SLPI_FAST_TOL_STOPS 19
#define SLPI_FAST_TOL_FIRST 12
#define SLPI_FAST_NOISE_NAMED 9
#define SLPI_FAST_SWAP_NAMED 4
#define SLPI_FAST_SWAPS_MAX (SLPI_FAST_SWAP_NAMED * (SLPI_FAST_SWAP_NAMED - 1) / 2)

/* The ingredients of problem p's step: their count (at most SLPI_FAST_INGREDIENTS_MAX),
 * with their names (static strings) in name[0..count) when name is not NULL. */
int slpi_fast_ingredients(const slpi_problem *p, const char **name);

/* The steps of f from now on take ingredient i (0 <= i < count) times coef; i < 0 puts
 * every ingredient back to 1 and f back to the scheme's own (fused) form. While any
 * coefficient is set, ISOMP steps in its unfused form, one m_* operation a term
 * (fast/isomp.c), even at a coefficient of 1. Returns 0, or -1 when i is out of range or
 * memory failed. */
int slpi_fast_ingredient_scale(slpi_fast *f, int i, double coef);

/* 1 when ingredient i of p's step is discrete (the solver's stops: its derivative is the
 * difference that a coefficient of 2 makes), else 0. */
int slpi_fast_ingredient_discrete(const slpi_problem *p, int i);

/* The drift's component i (0 <= i < dim): out = h ad*_{g_i} x, g_i the gradient of H_0 at x
 * with all but its coordinate i set to 0 (the coefficients of fast/system.h's gen), the
 * leading-order change of a step when that component's coefficient changes by 1
 * (docs/conventions.md#sde). Returns 0, or -1 when the system has no coordinate
 * operations or memory failed. */
int slpi_fast_drift_part(slpi_fast *f, int i, const double *x, double *out);

#endif
