/* t-plan.c — a plan (core/plan.c, slpi.h's slpi_plan; docs/design.md#opaque-problem):
 * a finished problem compiled once, which owns its model's parse (there is no global
 * model store) and which any number of run objects and threads share.
 *  - The count: every model file of models/ under every scheme it admits (isomp with update=comm
 *    and cay, rkmk-le where the rule admits it), H given a fresh constant: the plan parses
 *    the model exactly once (slpi_model_parse_count) over its validation and the Lie-Euler
 *    rule, and a run object on each path made from it and stepped parses it zero times.
 *  - The content: random models drawn from a small pool (algebras, expressions,
 *    parameter texts, noise Hamiltonians given as text, as a callback or not at all): the
 *    plan's model equals a fresh parse node by node, constant by constant (the same
 *    quantity two ways); two plans of equal texts are independent (distinct models,
 *    each intact after the other is dropped); a refused model refuses the plan with the
 *    parser's message.
 *  - Lifetime: a plan outlives the problem it came from (freed after its memory is
 *    overwritten), and a run object outlives the plan's last outside reference; the
 *    steps from it equal the steps from a plan of a kept copy, bit for bit.
 *  - Threads: one plan shared by THREADS threads, each taking and dropping references and
 *    making its own run objects: every thread's steps equal the single-threaded ones.
 * The plan's life cycle runs valgrind-clean (tests/run-tests.sh's valgrind list). */
#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>

#include "core/problem-struct.h"
#include "core/expr.h"
#include "core/plan.h"
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
        if (strcmp(a->ctext[c], b->ctext[c]) || memcmp(&a->cval[c], &b->cval[c], sizeof(double))) return 0;
    return 1;
}

static int same_model(const slpi_model *a, const slpi_model *b)
{
    if (a->alg.kind != b->alg.kind || a->alg.n != b->alg.n || a->alg.dim != b->alg.dim || a->M != b->M) return 0;
    for (int k = 0; k <= a->M; k++)
        if (a->callback[k] != b->callback[k] || !same_expr(&a->H[k], &b->H[k])) return 0;
    return 1;
}

/* ------------------------------------------------------------ the count */

static const char *const schemes[][2] = {
    { "tmk", "" },      { "rkmk-heun", "" }, { "rkmk-le", "" },   { "isomp", "comm" },
    { "isomp", "cay" }, { "svi", "" },       { "im-direct", "" }, { "trap-direct", "" },
};

/* Build models/file under the scheme with H + c; 0 when admitted. */
static int build(slpi_problem *p, const char *file, int s, const char *c, slpi_error *err)
{
    char path[300], H[SLPI_EXPR_MAX_TEXT + 64];
    snprintf(path, sizeof path, "models/%s", file);
    char *keys[] = { "scheme", "steps", "update" }, *vals[] = { (char *)schemes[s][0], "2", (char *)schemes[s][1] };
    if (slpi_problem_build(p, NULL, path, schemes[s][1][0] ? 3 : 2, keys, vals, NULL, err) != SLPI_OK) return -1;
    if (!p->sys.model.H[0]) return -1; /* H as code: not a file's */
    snprintf(H, sizeof H, "(%s) + %s", p->sys.model.H, c);
    if (strlen(H) >= SLPI_EXPR_MAX_TEXT) return -1;
    if (slpi_problem_set(p, "H", H, err) != SLPI_OK) return -1;
    return slpi_problem_finish(p, err) == SLPI_OK ? 0 : -1;
}

/* steps steps of run object f from x with the increments 1e-2 sin(n + k); 0 on success */
static int step_run(slpi_fast *f, int M, int steps, double *x)
{
    double dW[SLPI_MODEL_MAX_NOISE + 8];
    for (int n = 0; n < steps; n++) {
        slpi_step_info info;
        for (int k = 0; k < M; k++) dW[k] = 1e-2 * sin(n + k);
        if (slpi_step_failed(slpi_fast_step(f, x, dW, &info))) return -1;
    }
    return SLPI_OK;
}

/* A run object of plan on the double path, stepped from its initial state (step_run); the
 * final state into x; 0 on success. */
static int fast_steps(const slpi_plan *plan, int steps, double *x)
{
    slpi_fast *f;
    slpi_error err = { 0, "" };
    if (slpi_fast_create_plan(&f, plan, &err) != SLPI_OK) return -1;
    int rc = slpi_fast_initial_state(f, x, &err);
    if (rc == SLPI_OK) rc = step_run(f, slpi_problem_noise_count(slpi_plan_problem(plan)), steps, x);
    slpi_fast_free(f);
    return rc;
}

