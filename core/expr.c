/* expr.c — the expression language of models (core/expr.h, docs/models.md): a
 * recursive-descent parser into the flat node tape both paths evaluate, the algebra
 * families' names, coordinates and pairing weights, and a whole model from the problem's
 * keys. No evaluation here. */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/expr.h"

static const char *const op_names[SLPI_EXPR_OP_COUNT] = {
    "const", "coord", "pi", "neg", "add", "sub", "mul", "div", "powi", "pow",
    "sqrt", "exp", "log", "sin", "cos", "tan", "atan", "sinh", "cosh", "tanh"
};

const char *slpi_expr_op_name(int op)
{
    return op >= 0 && op < SLPI_EXPR_OP_COUNT ? op_names[op] : "?";
}

/* ------------------------------------------------------------ algebras */

int slpi_algebra_parse(slpi_algebra *a, const char *key, const char *text, slpi_error *err)
{
    int n = 0, used = 0;
    if (strcmp(text, "so3") == 0) {
        a->kind = SLPI_ALGEBRA_SO3; a->n = 3; a->dim = 3;
        return SLPI_OK;
    }
    if (strcmp(text, "se3") == 0) {
        a->kind = SLPI_ALGEBRA_SE3; a->n = 3; a->dim = 6;
        return SLPI_OK;
    }
    if (sscanf(text, "so(%d)%n", &n, &used) == 1 && used > 0 && text[used] == 0
        && isdigit((unsigned char)text[3])) {
        if (n < 3 || n > 64)
            return slpi_error_set(err, SLPI_EINPUT, "%s=%s: so(n) needs 3 <= n <= 64", key, text);
        a->kind = SLPI_ALGEBRA_SON; a->n = n; a->dim = n * (n - 1) / 2;
        return SLPI_OK;
    }
    if (sscanf(text, "su(%d)%n", &n, &used) == 1 && used > 0 && text[used] == 0
        && isdigit((unsigned char)text[3])) {
        if (n < 2 || n > 256)   /* Euler-Zeitlin's range: large N is for callbacks */
            return slpi_error_set(err, SLPI_EINPUT, "%s=%s: su(n) needs 2 <= n <= 256", key, text);
        a->kind = SLPI_ALGEBRA_SUN; a->n = n; a->dim = n * n;
        return SLPI_OK;
    }
    if (sscanf(text, "so3^%d%n", &n, &used) == 1 && used > 0 && text[used] == 0
        && isdigit((unsigned char)text[4])) {
        if (n < 2 || n > 64)   /* k = 1 is so3 (the built-in vortices start at 2) */
            return slpi_error_set(err, SLPI_EINPUT, "%s=%s: so3^k needs 2 <= k <= 64 (k = 1: so3)", key, text);
        a->kind = SLPI_ALGEBRA_SO3K; a->n = n; a->dim = 3 * n;
        return SLPI_OK;
    }
    return slpi_error_set(err, SLPI_EINPUT,
                          "%s=%.60s: unknown algebra (expected so3 | se3 | so(n) | su(n) | so3^k)",
                          key, text);
}

void slpi_algebra_equation(const slpi_algebra *a, const char **equation, const char **pairing,
                           const char **bracket)
{
    switch (a->kind) {
    case SLPI_ALGEBRA_SO3:
        *equation = "dx = x cross grad H dt + sum_k x cross grad H_k o dW^k (Euler's equations "
                    "x' = x cross I^-1 x for H = 1/2 sum x_i^2/I_i)";
        *pairing = "dot product of R^3 (X = hat x): grad H = (dH/dx_1, dH/dx_2, dH/dx_3)";
        *bracket = "[x, y] = x cross y; {F, G}(x) = -x . (grad F cross grad G)";
        return;
    case SLPI_ALGEBRA_SE3:
        *equation = "dpi = (pi cross grad_pi H + gamma cross grad_gamma H) o dS, dgamma = gamma cross "
                    "grad_pi H o dS, summed over H dt and H_k o dW^k (the heavy top's equations)";
        *pairing = "dot product of R^6: grad H = (dH/dpi_i, dH/dgamma_i)";
        *bracket = "[(a, b), (c, d)] = (a cross c, a cross d - c cross b)";
        return;
    case SLPI_ALGEBRA_SON:
        *equation = "dX = [X, grad H] dt + sum_k [X, grad H_k] o dW^k (Manakov's equations; so(3) is so3 "
                    "by the hat map)";
        *pairing = "<A, B> = -1/2 Tr AB = sum_{i<j} A_ij B_ij: (grad H)_ij = dH/dX_i_j";
        *bracket = "the matrix commutator [A, B] = AB - BA";
        return;
    case SLPI_ALGEBRA_SUN:
        *equation = "dX = [X, grad H] dt + sum_k [X, grad H_k] o dW^k, H read at the traceless part of X "
                    "(Euler-Zeitlin: X' = [P, X] for H = -1/2 Tr(P^* X), Delta_N P = X)";
        *pairing = "Frobenius Tr(A^* B): grad H has dH/dImX_a_a on the diagonal and half of dH/dReX_a_b, "
                   "dH/dImX_a_b off it, then its traceless part";
        *bracket = "the matrix commutator [A, B] = AB - BA";
        return;
    case SLPI_ALGEBRA_SO3K:
        *equation = "dx_i = x_i cross grad_{x_i} H dt + sum_k x_i cross grad_{x_i} H_k o dW^k, per block i "
                    "(k copies of so3)";
        *pairing = "dot product per block: grad_{x_i} H = (dH/dxi_1, dH/dxi_2, dH/dxi_3)";
        *bracket = "x_i cross y_i per block";
        return;
    }
    *equation = *pairing = *bracket = "";
}

