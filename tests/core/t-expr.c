/* t-expr.c — the expression parser of models (core/expr.c, core/expr.h, docs/models.md).
 *
 * Two ways to the same quantity: random expression trees are printed once fully
 * parenthesized and once with the fewest parentheses the grammar's precedence allows;
 * both texts must parse to tapes with the same value (a plain interpreter here walks
 * each tape; it is not the fast path's evaluator) and that value must equal the tree's
 * own recursive evaluation, bit for bit. Fixed cases pin the tape shape (POWI vs POW,
 * unary minus below powers, left association), the algebras' coordinate names and
 * weights, the parameters' binding, and every error message's key, column and caret. */
#include "testutil.h"
#include "core/expr.h"

/* ---- a tape interpreter (binary64, the documented node semantics) */
static double tape_value(const slpi_expr *e, const double *mu)
{
    double *v = malloc((size_t)e->n * sizeof *v);
    for (int i = 0; i < e->n; i++) {
        const slpi_expr_node *n = &e->node[i];
        double a = n->a >= 0 ? v[n->a] : 0, b = n->b >= 0 ? v[n->b] : 0;
        switch (n->op) {
        case SLPI_EXPR_CONST:
            v[i] = e->cval[n->arg];
            break;
        case SLPI_EXPR_COORD:
            v[i] = mu[n->arg];
            break;
        case SLPI_EXPR_PI:
            v[i] = 3.14159265358979323846;
            break;
        case SLPI_EXPR_NEG:
            v[i] = -a;
            break;
        case SLPI_EXPR_ADD:
            v[i] = a + b;
            break;
        case SLPI_EXPR_SUB:
            v[i] = a - b;
            break;
        case SLPI_EXPR_MUL:
            v[i] = a * b;
            break;
        case SLPI_EXPR_DIV:
            v[i] = a / b;
            break;
        case SLPI_EXPR_POWI: {
            double r = 1;
            for (int k = 0; k < abs(n->arg); k++) r *= a;
            v[i] = n->arg < 0 ? 1 / r : r;
            break;
        }
        case SLPI_EXPR_POW:
            v[i] = pow(a, b);
            break;
        case SLPI_EXPR_SQRT:
            v[i] = sqrt(a);
            break;
        case SLPI_EXPR_EXP:
            v[i] = exp(a);
            break;
        case SLPI_EXPR_LOG:
            v[i] = log(a);
            break;
        case SLPI_EXPR_SIN:
            v[i] = sin(a);
            break;
        case SLPI_EXPR_COS:
            v[i] = cos(a);
            break;
        case SLPI_EXPR_TAN:
            v[i] = tan(a);
            break;
        case SLPI_EXPR_ATAN:
            v[i] = atan(a);
            break;
        case SLPI_EXPR_SINH:
            v[i] = sinh(a);
            break;
        case SLPI_EXPR_COSH:
            v[i] = cosh(a);
            break;
        case SLPI_EXPR_TANH:
            v[i] = tanh(a);
            break;
        default:
            v[i] = NAN;
        }
    }
    double r = v[e->n - 1];
    free(v);
    return r;
}

/* ---- random trees */
typedef struct tree {
    int kind; /* 0 leaf coord, 1 leaf const, 2 unary minus, 3 binary (op char), 4 function, 5 powi */
    int coord, powi;
    double c;
    char op;
    int fn;
    struct tree *l, *r;
} tree;

static const char *const fnames[] = { "sqrt", "exp", "log", "sin", "cos", "tan", "atan", "sinh", "cosh", "tanh" };
static const char binops[] = "+-*/";

static tree *gen(int depth)
{
    tree *t = calloc(1, sizeof *t);
    int k = depth <= 0 ? (int)test_rand_int(2) : (int)test_rand_int(6);
    t->kind = k;
    switch (k) {
    case 0:
        t->coord = (int)test_rand_int(3);
        break;
    case 1:
        t->c = (double)(1 + test_rand_int(40)) / 8;
        break;
    case 2:
        t->l = gen(depth - 1);
        break;
    case 3:
        t->op = binops[test_rand_int(4)];
        t->l = gen(depth - 1);
        t->r = gen(depth - 1);
        break;
    case 4:
        t->fn = (int)test_rand_int(10);
        t->l = gen(depth - 1);
        break;
    case 5:
        t->powi = (int)test_rand_int(7) - 3;
        t->l = gen(depth - 1);
        break;
    }
    return t;
}

