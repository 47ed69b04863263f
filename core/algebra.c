/* algebra.c — the algebra families a model may name (core/expr.h, docs/models.md#equations):
 * their names, equations in words, coordinates, pairing weights and which basis elements
 * commute. No evaluation here. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "core/problem-struct.h"
#include "core/expr.h"

const slpi_algebra *slpi_problem_algebra(const slpi_problem *p)
{
    return p->sys.system == SLPI_SYS_MODEL && p->sys.model.alg.dim > 0 ? &p->sys.model.alg : NULL;
}

int slpi_algebra_parse(slpi_algebra *a, const char *key, const char *text, slpi_error *err)
{
    int n = 0, used = 0;
    if (strcmp(text, "so3") == 0) {
        a->kind = SLPI_ALGEBRA_SO3;
        a->n = 3;
        a->dim = 3;
        return SLPI_OK;
    }
    if (strcmp(text, "se3") == 0) {
        a->kind = SLPI_ALGEBRA_SE3;
        a->n = 3;
        a->dim = 6;
        return SLPI_OK;
    }
    if (sscanf(text, "so(%d)%n", &n, &used) == 1 && used > 0 && text[used] == 0 && isdigit((unsigned char)text[3])) {
        if (n < 3 || n > 64) return slpi_error_set(err, SLPI_EINPUT, "%s=%s: so(n) needs 3 <= n <= 64", key, text);
        a->kind = SLPI_ALGEBRA_SON;
        a->n = n;
        a->dim = n * (n - 1) / 2;
        return SLPI_OK;
    }
    if (sscanf(text, "su(%d)%n", &n, &used) == 1 && used > 0 && text[used] == 0 && isdigit((unsigned char)text[3])) {
        if (n < 2 || n > 256) /* Euler-Zeitlin's range: large N is for callbacks */
            return slpi_error_set(err, SLPI_EINPUT, "%s=%s: su(n) needs 2 <= n <= 256", key, text);
        a->kind = SLPI_ALGEBRA_SUN;
        a->n = n;
        a->dim = n * n;
        return SLPI_OK;
    }
    if (sscanf(text, "so3^%d%n", &n, &used) == 1 && used > 0 && text[used] == 0 && isdigit((unsigned char)text[4])) {
        if (n < 2 || n > 64) /* k = 1 is so3 (the built-in vortices start at 2) */
            return slpi_error_set(err, SLPI_EINPUT, "%s=%s: so3^k needs 2 <= k <= 64 (k = 1: so3)", key, text);
        a->kind = SLPI_ALGEBRA_SO3K;
        a->n = n;
        a->dim = 3 * n;
        return SLPI_OK;
    }
    return slpi_error_set(err, SLPI_EINPUT, "%s=%.60s: unknown algebra (expected so3 | se3 | so(n) | su(n) | so3^k)",
                          key, text);
}

void slpi_algebra_equation(const slpi_algebra *a, const char **equation, const char **pairing, const char **bracket)
{
    switch (a->kind) {
    case SLPI_ALGEBRA_SO3:
        *equation = "dx = x cross grad H dt + sum_k x cross grad H_k o dW^k (Euler's equations "
                    "x' = x cross I^-1 x for H = 1/2 sum x_i^2/I_i)";
        *pairing = "dot product of R^3 (X = hat x): grad H = (dH/dx_1, dH/dx_2, dH/dx_3)";
        *bracket = "[x, y] = x cross y; {F, G}(x) = -x . (grad F cross grad G)";
        return;
    case SLPI_ALGEBRA_SE3:
        *equation = "dpi = (pi cross grad_pi H + gamma cross grad_gamma H) o dS, dgamma = gamma cross "
                    "grad_pi H o dS, summed over H dt and H_k o dW^k (the heavy top's equations)";
        *pairing = "dot product of R^6: grad H = (dH/dpi_i, dH/dgamma_i)";
        *bracket = "[(a, b), (c, d)] = (a cross c, a cross d - c cross b)";
        return;
    case SLPI_ALGEBRA_SON:
        *equation = "dX = [X, grad H] dt + sum_k [X, grad H_k] o dW^k (Manakov's equations; so(3) is so3 "
                    "by the hat map)";
        *pairing = "<A, B> = -1/2 Tr AB = sum_{i<j} A_ij B_ij: (grad H)_ij = dH/dX_i_j";
        *bracket = "the matrix commutator [A, B] = AB - BA";
        return;
    case SLPI_ALGEBRA_SUN:
        *equation = "dX = [X, grad H] dt + sum_k [X, grad H_k] o dW^k, H read at the traceless part of X "
                    "(Euler-Zeitlin: X' = [P, X] for H = -1/2 Tr(P^* X), Delta_N P = X)";
        *pairing = "Frobenius Tr(A^* B): grad H has dH/dImX_a_a on the diagonal and half of dH/dReX_a_b, "
                   "dH/dImX_a_b off it, then its traceless part";
        *bracket = "the matrix commutator [A, B] = AB - BA";
        return;
    case SLPI_ALGEBRA_SO3K:
        *equation = "dx_i = x_i cross grad_{x_i} H dt + sum_k x_i cross grad_{x_i} H_k o dW^k, per block i "
                    "(k copies of so3)";
        *pairing = "dot product per block: grad_{x_i} H = (dH/dxi_1, dH/dxi_2, dH/dxi_3)";
        *bracket = "x_i cross y_i per block";
        return;
    }
    *equation = *pairing = *bracket = "";
}

