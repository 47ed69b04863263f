/* model-lanes.c — lock-step ensembles of a model (system=model, docs/models.md) on so3 and
 * so3^k: ISOMP-COMM with fixed-point solves (docs/schemes.md#isomp), the paths of a block
 * in SIMD lanes (docs/api.md#ensembles), each bit-identical to slpi_fast_step on the same
 * problem (tests/api/t-ensemble.c compares the routes).
 *
 * The model's Hamiltonians are its fused tape (fast/model-tape.h: H_0..H_M, identical
 * subtrees shared), compiled here once into a lane program: the forward pass over the
 * coordinate-dependent nodes in the tape's evaluation order, then the gradient's reverse
 * pass, each step an operation on slots of SLPI_ENSEMBLE_BLOCK lanes (one double per path).
 * Every decision the scalar passes of fast/model-tape.c take from the tape's structure
 * (which operand depends on a coordinate, a square, the order of the adjoints' sums) is
 * taken here, so the program performs, lane by lane, exactly the scalar passes'
 * operations in their order. Two rewritings keep the bits: a coordinate node reads the
 * coordinate's slot itself, and a division by a constant power of two (x / 2, H/2) is a
 * product by its reciprocal, exact as the quotient (both round the same real number once).
 * fast/ensemble-model.h runs the program on registers of ENS_W lanes; integer powers x^n
 * (n >= 3) by squaring, the same products in the same order as fast/model-tape.c's ipow
 * (and its derivative n x^(n-1) as its reverse pass forms it); the operations other than
 * + - x /, squares and those powers are evaluated path by path by fast/model-tape.c's own
 * functions.
 *
 * The so(3) blocks' iteration around it (slpi_fast_blocks_isomp, HAT model) and the solver
 * policy are those of the rigid body's lanes (fast/ensemble-lanes.h); where the model's
 * tape costs more than the rigid body's closed form, that is the price of a general H. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/plan.h"
#include "slpi/ensemble.h"
#include "core/expr.h"
#include "core/plan.h"
#include "fast/fast.h"
#include "fast/ensemble.h"

typedef long (*model_fn)(slpi_fast_model_soa *, long, double, double *, const double *, long *, slpi_fast_lane *);
long slpi_fast_ens_model_portable(slpi_fast_model_soa *, long, double, double *, const double *, long *,
                                  slpi_fast_lane *);
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
long slpi_fast_ens_model_avx2(slpi_fast_model_soa *, long, double, double *, const double *, long *, slpi_fast_lane *);
long slpi_fast_ens_model_avx512(slpi_fast_model_soa *, long, double, double *, const double *, long *,
                                slpi_fast_lane *);
static const model_fn model_kernel[3] = { slpi_fast_ens_model_portable, slpi_fast_ens_model_avx2,
                                          slpi_fast_ens_model_avx512 };
#else
static const model_fn model_kernel[3] = { slpi_fast_ens_model_portable, slpi_fast_ens_model_portable,
                                          slpi_fast_ens_model_portable };
#endif

/* 1 when c is a power of two whose reciprocal r is a normal binary64: x / c == x * r. */
static int pow2_recip(double c, double *r)
{
    int e;
    double f = frexp(c, &e);
    *r = 1 / c;
    return (f == 0.5 || f == -0.5) && isnormal(*r) && isnormal(c);
}

typedef struct {
    slpi_fast_model_soa *c;
    const slpi_fast_tape *t;
    int *val, *adj, *rec; /* per tape node: its value's slot, its adjoint's, its reciprocal's */
    unsigned char *sum;   /* per slot: a sum of the reverse pass has begun there */
    int *terms;           /* per tape node: the terms of its adjoint's sum */
} compiler;

/* A sum's first term adds to the zero slot (0 + y, as the scalar pass adds to its zeroed
 * adjoints): no separate zeroing. */
static void emit(compiler *k, slpi_lane_opcode op, int d, int a, int b, int c, int e, const slpi_expr_node *n)
{
    int acc = d;
    if (op >= SLPI_LANE_ACC && !k->sum[d]) {
        acc = k->c->fin - 1;
        k->sum[d] = 1;
    }
    k->c->prog[k->c->nprog++] = (slpi_fast_lane_op){ op, d, a, b, c, e, acc, 0, 0, n, n ? n->arg : 0 };
}

/* A product or quotient by a constant takes it from the operation (k, refreshed with the
 * constant slots), not from its slot: a load less a register (x y = y x, bit for bit). */
