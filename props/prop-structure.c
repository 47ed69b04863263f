/* props/prop-structure.c — properties of docs/schemes.md#summary that compare a run with itself or
 * with the other path: Casimir / eigenvalue preservation (exact, quadratic only, none:
 * TRAP-DIRECT is the negative control), deterministic energy (exact vs bounded),
 * reversibility of the symmetric schemes (step with (-h, -dW), docs/schemes.md#direct, docs/schemes.md#isomp, I15),
 * and ref = fast (the fast result inside, or within budget of, the certified ball).
 * Ratios are scale-free: |err| / (steps u scale), LAPACK style. */
#include <float.h>
#include <math.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/plan.h"
#include "slpi/step.h"
#include "slpi/fast.h"
#include "slpi/ref.h"
#include "slpi/problem.h"
#include "slpi/problem-shape.h"
#include "core/view-system.h"
#include "core/expr.h"
#include "core/plan.h"
#include "props/props.h"

#define U DBL_EPSILON
#define HOLD_RATIO 1e3 /* exact-in-exact-arithmetic properties: rounding and solver tol */
#define REF_FAST_RATIO                                                                                                 \
    30 /* fast vs certified ball: the oracle's budget for
                              explicit schemes; implicit ones get HOLD_RATIO, since the
                              fast stopping test (docs/schemes.md#solver, size of the last increment)
                              understates the error when the iteration contracts slowly
                              (seen: 182 for SVI on vortices at h = 1/4, |x| = 2) */

static int is_symmetric_scheme(slpi_scheme_id k)
{
    return k != SLPI_SCHEME_RKMK_LE && k != SLPI_SCHEME_RKMK_HEUN;
}


/* ------------------------------------------------------------ Casimirs */

static slpi_props_expect casimir_expect(const slpi_props_case *c)
{
    return c->scheme == SLPI_SCHEME_TRAP_DIRECT ? SLPI_PROPS_VIOLATED : SLPI_PROPS_HOLDS;
}

static void casimir_adjust(slpi_props_case *c, slpi_props_rng *r)
{
    (void)r;
    if (casimir_expect(c) == SLPI_PROPS_VIOLATED) slpi_props_control_case(c);
}

/* slpi_props_casimir_values, with err set when memory for a model's twin runs out or the
 * system has no Casimirs there. */
static int casimirs(const slpi_problem *p, const double *x, slpi_props_casimirs *k, slpi_error *err)
{
    return slpi_props_casimir_values(p, x, k)
        ? slpi_error_set(err, SLPI_EINPUT, "props: no Casimirs of system %s (props/invariants.c), or out of memory",
                         slpi_system_name(slpi_view_system(p)->system))
        : SLPI_OK;
}

/* t[m] = C_m(x) - C_m(x0) in balls for each quadratic Casimir m of slpi_props_casimir_values
 * (the others are left 0): C_m is the form x^T Q x, Q read off C_m by polarization at the
 * basis vectors (exact: the forms have small integer entries), so no Casimir is written a
 * second time. SLPI_OK, or the error of casimirs. */
static int quadratic_changes(const slpi_problem *p, arb_srcptr x, arb_srcptr x0, arb_ptr t, slpi_error *err)
{
    int d = slpi_problem_state_dim(p), rc = SLPI_OK;
    slpi_props_casimirs one[SLPI_MAX_X0], two;
    double e[SLPI_MAX_X0] = { 0 };
    arb_t u, q;
    arb_init(u);
    arb_init(q);
    for (int i = 0; i < d && !rc; i++) {
        e[i] = 1;
        rc = casimirs(p, e, &one[i], err);
        e[i] = 0;
    }
    _arb_vec_zero(t, SLPI_PROPS_MAX_CAS);
    for (int i = 0; i < d && !rc; i++)
        for (int j = i; j < d; j++) {
            if (j > i) {
                e[i] = e[j] = 1;
                rc = casimirs(p, e, &two, err);
                e[i] = e[j] = 0;
                if (rc) break;
            }
            arb_mul(u, x + i, x + j, 128);
            arb_submul(u, x0 + i, x0 + j, 128);
            for (int m = 0; m < one[i].n; m++) {
                if (!one[i].quadratic[m]) continue;
                /* Q_ii, or 2 Q_ij = C(e_i + e_j) - C(e_i) - C(e_j) */
                arb_set_d(q, j == i ? one[i].value[m] : two.value[m] - one[i].value[m] - one[j].value[m]);
                arb_addmul(t + m, q, u, 128);
            }
        }
    arb_clear(u);
    arb_clear(q);
    return rc;
}

