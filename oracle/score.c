/* score.c — fast-vs-certified scoring (the oracle's fast-vs-certified budget) and the golden check.
 *
 * Ratio: the LAPACK-style scale-free error |f - x| / (unit scale), unit = max(n,1) u
 * (u = 2^-53 for binary64, the port's unit roundoff under a stated budget; n the steps
 * the error had to accumulate: the step index globally, the steps since the previous
 * row locally), x the exact discrete result (known only as a ball B). From B we
 * get certified bounds lo <= ratio <= hi (|f - mid| -/+ rad). The verdict against the
 * budget K (30 by default) is tri-state: PASS if hi <= K, FAIL if lo > K, else UNABLE
 * (the ball is too wide to decide). Landing inside a ball therefore passes when the ball is
 * narrow enough to certify the budget, never merely because the ball is wide.
 * Scale: the state's max norm (of the ball midpoints); for an invariant I,
 * max(|I(x_n)|, sum_j |dI/dx_j| |x_j|) (slpi_oracle_invariant_scales), so that an
 * invariant that is (nearly) zero is measured against what state rounding does to it.
 * Ulps: where arb_can_round_arf says the ball determines the value r correctly rounded
 * to the format's p significand bits (53 for a double; a port's declared format,
 * oracle/precision.c), the distance |f - r| in units of ulp_p(r), over the significant
 * components |r| >= 2^-floor(p/2) scale (2^-26 for a double: a tiny component's ulps say
 * nothing; the ratio covers it). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/plan.h"
#include "slpi/step.h"
#include "slpi/fast.h"
#include "slpi/ref.h"
#include "slpi/tools.h"
#include "core/plan.h"
#include "oracle/oracle.h"

#define SCORE_PREC 256

const char *slpi_verdict_name(slpi_verdict v)
{
    switch (v) {
    case SLPI_VERDICT_PASS:
        return "PASS";
    case SLPI_VERDICT_FAIL:
        return "FAIL";
    default:
        return "UNABLE";
    }
}

slpi_verdict slpi_verdict_worse(slpi_verdict a, slpi_verdict b)
{
    if (a == SLPI_VERDICT_FAIL || b == SLPI_VERDICT_FAIL) return SLPI_VERDICT_FAIL;
    if (a == SLPI_VERDICT_UNABLE || b == SLPI_VERDICT_UNABLE) return SLPI_VERDICT_UNABLE;
    return SLPI_VERDICT_PASS;
}

static void score_empty(slpi_score *s)
{
    s->lo = s->hi = 0.0;
    s->max_ulps = -1.0;
    s->rounded = s->count = 0;
}

/* Bounds of |a - b| / denom into s (a, b balls). */
static void score_pair(arb_srcptr a, arb_srcptr b, double denom, slpi_score *s)
{
    arb_t e;
    arf_t lo, hi;
    arb_init(e);
    arf_init(lo);
    arf_init(hi);
    arb_sub(e, a, b, SCORE_PREC);
    arb_get_abs_lbound_arf(lo, e, SCORE_PREC);
    arb_get_abs_ubound_arf(hi, e, SCORE_PREC);
    double l = arf_get_d(lo, ARF_RND_DOWN) / denom, h = arf_get_d(hi, ARF_RND_UP) / denom;
    if (!arb_is_finite(e)) l = 0.0, h = INFINITY;
    if (l > s->lo) s->lo = l;
    if (h > s->hi || isnan(h)) s->hi = h;
    s->count++;
    arb_clear(e);
    arf_clear(lo);
    arf_clear(hi);
}

double slpi_score_unit(long steps, double u)
{
    return (double)(steps > 1 ? steps : 1) * u;
}

void slpi_score_vector(const double *f, arb_srcptr b, int n, double unit, double scale, slpi_score *s)
{
    slpi_score_vector_bits(f, b, n, unit, scale, s, 53);
}

void slpi_score_vector_bits(const double *f, arb_srcptr b, int n, double unit, double scale, slpi_score *s, int bits)
{
    score_empty(s);
    if (scale <= 0) {
        scale = 0;
        for (int i = 0; i < n; i++) {
            double m = fabs(arf_get_d(arb_midref(b + i), ARF_RND_NEAR));
            if (m > scale) scale = m;
        }
        if (scale == 0) scale = 1;
    }
    double denom = unit * scale;
    arb_t fi;
    arf_t rp;
    arb_init(fi);
    arf_init(rp);
    for (int i = 0; i < n; i++) {
        arb_set_d(fi, f[i]);
        score_pair(fi, b + i, denom, s);
        if (!arb_can_round_arf(b + i, bits, ARF_RND_NEAR)) continue;
        arf_set_round(rp, arb_midref(b + i), bits, ARF_RND_NEAR);
        double r = arf_get_d(rp, ARF_RND_NEAR);
        if (fabs(r) < ldexp(scale, -bits / 2) && !(r == 0 && f[i] == 0)) continue;
        double ulp = r == 0 ? 1.0 : slpi_precision_ulp(r, bits);
        double u = fabs(f[i] - r) / ulp;
        if (u > s->max_ulps) s->max_ulps = u;
        s->rounded++;
    }
    arb_clear(fi);
    arf_clear(rp);
}