static void count_parses(void)
{
    DIR *d = opendir("models");
    TEST_CHECKF(d != NULL, "models/ not found (run from the source tree)");
    if (!d) return;
    struct dirent *de;
    int problems = 0, le = 0;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 6 || strcmp(de->d_name + len - 5, ".slpi")) continue;
        for (int s = 0; s < (int)(sizeof schemes / sizeof schemes[0]); s++) {
            static slpi_problem p;
            slpi_error err = { 0, "" };
            char c[40];
            snprintf(c, sizeof c, "%d.%06d", (int)test_rand_int(1000), (int)test_rand_int(1000000));
            if (build(&p, de->d_name, s, c, &err) != 0) continue; /* a scheme the model refuses */
            long n0 = slpi_model_parse_count();
            slpi_plan *plan;
            if (slpi_problem_plan(&plan, &p, &err) != SLPI_OK) {
                TEST_CHECKF(0, "%s %s: the plan of a finished problem: %s", de->d_name, schemes[s][0], err.msg);
                continue;
            }
            long n1 = slpi_model_parse_count();
            double *x = malloc((size_t)slpi_problem_state_dim(&p) * sizeof *x);
            slpi_ref *r = NULL;
            int rf = x ? fast_steps(plan, 2, x) : -1;
            free(x);
            int rr = slpi_ref_create_plan(&r, plan, &err);
            if (rr == SLPI_OK) {
                arb_ptr b = _arb_vec_init(slpi_problem_state_dim(&p));
                double dW[SLPI_MODEL_MAX_NOISE] = { 0 };
                slpi_step_info info;
                rr = slpi_ref_initial_state(r, b, &err);
                if (rr == SLPI_OK) slpi_ref_step(r, b, dW, &info);
                _arb_vec_clear(b, slpi_problem_state_dim(&p));
            }
            slpi_ref_free(r);
            slpi_plan_unref(plan);
            TEST_CHECKF(rf == SLPI_OK && rr == SLPI_OK, "%s %s %s: runs failed: %s", de->d_name, schemes[s][0],
                        schemes[s][1], err.msg);
            TEST_CHECKF(n1 - n0 == 1 && slpi_model_parse_count() == n1,
                        "%s scheme=%s %s: the plan parsed %ld "
                        "times, its run objects %ld more (once, then none)",
                        de->d_name, schemes[s][0], schemes[s][1], n1 - n0, slpi_model_parse_count() - n1);
            problems++;
            le += !strcmp(schemes[s][0], "rkmk-le");
        }
    }
    closedir(d);
    printf("t-plan: %d problems (%d rkmk-le), each parsed once by its plan, none by both paths' run objects\n",
           problems, le);
    TEST_CHECKF(problems >= 40 && le >= 3, "too few problems admitted (%d, rkmk-le %d): the reader is broken", problems,
                le);
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
    (void)u;
    (void)mu;
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
        int form = (int)test_rand_int(3); /* text, callback, none */
        if (form == 0)
            rc = slpi_problem_set(p, key, "a*x1", err);
        else if (form == 1)
            rc = slpi_problem_set_callback(p, k, dummy_grad, dummy_hvp, NULL, NULL, err);
    }
    if (!rc) rc = slpi_problem_set(p, "param.a", text[test_rand_int(2)], err);
    if (!rc) rc = slpi_problem_set(p, "param.b", text[test_rand_int(2)], err);
    return rc;
}

static void check_content(void)
{
    long iters = test_iters(300), pairs = 0, refused = 0;
    for (long it = 0; it < iters; it++) {
        static slpi_problem p, q;
        slpi_error err = { 0, "" }, err2 = { 0, "" };
        if (random_model(&p, &err) != SLPI_OK) continue;
        q = p;
        slpi_model fresh;
        int rc = slpi_model_parse(&fresh, &p, &err);
        slpi_plan *a = NULL, *b = NULL;
        int ra = slpi_problem_plan(&a, &p, &err2);
        if (rc != SLPI_OK) {
            refused++;
            TEST_CHECKF(ra != SLPI_OK && a == NULL && !strcmp(err.msg, err2.msg),
                        "a refused model: the plan gave %d, '%s' against the parser's '%s'", ra, err2.msg, err.msg);
            continue;
        }
        int rb = slpi_problem_plan(&b, &q, &err2);
        TEST_CHECKF(ra == SLPI_OK && rb == SLPI_OK, "a parsed model's plan refused: %s", err2.msg);
        if (ra == SLPI_OK && rb == SLPI_OK) {
            const slpi_model *ma = slpi_plan_model(a), *mb = slpi_plan_model(b);
            TEST_CHECKF(ma != mb && ma->H[0].node != mb->H[0].node, "two plans of equal texts share their model");
            TEST_CHECKF(same_model(ma, &fresh) && same_model(mb, &fresh),
                        "a plan's model differs from a fresh "
                        "parse (H=%s)",
                        p.sys.model.H);
            int first = (int)test_rand_int(2); /* drop either one first: the other is intact */
            slpi_plan_unref(first ? a : b);
            TEST_CHECKF(same_model(first ? mb : ma, &fresh),
                        "a plan's model changed when another plan of the "
                        "same text was dropped");
            slpi_plan_unref(first ? b : a);
            pairs++;
        } else {
            slpi_plan_unref(a);
            slpi_plan_unref(b);
        }
        slpi_model_free(&fresh);
    }
    printf("t-plan: %ld draws: %ld pairs of plans of equal texts, %ld refused models\n", iters, pairs, refused);
    TEST_CHECKF(pairs > 0 && refused > 0, "the pool is too narrow to test anything");
}

