/* ingredients.c — the coefficients on a step's ingredients (fast/ingredients.h): their
 * list from the problem, and the drift and noise coefficients applied to the increments
 * (delta_0 = h times the drift's, delta_k = dW_k times noise k's, after the swaps' mixing of
 * two dW's: every scheme reads H_k only through delta_k grad H_k; the time reads the unscaled h, fast/system.h's t_h).
 * ISOMP reads its terms' coefficients itself (fast/isomp.c); the time stage is the
 * system's t_shift, the solver's stops the policy's fixed_iters (fast/solver.h), after
 * the predictor f->stop_pred (fast/isomp.c), in plain sweeps f->stop_plain (fast/tmk.c,
 * fast/svi.c), and at a tolerance the policy's tol. */
#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "slpi/problem-shape.h"
#include "core/problem-options.h"
#include "fast/fast.h"
#include "fast/ingredients.h"
#include "core/view-scheme.h"
#include "core/view-solver.h"
#include "core/view-system.h"

static const char *const noise_name[] = {
    "noise 1", "noise 2", "noise 3", "noise 4", "noise 5", "noise 6", "noise 7", "noise 8", "noise 9",
};
static const char *const swap_name[] = {
    "noise 1 and 2 swapped", "noise 1 and 3 swapped", "noise 2 and 3 swapped",
    "noise 1 and 4 swapped", "noise 2 and 4 swapped", "noise 3 and 4 swapped",
};
static const char *const isomp_term[] = { "[Psi,Y]/2", "Psi Y Psi/4", "update", "Psi Y Psi/4 reordered" };
static const char *const stop_name[] = { "solver stop", "solver stop 2", "solver stop 3", "solver stop 4" };
static const char *const pred_stop_name[] = { "solver stop 1 after predictor", "solver stop 2 after predictor",
                                              "solver stop 3 after predictor" };
static const char *const plain_stop_name[] = { "solver stop 0, plain sweeps", "solver stop 1, plain sweeps",
                                               "solver stop 2, plain sweeps", "solver stop 3, plain sweeps",
                                               "solver stop 4, plain sweeps" };
static const char *const tol_stop_name[] = { "solver stop at 2^-12", "solver stop at 2^-13", "solver stop at 2^-14",
                                             "solver stop at 2^-15", "solver stop at 2^-16", "solver stop at 2^-17",
                                             "solver stop at 2^-18", "solver stop at 2^-19", "solver stop at 2^-20",
                                             "solver stop at 2^-21", "solver stop at 2^-22", "solver stop at 2^-23",
                                             "solver stop at 2^-24", "solver stop at 2^-25", "solver stop at 2^-26",
                                             "solver stop at 2^-27", "solver stop at 2^-28", "solver stop at 2^-29",
                                             "solver stop at 2^-30" };
_Static_assert(sizeof noise_name / sizeof *noise_name == SLPI_FAST_NOISE_NAMED, "a name per named noise");
_Static_assert(sizeof swap_name / sizeof *swap_name == SLPI_FAST_SWAPS_MAX, "a name per swap");
_Static_assert(sizeof isomp_term / sizeof *isomp_term == SLPI_FAST_TERMS, "a name per ISOMP term");
_Static_assert(sizeof stop_name / sizeof *stop_name == SLPI_FAST_STOPS, "a name per solver stop");
_Static_assert(sizeof pred_stop_name / sizeof *pred_stop_name == SLPI_FAST_PRED_STOPS, "a name per stop after E");
_Static_assert(sizeof plain_stop_name / sizeof *plain_stop_name == SLPI_FAST_PLAIN_STOPS + 1, "a name per plain stop");
_Static_assert(sizeof tol_stop_name / sizeof *tol_stop_name == SLPI_FAST_TOL_STOPS, "a name per tolerance stop");

/* The noise ingredients of M components: one each for the first SLPI_FAST_NOISE_NAMED
 * (docs/power.md#diagnosis-rule-4), then one for all of them together when there are two
 * or more. */
static int noise_each(int M)
{
    return M < SLPI_FAST_NOISE_NAMED ? M : SLPI_FAST_NOISE_NAMED;
}

