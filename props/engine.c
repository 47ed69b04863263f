/* props/engine.c — the property engine (props/; theft/Hypothesis style):
 * for each (property, system, scheme, variant) it draws seeded cases biased to corner
 * cases (smallest and largest dimension, one step, tiny and large h, tiny states, zero
 * noise, repeated and near-degenerate inertia), checks each against the scheme's row of
 * docs/schemes.md#summary (slpi_props_property.expect: holds, or a negative control that must be
 * violated), shrinks the first failing case (steps, dimension, number of noises, noise
 * amplitude, magnitude, inertia) to a minimal counterexample, and prints it as a
 * replay command; it can save it under tests/regressions/, which `make check` replays.
 * Verdicts are tri-state: UNABLE (solver failure, no enclosure) is never a PASS. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "props/props.h"

static const slpi_props_property *const table[] = {
    &slpi_props_prop_casimir, &slpi_props_prop_energy, &slpi_props_prop_reversible, &slpi_props_prop_equivariance,
    &slpi_props_prop_poisson, &slpi_props_prop_ref_fast, &slpi_props_prop_order_det, &slpi_props_prop_order_strong,
    &slpi_props_prop_order_control, &slpi_props_prop_order_weak, &slpi_props_prop_agree,
};
#define NPROPS ((int)(sizeof table / sizeof table[0]))

int slpi_props_property_count(void) { return NPROPS; }
const slpi_props_property *slpi_props_property_get(int i) { return i >= 0 && i < NPROPS ? table[i] : NULL; }

int slpi_props_property_find(const char *name)
{
    for (int i = 0; i < NPROPS; i++)
        if (strcmp(table[i]->name, name) == 0) return i;
    return -1;
}

/* ----------------------------------------------------------------- helpers */

