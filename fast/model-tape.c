/* fast/model-tape.c — a model's Hamiltonians on the double path (fast/model-tape.h;
 * docs/models.md; core/expr.h is the parsed form and its contract).
 *
 * Each Hamiltonian's tape is evaluated forward in binary64, optionally with a tangent
 * (forward mode along a direction w), then walked in reverse: the adjoints give the
 * gradient dH/dmu exactly as the chain rule of the evaluated operations (no finite
 * differences), and the adjoints' tangents give the Hessian-vector product D(dH/dmu)[w]
 * (forward-over-reverse), which is dgen, the TMK chord's and Newton's derivative. Nodes
 * that do not depend on a coordinate are evaluated once when the tape is built and never
 * differentiated. By kind of node: node_at gives every value (op_value an operation's;
 * the forward pass inlines the common ones), unary_derivs the functions' first and second
 * derivatives, the binary operations their own rules in the sweeps (the certified twin,
 * ref/model-tape.c, has one function per kind). A parsed expression evaluated whole
 * (slpi_fast_expr_value: the studies' functional phi) goes through node_at too: binary64
 * has one evaluator of the model language, this file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/limits.h"
#include "fast/system.h"
#include "fast/model-tape.h"
#include "fast/model-share.h"

static double ipow(double x, int n)
{
    double r = 1, b = n < 0 ? 1 / x : x;
    for (unsigned k = (unsigned)abs(n); k; k >>= 1, b *= b)
        if (k & 1) r *= b;
    return r;
}

/* f'(x) and f''(x) of a unary operation at x, whose value is y; f'' only when f2 is not
 * NULL (the gradient alone needs no second derivatives). */
static void unary_derivs(int op, int arg, double x, double y, double *f1, double *f2)
{
    double s2;
    if (!f2) f2 = &s2;
    switch (op) {
    case SLPI_EXPR_NEG:
        *f1 = -1;
        *f2 = 0;
        return;
    case SLPI_EXPR_POWI:
        *f1 = arg == 0 ? 0 : arg * ipow(x, arg - 1);
        if (f2 != &s2) *f2 = arg == 0 || arg == 1 ? 0 : (double)arg * (arg - 1) * ipow(x, arg - 2);
        return;
    case SLPI_EXPR_SQRT:
        *f1 = 0.5 / y;
        *f2 = -0.25 / (x * y);
        return;
    case SLPI_EXPR_EXP:
        *f1 = y;
        *f2 = y;
        return;
    case SLPI_EXPR_LOG:
        *f1 = 1 / x;
        *f2 = -1 / (x * x);
        return;
    case SLPI_EXPR_SIN:
        *f1 = cos(x);
        *f2 = -y;
        return;
    case SLPI_EXPR_COS:
        *f1 = -sin(x);
        *f2 = -y;
        return;
    case SLPI_EXPR_TAN:
        *f1 = 1 + y * y;
        *f2 = 2 * y * (1 + y * y);
        return;
    case SLPI_EXPR_ATAN: {
        double q = 1 / (1 + x * x);
        *f1 = q;
        *f2 = -2 * x * q * q;
        return;
    }
    case SLPI_EXPR_SINH:
        *f1 = cosh(x);
        *f2 = y;
        return;
    case SLPI_EXPR_COSH:
        *f1 = sinh(x);
        *f2 = y;
        return;
    case SLPI_EXPR_TANH:
        *f1 = 1 - y * y;
        *f2 = -2 * y * (1 - y * y);
        return;
    default:
        *f1 = *f2 = NAN;
        return;
    }
}

/* Value of node n from its operands' values x and y (0 when n has none); NAN outside the domain of log,
 * sqrt, a real power, a division or a negative power. Overflow to an infinity is not
 * caught here: it reaches the value or, through a zero derivative, the gradient as an
 * infinity or a NaN, which the callers test once at the end. */
static inline double op_value(const slpi_expr_node *n, double x, double y)
{
    double r;
    switch (n->op) {
    case SLPI_EXPR_NEG:
        r = -x;
        break;
    case SLPI_EXPR_ADD:
        r = x + y;
        break;
    case SLPI_EXPR_SUB:
        r = x - y;
        break;
    case SLPI_EXPR_MUL:
        r = x * y;
        break;
    case SLPI_EXPR_DIV:
        r = y != 0 ? x / y : NAN;
        break;
    case SLPI_EXPR_POWI:
        r = n->arg < 0 && x == 0 ? NAN : ipow(x, n->arg);
        break;
    case SLPI_EXPR_POW:
        r = x > 0 ? exp(y * log(x)) : NAN;
        break;
    case SLPI_EXPR_SQRT:
        r = x > 0 ? sqrt(x) : NAN;
        break;
    case SLPI_EXPR_EXP:
        r = exp(x);
        break;
    case SLPI_EXPR_LOG:
        r = x > 0 ? log(x) : NAN;
        break;
    case SLPI_EXPR_SIN:
        r = sin(x);
        break;
    case SLPI_EXPR_COS:
        r = cos(x);
        break;
    case SLPI_EXPR_TAN:
        r = tan(x);
        break;
    case SLPI_EXPR_ATAN:
        r = atan(x);
        break;
    case SLPI_EXPR_SINH:
        r = sinh(x);
        break;
    case SLPI_EXPR_COSH:
        r = cosh(x);
        break;
    case SLPI_EXPR_TANH:
        r = tanh(x);
        break;
    default:
        r = NAN;
        break;
    }
    return r;
}

