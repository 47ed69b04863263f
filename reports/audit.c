/* audit.c — the claims audit of docs/claims.md: on the registry as reports/audit-registry.c
 * read it (reports/claims.txt), evaluates every check (reports/audit-lang.c) and derives each claim's verdict from the outcomes
 * alone (never from the registry's roles or expectations):
 *   - a control ("fails"/"passes") with another outcome than it demands, or any claim
 *     check UNABLE: UNABLE (the decisive check did not show it can fail, or could not run);
 *   - every claim check passes: CONFIRMED, if every control ran; a control the audit does
 *     not run (a mutant, run by make mutants) makes it CONDITIONAL on that control, never
 *     CONFIRMED (docs/claims.md#verdicts, 2026-11-27);
 *   - a claim check fails and every "cond" check passes (there is one): CONDITIONAL, with
 *     the condition = the cond checks' cases;
 *   - otherwise: DISCREPANCY.
 * The expected verdict of the registry is never consulted here; the report compares the
 * two afterwards. Results can be cached per claim (keyed by the claim's registry lines,
 * the size, the bytes of the running executable and the recorded unit-test results),
 * so an interrupted FULL=1 audit
 * resumes and an unchanged claim is not recomputed. An entry carries a digest of its
 * key and checks; an entry whose digest does not match, or whose outcome is outside the
 * enumeration, is not used (named on standard error, recomputed). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/process.h"
#include "slpi/limits.h"
#include "slpi/run.h"
#include "core/clock.h"
#include "core/digest.h"
#include "reports/audit-checks.h"
#include "core/progress.h"

/* The outcome a control demands. */
static slpi_check_outcome demanded(const slpi_audit_check *c)
{
    return c->role == SLPI_ROLE_CTL_FAIL ? SLPI_CHECK_FAIL : SLPI_CHECK_PASS;
}

static int control_wrong(const slpi_audit_check *c)
{
    return slpi_audit_is_control(c) && c->outcome != SLPI_CHECK_NOT_RUN && c->outcome != demanded(c);
}

int slpi_audit_unfilled(const slpi_audit *a)
{
    int n = 0;
    for (int j = 0; j < a->nclaims; j++) n += a->claims[j].unfilled;
    return n;
}

int slpi_audit_controls_wrong(const slpi_audit *a)
{
    int n = 0;
    for (int i = 0; i < a->nchecks; i++) n += control_wrong(&a->checks[i]);
    return n;
}

/* The verdict of claim cl from its checks common to every variant and those of variant
 * var (-1: no variants): the rules of the header. */
