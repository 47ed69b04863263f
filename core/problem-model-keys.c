/* problem-model-keys.c — the keys of a model that the key table cannot list (docs/models.md#keys):
 * noise_H<k>, param.<NAME> and t0, expressions kept as text (parsed at validation,
 * core/model.c), and the callbacks that stand for a Hamiltonian (docs/models.md#callbacks).
 * core/problem-keys.c hands them here. */
#include <ctype.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "slpi/callback.h"
#include "core/problem-struct.h"
#include "core/expr.h"
#include "core/problem.h"
#include "core/parse.h"
/* An expression's text, kept as given (parsed by slpi_problem_validate through
 * slpi_model_parse, when every parameter is known). */
int slpi_problem_set_expression(char *field, const char *key, const char *value, slpi_error *err)
{
    size_t len = strlen(value);
    if (len >= SLPI_EXPR_MAX_TEXT)
        return slpi_error_set(err, SLPI_EINPUT, "%s: %zu characters, over the limit of %d", key, len,
                              SLPI_EXPR_MAX_TEXT - 1);
    memcpy(field, value, len + 1);
    return SLPI_OK;
}

int slpi_problem_callbacks(const slpi_problem *p, char *buf, size_t n)
{
    int count = 0;
    size_t len = 0;
    if (n) buf[0] = 0;
    if (p->sys.system != SLPI_SYS_MODEL) return 0;
    for (int k = 0; k <= SLPI_MODEL_MAX_NOISE; k++) {
        if (!p->sys.model.cb[k].grad) continue;
        char name[32];
        if (len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s%s", count ? "," : "", slpi_model_key(name, sizeof name, k));
        count++;
    }
    return count;
}

int slpi_problem_set_callback(slpi_problem *p, int k, slpi_model_grad_fn grad, slpi_model_hvp_fn hvp,
                              slpi_model_energy_fn energy, void *user_data, slpi_error *err)
{
    if (!p || p->sys.system != SLPI_SYS_MODEL)
        return slpi_error_set(err, SLPI_EINPUT,
                              "callback: the problem is not a model (set system=model and "
                              "algebra= first; docs/models.md#callbacks)");
    if (k < 0 || k > SLPI_MODEL_MAX_NOISE)
        return slpi_error_set(err, SLPI_EINPUT, "callback %d: not a Hamiltonian (0 for H, 1..%d for noise_H1..)", k,
                              SLPI_MODEL_MAX_NOISE);
    char name[32];
    slpi_model_key(name, sizeof name, k);
    if (!grad || !hvp)
        return slpi_error_set(err, SLPI_EINPUT,
                              "callback for %s: the %s function is NULL (grad and hvp are both "
                              "required; energy may be NULL)",
                              name, grad ? "hvp" : "grad");
    p->sys.model.cb[k] = (slpi_model_code){ grad, hvp, energy, user_data };
    return SLPI_OK;
}

/* A model's decimal number (param.NAME, t0): its text as given, without blanks and a '+'
 * sign (the certified path reads it exactly), into text (SLPI_MODEL_PARAM_TEXT), its
 * binary64 rounding into *v. */
static int set_decimal(char *text, double *v, const char *key, const char *value, slpi_error *err)
{
    double d;
    if (slpi_expr_number(key, value, &d, err) != SLPI_OK) return SLPI_EINPUT;
    const char *t = value;
    while (*t == ' ' || *t == '\t' || *t == '+') t++;
    size_t tl = strlen(t);
    while (tl > 0 && (t[tl - 1] == ' ' || t[tl - 1] == '\t')) tl--;
    if (tl >= SLPI_MODEL_PARAM_TEXT)
        return slpi_error_set(err, SLPI_EINPUT, "%s=%.40s...: at most %d characters", key, value,
                              SLPI_MODEL_PARAM_TEXT - 1);
    memcpy(text, t, tl);
    text[tl] = 0;
    *v = d;
    return SLPI_OK;
}

/* noise_H<k>, param.<NAME> and t0 of a model: 1 if key is one of them (then *rc is the
 * result). */
int slpi_problem_set_model_key(slpi_problem *p, const char *key, const char *value, int *rc, slpi_error *err)
{
    if (strcmp(key, "t0") == 0) { /* the time of step 0 (docs/models.md#time) */
        *rc = set_decimal(p->sys.model.t0_text, &p->sys.model.t0, key, value, err);
        return 1;
    }
    if (strncmp(key, "noise_H", 7) == 0) {
        int k;
        if (slpi_parse_int(key, key + 7, 1, SLPI_MODEL_MAX_NOISE, &k, err) != SLPI_OK) {
            *rc = slpi_error_set(err, SLPI_EINPUT, "%s: unknown key (noise Hamiltonians are noise_H1..noise_H%d)", key,
                                 SLPI_MODEL_MAX_NOISE);
            return 1;
        }
        *rc = slpi_problem_set_expression(p->sys.model.noise_H[k - 1], key, value, err);
        return 1;
    }
    if (strncmp(key, "param.", 6) != 0) return 0;
    const char *name = key + 6;
    size_t len = strlen(name);
    int ok = len > 0 && len < SLPI_MODEL_NAME_MAX && (isalpha((unsigned char)name[0]) || name[0] == '_');
    for (size_t i = 0; ok && i < len; i++) ok = isalnum((unsigned char)name[i]) || name[i] == '_';
    if (!ok) {
        *rc = slpi_error_set(err, SLPI_EINPUT,
                             "%s: a parameter name is a letter or '_' then letters, digits "
                             "and '_', at most %d characters",
                             key, SLPI_MODEL_NAME_MAX - 1);
        return 1;
    }
    int i = 0;
    while (i < p->sys.model.nparam && strcmp(p->sys.model.param_name[i], name) != 0) i++;
    if (i == SLPI_MODEL_MAX_PARAMS) {
        *rc = slpi_error_set(err, SLPI_EINPUT, "%s: more than %d parameters", key, SLPI_MODEL_MAX_PARAMS);
        return 1;
    }
    *rc = set_decimal(p->sys.model.param_text[i], &p->sys.model.param[i], key, value, err);
    if (*rc == SLPI_OK && i == p->sys.model.nparam) p->sys.model.nparam++;
    if (*rc == SLPI_OK) memcpy(p->sys.model.param_name[i], name, len + 1);
    return 1;
}