/* Ref: every certified Casimir difference (not H0; with energy, H0 only) contains 0; with
 * quad_only (IM keeps only the quadratic Casimirs) every quadratic one. Returns 1, 0, -1
 * UNABLE. */
static int ref_invariants_hold(const slpi_props_case *c, const slpi_problem *p, int energy, int quad_only, char *msg,
                               size_t n)
{
    int d = slpi_problem_state_dim(p), ok = 1;
    const slpi_system_view *sys = slpi_view_system(p);
    arb_ptr x = _arb_vec_init(d), x0 = _arb_vec_init(d);
    for (int i = 0; i < d; i++) arb_set_d(x0 + i, sys->x0[i]);
    _arb_vec_set(x, x0, d);
    slpi_step_status st = slpi_props_run_ref(c, p, x, 1, NULL, NULL, msg, n);
    if (slpi_step_failed(st)) {
        ok = -1;
    } else if (quad_only) {
        slpi_props_casimirs k;
        slpi_error err;
        arb_ptr t = _arb_vec_init(SLPI_PROPS_MAX_CAS);
        if (casimirs(p, sys->x0, &k, &err) || quadratic_changes(p, x, x0, t, &err)) {
            ok = -1;
            k.n = 0;
            snprintf(msg, n, "%.200s", err.msg);
        }
        for (int m = 0; m < k.n; m++) {
            if (!k.quadratic[m] || arb_contains_zero(t + m)) continue;
            ok = 0;
            char *v = arb_get_str(t + m, 5, 0);
            snprintf(msg, n, "ref: certified change of the quadratic %s = %s excludes 0", k.name[m], v);
            flint_free(v);
        }
        _arb_vec_clear(t, SLPI_PROPS_MAX_CAS);
    } else {
        slpi_ref *s = NULL;
        slpi_error err;
        slpi_ref_diag dg;
        slpi_ref_diag_init(&dg);
        if (slpi_ref_create(&s, p, &err) == SLPI_OK) {
            slpi_ref_diagnostics(s, x, x0, &dg);
            int m = dg.n_inv; /* the invariants; their m departures follow, then the system's others */
            for (int i = m; i < 2 * m && i < dg.n; i++) {
                int is_h0 = strncmp(dg.name[i], "H0", 2) == 0;
                if (is_h0 != energy || arb_contains_zero(dg.value + i)) continue;
                ok = 0;
                char *v = arb_get_str(dg.value + i, 5, 0);
                snprintf(msg, n, "ref: certified %s = %s excludes 0", dg.name[i], v);
                flint_free(v);
            }
            slpi_ref_free(s);
        }
        slpi_ref_diag_clear(&dg);
    }
    _arb_vec_clear(x, d);
    _arb_vec_clear(x0, d);
    return ok;
}

static void casimir_body(const slpi_props_case *c, slpi_problem *p, int use_ref, slpi_props_outcome *o)
{
    double x[SLPI_MAX_X0];
    memcpy(x, slpi_view_system(p)->x0, sizeof x);
    slpi_props_casimirs a, b;
    slpi_error err;
    if (casimirs(p, x, &a, &err)) {
        slpi_props_outcome_unable(o, err.msg);
        return;
    }
    if (slpi_step_failed(slpi_props_run_fast(c, p, x, 1, NULL, NULL, o->msg, sizeof o->msg))) {
        o->holds = -1;
        return;
    }
    if (casimirs(p, x, &b, &err)) {
        slpi_props_outcome_unable(o, err.msg);
        return;
    }
    int quad_only = c->scheme == SLPI_SCHEME_IM_DIRECT;
    o->ratio = 0;
    for (int i = 0; i < a.n; i++) {
        if (quad_only && !a.quadratic[i]) continue;
        double r = fabs(b.value[i] - a.value[i]) / (c->steps * U * fmax(a.scale[i], 1.0));
        if (r >= o->ratio) {
            o->ratio = r;
            snprintf(o->msg, sizeof o->msg, "fast: %s changed by %.3g (ratio %.3g)", a.name[i], b.value[i] - a.value[i],
                     r);
        }
    }
    o->holds = o->ratio <= HOLD_RATIO;
    if (use_ref && o->holds == (casimir_expect(c) == SLPI_PROPS_HOLDS)) {
        char msg[sizeof o->msg];
        int rh = ref_invariants_hold(c, p, 0, quad_only, msg, sizeof msg);
        if (rh < 0 || rh != o->holds) {
            o->holds = rh < 0 ? -1 : rh;
            memcpy(o->msg, msg, sizeof msg);
        }
    }
}

