/* fast/model-share.c — the nodes of a model's tape on the double path (fast/model-tape.h,
 * fast/model-share.h; docs/models.md#speed): core's parsed Hamiltonians one after the
 * other, with two rewritings that let a Hamiltonian cost the same however it is written.
 *
 * Identical subtrees are one node (hash-consing): node nd is an earlier node c of the tape
 * when both have the same operation, the same operands (already shared) and the same
 * argument, a constant's being its binary64 value; a sum or a product is also the earlier
 * one with its operands swapped (x2*x1 is the tape's x1*x2, b + a its a + b: one value,
 * bit for bit, and a tape that has only one order is unchanged). Its value is the one each
 * copy computed, bit for bit; its adjoint is summed before it is pushed on.
 *
 * A product that repeats a factor is a product of powers. A product is a maximal tree of
 * `*` in the shared nodes, through the products that only it reads (a shared subtree stays
 * one factor: (s)*(s) is (s)^2); its factors are the subtrees it multiplies, left to
 * right, an integer power x^n (n >= 1) counted as x n times, a shared one too (x^2 read
 * twice, or x*x, itself rewritten as x^2: (x*x)*(x*x) is x^4). When a factor that depends on
 * a coordinate or on t occurs more than once (as the same shared subtree), the product is
 * rebuilt from its distinct factors in the order of their first occurrence, each x^m with
 * m its count (x itself when m = 1), multiplied left to right: q*x1*x1*x1*x1 and
 * q*x1^2*x1^2 become q*x1^4, x1*x2*x1 becomes x1^2*x2, node for node the tape of the
 * product so written (tests/fast/t-fast-model-tape.c). Constant factors are never
 * gathered (2*x*2 stays as written), and a product whose counts would pass
 * SLPI_EXPR_MAX_POWI is left as written. x^m is evaluated as every integer power is
 * (fast/model-tape.c's ipow, binary powering: the shortest chain of products for every
 * m < 15), one node, not a chain through a shared square (x^4 is not (x^2)^2 where x^2 is
 * on the tape: x^4's adjoint is one term, and the square's stays the sum of constants and
 * seeds that fast/model-lanes.c hoists out of the solve). So the rewrite changes the rounding: the
 * value of x*x and x*x*x is unchanged (one rounding each way round), that of x*x*x*x and
 * longer moves by an ulp or so ((x x)(x x) is not ((x x) x) x), a product whose factors
 * move moves, and the gradient of every rewritten product is n x^(n-1) pushed once where
 * the written product pushed one term per factor. A product that repeats no factor, and
 * every other node, is the text's, bit for bit. The certified path (ref/model-tape.c)
 * evaluates the text as written: in real arithmetic the two are one number, so its balls
 * hold the exact scheme both evaluate. The nodes the rewrite leaves unread are dropped. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "slpi/errors.h"
#include "fast/model-share.h"

typedef struct {
    slpi_fast_tape *t;
    const slpi_model *m;
    int *slot; /* hash table of tape nodes, -1 free */
    unsigned size;
} sharer;

typedef struct {
    int node, n; /* a factor (tape node) and its count */
} factor;

static int same_node(const slpi_fast_tape *t, const slpi_model *m, int c, const slpi_expr_node *nd, int k)
{
    const slpi_expr_node *x = &t->node[c];
    if (x->op != nd->op || x->a != nd->a || x->b != nd->b) return 0;
    if (nd->op != SLPI_EXPR_CONST) return x->arg == nd->arg;
    double u = m->H[t->owner[c]].cval[x->arg], v = m->H[k].cval[nd->arg];
    return memcmp(&u, &v, sizeof u) == 0;
}

static unsigned node_hash(const slpi_model *m, const slpi_expr_node *nd, int k)
{
    uint64_t h = (uint64_t)nd->op * 0x9e3779b97f4a7c15u;
    h = (h ^ (uint64_t)(nd->a + 1)) * 0xbf58476d1ce4e5b9u;
    h = (h ^ (uint64_t)(nd->b + 1)) * 0x94d049bb133111ebu;
    if (nd->op == SLPI_EXPR_CONST) {
        uint64_t bits;
        memcpy(&bits, &m->H[k].cval[nd->arg], sizeof bits);
        h = (h ^ bits) * 0x9e3779b97f4a7c15u;
    } else {
        h = (h ^ (uint64_t)(uint32_t)nd->arg) * 0x9e3779b97f4a7c15u;
    }
    return (unsigned)(h ^ (h >> 32));
}

