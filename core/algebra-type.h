/* core/algebra-type.h — which Lie algebra a model's state lives in (the key algebra):
 * its family and size. Parsed, named and queried by core/expr.h's slpi_algebra_ functions
 * (core/algebra.c); here alone so that a view of the problem that holds one
 * (core/view-system.h) needs none of the expression parser. Not installed. */
#ifndef SLPI_CORE_ALGEBRA_TYPE_H
#define SLPI_CORE_ALGEBRA_TYPE_H

typedef enum {
    SLPI_ALGEBRA_SO3,
    SLPI_ALGEBRA_SE3,
    SLPI_ALGEBRA_SON,
    SLPI_ALGEBRA_SUN,
    SLPI_ALGEBRA_SO3K
} slpi_algebra_kind;

typedef struct {
    slpi_algebra_kind kind;
    int n;   /* so(n), su(n): n; so3^k: k; so3, se3: 3 */
    int dim; /* coordinates (the state layout's length) */
} slpi_algebra;

#endif
