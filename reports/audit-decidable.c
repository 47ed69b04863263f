/* audit-decidable.c — what the claims audit knows of a check before it runs, from its row of
 * the check language's table (reports/audit-lang.c): whether it can come out either way
 * (slpi_audit_decidable: the refusals at load, docs/claims.md#reach), the bound its number
 * is judged against (slpi_audit_bound), and what it measured in words
 * (slpi_audit_measured_words). Read by the registry (reports/audit-registry.c) and the
 * report (reports/audit-report.c). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "reports/audit-checks.h"

/* The index of x's threshold: X, or resolvable's count of levels N; -1 if none. */
static int threshold_index(const slpi_audit_args *x)
{
    int thr = slpi_audit_find(x, "X");
    return thr > 0 ? thr : slpi_audit_find(x, "N");
}

/* The round-off floor of a change over n roundings (docs/claims.md#roundoff, fixed
 * 2026-11-28): the standard deviation of n roundings to nearest of a binary64 number of
 * order one, each uniform within half an ulp, 2^-53 sqrt(n/12). */
static double roundoff_floor(long n)
{
    return DBL_EPSILON / 2 * sqrt((double)(n > 1 ? n : 1) / 12);
}

/* 0 if x's threshold or window lies in the range its quantity can take (an exponent's
 * window not holding it all, no finite bound of a window beyond it; a change's threshold
 * at or above the round-off floor of its run of `steps` steps), else -1 with why
 * (docs/claims.md#reach, fixed 2026-11-27; #roundoff, 2026-11-28). */
static int reach(const slpi_audit_args *x, long steps, char *why, size_t n)
{
    const char *w = x->arg[0].s, *what = "a change of a real quantity", *bad = NULL;
    int kind = slpi_audit_form_kind(x->form);
    int d = slpi_audit_find(x, "DIAG"), thr = threshold_index(x), lo = slpi_audit_find(x, "LO"), exponent = 0;
    double rlo = 1e-18, rhi = 1e6; /* a change; the others below */
    char dw[64];
    snprintf(dw, sizeof dw, " %s ", d > 0 ? x->arg[d].s : "-");
    if (!strcmp(w, "resolvable")) { /* "<= N" with N at the top always holds */
        rlo = 0, what = "a number of resolved levels";
        rhi = x->arg[slpi_audit_find(x, "B")].r - x->arg[slpi_audit_find(x, "A")].r + 1 -
            (x->arg[slpi_audit_find(x, "OP")].e == SLPI_AUDIT_LE);
    } else if (!strcmp(w, "versus") || (!strcmp(w, "ensemble") && thr > 0)) {
        rlo = 1e-24, rhi = 1e24, what = "a ratio of two changes";
    } else if (!strcmp(w, "max") && strstr(" capped stagnated failed mean_iters max_iters ", dw)) {
        rlo = 0, rhi = 1e9, what = "a count";
    } else if (!strcmp(w, "critical")) {
        rlo = x->arg[slpi_audit_find(x, "H0")].r, rhi = x->arg[slpi_audit_find(x, "H1")].r,
        what = "a step of its sweep";
    } else if (kind == SLPI_AUDIT_WIN) {
        rlo = -10, rhi = 10, what = "an exponent (a log-log slope)", exponent = 1;
    }
    if (!strcmp(w, "growth")) rlo = 0; /* the slope of a running max, which never decreases */
    int win = !(thr > 0 && kind == SLPI_AUDIT_MAG), k = win ? lo : thr; /* a threshold: the window [X, X] */
    if (k < 0) return 0;
    double a = x->arg[k].r, b = x->arg[k + win].r; /* ensemble away: two distances (changes) */
    bad = kind != SLPI_AUDIT_WIN && (a < rlo || b < rlo || a > rhi || b > rhi) ? "lies outside"
        : b < rlo || a > rhi                                                   ? "misses"
        : exponent && a <= rlo && b >= rhi                                     ? "holds all of"
        : kind == SLPI_AUDIT_WIN && ((isfinite(a) && a < rlo) || (isfinite(b) && b > rhi))
        ? "has a finite bound (inf for one side) beyond"
        : NULL;
    /* a change's threshold under the round-off of its run: met (>=) or missed (<=) by the
     * rounding alone, whatever the scheme does */
    double fl = roundoff_floor(!strcmp(w, "max") ? steps : 1);
    if (!bad && !win && !strcmp(what, "a change of a real quantity") && a < fl) {
        snprintf(why, n,
                 "the threshold %s is under the round-off floor %.2g of a change over %ld rounding%s "
                 "(2^-53 sqrt(n/12): docs/claims.md#roundoff): the rounding alone decides it",
                 x->arg[k].s, fl, !strcmp(w, "max") && steps > 1 ? steps : 1L,
                 !strcmp(w, "max") && steps > 1 ? "s (its run's steps)" : "");
        return -1;
    }
    if (bad)
        snprintf(why, n,
                 "the %s %s%s%s%s%s %s [%g, %g], the range %s can take in a passing and in a failing run "
                 "(docs/claims.md#reach)",
                 win ? "window" : "threshold", win ? "[" : "", x->arg[k].s, win ? ", " : "", win ? x->arg[k + 1].s : "",
                 win ? "]" : "", bad, rlo, rhi, what);
    return bad ? -1 : 0;
}

