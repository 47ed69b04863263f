/* audit-poisson.c — poisson <= X | >= X and refpoisson <= X | >= X (docs/claims.md; claims
 * I11, V4, V5, V19): the one-step Poisson defect of a case's noise-free map on the fast
 * path or the certified path (gaps/gaps.h computes it). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem-finish.h"
#include "slpi/problem-shape.h"
#include "slpi/fast.h"
#include "core/slpi-flint.h"
#include "core/view-grid.h"
#include "core/view-scheme.h"
#include "gaps/gaps.h"
#include "reports/audit-checks.h"

#define EPS_FD 1e-5

/* poisson <= X | >= X (fast path) and refpoisson <= X | >= X (certified path: the
 * rigorous defect of ref/ where it exists, else enclosed difference quotients). */
void slpi_audit_check_poisson(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *ck)
{
    slpi_problem *p = c->problem[0];
    slpi_error err = { 0, "" };
    double dw = slpi_audit_get(ck, "dW")->present ? slpi_audit_get(ck, "dW")->r
                                                  : 0; /* dW=V: a fixed increment on every noise */
    int certified = !strcmp(slpi_audit_get(ck, "WORD")->s, "refpoisson");
    const slpi_audit_arg *op = slpi_audit_get(ck, "OP");
    if (slpi_audit_steps_case(a, c, 1, p)) return;
    double x0[64];
    slpi_fast *f0 = NULL;
    int rc = slpi_problem_validate(p, &err);
    if (!rc && slpi_problem_state_dim(p) > 64)
        rc = slpi_error_set(&err, SLPI_EINPUT, "poisson: state of %d doubles (at most 64)", slpi_problem_state_dim(p));
    if (!rc) rc = slpi_fast_create(&f0, p, &err);
    if (!rc) rc = slpi_fast_initial_state(f0, x0, &err);
    slpi_fast_free(f0);
    arb_t d1, d2;
    arb_init(d1);
    arb_init(d2);
    int rigorous = certified && slpi_gaps_poisson_rigorous(p);
    if (!rc && rigorous) {
        rc = slpi_gaps_poisson_ift(p, x0, dw, d1, &err);
        arb_set(d2, d1);
    } else if (!rc) {
        rc = slpi_gaps_poisson_fd(p, x0, certified, EPS_FD, dw, d1, &err);
        if (!rc) rc = slpi_gaps_poisson_fd(p, x0, certified, EPS_FD / 2, dw, d2, &err);
    }
    char noise[96];
    if (dw != 0)
        snprintf(noise, sizeof noise, "the fixed increment dW = %g on each of the %d noises", dw,
                 slpi_problem_noise_count(p));
    else
        snprintf(noise, sizeof noise, "no noise (dW = 0)");
    if (rc) {
        slpi_audit_unable(c, "poisson: %s", err.msg);
    } else {
        double thr = slpi_audit_get(ck, "X")->r;
        double lo1 = arf_get_d(arb_midref(d1), ARF_RND_NEAR) - mag_get_d(arb_radref(d1));
        double hi1 = arf_get_d(arb_midref(d1), ARF_RND_NEAR) + mag_get_d(arb_radref(d1));
        /* "<= X": the whole ball below X; ">= X": the whole ball above X */
        int pass = op->e == SLPI_AUDIT_LE ? hi1 <= thr : lo1 >= thr;
        double m1 = arf_get_d(arb_midref(d1), ARF_RND_NEAR), m2 = arf_get_d(arb_midref(d2), ARF_RND_NEAR);
        slpi_audit_outcome(c, pass, arf_get_d(arb_midref(d1), ARF_RND_NEAR));
        if (rigorous) {
            char how[96];
            if (slpi_view_scheme(p)->scheme == SLPI_SCHEME_SVI)
                snprintf(how, sizeof how, "svi, c = %+g; Jacobian by the implicit function theorem",
                         slpi_view_scheme(p)->svi_c);
            else
                snprintf(how, sizeof how, "isomp; the scheme's certified step Jacobian");
            snprintf(c->evidence, sizeof c->evidence,
                     "one step at h = %g with %s (%s in Arb "
                     "balls, ref/): max |D hat(Pi) D^T - hat(Pi_1)| in [%.4e, %.4e] %s %s %.1e; the "
                     "enclosure %s 0",
                     slpi_view_grid(p)->h, noise, how, lo1 > 0 ? lo1 : 0.0, hi1, pass ? "meets" : "misses", op->s, thr,
                     lo1 > 0 ? "excludes" : "contains");
        } else {
            snprintf(c->evidence, sizeof c->evidence,
                     "one step at h = %g with %s (%s%s), %s: max |D Phi J "
                     "D Phi^T - J o Phi| in [%.4e, %.4e] with central differences eps = %.0e (%.4e at "
                     "eps/2: the FD remainder scale) %s %s %.1e%s",
                     slpi_view_grid(p)->h, noise, slpi_scheme_name(slpi_view_scheme(p)->scheme),
                     slpi_view_scheme(p)->scheme == SLPI_SCHEME_SVI
                         ? (slpi_view_scheme(p)->svi_c < 0 ? ", c = -1/4" : ", c = +1/4")
                         : "",
                     certified ? "certified Arb balls of the exact scheme's difference quotients"
                               : "fast path (binary64)",
                     lo1 > 0 ? lo1 : 0.0, hi1, EPS_FD, arf_get_d(arb_midref(d2), ARF_RND_NEAR),
                     pass ? "meets" : "misses", op->s, thr,
                     certified && lo1 > 0 && fabs(m1 - m2) < 1e-3 * m1
                         ? "; the enclosure excludes 0 and does not change with eps: a defect of the scheme, "
                           "not of the difference quotient"
                         : "");
        }
    }
    snprintf(c->command, sizeof c->command, "slpi audit --only %s", c->id);
    arb_clear(d1);
    arb_clear(d2);
}