void slpi_algebra_text(const slpi_algebra *a, char *buf, size_t n)
{
    switch (a->kind) {
    case SLPI_ALGEBRA_SO3:
        snprintf(buf, n, "so3");
        return;
    case SLPI_ALGEBRA_SE3:
        snprintf(buf, n, "se3");
        return;
    case SLPI_ALGEBRA_SON:
        snprintf(buf, n, "so(%d)", a->n);
        return;
    case SLPI_ALGEBRA_SUN:
        snprintf(buf, n, "su(%d)", a->n);
        return;
    case SLPI_ALGEBRA_SO3K:
        snprintf(buf, n, "so3^%d", a->n);
        return;
    }
}

/* so(n) coordinate i -> (row, col), 0-based, row < col, row-major upper triangle. */
static void upper_pair(int n, int i, int *r, int *c)
{
    int row = 0;
    while (i >= n - 1 - row) {
        i -= n - 1 - row;
        row++;
    }
    *r = row;
    *c = row + 1 + i;
}

void slpi_algebra_coord_name(const slpi_algebra *a, int i, char *buf, size_t n)
{
    static const char *const se3[] = { "pi1", "pi2", "pi3", "gamma1", "gamma2", "gamma3" };
    int r, c;
    switch (a->kind) {
    case SLPI_ALGEBRA_SO3:
        snprintf(buf, n, "x%d", i + 1);
        return;
    case SLPI_ALGEBRA_SE3:
        snprintf(buf, n, "%s", se3[i]);
        return;
    case SLPI_ALGEBRA_SON:
        upper_pair(a->n, i, &r, &c);
        snprintf(buf, n, "X_%d_%d", r + 1, c + 1);
        return;
    case SLPI_ALGEBRA_SUN:
        if (i < a->n) {
            snprintf(buf, n, "ImX_%d_%d", i, i);
            return;
        }
        upper_pair(a->n, (i - a->n) / 2, &r, &c);
        snprintf(buf, n, "%sX_%d_%d", (i - a->n) % 2 ? "Im" : "Re", r, c);
        return;
    case SLPI_ALGEBRA_SO3K:
        snprintf(buf, n, "x%d_%d", i / 3 + 1, i % 3 + 1);
        return;
    }
}

/* so(n) and su(n) pair (r, c), r < c, -> its index in the row-major upper triangle */
static int pair_index(int n, int r, int c)
{
    return r * n - r * (r + 1) / 2 + (c - r - 1);
}

int slpi_algebra_coord_index(const slpi_algebra *a, const char *s, size_t len)
{
    char buf[64], name[64];
    int r = -1, c = -1, i = -1;
    if (len >= sizeof buf) return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    /* the candidate the numbers in the name point at (su(256) has 65536 coordinates: no
     * search), accepted only if its own name is the text exactly */
    switch (a->kind) {
    case SLPI_ALGEBRA_SO3:
    case SLPI_ALGEBRA_SE3:
        for (int j = 0; j < a->dim && i < 0; j++) {
            slpi_algebra_coord_name(a, j, name, sizeof name);
            if (strcmp(name, buf) == 0) i = j;
        }
        return i;
    case SLPI_ALGEBRA_SON:
        if (sscanf(buf, "X_%d_%d", &r, &c) == 2 && 1 <= r && r < c && c <= a->n) i = pair_index(a->n, r - 1, c - 1);
        break;
    case SLPI_ALGEBRA_SUN:
        if (len > 2 && sscanf(buf + 2, "X_%d_%d", &r, &c) == 2 && 0 <= r && r <= c && c < a->n) {
            if (r == c)
                i = strncmp(buf, "Im", 2) == 0 ? r : -1;
            else
                i = a->n + 2 * pair_index(a->n, r, c) + (strncmp(buf, "Im", 2) == 0);
        }
        break;
    case SLPI_ALGEBRA_SO3K:
        if (sscanf(buf, "x%d_%d", &r, &c) == 2 && 1 <= r && r <= a->n && 1 <= c && c <= 3) i = 3 * (r - 1) + c - 1;
        break;
    }
    if (i < 0 || i >= a->dim) return -1;
    slpi_algebra_coord_name(a, i, name, sizeof name);
    return strcmp(name, buf) == 0 ? i : -1;
}

int slpi_algebra_weight(const slpi_algebra *a, int i)
{
    return a->kind == SLPI_ALGEBRA_SUN && i >= a->n ? 2 : 1;
}

/* ------------------------------------------------------------ commuting basis elements */

/* Indices of a coordinate's basis element: so(n) (i, j); su(n) (a, a) or (a, b). */
static void index_pair(const slpi_algebra *a, int i, int *r, int *c)
{
    if (a->kind == SLPI_ALGEBRA_SON) {
        upper_pair(a->n, i, r, c);
    } else if (i < a->n) {
        *r = *c = i;
    } else {
        upper_pair(a->n, (i - a->n) / 2, r, c);
    }
}

int slpi_algebra_commute(const slpi_algebra *a, int i, int j)
{
    if (i == j) return 1;
    switch (a->kind) {
    case SLPI_ALGEBRA_SO3:
        return 0;
    case SLPI_ALGEBRA_SE3:
        /* [(x, 0), (y, 0)] = (x cross y, 0), [(x, 0), (0, b)] = (0, x cross b), translations commute */
        return (i >= 3 && j >= 3) || i % 3 == j % 3;
    case SLPI_ALGEBRA_SO3K:
        return i / 3 != j / 3;
    case SLPI_ALGEBRA_SON:
    case SLPI_ALGEBRA_SUN: {
        int r1, c1, r2, c2;
        index_pair(a, i, &r1, &c1);
        index_pair(a, j, &r2, &c2);
        if (a->kind == SLPI_ALGEBRA_SUN && r1 == c1 && r2 == c2) return 1; /* diagonal */
        return r1 != r2 && r1 != c2 && c1 != r2 && c1 != c2;
    }
    }
    return 0;
}