void slpi_score_invariants(arb_srcptr If, arb_srcptr Ib, const double *scale, int n, double unit, slpi_score *s)
{
    score_empty(s);
    for (int i = 0; i < n; i++) score_pair(If + i, Ib + i, unit * (scale[i] > 0 ? scale[i] : 1.0), s);
}

void slpi_score_merge(slpi_score *worst, const slpi_score *s)
{
    if (s->lo > worst->lo) worst->lo = s->lo;
    if (s->hi > worst->hi || isnan(s->hi)) worst->hi = s->hi;
    if (s->max_ulps > worst->max_ulps) worst->max_ulps = s->max_ulps;
    worst->rounded += s->rounded;
    worst->count += s->count;
}

slpi_verdict slpi_score_verdict(const slpi_score *s, double budget)
{
    if (s->hi <= budget) return SLPI_VERDICT_PASS;
    if (s->lo > budget) return SLPI_VERDICT_FAIL;
    return SLPI_VERDICT_UNABLE;
}

/* ------------------------------------------------------------ golden check */

typedef struct {
    const slpi_golden *g;
    slpi_golden_result *r;
    int next; /* checkpoint index */
} ref_check;

/* A certified invariant's name in the vocabulary both paths share
 * (docs/architecture.md#twin-diagnostics): the names the certified path wrote before it,
 * in golden files of that time, are read as the names they became, so those files still
 * check. */
static const char *canonical_inv(const char *name)
{
    static const char *const old[][2] = { { "|x|^2", "casimir_norm2" },
                                          { "C1=|gamma|^2", "C1" },
                                          { "C2=pi.gamma", "C2" },
                                          { "(R Pi)_z", "p_phi" },
                                          { "Tr X^2", "trX2" },
                                          { "Tr X^4", "trX4" },
                                          { "Tr X^6", "trX6" },
                                          { "Tr X^8", "trX8" },
                                          { "Tr X^10", "trX10" },
                                          { "C2=Tr W^2", "C2" },
                                          { "C3=Im Tr W^3", "C3" },
                                          { "|x1|^2", "casimir_norm2_1" },
                                          { "|x2|^2", "casimir_norm2_2" },
                                          { "|x3|^2", "casimir_norm2_3" },
                                          { "|x4|^2", "casimir_norm2_4" },
                                          { "|x5|^2", "casimir_norm2_5" },
                                          { "|x6|^2", "casimir_norm2_6" },
                                          { "|x7|^2", "casimir_norm2_7" },
                                          { "|x8|^2", "casimir_norm2_8" } };
    for (size_t i = 0; i < sizeof old / sizeof old[0]; i++)
        if (strcmp(name, old[i][0]) == 0) return old[i][1];
    return name;
}

/* Index of the invariant called name in d (either spelling, canonical_inv), -1 if it has none. */
static int find_inv(const slpi_ref_diag *d, const char *name)
{
    for (int i = 0; i < d->n; i++)
        if (strcmp(canonical_inv(d->name[i]), canonical_inv(name)) == 0) return i;
    return -1;
}

/* The fresh certified state and invariants against a checkpoint; invariants match by
 * name (the ref path may have gained invariants since the file was made). */
static int compare_ref(void *ctx, long step, arb_srcptr x, const slpi_ref_diag *inv, const slpi_step_info *info)
{
    ref_check *c = ctx;
    const slpi_golden_checkpoint *k = c->g->check + c->next++;
    slpi_golden_result *r = c->r;
    (void)step;
    if (info->radius > r->ref_radius) r->ref_radius = info->radius;
    for (int i = 0; i < c->g->dim; i++) {
        if (!arb_contains(k->state + i, x + i)) r->ref_encloses = 0;
        if (!arb_overlaps(k->state + i, x + i) && r->ref != SLPI_VERDICT_FAIL) {
            r->ref = SLPI_VERDICT_FAIL;
            snprintf(r->msg, sizeof r->msg, "ref state %d at step %ld does not overlap the stored ball", i, k->step);
        }
    }
    for (int j = 0; j < k->ninv; j++) {
        int i = find_inv(inv, k->inv_name[j]);
        if (i < 0) {
            if (r->ref == SLPI_VERDICT_PASS)
                snprintf(r->msg, sizeof r->msg,
                         "the ref path no longer computes the invariant '%s': regenerate the file", k->inv_name[j]);
            r->ref = slpi_verdict_worse(r->ref, SLPI_VERDICT_UNABLE);
            continue;
        }
        if (!arb_contains(k->inv + j, inv->value + i)) r->ref_encloses = 0;
        if (!arb_overlaps(k->inv + j, inv->value + i) && r->ref != SLPI_VERDICT_FAIL) {
            r->ref = SLPI_VERDICT_FAIL;
            snprintf(r->msg, sizeof r->msg, "ref invariant %s at step %ld does not overlap the stored ball",
                     k->inv_name[j], k->step);
        }
    }
    return SLPI_OK;
}

