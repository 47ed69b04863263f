/* verify-report.c — what `slpi verify` says (oracle/verify.c's header): a file's summary
 * and proof line, the statistics and verdict lines, the JSON, and the check that pooled
 * files hold one problem. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem.h"
#include "slpi/tools.h"
#include "core/problem-store.h"
#include "core/view-cert.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/view-scheme.h"
#include "core/view-system.h"
#include "oracle/oracle.h"

int slpi_verify_rows_range(const slpi_verify_opts *o, char *buf, size_t n)
{
    char a[24] = "", b[24] = "";
    if (o->row_first >= 0) snprintf(a, sizeof a, "%ld", o->row_first);
    if (o->row_last >= 0) snprintf(b, sizeof b, "%ld", o->row_last);
    snprintf(buf, n, "%s..%s", a, b);
    return o->row_first >= 0 || o->row_last >= 0;
}

/* The rows the file omits from its header's grid (oracle/README.md#rows). */
static void write_missing(FILE *f, const slpi_verify_input *in, const slpi_verify_result *res)
{
    const slpi_problem *p = in->p;
    if (slpi_view_grid(p)->save_at[0])
        fprintf(f, "rows missing: %ld of the header's grid (step 0 and save_at=%.200s): steps", res->rows_missing,
                slpi_view_grid(p)->save_at);
    else
        fprintf(f,
                "rows missing: %ld of the header's grid (output_every=%d: step 0, the multiples of %d and the last): "
                "steps",
                res->rows_missing, slpi_view_grid(p)->output_every, slpi_view_grid(p)->output_every);
    long named = res->rows_missing < SLPI_VERIFY_MISSING_NAMED ? res->rows_missing : SLPI_VERIFY_MISSING_NAMED;
    for (long i = 0; i < named; i++) fprintf(f, "%s %ld", i ? "," : "", res->missing_step[i]);
    fprintf(f, "%s; not checked, so the verdict is at best UNABLE (oracle/README.md#rows)\n",
            res->rows_missing > named ? ", ..." : "");
}

void slpi_verify_write_summary(FILE *f, const slpi_verify_input *in, const slpi_verify_opts *o,
                               const slpi_verify_result *res)
{
    static const char *const matmul_name[] = { "auto", "arb", "blas" };
    _Static_assert(sizeof matmul_name / sizeof *matmul_name == SLPI_MATMUL_BLAS + 1, "a name per slpi_matmul_route");
    const slpi_problem *p = in->p;
    fprintf(f, "verify %s: %s on %s, %ld rows, steps %ld..%ld of h = %.17g; noise: %s%s\n", in->name,
            slpi_scheme_name(slpi_view_scheme(p)->scheme), slpi_system_name(slpi_view_system(p)->system), in->nrows,
            in->first_step, in->last_step, slpi_view_grid(p)->h,
            slpi_view_noise(p)->noise_file[0] ? "file " : "canonical", slpi_view_noise(p)->noise_file);
    fprintf(f,
            "budget: u = %.6g (%s), K = %g: PASS when |port - exact| <= K n u |x|, n = the step (global) or the "
            "steps since the previous row (local)\n",
            res->precision.u, res->precision.name, res->budget);
    if (res->note[0]) fprintf(f, "note: %s\n", res->note);
    if (res->rows_missing > 0) write_missing(f, in, res);
    if (o->global) {
        fprintf(f, "global: invariant drift |I(x_n) - I(x_0)| / (n u |I|), worst over certified rows:\n");
        for (int i = 0; i < res->ninv; i++)
            fprintf(f, "  %-24s port %10.3g   exact scheme %10.3g\n", res->inv_name[i], res->port_drift[i],
                    res->exact_drift[i]);
        fprintf(f, "global rows: %ld PASS, %ld FAIL, %ld UNABLE; ", res->rows_pass, res->rows_fail, res->rows_unable);
        if (res->last_certified_step >= 0)
            fprintf(f, "certified through step %ld", res->last_certified_step);
        else
            fprintf(f, "no row certified");
        if (res->first_fail_step >= 0) fprintf(f, "; first FAIL at step %ld", res->first_fail_step);
        char ulps[32] = "no";
        if (res->state.max_ulps >= 0) snprintf(ulps, sizeof ulps, "max %.0f", res->state.max_ulps);
        fprintf(f, "\nglobal certified rows: worst state ratio <= %.3g (%s ulps), worst invariant ratio <= %.3g\n",
                res->state.hi, ulps, res->inv.hi);
        if (res->global_why[0]) fprintf(f, "global stopped: %s\n", res->global_why);
    }
    if (o->local) {
        const slpi_verify_local *L = &res->local;
        fprintf(f, "local rows: %ld PASS, %ld FAIL, %ld UNABLE", L->rows_pass, L->rows_fail, L->rows_unable);
        if (o->sample > 0)
            fprintf(f, " (a sample of %ld rows, seed %llu)", o->sample, (unsigned long long)o->sample_seed);
        char range[64];
        if (slpi_verify_rows_range(o, range, sizeof range)) fprintf(f, " (steps %s)", range);
        if (L->first_fail_step >= 0) fprintf(f, "; first FAIL at step %ld", L->first_fail_step);
        char ulps[32] = "no";
        if (L->state.max_ulps >= 0) snprintf(ulps, sizeof ulps, "max %.0f", L->state.max_ulps);
        fprintf(f,
                "\nlocal certified rows: worst step ratio <= %.3g (%s ulps); products enclosed by Arb in %ld, "
                "by the BLAS route in %ld, by both in %ld (matmul=%s, docs/design.md#blas-route)\n",
                L->state.hi, ulps, L->rows_arb, L->rows_blas, L->rows_both, matmul_name[slpi_view_cert(p)->matmul]);
    }
    fprintf(f, "proof: %s (the worst-case budget K n u |x|%s)\n", slpi_verdict_name(res->verdict),
            res->rows_missing > 0 ? "; rows missing: UNABLE" : "");
}