static double tree_value(const tree *t, const double *mu)
{
    switch (t->kind) {
    case 0:
        return mu[t->coord];
    case 1:
        return t->c;
    case 2:
        return -tree_value(t->l, mu);
    case 3: {
        double a = tree_value(t->l, mu), b = tree_value(t->r, mu);
        return t->op == '+' ? a + b : t->op == '-' ? a - b : t->op == '*' ? a * b : a / b;
    }
    case 4: {
        double a = tree_value(t->l, mu);
        double (*f[])(double) = { sqrt, exp, log, sin, cos, tan, atan, sinh, cosh, tanh };
        return f[t->fn](a);
    }
    default: {
        double a = tree_value(t->l, mu), r = 1;
        for (int k = 0; k < abs(t->powi); k++) r *= a;
        return t->powi < 0 ? 1 / r : r;
    }
    }
}

/* Precedence levels: 1 sum, 2 product, 3 unary, 4 power, 5 atom. */
static int level(const tree *t)
{
    switch (t->kind) {
    case 2:
        return 3;
    case 3:
        return t->op == '+' || t->op == '-' ? 1 : 2;
    case 5:
        return 4;
    default:
        return 5;
    }
}

static void emit(const tree *t, int full, char *buf, size_t n);

/* Child c printed where at least level `need` binds without parentheses. */
static void child(const tree *c, int need, int full, char *buf, size_t n)
{
    if (full || level(c) < need) {
        strncat(buf, "(", n - strlen(buf) - 1);
        emit(c, full, buf, n);
        strncat(buf, ")", n - strlen(buf) - 1);
    } else {
        emit(c, full, buf, n);
    }
}

static void emit(const tree *t, int full, char *buf, size_t n)
{
    char tmp[64];
    switch (t->kind) {
    case 0:
        snprintf(tmp, sizeof tmp, "x%d", t->coord + 1);
        strncat(buf, tmp, n - strlen(buf) - 1);
        return;
    case 1:
        snprintf(tmp, sizeof tmp, "%.17g", t->c);
        strncat(buf, tmp, n - strlen(buf) - 1);
        return;
    case 2:
        strncat(buf, "-", n - strlen(buf) - 1);
        child(t->l, 3, full, buf, n);
        return;
    case 3: {
        int lv = level(t);
        child(t->l, lv, full, buf, n);
        snprintf(tmp, sizeof tmp, " %c ", t->op);
        strncat(buf, tmp, n - strlen(buf) - 1);
        child(t->r, lv + 1, full, buf, n); /* left association: the right operand binds tighter */
        return;
    }
    case 4:
        strncat(buf, fnames[t->fn], n - strlen(buf) - 1);
        strncat(buf, "(", n - strlen(buf) - 1);
        emit(t->l, full, buf, n);
        strncat(buf, ")", n - strlen(buf) - 1);
        return;
    default:
        child(t->l, 5, full, buf, n);
        snprintf(tmp, sizeof tmp, full ? "^(%d)" : "^%d", t->powi);
        strncat(buf, tmp, n - strlen(buf) - 1);
        return;
    }
}

static void tree_free(tree *t)
{
    if (!t) return;
    tree_free(t->l);
    tree_free(t->r);
    free(t);
}