static int is_constant(const slpi_fast_model_soa *c, int slot)
{
    for (int j = 0; j < c->nconst; j++)
        if (c->cslot[j] == slot) return 1;
    return 0;
}

static void constant_operands(slpi_fast_model_soa *c)
{
    for (int q = 0; q < c->nprog; q++) {
        slpi_fast_lane_op *o = &c->prog[q];
        int mul = o->op == SLPI_LANE_MUL || o->op == SLPI_LANE_ACC_MUL;
        if (!mul && o->op != SLPI_LANE_DIV && o->op != SLPI_LANE_ACC_DIV) continue;
        int ka = is_constant(c, o->a), kb = is_constant(c, o->b);
        if (mul && ka && !kb) {
            int t = o->a;
            o->a = o->b;
            o->b = t;
            kb = 1;
        }
        o->kb = kb;
    }
}

/* The forward pass: fast/model-tape.c slpi_fast_tape_forward without tangents. */
static void emit_forward(compiler *k)
{
    const slpi_fast_tape *t = k->t;
    for (int j = 0; j < t->nd; j++) {
        int i = t->order[j], A = t->node[i].a, B = t->node[i].b, d = k->val[i];
        const slpi_expr_node *n = &t->node[i];
        int a = A >= 0 ? k->val[A] : 0, b = B >= 0 ? k->val[B] : 0;
        switch (n->op) {
        case SLPI_EXPR_COORD:
            break; /* its slot is the coordinate's */
        case SLPI_EXPR_ADD:
            emit(k, SLPI_LANE_ADD, d, a, b, 0, 0, n);
            break;
        case SLPI_EXPR_SUB:
            emit(k, SLPI_LANE_SUB, d, a, b, 0, 0, n);
            break;
        case SLPI_EXPR_MUL:
            emit(k, SLPI_LANE_MUL, d, a, b, 0, 0, n);
            break;
        case SLPI_EXPR_NEG:
            emit(k, SLPI_LANE_NEG, d, a, 0, 0, 0, n);
            break;
        case SLPI_EXPR_DIV:
            if (k->rec[B] >= 0)
                emit(k, SLPI_LANE_MUL, d, a, k->rec[B], 0, 0, n);
            else
                emit(k, SLPI_LANE_DIV, d, a, b, 0, 0, n);
            break;
        case SLPI_EXPR_POWI:
            if (n->arg == 2) {
                emit(k, SLPI_LANE_SQR, d, a, 0, 0, 0, n);
                break;
            }
            if (n->arg >= 3) {
                emit(k, SLPI_LANE_POWI, d, a, 0, 0, 0, n);
                break;
            }
            /* fall through */
        default:
            emit(k, SLPI_LANE_VALUE, d, a, b, 0, 0, n);
            break;
        }
    }
}

/* Adjoint A += the adjoint (or seed) in slot y. An adjoint is a sum begun at +0 and a seed
 * slot holds 0 + seed, so neither is ever -0 (x + y is -0 only for x = y = -0), and an
 * adjoint whose sum has this one term, 0 + y, is y itself: it takes y's slot. */
static void push(compiler *k, int A, int y)
{
    if (k->terms[A] == 1)
        k->adj[A] = y;
    else
        emit(k, SLPI_LANE_ACC, k->adj[A], y, 0, 0, 0, NULL);
}

/* The terms of each adjoint's sum: the pushes of slpi_fast_tape_reverse, and the seeds. */
static void count_terms(compiler *k)
{
    const slpi_fast_tape *t = k->t;
    for (int r = 0; r < t->nroot; r++) k->terms[t->root[r]] += t->dep[t->root[r]];
    for (int j = 0; j < t->nd; j++) {
        const slpi_expr_node *n = &t->node[t->order[j]];
        if (n->op == SLPI_EXPR_COORD) continue;
        k->terms[n->a] += t->dep[n->a];
        if (n->b >= 0) k->terms[n->b] += t->dep[n->b];
    }
}

/* The reverse pass: slpi_fast_tape_reverse's gradient-only branch, seeded by the seed
 * slots; the gradient's component i (0 + the adjoint of coordinate i's node, which is the
 * adjoint, or 0) is read from slot psi[i] by ens_model_psi. */