static void casimir_check(const slpi_props_case *c, int use_ref, slpi_props_outcome *o)
{
    slpi_props_check_with(c, use_ref, o, casimir_body);
}

const slpi_props_property slpi_props_prop_casimir = {
    "casimir",
    "Casimirs / eigenvalues preserved (docs/schemes.md#summary: exact, quadratic only for IM, violated by TRAP)",
    casimir_expect,
    casimir_adjust,
    casimir_check,
    1,
    0,
    NULL,
};

/* ------------------------------------------------------- deterministic energy */

enum { ENERGY_EXACT = 1, ENERGY_BOUNDED = 2 };

/* -1 if c is not a model; else 1 when the model's H is a polynomial of degree <= 2 (the
 * exact-energy claims of TMK and IM are for quadratic Hamiltonians), 0 otherwise; with
 * reads_t, 1 if some Hamiltonian of the model reads the time t, else 0. */
static int model_quadratic(const slpi_props_case *c, int reads_t)
{
    slpi_problem *p;
    slpi_error err;
    slpi_plan *plan;
    if (c->system != SLPI_SYS_MODEL) return reads_t ? 0 : -1;
    if (slpi_props_problem_new(&p, c, &err)) return 0;
    int deg = -1, t = 0;
    if (slpi_plan_compile(&plan, p, &err) == SLPI_OK) {
        const slpi_model *m = slpi_plan_model(plan);
        deg = slpi_expr_degree(&m->H[0]);
        t = m->reads_t;
        slpi_plan_unref(plan);
    }
    slpi_problem_free(p);
    return reads_t ? t : deg >= 0 && deg <= 2;
}

/* Point vortices are left out: H0 is logarithmic and may vanish, so no scale-free bound.
 * A model: exact for TMK and IM only when its H is quadratic; bounded for ISOMP and SVI
 * (symplectic on the orbit) for any smooth H; none when a Hamiltonian reads t (the exact
 * flow changes H at the rate dH/dt = the partial derivative in t: nothing is conserved). */
static int energy_kind(const slpi_props_case *c)
{
    if (c->system == SLPI_SYS_POINT_VORTICES || model_quadratic(c, 1)) return 0;
    switch (c->scheme) {
    case SLPI_SCHEME_TMK:
    case SLPI_SCHEME_IM_DIRECT:
        return model_quadratic(c, 0) ? ENERGY_EXACT : 0;
    case SLPI_SCHEME_ISOMP:
        return ENERGY_BOUNDED;
    case SLPI_SCHEME_SVI:
        return c->variant && c->system == SLPI_SYS_RIGID_BODY ? ENERGY_EXACT : ENERGY_BOUNDED;
    default:
        return 0;
    }
}

static slpi_props_expect energy_expect(const slpi_props_case *c)
{
    return energy_kind(c) ? SLPI_PROPS_HOLDS : SLPI_PROPS_NA;
}

static const char *energy_why_not(const slpi_props_case *c, int ref)
{
    if (c->system == SLPI_SYS_POINT_VORTICES) return "N/A: H0 is logarithmic and may vanish: no scale-free bound";
    if (model_quadratic(c, 1))
        return "N/A: a Hamiltonian reads t, so the exact flow does not conserve H (dH/dt is its partial derivative "
               "in t; docs/models.md#time)";
    if (!energy_kind(c) && model_quadratic(c, 0) == 0 &&
        (c->scheme == SLPI_SCHEME_TMK || c->scheme == SLPI_SCHEME_IM_DIRECT))
        return "N/A: exact energy is claimed for quadratic Hamiltonians; this model's H is not (docs/models.md#props)";
    if (!energy_kind(c)) return "N/A: the scheme claims no energy behaviour (docs/schemes.md#summary)";
    if (ref && energy_kind(c) == ENERGY_BOUNDED) return "N/A: bounded O(h^2) energy is not a certified statement";
    return NULL;
}

static void energy_adjust(slpi_props_case *c, slpi_props_rng *r)
{
    (void)r;
    c->noises = 0;
}

static double fast_h0(slpi_fast *f, const double *x)
{
    slpi_diag d = { 0 };
    slpi_fast_diagnostics(f, x, NULL, &d);
    for (int i = 0; i < d.n; i++)
        if (strcmp(d.name[i], "H0") == 0) return d.value[i];
    return NAN;
}

