/* cmd-model.c — `slpi model`: what a model integrates (docs/models.md#equations). The
 * algebra's equation, pairing and bracket in words (core/algebra.c, slpi_algebra_equation),
 * the Hamiltonians and parameters as given, and at the initial state (or --at) the value
 * of H, each generator xi_k = grad H_k and each field V_k = ad*_{xi_k} x, V_0 the drift
 * per unit time and V_k the noise field of dW^k (slpi_fast_fields: the double path's own
 * evaluation, the one `slpi run` integrates). */
#include <float.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/plan.h"
#include "slpi/diag.h"
#include "slpi/fast.h"
#include "slpi/problem-build.h"
#include "slpi/problem-finish.h"
#include "core/problem-store.h"
#include "core/view-system.h"
#include "cli/cli.h"
#include "core/expr.h"
#include "core/plan.h"
#include "core/parse.h"

static void model_usage(FILE *f)
{
    fputs("usage: slpi model --config FILE [key=value ...] [--at x1,x2,...]\n"
          "       slpi model system=model algebra=ALG H=EXPR [noise_Hk=EXPR ...] x0=... [--at ...]\n"
          "Show what a model integrates: its algebra's equation, pairing and bracket in words,\n"
          "the Hamiltonians and parameters, and at the initial state x0 (or the state --at)\n"
          "the value of H, each gradient xi_k = grad H_k in the algebra's pairing and each\n"
          "vector field V_k = ad*_{xi_k} x (k = 0: the drift per unit time; k >= 1: the\n"
          "noise field multiplying o dW^k), as the double path evaluates them.\n"
          "  --at X          comma-separated state (the algebra's coordinates) instead of x0\n"
          "  -h, --help      this help\n"
          "Exit 0, or 2 for bad input (the key and the reason).\n",
          f);
}

static int model_bad(const char *msg)
{
    fprintf(stderr, "slpi model: %s\n", msg);
    return SLPI_EINPUT;
}

/* one line: name, then the dim values */
static void row(const char *name, int k, const double *v, int dim)
{
    char label[32];
    snprintf(label, sizeof label, "%s_%d", name, k);
    printf("  %-6s", k < 0 ? name : label);
    for (int i = 0; i < dim; i++) printf("\t%.17g", v[i]);
    printf("\n");
}

