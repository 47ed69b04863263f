/* fast/model-tape.h — a model's Hamiltonians in binary64 with exact automatic
 * differentiation (fast/model-tape.c; docs/models.md): core's parsed tape (core/expr.h)
 * evaluated forward, optionally with a tangent, and walked in reverse for the gradient
 * and the Hessian-vector product. fast/model.c builds the system on it; ref/model-tape.h
 * is the certified path's twin; fast/model-share.h makes a tape's nodes. */
#ifndef SLPI_FAST_MODEL_TAPE_H
#define SLPI_FAST_MODEL_TAPE_H

typedef struct slpi_error slpi_error; /* slpi/errors.h */
#include "slpi/limits.h"
#include "core/expr.h"

typedef struct {
    int n;                     /* nodes, identical subtrees shared (hash-consing), a
                                     product that repeats a factor made of powers */
    slpi_expr_node *node;      /* core's nodes, operands renumbered */
    unsigned char *dep, *tdep; /* depends on a coordinate; on the time t */
    int nd, *order;            /* the coordinate-dependent nodes, in evaluation order */
    int nt, *torder;           /* the other nodes that depend on t, in evaluation order
                                     (their values: slpi_fast_tape_set_time) */
    int nroot, *root;          /* the values: one per Hamiltonian (the fused tape: M + 1;
                                     two identical Hamiltonians share a root) */
    int *owner;                /* the Hamiltonian k a node first occurs in (its constant,
                                     messages) */
    double *v, *vd, *a, *ad;   /* values, tangents, adjoints, adjoint tangents */
} slpi_fast_tape;

/* The tapes of a model: one per Hamiltonian given as an expression, and the fused tape
 * (their nodes one after the other, one root per Hamiltonian: gen_sum's one sweep each
 * way) when every Hamiltonian is an expression. In each, identical subtrees are one node
 * (their value is computed once and their adjoints summed before they are pushed on), and
 * a product that repeats a factor is the product of its powers (q*x1*x1*x1*x1 is
 * q*x1^4: fast/model-share.c says where that rounds otherwise): where no subtree but a
 * coordinate or a constant repeats and no product repeats a factor, the operations and
 * their order are the parsed tape's, and so are the results, bit for bit. */
typedef struct {
    slpi_fast_tape t[1 + SLPI_MODEL_MAX_NOISE];
    slpi_fast_tape all;
} slpi_fast_tapes;

/* Build m's tapes; the values of their constant nodes (a domain error there is the user's
 * input: SLPI_EINPUT with the key and the column). slpi_fast_tapes_clear after an error
 * too. */
int slpi_fast_tapes_build(slpi_fast_tapes *T, const slpi_model *m, slpi_error *err);
void slpi_fast_tapes_clear(slpi_fast_tapes *T);

/* The values of the nodes that depend on the time t and on no coordinate, at t = time
 * (the TIME nodes read it; the coordinate-dependent ones read them in the forward pass).
 * A value outside its domain is NaN and fails the next forward pass. */
void slpi_fast_tape_set_time(const slpi_fast_tape *t, double time);
/* Forward pass over the coordinate-dependent nodes at mu, with tangents along w when w
 * is not NULL. Returns 0, or 1 when a root's value is not finite (a domain error, an
 * overflow). */
int slpi_fast_tape_forward(const slpi_fast_tape *t, const double *mu, const double *w);
/* Reverse pass after slpi_fast_tape_forward: g += sum_k seed[k] dH_k/dmu over the tape's
 * roots and, when hv is not NULL (forward ran with tangents), hv += the same of
 * D(dH_k/dmu)[w]. */
void slpi_fast_tape_reverse(const slpi_fast_tape *t, const double *seed, double *g, double *hv);
/* The parsed expression e (core/expr.h) evaluated whole at the coordinates mu and the time
 * `time`, node by node with the arithmetic of the passes above: the value of a tape of e at
 * (mu, time), bit for bit (slpi_fast_tape_set_time, slpi_fast_tape_forward) where no
 * product of e repeats a factor, but as written, neither shared nor refused: a node outside its domain or an overflow makes the value NaN or an
 * infinity, and an empty e is NaN. Its scratch is on the stack, so one e serves any number
 * of threads: the studies' functional phi (studies/converge-phi.c). */
double slpi_fast_expr_value(const slpi_expr *e, const double *mu, double time);
/* One node's operation, for the lock-step lanes of fast/ensemble-model.h, which evaluate
 * the operations other than + - x / and squares path by path: the value of node n from its
 * operands' values x and y (0 for an absent operand), and f'(x) of a unary operation whose
 * value at x is y; the same arithmetic as the passes above, bit for bit. */
double slpi_fast_tape_value(const slpi_expr_node *n, double x, double y);
double slpi_fast_tape_deriv(int op, int arg, double x, double y);
/* After a failed forward pass: the first node, in evaluation order, whose value is not
 * finite although its operands are; -1 if none. */
int slpi_fast_tape_fault(const slpi_fast_tape *t);

#endif
