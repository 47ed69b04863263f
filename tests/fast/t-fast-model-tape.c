/* t-fast-model-tape.c — shared subtrees of a model's tape on the double path
 * (fast/model-tape.c; docs/models.md#speed): a tape has as many nodes as its Hamiltonians
 * have distinct subtrees (counted here from the parsed tapes), and H with a repeated
 * subexpression gives the gen, dgen and gen_sum of the same H with the repeats written
 * apart ((x_j*1) for x_j: the same values, nothing shared), within 64 u (the shared node's
 * adjoints are summed in another order); two equal noise Hamiltonians share their root in
 * the fused tape. A product that repeats a factor compiles to the tape of its powers
 * (q*x1*x1*x1*x1 to q*x1^4's), one that repeats none to its own. */
#include "fastutil.h"
#include "core/expr.h"
#include "fast/model-tape.h"

#define U 0x1p-53

/* ---------------------------------------------------------------- shared subtrees */

/* The distinct subtrees of H_0..H_M together (keyed by operation, argument or constant
 * value, and the keys of their operands; s*s as s^2, as the tape writes a product that
 * repeats a factor), counted from the parsed tapes; *n0 those of H_0. */
static int distinct_subtrees(const slpi_model *m, int *n0)
{
    enum { CAP = 4096 };
    static long key[CAP][4];
    static int id[CAP];
    int nkey = 0;
    *n0 = 0;
    for (int k = 0; k <= m->M; k++) {
        const slpi_expr *e = &m->H[k];
        for (int i = 0; i < e->n && i < CAP; i++) {
            const slpi_expr_node *nd = &e->node[i];
            long t[4] = { nd->op, nd->a >= 0 ? id[nd->a] : -1, nd->b >= 0 ? id[nd->b] : -1, nd->arg };
            if (nd->op == SLPI_EXPR_MUL && t[1] == t[2] && e->dep[nd->a]) { /* s*s is s^2 (powers) */
                t[0] = SLPI_EXPR_POWI;
                t[2] = -1;
                t[3] = 2;
            }
            if (nd->op == SLPI_EXPR_CONST) memcpy(&t[3], &e->cval[nd->arg], sizeof(double));
            int j = 0;
            while (j < nkey && memcmp(key[j], t, sizeof t)) j++;
            if (j == nkey && nkey < CAP) memcpy(key[nkey++], t, sizeof t);
            id[i] = j;
        }
        if (k == 0) *n0 = nkey;
    }
    return nkey;
}

/* text with '@' replaced by (s); with plain == 0, every occurrence but the first has each
 * coordinate x_j written (x_j*1): the same values bit for bit, no subtree alike */
static void expand(char *out, size_t n, const char *text, const char *s, int plain)
{
    size_t o = 0;
    int seen = 0;
    for (const char *c = text; *c && o + 64 < n; c++) {
        if (*c != '@') {
            out[o++] = *c;
            continue;
        }
        out[o++] = '(';
        for (const char *d = s; *d && o + 16 < n; d++) {
            if (!plain && seen && d[0] == 'x' && d[1] >= '1' && d[1] <= '3') {
                o += (size_t)snprintf(out + o, n - o, "(x%c*1)", d[1]);
                d++;
            } else {
                out[o++] = *d;
            }
        }
        out[o++] = ')';
        seen = 1;
    }
    out[o] = 0;
}

static slpi_fast *shared_model(const char *H, const char *N, const char *N2, slpi_model *m)
{
    slpi_problem p;
    slpi_error err = { 0 };
    slpi_problem_init(&p, SLPI_SYS_MODEL, SLPI_SCHEME_TMK);
    int rc = slpi_problem_set(&p, "algebra", "so3", &err);
    if (!rc) rc = slpi_problem_set(&p, "H", H, &err);
    if (!rc) rc = slpi_problem_set(&p, "noise_H1", N, &err);
    if (!rc) rc = slpi_problem_set(&p, "noise_H2", N2, &err);
    if (!rc) rc = slpi_problem_set(&p, "x0", "1,0,0", &err);
    slpi_fast *f = NULL;
    if (!rc) rc = slpi_fast_create(&f, &p, &err);
    if (!rc && m) rc = slpi_model_parse(m, &p, &err);
    TEST_CHECKF(rc == 0, "H=%s noise_H=%s: %s", H, N, err.msg);
    return rc ? NULL : f;
}

