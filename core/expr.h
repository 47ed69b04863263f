/* expr.h — models as data (docs/models.md): the algebra families a model may name, the
 * expression language of its Hamiltonians, and the parsed form that BOTH paths evaluate,
 * each with its own arithmetic (fast/model.c in binary64 with exact automatic
 * differentiation, the certified path in Arb balls). Core parses and validates once;
 * nothing here evaluates an expression, so the two evaluators stay independent.
 *
 * GRAMMAR (one expression; blanks are spaces and tabs)
 *     expr    := term  (('+' | '-') term)*
 *     term    := unary (('*' | '/') unary)*
 *     unary   := '-' unary | '+' unary | power
 *     power   := atom ('^' unary)?                  right-associative: a^b^c = a^(b^c)
 *     atom    := NUMBER | NAME | NAME '(' expr ')' | '(' expr ')'
 *     NUMBER  := DIGITS ('.' DIGITS?)? (('e'|'E') ('+'|'-')? DIGITS)?  |  '.' DIGITS (exponent)?
 *     NAME    := [A-Za-z_][A-Za-z0-9_]*
 * so -x^2 = -(x^2) and 2^-1 = 2^(-1). A NAME followed by '(' is a function (sqrt exp log
 * sin cos tan atan sinh cosh tanh, one argument each); otherwise a coordinate of the
 * algebra (slpi_algebra_coord_name), then a parameter of the model (key param.NAME), then
 * the time `t`, then the constant `pi`. Parameters may not shadow coordinates, functions
 * or `pi`, and no parameter is named `t` (slpi_model_parse refuses param.t).
 *
 * LIMITS (stated in docs/models.md; each violation is an SLPI_EINPUT naming the key and
 * the column): text below SLPI_EXPR_MAX_TEXT characters (slpi.h), at most SLPI_EXPR_MAX_NODES nodes,
 * parentheses, unary signs and powers nested at most SLPI_EXPR_MAX_DEPTH deep, integer
 * exponents |n| <= SLPI_EXPR_MAX_POWI, a constant must be a finite normal binary64 or 0
 * after rounding (no overflow to infinity, no underflow to a subnormal).
 *
 * THE PARSED FORM (the contract both evaluators rely on; additive changes only)
 * An slpi_expr is a flat array of nodes in evaluation order (SSA): node i reads only
 * nodes a, b < i, and the expression's value is node n-1. Nothing is folded or
 * simplified: the tape is the expression as written, so the certified path reads every
 * constant exactly from its decimal text. Node semantics (v_i the value of node i):
 *     CONST  v = the constant `arg` (text ctext[arg], exact decimal; cval[arg] is its
 *            binary64 rounding to nearest). A parameter is bound at parse time: it
 *            becomes a CONST whose text is the parameter's value as given (param.NAME=).
 *     COORD  v = mu[arg], arg the 0-based coordinate index in the state layout.
 *     PI     v = pi (Arb: arb_const_pi; binary64: the nearest double).
 *     TIME   v = t, the time at which the scheme evaluates the Hamiltonian (the name `t`;
 *            docs/models.md#time): t0 + (n + c) h for step n and the scheme's stage c,
 *            in balls from t0's decimal text on the certified path, in binary64 by the
 *            same formula on the double path. Not a coordinate: dep is 0 and tdep 1.
 *     NEG    v = -v_a            ADD v = v_a + v_b     SUB v = v_a - v_b
 *     MUL    v = v_a * v_b       DIV v = v_a / v_b     (domain: v_b != 0)
 *     POWI   v = v_a ^ arg, arg an integer (|arg| <= SLPI_EXPR_MAX_POWI), written in
 *            the text as an integer literal exponent, optionally signed or parenthesized:
 *            x^2, x^-1, x^(-3). x^0 = 1 for every x; domain for arg < 0: v_a != 0.
 *     POW    v = v_a ^ v_b = exp(v_b log v_a), every other exponent (x^0.5, x^2.0, x^p for a
 *            parameter p, x^(1/3)); domain: v_a > 0.
 *     SQRT   domain v_a > 0 (0 is refused: the derivative is infinite there)
 *     LOG    domain v_a > 0
 *     EXP SIN COS TAN ATAN SINH COSH TANH: the usual functions of v_a; TAN's domain is
 *            cos v_a != 0 (a non-finite result on the double path).
 * Unused operand fields are -1. `col` (1-based) is the column of the token that made the
 * node, for messages ("H: col 7: log of 0 or less" is the evaluator's to say).
 * A domain error is exit 3 on the double path (with the step), UNABLE on the certified
 * path (a ball that reaches outside the domain).
 *
 * THE ALGEBRAS, THEIR COORDINATES AND PAIRINGS (docs/models.md#equations)
 * A model's Hamiltonians are functions of the state coordinates mu (the core state layout
 * of the built-in system with the same algebra, slpi.h). Each algebra integrates its
 * textbook Lie-Poisson equation d mu = sum_k ad*_{xi_k} mu o dS^k (S^0 = t, S^k = W^k),
 * xi_k = grad H_k in the algebra's textbook pairing, which in these coordinates is
 * xi_i = w_i dH/dmu_i with w_i = slpi_algebra_weight(alg, i), 1 or 1/2:
 *     so3        x1 x2 x3  (dot pairing, w = 1; X = hat x): dx = x cross grad H, Euler's
 *                equations for H = 1/2 sum x_i^2 / I_i
 *     se3        pi1 pi2 pi3 gamma1 gamma2 gamma3   (dot on R^6; w = 1): the heavy top,
 *                dpi = pi x grad_pi H + gamma x grad_gamma H, dgamma = gamma x grad_pi H
 *     so(n)      X_i_j, 1 <= i < j <= n, row-major (<A, B> = -1/2 Tr AB = sum_{i<j}
 *                A_ij B_ij, w = 1): dX = [X, grad H], Manakov; so(3) is so3 by the hat map
 *     su(n)      ImX_a_a (a = 0..n-1), then for a < b row-major ReX_a_b, ImX_a_b
 *                (Euler-Zeitlin packing; Frobenius Tr(A^* B); w = 1 on ImX_a_a, 1/2 on
 *                the others): dX = [X, grad H]; H is read at the traceless part of X and
 *                the gradient projected to it (docs/models.md#su-n)
 *     so3^k      x1_1 x1_2 x1_3 ... xk_3  (k copies of so3: dot pairing per block, w = 1,
 *                X_i = hat x_i): dx_i = x_i cross grad_{x_i} H
 */
