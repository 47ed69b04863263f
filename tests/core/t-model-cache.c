/* t-model-cache.c — a model is parsed once per problem (core/model.c, slpi_model_acquire;
 * docs/models.md#keys): validation, the Lie-Euler rule and both paths share one compiled
 * model, looked up by content.
 *  - The count: every model file of models/ under every scheme it admits (isomp with update=comm
 *    and cay, rkmk-le where the rule admits it), with H given a fresh constant so that the
 *    content is new: building the problem, a run on the double path and a run on the
 *    certified path together parse the model exactly once (slpi_model_parse_count); a
 *    copy of the problem run again parses it zero times.
 *  - The content: random models drawn from a small pool (algebras, expressions,
 *    parameter texts, noise Hamiltonians given as text, as a callback or not at all, so
 *    that contents collide often): the shared model equals a fresh parse of the same
 *    problem node by node, constant by constant (the same quantity two ways), two problems
 *    share a model only when their fresh parses are identical, and a refused model is
 *    refused again with the same message (refusals are not kept). */
#include <dirent.h>

#include "core/problem-struct.h"
#include "core/expr.h"
#include "testutil.h"

static int same_expr(const slpi_expr *a, const slpi_expr *b)
{
    if (a->n != b->n || a->nconst != b->nconst || a->ncoord != b->ncoord) return 0;
    for (int i = 0; i < a->n; i++) {
        const slpi_expr_node *x = &a->node[i], *y = &b->node[i];
        if (x->op != y->op || x->a != y->a || x->b != y->b || x->arg != y->arg || x->col != y->col ||
            a->dep[i] != b->dep[i])
            return 0;
    }
    for (int c = 0; c < a->nconst; c++)
        if (strcmp(a->ctext[c], b->ctext[c]) || memcmp(&a->cval[c], &b->cval[c], sizeof(double)))
            return 0;
    return 1;
}

static int same_model(const slpi_model *a, const slpi_model *b)
{
    if (a->alg.kind != b->alg.kind || a->alg.n != b->alg.n || a->alg.dim != b->alg.dim || a->M != b->M)
        return 0;
    for (int k = 0; k <= a->M; k++)
        if (a->callback[k] != b->callback[k] || !same_expr(&a->H[k], &b->H[k])) return 0;
    return 1;
}

/* ------------------------------------------------------------ the count */

static const char *const schemes[][2] = {
    { "tmk", "" }, { "rkmk-heun", "" }, { "rkmk-le", "" }, { "isomp", "comm" }, { "isomp", "cay" },
    { "svi", "" }, { "im-direct", "" }, { "trap-direct", "" },
};

/* Build models/file under the scheme with H + c; 0 when admitted. */
static int build(slpi_problem *p, const char *file, int s, const char *c, slpi_error *err)
{
    char path[300], H[SLPI_EXPR_MAX_TEXT + 64];
    snprintf(path, sizeof path, "models/%s", file);
    char *keys[] = { "scheme", "steps", "update" }, *vals[] = { (char *)schemes[s][0], "2", (char *)schemes[s][1] };
    if (slpi_problem_build(p, NULL, path, schemes[s][1][0] ? 3 : 2, keys, vals, NULL, err) != SLPI_OK) return -1;
    if (!p->model.H[0]) return -1;   /* H as code: not a file's */
    snprintf(H, sizeof H, "(%s) + %s", p->model.H, c);
    if (strlen(H) >= SLPI_EXPR_MAX_TEXT) return -1;
    if (slpi_problem_set(p, "H", H, err) != SLPI_OK) return -1;
    return slpi_problem_finish(p, err) == SLPI_OK ? 0 : -1;
}

static void count_parses(void)
{
    DIR *d = opendir("models");
    TEST_CHECKF(d != NULL, "models/ not found (run from the source tree)");
    if (!d) return;
    struct dirent *de;
    int problems = 0, le = 0;
    FILE *sink = fopen("/dev/null", "w");
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 6 || strcmp(de->d_name + len - 5, ".slpi")) continue;
        for (int s = 0; s < (int)(sizeof schemes / sizeof schemes[0]); s++) {
            static slpi_problem p, q;
            slpi_error err = { 0, "" };
            char c[40];
            snprintf(c, sizeof c, "%d.%06d", (int)test_rand_int(1000), (int)test_rand_int(1000000));
            long n0 = slpi_model_parse_count();
            if (build(&p, de->d_name, s, c, &err) != 0) continue;   /* a scheme the model refuses */
            slpi_run_result r;
            p.steps = 2;
            int rf = slpi_run(&p, slpi_fast_path(), sink, 0, NULL, &r, &err);
            p.steps = 1;
            int rr = slpi_run(&p, slpi_ref_path(), sink, 0, NULL, &r, &err);
            long n1 = slpi_model_parse_count();
            TEST_CHECKF(rf == SLPI_OK && rr == SLPI_OK, "%s %s %s: runs failed: %s", de->d_name, schemes[s][0],
                        schemes[s][1], err.msg);
            TEST_CHECKF(n1 - n0 == 1, "%s scheme=%s %s: parsed %ld times (once per problem)", de->d_name,
                        schemes[s][0], schemes[s][1], n1 - n0);
            q = p;
            rf = slpi_run(&q, slpi_fast_path(), sink, 0, NULL, &r, &err);
            TEST_CHECKF(rf == SLPI_OK && slpi_model_parse_count() == n1, "%s scheme=%s: a copy of the problem "
                        "parsed %ld times (0: the same content)", de->d_name, schemes[s][0],
                        slpi_model_parse_count() - n1);
            problems++;
            le += !strcmp(schemes[s][0], "rkmk-le");
        }
    }
    closedir(d);
    fclose(sink);
    printf("t-model-cache: %d problems (%d rkmk-le), each parsed once over validation, both paths' "
           "runs and the Lie-Euler rule\n", problems, le);
    TEST_CHECKF(problems >= 40 && le >= 3, "too few problems admitted (%d, rkmk-le %d): the reader is broken",
                problems, le);
}