static slpi_claim_verdict decide(const slpi_audit *a, const slpi_audit_claim *cl, int var, char *reason, size_t nreason,
                                 char *condition, size_t ncond_max)
{
    int nclaim = 0, fail = 0, unable = 0, ncond = 0, condfail = 0, ctlwrong = 0;
    const slpi_audit_check *first_fail = NULL, *first_unable = NULL, *first_ctl = NULL, *first_claim = NULL,
                           *unrun = NULL;
    condition[0] = 0;
    for (int i = cl->first; i < cl->first + cl->count; i++) {
        const slpi_audit_check *c = &a->checks[i];
        if (c->variant >= 0 && c->variant != var) continue;
        if (c->role == SLPI_ROLE_CLAIM) {
            if (!nclaim++) first_claim = c;
            if (c->outcome == SLPI_CHECK_FAIL && !fail++) first_fail = c;
            if ((c->outcome == SLPI_CHECK_UNABLE || c->outcome == SLPI_CHECK_NOT_RUN) && !unable++) first_unable = c;
        } else if (c->role == SLPI_ROLE_COND) {
            ncond++;
            condfail += c->outcome != SLPI_CHECK_PASS;
            slpi_audit_append(condition, ncond_max, "; ", c->kase);
        } else if (control_wrong(c) && !ctlwrong++) {
            first_ctl = c;
        } else if (slpi_audit_is_control(c) && c->outcome == SLPI_CHECK_NOT_RUN && !unrun) {
            unrun = c;
        }
    }
    slpi_claim_verdict v;
    if (ctlwrong) {
        v = SLPI_CLAIM_UNABLE;
        snprintf(reason, nreason,
                 "the control (%s on %s) should %s but did not: the decisive "
                 "check is not shown to discriminate",
                 first_ctl->check, first_ctl->kase,
                 first_ctl->role == SLPI_ROLE_CTL_FAIL ? "fall outside the threshold" : "meet it");
    } else if (unable || !nclaim) {
        v = SLPI_CLAIM_UNABLE;
        snprintf(reason, nreason, "%s", first_unable ? first_unable->evidence : "no claim check");
    } else if (!fail && unrun) { /* met, but not shown here to be able to fail */
        v = SLPI_CLAIM_CONDITIONAL;
        if (snprintf(condition, ncond_max, "its control `%s` comes out %s (run by %s, not by the audit)", unrun->check,
                     unrun->role == SLPI_ROLE_CTL_FAIL ? "not met" : "met", unrun->command) >= (int)ncond_max)
            condition[ncond_max - 1] = 0; /* a longer name is cut; snprintf ended it there */
        snprintf(reason, nreason,
                 "all %d claim check%s met, but the control (%s) did not run: "
                 "CONFIRMED only once it is shown to come out as it demands; %s",
                 nclaim, nclaim > 1 ? "s" : "", unrun->check, first_claim->evidence);
    } else if (!fail) {
        v = SLPI_CLAIM_CONFIRMED;
        snprintf(reason, nreason, "all %d claim check%s met; %s", nclaim, nclaim > 1 ? "s" : "", first_claim->evidence);
    } else if (ncond && !condfail) {
        v = SLPI_CLAIM_CONDITIONAL;
        snprintf(reason, nreason, "%s", first_fail->evidence);
    } else {
        v = SLPI_CLAIM_DISCREPANCY;
        snprintf(reason, nreason, "%s", first_fail->evidence);
    }
    if (v != SLPI_CLAIM_CONDITIONAL) condition[0] = 0;
    return v;
}

/* A claim with variants: each decided alone. All alike: that verdict. Decided variants
 * that disagree: CRITERION-DEPENDENT. Otherwise (some UNABLE, the decided ones alike):
 * UNABLE -- a DISCREPANCY must hold on every variant of the paper's own setting. */
static void verdict(const slpi_audit *a, slpi_audit_claim *cl)
{
    if (!cl->nvar) {
        cl->verdict = decide(a, cl, -1, cl->reason, sizeof cl->reason, cl->condition, sizeof cl->condition);
        return;
    }
    int nunable = 0, differ = 0;
    slpi_claim_verdict first = SLPI_CLAIM_UNABLE;
    int have = 0;
    char cond[256];
    for (int v = 0; v < cl->nvar; v++) {
        slpi_audit_variant *w = &cl->var[v];
        w->verdict = decide(a, cl, v, w->reason, sizeof w->reason, cond, sizeof cond);
        if (w->verdict == SLPI_CLAIM_UNABLE) {
            nunable++;
        } else if (!have++) {
            first = w->verdict;
            snprintf(cl->condition, sizeof cl->condition, "%s", cond);
        } else if (w->verdict != first) {
            differ = 1;
        }
    }
    char list[512] = "";
    for (int v = 0; v < cl->nvar; v++) {
        char item[96];
        snprintf(item, sizeof item, "%s: %s", cl->var[v].label, slpi_claim_verdict_name(cl->var[v].verdict));
        slpi_audit_append(list, sizeof list, "; ", item);
    }
    if (differ) {
        cl->verdict = SLPI_CLAIM_CRITERION;
        snprintf(cl->reason, sizeof cl->reason,
                 "the variants disagree (%s): the verdict depends on "
                 "a choice the paper leaves open",
                 list);
    } else if (nunable) {
        cl->verdict = SLPI_CLAIM_UNABLE;
        snprintf(cl->reason, sizeof cl->reason, "not decided on every variant (%s)", list);
    } else {
        cl->verdict = first;
        snprintf(cl->reason, sizeof cl->reason, "the same on all %d variants (%s); %s", cl->nvar, list,
                 cl->var[0].reason);
    }
    if (cl->verdict != SLPI_CLAIM_CONDITIONAL) cl->condition[0] = 0;
}

