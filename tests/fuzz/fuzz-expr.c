/* fuzz-expr.c — the expression parser of models (core/expr.c, core/expr.h): any input is
 * parsed over so3 (with parameters a and b) and over su(3); a parse that fails must say
 * why (SLPI_EINPUT, a message naming the key and column); a parse that succeeds must give
 * a tape that keeps the contract (operands before their node, operations and
 * coordinate indices in range, integer exponents within the limit, finite constants,
 * at most SLPI_EXPR_MAX_NODES nodes) and that round-trips: printed back fully
 * parenthesized (constants as their exact text) it parses to the same tape. */
#include "fuzzutil.h"
#include "core/expr.h"

/* the parameters every input may use; a's value is negative */
static slpi_expr_param par[2] = { { "a", "-0.25", -0.25, NULL }, { "b", "3", 3, NULL } };

/* A constant as its text, but a parameter's negative value by the parameter's name:
 * "(-0.25)" would parse back as the negation of a constant, another tape. */
static void print_const(const char *text, FILE *f)
{
    for (int k = 0; k < 2; k++)
        if (text[0] == '-' && !strcmp(text, par[k].text)) {
            fputs(par[k].name, f);
            return;
        }
    fprintf(f, "(%s)", text);
}

static void print_node(const slpi_expr *e, int i, FILE *f, const slpi_algebra *alg)
{
    const slpi_expr_node *n = &e->node[i];
    char name[64];
    switch (n->op) {
    case SLPI_EXPR_CONST:
        print_const(e->ctext[n->arg], f);
        return;
    case SLPI_EXPR_COORD:
        slpi_algebra_coord_name(alg, n->arg, name, sizeof name);
        fputs(name, f);
        return;
    case SLPI_EXPR_PI:
        fputs("pi", f);
        return;
    case SLPI_EXPR_NEG:
        fputs("(-", f);
        print_node(e, n->a, f, alg);
        fputc(')', f);
        return;
    case SLPI_EXPR_POWI:
        fputc('(', f);
        print_node(e, n->a, f, alg);
        fprintf(f, ")^(%d)", n->arg);
        return;
    case SLPI_EXPR_ADD:
    case SLPI_EXPR_SUB:
    case SLPI_EXPR_MUL:
    case SLPI_EXPR_DIV:
    case SLPI_EXPR_POW:
        fputs("((", f);
        print_node(e, n->a, f, alg);
        fputs(n->op == SLPI_EXPR_ADD       ? ")+("
                  : n->op == SLPI_EXPR_SUB ? ")-("
                  : n->op == SLPI_EXPR_MUL ? ")*("
                  : n->op == SLPI_EXPR_DIV ? ")/("
                                           : ")^(",
              f);
        print_node(e, n->b, f, alg);
        fputs("))", f);
        return;
    default:
        fprintf(f, "%s(", slpi_expr_op_name(n->op));
        print_node(e, n->a, f, alg);
        fputc(')', f);
        return;
    }
}

static void check(const char *text, const char *alg_text)
{
    slpi_algebra alg;
    slpi_error err = { 0, "" };
    if (slpi_algebra_parse(&alg, "algebra", alg_text, &err)) abort();
    slpi_expr e;
    int rc = slpi_expr_parse(&e, "H", text, &alg, 2, par, &err);
    if (rc != SLPI_OK) {
        if (rc != SLPI_EINPUT || strncmp(err.msg, "H: ", 3) != 0) {
            fprintf(stderr, "failed parse without a proper message: rc %d '%s'\n", rc, err.msg);
            abort();
        }
        slpi_expr_free(&e);
        return;
    }
    if (e.n < 1 || e.n > SLPI_EXPR_MAX_NODES) abort();
    for (int i = 0; i < e.n; i++) {
        const slpi_expr_node *n = &e.node[i];
        if (n->op < 0 || n->op >= SLPI_EXPR_OP_COUNT || n->a >= i || n->b >= i) abort();
        if (n->op == SLPI_EXPR_COORD && (n->arg < 0 || n->arg >= alg.dim)) abort();
        if (n->op == SLPI_EXPR_CONST && (n->arg < 0 || n->arg >= e.nconst)) abort();
        if (n->op == SLPI_EXPR_POWI && (n->arg < -SLPI_EXPR_MAX_POWI || n->arg > SLPI_EXPR_MAX_POWI)) abort();
    }
    for (int i = 0; i < e.nconst; i++)
        if (!(e.cval[i] - e.cval[i] == 0)) abort();
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    print_node(&e, e.n - 1, m, &alg);
    fclose(m);
    slpi_expr r;
    if (len < SLPI_EXPR_MAX_TEXT) {
        rc = slpi_expr_parse(&r, "H", buf, &alg, 2, par, &err);
        /* the reprint may nest deeper or need more text than the original: only a tape
         * that parses is compared */
        if (rc == SLPI_OK) {
            int same = r.n == e.n;
            for (int i = 0; same && i < e.n; i++)
                same = r.node[i].op == e.node[i].op && r.node[i].a == e.node[i].a && r.node[i].b == e.node[i].b &&
                    (r.node[i].op == SLPI_EXPR_CONST ? r.cval[r.node[i].arg] == e.cval[e.node[i].arg]
                                                     : r.node[i].arg == e.node[i].arg);
            if (!same) {
                fprintf(stderr, "round trip changed the tape:\n%s\n%s\n", text, buf);
                abort();
            }
            slpi_expr_free(&r);
        } else if (!strstr(err.msg, "nested deeper") && !strstr(err.msg, "nodes")) {
            fprintf(stderr, "reprint does not parse: %s\n%s\n", err.msg, buf);
            abort();
        }
    }
    free(buf);
    slpi_expr_free(&e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) abort();
    memcpy(text, data, size);
    text[size] = '\0';
    check(text, "so3");
    check(text, "su(3)");
    free(text);
    return 0;
}