static int noise_all(int M)
{
    return M >= 2;
}

/* The swaps of two of the first min(M, SLPI_FAST_SWAP_NAMED) components: pairs (a, b),
 * a < b, in the order of swap_name (b ascending, then a), the count b (b - 1) / 2 for b
 * components. */
static int noise_swaps(int M)
{
    int b = M < SLPI_FAST_SWAP_NAMED ? M : SLPI_FAST_SWAP_NAMED;
    return b * (b - 1) / 2;
}

/* Whether p's step has ISOMP's terms as ingredients (the unfused form in fast/isomp.c). */
static int has_terms(const slpi_problem *p)
{
    return slpi_view_scheme(p)->scheme == SLPI_SCHEME_ISOMP &&
        slpi_view_scheme(p)->isomp_update == SLPI_ISO_UPDATE_COMM &&
        slpi_view_solver(p)->solver == SLPI_SOLVER_FIXED_POINT;
}

/* The count of p's stops after the Euler predictor (ISOMP's terms), 0 else. */
static int pred_stops(const slpi_problem *p)
{
    return has_terms(p) ? SLPI_FAST_PRED_STOPS : 0;
}

/* Whether p's step is an SVI vector form (SO3, SD), whose plain stops start at stop 0. */
static int svi_vector(const slpi_problem *p)
{
    return slpi_view_scheme(p)->scheme == SLPI_SCHEME_SVI && slpi_registry_svi_form(p) != SLPI_SVI_FORM_LP;
}

/* The sweeps of p's first plain stop: 0 (SVI) or 1. */
static int plain_first(const slpi_problem *p)
{
    return svi_vector(p) ? 0 : 1;
}

/* The count of p's stops in plain sweeps, plain_first(p)..SLPI_FAST_PLAIN_STOPS: TMK's and
 * the SVI vector forms', whose own solves are not the plain iteration of the fixed point
 * the docs write; 0 else. */
static int plain_stops(const slpi_problem *p)
{
    int plain = svi_vector(p) || slpi_view_scheme(p)->scheme == SLPI_SCHEME_TMK;
    return plain ? SLPI_FAST_PLAIN_STOPS + 1 - plain_first(p) : 0;
}

/* The count of p's solver stops, the last ingredients: at a count from X_n, then (ISOMP's
 * terms) from the Euler predictor, then (TMK, SVI-SO3) in plain sweeps, then at a
 * tolerance from X_n. */
static int stops(const slpi_problem *p)
{
    return SLPI_FAST_STOPS + pred_stops(p) + plain_stops(p) + SLPI_FAST_TOL_STOPS;
}

/* Stop k's name (0 <= k < stops(p)). */
static const char *stop_of(const slpi_problem *p, int k)
{
    if (k < SLPI_FAST_STOPS) return stop_name[k];
    k -= SLPI_FAST_STOPS;
    if (k < pred_stops(p)) return pred_stop_name[k];
    k -= pred_stops(p);
    return k < plain_stops(p) ? plain_stop_name[k + plain_first(p)] : tol_stop_name[k - plain_stops(p)];
}

/* Whether p's step has a time stage: a model's (no built-in system reads t). */
static int has_time(const slpi_problem *p)
{
    return slpi_view_system(p)->system == SLPI_SYS_MODEL;
}

int slpi_fast_ingredients(const slpi_problem *p, const char **name)
{
    int M = slpi_problem_noise_count(p), n = 0;
    if (name) name[n] = "drift";
    n++;
    for (int k = 0; k < noise_each(M); k++, n++)
        if (name) name[n] = noise_name[k];
    if (noise_all(M) && name) name[n] = "noise";
    n += noise_all(M);
    for (int k = 0; k < noise_swaps(M); k++, n++)
        if (name) name[n] = swap_name[k];
    for (int j = 0; has_terms(p) && j < SLPI_FAST_TERMS; j++, n++)
        if (name) name[n] = isomp_term[j];
    if (has_time(p) && name) name[n] = "time stage";
    n += has_time(p);
    for (int k = 0; k < stops(p); k++)
        if (name) name[n + k] = stop_of(p, k);
    return n + stops(p);
}