/* The build key: the running executable's bytes and the recorded unit-test results. */
static uint64_t build_key(const slpi_audit *a)
{
    return slpi_fnv1a_file(slpi_fnv1a_file(SLPI_FNV_INIT, "/proc/self/exe"), a->tests);
}

static uint64_t claim_key(const slpi_audit *a, const slpi_audit_claim *cl, uint64_t build)
{
    uint64_t h = slpi_fnv1a(SLPI_FNV_INIT, &build, sizeof build);
    h = slpi_fnv1a(h, &a->full, sizeof a->full);
    h = slpi_fnv1a(h, &a->controls, sizeof a->controls);
    if (a->seed_offset) h = slpi_fnv1a(h, &a->seed_offset, sizeof a->seed_offset);
    if (a->fit_ols || a->drop_coarse) { /* a multiverse member's fit */
        int m[2] = { a->fit_ols, a->drop_coarse };
        h = slpi_fnv1a(h, m, sizeof m);
    }
    for (int i = cl->first; i < cl->first + cl->count; i++) {
        const slpi_audit_check *c = &a->checks[i];
        /* what the measurement depends on in this mode: the case, the FULL overrides in
         * force, the check in force, role and variant (not the expectation, not the
         * other mode's check: a reduced size can change without redoing a FULL run) */
        const char *f[4] = { c->kase, a->full ? c->full_case : "", slpi_audit_check_string(a, c), c->vlabel };
        for (int k = 0; k < 4; k++) h = slpi_fnv1a(h, f[k], strlen(f[k]) + 1);
        h = slpi_fnv1a(h, &c->role, sizeof c->role);
    }
    return h;
}

/* The entry's path in out (n > SLPI_PATH_MAX); 0 when it, with the ".tmp" of its temporary
 * file, does not fit in SLPI_PATH_MAX bytes: such a claim is not cached (never read or
 * written at a path cut short) */
static int cache_path(const slpi_audit *a, const slpi_audit_claim *cl, uint64_t key, char *out, size_t n)
{
    int len = snprintf(out, n, "%s/%s-%016llx.json", a->cache, cl->id, (unsigned long long)key);
    return len >= 0 && len + 4 < SLPI_PATH_MAX;
}

/* The digest of a cache entry: FNV-1a of its key and of its checks array as compact JSON
 * with sorted keys and 17-digit reals (the same text for the same values), as 16 hex
 * digits. It detects an edited or torn entry (not a forgery: FNV is no MAC). */