int slpi_audit_decidable(const slpi_audit_args *x, const char *const *diag, int ndiag, long steps, char *why, size_t n)
{
    int kind = slpi_audit_form_kind(x->form);
    int d = slpi_audit_find(x, "DIAG"), op = slpi_audit_find(x, "OP"), thr = threshold_index(x);
    if (d > 0 && diag) {
        int known = 0;
        for (int i = 0; i < ndiag; i++) known |= !strcmp(diag[i], x->arg[d].s);
        if (!known) {
            snprintf(why, n, "'%s' is not a diagnostic of this case's run (nearest: %s)", x->arg[d].s,
                     slpi_audit_nearest(diag, ndiag, x->arg[d].s));
            return -1;
        }
    }
    if (kind == SLPI_AUDIT_MAG && op > 0 && thr > 0) {
        double t = x->arg[thr].r;
        int ge = x->arg[op].e == SLPI_AUDIT_GE;
        if ((ge && t <= 0) || (!ge && t < 0)) {
            snprintf(why, n,
                     "'%s %s' is %s met by a magnitude (>= 0): the outcome cannot differ "
                     "between runs",
                     x->arg[op].s, x->arg[thr].s, ge ? "always" : "never");
            return -1;
        }
    }
    if (kind == SLPI_AUDIT_WIN) {
        const slpi_audit_arg *lo = &x->arg[slpi_audit_find(x, "LO")], *hi = &x->arg[slpi_audit_find(x, "HI")];
        int h0 = slpi_audit_find(x, "H0"); /* a sweep: its critical h is a grid point, [h, h] a window */
        if (lo->r > hi->r || (lo->r == hi->r && h0 < 0)) {
            snprintf(why, n, "the window [%s, %s] is %s (nearest valid: %s %s)", lo->s, hi->s,
                     lo->r > hi->r ? "reversed" : "empty", lo->r > hi->r ? hi->s : "LO", lo->r > hi->r ? lo->s : "HI");
            return -1;
        }
        if (isinf(lo->r) && isinf(hi->r)) {
            snprintf(why, n,
                     "the window [%s, %s] holds every number: the outcome cannot differ between "
                     "runs",
                     lo->s, hi->s);
            return -1;
        }
        if (h0 > 0 && !(x->arg[h0].r <= x->arg[h0 + 1].r && x->arg[h0 + 2].r > 0)) {
            snprintf(why, n, "the sweep %s..%s by %s is empty or reversed", x->arg[h0].s, x->arg[h0 + 1].s,
                     x->arg[h0 + 2].s);
            return -1;
        }
    }
    return reach(x, steps, why, n);
}

int slpi_audit_bound(const slpi_audit_args *x, double *lo, double *hi)
{
    int kind = slpi_audit_form_kind(x->form), thr = threshold_index(x);
    if (kind == SLPI_AUDIT_MAG && thr > 0) {
        *lo = *hi = x->arg[thr].r;
        return 1;
    }
    if (kind != SLPI_AUDIT_WIN) return 0;
    *lo = x->arg[slpi_audit_find(x, "LO")].r;
    *hi = x->arg[slpi_audit_find(x, "HI")].r;
    return 2;
}

/* A printf conversion of one double from a template's {NAME%FMT}. */
static int says_number(char *out, size_t n, const char *fmt, size_t len, double v)
{
    char f[16];
    snprintf(f, sizeof f, "%.*s", (int)(len < sizeof f ? len : sizeof f - 1), fmt);
    return snprintf(out, n, f, v);
}

void slpi_audit_measured_words(const char *check, double value, double lo, double hi, char *out, size_t n)
{
    slpi_audit_args x;
    char why[400];
    const char *t = NULL;
    out[0] = 0;
    if (!isfinite(value) && !isinf(value)) {
        snprintf(out, n, "no value");
        return;
    }
    if (!slpi_audit_parse(check, &x, why, sizeof why)) t = slpi_audit_form_says(x.form);
    if (!t) { /* a form without words, or a check the table no longer reads */
        snprintf(out, n, "%.*s: %.3g", (int)strcspn(check, " "), check, value);
        return;
    }
    size_t l = 0;
    while (*t && l + 1 < n) {
        if (*t != '{') {
            out[l++] = *t++;
            out[l] = 0;
            continue;
        }
        size_t name = strcspn(t + 1, "%}"), end = strcspn(t, "}");
        const char *fmt = t + 1 + name;
        int w;
        if (!strncmp(t + 1, "1}", 2))
            w = snprintf(out + l, n - l, "%s", x.arg[1].s);
        else
            w = says_number(out + l, n - l, fmt, (size_t)(t + end - fmt),
                            !strncmp(t + 1, "lo%", 3)       ? lo
                                : !strncmp(t + 1, "hi%", 3) ? hi
                                                            : value);
        l += w > 0 ? (size_t)w : 0;
        if (l >= n) l = n - 1;
        t += end + (t[end] == '}');
    }
}