static double max_diff(const double *a, const double *b, int n)
{
    double e = 0;
    for (int i = 0; i < n; i++) e = fmax(e, fabs(a[i] - b[i]));
    return e;
}

static void sharing(long iters)
{
    static const char *const S[] = { "sqrt(x1^2 + x2^2 + 1)", "x1*x2 - x3/3", "exp(x3/3)*x1", "cos(x1 + 2*x2)" };
    static const char *const T[] = { "@ + @*@", "log(1 + @^2) - @/(2 + @)", "@*x1 + sin(@)", "@^3 - x2*@" };
    for (long it = 0; it < iters; it++)
        for (int c = 0; c < 16; c++) {
            const char *s = S[c % 4], *t = T[c / 4];
            char Hs[512], Hd[512], Ns[256], Nd[256], Nd2[300];
            expand(Hs, sizeof Hs, t, s, 1);
            expand(Hd, sizeof Hd, t, s, 0);
            expand(Ns, sizeof Ns, "@^2/2 + x2*@", s, 1);
            expand(Nd, sizeof Nd, "@^2/2 + x2*@", s, 0);
            snprintf(Nd2, sizeof Nd2, "(%s)*1", Nd); /* noise_H2 = noise_H1, another tree */
            slpi_model m;
            slpi_fast *fs = shared_model(Hs, Ns, Ns, &m), *fd = shared_model(Hd, Nd, Nd2, NULL);
            if (!fs || !fd) {
                slpi_fast_free(fs);
                slpi_fast_free(fd);
                continue;
            }
            if (it == 0) { /* the tapes' sizes */
                slpi_fast_tapes tp = { 0 };
                slpi_error err = { 0 };
                int n0 = 0, n = distinct_subtrees(&m, &n0);
                TEST_CHECKF(slpi_fast_tapes_build(&tp, &m, &err) == SLPI_OK, "%s", err.msg);
                TEST_CHECKF(tp.t[0].n == n0 && tp.all.n == n && tp.all.root[1] == tp.all.root[2],
                            "H=%s: tapes of %d and %d nodes, %d and %d distinct subtrees", Hs, tp.t[0].n, tp.all.n, n0,
                            n);
                TEST_CHECKF(tp.t[0].n < m.H[0].n, "H=%s: nothing shared", Hs);
                slpi_fast_tapes_clear(&tp);
            }
            slpi_model_free(&m);
            /* the same derivatives, shared or not */
            double mu[3], w[3], delta[3], a[3][3], b[3][3], e[3] = { 0 }, scale[3] = { 0 };
            for (int i = 0; i < 3; i++) {
                mu[i] = test_rand_uniform(0.2, 0.9);
                w[i] = fu_normal();
                delta[i] = fu_normal();
            }
            fs->sys.gen(&fs->sys, 0, a[0], mu);
            fd->sys.gen(&fd->sys, 0, b[0], mu);
            fs->sys.dgen(&fs->sys, 0, a[1], mu, w);
            fd->sys.dgen(&fd->sys, 0, b[1], mu, w);
            fs->sys.gen_sum(&fs->sys, a[2], delta, mu);
            fd->sys.gen_sum(&fd->sys, b[2], delta, mu);
            for (int q = 0; q < 3; q++) e[q] = max_diff(a[q], b[q], 3);
            for (int k = 0; k < 3; k++) {
                double t[2];
                fu_term_scale(fd, k, mu, w, t);
                if (k == 0) {
                    scale[0] = t[0];
                    scale[1] = t[1];
                }
                scale[2] += fabs(delta[k]) * t[0];
            }
            TEST_CHECKF(e[0] <= 64 * U * scale[0], "H=%s: gen shared vs not %.3g (terms %.3g)", Hs, e[0], scale[0]);
            TEST_CHECKF(e[1] <= 64 * U * scale[1], "H=%s: dgen shared vs not %.3g (terms %.3g)", Hs, e[1], scale[1]);
            TEST_CHECKF(e[2] <= 64 * U * scale[2],
                        "H=%s, noise_H1 = noise_H2 = %s: gen_sum shared vs not %.3g "
                        "(terms %.3g)",
                        Hs, Ns, e[2], scale[2]);
            slpi_fast_free(fs);
            slpi_fast_free(fd);
        }
}