static void cache_digest(uint64_t key, const json_t *checks, char out[17])
{
    char *text = json_dumps(checks, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
    uint64_t h = slpi_fnv1a(SLPI_FNV_INIT, &key, sizeof key);
    h = text ? slpi_fnv1a(h, text, strlen(text)) : 0;
    free(text);
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* A cache entry is used only if its digest matches and every field is of its kind, the
 * outcome one of the enumeration; else it is reported on standard error and recomputed. */
static int cache_load(const slpi_audit *a, const slpi_audit_claim *cl, uint64_t key)
{
    char path[SLPI_PATH_MAX + 64], want[17];
    if (!cache_path(a, cl, key, path, sizeof path) || access(path, F_OK) != 0) return 0;
    json_t *root = json_load_file(path, 0, NULL), *arr = json_object_get(root, "checks");
    const char *digest = json_string_value(json_object_get(root, "digest"));
    if (arr) cache_digest(key, arr, want);
    if (!root || !arr || !digest || strcmp(digest, want) != 0) {
        fprintf(stderr, "audit: cache entry %s: %s: recomputed\n", path,
                !root         ? "not JSON"
                    : !digest ? "no digest"
                              : "digest mismatch (edited or torn)");
        json_decref(root);
        return 0;
    }
    int ok = json_array_size(arr) == (size_t)cl->count;
    for (int i = 0; ok && i < cl->count; i++) {
        slpi_audit_check *c = &a->checks[cl->first + i];
        json_t *k = json_array_get(arr, (size_t)i), *v = json_object_get(k, "value");
        const char *ev = json_string_value(json_object_get(k, "evidence"));
        const char *cmd = json_string_value(json_object_get(k, "command"));
        const char *fig = json_string_value(json_object_get(k, "figure"));
        json_t *o = json_object_get(k, "outcome");
        ok = ev && cmd && fig && json_is_integer(o) && json_integer_value(o) >= SLPI_CHECK_PASS &&
            json_integer_value(o) <= SLPI_CHECK_NOT_RUN && (json_is_number(v) || json_is_null(v));
        if (!ok) {
            fprintf(stderr, "audit: cache entry %s: check %d: a field missing or out of its range: recomputed\n", path,
                    i + 1);
            break;
        }
        c->outcome = (slpi_check_outcome)json_integer_value(o);
        c->value = json_is_number(v) ? json_number_value(v) : NAN;
        c->seconds = json_number_value(json_object_get(k, "seconds"));
        snprintf(c->evidence, sizeof c->evidence, "%s", ev);
        snprintf(c->command, sizeof c->command, "%s", cmd);
        snprintf(c->figure, sizeof c->figure, "%s", fig);
        json_t *nums = json_object_get(k, "numbers");
        const char *key;
        json_t *val;
        c->nnum = 0;
        json_object_foreach(nums, key, val) /* a non-finite number is stored as its word */
            slpi_audit_num(c, key, json_is_string(val) ? strtod(json_string_value(val), NULL) : json_number_value(val));
        if (a->full && strcmp(c->full, "-")) {
            char buf[sizeof c->check];
            snprintf(buf, sizeof buf, "%s", json_string_value(json_object_get(k, "check")));
            snprintf(c->check, sizeof c->check, "%s", buf);
        }
    }
    json_decref(root);
    return ok;
}

static void cache_store(const slpi_audit *a, const slpi_audit_claim *cl, uint64_t key)
{
    char path[SLPI_PATH_MAX + 64], tmp[SLPI_PATH_MAX + 80];
    if (!cache_path(a, cl, key, path, sizeof path)) {
        fprintf(stderr,
                "audit: claim %s: its cache entry's path (%zu bytes of folder) does not fit in %d "
                "bytes: not cached\n",
                cl->id, strlen(a->cache), SLPI_PATH_MAX);
        return;
    }
    json_t *root = json_object(), *arr = json_array();
    for (int i = cl->first; i < cl->first + cl->count; i++) {
        const slpi_audit_check *c = &a->checks[i];
        json_t *k = json_object();
        json_object_set_new(k, "outcome", json_integer(c->outcome));
        json_object_set_new(k, "value", isfinite(c->value) ? json_real(c->value) : json_null());
        json_object_set_new(k, "seconds", json_real(c->seconds));
        json_object_set_new(k, "check", json_string(c->check));
        json_object_set_new(k, "evidence", json_string(c->evidence));
        json_object_set_new(k, "command", json_string(c->command));
        json_object_set_new(k, "figure", json_string(c->figure));
        json_t *nums = json_object();
        for (int j = 0; j < c->nnum; j++) /* inf (no critical step, a failed fixed point) kept as a word */
            json_object_set_new(nums, c->num_name[j],
                                isfinite(c->num[j]) ? json_real(c->num[j])
                                                    : json_string(isnan(c->num[j])    ? "nan"
                                                                      : c->num[j] > 0 ? "inf"
                                                                                      : "-inf"));
        json_object_set_new(k, "numbers", nums);
        json_array_append_new(arr, k);
    }
    char digest[17];
    cache_digest(key, arr, digest);
    json_object_set_new(root, "checks", arr);
    json_object_set_new(root, "digest", json_string(digest));
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (json_dump_file(root, tmp, JSON_REAL_PRECISION(17)) == 0)
        rename(tmp, path);
    else
        fprintf(stderr, "audit: cannot write the cache entry %s\n", tmp);
    json_decref(root);
}

static const char *outcome_word(const slpi_audit_check *c)
{
    if (c->outcome == SLPI_CHECK_NOT_RUN) return "not run";
    if (c->outcome == SLPI_CHECK_UNABLE) return "unable";
    return c->outcome == SLPI_CHECK_PASS ? "met" : "not met";
}

int slpi_audit_run(slpi_audit *a, FILE *log, slpi_error *err)
{
    uint64_t build = a->cache ? build_key(a) : 0;
    slpi_progress *pg = slpi_progress_begin("audit, claims", a->nclaims);
    int rc = SLPI_OK;
    for (int j = 0; j < a->nclaims && rc == SLPI_OK; j++) {
        slpi_audit_claim *cl = &a->claims[j];
        uint64_t key = a->cache ? claim_key(a, cl, build) : 0;
        int cached = a->cache && cache_load(a, cl, key);
        if (!cached && a->cached_only) { /* archive what a long run finished, no more */
            for (int i = cl->first; i < cl->first + cl->count; i++) {
                slpi_audit_check *c = &a->checks[i];
                c->outcome = SLPI_CHECK_NOT_RUN;
                c->value = NAN;
                snprintf(c->evidence, sizeof c->evidence,
                         "not run: no finished result of this "
                         "claim in the cache (--cached-only)");
            }
        }
        /* polled before every check too: one claim's checks together may take minutes */
        for (int i = cl->first; !cached && !a->cached_only && i < cl->first + cl->count && !slpi_interrupt_pending();
             i++) {
            slpi_audit_check *c = &a->checks[i];
            if (a->controls && !slpi_audit_is_control(c)) {
                c->outcome = SLPI_CHECK_NOT_RUN;
                snprintf(c->evidence, sizeof c->evidence, "not run (controls only)");
                continue;
            }
            double t1 = slpi_clock_seconds(CLOCK_MONOTONIC);
            slpi_audit_eval(a, c);
            c->seconds = slpi_clock_seconds(CLOCK_MONOTONIC) - t1;
        }
        /* interrupted: this claim's outcomes are not its own (never cached); the claims
         * before it are (a run with the same cache resumes here) */
        if (slpi_interrupt_pending()) {
            rc = slpi_error_set(err, SLPI_EINTR, "interrupted in claim %s (%d of %d claims finished%s)", cl->id, j,
                                a->nclaims, a->cache ? ", cached: run again to resume" : "");
            break;
        }
        if (!cached && a->cache && !a->cached_only) cache_store(a, cl, key);
        cl->cached = cached;
        verdict(a, cl);
        cl->unfilled = 0;
        if (slpi_audit_fill(a, cl, cl->why, cl->why_text, sizeof cl->why_text) && !a->controls) {
            cl->unfilled = !(a->cached_only && !cached); /* a claim not run measured nothing */
            char bad[64];
            snprintf(bad, sizeof bad, "%.60s", cl->why_text);
            snprintf(cl->why_text, sizeof cl->why_text,
                     "[the registry's text of %s names %s, a "
                     "number this run did not measure]",
                     cl->id, bad);
        }
        slpi_progress_add(pg, 1);
        if (log) {
            fprintf(log, "%-4s %-12s %s\n", cl->id, a->controls ? "" : slpi_claim_verdict_name(cl->verdict),
                    cached ? "(cached)" : "");
            for (int i = cl->first; i < cl->first + cl->count; i++) {
                const slpi_audit_check *c = &a->checks[i];
                if (a->controls && !slpi_audit_is_control(c)) continue;
                fprintf(log, "     %-25s %-8s%s %6.1fs  %s\n", slpi_audit_role_words(c->role), outcome_word(c),
                        control_wrong(c) ? " (CONTROL WRONG)" : "", c->seconds, c->check);
            }
            fflush(log);
        }
    }
    slpi_progress_end(pg);
    return rc;
}

void slpi_audit_free(slpi_audit *a)
{
    free(a->checks);
    free(a->claims);
    a->checks = NULL;
    a->claims = NULL;
}
