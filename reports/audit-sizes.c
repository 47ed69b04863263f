/* audit-sizes.c — the audit's sizes in words (a check's runs, study or sweep, from what it
 * measured and the problem of its case; a claim's decisive checks' sizes), for the
 * report's claims.json and index.html (reports/audit-report.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "slpi/errors.h"
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-system.h"
#include "reports/audit.h"
#include "reports/audit-checks.h"

/* A named number of a check (NAN if absent). */
double slpi_audit_number(const slpi_audit_check *c, const char *name)
{
    for (int i = 0; i < c->nnum; i++)
        if (!strcmp(c->num_name[i], name)) return c->num[i];
    return NAN;
}

/* The size of a system where it has one: "N = 64, " (Euler-Zeitlin, sine-Euler), "n = 4, "
 * (Manakov, point vortices); "" otherwise. */
static void system_size(const slpi_problem *p, char *out, size_t n)
{
    switch (slpi_view_system(p)->system) {
    case SLPI_SYS_EULER_ZEITLIN:
        snprintf(out, n, "N = %d, ", slpi_view_system(p)->ez.N);
        break;
    case SLPI_SYS_SINE_EULER:
        snprintf(out, n, "N = %d, ", slpi_view_system(p)->se.N);
        break;
    case SLPI_SYS_MANAKOV:
        snprintf(out, n, "n = %d, ", slpi_view_system(p)->mk.n);
        break;
    case SLPI_SYS_POINT_VORTICES:
        snprintf(out, n, "n = %d, ", slpi_view_system(p)->pv.n);
        break;
    default:
        out[0] = 0;
    }
}

/* The size of check c in words, from what it measured and the problem of its case: a
 * study's paths and step sizes; a sweep's step sizes, seeds and horizon; one step for a
 * Poisson defect; the steps of a run, with the system's size. A check without a case is
 * a closed computation; a kind of check whose size is none of these keeps its case. */
void slpi_audit_size_words(const slpi_audit *a, const slpi_audit_check *c, char *out, size_t n)
{
    double steps = slpi_audit_number(c, "steps"), h = slpi_audit_number(c, "h"), T = slpi_audit_number(c, "T"),
           paths = slpi_audit_number(c, "paths");
    double h0, h1, dh, rpaper;
    int A, B, L, R, seeds;
    long k;
    char kind[16], sys[32] = "", args[512];
    slpi_problem *p = slpi_problem_alloc(); /* NULL (out of memory): no size of the case's run */
    slpi_error err;
    int have = p && strcmp(c->kase, "-") && slpi_audit_case(a, c, p, args, sizeof args, &err) == SLPI_OK;
    if (have) system_size(p, sys, sizeof sys);
    if (isfinite(paths) && sscanf(c->check, "slope %15s %d %d %d", kind, &A, &B, &L) == 4)
        snprintf(out, n, "%s%.0f coupled paths, h = T/2^%d..T/2^%d, reference T/2^%d", sys, paths, A, B, L);
    else if (sscanf(c->check, "resolvable %d %d %d %d %lf", &A, &B, &L, &R, &rpaper) == 5)
        snprintf(out, n, "%s%d coupled paths, h = T/2^%d..T/2^%d, reference T/2^%d", sys, R, A, B, L);
    else if (sscanf(c->check, "gap %15s %d %d", kind, &L, &R) == 3)
        snprintf(out, n, "%s%d coupled paths at h = T/2^%d", sys, R, L);
    else if (!have)
        snprintf(out, n, "%s", strcmp(c->kase, "-") ? c->kase : "closed computation");
    else if (sscanf(c->check, "critical %lf %lf %lf %d", &h0, &h1, &dh, &seeds) == 4)
        snprintf(out, n, "%sh = %g..%g by %g, seeds 1..%d, T = %g each", sys, h0, h1, dh, seeds,
                 slpi_view_grid(p)->T > 0 ? slpi_view_grid(p)->T
                                          : slpi_view_grid(p)->h * (double)slpi_view_grid(p)->steps);
    else if (!strncmp(c->check, "poisson ", 8) || !strncmp(c->check, "refpoisson ", 11))
        snprintf(out, n, "%sone step of h = %g", sys, slpi_view_grid(p)->h);
    else if (sscanf(c->check, "ref %15s %ld", kind, &k) == 2)
        snprintf(out, n, "%s%ld certified steps of h = %g", sys, k, slpi_view_grid(p)->h);
    else if (sscanf(c->check, "lifted %lf %ld", &h0, &k) == 2 || sscanf(c->check, "sviident %ld", &k) == 1)
        snprintf(out, n, "%s%ld step%s of h = %g", sys, k, k == 1 ? "" : "s", slpi_view_grid(p)->h);
    else if (sscanf(c->check, "sviorbit %ld", &k) == 1)
        snprintf(out, n, "%sone step of h = %g from each point of a %ld x %ld grid of the sphere", sys,
                 slpi_view_grid(p)->h, k, 2 * k);
    else if (isfinite(steps) || !strncmp(c->check, "max ", 4) || !strncmp(c->check, "sphere ", 7) ||
             !strncmp(c->check, "versus ", 7) || !strncmp(c->check, "growth ", 7) ||
             !strncmp(c->check, "snapshots ", 10) || !strcmp(c->check, "fails")) {
        double s = isfinite(steps) ? steps : (double)slpi_view_grid(p)->steps,
               hh = isfinite(h) ? h : slpi_view_grid(p)->h;
        snprintf(out, n, "%s%.0f steps of h = %g (T = %g)", sys, s, hh, isfinite(T) ? T : s * hh);
    } else
        snprintf(out, n, "%s", c->kase);
    slpi_problem_free(p);
}

/* The audit's size of a claim in words: its decisive checks' runs or studies, each
 * distinct size once. */
void slpi_audit_claim_size_words(const slpi_audit *a, const slpi_audit_claim *cl, char *out, size_t n)
{
    out[0] = 0;
    for (int i = cl->first; i < cl->first + cl->count; i++) {
        const slpi_audit_check *c = &a->checks[i];
        if (c->role != SLPI_ROLE_CLAIM) continue;
        char w[256];
        slpi_audit_size_words(a, c, w, sizeof w);
        if (strstr(out, w)) continue;
        size_t l = strlen(out);
        snprintf(out + l, n - l, "%s%s", l ? "; " : "", w);
    }
}