/* The fast path over the golden increments, scored at each checkpoint. */
static int check_fast(const slpi_golden *g, slpi_golden_result *r, slpi_error *err)
{
    slpi_fast *f = NULL;
    slpi_ref *s = NULL;
    slpi_plan *plan = NULL; /* both paths' run objects from one plan: one parse of a model */
    int rc = slpi_plan_compile(&plan, g->problem, err);
    if (rc == SLPI_OK) rc = slpi_fast_create_plan(&f, plan, err);
    if (rc == SLPI_OK) rc = slpi_ref_create_plan(&s, plan, err);
    slpi_plan_unref(plan);
    double *x = malloc((size_t)g->dim * sizeof(double));
    memcpy(x, g->x0, (size_t)g->dim * sizeof(double));
    slpi_ref_diag d;
    slpi_ref_diag_init(&d);
    long n = 0;
    for (int c = 0; c < g->ncheck && rc == SLPI_OK; c++) {
        const slpi_golden_checkpoint *k = g->check + c;
        for (; n < k->step; n++) {
            slpi_step_info info = { 0 };
            slpi_step_status st = slpi_fast_step(f, x, g->dW + n * g->M, &info);
            if (slpi_step_failed(st)) {
                r->fast = SLPI_VERDICT_FAIL;
                snprintf(r->msg, sizeof r->msg, "fast step %ld: %s after %d iterations, residual %.3g", n,
                         slpi_step_status_name(st), info.iterations, info.residual);
                goto done;
            }
        }
        slpi_score sc;
        slpi_score_vector(x, k->state, g->dim, slpi_score_unit(k->step, SLPI_U_BINARY64), 0.0, &sc);
        slpi_score_merge(&r->state, &sc);
        slpi_oracle_invariants_of(s, x, g->dim, k->step, &d);
        double scale[SLPI_MAX_DIAG];
        slpi_oracle_invariant_scales(s, k->state, g->dim, scale, d.n);
        for (int j = 0; j < k->ninv; j++) {
            int i = find_inv(&d, k->inv_name[j]);
            if (i < 0) continue; /* reported by the ref check */
            slpi_score_invariants(d.value + i, k->inv + j, scale + i, 1, slpi_score_unit(k->step, SLPI_U_BINARY64),
                                  &sc);
            slpi_score_merge(&r->inv, &sc);
        }
    }
    r->fast = slpi_verdict_worse(slpi_score_verdict(&r->state, SLPI_ORACLE_THRESHOLD),
                                 slpi_score_verdict(&r->inv, SLPI_ORACLE_THRESHOLD));
    if (r->fast != SLPI_VERDICT_PASS && r->msg[0] == '\0')
        snprintf(r->msg, sizeof r->msg,
                 "fast path: state ratio in [%.3g, %.3g], invariant ratio in [%.3g, %.3g], threshold %g", r->state.lo,
                 r->state.hi, r->inv.lo, r->inv.hi, SLPI_ORACLE_THRESHOLD);
done:
    slpi_ref_diag_clear(&d);
    free(x);
    slpi_ref_free(s);
    slpi_fast_free(f);
    return rc;
}

int slpi_golden_check(const slpi_golden *g, slpi_golden_result *r, slpi_error *err)
{
    memset(r, 0, sizeof *r);
    r->ref = SLPI_VERDICT_PASS;
    r->ref_encloses = 1;
    score_empty(&r->state);
    score_empty(&r->inv);
    long *stops = malloc((size_t)(g->ncheck > 0 ? g->ncheck : 1) * sizeof(long));
    for (int c = 0; c < g->ncheck; c++) stops[c] = g->check[c].step;
    ref_check ctx = { g, r, 0 };
    long done;
    int rc = slpi_oracle_ref_walk(g->problem, g->x0, g->dW, stops, g->ncheck, compare_ref, &ctx, &done, err);
    free(stops);
    if (rc == SLPI_ENUMERIC) {
        r->ref = SLPI_VERDICT_UNABLE;
        snprintf(r->msg, sizeof r->msg, "%s", err->msg);
        rc = SLPI_OK;
    }
    if (rc != SLPI_OK) return rc;
    char keep[sizeof r->msg];
    snprintf(keep, sizeof keep, "%s", r->msg);
    r->msg[0] = '\0';
    rc = check_fast(g, r, err);
    if (keep[0]) snprintf(r->msg, sizeof r->msg, "%s", keep);
    return rc;
}