double slpi_props_maxabs(const double *x, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

double slpi_props_maxdiff(const double *a, const double *b, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

int slpi_props_balls_contain(arb_srcptr x, const double *v, int n, double *excess)
{
    int all = 1;
    *excess = 0;
    arb_t t;
    arb_init(t);
    for (int i = 0; i < n; i++) {
        arb_set_d(t, v[i]);
        if (arb_contains(x + i, t)) continue;
        all = 0;
        double mid = arf_get_d(arb_midref(x + i), ARF_RND_NEAR), rad = mag_get_d(arb_radref(x + i));
        *excess = fmax(*excess, fabs(v[i] - mid) - rad);
    }
    arb_clear(t);
    return all;
}

void slpi_props_outcome_unable(slpi_props_outcome *o, const char *why)
{
    o->holds = -1;
    snprintf(o->msg, sizeof o->msg, "%s", why);
}

void slpi_props_control_case(slpi_props_case *c)
{
    if (c->h < 0.25) c->h = 0.25;
    c->mag = fmin(fmax(c->mag, 0.5), 2.0);
    c->inertia = 3;
    c->state = 0;        /* near an equilibrium even TRAP-DIRECT keeps Casimirs to rounding */
    if (c->amp < 0.5) c->amp = 0.5;
    if (c->steps < 2) c->steps = 2;
    if ((c->system == SLPI_SYS_POINT_VORTICES || c->system == SLPI_SYS_EULER_ZEITLIN) && c->dim < 3) c->dim = 3;
    c->noises = slpi_props_noise_count(c);
}

int slpi_props_too_fast(const slpi_props_case *c, const double *x0, const double *x, int d, slpi_props_outcome *o)
{
    if (!(slpi_props_maxdiff(x, x0, d) > 0.5 * c->steps * slpi_props_maxabs(x0, d))) return 0;
    slpi_props_outcome_unable(o, "the state moves by more than half its size per step: the implicit solve need not be unique");
    return 1;
}

static uint64_t mix(uint64_t a, uint64_t b)
{
    slpi_props_rng r = { a ^ (b * 0xd1b54a32d192ed03ULL) };
    return slpi_props_rng_u64(&r);
}

/* --------------------------------------------------------------- generation */

/* Rules every generated or shrunk case obeys. Vortex rates grow like 1/|x|^2 (H_0 is
 * scale-free), so small vortex states are just huge steps: keep |x| >= 1/2. */
static void fit(slpi_props_case *c)
{
    if (c->system == SLPI_SYS_POINT_VORTICES && c->mag < 0.5) c->mag = 0.5;
}

void slpi_props_generate(slpi_props_case *c, int prop, slpi_system_id s, slpi_scheme_id k, int variant,
                    uint64_t seed)
{
    static const double hs[] = { 0x1p-20, 0x1p-10, 0x1p-6, 0.05, 0.125, 0.25 };
    static const double mags[] = { 1e-3, 0.25, 1, 1, 2 };
    static const double amps[] = { 0, 0.1, 0.5, 1 };
    static const long steps[] = { 1, 2, 3, 5, 8 };
    slpi_props_rng r = { seed };
    memset(c, 0, sizeof *c);
    c->prop = prop;
    c->system = s;
    c->scheme = k;
    c->variant = variant;
    c->seed = seed;
    int lo = slpi_props_dim_min(s), hi = slpi_props_dim_max(s), u = (int)slpi_props_rng_int(&r, 4);
    c->dim = u == 0 ? hi : u == 1 ? lo + (int)slpi_props_rng_int(&r, hi - lo + 1) : lo;
    if (s == SLPI_SYS_SINE_EULER) c->dim = 3;
    c->steps = steps[slpi_props_rng_int(&r, 5)];
    c->h = hs[slpi_props_rng_int(&r, 6)];
    c->mag = mags[slpi_props_rng_int(&r, 5)];
    c->amp = amps[slpi_props_rng_int(&r, 4)];
    c->inertia = (int)slpi_props_rng_int(&r, 4) % 3;
    c->noises = 64;
    int M = slpi_props_noise_count(c);
    int v = (int)slpi_props_rng_int(&r, 5);
    c->noises = v == 0 ? 0 : v == 1 ? (M > 0) : M;
    fit(c);
    table[prop]->adjust(c, &r);
}

int slpi_props_corner(slpi_props_case *c, int i)
{
    int lo = slpi_props_dim_min(c->system), hi = slpi_props_dim_max(c->system);
    int step2 = c->system == SLPI_SYS_SINE_EULER ? 2 : 1;   /* sine-Euler: odd N only */
    switch (i) {
    case 0: c->dim = hi; break;
    case 1: c->dim = lo; break;
    case 2: c->dim = hi - step2 >= lo ? hi - step2 : hi; break;   /* the other parity */
    case 3: c->inertia = 4; c->h = 0x1p-10; if (c->steps < 3) c->steps = 3; break;
    case 4: c->state = 1; break;
    case 5: c->state = 2; break;
    case 6: c->amp = 4; c->noises = 64; break;
    default: return 0;
    }
    fit(c);
    if (c->noises > slpi_props_noise_count(c)) c->noises = slpi_props_noise_count(c);
    table[c->prop]->adjust(c, NULL);
    return 1;
}

int slpi_props_verdict(const slpi_props_case *c, int use_ref, slpi_props_outcome *o)
{
    return slpi_props_verdict_with(table[c->prop], c, use_ref, o);
}

static const char *why_not(const slpi_props_property *P, const slpi_props_case *c, int ref)
{
    return P->why_not ? P->why_not(c, ref) : NULL;
}

int slpi_props_verdict_with(const slpi_props_property *P, const slpi_props_case *c, int use_ref, slpi_props_outcome *o)
{
    memset(o, 0, sizeof *o);
    slpi_props_expect e = P->expect(c);
    if (e == SLPI_PROPS_NA) { slpi_props_outcome_unable(o, "not claimed for this scheme/system (docs/schemes.md#summary)"); return -1; }
    P->check(c, use_ref && !why_not(P, c, 1), o);
    if (o->holds < 0) return -1;
    return o->holds == (e == SLPI_PROPS_HOLDS);
}

/* ---------------------------------------------------------------- shrinking */

/* Size of a case, lexicographic in steps, dimension, noises, amplitude, magnitude
 * (distance from 1) and inertia: a shrink step must decrease it, so shrinking ends. */
static double cost(const slpi_props_case *c)
{
    return c->steps * 1e9 + c->dim * 1e7 + c->noises * 1e5 + (c->amp != 0) * 1e3 + fmin(c->amp, 99.0) +
           fmin(fabs(log2(c->mag)), 99.0) * 1e-3 + c->inertia * 1e-6 + c->state * 1e-5;
}

/* Candidate i (in order of preference) derived from c; 0 when there are no more. */
static int candidate(const slpi_props_property *P, const slpi_props_case *c, int i, slpi_props_case *out)
{
    *out = *c;
    int lo = slpi_props_dim_min(c->system), step2 = c->system == SLPI_SYS_SINE_EULER ? 2 : 1;
    switch (i) {
    case 0: out->steps = 1; break;
    case 1: out->steps = c->steps / 2; break;
    case 2: out->steps = c->steps - 1; break;
    case 3: out->dim = lo; break;
    case 4: out->dim = c->dim - step2; break;
    case 5: out->noises = 0; break;
    case 6: out->noises = c->noises - 1; break;
    case 7: out->amp = 0; break;
    case 8: out->amp = c->amp / 2; break;
    case 9: out->mag = 1; break;
    case 10: out->mag = c->mag / 2; break;
    case 11: out->inertia = 0; break;
    case 12: out->state = 0; break;
    default: return 0;
    }
    if (out->steps < 1 || out->dim < lo || out->noises < 0 || out->mag < 0x1p-10) *out = *c;
    fit(out);
    P->adjust(out, NULL);
    if (out->noises > slpi_props_noise_count(out)) out->noises = slpi_props_noise_count(out);
    return 1;
}

int slpi_props_shrink(slpi_props_case *c, int use_ref, slpi_props_outcome *o, FILE *log)
{
    return slpi_props_shrink_with(table[c->prop], c, use_ref, o, log);
}

int slpi_props_shrink_with(const slpi_props_property *P, slpi_props_case *c, int use_ref, slpi_props_outcome *o, FILE *log)
{
    if (!P->shrinkable) return 0;
    int accepted = 0, evals = 0;
    for (int i = 0; evals < 300;) {
        slpi_props_case t;
        if (!candidate(P, c, i, &t)) break;
        i++;
        if (!(cost(&t) < cost(c))) continue;
        slpi_props_outcome to;
        evals++;
        if (slpi_props_verdict_with(P, &t, use_ref, &to) != 0) continue;
        *c = t;
        *o = to;
        accepted++;
        if (log) {
            char buf[512];
            slpi_props_case_format(c, buf, sizeof buf);
            fprintf(log, "  shrunk: %s\n", buf);
        }
        i = 0;
    }
    return accepted;
}

/* ------------------------------------------------------------ replay strings */

void slpi_props_case_format(const slpi_props_case *c, char *buf, size_t n)
{
    snprintf(buf, n, "property=%s,system=%s,scheme=%s,variant=%d,dim=%d,steps=%ld,h=%a,mag=%.17g,amp=%.17g,noises=%d,inertia=%d",
             table[c->prop]->name, slpi_system_name(c->system), slpi_scheme_name(c->scheme), c->variant,
             c->dim, c->steps, c->h, c->mag, c->amp, c->noises, c->inertia);
    size_t len = strlen(buf);
    if (c->state && len < n) snprintf(buf + len, n - len, ",state=%d", c->state);
}

static int num(const char *key, const char *v, double *out, slpi_error *err)
{
    char *end;
    errno = 0;
    *out = strtod(v, &end);
    if (*v == '\0' || *end != '\0' || errno || !isfinite(*out))
        return slpi_error_set(err, SLPI_EINPUT, "replay: %s=%s is not a number", key, v);
    return SLPI_OK;
}

int slpi_props_case_parse(const char *s, slpi_props_case *c, slpi_error *err)
{
    char buf[1024];
    if (strlen(s) >= sizeof buf) return slpi_error_set(err, SLPI_EINPUT, "replay: string too long");
    strcpy(buf, s);
    uint64_t seed = c->seed;
    memset(c, 0, sizeof *c);
    c->seed = seed;
    c->prop = -1;
    c->system = SLPI_SYS_COUNT;
    c->scheme = SLPI_SCHEME_COUNT;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) return slpi_error_set(err, SLPI_EINPUT, "replay: expected key=value, got '%s'", tok);
        *eq = '\0';
        const char *k = tok, *v = eq + 1;
        double d = 0;
        if (strcmp(k, "property") == 0) {
            if ((c->prop = slpi_props_property_find(v)) < 0)
                return slpi_error_set(err, SLPI_EINPUT, "replay: unknown property '%s'", v);
        } else if (strcmp(k, "system") == 0) {
            if (slpi_system_from_name(v, &c->system)) return slpi_error_set(err, SLPI_EINPUT, "replay: unknown system '%s'", v);
        } else if (strcmp(k, "scheme") == 0) {
            if (slpi_scheme_from_name(v, &c->scheme)) return slpi_error_set(err, SLPI_EINPUT, "replay: unknown scheme '%s'", v);
        } else {
            static const char *const known[] = { "variant", "dim", "steps", "h", "mag", "amp", "noises", "inertia", "state", NULL };
            int i = 0;
            while (known[i] && strcmp(known[i], k) != 0) i++;
            if (!known[i]) return slpi_error_set(err, SLPI_EINPUT, "replay: unknown key '%s'", k);
            if (num(k, v, &d, err)) return SLPI_EINPUT;
            if (strcmp(k, "variant") == 0) c->variant = (int)d;
            else if (strcmp(k, "dim") == 0) c->dim = (int)d;
            else if (strcmp(k, "steps") == 0) c->steps = (long)d;
            else if (strcmp(k, "h") == 0) c->h = d;
            else if (strcmp(k, "mag") == 0) c->mag = d;
            else if (strcmp(k, "amp") == 0) c->amp = d;
            else if (strcmp(k, "noises") == 0) c->noises = (int)d;
            else if (strcmp(k, "inertia") == 0) c->inertia = (int)d;
            else c->state = (int)d;
        }
    }
    if (c->prop < 0 || c->system == SLPI_SYS_COUNT || c->scheme == SLPI_SCHEME_COUNT)
        return slpi_error_set(err, SLPI_EINPUT, "replay: property, system and scheme are required");
    slpi_problem p;
    return slpi_props_problem(c, &p, err);
}

