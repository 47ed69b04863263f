/* t-fast-model-tape.c — shared subtrees of a model's tape on the double path
 * (fast/model-tape.c; docs/models.md#speed): a tape has as many nodes as its Hamiltonians
 * have distinct subtrees (counted here from the parsed tapes), and H with a repeated
 * subexpression gives the gen, dgen and gen_sum of the same H with the repeats written
 * apart ((x_j*1) for x_j: the same values, nothing shared), within 64 u (the shared node's
 * adjoints are summed in another order); two equal noise Hamiltonians share their root in
 * the fused tape. */
#include "fastutil.h"
#include "core/expr.h"
#include "fast/model-tape.h"

#define U 0x1p-53

/* ---------------------------------------------------------------- shared subtrees */

/* The distinct subtrees of H_0..H_M together (keyed by operation, argument or constant
 * value, and the keys of their operands), counted from the parsed tapes; *n0 those of H_0. */
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

int main(void)
{
    test_start("t-fast-model-tape", 424242);
    sharing(test_iters(20));
    TEST_END();
}