static void energy_body(const slpi_props_case *c, slpi_problem *p, int use_ref, slpi_props_outcome *o)
{
    slpi_error err;
    slpi_fast *f = NULL;
    if (slpi_fast_create(&f, p, &err)) {
        slpi_props_outcome_unable(o, err.msg);
        return;
    }
    int d = slpi_problem_state_dim(p);
    double x[SLPI_MAX_X0], dW[4096], h0 = fast_h0(f, slpi_view_system(p)->x0), dev = 0, omega = 0;
    memcpy(x, slpi_view_system(p)->x0, sizeof x);
    o->holds = 1;
    for (long n = 0; n < c->steps; n++) {
        slpi_step_info info;
        slpi_props_increments(c, p, n, dW);
        double prev[SLPI_MAX_X0];
        memcpy(prev, x, sizeof prev);
        if (slpi_step_failed(slpi_fast_step(f, x, dW, &info))) {
            snprintf(o->msg, sizeof o->msg, "fast step %ld: %s", n, slpi_step_status_name(info.status));
            o->holds = -1;
            break;
        }
        omega = fmax(omega, slpi_vec_maxdiff(x, prev, d) / (c->h * fmax(slpi_vec_maxabs(prev, d), 1e-300)));
        dev = fmax(dev, fabs(fast_h0(f, x) - h0));
    }
    slpi_fast_free(f);
    if (o->holds < 0) return;
    double scale = fmax(fabs(h0), 1e-300);
    if (energy_kind(c) == ENERGY_EXACT) {
        o->ratio = dev / (c->steps * U * fmax(scale, 1.0));
        o->holds = o->ratio <= HOLD_RATIO;
        snprintf(o->msg, sizeof o->msg, "fast: max |H0 - H0(x0)| = %.3g (ratio %.3g, exact expected)", dev, o->ratio);
        if (use_ref && o->holds) {
            char msg[sizeof o->msg];
            int rh = ref_invariants_hold(c, p, 1, 0, msg, sizeof msg);
            if (rh != 1) {
                o->holds = rh;
                memcpy(o->msg, msg, sizeof msg);
            }
        }
    } else {
        /* bounded: |H0 - H0(x0)| <= 10 (h omega)^2 |H0| (second order, no drift over the run) */
        double bound = 10 * (c->h * omega) * (c->h * omega) * scale + HOLD_RATIO * c->steps * U * fmax(scale, 1.0);
        o->ratio = dev / bound;
        o->holds = o->ratio <= 1;
        snprintf(o->msg, sizeof o->msg, "fast: max |H0 - H0(x0)| = %.3g, bound 10 (h omega)^2 |H0| = %.3g (omega %.3g)",
                 dev, bound, omega);
    }
}

static void energy_check(const slpi_props_case *c, int use_ref, slpi_props_outcome *o)
{
    slpi_props_check_with(c, use_ref, o, energy_body);
}

const slpi_props_property slpi_props_prop_energy = {
    "energy",
    "noise-free energy: exact (TMK, IM, SVI c=-1/4 rigid body) or bounded O(h^2) (ISOMP, SVI)",
    energy_expect,
    energy_adjust,
    energy_check,
    1,
    0,
    energy_why_not,
};

/* ------------------------------------------------------------ reversibility */

static slpi_props_expect reversible_expect(const slpi_props_case *c)
{
    return is_symmetric_scheme(c->scheme) ? SLPI_PROPS_HOLDS : SLPI_PROPS_NA;
}

static const char *reversible_why_not(const slpi_props_case *c, int ref)
{
    (void)ref;
    return is_symmetric_scheme(c->scheme) ? NULL : "N/A: the scheme is not symmetric (docs/schemes.md#summary)";
}

static void reversible_adjust(slpi_props_case *c, slpi_props_rng *r)
{
    (void)c;
    (void)r;
}