void slpi_props_report_failure(FILE *f, const slpi_props_case *c, const slpi_props_outcome *o, int use_ref,
                          const char *dir)
{
    char buf[512];
    slpi_props_case_format(c, buf, sizeof buf);
    fprintf(f, "props: FAIL %s on %s/%s: %s\n", table[c->prop]->name, slpi_system_name(c->system),
            slpi_scheme_name(c->scheme), o->msg);
    fprintf(f, "  counterexample: %s\n", buf);
    fprintf(f, "  replay: SLPI_TEST_SEED=%" PRIu64 " slpi props --replay '%s'%s\n", c->seed, buf,
            use_ref ? "" : " --fast-only");
    if (!dir) return;
    char path[SLPI_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s-%s-%s-%" PRIu64 ".case", dir, table[c->prop]->name,
             slpi_system_name(c->system), slpi_scheme_name(c->scheme), c->seed);
    slpi_output *out = NULL;
    slpi_error err = { 0, "" };
    if (slpi_output_open(&out, path, SLPI_OUTPUT_REPLACE, &err) == SLPI_OK) {
        FILE *g = slpi_output_file(out);
        fprintf(g, "# slpi props counterexample (replayed by make check; it must pass once fixed)\n");
        fprintf(g, "# found: %s\nseed=%" PRIu64 "\ncase=%s\n", o->msg, c->seed, buf);
        if (slpi_output_commit(out, &err) == SLPI_OK) {
            fprintf(f, "  saved: %s\n", path);
            return;
        }
    }
    fprintf(f, "  could not save it: %s\n", err.msg);
}

