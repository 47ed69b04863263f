/* ref/poisson-defect.c — the certified Poisson-map defect of one step, D J(x) D^T - J(x_1)
 * (slpi_ref_poisson_defect, slpi.h): ISOMP's from its step Jacobian here, SVI's vector forms'
 * from the implicit function theorem (ref/svi.c); on the precision ladder of ref/ref.c. */
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/step.h"
#include "slpi/ref.h"
#include "core/view-cert.h"
#include "core/view-scheme.h"
#include "core/view-system.h"
#include "ref/ref.h"

/* ISOMP's defect (docs/schemes.md#isomp; ISO Thm 4.5): D the scheme's step Jacobian at
 * the point x, J(y) e_j = coad(e_j / g_j, y) the Lie-Poisson tensor in the state's
 * coordinates, g_j = |unpack(e_j)|_F^2 the Frobenius metric of coordinate j (1 without a
 * matrix form; the su(N) layout weighs off-diagonal entries twice). A constant factor and
 * the sign do not matter to D J(x) D^T = J(x_1). */
static int isomp_poisson_defect(slpi_ref *s, arb_srcptr x, arb_ptr defect, slong prec, char *why, size_t why_len)
{
    const slpi_ref_system *sys = &s->sys;
    int d = sys->state_dim;
    arb_mat_t D, J0, J1, T;
    arb_mat_init(D, d, d);
    arb_mat_init(J0, d, d);
    arb_mat_init(J1, d, d);
    arb_mat_init(T, d, d);
    arb_ptr x1 = _arb_vec_init(d), e = _arb_vec_init(d), col = _arb_vec_init(d);
    _arb_vec_set(x1, x, d);
    int ok = s->scheme->jac(sys, D, x, s->delta, prec, why, why_len) &&
        s->scheme->step(sys, x1, s->delta, prec, why, why_len) == SLPI_STEP_CONVERGED;
    acb_mat_t E;
    acb_mat_init(E, sys->N > 0 ? sys->N : 1, sys->N > 0 ? sys->N : 1);
    for (int j = 0; ok && j < d; j++) {
        _arb_vec_zero(e, d);
        arb_one(e + j);
        if (sys->m_unpack != NULL && sys->N > 0) {
            arb_t g;
            arb_init(g);
            sys->m_unpack(sys, E, e, prec);
            for (int a = 0; a < sys->N * sys->N; a++) {
                acb_srcptr z = acb_mat_entry(E, a / sys->N, a % sys->N);
                arb_addmul(g, acb_realref(z), acb_realref(z), prec);
                arb_addmul(g, acb_imagref(z), acb_imagref(z), prec);
            }
            arb_div(e + j, e + j, g, prec);
            arb_clear(g);
        }
        sys->coad(sys, col, e, x, prec);
        for (int i = 0; i < d; i++) arb_set(arb_mat_entry(J0, i, j), col + i);
        sys->coad(sys, col, e, x1, prec);
        for (int i = 0; i < d; i++) arb_set(arb_mat_entry(J1, i, j), col + i);
    }
    if (ok) {
        arb_mat_mul(T, D, J0, prec);
        arb_mat_transpose(J0, D);
        arb_mat_mul(D, T, J0, prec);
        arb_mat_sub(D, D, J1, prec);
        for (int i = 0; i < d; i++)
            for (int j = 0; j < d; j++) arb_set(defect + d * i + j, arb_mat_entry(D, i, j));
    }
    acb_mat_clear(E);
    _arb_vec_clear(x1, d);
    _arb_vec_clear(e, d);
    _arb_vec_clear(col, d);
    arb_mat_clear(D);
    arb_mat_clear(J0);
    arb_mat_clear(J1);
    arb_mat_clear(T);
    return ok;
}

int slpi_ref_poisson_defect(slpi_ref *s, arb_srcptr x, const double *dW, arb_ptr defect, slpi_error *err)
{
    const slpi_problem *p = s->p;
    int svi = slpi_view_scheme(p)->scheme == SLPI_SCHEME_SVI && slpi_view_scheme(p)->svi_form != SLPI_SVI_FORM_LP &&
        (slpi_view_system(p)->system == SLPI_SYS_RIGID_BODY || slpi_view_system(p)->system == SLPI_SYS_HEAVY_TOP);
    int isomp = slpi_view_scheme(p)->scheme == SLPI_SCHEME_ISOMP && slpi_ref_has_step_jacobian(s) &&
        s->sys.gdim == s->sys.state_dim;
    if (!svi && !isomp)
        return slpi_error_set(err, SLPI_EINPUT,
                              "ref: the Poisson defect is certified for svi on the rigid body and "
                              "the heavy top in vector form and for isomp (update=comm, no "
                              "fixed_iters, state of at most %d numbers), not %s/%s",
                              SLPI_REF_LOHNER_MAX, slpi_system_name(slpi_view_system(p)->system),
                              slpi_scheme_name(slpi_view_scheme(p)->scheme));
    s->delta[0] = s->h;
    for (int k = 1; k <= s->sys.M; k++) s->delta[k] = dW[k - 1];
    char why[200] = "";
    for (long prec = slpi_view_cert(p)->prec; prec > 0; prec = slpi_ref_next_prec(prec, slpi_view_cert(p)->prec_max))
        if (svi ? slpi_ref_svi_poisson_defect(&s->sys, x, s->delta, defect, prec, why, sizeof why)
                : isomp_poisson_defect(s, x, defect, prec, why, sizeof why))
            return SLPI_OK;
    return slpi_error_set(err, SLPI_ENUMERIC, "ref: Poisson defect UNABLE at %ld bits: %s", slpi_view_cert(p)->prec_max,
                          why);
}