/* ------------------------------------------------------------ lifetime */

#define LIFE_STEPS 40

/* models/FILE's plan from a problem on the heap, which is overwritten and freed before
 * the plan is used; its steps against those of a plan of a kept copy. */
static void check_lifetime(const char *file)
{
    char path[300];
    snprintf(path, sizeof path, "models/%s", file);
    slpi_problem *p = malloc(sizeof *p);
    static slpi_problem keep;
    slpi_error err = { 0, "" };
    slpi_plan *a = NULL, *b = NULL;
    int rc = p ? slpi_problem_build(p, NULL, path, 0, NULL, NULL, NULL, &err) : SLPI_EINPUT;
    if (rc == SLPI_OK) keep = *p;
    if (rc == SLPI_OK) rc = slpi_problem_plan(&a, p, &err);
    if (rc == SLPI_OK) rc = slpi_problem_plan(&b, &keep, &err);
    TEST_CHECKF(rc == SLPI_OK, "%s: %s", file, err.msg);
    if (p) memset(p, 0xA5, sizeof *p);
    free(p);
    if (rc != SLPI_OK) {
        slpi_plan_unref(a);
        slpi_plan_unref(b);
        return;
    }
    /* a run object holds its own reference: made, then the plan's last outside one dropped */
    slpi_fast *f = NULL;
    int dim = slpi_problem_state_dim(&keep);
    double xa[64], xb[64];
    TEST_CHECK(dim <= 64 && slpi_fast_create_plan(&f, a, &err) == SLPI_OK);
    slpi_plan_unref(a);
    rc = f && dim <= 64 ? slpi_fast_initial_state(f, xa, &err) : SLPI_EINPUT;
    if (rc == SLPI_OK) rc = step_run(f, slpi_problem_noise_count(&keep), LIFE_STEPS, xa);
    slpi_fast_free(f);
    int rb = dim <= 64 ? fast_steps(b, LIFE_STEPS, xb) : -1;
    slpi_plan_unref(b);
    TEST_CHECKF(rc == SLPI_OK && rb == SLPI_OK && memcmp(xa, xb, (size_t)dim * sizeof *xa) == 0,
                "%s: the steps of a plan whose problem is gone differ from a kept copy's", file);
}

/* ------------------------------------------------------------ threads */

#define THREADS 4
#define THREAD_STEPS 200

typedef struct {
    const slpi_plan *plan;
    double x[64];
    int rc;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    w->rc = SLPI_OK;
    for (int round = 0; round < 3 && w->rc == SLPI_OK; round++) { /* references taken and dropped */
        const slpi_plan *mine = slpi_plan_ref(w->plan);
        w->rc = fast_steps(mine, THREAD_STEPS, w->x);
        slpi_plan_unref(mine);
    }
    return NULL;
}

static void check_threads(const char *file)
{
    char path[300];
    snprintf(path, sizeof path, "models/%s", file);
    static slpi_problem p;
    slpi_error err = { 0, "" };
    slpi_plan *plan = NULL;
    int rc = slpi_problem_build(&p, NULL, path, 0, NULL, NULL, NULL, &err);
    if (rc == SLPI_OK) rc = slpi_problem_plan(&plan, &p, &err);
    TEST_CHECKF(rc == SLPI_OK && slpi_problem_state_dim(&p) <= 64, "%s: %s", file, err.msg);
    if (rc != SLPI_OK) return;
    double x1[64];
    int dim = slpi_problem_state_dim(&p);
    TEST_CHECK(fast_steps(plan, THREAD_STEPS, x1) == SLPI_OK);
    worker w[THREADS];
    pthread_t t[THREADS];
    int started = 0;
    for (int i = 0; i < THREADS; i++) {
        w[i].plan = plan;
        if (pthread_create(&t[i], NULL, work, &w[i]) == 0)
            started++;
        else
            break;
    }
    TEST_CHECKF(started == THREADS, "%s: %d of %d threads started", file, started, THREADS);
    for (int i = 0; i < started; i++) {
        pthread_join(t[i], NULL);
        TEST_CHECKF(w[i].rc == SLPI_OK && memcmp(w[i].x, x1, (size_t)dim * sizeof *x1) == 0,
                    "%s: thread %d's steps differ from the single-threaded ones", file, i);
    }
    slpi_plan_unref(plan);
}

int main(void)
{
    test_start("t-plan", 43);
    count_parses();
    check_content();
    check_lifetime("rigid-body.slpi");
    check_lifetime("so4-rigid-body.slpi");
    check_threads("rigid-body-time.slpi");
    check_threads("su3-diagonal.slpi");
    TEST_END();
}