/* The ingredients the rows (the window's, when one is named) do not separate from the
 * first (oracle/diagnose.c), their angles to it, the angles the rows resolve, and what
 * would separate them; those with both joint t's beyond the critical t apart: neither
 * alone explains the rows. */
static void write_alike(FILE *f, const slpi_verify_diagnosis *d)
{
    if (d->alike == 0) return;
    const double deg = acos(-1.0) / 180;
    int nboth = 0;
    fprintf(f, "; %s", d->name[d->order[0]]);
    for (int k = 1, m = 0; k < d->ranked; k++)
        if (!d->separated[d->order[k]]) fprintf(f, "%s%s", ++m == d->alike ? " or " : ", ", d->name[d->order[k]]);
    if (d->from >= 0)
        fprintf(f, ": indistinguishable on the rows of steps %ld..%ld, the first's window (angle", d->from, d->to);
    else
        fprintf(f, ": indistinguishable on these rows (angle");
    for (int k = 1, m = 0; k < d->ranked; k++)
        if (!d->separated[d->order[k]]) fprintf(f, "%s%.2g", m++ ? ", " : " ", d->angle[d->order[k]]);
    fprintf(f, " deg");
    for (int k = 1, m = 0; k < d->ranked; k++) {
        int j = d->order[k];
        if (d->separated[j] || d->both[j]) {
            nboth += d->both[j];
            continue;
        }
        double t = fabs(d->sep_t[j]), s = t > 0 ? sin(d->angle[j] * deg) * d->sep_crit[j] / t : 1;
        fprintf(f, "%s%.2g", m++ ? ", " : ", these rows resolve ", asin(fmin(1.0, s)) / deg);
    }
    if (nboth > 0) {
        fprintf(f, "; for");
        for (int k = 1, m = 0; k < d->ranked; k++)
            if (d->both[d->order[k]]) fprintf(f, "%s%s", m++ ? ", " : " ", d->name[d->order[k]]);
        fprintf(f, " both joint coefficients differ from 0: neither alone explains these rows");
    }
    if (isnan(d->more_rows))
        fprintf(f, ")");
    else if (isfinite(d->more_rows))
        fprintf(f,
                "); about %.2gx the rows, or rows from other states (paths from other x0, longer paths), "
                "separate them",
                d->more_rows);
    else
        fprintf(f, "); only rows from other states (paths from other x0, longer paths) separate them");
}

