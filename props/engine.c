/* props/engine.c — the property engine's loop (props/; theft/Hypothesis style): for each
 * (property, system, scheme, variant) it draws seeded cases (props/generate.c), checks each
 * against its property (props/properties.c), shrinks the first failing case and prints it
 * as a replay command (props/replay.c); it can save it under tests/regressions/, which
 * `make check` replays. Verdicts are tri-state: UNABLE is never a PASS. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/process.h"
#include "slpi/registry.h"
#include "props/props.h"
#include "core/progress.h"

static uint64_t mix(uint64_t a, uint64_t b)
{
    slpi_props_rng r = { a ^ (b * 0xd1b54a32d192ed03ULL) };
    return slpi_props_rng_u64(&r);
}

static int variants(slpi_system_id s, slpi_scheme_id k)
{
    if (k == SLPI_SCHEME_ISOMP) return 2;
    if (k == SLPI_SCHEME_SVI) return s == SLPI_SYS_RIGID_BODY || s == SLPI_SYS_HEAVY_TOP ? 2 : 1;
    return 1;
}

static const char *variant_name(slpi_scheme_id k, int v)
{
    if (k == SLPI_SCHEME_ISOMP) return v ? "[cay]" : "[comm]";
    if (k == SLPI_SCHEME_SVI) return v ? "[c=-1/4]" : "[c=+1/4]";
    return "";
}

static uint64_t group_seed(uint64_t seed, int pi, int s, int k, int v)
{
    return mix(mix(mix(seed, (uint64_t)pi), (uint64_t)(s * 16 + k)), (uint64_t)v);
}

/* The group's first case; 0 when the group runs, else its reason in why. The one
 * decision slpi_props_run and slpi_props_table share. */
static int group_case(const slpi_props_property *P, int pi, int s, int k, int v, uint64_t gseed, slpi_props_case *c,
                      char *why, size_t n)
{
    slpi_error err;
    slpi_props_generate(c, pi, s, k, v, gseed);
    const char *reason = NULL;
    if (slpi_registry_pair(s, k, &reason) == SLPI_NA) {
        snprintf(why, n, "N/A: %s", reason ? reason : "not applicable (docs/systems.md#applicability)");
        return 1;
    }
    if (slpi_props_problem_check(c, &err) != SLPI_OK) {
        snprintf(why, n, "N/A: %s", err.msg);
        return 1;
    }
    if (P->expect(c) == SLPI_PROPS_NA) {
        reason = slpi_props_why_not(P, c, 0);
        snprintf(why, n, "%s", reason ? reason : "N/A: not claimed (docs/schemes.md#summary)");
        return 1;
    }
    return 0;
}

int slpi_props_table(FILE *out)
{
    long checked = 0, na = 0, limit = 0, unknown = 0;
    fprintf(out, "| property | system | scheme | fast | ref |\n|---|---|---|---|---|\n");
    for (int pi = 0; pi < slpi_props_property_count(); pi++)
        for (int s = 0; s < SLPI_SYS_COUNT; s++)
            for (int k = 0; k < SLPI_SCHEME_COUNT; k++)
                for (int v = 0; v < variants(s, k); v++) {
                    const slpi_props_property *P = slpi_props_property_get(pi);
                    slpi_props_case c;
                    char why[600];
                    const char *cell[2];
                    if (group_case(P, pi, s, k, v, group_seed(1, pi, s, k, v), &c, why, sizeof why)) {
                        cell[0] = cell[1] = why;
                    } else {
                        cell[0] = P->needs_ref ? slpi_props_why_not(P, &c, 1) : slpi_props_why_not(P, &c, 0);
                        cell[1] = slpi_props_why_not(P, &c, 1);
                        for (int j = 0; j < 2; j++)
                            if (!cell[j]) cell[j] = "checked";
                    }
                    for (int j = 0; j < 2; j++) {
                        if (strcmp(cell[j], "checked") == 0)
                            checked++;
                        else if (strncmp(cell[j], "N/A: ", 5) == 0)
                            na++;
                        else if (strncmp(cell[j], "limitation: ", 12) == 0)
                            limit++;
                        else
                            unknown++;
                    }
                    fprintf(out, "| %s | %s | %s%s%s | %s | %s |\n", P->name, slpi_system_name(s), slpi_scheme_name(k),
                            *variant_name(k, v) ? " " : "", variant_name(k, v), cell[0], cell[1]);
                }
    fprintf(out, "\ncells: %ld checked, %ld N/A, %ld limitation, %ld unknown\n", checked, na, limit, unknown);
    return (int)unknown;
}