static void emit_reverse(compiler *k)
{
    const slpi_fast_tape *t = k->t;
    slpi_fast_model_soa *c = k->c;
    const int zero = c->fin - 1;
    count_terms(k);
    for (int i = 0; i < c->dim; i++) c->psi[i] = zero;
    for (int r = 0; r < t->nroot; r++)
        if (t->dep[t->root[r]]) push(k, t->root[r], c->s0 + r);
    for (int j = t->nd - 1; j >= 0; j--) {
        int i = t->order[j], A = t->node[i].a, B = t->node[i].b, y = k->adj[i];
        const slpi_expr_node *n = &t->node[i];
        if (!k->sum[y] && k->terms[i] != 1) emit(k, SLPI_LANE_ACC, y, zero, 0, 0, 0, NULL); /* no term: 0 */
        int dA = A >= 0 && t->dep[A], dB = B >= 0 && t->dep[B];
        int vA = A >= 0 ? k->val[A] : 0, vB = B >= 0 ? k->val[B] : 0, aA = dA ? k->adj[A] : 0, aB = dB ? k->adj[B] : 0;
        switch (n->op) {
        case SLPI_EXPR_COORD: /* one node per coordinate (shared), else their sum */
            if (c->psi[n->arg] == zero)
                c->psi[n->arg] = y;
            else {
                if (c->psi[n->arg] != c->g0 + n->arg)
                    emit(k, SLPI_LANE_ACC, c->g0 + n->arg, c->psi[n->arg], 0, 0, 0, NULL);
                emit(k, SLPI_LANE_ACC, c->g0 + n->arg, y, 0, 0, 0, NULL);
                c->psi[n->arg] = c->g0 + n->arg;
            }
            break;
        case SLPI_EXPR_ADD:
        case SLPI_EXPR_SUB:
            if (dA) push(k, A, y);
            if (dB && n->op == SLPI_EXPR_ADD)
                push(k, B, y);
            else if (dB)
                emit(k, SLPI_LANE_DEC, aB, y, 0, 0, 0, NULL);
            break;
        case SLPI_EXPR_MUL:
            if (dA) emit(k, SLPI_LANE_ACC_MUL, aA, y, vB, 0, 0, NULL);
            if (dB) emit(k, SLPI_LANE_ACC_MUL, aB, y, vA, 0, 0, NULL);
            break;
        case SLPI_EXPR_NEG:
            emit(k, SLPI_LANE_DEC, k->adj[A], y, 0, 0, 0, NULL);
            break;
        case SLPI_EXPR_DIV:
            if (dA && k->rec[B] >= 0)
                emit(k, SLPI_LANE_ACC_MUL, aA, y, k->rec[B], 0, 0, NULL);
            else if (dA)
                emit(k, SLPI_LANE_ACC_DIV, aA, y, vB, 0, 0, NULL);
            if (dB) emit(k, SLPI_LANE_DEC_MULDIV, aB, y, k->val[i], vB, 0, NULL);
            break;
        case SLPI_EXPR_POW:
            if (dA) emit(k, SLPI_LANE_ACC_POW_BASE, aA, y, vB, k->val[i], vA, NULL);
            if (dB) emit(k, SLPI_LANE_ACC_POW_EXP, aB, y, k->val[i], vA, 0, NULL);
            break;
        case SLPI_EXPR_POWI:
            if (n->arg == 2) {
                emit(k, SLPI_LANE_ACC_SQR, k->adj[A], y, vA, 0, 0, NULL);
                break;
            }
            if (n->arg >= 3) {
                emit(k, SLPI_LANE_ACC_POWI, k->adj[A], y, vA, 0, 0, n);
                break;
            }
            /* fall through */
        default:
            emit(k, SLPI_LANE_ACC_DERIV, k->adj[A], y, vA, k->val[i], 0, n);
            break;
        }
    }
}

/* The finiteness test of the roots, two slots an operation (the sum of x - x over them is
 * 0 when they are finite, NaN otherwise, in any order); the gradient's is taken where
 * Psi is read (fast/ensemble-model.h ENS_LOAD_P). */
static void emit_finite(compiler *k)
{
    slpi_fast_model_soa *c = k->c;
    const slpi_fast_tape *t = k->t;
    emit(k, SLPI_LANE_FINITE, c->fin, c->fin - 1, c->fin - 1, 0, 0, NULL); /* no roots: 0 */
    k->c->nprog -= t->nroot > 0;
    for (int q = 0; q < t->nroot; q += 2) {
        int a = k->val[t->root[q]], b = q + 1 < t->nroot ? k->val[t->root[q + 1]] : c->fin - 1;
        emit(k, SLPI_LANE_FINITE, c->fin, a, b, 0, 0, NULL);
        k->c->prog[k->c->nprog - 1].acc = q == 0 ? c->fin - 1 : c->fin;
    }
}