int slpi_props_regression_load(const char *path, slpi_props_case *c, slpi_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) return slpi_error_set(err, SLPI_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    char line[1200], spec[1200] = "";
    int lineno = 0, have_seed = 0, rc = SLPI_OK;
    while (rc == SLPI_OK && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0') continue;
        if (strncmp(line, "seed=", 5) == 0) {
            char *end;
            errno = 0;
            c->seed = strtoull(line + 5, &end, 0);
            have_seed = *end == '\0' && !errno && line[5];
            if (!have_seed) rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: bad seed", path, lineno);
        } else if (strncmp(line, "case=", 5) == 0) {
            snprintf(spec, sizeof spec, "%s", line + 5);
        } else {
            rc = slpi_error_set(err, SLPI_EINPUT, "%s:%d: expected seed= or case=", path, lineno);
        }
    }
    fclose(f);
    if (rc) return rc;
    if (!have_seed || !spec[0]) return slpi_error_set(err, SLPI_EINPUT, "%s: needs seed= and case= lines", path);
    rc = slpi_props_case_parse(spec, c, err);
    if (rc) {
        char msg[sizeof err->msg];
        memcpy(msg, err->msg, sizeof msg);
        snprintf(err->msg, sizeof err->msg, "%.200s: %.300s", path, msg);
    }
    return rc;
}

/* ---------------------------------------------------------------- the loop */

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
    slpi_problem p;
    slpi_error err;
    slpi_props_generate(c, pi, s, k, v, gseed);
    const char *reason = NULL;
    if (slpi_registry_pair(s, k, &reason) == SLPI_NA) {
        snprintf(why, n, "N/A: %s", reason ? reason : "not applicable (docs/systems.md#applicability)");
        return 1;
    }
    if (slpi_props_problem(c, &p, &err) != SLPI_OK) {
        snprintf(why, n, "N/A: %s", err.msg);
        return 1;
    }
    if (P->expect(c) == SLPI_PROPS_NA) {
        reason = why_not(P, c, 0);
        snprintf(why, n, "%s", reason ? reason : "N/A: not claimed (docs/schemes.md#summary)");
        return 1;
    }
    return 0;
}

