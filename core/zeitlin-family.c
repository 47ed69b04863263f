/* zeitlin-family.c — the mode lists, the multiplier and the checks of the Zeitlin family
 * (core/zeitlin-family.h, docs/systems.md#zeitlin-family; its noise fields file:
 * core/zeitlin-fields.c): parsing with messages that name the key, the entry and the
 * reason, shared by both paths and by validation (the multiplier's model problem per l:
 * core/zeitlin-multiplier.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "core/problem-struct.h"
#include "core/expr.h"
#include "core/zeitlin-family.h"
#include "core/parse.h"

int slpi_zeitlin_mode_alpha(int l, int m)
{
    int j = m == 0 ? 0 : m > 0 ? 2 * m - 1 : -2 * m;
    return l * l - 1 + j;
}

int slpi_zeitlin_modes_count(const char *text)
{
    if (!text[0]) return 0;
    int n = 1;
    for (const char *c = text; *c; c++) n += *c == ',';
    return n;
}

/* One entry "l:m:amp" (the text between commas) into *md. */
static int parse_entry(slpi_zeitlin_mode *md, const char *key, int e, const char *tok, int N, slpi_error *err)
{
    char t[128];
    slpi_error ignored;
    long l, m;
    snprintf(t, sizeof t, "%s", tok);
    char *c1 = strchr(t, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (strlen(tok) >= sizeof t || !c2 || strchr(c2 + 1, ':'))
        return slpi_error_set(err, SLPI_EINPUT, "%s: entry %d '%.60s': expected l:m:amp", key, e, tok);
    *c1 = *c2 = '\0';
    if (slpi_parse_long("l", t, 1, N - 1, &l, &ignored) != SLPI_OK)
        return slpi_error_set(err, SLPI_EINPUT, "%s: entry %d '%.60s': l = %s must be an integer in 1..N-1 = %d", key,
                              e, tok, t, N - 1);
    if (slpi_parse_long("m", c1 + 1, -l, l, &m, &ignored) != SLPI_OK)
        return slpi_error_set(err, SLPI_EINPUT, "%s: entry %d '%.60s': m = %s must be an integer with |m| <= l = %ld",
                              key, e, tok, c1 + 1, l);
    if (slpi_parse_double("amp", c2 + 1, -1e12, 1e12, &md->amp, &ignored) != SLPI_OK)
        return slpi_error_set(err, SLPI_EINPUT, "%s: entry %d '%.60s': amp = %s must be a finite number, |amp| <= 1e12",
                              key, e, tok, c2 + 1);
    md->l = (int)l;
    md->m = (int)m;
    md->alpha = slpi_zeitlin_mode_alpha(md->l, md->m);
    return SLPI_OK;
}

int slpi_zeitlin_modes_parse(slpi_zeitlin_mode *out, const char *key, const char *text, int N, slpi_error *err)
{
    size_t len = strlen(text);
    if (len >= SLPI_EZ_MODES_TEXT) {
        slpi_error_set(err, SLPI_EINPUT, "%s: at most %d characters", key, SLPI_EZ_MODES_TEXT - 1);
        return -1;
    }
    char buf[SLPI_EZ_MODES_TEXT];
    memcpy(buf, text, len + 1);
    /* the modes so far, by alpha: each mode once (two noise entries of one mode would be
     * two independent Brownian motions on one Hamiltonian, two background entries one sum:
     * either is one entry; an entry takes at least 6 characters with its comma) */
    int seen[SLPI_EZ_MODES_TEXT / 6 + 1];
    int n = 0;
    char *start = buf;
    for (;;) {
        char *comma = strchr(start, ',');
        if (comma) *comma = '\0';
        slpi_zeitlin_mode md;
        if (parse_entry(&md, key, n + 1, start, N, err) != SLPI_OK) return -1;
        for (int j = 0; j < n; j++)
            if (seen[j] == md.alpha) {
                slpi_error_set(err, SLPI_EINPUT,
                               "%s: entry %d '%.60s' repeats the mode (l, m) = (%d, %d) of entry %d: "
                               "give each mode once",
                               key, n + 1, start, md.l, md.m, j + 1);
                return -1;
            }
        seen[n] = md.alpha;
        if (out) out[n] = md;
        n++;
        if (!comma) break;
        start = comma + 1;
    }
    return n;
}

int slpi_zeitlin_multiplier_parse(const char *text, int *uses_l, slpi_error *err)
{
    slpi_algebra so3 = { SLPI_ALGEBRA_SO3, 3, 3 };
    slpi_expr e;
    slpi_expr_param l = { "l", "1", 1.0, uses_l };
    *uses_l = 0;
    int rc = slpi_expr_parse(&e, "multiplier", text, &so3, 1, &l, err);
    static const char model_names[] = "(so3 has x1..x3, or a param.NAME)", own[] = "(the name is l)";
    char *at = rc != SLPI_OK && err ? strstr(err->msg, model_names) : NULL;
    if (at) { /* the parser names a model's names: the multiplier's one name is l */
        memmove(at + sizeof own - 1, at + sizeof model_names - 1, strlen(at + sizeof model_names - 1) + 1);
        memcpy(at, own, sizeof own - 1);
    }
    for (int i = 0; rc == SLPI_OK && i < e.n; i++)
        if (e.node[i].op == SLPI_EXPR_COORD || e.node[i].op == SLPI_EXPR_TIME)
            rc = slpi_error_set(err, SLPI_EINPUT,
                                "multiplier: col %d: %s: the multiplier is a function of l alone "
                                "(L is one operator for the whole run; docs/systems.md#zeitlin-family)",
                                e.node[i].col, e.node[i].op == SLPI_EXPR_TIME ? "the time t" : "a coordinate");
    slpi_expr_free(&e);
    return rc;
}

int slpi_zeitlin_multiplier_refusal(slpi_error *err, const slpi_problem *p, int l, const char *why)
{
    char w[sizeof err->msg];
    if (why) snprintf(w, sizeof w, "%s", strncmp(why, "H: ", 3) ? why : why + 3); /* why may be err->msg */
    if (why) return slpi_error_set(err, SLPI_EINPUT, "multiplier=%.200s: at l = %d: %s", p->sys.ez.multiplier, l, w);
    return slpi_error_set(err, SLPI_EINPUT,
                          "multiplier=%.200s: lambda(l = %d) is 0, not finite, or outside binary64's "
                          "normal range in magnitude [2^-1022, 2^1024) (on the certified path: somewhere in its ball): "
                          "L is not invertible (the multiplier must be finite and nonzero at l = 1..N-1 = %d)",
                          p->sys.ez.multiplier, l, p->sys.ez.N - 1);
}

static const char *ez_noise_name(slpi_ez_noise k)
{
    static const char *const name[] = { "none", "Q", "L", "modes", "fields" };
    return (unsigned)k <= SLPI_EZ_NOISE_FIELDS ? name[k] : "?";
}

int slpi_zeitlin_family_check(const slpi_problem *p, slpi_error *err)
{
    int modes = p->sys.ez.noise == SLPI_EZ_NOISE_MODES, fields = p->sys.ez.noise == SLPI_EZ_NOISE_FIELDS;
    if (modes && !p->sys.ez.noise_modes[0])
        return slpi_error_set(err, SLPI_EINPUT, "noise=modes needs noise_modes=l:m:amp,... (the noise Hamiltonians)");
    if (!modes && p->sys.ez.noise_modes[0])
        return slpi_error_set(err, SLPI_EINPUT, "noise_modes=%.60s needs noise=modes (noise=%s is another noise)",
                              p->sys.ez.noise_modes, ez_noise_name(p->sys.ez.noise));
    if (fields && !p->sys.ez.noise_fields[0])
        return slpi_error_set(err, SLPI_EINPUT,
                              "noise=fields needs noise_fields=FILE (one line of N^2-1 "
                              "coefficients per field xi_k)");
    if (!fields && p->sys.ez.noise_fields[0])
        return slpi_error_set(err, SLPI_EINPUT, "noise_fields=%.200s needs noise=fields (noise=%s is another noise)",
                              p->sys.ez.noise_fields, ez_noise_name(p->sys.ez.noise));
    int uses_l;
    if (p->sys.ez.multiplier[0] && p->sys.ez.kappa != 0)
        return slpi_error_set(err, SLPI_EINPUT,
                              "kappa=%g with multiplier=%.200s: the multiplier is the whole of L "
                              "(write the shift into it, e.g. -l*(l+1)-kappa^2 as a number)",
                              p->sys.ez.kappa, p->sys.ez.multiplier);
    if (p->sys.ez.multiplier[0] && slpi_zeitlin_multiplier_parse(p->sys.ez.multiplier, &uses_l, err) != SLPI_OK)
        return SLPI_EINPUT;
    if (p->sys.ez.noise_modes[0] &&
        slpi_zeitlin_modes_parse(NULL, "noise_modes", p->sys.ez.noise_modes, p->sys.ez.N, err) < 0)
        return SLPI_EINPUT;
    if (p->sys.ez.background_modes[0] &&
        slpi_zeitlin_modes_parse(NULL, "background_modes", p->sys.ez.background_modes, p->sys.ez.N, err) < 0)
        return SLPI_EINPUT;
    return SLPI_OK;
}