/* ------------------------------------------------------------ the content */

static int dummy_grad(double *dH, const double *mu, int dim, void *u)
{
    (void)u;
    for (int i = 0; i < dim; i++) dH[i] = mu[i];
    return 0;
}

static int dummy_hvp(double *Hw, const double *mu, const double *w, int dim, void *u)
{
    (void)u; (void)mu;
    for (int i = 0; i < dim; i++) Hw[i] = w[i];
    return 0;
}

/* A random model from a small pool; 0 if the keys were accepted (the model may still be
 * refused by the parser: an unused parameter, a gap in the noise). */
static int random_model(slpi_problem *p, slpi_error *err)
{
    /* se3 has no coordinate x1: its models are refused */
    static const char *const alg[] = { "so3", "so3", "so3", "se3" };
    static const char *const H[] = { "a*x1^2 + b*x2^2/2", "x1^2 + b*x2*x3 + a", "a*x1 + b*x3^2", "a*x1*x2 + x3" };
    static const char *const text[] = { "0.5", "0.50" };
    int rc = 0;
    slpi_problem_init(p, SLPI_SYS_MODEL, SLPI_SCHEME_TMK);
    rc = slpi_problem_set(p, "algebra", alg[test_rand_int(4)], err);
    if (!rc) rc = slpi_problem_set(p, "H", H[test_rand_int(4)], err);
    for (int k = 1; k <= 2 && !rc; k++) {
        char key[16];
        snprintf(key, sizeof key, "noise_H%d", k);
        int form = (int)test_rand_int(3);   /* text, callback, none */
        if (form == 0) rc = slpi_problem_set(p, key, "a*x1", err);
        else if (form == 1) rc = slpi_problem_set_callback(p, k, dummy_grad, dummy_hvp, NULL, NULL, err);
    }
    if (!rc) rc = slpi_problem_set(p, "param.a", text[test_rand_int(2)], err);
    if (!rc) rc = slpi_problem_set(p, "param.b", text[test_rand_int(2)], err);
    return rc;
}

static void check_content(void)
{
    long iters = test_iters(600), shared = 0, distinct = 0, refused = 0;
    enum { POOL = 24 };
    static slpi_problem p[POOL];
    const slpi_model *m[POOL] = { 0 };
    for (long it = 0; it < iters; it++) {
        int i = (int)test_rand_int(POOL);
        slpi_error err = { 0, "" }, err2 = { 0, "" };
        slpi_model_release(m[i]);
        m[i] = NULL;
        if (random_model(&p[i], &err) != SLPI_OK) continue;
        slpi_model fresh;
        long n0 = slpi_model_parse_count();
        int rc = slpi_model_parse(&fresh, &p[i], &err);
        m[i] = slpi_model_acquire(&p[i], &err2);
        if (rc != SLPI_OK) {
            refused++;
            TEST_CHECKF(m[i] == NULL && !strcmp(err.msg, err2.msg) && slpi_model_parse_count() == n0 + 2,
                        "a refused model: acquire gave %p, '%s' against '%s'", (const void *)m[i], err2.msg,
                        err.msg);
            continue;
        }
        TEST_CHECKF(m[i] != NULL && same_model(m[i], &fresh), "the shared model differs from a fresh parse "
                    "(H=%s)", p[i].model.H);
        slpi_problem copy = p[i];
        long n1 = slpi_model_parse_count();
        const slpi_model *again = slpi_model_acquire(&copy, &err2);
        TEST_CHECKF(again == m[i] && slpi_model_parse_count() == n1, "the same content parsed again");
        slpi_model_release(again);
        for (int j = 0; j < POOL; j++) {
            if (j == i || !m[j]) continue;
            if (m[j] == m[i]) {
                shared++;
                TEST_CHECKF(same_model(m[j], &fresh), "two problems share a model their parses tell apart "
                            "(H=%s and H=%s)", p[i].model.H, p[j].model.H);
            } else {
                distinct++;
            }
        }
        slpi_model_free(&fresh);
    }
    for (int i = 0; i < POOL; i++) slpi_model_release(m[i]);
    printf("t-model-cache: %ld draws: %ld shared pairs, %ld distinct pairs, %ld refused models\n", iters, shared,
           distinct, refused);
    TEST_CHECKF(shared > 0 && distinct > 0 && refused > 0, "the pool is too narrow to test anything");
}

int main(void)
{
    test_start("t-model-cache", 43);
    count_parses();
    check_content();
    TEST_END();
}