static inline double node_value(const slpi_expr_node *n, const double *v)
{
    return op_value(n, n->a >= 0 ? v[n->a] : 0, n->b >= 0 ? v[n->b] : 0);
}

/* Value of node n of a parsed expression or of a tape from the values v of the nodes before
 * it: a leaf's (CONST cval[arg], COORD mu[arg], PI, TIME time) or its operation's. The one
 * rule of a node's value in binary64 outside the forward pass's hot loop: a tape's
 * constant nodes and t's nodes, and an expression evaluated whole (slpi_fast_expr_value). */
static inline double node_at(const slpi_expr_node *n, const double *v, const double *cval, const double *mu,
                             double time)
{
    switch (n->op) {
    case SLPI_EXPR_CONST:
        return cval[n->arg];
    case SLPI_EXPR_COORD:
        return mu[n->arg];
    case SLPI_EXPR_PI:
        return SLPI_FAST_PI;
    case SLPI_EXPR_TIME:
        return time;
    default:
        return node_value(n, v);
    }
}

double slpi_fast_expr_value(const slpi_expr *e, const double *mu, double time)
{
    double v[SLPI_EXPR_MAX_NODES];
    for (int i = 0; i < e->n; i++) v[i] = node_at(&e->node[i], v, e->cval, mu, time);
    return e->n ? v[e->n - 1] : NAN;
}

double slpi_fast_tape_value(const slpi_expr_node *n, double x, double y)
{
    return op_value(n, x, y);
}

double slpi_fast_tape_deriv(int op, int arg, double x, double y)
{
    double f1;
    unary_derivs(op, arg, x, y, &f1, NULL);
    return f1;
}

/* 0 if every root's value is finite, else 1. */
static int finite_roots(const slpi_fast_tape *t)
{
    double r = 0;
    for (int k = 0; k < t->nroot; k++) r += t->v[t->root[k]] - t->v[t->root[k]];
    return !(r == 0);
}

void slpi_fast_tape_set_time(const slpi_fast_tape *t, double time)
{
    for (int j = 0; j < t->nt; j++) {
        int i = t->torder[j];
        t->v[i] = node_at(&t->node[i], t->v, NULL, NULL, time); /* no constant: it reads t */
    }
}

int slpi_fast_tape_forward(const slpi_fast_tape *t, const double *mu, const double *w)
{
    double *v = t->v, *vd = t->vd;
    if (!w) { /* values only: the common operations inline (the gradient's hot loop) */
        for (int j = 0; j < t->nd; j++) {
            int i = t->order[j];
            const slpi_expr_node *n = &t->node[i];
            switch (n->op) {
            case SLPI_EXPR_COORD:
                v[i] = mu[n->arg];
                break;
            case SLPI_EXPR_ADD:
                v[i] = v[n->a] + v[n->b];
                break;
            case SLPI_EXPR_SUB:
                v[i] = v[n->a] - v[n->b];
                break;
            case SLPI_EXPR_MUL:
                v[i] = v[n->a] * v[n->b];
                break;
            case SLPI_EXPR_NEG:
                v[i] = -v[n->a];
                break;
            case SLPI_EXPR_DIV:
                v[i] = v[n->b] != 0 ? v[n->a] / v[n->b] : NAN;
                break;
            case SLPI_EXPR_POWI:
                if (n->arg == 2) {
                    v[i] = v[n->a] * v[n->a];
                    break;
                }
                v[i] = node_value(n, v);
                break;
            default:
                v[i] = node_value(n, v);
                break;
            }
        }
        return finite_roots(t);
    }
    for (int j = 0; j < t->nd; j++) {
        int i = t->order[j];
        const slpi_expr_node *n = &t->node[i];
        if (n->op == SLPI_EXPR_COORD) {
            v[i] = mu[n->arg];
            if (w) vd[i] = w[n->arg];
            continue;
        }
        v[i] = node_value(n, v);
        if (!w) continue;
        double xd = n->a >= 0 ? vd[n->a] : 0, yd = n->b >= 0 ? vd[n->b] : 0;
        double x = n->a >= 0 ? v[n->a] : 0, y = n->b >= 0 ? v[n->b] : 0;
        switch (n->op) {
        case SLPI_EXPR_ADD:
            vd[i] = xd + yd;
            break;
        case SLPI_EXPR_SUB:
            vd[i] = xd - yd;
            break;
        case SLPI_EXPR_MUL:
            vd[i] = xd * y + x * yd;
            break;
        case SLPI_EXPR_DIV:
            vd[i] = (xd - v[i] * yd) / y;
            break;
        case SLPI_EXPR_POW:
            vd[i] = v[i] * (y * xd / x + log(x) * yd);
            break;
        default: {
            double f1;
            unary_derivs(n->op, n->arg, x, v[i], &f1, NULL);
            vd[i] = f1 * xd;
        }
        }
    }
    return finite_roots(t);
}