/* The diagnosis beside a statistical FAIL (oracle/diagnose.c): the first three ingredients
 * by the part of sum |r|^2 they explain, or that none explains it better than chance. */
static void write_diagnosis(FILE *f, const slpi_verify_diagnosis *d)
{
    if (!d->named) {
        fprintf(f,
                "diagnosis: no ingredient of the step explains the deviation better than chance (best %s, p = %.3g)\n",
                d->ranked ? d->name[d->order[0]] : "-", d->p);
        return;
    }
    fprintf(f, "diagnosis:");
    for (int k = 0; k < d->ranked && k < 3; k++) {
        int i = d->order[k];
        fprintf(f, "%s %s off by %.3g [%.3g, %.3g] relative, explaining %.3g of sum |r|^2", k ? ";" : "", d->name[i],
                d->rel[i], d->lo[i], d->hi[i], d->share[i]);
    }
    write_alike(f, d);
    if (d->from >= 0)
        fprintf(f, "; the first in steps %ld..%ld (off by %.3g there)", d->from, d->to, d->window_rel);
    else
        fprintf(f, "; the first over all steps");
    fprintf(f, " (p = %.3g)\n", d->p);
}

void slpi_verify_write_verdict(FILE *f, const slpi_verify_opts *o, const slpi_verify_result *res)
{
    const slpi_verify_stats *st = &res->stats;
    if (!o->local) {
        fprintf(f, "statistics: not run (it tests the local comparison's rows: --local or both)\n");
    } else {
        fprintf(f, "statistics: %s  statistic=%.4g p=%.3g alpha=%g effect_per_step_u=%.3g\n",
                slpi_verify_stat_verdict_name(st->verdict), st->statistic, st->p_value, st->alpha,
                st->effect_per_step_u);
        if (st->copies_groups > 0)
            fprintf(f,
                    "statistics: %ld observations of %ld rows: %ld groups of rows of one step are copies at the "
                    "format's resolution, each one observation (docs/power.md#copies-amendment)\n",
                    st->observations, st->rows, st->copies_groups);
        fprintf(f,
                "statistics: %ld rows of %d path%s, in units of u |x| per step: systematic T^2 = %.4g on %d "
                "directions, p = %.3g; size: RMS %.3g against the twin's %.3g (envelope x%g), t = %.3g, p = %.3g; "
                "largest mean effect %.3g along %s; detectable with 90 %% power: %.3g; steps of at most 2^10 ulps: "
                "%ld, so r is taken from the exact step%s\n",
                st->rows, st->paths, st->paths == 1 ? "" : "s", st->t2, st->dirs, st->p_systematic, st->rms_u,
                st->twin_rms_u, st->envelope, st->size_t, st->p_size, st->effect_per_step_u,
                st->effect_direction[0] ? st->effect_direction : "-", st->detectable_effect_u, st->rows_small,
                st->against_rounded ? " rounded to the format" : "");
        fprintf(f,
                "statistics: the systematic p-value is the directions' t tests of a mean beyond %.3g u per step "
                "(what the format's data allow), largest t %.3g; reference: the %s step\n",
                st->tolerance_u, st->tol_t, st->reference);
        if (st->declared_stop_u > 1)
            fprintf(f,
                    "statistics: the port's declared solver stop (tol, tol_scale) allows updates of up to %.3g u "
                    "|x| a step, looser than the format: a systematic effect below about the solve's contraction "
                    "times that can be the stop's residue, not the arithmetic (warm_start=0 or a smaller tol rules "
                    "it out; docs/power.md#stop-rule)\n",
                    st->declared_stop_u);
        if (o->sample > 0)
            fprintf(f,
                    "statistics: the sample's %ld rows detect 1 u |x| per step with power %.3g (alpha = %g; the "
                    "rows' own variances; 90 %% at %.3g u)\n",
                    st->rows, st->power_target, st->alpha, st->detectable_effect_u);
        if (st->verdict == SLPI_VERDICT_FAIL) write_diagnosis(f, &st->diag);
        if (st->verdict == SLPI_VERDICT_UNABLE)
            fprintf(f,
                    "statistics: LOW-POWER: %ld %s detect an effect of %.3g u |x| per step with 90 %% power, "
                    "more than 1 u: verify more steps or paths%s\n",
                    st->observations, st->copies_groups > 0 ? "observations" : "rows", st->detectable_effect_u,
                    o->require_power ? "" : " (--require-power makes this the verdict UNABLE)");
    }
    fprintf(f, "verdict:");
    if (o->global) fprintf(f, " global %s", slpi_verdict_name(res->global_verdict));
    if (o->local) fprintf(f, "%s local %s", o->global ? "," : "", slpi_verdict_name(res->local.verdict));
    if (res->rows_missing > 0) fprintf(f, ", %ld rows missing UNABLE", res->rows_missing);
    if (o->local && (st->verdict == SLPI_VERDICT_FAIL || (o->require_power && st->verdict == SLPI_VERDICT_UNABLE)))
        fprintf(f, ", statistics %s", slpi_verify_stat_verdict_name(st->verdict));
    fprintf(f, " => %s\n", slpi_verdict_name(res->verdict));
}