#ifndef SLPI_CORE_EXPR_H
#define SLPI_CORE_EXPR_H

#include <stddef.h>
typedef struct slpi_error slpi_error; /* slpi/errors.h */
#include "slpi/limits.h"
#include "core/algebra-type.h"

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

#define SLPI_EXPR_MAX_NODES 2048
#define SLPI_EXPR_MAX_DEPTH 64
#define SLPI_EXPR_MAX_POWI 64

typedef enum {
    SLPI_EXPR_CONST,
    SLPI_EXPR_COORD,
    SLPI_EXPR_PI,
    SLPI_EXPR_NEG,
    SLPI_EXPR_ADD,
    SLPI_EXPR_SUB,
    SLPI_EXPR_MUL,
    SLPI_EXPR_DIV,
    SLPI_EXPR_POWI,
    SLPI_EXPR_POW,
    SLPI_EXPR_SQRT,
    SLPI_EXPR_EXP,
    SLPI_EXPR_LOG,
    SLPI_EXPR_SIN,
    SLPI_EXPR_COS,
    SLPI_EXPR_TAN,
    SLPI_EXPR_ATAN,
    SLPI_EXPR_SINH,
    SLPI_EXPR_COSH,
    SLPI_EXPR_TANH,
    SLPI_EXPR_TIME,
    SLPI_EXPR_OP_COUNT
} slpi_expr_op;