int slpi_fast_ingredient_discrete(const slpi_problem *p, int i)
{
    return i >= slpi_fast_ingredients(p, NULL) - stops(p);
}

int slpi_fast_ingredient_scale(slpi_fast *f, int i, double coef)
{
    int n = slpi_fast_ingredients(f->p, NULL);
    if (!f->coef && !(f->coef = malloc((size_t)n * sizeof *f->coef))) return -1;
    if (i >= n) return -1;
    if (i < 0 || !f->coef_on)
        for (int j = 0; j < n; j++) f->coef[j] = 1.0;
    f->coef_on = i >= 0;
    if (i >= 0) f->coef[i] = coef;
    /* the time's h and stage, and the solver's stops (the last ingredients) */
    f->sys.t_h = f->coef_on ? f->h : 0;
    int ns = stops(f->p), np = pred_stops(f->p), nq = plain_stops(f->p), stop = 0, tol = 0;
    f->sys.t_shift = has_time(f->p) ? f->coef[n - ns - 1] - 1.0 : 0;
    f->stop_pred = f->stop_plain = 0;
    for (int k = 0; k < ns; k++)
        if (f->coef[n - ns + k] != 1.0) {
            int j = k - SLPI_FAST_STOPS; /* past the stops from X_n */
            f->stop_pred = j >= 0 && j < np;
            f->stop_plain = j >= np && j < np + nq;
            stop = j < 0 ? k + 1 : f->stop_pred ? j + 1 : f->stop_plain ? j - np + plain_first(f->p) : 0;
            tol = j >= np + nq ? SLPI_FAST_TOL_FIRST + (j - np - nq) : 0;
        }
    /* a tolerance stop: slpi's rule (fast/solver.h) at tol = 2^-tol, relative to max(1, |u|);
     * a plain stop's count may be 0 (fast/fast.h) */
    const slpi_solver_view *sol = slpi_view_solver(f->p);
    f->pol.fixed_iters = stop || f->stop_plain ? stop : tol ? 0 : sol->fixed_iters;
    f->pol.tol = tol ? ldexp(1.0, -tol) : sol->tol;
    f->pol.tol_h = tol || sol->tol_scale != SLPI_TOL_STEP ? 0 : fabs(f->h);
    return 0;
}

void slpi_fast_ingredients_apply(const slpi_fast *f, double *delta)
{
    if (!f->coef_on) return;
    int M = f->sys.M, each = noise_each(M), all_i = 1 + each;
    /* swap k of (a, b) at coefficient c mixes the increments by c - 1: c = 2 swaps them */
    for (int b = 1, k = 0; k < noise_swaps(M); b++)
        for (int a = 0; a < b; a++, k++) {
            double m = f->coef[all_i + noise_all(M) + k] - 1.0, da = delta[a + 1], db = delta[b + 1];
            delta[a + 1] = da + m * (db - da);
            delta[b + 1] = db + m * (da - db);
        }
    double all = noise_all(M) ? f->coef[all_i] : 1.0;
    delta[0] *= f->coef[0];
    for (int k = 0; k < M; k++) delta[k + 1] *= (k < each ? f->coef[1 + k] : 1.0) * all;
}

const double *slpi_fast_ingredient_terms(const slpi_fast *f)
{
    if (!f->coef_on || !has_terms(f->p)) return NULL;
    return f->coef + 1 + noise_each(f->sys.M) + noise_all(f->sys.M) + noise_swaps(f->sys.M);
}

int slpi_fast_drift_part(slpi_fast *f, int i, const double *x, double *out)
{
    const slpi_fast_system *s = &f->sys;
    if (!s->gen || !s->coad || i < 0 || i >= s->dim) return -1;
    double *g = malloc((size_t)s->dim * sizeof *g);
    if (!g) return -1;
    s->gen(s, 0, g, x);
    for (int j = 0; j < s->dim; j++)
        if (j != i) g[j] = 0;
    s->coad(s, out, g, x);
    for (int j = 0; j < s->dim; j++) out[j] *= f->h;
    free(g);
    return 0;
}
