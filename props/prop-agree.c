/* props/prop-agree.c — cross-scheme agreement (docs/schemes.md#summary, docs/noise.md#coupling):
 * every consistent scheme converges to the same Stratonovich solution, so the gap to a
 * partner scheme on coupled paths shrinks at the strong rate; with the negative control
 * of claim X4 (docs/claims.md), whose inconsistent Lie-Euler gap stays flat. The study
 * itself is props/order-study.c's. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem-build.h"
#include "core/problem-store.h"
#include "core/view-scheme.h"
#include "core/view-system.h"
#include "gaps/gaps.h"
#include "props/props.h"
#include "props/order-study.h"

/* ------------------------------------------------------------------- agree
 * Cross-scheme agreement: every consistent scheme converges to the same (Stratonovich)
 * solution, so on shared coupled paths the rms gap between the scheme and a partner
 * scheme at the same h shrinks at least at the strong rate (docs/schemes.md#summary):
 * the bootstrap CI of its slope (+ SLPI_PROPS_ORDER_SLACK) must reach the order owed (1/2 with several
 * noises, 1 with one; a gap may shrink faster, as the Levy-area error both schemes miss
 * is the same). The partner is TMK (TMK's: RKMK-Heun); the SVI heavy top, whose state
 * (Pi, Gamma, R) and noise models no other scheme shares, is compared across c = +-1/4.
 * Negative control, with every rigid-body RKMK-LE case: stochastic Lie-Euler with the
 * so(3) noise H_1 = a x_1 x_2, for which it is not Stratonovich-consistent (claim X4;
 * the mathematics is gaps/'s slpi_gaps_le_gap_paths), must NOT meet the same rule
 * against RKMK-Heun: its gap stays flat as h -> 0. */
#define CONTROL_T 1.0
#define CONTROL_LMIN 3

/* p with its partner scheme, on the heap (the caller frees it); NULL with err set. */
static slpi_problem *partner(const slpi_problem *p, slpi_error *err)
{
    const slpi_scheme_view *sch = slpi_view_scheme(p);
    slpi_problem *q = slpi_problem_dup(p);
    if (!q) {
        slpi_error_set(err, SLPI_EINPUT, "props: out of memory");
        return NULL;
    }
    if (slpi_view_system(p)->system == SLPI_SYS_HEAVY_TOP && sch->scheme == SLPI_SCHEME_SVI) {
        slpi_view_scheme_edit(q)->svi_c = -sch->svi_c;
        return q;
    }
    if (slpi_problem_set(q, "scheme", sch->scheme == SLPI_SCHEME_TMK ? "rkmk-heun" : "tmk", err) == SLPI_OK) return q;
    slpi_problem_free(q);
    return NULL;
}

/* The X4 control's verdict under the agreement rule (1: it "agrees", which must not
 * happen); its slope and CI in st. */
static int le_control_agrees(const slpi_props_case *c, slpi_props_order_study *st, slpi_props_outcome *o)
{
    int paths = slpi_props_order_paths(c);
    double *gap2 = malloc((size_t)paths * SLPI_PROPS_ORDER_LEVELS * sizeof *gap2);
    slpi_error err = { 0, "" };
    int rc = slpi_gaps_le_gap_paths(1, CONTROL_T, CONTROL_LMIN, CONTROL_LMIN + SLPI_PROPS_ORDER_LEVELS - 1, paths,
                                    c->seed, gap2, &err);
    if (rc == SLPI_OK) {
        st->paths = paths;
        st->dropped = 0;
        slpi_props_order_bootstrap(st, gap2, paths, 0, c->seed);
    }
    free(gap2);
    if (rc) {
        slpi_props_outcome_unable(o, err.msg);
        return -1;
    }
    return slpi_props_order_reaches(st, 1); /* one noise: order 1 owed */
}

/* The agreement study of p against q, its partner. */
static void agree_study(const slpi_props_case *c, const slpi_problem *p, const slpi_problem *q, slpi_props_outcome *o)
{
    const slpi_scheme_view *sch = slpi_view_scheme(q);
    int active = slpi_props_order_noises(c, p);
    double expect = slpi_props_order_owed(c, active);
    slpi_props_order_study st;
    if (slpi_props_order_run(&st, o, c, p, q, SLPI_PROPS_ORDER_PARTNER, active ? slpi_props_order_paths(c) : 1)) return;
    o->holds = slpi_props_order_reaches(&st, expect);
    o->ratio = st.hi + SLPI_PROPS_ORDER_SLACK - expect;
    snprintf(o->msg, sizeof o->msg,
             "gap to %s%s: slope %.3f, 95%% CI [%.3f, %.3f] over %d paths (%d dropped), "
             "must reach %g (slack %g)",
             slpi_scheme_name(sch->scheme),
             sch->scheme != SLPI_SCHEME_SVI ? ""
                 : sch->svi_c > 0           ? " c=+1/4"
                                            : " c=-1/4",
             st.s, st.lo, st.hi, st.paths, st.dropped, expect, SLPI_PROPS_ORDER_SLACK);
    if (!o->holds || c->system != SLPI_SYS_RIGID_BODY || c->scheme != SLPI_SCHEME_RKMK_LE) return;
    slpi_props_order_study ctl;
    slpi_props_outcome co;
    int agrees = le_control_agrees(c, &ctl, &co);
    size_t len = strlen(o->msg);
    if (agrees < 0) {
        *o = co;
        return;
    }
    o->holds = !agrees;
    snprintf(o->msg + len, sizeof o->msg - len,
             "; control H_1 = a x_1 x_2 (X4, inconsistent) gap slope %.3f, CI [%.3f, %.3f]%s", ctl.s, ctl.lo, ctl.hi,
             agrees ? " SHRINKS: the rule cannot tell" : " flat");
}

static void agree_check(const slpi_props_case *c, int use_ref, slpi_props_outcome *o)
{
    (void)use_ref;
    slpi_problem *p, *q = NULL;
    slpi_error err;
    if (slpi_props_problem_new(&p, c, &err) == SLPI_OK) q = partner(p, &err);
    if (q)
        agree_study(c, p, q, o);
    else
        slpi_props_outcome_unable(o, err.msg);
    slpi_problem_free(p);
    slpi_problem_free(q);
}

const slpi_props_property slpi_props_prop_agree = {
    "agree",
    "cross-scheme agreement: the gap to a partner scheme on coupled paths shrinks at the strong rate; X4's "
    "inconsistent Lie-Euler does not",
    slpi_props_order_expect,
    slpi_props_order_adjust_strong,
    agree_check,
    0,
    0,
    slpi_props_order_why_not,
};