/* ---------------------------------------------------------------- products as powers */

/* H's tape (the first of its model's tapes) into *tp, from the parse of H over so3 (with
 * q = 0.01 when H reads q); 0 on success. With exact, the tape's value at random points
 * must be H's as written (slpi_fast_expr_value), bit for bit. */
static int tape_of(slpi_fast_tapes *tp, const char *H, int exact)
{
    slpi_problem p;
    slpi_error err = { 0 };
    slpi_model m;
    slpi_problem_init(&p, SLPI_SYS_MODEL, SLPI_SCHEME_TMK);
    int rc = slpi_problem_set(&p, "algebra", "so3", &err);
    if (!rc && strchr(H, 'q')) rc = slpi_problem_set(&p, "param.q", "0.01", &err);
    if (!rc) rc = slpi_problem_set(&p, "H", H, &err);
    if (!rc) rc = slpi_problem_set(&p, "x0", "1,0,0", &err);
    if (!rc) rc = slpi_model_parse(&m, &p, &err);
    memset(tp, 0, sizeof *tp);
    if (!rc) {
        rc = slpi_fast_tapes_build(tp, &m, &err);
        for (int r = 0; r < 8 && !rc && exact; r++) { /* the tape's value is the text's */
            double mu[3] = { test_rand_uniform(-2, 2), test_rand_uniform(-2, 2), test_rand_uniform(-2, 2) };
            double t = test_rand_uniform(0, 2), v = slpi_fast_expr_value(&m.H[0], mu, t);
            slpi_fast_tape_set_time(&tp->t[0], t);
            slpi_fast_tape_forward(&tp->t[0], mu, NULL);
            TEST_CHECKF(memcmp(&tp->t[0].v[tp->t[0].root[0]], &v, sizeof v) == 0,
                        "H=%s at (%a, %a, %a): %a, as written %a", H, mu[0], mu[1], mu[2], tp->t[0].v[tp->t[0].root[0]],
                        v);
        }
        slpi_model_free(&m);
    }
    TEST_CHECKF(rc == 0, "H=%s: %s", H, err.msg);
    return rc;
}

/* 1 when node i of tape a and node j of tape b are the same subtree (operation, argument, a
 * constant's value, operands alike in order, or swapped in a sum or a product: the same
 * operations) */
static int same_subtree(const slpi_fast_tape *a, int i, const slpi_fast_tape *b, int j)
{
    const slpi_expr_node *x = &a->node[i], *y = &b->node[j];
    if (x->op != y->op || (x->a < 0) != (y->a < 0) || (x->b < 0) != (y->b < 0)) return 0;
    if (x->op == SLPI_EXPR_CONST ? a->v[i] != b->v[j] : x->arg != y->arg) return 0;
    if ((x->a < 0 || same_subtree(a, x->a, b, y->a)) && (x->b < 0 || same_subtree(a, x->b, b, y->b))) return 1;
    return (x->op == SLPI_EXPR_ADD || x->op == SLPI_EXPR_MUL) && same_subtree(a, x->a, b, y->b) &&
        same_subtree(a, x->b, b, y->a);
}

/* 1 when the tapes have as many nodes and their roots are the same subtree */
static int same_tape(const slpi_fast_tape *a, const slpi_fast_tape *b)
{
    return a->n == b->n && same_subtree(a, a->root[0], b, b->root[0]);
}