/* The forward operations the reverse pass needs, then the reverse pass, then the others
 * and the finiteness test (ncheck: their start). nf: the forward pass's operations. */
static int split_check(slpi_fast_model_soa *c, int nf)
{
    unsigned char *need = calloc((size_t)c->nslot, 1);
    slpi_fast_lane_op *o = malloc((size_t)c->nprog * sizeof *o);
    if (!need || !o) {
        free(need);
        free(o);
        return 0;
    }
    for (int q = nf; q < c->ncheck; q++) { /* the reverse pass's operands */
        const slpi_fast_lane_op *r = &c->prog[q];
        need[r->a] = need[r->b] = need[r->c] = need[r->e] = 1;
    }
    int *used = malloc((size_t)nf * sizeof *used);
    if (!used) {
        free(need);
        free(o);
        return 0;
    }
    for (int q = nf - 1; q >= 0; q--) {
        const slpi_fast_lane_op *f = &c->prog[q];
        used[q] = need[f->d];
        if (used[q]) need[f->a] = need[f->b] = need[f->c] = need[f->e] = 1;
    }
    int m = 0;
    for (int q = 0; q < nf; q++)
        if (used[q]) o[m++] = c->prog[q];
    for (int q = nf; q < c->ncheck; q++) o[m++] = c->prog[q];
    const int check = m;
    for (int q = 0; q < nf; q++)
        if (!used[q]) o[m++] = c->prog[q];
    for (int q = c->ncheck; q < c->nprog; q++) o[m++] = c->prog[q];
    memcpy(c->prog, o, (size_t)m * sizeof *o);
    c->ncheck = check;
    free(used);
    free(need);
    free(o);
    return 1;
}

/* The slots operation o reads (at most 5; -1: none), by its opcode (unused fields are 0,
 * which is a coordinate's slot, so they are never read as operands). */
static void op_reads(const slpi_fast_lane_op *o, int r[5])
{
    int acc = o->op >= SLPI_LANE_ACC;
    r[0] = o->a;
    r[1] = o->op == SLPI_LANE_NEG || o->op == SLPI_LANE_SQR || o->op == SLPI_LANE_POWI || o->op == SLPI_LANE_ACC ||
            o->op == SLPI_LANE_DEC || (o->op == SLPI_LANE_VALUE && o->node->b < 0)
        ? -1
        : o->b;
    r[2] = o->op == SLPI_LANE_DEC_MULDIV || o->op == SLPI_LANE_ACC_DERIV || o->op >= SLPI_LANE_ACC_POW_BASE ? o->c : -1;
    r[2] = o->op == SLPI_LANE_FINITE ? -1 : r[2];
    r[3] = o->op == SLPI_LANE_ACC_POW_BASE ? o->e : -1;
    r[4] = acc ? o->acc : -1;
}

/* The operations of prog[0, ncheck) whose values do not change while the seeds stay (they
 * read no coordinate, directly or through another operation: in this model, most of the
 * reverse pass's sums of constants and seeds) go first, to nhoist; the ensemble runs them
 * once per setting of the seeds instead of once per sweep (fast/ensemble-model.h). The
 * order within each part is the program's, and the split keeps every value: an operation
 * stays in the loop when it reads a coordinate or a slot the loop writes, or writes a
 * slot the loop writes or reads before it, so the hoisted part never reads a value the
 * loop makes, and the loop reads each hoisted slot's last value (no slot is read before
 * it is written in the program: its sums begin at the zero slot). */
static int hoist(slpi_fast_model_soa *c)
{
    const int n = c->ncheck;
    unsigned char *loop = calloc((size_t)n, 1);
    slpi_fast_lane_op *o = malloc(((size_t)n + 1) * sizeof *o);
    if (!loop || !o) {
        free(loop);
        free(o);
        return 0;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int q = 0; q < n; q++) {
            if (loop[q]) continue;
            int r[5], in = 0;
            op_reads(&c->prog[q], r);
            for (int j = 0; j < 5 && !in; j++) in = r[j] >= c->y0 && r[j] < c->y0 + c->dim;
            for (int p = 0; p < n && !in; p++) {
                if (!loop[p] || p == q) continue;
                int rp[5];
                op_reads(&c->prog[p], rp);
                in = c->prog[p].d == c->prog[q].d;
                for (int j = 0; j < 5 && !in; j++) in = c->prog[p].d == r[j] || (p < q && rp[j] == c->prog[q].d);
            }
            if (in) loop[q] = changed = 1;
        }
    }
    int m = 0;
    for (int q = 0; q < n; q++)
        if (!loop[q]) o[m++] = c->prog[q];
    c->nhoist = m;
    for (int q = 0; q < n; q++)
        if (loop[q]) o[m++] = c->prog[q];
    memcpy(c->prog, o, (size_t)n * sizeof *o);
    free(loop);
    free(o);
    return 1;
}

