/* poisson.c — the one-step Poisson defect of a scheme's map for a fixed increment (0: noise-free) (claims I11, V4,
 * V5, V19; docs/claims.md): the Lie–Poisson tensor in Arb balls and max |D J(x0) D^T - J(Phi(x0))|
 * with D a central difference quotient of the fast step (exact balls of its doubles) or
 * of the certified step, and the rigorous defect of ref/ where it exists (gaps.h). */
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/step.h"
#include "slpi/fast.h"
#include "slpi/ref.h"
#include "slpi/problem-shape.h"
#include "core/view-scheme.h"
#include "core/view-system.h"
#include "gaps/gaps.h"

enum { MAXDIM = 64 };
static const slong PREC = 128;

/* One step with every noise increment equal to dw (0: noise-free) from binary64 x to
 * balls y on the fast or the certified path. */
typedef struct {
    slpi_fast *f;
    slpi_ref *r;
    int dim;
    double dw;
} stepper;

static int step_to_balls(stepper *s, const double *x, arb_ptr y)
{
    double dW[8], v[MAXDIM];
    for (int i = 0; i < 8; i++) dW[i] = s->dw;
    slpi_step_info info;
    if (s->f) {
        memcpy(v, x, sizeof(double) * (size_t)s->dim);
        if (slpi_step_failed(slpi_fast_step(s->f, v, dW, &info))) return -1;
        for (int i = 0; i < s->dim; i++) arb_set_d(y + i, v[i]);
        return 0;
    }
    for (int i = 0; i < s->dim; i++) arb_set_d(y + i, x[i]);
    return slpi_step_failed(slpi_ref_step(s->r, y, dW, &info)) ? -1 : 0;
}

/* hat(v) into the 3x3 block of J at (r0, c0). */
static void hat_block(arb_mat_t J, int r0, int c0, arb_srcptr v)
{
    arb_neg(arb_mat_entry(J, r0, c0 + 1), v + 2);
    arb_set(arb_mat_entry(J, r0, c0 + 2), v + 1);
    arb_set(arb_mat_entry(J, r0 + 1, c0), v + 2);
    arb_neg(arb_mat_entry(J, r0 + 1, c0 + 2), v + 0);
    arb_neg(arb_mat_entry(J, r0 + 2, c0), v + 1);
    arb_set(arb_mat_entry(J, r0 + 2, c0 + 1), v + 0);
}

/* Poisson tensor of the first k coordinates (3: hat Pi; 6: [[hat Pi, hat Gamma],
 * [hat Gamma, 0]]), k x k balls. */
static void poisson_tensor(arb_mat_t J, arb_srcptr u, int k)
{
    arb_mat_zero(J);
    hat_block(J, 0, 0, u);
    if (k == 6) {
        hat_block(J, 0, 3, u + 3);
        hat_block(J, 3, 0, u + 3);
    }
}

int slpi_gaps_poisson_coords(const slpi_problem *p)
{
    return slpi_view_system(p)->system == SLPI_SYS_HEAVY_TOP ? 6
        : slpi_view_system(p)->system == SLPI_SYS_RIGID_BODY ? 3
                                                             : 0;
}