/* A product that repeats a factor compiles to the product of its powers, node for node
 * the tape of that product written so (fast/model-share.c), a shared power x^n counting
 * as x n times ((x*x)*(x*x) is x^4), up to the order of a product's operands; one that
 * repeats none, or repeats only a constant, keeps its written tape (as many nodes as
 * distinct subtrees, b*a one node with a*b) and its value bit for bit; x*x and x*x*x keep
 * their values too (one rounding each way round; x*x*x*x need not, nor a product whose
 * factors move). */
static void powers(void)
{
    enum { NS = 7 };
    static const char *const same[][NS] = {
        { "q*x1^4", "q*x1*x1*x1*x1", "q*x1^2*x1^2", "q*(x1*x1)*x1*x1", "q*(x1*x1)*(x1*x1)", "(x1*x1)*(x1*x1)*q",
          "x1*x1*q*x1*x1" },
        { "x1^2*x2 + x3", "x1*x2*x1 + x3", "x1*(x2*x1) + x3", "x1*x2*x1^1 + x3", "x3 + x1*x2*x1", "x2*x1^2 + x3",
          "x3 + x2*(x1*x1)" },
        { "sin(x2)^3*x3", "sin(x2)*x3*sin(x2)^2", "sin(x2)*sin(x2)*x3*sin(x2)", "(sin(x2)*x3)*(sin(x2)*sin(x2))",
          "(sin(x2)*sin(x2))*(x3*sin(x2))", "x3*sin(x2)^3", "sin(x2)^2*sin(x2)*x3" },
        { "x1^2*t^2", "x1*t*x1*t", "x1*t^2*x1", "x1*t*t*x1", "t*x1*x1*t", "(x1*x1)*(t*t)", "t^2*x1^2" },
    };
    for (size_t c = 0; c < sizeof same / sizeof same[0]; c++) {
        slpi_fast_tapes ref;
        if (tape_of(&ref, same[c][0], 0)) continue;
        for (int j = 1; j < NS; j++) {
            slpi_fast_tapes tp;
            if (tape_of(&tp, same[c][j], 0)) continue;
            TEST_CHECKF(same_tape(&tp.t[0], &ref.t[0]), "H=%s: a tape of %d nodes, not H=%s's %d", same[c][j],
                        tp.t[0].n, same[c][0], ref.t[0].n);
            slpi_fast_tapes_clear(&tp);
        }
        slpi_fast_tapes_clear(&ref);
    }
    static const struct {
        const char *H;
        int n, pw; /* nodes and powers of its tape */
    } kept[] = { { "2*x1*2", 4, 0 },         { "x1*(x2*x3)", 5, 0 },          { "x1*x2^3*x3", 6, 1 },
                 { "x1*x2 + x2*x1", 4, 0 },  { "(x1 + x2)*(x2 + x1)", 4, 1 }, { "x1^2*x2 + x2*x1^2", 5, 1 },
                 { "x1*x2^2 + x2^2", 5, 1 }, { "(x1*t)*(t*x1)", 4, 1 } };
    for (size_t c = 0; c < sizeof kept / sizeof kept[0]; c++) {
        slpi_fast_tapes tp;
        if (tape_of(&tp, kept[c].H, 1)) continue;
        int pw = 0;
        for (int i = 0; i < tp.t[0].n; i++) pw += tp.t[0].node[i].op == SLPI_EXPR_POWI;
        TEST_CHECKF(tp.t[0].n == kept[c].n && pw == kept[c].pw, "H=%s: a tape of %d nodes, %d powers, not %d and %d",
                    kept[c].H, tp.t[0].n, pw, kept[c].n, kept[c].pw);
        slpi_fast_tapes_clear(&tp);
    }
    static const char *const same_value[] = { "x1*x1", "x1*x1*x1 + x2", "sin(x2)*sin(x2)*sin(x2)",
                                              "x1*x1 + x3*x3*x3*x2" };
    for (size_t c = 0; c < sizeof same_value / sizeof same_value[0]; c++) { /* rewritten, same rounding */
        slpi_fast_tapes tp;
        if (tape_of(&tp, same_value[c], 1) == 0) slpi_fast_tapes_clear(&tp);
    }
}

int main(void)
{
    test_start("t-fast-model-tape", 424242);
    sharing(test_iters(20));
    powers();
    TEST_END();
}