void slpi_algebra_text(const slpi_algebra *a, char *buf, size_t n)
{
    switch (a->kind) {
    case SLPI_ALGEBRA_SO3: snprintf(buf, n, "so3"); return;
    case SLPI_ALGEBRA_SE3: snprintf(buf, n, "se3"); return;
    case SLPI_ALGEBRA_SON: snprintf(buf, n, "so(%d)", a->n); return;
    case SLPI_ALGEBRA_SUN: snprintf(buf, n, "su(%d)", a->n); return;
    case SLPI_ALGEBRA_SO3K: snprintf(buf, n, "so3^%d", a->n); return;
    }
}

/* so(n) coordinate i -> (row, col), 0-based, row < col, row-major upper triangle. */
static void upper_pair(int n, int i, int *r, int *c)
{
    int row = 0;
    while (i >= n - 1 - row) { i -= n - 1 - row; row++; }
    *r = row;
    *c = row + 1 + i;
}

void slpi_algebra_coord_name(const slpi_algebra *a, int i, char *buf, size_t n)
{
    static const char *const se3[] = { "pi1", "pi2", "pi3", "gamma1", "gamma2", "gamma3" };
    int r, c;
    switch (a->kind) {
    case SLPI_ALGEBRA_SO3: snprintf(buf, n, "x%d", i + 1); return;
    case SLPI_ALGEBRA_SE3: snprintf(buf, n, "%s", se3[i]); return;
    case SLPI_ALGEBRA_SON:
        upper_pair(a->n, i, &r, &c);
        snprintf(buf, n, "X_%d_%d", r + 1, c + 1);
        return;
    case SLPI_ALGEBRA_SUN:
        if (i < a->n) { snprintf(buf, n, "ImX_%d_%d", i, i); return; }
        upper_pair(a->n, (i - a->n) / 2, &r, &c);
        snprintf(buf, n, "%sX_%d_%d", (i - a->n) % 2 ? "Im" : "Re", r, c);
        return;
    case SLPI_ALGEBRA_SO3K: snprintf(buf, n, "x%d_%d", i / 3 + 1, i % 3 + 1); return;
    }
}

/* so(n) and su(n) pair (r, c), r < c, -> its index in the row-major upper triangle */
static int pair_index(int n, int r, int c)
{
    return r * n - r * (r + 1) / 2 + (c - r - 1);
}

