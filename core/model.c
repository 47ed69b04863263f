/* model.c — a whole model from the problem's keys (core/expr.h, docs/models.md#keys): the
 * algebra, H and the noise Hamiltonians parsed over the model's parameters, with the checks
 * that span keys (H given, noise numbered without gaps, no parameter shadowed or unused);
 * and the compiled models shared by content, so that a problem's model is parsed once for
 * its validation, its consistency rule and both paths (slpi_model_acquire). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    return slpi_error_set(err, SLPI_EINPUT, "%s: col %d: %s outside its domain (or not finite) in a constant "
                          "subexpression", slpi_model_key(key, sizeof key, k), nd->col, slpi_expr_op_name(nd->op));
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
    atomic_fetch_add(&parse_count, 1);
    if (!slpi_problem_algebra(p))
        return slpi_error_set(err, SLPI_EINPUT, "system=model needs algebra= (so3 | se3 | so(n) | su(n) | so3^k)");
    m->alg = *slpi_problem_algebra(p);
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
        if (strcmp(name, "t") == 0)
            return slpi_error_set(err, SLPI_EINPUT, "param.t: t is the time of the step, which the expressions "
                                  "read instead (docs/models.md#time): rename the parameter");
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
        int rc = slpi_expr_parse(&m->H[k], key, k ? p->model.noise_H[k - 1] : p->model.H, &m->alg, p->model.nparam, par,
                                 err);
        if (rc) {
            slpi_model_free(m);
            return rc;
        }
        m->reads_t |= m->H[k].reads_t;
    }
    for (int i = 0; i < p->model.nparam; i++)   /* a misspelt name would be silently unused */
        if (!used[i]) {
            slpi_model_free(m);
            return slpi_error_set(err, SLPI_EINPUT, "param.%s=%s: no expression uses it (a misspelt name?); "
                                  "remove it or use it (docs/models.md#keys)", par[i].name, par[i].text);
        }
    return SLPI_OK;
}

long slpi_model_parse_count(void)
{
    return atomic_load(&parse_count);
}

/* ------------------------------------------------------------ shared by content */

/* A compiled model and the content it was compiled from: every key slpi_model_parse reads
 * (the algebra, each H_k's text or that it is a callback, the parameters' names, texts
 * and values), as one byte string compared whole. */
typedef struct cache_entry {
    char *key;
    size_t len;
    slpi_model m;
    int refs;
    unsigned long used;                 /* the cache's clock at the last acquire */
    struct cache_entry *next;
} cache_entry;

#define CACHE_KEEP 16                   /* unreferenced models kept for reuse */

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry *cache;
static unsigned long cache_clock;

typedef struct {
    char *s;
    size_t n, cap;
    int failed;
} bytes;

static void put(bytes *b, const void *data, size_t n)
{
    if (b->failed) return;
    if (b->n + n > b->cap) {
        size_t cap = 2 * (b->n + n);
        char *s = realloc(b->s, cap);
        if (!s) { b->failed = 1; return; }
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->n, data, n);
    b->n += n;
}

static void put_text(bytes *b, const char *t)
{
    put(b, t, strlen(t) + 1);
}

static int content_key(bytes *b, const slpi_problem *p)
{
    put_text(b, p->model.algebra);
    for (int k = 0; k <= SLPI_MODEL_MAX_NOISE; k++) {
        char cb = p->model.cb[k].grad != NULL;
        put(b, &cb, 1);
        put_text(b, k ? p->model.noise_H[k - 1] : p->model.H);
    }
    put(b, &p->model.nparam, sizeof p->model.nparam);
    for (int i = 0; i < p->model.nparam; i++) {
        put_text(b, p->model.param_name[i]);
        put_text(b, p->model.param_text[i]);
        put(b, &p->model.param[i], sizeof p->model.param[i]);
    }
    return b->failed ? -1 : 0;
}

/* Drop the least recently used unreferenced entries beyond CACHE_KEEP (lock held). */
static void cache_trim(void)
{
    for (;;) {
        int idle = 0;
        cache_entry **oldest = NULL;
        for (cache_entry **q = &cache; *q; q = &(*q)->next)
            if ((*q)->refs == 0) {
                idle++;
                if (!oldest || (*q)->used < (*oldest)->used) oldest = q;
            }
        if (idle <= CACHE_KEEP) return;
        cache_entry *e = *oldest;
        *oldest = e->next;
        slpi_model_free(&e->m);
        free(e->key);
        free(e);
    }
}

const slpi_model *slpi_model_acquire(const slpi_problem *p, slpi_error *err)
{
    bytes b = { 0 };
    if (content_key(&b, p) < 0) {
        free(b.s);
        slpi_error_set(err, SLPI_EINPUT, "model: out of memory");
        return NULL;
    }
    pthread_mutex_lock(&cache_lock);
    cache_entry *e = cache;
    while (e && !(e->len == b.n && memcmp(e->key, b.s, b.n) == 0)) e = e->next;
    if (e) {
        free(b.s);
    } else {
        e = calloc(1, sizeof *e);
        if (!e) {
            pthread_mutex_unlock(&cache_lock);
            free(b.s);
            slpi_error_set(err, SLPI_EINPUT, "model: out of memory");
            return NULL;
        }
        if (slpi_model_parse(&e->m, p, err) != SLPI_OK) {   /* refusals are not kept */
            pthread_mutex_unlock(&cache_lock);
            free(e);
            free(b.s);
            return NULL;
        }
        e->key = b.s;
        e->len = b.n;
        e->next = cache;
        cache = e;
    }
    e->refs++;
    e->used = ++cache_clock;
    pthread_mutex_unlock(&cache_lock);
    return &e->m;
}

void slpi_model_release(const slpi_model *m)
{
    if (!m) return;
    pthread_mutex_lock(&cache_lock);
    for (cache_entry *e = cache; e; e = e->next)
        if (&e->m == m) {
            e->refs--;
            break;
        }
    cache_trim();
    pthread_mutex_unlock(&cache_lock);
}