/* The hash slot of nd (a node of H_k): its earlier identical node's, or the free one. */
static unsigned lookup(const sharer *s, const slpi_expr_node *nd, int k)
{
    unsigned h = node_hash(s->m, nd, k) & (s->size - 1);
    while (s->slot[h] >= 0 && !same_node(s->t, s->m, s->slot[h], nd, k)) h = (h + 1) & (s->size - 1);
    return h;
}

/* nd, a node of H_k whose operands are tape nodes, as a tape node: the earlier identical
 * one, or a sum or product with its operands swapped (b + a for a + b, b a for a b: the
 * same value), or a new one. */
static int intern(sharer *s, const slpi_expr_node *nd, int k)
{
    slpi_fast_tape *t = s->t;
    unsigned h = lookup(s, nd, k);
    if (s->slot[h] < 0 && (nd->op == SLPI_EXPR_ADD || nd->op == SLPI_EXPR_MUL)) {
        slpi_expr_node sw = *nd;
        sw.a = nd->b;
        sw.b = nd->a;
        unsigned g = lookup(s, &sw, k);
        if (s->slot[g] >= 0) return s->slot[g];
    }
    if (s->slot[h] < 0) {
        int a = nd->a, b = nd->b, n = t->n++;
        t->node[n] = *nd;
        t->dep[n] = (unsigned char)(nd->op == SLPI_EXPR_COORD || (a >= 0 && t->dep[a]) || (b >= 0 && t->dep[b]));
        t->tdep[n] = (unsigned char)(nd->op == SLPI_EXPR_TIME || (a >= 0 && t->tdep[a]) || (b >= 0 && t->tdep[b]));
        t->owner[n] = k;
        s->slot[h] = n;
    }
    return s->slot[h];
}

/* The factors of the product whose operand is u's node i, left to right, after the nf in
 * f, as nodes of t (map: u's nodes as t's): through the products that only this one reads
 * (inner), a power x^n as x n times; a factor that depends on a coordinate or t joins its
 * earlier occurrence (*rep set). Returns the factors' count. */
static int factors(factor *f, int nf, int *rep, const slpi_fast_tape *t, const slpi_fast_tape *u,
                   const unsigned char *inner, const int *map, int i)
{
    const slpi_expr_node *nd = &u->node[i];
    if (nd->op == SLPI_EXPR_MUL && inner[i]) {
        nf = factors(f, nf, rep, t, u, inner, map, nd->a);
        return factors(f, nf, rep, t, u, inner, map, nd->b);
    }
    int x = map[i], n = 1;
    if (t->node[x].op == SLPI_EXPR_POWI && t->node[x].arg >= 1) { /* shared too: (x*x)*(x*x) */
        n = t->node[x].arg;
        x = t->node[x].a;
    }
    if (t->dep[x] || t->tdep[x])
        for (int j = 0; j < nf; j++)
            if (f[j].node == x) {
                f[j].n += n;
                *rep = 1;
                return nf;
            }
    f[nf++] = (factor){ x, n };
    return nf;
}

/* The product at u's node i (a `*` that is no inner factor) as a node of t: rebuilt from
 * its powers when it repeats a factor, else as it is (nd, its operands t's). */
static int product(sharer *s, factor *f, const slpi_fast_tape *u, const unsigned char *inner, const int *map, int i,
                   const slpi_expr_node *nd)
{
    int rep = 0, k = u->owner[i], p = -1;
    int nf = factors(f, 0, &rep, s->t, u, inner, map, u->node[i].a);
    nf = factors(f, nf, &rep, s->t, u, inner, map, u->node[i].b);
    for (int j = 0; j < nf; j++) rep &= f[j].n <= SLPI_EXPR_MAX_POWI;
    if (!rep) return intern(s, nd, k);
    for (int j = 0; j < nf; j++) {
        int x = f[j].node;
        if (f[j].n > 1) x = intern(s, &(slpi_expr_node){ SLPI_EXPR_POWI, x, -1, f[j].n, nd->col }, k);
        p = p < 0 ? x : intern(s, &(slpi_expr_node){ SLPI_EXPR_MUL, p, x, 0, nd->col }, k);
    }
    return p;
}

/* Drop the nodes no root reads (a rewritten product's first form), keeping the order. */
static void drop_unread(slpi_fast_tape *t, int *newid)
{
    unsigned char *live = t->tdep + t->n; /* scratch after tdep (allocated twice the size) */
    memset(live, 0, (size_t)t->n);
    for (int r = 0; r < t->nroot; r++) live[t->root[r]] = 1;
    for (int i = t->n - 1; i >= 0; i--)
        if (live[i]) {
            if (t->node[i].a >= 0) live[t->node[i].a] = 1;
            if (t->node[i].b >= 0) live[t->node[i].b] = 1;
        }
    int n = 0;
    for (int i = 0; i < t->n; i++) {
        newid[i] = n;
        if (!live[i]) continue;
        slpi_expr_node nd = t->node[i];
        if (nd.a >= 0) nd.a = newid[nd.a];
        if (nd.b >= 0) nd.b = newid[nd.b];
        t->node[n] = nd;
        t->dep[n] = t->dep[i];
        t->tdep[n] = t->tdep[i];
        t->owner[n++] = t->owner[i];
    }
    for (int r = 0; r < t->nroot; r++) t->root[r] = newid[t->root[r]];
    t->n = n;
}