int slpi_algebra_coord_index(const slpi_algebra *a, const char *s, size_t len)
{
    char buf[64], name[64];
    int r = -1, c = -1, i = -1;
    if (len >= sizeof buf) return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    /* the candidate the numbers in the name point at (su(256) has 65536 coordinates: no
     * search), accepted only if its own name is the text exactly */
    switch (a->kind) {
    case SLPI_ALGEBRA_SO3: case SLPI_ALGEBRA_SE3:
        for (int j = 0; j < a->dim && i < 0; j++) {
            slpi_algebra_coord_name(a, j, name, sizeof name);
            if (strcmp(name, buf) == 0) i = j;
        }
        return i;
    case SLPI_ALGEBRA_SON:
        if (sscanf(buf, "X_%d_%d", &r, &c) == 2 && 1 <= r && r < c && c <= a->n)
            i = pair_index(a->n, r - 1, c - 1);
        break;
    case SLPI_ALGEBRA_SUN:
        if (len > 2 && sscanf(buf + 2, "X_%d_%d", &r, &c) == 2 && 0 <= r && r <= c && c < a->n) {
            if (r == c) i = strncmp(buf, "Im", 2) == 0 ? r : -1;
            else i = a->n + 2 * pair_index(a->n, r, c) + (strncmp(buf, "Im", 2) == 0);
        }
        break;
    case SLPI_ALGEBRA_SO3K:
        if (sscanf(buf, "x%d_%d", &r, &c) == 2 && 1 <= r && r <= a->n && 1 <= c && c <= 3)
            i = 3 * (r - 1) + c - 1;
        break;
    }
    if (i < 0 || i >= a->dim) return -1;
    slpi_algebra_coord_name(a, i, name, sizeof name);
    return strcmp(name, buf) == 0 ? i : -1;
}

int slpi_algebra_weight(const slpi_algebra *a, int i)
{
    return a->kind == SLPI_ALGEBRA_SUN && i >= a->n ? 2 : 1;
}

/* ------------------------------------------------------------ the parser */

typedef struct {
    const char *key, *text;
    const slpi_algebra *alg;
    int npar;
    const slpi_expr_param *par;
    const char *s;          /* cursor */
    int depth;
    slpi_expr *e;
    int cap, ccap;
    slpi_error *err;
    int failed;
} parser;

static const struct { const char *name; int op; } functions[] = {
    { "sqrt", SLPI_EXPR_SQRT }, { "exp", SLPI_EXPR_EXP }, { "log", SLPI_EXPR_LOG },
    { "sin", SLPI_EXPR_SIN }, { "cos", SLPI_EXPR_COS }, { "tan", SLPI_EXPR_TAN },
    { "atan", SLPI_EXPR_ATAN }, { "sinh", SLPI_EXPR_SINH }, { "cosh", SLPI_EXPR_COSH },
    { "tanh", SLPI_EXPR_TANH },
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
    slpi_error_set(P->err, SLPI_EINPUT, "%s: col %d: %s\n  %s%.*s%s\n  %*s^", P->key, col, why,
                   from > 0 ? "..." : "", show, P->text + from, from + show < len ? "..." : "",
                   col - 1 - from + (from > 0 ? 3 : 0), "");
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
        unsigned char *dd = realloc(e->dep, (size_t)cap);
        if (nn) e->node = nn;
        if (dd) e->dep = dd;
        if (!nn || !dd) return fail(P, at, "out of memory");
        P->cap = cap;
    }
    slpi_expr_node *n = &e->node[e->n];
    n->op = op; n->a = a; n->b = b; n->arg = arg; n->col = col_of(P, at);
    e->dep[e->n] = (unsigned char)(op == SLPI_EXPR_COORD || (a >= 0 && e->dep[a]) || (b >= 0 && e->dep[b]));
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
    while (isdigit((unsigned char)*t)) { t++; digits++; }
    if (*t == '.') {
        t++;
        while (isdigit((unsigned char)*t)) { t++; digits++; }
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
    *v = strtod(buf, NULL);
    if (!isfinite(*v)) return fail(P, at, "non-finite constant '%s' (overflows binary64)", buf);
    if (*v != 0 && fabs(*v) < DBL_MIN)
        return fail(P, at, "constant '%s' underflows to a subnormal binary64", buf);
    if (*v == 0) {
        for (size_t i = 0; i < len && buf[i] != 'e' && buf[i] != 'E'; i++)
            if (buf[i] >= '1' && buf[i] <= '9')
                return fail(P, at, "constant '%s' underflows to 0 in binary64", buf);
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
                if (strlen(functions[i].name) == len && memcmp(functions[i].name, at, len) == 0)
                    f = i;
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
            if (*P->s == ',')
                return fail(P, P->s, "wrong arity: %s takes 1 argument", functions[f].name);
            if (*P->s != ')') return fail(P, P->s, "expected ')' to close %s( at col %d", functions[f].name, col_of(P, open));
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
        if (len == 2 && memcmp(at, "pi", 2) == 0) return add_node(P, at, SLPI_EXPR_PI, -1, -1, 0);
        char alg[32], first[64], last[64];
        slpi_algebra_text(P->alg, alg, sizeof alg);
        slpi_algebra_coord_name(P->alg, 0, first, sizeof first);
        slpi_algebra_coord_name(P->alg, P->alg->dim - 1, last, sizeof last);
        return fail(P, at, "unknown name '%.*s' (%s has %s..%s%s)", (int)(len > 40 ? 40 : len), at,
                    alg, first, last, P->npar ? ", or a param.NAME" : "; no parameters given");
    }
    if (*at == 0) return fail(P, at, "unexpected end of the expression");
    if (*at == ')') return fail(P, at, "unexpected ')'");
    if (isprint((unsigned char)*at))
        return fail(P, at, "unexpected character '%c'", *at);
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
    if (*t == '(') { paren = 1; t++; while (*t == ' ' || *t == '\t') t++; }
    if (*t == '-' || *t == '+') { neg = *t == '-'; t++; while (*t == ' ' || *t == '\t') t++; }
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
        return 0;   /* a^2^3 = a^(2^3): not a literal */
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
    memset(e, 0, sizeof *e);
}