/* The largest magnitude of a root of the tape when every coordinate is at most B in
 * magnitude, from |a + b| <= |a| + |b|, |a b| <= |a| |b|, |a / k| = |a| / |k| (k a constant
 * other than 0), |a^n| <= |a|^n (n >= 0): +inf for any other operation (a domain, a
 * division by a variable) or a constant that changes with t. */
static double root_bound(const slpi_fast_tape *t, double B, double *m)
{
    for (int i = 0; i < t->n; i++) {
        const slpi_expr_node *n = &t->node[i];
        double a = n->a >= 0 ? m[n->a] : 0, b = n->b >= 0 ? m[n->b] : 0;
        if (!t->dep[i])
            m[i] = t->tdep[i] ? INFINITY : fabs(t->v[i]);
        else if (n->op == SLPI_EXPR_COORD)
            m[i] = B;
        else if (n->op == SLPI_EXPR_ADD || n->op == SLPI_EXPR_SUB)
            m[i] = a + b;
        else if (n->op == SLPI_EXPR_MUL)
            m[i] = a * b;
        else if (n->op == SLPI_EXPR_NEG)
            m[i] = a;
        else if (n->op == SLPI_EXPR_DIV && !t->dep[n->b] && !t->tdep[n->b] && t->v[n->b] != 0)
            m[i] = a / b;
        else if (n->op == SLPI_EXPR_POWI && n->arg >= 0)
            m[i] = pow(a, n->arg);
        else
            m[i] = INFINITY;
    }
    double r = 0;
    for (int k = 0; k < t->nroot; k++) r = fmax(r, m[t->root[k]]);
    return r;
}

/* The bound on the coordinates below which the roots cannot overflow: the largest 2^e
 * whose roots' bound is at most 1e300 (binary64's range ends at 1.8e308: the rounding of
 * at most SLPI_EXPR_MAX_NODES operations, each by a factor 1 + 2^-53, cannot close the
 * gap), 0 where none is (the test then always runs). */
static double coordinate_bound(const slpi_fast_tape *t)
{
    double *m = malloc((size_t)t->n * sizeof *m), B = 0;
    if (!m || !(root_bound(t, 1, m) <= 1e300)) {
        free(m);
        return 0;
    }
    for (int e = 1000; e >= 0 && B == 0; e--)
        if (root_bound(t, ldexp(1, e), m) <= 1e300) B = ldexp(1, e);
    free(m);
    return B;
}

/* The slots and the program of c's fused tape. */
static int compile(slpi_fast_model_soa *c, slpi_error *err)
{
    const slpi_fast_tape *t = &c->tp.all;
    const int n = t->n;
    compiler k = { c,
                   t,
                   malloc(3 * (size_t)n * sizeof(int)),
                   NULL,
                   NULL,
                   calloc(4 * (size_t)n + (size_t)c->fin + 1, 1),
                   calloc((size_t)n, sizeof(int)) };
    c->cslot = malloc(2 * (size_t)n * 2 * sizeof(int));
    c->prog = malloc((5 * (size_t)n + 2 * (size_t)(t->nroot + c->dim) + 1) * sizeof *c->prog);
    c->psi = malloc((size_t)c->dim * sizeof(int));
    if (!k.val || !k.sum || !k.terms || !c->cslot || !c->prog || !c->psi) {
        free(k.val);
        free(k.sum);
        free(k.terms);
        return slpi_error_set(err, SLPI_EINPUT, "model lanes: out of memory");
    }
    c->cnode = c->cslot + 2 * n;
    k.adj = k.val + n;
    k.rec = k.adj + n;
    int next = c->fin + 1;
    for (int i = 0; i < n; i++) {
        k.val[i] = k.adj[i] = k.rec[i] = -1;
        if (t->dep[i]) continue;
        c->cslot[c->nconst] = k.val[i] = next++;
        c->cnode[c->nconst++] = i;
    }
    for (int j = 0; j < t->nd; j++) {
        int i = t->order[j];
        const slpi_expr_node *nd = &t->node[i];
        k.val[i] = nd->op == SLPI_EXPR_COORD ? c->y0 + nd->arg : next++;
        k.adj[i] = next++;
        double r;
        if (nd->op == SLPI_EXPR_DIV && !t->dep[nd->b] && !t->tdep[nd->b] && k.rec[nd->b] < 0 &&
            pow2_recip(t->v[nd->b], &r)) {
            c->cslot[c->nconst] = k.rec[nd->b] = next++;
            c->cnode[c->nconst++] = -1 - nd->b;
        }
    }
    c->nslot = next;
    emit_forward(&k);
    const int nf = c->nprog;
    emit_reverse(&k);
    c->ncheck = c->nprog;
    emit_finite(&k);
    constant_operands(c);
    c->bound = coordinate_bound(t);
    if (!split_check(c, nf) || !hoist(c)) {
        free(k.val);
        free(k.sum);
        free(k.terms);
        return slpi_error_set(err, SLPI_EINPUT, "model lanes: out of memory");
    }
    free(k.val);
    free(k.sum);
    free(k.terms);
    return SLPI_OK;
}