/* Room for cap nodes in t (tdep twice: drop_unread's scratch); 0 if out of memory. */
static int tape_alloc(slpi_fast_tape *t, size_t cap, int nk)
{
    t->node = malloc(cap * sizeof *t->node);
    t->dep = malloc(cap);
    t->tdep = malloc(2 * cap);
    t->owner = malloc(cap * sizeof *t->owner);
    t->root = malloc((size_t)nk * sizeof *t->root);
    t->n = 0;
    t->nroot = nk;
    return t->node && t->dep && t->tdep && t->owner && t->root;
}

/* u: the Hamiltonians ks[0..nk) one after the other, identical subtrees shared; inner[i]
 * for each product of u read once, by a product. */
static void share(sharer *s, unsigned char *inner, const int *ks, int nk, int *remap)
{
    slpi_fast_tape *u = s->t;
    for (int j = 0; j < nk; j++) {
        const slpi_expr *e = &s->m->H[ks[j]];
        for (int i = 0; i < e->n; i++) {
            slpi_expr_node nd = e->node[i];
            if (nd.a >= 0) nd.a = remap[nd.a];
            if (nd.b >= 0) nd.b = remap[nd.b];
            remap[i] = intern(s, &nd, ks[j]);
        }
        u->root[j] = remap[e->n - 1];
    }
    int *uses = remap; /* reads by any node or as a root; inner: once, by a product */
    memset(uses, 0, (size_t)u->n * sizeof *uses);
    memset(inner, 0, (size_t)u->n);
    for (int r = 0; r < nk; r++) uses[u->root[r]]++;
    for (int i = 0; i < u->n; i++) {
        const slpi_expr_node *nd = &u->node[i];
        if (nd->a >= 0) uses[nd->a]++;
        if (nd->b >= 0) uses[nd->b]++;
        if (nd->op == SLPI_EXPR_MUL) inner[nd->a] = inner[nd->b] = 1;
    }
    for (int i = 0; i < u->n; i++) inner[i] = inner[i] && uses[i] == 1 && u->node[i].op == SLPI_EXPR_MUL;
}

int slpi_fast_tape_share(slpi_fast_tape *t, const slpi_model *m, const int *ks, int nk, slpi_error *err)
{
    int total = 0;
    for (int j = 0; j < nk; j++) total += m->H[ks[j]].n;
    size_t cap = 3 * (size_t)total + 1; /* a product rebuilt adds fewer nodes than it has */
    slpi_fast_tape u = { 0 };
    sharer s = { &u, m, NULL, 16 };
    while (s.size < 2 * cap) s.size *= 2;
    s.slot = malloc(s.size * sizeof *s.slot);
    int *map = malloc(cap * sizeof *map);
    factor *f = malloc((size_t)(total + 1) * sizeof *f);
    unsigned char *inner = malloc((size_t)total + 1);
    int ok = s.slot && map && f && inner && tape_alloc(&u, (size_t)total + 1, nk) && tape_alloc(t, cap, nk);
    if (ok) {
        for (unsigned i = 0; i < s.size; i++) s.slot[i] = -1;
        share(&s, inner, ks, nk, map);
        for (unsigned i = 0; i < s.size; i++) s.slot[i] = -1;
        s.t = t;
        for (int i = 0; i < u.n; i++) {
            slpi_expr_node nd = u.node[i];
            if (nd.a >= 0) nd.a = map[nd.a];
            if (nd.b >= 0) nd.b = map[nd.b];
            int p = nd.op == SLPI_EXPR_MUL && !inner[i];
            map[i] = p ? product(&s, f, &u, inner, map, i, &nd) : intern(&s, &nd, u.owner[i]);
        }
        for (int r = 0; r < nk; r++) t->root[r] = map[u.root[r]];
        drop_unread(t, map);
    }
    free(s.slot);
    free(map);
    free(f);
    free(inner);
    free(u.node);
    free(u.dep);
    free(u.tdep);
    free(u.owner);
    free(u.root);
    return ok ? SLPI_OK : slpi_error_set(err, SLPI_EINPUT, "model: out of memory");
}