int slpi_expr_parse(slpi_expr *e, const char *key, const char *text, const slpi_algebra *alg,
                    int npar, const slpi_expr_param *par, slpi_error *err)
{
    memset(e, 0, sizeof *e);
    parser P = { .key = key, .text = text, .alg = alg, .npar = npar, .par = par, .s = text,
                 .e = e, .err = err };
    size_t len = strlen(text);
    if (len >= SLPI_EXPR_MAX_TEXT)
        return slpi_error_set(err, SLPI_EINPUT, "%s: %zu characters, over the limit of %d",
                              key, len, SLPI_EXPR_MAX_TEXT - 1);
    e->ncoord = alg->dim;
    blanks(&P);
    if (*P.s == 0) {
        fail(&P, P.s, "empty expression");
    } else if (parse_expr(&P) >= 0) {
        blanks(&P);
        if (*P.s == ')') fail(&P, P.s, "unexpected ')'");
        else if (*P.s) fail(&P, P.s, "expected an operator (+ - * / ^) or the end, found '%c'", *P.s);
    }
    if (P.failed) {
        slpi_expr_free(e);
        return SLPI_EINPUT;
    }
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
        return slpi_error_set(err, SLPI_EINPUT, "%s=%.60s: not a decimal number (digits, '.', exponent; "
                              "an optional sign)", key, text);
    parser P = { .key = key, .text = text, .err = err };
    if (number_value(&P, s, len, v) < 0) return SLPI_EINPUT;
    if (*num == '-') *v = -*v;
    return SLPI_OK;
}

/* ------------------------------------------------------------ whole models */

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

int slpi_model_noise_count(const slpi_problem *p)
{
    int M = 0;
    for (int k = 0; k < SLPI_MODEL_MAX_NOISE; k++)
        if (p->model.noise_H[k][0] || p->model.cb[k + 1].grad) M = k + 1;
    return M;
}

int slpi_model_parse(slpi_model *m, const slpi_problem *p, slpi_error *err)
{
    memset(m, 0, sizeof *m);
    if (!p->model.algebra[0])
        return slpi_error_set(err, SLPI_EINPUT, "system=model needs algebra= (so3 | se3 | so(n) | su(n) | so3^k)");
    int rc = slpi_algebra_parse(&m->alg, "algebra", p->model.algebra, err);
    if (rc) return rc;
    if (!p->model.H[0] && !p->model.cb[0].grad)
        return slpi_error_set(err, SLPI_EINPUT, "system=model needs H= (the Hamiltonian)");
    int M = slpi_model_noise_count(p);
    for (int k = 0; k <= M; k++) {
        const char *text = k ? p->model.noise_H[k - 1] : p->model.H;
        char key[32];
        if (p->model.cb[k].grad && text[0])
            return slpi_error_set(err, SLPI_EINPUT, "%s: given both as an expression and as a callback "
                                  "(docs/models.md#callbacks)", slpi_model_key(key, sizeof key, k));
    }
    for (int k = 0; k < M; k++)
        if (!p->model.noise_H[k][0] && !p->model.cb[k + 1].grad)
            return slpi_error_set(err, SLPI_EINPUT,
                                  "noise_H%d is given but noise_H%d is not: the noise Hamiltonians are numbered 1..M without gaps",
                                  M, k + 1);
    /* a parameter named like a coordinate would never be read (the coordinate wins) */
    slpi_expr_param par[SLPI_MODEL_MAX_PARAMS];
    int used[SLPI_MODEL_MAX_PARAMS] = { 0 };
    for (int i = 0; i < p->model.nparam; i++) {
        const char *name = p->model.param_name[i];
        if (slpi_algebra_coord_index(&m->alg, name, strlen(name)) >= 0)
            return slpi_error_set(err, SLPI_EINPUT, "param.%s: shadowed by the coordinate %s of %s, which the "
                                  "expressions read instead: rename the parameter", name, name, p->model.algebra);
        par[i].name = name;
        par[i].text = p->model.param_text[i];
        par[i].value = p->model.param[i];
        par[i].used = used + i;
    }
    m->M = M;
    for (int k = 0; k <= M; k++) {
        char key[32];
        slpi_model_key(key, sizeof key, k);
        if (p->model.cb[k].grad) {   /* code, not an expression: H[k] stays empty */
            m->callback[k] = 1;
            continue;
        }
        rc = slpi_expr_parse(&m->H[k], key, k ? p->model.noise_H[k - 1] : p->model.H, &m->alg,
                             p->model.nparam, par, err);
        if (rc) {
            slpi_model_free(m);
            return rc;
        }
    }
    for (int i = 0; i < p->model.nparam; i++)   /* a misspelt name would be silently unused */
        if (!used[i]) {
            slpi_model_free(m);
            return slpi_error_set(err, SLPI_EINPUT, "param.%s=%s: no expression uses it (a misspelt name?); "
                                  "remove it or use it (docs/models.md#keys)", par[i].name, par[i].text);
        }
    return SLPI_OK;
}

