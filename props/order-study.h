/* props/order-study.h — the coupled convergence study that the order properties
 * (props/prop-order.c) and cross-scheme agreement (props/prop-agree.c) share
 * (docs/noise.md#coupling, docs/noise.md#estimators): levels of a scheme run on coupled
 * paths of the canonical hierarchy, the slope of their error and its bootstrap CI, the
 * rules a CI is judged by, and the case fitting of the order studies. Private to props/. */
#ifndef SLPI_PROPS_ORDER_STUDY_H
#define SLPI_PROPS_ORDER_STUDY_H

#include <stdint.h>

#include "props/props.h"

#define SLPI_PROPS_ORDER_LEVELS 4   /* levels studied, h = T 2^-LMIN.. (props/order-study.c) */
#define SLPI_PROPS_ORDER_SLACK 0.15 /* bias allowance on the CI (pre-asymptotic levels) */

/* What a level is compared with on each path: level LREF of the same scheme (the order
 * studies), the same level of a partner scheme on the same increments (agreement), or
 * the exact so(3) solution (weak order: the signed difference of phi = x_1). */
typedef enum { SLPI_PROPS_ORDER_FINE, SLPI_PROPS_ORDER_PARTNER, SLPI_PROPS_ORDER_EXACT } slpi_props_order_versus;

/* A study: the rms slope over paths and its bootstrap 95% CI [docs/noise.md#estimators choice]. */
typedef struct {
    double s, lo, hi;
    int paths, dropped;
} slpi_props_order_study;

/* Run the study of p (against q, or its own finest level when q is NULL) on `paths`
 * coupled paths; 0, or -1 with o UNABLE. */
int slpi_props_order_run(slpi_props_order_study *st, slpi_props_outcome *o, const slpi_props_case *c,
                         const slpi_problem *p, const slpi_problem *q, slpi_props_order_versus vs, int paths);
/* st's slope and bootstrap CI from err2 (paths x SLPI_PROPS_ORDER_LEVELS errors; weak: signed). */
void slpi_props_order_bootstrap(slpi_props_order_study *st, const double *err2, int paths, int weak, uint64_t seed);
/* The lower-bound rule: the CI (+ slack) reaches `order`; and the CI (+- slack) contains it. */
int slpi_props_order_reaches(const slpi_props_order_study *st, double order);
int slpi_props_order_contains(const slpi_props_order_study *st, double order);
/* The case's active noises, the order its scheme owes with them, its strong study's paths. */
int slpi_props_order_noises(const slpi_props_case *c, const slpi_problem *p);
double slpi_props_order_owed(const slpi_props_case *c, int active);
int slpi_props_order_paths(const slpi_props_case *c);
/* The order studies' expectation, N/A reason and case fitting (strong: 1 or 3 noises). */
slpi_props_expect slpi_props_order_expect(const slpi_props_case *c);
const char *slpi_props_order_why_not(const slpi_props_case *c, int ref);
void slpi_props_order_adjust(slpi_props_case *c, slpi_props_rng *r);
void slpi_props_order_adjust_strong(slpi_props_case *c, slpi_props_rng *r);

#endif