static int defect(stepper *s, const double *x0, int k, double eps, arb_t out)
{
    int dim = s->dim, rc;
    double xp[MAXDIM], xm[MAXDIM];
    arb_ptr yp = _arb_vec_init(dim), ym = _arb_vec_init(dim), y0 = _arb_vec_init(dim), u0 = _arb_vec_init(dim);
    arb_t wd;
    arb_mat_t D, J, Jy, T, P;
    arb_init(wd);
    arb_mat_init(D, k, k);
    arb_mat_init(J, k, k);
    arb_mat_init(Jy, k, k);
    arb_mat_init(T, k, k);
    arb_mat_init(P, k, k);
    for (int i = 0; i < dim; i++) arb_set_d(u0 + i, x0[i]);
    rc = step_to_balls(s, x0, y0);
    for (int j = 0; !rc && j < k; j++) {
        memcpy(xp, x0, sizeof(double) * (size_t)dim);
        memcpy(xm, x0, sizeof(double) * (size_t)dim);
        xp[j] += eps;
        xm[j] -= eps;
        rc = step_to_balls(s, xp, yp);
        if (!rc) rc = step_to_balls(s, xm, ym);
        arb_set_d(wd, xp[j] - xm[j]); /* exact in binary64 */
        for (int i = 0; !rc && i < k; i++) {
            arb_sub(arb_mat_entry(D, i, j), yp + i, ym + i, PREC);
            arb_div(arb_mat_entry(D, i, j), arb_mat_entry(D, i, j), wd, PREC);
        }
    }
    if (!rc) {
        poisson_tensor(J, u0, k);
        poisson_tensor(Jy, y0, k);
        arb_mat_mul(T, D, J, PREC);
        arb_mat_transpose(P, D);
        arb_mat_mul(T, T, P, PREC);
        arb_mat_sub(T, T, Jy, PREC);
        arb_zero(out);
        for (int i = 0; i < k; i++)
            for (int j = 0; j < k; j++) {
                arb_abs(arb_mat_entry(T, i, j), arb_mat_entry(T, i, j));
                arb_max(out, out, arb_mat_entry(T, i, j), PREC);
            }
    }
    arb_clear(wd);
    arb_mat_clear(D);
    arb_mat_clear(J);
    arb_mat_clear(Jy);
    arb_mat_clear(T);
    arb_mat_clear(P);
    _arb_vec_clear(yp, dim);
    _arb_vec_clear(ym, dim);
    _arb_vec_clear(y0, dim);
    _arb_vec_clear(u0, dim);
    return rc;
}

int slpi_gaps_poisson_fd(const slpi_problem *p, const double *x0, int certified, double eps, double dw, arb_t out,
                         slpi_error *err)
{
    stepper s = { NULL, NULL, slpi_problem_state_dim(p), dw };
    int k = slpi_gaps_poisson_coords(p);
    if (slpi_problem_noise_count(p) > 8)
        return slpi_error_set(err, SLPI_EINPUT, "poisson: %d noises (at most 8)", slpi_problem_noise_count(p));
    if (!k || s.dim > MAXDIM)
        return slpi_error_set(err, SLPI_EINPUT,
                              "poisson: %s has no Lie-Poisson tensor here "
                              "(rigid body and heavy top only)",
                              slpi_system_name(slpi_view_system(p)->system));
    int rc = certified ? slpi_ref_create(&s.r, p, err) : slpi_fast_create(&s.f, p, err);
    if (!rc && defect(&s, x0, k, eps, out))
        rc = slpi_error_set(err, SLPI_ENUMERIC, "poisson: a step failed%s%s", certified ? ": " : "",
                            certified ? slpi_ref_unable_reason(s.r) : "");
    slpi_ref_free(s.r);
    slpi_fast_free(s.f);
    return rc;
}

int slpi_gaps_poisson_rigorous(const slpi_problem *p)
{
    return slpi_view_system(p)->system == SLPI_SYS_RIGID_BODY &&
        (slpi_view_scheme(p)->scheme == SLPI_SCHEME_SVI || slpi_view_scheme(p)->scheme == SLPI_SCHEME_ISOMP);
}

int slpi_gaps_poisson_ift(const slpi_problem *p, const double *x0, double dw, arb_t out, slpi_error *err)
{
    if (!slpi_gaps_poisson_rigorous(p))
        return slpi_error_set(err, SLPI_EINPUT,
                              "poisson: the rigorous defect is used for svi and "
                              "isomp on the rigid body only");
    slpi_ref *r = NULL;
    arb_ptr x = _arb_vec_init(3), d = _arb_vec_init(9);
    double dW[8];
    for (int i = 0; i < 8; i++) dW[i] = dw;
    int rc = slpi_problem_noise_count(p) > 8 ? slpi_error_set(err, SLPI_EINPUT,
                                                              "poisson: more "
                                                              "than 8 noises")
                                             : SLPI_OK;
    if (!rc) rc = slpi_ref_create(&r, p, err);
    for (int i = 0; i < 3; i++) arb_set_d(x + i, x0[i]);
    if (!rc) rc = slpi_ref_poisson_defect(r, x, dW, d, err);
    arb_zero(out);
    for (int i = 0; rc == SLPI_OK && i < 9; i++) {
        arb_abs(d + i, d + i);
        arb_max(out, out, d + i, PREC);
    }
    _arb_vec_clear(x, 3);
    _arb_vec_clear(d, 9);
    slpi_ref_free(r);
    return rc;
}