/* ------------------------------------------------------------ consistency rule */

/* Indices of a coordinate's basis element: so(n) (i, j); su(n) (a, a) or (a, b). */
static void index_pair(const slpi_algebra *a, int i, int *r, int *c)
{
    if (a->kind == SLPI_ALGEBRA_SON) {
        upper_pair(a->n, i, r, c);
    } else if (i < a->n) {
        *r = *c = i;
    } else {
        upper_pair(a->n, (i - a->n) / 2, r, c);
    }
}

int slpi_algebra_commute(const slpi_algebra *a, int i, int j)
{
    if (i == j) return 1;
    switch (a->kind) {
    case SLPI_ALGEBRA_SO3: return 0;
    case SLPI_ALGEBRA_SE3:
        /* [(x, 0), (y, 0)] = (x cross y, 0), [(x, 0), (0, b)] = (0, x cross b), translations commute */
        return (i >= 3 && j >= 3) || i % 3 == j % 3;
    case SLPI_ALGEBRA_SO3K: return i / 3 != j / 3;
    case SLPI_ALGEBRA_SON:
    case SLPI_ALGEBRA_SUN: {
        int r1, c1, r2, c2;
        index_pair(a, i, &r1, &c1);
        index_pair(a, j, &r2, &c2);
        if (a->kind == SLPI_ALGEBRA_SUN && r1 == c1 && r2 == c2) return 1;   /* diagonal */
        return r1 != r2 && r1 != c2 && c1 != r2 && c1 != c2;
    }
    }
    return 0;
}

int slpi_expr_degree(const slpi_expr *e)
{
    int *deg = malloc((size_t)e->n * sizeof *deg);
    if (!deg) return -1;
    for (int i = 0; i < e->n; i++) {
        const slpi_expr_node *n = &e->node[i];
        int a = n->a >= 0 ? deg[n->a] : 0, b = n->b >= 0 ? deg[n->b] : 0;
        if (!e->dep[i]) { deg[i] = 0; continue; }
        switch (n->op) {
        case SLPI_EXPR_COORD: deg[i] = 1; break;
        case SLPI_EXPR_NEG: deg[i] = a; break;
        case SLPI_EXPR_ADD: case SLPI_EXPR_SUB: deg[i] = a < 0 || b < 0 ? -1 : a > b ? a : b; break;
        case SLPI_EXPR_MUL: deg[i] = a < 0 || b < 0 ? -1 : a + b; break;
        case SLPI_EXPR_DIV: deg[i] = e->dep[n->b] ? -1 : a; break;
        case SLPI_EXPR_POWI: deg[i] = a < 0 || n->arg < 0 ? -1 : a * n->arg; break;
        default: deg[i] = -1; break;
        }
        if (deg[i] > 1000) deg[i] = 1000;   /* x^64^... : large is all that matters */
    }
    int r = deg[e->n - 1];
    free(deg);
    return r;
}