static int same(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static slpi_algebra so3 = { SLPI_ALGEBRA_SO3, 3, 3 };

/* Parse must fail with a message that starts with `head` and carries a caret under col. */
static void expect_error(const char *key, const char *text, const char *head, int col)
{
    slpi_expr e;
    slpi_error err = { 0 };
    slpi_expr_param par[1] = { { "a", "0.5", 0.5, NULL } };
    int rc = slpi_expr_parse(&e, key, text, &so3, 1, par, &err);
    TEST_CHECKF(rc == SLPI_EINPUT, "'%s' parsed (rc %d)", text, rc);
    TEST_CHECKF(strncmp(err.msg, head, strlen(head)) == 0, "'%s': message '%s', expected '%s...'", text, err.msg, head);
    if (col > 0 && strlen(text) < 40) {
        /* the caret line: "  " + (col-1) blanks + '^' */
        const char *caret = strrchr(err.msg, '\n');
        TEST_CHECKF(caret && (int)strlen(caret) == 1 + 2 + col && caret[strlen(caret) - 1] == '^',
                    "'%s': caret line '%s' not under col %d", text, caret ? caret + 1 : "(none)", col);
    }
    slpi_expr_free(&e);
}

/* Integer exponents one past the limit, refused, and at the limit, +-64 (docs/models.md:
 * |n| <= 64): one POWI node, exact at x1 = 2. */
static void powi_at_the_limit(void)
{
    expect_error("H", "x1^-65", "H: col 4: integer exponent beyond +-64", 4);
    expect_error("H", "x1^(-65)", "H: col 5: integer exponent beyond +-64", 5);
    static const struct {
        const char *text;
        int n;
    } at[] = { { "x1^64", 64 }, { "x1^-64", -64 }, { "x1^(-64)", -64 }, { "x1^+64", 64 } };
    const double mu[3] = { 2, 1, 1 };
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        slpi_expr e;
        slpi_error err = { 0 };
        int rc = slpi_expr_parse(&e, "H", at[i].text, &so3, 0, NULL, &err);
        TEST_CHECKF(rc == 0, "'%s' at the limit refused: %s", at[i].text, err.msg);
        if (rc) continue;
        TEST_CHECKF(e.n == 2 && e.node[1].op == SLPI_EXPR_POWI && e.node[1].arg == at[i].n &&
                        tape_value(&e, mu) == ldexp(1, at[i].n),
                    "'%s': %d nodes, value %a", at[i].text, e.n, tape_value(&e, mu));
        slpi_expr_free(&e);
    }
}

static const char *ops_of(const slpi_expr *e, char *buf, size_t n)
{
    buf[0] = 0;
    for (int i = 0; i < e->n; i++) {
        strncat(buf, slpi_expr_op_name(e->node[i].op), n - strlen(buf) - 1);
        if (i + 1 < e->n) strncat(buf, " ", n - strlen(buf) - 1);
    }
    return buf;
}

static void expect_ops(const char *text, const char *ops)
{
    slpi_expr e;
    slpi_error err = { 0 };
    slpi_expr_param par[1] = { { "a", "0.1", 0.1, NULL } };
    char buf[512];
    int rc = slpi_expr_parse(&e, "H", text, &so3, 1, par, &err);
    TEST_CHECKF(rc == 0, "'%s': %s", text, err.msg);
    if (rc) return;
    TEST_CHECKF(strcmp(ops_of(&e, buf, sizeof buf), ops) == 0, "'%s': tape '%s', expected '%s'", text, buf, ops);
    slpi_expr_free(&e);
}

/* ---- tape shapes */
static void tape_shapes(void)
{
    expect_ops("x1 - x2 - x3", "coord coord sub coord sub");
    expect_ops("x1 / x2 * x3", "coord coord div coord mul");
    expect_ops("-x1^2", "coord powi neg");
    expect_ops("x1^-2", "coord powi");
    expect_ops("x1^(-3)", "coord powi");
    expect_ops("x1^( -3 )", "coord powi"); /* blanks inside the parenthesis too */
    expect_ops("x1^(\t2)", "coord powi");
    expect_ops("x1^2.0", "coord const pow");
    expect_ops("x1^0.5", "coord const pow");
    expect_ops("x1^a", "coord const pow");
    expect_ops("x1^2^3", "coord const powi pow");
    expect_ops("x1^(2 + 1)", "coord const const add pow"); /* not the literal 2: the parenthesis holds more */
    expect_ops("2*pi*log(x1)", "const pi mul coord log mul");
    expect_ops("+x1", "coord");
    slpi_expr e;
    slpi_error err = { 0 };
    slpi_expr_param par[1] = { { "a", "0.1", 0.1, NULL } };
    TEST_CHECK(slpi_expr_parse(&e, "H", "x1^-2 + a*x3 + 1e-3", &so3, 1, par, &err) == 0);
    TEST_CHECK(e.n == 8 && e.node[1].op == SLPI_EXPR_POWI && e.node[1].arg == -2);
    TEST_CHECK(e.nconst == 2 && strcmp(e.ctext[0], "0.1") == 0 && strcmp(e.ctext[1], "1e-3") == 0 && e.cval[1] == 1e-3);
    TEST_CHECK(e.node[3].op == SLPI_EXPR_COORD && e.node[3].arg == 2 && e.node[3].col == 11);
    TEST_CHECK(e.dep[0] && !e.dep[2] && e.dep[4] && e.dep[5] && !e.dep[6] && e.dep[7]);
    for (int i = 0; i < e.n; i++) TEST_CHECKF(e.node[i].a < i && e.node[i].b < i, "node %d reads a later node", i);
    slpi_expr_free(&e);
}