int slpi_props_run(const slpi_props_options *opt, slpi_props_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    FILE *out = opt->out ? opt->out : stdout;
    long units = 0; /* progress: one unit per (property, system) */
    for (int pi = 0; pi < slpi_props_property_count(); pi++)
        units += (opt->prop < 0 || opt->prop == pi) * (opt->system >= 0 ? 1 : SLPI_SYS_COUNT);
    slpi_progress *pg = slpi_progress_begin("props, properties x systems", units);
    for (int pi = 0; pi < slpi_props_property_count(); pi++) {
        if (opt->prop >= 0 && opt->prop != pi) continue;
        const slpi_props_property *P = opt->property ? opt->property : slpi_props_property_get(pi);
        long ncases = P->needs_ref ? (opt->use_ref ? opt->ref_cases : 0)
            : P->shrinkable        ? opt->cases
                                   : (opt->cases + 9) / 10;
        for (int s = 0; s < SLPI_SYS_COUNT; s++) {
            if (opt->system >= 0 && opt->system != s) continue;
            slpi_progress_add(pg, 1);
            if (ncases == 0) continue;
            for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
                if (opt->scheme >= 0 && opt->scheme != k) continue;
                for (int v = 0; v < variants(s, k); v++) {
                    slpi_props_case c;
                    slpi_props_outcome o;
                    uint64_t gseed = group_seed(opt->seed, pi, s, k, v);
                    char why[600];
                    if (group_case(P, pi, s, k, v, gseed, &c, why, sizeof why)) continue;
                    long pass = 0, unable = 0, fail = 0;
                    double worst = 0, least = INFINITY;
                    slpi_props_outcome last_unable;
                    slpi_props_case unable_case;
                    for (long i = 0; i < ncases && !fail; i++) {
                        if (slpi_interrupt_pending()) { /* Ctrl-C: what was printed stands */
                            slpi_progress_end(pg);
                            fprintf(out, "props: interrupted in %s on %s/%s after %ld groups (seed %" PRIu64 ")\n",
                                    P->name, slpi_system_name(s), slpi_scheme_name(k), sum->groups, opt->seed);
                            return SLPI_EINTR;
                        }
                        slpi_props_generate(&c, pi, s, k, v, mix(gseed, (uint64_t)i + 1));
                        if (opt->corners) slpi_props_corner(&c, (int)i);
                        c.depth = opt->depth;
                        int use_ref = opt->use_ref && i < opt->ref_cases;
                        int verdict = slpi_props_verdict_with(P, &c, use_ref, &o);
                        if (verdict > 0) {
                            pass++;
                            worst = fmax(worst, o.ratio);
                            least = fmin(least, o.ratio);
                        } else if (verdict < 0) {
                            unable++;
                            last_unable = o;
                            unable_case = c;
                        } else {
                            fail++;
                            slpi_props_outcome first = o;
                            int n = slpi_props_shrink_with(P, &c, use_ref, &o, opt->verbose ? out : NULL);
                            fprintf(out, "props: first failure: %s\n", first.msg);
                            if (n) fprintf(out, "props: shrunk by %d reductions\n", n);
                            slpi_props_report_failure(out, &c, &o, use_ref, opt->save_dir);
                        }
                    }
                    if (!fail && 2 * unable > ncases) {
                        /* a scheme that never converges must not pass by being UNABLE */
                        fail++;
                        char buf[512];
                        slpi_props_case_format(&unable_case, buf, sizeof buf);
                        fprintf(out,
                                "props: FAIL %s on %s/%s: mostly UNABLE (%ld of %ld cases), last: %s\n"
                                "  replay: SLPI_TEST_SEED=%" PRIu64 " slpi props --replay '%s'\n",
                                P->name, slpi_system_name(s), slpi_scheme_name(k), unable, ncases, last_unable.msg,
                                unable_case.seed, buf);
                    }
                    sum->groups++;
                    sum->pass += pass;
                    sum->unable += unable;
                    sum->fail += fail;
                    if (fail) sum->failed_groups++;
                    if (opt->verbose || fail)
                        fprintf(out,
                                "%s %-12s %-15s %-11s%-8s %3ld passed, %2ld unable, expect %-8s ratios [%.3g, %.3g]\n",
                                fail ? "FAIL" : "ok  ", P->name, slpi_system_name(s), slpi_scheme_name(k),
                                variant_name(k, v), pass, unable,
                                P->expect(&c) == SLPI_PROPS_HOLDS ? "holds" : "violated", pass ? least : 0, worst);
                    fflush(out);
                }
            }
        }
    }
    slpi_progress_end(pg);
    fprintf(out, "props: %ld groups, %ld cases passed, %ld failed, %ld unable (seed %" PRIu64 ")\n", sum->groups,
            sum->pass, sum->fail, sum->unable, opt->seed);
    if (sum->groups == 0) {
        fprintf(out,
                "props: the selection holds no group (no property applies to the systems and schemes chosen%s; "
                "`slpi props --list`): nothing was checked\n",
                opt->use_ref ? "" : ", or it needs the ref path");
        return SLPI_EINPUT;
    }
    return sum->fail ? SLPI_ECHECK : SLPI_OK;
}
