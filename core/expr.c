/* expr.c — the expression language of models (core/expr.h, docs/models.md): a
 * recursive-descent parser into the flat node tape both paths evaluate, and the tape's
 * polynomial degree. The algebras are core/algebra.c's, whole models core/model.c's. No
 * evaluation here. */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/limits.h"
#include "core/expr.h"
#include "core/parse.h"

static const char *const op_names[] = { "const", "coord", "pi",   "neg",  "add",  "sub",  "mul",
                                        "div",   "powi",  "pow",  "sqrt", "exp",  "log",  "sin",
                                        "cos",   "tan",   "atan", "sinh", "cosh", "tanh", "t" };
_Static_assert(sizeof op_names / sizeof *op_names == SLPI_EXPR_OP_COUNT, "one name per slpi_expr_op");

const char *slpi_expr_op_name(int op)
{
    return op >= 0 && op < SLPI_EXPR_OP_COUNT ? op_names[op] : "?";
}

/* ------------------------------------------------------------ the parser */

typedef struct {
    const char *key, *text;
    const slpi_algebra *alg;
    int npar;
    const slpi_expr_param *par;
    const char *s; /* cursor */
    int depth;
    slpi_expr *e;
    int cap, ccap;
    slpi_error *err;
    int failed;
} parser;

static const struct {
    const char *name;
    int op;
} functions[] = {
    { "sqrt", SLPI_EXPR_SQRT }, { "exp", SLPI_EXPR_EXP },   { "log", SLPI_EXPR_LOG },   { "sin", SLPI_EXPR_SIN },
    { "cos", SLPI_EXPR_COS },   { "tan", SLPI_EXPR_TAN },   { "atan", SLPI_EXPR_ATAN }, { "sinh", SLPI_EXPR_SINH },
    { "cosh", SLPI_EXPR_COSH }, { "tanh", SLPI_EXPR_TANH },
};
#define NFUNC ((int)(sizeof functions / sizeof functions[0]))

static int col_of(const parser *P, const char *at)
{
    return (int)(at - P->text) + 1;
}

/* "KEY: col C: reason", then the text (a window of at most 60 characters around C) and a
 * caret under C. Only the first error is recorded. */