/* Adjoint (and its tangent) pushed to operand j with local derivative d. */
#define PUSH(j, d, dd)                                                                                                 \
    do {                                                                                                               \
        if (t->dep[j]) {                                                                                               \
            a[j] += y * (d);                                                                                           \
            if (tan) ad[j] += yd * (d) + y * (dd);                                                                     \
        }                                                                                                              \
    } while (0)

void slpi_fast_tape_reverse(const slpi_fast_tape *t, const double *seed, double *g, double *hv)
{
    double *v = t->v, *vd = t->vd, *a = t->a, *ad = t->ad;
    int tan = hv != NULL;
    if (!tan) { /* the gradient alone: the common operations inline */
        const unsigned char *dep = t->dep;
        for (int j = 0; j < t->nd; j++) a[t->order[j]] = 0;
        for (int k = 0; k < t->nroot; k++)
            if (dep[t->root[k]]) a[t->root[k]] += seed[k]; /* two Hamiltonians may share a root */
        for (int j = t->nd - 1; j >= 0; j--) {
            int i = t->order[j];
            const slpi_expr_node *n = &t->node[i];
            double y = a[i];
            int A = n->a, B = n->b;
            switch (n->op) {
            case SLPI_EXPR_COORD:
                g[n->arg] += y;
                break;
            case SLPI_EXPR_ADD:
                if (dep[A]) a[A] += y;
                if (dep[B]) a[B] += y;
                break;
            case SLPI_EXPR_SUB:
                if (dep[A]) a[A] += y;
                if (dep[B]) a[B] -= y;
                break;
            case SLPI_EXPR_MUL:
                if (dep[A]) a[A] += y * v[B];
                if (dep[B]) a[B] += y * v[A];
                break;
            case SLPI_EXPR_NEG:
                a[A] -= y;
                break;
            case SLPI_EXPR_POWI:
                if (n->arg == 2) {
                    a[A] += 2 * y * v[A];
                    break;
                }
                a[A] += y * (n->arg == 0 ? 0 : n->arg * ipow(v[A], n->arg - 1));
                break;
            case SLPI_EXPR_DIV:
                if (dep[A]) a[A] += y / v[B];
                if (dep[B]) a[B] -= y * v[i] / v[B];
                break;
            case SLPI_EXPR_POW: {
                double x = v[A];
                if (dep[A]) a[A] += y * v[B] * v[i] / x;
                if (dep[B]) a[B] += y * v[i] * log(x);
                break;
            }
            default: {
                double f1;
                unary_derivs(n->op, n->arg, v[A], v[i], &f1, NULL);
                a[A] += y * f1;
            }
            }
        }
        return;
    }
    for (int j = 0; j < t->nd; j++) a[t->order[j]] = 0;
    if (tan)
        for (int j = 0; j < t->nd; j++) ad[t->order[j]] = 0;
    for (int k = 0; k < t->nroot; k++)
        if (t->dep[t->root[k]]) a[t->root[k]] += seed[k];
    for (int j = t->nd - 1; j >= 0; j--) {
        int i = t->order[j];
        double y = a[i], yd = tan ? ad[i] : 0;
        if (y == 0 && yd == 0) continue;
        const slpi_expr_node *n = &t->node[i];
        int A = n->a, B = n->b;
        switch (n->op) {
        case SLPI_EXPR_COORD:
            g[n->arg] += y;
            if (tan) hv[n->arg] += yd;
            break;
        case SLPI_EXPR_ADD:
            PUSH(A, 1, 0);
            PUSH(B, 1, 0);
            break;
        case SLPI_EXPR_SUB:
            PUSH(A, 1, 0);
            PUSH(B, -1, 0);
            break;
        case SLPI_EXPR_MUL:
            PUSH(A, v[B], tan ? vd[B] : 0);
            PUSH(B, v[A], tan ? vd[A] : 0);
            break;
        case SLPI_EXPR_DIV: {
            /* q = x/y: dq/dx = 1/y, dq/dy = -q/y */
            double r = 1 / v[B], q = v[i];
            double rd = tan ? -vd[B] * r * r : 0, qd = tan ? vd[i] : 0;
            PUSH(A, r, rd);
            PUSH(B, -q * r, tan ? -(qd * r + q * rd) : 0);
            break;
        }
        case SLPI_EXPR_POW: {
            /* p = x^e: dp/dx = e p / x, dp/de = p log x */
            double x = v[A], e = v[B], p = v[i], lx = log(x);
            double px = e * p / x, pe = p * lx;
            double pxd = 0, ped = 0;
            if (tan) {
                double xd = vd[A], ed = vd[B], pd = vd[i];
                pxd = (ed * p + e * pd) / x - e * p * xd / (x * x);
                ped = pd * lx + p * xd / x;
            }
            PUSH(A, px, pxd);
            PUSH(B, pe, ped);
            break;
        }
        default: {
            double f1, f2 = 0;
            unary_derivs(n->op, n->arg, v[A], v[i], &f1, tan ? &f2 : NULL);
            PUSH(A, f1, f2 * vd[A]);
        }
        }
    }
}
#undef PUSH