int slpi_props_table(FILE *out)
{
    long checked = 0, na = 0, limit = 0, unknown = 0;
    fprintf(out, "| property | system | scheme | fast | ref |\n|---|---|---|---|---|\n");
    for (int pi = 0; pi < NPROPS; pi++)
        for (int s = 0; s < SLPI_SYS_COUNT; s++)
            for (int k = 0; k < SLPI_SCHEME_COUNT; k++)
                for (int v = 0; v < variants(s, k); v++) {
                    const slpi_props_property *P = table[pi];
                    slpi_props_case c;
                    char why[600];
                    const char *cell[2];
                    if (group_case(P, pi, s, k, v, group_seed(1, pi, s, k, v), &c, why, sizeof why)) {
                        cell[0] = cell[1] = why;
                    }
                    else {
                        cell[0] = P->needs_ref ? why_not(P, &c, 1) : why_not(P, &c, 0);
                        cell[1] = why_not(P, &c, 1);
                        for (int j = 0; j < 2; j++) if (!cell[j]) cell[j] = "checked";
                    }
                    for (int j = 0; j < 2; j++) {
                        if (strcmp(cell[j], "checked") == 0) checked++;
                        else if (strncmp(cell[j], "N/A: ", 5) == 0) na++;
                        else if (strncmp(cell[j], "limitation: ", 12) == 0) limit++;
                        else unknown++;
                    }
                    fprintf(out, "| %s | %s | %s%s%s | %s | %s |\n", P->name, slpi_system_name(s),
                            slpi_scheme_name(k), *variant_name(k, v) ? " " : "", variant_name(k, v), cell[0], cell[1]);
                }
    fprintf(out, "\ncells: %ld checked, %ld N/A, %ld limitation, %ld unknown\n", checked, na, limit, unknown);
    return (int)unknown;
}

int slpi_props_run(const slpi_props_options *opt, slpi_props_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    FILE *out = opt->out ? opt->out : stdout;
    long units = 0;   /* progress: one unit per (property, system) */
    for (int pi = 0; pi < NPROPS; pi++)
        units += (opt->prop < 0 || opt->prop == pi) * (opt->system >= 0 ? 1 : SLPI_SYS_COUNT);
    slpi_progress *pg = slpi_progress_begin("props, properties x systems", units);
    for (int pi = 0; pi < NPROPS; pi++) {
        if (opt->prop >= 0 && opt->prop != pi) continue;
        const slpi_props_property *P = opt->property ? opt->property : table[pi];
        long ncases = P->needs_ref ? (opt->use_ref ? opt->ref_cases : 0)
                    : P->shrinkable ? opt->cases : (opt->cases + 9) / 10;
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
                        slpi_props_generate(&c, pi, s, k, v, mix(gseed, (uint64_t)i + 1));
                        if (opt->corners) slpi_props_corner(&c, (int)i);
                        c.depth = opt->depth;
                        int use_ref = opt->use_ref && i < opt->ref_cases;
                        int verdict = slpi_props_verdict_with(P, &c, use_ref, &o);
                        if (verdict > 0) {
                            pass++;
                            worst = fmax(worst, o.ratio);
                            least = fmin(least, o.ratio);
                        }
                        else if (verdict < 0) {
                            unable++;
                            last_unable = o;
                            unable_case = c;
                        }
                        else {
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
                        fprintf(out, "props: FAIL %s on %s/%s: mostly UNABLE (%ld of %ld cases), last: %s\n"
                                "  replay: SLPI_TEST_SEED=%" PRIu64 " slpi props --replay '%s'\n", P->name,
                                slpi_system_name(s), slpi_scheme_name(k), unable, ncases, last_unable.msg,
                                unable_case.seed, buf);
                    }
                    sum->groups++;
                    sum->pass += pass;
                    sum->unable += unable;
                    sum->fail += fail;
                    if (fail) sum->failed_groups++;
                    if (opt->verbose || fail)
                        fprintf(out, "%s %-12s %-15s %-11s%-8s %3ld passed, %2ld unable, expect %-8s ratios [%.3g, %.3g]\n",
                                fail ? "FAIL" : "ok  ", P->name, slpi_system_name(s), slpi_scheme_name(k),
                                variant_name(k, v), pass, unable,
                                P->expect(&c) == SLPI_PROPS_HOLDS ? "holds" : "violated", pass ? least : 0, worst);
                    fflush(out);
                }
            }
        }
    }
    slpi_progress_end(pg);
    fprintf(out, "props: %ld groups, %ld cases passed, %ld failed, %ld unable (seed %" PRIu64 ")\n",
            sum->groups, sum->pass, sum->fail, sum->unable, opt->seed);
    return sum->fail ? SLPI_ECHECK : SLPI_OK;
}