static int fail(parser *P, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(parser *P, const char *at, const char *fmt, ...)
{
    if (P->failed) return -1;
    P->failed = 1;
    char why[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    int col = col_of(P, at);
    int len = (int)strlen(P->text), from = 0;
    if (col > 40) from = col - 40;
    int show = len - from < 60 ? len - from : 60;
    slpi_error_set(P->err, SLPI_EINPUT, "%s: col %d: %s\n  %s%.*s%s\n  %*s^", P->key, col, why, from > 0 ? "..." : "",
                   show, P->text + from, from + show < len ? "..." : "", col - 1 - from + (from > 0 ? 3 : 0), "");
    return -1;
}

static int add_node(parser *P, const char *at, int op, int a, int b, int arg)
{
    slpi_expr *e = P->e;
    if (e->n >= SLPI_EXPR_MAX_NODES)
        return fail(P, at, "expression has more than %d nodes (the stated limit)", SLPI_EXPR_MAX_NODES);
    if (e->n == P->cap) {
        int cap = P->cap ? 2 * P->cap : 32;
        slpi_expr_node *nn = realloc(e->node, (size_t)cap * sizeof *nn);
        unsigned char *dd = realloc(e->dep, (size_t)cap), *td = realloc(e->tdep, (size_t)cap);
        if (nn) e->node = nn;
        if (dd) e->dep = dd;
        if (td) e->tdep = td;
        if (!nn || !dd || !td) return fail(P, at, "out of memory");
        P->cap = cap;
    }
    slpi_expr_node *n = &e->node[e->n];
    n->op = op;
    n->a = a;
    n->b = b;
    n->arg = arg;
    n->col = col_of(P, at);
    e->dep[e->n] = (unsigned char)(op == SLPI_EXPR_COORD || (a >= 0 && e->dep[a]) || (b >= 0 && e->dep[b]));
    e->tdep[e->n] = (unsigned char)(op == SLPI_EXPR_TIME || (a >= 0 && e->tdep[a]) || (b >= 0 && e->tdep[b]));
    return e->n++;
}

static int add_const(parser *P, const char *at, const char *text, size_t len, double v)
{
    slpi_expr *e = P->e;
    if (e->nconst == P->ccap) {
        int cap = P->ccap ? 2 * P->ccap : 16;
        double *cv = realloc(e->cval, (size_t)cap * sizeof *cv);
        char **ct = realloc(e->ctext, (size_t)cap * sizeof *ct);
        if (cv) e->cval = cv;
        if (ct) e->ctext = ct;
        if (!cv || !ct) return fail(P, at, "out of memory");
        P->ccap = cap;
    }
    char *t = malloc(len + 1);
    if (!t) return fail(P, at, "out of memory");
    memcpy(t, text, len);
    t[len] = 0;
    e->ctext[e->nconst] = t;
    e->cval[e->nconst] = v;
    return add_node(P, at, SLPI_EXPR_CONST, -1, -1, e->nconst++);
}

static void blanks(parser *P)
{
    while (*P->s == ' ' || *P->s == '\t') P->s++;
}

static int parse_expr(parser *P);
static int parse_unary(parser *P);

/* A number token at P->s (digits, '.', exponent): its length, 0 if none. */
static size_t number_len(const char *s)
{
    const char *t = s;
    int digits = 0;
    while (isdigit((unsigned char)*t)) {
        t++;
        digits++;
    }
    if (*t == '.') {
        t++;
        while (isdigit((unsigned char)*t)) {
            t++;
            digits++;
        }
    }
    if (!digits) return 0;
    if (*t == 'e' || *t == 'E') {
        const char *u = t + 1;
        if (*u == '+' || *u == '-') u++;
        if (isdigit((unsigned char)*u)) {
            while (isdigit((unsigned char)*u)) u++;
            t = u;
        }
    }
    return (size_t)(t - s);
}

/* A finite constant: no overflow to infinity, no underflow to a subnormal (0 itself is fine). */
static int number_value(parser *P, const char *at, size_t len, double *v)
{
    char buf[800];
    if (len >= sizeof buf) return fail(P, at, "number longer than %d characters", (int)sizeof buf - 1);
    memcpy(buf, at, len);
    buf[len] = 0;
    errno = 0;
    *v = slpi_parse_strtod(buf, NULL);
    if (!isfinite(*v)) return fail(P, at, "non-finite constant '%s' (overflows binary64)", buf);
    if (*v != 0 && fabs(*v) < DBL_MIN) return fail(P, at, "constant '%s' underflows to a subnormal binary64", buf);
    if (*v == 0) {
        for (size_t i = 0; i < len && buf[i] != 'e' && buf[i] != 'E'; i++)
            if (buf[i] >= '1' && buf[i] <= '9') return fail(P, at, "constant '%s' underflows to 0 in binary64", buf);
    }
    return 0;
}

static int parse_atom(parser *P)
{
    blanks(P);
    const char *at = P->s;
    if (*at == '(') {
        P->s++;
        if (++P->depth > SLPI_EXPR_MAX_DEPTH)
            return fail(P, at, "nested deeper than %d (the stated limit)", SLPI_EXPR_MAX_DEPTH);
        int r = parse_expr(P);
        P->depth--;
        if (r < 0) return r;
        blanks(P);
        if (*P->s != ')') return fail(P, P->s, "expected ')' to close the '(' at col %d", col_of(P, at));
        P->s++;
        return r;
    }
    size_t nl = number_len(at);
    if (nl) {
        double v;
        if (number_value(P, at, nl, &v) < 0) return -1;
        P->s += nl;
        return add_const(P, at, at, nl, v);
    }
    if (isalpha((unsigned char)*at) || *at == '_') {
        const char *t = at;
        while (isalnum((unsigned char)*t) || *t == '_') t++;
        size_t len = (size_t)(t - at);
        P->s = t;
        blanks(P);
        if (*P->s == '(') {
            int f = -1;
            for (int i = 0; i < NFUNC; i++)
                if (strlen(functions[i].name) == len && memcmp(functions[i].name, at, len) == 0) f = i;
            if (f < 0)
                return fail(P, at, "unknown function '%.*s' (functions: sqrt exp log sin cos tan atan sinh cosh tanh)",
                            (int)(len > 40 ? 40 : len), at);
            const char *open = P->s;
            P->s++;
            if (++P->depth > SLPI_EXPR_MAX_DEPTH)
                return fail(P, open, "nested deeper than %d (the stated limit)", SLPI_EXPR_MAX_DEPTH);
            blanks(P);
            if (*P->s == ')') return fail(P, P->s, "%s takes 1 argument, got none", functions[f].name);
            int a = parse_expr(P);
            P->depth--;
            if (a < 0) return a;
            blanks(P);
            if (*P->s == ',') return fail(P, P->s, "wrong arity: %s takes 1 argument", functions[f].name);
            if (*P->s != ')')
                return fail(P, P->s, "expected ')' to close %s( at col %d", functions[f].name, col_of(P, open));
            P->s++;
            return add_node(P, at, functions[f].op, a, -1, 0);
        }
        for (int i = 0; i < NFUNC; i++)
            if (strlen(functions[i].name) == len && memcmp(functions[i].name, at, len) == 0)
                return fail(P, at, "function '%s' needs an argument in parentheses", functions[i].name);
        int c = slpi_algebra_coord_index(P->alg, at, len);
        if (c >= 0) return add_node(P, at, SLPI_EXPR_COORD, -1, -1, c);
        for (int i = 0; i < P->npar; i++)
            if (strlen(P->par[i].name) == len && memcmp(P->par[i].name, at, len) == 0) {
                if (P->par[i].used) *P->par[i].used = 1;
                return add_const(P, at, P->par[i].text, strlen(P->par[i].text), P->par[i].value);
            }
        if (len == 1 && *at == 't') return add_node(P, at, SLPI_EXPR_TIME, -1, -1, 0);
        if (len == 2 && memcmp(at, "pi", 2) == 0) return add_node(P, at, SLPI_EXPR_PI, -1, -1, 0);
        char alg[32], first[64], last[64];
        slpi_algebra_text(P->alg, alg, sizeof alg);
        slpi_algebra_coord_name(P->alg, 0, first, sizeof first);
        slpi_algebra_coord_name(P->alg, P->alg->dim - 1, last, sizeof last);
        return fail(P, at, "unknown name '%.*s' (%s has %s..%s%s)", (int)(len > 40 ? 40 : len), at, alg, first, last,
                    P->npar ? ", or a param.NAME" : "; no parameters given");
    }
    if (*at == 0) return fail(P, at, "unexpected end of the expression");
    if (*at == ')') return fail(P, at, "unexpected ')'");
    if (isprint((unsigned char)*at)) return fail(P, at, "unexpected character '%c'", *at);
    return fail(P, at, "unexpected byte 0x%02x", (unsigned char)*at);
}

/* An integer literal exponent: digits, with an optional sign before them, optionally in
 * parentheses, and nothing else ("2", "-1", "(-3)"); its value in *n, its length in
 * *len; 0 if the exponent is not of that form. */
static int integer_exponent(const char *s, long *n, size_t *len)
{
    const char *t = s;
    int paren = 0, neg = 0;
    while (*t == ' ' || *t == '\t') t++;
    if (*t == '(') {
        paren = 1;
        t++;
        while (*t == ' ' || *t == '\t') t++;
    }
    if (*t == '-' || *t == '+') {
        neg = *t == '-';
        t++;
        while (*t == ' ' || *t == '\t') t++;
    }
    if (!isdigit((unsigned char)*t)) return 0;
    long v = 0;
    while (isdigit((unsigned char)*t)) {
        if (v < 1000000) v = 10 * v + (*t - '0');
        t++;
    }
    if (*t == '.' || *t == 'e' || *t == 'E' || isalpha((unsigned char)*t) || *t == '_') return 0;
    while (*t == ' ' || *t == '\t') t++;
    if (paren) {
        if (*t != ')') return 0;
        t++;
    } else if (*t == '^') {
        return 0; /* a^2^3 = a^(2^3): not a literal */
    }
    *n = neg ? -v : v;
    *len = (size_t)(t - s);
    return 1;
}

static int parse_power(parser *P)
{
    int a = parse_atom(P);
    if (a < 0) return a;
    blanks(P);
    if (*P->s != '^') return a;
    const char *caret = P->s;
    P->s++;
    long n;
    size_t len;
    if (integer_exponent(P->s, &n, &len)) {
        const char *at = P->s;
        while (*at == ' ' || *at == '\t' || *at == '(') at++;
        if (n > SLPI_EXPR_MAX_POWI || n < -SLPI_EXPR_MAX_POWI)
            return fail(P, at, "integer exponent beyond +-%d (the stated limit)", SLPI_EXPR_MAX_POWI);
        P->s += len;
        return add_node(P, caret, SLPI_EXPR_POWI, a, -1, (int)n);
    }
    if (++P->depth > SLPI_EXPR_MAX_DEPTH)
        return fail(P, caret, "nested deeper than %d (the stated limit)", SLPI_EXPR_MAX_DEPTH);
    int b = parse_unary(P);
    P->depth--;
    if (b < 0) return b;
    return add_node(P, caret, SLPI_EXPR_POW, a, b, 0);
}

static int parse_unary(parser *P)
{
    blanks(P);
    const char *at = P->s;
    if (*at == '-' || *at == '+') {
        P->s++;
        if (++P->depth > SLPI_EXPR_MAX_DEPTH)
            return fail(P, at, "nested deeper than %d (the stated limit)", SLPI_EXPR_MAX_DEPTH);
        int a = parse_unary(P);
        P->depth--;
        if (a < 0 || *at == '+') return a;
        return add_node(P, at, SLPI_EXPR_NEG, a, -1, 0);
    }
    return parse_power(P);
}

/* A left-associative chain of one precedence level: level 0 sums (+ -) of level-1
 * terms, level 1 products (* /) of unary factors. */
static int parse_chain(parser *P, int level)
{
    static const char ops[2][2] = { { '+', '-' }, { '*', '/' } };
    static const int codes[2][2] = { { SLPI_EXPR_ADD, SLPI_EXPR_SUB }, { SLPI_EXPR_MUL, SLPI_EXPR_DIV } };
    int a = level ? parse_unary(P) : parse_chain(P, 1);
    while (a >= 0) {
        blanks(P);
        const char *at = P->s;
        if (*at != ops[level][0] && *at != ops[level][1]) break;
        P->s++;
        int b = level ? parse_unary(P) : parse_chain(P, 1);
        if (b < 0) return b;
        a = add_node(P, at, codes[level][*at == ops[level][1]], a, b, 0);
    }
    return a;
}

static int parse_expr(parser *P)
{
    return parse_chain(P, 0);
}

void slpi_expr_free(slpi_expr *e)
{
    for (int i = 0; i < e->nconst; i++) free(e->ctext[i]);
    free(e->ctext);
    free(e->cval);
    free(e->node);
    free(e->dep);
    free(e->tdep);
    memset(e, 0, sizeof *e);
}

int slpi_expr_parse(slpi_expr *e, const char *key, const char *text, const slpi_algebra *alg, int npar,
                    const slpi_expr_param *par, slpi_error *err)
{
    memset(e, 0, sizeof *e);
    parser P = { .key = key, .text = text, .alg = alg, .npar = npar, .par = par, .s = text, .e = e, .err = err };
    size_t len = strlen(text);
    if (len >= SLPI_EXPR_MAX_TEXT)
        return slpi_error_set(err, SLPI_EINPUT, "%s: %zu characters, over the limit of %d", key, len,
                              SLPI_EXPR_MAX_TEXT - 1);
    e->ncoord = alg->dim;
    blanks(&P);
    if (*P.s == 0) {
        fail(&P, P.s, "empty expression");
    } else if (parse_expr(&P) >= 0) {
        blanks(&P);
        if (*P.s == ')')
            fail(&P, P.s, "unexpected ')'");
        else if (*P.s)
            fail(&P, P.s, "expected an operator (+ - * / ^) or the end, found '%c'", *P.s);
    }
    if (P.failed) {
        slpi_expr_free(e);
        return SLPI_EINPUT;
    }
    e->reads_t = e->tdep[e->n - 1];
    return SLPI_OK;
}

int slpi_expr_number(const char *key, const char *text, double *v, slpi_error *err)
{
    const char *s = text;
    while (*s == ' ' || *s == '\t') s++;
    const char *num = s;
    if (*s == '-' || *s == '+') s++;
    size_t len = number_len(s);
    const char *end = s + len;
    while (*end == ' ' || *end == '\t') end++;
    if (!len || *end)
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s=%.60s: not a decimal number (digits, '.', exponent; "
                              "an optional sign)",
                              key, text);
    parser P = { .key = key, .text = text, .err = err };
    if (number_value(&P, s, len, v) < 0) return SLPI_EINPUT;
    if (*num == '-') *v = -*v;
    return SLPI_OK;
}

/* ------------------------------------------------------------ degree */

int slpi_expr_degree(const slpi_expr *e)
{
    int *deg = malloc((size_t)e->n * sizeof *deg);
    if (!deg) return -1;
    for (int i = 0; i < e->n; i++) {
        const slpi_expr_node *n = &e->node[i];
        int a = n->a >= 0 ? deg[n->a] : 0, b = n->b >= 0 ? deg[n->b] : 0;
        if (!e->dep[i]) {
            deg[i] = 0;
            continue;
        }
        switch (n->op) {
        case SLPI_EXPR_COORD:
            deg[i] = 1;
            break;
        case SLPI_EXPR_NEG:
            deg[i] = a;
            break;
        case SLPI_EXPR_ADD:
        case SLPI_EXPR_SUB:
            deg[i] = a < 0 || b < 0 ? -1 : a > b ? a : b;
            break;
        case SLPI_EXPR_MUL:
            deg[i] = a < 0 || b < 0 ? -1 : a + b;
            break;
        case SLPI_EXPR_DIV:
            deg[i] = e->dep[n->b] ? -1 : a;
            break;
        case SLPI_EXPR_POWI:
            deg[i] = a < 0 || n->arg < 0 ? -1 : a * n->arg;
            break;
        default:
            deg[i] = -1;
            break;
        }
        if (deg[i] > 1000) deg[i] = 1000; /* x^64^... : large is all that matters */
    }
    int r = deg[e->n - 1];
    free(deg);
    return r;
}