/* ------------------------------------------------------------ building */

/* A tape over the Hamiltonians ks[0..nk) (fast/model-share.c), its scratch, and the values of
 * its constant nodes (a domain error there is the user's input: the key and the column). */
static int build_tape(slpi_fast_tape *t, const slpi_model *m, const int *ks, int nk, slpi_error *err)
{
    int rc = slpi_fast_tape_share(t, m, ks, nk, err);
    if (rc) return rc;
    int n = t->n;
    t->v = calloc(4 * (size_t)n, sizeof *t->v);
    t->order = malloc(2 * (size_t)n * sizeof *t->order);
    if (!t->v || !t->order) return slpi_error_set(err, SLPI_EINPUT, "model: out of memory");
    t->torder = t->order + n;
    t->vd = t->v + n;
    t->a = t->vd + n;
    t->ad = t->a + n;
    for (int i = 0; i < n; i++) {
        if (t->dep[i])
            t->order[t->nd++] = i;
        else if (t->tdep[i])
            t->torder[t->nt++] = i;
    }
    for (int i = 0; i < n; i++) {
        if (t->dep[i] || t->tdep[i]) continue; /* t's: slpi_fast_tape_set_time */
        const slpi_expr_node *nd = &t->node[i];
        int k = t->owner[i];
        t->v[i] = node_at(nd, t->v, m->H[k].cval, NULL, 0);
        if (!(t->v[i] - t->v[i] == 0)) return slpi_model_constant_refusal(err, k, nd);
    }
    return SLPI_OK;
}

int slpi_fast_tapes_build(slpi_fast_tapes *T, const slpi_model *m, slpi_error *err)
{
    int M = m->M, ks[1 + SLPI_MODEL_MAX_NOISE], nk = 0, rc = SLPI_OK;
    for (int k = 0; k <= M && rc == SLPI_OK; k++) {
        if (m->callback[k]) continue; /* code, no tape (then no fused tape either) */
        ks[nk++] = k;
        rc = build_tape(&T->t[k], m, &k, 1, err);
    }
    if (rc == SLPI_OK && nk == M + 1) rc = build_tape(&T->all, m, ks, nk, err);
    return rc;
}

static void tape_clear(slpi_fast_tape *t)
{
    free(t->node);
    free(t->dep);
    free(t->tdep);
    free(t->owner);
    free(t->v);
    free(t->order);
    free(t->root);
}

void slpi_fast_tapes_clear(slpi_fast_tapes *T)
{
    for (int k = 0; k <= SLPI_MODEL_MAX_NOISE; k++) tape_clear(&T->t[k]);
    tape_clear(&T->all);
    memset(T, 0, sizeof *T);
}

int slpi_fast_tape_fault(const slpi_fast_tape *t)
{
    for (int j = 0; j < t->nt + t->nd; j++) { /* torder's nodes come before order's */
        int i = j < t->nt ? t->torder[j] : t->order[j - t->nt];
        const slpi_expr_node *n = &t->node[i];
        double a = n->a >= 0 ? t->v[n->a] : 0, b = n->b >= 0 ? t->v[n->b] : 0, v = t->v[i];
        if (v - v == 0 || !(a - a == 0) || !(b - b == 0)) continue;
        return i;
    }
    return -1;
}