static int show(const slpi_plan *plan, const char *at)
{
    slpi_error err = { 0, "" };
    const slpi_system_view *sys = slpi_view_system(slpi_plan_problem(plan));
    const slpi_model *m = slpi_plan_model(plan);
    slpi_algebra alg = m->alg;
    const slpi_algebra *a = &alg;
    int dim = a->dim, M = m->M, rc = SLPI_OK;
    const char *eq, *pairing, *bracket;
    char buf[64];
    slpi_algebra_equation(a, &eq, &pairing, &bracket);
    slpi_algebra_text(a, buf, sizeof buf);
    printf("algebra: %s (dimension %d)\nequation: %s\npairing: %s\nbracket: %s\n", buf, dim, eq, pairing, bracket);
    printf("H = %s\n", sys->model.H[0] ? sys->model.H : "(code: a callback)");
    for (int k = 1; k <= M; k++) printf("noise_H%d = %s\n", k, sys->model.noise_H[k - 1]);
    for (int i = 0; i < sys->model.nparam; i++)
        printf("param.%s = %s\n", sys->model.param_name[i], sys->model.param_text[i]);

    slpi_fast *f = NULL;
    double *x = calloc((size_t)(2 * (M + 1) + 1) * (size_t)dim, sizeof *x);
    double *xi = x + dim, *V = xi + (size_t)(M + 1) * dim;
    if (!x) return model_bad("out of memory");
    if (slpi_fast_create_plan(&f, plan, &err) != SLPI_OK) rc = SLPI_EINPUT;
    if (rc == SLPI_OK && at) {
        int n = 0;
        const char *s = at;
        while (rc == SLPI_OK && n <= dim) {
            char num[512];
            size_t len = strcspn(s, ",");
            snprintf(num, sizeof num, "%.*s", (int)(len < sizeof num ? len : sizeof num - 1), s);
            if (n == dim || len >= sizeof num || slpi_parse_double("--at", num, -DBL_MAX, DBL_MAX, &x[n], &err)) {
                rc = slpi_error_set(&err, SLPI_EINPUT, "--at %s: expected %d comma-separated numbers", at, dim);
                break;
            }
            n++;
            if (!s[len]) break;
            s += len + 1;
        }
        if (rc == SLPI_OK && n != dim)
            rc = slpi_error_set(&err, SLPI_EINPUT, "--at %s: expected %d comma-separated numbers", at, dim);
    } else if (rc == SLPI_OK) {
        rc = slpi_fast_initial_state(f, x, &err);
    }
    if (rc == SLPI_OK && slpi_fast_fields(f, xi, V, x) < 0) rc = slpi_error_set(&err, SLPI_EINPUT, "out of memory");
    if (rc == SLPI_OK) {
        slpi_diag d = { 0 };
        slpi_fast_diagnostics(f, x, NULL, &d);
        printf("at %s:\n  x     ", at ? "--at" : "x0");
        for (int i = 0; i < dim; i++) {
            slpi_algebra_coord_name(a, i, buf, sizeof buf);
            printf("\t%s", buf);
        }
        printf("\n");
        row("x", -1, x, dim);
        for (int i = 0; i < d.n; i++)
            if (strcmp(d.name[i], "H0") == 0) printf("  H = %.17g\n", d.value[i]);
        for (int k = 0; k <= M; k++) {
            row("xi", k, xi + (size_t)k * dim, dim);
            row("V", k, V + (size_t)k * dim, dim);
        }
    }
    slpi_fast_free(f);
    free(x);
    return rc == SLPI_OK ? SLPI_OK : model_bad(err.msg);
}

int slpi_cli_model(int argc, char **argv)
{
    static const struct option opts[] = { { "config", required_argument, NULL, 'C' },
                                          { "at", required_argument, NULL, 'a' },
                                          { "help", no_argument, NULL, 'h' },
                                          { NULL, 0, NULL, 0 } };
    const char *config = NULL, *at = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'C':
            config = optarg;
            break;
        case 'a':
            at = optarg;
            break;
        case 'h':
            model_usage(stdout);
            return SLPI_OK;
        default:
            model_usage(stderr);
            return SLPI_EINPUT;
        }
    }
    int nk = argc - optind;
    char **vals = malloc((size_t)(nk + 1) * sizeof *vals);
    if (!vals) return model_bad("out of memory");
    for (int i = 0; i < nk; i++) {
        char *eq = strchr(argv[optind + i], '=');
        if (!eq || eq == argv[optind + i]) {
            free(vals);
            fprintf(stderr, "slpi model: '%s': expected key=value (see slpi model --help)\n", argv[optind + i]);
            return SLPI_EINPUT;
        }
        *eq = '\0';
        vals[i] = eq + 1;
    }
    slpi_problem *p = slpi_problem_alloc();
    slpi_error err = { 0, "" };
    int rc = p ? slpi_problem_build(p, NULL, config, nk, argv + optind, vals, NULL, &err)
               : slpi_error_set(&err, SLPI_EINPUT, "out of memory");
    free(vals);
    if (rc == SLPI_OK && slpi_view_system(p)->system != SLPI_SYS_MODEL)
        rc = slpi_error_set(&err, SLPI_EINPUT, "system=%s is not a model (system=model; docs/models.md)",
                            slpi_system_name(slpi_view_system(p)->system));
    slpi_plan *plan = NULL;
    if (rc == SLPI_OK) rc = slpi_problem_finish_unstepped(p, &err);
    if (rc == SLPI_OK) rc = slpi_plan_compile(&plan, p, &err); /* the plan holds a copy */
    slpi_problem_free(p);
    if (rc != SLPI_OK) return model_bad(err.msg);
    rc = show(plan, at);
    slpi_plan_unref(plan);
    return rc;
}