/* Every lane of the constant slots: the tape's values (at its current time). */
static void refresh_constants(slpi_fast_model_soa *c)
{
    const double *v = c->tp.all.v;
    for (int j = 0; j < c->nconst; j++) {
        int i = c->cnode[j];
        double x = i >= 0 ? v[i] : 1 / v[-1 - i];
        double *s = c->S + (size_t)c->cslot[j] * SLPI_ENSEMBLE_BLOCK;
        for (int l = 0; l < SLPI_ENSEMBLE_BLOCK; l++) s[l] = x;
    }
    for (int q = 0; q < c->nprog; q++)
        if (c->prog[q].kb) c->prog[q].k = c->S[(size_t)c->prog[q].b * SLPI_ENSEMBLE_BLOCK];
}

int slpi_fast_model_soa_init(slpi_fast_model_soa *c, const slpi_plan *plan, slpi_error *err)
{
    memset(c, 0, sizeof *c);
    const slpi_problem *p = slpi_plan_problem(plan);
    c->plan = slpi_plan_ref(plan); /* the model, parsed once: the plan's */
    c->m = slpi_plan_model(plan);
    int rc = slpi_fast_tapes_build(&c->tp, c->m, err);
    if (rc != SLPI_OK) return rc;
    c->dim = c->m->alg.dim;
    c->M = c->m->M;
    c->nb = c->dim / 3;
    c->y0 = 0;
    c->x0 = c->dim;
    c->w0 = 2 * c->dim;
    c->s0 = 3 * c->dim;
    c->d0 = c->s0 + c->M + 1;
    c->g0 = c->d0 + c->M + 1;
    c->fin = c->g0 + c->dim + 1;
    if ((rc = compile(c, err)) != SLPI_OK) return rc;
    size_t bytes = (size_t)c->nslot * SLPI_ENSEMBLE_BLOCK * sizeof(double);
    if (!(c->S = aligned_alloc(64, bytes))) return slpi_error_set(err, SLPI_EINPUT, "model lanes: out of memory");
    memset(c->S, 0, bytes);
    refresh_constants(c);
    slpi_fast_model_soa_policy(c, p);
    return SLPI_OK;
}

void slpi_fast_model_soa_clear(slpi_fast_model_soa *c)
{
    slpi_fast_tapes_clear(&c->tp);
    slpi_plan_unref(c->plan);
    free(c->cslot);
    free(c->prog);
    free(c->psi);
    free(c->S);
    memset(c, 0, sizeof *c);
}

long slpi_fast_model_isomp_soa(slpi_fast_model_soa *c, long nl, double h, long step, double *x, const double *dW,
                               long *iters, slpi_fast_lane *lane)
{
    if (c->m->reads_t) { /* fast/model.c model_at_time: the step's midpoint, half = 1 */
        slpi_fast_tape_set_time(&c->tp.all, c->t0 + ((double)step + 0.5 * 1) * h);
        refresh_constants(c);
    }
    if (c->pol.tol_h > 0) c->pol.tol_h = fabs(h); /* tol_scale=step: this call's step */
    long its = 0, bad = model_kernel[slpi_fast_ensemble_isa_slot(c->isa)](c, nl, h, x, dW, &its, lane);
    if (iters) *iters += its;
    return bad;
}