static void reversible_body(const slpi_props_case *c, slpi_problem *p, int use_ref, slpi_props_outcome *o)
{
    const slpi_system_view *sys = slpi_view_system(p);
    int d = slpi_problem_state_dim(p);
    double x[SLPI_MAX_X0];
    memcpy(x, sys->x0, sizeof x);
    if (slpi_step_failed(slpi_props_run_fast(c, p, x, 1, NULL, NULL, o->msg, sizeof o->msg))) {
        o->holds = -1;
        return;
    }
    if (slpi_props_too_fast(c, sys->x0, x, d, o)) return;
    if (slpi_step_failed(slpi_props_run_fast(c, p, x, -1, NULL, NULL, o->msg, sizeof o->msg))) {
        o->holds = -1;
        return;
    }
    double e = slpi_vec_maxdiff(x, sys->x0, d);
    o->ratio = e / (c->steps * U * fmax(slpi_vec_maxabs(sys->x0, d), 1.0));
    o->holds = o->ratio <= HOLD_RATIO;
    snprintf(o->msg, sizeof o->msg, "fast: %ld steps with (h, dW) then (-h, -dW) land %.3g from x0 (ratio %.3g)",
             c->steps, e, o->ratio);
    if (!use_ref || !o->holds) return;
    arb_ptr xb = _arb_vec_init(d);
    for (int i = 0; i < d; i++) arb_set_d(xb + i, sys->x0[i]);
    char msg[sizeof o->msg];
    if (slpi_step_failed(slpi_props_run_ref(c, p, xb, 1, NULL, NULL, msg, sizeof msg)) ||
        slpi_step_failed(slpi_props_run_ref(c, p, xb, -1, NULL, NULL, msg, sizeof msg))) {
        o->holds = -1;
        memcpy(o->msg, msg, sizeof msg);
    } else if (!slpi_props_balls_contain(xb, sys->x0, d, &e)) {
        o->holds = 0;
        snprintf(o->msg, sizeof o->msg, "ref: the certified backward run misses x0 by %.3g", e);
    }
    _arb_vec_clear(xb, d);
}

static void reversible_check(const slpi_props_case *c, int use_ref, slpi_props_outcome *o)
{
    slpi_props_check_with(c, use_ref, o, reversible_body);
}

const slpi_props_property slpi_props_prop_reversible = {
    "reversible",
    "symmetric schemes: (-h, -dW) undoes (h, dW) (TMK, IM, TRAP, ISOMP, SVI)",
    reversible_expect,
    reversible_adjust,
    reversible_check,
    1,
    0,
    reversible_why_not,
};

/* ------------------------------------------------------------ ref = fast */

static slpi_props_expect ref_fast_expect(const slpi_props_case *c)
{
    (void)c;
    return SLPI_PROPS_HOLDS;
}

static void ref_fast_adjust(slpi_props_case *c, slpi_props_rng *r)
{
    (void)r;
    if (c->steps > 4) c->steps = 4; /* the certified path is slow */
}

static void ref_fast_body(const slpi_props_case *c, slpi_problem *p, int use_ref, slpi_props_outcome *o)
{
    (void)use_ref;
    const slpi_system_view *sys = slpi_view_system(p);
    int d = slpi_problem_state_dim(p);
    double x[SLPI_MAX_X0];
    memcpy(x, sys->x0, sizeof x);
    arb_ptr xb = _arb_vec_init(d);
    for (int i = 0; i < d; i++) arb_set_d(xb + i, sys->x0[i]);
    if (slpi_step_failed(slpi_props_run_fast(c, p, x, 1, NULL, NULL, o->msg, sizeof o->msg)) ||
        slpi_step_failed(slpi_props_run_ref(c, p, xb, 1, NULL, NULL, o->msg, sizeof o->msg))) {
        o->holds = -1;
    } else if (!slpi_props_too_fast(c, sys->x0, x, d, o)) {
        slpi_props_ref_fast_judge(o, xb, x, d, c->steps, c->scheme);
    }
    _arb_vec_clear(xb, d);
}

static void ref_fast_check(const slpi_props_case *c, int use_ref, slpi_props_outcome *o)
{
    if (!use_ref) {
        slpi_props_outcome_unable(o, "needs the certified path");
        return;
    }
    slpi_props_check_with(c, use_ref, o, ref_fast_body);
}

void slpi_props_ref_fast_judge(slpi_props_outcome *o, arb_srcptr xb, const double *x, int d, long steps,
                               slpi_scheme_id scheme)
{
    double excess;
    int inside = slpi_props_balls_contain(xb, x, d, &excess);
    int is_explicit = scheme == SLPI_SCHEME_RKMK_LE || scheme == SLPI_SCHEME_RKMK_HEUN;
    double budget = is_explicit ? REF_FAST_RATIO : HOLD_RATIO;
    o->ratio = excess / ((double)steps * U * fmax(slpi_vec_maxabs(x, d), 1.0));
    o->holds = inside || o->ratio <= budget;
    snprintf(o->msg, sizeof o->msg, "fast %s the certified balls (excess %.3g, ratio %.3g, budget %g)",
             inside ? "inside" : "outside", excess, o->ratio, budget);
}

const slpi_props_property slpi_props_prop_ref_fast = {
    "ref-fast",
    "fast result inside (or within budget of) the certified ref enclosure",
    ref_fast_expect,
    ref_fast_adjust,
    ref_fast_check,
    1,
    1,
    NULL,
};