typedef struct {
    int op;   /* slpi_expr_op */
    int a, b; /* operand nodes (< this node), -1 when unused */
    int arg;  /* CONST: constant index; COORD: coordinate index; POWI: exponent */
    int col;  /* 1-based column of the node's token in the text */
} slpi_expr_node;

typedef struct {
    int n; /* nodes; the value is node n-1 */
    slpi_expr_node *node;
    int nconst;
    double *cval;        /* binary64 rounding (to nearest) of ctext[i] */
    char **ctext;        /* exact decimal text, unsigned (a parameter's text may carry its sign) */
    int ncoord;          /* dimension of the algebra the coordinates index */
    unsigned char *dep;  /* dep[i] = 1 if node i depends on a coordinate (else its
                               derivatives are all 0) */
    unsigned char *tdep; /* tdep[i] = 1 if node i depends on the time t (a TIME node) */
    int reads_t;         /* 1 if the expression reads t (tdep of its value node) */
} slpi_expr;

/* Name of an operation ("add", "sqrt", ...), for messages and tests. */
const char *slpi_expr_op_name(int op);

/* ------------------------------------------------------------ algebras */

/* "so3", "se3", "so(n)" (3 <= n <= 64), "su(n)" (2 <= n <= 256), "so3^k" (2 <= k <= 64);
 * an error names key=text and lists the families. */
int slpi_algebra_parse(slpi_algebra *a, const char *key, const char *text, slpi_error *err);
/* The algebra's equation, pairing and bracket in words (docs/models.md#equations; the
 * table above), static strings: what `slpi model` prints. */
void slpi_algebra_equation(const slpi_algebra *a, const char **equation, const char **pairing, const char **bracket);
/* The algebra of a model problem, parsed once, by the setter of its key algebra (the
 * one call of slpi_algebra_parse on a problem); NULL when p is no system=model or gives
 * no algebra. */
const slpi_algebra *slpi_problem_algebra(const slpi_problem *p);
/* The algebra whose coordinate names are p's state layout (slpi_problem_state_name), one
 * for one, into *a: a model's algebra, or the built-in system's (rigid body so3, heavy top
 * se3, Manakov so(n), point vortices so3^n, Euler-Zeitlin and sine-Euler su(N)); returns
 * 1, or 0 when the layout is no algebra's (the SVI forms' rotation matrices, a model with
 * no algebra). What an expression of the state (the studies' functional phi) reads it
 * over. core/problem-shape.c, beside the layout it must match; a per-system table of
 * algebras would absorb its switch. */
int slpi_problem_state_algebra(slpi_algebra *a, const slpi_problem *p);
/* Canonical text of a (round-trips through slpi_algebra_parse) into buf. */
void slpi_algebra_text(const slpi_algebra *a, char *buf, size_t n);
/* Name of coordinate i (see the table above) into buf. */
void slpi_algebra_coord_name(const slpi_algebra *a, int i, char *buf, size_t n);
/* The index of the coordinate named s[0..len), or -1. */
int slpi_algebra_coord_index(const slpi_algebra *a, const char *s, size_t len);
/* The pairing weight of coordinate i: returns 1 for w_i = 1 and 2 for w_i = 1/2, so that
 * xi_i = (dH/dmu_i) / slpi_algebra_weight(a, i) exactly in both paths. */
int slpi_algebra_weight(const slpi_algebra *a, int i);

/* ------------------------------------------------------------ parsing */

/* A parameter as bound into expressions: name, value text as given, its double; the
 * parser sets *used to 1 when an expression reads it (used may be NULL). */
typedef struct {
    const char *name;
    const char *text;
    double value;
    int *used;
} slpi_expr_param;

/* Parse text (the value of key `key`, for messages) over algebra alg and parameters
 * par[0..npar). On error (SLPI_EINPUT) err->msg is "KEY: col C: reason", then the text
 * (or a window of it around C) and a caret under column C on two more lines; *e is
 * left empty (slpi_expr_free is still safe). */