/* The problem of b equals a's but for the keys a path may change (path=, seed=,
 * noise_file=, x0_file=: oracle/README.md#many-paths, a `{path}` template in either
 * gives each path its own file): compared as slpi_problem_write's lines, the first that
 * differs named. */
int slpi_verify_same_problem(const slpi_verify_input *a, const slpi_verify_input *b, slpi_error *err)
{
    char *text[2] = { NULL, NULL };
    size_t len[2] = { 0, 0 };
    const slpi_verify_input *in[2] = { a, b };
    for (int i = 0; i < 2; i++) {
        slpi_problem *p = slpi_problem_dup(in[i]->p);
        if (!p) break;
        slpi_noise_view *noise = slpi_view_noise_edit(p);
        noise->path = 0;
        noise->seed = 0;
        noise->noise_file[0] = '\0';
        noise->noise_digest = 0;                     /* the noise file's, a part of the path as its name is */
        slpi_view_system_edit(p)->x0_file[0] = '\0'; /* a path's initial state (its digest tells paths apart) */
        FILE *f = open_memstream(&text[i], &len[i]);
        if (f) {
            slpi_problem_write(p, f, "");
            fclose(f);
        }
        slpi_problem_free(p);
        if (!f) break;
    }
    int rc = SLPI_OK;
    if (!text[0] || !text[1])
        rc = slpi_error_set(err, SLPI_EINPUT, "verify: out of memory");
    else if (strcmp(text[0], text[1]) != 0) {
        const char *x = text[0], *y = text[1];
        while (*x && *x == *y) { /* to the start of the first line that differs */
            x++;
            y++;
        }
        while (x > text[0] && x[-1] != '\n') x--, y--;
        rc = slpi_error_set(err, SLPI_EINPUT,
                            "%s: another problem than %s (pooled files must differ only in path=, seed=, "
                            "noise_file= or x0_file=): '%.*s' against '%.*s'",
                            b->path, a->path, (int)strcspn(y, "\n"), y, (int)strcspn(x, "\n"), x);
    }
    free(text[0]);
    free(text[1]);
    return rc;
}

/* A real, or null when it is not finite (JSON has no infinity). */
static json_t *real_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

/* The diagnosis: named, the rows it read, p, the window ([from, to] or null: all steps) and the ingredients
 * in order, each with its relative error, interval, t and share. */