/* ---- algebras: names round-trip, coordinates named as the built-in columns */
static void algebras(void)
{
    const char *texts[] = { "so3", "se3", "so(4)", "su(3)", "so3^4", "so(64)", "su(2)" };
    int dims[] = { 3, 6, 6, 9, 12, 2016, 4 };
    for (int t = 0; t < 7; t++) {
        slpi_algebra a;
        slpi_error err = { 0 };
        char buf[64];
        TEST_CHECKF(slpi_algebra_parse(&a, "algebra", texts[t], &err) == 0, "%s: %s", texts[t], err.msg);
        TEST_CHECKF(a.dim == dims[t], "%s: dim %d", texts[t], a.dim);
        slpi_algebra_text(&a, buf, sizeof buf);
        TEST_CHECKF(strcmp(buf, texts[t]) == 0, "%s printed as %s", texts[t], buf);
        for (int i = 0; i < a.dim; i++) {
            slpi_algebra_coord_name(&a, i, buf, sizeof buf);
            TEST_CHECKF(slpi_algebra_coord_index(&a, buf, strlen(buf)) == i, "%s coord %d (%s)", texts[t], i, buf);
        }
    }
    const char *bad[] = { "so(2)", "so(65)", "su(1)", "su(257)", "so3^1", "so(4)x", "so( 4)", "SO3", "so3^", "" };
    for (int t = 0; t < 10; t++) {
        slpi_algebra a;
        slpi_error err = { 0 };
        TEST_CHECKF(slpi_algebra_parse(&a, "algebra", bad[t], &err) == SLPI_EINPUT &&
                        strncmp(err.msg, "algebra=", 8) == 0,
                    "'%s' accepted or message '%s'", bad[t], err.msg);
    }
    slpi_algebra a;
    slpi_error err = { 0 };
    char buf[64];
    slpi_algebra_parse(&a, "algebra", "so(4)", &err);
    slpi_algebra_coord_name(&a, 3, buf, sizeof buf);
    TEST_CHECK(strcmp(buf, "X_2_3") == 0 && slpi_algebra_weight(&a, 0) == 1);
    slpi_algebra_parse(&a, "algebra", "su(3)", &err);
    slpi_algebra_coord_name(&a, 4, buf, sizeof buf);
    TEST_CHECK(strcmp(buf, "ImX_0_1") == 0 && slpi_algebra_weight(&a, 2) == 1 && slpi_algebra_weight(&a, 3) == 2);
    slpi_algebra_parse(&a, "algebra", "se3", &err);
    slpi_algebra_coord_name(&a, 4, buf, sizeof buf);
    TEST_CHECK(strcmp(buf, "gamma2") == 0 && slpi_algebra_weight(&a, 4) == 1);
    slpi_algebra_parse(&a, "algebra", "so3^2", &err);
    slpi_algebra_coord_name(&a, 4, buf, sizeof buf);
    TEST_CHECK(strcmp(buf, "x2_2") == 0 && slpi_algebra_weight(&a, 4) == 1);
}

/* ---- errors: key, column, caret */
static void parse_errors(void)
{
    expect_error("H", "x1^2 + x2^2 + x4", "H: col 15: unknown name 'x4' (so3 has x1..x3", 15);
    expect_error("noise_H2", "foo(x1)", "noise_H2: col 1: unknown function 'foo'", 1);
    expect_error("H", "atan(x1, x2)", "H: col 8: wrong arity: atan takes 1 argument", 8);
    expect_error("H", "sqrt()", "H: col 6: sqrt takes 1 argument, got none", 6);
    expect_error("H", "sqrt x1", "H: col 1: function 'sqrt' needs an argument", 1);
    expect_error("H", "x1 + 1e999", "H: col 6: non-finite constant '1e999'", 6);
    expect_error("H", "x1 + 1e-310", "H: col 6: constant '1e-310' underflows to a subnormal", 6);
    expect_error("H", "x1 + 1e-400", "H: col 6: constant '1e-400' underflows to 0", 6);
    expect_error("H", "x1^65", "H: col 4: integer exponent beyond +-64", 4);
    powi_at_the_limit();
    expect_error("H", "(x1 + x2", "H: col 9: expected ')' to close the '(' at col 1", 9);
    expect_error("H", "x1 + x2)", "H: col 8: unexpected ')'", 8);
    expect_error("H", "x1 + )", "H: col 6: unexpected ')'", 6); /* where an operand is due */
    expect_error("H", "x1 x2", "H: col 4: expected an operator", 4);
    expect_error("H", "x1 +", "H: col 5: unexpected end of the expression", 5);
    expect_error("H", "", "H: col 1: empty expression", 1);
    expect_error("H", "x1 # 2", "H: col 4: expected an operator (+ - * / ^) or the end, found '#'", 4);
    expect_error("H", "x1 + #", "H: col 6: unexpected character '#'", 6);
    expect_error("H", "x1 + \x01", "H: col 6: unexpected byte 0x01", 6);
}