int slpi_expr_parse(slpi_expr *e, const char *key, const char *text, const slpi_algebra *alg, int npar,
                    const slpi_expr_param *par, slpi_error *err);
void slpi_expr_free(slpi_expr *e);

/* A parameter's value (key param.NAME): a NUMBER of the grammar with an optional sign,
 * blanks around it allowed, finite and not subnormal; *v its binary64 rounding. The
 * error names key=text. */
int slpi_expr_number(const char *key, const char *text, double *v, slpi_error *err);

/* ------------------------------------------------------------ whole models */

/* A parsed model: H[0] = H, H[k] = noise_Hk (k = 1..M). Built from the problem's model
 * keys (p->system == SLPI_SYS_MODEL) by slpi_model_parse, which also checks that H is
 * given and that the noise Hamiltonians are numbered 1..M without gaps. */
typedef struct {
    slpi_algebra alg;
    int M;
    slpi_expr H[1 + SLPI_MODEL_MAX_NOISE];
    /* 1 where H_k is given as code (p->model.cb[k], docs/models.md#callbacks): H[k] is
     * then empty (n = 0) and only the double path can evaluate it */
    unsigned char callback[1 + SLPI_MODEL_MAX_NOISE];
    int reads_t; /* 1 if some H_k reads the time t (docs/models.md#time) */
} slpi_model;

/* The key of a model's Hamiltonian k into buf: "H" (k = 0) or "noise_Hk"; returns buf. */
const char *slpi_model_key(char *buf, size_t n, int k);
/* The refusal of H_k's constant subexpression nd (a node that reads neither a coordinate
 * nor t) whose value is outside its operation's domain or beyond binary64's range: one
 * text for both paths, which evaluate their constants once, at creation, each in its own
 * arithmetic (the double path: NaN or infinite; the certified path: a domain fault or a
 * ball reaching beyond DBL_MAX), and refuse the first such node of H_0, H_1, ... (exit 2,
 * docs/models.md#two-paths). Returns SLPI_EINPUT. */
int slpi_model_constant_refusal(slpi_error *err, int k, const slpi_expr_node *nd);
/* M of a model problem: the highest noise index given as an expression or a callback. */
int slpi_model_noise_count(const slpi_problem *p);
int slpi_model_parse(slpi_model *m, const slpi_problem *p, slpi_error *err);
void slpi_model_free(slpi_model *m);
/* How many times slpi_model_parse has run in this process (the tests' count of parses). */
long slpi_model_parse_count(void);

/* 1 if the basis elements of coordinates i and j commute ([e_i, e_j] = 0). */
int slpi_algebra_commute(const slpi_algebra *a, int i, int j);
/* The degree of e as a polynomial in the coordinates (0 constant, 1 affine, 2 quadratic,
 * ...), read off the tape's operations (+ - * by constants, / by constants, ^n with n >= 0);
 * -1 if the tape is not visibly a polynomial (a function of a coordinate, a division by
 * one, a real power). */
int slpi_expr_degree(const slpi_expr *e);
/* The Lie-Euler consistency rule on a model (docs/models.md#schemes; core/lie-euler.c): every noise
 * Hamiltonian is affine (slpi_expr_degree <= 1), or depends only on coordinates whose basis elements commute
 * pairwise. Then D xi_k[V_k] = 0 for V_k = ad*_{xi_k} mu (with a diagonal pairing,
 * <V_k, e_j> = <mu, [xi_k, e_j]> = 0 for each coordinate j that H_k depends on), so the
 * missed drift 1/2 sum_k ad*_{D xi_k[V_k]} mu vanishes. A sufficient rule: a model it
 * refuses may still be consistent. Returns 1 or 0, *why a static reason. */
int slpi_model_le_consistent(const slpi_model *m, const char **why);

#endif
