/* model.c — a whole model from the problem's keys (core/expr.h, docs/models.md#keys): the
 * algebra, H and the noise Hamiltonians parsed over the model's parameters, with the checks
 * that span keys (H given, noise numbered without gaps, no parameter shadowed or unused).
 * A problem's model is parsed once, into its plan (core/plan.c), which its validation, its
 * consistency rule and both paths read; nothing here keeps models between calls. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "core/problem-struct.h"
#include "core/expr.h"

static atomic_long parse_count;

void slpi_model_free(slpi_model *m)
{
    for (int k = 0; k <= SLPI_MODEL_MAX_NOISE; k++) slpi_expr_free(&m->H[k]);
    m->M = 0;
}

const char *slpi_model_key(char *buf, size_t n, int k)
{
    snprintf(buf, n, k ? "noise_H%d" : "H", k);
    return buf;
}

int slpi_model_constant_refusal(slpi_error *err, int k, const slpi_expr_node *nd)
{
    char key[32];
    return slpi_error_set(err, SLPI_EINPUT,
                          "%s: col %d: %s outside its domain (or not finite) in a constant "
                          "subexpression",
                          slpi_model_key(key, sizeof key, k), nd->col, slpi_expr_op_name(nd->op));
}

int slpi_model_noise_count(const slpi_problem *p)
{
    int M = 0;
    for (int k = 0; k < SLPI_MODEL_MAX_NOISE; k++)
        if (p->sys.model.noise_H[k][0] || p->sys.model.cb[k + 1].grad) M = k + 1;
    return M;
}

int slpi_model_parse(slpi_model *m, const slpi_problem *p, slpi_error *err)
{
    memset(m, 0, sizeof *m);
    atomic_fetch_add(&parse_count, 1);
    if (!slpi_problem_algebra(p))
        return slpi_error_set(err, SLPI_EINPUT, "system=model needs algebra= (so3 | se3 | so(n) | su(n) | so3^k)");
    m->alg = *slpi_problem_algebra(p);
    if (!p->sys.model.H[0] && !p->sys.model.cb[0].grad)
        return slpi_error_set(err, SLPI_EINPUT, "system=model needs H= (the Hamiltonian)");
    int M = slpi_model_noise_count(p);
    for (int k = 0; k <= M; k++) {
        const char *text = k ? p->sys.model.noise_H[k - 1] : p->sys.model.H;
        char key[32];
        if (p->sys.model.cb[k].grad && text[0])
            return slpi_error_set(err, SLPI_EINPUT,
                                  "%s: given both as an expression and as a callback "
                                  "(docs/models.md#callbacks)",
                                  slpi_model_key(key, sizeof key, k));
    }
    for (int k = 0; k < M; k++)
        if (!p->sys.model.noise_H[k][0] && !p->sys.model.cb[k + 1].grad)
            return slpi_error_set(
                err, SLPI_EINPUT,
                "noise_H%d is given but noise_H%d is not: the noise Hamiltonians are numbered 1..M without gaps", M,
                k + 1);
    /* a parameter named like a coordinate would never be read (the coordinate wins) */
    slpi_expr_param par[SLPI_MODEL_MAX_PARAMS];
    int used[SLPI_MODEL_MAX_PARAMS] = { 0 };
    for (int i = 0; i < p->sys.model.nparam; i++) {
        const char *name = p->sys.model.param_name[i];
        if (slpi_algebra_coord_index(&m->alg, name, strlen(name)) >= 0)
            return slpi_error_set(err, SLPI_EINPUT,
                                  "param.%s: shadowed by the coordinate %s of %s, which the "
                                  "expressions read instead: rename the parameter",
                                  name, name, p->sys.model.algebra);
        if (strcmp(name, "t") == 0)
            return slpi_error_set(err, SLPI_EINPUT,
                                  "param.t: t is the time of the step, which the expressions "
                                  "read instead (docs/models.md#time): rename the parameter");
        par[i].name = name;
        par[i].text = p->sys.model.param_text[i];
        par[i].value = p->sys.model.param[i];
        par[i].used = used + i;
    }
    m->M = M;
    for (int k = 0; k <= M; k++) {
        char key[32];
        slpi_model_key(key, sizeof key, k);
        if (p->sys.model.cb[k].grad) { /* code, not an expression: H[k] stays empty */
            m->callback[k] = 1;
            continue;
        }
        int rc = slpi_expr_parse(&m->H[k], key, k ? p->sys.model.noise_H[k - 1] : p->sys.model.H, &m->alg,
                                 p->sys.model.nparam, par, err);
        if (rc) {
            slpi_model_free(m);
            return rc;
        }
        m->reads_t |= m->H[k].reads_t;
    }
    for (int i = 0; i < p->sys.model.nparam; i++) /* a misspelt name would be silently unused */
        if (!used[i]) {
            slpi_model_free(m);
            /* the value cut at 40 characters: a long one (767 digits) left no room for why */
            return slpi_error_set(err, SLPI_EINPUT,
                                  "param.%s=%.40s%s: no expression uses it (a misspelt name?); "
                                  "remove it or use it (docs/models.md#keys)",
                                  par[i].name, par[i].text, strlen(par[i].text) > 40 ? "..." : "");
        }
    return SLPI_OK;
}

long slpi_model_parse_count(void)
{
    return atomic_load(&parse_count);
}