static json_t *diagnosis_json(const slpi_verify_diagnosis *d)
{
    json_t *list = json_array();
    for (int k = 0; k < d->ranked; k++) {
        int i = d->order[k];
        json_array_append_new(
            list,
            json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:b}", "ingredient",
                      d->name[i], "relative_error", real_or_null(d->rel[i]), "lo", real_or_null(d->lo[i]), "hi",
                      real_or_null(d->hi[i]), "t", real_or_null(d->t[i]), "share", real_or_null(d->share[i]),
                      "angle_deg", real_or_null(d->angle[i]), "first_joint_t", real_or_null(d->sep_t[i]),
                      "first_joint_df", real_or_null(d->sep_df[i]), "critical_t", real_or_null(d->sep_crit[i]),
                      "joint_t", real_or_null(d->other_t[i]), "joint_df", real_or_null(d->other_df[i]), "separated",
                      d->separated[i], "both", d->both[i]));
    }
    json_t *alike = json_array();
    for (int k = 0; d->alike > 0 && k < d->ranked; k++)
        if (k == 0 || !d->separated[d->order[k]]) json_array_append_new(alike, json_string(d->name[d->order[k]]));
    json_t *w = d->from >= 0 ? json_pack("{s:I, s:I, s:o}", "from", (json_int_t)d->from, "to", (json_int_t)d->to,
                                         "relative_error", real_or_null(d->window_rel))
                             : json_null();
    return json_pack("{s:b, s:I, s:o, s:o, s:o, s:o, s:o}", "named", d->named, "rows", (json_int_t)d->rows, "p",
                     real_or_null(d->p), "window", w, "indistinguishable", alike, "more_rows",
                     d->alike > 0 ? real_or_null(d->more_rows) : json_null(), "ingredients", list);
}

static json_t *stats_json(const slpi_verify_stats *st)
{
    json_t *s = json_object();
    if (!s) return NULL;
    json_object_set_new(s, "verdict", json_string(st->dirs ? slpi_verify_stat_verdict_name(st->verdict) : "not run"));
    json_object_set_new(s, "statistic", real_or_null(st->statistic));
    json_object_set_new(s, "test", json_string(st->which));
    json_object_set_new(s, "p_value", real_or_null(st->p_value));
    json_object_set_new(s, "alpha", json_real(st->alpha));
    json_object_set_new(s, "effect_per_step_u", real_or_null(st->effect_per_step_u));
    json_object_set_new(s, "effect_direction", json_string(st->effect_direction));
    json_object_set_new(s, "detectable_effect_u", real_or_null(st->detectable_effect_u));
    json_object_set_new(s, "power_at_1u", real_or_null(st->dirs ? st->power_target : NAN));
    json_object_set_new(s, "steps", json_integer(st->rows));
    json_object_set_new(s, "observations", json_integer(st->observations));
    json_object_set_new(s, "copies_groups", json_integer(st->copies_groups));
    json_object_set_new(s, "steps_of_few_ulps", json_integer(st->rows_small));
    json_object_set_new(s, "against_rounded", json_boolean(st->against_rounded));
    json_object_set_new(s, "data_tolerance_u", real_or_null(st->tolerance_u));
    json_object_set_new(s, "declared_stop_u", real_or_null(st->declared_stop_u));
    json_object_set_new(s, "paths", json_integer(st->paths));
    json_object_set_new(s, "directions", json_integer(st->dirs));
    json_object_set_new(s, "t2", real_or_null(st->t2));
    json_object_set_new(s, "p_systematic", real_or_null(st->p_systematic));
    json_object_set_new(s, "size_t", real_or_null(st->size_t));
    json_object_set_new(s, "p_size", real_or_null(st->p_size));
    json_object_set_new(s, "rms_u", real_or_null(st->rms_u));
    json_object_set_new(s, "twin_rms_u", real_or_null(st->twin_rms_u));
    json_object_set_new(s, "envelope", json_real(st->envelope));
    json_object_set_new(s, "steps_arb_reference", json_integer(st->rows_arb_reference));
    json_object_set_new(s, "reference", json_string(st->reference));
    json_object_set_new(s, "cpu_seconds", json_real(st->cpu_seconds));
    json_object_set_new(s, "steps_per_cpu_second",
                        real_or_null(st->cpu_seconds > 0 ? (double)st->rows / st->cpu_seconds : NAN));
    json_object_set_new(s, "diagnosis", st->dirs ? diagnosis_json(&st->diag) : json_null());
    return s;
}