/* ---- the limits: nesting depth, text length, node count */
static void size_limits(void)
{
    char deep[300] = "";
    for (int i = 0; i < 70; i++) strcat(deep, "(");
    strcat(deep, "x1");
    for (int i = 0; i < 70; i++) strcat(deep, ")");
    expect_error("H", deep, "H: col 65: nested deeper than 64", 0);
    char *big = malloc(SLPI_EXPR_MAX_TEXT + 8);
    memset(big, ' ', SLPI_EXPR_MAX_TEXT + 4);
    big[0] = 'x';
    big[1] = '1';
    big[SLPI_EXPR_MAX_TEXT + 4] = 0;
    expect_error("H", big, "H: 4100 characters, over the limit of 4095", 0);
    /* 1500 terms "1+1+...": 2999 nodes, over the node limit within the text limit */
    int pos = 0;
    for (int i = 0; i < 1500; i++) pos += sprintf(big + pos, i ? "+1" : "1");
    slpi_expr e;
    slpi_error err = { 0 };
    TEST_CHECKF(slpi_expr_parse(&e, "H", big, &so3, 0, NULL, &err) == SLPI_EINPUT &&
                    strncmp(err.msg, "H: col 2048: expression has more than 2048 nodes", 48) == 0,
                "%s", err.msg);
    /* 1024 terms: 2047 nodes, within the limit */
    big[2047] = 0;
    TEST_CHECKF(slpi_expr_parse(&e, "H", big, &so3, 0, NULL, &err) == 0 && e.n == 2047, "%s", err.msg);
    slpi_expr_free(&e);
    free(big);
}

/* ---- random trees: minimal vs full parentheses vs the tree itself */
static void random_trees(void)
{
    long iters = test_iters(2000);
    for (long it = 0; it < iters; it++) {
        tree *t = gen(1 + (int)test_rand_int(5));
        char full[8192] = "", minimal[8192] = "";
        emit(t, 1, full, sizeof full);
        emit(t, 0, minimal, sizeof minimal);
        slpi_expr ef, em;
        slpi_error err = { 0 };
        int rf = slpi_expr_parse(&ef, "H", full, &so3, 0, NULL, &err);
        TEST_CHECKF(rf == 0, "'%s': %s", full, err.msg);
        int rm = slpi_expr_parse(&em, "H", minimal, &so3, 0, NULL, &err);
        TEST_CHECKF(rm == 0, "'%s': %s", minimal, err.msg);
        if (rf == 0 && rm == 0) {
            for (int s = 0; s < 3; s++) {
                double mu[3];
                for (int i = 0; i < 3; i++) mu[i] = test_rand_uniform(-2, 2);
                double vt = tree_value(t, mu), vf = tape_value(&ef, mu), vm = tape_value(&em, mu);
                TEST_CHECKF(same(vt, vf) && same(vt, vm), "'%s' / '%s': tree %.17g, full %.17g, minimal %.17g", full,
                            minimal, vt, vf, vm);
            }
            TEST_CHECKF(ef.n == em.n, "'%s' %d nodes, '%s' %d", full, ef.n, minimal, em.n);
        }
        if (rf == 0) slpi_expr_free(&ef);
        if (rm == 0) slpi_expr_free(&em);
        tree_free(t);
    }
}

int main(void)
{
    test_start("t-expr", 20261123);
    tape_shapes();
    algebras();
    parse_errors();
    size_limits();
    random_trees();
    TEST_END();
}