int slpi_verify_write_json(const char *input, const slpi_verify_result *res, const char *file, slpi_error *err)
{
    json_t *drift = json_array();
    for (int i = 0; i < res->ninv; i++)
        json_array_append_new(drift,
                              json_pack("{s:s, s:f, s:f}", "invariant", res->inv_name[i], "port", res->port_drift[i],
                                        "exact_scheme", res->exact_drift[i]));
    const slpi_verify_local *L = &res->local;
    json_t *local =
        json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f}", "verdict", slpi_verdict_name(L->verdict), "rows",
                  (json_int_t)L->rows, "rows_pass", (json_int_t)L->rows_pass, "rows_fail", (json_int_t)L->rows_fail,
                  "rows_unable", (json_int_t)L->rows_unable, "first_fail_step", (json_int_t)L->first_fail_step,
                  "step_ratio_lo", L->state.lo, "step_ratio_hi", L->state.hi, "max_ulps", L->state.max_ulps);
    json_object_set_new(local, "products",
                        json_pack("{s:I, s:I, s:I}", "arb", (json_int_t)L->rows_arb, "blas", (json_int_t)L->rows_blas,
                                  "both", (json_int_t)L->rows_both));
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)res->sample_seed);
    json_t *budget =
        json_pack("{s:s, s:f, s:i, s:f, s:s}", "precision", res->precision.name, "unit_roundoff", res->precision.u,
                  "bits", res->precision.bits, "K", res->budget, "rule", "PASS when |port - exact| <= K n u |x|");
    json_t *j = json_pack(
        "{s:s, s:s, s:s, s:f, s:o, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:o, s:o, s:s, s:s}",
        "slpi_version", SLPI_VERSION, "input", input, "verdict", slpi_verdict_name(res->verdict), "threshold",
        res->budget, "budget", budget, "global_verdict", slpi_verdict_name(res->global_verdict), "rows",
        (json_int_t)res->rows, "rows_pass", (json_int_t)res->rows_pass, "rows_fail", (json_int_t)res->rows_fail,
        "rows_unable", (json_int_t)res->rows_unable, "last_certified_step", (json_int_t)res->last_certified_step,
        "first_fail_step", (json_int_t)res->first_fail_step, "state_ratio_lo", res->state.lo, "state_ratio_hi",
        res->state.hi, "max_ulps", res->state.max_ulps, "invariant_ratio_lo", res->inv.lo, "invariant_ratio_hi",
        res->inv.hi, "drift", drift, "local", local, "sample_seed", seed, "note", res->note);
    json_t *proof = j ? json_deep_copy(j) : NULL;
    if (proof) json_object_set_new(proof, "verdict", json_string(slpi_verdict_name(res->proof)));
    if (j) {
        json_object_set_new(j, "proof", proof);
        json_object_set_new(j, "statistics", stats_json(&res->stats));
        json_object_set_new(j, "files", json_integer(res->files));
        double cpu = res->stats.cpu_seconds; /* the whole verification's: proof and statistics */
        json_object_set_new(j, "proof_rows_per_cpu_second",
                            real_or_null(cpu > 0 ? (double)(res->rows + res->local.rows) / cpu : NAN));
        json_t *missing = json_array();
        for (long i = 0; i < res->rows_missing && i < SLPI_VERIFY_MISSING_NAMED; i++)
            json_array_append_new(missing, json_integer(res->missing_step[i]));
        json_object_set_new(j, "rows_missing", json_integer(res->rows_missing));
        json_object_set_new(j, "missing_steps", missing);
    }
    int bad = j == NULL || proof == NULL || json_dump_file(j, file, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) != 0;
    json_decref(j);
    if (bad) return slpi_error_set(err, SLPI_EINPUT, "%s: cannot write the JSON summary", file);
    return SLPI_OK;
}
